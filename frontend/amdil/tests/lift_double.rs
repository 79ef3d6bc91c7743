//! The double-precision instructions on both engines, one lane per case of an edge-value table,
//! against references written here from seed 001's rules (the line is at each reference): host
//! `f64` arithmetic, which is IEEE (denormals kept, round to nearest even), plus what the entry
//! states (the denormal rules of dfrac, dfrexp and dldexp, the dmax/dmin formulas, the zeroop
//! values, the conversions' edges). NaN results are any NaN where the seed gives no bits.

mod lift_common;
mod pair_common;
use lift_common::*;
use pair_common::*;

/// An expected 64-bit result: exact bits, any NaN, or a NaN of the given sign.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Exp {
    Bits(u64),
    Nan,
    SignedNan(bool),
}
use Exp::{Bits, Nan, SignedNan};

/// Edge values: ±0, ±1, 1.5, -2.5, ±inf, a quiet NaN, a negative signalling NaN, the smallest
/// and the largest negative denormal, the largest finite, the smallest normal, 3, 0.5, half an
/// ulp of 1 (a tie when added to 1), 1 + ulp, 2^52 + 1, -2^31, 2^31, 2^32 - 1, 1e300.
const D: [u64; 23] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x3ff8_0000_0000_0000,
    0xc004_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0xfff4_0000_0000_0001,
    0x0000_0000_0000_0001,
    0x800f_ffff_ffff_ffff,
    0x7fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
    0x4008_0000_0000_0000,
    0x3fe0_0000_0000_0000,
    0x3ca0_0000_0000_0000,
    0x3ff0_0000_0000_0001,
    0x4330_0000_0000_0001,
    0xc1e0_0000_0000_0000,
    0x41e0_0000_0000_0000,
    0x41ef_ffff_ffe0_0000,
    0x7e37_e43c_8800_759c,
];

/// A smaller set for three-operand instructions.
const D3: [u64; 12] = [
    0x0000_0000_0000_0000,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0001,
    0xbff0_0000_0000_0000,
    0x7ff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x0000_0000_0000_0001,
    0x7fef_ffff_ffff_ffff,
    0x3ca0_0000_0000_0000,
    0xc004_0000_0000_0000,
    0x3fef_ffff_ffff_ffff,
    0x0010_0000_0000_0000,
];

fn d(x: u64) -> f64 {
    f64::from_bits(x)
}

fn is_nan(x: u64) -> bool {
    d(x).is_nan()
}

fn is_denormal(x: u64) -> bool {
    x & 0x7ff0_0000_0000_0000 == 0 && x & 0x000f_ffff_ffff_ffff != 0
}

/// A host result.
fn out(v: f64) -> Exp {
    if v.is_nan() {
        Nan
    } else {
        Bits(v.to_bits())
    }
}

fn matches(e: Exp, got: u64) -> bool {
    match e {
        Bits(b) => b == got,
        Nan => is_nan(got),
        SignedNan(neg) => is_nan(got) && (got >> 63 == 1) == neg,
    }
}

/// Runs `line`, whose sources are r0.xy, r1.xy, r2.xy and whose destination is r4.xy, and
/// checks r4.xy against `reference` and r4.zw unwritten.
fn check<const N: usize>(line: &str, cases: &[[u64; N]], reference: impl Fn([u64; N]) -> Exp) {
    run_cases(line, cases, |case, r4| {
        let got = pair(r4[0], r4[1]);
        let want = reference(*case);
        assert!(
            matches(want, got),
            "{line}: operands {case:016x?}: got {got:#018x}, want {want:x?}"
        );
        assert_eq!([r4[2], r4[3]], [SENTINEL; 2], "{line}: r4.zw written");
    });
}

/// Runs `line`, which writes one 32-bit result to every component of r4, and checks each
/// component against `reference`.
fn check32<const N: usize>(line: &str, cases: &[[u64; N]], reference: impl Fn([u64; N]) -> u32) {
    run_cases(line, cases, |case, r4| {
        let want = reference(*case);
        assert_eq!(r4, [want; 4], "{line}: operands {case:016x?}");
    });
}

