//! The CTM executable (seed 003 chapter 4, lines 1397-1554): an ELF32 little-endian file with
//! `EI_OSABI` 98 (ELFOSABI_ATI), `EI_ABIVERSION` 1, `ET_EXEC`, `e_machine` 122
//! (EM_ATI_R5XX), `e_entry` 0 and `e_flags` 1 (EF_ATI_DPP); the program in one `.text`
//! section (`SHT_PROGBITS`, `SHF_ALLOC | SHF_EXECINSTR`, in a `PT_LOAD` segment), six words
//! per slot ([`crate::table::fields`]); and notes owned by "ATI DPP" (namesz 8) in
//! `SHT_NOTE` sections inside `PT_NOTE` segments: 1 program info (required, the 28-word
//! `dpp_proginfo`), 2 inputs, 3 outputs, 4 conditional output, 5 float32 constants, 6 int32
//! constants, 7 early exit.
//!
//! [`load`] checks each of these and gives a one-line error for the first that fails.
//! Choices where the seed is silent, each checked by a test:
//! - INSTR_CNT (proginfo word 27) must equal the number of `.text` slots, US_CODE_RANGE
//!   (word 6) must be `(INSTR_CNT - 1) << 16`, and US_CODE_ADDR's start and halt slots
//!   (word 5) must satisfy `start <= end < INSTR_CNT`; a program has 1 to 512 slots.
//! - The reserved proginfo words (0, 7-26) are kept but not checked: their meaning is
//!   unknown, and a file whose reserved words differ loads.
//! - Notes of other owners, and "ATI DPP" notes of types other than 1-7, are ignored; a type
//!   given twice is an error. Index lists must be in range (inputs < 16, outputs < 4, float
//!   constants < 256, int constants < 32); the two one-word notes hold 0 or 1.
//!
//! [`write_elf`] writes exactly that layout (ELF header, `PT_LOAD` and `PT_NOTE` program
//! headers, `.text`, one `.note` section with all seven notes, `.shstrtab`, section headers)
//! and checks nothing, so tests can make malformed files with it.

use object::elf::{PT_LOAD, PT_NOTE, SHF_ALLOC, SHF_EXECINSTR, SHT_NOTE, SHT_PROGBITS};
use object::read::elf::{FileHeader, ProgramHeader, SectionHeader};
use object::LittleEndian as LE;
use thiserror::Error;
use wavejit_isa::elf::{is_elf_for, with_aligned, Elf32, ElfError, ElfFile};

use crate::decode::{decode_words, MAX_SLOTS, SLOT_WORDS};
use crate::inst::Inst;
use crate::setup::ProgInfo;

mod write;

/// EM_ATI_R5XX.
pub const EM_ATI_R5XX: u16 = 122;
/// ELFOSABI_ATI.
pub const ELFOSABI_ATI: u8 = 98;
/// EF_ATI_DPP.
pub const EF_ATI_DPP: u32 = 1;
/// The notes' owner (ELF_NOTE_ATI).
pub const NOTE_OWNER: &[u8] = b"ATI DPP";
/// Words of `dpp_proginfo`.
pub const PROGINFO_WORDS: usize = 28;

/// The note types (ELF_NOTE_ATI_*).
pub const NOTE_PROGINFO: u32 = 1;
pub const NOTE_INPUTS: u32 = 2;
pub const NOTE_OUTPUTS: u32 = 3;
pub const NOTE_CONDOUT: u32 = 4;
pub const NOTE_FLOAT32CONSTS: u32 = 5;
pub const NOTE_INT32CONSTS: u32 = 6;
pub const NOTE_EARLYEXIT: u32 = 7;

