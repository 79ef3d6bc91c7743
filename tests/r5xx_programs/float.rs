//! The ALU's arithmetic on the host, written from seed 003 §3.3-§3.6 and the lifter's
//! documented choices where the seed leaves the bits open (frontend/r5xx/src/lift/float.rs,
//! module docs), without calling the lifter:
//! - denormals are flushed to a zero of the same sign on input and on output (§3.6.1);
//! - MAD and the dot products keep extra range (§3.6.2): inputs widened to f64, products
//!   exact, sums rounded in f64 left to right, the output modifier's power of two applied in
//!   f64, then one rounding to f32 (the lifter's stated model of "extra precision");
//! - the output modifier (any but DISABLE) turns a NaN into 0x7fffffff (§3.3.5) and the clamp
//!   follows it (§3.3.5: "clamped to the range 0 to 1 ... after the output modifier");
//! - MIN, MAX, CND, CMP return one of their inputs' bits, compared with denormals as zero;
//!   with OMOD_DISABLED the bits are unchanged (§3.3.5, §3.6.2);
//! - comparisons against zero (predicates, the ALU result): the table of §3.6.1.
//!
//! Values are f32 bit patterns (`u32`), as registers hold them.

/// The standard NaN of the output modifier.
pub const NAN: u32 = 0x7fff_ffff;

/// A denormal becomes a zero of its sign.
pub fn flush(bits: u32) -> u32 {
    if bits & 0x7f80_0000 == 0 {
        bits & 0x8000_0000
    } else {
        bits
    }
}

/// An input as the ALU sees it, widened (exactly) to f64.
pub fn wide(bits: u32) -> f64 {
    f64::from(f32::from_bits(flush(bits)))
}

/// The output modifiers the programs use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Omod {
    X1,
    X2,
    D2,
    D8,
    Disable,
}

impl Omod {
    fn factor(self) -> f64 {
        match self {
            Omod::X1 | Omod::Disable => 1.0,
            Omod::X2 => 2.0,
            Omod::D2 => 0.5,
            Omod::D8 => 0.125,
        }
    }
}

/// An extended-range result through the output modifier (not DISABLE) and the optional
/// clamp: one rounding to f32, the flush, the NaN standardisation.
pub fn finish(x: f64, omod: Omod, clamp: bool) -> u32 {
    assert_ne!(
        omod,
        Omod::Disable,
        "only selects may disable the output modifier"
    );
    let r = (x * omod.factor()) as f32;
    if r.is_nan() {
        return NAN;
    }
    let r = flush(r.to_bits());
    if clamp {
        let f = f32::from_bits(r);
        // -0 clamps to +0 (the lower bound is +0).
        if f <= 0.0 {
            0
        } else if f >= 1.0 {
            1.0f32.to_bits()
        } else {
            r
        }
    } else {
        r
    }
}

/// MAD: `a * b + c`, ×1, no clamp.
pub fn mad(a: u32, b: u32, c: u32) -> u32 {
    mad_x(a, b, c, Omod::X1)
}

/// MAD with an output modifier.
pub fn mad_x(a: u32, b: u32, c: u32, omod: Omod) -> u32 {
    finish(wide(a) * wide(b) + wide(c), omod, false)
}

/// The sum of products `a[k] * b[k]`, left to right, plus `extra` (D2A's C), ×1, as seed
/// 003 §3.6.2 describes the adder: a nonzero term 2^25 or more times smaller than the largest
/// term's magnitude adds nothing.
pub fn dot(a: &[u32], b: &[u32], extra: Option<u32>) -> u32 {
    let mut terms: Vec<f64> = a.iter().zip(b).map(|(&x, &y)| wide(x) * wide(y)).collect();
    terms.extend(extra.map(wide));
    let largest = terms
        .iter()
        .filter(|t| !t.is_nan())
        .fold(0.0f64, |m, t| m.max(t.abs()));
    let sum = terms.iter().fold(None, |s: Option<f64>, &t| {
        let t = if t != 0.0 && !t.is_nan() && t.abs() * 2f64.powi(25) <= largest {
            0.0
        } else {
            t
        };
        Some(s.map_or(t, |s| s + t))
    });
    finish(sum.expect("a dot product has terms"), Omod::X1, false)
}

/// FRC: `a - floor(a)` (§3.3.4), in the extended range, ×1.
pub fn frc(a: u32) -> u32 {
    let x = wide(a);
    finish(x - x.floor(), Omod::X1, false)
}

/// The value a comparison reads: denormals are zero.
fn cmp_value(bits: u32) -> f32 {
    f32::from_bits(flush(bits))
}

/// MAX with OMOD_DISABLED: `a > b ? a : b` (the second input on NaN and on ±0 pairs).
pub fn max_raw(a: u32, b: u32) -> u32 {
    if cmp_value(a) > cmp_value(b) {
        a
    } else {
        b
    }
}

/// A comparison against zero (§3.6.1): <, >=, != (NaN: only != holds); the programs use
/// no ==.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zero {
    Lt,
    Ge,
    Ne,
}

pub fn test_zero(op: Zero, bits: u32) -> bool {
    let v = cmp_value(bits);
    match op {
        Zero::Lt => v < 0.0,
        Zero::Ge => v >= 0.0,
        Zero::Ne => v != 0.0 || v.is_nan(),
    }
}

/// Negation of a register value (the NEG input modifier: the sign bit, no flush).
pub fn neg(bits: u32) -> u32 {
    bits ^ 0x8000_0000
}

pub fn f(v: f32) -> u32 {
    v.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_follows_the_seeds_tables() {
        // §3.6.2: 0 * -0 = -0 but -0 + +0 = +0; Inf * 0 = NaN (standardised).
        assert_eq!(mad(f(0.0), f(-0.0), f(-0.0)), f(-0.0));
        assert_eq!(mad(f(-0.0), f(0.0), f(0.0)), f(0.0));
        assert_eq!(mad(f(f32::INFINITY), f(0.0), f(1.0)), NAN);
        // Extra range: 2^127 * 4 / 8 is finite.
        let big = f(2f32.powi(127));
        assert_eq!(mad_x(big, f(4.0), f(0.0), Omod::D8), f(2f32.powi(126)));
        // Denormal inputs are zeros of their sign.
        assert_eq!(mad(1, f(1.0), f(-0.0)), f(0.0));
        // §3.6.1 table.
        assert!(test_zero(Zero::Ge, f(-0.0)) && !test_zero(Zero::Lt, f(-0.0)));
        assert!(test_zero(Zero::Ne, NAN) && !test_zero(Zero::Ge, NAN));
        assert!(test_zero(Zero::Lt, f(f32::NEG_INFINITY)));
        // MAX returns the second input on NaN and on ±0.
        assert_eq!(max_raw(NAN, f(1.0)), f(1.0));
        assert_eq!(max_raw(f(0.0), f(-0.0)), f(-0.0));
        // FRC of a negative number is positive; of an infinity NaN.
        assert_eq!(frc(f(-1.25)), f(0.75));
        assert_eq!(frc(f(f32::INFINITY)), NAN);
    }
}
