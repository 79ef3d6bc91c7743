//! VALU execution: float ops under both denormal modes, modifiers, legacy ops, integer and
//! cross-lane ops, EXEC masking, VCC/SGPR masks, DPP and SDWA. Expected values are computed
//! here from the ISA formulas (CLRX doc/GcnInstrsVop*.md, GcnSdwaDpp.md) with host arithmetic.
mod lift_common;
mod lift_programs;

use lift_common::*;
use lift_programs as p;
use wavejit_gcn::Gen;

const CANARY: u32 = 0xdead_0000;

fn f(b: u32) -> f32 {
    f32::from_bits(b)
}

/// Flush-to-zero of a denormal (sign kept) when `flush`.
fn fl(x: f32, flush: bool) -> f32 {
    if flush && x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// IEEE-mode max/min: a quiet NaN operand is ignored; -0 < +0.
fn ieee_max(a: f32, b: f32, max: bool) -> f32 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        let pick_pos = max;
        return if a.is_sign_negative() != pick_pos {
            a
        } else {
            b
        };
    }
    if (a > b) == max {
        a
    } else {
        b
    }
}

fn same(got: u32, want: f32, what: &str, lane: u32) {
    if want.is_nan() {
        assert!(
            f(got).is_nan(),
            "{what} lane {lane}: want NaN, got {:#x}",
            got
        );
    } else {
        assert_eq!(
            got,
            want.to_bits(),
            "{what} lane {lane}: want {want:e}, got {:e}",
            f(got)
        );
    }
}

const CASES: [(u32, u32, u32); 13] = [
    (0x3fc0_0000, 0x4010_0000, 0x3f00_0000), // 1.5, 2.25, 0.5
    (0x3f80_0800, 0x3f80_0800, 0xbf80_1000), // (1+2^-12)^2 - (1+2^-11): fused != unfused
    (0x7fc0_0000, 0x3f80_0000, 0),           // qNaN, 1
    (0x8000_0000, 0, 0),                     // -0, +0
    (0x7f80_0000, 0xff80_0000, 0x3f80_0000), // inf, -inf
    (0x0000_1000, 0x3f80_0000, 0),           // denormal * 1
    (0x1e3c_e508, 0x1e3c_e508, 0),           // 1e-20 * 1e-20: denormal product
    (0xc070_0000, 0x3f00_0000, 0x4000_0000), // -3.75, 0.5, 2
    (0x7149_f2ca, 0x7149_f2ca, 0),           // 1e30 * 1e30 = inf
    (0x3f40_0000, 0x3f00_0000, 0),           // 0.75 + 0.5 clamps to 1
    (0xc020_0000, 0x3f80_0000, 0),           // -2.5
    (0x4f32_d05e, 0x3f80_0000, 0),           // 3e9: cvt saturates
    (0x3e4c_cccd, 0x3e99_999a, 0x3dcc_cccd), // 0.2, 0.3, 0.1
];

#[test]
fn f32_ops_follow_the_float_mode() {
    for (mode, flush) in [(FLUSH_F32, true), (KEEP_ALL, false)] {
        let mut w = Wave::new();
        for (l, &(a, b, c)) in CASES.iter().enumerate() {
            let l = l as u32;
            w.set_v(0, l, a);
            w.set_v(1, l, b);
            w.set_v(4, l, c);
            w.set_v(13, l, c);
        }
        w.lift_run(p::VALU_F32_GFX9, &config(Gen::Gfx9, mode));
        for (l, &(a, b, c)) in CASES.iter().enumerate() {
            let l = l as u32;
            let (a, b, c) = (fl(f(a), flush), fl(f(b), flush), fl(f(c), flush));
            let prod = fl(a * b, flush);
            same(w.v(2, l), prod, "v_mul_f32", l);
            same(w.v(3, l), fl(prod + c, flush), "v_mad_f32 (unfused)", l);
            same(
                w.v(5, l),
                fl(a.mul_add(b, c), flush),
                "v_fma_f32 (fused)",
                l,
            );
            same(w.v(6, l), ieee_max(a, b, true), "v_max_f32", l);
            let s = fl(a + b, flush);
            let clamped = if s.is_nan() {
                0.0
            } else {
                s.clamp(0.0, 1.0) + 0.0
            };
            same(w.v(7, l), clamped, "v_add_f32 clamp", l);
            // OMOD applies only when f32 output denormals are flushed (gcn_vop3_rules.md §2).
            let omod = if flush { fl(prod * 2.0, flush) } else { prod };
            same(w.v(8, l), omod, "v_mul_f32 mul:2", l);
            same(w.v(9, l), fl(-a - b.abs(), flush), "v_sub_f32 -a, |b|", l);
            assert_eq!(w.v(10, l), a as i32 as u32, "v_cvt_i32_f32 lane {l}");
            same(w.v(11, l), ieee_max(a, b, false), "v_min_f32", l);
            let med = if a.is_nan() || b.is_nan() || c.is_nan() {
                ieee_max(ieee_max(a, b, false), c, false)
            } else {
                ieee_max(
                    ieee_max(a, b, false),
                    ieee_max(ieee_max(a, b, true), c, false),
                    true,
                )
            };
            same(w.v(12, l), med, "v_med3_f32", l);
            same(w.v(13, l), fl(prod + c, flush), "v_mac_f32", l);
        }
    }
}

