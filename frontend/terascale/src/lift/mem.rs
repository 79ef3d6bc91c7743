//! CF_ALLOC_EXPORT memory instructions: RAT (UAV) stores and atomics on the pool (notes §7,
//! notes/amd_launch_abi.md §2.3); MEM_WR_SCRATCH goes to `scratch`.
//!
//! # Addresses
//! A store's element address is `INDEX_GPR.x` elements into RAT 0 (the pool:
//! [`crate::launch::rat_address`]); the element is a dword for STORE_DWORD/STORE_RAW(_FDENORM)
//! and STORE_TYPED, a short for STORE_SHORT and a byte for STORE_BYTE. An atomic's address
//! (NOP_RTN included) is `INDEX_GPR.x` *bytes*: LLVM 14's `AtomicPat`
//! (EvergreenInstructions.td) selects the byte pointer itself as INDEX_GPR, while its stores
//! shift the pointer right by 2 first (the fixture `atomics` computes `&stats[3]` as
//! `stats + 12`). MSKOR follows the stores (LLVM lowers i8/i16 stores to MSKOR with the dword
//! address, R600ISelLowering `LowerSTORE`; test store-global.ll). The document gives no unit
//! for any of them; LLVM is the only producer of these kernels, so its convention is the one
//! followed. Mesa's r600 back end indexes atomics by element instead, so a kernel from Mesa
//! would need the dword unit for atomics too. STORE_SHORT/STORE_BYTE ("only allowed on uint32
//! surfaces", L8253-L8255) have no producer (LLVM lowers sub-dword stores to MSKOR, Mesa never
//! emits them) and the document gives neither their unit nor their byte lane: they follow
//! STORE_DWORD, whose index counts its own element size, so channel `c` goes to element
//! `index + c` and takes the low 16 or 8 bits of the channel.
//!
//! # Bursts
//! Step `i` (0 to BURST_COUNT) of any RAT instruction uses GPR `RW_GPR + i` and adds
//! `i * stride` dwords to the address. MEM_RAT_CACHELESS: `stride = ARRAY_SIZE[7:0] + 1`
//! (WORD1_BUF, L8336: "the dword stride for burst exports", 1 to 256; the 8-bit field encodes
//! it minus one, like ARRAY_SIZE's other uses, L8334). The cached forms:
//! `stride = ELEM_SIZE + 1` ("BURST_COUNT is multiplied by this factor for CF_INST_MEM*",
//! CF_ALLOC_EXPORT_WORD0_RAT ELEM_SIZE, L8322); ELEM_SIZE 2 (three dwords, "not supported")
//! is invalid there. Steps run in order, each one a whole instruction of its own.
//!
//! # Stores
//! STORE_DWORD (Cayman) / STORE_RAW (Evergreen) write the RW_GPR channels COMP_MASK selects to
//! consecutive dwords (channel `c` at dword `index + c`). STORE_RAW_FDENORM (Evergreen) is the
//! same store: a raw store moves the register bits unconverted, so there are no denormals to
//! flush or keep (the name's "keep float denormals" only matters for a converting store; no
//! document describes it, Mesa and LLVM never emit it). STORE_TYPED converts the channels to
//! the RAT surface's format (L8234). RAT 0 of a compute launch is Mesa's global pool, bound as
//! a `PIPE_FORMAT_R32_UINT` surface (evergreen_compute.c `evergreen_set_rat`), so STORE_TYPED
//! here stores channel x (COMP_MASK bit 0) as one 32_UINT element ([`ElemFormat::store`]) at
//! element `index` (the IL's rule for typed UAVs: "the address is in elements", seed 001
//! L3351); y, z and w have no field in that format. A RAT the launch does not bind
//! ([`crate::launch::Bindings`]; Mesa's: RAT 0) is not lifted; every bound RAT is the pool
//! with these addresses.
//!
//! # Atomics
//! Atomics take their operand in RW_GPR.x (CMPXCHG: the new value in x, the compared value in
//! w, LLVM's `RAT_ATOMIC_CMPXCHG_INT` pattern; the Cayman document says z, L2968, and Mesa
//! uses z on Cayman and w on Evergreen). MSKOR (`(old & ~mask) | data`, the IR's
//! [`AtomicOp::Mskor`]) takes the data in x and the mask in w (LLVM's lowering: value and
//! mask shifted into the byte lane, y and z zero); the Cayman document lists 17 as reserved
//! but LLVM emits MSKOR for Cayman too. Evergreen's float forms (the HD 6900 document marks
//! them reserved, so their semantics are read from the names, the document's wording for
//! XCHG_RTN "no flushing of denorms", L8259, and Mesa's use, not from a description):
//! - CMPXCHG_FDENORM(_RTN) is [`AtomicOp::FcmpXchg`]: IEEE equality (`-0 == +0`, NaN equal to
//!   nothing) with denormals kept, the "FDENORM" of the name.
//! - CMPXCHG_FLT(_RTN) is [`AtomicOp::FcmpXchgFlushIn`]: the same equality with denormal
//!   operands read as zero, the ALU's default float mode for Evergreen compute (notes
//!   amd_launch_abi.md §2.4), which the FDENORM variants exist to avoid. Mesa selects it for
//!   `image_atomic_comp_swap` on float formats (sfn_emitssboinstruction.cpp). D3D11's
//!   `imm_atomic_cmp_exch` compares bits, so it is no source for this one. The exchanged
//!   value is stored unchanged, as for every other exchange.
//! - XCHG_FDENORM_RTN is a plain exchange.
//!
//! NOP_RTN ("flush+ack with no opcode. Return dword", L8257) returns the memory dword
//! without changing it: Mesa implements `image_load` with it. The `_RTN` forms write the
//! old value back to RW_GPR.x (step `i`: `RW_GPR + i`). That return convention is this
//! lifter's own: LLVM 14 selects only the no-return forms (EvergreenInstructions.td
//! `AtomicPat`: "FIXME: Add _RTN version. We need per WI scratch location to store the old
//! value"), i.e. hardware returns the old value through memory (the document's return buffer
//! read through the TC, 6.4 L2199), which no kernel this project loads uses. Only the active
//! lanes access memory; an unmapped address is a guest fault.
use super::{cf_text, LiftError, Lifter};
use crate::inst::{CfInst, CfMem};
use crate::tables::{CfMemOp, RatInst};
use crate::ChipClass;
use wavejit_ir::{
    AtomicOp, DataFormat, ElemFormat, FormatSrc, IntCC, MemSpace, MemWidth, NumFormat, Op,
    ScalarType, Sel, TrapKind, Value,
};

