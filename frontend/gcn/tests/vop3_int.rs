//! VOP3-only integer ops: every lane compared with a Rust transcription of the CLRX
//! `doc/GcnInstrsVop3.md` pseudocode (seed 002, `notes/gcn_vop3.tsv` semantics column), for
//! every generation whose table has the row. Operands sweep 0, -1, INT_MIN/INT_MAX and the
//! 16-/24-bit boundaries; 16-bit ops get garbage in the unused upper halves.
#[path = "vop3_data/harness.rs"]
mod harness;
mod lift_common;

use harness::*;
use wavejit_gcn::Gen;

fn sext(x: u32, bits: u32) -> i32 {
    ((x << (32 - bits)) as i32) >> (32 - bits)
}

/// Runs a three-source 32-bit op `name v10, v1, v2, v3 <suffix>` on every generation that has it.
fn op3(name: &str, suffix: &str, k: usize, f: impl Fn(u32, u32, u32) -> u32) {
    let gs = gens(name);
    assert!(!gs.is_empty(), "{name}: no generation has it");
    let srcs = ["v1", "v2", "v3"];
    let text = format!("{name} v10, {} {suffix}", srcs[..k].join(", "));
    let cases = int_cases(k, 128, &INT_EDGES, name.len() as u64);
    for g in gs {
        sweep(g, FLUSH_F32, &text, &[1, 2, 3][..k], &[10], &cases, |c| {
            vec![f(c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0))]
        });
    }
}

/// A 16-bit op: operands carry junk in bits 31:16; only the low half of D is asserted (the
/// upper half's treatment differs between gfx8 and gfx9 op_sel ops and is not asserted here).
fn op3_16(name: &str, suffix: &str, k: usize, f: impl Fn(u16, u16, u16) -> u16) {
    let gs = gens(name);
    assert!(!gs.is_empty(), "{name}: no generation has it");
    let srcs = ["v1", "v2", "v3"];
    let text = format!("{name} v10, {} {suffix}", srcs[..k].join(", "));
    let e16: Vec<u32> = [
        0u32, 1, 2, 0x7f, 0xff, 0x100, 0x7ffe, 0x7fff, 0x8000, 0x8001, 0xfffe, 0xffff, 0x1234,
        0xedcb, 0x00b5, 0xff4b,
    ]
    .iter()
    .enumerate()
    .map(|(i, v)| v | (i as u32 * 0x9e37) << 16)
    .collect();
    let cases = int_cases(k, 128, &e16, name.len() as u64 + 7);
    for g in gs {
        sweep_mask(
            g,
            FLUSH_F32,
            &text,
            &[1, 2, 3][..k],
            &[10],
            0xffff,
            &cases,
            |c| {
                let h = |i: usize| *c.get(i).unwrap_or(&0) as u16;
                vec![f(h(0), h(1), h(2)) as u32]
            },
        );
    }
}

fn sat_i16(x: i64) -> u16 {
    x.clamp(-0x8000, 0x7fff) as i16 as u16
}

#[test]
fn gfx9_shift_and_logic_3op() {
    op3("v_add_lshl_u32", "", 3, |a, b, c| {
        a.wrapping_add(b) << (c & 31)
    });
    op3("v_lshl_add_u32", "", 3, |a, b, c| {
        (a << (b & 31)).wrapping_add(c)
    });
    op3("v_and_or_b32", "", 3, |a, b, c| (a & b) | c);
    op3("v_or3_b32", "", 3, |a, b, c| a | b | c);
}

#[test]
fn bfe_i32() {
    // 002's pseudocode lacks the `else` after the width == 0 case (gcn_vop3_rules.md §4):
    // width 0 gives 0; otherwise the field is sign-extended from bit width-1 of S0 >> offset
    // (arithmetic), which for offset + width > 32 is the plain arithmetic shift.
    op3("v_bfe_i32", "", 3, |a, b, c| {
        let (off, w) = (b & 31, c & 31);
        if w == 0 {
            0
        } else {
            sext(((a as i32) >> off) as u32, w) as u32
        }
    });
}

#[test]
fn min_max_med3_32() {
    op3("v_max3_i32", "", 3, |a, b, c| {
        (a as i32).max(b as i32).max(c as i32) as u32
    });
    op3("v_min3_u32", "", 3, |a, b, c| a.min(b).min(c));
    op3("v_med3_u32", "", 3, |a, b, c| {
        let mut v = [a, b, c];
        v.sort();
        v[1]
    });
}

