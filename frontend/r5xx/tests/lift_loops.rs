//! Loops and subroutines (seed 003 §3.5): LOOP/ENDLOOP and REP/ENDREP with counts 0, 1, 255,
//! aL and relative addressing, BREAKLOOP/BREAKREP and CONTINUE with divergent processors,
//! CALL/RETURN (conditional too), the stack limits.

mod lift_common;

use lift_common::*;
use wavejit_r5xx::inst::Inst;
use wavejit_r5xx::table::{AOp, BOp, CmpOp, FcOp};

/// LOOP: "0x00 0 LOOP NONE NONE NONE 0 0 ENDLOOP+1".
fn loop_(int: u8, to: u16) -> Inst {
    fc(FcOp::Loop, 0x00, false, to).int(int).inst()
}

/// ENDLOOP: "0xff 1 ENDLOOP NONE NONE NONE 0 0 LOOP+1".
fn endloop(to: u16) -> Inst {
    fc(FcOp::EndLoop, 0xff, true, to).inst()
}

fn rep(int: u8, to: u16) -> Inst {
    fc(FcOp::Rep, 0x00, false, to).int(int).inst()
}

fn endrep(to: u16) -> Inst {
    fc(FcOp::EndRep, 0xff, true, to).inst()
}

fn if_c(to: u16) -> Inst {
    fc(FcOp::Jump, 0x0f, false, to)
        .stacks(AOp::None, BOp::Incr, BOp::None, 0, false)
        .inst()
}

fn endif(pop: u8) -> Inst {
    fc(FcOp::Jump, 0x00, true, 0)
        .stacks(AOp::None, BOp::Decr, BOp::None, pop, false)
        .inst()
}

/// for count iterations: r5 += 1; then r7 = 4.
fn counting(count: u8) -> Done {
    let prog = vec![
        loop_(2, 3),
        add(5, 1.0).inst(),
        endloop(1),
        set(7, 4.0).inst(),
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(0, 0, 0), (0, 0, 0), (count, 0, 0)]);
    m.go()
}

#[test]
fn a_loop_runs_its_body_count_times() {
    for n in [0u8, 1, 2, 255] {
        let d = counting(n);
        assert_eq!(d.r(5, 0, 30), f(f32::from(n)), "LOOP of {n}");
        assert_eq!(d.r(7, 0, 30), f(4.0));
        // LOOP, then n times (body, ENDLOOP), then the last slot; 0: LOOP jumps past.
        let want = if n == 0 { 2 } else { 2 + 2 * u64::from(n) };
        assert_eq!(d.executed, want, "slots of LOOP {n}");
    }
}

#[test]
fn al_steps_through_relative_addresses() {
    // aL = 2, 5, 8: r[10 + aL] = c[1 + aL] for three iterations.
    let prog = vec![
        loop_(0, 3),
        mov(10, k_rel(1), 7, true).dst_rel(10, 7, true).inst(),
        endloop(1),
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(3, 2, 3)]);
    let consts: Vec<[f32; 4]> = (0..16)
        .map(|c| [c as f32, 0.5, 0.25, -(c as f32)])
        .collect();
    m.constf(0x9000, &consts);
    let d = m.go();
    for r in 10..21 {
        let al = r - 10;
        let want = if [2, 5, 8].contains(&al) {
            f((1 + al) as f32)
        } else {
            0
        };
        assert_eq!(d.r(r, 0, 3), want, "r{r}");
    }
    assert_eq!(d.r(15, 3, 3), f(-6.0));
}

#[test]
fn negative_steps_and_wrapping_temp_indices() {
    // aL = 1, -1 (step -2): r[aL + 0] with REL wraps to r127.
    let prog = vec![
        loop_(0, 3),
        set(2, 1.0).dst_rel(0, 7, true).inst(),
        endloop(1),
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(2, 1, -2)]);
    let d = m.go();
    assert_eq!(d.r(1, 0, 0), f(1.0));
    assert_eq!(d.r(127, 0, 0), f(1.0));
    assert_eq!(d.r(126, 0, 0), 0);
}

