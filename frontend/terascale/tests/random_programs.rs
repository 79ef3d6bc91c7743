//! The random program generator: validity for the decoder over thousands of seeds per class,
//! slot rules against the tables, coverage of every value op, every CF op, memory op and
//! special op it claims, memory bounds recomputed from the fields, the option switches, the
//! initial state, and the minimiser with synthetic predicates.
use std::collections::BTreeSet;
use wavejit_terascale::inst::{CfInst, ClauseBody, Program, Slot};
use wavejit_terascale::lift::{alu_form, AluForm};
use wavejit_terascale::random::{
    self, check, generate, minimise, program_and_state, value_ops, AluClause, GenOptions,
    InitialState, Node, RandomProgram, CB_DWORDS, GPR_ROWS, LDS_BYTES, POOL_BYTES,
};
use wavejit_terascale::tables::{self, CfAluOp, CfMemOp, CfOp, FetchOp, RatInst, SlotRule};
use wavejit_terascale::{decode_program, encode_program, AluOp, ChipClass};

const SEEDS: u64 = 2000;

fn each_program(class: ChipClass, seeds: u64, mut f: impl FnMut(u64, &RandomProgram, &Program)) {
    let opts = GenOptions::default();
    for seed in 0..seeds {
        let p =
            generate(seed, class, &opts).unwrap_or_else(|e| panic!("{class:?} seed {seed}: {e}"));
        let lowered = p
            .lower()
            .unwrap_or_else(|e| panic!("{class:?} seed {seed}: {e}"));
        f(seed, &p, &lowered);
    }
}

/// Encoded bytes decode to the same program, and re-encode to the same bytes.
#[test]
fn programs_round_trip_through_the_decoder() {
    for class in ChipClass::ALL {
        each_program(class, SEEDS, |seed, _, p| {
            let bytes = encode_program(p).unwrap_or_else(|e| panic!("{class:?} {seed}: {e}"));
            let back =
                decode_program(class, &bytes).unwrap_or_else(|e| panic!("{class:?} {seed}: {e}"));
            assert_eq!(&back, p, "{class:?} seed {seed}");
            assert_eq!(
                encode_program(&back).as_deref(),
                Ok(&bytes[..]),
                "{class:?} seed {seed}"
            );
            let last = p.cf.last().map(|e| e.inst);
            assert!(
                last.is_some_and(|i| i.ends_program(class)),
                "{class:?} seed {seed}"
            );
        });
    }
}

/// Every instruction sits where its table row allows, re-derived here from the rows.
#[test]
fn slots_follow_the_table_rules() {
    for class in ChipClass::ALL {
        each_program(class, 500, |seed, _, p| {
            for c in &p.clauses {
                let ClauseBody::Alu(groups) = &c.body else {
                    continue;
                };
                for g in groups {
                    assert!(g.insts.len() <= class.alu_slots());
                    for i in &g.insts {
                        let row = tables::alu_info(i.op);
                        assert_eq!(
                            row.opcode(class),
                            Some(i.opcode),
                            "{class:?} {}",
                            i.op.name()
                        );
                        let rule = row.slot_rule(class);
                        let ok = match rule {
                            _ if i.lds.is_some() => i.slot == Slot::X,
                            SlotRule::Absent | SlotRule::Xy | SlotRule::Zw => false,
                            SlotRule::Any => true,
                            SlotRule::Vector => i.slot != Slot::T,
                            SlotRule::Trans => i.slot == Slot::T,
                            SlotRule::Replicated => [Slot::X, Slot::Y, Slot::Z]
                                .iter()
                                .all(|&s| g.in_slot(s).is_some_and(|o| o.op == i.op)),
                            SlotRule::AllFour => Slot::VECTOR
                                .iter()
                                .all(|&s| g.in_slot(s).is_some_and(|o| o.op == i.op)),
                        };
                        assert!(
                            ok,
                            "{class:?} seed {seed}: {} in {:?} ({rule:?})",
                            i.op.name(),
                            i.slot
                        );
                        if class == ChipClass::Cayman {
                            assert_ne!(i.slot, Slot::T);
                        }
                        if i.slot != Slot::T {
                            assert_eq!(i.dst_chan as usize, i.slot.index());
                        }
                    }
                }
            }
        });
    }
}

fn ops_of(p: &Program) -> BTreeSet<AluOp> {
    let mut s = BTreeSet::new();
    for c in &p.clauses {
        if let ClauseBody::Alu(groups) = &c.body {
            s.extend(groups.iter().flat_map(|g| g.insts.iter().map(|i| i.op)));
        }
    }
    s
}

/// Over the seeds, every value op of the class appears, and the class's value-op list is the
/// tables' rows present on the class minus the non-value families.
#[test]
fn every_value_op_of_the_class_is_generated() {
    for class in ChipClass::ALL {
        let want: BTreeSet<AluOp> = value_ops(class).into_iter().collect();
        assert!(want.contains(&AluOp::ADD) && want.contains(&AluOp::MULADD));
        assert!(!want.contains(&AluOp::KILLE) && !want.contains(&AluOp::MOVA_INT));
        assert_eq!(want.contains(&AluOp::MUL_INT24), class == ChipClass::Cayman);
        assert_eq!(
            want.contains(&AluOp::RECIP_INT),
            class == ChipClass::Evergreen
        );
        let mut seen = BTreeSet::new();
        each_program(class, SEEDS, |_, _, p| seen.extend(ops_of(p)));
        let missing: Vec<&str> = want.difference(&seen).map(|o| o.name()).collect();
        assert!(
            missing.is_empty(),
            "{class:?}: never generated: {missing:?}"
        );
        assert!(seen.contains(&AluOp::MOVA_INT) && seen.contains(&AluOp::NOP));
    }
}

