//! The static stack depth of the lifter (`lift/depth.rs`): structured CF programs (if/else,
//! loops with LOOP_BREAK, ALU_POP2_AFTER, a CALL, a CALL_FS) lift without any stack check,
//! and programs whose depth is not the same on every path, or that do overflow or underflow,
//! keep their checks and trap exactly as the stack rules say (3.6.5, 3.7). Every program
//! runs on the interpreter and the JIT; expected values follow from the program's meaning.
mod lift_common;
use lift_common::*;
use wavejit_ir::{Function, Terminator, TrapKind};
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::{sel, AluInst, CfInst, CfWord};
use wavejit_terascale::lift::FetchSubroutine;
use wavejit_terascale::tables::{CfAluOp, CfOp};
use wavejit_terascale::{AluOp, ChipClass, Program};

const CLASS: ChipClass = ChipClass::Cayman;

/// Blocks ending in a stack overflow or underflow trap.
fn stack_checks(f: &Function) -> usize {
    f.blocks
        .iter()
        .filter(|b| {
            matches!(
                b.term,
                Terminator::Trap(TrapKind::StackOverflow | TrapKind::StackUnderflow)
            )
        })
        .count()
}

fn cf(op: CfOp, addr: u32, edit: impl FnOnce(&mut CfWord)) -> CfInst {
    let mut i = word(op, addr);
    if let CfInst::Word(w) = &mut i {
        edit(w);
    }
    i
}

/// `op Rdst.chan, a, b`.
fn op(o: AluOp, dst: u8, chan: u8, a: (u16, u8), b: (u16, u8)) -> AluInst {
    inst(CLASS, o, dst, chan, &[src(a.0, a.1), src(b.0, b.1)])
}

/// `MOV Rdst.chan, literal` as a one-group clause body.
fn set(dst: u8, chan: u8, k: u32) -> Vec<Group> {
    vec![(
        vec![inst(CLASS, AluOp::MOV, dst, chan, &[src(sel::LITERAL, 0)])],
        vec![k, 0],
    )]
}

/// A PRED_SET* that updates the exec mask (no GPR write), comparing R0.x with a literal.
fn pred_lit(o: AluOp, k: u32) -> Vec<Group> {
    let mut i = op(o, 127, 0, (0, 0), (sel::LITERAL, 0));
    i.update_exec_mask = true;
    i.update_pred = true;
    i.write = false;
    vec![(vec![i], vec![k, 0])]
}

fn with_op(op: CfAluOp) -> impl FnOnce(&mut wavejit_terascale::inst::CfAlu) {
    move |a| a.op = op
}

/// R0.x = the lane id.
fn start() -> Start {
    Start {
        gprs: vec![(0, 0, Box::new(|l| l))],
        ..Start::default()
    }
}

fn lifted_and_run(p: &Program) -> (Function, Out) {
    let f = lift_ok(p);
    let o = run_function(&f, &start());
    (f, o)
}

#[test]
fn if_else_and_pop2_need_no_stack_checks() {
    // 0: ALU_PUSH_BEFORE (active = lane > 31); 1: JUMP @3; 2: R8.x = 1; 3: ELSE @5;
    // 4: R8.x = 2; 5: POP @6 POP:1; 6: END.
    let p = Prog::new(CLASS)
        .alu_with(
            pred_lit(AluOp::PRED_SETGT_INT, 31),
            with_op(CfAluOp::ALU_PUSH_BEFORE),
        )
        .cf(word(CfOp::JUMP, 3))
        .alu(set(8, 0, 1))
        .cf(word(CfOp::ELSE, 5))
        .alu(set(8, 0, 2))
        .cf(cf(CfOp::POP, 6, |w| w.pop_count = 1))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert_eq!(o.result, Ok(()));
    assert_eq!(stack_checks(&f), 0);
    for lane in 0..LANES {
        assert_eq!(
            o.r(8, 0, lane),
            if lane > 31 { 1 } else { 2 },
            "lane {lane}"
        );
    }
    // Two nested pushes (lane > 10, then lane > 20) popped by ALU_POP2_AFTER, whose clause
    // runs under the inner mask; the last clause runs on every lane again.
    let p = Prog::new(CLASS)
        .alu_with(
            pred_lit(AluOp::PRED_SETGT_INT, 10),
            with_op(CfAluOp::ALU_PUSH_BEFORE),
        )
        .alu_with(
            pred_lit(AluOp::PRED_SETGT_INT, 20),
            with_op(CfAluOp::ALU_PUSH_BEFORE),
        )
        .alu_with(set(5, 0, 3), with_op(CfAluOp::ALU_POP2_AFTER))
        .alu(set(5, 1, 4))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert_eq!(o.result, Ok(()));
    assert_eq!(stack_checks(&f), 0);
    for lane in 0..LANES {
        assert_eq!(
            o.r(5, 0, lane),
            if lane > 20 { 3 } else { 0 },
            "lane {lane}"
        );
        assert_eq!(o.r(5, 1, lane), 4, "lane {lane}");
    }
}

