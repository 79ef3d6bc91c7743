//! VOP3-only media ops (byte SADs, lerp, packing conversions): every lane compared with a Rust
//! transcription of the CLRX `doc/GcnInstrsVop3.md` pseudocode (seed 002), for every
//! generation whose table has the row (the gfx6/7 VOP2 forms of the packing ops run as `_e64`).
#[path = "vop3_data/harness.rs"]
mod harness;
mod lift_common;

use harness::*;

const BYTE_EDGES: [u32; 12] = [
    0,
    0xffff_ffff,
    0x0000_00ff,
    0xff00_ff00,
    0x0102_0304,
    0x8080_8080,
    0x7f7f_7f7f,
    0x00ff_0001,
    0xdead_beef,
    0x1234_5678,
    0xfffe_0100,
    0x0080_ff00,
];

fn b(x: u32, i: u32) -> u32 {
    (x >> (8 * i)) & 0xff
}

fn sad8(a: u32, s: u32, masked: bool) -> u32 {
    (0..4)
        .filter(|&i| !masked || b(s, i) != 0)
        .map(|i| b(a, i).abs_diff(b(s, i)))
        .sum()
}

fn all3(name: &str, f: impl Fn(u32, u32, u32) -> u32) {
    let mut edges = BYTE_EDGES.to_vec();
    edges.extend_from_slice(&INT_EDGES);
    let cases = int_cases(3, 128, &edges, 21);
    let gs = gens(name);
    assert!(!gs.is_empty());
    for g in gs {
        sweep(
            g,
            FLUSH_F32,
            &format!("{name} v10, v1, v2, v3"),
            &[1, 2, 3],
            &[10],
            &cases,
            |c| vec![f(c[0], c[1], c[2])],
        );
    }
}

#[test]
fn sad_family() {
    all3("v_sad_hi_u8", |a, s, c| {
        c.wrapping_add(sad8(a, s, false) << 16)
    });
    all3("v_sad_u16", |a, s, c| {
        c.wrapping_add((a & 0xffff).abs_diff(s & 0xffff))
            .wrapping_add((a >> 16).abs_diff(s >> 16))
    });
    all3("v_sad_u32", |a, s, c| c.wrapping_add(a.abs_diff(s)));
    all3("v_msad_u8", |a, s, c| c.wrapping_add(sad8(a, s, true)));
    all3("v_lerp_u8", |a, s, c| {
        (0..4)
            .map(|i| ((b(a, i) + b(s, i) + (b(c, i) & 1)) >> 1) << (8 * i))
            .sum()
    });
}

/// Cases for the quad SADs: S0 (2 dwords), S1, S2 (`acc` dwords).
fn quad_cases(acc: usize, acc_vals: &[u32]) -> Vec<Vec<u32>> {
    let mut r = Rng(22);
    (0..128)
        .map(|_| {
            let mut c = vec![
                r.pick(&BYTE_EDGES),
                r.pick(&BYTE_EDGES),
                r.pick(&BYTE_EDGES),
            ];
            c.extend((0..acc).map(|_| r.pick(acc_vals)));
            c
        })
        .collect()
}

#[test]
fn quad_sads() {
    // 16-bit accumulators stay below 0x10000 - 4*255: the pseudocode ORs a wider sum into the
    // packed result, and whether hardware wraps or saturates a 16-bit lane is not documented.
    let acc16 = [
        0u32,
        0x0001_ffff & 0xf000_f000,
        0xf000_0000,
        0x1234_0ff0,
        0x0000_0001,
        0xefff_0100,
    ];
    let cases = quad_cases(2, &acc16);
    let s0 = |c: &[u32]| c[0] as u64 | (c[1] as u64) << 32;
    // CLRX names opcodes 370/371 V_QSAD_U8/V_MQSAD_U8 on GCN 1.0; gfx6 opcode 371 is spelled
    // v_mqsad_pk_u16_u8 as in LLVM 14 (same pseudocode), 370 keeps the CLRX name.
    for (gen_names, masked, n) in [
        (["v_qsad_u8", "v_qsad_pk_u16_u8"], false, 4),
        (["v_mqsad_u8", "v_mqsad_pk_u16_u8"], true, 4),
    ] {
        let mut covered = 0;
        for name in gen_names {
            for g in gens(name) {
                covered += 1;
                let text = format!("{name} v[10:11], v[1:2], v3, v[4:5]");
                sweep(
                    g,
                    FLUSH_F32,
                    &text,
                    &[1, 2, 3, 4, 5],
                    &[10, 11],
                    &cases,
                    |c| {
                        let acc = c[3] as u64 | (c[4] as u64) << 32;
                        let d = (0..4).fold(0u64, |d, i| {
                            let lane = (acc >> (16 * i)) & 0xffff;
                            let s = lane + sad8((s0(c) >> (8 * i)) as u32, c[2], masked) as u64;
                            d | s << (16 * i)
                        });
                        vec![d as u32, (d >> 32) as u32]
                    },
                );
            }
        }
        assert_eq!(covered, n, "{gen_names:?}: generations covered");
    }
    // 32-bit accumulators saturate (CLRX: MIN(OUT, 0xffffffff)).
    let acc32 = [
        0u32,
        1,
        0xffff_ffff,
        0xffff_ff00,
        0xffff_fc04,
        0x8000_0000,
        0x1234_5678,
    ];
    let cases = quad_cases(4, &acc32);
    for g in gens("v_mqsad_u32_u8") {
        sweep(
            g,
            FLUSH_F32,
            "v_mqsad_u32_u8 v[10:13], v[1:2], v3, v[4:7]",
            &[1, 2, 3, 4, 5, 6, 7],
            &[10, 11, 12, 13],
            &cases,
            |c| {
                (0..4)
                    .map(|i| {
                        let s =
                            c[3 + i] as u64 + sad8((s0(c) >> (8 * i)) as u32, c[2], true) as u64;
                        s.min(0xffff_ffff) as u32
                    })
                    .collect()
            },
        );
    }
}

