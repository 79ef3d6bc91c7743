//! TeraScale `.s` files: r600 listings (the text `llc -march=r600` writes and `wavejit disasm`
//! prints for an r600 object) run under the r600 object convention (the TeraScale part of the
//! contract in [`crate::asm_file`], repeated in README.md "Assembly files").
//!
//! - **Target**: an r600 chip name as [`Chip::from_name`] takes it (cedar, redwood, sumo,
//!   juniper, cypress, barts, turks, caicos, cayman; palm, hemlock, aruba). Its class (VLIW5 or
//!   VLIW4) decides the slot rules of the text.
//! - **Lines**, read as [`wavejit_terascale::asm::assemble`] reads them (`;` starts a
//!   comment): a line whose first word starts with `.` is a directive (llc's `.text`,
//!   `.section`, `.long`, `.globl`, local labels such as `.Lfunc_end0:`) and is ignored apart
//!   from `.globl`; a line that is one word ending in `:` is a label; every other line is
//!   program text, assembled with its line number. One thing llc's text does not say: it
//!   prints the 64- and 128-bit STORE_DWORD alike (`MEM_RAT_CACHELESS STORE_DWORD T6, T2.X`);
//!   without the `COMP_MASK:3` token `wavejit disasm` adds to the 64-bit form, such a line is
//!   the 128-bit store (frontend/terascale/src/print.rs).
//! - **Kernels** (named by the shared rule of [`crate::asm_file`]): r600 text has no branch labels (CF
//!   and clause addresses are word numbers), so a label can only start a function. When the
//!   file declares no `.globl`, every label is a kernel: the form `wavejit disasm` prints
//!   (`NAME:` and its listing). A kernel's program is the program text from its label to the
//!   next kernel label; other labels (llc's `NAME$local:`) are skipped. Program text before the
//!   first kernel label, a kernel label given twice and a kernel without program text are
//!   errors. A file without labels is one kernel, named after the stem. Each kernel is one
//!   whole program as `assemble` reads it: the CF program from word 0, then its clauses.
//! - **Addresses**: each kernel's code is placed at guest address 0, so pcs in messages are
//!   byte offsets from its first CF word, as `wavejit disasm` numbers them.
//! - **Launch**: that of r600 objects ([`super`], README.md "TeraScale (r600)
//!   objects"): constant buffer 0 holds the 36-byte header (ngroups, global size, local size)
//!   and then the `--arg` values at natural alignment; buffers are 32-bit byte offsets from
//!   the global pool base (RAT 0 and fetch buffer 1 cover the pool); T0.xyz = local id,
//!   T1.xyz = group id, the lanes holding work-items active (64 per wave, 32 on cedar);
//!   scratch gets the per-lane bytes the code addresses; the 64 KiB GDS, zero-filled before
//!   each dispatch and shared by all its work-groups, is bound when the code has MEM_GDS
//!   (Cayman). Every other GPR starts at 0 (hardware leaves it undefined).
//! - **Resources** the text does not declare: the GPR count does not matter to the emulator
//!   (every wave has the whole file, T0-T127, as for objects, whose NUM_GPRS the loader
//!   documents as a lower bound) and `info` shows 128; the CF stack is the lifter's fixed
//!   capacity whatever STACK_SIZE says (`lift::state::STACK_SUBENTRIES`), shown as its 32
//!   entries; LDS is [`DEFAULT_LDS_BYTES`] per work-group. An llc listing's `.AMDGPU.config`
//!   `.long` pairs are directives and are not read.
//!
//! Override key: `lds_size` (bytes, a multiple of 4 as `SQ_LDS_ALLOC` counts dwords, at most
//! 32768). There is no mode key: r600 code sets its float mode with SET_MODE, and DX10_CLAMP
//! is always on for compute ([`wavejit_terascale::launch::DX10_CLAMP`]).
//!
//! The kernels become synthetic [`loader::Kernel`]s of a [`CodeObject`], so describing,
//! disassembling, lifting and running are those of r600 objects ([`super::TsModule`]).

use crate::asm_file::{self, declared_kernels, line_error, overrides};
use crate::{Error, Result};
use std::path::Path;
use wavejit_terascale::lift::state::{GPRS, STACK_SUBENTRIES};
use wavejit_terascale::loader::{self, CodeObject, MAX_LDS_BYTES};
use wavejit_terascale::Chip;

