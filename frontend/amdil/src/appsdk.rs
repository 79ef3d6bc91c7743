//! The loader of AMD APP SDK / Catalyst OpenCL kernel binaries ("OpenCL 1.1 AMD-APP (923.1)",
//! CAL 1.4.1720): an outer ELF32 per program holding, per kernel, its metadata text, a header
//! and an inner CAL image with two encodings of the kernel, AMD IL and the chip's ISA. The
//! format is ../shared/notes/amd_appsdk_binaries.md (cited as §n below); this is a pure
//! parser: nothing is executed or lifted.
//!
//! | [`Binary`] / [`Kernel`] field | Where it comes from | § |
//! |---|---|---|
//! | [`Binary::chip`] | outer `e_machine` (Cypress 0x3F1, Tahiti 0x3FD, …; [`target`]) | 2.1 |
//! | [`Binary::comment`], [`Binary::compile_options`] | `.comment`; symbol `__OpenCL_compile_options` in it | 2.1 |
//! | [`Binary::globals`] | `__OpenCL_<N>_global` in `.rodata`: program-scope `__constant` data, constant buffer N ≥ 2 | 2.1, 3.3 |
//! | [`Kernel::name`] | `__OpenCL_<name>_kernel`, an `STT_FUNC` in `.text` (kernels in `.text` order) | 2.1 |
//! | [`Kernel::image`] | that symbol's bytes: the inner CAL image ([`cal`]) | 2.1, 2.4 |
//! | [`Kernel::metadata`] | `__OpenCL_<name>_metadata` in `.rodata` ([`metadata`]) | 2.2 |
//! | [`Kernel::header`] | `__OpenCL_<name>_header` in `.rodata`, 8 dwords (`{0,0,0,hwlocal,0,1,0,0}` in the corpus) | 2.3 |
//! | [`cal::CalImage::dictionary`] | the inner image's program header 0 | 2.4 |
//! | [`cal::Encoding::notes`] | its PT_NOTE: the "ATI CAL" notes ([`notes`]) | 2.5 |
//! | [`cal::Encoding::text`] | its `.text`: IL tokens or ISA bytes | 2.4, 2.7 |
//! | [`cal::Encoding::data`], [`cal::Encoding::constants`] | its `.data`: immediate constants | 2.7 |
//! | [`Kernel::program`] | the ISA encoding's PROGINFO, typed per family ([`proginfo`]): user elements, registers, FLOAT_MODE, scratch, LDS, COMPUTE_PGM_RSRC2 / SQ_PGM_RESOURCES_LS, fetch constants | 2.6, 3.4, 3.5 |
//!
//! Invariants of a loaded [`Binary`]: the chip is one [`target::Chip`] and every kernel's ISA
//! encoding has that chip's ISA machine; every kernel has metadata whose ARGSTART/ARGEND name
//! it, a 32-byte header and a CAL image keeping [`cal`]'s invariants; kernel names are unique;
//! `globals` are in ascending buffer order, each number once. Any input, however malformed,
//! gives a [`LoadError`] with a one-line message, never a panic.

pub mod cal;
pub mod metadata;
pub mod notes;
pub mod proginfo;
pub mod target;

use thiserror::Error;
use wavejit_isa::elf::{is_elf_for, Elf32, ElfFile, Section, Symbol};
use wavejit_isa::names::find_kernel;
use wavejit_isa::printable;

pub use cal::{CalImage, DictEntry, Encoding, EncodingKind};
pub use metadata::{AddressSpace, Arg, ArgKind, Metadata};
pub use notes::CalNotes;
pub use proginfo::{DataClass, ProgramInfo, UserElement};
pub use target::{Chip, Family};

/// A loaded program binary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binary {
    pub chip: Chip,
    /// `.comment` (compile options, then the `@(#) OpenCL … Driver version` string), NULs
    /// removed.
    pub comment: String,
    /// The bytes of `__OpenCL_compile_options` (empty when there is no such symbol).
    pub compile_options: String,
    /// Program-scope constant buffers, by buffer number.
    pub globals: Vec<GlobalBuffer>,
    /// In `.text` order.
    pub kernels: Vec<Kernel>,
}

