//! How to start the waves of a loaded kernel (notes/amd_launch_abi.md §3.2): initial SGPRs,
//! VGPRs and EXEC per wave, the kernarg segment, the HSA dispatch packet, and the scratch
//! (private segment) buffer resource, including the values legacy relocations are patched to.
//!
//! Plain functions over [`Kernel`] and guest addresses; no runtime types. The grid's geometry
//! (work-group counts and extents, partial groups at the edge of the grid, the work-item of
//! each lane) is [`wavejit_isa::grid`]'s, with [`WAVE_SIZE`] lanes a wave; [`GcnWaveInit`]
//! is the launch ABI as the dispatcher calls it.
//!
//! Scratch layout (an emulator convention, stated because the hardware one depends on the
//! V# words): the buffer resource has ADD_TID_ENABLE set and swizzling off, so lane `l` of a
//! wave addresses `base + wave_offset + offset + l * stride` with `stride` = the kernel's
//! private segment size rounded up to 4 bytes; each wave owns `64 * stride` bytes. This is the
//! layout Mesa sets up for legacy objects (`si_shader_apply_scratch_relocs`: DWORD1 = base hi |
//! STRIDE(bytes per lane)); HSA kernels get the same words in their private segment buffer
//! SGPRs. Words 2-3 are what LLVM itself builds for legacy code (SIInstrInfo's
//! `getScratchRsrcWords23`, see [`scratch_rsrc`]): NUM_RECORDS = 0xffffffff, INDEX_STRIDE 64,
//! ADD_TID_ENABLE.
//!
//! GDS: a dispatch owns [`GDS_BYTES`] of guest memory, zero-filled before it starts and shared
//! by all its work-groups (hardware GDS survives between dispatches only if software saves it;
//! a fresh zeroed window per dispatch keeps runs reproducible). Its address goes to the lifter's
//! `gds` state cells, not to any SGPR: kernels address GDS through M0, never by pointer.

use thiserror::Error;

pub use crate::lift::state::GDS_BYTES;
use crate::lift::GcnLayout;
use crate::loader::{ArgKind, Kernel, RelocKind, ScratchRsrcWord, UserSgpr};
pub use wavejit_isa::ArgValue;
use wavejit_isa::{ArgBlock, Grid, RegSink, WaveCoord, WaveInit};

/// Lanes per wave on gfx6-gfx9.
pub const WAVE_SIZE: u32 = 64;
/// Bytes of `hsa_kernel_dispatch_packet_t`.
pub const DISPATCH_PACKET_BYTES: usize = 64;
/// Bytes of the legacy implicit kernarg header (ngroups, global size, local size; x, y, z).
pub const LEGACY_HEADER_BYTES: u32 = 36;

/// Guest addresses a wave's initial state refers to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaveAddresses {
    pub kernarg: u64,
    pub dispatch_packet: u64,
    /// The `hsa_queue_t`; 0 when there is none.
    pub queue: u64,
    pub dispatch_id: u64,
    /// Base of the dispatch's private segment (scratch) buffer.
    pub scratch_base: u64,
    /// Byte offset of this wave's scratch within it (see [`scratch_wave_offset`]).
    pub scratch_wave_offset: u32,
    /// The dispatch's GDS memory: [`GDS_BYTES`] bytes, zero-filled before the dispatch
    /// starts and shared by all its work-groups (0 when the launcher provides none; a GDS
    /// access then faults as an access outside guest memory).
    pub gds: u64,
}

/// The initial register state of one wave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveState {
    /// (SGPR index, value), ascending.
    pub sgprs: Vec<(u8, u32)>,
    /// (VGPR index, one value per lane): v0 = work-item id x, v1 = y, v2 = z as enabled by
    /// TIDIG_COMP_CNT. Inactive lanes hold 0.
    pub vgprs: Vec<(u8, Vec<u32>)>,
    /// One bit per active lane (work-items that exist).
    pub exec: u64,
    /// The value of the lifter's `gds` cells ([`crate::lift::GcnLayout::gds`]): the address
    /// of the dispatch's GDS memory.
    pub gds: u64,
}