#[test]
fn add_mul_div_are_ieee_with_denormals() {
    check("dadd r4.xy__, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        out(d(a) + d(b))
    });
    check("dmul r4.xy__, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        out(d(a) * d(b))
    });
    check("ddiv r4.xy__, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        out(d(a) / d(b))
    });
    // Ties to even: 1 + 2^-53 is 1, (1 + 2^-52) + 2^-53 is 1 + 2^-51.
    let half_ulp = 0x3ca0_0000_0000_0000;
    check(
        "dadd r4.xy__, r0.xyxy, r1.xyxy",
        &[[0x3ff0_0000_0000_0000, half_ulp]],
        |_| Bits(0x3ff0_0000_0000_0000),
    );
    check(
        "dadd r4.xy__, r0.xyxy, r1.xyxy",
        &[[0x3ff0_0000_0000_0001, half_ulp]],
        |_| Bits(0x3ff0_0000_0000_0002),
    );
    // Denormals are kept: the smallest normals' difference, and a denormal sum.
    check(
        "dadd r4.xy__, r0.xyxy, r1.xyxy",
        &[[0x0010_0000_0000_0001, 0x8010_0000_0000_0000]],
        |_| Bits(1),
    );
    check(
        "dmul r4.xy__, r0.xyxy, r1.xyxy",
        &[[0x0010_0000_0000_0000, 0x3fe0_0000_0000_0000]],
        |_| Bits(0x0008_0000_0000_0000),
    );
    // 0 * inf and inf - inf are NaN; x / 0 is a signed infinity.
    check(
        "dmul r4.xy__, r0.xyxy, r1.xyxy",
        &[[0, 0x7ff0_0000_0000_0000]],
        |_| Nan,
    );
    check(
        "ddiv r4.xy__, r0.xyxy, r1.xyxy",
        &[[0xbff0_0000_0000_0000, 0]],
        |_| Bits(0xfff0_0000_0000_0000),
    );
}

#[test]
fn dmad_is_fused() {
    check(
        "dmad r4.xy__, r0.xyxy, r1.xyxy, r2.xyxy",
        &triples(&D3),
        |[a, b, c]| out(d(a).mul_add(d(b), d(c))),
    );
    // (1 + 2^-52)(1 - 2^-53) - 1 = 2^-53 - 2^-105 exactly: a fused multiply-add keeps it.
    check(
        "dmad r4.xy__, r0.xyxy, r1.xyxy, r2.xyxy",
        &[[
            0x3ff0_0000_0000_0001,
            0x3fef_ffff_ffff_ffff,
            0xbff0_0000_0000_0000,
        ]],
        |_| Bits((2f64.powi(-53) - 2f64.powi(-105)).to_bits()),
    );
}

/// dmax: `src0 >= src1 ? src0 : src1`, dmin: `src0 < src1 ? src0 : src1` (L9366, L9403), the
/// other operand when one is NaN (L9370).
fn max_min(a: u64, b: u64, max: bool) -> Exp {
    let (x, y) = (d(a), d(b));
    if x.is_nan() && y.is_nan() {
        return Nan;
    }
    let take_x = y.is_nan() || if max { x >= y } else { x < y };
    Bits(if take_x { a } else { b })
}

#[test]
fn dmax_dmin_follow_their_formulas() {
    check("dmax r4.xy__, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        max_min(a, b, true)
    });
    check("dmin r4.xy__, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        max_min(a, b, false)
    });
    // Equal zeros: dmax gives src0, dmin src1.
    let (pz, nz) = (0, 0x8000_0000_0000_0000);
    check("dmax r4.xy__, r0.xyxy, r1.xyxy", &[[nz, pz]], |_| Bits(nz));
    check("dmin r4.xy__, r0.xyxy, r1.xyxy", &[[nz, pz]], |_| Bits(pz));
    // A NaN operand gives the other, a signalling one too.
    check(
        "dmax r4.xy__, r0.xyxy, r1.xyxy",
        &[[0x3ff0_0000_0000_0000, 0xfff4_0000_0000_0001]],
        |_| Bits(0x3ff0_0000_0000_0000),
    );
}

#[test]
fn compares_broadcast_one_mask_and_follow_ieee() {
    let mask = |c: bool| if c { u32::MAX } else { 0 };
    check32("deq r4, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        mask(d(a) == d(b))
    });
    check32("dge r4, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        mask(d(a) >= d(b))
    });
    check32("dlt r4, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        mask(d(a) < d(b))
    });
    // NaN: false, but dne true (L9519).
    check32("dne r4, r0.xyxy, r1.xyxy", &pairs(&D), |[a, b]| {
        mask(d(a) != d(b))
    });
    // Denormals are not zero: -0 < the smallest denormal, and not >= it.
    let (nz, tiny) = (0x8000_0000_0000_0000, 1);
    check32("dlt r4, r0.xyxy, r1.xyxy", &[[nz, tiny]], |_| u32::MAX);
    check32("dge r4, r0.xyxy, r1.xyxy", &[[nz, tiny]], |_| 0);
    // +0 and -0 are equal.
    check32("deq r4, r0.xyxy, r1.xyxy", &[[0, nz]], |_| u32::MAX);
}

