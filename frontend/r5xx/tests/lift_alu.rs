//! ALU arithmetic on both engines against the seed's rules written out on the host
//! (`lift_common::model`): MAD in both multiply modes, the output modifiers and the clamp,
//! the extra range, dot products, FRC, the selects, presubtract, swizzles, modifiers.

mod lift_common;

use lift_common::model::*;
use lift_common::*;
use wavejit_r5xx::inst::Src;
use wavejit_r5xx::table::{AlphaOp, Modifier, Omod, Presub, RgbOp};

const OMODS: [Omod; 7] = [
    Omod::Mul1,
    Omod::Mul2,
    Omod::Mul4,
    Omod::Mul8,
    Omod::Div2,
    Omod::Div4,
    Omod::Div8,
];

/// The edge operand `k` of lane `l`, channel `c` in run `salt`.
fn operand(salt: u32, l: u32, c: u32, k: u32) -> f32 {
    edge(salt * 256 + l * 4 + c, k)
}

/// r1 = r2 * r3 + r4 in all four channels.
fn check_mad(salt: u32, omod: Omod, clamp: bool, legacy: bool) {
    let prog = vec![alu(RgbOp::Mad, AlphaOp::Mad)
        .srcs([t(2), t(3), t(4)])
        .omod(omod, omod)
        .clamp(clamp, clamp)
        .dst(1, 7, true)
        .inst()];
    let mut m = Machine::new(prog);
    m.setup.info.zero_times_anything = legacy;
    for c in 0..4 {
        for k in 0..3 {
            m.set_temp(2 + k, c, |l| operand(salt, l, c, k).to_bits());
        }
    }
    let d = m.go();
    for c in 0..4 {
        let want: Vec<u32> = (0..64)
            .map(|l| {
                let x = |k| operand(salt, l, c, k);
                finish(mad(x(0), x(1), x(2), legacy), omod, clamp)
            })
            .collect();
        assert_lanes(
            &format!("MAD channel {c} {omod:?} clamp {clamp} legacy {legacy}"),
            &d.row(1, c),
            &want,
        );
    }
}

#[test]
fn mad_over_edge_values_every_omod_and_clamp() {
    for (i, &omod) in OMODS.iter().enumerate() {
        check_mad(i as u32, omod, false, false);
        check_mad(10 + i as u32, omod, true, false);
    }
}

#[test]
fn mad_with_the_legacy_multiply() {
    for salt in 20..24 {
        check_mad(salt, Omod::Mul1, false, true);
    }
}

/// Runs one slot over lanes whose r2, r3, r4 are `inputs(lane)` (x, y, z, w each) and
/// gives r1 of every lane.
fn one(slot: AluB, legacy: bool, inputs: impl Fn(u32) -> [[f32; 4]; 3]) -> Vec<[u32; 4]> {
    let mut m = Machine::new(vec![slot.dst(1, 7, true).inst()]);
    m.setup.info.zero_times_anything = legacy;
    for k in 0..3 {
        m.set_temp4(2 + k, |l| inputs(l)[k as usize]);
    }
    let d = m.go();
    (0..64)
        .map(|l| std::array::from_fn(|c| d.r(1, c as u32, l)))
        .collect()
}

fn mad_slot() -> AluB {
    alu(RgbOp::Mad, AlphaOp::Mad).srcs([t(2), t(3), t(4)])
}

