//! Bad input to the assembler: each mistake is an error value with one line of text (the
//! line number first in a listing), never a panic; and mutated instructions assemble (to
//! bytes that decode at their length) or fail cleanly.

use wavejit_g13::asm::{assemble, assemble_line, AsmErrorKind};
use wavejit_g13::inst::decode;

/// `text` fails with `kind` and a one-line message containing `words`.
fn fails(text: &str, kind: AsmErrorKind, words: &str) {
    let e = assemble_line(text, 0).expect_err(text);
    let msg = e.to_string();
    assert_eq!(e.kind, kind, "{text}: {msg}");
    assert!(msg.contains(words), "{text}: {msg:?} lacks {words:?}");
    assert!(!msg.contains('\n'), "{text}: {msg:?}");
}

#[test]
fn unknown_mnemonics() {
    fails(
        "fadd64 r1, r2, r3",
        AsmErrorKind::UnknownMnemonic,
        "`fadd64`",
    );
    fails(
        "iadd.sat.sat r1, r2, r3",
        AsmErrorKind::UnknownMnemonic,
        "iadd.sat.sat",
    );
    // `.sat` only on the saturating forms.
    fails(
        "bitrev.sat r1, r2",
        AsmErrorKind::UnknownMnemonic,
        "bitrev.sat",
    );
}

#[test]
fn bad_registers() {
    fails("iadd r1, q5, r2", AsmErrorKind::Operand, "`q5`");
    fails(
        "iadd r1, r2_r4, r3",
        AsmErrorKind::Operand,
        "not consecutive",
    );
    fails("iadd r1, r2_u3, r3", AsmErrorKind::Operand, "mixes");
    fails("fadd16 r1, r2l, r3l", AsmErrorKind::Operand, "16-bit");
    fails("iadd u1, r2, r3", AsmErrorKind::Operand, "general register");
    fails(
        "iadd r1.discard, r2, r3",
        AsmErrorKind::Operand,
        "`.discard`",
    );
    fails("bitrev r1, r2.sx", AsmErrorKind::Operand, "`.sx`");
    fails("pop_exec r1l, 1", AsmErrorKind::Operand, "r0l");
}

#[test]
fn registers_beyond_the_file() {
    fails(
        "iadd r128, r1, r2",
        AsmErrorKind::Operand,
        "r128 is beyond the register file",
    );
    fails(
        "iadd r1, r128h, r2",
        AsmErrorKind::Operand,
        "beyond the register file",
    );
    fails(
        "iadd r1, u256, r2",
        AsmErrorKind::Operand,
        "u256 is beyond the register file",
    );
    fails(
        "device_load 0, i32, x, r1, u256_u257, 0, signed",
        AsmErrorKind::Operand,
        "u256",
    );
}

#[test]
fn immediates_out_of_range() {
    fails("iadd r1, 256, r2", AsmErrorKind::Operand, "out of range");
    fails("iadd r1, -1, r2", AsmErrorKind::Operand, "out of range");
    fails(
        "mov_imm r1l, 0x10000",
        AsmErrorKind::Operand,
        "out of range",
    );
    fails(
        "mov_imm r1, 0x100000000",
        AsmErrorKind::Operand,
        "out of range",
    );
    fails("wait 2", AsmErrorKind::Operand, "out of range");
    fails(
        "iadd r1, r2, r3, lsl 8",
        AsmErrorKind::Operand,
        "out of range",
    );
    fails(
        "device_load 0, i32, x, r1, u2_u3, 32768, signed",
        AsmErrorKind::Operand,
        "out of range",
    );
    fails("fadd32 r1, 0.3, r2", AsmErrorKind::Operand, "8-bit float");
    fails("fadd32 r1, 32.0, r2", AsmErrorKind::Operand, "8-bit float");
    fails(
        "bfi r1, r2, r3, r4, mask 0x6",
        AsmErrorKind::Operand,
        "low bits",
    );
    fails(
        "jmp_incomplete pc+128",
        AsmErrorKind::Operand,
        "out of range",
    );
    fails("convert 64, r1, r2, rtz", AsmErrorKind::Operand, "64");
}

