//! The small floats of the bit-packed formats (defined in the `formats` module docs):
//! `rg11b10f`'s unsigned float11 and float10, and `rgb9e5`'s shared-exponent triple.

use super::{int_type, Lifter};
use wavejit_ir::{FloatCC, IntCC, MinMax, Op, ScalarType, Value};

use ScalarType::*;

/// f32 bits of the smallest normal float11/float10 value, 2^-14.
const SMALLEST_NORMAL: u32 = (127 - 14) << 23;
/// The f32 exponent bias minus float11's, in place.
const REBIAS: u32 = (127 - 15) << 23;
/// f32 bits of +inf.
const F32_INF: u32 = 0x7f80_0000;
/// The largest rgb9e5 value, `511 / 512 * 2^16`.
const SHARED_EXP_MAX: f32 = 65408.0;

impl Lifter<'_> {
    /// The unsigned float with a 5-bit exponent (bias 15) and `fraction` fraction bits in the
    /// i32 `x`, as a register's value: exact, a NaN as the default NaN.
    pub(super) fn small_float_value(&mut self, x: Value, fraction: u32, reg_bits: u32) -> Value {
        let inf = self.b.i32(31 << fraction);
        let nan = self.b.op(Op::Icmp(IntCC::Ugt), I1, &[x, inf]);
        let k = self.b.i32(10 - fraction);
        let h = self.b.op(Op::Shl, I32, &[x, k]);
        let h = self.b.op(Op::Trunc, I16, &[h]);
        let (v, default_nan) = if reg_bits == 16 {
            (h, 0x7e00)
        } else {
            let f = self.b.op(Op::Bitcast, F16, &[h]);
            let f = self.b.op(Op::Fconvert, F32, &[f]);
            (self.b.op(Op::Bitcast, I32, &[f]), 0x7fc0_0000)
        };
        let ty = int_type(reg_bits);
        let d = self.b.iconst(ty, default_nan);
        self.b.op(Op::Select, ty, &[nan, d, v])
    }

    /// The f32 `x` as an unsigned float with a 5-bit exponent and `fraction` fraction bits,
    /// rounded to nearest even or toward zero (`rtz`), as an i32.
    pub(super) fn small_float_field(&mut self, x: Value, fraction: u32, rtz: bool) -> Value {
        let shift = 23 - fraction;
        let b = self.b.op(Op::Bitcast, I32, &[x]);
        // At or above 2^-14: the f32 bits rebiased, their fraction cut to `fraction` bits; a
        // carry out of the fraction raises the exponent, to inf past the largest value.
        let rebias = self.b.i32(REBIAS);
        let t = self.b.op(Op::Isub, I32, &[b, rebias]);
        let k = self.b.i32(shift);
        let t = if rtz {
            t
        } else {
            let lsb = self.b.op(Op::Lshr, I32, &[t, k]);
            let one = self.b.i32(1);
            let lsb = self.b.op(Op::And, I32, &[lsb, one]);
            let below_half = self.b.i32((1 << (shift - 1)) - 1);
            let t = self.b.op(Op::Iadd, I32, &[t, below_half]);
            self.b.op(Op::Iadd, I32, &[t, lsb])
        };
        let normal = self.b.op(Op::Lshr, I32, &[t, k]);
        let inf_code = 31 << fraction;
        let top = self.b.i32(if rtz { inf_code - 1 } else { inf_code });
        let normal = self.b.op(Op::Umin, I32, &[normal, top]);
        // Below 2^-14: a denormal, x in units of 2^(-14 - fraction) (exact), rounded to an
        // integer; 2^fraction, the smallest normal's code, when it rounds up.
        let unit = self.b.f32(f32::from_bits((127 + 14 + fraction) << 23));
        let s = self.b.op(Op::Fmul, F32, &[x, unit]);
        let denormal = self.round_int(s, rtz);
        let smallest = self.b.i32(SMALLEST_NORMAL);
        let tiny = self.b.op(Op::Icmp(IntCC::Slt), I1, &[b, smallest]);
        let code = self.b.op(Op::Select, I32, &[tiny, denormal, normal]);

        let inf_bits = self.b.i32(F32_INF);
        let is_inf = self.b.op(Op::Icmp(IntCC::Eq), I1, &[b, inf_bits]);
        let inf = self.b.i32(inf_code);
        let code = self.b.op(Op::Select, I32, &[is_inf, inf, code]);
        let zero = self.b.i32(0);
        let negative = self.b.op(Op::Icmp(IntCC::Slt), I1, &[b, zero]);
        let code = self.b.op(Op::Select, I32, &[negative, zero, code]);
        let nan = self.b.op(Op::Fcmp(FloatCC::Uno), I1, &[x, x]);
        let quiet = self.b.i32(inf_code | 1 << (fraction - 1));
        self.b.op(Op::Select, I32, &[nan, quiet, code])
    }

    /// `m * 2^(e - 24)` for the i32 mantissa `m` and exponent `e` of `rgb9e5`, as a
    /// register's value (exact).
    pub(super) fn shared_exp_value(&mut self, m: Value, e: Value, reg_bits: u32) -> Value {
        let f = self.b.op(Op::UtoF, F32, &[m]);
        let scale = self.pow2(e, 127 - 24);
        let v = self.b.op(Op::Fmul, F32, &[f, scale]);
        let v = if reg_bits == 16 {
            self.b.op(Op::Fconvert, F16, &[v])
        } else {
            v
        };
        self.b.op(Op::Bitcast, int_type(reg_bits), &[v])
    }

    /// The `rgb9e5` word (an i32) of three f32 components, the mantissas rounded to nearest
    /// even or toward zero (`rtz`).
    pub(super) fn shared_exp_word(&mut self, xs: [Value; 3], rtz: bool) -> Value {
        let c = xs.map(|x| self.clamp(x, 0.0, SHARED_EXP_MAX));
        let m = self.b.op(Op::Fmax(MinMax::NonIeee), F32, &[c[0], c[1]]);
        let m = self.b.op(Op::Fmax(MinMax::NonIeee), F32, &[m, c[2]]);
        // floor(log2 M) + 16 from M's exponent field; below 2^-16 (0 too) it is 0.
        let bits = self.b.op(Op::Bitcast, I32, &[m]);
        let magnitude = self.b.i32(0x7fff_ffff);
        let bits = self.b.op(Op::And, I32, &[bits, magnitude]);
        let k = self.b.i32(23);
        let exp = self.b.op(Op::Lshr, I32, &[bits, k]);
        let bias = self.b.i32(127 - 16);
        let e = self.b.op(Op::Isub, I32, &[exp, bias]);
        let zero = self.b.i32(0);
        let mut e = self.b.op(Op::Smax, I32, &[e, zero]);
        if !rtz {
            let top = self.shared_mantissa(m, e, rtz);
            let full = self.b.i32(512);
            let carried = self.b.op(Op::Icmp(IntCC::Eq), I1, &[top, full]);
            let one = self.b.i32(1);
            let up = self.b.op(Op::Iadd, I32, &[e, one]);
            e = self.b.op(Op::Select, I32, &[carried, up, e]);
        }
        let at = self.b.i32(27);
        let mut word = self.b.op(Op::Shl, I32, &[e, at]);
        for (i, &x) in c.iter().enumerate() {
            let v = self.shared_mantissa(x, e, rtz);
            let at = self.b.i32(9 * i as u32);
            let v = self.b.op(Op::Shl, I32, &[v, at]);
            word = self.b.op(Op::Or, I32, &[word, v]);
        }
        word
    }

    /// `c * 2^(24 - e)` rounded to an i32 (the product is exact where it matters: below 1/2
    /// a lost bit cannot change the result).
    fn shared_mantissa(&mut self, c: Value, e: Value, rtz: bool) -> Value {
        let neg_e = {
            let zero = self.b.i32(0);
            self.b.op(Op::Isub, I32, &[zero, e])
        };
        let scale = self.pow2(neg_e, 127 + 24);
        let v = self.b.op(Op::Fmul, F32, &[c, scale]);
        self.round_int(v, rtz)
    }

    /// The f32 `2^(n + biased - 127)` for the i32 `n` (a normal power of two for every n the
    /// callers pass).
    fn pow2(&mut self, n: Value, biased: u32) -> Value {
        let k = self.b.i32(biased);
        let exp = self.b.op(Op::Iadd, I32, &[n, k]);
        let at = self.b.i32(23);
        let bits = self.b.op(Op::Shl, I32, &[exp, at]);
        self.b.op(Op::Bitcast, F32, &[bits])
    }

    /// The f32 `v` (not negative) rounded to an integer, to nearest even or toward zero, as
    /// an i32.
    fn round_int(&mut self, v: Value, rtz: bool) -> Value {
        let op = if rtz { Op::Ftrunc } else { Op::Frint };
        let r = self.b.op(op, F32, &[v]);
        self.b.op(Op::FtoU, I32, &[r])
    }
}
