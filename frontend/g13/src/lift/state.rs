//! The G13 guest state as a [`StateLayout`]: where each architectural register lives.
//!
//! | file | kind | cells | contents |
//! |---|---|---|---|
//! | `r` | lane | 128 | GPRs r0-r127; `rNl`/`rNh` are the low/high 16 bits of cell N, a 64-bit pair is two cells, low first |
//! | `u` | uniform | 256 | uniform registers u0-u255 |
//! | `exec` | uniform | 2 | the SIMD-group's exec mask, bit i = thread i (the high cell stays 0) |
//! | `live` | uniform | 2 | lanes that hold a thread of the dispatch (a launch input) |
//! | `sr` | uniform | [`SR_CELLS`] | the launch's special-register values `get_sr` reads, and the threadgroup memory size ([`sr`]) |
//! | `tid` | lane | 3 | thread_position_in_threadgroup x, y, z (a launch input) |
//!
//! The exec mask is state of its own, not derived from r0l on every read: only the exec-stack
//! instructions recompute it (seed 004 lines 29-54; notes/g13_map.md §3), so a write of r0l
//! by `mov_imm` (how Mesa emits `break`) takes effect at the next `pop_exec`. They recompute
//! it within `live`, so lanes without a thread never become active. Both masks are kept as
//! 64-bit cell pairs, the form the IR's `mask_from_bits` reads.

use wavejit_ir::{FileId, FileKind, Reg, StateLayout};

/// Lanes of a SIMD-group.
pub const WAVE_SIZE: u32 = 32;
/// General registers.
pub const GPRS: u32 = 128;
/// Uniform registers.
pub const UNIFORMS: u32 = 256;

/// The cells of the `sr` file.
pub mod sr {
    /// threadgroup_position_in_grid x, y, z.
    pub const GROUP: u32 = 0;
    /// threads_per_threadgroup x, y, z (the launch's threadgroup size).
    pub const GROUP_SIZE: u32 = 3;
    /// dispatch_threads_per_threadgroup x, y, z (this threadgroup's extent, smaller at the
    /// grid's edge).
    pub const EXTENT: u32 = 6;
    /// simdgroup_index_in_threadgroup.
    pub const SIMDGROUP: u32 = 9;
    /// Bytes of threadgroup memory (accesses past them are guest faults).
    pub const THREADGROUP_BYTES: u32 = 10;
}
/// Cells of the `sr` file.
pub const SR_CELLS: u32 = 11;

/// The G13 state layout and the ids of its files.
#[derive(Clone, Debug, PartialEq)]
pub struct G13Layout {
    pub layout: StateLayout,
    pub r: FileId,
    pub u: FileId,
    pub exec: FileId,
    pub live: FileId,
    pub sr: FileId,
    pub tid: FileId,
}

impl Default for G13Layout {
    fn default() -> Self {
        G13Layout::new()
    }
}

impl G13Layout {
    pub fn new() -> G13Layout {
        let mut l = StateLayout::new(WAVE_SIZE);
        let u = l.add_file("u", FileKind::Uniform, UNIFORMS);
        let exec = l.add_file("exec", FileKind::Uniform, 2);
        let live = l.add_file("live", FileKind::Uniform, 2);
        let sr = l.add_file("sr", FileKind::Uniform, SR_CELLS);
        let r = l.add_file("r", FileKind::Lane, GPRS);
        let tid = l.add_file("tid", FileKind::Lane, 3);
        G13Layout {
            layout: l,
            r,
            u,
            exec,
            live,
            sr,
            tid,
        }
    }

    /// GPR `n` (the first cell of a pair starting there).
    pub fn gpr(&self, n: u32) -> Reg {
        Reg::new(self.r, n)
    }

    /// Uniform register `n`.
    pub fn uniform(&self, n: u32) -> Reg {
        Reg::new(self.u, n)
    }

    pub fn exec(&self) -> Reg {
        Reg::new(self.exec, 0)
    }

    pub fn live(&self) -> Reg {
        Reg::new(self.live, 0)
    }

    /// Cell `n` of the `sr` file ([`sr`]).
    pub fn sr(&self, n: u32) -> Reg {
        Reg::new(self.sr, n)
    }

    /// thread_position_in_threadgroup component `c`.
    pub fn tid(&self, c: u32) -> Reg {
        Reg::new(self.tid, c)
    }
}
