//! Exact rounding: an exactly known value `sig * 2^exp` (plus a sticky "a little more") rounded
//! once to a format under any rounding mode, with gradual underflow and IEEE overflow.
//!
//! This is the single rounding step behind integer-to-float and float-to-float conversions,
//! square roots, `ldexp` and the GCN helpers that scale by powers of two; it never consults
//! the host's floating-point environment.

use super::format::Fmt;
use crate::op::Round;

/// Rounds `(-1)^neg * (sig * 2^exp + delta)` to `fmt`, where `0 <= delta < 2^exp` and
/// `delta > 0` exactly when `sticky`. Denormal results are kept (flushing is the caller's
/// business); overflow gives infinity or the largest finite value as IEEE 754 prescribes for
/// the mode.
pub fn round_pack(fmt: Fmt, neg: bool, sig: u128, exp: i32, sticky: bool, mode: Round) -> u64 {
    round_pack_status(fmt, neg, sig, exp, sticky, mode).bits
}

/// One rounding step and what IEEE 754 says happened in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rounded {
    pub bits: u64,
    /// The result differs from the exact value.
    pub inexact: bool,
    /// The rounded magnitude exceeded the largest finite value.
    pub overflow: bool,
    /// The exact value is non-zero and, rounded to the format's precision with an unbounded
    /// exponent range, below the smallest normal in magnitude (IEEE 754-2008 §7.5 tininess
    /// "after rounding", as x86 SSE detects it). Underflow is `tiny && inexact`.
    pub tiny: bool,
}

/// [`round_pack`] with its [`Rounded`] status.
pub fn round_pack_status(
    fmt: Fmt,
    neg: bool,
    sig: u128,
    exp: i32,
    sticky: bool,
    mode: Round,
) -> Rounded {
    if sig == 0 {
        // Only the sticky part: a magnitude strictly between 0 and 2^exp. Callers keep at least
        // two guard bits, so 2^exp is below half of the smallest denormal.
        let up = sticky && directed_up(neg, mode);
        return Rounded {
            bits: fmt.zero(neg) | u64::from(up),
            inexact: sticky,
            overflow: false,
            tiny: sticky,
        };
    }
    let p = fmt.precision() as i32;
    let msb = 127 - sig.leading_zeros() as i32;
    let e = msb + exp;
    let emin = 1 - fmt.bias();
    let tiny = if e == emin - 1 {
        // Only here can rounding to p bits carry the value up to 2^emin.
        let (q, _) = round_at(sig, exp, e - (p - 1), sticky, neg, mode);
        q < 1u128 << p
    } else {
        e < emin
    };
    let mut lsb_exp = e.max(emin) - (p - 1);
    let (mut q, inexact) = round_at(sig, exp, lsb_exp, sticky, neg, mode);
    if q == 1u128 << p {
        q >>= 1;
        lsb_exp += 1;
    }
    let sign = fmt.zero(neg);
    let status = |bits, overflow| Rounded {
        bits,
        inexact: inexact || overflow,
        overflow,
        tiny,
    };
    if q < 1u128 << (p - 1) {
        // Denormal (or zero after rounding): the exponent field is 0.
        return status(sign | q as u64, false);
    }
    let biased = i64::from(lsb_exp) + i64::from(p - 1) + i64::from(fmt.bias());
    if biased >= i64::from(fmt.max_biased_exp()) {
        return status(overflow(fmt, neg, mode), true);
    }
    status(
        sign | ((biased as u64) << fmt.mant_bits()) | (q as u64 & fmt.mant_mask()),
        false,
    )
}

/// `sig * 2^exp` (plus the sticky part) rounded to a multiple of `2^lsb_exp` in `mode`: the
/// multiple's count (possibly carried up to the next power of two) and whether it is inexact.
fn round_at(
    sig: u128,
    exp: i32,
    lsb_exp: i32,
    sticky: bool,
    neg: bool,
    mode: Round,
) -> (u128, bool) {
    use std::cmp::Ordering;
    let shift = i64::from(lsb_exp) - i64::from(exp);
    let (q, half_cmp, inexact) = if shift <= 0 {
        (sig << (-shift) as u32, Ordering::Less, sticky)
    } else if shift > 128 {
        // Everything is below half an ulp of the smallest denormal.
        (0, Ordering::Less, true)
    } else {
        let s = shift as u32;
        let (q, dropped) = if s == 128 {
            (0, sig)
        } else {
            (sig >> s, sig & ((1u128 << s) - 1))
        };
        let half = 1u128 << (s - 1);
        let cmp = match dropped.cmp(&half) {
            Ordering::Equal if sticky => Ordering::Greater,
            c => c,
        };
        (q, cmp, dropped != 0 || sticky)
    };
    let up = match mode {
        Round::NearestEven => match half_cmp {
            Ordering::Greater => true,
            Ordering::Equal => q & 1 == 1,
            Ordering::Less => false,
        },
        _ => inexact && directed_up(neg, mode),
    };
    (q + u128::from(up), inexact)
}

/// Whether a directed mode rounds an inexact magnitude away from zero.
fn directed_up(neg: bool, mode: Round) -> bool {
    match mode {
        Round::NearestEven | Round::TowardZero => false,
        Round::TowardPositive => !neg,
        Round::TowardNegative => neg,
    }
}

/// The IEEE 754 overflow result: infinity, or the largest finite value when the mode rounds
/// toward zero from that side.
pub fn overflow(fmt: Fmt, neg: bool, mode: Round) -> u64 {
    let to_inf = match mode {
        Round::NearestEven => true,
        Round::TowardZero => false,
        Round::TowardPositive => !neg,
        Round::TowardNegative => neg,
    };
    if to_inf {
        fmt.inf(neg)
    } else {
        fmt.max_finite(neg)
    }
}

/// `x * 2^n` rounded once (NaNs are the caller's business; infinities and zeros pass).
pub fn scale(fmt: Fmt, x: u64, n: i64, mode: Round) -> u64 {
    if !fmt.is_finite(x) || fmt.is_zero(x) {
        return x & fmt.width_mask();
    }
    let (neg, sig, exp) = fmt.unpack(x);
    // Beyond +-4200 every format has long over- or underflowed; clamping keeps i32 exact.
    let n = n.clamp(-4200, 4200) as i32;
    round_pack(fmt, neg, u128::from(sig), exp + n, false, mode)
}

/// The square root of a positive finite non-zero `x`, rounded once.
pub fn sqrt(fmt: Fmt, x: u64, mode: Round) -> u64 {
    sqrt_status(fmt, x, mode).bits
}

/// [`sqrt`] with its [`Rounded`] status.
pub fn sqrt_status(fmt: Fmt, x: u64, mode: Round) -> Rounded {
    let (_, sig, exp) = fmt.unpack(x);
    // Make the radicand `m * 2^e2` with `e2` even and `m` of 123..=124 bits, so the integer
    // root has 62 bits: more than precision + 2, and the remainder gives the sticky bit.
    let bits = 64 - sig.leading_zeros() as i32;
    let mut shift = 123 - bits;
    if (exp - shift) % 2 != 0 {
        shift += 1;
    }
    let m = u128::from(sig) << shift as u32;
    let r = m.isqrt();
    let sticky = r * r != m;
    round_pack_status(fmt, false, r, (exp - shift) / 2, sticky, mode)
}
