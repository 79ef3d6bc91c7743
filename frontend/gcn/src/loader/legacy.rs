//! `amdgcn--` relocatable objects (the Clover/Mesa style LLVM emits without an OS).
//!
//! There is no descriptor and no metadata: `.AMDGPU.config` holds `(register, value)` pairs,
//! one run per kernel starting with COMPUTE_PGM_RSRC1, in function order (LLVM's
//! `AMDGPUAsmPrinter::EmitProgramInfoSI`). The only user SGPRs are `s[0:1]` = kernarg pointer.
//! Scratch is addressed through a buffer resource whose first two dwords the code loads as
//! literals relocated against `SCRATCH_RSRC_DWORD0/1`.

use wavejit_isa::elf::{ElfFile, Reloc};
use wavejit_isa::printable;

use super::rsrc::{Rsrc1, Rsrc2};
use super::{
    Abi, CodeObject, Kernel, LoadError, RelocKind, ScratchReloc, ScratchRsrcWord, SystemSgprs,
    Target, UserSgpr, UserSgprSlot,
};

const COMPUTE_PGM_RSRC1: u32 = 0xB848;
const COMPUTE_PGM_RSRC2: u32 = 0xB84C;
/// COMPUTE_TMPRING_SIZE; WAVESIZE `[24:12]` is the scratch per wave in 1 KiB units. (The launch
/// ABI notes call 0xB860 COMPUTE_RESOURCE_LIMITS; LLVM's SIDefines.h and the asm printer name
/// it R_00B860_COMPUTE_TMPRING_SIZE, and its value matches ScratchSize that way.)
const COMPUTE_TMPRING_SIZE: u32 = 0xB860;
/// Bytes of the ngroups / global size / local size header before the explicit arguments.
pub const IMPLICIT_KERNARG_BYTES: u32 = 36;
/// Legacy kernels receive only the kernarg pointer as user SGPRs.
const LEGACY_USER_SGPRS: u8 = 2;
const WAVEFRONT_SIZE: u32 = 64;

const R_AMDGPU_ABS32_LO: u32 = 1;
const R_AMDGPU_ABS32_HI: u32 = 2;
const R_AMDGPU_ABS32: u32 = 6;

/// One kernel's run of `.AMDGPU.config` pairs.
struct Config {
    rsrc1: u32,
    rsrc2: u32,
    tmpring_size: u32,
}

fn configs(bytes: &[u8]) -> Result<Vec<Config>, LoadError> {
    if !bytes.len().is_multiple_of(8) {
        return Err(LoadError::Malformed(format!(
            ".AMDGPU.config is {} bytes, not whole register pairs",
            bytes.len()
        )));
    }
    let mut out: Vec<Config> = Vec::new();
    for pair in bytes.chunks_exact(8) {
        let reg = u32::from_le_bytes([pair[0], pair[1], pair[2], pair[3]]);
        let value = u32::from_le_bytes([pair[4], pair[5], pair[6], pair[7]]);
        if reg == COMPUTE_PGM_RSRC1 {
            out.push(Config {
                rsrc1: value,
                rsrc2: 0,
                tmpring_size: 0,
            });
            continue;
        }
        let Some(cur) = out.last_mut() else {
            return Err(LoadError::Malformed(format!(
                ".AMDGPU.config starts with register {reg:#x}, not COMPUTE_PGM_RSRC1 (graphics shaders are not supported)"
            )));
        };
        match reg {
            COMPUTE_PGM_RSRC2 => cur.rsrc2 = value,
            COMPUTE_TMPRING_SIZE => cur.tmpring_size = value,
            _ => {} // spill counts (0x4, 0x8) and registers a launcher does not need
        }
    }
    Ok(out)
}

