//! How to start the waves of an r600-family kernel (notes/amd_launch_abi.md §2.3): constant
//! buffer 0 (the implicit header and the arguments), the initial T0/T1 registers and the active
//! lanes of every wave, which buffer ids name what, and the global pool's addressing.
//!
//! Plain functions over [`Chip`], the grid ([`wavejit_isa::grid`]: group counts and extents,
//! partial groups, the work-item of each lane) and argument values; no runtime types.
//! [`TsWaveInit`] is the launch ABI as the dispatcher calls it.
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
use crate::lift::TsLayout;
pub use wavejit_isa::ArgValue;
use wavejit_isa::{natural_offsets, ArgBlock, Grid, RegSink, WaveCoord, WaveInit};

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
/// bytes, wrapping at 32 bits like the hardware's 32-bit address. The GPR's index counts
/// units of the fetch constant's stride ([`FetchConstant::stride`]): `gpr` is index × stride
/// (modulo 2^32); Mesa's buffers have stride 1, so their index is the byte offset.
pub fn fetch_address(gpr: u32, offset: u32) -> u32 {
    gpr.wrapping_add(offset)
}

/// The fetch constant a launch binds to a vertex-fetch buffer id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchConstant {
    pub resource: Resource,
    /// Bytes one unit of the fetch index counts (the constant's stride; [`fetch_address`]).
    pub stride: u32,
    /// The format a fetch with USE_CONST_FIELDS reads (VTX_WORD1_GPR: DATA_FORMAT,
    /// NUM_FORMAT_ALL, FORMAT_COMP_ALL and SRF_MODE_ALL are then "ignored", the fetch
    /// constant's apply). `None`: the instruction's fields apply either way, as for Mesa's
    /// buffers, which LLVM never reads with USE_CONST_FIELDS.
    pub format: Option<ConstFormat>,
}

/// The format fields of a fetch constant, numbered as VTX_WORD1_GPR numbers them; its
/// ENDIAN_SWAP is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConstFormat {
    pub data_format: u8,
    pub num_format_all: u8,
    pub format_comp_all: bool,
    pub srf_mode_all: bool,
}

/// A DX9 loop constant (seed 000 L1253, L2879: "trip count, beginning value and increment"),
/// the integer constant LOOP_START*/LOOP_END name with CF_CONST.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoopConst {
    pub count: u32,
    pub init: u32,
    /// Added to aL at each LOOP_END, modulo 2^32.
    pub step: u32,
}

/// Integer constants LOOP_START* can name (CF_CONST is 5 bits).
pub const LOOP_CONSTS: usize = 32;

/// What a launch binds to the numbers the code names: vertex-fetch buffer ids, RAT ids and
/// the loop constants. Kcache bank `i` is constant buffer `i` under every launch (the `cb`
/// cells of [`TsLayout`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bindings {
    /// (buffer id, fetch constant) of every bound fetch buffer.
    pub fetch: Vec<(u32, FetchConstant)>,
    /// The RAT ids bound to the global pool, each indexed as [`rat_address`] says.
    pub rats: Vec<u32>,
    pub loop_consts: [LoopConst; LOOP_CONSTS],
}

impl Bindings {
    /// Mesa's compute launch (notes §2.3): fetch buffers 1 (the pool) and 3 (constant buffer
    /// 0) with stride 1 ([`fetch_buffer`]; Mesa's buffer 2, the code, is not bound here), RAT
    /// 0 ([`rat`]) and the loop constant Mesa writes for compute, 0x01000FFF (count 4095,
    /// init 0, step 1; `evergreen_compute.c`), whichever CF_CONST names it: LLVM names only
    /// constant 0.
    pub fn mesa() -> Bindings {
        let bytes = |resource| FetchConstant {
            resource,
            stride: 1,
            format: None,
        };
        Bindings {
            fetch: [1, 3]
                .into_iter()
                .filter_map(|id| Some((id, bytes(fetch_buffer(id)?))))
                .collect(),
            rats: vec![0],
            loop_consts: [LoopConst {
                count: 0xfff,
                init: 0,
                step: 1,
            }; LOOP_CONSTS],
        }
    }