#[test]
fn undefined_labels() {
    fails(
        "jmp_exec_any pc+done",
        AsmErrorKind::Operand,
        "undefined label `done`",
    );
    let e = assemble("stop\nstop\njmp_exec_none pc+done\n").unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(e.to_string().starts_with("line 3: "), "{e}");
}

#[test]
fn truncated_lines() {
    fails("iadd r1, r2", AsmErrorKind::Operand, "missing");
    fails("iadd", AsmErrorKind::Operand, "missing");
    fails("iadd r1, r2,", AsmErrorKind::Syntax, "empty");
    fails(
        "device_load 0, i32, x, r1",
        AsmErrorKind::Operand,
        "missing",
    );
    fails("", AsmErrorKind::Syntax, "no instruction");
    fails(
        "   ; only a comment",
        AsmErrorKind::Syntax,
        "no instruction",
    );
    fails("stop r1", AsmErrorKind::Operand, "too many");
    fails(
        "get_sr r1, sr80 (thread_position_in_grid.x",
        AsmErrorKind::Operand,
        "parenthesis",
    );
}

#[test]
fn operands_of_other_forms() {
    // iunop with these ops is bitrev's encoding: it would not print back as iunop.
    fails("iunop r1, r2, 0b00, 0b01", AsmErrorKind::Form, "bitrev");
    // A select operand takes the destination's size.
    fails(
        "icmpsel ult, r1, r2, r3, r4l, r5",
        AsmErrorKind::Operand,
        "destination's size",
    );
    // The mask gives the number of registers.
    fails(
        "device_load 0, i32, xy, r1, u2_u3, 0, signed",
        AsmErrorKind::Operand,
        "mask",
    );
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// `line` changed once: a character deleted, inserted or replaced, an operand dropped,
/// doubled or swapped, a number made huge, the line cut short.
fn mutate(line: &str, rng: &mut Rng) -> String {
    const CHARS: &[u8] = b",._-+0123456789rlhuxbsdcn ()$:;#/tpN";
    let mut chars: Vec<char> = line.chars().collect();
    let line: String = chars.iter().collect();
    let at = rng.below(chars.len() + 1);
    let mut ops: Vec<String> = line.split(", ").map(String::from).collect();
    match rng.below(8) {
        0 if !chars.is_empty() => {
            chars.remove(at.min(chars.len() - 1));
        }
        1 => chars.insert(at, CHARS[rng.below(CHARS.len())] as char),
        2 if !chars.is_empty() => {
            let k = at.min(chars.len() - 1);
            chars[k] = CHARS[rng.below(CHARS.len())] as char;
        }
        3 if ops.len() > 1 => {
            ops.remove(1 + rng.below(ops.len() - 1));
            return ops.join(", ");
        }
        4 => {
            let k = rng.below(ops.len());
            let dup = ops[k].clone();
            ops.insert(k, dup);
            return ops.join(", ");
        }
        5 if ops.len() > 2 => {
            let (a, b) = (1 + rng.below(ops.len() - 1), 1 + rng.below(ops.len() - 1));
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
            return format!("{}{}", &line[..line.len() / 2], big[rng.below(big.len())]);
        }
        _ => chars.truncate(at),
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_lines_assemble_or_fail_cleanly() {
    let text = include_str!("data/applegpu-vectors.tsv");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.splitn(3, '\t').nth(2))
        .filter(|t| !t.starts_with('!'))
        .collect();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut ok, mut failed) = (0, 0);
    for _ in 0..30_000 {
        let mut m = lines[rng.below(lines.len())].to_string();
        for _ in 0..=rng.below(3) {
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
            .map(|k| match rng.below(4) {
                0 => format!("l{k}: jmp_exec_any pc+l{}\n", rng.below(10)),
                1 => format!("l{k}:\n"),
                _ => format!("{}\n", mutate(lines[rng.below(lines.len())], &mut rng)),
            })
            .collect();
        if let Err(e) = assemble(&listing) {
            assert!(e.line.is_some() && !e.to_string().contains('\n'), "{e}");
        }
    }
}
