//! The random generator's promises: valid IR for every seed and option set, deterministic per
//! seed, loops bounded by counters, options honoured, every op and float mode reached.

use std::collections::HashSet;
use wavejit_ir::random::{generate, GlobalBuffer, Options};
use wavejit_ir::text::{all_ops, parse, print};
use wavejit_ir::verify::verify;
use wavejit_ir::*;

fn everything() -> Options {
    Options {
        global: Some(GlobalBuffer {
            base: 0x1_0000_0000,
            len: 4096,
        }),
        lds_bytes: Some(1000),
        private_bytes: Some(64),
        faults: true,
        ..Options::default()
    }
}

fn option_sets() -> Vec<Options> {
    vec![
        Options::default(),
        everything(),
        Options {
            wave_size: 32,
            uniform_regs: 2,
            lane_regs: 2,
            ..everything()
        },
        Options {
            wave_size: 4,
            max_blocks: 1,
            ..everything()
        },
        // Spaces too small for some widths or for a per-lane permutation of slots.
        Options {
            lds_bytes: Some(6),
            private_bytes: Some(3),
            global: Some(GlobalBuffer { base: 8, len: 8 }),
            ..everything()
        },
        Options {
            op_filter: |_| false,
            float_modes: false,
            masked_writes: false,
            ..everything()
        },
    ]
}

#[test]
fn thousands_of_seeds_verify_and_round_trip_through_text() {
    for (k, opts) in option_sets().iter().enumerate() {
        for seed in 0..400u64 {
            let f = generate(seed, opts);
            if let Err(e) = verify(&f) {
                panic!("options #{k} seed {seed}: {e}\n{f}");
            }
            let text = print(&f);
            assert_eq!(parse(&text).as_ref(), Ok(&f), "options #{k} seed {seed}");
        }
    }
}

#[test]
fn same_seed_same_function_different_seeds_differ() {
    let opts = everything();
    assert_eq!(generate(42, &opts), generate(42, &opts));
    let distinct: HashSet<String> = (0..20).map(|s| print(&generate(s, &opts))).collect();
    assert_eq!(distinct.len(), 20);
}

/// The termination argument of the module docs, checked on the generated structure: an edge
/// to an earlier (or the same) block is a branch whose condition tests the block's own counter
/// register, which the block decrements with `usub_sat` and nothing else writes; block 0,
/// which sets the counters, is never a target.
#[test]
fn back_edges_are_counted_loops() {
    let opts = everything();
    let mut back_edges = 0;
    for seed in 0..300 {
        let f = generate(seed, &opts);
        let c = f.layout.file_by_name("c").expect("counter file");
        for (i, b) in f.blocks.iter().enumerate() {
            assert!(
                !b.term.successors().contains(&Block(0)),
                "seed {seed}: edge to block0"
            );
            let counter_writes: Vec<&Inst> = b
                .insts
                .iter()
                .filter(|inst| match inst.kind {
                    InstKind::WriteReg { reg, .. } => reg.file == c,
                    InstKind::WriteRegIndexed { file, .. } => file == c,
                    _ => false,
                })
                .collect();
            if i == 0 {
                assert!(counter_writes
                    .iter()
                    .all(|w| matches!(w.kind, InstKind::WriteReg { value, .. }
                    if matches!(b.insts[value.index()].kind, InstKind::Const(_)))));
                continue;
            }
            let backward = b.term.successors().iter().any(|s| s.index() <= i);
            if !backward {
                assert!(
                    counter_writes.is_empty(),
                    "seed {seed} block{i} writes a counter"
                );
                continue;
            }
            back_edges += 1;
            let Terminator::Branch {
                cond,
                then_to,
                else_to,
            } = b.term
            else {
                panic!("seed {seed} block{i}: back edge by {:?}", b.term)
            };
            assert!(
                then_to.index() <= i && else_to.index() > i,
                "seed {seed} block{i}"
            );
            // The decrement: c[i] = usub_sat(c[i], 1).
            assert_eq!(counter_writes.len(), 1, "seed {seed} block{i}");
            let InstKind::WriteReg { reg, value, .. } = counter_writes[0].kind else {
                unreachable!()
            };
            assert_eq!(reg, Reg::new(c, i as u32));
            let InstKind::Pure {
                op: Op::UsubSat,
                args,
                ..
            } = b.insts[value.index()].kind
            else {
                panic!("seed {seed} block{i}: counter not decremented by usub_sat")
            };
            assert_eq!(b.insts[args[0].index()].kind, InstKind::ReadReg(reg));
            assert_eq!(b.insts[args[1].index()].kind, InstKind::Const(1));
            // The condition is `c[i] != 0`, possibly and-ed with another condition.
            let counter_test = |v: Value| match b.insts[v.index()].kind {
                InstKind::Pure {
                    op: Op::Icmp(IntCC::Ne),
                    args: a,
                    ..
                } => a[0] == args[0],
                _ => false,
            };
            let guarded = counter_test(cond)
                || matches!(b.insts[cond.index()].kind,
                    InstKind::Pure { op: Op::And, args: a, .. } if counter_test(a[0]));
            assert!(
                guarded,
                "seed {seed} block{i}: back edge not guarded by its counter"
            );
        }
    }
    assert!(back_edges > 50, "only {back_edges} loops in 300 functions");
}

