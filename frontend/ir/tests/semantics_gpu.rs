//! GCN helpers: the division sequence (checked end to end against host IEEE division, the
//! way LLVM's AMDGPU backend expands `fdiv`), its three helpers case by case,
//! `v_trig_preop_f64` against LLVM's published 2/π table, cube-map ops, packing conversions
//! and byte-wise media ops (hand-derived from the pseudocode in seed 002).

use wavejit_ir::semantics::{eval, DEFAULT_NAN_F32};
use wavejit_ir::{FloatMode, Op, ScalarType, ScalarType::*, Trans};

const IEEE: FloatMode = FloatMode::IEEE;

fn e(op: Op, ty: ScalarType, tys: &[ScalarType], args: &[u64]) -> u64 {
    eval(op, IEEE, ty, tys, args)
}

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

/// LLVM's f32 `fdiv` expansion (SIISelLowering::LowerFDIV32, denormals enabled).
fn div_f32(lhs: u64, rhs: u64) -> u64 {
    let t3 = [F32; 3];
    let fma = |a, b, c| e(Op::Fma, F32, &t3, &[a, b, c]);
    let den = e(Op::DivScale, F32, &t3, &[rhs, rhs, lhs]);
    let num = e(Op::DivScale, F32, &t3, &[lhs, rhs, lhs]);
    let vcc = e(Op::DivScaleFlag, I1, &t3, &[lhs, rhs, lhs]);
    let rcp = e(Op::Frcp(Trans::Ieee), F32, &[F32], &[den]);
    let neg = e(Op::Fneg, F32, &[F32], &[den]);
    let fma0 = fma(neg, rcp, f(1.0));
    let fma1 = fma(fma0, rcp, rcp);
    let mul = e(Op::Fmul, F32, &[F32; 2], &[num, fma1]);
    let fma2 = fma(neg, mul, num);
    let fma3 = fma(fma2, fma1, mul);
    let fma4 = fma(neg, fma3, num);
    let fmas = e(
        Op::DivFmas,
        F32,
        &[F32, F32, F32, I1],
        &[fma4, fma1, fma3, vcc],
    );
    e(Op::DivFixup, F32, &t3, &[fmas, rhs, lhs])
}

/// LLVM's f64 `fdiv` expansion (SIISelLowering::LowerFDIV64).
fn div_f64(x: u64, y: u64) -> u64 {
    let t3 = [F64; 3];
    let one = d(1.0);
    let fma = |a, b, c| e(Op::Fma, F64, &t3, &[a, b, c]);
    let den = e(Op::DivScale, F64, &t3, &[y, y, x]);
    let neg = e(Op::Fneg, F64, &[F64], &[den]);
    let rcp = e(Op::Frcp(Trans::Ieee), F64, &[F64], &[den]);
    let fma0 = fma(neg, rcp, one);
    let fma1 = fma(rcp, fma0, rcp);
    let fma2 = fma(neg, fma1, one);
    let num = e(Op::DivScale, F64, &t3, &[x, y, x]);
    let vcc = e(Op::DivScaleFlag, I1, &t3, &[x, y, x]);
    let fma3 = fma(fma1, fma2, fma1);
    let mul = e(Op::Fmul, F64, &[F64; 2], &[num, fma3]);
    let fma4 = fma(neg, mul, num);
    let fmas = e(
        Op::DivFmas,
        F64,
        &[F64, F64, F64, I1],
        &[fma4, fma3, mul, vcc],
    );
    e(Op::DivFixup, F64, &t3, &[fmas, y, x])
}

fn lcg(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s ^ (s >> 29)
        })
        .collect()
}

fn special32() -> Vec<u32> {
    vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0080_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4040_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0001,
        0x7f80_0001,
        0x0d00_0000,
        0x7000_0000,
        0x1000_0000,
        0x3f7f_ffff,
        0x3f80_0001,
        0x5f00_0000,
        0x2000_0000,
        0x0a80_0000,
    ]
}

#[test]
fn the_llvm_f32_division_sequence_is_ieee_division() {
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for &a in &special32() {
        for &b in &special32() {
            pairs.push((a, b));
        }
    }
    for w in lcg(3, 20000).chunks(2) {
        pairs.push(((w[0] >> 32) as u32, w[1] as u32));
    }
    for (a, b) in pairs {
        let want = f32::from_bits(a) / f32::from_bits(b);
        let got = div_f32(u64::from(a), u64::from(b)) as u32;
        if want.is_nan() {
            assert!(f32::from_bits(got).is_nan(), "{a:#x} / {b:#x} -> {got:#x}");
        } else {
            assert_eq!(got, want.to_bits(), "{a:#x} / {b:#x}");
        }
    }
}

