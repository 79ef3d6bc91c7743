//! SIMD-group and quad operations: ballots, shuffles, reductions and prefix operations.
//!
//! - Ballots (`icmp_ballot`, `fcmp_ballot`): the mask of active threads whose compare holds,
//!   written to every active thread (applegpu.py's `exec`). The quad forms give each thread
//!   the 4 bits of its own quad, shifted down (no public model; Metal's `quad_ballot`).
//! - `simd_shuffle*`: applegpu.py HEAD's lane rules, which model the hardware's quad-wise
//!   crossbar: for each quad, the OR of the low 2 bits of B over its four threads (active or
//!   not) picks the lane within a source quad; a thread whose source lies outside the
//!   SIMD-group keeps its own A. For a thread t with b = B[t], j the source position and
//!   S[k] the quad OR of quad k: `shuffle` j = b, lane 4(j>>2) + S[j>>2]; `down` j = t + b,
//!   `up` j = t - b, `rotate_up` j = (t - b) mod 32, `xor` j = t ^ b, each taking lane
//!   4(j>>2) + ((t&3) op S[j>>2]) & 3 with op +, -, -, ^.
//! - `quad_shuffle*` (no public model): within the thread's quad, source position i = b,
//!   (t&3) + b, (t&3) - b, (t&3 - b) mod 4, (t&3) ^ b; a position outside 0..4 keeps A.
//! - Reductions (`simd_*`, `quad_*`) combine the active threads' A (of the SIMD-group or of
//!   the thread's quad) and give every active thread the result; prefix operations
//!   (`*_prefix_*`) give each active thread the combination of the active threads below it
//!   (exclusive: Mesa lowers `exclusive_scan` to `simd_prefix_iadd`), the identity for the
//!   first. Inactive threads contribute the identity. The combining order is a pairwise tree
//!   (butterfly for reductions, Hillis-Steele for prefixes), which decides float rounding
//!   (no public model gives the hardware's order); float steps follow the fadd and fmul rules
//!   of [`super::float`], and min/max on floats take the operand that is not a NaN.

