//! What the lifter refuses: each refusal is a one-line error of the right kind that names the
//! instruction (printed as IL text) and its byte offset in the token stream.

use wavejit_amdil::lift::{lift, LiftError, LiftErrorKind};

fn refusal(text: &str) -> LiftError {
    let p = wavejit_amdil::parse::parse(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    let e = lift(&p, "t")
        .err()
        .unwrap_or_else(|| panic!("{text}\nlifted"));
    assert!(!e.to_string().contains('\n'), "one line: {e}");
    e
}

/// `text` wrapped as a compute program.
fn cs(body: &str) -> String {
    format!("il_cs_2_0\n{body}end\n")
}

fn assert_refused(body: &str, kind: LiftErrorKind, has: &[&str]) {
    let e = refusal(&cs(body));
    assert_eq!(e.kind, kind, "{e}");
    let s = e.to_string();
    for h in has {
        assert!(s.contains(h), "{s:?} lacks {h:?}");
    }
}

#[test]
fn instructions_not_lifted_yet_are_named() {
    use LiftErrorKind::Unsupported;
    assert_refused(
        "clg r0, r1\n",
        Unsupported,
        &["`clg r0, r1`", "IL_OP_CLG: no Chapter 7 entry"],
    );
    assert_refused("d_class r0.x___, r1, r2\n", Unsupported, &["IL_OP_D_CLASS"]);
    assert_refused(
        "kill r0.x\n",
        Unsupported,
        &["IL_OP_KILL: a graphics instruction"],
    );
    assert_refused(
        "mov r0, vPrimIndex\n",
        Unsupported,
        &["vPrimIndex registers are not lifted"],
    );
    assert_refused(
        "mova a0, r1\n",
        Unsupported,
        &["IL_OP_MOVA: no entry in the seed"],
    );
    assert_refused(
        "mov r0, a0\n",
        Unsupported,
        &["a0: only IL_Rel_Addr tokens read it"],
    );
    assert_refused(
        "mov r0, vVertex1[2]\n",
        Unsupported,
        &["vVertex registers are not lifted"],
    );
}

#[test]
fn the_offset_is_the_instructions_place_in_the_token_stream() {
    // Language and version tokens, then `mov r0, r1` (opcode, dst, src: 3 dwords), then clg.
    let e = refusal(&cs("mov r0, r1\nclg r0, r1\n"));
    assert_eq!(e.pc, 4 * (2 + 3));
    assert!(e.to_string().starts_with("offset 0x14: "), "{e}");
}

#[test]
fn other_shader_types_are_refused() {
    let e = refusal("il_vs_2_0\nmov r0, r1\nend\n");
    assert_eq!(e.kind, LiftErrorKind::Unsupported);
    assert!(e.to_string().contains("an il_vs program"), "{e}");
}

#[test]
fn unbalanced_blocks_are_invalid() {
    use LiftErrorKind::Invalid;
    assert_refused("endif\n", Invalid, &["`endif`", "endif without an open if"]);
    assert_refused(
        "if_logicalnz r0.x\n",
        Invalid,
        &["`end`", "main ends inside"],
    );
    assert_refused(
        "whileloop\nif_logicalz r0.x\nendloop\nendif\n",
        Invalid,
        &["endloop"],
    );
    assert_refused(
        "if_logicalz r0.x\nelse\nelse\nendif\n",
        Invalid,
        &["a second else"],
    );
    assert_refused("break\n", Invalid, &["break outside a loop or switch"]);
    assert_refused(
        "switch r0.x\ncontinue\nendswitch\n",
        Invalid,
        &["continue outside a loop"],
    );
    assert_refused(
        "switch r0.x\ndefault\ndefault\nendswitch\n",
        Invalid,
        &["a second default"],
    );
    assert_refused(
        "switch r0.x\ncase 1\ncase 1\nendswitch\n",
        Invalid,
        &["a case value twice"],
    );
    assert_refused("case 1\n", Invalid, &["case outside a switch"]);
    assert_refused(
        "whileloop\nendmain\nendloop\n",
        Invalid,
        &["`endmain`", "main ends inside"],
    );
}

/// A program's shape around its functions (7.4): func blocks only after endmain, each closed
/// by its own endfunc, unique labels, calls to defined functions only.
#[test]
fn functions_are_balanced_and_called_by_label() {
    use LiftErrorKind::Invalid;
    let e = refusal("il_cs_2_0\ncall 7\nendmain\nfunc 1\nendfunc\nend\n");
    assert_eq!(e.kind, Invalid);
    assert!(
        e.to_string().contains("call to undefined function 7"),
        "{e}"
    );
    assert!(e.to_string().contains("`call 7`"), "{e}");
    assert_refused("call 7\n", Invalid, &["call to undefined function 7"]);
    assert_refused(
        "endmain\nfunc 1\nmov r0, r1\n",
        Invalid,
        &["`end`", "a function without endfunc"],
    );
    assert_refused(
        "endmain\nfunc 1\nendfunc\nendfunc\n",
        Invalid,
        &["endfunc without func"],
    );
    assert_refused("endfunc\nendmain\n", Invalid, &["endfunc without func"]);
    assert_refused(
        "func 1\nendfunc\nendmain\n",
        Invalid,
        &["func before endmain"],
    );
    assert_refused(
        "endmain\nfunc 1\nendmain\nendfunc\n",
        Invalid,
        &["endmain inside a function"],
    );
    assert_refused(
        "endmain\nfunc 1\nfunc 2\nendfunc\nendfunc\n",
        Invalid,
        &["func inside a function"],
    );
    assert_refused(
        "endmain\nfunc 1\nendfunc\nfunc 1\nendfunc\n",
        Invalid,
        &["a second func 1"],
    );
    assert_refused(
        "endmain\nmov r0, r1\nfunc 1\nendfunc\n",
        Invalid,
        &["`mov r0, r1`", "only func blocks and end follow endmain"],
    );
    // A function's break has no loop of the caller's to leave.
    assert_refused(
        "whileloop\ncall 1\nendloop\nendmain\nfunc 1\nbreak\nendfunc\n",
        Invalid,
        &["`break`", "break outside a loop or switch"],
    );
    assert_refused(
        "endmain\nfunc 1\nwhileloop\nendfunc\n",
        Invalid,
        &["`endfunc`", "the function ends inside"],
    );
    assert_refused(
        "endmain\nfunc 1\ncall 2\nendfunc\n",
        Invalid,
        &["call to undefined function 2"],
    );
}

/// Macros (7.19): defined once, called with their counts of outputs and inputs, temps or
/// literals as actual parameters, never through themselves; each body balanced on its own.
#[test]
fn macros_are_defined_once_and_called_as_declared() {
    use LiftErrorKind::{Invalid, Unsupported};
    let with = |defs: &str, body: &str| format!("{defs}il_cs_2_0\n{body}end\n");
    let refused = |defs: &str, body: &str, kind: LiftErrorKind, has: &[&str]| {
        let e = refusal(&with(defs, body));
        assert_eq!(e.kind, kind, "{e}");
        for h in has {
            assert!(e.to_string().contains(h), "{e} lacks {h:?}");
        }
    };
    let one = "mdef(1)_out(1)_in(1)\nmov out0, in0\nmend\n";
    refused(
        one,
        "mcall(2) (r0), (r1)\n",
        Invalid,
        &["`mcall(2) (r0), (r1)`", "mcall to undefined macro 2"],
    );
    refused(
        one,
        "mcall(1) (r0), (r1, r2)\n",
        Invalid,
        &["1 outputs and 2 inputs to mdef(1)_out(1)_in(1)"],
    );
    refused(
        one,
        "dcl_cb cb0[1]\nmcall(1) (r0), (cb0[0])\n",
        Invalid,
        &["a temp or a literal"],
    );
    refused(&format!("{one}{one}"), "", Invalid, &["a second mdef(1)"]);
    refused(
        "mdef(1)_out(0)_in(0)\nmcall(2) () , ()\nmend\nmdef(2)_out(0)_in(0)\nmcall(1) (), ()\nmend\n",
        "",
        Invalid,
        &["macro 1 calls itself (1 -> 2 -> 1)"],
    );
    refused(
        "mdef(1)_out(0)_in(0)\nret_dyn\nmend\n",
        "",
        Unsupported,
        &["`ret_dyn`", "a return inside a macro"],
    );
    refused(
        "mdef(1)_out(0)_in(0)\ndcl_cb cb0[1]\nmend\n",
        "",
        Unsupported,
        &["dcl_cb inside a macro"],
    );
    refused(
        "mdef(1)_out(0)_in(0)\nif_logicalnz r0.x\nmend\n",
        "",
        Invalid,
        &["`mend`", "the macro ends inside"],
    );
    refused(
        "mdef(1)_out(0)_in(0)\nbreak\nmend\n",
        "whileloop\nmcall(1) (), ()\nendloop\n",
        Invalid,
        &["`break`", "break outside a loop or switch"],
    );
    refused(
        "mdef(1)_out(1)_in(1)\nmov out0, in1\nmend\n",
        "mcall(1) (r0), (r1)\n",
        Invalid,
        &[
            "`mov out0, in1`",
            "in1: mdef(1)_out(1)_in(1) has no such register",
        ],
    );
    refused("", "mov r0, in0\n", Invalid, &["in0 outside a macro"]);
    // Limits: a chain of 70 macros, and 2^13 expansions of macros that call the next twice.
    let chain = |n: u32, calls: u32| -> String {
        (0..n)
            .map(|k| {
                let body = if k + 1 < n {
                    format!("mcall({}) (), ()\n", k + 1).repeat(calls as usize)
                } else {
                    String::new()
                };
                format!("mdef({k})_out(0)_in(0)\n{body}mend\n")
            })
            .collect()
    };
    refused(
        &chain(70, 1),
        "mcall(0) (), ()\n",
        Unsupported,
        &["nested more than 64 deep"],
    );
    refused(
        &chain(13, 2),
        "mcall(0) (), ()\n",
        Unsupported,
        &["more than 4096 macro expansions"],
    );
}

/// DX9 `loop` reads an integer constant a `def` defines (L3938, L4883); constants are defined
/// once and read only where Table 5.7 allows.
#[test]
fn dx9_loops_need_a_defined_integer_constant() {
    use LiftErrorKind::{Invalid, Unsupported};
    assert_refused(
        "loop i1\nendloop\n",
        Unsupported,
        &["`loop i1`", "i1: no def gives its value"],
    );
    assert_refused("loop r0\nendloop\n", Invalid, &["integer constant i#"]);
    assert_refused(
        "def i0, 300, 0, 1, 0\nloop i0\nendloop\n",
        Invalid,
        &["past 255 (L3938"],
    );
    assert_refused(
        "def i0, 0xffffffff, 0, 1, 0\nloop_repeat i0\nendloop\n",
        Invalid,
        &["a negative iteration count"],
    );
    assert_refused(
        "def i0, 1, 0, 1, 0\ndef i0, 1, 0, 1, 0\n",
        Invalid,
        &["i0 is defined twice"],
    );
    assert_refused(
        "def i0, 1, 0, 1, 0\niadd r0, r1, i0\n",
        Invalid,
        &["i0 read by iadd (Table 5.7"],
    );
    assert_refused(
        "defb b0, 1\nif_logicalnz b0\nendif\n",
        Invalid,
        &["b0 read by if_logicalnz"],
    );
    assert_refused("mov r0, c3\n", Unsupported, &["c3: no def gives its value"]);
}

#[test]
fn registers_must_be_declared_and_indices_in_range() {
    use LiftErrorKind::Invalid;
    assert_refused("mov r0, l9\n", Invalid, &["l9 is used but not declared"]);
    assert_refused(
        "mov r0, cb1[0]\n",
        Invalid,
        &["cb1 is used but not declared"],
    );
    assert_refused(
        "dcl_cb cb0[4]\nmov r0, cb0[4]\n",
        Invalid,
        &["cb0[4] is past its 4"],
    );
    assert_refused("mov r0, x0[0]\n", Invalid, &["x0 is used but not declared"]);
    assert_refused(
        "mov r0, icb[0]\n",
        Invalid,
        &["icb is used but not declared"],
    );
    assert_refused(
        "dcl_cb icb[4] = {1, 2, 3, 4}\nmov r0, icb[1]\n",
        Invalid,
        &["icb[1] is past its 1 elements"],
    );
    assert_refused(
        "dcl_cb icb[1] = {1}\ndcl_cb icb[1] = {2}\n",
        Invalid,
        &["a second immediate constant buffer"],
    );
    assert_refused("mov r0, g\n", Invalid, &["g needs an address"]);
    assert_refused(
        "dcl_cb cb0[2]\nmov r0, cb[5][r1.x]\n",
        Invalid,
        &["cb5 is used but not declared"],
    );
    assert_refused(
        "dcl_cb cb0[2]\nmov r0, cb[0][2]\n",
        Invalid,
        &["cb0[2] is past its 2 declared elements"],
    );
    assert_refused(
        "dcl_cb cb1[2]\nmov r0, cb1[r0.x][0]\n",
        Invalid,
        &["a two-dimensional cb is cb[b][n]"],
    );
    assert_refused(
        "mov r0, cb[r0.x][0]\n",
        Invalid,
        &["declares no constant buffer"],
    );
    assert_refused(
        "dcl_indexed_temp_array x1[3]\nmov x1[3], r0\n",
        Invalid,
        &["x1[3] is past the array's 3 elements"],
    );
    assert_refused(
        "uav_raw_load_id(3) r0.x___, r1.x\n",
        Invalid,
        &["UAV 3 is not declared raw"],
    );
    assert_refused(
        "lds_load_id(1) r0.x___, r1.x\n",
        Invalid,
        &["LDS 1 is not declared"],
    );
    assert_refused(
        "dcl_literal l0, 1, 2, 3, 4\ndcl_literal l0, 1, 2, 3, 4\n",
        Invalid,
        &["l0 is declared twice"],
    );
}

#[test]
fn modifiers_outside_table_2_10_are_invalid() {
    use LiftErrorKind::Invalid;
    assert_refused(
        "iadd r0, r1_abs, r2\n",
        Invalid,
        &["_abs on an integer operation"],
    );
    assert_refused(
        "ior r0, r1_neg(x), r2\n",
        Invalid,
        &["_neg on a logical operation"],
    );
    assert_refused("iadd_x2 r0, r1, r2\n", Invalid, &["float results only"]);
    assert_refused("ieq_sat r0, r1, r2\n", Invalid, &["float results only"]);
    assert_refused("fence\n", Invalid, &["at least one option"]);
    assert_refused(
        "dcl_lds_id(0) 16\nlds_load_id(0) r0.xy__, r1.x\n",
        Invalid,
        &["into dst.x"],
    );
}

#[test]
fn limits_are_refusals_not_panics() {
    let p = wavejit_amdil::parse::parse(&cs("mov r0, r1\n")).unwrap();
    let e = wavejit_amdil::lift::lift_wave(&p, "t", 48 + 2).unwrap_err();
    assert!(e.to_string().contains("a wave of 50 lanes"), "{e}");
    assert!(wavejit_amdil::lift::lift_wave(&p, "t", 32).is_ok());
    assert_refused(
        "mov r4096, r0\n",
        LiftErrorKind::Unsupported,
        &["4097 temps", "L4107"],
    );
    assert_refused(
        "dcl_indexed_temp_array x0[4000]\nmov r96, r0\n",
        LiftErrorKind::Unsupported,
        &["4097 temps"],
    );
    assert_refused(
        "mov r4294967295, r0\n",
        LiftErrorKind::Unsupported,
        &["4294967296 temps"],
    );
}
