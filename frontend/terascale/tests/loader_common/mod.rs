//! Shared helpers of the loader and launch tests: the r600 fixture directories, their oracle
//! files (`<k>.oracle.tsv`, written by scripts/regen-terascale-fixtures.sh from llvm-readelf-14
//! and the llc listing) and the `-show-mc-encoding` listings.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// The chips the fixtures are built for (the directory names are LLVM's `-mcpu` names).
pub const CHIPS: [&str; 5] = ["cayman", "cypress", "juniper", "redwood", "barts"];

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/terascale")
}

/// The kernels of a chip's directory (from its oracle files), sorted.
pub fn kernels(chip: &str) -> Vec<String> {
    let dir = fixtures().join(chip);
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut out = Vec::new();
    for entry in entries {
        let name = entry.unwrap().file_name();
        if let Some(k) = name.to_str().and_then(|n| n.strip_suffix(".oracle.tsv")) {
            out.push(k.to_string());
        }
    }
    out.sort();
    out
}

pub fn read(chip: &str, file: &str) -> Vec<u8> {
    let path = fixtures().join(chip).join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn read_text(chip: &str, file: &str) -> String {
    String::from_utf8(read(chip, file)).unwrap()
}

/// The oracle of one kernel: field -> value.
pub fn oracle(chip: &str, kernel: &str) -> HashMap<String, String> {
    read_text(chip, &format!("{kernel}.oracle.tsv"))
        .lines()
        .map(|l| {
            let (k, v) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("bad oracle line {l:?}"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// A `0x`-prefixed hex number or a decimal one.
pub fn num(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|e| panic!("{s:?}: {e}"))
}

/// The bytes of every `; encoding: [...]` comment of a `-show-mc-encoding` listing, in order:
/// llc's own encoding of the whole kernel.
pub fn listing_encoding(chip: &str, kernel: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in read_text(chip, &format!("{kernel}.enc.s")).lines() {
        let Some((_, enc)) = line.split_once("; encoding: [") else {
            continue;
        };
        let enc = enc.trim_end().trim_end_matches(']');
        out.extend(
            enc.split(',')
                .filter(|b| !b.is_empty())
                .map(|b| num(b) as u8),
        );
    }
    out
}

/// The listing's instruction lines (tabs and trailing blanks trimmed).
pub fn listing(chip: &str, kernel: &str) -> Vec<String> {
    read_text(chip, &format!("{kernel}.s"))
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}

/// (chip, kernel) pairs of tests/fixtures/terascale/missing.tsv.
pub fn missing() -> Vec<(String, String)> {
    let path = fixtures().join("missing.tsv");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| {
            let mut f = l.split('\t');
            (f.next().unwrap().to_string(), f.next().unwrap().to_string())
        })
        .collect()
}

/// Every kernel source of tests/fixtures/src.
pub fn sources() -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/src");
    let mut out: Vec<String> = std::fs::read_dir(&path)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".cl").map(str::to_string))
        .collect();
    out.sort();
    out
}
