//! The float exception flags through the lifter, on the interpreter and the JIT (seed 000
//! 4.13.2 L2068-L2086, STORE_FLAGS L6948-L6970, LOAD_STORE_FLAGS L4813-L4830): six bits per
//! lane (`[5]` inexact, `[4]` underflow, `[3]` overflow, `[2]` division by zero, `[1]` denormal,
//! `[0]` invalid), ORed over a clause's groups, cleared at each clause, "inclusive of the
//! current VLIW" for the two flag instructions. Every expected flag value is worked out by
//! hand from IEEE 754 (the comment beside each case gives the arithmetic) in the clause's
//! default mode: single precision flushes denormals in and out (a flushed input is a zero and
//! raises no denormal flag; a result flushed to zero raises underflow and inexact), doubles
//! keep them.
mod lift_common;
use lift_common::*;
use wavejit_terascale::inst::{AluInst, Slot};
use wavejit_terascale::{AluOp, ChipClass};

const CLASSES: [ChipClass; 2] = [ChipClass::Evergreen, ChipClass::Cayman];

const IE: u32 = 1;
const DE: u32 = 2;
const ZE: u32 = 4;
const OE: u32 = 8;
const UE: u32 = 16;
const PE: u32 = 32;

const SNAN: u32 = 0x7f80_0001;
const QNAN: u32 = 0x7fc0_0000;
const MAX: u32 = 0x7f7f_ffff;
const INF: u32 = 0x7f80_0000;
const NEG_INF: u32 = 0xff80_0000;

/// (a, b, flags of a + b, flags of a * b).
const CASES: [(u32, u32, u32, u32); 12] = [
    (0x3f80_0000, 0x4000_0000, 0, 0),             // 1 + 2 = 3, 1 * 2 = 2
    (0x3f80_0000, 0x3080_0000, PE, 0),            // 1 + 2^-30 rounds; 2^-30 exact
    (MAX, MAX, OE | PE, OE | PE),                 // both overflow
    (INF, NEG_INF, IE, 0),                        // inf - inf; inf * -inf = -inf
    (SNAN, 0x3f80_0000, IE, IE),                  // signalling NaN operand
    (QNAN, 0x3f80_0000, 0, 0),                    // quiet NaN: silent
    (0x0000_0001, 0x3f80_0000, 0, 0),             // the denormal is read as 0: 0 + 1, 0 * 1
    (0x00c0_0000, 0x8080_0000, UE | PE, UE | PE), // 1.5*2^-126 - 2^-126 = 2^-127 flushed; the product 2^-252 too
    (0x0000_0000, INF, 0, IE),                    // 0 + inf = inf; 0 * inf invalid
    (0x4040_0000, 0x3eaa_aaab, PE, PE),           // 3 + 0.33333334, 3 * 0.33333334 = 1.00000003
    (0x5f80_0000, 0x5f80_0000, 0, OE | PE),       // 2^64 + 2^64 = 2^65; 2^128 overflows
    (0x1e3c_e508, 0x1e3c_e508, 0, UE | PE),       // 1e-20 + 1e-20 exact; 1e-40 is tiny and flushed
];

fn case(lane: u32) -> (u32, u32, u32, u32) {
    CASES[lane as usize % CASES.len()]
}

/// R6.x: the value LOAD_STORE_FLAGS loads (only its low six bits count).
fn load_src(lane: u32) -> u32 {
    0xffff_ff00 | (lane * 7) & 0xff
}

fn start() -> Start {
    Start {
        gprs: vec![
            (1, 0, Box::new(|l| case(l).0)),
            (2, 0, Box::new(|l| case(l).1)),
            (6, 0, Box::new(load_src)),
            (6, 1, Box::new(|l| l % 2)),
        ],
        ..Start::default()
    }
}

fn add(class: ChipClass, dst: u8, chan: u8) -> AluInst {
    inst(class, AluOp::ADD, dst, chan, &[src(1, 0), src(2, 0)])
}