/// LDS bytes a work-group gets unless `lds_size` says otherwise: all a work-group can address.
pub const DEFAULT_LDS_BYTES: u32 = MAX_LDS_BYTES;
/// CF stack entries shown by `info`: the lifter's fixed capacity (4 subentries an entry).
const STACK_ENTRIES: u32 = STACK_SUBENTRIES / 4;

/// What a line of r600 text is.
#[derive(Debug, PartialEq, Eq)]
enum Line<'a> {
    Blank,
    Directive,
    Label(&'a str),
    Program,
}

/// The text of a line before its comment (`;`, the assembler's rule).
fn code_part(line: &str) -> &str {
    line.split(';').next().unwrap_or("")
}

fn classify(line: &str) -> Line<'_> {
    let t = code_part(line).trim();
    if t.is_empty() {
        Line::Blank
    } else if t.starts_with('.') {
        Line::Directive
    } else if let Some(name) = t
        .strip_suffix(':')
        .filter(|n| !n.contains(char::is_whitespace))
    {
        Line::Label(name)
    } else {
        Line::Program
    }
}

/// Assembles `text` (the file `path`, whose stem names the kernel of a file without labels)
/// for `chip`: its kernels as an r600 object's.
pub fn parse(path: &Path, text: &str, chip: Chip) -> Result<CodeObject> {
    let (shown, stem) = asm_file::names(path);
    let path = shown.as_str();
    let fail = |(line, msg): (usize, String)| line_error(path, line, msg);
    let lds_size = lds_size(text).map_err(fail)?;
    let lines: Vec<Line> = text.lines().map(classify).collect();
    let labels: Vec<(usize, &str)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| match l {
            Line::Label(name) => Some((i, *name)),
            _ => None,
        })
        .collect();
    let first_label = |name: &str| labels.iter().find(|l| l.1 == name).map(|l| l.0);
    let mut kernels: Vec<(String, usize)> =
        declared_kernels(text, code_part, first_label).map_err(fail)?;
    if kernels.is_empty() {
        for &(i, name) in &labels {
            if !kernels.iter().any(|k| k.0 == name) {
                kernels.push((name.to_string(), i));
            }
        }
    }
    let owner = owners(text, &lines, &kernels).map_err(fail)?;
    if kernels.is_empty() {
        if owner.iter().all(Option::is_none) {
            return Err(Error::Other(format!("{path}: no instructions")));
        }
        kernels.push((stem, 0));
    }
    let mut code_kernels = Vec::new();
    let mut text_offset = 0;
    for (k, (name, label)) in kernels.iter().enumerate() {
        if !owner.contains(&Some(k)) {
            return Err(fail((
                label + 1,
                format!("kernel `{name}` has no instructions"),
            )));
        }
        // The kernel's lines at their own line numbers, every other line blank, so the
        // assembler's errors name lines of the file.
        let own: Vec<&str> = text
            .lines()
            .zip(&owner)
            .map(|(l, o)| if *o == Some(k) { l } else { "" })
            .collect();
        let code = wavejit_terascale::asm::assemble(chip.class(), &own.join("\n"))
            .map_err(|e| line_error(path, e.line, e.msg))?;
        let size = code.len() as u32;
        code_kernels.push(loader::Kernel {
            name: name.clone(),
            code,
            text_offset,
            sq_pgm_resources: GPRS | STACK_ENTRIES << 8,
            num_gprs: GPRS,
            stack_size: STACK_ENTRIES,
            kill_enable: false,
            lds_size,
            config: Vec::new(),
        });
        text_offset += size;
    }
    Ok(CodeObject {
        chip,
        e_flags: chip.elf_mach(),
        kernels: code_kernels,
    })
}

/// The kernel (an index into `kernels`, each a name and the index of its label line) each
/// line's program text belongs to: the last kernel label above it, or the one kernel of a
/// file without kernel labels.
fn owners(
    text: &str,
    lines: &[Line],
    kernels: &[(String, usize)],
) -> Result<Vec<Option<usize>>, (usize, String)> {
    let mut owner = vec![None; lines.len()];
    let mut current = None;
    for (i, line) in lines.iter().enumerate() {
        match line {
            Line::Label(name) if kernels.iter().any(|k| k.0 == *name) => {
                if kernels.iter().any(|k| k.0 == *name && k.1 != i) {
                    return Err((i + 1, format!("kernel label `{name}:` appears twice")));
                }
                current = kernels.iter().position(|k| k.0 == *name);
            }
            Line::Program if kernels.is_empty() => owner[i] = Some(0),
            Line::Program => {
                let Some(k) = current else {
                    let what = code_part(text.lines().nth(i).unwrap_or("")).trim();
                    return Err((
                        i + 1,
                        format!("`{what}` comes before the first kernel label"),
                    ));
                };
                owner[i] = Some(k);
            }
            _ => {}
        }
    }
    Ok(owner)
}

