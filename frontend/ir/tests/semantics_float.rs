//! Float arithmetic semantics: the NaN rule, flushing, rounding modes, fused vs unfused,
//! legacy multiply, min/max/med3/clamp, comparisons and classes.
//!
//! Expected values are hand-derived bit patterns (explained inline) or host IEEE arithmetic
//! where IEEE 754 is the definition (round-to-nearest-even add/sub/mul/div/fma; the `half`
//! crate for f16).

use wavejit_ir::semantics::{eval, DEFAULT_NAN_F16, DEFAULT_NAN_F32, DEFAULT_NAN_F64};
use wavejit_ir::{FloatCC, FloatMode, MinMax, Op, Round, ScalarType, ScalarType::*};

const IEEE: FloatMode = FloatMode::IEEE;
const FIN: FloatMode = FloatMode::FLUSH_IN;
const FOUT: FloatMode = FloatMode::FLUSH_OUT;

fn rm(round: Round) -> FloatMode {
    FloatMode { round, ..IEEE }
}

fn ev(op: Op, mode: FloatMode, ty: ScalarType, args: &[u64]) -> u64 {
    let n = op.arity();
    eval(op, mode, ty, &vec![ty; n], args)
}

fn e32(op: Op, mode: FloatMode, args: &[u32]) -> u32 {
    let a: Vec<u64> = args.iter().map(|&x| u64::from(x)).collect();
    ev(op, mode, F32, &a) as u32
}

fn e64(op: Op, mode: FloatMode, args: &[u64]) -> u64 {
    ev(op, mode, F64, args)
}

