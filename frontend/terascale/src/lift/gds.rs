//! MEM_GDS: data-share operations on the dispatch's global data share, in GDS clauses (CF
//! GDS, 8.1 L2678-L2692; MEM_GDS_WORD0-2, 9.6 L9813-L9968).
//!
//! # Memory
//! GDS is [`GDS_BYTES`] of guest memory per dispatch at the `gds` address of
//! [`super::TsLayout`] (64 KB, 2.6 / Table 2.9), zero at dispatch start and shared by every
//! work-group, the model wavejit's GCN side uses for its GDS. The hardware splits GDS between
//! the pipeline stages with driver-programmed base/size registers the document does not
//! describe; a compute dispatch here owns all of it. An access is made when it ends within
//! GDS; outside, a lane reads 0 and writes nothing (the LDS rule, which the document states
//! for LDS and is silent about for GDS, as on the GCN side). A launch without GDS memory
//! (`gds` 0) makes a MEM_GDS instruction trap.
//!
//! # Operands
//! GDS_OP is an LDS_OP code (the GDS_OP table, L9874-L9930, is the LDS one) and has the LDS
//! semantics (`lds`, one definition for both shares): src0 is the byte address, src1 and src2
//! the data, taken from SRC_GPR's SRC_SEL_X, SRC_SEL_Y and SRC_SEL_Z ("dst=src0_sel,
//! src=src1_sel", L9881; 4 selects 0, 5 selects 1.0f). The address unit follows Mesa's
//! Cayman path, which puts `4 * counter index` in SRC_SEL_X (sfn_instr_mem.cpp
//! `GDSInstr::emit_atomic_op2`), the byte unit the LDS ops use. A returned value goes to
//! DST_GPR.x, a second one to .y (L9866), and WORD2's DST_SEL picks from those: 0 the first,
//! 1 the second, 4 zero, 5 one (1.0f), 7 no write. Only the active lanes access GDS, in lane
//! order per instruction.
//!
//! # Not lifted
//! Evergreen's MEM_GDS: Mesa's Evergreen path passes no address in SRC_GPR and addresses
//! GDS through UAV_ID and the resource offset instead (the same file), a mapping onto GDS
//! memory the document does not give. On Cayman: UAV_ID, UAV_INDEX_MODE, ALLOC_CONSUME
//! (append/consume counters) and BCAST_FIRST_REQ; WORD1 `[22:16]` (the document's "dword
//! offset", Mesa's `src_gpr2`: its role is not described) other than 0; the REL and `2` forms
//! (WRITE_REL, WRITE2, READ_REL_RET, XCHG_REL_RET, XCHG2_RET), whose `sq_DS_idx_offset` has
//! no field in this encoding; SRC_REL_MODE/DST_REL_MODE; a DST_SEL of z or w, or of a value
//! the op does not return. MEM_TF_WRITE (tessellation factors) has no meaning for compute.
use super::lds::{DsOp, Returned, Share};
use super::{LiftError, Lifter};
use crate::inst::{bits, FetchInst};
use crate::tables::{lds_by_code, LdsOp};
use crate::ChipClass;
use wavejit_ir::{ScalarType, Value};

use ScalarType::{I32, I64};

impl Lifter<'_> {
    /// MEM_GDS in a GDS clause.
    pub fn lift_gds(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let [w0, w1, w2] = f.words;
        let code = bits(w1, 9, 6) as u16;
        let info = lds_by_code(self.p.class, code);
        let text = match info {
            Some(i) => format!("MEM_GDS {}", i.text),
            None => format!("MEM_GDS {code}"),
        };
        let un = |me: &Self, why: &str| me.unsupported(cf, at, text.clone(), why);
        let Some(info) = info else {
            return Err(self.invalid(cf, at, text.clone(), "reserved GDS_OP"));
        };
        if self.p.class == ChipClass::Evergreen {
            return Err(un(
                self,
                "Evergreen GDS addressing (UAV_ID based, undocumented)",
            ));
        }
        if bits(w1, 24, 8) != 0 {
            let why = "UAV_ID, UAV_INDEX_MODE, ALLOC_CONSUME or BCAST_FIRST_REQ";
            return Err(un(self, why));
        }
        if bits(w1, 16, 7) != 0 {
            return Err(un(self, "WORD1 [22:16] (undocumented role) other than 0"));
        }
        if bits(w0, 18, 2) != 0 || bits(w1, 7, 2) != 0 {
            return Err(un(self, "relative GPR addressing"));
        }
        use LdsOp::*;
        if matches!(
            info.op,
            WRITE_REL | WRITE2 | READ_REL_RET | XCHG_REL_RET | XCHG2_RET
        ) {
            return Err(un(self, "REL/2 forms (no idx offset field in MEM_GDS)"));
        }
        let bound = self.l.gds();
        self.require_table(bound, &text, "no GDS memory is bound");
        let src_gpr = bits(w0, 11, 7);
        let mut s = [Value(u32::MAX); 3];
        for (k, slot) in s.iter_mut().enumerate() {
            let sel = bits(w0, 20 + 3 * k as u32, 3);
            *slot = match sel {
                _ if k >= usize::from(info.srcs) => self.b.i32(0),
                0..=3 => {
                    let r = self.l.gpr(src_gpr, sel);
                    self.b.use_reg(r, I32)
                }
                4 => self.b.i32(0),
                5 => self.b.i32(1f32.to_bits()),
                _ => return Err(self.invalid(cf, at, text.clone(), "reserved SRC_SEL")),
            };
        }
        let gr = self.l.gds();
        let base = self.b.use_reg(gr, I64);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let op = DsOp {
            op: info.op,
            offset: 0,
            text: text.clone(),
        };
        let ret = self.lift_ds_op(cf, at, &op, Share::Gds(base), s, lanes)?;
        let dst = bits(w1, 0, 7);
        let mut writes = Vec::new();
        for chan in 0..4 {
            let sel = bits(w2, 3 * chan, 3);
            let v = match (sel, &ret) {
                (7, _) => continue,
                (_, None) => continue,
                (0, Some(r)) => r.a,
                (1, Some(Returned { b: Some(b), .. })) => *b,
                (4, _) => self.b.i32(0),
                (5, _) => self.b.i32(1f32.to_bits()),
                (6, _) => return Err(self.invalid(cf, at, text.clone(), "reserved DST_SEL 6")),
                _ => return Err(un(self, "DST_SEL of a value the op does not return")),
            };
            writes.push((self.l.gpr(dst, chan), v));
        }
        for (r, v) in writes {
            self.b.def_reg(r, v, Some(lanes));
        }
        Ok(())
    }
}
