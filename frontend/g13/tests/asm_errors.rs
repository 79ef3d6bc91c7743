//! Bad input to the assembler: each mistake is an error value with one line of text (the
//! line number first in a listing), never a panic; and mutated instructions assemble (to
//! bytes that decode at their length) or fail cleanly.

mod vectors;

use vectors::applegpu_vectors;
use wavejit_g13::asm::AsmErrorKind::{self, Form, Operand, Syntax, UnknownMnemonic};
use wavejit_g13::asm::{assemble, assemble_line};
use wavejit_g13::inst::decode;
use wavejit_g13::random::Rng;

/// Each line (text, kind, words) fails with that kind and a one-line message containing the
/// words.
fn all_fail(cases: &[(&str, AsmErrorKind, &str)]) {
    for &(text, kind, words) in cases {
        let e = assemble_line(text, 0).expect_err(text);
        let msg = e.to_string();
        assert_eq!(e.kind, kind, "{text}: {msg}");
        assert!(msg.contains(words), "{text}: {msg:?} lacks {words:?}");
        assert!(!msg.contains('\n'), "{text}: {msg:?}");
    }
}

#[test]
fn unknown_mnemonics() {
    all_fail(&[
        ("fadd64 r1, r2, r3", UnknownMnemonic, "`fadd64`"),
        ("iadd.sat.sat r1, r2, r3", UnknownMnemonic, "iadd.sat.sat"),
        // `.sat` only on the saturating forms.
        ("bitrev.sat r1, r2", UnknownMnemonic, "bitrev.sat"),
    ]);
}

#[test]
fn bad_registers() {
    all_fail(&[
        ("iadd r1, q5, r2", Operand, "`q5`"),
        ("iadd r1, r2_r4, r3", Operand, "not consecutive"),
        ("iadd r1, r2_u3, r3", Operand, "mixes"),
        ("fadd16 r1, r2l, r3l", Operand, "16-bit"),
        ("iadd u1, r2, r3", Operand, "general register"),
        ("iadd r1.discard, r2, r3", Operand, "`.discard`"),
        ("bitrev r1, r2.sx", Operand, "`.sx`"),
        ("pop_exec r1l, 1", Operand, "r0l"),
    ]);
}

#[test]
fn registers_beyond_the_file() {
    all_fail(&[
        (
            "iadd r128, r1, r2",
            Operand,
            "r128 is beyond the register file",
        ),
        ("iadd r1, r128h, r2", Operand, "beyond the register file"),
        (
            "iadd r1, u256, r2",
            Operand,
            "u256 is beyond the register file",
        ),
        (
            "device_load 0, i32, x, r1, u256_u257, 0, signed",
            Operand,
            "u256",
        ),
    ]);
}

#[test]
fn immediates_out_of_range() {
    all_fail(&[
        ("iadd r1, 256, r2", Operand, "out of range"),
        ("iadd r1, -1, r2", Operand, "out of range"),
        ("mov_imm r1l, 0x10000", Operand, "out of range"),
        ("mov_imm r1, 0x100000000", Operand, "out of range"),
        ("wait 2", Operand, "out of range"),
        ("iadd r1, r2, r3, lsl 8", Operand, "out of range"),
        (
            "device_load 0, i32, x, r1, u2_u3, 32768, signed",
            Operand,
            "out of range",
        ),
        ("fadd32 r1, 0.3, r2", Operand, "8-bit float"),
        ("fadd32 r1, 32.0, r2", Operand, "8-bit float"),
        ("bfi r1, r2, r3, r4, mask 0x6", Operand, "low bits"),
        ("jmp_incomplete pc+128", Operand, "out of range"),
        ("convert 64, r1, r2, rtz", Operand, "64"),
    ]);
}

#[test]
fn undefined_labels() {
    all_fail(&[("jmp_exec_any pc+done", Operand, "undefined label `done`")]);
    let e = assemble("stop\nstop\njmp_exec_none pc+done\n").unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(e.to_string().starts_with("line 3: "), "{e}");
}

