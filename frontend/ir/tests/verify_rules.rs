//! Each verifier rule, one violation at a time: the error names the right place and says
//! what is wrong; the closest valid variant is accepted (so each rejection is about the rule,
//! not about something else in the snippet).

use wavejit_ir::text::parse;
use wavejit_ir::verify::{verify, Location, VerifyError};
use wavejit_ir::*;

/// A one-block function over `uniform s[16], lane v[8]` with `body` before `return`.
fn block(body: &str) -> String {
    format!("function \"t\" wave 64 {{ uniform s[16], lane v[8] }}\nblock0:\n{body}\n  return\n")
}

fn check(src: &str) -> Result<(), VerifyError> {
    verify(&parse(src).unwrap_or_else(|e| panic!("test text does not parse: {e}\n{src}")))
}

fn accepts(body: &str) {
    if let Err(e) = check(&block(body)) {
        panic!("rejected: {e}\n{body}");
    }
}

/// `body` is rejected at instruction `inst` of block0 with a message containing `needle`.
fn rejects(body: &str, inst: usize, needle: &str) {
    match check(&block(body)) {
        Ok(()) => panic!("accepted, expected {needle:?}:\n{body}"),
        Err(e) => {
            assert_eq!(e.loc, Location::Inst(Block(0), inst), "{e}\n{body}");
            assert!(
                e.msg.contains(needle),
                "message {:?} lacks {needle:?}",
                e.msg
            );
        }
    }
}

const I32S: &str = "  %0 = read s[0] : i32\n  %1 = read v[0] : lane i32\n";

#[test]
fn operands_are_earlier_values_of_the_block() {
    rejects("  %0 = not %0 : i32", 0, "not defined before");
    rejects(
        "  %0 = read s[0] : i32\n  %1 = iadd %0, %2 : i32\n  %2 = read s[1] : i32",
        1,
        "%2 is not defined",
    );
    rejects(
        "  %0 = read s[0] : i32\n  %1 = not %4000000000 : i32",
        1,
        "not defined",
    );
    rejects(
        "  %0 = read s[0] : i32\n  write s[1], %0\n  %2 = not %1 : i32",
        2,
        "%1 has no value",
    );
    accepts("  %0 = read s[0] : i32\n  write s[1], %0\n  %2 = not %0 : i32");
}

#[test]
fn result_types_exactly_when_a_value_is_produced() {
    rejects("  const 1", 0, "needs a result type");
    rejects("  read s[0]", 0, "needs a result type");
    rejects(
        "  %0 = read s[0] : i32\n  %1 = write s[1], %0 : i32",
        1,
        "has no result",
    );
    rejects(
        "  %0 = read s[0] : i64\n  %1 = store.global.b32 %0, %0 : i32",
        1,
        "has no result",
    );
}

#[test]
fn constants_are_uniform_and_fit_their_type() {
    rejects("  %0 = const 1 : lane i32", 0, "uniform");
    rejects("  %0 = const 0x100 : i8", 0, "does not fit i8");
    rejects("  %0 = const 0x2 : i1", 0, "does not fit i1");
    rejects("  %0 = const 0x1ffffffff : f32", 0, "does not fit f32");
    accepts("  %0 = const 0xff : i8\n  %1 = const 1 : i1\n  %2 = const 0xffffffffffffffff : f64");
}

#[test]
fn splat_lane_id_mask_from_bits() {
    rejects(
        &format!("{I32S}  %2 = splat %1 : lane i32"),
        2,
        "splat of lane value",
    );
    rejects(
        &format!("{I32S}  %2 = splat %0 : i32"),
        2,
        "must be lane i32",
    );
    rejects(
        &format!("{I32S}  %2 = splat %0 : lane i64"),
        2,
        "must be lane i32",
    );
    rejects("  %0 = lane_id : i32", 0, "lane i32");
    rejects(
        &format!("{I32S}  %2 = mask_from_bits %0 : lane i1"),
        2,
        "must be i64",
    );
    rejects(
        "  %0 = read s[0] : i64\n  %1 = mask_from_bits %0 : i1",
        1,
        "lane i1",
    );
    accepts(&format!(
        "{I32S}  %2 = splat %0 : lane i32
  %3 = lane_id : lane i32
  %4 = read s[2] : i64
  %5 = mask_from_bits %4 : lane i1"
    ));
}

