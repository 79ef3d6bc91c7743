//! Reading ELF files with `object`: sections, symbols, relocations, notes and guest addresses.
//!
//! One reader for every little-endian ELF an ISA crate loads, 32-bit (r600 objects) or 64-bit
//! (GCN code objects): [`ElfFile::parse`] is generic over `object`'s [`FileHeader`]
//! ([`Elf32`], [`Elf64`]) and returns owned plain data, widened to 64 bits. `object` checks
//! every range (it never reads out of bounds), and the input may have any alignment.
//!
//! Guest addresses (symbol values of linked code objects) resolve through
//! [`ElfFile::bytes_at_address`]: only an allocated section with file contents that holds the
//! *whole* requested range answers, so a section that merely ends at the address, or a
//! non-allocated one (address 0), never does.

use object::elf::{
    SHF_ALLOC, SHT_DYNSYM, SHT_NOBITS, SHT_NOTE, SHT_REL, SHT_RELA, SHT_SYMTAB, STT_FUNC,
    STT_OBJECT,
};
use object::read::elf::{FileHeader, NoteIterator, Rel, Rela, SectionHeader, SectionTable, Sym};
use object::LittleEndian as LE;
use thiserror::Error;

use crate::names::printable;

/// `object`'s little-endian ELF32 header: `ElfFile::parse::<Elf32>`.
pub type Elf32 = object::elf::FileHeader32<LE>;
/// `object`'s little-endian ELF64 header: `ElfFile::parse::<Elf64>`.
pub type Elf64 = object::elf::FileHeader64<LE>;

/// `EM_AMDGPU`, the machine of GCN and r600-family objects.
pub const EM_AMDGPU: u16 = 224;

/// Whether `bytes` starts with an ELF header of class ELF64 (`is_64`) or ELF32 for `machine`
/// (little-endian); what a frontend's sniffing looks at before its loader reads the file.
pub fn is_elf_for(bytes: &[u8], is_64: bool, machine: u16) -> bool {
    bytes.len() >= 20
        && bytes[..4] == *b"\x7fELF"
        && bytes[4] == if is_64 { 2 } else { 1 }
        && u16::from_le_bytes([bytes[18], bytes[19]]) == machine
}

/// Why an ELF file could not be read. Each loader maps these into its own error type.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ElfError {
    #[error("not an ELF file")]
    NotElf,
    /// The class (32/64-bit) or byte order is not the one asked for.
    #[error("wrong ELF class or byte order")]
    WrongClass,
    #[error("ELF machine {0} is not the one expected")]
    WrongMachine(u16),
    /// A header, table or section lies (partly) past the end of the file.
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    #[error("malformed ELF file: {0}")]
    Malformed(String),
}

impl ElfError {
    /// The message without the kind (for a loader's own `Truncated(String)` and the like).
    pub fn detail(&self) -> String {
        match self {
            ElfError::Truncated(m) | ElfError::Malformed(m) => m.clone(),
            other => other.to_string(),
        }
    }
}

fn malformed(e: object::read::Error) -> ElfError {
    ElfError::Malformed(e.to_string())
}

/// One section header and (unless `SHT_NOBITS`) its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub sh_type: u32,
    pub flags: u64,
    pub addr: u64,
    /// `sh_size` (for `SHT_NOBITS`, the size in memory; `bytes` is then empty).
    pub size: u64,
    pub addralign: u64,
    pub bytes: Vec<u8>,
}

impl Section {
    /// Whether the section occupies memory in the loaded image (`SHF_ALLOC`).
    pub fn is_alloc(&self) -> bool {
        self.flags & u64::from(SHF_ALLOC) != 0
    }

    /// The `len` bytes at `offset` in the section's contents, if they are all there.
    pub fn bytes_at_offset(&self, offset: u64, len: u64) -> Option<&[u8]> {
        let start = usize::try_from(offset).ok()?;
        let end = start.checked_add(usize::try_from(len).ok()?)?;
        self.bytes.get(start..end)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymKind {
    Func,
    Object,
    Other,
}

/// A symbol of `.symtab` (or of `.dynsym` when there is no `.symtab`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub value: u64,
    pub size: u64,
    pub kind: SymKind,
    /// Section index (0 = undefined).
    pub shndx: usize,
}

/// A relocation entry of a `SHT_REL` or `SHT_RELA` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// Index of the section the relocation applies to.
    pub target_section: usize,
    pub offset: u64,
    pub r_type: u32,
    pub symbol: String,
    /// Explicit addend (`SHT_RELA`), or `None` for `SHT_REL` (implicit in the field).
    pub addend: Option<i64>,
}

