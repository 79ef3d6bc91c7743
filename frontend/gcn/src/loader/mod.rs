//! Code-object loaders for LLVM-compiled GCN kernels (gfx6-gfx9).
//!
//! Two kinds of file are understood (notes/amd_launch_abi.md §3.1):
//! - [`Abi::Hsa`]: `amdgcn-amd-amdhsa` code objects v3/v4 (`ld.lld -shared` output, ET_DYN):
//!   a 64-byte kernel descriptor `<k>.kd` per kernel and the msgpack `NT_AMDGPU_METADATA` note.
//! - [`Abi::Legacy`]: `amdgcn--` relocatable objects (ET_REL, Clover style): `(register, value)`
//!   pairs in `.AMDGPU.config`, one `STT_FUNC` symbol per kernel, and `R_AMDGPU_ABS32_*`
//!   relocations against `SCRATCH_RSRC_DWORD0/1` that the launcher patches with the scratch
//!   buffer resource.
//!
//! The result is plain data ([`CodeObject`], [`Kernel`]) with everything a launcher needs; it
//! borrows nothing from the input. Invariants: `Kernel::code` is the kernel's machine code from
//! its entry to the end of its function symbol; every [`ScratchReloc::code_offset`] + 4 is within
//! `code`; `user_sgprs` are in hardware order with consecutive first registers starting at s0.
//! Any input, however malformed, gives a [`LoadError`], never a panic.
//!
//! Legacy objects carry no argument metadata: [`Kernel::args`] is empty and
//! [`Kernel::implicit_kernarg_bytes`] is 36 (ngroups, global size, local size, each x/y/z);
//! explicit arguments follow at `36 + natural offset` in parameter order, which is what a
//! caller must build from its own knowledge of the parameter types (see `launch`).

mod hsa;
mod legacy;
mod metadata;
mod rsrc;
mod target;

use thiserror::Error;
use wavejit_isa::elf::{Elf64, ElfFile, EM_AMDGPU};
use wavejit_isa::names::find_kernel;

pub use target::Target;

/// EI_OSABI of `amdgcn--` objects.
const ELFOSABI_NONE: u8 = 0;
/// `ELFOSABI_AMDGPU_HSA`.
const ELFOSABI_AMDGPU_HSA: u8 = 64;

/// How the kernels of a code object expect to be launched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abi {
    /// `amdgcn-amd-amdhsa`: kernel descriptors, HSA user SGPRs, arguments at kernarg offset 0.
    Hsa,
    /// `amdgcn--`: `.AMDGPU.config`, `s[0:1]` = kernarg pointer, a 36-byte implicit header.
    Legacy,
}

/// A loaded code object.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeObject {
    pub target: Target,
    pub abi: Abi,
    /// The ELF header's `e_flags` (machine and feature bits).
    pub e_flags: u32,
    /// In the file's order (metadata order for HSA, symbol order for legacy).
    pub kernels: Vec<Kernel>,
}

/// The user SGPRs a kernel can ask for, in the fixed order the hardware loads them
/// (notes/amd_launch_abi.md §3.2; AMDGPUUsage "Initial Kernel Execution State").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserSgpr {
    /// The private segment (scratch) buffer resource, a 4-dword V#.
    PrivateSegmentBuffer,
    /// 64-bit address of the `hsa_kernel_dispatch_packet_t`.
    DispatchPtr,
    /// 64-bit address of the `hsa_queue_t`.
    QueuePtr,
    /// 64-bit address of the kernarg segment.
    KernargSegmentPtr,
    /// 64-bit dispatch id.
    DispatchId,
    /// Flat scratch base offset and size, for `FLAT_SCRATCH` initialisation.
    FlatScratchInit,
    /// Bytes of scratch per work-item.
    PrivateSegmentSize,
}

impl UserSgpr {
    /// The hardware order, which is also the bit order of `kernel_code_properties`.
    pub const ORDER: [UserSgpr; 7] = [
        UserSgpr::PrivateSegmentBuffer,
        UserSgpr::DispatchPtr,
        UserSgpr::QueuePtr,
        UserSgpr::KernargSegmentPtr,
        UserSgpr::DispatchId,
        UserSgpr::FlatScratchInit,
        UserSgpr::PrivateSegmentSize,
    ];

