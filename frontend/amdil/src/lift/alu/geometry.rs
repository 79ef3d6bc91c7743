//! Dot products, lengths, normalisation and the other vector macros of the float section
//! (7.11), each the computation its entry's pseudocode writes, in single precision
//! ([`F32_MODE`](crate::lift::F32_MODE)): every product and sum rounded to f32 in the order
//! written (left to right), unfused. Products take the DX9 multiply (±0 times anything is
//! +0) unless the instruction's `_ieee` control is set; instructions without that control
//! use it too (the default of every IL multiply, see `super::mul`). Rules by seed 001 line:
//!
//! - `dp2` (L7795), `dp3` (L7830), `dp4` (L7847): Σ src0.c ⊗ src1.c over xy, xyz, xyzw, in
//!   all four components; control 0 is the DX9 multiply ("0*n = 0, even if n = NaN"), `_ieee`
//!   the IEEE one.
//! - `dp2add` (L7812): src0.x ⊗ src1.x + src0.y ⊗ src1.y + src2.z, with `dp2`'s control. The
//!   entry names src2.z in both its text and its pseudocode (DX's dp2add takes a replicated
//!   component), so z is read.
//! - `dist` (L7771): sqrt(Σ (src0.c - src1.c)²) over xyz (the pseudocode is cut off after
//!   the x term; the description says xyz). A difference times itself is the same under
//!   either multiply.
//! - `len` (L8145): sqrt(x² + y² + z²) of src0. The description says "the three component
//!   vector in `src0.[xyz]`" twice; the pseudocode also adds w², and is not followed.
//! - `crs` (L7738): the cross product of src0.xyz and src1.xyz in xyz, each component
//!   `a*b - c*d` as the pseudocode orders it; w is not written (only the mask's 0 and 1).
//! - `nrm_nrm3|nrm4_zeroop` (L8646): f = x² + y² + z² (+ w² with `nrm4`); every component of
//!   src0 times 1.0/sqrt(f) (a correctly rounded square root, then a correctly rounded
//!   division), or times the zeroop value where f is 0.0.
//! - `dst` (L7864): (1.0, src0.y ⊗ src1.y, src0.z, src1.w) ("If the control field is 0,
//!   then 0*n = 0").
//! - `lit` (L8168): (1.0, x > 0 ? x : 0.0, x > 0 && y > 0 ? exp2(g ⊗ log2(y)) : 0.0, 1.0) with
//!   g = src0.w clamped to ±(128 - FLT_EPSILON), which in f32 is ±128 (the pseudocode's
//!   double bound rounds to 128.0f); exp2 and log2 as `exp` and `log`.
//! - `reflect` (L8829): f = 2 ⊗ dot4(src0, src1); with `normalize`, fnorm = dot4(src1, src1)
//!   and each component fnorm ⊗ src0.c - f ⊗ src1.c, else src0.c - f ⊗ src1.c: the
//!   pseudocode, though its `normalize` form scales src0 rather than normalising src1.

use super::super::regs::{fcmp, fop, Kind};
use super::super::Lifter;
use super::{f32_bits, mad, mul, unless_zero, zero_result, ONE};
use wavejit_ir::{FloatCC, FunctionBuilder, Op, ScalarType, Trans, Value};
use wavejit_isa::LiftError;

use Kind::Float;

fn select(b: &mut FunctionBuilder, c: Value, t: Value, f: Value) -> Value {
    b.op(Op::Select, ScalarType::I32, &[c, t, f])
}

