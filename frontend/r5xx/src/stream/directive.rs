//! The host directives of a text stream (DESIGN.md, "`wavejit ctm`"), word for word:
//! ```text
//! memory SIZE              GPU memory size in bytes (default 64 MiB), addresses 0..SIZE-1
//! load ADDR PATH           copy a file (relative to FILE) into GPU memory before the stream runs
//! program ADDR PATH        load a CTM ELF (seed 003 chapter 4) or raw instruction words at ADDR
//!                          and apply its program info as the CTM loader would
//! save ADDR SIZE PATH      after the stream has run, write that memory to PATH
//! ```
//! and their option forms for binary streams: `--load ADDR:PATH`, `--program ADDR:PATH`,
//! `--save ADDR:SIZE:PATH`.
//!
//! Directives are not commands: `memory`, `load` and `program` take effect before the first
//! command and `save` after the last, wherever they stand, so a text stream and a binary
//! stream with the same options mean the same. Loads and programs are applied in file order
//! (a later one overwrites an earlier one's bytes). PATH is the rest of the line, verbatim
//! (it may hold spaces, not `;`); the executor resolves it relative to FILE. Checked here:
//! one `memory` at most, SIZE in 1..=2^32, every ADDR below SIZE, and every saved range
//! inside memory; a loaded file's length is checked when it is read.
//!
//! Numbers, here and in command parameters: decimal digits, or `0x`/`0X` and hex digits.

use super::{Pos, StreamError};
use std::path::PathBuf;

/// The GPU memory size without a `memory` directive: 64 MiB.
pub const DEFAULT_MEMORY: u64 = 64 << 20;

/// A number of the stream syntax, at most `max`.
pub fn number(pos: Pos, text: &str, max: u64) -> Result<u64, StreamError> {
    let bad = |why| StreamError::BadNumber {
        pos,
        text: text.to_string(),
        why,
    };
    let (digits, radix) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (text, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(bad("expected decimal digits or 0x and hex digits"));
    }
    match u64::from_str_radix(digits, radix) {
        Ok(v) if v <= max => Ok(v),
        _ if max == u32::MAX as u64 => Err(bad("does not fit in 32 bits")),
        _ => Err(bad("too large")),
    }
}

/// A 32-bit number.
pub fn dword(pos: Pos, text: &str) -> Result<u32, StreamError> {
    number(pos, text, u32::MAX as u64).map(|v| v as u32)
}

/// What a `load` or `program` puts in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// The file's bytes.
    Load,
    /// A CTM ELF or raw instruction words, with its program info.
    Program,
}

/// A `load` or `program` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub pos: Pos,
    pub kind: ImageKind,
    pub addr: u32,
    pub path: PathBuf,
}

/// A `save` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Save {
    pub pos: Pos,
    pub addr: u32,
    pub size: u64,
    pub path: PathBuf,
}

/// A stream's directives, in file order within each kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Directives {
    /// `memory SIZE` and where it was given.
    pub memory: Option<(Pos, u64)>,
    pub images: Vec<Image>,
    pub saves: Vec<Save>,
}

impl Directives {
    /// The GPU memory size in bytes.
    pub fn memory_size(&self) -> u64 {
        self.memory.map_or(DEFAULT_MEMORY, |m| m.1)
    }

    /// Every address inside memory and every saved range too.
    pub fn check(&self) -> Result<(), StreamError> {
        let size = self.memory_size();
        let outside = |pos, what: String| StreamError::BadDirective {
            pos,
            msg: format!("{what} is outside GPU memory (0..{size:#x})"),
        };
        for i in &self.images {
            if i.addr as u64 >= size {
                return Err(outside(i.pos, format!("address {:#x}", i.addr)));
            }
        }
        for s in &self.saves {
            if s.addr as u64 + s.size > size {
                return Err(outside(
                    s.pos,
                    format!("{:#x}..{:#x}", s.addr, s.addr as u64 + s.size),
                ));
            }
        }
        Ok(())
    }

    /// The `program` whose ADDR is `base`, the instruction base of a `start_program`: the
    /// program info a launch runs under (the last such directive, as it overwrote the rest).
    pub fn program_at(&self, base: u32) -> Option<&Image> {
        self.images
            .iter()
            .rev()
            .find(|i| i.kind == ImageKind::Program && i.addr == base)
    }
}

impl Image {
    /// `--load ADDR:PATH` (kind `Load`) or `--program ADDR:PATH` (kind `Program`).
    pub fn from_option(kind: ImageKind, arg: &str) -> Result<Image, StreamError> {
        let pos = Pos::Option(match kind {
            ImageKind::Load => "--load",
            ImageKind::Program => "--program",
        });
        let (addr, path) = arg
            .split_once(':')
            .ok_or_else(|| StreamError::BadDirective {
                pos,
                msg: format!("`{arg}` is not ADDR:PATH"),
            })?;
        Ok(Image {
            pos,
            kind,
            addr: dword(pos, addr)?,
            path: nonempty(pos, path)?,
        })
    }
}

impl Save {
    /// `--save ADDR:SIZE:PATH`.
    pub fn from_option(arg: &str) -> Result<Save, StreamError> {
        let pos = Pos::Option("--save");
        let mut parts = arg.splitn(3, ':');
        let (Some(addr), Some(size), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(StreamError::BadDirective {
                pos,
                msg: format!("`{arg}` is not ADDR:SIZE:PATH"),
            });
        };
        save(pos, addr, size, path)
    }
}

pub(super) fn save(pos: Pos, addr: &str, size: &str, path: &str) -> Result<Save, StreamError> {
    let addr = dword(pos, addr)?;
    let size = number(pos, size, 1 << 32)?;
    if size == 0 {
        return Err(StreamError::BadDirective {
            pos,
            msg: "save of 0 bytes".into(),
        });
    }
    Ok(Save {
        pos,
        addr,
        size,
        path: nonempty(pos, path)?,
    })
}

pub(super) fn nonempty(pos: Pos, path: &str) -> Result<PathBuf, StreamError> {
    let path = path.trim();
    if path.is_empty() {
        return Err(StreamError::BadDirective {
            pos,
            msg: "missing PATH".into(),
        });
    }
    Ok(PathBuf::from(path))
}
