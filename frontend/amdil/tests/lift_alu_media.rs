//! The multimedia instructions (7.13) and the f16 conversions on both engines, against their
//! entries' formulas written here on the host (byte sums, funnel shifts, and an f16 encoder
//! and decoder of IEEE 754's binary16 written from the format's definition).

mod alu_common;
mod lift_common;
use alu_common::*;
use lift_common::{Kernel, LANES};

fn bytes(x: u32) -> [u32; 4] {
    [0, 8, 16, 24].map(|s| x >> s & 0xff)
}

fn sad(a: u32, b: u32) -> u32 {
    bytes(a)
        .iter()
        .zip(bytes(b))
        .map(|(&x, y)| x.abs_diff(y))
        .sum()
}

#[test]
fn bitalign_and_bytealign_are_funnel_shifts() {
    // The entry's examples (L9660): r1.y = 0x01234567, r1.x = 0x89ABCDEF; its first result
    // is misprinted 0xA4D5E6F7.
    for (s, r) in [(1, 0xC4D5_E6F7), (11, 0xACF1_3579), (24, 0x2345_6789)] {
        check(
            "bitalign r4.x___, r0.x, r1.x, r2.x",
            &[[0x0123_4567, 0x89AB_CDEF, s, 0]],
            |_| Bits(r),
        );
    }
    let funnel = |hi: u32, lo: u32, s: u32| ((u64::from(hi) << 32 | u64::from(lo)) >> s) as u32;
    check(
        "bitalign r4.x___, r0.x, r1.x, r2.x",
        &triples(&I),
        |[a, b, c, _]| Bits(funnel(a, b, c & 31)),
    );
    check(
        "bytealign r4.x___, r0.x, r1.x, r2.x",
        &triples(&I),
        |[a, b, c, _]| Bits(funnel(a, b, 8 * (c & 3))),
    );
}

#[test]
fn sums_of_absolute_differences() {
    let v = [
        0,
        0xff,
        0xff00_ff00,
        0x0102_0304,
        0xffff_ffff,
        0x8040_2010,
        0x7f7f_7f7f,
    ];
    check(
        "sad r4.x___, r0.x, r1.x, r2.x",
        &triples(&v),
        |[a, b, c, _]| Bits(sad(a, b).wrapping_add(c)),
    );
    check(
        "sadhi r4.x___, r0.x, r1.x, r2.x",
        &triples(&v),
        |[a, b, c, _]| Bits((sad(a, b) << 16).wrapping_add(c)),
    );
    let cases: Vec<_> = triples(&v)
        .iter()
        .map(|&[a, b, c, _]| [[a, b, c, !a], [b, c, a, a], [c, 1, 2, 3], [0; 4]])
        .collect();
    check4("sad4 r4, r0, r1, r2", &cases, |c| {
        let s = (0..4).fold(c[2][0], |acc, i| acc.wrapping_add(sad(c[0][i], c[1][i])));
        [Some(Bits(s)); 4]
    });
    check(
        "u4lerp r4.x___, r0.x, r1.x, r2.x",
        &triples(&v),
        |[a, b, c, _]| {
            let (a, b, c) = (bytes(a), bytes(b), bytes(c));
            Bits((0..4).fold(0, |acc, i| acc | (a[i] + b[i] + (c[i] & 1)) >> 1 << (8 * i)))
        },
    );
}

#[test]
fn multimedia_instructions_take_no_modifiers() {
    // 7.2.13 (L3375): "No input or output modifiers are supported".
    assert!(refusal("sad r4.x___, r0.x_neg(x), r1.x, r2.x").contains("logical"));
    assert!(refusal("unpack0_x2 r4.x___, r0.x").contains("float results only"));
    assert!(refusal("f2u4 r4, r0_abs").contains("logical"));
}

#[test]
fn f2u4_packs_four_truncated_bytes_and_unpack_takes_them_out() {
    let f = [0.0f32, 1.0, 1.9, 255.5, 300.0, -3.0, f32::NAN, 17.25];
    let cases: Vec<_> = f
        .iter()
        .map(|&x| {
            [[
                x.to_bits(),
                (x * 0.5).to_bits(),
                7.0f32.to_bits(),
                (x + 2.0).to_bits(),
            ]; 4]
        })
        .collect();
    check4("f2u4 r4, r0", &cases, |c| {
        let b = |x: u32| {
            let v = fl(x);
            // C's conversion toward zero, saturating, NaN to 0; then the low byte.
            (if v.is_nan() {
                0
            } else {
                v.clamp(0.0, u32::MAX as f32) as u32
            }) & 0xff
        };
        let p = (0..4).fold(0, |acc, i| acc | b(c[0][i]) << (8 * i));
        [Some(Bits(p)); 4]
    });
    for k in 0..4 {
        check(
            &format!("unpack{k} r4.x___, r0.x"),
            &singles(&I),
            |[a, ..]| Bits((bytes(a)[k] as f32).to_bits()),
        );
    }
}

