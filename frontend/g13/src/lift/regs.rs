//! Reading sources and writing destinations: the register model of notes/g13_map.md §1.
//!
//! - `rN` is one 32-bit lane cell; its halves `rNl`/`rNh` are read by shifting and writing
//!   them merges into the cell, so a half write never changes the other half.
//! - A pair `rN_rN+1` is read and written as one 64-bit value, low half in `rN`.
//! - Uniform registers follow the same rules in the uniform file.
//! - Ordinary destinations are written in the active lanes only (the exec mask); the
//!   exec-stack instructions write r0l in every lane ([`Lifter::write_all`]).
//! - A register past the file (a pair or range starting at r127 or u255) is refused when
//!   lifting: the hardware would read or corrupt another SIMD-group's registers.
//!
//! Integer sources are extended to the width an instruction computes in: zero-extended, or
//! sign-extended with `.sx` (applegpu.py's `evaluate_thread`); immediates are zero-extended.
//! Float sources are read as f16 (halves) or f32 (words), with the minifloat immediates
//! exact, and the `.abs` then `.neg` modifiers applied as sign-bit operations. A register
//! wider than a float operation (a word in a 16-bit one; the encodings allow a 32-bit
//! uniform there) reads as its low bits: no source says what the hardware reads, and this is
//! the integer sources' rule.

