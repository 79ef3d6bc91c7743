//! Conversions and integer/fraction parts: saturating float-to-int, rounded int-to-float and
//! float narrowing in every mode, NaN payloads, floor/ceil/trunc/rint, fract, frexp, ldexp.
//!
//! Oracles: Rust's `as` casts (saturating toward-zero float->int with NaN -> 0, and
//! round-to-nearest-even int->float and f64->f32 by the language definition), the `half`
//! crate, host `floor`/`ceil`/`trunc`/`round_ties_even`, and hand-derived bit patterns.

use half::f16;
use wavejit_ir::semantics::eval;
use wavejit_ir::{FloatMode, Op, Round, ScalarType, ScalarType::*};

const IEEE: FloatMode = FloatMode::IEEE;
const FIN: FloatMode = FloatMode::FLUSH_IN;
const FOUT: FloatMode = FloatMode::FLUSH_OUT;

fn rm(round: Round) -> FloatMode {
    FloatMode { round, ..IEEE }
}

fn cvt(op: Op, mode: FloatMode, to: ScalarType, from: ScalarType, x: u64) -> u64 {
    eval(op, mode, to, &[from], &[x])
}

fn un(op: Op, mode: FloatMode, ty: ScalarType, x: u64) -> u64 {
    eval(op, mode, ty, &[ty], &[x])
}

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

fn lcg(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 31)
        })
        .collect()
}

#[test]
fn float_to_int_saturates_truncates_and_zeroes_nan() {
    let s32 = |x: f32| cvt(Op::FtoS, IEEE, I32, F32, f(x)) as u32 as i32;
    let u32_ = |x: f32| cvt(Op::FtoU, IEEE, I32, F32, f(x)) as u32;
    assert_eq!(s32(2.9), 2);
    assert_eq!(s32(-2.9), -2);
    assert_eq!(s32(f32::NAN), 0);
    assert_eq!(s32(3e9), i32::MAX);
    assert_eq!(s32(-3e9), i32::MIN);
    assert_eq!(s32(f32::INFINITY), i32::MAX);
    assert_eq!(s32(-2147483648.0), i32::MIN);
    assert_eq!(u32_(-1.5), 0);
    assert_eq!(u32_(-0.5), 0);
    assert_eq!(u32_(f32::INFINITY), u32::MAX);
    assert_eq!(u32_(4294967040.0), 4294967040);
    assert_eq!(cvt(Op::FtoU, IEEE, I8, F32, f(300.0)), 255);
    assert_eq!(cvt(Op::FtoS, IEEE, I8, F32, f(-200.0)), 0x80);
    assert_eq!(cvt(Op::FtoS, IEEE, I16, F16, 0xfbff), 0x8000); // -65504
    assert_eq!(cvt(Op::FtoS, IEEE, I64, F64, d(9.3e18)), i64::MAX as u64);
    assert_eq!(cvt(Op::FtoS, IEEE, I64, F64, 0xfff0_0000_0000_0001), 0);
    // Every (float, int) pair against Rust's saturating casts.
    for &bits in &lcg(7, 4000) {
        let x32 = f32::from_bits(bits as u32);
        let x64 = f64::from_bits(bits);
        let x16 = f16::from_bits(bits as u16).to_f64();
        let cases: [(ScalarType, u64, f64); 3] = [
            (F32, bits & 0xffff_ffff, f64::from(x32)),
            (F64, bits, x64),
            (F16, bits & 0xffff, x16),
        ];
        for (from, raw, v) in cases {
            assert_eq!(
                cvt(Op::FtoS, IEEE, I8, from, raw),
                v as i8 as u8 as u64,
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoS, IEEE, I16, from, raw),
                v as i16 as u16 as u64,
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoS, IEEE, I32, from, raw),
                v as i32 as u32 as u64,
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoS, IEEE, I64, from, raw),
                v as i64 as u64,
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoU, IEEE, I8, from, raw),
                u64::from(v as u8),
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoU, IEEE, I16, from, raw),
                u64::from(v as u16),
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoU, IEEE, I32, from, raw),
                u64::from(v as u32),
                "{from} {raw:#x}"
            );
            assert_eq!(
                cvt(Op::FtoU, IEEE, I64, from, raw),
                v as u64,
                "{from} {raw:#x}"
            );
        }
    }
    // Input flushing: a negative denormal is -0, so even unsigned gives 0 both ways.
    assert_eq!(cvt(Op::FtoS, FIN, I32, F32, 0x8000_0001), 0);
}