#[test]
fn pure_ops_follow_op_check_and_shape_rules() {
    let mixed = "  %0 = read s[0] : i32\n  %1 = read s[2] : i64\n";
    rejects(
        &format!("{mixed}  %2 = iadd %0, %1 : i32"),
        2,
        "iadd: operands and result must be one integer type",
    );
    rejects(&format!("{I32S}  %2 = iadd %0, %0 : i64"), 2, "iadd");
    rejects(&format!("{I32S}  %2 = icmp.eq %0, %0 : i32"), 2, "icmp");
    rejects(
        &format!("{I32S}  %2 = iadd %0, %1 : i32"),
        2,
        "must be lane",
    );
    rejects(
        &format!("{I32S}  %2 = iadd %0, %0 : lane i32"),
        2,
        "must be uniform",
    );
    rejects(
        &format!("{I32S}  %2 = iadd.flush %0, %0 : i32"),
        2,
        "ignores its float mode",
    );
    rejects(&format!("{I32S}  %2 = fneg.rtz %0 : i32"), 2, "");
    accepts(&format!(
        "{I32S}  %2 = iadd %0, %1 : lane i32\n  %3 = utof.flush.rtz %0 : f32\n  %4 = fneg %3 : f32"
    ));
}

/// Argument slots past the op's arity are not operands: any value there is ignored.
#[test]
fn unused_pure_slots_are_ignored() {
    let mut f = parse(&block(&format!("{I32S}  %2 = not %0 : i32"))).unwrap();
    if let InstKind::Pure { ref mut args, .. } = f.blocks[0].insts[2].kind {
        args[1] = Value(2);
        args[2] = Value(7);
        args[3] = Value(0);
    }
    verify(&f).expect("slots beyond the arity are ignored");
}

#[test]
fn register_reads_and_writes() {
    rejects("  %0 = read v[0] : i32", 0, "lane file v holds lane values");
    rejects(
        "  %0 = read s[0] : lane i32",
        0,
        "uniform file s holds uniform values",
    );
    rejects("  %0 = read s[15] : i64", 0, "outside the file");
    rejects("  %0 = read s[16] : i32", 0, "outside the file");
    rejects(
        &format!("{I32S}  %2 = read s[1] : i1\n  write s[0], %0, mask %2"),
        3,
        "uniform instruction takes no mask",
    );
    rejects(&format!("{I32S}  write v[0], %0"), 2, "holds lane values");
    rejects(
        &format!("{I32S}  write s[0], %1"),
        2,
        "holds uniform values",
    );
    rejects(
        &format!("{I32S}  write v[0], %1, mask %1"),
        2,
        "mask %1 must be lane i1",
    );
    rejects(
        &format!("{I32S}  %2 = read s[0] : i64\n  write v[7], %2"),
        3,
        "holds lane values",
    );
    rejects(
        &format!("{I32S}  %2 = read v[0] : lane i64\n  write v[7], %2"),
        3,
        "outside the file",
    );
    accepts(&format!(
        "{I32S}  %2 = read v[6] : lane f64
  %3 = trunc %1 : lane i1
  write v[0], %1, mask %3
  write v[6], %2
  write s[15], %0"
    ));
}

#[test]
fn register_file_ids_must_exist() {
    let mut f = parse(&block("  %0 = read s[0] : i32")).unwrap();
    f.blocks[0].insts[0].kind = InstKind::ReadReg(Reg::new(FileId(2), 0));
    let e = verify(&f).unwrap_err();
    assert_eq!(e.loc, Location::Inst(Block(0), 0));
    assert!(e.msg.contains("file 2 does not exist"), "{e}");
    f.blocks[0].insts[0].kind = InstKind::ReadRegIndexed {
        file: FileId(9),
        base: 0,
        index: Value(0),
    };
    assert!(verify(&f).is_err());
}

