//! Branches (seed 003 §3.5): the if/else/endif encodings of the table at lines 1237-1275 on
//! the ALU result, a predicate and a boolean constant; nesting with merged ENDIF pop counts
//! (lines 1277-1304); JUMP_ANY both ways with divergent processors; IGNORE_UNCOVERED;
//! WRITE_INACTIVE; the ALU result's loss at a flow-control slot; counter limits; jumps
//! outside the program and endless loops.

mod lift_common;

use lift_common::*;
use wavejit_r5xx::inst::Inst;
use wavejit_r5xx::table::{AOp, BOp, CmpOp, FcOp, PredSel};

/// IF c (jump iff the ALU result is false): "0x0f 0 JUMP NONE INCR INCR|NONE 0 0".
fn if_c(to: u16, has_else: bool) -> Inst {
    let b1 = if has_else { BOp::Incr } else { BOp::None };
    fc(FcOp::Jump, 0x0f, false, to)
        .stacks(AOp::None, BOp::Incr, b1, 0, false)
        .inst()
}

/// ELSE: "0x00 0 JUMP NONE NONE DECR 1 1 ENDIF+1".
fn else_(to: u16) -> Inst {
    fc(FcOp::Jump, 0x00, false, to)
        .stacks(AOp::None, BOp::None, BOp::Decr, 1, true)
        .inst()
}

/// ENDIF: "0x00 1 JUMP NONE DECR NONE n 0 0".
fn endif(pop: u8) -> Inst {
    fc(FcOp::Jump, 0x00, true, 0)
        .stacks(AOp::None, BOp::Decr, BOp::None, pop, false)
        .inst()
}

/// if (r2.x != 0) r3 = 1 else r3 = 2; r4 = 3 (all lanes).
fn if_else_program() -> Vec<Inst> {
    vec![
        test_sub(2, 1, CmpOp::Ne).inst(),
        if_c(4, true),
        set(3, 1.0).inst(),
        else_(6),
        set(3, 2.0).inst(),
        endif(1),
        set(4, 3.0).inst(),
    ]
}

fn run_if_else(cond: impl Fn(u32) -> bool) -> Done {
    // r1 = 0 everywhere: the test is r2.x - r1.x != 0.
    let mut m = Machine::new(if_else_program());
    m.set_temp(2, 0, |l| if cond(l) { f(1.0) } else { 0 });
    m.go()
}

#[test]
fn if_else_endif_on_the_alu_result() {
    for (name, cond) in [
        (
            "divergent",
            &(|l: u32| l.is_multiple_of(3)) as &dyn Fn(u32) -> bool,
        ),
        ("all true", &|_| true),
        ("all false", &|_| false),
    ] {
        let d = run_if_else(cond);
        for l in 0..64 {
            let want = if cond(l) { 1.0 } else { 2.0 };
            assert_eq!(d.r(3, 0, l), f(want), "{name}: lane {l}");
            assert_eq!(d.r(4, 0, l), f(3.0), "{name}: lane {l} after the endif");
        }
        assert_eq!(d.mask(0), u64::MAX, "{name}: every lane active at the end");
        // Slots run: all 7 when divergent; the group skips the else part (5 slots, the
        // ELSE jumps past the ENDIF) or the then part (5: IF jumps to ELSE+1).
        let want = match name {
            "divergent" => 7,
            "all true" => 5,
            _ => 5,
        };
        assert_eq!(d.executed, want, "{name}: slots executed");
    }
}