#[test]
fn legacy_f32_ops_gfx6() {
    let mut w = Wave::new();
    for (l, &(a, b, c)) in CASES.iter().enumerate() {
        let l = l as u32;
        w.set_v(0, l, a);
        w.set_v(1, l, b);
        w.set_v(4, l, c);
        w.set_v(13, l, c);
    }
    w.lift_run(p::VALU_F32_GFX6, &config(Gen::Gfx6, KEEP_ALL));
    for (l, &(a, b, c)) in CASES.iter().enumerate() {
        let l = l as u32;
        let (a, b, c) = (f(a), f(b), f(c));
        // DX9 multiply: +-0 times anything is +0.
        let ml = if a == 0.0 || b == 0.0 { 0.0 } else { a * b };
        same(w.v(2, l), ml, "v_mul_legacy_f32", l);
        same(w.v(3, l), ml + c, "v_mad_legacy_f32", l);
        let min_l = if a < b { a } else { b };
        same(w.v(6, l), min_l, "v_min_legacy_f32", l);
        same(w.v(13, l), a * b + c, "v_mac_f32", l);
        same(w.v(5, l), a * b + c, "v_mad_f32", l);
    }
}

fn perm(a: u32, b: u32, sel: u32) -> u32 {
    let all = (a as u64) << 32 | b as u64;
    (0..4).fold(0, |r, i| {
        let s = (sel >> (8 * i)) & 0xff;
        let byte = match s {
            0..=7 => ((all >> (8 * s)) & 0xff) as u32,
            8..=11 => {
                let bit = 16 * (s - 8) + 15;
                if (all >> bit) & 1 != 0 {
                    0xff
                } else {
                    0
                }
            }
            12 => 0,
            _ => 0xff,
        };
        r | byte << (8 * i)
    })
}

