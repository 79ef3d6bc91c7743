//! Fork/join, register jumps (trap returns, `s_getpc_b64`-formed addresses), VSKIP, halts
//! and the wave clock, on both engines (interpreter and JIT, compared by the harness) on
//! every generation that has them.
//!
//! Expected values follow the ISA pseudocode (AMD GCN3/Vega ISA `S_CBRANCH_I_FORK`,
//! `S_CBRANCH_G_FORK`, `S_CBRANCH_JOIN`, `S_SETVSKIP`, `S_SETHALT`; CLRX GcnState.md for the
//! MODE layout: VSKIP bit 28, CSP bits 31:29), modelled here on host integers, and the
//! lifter's documented clock (one tick per retired guest instruction, counted by hand below).
mod lift_common;

use lift_common::*;
use std::collections::HashMap;
use wavejit_gcn::asm::assemble_with_labels;
use wavejit_gcn::Gen;
use wavejit_runtime::FaultKind;

const BASE: u64 = 0x1000;
const ALL_GENS: [Gen; 4] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9];

fn assemble(gen: Gen, text: &str) -> (Vec<u8>, HashMap<String, usize>) {
    assemble_with_labels(gen, text).unwrap_or_else(|e| panic!("{gen:?}: {e}"))
}

/// Assembles `text`, lets `setup` prepare the wave (it gets the label offsets), runs it.
fn run(gen: Gen, text: &str, setup: impl FnOnce(&mut Wave, &HashMap<String, usize>)) -> Wave {
    let (code, labels) = assemble(gen, text);
    let mut w = Wave::new();
    setup(&mut w, &labels);
    w.lift_run(&code, &config(gen, KEEP_ALL));
    w
}

/// The documented fork on host integers: (the target runs first, EXEC of the first path,
/// the pushed entry as (EXEC, pc is the target)).
fn fork_model(exec: u64, mask: u64) -> (bool, u64, Option<(u64, bool)>) {
    let pass = exec & mask;
    let fail = exec & !mask;
    if pass == exec {
        (true, exec, None)
    } else if fail == exec {
        (false, exec, None)
    } else if fail.count_ones() < pass.count_ones() {
        (false, fail, Some((pass, true)))
    } else {
        (true, pass, Some((fail, false)))
    }
}

/// One fork and its join. Each path records its EXEC, an order stamp (s50 counts up from
/// 1) and the CSP it sees; both paths write a VGPR.
const FORK: &str = "
    s_getreg_b32 s40, hwreg(HW_REG_MODE, 29, 3)
    s_cbranch_i_fork s[60:61], target
  fail:
    v_mov_b32 v1, 1
    s_mov_b64 s[42:43], exec
    s_mov_b32 s36, s50
    s_add_u32 s50, s50, 1
    s_getreg_b32 s38, hwreg(HW_REG_MODE, 29, 3)
    s_branch join
  target:
    v_mov_b32 v2, 2
    s_mov_b64 s[44:45], exec
    s_mov_b32 s37, s50
    s_add_u32 s50, s50, 1
    s_getreg_b32 s39, hwreg(HW_REG_MODE, 29, 3)
  join:
    s_cbranch_join s40
    s_mov_b64 s[46:47], exec
    s_getreg_b32 s41, hwreg(HW_REG_MODE, 29, 3)
    s_endpgm
";

