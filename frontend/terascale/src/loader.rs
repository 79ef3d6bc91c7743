//! The loader for LLVM-compiled r600-family kernels: `llc -mtriple=r600-- -filetype=obj`
//! objects (notes/amd_launch_abi.md §2.1).
//!
//! Such a file is an ELF32 little-endian relocatable object with `e_machine = EM_AMDGPU` (224)
//! and the chip's `EF_AMDGPU_MACH_R600_*` number in `e_flags`. Each kernel is an `STT_FUNC`
//! symbol in `.text` whose value is its entry offset and whose size is its code size (the code
//! is one CF program followed by its clauses; branch and clause addresses are relative to the
//! kernel start, so the code runs from wherever it is copied). `.AMDGPU.config` holds
//! `(u32 register, u32 value)` pairs, one run per kernel in function order, written by LLVM's
//! `R600AsmPrinter::EmitProgramInfoR600` and read back by Mesa's r600 driver
//! (`r600_shader.c`, the `binary.config` loop):
//!
//! | register | name (Mesa evergreend.h, LLVM R600Defines.h) | fields used |
//! |---|---|---|
//! | `0x288D4` | `SQ_PGM_RESOURCES_LS` (compute kernels run as the LS stage) | `NUM_GPRS` `[7:0]` = highest GPR used + 1; `STACK_SIZE` `[15:8]` = CF stack entries (`CFStackSize`) |
//! | `0x2880C` | `DB_SHADER_CONTROL` | `KILL_ENABLE` `[6]` (pixel kill; 0 for compute) |
//! | `0x288E8` | `SQ_LDS_ALLOC` | LDS size in dwords (`alignTo(LDSBytes, 4) / 4`); Mesa ORs the wave count into bits [14+] at dispatch |
//!
//! A run starts with an `SQ_PGM_RESOURCES_*` register. Runs for graphics stages (PS `0x28844`,
//! VS `0x28860`, GS `0x28878`) are rejected: they are not kernels.
//!
//! There is no argument metadata (and no notes or relocations): the argument layout follows from
//! the launch ABI (`crate::launch`), which takes the arguments as the caller gives them. The
//! `.bss` object `llvm.amdgcn.kernel.<k>.lds` duplicates `SQ_LDS_ALLOC` and is ignored; LDS
//! addresses in the code start at 0.
//!
//! Invariants: every [`Kernel::code`] is a non-empty whole number of 64-bit words lying inside
//! `.text`; `num_gprs <= 128`; `lds_size` is at most [`MAX_LDS_BYTES`]. Any input, however
//! malformed, gives a [`LoadError`], never a panic.
//!
//! `num_gprs` is LLVM's count of the registers its instructions name. It does not cover
//! registers addressed relative to AR.x (a private array kept in registers occupies
//! `T(base + AR.x)` beyond it: the `private_array` fixture), so a launcher should give every
//! wave the whole register file.

use object::elf::{FileHeader32, ET_REL, SHT_NOBITS, SHT_SYMTAB, STT_FUNC};
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::LittleEndian as LE;
use thiserror::Error;

use crate::chip::Chip;

const EM_AMDGPU: u16 = 224;
const ELF32_HEADER_BYTES: usize = 52;
const ELF32_SECTION_HEADER_BYTES: u64 = 40;

/// `SQ_PGM_RESOURCES_LS`, the resources of the LS stage compute kernels run in.
pub const SQ_PGM_RESOURCES_LS: u32 = 0x0002_88D4;
/// `DB_SHADER_CONTROL`.
pub const DB_SHADER_CONTROL: u32 = 0x0002_880C;
/// `SQ_LDS_ALLOC` (Mesa: `CM_R_0288E8_SQ_LDS_ALLOC`).
pub const SQ_LDS_ALLOC: u32 = 0x0002_88E8;
/// The graphics-stage resource registers LLVM writes for non-kernel calling conventions
/// (Evergreen PS, VS, GS).
const GRAPHICS_RESOURCES: [(u32, &str); 3] = [
    (0x0002_8844, "SQ_PGM_RESOURCES_PS"),
    (0x0002_8860, "SQ_PGM_RESOURCES_VS"),
    (0x0002_8878, "SQ_PGM_RESOURCES_GS"),
];
/// LDS bytes a work-group can address: 32 KiB on Evergreen and Northern Islands (LLVM's
/// `FeatureAddressableLocalMemorySize32768` for both generations).
pub const MAX_LDS_BYTES: u32 = 32 * 1024;
/// GPRs per lane: T0..T127 (register indices above 127 are constants and special operands).
pub const MAX_GPRS: u32 = 128;