#[test]
fn int_to_float_rounds_per_mode() {
    for &v in &lcg(11, 3000) {
        assert_eq!(cvt(Op::UtoF, IEEE, F32, I64, v), f(v as f32), "{v:#x}");
        assert_eq!(
            cvt(Op::StoF, IEEE, F32, I64, v),
            f(v as i64 as f32),
            "{v:#x}"
        );
        assert_eq!(cvt(Op::UtoF, IEEE, F64, I64, v), d(v as f64), "{v:#x}");
        assert_eq!(
            cvt(Op::StoF, IEEE, F64, I64, v),
            d(v as i64 as f64),
            "{v:#x}"
        );
        let w = v & 0xffff_ffff;
        assert_eq!(
            cvt(Op::StoF, IEEE, F32, I32, w),
            f(w as u32 as i32 as f32),
            "{w:#x}"
        );
        assert_eq!(
            cvt(Op::UtoF, IEEE, F32, I32, w),
            f(w as u32 as f32),
            "{w:#x}"
        );
        let h = v & 0xffff;
        assert_eq!(
            cvt(Op::UtoF, IEEE, F16, I16, h),
            u64::from(f16::from_f32(h as f32).to_bits()),
            "{h:#x}"
        );
        assert_eq!(
            cvt(Op::StoF, IEEE, F16, I16, h),
            u64::from(f16::from_f32(f32::from(h as u16 as i16)).to_bits()),
            "{h:#x}"
        );
    }
    // 2^24 + 1 lies between 2^24 and 2^24 + 2.
    let odd = 16_777_217;
    let u = |r| cvt(Op::UtoF, rm(r), F32, I32, odd);
    assert_eq!(u(Round::NearestEven), f(16_777_216.0));
    assert_eq!(u(Round::TowardZero), f(16_777_216.0));
    assert_eq!(u(Round::TowardNegative), f(16_777_216.0));
    assert_eq!(u(Round::TowardPositive), f(16_777_218.0));
    let s = |r| cvt(Op::StoF, rm(r), F32, I32, (-16_777_217i32) as u32 as u64);
    assert_eq!(s(Round::TowardNegative), f(-16_777_218.0));
    assert_eq!(s(Round::TowardPositive), f(-16_777_216.0));
    assert_eq!(s(Round::TowardZero), f(-16_777_216.0));
    // f16: 65520 is the tie between 65504 (odd significand) and 2^16, so it overflows.
    assert_eq!(cvt(Op::UtoF, IEEE, F16, I32, 65520), 0x7c00);
    assert_eq!(
        cvt(Op::UtoF, rm(Round::TowardZero), F16, I32, 65520),
        0x7bff
    );
    assert_eq!(cvt(Op::UtoF, IEEE, F16, I32, 65519), 0x7bff);
    assert_eq!(cvt(Op::StoF, IEEE, F16, I8, 0x80), 0xd800); // -128
    assert_eq!(cvt(Op::StoF, IEEE, F64, I8, 0xff), d(-1.0));
    assert_eq!(cvt(Op::UtoF, IEEE, F64, I8, 0xff), d(255.0));
    assert_eq!(
        cvt(Op::StoF, IEEE, F32, I64, 0x8000_0000_0000_0000),
        f(-9.223372e18)
    );
    assert_eq!(cvt(Op::UtoF, IEEE, F32, I16, 0), 0);
}