#[test]
fn a_loop_with_break_needs_no_stack_checks() {
    // do { R6.x += 1 } while (R6.x < lane) as LLVM builds it: 0: LOOP_START_DX10 @6;
    // 1: R6.x += 1; 2: ALU_PUSH_BEFORE (active = R6.x >= lane); 3: LOOP_BREAK @5;
    // 4: POP @5 POP:1; 5: LOOP_END @1; 6: END. The break's unwind, the POP and the loop exit
    // all have a known depth. R6.x ends as max(1, lane).
    let mut ge = op(AluOp::PRED_SETGE_INT, 127, 0, (6, 0), (0, 0));
    ge.update_exec_mask = true;
    ge.update_pred = true;
    ge.write = false;
    let p = Prog::new(CLASS)
        .cf(word(CfOp::LOOP_START_DX10, 6))
        .alu(vec![(
            vec![op(AluOp::ADD_INT, 6, 0, (6, 0), (sel::ONE_INT, 0))],
            vec![],
        )])
        .alu_with(vec![(vec![ge], vec![])], with_op(CfAluOp::ALU_PUSH_BEFORE))
        .cf(word(CfOp::LOOP_BREAK, 5))
        .cf(cf(CfOp::POP, 5, |w| w.pop_count = 1))
        .cf(word(CfOp::LOOP_END, 1))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert_eq!(o.result, Ok(()));
    assert_eq!(stack_checks(&f), 0);
    for lane in 0..LANES {
        assert_eq!(o.r(6, 0, lane), lane.max(1), "lane {lane}");
    }
}

#[test]
fn calls_from_one_site_need_no_stack_checks() {
    // 0: CALL @3; 1: R7.y = 1; 2: END; 3: R7.x = 5; 4: RETURN.
    let p = Prog::new(CLASS)
        .cf(cf(CfOp::CALL, 3, |w| w.count = 1))
        .alu(set(7, 1, 1))
        .cf(word(CfOp::END, 0))
        .alu(set(7, 0, 5))
        .cf(word(CfOp::RETURN, 0))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert_eq!(o.result, Ok(()));
    assert_eq!(stack_checks(&f), 0);
    assert_eq!((o.r(7, 0, 9), o.r(7, 1, 9)), (5, 1));
    // CALL_FS into the launch's fetch subroutine (0: R2.y = 7; 1: RETURN), then R2.z = 1.
    let sub = Prog::new(CLASS)
        .alu(set(2, 1, 7))
        .cf(word(CfOp::RETURN, 0))
        .build();
    let k = Prog::new(CLASS)
        .cf(word(CfOp::CALL_FS, 0))
        .alu(set(2, 2, 1))
        .build();
    let fs = FetchSubroutine {
        program: sub,
        base: BASE + 0x1000,
    };
    let f = lift_fs_ok(&k, Some(fs));
    let o = run_function(&f, &start());
    assert_eq!(o.result, Ok(()));
    assert_eq!(stack_checks(&f), 0);
    assert_eq!((o.r(2, 1, 3), o.r(2, 2, 3)), (7, 1));
}

