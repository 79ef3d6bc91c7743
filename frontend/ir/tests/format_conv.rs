//! Element formats: layout, validity, code layout and every load/store conversion with edge
//! cases (NaN payloads, infinities, -0, denormals, out-of-range values, rounding ties).
//!
//! Oracles, all independent of `wavejit_ir::format`: field widths parsed from the format names
//! (GCN names list fields from the most significant one); the gfx10 unified format list
//! (LLVM SIDefines.h) typed out here; CLRX's V# bit positions; exact rational comparisons for
//! "correctly rounded" (the candidate result and its two neighbours are compared against
//! `c / d` multiplied out in exact f64 arithmetic); the `half` crate for binary16; hand-derived
//! bit patterns.

use half::f16;
use wavejit_ir::{DataFormat, ElemFormat, NumFormat, Sel};

use DataFormat as D;
use NumFormat as N;

/// Field widths of a data format, x first, from its name (`10_11_11` = z:10 y:11 x:11).
fn widths(d: DataFormat) -> Vec<u32> {
    if d == D::Invalid {
        return vec![];
    }
    let mut w: Vec<u32> = d.name().split('_').map(|p| p.parse().unwrap()).collect();
    // Multi-component names of equal widths are symmetric; packed names are MSB first.
    w.reverse();
    w
}

fn fmt(d: DataFormat, n: NumFormat) -> ElemFormat {
    ElemFormat::new(d, n)
}

fn ld(f: ElemFormat, elem: u128, comp: usize) -> u32 {
    f.load(elem, comp, false)
}

fn f32b(x: f32) -> u32 {
    x.to_bits()
}

/// Asserts that `r` is `c / d` correctly rounded to f32 (ties to even), by exact comparison
/// with its neighbours: for f32 `q` and integers `c`, `d` < 2^17, `q * d` is exact in f64.
fn assert_correctly_rounded(r: u32, c: i64, d: i64, what: &str) {
    let q = f32::from_bits(r);
    let dist = |x: f32| ((x as f64) * d as f64 - c as f64).abs();
    let up = f32::from_bits(if q >= 0.0 { r + 1 } else { r - 1 });
    let down = if q == 0.0 {
        -f32::from_bits(1)
    } else {
        f32::from_bits(if q > 0.0 { r - 1 } else { r + 1 })
    };
    let e = dist(q);
    for n in [up, down] {
        let en = dist(n);
        assert!(
            e < en || (e == en && r & 1 == 0),
            "{what}: {c}/{d} gave {q:e} ({r:#x}), neighbour {n:e} is as close"
        );
    }
}

#[test]
fn layouts_follow_the_names() {
    for d in DataFormat::ALL {
        let w = widths(d);
        assert_eq!(d.fields(), &w[..], "{d:?}");
        assert_eq!(d.bytes() * 8, w.iter().sum::<u32>(), "{d:?}");
        // UINT moves each field unchanged: put field index + 1 (at most the field's maximum)
        // into each field.
        let f = fmt(d, N::Uint);
        let v = |i: usize, n: u32| (i as u128 + 1).min((1u128 << n) - 1);
        let (mut elem, mut at) = (0u128, 0);
        for (i, &n) in w.iter().enumerate() {
            elem |= v(i, n) << at;
            at += n;
        }
        for (i, &n) in w.iter().enumerate() {
            assert_eq!(ld(f, elem, i) as u128, v(i, n), "{d:?} {i}");
        }
        if d != D::Invalid {
            assert_eq!(
                f.store(&[1, 2, 3, 4], false),
                Some(elem & mask128(at)),
                "{d:?}"
            );
        }
    }
    // 10_11_11 is R11G11B10: x in bits 10:0, z (10 bits) in 31:22.
    let f = fmt(D::D10_11_11, N::Uint);
    assert_eq!(ld(f, 0x7ff, 0), 0x7ff);
    assert_eq!(ld(f, 0xffc0_0000, 2), 0x3ff);
    // 2_10_10_10 is R10G10B10A2: w is the top 2 bits.
    let f = fmt(D::D2_10_10_10, N::Uint);
    assert_eq!(ld(f, 0xc000_0000, 3), 3);
    // 5_6_5 is B5G6R5 (x = bits 4:0, y = 10:5); 1_5_5_5 has w = bit 15; 8_24 has x = 23:0.
    assert_eq!(ld(fmt(D::D5_6_5, N::Uint), 0x07e0, 1), 0x3f);
    assert_eq!(ld(fmt(D::D1_5_5_5, N::Uint), 0x8000, 3), 1);
    assert_eq!(ld(fmt(D::D8_24, N::Uint), 0x0100_0000, 1), 1);
    assert_eq!(D::D8_8_8.bytes(), 3);
    assert_eq!(D::D16_16_16.bytes(), 6);
}

