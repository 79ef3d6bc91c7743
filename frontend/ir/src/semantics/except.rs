//! The IEEE 754 exception flags of one float operation: the per-lane meaning of
//! [`crate::Op::Fexcept`]. Bits are [`fpflag`](crate::except::fpflag) (x86 MXCSR order).
//!
//! # Rules shared by every op
//! - **Operands** are read as the op reads them: with `mode.flush_in` a denormal is a zero
//!   first (x86 DAZ: a flushed operand raises no denormal flag).
//! - **NaN operands**: if any float operand is a NaN, the flags are `INVALID` when one is
//!   signalling (or, for the signalling comparisons and the legacy min/max below, when any is
//!   a NaN), else none: a quiet NaN passes through silently (IEEE 754-2008 §6.2), and x86 SSE
//!   reports no denormal or other flag beside a NaN operand either.
//! - **Denormal** (`DENORMAL`): some float operand is denormal (x86's DE, which IEEE 754 lacks).
//!   Float-to-integer conversions and roundings to integral do not raise it (x86 CVTTSS2SI,
//!   ROUNDSS), and an invalid operation or a division by zero is reported alone (x86's
//!   precedence: `denormal / 0` raises division by zero only).
//! - **Rounding** (`INEXACT`, `OVERFLOW`, `UNDERFLOW`): from the exact result and one rounding
//!   in `mode.round` (`round::round_pack_status`). Overflow also raises inexact. Underflow is
//!   "tiny and inexact" with tininess detected **after rounding** (rounded to the precision
//!   with an unbounded exponent range, below the smallest normal), as x86 SSE detects it; IEEE
//!   754-2008 §7.5 allows either, and the host is then an independent check.
//! - **Output flushing**: with `mode.flush_out`, a denormal result written as zero raises
//!   `UNDERFLOW | INEXACT` (what x86 FTZ reports), even when the denormal was exact.
//!
//! # Per op
//! - `fadd fsub fmul fdiv fma`: IEEE (invalid for ∞-∞, 0·∞ and 0/0, ∞/∞; division by zero
//!   for finite/0). `fma(0, ∞, c)` is invalid unless `c` is a NaN (then the NaN rule: x86 FMA).
//! - `fmul_legacy` (DX9): a zero operand gives +0 with no flag beside `DENORMAL` (0·∞ and
//!   0·qNaN are not invalid; a signalling NaN still is, as for every op).
//! - `fmad`, `fmad_legacy`: unfused, so the flags of the multiply and of the add of its
//!   rounded (and per-mode flushed) product, ORed: the two operations the IR defines them as.
//! - `fmin fmax` `ieee`/`nonieee`: invalid for a signalling NaN only (754-2008 minNum/maxNum).
//!   `legacy` (`a < b ? a : b`) is the ordered comparison `<`: invalid for any NaN (x86 MINSS).
//! - `fcmp`: `lt le gt ge` are IEEE 754-2008's signalling predicates (Table 5.2; C's `<`, x86
//!   CMPLTSS): invalid for any NaN. The others (equality, the unordered forms, `one` = C's
//!   `islessgreater`, `ord`, `uno`) are quiet: invalid for a signalling NaN only.
//! - `ffloor fceil ftrunc frint`: IEEE roundToIntegral: invalid for a signalling NaN, never
//!   inexact (x86 ROUNDSS with the precision exception suppressed).
//! - `ffract`: the subtraction `x - floor(x)`: invalid for ±∞ (∞ - ∞), inexact when the
//!   difference rounds or is clamped below 1.0.
//! - `fcanonicalize`: the multiplication by 1.0 the IR defines it as.
//! - `ldexp`: one rounding of `x · 2^n`. `frexp_mant`, `frexp_exp`: exact (flags only from
//!   the operand).
//! - `ftou ftos`: truncation, as IEEE convertToIntegerExactTowardZero (x86 CVTTSS2SI):
//!   invalid for NaN, ±∞ and values whose truncation is out of range (the saturated result is
//!   then not inexact); inexact when a fraction is dropped.
//! - `utof stof fconvert`: one rounding (`fconvert` of a signalling NaN is invalid).
//!
//! # Transcendentals (no IEEE rounding requirement; AMD's documents are silent on flags)
//! The flags are those of the exact function (IEEE 754-2008 §9.2 special cases), whatever
//! approximation the value uses, and whatever the flavour does to an infinite result
//! (`clamped` and `ff` substitute a value for the exceptional one; the exception happened):
//! - invalid: a signalling NaN; a domain error whose IEEE result is NaN (sqrt, rsq, log2 of
//!   a value below zero, -∞ included; sin/cos of ±∞).
//! - division by zero: a pole: `rcp(±0)`, `rsq(±0)`, `log2(±0)`.
//! - overflow (and inexact): a finite input whose exact result exceeds the format (exp2).
//! - inexact: unless the exact result is representable: sqrt of a square, rcp of a power of
//!   two, rsq of an even power of two, exp2 of an integer, log2 of a power of two, sin/cos at
//!   0 (and, in turns, at multiples of a quarter turn; other values of these functions are
//!   irrational). Inputs outside the turns domain (|x| > 256) give a defined 0 or 1 that is
//!   not the function's value: inexact.
//! - underflow: inexact and the result (the IR's computed value, before flushing) below the
//!   smallest normal in magnitude.

