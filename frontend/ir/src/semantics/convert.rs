//! Conversions between floats and integers and between float widths.
//!
//! - Float to integer: toward zero, saturating to the integer type's range, NaN gives 0
//!   (GCN `v_cvt_i32_f32`/`v_cvt_u32_f32`, CLRX GcnInstrsVop1.md; also Rust's `as`).
//! - Integer to float and float narrowing: rounded once in `mode.round`, denormal results
//!   flushed when `mode.flush_out`.
//! - NaN payloads: widening shifts the fraction left, narrowing keeps its top bits; the sign is
//!   kept and the result is quiet (x86 `cvtss2sd`/`cvtsd2ss` and AArch64 `fcvt` behave so).

use super::float::{finish, flush_in, to_f64};
use super::format::Fmt;
use super::round::round_pack;
use crate::op::FloatMode;
use crate::types::ScalarType;

/// `x` truncated toward zero and saturated to the `bits`-wide integer, as raw bits.
pub fn to_int(fmt: Fmt, mode: FloatMode, x: u64, bits: u32, signed: bool) -> u64 {
    let x = flush_in(fmt, mode, x);
    if fmt.is_nan(x) {
        return 0;
    }
    let v = to_f64(fmt, x).trunc();
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    // Every bound here is a power of two (or one less) that f64 compares exactly.
    let r = if v >= (hi + 1) as f64 {
        hi
    } else if v <= lo as f64 {
        lo
    } else {
        v as i128
    };
    (r as u64) & mask(bits)
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// The integer `v` (raw bits of `src`) rounded to `fmt`.
pub fn from_int(fmt: Fmt, mode: FloatMode, v: u64, src: ScalarType, signed: bool) -> u64 {
    let bits = src.bits();
    let v = v & mask(bits);
    let (neg, mag) = if signed && bits < 64 && v >> (bits - 1) & 1 == 1 {
        (true, (1u64 << bits) - v)
    } else if signed && bits == 64 && (v as i64) < 0 {
        (true, (v as i64).unsigned_abs())
    } else {
        (false, v)
    };
    if mag == 0 {
        return 0;
    }
    finish(
        fmt,
        mode,
        round_pack(fmt, neg, u128::from(mag), 0, false, mode.round),
    )
}

/// `x` of format `src` converted to format `dst`.
pub fn convert(src: Fmt, dst: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(src, mode, x);
    let neg = src.is_neg(x);
    let r = if src.is_nan(x) {
        let frac = x & src.mant_mask();
        let frac = if dst.mant_bits() >= src.mant_bits() {
            frac << (dst.mant_bits() - src.mant_bits())
        } else {
            frac >> (src.mant_bits() - dst.mant_bits())
        };
        dst.zero(neg) | dst.exp_mask() | dst.quiet_bit() | frac
    } else if src.is_inf(x) {
        dst.inf(neg)
    } else if src.is_zero(x) {
        dst.zero(neg)
    } else {
        let (neg, sig, exp) = src.unpack(x);
        round_pack(dst, neg, u128::from(sig), exp, false, mode.round)
    };
    finish(dst, mode, r)
}