#[test]
fn layouts_gcn_lacks_name_themselves_and_follow_the_width_rule() {
    for d in &DataFormat::ALL[15..] {
        let d = *d;
        assert!(d as u32 >= 16, "{d:?}");
        let floaty = d.fields().iter().all(|&n| n == 16);
        for n in NumFormat::ALL {
            let f = ElemFormat::new(d, n);
            assert_eq!(f.is_valid(), n != N::Float || floaty, "{d:?} {n:?}");
            let text = f.to_string();
            let p: Vec<&str> = text.split('.').collect();
            assert_eq!(ElemFormat::from_parts(p[0], p[1], p[2]), Ok(f), "{text}");
        }
    }
    // 16_16_16 FLOAT widens binary16 like 16_16_16_16.
    let f = fmt(D::D16_16_16, N::Float);
    assert_eq!(ld(f, 0x3c00u128 << 32, 2), f32b(1.0));
    assert_eq!(ld(f, 0, 3), f32b(1.0), "missing w reads 1.0");
}

fn mask128(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1 << bits) - 1
    }
}

#[test]
fn validity_is_the_gfx10_unified_list() {
    // UFMT_* of LLVM SIDefines.h (gfx10), by data format: the number formats listed.
    let all = "unorm snorm uscaled sscaled uint sint float";
    let list: [(DataFormat, &str); 14] = [
        (D::D8, "unorm snorm uscaled sscaled uint sint"),
        (D::D16, all),
        (D::D8_8, "unorm snorm uscaled sscaled uint sint"),
        (D::D32, "uint sint float"),
        (D::D16_16, all),
        (D::D10_11_11, all),
        (D::D11_11_10, all),
        (D::D10_10_10_2, "unorm snorm uscaled sscaled uint sint"),
        (D::D2_10_10_10, "unorm snorm uscaled sscaled uint sint"),
        (D::D8_8_8_8, "unorm snorm uscaled sscaled uint sint"),
        (D::D32_32, "uint sint float"),
        (D::D16_16_16_16, all),
        (D::D32_32_32, "uint sint float"),
        (D::D32_32_32_32, "uint sint float"),
    ];
    for n in NumFormat::ALL {
        assert!(!fmt(D::Invalid, n).is_valid());
        assert_eq!(fmt(D::Invalid, n).bytes(), 0);
        for (d, names) in list {
            // SNORM_OGL (gfx6/7) is valid exactly where SNORM is.
            let name = if n == N::SnormOgl { "snorm" } else { n.name() };
            let want = names.split(' ').any(|x| x == name);
            assert_eq!(fmt(d, n).is_valid(), want, "{d:?} {n:?}");
        }
    }
}

#[test]
fn codes_have_the_documented_layout() {
    // Selects at [2:0] [5:3] [8:6] [11:9] (0-3 x-w, 4 zero, 5 one), number format at
    // [14:12], data format at [19:15] (format module docs, "Codes").
    let (x, y, z, w) = (2, 4 << 3, 5 << 6, 0 << 9);
    let code = x | y | z | w | 1 << 12 | 10 << 15;
    let f = ElemFormat::from_code(code);
    assert_eq!(f.data, D::D8_8_8_8);
    assert_eq!(f.num, N::Snorm);
    assert_eq!(f.swizzle, [Sel::Z, Sel::Zero, Sel::One, Sel::X]);
    assert_eq!(f.code(), code);
    // Bits above the format are ignored; reserved data formats 15 and 27..31 and selects 6, 7
    // decode as invalid / zero.
    assert_eq!(ElemFormat::from_code(code | 0xfff0_0000), f);
    for d in [15, 27, 31] {
        assert_eq!(ElemFormat::from_code(d << 15).data, D::Invalid, "{d}");
    }
    let r = ElemFormat::from_code(6 | 7 << 3);
    assert_eq!(r.swizzle[..2], [Sel::Zero, Sel::Zero]);
    // Every data format has a code: its discriminant, in the order of `ALL`, 15 skipped.
    for (i, d) in DataFormat::ALL.into_iter().enumerate() {
        let c = if i < 15 { i } else { i + 1 } as u32;
        assert_eq!(d as u32, c, "{d:?}");
        assert_eq!(DataFormat::from_code(c), d);
    }
    for (i, n) in NumFormat::ALL.into_iter().enumerate() {
        assert_eq!(NumFormat::from_code(i as u32), n);
    }
    for d in DataFormat::ALL {
        for n in NumFormat::ALL {
            let f = ElemFormat {
                data: d,
                num: n,
                swizzle: [Sel::W, Sel::One, Sel::Y, Sel::Zero],
            };
            assert_eq!(ElemFormat::from_code(f.code()), f);
            assert_eq!(f.code() >> 20, 0);
            let text = f.to_string();
            let p: Vec<&str> = text.split('.').collect();
            assert_eq!(ElemFormat::from_parts(p[0], p[1], p[2]), Ok(f), "{text}");
        }
    }
    assert!(ElemFormat::from_parts("8", "unorm", "xyz").is_err());
    assert!(ElemFormat::from_parts("8", "unorm", "xyzq").is_err());
    assert!(ElemFormat::from_parts("9", "unorm", "xyzw").is_err());
}