/// Why a file is not a CTM executable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadError {
    #[error("not an ELF file")]
    NotElf,
    #[error("not a 32-bit little-endian ELF file (a CTM executable is ELFCLASS32, ELFDATA2LSB)")]
    WrongClass,
    #[error("e_machine is {0}, not EM_ATI_R5XX (122)")]
    WrongMachine(u16),
    #[error("{field} is {found}, a CTM executable has {want}")]
    Header {
        field: &'static str,
        found: u32,
        want: u32,
    },
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    #[error("malformed CTM executable: {0}")]
    Malformed(String),
}

impl From<ElfError> for LoadError {
    fn from(e: ElfError) -> LoadError {
        match e {
            ElfError::NotElf => LoadError::NotElf,
            ElfError::WrongClass => LoadError::WrongClass,
            ElfError::WrongMachine(m) => LoadError::WrongMachine(m),
            ElfError::Truncated(m) => LoadError::Truncated(m),
            ElfError::Malformed(m) => LoadError::Malformed(m),
        }
    }
}

fn malformed(msg: impl Into<String>) -> LoadError {
    LoadError::Malformed(msg.into())
}

/// The notes other than the program info (absent notes read as empty / false).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    pub inputs: Vec<u32>,
    pub outputs: Vec<u32>,
    pub cond_out: bool,
    pub float32_consts: Vec<u32>,
    pub int32_consts: Vec<u32>,
    pub early_exit: bool,
}

/// A loaded CTM executable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CtmElf {
    /// `.text` as words.
    pub words: Vec<u32>,
    /// The slots of `.text`.
    pub program: Vec<Inst>,
    /// The `dpp_proginfo` words as the file has them.
    pub proginfo: [u32; PROGINFO_WORDS],
    /// The US registers the program info sets.
    pub info: ProgInfo,
    pub notes: Notes,
}

/// Whether `bytes` looks like a CTM executable: an ELF32 header for EM_ATI_R5XX with
/// ELFOSABI_ATI.
pub fn sniff(bytes: &[u8]) -> bool {
    is_elf_for(bytes, false, EM_ATI_R5XX) && bytes.get(7) == Some(&ELFOSABI_ATI)
}

/// The US registers of a `dpp_proginfo` (seed 003 lines 1455-1486): FG_DEPTH_SRC (word 1),
/// US_CONFIG (2), US_PIXSIZE (3), US_FC_CTRL (4), US_CODE_ADDR (5).
pub fn prog_info(words: &[u32; PROGINFO_WORDS]) -> ProgInfo {
    ProgInfo {
        exports_cond: words[1] & 1 != 0,
        uncached_outputs: words[2] & 1 != 0,
        zero_times_anything: words[2] & 2 != 0,
        pixsize: words[3],
        full_fc: words[4] >> 31 != 0,
        start: words[5] & 0xffff,
        end: words[5] >> 16,
    }
}

/// The `dpp_proginfo` of a program of `slots` slots: the seed's reserved values (1 in word
/// 0, 0xc0 in word 7, 0x20000 in word 8, zeros), the registers of `info`, US_CODE_RANGE and
/// INSTR_CNT.
pub fn proginfo_words(info: &ProgInfo, slots: u32) -> [u32; PROGINFO_WORDS] {
    let mut w = [0u32; PROGINFO_WORDS];
    w[0] = 1;
    w[1] = u32::from(info.exports_cond);
    w[2] = u32::from(info.uncached_outputs) | u32::from(info.zero_times_anything) << 1;
    w[3] = info.pixsize;
    w[4] = u32::from(info.full_fc) << 31;
    w[5] = (info.start & 0xffff) | info.end << 16;
    w[6] = slots.wrapping_sub(1) << 16;
    w[7] = 0xc0;
    w[8] = 0x2_0000;
    w[27] = slots;
    w
}