/// Checks one run of [`FORK`] against [`fork_model`].
fn check_fork(gen: Gen, exec: u64, mask: u64, fork_text: &str, target_reg: bool) {
    let mut labels = HashMap::new();
    let w = run(gen, fork_text, |w, l| {
        labels = l.clone();
        w.set_exec(exec);
        w.set_s64(60, mask);
        w.set_s(50, 1);
        if target_reg {
            w.set_s64(56, BASE + l["target"] as u64);
        }
    });
    let what = format!("{gen:?} exec {exec:#x} mask {mask:#x}");
    let (target_first, first_exec, push) = fork_model(exec, mask);
    let (fail_exec, pass_exec) = match (target_first, push) {
        (true, None) => (None, Some(first_exec)),
        (false, None) => (Some(first_exec), None),
        (true, Some((e, _))) => (Some(e), Some(first_exec)),
        (false, Some((e, _))) => (Some(first_exec), Some(e)),
    };
    // Order stamps: the first path gets 1, a deferred one 2; CSP is 1 inside the first path
    // of a split and back to 0 in the deferred one.
    let (fail_stamp, pass_stamp) = match (target_first, push.is_some()) {
        (true, true) => (2, 1),
        (false, true) => (1, 2),
        (true, false) => (0, 1),
        (false, false) => (1, 0),
    };
    assert_eq!(
        (w.s(36), w.s(37)),
        (fail_stamp, pass_stamp),
        "{what}: order"
    );
    if let Some(e) = fail_exec {
        assert_eq!(w.s64(42), e, "{what}: EXEC of the fail path");
        let csp = u32::from(push.is_some() && !target_first);
        assert_eq!(w.s(38), csp, "{what}: CSP in the fail path");
    }
    if let Some(e) = pass_exec {
        assert_eq!(w.s64(44), e, "{what}: EXEC of the pass path");
        let csp = u32::from(push.is_some() && target_first);
        assert_eq!(w.s(39), csp, "{what}: CSP in the pass path");
    }
    if let Some((e, is_target)) = push {
        assert_eq!(w.s64(0), e, "{what}: stack entry EXEC");
        let pc = if is_target {
            labels["target"]
        } else {
            labels["fail"]
        };
        assert_eq!(w.s64(2), BASE + pc as u64, "{what}: stack entry PC");
    } else {
        assert_eq!((w.s64(0), w.s64(2)), (0, 0), "{what}: nothing pushed");
    }
    // The join leaves EXEC as the last path had it and CSP back at 0.
    let last = push.map_or(first_exec, |(e, _)| e);
    assert_eq!(w.s64(46), last, "{what}: EXEC after the join");
    assert_eq!(w.s(41), 0, "{what}: CSP after the join");
    for lane in 0..64 {
        let bit = 1u64 << lane;
        let v1 = if fail_exec.unwrap_or(0) & bit != 0 {
            1
        } else {
            0
        };
        let v2 = if pass_exec.unwrap_or(0) & bit != 0 {
            2
        } else {
            0
        };
        assert_eq!(
            (w.v(1, lane), w.v(2, lane)),
            (v1, v2),
            "{what}: lane {lane}"
        );
    }
}

const FORK_CASES: [(u64, u64); 7] = [
    (u64::MAX, u64::MAX),                           // every lane passes
    (u64::MAX, 0),                                  // every lane fails
    (u64::MAX, 0xffff_ffff_ffff_fff0),              // fewer fail: fail first
    (u64::MAX, 0x0000_0000_ffff_ffff),              // a tie: pass first
    (u64::MAX, 0xf),                                // fewer pass: pass first
    (0x00ff_00ff_00ff_00ff, 0x0f0f_0f0f_0f0f_0f0f), // partial EXEC, tie
    (0, 0x1234),                                    // EXEC 0 jumps to the target
];

#[test]
fn i_fork_splits_by_lane_count_and_join_runs_the_other_path() {
    for gen in ALL_GENS {
        for (exec, mask) in FORK_CASES {
            check_fork(gen, exec, mask, FORK, false);
        }
    }
}

#[test]
fn g_fork_takes_its_target_from_a_register() {
    // The same program with the target address in s[56:57] (set by the test); the target
    // label is also reached by an untaken branch so that discovery knows it.
    let text = FORK.replace(
        "s_cbranch_i_fork s[60:61], target",
        "s_cmp_eq_u32 s50, 0\n    s_cbranch_scc1 target\n    s_cbranch_g_fork s[60:61], s[56:57]",
    );
    for gen in ALL_GENS {
        for (exec, mask) in FORK_CASES {
            check_fork(gen, exec, mask, &text, true);
        }
    }
}

