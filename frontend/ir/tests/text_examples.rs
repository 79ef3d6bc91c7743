//! The hand-written `.wir` files parse to the functions they describe, verify, and survive
//! print/parse round trips; the printer writes the documented syntax.

use std::path::PathBuf;
use wavejit_ir::text::{parse, print};
use wavejit_ir::verify::verify;
use wavejit_ir::*;

fn example(name: &str) -> Function {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/ir")
        .join(name);
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&src).unwrap_or_else(|e| panic!("{name}:{e}"))
}

#[test]
fn every_example_parses_verifies_and_round_trips() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/ir");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/ir exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".wir"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "examples missing: {names:?}");
    for name in names {
        let f = example(&name);
        verify(&f).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = print(&f);
        assert_eq!(parse(&text).as_ref(), Ok(&f), "{name} round trip:\n{text}");
        // Printing is canonical: the printed text prints the same again.
        assert_eq!(print(&parse(&text).expect("reparses")), text, "{name}");
    }
}

fn pure(f: &Function, block: usize, inst: usize) -> (Op, FloatMode) {
    match f.blocks[block].insts[inst].kind {
        InstKind::Pure { op, mode, .. } => (op, mode),
        ref k => panic!("block{block} %{inst} is {k:?}"),
    }
}

#[test]
fn float_ops_read_their_parameters_and_modes() {
    let f = example("float_ops.wir");
    let mode = |flush_in, flush_out, round| FloatMode {
        flush_in,
        flush_out,
        round,
    };
    assert_eq!(pure(&f, 0, 3), (Op::Fadd, FloatMode::FLUSH));
    assert_eq!(
        pure(&f, 0, 4),
        (Op::Fsub, mode(true, false, Round::TowardZero))
    );
    assert_eq!(
        pure(&f, 0, 5),
        (Op::Fmul, mode(false, true, Round::TowardPositive))
    );
    assert_eq!(
        pure(&f, 0, 6),
        (Op::FmulLegacy, mode(false, false, Round::TowardNegative))
    );
    assert_eq!(pure(&f, 0, 7).0, Op::Fmin(MinMax::Ieee));
    assert_eq!(pure(&f, 0, 8).0, Op::Fmax(MinMax::NonIeee));
    assert_eq!(pure(&f, 0, 9).0, Op::Fmed3(MinMax::Legacy));
    assert_eq!(pure(&f, 0, 10).0, Op::Fclamp { dx10: false });
    assert_eq!(
        pure(&f, 0, 11),
        (Op::Fclamp { dx10: true }, FloatMode::FLUSH)
    );
    assert_eq!(pure(&f, 0, 13).0, Op::Frcp(Trans::Clamped));
    assert_eq!(pure(&f, 0, 14).0, Op::Frsq(Trans::Ff));
    assert_eq!(pure(&f, 0, 15).0, Op::Fexp2(Trans::Legacy));
    assert_eq!(pure(&f, 0, 17).0, Op::Fsin(Trans::Ieee, Angle::Turns));
    assert_eq!(
        pure(&f, 0, 18),
        (Op::Fcos(Trans::Clamped, Angle::Radians), FloatMode::FLUSH)
    );
    assert_eq!(pure(&f, 0, 19).0, Op::Fcmp(FloatCC::Uno));
    assert_eq!(pure(&f, 0, 20).0, Op::Fcmp(FloatCC::One));
    assert_eq!(f.blocks[0].insts[22].ty, Some(Type::lane(ScalarType::F64)));
    assert_eq!(f.layout.wave_size, 32);
}

#[test]
fn constants_hex_is_bits_decimal_is_a_value() {
    let f = example("every_kind.wir");
    let konst = |i: usize| match f.blocks[0].insts[i].kind {
        InstKind::Const(b) => b,
        ref k => panic!("{k:?}"),
    };
    assert_eq!(konst(0), 7);
    assert_eq!(konst(1), 1.0f32.to_bits() as u64);
    assert_eq!(konst(2), u64::MAX, "-1 as i64");
    assert_eq!(konst(3), 1.5f64.to_bits());
    assert_eq!(konst(4), 0x3c00, "f16 1.0 in hex");
    let d = example("doc_example.wir");
    assert_eq!(
        d.blocks[0].insts[6].kind,
        InstKind::Const(0x3fc0_0000),
        "1.5f32"
    );
    assert_eq!(
        d.blocks[0].insts[7].kind,
        InstKind::Const(0x7fc0_0001),
        "NaN with payload"
    );
}

