//! Formatted buffer accesses on every generation: MUBUF `buffer_*_format_*` (format and
//! DST_SEL from the V#) and MTBUF `tbuffer_*_format_*` (format from the instruction, identity
//! select), with element-wise range checks, `d16`/`d16_hi` register layouts, `tfe`, invalid and
//! reserved formats.
//!
//! Programs are assembled by the crate's assembler (itself checked against llvm-mc elsewhere);
//! expected values are computed here from the documented formulas (CLRX GcnMemHandling.md for
//! the V# bits and layouts; `c / (2^n - 1)` in f64 rounded once; round-to-nearest-even
//! stores; binary16 bit patterns worked out by hand), not by the IR's format code.
mod lift_common;

use lift_common::*;
use wavejit_gcn::{assemble, Gen};

const GENS: [Gen; 4] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9];

/// V# word 3 from CLRX's bit positions (word 3 starts at V# bit 96).
fn word3(sel: [u32; 4], nfmt: u32, dfmt: u32) -> u32 {
    sel[0] | sel[1] << 3 | sel[2] << 6 | sel[3] << 9 | nfmt << 12 | dfmt << 15
}
const IDENT: [u32; 4] = [4, 5, 6, 7];

/// A raw (STRIDE 0) or structured V# in s[n:n+3].
fn vsharp(w: &mut Wave, n: u32, base: u64, stride: u32, num: u32, w3: u32) {
    w.set_s(n, base as u32);
    w.set_s(n + 1, (base >> 32) as u32 & 0xffff | stride << 16);
    w.set_s(n + 2, num);
    w.set_s(n + 3, w3);
}

fn run(w: &mut Wave, gen: Gen, text: &str) {
    let code =
        assemble(gen, &format!("{text}\ns_endpgm\n")).unwrap_or_else(|e| panic!("{gen:?}: {e:?}"));
    w.lift_run(&code, &config(gen, KEEP_ALL));
}

fn unorm(c: u32, n: u32) -> u32 {
    ((c as f64 / ((1u64 << n) - 1) as f64) as f32).to_bits()
}

fn snorm(c: u32, n: u32) -> u32 {
    let s = ((c << (32 - n)) as i32 >> (32 - n)) as f64;
    ((s / ((1u64 << (n - 1)) - 1) as f64).max(-1.0) as f32).to_bits()
}

/// Unsigned float with a 5-bit exponent and `k` fraction bits.
fn ufloat(c: u32, k: u32) -> u32 {
    let (e, m) = (c >> k, c & ((1 << k) - 1));
    let frac = m as f64 / (1u64 << k) as f64;
    let v = match e {
        0 => frac * 2f64.powi(-14),
        31 if m == 0 => f64::INFINITY,
        31 => return 0x7f80_0000 | m << (23 - k),
        _ => (1.0 + frac) * 2f64.powi(e as i32 - 15),
    };
    (v as f32).to_bits()
}

fn bytes(seed: u32, n: usize) -> Vec<u8> {
    (0..n as u32)
        .map(|i| (i ^ seed).wrapping_mul(0x9e37_79b9).rotate_left(11) as u8)
        .collect()
}

const ONE: u32 = 0x3f80_0000;

#[test]
fn mubuf_load_format_takes_format_and_dst_sel_from_the_vsharp() {
    for gen in GENS {
        let data = bytes(gen as u32, 512);
        let mut w = Wave::new();
        let src = w.buffer(&data);
        // 8_8_8_8 UNORM, DST_SEL = (Z, Y, X, 1); raw buffer of 200 bytes: lanes 50.. are out.
        vsharp(&mut w, 4, src, 0, 200, word3([6, 5, 4, 1], 0, 10));
        // 16_16 SINT, DST_SEL = (Y, 0, X, W): W is missing, so it reads 1.
        vsharp(&mut w, 8, src + 256, 0, 256, word3([5, 0, 4, 7], 5, 5));
        w.set_v_all(2, |l| 4 * l);
        w.set_exec(!(1u64 << 3));
        w.set_v_all(4, |_| 0xdead);
        run(
            &mut w,
            gen,
            "buffer_load_format_xyzw v[4:7], v2, s[4:7], 0 offen\n\
             buffer_load_format_xyzw v[8:11], v2, s[8:11], 0 offen",
        );
        for l in 0..64u32 {
            if l == 3 {
                assert_eq!(w.v(4, l), 0xdead, "{gen:?} inactive lane");
                continue;
            }
            let o = 4 * l as usize;
            let want = if l < 50 {
                [
                    unorm(data[o + 2] as u32, 8),
                    unorm(data[o + 1] as u32, 8),
                    unorm(data[o] as u32, 8),
                    ONE,
                ]
            } else {
                [0, 0, 0, ONE]
            };
            let got = [4, 5, 6, 7].map(|r| w.v(r, l));
            assert_eq!(got, want, "{gen:?} 8_8_8_8 unorm lane {l}");
            let h =
                |i: usize| i16::from_le_bytes([data[256 + o + i], data[257 + o + i]]) as i32 as u32;
            let got = [8, 9, 10, 11].map(|r| w.v(r, l));
            assert_eq!(got, [h(2), 0, h(0), 1], "{gen:?} 16_16 sint lane {l}");
        }
    }
}

