//! The ALU's floating-point rules (seed 003 §3.3.4-3.3.5 and §3.6, lines 1306-1387;
//! `../shared/notes/r5xx_sources.md` §3), as IR built from generic ops.
//!
//! - **Denormals** are flushed to a zero of the same sign on input and output
//!   ([`FloatMode::FLUSH`]); comparisons read them as zero.
//! - **Extra range** (§3.6.2): non-transcendental results are computed in f64 and rounded to
//!   f32 once, after the output modifier: inputs are flushed and widened (exact), a product of
//!   two f32 is exact in f64, a sum of products is rounded in f64, OMOD's ×/÷ 2, 4, 8 is exact
//!   in f64, then one rounding to f32 (nearest even) with the denormal flush. So a MAD whose
//!   result leaves the f32 range but that OMOD brings back is finite, and a denormal
//!   intermediate that OMOD makes normal stays nonzero, as the seed says. The hardware's
//!   rounding is "not exact to the IEEE standard" (§3.6.1) and not documented bit for bit;
//!   this is the exact model the seed's description allows (one rounding; a dot product's
//!   terms are added left to right, each sum rounded in f64).
//! - **Dot products** (DP3, DP4, D2A; §3.6.2: "if the two largest values to be added cancel
//!   exactly, and the next-largest value has a magnitude smaller by a factor of 2^25 or
//!   more, X1K FP will emit +0.0"): the adder aligns its terms (the products, and D2A's C) to
//!   the largest, so a nonzero term whose magnitude is at most 2^-25 of the largest term's
//!   adds nothing (it becomes +0.0; a zero term keeps its sign, a NaN is never lost). The seed
//!   gives only the cancelling case; the threshold applied to every term is this model's
//!   generalisation of it, the reading of a fixed-width aligned adder.
//! - **The output modifier** (OMOD 0-6) standardises a NaN to 0x7fffffff and flushes
//!   denormals; the clamp to [0, 1] follows it (the IR's `fclamp`: −0 gives +0, NaN stays
//!   0x7fffffff: the seed does not say what a clamped NaN is). OMOD_DISABLED (7), valid only
//!   for MIN, MAX, CND and CMP (the lifter refuses it elsewhere), returns the selected input's
//!   bits unchanged and applies no clamp.
//! - **Transcendentals** (EX2, LN2, RCP, RSQ, SIN, COS; §3.6.3) have no extra range: the f32
//!   result (infinite on overflow, a signed zero when denormal) then goes through OMOD and
//!   clamp like any other. Their values are the IR's (`fexp2`, `flog2`, `frcp`, `frsq`,
//!   `fsin`/`fcos` `.turns`: correctly rounded in practice), not the hardware's approximations,
//!   which the seed gives no bits for. Special values (table at lines 1370-1375) are IEEE's
//!   but RSQ(−0) = +Inf (the table's footnote): RSQ reads `x + 0.0`, which turns −0 (and a
//!   flushed negative denormal) into +0 and changes nothing else. SIN and COS take A·2π
//!   (`.turns`); the IR's turns domain is [−256, 256], so an input beyond it is first reduced
//!   by its nearest integer (`x − rint(x)`, exact for every f32), which changes no value of
//!   sin(2πx) and keeps ±Inf → NaN.
//! - **Multiply**: IEEE (0·Inf = NaN) unless US_CONFIG bit 1 (`zero_times_anything`)
//!   selects the legacy rule of MAD, MDH/MDV and the dot products: ±0 times anything
//!   (Inf, NaN) is +0 (the IR's `fmul_legacy`; the seed's source gives no sign).
//! - **Selects** (§3.6.2): MIN = `A < B ? A : B`, MAX = `A > B ? A : B`, CND = `C > 0.5 ? A
//!   : B`, CMP = `C >= 0 ? A : B`, compared with denormals read as zero, so a NaN in a
//!   comparison gives the second argument and MIN(+0, −0) = −0, MIN(−0, +0) = +0, MAX likewise
//!   returns its second input for ±0. The seed's formula for MAX reads `A >= B ? A : B`, but
//!   its floating-point section says both MIN and MAX return the second input when both are
//!   ±0; the explicit rule wins. For CND and CMP "either input" is read as the comparison's
//!   inputs (C and the constant): the select is on C alone.
//! - **FRC** = A − floor(A) in f64, then OMOD: −2^-30 gives 1 − 2^-30, which rounds to 1.0;
//!   ±Inf gives NaN.
//! - **Presubtract** results (1 − 2·src0, src1 − src0, src1 + src0, 1 − src0) are f32 values,
//!   each one rounding with the flush (1 − 2·src0 as one fused operation; 2·src0 is exact).
//! - **Comparisons against zero** (predicates, the ALU result; table at lines 1324-1329):
//!   `< 0`, `>= 0`, `== 0` are false for NaN and `!= 0` is true; ±0 and denormals equal 0.

