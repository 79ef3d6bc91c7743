//! Reference arithmetic of the rules tests, written from the formulas of the lifter's module
//! docs with exact integer arithmetic (no `half` crate): rounding of an exact value to f16 or
//! f32 in either rounding mode, f16 values, and G13's fused f32 and f16 operations.

/// A binary float format: fraction bits and exponent bias.
#[derive(Clone, Copy)]
pub struct Fmt {
    pub frac: u32,
    pub bias: i32,
    pub exp_bits: u32,
}

pub const F16: Fmt = Fmt {
    frac: 10,
    bias: 15,
    exp_bits: 5,
};
pub const F32: Fmt = Fmt {
    frac: 23,
    bias: 127,
    exp_bits: 8,
};

pub const F16_NAN: u16 = 0x7e00;
pub const F32_NAN: u32 = 0x7fc0_0000;

/// The bits of (-1)^neg × m × 2^e rounded to `fmt` (denormals kept), to nearest even if
/// `rte` else toward zero; past the largest finite value, infinity (`rte`) or the largest
/// finite value (toward zero).
pub fn round(fmt: Fmt, neg: bool, m: u128, e: i32, rte: bool) -> u64 {
    let sign = u64::from(neg) << (fmt.frac + fmt.exp_bits);
    if m == 0 {
        return sign;
    }
    let top = 127 - m.leading_zeros() as i32 + e;
    let emin = 1 - fmt.bias;
    let q = top.max(emin) - fmt.frac as i32;
    let mut r = if q > e {
        let shift = (q - e) as u32;
        if shift >= 127 {
            0
        } else {
            let r = m >> shift;
            let rem = m & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            if rte && (rem > half || (rem == half && r & 1 == 1)) {
                r + 1
            } else {
                r
            }
        }
    } else {
        m << (e - q) as u32
    };
    let mut q = q;
    if r >> (fmt.frac + 1) != 0 {
        r >>= 1;
        q += 1;
    }
    let max_exp = (1u64 << fmt.exp_bits) - 1;
    let exp = if r >> fmt.frac == 0 {
        0
    } else {
        (q + fmt.frac as i32 + fmt.bias) as u64
    };
    if exp >= max_exp {
        let inf = max_exp << fmt.frac;
        return sign | if rte { inf } else { inf - 1 };
    }
    sign | exp << fmt.frac | (r as u64 & ((1u64 << fmt.frac) - 1))
}

/// A finite f64 as (negative, integer significand, exponent): exact.
pub fn parts(x: f64) -> (bool, u128, i32) {
    let b = x.to_bits();
    let neg = b >> 63 != 0;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = u128::from(b & ((1u64 << 52) - 1));
    if exp == 0 {
        (neg, frac, -1074)
    } else {
        (neg, frac | 1 << 52, exp - 1075)
    }
}

/// `x` rounded to f16 bits (NaN: the default NaN).
pub fn f16_of(x: f64, rte: bool) -> u16 {
    if x.is_nan() {
        return F16_NAN;
    }
    if x.is_infinite() {
        return if x < 0.0 { 0xfc00 } else { 0x7c00 };
    }
    let (neg, m, e) = parts(x);
    round(F16, neg, m, e, rte) as u16
}

/// `x` rounded to f32 bits in the given mode (denormals kept).
pub fn f32_of(x: f64, rte: bool) -> u32 {
    if x.is_nan() {
        return F32_NAN;
    }
    if x.is_infinite() {
        return if x < 0.0 { 0xff80_0000 } else { 0x7f80_0000 };
    }
    let (neg, m, e) = parts(x);
    round(F32, neg, m, e, rte) as u32
}

/// The value of f16 bits.
pub fn f16_value(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 31);
    let frac = f64::from(h & 0x3ff);
    match exp {
        0 => sign * frac * 2f64.powi(-24),
        31 if frac == 0.0 => sign * f64::INFINITY,
        31 => f64::NAN,
        _ => sign * (1024.0 + frac) * 2f64.powi(exp - 25),
    }
}

/// An fp32 source as G13 reads it: a denormal is a zero of its sign.
pub fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0f32.copysign(x)
    } else {
        x
    }
}

/// `.sat` on f32 bits: NaN and negative values (-0 too) give +0, values above 1 give 1.
pub fn sat32(bits: u32) -> u32 {
    let x = f32::from_bits(bits);
    if x.is_nan() || bits >> 31 != 0 {
        0
    } else if x > 1.0 {
        0x3f80_0000
    } else {
        bits
    }
}

/// `.sat` on f16 bits.
pub fn sat16(bits: u16) -> u16 {
    let x = f16_value(bits);
    if x.is_nan() || bits >> 15 != 0 {
        0
    } else if x > 1.0 {
        0x3c00
    } else {
        bits
    }
}

