//! Scalar memory: SMRD (gfx6/7) and SMEM (gfx8/9) loads, stores and atomics
//! (CLRX doc/GcnInstrsSmrd.md, GcnInstrsSmem.md).
//!
//! Address = SBASE (64-bit pair, or the base of a buffer V# for `s_buffer_*`) + offset, with
//! the low two bits cleared (scalar accesses are dword aligned). The offset is an immediate
//! in dwords on gfx6/7 (also the gfx7 32-bit literal form) and in bytes on gfx8/9; an SGPR
//! offset is in bytes everywhere. Wide loads are split into dword loads. `s_buffer_load`
//! checks each dword against the V#'s NUM_RECORDS (bytes) and returns 0 beyond it (the raw
//! buffer rule of doc/GcnMemHandling.md with STRIDE ignored). Cache maintenance and
//! `s_atc_probe*` are hints without architectural effect.
//!
//! gfx9 additions (CLRX GcnInstrsSmem.md covers GCN 1.2 only; the semantics follow the AMD
//! Vega ISA SMEM tables and its "Scalar Memory Addressing" formula):
//! - `s_atomic_*` / `s_buffer_atomic_*`: one read-modify-write at the uniform address (the
//!   IR's `Atomic`); SDATA holds the data (cmpswap: new value, then compare value) and, with
//!   `glc`, receives the old value. Buffer atomics are range-checked like `s_buffer_load` (every
//!   dword of the access below NUM_RECORDS); an out-of-range atomic is dropped and returns 0.
//! - `s_scratch_load/store_*`: `ADDR = SBASE + inst_offset + soffset * 64` (the register offset
//!   counts 64-byte units; this scaling is not in CLRX, it is the Vega ISA formula as also
//!   implemented by third-party GCN simulators), low two bits cleared. SBASE is by
//!   convention FLAT_SCRATCH (the wave's scratch base, a global address in this emulator);
//!   any SGPR pair is accepted, as the hardware does.
//!
//! **Clocks.** Real `s_memtime` (shader-clock cycles) and `s_memrealtime` (a fixed-rate
//! reference counter) depend on timing, which would make results differ between engines and
//! thread counts. Here the wave's clock is the number of guest instructions it has retired:
//! a 64-bit `clock` cell (see `state.rs`) starting at 0 that each basic block advances by its
//! instruction count when it is entered (skipped vector instructions and instructions after a
//! fault included), only in programs that read a clock. `s_memtime` returns the instructions
//! retired before it (so two reads in a row differ by their distance). `s_memrealtime` returns
//! that count divided by [`REALTIME_DIVIDER`]: the reference clock runs far slower than the
//! shader clock (100 MHz against about 1.6 GHz on Vega-class parts, retiring about one
//! instruction per cycle), so it advances once per 16 instructions. Both are monotonic and
//! the same on every engine. The value is ready at once; `s_waitcnt lgkmcnt` has nothing to
//! wait for.
use super::{LiftError, Lifter};
use crate::inst::{Encoding, Gen, Inst, Opcode, Operand};
use crate::tables::{flags, Field};
use wavejit_ir::{AtomicOp, IntCC, MemSpace, MemWidth, Op, ScalarType, Value};
use ScalarType::*;

/// The read-modify-write of an `*atomic_<op>[_x2]` mnemonic: (op, 64-bit?); None for unknown
/// names. The gfx6/7 float forms (CLRX GcnInstrsMubuf.md, GcnInstrsFlat.md: `fcmpswap`
/// stores data when memory equals cmp as floats, `fmin`/`fmax` keep the smaller/larger) use
/// the IR's float atomics (IEEE rules, denormals kept; CLRX names no denormal or NaN rule).
pub(crate) fn atomic_of(name: &str) -> Option<(AtomicOp, bool)> {
    let (_, rest) = name.split_once("atomic_")?;
    let (base, wide) = match rest.strip_suffix("_x2") {
        Some(b) => (b, true),
        None => (rest, false),
    };
    let op = match base {
        "swap" => AtomicOp::Xchg,
        "cmpswap" => AtomicOp::CmpXchg,
        "add" => AtomicOp::Add,
        "sub" => AtomicOp::Sub,
        "smin" => AtomicOp::Smin,
        "umin" => AtomicOp::Umin,
        "smax" => AtomicOp::Smax,
        "umax" => AtomicOp::Umax,
        "and" => AtomicOp::And,
        "or" => AtomicOp::Or,
        "xor" => AtomicOp::Xor,
        "inc" => AtomicOp::Inc,
        "dec" => AtomicOp::Dec,
        "fcmpswap" => AtomicOp::FcmpXchg,
        "fmin" => AtomicOp::Fmin,
        "fmax" => AtomicOp::Fmax,
        _ => return None,
    };
    Some((op, wide))
}