fn mul(class: ChipClass, dst: u8, chan: u8) -> AluInst {
    inst(class, AluOp::MUL_IEEE, dst, chan, &[src(1, 0), src(2, 0)])
}

fn store(class: ChipClass, dst: u8) -> AluInst {
    inst(class, AluOp::STORE_FLAGS, dst, 3, &[src(0, 0)])
}

fn load_store(class: ChipClass, dst: u8, from: u8) -> AluInst {
    inst(
        class,
        AluOp::LOAD_STORE_FLAGS,
        dst,
        3,
        &[src(u16::from(from), 0)],
    )
}

fn check(o: &Out, class: ChipClass, what: &str, reg: u32, want: impl Fn(u32) -> u32) {
    for lane in 0..LANES {
        assert_eq!(
            o.r(reg, 3, lane),
            want(lane),
            "{class:?} {what}: R{reg}.w lane {lane}"
        );
    }
}

#[test]
fn groups_accumulate_and_the_flag_instructions_see_their_own_group() {
    for class in CLASSES {
        let p = Prog::new(class)
            .alu(vec![
                (vec![add(class, 3, 0)], vec![]),
                (vec![mul(class, 3, 1), store(class, 4)], vec![]),
                (vec![load_store(class, 5, 6)], vec![]),
                (vec![store(class, 7)], vec![]),
                (vec![add(class, 3, 2), store(class, 8)], vec![]),
            ])
            .alu(vec![
                (vec![store(class, 9)], vec![]),
                (vec![mul(class, 3, 0)], vec![]),
                (vec![store(class, 10)], vec![]),
            ])
            .build();
        let o = run(&p, &start());
        assert_eq!(o.result, Ok(()));
        let (a, m) = (|l| case(l).2, |l| case(l).3);
        check(&o, class, "add, then mul with STORE_FLAGS", 4, |l| {
            a(l) | m(l)
        });
        check(&o, class, "LOAD_STORE_FLAGS writes the old flags", 5, |l| {
            a(l) | m(l)
        });
        check(&o, class, "and loads src0's six bits", 7, |l| {
            load_src(l) & 63
        });
        check(&o, class, "loaded flags accumulate", 8, |l| {
            load_src(l) & 63 | a(l)
        });
        check(&o, class, "a new clause starts clear", 9, |_| 0);
        check(&o, class, "and accumulates its own", 10, m);
    }
}

#[test]
fn only_lanes_that_execute_a_slot_raise_its_flags() {
    for class in CLASSES {
        // PRED_SETGT_INT (an integer compare: no flags) makes the odd lanes' predicate; the
        // ADD runs under PRED_SEL_ONE (lanes with the predicate set).
        let mut pred = inst(
            class,
            AluOp::PRED_SETGT_INT,
            20,
            0,
            &[src(6, 1), src(248, 0)],
        );
        pred.update_pred = true;
        let mut add_odd = add(class, 3, 0);
        add_odd.pred_sel = 3;
        let p = Prog::new(class)
            .alu(vec![
                (vec![pred], vec![]),
                (vec![add_odd], vec![]),
                (vec![store(class, 4)], vec![]),
            ])
            .build();
        let o = run(&p, &start());
        check(&o, class, "predicated add", 4, |l| {
            if l % 2 == 1 {
                case(l).2
            } else {
                0
            }
        });
    }
}

/// (x, flags of 1/x): RECIP_IEEE in the flushing single mode.
const RCP: [(u32, u32); 8] = [
    (0x0000_0000, ZE),      // 1/0: a pole
    (0x8000_0000, ZE),      // 1/-0
    (0x4000_0000, 0),       // 1/2 = 0.5
    (0x4040_0000, PE),      // 1/3
    (INF, 0),               // 1/inf = 0
    (SNAN, IE),             // signalling NaN
    (0x0000_0001, ZE),      // a denormal is read as 0
    (0x7f00_0000, UE | PE), // 1/2^127 = 2^-127: a denormal result, flushed
];