#[test]
fn unorm_snorm_loads_are_correctly_rounded() {
    let narrow = [(D::D4_4, 4), (D::D5_6_5, 5), (D::D6_5_5, 5), (D::D3_3_2, 2)];
    for (d, n) in [(D::D8, 8u32), (D::D16, 16), (D::D2_10_10_10, 10)]
        .into_iter()
        .chain(narrow)
    {
        let max = (1i64 << n) - 1;
        for c in 0..=max {
            let r = ld(fmt(d, N::Unorm), c as u128, 0);
            assert_correctly_rounded(r, c, max, "unorm");
            let s = if c > max / 2 { c - max - 1 } else { c };
            let r = ld(fmt(d, N::Snorm), c as u128, 0);
            let smax = max / 2;
            if s <= -smax {
                assert_eq!(r, f32b(-1.0), "snorm {s}");
            } else {
                assert_correctly_rounded(r, s, smax, "snorm");
            }
            let r = ld(fmt(d, N::SnormOgl), c as u128, 0);
            assert_correctly_rounded(r, 2 * s + 1, max, "snorm_ogl");
        }
    }
    // Hand values: 8-bit 128 / 255 = 0.50196078... -> 0x3f008081; 0 is +0, never -0.
    assert_eq!(ld(fmt(D::D8, N::Unorm), 128, 0), 0x3f00_8081);
    assert_eq!(ld(fmt(D::D8, N::Unorm), 255, 0), f32b(1.0));
    assert_eq!(ld(fmt(D::D8, N::Snorm), 0, 0), 0);
    assert_eq!(ld(fmt(D::D8, N::Snorm), 0x80, 0), f32b(-1.0));
    assert_eq!(ld(fmt(D::D8, N::Snorm), 0x81, 0), f32b(-1.0));
    assert_eq!(ld(fmt(D::D8, N::SnormOgl), 0x80, 0), f32b(-1.0));
    // 2-bit fields (10_10_10_2 x): UNORM thirds, SNORM {0, 1, -1, -1}.
    let u = fmt(D::D10_10_10_2, N::Unorm);
    assert_eq!(ld(u, 1, 0), f32b(1.0 / 3.0));
    let s = fmt(D::D10_10_10_2, N::Snorm);
    assert_eq!(
        [0, 1, 2, 3].map(|c| ld(s, c, 0)),
        [0, f32b(1.0), f32b(-1.0), f32b(-1.0)]
    );
}

#[test]
fn scaled_and_integer_loads() {
    let f = fmt(D::D8_8, N::Sscaled);
    assert_eq!(ld(f, 0x80ff, 0), f32b(-1.0));
    assert_eq!(ld(f, 0x80ff, 1), f32b(-128.0));
    assert_eq!(ld(fmt(D::D16, N::Uscaled), 0xffff, 0), f32b(65535.0));
    assert_eq!(ld(fmt(D::D16, N::Sint), 0x8000, 0), 0xffff_8000);
    assert_eq!(ld(fmt(D::D16, N::Uint), 0x8000, 0), 0x8000);
    assert_eq!(ld(fmt(D::D10_11_11, N::Sint), 0x400, 0), 0xffff_fc00);
    assert_eq!(ld(fmt(D::D32, N::Sint), 0x8000_0000, 0), 0x8000_0000);
}

