//! Float arithmetic: the NaN rule, the flushing rule and correctly rounded `+ - * /`, fused
//! multiply-add and square root in every rounding mode.
//!
//! Round-to-nearest-even f32/f64 arithmetic uses the host's IEEE operations (exact by IEEE 754,
//! and never reached with a NaN operand, so host NaN conventions do not leak); everything else
//! (f16, directed rounding) uses `rustc_apfloat`, a port of LLVM's APFloat. Square roots use
//! exact integer arithmetic ([`super::round::sqrt`]).

use super::format::Fmt;
use super::round;
use crate::op::{FloatMode, Round};
use rustc_apfloat::ieee::{Double, Half, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round as ApRound, Status};

/// The NaN rule, part 1: the first NaN among `args` (in operand order), quieted.
pub fn propagate_nan(fmt: Fmt, args: &[u64]) -> Option<u64> {
    args.iter().find(|&&x| fmt.is_nan(x)).map(|&x| fmt.quiet(x))
}

/// The input side of the flushing rule.
pub fn flush_in(fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    if mode.flush_in {
        fmt.flush(x)
    } else {
        x & fmt.width_mask()
    }
}

/// The output side: a NaN result is quiet (an invalid operation on non-NaN operands gives the
/// default NaN, which the arithmetic below already produces), and a denormal result is flushed
/// when `mode.flush_out`.
pub fn finish(fmt: Fmt, mode: FloatMode, r: u64) -> u64 {
    let r = r & fmt.width_mask();
    if fmt.is_nan(r) {
        fmt.quiet(r)
    } else if mode.flush_out {
        fmt.flush(r)
    } else {
        r
    }
}

/// A correctly rounded IEEE operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b` with the flushing and NaN rules applied.
pub fn binary(op: Arith, fmt: Fmt, mode: FloatMode, a: u64, b: u64) -> u64 {
    let (a, b) = (flush_in(fmt, mode, a), flush_in(fmt, mode, b));
    if let Some(n) = propagate_nan(fmt, &[a, b]) {
        return n;
    }
    finish(fmt, mode, raw_binary(op, fmt, mode.round, a, b))
}

/// `a * b + c` with one rounding, with the flushing and NaN rules applied.
pub fn fma(fmt: Fmt, mode: FloatMode, a: u64, b: u64, c: u64) -> u64 {
    let (a, b, c) = (
        flush_in(fmt, mode, a),
        flush_in(fmt, mode, b),
        flush_in(fmt, mode, c),
    );
    if let Some(n) = propagate_nan(fmt, &[a, b, c]) {
        return n;
    }
    finish(fmt, mode, raw_fma(fmt, mode.round, a, b, c))
}

/// `(a * b + c) * 2^k` with one rounding, with the flushing and NaN rules applied (the
/// scaled fused multiply-add of GCN `v_div_fmas`).
pub fn fma_scaled(fmt: Fmt, mode: FloatMode, a: u64, b: u64, c: u64, k: i32) -> u64 {
    let [a, b, c] = [a, b, c].map(|x| flush_in(fmt, mode, x));
    if let Some(n) = propagate_nan(fmt, &[a, b, c]) {
        return n;
    }
    finish(fmt, mode, raw_fma_scaled(fmt, mode.round, a, b, c, k))
}

/// `(a * b + c) * 2^k` of non-NaN operands, rounded once: the exact value is computed in
/// binary128 toward zero (113 bits hold an f64 product; the inexact flag is the sticky bit),
/// scaled exactly, and rounded by [`round::round_pack`].
pub fn raw_fma_scaled(fmt: Fmt, rm: Round, a: u64, b: u64, c: u64, k: i32) -> u64 {
    let plain = raw_fma(fmt, rm, a, b, c);
    let infinite = [a, b, c].iter().any(|&x| fmt.is_inf(x));
    if infinite || fmt.is_nan(plain) {
        return plain;
    }
    let [qa, qb, qc] = [a, b, c].map(|x| to_quad(fmt, x));
    let r = qa.mul_add_r(qb, qc, ApRound::TowardZero);
    if r.value.is_zero() {
        // An exact zero: its sign depends on the rounding mode, which `plain` has right.
        return plain;
    }
    let bits = r.value.to_bits();
    let neg = bits >> 127 != 0;
    let field = (bits >> 112) as i32 & 0x7fff;
    let frac = bits & ((1u128 << 112) - 1);
    // Finite f16/f32/f64 products and sums are far from binary128's denormal range.
    let (sig, exp) = (frac | 1u128 << 112, field - 16383 - 112);
    let sticky = r.status.contains(Status::INEXACT);
    round::round_pack(fmt, neg, sig, exp + k, sticky, rm)
}

pub(super) fn to_quad(fmt: Fmt, x: u64) -> Quad {
    let mut lossy = false;
    let x = u128::from(x);
    match fmt {
        Fmt::F16 => Half::from_bits(x).convert(&mut lossy).value,
        Fmt::F32 => Single::from_bits(x).convert(&mut lossy).value,
        Fmt::F64 => Double::from_bits(x).convert(&mut lossy).value,
    }
}

/// The square root with IEEE special cases (before any flavour adjustment).
pub fn sqrt(fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let r = if fmt.is_zero(x) {
        x
    } else if fmt.is_neg(x) {
        fmt.default_nan()
    } else if fmt.is_inf(x) {
        x
    } else {
        round::sqrt(fmt, x, mode.round)
    };
    finish(fmt, mode, r)
}