#[test]
fn the_transcendental_slot_is_part_of_the_group() {
    for class in CLASSES {
        let rcp = |chan: u8| inst(class, AluOp::RECIP_IEEE, 3, chan, &[src(1, 1)]);
        let group = match class {
            // VLIW5: the T slot; STORE_FLAGS (w) sees its flags.
            ChipClass::Evergreen => {
                let mut t = rcp(0);
                t.slot = Slot::T;
                vec![store(class, 4), t]
            }
            // Cayman: replicated in x, y, z; the copies reuse one value and raise its flags.
            ChipClass::Cayman => vec![rcp(0), rcp(1), rcp(2), store(class, 4)],
        };
        let p = Prog::new(class).alu(vec![(group, vec![])]).build();
        let st = Start {
            gprs: vec![(1, 1, Box::new(|l| RCP[l as usize % RCP.len()].0))],
            ..Start::default()
        };
        let o = run(&p, &st);
        for lane in 0..LANES {
            let (x, want) = RCP[lane as usize % RCP.len()];
            assert_eq!(
                o.r(4, 3, lane),
                want,
                "{class:?} RECIP_IEEE({x:#x}) lane {lane}"
            );
        }
    }
}

#[test]
fn output_modifier_and_unfused_muladd_raise_their_roundings() {
    for class in CLASSES {
        // MUL_IEEE(x, 1.0) is exact; OMOD x2 of MAX overflows, /2 of the smallest normal
        // gives a denormal (flushed).
        let mut m2 = inst(class, AluOp::MUL_IEEE, 3, 0, &[src(1, 2), src(249, 0)]);
        m2.omod = 1;
        let mut d2 = inst(class, AluOp::MUL_IEEE, 3, 1, &[src(1, 2), src(249, 0)]);
        d2.omod = 3;
        // MULADD (legacy, unfused): 0 * inf = 0, + 1 exact: nothing; MULADD_IEEE: invalid.
        let legacy = inst(
            class,
            AluOp::MULADD,
            5,
            0,
            &[src(1, 3), src(2, 3), src(249, 0)],
        );
        let ieee = inst(
            class,
            AluOp::MULADD_IEEE,
            5,
            1,
            &[src(1, 3), src(2, 3), src(249, 0)],
        );
        let p = Prog::new(class)
            .alu(vec![(vec![m2, store(class, 4)], vec![])])
            .alu(vec![(vec![d2, store(class, 7)], vec![])])
            .alu(vec![(vec![legacy, store(class, 8)], vec![])])
            .alu(vec![(vec![ieee, store(class, 9)], vec![])])
            .build();
        let st = Start {
            gprs: vec![
                (
                    1,
                    2,
                    Box::new(|l| if l % 2 == 0 { MAX } else { 0x0080_0000 }),
                ),
                (1, 3, Box::new(|_| 0)),
                (2, 3, Box::new(|_| INF)),
            ],
            ..Start::default()
        };
        let o = run(&p, &st);
        check(&o, class, "OMOD x2", 4, |l| {
            if l % 2 == 0 {
                OE | PE
            } else {
                0
            }
        });
        // MAX / 2 is exact; 2^-126 / 2 = 2^-127 is flushed.
        check(&o, class, "OMOD /2", 7, |l| {
            if l % 2 == 0 {
                0
            } else {
                UE | PE
            }
        });
        check(&o, class, "MULADD 0 * inf + 1", 8, |_| 0);
        check(&o, class, "MULADD_IEEE 0 * inf + 1", 9, |_| IE);
    }
}