/// One note of a `SHT_NOTE` section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The owner, without its terminating NUL.
    pub name: Vec<u8>,
    pub n_type: u32,
    pub desc: Vec<u8>,
}

/// A parsed little-endian ELF file, 32- or 64-bit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElfFile {
    pub is_64: bool,
    pub e_type: u16,
    pub e_machine: u16,
    pub e_flags: u32,
    pub os_abi: u8,
    pub abi_version: u8,
    /// In section-header order, the null section at index 0 included.
    pub sections: Vec<Section>,
    pub symbols: Vec<Symbol>,
    pub relocs: Vec<Reloc>,
}

impl ElfFile {
    /// Reads a little-endian ELF file of `H`'s class ([`Elf32`] or [`Elf64`]) for `machine`.
    ///
    /// The checks come in this order: magic ([`ElfError::NotElf`]), class and byte order
    /// ([`ElfError::WrongClass`]), header size ([`ElfError::Truncated`]), machine
    /// ([`ElfError::WrongMachine`]), then the section header table and every section's bytes
    /// ([`ElfError::Truncated`]), names, symbols and relocations ([`ElfError::Malformed`]).
    pub fn parse<H: FileHeader<Endian = LE>>(
        data: &[u8],
        machine: u16,
    ) -> Result<ElfFile, ElfError> {
        if data.len() < 4 || &data[..4] != b"\x7fELF" {
            return Err(ElfError::NotElf);
        }
        if data.len() < 6 {
            return Err(ElfError::Truncated("ELF identification".into()));
        }
        // EI_CLASS: 1 = ELFCLASS32, 2 = ELFCLASS64; EI_DATA: 1 = ELFDATA2LSB.
        let class = if H::is_type_64_sized() { 2 } else { 1 };
        if data[4] != class || data[5] != 1 {
            return Err(ElfError::WrongClass);
        }
        let header_bytes = std::mem::size_of::<H>();
        if data.len() < header_bytes {
            return Err(ElfError::Truncated(format!(
                "{} bytes, the ELF header needs {header_bytes}",
                data.len()
            )));
        }
        with_aligned(data, |data| parse_aligned::<H>(data, machine))
    }

    /// The first section called `name`, with its index.
    pub fn section_by_name(&self, name: &str) -> Option<(usize, &Section)> {
        self.sections
            .iter()
            .enumerate()
            .find(|(_, s)| s.name == name)
    }

    /// The function (`STT_FUNC`) symbols defined in section `shndx`, by value: in an object
    /// file, the kernels of that section in code order. Clang's `<k>$local` aliases are not
    /// listed.
    pub fn functions_in(&self, shndx: usize) -> Vec<&Symbol> {
        let mut out: Vec<&Symbol> = self
            .symbols
            .iter()
            .filter(|s| s.kind == SymKind::Func && s.shndx == shndx && !s.name.ends_with("$local"))
            .collect();
        out.sort_by_key(|s| s.value);
        out
    }

    /// The `len` bytes at guest address `addr`: from the allocated section with file contents
    /// (`SHF_ALLOC`, not `SHT_NOBITS`) that holds the whole range `[addr, addr + len)`.
    /// `None` when no section holds all of it: a section that ends at `addr`, a non-allocated
    /// section (address 0) and a range that crosses from one section into the next never
    /// answer.
    pub fn bytes_at_address(&self, addr: u64, len: u64) -> Option<&[u8]> {
        let end = addr.checked_add(len)?;
        self.sections
            .iter()
            .filter(|s| s.is_alloc() && s.sh_type != SHT_NOBITS)
            .find(|s| {
                let s_end = s.addr.saturating_add(s.bytes.len() as u64);
                s.addr <= addr && addr < s_end && end <= s_end
            })
            .and_then(|s| s.bytes_at_offset(addr - s.addr, len))
    }