fn e16(op: Op, mode: FloatMode, args: &[u16]) -> u16 {
    let a: Vec<u64> = args.iter().map(|&x| u64::from(x)).collect();
    ev(op, mode, F16, &a) as u16
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

const QNAN_A: u32 = 0x7fc0_0001;
const QNAN_B: u32 = 0xffc0_0002;
const SNAN_A: u32 = 0x7f80_0005;
const SNAN_B: u32 = 0xff80_0009;
const ONE: u32 = 0x3f80_0000;
const MIN_NORMAL: u32 = 0x0080_0000;
const DENORM: u32 = 0x0000_0001;

#[test]
fn nan_rule_takes_first_nan_operand_quieted() {
    for op in [Op::Fadd, Op::Fsub, Op::Fmul, Op::Fdiv] {
        assert_eq!(e32(op, IEEE, &[QNAN_A, QNAN_B]), QNAN_A, "{op:?}");
        assert_eq!(e32(op, IEEE, &[QNAN_B, QNAN_A]), QNAN_B, "{op:?}");
        // Signalling and quiet NaNs are alike: position decides, the result is quiet.
        assert_eq!(e32(op, IEEE, &[SNAN_A, QNAN_B]), 0x7fc0_0005, "{op:?}");
        assert_eq!(e32(op, IEEE, &[QNAN_B, SNAN_A]), QNAN_B, "{op:?}");
        assert_eq!(e32(op, IEEE, &[ONE, SNAN_B]), 0xffc0_0009, "{op:?}");
        assert_eq!(e32(op, IEEE, &[SNAN_B, ONE]), 0xffc0_0009, "{op:?}");
    }
    assert_eq!(
        e64(Op::Fadd, IEEE, &[d(1.0), 0x7ff0_0000_0000_0123]),
        0x7ff8_0000_0000_0123
    );
    assert_eq!(
        e64(
            Op::Fmul,
            IEEE,
            &[0xfff8_0000_0000_0001, 0x7ff0_0000_0000_0002]
        ),
        0xfff8_0000_0000_0001
    );
    assert_eq!(e16(Op::Fadd, IEEE, &[0x3c00, 0x7c01]), 0x7e01);
    assert_eq!(e16(Op::Fsub, IEEE, &[0xfc03, 0x7e00]), 0xfe03);
}

#[test]
fn invalid_operations_give_the_default_nan() {
    let inf = f(f32::INFINITY);
    assert_eq!(DEFAULT_NAN_F32, 0xffc0_0000);
    assert_eq!(DEFAULT_NAN_F64, 0xfff8_0000_0000_0000);
    assert_eq!(DEFAULT_NAN_F16, 0xfe00);
    assert_eq!(e32(Op::Fsub, IEEE, &[inf, inf]), DEFAULT_NAN_F32);
    assert_eq!(
        e32(Op::Fadd, IEEE, &[inf, inf | 0x8000_0000]),
        DEFAULT_NAN_F32
    );
    assert_eq!(e32(Op::Fmul, IEEE, &[0x8000_0000, inf]), DEFAULT_NAN_F32);
    assert_eq!(e32(Op::Fdiv, IEEE, &[0, 0]), DEFAULT_NAN_F32);
    assert_eq!(e32(Op::Fdiv, IEEE, &[inf, inf]), DEFAULT_NAN_F32);
    assert_eq!(e32(Op::Fma, IEEE, &[0, inf, ONE]), DEFAULT_NAN_F32);
    for round in [
        Round::TowardZero,
        Round::TowardNegative,
        Round::TowardPositive,
    ] {
        assert_eq!(e32(Op::Fsub, rm(round), &[inf, inf]), DEFAULT_NAN_F32);
    }
    assert_eq!(e64(Op::Fmul, IEEE, &[0, d(f64::INFINITY)]), DEFAULT_NAN_F64);
    assert_eq!(e16(Op::Fsub, IEEE, &[0x7c00, 0x7c00]), DEFAULT_NAN_F16);
    assert_eq!(
        e16(Op::Fdiv, rm(Round::TowardZero), &[0, 0x8000]),
        DEFAULT_NAN_F16
    );
}

#[test]
fn fused_and_unfused_multiply_add() {
    let inf = f(f32::INFINITY);
    // fma: a NaN operand wins over the invalid 0 * inf; fmad = fadd(fmul(a, b), c) does not.
    assert_eq!(e32(Op::Fma, IEEE, &[0, inf, QNAN_B]), QNAN_B);
    assert_eq!(e32(Op::Fmad, IEEE, &[0, inf, QNAN_B]), DEFAULT_NAN_F32);
    assert_eq!(e32(Op::Fmad, IEEE, &[QNAN_A, ONE, SNAN_B]), QNAN_A);
    assert_eq!(e32(Op::Fma, IEEE, &[ONE, SNAN_B, QNAN_A]), 0xffc0_0009);
    // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: one rounding keeps the 2^-46 (it is exactly half an
    // ulp of 2^-22, a tie resolved to the even 2^-22 = 0x34800000, or up in RTP); the unfused
    // product rounds (1 + 2^-22 + 2^-46) to 1 + 2^-22 first (to 1 + 2^-22 + 2^-23 in RTP),
    // leaving exactly 2^-22 (1.5 * 2^-22 = 0x34c00000).
    let a = 0x3f80_0001;
    let m1 = f(-1.0);
    assert_eq!(e32(Op::Fma, IEEE, &[a, a, m1]), 0x3480_0000);
    assert_eq!(
        e32(Op::Fma, rm(Round::TowardPositive), &[a, a, m1]),
        0x3480_0001
    );
    assert_eq!(
        e32(Op::Fmad, rm(Round::TowardPositive), &[a, a, m1]),
        0x34c0_0000
    );
    assert_eq!(e32(Op::Fmad, IEEE, &[a, a, m1]), 0x3480_0000);
    // fmad flushes the rounded product per flush_out: 2^-64 * 2^-64 = 2^-128 is denormal.
    let tiny = f(2f32.powi(-64));
    assert_eq!(e32(Op::Fmad, FOUT, &[tiny, tiny, 0x8000_0000]), 0);
    assert_eq!(e32(Op::Fma, FOUT, &[tiny, tiny, 0x8000_0000]), 0);
    assert_eq!(e32(Op::Fmad, IEEE, &[tiny, tiny, 0x8000_0000]), 0x0020_0000);
    assert_eq!(e32(Op::Fma, FIN, &[tiny, tiny, 0x8000_0000]), 0x0020_0000);
}

#[test]
fn rounding_modes_on_ties_and_inexact_results() {
    let half_ulp = f(2f32.powi(-24));
    // 1 + 2^-24 is a tie between 1.0 (even) and 1 + 2^-23.
    let cases = [
        (Round::NearestEven, ONE, 0xbf80_0000),
        (Round::TowardZero, ONE, 0xbf80_0000),
        (Round::TowardPositive, 0x3f80_0001, 0xbf80_0000),
        (Round::TowardNegative, ONE, 0xbf80_0001),
    ];
    for (round, pos, neg) in cases {
        assert_eq!(e32(Op::Fadd, rm(round), &[ONE, half_ulp]), pos, "{round:?}");
        assert_eq!(
            e32(Op::Fsub, rm(round), &[f(-1.0), half_ulp]),
            neg,
            "{round:?}"
        );
    }
    // A tie next to an odd significand rounds up to even.
    assert_eq!(e32(Op::Fadd, IEEE, &[0x3f80_0001, half_ulp]), 0x3f80_0002);
    // 1/3: 0x3eaaaaab to nearest, 0x3eaaaaaa toward zero/down (binary 0.0101...).
    let third = [
        (Round::NearestEven, 0x3eaa_aaab, 0xbeaa_aaab),
        (Round::TowardZero, 0x3eaa_aaaa, 0xbeaa_aaaa),
        (Round::TowardPositive, 0x3eaa_aaab, 0xbeaa_aaaa),
        (Round::TowardNegative, 0x3eaa_aaaa, 0xbeaa_aaab),
    ];
    for (round, pos, neg) in third {
        assert_eq!(e32(Op::Fdiv, rm(round), &[ONE, f(3.0)]), pos, "{round:?}");
        assert_eq!(
            e32(Op::Fdiv, rm(round), &[f(-1.0), f(3.0)]),
            neg,
            "{round:?}"
        );
    }
    let third64 = [
        (Round::NearestEven, 0x3fd5_5555_5555_5555),
        (Round::TowardPositive, 0x3fd5_5555_5555_5556),
        (Round::TowardZero, 0x3fd5_5555_5555_5555),
    ];
    for (round, want) in third64 {
        assert_eq!(
            e64(Op::Fdiv, rm(round), &[d(1.0), d(3.0)]),
            want,
            "{round:?}"
        );
    }
    // f16 1/3 = 0x3555 (0.33325) to nearest, 0x3556 upward.
    assert_eq!(e16(Op::Fdiv, IEEE, &[0x3c00, 0x4200]), 0x3555);
    assert_eq!(
        e16(Op::Fdiv, rm(Round::TowardPositive), &[0x3c00, 0x4200]),
        0x3556
    );
    // An exact zero sum is +0, except -0 when rounding down.
    assert_eq!(e32(Op::Fadd, IEEE, &[ONE, f(-1.0)]), 0);
    assert_eq!(
        e32(Op::Fadd, rm(Round::TowardNegative), &[ONE, f(-1.0)]),
        0x8000_0000
    );
    assert_eq!(
        e64(Op::Fsub, rm(Round::TowardNegative), &[d(2.0), d(2.0)]),
        0x8000_0000_0000_0000
    );
    assert_eq!(
        e16(Op::Fadd, rm(Round::TowardNegative), &[0x3c00, 0xbc00]),
        0x8000
    );
}

#[test]
fn overflow_per_rounding_mode() {
    let max = f(f32::MAX);
    let two = f(2.0);
    let cases = [
        (Round::NearestEven, 0x7f80_0000, 0xff80_0000),
        (Round::TowardZero, 0x7f7f_ffff, 0xff7f_ffff),
        (Round::TowardPositive, 0x7f80_0000, 0xff7f_ffff),
        (Round::TowardNegative, 0x7f7f_ffff, 0xff80_0000),
    ];
    for (round, pos, neg) in cases {
        assert_eq!(e32(Op::Fmul, rm(round), &[max, two]), pos, "{round:?}");
        assert_eq!(
            e32(Op::Fmul, rm(round), &[max | 0x8000_0000, two]),
            neg,
            "{round:?}"
        );
    }
    assert_eq!(
        e64(Op::Fadd, rm(Round::TowardZero), &[d(f64::MAX), d(f64::MAX)]),
        d(f64::MAX)
    );
    assert_eq!(e16(Op::Fmul, IEEE, &[0x7bff, 0x4000]), 0x7c00);
    assert_eq!(
        e16(Op::Fmul, rm(Round::TowardNegative), &[0x7bff, 0x4000]),
        0x7bff
    );
}

#[test]
fn flush_in_and_flush_out_are_separate() {
    // Input flushing: the denormal operand reads as +0.
    assert_eq!(e32(Op::Fadd, FIN, &[DENORM, DENORM]), 0);
    assert_eq!(e32(Op::Fadd, IEEE, &[DENORM, DENORM]), 2);
    // Output flushing only: denormal operands are used, the denormal sum is flushed.
    assert_eq!(e32(Op::Fadd, FOUT, &[DENORM, DENORM]), 0);
    assert_eq!(
        e32(Op::Fadd, FOUT, &[0x8000_0001, 0x8000_0001]),
        0x8000_0000
    );
    // ... but a normal result of denormal operands survives output flushing.
    assert_eq!(e32(Op::Fmul, FOUT, &[0x0040_0000, f(4.0)]), 0x0100_0000);
    assert_eq!(e32(Op::Fmul, FIN, &[0x0040_0000, f(4.0)]), 0);
    // A denormal result of normal operands is kept with input flushing only.
    assert_eq!(e32(Op::Fmul, FIN, &[MIN_NORMAL, f(0.5)]), 0x0040_0000);
    assert_eq!(
        e32(Op::Fmul, FOUT, &[MIN_NORMAL | 0x8000_0000, f(0.5)]),
        0x8000_0000
    );
    // Flushing happens after rounding: (2^24 - 1) * 2^-150 is a tie between the largest
    // denormal and the smallest normal, rounds to the (even) normal, and is not flushed.
    assert_eq!(e32(Op::Fmul, FOUT, &[0x00ff_ffff, f(0.5)]), MIN_NORMAL);
    assert_eq!(
        e64(Op::Fmul, FOUT, &[0x001f_ffff_ffff_ffff, d(0.5)]),
        0x0010_0000_0000_0000
    );
    assert_eq!(e64(Op::Fadd, FIN, &[1, 0]), 0);
    assert_eq!(e16(Op::Fadd, FIN, &[0x0001, 0x0001]), 0);
    assert_eq!(e16(Op::Fadd, FOUT, &[0x0001, 0x0001]), 0);
    assert_eq!(e16(Op::Fadd, IEEE, &[0x0001, 0x0001]), 0x0002);
    // Bit ops carry no mode and never flush.
    assert_eq!(e32(Op::Fneg, FloatMode::IEEE, &[DENORM]), 0x8000_0001);
    // Comparisons flush their inputs.
    let cmp = |mode| ev(Op::Fcmp(FloatCC::Eq), mode, F32, &[u64::from(DENORM), 0]);
    assert_eq!(cmp(FIN), 1);
    assert_eq!(cmp(IEEE), 0);
}

#[test]
fn bit_ops_keep_nan_payloads() {
    assert_eq!(e32(Op::Fneg, IEEE, &[SNAN_A]), 0xff80_0005);
    assert_eq!(e32(Op::Fabs, IEEE, &[SNAN_B]), 0x7f80_0009);
    assert_eq!(e32(Op::Fcopysign, IEEE, &[SNAN_A, f(-2.0)]), 0xff80_0005);
    assert_eq!(e32(Op::Fcopysign, IEEE, &[f(-3.0), 0]), f(3.0));
    assert_eq!(e64(Op::Fneg, IEEE, &[0]), 0x8000_0000_0000_0000);
    assert_eq!(e16(Op::Fabs, IEEE, &[0xfc01]), 0x7c01);
}

#[test]
fn legacy_multiply_zero_wins() {
    let inf = f(f32::INFINITY);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[0, inf]), 0);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[0x8000_0000, QNAN_A]), 0);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[SNAN_B, 0x8000_0000]), 0);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[inf, f(-0.0)]), 0);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[f(-2.0), f(3.0)]), f(-6.0));
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[SNAN_A, f(2.0)]), 0x7fc0_0005);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[inf, inf]), inf);
    // A denormal is a zero only once flushed.
    assert_eq!(e32(Op::FmulLegacy, FIN, &[DENORM, inf]), 0);
    assert_eq!(e32(Op::FmulLegacy, IEEE, &[DENORM, inf]), inf);
    // fmad_legacy = fadd(fmul_legacy(a, b), c): +0 + -0 = +0.
    assert_eq!(e32(Op::FmadLegacy, IEEE, &[0, QNAN_A, f(5.0)]), f(5.0));
    assert_eq!(e32(Op::FmadLegacy, IEEE, &[0, inf, 0x8000_0000]), 0);
    assert_eq!(e32(Op::FmadLegacy, IEEE, &[f(2.0), f(3.0), f(1.0)]), f(7.0));
    assert_eq!(
        e64(Op::FmulLegacy, IEEE, &[0x8000_0000_0000_0000, d(f64::NAN)]),
        0
    );
    assert_eq!(e16(Op::FmulLegacy, IEEE, &[0x8000, 0x7c00]), 0);
}

