//! The division helpers (v_div_scale/v_div_fmas/v_div_fixup), v_trig_preop_f64, v_mullit_f32,
//! and the VINTRP-in-VOP3 rows (they decode and lift; their semantics are in lift_interp.rs).
//!
//! The helpers' exact results are defined by multi-step algorithms whose sources disagree
//! (CLRX seed 002 vs AMD's GCN3/Vega pseudocode, see each test), so they are checked by
//! (1) the cases where the sources agree and (2) the identity that LLVM's fdiv expansion
//! (div_scale -> rcp -> fma... -> div_fmas -> div_fixup, AMDGPU SIISelLowering LowerFDIV32 /
//! LowerFDIV64) reproduces host IEEE division, for random and special operand pairs.
#[path = "vop3_data/float.rs"]
mod float;
#[path = "vop3_data/harness.rs"]
mod harness;
mod lift_common;

use float::{Fmt, D, H, S};
use harness::*;
use lift_common::{config, lift_ok, Wave};
use wavejit_gcn::Gen;

fn run_prog(gen: Gen, mode: u8, text: &str, w: &mut Wave) {
    let code = wavejit_gcn::assemble(gen, &format!("{text}\ns_endpgm"))
        .unwrap_or_else(|e| panic!("{gen:?}: {e}"));
    let f = lift_ok(&code, &config(gen, mode));
    w.run(&f).unwrap_or_else(|e| panic!("fault: {e}"));
}

/// Host division with the project's NaN rule (numerator is the first operand).
fn host_div(f: Fmt, n: u64, d: u64) -> u64 {
    if let Some(x) = f.first_nan(&[n, d]) {
        return x;
    }
    let q = if f.bits == 32 {
        (f32::from_bits(n as u32) / f32::from_bits(d as u32)).to_bits() as u64
    } else {
        (f64::from_bits(n) / f64::from_bits(d)).to_bits()
    };
    if f.is_nan(q) {
        f.default_nan()
    } else {
        q
    }
}

const DIV32: &str = "v_div_scale_f32 v3, s[20:21], v1, v1, v0
v_div_scale_f32 v4, vcc, v0, v1, v0
v_rcp_f32 v5, v3
v_fma_f32 v6, -v3, v5, 1.0
v_fma_f32 v5, v6, v5, v5
v_mul_f32 v6, v4, v5
v_fma_f32 v7, -v3, v6, v4
v_fma_f32 v6, v7, v5, v6
v_fma_f32 v7, -v3, v6, v4
v_div_fmas_f32 v6, v7, v5, v6
v_div_fixup_f32 v8, v6, v1, v0";

const DIV64: &str = "v_div_scale_f64 v[10:11], s[20:21], v[2:3], v[2:3], v[0:1]
v_div_scale_f64 v[12:13], vcc, v[0:1], v[2:3], v[0:1]
v_rcp_f64 v[14:15], v[10:11]
v_fma_f64 v[16:17], -v[10:11], v[14:15], 1.0
v_fma_f64 v[14:15], v[14:15], v[16:17], v[14:15]
v_fma_f64 v[16:17], -v[10:11], v[14:15], 1.0
v_fma_f64 v[14:15], v[14:15], v[16:17], v[14:15]
v_mul_f64 v[16:17], v[12:13], v[14:15]
v_fma_f64 v[18:19], -v[10:11], v[16:17], v[12:13]
v_div_fmas_f64 v[16:17], v[18:19], v[14:15], v[16:17]
v_div_fixup_f64 v[20:21], v[16:17], v[2:3], v[0:1]";

fn specials(f: Fmt) -> Vec<u64> {
    let v = |x: f64| f.of_f64(x, false);
    vec![
        0,
        f.sign(),
        v(1.0),
        v(-3.0),
        f.inf(false),
        f.inf(true),
        f.quiet(f.inf(false)) | 5,
        f.inf(true) | 3,
        1,
        f.sign() | 1,
        v(0.1),
        v(7.0),
        (f.inf(false) - 1),
        f.sign() | (f.inf(false) - 1),
    ]
}