use crate::table::{CmpOp, Omod, Presub};
use wavejit_ir::{
    Angle, FloatCC, FloatMode, FunctionBuilder, MinMax, Op, ScalarType, Trans, Value,
};

use ScalarType::{F32, F64, I1};

/// Every f32 operation: denormals flushed on input and output.
pub const MODE: FloatMode = FloatMode::FLUSH;
/// A nonzero dot-product term whose magnitude times this is at most the largest term's is
/// lost (the seed's "smaller by a factor of 2^25 or more").
const ALIGN: f64 = 33_554_432.0; // 2^25
/// The standard NaN the output modifier produces.
pub const NAN: u32 = 0x7fff_ffff;

/// A transcendental of the alpha unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trans1 {
    Ex2,
    Ln2,
    Rcp,
    Rsq,
    Sin,
    Cos,
}

/// `x` (f32) widened to f64 with the input flush (exact).
pub fn widen(b: &mut FunctionBuilder, x: Value) -> Value {
    b.op_mode(Op::Fconvert, FloatMode::FLUSH_IN, F64, &[x])
}

/// The power of two an output modifier multiplies by, `None` for ×1 and DISABLE.
fn scale(omod: Omod) -> Option<f64> {
    match omod {
        Omod::Mul1 | Omod::Disable => None,
        Omod::Mul2 => Some(2.0),
        Omod::Mul4 => Some(4.0),
        Omod::Mul8 => Some(8.0),
        Omod::Div2 => Some(0.5),
        Omod::Div4 => Some(0.25),
        Omod::Div8 => Some(0.125),
    }
}

/// An extended-range result `x` (f64) through OMOD (not DISABLE), one rounding to f32 with
/// the flush, the NaN standardisation and the optional clamp.
pub fn finish(b: &mut FunctionBuilder, x: Value, omod: Omod, clamp: bool) -> Value {
    let x = match scale(omod) {
        Some(k) => {
            let k = b.f64(k);
            b.op(Op::Fmul, F64, &[x, k])
        }
        None => x,
    };
    let r = b.op_mode(Op::Fconvert, MODE, F32, &[x]);
    let nan = b.op(Op::Fcmp(FloatCC::Uno), I1, &[r, r]);
    let std = b.iconst(F32, u64::from(NAN));
    let r = b.op(Op::Select, F32, &[nan, std, r]);
    if clamp {
        b.op(Op::Fclamp { dx10: false }, F32, &[r])
    } else {
        r
    }
}

/// An f32 result `x` (a transcendental's, or a selected input) through OMOD and clamp;
/// with OMOD_DISABLED, `x` unchanged.
pub fn finish32(b: &mut FunctionBuilder, x: Value, omod: Omod, clamp: bool) -> Value {
    if omod == Omod::Disable {
        return x;
    }
    let w = widen(b, x);
    finish(b, w, omod, clamp)
}

/// `a * b` of two widened inputs: IEEE, or the legacy 0·anything = +0.
fn product(bld: &mut FunctionBuilder, a: Value, b: Value, legacy: bool) -> Value {
    let op = if legacy { Op::FmulLegacy } else { Op::Fmul };
    bld.op(op, F64, &[a, b])
}

/// `a * b + c` of f32 inputs, extended (f64).
pub fn mad(bld: &mut FunctionBuilder, a: Value, b: Value, c: Value, legacy: bool) -> Value {
    let (a, b, c) = (widen(bld, a), widen(bld, b), widen(bld, c));
    let p = product(bld, a, b, legacy);
    bld.op(Op::Fadd, F64, &[p, c])
}

/// `Σ a_k * b_k (+ extra)` of f32 inputs, left to right, extended (f64), with the dot-product
/// adder's alignment: a nonzero term at most 2^-25 of the largest term's magnitude adds
/// nothing (see the module doc).
pub fn dot(
    bld: &mut FunctionBuilder,
    terms: &[(Value, Value)],
    extra: Option<Value>,
    legacy: bool,
) -> Value {
    let mut values: Vec<Value> = terms
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (widen(bld, a), widen(bld, b));
            product(bld, a, b, legacy)
        })
        .collect();
    values.extend(extra.map(|c| widen(bld, c)));
    let mags: Vec<Value> = values
        .iter()
        .map(|&v| bld.op(Op::Fabs, F64, &[v]))
        .collect();
    let largest = mags[1..].iter().fold(mags[0], |m, &x| {
        bld.op(Op::Fmax(MinMax::Ieee), F64, &[m, x])
    });
    let align = bld.f64(ALIGN);
    let zero = bld.f64(0.0);
    let mut sum: Option<Value> = None;
    for (&v, &mag) in values.iter().zip(&mags) {
        let scaled = bld.op(Op::Fmul, F64, &[mag, align]);
        let small = bld.op(Op::Fcmp(FloatCC::Le), I1, &[scaled, largest]);
        let nonzero = bld.op(Op::Fcmp(FloatCC::One), I1, &[v, zero]);
        let lost = bld.op(Op::And, I1, &[small, nonzero]);
        let term = bld.op(Op::Select, F64, &[lost, zero, v]);
        sum = Some(match sum {
            Some(s) => bld.op(Op::Fadd, F64, &[s, term]),
            None => term,
        });
    }
    sum.expect("a dot product has terms")
}