#[test]
fn canonicalize_quiets_and_flushes() {
    assert_eq!(e32(Op::Fcanonicalize, IEEE, &[SNAN_A]), 0x7fc0_0005);
    assert_eq!(e32(Op::Fcanonicalize, IEEE, &[DENORM]), DENORM);
    assert_eq!(e32(Op::Fcanonicalize, FIN, &[0x8000_0001]), 0x8000_0000);
    assert_eq!(e32(Op::Fcanonicalize, FOUT, &[DENORM]), 0);
    assert_eq!(e32(Op::Fcanonicalize, IEEE, &[0x8000_0000]), 0x8000_0000);
    assert_eq!(
        e32(Op::Fcanonicalize, IEEE, &[f(f32::INFINITY)]),
        f(f32::INFINITY)
    );
    assert_eq!(
        e64(Op::Fcanonicalize, IEEE, &[0x7ff0_0000_0000_0001]),
        0x7ff8_0000_0000_0001
    );
    assert_eq!(e16(Op::Fcanonicalize, FIN, &[0x03ff]), 0);
}

fn mm(rule: MinMax, max: bool, mode: FloatMode, a: u32, b: u32) -> u32 {
    e32(
        if max { Op::Fmax(rule) } else { Op::Fmin(rule) },
        mode,
        &[a, b],
    )
}

