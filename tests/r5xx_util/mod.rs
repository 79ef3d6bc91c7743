//! What the R5xx CLI tests share: a scratch directory holding a stream and its files, the
//! checked-in programs of `tests/programs/r5xx`, and float/byte conversions.

#![allow(dead_code)]

pub mod address;

use std::path::{Path, PathBuf};

/// The checked-in R5xx programs and streams.
pub const PROGRAMS: &str = "tests/programs/r5xx";

/// A scratch directory of this test process, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("wavejit-r5xx-{}-{n}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    pub fn dir(&self) -> &Path {
        &self.0
    }

    /// The path of `name` in the directory, as a string.
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }

    /// Writes `name`; its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        std::fs::write(self.0.join(name), bytes).unwrap();
        self.path(name)
    }

    /// Copies the checked-in `tests/programs/r5xx/NAME` into the directory; its path.
    pub fn copy(&self, name: &str) -> String {
        let from = cli_root().join(PROGRAMS).join(name);
        let bytes = std::fs::read(&from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
        self.write(name, bytes)
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.0.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn cli_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Little-endian bytes of floats.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Floats of little-endian bytes.
pub fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Little-endian dwords of bytes.
pub fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// The binary form (`.cb`) of a text stream's commands (its directives dropped).
pub fn binary(text: &str) -> Vec<u8> {
    wavejit_r5xx::stream::Stream::parse_text(text)
        .unwrap_or_else(|e| panic!("{e}"))
        .to_binary()
}