#[test]
fn the_seeds_mad_examples() {
    let big = 2f32.powi(64);
    let tiny = 2f32.powi(-64);
    let cases: [([f32; 3], Omod, bool, u32); 8] = [
        // Extra range: 2^128 overflows f32, ÷2 brings it back (§3.6.2).
        ([big, big, 0.0], Omod::Div2, false, f(2f32.powi(127))),
        // A denormal intermediate made normal by ×8.
        ([tiny, tiny, 0.0], Omod::Mul8, false, f(2f32.powi(-125))),
        // Without OMOD help the same products overflow / flush.
        ([big, big, 0.0], Omod::Mul1, false, f(f32::INFINITY)),
        ([tiny, tiny, 0.0], Omod::Mul1, false, 0),
        // "r0 * 1 + 0" does not copy -0; "-0 * 0 + r1" does.
        ([-0.0, 1.0, 0.0], Omod::Mul1, false, 0),
        ([-0.0, 0.0, -0.0], Omod::Mul1, false, 0x8000_0000),
        // 0 * Inf is NaN, standardised; legacy: 0.
        ([0.0, f32::INFINITY, 1.0], Omod::Mul1, false, 0x7fff_ffff),
        ([0.0, f32::INFINITY, 1.0], Omod::Mul1, true, f(1.0)),
    ];
    for (n, (x, omod, legacy, want)) in cases.into_iter().enumerate() {
        let got = one(mad_slot().omod(omod, omod), legacy, |_| x.map(|v| [v; 4]));
        for (c, &g) in got[0].iter().enumerate() {
            assert_eq!(g, want, "case {n} channel {c}: {x:?} {omod:?}");
        }
    }
}

#[test]
fn dot_products_and_alpha_dp() {
    for (op, terms) in [(RgbOp::Dp3, 3), (RgbOp::Dp4, 4), (RgbOp::D2a, 2)] {
        for (omod, legacy) in [(Omod::Mul1, false), (Omod::Div4, true), (Omod::Mul2, false)] {
            let slot = alu(op, AlphaOp::Dp)
                .srcs([t(2), t(3), t(4)])
                .omod(omod, Omod::Mul8);
            let x = |l: u32, k: u32, c: u32| edge(l * 16 + k * 4 + c + 1000 * terms, 0);
            let got = one(slot, legacy, |l| {
                std::array::from_fn(|k| std::array::from_fn(|c| x(l, k as u32, c as u32)))
            });
            for (l, g) in got.iter().enumerate() {
                let l = l as u32;
                let mut values: Vec<f64> = (0..terms)
                    .map(|c| mul(x(l, 0, c), x(l, 1, c), legacy))
                    .collect();
                if op == RgbOp::D2a {
                    values.push(wide(x(l, 2, 2)));
                }
                let sum = dot_sum(&values);
                let rgb = finish(sum, omod, false);
                assert_eq!(g[..3], [rgb; 3], "{op:?} lane {l} {omod:?} legacy {legacy}");
                assert_eq!(g[3], finish(sum, Omod::Mul8, false), "ALPHA_DP lane {l}");
            }
        }
    }
}

/// Seed 003 §3.6.2: "if the two largest values to be added cancel exactly, and the
/// next-largest value has a magnitude smaller by a factor of 2^25 or more, X1K FP will emit
/// +0.0 rather than the sum of the two remaining components".
#[test]
fn dot_products_lose_terms_2_pow_25_below_the_largest() {
    let big = 3.0f32 * 2f32.powi(20);
    let cases = [
        // Cancelling largest terms, the rest 2^25 and 2^26 times smaller: +0.0.
        ([big, -big, big * 2f32.powi(-25)], f(0.0)),
        ([big, big * 2f32.powi(-26), -big], f(0.0)),
        ([-big * 2f32.powi(-25), big, -big], f(0.0)),
        // 2^24 times smaller is kept.
        ([big, -big, big * 2f32.powi(-24)], f(big * 2f32.powi(-24))),
        // Without cancellation the lost term is below the result's precision anyway.
        ([big, big, -big * 2f32.powi(-25)], f(2.0 * big)),
        // Zero terms keep their sign: -0 + -0 + -0 is -0.
        ([-0.0, -0.0, -0.0], 0x8000_0000),
    ];
    for (n, (products, want)) in cases.into_iter().enumerate() {
        // DP3 of (p0, p1, p2) . (1, 1, 1), alpha DP (the same sum).
        let slot = alu(RgbOp::Dp3, AlphaOp::Dp).srcs([t(2), t(3), t(4)]);
        let got = one(slot, false, |_| {
            [
                [products[0], products[1], products[2], 0.0],
                [1.0; 4],
                [0.0; 4],
            ]
        });
        assert_eq!(got[0], [want; 4], "case {n}: {products:?}");
        let terms: Vec<f64> = products.iter().map(|&p| wide(p)).collect();
        assert_eq!(
            finish(dot_sum(&terms), Omod::Mul1, false),
            want,
            "model, case {n}"
        );
    }
}