#[test]
fn min_max_nan_and_signed_zero_rules() {
    let (one, two, nz) = (ONE, f(2.0), 0x8000_0000);
    for rule in [MinMax::Ieee, MinMax::NonIeee] {
        assert_eq!(mm(rule, false, IEEE, one, two), one);
        assert_eq!(mm(rule, true, IEEE, one, two), two);
        assert_eq!(mm(rule, false, IEEE, QNAN_A, two), two, "{rule:?}");
        assert_eq!(mm(rule, false, IEEE, two, QNAN_A), two, "{rule:?}");
        assert_eq!(mm(rule, true, IEEE, QNAN_B, one), one, "{rule:?}");
        assert_eq!(mm(rule, true, IEEE, QNAN_B, QNAN_A), QNAN_B, "{rule:?}");
        // -0 orders below +0, in both operand orders.
        assert_eq!(mm(rule, false, IEEE, 0, nz), nz, "{rule:?}");
        assert_eq!(mm(rule, false, IEEE, nz, 0), nz, "{rule:?}");
        assert_eq!(mm(rule, true, IEEE, 0, nz), 0, "{rule:?}");
        assert_eq!(mm(rule, true, IEEE, nz, 0), 0, "{rule:?}");
    }
    // A signalling NaN: IEEE returns the NaN rule's quiet NaN, non-IEEE ignores it.
    assert_eq!(mm(MinMax::Ieee, false, IEEE, SNAN_A, one), 0x7fc0_0005);
    assert_eq!(mm(MinMax::Ieee, true, IEEE, one, SNAN_B), 0xffc0_0009);
    assert_eq!(mm(MinMax::Ieee, true, IEEE, QNAN_A, SNAN_B), QNAN_A);
    assert_eq!(mm(MinMax::NonIeee, false, IEEE, SNAN_A, one), one);
    assert_eq!(mm(MinMax::NonIeee, true, IEEE, one, SNAN_B), one);
    assert_eq!(mm(MinMax::NonIeee, true, IEEE, SNAN_B, SNAN_A), 0xffc0_0009);
    // Legacy: a < b ? a : b, so NaNs and equal zeros give b (quieted if NaN).
    let l = MinMax::Legacy;
    assert_eq!(mm(l, false, IEEE, one, two), one);
    assert_eq!(mm(l, true, IEEE, one, two), two);
    assert_eq!(mm(l, false, IEEE, QNAN_A, two), two);
    assert_eq!(mm(l, false, IEEE, two, SNAN_A), 0x7fc0_0005);
    assert_eq!(mm(l, true, IEEE, two, QNAN_B), QNAN_B);
    assert_eq!(mm(l, false, IEEE, nz, 0), 0);
    assert_eq!(mm(l, false, IEEE, 0, nz), nz);
    assert_eq!(mm(l, true, IEEE, nz, 0), 0);
    assert_eq!(mm(l, true, IEEE, 0, nz), nz);
    // Flushing applies to min/max operands and results.
    assert_eq!(mm(MinMax::Ieee, false, FOUT, DENORM, one), 0);
    assert_eq!(mm(MinMax::Ieee, true, FIN, DENORM, 0x8000_0000), 0);
    assert_eq!(mm(MinMax::Ieee, true, IEEE, DENORM, 0x8000_0000), DENORM);
    // Other widths.
    assert_eq!(
        e64(
            Op::Fmin(MinMax::NonIeee),
            IEEE,
            &[0x7ff8_0000_0000_0000, d(-1.0)]
        ),
        d(-1.0)
    );
    assert_eq!(e16(Op::Fmax(MinMax::Ieee), IEEE, &[0x8000, 0x0000]), 0x0000);
}