#[test]
fn the_llvm_f64_division_sequence_is_ieee_division() {
    let special: Vec<u64> = vec![
        0,
        1 << 63,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        d(1.0),
        d(-3.0),
        d(f64::MAX),
        d(f64::INFINITY),
        0x7ff8_0000_0000_0001,
        d(1e-300),
        d(1e300),
        d(3e-308),
        d(7.0),
        d(0.1),
    ];
    let mut pairs = Vec::new();
    for &a in &special {
        for &b in &special {
            pairs.push((a, b));
        }
    }
    for w in lcg(5, 20000).chunks(2) {
        pairs.push((w[0], w[1]));
    }
    for (a, b) in pairs {
        let want = f64::from_bits(a) / f64::from_bits(b);
        let got = div_f64(a, b);
        if want.is_nan() {
            assert!(f64::from_bits(got).is_nan(), "{a:#x} / {b:#x} -> {got:#x}");
        } else {
            assert_eq!(got, want.to_bits(), "{a:#x} / {b:#x}");
        }
    }
}

#[test]
fn div_scale_cases() {
    let t3 = [F32; 3];
    let sc = |s0: u64, s1: u64, s2: u64| {
        (
            e(Op::DivScale, F32, &t3, &[s0, s1, s2]),
            e(Op::DivScaleFlag, I1, &t3, &[s0, s1, s2]),
        )
    };
    let p = |n: i32| f(2f32.powi(n));
    // Ordinary operands: unchanged, no flag.
    assert_eq!(sc(f(3.0), f(3.0), f(1.0)), (f(3.0), 0));
    assert_eq!(sc(f(1.0), f(3.0), f(1.0)), (f(1.0), 0));
    // Quotient near the top (exponent gap >= 96): the denominator is scaled, flag set.
    assert_eq!(sc(f(1.0), f(1.0), p(100)), (p(64), 1));
    assert_eq!(sc(p(100), f(1.0), p(100)), (p(100), 1));
    // A zero operand: NaN.
    assert_eq!(sc(0, 0, f(1.0)).0, DEFAULT_NAN_F32.into());
    assert_eq!(sc(f(1.0), f(1.0), 0).0, DEFAULT_NAN_F32.into());
    // A denormal denominator with a large numerator is the gap case (flag set) ...
    assert_eq!(sc(1, 1, f(1.0)), (p(-85), 1));
    assert_eq!(sc(f(1.0), 1, f(1.0)), (f(1.0), 1));
    // ... otherwise both values are scaled up, no flag.
    assert_eq!(sc(0x0040_0000, 0x0040_0000, p(-40)), (p(-63), 0));
    assert_eq!(sc(p(-40), 0x0040_0000, p(-40)), (p(24), 0));
    // A denormal quotient: the numerator is scaled up, flag set.
    assert_eq!(sc(p(-100), p(30), p(-100)), (p(-36), 1));
    assert_eq!(sc(p(30), p(30), p(-100)), (p(30), 1));
    // 1/s1 denormal in f32 (s1 = MAX) with a denormal quotient: denominator scaled down, flag.
    let max = u64::from(f32::MAX.to_bits());
    assert_eq!(sc(max, max, f(1.0)), (f(f32::MAX * 2f32.powi(-64)), 1));
    assert_eq!(sc(f(1.0), max, f(1.0)), (f(1.0), 1));
    // A tiny numerator (exponent field <= 23): both scaled, no flag.
    assert_eq!(sc(p(-110), f(1.0), p(-110)), (p(-46), 0));
    assert_eq!(sc(f(1.0), f(1.0), p(-110)), (p(64), 0));
    // f64 thresholds: gap 768, scale 2^128.
    let t64 = [F64; 3];
    let q = |n: i32| d(2f64.powi(n));
    assert_eq!(
        e(Op::DivScale, F64, &t64, &[d(1.0), d(1.0), q(800)]),
        q(128)
    );
    assert_eq!(e(Op::DivScaleFlag, I1, &t64, &[d(1.0), d(1.0), q(800)]), 1);
    assert_eq!(
        e(Op::DivScale, F64, &t64, &[d(1.0), d(1.0), q(700)]),
        d(1.0)
    );
    // 1/s1 and s2/s1 both denormal (|s1| > 2^1022, s2 = 1): the denominator is scaled down
    // and the flag set; with only 1/s1 denormal, both are scaled down without the flag.
    assert_eq!(
        e(Op::DivScale, F64, &t64, &[q(1023), q(1023), d(1.0)]),
        q(895)
    );
    assert_eq!(
        e(Op::DivScaleFlag, I1, &t64, &[q(1023), q(1023), d(1.0)]),
        1
    );
    assert_eq!(
        e(Op::DivScale, F64, &t64, &[q(200), q(1023), q(200)]),
        q(72)
    );
    assert_eq!(e(Op::DivScaleFlag, I1, &t64, &[q(200), q(1023), q(200)]), 0);
    // f16 has no GCN counterpart: unchanged.
    assert_eq!(
        e(Op::DivScale, F16, &[F16; 3], &[0x3c00, 0x0001, 0x3c00]),
        0x3c00
    );
}

