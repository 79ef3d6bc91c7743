//! Index modes and HALT through the lifter, on the interpreter and the JIT: INDEX_AR_Y/Z/W
//! index GPR operands by AR.X (seed 000 Table 4.2, L1436-L1442); HALT ends the wave with a
//! guest fault (L2751: only a driver could resume it); the global index modes are lift errors;
//! CALL_FS calls the launch's fetch subroutine (3.7.6, L1281: ADDR relative to its start) and
//! RETURN comes back, and without one it is a guest fault.
mod lift_common;
use lift_common::*;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::sel;
use wavejit_terascale::lift::FetchSubroutine;
use wavejit_terascale::tables::CfOp;
use wavejit_terascale::{AluOp, ChipClass};

const CLASSES: [ChipClass; 2] = [ChipClass::Evergreen, ChipClass::Cayman];

/// `MOV Rdst.chan, R10[AR].x` with INDEX_MODE `mode`.
fn rel_mov(class: ChipClass, dst: u8, chan: u8, mode: u8) -> wavejit_terascale::inst::AluInst {
    let mut s = src(10, 0);
    s.rel = true;
    let mut i = inst(class, AluOp::MOV, dst, chan, &[s]);
    i.index_mode = mode;
    i
}

fn start() -> Start {
    let mut gprs: Vec<GprInit> = vec![(1, 0, Box::new(|l| l % 5))];
    for k in 0..5 {
        gprs.push((10 + k, 0, Box::new(move |l| 1000 * k + l)));
    }
    Start {
        gprs,
        ..Start::default()
    }
}

#[test]
fn ar_y_z_w_index_gprs_by_ar_x() {
    for class in CLASSES {
        let mova = inst(class, AluOp::MOVA_INT, 0, 0, &[src(1, 0)]);
        let p = Prog::new(class)
            .alu(vec![
                (vec![mova], vec![]),
                (vec![rel_mov(class, 3, 0, 0)], vec![]),
                (vec![rel_mov(class, 3, 1, 1)], vec![]),
                (vec![rel_mov(class, 3, 2, 2)], vec![]),
                (vec![rel_mov(class, 3, 3, 3)], vec![]),
            ])
            .build();
        let o = run(&p, &start());
        assert_eq!(o.result, Ok(()));
        for lane in 0..LANES {
            let want = 1000 * (lane % 5) + lane;
            for c in 0..4 {
                assert_eq!(o.r(3, c, lane), want, "{class:?} mode {c} lane {lane}");
            }
        }
    }
}

#[test]
fn global_index_modes_are_unsupported() {
    for mode in [5, 6] {
        let class = ChipClass::Cayman;
        let mova = inst(class, AluOp::MOVA_INT, 0, 0, &[src(1, 0)]);
        let p = Prog::new(class)
            .alu(vec![
                (vec![mova], vec![]),
                (vec![rel_mov(class, 3, 0, mode)], vec![]),
            ])
            .build();
        lift_err(&p, "GLOBAL");
    }
}

#[test]
fn halt_is_a_guest_fault_after_the_preceding_work() {
    for class in CLASSES {
        let mov = inst(class, AluOp::MOV, 2, 0, &[src(sel::ONE_INT, 0)]);
        let p = Prog::new(class)
            .alu(vec![(vec![mov], vec![])])
            .cf(word(CfOp::HALT, 0))
            .alu(vec![(
                vec![inst(class, AluOp::MOV, 2, 1, &[src(sel::ONE_INT, 0)])],
                vec![],
            )])
            .build();
        let o = run(&p, &start());
        match &o.result {
            Err(FaultKind::Trap(why)) => assert!(why.contains("HALT"), "{why}"),
            other => panic!("{class:?}: expected a HALT trap, got {other:?}"),
        }
        for lane in 0..LANES {
            assert_eq!(o.r(2, 0, lane), 1, "before HALT");
            assert_eq!(o.r(2, 1, lane), 0, "after HALT");
        }
    }
}

/// Where the fetch subroutine's code starts (SQ_PGM_START_FS).
const FS_BASE: u64 = BASE + 0x1000;

fn fs(p: wavejit_terascale::Program) -> Option<FetchSubroutine> {
    Some(FetchSubroutine {
        program: p,
        base: FS_BASE,
    })
}

/// `MOV R2.chan, k` (a literal).
fn set(class: ChipClass, chan: u8, k: u32) -> Group {
    (
        vec![inst(class, AluOp::MOV, 2, chan, &[src(sel::LITERAL, 0)])],
        vec![k, 0],
    )
}