/// A loaded r600 object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeObject {
    pub chip: Chip,
    /// The ELF header's `e_flags` (the chip's machine number in bits `[7:0]`).
    pub e_flags: u32,
    /// In `.text` order (which is also `.AMDGPU.config` order).
    pub kernels: Vec<Kernel>,
}

impl CodeObject {
    /// The kernel called `name`, or [`LoadError::KernelNotFound`] listing the available ones.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, LoadError> {
        self.kernels
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| LoadError::KernelNotFound {
                name: printable(name),
                available: self
                    .kernels
                    .iter()
                    .map(|k| printable(&k.name))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// One kernel: its code and its `.AMDGPU.config` values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    /// From the entry to the end of the function symbol: the CF program, then its clauses.
    pub code: Vec<u8>,
    /// Offset of the entry in `.text` (for printing; addresses in the code are relative).
    pub text_offset: u32,
    /// The raw `SQ_PGM_RESOURCES_LS` value.
    pub sq_pgm_resources: u32,
    /// `NUM_GPRS`: GPRs T0..T(n-1) the instructions name.
    pub num_gprs: u32,
    /// `STACK_SIZE`: control-flow stack entries the kernel needs.
    pub stack_size: u32,
    /// `DB_SHADER_CONTROL.KILL_ENABLE`.
    pub kill_enable: bool,
    /// LDS bytes per work-group (`SQ_LDS_ALLOC` dwords * 4).
    pub lds_size: u32,
    /// The kernel's `.AMDGPU.config` pairs as stored.
    pub config: Vec<(u32, u32)>,
}

/// Why a file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadError {
    #[error("not an ELF file")]
    NotElf,
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    #[error("malformed ELF file: {0}")]
    Malformed(String),
    #[error("not a 32-bit little-endian ELF file (r600 objects are ELFCLASS32, LSB)")]
    WrongClass,
    #[error("ELF machine {0} is not EM_AMDGPU (224)")]
    WrongMachine(u16),
    #[error("ELF type {0} is not a relocatable object (llc -filetype=obj output)")]
    NotRelocatable(u16),
    #[error("unsupported processor: e_flags 0x{0:x} names no Evergreen/Northern Islands chip")]
    UnsupportedChip(u32),
    #[error("bad .AMDGPU.config: {0}")]
    BadConfig(String),
    #[error("kernel {kernel}: {reason}")]
    MalformedKernel { kernel: String, reason: String },
    #[error("kernel {name} not found; available: {available}")]
    KernelNotFound { name: String, available: String },
}

/// A name read from the file, made safe for a one-line message (control characters escaped).
fn printable(name: &str) -> String {
    name.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_debug().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

fn malformed(e: object::read::Error) -> LoadError {
    LoadError::Malformed(e.to_string())
}

/// Parses an r600-family object.
pub fn load(data: &[u8]) -> Result<CodeObject, LoadError> {
    // The `object` crate reads ELF structures in place and requires them to be aligned;
    // bytes from `include_bytes!` or a slice of a larger buffer need not be.
    if data.as_ptr().align_offset(8) != 0 {
        let mut words = vec![0u64; data.len().div_ceil(8)];
        // SAFETY: `words` owns at least `data.len()` initialised bytes; u64 -> u8 is always valid.
        let aligned =
            unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut u8, data.len()) };
        aligned.copy_from_slice(data);
        return load(aligned);
    }
    let elf = Elf::parse(data)?;
    let (text_index, text) = elf
        .section(".text")
        .ok_or_else(|| LoadError::Malformed("no .text section".into()))?;
    let (_, config) = elf
        .section(".AMDGPU.config")
        .ok_or_else(|| LoadError::BadConfig("the section is missing".into()))?;
    let runs = config_runs(config)?;

    // Kernels in .text order; clang's `<k>$local` aliases are not kernels.
    let mut syms: Vec<&Symbol> = elf
        .symbols
        .iter()
        .filter(|s| s.is_func && s.shndx == text_index && !s.name.ends_with("$local"))
        .collect();
    syms.sort_by_key(|s| s.value);
    if syms.len() != runs.len() {
        return Err(LoadError::BadConfig(format!(
            "{} register runs for {} kernel symbols",
            runs.len(),
            syms.len()
        )));
    }
    let kernels = syms
        .into_iter()
        .zip(runs)
        .map(|(sym, run)| kernel(sym, run, text))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CodeObject {
        chip: elf.chip,
        e_flags: elf.e_flags,
        kernels,
    })
}