    /// Number of consecutive SGPRs the value occupies.
    pub fn size(self) -> u8 {
        match self {
            UserSgpr::PrivateSegmentBuffer => 4,
            UserSgpr::PrivateSegmentSize => 1,
            _ => 2,
        }
    }
}

/// One enabled user SGPR value and the first SGPR it is loaded into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UserSgprSlot {
    pub kind: UserSgpr,
    pub first: u8,
}

/// The system SGPRs enabled in COMPUTE_PGM_RSRC2; they follow the user SGPRs in this order:
/// workgroup id x, y, z, workgroup info, private segment wave byte offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SystemSgprs {
    /// TGID_X_EN, TGID_Y_EN, TGID_Z_EN.
    pub workgroup_id: [bool; 3],
    /// TG_SIZE_EN.
    pub workgroup_info: bool,
    /// SCRATCH_EN: the private segment wave byte offset.
    pub private_segment_wave_offset: bool,
}

/// How a kernel argument is passed (the metadata `.value_kind`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// `global_buffer`: a 64-bit global address.
    GlobalBuffer,
    /// `by_value`: the bytes of the value.
    ByValue,
    /// `dynamic_shared_pointer`: a `__local` pointer (an LDS offset).
    DynamicSharedPointer,
    /// `hidden_global_offset_{x,y,z}` (0, 1, 2): added by the runtime, never by the caller.
    HiddenGlobalOffset(u8),
    /// `hidden_none`: padding the runtime fills with zero.
    HiddenNone,
    /// Any other kind, spelled as in the metadata (images, samplers, other hidden arguments).
    Other(String),
}

/// One kernel argument as described by the HSA metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    /// Absent unless the source was compiled with argument info.
    pub name: Option<String>,
    pub offset: u32,
    pub size: u32,
    pub kind: ArgKind,
    pub type_name: Option<String>,
    /// `global`, `constant`, `local`, ... for pointers.
    pub address_space: Option<String>,
}

/// Which dword of the scratch buffer resource a relocation asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScratchRsrcWord {
    /// `SCRATCH_RSRC_DWORD0`: base address bits `[31:0]`.
    Dword0,
    /// `SCRATCH_RSRC_DWORD1`: base address bits `[47:32]` and the stride/swizzle bits.
    Dword1,
}

/// The part of the symbol value a relocation stores (ELF `R_AMDGPU_*` types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelocKind {
    /// `R_AMDGPU_ABS32_LO` (1): bits `[31:0]` of S + A.
    Abs32Lo,
    /// `R_AMDGPU_ABS32_HI` (2): bits `[63:32]` of S + A.
    Abs32Hi,
    /// `R_AMDGPU_ABS32` (6): S + A, truncated to 32 bits.
    Abs32,
}

/// A 32-bit literal in the legacy code that must be patched before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScratchReloc {
    /// Byte offset of the 32-bit field within [`Kernel::code`].
    pub code_offset: u32,
    pub word: ScratchRsrcWord,
    pub kind: RelocKind,
    /// The explicit or implicit (REL: the field's current value) addend.
    pub addend: i64,
}

