//! Every spelling of the syntax assembles to the value ctm_instructions.tsv gives it (the
//! expected values are written out here from the tsv, not read from the tables), programs
//! with labels and comments, and one-line errors with line numbers.

use wavejit_r5xx::encode::encode;
use wavejit_r5xx::parse::{parse_inst, parse_program};
use wavejit_r5xx::print::{print_inst, print_program};
use wavejit_r5xx::table::fields as f;
use wavejit_r5xx::table::Field;

/// The words of `line`, which must print back to itself.
fn words(line: &str) -> [u32; 6] {
    let inst = parse_inst(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    let back = parse_inst(&print_inst(&inst)).unwrap();
    assert_eq!(back, inst, "{line}");
    encode(&inst)
}

fn check_values(field: Field, template: &str, spellings: &[(&str, u32)]) {
    for (s, v) in spellings {
        let line = template.replace("{}", s);
        assert_eq!(field.get(&words(&line)), *v, "{line}");
    }
}

#[test]
fn rgb_ops_assemble_to_their_values() {
    let ops = [
        ("mad", 0),
        ("dp3", 1),
        ("dp4", 2),
        ("d2a", 3),
        ("min", 4),
        ("max", 5),
        ("op6", 6),
        ("cnd", 7),
        ("cmp", 8),
        ("frc", 9),
        ("sop", 10),
        ("mdh", 11),
        ("mdv", 12),
        ("op13", 13),
        ("op14", 14),
        ("op15", 15),
    ];
    check_values(f::RGB_OP, "alu r0.rgb = {} src0.rgb", &ops);
}

#[test]
fn alpha_ops_assemble_to_their_values() {
    let ops = [
        ("mad", 0),
        ("dp", 1),
        ("min", 2),
        ("max", 3),
        ("op4", 4),
        ("cnd", 5),
        ("cmp", 6),
        ("frc", 7),
        ("ex2", 8),
        ("ln2", 9),
        ("rcp", 10),
        ("rsq", 11),
        ("sin", 12),
        ("cos", 13),
        ("mdh", 14),
        ("mdv", 15),
    ];
    check_values(f::ALPHA_OP, "alu _ = mad ; r0.a = {} src0.a", &ops);
}

#[test]
fn tex_and_fc_ops_assemble_to_their_values() {
    let tex = [
        ("nop", 0),
        ("ld", 1),
        ("texkill", 2),
        ("proj", 3),
        ("lodbias", 4),
        ("lod", 5),
        ("dxdy", 6),
        ("op7", 7),
    ];
    check_values(f::TEX_INST, "tex r1.rgba = {} t2, r0.rgba", &tex);
    let fc = [
        ("jump", 0),
        ("loop", 1),
        ("endloop", 2),
        ("rep", 3),
        ("endrep", 4),
        ("breakloop", 5),
        ("breakrep", 6),
        ("continue", 7),
    ];
    check_values(f::FC_OP, "fc {} 3", &fc);
    let bops = [("none", 0), ("decr", 1), ("incr", 2), ("bop3", 3)];
    check_values(f::FC_B_OP0, "fc jump 0 [b_op0={}]", &bops);
    check_values(f::FC_B_OP1, "fc jump 0 [b_op1={}]", &bops);
    let aops = [("none", 0), ("pop", 1), ("push", 2), ("aop3", 3)];
    check_values(f::FC_A_OP, "fc jump 0 [a_op={}]", &aops);
}

#[test]
fn fc_flags_land_in_their_fields() {
    let w = words(
        "fc endrep 511 [func=0xa5, any, else, pop_cnt=31, bool=7, int=0x1f, global, \
         ignore_uncovered]",
    );
    // FC_INST: OP 4 [2:0], B_ELSE [4], JUMP_ANY [5], JUMP_FUNC [15:8], B_POP_CNT [20:16],
    // IGNORE_UNCOVERED [28]; FC_ADDR: BOOL [4:0], INT [12:8], JUMP_ADDR [24:16], GLOBAL [31].
    assert_eq!(w[2], 4 | 1 << 4 | 1 << 5 | 0xa5 << 8 | 31 << 16 | 1 << 28);
    assert_eq!(w[3], 7 | 31 << 8 | 511 << 16 | 1 << 31);
    assert_eq!(w[0], 2);
}

#[test]
fn common_flags_land_in_their_bits() {
    // US_CMN_INST: TEX_SEM_WAIT [2], WRITE_INACTIVE [7], LAST [8], NOP [9], ALU_WAIT [10],
    // ALU_RESULT_SEL [21], ALU_RESULT_OP [24:23], STAT_WE [31:28]; ALU_WMASK is word 3 [31].
    let w = words(
        "alu _ = mad [sem_wait, alu_wait, nop, last, write_inactive, alu_result, \
         result_sel=a, result_op=ge, stat_we=0xf]",
    );
    assert_eq!(
        w[0],
        1 << 2 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 21 | 2 << 23 | 0xf << 28
    );
    assert_eq!(w[3] >> 31, 1);
    let w = words(
        "tex _ = nop t0, r0.rrrr [rgb_pred=gggg, rgb_pred_inv, alpha_pred=bbbb, \
         alpha_pred_inv, rgb_omask=0x5, alpha_omask, rgb_clamp, alpha_clamp, acquire, unscaled, \
         ignore_uncovered, unused1=0xf000ffff, unused4=1, unused5=0x80000000]",
    );
    assert_eq!(
        w[0],
        3 | 3 << 3 | 1 << 6 | 4 << 25 | 1 << 22 | 5 << 15 | 1 << 18 | 3 << 19
    );
    // TEX_INST: ACQUIRE [25], IGNORE_UNCOVERED [26], UNSCALED [27]; the rest unused bits;
    // the result swizzle defaults to r g b a (0xe4 at [31:24] of TEX_ADDR).
    assert_eq!(w[1], 7 << 25 | 0xf000_ffff);
    assert_eq!(w[2], 0xe4 << 24);
    assert_eq!((w[4], w[5]), (1, 0x8000_0000));
}

#[test]
fn selects_swizzles_modifiers_omods_presubs_and_predicates() {
    // RGB input A at ALU_RGB_INST [12:0]: SEL [1:0], swizzles [4:2] [7:5] [10:8], MOD [12:11].
    let w = words("alu _ = frc -|srcp.0h1|");
    assert_eq!(w[3] & 0x1fff, 3 | 4 << 2 | 5 << 5 | 6 << 8 | 3 << 11);
    let w = words("alu _ = frc |src2.ab_|");
    assert_eq!(w[3] & 0x1fff, 2 | 3 << 2 | 2 << 5 | 7 << 8 | 2 << 11);
    // One letter replicates.
    assert_eq!(
        words("alu _ = frc src1.h")[3] & 0x1fff,
        1 | 5 << 2 | 5 << 5 | 5 << 8
    );
    let w = words("alu _ = frc -src1.rgb");
    assert_eq!(w[3] & 0x1fff, 1 | 1 << 5 | 2 << 8 | 1 << 11);
    let omods = [
        ("x1", 0),
        ("x2", 1),
        ("x4", 2),
        ("x8", 3),
        ("d2", 4),
        ("d4", 5),
        ("d8", 6),
        ("disable", 7),
    ];
    check_values(f::RGB_OMOD, "alu _ = mad.{}", &omods);
    check_values(f::ALPHA_OMOD, "alu _ = mad ; _ = mad.{}", &omods);
    let presubs = [("bias", 0), ("sub", 1), ("add", 2), ("inv", 3)];
    check_values(f::RGB_SRCP_OP, "alu _ = mad {srcp.rgb = {}}", &presubs);
    check_values(f::ALPHA_SRCP_OP, "alu _ = mad {srcp.a = {}}", &presubs);
    let preds = [
        ("none", 0),
        ("rgba", 1),
        ("rrrr", 2),
        ("gggg", 3),
        ("bbbb", 4),
        ("aaaa", 5),
        ("sel6", 6),
        ("sel7", 7),
    ];
    check_values(f::RGB_PRED_SEL, "alu (p.{}) _ = mad", &preds);
    check_values(f::ALPHA_PRED_SEL, "alu _ = mad ; (!p.{}) _ = mad", &preds);
    let cmps = [("eq", 0), ("lt", 1), ("ge", 2), ("ne", 3)];
    check_values(f::RGB_TARGET, "alu p.r({}) = mad", &cmps);
    check_values(f::ALPHA_TARGET, "alu _ = mad ; p.a({}) = mad", &cmps);
    check_values(f::ALU_RESULT_OP, "alu _ = mad [result_op={}]", &cmps);
    let targets = [("o0", 0), ("o1", 1), ("o2", 2), ("o3", 3)];
    check_values(f::RGB_TARGET, "out {}.rgb = mad", &targets);
}

#[test]
fn sources_and_inline_constants() {
    // ADDR [7:0], CONST [8], REL [9] per source; inline = ADDR[7] set, value bits [6:0] with
    // exponent [6:3] (bias 7) and mantissa [2:0].
    let cases = [
        ("r0", 0),
        ("r127+aL", 127 | 1 << 9),
        ("c0", 1 << 8),
        ("c255", 255 | 1 << 8),
        ("c128+aL", 128 | 1 << 8 | 1 << 9),
        ("_", 0x80),
        ("1", 0x80 | 7 << 3),
        ("480", 0x80 | 15 << 3 | 7),
        ("0.0009765625", 0x80),
        ("0.001953125", 0x80 | 1),
        ("0.375", 0x80 | 5 << 3 | 4),
        ("lit(127)", 0xff),
        ("lit(0x5)+aL", 0x85 | 1 << 9),
    ];
    for (s, v) in cases {
        let w = words(&format!("alu _ = mad {{src1.rgb = {s}, src2.a = {s}}}"));
        assert_eq!(w[1] >> 10 & 0x3ff, v, "{s}");
        assert_eq!(w[2] >> 20 & 0x3ff, v, "{s}");
        assert_eq!(w[1] & 0x3ff, 0x80, "unused src0 is inline 0");
    }
}

#[test]
fn tex_operands() {
    let w = words("tex r9+aL.ra = dxdy t15.abgr, r3+aL.bbaa, r1.rgba, r2+aL.abgr");
    // CMN: TEX, RGB_WMASK r [13:11], ALPHA_WMASK [14].
    assert_eq!(w[0], 3 | 1 << 11 | 1 << 14);
    // TEX_INST: TEX_ID 15 [19:16], INST 6 [24:22].
    assert_eq!(w[1], 15 << 16 | 6 << 22);
    // TEX_ADDR: SRC 3 rel, swizzles b b a a; DST 9 rel, swizzles a b g r.
    assert_eq!(
        w[2],
        3 | 1 << 7 | 0xfa << 8 | (9 | 1 << 7) << 16 | 0x1b << 24
    );
    // TEX_ADDR_DXDY: DX 1 r g b a, DY 2 rel a b g r.
    assert_eq!(w[3], 1 | 0xe4 << 8 | (2 | 1 << 7) << 16 | 0x1b << 24);
}

#[test]
fn programs_take_labels_comments_and_blank_lines() {
    let text = "\
# a loop of one ALU slot, then the output
        fc   loop end [int=1]      # slot 0
top:    alu  r0.r = mad src0.r, src0.r, src0.r {src0 = r0}
        fc   endloop top [any]
end:
        out  o0.rgb = max.disable src0.rgb, src0.rgb {src0 = r0} [sem_wait, last]
";
    let p = parse_program(text).unwrap();
    assert_eq!(p.len(), 4);
    let w: Vec<[u32; 6]> = p.iter().map(encode).collect();
    // JUMP_ADDR [24:16] of FC_ADDR: `end` is slot 3, `top` slot 1.
    assert_eq!(w[0][3], 3 << 16 | 1 << 8);
    assert_eq!(w[2][3], 1 << 16);
    assert_eq!(w[2][2], 2 | 1 << 5);
    // Printed, the program reads back to the same slots (targets as numbers).
    let printed = print_program(&p);
    assert_eq!(printed.lines().count(), 4);
    assert!(printed
        .lines()
        .nth(2)
        .unwrap()
        .starts_with("fc   endloop 1"));
    assert_eq!(parse_program(&printed).unwrap(), p);
}

#[test]
fn errors_are_one_line_with_the_line_number() {
    let cases = [
        (
            "alu _ = mad\nfrob _ = mad",
            "line 2: unknown slot type (alu, out, tex, fc) `frob`",
        ),
        (
            "\n\nalu r0.rgb = mud src0.rgb",
            "line 3: unknown RGB op `mud`",
        ),
        ("alu _ = mad ; _ = dp3", "line 1: unknown alpha op `dp3`"),
        (
            "alu r128.r = mad",
            "line 1: temporary 128 is out of range (0-127)",
        ),
        (
            "alu _ = mad {src0 = c256}",
            "line 1: constant 256 is out of range (0-255)",
        ),
        (
            "alu _ = mad {src0 = 0.3}",
            "line 1: 0.3 is not an inline constant (4-bit exponent, 3-bit mantissa)",
        ),
        (
            "alu _ = mad {src0 = lit(128)}",
            "line 1: lit(128): an inline constant is 7 bits",
        ),
        (
            "alu r0.gr = mad",
            "line 1: mask `gr`: letters of `rgb` in order",
        ),
        (
            "alu o0.r = mad",
            "line 1: destination `o0`: expected rN or p",
        ),
        (
            "out p.r(eq) = mad",
            "line 1: destination `p`: expected rN or oN",
        ),
        (
            "alu r0.r, r1.g = mad",
            "line 1: two temporary destinations in one half",
        ),
        (
            "alu _ = mad src0.rg",
            "line 1: RGB swizzle `rg`: three letters of r g b a 0 h 1 _, or one replicated",
        ),
        (
            "alu _ = mad ; _ = mad src0.rg",
            "line 1: alpha swizzle `rg`: one letter of r g b a 0 h 1 _",
        ),
        ("alu _ = mad src0.rgx", "line 1: unknown swizzle `rgx`"),
        (
            "alu _ = mad src0.r, src0.r, src0.r, src0.r",
            "line 1: more than three inputs",
        ),
        (
            "alu _ = mad src3.rgb",
            "line 1: input `src3`: expected src0-src2, srcp, rN, cN, an inline constant, lit(n) or _",
        ),
        (
            "alu _ = mad.x3",
            "line 1: unknown op suffix (sat or an omod) `x3`",
        ),
        (
            "alu (p.xyzw) _ = mad",
            "line 1: unknown predicate select `xyzw`",
        ),
        (
            "alu _ = mad [last",
            "line 1: the flags need a closing `]` at the end of the line",
        ),
        (
            "alu _ = mad [func=1]",
            "line 1: `func` is not a flag of a alu slot",
        ),
        (
            "fc jump 0 [pop_cnt=32]",
            "line 1: pop_cnt=32 does not fit in 5 bits",
        ),
        (
            "fc jump 0 [b_op0=up]",
            "line 1: unknown value `up` of flag `b_op0`",
        ),
        ("fc jump 0 [any, any]", "line 1: flag `any` given twice"),
        (
            "fc jump 0 [bool]",
            "line 1: flag `bool` needs a value (`bool=...`)",
        ),
        (
            "fc jump 512",
            "line 1: jump target 512 is past the 512-slot instruction memory",
        ),
        ("fc jump nowhere", "line 1: unknown label `nowhere`"),
        ("a:\na: fc jump a", "line 2: label `a` defined twice"),
        (
            "tex r0.rgba = ld t16, r0.rgba",
            "line 1: TEX_ID 16 is out of range (0-15)",
        ),
        (
            "tex r0.rgba = ld t0, r0.rgb",
            "line 1: TEX swizzle `rgb` needs 4 letters of r g b a",
        ),
        (
            "tex r0.rgba = ld t0, c0.rgba",
            "line 1: TEX operand `c0`: expected rN",
        ),
        (
            "tex r0.rgba = ld t0",
            "line 1: expected `,` at `end of line`",
        ),
        (
            "tex r0.rgba = ld t0, r0.rgba junk",
            "line 1: unexpected `junk`",
        ),
        (
            "tex _ = nop t0, r0.rrrr [unused1=0x10000]",
            "line 1: unused1=0x10000 sets bits 0x10000, which are fields",
        ),
    ];
    for (text, msg) in cases {
        let e = parse_program(text).unwrap_err();
        assert_eq!(e.to_string(), msg, "{text}");
        assert!(!e.to_string().contains('\n'));
    }
    let slots = "alu _ = mad\n".repeat(513);
    assert_eq!(
        parse_program(&slots).unwrap_err().to_string(),
        "line 513: more than 512 slots"
    );
}

/// The example listing of the syntax's documentation (print.rs) assembles, and prints back
/// to lines that assemble to the same slots.
#[test]
fn the_documented_example_assembles() {
    let src = include_str!("../src/print.rs");
    let example: String = src
        .lines()
        .skip_while(|l| *l != "//! ```text")
        .skip(1)
        .take_while(|l| *l != "//! ```")
        .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
        .collect();
    assert_eq!(example.lines().count(), 8);
    let p = parse_program(&example).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.len(), 6);
    assert_eq!(parse_program(&print_program(&p)).unwrap(), p);
    // `fc jump top`: top is slot 0.
    assert_eq!(encode(&p[5])[3] >> 16 & 0x1ff, 0);
}

