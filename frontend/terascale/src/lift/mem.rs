//! CF_ALLOC_EXPORT memory instructions: RAT (UAV) stores and atomics on the pool (notes §7,
//! notes/amd_launch_abi.md §2.3).
//!
//! A store's element address is `INDEX_GPR.x` dwords into RAT 0 (the pool:
//! [`crate::launch::rat_address`]); an atomic's is `INDEX_GPR.x` *bytes*: LLVM 14's
//! `AtomicPat` (EvergreenInstructions.td) selects the byte pointer itself as INDEX_GPR,
//! while its stores shift the pointer right by 2 first (the fixture `atomics` computes
//! `&stats[3]` as `stats + 12`). The document gives no unit for either; LLVM is the only
//! producer of these kernels, so its convention is the one followed. STORE_DWORD (Cayman) / STORE_RAW (Evergreen) write the
//! RW_GPR channels COMP_MASK selects to consecutive dwords (channel `c` at dword `index + c`).
//! Atomics take their operand in RW_GPR.x (CMPXCHG: the new value in x, the compared value in
//! w, LLVM's `RAT_ATOMIC_CMPXCHG_INT` pattern); the `_RTN` forms write the old value back to
//! RW_GPR.x. That return convention is this lifter's own: LLVM 14 selects only the no-return
//! forms (EvergreenInstructions.td `AtomicPat`: "FIXME: Add _RTN version. We need per WI
//! scratch location to store the old value"), i.e. hardware returns the old value through
//! memory (the document's return buffer read through the TC, 6.4 L2199), which no kernel
//! this project loads uses. Only the active lanes access
//! memory; an unmapped address is a guest fault. BURST_COUNT > 0 is unsupported.
use super::{cf_text, LiftError, Lifter};
use crate::inst::{CfInst, CfMem};
use crate::tables::{CfMemOp, RatInst};
use wavejit_ir::{AtomicOp, MemSpace, MemWidth, Op, ScalarType};

use ScalarType::{I32, I64};

fn atomic_of(r: RatInst) -> Option<(AtomicOp, bool)> {
    use RatInst::*;
    Some(match r {
        ADD => (AtomicOp::Add, false),
        SUB => (AtomicOp::Sub, false),
        RSUB => (AtomicOp::Rsub, false),
        MIN_INT => (AtomicOp::Smin, false),
        MIN_UINT => (AtomicOp::Umin, false),
        MAX_INT => (AtomicOp::Smax, false),
        MAX_UINT => (AtomicOp::Umax, false),
        AND => (AtomicOp::And, false),
        OR => (AtomicOp::Or, false),
        XOR => (AtomicOp::Xor, false),
        INC_UINT => (AtomicOp::Inc, false),
        DEC_UINT => (AtomicOp::Dec, false),
        CMPXCHG_INT => (AtomicOp::CmpXchg, false),
        ADD_RTN => (AtomicOp::Add, true),
        SUB_RTN => (AtomicOp::Sub, true),
        RSUB_RTN => (AtomicOp::Rsub, true),
        MIN_INT_RTN => (AtomicOp::Smin, true),
        MIN_UINT_RTN => (AtomicOp::Umin, true),
        MAX_INT_RTN => (AtomicOp::Smax, true),
        MAX_UINT_RTN => (AtomicOp::Umax, true),
        AND_RTN => (AtomicOp::And, true),
        OR_RTN => (AtomicOp::Or, true),
        XOR_RTN => (AtomicOp::Xor, true),
        INC_UINT_RTN => (AtomicOp::Inc, true),
        DEC_UINT_RTN => (AtomicOp::Dec, true),
        XCHG_RTN => (AtomicOp::Xchg, true),
        CMPXCHG_INT_RTN => (AtomicOp::CmpXchg, true),
        _ => return None,
    })
}

impl Lifter<'_> {
    pub fn lift_mem(&mut self, cf: u32, m: &CfMem) -> Result<(), LiftError> {
        let text = cf_text(&CfInst::Mem(*m));
        let un = |me: &Self, why: &str| me.unsupported(cf, cf, text.clone(), why);
        if m.op == CfMemOp::MEM_WR_SCRATCH {
            return self.lift_scratch_write(cf, m);
        }
        let Some(rat) = m.rat else {
            return Err(un(self, "export/stream/ring instruction not lifted"));
        };
        if !matches!(
            m.op,
            CfMemOp::MEM_RAT | CfMemOp::MEM_RAT_CACHELESS | CfMemOp::MEM_RAT_COMBINED_CACHELESS
        ) {
            return Err(un(self, "combined RAT export"));
        }
        if rat.id != 0 || rat.index_mode != 0 {
            return Err(un(self, "RAT other than RAT 0"));
        }
        if m.burst_count != 0 || m.rw_rel {
            return Err(un(self, "burst or relative RAT access"));
        }
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let ir = self.l.gpr(u32::from(m.index_gpr), 0);
        let index = self.b.use_reg(ir, I32);
        let index = self.b.op(Op::Zext, I64, &[index]);
        let pr = self.l.pool_base();
        let pool = self.b.use_reg(pr, I64);
        let rw = u32::from(m.rw_gpr);
        let store = match rat.inst {
            RatInst::STORE_DWORD => self.p.class == crate::ChipClass::Cayman,
            RatInst::STORE_RAW => self.p.class == crate::ChipClass::Evergreen,
            _ => false,
        };
        let off = if store {
            let four = self.b.i64(4);
            self.b.op(Op::Imul, I64, &[index, four])
        } else {
            index
        };
        let addr = self.b.op(Op::Iadd, I64, &[pool, off]);
        if store {
            for c in 0..4u32 {
                if m.comp_mask & (1 << c) == 0 {
                    continue;
                }
                let r = self.l.gpr(rw, c);
                let v = self.b.use_reg(r, I32);
                let k = self.b.i64(u64::from(4 * c));
                let a = self.b.op(Op::Iadd, I64, &[addr, k]);
                self.b
                    .store(MemSpace::Global, MemWidth::B32, a, v, Some(lanes));
            }
            return Ok(());
        }
        let Some((op, rtn)) = atomic_of(rat.inst) else {
            return Err(un(self, "RAT instruction not lifted"));
        };
        let xr = self.l.gpr(rw, 0);
        let data = self.b.use_reg(xr, I32);
        let cmp = if op == AtomicOp::CmpXchg {
            let wr = self.l.gpr(rw, 3);
            Some(self.b.use_reg(wr, I32))
        } else {
            None
        };
        let old = self.b.atomic(
            op,
            MemSpace::Global,
            MemWidth::B32,
            addr,
            data,
            cmp,
            Some(lanes),
        );
        if rtn {
            self.b.def_reg(xr, old, Some(lanes));
        }
        Ok(())
    }
}
