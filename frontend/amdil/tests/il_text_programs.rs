//! Hand-written IL text programs in the seed's syntax (compute kernels with declarations,
//! literals, selects and masks, modifiers, every structured control-flow form, subroutines and
//! macros) parse, print back to the same canonical text, and encode and decode to the same
//! instructions; the seed's own token examples encode to the tokens it lists; the text
//! variants real IL uses read as their canonical forms.

mod il_common;

use il_common::bytes;
use il_common::programs::{CONTROL_FLOW, MACROS, PROGRAMS};
use wavejit_amdil::inst::Program;
use wavejit_amdil::table::op;
use wavejit_amdil::{decode, encode, parse, print};

fn parsed(name: &str, text: &str) -> Program {
    parse::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn programs_print_back_to_the_same_text() {
    for (name, text) in PROGRAMS {
        assert_eq!(print::print(&parsed(name, text)), text, "{name}");
    }
}

#[test]
fn programs_encode_and_decode_to_the_same_instructions() {
    for (name, text) in PROGRAMS {
        let p = parsed(name, text);
        let b = encode::encode(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(decode::decode(&b), Ok(p), "{name}");
    }
}

#[test]
fn programs_hold_what_the_text_says() {
    let p = parsed("control flow", CONTROL_FLOW);
    let count = |code: u16| p.code.iter().filter(|i| i.op == code).count();
    // One comment line; the prefix written as _prec(xy); one end.
    assert_eq!(
        (count(op::COMMENT), count(op::PREFIX), count(op::END)),
        (1, 1, 1)
    );
    assert_eq!(
        (count(op::CASE), count(op::DEFAULT), count(op::FUNC)),
        (2, 1, 2)
    );
    let case = p.code.iter().filter(|i| i.op == op::CASE).nth(1).unwrap();
    assert_eq!(case.extra, vec![u32::MAX]);
    let prefix = p.code.iter().find(|i| i.op == op::PREFIX).unwrap();
    assert_eq!(prefix.control, 0b0011);
    let m = parsed("macros", MACROS);
    assert_eq!(m.macros.len(), 11);
    assert_eq!(
        m.macros[0].extra,
        vec![0x0102],
        "mdef(0)_out(1)_in(2): in 7:0, out 15:8"
    );
    assert_eq!(m.macros[6].extra, vec![0x1_0102], "_outline is bit 16");
}

/// The mov of the seed's source examples, as tokens the seed lists field by field (2.2.8,
/// L694-L832): opcode MOV (71), destination r0, then the example's source tokens.
fn mov_r0(source: &[u32]) -> Vec<u32> {
    let mut w = vec![0, 0x0003_0200, 71, 0x0004_0000];
    w.extend(source);
    w.push(40);
    w
}

#[test]
fn the_seeds_source_examples_encode_as_listed() {
    // (text, tokens): ITEMP 30, CONST_BUFF 31, VERTEX 5, TEMP 4; modifier_present bit 22,
    // REG_RELATIVE 2 in 24:23, dimension bit 25, immediate_present bit 26.
    let examples: [(&str, Vec<u32>); 5] = [
        // Example 1, x5[6].y: IL_Src, IL_Src_Mod .y, IL_Literal 6.
        ("x5[6].y", vec![0x045e_0005, 0x1111, 6]),
        // Example 2, x5[r2.x+6].y.
        ("x5[r2.x+6].y", vec![0x055e_0005, 0x1111, 0x0044_0002, 0, 6]),
        // Example 3, v[1][2]: two VERTEX tokens, the first with dimension.
        ("vVertex[1][2]", vec![0x0205_0001, 0x0005_0002]),
        // Example 4, v[1][2].xyxx: the modifier follows the first token.
        ("vVertex[1][2].xyxx", vec![0x0245_0001, 0x0010, 0x0005_0002]),
        // Example 5, cb[r6.w+2][r2.x+4].y: nine tokens (r2's immediate_present read as 0).
        (
            "cb0[r6.w+2][r2.x+4].y",
            vec![
                0x075f_0000,
                0x1111,
                0x0044_0006,
                0x3333,
                2,
                0x0500_0000,
                0x0044_0002,
                0,
                4,
            ],
        ),
    ];
    for (operand, tokens) in examples {
        let text = format!("il_cs_2_0\nmov r0, {operand}\nend\n");
        let p = parsed(operand, &text);
        assert_eq!(
            encode::encode_words(&p).unwrap(),
            mov_r0(&tokens),
            "{operand}"
        );
        let back = decode::decode(&bytes(&mov_r0(&tokens))).unwrap();
        assert_eq!(print::print(&back), text, "{operand}");
    }
}

#[test]
fn hand_encoded_instructions_match() {
    // Each from the layouts of Chapter 2 and the entry's control field, computed here.
    let lines: [(&str, Vec<u32>); 6] = [
        // uav_raw_load: id 25:16, cached (1) 27:26 (L11449-L11450); r1.x___ has a mask token
        // (x = WRITE); r0.x a select token (all X = 0).
        (
            "uav_raw_load_id(11)_cached r1.x___, r0.x",
            vec![
                225 | (11 | 1 << 10) << 16,
                0x0044_0001,
                0b01,
                0x0044_0000,
                0,
            ],
        ),
        // ifc: relop in 18:16, lt = 5 (L3912, L13779).
        (
            "ifc_relop(lt) r6.x, l0.z",
            vec![52 | 5 << 16, 0x0044_0006, 0, 0x0060_0000, 0x2222],
        ),
        // fence: _threads 16, _lds 17 (L5319, L5335).
        ("fence_threads_lds", vec![218 | 0b11 << 16]),
        // dcl_num_thread_per_group: the control holds the number of dimensions (L4345).
        (
            "dcl_num_thread_per_group 64, 2, 1",
            vec![212 | 3 << 16, 64, 2, 1],
        ),
        // mul_ieee_sat: the IEEE control 1 (L8606); _sat is the destination's clamp bit 8.
        (
            "mul_ieee_sat r0, r1, l2",
            vec![
                73 | 1 << 16,
                0x0044_0000,
                0x55 | 1 << 8,
                0x0004_0001,
                0x0020_0002,
            ],
        ),
        // call: the label dword right after the opcode (L3488).
        ("call 1024", vec![8, 1024]),
    ];
    for (line, tokens) in lines {
        let insts = parse::parse_line(line).unwrap_or_else(|e| panic!("{line}: {e}"));
        let mut words = Vec::new();
        for i in &insts {
            encode::encode_inst(i, &mut words).unwrap();
        }
        assert_eq!(words, tokens, "{line}");
        let (back, next) = decode::decode_inst(&tokens, 0).unwrap();
        assert_eq!((vec![back], next), (insts, tokens.len()), "{line}");
    }
}

#[test]
fn text_variants_read_as_their_canonical_form() {
    let variants = "\
il_cs
; a comment before the first instruction
dcl_num_thread_per_group 64
mov r0.x, vaTid0.x
Dcl_literal l1, 1.0f, 2, -1, 0x10   ; after an instruction
INOT r1, r0
mov r2.xz, r1.xy // a dropped comment
mov r3.rgb1, r1.rgba
lds_read_add_resource(0) r3, r0.x, r1.x
dcl_resource_id(1)_type(2d,unnorm)_fmtx(float)_fmty(float)_fmtz(float)_fmtw(float)
add r0, r1_divComp(y), r2_bias_x2
  mcall(0), (r1), (r2)
end
; after end
";
    let canonical = "\
il_cs_2_0
; a comment before the first instruction
dcl_num_thread_per_group 64
mov r0.x___, vAbsTidFlat.x
dcl_literal l1, 0x3F800000, 0x00000002, 0xFFFFFFFF, 0x00000010
; after an instruction
inot r1, r0
mov r2.x_z_, r1.xyyy
mov r3.xyz1, r1.xyzw
lds_read_add_id(0) r3, r0.x, r1.x
dcl_resource_id(1)_type(2d)_unnorm_fmtx(float)_fmty(float)_fmtz(float)_fmtw(float)
add r0, r1_divcomp(y), r2_bx2
mcall(0) (r1), (r2)
end
";
    let p = parse::parse(variants).unwrap();
    assert_eq!(print::print(&p), canonical);
    assert_eq!(parse::parse(canonical).unwrap(), p);
}