pub fn load(file: &ElfFile, target: Target) -> Result<CodeObject, LoadError> {
    let (_, config) = file.section_by_name(".AMDGPU.config").ok_or_else(|| {
        LoadError::UnsupportedVersion("relocatable object without .AMDGPU.config".into())
    })?;
    let configs = configs(&config.bytes)?;
    let (text_index, text) = file
        .section_by_name(".text")
        .ok_or_else(|| LoadError::Malformed("no .text section".into()))?;

    let syms = file.functions_in(text_index);
    if syms.len() != configs.len() {
        return Err(LoadError::Malformed(format!(
            "{} kernel symbols but {} .AMDGPU.config entries",
            syms.len(),
            configs.len()
        )));
    }

    let mut kernels = Vec::with_capacity(syms.len());
    for (sym, cfg) in syms.into_iter().zip(configs) {
        let code = text.bytes_at_offset(sym.value, sym.size).ok_or_else(|| {
            LoadError::MalformedKernel {
                kernel: printable(&sym.name),
                reason: format!("code {:#x}+{} is outside .text", sym.value, sym.size),
            }
        })?;
        let bad = |reason: String| LoadError::MalformedKernel {
            kernel: printable(&sym.name),
            reason,
        };
        let scratch_relocs = scratch_relocs(file, text_index, &sym.name, sym.value, code)?;

        let rsrc1 = Rsrc1(cfg.rsrc1);
        let rsrc2 = Rsrc2(cfg.rsrc2);
        if rsrc2.user_sgpr() != LEGACY_USER_SGPRS {
            return Err(bad(format!(
                "RSRC2.USER_SGPR is {}; legacy kernels pass only the kernarg pointer (2)",
                rsrc2.user_sgpr()
            )));
        }
        // LDS_SIZE granules: 64 dwords on gfx6, 128 dwords on gfx7+ (LLVM's LDSAlignShift).
        let lds_granule = if target.gfx == 6 { 256 } else { 512 };
        // WAVESIZE [24:12] in 1 KiB units per wave (LLVM's ScratchBlocks, shift 10).
        let wave_scratch = ((cfg.tmpring_size >> 12) & 0x1fff) * 1024;
        kernels.push(Kernel {
            name: sym.name.clone(),
            code: code.to_vec(),
            code_address: sym.value,
            sgpr_count: rsrc1.sgprs(),
            vgpr_count: rsrc1.vgprs(),
            lds_size: rsrc2.lds_size() * lds_granule,
            private_segment_size: wave_scratch / WAVEFRONT_SIZE,
            kernarg_size: 0,
            kernarg_align: 4,
            implicit_kernarg_bytes: IMPLICIT_KERNARG_BYTES,
            rsrc1: cfg.rsrc1,
            rsrc2: cfg.rsrc2,
            float_mode: rsrc1.float_mode(),
            ieee_mode: rsrc1.ieee_mode(),
            dx10_clamp: rsrc1.dx10_clamp(),
            user_sgprs: vec![UserSgprSlot {
                kind: UserSgpr::KernargSegmentPtr,
                first: 0,
            }],
            user_sgpr_count: rsrc2.user_sgpr(),
            system_sgprs: SystemSgprs {
                workgroup_id: rsrc2.tgid_en(),
                workgroup_info: rsrc2.tg_size_en(),
                private_segment_wave_offset: rsrc2.scratch_en(),
            },
            tidig_comp_cnt: rsrc2.tidig_comp_cnt(),
            wavefront_size: WAVEFRONT_SIZE,
            args: Vec::new(),
            scratch_relocs,
            reqd_workgroup_size: None,
        });
    }
    Ok(CodeObject {
        target,
        abi: Abi::Legacy,
        e_flags: file.e_flags,
        kernels,
    })
}

/// The relocations that fall inside one kernel's code. Only the scratch resource symbols are
/// supported (LLVM emits no others for kernels without global variables).
fn scratch_relocs(
    file: &ElfFile,
    text_index: usize,
    kernel: &str,
    start: u64,
    code: &[u8],
) -> Result<Vec<ScratchReloc>, LoadError> {
    let in_kernel = |r: &&Reloc| {
        r.target_section == text_index && r.offset >= start && r.offset - start < code.len() as u64
    };
    let mut out = Vec::new();
    for r in file.relocs.iter().filter(in_kernel) {
        let unsupported = || LoadError::UnsupportedRelocation {
            kernel: printable(kernel),
            reloc: r.r_type,
            symbol: printable(&r.symbol),
        };
        let word = match r.symbol.as_str() {
            "SCRATCH_RSRC_DWORD0" => ScratchRsrcWord::Dword0,
            "SCRATCH_RSRC_DWORD1" => ScratchRsrcWord::Dword1,
            _ => return Err(unsupported()),
        };
        let kind = match r.r_type {
            R_AMDGPU_ABS32_LO => RelocKind::Abs32Lo,
            R_AMDGPU_ABS32_HI => RelocKind::Abs32Hi,
            R_AMDGPU_ABS32 => RelocKind::Abs32,
            _ => return Err(unsupported()),
        };
        let offset = (r.offset - start) as usize;
        let field = code
            .get(offset..offset + 4)
            .ok_or_else(|| LoadError::MalformedKernel {
                kernel: printable(kernel),
                reason: format!("relocation at {:#x} overruns the code", r.offset),
            })?;
        // SHT_REL keeps the addend in the field itself.
        let addend = match r.addend {
            Some(a) => a,
            None => i64::from(u32::from_le_bytes([field[0], field[1], field[2], field[3]])),
        };
        out.push(ScratchReloc {
            code_offset: offset as u32,
            word,
            kind,
            addend,
        });
    }
    Ok(out)
}
