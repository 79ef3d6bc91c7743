//! GCN float helpers: the division sequence (`v_div_scale`, `v_div_fmas`, `v_div_fixup`),
//! `v_trig_preop_f64` and the cube-map ops.
//!
//! Sources: AMD's GCN3/Vega ISA pseudocode as reproduced by gem5/MGPUSim and AMD's
//! machine-readable ISA, CLRX `GcnInstrsVop3.md` (seed 002), and tinygrad's hardware-checked
//! corrections of AMD's pseudocode (RDNA3). Where they differ it is said at the function.
//! Exponents below are biased exponent fields ("exponent()" in AMD's pseudocode).

use super::float::{self, finish, flush_in, raw_binary, Arith};
use super::format::Fmt;
use super::round::{round_pack, scale};
use super::two_over_pi::{TWO_OVER_PI, TWO_OVER_PI_BITS};
use crate::op::{FloatMode, Round};

/// Thresholds of the division helpers per format: (exponent gap that makes N/D near the
/// largest value, power-of-two scale, "numerator is tiny" exponent). f16 has no GCN
/// `v_div_scale`/`v_div_fmas`; for it both helpers do no scaling.
fn div_params(fmt: Fmt) -> Option<(i32, i64, u32)> {
    match fmt {
        Fmt::F32 => Some((96, 64, 23)),
        Fmt::F64 => Some((768, 128, 53)),
        Fmt::F16 => None,
    }
}

/// `v_div_scale` (s0 = the value to scale, equal to s1 or s2; s1 = denominator; s2 =
/// numerator): the scaled value and the VCC flag. AMD's pseudocode, with the branches it
/// leaves without an assignment giving s0 unchanged:
/// ```text
/// if s2 == 0 || s1 == 0                   -> NaN
/// elif exp(s2) - exp(s1) >= 96            -> flag; s0 == s1 ? ldexp(s0, 64) : s0
/// elif s1 is denormal                     -> ldexp(s0, 64)
/// elif 1/s1 denormal && s2/s1 denormal    -> flag; s0 == s1 ? ldexp(s0, -64) : s0
/// elif 1/s1 denormal                      -> ldexp(s0, -64)
/// elif s2/s1 denormal                     -> flag; s0 == s2 ? ldexp(s0, 64) : s0
/// elif exp(s2) <= 23                      -> ldexp(s0, 64)   (numerator is tiny)
/// else                                    -> s0
/// ```
/// (f64: 768, ±128 and 53.) Two readings differ from AMD's printed text, both forced by the
/// end-to-end test that LLVM's division expansion yields IEEE division (tests/semantics_gpu.rs):
/// - "1/s1 denormal" is evaluated in the operand's format (the RDNA text casts s1 to f64
///   first, which makes the branch dead for f32, and then 1/f32::MAX comes out 1 ulp off);
/// - the combined branch scales the denominator *down* (AMD prints `ldexp(s0, 64)`, which
///   overflows a denominator that is already near the maximum).
///
/// tinygrad observed RDNA3 setting the flag in the zero and tiny-numerator cases too; that
/// would make `v_div_fmas` rescale an unscaled quotient in the tiny-numerator case, so AMD's
/// text is kept there. CLRX (seed 002) describes a different, simpler rule.
pub fn div_scale(fmt: Fmt, mode: FloatMode, s0: u64, s1: u64, s2: u64) -> (u64, bool) {
    let [s0, s1, s2] = [s0, s1, s2].map(|x| flush_in(fmt, mode, x));
    let Some((gap, k, tiny)) = div_params(fmt) else {
        return (finish(fmt, mode, s0), false);
    };
    let ldexp = |n: i64| scale(fmt, s0, n, mode.round);
    let exp = |x: u64| fmt.biased_exp(x) as i32;
    let quot_denorm = || fmt.is_denormal(raw_binary(Arith::Div, fmt, Round::NearestEven, s2, s1));
    let rcp_denorm = || {
        fmt.is_denormal(raw_binary(
            Arith::Div,
            fmt,
            Round::NearestEven,
            fmt.one(),
            s1,
        ))
    };
    let (r, flag) = if fmt.is_zero(s2) || fmt.is_zero(s1) {
        (fmt.default_nan(), false)
    } else if exp(s2) - exp(s1) >= gap {
        (if fmt.eq(s0, s1) { ldexp(k) } else { s0 }, true)
    } else if fmt.is_denormal(s1) {
        (ldexp(k), false)
    } else if rcp_denorm() && quot_denorm() {
        (if fmt.eq(s0, s1) { ldexp(-k) } else { s0 }, true)
    } else if rcp_denorm() {
        (ldexp(-k), false)
    } else if quot_denorm() {
        (if fmt.eq(s0, s2) { ldexp(k) } else { s0 }, true)
    } else if fmt.biased_exp(s2) <= tiny {
        (ldexp(k), false)
    } else {
        (s0, false)
    };
    (finish(fmt, mode, r), flag)
}

