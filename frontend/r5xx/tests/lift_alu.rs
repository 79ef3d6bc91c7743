//! ALU arithmetic on both engines against the seed's rules written out on the host
//! (`lift_common::model`): MAD in both multiply modes, the output modifiers and the clamp,
//! the extra range, dot products, FRC, the selects, presubtract, swizzles, modifiers.

mod lift_common;

use lift_common::model::*;
use lift_common::*;
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
