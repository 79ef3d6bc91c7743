//! GCN packing conversions and byte-wise media ops (`v_cvt_pk*`, `v_sad*`, `v_msad_u8`,
//! `v_lerp_u8`), following CLRX's pseudocode (seed 002, `gcn_vop3.tsv`) with its documented
//! bugs corrected (`gcn_vop3_rules.md` §4). These ops carry no float mode: float inputs are
//! read as they are (denormals kept) and intermediate roundings are to nearest even.

use super::convert::convert;
use super::float::{raw_binary, to_f64, Arith};
use super::format::Fmt;
use crate::op::{FloatMode, Round};

/// `v_cvt_pkrtz_f16_f32`: both f32 rounded toward zero to f16, `a` in the low half. A finite
/// value too large for f16 gives ±65504 (IEEE toward-zero overflow; LLVM's constant folder
/// agrees), an infinity stays infinite, a NaN keeps the top of its payload, quieted.
pub fn cvt_pkrtz(a: u64, b: u64) -> u64 {
    let rtz = FloatMode {
        round: Round::TowardZero,
        ..FloatMode::IEEE
    };
    let h = |x: u64| convert(Fmt::F32, Fmt::F16, rtz, x);
    h(a) | h(b) << 16
}

/// `v_cvt_pknorm_{i16,u16}_f32`: `rint(x * 32767)` clamped to [-32767, 32767] (signed) or
/// `rint(x * 65535)` clamped to [0, 65535]; NaN gives 0. The product is an f32 multiplication
/// rounded to nearest even, then rounded to an integer, ties to even (AMD's RNDNE).
pub fn cvt_pknorm(signed: bool, a: u64, b: u64) -> u64 {
    let one = |x: u64| -> u64 {
        let f = Fmt::F32;
        if f.is_nan(x) {
            return 0;
        }
        let (scale, lo, hi) = if signed {
            (32767.0f32, -32767.0, 32767.0)
        } else {
            (65535.0, 0.0, 65535.0)
        };
        let p = raw_binary(
            Arith::Mul,
            f,
            Round::NearestEven,
            x,
            u64::from(scale.to_bits()),
        );
        let v = to_f64(f, p).round_ties_even().clamp(lo, hi);
        (v as i32 as u32 & 0xffff) as u64
    };
    one(a) | one(b) << 16
}

/// `v_cvt_pk_u8_f32` (f, byte index, accumulator): `clamp(rint(f), 0, 255)` written into byte
/// `idx & 3` of `acc`; a NaN writes 0. CLRX's pseudocode tests `ISNAN(f)` where it means
/// `!ISNAN(f)` (gcn_vop3_rules.md §4). AMD says the rounding follows the MODE register; this
/// op carries no mode, so it rounds to nearest even.
pub fn cvt_pk_u8(f: u64, idx: u64, acc: u64) -> u64 {
    let shift = (idx & 3) * 8;
    let fmt = Fmt::F32;
    let byte = if fmt.is_nan(f) {
        0
    } else {
        to_f64(fmt, f).round_ties_even().clamp(0.0, 255.0) as u64
    };
    (acc & !(0xff << shift) | byte << shift) & 0xffff_ffff
}

fn bytes(x: u64) -> [u32; 4] {
    [0, 8, 16, 24].map(|s| (x >> s) as u32 & 0xff)
}

/// Sum over the four bytes of |a - b| (bytes of `b` equal to 0 skipped when `masked`).
fn byte_sad(a: u64, b: u64, masked: bool) -> u32 {
    bytes(a)
        .iter()
        .zip(bytes(b))
        .filter(|&(_, y)| !masked || y != 0)
        .map(|(&x, y)| x.abs_diff(y))
        .sum()
}

/// `v_sad_u8`: acc + Σ|a.byte - b.byte| (32-bit wrapping).
pub fn sad_u8(a: u64, b: u64, acc: u64) -> u64 {
    u64::from((acc as u32).wrapping_add(byte_sad(a, b, false)))
}

/// `v_sad_hi_u8`: acc + (Σ|a.byte - b.byte| << 16).
pub fn sad_hi_u8(a: u64, b: u64, acc: u64) -> u64 {
    u64::from((acc as u32).wrapping_add(byte_sad(a, b, false) << 16))
}

/// `v_sad_u16`: acc + Σ over the two 16-bit halves of |a.half - b.half|.
pub fn sad_u16(a: u64, b: u64, acc: u64) -> u64 {
    let half = |x: u64, s: u32| (x >> s) as u32 & 0xffff;
    let sum = half(a, 0).abs_diff(half(b, 0)) + half(a, 16).abs_diff(half(b, 16));
    u64::from((acc as u32).wrapping_add(sum))
}

/// `v_sad_u32`: acc + |a - b| (unsigned difference).
pub fn sad_u32(a: u64, b: u64, acc: u64) -> u64 {
    u64::from((acc as u32).wrapping_add((a as u32).abs_diff(b as u32)))
}

/// `v_msad_u8`: as `v_sad_u8`, skipping the bytes where `b` is 0.
pub fn msad_u8(a: u64, b: u64, acc: u64) -> u64 {
    u64::from((acc as u32).wrapping_add(byte_sad(a, b, true)))
}

/// `v_lerp_u8`: per byte `(a + b + (c & 1)) >> 1`, the rounding bit being bit 0 of each byte
/// of `c`.
pub fn lerp_u8(a: u64, b: u64, c: u64) -> u64 {
    let (a, b, c) = (bytes(a), bytes(b), bytes(c));
    (0..4).fold(0, |acc, i| {
        acc | u64::from((a[i] + b[i] + (c[i] & 1)) >> 1) << (8 * i)
    })
}