/// Retired instructions per tick of `s_memrealtime` (see the module doc; a power of two).
pub const REALTIME_DIVIDER: u64 = 16;

/// Whether `inst` reads the wave clock.
pub(crate) fn reads_clock(inst: &Inst) -> bool {
    matches!(inst.opcode, Opcode::S_MEMTIME | Opcode::S_MEMREALTIME)
}

impl Lifter<'_> {
    /// Adds the current basic block's instruction count to the clock (at the block's entry).
    pub(crate) fn advance_clock(&mut self) {
        let r = self.g.clock();
        let c = self.b.use_reg(r, I64);
        let n = self.b.i64(self.block_len);
        let c = self.b.op(Op::Iadd, I64, &[c, n]);
        self.b.def_reg(r, c, None);
    }

    /// `s_memtime` / `s_memrealtime`: the clock as of the current instruction.
    fn clock_read(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let Some(data) = inst.operand(Field::Sdata).copied() else {
            return Err(self.invalid(inst, "missing data register"));
        };
        // The block added all its instructions on entry; this one is `block_index` into it.
        let r = self.g.clock();
        let c = self.b.use_reg(r, I64);
        let back = self.b.i64(self.block_len - self.block_index);
        let mut t = self.b.op(Op::Isub, I64, &[c, back]);
        if inst.opcode == Opcode::S_MEMREALTIME {
            let k = self.b.i32(REALTIME_DIVIDER.trailing_zeros());
            t = self.b.op(Op::Lshr, I64, &[t, k]);
        }
        self.write_scalar(inst, data.value, t)
    }

    /// A uniform dword load that only happens when `ok` (uniform i1) holds; 0 otherwise.
    fn uniform_load_if(&mut self, addr: Value, ok: Value) -> Value {
        let l = self.b.lane_id();
        let z = self.b.i32(0);
        let first = self.b.op(Op::Icmp(IntCC::Eq), I1, &[l, z]);
        let okl = self.b.splat(ok);
        let m = self.b.op(Op::And, I1, &[first, okl]);
        let a = self.b.splat(addr);
        let v = self
            .b
            .load(MemSpace::Global, MemWidth::B32, false, I32, a, Some(m));
        self.b.read_lane(v, z)
    }

    /// A uniform atomic that only happens when `ok` (uniform i1) holds; returns the old value,
    /// or 0 when it did not happen. (A uniform IR atomic takes no mask, so it runs as lane 0
    /// of a lane-shaped one.)
    fn uniform_atomic_if(
        &mut self,
        op: AtomicOp,
        width: MemWidth,
        addr: Value,
        data: Value,
        cmp: Option<Value>,
        ok: Value,
    ) -> Value {
        let l = self.b.lane_id();
        let z = self.b.i32(0);
        let first = self.b.op(Op::Icmp(IntCC::Eq), I1, &[l, z]);
        let okl = self.b.splat(ok);
        let m = self.b.op(Op::And, I1, &[first, okl]);
        let a = self.b.splat(addr);
        let old = self
            .b
            .atomic(op, MemSpace::Global, width, a, data, cmp, Some(m));
        self.b.read_lane(old, z)
    }

    pub(crate) fn smem(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        match op {
            S_DCACHE_INV | S_DCACHE_INV_VOL | S_DCACHE_WB | S_DCACHE_WB_VOL | S_ATC_PROBE
            | S_ATC_PROBE_BUFFER | S_DCACHE_DISCARD | S_DCACHE_DISCARD_X2 => return Ok(()),
            S_MEMTIME | S_MEMREALTIME => return self.clock_read(inst),
            _ => {}
        }
        let name = inst.opcode.name();
        let scratch = name.starts_with("s_scratch_");
        let Some(base) = inst.operand(Field::Sbase).copied() else {
            return Err(self.invalid(inst, "missing base"));
        };
        let buffer = base.dwords == 4;
        let Some(breg) = self.sreg_of(base.value) else {
            return Err(self.invalid(inst, "scalar memory base"));
        };
        let (base_addr, num_records) = if buffer {
            let w0 = self.b.use_reg(breg, I32);
            let w1 = self.b.use_reg(breg.offset(1), I32);
            let w2 = self.b.use_reg(breg.offset(2), I32);
            let lo = self.b.op(Op::Zext, I64, &[w0]);
            let m = self.b.i32(0xffff);
            let hi = self.b.op(Op::And, I32, &[w1, m]);
            let hi = self.b.op(Op::Zext, I64, &[hi]);
            let k = self.b.i32(32);
            let hi = self.b.op(Op::Shl, I64, &[hi, k]);
            (self.b.op(Op::Or, I64, &[lo, hi]), Some(w2))
        } else {
            (self.read_scalar(inst, base.value, I64)?, None)
        };
        let off = self.smem_offset(inst, scratch)?;
        let off64 = self.b.op(Op::Zext, I64, &[off]);
        let addr = self.b.op(Op::Iadd, I64, &[base_addr, off64]);
        let align = self.b.i64(!3);
        let addr = self.b.op(Op::And, I64, &[addr, align]);
        let Some(data) = inst.operand(Field::Sdata).copied() else {
            return Err(self.invalid(inst, "missing data register"));
        };
        let Some(dreg) = self.sreg_of(data.value) else {
            return Err(self.invalid(inst, "scalar memory data register"));
        };
        if !self.g.layout.contains(dreg, data.dwords as u32) {
            return Err(self.invalid(inst, "data registers outside the SGPR file"));
        }
        if inst.info.has(flags::ATOMIC) {
            let bound = num_records.map(|n| (off, n));
            return self.smem_atomic(inst, name, addr, bound, dreg, data.dwords as u32);
        }
        let store = inst.info.has(flags::STORE);
        for i in 0..data.dwords as u32 {
            let k = self.b.i64(4 * i as u64);
            let a = self.b.op(Op::Iadd, I64, &[addr, k]);
            if store {
                let v = self.b.use_reg(dreg.offset(i), I32);
                self.b.store(MemSpace::Global, MemWidth::B32, a, v, None);
                continue;
            }
            let v = match num_records {
                Some(n) => {
                    let ki = self.b.i32(4 * i);
                    let o = self.b.op(Op::Iadd, I32, &[off, ki]);
                    let ok = self.b.op(Op::Icmp(IntCC::Ult), I1, &[o, n]);
                    self.uniform_load_if(a, ok)
                }
                None => self
                    .b
                    .load(MemSpace::Global, MemWidth::B32, false, I32, a, None),
            };
            self.b.def_reg(dreg.offset(i), v, None);
        }
        Ok(())
    }

    /// The byte offset of a scalar memory instruction (uniform i32). A register offset of
    /// `s_scratch_*` counts 64-byte units.
    fn smem_offset(&mut self, inst: &Inst, scratch: bool) -> Result<Value, LiftError> {
        let dwords = inst.encoding == Encoding::Smrd && inst.gen <= Gen::Gfx7;
        let Some(o) = inst.operand(Field::Soff).copied() else {
            return Ok(self.b.i32(0));
        };
        Ok(match o.value {
            Operand::Imm(v) | Operand::Literal(v) => {
                self.b.i32(if dwords { v.wrapping_mul(4) } else { v })
            }
            v => {
                let r = self.read_scalar(inst, v, I32)?;
                if scratch {
                    let k = self.b.i32(6);
                    self.b.op(Op::Shl, I32, &[r, k])
                } else {
                    r
                }
            }
        })
    }

    /// `bound`: (byte offset, NUM_RECORDS) of a buffer atomic.
    fn smem_atomic(
        &mut self,
        inst: &Inst,
        name: &str,
        addr: Value,
        bound: Option<(Value, Value)>,
        dreg: wavejit_ir::Reg,
        dwords: u32,
    ) -> Result<(), LiftError> {
        let Some((op, wide)) = atomic_of(name) else {
            return Err(self.unsupported(inst, "scalar atomic without semantics"));
        };
        let (t, width) = if wide {
            (I64, MemWidth::B64)
        } else {
            (I32, MemWidth::B32)
        };
        let data = self.b.use_reg(dreg, t);
        let cmp = if op == AtomicOp::CmpXchg {
            Some(self.b.use_reg(dreg.offset(dwords / 2), t))
        } else {
            None
        };
        let old = match bound {
            None => self
                .b
                .atomic(op, MemSpace::Global, width, addr, data, cmp, None),
            Some((off, n)) => {
                // In range when the first and the last dword are below NUM_RECORDS (the first
                // check keeps a wrapped `off + 4` from passing).
                let last = self.b.i32(if wide { 4 } else { 0 });
                let end = self.b.op(Op::Iadd, I32, &[off, last]);
                let ok0 = self.b.op(Op::Icmp(IntCC::Ult), I1, &[off, n]);
                let ok1 = self.b.op(Op::Icmp(IntCC::Ult), I1, &[end, n]);
                let ok = self.b.op(Op::And, I1, &[ok0, ok1]);
                self.uniform_atomic_if(op, width, addr, data, cmp, ok)
            }
        };
        if inst.mem.glc {
            self.b.def_reg(dreg, old, None);
        }
        Ok(())
    }
}