#[test]
fn if_else_endif_on_a_predicate_and_a_boolean() {
    // IF p: "0x33 0 JUMP NONE INCR INCR" with the RRRR predicate.
    let prog = vec![
        mov(9, t(2), 0, false)
            .set_pred(CmpOp::Ne, 1, CmpOp::Ne, false)
            .inst(),
        fc(FcOp::Jump, 0x33, false, 4)
            .stacks(AOp::None, BOp::Incr, BOp::Incr, 0, false)
            .pred(PredSel::Rrrr, false)
            .inst(),
        set(3, 1.0).inst(),
        else_(6),
        set(3, 2.0).inst(),
        endif(1),
        set(4, 3.0).inst(),
    ];
    let mut m = Machine::new(prog);
    m.set_temp(2, 0, |l| if l & 4 != 0 { f(5.0) } else { 0 });
    let d = m.go();
    for l in 0..64 {
        assert_eq!(
            d.r(3, 0, l),
            f(if l & 4 != 0 { 1.0 } else { 2.0 }),
            "lane {l}"
        );
        assert_eq!(d.r(4, 0, l), f(3.0));
    }
    // IF b / ELSE / ENDIF: "0x55 0 JUMP ... ELSE+1", "0xff 0 JUMP ... ENDIF": no counters.
    for (b, want) in [(0u32, 2.0), (0x8000_0000, 1.0), (1, 1.0)] {
        let prog = vec![
            fc(FcOp::Jump, 0x55, false, 3).boolean(5).inst(),
            set(3, 1.0).inst(),
            fc(FcOp::Jump, 0xff, false, 4).inst(),
            set(3, 2.0).inst(),
            set(4, 3.0).inst(),
        ];
        let mut m = Machine::new(prog);
        let mut words = [0u32; 8];
        words[5] = b;
        m.constb(0x9000, &words);
        let d = m.go();
        assert_eq!(d.r(3, 0, 17), f(want), "bool {b:#x}");
        assert_eq!(d.r(4, 0, 17), f(3.0));
    }
}

#[test]
fn nested_ifs_with_merged_endifs() {
    // The seed's optimisation (lines 1277-1304): three IFs, one ENDIF popping 3; the inner
    // IFs' B_OP1 DECR 1 and 2 when the whole group skips to the end.
    let prog = vec![
        test_sub(2, 1, CmpOp::Ne).inst(), // 0
        fc(FcOp::Jump, 0x0f, false, 11)
            .stacks(AOp::None, BOp::Incr, BOp::None, 0, false)
            .inst(),
        add(5, 1.0).inst(),               // 2
        test_sub(3, 1, CmpOp::Ne).inst(), // 3
        fc(FcOp::Jump, 0x0f, false, 11)
            .stacks(AOp::None, BOp::Incr, BOp::Decr, 1, false)
            .inst(),
        add(5, 2.0).inst(),               // 5
        test_sub(4, 1, CmpOp::Ne).inst(), // 6
        fc(FcOp::Jump, 0x0f, false, 11)
            .stacks(AOp::None, BOp::Incr, BOp::Decr, 2, false)
            .inst(),
        add(5, 4.0).inst(), // 8
        set(6, 1.0).inst(), // 9
        endif(3),           // 10
        add(7, 1.0).inst(), // 11: all lanes
    ];
    // Lane l: conditions from its bits 0, 1, 2; lanes 0..8 repeat over the wave.
    for pattern in [0xffu32, 0x80, 0x7f, 0x00, 0xaa, 0x0f] {
        let mut m = Machine::new(prog.clone());
        let lanes = move |l: u32| pattern >> (l % 8) & 1 == 1;
        for (r, bit) in [(2, 0), (3, 1), (4, 2)] {
            m.set_temp(r, 0, move |l| {
                if lanes(l) || (l >> 3) >> bit & 1 == 1 {
                    f(1.0)
                } else {
                    0
                }
            });
        }
        let d = m.go();
        for l in 0..64 {
            let c = |r: u32| d.r(r, 0, l) != 0;
            let (a, b, cc) = (c(2), c(3), c(4));
            let want = [(a, 1.0), (a && b, 2.0), (a && b && cc, 4.0)]
                .iter()
                .filter(|(on, _)| *on)
                .fold(0.0f32, |s, (_, v)| s + v);
            assert_eq!(d.r(5, 0, l), f(want), "pattern {pattern:#x} lane {l}");
            assert_eq!(d.r(6, 0, l), if a && b && cc { f(1.0) } else { 0 });
            assert_eq!(
                d.r(7, 0, l),
                f(1.0),
                "pattern {pattern:#x} lane {l}: after the ENDIF"
            );
        }
    }
}

/// A JUMP over slot 2 (a WRITE_INACTIVE write of r3, which writes every running lane
/// whenever the group executes it) taken by the vote of `want` lanes.
fn vote(
    jump_any: bool,
    want: impl Fn(u32) -> bool + 'static,
    ignore: bool,
    domain: [u32; 4],
) -> Done {
    let mut j = fc(FcOp::Jump, 0xf0, jump_any, 3);
    if ignore {
        j = j.ignore_uncovered();
    }
    let prog = vec![
        test_sub(2, 1, CmpOp::Ne).inst(),
        j.inst(),
        set(3, 1.0).write_inactive().inst(),
        set(4, 2.0).inst(),
    ];
    let mut m = Machine::new(prog);
    m.domain = domain;
    m.set_temp(2, 0, move |l| if want(l) { f(1.0) } else { 0 });
    m.go()
}