/// `v_div_fmas`: `fma(a, b, c)`, and when `vcc` the result times 2^64 if |c| >= 2 (biased
/// exponent of c above the bias) else times 2^-64 (f64: 2^+-128). AMD's manuals print a fixed
/// 2^32 (f32) / 2^64 (f64); CLRX (seed 002) and tinygrad's hardware-checked correction both
/// give this exponent-dependent form. The scaled result is rounded once (a denormal quotient
/// must not be rounded twice: the division-sequence test catches that). f16: a plain fma.
pub fn div_fmas(fmt: Fmt, mode: FloatMode, a: u64, b: u64, c: u64, vcc: bool) -> u64 {
    match div_params(fmt) {
        Some((_, k, _)) if vcc => {
            let up = fmt.biased_exp(flush_in(fmt, mode, c)) > fmt.bias() as u32;
            float::fma_scaled(fmt, mode, a, b, c, if up { k as i32 } else { -k as i32 })
        }
        _ => float::fma(fmt, mode, a, b, c),
    }
}

/// `v_div_fixup` (s0 = quotient, s1 = denominator, s2 = numerator), AMD's pseudocode:
/// ```text
/// sign = sign(s1) ^ sign(s2)
/// s2 NaN -> quiet(s2); s1 NaN -> quiet(s1); 0/0 and inf/inf -> 0xffc00000 (default NaN)
/// s1 == 0 or s2 inf -> ±inf; s1 inf or s2 == 0 -> ±0
/// exp(s2) - exp(s1) < -150 (f64 -1075, f16 -25) -> the underflowed quotient
/// else -> ±|s0|, and ±inf when s0 is NaN (tinygrad's hardware-checked correction)
/// ```
/// The underflowed quotient is below half the smallest denormal: ±0, or the smallest
/// denormal when the rounding mode rounds away from zero on that side. (AMD's `exp(s1) ==
/// 255 -> overflow` branch is unreachable after the infinity and NaN cases.)
pub fn div_fixup(fmt: Fmt, mode: FloatMode, s0: u64, s1: u64, s2: u64) -> u64 {
    let [s0, s1, s2] = [s0, s1, s2].map(|x| flush_in(fmt, mode, x));
    let neg = fmt.is_neg(s1) != fmt.is_neg(s2);
    let gap = fmt.biased_exp(s2) as i32 - fmt.biased_exp(s1) as i32;
    let r = if fmt.is_nan(s2) {
        s2
    } else if fmt.is_nan(s1) {
        s1
    } else if (fmt.is_zero(s1) && fmt.is_zero(s2)) || (fmt.is_inf(s1) && fmt.is_inf(s2)) {
        fmt.default_nan()
    } else if fmt.is_zero(s1) || fmt.is_inf(s2) {
        fmt.inf(neg)
    } else if fmt.is_inf(s1) || fmt.is_zero(s2) {
        fmt.zero(neg)
    } else if gap < -(fmt.bias() + fmt.mant_bits() as i32) {
        round_pack(fmt, neg, 0, 0, true, mode.round)
    } else if fmt.is_nan(s0) {
        fmt.inf(neg)
    } else {
        fmt.abs(s0) | fmt.zero(neg)
    };
    finish(fmt, mode, r)
}