fn cf_ops(p: &Program) -> BTreeSet<String> {
    p.cf.iter()
        .map(|e| match e.inst {
            CfInst::Word(w) => w.op.name().to_string(),
            CfInst::Alu(a) if a.ext.is_some() => format!("ALU_EXTENDED+{}", a.op.name()),
            CfInst::Alu(a) => a.op.name().to_string(),
            CfInst::Mem(m) => m.op.name().to_string(),
        })
        .collect()
}

/// Every CF op the generator claims appears, and no other.
#[test]
fn every_claimed_cf_op_is_generated() {
    let claimed = [
        CfAluOp::ALU.name(),
        CfAluOp::ALU_PUSH_BEFORE.name(),
        CfAluOp::ALU_POP_AFTER.name(),
        "ALU_EXTENDED+ALU",
        CfOp::PUSH.name(),
        CfOp::JUMP.name(),
        CfOp::ELSE.name(),
        CfOp::POP.name(),
        CfOp::LOOP_START_DX10.name(),
        CfOp::LOOP_END.name(),
        CfOp::LOOP_BREAK.name(),
        CfOp::LOOP_CONTINUE.name(),
        CfAluOp::ALU_POP2_AFTER.name(),
        CfAluOp::ALU_ELSE_AFTER.name(),
        CfOp::LOOP_START.name(),
        CfOp::CALL.name(),
        CfOp::RETURN.name(),
        CfOp::TC.name(),
        CfMemOp::MEM_RAT.name(),
        CfMemOp::MEM_RAT_CACHELESS.name(),
        CfMemOp::MEM_WR_SCRATCH.name(),
    ];
    for class in ChipClass::ALL {
        let mut own = match class {
            ChipClass::Cayman => vec![
                CfOp::END.name(),
                CfOp::JUMP_ANY.name(),
                CfOp::PUSH_WQM.name(),
                CfOp::POP_WQM.name(),
                CfOp::ELSE_WQM.name(),
                CfOp::REACTIVATE.name(),
                CfOp::REACTIVATE_WQM.name(),
                CfAluOp::ALU_REACTIVATE_BEFORE.name(),
                CfOp::SET_PRIORITY.name(),
                CfOp::LDS_DEALLOC.name(),
                CfOp::GDS.name(),
            ],
            ChipClass::Evergreen => vec![
                CfOp::NOP.name(),
                CfOp::VC.name(),
                CfAluOp::ALU_BREAK.name(),
                CfAluOp::ALU_CONTINUE.name(),
            ],
        };
        own.extend(claimed);
        let mut seen = BTreeSet::new();
        each_program(class, 300, |_, _, p| seen.extend(cf_ops(p)));
        let want: BTreeSet<String> = own.iter().map(|s| s.to_string()).collect();
        let extra: BTreeSet<&String> = seen.difference(&want).collect();
        let extra: Vec<&&String> = extra
            .iter()
            .filter(|s| !s.starts_with("ALU_EXTENDED"))
            .collect();
        assert!(
            want.is_subset(&seen),
            "{class:?}: missing {:?}",
            want.difference(&seen).collect::<Vec<_>>()
        );
        assert!(extra.is_empty(), "{class:?}: unexpected {extra:?}");
    }
}

/// The operand and output features all occur: PV, PS (VLIW5 only), kcache, literals in both
/// literal qwords, relative reads and writes (by AR.x and by aL), aL reads, neg/abs, OMOD, CLAMP, write masks, PRED_SEL,
/// UPDATE_PRED, UPDATE_EXEC_MASK.
#[test]
fn operand_features_occur() {
    use wavejit_terascale::inst::sel;
    for class in ChipClass::ALL {
        let mut f = BTreeSet::new();
        each_program(class, 300, |_, _, p| {
            for c in &p.clauses {
                let ClauseBody::Alu(groups) = &c.body else {
                    continue;
                };
                for g in groups {
                    if g.literals.len() == 4 {
                        f.insert("literal zw");
                    }
                    for i in &g.insts {
                        for s in &i.src {
                            match s.sel {
                                sel::PV => f.insert("pv"),
                                sel::PS => f.insert("ps"),
                                sel::LITERAL => f.insert("literal"),
                                128..=191 => f.insert("kcache"),
                                256..=319 => f.insert("kcache23"),
                                _ => false,
                            };
                            if s.rel {
                                f.insert(if i.index_mode == 4 {
                                    "aL rel src"
                                } else {
                                    "rel src"
                                });
                            }
                            if s.sel == 238 {
                                f.insert("aL");
                            }
                            if s.neg {
                                f.insert("neg");
                            }
                            if s.abs {
                                f.insert("abs");
                            }
                        }
                        let flags = [
                            (i.dst_rel, "rel dst"),
                            (i.omod != 0 && !i.update_exec_mask, "omod"),
                            (i.clamp, "clamp"),
                            (!i.write, "masked"),
                            (i.pred_sel != 0, "pred_sel"),
                            (i.update_pred && !i.update_exec_mask, "update_pred"),
                            (i.update_exec_mask, "exec"),
                        ];
                        f.extend(flags.iter().filter(|(b, _)| *b).map(|(_, n)| *n));
                    }
                }
            }
        });
        let mut want = vec![
            "pv",
            "literal",
            "literal zw",
            "kcache",
            "kcache23",
            "rel src",
            "rel dst",
            "aL",
            "aL rel src",
            "neg",
            "abs",
            "omod",
            "clamp",
            "masked",
            "pred_sel",
            "update_pred",
            "exec",
        ];
        if class == ChipClass::Evergreen {
            want.push("ps");
        } else {
            assert!(!f.contains("ps"), "Cayman has no PS");
        }
        for w in want {
            assert!(f.contains(w), "{class:?}: no {w}");
        }
    }
}