#[test]
fn div_fmas_scales_only_with_vcc() {
    let t = [F32, F32, F32, I1];
    let fm = |a: f32, b: f32, c: f32, vcc: u64| e(Op::DivFmas, F32, &t, &[f(a), f(b), f(c), vcc]);
    assert_eq!(fm(2.0, 3.0, 4.0, 0), f(10.0));
    // |c| >= 2: times 2^64; |c| < 2: times 2^-64.
    assert_eq!(fm(2.0, 3.0, 4.0, 1), f(10.0 * 2f32.powi(64)));
    assert_eq!(fm(2.0, 3.0, 1.5, 1), f(7.5 * 2f32.powi(-64)));
    assert_eq!(fm(2.0, 3.0, -2.0, 1), f(4.0 * 2f32.powi(64)));
    assert_eq!(fm(1.0, 1.0, f32::NAN, 1) as u32 & 0x7fc0_0000, 0x7fc0_0000);
    let t64 = [F64, F64, F64, I1];
    assert_eq!(
        e(Op::DivFmas, F64, &t64, &[d(1.0), d(1.0), d(1.0), 1]),
        d(2.0 * 2f64.powi(-128))
    );
    assert_eq!(
        e(Op::DivFmas, F64, &t64, &[d(1.0), d(1.0), d(3.0), 1]),
        d(4.0 * 2f64.powi(128))
    );
}

#[test]
fn div_fixup_cases() {
    let t3 = [F32; 3];
    let fx = |q: u64, den: u64, num: u64| e(Op::DivFixup, F32, &t3, &[q, den, num]) as u32;
    let inf = f(f32::INFINITY);
    assert_eq!(fx(f(7.0), 0, 0), DEFAULT_NAN_F32);
    assert_eq!(fx(f(7.0), inf, inf | 1 << 31), DEFAULT_NAN_F32);
    assert_eq!(fx(f(7.0), 0x8000_0000, f(3.0)), 0xff80_0000);
    assert_eq!(fx(f(7.0), f(2.0), inf), 0x7f80_0000);
    assert_eq!(fx(f(7.0), inf, f(-3.0)), 0x8000_0000);
    assert_eq!(fx(f(7.0), f(-2.0), 0), 0x8000_0000);
    // NaNs: the numerator's first, then the denominator's, quieted.
    assert_eq!(fx(f(7.0), 0x7f80_0001, 0xff80_0002), 0xffc0_0002);
    assert_eq!(fx(f(7.0), 0x7f80_0001, f(1.0)), 0x7fc0_0001);
    // Otherwise |quotient| with the sign of the division; a NaN quotient gives infinity.
    assert_eq!(fx(f(2.0), f(-1.0), f(2.0)), f(-2.0) as u32);
    assert_eq!(fx(f(-2.0), f(-1.0), f(-2.0)), f(2.0) as u32);
    assert_eq!(fx(0x7fc0_0000, f(-1.0), f(2.0)), 0xff80_0000);
    // Underflow: exponent gap below -150 gives a signed zero.
    assert_eq!(fx(f(1.0), f(2f32.powi(100)), f(2f32.powi(-60))), 0);
    assert_eq!(
        fx(f(1.0), f(-(2f32.powi(100))), f(2f32.powi(-60))),
        0x8000_0000
    );
    assert_eq!(
        e(Op::DivFixup, F64, &[F64; 3], &[d(5.0), 0, 0]),
        0xfff8_0000_0000_0000
    );
    assert_eq!(
        e(Op::DivFixup, F16, &[F16; 3], &[0x4000, 0xbc00, 0x4000]),
        0xc000
    );
}

/// LLVM's 2/π table (AMDGPUInstCombineIntrinsic.cpp, 37 words = 1184 bits).
const LLVM_TWO_BY_PI: [u32; 37] = [
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046,
];

