//! Transcendentals, CUBE and the rounding modes, through the IR interpreter (and the JIT,
//! which must agree).
//!
//! Tolerance rule: RECIP_IEEE and SQRT_IEEE (and their _64 forms) are correctly rounded, so
//! they must equal the host's `1/x` and `sqrt`; EXP/LOG/RECIPSQRT/SIN/COS must be within
//! 1 ulp of the host's f64 function rounded to f32; the special cases the document lists
//! (EXP(0) = 1, LOG(1) = 0, RECIP(1) = 1, _CLAMPED: ±max float, _FF: ±0, SIN/COS out of
//! [-256, 256]: 0 and 1) are exact.

mod alu_common;

use alu_common::*;
use wavejit_ir::{FloatMode, Round};
use wavejit_terascale::AluOp;

fn one(op: AluOp, mode: FloatMode, rows: &[Vec<u32>]) -> Vec<[u32; 8]> {
    run(&build(op, &env(mode)), rows)
}

/// A host reference function.
type Host = fn(f64) -> f64;

fn ulps(a: u32, b: u32) -> u64 {
    let key = |x: u32| {
        if x >> 31 == 1 {
            -i64::from(x & 0x7fff_ffff)
        } else {
            i64::from(x)
        }
    };
    key(a).abs_diff(key(b))
}

const XS: &[f32] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    3.0,
    0.1,
    -0.1,
    10.5,
    -7.25,
    100.0,
    1e-30,
    1e30,
    0.25,
    0.125,
    -0.375,
    255.9,
    256.5,
    -300.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
];

#[test]
fn transcendentals_within_their_tolerance() {
    let rows: Vec<Vec<u32>> = XS.iter().map(|x| vec![x.to_bits()]).collect();
    let cases: [(AluOp, Host, u64); 10] = [
        (AluOp::EXP_IEEE, f64::exp2, 1),
        (
            AluOp::LOG_IEEE,
            |v| if v < 0.0 { f64::NAN } else { v.log2() },
            1,
        ),
        (
            AluOp::LOG_CLAMPED,
            |v| if v < 0.0 { f64::NAN } else { v.log2() },
            1,
        ),
        (AluOp::RECIP_IEEE, |v| 1.0 / v, 0),
        (AluOp::RECIP_CLAMPED, |v| 1.0 / v, 0),
        (AluOp::RECIP_FF, |v| 1.0 / v, 0),
        (
            AluOp::RECIPSQRT_IEEE,
            |v| if v < 0.0 { f64::NAN } else { 1.0 / v.sqrt() },
            1,
        ),
        (
            AluOp::RECIPSQRT_CLAMPED,
            |v| if v < 0.0 { f64::NAN } else { 1.0 / v.sqrt() },
            1,
        ),
        (
            AluOp::RECIPSQRT_FF,
            |v| if v < 0.0 { f64::NAN } else { 1.0 / v.sqrt() },
            1,
        ),
        (
            AluOp::SQRT_IEEE,
            |v| if v < 0.0 { f64::NAN } else { v.sqrt() },
            0,
        ),
    ];
    for (op, host, tol) in cases {
        let got = one(op, FloatMode::IEEE, &rows);
        for (x, g) in XS.iter().zip(&got) {
            let mut want = host(f64::from(*x)) as f32;
            let name = op.name();
            if want.is_infinite() && name.ends_with("CLAMPED") {
                want = if want > 0.0 { f32::MAX } else { f32::MIN };
            }
            if want.is_infinite() && name.ends_with("_FF") {
                want = if want > 0.0 { 0.0 } else { -0.0 };
            }
            if want.is_nan() {
                assert_eq!(g[0], 0xffc0_0000, "{name}({x})");
            } else {
                let d = ulps(g[0], want.to_bits());
                assert!(
                    d <= tol,
                    "{name}({x}) = {:e}, want {want:e}",
                    f32::from_bits(g[0])
                );
            }
        }
    }
    // Exact special cases of the document.
    let special = [
        (AluOp::EXP_IEEE, 0.0f32, 1.0f32),
        (AluOp::LOG_IEEE, 1.0, 0.0),
        (AluOp::RECIP_IEEE, 1.0, 1.0),
    ];
    for (op, x, want) in special {
        assert_eq!(
            one(op, FloatMode::IEEE, &[vec![x.to_bits()]])[0][0],
            want.to_bits()
        );
    }
    // LOG_CLAMPED(0) = -MAX_FLOAT; RECIP_FF(-0) = -0.
    assert_eq!(
        one(AluOp::LOG_CLAMPED, FloatMode::IEEE, &[vec![0]])[0][0],
        f32::MIN.to_bits()
    );
    assert_eq!(
        one(AluOp::RECIP_FF, FloatMode::IEEE, &[vec![0x8000_0000]])[0][0],
        0x8000_0000
    );
}