#[test]
fn indexed_register_access() {
    let i64s = "  %0 = read s[0] : i64\n  %1 = read v[0] : lane i32\n";
    rejects(
        &format!("{i64s}  %2 = read s[0 + %0] : i32"),
        2,
        "index %0 must be i32",
    );
    rejects(
        &format!("{I32S}  %2 = read v[0 + %0] : i32"),
        2,
        "result must be lane",
    );
    rejects(
        &format!("{I32S}  %2 = read s[0 + %1] : i32"),
        2,
        "result must be lane",
    );
    rejects(
        &format!("{I32S}  %2 = read s[0 + %0] : lane i32"),
        2,
        "result must be uniform",
    );
    rejects(
        &format!("{I32S}  %2 = read v[8 + %0] : lane i32"),
        2,
        "outside the file",
    );
    rejects(
        &format!("{I32S}  %2 = read v[7 + %0] : lane i64"),
        2,
        "outside the file",
    );
    rejects(
        &format!("{I32S}  write s[0 + %1], %0"),
        2,
        "a per-lane index writes a uniform value",
    );
    rejects(
        &format!("{I32S}  write v[0 + %0], %0"),
        2,
        "holds lane values",
    );
    rejects(&format!("{I32S}  write s[0 + %0], %0, mask %0"), 2, "");
    accepts(&format!(
        "{I32S}  %2 = read v[7 + %0] : lane i32
  %3 = read v[0 + %1] : lane f64
  %4 = read s[1 + %1] : lane i32
  %5 = read s[3 + %0] : i64
  write v[1 + %1], %1
  write s[2 + %0], %0"
    ));
}

#[test]
fn memory_addresses_results_and_masks() {
    let a = "  %0 = read s[0] : i64
  %1 = read v[0] : lane i32
  %2 = read s[2] : i32
  %3 = read v[2] : lane i64
";
    rejects(
        &format!("{a}  %4 = load.global.u32 %2 : i32"),
        4,
        "Global address %2 must be i64",
    );
    rejects(
        &format!("{a}  %4 = load.lds.u32 %0 : i32"),
        4,
        "Lds address %0 must be i32",
    );
    rejects(
        &format!("{a}  %4 = load.private.u32 %2 : i32"),
        4,
        "must be lane-shaped",
    );
    rejects(
        &format!("{a}  %4 = load.global.u32 %0 : lane i32"),
        4,
        "result must be uniform",
    );
    rejects(
        &format!("{a}  %4 = load.global.u32 %3 : i32"),
        4,
        "result must be lane",
    );
    rejects(
        &format!("{a}  %4 = load.global.u16 %0 : i8"),
        4,
        "cannot hold a 16-bit load",
    );
    rejects(
        &format!("{a}  %4 = load.global.s32 %0 : f32"),
        4,
        "float load",
    );
    rejects(
        &format!("{a}  %4 = load.global.u16 %0 : f32"),
        4,
        "float load",
    );
    rejects(
        &format!(
            "{a}  %4 = read s[4] : i64
  %5 = mask_from_bits %4 : lane i1
  %6 = load.global.u8 %0, mask %5 : i32"
        ),
        6,
        "uniform instruction takes no mask",
    );
    rejects(
        &format!("{a}  %4 = trunc %2 : i8\n  store.global.b16 %0, %4"),
        5,
        "narrower than 16 bits",
    );
    rejects(
        &format!("{a}  %4 = trunc %1 : lane i1\n  store.global.b32 %0, %2, mask %4"),
        5,
        "takes no mask",
    );
    accepts(&format!(
        "{a}  %4 = trunc %1 : lane i1
  %5 = load.global.s8 %3, mask %4 : lane i64
  %6 = load.lds.u16 %2 : f16
  store.global.b32 %0, %1, mask %4
  store.lds.b8 %2, %3
  %9 = load.private.u64 %1 : lane f64
  store.private.b16 %1, %2"
    ));
}