#[test]
fn truncated_lines() {
    all_fail(&[
        ("iadd r1, r2", Operand, "missing"),
        ("iadd", Operand, "missing"),
        ("iadd r1, r2,", Syntax, "empty"),
        ("device_load 0, i32, x, r1", Operand, "missing"),
        ("", Syntax, "no instruction"),
        ("   ; only a comment", Syntax, "no instruction"),
        ("stop r1", Operand, "too many"),
        (
            "get_sr r1, sr80 (thread_position_in_grid.x",
            Operand,
            "parenthesis",
        ),
    ]);
}

#[test]
fn operands_of_other_forms() {
    all_fail(&[
        // iunop with these ops is bitrev's encoding: it would not print back as iunop.
        ("iunop r1, r2, 0b00, 0b01", Form, "bitrev"),
        // A select operand takes the destination's size.
        (
            "icmpsel ult, r1, r2, r3, r4l, r5",
            Operand,
            "destination's size",
        ),
        // The mask gives the number of registers.
        (
            "device_load 0, i32, xy, r1, u2_u3, 0, signed",
            Operand,
            "mask",
        ),
    ]);
}

/// A number in `0..n`.
fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// `line` changed once: a character deleted, inserted or replaced, an operand dropped,
/// doubled or swapped, a number made huge, the line cut short.
fn mutate(line: &str, rng: &mut Rng) -> String {
    const CHARS: &[u8] = b",._-+0123456789rlhuxbsdcn ()$:;#/tpN";
    let mut chars: Vec<char> = line.chars().collect();
    let line: String = chars.iter().collect();
    let at = below(rng, chars.len() + 1);
    let mut ops: Vec<String> = line.split(", ").map(String::from).collect();
    match below(rng, 8) {
        0 if !chars.is_empty() => {
            chars.remove(at.min(chars.len() - 1));
        }
        1 => chars.insert(at, *rng.pick(CHARS) as char),
        2 if !chars.is_empty() => {
            let k = at.min(chars.len() - 1);
            chars[k] = *rng.pick(CHARS) as char;
        }
        3 if ops.len() > 1 => {
            ops.remove(1 + below(rng, ops.len() - 1));
            return ops.join(", ");
        }
        4 => {
            let k = below(rng, ops.len());
            let dup = ops[k].clone();
            ops.insert(k, dup);
            return ops.join(", ");
        }
        5 if ops.len() > 2 => {
            let (a, b) = (1 + below(rng, ops.len() - 1), 1 + below(rng, ops.len() - 1));
            ops.swap(a, b);
            return ops.join(", ");
        }
        6 => {
            let big = [
                "99999999999999999999999999999999999999999",
                "-0x",
                "0x-",
                "1e9",
                "-0.0.abs",
            ];
            return format!("{}{}", &line[..line.len() / 2], rng.pick(&big));
        }
        _ => chars.truncate(at),
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_lines_assemble_or_fail_cleanly() {
    let lines: Vec<&str> = applegpu_vectors().iter().filter_map(|v| v.text).collect();
    let mut rng = Rng::new(3);
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..30_000 {
        let mut m = rng.pick(&lines).to_string();
        for _ in 0..=below(&mut rng, 3) {
            m = mutate(&m, &mut rng);
        }
        match assemble_line(&m, 0x100) {
            Ok(bytes) => {
                let i = decode(&bytes).unwrap_or_else(|e| panic!("{m:?}: {e}"));
                assert_eq!(i.len, bytes.len(), "{m:?}");
                ok += 1;
            }
            Err(e) => {
                let msg = e.to_string();
                assert!(!msg.is_empty() && !msg.contains('\n'), "{m:?}: {msg:?}");
                failed += 1;
            }
        }
    }
    assert!(
        ok > 1000 && failed > 1000,
        "{ok} assembled, {failed} failed"
    );
    // Whole listings of mutated lines, with labels and branches among them.
    for _ in 0..300 {
        let listing: String = (0..8)
            .map(|k| match below(&mut rng, 4) {
                0 => format!("l{k}: jmp_exec_any pc+l{}\n", below(&mut rng, 10)),
                1 => format!("l{k}:\n"),
                _ => format!("{}\n", mutate(rng.pick::<&str>(&lines), &mut rng)),
            })
            .collect();
        if let Err(e) = assemble(&listing) {
            assert!(e.line.is_some() && !e.to_string().contains('\n'), "{e}");
        }
    }
}