/// The LDS bytes per work-group: [`DEFAULT_LDS_BYTES`] or the file's `lds_size`.
fn lds_size(text: &str) -> Result<u32, (usize, String)> {
    let mut bytes = DEFAULT_LDS_BYTES;
    for o in overrides(text, &["lds_size"])? {
        if o.value > u64::from(MAX_LDS_BYTES) || o.value % 4 != 0 {
            return Err(o.bad("a multiple of 4 bytes, at most 32768"));
        }
        bytes = o.value as u32;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "\tCF_END\n\tPAD\n";

    fn names(f: &CodeObject) -> Vec<&str> {
        f.kernels.iter().map(|k| k.name.as_str()).collect()
    }

    #[test]
    fn lines_are_directives_labels_or_program() {
        assert_eq!(classify("\t.long\t166100"), Line::Directive);
        assert_eq!(classify(".Lfunc_end0:"), Line::Directive);
        assert_eq!(classify("k:   ; @k"), Line::Label("k"));
        assert_eq!(classify("; %bb.0:"), Line::Blank);
        assert_eq!(classify("\tALU clause starting at 4:"), Line::Program);
        assert_eq!(classify("\t  VTX_READ_32 T0.X, T0.X, 0, #1"), Line::Program);
    }

    #[test]
    fn kernels_are_globl_labels_or_every_label_or_the_file() {
        let two = format!("\t.globl b\na:\n{PROGRAM}b:\nb$local:\n{PROGRAM}");
        let f = parse(Path::new("t.s"), &two, Chip::Cayman);
        assert!(
            f.is_err(),
            "a's program text comes before the first kernel label"
        );
        let two = format!("\t.globl a, b\na:\n{PROGRAM}.Lfunc_end0:\nb:\nb$local:\n{PROGRAM}");
        let f = parse(Path::new("t.s"), &two, Chip::Cayman).unwrap();
        assert_eq!(names(&f), ["a", "b"]);
        let f = parse(
            Path::new("t.s"),
            &format!("a:\n{PROGRAM}b:\n{PROGRAM}"),
            Chip::Cypress,
        )
        .unwrap();
        assert_eq!(names(&f), ["a", "b"]);
        let k = &f.kernels[1];
        assert_eq!((k.text_offset, k.code.len()), (16, 16));
        let f = parse(Path::new("t.s"), PROGRAM, Chip::Cypress).unwrap();
        assert_eq!(names(&f), ["t"]);
        for bad in [
            format!("a:\n{PROGRAM}a:\n{PROGRAM}"),
            format!("a:\nb:\n{PROGRAM}"),
            "; nothing\n".to_string(),
        ] {
            assert!(
                parse(Path::new("t.s"), &bad, Chip::Cayman).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn assembler_errors_name_lines_of_the_file() {
        let text = format!("\t.text\nk:\n\tCF_END\n\tNOT_AN_OP\n{PROGRAM}");
        let e = parse(Path::new("t.s"), &text, Chip::Cayman).err().unwrap();
        assert!(e.to_string().starts_with("t.s: line 4: "), "{e}");
    }

    #[test]
    fn lds_size_is_the_override_or_the_whole_lds() {
        let f = parse(Path::new("t.s"), PROGRAM, Chip::Cayman).unwrap();
        assert_eq!(f.kernels[0].lds_size, 32768);
        let text = format!("; wavejit: lds_size 0x100\n{PROGRAM}");
        let f = parse(Path::new("t.s"), &text, Chip::Cayman).unwrap();
        assert_eq!(f.kernels[0].lds_size, 256);
        for bad in ["lds_size 32772", "lds_size 6", "float_mode 0"] {
            let text = format!("{PROGRAM}; wavejit: {bad}\n");
            let e = parse(Path::new("t.s"), &text, Chip::Cayman).err().unwrap();
            assert!(e.to_string().starts_with("t.s: line 3: "), "{e}");
        }
    }
}
