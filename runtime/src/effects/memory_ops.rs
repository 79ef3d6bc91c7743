//! Loads, stores and atomics in every memory space.
//!
//! Bounds per space (see [`wavejit_ir::MemSpace`]):
//! - Global: the access must lie inside one buffer of [`crate::GuestMemory`], else a fault;
//!   a global atomic must also be aligned to its width (else a `Misaligned` fault: the
//!   documents leave misaligned atomics undefined, and a fault is the visible choice).
//! - LDS: decided per byte. A byte outside the allocation reads as 0 and a write to it is
//!   dropped, while the access's in-range bytes are served. For the aligned accesses GCN
//!   emits this is the documented per-address rule ("writes outside this range are discarded;
//!   reads return 0", HD 6900 ISA, LDS section). An LDS atomic acts only if all its bytes are
//!   in range; otherwise it returns 0 and writes nothing.
//! - Private: lane `l` owns bytes `l * private_lane_bytes ..` of the wave's private area;
//!   an access not entirely inside the lane's segment is a fault.
//!
//! Multi-byte values are little-endian in every space. Formatted accesses (`format_ops`)
//! use the same bounds with the element's size.

use super::{fault, malformed, Operand, Operands};
use crate::engine::WaveCtx;
use crate::error::{Fault, FaultKind};
use crate::memory::MemError;
use crate::wave::Lanes;
use wavejit_ir::semantics::eval;
use wavejit_ir::{
    AtomicOp, FloatCC, FloatMode, Inst, InstKind, MemSpace, MemWidth, MinMax, Op, ScalarType,
};

pub(super) fn run(
    inst: &Inst,
    ops: &Operands<'_>,
    out: &mut Lanes,
    ctx: &mut WaveCtx<'_>,
) -> Result<(), Fault> {
    let ws = ctx.state.wave_size() as usize;
    let result_lane = inst.ty.is_some_and(|t| t.is_lane());
    match inst.kind {
        InstKind::Load {
            space,
            width,
            signed,
            addr,
            mask,
        } => {
            let ty = inst
                .ty
                .ok_or_else(|| malformed(inst.pc, "load without a type"))?
                .scalar;
            let a = ops.get(0, addr)?;
            let m = ops.mask(1, mask)?;
            let acc = Access {
                space,
                len: width.bytes() as u64,
                pc: inst.pc,
                addr: a,
                write: false,
            };
            clear(out, result_lane, ws);
            for l in m.acting(result_lane, ws) {
                let raw = acc.load(l, width, ctx)?;
                out.0[if result_lane { l } else { 0 }] = extend(raw, width, signed, ty);
            }
            Ok(())
        }
        InstKind::Store {
            space,
            width,
            addr,
            value,
            mask,
        } => {
            let a = ops.get(0, addr)?;
            let v = ops.get(1, value)?;
            let m = ops.mask(2, mask)?;
            let per_lane = !a.uniform || !v.uniform;
            let acc = Access {
                space,
                len: width.bytes() as u64,
                pc: inst.pc,
                addr: a,
                write: true,
            };
            for l in m.acting(per_lane, ws) {
                acc.check(l, ctx)?;
            }
            for l in m.acting(per_lane, ws) {
                acc.store(l, width, v.at(l), ctx)?;
            }
            Ok(())
        }
        InstKind::Atomic {
            op,
            space,
            width,
            addr,
            data,
            cmp,
            mask,
        } => {
            let a = ops.get(0, addr)?;
            let d = ops.get(1, data)?;
            let c = cmp.map(|c| ops.get(2, c)).transpose()?;
            let m = ops.mask(2 + c.is_some() as usize, mask)?;
            if op.is_float() && width == MemWidth::B8 {
                return Err(malformed(inst.pc, "8-bit float atomic"));
            }
            let acc = Access {
                space,
                len: width.bytes() as u64,
                pc: inst.pc,
                addr: a,
                write: true,
            };
            for l in m.acting(result_lane, ws) {
                acc.check_atomic(l, ctx)?;
            }
            clear(out, result_lane, ws);
            for l in m.acting(result_lane, ws) {
                let (dl, cl) = (d.at(l), c.map_or(0, |c| c.at(l)));
                let old = acc.rmw(l, width, |old| atomic_apply(op, width, old, dl, cl), ctx)?;
                out.0[if result_lane { l } else { 0 }] = old;
            }
            Ok(())
        }
        _ => Err(malformed(inst.pc, "not a memory instruction")),
    }
}