#[test]
fn float_loads_widen_exactly() {
    let h = fmt(D::D16, N::Float);
    for c in 0..=0xffffu32 {
        let r = ld(h, c as u128, 0);
        let want = f16::from_bits(c as u16).to_f32();
        if want.is_nan() {
            // Payload kept in the top fraction bits, never quieted.
            assert_eq!(
                r,
                (c & 0x8000) << 16 | 0x7f80_0000 | (c & 0x3ff) << 13,
                "{c:#x}"
            );
        } else {
            assert_eq!(r, want.to_bits(), "{c:#x}");
        }
    }
    // 11- and 10-bit unsigned floats: 2^(e-15) * (1 + m/2^k), denormals m/2^k * 2^-14.
    for (d, comp, k) in [(D::D10_11_11, 0usize, 6u32), (D::D10_11_11, 2, 5)] {
        let at = if comp == 0 { 0 } else { 22 };
        for c in 0..(1u32 << (k + 5)) {
            let (e, m) = (c >> k, c & ((1 << k) - 1));
            let r = ld(fmt(d, N::Float), (c as u128) << at, comp);
            let scale = (1u64 << k) as f64;
            let want = match e {
                0 => ((m as f64 / scale) * 2f64.powi(-14)) as f32,
                31 if m == 0 => f32::INFINITY,
                31 => f32::from_bits(0x7f80_0000 | m << (23 - k)),
                _ => ((1.0 + m as f64 / scale) * 2f64.powi(e as i32 - 15)) as f32,
            };
            assert_eq!(r, want.to_bits(), "{d:?} {comp} {c:#x}");
        }
    }
    // 32-bit float moves raw bits, signalling NaN included.
    assert_eq!(ld(fmt(D::D32, N::Float), 0x7f80_0001, 0), 0x7f80_0001);
}

#[test]
fn missing_components_swizzle_and_out_of_range() {
    let f = fmt(D::D8, N::Unorm);
    assert_eq!([1, 2, 3].map(|c| ld(f, 255, c)), [0, 0, f32b(1.0)]);
    let f = fmt(D::D8_8, N::Uint);
    assert_eq!(ld(f, 0x0201, 3), 1);
    let f = ElemFormat {
        swizzle: [Sel::Y, Sel::X, Sel::One, Sel::Zero],
        ..fmt(D::D8_8, N::Uint)
    };
    assert_eq!([0, 1, 2, 3].map(|c| ld(f, 0x0201, c)), [2, 1, 1, 0]);
    assert_eq!(
        [0, 1, 2, 3].map(|c| f.load_out_of_range(c, false)),
        [0, 0, 1, 0]
    );
    let g = ElemFormat {
        swizzle: [Sel::One, Sel::W, Sel::One, Sel::X],
        ..fmt(D::D32, N::Float)
    };
    assert_eq!(
        [0, 1, 2, 3].map(|c| g.load_out_of_range(c, false)),
        [f32b(1.0), 0, f32b(1.0), 0]
    );
    assert_eq!(g.load_out_of_range(0, true), 0x3c00);
    assert_eq!(ld(g, 0x4040_0000, 3), f32b(3.0));
    // Invalid formats load the out-of-range value and store nothing.
    let bad = ElemFormat {
        swizzle: [Sel::X, Sel::One, Sel::Y, Sel::W],
        ..fmt(D::D8, N::Float)
    };
    assert_eq!([0, 1, 2, 3].map(|c| ld(bad, 0xff, c)), [0, f32b(1.0), 0, 0]);
    assert_eq!(bad.store(&[1], false), None);
    assert_eq!(fmt(D::D8, N::SnormOgl).store(&[0], false), None);
}

/// Nearest integer to `x`, ties to even, by comparing the two candidates.
fn nearest_even(x: f64) -> i64 {
    let lo = x.floor();
    let (dl, dh) = (x - lo, lo + 1.0 - x);
    let r = if dl < dh || (dl == dh && (lo as i64) % 2 == 0) {
        lo
    } else {
        lo + 1.0
    };
    r as i64
}