/// G13's fused `a * b + c` in f32 (float.rs): sources flushed, one rounding to nearest even,
/// an exact result below 2^-126 in magnitude a zero of its sign, NaN the default NaN. The
/// exact value is taken from f64, and the cases used must be exact there (checked).
pub fn fma32(a: u32, b: u32, c: u32) -> u32 {
    let [a, b, c] = [a, b, c].map(|x| flush(f32::from_bits(x)));
    let r = a.mul_add(b, c);
    if r.is_nan() {
        return F32_NAN;
    }
    if r.is_infinite() || [a, b, c].iter().any(|x| x.is_infinite()) {
        return r.to_bits();
    }
    let p = f64::from(a) * f64::from(b);
    let s = p + f64::from(c);
    assert!(
        s - p == f64::from(c) && s - f64::from(c) == p,
        "{a:e} * {b:e} + {c:e} is not exact in f64: choose another case"
    );
    if s != 0.0 && s.abs() < 2f64.powi(-126) {
        return if s < 0.0 { 0x8000_0000 } else { 0 };
    }
    r.to_bits()
}

/// An f16 as (negative, significand, exponent), exact; `None` for infinities and NaNs.
fn parts16(h: u16) -> Option<(bool, i128, i32)> {
    let exp = i32::from((h >> 10) & 31);
    let frac = i128::from(h & 0x3ff);
    let neg = h & 0x8000 != 0;
    match exp {
        31 => None,
        0 => Some((neg, frac, -24)),
        _ => Some((neg, frac | 1024, exp - 25)),
    }
}

/// G13's fused `a * b + c` in f16 (float.rs): denormals kept, one rounding to nearest even,
/// NaN the default NaN; computed exactly with integers.
pub fn fma16(a: u16, b: u16, c: u16) -> u16 {
    let (va, vb, vc) = (f16_value(a), f16_value(b), f16_value(c));
    if va.is_nan() || vb.is_nan() || vc.is_nan() {
        return F16_NAN;
    }
    let p = va * vb;
    if p.is_nan() || (p + vc).is_nan() {
        return F16_NAN;
    }
    if p.is_infinite() || vc.is_infinite() {
        return f16_of(p + vc, true);
    }
    let (Some((na, ma, ea)), Some((nb, mb, eb)), Some((nc, mc, ec))) =
        (parts16(a), parts16(b), parts16(c))
    else {
        unreachable!("infinities handled above")
    };
    let (np, mp, ep) = (na != nb, ma * mb, ea + eb);
    let e = ep.min(ec);
    let sp = if np { -mp } else { mp } << (ep - e);
    let sc = if nc { -mc } else { mc } << (ec - e);
    let s = sp + sc;
    if s == 0 {
        // An exact zero: -0 only when both addends are -0 (rounding to nearest).
        let neg = np && nc && mp == 0 && mc == 0;
        return if neg { 0x8000 } else { 0 };
    }
    round(F16, s < 0, s.unsigned_abs(), e, true) as u16
}

/// f16 bits of a finite value exactly representable (for building inputs).
pub fn h(x: f64) -> u16 {
    let b = f16_of(x, true);
    assert_eq!(f16_value(b), x, "{x} is not an f16");
    b
}

/// f32 bits.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rounding agrees with the host's f32 conversion and with known f16 constants.
    #[test]
    fn rounding_matches_known_values() {
        for x in [
            1.0f64,
            0.1,
            1e-40,
            -3.5e38,
            65519.0,
            65520.0,
            2f64.powi(-149) * 0.75,
        ] {
            assert_eq!(f32_of(x, true), (x as f32).to_bits(), "{x}");
        }
        assert_eq!(f16_of(65504.0, true), 0x7bff);
        assert_eq!(f16_of(65520.0, true), 0x7c00);
        assert_eq!(f16_of(65520.0, false), 0x7bff);
        assert_eq!(f16_of(2f64.powi(-24), true), 0x0001);
        assert_eq!(f16_of(2f64.powi(-25), true), 0);
        assert_eq!(f16_of(3.0 * 2f64.powi(-26), true), 0x0001);
        assert_eq!(f16_of(1.0 + 2f64.powi(-11), true), 0x3c00);
        assert_eq!(f16_of(1.0 + 3.0 * 2f64.powi(-12), true), 0x3c01);
        assert_eq!(f16_of(1.0 + 3.0 * 2f64.powi(-11), true), 0x3c02);
        assert_eq!(f16_of(-1.0 - 2f64.powi(-10), false), 0xbc01);
        assert_eq!(f16_value(0x3555), 0.333251953125);
        assert_eq!(fma16(0x0001, 0x3c00, 0x0001), 0x0002);
        assert_eq!(fma16(0x8000, 0x3c00, 0x8000), 0x8000);
        assert_eq!(fma16(0xbc00, 0x0000, 0x0000), 0x0000);
    }
}