#[test]
fn med3_median_and_nan_rules() {
    let v = |x: f32| f(x);
    let med = |rule, a, b, c| e32(Op::Fmed3(rule), IEEE, &[a, b, c]);
    for rule in [MinMax::Ieee, MinMax::NonIeee, MinMax::Legacy] {
        for p in [
            [1.0, 2.0, 3.0],
            [1.0, 3.0, 2.0],
            [2.0, 1.0, 3.0],
            [2.0, 3.0, 1.0],
            [3.0, 1.0, 2.0],
            [3.0, 2.0, 1.0],
        ] {
            assert_eq!(
                med(rule, v(p[0]), v(p[1]), v(p[2])),
                v(2.0),
                "{rule:?} {p:?}"
            );
        }
        // With a NaN, the minimum of the others, whatever its position.
        assert_eq!(med(rule, QNAN_A, v(3.0), v(2.0)), v(2.0), "{rule:?}");
        assert_eq!(med(rule, v(3.0), QNAN_A, v(2.0)), v(2.0), "{rule:?}");
        assert_eq!(med(rule, v(3.0), v(2.0), QNAN_A), v(2.0), "{rule:?}");
        assert_eq!(med(rule, QNAN_A, QNAN_B, v(5.0)), v(5.0), "{rule:?}");
        assert_eq!(med(rule, QNAN_B, QNAN_A, QNAN_A), QNAN_B, "{rule:?}");
        // Signed zeros: -0 < +0.
        assert_eq!(med(rule, 0x8000_0000, 0, 0), 0, "{rule:?}");
        assert_eq!(
            med(rule, 0x8000_0000, 0x8000_0000, 0),
            0x8000_0000,
            "{rule:?}"
        );
        assert_eq!(
            med(rule, v(-1.0), 0x8000_0000, v(f32::INFINITY)),
            0x8000_0000,
            "{rule:?}"
        );
    }
    assert_eq!(med(MinMax::Ieee, v(3.0), SNAN_A, v(2.0)), 0x7fc0_0005);
    assert_eq!(med(MinMax::NonIeee, v(3.0), SNAN_A, v(2.0)), v(2.0));
    assert_eq!(e32(Op::Fmed3(MinMax::Ieee), FOUT, &[DENORM, 0, ONE]), 0);
    assert_eq!(
        e64(Op::Fmed3(MinMax::Ieee), IEEE, &[d(5.0), d(-1.0), d(4.0)]),
        d(4.0)
    );
    assert_eq!(
        e16(Op::Fmed3(MinMax::NonIeee), IEEE, &[0x4000, 0x7e00, 0x3c00]),
        0x3c00
    );
}