#[test]
fn jump_any_quantifies_over_the_active_processors() {
    let whole = [0, 0, 15, 3];
    // One processor wants to jump: JUMP_ANY jumps, the universal form stays.
    let d = vote(true, |l| l == 9, false, whole);
    assert_eq!(
        d.row(3, 0),
        vec![0; 64],
        "JUMP_ANY with one wanting jumps over the write"
    );
    let d = vote(false, |l| l == 9, false, whole);
    assert_eq!(
        d.row(3, 0),
        vec![f(1.0); 64],
        "all must want to jump: stays"
    );
    // Every processor wants to: both jump.
    let d = vote(false, |_| true, false, whole);
    assert_eq!(d.row(3, 0), vec![0; 64]);
    // None wants to: neither jumps.
    let d = vote(true, |_| false, false, whole);
    assert_eq!(d.row(3, 0), vec![f(1.0); 64]);
    // Lanes that did not want the jump are carried along: no mask changes.
    assert_eq!(d.row(4, 0), vec![f(2.0); 64]);
}

#[test]
fn ignore_uncovered_leaves_helpers_out_of_the_vote() {
    // Domain: the single pair (0, 0) = lane 0; lanes 1, 16, 17 are its quad's helpers.
    let one = [0, 0, 0, 0];
    let d = vote(false, |l| l == 0, false, one);
    assert_eq!(
        d.r(3, 0, 0),
        f(1.0),
        "helpers vote against: the group stays"
    );
    assert_eq!(d.r(3, 0, 16), f(1.0), "a helper runs the write");
    assert_eq!(
        d.r(3, 0, 2),
        0,
        "a lane of a quad without a covered pair never runs"
    );
    let d = vote(false, |l| l == 0, true, one);
    assert_eq!(d.r(3, 0, 0), 0, "helpers ignored: the group jumps");
    assert_eq!(d.r(3, 0, 17), 0);
}

#[test]
fn write_inactive_writes_lanes_flow_control_disabled() {
    let prog = vec![
        test_sub(2, 1, CmpOp::Ne).inst(),
        if_c(5, false),
        set(3, 1.0).inst(),
        set(4, 2.0).write_inactive().inst(),
        endif(1),
        set(5, 3.0).inst(),
    ];
    let mut m = Machine::new(prog);
    m.set_temp(2, 0, |l| if l < 32 { f(1.0) } else { 0 });
    let d = m.go();
    for l in 0..64 {
        assert_eq!(d.r(3, 0, l), if l < 32 { f(1.0) } else { 0 }, "lane {l}");
        assert_eq!(d.r(4, 0, l), f(2.0), "lane {l}: WRITE_INACTIVE");
        assert_eq!(d.r(5, 0, l), f(3.0));
    }
}

#[test]
fn the_alu_result_is_lost_at_a_flow_control_slot() {
    // The ALU result is set (true everywhere), then a never-jumping FC slot; the IF c after
    // it reads 0 and so jumps (IF c jumps when the result is false).
    let prog = vec![
        test_sub(2, 1, CmpOp::Ne).inst(),
        fc(FcOp::Jump, 0x00, true, 0).inst(),
        if_c(4, false),
        set(3, 1.0).inst(),
        endif(1),
    ];
    let mut m = Machine::new(prog);
    m.set_temp(2, 0, |_| f(1.0));
    let d = m.go();
    assert_eq!(d.row(3, 0), vec![0; 64]);
    // Without the FC slot in between, the result holds.
    let mut m = Machine::new(vec![
        test_sub(2, 1, CmpOp::Ne).inst(),
        set(9, 1.0).inst(),
        if_c(4, false),
        set(3, 1.0).inst(),
        endif(1),
    ]);
    m.set_temp(2, 0, |_| f(1.0));
    assert_eq!(m.go().row(3, 0), vec![f(1.0); 64]);
}

