//! Command streams: programs that a GPU runs from a host's command buffer rather than from a
//! kernel launch (`wavejit ctm`, DESIGN.md "`wavejit ctm`"). The command-line plumbing is
//! generic: a frontend says which subcommand runs its streams
//! ([`crate::frontend::Frontend::stream_command`]), the registry finds it
//! ([`crate::registry::stream_frontend`]) and hands it a [`StreamRequest`]; what a stream
//! means is the ISA's.
//!
//! The host directives a text stream carries (`load`, `program`, `save`) are options for a
//! binary stream: `--load ADDR:PATH`, `--program ADDR:PATH`, `--save ADDR:SIZE:PATH`
//! ([`Placement`], [`SaveRange`]); ADDR and SIZE are decimal or 0x-hex, PATH is the rest of
//! the value (it may contain `:`). Paths given as options are relative to the working
//! directory, as every other path of the command line is.

use crate::frontend::Target;
use crate::spec::SpecError;
use crate::EngineKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A file placed at a GPU address (`--load ADDR:PATH`, `--program ADDR:PATH`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub addr: u64,
    pub path: PathBuf,
}

/// GPU memory written to a file after the stream has run (`--save ADDR:SIZE:PATH`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveRange {
    pub addr: u64,
    pub size: u64,
    pub path: PathBuf,
}

/// A decimal or 0x-hex number.
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

impl std::str::FromStr for Placement {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Placement, SpecError> {
        let bad = || SpecError(format!("bad placement '{s}': expected ADDR:PATH"));
        let (addr, path) = s.split_once(':').ok_or_else(bad)?;
        let addr = parse_number(addr).ok_or_else(bad)?;
        if path.is_empty() {
            return Err(bad());
        }
        Ok(Placement {
            addr,
            path: PathBuf::from(path),
        })
    }
}

impl std::str::FromStr for SaveRange {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<SaveRange, SpecError> {
        let bad = || SpecError(format!("bad save range '{s}': expected ADDR:SIZE:PATH"));
        let (addr, rest) = s.split_once(':').ok_or_else(bad)?;
        let (size, path) = rest.split_once(':').ok_or_else(bad)?;
        let addr = parse_number(addr).ok_or_else(bad)?;
        let size = parse_number(size).ok_or_else(bad)?;
        if path.is_empty() {
            return Err(bad());
        }
        Ok(SaveRange {
            addr,
            size,
            path: PathBuf::from(path),
        })
    }
}

/// One run of a command stream file.
pub struct StreamRequest<'a> {
    pub file: &'a Path,
    /// The chip (`--target`, or the frontend's canonical one).
    pub target: Target,
    pub engine: EngineKind,
    /// Host threads a program's dispatch uses.
    pub threads: usize,
    /// Guest instructions one wave may execute in one program run.
    pub fuel: u64,
    /// Wall-clock limit of one program run.
    pub timeout: Duration,
    /// `--load`, in order (before the stream runs, after the file's own directives).
    pub loads: &'a [Placement],
    /// `--program`, in order (after the loads).
    pub programs: &'a [Placement],
    /// `--save`, in order (after the stream has run).
    pub saves: &'a [SaveRange],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placements_and_save_ranges_parse() {
        assert_eq!(
            "0x800:dir/a:b.bin".parse::<Placement>().unwrap(),
            Placement {
                addr: 0x800,
                path: "dir/a:b.bin".into()
            }
        );
        assert_eq!(
            "4096:16:out.bin".parse::<SaveRange>().unwrap(),
            SaveRange {
                addr: 4096,
                size: 16,
                path: "out.bin".into()
            }
        );
        for bad in ["", "x:a", "12", "12:"] {
            assert!(bad.parse::<Placement>().is_err(), "{bad}");
        }
        for bad in ["12:a", "0x10:zz:a", "1:2:", "1:2"] {
            assert!(bad.parse::<SaveRange>().is_err(), "{bad}");
        }
    }
}