/// How an f32 is rounded to f16.
#[derive(Clone, Copy)]
enum Rounding {
    Nearest,
    Down,
    Up,
}

/// `v` (finite or infinite, not NaN) as binary16 bits, rounded per `r`.
fn half(v: f32, r: Rounding) -> u32 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let x = f64::from(v.abs());
    let neg = sign != 0;
    // Round |v| as a magnitude: toward -inf is toward 0 for positives, away for negatives.
    let (away, nearest) = match r {
        Rounding::Nearest => (false, true),
        Rounding::Down => (neg, false),
        Rounding::Up => (!neg, false),
    };
    if x.is_infinite() {
        return sign | 0x7c00;
    }
    let e = if x == 0.0 {
        -14
    } else {
        (x.log2().floor() as i32).max(-14)
    };
    let q = 2f64.powi(e - 10);
    let n = x / q;
    let n = if nearest {
        n.round_ties_even()
    } else if away {
        n.ceil()
    } else {
        n.floor()
    };
    let m = n * q;
    if m > 65504.0 {
        // Overflow: infinity when rounding to nearest or away, else the largest finite.
        return sign | if nearest || away { 0x7c00 } else { 0x7bff };
    }
    if m < 2f64.powi(-14) {
        return sign | (m / 2f64.powi(-24)) as u32;
    }
    let e = m.log2().floor() as i32;
    let frac = (m / 2f64.powi(e) - 1.0) * 1024.0;
    sign | ((e + 15) as u32) << 10 | frac as u32
}

/// The binary16 in the low half of `h`, as f32.
fn unhalf(h: u32) -> f32 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (e, m) = (h >> 10 & 0x1f, h & 0x3ff);
    match e {
        0 => s * m as f32 * 2f32.powi(-24),
        31 if m == 0 => s * f32::INFINITY,
        31 => f32::NAN,
        _ => s * (1024 + m) as f32 * 2f32.powi(e as i32 - 25),
    }
}

fn f16_inputs() -> Vec<u32> {
    let mut v: Vec<u32> = F.iter().copied().filter(|&x| !is_nan(x)).collect();
    v.extend(spread(-70000.0, 70000.0, 301));
    v.extend(spread(-1e-4, 1e-4, 201));
    v.extend(
        [
            65504.0f32,
            65519.99,
            65520.0,
            2f32.powi(-24),
            2f32.powi(-25),
            3.0 * 2f32.powi(-26),
            1.0 + 2f32.powi(-11),
            1.0 + 3.0 * 2f32.powi(-12),
            6.1e-5,
        ]
        .map(f32::to_bits),
    );
    v
}

#[test]
fn f2f16_rounds_to_the_low_half() {
    for (op, r) in [
        ("f2f16", Rounding::Nearest),
        ("f_2_f16_near", Rounding::Nearest),
        ("f_2_f16_neg_inf", Rounding::Down),
        ("f_2_f16_plus_inf", Rounding::Up),
    ] {
        let line = format!("{op} r4.x___, r0.x");
        check(&line, &singles(&f16_inputs()), |[a, ..]| {
            Bits(half(fl(a), r))
        });
        // A NaN stays a NaN in the low half; the high half is zero.
        let k = Kernel::new(&format!("il_cs_2_0\n{line}\nend\n"));
        let mut l = k.launch();
        l.set_r(0, 0, |lane| {
            if lane % 2 == 0 {
                0x7fc0_0000
            } else {
                0xffa0_0001
            }
        });
        let d = l.go();
        for lane in 0..LANES {
            let h = d.r(4, 0, lane);
            assert!(
                h >> 16 == 0 && h & 0x7c00 == 0x7c00 && h & 0x3ff != 0,
                "{op}: {h:#x}"
            );
        }
    }
    // Output modifiers do not apply: the result is not a float.
    assert!(refusal("f2f16_x2 r4.x___, r0.x").contains("float results only"));
}

#[test]
fn f162f_is_exact() {
    let halves: Vec<u32> = (0..0x1_0000u32)
        .step_by(7)
        .chain([0x7c00, 0xfc00, 0x8000, 1, 0x3ff])
        .collect();
    // The high half is ignored.
    let cases: Vec<_> = halves.iter().map(|&h| [h | 0xabcd_0000, 0, 0, 0]).collect();
    check("f162f r4.x___, r0.x", &cases, |[a, ..]| {
        let v = unhalf(a & 0xffff);
        if v.is_nan() {
            Nan
        } else {
            Bits(v.to_bits())
        }
    });
    assert!(refusal("f162f r4.x___, r0.x_neg(x)").contains("logical"));
}