#[test]
fn g_fork_target_formed_by_s_getpc_is_discovered() {
    // Two passes: the offset from after s_getpc_b64 to the target does not depend on how
    // s_mov_b32 (placed before s_getpc_b64) encodes it.
    let text = |diff: u32| {
        format!(
            "
    s_mov_b32 s52, {diff:#x}
    s_getpc_b64 s[50:51]
  after_getpc:
    s_add_u32 s50, s50, s52
    s_addc_u32 s51, s51, 0
    s_getreg_b32 s40, hwreg(HW_REG_MODE, 29, 3)
    s_cbranch_g_fork s[60:61], s[50:51]
    v_mov_b32 v1, 1
    s_branch join
  target:
    v_mov_b32 v2, 2
  join:
    s_cbranch_join s40
    s_endpgm
"
        )
    };
    for gen in ALL_GENS {
        let (_, l) = assemble(gen, &text(0x12345));
        let diff = (l["target"] - l["after_getpc"]) as u32;
        let w = run(gen, &text(diff), |w, _| {
            w.set_s64(60, 0xffff_0000_0000_0000)
        });
        // 16 pass, 48 fail: the target runs first, then the fall-through.
        for lane in 0..64 {
            let pass = lane >= 48;
            assert_eq!(w.v(1, lane), u32::from(!pass), "{gen:?} lane {lane}");
            assert_eq!(
                w.v(2, lane),
                if pass { 2 } else { 0 },
                "{gen:?} lane {lane}"
            );
        }
    }
}

#[test]
fn nested_forks_push_two_entries_and_join_back() {
    let text = "
    s_getreg_b32 s40, hwreg(HW_REG_MODE, 29, 3)
    s_cbranch_i_fork s[60:61], outer_t
  outer_next:
    s_getreg_b32 s41, hwreg(HW_REG_MODE, 29, 3)
    s_cbranch_i_fork s[62:63], inner_t
  inner_next:
    v_or_b32 v3, 1, v3
    s_getreg_b32 s43, hwreg(HW_REG_MODE, 29, 3)
    s_branch inner_join
  inner_t:
    v_or_b32 v3, 2, v3
  inner_join:
    s_cbranch_join s41
    s_branch outer_join
  outer_t:
    v_or_b32 v3, 4, v3
  outer_join:
    s_cbranch_join s40
    v_or_b32 v3, 8, v3
    s_getreg_b32 s42, hwreg(HW_REG_MODE, 29, 3)
    s_mov_b64 s[44:45], exec
    s_endpgm
";
    // Outer: 56 pass, 8 fail -> the fall-through runs first (with the inner fork) and the
    // target is pushed. Inner, on those 8 lanes: 4 pass, 4 fail (a tie) -> the inner target
    // runs first and the inner fall-through is pushed on top. A join continues with the
    // EXEC of the path that reached it last: here the outer target's lanes.
    let (m1, m2) = (0x00ff_ffff_ffff_ffffu64, 0xf000_0000_0000_0000u64);
    let outer_fail = !m1;
    let inner_pass = outer_fail & m2;
    let inner_fail = outer_fail & !m2;
    assert_eq!(
        fork_model(u64::MAX, m1),
        (false, outer_fail, Some((m1, true)))
    );
    assert_eq!(
        fork_model(outer_fail, m2),
        (true, inner_pass, Some((inner_fail, false)))
    );
    for gen in ALL_GENS {
        let w = run(gen, text, |w, _| {
            w.set_s64(60, m1);
            w.set_s64(62, m2);
        });
        for lane in 0..64 {
            let bit = 1u64 << lane;
            let want = if m1 & bit != 0 {
                4 | 8
            } else if m2 & bit != 0 {
                2
            } else {
                1
            };
            assert_eq!(w.v(3, lane), want, "{gen:?} lane {lane}");
        }
        assert_eq!((w.s(40), w.s(41), w.s(42)), (0, 1, 0), "{gen:?} CSPs");
        assert_eq!(w.s(43), 1, "{gen:?}: the deferred inner path runs at CSP 1");
        assert_eq!(w.s64(44), m1, "{gen:?}: EXEC after the outer join");
        let (_, l) = assemble(gen, text);
        // Entry 0 (s0-s3): the outer target; entry 1 (s4-s7): the inner fall-through.
        assert_eq!(w.s64(0), m1, "{gen:?}");
        assert_eq!(
            w.s64(2),
            BASE + l["outer_t"] as u64,
            "{gen:?} outer entry PC"
        );
        assert_eq!(w.s64(4), inner_fail, "{gen:?}");
        assert_eq!(
            w.s64(6),
            BASE + l["inner_next"] as u64,
            "{gen:?} inner entry PC"
        );
    }
}

/// `s_cbranch_join` with CSP 0 and a different saved CSP pops entry 7 (CSP wraps).
const JOIN_POP: &str = "
    s_cbranch_join s40
  next:
    s_mov_b32 s41, 1
    s_getreg_b32 s42, hwreg(HW_REG_MODE, 29, 3)
    s_endpgm
";

#[test]
fn join_on_an_empty_stack() {
    for gen in ALL_GENS {
        // Saved CSP equal to CSP (0): nothing happens.
        let w = run(gen, JOIN_POP, |w, _| w.set_exec(0x1234));
        assert_eq!((w.s(41), w.s(42), w.exec()), (1, 0, 0x1234), "{gen:?}");
        // Saved CSP 5: CSP 0 - 1 wraps to 7 and entry 7 (s28-s31) is restored.
        let w = run(gen, JOIN_POP, |w, l| {
            w.set_s(40, 5);
            w.set_s64(28, 0x00ff_0000_00ff_0000);
            w.set_s64(30, BASE + l["next"] as u64);
        });
        assert_eq!((w.s(41), w.s(42)), (1, 7), "{gen:?}");
        assert_eq!(w.exec(), 0x00ff_0000_00ff_0000, "{gen:?}");
        // An entry holding an address that is no block faults like s_setpc_b64.
        let (code, _) = assemble(gen, JOIN_POP);
        let mut w = Wave::new();
        w.set_s(40, 5);
        w.set_s64(30, BASE + 2);
        let f = lift_ok(&code, &config(gen, KEEP_ALL));
        let err = w.run(&f).expect_err("a jump into no block faults");
        assert_eq!(err.kind, FaultKind::BadJump, "{gen:?}");
    }
}

#[test]
fn trap_returns_jump_like_s_setpc() {
    let text = |op: &str, diff: u32| {
        format!(
            "
    s_mov_b32 s52, {diff:#x}
    s_getpc_b64 s[50:51]
  after_getpc:
    s_add_u32 s50, s50, s52
    s_addc_u32 s51, s51, 0
    {op}
    s_mov_b32 s60, 1
    s_endpgm
  target:
    s_mov_b32 s61, 2
    s_getreg_b32 s62, hwreg(HW_REG_STATUS, 23, 1)
    s_endpgm
"
        )
    };
    let mut cases = vec![
        (Gen::Gfx6, "s_rfe_b64 s[50:51]", 0),
        (Gen::Gfx7, "s_setpc_b64 s[50:51]", 0),
    ];
    for gen in [Gen::Gfx8, Gen::Gfx9] {
        cases.push((gen, "s_rfe_b64 s[50:51]", 0));
        // s_rfe_restore_b64 also sets STATUS.INST_ATC from S1[0].
        cases.push((gen, "s_rfe_restore_b64 s[50:51], s53", 1));
    }
    for (gen, op, atc) in cases {
        let (_, l) = assemble(gen, &text(op, 0x12345));
        let diff = (l["target"] - l["after_getpc"]) as u32;
        let w = run(gen, &text(op, diff), |w, _| w.set_s(53, 3));
        assert_eq!((w.s(60), w.s(61)), (0, 2), "{gen:?} {op}");
        assert_eq!(w.s(62), atc, "{gen:?} {op}: STATUS.INST_ATC");
    }
}

/// VSKIP set from a register bit: VALU, VOPC, v_readfirstlane and LDS writes are skipped
/// (and flat stores on gfx7+), scalar instructions run, MODE shows the bit; after
/// `s_setvskip 0, 0` vector instructions run again.
fn vskip_text(gen: Gen, set: &str) -> String {
    let flat = |regs: &str| {
        if gen >= Gen::Gfx7 {
            format!("flat_store_dword {regs}, v7")
        } else {
            "s_nop 0".to_string()
        }
    };
    let (flat1, flat2) = (flat("v[8:9]"), flat("v[10:11]"));
    format!(
        "
    {set}
    v_mov_b32 v1, 7
    v_cmp_eq_u32 vcc, v0, v0
    v_readfirstlane_b32 s70, v7
    ds_write_b32 v6, v7
    {flat1}
    s_mov_b32 s71, 1
    s_getreg_b32 s72, hwreg(HW_REG_MODE, 28, 1)
    v_mov_b32 v2, 5
    s_setvskip 0, 0
    s_getreg_b32 s73, hwreg(HW_REG_MODE, 28, 1)
    v_mov_b32 v3, 9
    ds_write_b32 v6, v7 offset:256
    {flat2}
    s_endpgm
"
    )
}

#[test]
fn vskip_skips_vector_instructions_until_cleared() {
    for gen in ALL_GENS {
        for set in [
            "s_setvskip s60, s61",
            "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 28, 1), 1",
        ] {
            let mut buf = 0;
            let w = run(gen, &vskip_text(gen, set), |w, _| {
                // VSKIP = s60[s61[4:0]]: bit 37 & 31 = 5 of 0x20 is set.
                w.set_s(60, 0x20);
                w.set_s(61, 37);
                w.set_vcc(0x55);
                w.set_s(70, 0xdead);
                buf = vskip_setup(w);
            });
            let what = format!("{gen:?} `{set}`");
            assert_eq!((w.v(1, 3), w.v(2, 3)), (0, 0), "{what}: VALU skipped");
            assert_eq!(w.vcc(), 0x55, "{what}: VOPC skipped");
            assert_eq!(w.s(70), 0xdead, "{what}: v_readfirstlane skipped");
            assert_eq!(w.s(71), 1, "{what}: scalar instructions run");
            assert_eq!((w.s(72), w.s(73)), (1, 0), "{what}: MODE.VSKIP");
            assert_eq!(w.v(3, 3), 9, "{what}: VALU runs after clearing VSKIP");
            let lds: Vec<u32> = w
                .lds
                .chunks(4)
                .take(128)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            let ran: Vec<u32> = (0..64).map(|l| 100 + l).collect();
            assert_eq!(lds[..64], [0; 64], "{what}: skipped LDS write");
            assert_eq!(lds[64..], ran[..], "{what}: LDS write after resume");
            if gen >= Gen::Gfx7 {
                assert_eq!(w.read_u32(buf, 64), [0; 64], "{what}: skipped flat store");
                assert_eq!(
                    w.read_u32(buf + 256, 64),
                    ran,
                    "{what}: flat store after resume"
                );
            }
        }
    }
}

/// LDS limit, data `v7` = 100 + lane, per-lane LDS addresses `v6` and flat addresses
/// `v[8:9]`, `v[10:11]` 256 bytes apart in a zeroed buffer (returned).
fn vskip_setup(w: &mut Wave) -> u64 {
    w.set_m0(u32::MAX);
    w.set_v_all(6, |l| 4 * l);
    w.set_v_all(7, |l| 100 + l);
    let buf = w.buffer_u32(&[0; 128]);
    for (lo, base) in [(8, buf), (10, buf + 256)] {
        w.set_v_all(lo, |l| (base + 4 * l as u64) as u32);
        w.set_v_all(lo + 1, |l| ((base + 4 * l as u64) >> 32) as u32);
    }
    buf
}

#[test]
fn vskip_clear_from_the_start_changes_nothing() {
    // s_setvskip of a clear bit: every vector instruction runs.
    for gen in ALL_GENS {
        let w = run(gen, &vskip_text(gen, "s_setvskip s60, s61"), |w, _| {
            w.set_s(60, 0x20);
            w.set_s(61, 4);
            vskip_setup(w);
        });
        assert_eq!((w.v(1, 0), w.v(2, 0), w.v(3, 0)), (7, 5, 9), "{gen:?}");
        assert_eq!((w.vcc(), w.s(70), w.s(72)), (u64::MAX, 100, 0), "{gen:?}");
    }
}

#[test]
fn programs_without_vskip_are_not_guarded() {
    // No branch is added: one block (the prologue merged with the code).
    let text = "v_mov_b32 v1, 1\nv_mov_b32 v2, v1\ns_endpgm";
    for gen in ALL_GENS {
        let (code, _) = assemble(gen, text);
        let f = lift_ok(&code, &config(gen, KEEP_ALL));
        assert_eq!(f.blocks.len(), 1);
        let with = format!("s_setvskip 0, 0\n{text}");
        let (code, _) = assemble(gen, &with);
        let f = lift_ok(&code, &config(gen, KEEP_ALL));
        assert!(f.blocks.len() > 1, "the guarded program branches on VSKIP");
    }
}

#[test]
fn halt_ends_the_wave_with_a_fault_and_halt_0_does_nothing() {
    for gen in ALL_GENS {
        let w = run(gen, "s_sethalt 0\ns_mov_b32 s1, 5\ns_endpgm", |_, _| {});
        assert_eq!(w.s(1), 5, "{gen:?}");
        for (op, name) in [
            ("s_sethalt 1", "s_sethalt"),
            ("s_sethalt 3", "s_sethalt"),
            ("s_sendmsghalt sendmsg(MSG_INTERRUPT)", "s_sendmsghalt"),
        ] {
            let (code, _) = assemble(
                gen,
                &format!("s_mov_b32 s1, 5\n{op}\ns_mov_b32 s1, 6\ns_endpgm"),
            );
            let f = lift_ok(&code, &config(gen, KEEP_ALL));
            let mut w = Wave::new();
            let err = w.run(&f).expect_err("halt faults");
            assert_eq!(
                err.kind,
                FaultKind::Trap(format!("wave halted by {name}")),
                "{gen:?} {op}"
            );
            assert_eq!(err.pc, 4, "{gen:?} {op}: the fault names the halt");
            assert_eq!(w.s(1), 5, "{gen:?} {op}: nothing after the halt runs");
        }
    }
}

/// Clock reads: the instructions retired before each one, counted by hand.
const CLOCK: &str = "
    s_memtime s[10:11]
    s_nop 0
    s_memtime s[12:13]
    s_waitcnt lgkmcnt(0)
  loop:
    s_add_u32 s20, s20, 1
    s_cmp_lt_u32 s20, 30
    s_cbranch_scc1 loop
    s_memtime s[14:15]
    REALTIME
    s_memtime s[18:19]
    s_endpgm
";

#[test]
fn memtime_counts_retired_instructions() {
    for gen in ALL_GENS {
        let rt = if gen >= Gen::Gfx8 {
            "s_memrealtime s[16:17]"
        } else {
            "s_nop 0"
        };
        let w = run(gen, &CLOCK.replace("REALTIME", rt), |w, _| {
            w.set_s64(16, 0x77)
        });
        // 0 before the first read, 2 before the second; 4 before the loop, 30 rounds of 3.
        let after_loop = 4 + 30 * 3;
        assert_eq!(
            (w.s64(10), w.s64(12), w.s64(14), w.s64(18)),
            (0, 2, after_loop, after_loop + 2),
            "{gen:?}"
        );
        // s_memrealtime ticks once per 16 instructions.
        let want_rt = if gen >= Gen::Gfx8 {
            (after_loop + 1) / 16
        } else {
            0x77
        };
        assert_eq!(w.s64(16), want_rt, "{gen:?}");
    }
}

#[test]
fn clock_reads_across_fork_and_join_are_monotonic() {
    let text = "
    s_getreg_b32 s40, hwreg(HW_REG_MODE, 29, 3)
    s_memtime s[10:11]
    s_cbranch_i_fork s[60:61], target
    s_memtime s[12:13]
    s_branch join
  target:
    s_memtime s[14:15]
  join:
    s_cbranch_join s40
    s_memtime s[16:17]
    s_endpgm
";
    for gen in ALL_GENS {
        let w = run(gen, text, |w, _| w.set_s64(60, 0xff));
        // 8 lanes pass, so the target runs first. Retired before each read: getreg (1);
        // getreg, memtime, fork (3); then target's memtime and the join (5); then the
        // fall-through's memtime, branch and the join again (8).
        assert_eq!(
            (w.s64(10), w.s64(14), w.s64(12), w.s64(16)),
            (1, 3, 5, 8),
            "{gen:?}"
        );
    }
}

/// `s_trap` ends the wave with a fault naming the trap's own pc, also when an instruction of
/// the same block precedes it.
#[test]
fn trap_fault_names_the_trap() {
    for gen in ALL_GENS {
        let (code, _) = assemble(gen, "s_mov_b32 s1, 5\ns_trap 2\ns_endpgm");
        let f = lift_ok(&code, &config(gen, KEEP_ALL));
        let mut w = Wave::new();
        let err = w.run(&f).expect_err("s_trap faults");
        assert_eq!(err.kind, FaultKind::Trap("s_trap 2".into()), "{gen:?}");
        assert_eq!(err.pc, 4, "{gen:?}: the fault names the trap");
    }
}