/// (numerator, denominator) pairs: all specials crossed, then random bit patterns (every
/// exponent, so quotients overflow, underflow and go denormal), then moderate random values.
fn div_pairs(f: Fmt, n: usize) -> Vec<(u64, u64)> {
    let sp = specials(f);
    let mut out: Vec<(u64, u64)> = sp
        .iter()
        .flat_map(|&a| sp.iter().map(move |&b| (a, b)))
        .collect();
    let mut r = Rng(41 + f.bits as u64);
    let mask = if f.bits == 32 { 0xffff_ffff } else { u64::MAX };
    while out.len() < n {
        let (a, b) = (r.next() & mask, r.next() & mask);
        out.push((a, b));
        let one = f.of_f64(1.0, false);
        let m = (1u64 << (f.man + 1)) - 1;
        out.push((
            one ^ (r.next() & m),
            one ^ (r.next() & m) ^ (r.next() & f.sign()),
        ));
    }
    out
}

#[test]
fn fdiv_sequence_matches_host_division() {
    // f32: the sequence needs f32 denormals (LLVM switches them on around it when the kernel
    // flushes), so it runs with denormals kept.
    let pairs = div_pairs(S, 640);
    for g in ALL_GENS {
        let mut bad = Vec::new();
        for chunk in pairs.chunks(64) {
            let mut w = Wave::new();
            w.set_v_all(0, |l| chunk[(l as usize).min(chunk.len() - 1)].0 as u32);
            w.set_v_all(1, |l| chunk[(l as usize).min(chunk.len() - 1)].1 as u32);
            run_prog(g, KEEP_ALL, DIV32, &mut w);
            for (l, &(n, d)) in chunk.iter().enumerate() {
                let (got, want) = (w.v(8, l as u32) as u64, host_div(S, n, d));
                if got != want {
                    bad.push(format!(
                        "  {n:#010x} / {d:#010x}: got {got:#010x}, want {want:#010x}"
                    ));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "{g:?} f32 division: {} mismatches\n{}",
            bad.len(),
            bad.join("\n")
        );
    }
    let pairs = div_pairs(D, 640);
    for (g, mode) in ALL_GENS
        .iter()
        .flat_map(|&g| [(g, FLUSH_F32), (g, KEEP_ALL)])
    {
        let mut bad = Vec::new();
        for chunk in pairs.chunks(64) {
            let mut w = Wave::new();
            let at = |l: u32| chunk[(l as usize).min(chunk.len() - 1)];
            w.set_v_all(0, |l| at(l).0 as u32);
            w.set_v_all(1, |l| (at(l).0 >> 32) as u32);
            w.set_v_all(2, |l| at(l).1 as u32);
            w.set_v_all(3, |l| (at(l).1 >> 32) as u32);
            run_prog(g, mode, DIV64, &mut w);
            for (l, &(n, d)) in chunk.iter().enumerate() {
                let (got, want) = (w.v64(20, l as u32), host_div(D, n, d));
                if got != want {
                    bad.push(format!(
                        "  {n:#018x} / {d:#018x}: got {got:#018x}, want {want:#018x}"
                    ));
                }
            }
        }
        assert!(
            bad.is_empty(),
            "{g:?} mode {mode:#x} f64 division: {} mismatches\n{}",
            bad.len(),
            bad.join("\n")
        );
    }
}

#[test]
fn div_scale_agreed_cases() {
    // CLRX (002) and AMD's pseudocode agree on: moderate operands -> D = S0, flag clear;
    // numerator exponent >= denominator exponent + 96 (f32; 768 for f64) with S0 == S1
    // (the denominator form) -> D = S0 * 2^64 (2^128 for f64), flag set. SDST bits of lanes
    // outside EXEC are cleared (gcn_vop3_rules.md §4).
    for (f, big, scale, text) in [
        (S, 96, 64, "v_div_scale_f32 v10, s[20:21], v1, v2, v3"),
        (
            D,
            768,
            128,
            "v_div_scale_f64 v[10:11], s[20:21], v[1:2], v[3:4], v[5:6]",
        ),
    ] {
        let v = |x: f64| f.of_f64(x, false);
        let p2 = |e: i32| f.round(false, 1, e, false);
        // (S0, S1 = den, S2 = num, D, flag)
        let mut cases: Vec<(u64, u64, u64, u64, bool)> = vec![
            (v(3.0), v(3.0), v(1.5), v(3.0), false),
            (v(1.5), v(3.0), v(1.5), v(1.5), false),
            (v(-7.25), v(-7.25), v(100.0), v(-7.25), false),
            (v(100.0), v(-7.25), v(100.0), v(100.0), false),
            (
                v(1.0),
                v(1.0),
                p2(big),
                f.round(false, 1, scale, false),
                true,
            ),
            (
                v(-1.5),
                v(-1.5),
                p2(big + 3),
                f.round(true, 3, scale - 1, false),
                true,
            ),
        ];
        cases.extend((0..20).map(|i| {
            (
                v(1.0 + i as f64),
                v(1.0 + i as f64),
                v(0.5 - i as f64),
                v(1.0 + i as f64),
                false,
            )
        }));
        let exec: u64 = 0x5555_5555_5555_5555 & ((1u64 << cases.len()) - 1) | 0xaaaa_0000_0000_0000;
        for g in gens(text.split(' ').next().unwrap()) {
            let mut w = Wave::new();
            for (i, sel) in [0usize, 1, 2].iter().enumerate() {
                let get = |l: u32| {
                    let c = cases[(l as usize).min(cases.len() - 1)];
                    [c.0, c.1, c.2][*sel]
                };
                if f.bits == 32 {
                    w.set_v_all(1 + i as u32, |l| get(l) as u32);
                } else {
                    w.set_v_all(1 + 2 * i as u32, |l| get(l) as u32);
                    w.set_v_all(2 + 2 * i as u32, |l| (get(l) >> 32) as u32);
                }
            }
            w.set_s64(20, u64::MAX);
            w.set_exec(exec);
            run_on(&mut w, g, KEEP_ALL, text);
            let mut want_mask = 0u64;
            for (l, c) in cases.iter().enumerate() {
                let l = l as u32;
                if exec >> l & 1 == 0 {
                    continue;
                }
                let got = if f.bits == 32 {
                    w.v(10, l) as u64
                } else {
                    w.v64(10, l)
                };
                assert_eq!(got, c.3, "{g:?} `{text}` lane {l} {c:x?}");
                want_mask |= (c.4 as u64) << l;
            }
            assert_eq!(w.s64(20), want_mask, "{g:?} `{text}` SDST (exec {exec:#x})");
        }
    }
}

#[test]
fn div_fmas_scales_only_vcc_lanes() {
    // fma(S0, S1, S2), then, in lanes whose VCC bit is set, * 2^64 (f64: 2^128) when
    // |S2| >= 2.0 else * 2^-64 (2^-128): CLRX 002 plus the implicit VCC input it omits
    // (gcn_vop3_rules.md §4). Operands keep every result normal, so the scaling is exact.
    let mut r = Rng(43);
    let vals = [1.0, -1.5, 2.0, -2.0, 3.25, 0.75, 1.999, -7.0, 0.0, 100.0];
    let cases: Vec<[f64; 3]> = (0..64)
        .map(|_| [r.pick(&vals), r.pick(&vals), r.pick(&vals)])
        .collect();
    let vcc: u64 = 0x0f0f_3c3c_a5a5_9966;
    for (f, scale, text) in [
        (S, 64, "v_div_fmas_f32 v10, v1, v2, v3"),
        (D, 128, "v_div_fmas_f64 v[10:11], v[1:2], v[3:4], v[5:6]"),
    ] {
        for g in gens(text.split(' ').next().unwrap()) {
            let mut w = Wave::new();
            let op = |l: usize, i: usize| f.of_f64(cases[l][i], false);
            for i in 0..3usize {
                let get = |l: u32| op(l as usize, i);
                if f.bits == 32 {
                    w.set_v_all(1 + i as u32, |l| get(l) as u32);
                } else {
                    w.set_v_all(1 + 2 * i as u32, |l| get(l) as u32);
                    w.set_v_all(2 + 2 * i as u32, |l| (get(l) >> 32) as u32);
                }
            }
            w.set_vcc(vcc);
            run_on(&mut w, g, KEEP_ALL, text);
            for (l, c) in cases.iter().enumerate() {
                let l = l as u32;
                let (a, b, cc) = (op(l as usize, 0), op(l as usize, 1), op(l as usize, 2));
                let fma = f.fma(a, b, cc);
                let want = if vcc >> l & 1 == 1 {
                    let k = if f.to_f64(cc).abs() >= 2.0 {
                        scale
                    } else {
                        -scale
                    };
                    f.of_f64(f.to_f64(fma) * 2f64.powi(k), false)
                } else {
                    fma
                };
                let got = if f.bits == 32 {
                    w.v(10, l) as u64
                } else {
                    w.v64(10, l)
                };
                assert_eq!(
                    got,
                    want,
                    "{g:?} `{text}` lane {l} {c:?} vcc {}",
                    vcc >> l & 1
                );
            }
        }
    }
}

/// div_fixup cases where CLRX 002 and AMD's pseudocode agree: exactly one NaN of S1/S2 or
/// both (S2 wins), 0/0 and inf/inf (default NaN), x/0 (signed inf), x/inf (signed 0), and the
/// ordinary case where S0 already carries the quotient's sign (D = S0).
fn fixup_cases(f: Fmt, denorms: bool) -> Vec<[u64; 4]> {
    let v = |x: f64| f.of_f64(x, false);
    let (inf, ninf) = (f.inf(false), f.inf(true));
    let qn = f.quiet(inf) | 3;
    let sn = inf | 5;
    let sg = |a: u64, b: u64| f.neg(a) != f.neg(b);
    let mut out = Vec::new();
    let fin = [v(1.0), v(-3.5), v(0.1), v(-1000.0)];
    for &x in &fin {
        let q = v(0.25);
        out.push([q, qn, x, f.quiet(qn)]);
        out.push([q, x, sn | f.sign(), f.quiet(sn | f.sign())]);
        out.push([q, sn, qn, f.quiet(qn)]);
        out.push([q, 0, 0, f.default_nan()]);
        out.push([q, f.sign(), 0, f.default_nan()]);
        out.push([q, inf, ninf, f.default_nan()]);
        out.push([q, 0, x, f.inf(sg(0, x))]);
        out.push([q, f.sign(), x, f.inf(sg(f.sign(), x))]);
        out.push([q, inf, x, if sg(inf, x) { f.sign() } else { 0 }]);
        out.push([q, ninf, x, if sg(ninf, x) { f.sign() } else { 0 }]);
        for &y in &fin {
            let quo = f.of_f64(f.to_f64(x) / f.to_f64(y), false);
            out.push([quo, y, x, quo]);
        }
    }
    if denorms {
        let dn = 1u64;
        out.push([v(2.0f64.powi(-3)), v(8.0), dn << 3, v(2.0f64.powi(-3))]);
        out.push([dn, v(1.0), dn, dn]);
        out.push([dn | f.sign(), v(-2.0), dn << 1, dn | f.sign()]);
    }
    out
}

#[test]
fn div_fixup_agreed_cases() {
    for (f, width) in [(S, 1usize), (D, 2)] {
        let name = if width == 1 {
            "v_div_fixup_f32"
        } else {
            "v_div_fixup_f64"
        };
        let text = if width == 1 {
            "v_div_fixup_f32 v10, v1, v2, v3".to_string()
        } else {
            "v_div_fixup_f64 v[10:11], v[1:2], v[3:4], v[5:6]".to_string()
        };
        for (mode, denorms) in [(FLUSH_ALL, false), (KEEP_ALL, true)] {
            let cases = fixup_cases(f, denorms);
            let flat: Vec<Vec<u32>> = cases
                .iter()
                .map(|c| {
                    c[..3]
                        .iter()
                        .flat_map(|&x| {
                            if width == 1 {
                                vec![x as u32]
                            } else {
                                vec![x as u32, (x >> 32) as u32]
                            }
                        })
                        .collect()
                })
                .collect();
            let ins: Vec<u32> = (1..=3 * width as u32).collect();
            let outs: Vec<u32> = (10..10 + width as u32).collect();
            for g in gens(name) {
                sweep(g, mode, &text, &ins, &outs, &flat, |c| {
                    let i = flat.iter().position(|x| x == c).unwrap();
                    let d = cases[i][3];
                    if width == 1 {
                        vec![d as u32]
                    } else {
                        vec![d as u32, (d >> 32) as u32]
                    }
                });
            }
        }
    }
    for name in ["v_div_fixup_f16", "v_div_fixup_legacy_f16"] {
        for (mode, denorms) in [(FLUSH_ALL, false), (KEEP_ALL, true)] {
            let cases = fixup_cases(H, denorms);
            let flat: Vec<Vec<u32>> = cases
                .iter()
                .map(|c| c[..3].iter().map(|&x| x as u32 | 0xabcd_0000).collect())
                .collect();
            let gs = gens(name);
            assert!(!gs.is_empty());
            for g in gs {
                sweep_mask(
                    g,
                    mode,
                    &format!("{name} v10, v1, v2, v3"),
                    &[1, 2, 3],
                    &[10],
                    0xffff,
                    &flat,
                    |c| {
                        let i = flat.iter().position(|x| x == c).unwrap();
                        vec![cases[i][3] as u32]
                    },
                );
            }
        }
    }
}

/// 2/π in hex, the first 66 24-bit words (the table of fdlibm's `__rem_pio2`, ipio2[]).
const TWO_OVER_PI: [u32; 66] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163,
    0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09, 0xD1921C, 0xFE1DEB, 0x1CB129,
    0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C,
    0x845F8B, 0xBDF928, 0x3B1FF8, 0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF,
    0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3,
    0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880, 0x4D7327, 0x310606, 0x1556CA,
    0x73A8C9, 0x60E27B, 0xC08C6B,
];

/// Bits [start, start+53) of the fraction of 2/π (bit 0 = weight 1/2), as an integer; AMD's
/// constant has 1201 bits, so bits past 1200 are 0.
fn two_over_pi_bits(start: u32) -> u64 {
    (start..start + 53).fold(0u64, |acc, i| {
        let bit = if i > 1200 {
            0
        } else {
            (TWO_OVER_PI[(i / 24) as usize] >> (23 - i % 24)) & 1
        };
        acc << 1 | bit as u64
    })
}

#[test]
fn trig_preop_segments_are_bits_of_two_over_pi() {
    // AMD GCN3/Vega: shift = 53 * S1[4:0], plus (exponent(S0) - 1077) when the biased
    // exponent exceeds 1077; D = bits [shift, shift+53) of 2/π, as an integer, * 2^(-53-shift)
    // (+128 to the scale when exponent(S0) >= 1968). CLRX 002's text is garbled here
    // (gcn_vop3_rules.md §4). The fdlibm table is independent of the lifter's.
    let f64_of_exp = |e: u64| (e << 52) | 0x1_2345_6789;
    let mut cases: Vec<(u64, u32)> = Vec::new();
    for seg in 0..22u32 {
        cases.push((0x3ff0_0000_0000_0000, seg));
    }
    for &(e, seg) in &[
        (1077u64, 0u32),
        (1078, 0),
        (1078, 3),
        (1100, 1),
        (1200, 5),
        (1500, 2),
        (1600, 0),
        (1968, 0),
        (2000, 1),
        (1, 0),
        (0, 4),
    ] {
        cases.push((f64_of_exp(e), seg));
        cases.push((f64_of_exp(e) | 1 << 63, seg + 32));
    }
    for g in gens("v_trig_preop_f64") {
        let flat: Vec<Vec<u32>> = cases
            .iter()
            .map(|&(x, s)| vec![x as u32, (x >> 32) as u32, s])
            .collect();
        sweep(
            g,
            KEEP_ALL,
            "v_trig_preop_f64 v[10:11], v[1:2], v3",
            &[1, 2, 3],
            &[10, 11],
            &flat,
            |c| {
                let x = c[0] as u64 | (c[1] as u64) << 32;
                let exp = ((x >> 52) & 0x7ff) as i32;
                let mut shift = 53 * (c[2] & 31) as i32;
                if exp > 1077 {
                    shift += exp - 1077;
                }
                let mut scale = -53 - shift;
                if exp >= 1968 {
                    scale += 128;
                }
                let d = D.round(false, two_over_pi_bits(shift as u32) as u128, scale, false);
                vec![d as u32, (d >> 32) as u32]
            },
        );
    }
    // Segments 0..3 of x = 1 sum to 2/π within 2^-159.
    let seg = |s: u32| two_over_pi_bits(53 * s) as f64 * 2f64.powi(-53 - 53 * s as i32);
    assert_eq!(seg(0) + seg(1), std::f64::consts::FRAC_2_PI);
}

#[test]
fn interp_rows_decode_and_lift() {
    // VINTRP-in-VOP3 (gfx8/9 opcodes 624-631; 627 is unassigned, 631 is gfx9 only) decodes
    // and lifts to verified IR (semantics are tested in lift_interp.rs).
    for g in [Gen::Gfx8, Gen::Gfx9] {
        for op in [624u32, 625, 626, 627, 628, 629, 630, 631] {
            let d0 = 0b110100u32 << 26 | op << 16 | 10;
            let code: Vec<u8> = [d0, 0x101, 0xbf81_0000]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect();
            if op == 627 || (op == 631 && g == Gen::Gfx8) {
                assert!(wavejit_gcn::decode(g, &code, 0).is_err(), "{g:?} op {op}");
                continue;
            }
            let inst = wavejit_gcn::decode(g, &code, 0).expect("VINTRP-in-VOP3 decodes");
            assert!(inst.name().starts_with("v_interp_"), "{g:?} op {op}");
            lift_ok(&code, &config(g, KEEP_ALL));
        }
    }
}

#[test]
fn mullit_f32() {
    // CLRX 002: D = -FLT_MAX unless S2 > 0 (and not NaN); then D = +0 if S0 or S1 is 0 (no
    // IEEE rule for 0 * inf/NaN), else S0 * S1 (IEEE, NaN rule). Inputs flush per FLOAT_MODE.
    let edges = [
        0u32,
        0x8000_0000,
        0x3f80_0000,
        0xbfc0_0000,
        1,
        0x8000_0001,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0001,
        0x7f80_0005,
        0x7f7f_ffff,
        0x4000_0000,
        0x0080_0000,
        0xc040_0000,
    ];
    let cases = int_cases(3, 192, &edges, 44);
    for (mode, fl) in [(FLUSH_F32, true), (KEEP_ALL, false)] {
        for g in gens("v_mullit_f32") {
            sweep(
                g,
                mode,
                "v_mullit_f32 v10, v1, v2, v3",
                &[1, 2, 3],
                &[10],
                &cases,
                |c| {
                    let [a, b, cc] = [0, 1, 2].map(|i| S.flush(c[i] as u64, fl));
                    let d = if S.is_nan(cc) || S.neg(cc) || S.is_zero(cc) {
                        0xff7f_ffff
                    } else if S.is_zero(a) || S.is_zero(b) {
                        0
                    } else {
                        S.flush(S.mul(a, b), fl)
                    };
                    vec![d as u32]
                },
            );
        }
    }
    assert_eq!(gens("v_mullit_f32"), [Gen::Gfx6, Gen::Gfx7]);
}