#[test]
fn clamp_to_unit_interval() {
    for dx10 in [false, true] {
        let c = |x: u32| e32(Op::Fclamp { dx10 }, IEEE, &[x]);
        assert_eq!(c(f(2.0)), ONE);
        assert_eq!(c(f(0.25)), f(0.25));
        assert_eq!(c(f(-3.0)), 0);
        assert_eq!(c(0x8000_0000), 0);
        assert_eq!(c(f(f32::INFINITY)), ONE);
        assert_eq!(c(f(f32::NEG_INFINITY)), 0);
        assert_eq!(c(ONE), ONE);
        assert_eq!(c(SNAN_A), if dx10 { 0 } else { 0x7fc0_0005 });
    }
    assert_eq!(e32(Op::Fclamp { dx10: true }, FOUT, &[DENORM]), 0);
    assert_eq!(e64(Op::Fclamp { dx10: false }, IEEE, &[d(1.5)]), d(1.0));
    assert_eq!(e16(Op::Fclamp { dx10: true }, IEEE, &[0x7e00]), 0);
}

/// Interesting f32 values: zeros, denormals, normals, extremes, infinities, NaNs.
fn specials32() -> Vec<u32> {
    vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        MIN_NORMAL,
        ONE,
        0xbf80_0000,
        f(1.5),
        f(-2.5),
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        QNAN_A,
        QNAN_B,
        SNAN_A,
        SNAN_B,
        f(3.0),
        f(1e-30),
    ]
}

