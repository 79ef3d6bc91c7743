//! The rounding and transcendental instructions (lift/float.rs): floor, ceil, trunc, rint,
//! rcp (correctly rounded), rsqrt (1/sqrt as two f64 roundings), rsqrt_special (±0 giving +0,
//! +inf kept), log2 and exp2 (the f64 function rounded to f32), fp32 flushing of the source and of
//! the result, the default NaN, `.sat` and a 16-bit destination; the sin_pt_1/sin_pt_2 pair.

use super::num::{f, f16_of, flush, sat32, F32_NAN};
use super::{each_lane, hi, lo};

/// An f32 result as G13 writes it: a denormal flushed, any NaN the default NaN.
fn result(x: f32) -> u32 {
    if x.is_nan() {
        F32_NAN
    } else {
        flush(x).to_bits()
    }
}

fn rsqrt(x: f32) -> f32 {
    (1.0 / f64::from(x).sqrt()) as f32
}

/// The documented value of `name` on `a` (fp32 bits).
fn unary(name: &str, a: u32) -> u32 {
    let x = flush(f32::from_bits(a));
    result(match name {
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        "trunc" => x.trunc(),
        "rint" => x.round_ties_even(),
        "rcp" => 1.0 / x,
        "rsqrt" => rsqrt(x),
        "rsqrt_special" if x == 0.0 => 0.0,
        "rsqrt_special" if x == f32::INFINITY => x,
        "rsqrt_special" => rsqrt(x),
        "log2" => f64::from(x).log2() as f32,
        "exp2" => f64::from(x).exp2() as f32,
        _ => unreachable!("{name}"),
    })
}

const NAMES: [&str; 10] = [
    "floor",
    "ceil",
    "trunc",
    "rint",
    "rcp",
    "rsqrt",
    "rsqrt_special",
    "log2",
    "exp2",
    "rint",
];

#[test]
fn rounding_and_transcendentals_follow_their_definitions() {
    let cases: &[u32] = &[
        0,
        0x8000_0000,
        0x0000_0001, // +denormal: read as +0
        0x8040_0000, // -denormal: read as -0
        f(0.5),
        f(-0.5),
        f(1.5),
        f(2.5),
        f(-2.5),
        0x3eff_ffff, // 0.49999997
        0x4aff_ffff, // 8388607.5
        0x4b00_0001, // 2^23 + 1
        f(1e30),
        f(-1e-30),
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0001, // NaN with a payload
        0xff80_0001, // signalling NaN
        f(4.0),
        f(0.25),
        0x0080_0000, // 2^-126
        0x7e80_0000, // 2^126: rcp is 2^-126
        0x7f00_0000, // 2^127: rcp is a denormal, flushed
        f(3.0),
        f(-3.0),
        f(1e-20),
        f(100.0),
        f(-100.5),
        f(0.1),
        f(-126.0), // exp2: 2^-126
        f(-127.0), // exp2: a denormal, flushed
        f(-149.5),
        f(127.99),
        f(128.0), // exp2: inf
        f(7.0),
        f(-7.0),
        0x7f7f_ffff,
        f(2.0),
    ];
    let text = "floor r10, r0
                ceil r11, r0
                trunc r12, r0
                rint r13, r0
                rcp r14, r0
                rsqrt r15, r0
                rsqrt_special r16, r0
                log2 r17, r0
                exp2 r18, r0
                rint r19, r0.neg
                rcp.sat r20, r0
                exp2.sat r21, r0
                log2 r22l, r0
                rcp r22h, r0
                stop";
    each_lane(
        cases,
        text,
        |w, l, &a| w.set_r(0, l, a),
        |w, l, &a| {
            for (k, name) in NAMES.iter().enumerate() {
                let src = if k == 9 { a ^ 0x8000_0000 } else { a };
                let r = 10 + k as u32;
                assert_eq!(w.r(r, l), unary(name, src), "{name} of {a:#x}");
            }
            assert_eq!(w.r(20, l), sat32(unary("rcp", a)), "rcp.sat of {a:#x}");
            assert_eq!(w.r(21, l), sat32(unary("exp2", a)), "exp2.sat of {a:#x}");
            let half = |bits: u32| f16_of(f64::from(f32::from_bits(bits)), true);
            assert_eq!(
                lo(w.r(22, l)),
                half(unary("log2", a)),
                "log2 to f16 of {a:#x}"
            );
            assert_eq!(
                hi(w.r(22, l)),
                half(unary("rcp", a)),
                "rcp to f16 of {a:#x}"
            );
        },
    );
}

