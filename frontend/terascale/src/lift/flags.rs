//! Floating-point exception flags (seed 000 4.13.2, L2068-L2086; STORE_FLAGS L6948-L6970,
//! LOAD_STORE_FLAGS L4813-L4830).
//!
//! # The register
//! Six bits per lane, the `flags` cell of [`super::TsLayout`]: `[5]` inexact, `[4]` underflow,
//! `[3]` overflow, `[2]` division by zero, `[1]` denormal, `[0]` invalid. That is the bit order of the
//! IR's [`fpflag`] (x86 MXCSR's), so the lifter stores what `fexcept` computes unchanged (a
//! compile-time check below keeps the two orders equal).
//!
//! # Scope: clauses that read the flags
//! The register is cleared at the start of every ALU clause and only STORE_FLAGS and
//! LOAD_STORE_FLAGS read it, so the flags of a clause without either can never be observed:
//! such a clause tracks nothing and costs nothing. A clause with one clears the cell at its
//! start and tracks every group, which is exact. (Flags "from a previous clause" can only come
//! back through a GPR that a LOAD_STORE_FLAGS of the later clause reads.) Across a
//! GROUP_BARRIER's block split the cell carries the flags.
//!
//! # What a group raises
//! Per lane, the OR over the group's slots that execute in that lane ("combined result of
//! x,y,z,w") of:
//! - the `fexcept` of every IEEE operation the slot's value is made of ([`Emit`]: MULADD is a
//!   MUL then an ADD, DOT4 its products and sums, the _PREV chains their steps), in the
//!   clause's float mode (flushed operands raise no denormal flag; a result flushed to zero
//!   raises underflow and inexact);
//! - the OMOD scaling (one more multiplication; its denormal flag is dropped: its operand is
//!   the slot's result, not an input).
//!
//! The output clamp, moves, integer ops, KILL (pixel kill), MOVA*, LDS ops and CUBE (the IR's
//! cube-map ops have no IEEE definition) raise nothing. For the transcendentals the document is
//! silent (as it is on their accuracy): the IR's rule applies (invalid for domain errors,
//! division by zero at poles, inexact unless the exact result is representable; see
//! `wavejit_ir::semantics::except`). The flavours `_CLAMPED`/`_FF` do not hide the exception
//! their substitute value replaces. FLT_TO_INT_FLOOR/_RPI are conversions with their own
//! rounding: inexact when the source is not integral, invalid for NaN and out-of-range values.
//!
//! # STORE_FLAGS, LOAD_STORE_FLAGS
//! "Flags are inclusive of the current VLIW" (L6954, L4816): both write the flags
//! accumulated before their group ORed with the flags of the whole group (every slot, T
//! included). For these two instructions the document thus makes an exception to the group
//! rule that sources are read before results are written. LOAD_STORE_FLAGS then replaces the
//! register with the low six bits of src0 in the lanes that execute it ("clears flags or
//! restores flags from a previous clause"): its group's flags are dropped there. Both write
//! like any OP2 result (WRITE_MASK, PV, OMOD/CLAMP as every OP2 slot; their OMOD raises no
//! flags). Their value is known only once the group's last slot is lifted, so a _PREV chain
//! whose previous slot holds one reads that slot's source instead (the document gives no
//! order for this circular case). The document allows
//! them in w only (L6956, L4817); the slot tables (Mesa's flags) accept any vector slot, and
//! the lifter gives the same result in any slot. "This feature exists only on GPUs that
//! support double-precision" (L2072): like the 64-bit instructions, the flags are lifted on
//! every chip (the chip models carry no double-precision feature).
use super::alu_ops::{lift_alu_flagged, Omod};
use super::{AluInput, AluValue, Lifter};
use crate::inst::{AluGroup, AluInst, AluSrc};
use crate::opcode::AluOp;
use wavejit_ir::{fpflag, Except, Op, ScalarType, Value};

use ScalarType::{F32, I32};

// 4.13.2's bit order is the IR's: stored unchanged.
const _: () = assert!(
    fpflag::INVALID == 1 << 0
        && fpflag::DENORMAL == 1 << 1
        && fpflag::DIV_BY_ZERO == 1 << 2
        && fpflag::OVERFLOW == 1 << 3
        && fpflag::UNDERFLOW == 1 << 4
        && fpflag::INEXACT == 1 << 5
);

/// The flag tracking of the ALU clause being lifted.
#[derive(Default)]
pub(crate) struct FlagState {
    /// The clause reads its flags: every group is tracked.
    tracked: bool,
    /// The flags the group being lifted raised so far (`i32` per lane).
    group: Option<Value>,
    /// Each computed slot's own flags, by (op, sources), for slots that reuse its value.
    slots: Vec<(AluOp, [AluSrc; 3], Value)>,
    /// The group's LOAD_STORE_FLAGS: (src0, lanes).
    loads: Vec<(Value, Value)>,
}

