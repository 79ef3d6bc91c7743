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

use thiserror::Error;
use wavejit_isa::elf::{Elf32, ElfFile, Section, Symbol, EM_AMDGPU};
use wavejit_isa::names::find_kernel;
use wavejit_isa::printable;

use crate::chip::Chip;

/// `ET_REL`: what `llc -filetype=obj` writes.
const ET_REL: u16 = 1;

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
    /// The ELF header's `e_flags`: the chip's machine number (`EF_AMDGPU_MACH_R600_*`) in
    /// bits `[7:0]`.
    pub e_flags: u32,
    /// In `.text` order (which is also `.AMDGPU.config` order).
    pub kernels: Vec<Kernel>,
}

impl CodeObject {
    /// The kernel called `name`, or [`LoadError::KernelNotFound`] with the names in `.text`.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, LoadError> {
        Ok(find_kernel(&self.kernels, |k| &k.name, name)?)
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
    #[error("not a 32-bit little-endian ELF file (r600 objects are ELFCLASS32, LSB)")]
    WrongClass,
    #[error("ELF machine {0} is not EM_AMDGPU (224)")]
    WrongMachine(u16),
    #[error("ELF type {0} is not a relocatable object (llc -filetype=obj output)")]
    NotRelocatable(u16),
    #[error("unsupported processor: e_flags 0x{0:x} names no Evergreen/Northern Islands chip")]
    UnsupportedChip(u32),
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    #[error("malformed ELF file: {0}")]
    Malformed(String),
    #[error("bad .AMDGPU.config: {0}")]
    BadConfig(String),
    #[error("kernel {kernel}: {reason}")]
    MalformedKernel { kernel: String, reason: String },
    #[error("kernel {name} not found; available: {available}")]
    KernelNotFound { name: String, available: String },
}

wavejit_isa::impl_load_error_from!(LoadError);

/// Parses an r600-family object.
pub fn load(data: &[u8]) -> Result<CodeObject, LoadError> {
    let elf = ElfFile::parse::<Elf32>(data, EM_AMDGPU)?;
    if elf.e_type != ET_REL {
        return Err(LoadError::NotRelocatable(elf.e_type));
    }
    let chip = Chip::from_elf_flags(elf.e_flags).ok_or(LoadError::UnsupportedChip(elf.e_flags))?;
    let (text_index, text) = elf
        .section_by_name(".text")
        .ok_or_else(|| LoadError::Malformed("no .text section".into()))?;
    let (_, config) = elf
        .section_by_name(".AMDGPU.config")
        .ok_or_else(|| LoadError::BadConfig("the section is missing".into()))?;
    let runs = config_runs(&config.bytes)?;

    // Kernels in .text order (which is .AMDGPU.config order).
    let syms = elf.functions_in(text_index);
    if runs.len() != syms.len() {
        let (runs, syms) = (runs.len(), syms.len());
        return Err(LoadError::BadConfig(format!(
            "{runs} register runs for {syms} kernel symbols"
        )));
    }
    let kernels = syms
        .into_iter()
        .zip(runs)
        .map(|(sym, run)| kernel(sym, run, text))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CodeObject {
        chip,
        e_flags: elf.e_flags,
        kernels,
    })
}

fn kernel(sym: &Symbol, run: Vec<(u32, u32)>, text: &Section) -> Result<Kernel, LoadError> {
    let bad = |reason: String| LoadError::MalformedKernel {
        kernel: printable(&sym.name),
        reason,
    };
    let code = text.bytes_at_offset(sym.value, sym.size).ok_or_else(|| {
        bad(format!(
            "code {:#x}+{} is outside .text ({} bytes)",
            sym.value,
            sym.size,
            text.bytes.len()
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
        // An ELF32 symbol value: it fits.
        text_offset: sym.value as u32,
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
