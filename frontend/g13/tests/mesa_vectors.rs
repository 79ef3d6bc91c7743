//! Mesa's single-instruction vectors (shared/corpora/g13/mesa-isa-cases.txt, read where CI
//! has it, beside the clone): every line's bytes, followed by Mesa's junk pattern, frame as
//! one instruction of exactly the line's length, the ALU forms' destinations are the
//! registers Mesa prints, and so are the sources of the integer and float arithmetic and of
//! the compare-selects. The vectors come from Mesa's own encoder tables (AGX2.xml),
//! independent of applegpu.py, which the table was generated from. And every line prints, in
//! Mesa's syntax (`mesa::mesa`), to its reference text, but for the listed exceptions.

mod vectors;

use std::collections::BTreeMap;
use vectors::{assert_only_listed, mesa_corpus, mesa_vectors, MesaVector};
use wavejit_g13::frame;
use wavejit_g13::operand::Reg;

#[test]
fn every_mesa_vector_frames_at_its_length() {
    let Some((path, text)) = mesa_corpus() else {
        return;
    };
    let junk = [0xca, 0xfe, 0xba, 0xbe].repeat(4);
    let mut framed = 0;
    let mut bad = Vec::new();
    for (n, MesaVector { line, bytes, .. }) in mesa_vectors(&text).into_iter().enumerate() {
        let mut input = bytes.clone();
        input.extend_from_slice(&junk);
        match frame(&input) {
            Ok(f) if f.len == bytes.len() => framed += 1,
            Ok(f) => bad.push(format!(
                "line {}: {line}: framed as {} of {} bytes",
                n + 1,
                f.row.name,
                f.len
            )),
            Err(e) => bad.push(format!("line {}: {line}: {e}", n + 1)),
        }
    }
    assert!(bad.is_empty(), "{}:\n{}", path.display(), bad.join("\n"));
    assert_eq!(
        framed,
        555,
        "{}: the copy described in its README",
        path.display()
    );
}

/// The destination register of every ALU form among the vectors, against Mesa's first
/// operand (its register naming: `r5l`, `r6`, `dr6`).
#[test]
fn alu_destinations_match_mesa() {
    let Some((path, text)) = mesa_corpus() else {
        return;
    };
    let mut checked = 0;
    let mut bad = Vec::new();
    for v in mesa_vectors(&text) {
        let Some(&first) = v.operands.first() else {
            continue;
        };
        let f = frame(&v.bytes).expect("framed (see the test above)");
        let Some(dst) = wavejit_g13::operand::alu_dst(f.row, f.word) else {
            continue;
        };
        if dst.mesa() != first {
            bad.push(format!("{}: {} gives {}", v.line, f.row.name, dst.mesa()));
        }
        checked += 1;
    }
    assert!(bad.is_empty(), "{}:\n{}", path.display(), bad.join("\n"));
    // Every line whose form's first operand is an ALU destination (the copy is fixed).
    assert_eq!(checked, 237, "ALU destinations among the vectors");
}

/// Mesa's text of an ALU source: an integer immediate in decimal, a float one with a
/// fraction (`0.0`, `0.234375`), the register (`$` before a cached one, the discard hint's
/// mark dropped here), then `.abs`, `.neg`, `.sx`.
fn mesa_src(s: &wavejit_g13::operand::Src) -> String {
    use wavejit_g13::operand::{minifloat, SrcValue};
    let mut text = match s.value {
        SrcValue::Imm(n) => n.to_string(),
        SrcValue::FloatImm(b) => format!("{:?}", minifloat(b)),
        SrcValue::Reg(r) => r.mesa(),
        SrcValue::Discarded(r) => Reg { cache: false, ..r }.mesa(),
        SrcValue::Uniform(u) => u.to_string(),
    };
    for (on, m) in [(s.abs, ".abs"), (s.neg, ".neg"), (s.sx, ".sx")] {
        if on {
            text.push_str(m);
        }
    }
    text
}

/// The sources of every integer and float add, multiply and multiply-add among the vectors,
/// of the float unary ops (Mesa prints them in applegpu's operand order) and of the
/// compare-selects (whose condition Mesa prints last), against Mesa's operands.
#[test]
fn alu_sources_match_mesa() {
    let Some((path, text)) = mesa_corpus() else {
        return;
    };
    let mut checked = 0;
    let mut bad = Vec::new();
    for v in mesa_vectors(&text) {
        let f = frame(&v.bytes).expect("framed (see the first test)");
        let select = matches!(f.row.name, "icmpsel" | "fcmpsel");
        if !select
            && !matches!(
                f.row.name,
                "iadd"
                    | "imadd"
                    | "fadd16"
                    | "fadd32"
                    | "fmul16"
                    | "fmul32"
                    | "fmadd16"
                    | "fmadd32"
                    | "rcp"
                    | "rsqrt"
                    | "log2"
                    | "exp2"
            )
        {
            continue;
        }
        for (k, mesa) in v.operands.iter().enumerate().skip(1) {
            // A compare-select's condition comes first in applegpu's order, last in Mesa's.
            let k = k + usize::from(select);
            let src = wavejit_g13::operand::alu_src(f.row, f.word, k)
                .or_else(|| wavejit_g13::operand::cmpsel_src(f.row, f.word, k));
            let Some(src) = src else {
                continue;
            };
            let mesa = mesa.trim_start_matches(['`', '^']);
            if mesa_src(&src) != mesa {
                bad.push(format!("{}: operand {k} gives {}", v.line, mesa_src(&src)));
            }
            checked += 1;
        }
    }
    assert!(bad.is_empty(), "{}:\n{}", path.display(), bad.join("\n"));
    assert_eq!(checked, 361, "ALU sources among the vectors");
}

/// Lines whose reference text the Mesa printer cannot reproduce, by their bytes, with the
/// reason.
const MESA_EXCEPTIONS: &[(&str, &str)] = &[
    (
        "ad01116001000024",
        "sampler_state_store with bit 58 set: Mesa reads an immediate offset (88) in bits \
         26:56 and the base du8 from bits 59:63 times 4; applegpu reads the base as bits \
         58:63 (u9_u10) and the offset as the register in bits 27:33 (r44). Mesa is right: \
         its compiler emits this form, and applegpu's reading names an odd-based uniform \
         pair, which no other 64-bit uniform operand does",
    ),
    (
        "ed00100001000024",
        "tex_state_store with bit 58 set: as above, Mesa's du8 and immediate offset 64 \
         against applegpu's u9_u10 and r32; Mesa is right",
    ),
];

/// Every vector decodes and prints, in Mesa's syntax, to its line (the bytes left-justified in
/// 20 columns, a space, the text), but for the listed exceptions.
#[test]
fn every_mesa_vector_prints_as_mesa_does() {
    let Some((path, text)) = mesa_corpus() else {
        return;
    };
    let mut matched = 0;
    let mut bad = BTreeMap::new();
    for v in mesa_vectors(&text) {
        let got = match wavejit_g13::inst::decode(&v.bytes) {
            Ok(i) => format!("{:<20} {}", v.hex, wavejit_g13::mesa::mesa(&i)),
            Err(e) => format!("{:<20} <{e}>", v.hex),
        };
        if got == v.line {
            matched += 1;
        } else {
            bad.insert(v.hex, format!("{}\n  got {got}", v.line));
        }
    }
    assert_only_listed(&bad, MESA_EXCEPTIONS, &path.display().to_string());
    assert_eq!(matched, 555 - MESA_EXCEPTIONS.len());
}