/// `v_trig_preop_f64`: 53 bits of 2/π for Payne-Hanek range reduction (AMD pseudocode):
/// ```text
/// shift = (seg & 31) * 53;  if exp(x) > 1077: shift += exp(x) - 1077
/// result = bits [shift, shift + 53) of the 1201-bit fraction of 2/π, as an integer
/// scale = -53 - shift;  if exp(x) >= 1968: scale += 128
/// D = ldexp(result, scale), rounded toward zero
/// ```
/// Bits past the table's 1201 read as zero. A NaN `x` is quieted. LLVM's constant folder
/// (AMDGPUInstCombineIntrinsic.cpp) returns 0 once `shift >= 1120` (its table has 37
/// words); AMD's 1201-bit definition is followed here.
pub fn trig_preop(mode: FloatMode, x: u64, seg: u64) -> u64 {
    let fmt = Fmt::F64;
    let x = flush_in(fmt, mode, x);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let e = fmt.biased_exp(x);
    let mut shift = (seg as u32 & 31) * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    let mut bits: u128 = 0;
    for i in shift..shift + 53 {
        bits = bits << 1 | u128::from(two_over_pi_bit(i));
    }
    let mut sc = -53 - shift as i32;
    if e >= 1968 {
        sc += 128;
    }
    let r = if bits == 0 {
        0
    } else {
        round_pack(fmt, false, bits, sc, false, Round::TowardZero)
    };
    finish(fmt, mode, r)
}

/// Fraction bit `i` of 2/π (bit 0 is worth 1/2); zero past the table.
fn two_over_pi_bit(i: u32) -> bool {
    if i >= TWO_OVER_PI_BITS {
        return false;
    }
    TWO_OVER_PI[(i / 32) as usize] >> (31 - i % 32) & 1 == 1
}

/// Which cube-map value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cube {
    /// Face id 0..5 as a float: +x, -x, +y, -y, +z, -z.
    Id,
    /// S coordinate (before the major-axis division).
    Sc,
    /// T coordinate.
    Tc,
    /// Twice the major-axis component.
    Ma,
}

/// `v_cube{id,sc,tc,ma}_f32` (x, y, z). The major axis is z if |z| >= |x| and |z| >= |y|,
/// else y if |y| >= |x|, else x (comparisons with a NaN are false). Per axis
/// (CLRX seed 002 and AMD's pseudocode):
/// ```text
///          id              sc               tc               ma
/// z major  z<0 ? 5 : 4     z<0 ? -x : x     -y               2z
/// y major  y<0 ? 3 : 2     x                y<0 ? -z : z     2y
/// x major  x<0 ? 1 : 0     x<0 ? z : -z     -y               2x
/// ```
/// Negation flips the sign bit; `2v` is an IEEE multiplication in `mode`.
pub fn cube(which: Cube, mode: FloatMode, x: u64, y: u64, z: u64) -> u64 {
    let fmt = Fmt::F32;
    let [x, y, z] = [x, y, z].map(|v| flush_in(fmt, mode, v));
    let ge = |a: u64, b: u64| {
        let (a, b) = (fmt.abs(a), fmt.abs(b));
        fmt.lt(b, a) || fmt.eq(a, b)
    };
    let below_zero = |v: u64| fmt.lt(v, 0);
    let float = |v: u32| u64::from((v as f32).to_bits());
    let (axis, major) = if ge(z, x) && ge(z, y) {
        (2, z)
    } else if ge(y, x) {
        (1, y)
    } else {
        (0, x)
    };
    let r = match (which, axis) {
        (Cube::Id, _) => float(2 * axis + u32::from(below_zero(major))),
        (Cube::Ma, _) => return float::binary(Arith::Mul, fmt, mode, float(2), major),
        (Cube::Sc, 2) => {
            if below_zero(z) {
                fmt.neg(x)
            } else {
                x
            }
        }
        (Cube::Sc, 1) => x,
        (Cube::Sc, _) => {
            if below_zero(x) {
                z
            } else {
                fmt.neg(z)
            }
        }
        (Cube::Tc, 1) => {
            if below_zero(y) {
                fmt.neg(z)
            } else {
                z
            }
        }
        (Cube::Tc, _) => fmt.neg(y),
    };
    finish(fmt, mode, r)
}