/// Reads a CTM executable.
pub fn load(data: &[u8]) -> Result<CtmElf, LoadError> {
    let elf = ElfFile::parse::<Elf32>(data, EM_ATI_R5XX)?;
    // e_entry is at byte 24 of an ELF32 header (the parse above checked its size).
    let e_entry = u32::from_le_bytes([data[24], data[25], data[26], data[27]]);
    for (field, found, want) in [
        ("EI_OSABI", u32::from(elf.os_abi), u32::from(ELFOSABI_ATI)),
        ("EI_ABIVERSION", u32::from(elf.abi_version), 1),
        ("e_type", u32::from(elf.e_type), 2),
        ("e_entry", e_entry, 0),
        ("e_flags", elf.e_flags, EF_ATI_DPP),
    ] {
        if found != want {
            return Err(LoadError::Header { field, found, want });
        }
    }
    let texts: Vec<_> = elf.sections.iter().filter(|s| s.name == ".text").collect();
    let text = match texts[..] {
        [t] => t,
        [] => return Err(malformed("no .text section")),
        _ => return Err(malformed(format!("{} .text sections", texts.len()))),
    };
    if text.sh_type != SHT_PROGBITS {
        return Err(malformed(format!(
            ".text has type {}, not SHT_PROGBITS",
            text.sh_type
        )));
    }
    let want = u64::from(SHF_ALLOC | SHF_EXECINSTR);
    if text.flags & want != want {
        return Err(malformed(".text is not SHF_ALLOC | SHF_EXECINSTR"));
    }
    with_aligned(data, check_segments)?;
    let slot_bytes = 4 * SLOT_WORDS;
    if text.bytes.is_empty() || text.bytes.len() % slot_bytes != 0 {
        return Err(malformed(format!(
            ".text is {} bytes, not a whole number (at least 1) of 24-byte slots",
            text.bytes.len()
        )));
    }
    let slots = text.bytes.len() / slot_bytes;
    if slots > MAX_SLOTS {
        return Err(malformed(format!(
            "{slots} slots exceed the 512-slot instruction memory"
        )));
    }
    let words: Vec<u32> = text
        .bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    let program = decode_words(&words).map_err(|e| malformed(e.to_string()))?;
    let proginfo = read_proginfo(&elf, slots as u32)?;
    Ok(CtmElf {
        words,
        program,
        info: prog_info(&proginfo),
        proginfo,
        notes: read_notes(&elf)?,
    })
}

/// The one note of type `n_type`, if any.
fn one_note(elf: &ElfFile, n_type: u32, what: &str) -> Result<Option<Vec<u8>>, LoadError> {
    let mut found = elf.notes(NOTE_OWNER, n_type)?;
    match found.len() {
        0 => Ok(None),
        1 => Ok(found.pop()),
        n => Err(malformed(format!("{n} {what} notes (type {n_type})"))),
    }
}