use super::regs::int_type;
use super::Lifter;
use crate::operand::Src;
use wavejit_ir::{IntCC, MinMax, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::*;

/// A reduction's combining operation.
#[derive(Clone, Copy, PartialEq)]
enum Combine {
    And,
    Or,
    Xor,
    Iadd,
    Fadd,
    Fmul,
    Umin,
    Umax,
    Smin,
    Smax,
    Fmin,
    Fmax,
}

impl Combine {
    fn of(name: &str) -> Option<Combine> {
        Some(match name {
            "and" => Combine::And,
            "or" => Combine::Or,
            "xor" => Combine::Xor,
            "iadd" => Combine::Iadd,
            "fadd" => Combine::Fadd,
            "fmul" => Combine::Fmul,
            "min.u" => Combine::Umin,
            "max.u" => Combine::Umax,
            "min.s" => Combine::Smin,
            "max.s" => Combine::Smax,
            "min.f" => Combine::Fmin,
            "max.f" => Combine::Fmax,
            _ => return None,
        })
    }

    fn is_float(self) -> bool {
        matches!(
            self,
            Combine::Fadd | Combine::Fmul | Combine::Fmin | Combine::Fmax
        )
    }
}

impl Lifter<'_> {
    /// Lifts a SIMD-group or quad instruction; `false` if `name` is not one.
    pub(super) fn lift_simd(&mut self, name: &str) -> Result<bool, LiftError> {
        if let Some(rest) = name
            .strip_prefix("simd_")
            .map(|r| (false, r))
            .or_else(|| name.strip_prefix("quad_").map(|r| (true, r)))
        {
            let (quad, op) = rest;
            if let Some(kind) = op.strip_prefix("shuffle") {
                self.shuffle(quad, kind)?;
                return Ok(true);
            }
            let (prefix, op) = match op.strip_prefix("prefix_") {
                Some(op) => (true, op),
                None => (false, op),
            };
            if let Some(c) = Combine::of(op) {
                self.reduce(quad, prefix, c)?;
                return Ok(true);
            }
            return Ok(false);
        }
        match name {
            "icmp_ballot" | "fcmp_ballot" | "icmp_quad_ballot" | "fcmp_quad_ballot" => {
                let cmp = self.condition(name.starts_with('f'))?;
                let exec = self.exec_mask();
                let both = self.b.op(Op::And, I1, &[cmp, exec]);
                let bits = self.b.ballot(both);
                let bits = self.b.op(Op::Trunc, I32, &[bits]);
                let r = if name.contains("quad") {
                    let lane = self.b.lane_id();
                    let three = self.b.i32(3);
                    let not3 = self.b.op(Op::Not, I32, &[three]);
                    let base = self.b.op(Op::And, I32, &[lane, not3]);
                    let down = self.b.op(Op::Lshr, I32, &[bits, base]);
                    let f = self.b.i32(0xf);
                    self.b.op(Op::And, I32, &[down, f])
                } else {
                    bits
                };
                let d = self.dst()?;
                self.write_gpr(d, r)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A's value at the destination's integer width (B's for a 64-bit source).
    fn lane_source(&mut self, a: Src) -> Result<Value, LiftError> {
        let d = self.dst()?;
        let ty = int_type(Self::reg_bits(d.width));
        self.int_src(a, ty)
    }

    fn shuffle(&mut self, quad: bool, kind: &str) -> Result<(), LiftError> {
        let a = self.src("A")?;
        let a = self.lane_source(a)?;
        let a = self.b.splat(a);
        let b = self.src("B")?;
        let b = self.int_src(b, I32)?;
        let b = self.b.splat(b);
        let t = self.b.lane_id();
        let three = self.b.i32(3);
        let not3 = self.b.op(Op::Not, I32, &[three]);
        let t_in = self.b.op(Op::And, I32, &[t, three]);
        let t_quad = self.b.op(Op::And, I32, &[t, not3]);
        let (src, inside) = if quad {
            let i = match kind {
                "" => b,
                "_down" => self.b.op(Op::Iadd, I32, &[t_in, b]),
                "_up" => self.b.op(Op::Isub, I32, &[t_in, b]),
                "_rotate_up" => {
                    let d = self.b.op(Op::Isub, I32, &[t_in, b]);
                    self.b.op(Op::And, I32, &[d, three])
                }
                _ => self.b.op(Op::Xor, I32, &[t_in, b]),
            };
            let four = self.b.i32(4);
            // B may be a 32-bit uniform: `down` and `up` compare without wrapping around.
            let inside = match kind {
                "_down" => {
                    let room = self.b.op(Op::Isub, I32, &[four, t_in]);
                    self.b.op(Op::Icmp(IntCC::Ult), I1, &[b, room])
                }
                "_up" => self.b.op(Op::Icmp(IntCC::Ule), I1, &[b, t_in]),
                _ => self.b.op(Op::Icmp(IntCC::Ult), I1, &[i, four]),
            };
            (self.b.op(Op::Iadd, I32, &[t_quad, i]), inside)
        } else {
            // S: the OR of B & 3 over each quad, in every thread of the quad.
            let low = self.b.op(Op::And, I32, &[b, three]);
            let mut s = low;
            for k in 1..4 {
                let kk = self.b.i32(k);
                let other = self.b.op(Op::Xor, I32, &[t, kk]);
                let v = self.b.shuffle(low, other);
                s = self.b.op(Op::Or, I32, &[s, v]);
            }
            let size = self.b.i32(32);
            let (j, inside) = match kind {
                "" => (b, self.b.op(Op::Icmp(IntCC::Ult), I1, &[b, size])),
                // B may be a 32-bit uniform: `down` and `up` compare without wrapping around.
                "_down" => {
                    let j = self.b.op(Op::Iadd, I32, &[t, b]);
                    let room = self.b.op(Op::Isub, I32, &[size, t]);
                    (j, self.b.op(Op::Icmp(IntCC::Ult), I1, &[b, room]))
                }
                "_up" => {
                    let j = self.b.op(Op::Isub, I32, &[t, b]);
                    (j, self.b.op(Op::Icmp(IntCC::Ule), I1, &[b, t]))
                }
                "_rotate_up" => {
                    let j = self.b.op(Op::Isub, I32, &[t, b]);
                    let m = self.b.i32(31);
                    let j = self.b.op(Op::And, I32, &[j, m]);
                    (j, self.b.bool(true))
                }
                _ => {
                    let j = self.b.op(Op::Xor, I32, &[t, b]);
                    (j, self.b.op(Op::Icmp(IntCC::Ult), I1, &[j, size]))
                }
            };
            let j_quad = self.b.op(Op::And, I32, &[j, not3]);
            // S of quad j >> 2 (a shuffle from outside the SIMD-group gives 0; such a thread
            // keeps its own A below).
            let sj = self.b.shuffle(s, j_quad);
            let within = match kind {
                "" => sj,
                "_down" => self.b.op(Op::Iadd, I32, &[t_in, sj]),
                "_up" | "_rotate_up" => self.b.op(Op::Isub, I32, &[t_in, sj]),
                _ => self.b.op(Op::Xor, I32, &[t_in, sj]),
            };
            let within = self.b.op(Op::And, I32, &[within, three]);
            (self.b.op(Op::Iadd, I32, &[j_quad, within]), inside)
        };
        let v = self.b.shuffle(a, src);
        let ty = self.b.ty(a).scalar;
        let r = self.b.op(Op::Select, ty, &[inside, v, a]);
        let d = self.dst()?;
        self.write_gpr(d, r)
    }

    /// The identity of `c` at `ty`.
    fn identity(&mut self, c: Combine, ty: ScalarType) -> Value {
        let bits = ty.bits();
        let ones = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let v = match c {
            Combine::And | Combine::Umin => ones,
            Combine::Or | Combine::Xor | Combine::Iadd | Combine::Umax => 0,
            Combine::Smin => ones >> 1,
            Combine::Smax => 1u64 << (bits - 1),
            Combine::Fadd => {
                if bits == 16 {
                    0x8000
                } else {
                    0x8000_0000
                }
            }
            Combine::Fmul => {
                if bits == 16 {
                    0x3c00
                } else {
                    0x3f80_0000
                }
            }
            Combine::Fmin | Combine::Fmax => {
                if bits == 16 {
                    0x7e00
                } else {
                    0x7fc0_0000
                }
            }
        };
        self.b.iconst(ty, v)
    }

    /// One combining step on two lane values of integer type `ty` (floats as their bits).
    fn combine(&mut self, c: Combine, ty: ScalarType, x: Value, y: Value) -> Value {
        let int = |s: &mut Self, op| s.b.op(op, ty, &[x, y]);
        match c {
            Combine::And => int(self, Op::And),
            Combine::Or => int(self, Op::Or),
            Combine::Xor => int(self, Op::Xor),
            Combine::Iadd => int(self, Op::Iadd),
            Combine::Umin => int(self, Op::Umin),
            Combine::Umax => int(self, Op::Umax),
            Combine::Smin => int(self, Op::Smin),
            Combine::Smax => int(self, Op::Smax),
            _ => {
                let ft = if ty.bits() == 16 { F16 } else { F32 };
                let fx = self.b.op(Op::Bitcast, ft, &[x]);
                let fy = self.b.op(Op::Bitcast, ft, &[y]);
                let r = match (c, ft) {
                    (Combine::Fadd, F32) => {
                        self.b
                            .op_mode(Op::Fadd, wavejit_ir::FloatMode::FLUSH, F32, &[fx, fy])
                    }
                    (Combine::Fmul, F32) => self.fused32(fx, fy, None),
                    (Combine::Fadd, _) => self.b.op(Op::Fadd, F16, &[fx, fy]),
                    (Combine::Fmul, _) => {
                        let zero = self.b.iconst(F16, 0);
                        self.b.op(Op::Fma, F16, &[fx, fy, zero])
                    }
                    (Combine::Fmin, _) => self.b.op(Op::Fmin(MinMax::NonIeee), ft, &[fx, fy]),
                    _ => self.b.op(Op::Fmax(MinMax::NonIeee), ft, &[fx, fy]),
                };
                let r = self.default_nan(r);
                self.b.op(Op::Bitcast, ty, &[r])
            }
        }
    }

    fn reduce(&mut self, quad: bool, prefix: bool, c: Combine) -> Result<(), LiftError> {
        let a = self.src("A")?;
        let d = self.dst()?;
        let w = Self::reg_bits(d.width);
        // Floats combine at f32 when the source or the destination is 32-bit (a 16-bit
        // destination then takes the rounded result), else at f16.
        let src_bits = match a.value {
            crate::operand::SrcValue::Reg(r) | crate::operand::SrcValue::Discarded(r) => {
                Self::reg_bits(r.width)
            }
            crate::operand::SrcValue::Uniform(u) if u.half.is_none() => 32,
            _ => 16,
        };
        let fbits = if w == 32 || src_bits >= 32 { 32 } else { 16 };
        let ty = if c.is_float() {
            int_type(fbits)
        } else {
            int_type(w)
        };
        let x = if c.is_float() {
            let ft = if fbits == 16 { F16 } else { F32 };
            let f = self.float_src(a, ft)?;
            self.b.op(Op::Bitcast, ty, &[f])
        } else {
            // min/max of signed values need the source's own extension.
            self.int_src(a, ty)?
        };
        let exec = self.exec_mask();
        let id = self.identity(c, ty);
        let mut x = self.b.op(Op::Select, ty, &[exec, x, id]);
        let lane = self.b.lane_id();
        let span = if quad { 4 } else { 32 };
        if prefix {
            // Exclusive: shift up by one within the span, then Hillis-Steele.
            let one = self.b.i32(1);
            let from = self.b.op(Op::Isub, I32, &[lane, one]);
            let shifted = self.b.shuffle(x, from);
            let pos = self.position(lane, span);
            let zero = self.b.i32(0);
            let first = self.b.op(Op::Icmp(IntCC::Eq), I1, &[pos, zero]);
            x = self.b.op(Op::Select, ty, &[first, id, shifted]);
            let mut step = 1;
            while step < span {
                let s = self.b.i32(step);
                let from = self.b.op(Op::Isub, I32, &[lane, s]);
                let y = self.b.shuffle(x, from);
                let has = self.b.op(Op::Icmp(IntCC::Uge), I1, &[pos, s]);
                let z = self.combine(c, ty, y, x);
                x = self.b.op(Op::Select, ty, &[has, z, x]);
                step *= 2;
            }
        } else {
            let mut step = span / 2;
            while step >= 1 {
                let s = self.b.i32(step);
                let from = self.b.op(Op::Xor, I32, &[lane, s]);
                let y = self.b.shuffle(x, from);
                // The lower lane's value first, so every lane combines in the same order.
                let upper = {
                    let bit = self.b.op(Op::And, I32, &[lane, s]);
                    let zero = self.b.i32(0);
                    self.b.op(Op::Icmp(IntCC::Ne), I1, &[bit, zero])
                };
                let lo = self.b.op(Op::Select, ty, &[upper, y, x]);
                let hi = self.b.op(Op::Select, ty, &[upper, x, y]);
                x = self.combine(c, ty, lo, hi);
                step /= 2;
            }
        }
        let x = if c.is_float() && fbits == 32 && w == 16 {
            let f = self.b.op(Op::Bitcast, F32, &[x]);
            self.b.op(Op::Fconvert, F16, &[f])
        } else {
            x
        };
        self.write_gpr(d, x)
    }

    /// A lane's position within its span (quad or SIMD-group).
    fn position(&mut self, lane: Value, span: u32) -> Value {
        let m = self.b.i32(span - 1);
        self.b.op(Op::And, I32, &[lane, m])
    }
}