fn kinds(f: &Function) -> impl Iterator<Item = &InstKind> {
    f.blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| &i.kind))
}

#[test]
fn default_options_generate_no_memory_and_no_faults() {
    for seed in 0..300 {
        let f = generate(seed, &Options::default());
        for k in kinds(&f) {
            assert!(
                !matches!(
                    k,
                    InstKind::Load { .. } | InstKind::Store { .. } | InstKind::Atomic { .. }
                ),
                "seed {seed}"
            );
        }
        for b in &f.blocks {
            assert!(!matches!(b.term, Terminator::Trap(_)), "seed {seed}");
            if let Terminator::JumpIndirect(v) = b.term {
                // Indirect jumps select between two constant pcs of existing blocks.
                let InstKind::Pure {
                    op: Op::Select,
                    args,
                    ..
                } = b.insts[v.index()].kind
                else {
                    panic!()
                };
                for a in &args[1..3] {
                    let InstKind::Const(pc) = b.insts[a.index()].kind else {
                        panic!()
                    };
                    assert!(f.block_at(pc).is_some(), "seed {seed}: jump to {pc:#x}");
                }
            }
        }
    }
}

#[test]
fn families_can_be_switched_off() {
    let opts = Options {
        op_filter: |op| matches!(op, Op::Iadd | Op::Fadd),
        float_modes: false,
        masked_writes: false,
        cross_lane: false,
        indexed_regs: false,
        barriers: false,
        indirect_jumps: false,
        ..Options::default()
    };
    for seed in 0..200 {
        let f = generate(seed, &opts);
        for b in &f.blocks {
            assert!(!matches!(
                b.term,
                Terminator::Barrier(_) | Terminator::JumpIndirect(_)
            ));
        }
        for k in kinds(&f) {
            match *k {
                InstKind::Shuffle { .. } | InstKind::ReadLane { .. } => {
                    panic!("seed {seed}: cross-lane op")
                }
                InstKind::ReadRegIndexed { .. } | InstKind::WriteRegIndexed { .. } => {
                    panic!("seed {seed}: indexed")
                }
                InstKind::WriteReg { mask, .. } => assert_eq!(mask, None),
                InstKind::Pure { mode, .. } => assert!(mode.is_default()),
                _ => {}
            }
        }
    }
}