#[test]
fn rep_counts_without_touching_al() {
    // LOOP (aL 4) { REP 3 { r[aL] += 1 } }: r4 = 3; an inner REP sees the outer aL.
    let prog = vec![
        loop_(0, 5),
        rep(1, 4),
        add(0, 1.0)
            .srcs([
                t_rel(0),
                inline(inline_of(1.0)),
                wavejit_r5xx::inst::Src::UNUSED,
            ])
            .dst_rel(0, 7, true)
            .inst(),
        endrep(2),
        endloop(1),
        set(9, 1.0).inst(),
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(1, 4, 0), (3, 0, 0)]);
    let d = m.go();
    assert_eq!(d.r(4, 0, 0), f(3.0));
    assert_eq!(d.r(9, 0, 0), f(1.0));
    // A REP outside every loop has aL 0.
    let prog = vec![rep(0, 3), set(0, 2.0).dst_rel(0, 7, true).inst(), endrep(1)];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(2, 9, 9)]);
    let d = m.go();
    assert_eq!(d.r(0, 0, 0), f(2.0));
    assert_eq!(d.r(9, 0, 0), 0);
}

/// LOOP 255 { r5 += 1; if (r5 - r6 >= 0) BREAK; } r7 = 4.
fn breaking(limit: impl Fn(u32) -> f32) -> Done {
    let prog = vec![
        loop_(0, 7),                      // 0
        add(5, 1.0).inst(),               // 1
        test_sub(5, 6, CmpOp::Ge).inst(), // 2
        if_c(6),                          // 3
        // BREAK: "0xff 0 BREAK NONE NONE DECR n 0 END+1"
        fc(FcOp::BreakLoop, 0xff, false, 7)
            .stacks(AOp::None, BOp::None, BOp::Decr, 1, false)
            .inst(), // 4
        endif(1),           // 5
        endloop(1),         // 6
        set(7, 4.0).inst(), // 7
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(255, 0, 0)]);
    m.set_temp(6, 0, |l| f(limit(l)));
    m.go()
}

#[test]
fn break_leaves_the_loop_lane_by_lane() {
    let d = breaking(|l| (l % 7 + 1) as f32);
    for l in 0..64 {
        assert_eq!(d.r(5, 0, l), f((l % 7 + 1) as f32), "lane {l}");
        assert_eq!(d.r(7, 0, l), f(4.0), "lane {l} after the loop");
    }
    assert_eq!(d.mask(0), u64::MAX);
    // Every lane breaks in the same iteration: the BREAK jumps (no lane is held back).
    let d = breaking(|_| 3.0);
    assert_eq!(d.row(5, 0), vec![f(3.0); 64]);
    // LOOP; twice (add, test, IF jumping to ENDLOOP, ENDLOOP); add, test, IF, BREAK
    // jumping out; the last slot.
    assert_eq!(
        d.executed,
        1 + 4 + 4 + 4 + 1,
        "the group left at the third BREAK"
    );
    // No lane breaks before the count runs out.
    let d = breaking(|_| 1000.0);
    assert_eq!(d.row(5, 0), vec![f(255.0); 64]);
}