/// `depth` nested IF c, each letting lane 0 out at the first and keeping the others.
fn nested(depth: usize, full: bool) -> Result<Done, String> {
    // Each level sets the ALU result again (a flow-control slot loses it).
    let mut prog = Vec::new();
    let end = (3 * depth + 1) as u16;
    for _ in 0..depth {
        prog.push(test_sub(2, 1, CmpOp::Ne).inst());
        prog.push(if_c(end, false));
        prog.push(set(9, 1.0).inst());
    }
    prog.push(endif(depth as u8));
    prog.push(set(3, 1.0).inst());
    let mut m = Machine::new(prog);
    m.setup.info.full_fc = full;
    m.set_temp(2, 0, |l| if l == 0 { 0 } else { f(1.0) });
    m.run()
}

#[test]
fn branch_counters_have_a_limit_per_mode() {
    // Partial mode: counters 0..3, so lane 0's counter overflows at a fifth nested IF.
    let d = nested(4, false).expect("four levels fit partial mode");
    assert_eq!(d.row(3, 0), vec![f(1.0); 64]);
    let e = nested(5, false).err().expect("a fifth level overflows");
    assert!(e.contains("branch counter overflow"), "{e}");
    nested(5, true).expect("full mode nests 32");
    nested(32, true).expect("full mode nests 32");
    let e = nested(33, true).err().expect("33 levels overflow");
    assert!(e.contains("branch counter overflow"), "{e}");
}

#[test]
fn jumps_outside_the_program_and_endless_loops() {
    let e = Machine::new(vec![
        fc(FcOp::Jump, 0xff, false, 7).inst(),
        set(3, 1.0).inst(),
    ])
    .run()
    .err()
    .expect("a jump to slot 7 of a two-slot program");
    assert!(e.contains("jump outside the program"), "{e}");
    // A jump that is never taken may point anywhere.
    let d = Machine::new(vec![
        fc(FcOp::Jump, 0x00, true, 300).inst(),
        set(3, 1.0).inst(),
    ])
    .go();
    assert_eq!(d.r(3, 0, 0), f(1.0));
    // A program that starts at slot 2 may not jump back to slot 0.
    let mut m = Machine::new(vec![
        set(3, 1.0).inst(),
        set(3, 1.0).inst(),
        fc(FcOp::Jump, 0xff, false, 0).inst(),
    ]);
    m.setup.info.start = 2;
    assert!(m
        .run()
        .err()
        .expect("outside start..=end")
        .contains("jump outside"));
    let e = Machine::new(vec![
        set(3, 1.0).inst(),
        fc(FcOp::Jump, 0xff, false, 0).inst(),
    ])
    .run()
    .err()
    .expect("an endless loop");
    assert_eq!(e, "out of fuel");
}

#[test]
fn last_ends_the_program() {
    let prog = vec![set(3, 1.0).last().inst(), set(4, 1.0).inst()];
    let d = Machine::new(prog).go();
    assert_eq!(d.r(3, 0, 0), f(1.0));
    assert_eq!(d.r(4, 0, 0), 0, "the slot after LAST does not run");
    assert_eq!(d.executed, 1);
    // Without LAST the program ends after slot `end`.
    let mut m = Machine::new(vec![set(3, 1.0).inst(), set(4, 1.0).inst()]);
    m.setup.info.end = 0;
    let d = m.go();
    assert_eq!((d.r(3, 0, 0), d.r(4, 0, 0)), (f(1.0), 0));
}

#[test]
fn partial_mode_refuses_loops_and_calls() {
    for slot in [
        fc(FcOp::Loop, 0, false, 1).inst(),
        fc(FcOp::Jump, 0xff, true, 1)
            .stacks(AOp::Push, BOp::None, BOp::Incr, 0, false)
            .inst(),
    ] {
        let mut m = Machine::new(vec![slot, set(3, 1.0).inst()]);
        m.setup.info.full_fc = false;
        let e = m.run().err().expect("refused");
        assert!(e.contains("partial flow-control mode"), "{e}");
    }
}

#[test]
fn jump_global_changes_nothing_with_a_zero_code_offset() {
    for global in [false, true] {
        let mut j = fc(FcOp::Jump, 0xff, false, 2);
        j.f.jump_global = global;
        let d = Machine::new(vec![j.inst(), set(3, 1.0).inst(), set(4, 1.0).inst()]).go();
        assert_eq!(
            (d.r(3, 0, 0), d.r(4, 0, 0)),
            (0, f(1.0)),
            "JUMP_GLOBAL {global}"
        );
    }
}
