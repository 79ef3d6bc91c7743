//! Parameter interpolation (v_interp_*) per generation on both engines (interpreter and
//! JIT, compared by the harness).
//!
//! The kernel's LDS plays the parameter area. Expected values follow the documented model,
//! evaluated here by a separate route (lift/interp.rs module doc has the sources):
//! - M0 = `{0, new_prim_mask[15:1], lds_param_offset[15:0]}`; quad q (lanes 4q..4q+3) uses
//!   the primitive numbered by how many of quads 1..=q start a new primitive (mask bit q-1);
//! - parameter records of 12 dwords, attribute-major, `P0.c` at 2c, `P10.c` at 2c+1, `P20.c`
//!   at 8+c (CLRX GcnInstrsVintrp.md), out-of-range LDS bytes reading 0;
//! - p1 = P10 * I + P0 and p2 = P20 * J + D unfused in f32 (AMD: the SQ issues V_MAD_F32),
//!   computed with host f32 arithmetic (Rust never contracts `a * b + c`);
//! - f16 forms: parameters widened exactly, the same f32 arithmetic, p2_f16 rounded once to
//!   f16 (the soft-float reference of vop3_data/float.rs).
#[path = "vop3_data/float.rs"]
mod float;
mod lift_common;

use float::H;
use lift_common::*;
use wavejit_gcn::Gen;

const ALL: [Gen; 4] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9];
const CANARY: u32 = 0xdead_beef;
/// lds_param_offset of most runs (bytes).
const BASE: u32 = 0x40;

/// new_prim_mask values: one primitive, CLRX's example 0b1010011, every quad new, the first and
/// last quads, alternate quads.
const MASKS: [u32; 5] = [0, 0b101_0011, 0x7fff, 0x4001, 0x2aaa];

fn asm(gen: Gen, text: &str) -> Vec<u8> {
    wavejit_gcn::assemble(gen, text).unwrap_or_else(|e| panic!("{gen:?}: {e}"))
}

/// (primitive of `lane`, primitives in the wave) for `mask`, counted quad by quad.
fn prim(lane: u32, mask: u32) -> (u32, u32) {
    let mut p = 0;
    let mut n = 1;
    for q in 1..16 {
        let new = mask >> (q - 1) & 1 == 1;
        if new {
            n += 1;
            if q <= lane / 4 {
                p += 1;
            }
        }
    }
    (p, n)
}

/// Parameter selector: the dword slot of P0/P10/P20 of channel `c` in a record.
#[derive(Clone, Copy)]
enum P {
    P0,
    P10,
    P20,
}

fn slot(p: P, c: u32) -> u32 {
    match p {
        P::P0 => 2 * c,
        P::P10 => 2 * c + 1,
        P::P20 => 8 + c,
    }
}

/// The parameter dword `p` of `attr.c` that `lane` reads, from the LDS bytes (0 outside).
fn param(lds: &[u8], base: u32, mask: u32, lane: u32, attr: u32, c: u32, p: P) -> u32 {
    let (pr, n) = prim(lane, mask);
    let addr = (base + 48 * (attr * n + pr) + 4 * slot(p, c)) as usize;
    (0..4).fold(0, |v, i| {
        v | (lds.get(addr + i).copied().unwrap_or(0) as u32) << (8 * i)
    })
}

/// f32 parameter data: a different value per dword, with -0.0 and a NaN among them.
fn f32_dword(k: u32) -> u32 {
    match (k % 29, k % 31) {
        (5, _) => 0x8000_0000,
        (_, 7) => 0x7fc0_0123,
        _ => (((k % 97) as f32 - 48.0) * 0.375 + (k / 97) as f32 * 0.01).to_bits(),
    }
}

/// f16 parameter halves: values, -0.0, a denormal and a NaN.
fn f16_half(k: u32, hi: bool) -> u16 {
    let k = k * 2 + hi as u32;
    match (k % 23, k % 19, k % 37) {
        (3, _, _) => 0x8000,
        (_, 4, _) => 0x0003,
        (_, _, 11) => 0x7e01,
        _ => H.of_f64(((k % 53) as f64 - 26.0) * 0.1234567 + 0.0078125, false) as u16,
    }
}

fn fill(w: &mut Wave, base: u32, dword: impl Fn(u32) -> u32) {
    for k in 0..(w.lds.len() as u32 - base) / 4 {
        let at = (base + 4 * k) as usize;
        w.lds[at..at + 4].copy_from_slice(&dword(k).to_le_bytes());
    }
}

/// I and J per lane: ordinary values, -0.0, infinity, a denormal.
fn coord(l: u32, k: u32) -> f32 {
    match (l + k) % 16 {
        5 => -0.0,
        9 => f32::INFINITY,
        13 => f32::from_bits(0x0000_0100),
        _ => (l as f32 - 20.0) * 0.15625 + k as f32 * 0.5 + (l + k) as f32 * 0.001_234_567_8,
    }
}

fn h2f(h: u32) -> f32 {
    H.to_f64(h as u64 & 0xffff) as f32
}