/// `a - floor(a)`, extended (f64).
pub fn frc(b: &mut FunctionBuilder, a: Value) -> Value {
    let w = widen(b, a);
    let f = b.op(Op::Ffloor, F64, &[w]);
    b.op(Op::Fsub, F64, &[w, f])
}

/// `cond ? a : b` on raw f32 bits.
fn pick(b: &mut FunctionBuilder, cond: Value, x: Value, y: Value) -> Value {
    b.op(Op::Select, F32, &[cond, x, y])
}

fn cmp(b: &mut FunctionBuilder, cc: FloatCC, x: Value, y: Value) -> Value {
    b.op_mode(Op::Fcmp(cc), FloatMode::FLUSH_IN, I1, &[x, y])
}

/// MIN: `a < b ? a : b` (raw bits).
pub fn min(b: &mut FunctionBuilder, x: Value, y: Value) -> Value {
    let c = cmp(b, FloatCC::Lt, x, y);
    pick(b, c, x, y)
}

/// MAX: `a > b ? a : b` (raw bits).
pub fn max(b: &mut FunctionBuilder, x: Value, y: Value) -> Value {
    let c = cmp(b, FloatCC::Gt, x, y);
    pick(b, c, x, y)
}

/// CND: `c > 0.5 ? a : b` (raw bits).
pub fn cnd(b: &mut FunctionBuilder, x: Value, y: Value, c: Value) -> Value {
    let half = b.f32(0.5);
    let t = cmp(b, FloatCC::Gt, c, half);
    pick(b, t, x, y)
}

/// CMP: `c >= 0 ? a : b` (raw bits).
pub fn cmp_ge0(b: &mut FunctionBuilder, x: Value, y: Value, c: Value) -> Value {
    let zero = b.f32(0.0);
    let t = cmp(b, FloatCC::Ge, c, zero);
    pick(b, t, x, y)
}

/// A transcendental of f32 `a`: its f32 result (no extra range).
pub fn trans(b: &mut FunctionBuilder, f: Trans1, a: Value) -> Value {
    let t = Trans::Ieee;
    match f {
        Trans1::Ex2 => b.op_mode(Op::Fexp2(t), MODE, F32, &[a]),
        Trans1::Ln2 => b.op_mode(Op::Flog2(t), MODE, F32, &[a]),
        Trans1::Rcp => b.op_mode(Op::Frcp(t), MODE, F32, &[a]),
        Trans1::Rsq => {
            let zero = b.f32(0.0);
            let x = b.op_mode(Op::Fadd, MODE, F32, &[a, zero]);
            b.op_mode(Op::Frsq(t), MODE, F32, &[x])
        }
        Trans1::Sin | Trans1::Cos => {
            let mag = b.op(Op::Fabs, F32, &[a]);
            let limit = b.f32(256.0);
            let big = b.op(Op::Fcmp(FloatCC::Gt), I1, &[mag, limit]);
            let whole = b.op(Op::Frint, F32, &[a]);
            let frac = b.op(Op::Fsub, F32, &[a, whole]);
            let x = pick(b, big, frac, a);
            let op = if f == Trans1::Sin {
                Op::Fsin(t, Angle::Turns)
            } else {
                Op::Fcos(t, Angle::Turns)
            };
            b.op_mode(op, MODE, F32, &[x])
        }
    }
}

/// A presubtract of f32 sources `s0`, `s1`.
pub fn presub(b: &mut FunctionBuilder, op: Presub, s0: Value, s1: Value) -> Value {
    match op {
        Presub::Bias => {
            let m2 = b.f32(-2.0);
            let one = b.f32(1.0);
            b.op_mode(Op::Fma, MODE, F32, &[s0, m2, one])
        }
        Presub::Sub => b.op_mode(Op::Fsub, MODE, F32, &[s1, s0]),
        Presub::Add => b.op_mode(Op::Fadd, MODE, F32, &[s1, s0]),
        Presub::Inv => {
            let one = b.f32(1.0);
            b.op_mode(Op::Fsub, MODE, F32, &[one, s0])
        }
    }
}

/// Whether f32 `x` passes the comparison against zero `op` (an `i1` of `x`'s shape).
pub fn test_zero(b: &mut FunctionBuilder, op: CmpOp, x: Value) -> Value {
    let cc = match op {
        CmpOp::Eq => FloatCC::Eq,
        CmpOp::Lt => FloatCC::Lt,
        CmpOp::Ge => FloatCC::Ge,
        CmpOp::Ne => FloatCC::Une,
    };
    let zero = b.f32(0.0);
    cmp(b, cc, x, zero)
}