#[test]
fn double_precision_keeps_denormals_and_the_flags_cross_a_group_barrier() {
    // ADD_64: 1 + b where b is the smallest double denormal (every third lane: a denormal
    // operand, and the sum rounds) or lane * 2^-60 (rounds unless 0).
    let b = |l: u32| {
        if l.is_multiple_of(3) {
            f64::from_bits(1)
        } else {
            f64::from(l) * 2f64.powi(-60)
        }
    };
    for class in CLASSES {
        let p = Prog::new(class)
            .alu(vec![
                (
                    vec![
                        inst(class, AluOp::ADD_64, 4, 0, &[src(1, 1), src(2, 1)]),
                        inst(class, AluOp::ADD_64, 4, 1, &[src(1, 0), src(2, 0)]),
                    ],
                    vec![],
                ),
                (vec![inst(class, AluOp::GROUP_BARRIER, 0, 0, &[])], vec![]),
                (vec![store(class, 5)], vec![]),
            ])
            .build();
        let st = Start {
            gprs: vec![
                (1, 0, Box::new(|_| 0)),
                (1, 1, Box::new(|_| 0x3ff0_0000)),
                (2, 0, Box::new(move |l| b(l).to_bits() as u32)),
                (2, 1, Box::new(move |l| (b(l).to_bits() >> 32) as u32)),
            ],
            ..Start::default()
        };
        let o = run(&p, &st);
        check(&o, class, "ADD_64", 5, |l| {
            if l.is_multiple_of(3) {
                DE | PE
            } else {
                PE
            }
        });
    }
}

#[test]
fn clauses_without_flag_instructions_lift_no_flag_tracking() {
    for class in CLASSES {
        let plain = Prog::new(class)
            .alu(vec![(vec![add(class, 3, 0), mul(class, 3, 1)], vec![])])
            .build();
        let text = wavejit_ir::text::print(&lift_ok(&plain));
        assert!(!text.contains("fexcept"), "{text}");
        assert!(!text.contains("flags[0]"), "{text}");
        // One tracked clause among untracked ones: only its ops get flags.
        let mixed = Prog::new(class)
            .alu(vec![(vec![add(class, 3, 0)], vec![])])
            .alu(vec![(vec![mul(class, 3, 1), store(class, 4)], vec![])])
            .build();
        let text = wavejit_ir::text::print(&lift_ok(&mixed));
        assert_eq!(text.matches("fexcept").count(), 1, "{text}");
        assert!(text.contains("fexcept.fmul"), "{text}");
    }
}

#[test]
fn integer_ops_raise_nothing() {
    use wavejit_terascale::lift::{alu_form, lift_alu_flagged, AluEnv, AluForm, AluInput};
    use wavejit_terascale::tables::alu_info;
    let mut checked = 0;
    for op in AluOp::ALL {
        let name = op.name();
        let int = (name.contains("INT") || name.contains("UINT")) && !name.contains("FLT");
        let Ok(AluForm::Slot(n)) = alu_form(op) else {
            continue;
        };
        if !int || alu_info(op).opcode(ChipClass::Evergreen).is_none() {
            continue;
        }
        let layout = wavejit_terascale::lift::TsLayout::new(64).layout;
        let mut b = wavejit_ir::FunctionBuilder::new("t", layout);
        let blk = b.create_block();
        b.switch_to(blk);
        let srcs: Vec<_> = (0..n).map(|i| b.i32(i as u32 + 1)).collect();
        let env = AluEnv {
            class: ChipClass::Evergreen,
            f32_mode: wavejit_ir::FloatMode::FLUSH,
            f64_mode: wavejit_ir::FloatMode::IEEE,
        };
        let (_, flags) = lift_alu_flagged(&mut b, op, &env, AluInput::Slot(&srcs))
            .unwrap_or_else(|e| panic!("{e}"));
        let r = wavejit_terascale::lift::TsLayout::new(64).flags();
        b.def_reg(r, flags, None);
        b.terminate(wavejit_ir::Terminator::Return);
        let text = wavejit_ir::text::print(&b.finish());
        assert!(!text.contains("fexcept"), "{name}: {text}");
        checked += 1;
    }
    assert!(checked > 40, "{checked} integer ops");
}