impl WaveState {
    /// Writes the state into the lifter's registers ([`GcnLayout`]).
    pub fn apply(&self, g: &GcnLayout, regs: &mut dyn RegSink) {
        for &(s, v) in &self.sgprs {
            regs.set_uniform(g.sgpr(u32::from(s)), v);
        }
        for (r, lanes) in &self.vgprs {
            regs.set_row(g.vgpr(u32::from(*r)), lanes);
        }
        regs.set_uniform64(g.exec(), self.exec);
        regs.set_uniform64(g.gds(), self.gds);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LaunchError {
    #[error("invalid launch: {0}")]
    InvalidLaunch(String),
    #[error("kernel {kernel} requires work-group size {required:?}, got {got:?}")]
    WorkgroupSizeMismatch {
        kernel: String,
        required: [u32; 3],
        got: [u32; 3],
    },
    #[error("kernel {kernel} takes {expected} arguments, got {got}")]
    ArgCount {
        kernel: String,
        expected: usize,
        got: usize,
    },
    #[error("kernel {kernel}: argument {index} is {expected} bytes, the value given is {got}")]
    ArgSize {
        kernel: String,
        index: usize,
        expected: u32,
        got: usize,
    },
    #[error("kernel {kernel}: argument {index} needs a pointer")]
    ArgKind { kernel: String, index: usize },
}

/// Checks a launch over `grid` against the kernel's required work-group size.
pub fn validate(kernel: &Kernel, grid: &Grid) -> Result<(), LaunchError> {
    if let Some(required) = kernel.reqd_workgroup_size {
        if required != grid.local {
            return Err(LaunchError::WorkgroupSizeMismatch {
                kernel: kernel.name.clone(),
                required,
                got: grid.local,
            });
        }
    }
    Ok(())
}

/// Scratch bytes each lane addresses: the private segment size rounded up to a dword.
pub fn scratch_lane_stride(kernel: &Kernel) -> u32 {
    kernel.private_segment_size.next_multiple_of(4)
}

/// Byte offset of the scratch of the wave with dispatch-wide index `wave_index`
/// ([`WaveCoord::dispatch_wave`]).
pub fn scratch_wave_offset(kernel: &Kernel, wave_index: u64) -> u64 {
    wave_index * u64::from(WAVE_SIZE) * u64::from(scratch_lane_stride(kernel))
}

/// The four dwords of the scratch buffer resource (V#) for generation `gfx` (6-9).
pub fn scratch_rsrc(gfx: u8, base: u64, lane_stride: u32) -> [u32; 4] {
    // word1: BASE_ADDRESS_HI [15:0], STRIDE [29:16], CACHE_SWIZZLE [30] = 0, SWIZZLE_EN [31] = 0.
    let word1 = ((base >> 32) as u32 & 0xffff) | ((lane_stride & 0x3fff) << 16);
    // word3 as LLVM builds it for legacy code (SIInstrInfo::getScratchRsrcWords23; observed in
    // llc-14 output: 0xe8f000 on gfx6/7, 0xe80000 on gfx8, 0xe00000 on gfx9): INDEX_STRIDE
    // [22:21] = 3 (64 lanes) and ADD_TID_ENABLE [23] everywhere; ELEMENT_SIZE [20:19] = 1
    // (4 bytes) before gfx9; DATA_FORMAT/NUM_FORMAT bits 0xf000 only on gfx6/7, because gfx8+
    // read them as stride bits under ADD_TID_ENABLE.
    let word3 = (3 << 21)
        | (1 << 23)
        | if gfx <= 8 { 1 << 19 } else { 0 }
        | if gfx <= 7 { 0xf000 } else { 0 };
    [base as u32, word1, u32::MAX, word3]
}

/// The 32-bit value a legacy scratch relocation stores, given the resource words.
pub fn scratch_reloc_value(
    word: ScratchRsrcWord,
    kind: RelocKind,
    addend: i64,
    rsrc: [u32; 4],
) -> u32 {
    let s = match word {
        ScratchRsrcWord::Dword0 => rsrc[0],
        ScratchRsrcWord::Dword1 => rsrc[1],
    };
    let value = i64::from(s).wrapping_add(addend) as u64;
    match kind {
        RelocKind::Abs32Lo | RelocKind::Abs32 => value as u32,
        RelocKind::Abs32Hi => (value >> 32) as u32,
    }
}

/// The kernel's code with its scratch relocations applied (a copy; HSA code is unchanged).
pub fn relocated_code(kernel: &Kernel, rsrc: [u32; 4]) -> Vec<u8> {
    let mut code = kernel.code.clone();
    for r in &kernel.scratch_relocs {
        let v = scratch_reloc_value(r.word, r.kind, r.addend, rsrc);
        let at = r.code_offset as usize;
        // The loader guarantees code_offset + 4 <= code.len().
        code[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
    code
}

fn push64(put: &mut impl FnMut(u8, u32), first: u8, v: u64) {
    put(first, v as u32);
    put(first + 1, (v >> 32) as u32);
}

/// The SGPRs `wave` starts with (user SGPRs, then the enabled system SGPRs), each given to
/// `put` once, in no particular order. The caller has checked the wave (see [`wave_state`]).
fn write_sgprs(
    kernel: &Kernel,
    addrs: &WaveAddresses,
    gfx: u8,
    wave: &WaveCoord,
    put: &mut impl FnMut(u8, u32),
) {
    write_user_sgprs(kernel, addrs, gfx, put);
    write_system_sgprs(kernel, addrs.scratch_wave_offset, wave, put);
}

/// The user SGPRs: the same for every wave of a dispatch.
fn write_user_sgprs(
    kernel: &Kernel,
    addrs: &WaveAddresses,
    gfx: u8,
    put: &mut impl FnMut(u8, u32),
) {
    for slot in &kernel.user_sgprs {
        let s = slot.first;
        match slot.kind {
            UserSgpr::PrivateSegmentBuffer => {
                let rsrc = scratch_rsrc(gfx, addrs.scratch_base, scratch_lane_stride(kernel));
                for (i, w) in rsrc.into_iter().enumerate() {
                    put(s + i as u8, w);
                }
            }
            UserSgpr::DispatchPtr => push64(put, s, addrs.dispatch_packet),
            UserSgpr::QueuePtr => push64(put, s, addrs.queue),
            UserSgpr::KernargSegmentPtr => push64(put, s, addrs.kernarg),
            UserSgpr::DispatchId => push64(put, s, addrs.dispatch_id),
            UserSgpr::FlatScratchInit => {
                // gfx9: the 64-bit scratch base, the code adds the wave offset. gfx7/8: the
                // offset of the scratch from the flat scratch aperture (taken to start at 0 in
                // this emulator) and the per-lane size, which the code moves to FLAT_SCRATCH.
                if gfx >= 9 {
                    push64(put, s, addrs.scratch_base);
                } else {
                    put(s, addrs.scratch_base as u32);
                    put(s + 1, kernel.private_segment_size);
                }
            }
            UserSgpr::PrivateSegmentSize => put(s, kernel.private_segment_size),
        }
    }
}

/// The enabled system SGPRs, after the user ones: `wave`'s own.
fn write_system_sgprs(
    kernel: &Kernel,
    scratch_wave_offset: u32,
    wave: &WaveCoord,
    put: &mut impl FnMut(u8, u32),
) {
    let mut next = kernel.user_sgpr_count;
    for (&enabled, &id) in kernel.system_sgprs.workgroup_id.iter().zip(&wave.group) {
        if enabled {
            put(next, id);
            next += 1;
        }
    }
    if kernel.system_sgprs.workgroup_info {
        // {first_wave[31], ordered_append_term[16:6] = 0, threadgroup_size_in_waves[5:0]}
        // (AMDGPUUsage, "Initial Kernel Execution State").
        let first_wave = wave.wave == 0;
        put(
            next,
            (wave.waves_in_group & 0x3f) | (u32::from(first_wave) << 31),
        );
        next += 1;
    }
    if kernel.system_sgprs.private_segment_wave_offset {
        put(next, scratch_wave_offset);
    }
}

/// Checks that `wave` is a wave of a launch of `kernel` this module can start.
fn check_wave(kernel: &Kernel, wave: &WaveCoord) -> Result<(), LaunchError> {
    if wave.local != kernel.reqd_workgroup_size.unwrap_or(wave.local) {
        return Err(LaunchError::WorkgroupSizeMismatch {
            kernel: kernel.name.clone(),
            required: kernel.reqd_workgroup_size.unwrap_or(wave.local),
            got: wave.local,
        });
    }
    if wave.wave_size != WAVE_SIZE {
        return Err(LaunchError::InvalidLaunch(format!(
            "waves of {} lanes (gfx6-gfx9 run {WAVE_SIZE})",
            wave.wave_size
        )));
    }
    let group = wave.group;
    if (0..3).any(|d| group[d] >= wave.groups[d]) {
        return Err(LaunchError::InvalidLaunch(format!(
            "work-group {group:?} is outside the grid of {:?} groups",
            wave.groups
        )));
    }
    let waves = wave.waves_in_group;
    if wave.wave >= waves {
        return Err(LaunchError::InvalidLaunch(format!(
            "wave {} of a work-group of {waves} waves",
            wave.wave
        )));
    }
    Ok(())
}

/// The initial state of `wave`.
pub fn wave_state(
    kernel: &Kernel,
    addrs: &WaveAddresses,
    gfx: u8,
    wave: &WaveCoord,
) -> Result<WaveState, LaunchError> {
    check_wave(kernel, wave)?;
    let mut sgprs = Vec::new();
    write_sgprs(kernel, addrs, gfx, wave, &mut |i, v| sgprs.push((i, v)));
    sgprs.sort_by_key(|&(i, _)| i);

    let mut ids = [
        vec![0u32; WAVE_SIZE as usize],
        vec![0u32; WAVE_SIZE as usize],
        vec![0u32; WAVE_SIZE as usize],
    ];
    let [x, y, z] = &mut ids;
    wave.fill_local_ids(x, y, z);
    let exec = wave.exec_mask();
    let vgprs = ids
        .into_iter()
        .take(usize::from(kernel.tidig_comp_cnt) + 1)
        .enumerate()
        .map(|(i, v)| (i as u8, v))
        .collect();
    Ok(WaveState {
        sgprs,
        vgprs,
        exec,
        gds: addrs.gds,
    })
}

/// The bytes to allocate for a kernarg segment built by [`build_kernarg`]: the segment plus
/// zero slack. Scalar loads fetch up to 16 dwords at once, so LLVM may read past the last
/// argument (a fixture loads a dwordx4 at byte 24 of a 36-byte segment); HSA runtimes allocate
/// the segment with slack for this, and so must a launcher.
pub fn padded_kernarg(mut segment: Vec<u8>) -> Vec<u8> {
    segment.resize(segment.len().next_multiple_of(64) + 64, 0);
    segment
}

/// The kernarg segment for `args` (explicit arguments, in parameter order).
///
/// HSA: each explicit argument at its metadata offset, hidden arguments zero (there is no
/// global offset), total `kernarg_size` bytes. Legacy: the 36-byte header (ngroups, global
/// size, local size) then the arguments at `36 + natural offset` (notes §3.2).
pub fn build_kernarg(
    kernel: &Kernel,
    grid: &Grid,
    args: &[ArgValue],
) -> Result<Vec<u8>, LaunchError> {
    if kernel.implicit_kernarg_bytes != 0 {
        let mut out = ArgBlock::new();
        out.put_u32s(0, &[grid.groups(), grid.global, grid.local].concat());
        out.reserve_to(LEGACY_HEADER_BYTES as usize);
        out.put_natural(LEGACY_HEADER_BYTES, args);
        return Ok(out.finish(1));
    }
    let explicit: Vec<_> = kernel
        .args
        .iter()
        .filter(|a| {
            matches!(
                a.kind,
                ArgKind::GlobalBuffer | ArgKind::ByValue | ArgKind::DynamicSharedPointer
            )
        })
        .collect();
    if explicit.len() != args.len() {
        return Err(LaunchError::ArgCount {
            kernel: kernel.name.clone(),
            expected: explicit.len(),
            got: args.len(),
        });
    }
    let end = kernel
        .args
        .iter()
        .map(|a| a.offset as usize + a.size as usize)
        .max()
        .unwrap_or(0);
    let mut out = vec![0u8; end.max(kernel.kernarg_size as usize)];
    for (index, (meta, value)) in explicit.iter().zip(args).enumerate() {
        if meta.kind == ArgKind::GlobalBuffer && !matches!(value, ArgValue::Pointer(_)) {
            return Err(LaunchError::ArgKind {
                kernel: kernel.name.clone(),
                index,
            });
        }
        let bytes = value.bytes();
        if bytes.len() != meta.size as usize {
            return Err(LaunchError::ArgSize {
                kernel: kernel.name.clone(),
                index,
                expected: meta.size,
                got: bytes.len(),
            });
        }
        out[meta.offset as usize..][..bytes.len()].copy_from_slice(&bytes);
    }
    Ok(out)
}

/// An `hsa_kernel_dispatch_packet_t` for the dispatch.
pub fn dispatch_packet(
    kernel: &Kernel,
    dispatch: &Grid,
    kernel_object: u64,
    kernarg: u64,
) -> [u8; DISPATCH_PACKET_BYTES] {
    let mut p = [0u8; DISPATCH_PACKET_BYTES];
    // header: type KERNEL_DISPATCH (2), acquire and release fences at system scope (2).
    let header: u16 = 2 | (2 << 9) | (2 << 11);
    let dims: u16 = if dispatch.global[2] > 1 || dispatch.local[2] > 1 {
        3
    } else if dispatch.global[1] > 1 || dispatch.local[1] > 1 {
        2
    } else {
        1
    };
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[2..4].copy_from_slice(&dims.to_le_bytes());
    for d in 0..3 {
        // A checked grid's local size is at most 1024, so it fits in a u16.
        p[4 + 2 * d..6 + 2 * d]
            .copy_from_slice(&(dispatch.local[d].min(0xffff) as u16).to_le_bytes());
        p[12 + 4 * d..16 + 4 * d].copy_from_slice(&dispatch.global[d].to_le_bytes());
    }
    p[24..28].copy_from_slice(&kernel.private_segment_size.to_le_bytes());
    p[28..32].copy_from_slice(&kernel.lds_size.to_le_bytes());
    p[32..40].copy_from_slice(&kernel_object.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

/// The GCN launch ABI of one dispatch, as the dispatcher calls it: [`wave_state`] of every
/// wave, each with its own scratch offset ([`scratch_wave_offset`] of its dispatch-wide
/// index), written into the lifter's registers.
pub struct GcnWaveInit {
    kernel: Kernel,
    layout: GcnLayout,
    /// The addresses every wave shares (`scratch_wave_offset` is set per wave).
    addrs: WaveAddresses,
    /// The user SGPRs from s0 ([`write_user_sgprs`], computed once: they are every wave's),
    /// zeros where the kernel has none, and those past the first 32.
    user: ([u32; 32], usize, Vec<(u8, u32)>),
}

impl GcnWaveInit {
    /// The launch of `kernel` on generation `gfx` (6-9) at `addrs`.
    pub fn new(kernel: Kernel, layout: GcnLayout, gfx: u8, addrs: WaveAddresses) -> Self {
        let (mut words, mut run, mut past) = ([0u32; 32], 0, Vec::new());
        write_user_sgprs(
            &kernel,
            &addrs,
            gfx,
            &mut |i, v| match words.get_mut(usize::from(i)) {
                Some(w) => {
                    *w = v;
                    run = run.max(usize::from(i) + 1);
                }
                None => past.push((i, v)),
            },
        );
        GcnWaveInit {
            kernel,
            layout,
            addrs,
            user: (words, run, past),
        }
    }

    /// This launch with the user SGPRs `values` ((SGPR, value) pairs) set as given, over what
    /// the kernel's [`UserSgpr`] slots put there: drivers with their own user-data layouts
    /// (the user elements of AMD's OpenCL runtime) start waves this way. The system SGPRs
    /// still follow from [`Kernel::user_sgpr_count`] on.
    pub fn with_user_sgprs(mut self, values: &[(u8, u32)]) -> Self {
        let (words, run, past) = &mut self.user;
        for &(i, v) in values {
            match words.get_mut(usize::from(i)) {
                Some(w) => {
                    *w = v;
                    *run = (*run).max(usize::from(i) + 1);
                }
                None => past.push((i, v)),
            }
        }
        self
    }
}

impl WaveInit for GcnWaveInit {
    /// What [`wave_state`] and [`WaveState::apply`] write, without building the state: this
    /// runs once per wave of every dispatch.
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String> {
        check_wave(&self.kernel, wave).map_err(|e| e.to_string())?;
        let g = &self.layout;
        let scratch_offset = scratch_wave_offset(&self.kernel, wave.dispatch_wave()) as u32;
        // The SGPRs the launch sets are one run from s0 (user SGPRs, then system ones): one
        // copy, not a call per register (which was most of an empty kernel's wave).
        let (user, user_run, past) = &self.user;
        let mut sgprs = *user;
        let mut run = *user_run;
        for &(i, v) in past {
            regs.set_uniform(g.sgpr(u32::from(i)), v);
        }
        write_system_sgprs(&self.kernel, scratch_offset, wave, &mut |i, v| match sgprs
            .get_mut(usize::from(i))
        {
            Some(slot) => {
                *slot = v;
                run = run.max(usize::from(i) + 1);
            }
            None => regs.set_uniform(g.sgpr(u32::from(i)), v),
        });
        regs.set_uniforms(g.sgpr(0), &sgprs[..run]);
        let rows = usize::from(self.kernel.tidig_comp_cnt) + 1;
        if (0..rows as u32).any(|r| regs.observes_row(g.vgpr(r))) {
            let mut ids = [[0u32; WAVE_SIZE as usize]; 3];
            let [x, y, z] = &mut ids;
            wave.fill_local_ids(x, y, z);
            for (r, row) in ids.iter().take(rows).enumerate() {
                regs.set_row(g.vgpr(r as u32), row);
            }
        }
        regs.set_uniform64(g.exec(), wave.exec_mask());
        regs.set_uniform64(g.gds(), self.addrs.gds);
        Ok(())
    }
}
