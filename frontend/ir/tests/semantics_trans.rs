//! Transcendentals: correctly rounded square roots in every mode (checked by exact squaring),
//! IEEE special cases, the Clamped/Ff/Legacy flavours, and sin/cos in turns with the
//! hardware input domain.

use wavejit_ir::semantics::{eval, DEFAULT_NAN_F32};
use wavejit_ir::{Angle, FloatMode, Op, Round, ScalarType, ScalarType::*, Trans};

const IEEE: FloatMode = FloatMode::IEEE;
const FIN: FloatMode = FloatMode::FLUSH_IN;
const FOUT: FloatMode = FloatMode::FLUSH_OUT;
const MAX: u32 = 0x7f7f_ffff;
const INF: u32 = 0x7f80_0000;

fn rm(round: Round) -> FloatMode {
    FloatMode { round, ..IEEE }
}

fn un(op: Op, mode: FloatMode, ty: ScalarType, x: u64) -> u64 {
    eval(op, mode, ty, &[ty], &[x])
}

fn t32(op: Op, x: f32) -> u32 {
    un(op, IEEE, F32, u64::from(x.to_bits())) as u32
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn sqrt_round_to_nearest_matches_host() {
    let mut s = 99u64;
    for _ in 0..20000 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let b32 = (s >> 32) as u32;
        let x = f32::from_bits(b32);
        let got = un(Op::Fsqrt(Trans::Ieee), IEEE, F32, u64::from(b32)) as u32;
        if x.is_nan() || x < 0.0 {
            assert!(f32::from_bits(got).is_nan(), "{b32:#x}");
        } else {
            assert_eq!(got, x.sqrt().to_bits(), "{b32:#x}");
        }
        let y = f64::from_bits(s);
        let got = un(Op::Fsqrt(Trans::Ieee), IEEE, F64, s);
        if !(y.is_nan() || y < 0.0) {
            assert_eq!(got, y.sqrt().to_bits(), "{s:#x}");
        }
    }
}

/// `r` is the sqrt of `x` rounded toward zero iff r^2 <= x < next(r)^2; an f32 square is
/// exact in f64, so this check is exact and independent of the implementation.
#[test]
fn sqrt_directed_modes_bracket_the_exact_root() {
    let mut s = 5u64;
    for i in 0..20000u32 {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        // Positive finite non-zero f32 bit patterns, denormals included.
        let b = ((s >> 33) as u32 % 0x7f7f_ffff) + 1;
        let x = f64::from(f32::from_bits(b));
        let sq = |bits: u32| {
            let r = f64::from(f32::from_bits(bits));
            r * r
        };
        let down = un(
            Op::Fsqrt(Trans::Ieee),
            rm(Round::TowardZero),
            F32,
            u64::from(b),
        ) as u32;
        assert!(sq(down) <= x && x < sq(down + 1), "rtz {b:#x} -> {down:#x}");
        let neg = un(
            Op::Fsqrt(Trans::Ieee),
            rm(Round::TowardNegative),
            F32,
            u64::from(b),
        ) as u32;
        assert_eq!(neg, down);
        let up = un(
            Op::Fsqrt(Trans::Ieee),
            rm(Round::TowardPositive),
            F32,
            u64::from(b),
        ) as u32;
        let exact = sq(down) == x;
        assert_eq!(up, if exact { down } else { down + 1 }, "rtp {b:#x}");
        if i < 50 {
            // Nearest: the closer of down and down + 1 (never a tie for square roots).
            let near = un(Op::Fsqrt(Trans::Ieee), IEEE, F32, u64::from(b)) as u32;
            assert_eq!(near, f32::from_bits(b).sqrt().to_bits());
        }
    }
    // sqrt(2) in f64: 0x3ff6a09e667f3bcd to nearest is above the root (1.41421356237309504880).
    let two = 2f64.to_bits();
    assert_eq!(
        un(Op::Fsqrt(Trans::Ieee), IEEE, F64, two),
        0x3ff6_a09e_667f_3bcd
    );
    assert_eq!(
        un(Op::Fsqrt(Trans::Ieee), rm(Round::TowardZero), F64, two),
        0x3ff6_a09e_667f_3bcc
    );
    assert_eq!(
        un(Op::Fsqrt(Trans::Ieee), rm(Round::TowardPositive), F64, two),
        0x3ff6_a09e_667f_3bcd
    );
    // f16: sqrt(2) = 1.41406 (0x3da8) to nearest, which is below the root: up is 0x3da9.
    assert_eq!(un(Op::Fsqrt(Trans::Ieee), IEEE, F16, 0x4000), 0x3da8);
    assert_eq!(
        un(
            Op::Fsqrt(Trans::Ieee),
            rm(Round::TowardPositive),
            F16,
            0x4000
        ),
        0x3da9
    );
    assert_eq!(un(Op::Fsqrt(Trans::Ieee), IEEE, F16, 0x4400), 0x4000);
}