/// Zeroes the result entries that inactive lanes leave untouched.
pub(super) fn clear(out: &mut Lanes, lane: bool, ws: usize) {
    if lane {
        out.0[..ws].fill(0)
    } else {
        out.0[0] = 0
    }
}

/// Zero- or sign-extends a loaded `width` value to `ty`.
fn extend(raw: u64, width: MemWidth, signed: bool, ty: ScalarType) -> u64 {
    let v = if signed {
        let sh = 64 - 8 * width.bytes();
        (((raw << sh) as i64) >> sh) as u64
    } else {
        raw
    };
    v & ty.bit_mask()
}

/// The new memory value of an atomic `op` of `width` bytes given the `old` value, the lane's
/// `data` and (for [`AtomicOp::takes_cmp`] ops) `cmp`. Operands are taken modulo the width;
/// float ops use the shared semantics with IEEE mode (denormals kept). An 8-bit float op (no
/// such type) leaves memory unchanged; [`super::run_effect`] rejects it before calling this.
pub fn atomic_apply(op: AtomicOp, width: MemWidth, old: u64, data: u64, cmp: u64) -> u64 {
    let bits = 8 * width.bytes();
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let (old, data, cmp) = (old & mask, data & mask, cmp & mask);
    let signed = |v: u64| ((v << (64 - bits)) as i64) >> (64 - bits);
    let float = |op: Op| {
        let ft = match width {
            MemWidth::B16 => ScalarType::F16,
            MemWidth::B32 => ScalarType::F32,
            MemWidth::B64 => ScalarType::F64,
            MemWidth::B8 => return old,
        };
        eval(op, FloatMode::IEEE, ft, &[ft, ft], &[old, data])
    };
    let new = match op {
        AtomicOp::Add => old.wrapping_add(data),
        AtomicOp::Sub => old.wrapping_sub(data),
        AtomicOp::Xchg => data,
        AtomicOp::CmpXchg => {
            if old == cmp {
                data
            } else {
                old
            }
        }
        AtomicOp::Umin => old.min(data),
        AtomicOp::Umax => old.max(data),
        AtomicOp::Smin => {
            if signed(old) <= signed(data) {
                old
            } else {
                data
            }
        }
        AtomicOp::Smax => {
            if signed(old) >= signed(data) {
                old
            } else {
                data
            }
        }
        AtomicOp::And => old & data,
        AtomicOp::Or => old | data,
        AtomicOp::Xor => old ^ data,
        AtomicOp::Inc => {
            if old >= data {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > data {
                data
            } else {
                old - 1
            }
        }
        AtomicOp::Fadd => float(Op::Fadd),
        AtomicOp::Fmin => float(Op::Fmin(MinMax::Ieee)),
        AtomicOp::Fmax => float(Op::Fmax(MinMax::Ieee)),
        AtomicOp::Rsub => data.wrapping_sub(old),
        AtomicOp::Mskor => (old & !cmp) | data,
        AtomicOp::Wrap => {
            if old >= cmp {
                old - cmp
            } else {
                old.wrapping_add(data)
            }
        }
        AtomicOp::FcmpXchg | AtomicOp::FcmpXchgFlushIn => {
            let ft = match width {
                MemWidth::B16 => ScalarType::F16,
                MemWidth::B32 => ScalarType::F32,
                MemWidth::B64 => ScalarType::F64,
                MemWidth::B8 => return old,
            };
            let mode = if op == AtomicOp::FcmpXchg {
                FloatMode::IEEE
            } else {
                FloatMode::FLUSH_IN
            };
            let eq = eval(
                Op::Fcmp(FloatCC::Eq),
                mode,
                ScalarType::I1,
                &[ft, ft],
                &[old, cmp],
            );
            if eq & 1 != 0 {
                data
            } else {
                old
            }
        }
        AtomicOp::CondXchg32 => {
            let mut new = old;
            for h in 0..bits.div_ceil(32) {
                let sh = 32 * h;
                let half = (data >> sh) & 0xffff_ffff;
                if half & 0x8000_0000 != 0 {
                    new = (new & !(0xffff_ffffu64 << sh)) | (half & 0x7fff_ffff) << sh;
                }
            }
            new
        }
    };
    new & mask
}

/// One memory instruction's addressing: the space, the bytes each lane accesses (`len`) and
/// the address operand. Plain accesses move `len` bytes as one value of a [`MemWidth`]
/// (`load`, `store`, `rmw`); element accesses move them as bytes (`read`, `write`).
pub(super) struct Access<'a> {
    pub space: MemSpace,
    pub len: u64,
    pub pc: u32,
    pub addr: Operand<'a>,
    pub write: bool,
}