/// REP 200 { r5 += 1; if (r5 - r6 >= 0) BREAKREP; } r7 = 4: BREAKREP leaves a REP as
/// BREAKLOOP leaves a LOOP, lane by lane, popping the REP's frame when the group leaves.
#[test]
fn breakrep_leaves_a_rep_lane_by_lane() {
    let prog = vec![
        rep(0, 7),                        // 0
        add(5, 1.0).inst(),               // 1
        test_sub(5, 6, CmpOp::Ge).inst(), // 2
        if_c(6),                          // 3
        fc(FcOp::BreakRep, 0xff, false, 7)
            .stacks(AOp::None, BOp::None, BOp::Decr, 1, false)
            .inst(), // 4
        endif(1),                         // 5
        endrep(1),                        // 6
        set(7, 4.0).inst(),               // 7
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(200, 0, 0)]);
    m.set_temp(6, 0, |l| f((l % 5 * 3 + 2) as f32));
    let d = m.go();
    for l in 0..64 {
        assert_eq!(d.r(5, 0, l), f((l % 5 * 3 + 2) as f32), "lane {l}");
        assert_eq!(d.r(7, 0, l), f(4.0), "lane {l} after the REP");
    }
    assert_eq!(d.mask(0), u64::MAX);
}

/// LOOP 10 { r5 += 1; if (r5 - r6 < 0) CONTINUE; r8 += 1 } r7 = 4.
fn continuing(limit: impl Fn(u32) -> f32) -> Done {
    let prog = vec![
        loop_(0, 8),                      // 0
        add(5, 1.0).inst(),               // 1
        test_sub(5, 6, CmpOp::Lt).inst(), // 2
        if_c(6),                          // 3
        // CONTINUE: "0xff 0 CONTINUE NONE NONE DECR n 0 END"
        fc(FcOp::Continue, 0xff, false, 7)
            .stacks(AOp::None, BOp::None, BOp::Decr, 1, false)
            .inst(), // 4
        endif(1),           // 5
        add(8, 1.0).inst(), // 6
        endloop(1),         // 7
        set(7, 4.0).inst(), // 8
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(10, 0, 0)]);
    m.set_temp(6, 0, |l| f(limit(l)));
    m.go()
}

#[test]
fn continue_skips_to_the_next_iteration() {
    let d = continuing(|l| (l % 12) as f32);
    for l in 0..64 {
        let lim = l % 12;
        // r8 counts the iterations k = 1..=10 with k >= lim.
        let want = (1..=10).filter(|&k| k >= lim).count() as f32;
        assert_eq!(d.r(5, 0, l), f(10.0), "lane {l}");
        assert_eq!(d.r(8, 0, l), f(want), "lane {l}");
        assert_eq!(d.r(7, 0, l), f(4.0));
    }
    // Every lane continues every time: the CONTINUE jumps, the loop still runs 10 times.
    let d = continuing(|_| 100.0);
    assert_eq!(d.row(5, 0), vec![f(10.0); 64]);
    assert_eq!(d.row(8, 0), vec![0; 64]);
    assert_eq!(d.row(7, 0), vec![f(4.0); 64]);
}

#[test]
fn nested_loops_with_breaks_restore_the_outer_lanes() {
    // LOOP 3 { LOOP 255 { r5 += 1; if (r5 - r6 >= 0) BREAK } r6 += 2; r8 += 1 }
    let prog = vec![
        loop_(1, 11),                     // 0
        loop_(0, 8),                      // 1
        add(5, 1.0).inst(),               // 2
        test_sub(5, 6, CmpOp::Ge).inst(), // 3
        if_c(7),                          // 4
        fc(FcOp::BreakLoop, 0xff, false, 8)
            .stacks(AOp::None, BOp::None, BOp::Decr, 1, false)
            .inst(), // 5
        endif(1),                         // 6
        endloop(2),                       // 7
        add(6, 2.0).inst(),               // 8
        add(8, 1.0).inst(),               // 9
        endloop(1),                       // 10
        set(7, 4.0).inst(),               // 11
    ];
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(255, 0, 0), (3, 0, 0)]);
    m.set_temp(6, 0, |l| f((l % 5) as f32));
    let d = m.go();
    for l in 0..64 {
        // Inner loops end at r5 = max(r5 + 1, limit): limits l%5, l%5 + 2, l%5 + 4.
        let mut r5 = 0.0f32;
        let mut lim = (l % 5) as f32;
        for _ in 0..3 {
            loop {
                r5 += 1.0;
                if r5 >= lim {
                    break;
                }
            }
            lim += 2.0;
        }
        assert_eq!(d.r(5, 0, l), f(r5), "lane {l}");
        assert_eq!(d.r(8, 0, l), f(3.0));
        assert_eq!(d.r(7, 0, l), f(4.0));
    }
}

