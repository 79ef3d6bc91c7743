//! CF_ALLOC_EXPORT memory instructions: RAT (UAV) stores and atomics on the pool (notes §7,
//! notes/amd_launch_abi.md §2.3); MEM_WR_SCRATCH goes to `scratch`.
//!
//! # Addresses
//! A store's element address is `INDEX_GPR.x` dwords into RAT 0 (the pool:
//! [`crate::launch::rat_address`]); an atomic's is `INDEX_GPR.x` *bytes*: LLVM 14's
//! `AtomicPat` (EvergreenInstructions.td) selects the byte pointer itself as INDEX_GPR,
//! while its stores shift the pointer right by 2 first (the fixture `atomics` computes
//! `&stats[3]` as `stats + 12`). MSKOR follows the stores (LLVM lowers i8/i16 stores to
//! MSKOR with the dword address, R600ISelLowering `LowerSTORE`; test store-global.ll). The
//! document gives no unit for any of them; LLVM is the only producer of these kernels, so
//! its convention is the one followed. Mesa's r600 back end indexes atomics by element
//! instead, so a kernel from Mesa would need the dword unit for atomics too.
//!
//! # Stores
//! STORE_DWORD (Cayman) / STORE_RAW (Evergreen) write the RW_GPR channels COMP_MASK selects
//! to consecutive dwords (channel `c` at dword `index + c`). MEM_RAT_CACHELESS bursts:
//! step `i` (0 to BURST_COUNT) writes GPR `RW_GPR + i` at dword `index + i * stride + c`,
//! with `stride = ARRAY_SIZE[7:0] + 1` dwords (WORD1_BUF, L8336: "the dword stride for
//! burst exports", 1 to 256; the 8-bit field encodes it minus one, like ARRAY_SIZE's other
//! uses, L8334). Bursts of other RAT instructions are not lifted (the document defines the
//! stride only for cacheless stores). STORE_TYPED is not lifted: its format conversion
//! comes from the UAV resource's format (L8234), which the launch ABI does not describe.
//!
//! # Atomics
//! Atomics take their operand in RW_GPR.x (CMPXCHG: the new value in x, the compared value in
//! w, LLVM's `RAT_ATOMIC_CMPXCHG_INT` pattern; the Cayman document says z, L2968, and Mesa
//! uses z on Cayman and w on Evergreen). MSKOR (`(old & ~mask) | data`, the IR's
//! [`AtomicOp::Mskor`]) takes the data in x and the mask in w (LLVM's lowering: value and
//! mask shifted into the byte lane, y and z zero); the Cayman document lists 17 as reserved
//! but LLVM emits MSKOR for Cayman too. Evergreen's float forms: CMPXCHG_FDENORM(_RTN) is
//! [`AtomicOp::FcmpXchg`] (IEEE equality, `-0 == +0`, NaN equal to nothing, denormals kept:
//! the "FDENORM" of the name) with the compared value in w; XCHG_FDENORM_RTN is a plain
//! exchange. CMPXCHG_FLT(_RTN), whose denormal-flushing comparison the IR's atomics cannot
//! express, and STORE_RAW_FDENORM are not lifted; the HD 6900 document marks all of these
//! reserved (Cayman), so their Evergreen semantics are read from the names and Mesa's
//! operand layout (sfn_instr_mem.cpp), not from a document. The `_RTN` forms write the old
//! value back to RW_GPR.x. That return convention is this lifter's own: LLVM 14 selects only
//! the no-return forms (EvergreenInstructions.td `AtomicPat`: "FIXME: Add _RTN version. We
//! need per WI scratch location to store the old value"), i.e. hardware returns the old value
//! through memory (the document's return buffer read through the TC, 6.4 L2199), which no
//! kernel this project loads uses. Only the active lanes access memory; an unmapped address
//! is a guest fault.
use super::{cf_text, LiftError, Lifter};
use crate::inst::{CfInst, CfMem};
use crate::tables::{CfMemOp, RatInst};
use crate::ChipClass;
use wavejit_ir::{AtomicOp, IntCC, MemSpace, MemWidth, Op, ScalarType, TrapKind};

use ScalarType::{F32, I1, I32, I64};

/// What a RAT instruction does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RatKind {
    /// Dword stores of the COMP_MASK channels.
    Store,
    /// An atomic and whether it returns the old value (to RW_GPR.x).
    Atomic(AtomicOp, bool),
}

