//! Scalar ALU, SCC, branches, loops, MODE tracking and CFG edge cases, executed on both
//! engines (interpreter and JIT, compared by the harness). Expected values come from the ISA
//! formulas (CLRX doc/GcnInstrsSop*.md) computed here with host integer arithmetic.
mod lift_common;
mod lift_programs;

use lift_common::*;
use lift_programs as p;
use wavejit_gcn::lift::{lift, LiftError, LiftErrorKind};
use wavejit_gcn::Gen;
use wavejit_ir::{Terminator, TrapKind};

#[test]
fn sop_arithmetic_and_scc() {
    let mut w = Wave::new();
    let (s0, s1, s2, s3, s4, s5) = (
        0xffff_ffffu32,
        2u32,
        0x8000_0000u32,
        0x7fff_ffffu32,
        0x1234_5678u32,
        0x00f0_0000u32,
    );
    for (i, v) in [s0, s1, s2, s3, s4, s5].into_iter().enumerate() {
        w.set_s(i as u32, v);
    }
    w.lift_run(p::SOP_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    // s_add_u32: carry out in SCC.
    assert_eq!(w.s(10), s0.wrapping_add(s1));
    assert_eq!(w.s(11), 1);
    // s_addc_u32 reads that carry.
    assert_eq!(w.s(12), s1 + s1 + 1);
    assert_eq!(w.s(13), 0);
    // s_add_i32: signed overflow.
    assert_eq!(w.s(14), s3.wrapping_add(s1));
    assert_eq!(w.s(15), 1);
    // s_sub_u32: borrow.
    assert_eq!(w.s(16), s1.wrapping_sub(s0));
    assert_eq!(w.s(17), 1);
    // s_min_i32: SCC = S0 chosen.
    assert_eq!(w.s(18), s0);
    assert_eq!(w.s(19), 1);
    assert_eq!(w.s(20), (s4 >> 4) & 0xff);
    assert_eq!(w.s(21), (((s4 >> 8) & 0xf) << 28) as i32 as u32 >> 28);
    assert_eq!(w.s(22), s5.trailing_zeros());
    assert_eq!(w.s(23), s5.leading_zeros());
    assert_eq!(w.s(24), u32::MAX, "s_flbit_i32 of -1 is -1");
    assert_eq!(w.s(25), s4.count_ones());
    let quad = (0..8).fold(0u32, |r, q| r | (((s4 >> (4 * q)) & 0xf != 0) as u32) << q);
    assert_eq!(w.s(26), quad);
    let wqm = (0..8).fold(0u32, |r, q| {
        r | if (s5 >> (4 * q)) & 0xf != 0 {
            0xf << (4 * q)
        } else {
            0
        }
    });
    assert_eq!(w.s(27), wqm);
    assert_eq!(w.s64(28), ((s1 as u64) << 32 | s0 as u64) << 4);
    assert_eq!(w.s(30), s1.reverse_bits());
    assert_eq!(w.s(31), 1 << (s1 & 31));
    assert_eq!(w.s(32), ((s0 as u64 * s0 as u64) >> 32) as u32);
    assert_eq!(w.s(33), (s2 << 2).wrapping_add(s1));
    assert_eq!(w.s(34), 1, "s_lshl2_add_u32 overflow sets SCC");
    assert_eq!(w.s(35), (s4 & 0xffff) | (s4 & 0xffff_0000));
    assert_eq!(w.s(36), 1);
    assert_eq!(w.s64(38), !((s1 as u64) << 32 | s0 as u64));
    assert_eq!(w.s(40), 1, "s_cmpk_lt_i32 -1 < 0");
    assert_eq!(w.s(41), 0xffff_8000, "s_movk_i32 sign-extends");
    let s45 = (s5 as u64) << 32 | s4 as u64;
    assert_eq!(w.s64(42), (s45 >> 16) & 0xffff_ffff);
    assert_eq!(w.s(44), s2 as u16 as i16 as i32 as u32);
}

#[test]
fn loops_run_to_completion_on_gfx6_and_gfx9() {
    for (code, gen) in [(p::LOOP_GFX9, Gen::Gfx9), (p::LOOP_GFX6, Gen::Gfx6)] {
        let mut w = Wave::new();
        w.lift_run(code, &config(gen, KEEP_ALL));
        assert_eq!(w.s(0), (1..=10).sum::<u32>());
        assert_eq!(w.s(1), 11);
    }
}

#[test]
fn branches_barriers_and_padding() {
    for (s0, want1, want2) in [(0u32, 11u32, 0u32), (5, 22, 33)] {
        let mut w = Wave::new();
        w.set_s(0, s0);
        let f = lift_ok(p::BRANCH_GFX8, &config(Gen::Gfx8, KEEP_ALL));
        assert!(f
            .blocks
            .iter()
            .any(|b| matches!(b.term, Terminator::Barrier(_))));
        w.run(&f).unwrap();
        assert_eq!((w.s(1), w.s(2)), (want1, want2));
    }
}

#[test]
fn vccz_branch() {
    for (lane_has_3, want) in [(true, 1u32), (false, 2u32)] {
        let mut w = Wave::new();
        w.set_v_all(0, |l| if lane_has_3 && l == 9 { 3 } else { 0 });
        w.lift_run(p::VCCZ_GFX8, &config(Gen::Gfx8, KEEP_ALL));
        assert_eq!(w.s(0), want);
    }
}

#[test]
fn jump_outside_the_code_traps() {
    let f = lift_ok(p::BADJUMP_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    assert!(f
        .blocks
        .iter()
        .any(|b| b.term == Terminator::Trap(TrapKind::BadJump)));
    let mut w = Wave::new();
    let e = w.run(&f).unwrap_err();
    assert_eq!(e.kind, wavejit_runtime::FaultKind::BadJump);
}

#[test]
fn decode_errors_name_the_offset() {
    // s_endpgm preceded by an undecodable word (0xffffffff).
    let code = [0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x81, 0xbf];
    match lift(&code, &config(Gen::Gfx9, KEEP_ALL)) {
        Err(LiftError {
            kind: LiftErrorKind::Unknown,
            pc: 0,
            ..
        }) => {}
        other => panic!("expected a decode error at 0, got {other:?}"),
    }
    // Garbage after s_endpgm is never decoded.
    let code = [0x00, 0x00, 0x81, 0xbf, 0xff, 0xff, 0xff, 0xff];
    lift_ok(&code, &config(Gen::Gfx9, KEEP_ALL));
}

#[test]
fn setreg_mode_switches_denormals() {
    // FLOAT_MODE 0xc0 flushes f32 denormals; s_setreg_imm32 of MODE[5:4] = 3 keeps them.
    let den = f32::from_bits(0x0000_1000);
    let mut w = Wave::new();
    w.set_v_all(0, |_| den.to_bits());
    w.set_v_all(1, |_| 1.0f32.to_bits());
    w.lift_run(p::SETREG_GFX9, &config(Gen::Gfx9, FLUSH_F32));
    assert_eq!(w.v(2, 0), 0, "flushed before s_setreg");
    assert_eq!(w.v(3, 0), den.to_bits(), "kept after s_setreg");
    // MODE bits 9:0: round 0, denorm 0xf (f32 both now on), DX10 [8], IEEE [9].
    assert_eq!(w.s(0), 0xf0 | 1 << 8 | 1 << 9);
}

#[test]
fn mode_conflict_is_reported() {
    // s_cbranch_scc1 over an s_setreg: the join point sees two MODE values.
    // llvm-mc -mcpu=gfx900:
    //   s_cbranch_scc1 2                                   ; [0x02,0x00,0x85,0xbf]
    //   s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3     ; [0x01,0x09,0x00,0xba,0x03,0x00,0x00,0x00]
    //   s_endpgm                                           ; [0x00,0x00,0x81,0xbf]
    let code = [
        0x02, 0x00, 0x85, 0xbf, 0x01, 0x09, 0x00, 0xba, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x81,
        0xbf,
    ];
    match lift(&code, &config(Gen::Gfx9, FLUSH_F32)) {
        Err(LiftError {
            kind: LiftErrorKind::Invalid,
            pc: 12,
            ref why,
            ..
        }) if why.contains("disagree on the float MODE") => {}
        other => panic!("expected a mode conflict at 12, got {other:?}"),
    }
}

#[test]
fn setreg_from_a_constant_register() {
    // s_movk/s_mov of a constant right before s_setreg_b32: MODE[5:4] = 3 keeps f32
    // denormals, then 0 flushes them again.
    let den = f32::from_bits(0x0000_1000);
    let mut w = Wave::new();
    w.set_v_all(0, |_| den.to_bits());
    w.set_v_all(1, |_| 1.0f32.to_bits());
    w.lift_run(p::SETREG_REG_GFX9, &config(Gen::Gfx9, FLUSH_F32));
    assert_eq!(w.v(2, 0), 0, "flushed before the first s_setreg");
    assert_eq!(w.v(3, 0), den.to_bits(), "kept after MODE[5:4] = 3");
    assert_eq!(w.v(4, 0), 0, "flushed after MODE[5:4] = 0");
    assert_eq!(w.s(0), 0xc0 | 1 << 8 | 1 << 9);
}

#[test]
fn setreg_from_an_unknown_register_is_rejected() {
    match lift(p::SETREG_DYNAMIC_GFX9, &config(Gen::Gfx9, FLUSH_F32)) {
        Err(LiftError {
            kind: LiftErrorKind::Unsupported,
            pc: 0,
            why,
            ..
        }) => {
            assert!(why.contains("not set to a constant"), "{why}")
        }
        other => panic!("expected an unsupported s_setreg_b32, got {other:?}"),
    }
}