#[test]
fn min_max_med3_16_gfx9() {
    let i = |x: u16| x as i16;
    op3_16("v_max3_i16", "", 3, |a, b, c| {
        i(a).max(i(b)).max(i(c)) as u16
    });
    op3_16("v_max3_u16", "", 3, |a, b, c| a.max(b).max(c));
    op3_16("v_min3_i16", "", 3, |a, b, c| {
        i(a).min(i(b)).min(i(c)) as u16
    });
    // 002 typo `S(UINT16)RC1` read as (UINT16)SRC1 (gcn_vop3_rules.md §4).
    op3_16("v_min3_u16", "", 3, |a, b, c| a.min(b).min(c));
    // 002 casts S1/S2 via (INT32): read as INT16 (gcn_vop3_rules.md §4).
    op3_16("v_med3_i16", "", 3, |a, b, c| {
        let mut v = [i(a), i(b), i(c)];
        v.sort();
        v[1] as u16
    });
}

#[test]
fn mad_24_and_16_to_32() {
    op3("v_mad_i32_i24", "", 3, |a, b, c| {
        (sext(a & 0xff_ffff, 24).wrapping_mul(sext(b & 0xff_ffff, 24)) as u32).wrapping_add(c)
    });
    op3("v_mad_u32_u24", "", 3, |a, b, c| {
        ((a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)).wrapping_add(c)
    });
    op3("v_mad_i32_i16", "", 3, |a, b, c| {
        (sext(a & 0xffff, 16).wrapping_mul(sext(b & 0xffff, 16)) as u32).wrapping_add(c)
    });
}

#[test]
fn mad_16() {
    let mi = |a: u16, b: u16, c: u16| (a as i16 as i64) * (b as i16 as i64) + c as i16 as i64;
    let mu = |a: u16, b: u16, c: u16| (a as i64) * (b as i64) + c as i64;
    for name in ["v_mad_i16", "v_mad_legacy_i16"] {
        op3_16(name, "", 3, |a, b, c| mi(a, b, c) as u16);
        op3_16(name, "clamp", 3, |a, b, c| sat_i16(mi(a, b, c)));
    }
    op3_16("v_mad_legacy_u16", "", 3, |a, b, c| mu(a, b, c) as u16);
    op3_16("v_mad_legacy_u16", "clamp", 3, |a, b, c| {
        mu(a, b, c).min(0xffff) as u16
    });
}

#[test]
fn sub_i16_i32_gfx9() {
    let d = |a: u16, b: u16| a as i16 as i64 - b as i16 as i64;
    op3_16("v_sub_i16", "", 2, |a, b, _| d(a, b) as u16);
    // 002's clamp thresholds are wrong; saturate to [-0x8000, 0x7fff] (gcn_vop3_rules.md §4).
    op3_16("v_sub_i16", "clamp", 2, |a, b, _| sat_i16(d(a, b)));
    let d32 = |a: u32, b: u32| a as i32 as i64 - b as i32 as i64;
    // gfx9 VOP3 opcode 669: no borrow-out; gfx6/7 v_sub_i32 is the VOP2 carry op (below).
    sweep(
        Gen::Gfx9,
        FLUSH_F32,
        "v_sub_i32 v10, v1, v2",
        &[1, 2],
        &[10],
        &int_cases(2, 128, &INT_EDGES, 3),
        |c| vec![d32(c[0], c[1]) as u32],
    );
    sweep(
        Gen::Gfx9,
        FLUSH_F32,
        "v_sub_i32 v10, v1, v2 clamp",
        &[1, 2],
        &[10],
        &int_cases(2, 128, &INT_EDGES, 4),
        |c| vec![d32(c[0], c[1]).clamp(i32::MIN as i64, i32::MAX as i64) as u32],
    );
}

#[test]
fn sub_i32_vop3b_gfx6_gfx7() {
    // Same mnemonic, different instruction (gcn_vop3_rules.md §4): VOP2 op 37 in VOP3B form,
    // borrow-out (S1 > S0 unsigned) to the SDST lane bit.
    let cases = int_cases(2, 64, &INT_EDGES, 5);
    for g in [Gen::Gfx6, Gen::Gfx7] {
        let mut w = lift_common::Wave::new();
        w.set_v_all(1, |l| cases[l as usize][0]);
        w.set_v_all(2, |l| cases[l as usize][1]);
        run_on(&mut w, g, FLUSH_F32, "v_sub_i32_e64 v10, s[20:21], v1, v2");
        let mut mask = 0u64;
        for (l, c) in cases.iter().enumerate() {
            assert_eq!(
                w.v(10, l as u32),
                c[0].wrapping_sub(c[1]),
                "{g:?} lane {l} {c:x?}"
            );
            mask |= ((c[1] > c[0]) as u64) << l;
        }
        assert_eq!(w.s64(20), mask, "{g:?} borrow mask");
    }
}