/// Bits equal, or both NaN (NaN payloads are not part of these instructions' contract).
fn same(got: u32, want: f32, what: &str) {
    if want.is_nan() {
        assert!(
            f32::from_bits(got).is_nan(),
            "{what}: want NaN, got {got:#x}"
        );
    } else {
        assert_eq!(
            got,
            want.to_bits(),
            "{what}: want {want:e}, got {:e}",
            f32::from_bits(got)
        );
    }
}

/// CLAMP with DX10_CLAMP (the harness sets it): NaN -> +0, else [0, 1] with -0 -> +0.
fn clamp01(x: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0) + 0.0
    }
}

#[test]
fn f32_interpolation_per_primitive_mask() {
    for gen in ALL {
        for (run, &mask) in MASKS.iter().enumerate() {
            // The last run puts the parameter area near the end of the 4 KiB LDS: records past
            // it read 0. One run has a partial EXEC.
            let base = if run == 4 { 0xd00 } else { BASE };
            let exec = if run == 1 {
                0xf0f0_ff00_1234_8421u64
            } else {
                u64::MAX
            };
            let vop3 = if gen >= Gen::Gfx8 {
                "v_interp_p1_f32_e64 v7, -v0, attr0.w\n\
                 v_interp_p2_f32_e64 v7, |v1|, attr0.w clamp\n\
                 v_interp_mov_f32_e64 v8, p10, attr1.z clamp\n"
            } else {
                ""
            };
            let text = format!(
                "s_mov_b32 m0, {:#x}\n\
                 v_interp_p1_f32 v2, v0, attr1.y\n\
                 v_interp_p2_f32 v2, v1, attr1.y\n\
                 v_interp_mov_f32 v3, p0, attr2.w\n\
                 v_interp_mov_f32 v4, p10, attr0.x\n\
                 v_interp_mov_f32 v5, p20, attr0.z\n\
                 v_interp_p1_f32 v6, v0, attr40.x\n\
                 {vop3}s_endpgm",
                mask << 16 | base
            );
            let mut w = Wave::new();
            fill(&mut w, base, f32_dword);
            w.set_v_all(0, |l| coord(l, 0).to_bits());
            w.set_v_all(1, |l| coord(l, 3).to_bits());
            for r in 2..9 {
                w.set_v_all(r, |_| CANARY);
            }
            w.set_exec(exec);
            w.lift_run(&asm(gen, &text), &config(gen, KEEP_ALL));
            let lds = w.lds.clone();
            for l in 0..64 {
                let at =
                    |what: &str| format!("{gen:?} mask {mask:#x} base {base:#x} lane {l}: {what}");
                if exec >> l & 1 == 0 {
                    for r in 2..9 {
                        assert_eq!(w.v(r, l), CANARY, "{}", at("inactive"));
                    }
                    continue;
                }
                let p = |a, c, which| f32::from_bits(param(&lds, base, mask, l, a, c, which));
                let (i, j) = (coord(l, 0), coord(l, 3));
                let p1 = p(1, 1, P::P10) * i + p(1, 1, P::P0);
                same(w.v(2, l), p(1, 1, P::P20) * j + p1, &at("p1 + p2 attr1.y"));
                assert_eq!(
                    w.v(3, l),
                    param(&lds, base, mask, l, 2, 3, P::P0),
                    "{}",
                    at("mov p0")
                );
                assert_eq!(
                    w.v(4, l),
                    param(&lds, base, mask, l, 0, 0, P::P10),
                    "{}",
                    at("mov p10")
                );
                assert_eq!(
                    w.v(5, l),
                    param(&lds, base, mask, l, 0, 2, P::P20),
                    "{}",
                    at("mov p20")
                );
                same(
                    w.v(6, l),
                    p(40, 0, P::P10) * i + p(40, 0, P::P0),
                    &at("attr40"),
                );
                if gen >= Gen::Gfx8 {
                    let t = p(0, 3, P::P10) * -i + p(0, 3, P::P0);
                    same(
                        w.v(7, l),
                        clamp01(p(0, 3, P::P20) * j.abs() + t),
                        &at("e64 p1/p2"),
                    );
                    same(w.v(8, l), clamp01(p(1, 2, P::P10)), &at("e64 mov clamp"));
                }
            }
        }
    }
}