#[test]
fn depths_that_differ_between_paths_keep_their_checks() {
    // A subroutine called at depth 0 and, inside a PUSH, at depth 1: its RETURN's frame is
    // not known, so its checks stay (and so do those after the return sites); it still
    // runs: R7.x = 5 + 5 on lanes 32-63 (the second call runs under lane > 31), 5 on the
    // others. 0: CALL @6; 1: ALU_PUSH_BEFORE (lane > 31); 2: CALL @6; 3: POP @4 POP:1; 4: END;
    // 5: NOP; 6: R7.x += 5; 7: RETURN.
    let add = vec![(
        vec![op(AluOp::ADD_INT, 7, 0, (7, 0), (sel::LITERAL, 0))],
        vec![5, 0],
    )];
    let p = Prog::new(CLASS)
        .cf(cf(CfOp::CALL, 6, |w| w.count = 1))
        .alu_with(
            pred_lit(AluOp::PRED_SETGT_INT, 31),
            with_op(CfAluOp::ALU_PUSH_BEFORE),
        )
        .cf(cf(CfOp::CALL, 6, |w| w.count = 1))
        .cf(cf(CfOp::POP, 4, |w| w.pop_count = 1))
        .cf(word(CfOp::END, 0))
        .cf(word(CfOp::NOP, 0))
        .alu(add)
        .cf(word(CfOp::RETURN, 0))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert_eq!(o.result, Ok(()));
    assert!(stack_checks(&f) > 0);
    for lane in 0..LANES {
        assert_eq!(
            o.r(7, 0, lane),
            if lane > 31 { 10 } else { 5 },
            "lane {lane}"
        );
    }
    // A loop whose body pushes and never pops: each iteration is one subentry deeper, so the
    // depth differs around the back edge and the checks stay. The loop frame takes 4 of the
    // 128 subentries; the 125th push overflows.
    let p = Prog::new(CLASS)
        .cf(word(CfOp::LOOP_START_DX10, 3))
        .cf(word(CfOp::PUSH, 3))
        .cf(word(CfOp::LOOP_END, 1))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert!(stack_checks(&f) > 0);
    assert_eq!(o.result, Err(FaultKind::StackOverflow));
    // A self-call (CALL_COUNT 0 never reaches the depth limit) overflows.
    let p = Prog::new(CLASS).cf(word(CfOp::CALL, 0)).build();
    let (f, o) = lifted_and_run(&p);
    assert!(stack_checks(&f) > 0);
    assert_eq!(o.result, Err(FaultKind::StackOverflow));
}

#[test]
fn proven_underflows_still_trap() {
    // ALU_POP2_AFTER after a single push.
    let p = Prog::new(CLASS)
        .alu_with(set(5, 0, 1), with_op(CfAluOp::ALU_PUSH_BEFORE))
        .alu_with(set(5, 1, 1), with_op(CfAluOp::ALU_POP2_AFTER))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert!(stack_checks(&f) > 0);
    assert_eq!(o.result, Err(FaultKind::StackUnderflow));
    // LOOP_BREAK outside a loop: no lane started an iteration, so it jumps, unwinding to a
    // loop that does not exist.
    let p = Prog::new(CLASS).cf(word(CfOp::LOOP_BREAK, 1)).build();
    let (f, o) = lifted_and_run(&p);
    assert!(stack_checks(&f) > 0);
    assert_eq!(o.result, Err(FaultKind::StackUnderflow));
    // ELSE and RETURN on an empty stack; LOOP_END outside a loop with COND FALSE (no lane
    // iterates again, so it exits and pops a loop frame that does not exist).
    for (op, cond) in [(CfOp::ELSE, 0), (CfOp::RETURN, 0), (CfOp::LOOP_END, 1)] {
        let p = Prog::new(CLASS).cf(cf(op, 1, |w| w.cond = cond)).build();
        let (f, o) = lifted_and_run(&p);
        assert!(stack_checks(&f) > 0, "{op:?}");
        assert_eq!(o.result, Err(FaultKind::StackUnderflow), "{op:?}");
    }
    // RETURN with a PUSH frame on top.
    let p = Prog::new(CLASS)
        .cf(word(CfOp::PUSH, 2))
        .cf(word(CfOp::RETURN, 0))
        .build();
    let (f, o) = lifted_and_run(&p);
    assert!(stack_checks(&f) > 0);
    assert_eq!(o.result, Err(FaultKind::StackUnderflow));
}

#[test]
fn deeply_nested_loops_with_a_growing_stack_still_overflow() {
    // Ten nested DX10 loops around a PUSH that is never popped: each nesting level changes
    // the shape around one more back edge, so the lifter needs a round per level (or gives
    // up and keeps every check). The loop frames take 40 subentries; the 89th push
    // overflows.
    const D: u32 = 10;
    let mut p = Prog::new(CLASS);
    for i in 0..D {
        // Loop i ends at LOOP_END 2D - i; without lanes it continues after it.
        p = p.cf(word(CfOp::LOOP_START_DX10, 2 * D - i + 1));
    }
    p = p.cf(word(CfOp::PUSH, 2 * D + 1));
    for j in 0..D {
        // LOOP_END D + 1 + j closes loop D - 1 - j, whose body starts after its LOOP_START.
        p = p.cf(word(CfOp::LOOP_END, D - j));
    }
    let (f, o) = lifted_and_run(&p.build());
    assert!(stack_checks(&f) > 0);
    assert_eq!(o.result, Err(FaultKind::StackOverflow));
}