#[test]
fn float_widths_round_and_keep_payloads() {
    for &bits in &lcg(13, 4000) {
        let x = f64::from_bits(bits);
        if !x.is_nan() {
            assert_eq!(
                cvt(Op::Fconvert, IEEE, F32, F64, bits),
                f(x as f32),
                "{bits:#x}"
            );
            assert_eq!(
                cvt(Op::Fconvert, IEEE, F16, F64, bits),
                u64::from(f16::from_f64(x).to_bits()),
                "{bits:#x}"
            );
        }
        let y = f32::from_bits(bits as u32);
        if !y.is_nan() {
            assert_eq!(
                cvt(Op::Fconvert, IEEE, F64, F32, bits & 0xffff_ffff),
                d(f64::from(y)),
                "{bits:#x}"
            );
            assert_eq!(
                cvt(Op::Fconvert, IEEE, F16, F32, bits & 0xffff_ffff),
                u64::from(f16::from_f32(y).to_bits()),
                "{bits:#x}"
            );
        }
        let h = f16::from_bits(bits as u16);
        if !h.is_nan() {
            assert_eq!(
                cvt(Op::Fconvert, IEEE, F32, F16, bits & 0xffff),
                f(h.to_f32()),
                "{bits:#x}"
            );
        }
    }
    // NaN payloads: widening shifts the fraction up, narrowing keeps its top, both quiet.
    assert_eq!(
        cvt(Op::Fconvert, IEEE, F64, F32, 0x7f80_0001),
        0x7ff8_0000_2000_0000
    );
    assert_eq!(
        cvt(Op::Fconvert, IEEE, F64, F32, 0xffc0_0000),
        0xfff8_0000_0000_0000
    );
    assert_eq!(
        cvt(Op::Fconvert, IEEE, F32, F64, 0x7ff0_0000_0000_0001),
        0x7fc0_0000
    );
    assert_eq!(
        cvt(Op::Fconvert, IEEE, F32, F64, 0xfff4_0000_0000_0000),
        0xffe0_0000
    );
    assert_eq!(cvt(Op::Fconvert, IEEE, F16, F32, 0x7f80_2000), 0x7e01);
    assert_eq!(cvt(Op::Fconvert, IEEE, F32, F16, 0xfd01), 0xffe0_2000);
    // Directed narrowing: 0.1 rounds up to 0x3dcccccd to nearest, down toward zero.
    assert_eq!(
        cvt(Op::Fconvert, rm(Round::TowardZero), F32, F64, d(0.1)),
        0x3dcc_cccc
    );
    assert_eq!(
        cvt(Op::Fconvert, rm(Round::TowardPositive), F32, F64, d(0.1)),
        0x3dcc_cccd
    );
    assert_eq!(
        cvt(Op::Fconvert, rm(Round::TowardNegative), F32, F64, d(-0.1)),
        0xbdcc_cccd
    );
    assert_eq!(
        cvt(Op::Fconvert, rm(Round::TowardZero), F16, F32, f(65520.0)),
        0x7bff
    );
    assert_eq!(cvt(Op::Fconvert, IEEE, F16, F32, f(65520.0)), 0x7c00);
    assert_eq!(
        cvt(Op::Fconvert, rm(Round::TowardPositive), F16, F32, f(1e-10)),
        0x0001
    );
    assert_eq!(
        cvt(Op::Fconvert, rm(Round::TowardZero), F32, F64, d(1e300)),
        0x7f7f_ffff
    );
    // Denormals: f16 2^-24 is its smallest denormal; flushing per side.
    assert_eq!(cvt(Op::Fconvert, IEEE, F16, F32, f(2f32.powi(-24))), 0x0001);
    assert_eq!(cvt(Op::Fconvert, FOUT, F16, F32, f(2f32.powi(-24))), 0);
    assert_eq!(
        cvt(
            Op::Fconvert,
            FOUT,
            F16,
            F32,
            0x8000_0000 | f(2f32.powi(-15))
        ),
        0x8000
    );
    assert_eq!(cvt(Op::Fconvert, IEEE, F32, F16, 0x0001), f(2f32.powi(-24)));
    assert_eq!(cvt(Op::Fconvert, FIN, F32, F16, 0x8001), 0x8000_0000);
    assert_eq!(cvt(Op::Fconvert, FIN, F64, F32, 1), 0);
    assert_eq!(
        cvt(Op::Fconvert, FOUT, F64, F32, 1),
        d(f64::from(f32::from_bits(1)))
    );
}