impl Access<'_> {
    fn bytes(&self) -> u64 {
        self.len
    }

    /// The lane a fault names: none for a uniform global or LDS address (one access for
    /// the wave), the acting lane otherwise.
    fn fault_lane(&self, l: usize) -> Option<usize> {
        (!self.addr.uniform || self.space == MemSpace::Private).then_some(l)
    }

    fn mem_fault(&self, l: usize, e: MemError) -> Fault {
        let lane = self.fault_lane(l);
        match e {
            MemError::OutOfBounds { addr, write, .. } => fault(
                FaultKind::OutOfBounds {
                    space: MemSpace::Global,
                    write,
                },
                self.pc,
                lane,
                Some(addr),
            ),
            MemError::Misaligned { addr, .. } => fault(
                FaultKind::Misaligned {
                    space: MemSpace::Global,
                },
                self.pc,
                lane,
                Some(addr),
            ),
            e => fault(FaultKind::Trap(e.to_string()), self.pc, lane, None),
        }
    }

    /// The 32-bit offset an LDS or private address operand holds.
    fn offset(&self, l: usize) -> u64 {
        self.addr.at(l) & 0xffff_ffff
    }

    /// Byte range of lane `l`'s private access inside `ctx.private`.
    fn private_range(&self, l: usize, ctx: &WaveCtx<'_>) -> Result<std::ops::Range<usize>, Fault> {
        let seg = ctx.private_lane_bytes as u64;
        let off = self.offset(l);
        let start = l as u64 * seg + off;
        let end = start + self.bytes();
        if off + self.bytes() > seg || end > ctx.private.len() as u64 {
            let kind = FaultKind::OutOfBounds {
                space: MemSpace::Private,
                write: self.write,
            };
            return Err(fault(kind, self.pc, Some(l), Some(off)));
        }
        Ok(start as usize..end as usize)
    }

    /// Faults if lane `l`'s access is not allowed (LDS accesses always are).
    pub fn check(&self, l: usize, ctx: &WaveCtx<'_>) -> Result<(), Fault> {
        match self.space {
            MemSpace::Global => {
                ctx.mem
                    .check(self.addr.at(l), self.bytes(), self.write)
                    .map_err(|e| self.mem_fault(l, e))?;
            }
            MemSpace::Lds => {}
            MemSpace::Private => {
                self.private_range(l, ctx)?;
            }
        }
        Ok(())
    }

    fn check_atomic(&self, l: usize, ctx: &WaveCtx<'_>) -> Result<(), Fault> {
        self.check(l, ctx)?;
        let addr = self.addr.at(l);
        if self.space == MemSpace::Global && !addr.is_multiple_of(self.bytes()) {
            return Err(self.mem_fault(
                l,
                MemError::Misaligned {
                    addr,
                    len: self.bytes(),
                },
            ));
        }
        Ok(())
    }

    fn load(&self, l: usize, width: MemWidth, ctx: &WaveCtx<'_>) -> Result<u64, Fault> {
        let n = self.bytes() as usize;
        match self.space {
            MemSpace::Global => ctx
                .mem
                .load(self.addr.at(l), width)
                .map_err(|e| self.mem_fault(l, e)),
            MemSpace::Lds => {
                let off = self.offset(l) as usize;
                Ok((0..n).fold(0, |v, i| {
                    v | (ctx.lds.get(off + i).copied().unwrap_or(0) as u64) << (8 * i)
                }))
            }
            MemSpace::Private => Ok(le_read(&ctx.private[self.private_range(l, ctx)?])),
        }
    }

    fn store(&self, l: usize, width: MemWidth, v: u64, ctx: &mut WaveCtx<'_>) -> Result<(), Fault> {
        match self.space {
            MemSpace::Global => ctx
                .mem
                .store(self.addr.at(l), width, v)
                .map_err(|e| self.mem_fault(l, e)),
            MemSpace::Lds => {
                let off = self.offset(l) as usize;
                for i in 0..self.bytes() as usize {
                    if let Some(b) = ctx.lds.get_mut(off + i) {
                        *b = (v >> (8 * i)) as u8;
                    }
                }
                Ok(())
            }
            MemSpace::Private => {
                let r = self.private_range(l, ctx)?;
                le_write(&mut ctx.private[r], v);
                Ok(())
            }
        }
    }

    /// Lane `l`'s `len` bytes (at most 16), little-endian. Global and private accesses must lie
    /// wholly inside a buffer / the lane's segment; LDS bytes outside the allocation read 0.
    pub fn read(&self, l: usize, ctx: &WaveCtx<'_>) -> Result<u128, Fault> {
        let mut b = [0u8; 16];
        let b = &mut b[..self.len as usize];
        match self.space {
            MemSpace::Global => ctx
                .mem
                .read_bytes(self.addr.at(l), b)
                .map_err(|e| self.mem_fault(l, e))?,
            MemSpace::Lds => {
                let off = self.offset(l) as usize;
                for (i, x) in b.iter_mut().enumerate() {
                    *x = ctx.lds.get(off + i).copied().unwrap_or(0);
                }
            }
            MemSpace::Private => b.copy_from_slice(&ctx.private[self.private_range(l, ctx)?]),
        }
        Ok(b.iter().rev().fold(0, |v, &x| (v << 8) | x as u128))
    }

    /// Writes the low `len` bytes of `v` (little-endian) for lane `l`; LDS bytes outside the
    /// allocation are dropped.
    pub fn write(&self, l: usize, v: u128, ctx: &mut WaveCtx<'_>) -> Result<(), Fault> {
        let mut b = [0u8; 16];
        let b = &mut b[..self.len as usize];
        for (i, x) in b.iter_mut().enumerate() {
            *x = (v >> (8 * i)) as u8;
        }
        match self.space {
            MemSpace::Global => ctx
                .mem
                .write_bytes(self.addr.at(l), b)
                .map_err(|e| self.mem_fault(l, e)),
            MemSpace::Lds => {
                let off = self.offset(l) as usize;
                for (i, &x) in b.iter().enumerate() {
                    if let Some(d) = ctx.lds.get_mut(off + i) {
                        *d = x;
                    }
                }
                Ok(())
            }
            MemSpace::Private => {
                let r = self.private_range(l, ctx)?;
                ctx.private[r].copy_from_slice(b);
                Ok(())
            }
        }
    }

    /// Replaces the value by `f(old)` and returns `old`.
    fn rmw(
        &self,
        l: usize,
        width: MemWidth,
        f: impl Fn(u64) -> u64,
        ctx: &mut WaveCtx<'_>,
    ) -> Result<u64, Fault> {
        let bytes = match self.space {
            MemSpace::Global => {
                return ctx
                    .mem
                    .atomic_rmw(self.addr.at(l), width, f)
                    .map_err(|e| self.mem_fault(l, e))
            }
            MemSpace::Lds => {
                let off = self.offset(l) as usize;
                match ctx.lds.get_mut(off..off + self.bytes() as usize) {
                    Some(b) => b,
                    None => return Ok(0),
                }
            }
            MemSpace::Private => {
                let r = self.private_range(l, ctx)?;
                &mut ctx.private[r]
            }
        };
        let old = le_read(bytes);
        le_write(bytes, f(old));
        Ok(old)
    }
}