/// Over a few hundred functions, every op with every parameter, every float mode flag and
/// rounding, and every instruction kind appears.
#[test]
fn coverage_of_ops_modes_and_kinds() {
    let opts = everything();
    let mut ops = HashSet::new();
    let mut rounds = HashSet::new();
    let (mut flush_in, mut flush_out) = (false, false);
    let mut kind_names = HashSet::new();
    let mut types = HashSet::new();
    for seed in 0..600 {
        let f = generate(seed, &opts);
        for b in &f.blocks {
            for inst in &b.insts {
                if let InstKind::Pure { op, mode, .. } = inst.kind {
                    ops.insert(op);
                    if op.uses_float_mode() {
                        rounds.insert(format!("{:?}", mode.round));
                        flush_in |= mode.flush_in;
                        flush_out |= mode.flush_out;
                    }
                    types.insert((op.name(), inst.ty.unwrap().scalar));
                }
                let name = format!("{:?}", inst.kind);
                kind_names.insert(name.split([' ', '(', '{']).next().unwrap().to_string());
            }
        }
    }
    let missing: Vec<_> = all_ops().into_iter().filter(|o| !ops.contains(o)).collect();
    assert!(missing.is_empty(), "never generated: {missing:?}");
    assert_eq!(rounds.len(), 4);
    assert!(flush_in && flush_out);
    for k in [
        "Const",
        "Splat",
        "LaneId",
        "Pure",
        "MaskFromBits",
        "ReadReg",
        "WriteReg",
        "ReadRegIndexed",
        "WriteRegIndexed",
        "Load",
        "Store",
        "Atomic",
        "Ballot",
        "ReadLane",
        "Shuffle",
    ] {
        assert!(kind_names.contains(k), "never generated: {k}");
    }
    // Every result type of a multi-type op: iadd over i8..i64, fadd over f16..f64.
    for t in [
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
    ] {
        assert!(types.contains(&("iadd", t)), "iadd {t}");
    }
    for t in [ScalarType::F16, ScalarType::F32, ScalarType::F64] {
        assert!(types.contains(&("fadd", t)), "fadd {t}");
    }
}

/// Edge values of every class show up, classified with host floats.
#[test]
fn edge_values_reach_every_class() {
    use rand::SeedableRng;
    use wavejit_ir::random::edge_bits;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut seen = HashSet::new();
    for _ in 0..4000 {
        let x = edge_bits(&mut rng, ScalarType::F32);
        assert!(x <= u64::from(u32::MAX));
        let f = f32::from_bits(x as u32);
        let quiet = x & 0x40_0000 != 0;
        seen.insert(match f {
            _ if f.is_nan() && quiet && x & 0x3f_ffff != 0 => "qnan payload",
            _ if f.is_nan() && quiet => "qnan",
            _ if f.is_nan() => "snan",
            _ if f.is_infinite() => "inf",
            _ if f == 0.0 && f.is_sign_negative() => "-0",
            _ if f == 0.0 => "+0",
            _ if f.is_subnormal() => "denormal",
            _ if f == f32::MAX || f == f32::MIN => "max",
            _ if f.fract() == 0.5 => "half",
            _ => "other",
        });
        let d = f64::from_bits(edge_bits(&mut rng, ScalarType::F64));
        if d.is_subnormal() {
            seen.insert("f64 denormal");
        }
        let h = edge_bits(&mut rng, ScalarType::F16);
        assert!(h <= 0xffff);
        if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 && h & 0x200 == 0 {
            seen.insert("f16 snan");
        }
        match edge_bits(&mut rng, ScalarType::I32) {
            0x8000_0000 => seen.insert("int_min"),
            0xffff_ffff => seen.insert("-1"),
            0x7fff_ffff => seen.insert("int_max"),
            32 => seen.insert("bit width"),
            x => seen.insert(if x > u64::from(u32::MAX) {
                "too wide"
            } else {
                "other int"
            }),
        };
        assert!(edge_bits(&mut rng, ScalarType::I1) <= 1);
    }
    for class in [
        "qnan payload",
        "qnan",
        "snan",
        "inf",
        "-0",
        "+0",
        "denormal",
        "max",
        "half",
        "f64 denormal",
        "f16 snan",
        "int_min",
        "-1",
        "int_max",
        "bit width",
    ] {
        assert!(seen.contains(class), "never drew {class}");
    }
    assert!(!seen.contains("too wide"));
}