/// dfrac (L9230, table L9238): NaN for ±inf and NaN, +0 for denormals, else x - floor(x)
/// below 1.
fn frac(a: u64) -> Exp {
    let x = d(a);
    if !x.is_finite() {
        return Nan;
    }
    if is_denormal(a) {
        return Bits(0);
    }
    let r = x - x.floor();
    Bits(if r >= 1.0 { 1f64.next_down() } else { r }.to_bits())
}

#[test]
fn dfrac_reads_denormals_as_zero() {
    check("dfrac r4.xy__, r0.xyxy", &singles(&D), |[a]| frac(a));
    // A tiny negative number would round to 1.0: the result stays below 1.
    check("dfrac r4.xy__, r0.xyxy", &[[0xbc90_0000_0000_0000]], |_| {
        Bits(0x3fef_ffff_ffff_ffff)
    });
    check("dfrac r4.xy__, r0.xyxy", &[[0xc004_0000_0000_0000]], |_| {
        Bits(0.5f64.to_bits())
    });
}

/// dfrexp (L9252-L9262): (exponent, mantissa); zeros and denormals give (0, ±0), a NaN (-1,
/// the NaN quieted), ±inf (-1, 0xFFF8000000000000).
fn frexp(a: u64) -> (u32, u64) {
    let sign = a & 0x8000_0000_0000_0000;
    let field = (a >> 52) & 0x7ff;
    match field {
        0 => (0, sign),
        0x7ff if a & 0x000f_ffff_ffff_ffff == 0 => (u32::MAX, 0xfff8_0000_0000_0000),
        0x7ff => (u32::MAX, a | 0x0008_0000_0000_0000),
        e => (
            (e as i32 - 1022) as u32,
            (a & !0x7ff0_0000_0000_0000) | 0x3fe0_0000_0000_0000,
        ),
    }
}

#[test]
fn dfrexp_splits_into_four_components() {
    run_cases("dfrexp r4, r0.xyxy", &singles(&D), |&[a], r4| {
        let (e, m) = frexp(a);
        assert_eq!(r4, [0, e, lo(m), hi(m)], "dfrexp {a:#018x}");
    });
    // 1.0 = 0.5 * 2^1; -2.5 = -0.625 * 2^2.
    let (e, m) = frexp(0xc004_0000_0000_0000);
    assert_eq!((e, d(m)), (2, -0.625));
    // A mask writes only its components, 0 and 1 included.
    run_cases(
        "dfrexp r4._y1_, r0.xyxy",
        &[[0x4008_0000_0000_0000]],
        |_, r4| {
            assert_eq!(r4, [SENTINEL, 2, 0x3f80_0000, SENTINEL]);
        },
    );
}

#[test]
fn frexp_exp_and_mant_are_dfrexps_halves() {
    check32("d_frexp_exp r4, r0.xyxy", &singles(&D), |[a]| frexp(a).0);
    check("d_frexp_mant r4.xy__, r0.xyxy", &singles(&D), |[a]| {
        Bits(frexp(a).1)
    });
}

/// dldexp (L9308-L9311): x * 2^n rounded once, a result below the normal range is ±0.
fn ldexp(a: u64, n: u32) -> Exp {
    let mut x = d(a);
    if x.is_nan() {
        return Nan;
    }
    // Doubling is exact, and so is halving until the value leaves the normal range, after
    // which the result is flushed whatever the rounding.
    let n = n as i32;
    for _ in 0..n.unsigned_abs().min(2200) {
        x *= if n > 0 { 2.0 } else { 0.5 };
    }
    if x != 0.0 && x.abs() < f64::MIN_POSITIVE {
        x = 0.0f64.copysign(x);
    }
    Bits(x.to_bits())
}

