//! gfx8/gfx9 GPR indexing mode (`s_set_gpr_idx_on/_off/_idx/_mode`) on both engines.
//!
//! Expected values follow the documented rule (CLRX doc/GcnInstrsSopc.md, GcnInstrsSop1.md,
//! GcnInstrsSopp.md; LLVM's `gpr_idx(SRC0,SRC1,SRC2,DST)` = M0 bits 12..15): while
//! MODE.GPR_IDX_EN is set, VALU operand slot k names VGPR `n + M0[7:0]` when M0 bit `12 + k`
//! is set. The code bytes are llvm-mc-14 output (`llvm-mc-14 -arch=amdgcn -mcpu=gfx900
//! -show-encoding`; tonga gives the same bytes), the source is in each constant's comment.
mod lift_common;

use lift_common::*;
use wavejit_gcn::lift::{lift, LiftError, LiftErrorKind};
use wavejit_gcn::Gen;

/// ```text
/// s_set_gpr_idx_on s0, gpr_idx(SRC0)
/// s_mov_b32 m0, s1
/// v_mov_b32 v20, v1
/// v_add_f32 v21, v2, v3
/// s_set_gpr_idx_off
/// v_mov_b32 v22, v1
/// s_endpgm
/// ```
const DYNAMIC_M0: &[u8] = &[
    0x00, 0x01, 0x11, 0xbf, 0x01, 0x00, 0xfc, 0xbe, 0x01, 0x03, 0x28, 0x7e, 0x02, 0x07, 0x2a, 0x02,
    0x00, 0x00, 0x9c, 0xbf, 0x01, 0x03, 0x2c, 0x7e, 0x00, 0x00, 0x81, 0xbf,
];

/// ```text
/// s_set_gpr_idx_on s0, gpr_idx(SRC1,DST)
/// s_set_gpr_idx_idx s1
/// v_add_f32 v21, v2, v3
/// s_set_gpr_idx_mode gpr_idx(SRC0)
/// v_mov_b32 v20, v1
/// s_set_gpr_idx_off
/// s_endpgm
/// ```
const SET_FIELDS: &[u8] = &[
    0x00, 0x0a, 0x11, 0xbf, 0x01, 0x32, 0x80, 0xbe, 0x02, 0x07, 0x2a, 0x02, 0x01, 0x00, 0x9d, 0xbf,
    0x01, 0x03, 0x28, 0x7e, 0x00, 0x00, 0x9c, 0xbf, 0x00, 0x00, 0x81, 0xbf,
];

/// ```text
/// s_set_gpr_idx_on s0, gpr_idx(SRC0)
/// v_mov_b32 v0, v250
/// s_endpgm
/// ```
const HIGH_SOURCE: &[u8] = &[
    0x00, 0x01, 0x11, 0xbf, 0xfa, 0x03, 0x00, 0x7e, 0x00, 0x00, 0x81, 0xbf,
];

/// ```text
///   s_cmp_eq_u32 s0, 0
///   s_cbranch_scc1 L
///   s_set_gpr_idx_on s0, gpr_idx(SRC0)
/// L:
///   s_endpgm
/// ```
const DISAGREEING_PREDECESSORS: &[u8] = &[
    0x00, 0x80, 0x06, 0xbf, 0x01, 0x00, 0x85, 0xbf, 0x00, 0x01, 0x11, 0xbf, 0x00, 0x00, 0x81, 0xbf,
];

/// ```text
/// s_set_gpr_idx_on s0, gpr_idx(SRC0)
/// v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
/// s_endpgm
/// ```
const DPP_UNDER_INDEXING: &[u8] = &[
    0x00, 0x01, 0x11, 0xbf, 0xfa, 0x02, 0x00, 0x7e, 0x01, 0xb1, 0x00, 0xff, 0x00, 0x00, 0x81, 0xbf,
];

/// A distinct f32 per (register, lane): exact sums, so the host's f32 add is the reference.
fn value(r: u32, l: u32) -> f32 {
    (r * 128 + l) as f32
}

fn wave_with_values() -> Wave {
    let mut w = Wave::new();
    for r in 0..64 {
        w.set_v_all(r, |l| value(r, l).to_bits());
    }
    w
}

/// The VGPR slot `k` of an instruction names under M0 (`n` the encoded register).
fn indexed(n: u32, m0: u32, k: u32) -> u32 {
    if m0 & (1 << (12 + k)) != 0 {
        n + (m0 & 0xff)
    } else {
        n
    }
}

