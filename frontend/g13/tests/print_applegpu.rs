//! The applegpu-syntax printer against applegpu.py itself: every instruction of
//! tests/data/applegpu-vectors.tsv that applegpu disassembles (lines not marked `!`) decodes
//! to the line's row and prints, at pc 0x100, to the line's text; the lines applegpu fails
//! on decode to their row too, and arbitrary bytes decode and print or fail, never panic.

mod vectors;

use std::collections::BTreeMap;
use vectors::{applegpu_vectors, arbitrary_instructions, assert_only_listed};
use wavejit_g13::inst::decode;
use wavejit_g13::print::applegpu;
use wavejit_g13::random::Rng;

/// Lines that cannot match, by their bytes, with the reason.
const EXCEPTIONS: &[(&str, &str)] = &[];

#[test]
fn every_vector_prints_as_applegpu_does() {
    let mut matched = 0;
    let mut printed = 0;
    let mut bad = BTreeMap::new();
    for v in applegpu_vectors() {
        let Some(want) = v.text else {
            // applegpu fails on these (its assertions); they still decode to their row.
            let i = decode(&v.bytes).expect(v.hex);
            assert!(std::ptr::eq(i.row, v.row), "{}: {}", v.hex, i.row.name);
            assert!(!applegpu(&i, 0x100).is_empty());
            continue;
        };
        printed += 1;
        let got = match decode(&v.bytes) {
            Ok(i) if std::ptr::eq(i.row, v.row) => applegpu(&i, 0x100),
            Ok(i) => format!("<decoded as row {}>", i.row.name),
            Err(e) => format!("<{e}>"),
        };
        if got == want {
            matched += 1;
        } else {
            bad.insert(v.hex, format!("{}: want {want:?}, got {got:?}", v.hex));
        }
    }
    assert_only_listed(&bad, EXCEPTIONS, "applegpu's vectors");
    assert_eq!(printed, 3709 - 438, "vectors applegpu prints");
    assert_eq!(matched, printed - EXCEPTIONS.len());
}

#[test]
fn arbitrary_bytes_decode_and_print() {
    let mut pcs = Rng::new(4);
    arbitrary_instructions(1, |bytes, i| {
        assert_eq!(i.operands.len(), i.row.operands.len());
        assert!(!applegpu(&i, pcs.next_u64()).is_empty(), "{bytes:02x?}");
    });
}
