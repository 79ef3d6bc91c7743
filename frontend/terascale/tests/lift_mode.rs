//! SET_MODE through the lifter, on the interpreter and the JIT (seed 000 4.13.1
//! L2044-L2066, SET_MODE L6603-L6616; the bit layout read in `lift/mode.rs`): SRC0_SEL bits
//! 1:0 round the single-precision ops, bit 2 allows denormal inputs and bit 3 denormal
//! results; SRC1_SEL does the same for doubles. Expected values are rounded here from the
//! exact f64 sum by a different route (neighbour selection) than the IR's.
mod lift_common;
use lift_common::*;
use wavejit_terascale::{AluOp, ChipClass};

const CLASSES: [ChipClass; 2] = [ChipClass::Evergreen, ChipClass::Cayman];

/// Mode fields: round (0 RNE, 1 +inf, 2 -inf, 3 RTZ) | 4 allow denormal in | 8 allow out.
fn set_mode(class: ChipClass, m32: u16, m64: u16) -> wavejit_terascale::inst::AluInst {
    inst(class, AluOp::SET_MODE, 5, 3, &[src(m32, 0), src(m64, 0)])
}

/// `s` (exact) rounded to f32 in round mode `r` (0-3) by picking a neighbour.
fn round_f32(s: f64, r: u16) -> f32 {
    let n = s as f32;
    if f64::from(n) == s {
        return n;
    }
    let (lo, hi) = if f64::from(n) < s {
        (n, n.next_up())
    } else {
        (n.next_down(), n)
    };
    match r {
        0 => n,
        1 => hi,
        2 => lo,
        _ => {
            if lo.abs() < hi.abs() {
                lo
            } else {
                hi
            }
        }
    }
}

fn a32(lane: u32) -> f32 {
    let sign = if lane / 2 % 2 == 1 { -1.0 } else { 1.0 };
    sign * (1.0 + lane as f32 * f32::EPSILON)
}

fn b32(lane: u32) -> f32 {
    let sign = if lane % 2 == 1 { -1.0 } else { 1.0 };
    sign * lane as f32 * 3.0 * (2f32).powi(-27)
}

fn start32() -> Start {
    Start {
        gprs: vec![
            (1, 0, Box::new(|l| a32(l).to_bits())),
            (2, 0, Box::new(|l| b32(l).to_bits())),
        ],
        ..Start::default()
    }
}

#[test]
fn each_round_mode_rounds_single_precision_adds() {
    for class in CLASSES {
        for r in 0..4u16 {
            // SET_MODE in slot w governs the ADD in slot x of its own group.
            let p = Prog::new(class)
                .alu(vec![(
                    vec![
                        inst(class, AluOp::ADD, 3, 0, &[src(1, 0), src(2, 0)]),
                        set_mode(class, r, 0),
                    ],
                    vec![],
                )])
                .build();
            let o = run(&p, &start32());
            assert_eq!(o.result, Ok(()));
            for lane in 0..LANES {
                let want = round_f32(f64::from(a32(lane)) + f64::from(b32(lane)), r);
                assert_eq!(
                    o.r(3, 0, lane),
                    want.to_bits(),
                    "{class:?} mode {r} lane {lane}"
                );
                assert_eq!(o.r(5, 3, lane), 0, "SET_MODE writes no GPR");
            }
        }
    }
}

#[test]
fn the_mode_lasts_until_the_end_of_the_clause() {
    for class in CLASSES {
        let add = |dst| inst(class, AluOp::ADD, dst, 0, &[src(1, 0), src(2, 0)]);
        let p = Prog::new(class)
            .alu(vec![
                (vec![add(3)], vec![]),
                (vec![set_mode(class, 1, 0)], vec![]),
                (vec![add(4)], vec![]),
            ])
            .alu(vec![(vec![add(6)], vec![])])
            .build();
        let o = run(&p, &start32());
        assert_eq!(o.result, Ok(()));
        for lane in 0..LANES {
            let s = f64::from(a32(lane)) + f64::from(b32(lane));
            assert_eq!(
                o.r(3, 0, lane),
                round_f32(s, 0).to_bits(),
                "before, lane {lane}"
            );
            assert_eq!(
                o.r(4, 0, lane),
                round_f32(s, 1).to_bits(),
                "after, lane {lane}"
            );
            assert_eq!(
                o.r(6, 0, lane),
                round_f32(s, 0).to_bits(),
                "next clause {lane}"
            );
        }
    }
}

/// x = (lane + 1) * 2^-140 (a denormal), y = 0.5 (even lanes: a denormal product) or 2^20
/// (odd lanes: a normal product).
#[test]
fn denormal_controls_flush_inputs_and_results_separately() {
    let x = |l: u32| (l + 1) as f32 * (2f32).powi(-140);
    let y = |l: u32| {
        if l.is_multiple_of(2) {
            0.5
        } else {
            (2f32).powi(20)
        }
    };
    for class in CLASSES {
        for bits in [0u16, 4, 8, 12] {
            let p = Prog::new(class)
                .alu(vec![(
                    vec![
                        inst(class, AluOp::MUL_IEEE, 3, 0, &[src(1, 0), src(2, 0)]),
                        set_mode(class, bits, 0),
                    ],
                    vec![],
                )])
                .build();
            let st = Start {
                gprs: vec![
                    (1, 0, Box::new(move |l| x(l).to_bits())),
                    (2, 0, Box::new(move |l| y(l).to_bits())),
                ],
                ..Start::default()
            };
            let o = run(&p, &st);
            for lane in 0..LANES {
                let input = if bits & 4 != 0 { x(lane) } else { 0.0 };
                let exact = input * y(lane);
                let want = if bits & 8 == 0 && exact.is_subnormal() {
                    0.0
                } else {
                    exact
                };
                assert_eq!(
                    o.r(3, 0, lane),
                    want.to_bits(),
                    "{class:?} {bits} lane {lane}"
                );
            }
        }
    }
}

/// SRC1_SEL rounds ADD_64: 1 + lane * 2^-60 toward +inf is 1 + 2^-52 for lane > 0.
#[test]
fn src1_sel_sets_the_double_mode() {
    let b = |l: u32| l as f64 * (2f64).powi(-60);
    for class in CLASSES {
        for r in [0u16, 1] {
            let p = Prog::new(class)
                .alu(vec![(
                    vec![
                        inst(class, AluOp::ADD_64, 4, 0, &[src(1, 1), src(2, 1)]),
                        inst(class, AluOp::ADD_64, 4, 1, &[src(1, 0), src(2, 0)]),
                        set_mode(class, 0, r),
                    ],
                    vec![],
                )])
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
            for lane in 0..LANES {
                let want = if r == 1 && lane > 0 {
                    1.0 + f64::EPSILON
                } else {
                    1.0
                };
                let got = u64::from(o.r(4, 1, lane)) << 32 | u64::from(o.r(4, 0, lane));
                assert_eq!(got, want.to_bits(), "{class:?} mode {r} lane {lane}");
            }
        }
    }
}

#[test]
fn two_set_modes_in_one_group_are_invalid() {
    let class = ChipClass::Cayman;
    let mut a = set_mode(class, 1, 0);
    a.slot = wavejit_terascale::inst::Slot::X;
    a.dst_chan = 0;
    let p = Prog::new(class)
        .alu(vec![(vec![a, set_mode(class, 2, 0)], vec![])])
        .build();
    lift_err(&p, "two SET_MODEs in one group");
}