/// The 53 bits of 2/π starting at fraction bit `shift`, from LLVM's table.
fn llvm_bits(shift: u32) -> u64 {
    let bit = |i: u32| u64::from(LLVM_TWO_BY_PI[(i / 32) as usize] >> (31 - i % 32) & 1);
    (shift..shift + 53).fold(0, |acc, i| acc << 1 | bit(i))
}

#[test]
fn trig_preop_reads_two_over_pi() {
    let tp = |x: u64, seg: u32| e(Op::TrigPreop, F64, &[F64, I32], &[x, u64::from(seg)]);
    // Segment 0 of a small input: 2/π truncated to 53 bits, 0x3fe45f306dc9c882.
    assert_eq!(tp(d(1.0), 0), 0x3fe4_5f30_6dc9_c882);
    // 2^n in two exact normal steps (the products here stay normal).
    let p2 = |n: i32| f64::from_bits(((n + 1023) as u64) << 52);
    let pow2 = |n: i32| (p2(n / 2), p2(n - n / 2));
    let scaled = |v: u64, n: i32| {
        let (a, b) = pow2(n);
        v as f64 * a * b
    };
    for seg in 0..20 {
        // Segments 0..=19 are normal numbers: bits * 2^(-53 - shift) exactly.
        let shift = seg * 53;
        let want = scaled(llvm_bits(shift), -53 - shift as i32);
        assert_eq!(tp(d(1.0), seg), d(want), "segment {seg}");
        assert_eq!(tp(d(-3.5), seg), d(want), "segment {seg}, any sign");
    }
    // Segment 20 is denormal (~2^-1061): the 53 bits are truncated to denormal units of
    // 2^-1074, i.e. shifted right by 1113 - 1074 = 39 bits (AMD: round toward zero).
    assert_eq!(tp(d(1.0), 20), llvm_bits(1060) >> 39);
    // Exponent above 1077 shifts the window: 2^100 has biased exponent 1123 (+46 bits).
    let x = d(2f64.powi(100));
    assert_eq!(tp(x, 1), d(scaled(llvm_bits(53 + 46), -53 - 99)));
    // Exponent >= 1968 also scales the result up by 2^128: 2^1000 is biased 2023 (+946).
    let big = d(2f64.powi(1000));
    assert_eq!(tp(big, 0), d(scaled(llvm_bits(946), -53 - 946 + 128)));
    // Past the 1201-bit table the bits are zero; segment numbers wrap at 32.
    assert_eq!(tp(d(1.0), 31), 0);
    assert_eq!(tp(d(1.0), 33), tp(d(1.0), 1));
    // Infinity is not special: exponent 2047 moves the window by 970 bits and scales by 2^128.
    assert_eq!(
        tp(d(f64::INFINITY), 0),
        d(scaled(llvm_bits(970), -53 - 970 + 128))
    );
    // Segment 22 starts at bit 1166: only 35 bits remain in the 1201-bit table, the rest are 0.
    assert_eq!(tp(d(1.0), 22) >> 18 << 18, tp(d(1.0), 22));
    assert_eq!(tp(0x7ff0_0000_0000_0001, 0), 0x7ff8_0000_0000_0001);
}

#[test]
fn cube_map_faces() {
    let t3 = [F32; 3];
    let c = |op: Op, x: f32, y: f32, z: f32| {
        f32::from_bits(e(op, F32, &t3, &[f(x), f(y), f(z)]) as u32)
    };
    // (x, y, z) -> (id, sc, tc, ma)
    let rows: [([f32; 3], [f32; 4]); 7] = [
        ([1.0, 0.5, 0.25], [0.0, -0.25, -0.5, 2.0]),
        ([-1.0, 0.5, 0.25], [1.0, 0.25, -0.5, -2.0]),
        ([0.5, 1.0, 0.25], [2.0, 0.5, 0.25, 2.0]),
        ([0.5, -1.0, 0.25], [3.0, 0.5, -0.25, -2.0]),
        ([0.5, 0.25, 1.0], [4.0, 0.5, -0.25, 2.0]),
        ([0.5, 0.25, -1.0], [5.0, -0.5, -0.25, -2.0]),
        ([1.0, 1.0, 1.0], [4.0, 1.0, -1.0, 2.0]),
    ];
    for ([x, y, z], [id, sc, tc, ma]) in rows {
        assert_eq!(c(Op::CubeId, x, y, z), id, "id {x} {y} {z}");
        assert_eq!(c(Op::CubeSc, x, y, z), sc, "sc {x} {y} {z}");
        assert_eq!(c(Op::CubeTc, x, y, z), tc, "tc {x} {y} {z}");
        assert_eq!(c(Op::CubeMa, x, y, z), ma, "ma {x} {y} {z}");
    }
    // A NaN makes every comparison false: the x axis is chosen.
    assert_eq!(c(Op::CubeId, f32::NAN, 1.0, 2.0), 0.0);
    // Equal magnitudes favour z, then y; -0 is not below zero.
    assert_eq!(c(Op::CubeId, 0.0, 0.0, -0.0), 4.0);
    assert_eq!(c(Op::CubeId, -2.0, -2.0, 1.0), 3.0);
}

