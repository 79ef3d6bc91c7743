//! The AMD APP SDK corpus the appsdk tests read in place (shared/corpora/amd-app-sdk beside the
//! clone) and its independent listing, kernels.tsv. A test whose corpus is absent says
//! `NOT RUN: <path> absent` and returns.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;

/// The corpus directory.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora/amd-app-sdk")
}

/// Every binary of the corpus as `(path under the corpus, bytes)`, sorted by path, or `None`
/// (after saying `NOT RUN`) when the corpus is absent.
pub fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = corpus_dir();
    if !dir.is_dir() {
        eprintln!("NOT RUN: {} absent", dir.display());
        return None;
    }
    let mut out = Vec::new();
    for sub in ["evergreen", "si"] {
        let mut names: Vec<String> = std::fs::read_dir(dir.join(sub))
            .unwrap_or_else(|e| panic!("{}/{sub}: {e}", dir.display()))
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".bin"))
            .collect();
        names.sort();
        for n in names {
            let path = format!("{sub}/{n}");
            out.push((path.clone(), read(&path)));
        }
    }
    Some(out)
}

/// The bytes of `path` under the corpus.
pub fn read(path: &str) -> Vec<u8> {
    let p = corpus_dir().join(path);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// One row of kernels.tsv, by column name.
pub struct Row(pub BTreeMap<String, String>);

impl Row {
    pub fn get(&self, column: &str) -> &str {
        self.0
            .get(column)
            .unwrap_or_else(|| panic!("kernels.tsv has no column {column}"))
    }

    /// The corpus path of the row's file: `si/` and the file name (the `file` column is the
    /// path in the sample repository, `<Sample>/<Sample>_Kernels.bin`).
    pub fn path(&self) -> String {
        let file = self.get("file");
        format!("si/{}", file.rsplit('/').next().unwrap_or(file))
    }

    /// `sample/kernel`, for messages.
    pub fn id(&self) -> String {
        format!("{}/{}", self.get("sample"), self.get("kernel"))
    }
}

/// The rows of kernels.tsv, or `None` (after saying `NOT RUN`) when it is absent.
pub fn kernels_tsv() -> Option<Vec<Row>> {
    let p = corpus_dir().join("kernels.tsv");
    let Ok(text) = std::fs::read_to_string(&p) else {
        eprintln!("NOT RUN: {} absent", p.display());
        return None;
    };
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .expect("kernels.tsv header")
        .split('\t')
        .collect();
    Some(
        lines
            .filter(|l| !l.is_empty())
            .map(|l| {
                let cells: Vec<&str> = l.split('\t').collect();
                assert_eq!(cells.len(), header.len(), "kernels.tsv line {l:?}");
                Row(header
                    .iter()
                    .zip(cells)
                    .map(|(h, c)| (h.to_string(), c.to_string()))
                    .collect())
            })
            .collect(),
    )
}

/// The little-endian dwords of `bytes` (a whole number of them).
pub fn dwords(bytes: &[u8]) -> Vec<u32> {
    assert_eq!(bytes.len() % 4, 0, "{} bytes", bytes.len());
    bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect()
}

/// SHA-1 of `data` in lower-case hex: kernels.tsv identifies each file by it.
pub fn sha1_hex(data: &[u8]) -> String {
    use sha1::{Digest, Sha1};
    Sha1::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