/// Loops carry their counter clauses and every break/continue sits in a loop.
#[test]
fn loops_are_bounded_by_their_counter() {
    fn walk(nodes: &[Node], in_loop: bool, loops: &mut usize) {
        for n in nodes {
            match n {
                Node::Loop {
                    depth,
                    init,
                    check,
                    body,
                    ..
                } => {
                    *loops += 1;
                    let c = random::COUNTER_GPR + depth;
                    let first = &init.groups[0].insts[0];
                    assert_eq!(
                        (first.op, first.dst_gpr, init.groups[0].literals[0]),
                        (AluOp::AND_INT, c, 3)
                    );
                    let dec = &check.groups[0].insts[0];
                    assert_eq!(
                        (dec.op, dec.dst_gpr, dec.src[0].sel),
                        (AluOp::ADD_INT, c, c as u16)
                    );
                    assert!(check.groups[1].insts[0].update_exec_mask);
                    walk(body, true, loops);
                }
                Node::If {
                    push,
                    then_body,
                    else_body,
                    ..
                } => {
                    // Whole-quad widening in a loop would wake lanes without a counter.
                    assert!(!(in_loop && *push == random::Push::PushWqmThenAlu));
                    walk(then_body, in_loop, loops);
                    walk(else_body.as_deref().unwrap_or(&[]), in_loop, loops);
                }
                Node::JumpAny { body, .. } => walk(body, in_loop, loops),
                // "Do not do this inside a loop" (lift/cf.rs).
                Node::CfWord(CfOp::REACTIVATE | CfOp::REACTIVATE_WQM)
                | Node::AluReactivate { .. } => assert!(!in_loop),
                Node::Break(_) | Node::Continue(_) | Node::AluBreak(_) | Node::AluContinue(_) => {
                    assert!(in_loop)
                }
                // Calls sit outside loops (a subroutine's loops reuse the counters from 0),
                // and a subroutine leaves no loop of its caller.
                Node::Call { body, .. } => {
                    assert!(!in_loop);
                    walk(body, false, loops)
                }
                Node::Alu(_)
                | Node::Fetch { .. }
                | Node::Rat { .. }
                | Node::CfWord(_)
                | Node::Scratch(_)
                | Node::Gds { .. } => {}
            }
        }
    }
    let mut loops = 0;
    each_program(ChipClass::Cayman, 300, |_, p, _| {
        walk(&p.nodes, false, &mut loops)
    });
    assert!(loops > 50, "{loops} loops");
}

#[test]
fn generation_is_deterministic_and_options_are_honoured() {
    let opts = GenOptions::default();
    for class in ChipClass::ALL {
        assert_eq!(generate(7, class, &opts), generate(7, class, &opts));
        assert_ne!(generate(7, class, &opts), generate(8, class, &opts));
    }
    let plain = GenOptions {
        control: false,
        kcache: false,
        literals: false,
        relative: false,
        double_ops: false,
        modifiers: false,
        predication: false,
        fetch: false,
        rat: false,
        lds: false,
        barrier: false,
        kill: false,
        flags: false,
        scratch: false,
        cf_index: false,
        ..GenOptions::default()
    };
    for seed in 0..200 {
        let p = generate(seed, ChipClass::Evergreen, &plain).expect("valid");
        assert!(p.nodes.iter().all(|n| matches!(n, Node::Alu(_))));
        let l = p.lower().expect("lowers");
        for op in ops_of(&l) {
            let wide = matches!(alu_form(op), Ok(AluForm::Wide(_)));
            let extra = matches!(
                op,
                AluOp::MOVA_INT
                    | AluOp::LDS_IDX_OP
                    | AluOp::GROUP_BARRIER
                    | AluOp::KILLE
                    | AluOp::STORE_FLAGS
                    | AluOp::LOAD_STORE_FLAGS
            );
            assert!(!wide && !extra, "{}", op.name());
        }
    }
}

#[test]
fn initial_state_has_edge_values_and_partial_masks() {
    let (p, st) = program_and_state(3, ChipClass::Cayman, &GenOptions::default()).expect("valid");
    assert_eq!(p.class, ChipClass::Cayman);
    assert_eq!(st.gprs.len(), 4 * GPR_ROWS as usize);
    assert!(st.gprs.iter().all(|r| r.len() == 64));
    assert!(st.const_buffers.iter().all(|b| b.len() == CB_DWORDS));
    let mut values = BTreeSet::new();
    let mut partial = 0;
    for seed in 0..100 {
        let s = InitialState::random(seed, 64);
        values.extend(s.gprs.iter().flatten().copied());
        if s.active != u64::MAX {
            partial += 1;
        }
        assert_eq!(s, InitialState::random(seed, 64));
        let s32 = InitialState::random(seed, 32);
        assert_eq!(s32.active >> 32, 0);
        assert!(s32.gprs.iter().all(|r| r.len() == 32));
    }
    for v in [
        0x8000_0000u32,
        0x7f80_0000,
        0xff80_0000,
        0x7fa0_0000,
        0xffc0_0001,
        0x0000_0001,
        0x807f_ffff,
    ] {
        assert!(values.contains(&v), "{v:#x} never drawn");
    }
    assert!(partial > 20, "{partial} partial masks");
}

