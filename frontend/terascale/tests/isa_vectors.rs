//! Disassembly of llc-14's own output: every function of every vector file in tests/vectors
//! (made by scripts/gen-terascale-vectors.sh from tests/vectors/src/*.cl) is decoded from its
//! encoding bytes and printed; the text must equal llc's listing line by line.
use std::path::Path;
use wavejit_terascale::{decode_program, print_program, Chip};

pub struct Function {
    pub file: String,
    pub name: String,
    pub chip: Chip,
    pub bytes: Vec<u8>,
    pub lines: Vec<String>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

pub fn vectors() -> Vec<Function> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for file in names {
        let chip_name = file.trim_end_matches(".txt").rsplit('_').next().unwrap();
        let chip = Chip::from_name(chip_name).unwrap();
        let text = std::fs::read_to_string(dir.join(&file)).unwrap();
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("FUNCTION ") {
                out.push(Function {
                    file: file.clone(),
                    name: name.to_string(),
                    chip,
                    bytes: vec![],
                    lines: vec![],
                });
                continue;
            }
            let (bytes, listing) = line.split_once('|').unwrap();
            let f = out.last_mut().unwrap();
            f.bytes.extend(hex(bytes));
            f.lines.push(listing.to_string());
        }
    }
    out
}

#[test]
fn llc_listings_round_trip_through_decode_and_print() {
    let all = vectors();
    assert!(
        all.len() >= 50,
        "expected the checked-in vectors, found {}",
        all.len()
    );
    let mut failures = Vec::new();
    for f in &all {
        let program = match decode_program(f.chip.class(), &f.bytes) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{} {}: decode error: {e}", f.file, f.name));
                continue;
            }
        };
        let printed = print_program(&program);
        for (k, (got, want)) in printed.iter().zip(&f.lines).enumerate() {
            // The one documented addition to LLVM's text: LLVM prints 64- and 128-bit
            // STORE_DWORD alike, so the 64-bit form carries COMP_MASK:3 (see print.rs).
            let dword64 = want.contains("STORE_DWORD") && *got == format!("{want} COMP_MASK:3");
            if got != want && !dword64 {
                failures.push(format!(
                    "{} {} line {k}:\n  got  {got:?}\n  want {want:?}",
                    f.file, f.name
                ));
                break;
            }
        }
        if printed.len() != f.lines.len() {
            failures.push(format!(
                "{} {}: {} lines, llc has {}",
                f.file,
                f.name,
                printed.len(),
                f.lines.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} functions differ:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