use ScalarType::{F32, I1, I32, I64};

/// What a RAT instruction does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RatKind {
    /// Stores of the COMP_MASK channels, one element of this width each.
    Store(MemWidth),
    /// STORE_TYPED on the R32_UINT pool.
    Typed,
    /// NOP_RTN: the memory dword to RW_GPR.x.
    Read,
    /// An atomic and whether it returns the old value (to RW_GPR.x).
    Atomic(AtomicOp, bool),
}

fn rat_kind(r: RatInst, class: ChipClass) -> Option<RatKind> {
    use RatInst::*;
    let evergreen = class == ChipClass::Evergreen;
    let a = |op, rtn| Some(RatKind::Atomic(op, rtn));
    match r {
        STORE_TYPED => Some(RatKind::Typed),
        STORE_DWORD if !evergreen => Some(RatKind::Store(MemWidth::B32)),
        STORE_SHORT if !evergreen => Some(RatKind::Store(MemWidth::B16)),
        STORE_BYTE if !evergreen => Some(RatKind::Store(MemWidth::B8)),
        STORE_RAW | STORE_RAW_FDENORM if evergreen => Some(RatKind::Store(MemWidth::B32)),
        NOP_RTN => Some(RatKind::Read),
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
        CMPXCHG_FLT if evergreen => a(AtomicOp::FcmpXchgFlushIn, false),
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
        CMPXCHG_FLT_RTN if evergreen => a(AtomicOp::FcmpXchgFlushIn, true),
        _ => None,
    }
}

