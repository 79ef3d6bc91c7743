//! Cayman's whole-quad-mode stack instructions and REACTIVATE through the lifter, on the
//! interpreter and the JIT (lift/cf.rs; seed 000 Table 3.7 L1207-L1212, Table 3.6): PUSH_WQM,
//! POP_WQM and ELSE_WQM are PUSH/POP/ELSE followed by widening the active mask to whole quads
//! (PUSH_WQM takes one stack entry), REACTIVATE(_WQM) and ALU_REACTIVATE_BEFORE reactivate
//! the valid lanes the top frame saved; JUMP_ANY pops, then jumps if any lane passes.
//! Expected masks are computed here on the host: quads are lanes 4k..4k+3.
mod lift_common;
use lift_common::*;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::{sel, AluInst, CfInst};
use wavejit_terascale::tables::{CfAluOp, CfOp};
use wavejit_terascale::{AluOp, ChipClass};

const CLASS: ChipClass = ChipClass::Cayman;
/// Lanes 1, 8-11, 17 and 18 run.
const ACTIVE: u64 = 1 << 1 | 0xf << 8 | 1 << 17 | 1 << 18;

/// Every lane of a quad holding a lane of `m`.
fn quads(m: u64) -> u64 {
    (0..16).fold(0, |q, k| {
        if m >> (4 * k) & 0xf != 0 {
            q | 0xf << (4 * k)
        } else {
            q
        }
    })
}

fn cond(mut i: CfInst, pop_count: u8, cond: u8) -> CfInst {
    if let CfInst::Word(w) = &mut i {
        w.pop_count = pop_count;
        w.cond = cond;
    }
    i
}

/// `MOV R2.chan, 1`.
fn mark(chan: u8) -> Group {
    (
        vec![inst(CLASS, AluOp::MOV, 2, chan, &[src(sel::ONE_INT, 0)])],
        vec![],
    )
}

/// `PRED_SETGT_INT R1.x, 9` updating the exec mask: lanes above 9 stay active.
fn above_9() -> Group {
    let mut p: AluInst = inst(
        CLASS,
        AluOp::PRED_SETGT_INT,
        127,
        0,
        &[src(1, 0), src(sel::LITERAL, 0)],
    );
    p.update_exec_mask = true;
    p.update_pred = true;
    p.write = false;
    (vec![p], vec![9, 0])
}

fn start() -> Start {
    Start {
        gprs: vec![(1, 0, Box::new(|l| l))],
        active: ACTIVE,
        ..Start::default()
    }
}

/// The lanes where R2.`chan` is 1 (every other lane must hold 0).
fn marked(o: &Out, chan: u32) -> u64 {
    (0..LANES).fold(0, |m, l| match o.r(2, chan, l) {
        1 => m | 1 << l,
        0 => m,
        v => panic!("R2.{chan} lane {l} = {v}"),
    })
}

#[test]
fn push_wqm_widens_the_pushed_lanes_to_quads_and_pop_restores() {
    // 0: PUSH_WQM @3; 1: R2.x = 1; 2: POP 1; 3: R2.y = 1.
    let p = Prog::new(CLASS)
        .cf(word(CfOp::PUSH_WQM, 3))
        .alu(vec![mark(0)])
        .cf(cond(word(CfOp::POP, 0), 1, 0))
        .alu(vec![mark(1)])
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Ok(()));
    assert_eq!(marked(&o, 0), quads(ACTIVE));
    assert_eq!(marked(&o, 1), ACTIVE);
}

#[test]
fn push_wqm_takes_one_stack_entry() {
    // 0: PUSH_WQM; 1: R3.x += 1; 2: JUMP @0 (COND FALSE: always). 32 entries fit, the 33rd
    // push overflows (Table 3.6: PUSH with whole quad mode takes one entry).
    let add = inst(
        CLASS,
        AluOp::ADD_INT,
        3,
        0,
        &[src(3, 0), src(sel::ONE_INT, 0)],
    );
    let p = Prog::new(CLASS)
        .cf(word(CfOp::PUSH_WQM, 3))
        .alu(vec![(vec![add], vec![])])
        .cf(cond(word(CfOp::JUMP, 0), 0, 1))
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Err(FaultKind::StackOverflow));
    assert_eq!(o.r(3, 0, 1), 32);
}

#[test]
fn pop_wqm_widens_the_popped_mask_and_jumps_when_none_is_active() {
    // 0: PUSH @3; 1: POP_WQM 1 @3; 2: R2.x = 1; 3: R2.y = 1.
    let p = Prog::new(CLASS)
        .cf(word(CfOp::PUSH, 3))
        .cf(cond(word(CfOp::POP_WQM, 3), 1, 0))
        .alu(vec![mark(0)])
        .alu(vec![mark(1)])
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Ok(()));
    assert_eq!(marked(&o, 0), quads(ACTIVE));
    assert_eq!(marked(&o, 1), quads(ACTIVE));
    // COND FALSE: no lane is active after the pop, so POP_WQM jumps over the HALT at 2.
    for (c, want) in [(1u8, Ok(())), (0, Err(()))] {
        let p = Prog::new(CLASS)
            .cf(word(CfOp::PUSH, 3))
            .cf(cond(word(CfOp::POP_WQM, 3), 1, c))
            .cf(word(CfOp::HALT, 0))
            .build();
        let o = run(&p, &start());
        assert_eq!(o.result.is_ok(), want.is_ok(), "COND {c}: {:?}", o.result);
    }
}

