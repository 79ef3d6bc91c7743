//! Random constants biased to the values that break implementations: NaNs with payloads
//! (quiet and signalling, both signs), infinities, signed zeros, denormals, the extremes of
//! each format, integer conversion limits, INT_MIN, -1, shift amounts around the bit width.

use crate::op::{FloatMode, Round};
use crate::types::ScalarType;
use rand::Rng;

/// Random bits of `ty` (zero-extended), about three times in four an edge value.
pub fn edge_bits<R: Rng + ?Sized>(rng: &mut R, ty: ScalarType) -> u64 {
    match ty {
        ScalarType::I1 => rng.gen_range(0..=1),
        ScalarType::F16 => float_edge(rng, 5, 10),
        ScalarType::F32 => float_edge(rng, 8, 23),
        ScalarType::F64 => float_edge(rng, 11, 52),
        t => int_edge(rng, t.bits()),
    }
}

/// `n` random 32-bit register cells for a wave's initial state: edge values of 32-bit types
/// and the halves of edge values of 64-bit types.
pub fn edge_cells<R: Rng + ?Sized>(rng: &mut R, n: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(n + 1);
    while out.len() < n {
        let ty = [
            ScalarType::I32,
            ScalarType::F32,
            ScalarType::I64,
            ScalarType::F64,
        ][rng.gen_range(0..4)];
        let bits = edge_bits(rng, ty);
        out.push(bits as u32);
        if ty.bits() == 64 {
            out.push((bits >> 32) as u32);
        }
    }
    out.truncate(n);
    out
}

/// 32-bit register patterns at the edges of the integer, f32, packed-f16 and f64-half ranges:
/// the one set every ISA's random initial states draw from (through `wavejit-isa`).
pub const EDGE_CELLS: &[u32] = &[
    0,
    1,
    2,
    3,
    0xffff_ffff, // -1, negative NaN with all payload bits
    0x7fff_ffff, // INT_MAX, quiet NaN with all payload bits
    0x8000_0000, // INT_MIN, f32 -0
    0x8000_0001,
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // default quiet NaN
    0xffc0_0001, // negative quiet NaN with a payload
    0x7fa0_0000, // signalling NaN
    0x7f80_0001, // signalling NaN, smallest payload
    0x0000_0001, // smallest f32 denormal
    0x807f_ffff, // largest negative f32 denormal
    0x0080_0000, // smallest normal, 24-bit multiply operand limit
    0x00ff_ffff, // 24-bit multiply operand limit
    0xff80_0001,
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x3f00_0000, // 0.5
    0x3eff_ffff, // just below 0.5
    0x3fc0_0000, // 1.5 (a rounding tie once scaled)
    0x4000_0000, // 2.0
    0x4380_0000, // 256.0 (TeraScale's SIN/COS input limit)
    0x4b40_0000, // 12582912.0 (round-to-int magic)
    0x4f00_0000, // 2^31
    0xcf00_0000, // -2^31
    0x4f80_0000, // 2^32
    0x7f7f_ffff, // largest finite
    0x7c00_fc00, // f16 +inf | -inf
    0x7e00_7d00, // f16 quiet NaN | signalling NaN
    0x0001_8001, // f16 +denormal | -denormal
    0x3c00_bc00, // f16 1.0 | -1.0
    0x03ff_7bff, // f16 largest denormal | largest finite
    0x0000_8000, // f16 -0 in the low half
    0x7ff0_0000, // f64 +inf (high half)
    0x7ff8_0000, // f64 quiet NaN (high half)
    0x7ff4_0000, // f64 signalling NaN (high half)
    0x000f_ffff, // f64 denormal (high half)
    0x3ff0_0000, // f64 1.0 (high half)
    0xfff0_0000, // f64 -inf (high half)
    0x0000_00ff,
    0x0000_ff00,
    0x0001_0000,
    0xffff_0000,
];

/// A random 32-bit register cell: four times in ten an [`EDGE_CELLS`] pattern, else a small
/// integer of either sign, a small multiple of 0.25 as f32, or random bits.
pub fn edge_cell<R: Rng + ?Sized>(rng: &mut R) -> u32 {
    match rng.gen_range(0..10) {
        0..=3 => EDGE_CELLS[rng.gen_range(0..EDGE_CELLS.len())],
        4..=5 => rng.gen_range(0..=64),
        6 => rng.gen_range(-64i32..0) as u32,
        7 => (rng.gen_range(-64i32..=64) as f32 * 0.25).to_bits(),
        _ => rng.gen(),
    }
}

fn int_edge<R: Rng + ?Sized>(rng: &mut R, bits: u32) -> u64 {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let min = 1u64 << (bits - 1);
    match rng.gen_range(0..12) {
        0 => 0,
        1 => 1,
        2 => mask,
        3 => min,
        4 => min - 1,
        5 => min + 1,
        6 => u64::from(rng.gen_range(0..=bits + 1)) & mask,
        7 => 1 << rng.gen_range(0..bits),
        8 => mask - rng.gen_range(1..4),
        9 => rng.gen_range(0..16),
        _ => rng.gen::<u64>() & mask,
    }
}

/// A float of `e` exponent and `m` mantissa bits.
fn float_edge<R: Rng + ?Sized>(rng: &mut R, e: u32, m: u32) -> u64 {
    let width = 1 + e + m;
    let sign = if rng.gen_bool(0.5) {
        1u64 << (width - 1)
    } else {
        0
    };
    let mant = (1u64 << m) - 1;
    let exp_all = ((1u64 << e) - 1) << m;
    let quiet = 1u64 << (m - 1);
    let bias = (1u64 << (e - 1)) - 1;
    let random_mant = rng.gen::<u64>() & mant;
    sign | match rng.gen_range(0..16) {
        0 => 0,
        1 => exp_all,
        2 => exp_all | quiet,
        3 => exp_all | quiet | random_mant,
        4 => exp_all | (random_mant & (quiet - 1)).max(1),
        5 => 1,
        6 => mant,
        7 => random_mant,
        8 => 1 << m,
        9 => (exp_all - (1 << m)) | mant,
        10 => bias << m,
        // Near 1.0: one ulp above, one below.
        11 => (bias << m) | 1,
        12 => ((bias - 1) << m) | mant,
        // Halves and small integers (rounding ties, conversions): k/2 for k in 1..64.
        13 => {
            let k = rng.gen_range(1u64..64);
            let msb = 63 - k.leading_zeros() as u64;
            ((bias + msb - 1) << m) | (((k << m) >> msb) & mant)
        }
        // Powers of two around integer conversion limits (2^15 .. 2^64), clamped to the format.
        14 => {
            let p = [15u64, 16, 31, 32, 63, 64][rng.gen_range(0..6)].min(bias);
            ((bias + p) << m) | (random_mant & rng.gen_range(0..4))
        }
        _ => rng.gen::<u64>() & ((1u64 << (width - 1)) - 1),
    }
}

/// A random float environment: the default half the time, otherwise every combination of
/// flushing and rounding.
pub fn float_mode<R: Rng + ?Sized>(rng: &mut R) -> FloatMode {
    if rng.gen_bool(0.5) {
        return FloatMode::IEEE;
    }
    let round = [
        Round::NearestEven,
        Round::TowardPositive,
        Round::TowardNegative,
        Round::TowardZero,
    ][rng.gen_range(0..4)];
    FloatMode {
        flush_in: rng.gen_bool(0.5),
        flush_out: rng.gen_bool(0.5),
        round,
    }
}
