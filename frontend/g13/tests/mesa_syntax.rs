//! The Mesa-syntax printer on inputs beyond Mesa's vectors: every instruction of
//! tests/data/applegpu-vectors.tsv (every form of the table) and arbitrary bytes print a
//! line, never panic; a line is `<unknown instr>` only for a form Mesa's table lacks.

use wavejit_g13::inst::decode;
use wavejit_g13::mesa::mesa;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn every_form_prints_a_line() {
    let text = include_str!("data/applegpu-vectors.tsv");
    let mut known = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let Some(bytes) = line.split('\t').nth(1) else {
            panic!("malformed line {line:?}");
        };
        let i = decode(&hex(bytes)).expect(bytes);
        let text = mesa(&i);
        assert!(
            !text.is_empty() && !text.ends_with(' '),
            "{bytes}: {text:?}"
        );
        if text != "<unknown instr>" {
            known += 1;
        }
    }
    // Mesa names most of the random encodings; the rest are forms or field values its table
    // lacks (the TODO forms, unnamed conditions, formats and modes).
    assert!(known > 3000, "{known}");
}

#[test]
fn arbitrary_bytes_print_or_fail() {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut printed = 0;
    for _ in 0..100_000 {
        let bytes: Vec<u8> = (0..12).map(|_| next() as u8).collect();
        if let Ok(i) = decode(&bytes) {
            assert!(!mesa(&i).is_empty(), "{bytes:02x?}");
            printed += 1;
        }
    }
    assert!(printed > 1000, "{printed}");
}