#[test]
fn integral_rounding() {
    type Row = (f32, f32, f32, f32, f32);
    // x, floor, ceil, trunc, rint
    let rows: [Row; 9] = [
        (2.5, 2.0, 3.0, 2.0, 2.0),
        (3.5, 3.0, 4.0, 3.0, 4.0),
        (-2.5, -3.0, -2.0, -2.0, -2.0),
        (-0.5, -1.0, -0.0, -0.0, -0.0),
        (0.5, 0.0, 1.0, 0.0, 0.0),
        (-0.0, -0.0, -0.0, -0.0, -0.0),
        (1e30, 1e30, 1e30, 1e30, 1e30),
        (
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
            f32::NEG_INFINITY,
        ),
        (8388607.5, 8388607.0, 8388608.0, 8388607.0, 8388608.0),
    ];
    for (x, fl, ce, tr, ri) in rows {
        assert_eq!(un(Op::Ffloor, IEEE, F32, f(x)), f(fl), "floor {x}");
        assert_eq!(un(Op::Fceil, IEEE, F32, f(x)), f(ce), "ceil {x}");
        assert_eq!(un(Op::Ftrunc, IEEE, F32, f(x)), f(tr), "trunc {x}");
        assert_eq!(un(Op::Frint, IEEE, F32, f(x)), f(ri), "rint {x}");
        assert_eq!(
            un(Op::Frint, IEEE, F64, d(f64::from(x))),
            d(f64::from(ri)),
            "rint64 {x}"
        );
    }
    assert_eq!(un(Op::Ffloor, IEEE, F32, 0x8000_0001), f(-1.0));
    assert_eq!(un(Op::Ffloor, FIN, F32, 0x8000_0001), 0x8000_0000);
    assert_eq!(un(Op::Fceil, IEEE, F32, 0x7f80_0001), 0x7fc0_0001);
    assert_eq!(un(Op::Fceil, IEEE, F16, 0x3c01), 0x4000);
    assert_eq!(un(Op::Frint, IEEE, F16, 0x4100), 0x4000); // 2.5 -> 2
    for &bits in &lcg(17, 4000) {
        let x = f32::from_bits(bits as u32);
        if x.is_nan() {
            continue;
        }
        let b = bits & 0xffff_ffff;
        assert_eq!(un(Op::Ffloor, IEEE, F32, b), f(x.floor()), "{x}");
        assert_eq!(un(Op::Fceil, IEEE, F32, b), f(x.ceil()), "{x}");
        assert_eq!(un(Op::Ftrunc, IEEE, F32, b), f(x.trunc()), "{x}");
        assert_eq!(un(Op::Frint, IEEE, F32, b), f(x.round_ties_even()), "{x}");
        let y = f64::from_bits(bits);
        if !y.is_nan() {
            assert_eq!(un(Op::Ffloor, IEEE, F64, bits), d(y.floor()), "{y}");
            assert_eq!(
                un(Op::Frint, IEEE, F64, bits),
                d(y.round_ties_even()),
                "{y}"
            );
        }
    }
}

#[test]
fn fract_is_clamped_below_one() {
    let fr = |x: u64| un(Op::Ffract, IEEE, F32, x);
    assert_eq!(fr(f(1.25)), f(0.25));
    assert_eq!(fr(f(-0.25)), f(0.75));
    assert_eq!(fr(f(-1.75)), f(0.25));
    assert_eq!(fr(f(1e10)), 0);
    // -2^-30 + 1 rounds to 1.0 in f32; the result is clamped to 0x3f7fffff.
    assert_eq!(fr(0xb080_0000), 0x3f7f_ffff);
    assert_eq!(
        un(Op::Ffract, rm(Round::TowardZero), F32, 0xb080_0000),
        0x3f7f_ffff
    );
    assert_eq!(fr(0x8000_0001), 0x3f7f_ffff);
    assert_eq!(un(Op::Ffract, FIN, F32, 0x8000_0001), 0);
    assert_eq!(fr(f(f32::INFINITY)), 0x7fc0_0000);
    assert_eq!(fr(f(f32::NEG_INFINITY)), 0xffc0_0000);
    assert_eq!(fr(0x7f80_0003), 0x7fc0_0003);
    // f64 holds 1 - 2^-31 exactly, but 1 - 2^-60 rounds to 1.0 and is clamped.
    assert_eq!(
        un(Op::Ffract, IEEE, F64, 0xbe00_0000_0000_0000),
        0x3fef_ffff_ffc0_0000
    );
    assert_eq!(
        un(Op::Ffract, IEEE, F64, 0xbc30_0000_0000_0000),
        0x3fef_ffff_ffff_ffff
    );
    assert_eq!(un(Op::Ffract, IEEE, F64, d(2.75)), d(0.75));
    assert_eq!(un(Op::Ffract, IEEE, F16, 0x8001), 0x3bff);
    assert_eq!(un(Op::Ffract, IEEE, F16, 0x3e00), 0x3800); // 1.5 -> 0.5
}