fn rat_kind(r: RatInst, class: ChipClass) -> Option<RatKind> {
    use RatInst::*;
    let evergreen = class == ChipClass::Evergreen;
    let a = |op, rtn| Some(RatKind::Atomic(op, rtn));
    match r {
        STORE_DWORD if !evergreen => Some(RatKind::Store),
        STORE_RAW if evergreen => Some(RatKind::Store),
        ADD => a(AtomicOp::Add, false),
        SUB => a(AtomicOp::Sub, false),
        RSUB => a(AtomicOp::Rsub, false),
        MIN_INT => a(AtomicOp::Smin, false),
        MIN_UINT => a(AtomicOp::Umin, false),
        MAX_INT => a(AtomicOp::Smax, false),
        MAX_UINT => a(AtomicOp::Umax, false),
        AND => a(AtomicOp::And, false),
        OR => a(AtomicOp::Or, false),
        XOR => a(AtomicOp::Xor, false),
        INC_UINT => a(AtomicOp::Inc, false),
        DEC_UINT => a(AtomicOp::Dec, false),
        CMPXCHG_INT => a(AtomicOp::CmpXchg, false),
        MSKOR => a(AtomicOp::Mskor, false),
        CMPXCHG_FDENORM if evergreen => a(AtomicOp::FcmpXchg, false),
        ADD_RTN => a(AtomicOp::Add, true),
        SUB_RTN => a(AtomicOp::Sub, true),
        RSUB_RTN => a(AtomicOp::Rsub, true),
        MIN_INT_RTN => a(AtomicOp::Smin, true),
        MIN_UINT_RTN => a(AtomicOp::Umin, true),
        MAX_INT_RTN => a(AtomicOp::Smax, true),
        MAX_UINT_RTN => a(AtomicOp::Umax, true),
        AND_RTN => a(AtomicOp::And, true),
        OR_RTN => a(AtomicOp::Or, true),
        XOR_RTN => a(AtomicOp::Xor, true),
        INC_UINT_RTN => a(AtomicOp::Inc, true),
        DEC_UINT_RTN => a(AtomicOp::Dec, true),
        XCHG_RTN => a(AtomicOp::Xchg, true),
        XCHG_FDENORM_RTN if evergreen => a(AtomicOp::Xchg, true),
        CMPXCHG_INT_RTN => a(AtomicOp::CmpXchg, true),
        MSKOR_RTN if evergreen => a(AtomicOp::Mskor, true),
        CMPXCHG_FDENORM_RTN if evergreen => a(AtomicOp::FcmpXchg, true),
        _ => None,
    }
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
        if rat.index_mode == 3 {
            return Err(self.invalid(cf, cf, text.clone(), "RAT_INDEX_MODE 3"));
        }
        if rat.index_mode == 0 && rat.id != 0 {
            return Err(un(self, "RAT other than RAT 0"));
        }
        if m.rw_rel {
            return Err(un(self, "relative RAT access"));
        }
        let Some(kind) = rat_kind(rat.inst, self.p.class) else {
            return Err(un(self, "RAT instruction not lifted"));
        };
        let burst = u32::from(m.burst_count);
        if burst != 0 && (kind != RatKind::Store || m.op != CfMemOp::MEM_RAT_CACHELESS) {
            return Err(un(self, "burst other than a MEM_RAT_CACHELESS store"));
        }
        let rw = u32::from(m.rw_gpr);
        if rw + burst > 127 {
            return Err(self.invalid(cf, cf, text.clone(), "burst past R127"));
        }
        if rat.index_mode != 0 {
            // RAT_INDEX_MODE adds CF_IDX0/1 to the RAT id (`index`); a launch binds RAT 0 only
            // ([`crate::launch::rat`]).
            let id = self.indexed_id(u32::from(rat.id), rat.index_mode);
            let z = self.b.i32(0);
            let other = self
                .b
                .op(Op::Icmp(IntCC::Ne), I1, &[id.expect("mode 3 rejected"), z]);
            let why = format!("{text}: RAT id + CF_IDX is not 0, the only RAT a launch binds");
            self.check(other, TrapKind::Explicit(why));
        }
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let ir = self.l.gpr(u32::from(m.index_gpr), 0);
        let index = self.b.use_reg(ir, I32);
        let index = self.b.op(Op::Zext, I64, &[index]);
        let pr = self.l.pool_base();
        let pool = self.b.use_reg(pr, I64);
        let dwords = matches!(kind, RatKind::Store | RatKind::Atomic(AtomicOp::Mskor, _));
        let off = if dwords {
            let four = self.b.i64(4);
            self.b.op(Op::Imul, I64, &[index, four])
        } else {
            index
        };
        let addr = self.b.op(Op::Iadd, I64, &[pool, off]);
        let (op, rtn) = match kind {
            RatKind::Store => {
                let stride = 4 * (u64::from(m.array_size & 0xff) + 1);
                for i in 0..=burst {
                    for c in 0..4u32 {
                        if m.comp_mask & (1 << c) == 0 {
                            continue;
                        }
                        let r = self.l.gpr(rw + i, c);
                        let v = self.b.use_reg(r, I32);
                        let k = self.b.i64(u64::from(i) * stride + u64::from(4 * c));
                        let a = self.b.op(Op::Iadd, I64, &[addr, k]);
                        self.b
                            .store(MemSpace::Global, MemWidth::B32, a, v, Some(lanes));
                    }
                }
                return Ok(());
            }
            RatKind::Atomic(op, rtn) => (op, rtn),
        };
        let xr = self.l.gpr(rw, 0);
        let mut data = self.b.use_reg(xr, I32);
        let mut cmp = match op {
            AtomicOp::CmpXchg | AtomicOp::FcmpXchg | AtomicOp::Mskor => {
                let wr = self.l.gpr(rw, 3);
                Some(self.b.use_reg(wr, I32))
            }
            _ => None,
        };
        if op.is_float() {
            data = self.b.op(Op::Bitcast, F32, &[data]);
            cmp = cmp.map(|c| self.b.op(Op::Bitcast, F32, &[c]));
        }
        let mut old = self.b.atomic(
            op,
            MemSpace::Global,
            MemWidth::B32,
            addr,
            data,
            cmp,
            Some(lanes),
        );
        if op.is_float() {
            old = self.b.op(Op::Bitcast, I32, &[old]);
        }
        if rtn {
            self.b.def_reg(xr, old, Some(lanes));
        }
        Ok(())
    }
}