impl Lifter<'_> {
    /// Lifts a vector macro; `false` if `m` is not one.
    pub(super) fn lift_geometry(&mut self, m: &str) -> Result<bool, LiftError> {
        let ieee = self.field("ieee") != 0;
        match m {
            "dp2" | "dp3" | "dp4" => {
                let n = usize::from(m.as_bytes()[2] - b'0');
                self.replicated(2, Float, |l| l.dot(0, 1, n, ieee))?
            }
            "dp2add" => self.replicated(3, Float, |l| {
                let d = l.dot(0, 1, 2, ieee)?;
                let z = l.src(2, 2, Float)?;
                Ok(fop(&mut l.b, Op::Fadd, &[d, z]))
            })?,
            "dist" => self.replicated(2, Float, |l| {
                let mut sum = None;
                for c in 0..3 {
                    let x = l.src(0, c, Float)?;
                    let y = l.src(1, c, Float)?;
                    let b = &mut l.b;
                    let d = fop(b, Op::Fsub, &[x, y]);
                    sum = Some(match sum {
                        None => mul(b, d, d),
                        Some(s) => mad(b, d, d, s),
                    });
                }
                let s = sum.expect("three terms");
                Ok(fop(&mut l.b, Op::Fsqrt(Trans::Ieee), &[s]))
            })?,
            "len" => self.replicated(1, Float, |l| {
                let s = l.dot(0, 0, 3, false)?;
                Ok(fop(&mut l.b, Op::Fsqrt(Trans::Ieee), &[s]))
            })?,
            "crs" => self.components(2, Float, |l, c| {
                let Some(&(i, j)) = [(1, 2), (2, 0), (0, 1)].get(c) else {
                    return Ok(None);
                };
                let (a, d) = (l.src(0, i, Float)?, l.src(1, j, Float)?);
                let (e, f) = (l.src(0, j, Float)?, l.src(1, i, Float)?);
                let b = &mut l.b;
                let p = mul(b, a, d);
                let q = mul(b, e, f);
                Ok(Some(fop(b, Op::Fsub, &[p, q])))
            })?,
            "nrm" => {
                let n = if self.field("nrm4") != 0 { 4 } else { 3 };
                let zero = zero_result(self.field("zeroop"));
                let mut scale = None;
                self.components(1, Float, |l, c| {
                    let s = match scale {
                        Some(s) => s,
                        None => {
                            let f = l.dot(0, 0, n, false)?;
                            let b = &mut l.b;
                            let r = fop(b, Op::Fsqrt(Trans::Ieee), &[f]);
                            let one = b.i32(ONE);
                            let r = fop(b, Op::Fdiv, &[one, r]);
                            let s = unless_zero(b, f, zero, r);
                            *scale.insert(s)
                        }
                    };
                    let v = l.src(0, c, Float)?;
                    Ok(Some(mul(&mut l.b, v, s)))
                })?
            }
            "dst" => self.components(2, Float, |l, c| {
                Ok(Some(match c {
                    0 => l.b.i32(ONE),
                    1 => {
                        let x = l.src(0, 1, Float)?;
                        let y = l.src(1, 1, Float)?;
                        mul(&mut l.b, x, y)
                    }
                    2 => l.src(0, 2, Float)?,
                    _ => l.src(1, 3, Float)?,
                }))
            })?,
            "lit" => self.components(1, Float, |l, c| {
                if c == 0 || c == 3 {
                    return Ok(Some(l.b.i32(ONE)));
                }
                let x = l.src(0, 0, Float)?;
                let zero = l.b.i32(0);
                let x_pos = fcmp(&mut l.b, FloatCC::Gt, x, zero);
                if c == 1 {
                    return Ok(Some(select(&mut l.b, x_pos, x, zero)));
                }
                let y = l.src(0, 1, Float)?;
                let w = l.src(0, 3, Float)?;
                let b = &mut l.b;
                let y_pos = fcmp(b, FloatCC::Gt, y, zero);
                let both = b.op(Op::And, ScalarType::I1, &[x_pos, y_pos]);
                let (lo, hi) = (f32_bits(b, -128.0), f32_bits(b, 128.0));
                let below = fcmp(b, FloatCC::Lt, w, lo);
                let g = select(b, below, lo, w);
                let above = fcmp(b, FloatCC::Gt, g, hi);
                let g = select(b, above, hi, g);
                let lg = fop(b, Op::Flog2(Trans::Ieee), &[y]);
                let p = mul(b, g, lg);
                let e = fop(b, Op::Fexp2(Trans::Ieee), &[p]);
                Ok(Some(select(b, both, e, zero)))
            })?,
            "reflect" => {
                let normalize = self.field("normalize") != 0;
                let mut shared = None;
                self.components(2, Float, |l, c| {
                    let (f, fnorm) = match shared {
                        Some(s) => s,
                        None => {
                            let d = l.dot(0, 1, 4, false)?;
                            let two = f32_bits(&mut l.b, 2.0);
                            let f = mul(&mut l.b, two, d);
                            let fnorm = if normalize {
                                Some(l.dot(1, 1, 4, false)?)
                            } else {
                                None
                            };
                            *shared.insert((f, fnorm))
                        }
                    };
                    let x = l.src(0, c, Float)?;
                    let y = l.src(1, c, Float)?;
                    let b = &mut l.b;
                    let x = match fnorm {
                        Some(n) => mul(b, n, x),
                        None => x,
                    };
                    let q = mul(b, f, y);
                    Ok(Some(fop(b, Op::Fsub, &[x, q])))
                })?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Σ src`i`.c ⊗ src`j`.c over the first `n` components, left to right, each product and
    /// sum rounded: the DX9 multiply, or the IEEE one when `ieee`.
    fn dot(&mut self, i: usize, j: usize, n: usize, ieee: bool) -> Result<Value, LiftError> {
        self.dot_row(i, j, 0, n, ieee)
    }

    /// [`Self::dot`] with src`j` read `row` registers past its own (`mmul`'s matrix rows).
    pub(super) fn dot_row(
        &mut self,
        i: usize,
        j: usize,
        row: u32,
        n: usize,
        ieee: bool,
    ) -> Result<Value, LiftError> {
        let (mul_op, mad_op) = if ieee {
            (Op::Fmul, Op::Fmad)
        } else {
            (Op::FmulLegacy, Op::FmadLegacy)
        };
        let mut acc = None;
        for c in 0..n {
            let x = self.src(i, c, Float)?;
            let y = self.src_row(j, row, c)?;
            acc = Some(match acc {
                None => fop(&mut self.b, mul_op, &[x, y]),
                Some(a) => fop(&mut self.b, mad_op, &[x, y, a]),
            });
        }
        Ok(acc.expect("at least one component"))
    }
}