fn kernel(sym: &Symbol, run: Vec<(u32, u32)>, text: &[u8]) -> Result<Kernel, LoadError> {
    let bad = |reason: String| LoadError::MalformedKernel {
        kernel: printable(&sym.name),
        reason,
    };
    let start = sym.value as usize;
    let code = start
        .checked_add(sym.size as usize)
        .and_then(|end| text.get(start..end))
        .ok_or_else(|| {
            bad(format!(
                "code {:#x}+{} is outside .text ({} bytes)",
                sym.value,
                sym.size,
                text.len()
            ))
        })?;
    if code.is_empty() || code.len() % 8 != 0 {
        return Err(bad(format!(
            "code size {} is not a positive multiple of 8 (64-bit CF and ALU words)",
            code.len()
        )));
    }
    let value_of = |reg: u32| run.iter().find(|&&(r, _)| r == reg).map(|&(_, v)| v);
    // config_runs() makes SQ_PGM_RESOURCES_LS the first register of every run.
    let resources = run[0].1;
    let num_gprs = resources & 0xff;
    let stack_size = (resources >> 8) & 0xff;
    if num_gprs > MAX_GPRS {
        return Err(bad(format!(
            "NUM_GPRS {num_gprs} exceeds the {MAX_GPRS} GPRs of the register file"
        )));
    }
    let lds_dwords = value_of(SQ_LDS_ALLOC)
        .ok_or_else(|| bad("no SQ_LDS_ALLOC in .AMDGPU.config (not a compute kernel)".into()))?;
    let lds_size = lds_dwords
        .checked_mul(4)
        .filter(|&b| b <= MAX_LDS_BYTES)
        .ok_or_else(|| {
            bad(format!(
                "SQ_LDS_ALLOC {lds_dwords} dwords exceeds the {MAX_LDS_BYTES}-byte LDS"
            ))
        })?;
    let kill_enable = value_of(DB_SHADER_CONTROL).is_some_and(|v| (v >> 6) & 1 != 0);
    Ok(Kernel {
        name: sym.name.clone(),
        code: code.to_vec(),
        text_offset: sym.value,
        sq_pgm_resources: resources,
        num_gprs,
        stack_size,
        kill_enable,
        lds_size,
        config: run,
    })
}

/// Splits `.AMDGPU.config` into one run of pairs per kernel, each starting with
/// `SQ_PGM_RESOURCES_LS` and holding only the registers LLVM writes for compute kernels.
fn config_runs(bytes: &[u8]) -> Result<Vec<Vec<(u32, u32)>>, LoadError> {
    if !bytes.len().is_multiple_of(8) {
        return Err(LoadError::BadConfig(format!(
            "{} bytes is not a whole number of (register, value) pairs",
            bytes.len()
        )));
    }
    let mut runs: Vec<Vec<(u32, u32)>> = Vec::new();
    for pair in bytes.chunks_exact(8) {
        let reg = u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]);
        let value = u32::from_le_bytes([pair[4], pair[5], pair[6], pair[7]]);
        if let Some((_, name)) = GRAPHICS_RESOURCES.iter().find(|(r, _)| *r == reg) {
            return Err(LoadError::BadConfig(format!(
                "{name} ({reg:#x}) describes a graphics shader, not a kernel"
            )));
        }
        match reg {
            SQ_PGM_RESOURCES_LS => runs.push(vec![(reg, value)]),
            DB_SHADER_CONTROL | SQ_LDS_ALLOC => {
                let Some(run) = runs.last_mut() else {
                    return Err(LoadError::BadConfig(format!(
                        "register {reg:#x} before any SQ_PGM_RESOURCES_LS"
                    )));
                };
                if run.iter().any(|&(r, _)| r == reg) {
                    return Err(LoadError::BadConfig(format!(
                        "register {reg:#x} twice for one kernel"
                    )));
                }
                run.push((reg, value));
            }
            _ => {
                return Err(LoadError::BadConfig(format!(
                    "register {reg:#x} is not one LLVM writes for r600 kernels"
                )))
            }
        }
    }
    Ok(runs)
}