#[test]
fn sin_cos_take_turns() {
    let xs = [
        0.0f32, 0.25, 0.5, -0.25, 0.125, 0.1, 3.75, 256.0, 256.5, -1000.0,
    ];
    let rows: Vec<Vec<u32>> = xs.iter().map(|x| vec![x.to_bits()]).collect();
    let s = one(AluOp::SIN, FloatMode::IEEE, &rows);
    let c = one(AluOp::COS, FloatMode::IEEE, &rows);
    for (k, x) in xs.iter().enumerate() {
        let t = f64::from(*x) * std::f64::consts::TAU;
        let (ws, wc) = if x.abs() > 256.0 {
            (0.0, 1.0)
        } else {
            (t.sin() as f32, t.cos() as f32)
        };
        // Exact turns (0.25, 0.5) are exact: the tolerance of 1 ulp covers the rest; near a
        // zero of the function the absolute error is bounded by 2^-24 instead.
        for (g, w) in [(s[k][0], ws), (c[k][0], wc)] {
            let gf = f32::from_bits(g);
            assert!(
                ulps(g, w.to_bits()) <= 1 || (gf - w).abs() < 1e-7,
                "{x}: {gf} vs {w}"
            );
        }
    }
    assert_eq!(s[1][0], 1f32.to_bits(), "sin(quarter turn) is exactly 1");
    assert_eq!(s[2][0] & 0x7fff_ffff, 0, "sin(half turn) is exactly 0");
}

#[test]
fn double_transcendentals_return_the_high_dword() {
    let xs = [4.0f64, 2.0, 0.1, 1.0, 0.0, -4.0, f64::INFINITY];
    let rows: Vec<Vec<u32>> = xs
        .iter()
        .map(|x| vec![(x.to_bits() >> 32) as u32, x.to_bits() as u32])
        .collect();
    let host: [(AluOp, Host); 5] = [
        (AluOp::RECIP_64, |v| 1.0 / v),
        (AluOp::RECIP_CLAMPED_64, |v| {
            let r = 1.0 / v;
            if r.is_infinite() {
                f64::MAX.copysign(r)
            } else {
                r
            }
        }),
        (AluOp::RECIPSQRT_64, |v| {
            if v < 0.0 {
                f64::NAN
            } else {
                1.0 / v.sqrt()
            }
        }),
        (AluOp::RECIPSQRT_CLAMPED_64, |v| {
            let r = if v < 0.0 { f64::NAN } else { 1.0 / v.sqrt() };
            if r.is_infinite() {
                f64::MAX.copysign(r)
            } else {
                r
            }
        }),
        (
            AluOp::SQRT_64,
            |v| if v < 0.0 { f64::NAN } else { v.sqrt() },
        ),
    ];
    for (op, h) in host {
        let got = one(op, FloatMode::IEEE, &rows);
        for (x, g) in xs.iter().zip(&got) {
            let w = h(*x);
            let want = if w.is_nan() {
                0xfff8_0000
            } else {
                (w.to_bits() >> 32) as u32
            };
            assert_eq!(g[0], want, "{}({x})", op.name());
        }
    }
}

#[test]
fn cube_gives_tc_sc_twice_major_axis_and_face() {
    // (x, y, z) -> slot operands src0 = zzxy, src1 = yxzz.
    let vs = [
        (1.0f32, 0.5f32, -0.25f32),
        (-0.5, 2.0, 0.75),
        (0.1, -0.2, -3.0),
        (0.0, 0.0, 1.0),
    ];
    let rows: Vec<Vec<u32>> = vs
        .iter()
        .map(|&(x, y, z)| {
            [z, y, z, x, x, z, y, z]
                .iter()
                .map(|v| v.to_bits())
                .collect()
        })
        .collect();
    let got = one(AluOp::CUBE, FloatMode::IEEE, &rows);
    for (&(x, y, z), g) in vs.iter().zip(&got) {
        // The major axis and its face (+x 0, -x 1, +y 2, -y 3, +z 4, -z 5), with the
        // OpenGL/D3D cube-map sc/tc before the divide.
        let (ma, face, sc, tc) = if z.abs() >= x.abs() && z.abs() >= y.abs() {
            (
                z,
                if z < 0.0 { 5.0 } else { 4.0 },
                if z < 0.0 { -x } else { x },
                -y,
            )
        } else if y.abs() >= x.abs() {
            (
                y,
                if y < 0.0 { 3.0 } else { 2.0 },
                x,
                if y < 0.0 { -z } else { z },
            )
        } else {
            (
                x,
                if x < 0.0 { 1.0 } else { 0.0 },
                if x < 0.0 { z } else { -z },
                -y,
            )
        };
        let want = [tc, sc, 2.0 * ma, face].map(f32::to_bits);
        assert_eq!(&g[..4], &want, "cube({x}, {y}, {z})");
    }
}