#[test]
fn else_wqm_widens_the_else_lanes() {
    // 0: PUSH @5; 1: exec = lanes > 9; 2: ELSE_WQM 1 @5; 3: R2.x = 1; 4: POP 1; 5: R2.y = 1.
    let p = Prog::new(CLASS)
        .cf(word(CfOp::PUSH, 5))
        .alu(vec![above_9()])
        .cf(cond(word(CfOp::ELSE_WQM, 5), 1, 0))
        .alu(vec![mark(0)])
        .cf(cond(word(CfOp::POP, 0), 1, 0))
        .alu(vec![mark(1)])
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Ok(()));
    let then = ACTIVE & !0x3ff;
    assert_eq!(marked(&o, 0), quads(ACTIVE & !then));
    assert_eq!(marked(&o, 1), ACTIVE);
}

#[test]
fn reactivate_restores_the_valid_lanes_of_the_top_frame() {
    let then = ACTIVE & !0x3ff;
    for (op, wqm) in [(CfOp::REACTIVATE, false), (CfOp::REACTIVATE_WQM, true)] {
        // 0: PUSH @4; 1: exec = lanes > 9; 2: REACTIVATE; 3: R2.x = 1; 4: POP 1; 5: R2.y = 1.
        let p = Prog::new(CLASS)
            .cf(word(CfOp::PUSH, 4))
            .alu(vec![above_9()])
            .cf(word(op, 0))
            .alu(vec![mark(0)])
            .cf(cond(word(CfOp::POP, 0), 1, 0))
            .alu(vec![mark(1)])
            .build();
        let o = run(&p, &start());
        assert_eq!(o.result, Ok(()));
        let want = if wqm { quads(ACTIVE) } else { ACTIVE };
        assert_eq!(marked(&o, 0), want, "{op:?}");
        assert_eq!(marked(&o, 1), ACTIVE, "{op:?}");
    }
    // An empty stack: every valid lane.
    let p = Prog::new(CLASS)
        .alu(vec![above_9()])
        .alu(vec![mark(0)])
        .cf(word(CfOp::REACTIVATE, 0))
        .alu(vec![mark(1)])
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Ok(()));
    assert_eq!(marked(&o, 0), then);
    assert_eq!(marked(&o, 1), ACTIVE);
}

#[test]
fn alu_reactivate_before_reactivates_then_runs_its_clause() {
    for wqm in [false, true] {
        // 0: PUSH @3; 1: exec = lanes > 9; 2: ALU_REACTIVATE_BEFORE R2.x = 1; 3: POP 1.
        let p = Prog::new(CLASS)
            .cf(word(CfOp::PUSH, 3))
            .alu(vec![above_9()])
            .alu_with(vec![mark(0)], |a| {
                a.op = CfAluOp::ALU_REACTIVATE_BEFORE;
                a.whole_quad_mode = wqm;
            })
            .cf(cond(word(CfOp::POP, 0), 1, 0))
            .build();
        let o = run(&p, &start());
        assert_eq!(o.result, Ok(()));
        let want = if wqm { quads(ACTIVE) } else { ACTIVE };
        assert_eq!(marked(&o, 0), want, "WQM {wqm}");
    }
}

#[test]
fn jump_any_pops_first_and_jumps_when_a_lane_passes() {
    // 0: JUMP_ANY @2 (COND c); 1: R2.x = 1; 2: R2.y = 1. COND ACTIVE: the active lanes pass,
    // so it jumps over 1; COND FALSE: none passes, so it falls through.
    for (c, skipped) in [(0u8, true), (1, false)] {
        let p = Prog::new(CLASS)
            .cf(cond(word(CfOp::JUMP_ANY, 2), 0, c))
            .alu(vec![mark(0)])
            .alu(vec![mark(1)])
            .build();
        let o = run(&p, &start());
        assert_eq!(o.result, Ok(()));
        assert_eq!(marked(&o, 0), if skipped { 0 } else { ACTIVE }, "COND {c}");
        assert_eq!(marked(&o, 1), ACTIVE, "COND {c}");
    }
    // 0: PUSH @4; 1: exec = lanes > 9; 2: JUMP_ANY POP:1 @4 (COND ACTIVE); 3: R2.x = 1;
    // 4: R2.y = 1. The pop comes first, so every lane of ACTIVE is back at 4 and the stack is
    // empty (a further POP would underflow).
    let p = Prog::new(CLASS)
        .cf(word(CfOp::PUSH, 4))
        .alu(vec![above_9()])
        .cf(cond(word(CfOp::JUMP_ANY, 4), 1, 0))
        .alu(vec![mark(0)])
        .alu(vec![mark(1)])
        .cf(cond(word(CfOp::POP, 0), 1, 0))
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Err(FaultKind::StackUnderflow));
    assert_eq!(marked(&o, 0), 0);
    assert_eq!(marked(&o, 1), ACTIVE);
}

#[test]
fn set_priority_and_lds_dealloc_change_nothing_observable() {
    // 0: R2.x = 1; 1: SET_PRIORITY; 2: LDS_DEALLOC; 3: R2.y = 1.
    let p = Prog::new(CLASS)
        .alu(vec![mark(0)])
        .cf(word(CfOp::SET_PRIORITY, 0))
        .cf(word(CfOp::LDS_DEALLOC, 0))
        .alu(vec![mark(1)])
        .build();
    let o = run(&p, &start());
    assert_eq!(o.result, Ok(()));
    assert_eq!(marked(&o, 0), ACTIVE);
    assert_eq!(marked(&o, 1), ACTIVE);
}