fn contains_op(p: &RandomProgram, op: AluOp) -> bool {
    p.lower().is_ok_and(|l| ops_of(&l).contains(&op))
}

/// With "contains op X" as the failure, the minimiser keeps X, stays valid, and ends with a
/// program where no single reduction removes X without breaking validity (small).
#[test]
fn minimiser_shrinks_to_the_op_that_fails() {
    for (class, op) in [
        (ChipClass::Evergreen, AluOp::MULADD),
        (ChipClass::Cayman, AluOp::SIN),
        (ChipClass::Evergreen, AluOp::ADD_64),
    ] {
        let seed = (0..500)
            .find(|&s| {
                generate(s, class, &GenOptions::default())
                    .is_ok_and(|p| contains_op(&p, op) && p.instructions() > 30)
            })
            .expect("a seed with the op");
        let p = generate(seed, class, &GenOptions::default()).expect("valid");
        let mut calls = 0;
        let small = minimise(&p, |q| {
            calls += 1;
            contains_op(q, op)
        });
        check(&small).expect("the minimised program is valid");
        assert!(contains_op(&small, op));
        let insts = small.instructions();
        let others = ops_of(&small.lower().expect("lowers"))
            .into_iter()
            .filter(|&o| o != op)
            .count();
        assert!(
            insts < p.instructions(),
            "{class:?} {}: {} -> {insts}",
            op.name(),
            p.instructions()
        );
        assert!(
            insts <= 8 && others <= 2,
            "{class:?} {}: {insts} instructions left:\n{small:#?}",
            op.name()
        );
        assert!(calls > 0);
    }
}

/// A predicate that depends on the control flow keeps it: "a loop with a break remains".
#[test]
fn minimiser_keeps_structure_the_predicate_needs() {
    fn has_break_loop(nodes: &[Node]) -> bool {
        nodes.iter().any(|n| match n {
            Node::Loop { body, .. } => {
                body.iter().any(|b| matches!(b, Node::Break(_))) || has_break_loop(body)
            }
            Node::If {
                then_body,
                else_body,
                ..
            } => has_break_loop(then_body) || else_body.as_deref().is_some_and(has_break_loop),
            _ => false,
        })
    }
    let opts = GenOptions::default();
    let seed = (0..500)
        .find(|&s| {
            generate(s, ChipClass::Cayman, &opts)
                .is_ok_and(|p| has_break_loop(&p.nodes) && p.nodes.len() > 3)
        })
        .expect("a seed with a breaking loop");
    let p = generate(seed, ChipClass::Cayman, &opts).expect("valid");
    let small = minimise(&p, |q| has_break_loop(&q.nodes));
    check(&small).expect("valid");
    assert_eq!(small.nodes.len(), 1, "{small:#?}");
    let Node::Loop { body, .. } = &small.nodes[0] else {
        panic!("{small:#?}")
    };
    assert_eq!(body.len(), 1);
    // The loop shape after lowering: LOOP_START_DX10, the counter break, the break, END_LOOP.
    let l = small.lower().expect("lowers");
    let words: Vec<&str> =
        l.cf.iter()
            .filter_map(|e| match e.inst {
                CfInst::Word(w) => Some(w.op.name()),
                _ => None,
            })
            .collect();
    assert_eq!(
        words,
        [
            "LOOP_START_DX10",
            "JUMP",
            "LOOP_BREAK",
            "POP",
            "JUMP",
            "LOOP_BREAK",
            "POP",
            "LOOP_END",
            "END"
        ]
    );
}

/// The minimiser never returns an invalid program, whatever the predicate accepts.
#[test]
fn minimiser_rejects_invalid_edits() {
    let p = generate(11, ChipClass::Evergreen, &GenOptions::default()).expect("valid");
    let small = minimise(&p, |_| true);
    check(&small).expect("valid");
    assert!(small.nodes.is_empty(), "{small:#?}");
    let l = small.lower().expect("the empty program lowers");
    assert_eq!(l.cf.len(), 1);
}

/// Calls `f` on every node of the tree (bodies included).
fn each_node(nodes: &[Node], f: &mut impl FnMut(&Node)) {
    for n in nodes {
        f(n);
        match n {
            Node::If {
                then_body,
                else_body,
                ..
            } => {
                each_node(then_body, f);
                each_node(else_body.as_deref().unwrap_or(&[]), f);
            }
            Node::Loop { body, .. } | Node::Call { body, .. } | Node::JumpAny { body, .. } => {
                each_node(body, f)
            }
            _ => {}
        }
    }
}

/// The literal an `AND_INT` of a setup group masks channel `c` with.
fn mask_of(setup: &AluClause, c: u8) -> u32 {
    let g = &setup.groups[0];
    let i = g
        .insts
        .iter()
        .find(|i| i.dst_chan == c && i.op == AluOp::AND_INT)
        .expect("a masking AND_INT for the channel");
    g.literals[i.src[1].chan as usize]
}

