//! The ELF facts the loaders need, read with the `object` crate into owned plain data.
//!
//! Every range is checked here (through `object`, which never reads out of bounds), so the
//! loaders work on validated slices and names only.

use object::elf::{
    FileHeader64, SHT_DYNSYM, SHT_NOBITS, SHT_REL, SHT_RELA, SHT_SYMTAB, STT_FUNC, STT_OBJECT,
};
use object::read::elf::{FileHeader, Rel, Rela, SectionHeader, SectionTable, Sym, SymbolTable};
use object::LittleEndian as LE;

use super::{printable, LoadError};

pub const ELFOSABI_NONE: u8 = 0;
/// `ELFOSABI_AMDGPU_HSA`.
pub const ELFOSABI_AMDGPU_HSA: u8 = 64;
const EM_AMDGPU: u16 = 224;
const ELF64_HEADER_BYTES: usize = 64;
const ELF64_SECTION_HEADER_BYTES: u64 = 64;

/// One section: its name, type, address and (unless SHT_NOBITS) its bytes.
pub struct Section<'a> {
    pub name: String,
    pub sh_type: u32,
    pub addr: u64,
    pub bytes: &'a [u8],
    /// The raw header, for note iteration.
    header: &'a object::elf::SectionHeader64<LE>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymKind {
    Func,
    Object,
    Other,
}

pub struct Symbol {
    pub name: String,
    pub value: u64,
    pub size: u64,
    pub kind: SymKind,
    /// Section index (0 = undefined).
    pub shndx: usize,
}

/// A relocation entry of a SHT_REL or SHT_RELA section.
pub struct Reloc {
    /// Index of the section the relocation applies to.
    pub target_section: usize,
    pub offset: u64,
    pub r_type: u32,
    pub symbol: String,
    /// Explicit addend (SHT_RELA), or None for SHT_REL (implicit in the field).
    pub addend: Option<i64>,
}

/// A parsed AMDGPU ELF64 file.
pub struct ElfFile<'a> {
    data: &'a [u8],
    pub e_type: u16,
    pub e_flags: u32,
    pub os_abi: u8,
    pub abi_version: u8,
    pub sections: Vec<Section<'a>>,
    pub symbols: Vec<Symbol>,
    pub relocs: Vec<Reloc>,
}

fn malformed(e: object::read::Error) -> LoadError {
    LoadError::Malformed(e.to_string())
}

impl<'a> ElfFile<'a> {
    pub fn parse(data: &'a [u8]) -> Result<ElfFile<'a>, LoadError> {
        if data.len() < 4 || &data[..4] != b"\x7fELF" {
            return Err(LoadError::NotElf);
        }
        if data.len() < 6 {
            return Err(LoadError::Truncated("ELF identification".into()));
        }
        // EI_CLASS = ELFCLASS64, EI_DATA = ELFDATA2LSB.
        if data[4] != 2 || data[5] != 1 {
            return Err(LoadError::WrongClass);
        }
        if data.len() < ELF64_HEADER_BYTES {
            return Err(LoadError::Truncated(format!(
                "{} bytes, the ELF header needs {ELF64_HEADER_BYTES}",
                data.len()
            )));
        }
        let header = FileHeader64::<LE>::parse(data).map_err(malformed)?;
        let endian = LE;
        let machine = header.e_machine(endian);
        if machine != EM_AMDGPU {
            return Err(LoadError::WrongMachine(machine));
        }
        let shoff = header.e_shoff(endian);
        let shnum = u64::from(header.e_shnum(endian));
        let end = shnum
            .checked_mul(ELF64_SECTION_HEADER_BYTES)
            .and_then(|n| n.checked_add(shoff));
        if end.is_none_or(|end| end > data.len() as u64) {
            return Err(LoadError::Truncated(
                "the section header table is past the end of the file".into(),
            ));
        }
        let table = header.sections(endian, data).map_err(malformed)?;
        let sections = read_sections(&table, data)?;
        let symtab = match table.symbols(endian, data, SHT_SYMTAB).map_err(malformed)? {
            t if t.is_empty() => table.symbols(endian, data, SHT_DYNSYM).map_err(malformed)?,
            t => t,
        };
        let symbols = read_symbols(&symtab)?;
        let relocs = read_relocs(&table, data)?;
        let ident = header.e_ident();
        Ok(ElfFile {
            data,
            e_type: header.e_type(endian),
            e_flags: header.e_flags(endian),
            os_abi: ident.os_abi,
            abi_version: ident.abi_version,
            sections,
            symbols,
            relocs,
        })
    }

    pub fn section_by_name(&self, name: &str) -> Option<(usize, &Section<'a>)> {
        self.sections
            .iter()
            .enumerate()
            .find(|(_, s)| s.name == name)
    }

    /// The bytes at virtual address `addr`, up to the end of the section that contains it
    /// (for linked code objects, where symbol values are addresses).
    pub fn bytes_at_address(&self, addr: u64) -> Option<&'a [u8]> {
        self.sections
            .iter()
            .filter(|s| s.sh_type != SHT_NOBITS && !s.bytes.is_empty())
            .find_map(|s| {
                let off = addr.checked_sub(s.addr)?;
                s.bytes.get(usize::try_from(off).ok()?..)
            })
    }

