//! G13 `.s` files: applegpu-syntax listings (what applegpu.py and `wavejit disasm` print)
//! run under the G13 launch convention (the G13 part of the contract in
//! [`crate::asm_file`], repeated in README.md "Apple G13").
//!
//! - **Target**: `g13`.
//! - **Lines**, read as [`wavejit_g13::asm::assemble`] reads them (labels, `pc+label`,
//!   `;`, `#` and `//` comments); a line whose first word starts with `.` is a directive and
//!   is ignored apart from `.globl`.
//! - **Kernels** (the shared rule of [`crate::asm_file`]): each `.globl NAME` whose label
//!   `NAME:` is in the file enters there; a file without `.globl` is one kernel, named after
//!   the stem, entering at its first instruction. All kernels share the file's code, placed at
//!   guest address 0: pcs in messages are byte offsets from the file's first instruction, as
//!   `wavejit disasm` numbers them.
//! - **Override key**: `threadgroup_size` (bytes of threadgroup memory, a multiple of 4, at
//!   most 65536; default [`DEFAULT_THREADGROUP_BYTES`]).

use crate::asm_file::{self, declared_kernels, line_error, overrides};
use crate::{Error, Result};
use std::path::Path;
use wavejit_g13::launch::DEFAULT_THREADGROUP_BYTES;

/// The most threadgroup memory a file may ask for.
const MAX_THREADGROUP_BYTES: u64 = 64 << 10;

/// An assembled file: its code and kernels (name, entry offset).
pub struct Assembled {
    pub code: Vec<u8>,
    pub kernels: Vec<(String, u64)>,
    pub threadgroup_bytes: u32,
}

/// The text of a line before its comment.
fn code_part(line: &str) -> &str {
    let cut = [";", "#", "//"]
        .iter()
        .filter_map(|c| line.find(c))
        .min()
        .unwrap_or(line.len());
    &line[..cut]
}

/// Assembles the file `path` (`text`).
pub fn parse(path: &Path, text: &str) -> Result<Assembled> {
    let (shown, stem) = asm_file::names(path);
    let path = shown.as_str();
    let fail = |(line, msg): (usize, String)| line_error(path, line, msg);
    let mut threadgroup_bytes = DEFAULT_THREADGROUP_BYTES;
    for o in overrides(text, &["threadgroup_size"]).map_err(fail)? {
        if o.value % 4 != 0 || o.value > MAX_THREADGROUP_BYTES {
            return Err(fail(o.bad("a multiple of 4, at most 65536")));
        }
        threadgroup_bytes = o.value as u32;
    }
    // Directives become blank lines, so the assembler's line numbers are the file's.
    let program: Vec<&str> = text
        .lines()
        .map(|l| {
            if code_part(l).trim_start().starts_with('.') {
                ""
            } else {
                l
            }
        })
        .collect();
    let assembled = wavejit_g13::asm::assemble(&program.join("\n")).map_err(|e| match e.line {
        Some(n) => line_error(path, n, &e.message),
        None => Error::Other(format!("{path}: {}", e.message)),
    })?;
    if assembled.bytes.is_empty() {
        return Err(Error::Other(format!("{path}: no instructions")));
    }
    let labels = &assembled.labels;
    let mut kernels: Vec<(String, u64)> =
        declared_kernels(text, code_part, |name| labels.get(name).copied()).map_err(fail)?;
    if kernels.is_empty() {
        kernels.push((stem, 0));
    }
    for (name, entry) in &kernels {
        if *entry >= assembled.bytes.len() as u64 {
            return Err(Error::Other(format!(
                "{path}: kernel `{name}` has no instructions"
            )));
        }
    }
    Ok(Assembled {
        code: assembled.bytes,
        kernels,
        threadgroup_bytes,
    })
}