/// Bytes per component of the VTX_READ data formats (FMT_8, FMT_16, FMT_32, FMT_32_32,
/// FMT_32_32_32_32), and the element's bytes.
fn vtx_element(fmt: u8) -> (u32, u32) {
    match fmt {
        1 => (1, 1),
        5 => (2, 2),
        13 => (4, 4),
        29 => (4, 8),
        34 => (4, 16),
        _ => panic!("format {fmt}"),
    }
}

/// Every memory access a generated program can make stays inside the buffer the fuzz harness
/// provides, at an address aligned to its component size: the bounds are recomputed here from
/// the setup literals, the fetch OFFSETs and element sizes, the RAT units (store index in
/// dwords, four channels; atomic address in bytes) and the LDS offsets of Table 8.11.
#[test]
fn memory_accesses_stay_inside_the_buffers() {
    use wavejit_terascale::inst::sel;
    use wavejit_terascale::tables::LdsOp;
    let cb0 = 4 * CB_DWORDS as u32;
    let mut counts = [0usize; 3];
    for class in ChipClass::ALL {
        each_program(class, 400, |seed, rp, p| {
            each_node(&rp.nodes, &mut |n| match n {
                Node::Fetch { setup, insts, .. } => {
                    for f in insts {
                        counts[0] += 1;
                        let [w0, _, w2] = f.words;
                        if f.op == FetchOp::MEM_RD_SCRATCH || f.op.name().starts_with("TEX_") {
                            // Private memory (the lifter clamps the index into the array) and
                            // textures (wrap modes; LD reads 0 outside).
                            continue;
                        }
                        if f.op == FetchOp::MEM_RD_SCATTER {
                            // Dword ARRAY_BASE + INDEXED * R.x + step * (ELEM_SIZE + 1).
                            let (_, bytes) = vtx_element(f.data_format());
                            let idx = if w0 >> 12 & 1 == 1 {
                                mask_of(setup, 0)
                            } else {
                                0
                            };
                            let last = (w0 >> 26 & 15) * ((w0 >> 5 & 3) + 1);
                            let end = 4 * ((w2 & 0x1fff) + idx + last) + bytes;
                            assert!(end <= POOL_BYTES, "{class:?} seed {seed}: scatter to {end}");
                            continue;
                        }
                        let (comp, bytes) = vtx_element(f.data_format());
                        let base = mask_of(setup, f.src_sel_x());
                        let end = base + u32::from(f.offset()) + bytes;
                        // With BUFFER_INDEX_MODE, buffer 1 + CF_IDX (0 or 2) is the pool
                        // or constant buffer 0 (buffer 3).
                        let size = match (f.buffer_id(), w2 >> 21 & 3) {
                            (1, 0) => POOL_BYTES,
                            (1, _) => POOL_BYTES.min(cb0),
                            _ => cb0,
                        };
                        assert!(end <= size, "{class:?} seed {seed}: fetch ends at {end}");
                        assert_eq!(base % comp, 0, "{class:?} seed {seed}: mask {base:#x}");
                        assert_eq!(u32::from(f.offset()) % comp, 0);
                    }
                }
                Node::Rat { setup, mem } => {
                    counts[1] += 1;
                    let idx = mask_of(setup, 0);
                    let r = mem.rat.expect("RAT fields").inst;
                    // Index units (lift/mem.rs): bytes for the atomics and NOP_RTN, dwords
                    // for MSKOR and STORE_TYPED, the element for the stores; four channels.
                    let (unit, span, bytes) = match r {
                        RatInst::STORE_SHORT => (2, 8, false),
                        RatInst::STORE_BYTE => (1, 4, false),
                        RatInst::STORE_DWORD
                        | RatInst::STORE_RAW
                        | RatInst::STORE_RAW_FDENORM
                        | RatInst::STORE_TYPED
                        | RatInst::MSKOR => (4, 16, false),
                        _ => (1, 4, true),
                    };
                    let stride = if mem.op == CfMemOp::MEM_RAT_CACHELESS {
                        u32::from(mem.array_size & 0xff) + 1
                    } else {
                        u32::from(mem.elem_size) + 1
                    };
                    let end = unit * idx + 4 * stride * u32::from(mem.burst_count) + span;
                    assert!(
                        end <= POOL_BYTES,
                        "{class:?} seed {seed}: RAT ends at {end}"
                    );
                    assert!(!bytes || idx.is_multiple_of(4));
                }
                Node::Gds { setup, .. } => {
                    let end = mask_of(setup, 0) + 4;
                    assert!(
                        end <= random::GDS_WINDOW,
                        "{class:?} seed {seed}: GDS {end}"
                    );
                }
                _ => {}
            });
            for c in &p.clauses {
                let ClauseBody::Alu(groups) = &c.body else {
                    continue;
                };
                for (k, g) in groups.iter().enumerate() {
                    let Some(i) = g.insts.iter().find(|i| i.lds.is_some()) else {
                        continue;
                    };
                    counts[2] += 1;
                    let l = i.lds.expect("LDS fields");
                    let prev = &groups[k - 1];
                    let mask = |chan: u8| {
                        let a = prev
                            .insts
                            .iter()
                            .find(|a| a.dst_gpr == random::LDS_ADDR_GPR && a.dst_chan == chan)
                            .expect("the address group");
                        assert_eq!(a.src[1].sel, sel::LITERAL);
                        prev.literals[a.src[1].chan as usize]
                    };
                    let second = match l.op {
                        LdsOp::WRITE2 | LdsOp::XCHG2_RET => 256 * u32::from(l.offset),
                        LdsOp::WRITE_REL | LdsOp::READ_REL_RET | LdsOp::XCHG_REL_RET => {
                            4 * u32::from(l.offset)
                        }
                        _ => 0,
                    };
                    let end = mask(0) + second + 4;
                    assert!(end <= LDS_BYTES, "{class:?} seed {seed}: LDS ends at {end}");
                    if matches!(l.op, LdsOp::READ2_RET | LdsOp::READWRITE_RET) {
                        assert!(mask(1) + 4 <= LDS_BYTES);
                    }
                }
            }
        });
    }
    assert!(counts.iter().all(|&n| n > 100), "{counts:?}");
}