#[test]
fn dldexp_scales_and_flushes_underflow() {
    let exps: [u32; 11] = [
        0,
        1,
        0xffff_ffff,
        52,
        1023,
        1024,
        0xffff_fc02,
        0xffff_fbcd,
        2000,
        0x8000_0000,
        0x7fff_ffff,
    ];
    let cases: Vec<[u64; 2]> = D
        .iter()
        .flat_map(|&x| exps.iter().map(move |&n| [x, u64::from(n)]))
        .collect();
    check("dldexp r4.xy__, r0.xyxy, r1.x", &cases, |[a, n]| {
        ldexp(a, n as u32)
    });
    // The exponent takes neg (a 32-bit negate): 1.0 * 2^-(-3) = 8.
    check(
        "dldexp r4.xy__, r0.xyxy, r1.x_neg(x)",
        &[[0x3ff0_0000_0000_0000, 0xffff_fffd]],
        |_| Bits(8f64.to_bits()),
    );
    // A denormal input is kept when the result is normal.
    check("dldexp r4.xy__, r0.xyxy, r1.x", &[[1, 1074]], |_| {
        Bits(1f64.to_bits())
    });
}

#[test]
fn dsqrt_is_correctly_rounded() {
    check("dsqrt r4.xy__, r0.xyxy", &singles(&D), |[a]| {
        out(d(a).sqrt())
    });
    check("dsqrt r4.xy__, r0.xyxy", &[[0x8000_0000_0000_0000]], |_| {
        Bits(0x8000_0000_0000_0000)
    });
    check("dsqrt r4.xy__, r0.xyxy", &[[2f64.to_bits()]], |_| {
        Bits(std::f64::consts::SQRT_2.to_bits())
    });
}

/// The zeroop value for a zero input (L9553-L9563): fltmax (the default), zero, infinity,
/// inf_else_max.
const AT_ZERO: [(&str, f64); 5] = [
    ("", f64::MAX),
    ("_zeroop(fltmax)", f64::MAX),
    ("_zeroop(zero)", 0.0),
    ("_zeroop(infinity)", f64::INFINITY),
    ("_zeroop(inf_else_max)", f64::INFINITY),
];

#[test]
fn drcp_drsq_with_their_zeroop() {
    for (zeroop, at_zero) in AT_ZERO {
        let zero_or = |a: u64, v: f64| {
            if d(a) == 0.0 {
                Bits(at_zero.to_bits())
            } else {
                out(v)
            }
        };
        check(
            &format!("drcp{zeroop} r4.xy__, r0.xyxy"),
            &singles(&D),
            |[a]| zero_or(a, 1.0 / d(a)),
        );
        // 1/sqrt(x): NaN below zero (the entry leaves it unset), 0 at +inf.
        check(
            &format!("drsq{zeroop} r4.xy__, r0.xyxy"),
            &singles(&D),
            |[a]| zero_or(a, 1.0 / d(a).sqrt()),
        );
    }
}

#[test]
fn dmov_and_dmovc_move_bits() {
    check("dmov r4.xy__, r0.xyxy", &singles(&D), |[a]| Bits(a));
    // dmovc: src1 where src0.x is 0 (L9450), else src2; any set bit counts.
    let conds = [0u64, 1, 0x8000_0000, 0xffff_ffff_0000_0000];
    let cases: Vec<[u64; 3]> = conds
        .iter()
        .flat_map(|&c| [[c, 0x7ff4_0000_0000_0001, 0xbff0_0000_0000_0000]])
        .collect();
    check(
        "dmovc r4.xy__, r0.x, r1.xyxy, r2.xyxy",
        &cases,
        |[c, t, f]| Bits(if lo(c) == 0 { t } else { f }),
    );
}