/// Program-scope `__constant` data: bound as constant buffer `cb` (§3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalBuffer {
    pub cb: u32,
    pub bytes: Vec<u8>,
}

/// One kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// The OpenCL name (`binarySearch`).
    pub name: String,
    /// Offset of the CAL image in the outer `.text`.
    pub text_offset: u32,
    pub metadata: Metadata,
    pub header: [u32; 8],
    pub image: CalImage,
    pub program: ProgramInfo,
}

impl Kernel {
    /// The encoding the chip runs.
    pub fn isa(&self) -> &Encoding {
        &self.image.isa
    }

    /// The AMD IL encoding, if the image has one.
    pub fn il(&self) -> Option<&Encoding> {
        self.image.il.as_ref()
    }
}

impl Binary {
    /// The kernel called `name` (the OpenCL name), or [`LoadError::KernelNotFound`].
    pub fn kernel(&self, name: &str) -> Result<&Kernel, LoadError> {
        Ok(find_kernel(&self.kernels, |k| &k.name, name)?)
    }

    /// The program-scope buffer bound as constant buffer `cb`.
    pub fn global(&self, cb: u32) -> Option<&GlobalBuffer> {
        self.globals.iter().find(|g| g.cb == cb)
    }
}

/// Why a file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadError {
    #[error("not an ELF file")]
    NotElf,
    #[error("not a 32-bit little-endian ELF file (AMD APP SDK binaries are ELFCLASS32, LSB)")]
    WrongClass,
    #[error("ELF machine {0:#x} is not an AMD APP SDK chip's ({known})", known = known_machines())]
    WrongMachine(u16),
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    #[error("malformed ELF file: {0}")]
    Malformed(String),
    #[error("kernel {kernel}: {reason}")]
    MalformedKernel { kernel: String, reason: String },
    #[error("kernel {name} not found; available: {available}")]
    KernelNotFound { name: String, available: String },
}

wavejit_isa::impl_load_error_from!(LoadError);