/// The CF index writes and reads of an ALU instruction: `SET_CF_IDX*`, `MOVA_DST n` (Cayman
/// MOVA_INT to CF_IDX or CLAUSE_GLOBAL), `CLAUSE_GLOBAL read` (SRC_SEL 225).
fn index_features(class: ChipClass, i: &wavejit_terascale::inst::AluInst) -> Vec<String> {
    let mut out = Vec::new();
    if matches!(i.op, AluOp::SET_CF_IDX0 | AluOp::SET_CF_IDX1) {
        out.push(i.op.name().to_string());
    }
    if let Some(d @ 2..) = i.mova_dst(class) {
        out.push(format!("MOVA_DST {d}"));
    }
    let n = tables::alu_info(i.op).srcs as usize;
    if class == ChipClass::Cayman && i.src[..n.min(3)].iter().any(|s| s.sel == 225) {
        out.push("CLAUSE_GLOBAL read".into());
    }
    out
}

/// The indexed resources of a program: `bank index m` (KCACHE_BANK_INDEX_MODE m) and
/// `buffer index m` (VTX BUFFER_INDEX_MODE m).
fn resource_index_features(p: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for e in &p.cf {
        if let CfInst::Alu(a) = e.inst {
            for m in a.ext.map_or([0; 4], |x| x.bank_index_mode) {
                if m != 0 {
                    out.push(format!("bank index {m}"));
                }
            }
        }
    }
    for c in &p.clauses {
        if let ClauseBody::Fetch(f) = &c.body {
            for f in f.iter().filter(|f| f.op == FetchOp::VTX_FETCH) {
                let m = f.words[2] >> 21 & 3;
                if m != 0 {
                    out.push(format!("buffer index {m}"));
                }
            }
        }
    }
    out
}