fn le_words(desc: &[u8], what: &str) -> Result<Vec<u32>, LoadError> {
    if !desc.len().is_multiple_of(4) {
        return Err(malformed(format!(
            "the {what} note is {} bytes, not whole words",
            desc.len()
        )));
    }
    Ok(desc
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

fn read_proginfo(elf: &ElfFile, slots: u32) -> Result<[u32; PROGINFO_WORDS], LoadError> {
    let desc = one_note(elf, NOTE_PROGINFO, "program info")?
        .ok_or_else(|| malformed("no ATI DPP program info note (type 1)"))?;
    let words: [u32; PROGINFO_WORDS] =
        le_words(&desc, "program info")?.try_into().map_err(|_| {
            malformed(format!(
                "the program info note is {} bytes, not 112",
                desc.len()
            ))
        })?;
    if words[27] != slots {
        return Err(malformed(format!(
            "INSTR_CNT is {}, .text has {slots} slots",
            words[27]
        )));
    }
    if words[6] != (slots - 1) << 16 {
        return Err(malformed(format!(
            "US_CODE_RANGE is {:#x}, not (INSTR_CNT - 1) << 16 = {:#x}",
            words[6],
            (slots - 1) << 16
        )));
    }
    let (start, end) = (words[5] & 0xffff, words[5] >> 16);
    if start > end || end >= slots {
        return Err(malformed(format!(
            "US_CODE_ADDR runs slots {start} to {end}, outside 0 to {}",
            slots - 1
        )));
    }
    Ok(words)
}

/// An index-list note, each index below `limit`.
fn list(elf: &ElfFile, n_type: u32, what: &str, limit: u32) -> Result<Vec<u32>, LoadError> {
    let Some(desc) = one_note(elf, n_type, what)? else {
        return Ok(Vec::new());
    };
    let v = le_words(&desc, what)?;
    if let Some(bad) = v.iter().find(|&&i| i >= limit) {
        return Err(malformed(format!(
            "{what} index {bad} is out of range (0-{})",
            limit - 1
        )));
    }
    Ok(v)
}

/// A one-word note holding 0 or 1.
fn flag(elf: &ElfFile, n_type: u32, what: &str) -> Result<bool, LoadError> {
    let Some(desc) = one_note(elf, n_type, what)? else {
        return Ok(false);
    };
    match le_words(&desc, what)?[..] {
        [v @ (0 | 1)] => Ok(v == 1),
        [v] => Err(malformed(format!("the {what} note holds {v}, not 0 or 1"))),
        _ => Err(malformed(format!(
            "the {what} note is {} bytes, not 4",
            desc.len()
        ))),
    }
}

fn read_notes(elf: &ElfFile) -> Result<Notes, LoadError> {
    Ok(Notes {
        inputs: list(elf, NOTE_INPUTS, "inputs", 16)?,
        outputs: list(elf, NOTE_OUTPUTS, "outputs", 4)?,
        cond_out: flag(elf, NOTE_CONDOUT, "conditional output")?,
        float32_consts: list(elf, NOTE_FLOAT32CONSTS, "float32 constants", 256)?,
        int32_consts: list(elf, NOTE_INT32CONSTS, "int32 constants", 32)?,
        early_exit: flag(elf, NOTE_EARLYEXIT, "early exit")?,
    })
}

/// `.text` lies in a `PT_LOAD` segment and every `SHT_NOTE` section in a `PT_NOTE` one.
fn check_segments(data: &[u8]) -> Result<(), LoadError> {
    let bad = |e: object::read::Error| malformed(e.to_string());
    let header = Elf32::parse(data).map_err(bad)?;
    let segments = header.program_headers(LE, data).map_err(bad)?;
    let sections = header.sections(LE, data).map_err(bad)?;
    let inside = |p_type: u32, off: u32, size: u32| {
        segments.iter().any(|p| {
            let (po, ps) = (p.p_offset(LE), p.p_filesz(LE));
            p.p_type(LE) == p_type
                && po <= off
                && u64::from(off) + u64::from(size) <= u64::from(po) + u64::from(ps)
        })
    };
    for s in sections.iter() {
        let name = sections.section_name(LE, s).map_err(bad)?;
        let (off, size) = (s.sh_offset(LE), s.sh_size(LE));
        if name == b".text" && !inside(PT_LOAD, off, size) {
            return Err(malformed("no PT_LOAD segment holds .text"));
        }
        if s.sh_type(LE) == SHT_NOTE && !inside(PT_NOTE, off, size) {
            let name = String::from_utf8_lossy(name);
            return Err(malformed(format!(
                "no PT_NOTE segment holds note section {name}"
            )));
        }
    }
    Ok(())
}

/// A CTM executable of `words` (its `.text`) with the program info of `info` and the notes
/// of `notes` (see the module docs for the layout).
pub fn write_elf(words: &[u32], info: &ProgInfo, notes: &Notes) -> Vec<u8> {
    let slots = (words.len() / SLOT_WORDS) as u32;
    write_elf_raw(words, &proginfo_words(info, slots), notes)
}

/// [`write_elf`] with the `dpp_proginfo` words as given.
pub fn write_elf_raw(words: &[u32], proginfo: &[u32; PROGINFO_WORDS], notes: &Notes) -> Vec<u8> {
    write::write(words, proginfo, notes)
}
