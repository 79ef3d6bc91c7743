//! The oracles the decoder, printer and assembler tests share, and how they read them:
//! applegpu's vectors (tests/data/applegpu-vectors.tsv, every line a row index, the bytes in
//! hex and the text applegpu.py prints for them at pc 0x100, or `!` and its exception where it
//! fails) and Mesa's (shared/corpora/g13/mesa-isa-cases.txt beside the clone, every line the
//! bytes in hex, then Mesa's text). A test of Mesa's vectors returns after saying `NOT RUN`
//! where the corpus is absent. [`assert_only_listed`] is the one check of a list of lines
//! that may not match: exactly the listed ones differ. [`arbitrary_instructions`] gives the
//! decodings of arbitrary bytes, for the tests that nothing panics.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use wavejit_g13::inst::{decode, Inst};
use wavejit_g13::random::Rng;
use wavejit_g13::table::{rows, Row};

/// The bytes written in hex, two digits a byte.
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// One of applegpu's vectors.
pub struct Printed {
    /// The form the bytes were made for.
    pub row: &'static Row,
    pub hex: &'static str,
    pub bytes: Vec<u8>,
    /// applegpu's text; `None` where applegpu fails on the bytes.
    pub text: Option<&'static str>,
}

/// Every one of applegpu's vectors, in order.
pub fn applegpu_vectors() -> Vec<Printed> {
    include_str!("../data/applegpu-vectors.tsv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let mut cols = line.splitn(3, '\t');
            let (Some(row), Some(hex_text), Some(text)) = (cols.next(), cols.next(), cols.next())
            else {
                panic!("malformed line {line:?}");
            };
            Printed {
                row: &rows()[row.parse::<usize>().expect("row")],
                hex: hex_text,
                bytes: hex(hex_text),
                text: (!text.starts_with('!')).then_some(text),
            }
        })
        .collect()
}

/// Mesa's corpus: its path and text, or `None` (after saying `NOT RUN`) where it is absent.
pub fn mesa_corpus() -> Option<(PathBuf, String)> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpora/g13/mesa-isa-cases.txt");
    let text = std::fs::read_to_string(&p).ok();
    if text.is_none() {
        eprintln!("NOT RUN: {} absent (Mesa's G13 vectors)", p.display());
    }
    text.map(|t| (p, t))
}

/// One of Mesa's vectors.
pub struct MesaVector<'a> {
    /// The whole line: the hex left-justified in 20 columns, a space, Mesa's text.
    pub line: &'a str,
    pub hex: &'a str,
    pub bytes: Vec<u8>,
    /// Mesa's operands, without the mnemonic and the commas between them.
    pub operands: Vec<&'a str>,
}

/// The vectors of Mesa's corpus `text`.
pub fn mesa_vectors(text: &str) -> Vec<MesaVector<'_>> {
    text.lines()
        .filter_map(|line| {
            let mut tokens = line.split_whitespace();
            let hex_text = tokens.next()?;
            let _mnemonic = tokens.next();
            Some(MesaVector {
                line,
                hex: hex_text,
                bytes: hex(hex_text),
                operands: tokens.map(|t| t.trim_end_matches(',')).collect(),
            })
        })
        .collect()
}

/// Asserts that the lines that differ (`bad`: each line's key and what differs) are exactly
/// the `listed` ones (key, reason): none unlisted, and none listed that matches. `what`
/// names the vectors in the message.
pub fn assert_only_listed(bad: &BTreeMap<&str, String>, listed: &[(&str, &str)], what: &str) {
    let listed: BTreeMap<&str, &str> = listed.iter().copied().collect();
    let unlisted: Vec<&str> = bad
        .iter()
        .filter(|(k, _)| !listed.contains_key(*k))
        .map(|(_, m)| m.as_str())
        .collect();
    let stale: Vec<&&str> = listed.keys().filter(|k| !bad.contains_key(*k)).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "{what}: {} differ:\n{}\nlisted but matching: {stale:?}",
        unlisted.len(),
        unlisted.join("\n")
    );
}

/// Calls `check` with each of 100,000 arbitrary 12-byte strings (from generator seed `seed`)
/// that decodes, and its instruction (most fail as unknown encodings); asserts that more than
/// 1000 decode.
pub fn arbitrary_instructions(seed: u64, mut check: impl FnMut(&[u8], Inst)) {
    let mut rng = Rng::new(seed);
    let mut decoded = 0;
    for _ in 0..100_000 {
        let bytes: Vec<u8> = (0..12).map(|_| rng.next_u64() as u8).collect();
        if let Ok(i) = decode(&bytes) {
            check(&bytes, i);
            decoded += 1;
        }
    }
    assert!(decoded > 1000, "{decoded} of 100000 decode");
}