/// Over the seeds: every VTX_READ template from both buffers (and the SRC_SEL_X, DST_SEL and
/// signed variations), both RAT stores' COMP_MASKs and every RAT atomic of the class, every
/// LDS op of the class with the queue read in both halves, popped and peeked, GROUP_BARRIER,
/// every KILL op and the float exception flag moves.
#[test]
fn memory_and_special_ops_occur() {
    use wavejit_terascale::inst::sel;
    use wavejit_terascale::tables::{LdsOp, NA};
    for class in ChipClass::ALL {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        each_program(class, 600, |_, rp, p| {
            each_node(&rp.nodes, &mut |n| match n {
                Node::Fetch { insts, .. } => {
                    for f in insts {
                        seen.insert(format!("fmt{} buf{}", f.data_format(), f.buffer_id()));
                        seen.insert(format!("src_sel{}", f.src_sel_x()));
                        if f.format_comp_all() {
                            seen.insert("signed".into());
                        }
                        if f.dst_sel().contains(&5) {
                            seen.insert("dst_sel 1".into());
                        }
                    }
                }
                Node::Rat { mem, .. } => {
                    let r = mem.rat.expect("RAT fields");
                    seen.insert(format!("{r:?}", r = r.inst));
                    seen.insert(format!("mask{}", mem.comp_mask));
                    if mem.burst_count > 0 {
                        seen.insert(format!("burst {}", mem.op.name()));
                    }
                }
                Node::Scratch(m) => {
                    seen.insert(format!("scratch write es{}", m.elem_size));
                }
                _ => {}
            });
            seen.extend(resource_index_features(p));
            for c in &p.clauses {
                if let ClauseBody::Fetch(f) = &c.body {
                    for f in f {
                        match f.op {
                            FetchOp::MEM_RD_SCATTER => {
                                seen.insert(format!("scatter es{}", f.words[0] >> 5 & 3));
                            }
                            FetchOp::MEM_RD_SCRATCH => {
                                seen.insert(format!("scratch read es{}", f.words[0] >> 5 & 3));
                            }
                            FetchOp::MEM_GDS => {
                                seen.insert(format!("gds{}", f.words[1] >> 9 & 63));
                            }
                            op if op.name().starts_with("TEX_") => {
                                seen.insert(op.name().to_string());
                                seen.insert(format!(
                                    "res{} smp{}",
                                    f.words[0] >> 8 & 255,
                                    f.words[2] >> 15 & 31
                                ));
                            }
                            _ => {}
                        }
                    }
                }
            }
            for c in &p.clauses {
                let ClauseBody::Alu(groups) = &c.body else {
                    continue;
                };
                for i in groups.iter().flat_map(|g| &g.insts) {
                    if let Some(l) = i.lds {
                        seen.insert(format!("{:?}", l.op));
                    }
                    seen.extend(index_features(class, i));
                    if i.op == AluOp::GROUP_BARRIER
                        || i.op.name().starts_with("KILL")
                        || i.op.name().ends_with("STORE_FLAGS")
                    {
                        seen.insert(i.op.name().to_string());
                    }
                    for s in &i.src[..1] {
                        if (sel::LDS_OQ_A..=sel::LDS_OQ_B_POP).contains(&s.sel) {
                            seen.insert(format!("oq{}", s.sel));
                        }
                    }
                }
            }
        });
        let mut want: Vec<String> = Vec::new();
        for fmt in [1, 5, 13, 29, 34] {
            for buf in [1, 3] {
                want.push(format!("fmt{fmt} buf{buf}"));
            }
        }
        want.extend((0..4).map(|c| format!("src_sel{c}")));
        want.extend(["signed", "dst_sel 1"].map(String::from));
        want.extend((1..16).map(|m| format!("mask{m}")));
        let store = match class {
            ChipClass::Evergreen => RatInst::STORE_RAW,
            ChipClass::Cayman => RatInst::STORE_DWORD,
        };
        want.push(format!("{store:?}"));
        want.extend(
            [
                RatInst::ADD,
                RatInst::CMPXCHG_INT,
                RatInst::XCHG_RTN,
                RatInst::DEC_UINT_RTN,
            ]
            .map(|r| format!("{r:?}")),
        );
        want.extend(
            tables::lds_rows()
                .iter()
                .filter(|r| r.opcode[class.index()] != NA)
                .filter(|r| r.op != LdsOp::ATOMIC_ORDERED_ALLOC_RET)
                .map(|r| format!("{:?}", r.op)),
        );
        want.extend(
            [
                sel::LDS_OQ_A,
                sel::LDS_OQ_A_POP,
                sel::LDS_OQ_B,
                sel::LDS_OQ_B_POP,
            ]
            .map(|s| format!("oq{s}")),
        );
        want.push("GROUP_BARRIER".into());
        want.extend(
            match class {
                ChipClass::Evergreen => vec!["SET_CF_IDX0", "SET_CF_IDX1"],
                ChipClass::Cayman => vec![
                    "MOVA_DST 2",
                    "MOVA_DST 3",
                    "MOVA_DST 4",
                    "MOVA_DST 7",
                    "CLAUSE_GLOBAL read",
                ],
            }
            .into_iter()
            .map(String::from),
        );
        want.extend(
            [
                "bank index 1",
                "bank index 2",
                "buffer index 1",
                "buffer index 2",
            ]
            .map(String::from),
        );
        want.extend(["STORE_FLAGS", "LOAD_STORE_FLAGS"].map(String::from));
        want.extend(["MEM_RAT", "MEM_RAT_CACHELESS"].map(|f| format!("burst {f}")));
        want.extend(
            [RatInst::STORE_TYPED, RatInst::NOP_RTN, RatInst::MSKOR].map(|r| format!("{r:?}")),
        );
        want.extend(
            match class {
                ChipClass::Evergreen => vec![
                    RatInst::STORE_RAW_FDENORM,
                    RatInst::CMPXCHG_FLT,
                    RatInst::CMPXCHG_FLT_RTN,
                ],
                ChipClass::Cayman => vec![RatInst::STORE_SHORT, RatInst::STORE_BYTE],
            }
            .iter()
            .map(|r| format!("{r:?}")),
        );
        for es in [0, 1] {
            want.push(format!("scratch write es{es}"));
            want.push(format!("scratch read es{es}"));
        }
        want.extend(["scatter es0", "scatter es1", "scatter es3"].map(String::from));
        want.extend(random::TEX_OPS.iter().map(|(op, _)| op.name().to_string()));
        for r in 0..random::TEXTURES.len() {
            for smp in 0..random::SAMPLERS.len() {
                want.push(format!("res{r} smp{smp}"));
            }
        }
        if class == ChipClass::Cayman {
            // Every GDS op the GDS lifter takes (the LDS ops without REL/2 forms or a
            // second address), by its code.
            want.extend(
                tables::lds_rows()
                    .iter()
                    .filter(|r| r.opcode[class.index()] != NA)
                    .filter(|r| {
                        !matches!(
                            r.op,
                            LdsOp::ATOMIC_ORDERED_ALLOC_RET
                                | LdsOp::WRITE_REL
                                | LdsOp::WRITE2
                                | LdsOp::READ_REL_RET
                                | LdsOp::XCHG_REL_RET
                                | LdsOp::XCHG2_RET
                                | LdsOp::READ2_RET
                                | LdsOp::READWRITE_RET
                        )
                    })
                    .map(|r| format!("gds{}", r.opcode[class.index()])),
            );
        }
        want.extend(
            [
                "KILLE",
                "KILLGT",
                "KILLGE",
                "KILLNE",
                "KILLE_INT",
                "KILLGE_UINT",
            ]
            .map(String::from),
        );
        let missing: Vec<&String> = want.iter().filter(|w| !seen.contains(*w)).collect();
        assert!(
            missing.is_empty(),
            "{class:?}: never generated: {missing:?}"
        );
    }
}

