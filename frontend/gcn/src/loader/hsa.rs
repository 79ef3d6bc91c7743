//! `amdgcn-amd-amdhsa` code objects v3/v4: kernel descriptors plus the metadata note.
//!
//! The descriptor (64 bytes at `<k>.kd`) is what the hardware dispatcher reads, so register
//! enables, LDS and scratch sizes come from it; argument layout, register counts and the
//! wavefront size come from the metadata.

use wavejit_isa::elf::{ElfFile, SymKind};
use wavejit_isa::printable;

use super::rsrc::{Rsrc1, Rsrc2};
use super::{
    metadata, Abi, CodeObject, Kernel, LoadError, SystemSgprs, Target, UserSgpr, UserSgprSlot,
};

/// `NT_AMDGPU_METADATA`.
const NT_AMDGPU_METADATA: u32 = 32;
const KERNEL_DESCRIPTOR_BYTES: usize = 64;
/// `kernel_code_properties` bit 10: ENABLE_WAVEFRONT_SIZE32 (gfx10+ only).
const KCP_WAVE32: u16 = 1 << 10;

/// The fields of a v3+ kernel descriptor this crate uses (layout: notes/amd_launch_abi.md §3.1).
struct Descriptor {
    group_segment_fixed_size: u32,
    private_segment_fixed_size: u32,
    kernel_code_entry_byte_offset: i64,
    rsrc1: u32,
    rsrc2: u32,
    kernel_code_properties: u16,
}

impl Descriptor {
    fn parse(b: &[u8; KERNEL_DESCRIPTOR_BYTES]) -> Descriptor {
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let mut entry = [0u8; 8];
        entry.copy_from_slice(&b[16..24]);
        Descriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernel_code_entry_byte_offset: i64::from_le_bytes(entry),
            rsrc1: u32_at(48),
            rsrc2: u32_at(52),
            kernel_code_properties: u16::from_le_bytes([b[56], b[57]]),
        }
    }
}

pub fn load(file: &ElfFile, target: Target) -> Result<CodeObject, LoadError> {
    // EI_ABIVERSION for ELFOSABI_AMDGPU_HSA: 0 = v2, 1 = v3, 2 = v4, 3 = v5 (AMDGPUUsage).
    if !matches!(file.abi_version, 1 | 2) {
        return Err(LoadError::UnsupportedVersion(format!(
            "amdhsa ABI version {} (code object v{}); v3 and v4 are supported",
            file.abi_version,
            u32::from(file.abi_version) + 2
        )));
    }
    let notes = file
        .notes(b"AMDGPU", NT_AMDGPU_METADATA)
        .map_err(|e| LoadError::MalformedNote(e.detail()))?;
    let desc = notes
        .first()
        .ok_or_else(|| LoadError::MalformedNote("no NT_AMDGPU_METADATA note".into()))?;
    let kernels = metadata::parse(desc)?
        .into_iter()
        .map(|meta| kernel(file, meta))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(CodeObject {
        target,
        abi: Abi::Hsa,
        e_flags: file.e_flags,
        kernels,
    })
}

fn kernel(file: &ElfFile, meta: metadata::KernelMeta) -> Result<Kernel, LoadError> {
    let bad = |reason: String| LoadError::MalformedKernel {
        kernel: printable(&meta.name),
        reason,
    };
    let kd_sym = file
        .symbols
        .iter()
        .find(|s| s.name == meta.symbol && s.kind == SymKind::Object)
        .ok_or_else(|| {
            bad(format!(
                "no kernel descriptor symbol {}",
                printable(&meta.symbol)
            ))
        })?;
    let kd_bytes = file
        .bytes_at_address(kd_sym.value, KERNEL_DESCRIPTOR_BYTES as u64)
        .and_then(|b| <&[u8; KERNEL_DESCRIPTOR_BYTES]>::try_from(b).ok())
        .ok_or_else(|| {
            bad(format!(
                "kernel descriptor at {:#x} is outside the file",
                kd_sym.value
            ))
        })?;
    let kd = Descriptor::parse(kd_bytes);

    // The entry offset is relative to the descriptor's own address (notes §3.1).
    let entry = kd_sym
        .value
        .checked_add_signed(kd.kernel_code_entry_byte_offset)
        .ok_or_else(|| bad("kernel code entry offset overflows".into()))?;
    let func = file
        .symbols
        .iter()
        .filter(|s| s.kind == SymKind::Func && s.value == entry)
        .max_by_key(|s| s.name == meta.name)
        .ok_or_else(|| bad(format!("no function symbol at the entry {entry:#x}")))?;
    let code = file.bytes_at_address(entry, func.size).ok_or_else(|| {
        bad(format!(
            "code at {entry:#x} (+{} bytes) is outside the file",
            func.size
        ))
    })?;

    if (kd.group_segment_fixed_size, kd.private_segment_fixed_size)
        != (
            meta.group_segment_fixed_size,
            meta.private_segment_fixed_size,
        )
    {
        return Err(bad(
            "kernel descriptor and metadata disagree on LDS or scratch size".into(),
        ));
    }
    if kd.kernel_code_properties & KCP_WAVE32 != 0 {
        return Err(bad("wave32 kernels are not GCN gfx6-gfx9 code".into()));
    }
    let rsrc1 = Rsrc1(kd.rsrc1);
    let rsrc2 = Rsrc2(kd.rsrc2);
    let mut user_sgprs = Vec::new();
    let mut next = 0u8;
    for (bit, kind) in UserSgpr::ORDER.into_iter().enumerate() {
        if kd.kernel_code_properties & (1 << bit) != 0 {
            user_sgprs.push(UserSgprSlot { kind, first: next });
            next += kind.size();
        }
    }
    if next != rsrc2.user_sgpr() {
        return Err(bad(format!(
            "kernel_code_properties enable {next} user SGPRs but RSRC2.USER_SGPR is {}",
            rsrc2.user_sgpr()
        )));
    }
    Ok(Kernel {
        code: code.to_vec(),
        code_address: entry,
        sgpr_count: meta.sgpr_count,
        vgpr_count: meta.vgpr_count,
        lds_size: kd.group_segment_fixed_size,
        private_segment_size: kd.private_segment_fixed_size,
        kernarg_size: meta.kernarg_segment_size,
        kernarg_align: meta.kernarg_segment_align,
        implicit_kernarg_bytes: 0,
        rsrc1: kd.rsrc1,
        rsrc2: kd.rsrc2,
        float_mode: rsrc1.float_mode(),
        ieee_mode: rsrc1.ieee_mode(),
        dx10_clamp: rsrc1.dx10_clamp(),
        user_sgprs,
        user_sgpr_count: rsrc2.user_sgpr(),
        system_sgprs: SystemSgprs {
            workgroup_id: rsrc2.tgid_en(),
            workgroup_info: rsrc2.tg_size_en(),
            private_segment_wave_offset: rsrc2.scratch_en(),
        },
        tidig_comp_cnt: rsrc2.tidig_comp_cnt(),
        wavefront_size: meta.wavefront_size,
        args: meta.args,
        scratch_relocs: Vec::new(),
        reqd_workgroup_size: meta.reqd_workgroup_size,
        name: meta.name,
    })
}