/// Whether `op` reads the flags register.
pub(crate) fn is_flag_op(op: AluOp) -> bool {
    matches!(op, AluOp::STORE_FLAGS | AluOp::LOAD_STORE_FLAGS)
}

impl Lifter<'_> {
    /// At the start of an ALU clause: tracks the clause when it reads its flags, and clears
    /// the register then.
    pub(super) fn flags_begin_clause(&mut self, groups: &[AluGroup]) {
        let tracked = groups
            .iter()
            .any(|g| g.insts.iter().any(|i| is_flag_op(i.op)));
        self.flags = FlagState {
            tracked,
            ..FlagState::default()
        };
        if tracked {
            let zero = self.b.i32(0);
            let r = self.l.flags();
            self.b.def_reg(r, zero, None);
        }
    }

    /// The value of `inst` on `input` (see [`super::lift_alu`]); in a tracked clause its flags
    /// join the group's in the lanes `lanes` that execute it.
    pub(super) fn flagged_value(
        &mut self,
        inst: &AluInst,
        input: AluInput<'_>,
        lanes: Value,
    ) -> Result<AluValue, super::AluError> {
        if !self.flags.tracked {
            return super::lift_alu(&mut self.b, inst.op, &self.env, input);
        }
        let (v, f) = lift_alu_flagged(&mut self.b, inst.op, &self.env, input)?;
        self.flags.slots.push((inst.op, inst.src, f));
        self.raise_in(f, lanes);
        Ok(v)
    }

    /// A slot that reuses the value of an earlier slot with the same op and sources raises
    /// the same flags, in its own lanes.
    pub(super) fn flags_reused(&mut self, inst: &AluInst, lanes: Value) {
        let found = self
            .flags
            .slots
            .iter()
            .find(|s| s.0 == inst.op && s.1 == inst.src);
        if let Some(&(_, _, f)) = found {
            self.raise_in(f, lanes);
        }
    }

    /// The flags of the OMOD scaling of an OP2 result `v` (see the module doc).
    pub(super) fn flags_omod(&mut self, omod: Omod, v: Value, lanes: Value) {
        let k = match omod {
            _ if !self.flags.tracked => return,
            Omod::Off => return,
            Omod::M2 => 2.0f32,
            Omod::M4 => 4.0,
            Omod::D2 => 0.5,
        };
        let mode = self.env.f32_mode;
        let x = self.b.op(Op::Bitcast, F32, &[v]);
        let k = self.b.f32(k);
        let f = self
            .b
            .op_mode(Op::Fexcept(Except::Fmul), mode, I32, &[x, k]);
        let keep = self.b.i32(fpflag::ALL & !fpflag::DENORMAL);
        let f = self.b.op(Op::And, I32, &[f, keep]);
        self.raise_in(f, lanes);
    }

    /// The value STORE_FLAGS or LOAD_STORE_FLAGS (`inst`, run in `lanes`) writes: the flags
    /// before the group with the whole group's. A LOAD_STORE_FLAGS also loads `src0` into the
    /// register for its lanes (applied by [`Lifter::flags_end_group`]).
    pub(super) fn flags_store(&mut self, inst: &AluInst, src0: Value, lanes: Value) -> Value {
        let r = self.l.flags();
        let before = self.b.use_reg(r, I32);
        let v = match self.flags.group {
            Some(g) => self.b.op(Op::Or, I32, &[before, g]),
            None => before,
        };
        if inst.op == AluOp::LOAD_STORE_FLAGS {
            self.flags.loads.push((src0, lanes));
        }
        v
    }

    /// At the end of a tracked group: the register gets the group's flags, then the loads of
    /// its LOAD_STORE_FLAGS.
    pub(super) fn flags_end_group(&mut self) {
        if !self.flags.tracked {
            return;
        }
        let r = self.l.flags();
        if let Some(g) = self.flags.group.take() {
            let before = self.b.use_reg(r, I32);
            let v = self.b.op(Op::Or, I32, &[before, g]);
            self.b.def_reg(r, v, None);
        }
        for (src, lanes) in std::mem::take(&mut self.flags.loads) {
            let six = self.b.i32(fpflag::ALL);
            let v = self.b.op(Op::And, I32, &[src, six]);
            self.b.def_reg(r, v, Some(lanes));
        }
        self.flags.slots.clear();
    }

    /// ORs `f` into the group's flags in `lanes`.
    fn raise_in(&mut self, f: Value, lanes: Value) {
        let zero = self.b.i32(0);
        let f = self.b.op(Op::Select, I32, &[lanes, f, zero]);
        self.flags.group = Some(match self.flags.group {
            Some(g) => self.b.op(Op::Or, I32, &[g, f]),
            None => f,
        });
    }
}
