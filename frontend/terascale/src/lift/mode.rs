//! SET_MODE: the float round and denormal modes of an ALU clause (4.13.1, L2044-L2066;
//! SET_MODE L6603-L6616).
//!
//! # The rule
//! A clause starts in the kernel's default modes ([`super::F32_MODE`], [`super::F64_MODE`]:
//! the SQ_PGM_RESOURCES2 defaults the lifter assumes). A group holding SET_MODE runs *all* its
//! slots in the new modes (SET_MODE "affects other instructions in the current group"), and
//! the modes stay until the next SET_MODE or the end of the clause. SET_MODE replaces every
//! field at once (4.13.1: it "changes all round and denorm values").
//!
//! # The bit layout (document garbled; the reading used here)
//! L6605-L6612 are shredded by the extraction (notes/hd6900_il_extraction_issues.md #16). The
//! readable fragments give: `SRC0_SEL` bits 3:0 for single precision, `SRC1_SEL` bits 3:0 for
//! double precision; in each, bits 1:0 the round mode (0 nearest even, 1 toward +inf, 2
//! toward -inf, 3 toward zero, L6608), bit 2 the input denormal control and bit 3 the output
//! denormal control. The two denormal settings are listed as "flush denorms to 0" then
//! "allow denorms" (L6610-L6611) with their numbers lost; 0 = flush, 1 = allow is the order of
//! that list and the polarity of the GCN MODE register's FP_DENORM fields, the successor of
//! these controls. Neither Mesa's r600 back end nor LLVM's R600 target emits SET_MODE, so no
//! producer pins the layout down further.
//!
//! The document names the SEL *fields*, not the operand values, and that is the reading
//! taken: the mode is decoded from the instruction word, so it is always known when lifting
//! (the modes are tracked statically; no source is read and no mode can come from a GPR or a
//! constant buffer). This is also the only reading under which the mode can apply to the
//! other slots of its own group, which compute in parallel with it. The SEL fields' other
//! bits, the source modifiers and PRED_SEL are ignored (the mode is wave state set by the
//! sequencer, not a per-lane result), and nothing is written: no GPR, no PV.
//!
//! Two SET_MODEs in one group are invalid (the group's modes would be ambiguous).
use super::{LiftError, Lifter, F32_MODE, F64_MODE};
use crate::inst::AluGroup;
use crate::opcode::AluOp;
use wavejit_ir::{FloatMode, Round};

/// The float mode encoded in the low four bits of a SET_MODE SEL field.
pub fn float_mode_of(bits: u16) -> FloatMode {
    FloatMode {
        round: match bits & 3 {
            0 => Round::NearestEven,
            1 => Round::TowardPositive,
            2 => Round::TowardNegative,
            _ => Round::TowardZero,
        },
        flush_in: bits & 4 == 0,
        flush_out: bits & 8 == 0,
    }
}

impl Lifter<'_> {
    /// Starts an ALU clause in the default modes.
    pub(super) fn reset_float_mode(&mut self) {
        self.env.f32_mode = F32_MODE;
        self.env.f64_mode = F64_MODE;
    }

    /// Applies the group's SET_MODE (if any) before any of its slots computes.
    pub(super) fn apply_set_mode(&mut self, cf: u32, g: &AluGroup) -> Result<(), LiftError> {
        let mut found = None;
        for (k, i) in g.insts.iter().enumerate() {
            if i.op != AluOp::SET_MODE {
                continue;
            }
            if found.is_some() {
                let at = g.addr + k as u32;
                let text = "SET_MODE".to_string();
                return Err(self.invalid(cf, at, text, "two SET_MODEs in one group"));
            }
            found = Some((float_mode_of(i.src[0].sel), float_mode_of(i.src[1].sel)));
        }
        if let Some((m32, m64)) = found {
            self.env.f32_mode = m32;
            self.env.f64_mode = m64;
        }
        Ok(())
    }
}
