//! How to start the waves of an r600-family kernel (notes/amd_launch_abi.md §2.3): constant
//! buffer 0 (the implicit header and the arguments), the initial T0/T1 registers and the active
//! lanes of every wave, which buffer ids name what, and the global pool's addressing.
//!
//! Plain functions over [`Chip`], [`Dispatch`] and argument values; no runtime types.
//!
//! **Memory model.** A dispatch sees one global pool of at most 4 GiB, addressed in bytes from
//! 0. Pointer arguments are 32-bit byte offsets into it (Mesa's r600 compute driver passes
//! `offset + chunk->start_in_dw * 4` for every buffer of its single global pool). Every
//! resource the code names is bound as Mesa's r600 compute driver binds it (notes §2.3;
//! [`Resource`]):
//! vertex-fetch buffer 1 and RAT 0 both cover the whole pool, constant buffer 0 (read through
//! the kcache, `KC0[i].c`) and vertex-fetch buffer 3 both hold the arguments.
//!
//! **Work-items.** Work-items of a group are numbered x fastest (`flat = x + y*lx + z*lx*ly`),
//! wave `w` holds flat ids `S*w .. S*w + S-1` with `S` = [`wave_size`], lane = flat - `S*w`.
//! At launch T0.x/y/z hold the local id (Mesa enables TID_IN_GROUP_ENA) and T1.x/y/z the
//! group id (TGID_ENA); every other register is undefined, and LLVM never reads one before
//! writing it (this module gives T0.w = T1.w = 0).
//!
//! **Partial groups** (an emulator convention): OpenCL 1.2, which Mesa's r600 driver
//! implements, requires the global size to be a multiple of the local size, so hardware never
//! sees a partial group. This module also accepts other sizes with the GCN/HSA rule: the last
//! group in a dimension holds only the work-items that remain, ngroups counts it, and the
//! header's global size is the size asked for. The kernels guard with `get_global_id < n`.

use thiserror::Error;

use crate::chip::Chip;

/// Bytes of the implicit header at the start of constant buffer 0: ngroups, global size,
/// local size, each x/y/z as u32 (LLVM's `R600TargetLowering::LowerImplicitParameter` 0..8,
/// Mesa's `evergreen_compute_upload_input`).
pub const IMPLICIT_HEADER_BYTES: u32 = 36;
/// The largest work-group: Mesa's r600 driver reports 1024 work-items per block for
/// Evergreen and later (`r600_pipe_common.c`, `get_max_threads_per_block`, TGSI/LLVM path).
pub const MAX_WORKGROUP_SIZE: u32 = 1024;
/// The GPR holding the local id x/y/z at launch (T0).
pub const LOCAL_ID_GPR: u32 = 0;
/// The GPR holding the group id x/y/z at launch (T1).
pub const GROUP_ID_GPR: u32 = 1;
/// Mesa programs `SQ_PGM_RESOURCES_LS` with DX10_CLAMP set for every compute dispatch
/// (`evergreen_compute.c`, `evergreen_emit_cs_shader`), whatever `.AMDGPU.config` says: the
/// ALU output clamp then maps NaN to 0 (the same mode bit as GCN's RSRC1.DX10_CLAMP).
pub const DX10_CLAMP: bool = true;

/// Lanes per wave: LLVM's processor table (R600Processors.td) gives cedar
/// `FeatureWavefrontSize32` and every other Evergreen and Northern Islands chip 64.
pub fn wave_size(chip: Chip) -> u32 {
    match chip {
        Chip::Cedar => 32,
        _ => 64,
    }
}

/// What a buffer id of the code refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// The global pool, byte-addressed from 0.
    GlobalPool,
    /// Constant buffer 0: the header and the kernel arguments ([`constant_buffer0`]).
    KernelArgs,
    /// The code object's `.text` (LLVM places program-scope `__constant` data there; Mesa
    /// binds the code buffer as vertex-fetch buffer 2). No fixture kernel uses it.
    CodeConstants,
}