#[test]
fn calls_and_returns() {
    let call = |to, func| {
        fc(FcOp::Jump, func, true, to)
            .stacks(AOp::Push, BOp::None, BOp::Incr, 0, false)
            .inst()
    };
    let prog = vec![
        call(5, 0xff),                    // 0: CALL
        call(5, 0xff),                    // 1: CALL
        test_sub(2, 1, CmpOp::Ne).inst(), // 2
        call(5, 0xf0),                    // 3: CALL c
        set(7, 4.0).last().inst(),        // 4
        add(5, 1.0).inst(),               // 5: the subroutine
        // RETURN: "0xff 0 JUMP POP NONE DECR 1 0 0"
        fc(FcOp::Jump, 0xff, false, 0)
            .stacks(AOp::Pop, BOp::None, BOp::Decr, 1, false)
            .inst(),
    ];
    for pattern in [0u64, u64::MAX, 0x0f0f_1234_8000_0001] {
        let mut m = Machine::new(prog.clone());
        m.set_temp(
            2,
            0,
            move |l| if pattern >> l & 1 == 1 { f(1.0) } else { 0 },
        );
        let d = m.go();
        for l in 0..64 {
            let want = 2.0 + (pattern >> l & 1) as f32;
            assert_eq!(d.r(5, 0, l), f(want), "pattern {pattern:#x} lane {l}");
            assert_eq!(d.r(7, 0, l), f(4.0));
        }
        assert_eq!(d.mask(0), u64::MAX);
    }
}

#[test]
fn stack_limits_are_guest_faults() {
    // A subroutine that calls itself: the fifth push overflows.
    let prog = vec![
        fc(FcOp::Jump, 0xff, true, 0)
            .stacks(AOp::Push, BOp::None, BOp::None, 0, false)
            .inst(),
        set(3, 1.0).inst(),
    ];
    let e = Machine::new(prog).run().err().expect("overflow");
    assert!(e.contains("address stack overflow"), "{e}");
    let prog = vec![
        fc(FcOp::Jump, 0xff, false, 0)
            .stacks(AOp::Pop, BOp::None, BOp::None, 0, false)
            .inst(),
        set(3, 1.0).inst(),
    ];
    let e = Machine::new(prog).run().err().expect("underflow");
    assert!(e.contains("address stack underflow"), "{e}");
    // Five nested LOOPs.
    let mut prog: Vec<Inst> = (0..5).map(|i| loop_(0, 10 - i)).collect();
    prog.extend((0..5).map(|i| endloop(5 - i)));
    prog.push(set(3, 1.0).inst());
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(2, 0, 0)]);
    let e = m.run().err().expect("loop overflow");
    assert!(e.contains("loop stack overflow"), "{e}");
    // Four fit.
    let mut prog: Vec<Inst> = (0..4).map(|i| loop_(0, 8 - i)).collect();
    prog.extend((0..4).map(|i| endloop(4 - i)));
    prog.push(add(3, 1.0).inst());
    let mut m = Machine::new(prog);
    m.consti(0x8000, &[(2, 0, 0)]);
    assert_eq!(m.go().r(3, 0, 0), f(1.0));
    for op in [FcOp::EndLoop, FcOp::BreakLoop, FcOp::Continue] {
        let e = Machine::new(vec![fc(op, 0xff, true, 0).inst(), set(3, 1.0).inst()])
            .run()
            .err()
            .expect("an empty loop stack");
        assert!(e.contains("with an empty loop stack"), "{op:?}: {e}");
    }
}