#[test]
fn integer_and_cross_lane_ops_gfx9() {
    let exec: u64 = !0x29; // lanes 0, 3, 5 off
    let a = |l: u32| {
        if l == 4 {
            0
        } else {
            l.wrapping_mul(0x9e37_79b9) ^ 0x5a5a
        }
    };
    let b = |l: u32| (l * 7).wrapping_add(0xffff_fff0);
    let acc = |l: u32| (l as u64) << 40 | 0xffff_fff0;
    let sel = |l: u32| [0x0706_0504, 0x0c0d_0800, 0x0302_0100, 0x0b0a_0908][l as usize % 4];
    let mut w = Wave::new();
    w.set_exec(exec);
    w.set_v_all(0, a);
    w.set_v_all(1, b);
    w.set_v_all(6, |l| acc(l) as u32);
    w.set_v_all(7, |l| (acc(l) >> 32) as u32);
    w.set_v_all(13, |_| 0);
    w.set_v_all(22, sel);
    for r in [2, 3, 8, 18, 23] {
        w.set_v_all(r, |l| CANARY + l);
    }
    w.set_s(4, 0x1234_5678);
    w.lift_run(p::VALU_INT_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let on = |l: u32| exec >> l & 1 != 0;
    let mut carry_mad = 0u64;
    let mut lt = 0u64;
    let mut ne = 0u64;
    for l in 0..64 {
        let (x, y) = (a(l), b(l));
        if !on(l) {
            assert_eq!(w.v(2, l), CANARY + l, "inactive lane {l} written");
            assert_eq!(w.v(8, l), CANARY + l, "inactive lane {l} written");
            continue;
        }
        assert_eq!(w.v(2, l), x.wrapping_mul(y));
        assert_eq!(w.v(3, l), ((x as u64 * y as u64) >> 32) as u32);
        let (m, c) = (x as u64 * y as u64).overflowing_add(acc(l));
        assert_eq!(w.v64(4, l), m, "v_mad_u64_u32 lane {l}");
        carry_mad |= (c as u64) << l;
        assert_eq!(w.v(8, l), (x >> 4) & 0xff);
        assert_eq!(w.v(9, l), (((x as u64) << 32 | y as u64) >> 8) as u32);
        assert_eq!(w.v(10, l), l, "mbcnt lo+hi of -1 is the lane id");
        let (s, c1) = x.overflowing_add(y);
        assert_eq!(w.v(11, l), s);
        assert_eq!(w.v(12, l), c1 as u32, "v_addc_co_u32 adds the carry");
        assert_eq!(
            w.v(14, l),
            x,
            "VCC is 0 after the addc, so cndmask picks src0"
        );
        assert_eq!(w.v64(16, l), ((y as u64) << 32 | x as u64) << 4);
        assert_eq!(
            w.v(19, l),
            if x == 0 { u32::MAX } else { x.leading_zeros() }
        );
        let mut m3 = [x as i32, y as i32, 0];
        m3.sort();
        assert_eq!(w.v(20, l), m3[1] as u32);
        assert_eq!(w.v(21, l), perm(x, y, sel(l)), "v_perm_b32 lane {l}");
        lt |= ((x < y) as u64) << l;
        ne |= ((x != 0) as u64) << l;
    }
    assert_eq!(w.s64(0), carry_mad, "v_mad_u64_u32 carry lanes");
    assert_eq!(w.s(2), a(5), "v_readlane reads an inactive lane");
    assert_eq!(w.s(3), a(1), "v_readfirstlane reads the first active lane");
    for l in 0..64 {
        let want = if l == 5 { 0x1234_5678 } else { CANARY + l };
        assert_eq!(
            w.v(18, l),
            want,
            "v_writelane ignores EXEC and writes lane 5 only"
        );
    }
    assert_eq!(w.s64(6), lt, "compare bits of inactive lanes are 0");
    assert_eq!(w.s64(8), ne);
    assert_eq!(w.exec(), ne, "v_cmpx writes EXEC");
    for l in 0..64 {
        let want = if ne >> l & 1 != 0 { 77 } else { CANARY + l };
        assert_eq!(w.v(23, l), want, "write under the new EXEC, lane {l}");
    }
}

#[test]
fn integer_ops_gfx6() {
    let a = |l: u32| l.wrapping_mul(0x9e37_79b9);
    let b = |l: u32| (l * 7).wrapping_add(0xffff_fff0);
    let mut w = Wave::new();
    w.set_v_all(0, a);
    w.set_v_all(1, b);
    w.set_v_all(13, |_| 0);
    w.lift_run(p::VALU_INT_GFX6, &config(Gen::Gfx6, KEEP_ALL));
    for l in 0..64 {
        let (s, c) = a(l).overflowing_add(b(l));
        assert_eq!(w.v(11, l), s);
        assert_eq!(w.v(12, l), c as u32);
        assert_eq!(w.v64(16, l), ((b(l) as u64) << 32 | a(l) as u64) << 4);
        assert_eq!(w.v(10, l), l);
        assert_eq!(w.v(8, l), 0xf00, "v_bfm_b32 4, 8");
        assert_eq!(w.v(9, l), a(l).count_ones() + 1);
    }
    assert_eq!(w.s(2), a(5));
}

#[test]
fn divergent_if_else() {
    for exec in [0x0000_ffff_ffff_ffffu64, 0xffff_0000_0000_0000] {
        let mut w = Wave::new();
        w.set_exec(exec);
        w.set_v_all(0, |l| l);
        w.set_v_all(1, |l| CANARY + l);
        w.lift_run(p::DIVERGE_GFX9, &config(Gen::Gfx9, KEEP_ALL));
        assert_eq!(
            w.s64(2),
            exec & 0xffff_ffff,
            "VCC holds only active lanes' bits"
        );
        assert_eq!(w.exec(), exec);
        for l in 0..64 {
            let want = if exec >> l & 1 == 0 {
                CANARY + l
            } else if l < 32 {
                1100
            } else {
                1007
            };
            assert_eq!(w.v(1, l), want, "lane {l} exec {exec:#x}");
        }
    }
}

#[test]
fn dpp_and_sdwa() {
    let a = |l: u32| l.wrapping_mul(0x0101_0101).wrapping_add(0x0080_00c0);
    let b = |l: u32| l * 3 + 0x100;
    let mut w = Wave::new();
    w.set_v_all(0, a);
    w.set_v_all(1, b);
    w.set_v_all(13, |_| 0);
    for r in 2..10 {
        w.set_v_all(r, |l| CANARY + l);
    }
    w.lift_run(p::DPP_SDWA_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    for l in 0..64u32 {
        let r = l & 15;
        let row = l / 16;
        let c = CANARY + l;
        // row_shr:1 without bound_ctrl: lane 0 of each row is not written.
        assert_eq!(
            w.v(2, l),
            if r >= 1 { a(l - 1) } else { c },
            "row_shr lane {l}"
        );
        assert_eq!(w.v(3, l), a((l & !3) | (3 - (l & 3))), "quad_perm lane {l}");
        // row_shl:2 with bound_ctrl set: out-of-row sources read 0.
        let s = if r + 2 < 16 { a(l + 2) } else { 0 };
        assert_eq!(
            w.v(4, l),
            s.wrapping_add(b(l)),
            "row_shl bound_ctrl lane {l}"
        );
        assert_eq!(
            w.v(5, l),
            (c & 0xffff) | ((a(l) >> 8) & 0xff) << 16,
            "sdwa preserve lane {l}"
        );
        assert_eq!(
            w.v(6, l),
            ((a(l) >> 16) & 0xffff) + (b(l) & 0xff),
            "sdwa add lane {l}"
        );
        let bcast = if row % 2 == 1 { a((l & !15) - 1) } else { c };
        assert_eq!(w.v(7, l), bcast, "row_bcast:15 row_mask:0xa lane {l}");
        let x = (a(l) & 0xff) as u8 as i8 as i32 as u32 & 0xff;
        let sext = ((x << 24) as i32 >> 8) as u32;
        assert_eq!(w.v(8, l), sext, "sdwa BYTE_2 UNUSED_SEXT lane {l}");
        let mirror_on = (row == 0 || row == 2) && r < 8;
        let mirror = if mirror_on {
            a((l & !15) | (15 - r))
        } else {
            c
        };
        assert_eq!(w.v(9, l), mirror, "row_mirror masks lane {l}");
    }
}

fn f16_to_f64(h: u16) -> f64 {
    let s = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = (h >> 10) & 0x1f;
    let m = (h & 0x3ff) as f64;
    s * match e {
        0 => m * 2f64.powi(-24),
        31 if m == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + m) * 2f64.powi(e as i32 - 25),
    }
}

/// Round-to-nearest-even f64 -> f16 bits (the quiet NaN is 0x7e00 with the sign).
fn f64_to_f16(x: f64) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    if x.is_nan() {
        return sign | 0x7e00;
    }
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    if a < 2f64.powi(-14) {
        return sign | (a * 2f64.powi(24)).round_ties_even() as u16;
    }
    let mut e = a.log2().floor() as i32;
    if 2f64.powi(e) > a {
        e -= 1;
    }
    let mut m = (a / 2f64.powi(e - 10)).round_ties_even() as u32;
    if m == 2048 {
        m = 1024;
        e += 1;
    }
    sign | ((e + 15) as u16) << 10 | (m - 1024) as u16
}