    /// The fetch constant of buffer `id`, if bound.
    pub fn fetch_constant(&self, id: u32) -> Option<FetchConstant> {
        self.fetch.iter().find(|(i, _)| *i == id).map(|(_, c)| *c)
    }
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

/// The byte offset of every argument in constant buffer 0: each aligned to its own size
/// counting from the end of the header, as LLVM's calling-convention analysis places them
/// (`getExplicitKernelArgOffset` = 36 plus the natural offset; an 8-byte value can thus sit
/// at a 4-byte-aligned address, e.g. 44).
pub fn arg_offsets(args: &[ArgValue]) -> Vec<u32> {
    let sizes: Vec<u32> = args.iter().map(|a| a.size()).collect();
    natural_offsets(&sizes, IMPLICIT_HEADER_BYTES)
}

/// Constant buffer 0 for a dispatch: the 36-byte header (ngroups, global size, local size;
/// x, y, z) then the arguments at [`arg_offsets`], zero-padded to whole 16-byte constants
/// (the kcache reads vec4s).
pub fn constant_buffer0(grid: &Grid, args: &[ArgValue]) -> Vec<u8> {
    let mut out = ArgBlock::new();
    out.put_u32s(0, &[grid.groups(), grid.global, grid.local].concat());
    out.reserve_to(IMPLICIT_HEADER_BYTES as usize);
    out.put_natural(IMPLICIT_HEADER_BYTES, args);
    out.finish(16)
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LaunchError {
    #[error("invalid launch: {0}")]
    InvalidLaunch(String),
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

/// Checks that `wave` is a wave of `chip` inside its grid.
fn check_wave(chip: Chip, wave: &WaveCoord) -> Result<(), LaunchError> {
    let lanes = wave_size(chip);
    if wave.wave_size != lanes {
        return Err(LaunchError::InvalidLaunch(format!(
            "waves of {} lanes ({} runs {lanes})",
            wave.wave_size,
            chip.name()
        )));
    }
    let group = wave.group;
    if (0..3).any(|d| group[d] >= wave.groups[d]) {
        return Err(LaunchError::InvalidLaunch(format!(
            "work-group {group:?} is outside the grid of {:?} groups",
            wave.groups
        )));
    }
    if wave.wave >= wave.waves_in_group {
        return Err(LaunchError::InvalidLaunch(format!(
            "wave {} of a work-group of {} waves",
            wave.wave, wave.waves_in_group
        )));
    }
    Ok(())
}

/// The initial state of `wave` on `chip`.
pub fn wave_state(chip: Chip, wave: &WaveCoord) -> Result<WaveState, LaunchError> {
    check_wave(chip, wave)?;
    let lanes = wave_size(chip);
    let n = lanes as usize;
    let (mut x, mut y, mut z) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
    wave.fill_local_ids(&mut x, &mut y, &mut z);
    let t0 = (0..n).map(|l| [x[l], y[l], z[l], 0]).collect();
    Ok(WaveState {
        t0,
        t1: [wave.group[0], wave.group[1], wave.group[2], 0],
        exec: wave.exec_mask(),
    })
}

/// The r600 launch ABI of one dispatch, as the dispatcher calls it: T0/T1 and the active
/// lanes from [`wave_state`], and the guest addresses of the global pool, constant buffer 0
/// and the GDS in the lifter's cells.
pub struct TsWaveInit {
    pub chip: Chip,
    pub layout: TsLayout,
    /// Guest address of byte 0 of the global pool.
    pub pool_base: u64,
    /// Guest address of constant buffer 0.
    pub cb0: u64,
    /// Guest address of the dispatch's GDS (0: none).
    pub gds: u64,
}

impl WaveInit for TsWaveInit {
    /// What [`wave_state`] describes, written straight into the registers (this runs once
    /// per wave of every dispatch).
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String> {
        let g = &self.layout;
        check_wave(self.chip, wave).map_err(|e| e.to_string())?;
        let n = wave_size(self.chip) as usize;
        let ids = [0, 1, 2].map(|chan| g.gpr(LOCAL_ID_GPR, chan));
        if ids.iter().any(|&r| regs.observes_row(r)) {
            let mut rows = [[0u32; 64]; 3];
            let [x, y, z] = &mut rows;
            wave.fill_local_ids(&mut x[..n], &mut y[..n], &mut z[..n]);
            for (&reg, row) in ids.iter().zip(&rows) {
                regs.set_row(reg, &row[..n]);
            }
        }
        for chan in 0..3 {
            regs.fill_row(
                g.gpr(GROUP_ID_GPR, chan),
                n as u32,
                wave.group[chan as usize],
            );
        }
        regs.fill_row(g.gpr(LOCAL_ID_GPR, 3), n as u32, 0);
        regs.fill_row(g.gpr(GROUP_ID_GPR, 3), n as u32, 0);
        regs.set_uniform64(g.active(), wave.exec_mask());
        regs.set_uniform64(g.pool_base(), self.pool_base);
        regs.set_uniform64(g.const_buffer(0), self.cb0);
        regs.set_uniform64(g.gds(), self.gds);
        Ok(())
    }
}