#[test]
fn comparisons_match_host_ieee() {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let all = [
        FloatCC::Eq,
        FloatCC::Ne,
        FloatCC::Lt,
        FloatCC::Le,
        FloatCC::Gt,
        FloatCC::Ge,
        FloatCC::One,
        FloatCC::Ord,
        FloatCC::Uno,
        FloatCC::Ueq,
        FloatCC::Une,
        FloatCC::Ult,
        FloatCC::Ule,
        FloatCC::Ugt,
        FloatCC::Uge,
    ];
    for &a in &specials32() {
        for &b in &specials32() {
            let (x, y) = (f32::from_bits(a), f32::from_bits(b));
            let uno = x.is_nan() || y.is_nan();
            let ord = x.partial_cmp(&y);
            for cc in all {
                let want = match cc {
                    FloatCC::Eq => x == y,
                    FloatCC::Ne => !uno && x != y,
                    FloatCC::Lt => x < y,
                    FloatCC::Le => x <= y,
                    FloatCC::Gt => x > y,
                    FloatCC::Ge => x >= y,
                    FloatCC::One => matches!(ord, Some(Less | Greater)),
                    FloatCC::Ord => !uno,
                    FloatCC::Uno => uno,
                    FloatCC::Ueq => uno || x == y,
                    FloatCC::Une => x != y,
                    FloatCC::Ult => matches!(ord, None | Some(Less)),
                    FloatCC::Ule => matches!(ord, None | Some(Less | Equal)),
                    FloatCC::Ugt => matches!(ord, None | Some(Greater)),
                    FloatCC::Uge => matches!(ord, None | Some(Greater | Equal)),
                };
                let got = ev(Op::Fcmp(cc), IEEE, F32, &[u64::from(a), u64::from(b)]);
                assert_eq!(got, u64::from(want), "{cc:?} {a:#x} {b:#x}");
            }
        }
    }
}