/// The resource of a vertex-fetch buffer id (`VTX_READ_* ..., #id`), notes §2.3: 1 is the
/// global pool, 2 the code, 3 constant buffer 0 again, for the arguments LLVM reads with a
/// fetch (8- and 16-bit scalars: `VTX_READ_8 T1.X, T0.X, 56, #3` in the args_probe listing).
pub fn fetch_buffer(id: u32) -> Option<Resource> {
    match id {
        1 => Some(Resource::GlobalPool),
        2 => Some(Resource::CodeConstants),
        3 => Some(Resource::KernelArgs),
        _ => None,
    }
}

/// The resource of a RAT id (`MEM_RAT*`): RAT 0 is the global pool.
pub fn rat(id: u32) -> Option<Resource> {
    (id == 0).then_some(Resource::GlobalPool)
}

/// The resource of a kcache constant buffer (`KC0[CB<id>:...]`): constant buffer 0 holds the
/// arguments.
pub fn constant_buffer(id: u32) -> Option<Resource> {
    (id == 0).then_some(Resource::KernelArgs)
}

/// The byte a vertex fetch reads: the address GPR plus the instruction's OFFSET field, in
/// bytes, wrapping at 32 bits like the hardware's 32-bit address.
pub fn fetch_address(gpr: u32, offset: u32) -> u32 {
    gpr.wrapping_add(offset)
}

/// The first byte a RAT write or atomic touches: the index GPR counts dwords (LLVM stores
/// `byte address >> 2` into it; the RAT is bound as a 32-bit format).
pub fn rat_address(index: u32) -> u64 {
    u64::from(index) * 4
}

/// The kcache slot of dword `d` of a constant buffer: `KC0[d / 4]` channel `d % 4` (0 = X).
pub fn kcache_slot(dword: u32) -> (u32, u32) {
    (dword / 4, dword % 4)
}

/// A kernel argument value, in parameter order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgValue {
    /// A global buffer: a byte offset into the global pool (4 bytes).
    Pointer(u32),
    U8(u8),
    U16(u16),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
}

impl ArgValue {
    /// The little-endian bytes; their count is also the argument's alignment.
    pub fn bytes(self) -> Vec<u8> {
        match self {
            ArgValue::Pointer(v) | ArgValue::U32(v) => v.to_le_bytes().to_vec(),
            ArgValue::U8(v) => vec![v],
            ArgValue::U16(v) => v.to_le_bytes().to_vec(),
            ArgValue::I32(v) => v.to_le_bytes().to_vec(),
            ArgValue::U64(v) => v.to_le_bytes().to_vec(),
            ArgValue::I64(v) => v.to_le_bytes().to_vec(),
            ArgValue::F32(v) => v.to_bits().to_le_bytes().to_vec(),
        }
    }
}

/// The byte offset of every argument in constant buffer 0: each aligned to its own size
/// counting from the end of the header, as LLVM's calling-convention analysis places them
/// (`getExplicitKernelArgOffset` = 36 plus the natural offset; an 8-byte value can thus sit
/// at a 4-byte-aligned address, e.g. 44).
pub fn arg_offsets(args: &[ArgValue]) -> Vec<u32> {
    let mut natural = 0u32;
    args.iter()
        .map(|a| {
            let size = a.bytes().len() as u32;
            natural = natural.next_multiple_of(size);
            let at = IMPLICIT_HEADER_BYTES + natural;
            natural += size;
            at
        })
        .collect()
}