#[test]
fn atomics() {
    let a = "  %0 = read s[0] : i64
  %1 = read v[0] : lane i32
  %2 = read s[2] : i32
  %3 = read s[3] : f32
  %4 = read v[2] : lane i64
";
    rejects(
        &format!("{a}  %5 = trunc %2 : i16\n  %6 = atomic.add.lds.b16 %2, %5 : i16"),
        6,
        "32 or 64 bits",
    );
    rejects(
        &format!("{a}  %5 = atomic.add.global.b64 %0, %2 : i32"),
        5,
        "64-bit integer",
    );
    rejects(
        &format!("{a}  %5 = atomic.fadd.global.b32 %0, %2 : i32"),
        5,
        "32-bit float",
    );
    rejects(
        &format!("{a}  %5 = atomic.add.global.b32 %0, %3 : f32"),
        5,
        "32-bit integer",
    );
    rejects(
        &format!("{a}  %5 = atomic.cmpxchg.global.b32 %0, %2 : i32"),
        5,
        "needs a compare value",
    );
    rejects(
        &format!("{a}  %5 = atomic.xchg.global.b32 %0, %2, cmp %2 : i32"),
        5,
        "only cmpxchg",
    );
    rejects(
        &format!("{a}  %5 = atomic.cmpxchg.global.b32 %0, %2, cmp %3 : i32"),
        5,
        "compare value %3 must be i32",
    );
    rejects(
        &format!("{a}  %5 = atomic.add.global.b32 %0, %1 : i32"),
        5,
        "must be lane i32",
    );
    rejects(
        &format!("{a}  %5 = atomic.cmpxchg.global.b32 %0, %2, cmp %1 : i32"),
        5,
        "must be lane i32",
    );
    rejects(
        &format!("{a}  %5 = atomic.add.global.b32 %0, %2 : i64"),
        5,
        "must be i32",
    );
    rejects(
        &format!("{a}  %5 = atomic.add.private.b32 %2, %2 : i32"),
        5,
        "lane-shaped",
    );
    rejects(
        &format!("{a}  %5 = trunc %1 : lane i1\n  %6 = atomic.add.lds.b32 %2, %2, mask %5 : i32"),
        6,
        "takes no mask",
    );
    accepts(&format!(
        "{a}  %5 = trunc %1 : lane i1
  %6 = atomic.add.lds.b32 %2, %1, mask %5 : lane i32
  %7 = atomic.cmpxchg.global.b32 %0, %2, cmp %1 : lane i32
  %8 = atomic.fmax.lds.b32 %1, %3 : lane f32
  %9 = atomic.umin.global.b64 %4, %4, mask %5 : lane i64
  %10 = atomic.inc.global.b32 %0, %2 : i32"
    ));
}

#[test]
fn cross_lane_operations() {
    let m = "  %0 = read s[0] : i32\n  %1 = read v[0] : lane i32\n  %2 = trunc %1 : lane i1\n";
    rejects(
        &format!("{m}  %3 = ballot %1 : i64"),
        3,
        "ballot operand %1 must be lane i1",
    );
    rejects(&format!("{m}  %3 = ballot %2 : lane i64"), 3, "must be i64");
    rejects(
        &format!("{m}  %3 = read_lane %0, %0 : i32"),
        3,
        "read_lane of uniform value",
    );
    rejects(
        &format!("{m}  %3 = read_lane %1, %1 : i32"),
        3,
        "lane number %1 must be i32",
    );
    rejects(
        &format!("{m}  %3 = read_lane %1, %0 : lane i32"),
        3,
        "must be i32",
    );
    rejects(
        &format!("{m}  %3 = shuffle %0, %1 : lane i32"),
        3,
        "shuffle of uniform value",
    );
    rejects(
        &format!("{m}  %3 = shuffle %1, %0 : lane i32"),
        3,
        "shuffle source %0 must be lane i32",
    );
    rejects(
        &format!("{m}  %3 = shuffle %2, %1 : lane i32"),
        3,
        "must be lane i1",
    );
    accepts(&format!(
        "{m}  %3 = ballot %2 : i64\n  %4 = read_lane %2, %0 : i1\n  %5 = shuffle %2, %1 : lane i1"
    ));
}

fn rejects_term(src: &str, block: u32, needle: &str) {
    let e = check(src).expect_err(needle);
    assert_eq!(e.loc, Location::Terminator(Block(block)), "{e}");
    assert!(
        e.msg.contains(needle),
        "message {:?} lacks {needle:?}",
        e.msg
    );
}