#[test]
fn dp4_takes_its_fourth_components_from_the_alpha_selects() {
    // A.a from alpha input A (src2's alpha address, swizzle a), B.a = alpha input B's 0.5.
    let slot = alu(RgbOp::Dp4, AlphaOp::Dp)
        .srcs([t(2), t(3), t(4)])
        .alpha_in(0, 2, 'a', Modifier::Nop)
        .alpha_in(1, 1, 'h', Modifier::Nop);
    let got = one(slot, false, |_| {
        [
            [1.0, 2.0, 3.0, 100.0],
            [4.0, 5.0, 6.0, 200.0],
            [0.0, 0.0, 0.0, 8.0],
        ]
    });
    // 1*4 + 2*5 + 3*6 + 8*0.5
    assert_eq!(got[7], [f(36.0); 4]);
}

/// MIN/MAX/CND/CMP with OMOD_DISABLED: which of A or B comes back, bit for bit.
#[test]
fn selects_return_one_input_bit_exact() {
    let pick = |op: RgbOp, a: f32, b: f32, c: f32| -> f32 {
        let (fa, fb, fc) = (flush(a), flush(b), flush(c));
        let first = match op {
            RgbOp::Min => fa < fb,
            RgbOp::Max => fa > fb,
            RgbOp::Cnd => fc > 0.5,
            _ => fc >= 0.0,
        };
        if first {
            a
        } else {
            b
        }
    };
    let alpha = |op| match op {
        RgbOp::Min => AlphaOp::Min,
        RgbOp::Max => AlphaOp::Max,
        RgbOp::Cnd => AlphaOp::Cnd,
        _ => AlphaOp::Cmp,
    };
    for (i, op) in [RgbOp::Min, RgbOp::Max, RgbOp::Cnd, RgbOp::Cmp]
        .into_iter()
        .enumerate()
    {
        for omod in [Omod::Disable, Omod::Mul2] {
            let slot = alu(op, alpha(op)).srcs([t(2), t(3), t(4)]).omod(omod, omod);
            let x = |l: u32, k: u32, c: u32| edge(l * 4 + c + 300 * i as u32, k);
            let got = one(slot, false, |l| {
                std::array::from_fn(|k| std::array::from_fn(|c| x(l, k as u32, c as u32)))
            });
            for (l, g) in got.iter().enumerate() {
                for c in 0..4u32 {
                    let l = l as u32;
                    let p = pick(op, x(l, 0, c), x(l, 1, c), x(l, 2, c));
                    let want = if omod == Omod::Disable {
                        p.to_bits()
                    } else {
                        finish(wide(p), omod, false)
                    };
                    assert_eq!(g[c as usize], want, "{op:?} {omod:?} lane {l} channel {c}");
                }
            }
        }
    }
}

#[test]
fn min_and_max_of_zeros_and_nan_return_the_second_input() {
    let nan = f32::from_bits(0x7fc0_1234);
    let cases = [
        (RgbOp::Min, 0.0, -0.0, -0.0),
        (RgbOp::Min, -0.0, 0.0, 0.0),
        (RgbOp::Max, 0.0, -0.0, -0.0),
        (RgbOp::Max, -0.0, 0.0, 0.0),
        (RgbOp::Min, nan, 1.0, 1.0),
        (RgbOp::Max, 1.0, nan, nan),
        (RgbOp::Max, f32::INFINITY, 1.0, f32::INFINITY),
    ];
    for (op, a, b, want) in cases {
        let ao = if op == RgbOp::Min {
            AlphaOp::Min
        } else {
            AlphaOp::Max
        };
        let slot = alu(op, ao)
            .srcs([t(2), t(3), t(4)])
            .omod(Omod::Disable, Omod::Disable);
        let got = one(slot, false, |_| [[a; 4], [b; 4], [0.0; 4]]);
        assert_eq!(got[0], [want.to_bits(); 4], "{op:?}({a}, {b})");
    }
}

