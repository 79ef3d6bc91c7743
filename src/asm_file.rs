//! Assembly text files (`.s`): the rules every ISA's text files share, run under a fixed
//! launch convention.
//!
//! A text file carries no code object, so nothing in it says which chip it is for, where its
//! arguments are or which registers the hardware fills in. This module and each ISA's text
//! part (`src/isa/*/asm.rs`) state all of it (a contract, repeated in README.md "Assembly
//! files"). The rules every ISA shares live here:
//!
//! - **Target**: `--target CHIP` is required and picks the ISA (the registry's
//!   [`crate::registry::target`]). Any other name is an "unknown target" error.
//! - **Text**: UTF-8; the syntax is the ISA's assembler's. Errors name the file and the line.
//! - **Kernels**: every name declared with `.globl NAME` (or `.global NAME`) whose label
//!   `NAME:` is in the file is a kernel entering at that label, as in `llc` output; a declared
//!   name without its label is an error. A file with no kernel holds one kernel named after the
//!   file stem (`add.s` -> `add`). The ISA parts say where a kernel's code ends (and TeraScale
//!   adds one case for files without `.globl`). A `--kernel` name that is not a kernel is an
//!   error listing the kernels.
//! - **Overrides**, one per comment line, for the whole file: `; wavejit: KEY VALUE`, VALUE a
//!   decimal or `0x` number. Each ISA names its keys; an unknown key, a repeated one or a value
//!   out of range is an error at its line.

use crate::{Error, Result};
use std::path::Path;

/// The path of a text file as messages show it, and its stem (the name of its only kernel
/// when it declares none).
pub fn names(path: &Path) -> (String, String) {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    (path.display().to_string(), stem)
}

/// Reads a text file as UTF-8.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = crate::cli::read(path)?;
    String::from_utf8(bytes)
        .map_err(|_| Error::Other(format!("{}: not UTF-8 text", path.display())))
}

/// The error of line `line` (1-based) of the file `path`.
pub fn line_error(path: &str, line: usize, msg: impl std::fmt::Display) -> Error {
    Error::Other(format!("{path}: line {line}: {msg}"))
}

/// The kernels a file declares: every `.globl NAME` / `.global NAME` (`.globl a, b` declares
/// several) in file order, once each, with what `label` finds for `NAME:`. `code_part` is the
/// ISA's rule for the text of a line before its comment.
pub fn declared_kernels<T>(
    text: &str,
    code_part: fn(&str) -> &str,
    label: impl Fn(&str) -> Option<T>,
) -> Result<Vec<(String, T)>, (usize, String)> {
    let mut out: Vec<(String, T)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = code_part(line).split_whitespace();
        if !matches!(words.next(), Some(".globl" | ".global")) {
            continue;
        }
        for name in words.flat_map(|w| w.split(',')).filter(|n| !n.is_empty()) {
            let found = label(name).ok_or_else(|| {
                (
                    i + 1,
                    format!("`{name}` is declared .globl but has no label `{name}:`"),
                )
            })?;
            if !out.iter().any(|(n, _)| n == name) {
                out.push((name.to_string(), found));
            }
        }
    }
    Ok(out)
}

/// One `; wavejit: KEY VALUE` line.
#[derive(Debug)]
pub struct Override<'a> {
    pub line: usize,
    pub key: &'a str,
    pub value: u64,
    /// The text after `wavejit:`, for messages.
    text: &'a str,
}

impl Override<'_> {
    /// The error "bad directive" at this line, for `why`.
    pub fn bad(&self, why: &str) -> (usize, String) {
        bad_directive(self.line, self.text, why)
    }
}

fn bad_directive(line: usize, text: &str, why: &str) -> (usize, String) {
    (line, format!("bad directive `wavejit:{text}`: {why}"))
}

/// The `; wavejit: KEY VALUE` lines of a file, each KEY one of `keys` and at most once.
pub fn overrides<'a>(text: &'a str, keys: &[&str]) -> Result<Vec<Override<'a>>, (usize, String)> {
    let mut out: Vec<Override<'a>> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((_, comment)) = line.split_once(';') else {
            continue;
        };
        let Some(rest) = comment.trim().strip_prefix("wavejit:") else {
            continue;
        };
        let bad = |why: &str| bad_directive(i + 1, rest, why);
        let words: Vec<&str> = rest.split_whitespace().collect();
        let [key, value] = words[..] else {
            return Err(bad("expected KEY VALUE"));
        };
        let value = parse_u64(value).ok_or_else(|| bad("the value is not a number"))?;
        if !keys.contains(&key) {
            return Err(bad(&format!("unknown key ({})", keys.join(" "))));
        }
        if out.iter().any(|o| o.key == key) {
            return Err(bad("repeated"));
        }
        out.push(Override {
            line: i + 1,
            key,
            value,
            text: rest,
        });
    }
    Ok(out)
}

fn parse_u64(s: &str) -> Option<u64> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_kernels_need_their_labels() {
        let text = "\t.globl a, b ; both\n.global a\n";
        let found = declared_kernels(
            text,
            |l| l.split(';').next().unwrap(),
            |n| (n != "c").then_some(n.len()),
        );
        assert_eq!(found.unwrap(), [("a".to_string(), 1), ("b".to_string(), 1)]);
        let missing = declared_kernels(".globl c\n", |l| l, |n| (n != "c").then_some(0));
        assert_eq!(missing.unwrap_err().0, 1);
    }

    #[test]
    fn overrides_take_known_keys_once() {
        let o = overrides("; wavejit: a 0x10\n x ; wavejit: b 3\n", &["a", "b"]).unwrap();
        let got: Vec<(usize, &str, u64)> = o.iter().map(|o| (o.line, o.key, o.value)).collect();
        assert_eq!(got, [(1, "a", 16), (2, "b", 3)]);
        for (text, line) in [
            ("; wavejit: c 1", 1),
            ("\n; wavejit: a", 2),
            ("; wavejit: a one", 1),
            ("; wavejit: a 1\n; wavejit: a 1", 2),
        ] {
            assert_eq!(overrides(text, &["a"]).unwrap_err().0, line, "{text}");
        }
    }
}