use super::float::{self, flush_in, to_quad};
use super::format::Fmt;
use super::round::{self, round_pack_status, Rounded};
use super::trans::{self, Func};
use crate::except::{fpflag::*, Except};
use crate::op::{Angle, FloatCC, FloatMode, MinMax, Op, Round, Trans};
use crate::types::ScalarType;
use rustc_apfloat::ieee::Quad;
use rustc_apfloat::{Float, Status};

/// The flags `k` raises on `args` (bits, typed `tys`) in `mode`. Never panics: missing
/// operands read as 0, and ill-typed ones give 0.
pub fn flags(k: Except, mode: FloatMode, tys: &[ScalarType], args: &[u64]) -> u32 {
    let Some(&t0) = tys.first() else { return 0 };
    let mut a = [0u64; 4];
    for (d, s) in a.iter_mut().zip(args) {
        *d = *s;
    }
    let args = &a;
    if let Some(f) = Fmt::of(t0) {
        return float_op(k, f, mode, args);
    }
    match k {
        Except::UtoF(t) | Except::StoF(t) => match Fmt::of(t) {
            Some(f) => from_int(f, mode, args[0], t0, matches!(k, Except::StoF(_))),
            None => 0,
        },
        _ => 0,
    }
}

/// The flags of an op whose first operand is a float of format `f`.
fn float_op(k: Except, f: Fmt, mode: FloatMode, a: &[u64]) -> u32 {
    use Except as E;
    match k {
        E::Fadd => arith(f, mode, Step::Add, a),
        E::Fsub => arith(f, mode, Step::Sub, a),
        E::Fmul => arith(f, mode, Step::Mul, a),
        E::Fdiv => arith(f, mode, Step::Div, a),
        E::Fma => arith(f, mode, Step::Fma, a),
        E::FmulLegacy => mul_legacy(f, mode, a),
        E::Fmad | E::FmadLegacy => {
            let (mul, mul_flags) = if k == E::Fmad {
                (Op::Fmul, arith(f, mode, Step::Mul, a))
            } else {
                (Op::FmulLegacy, mul_legacy(f, mode, a))
            };
            let ty = f.ty();
            let p = super::eval(mul, mode, ty, &[ty, ty], &a[..2]);
            mul_flags | arith(f, mode, Step::Add, &[p, a[2]])
        }
        E::Fmin(rule) | E::Fmax(rule) => {
            operands(f, mode, &a[..2], rule == MinMax::Legacy).unwrap_or_else(|e| e)
        }
        E::Fcmp(cc) => {
            let signalling = matches!(cc, FloatCC::Lt | FloatCC::Le | FloatCC::Gt | FloatCC::Ge);
            operands(f, mode, &a[..2], signalling).unwrap_or_else(|e| e)
        }
        E::Ffloor | E::Fceil | E::Ftrunc | E::Frint => {
            if f.is_snan(flush_in(f, mode, a[0])) {
                INVALID
            } else {
                0
            }
        }
        E::Ffract => fract(f, mode, a[0]),
        E::Fcanonicalize => arith(f, mode, Step::Mul, &[a[0], f.one()]),
        E::Ldexp => ldexp(f, mode, a[0], a[1]),
        E::FrexpMant | E::FrexpExp => operands(f, mode, &a[..1], false).unwrap_or_else(|e| e),
        E::FtoU(t) | E::FtoS(t) => to_int(f, mode, a[0], t, matches!(k, E::FtoS(_))),
        E::Fconvert(t) => match Fmt::of(t) {
            Some(to) => convert(f, to, mode, a[0]),
            None => 0,
        },
        E::UtoF(_) | E::StoF(_) => 0,
        E::Fsqrt(_) => transcendental(Func::Sqrt, f, mode, a[0]),
        E::Frcp(_) => transcendental(Func::Rcp, f, mode, a[0]),
        E::Frsq(_) => transcendental(Func::Rsq, f, mode, a[0]),
        E::Fexp2(_) => transcendental(Func::Exp2, f, mode, a[0]),
        E::Flog2(_) => transcendental(Func::Log2, f, mode, a[0]),
        E::Fsin(_, angle) => transcendental(Func::Sin(angle), f, mode, a[0]),
        E::Fcos(_, angle) => transcendental(Func::Cos(angle), f, mode, a[0]),
    }
}

