//! The TeraScale guest state as a [`StateLayout`], and the launch contract: which cells a
//! launcher fills before the first block runs.
//!
//! | file | kind | cells | contents |
//! |---|---|---|---|
//! | `r` | lane | 512 | GPRs R0-R127, four channels each: cell `4 * n + chan` (x = 0 .. w = 3) |
//! | `active` | uniform | 2 | the active mask (lo, hi): lanes that run; at launch the lanes holding work-items |
//! | `pool` | uniform | 2 | guest address the 32-bit global offsets count from (lo, hi) |
//! | `cb` | uniform | 32 | guest address of constant buffer `i` in cells `2i`, `2i + 1` (lo, hi) |
//!
//! Launch contract: before block 0 runs, the launcher stores T0.xyz (local ids) and T1.xyz
//! (group ids) per lane (`notes/amd_launch_abi.md` §2.3, [`crate::launch::wave_state`]), the
//! active mask, the pool base and the address of every constant buffer the kernel reads
//! (constant buffer 0 holds the header and the arguments, [`crate::launch::constant_buffer0`]).
//! Pointer arguments are byte offsets from the pool base; vertex-fetch buffer 1 and RAT 0
//! address the pool, fetch buffer 3 constant buffer 0.
use wavejit_ir::{FileId, FileKind, Reg, StateLayout};

/// GPRs per lane.
pub const GPRS: u32 = 128;
/// Constant buffers a kernel can address (kcache banks and fetch buffer ids name 0-15).
pub const CONST_BUFFERS: u32 = 16;

/// The TeraScale register files (see the module doc).
#[derive(Clone, Debug)]
pub struct TsLayout {
    pub layout: StateLayout,
    pub r: FileId,
    pub active: FileId,
    pub pool: FileId,
    pub cb: FileId,
}

impl TsLayout {
    /// The layout for a wave of `wave_size` lanes (64, or 32 on cedar).
    pub fn new(wave_size: u32) -> TsLayout {
        let mut layout = StateLayout::new(wave_size);
        let active = layout.add_file("active", FileKind::Uniform, 2);
        let pool = layout.add_file("pool", FileKind::Uniform, 2);
        let cb = layout.add_file("cb", FileKind::Uniform, 2 * CONST_BUFFERS);
        let r = layout.add_file("r", FileKind::Lane, 4 * GPRS);
        TsLayout {
            layout,
            r,
            active,
            pool,
            cb,
        }
    }

    /// Channel `chan` (0 = x .. 3 = w) of GPR `n`.
    pub fn gpr(&self, n: u32, chan: u32) -> Reg {
        Reg::new(self.r, 4 * n + chan)
    }

    /// The active mask as a 64-bit pair (lo cell; hi is `.offset(1)`).
    pub fn active(&self) -> Reg {
        Reg::new(self.active, 0)
    }

    /// The pool base address as a 64-bit pair.
    pub fn pool_base(&self) -> Reg {
        Reg::new(self.pool, 0)
    }

    /// The guest address of constant buffer `id` (0-15) as a 64-bit pair.
    pub fn const_buffer(&self, id: u32) -> Reg {
        Reg::new(self.cb, 2 * id)
    }
}
