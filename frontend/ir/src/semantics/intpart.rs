//! Integer and fraction parts of floats: floor, ceil, trunc, round-to-nearest-even, fract,
//! frexp and ldexp. All are exact except `fract` (one subtraction) and `ldexp` (one rounding
//! when the result is denormal or overflows).

use super::float::{finish, flush_in, from_f64, raw_binary, to_f64, Arith};
use super::format::Fmt;
use super::round::{round_pack, scale};
use crate::op::{FloatMode, Round};

/// Which integral rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Integral {
    Floor,
    Ceil,
    Trunc,
    /// Nearest, ties to even.
    Rint,
}

/// `x` rounded to an integral value; NaNs are quieted, infinities and zeros kept, the sign of
/// a zero result is the sign of `x` (IEEE roundToIntegral).
pub fn integral(kind: Integral, fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if !fmt.is_finite(x) || fmt.is_zero(x) {
        return finish(fmt, mode, x);
    }
    finish(fmt, mode, integral_finite(kind, fmt, x))
}

fn integral_finite(kind: Integral, fmt: Fmt, x: u64) -> u64 {
    let v = to_f64(fmt, x);
    let r = match kind {
        Integral::Floor => v.floor(),
        Integral::Ceil => v.ceil(),
        Integral::Trunc => v.trunc(),
        Integral::Rint => v.round_ties_even(),
    };
    // Integral values of `fmt` are exact in f64 and back.
    from_f64(fmt, r, Round::NearestEven)
}

/// `x - floor(x)`, at most the largest value below 1.0 (GCN `v_fract_f32`; AMD documents the
/// clamp to 0x3f7fffff so that tiny negative inputs do not round to 1.0). An infinite input
/// gives a quiet NaN with the input's sign (CLRX GcnInstrsVop1.md, V_FRACT_F32).
pub fn fract(fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    if fmt.is_inf(x) {
        return x | fmt.quiet_bit();
    }
    let fl = if fmt.is_zero(x) {
        x
    } else {
        integral_finite(Integral::Floor, fmt, x)
    };
    let r = raw_binary(Arith::Sub, fmt, mode.round, x, fl);
    let below_one = fmt.one() - 1;
    let r = if !fmt.is_neg(r) && r > below_one {
        below_one
    } else {
        r
    };
    finish(fmt, mode, r)
}

/// The significand in [0.5, 1) with the sign of `x`; zeros, infinities pass, NaNs are quieted.
pub fn frexp_mant(fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if !fmt.is_finite(x) || fmt.is_zero(x) {
        return finish(fmt, mode, x);
    }
    let (neg, sig, _) = fmt.unpack(x);
    let len = 64 - sig.leading_zeros() as i32;
    finish(
        fmt,
        mode,
        round_pack(fmt, neg, u128::from(sig), -len, false, Round::NearestEven),
    )
}

/// The exponent `e` with `x = m * 2^e`, `m` in [0.5, 1); 0 for zeros, infinities and NaNs
/// (GCN 1.2+; GCN 1.0 gives -1 for infinities and NaNs, CLRX GcnInstrsVop1.md).
pub fn frexp_exp(fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if !fmt.is_finite(x) || fmt.is_zero(x) {
        return 0;
    }
    let (_, sig, exp) = fmt.unpack(x);
    let len = 64 - sig.leading_zeros() as i32;
    u64::from((exp + len) as u32)
}

/// `x * 2^n` (n a signed i32), rounded once in `mode.round`.
pub fn ldexp(fmt: Fmt, mode: FloatMode, x: u64, n: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let n = i64::from(n as u32 as i32);
    finish(fmt, mode, scale(fmt, x, n, mode.round))
}