    /// The descriptors of every note with owner `owner` and type `n_type`, in all `SHT_NOTE`
    /// sections, in file order.
    pub fn notes(&self, owner: &[u8], n_type: u32) -> Result<Vec<Vec<u8>>, ElfError> {
        let mut found = Vec::new();
        for s in self.sections.iter().filter(|s| s.sh_type == SHT_NOTE) {
            for note in section_notes(s, self.is_64)? {
                if note.name == owner && note.n_type == n_type {
                    found.push(note.desc);
                }
            }
        }
        Ok(found)
    }
}

/// Implements `From<`[`ElfError`]`>` and `From<`[`KernelNotFound`](crate::KernelNotFound)`>`
/// for a loader's error enum, which must have the variants `NotElf`, `WrongClass`,
/// `WrongMachine(u16)`, `Truncated(String)`, `Malformed(String)` and
/// `KernelNotFound { name: String, available: String }`.
#[macro_export]
macro_rules! impl_load_error_from {
    ($error:ty) => {
        impl ::core::convert::From<$crate::elf::ElfError> for $error {
            fn from(e: $crate::elf::ElfError) -> Self {
                use $crate::elf::ElfError as E;
                match e {
                    E::NotElf => Self::NotElf,
                    E::WrongClass => Self::WrongClass,
                    E::WrongMachine(machine) => Self::WrongMachine(machine),
                    E::Truncated(what) => Self::Truncated(what),
                    E::Malformed(what) => Self::Malformed(what),
                }
            }
        }

        impl ::core::convert::From<$crate::names::KernelNotFound> for $error {
            fn from(e: $crate::names::KernelNotFound) -> Self {
                Self::KernelNotFound {
                    name: e.name,
                    available: e.available,
                }
            }
        }
    };
}

/// Runs `f` on `data`, copied to an 8-byte aligned buffer if it is not aligned: `object`
/// reads ELF structures in place and requires them to be aligned, and bytes from
/// `include_bytes!` or a slice of a larger buffer need not be.
pub fn with_aligned<T>(data: &[u8], f: impl FnOnce(&[u8]) -> T) -> T {
    if data.as_ptr().align_offset(8) == 0 {
        return f(data);
    }
    let mut words = vec![0u64; data.len().div_ceil(8)];
    object::pod::bytes_of_slice_mut(&mut words)[..data.len()].copy_from_slice(data);
    f(&object::pod::bytes_of_slice(&words)[..data.len()])
}

fn parse_aligned<H: FileHeader<Endian = LE>>(
    data: &[u8],
    machine: u16,
) -> Result<ElfFile, ElfError> {
    let header = H::parse(data).map_err(malformed)?;
    let e_machine = header.e_machine(LE);
    if e_machine != machine {
        return Err(ElfError::WrongMachine(e_machine));
    }
    let shoff: u64 = header.e_shoff(LE).into();
    let shnum = u64::from(header.e_shnum(LE));
    let end = shnum
        .checked_mul(std::mem::size_of::<H::SectionHeader>() as u64)
        .and_then(|n| n.checked_add(shoff));
    if end.is_none_or(|end| end > data.len() as u64) {
        return Err(ElfError::Truncated(
            "the section header table is past the end of the file".into(),
        ));
    }
    let table = header.sections(LE, data).map_err(malformed)?;
    let sections = read_sections(&table, data)?;
    let symtab = match table.symbols(LE, data, SHT_SYMTAB).map_err(malformed)? {
        t if t.is_empty() => table.symbols(LE, data, SHT_DYNSYM).map_err(malformed)?,
        t => t,
    };
    let mut symbols = Vec::with_capacity(symtab.len());
    for sym in symtab.iter() {
        let name = sym.name(LE, symtab.strings()).map_err(malformed)?;
        symbols.push(Symbol {
            name: String::from_utf8_lossy(name).into_owned(),
            value: sym.st_value(LE).into(),
            size: sym.st_size(LE).into(),
            kind: match sym.st_type() {
                STT_FUNC => SymKind::Func,
                STT_OBJECT => SymKind::Object,
                _ => SymKind::Other,
            },
            shndx: usize::from(sym.st_shndx(LE)),
        });
    }
    let relocs = read_relocs(&table, data)?;
    let ident = header.e_ident();
    Ok(ElfFile {
        is_64: H::is_type_64_sized(),
        e_type: header.e_type(LE),
        e_machine,
        e_flags: header.e_flags(LE),
        os_abi: ident.os_abi,
        abi_version: ident.abi_version,
        sections,
        symbols,
        relocs,
    })
}