use super::state::{GPRS, UNIFORMS};
use super::Lifter;
use crate::operand::{minifloat, Reg, Src, SrcValue, UReg, Width};
use wavejit_ir::{Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::*;

/// The bits a value of `ty` occupies.
pub(super) fn bits(ty: ScalarType) -> u32 {
    ty.bits()
}

/// The integer type of `bits` (16, 32 or 64).
pub(super) fn int_type(bits: u32) -> ScalarType {
    match bits {
        8 => I8,
        16 => I16,
        32 => I32,
        _ => I64,
    }
}

impl Lifter<'_> {
    fn reg_check(&self, index: u32, cells: u32, file: u32, name: char) -> Result<(), LiftError> {
        if index + cells > file {
            return Err(self.invalid(format!(
                "register {name}{} is beyond the register file ({name}0-{name}{})",
                index + cells - 1,
                file - 1
            )));
        }
        Ok(())
    }

    /// The width in bits a register operand reads or writes.
    pub(super) fn reg_bits(width: Width) -> u32 {
        match width {
            Width::Half(_) => 16,
            Width::Word => 32,
            Width::Pair => 64,
        }
    }

    /// A general register's value at its own width (`i16`, `i32` or `i64`).
    pub(super) fn read_gpr(&mut self, r: Reg) -> Result<Value, LiftError> {
        let index = u32::from(r.index);
        let cells = if r.width == Width::Pair { 2 } else { 1 };
        self.reg_check(index, cells, GPRS, 'r')?;
        let reg = self.l.gpr(index);
        Ok(self.read_cells(reg, r.width))
    }

    /// A uniform register's value at its own width.
    pub(super) fn read_uniform(&mut self, u: UReg) -> Result<Value, LiftError> {
        let index = u32::from(u.index);
        self.reg_check(index, 1, UNIFORMS, 'u')?;
        let reg = self.l.uniform(index);
        let width = match u.half {
            None => Width::Word,
            Some(high) => Width::Half(high),
        };
        Ok(self.read_cells(reg, width))
    }

    /// A uniform pair `uN_uN+1` as a 64-bit value.
    pub(super) fn read_uniform_pair(&mut self, index: u32) -> Result<Value, LiftError> {
        self.reg_check(index, 2, UNIFORMS, 'u')?;
        let reg = self.l.uniform(index);
        Ok(self.b.use_reg(reg, I64))
    }

    fn read_cells(&mut self, reg: wavejit_ir::Reg, width: Width) -> Value {
        match width {
            Width::Pair => self.b.use_reg(reg, I64),
            Width::Word => self.b.use_reg(reg, I32),
            Width::Half(high) => {
                let w = self.b.use_reg(reg, I32);
                let w = if high {
                    let s = self.b.i32(16);
                    self.b.op(Op::Lshr, I32, &[w, s])
                } else {
                    w
                };
                self.b.op(Op::Trunc, I16, &[w])
            }
        }
    }

    /// A source's value at its own width, and that width's bits (an 8-bit immediate is an
    /// `i16` of 8 bits).
    pub(super) fn src_raw(&mut self, s: Src) -> Result<(Value, u32), LiftError> {
        Ok(match s.value {
            SrcValue::Imm(v) => (self.b.iconst(I16, u64::from(v)), 8),
            SrcValue::FloatImm(v) => (self.b.iconst(I16, u64::from(v)), 8),
            SrcValue::Reg(r) | SrcValue::Discarded(r) => {
                (self.read_gpr(r)?, Self::reg_bits(r.width))
            }
            SrcValue::Uniform(u) => {
                let bits = if u.half.is_some() { 16 } else { 32 };
                (self.read_uniform(u)?, bits)
            }
        })
    }

    /// An integer source extended (or cut) to `ty`: sign-extended with `.sx`, except an
    /// immediate, zero-extended also where the operation reads its sources as signed (a signed
    /// compare, `asr`).
    pub(super) fn int_src(&mut self, s: Src, ty: ScalarType) -> Result<Value, LiftError> {
        let (v, have) = self.src_raw(s)?;
        let signed = s.sx && !matches!(s.value, SrcValue::Imm(_) | SrcValue::FloatImm(_));
        Ok(self.extend(v, have, signed, ty))
    }

    /// `v`, a value whose low `have` bits count, as `ty`: extended with zeros or copies of
    /// bit `have - 1`, or cut.
    pub(super) fn extend(&mut self, v: Value, have: u32, signed: bool, ty: ScalarType) -> Value {
        let vt = self.b.ty(v).scalar;
        let (v, vt) = if have < bits(vt) {
            // An 8-bit immediate carried in an i16.
            let small = int_type(have);
            (self.b.op(Op::Trunc, small, &[v]), small)
        } else {
            (v, vt)
        };
        match bits(vt).cmp(&bits(ty)) {
            std::cmp::Ordering::Equal => v,
            std::cmp::Ordering::Less => {
                let op = if signed { Op::Sext } else { Op::Zext };
                self.b.op(op, ty, &[v])
            }
            std::cmp::Ordering::Greater => self.b.op(Op::Trunc, ty, &[v]),
        }
    }

    /// A float source as `ty` (f16 or f32): halves are f16, words f32 (an f16 read as f32 is
    /// converted exactly), immediates the exact minifloat value; then `.abs` and `.neg`.
    pub(super) fn float_src(&mut self, s: Src, ty: ScalarType) -> Result<Value, LiftError> {
        let v = match s.value {
            SrcValue::FloatImm(v) | SrcValue::Imm(v) => {
                let f = minifloat(v);
                if ty == F16 {
                    let h = f16_bits(f);
                    self.b.iconst(F16, u64::from(h))
                } else {
                    self.b.f32(f)
                }
            }
            _ => {
                let (raw, have) = self.src_raw(s)?;
                match (have, ty) {
                    (16, F16) => self.b.op(Op::Bitcast, F16, &[raw]),
                    (16, _) => {
                        let h = self.b.op(Op::Bitcast, F16, &[raw]);
                        self.b.op(Op::Fconvert, F32, &[h])
                    }
                    (32, F32) => self.b.op(Op::Bitcast, F32, &[raw]),
                    _ => {
                        // A register wider than the operation: its low bits, as an integer
                        // source is cut to the operation's width.
                        let low = self.b.op(Op::Trunc, int_type(ty.bits()), &[raw]);
                        self.b.op(Op::Bitcast, ty, &[low])
                    }
                }
            }
        };
        let v = if s.abs {
            self.b.op(Op::Fabs, ty, &[v])
        } else {
            v
        };
        Ok(if s.neg {
            self.b.op(Op::Fneg, ty, &[v])
        } else {
            v
        })
    }

    /// Writes destination `r` in the active lanes; `v` is an integer of the register's width.
    pub(super) fn write_gpr(&mut self, r: Reg, v: Value) -> Result<(), LiftError> {
        let mask = self.exec_mask();
        self.write_gpr_masked(r, v, Some(mask))
    }

    /// Writes destination `r` in every lane (the exec-stack instructions' r0l).
    pub(super) fn write_all(&mut self, r: Reg, v: Value) -> Result<(), LiftError> {
        self.write_gpr_masked(r, v, None)
    }

    pub(super) fn write_gpr_masked(
        &mut self,
        r: Reg,
        v: Value,
        mask: Option<Value>,
    ) -> Result<(), LiftError> {
        let index = u32::from(r.index);
        let cells = if r.width == Width::Pair { 2 } else { 1 };
        self.reg_check(index, cells, GPRS, 'r')?;
        let reg = self.l.gpr(index);
        let ty = int_type(Self::reg_bits(r.width));
        let v = self.as_int(v, ty);
        match r.width {
            Width::Pair | Width::Word => self.b.def_reg(reg, v, mask),
            Width::Half(high) => {
                let new = self.with_half(reg, high, v);
                self.b.def_reg(reg, new, mask);
            }
        }
        Ok(())
    }

    /// The 32-bit cell `reg` with its high (or low) half replaced by the `i16` `v`.
    fn with_half(&mut self, reg: wavejit_ir::Reg, high: bool, v: Value) -> Value {
        let old = self.b.use_reg(reg, I32);
        let wide = self.b.op(Op::Zext, I32, &[v]);
        let (keep, wide) = if high {
            let s = self.b.i32(16);
            (0x0000_ffff, self.b.op(Op::Shl, I32, &[wide, s]))
        } else {
            (0xffff_0000, wide)
        };
        let k = self.b.i32(keep);
        let kept = self.b.op(Op::And, I32, &[old, k]);
        self.b.op(Op::Or, I32, &[kept, wide])
    }

    /// `v` as the integer type of its width cut or zero-extended to `ty`.
    pub(super) fn as_int(&mut self, v: Value, ty: ScalarType) -> Value {
        let vt = self.b.ty(v).scalar;
        let v = if vt.is_float() {
            let it = int_type(bits(vt));
            self.b.op(Op::Bitcast, it, &[v])
        } else {
            v
        };
        let have = bits(self.b.ty(v).scalar);
        self.extend(v, have, false, ty)
    }

    /// A uniform register written (by `uniform_store`): the whole SIMD-group's value.
    pub(super) fn write_uniform(&mut self, u: UReg, v: Value) -> Result<(), LiftError> {
        let index = u32::from(u.index);
        self.reg_check(index, 1, UNIFORMS, 'u')?;
        let reg = self.l.uniform(index);
        match u.half {
            None => {
                let v = self.as_int(v, I32);
                self.b.def_reg(reg, v, None)
            }
            Some(high) => {
                let v = self.as_int(v, I16);
                let new = self.with_half(reg, high, v);
                self.b.def_reg(reg, new, None);
            }
        }
        Ok(())
    }
}

/// The f16 bits of `f`, a minifloat value (exact in f16: at most 5 significant bits, and
/// magnitudes from 2^-6 to 31).
fn f16_bits(f: f32) -> u16 {
    if f == 0.0 {
        return if f.is_sign_negative() { 0x8000 } else { 0 };
    }
    let b = f.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let frac = ((b >> 13) & 0x3ff) as u16;
    sign | ((exp as u16) << 10) | frac
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every minifloat is exact in f16: converting the f16 back gives the f32 value.
    #[test]
    fn minifloats_are_exact_in_f16() {
        for b in 0..=255u8 {
            let f = minifloat(b);
            let h = f16_bits(f);
            let back = {
                let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
                let e = i32::from((h >> 10) & 31);
                let m = f32::from(h & 0x3ff);
                if e == 0 {
                    sign * m * 2f32.powi(-24)
                } else {
                    sign * (1024.0 + m) * 2f32.powi(e - 25)
                }
            };
            assert_eq!(back.to_bits(), f.to_bits(), "{b:#x}");
        }
    }
}