/// The format RAT 0 is bound with (see the module doc).
const POOL_FORMAT: ElemFormat = ElemFormat {
    data: DataFormat::D32,
    num: NumFormat::Uint,
    swizzle: [Sel::X, Sel::Zero, Sel::Zero, Sel::One],
};

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
        let bound = &self.bind.rats;
        if rat.index_mode == 0 && !bound.contains(&u32::from(rat.id)) {
            let ids: Vec<String> = bound.iter().map(u32::to_string).collect();
            let why = format!("RAT other than RAT {}", ids.join("/"));
            return Err(un(self, &why));
        }
        if m.rw_rel {
            return Err(un(self, "relative RAT access"));
        }
        let Some(kind) = rat_kind(rat.inst, self.p.class) else {
            return Err(un(self, "RAT instruction not lifted"));
        };
        let burst = u32::from(m.burst_count);
        let rw = u32::from(m.rw_gpr);
        if rw + burst > 127 {
            return Err(self.invalid(cf, cf, text.clone(), "burst past R127"));
        }
        if rat.index_mode != 0 {
            // RAT_INDEX_MODE adds CF_IDX0/1 to the RAT id (`index`); the sum must name a RAT
            // the launch binds (Mesa's: RAT 0 only, [`crate::launch::rat`]).
            let id = self.indexed_id(u32::from(rat.id), rat.index_mode);
            let id = id.expect("mode 3 rejected");
            let mut other = None;
            for &r in &self.bind.rats {
                let k = self.b.i32(r);
                let ne = self.b.op(Op::Icmp(IntCC::Ne), I1, &[id, k]);
                other = Some(match other {
                    Some(o) => self.b.op(Op::And, I1, &[o, ne]),
                    None => ne,
                });
            }
            let other = other.unwrap_or_else(|| self.b.bool(true));
            let ids: Vec<String> = self.bind.rats.iter().map(u32::to_string).collect();
            let why = format!(
                "{text}: RAT id + CF_IDX is not {}, the RATs the launch binds",
                ids.join("/")
            );
            self.check(other, TrapKind::Explicit(why));
        }
        let stride = if m.op == CfMemOp::MEM_RAT_CACHELESS {
            u64::from(m.array_size & 0xff) + 1
        } else if burst > 0 && m.elem_size == 2 {
            let why = "burst with ELEM_SIZE 2 (three dwords are not supported)";
            return Err(self.invalid(cf, cf, text.clone(), why));
        } else {
            u64::from(m.elem_size) + 1
        };
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let ir = self.l.gpr(u32::from(m.index_gpr), 0);
        let index = self.b.use_reg(ir, I32);
        let index = self.b.op(Op::Zext, I64, &[index]);
        let unit = match kind {
            RatKind::Store(w) => w.bytes(),
            RatKind::Typed | RatKind::Atomic(AtomicOp::Mskor, _) => 4,
            RatKind::Read | RatKind::Atomic(..) => 1,
        };
        let off = if unit > 1 {
            let k = self.b.i64(u64::from(unit));
            self.b.op(Op::Imul, I64, &[index, k])
        } else {
            index
        };
        let pr = self.l.pool_base();
        let pool = self.b.use_reg(pr, I64);
        let base = self.b.op(Op::Iadd, I64, &[pool, off]);
        for i in 0..=burst {
            let k = self.b.i64(4 * stride * u64::from(i));
            let addr = self.b.op(Op::Iadd, I64, &[base, k]);
            self.rat_step(kind, m.comp_mask, rw + i, addr, lanes);
        }
        Ok(())
    }

    /// One burst step of a RAT instruction of `kind` at `addr` with data GPR `gpr`.
    fn rat_step(&mut self, kind: RatKind, comp_mask: u8, gpr: u32, addr: Value, lanes: Value) {
        let g = MemSpace::Global;
        match kind {
            RatKind::Store(width) => {
                for c in 0..4u32 {
                    if comp_mask & (1 << c) == 0 {
                        continue;
                    }
                    let r = self.l.gpr(gpr, c);
                    let v = self.b.use_reg(r, I32);
                    let k = self.b.i64(u64::from(c * width.bytes()));
                    let a = self.b.op(Op::Iadd, I64, &[addr, k]);
                    self.b.store(g, width, a, v, Some(lanes));
                }
            }
            RatKind::Typed => {
                if comp_mask & 1 != 0 {
                    let r = self.l.gpr(gpr, 0);
                    let v = self.b.use_reg(r, I32);
                    let f = FormatSrc::Static(POOL_FORMAT);
                    self.b.store_format(g, f, addr, &[v], Some(lanes));
                }
            }
            RatKind::Read => {
                let v = self.b.load(g, MemWidth::B32, false, I32, addr, Some(lanes));
                let r = self.l.gpr(gpr, 0);
                self.b.def_reg(r, v, Some(lanes));
            }
            RatKind::Atomic(op, rtn) => {
                let xr = self.l.gpr(gpr, 0);
                let mut data = self.b.use_reg(xr, I32);
                let mut cmp = op.takes_cmp().then(|| {
                    let wr = self.l.gpr(gpr, 3);
                    self.b.use_reg(wr, I32)
                });
                if op.is_float() {
                    data = self.b.op(Op::Bitcast, F32, &[data]);
                    cmp = cmp.map(|c| self.b.op(Op::Bitcast, F32, &[c]));
                }
                let w = MemWidth::B32;
                let mut old = self.b.atomic(op, g, w, addr, data, cmp, Some(lanes));
                if op.is_float() {
                    old = self.b.op(Op::Bitcast, I32, &[old]);
                }
                if rtn {
                    self.b.def_reg(xr, old, Some(lanes));
                }
            }
        }
    }
}