#[test]
fn sqrt_special_cases_and_flushing() {
    let sq = |x: u32| un(Op::Fsqrt(Trans::Ieee), IEEE, F32, u64::from(x)) as u32;
    assert_eq!(sq(0x8000_0000), 0x8000_0000);
    assert_eq!(sq(0), 0);
    assert_eq!(sq(f(-1.0)), DEFAULT_NAN_F32);
    assert_eq!(sq(0x8000_0001), DEFAULT_NAN_F32);
    assert_eq!(sq(f(f32::NEG_INFINITY)), DEFAULT_NAN_F32);
    assert_eq!(sq(INF), INF);
    assert_eq!(sq(0x7f80_0001), 0x7fc0_0001);
    assert_eq!(sq(1), f(2f32.powi(-149).sqrt()));
    assert_eq!(un(Op::Fsqrt(Trans::Ieee), FIN, F32, 1), 0);
    assert_eq!(
        un(Op::Fsqrt(Trans::Ieee), FIN, F32, 0x8000_0001),
        0x8000_0000
    );
    assert_eq!(
        un(Op::Fsqrt(Trans::Clamped), IEEE, F32, u64::from(INF)),
        u64::from(MAX)
    );
    assert_eq!(un(Op::Fsqrt(Trans::Ff), IEEE, F32, u64::from(INF)), 0);
    assert_eq!(
        un(Op::Fsqrt(Trans::Legacy), IEEE, F32, u64::from(INF)),
        u64::from(INF)
    );
    assert_eq!(
        un(Op::Fsqrt(Trans::Ieee), IEEE, F64, 0xfff0_0000_0000_0000),
        0xfff8_0000_0000_0000
    );
}

#[test]
fn reciprocal_and_flavours() {
    let rcp = |t, x: u32| un(Op::Frcp(t), IEEE, F32, u64::from(x)) as u32;
    assert_eq!(rcp(Trans::Ieee, f(2.0)), f(0.5));
    assert_eq!(rcp(Trans::Ieee, f(3.0)), 0x3eaa_aaab);
    assert_eq!(rcp(Trans::Ieee, f(-4.0)), f(-0.25));
    assert_eq!(rcp(Trans::Ieee, INF), 0);
    assert_eq!(rcp(Trans::Ieee, 0x7fc0_1234), 0x7fc0_1234);
    assert_eq!(rcp(Trans::Ieee, 0x7f80_1234), 0x7fc0_1234);
    // 1/2^127 = 2^-127 is denormal: kept, or flushed with flush_out.
    assert_eq!(rcp(Trans::Ieee, 0x7f00_0000), 0x0040_0000);
    assert_eq!(un(Op::Frcp(Trans::Ieee), FOUT, F32, 0x7f00_0000), 0);
    // 1/denormal overflows.
    assert_eq!(rcp(Trans::Ieee, 1), INF);
    assert_eq!(un(Op::Frcp(Trans::Ieee), FIN, F32, 1), u64::from(INF));
    type Row = (Trans, u32, u32);
    // (flavour, rcp(+0), rcp(-0))
    let rows: [Row; 4] = [
        (Trans::Ieee, INF, 0xff80_0000),
        (Trans::Clamped, MAX, 0xff7f_ffff),
        (Trans::Ff, 0, 0x8000_0000),
        (Trans::Legacy, 0, 0x8000_0000),
    ];
    for (t, pos, neg) in rows {
        assert_eq!(rcp(t, 0), pos, "{t:?}");
        assert_eq!(rcp(t, 0x8000_0000), neg, "{t:?}");
        assert_eq!(rcp(t, f(8.0)), f(0.125), "{t:?}");
        assert_eq!(rcp(t, 0xff80_0000), 0x8000_0000, "{t:?}");
    }
    assert_eq!(
        un(Op::Frcp(Trans::Ieee), IEEE, F64, 3f64.to_bits()),
        (1.0f64 / 3.0).to_bits()
    );
    assert_eq!(un(Op::Frcp(Trans::Ieee), IEEE, F16, 0x4000), 0x3800);
    assert_eq!(un(Op::Frcp(Trans::Clamped), IEEE, F16, 0x8000), 0xfbff);
}

