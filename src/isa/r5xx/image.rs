//! A program file as the R5xx frontend and the `program` directive of a CTM stream read it:
//! a CTM ELF (seed 003 chapter 4: its `.text` and the program info of its `dpp_proginfo`
//! note), raw instruction words (little-endian, six words a slot, no header), or assembler
//! text (`.s`, the syntax of [`wavejit_r5xx::print`]).
//!
//! Raw words and text carry no program info, so they get [`default_info`]: the program runs
//! from slot 0 to its last slot in full flow-control mode (loops, calls and the address stack
//! allowed: partial mode only forbids things), with cached outputs, the IEEE multiply
//! (0·Inf = NaN: US_CONFIG bit 1 clear, the R5xx register's default), US_PIXSIZE the largest
//! temporary the program names, and a conditional value exported (FG_DEPTH_SRC bit 0) exactly
//! when some slot writes W (W_OMASK).

use crate::{Error, Result};
use std::path::Path;
use wavejit_r5xx::elf::{self, Notes};
use wavejit_r5xx::encode::encode_words;
use wavejit_r5xx::inst::{Body, Inst};
use wavejit_r5xx::setup::ProgInfo;

/// Where a program came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Elf,
    Raw,
    Text,
}

impl Source {
    pub fn describe(self) -> &'static str {
        match self {
            Source::Elf => "CTM ELF executable",
            Source::Raw => "raw instruction words",
            Source::Text => "assembler text",
        }
    }
}

/// A loaded program: its words, slots and program info.
#[derive(Clone, Debug)]
pub struct Image {
    pub source: Source,
    /// The slots as little-endian words (six a slot), as they go to GPU memory.
    pub words: Vec<u32>,
    pub program: Vec<Inst>,
    pub info: ProgInfo,
    /// The ELF's other notes (none for raw words and text).
    pub notes: Option<Notes>,
}

/// The program info of a program without one (module doc).
pub fn default_info(program: &[Inst]) -> ProgInfo {
    let writes_w = program
        .iter()
        .any(|i| matches!(&i.body, Body::Alu(a) | Body::Output(a) if a.w_omask));
    ProgInfo {
        exports_cond: writes_w,
        uncached_outputs: false,
        zero_times_anything: false,
        pixsize: wavejit_r5xx::lift::temps_used(program) - 1,
        full_fc: true,
        start: 0,
        end: program.len().saturating_sub(1) as u32,
    }
}

impl Image {
    /// A CTM ELF (recognised by its header) or raw words.
    pub fn from_bytes(bytes: &[u8]) -> Result<Image> {
        if elf::sniff(bytes) {
            let e = elf::load(bytes).map_err(|e| Error::Load(format!("CTM ELF: {e}")))?;
            return Ok(Image {
                source: Source::Elf,
                words: e.words,
                program: e.program,
                info: e.info,
                notes: Some(e.notes),
            });
        }
        if bytes.is_empty() {
            return Err(Error::Load(
                "empty file: no instruction words (a CTM ELF or 24-byte slots)".into(),
            ));
        }
        let words = wavejit_r5xx::decode::words_of_bytes(bytes)
            .map_err(|e| Error::Load(format!("raw instruction words: {e}")))?;
        let program = wavejit_r5xx::decode::decode_words(&words)
            .map_err(|e| Error::Load(format!("raw instruction words: {e}")))?;
        Ok(Image {
            source: Source::Raw,
            info: default_info(&program),
            words,
            program,
            notes: None,
        })
    }

    /// Assembler text; `path` names it in messages.
    pub fn from_text(path: &Path, text: &str) -> Result<Image> {
        let program = wavejit_r5xx::parse::parse_program(text)
            .map_err(|e| Error::Load(format!("{}: {e}", path.display())))?;
        if program.is_empty() {
            return Err(Error::Load(format!(
                "{}: no instruction slots",
                path.display()
            )));
        }
        Ok(Image {
            source: Source::Text,
            words: encode_words(&program),
            info: default_info(&program),
            program,
            notes: None,
        })
    }

    /// A file by its name: assembler text for `.s`, else a CTM ELF or raw words.
    pub fn from_file(path: &Path, bytes: &[u8]) -> Result<Image> {
        if is_text(path) {
            let text = std::str::from_utf8(bytes)
                .map_err(|_| Error::Load(format!("{}: not UTF-8 text", path.display())))?;
            Image::from_text(path, text)
        } else {
            Image::from_bytes(bytes).map_err(|e| Error::Load(format!("{}: {e}", path.display())))
        }
    }

    /// The words as little-endian bytes.
    pub fn bytes(&self) -> Vec<u8> {
        self.words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

/// Whether `path` names assembler text (`.s`).
pub fn is_text(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("s"))
}