/// sin_pt_1's reflection of `q` quarter turns (float.rs): t = q on [0, 1], 2 - q on (1, 3),
/// q - 4 on [3, 4), after reducing q by 4 floor(q / 4); exact.
fn reflect(q: f32) -> f32 {
    let q = f64::from(q);
    let r = q - 4.0 * (q / 4.0).floor();
    let t = if r <= 1.0 {
        r
    } else if r < 3.0 {
        2.0 - r
    } else {
        r - 4.0
    };
    t as f32
}

/// The f32 ulp at the magnitude of `x` (a normal value).
fn ulp(x: f64) -> f64 {
    2f64.powi(x.abs().log2().floor() as i32 - 23)
}

#[test]
fn sin_pt_1_reflects_and_the_pair_gives_the_sine_within_2_ulp() {
    let mut qs: Vec<f32> = (0..32).map(|k| k as f32 / 8.0).collect();
    qs.extend([
        0.1,
        0.7,
        1.3,
        2.9,
        3.99,
        0.001,
        1e-5,
        3.5,
        0.999_999_94,
        1.000_000_1,
        1.999_999_9,
        2.000_000_2,
        2.999_999_8,
        3.000_000_2,
        3.999_999_8,
        0.333_333_34,
        -0.5,
        -1.0,
        4.0,
        5.5,
        100.25,
        1000.75,
        -2.75,
        7.0,
        0.618,
        1.618,
        2.75,
        3.125,
    ]);
    let text = "sin_pt_1 r10, r0
                sin_pt_2 r11, r10
                fmul32 r12, r10, r11
                sin_pt_2 r13, 0.0
                stop";
    each_lane(
        &qs,
        text,
        |w, l, &q| w.set_r(0, l, f(q)),
        |w, l, &q| {
            let t = reflect(q);
            assert_eq!(w.r(10, l), f(t), "sin_pt_1({q})");
            assert_eq!(
                w.r(13, l),
                f(std::f32::consts::FRAC_PI_2),
                "sin_pt_2(0) is pi/2"
            );
            let got = f64::from(f32::from_bits(w.r(12, l)));
            let want = (f64::from(q) * std::f64::consts::FRAC_PI_2).sin();
            if f64::from(t) == 0.0 {
                assert_eq!(got, 0.0, "sin at {q}");
            } else {
                let err = (got - want).abs() / ulp(want);
                assert!(err <= 2.0, "sin({q} pi/2): {got} vs {want}, {err} ulp");
            }
        },
    );
}

/// rsqrt_special's purpose (float.rs): `rsqrt_special(x) * x` is sqrt(x) at +0, -0 (also
/// flushed denormals; a G13 product is never -0, so sqrt(-0) comes out as +0) and +inf,
/// where `rsqrt(x) * x` is NaN.
#[test]
fn rsqrt_special_times_x_is_sqrt_at_zero_and_infinity() {
    let cases: &[u32] = &[
        0,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x7f80_0000,
        f(4.0),
        f(0.25),
    ];
    each_lane(
        cases,
        "rsqrt_special r10, r0\nfmul32 r11, r10, r0\nrsqrt r12, r0\nfmul32 r13, r12, r0\nstop",
        |w, l, &a| w.set_r(0, l, a),
        |w, l, &a| {
            let x = flush(f32::from_bits(a));
            let root = if x == 0.0 { 0.0 } else { x.sqrt() };
            assert_eq!(w.r(11, l), root.to_bits(), "rsqrt_special({a:#x}) * x");
            if x == 0.0 || x.is_infinite() {
                assert_eq!(w.r(13, l), F32_NAN, "rsqrt({a:#x}) * x");
            }
        },
    );
}