/// f32 inputs of the packing conversions, with what round-to-nearest-even gives.
const PK_F32: [u32; 24] = [
    0x0000_0000,
    0x8000_0000,
    0x3f00_0000,
    0x3fc0_0000,
    0x4020_0000,
    0x437e_8000,
    0x437f_6666,
    0x437f_8000,
    0x4396_0000,
    0xbf80_0000,
    0xbf19_999a,
    0x501502f9,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0001,
    0xffc1_2345,
    0x7f80_0001,
    0x0000_0001,
    0x807f_ffff,
    0x3f80_0000,
    0x3e80_0000,
    0xbf00_0000,
    0x3f7f_ffff,
    0x4000_0000,
];

/// Round half to even, the MODE default (round bits 0) that every test mode uses.
fn rne(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

fn u8_of(f: u32) -> u32 {
    let x = f32::from_bits(f) as f64;
    // 002 tests `if (ISNAN(f))`: inverted (gcn_vop3_rules.md §4): NaN gives 0.
    if x.is_nan() {
        0
    } else {
        rne(x).clamp(0.0, 255.0) as u32
    }
}

#[test]
fn cvt_pk_u8_and_pkaccum() {
    let mut cases = Vec::new();
    for (i, &f) in PK_F32.iter().enumerate() {
        for sel in [i as u32 % 4, 4 + (i as u32 % 4) * 0x1111_1110] {
            cases.push(vec![f, sel, 0x5566_7788 ^ (i as u32 * 0x0101_0101)]);
        }
    }
    let put = |c: &[u32], base: u32| {
        let sh = (c[1] & 3) * 8;
        (base & !(0xff << sh)) | u8_of(c[0]) << sh
    };
    for mode in [FLUSH_F32, KEEP_ALL] {
        for g in gens("v_cvt_pk_u8_f32") {
            sweep(
                g,
                mode,
                "v_cvt_pk_u8_f32 v10, v1, v2, v3",
                &[1, 2, 3],
                &[10],
                &cases,
                |c| vec![put(c, c[2])],
            );
        }
        for g in gens("v_cvt_pkaccum_u8_f32") {
            sweep(
                g,
                mode,
                "v_cvt_pkaccum_u8_f32 v10, v1, v2",
                &[1, 2, 10],
                &[10],
                &cases,
                |c| vec![put(c, c[2])],
            );
        }
    }
}

#[test]
fn cvt_pknorm_f32() {
    let cases = int_cases(2, 64, &PK_F32, 23);
    // roundNorm: RNE(S * 32767) (the product is exact in f64 for these inputs), NaN -> 0,
    // clamped to [-32767, 32767] (snorm never gives -32768) / [0, 65535].
    // Packing conversions never flush their inputs (frontend/ir/src/semantics.rs); for f32
    // denormals the scaled value rounds to 0 either way.
    let norm = |f: u32, scale: f64, lo: f64| {
        let x = f32::from_bits(f) as f64;
        if x.is_nan() {
            0
        } else {
            rne(x * scale).clamp(lo, scale) as i64 as u32 & 0xffff
        }
    };
    for mode in [FLUSH_F32, KEEP_ALL] {
        for g in gens("v_cvt_pknorm_i16_f32") {
            sweep(
                g,
                mode,
                "v_cvt_pknorm_i16_f32 v10, v1, v2",
                &[1, 2],
                &[10],
                &cases,
                |c| vec![norm(c[0], 32767.0, -32767.0) | norm(c[1], 32767.0, -32767.0) << 16],
            );
        }
        for g in gens("v_cvt_pknorm_u16_f32") {
            sweep(
                g,
                mode,
                "v_cvt_pknorm_u16_f32 v10, v1, v2",
                &[1, 2],
                &[10],
                &cases,
                |c| vec![norm(c[0], 65535.0, 0.0) | norm(c[1], 65535.0, 0.0) << 16],
            );
        }
    }
}