/// A float's bits with a denormal read as a zero of its sign.
fn flush32(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

#[test]
fn d2f_rounds_to_nearest_even_and_broadcasts() {
    run_cases("d2f r4, r0.xyxy", &singles(&D), |&[a], r4| {
        let got = r4[0];
        assert_eq!(r4, [got; 4], "d2f {a:#018x}: broadcast");
        let x = d(a);
        if x.is_nan() {
            assert!(
                f32::from_bits(got).is_nan() && got >> 31 == (a >> 63) as u32,
                "d2f {a:#018x}: {got:#x}"
            );
        } else {
            // Rust's `as` rounds to nearest even; a denormal float result is flushed (L3055).
            assert_eq!(got, flush32((x as f32).to_bits()), "d2f {a:#018x}");
        }
    });
    // Halfway between two floats: to even. 1 + 2^-24 -> 1.0; 1 + 3 * 2^-24 -> 1 + 2^-22.
    check32("d2f r4, r0.xyxy", &[[0x3ff0_0000_1000_0000]], |_| {
        0x3f80_0000
    });
    check32("d2f r4, r0.xyxy", &[[0x3ff0_0000_3000_0000]], |_| {
        0x3f80_0002
    });
    // Too large: inf; the float denormal range: flushed.
    check32("d2f r4, r0.xyxy", &[[0x47f0_0000_0000_0000]], |_| {
        0x7f80_0000
    });
    check32("d2f r4, r0.xyxy", &[[0x3800_0000_0000_0000]], |_| 0);
    // The result is a float: float result modifiers apply.
    check32("d2f_sat r4, r0.xyxy", &[[0x4008_0000_0000_0000]], |_| {
        0x3f80_0000
    });
}

const F: [u32; 10] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xc020_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0001,
    0x0000_0001,
    0x807f_ffff,
    0x7f7f_ffff,
];

#[test]
fn f2d_is_exact_and_flushes_denormal_floats() {
    let cases: Vec<[u64; 1]> = F.iter().map(|&x| [u64::from(x)]).collect();
    check("f2d r4.xy__, r0.x", &cases, |[a]| {
        let x = f32::from_bits(a as u32);
        if x.is_nan() {
            SignedNan(x.is_sign_negative())
        } else {
            Bits(f64::from(f32::from_bits(flush32(a as u32))).to_bits())
        }
    });
    // The float source takes float modifiers: -|x|.
    check(
        "f2d r4.xy__, r0.x_abs_neg(x)",
        &[[u64::from(1.5f32.to_bits())]],
        |_| Bits((-1.5f64).to_bits()),
    );
}

#[test]
fn double_int_conversions() {
    // Toward zero, saturating, NaN to 0: Rust's `as` is that rule.
    check32("dtoi r4, r0.xyxy", &singles(&D), |[a]| d(a) as i32 as u32);
    check32("dtou r4, r0.xyxy", &singles(&D), |[a]| d(a) as u32);
    let ints: Vec<[u64; 1]> = [0u32, 1, 0xffff_ffff, 0x8000_0000, 0x7fff_ffff, 0x0100_0001]
        .iter()
        .map(|&x| [u64::from(x)])
        .collect();
    check("itod r4.xy__, r0.x", &ints, |[a]| {
        Bits(f64::from(a as u32 as i32).to_bits())
    });
    check("utod r4.xy__, r0.x", &ints, |[a]| {
        Bits(f64::from(a as u32).to_bits())
    });
}

#[test]
fn sources_are_the_swizzled_xy_with_sign_modifiers_on_the_high_dword() {
    let (a, b) = (1.25f64, -3.0f64);
    let both = |l: &mut Launch| {
        l.set_r(0, 0, |_| lo(a.to_bits()));
        l.set_r(0, 1, |_| hi(a.to_bits()));
        l.set_r(0, 2, |_| lo(b.to_bits()));
        l.set_r(0, 3, |_| hi(b.to_bits()));
    };
    let run = |line: &str| -> f64 {
        let k = Kernel::new(&format!("il_cs_2_0\n{line}\nend\n"));
        let mut l = k.launch();
        both(&mut l);
        let done = l.go();
        d(pair(done.r(4, 0, 0), done.r(4, 1, 0)))
    };
    // .zw reads the second pair (the text's short swizzle repeats its last letter).
    assert_eq!(run("dadd r4.xy__, r0.xyxy, r0.zw"), a + b);
    assert_eq!(run("dadd r4.xy__, r0.zwzw, r0.zwzw"), b + b);
    // neg on the high dword's component flips the sign; on the low one it is ignored (L613).
    assert_eq!(run("dadd r4.xy__, r0.xyxy, r0.zw_neg(y)"), a - b);
    assert_eq!(run("dadd r4.xy__, r0.xyxy, r0.zw_neg(x)"), a + b);
    assert_eq!(run("dmul r4.xy__, r0.zw_abs, r0.xy"), b.abs() * a);
    assert_eq!(run("dmul r4.xy__, r0.zw_abs_neg(y), r0.xy"), -b.abs() * a);
    // The shift_scale of a double result scales the double.
    assert_eq!(run("dadd_x4 r4.xy__, r0.xyxy, r0.zwzw"), (a + b) * 4.0);
    assert_eq!(run("dmul_d8 r4.xy__, r0.xyxy, r0.zwzw"), a * b / 8.0);
}

