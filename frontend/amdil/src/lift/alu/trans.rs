//! The transcendentals of the float section (7.11). The seed gives them no bit-exact
//! definition ("accurate to at least 21 bits", "the result is approximate", "maximum absolute
//! error 0.002"); each lifts to the IR's transcendental ops, whose results are one documented
//! computation (`wavejit_ir::semantics::trans`: sqrt and rcp correctly rounded, rsq two f64
//! operations, exp2, log2, sin and cos the host's f64 functions rounded to f32), in
//! [`F32_MODE`](crate::lift::F32_MODE). What the seed does define is exact: the `_zeroop`
//! results for an operand of 0.0 (±0 or a flushed denormal, a float compare), which component
//! is read and where the result goes, and the formulas its entries write out.
//!
//! The scalar forms read `src0.w` (after the swizzle: "can operate on any component by
//! swizzling it into the fourth component") and write their result to all four components;
//! the `_vec` forms work component-wise. Rules by seed 001 line:
//!
//! - `exp` (L7972), `exp_vec` (L7981): 2^x (`fexp2`).
//! - `exn` (L7955): the entry's `exp2(x * log2(e))`, the product rounded to f32 first (so an
//!   argument's rounding error grows with |x|: the seed's formula, not e^x correctly rounded).
//! - `expp` (L7998): `(exp2(floor(w)), w - floor(w), exp2(w), 1.0)`.
//! - `log_zeroop` (L8265): log2(w), but w == 0.0 gives the negated zeroop value (-FLT_MAX,
//!   -infinity); `log_vec` (L8311): component-wise, "LOG with zeroop set to infinity", which
//!   is `flog2`'s log2(±0) = -inf. A negative operand is undefined in the seed: NaN (`flog2`).
//!   `_zeroop(zero)` "cannot be used with LOG, LOGP, or LN" (Table 6.33): an invalid program.
//! - `ln_zeroop` (L8214): log2(w) * ln(2), both rounded to f32 (within 2 ulp of ln w), with
//!   `log`'s zeroop rule.
//! - `logp_zeroop` (L8327): with f = log2(w) or the zeroop value as for `log`,
//!   `(floor(f), w / exp2(floor(f)), f, 1.0)`, the entry's pseudocode (its text says only z is
//!   written; the pseudocode writes all four, and is followed).
//! - `rcp_zeroop` (L8777): 1/w (`frcp`, correctly rounded); w == 0.0 gives the zeroop value
//!   itself: the pseudocode does not negate it for -0 as `div` does. `rcp_vec` (a row with no
//!   entry, "rcp_vec with rcp's zeroop control" in grvk): the same rule per component.
//! - `rsq_zeroop` (L8919): 1/sqrt(w) (`frsq`); w == 0.0 gives the zeroop value (not negated),
//!   w < 0 is undefined: NaN. `rsq_vec` (L8968) has no zeroop control: `frsq`'s IEEE rule,
//!   rsq(+0) = +inf, rsq(-0) = -inf, NaN below zero.
//! - `sqrt` (L9055), `sqrt_vec` (L9064): `fsqrt`, correctly rounded; sqrt(-0) = -0, a negative
//!   operand ("undefined") gives NaN.
//! - `pow` (L8761): the entry's `exp2(src1.w * log2(src0.w))` with the DX9 multiply of an
//!   instruction without `_ieee` (so pow(0, 0) = pow(inf, 0) = pow(1, inf) = 1, as C's pow);
//!   src0.w < 0 is undefined in the seed: NaN unless src1.w is 0.
//! - `sin` (L9009), `cos` (L7707), `sin_vec` (L9042), `cos_vec` (L7725): radians (`fsin`,
//!   `fcos` `.radians`, every input, not only the entries' [-π, π] or [-100π, 100π]).
//!   `sincos` (L9026): (cos w, sin w) in x and y; `dxsincos` (L7921) the same, its src1 and
//!   src2 ignored ("devices with native sincos support ignore src1 and src2"); neither
//!   writes z or w (only the mask's 0 and 1 do).
//! - `tan` (L9091): sin(w) / cos(w), each rounded to f32 (within 2 ulp of tan w).
//! - `atan` (L7556): with t = |w|, u = t or 1/t when t > 1, Abramowitz and Stegun 4.4.49's
//!   degree-17 odd polynomial in u (absolute error below 2e-8 on [0, 1]) evaluated by fused
//!   Horner steps in f32, π/2 minus that when t > 1, with w's sign: within 3e-7 of atan w
//!   (the seed asks 0.002), atan(±0) = ±0, atan(±inf) = ±π/2 rounded to f32.
//! - `asin` (L7540): atan(w / sqrt(1 - w²)), 1 - w² by one fused multiply-add; `acos` (L7475):
//!   π/2 - asin(w). Both within 1e-6 of the true functions on [-1, 1]; outside it
//!   ("undefined") both give NaN; asin(±1) = ±π/2, acos(1) = 0, acos(-1) = π (as f32).
//! - `pireduce` (L8706): the entry's `(frac(x / 2π + 0.5) * 2π) - π` per component, each step
//!   rounded to f32 with 2π and π rounded to f32.