#[test]
fn mul_hi_lo_i32() {
    op3("v_mul_hi_i32", "", 2, |a, b, _| {
        ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
    });
    op3("v_mul_lo_i32", "", 2, |a, b, _| a.wrapping_mul(b));
}

#[test]
fn cvt_pk_16_from_32() {
    // VOP2 ops 48/49 on gfx6/7 (VOP3 form there), VOP3-only on gfx8/9.
    op3("v_cvt_pk_u16_u32", "", 2, |a, b, _| {
        a.min(0xffff) | b.min(0xffff) << 16
    });
    let s = |x: u32| (x as i32).clamp(-0x8000, 0x7fff) as u32 & 0xffff;
    op3("v_cvt_pk_i16_i32", "", 2, |a, b, _| s(a) | s(b) << 16);
}

#[test]
fn shifts_64() {
    let mut cases = Vec::new();
    let mut r = Rng(11);
    let vals = [
        0u64,
        1,
        0x8000_0000,
        0xffff_ffff,
        0x1_0000_0000,
        0x8000_0000_0000_0000,
        u64::MAX,
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
    ];
    for i in 0..128u32 {
        let v = r.pick(&vals);
        // Shift counts 0..=63 and counts with junk above bit 5 (only bits 5:0 count).
        let n = if i < 64 {
            i
        } else {
            (r.next() as u32) | (i & 63)
        };
        cases.push(vec![v as u32, (v >> 32) as u32, n]);
    }
    let v64 = |c: &[u32]| c[0] as u64 | (c[1] as u64) << 32;
    let out = |x: u64| vec![x as u32, (x >> 32) as u32];
    for g in gens("v_ashr_i64") {
        sweep(
            g,
            FLUSH_F32,
            "v_ashr_i64 v[10:11], v[1:2], v3",
            &[1, 2, 3],
            &[10, 11],
            &cases,
            |c| out(((v64(c) as i64) >> (c[2] & 63)) as u64),
        );
    }
    for g in gens("v_lshr_b64") {
        sweep(
            g,
            FLUSH_F32,
            "v_lshr_b64 v[10:11], v[1:2], v3",
            &[1, 2, 3],
            &[10, 11],
            &cases,
            |c| out(v64(c) >> (c[2] & 63)),
        );
    }
    for g in gens("v_lshrrev_b64") {
        sweep(
            g,
            FLUSH_F32,
            "v_lshrrev_b64 v[10:11], v3, v[1:2]",
            &[1, 2, 3],
            &[10, 11],
            &cases,
            |c| out(v64(c) >> (c[2] & 63)),
        );
    }
    assert_eq!(gens("v_ashr_i64"), [Gen::Gfx6, Gen::Gfx7]);
    assert_eq!(gens("v_lshrrev_b64"), [Gen::Gfx8, Gen::Gfx9]);
}

#[test]
fn mad_i64_i32() {
    let vals = [
        0u32,
        1,
        0xffff_ffff,
        0x7fff_ffff,
        0x8000_0000,
        0x1234_5678,
        0xfedc_ba98,
    ];
    let accs = [
        0u64,
        1,
        u64::MAX,
        0x7fff_ffff_ffff_ffff,
        0x8000_0000_0000_0000,
        0x1_0000_0000,
    ];
    let mut r = Rng(12);
    let cases: Vec<Vec<u32>> = (0..64)
        .map(|_| {
            let c = r.pick(&accs);
            vec![r.pick(&vals), r.pick(&vals), c as u32, (c >> 32) as u32]
        })
        .collect();
    // Only D is asserted: CLRX does not document SDST of v_mad_i64_i32 (gcn_vop3.tsv).
    for g in gens("v_mad_i64_i32") {
        sweep(
            g,
            FLUSH_F32,
            "v_mad_i64_i32 v[10:11], s[20:21], v1, v2, v[4:5]",
            &[1, 2, 4, 5],
            &[10, 11],
            &cases,
            |c| {
                let acc = c[2] as u64 | (c[3] as u64) << 32;
                let d = ((c[0] as i32 as i64).wrapping_mul(c[1] as i32 as i64) as u64)
                    .wrapping_add(acc);
                vec![d as u32, (d >> 32) as u32]
            },
        );
    }
}

