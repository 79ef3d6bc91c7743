//! The inner CAL image of one kernel (amd_appsdk_binaries.md §2.4): an ELF32 with
//! `e_machine` 0x7D whose first program header (type 0x70000002) is the encoding dictionary,
//! 20-byte entries `{machine, type, offset, size, flags}`. Each entry's byte range holds one
//! `PT_NOTE` (the "ATI CAL" notes, [`super::notes`]) and one `PT_LOAD`, and the `.text` and
//! `.data` sections whose offsets fall inside that `PT_LOAD` are the encoding's (section names
//! repeat once per encoding).
//!
//! Which encoding is which comes from its machine ([`super::target`]): the chip's ISA machine
//! is the program the chip runs (Tahiti 26: GCN gfx6 code; Cypress 9: the Evergreen CF
//! program and its clauses, from offset 0); the chip's IL machine (Tahiti 25, Cypress 10) is
//! the AMD IL token stream the ISA was compiled from (§2.4 infers this from its contents).
//!
//! Invariants of a parsed [`CalImage`]: exactly one ISA encoding and at most one IL encoding,
//! and no other; every program header after the dictionary lies in exactly one entry's range;
//! each encoding has a non-empty `.text` and a `.data` of [`DATA_SIZE`] bytes, both inside its
//! `PT_LOAD`; its notes parse ([`CalNotes`]) and every live immediate constant lies in `.data`.

use object::elf::{FileHeader32, PT_LOAD, PT_NOTE};
use object::read::elf::{FileHeader, NoteIterator, ProgramHeader, SectionHeader};
use object::LittleEndian as LE;

use wavejit_isa::elf::with_aligned;
use wavejit_isa::printable;

use super::notes::{self, CalNotes, ImmediateConst, DATA_SIZE};
use super::target::Chip;

/// The inner image's `e_machine`.
pub const CAL_MACHINE: u16 = 0x7D;
/// The program-header type of the encoding dictionary (`PT_LOPROC + 2`).
pub const PT_ENCODING_DICTIONARY: u32 = 0x7000_0002;
/// Bytes of one dictionary entry.
pub const DICT_ENTRY_SIZE: usize = 20;
/// The owner of every note (without its NUL).
pub const NOTE_OWNER: &[u8] = b"ATI CAL";

/// A kernel's CAL image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CalImage {
    /// The encoding dictionary, in order.
    pub dictionary: Vec<DictEntry>,
    pub isa: Encoding,
    pub il: Option<Encoding>,
}

/// An entry of the encoding dictionary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DictEntry {
    /// `d_machine`: which chip's ISA, or IL (§2.4).
    pub machine: u32,
    /// `d_type` (4 in the corpus).
    pub d_type: u32,
    /// `d_offset`, `d_size`: the bytes of the image its PT_NOTE and PT_LOAD occupy.
    pub offset: u32,
    pub size: u32,
    pub flags: u32,
}

/// What an encoding's `.text` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodingKind {
    /// The chip's machine code.
    Isa,
    /// An AMD IL binary token stream (32-bit little-endian tokens).
    Il,
}

/// One encoding of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encoding {
    pub entry: DictEntry,
    pub kind: EncodingKind,
    pub notes: CalNotes,
    /// `.text`: ISA bytes, or IL tokens.
    pub text: Vec<u8>,
    /// `.data`: the immediate constant tables (§2.7).
    pub data: Vec<u8>,
    /// The live entries of `.data`, as the F/I/B CONSTS notes give them.
    pub constants: Vec<ImmediateConst>,
}

impl CalImage {
    /// The encoding of `kind`.
    pub fn encoding(&self, kind: EncodingKind) -> Option<&Encoding> {
        match kind {
            EncodingKind::Isa => Some(&self.isa),
            EncodingKind::Il => self.il.as_ref(),
        }
    }
}

/// Parses the CAL image `image` of a kernel of `chip`.
pub fn parse(image: &[u8], chip: Chip) -> Result<CalImage, String> {
    with_aligned(image, |data| parse_aligned(data, chip))
}