fn read_sections<'a, H: FileHeader<Endian = LE>>(
    table: &SectionTable<'a, H, &'a [u8]>,
    data: &'a [u8],
) -> Result<Vec<Section>, ElfError> {
    let mut out = Vec::with_capacity(table.len());
    for header in table.iter() {
        let name = table.section_name(LE, header).map_err(malformed)?;
        let name = String::from_utf8_lossy(name).into_owned();
        let sh_type = header.sh_type(LE);
        let bytes = if sh_type == SHT_NOBITS {
            Vec::new()
        } else {
            header
                .data(LE, data)
                .map_err(|_| {
                    ElfError::Truncated(format!(
                        "section {} is past the end of the file",
                        printable(&name)
                    ))
                })?
                .to_vec()
        };
        out.push(Section {
            name,
            sh_type,
            flags: header.sh_flags(LE).into(),
            addr: header.sh_addr(LE).into(),
            size: header.sh_size(LE).into(),
            addralign: header.sh_addralign(LE).into(),
            bytes,
        });
    }
    Ok(out)
}

fn read_relocs<'a, H: FileHeader<Endian = LE>>(
    table: &SectionTable<'a, H, &'a [u8]>,
    data: &'a [u8],
) -> Result<Vec<Reloc>, ElfError> {
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
            return Err(ElfError::Malformed(format!(
                "relocation section {} applies to no section",
                index.0
            )));
        }
        let name_of = |sym_index: u32| -> Result<String, ElfError> {
            let sym = symtab
                .symbol(object::SymbolIndex(sym_index as usize))
                .map_err(malformed)?;
            let name = sym.name(LE, symtab.strings()).map_err(malformed)?;
            Ok(String::from_utf8_lossy(name).into_owned())
        };
        let is_mips64el = false;
        if let Some((rels, _)) = header.rel(LE, data).map_err(malformed)? {
            for r in rels {
                out.push(Reloc {
                    target_section,
                    offset: r.r_offset(LE).into(),
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
                    offset: r.r_offset(LE).into(),
                    r_type: r.r_type(LE, is_mips64el),
                    symbol: name_of(r.r_sym(LE, is_mips64el))?,
                    addend: Some(r.r_addend(LE).into()),
                });
            }
        }
    }
    Ok(out)
}

/// The notes of a `SHT_NOTE` section (ELF32 and ELF64 notes differ only in the width of the
/// alignment field).
fn section_notes(s: &Section, is_64: bool) -> Result<Vec<Note>, ElfError> {
    with_aligned(&s.bytes, |bytes| {
        if is_64 {
            collect_notes(NoteIterator::<Elf64>::new(LE, s.addralign, bytes))
        } else {
            let align = u32::try_from(s.addralign).unwrap_or(u32::MAX);
            collect_notes(NoteIterator::<Elf32>::new(LE, align, bytes))
        }
    })
}