#[test]
fn cnd_and_cmp_compare_c_with_denormals_as_zero() {
    let d = f32::from_bits(0x8000_0001); // a negative denormal: CMP reads it as 0 (>= 0)
    let cases = [
        (RgbOp::Cmp, d, 1.0),
        (RgbOp::Cmp, -1.0, 2.0),
        (RgbOp::Cmp, f32::NAN, 2.0),
        (RgbOp::Cnd, 0.5, 2.0),
        (RgbOp::Cnd, 0.500_000_06, 1.0),
        (RgbOp::Cnd, f32::INFINITY, 1.0),
    ];
    for (op, c, want) in cases {
        let ao = if op == RgbOp::Cnd {
            AlphaOp::Cnd
        } else {
            AlphaOp::Cmp
        };
        let slot = alu(op, ao).srcs([t(2), t(3), t(4)]);
        let got = one(slot, false, |_| [[1.0; 4], [2.0; 4], [c; 4]]);
        assert_eq!(got[0], [f(want); 4], "{op:?} with C = {c}");
    }
}

#[test]
fn frc_is_a_minus_floor_a() {
    let slot = alu(RgbOp::Frc, AlphaOp::Frc).srcs([t(2), t(3), t(4)]);
    let x = |l: u32, c: u32| edge(l * 4 + c + 7000, 0);
    let got = one(slot, false, |l| {
        [std::array::from_fn(|c| x(l, c as u32)), [0.0; 4], [0.0; 4]]
    });
    for (l, g) in got.iter().enumerate() {
        for (c, &gc) in g.iter().enumerate() {
            let a = wide(x(l as u32, c as u32));
            assert_eq!(
                gc,
                finish(a - a.floor(), Omod::Mul1, false),
                "lane {l} channel {c}"
            );
        }
    }
    // -2^-30 is just below 0: 1 - 2^-30 rounds to 1.0.
    let got = one(
        alu(RgbOp::Frc, AlphaOp::Frc).srcs([t(2), t(3), t(4)]),
        false,
        |_| {
            [
                [-(2f32.powi(-30)), 2.75, -2.25, f32::INFINITY],
                [0.0; 4],
                [0.0; 4],
            ]
        },
    );
    assert_eq!(got[0], [f(1.0), f(0.75), f(0.75), 0x7fff_ffff]);
}

#[test]
fn presubtract_results_feed_the_inputs() {
    type Rule = fn(f32, f32) -> f32;
    let ops: [(Presub, Rule); 4] = [
        (Presub::Bias, |a: f32, _b: f32| 1.0 - 2.0 * a),
        (Presub::Sub, |a: f32, b: f32| b - a),
        (Presub::Add, |a: f32, b: f32| b + a),
        (Presub::Inv, |a: f32, _b: f32| 1.0 - a),
    ];
    for (p, op) in ops {
        // r1 = srcp * 1 + 0: MAD A = srcp, B = 1, C = 0.
        let slot = alu(RgbOp::Mad, AlphaOp::Mad)
            .srcs([t(2), t(3), t(4)])
            .presub(p, p)
            .rgb_in(0, 3, "rgb", Modifier::Nop)
            .alpha_in(0, 3, 'a', Modifier::Nop)
            .rgb_in(1, 0, "111", Modifier::Nop)
            .alpha_in(1, 0, '1', Modifier::Nop)
            .rgb_in(2, 0, "000", Modifier::Nop)
            .alpha_in(2, 0, '0', Modifier::Nop);
        let x = |l: u32, k: u32, c: u32| f32::from(l as u8) * 0.75 - 3.0 * (k + c) as f32;
        let got = one(slot, false, |l| {
            std::array::from_fn(|k| std::array::from_fn(|c| x(l, k as u32, c as u32)))
        });
        for (l, g) in got.iter().enumerate() {
            for c in 0..4 {
                let l = l as u32;
                let v = op(x(l, 0, c), x(l, 1, c));
                assert_eq!(g[c as usize], f(v + 0.0), "{p:?} lane {l} channel {c}");
            }
        }
    }
}