use super::super::regs::{fcmp, fop, Kind};
use super::super::Lifter;
use super::{f32_bits, mul, unless_zero, zero_result, ONE};
use std::f32::consts::{FRAC_PI_2, LN_2, LOG2_E, PI, TAU};
use wavejit_ir::{Angle, FloatCC, FunctionBuilder, Op, ScalarType, Trans, Value};
use wavejit_isa::LiftError;

use Kind::Float;

fn exp2(b: &mut FunctionBuilder, x: Value) -> Value {
    fop(b, Op::Fexp2(Trans::Ieee), &[x])
}

fn log2(b: &mut FunctionBuilder, x: Value) -> Value {
    fop(b, Op::Flog2(Trans::Ieee), &[x])
}

fn sin(b: &mut FunctionBuilder, x: Value) -> Value {
    fop(b, Op::Fsin(Trans::Ieee, Angle::Radians), &[x])
}

fn cos(b: &mut FunctionBuilder, x: Value) -> Value {
    fop(b, Op::Fcos(Trans::Ieee, Angle::Radians), &[x])
}

/// log2(x) with `log`'s zeroop rule: `zero` negated where x is 0.0.
fn log2_zeroop(b: &mut FunctionBuilder, x: Value, zero: u32) -> Value {
    let r = log2(b, x);
    unless_zero(b, x, zero | 0x8000_0000, r)
}

/// atan(x) (see the module doc).
fn atan(b: &mut FunctionBuilder, x: Value) -> Value {
    // Abramowitz and Stegun 4.4.49: atan u = u (1 + a2 u² + ... + a16 u^16) on [0, 1], with
    // the table's digits (rounded to f32 here).
    #[allow(clippy::excessive_precision)]
    const A: [f32; 8] = [
        -0.333_331_45,
        0.199_935_51,
        -0.142_088_99,
        0.106_562_64,
        -0.075_289_64,
        0.042_909_614,
        -0.016_165_737,
        0.002_866_225_7,
    ];
    let t = fop(b, Op::Fabs, &[x]);
    let one = b.i32(ONE);
    let big = fcmp(b, FloatCC::Gt, t, one);
    let inv = fop(b, Op::Fdiv, &[one, t]);
    let u = b.op(Op::Select, ScalarType::I32, &[big, inv, t]);
    let u2 = fop(b, Op::Fmul, &[u, u]);
    let mut p = f32_bits(b, A[7]);
    for &a in A[..7].iter().rev() {
        let a = f32_bits(b, a);
        p = fop(b, Op::Fma, &[p, u2, a]);
    }
    p = fop(b, Op::Fma, &[p, u2, one]);
    let p = fop(b, Op::Fmul, &[p, u]);
    let half_pi = f32_bits(b, FRAC_PI_2);
    let rest = fop(b, Op::Fsub, &[half_pi, p]);
    let r = b.op(Op::Select, ScalarType::I32, &[big, rest, p]);
    fop(b, Op::Fcopysign, &[r, x])
}

/// asin(x) = atan(x / sqrt(1 - x²)).
fn asin(b: &mut FunctionBuilder, x: Value) -> Value {
    let one = b.i32(ONE);
    let minus = fop(b, Op::Fneg, &[x]);
    let d = fop(b, Op::Fma, &[minus, x, one]);
    let s = fop(b, Op::Fsqrt(Trans::Ieee), &[d]);
    let q = fop(b, Op::Fdiv, &[x, s]);
    atan(b, q)
}