fn sext24(x: u32) -> i64 {
    ((x << 8) as i32 >> 8) as i64
}

#[test]
fn misc_valu_gfx8() {
    let a =
        |l: u32| ((l as f32 - 20.5) * 1.25).to_bits() ^ if l % 7 == 3 { 0x0040_0001 } else { 0 };
    let b = |l: u32| (l as f32 * 0.75 - 7.3).to_bits();
    let c = |l: u32| l.wrapping_mul(0x0102_0304) ^ 0x55;
    let d = |l: u32| l as f64 * 3.5 - 100.25;
    let mut w = Wave::new();
    w.set_v_all(0, a);
    w.set_v_all(1, b);
    w.set_v_all(12, c);
    w.set_v_all(8, |l| d(l).to_bits() as u32);
    w.set_v_all(9, |l| (d(l).to_bits() >> 32) as u32);
    w.set_v_all(34, |l| CANARY + l);
    w.lift_run(p::VALU_MISC_GFX8, &config(Gen::Gfx8, FLUSH_F32));
    let mut class = 0u64;
    let mut carry = 0u64;
    let mut lt = 0u64;
    for l in 0..64 {
        let (x, y, z) = (a(l), b(l), c(l));
        let (fx, fy) = (fl(f(x), true), fl(f(y), true));
        same(
            w.v(2, l),
            fl(fl(fx * 2.0, true) + fy, true),
            "v_madmk_f32",
            l,
        );
        same(
            w.v(3, l),
            fl(fl(fx * fy, true) + 1.0, true),
            "v_madak_f32",
            l,
        );
        same(w.v(4, l), fl(fy - fx, true), "v_subrev_f32", l);
        assert_eq!(w.v(5, l), y << (x & 31), "v_lshlrev_b32 lane {l}");
        assert_eq!(
            w.v64(6, l),
            (d(l) + 2.0).to_bits(),
            "v_add_f64 2.0 lane {l}"
        );
        assert_eq!(
            w.v(10, l),
            (x as u16).wrapping_add(y as u16) as u32,
            "v_add_u16 lane {l}"
        );
        let h = f64_to_f16(0.5 * f16_to_f64(y as u16));
        let got = w.v(11, l);
        if f16_to_f64(h).is_nan() {
            assert!(
                got >> 16 == 0 && got & 0x7c00 == 0x7c00 && got & 0x3ff != 0,
                "v_mul_f16 NaN lane {l}"
            );
        } else {
            assert_eq!(got, h as u32, "v_mul_f16 lane {l}");
        }
        let fa = f(x);
        let cls = if fa.is_nan() {
            if x & 0x0040_0000 != 0 {
                1
            } else {
                0
            }
        } else {
            let neg = fa.is_sign_negative();
            let k = if fa.is_infinite() {
                0
            } else if fa.is_normal() {
                1
            } else if fa.is_subnormal() {
                2
            } else {
                3
            };
            if neg {
                2 + k
            } else {
                9 - k
            }
        };
        class |= (((z >> cls) & 1) as u64) << l;
        same(w.v(13, l), ((x >> 16) & 0xff) as f32, "v_cvt_f32_ubyte2", l);
        assert_eq!(w.v(14, l), (x & y) | (!x & z), "v_bfi_b32 lane {l}");
        assert_eq!(
            w.v(15, l),
            (((x as u64) << 32 | y as u64) >> 24) as u32,
            "v_alignbyte lane {l}"
        );
        let sad = (0..4)
            .map(|i| ((x >> (8 * i)) & 0xff).abs_diff((y >> (8 * i)) & 0xff))
            .sum::<u32>();
        assert_eq!(w.v(16, l), sad.wrapping_add(z), "v_sad_u8 lane {l}");
        assert_eq!(w.v(17, l), x.max(y).max(z), "v_max3_u32 lane {l}");
        assert_eq!(
            w.v(18, l),
            (x as i32).min(y as i32).min(z as i32) as u32,
            "v_min3_i32 lane {l}"
        );
        let p24 = sext24(x) * sext24(y);
        assert_eq!(w.v(19, l), p24 as u32, "v_mul_i32_i24 lane {l}");
        assert_eq!(w.v(20, l), (p24 >> 32) as u32, "v_mul_hi_i32_i24 lane {l}");
        assert_eq!(
            w.v(21, l),
            x.count_ones().wrapping_add(z),
            "v_bcnt lane {l}"
        );
        assert_eq!(
            w.v64(22, l),
            ((((y as u64) << 32 | x as u64) as i64) >> 36) as u64,
            "v_ashrrev_i64 lane {l}"
        );
        assert_eq!(
            w.v64(24, l),
            (x as i32 as f64).to_bits(),
            "v_cvt_f64_i32 lane {l}"
        );
        assert_eq!(w.v(26, l), d(l) as i32 as u32, "v_cvt_i32_f64 lane {l}");
        same(w.v(27, l), fy.trunc(), "v_trunc_f32", l);
        same(w.v(28, l), fy.floor(), "v_floor_f32", l);
        same(w.v(29, l), fy.ceil(), "v_ceil_f32", l);
        same(w.v(30, l), fy.round_ties_even(), "v_rndne_f32", l);
        same(w.v(31, l), fl(fy * 8.0, true), "v_ldexp_f32", l);
        assert_eq!(
            w.v(32, l),
            (x as u16).saturating_sub(y as u16) as u32,
            "v_sub_u16 clamp lane {l}"
        );
        let (s, co) = x.overflowing_add(y);
        assert_eq!(
            w.v(33, l),
            if co { u32::MAX } else { s },
            "v_add_u32 clamp lane {l}"
        );
        carry |= (co as u64) << l;
        lt |= (((x as i32) < (z as i32)) as u64) << l;
    }
    assert_eq!(w.s64(6), class, "v_cmp_class_f32");
    assert_eq!(w.s64(4), carry, "carry-out to an SGPR pair");
    assert_eq!(w.vcc(), lt, "v_cmpx writes VCC");
    assert_eq!(w.exec(), lt, "v_cmpx writes EXEC");
    for l in 0..64 {
        assert_eq!(
            w.v(34, l),
            if lt >> l & 1 != 0 { 0x1234 } else { CANARY + l }
        );
    }
}