/// Registers written directly as inputs go to source slots by the documented rule (the
/// first slot holding the register in the units its swizzle reads, else the first free one,
/// inputs in the order RGB A, B, C, alpha A, B, C, after the sources in braces): each line
/// assembles to the words of its explicit form, worked out by hand from that rule.
#[test]
fn register_inputs_take_source_slots() {
    let cases = [
        (
            "alu r1.rgb = mad r2.rgb, c0.rrr, 0.5 ; r1.a = rcp r3.a",
            "alu r1.rgb = mad src0.rgb, src1.rrr, src2.rgb ; r1.a = rcp src0.a \
             {src0.rgb = r2, src0.a = r3, src1.rgb = c0, src2.rgb = 0.5}",
        ),
        (
            "alu r1.rgb = mad r2, r2.bbb, r2.a ; r1.a = mad r2.a, r2.r, c1",
            "alu r1.rgb = mad src0.rgb, src0.bbb, src0.aaa ; r1.a = mad src0.a, src0.r, src1.a \
             {src0 = r2, src1.a = c1}",
        ),
        (
            "alu r1.rgb = mad src0.rgb, r5.rgb, -|r6+aL.g01| {src0 = c3}",
            "alu r1.rgb = mad src0.rgb, src1.rgb, -|src2.g01| {src0 = c3, src1.rgb = r5, \
             src2.rgb = r6+aL}",
        ),
        (
            "out o0.rgb = max.disable -r7.rgb, 1.0.rrr ; o0.a = max.disable r7.a, 0.5",
            "out o0.rgb = max.disable -src0.rgb, src1.rrr ; o0.a = max.disable src0.a, src1.a \
             {src0 = r7, src1.rgb = 1, src1.a = 0.5}",
        ),
    ];
    for (short, explicit) in cases {
        let a = parse_inst(short).unwrap_or_else(|e| panic!("{short}: {e}"));
        let b = parse_inst(explicit).unwrap_or_else(|e| panic!("{explicit}: {e}"));
        assert_eq!(encode(&a), encode(&b), "{short}");
    }
    let e = parse_inst("alu r1.rgb = mad r1, r2, r3 ; r1.a = mad r4.r").unwrap_err();
    assert_eq!(e.to_string(), "line 1: no source slot left for `r4`");
    let e = parse_inst("alu r1.rgb = mad r1, r2, r3 {src0.rgb = c0}").unwrap_err();
    assert_eq!(e.to_string(), "line 1: no source slot left for `r3`");
}
