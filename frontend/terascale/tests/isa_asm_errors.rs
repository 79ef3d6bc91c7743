//! Assembler errors: each names the line and what is wrong; nothing panics on bad text.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_terascale::asm::{assemble, AsmError};
use wavejit_terascale::ChipClass;

const CM: ChipClass = ChipClass::Cayman;

/// A valid Cayman program (llc's `alu_cayman` style): one ALU clause with a literal, one
/// fetch clause behind a pad.
const GOOD: &str = "\
ALU 2, @4, KC0[CB0:0-32], KC1[]
TEX 0 @8
MEM_RAT_CACHELESS STORE_DWORD T1.X, T0.X
CF_END
ALU clause starting at 4:
  LSHL * T0.W, T0.X, literal.x,  
2(2.802597e-45), 0(0.000000e+00)
  ADD_INT * T1.X, KC0[2].Z, PV.W,  
PAD
Fetch clause starting at 8:
  VTX_READ_32 T1.X, T1.X, 0, #1";

fn err(text: &str) -> AsmError {
    assemble(CM, text).expect_err("must not assemble")
}

fn edit(line: usize, new: &str) -> String {
    GOOD.lines()
        .enumerate()
        .map(|(k, l)| if k + 1 == line { new } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

fn assert_err(e: AsmError, line: usize, part: &str) {
    assert_eq!(e.line, line, "{e}");
    assert!(e.msg.contains(part), "`{e}` should mention `{part}`");
    assert!(e.to_string().starts_with(&format!("line {line}: ")));
}

#[test]
fn the_base_program_assembles() {
    let b = assemble(CM, GOOD).unwrap();
    assert_eq!(b.len(), 10 * 8);
}

#[test]
fn unknown_mnemonics_name_their_line() {
    assert_err(
        err(&edit(2, "TEXX 0 @8")),
        2,
        "unknown CF instruction `TEXX`",
    );
    assert_err(
        err(&edit(6, "  LSHX * T0.W, T0.X, literal.x,")),
        6,
        "unknown ALU instruction",
    );
    assert_err(
        err(&edit(11, "  VTX_READ_33 T1.X, T1.X, 0, #1")),
        11,
        "unknown fetch instruction",
    );
    // Cayman has no END_OF_PROGRAM-carrying NOP and no Evergreen-only ALU_BREAK.
    assert_err(
        err(&edit(1, "ALU_BREAK 2, @4, KC0[CB0:0-32], KC1[]")),
        1,
        "ALU_BREAK",
    );
}

#[test]
fn bad_operands_name_their_line() {
    assert_err(
        err(&edit(6, "  LSHL * T0.W, T0.Q, literal.x,")),
        6,
        "channel",
    );
    assert_err(
        err(&edit(6, "  LSHL * T200.W, T0.X, literal.x,")),
        6,
        "does not fit",
    );
    assert_err(err(&edit(6, "  LSHL * T0.W, T0.X,")), 6, "source");
    assert_err(
        err(&edit(8, "  ADD_INT * T1.X, KC0[40].Z, PV.W,")),
        8,
        "does not fit",
    );
    assert_err(err(&edit(2, "TEX 0 8")), 2, "@address");
    assert_err(
        err(&edit(1, "ALU 2, @4, KC0[CB0:0-20], KC1[]")),
        1,
        "window",
    );
    assert_err(
        err(&edit(3, "MEM_RAT_CACHELESS STORE_DWORD T1.Y, T0.X")),
        3,
        "suffix",
    );
    assert_err(
        err(&edit(11, "  VFETCH T1.X___, T1.X RID:1 BOGUS:3")),
        11,
        "BOGUS",
    );
    assert_err(
        err(&edit(
            11,
            "  TEX_SAMPLE T0.XYZW, T0.XYZW RID:5 SID:40 CT:NNNN",
        )),
        11,
        "fit",
    );
    assert_err(err(&edit(4, "CF_END WQM:2")), 4, "WQM:2");
}

#[test]
fn literal_lines_must_match_the_group() {
    let missing: String = GOOD
        .lines()
        .filter(|l| !l.starts_with("2("))
        .collect::<Vec<_>>()
        .join("\n");
    assert_err(err(&missing), 6, "missing literal line");
    let extra = edit(8, "  ADD_INT * T1.X, KC0[2].Z, PV.W,  \n5(0), 0(0)");
    assert_err(err(&extra), 9, "unexpected literal line");
    assert_err(err(&edit(7, "2(2.8), x")), 7, "bad literal");
}

#[test]
fn clause_addresses_must_be_consistent() {
    assert_err(
        err(&edit(5, "ALU clause starting at 5:")),
        5,
        "inconsistent",
    );
    assert_err(
        err(&edit(10, "Fetch clause starting at 9:")),
        10,
        "inconsistent",
    );
    // Without the pad the fetch clause would start at an odd address.
    let unpadded: String = GOOD
        .lines()
        .filter(|l| *l != "PAD")
        .collect::<Vec<_>>()
        .join("\n")
        .replace("starting at 8:", "starting at 7:");
    assert_err(err(&unpadded), 9, "aligned");
    // The CF instruction and the clause disagree.
    assert_err(
        err(&edit(1, "ALU 3, @4, KC0[CB0:0-32], KC1[]")),
        1,
        "has 3 words",
    );
    assert_err(err(&edit(2, "TEX 0 @6")), 2, "no fetch clause starts at 6");
    let unrun = edit(2, "NOP");
    assert_err(err(&unrun), 10, "not run by any CF instruction");
}

#[test]
fn groups_must_end_with_a_last_slot() {
    assert_err(
        err(&edit(8, "  ADD_INT   T1.X, KC0[2].Z, PV.W,")),
        8,
        "without `*`",
    );
}

#[test]
fn decoder_rules_are_reported_at_the_line() {
    // A trans-only-free Cayman group with two instructions in one slot.
    let text = edit(
        8,
        "  ADD_INT   T1.X, KC0[2].Z, PV.W,\n  ADD_INT * T2.X, KC0[2].Z, PV.W,",
    )
    .replace("ALU 2, @4", "ALU 3, @4")
    .replace("PAD\n", "");
    let e = err(&text);
    assert_eq!(e.line, 9, "{e}");
    assert!(e.msg.contains("two instructions in one slot"), "{e}");
    // A CF line after the end of a Cayman program is not part of it: the decoder sees a stray
    // word there.
    let after_end = edit(4, "CF_END\nNOP")
        .replace("@4", "@5")
        .replace("starting at 4:", "starting at 5:")
        .replace("PAD\n", "");
    assert_err(err(&after_end), 5, "outside the CF program");
}

#[test]
fn garbage_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xe7707);
    let alphabet: Vec<char> = "ALU TEX@,[]:.*-+|()0123456789XYZWT KC PV literal\nCB_"
        .chars()
        .collect();
    for _ in 0..2000 {
        let mut text: Vec<char> = GOOD.chars().collect();
        for _ in 0..rng.gen_range(1..6) {
            let i = rng.gen_range(0..text.len());
            if rng.gen_bool(0.5) {
                text[i] = alphabet[rng.gen_range(0..alphabet.len())];
            } else {
                text.remove(i);
            }
        }
        let s: String = text.into_iter().collect();
        if let Err(e) = assemble(CM, &s) {
            assert!(e.line >= 1 && e.line <= s.lines().count().max(1), "{e}");
        }
    }
}