#[test]
fn f16_interpolation_gfx8_gfx9() {
    for gen in [Gen::Gfx8, Gen::Gfx9] {
        for &mask in &MASKS {
            let gfx9 = if gen == Gen::Gfx9 {
                "v_interp_p2_f16 v16, |v1|, attr0.x, v21 high op_sel:[0,0,0,1]\n\
                 v_interp_p2_legacy_f16 v17, v1, attr1.z, v21\n"
            } else {
                ""
            };
            let text = format!(
                "s_mov_b32 m0, {:#x}\n\
                 v_interp_p1ll_f16 v10, v0, attr1.x\n\
                 v_interp_p1ll_f16 v11, v0, attr2.w high\n\
                 v_interp_p1lv_f16 v12, v0, attr0.y, v20\n\
                 v_interp_p1lv_f16 v13, -v0, attr0.y, -v20 high\n\
                 v_interp_p2_f16 v14, v1, attr1.z, v21\n\
                 v_interp_p2_f16 v15, v1, attr1.z, v21 high\n\
                 {gfx9}s_endpgm",
                mask << 16 | BASE
            );
            let mut w = Wave::new();
            fill(&mut w, BASE, |k| {
                f16_half(k, false) as u32 | (f16_half(k, true) as u32) << 16
            });
            w.set_v_all(0, |l| coord(l, 0).to_bits());
            w.set_v_all(1, |l| coord(l, 3).to_bits());
            // p1lv's P0 (low half of v20) nearly cancels P10 * I, so that the unfused and
            // fused multiply-adds differ; the high half is ordinary data.
            let lds = w.lds.clone();
            let cancel = |l: u32| {
                let p10 = h2f(param(&lds, BASE, mask, l, 0, 1, P::P10));
                H.of_f64(-(p10 * coord(l, 0)) as f64, false) as u32
            };
            w.set_v_all(20, |l| cancel(l) | (f16_half(l + 7, true) as u32) << 16);
            // p2's D (v21) cancels P20 * J rounded to f32 in even lanes: the unfused sum is
            // 0 there, the fused one the product's rounding error (an f16 denormal or 0).
            w.set_v_all(21, |l| {
                let p20 = h2f(param(&lds, BASE, mask, l, 1, 2, P::P20));
                let d = if l % 2 == 0 {
                    -(p20 * coord(l, 3))
                } else {
                    coord(l, 6)
                };
                d.to_bits()
            });
            for r in 10..18 {
                w.set_v_all(r, |_| CANARY);
            }
            w.lift_run(&asm(gen, &text), &config(gen, KEEP_ALL));
            let lds = w.lds.clone();
            for l in 0..64 {
                let at = |what: &str| format!("{gen:?} mask {mask:#x} lane {l}: {what}");
                let p = |a, c, which, hi: bool| {
                    let d = param(&lds, BASE, mask, l, a, c, which);
                    h2f(if hi { d >> 16 } else { d })
                };
                let (i, j, d) = (coord(l, 0), coord(l, 3), f32::from_bits(w.v(21, l)));
                let v20 = w.v(20, l);
                same(
                    w.v(10, l),
                    p(1, 0, P::P10, false) * i + p(1, 0, P::P0, false),
                    &at("p1ll"),
                );
                same(
                    w.v(11, l),
                    p(2, 3, P::P10, true) * i + p(2, 3, P::P0, true),
                    &at("p1ll high"),
                );
                same(
                    w.v(12, l),
                    p(0, 1, P::P10, false) * i + h2f(v20),
                    &at("p1lv"),
                );
                // -v20 high: the sign bit of the selected (high) half flips.
                let p0 = h2f((v20 >> 16) ^ 0x8000);
                same(
                    w.v(13, l),
                    p(0, 1, P::P10, true) * -i + p0,
                    &at("p1lv high"),
                );
                // The f16 result: `want` rounded once to f16 (any NaN for a NaN).
                let half = |got: u32, want: f32, what: &str| {
                    if want.is_nan() {
                        assert!(H.is_nan(got as u64), "{}", at(what));
                    } else {
                        assert_eq!(got, H.of_f64(want as f64, false) as u32, "{}", at(what));
                    }
                };
                let t = p(1, 2, P::P20, false) * j + d;
                let t_hi = p(1, 2, P::P20, true) * j + d;
                let (v14, v15) = (w.v(14, l), w.v(15, l));
                half(v14 & 0xffff, t, "p2_f16");
                half(v15 & 0xffff, t_hi, "p2_f16 high");
                if gen == Gen::Gfx8 {
                    // gfx8: the 16-bit result is zero-extended into the register.
                    assert_eq!(v14 >> 16, 0, "{}", at("p2_f16 upper half zeroed"));
                    assert_eq!(v15 >> 16, 0, "{}", at("p2_f16 high: upper half zeroed"));
                } else {
                    // gfx9's v_interp_p2_f16 keeps the half it does not write (op_sel[3]).
                    assert_eq!(
                        v14 >> 16,
                        CANARY >> 16,
                        "{}",
                        at("p2_f16 keeps the high half")
                    );
                    assert_eq!(v15 >> 16, CANARY >> 16, "{}", at("p2_f16 high keeps it"));
                    let v16 = w.v(16, l);
                    half(
                        v16 >> 16,
                        p(0, 0, P::P20, true) * j.abs() + d,
                        "p2_f16 op_sel",
                    );
                    assert_eq!(
                        v16 & 0xffff,
                        CANARY & 0xffff,
                        "{}",
                        at("op_sel keeps the low half")
                    );
                    let v17 = w.v(17, l);
                    half(v17 & 0xffff, t, "p2_legacy_f16");
                    assert_eq!(v17 >> 16, 0, "{}", at("p2_legacy_f16 zero-extends"));
                }
            }
        }
    }
}