#[test]
fn reciprocal_square_root_and_flavours() {
    let rsq = |t, x: u32| un(Op::Frsq(t), IEEE, F32, u64::from(x)) as u32;
    assert_eq!(rsq(Trans::Ieee, f(4.0)), f(0.5));
    assert_eq!(rsq(Trans::Ieee, f(0.25)), f(2.0));
    assert_eq!(rsq(Trans::Ieee, f(2.0)), f(std::f32::consts::FRAC_1_SQRT_2));
    assert_eq!(rsq(Trans::Ieee, INF), 0);
    assert_eq!(rsq(Trans::Ieee, f(-1.0)), DEFAULT_NAN_F32);
    assert_eq!(rsq(Trans::Ieee, 0xff80_0000), DEFAULT_NAN_F32);
    assert_eq!(rsq(Trans::Ieee, 0), INF);
    assert_eq!(rsq(Trans::Ieee, 0x8000_0000), 0xff80_0000);
    assert_eq!(rsq(Trans::Clamped, 0), MAX);
    assert_eq!(rsq(Trans::Clamped, 0x8000_0000), 0xff7f_ffff);
    assert_eq!(rsq(Trans::Ff, 0), 0);
    assert_eq!(rsq(Trans::Legacy, 0), 0);
    assert_eq!(rsq(Trans::Legacy, 0x8000_0000), 0x8000_0000);
    assert_eq!(rsq(Trans::Clamped, f(-4.0)), DEFAULT_NAN_F32);
    assert_eq!(un(Op::Frsq(Trans::Ieee), FIN, F32, 1), u64::from(INF));
    assert_eq!(
        un(Op::Frsq(Trans::Ieee), IEEE, F64, 4f64.to_bits()),
        0.5f64.to_bits()
    );
    assert_eq!(un(Op::Frsq(Trans::Ieee), IEEE, F16, 0x4400), 0x3800);
}

#[test]
fn exp2_and_log2() {
    let e = |t, x: f32| t32(Op::Fexp2(t), x);
    let l = |t, x: f32| t32(Op::Flog2(t), x);
    assert_eq!(e(Trans::Ieee, 0.0), f(1.0));
    assert_eq!(e(Trans::Ieee, 3.0), f(8.0));
    assert_eq!(e(Trans::Ieee, -1.0), f(0.5));
    assert_eq!(e(Trans::Ieee, -149.0), 1);
    assert_eq!(e(Trans::Ieee, f32::NEG_INFINITY), 0);
    assert_eq!(e(Trans::Ieee, f32::INFINITY), INF);
    assert_eq!(e(Trans::Ieee, 128.0), INF);
    assert_eq!(e(Trans::Clamped, 128.0), MAX);
    assert_eq!(e(Trans::Ieee, 0.5), f(std::f32::consts::SQRT_2));
    assert_eq!(
        un(Op::Fexp2(Trans::Ieee), FOUT, F32, u64::from(f(-130.0))),
        0
    );
    assert_eq!(l(Trans::Ieee, 8.0), f(3.0));
    assert_eq!(l(Trans::Ieee, 1.0), 0);
    assert_eq!(l(Trans::Ieee, 0.0), 0xff80_0000);
    assert_eq!(l(Trans::Ieee, -0.0), 0xff80_0000);
    assert_eq!(l(Trans::Clamped, 0.0), 0xff7f_ffff);
    assert_eq!(l(Trans::Ff, 0.0), 0x8000_0000);
    assert_eq!(l(Trans::Ieee, -1.0), DEFAULT_NAN_F32);
    assert_eq!(l(Trans::Ieee, f32::INFINITY), INF);
    assert_eq!(l(Trans::Ieee, f32::from_bits(1)), f(-149.0));
    assert_eq!(un(Op::Flog2(Trans::Ieee), FIN, F32, 1), 0xff80_0000);
    assert_eq!(l(Trans::Ieee, 10.0), f(10f64.log2() as f32));
    assert_eq!(
        un(Op::Fexp2(Trans::Ieee), IEEE, F64, 10f64.to_bits()),
        1024f64.to_bits()
    );
    assert_eq!(un(Op::Flog2(Trans::Ieee), IEEE, F16, 0x4400), 0x4000);
    assert_eq!(un(Op::Fexp2(Trans::Ieee), IEEE, F16, 0x4c00), 0x7c00); // 2^16 overflows f16
}