/// Everything needed to start a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    /// Machine code from the entry to the end of the kernel's function symbol.
    pub code: Vec<u8>,
    /// Address of the entry: its virtual address (HSA) or its offset in `.text` (legacy).
    /// For printing; branch targets in the code are relative.
    pub code_address: u64,
    /// Scalar registers the wave needs. HSA: the metadata `.sgpr_count` (includes VCC and the
    /// other reserved SGPRs). Legacy: the RSRC1 allocation, `(SGPRS + 1) * 8`.
    pub sgpr_count: u32,
    /// Vector registers per lane. HSA: `.vgpr_count`; legacy: `(VGPRS + 1) * 4`.
    pub vgpr_count: u32,
    /// Static LDS bytes per work-group. HSA: `group_segment_fixed_size`; legacy: RSRC2
    /// LDS_SIZE granules (256 bytes on gfx6, 512 on gfx7+), so possibly rounded up.
    pub lds_size: u32,
    /// Scratch bytes per lane. HSA: `private_segment_fixed_size`; legacy: from
    /// COMPUTE_TMPRING_SIZE.WAVESIZE (1 KiB units per wave64), so possibly rounded up.
    pub private_segment_size: u32,
    /// Bytes of explicit (and hidden) arguments. Legacy: 0, not known without metadata.
    pub kernarg_size: u32,
    pub kernarg_align: u32,
    /// Bytes before the first explicit argument: 0 (HSA) or 36 (legacy header).
    pub implicit_kernarg_bytes: u32,
    pub rsrc1: u32,
    pub rsrc2: u32,
    /// RSRC1 `[19:12]`: round mode f32 `[1:0]`, f16/f64 `[3:2]`, denorm mode f32 `[5:4]`, f16/f64 `[7:6]`.
    pub float_mode: u8,
    pub ieee_mode: bool,
    pub dx10_clamp: bool,
    /// Enabled user SGPRs, in order, with their first SGPR.
    pub user_sgprs: Vec<UserSgprSlot>,
    /// RSRC2.USER_SGPR: the number of user SGPRs (system SGPRs start here).
    pub user_sgpr_count: u8,
    pub system_sgprs: SystemSgprs,
    /// RSRC2.TIDIG_COMP_CNT: 0 = v0 only, 1 = v0 and v1, 2 = v0, v1 and v2.
    pub tidig_comp_cnt: u8,
    pub wavefront_size: u32,
    /// HSA metadata arguments in offset order; empty for legacy objects.
    pub args: Vec<KernelArg>,
    /// Legacy scratch relocations; empty for HSA.
    pub scratch_relocs: Vec<ScratchReloc>,
    pub reqd_workgroup_size: Option<[u32; 3]>,
}

impl Kernel {
    /// The first SGPR of an enabled user SGPR value.
    pub fn user_sgpr(&self, kind: UserSgpr) -> Option<u8> {
        self.user_sgprs
            .iter()
            .find(|s| s.kind == kind)
            .map(|s| s.first)
    }

    /// Whether f32 denormals are flushed (FLOAT_MODE denorm f32 = 0, the gfx6-8 amdhsa default).
    pub fn flushes_f32_denormals(&self) -> bool {
        (self.float_mode >> 4) & 3 == 0
    }
}

/// Why a file could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LoadError {
    /// The file does not start with the ELF magic.
    #[error("not an ELF file")]
    NotElf,
    /// A header, a table or a section lies past the end of the file.
    #[error("truncated ELF file: {0}")]
    Truncated(String),
    /// ELF structures `object` refuses, or a section a legacy object needs is missing.
    #[error("malformed ELF file: {0}")]
    Malformed(String),
    #[error("not a 64-bit little-endian ELF file (GCN code objects are ELFCLASS64, LSB)")]
    WrongClass,
    #[error("ELF machine {0} is not EM_AMDGPU (224)")]
    WrongMachine(u16),
    #[error("unsupported processor: EF_AMDGPU_MACH 0x{0:x} is not a gfx6-gfx9 GCN chip")]
    UnsupportedChip(u32),
    #[error("unsupported code object: {0}")]
    UnsupportedVersion(String),
    #[error("malformed AMDGPU metadata note: {0}")]
    MalformedNote(String),
    #[error("kernel {kernel}: {reason}")]
    MalformedKernel { kernel: String, reason: String },
    #[error("kernel {kernel}: unsupported relocation {reloc} against {symbol}")]
    UnsupportedRelocation {
        kernel: String,
        reloc: u32,
        symbol: String,
    },
    #[error("kernel {name} not found; available: {available}")]
    KernelNotFound { name: String, available: String },
}

wavejit_isa::impl_load_error_from!(LoadError);

impl CodeObject {
    /// The kernel called `name`; if there is none, [`LoadError::KernelNotFound`] names the
    /// kernels of this code object.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, LoadError> {
        find_kernel(&self.kernels, |k| &k.name, name).map_err(LoadError::from)
    }
}

/// Parses a GCN code object of either ABI.
pub fn load(data: &[u8]) -> Result<CodeObject, LoadError> {
    let file = ElfFile::parse::<Elf64>(data, EM_AMDGPU)?;
    let target = Target::from_e_flags(file.e_flags)?;
    match (file.os_abi, file.e_type) {
        (ELFOSABI_AMDGPU_HSA, _) => hsa::load(&file, target),
        (ELFOSABI_NONE, object::elf::ET_REL) => legacy::load(&file, target),
        (os_abi, e_type) => Err(LoadError::UnsupportedVersion(format!(
            "OS/ABI {os_abi} with ELF type {e_type} (expected amdhsa or a relocatable amdgcn-- object)"
        ))),
    }
}