/// Constant buffer 0 for a dispatch: the 36-byte header (ngroups, global size, local size;
/// x, y, z) then the arguments at [`arg_offsets`], zero-padded to whole 16-byte constants
/// (the kcache reads vec4s).
pub fn constant_buffer0(dispatch: &Dispatch, args: &[ArgValue]) -> Vec<u8> {
    let mut out = Vec::new();
    for v in [dispatch.groups(), dispatch.global, dispatch.local]
        .iter()
        .flatten()
    {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for (a, at) in args.iter().zip(arg_offsets(args)) {
        out.resize(at as usize, 0);
        out.extend_from_slice(&a.bytes());
    }
    out.resize(out.len().next_multiple_of(16), 0);
    out
}

/// The grid of one dispatch, in work-items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub global: [u32; 3],
    pub local: [u32; 3],
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LaunchError {
    #[error("invalid launch: {0}")]
    InvalidLaunch(String),
}

impl Dispatch {
    /// Checks the sizes: non-zero, and a work-group of at most [`MAX_WORKGROUP_SIZE`].
    pub fn validate(&self) -> Result<(), LaunchError> {
        if self.local.contains(&0) || self.global.contains(&0) {
            return Err(LaunchError::InvalidLaunch(
                "global and local sizes must be non-zero".into(),
            ));
        }
        let items = self.local.iter().map(|&n| u64::from(n)).product::<u64>();
        if items > u64::from(MAX_WORKGROUP_SIZE) {
            return Err(LaunchError::InvalidLaunch(format!(
                "work-group of {items} work-items exceeds {MAX_WORKGROUP_SIZE}"
            )));
        }
        Ok(())
    }

    /// Work-groups per dimension (a partial last group counts).
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.global[d].div_ceil(self.local[d].max(1)))
    }

    /// The extent of work-group `group` (smaller than `local` at the edge of the grid).
    pub fn group_extent(&self, group: [u32; 3]) -> [u32; 3] {
        [0, 1, 2].map(|d| {
            let start = u64::from(group[d]) * u64::from(self.local[d]);
            let left = u64::from(self.global[d]).saturating_sub(start);
            self.local[d].min(left as u32)
        })
    }

    /// Waves in work-group `group` on `chip`.
    pub fn waves_in_group(&self, chip: Chip, group: [u32; 3]) -> u32 {
        self.group_extent(group)
            .iter()
            .product::<u32>()
            .div_ceil(wave_size(chip))
    }
}

/// The registers a wave starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveState {
    /// T0 (x, y, z, w) per lane: the local id, w = 0; all zero in inactive lanes.
    pub t0: Vec<[u32; 4]>,
    /// T1 (x, y, z, w), the same in every lane: the group id, w = 0.
    pub t1: [u32; 4],
    /// One bit per lane that holds a work-item (bits at and above the wave size are 0).
    pub exec: u64,
}

/// The initial state of wave `wave` of work-group `group`.
pub fn wave_state(
    chip: Chip,
    dispatch: &Dispatch,
    group: [u32; 3],
    wave: u32,
) -> Result<WaveState, LaunchError> {
    dispatch.validate()?;
    let groups = dispatch.groups();
    if (0..3).any(|d| group[d] >= groups[d]) {
        return Err(LaunchError::InvalidLaunch(format!(
            "work-group {group:?} is outside the grid of {groups:?} groups"
        )));
    }
    let waves = dispatch.waves_in_group(chip, group);
    if wave >= waves {
        return Err(LaunchError::InvalidLaunch(format!(
            "wave {wave} of a work-group of {waves} waves"
        )));
    }
    let lanes = wave_size(chip);
    let extent = dispatch.group_extent(group);
    let items = extent.iter().product::<u32>();
    let mut t0 = vec![[0u32; 4]; lanes as usize];
    let mut exec = 0u64;
    for lane in 0..lanes {
        let flat = wave * lanes + lane;
        if flat >= items {
            break;
        }
        exec |= 1 << lane;
        t0[lane as usize] = [
            flat % extent[0],
            (flat / extent[0]) % extent[1],
            flat / (extent[0] * extent[1]),
            0,
        ];
    }
    Ok(WaveState {
        t0,
        t1: [group[0], group[1], group[2], 0],
        exec,
    })
}