#[test]
fn rounding_modes_and_flush_settings_apply() {
    let one_p = 1.0f32.to_bits();
    let tiny = 2f32.powi(-24).to_bits(); // half an ulp of 1.0: a tie
    let modes = [
        (Round::NearestEven, 0x3f80_0000u32),
        (Round::TowardZero, 0x3f80_0000),
        (Round::TowardPositive, 0x3f80_0001),
        (Round::TowardNegative, 0x3f80_0000),
    ];
    for (round, want) in modes {
        let m = FloatMode {
            round,
            ..FloatMode::IEEE
        };
        assert_eq!(
            one(AluOp::ADD, m, &[vec![one_p, tiny]])[0][0],
            want,
            "{round:?}"
        );
    }
    // 1 + 3*2^-24 ties to even upward under RNE.
    let three = (3.0 * 2f32.powi(-24)).to_bits();
    assert_eq!(
        one(AluOp::ADD, FloatMode::IEEE, &[vec![one_p, three]])[0][0],
        0x3f80_0002
    );
    // INT_TO_FLT of 2^24 + 1 in the four modes.
    let big = (1u32 << 24) + 1;
    for (round, want) in [
        (Round::NearestEven, 16777216.0f32),
        (Round::TowardPositive, 16777218.0),
        (Round::TowardZero, 16777216.0),
    ] {
        let m = FloatMode {
            round,
            ..FloatMode::IEEE
        };
        assert_eq!(
            one(AluOp::INT_TO_FLT, m, &[vec![big]])[0][0],
            want.to_bits(),
            "{round:?}"
        );
    }
    // Denormal products: kept, or flushed on output only, or read as zero on input.
    let (d, half) = (0x0000_0002u32, 0.5f32.to_bits());
    assert_eq!(
        one(AluOp::MUL_IEEE, FloatMode::IEEE, &[vec![d, half]])[0][0],
        1
    );
    assert_eq!(
        one(AluOp::MUL_IEEE, FloatMode::FLUSH_OUT, &[vec![d, half]])[0][0],
        0
    );
    assert_eq!(
        one(
            AluOp::MUL_IEEE,
            FloatMode::FLUSH_IN,
            &[vec![0x0080_0000, half]]
        )[0][0],
        0x0040_0000
    );
    // Legacy multiply: 0 * inf and 0 * NaN are +0; the IEEE multiply gives NaN.
    let (inf, nan) = (f32::INFINITY.to_bits(), 0x7fc1_2345u32);
    let r = one(
        AluOp::MUL,
        FloatMode::IEEE,
        &[vec![0, inf], vec![nan, 0x8000_0000]],
    );
    assert_eq!((r[0][0], r[1][0]), (0, 0));
    assert_eq!(
        one(AluOp::MUL_IEEE, FloatMode::IEEE, &[vec![0, inf]])[0][0],
        0xffc0_0000
    );
    // FLT_TO_INT_RPI: ties go up, 0.49999997 goes down.
    let r = one(
        AluOp::FLT_TO_INT_RPI,
        FloatMode::IEEE,
        &[
            vec![2.5f32.to_bits()],
            vec![(-2.5f32).to_bits()],
            vec![0x3eff_ffff],
        ],
    );
    assert_eq!((r[0][0], r[1][0] as i32, r[2][0]), (3, -2, 0));
}

#[test]
fn output_modifier_scales_then_clamps() {
    use std::sync::Arc;
    use wavejit_ir::{FileKind, FunctionBuilder, Reg, ScalarType, StateLayout, Terminator};
    use wavejit_runtime::WaveState;
    use wavejit_terascale::lift::{clamp, omod, Omod};
    let xs = [0.3f32, 0.6, -0.2, 1e30, f32::NAN, -0.0];
    for (m, k) in [
        (Omod::Off, 1.0f32),
        (Omod::M2, 2.0),
        (Omod::M4, 4.0),
        (Omod::D2, 0.5),
    ] {
        let mut l = StateLayout::new(64);
        let r = l.add_file("r", FileKind::Lane, 4);
        let mut b = FunctionBuilder::new("omod", l);
        let blk = b.create_block();
        b.switch_to(blk);
        let x = b.use_reg(Reg::new(r, 0), ScalarType::I32);
        let s = omod(&mut b, m, FloatMode::IEEE, x);
        let c = clamp(&mut b, FloatMode::IEEE, s);
        b.def_reg(Reg::new(r, 1), s, None);
        b.def_reg(Reg::new(r, 2), c, None);
        b.terminate(Terminator::Return);
        let f = Arc::new(b.finish());
        let mut st = WaveState::new(Arc::new(f.layout.clone()));
        for (lane, x) in xs.iter().enumerate() {
            st.set_lane(Reg::new(r, 0), lane as u32, x.to_bits());
        }
        let st = run_state(&f, st);
        for (lane, x) in xs.iter().enumerate() {
            let scaled = x * k;
            let want_c = if scaled.is_nan() {
                0.0
            } else {
                scaled.clamp(0.0, 1.0) + 0.0
            };
            let got_s = st.lane(Reg::new(r, 1), lane as u32);
            if !scaled.is_nan() {
                assert_eq!(got_s, scaled.to_bits(), "{m:?} {x}");
            }
            assert_eq!(
                st.lane(Reg::new(r, 2), lane as u32),
                want_c.to_bits(),
                "{m:?} clamp {x}"
            );
        }
    }
}