#[test]
fn results_go_to_xy_or_zw_and_masks_write_zero_and_one() {
    let x = 2.5f64.to_bits();
    run_cases("dmov r4.__zw, r0.xyxy", &[[x]], |_, r4| {
        assert_eq!(r4, [SENTINEL, SENTINEL, lo(x), hi(x)]);
    });
    run_cases("itod r4.10zw, r0.x", &[[7]], |_, r4| {
        assert_eq!(r4, [0x3f80_0000, 0, lo(7f64.to_bits()), hi(7f64.to_bits())]);
    });
    // Inactive lanes keep their registers.
    let k = Kernel::new("il_cs_2_0\ndmov r4.xy__, r0.xyxy\nend\n");
    let mut l = k.launch();
    l.set_r(0, 0, |_| 1);
    l.set_r(0, 1, |_| 2);
    l.set_exec(0xffff_0000_ffff_0000);
    let done = l.go();
    for lane in 0..LANES {
        let active = 0xffff_0000_ffff_0000u64 >> lane & 1 == 1;
        assert_eq!(
            done.r(4, 0, lane),
            if active { 1 } else { 0 },
            "lane {lane}"
        );
    }
}

#[test]
fn refusals() {
    use wavejit_amdil::lift::LiftErrorKind::{Invalid, Unsupported};
    for (body, kind, has) in [
        ("dadd r4, r0, r1", Invalid, "dst.xy or dst.zw"),
        ("dadd r4.x___, r0, r1", Invalid, "dst.xy or dst.zw"),
        ("dadd r4.xyz_, r0, r1", Invalid, "dst.xy or dst.zw"),
        ("dadd_sat r4.xy__, r0, r1", Invalid, "clamp"),
        ("dadd r4.xy__, r0_x2, r1", Invalid, "_x2 on a double source"),
        ("dadd r4.xy__, r0_invert, r1", Invalid, "_invert"),
        ("dfrexp_x2 r4, r0", Invalid, "shift_scale"),
        ("dmov r4.xy__, r0_neg(y)", Invalid, "no modifiers"),
        (
            "dmovc r4.xy__, r0.x_neg(x), r1, r2",
            Invalid,
            "no modifiers",
        ),
        ("d_class r4.x___, r0, r1.x", Unsupported, "IL_OP_D_CLASS"),
        (
            "d_div_scale r4.xy__, r0, r1, r2",
            Unsupported,
            "IL_OP_D_DIV_SCALE",
        ),
        (
            "d_div_fmas r4.xy__, r0, r1, r2",
            Unsupported,
            "IL_OP_D_DIV_FMAS",
        ),
        (
            "d_div_fixup r4.xy__, r0, r1, r2",
            Unsupported,
            "IL_OP_D_DIV_FIXUP",
        ),
        (
            "d_trig_preop r4.xy__, r0, r1.x",
            Unsupported,
            "IL_OP_D_TRIG_PREOP",
        ),
    ] {
        let (k, s) = refusal(body);
        assert_eq!(k, kind, "{body}: {s}");
        assert!(s.contains(has), "{body}: {s:?} lacks {has:?}");
    }
}

/// The double forms AMD's compiler emits (the URNG sample's IL, as `wavejit disasm
/// --encoding il` prints it), chained.
#[test]
fn the_corpus_forms() {
    let text = "\
itod r66.xy__, r66.x
itod r66.__zw, r65.x
dmul r66.xy__, r66.xyxy, r66.zwzw
d2f r66.x___, r66.xyxy
f2d r66.xy__, r66.x
dadd r66.xy__, r66.xyxy, r66.zwzw";
    let k = Kernel::new(&format!("il_cs_2_0\n{text}\nend\n"));
    let mut l = k.launch();
    l.set_r(66, 0, |lane| lane);
    l.set_r(65, 0, |lane| 0u32.wrapping_sub(lane + 3));
    let done = l.go();
    for lane in 0..LANES {
        let (x, y) = (f64::from(lane), -f64::from(lane + 3));
        let want = f64::from((x * y) as f32) + y;
        let got = d(pair(done.r(66, 0, lane), done.r(66, 1, lane)));
        assert_eq!(got, want, "lane {lane}");
    }
}