/// IEEE `a op b` of non-NaN operands; an invalid operation gives the default NaN.
pub fn raw_binary(op: Arith, fmt: Fmt, rm: Round, a: u64, b: u64) -> u64 {
    let r = match (fmt, rm) {
        (Fmt::F32, Round::NearestEven) => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            u64::from(host_op(op, x, y).to_bits())
        }
        (Fmt::F64, Round::NearestEven) => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            host_op(op, x, y).to_bits()
        }
        (Fmt::F16, _) => ap_binary::<Half>(op, a, b, rm),
        (Fmt::F32, _) => ap_binary::<Single>(op, a, b, rm),
        (Fmt::F64, _) => ap_binary::<Double>(op, a, b, rm),
    };
    if fmt.is_nan(r) {
        fmt.default_nan()
    } else {
        r & fmt.width_mask()
    }
}

/// IEEE fused `a * b + c` of non-NaN operands; an invalid operation gives the default NaN.
pub fn raw_fma(fmt: Fmt, rm: Round, a: u64, b: u64, c: u64) -> u64 {
    let r = match (fmt, rm) {
        (Fmt::F32, Round::NearestEven) => {
            let [x, y, z] = [a, b, c].map(|v| f32::from_bits(v as u32));
            u64::from(x.mul_add(y, z).to_bits())
        }
        (Fmt::F64, Round::NearestEven) => {
            let [x, y, z] = [a, b, c].map(f64::from_bits);
            x.mul_add(y, z).to_bits()
        }
        (Fmt::F16, _) => ap_fma::<Half>(a, b, c, rm),
        (Fmt::F32, _) => ap_fma::<Single>(a, b, c, rm),
        (Fmt::F64, _) => ap_fma::<Double>(a, b, c, rm),
    };
    if fmt.is_nan(r) {
        fmt.default_nan()
    } else {
        r & fmt.width_mask()
    }
}

trait HostFloat: Copy + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> {
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
}

impl HostFloat for f32 {
    fn mul(self, o: f32) -> f32 {
        self * o
    }
    fn div(self, o: f32) -> f32 {
        self / o
    }
}

impl HostFloat for f64 {
    fn mul(self, o: f64) -> f64 {
        self * o
    }
    fn div(self, o: f64) -> f64 {
        self / o
    }
}

fn host_op<T: HostFloat>(op: Arith, x: T, y: T) -> T {
    match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x.mul(y),
        Arith::Div => x.div(y),
    }
}

pub(super) fn ap_round(rm: Round) -> ApRound {
    match rm {
        Round::NearestEven => ApRound::NearestTiesToEven,
        Round::TowardPositive => ApRound::TowardPositive,
        Round::TowardNegative => ApRound::TowardNegative,
        Round::TowardZero => ApRound::TowardZero,
    }
}

fn ap_binary<F: Float>(op: Arith, a: u64, b: u64, rm: Round) -> u64 {
    let (x, y, r) = (
        F::from_bits(u128::from(a)),
        F::from_bits(u128::from(b)),
        ap_round(rm),
    );
    let v = match op {
        Arith::Add => x.add_r(y, r),
        Arith::Sub => x.sub_r(y, r),
        Arith::Mul => x.mul_r(y, r),
        Arith::Div => x.div_r(y, r),
    };
    v.value.to_bits() as u64
}

fn ap_fma<F: Float>(a: u64, b: u64, c: u64, rm: Round) -> u64 {
    let [x, y, z] = [a, b, c].map(|v| F::from_bits(u128::from(v)));
    x.mul_add_r(y, z, ap_round(rm)).value.to_bits() as u64
}

/// Rounds a finite or infinite f64 (exactly known) to `fmt` in `rm`; NaN gives the default NaN.
/// Used to bring f64 computations (transcendentals) to the result type with one rounding.
pub fn from_f64(fmt: Fmt, v: f64, rm: Round) -> u64 {
    let bits = v.to_bits();
    if v.is_nan() {
        return fmt.default_nan();
    }
    if fmt == Fmt::F64 {
        return bits;
    }
    if v.is_infinite() || v == 0.0 {
        let neg = v.is_sign_negative();
        return if v == 0.0 {
            fmt.zero(neg)
        } else {
            fmt.inf(neg)
        };
    }
    let (neg, sig, exp) = Fmt::F64.unpack(bits);
    round::round_pack(fmt, neg, u128::from(sig), exp, false, rm)
}

/// The exact f64 value of a non-NaN value of `fmt`.
pub fn to_f64(fmt: Fmt, x: u64) -> f64 {
    match fmt {
        Fmt::F64 => f64::from_bits(x),
        Fmt::F32 => f64::from(f32::from_bits(x as u32)),
        Fmt::F16 => {
            if fmt.is_inf(x) {
                return if fmt.is_neg(x) {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                };
            }
            if fmt.is_zero(x) {
                return if fmt.is_neg(x) { -0.0 } else { 0.0 };
            }
            let (neg, sig, exp) = fmt.unpack(x);
            let m = sig as f64 * 2f64.powi(exp);
            if neg {
                -m
            } else {
                m
            }
        }
    }
}
