//! Running the real `wavejit` binary from the CLI tests (`tests/cli_*.rs`).

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository root: manifest paths and `tests/programs` are relative to it.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `wavejit ARGS` from the repository root.
pub fn wavejit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavejit"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the wavejit binary runs")
}

/// Stdout of a run that must succeed.
pub fn succeeds(args: &[&str]) -> String {
    let out = wavejit(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "wavejit {args:?} failed: {err}");
    assert!(err.is_empty(), "wavejit {args:?} wrote to stderr: {err}");
    String::from_utf8(out.stdout).expect("stdout is UTF-8")
}

/// The one-line reason of a run that must fail: non-zero exit status, nothing on stdout,
/// stderr exactly one line starting `wavejit: `, no panic.
pub fn fails(args: &[&str]) -> String {
    let out = wavejit(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "wavejit {args:?} succeeded");
    assert!(
        !err.contains("panicked"),
        "wavejit {args:?} panicked: {err}"
    );
    assert!(
        out.stdout.is_empty(),
        "wavejit {args:?} wrote to stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let line = err
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("stderr does not end a line: {err:?}"));
    assert!(
        !line.contains('\n'),
        "wavejit {args:?}: more than one line on stderr:\n{err}"
    );
    assert!(
        line.starts_with("wavejit: "),
        "wavejit {args:?}: stderr does not start with `wavejit: `: {err}"
    );
    line.to_string()
}

/// A path for a scratch file of this test process, new at every call (removed by the
/// caller or left in the system's temporary directory).
pub fn temp_path(name: &str) -> PathBuf {
    // A number per call: the tests of one process run in parallel threads, and two of them
    // naming the same file (cli_wave's states of one target) removed each other's.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("wavejit-cli-{}-{n}-{name}", std::process::id()))
}

/// A scratch file of this test process holding given bytes, removed when dropped (also
/// when the test fails); its path as a `&str` through `Deref`.
pub struct TempFile(String);

impl TempFile {
    pub fn new(name: &str, bytes: impl AsRef<[u8]>) -> TempFile {
        let path = temp_path(name);
        std::fs::write(&path, bytes).unwrap();
        TempFile(path.to_str().unwrap().to_string())
    }
}

impl std::ops::Deref for TempFile {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Asserts that `text` contains every one of `parts`.
pub fn assert_mentions(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "`{text}` does not mention `{p}`");
    }
}

/// Runs `wavejit wave FILE --target TARGET --state (state) EXTRA...` and parses the output
/// state (the `wavejit wave` tests of every ISA).
pub fn wave(
    file: &str,
    target: &str,
    state: &serde_json::Value,
    extra: &[&str],
) -> serde_json::Value {
    let path = temp_path(&format!(
        "{target}-{}.json",
        extra.join("_").replace('/', "_")
    ));
    std::fs::write(&path, state.to_string()).unwrap();
    let p = path.to_str().unwrap();
    let mut args = vec!["wave", file, "--target", target, "--state", p];
    args.extend(extra);
    let out = succeeds(&args);
    std::fs::remove_file(&path).unwrap();
    serde_json::from_str(&out).unwrap()
}

/// A state's per-lane register values.
pub fn lanes(v: &serde_json::Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

/// Deterministic pseudo-random numbers (xorshift64*), one stream per seed: the inputs of the
/// kernel tests.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        self.u32() % n
    }

    /// A number in `lo..hi`.
    pub fn i32_in(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo) as u32) as i32
    }

    /// `n` numbers in `0..below`.
    pub fn u32s(&mut self, n: usize, below: u32) -> Vec<u32> {
        (0..n).map(|_| self.below(below)).collect()
    }

    /// A float in [lo, hi).
    pub fn f32(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * (self.u32() >> 8) as f32 / (1u32 << 24) as f32
    }
}

/// The little-endian bytes of `words`.
pub fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The little-endian dwords of `bytes` (a trailing partial dword is dropped).
pub fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