#[test]
fn swizzles_constants_and_modifiers() {
    // r1.rgb = MAD(src0.bgr|neg, src1.h1a|abs, src2.0rg|nab); alpha = MAD(src1.r, src0.a, 0).
    let slot = mad_slot()
        .rgb_in(0, 0, "bgr", Modifier::Neg)
        .rgb_in(1, 1, "h1a", Modifier::Abs)
        .rgb_in(2, 2, "0rg", Modifier::Nab)
        .alpha_in(0, 1, 'r', Modifier::Nop)
        .alpha_in(1, 0, 'a', Modifier::Neg)
        .alpha_in(2, 0, '0', Modifier::Nop);
    let got = one(slot, false, |_| {
        [
            [1.0, 2.0, 3.0, 4.0],
            [5.0, 6.0, 7.0, -8.0],
            [9.0, -10.0, 11.0, 12.0],
        ]
    });
    let want = [
        -3.0 * 0.5 + -0.0, // -(b)=-3, |h|, -|0|
        -2.0 * 1.0 - 9.0,  // -(g)=-2, |1|, -|r|=-9
        -8.0 - 10.0,       // -(r)=-1 times |a|=8, -|g|=-10
        5.0 * -4.0 + 0.0,  // src1.r * -(src0.a)
    ];
    assert_eq!(got[0], want.map(f));
}

#[test]
fn rgb_and_alpha_addresses_feed_both_units() {
    // RGB address 0 = r2, alpha address 0 = r3: src0 = (r2.rgb, r3.a).
    let slot = alu(RgbOp::Mad, AlphaOp::Mad)
        .rgb_srcs([t(2), Src::UNUSED, Src::UNUSED])
        .alpha_srcs([t(3), Src::UNUSED, Src::UNUSED])
        .rgb_in(0, 0, "aar", Modifier::Nop)
        .rgb_in(1, 0, "111", Modifier::Nop)
        .rgb_in(2, 0, "000", Modifier::Nop)
        .alpha_in(0, 0, 'g', Modifier::Nop)
        .alpha_in(1, 0, '1', Modifier::Nop)
        .alpha_in(2, 0, '0', Modifier::Nop);
    let got = one(slot, false, |_| {
        [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [0.0; 4]]
    });
    assert_eq!(got[0], [8.0, 8.0, 1.0, 2.0].map(f));
}

#[test]
fn inline_constants_have_the_seeds_values() {
    // Value = 2^(e-7) (1 + m/8), e > 0; m 2^-9 for e = 0; pattern 0 is 2^-10 (lines 754-764).
    let value = |p: u32| -> f32 {
        let (e, m) = ((p >> 3) as i32, (p & 7) as f32);
        if p == 0 {
            2f32.powi(-10)
        } else if e == 0 {
            m * 2f32.powi(-9)
        } else {
            2f32.powi(e - 7) * (1.0 + m / 8.0)
        }
    };
    assert_eq!(value(0x7f), 480.0);
    for chunk in 0..8u32 {
        // Slot s moves inline pattern 16 chunk + s into r(1 + s).
        let prog: Vec<_> = (0..16u32)
            .map(|s| mov(1 + s as u8, inline((16 * chunk + s) as u8), 7, true).inst())
            .collect();
        let d = Machine::new(prog).go();
        for s in 0..16 {
            let p = 16 * chunk + s;
            assert_eq!(d.r(1 + s, 0, 5), f(value(p)), "pattern {p:#x}");
            assert_eq!(d.r(1 + s, 3, 5), f(value(p)), "pattern {p:#x} alpha");
        }
    }
}

#[test]
fn float_constants_are_elements_of_the_constant_surface() {
    let prog = vec![mad_slot().srcs([k(3), k(200), t(4)]).dst(1, 7, true).inst()];
    let mut m = Machine::new(prog);
    let mut consts = vec![[0.0f32; 4]; 256];
    consts[3] = [1.0, 2.0, 3.0, 4.0];
    consts[200] = [10.0, 20.0, 30.0, -1.0];
    m.constf(0x8000, &consts);
    m.set_temp4(4, |l| [l as f32; 4]);
    let d = m.go();
    for l in [0, 33, 63] {
        let x = l as f32;
        assert_eq!(
            [0, 1, 2, 3].map(|c| d.r(1, c, l)),
            [10.0 + x, 40.0 + x, 90.0 + x, -4.0 + x].map(f)
        );
    }
}