/// [`parse`] of an 8-byte aligned image.
fn parse_aligned(data: &[u8], chip: Chip) -> Result<CalImage, String> {
    let header = FileHeader32::<LE>::parse(data).map_err(|e| format!("not an ELF image: {e}"))?;
    if header.is_type_64() || !header.is_little_endian() {
        return Err("not a 32-bit little-endian ELF image".into());
    }
    let machine = header.e_machine(LE);
    if machine != CAL_MACHINE {
        return Err(format!(
            "ELF machine {machine:#x} is not a CAL image's ({CAL_MACHINE:#x})"
        ));
    }
    let phdrs = header
        .program_headers(LE, data)
        .map_err(|e| format!("program headers: {e}"))?;
    let dictionary = dictionary(phdrs, data)?;

    let mut owner: Vec<Option<usize>> = vec![None; phdrs.len()];
    for (i, ph) in phdrs.iter().enumerate().skip(1) {
        let (start, end) = file_range(ph.p_offset(LE), ph.p_filesz(LE));
        let mut inside = dictionary.iter().enumerate().filter(|(_, e)| {
            let (e_start, e_end) = file_range(e.offset, e.size);
            e_start <= start && end <= e_end
        });
        let (Some((n, _)), None) = (inside.next(), inside.next()) else {
            return Err(format!(
                "program header {i} ({start:#x}..{end:#x}) does not lie in exactly one encoding"
            ));
        };
        owner[i] = Some(n);
    }
    let sections = sections(header, data)?;

    let mut isa = None;
    let mut il = None;
    for (n, entry) in dictionary.iter().enumerate() {
        let context = |e: String| format!("encoding {n} (machine {}): {e}", entry.machine);
        let kind = if entry.machine == chip.isa_machine() {
            EncodingKind::Isa
        } else if Some(entry.machine) == chip.il_machine() {
            EncodingKind::Il
        } else {
            return Err(context(format!(
                "not {}'s ISA ({}){}",
                chip.name(),
                chip.isa_machine(),
                chip.il_machine()
                    .map_or(String::new(), |m| format!(" or IL ({m})"))
            )));
        };
        let mine: Vec<&<FileHeader32<LE> as FileHeader>::ProgramHeader> = phdrs
            .iter()
            .zip(&owner)
            .filter(|(_, o)| **o == Some(n))
            .map(|(ph, _)| ph)
            .collect();
        let encoding = encoding(*entry, kind, &mine, &sections, data).map_err(context)?;
        let slot = match kind {
            EncodingKind::Isa => &mut isa,
            EncodingKind::Il => &mut il,
        };
        if slot.is_some() {
            return Err(context(format!("a second {kind:?} encoding")));
        }
        *slot = Some(encoding);
    }
    let isa = isa.ok_or_else(|| {
        format!(
            "no ISA encoding (machine {}) among machines {:?}",
            chip.isa_machine(),
            dictionary.iter().map(|e| e.machine).collect::<Vec<_>>()
        )
    })?;
    Ok(CalImage {
        dictionary,
        isa,
        il,
    })
}

/// `[offset, offset + size)` widened so that it cannot overflow.
fn file_range(offset: u32, size: u32) -> (u64, u64) {
    (u64::from(offset), u64::from(offset) + u64::from(size))
}

fn dictionary(
    phdrs: &[<FileHeader32<LE> as FileHeader>::ProgramHeader],
    data: &[u8],
) -> Result<Vec<DictEntry>, String> {
    let Some(first) = phdrs.first() else {
        return Err("no program headers (no encoding dictionary)".into());
    };
    if first.p_type(LE) != PT_ENCODING_DICTIONARY {
        return Err(format!(
            "program header 0 has type {:#x}, not the encoding dictionary's {PT_ENCODING_DICTIONARY:#x}",
            first.p_type(LE)
        ));
    }
    let bytes = first
        .data(LE, data)
        .map_err(|()| "the encoding dictionary is past the end of the image".to_string())?;
    if bytes.is_empty() || bytes.len() % DICT_ENTRY_SIZE != 0 {
        return Err(format!(
            "the encoding dictionary is {} bytes, not a positive number of {DICT_ENTRY_SIZE}-byte entries",
            bytes.len()
        ));
    }
    let mut out = Vec::new();
    for (n, e) in bytes.chunks_exact(DICT_ENTRY_SIZE).enumerate() {
        let word =
            |i: usize| u32::from_le_bytes([e[4 * i], e[4 * i + 1], e[4 * i + 2], e[4 * i + 3]]);
        let entry = DictEntry {
            machine: word(0),
            d_type: word(1),
            offset: word(2),
            size: word(3),
            flags: word(4),
        };
        if file_range(entry.offset, entry.size).1 > data.len() as u64 {
            return Err(format!(
                "encoding {n} ({:#x}+{:#x}) runs past the end of the image ({:#x} bytes)",
                entry.offset,
                entry.size,
                data.len()
            ));
        }
        out.push(entry);
    }
    Ok(out)
}

