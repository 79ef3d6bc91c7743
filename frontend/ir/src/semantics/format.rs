//! IEEE binary formats as raw bits: classification, NaN quieting, flushing, special values.
//!
//! Every function takes and returns the format's bits in the low bits of a `u64` (bits above
//! the format's width are ignored on input and zero on output), so the same code serves f16,
//! f32 and f64.

use crate::types::ScalarType;

/// An IEEE 754 binary interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    F16,
    F32,
    F64,
}

impl Fmt {
    /// The format of a float type; `None` for integers.
    pub const fn of(ty: ScalarType) -> Option<Fmt> {
        match ty {
            ScalarType::F16 => Some(Fmt::F16),
            ScalarType::F32 => Some(Fmt::F32),
            ScalarType::F64 => Some(Fmt::F64),
            _ => None,
        }
    }

    pub const fn bits(self) -> u32 {
        match self {
            Fmt::F16 => 16,
            Fmt::F32 => 32,
            Fmt::F64 => 64,
        }
    }

    /// Stored fraction bits (the precision is one more).
    pub const fn mant_bits(self) -> u32 {
        match self {
            Fmt::F16 => 10,
            Fmt::F32 => 23,
            Fmt::F64 => 52,
        }
    }

    /// Significand precision in bits, the hidden bit included.
    pub const fn precision(self) -> u32 {
        self.mant_bits() + 1
    }

    pub const fn bias(self) -> i32 {
        match self {
            Fmt::F16 => 15,
            Fmt::F32 => 127,
            Fmt::F64 => 1023,
        }
    }

    /// The all-ones exponent field value (infinities and NaNs).
    pub const fn max_biased_exp(self) -> u32 {
        (1 << (self.bits() - self.mant_bits() - 1)) - 1
    }

    pub const fn width_mask(self) -> u64 {
        match self {
            Fmt::F64 => u64::MAX,
            f => (1 << f.bits()) - 1,
        }
    }

    pub const fn sign_bit(self) -> u64 {
        1 << (self.bits() - 1)
    }

    pub const fn mant_mask(self) -> u64 {
        (1 << self.mant_bits()) - 1
    }

    pub const fn exp_mask(self) -> u64 {
        self.width_mask() & !self.sign_bit() & !self.mant_mask()
    }

    /// The fraction's top bit: set in a quiet NaN, clear in a signalling NaN.
    pub const fn quiet_bit(self) -> u64 {
        1 << (self.mant_bits() - 1)
    }

    /// The biased exponent field.
    pub const fn biased_exp(self, x: u64) -> u32 {
        ((x & self.exp_mask()) >> self.mant_bits()) as u32
    }

    pub const fn is_neg(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }

    /// The bits without the sign.
    pub const fn abs(self, x: u64) -> u64 {
        x & self.width_mask() & !self.sign_bit()
    }

    pub const fn neg(self, x: u64) -> u64 {
        (x ^ self.sign_bit()) & self.width_mask()
    }

    pub const fn is_nan(self, x: u64) -> bool {
        self.abs(x) > self.exp_mask()
    }

    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet_bit() == 0
    }

    pub const fn is_inf(self, x: u64) -> bool {
        self.abs(x) == self.exp_mask()
    }

    /// +0 or -0.
    pub const fn is_zero(self, x: u64) -> bool {
        self.abs(x) == 0
    }

    /// Subnormal (denormal), zero excluded.
    pub const fn is_denormal(self, x: u64) -> bool {
        self.biased_exp(x) == 0 && x & self.mant_mask() != 0
    }

    /// Neither infinite nor NaN.
    pub const fn is_finite(self, x: u64) -> bool {
        self.abs(x) < self.exp_mask()
    }

    /// `x` with the quiet bit set (payload and sign kept).
    pub const fn quiet(self, x: u64) -> u64 {
        (x | self.quiet_bit()) & self.width_mask()
    }

    /// The NaN an invalid operation produces from non-NaN operands: sign set, quiet bit set,
    /// zero payload (`0xfe00`, `0xffc00000`, `0xfff8000000000000`).
    pub const fn default_nan(self) -> u64 {
        self.sign_bit() | self.exp_mask() | self.quiet_bit()
    }

    /// A denormal becomes a zero of the same sign; everything else is unchanged.
    pub const fn flush(self, x: u64) -> u64 {
        let x = x & self.width_mask();
        if self.is_denormal(x) {
            x & self.sign_bit()
        } else {
            x
        }
    }

    pub const fn zero(self, neg: bool) -> u64 {
        if neg {
            self.sign_bit()
        } else {
            0
        }
    }

    pub const fn inf(self, neg: bool) -> u64 {
        self.zero(neg) | self.exp_mask()
    }

    /// The largest finite magnitude with the given sign.
    pub const fn max_finite(self, neg: bool) -> u64 {
        self.inf(neg) - 1
    }

    /// The bits of 1.0.
    pub const fn one(self) -> u64 {
        (self.bias() as u64) << self.mant_bits()
    }

    /// A finite non-zero `x` as `(negative, sig, exp)` with `|x| = sig * 2^exp` exactly and
    /// `sig < 2^precision` (denormals keep their short significand).
    pub const fn unpack(self, x: u64) -> (bool, u64, i32) {
        let e = self.biased_exp(x);
        let frac = x & self.mant_mask();
        let min_exp = 1 - self.bias() - self.mant_bits() as i32;
        if e == 0 {
            (self.is_neg(x), frac, min_exp)
        } else {
            (
                self.is_neg(x),
                frac | (1 << self.mant_bits()),
                min_exp + e as i32 - 1,
            )
        }
    }

    /// A key that orders non-NaN values numerically, with -0 below +0.
    pub const fn order_key(self, x: u64) -> i64 {
        let mag = self.abs(x) as i64;
        if self.is_neg(x) {
            -mag - 1
        } else {
            mag
        }
    }

    /// Numeric `a < b` of non-NaN values, -0 and +0 equal (IEEE comparison).
    pub const fn lt(self, a: u64, b: u64) -> bool {
        if self.is_zero(a) && self.is_zero(b) {
            return false;
        }
        self.order_key(a) < self.order_key(b)
    }

    /// Numeric equality, -0 == +0; false for NaNs.
    pub const fn eq(self, a: u64, b: u64) -> bool {
        if self.is_nan(a) || self.is_nan(b) {
            return false;
        }
        (self.is_zero(a) && self.is_zero(b)) || a & self.width_mask() == b & self.width_mask()
    }
}