#[test]
fn unorm_snorm_stores() {
    let st = |d, n, x: f32| fmt(d, n).store(&[x.to_bits()], false).unwrap() as u32;
    for x in [
        0.0f32,
        1e-3,
        0.25,
        0.3,
        0.5,
        0.75,
        0.999,
        1.0,
        1.0 / 3.0,
        0.5 - 1e-7,
    ] {
        assert_eq!(
            st(D::D8, N::Unorm, x) as i64,
            nearest_even(x as f64 * 255.0),
            "{x}"
        );
        assert_eq!(
            st(D::D16, N::Unorm, x) as i64,
            nearest_even(x as f64 * 65535.0),
            "{x}"
        );
        let s = st(D::D8, N::Snorm, -x) as u8 as i8 as i64;
        assert_eq!(s, nearest_even(-x as f64 * 127.0), "{x}");
    }
    // Ties: 0.5 * 255 = 127.5 -> 128; 2-bit SNORM 0.5 -> 0 and -0.5 -> 0 (even).
    assert_eq!(st(D::D8, N::Unorm, 0.5), 128);
    assert_eq!(st(D::D10_10_10_2, N::Snorm, 0.5), 0);
    assert_eq!(st(D::D10_10_10_2, N::Snorm, -0.5), 0);
    assert_eq!(st(D::D10_10_10_2, N::Snorm, -0.75), 3);
    // NaN -> 0, clamps, infinities, -0, denormals.
    for (x, u8want, s8want) in [
        (f32::NAN, 0, 0),
        (f32::from_bits(0xffc0_0001), 0, 0),
        (-0.0, 0, 0),
        (2.0, 255, 0x7f),
        (-2.0, 0, 0x81),
        (f32::INFINITY, 255, 0x7f),
        (f32::NEG_INFINITY, 0, 0x81),
        (f32::from_bits(1), 0, 0),
    ] {
        assert_eq!(st(D::D8, N::Unorm, x), u8want, "{x}");
        assert_eq!(st(D::D8, N::Snorm, x), s8want, "{x}");
    }
    // 2_10_10_10 UNORM packs all four fields.
    let e = fmt(D::D2_10_10_10, N::Unorm)
        .store(&[f32b(1.0), 0, f32b(0.5), f32b(1.0)], false)
        .unwrap();
    assert_eq!(e, 0x3ff | 512 << 20 | 3 << 30);
}

#[test]
fn scaled_and_integer_stores() {
    let st = |d, n, r: u32| fmt(d, n).store(&[r], false).unwrap() as u32;
    assert_eq!(st(D::D8, N::Uscaled, f32b(2.5)), 2);
    assert_eq!(st(D::D8, N::Uscaled, f32b(3.5)), 4);
    assert_eq!(st(D::D8, N::Uscaled, f32b(300.0)), 255);
    assert_eq!(st(D::D8, N::Uscaled, f32b(-3.0)), 0);
    assert_eq!(st(D::D8, N::Sscaled, f32b(-200.0)), 0x80);
    assert_eq!(st(D::D8, N::Sscaled, f32b(-2.5)), 0xfe);
    assert_eq!(st(D::D8, N::Sscaled, f32::NAN.to_bits()), 0);
    assert_eq!(st(D::D8, N::Uint, 300), 255);
    assert_eq!(st(D::D8, N::Uint, 0xffff_ffff), 255);
    assert_eq!(st(D::D8, N::Sint, (-200i32) as u32), 0x80);
    assert_eq!(st(D::D8, N::Sint, 200), 0x7f);
    assert_eq!(st(D::D8, N::Sint, (-1i32) as u32), 0xff);
    assert_eq!(st(D::D10_11_11, N::Uint, 5000), 0x7ff);
    assert_eq!(st(D::D32, N::Sint, 0x8000_0000), 0x8000_0000);
    assert_eq!(st(D::D32, N::Float, 0x7f80_0001), 0x7f80_0001);
}

#[test]
fn f16_stores_round_toward_zero() {
    let st = |r: u32| fmt(D::D16, N::Float).store(&[r], false).unwrap() as u16;
    let cases: [(u32, u16); 12] = [
        (f32b(1.0), 0x3c00),
        (f32b(65520.0), 0x7bff),
        (f32b(1e10), 0x7bff),
        (f32b(-1e10), 0xfbff),
        (0x7f80_0000, 0x7c00),
        (0xff80_0000, 0xfc00),
        (0x7fc0_0000, 0x7e00),
        (0x7f80_0001, 0x7e00),
        (0x7fa0_2000, 0x7d01),
        (f32b(1.0 + 2f32.powi(-11)), 0x3c00),
        (f32b(2f32.powi(-24)), 0x0001),
        (f32b(-(2f32.powi(-25))), 0x8000),
    ];
    for (x, want) in cases {
        assert_eq!(st(x), want, "{x:#x}");
    }
    // Every f16 round-trips through a load and a store.
    let h = fmt(D::D16, N::Float);
    for c in 0..=0xffffu32 {
        let r = ld(h, c as u128, 0);
        assert_eq!(h.store(&[r], false), Some(c as u128), "{c:#x}");
    }
    // Toward zero: the result is not above |x| and the next f16 is (half's exact widening).
    let mut s = 0x1234_5678u32;
    for _ in 0..20_000 {
        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let x = f32::from_bits(s);
        if !x.is_finite() || x.abs() > 65504.0 {
            continue;
        }
        let r = f16::from_bits(st(s)).to_f32();
        let next = f16::from_bits((st(s) & 0x7fff) + 1).to_f32();
        assert!(r.abs() <= x.abs() && next > x.abs(), "{x:e} -> {r:e}");
        assert!(r == 0.0 || r.is_sign_negative() == x.is_sign_negative());
    }
}