/// A section's name and file range.
struct SectionRange {
    name: String,
    start: u64,
    end: u64,
}

fn sections(header: &FileHeader32<LE>, data: &[u8]) -> Result<Vec<SectionRange>, String> {
    let table = header
        .sections(LE, data)
        .map_err(|e| format!("section headers: {e}"))?;
    let mut out = Vec::new();
    for sh in table.iter() {
        let name = table
            .section_name(LE, sh)
            .map_err(|e| format!("section name: {e}"))?;
        let (start, end) = file_range(sh.sh_offset(LE), sh.sh_size(LE));
        out.push(SectionRange {
            name: String::from_utf8_lossy(name).into_owned(),
            start,
            end,
        });
    }
    Ok(out)
}

fn encoding(
    entry: DictEntry,
    kind: EncodingKind,
    phdrs: &[&<FileHeader32<LE> as FileHeader>::ProgramHeader],
    sections: &[SectionRange],
    data: &[u8],
) -> Result<Encoding, String> {
    let one = |p_type: u32, what: &str| {
        let mut found = phdrs.iter().filter(|ph| ph.p_type(LE) == p_type);
        match (found.next(), found.next()) {
            (Some(ph), None) => Ok(*ph),
            _ => Err(format!(
                "{} {what} program headers, expected one",
                phdrs.iter().filter(|ph| ph.p_type(LE) == p_type).count()
            )),
        }
    };
    let note = one(PT_NOTE, "PT_NOTE")?;
    let load = one(PT_LOAD, "PT_LOAD")?;
    if phdrs.len() != 2 {
        return Err(format!(
            "{} program headers, expected a PT_NOTE and a PT_LOAD",
            phdrs.len()
        ));
    }

    let note_bytes = note
        .data(LE, data)
        .map_err(|()| "the PT_NOTE is past the end of the image".to_string())?;
    let notes = with_aligned(note_bytes, |note_bytes| {
        let mut it = NoteIterator::<FileHeader32<LE>>::new(LE, 4, note_bytes)
            .map_err(|e| format!("notes: {e}"))?;
        let mut raw = Vec::new();
        while let Some(n) = it.next().map_err(|e| format!("notes: {e}"))? {
            if n.name() != NOTE_OWNER {
                return Err(format!(
                    "a note of owner \"{}\", not \"ATI CAL\"",
                    printable(&String::from_utf8_lossy(n.name()))
                ));
            }
            raw.push((n.n_type(LE), n.desc()));
        }
        notes::parse(&raw)
    })?;

    let (load_start, load_end) = file_range(load.p_offset(LE), load.p_filesz(LE));
    let section = |name: &str| -> Result<Vec<u8>, String> {
        let mut found = sections
            .iter()
            .filter(|s| s.name == name && load_start <= s.start && s.start < load_end);
        let (Some(s), None) = (found.next(), found.next()) else {
            return Err(format!("not exactly one {name} section in its PT_LOAD"));
        };
        if s.end > load_end {
            return Err(format!(
                "{name} ({:#x}..{:#x}) runs past its PT_LOAD (ends at {load_end:#x})",
                s.start, s.end
            ));
        }
        // Inside the PT_LOAD, which lies inside the dictionary entry, inside the image.
        Ok(data
            .get(s.start as usize..s.end as usize)
            .unwrap_or_default()
            .to_vec())
    };
    let text = section(".text")?;
    if text.is_empty() {
        return Err(".text is empty".into());
    }
    let data = section(".data")?;
    if data.len() != DATA_SIZE {
        return Err(format!(".data is {} bytes, not {DATA_SIZE}", data.len()));
    }
    let constants = notes::immediate_constants(&notes, &data)?;
    Ok(Encoding {
        entry,
        kind,
        notes,
        text,
        data,
        constants,
    })
}
