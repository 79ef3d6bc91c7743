//! The memory formats' expected values, computed here from their formulas with exact
//! rational arithmetic (never with the lifter's code or the host's float rounding): the load
//! rules of applegpu.py and the store definitions of the lifter's `formats` module docs.

/// The nonnegative rational `n * 2^s / d` (`d > 0`).
#[derive(Clone, Copy, Debug)]
pub struct Q {
    pub n: u128,
    pub d: u128,
    pub s: i32,
}

impl Q {
    pub fn int(n: u128) -> Q {
        Q { n, d: 1, s: 0 }
    }

    pub fn ratio(n: u128, d: u128) -> Q {
        Q { n, d, s: 0 }
    }

    /// The value times `k * 2^s`.
    pub fn scaled(self, k: u128, s: i32) -> Q {
        Q {
            n: self.n * k,
            d: self.d,
            s: self.s + s,
        }
    }

    /// floor(log2(self)); the value must not be 0.
    pub fn floor_log2(self) -> i32 {
        assert!(self.n != 0);
        let bits = |x: u128| 128 - x.leading_zeros() as i32;
        let mut e = bits(self.n) - bits(self.d) + self.s;
        while self.below_pow2(e) {
            e -= 1;
        }
        while !self.below_pow2(e + 1) {
            e += 1;
        }
        e
    }

    /// Whether the value lies below 2^e.
    fn below_pow2(self, e: i32) -> bool {
        let k = self.s - e;
        if k >= 0 {
            k < 120 && (self.n << k) < self.d
        } else {
            -k >= 120 || self.n < (self.d << -k)
        }
    }

    /// (floor(value / 2^q), the remainder's comparison with one half) for a value below
    /// 2^(q + 100).
    fn divide(self, q: i32) -> (u128, std::cmp::Ordering) {
        let k = self.s - q;
        let (num, den) = if k >= 0 {
            (self.n << k, self.d)
        } else if -k > 100 {
            // Far below 2^q: the quotient is 0, the remainder below one half.
            return (0, Less);
        } else {
            (self.n, self.d << -k)
        };
        let (i, r) = (num / den, num % den);
        (i, (2 * r).cmp(&den))
    }
}

use std::cmp::Ordering::{Equal, Greater, Less};

/// How a result is rounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// To nearest, ties to even.
    Even,
    /// Toward zero.
    Zero,
}

/// The integer nearest the value (ties to even), or its floor.
pub fn round_int(q: Q, mode: Mode) -> u128 {
    let (i, half) = q.divide(0);
    match (mode, half) {
        (Mode::Even, Greater) => i + 1,
        (Mode::Even, Equal) => i + (i & 1),
        _ => i,
    }
}

/// A binary float format without its sign: fraction bits and exponent bits (bias
/// `2^(exp-1) - 1`, the all-ones exponent for infinity and NaN).
#[derive(Clone, Copy, Debug)]
pub struct Fmt {
    pub frac: u32,
    pub exp: u32,
}

pub const F32: Fmt = Fmt { frac: 23, exp: 8 };
pub const F16: Fmt = Fmt { frac: 10, exp: 5 };
pub const F11: Fmt = Fmt { frac: 6, exp: 5 };
pub const F10: Fmt = Fmt { frac: 5, exp: 5 };

impl Fmt {
    fn bias(self) -> i32 {
        (1 << (self.exp - 1)) - 1
    }

    pub fn inf(self) -> u32 {
        ((1 << self.exp) - 1) << self.frac
    }

    /// The bits of the value rounded into the format in `mode` (IEEE 754: gradual underflow;
    /// past the largest finite value, inf to nearest and the largest value toward zero).
    pub fn round(self, q: Q, mode: Mode) -> u32 {
        if q.n == 0 {
            return 0;
        }
        let emin = 1 - self.bias();
        let mut quantum = q.floor_log2().max(emin) - self.frac as i32;
        let mut i = match mode {
            Mode::Even => round_int(
                Q {
                    s: q.s - quantum,
                    ..q
                },
                mode,
            ),
            Mode::Zero => q.divide(quantum).0,
        };
        if i == 1 << (self.frac + 1) {
            i >>= 1;
            quantum += 1;
        }
        let i = i as u32;
        if i < 1 << self.frac {
            return i;
        }
        let e = quantum + self.frac as i32 + self.bias();
        if e >= (1 << self.exp) - 1 {
            return match mode {
                Mode::Even => self.inf(),
                Mode::Zero => self.inf() - 1,
            };
        }
        (e as u32) << self.frac | (i - (1 << self.frac))
    }

    /// The value of finite bits (no sign), exactly.
    pub fn value(self, bits: u32) -> Q {
        let e = (bits >> self.frac) as i32;
        let f = u128::from(bits & ((1 << self.frac) - 1));
        let (m, e) = if e == 0 {
            (f, 1)
        } else {
            (f | 1 << self.frac, e)
        };
        Q {
            n: m,
            d: 1,
            s: e - self.bias() - self.frac as i32,
        }
    }
}

/// The f32 bits of the magnitude of `x` as a rational, if finite.
pub fn f32_value(x: u32) -> Option<Q> {
    let mag = x & 0x7fff_ffff;
    (mag < F32.inf()).then(|| F32.value(mag))
}

/// The f32 of f16 bits, exactly (a load's f16 result as a store's input).
pub fn f16_to_f32(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let mag = u32::from(h & 0x7fff);
    let bits = if mag >= F16.inf() {
        0x7f80_0000 | (mag & 0x3ff) << 13
    } else {
        F32.round(F16.value(mag), Mode::Even)
    };
    sign | bits
}

