//! The applegpu-syntax printer against applegpu.py itself: every instruction of
//! tests/data/applegpu-vectors.tsv that applegpu disassembles (lines not marked `!`) decodes
//! to the line's row and prints, at pc 0x100, to the line's text; the lines applegpu fails
//! on decode to their row too, and arbitrary bytes decode and print or fail, never panic.

use std::collections::BTreeMap;
use wavejit_g13::inst::decode;
use wavejit_g13::print::applegpu;
use wavejit_g13::table::rows;

/// Lines that cannot match, by their bytes, with the reason.
const EXCEPTIONS: &[(&str, &str)] = &[];

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

#[test]
fn every_vector_prints_as_applegpu_does() {
    let text = include_str!("data/applegpu-vectors.tsv");
    let mut matched = 0;
    let mut printed = 0;
    let mut bad = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut cols = line.splitn(3, '\t');
        let (Some(row), Some(bytes), Some(want)) = (cols.next(), cols.next(), cols.next()) else {
            panic!("malformed line {line:?}");
        };
        let row: usize = row.parse().expect("row");
        if want.starts_with('!') {
            // applegpu fails on these (its assertions); they still decode to their row.
            let i = decode(&hex(bytes)).expect(bytes);
            assert!(std::ptr::eq(i.row, &rows()[row]), "{bytes}: {}", i.row.name);
            assert!(!applegpu(&i, 0x100).is_empty());
            continue;
        }
        printed += 1;
        let got = match decode(&hex(bytes)) {
            Ok(i) if std::ptr::eq(i.row, &rows()[row]) => applegpu(&i, 0x100),
            Ok(i) => format!("<decoded as row {}>", i.row.name),
            Err(e) => format!("<{e}>"),
        };
        if got == want {
            matched += 1;
        } else {
            bad.insert(bytes, format!("{bytes}: want {want:?}, got {got:?}"));
        }
    }
    let listed: BTreeMap<&str, &str> = EXCEPTIONS.iter().copied().collect();
    let unlisted: Vec<&String> = bad
        .iter()
        .filter(|(b, _)| !listed.contains_key(*b))
        .map(|(_, m)| m)
        .collect();
    let stale: Vec<&&str> = listed.keys().filter(|b| !bad.contains_key(*b)).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "{} of {printed} differ:\n{}\nlisted but matching: {stale:?}",
        unlisted.len(),
        unlisted
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(printed, 3709 - 438, "vectors applegpu prints");
    assert_eq!(matched, printed - EXCEPTIONS.len());
}

#[test]
fn arbitrary_bytes_decode_and_print() {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut ok = 0;
    for _ in 0..100_000 {
        let bytes: Vec<u8> = (0..12).map(|_| next() as u8).collect();
        if let Ok(i) = decode(&bytes) {
            assert_eq!(i.operands.len(), i.row.operands.len());
            assert!(!applegpu(&i, next()).is_empty(), "{bytes:02x?}");
            ok += 1;
        }
    }
    assert!(ok > 1000, "{ok}");
}