fn le_read(b: &[u8]) -> u64 {
    b.iter().rev().fold(0, |v, &x| (v << 8) | x as u64)
}

fn le_write(b: &mut [u8], v: u64) {
    for (i, x) in b.iter_mut().enumerate() {
        *x = (v >> (8 * i)) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Inc/Dec against the formulas in `wavejit_ir::AtomicOp`'s documentation, computed here
    /// by hand for boundary values.
    #[test]
    fn inc_dec_wrap_rules() {
        let w = MemWidth::B32;
        assert_eq!(atomic_apply(AtomicOp::Inc, w, 5, 5, 0), 0);
        assert_eq!(atomic_apply(AtomicOp::Inc, w, 4, 5, 0), 5);
        assert_eq!(atomic_apply(AtomicOp::Inc, w, 9, 5, 0), 0);
        assert_eq!(atomic_apply(AtomicOp::Dec, w, 0, 5, 0), 5);
        assert_eq!(atomic_apply(AtomicOp::Dec, w, 6, 5, 0), 5);
        assert_eq!(atomic_apply(AtomicOp::Dec, w, 5, 5, 0), 4);
        assert_eq!(
            atomic_apply(AtomicOp::Inc, w, 0xffff_fffe, 0xffff_ffff, 0),
            0xffff_ffff
        );
    }

    #[test]
    fn signed_min_max_use_the_width() {
        // 0xffff_ffff is -1 as i32 but 4294967295 as u32.
        assert_eq!(
            atomic_apply(AtomicOp::Smin, MemWidth::B32, 1, 0xffff_ffff, 0),
            0xffff_ffff
        );
        assert_eq!(
            atomic_apply(AtomicOp::Umin, MemWidth::B32, 1, 0xffff_ffff, 0),
            1
        );
        assert_eq!(
            atomic_apply(AtomicOp::Smax, MemWidth::B64, 1, u64::MAX, 0),
            1
        );
        assert_eq!(
            atomic_apply(AtomicOp::Add, MemWidth::B32, 0xffff_ffff, 2, 0),
            1
        );
        assert_eq!(atomic_apply(AtomicOp::CmpXchg, MemWidth::B32, 7, 9, 7), 9);
        assert_eq!(atomic_apply(AtomicOp::CmpXchg, MemWidth::B32, 7, 9, 8), 7);
    }

    /// The two float compare-exchanges differ only on denormals: host f32 `==` (IEEE) on the
    /// operands, with denormals replaced by a signed zero for the flushing form.
    #[test]
    fn float_compare_exchange_flushes_only_in_the_flush_in_form() {
        let daz = |b: u32| {
            if b & 0x7f80_0000 == 0 {
                b & 0x8000_0000
            } else {
                b
            }
        };
        let vals = [
            0u32,
            0x8000_0000,
            1,
            0x8000_0005,
            0x7f_ffff,
            0x3f80_0000,
            0x7fc0_0000,
        ];
        for &old in &vals {
            for &cmp in &vals {
                let data = 0x4242_4242u64;
                let ieee = f32::from_bits(old) == f32::from_bits(cmp);
                let flush = f32::from_bits(daz(old)) == f32::from_bits(daz(cmp));
                let pick = |eq: bool| if eq { data } else { u64::from(old) };
                let (o, c) = (u64::from(old), u64::from(cmp));
                let w = MemWidth::B32;
                assert_eq!(atomic_apply(AtomicOp::FcmpXchg, w, o, data, c), pick(ieee));
                let got = atomic_apply(AtomicOp::FcmpXchgFlushIn, w, o, data, c);
                assert_eq!(got, pick(flush), "{old:#x} {cmp:#x}");
            }
        }
    }
}
