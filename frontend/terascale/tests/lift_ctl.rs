//! Index modes and HALT through the lifter, on the interpreter and the JIT: INDEX_AR_Y/Z/W
//! index GPR operands by AR.X (seed 000 Table 4.2, L1436-L1442); HALT ends the wave with a
//! guest fault (L2751: only a driver could resume it); the global index modes and CALL_FS are
//! lift errors.
mod lift_common;
use lift_common::*;
use wavejit_runtime::FaultKind;
use wavejit_terascale::inst::sel;
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

#[test]
fn call_fs_is_unsupported() {
    let p = Prog::new(ChipClass::Evergreen)
        .cf(word(CfOp::CALL_FS, 0))
        .build();
    lift_err(&p, "CALL_FS");
}
