//! Float selection ops: min/max per [`MinMax`] rule, median of three, clamp to [0, 1],
//! comparisons and class tests.
//!
//! Signed zeros: the `Ieee` and `NonIeee` rules order -0 below +0 (GCN `v_min_f32`/`v_max_f32`,
//! TeraScale MIN_64/MAX_64 in seed 000: min(-0, +0) = -0, max = +0). The `Legacy` rule is the
//! literal compare-and-select of the DX9 pseudocode (`a < b ? a : b`), where -0 and +0 compare
//! equal and the second operand wins.

use super::float::{finish, flush_in, propagate_nan};
use super::format::Fmt;
use crate::op::{FloatCC, FloatMode, MinMax};

/// Min (or max when `max`) of two values under `rule`.
pub fn min_max(rule: MinMax, max: bool, fmt: Fmt, mode: FloatMode, a: u64, b: u64) -> u64 {
    let (a, b) = (flush_in(fmt, mode, a), flush_in(fmt, mode, b));
    let r = select(rule, max, fmt, a, b);
    finish(fmt, mode, r)
}

/// The selection itself on already-flushed operands (the result may be an unquieted NaN).
fn select(rule: MinMax, max: bool, fmt: Fmt, a: u64, b: u64) -> u64 {
    let (na, nb) = (fmt.is_nan(a), fmt.is_nan(b));
    match rule {
        MinMax::Legacy => {
            let pick_a = if max { fmt.lt(b, a) } else { fmt.lt(a, b) };
            return if !na && !nb && pick_a { a } else { b };
        }
        MinMax::Ieee if fmt.is_snan(a) || fmt.is_snan(b) => {
            return propagate_nan(fmt, &[a, b]).unwrap_or(a);
        }
        MinMax::Ieee | MinMax::NonIeee => {}
    }
    match (na, nb) {
        (true, true) => fmt.quiet(a),
        (true, false) => b,
        (false, true) => a,
        (false, false) => ordered(max, fmt, a, b),
    }
}

/// Min or max of two non-NaN values with -0 < +0.
fn ordered(max: bool, fmt: Fmt, a: u64, b: u64) -> u64 {
    let a_below = fmt.order_key(a) < fmt.order_key(b);
    if a_below != max {
        a
    } else {
        b
    }
}

/// Median of three (GCN `v_med3_f32`). With a NaN operand the result is the minimum of the
/// three under `rule` (AMD's pseudocode `MIN3`; CLRX's per-operand form in seed 002 agrees).
/// With a signalling NaN under `Ieee`, the NaN rule applies (first NaN operand, quieted).
/// `Legacy` behaves as `NonIeee` (there is no legacy med3 in any ISA).
///
/// LLVM's constant folder (AMDGPUInstCombineIntrinsic.cpp) folds a NaN in the *third*
/// operand to `maxnum(src0, src1)` instead; no hardware document supports that, so the
/// documented `MIN3` rule is used here.
pub fn med3(rule: MinMax, fmt: Fmt, mode: FloatMode, a: u64, b: u64, c: u64) -> u64 {
    let args = [a, b, c].map(|x| flush_in(fmt, mode, x));
    let [a, b, c] = args;
    let r = if rule == MinMax::Ieee && args.iter().any(|&x| fmt.is_snan(x)) {
        propagate_nan(fmt, &args).unwrap_or(a)
    } else if args.iter().any(|&x| fmt.is_nan(x)) {
        let ab = select(MinMax::NonIeee, false, fmt, a, b);
        select(MinMax::NonIeee, false, fmt, ab, c)
    } else {
        let lo = ordered(false, fmt, a, b);
        let hi = ordered(true, fmt, a, b);
        ordered(true, fmt, lo, ordered(false, fmt, hi, c))
    };
    finish(fmt, mode, r)
}

/// Clamp to [0, 1]. -0 gives +0 (the hardware clamp is max(x, +0) with -0 < +0). A NaN gives
/// +0 when `dx10` (GCN DX10_CLAMP), else the NaN, quieted.
pub fn clamp01(dx10: bool, fmt: Fmt, mode: FloatMode, x: u64) -> u64 {
    let x = flush_in(fmt, mode, x);
    let r = if fmt.is_nan(x) {
        if dx10 {
            0
        } else {
            x
        }
    } else if fmt.is_neg(x) {
        0
    } else if fmt.lt(fmt.one(), x) {
        fmt.one()
    } else {
        x
    };
    finish(fmt, mode, r)
}

/// IEEE comparison; ordered predicates are false and `U*` predicates true on NaN.
pub fn compare(cc: FloatCC, fmt: Fmt, mode: FloatMode, a: u64, b: u64) -> bool {
    let (a, b) = (flush_in(fmt, mode, a), flush_in(fmt, mode, b));
    let unordered = fmt.is_nan(a) || fmt.is_nan(b);
    let lt = !unordered && fmt.lt(a, b);
    let gt = !unordered && fmt.lt(b, a);
    let eq = !unordered && fmt.eq(a, b);
    match cc {
        FloatCC::Eq => eq,
        FloatCC::Ne => !unordered && !eq,
        FloatCC::Lt => lt,
        FloatCC::Le => lt || eq,
        FloatCC::Gt => gt,
        FloatCC::Ge => gt || eq,
        FloatCC::One => lt || gt,
        FloatCC::Ord => !unordered,
        FloatCC::Uno => unordered,
        FloatCC::Ueq => unordered || eq,
        FloatCC::Une => unordered || !eq,
        FloatCC::Ult => unordered || lt,
        FloatCC::Ule => unordered || lt || eq,
        FloatCC::Ugt => unordered || gt,
        FloatCC::Uge => unordered || gt || eq,
    }
}

/// The class bit of `x` in the [`crate::Op::Fclass`] mask layout (GCN `v_cmp_class`): 0 sNaN,
/// 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
/// The raw bits are classified: no flushing (the op carries no float mode).
pub fn class_bit(fmt: Fmt, x: u64) -> u32 {
    let neg = fmt.is_neg(x);
    let pick = |n: u32, p: u32| if neg { n } else { p };
    if fmt.is_snan(x) {
        0
    } else if fmt.is_nan(x) {
        1
    } else if fmt.is_inf(x) {
        pick(2, 9)
    } else if fmt.is_zero(x) {
        pick(5, 6)
    } else if fmt.is_denormal(x) {
        pick(4, 7)
    } else {
        pick(3, 8)
    }
}