#[test]
fn frexp_mantissa_and_exponent() {
    let mant = |ty, x| un(Op::FrexpMant, IEEE, ty, x);
    let exp = |ty, x| eval(Op::FrexpExp, IEEE, I32, &[ty], &[x]) as u32 as i32;
    assert_eq!(mant(F32, f(8.0)), f(0.5));
    assert_eq!(exp(F32, f(8.0)), 4);
    assert_eq!(mant(F32, f(-3.0)), f(-0.75));
    assert_eq!(exp(F32, f(-3.0)), 2);
    assert_eq!(mant(F32, 1), f(0.5));
    assert_eq!(exp(F32, 1), -148);
    assert_eq!(mant(F32, 0x8000_0000), 0x8000_0000);
    assert_eq!(exp(F32, 0), 0);
    assert_eq!(mant(F32, f(f32::NEG_INFINITY)), f(f32::NEG_INFINITY));
    assert_eq!(exp(F32, f(f32::INFINITY)), 0);
    assert_eq!(mant(F32, 0x7f80_0001), 0x7fc0_0001);
    assert_eq!(exp(F32, 0x7fc0_0000), 0);
    assert_eq!(un(Op::FrexpMant, FIN, F32, 1), 0);
    assert_eq!(eval(Op::FrexpExp, FIN, I32, &[F32], &[1]), 0);
    assert_eq!(mant(F64, d(1024.0)), d(0.5));
    assert_eq!(exp(F64, d(1024.0)), 11);
    assert_eq!(exp(F64, 1), -1073);
    assert_eq!(mant(F16, 0x0001), 0x3800);
    assert_eq!(exp(F16, 0x0001), -23);
    assert_eq!(exp(F16, 0x7bff), 16);
}

#[test]
fn ldexp_rounds_once() {
    let ld =
        |mode, x: u64, n: i32| eval(Op::Ldexp, mode, F32, &[F32, I32], &[x, u64::from(n as u32)]);
    assert_eq!(ld(IEEE, f(1.0), 3), f(8.0));
    assert_eq!(ld(IEEE, f(-3.0), -1), f(-1.5));
    assert_eq!(ld(IEEE, f(1.0), -149), 1);
    // 1.5 * 2^-149 is a tie between 1 and 2 denormal units: even is 2.
    assert_eq!(ld(IEEE, f(1.5), -149), 2);
    assert_eq!(ld(rm(Round::TowardZero), f(1.5), -149), 1);
    assert_eq!(ld(IEEE, f(1.0), -150), 0);
    assert_eq!(ld(rm(Round::TowardPositive), f(1.0), -150), 1);
    assert_eq!(ld(IEEE, f(1.0), 128), f(f32::INFINITY));
    assert_eq!(ld(rm(Round::TowardZero), f(1.0), 128), 0x7f7f_ffff);
    assert_eq!(ld(IEEE, 0x7f00_0000, i32::MIN), 0);
    assert_eq!(ld(IEEE, 1, i32::MAX), f(f32::INFINITY));
    assert_eq!(ld(IEEE, 1, 149), f(1.0));
    assert_eq!(ld(IEEE, f(f32::NEG_INFINITY), -5), f(f32::NEG_INFINITY));
    assert_eq!(ld(IEEE, 0x8000_0000, 5), 0x8000_0000);
    assert_eq!(ld(IEEE, 0xff80_0001, 5), 0xffc0_0001);
    assert_eq!(ld(FOUT, f(1.0), -127), 0);
    assert_eq!(ld(FIN, 1, 149), 0);
    assert_eq!(
        eval(
            Op::Ldexp,
            IEEE,
            F64,
            &[F64, I32],
            &[d(1.0), u64::from((-1074i32) as u32)]
        ),
        1
    );
    assert_eq!(
        eval(Op::Ldexp, IEEE, F16, &[F16, I32], &[0x3c00, 15]),
        0x7800
    );
    assert_eq!(
        eval(Op::Ldexp, IEEE, F16, &[F16, I32], &[0x3c00, 16]),
        0x7c00
    );
}
