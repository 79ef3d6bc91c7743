//! The seed's floating-point rules (seed 003 §3.3.5, §3.6) written out on host f32/f64, as
//! the expected values of the ALU tests: inputs flushed, the operation in f64 (products of
//! f32 are exact there), OMOD, one rounding to f32 (`as f32`: nearest even, overflow to Inf),
//! the denormal flush, NaN → 0x7fffffff, then the clamp.

use wavejit_r5xx::table::Omod;

/// Denormals to a zero of the same sign.
pub fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

pub fn wide(x: f32) -> f64 {
    f64::from(flush(x))
}

pub fn scale(o: Omod) -> f64 {
    match o {
        Omod::Mul1 | Omod::Disable => 1.0,
        Omod::Mul2 => 2.0,
        Omod::Mul4 => 4.0,
        Omod::Mul8 => 8.0,
        Omod::Div2 => 0.5,
        Omod::Div4 => 0.25,
        Omod::Div8 => 0.125,
    }
}

/// Clamp to [0, 1]: negatives and −0 give +0, NaN stays.
pub fn clamp01(x: f32) -> f32 {
    if x.is_nan() {
        x
    } else if x.is_sign_negative() {
        0.0
    } else if x > 1.0 {
        1.0
    } else {
        x
    }
}

/// An extended result through OMOD and clamp (bits).
pub fn finish(x: f64, o: Omod, clamp: bool) -> u32 {
    let r = flush((x * scale(o)) as f32);
    if r.is_nan() {
        return 0x7fff_ffff;
    }
    if clamp {
        clamp01(r).to_bits()
    } else {
        r.to_bits()
    }
}

/// A product of widened inputs: IEEE, or legacy (±0 times anything is +0).
pub fn mul(a: f32, b: f32, legacy: bool) -> f64 {
    let (a, b) = (wide(a), wide(b));
    if legacy && (a == 0.0 || b == 0.0) {
        0.0
    } else {
        a * b
    }
}

/// A dot product's terms summed left to right as seed 003 §3.6.2 describes the adder: a
/// nonzero term 2^25 or more times smaller than the largest term's magnitude is lost, so
/// two cancelling largest terms leave +0.0.
pub fn dot_sum(terms: &[f64]) -> f64 {
    let largest = terms
        .iter()
        .filter(|t| !t.is_nan())
        .fold(0.0f64, |m, t| m.max(t.abs()));
    let kept = |t: f64| {
        if t != 0.0 && !t.is_nan() && t.abs() * 2f64.powi(25) <= largest {
            0.0
        } else {
            t
        }
    };
    terms[1..].iter().fold(kept(terms[0]), |s, &t| s + kept(t))
}

pub fn mad(a: f32, b: f32, c: f32, legacy: bool) -> f64 {
    mul(a, b, legacy) + wide(c)
}

/// Edge values: zeros, denormals, ones, infinities, NaN, extremes, plain values.
pub const EDGES: [u32; 24] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0x4040_0000, // 3
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // NaN
    0xffc0_1234, // -NaN with payload
    0x0000_0001, // smallest denormal
    0x8040_0000, // negative denormal
    0x7f7f_ffff, // max
    0xff7f_ffff, // -max
    0x0080_0000, // min normal
    0x8080_0000, // -min normal
    0x7180_0000, // 2^100
    0x0d80_0000, // 2^-100
    0x3eaa_aaab, // 1/3
    0xc2f6_e979, // -123.456
    0x4b80_0001, // 16777218
    0x3f7f_ffff, // 1 - 2^-24
    0x2f80_0000, // 2^-32
    0x5f80_0000, // 2^64
];

/// A deterministic pick of an edge value for case `n`, operand `k`.
pub fn edge(n: u32, k: u32) -> f32 {
    let h = n
        .wrapping_mul(0x9e37_79b9)
        .wrapping_add(k.wrapping_mul(0x85eb_ca6b))
        .rotate_left(13)
        .wrapping_mul(0xc2b2_ae35);
    f32::from_bits(EDGES[(h >> 16) as usize % EDGES.len()])
}
