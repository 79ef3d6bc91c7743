//! Shared helpers of the loader tests: the fixture directories and their oracle files
//! (`<k>.oracle.tsv`, written by scripts/regen-fixtures.sh from llvm-readelf-14,
//! llvm-readobj-14 --notes and the llc listings).
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

/// (directory, LLVM processor name for the chip, generation), per notes/amd_launch_abi.md §3.1.
pub const HSA_DIRS: [(&str, &str, u8); 6] = [
    ("tahiti", "gfx600", 6),
    ("bonaire", "gfx704", 7),
    ("hawaii", "gfx701", 7),
    ("tonga", "gfx802", 8),
    ("fiji", "gfx803", 8),
    ("gfx900", "gfx900", 9),
];
pub const LEGACY_DIRS: [(&str, &str, u8); 2] = [
    ("legacy-tahiti", "gfx600", 6),
    ("legacy-gfx900", "gfx900", 9),
];

pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/gcn")
}

/// The kernels of a fixture directory (from its oracle files), sorted. Never empty.
pub fn kernels(dir: &str) -> Vec<String> {
    let path = fixtures().join(dir);
    let mut out: Vec<String> = std::fs::read_dir(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".oracle.tsv").map(str::to_string))
        .collect();
    out.sort();
    assert!(out.len() >= 12, "{dir}: only {} fixture kernels", out.len());
    out
}

pub fn read(dir: &str, file: &str) -> Vec<u8> {
    let path = fixtures().join(dir).join(file);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `field -> value` of one kernel's oracle file.
pub struct Oracle(pub HashMap<String, String>, pub String);

impl Oracle {
    pub fn load(dir: &str, kernel: &str) -> Oracle {
        let text = String::from_utf8(read(dir, &format!("{kernel}.oracle.tsv"))).unwrap();
        let map = text
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Oracle(map, format!("{dir}/{kernel}"))
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    pub fn str(&self, key: &str) -> &str {
        self.get(key)
            .unwrap_or_else(|| panic!("{}: oracle has no {key}", self.1))
    }

    /// A decimal or 0x-hexadecimal number.
    pub fn num(&self, key: &str) -> u64 {
        parse_num(self.str(key))
    }

    pub fn flag(&self, key: &str) -> bool {
        match self.num(key) {
            0 => false,
            1 => true,
            v => panic!("{}: {key} = {v} is not a flag", self.1),
        }
    }
}

pub fn parse_num(s: &str) -> u64 {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("{s}: {e}")),
        None => s.parse().unwrap_or_else(|e| panic!("{s}: {e}")),
    }
}