#[test]
fn every_kind_reads_structure_pcs_and_terminators() {
    let f = example("every_kind.wir");
    let b0 = &f.blocks[0];
    assert_eq!((b0.guest_pc, b0.guest_insts), (Some(0x100), 4));
    // `@pc` sets the pc, later instructions inherit it, the first defaults to 0.
    let pcs: Vec<u32> = b0.insts.iter().map(|i| i.pc).collect();
    assert_eq!(&pcs[..8], &[0, 0, 0, 0, 0, 0, 0x104, 0x104]);
    assert_eq!(pcs[10], 0x108);
    assert_eq!(pcs[17], 0x10c);
    let v = f.layout.file_by_name("v").unwrap();
    let s = f.layout.file_by_name("s").unwrap();
    assert_eq!(
        b0.insts[10].kind,
        InstKind::WriteReg {
            reg: Reg::new(v, 0),
            value: Value(7),
            mask: Some(Value(9))
        }
    );
    assert_eq!(b0.insts[10].ty, None);
    assert_eq!(
        b0.insts[13].kind,
        InstKind::ReadRegIndexed {
            file: v,
            base: 2,
            index: Value(0)
        }
    );
    assert_eq!(
        b0.insts[16].kind,
        InstKind::WriteRegIndexed {
            file: s,
            base: 1,
            index: Value(0),
            value: Value(15),
            mask: None
        }
    );
    assert_eq!(
        b0.term,
        Terminator::Branch {
            cond: Value(20),
            then_to: Block(1),
            else_to: Block(2)
        }
    );
    let b1 = &f.blocks[1];
    assert_eq!(
        b1.insts[5].kind,
        InstKind::Load {
            space: MemSpace::Global,
            width: MemWidth::B8,
            signed: true,
            addr: Value(0),
            mask: None
        }
    );
    assert_eq!(
        b1.insts[13].kind,
        InstKind::Atomic {
            op: AtomicOp::CmpXchg,
            space: MemSpace::Lds,
            width: MemWidth::B64,
            addr: Value(1),
            data: Value(11),
            cmp: Some(Value(11)),
            mask: None,
        }
    );
    assert_eq!(b1.term, Terminator::Barrier(Block(2)));
    assert_eq!(f.blocks[2].term, Terminator::JumpIndirect(Value(0)));
    assert_eq!(f.block_at(0x1000), Some(Block(3)));
    assert_eq!(
        f.blocks[4].term,
        Terminator::Trap(TrapKind::Explicit("explicit \"quoted\" message\n".into()))
    );
    assert_eq!(f.blocks[5].term, Terminator::Trap(TrapKind::BadJump));
    assert_eq!(f.blocks[6].term, Terminator::Trap(TrapKind::StackOverflow));
    assert_eq!(f.blocks[7].term, Terminator::Trap(TrapKind::StackUnderflow));
    assert_eq!(f.blocks[8].term, Terminator::Return);
}

/// The printer's exact output for a function built without the parser.
#[test]
fn printer_writes_the_documented_syntax() {
    let mut layout = StateLayout::new(64);
    let s = layout.add_file("s", FileKind::Uniform, 8);
    let v = layout.add_file("v", FileKind::Lane, 4);
    let inst = |kind, ty, pc| Inst { kind, ty, pc };
    let unused = Value(u32::MAX);
    let f = Function {
        name: "k\"1".into(),
        layout,
        blocks: vec![
            BlockData {
                guest_pc: Some(0x40),
                guest_insts: 2,
                insts: vec![
                    inst(
                        InstKind::ReadReg(Reg::new(s, 4)),
                        Some(Type::uniform(ScalarType::F32)),
                        0x40,
                    ),
                    inst(
                        InstKind::ReadReg(Reg::new(v, 1)),
                        Some(Type::lane(ScalarType::F32)),
                        0x40,
                    ),
                    inst(
                        InstKind::Pure {
                            op: Op::Fsin(Trans::Clamped, Angle::Turns),
                            mode: FloatMode {
                                flush_in: true,
                                flush_out: false,
                                round: Round::TowardZero,
                            },
                            args: [Value(1), unused, unused, unused],
                        },
                        Some(Type::lane(ScalarType::F32)),
                        0x44,
                    ),
                    inst(
                        InstKind::Const(0xbf80_0000),
                        Some(Type::uniform(ScalarType::F32)),
                        0x44,
                    ),
                    inst(
                        InstKind::Const(0xffff_ffff),
                        Some(Type::uniform(ScalarType::I32)),
                        0x44,
                    ),
                    inst(
                        InstKind::WriteReg {
                            reg: Reg::new(v, 2),
                            value: Value(2),
                            mask: None,
                        },
                        None,
                        0x44,
                    ),
                ],
                term: Terminator::Jump(Block(1)),
                term_pc: 0x44,
            },
            BlockData {
                guest_pc: None,
                guest_insts: 0,
                insts: vec![],
                term: Terminator::Return,
                term_pc: 0,
            },
        ],
    };
    let expected = "\
function \"k\\\"1\" wave 64 { uniform s[8], lane v[4] }

block0 @0x40 insts=2:
  %0 = read s[4] : f32 @0x40
  %1 = read v[1] : lane f32
  %2 = fsin.clamped.turns.flush_in.rtz %1 : lane f32 @0x44
  %3 = const 0xbf800000 : f32  ; -1.0
  %4 = const 0xffffffff : i32
  write v[2], %2
  jump block1

block1:
  return
";
    assert_eq!(print(&f), expected);
    assert_eq!(f.to_string(), expected, "Display is the same text");
    assert_eq!(parse(expected), Ok(f));
}