#[test]
fn every_mode_bit_and_index_follows_m0() {
    for gen in [Gen::Gfx8, Gen::Gfx9] {
        for mode in 0..16u32 {
            for idx in [0u32, 1, 5, 17] {
                // Bits 8-11 and 16-31 are set to show they take no part in indexing.
                let m0 = 0xabcd_0300 | mode << 12 | idx;
                let mut w = wave_with_values();
                w.set_s(0, 0x77);
                w.set_s(1, m0);
                w.lift_run(DYNAMIC_M0, &config(gen, KEEP_ALL));
                let d20 = indexed(20, m0, 3);
                let d21 = indexed(21, m0, 3);
                let s1 = indexed(1, m0, 0);
                let (a, b) = (indexed(2, m0, 0), indexed(3, m0, 1));
                for l in [0u32, 7, 63] {
                    let ctx = format!("{gen:?} mode {mode:#x} index {idx} lane {l}");
                    // The instructions run in order on a model of the lane's registers.
                    let mut regs: Vec<u32> = (0..256).map(|r| value(r, l).to_bits()).collect();
                    regs[d20 as usize] = regs[s1 as usize];
                    let sum = f32::from_bits(regs[a as usize]) + f32::from_bits(regs[b as usize]);
                    regs[d21 as usize] = sum.to_bits();
                    regs[22] = regs[1];
                    for r in [d20, d21, 20, 21, 22] {
                        assert_eq!(w.v(r, l), regs[r as usize], "v{r} {ctx}");
                    }
                }
            }
        }
    }
}

#[test]
fn set_instructions_write_the_documented_m0_fields() {
    for idx in [0u32, 3, 9] {
        let mut w = wave_with_values();
        let m0_before = 0x1234_5678u32;
        w.set_m0(m0_before);
        w.set_s(0, 0xffff_ff00 | 40); // only bits 7:0 reach M0
        w.set_s(1, 0x5500 | idx);
        w.lift_run(SET_FIELDS, &config(Gen::Gfx9, KEEP_ALL));
        // on:   M0 = (M0 & 0xffff0f00) | (0xa << 12) | (s0 & 0xff)
        // idx:  M0 = (M0 & 0xffffff00) | (s1 & 0xff)
        // mode: M0 = (M0 & 0xffff0fff) | (1 << 12)
        let after_on = (m0_before & 0xffff_0f00) | 0xa << 12 | 40;
        let after_idx = (after_on & 0xffff_ff00) | idx;
        let after_mode = (after_idx & 0xffff_0fff) | 1 << 12;
        assert_eq!(w.state.uniform(w.g.m0()), after_mode, "index {idx}");
        for l in [0u32, 31, 63] {
            // SRC1 and DST indexed by `idx`.
            let sum = value(2, l) + value(3 + idx, l);
            assert_eq!(w.v(21 + idx, l), sum.to_bits(), "v_add_f32 index {idx}");
            // SRC0 only.
            assert_eq!(w.v(20, l), value(1 + idx, l).to_bits(), "v_mov index {idx}");
        }
    }
}

#[test]
fn index_past_the_vgpr_file_faults() {
    let f = lift_ok(HIGH_SOURCE, &config(Gen::Gfx9, KEEP_ALL));
    let mut w = wave_with_values();
    w.set_v_all(255, |l| l ^ 0x5a5a);
    w.set_s(0, 5); // v250 + 5 = v255, the last VGPR
    w.run(&f).expect("v255 is in range");
    assert_eq!(w.v(0, 9), 9 ^ 0x5a5a);
    let mut w = wave_with_values();
    w.set_s(0, 6); // v256 does not exist
    assert!(w.run(&f).is_err(), "an index past v255 must fault");
}

#[test]
fn predecessors_disagreeing_on_indexing_is_a_mode_conflict() {
    let e = lift(DISAGREEING_PREDECESSORS, &config(Gen::Gfx9, KEEP_ALL)).unwrap_err();
    assert!(
        matches!(e, LiftError { kind: LiftErrorKind::Invalid, pc: 0xc, ref why, .. }
            if why.contains("disagree on the float MODE")),
        "{e}"
    );
}

#[test]
fn dpp_under_indexing_is_rejected() {
    let e = lift(DPP_UNDER_INDEXING, &config(Gen::Gfx9, KEEP_ALL)).unwrap_err();
    assert!(
        matches!(
            e,
            LiftError {
                kind: LiftErrorKind::Unsupported,
                pc: 4,
                ..
            }
        ),
        "unexpected error: {e}"
    );
}
