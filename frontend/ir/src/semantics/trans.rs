//! Transcendentals: sqrt, rcp, rsq, exp2, log2, sin, cos and their [`Trans`] flavours.
//!
//! Real hardware computes these (except an IEEE sqrt) as approximations of about 1 ulp whose
//! exact bits AMD does not document. Here each is one documented, deterministic computation:
//! - `Fsqrt`: correctly rounded in `mode.round` (exact integer arithmetic), every flavour.
//! - `Frcp`: `1/x` correctly rounded to nearest even.
//! - `Frsq`: `1/sqrt(x)` as two f64 round-to-nearest operations, then rounded to the type.
//! - `Fexp2`, `Flog2`, `Fsin`, `Fcos`: the host libm's f64 function, rounded to nearest even
//!   to the type (f32/f16 results are then correctly rounded in practice; f64 results carry
//!   libm's < 1 ulp error, and could differ between libm versions in the last bit).
//!
//! Only `Fsqrt` reads `mode.round`; the others always round to nearest even. Flushing applies
//! to all (GCN's f32 `v_rsq`/`v_log`/`v_exp` ignore the denormal mode: lifters express that
//! by setting `flush_in`/`flush_out` on those ops).
//!
//! IEEE special cases: rcp(±0) = ±inf, rcp(±inf) = ±0; rsq(+0) = +inf, rsq(-0) = -inf,
//! rsq(x < 0) = NaN; sqrt(-0) = -0; exp2(-inf) = +0; log2(±0) = -inf, log2(x < 0) = NaN;
//! sin/cos(±inf) = NaN. Invalid cases give the default NaN (CLRX documents "-NaN" for
//! v_sqrt/v_rsq/v_log of negative inputs and v_sin/v_cos of infinities: the same bits).
//!
//! Flavours then rewrite an infinite result: `Clamped` to ±max finite (TeraScale `*_CLAMPED`,
//! GCN `v_rcp_clamp`/`v_rsq_clamp`/`v_log_clamp`), `Ff` to ±0 of the same sign (TeraScale
//! `*_FF`); `Legacy` rcp/rsq give ±0 of the input's sign (GCN `v_rcp_legacy_f32` and
//! `v_rsq_legacy_f32`, CLRX GcnInstrsVop1.md) and `Legacy` exp2/log2/sqrt/sin/cos equal `Ieee`.
//!
//! `Angle::Turns` (GCN `v_sin_f32`, TeraScale SIN/COS): sin(2πx). The documented input domain
//! is [-256, 256] (seed 000, COS: "Out-of-range input results in float 1"; AMD's GCN manuals
//! say the same, with 0 for sin); outside it sin gives +0 and cos gives 1.0. The argument is
//! reduced exactly (x - round(x), then quarter turns), so sin(0.5) is exactly 0 and
//! sin(0.25) exactly 1.

use super::float::{self, finish, flush_in, from_f64, to_f64};
use super::format::Fmt;
use crate::op::{Angle, FloatMode, Round, Trans};

/// Which function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    Sqrt,
    Rcp,
    Rsq,
    Exp2,
    Log2,
    Sin(Angle),
    Cos(Angle),
}

/// `func(x)` in flavour `flavour`.
pub fn eval(func: Func, flavour: Trans, fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    if fmt.is_nan(x) {
        return fmt.quiet(x);
    }
    let r = match func {
        Func::Sqrt => float::sqrt(
            fmt,
            FloatMode {
                flush_out: false,
                ..mode
            },
            x,
        ),
        _ => from_f64(fmt, approx(func, to_f64(fmt, x)), Round::NearestEven),
    };
    let r = if fmt.is_inf(r) {
        flavour_inf(func, flavour, fmt, x, r)
    } else {
        r
    };
    finish(fmt, mode, r)
}

/// What a flavour makes of an infinite result `r` of input `x`.
fn flavour_inf(func: Func, flavour: Trans, fmt: Fmt, x: u64, r: u64) -> u64 {
    let neg = fmt.is_neg(r);
    match flavour {
        Trans::Ieee => r,
        Trans::Clamped => fmt.max_finite(neg),
        Trans::Ff => fmt.zero(neg),
        Trans::Legacy => match func {
            Func::Rcp | Func::Rsq => fmt.zero(fmt.is_neg(x)),
            _ => r,
        },
    }
}

/// The f64 computation of every function but sqrt (NaN-free input; IEEE special cases).
fn approx(func: Func, v: f64) -> f64 {
    match func {
        Func::Sqrt => v.sqrt(),
        Func::Rcp => 1.0 / v,
        Func::Rsq => {
            if v == 0.0 {
                // rSqrt(±0) = ±inf (IEEE 754-2008 §9.2); 1/sqrt(-0) gives the same.
                1.0 / v
            } else if v < 0.0 {
                f64::NAN
            } else {
                1.0 / v.sqrt()
            }
        }
        Func::Exp2 => v.exp2(),
        Func::Log2 => {
            if v < 0.0 {
                f64::NAN
            } else {
                v.log2()
            }
        }
        Func::Sin(angle) => sin_cos(angle, v, false),
        Func::Cos(angle) => sin_cos(angle, v, true),
    }
}

fn sin_cos(angle: Angle, v: f64, cos: bool) -> f64 {
    if v.is_infinite() {
        return f64::NAN;
    }
    match angle {
        Angle::Radians => {
            if cos {
                v.cos()
            } else {
                v.sin()
            }
        }
        Angle::Turns => {
            if v.abs() > 256.0 {
                return if cos { 1.0 } else { 0.0 };
            }
            turns(v, cos)
        }
    }
}

/// sin(2πt) or cos(2πt) with exact reduction to an eighth of a turn.
fn turns(t: f64, cos: bool) -> f64 {
    if t == 0.0 {
        // Keeps sin(-0) = -0 (the reduction below would produce +0).
        return if cos { 1.0 } else { t };
    }
    // Both subtractions are exact: |t| <= 256 with at most 53 significant bits, and the
    // subtrahends are integers and quarter multiples within one unit of t.
    let r = t - t.round_ties_even();
    let q = (r * 4.0).round_ties_even();
    let f = r - q * 0.25;
    let theta = f * std::f64::consts::TAU;
    // Quadrant of the angle in quarter turns; cos is sin shifted by one quarter.
    let quadrant = (q as i64 + i64::from(cos)).rem_euclid(4);
    let (s, c) = (theta.sin(), theta.cos());
    match quadrant {
        0 => s,
        1 => c,
        2 => 0.0 - s,
        _ => 0.0 - c,
    }
}
