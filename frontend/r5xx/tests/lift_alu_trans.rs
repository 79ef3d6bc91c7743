//! The alpha unit's transcendentals (seed 003 §3.3.4, §3.6.3): the special-value table at
//! lines 1370-1375, no extra range, RGB_SOP, and ordinary values against host f64 math.

mod lift_common;

use lift_common::*;
use wavejit_r5xx::table::{AlphaOp, Omod, RgbOp};

/// r1 = op(r2.a) in alpha and, through RGB_SOP, in r, g, b (RGB OMOD `rgb_omod`), for lane
/// l's input `x[l]`.
fn run(op: AlphaOp, omod: Omod, rgb_omod: Omod, x: &[f32]) -> Vec<[u32; 4]> {
    let slot = alu(RgbOp::Sop, op)
        .srcs([t(2), t(3), t(4)])
        .omod(rgb_omod, omod)
        .dst(1, 7, true);
    let mut m = Machine::new(vec![slot.inst()]);
    let x = x.to_vec();
    m.set_temp(2, 3, move |l| x[l as usize % x.len()].to_bits());
    let d = m.go();
    (0..64)
        .map(|l| std::array::from_fn(|c| d.r(1, c as u32, l)))
        .collect()
}

const OPS: [AlphaOp; 6] = [
    AlphaOp::Ex2,
    AlphaOp::Ln2,
    AlphaOp::Rcp,
    AlphaOp::Rsq,
    AlphaOp::Sin,
    AlphaOp::Cos,
];

#[test]
fn special_values_follow_the_seeds_table() {
    let inf = f32::INFINITY;
    let nan = 0x7fff_ffff; // NaN, as the output modifier standardises it
    let inputs = [0.0, -0.0, inf, -inf, f32::NAN];
    // Rows: +0, -0, +Inf, -Inf, NaN; columns EX2 LN2 RCP RSQ SIN COS (lines 1370-1375).
    let table: [[u32; 6]; 5] = [
        [f(1.0), f(-inf), f(inf), f(inf), f(0.0), f(1.0)],
        [f(1.0), f(-inf), f(-inf), f(inf), f(-0.0), f(1.0)],
        [f(inf), f(inf), f(0.0), f(0.0), nan, nan],
        [f(0.0), nan, f(-0.0), nan, nan, nan],
        [nan, nan, nan, nan, nan, nan],
    ];
    for (o, &op) in OPS.iter().enumerate() {
        let got = run(op, Omod::Mul1, Omod::Mul1, &inputs);
        for (i, row) in table.iter().enumerate() {
            assert_eq!(got[i], [row[o]; 4], "{op:?}({})", inputs[i]);
        }
    }
}

#[test]
fn denormal_inputs_read_as_signed_zero() {
    let d = f32::from_bits(0x8000_0010);
    let got = run(AlphaOp::Rcp, Omod::Mul1, Omod::Mul1, &[d]);
    assert_eq!(got[0][3], f(f32::NEG_INFINITY));
    let got = run(AlphaOp::Rsq, Omod::Mul1, Omod::Mul1, &[d]);
    assert_eq!(got[0][3], f(f32::INFINITY), "RSQ(-0) = +Inf");
}

#[test]
fn no_extra_range_for_transcendentals() {
    // 2^200 overflows before ÷8; 2^-130 is denormal (flushed) before ×8.
    let got = run(AlphaOp::Ex2, Omod::Div8, Omod::Mul8, &[200.0, -130.0, 3.0]);
    assert_eq!(got[0][3], f(f32::INFINITY));
    assert_eq!(got[1][3], 0);
    assert_eq!(got[1][0], 0, "RGB_SOP takes the flushed value too");
    assert_eq!(got[2][3], f(1.0), "2^3 / 8");
    assert_eq!(got[2][0], f(64.0), "RGB_SOP: 2^3 * 8 with the RGB OMOD");
}

#[test]
fn ordinary_values_match_host_math() {
    let xs: Vec<f32> = (0..64).map(|l| (l as f32 - 20.0) * 0.37 + 0.01).collect();
    for op in OPS {
        let got = run(op, Omod::Mul1, Omod::Mul1, &xs);
        for (l, &x) in xs.iter().enumerate() {
            let v = f64::from(x);
            let want = match op {
                AlphaOp::Ex2 => v.exp2(),
                AlphaOp::Ln2 => v.log2(),
                AlphaOp::Rcp => 1.0 / v,
                AlphaOp::Rsq => 1.0 / v.sqrt(),
                AlphaOp::Sin => (v * std::f64::consts::TAU).sin(),
                _ => (v * std::f64::consts::TAU).cos(),
            } as f32;
            let g = f32::from_bits(got[l][3]);
            if want.is_nan() {
                assert_eq!(got[l][3], 0x7fff_ffff, "{op:?}({x})");
                continue;
            }
            // The IR computes correctly rounded values (sin and cos with an exact argument
            // reduction); host f64 math agrees to within an ulp, and for sin and cos to the
            // error of its rounded argument 2πx (sin(20π) is 2.4e-15 there, 0 here).
            let trig = matches!(op, AlphaOp::Sin | AlphaOp::Cos);
            let floor = if trig { 1e-6 } else { f32::MIN_POSITIVE };
            let ulp = (want.abs() * f32::EPSILON).max(floor);
            assert!((g - want).abs() <= ulp, "{op:?}({x}) = {g}, host {want}");
        }
    }
}

#[test]
fn sin_and_cos_take_turns_beyond_256() {
    let xs = [0.25, 0.5, 1000.25, -300.5, 1e9, 16777216.0];
    let s = run(AlphaOp::Sin, Omod::Mul1, Omod::Mul1, &xs);
    let c = run(AlphaOp::Cos, Omod::Mul1, Omod::Mul1, &xs);
    let sin: Vec<f32> = (0..xs.len()).map(|l| f32::from_bits(s[l][3])).collect();
    let cos: Vec<f32> = (0..xs.len()).map(|l| f32::from_bits(c[l][3])).collect();
    assert_eq!(sin, [1.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(cos, [0.0, -1.0, 0.0, -1.0, 1.0, 1.0]);
}