#[test]
fn sine_and_cosine_in_turns() {
    let s = |x: f32| t32(Op::Fsin(Trans::Ieee, Angle::Turns), x);
    let c = |x: f32| t32(Op::Fcos(Trans::Ieee, Angle::Turns), x);
    // Exact points of the unit circle.
    assert_eq!(s(0.0), 0);
    assert_eq!(s(-0.0), 0x8000_0000);
    assert_eq!(s(0.25), f(1.0));
    assert_eq!(s(0.5), 0);
    assert_eq!(s(0.75), f(-1.0));
    assert_eq!(s(-0.25), f(-1.0));
    assert_eq!(s(1.25), f(1.0));
    assert_eq!(s(255.75), f(-1.0));
    assert_eq!(c(0.0), f(1.0));
    assert_eq!(c(0.5), f(-1.0));
    assert_eq!(c(-1.0), f(1.0));
    assert_eq!(c(0.25), 0);
    // f32(1/12) and f32(1/6) lie just above 1/12 and 1/6: sin(2π/12) rounds to 0.5, while
    // cos(2π/6) = 0.49999997297 is nearer 0x3effffff than 0.5.
    assert_eq!(s(1.0 / 12.0), f(0.5));
    assert_eq!(c(1.0 / 6.0), 0x3eff_ffff);
    // Generic points: sin(2*pi*x) computed in f64 and rounded once.
    for x in [0.1f32, 0.3, -0.7, 3.25, 100.37, -255.9] {
        let want =
            ((f64::from(x) - f64::from(x).round_ties_even()) * std::f64::consts::TAU).sin() as f32;
        let got = f32::from_bits(s(x));
        assert!(
            (got - want).abs() <= f32::EPSILON * want.abs().max(1e-30),
            "sin {x}: {got} vs {want}"
        );
    }
    // Outside [-256, 256]: sin 0, cos 1 (seed 000, COS); infinities are invalid.
    assert_eq!(s(256.0), 0);
    assert_eq!(s(256.25), 0);
    assert_eq!(s(-1e10), 0);
    assert_eq!(c(300.0), f(1.0));
    assert_eq!(s(f32::INFINITY), DEFAULT_NAN_F32);
    assert_eq!(c(f32::NEG_INFINITY), DEFAULT_NAN_F32);
    assert_eq!(
        un(Op::Fsin(Trans::Ieee, Angle::Turns), IEEE, F32, 0x7f80_0001),
        0x7fc0_0001
    );
    assert_eq!(
        un(Op::Fsin(Trans::Ieee, Angle::Turns), IEEE, F16, 0x3400),
        0x3c00
    ); // 0.25
    assert_eq!(
        un(
            Op::Fcos(Trans::Ieee, Angle::Turns),
            IEEE,
            F64,
            0.5f64.to_bits()
        ),
        (-1f64).to_bits()
    );
}

#[test]
fn sine_and_cosine_in_radians() {
    let s = |x: f32| t32(Op::Fsin(Trans::Ieee, Angle::Radians), x);
    let c = |x: f32| t32(Op::Fcos(Trans::Ieee, Angle::Radians), x);
    assert_eq!(s(0.0), 0);
    assert_eq!(s(-0.0), 0x8000_0000);
    assert_eq!(c(0.0), f(1.0));
    assert_eq!(s(std::f32::consts::FRAC_PI_2), f(1.0));
    assert_eq!(s(1000.0), f(1000f64.sin() as f32));
    assert_eq!(s(f32::INFINITY), DEFAULT_NAN_F32);
    let x = 0.5f64;
    assert_eq!(
        un(
            Op::Fcos(Trans::Ieee, Angle::Radians),
            IEEE,
            F64,
            x.to_bits()
        ),
        x.cos().to_bits()
    );
}