#[test]
fn packing_conversions() {
    let p2 = |op: Op, a: u64, b: u64| e(op, I32, &[F32, F32], &[a, b]);
    assert_eq!(p2(Op::CvtPkrtzF16, f(1.0), f(-2.0)), 0xc000_3c00);
    // 1 + 0.75 ulp(f16) (= 1 + 3 * 2^-12) truncates to 1.0 (nearest would give 0x3c01).
    assert_eq!(p2(Op::CvtPkrtzF16, 0x3f80_1800, 0), 0x3c00);
    assert_eq!(p2(Op::CvtPkrtzF16, 0x3f80_3000, 0), 0x3c01);
    assert_eq!(
        p2(Op::CvtPkrtzF16, f(65520.0), f(f32::INFINITY)),
        0x7c00_7bff
    );
    assert_eq!(p2(Op::CvtPkrtzF16, f(-1e6), 0x7f80_2000), 0x7e01_fbff);
    assert_eq!(p2(Op::CvtPkrtzF16, 1, 0), 0);
    assert_eq!(p2(Op::CvtPknormI16, f(1.0), f(-1.0)), 0x8001_7fff);
    assert_eq!(p2(Op::CvtPknormI16, f(0.5), f(2.0)), 0x7fff_4000); // rint(16383.5) = 16384
    assert_eq!(p2(Op::CvtPknormI16, f(f32::NAN), f(-3.0)), 0x8001_0000);
    assert_eq!(p2(Op::CvtPknormU16, f(1.0), f(-1.0)), 0x0000_ffff);
    assert_eq!(p2(Op::CvtPknormU16, f(0.5), f(f32::NAN)), 0x0000_8000); // rint(32767.5) = 32768
    let pk = |x: u64, idx: u64, acc: u64| e(Op::CvtPkU8F32, I32, &[F32, I32, I32], &[x, idx, acc]);
    assert_eq!(pk(f(255.6), 2, 0x1122_3344), 0x11ff_3344);
    assert_eq!(pk(f(-5.0), 0, 0x1122_3344), 0x1122_3300);
    assert_eq!(pk(f(f32::NAN), 3, 0xffff_ffff), 0x00ff_ffff);
    assert_eq!(pk(f(2.5), 1, 0), 0x0200);
    assert_eq!(pk(f(3.5), 1, 0), 0x0400);
    assert_eq!(pk(f(9.0), 7, 0), 0x0900_0000);
}

#[test]
fn byte_media_ops() {
    let m = |op: Op, a: u64, b: u64, c: u64| e(op, I32, &[I32; 3], &[a, b, c]);
    assert_eq!(m(Op::SadU8, 0x0102_0304, 0x0403_0201, 10), 18);
    assert_eq!(m(Op::SadHiU8, 0x0102_0304, 0x0403_0201, 10), (8 << 16) + 10);
    assert_eq!(m(Op::SadU8, 0xff00_ff00, 0x00ff_00ff, 0xffff_ff00), 0x2fc); // wraps
    assert_eq!(m(Op::SadU16, 0x0001_0005, 0x0003_0001, 0), 6);
    assert_eq!(m(Op::SadU16, 0xffff_0000, 0x0000_ffff, 1), 0x1_fffe + 1);
    assert_eq!(m(Op::SadU32, 5, 9, 1), 5);
    assert_eq!(m(Op::SadU32, 0, 0xffff_ffff, 1), 0);
    assert_eq!(m(Op::MsadU8, 0x1020_3040, 0x0020_1000, 0), 0x20);
    assert_eq!(m(Op::MsadU8, 0xffff_ffff, 0, 7), 7);
    assert_eq!(
        m(Op::LerpU8, 0x00ff_0301, 0x00ff_0102, 0x0001_0100),
        0x00ff_0201
    );
    assert_eq!(
        m(Op::LerpU8, 0x0101_0101, 0x0202_0202, 0xfefe_fefe),
        0x0101_0101
    );
}