#[test]
fn structured_buffer_elements_are_checked_whole() {
    let data = bytes(7, 1024);
    let mut w = Wave::new();
    let src = w.buffer(&data);
    // 32_32 FLOAT, stride 12: index < 40 and offset 4 < 12 are in range.
    vsharp(&mut w, 4, src, 12, 40, word3(IDENT, 7, 11));
    w.set_v_all(2, |l| l);
    run(
        &mut w,
        Gen::Gfx9,
        "buffer_load_format_xyzw v[4:7], v2, s[4:7], 0 idxen offset:4",
    );
    for l in 0..64u32 {
        let o = 12 * l as usize + 4;
        let d = |i: usize| u32::from_le_bytes(data[o + 4 * i..o + 4 * i + 4].try_into().unwrap());
        let want = if l < 40 {
            [d(0), d(1), 0, ONE]
        } else {
            [0, 0, 0, 0]
        };
        assert_eq!([4, 5, 6, 7].map(|r| w.v(r, l)), want, "lane {l}");
    }
}

#[test]
fn mtbuf_loads_use_the_instruction_format_and_identity_select() {
    for gen in GENS {
        let data = bytes(100 + gen as u32, 1024);
        let mut w = Wave::new();
        let src = w.buffer(&data);
        // The V#'s format and DST_SEL are ignored by MTBUF.
        vsharp(&mut w, 4, src, 0, 1024, word3([0, 0, 1, 1], 4, 14));
        w.set_v_all(2, |l| 4 * l);
        run(
            &mut w,
            gen,
            "tbuffer_load_format_xyzw v[4:7], v2, s[4:7], 0 offen format:[BUF_DATA_FORMAT_10_11_11,BUF_NUM_FORMAT_FLOAT]\n\
             tbuffer_load_format_xyzw v[8:11], v2, s[4:7], 0 offen offset:256 format:[BUF_DATA_FORMAT_2_10_10_10,BUF_NUM_FORMAT_SNORM]\n\
             tbuffer_load_format_xy v[12:13], v2, s[4:7], 0 offen offset:512 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UNORM]\n\
             tbuffer_load_format_x v14, v2, s[4:7], 0 offen offset:768 format:[BUF_DATA_FORMAT_8,BUF_NUM_FORMAT_USCALED]",
        );
        for l in 0..64u32 {
            let o = 4 * l as usize;
            let d = |at: usize| u32::from_le_bytes(data[at + o..at + o + 4].try_into().unwrap());
            let e = d(0);
            let want = [
                ufloat(e & 0x7ff, 6),
                ufloat(e >> 11 & 0x7ff, 6),
                ufloat(e >> 22, 5),
                ONE,
            ];
            assert_eq!(
                [4, 5, 6, 7].map(|r| w.v(r, l)),
                want,
                "{gen:?} 10_11_11 lane {l}"
            );
            let e = d(256);
            let want = [
                snorm(e & 0x3ff, 10),
                snorm(e >> 10 & 0x3ff, 10),
                snorm(e >> 20 & 0x3ff, 10),
                snorm(e >> 30, 2),
            ];
            assert_eq!(
                [8, 9, 10, 11].map(|r| w.v(r, l)),
                want,
                "{gen:?} 2_10_10_10 lane {l}"
            );
            let e = d(512);
            assert_eq!(
                [12, 13].map(|r| w.v(r, l)),
                [unorm(e & 0xffff, 16), unorm(e >> 16, 16)]
            );
            assert_eq!(
                w.v(14, l),
                (data[768 + o] as f32).to_bits(),
                "{gen:?} 8 uscaled"
            );
        }
    }
}