/// The operands after input flushing and the `DENORMAL` flag, or (`Err`) the flags of a NaN
/// operand: `INVALID` when one is signalling, or any is and `signalling` is set.
fn operands(f: Fmt, mode: FloatMode, a: &[u64], signalling: bool) -> Result<u32, u32> {
    let x: Vec<u64> = a.iter().map(|&v| flush_in(f, mode, v)).collect();
    if x.iter().any(|&v| f.is_nan(v)) {
        let snan = x.iter().any(|&v| f.is_snan(v));
        return Err(if snan || signalling { INVALID } else { 0 });
    }
    Ok(if x.iter().any(|&v| f.is_denormal(v)) {
        DENORMAL
    } else {
        0
    })
}

/// The flags of one rounding step, output flushing included.
fn rounding(f: Fmt, mode: FloatMode, r: Rounded) -> u32 {
    let mut out = 0;
    if r.inexact {
        out |= INEXACT;
    }
    if r.overflow {
        out |= OVERFLOW | INEXACT;
    }
    if r.tiny && r.inexact {
        out |= UNDERFLOW;
    }
    if mode.flush_out && f.is_denormal(r.bits) {
        out |= UNDERFLOW | INEXACT;
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Step {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
}

/// An IEEE operation on operands of `f`: invalid and division by zero from the operation on
/// binary128 copies (exact classes), the rounding flags from its exact value truncated to
/// binary128 plus a sticky bit (113 bits hold every f64 product and keep more than p + 2
/// bits of any sum or quotient, so rounding that again is exact; the exponent range holds
/// every f64 product and quotient).
fn arith(f: Fmt, mode: FloatMode, step: Step, a: &[u64]) -> u32 {
    let n = if step == Step::Fma { 3 } else { 2 };
    let de = match operands(f, mode, &a[..n], false) {
        Ok(de) => de,
        Err(nan) => return nan,
    };
    let q: Vec<_> = a[..n]
        .iter()
        .map(|&v| to_quad(f, flush_in(f, mode, v)))
        .collect();
    let tz = rustc_apfloat::Round::TowardZero;
    let r = match step {
        Step::Add => q[0].add_r(q[1], tz),
        Step::Sub => q[0].sub_r(q[1], tz),
        Step::Mul => q[0].mul_r(q[1], tz),
        Step::Div => q[0].div_r(q[1], tz),
        Step::Fma => q[0].mul_add_r(q[1], q[2], tz),
    };
    if r.status.contains(Status::INVALID_OP) {
        return INVALID;
    }
    if r.status.contains(Status::DIV_BY_ZERO) {
        return DIV_BY_ZERO;
    }
    de | quad_rounding(f, mode, r.value, r.status.contains(Status::INEXACT))
}

/// The rounding flags of the exact value `v` (+ a sticky part when `sticky`) rounded to `f`.
/// Infinities (from infinite operands) and exact zeros are exact.
fn quad_rounding(f: Fmt, mode: FloatMode, v: Quad, sticky: bool) -> u32 {
    if v.is_infinite() || v.is_nan() || (v.is_zero() && !sticky) {
        return 0;
    }
    rounding(f, mode, quad_status(f, mode.round, v, sticky))
}

/// The DX9 multiply: a zero operand gives +0 with only the denormal flag.
fn mul_legacy(f: Fmt, mode: FloatMode, a: &[u64]) -> u32 {
    let de = match operands(f, mode, &a[..2], false) {
        Ok(de) => de,
        Err(nan) => return nan,
    };
    if a[..2].iter().any(|&v| f.is_zero(flush_in(f, mode, v))) {
        return de;
    }
    arith(f, mode, Step::Mul, a)
}

fn fract(f: Fmt, mode: FloatMode, x: u64) -> u32 {
    let de = match operands(f, mode, &[x], false) {
        Ok(de) => de,
        Err(nan) => return nan,
    };
    let x = flush_in(f, mode, x);
    if f.is_inf(x) {
        return INVALID;
    }
    if f.is_zero(x) {
        return de;
    }
    let ty = f.ty();
    let fl = super::eval(Op::Ffloor, FloatMode::IEEE, ty, &[ty], &[x]);
    let exact = to_quad(f, x).sub_r(to_quad(f, fl), rustc_apfloat::Round::TowardZero);
    let keep = FloatMode {
        flush_out: false,
        ..mode
    };
    let delivered = super::eval(Op::Ffract, keep, ty, &[ty], &[x]);
    let sticky = exact.status.contains(Status::INEXACT);
    let mut r = quad_status(f, mode.round, exact.value, sticky);
    // The clamp below 1.0 changes the rounded value: inexact.
    r.inexact |= delivered != r.bits;
    r.bits = delivered;
    de | rounding(f, mode, r)
}

/// [`round_pack_status`] of a finite binary128 value truncated toward zero, `sticky` when
/// the truncation dropped something.
fn quad_status(f: Fmt, rm: Round, v: Quad, sticky: bool) -> Rounded {
    let bits = v.to_bits();
    let neg = bits >> 127 != 0;
    let field = (bits >> 112) as i32 & 0x7fff;
    let frac = bits & ((1u128 << 112) - 1);
    let (sig, exp) = if field == 0 {
        (frac, -16382 - 112)
    } else {
        (frac | 1u128 << 112, field - 16383 - 112)
    };
    round_pack_status(f, neg, sig, exp, sticky, rm)
}

fn ldexp(f: Fmt, mode: FloatMode, x: u64, n: u64) -> u32 {
    let de = match operands(f, mode, &[x], false) {
        Ok(de) => de,
        Err(nan) => return nan,
    };
    let x = flush_in(f, mode, x);
    if !f.is_finite(x) || f.is_zero(x) {
        return de;
    }
    let (neg, sig, exp) = f.unpack(x);
    // As round::scale: beyond ±4200 every format has long over- or underflowed.
    let n = i64::from(n as u32 as i32).clamp(-4200, 4200) as i32;
    de | rounding(
        f,
        mode,
        round_pack_status(f, neg, u128::from(sig), exp + n, false, mode.round),
    )
}

fn to_int(f: Fmt, mode: FloatMode, x: u64, t: ScalarType, signed: bool) -> u32 {
    let x = flush_in(f, mode, x);
    if !f.is_finite(x) {
        return INVALID;
    }
    if f.is_zero(x) {
        return 0;
    }
    let bits = t.bits();
    let v = float::to_f64(f, x);
    let whole = v.trunc();
    let (lo, hi) = if signed {
        (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
    } else {
        (0.0, 2f64.powi(bits as i32))
    };
    // Powers of two and the truncated value are exact in f64; `hi` is excluded.
    if whole < lo || whole >= hi {
        INVALID
    } else if whole != v {
        INEXACT
    } else {
        0
    }
}

fn from_int(f: Fmt, mode: FloatMode, v: u64, src: ScalarType, signed: bool) -> u32 {
    let bits = src.bits();
    let v = v & src.bit_mask();
    let (neg, mag) = if signed && v >> (bits - 1) & 1 == 1 {
        (true, (v | !src.bit_mask()).wrapping_neg())
    } else {
        (false, v)
    };
    if mag == 0 {
        return 0;
    }
    rounding(
        f,
        mode,
        round_pack_status(f, neg, u128::from(mag), 0, false, mode.round),
    )
}

fn convert(from: Fmt, to: Fmt, mode: FloatMode, x: u64) -> u32 {
    let de = match operands(from, mode, &[x], false) {
        Ok(de) => de,
        Err(nan) => return nan,
    };
    let x = flush_in(from, mode, x);
    if !from.is_finite(x) || from.is_zero(x) {
        return de;
    }
    let (neg, sig, exp) = from.unpack(x);
    de | rounding(
        to,
        mode,
        round_pack_status(to, neg, u128::from(sig), exp, false, mode.round),
    )
}

fn transcendental(func: Func, f: Fmt, mode: FloatMode, x: u64) -> u32 {
    let de = match operands(f, mode, &[x], false) {
        Ok(de) => de,
        Err(nan) => return nan,
    };
    let x = flush_in(f, mode, x);
    let (zero, inf, neg) = (f.is_zero(x), f.is_inf(x), f.is_neg(x));
    let pow2 = !zero && !inf && f.unpack(x).1.is_power_of_two();
    // The exponent of a power of two.
    let log2 = || {
        let (_, sig, exp) = f.unpack(x);
        exp + sig.trailing_zeros() as i32
    };
    let exact = |r: Rounded| de | rounding(f, mode, r);
    let flags = match func {
        Func::Sqrt if neg && !zero => INVALID,
        Func::Sqrt if zero || inf => 0,
        Func::Sqrt => exact(round::sqrt_status(f, x, mode.round)),
        Func::Rcp | Func::Rsq if zero => DIV_BY_ZERO,
        Func::Rsq if neg => INVALID,
        Func::Rcp | Func::Rsq if inf => 0,
        Func::Rcp if pow2 => exact(round_pack_status(
            f,
            neg,
            1,
            -log2(),
            false,
            Round::NearestEven,
        )),
        Func::Rsq if pow2 && log2() % 2 == 0 => 0,
        Func::Log2 if zero => DIV_BY_ZERO,
        Func::Log2 if neg => INVALID,
        Func::Log2 if inf || pow2 => 0,
        Func::Exp2 if inf => 0,
        Func::Exp2 if float::to_f64(f, x).fract() == 0.0 => {
            // 2^n for an integral n: exact unless it leaves the format.
            let n = float::to_f64(f, x).clamp(-4200.0, 4200.0) as i32;
            exact(round_pack_status(f, false, 1, n, false, Round::NearestEven))
        }
        Func::Sin(_) | Func::Cos(_) if inf => INVALID,
        Func::Sin(_) | Func::Cos(_) if zero => 0,
        Func::Sin(Angle::Turns) | Func::Cos(Angle::Turns) => {
            let t = float::to_f64(f, x);
            if t.abs() > 256.0 {
                // The defined 0 or 1 outside the domain: not the function's value.
                INEXACT
            } else if (t * 4.0).fract() == 0.0 {
                0
            } else {
                inexact_value(func, f, mode, x)
            }
        }
        _ => inexact_value(func, f, mode, x),
    };
    if flags & (INVALID | DIV_BY_ZERO) != 0 {
        flags
    } else {
        de | flags
    }
}

/// An inexact transcendental: underflow when the computed IEEE value is tiny, overflow when
/// it is infinite, output flushing as usual.
fn inexact_value(func: Func, f: Fmt, mode: FloatMode, x: u64) -> u32 {
    let keep = FloatMode {
        flush_in: false,
        flush_out: false,
        ..mode
    };
    let r = trans::eval(func, Trans::Ieee, f, keep, x);
    let mut out = INEXACT;
    if f.is_inf(r) {
        out |= OVERFLOW;
    }
    let min_normal = 1u64 << f.mant_bits();
    if f.abs(r) < min_normal {
        out |= UNDERFLOW;
    }
    out
}

impl Fmt {
    /// The IR type of this format.
    fn ty(self) -> ScalarType {
        match self {
            Fmt::F16 => ScalarType::F16,
            Fmt::F32 => ScalarType::F32,
            Fmt::F64 => ScalarType::F64,
        }
    }
}
