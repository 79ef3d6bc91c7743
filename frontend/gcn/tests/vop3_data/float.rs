//! Independent float reference for the `vop3_*` tests: exact rounding of `mag * 2^e` to
//! f16/f32/f64 (round to nearest even or toward zero), the project's NaN rule (first NaN
//! operand quieted; invalid operation -> default NaN; frontend/ir/src/semantics.rs) and
//! flushing. Integer arithmetic only, so it shares nothing with the code under test.
#![allow(dead_code)]

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fmt {
    pub bits: u32,
    pub man: u32,
    pub emin: i32,
    pub emax: i32,
}
pub const H: Fmt = Fmt {
    bits: 16,
    man: 10,
    emin: -14,
    emax: 15,
};
pub const S: Fmt = Fmt {
    bits: 32,
    man: 23,
    emin: -126,
    emax: 127,
};
pub const D: Fmt = Fmt {
    bits: 64,
    man: 52,
    emin: -1022,
    emax: 1023,
};

impl Fmt {
    pub fn sign(self) -> u64 {
        1 << (self.bits - 1)
    }
    fn exp_mask(self) -> u64 {
        (self.sign() - 1) & !((1u64 << self.man) - 1)
    }
    pub fn is_nan(self, x: u64) -> bool {
        x & self.exp_mask() == self.exp_mask() && x & ((1 << self.man) - 1) != 0
    }
    pub fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & (1 << (self.man - 1)) == 0
    }
    pub fn quiet(self, x: u64) -> u64 {
        x | 1 << (self.man - 1)
    }
    pub fn default_nan(self) -> u64 {
        self.sign() | self.exp_mask() | 1 << (self.man - 1)
    }
    pub fn inf(self, neg: bool) -> u64 {
        self.exp_mask() | if neg { self.sign() } else { 0 }
    }
    pub fn is_inf(self, x: u64) -> bool {
        x & !self.sign() == self.exp_mask()
    }
    pub fn is_zero(self, x: u64) -> bool {
        x & !self.sign() == 0
    }
    pub fn is_denorm(self, x: u64) -> bool {
        x & self.exp_mask() == 0 && !self.is_zero(x)
    }
    pub fn neg(self, x: u64) -> bool {
        x & self.sign() != 0
    }
    pub fn flush(self, x: u64, on: bool) -> u64 {
        if on && self.is_denorm(x) {
            x & self.sign()
        } else {
            x
        }
    }
    /// (negative, integer magnitude, exponent): the finite value is ±mag·2^exp.
    pub fn parts(self, x: u64) -> (bool, u128, i32) {
        let e = ((x & self.exp_mask()) >> self.man) as i32;
        let f = (x & ((1 << self.man) - 1)) as u128;
        let bias = self.emax;
        if e == 0 {
            (self.neg(x), f, self.emin - self.man as i32)
        } else {
            (self.neg(x), f | 1 << self.man, e - bias - self.man as i32)
        }
    }
    /// ±mag·2^exp rounded once (to nearest even, or toward zero when `rtz`).
    pub fn round(self, neg: bool, mag: u128, e: i32, rtz: bool) -> u64 {
        let s = if neg { self.sign() } else { 0 };
        if mag == 0 {
            return s;
        }
        let top = 127 - mag.leading_zeros() as i32 + e;
        if top > self.emax {
            return s | if rtz {
                self.exp_mask() - 1
            } else {
                self.exp_mask()
            };
        }
        let lsb = top.max(self.emin) - self.man as i32;
        let shift = lsb - e;
        let q = if shift <= 0 {
            mag << (-shift) as u32
        } else if shift >= 128 {
            0
        } else {
            let q = mag >> shift;
            let rem = mag & ((1u128 << shift) - 1);
            let half = 1u128 << (shift - 1);
            if !rtz && (rem > half || (rem == half && q & 1 == 1)) {
                q + 1
            } else {
                q
            }
        } as u64;
        let bits = if top >= self.emin {
            (((top - self.emin) as u64) << self.man) + q
        } else {
            q
        };
        if bits >= self.exp_mask() {
            if rtz {
                s | (self.exp_mask() - 1)
            } else {
                s | self.exp_mask()
            }
        } else {
            s | bits
        }
    }
    /// The value as an f64 (exact for f16/f32).
    pub fn to_f64(self, x: u64) -> f64 {
        match self.bits {
            16 => {
                if self.is_nan(x) {
                    return f64::NAN;
                }
                if self.is_inf(x) {
                    return if self.neg(x) {
                        f64::NEG_INFINITY
                    } else {
                        f64::INFINITY
                    };
                }
                let (n, m, e) = self.parts(x);
                let v = m as f64 * 2f64.powi(e);
                if n {
                    -v
                } else {
                    v
                }
            }
            32 => f32::from_bits(x as u32) as f64,
            _ => f64::from_bits(x),
        }
    }
    /// An f64 value rounded once to this format (NaN -> default NaN).
    pub fn of_f64(self, v: f64, rtz: bool) -> u64 {
        if v.is_nan() {
            return self.default_nan();
        }
        if v.is_infinite() {
            return self.inf(v < 0.0);
        }
        let (n, m, e) = D.parts(v.to_bits());
        self.round(n, m, e, rtz)
    }
    /// The NaN rule: the first NaN operand, quieted.
    pub fn first_nan(self, xs: &[u64]) -> Option<u64> {
        xs.iter().find(|&&x| self.is_nan(x)).map(|&x| self.quiet(x))
    }
    /// Exact a*b+c (single rounding) for finite operands; inf/NaN per IEEE and the NaN rule.
    pub fn fma(self, a: u64, b: u64, c: u64) -> u64 {
        if let Some(n) = self.first_nan(&[a, b, c]) {
            return n;
        }
        // f32/f64: the host's fused multiply-add (correctly rounded, an independent IEEE
        // implementation); f16: exact integer arithmetic (every f16 is a multiple of 2^-24).
        let host = match self.bits {
            32 => Some(
                f32::from_bits(a as u32).mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32))
                    as f64,
            ),
            64 => Some(f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c))),
            _ => None,
        };
        if let Some(r) = host {
            if r.is_nan() {
                return self.default_nan();
            }
            return if self.bits == 32 {
                (r as f32).to_bits() as u64
            } else {
                r.to_bits()
            };
        }
        let fin = |x| !self.is_inf(x);
        if !(fin(a) && fin(b) && fin(c)) {
            let r = self.to_f64(a) * self.to_f64(b) + self.to_f64(c);
            return self.of_f64(r, false);
        }
        let (na, ma, ea) = self.parts(a);
        let (nb, mb, eb) = self.parts(b);
        let (nc, mc, ec) = self.parts(c);
        let ep = ea + eb;
        let e = ep.min(ec);
        let p = ((ma * mb) as i128) << (ep - e);
        let cc = (mc as i128) << (ec - e);
        let p = if na != nb { -p } else { p };
        let cc = if nc { -cc } else { cc };
        let sum = p + cc;
        if sum == 0 {
            // Exact zero: -0 only if both addends are -0 (round to nearest).
            let pn = na != nb;
            return if pn && nc { self.sign() } else { 0 };
        }
        self.round(sum < 0, sum.unsigned_abs(), e, false)
    }
    pub fn mul(self, a: u64, b: u64) -> u64 {
        // a*b + (-0) is exactly a*b, including the sign of a zero product.
        self.fma(a, b, self.sign())
    }
    pub fn add(self, a: u64, c: u64) -> u64 {
        let one = self.of_f64(1.0, false);
        self.fma(a, one, c)
    }
}