    /// The descriptors of every note with owner `owner` and type `n_type`, in all SHT_NOTE
    /// sections.
    pub fn notes(&self, owner: &[u8], n_type: u32) -> Result<Vec<&'a [u8]>, LoadError> {
        let mut found = Vec::new();
        for s in &self.sections {
            let Some(mut it) = s
                .header
                .notes(LE, self.data)
                .map_err(|e| LoadError::MalformedNote(e.to_string()))?
            else {
                continue;
            };
            while let Some(note) = it
                .next()
                .map_err(|e| LoadError::MalformedNote(e.to_string()))?
            {
                if note.name() == owner && note.n_type(LE) == n_type {
                    found.push(note.desc());
                }
            }
        }
        Ok(found)
    }
}

fn read_sections<'a>(
    table: &SectionTable<'a, FileHeader64<LE>, &'a [u8]>,
    data: &'a [u8],
) -> Result<Vec<Section<'a>>, LoadError> {
    let mut out = Vec::with_capacity(table.len());
    for header in table.iter() {
        let name = table.section_name(LE, header).map_err(malformed)?;
        let name = String::from_utf8_lossy(name).into_owned();
        let sh_type = header.sh_type(LE);
        let bytes = if sh_type == SHT_NOBITS {
            &[][..]
        } else {
            header.data(LE, data).map_err(|_| {
                LoadError::Truncated(format!(
                    "section {} is past the end of the file",
                    printable(&name)
                ))
            })?
        };
        out.push(Section {
            name,
            sh_type,
            addr: header.sh_addr(LE),
            bytes,
            header,
        });
    }
    Ok(out)
}

fn read_symbols<'a>(
    symtab: &SymbolTable<'a, FileHeader64<LE>, &'a [u8]>,
) -> Result<Vec<Symbol>, LoadError> {
    let strings = symtab.strings();
    let mut out = Vec::with_capacity(symtab.len());
    for sym in symtab.iter() {
        let name = sym.name(LE, strings).map_err(malformed)?;
        out.push(Symbol {
            name: String::from_utf8_lossy(name).into_owned(),
            value: sym.st_value(LE),
            size: sym.st_size(LE),
            kind: match sym.st_type() {
                STT_FUNC => SymKind::Func,
                STT_OBJECT => SymKind::Object,
                _ => SymKind::Other,
            },
            shndx: usize::from(sym.st_shndx(LE)),
        });
    }
    Ok(out)
}

fn read_relocs<'a>(
    table: &SectionTable<'a, FileHeader64<LE>, &'a [u8]>,
    data: &'a [u8],
) -> Result<Vec<Reloc>, LoadError> {
    let mut out = Vec::new();
    for (index, header) in table.enumerate() {
        let sh_type = header.sh_type(LE);
        if sh_type != SHT_REL && sh_type != SHT_RELA {
            continue;
        }
        let symtab = table
            .symbol_table_by_index(LE, data, header.link(LE))
            .map_err(malformed)?;
        let target_section = header.info_link(LE).0;
        if target_section >= table.len() {
            return Err(LoadError::Malformed(format!(
                "relocation section {} applies to no section",
                index.0
            )));
        }
        let name_of = |sym_index: u32| -> Result<String, LoadError> {
            let sym = symtab
                .symbol(object::SymbolIndex(sym_index as usize))
                .map_err(malformed)?;
            let name = sym.name(LE, symtab.strings()).map_err(malformed)?;
            Ok(String::from_utf8_lossy(name).into_owned())
        };
        if let Some((rels, _)) = header.rel(LE, data).map_err(malformed)? {
            for r in rels {
                out.push(Reloc {
                    target_section,
                    offset: r.r_offset(LE),
                    r_type: r.r_type(LE),
                    symbol: name_of(r.r_sym(LE))?,
                    addend: None,
                });
            }
        }
        if let Some((relas, _)) = header.rela(LE, data).map_err(malformed)? {
            for r in relas {
                out.push(Reloc {
                    target_section,
                    offset: r.r_offset(LE),
                    r_type: r.r_type(LE, false),
                    symbol: name_of(r.r_sym(LE, false))?,
                    addend: Some(r.r_addend(LE)),
                });
            }
        }
    }
    Ok(out)
}
