//! `.s` files: assembly text of either ISA, run under a fixed launch convention.
//!
//! A `.s` file carries no code object, so nothing in it says which chip it is for, where its
//! arguments are or which registers the hardware fills in. This module and its two ISA parts
//! state all of it (a contract, repeated in README.md "Assembly files"). The rules both ISAs
//! share live here:
//!
//! - **Target**: `--target CHIP` is required and picks the ISA: a GCN chip (`gfx900`, `tahiti`,
//!   `gfx8`, ..., [`gcn`]) or an r600 chip as `Chip::from_name` takes it (`cedar` ... `cayman`,
//!   [`terascale`]). Any other name is an "unknown target" error.
//! - **Text**: UTF-8; the syntax is the ISA's assembler's (GCN: LLVM 14 AMDGPU; TeraScale: the
//!   `llc -march=r600` listing `wavejit disasm` prints). Errors name the file and the line.
//! - **Kernels**: every name declared with `.globl NAME` (or `.global NAME`) whose label
//!   `NAME:` is in the file is a kernel entering at that label, as in `llc` output; a declared
//!   name without its label is an error. A file with no kernel holds one kernel named after the
//!   file stem (`add.s` -> `add`). The ISA parts say where a kernel's code ends (and TeraScale
//!   adds one case for files without `.globl`). A `--kernel` name that is not a kernel is an
//!   error listing the kernels.
//! - **Overrides**, one per comment line, for the whole file: `; wavejit: KEY VALUE`, VALUE a
//!   decimal or `0x` number. Each ISA names its keys; an unknown key, a repeated one or a value
//!   out of range is an error at its line.

pub mod gcn;
pub mod terascale;

use crate::launch::{Prepared, RunOutcome, RunRequest};
use crate::{Error, Result};
use std::path::Path;

/// Whether `path` names an assembly file (extension `.s`).
pub fn is_asm_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("s"))
}

/// An assembled `.s` file of either ISA.
pub enum AsmFile {
    Gcn(gcn::GcnAsm),
    TeraScale(terascale::TsAsm),
}

/// Reads, assembles and describes the kernels of a `.s` file for `target`.
pub fn load(path: &Path, target: Option<&str>) -> Result<AsmFile> {
    let shown = path.display().to_string();
    let target = target.ok_or_else(|| {
        Error::Usage(format!(
            "{shown}: an assembly file needs --target CHIP (e.g. gfx900, fiji, hawaii, tahiti; \
             cypress, cayman for r600 text)"
        ))
    })?;
    let isa = match (
        wavejit_gcn::Gen::from_chip(target),
        wavejit_terascale::Chip::from_name(target),
    ) {
        (Some(gen), _) => Isa::Gcn(gen),
        (None, Some(chip)) => Isa::TeraScale(chip),
        (None, None) => return Err(Error::Usage(format!("unknown target '{target}'"))),
    };
    let bytes = crate::cli::read(path)?;
    let text =
        String::from_utf8(bytes).map_err(|_| Error::Other(format!("{shown}: not UTF-8 text")))?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(match isa {
        Isa::Gcn(gen) => AsmFile::Gcn(gcn::parse(&shown, &stem, &text, target, gen)?),
        Isa::TeraScale(chip) => {
            AsmFile::TeraScale(terascale::parse(&shown, &stem, &text, target, chip)?)
        }
    })
}

/// The ISA a `--target` name picks.
enum Isa {
    Gcn(wavejit_gcn::Gen),
    TeraScale(wavejit_terascale::Chip),
}

impl AsmFile {
    /// `wavejit info`: target, kernels and the launch convention.
    pub fn describe(&self) -> String {
        match self {
            AsmFile::Gcn(f) => f.describe(),
            AsmFile::TeraScale(f) => f.describe(),
        }
    }

    /// `wavejit disasm`: the listing of the assembled bytes of every kernel (or the named one).
    pub fn disassemble(&self, kernel: Option<&str>) -> Result<String> {
        match self {
            AsmFile::Gcn(f) => f.disassemble(kernel),
            AsmFile::TeraScale(f) => f.disassemble(kernel),
        }
    }

    /// `wavejit disasm --ir`: every kernel (or the named one) lifted to wavejit IR.
    pub fn lifted_ir(&self, kernel: Option<&str>) -> Result<String> {
        match self {
            AsmFile::Gcn(f) => f.lifted_ir(kernel),
            AsmFile::TeraScale(f) => f.lifted_ir(kernel),
        }
    }

    /// Places the arguments in guest memory, lifts kernel `req.kernel` and prepares it.
    pub fn prepare(&self, req: &RunRequest<'_>) -> Result<Box<dyn Prepared>> {
        Ok(match self {
            AsmFile::Gcn(f) => Box::new(f.prepare(req)?),
            AsmFile::TeraScale(f) => Box::new(f.prepare(req)?),
        })
    }

    /// [`AsmFile::prepare`], then one dispatch over the grid.
    pub fn run(&self, req: &RunRequest<'_>) -> Result<RunOutcome> {
        RunOutcome::run(self.prepare(req)?)
    }
}

/// The error of line `line` (1-based) of the file `path`.
fn line_error(path: &str, line: usize, msg: impl std::fmt::Display) -> Error {
    Error::Other(format!("{path}: line {line}: {msg}"))
}

/// The kernels a file declares: every `.globl NAME` / `.global NAME` (`.globl a, b` declares
/// several) in file order, once each, with what `label` finds for `NAME:`. `code_part` is the
/// ISA's rule for the text of a line before its comment.
fn declared_kernels<T>(
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
struct Override<'a> {
    line: usize,
    key: &'a str,
    value: u64,
    /// The text after `wavejit:`, for messages.
    text: &'a str,
}

impl Override<'_> {
    /// The error "bad directive" at this line, for `why`.
    fn bad(&self, why: &str) -> (usize, String) {
        bad_directive(self.line, self.text, why)
    }
}

fn bad_directive(line: usize, text: &str, why: &str) -> (usize, String) {
    (line, format!("bad directive `wavejit:{text}`: {why}"))
}

/// The `; wavejit: KEY VALUE` lines of a file, each KEY one of `keys` and at most once.
fn overrides<'a>(text: &'a str, keys: &[&str]) -> Result<Vec<Override<'a>>, (usize, String)> {
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