/// The mnemonics the `vop3_*` tests execute, with the generations (bit 0 = gfx6 ... bit 3 =
/// gfx9) whose tables have a VOP3-encodable row: the tests loop over `gens(name)`, so this
/// pins that none of them silently runs on fewer generations. Differences from
/// notes/gcn_vop3.tsv (CLRX): gfx6 spells opcode 371 v_mqsad_pk_u16_u8 as LLVM 14 does (370
/// keeps CLRX's gfx6 name v_qsad_u8: LLVM has no gfx6 row for it);
/// v_sub_i32 on gfx6/7 is the VOP2 carry op.
const COVERED: &[(&str, u8)] = &[
    ("v_add_lshl_u32", 0b1000),
    ("v_and_or_b32", 0b1000),
    ("v_ashr_i64", 0b0011),
    ("v_bfe_i32", 0b1111),
    ("v_cubeid_f32", 0b1111),
    ("v_cubema_f32", 0b1111),
    ("v_cubesc_f32", 0b1111),
    ("v_cubetc_f32", 0b1111),
    ("v_cvt_pk_i16_i32", 0b1111),
    ("v_cvt_pk_u16_u32", 0b1111),
    ("v_cvt_pk_u8_f32", 0b1111),
    ("v_cvt_pkaccum_u8_f32", 0b1111),
    ("v_cvt_pknorm_i16_f16", 0b1000),
    ("v_cvt_pknorm_i16_f32", 0b1111),
    ("v_cvt_pknorm_u16_f16", 0b1000),
    ("v_cvt_pknorm_u16_f32", 0b1111),
    ("v_cvt_pkrtz_f16_f32", 0b1111),
    ("v_div_fixup_f16", 0b1100),
    ("v_div_fixup_f32", 0b1111),
    ("v_div_fixup_f64", 0b1111),
    ("v_div_fixup_legacy_f16", 0b1000),
    ("v_div_fmas_f32", 0b1111),
    ("v_div_fmas_f64", 0b1111),
    ("v_div_scale_f32", 0b1111),
    ("v_div_scale_f64", 0b1111),
    ("v_fma_f16", 0b1100),
    ("v_fma_f64", 0b1111),
    ("v_fma_legacy_f16", 0b1000),
    ("v_ldexp_f64", 0b1111),
    ("v_lerp_u8", 0b1111),
    ("v_lshl_add_u32", 0b1000),
    ("v_lshr_b64", 0b0011),
    ("v_lshrrev_b64", 0b1100),
    ("v_mac_legacy_f32", 0b1111),
    ("v_mad_f16", 0b1100),
    ("v_mad_i16", 0b1100),
    ("v_mad_i32_i16", 0b1000),
    ("v_mad_i32_i24", 0b1111),
    ("v_mad_i64_i32", 0b1110),
    ("v_mad_legacy_f16", 0b1000),
    ("v_mad_legacy_i16", 0b1000),
    ("v_mad_legacy_u16", 0b1000),
    ("v_mad_u32_u24", 0b1111),
    ("v_max3_f16", 0b1000),
    ("v_max3_f32", 0b1111),
    ("v_max3_i16", 0b1000),
    ("v_max3_i32", 0b1111),
    ("v_max3_u16", 0b1000),
    ("v_max_f64", 0b1111),
    ("v_med3_f16", 0b1000),
    ("v_med3_i16", 0b1000),
    ("v_med3_u32", 0b1111),
    ("v_min3_f16", 0b1000),
    ("v_min3_f32", 0b1111),
    ("v_min3_i16", 0b1000),
    ("v_min3_u16", 0b1000),
    ("v_min3_u32", 0b1111),
    ("v_min_f64", 0b1111),
    ("v_mqsad_pk_u16_u8", 0b1111),
    ("v_mqsad_u32_u8", 0b1110),
    ("v_mqsad_u8", 0b0000),
    ("v_msad_u8", 0b1111),
    ("v_mul_f64", 0b1111),
    ("v_mul_hi_i32", 0b1111),
    ("v_mul_lo_i32", 0b0011),
    ("v_mullit_f32", 0b0011),
    ("v_or3_b32", 0b1000),
    ("v_qsad_pk_u16_u8", 0b1110),
    ("v_qsad_u8", 0b0001),
    ("v_sad_hi_u8", 0b1111),
    ("v_sad_u16", 0b1111),
    ("v_sad_u32", 0b1111),
    ("v_sub_i16", 0b1000),
    ("v_sub_i32", 0b1011),
    ("v_trig_preop_f64", 0b1111),
];

#[test]
fn generations_covered() {
    for &(name, mask) in COVERED {
        let got = gens(name).iter().fold(0u8, |m, g| m | g.bit());
        assert_eq!(got, mask, "{name}: generations with a VOP3 row");
    }
}