#[test]
fn terminators() {
    let head = "function \"t\" wave 64 { uniform s[4], lane v[4] }\n";
    rejects_term(
        &format!("{head}block0:\n  jump block1\n"),
        0,
        "target block1 does not exist",
    );
    rejects_term(
        &format!("{head}block0:\n  return\nblock1:\n  barrier block7\n"),
        1,
        "block7",
    );
    let b = "block0:
  %0 = read v[0] : lane i32
  %1 = trunc %0 : lane i1
  %2 = read s[0] : i32
  %3 = read s[0] : i64
";
    rejects_term(
        &format!("{head}{b}  br %1, block0, block0\n"),
        0,
        "branch condition %1 must be i1",
    );
    rejects_term(
        &format!("{head}{b}  br %2, block0, block0\n"),
        0,
        "must be i1",
    );
    rejects_term(
        &format!("{head}{b}  br %9, block0, block0\n"),
        0,
        "%9 is not defined",
    );
    rejects_term(
        &format!("{head}{b}  jump_indirect %2\n"),
        0,
        "jump target %2 must be i64",
    );
    rejects_term(
        &format!("{head}{b}  %4 = trunc %2 : i1\n  br %4, block0, block1\n"),
        0,
        "block1",
    );
    check(&format!(
        "{head}{b}  %4 = trunc %2 : i1\n  br %4, block0, block1\nblock1:\n  jump_indirect %0\n"
    ))
    .expect_err("lane target");
    check(&format!(
        "{head}{b}  %4 = trunc %2 : i1
  br %4, block0, block1
block1 @0x10:
  %0 = const 16 : i64
  jump_indirect %0
"
    ))
    .expect("valid");
}

#[test]
fn function_level_rules() {
    let e = check("function \"t\" wave 64 { uniform s[4] }\n").unwrap_err();
    assert_eq!(
        (e.loc, e.msg.contains("at least one block")),
        (Location::Function, true),
        "{e}"
    );
    for wave in [0, 2, 6, 68, 128] {
        let e = check(&format!(
            "function \"t\" wave {wave} {{ }}\nblock0:\n  return\n"
        ))
        .unwrap_err();
        assert!(e.msg.contains("wave size"), "{wave}: {e}");
    }
    check("function \"t\" wave 4 { }\nblock0:\n  return\n").expect("wave 4 without files");
    // 16 MiB is the limit: 65536 lane registers of wave64 (4 bytes per lane) are exactly that.
    check("function \"t\" wave 64 { lane v[65536] }\nblock0:\n  return\n").expect("16 MiB");
    let e = check("function \"t\" wave 64 { lane v[65537] }\nblock0:\n  return\n").unwrap_err();
    assert!(e.msg.contains("exceeds"), "{e}");
    let e = check(
        "function \"t\" wave 64 { uniform s[4294967295], uniform t[4294967295] }
block0:
  return
",
    )
    .unwrap_err();
    assert!(e.msg.contains("exceeds"), "{e}");
    let e = check(
        "function \"t\" wave 64 { }\nblock0 @0x10:\n  jump block1\nblock1 @0x10:\n  return\n",
    )
    .unwrap_err();
    assert_eq!(e.loc, Location::Block(Block(1)));
    assert!(e.msg.contains("0x10 already starts block0"), "{e}");
    assert_eq!(e.to_string(), "block1: guest pc 0x10 already starts block0");
}

#[test]
fn register_file_names_are_unique_identifiers() {
    let mut f =
        parse("function \"t\" wave 64 { uniform s[4], lane v[4] }\nblock0:\n  return\n").unwrap();
    verify(&f).expect("valid");
    for bad in ["", "1v", "v.x", "v x", "s"] {
        f.layout.files[1].name = bad.to_string();
        let e = verify(&f).expect_err(bad);
        assert_eq!(e.loc, Location::Function);
    }
    f.layout.files[1].name = "_v1".into();
    verify(&f).expect("identifier");
}

#[test]
fn errors_display_their_location() {
    let e = check(&block(&format!("{I32S}  %2 = iadd %0, %1 : i32"))).unwrap_err();
    assert_eq!(
        e.to_string(),
        "block0 inst 2: result must be lane like its operands"
    );
}