/// Each switch turning a shape off removes it (and only memory shapes touch the address
/// GPRs).
#[test]
fn each_new_switch_removes_its_shape() {
    let d = GenOptions::default();
    let cases: Vec<(GenOptions, &[&str])> = vec![
        (
            GenOptions {
                fetch: false,
                ..d.clone()
            },
            &["TC", "VC"],
        ),
        (
            GenOptions {
                rat: false,
                ..d.clone()
            },
            &["MEM_RAT", "MEM_RAT_CACHELESS"],
        ),
        (
            GenOptions {
                lds: false,
                ..d.clone()
            },
            &["LDS_IDX_OP"],
        ),
        (
            GenOptions {
                barrier: false,
                ..d.clone()
            },
            &["GROUP_BARRIER"],
        ),
        (
            GenOptions {
                kill: false,
                ..d.clone()
            },
            &["KILLE", "KILLGT_INT"],
        ),
        (
            GenOptions {
                flags: false,
                ..d.clone()
            },
            &["STORE_FLAGS", "LOAD_STORE_FLAGS"],
        ),
        (
            GenOptions {
                dx9_loops: false,
                ..d.clone()
            },
            &["LOOP_START"],
        ),
        (
            GenOptions {
                calls: false,
                ..d.clone()
            },
            &["CALL", "RETURN"],
        ),
        (
            GenOptions {
                pop2_after: false,
                ..d.clone()
            },
            &["ALU_POP2_AFTER"],
        ),
        (
            GenOptions {
                else_after: false,
                ..d.clone()
            },
            &["ALU_ELSE_AFTER"],
        ),
        (
            GenOptions {
                alu_break: false,
                ..d.clone()
            },
            &["ALU_BREAK", "ALU_CONTINUE"],
        ),
        (
            GenOptions {
                alu_extended: false,
                ..d.clone()
            },
            &["ALU_EXTENDED"],
        ),
        (
            GenOptions {
                wqm_branches: false,
                ..d.clone()
            },
            &["JUMP_ANY", "PUSH_WQM", "POP_WQM", "ELSE_WQM"],
        ),
        (
            GenOptions {
                reactivate: false,
                ..d.clone()
            },
            &["REACTIVATE", "REACTIVATE_WQM", "ALU_REACTIVATE_BEFORE"],
        ),
        (
            GenOptions {
                cf_nops: false,
                ..d.clone()
            },
            &["SET_PRIORITY", "LDS_DEALLOC"],
        ),
        (
            GenOptions {
                rat_forms: false,
                ..d.clone()
            },
            &[
                "STORE_TYPED",
                "NOP_RTN",
                "MSKOR",
                "CMPXCHG_FLT",
                "STORE_RAW_FDENORM",
                "STORE_SHORT",
                "STORE_BYTE",
                "burst",
            ],
        ),
        (
            GenOptions {
                scatter: false,
                ..d.clone()
            },
            &["MEM_RD_SCATTER"],
        ),
        (
            GenOptions {
                scratch: false,
                ..d.clone()
            },
            &["MEM_WR_SCRATCH", "MEM_RD_SCRATCH"],
        ),
        (
            GenOptions {
                gds: false,
                ..d.clone()
            },
            &["GDS", "MEM_GDS"],
        ),
        (
            GenOptions {
                tex: false,
                ..d.clone()
            },
            &[
                "TEX_LD",
                "TEX_GET_TEXTURE_RESINFO",
                "TEX_SAMPLE",
                "TEX_SAMPLE_L",
                "TEX_SAMPLE_LB",
                "TEX_SAMPLE_LZ",
                "TEX_GATHER4",
            ],
        ),
        (
            GenOptions {
                cf_index: false,
                ..d.clone()
            },
            &[
                "SET_CF_IDX0",
                "SET_CF_IDX1",
                "MOVA_DST 2",
                "MOVA_DST 3",
                "MOVA_DST 4",
                "CLAUSE_GLOBAL read",
                "bank index 1",
                "bank index 2",
                "buffer index 1",
                "buffer index 2",
            ],
        ),
    ];
    for (opts, gone) in cases {
        for class in ChipClass::ALL {
            for seed in 0..150 {
                let p = generate(seed, class, &opts).expect("valid");
                let l = p.lower().expect("lowers");
                let mut names = cf_ops(&l);
                names.extend(ops_of(&l).iter().map(|o| o.name().to_string()));
                names.extend(resource_index_features(&l));
                for c in &l.clauses {
                    if let ClauseBody::Alu(groups) = &c.body {
                        for i in groups.iter().flat_map(|g| &g.insts) {
                            names.extend(index_features(class, i));
                        }
                    }
                }
                for e in &l.cf {
                    if let CfInst::Mem(m) = e.inst {
                        if let Some(r) = m.rat {
                            names.insert(format!("{:?}", r.inst));
                        }
                        if m.burst_count > 0 && m.rat.is_some() {
                            names.insert("burst".into());
                        }
                    }
                }
                for c in &l.clauses {
                    if let ClauseBody::Fetch(f) = &c.body {
                        names.extend(f.iter().map(|f| f.op.name().to_string()));
                    }
                    if let ClauseBody::Alu(groups) = &c.body {
                        let al = groups
                            .iter()
                            .flat_map(|g| &g.insts)
                            .any(|i| i.index_mode == 4 || i.src.iter().any(|s| s.sel == 238));
                        if al {
                            names.insert("aL".into());
                        }
                    }
                }
                for g in gone {
                    assert!(
                        !names
                            .iter()
                            .any(|n| n == g || n.starts_with(&format!("{g}+"))),
                        "{class:?} seed {seed}: {g} with {opts:?}"
                    );
                }
            }
        }
    }
}