/// Round to nearest, ties to even.
fn rne(x: f64) -> i64 {
    let f = x.floor();
    let d = x - f;
    (if d > 0.5 || (d == 0.5 && f as i64 % 2 != 0) {
        f + 1.0
    } else {
        f
    }) as i64
}

#[test]
fn format_stores_convert_clamp_and_drop_out_of_range() {
    let xs = [
        0.5f32,
        1.0,
        -1.0,
        2.0,
        f32::NAN,
        0.3,
        1.0 / 255.0 * 127.5,
        -0.0,
    ];
    for gen in GENS {
        let mut w = Wave::new();
        let dst = w.buffer(&[0xaa; 1024]);
        // 8_8_8_8 UNORM through the V#; 200 bytes: lanes 50.. write nothing.
        vsharp(&mut w, 4, dst, 0, 200, word3([1, 1, 1, 1], 0, 10));
        vsharp(&mut w, 8, dst, 0, 1024, 0);
        w.set_v_all(2, |l| 4 * l);
        for c in 0..4 {
            w.set_v_all(4 + c, |l| xs[(l + c) as usize % xs.len()].to_bits());
        }
        w.set_v_all(8, |l| (l as f32 * 1000.0 + 0.75).to_bits());
        w.set_v_all(9, |l| (-(l as f32) - (3.0 / 4096.0)).to_bits());
        w.set_v_all(10, |l| 5 * l);
        run(
            &mut w,
            gen,
            "buffer_store_format_xyzw v[4:7], v2, s[4:7], 0 offen\n\
             tbuffer_store_format_xy v[8:9], v2, s[8:11], 0 offen offset:256 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_FLOAT]\n\
             tbuffer_store_format_x v10, v2, s[8:11], 0 offen offset:512 format:[BUF_DATA_FORMAT_10_10_10_2,BUF_NUM_FORMAT_UINT]",
        );
        let out = w.read_u32(dst, 256);
        for l in 0..64u32 {
            let want = if l < 50 {
                (0..4).fold(0u32, |v, c| {
                    let x = xs[(l + c) as usize % xs.len()] as f64;
                    let b = if x.is_nan() {
                        0
                    } else {
                        rne(x.clamp(0.0, 1.0) * 255.0)
                    };
                    v | (b as u32) << (8 * c)
                })
            } else {
                0xaaaa_aaaa
            };
            assert_eq!(out[l as usize], want, "{gen:?} unorm store lane {l}");
            // f16 toward zero: l*1000 + 0.75 and -(l) - 3/4096 (0.75 of an ulp below -1 is
            // still -1 toward zero, 0xbc00; -2 - 3/4096 is 0xc000).
            let x = out[64 + l as usize];
            let lo = half_rtz(l as f64 * 1000.0 + 0.75);
            let hi = half_rtz(-(l as f64) - 3.0 / 4096.0);
            assert_eq!(x, lo | hi << 16, "{gen:?} 16_16 float lane {l}");
            // 10_10_10_2 UINT: x is the 2-bit field, clamped; y, z, w are stored as 0.
            assert_eq!(
                out[128 + l as usize],
                (5 * l).min(3),
                "{gen:?} 10_10_10_2 lane {l}"
            );
        }
    }
}

/// binary16 of a value that is exact in f64, rounded toward zero (finite, in range).
fn half_rtz(x: f64) -> u32 {
    if x == 0.0 {
        return if x.is_sign_negative() { 0x8000 } else { 0 };
    }
    let sign = if x < 0.0 { 0x8000 } else { 0 };
    let a = x.abs();
    let e = a.log2().floor() as i32;
    let e = if 2f64.powi(e) > a { e - 1 } else { e };
    if e < -14 {
        return sign | (a / 2f64.powi(-24)).floor() as u32;
    }
    let m = ((a / 2f64.powi(e) - 1.0) * 1024.0).floor() as u32;
    sign | ((e + 15) as u32) << 10 | m
}