#[test]
fn sixteen_bit_and_packed_gfx9() {
    let a = |l: u32| l.wrapping_mul(0x9e37_79b9) ^ 0x8001_7fff;
    let b = |l: u32| l.wrapping_mul(0x85eb_ca6b) ^ 0x7ffe_8000;
    let c = |l: u32| l.wrapping_mul(0xc2b2_ae35);
    let lo = |x: u32| x & 0xffff;
    let hi = |x: u32| x >> 16;
    let mut w = Wave::new();
    w.set_v_all(0, a);
    w.set_v_all(1, b);
    w.set_v_all(12, c);
    w.set_v_all(17, |l| c(l) ^ 0x1234_5678);
    for r in [16, 19, 26] {
        w.set_v_all(r, |l| CANARY + l);
    }
    w.lift_run(p::VALU_16_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let mut borrow = 0u64;
    for l in 0..64 {
        let (x, y, z) = (a(l), b(l), c(l));
        let cv = CANARY + l;
        let mad = (hi(x) * lo(y) + lo(c(l) ^ 0x1234_5678)) & 0xffff;
        assert_eq!(
            w.v(16, l),
            mad << 16 | lo(cv),
            "v_mad_u16 op_sel writes the high half lane {l}"
        );
        assert_eq!(
            w.v(18, l),
            hi(x) | hi(y) << 16,
            "v_pack_b32_f16 op_sel lane {l}"
        );
        let s = (lo(x) as u16 as i16).saturating_add(lo(y) as u16 as i16) as u16 as u32;
        assert_eq!(
            w.v(19, l),
            (cv & 0xffff_0000) | s,
            "v_add_i16 clamp keeps the high half lane {l}"
        );
        assert_eq!(w.v(20, l), x.saturating_add(y), "v_add_u32 clamp lane {l}");
        assert_eq!(
            w.v(21, l),
            x.saturating_sub(y),
            "v_sub_co_u32 clamp lane {l}"
        );
        borrow |= ((x < y) as u64) << l;
        assert_eq!(
            w.v(22, l),
            (lo(x) * hi(y)).wrapping_add(z),
            "v_mad_u32_u16 op_sel lane {l}"
        );
        assert_eq!(w.v(23, l), x.wrapping_add(y).wrapping_add(z));
        assert_eq!(w.v(24, l), (x << 4) | y);
        assert_eq!(w.v(25, l), (x ^ y).wrapping_add(z));
        let mut m = [lo(x), lo(y), lo(z)];
        m.sort();
        assert_eq!(
            w.v(26, l),
            m[1] << 16 | lo(cv),
            "v_med3_u16 op_sel:[0,0,0,1] lane {l}"
        );
        let pk = lo(lo(x) + lo(y)) | lo(lo(x) + hi(y)) << 16;
        assert_eq!(w.v(27, l), pk, "v_pk_add_u16 op_sel_hi:[0,1] lane {l}");
        let pm = lo(lo(x) * lo(y)) | lo(hi(x) * hi(y)) << 16;
        assert_eq!(w.v(28, l), pm, "v_pk_mul_lo_u16 lane {l}");
        // An inline constant is the low half; the high half reads 0 (LLVM SIFoldOperands).
        assert_eq!(
            w.v(29, l),
            lo(lo(y) << 3) | hi(y) << 16,
            "v_pk_lshlrev_b16 lane {l}"
        );
        assert_eq!(w.v(30, l), 0x4000, "v_add_f16 1.0 + 1.0, high half zeroed");
    }
    assert_eq!(w.s64(4), borrow, "borrow lanes");
}