fn collect_notes<H: FileHeader<Endian = LE>>(
    it: object::read::Result<NoteIterator<'_, H>>,
) -> Result<Vec<Note>, ElfError> {
    let mut it = it.map_err(malformed)?;
    let mut out = Vec::new();
    while let Some(note) = it.next().map_err(malformed)? {
        out.push(Note {
            name: note.name().to_vec(),
            n_type: note.n_type(LE),
            desc: note.desc().to_vec(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::elf::{SHF_EXECINSTR, SHT_PROGBITS, SHT_STRTAB};

    fn section(name: &str, sh_type: u32, flags: u32, addr: u64, bytes: &[u8]) -> Section {
        Section {
            name: name.into(),
            sh_type,
            flags: u64::from(flags),
            addr,
            size: bytes.len() as u64,
            addralign: 1,
            bytes: bytes.to_vec(),
        }
    }

    /// `.dynstr` [0x10, 0x18), `.rodata` [0x18, 0x20), `.text` [0x20, 0x24), a non-allocated
    /// `.comment` at 0 and an allocated `.bss` (no file bytes) at 0x30.
    fn file() -> ElfFile {
        ElfFile {
            is_64: true,
            e_type: 3,
            e_machine: EM_AMDGPU,
            e_flags: 0,
            os_abi: 64,
            abi_version: 2,
            sections: vec![
                section("", 0, 0, 0, &[]),
                section(".comment", SHT_PROGBITS, 0, 0, &[0xcc; 0x40]),
                section(".dynstr", SHT_STRTAB, SHF_ALLOC, 0x10, &[0xd5; 8]),
                section(
                    ".rodata",
                    SHT_PROGBITS,
                    SHF_ALLOC,
                    0x18,
                    &[1, 2, 3, 4, 5, 6, 7, 8],
                ),
                section(
                    ".text",
                    SHT_PROGBITS,
                    SHF_ALLOC | SHF_EXECINSTR,
                    0x20,
                    &[9; 4],
                ),
                Section {
                    size: 0x10,
                    ..section(".bss", SHT_NOBITS, SHF_ALLOC, 0x30, &[])
                },
            ],
            symbols: Vec::new(),
            relocs: Vec::new(),
        }
    }

    #[test]
    fn an_address_where_one_section_ends_and_the_next_begins_reads_the_next() {
        let f = file();
        assert_eq!(
            f.bytes_at_address(0x18, 8),
            Some(&[1, 2, 3, 4, 5, 6, 7, 8][..])
        );
        assert_eq!(f.bytes_at_address(0x18, 1), Some(&[1][..]));
        assert_eq!(f.bytes_at_address(0x1c, 4), Some(&[5, 6, 7, 8][..]));
        assert_eq!(f.bytes_at_address(0x10, 8), Some(&[0xd5; 8][..]));
        assert_eq!(f.bytes_at_address(0x20, 4), Some(&[9; 4][..]));
    }

    #[test]
    fn non_allocated_and_nobits_sections_never_answer() {
        let f = file();
        // .comment covers [0, 0x40) in the file but is not loaded.
        assert_eq!(f.bytes_at_address(0, 1), None);
        assert_eq!(f.bytes_at_address(0x8, 4), None);
        assert_eq!(f.bytes_at_address(0x30, 4), None);
        assert_eq!(f.bytes_at_address(0x24, 1), None);
    }

    #[test]
    fn ranges_must_lie_in_one_section() {
        let f = file();
        assert_eq!(
            f.bytes_at_address(0x14, 8),
            None,
            "crosses .dynstr into .rodata"
        );
        assert_eq!(
            f.bytes_at_address(0x1c, 8),
            None,
            "crosses .rodata into .text"
        );
        assert_eq!(f.bytes_at_address(0x18, 9), None);
        assert_eq!(f.bytes_at_address(0x20, 5), None, "past the end of .text");
        assert_eq!(f.bytes_at_address(u64::MAX, 2), None);
        assert_eq!(f.bytes_at_address(0x1c, u64::MAX), None);
    }

    #[test]
    fn header_defects_are_named() {
        assert_eq!(
            ElfFile::parse::<Elf64>(b"", EM_AMDGPU),
            Err(ElfError::NotElf)
        );
        assert_eq!(
            ElfFile::parse::<Elf64>(b"\x7fELF", EM_AMDGPU),
            Err(ElfError::Truncated("ELF identification".into()))
        );
        let mut elf32 = [0u8; 52];
        elf32[..7].copy_from_slice(b"\x7fELF\x01\x01\x01");
        assert_eq!(
            ElfFile::parse::<Elf64>(&elf32, EM_AMDGPU),
            Err(ElfError::WrongClass)
        );
        assert!(matches!(
            ElfFile::parse::<Elf32>(&elf32[..40], EM_AMDGPU),
            Err(ElfError::Truncated(_))
        ));
        // e_machine (offset 18) is 0.
        assert_eq!(
            ElfFile::parse::<Elf32>(&elf32, EM_AMDGPU),
            Err(ElfError::WrongMachine(0))
        );
        elf32[18..20].copy_from_slice(&EM_AMDGPU.to_le_bytes());
        let f = ElfFile::parse::<Elf32>(&elf32, EM_AMDGPU).unwrap();
        assert!(!f.is_64 && f.sections.is_empty());
    }
}