/// `v / max` in the register's width (`half`: f16), correctly rounded.
pub fn unorm_load(v: u32, max: u32, half: bool) -> u32 {
    let fmt = if half { F16 } else { F32 };
    fmt.round(Q::ratio(v.into(), max.into()), Mode::Even)
}

/// A snorm field `v` (two's complement, `bits` wide) as loaded.
pub fn snorm_load(v: u32, bits: u32, half: bool) -> u32 {
    let max = (1i64 << (bits - 1)) - 1;
    let s = ((i64::from(v) << (64 - bits)) >> (64 - bits)).max(-max);
    let mag = unorm_load(s.unsigned_abs() as u32, max as u32, half);
    let sign = if s < 0 {
        1 << if half { 15 } else { 31 }
    } else {
        0
    };
    sign | mag
}

/// The default NaN of the register width.
pub fn default_nan(half: bool) -> u32 {
    if half {
        0x7e00
    } else {
        0x7fc0_0000
    }
}

/// An unsigned small float's code (`fmt` F11 or F10) as loaded.
pub fn small_float_load(code: u32, fmt: Fmt, half: bool) -> u32 {
    let reg = if half { F16 } else { F32 };
    if code > fmt.inf() {
        default_nan(half)
    } else if code == fmt.inf() {
        reg.inf()
    } else {
        reg.round(fmt.value(code), Mode::Even)
    }
}

/// An rgb9e5 mantissa with the shared exponent as loaded.
pub fn shared_exp_load(m: u32, e: u32, half: bool) -> u32 {
    let reg = if half { F16 } else { F32 };
    reg.round(
        Q {
            n: m.into(),
            d: 1,
            s: e as i32 - 24,
        },
        Mode::Even,
    )
}

/// The 12-bit linear value of an sRGB byte: the sRGB transfer function (IEC 61966-2-1)
/// scaled to 4095 and rounded, which reproduces every entry of applegpu.py's `SRGB_TABLE`
/// (each is the f32 nearest `k / 4095`; the nearest half-integer is 1.6e-4 away, far beyond
/// f64's error).
pub fn srgb_unorm12(b: u8) -> u32 {
    let c = f64::from(b) / 255.0;
    let linear = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    (linear * 4095.0).round() as u32
}

/// The f32 register `x` clamped to [0, 1] with NaN as 0, as a rational (None for 0).
fn unit(x: u32) -> Option<Q> {
    if x >> 31 != 0 || x > 0x7f80_0000 {
        return None;
    }
    if x >= 0x3f80_0000 {
        return Some(Q::int(1));
    }
    f32_value(x).filter(|q| q.n != 0)
}

/// The unorm field (`max` = 2^n - 1) a store of the f32 `x` writes.
pub fn unorm_store(x: u32, max: u32) -> u32 {
    unit(x).map_or(0, |q| round_int(q.scaled(max.into(), 0), Mode::Even) as u32)
}

/// The snorm field (`bits` wide, two's complement) a store of the f32 `x` writes.
pub fn snorm_store(x: u32, bits: u32) -> u32 {
    let max = (1u32 << (bits - 1)) - 1;
    let mask = (1u32 << bits) - 1;
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return 0;
    }
    let m = unorm_store(x & 0x7fff_ffff, max);
    if x >> 31 != 0 {
        m.wrapping_neg() & mask
    } else {
        m
    }
}

/// The byte an srgba8 colour store of the f32 `x` writes: the byte whose `k / 4095` is
/// nearest (asserting that no two are equally near).
pub fn srgb_store(x: u32) -> u8 {
    let Some(q) = unit(x) else { return 0 };
    // |x * 4095 - k| compared over a common denominator d * 2^t.
    let t = (-q.s).max(0);
    if t > 60 {
        return 0;
    }
    let num = |k: u32| -> i128 {
        let xs = (q.n * 4095) as i128 * (1i128 << (q.s + t));
        (xs - i128::from(k) * (q.d as i128) * (1i128 << t)).abs()
    };
    let mut best = (0u8, num(0));
    let mut tie = false;
    for b in 1..=255u8 {
        let d = num(srgb_unorm12(b));
        if d < best.1 {
            best = (b, d);
            tie = false;
        } else if d == best.1 {
            tie = true;
        }
    }
    assert!(!tie, "x = {x:#x} lies midway between two sRGB bytes");
    best.0
}

/// The code an rg11b10f store (`fmt` F11 or F10) of the f32 `x` writes.
pub fn small_float_store(x: u32, fmt: Fmt, mode: Mode) -> u32 {
    if x & 0x7fff_ffff > 0x7f80_0000 {
        return fmt.inf() | 1 << (fmt.frac - 1);
    }
    if x >> 31 != 0 {
        return 0;
    }
    if x == 0x7f80_0000 {
        return fmt.inf();
    }
    fmt.round(F32.value(x), mode)
}

/// The word an rgb9e5 store of three f32 components writes.
pub fn shared_exp_store(xs: [u32; 3], mode: Mode) -> u32 {
    // Nonnegative f32 bits order as their values; 0x477f8000 is 65408, the largest value.
    let c = xs.map(|x| {
        if x >> 31 != 0 || x > 0x7f80_0000 {
            0
        } else {
            x.min(0x477f_8000)
        }
    });
    let biggest = F32.value(*c.iter().max().unwrap());
    let mut e = if biggest.n == 0 {
        0
    } else {
        (biggest.floor_log2() + 16).max(0)
    };
    let mantissa = |q: Q, e: i32| {
        round_int(
            Q {
                s: q.s + 24 - e,
                ..q
            },
            mode,
        ) as u32
    };
    if mantissa(biggest, e) == 512 {
        e += 1;
    }
    let m = c.map(|x| mantissa(F32.value(x), e));
    assert!(m.iter().all(|&m| m < 512));
    m[0] | m[1] << 9 | m[2] << 18 | (e as u32) << 27
}