#[test]
fn small_unsigned_float_stores() {
    let st = |comp: usize, r: u32| {
        let mut regs = [0u32; 3];
        regs[comp] = r;
        let e = fmt(D::D10_11_11, N::Float).store(&regs, false).unwrap() as u32;
        if comp == 2 {
            e >> 22
        } else {
            e & 0x7ff
        }
    };
    // 11-bit: max finite (1 + 63/64) * 2^15 = 65024 = 0x7bf; 10-bit: 64512 = 0x3df.
    assert_eq!(st(0, f32b(65024.0)), 0x7bf);
    assert_eq!(st(0, f32b(1e9)), 0x7bf);
    assert_eq!(st(2, f32b(1e9)), 0x3df);
    assert_eq!(st(0, 0x7f80_0000), 0x7c0);
    assert_eq!(st(0, 0xff80_0000), 0);
    assert_eq!(st(0, f32b(-1.0)), 0);
    assert_eq!(st(0, f32b(-0.0)), 0);
    assert_eq!(st(0, 0xffc0_0000), 0x7e0);
    assert_eq!(st(2, 0x7fc0_0000), 0x3f0);
    assert_eq!(st(0, f32b(1.0)), 15 << 6);
    assert_eq!(st(2, f32b(1.0)), 15 << 5);
    // Smallest denormals: 2^-14 / 64 (11-bit) and 2^-14 / 32 (10-bit); half of them is 0.
    assert_eq!(st(0, f32b(2f32.powi(-20))), 1);
    assert_eq!(st(0, f32b(2f32.powi(-21))), 0);
    assert_eq!(st(2, f32b(2f32.powi(-19))), 1);
    // 1 + 1/64 + 1/128 truncates to 1 + 1/64.
    assert_eq!(st(0, f32b(1.0 + 1.0 / 64.0 + 1.0 / 128.0)), 15 << 6 | 1);
}

#[test]
fn d16_narrows_and_widens() {
    let u = fmt(D::D8, N::Unorm);
    assert_eq!(u.load(255, 0, true), 0x3c00);
    // 128/255 = 0.50196..: 1.0039 * 2^-1, fraction 1024 * 0.0039 = 4.016 -> 4 (toward zero).
    assert_eq!(u.load(128, 0, true), 0x3804);
    assert_eq!(u.load(255, 3, true), 0x3c00);
    let w = fmt(D::D32, N::Uint);
    assert_eq!(w.load(70_000, 0, true), 0xffff);
    let s = fmt(D::D32, N::Sint);
    assert_eq!(s.load((-70_000i32) as u32 as u128, 0, true), 0x8000);
    assert_eq!(s.load((-5i32) as u32 as u128, 0, true), 0xfffb);
    assert_eq!(fmt(D::D8, N::Sint).load(0x80, 0, true), 0xff80);
    // Stores widen first: f16 0.5 -> 8-bit UNORM 128; int16 -1 -> 8-bit SINT 0xff.
    assert_eq!(u.store(&[0x3800], true), Some(128));
    assert_eq!(fmt(D::D8, N::Sint).store(&[0xffff], true), Some(0xff));
    assert_eq!(
        fmt(D::D32, N::Sint).store(&[0x8000], true),
        Some(0xffff_8000)
    );
    assert_eq!(fmt(D::D32, N::Uint).store(&[0x8000], true), Some(0x8000));
    let h = fmt(D::D16_16, N::Float);
    assert_eq!(h.store(&[0x3c00, 0xfc00], true), Some(0xfc00_3c00));
    assert_eq!(
        fmt(D::D32, N::Float).store(&[0x3c00], true),
        Some(f32b(1.0) as u128)
    );
}