impl Lifter<'_> {
    /// Lifts a transcendental; `false` if `m` is not one.
    pub(super) fn lift_trans(&mut self, m: &str) -> Result<bool, LiftError> {
        let zeroop = self.field("zeroop");
        match m {
            "exp" => self.scalar(exp2)?,
            "exp_vec" => self.map(&[Float], Float, |b, a| exp2(b, a[0]))?,
            "exn" => self.scalar(|b, x| {
                let k = f32_bits(b, LOG2_E);
                let p = fop(b, Op::Fmul, &[x, k]);
                exp2(b, p)
            })?,
            "expp" => self.components(1, Float, |l, c| {
                let w = l.src(0, 3, Float)?;
                let b = &mut l.b;
                let f = fop(b, Op::Ffloor, &[w]);
                Ok(Some(match c {
                    0 => exp2(b, f),
                    1 => fop(b, Op::Fsub, &[w, f]),
                    2 => exp2(b, w),
                    _ => b.i32(ONE),
                }))
            })?,
            "log" | "ln" | "logp" => {
                if zeroop == 1 {
                    return Err(self.invalid(format!(
                        "{m}_zeroop(zero): Table 6.33 (L3002) says it cannot be used with \
                         LOG, LOGP or LN"
                    )));
                }
                let zero = zero_result(zeroop);
                match m {
                    "log" => self.scalar(|b, x| log2_zeroop(b, x, zero))?,
                    "ln" => self.scalar(|b, x| {
                        let lg = log2(b, x);
                        let k = f32_bits(b, LN_2);
                        let r = fop(b, Op::Fmul, &[lg, k]);
                        unless_zero(b, x, zero | 0x8000_0000, r)
                    })?,
                    _ => self.components(1, Float, |l, c| {
                        let w = l.src(0, 3, Float)?;
                        let b = &mut l.b;
                        let f = log2_zeroop(b, w, zero);
                        Ok(Some(match c {
                            0 => fop(b, Op::Ffloor, &[f]),
                            1 => {
                                let fl = fop(b, Op::Ffloor, &[f]);
                                let e = exp2(b, fl);
                                fop(b, Op::Fdiv, &[w, e])
                            }
                            2 => f,
                            _ => b.i32(ONE),
                        }))
                    })?,
                }
            }
            "log_vec" => self.map(&[Float], Float, |b, a| log2(b, a[0]))?,
            "rcp" | "rcp_vec" | "rsq" => {
                let op = if m == "rsq" {
                    Op::Frsq(Trans::Ieee)
                } else {
                    Op::Frcp(Trans::Ieee)
                };
                let zero = zero_result(zeroop);
                let f = move |b: &mut FunctionBuilder, x: Value| {
                    let r = fop(b, op, &[x]);
                    unless_zero(b, x, zero, r)
                };
                if m == "rcp_vec" {
                    self.map(&[Float], Float, |b, a| f(b, a[0]))?
                } else {
                    self.scalar(f)?
                }
            }
            "rsq_vec" => self.map(&[Float], Float, |b, a| {
                fop(b, Op::Frsq(Trans::Ieee), &[a[0]])
            })?,
            "sqrt" => self.scalar(|b, x| fop(b, Op::Fsqrt(Trans::Ieee), &[x]))?,
            "sqrt_vec" => self.map(&[Float], Float, |b, a| {
                fop(b, Op::Fsqrt(Trans::Ieee), &[a[0]])
            })?,
            "pow" => self.replicated(2, Float, |l| {
                let x = l.src(0, 3, Float)?;
                let y = l.src(1, 3, Float)?;
                let b = &mut l.b;
                let lg = log2(b, x);
                let p = mul(b, y, lg);
                Ok(exp2(b, p))
            })?,
            "sin" => self.scalar(sin)?,
            "cos" => self.scalar(cos)?,
            "sin_vec" => self.map(&[Float], Float, |b, a| sin(b, a[0]))?,
            "cos_vec" => self.map(&[Float], Float, |b, a| cos(b, a[0]))?,
            "tan" => self.scalar(|b, x| {
                let s = sin(b, x);
                let c = cos(b, x);
                fop(b, Op::Fdiv, &[s, c])
            })?,
            "sincos" | "dxsincos" => {
                let srcs = if m == "sincos" { 1 } else { 3 };
                self.components(srcs, Float, |l, c| {
                    if c > 1 {
                        return Ok(None);
                    }
                    let w = l.src(0, 3, Float)?;
                    Ok(Some(if c == 0 {
                        cos(&mut l.b, w)
                    } else {
                        sin(&mut l.b, w)
                    }))
                })?
            }
            "atan" => self.scalar(atan)?,
            "asin" => self.scalar(asin)?,
            "acos" => self.scalar(|b, x| {
                let s = asin(b, x);
                let half_pi = f32_bits(b, FRAC_PI_2);
                fop(b, Op::Fsub, &[half_pi, s])
            })?,
            "pireduce" => self.map(&[Float], Float, |b, a| {
                let tau = f32_bits(b, TAU);
                let q = fop(b, Op::Fdiv, &[a[0], tau]);
                let half = f32_bits(b, 0.5);
                let q = fop(b, Op::Fadd, &[q, half]);
                let f = fop(b, Op::Ffract, &[q]);
                let r = fop(b, Op::Fmul, &[f, tau]);
                let pi = f32_bits(b, PI);
                fop(b, Op::Fsub, &[r, pi])
            })?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A scalar transcendental: `f(src0.w)` in every component.
    fn scalar(
        &mut self,
        f: impl FnOnce(&mut FunctionBuilder, Value) -> Value,
    ) -> Result<(), LiftError> {
        self.replicated(1, Float, |l| {
            let w = l.src(0, 3, Float)?;
            Ok(f(&mut l.b, w))
        })
    }
}