#[test]
fn class_bits() {
    let cases: [(u32, u32); 10] = [
        (SNAN_A, 0),
        (QNAN_B, 1),
        (0xff80_0000, 2),
        (f(-1.0), 3),
        (0x8000_0001, 4),
        (0x8000_0000, 5),
        (0, 6),
        (1, 7),
        (ONE, 8),
        (0x7f80_0000, 9),
    ];
    for (x, bit) in cases {
        for probe in 0..10 {
            let got = eval(
                Op::Fclass,
                IEEE,
                I1,
                &[F32, I32],
                &[u64::from(x), 1 << probe],
            );
            assert_eq!(got, u64::from(probe == bit), "{x:#x} probe {probe}");
        }
        assert_eq!(
            eval(Op::Fclass, IEEE, I1, &[F32, I32], &[u64::from(x), 0x3ff]),
            1
        );
    }
    assert_eq!(eval(Op::Fclass, IEEE, I1, &[F64, I32], &[1, 1 << 7]), 1);
    assert_eq!(
        eval(Op::Fclass, IEEE, I1, &[F16, I32], &[0xfc00, 1 << 2]),
        1
    );
    assert_eq!(eval(Op::Fclass, IEEE, I1, &[F16, I32], &[0x7d00, 1]), 1);
}

/// A deterministic stream of float bit patterns: a quarter with exponents near 1.0 (so
/// sums and products stay finite and round), the rest arbitrary bits.
fn patterns(seed: u64, n: usize, width: u32) -> Vec<u64> {
    let (mant, bias) = match width {
        64 => (52, 1023),
        32 => (23, 127),
        _ => (10, 15),
    };
    let m = if width == 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    };
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = s ^ (s >> 29);
            if r.is_multiple_of(4) {
                let e = bias - 8 + (r >> 59) % 16;
                (r & ((1 << mant) - 1)) | (e << mant) | ((r >> 40 & 1) << (width - 1))
            } else {
                r & m
            }
        })
        .collect()
}

#[test]
fn round_to_nearest_arithmetic_matches_host() {
    let a32 = patterns(1, 3000, 32);
    let b32 = patterns(2, 3000, 32);
    for (&a, &b) in a32.iter().zip(&b32) {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        for (op, host) in [
            (Op::Fadd, x + y),
            (Op::Fsub, x - y),
            (Op::Fmul, x * y),
            (Op::Fdiv, x / y),
        ] {
            let got = ev(op, IEEE, F32, &[a, b]) as u32;
            if host.is_nan() {
                assert!(f32::from_bits(got).is_nan(), "{op:?} {a:#x} {b:#x}");
            } else {
                assert_eq!(got, host.to_bits(), "{op:?} {a:#x} {b:#x}");
            }
        }
        let c = a.rotate_left(7) & 0xffff_ffff;
        let host = x.mul_add(y, f32::from_bits(c as u32));
        let got = ev(Op::Fma, IEEE, F32, &[a, b, c]) as u32;
        assert!(
            if host.is_nan() {
                f32::from_bits(got).is_nan()
            } else {
                got == host.to_bits()
            },
            "fma {a:#x} {b:#x} {c:#x}"
        );
    }
    for (&a, &b) in patterns(3, 3000, 64).iter().zip(&patterns(4, 3000, 64)) {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        for (op, host) in [
            (Op::Fadd, x + y),
            (Op::Fsub, x - y),
            (Op::Fmul, x * y),
            (Op::Fdiv, x / y),
        ] {
            let got = ev(op, IEEE, F64, &[a, b]);
            assert!(
                if host.is_nan() {
                    f64::from_bits(got).is_nan()
                } else {
                    got == host.to_bits()
                },
                "{op:?} {a:#x} {b:#x}"
            );
        }
    }
}

#[test]
fn f16_arithmetic_matches_the_half_crate() {
    use half::f16;
    // Sums, differences and products of two f16 are exact in f64; quotients round twice
    // innocuously (53 >= 2 * 11 + 2), so `half`'s f64 -> f16 conversion is the oracle.
    for a in (0u16..=0xffff).step_by(97) {
        for b in (0u16..=0xffff).step_by(1013) {
            let (x, y) = (f16::from_bits(a).to_f64(), f16::from_bits(b).to_f64());
            for (op, host) in [
                (Op::Fadd, x + y),
                (Op::Fsub, x - y),
                (Op::Fmul, x * y),
                (Op::Fdiv, x / y),
            ] {
                let got = e16(op, IEEE, &[a, b]);
                if host.is_nan() {
                    assert!(f16::from_bits(got).is_nan(), "{op:?} {a:#x} {b:#x}");
                } else {
                    assert_eq!(got, f16::from_f64(host).to_bits(), "{op:?} {a:#x} {b:#x}");
                }
            }
        }
    }
}
