//! The component-wise float instructions built from compares and selects, and the
//! three-operand integer minimum, median and maximum. Float compares read denormals as 0.0,
//! take +0 = -0 and are false when either operand is NaN (7.2.1, L3055), `ne` included, as
//! for `eq`/`ne` in [`super`]. Rules by seed 001 line:
//!
//! - `clamp` (L7576): v = src0; v = src1 where v < src1; then v = src2 where v > src2: the
//!   pseudocode's compares, so a NaN src0 stays NaN and a NaN bound is ignored. The result
//!   is the chosen operand's value, a denormal flushed to zero of its sign (L3055).
//! - `cmp_relop(op)_cmpval(v)` (L7631): src0 relop v ? src1 : src2, the chosen operand's bits
//!   moved as they are; v is 0.0, 0.5, 1.0, -0.5 or -1.0 (Table 6.3, L2357).
//! - `set_relop(op)` (L8977): src0 relop src1 ? 1.0 : 0.0.
//! - `sgn` (L8993): -1.0 below 0.0, 0.0 at 0.0 (±0, denormals), else 1.0: the pseudocode's
//!   order of tests, so NaN gives 1.0 (unlike the `_sign` source modifier, `regs`).
//! - `mod` (L8577): src0 where src1 is 0.0, else src0 - src1 ⊗ trunc(src0 / src1) (the
//!   pseudocode; the DX9 multiply of an instruction without `_ieee`, so mod(x, inf) = x for
//!   finite x), every step rounded to f32.
//! - `lrp` (L8378): src1 ⊗ src0 + src2 ⊗ (1 - src0), each step rounded, in that order.
//! - `invariant_move` (L8129): `mov`; the invariance it asks of a compiler holds here anyway.
//! - `imin3`, `imed3`, `imax3`, `umin3`, `umed3`, `umax3` (rows without a Chapter 7 entry,
//!   values 452-457): the minimum, median and maximum of the three operands, signed or
//!   unsigned, as their names and GCN's `v_min3`/`v_med3`/`v_max3` say.

use super::super::regs::{fcmp, fop, Kind, ONE};
use super::super::Lifter;
use super::{f32_bits, is_zero, mad, mul, select};
use wavejit_ir::{FloatCC, FunctionBuilder, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use Kind::{Float, Int};
use ScalarType::I32;

/// A denormal as zero of its sign, every other value (NaN included) as it is.
fn flushed(b: &mut FunctionBuilder, x: Value) -> Value {
    let z = is_zero(b, x);
    let sign = b.i32(0x8000_0000);
    let s = b.op(Op::And, I32, &[x, sign]);
    b.op(Op::Select, I32, &[z, s, x])
}

impl Lifter<'_> {
    /// Lifts a compare-and-select instruction; `false` if `m` is not one.
    pub(super) fn lift_select(&mut self, m: &str) -> Result<bool, LiftError> {
        match m {
            "clamp" => self.map(&[Float, Float, Float], Float, |b, a| {
                let below = fcmp(b, FloatCC::Lt, a[0], a[1]);
                let v = b.op(Op::Select, I32, &[below, a[1], a[0]]);
                let above = fcmp(b, FloatCC::Gt, v, a[2]);
                let v = b.op(Op::Select, I32, &[above, a[2], v]);
                flushed(b, v)
            })?,
            "cmp" => {
                let cc = self.relop_cc()?;
                let value: f32 = match self.field("cmpval") {
                    0 => 0.0,
                    1 => 0.5,
                    2 => 1.0,
                    3 => -0.5,
                    4 => -1.0,
                    v => return Err(self.invalid(format!("cmpval {v} (Table 6.3 ends at 4)"))),
                };
                self.map(&[Float, Float, Float], Float, |b, a| {
                    let k = f32_bits(b, value);
                    let c = fcmp(b, cc, a[0], k);
                    b.op(Op::Select, I32, &[c, a[1], a[2]])
                })?
            }
            "set" => {
                let cc = self.relop_cc()?;
                self.map(&[Float, Float], Float, |b, a| {
                    let c = fcmp(b, cc, a[0], a[1]);
                    select(b, c, ONE, 0)
                })?
            }
            "sgn" => self.map(&[Float], Float, |b, a| {
                let zero = b.i32(0);
                let neg = fcmp(b, FloatCC::Lt, a[0], zero);
                let z = is_zero(b, a[0]);
                let v = select(b, z, 0, ONE);
                let minus = b.i32(ONE | 0x8000_0000);
                b.op(Op::Select, I32, &[neg, minus, v])
            })?,
            "mod" => self.map(&[Float, Float], Float, |b, a| {
                let q = fop(b, Op::Fdiv, &[a[0], a[1]]);
                let t = fop(b, Op::Ftrunc, &[q]);
                let p = mul(b, a[1], t);
                let r = fop(b, Op::Fsub, &[a[0], p]);
                let z = is_zero(b, a[1]);
                b.op(Op::Select, I32, &[z, a[0], r])
            })?,
            "lrp" => self.map(&[Float, Float, Float], Float, |b, a| {
                let one = b.i32(ONE);
                let t = fop(b, Op::Fsub, &[one, a[0]]);
                let p = mul(b, a[1], a[0]);
                mad(b, a[2], t, p)
            })?,
            "invariant_move" => self.map(&[Float], Float, |_, a| a[0])?,
            "imin3" | "imax3" | "umin3" | "umax3" => {
                let op = match m {
                    "imin3" => Op::Smin,
                    "imax3" => Op::Smax,
                    "umin3" => Op::Umin,
                    _ => Op::Umax,
                };
                self.map(&[Int, Int, Int], Int, |b, a| {
                    let v = b.op(op, I32, &a[..2]);
                    b.op(op, I32, &[v, a[2]])
                })?
            }
            "imed3" | "umed3" => {
                let op = if m == "imed3" { Op::Smed3 } else { Op::Umed3 };
                self.map(&[Int, Int, Int], Int, |b, a| b.op(op, I32, a))?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The float condition of the instruction's `relop` field (ILRelOp, Table 6.23: ne, eq,
    /// ge, gt, le, lt; ne false on NaN, L3055): the one mapping of every `_relop` form.
    pub(in crate::lift) fn relop_cc(&self) -> Result<FloatCC, LiftError> {
        Ok(match self.field("relop") {
            0 => FloatCC::One,
            1 => FloatCC::Eq,
            2 => FloatCC::Ge,
            3 => FloatCC::Gt,
            4 => FloatCC::Le,
            5 => FloatCC::Lt,
            v => return Err(self.invalid(format!("relop {v} (ILRelOp ends at 5)"))),
        })
    }
}