fn known_machines() -> String {
    Chip::ALL
        .iter()
        .map(|c| format!("{} {:#x}", c.name(), c.e_machine()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Loads an AMD APP SDK program binary.
pub fn load(bytes: &[u8]) -> Result<Binary, LoadError> {
    let Some(chip) = Chip::ALL
        .into_iter()
        .find(|c| is_elf_for(bytes, false, c.e_machine()))
    else {
        // Not one of ours: the ELF reader names what is wrong (magic, class, size, machine).
        return Err(
            match ElfFile::parse::<Elf32>(bytes, Chip::Tahiti.e_machine()) {
                Err(e) => e.into(),
                Ok(_) => LoadError::NotElf,
            },
        );
    };
    let elf = ElfFile::parse::<Elf32>(bytes, chip.e_machine())?;
    let section = |name: &str| {
        elf.section_by_name(name)
            .ok_or_else(|| LoadError::Malformed(format!("no {name} section")))
    };
    let (text_index, text) = section(".text")?;
    let (rodata_index, rodata) = section(".rodata")?;
    let comment = elf.section_by_name(".comment");

    let compile_options = match comment {
        Some((index, comment)) => symbol_bytes(&elf, index, comment, "__OpenCL_compile_options")
            .map_err(LoadError::Malformed)?
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .unwrap_or_default(),
        None => String::new(),
    };
    let comment = comment.map_or(String::new(), |(_, s)| {
        String::from_utf8_lossy(&s.bytes).replace('\0', "")
    });

    let mut globals: Vec<GlobalBuffer> = Vec::new();
    for sym in elf.symbols.iter().filter(|s| s.shndx == rodata_index) {
        let Some(cb) = global_number(&sym.name) else {
            continue;
        };
        let bytes = symbol_in(sym, rodata).map_err(LoadError::Malformed)?;
        if globals.iter().any(|g| g.cb == cb) {
            return Err(LoadError::Malformed(format!(
                "two symbols for constant buffer {cb}"
            )));
        }
        globals.push(GlobalBuffer {
            cb,
            bytes: bytes.to_vec(),
        });
    }
    globals.sort_by_key(|g| g.cb);

    let mut kernels: Vec<Kernel> = Vec::new();
    for sym in elf.functions_in(text_index) {
        let Some(name) = sym
            .name
            .strip_prefix("__OpenCL_")
            .and_then(|n| n.strip_suffix("_kernel"))
            .filter(|n| !n.is_empty())
        else {
            return Err(LoadError::Malformed(format!(
                "function symbol {} in .text is not __OpenCL_<name>_kernel",
                printable(&sym.name)
            )));
        };
        if kernels.iter().any(|k| k.name == name) {
            return Err(LoadError::Malformed(format!(
                "two kernels named {}",
                printable(name)
            )));
        }
        let kernel =
            load_kernel(&elf, chip, name, sym, text, (rodata_index, rodata)).map_err(|reason| {
                LoadError::MalformedKernel {
                    kernel: printable(name),
                    reason,
                }
            })?;
        kernels.push(kernel);
    }
    if kernels.is_empty() {
        return Err(LoadError::Malformed(
            "no kernels (no __OpenCL_<name>_kernel function in .text)".into(),
        ));
    }
    Ok(Binary {
        chip,
        comment,
        compile_options,
        globals,
        kernels,
    })
}

/// N of `__OpenCL_<N>_global`.
fn global_number(symbol: &str) -> Option<u32> {
    let n = symbol.strip_prefix("__OpenCL_")?.strip_suffix("_global")?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// The bytes of `sym` in `section`.
fn symbol_in<'a>(sym: &Symbol, section: &'a Section) -> Result<&'a [u8], String> {
    section.bytes_at_offset(sym.value, sym.size).ok_or_else(|| {
        format!(
            "symbol {} ({:#x}+{:#x}) is outside {} ({:#x} bytes)",
            printable(&sym.name),
            sym.value,
            sym.size,
            printable(&section.name),
            section.bytes.len()
        )
    })
}

/// The bytes of the symbol `name` of section `index`, if there is one.
fn symbol_bytes<'a>(
    elf: &ElfFile,
    index: usize,
    section: &'a Section,
    name: &str,
) -> Result<Option<&'a [u8]>, String> {
    elf.symbols
        .iter()
        .find(|s| s.shndx == index && s.name == name)
        .map(|s| symbol_in(s, section))
        .transpose()
}

fn load_kernel(
    elf: &ElfFile,
    chip: Chip,
    name: &str,
    sym: &Symbol,
    text: &Section,
    (rodata_index, rodata): (usize, &Section),
) -> Result<Kernel, String> {
    let rodata_symbol = |what: &str| {
        let symbol = format!("__OpenCL_{name}_{what}");
        symbol_bytes(elf, rodata_index, rodata, &symbol)?
            .ok_or_else(|| format!("no symbol {} in .rodata", printable(&symbol)))
    };
    let metadata =
        metadata::parse(rodata_symbol("metadata")?, name).map_err(|e| format!("metadata: {e}"))?;
    if let Some(device) = &metadata.device {
        if device != chip.name() {
            return Err(format!(
                "metadata: device {} but the ELF machine is {}'s",
                printable(device),
                chip.name()
            ));
        }
    }
    let header_bytes = rodata_symbol("header")?;
    if header_bytes.len() != 32 {
        return Err(format!(
            "the header is {} bytes, not 32",
            header_bytes.len()
        ));
    }
    let header = std::array::from_fn(|i| {
        let w = &header_bytes[4 * i..4 * i + 4];
        u32::from_le_bytes([w[0], w[1], w[2], w[3]])
    });
    let image = cal::parse(symbol_in(sym, text)?, chip).map_err(|e| format!("CAL image: {e}"))?;
    let program = proginfo::program_info(&image.isa.notes, chip.family())
        .map_err(|e| format!("ISA encoding: {e}"))?;
    Ok(Kernel {
        name: name.to_string(),
        // An ELF32 symbol value: it fits.
        text_offset: sym.value as u32,
        metadata,
        header,
        image,
        program,
    })
}