/// `ADD_INT R2.z, R2.y, 10`.
fn after(class: ChipClass) -> Group {
    let add = inst(
        class,
        AluOp::ADD_INT,
        2,
        2,
        &[src(2, 1), src(sel::LITERAL, 0)],
    );
    (vec![add], vec![10, 0])
}

/// A kernel: R2.x = 1; CALL_FS @`addr` (condition `cond`); R2.z = R2.y + 10; END.
fn kernel(class: ChipClass, addr: u32, cond: u8) -> wavejit_terascale::Program {
    let mut call = word(CfOp::CALL_FS, addr);
    if let wavejit_terascale::inst::CfInst::Word(w) = &mut call {
        w.cond = cond;
    }
    Prog::new(class)
        .alu(vec![set(class, 0, 1)])
        .cf(call)
        .alu(vec![after(class)])
        .build()
}

fn r2(o: &Out, lane: u32) -> [u32; 4] {
    [0, 1, 2, 3].map(|c| o.r(2, c, lane))
}

#[test]
fn call_fs_runs_the_launch_fetch_subroutine_and_returns() {
    for class in CLASSES {
        // CF 0: R2.y = 7; 1: RETURN; 2: R2.y = 5; 3: RETURN. CALL_FS @2 runs CF 2 of the
        // subroutine (ADDR counts from its start), CALL_FS @0 runs CF 0.
        let sub = Prog::new(class)
            .alu(vec![set(class, 1, 7)])
            .cf(word(CfOp::RETURN, 0))
            .alu(vec![set(class, 1, 5)])
            .cf(word(CfOp::RETURN, 0))
            .build();
        for (addr, y) in [(2, 5), (0, 7)] {
            let f = lift_fs_ok(&kernel(class, addr, 0), fs(sub.clone()));
            let o = run_function(&f, &start());
            assert_eq!(o.result, Ok(()), "{class:?}");
            for lane in 0..LANES {
                assert_eq!(
                    r2(&o, lane),
                    [1, y, y + 10, 0],
                    "{class:?} @{addr} lane {lane}"
                );
            }
        }
        // COND FALSE: every lane fails, the subroutine is skipped.
        let f = lift_fs_ok(&kernel(class, 0, 1), fs(sub.clone()));
        let o = run_function(&f, &start());
        assert_eq!(o.result, Ok(()));
        assert_eq!(r2(&o, 0), [1, 0, 10, 0], "{class:?} skipped");
    }
}

#[test]
fn the_fetch_subroutine_calls_its_own_subroutines() {
    let class = ChipClass::Cayman;
    // CF 0: CALL @3; 1: R2.w = 9; 2: RETURN; 3: R2.y = 5; 4: RETURN.
    let sub = Prog::new(class)
        .cf(word(CfOp::CALL, 3))
        .alu(vec![set(class, 3, 9)])
        .cf(word(CfOp::RETURN, 0))
        .alu(vec![set(class, 1, 5)])
        .cf(word(CfOp::RETURN, 0))
        .build();
    let f = lift_fs_ok(&kernel(class, 0, 0), fs(sub));
    let o = run_function(&f, &start());
    assert_eq!(o.result, Ok(()));
    for lane in 0..LANES {
        assert_eq!(r2(&o, lane), [1, 5, 15, 9], "lane {lane}");
    }
}

#[test]
fn call_fs_without_a_fetch_subroutine_is_a_guest_fault() {
    for class in CLASSES {
        let o = run(&kernel(class, 0, 0), &start());
        match &o.result {
            Err(FaultKind::Trap(why)) => assert!(why.contains("no fetch subroutine"), "{why}"),
            other => panic!("{class:?}: expected a trap, got {other:?}"),
        }
        assert_eq!(
            r2(&o, 0),
            [1, 0, 0, 0],
            "{class:?}: the work before CALL_FS stands"
        );
        // A skipped CALL_FS calls nothing and does not fault.
        let o = run(&kernel(class, 0, 1), &start());
        assert_eq!(o.result, Ok(()), "{class:?}");
    }
}

#[test]
fn fetch_subroutine_misuse_is_a_lift_error() {
    let class = ChipClass::Evergreen;
    let nested = Prog::new(class).cf(word(CfOp::CALL_FS, 0)).build();
    let e = try_lift_fs(&kernel(class, 0, 0), fs(nested)).expect_err("CALL_FS in the FS");
    assert!(e.to_string().contains("inside the fetch subroutine"), "{e}");
    let sub = Prog::new(class).cf(word(CfOp::RETURN, 0)).build();
    let overlapping = Some(FetchSubroutine {
        program: sub,
        base: BASE + 8,
    });
    let e = try_lift_fs(&kernel(class, 0, 0), overlapping).expect_err("overlap");
    assert!(e.to_string().contains("overlaps"), "{e}");
}
