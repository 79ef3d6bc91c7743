//! Malformed text gives a `ParseError` at the offending token. Each case marks the expected
//! position with `¦` (removed before parsing), so the expected line:column is where the
//! author put the marker, not something the parser computed.

use wavejit_ir::text::{parse, ParseError};

const HEAD: &str = "function \"k\" wave 64 { uniform s[4], lane v[4] }\n";

/// Parses `src` with its `¦` marker removed; the error must be at the marker and mention `needle`.
fn fails_at(src: &str, needle: &str) {
    let (mut line, mut col) = (1u32, 1u32);
    let mut found = None;
    for c in src.chars() {
        if c == '¦' {
            found = Some((line, col));
            continue;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    let (line, col) = found.expect("case has a marker");
    let clean = src.replace('¦', "");
    match parse(&clean) {
        Ok(f) => panic!("parsed, expected {needle:?}:\n{clean}\n{f:?}"),
        Err(ParseError {
            line: l,
            col: c,
            msg,
        }) => {
            assert_eq!((l, c), (line, col), "{msg}\n{clean}");
            assert!(
                msg.contains(needle),
                "message {msg:?} lacks {needle:?}\n{clean}"
            );
        }
    }
}

fn in_block(body: &str) -> String {
    format!("{HEAD}block0:\n{body}\n  return\n")
}

#[test]
fn header_errors() {
    fails_at("¦", "expected `function`, found end of input");
    fails_at("¦func \"k\"", "expected `function`");
    fails_at("function ¦k wave 64 { }", "function name in quotes");
    fails_at("function \"k\" ¦waves 64 { }", "expected `wave`");
    fails_at("function \"k\" wave ¦-4 { }", "wave size");
    fails_at("function \"k\" wave ¦99999999999 { }", "below 2^32");
    fails_at("function \"k\" wave 64 { ¦vector v[4] }", "register file");
    fails_at(
        "function \"k\" wave 64 { lane v[4], uniform ¦v[2] }",
        "declared twice",
    );
    fails_at(
        "function \"k\" wave 64 { lane v[4] ¦lane w[2] }",
        "expected `,`",
    );
    fails_at(
        "function \"k\" wave 64 { lane ¦a.b[4] }",
        "cannot contain `.`",
    );
    fails_at("function ¦\"k", "unterminated string");
    fails_at("function \"k¦\\q\"", "unknown escape");
    fails_at("function \"k¦\\u{110000}\"", "malformed \\u{...}");
    fails_at("function \"k\" wave 64 { } ¦junk", "expected end of line");
}

#[test]
fn block_structure_errors() {
    fails_at(&format!("{HEAD}¦block1:\n  return\n"), "expected block0");
    fails_at(
        &format!("{HEAD}block0:\n  return\n¦block0:\n  return\n"),
        "expected block1",
    );
    fails_at(
        &format!("{HEAD}block0 @¦0x:\n  return\n"),
        "hex number without digits",
    );
    fails_at(
        &format!("{HEAD}block0 insts=¦many:\n  return\n"),
        "guest instruction count",
    );
    fails_at(&format!("{HEAD}block0¦\n  return\n"), "expected `:`");
    fails_at(
        &format!("{HEAD}block0:\n  %0 = read s[0] : i32\n¦"),
        "block0 has no terminator",
    );
    fails_at(
        &format!("{HEAD}block0:\n  %0 = read s[0] : i32\n¦block1:\n  return\n"),
        "block0 has no terminator",
    );
    fails_at(
        &format!("{HEAD}block0:\n  return\n  ¦%0 = read s[0] : i32\n"),
        "block header",
    );
    fails_at(
        &format!("{HEAD}block0:\n  jump ¦blk1\n"),
        "not a block name",
    );
    fails_at(
        &format!("{HEAD}block0:\n  br %0, block1¦\n"),
        "expected `,`",
    );
    fails_at(
        &format!("{HEAD}block0:\n  trap ¦overflow\n"),
        "expected `bad_jump`",
    );
    fails_at(
        &format!("{HEAD}block0:\n  return ¦block1\n"),
        "expected end of line",
    );
}

#[test]
fn instruction_errors() {
    fails_at(&in_block("  ¦%1 = read s[0] : i32"), "defines %0, not %1");
    fails_at(&in_block("  ¦%0 = read s[0]"), "needs a type");
    fails_at(&in_block("  ¦read s[0] : i32"), "needs a result");
    fails_at(
        &in_block("  %0 = ¦frobnicate %1 : i32"),
        "unknown instruction `frobnicate`",
    );
    fails_at(&in_block("  %0 = read ¦q[0] : i32"), "no register file `q`");
    fails_at(
        &in_block("  %0 = read s¦(0) : i32"),
        "unexpected character '('",
    );
    fails_at(&in_block("  %0 = read s[0 + ¦4] : i32"), "a value `%N`");
    fails_at(&in_block("  %0 = read s[0] : ¦u32"), "`u32` is not a type");
    fails_at(&in_block("  %0 = read s[0] : lane ¦"), "expected a type");
    fails_at(&in_block("  %0 = read s[0] : i32 @¦pc"), "guest pc");
    fails_at(
        &in_block("  %0 = read s[0] : i32 ¦%1"),
        "expected end of line",
    );
    fails_at(
        &in_block("  %0 = read s[0] : i32\n  write s[1], %0, mask¦"),
        "a value `%N`",
    );
    fails_at(
        &in_block("  %0 = read s[0] : i32\n  write s[1], %0 ¦mask %0"),
        "expected end of line",
    );
    fails_at(&in_block("  %0 = read.¦x s[0] : i32"), "takes no suffix");
    fails_at(&in_block("  %0 = ¦%"), "followed by a value number");
    fails_at(
        &in_block("  %0 = not ¦%99999999999 : i32"),
        "value number too large",
    );
    fails_at(&in_block("  %0 = ¦$ : i32"), "unexpected character '$'");
}

#[test]
fn op_suffix_and_operand_errors() {
    fails_at(
        &in_block("  %0 = fadd.¦fast %0, %0 : f32"),
        "unknown suffix `.fast` of fadd",
    );
    fails_at(
        &in_block("  %0 = ¦fmin %0, %0 : f32"),
        "fmin needs a NaN rule suffix",
    );
    fails_at(
        &in_block("  %0 = fmin.¦ieeee %0, %0 : f32"),
        "unknown NaN rule `ieeee`",
    );
    fails_at(
        &in_block("  %0 = icmp.¦lt %0, %0 : i1"),
        "unknown condition `lt`",
    );
    fails_at(&in_block("  %0 = ¦fsin.ieee %0 : f32"), "angle unit");
    fails_at(
        &in_block("  %0 = fadd.flush.¦flush_in %0, %0 : f32"),
        "only one of",
    );
    fails_at(
        &in_block("  %0 = fadd.rtz.¦rtp %0, %0 : f32"),
        "only one rounding",
    );
    fails_at(
        &in_block("  %0 = fclamp.flush.¦dx10 %0 : f32"),
        "unknown suffix `.dx10`",
    );
    fails_at(
        &in_block("  %0 = iadd %0 ¦: i32"),
        "iadd takes 2 operands, found 1",
    );
    fails_at(
        &in_block("  %0 = not %0, ¦%0 : i32"),
        "not takes 1 operands",
    );
    fails_at(&in_block("  %0 = iadd %0, ¦: i32"), "a value `%N`");
}

#[test]
fn memory_errors() {
    fails_at(&in_block("  %0 = ¦load.global %1 : i32"), "load.SPACE");
    fails_at(
        &in_block("  %0 = load.¦gds.u32 %1 : i32"),
        "unknown memory space `gds`",
    );
    fails_at(
        &in_block("  %0 = load.global.¦b32 %1 : i32"),
        "`uN` or `sN`",
    );
    fails_at(
        &in_block("  %0 = load.global.¦u24 %1 : i32"),
        "unknown access width",
    );
    fails_at(
        &in_block("  store.lds.¦u32 %1, %2"),
        "expected a width `bN`",
    );
    fails_at(
        &in_block("  %0 = atomic.¦nand.lds.b32 %1, %2 : i32"),
        "unknown atomic operation",
    );
    fails_at(
        &in_block("  %0 = ¦atomic.add.b32 %1, %2 : i32"),
        "atomic.OP.SPACE.bN",
    );
    fails_at(
        &in_block("  %0 = atomic.add.lds.b32 %1, %2, ¦cmpp %3 : i32"),
        "expected `cmp` or `mask`, found `cmpp`",
    );
    fails_at(
        &in_block("  %0 = atomic.cmpxchg.lds.b32 %1, %2, mask %3, ¦cmp %4 : i32"),
        "`cmp` repeated or out of order",
    );
    fails_at(
        &in_block("  store.lds.b32 %1, %2, ¦%3"),
        "expected a clause",
    );
    fails_at(
        &in_block("  store.lds.b32 %1, %2, mask %3, ¦mask %3"),
        "`mask` repeated",
    );
}

#[test]
fn constant_errors() {
    fails_at(&in_block("  %0 = const ¦1.5 : i32"), "needs a float type");
    fails_at(&in_block("  %0 = const ¦70000 : i16"), "does not fit i16");
    fails_at(&in_block("  %0 = const ¦-129 : i8"), "does not fit i8");
    fails_at(&in_block("  %0 = const ¦0.1 : f16"), "not exactly an f16");
    fails_at(&in_block("  %0 = const ¦-0x1 : i32"), "takes no sign");
    fails_at(
        &in_block("  %0 = const ¦0x10000000000000000 : i64"),
        "wider than 64 bits",
    );
    fails_at(
        &in_block("  %0 = const ¦1e : f32"),
        "exponent without digits",
    );
    fails_at(
        &in_block("  %0 = const 12¦ab : i32"),
        "unexpected character in number",
    );
    fails_at(
        &in_block("  %0 = const ¦- 1 : i32"),
        "`-` must start a number",
    );
    fails_at(&in_block("  %0 = const ¦s : i32"), "expected a constant");
}

/// Boundary values that must parse, as the documented literal rules say.
#[test]
fn constant_literal_boundaries() {
    use wavejit_ir::InstKind::Const;
    let konst = |lit: &str, ty: &str| {
        let f = parse(&in_block(&format!("  %0 = const {lit} : {ty}")))
            .unwrap_or_else(|e| panic!("{lit}: {e}"));
        match f.blocks[0].insts[0].kind {
            Const(b) => b,
            ref k => panic!("{k:?}"),
        }
    };
    assert_eq!(konst("-128", "i8"), 0x80);
    assert_eq!(konst("255", "i8"), 0xff);
    assert_eq!(konst("-1", "i1"), 1);
    assert_eq!(konst("18446744073709551615", "i64"), u64::MAX);
    assert_eq!(konst("-9223372036854775808", "i64"), 1 << 63);
    assert_eq!(konst("0.1", "f32"), u64::from(0.1f32.to_bits()));
    assert_eq!(konst("0.1", "f64"), 0.1f64.to_bits());
    assert_eq!(konst("-0.0", "f64"), (-0.0f64).to_bits());
    assert_eq!(
        konst("1e40", "f32"),
        u64::from(f32::INFINITY.to_bits()),
        "rounds to inf"
    );
    assert_eq!(konst("65504", "f16"), 0x7bff, "f16 max");
    assert_eq!(
        konst("0.000000059604644775390625", "f16"),
        0x0001,
        "smallest f16 denormal, exact"
    );
    assert_eq!(
        konst("0x8000", "i8"),
        0x8000,
        "hex bits are kept; the verifier rejects them"
    );
}