/// A symbol of `.symtab`.
struct Symbol {
    name: String,
    value: u32,
    size: u32,
    is_func: bool,
    shndx: usize,
}

/// The ELF facts the loader needs, read with the `object` crate (which never reads out of
/// bounds) into validated slices and owned names.
struct Elf<'a> {
    chip: Chip,
    e_flags: u32,
    /// (name, bytes) of every section; SHT_NOBITS sections are empty.
    sections: Vec<(String, &'a [u8])>,
    symbols: Vec<Symbol>,
}

impl<'a> Elf<'a> {
    fn parse(data: &'a [u8]) -> Result<Elf<'a>, LoadError> {
        if data.len() < 4 || &data[..4] != b"\x7fELF" {
            return Err(LoadError::NotElf);
        }
        if data.len() < 6 {
            return Err(LoadError::Truncated("ELF identification".into()));
        }
        // EI_CLASS = ELFCLASS32, EI_DATA = ELFDATA2LSB.
        if data[4] != 1 || data[5] != 1 {
            return Err(LoadError::WrongClass);
        }
        if data.len() < ELF32_HEADER_BYTES {
            return Err(LoadError::Truncated(format!(
                "{} bytes, the ELF header needs {ELF32_HEADER_BYTES}",
                data.len()
            )));
        }
        let header = FileHeader32::<LE>::parse(data).map_err(malformed)?;
        let machine = header.e_machine(LE);
        if machine != EM_AMDGPU {
            return Err(LoadError::WrongMachine(machine));
        }
        let e_type = header.e_type(LE);
        if e_type != ET_REL {
            return Err(LoadError::NotRelocatable(e_type));
        }
        let e_flags = header.e_flags(LE);
        let chip = Chip::from_elf_flags(e_flags).ok_or(LoadError::UnsupportedChip(e_flags))?;
        let shoff = u64::from(header.e_shoff(LE));
        let end = u64::from(header.e_shnum(LE)) * ELF32_SECTION_HEADER_BYTES + shoff;
        if end > data.len() as u64 {
            return Err(LoadError::Truncated(
                "the section header table is past the end of the file".into(),
            ));
        }
        let table = header.sections(LE, data).map_err(malformed)?;
        let mut sections = Vec::with_capacity(table.len());
        for section in table.iter() {
            let name = table.section_name(LE, section).map_err(malformed)?;
            let name = String::from_utf8_lossy(name).into_owned();
            let bytes = if section.sh_type(LE) == SHT_NOBITS {
                &[][..]
            } else {
                section.data(LE, data).map_err(|_| {
                    LoadError::Truncated(format!(
                        "section {} is past the end of the file",
                        printable(&name)
                    ))
                })?
            };
            sections.push((name, bytes));
        }
        let symtab = table.symbols(LE, data, SHT_SYMTAB).map_err(malformed)?;
        let mut symbols = Vec::with_capacity(symtab.len());
        for sym in symtab.iter() {
            let name = sym.name(LE, symtab.strings()).map_err(malformed)?;
            symbols.push(Symbol {
                name: String::from_utf8_lossy(name).into_owned(),
                value: sym.st_value(LE),
                size: sym.st_size(LE),
                is_func: sym.st_type() == STT_FUNC,
                shndx: usize::from(sym.st_shndx(LE)),
            });
        }
        Ok(Elf {
            chip,
            e_flags,
            sections,
            symbols,
        })
    }

    fn section(&self, name: &str) -> Option<(usize, &'a [u8])> {
        self.sections
            .iter()
            .enumerate()
            .find(|(_, (n, _))| n == name)
            .map(|(i, &(_, bytes))| (i, bytes))
    }
}