#[test]
fn d16_register_layouts() {
    let halves: [u16; 4] = [0x3c00, 0xc000, 0x7bff, 0x0001];
    let data: Vec<u8> = halves.iter().flat_map(|h| h.to_le_bytes()).collect();
    // gfx9 packs; gfx8 (Tonga) unpacks one component per VGPR.
    let mut w = Wave::new();
    let src = w.buffer(&data);
    vsharp(&mut w, 4, src, 0, 8, word3(IDENT, 7, 12));
    w.set_v_all(5, |_| 0x1234_5678);
    w.set_v_all(6, |_| 0x9abc_def0);
    run(
        &mut w,
        Gen::Gfx9,
        "buffer_load_format_d16_xyz v[4:5], off, s[4:7], 0\n\
         buffer_load_format_d16_hi_x v6, off, s[4:7], 0 offset:0",
    );
    assert_eq!(w.v(4, 9), 0xc000_3c00);
    assert_eq!(w.v(5, 9), 0x1234_7bff, "the unused high half is kept");
    assert_eq!(w.v(6, 9), 0x3c00_def0, "d16_hi writes bits 31:16 only");

    let mut w = Wave::new();
    let src = w.buffer(&data);
    vsharp(&mut w, 4, src, 0, 8, word3(IDENT, 7, 12));
    w.set_v_all(8, |_| 0xffff_ffff);
    run(
        &mut w,
        Gen::Gfx8,
        "buffer_load_format_d16_xyzw v[8:11], off, s[4:7], 0",
    );
    assert_eq!(
        [8, 9, 10, 11].map(|r| w.v(r, 0)),
        [0x3c00, 0xc000, 0x7bff, 0x0001]
    );

    // d16 stores: 16_16 UNORM from f16 (0.5 -> 0x8000, 1.0 -> 0xffff) and 8_8 SINT from i16.
    for gen in [Gen::Gfx8, Gen::Gfx9] {
        let mut w = Wave::new();
        let dst = w.buffer(&[0u8; 16]);
        vsharp(&mut w, 4, dst, 0, 16, word3(IDENT, 0, 5));
        if gen == Gen::Gfx9 {
            w.set_v_all(4, |_| 0x3c00_3800);
            w.set_v_all(5, |_| 0x0005_ff80);
        } else {
            w.set_v_all(4, |_| 0xdead_3800);
            w.set_v_all(5, |_| 0xbeef_3c00);
            w.set_v_all(6, |_| 0x1_ff80);
            w.set_v_all(7, |_| 0x0005);
        }
        let second = if gen == Gen::Gfx9 { "v5" } else { "v6" };
        w.set_exec(1);
        run(
            &mut w,
            gen,
            &format!(
                "buffer_store_format_d16_xy v4, off, s[4:7], 0\n\
                 tbuffer_store_format_d16_xy {second}, off, s[4:7], 0 offset:4 format:[BUF_DATA_FORMAT_8_8,BUF_NUM_FORMAT_SINT]"
            ),
        );
        let out = w.read_u32(dst, 2);
        assert_eq!(out[0], 0xffff_8000, "{gen:?} d16 16_16 unorm");
        assert_eq!(out[1] & 0xffff, 0x0580, "{gen:?} d16 8_8 sint");
    }
}

#[test]
fn invalid_and_reserved_formats_and_tfe() {
    let data = bytes(3, 64);
    for gen in GENS {
        let mut w = Wave::new();
        let src = w.buffer(&data);
        let dst = w.buffer(&[0x55; 16]);
        // DATA_FORMAT 0: loads give 0 (1 where DST_SEL is SEL_1), stores write nothing.
        vsharp(&mut w, 4, src, 0, 64, word3([4, 1, 5, 7], 0, 0));
        vsharp(&mut w, 8, dst, 0, 16, word3(IDENT, 4, 0));
        // NUM_FORMAT 6: SNORM_OGL on gfx6/7, reserved (treated as invalid) on gfx8/9.
        vsharp(&mut w, 12, src, 0, 64, word3(IDENT, 6, 1));
        w.set_v_all(20, |_| 0xffff_ffff);
        w.set_exec(1);
        run(
            &mut w,
            gen,
            "buffer_load_format_xy v[4:5], off, s[4:7], 0\n\
             buffer_store_format_x v4, off, s[8:11], 0\n\
             buffer_load_format_x v6, off, s[12:15], 0\n\
             buffer_load_format_xy v[19:21], off, s[12:15], 0 tfe",
        );
        assert_eq!([w.v(4, 0), w.v(5, 0)], [0, ONE], "{gen:?}");
        assert_eq!(w.read_u32(dst, 1)[0], 0x5555_5555, "{gen:?}");
        let ogl = ((2.0 * data[0] as i8 as f64 + 1.0) / 255.0) as f32;
        let want = if gen <= Gen::Gfx7 { ogl.to_bits() } else { 0 };
        assert_eq!(w.v(6, 0), want, "{gen:?} snorm_ogl");
        assert_eq!(w.v(21, 0), 0, "{gen:?} tfe status");
    }
}
