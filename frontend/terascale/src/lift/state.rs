//! The TeraScale guest state as a [`StateLayout`], and the launch contract: which cells a
//! launcher fills before the first block runs.
//!
//! | file | kind | cells | contents |
//! |---|---|---|---|
//! | `r` | lane | 512 | GPRs R0-R127, four channels each: cell `4 * n + chan` (x = 0 .. w = 3) |
//! | `active` | uniform | 2 | the active mask (lo, hi): lanes that run; at launch the lanes holding work-items |
//! | `pool` | uniform | 2 | guest address the 32-bit global offsets count from (lo, hi) |
//! | `cb` | uniform | 32 | guest address of constant buffer `i` in cells `2i`, `2i + 1` (lo, hi) |
//! | `cf` | uniform | 40 | control-flow state, written by the lifter only: the cells named by [`Cf`] |
//! | `stack` | uniform | 2176 | the branch/loop/call stack: [`STACK_FRAMES`] frames of [`FRAME_CELLS`] cells ([`Frame`]) |
//! | `pv` | lane | 5 | PV.x-w and PS: the previous ALU group's results |
//! | `ar` | lane | 1 | the address register AR.x (MOVA*) |
//! | `oq` | lane | 32 | the LDS output queue: a ring of [`OQ_ENTRIES`] entries, A dword in cell `2i`, B in `2i + 1` (see `lds`) |
//! | `tex` | uniform | 4 | guest addresses of the texture resource table (cells 0, 1) and the sampler table (cells 2, 3); 0 = none bound (see `tex`) |
//! | `grad` | lane | 6 | the gradients SET_GRADIENTS_H (cells 0-2: x, y, z) and SET_GRADIENTS_V (cells 3-5) stored for SAMPLE_G* (see `tex`); 0 at launch |
//! | `gds` | uniform | 2 | guest address of the dispatch's [`GDS_BYTES`] of GDS memory (lo, hi); 0 = none (see `gds`) |
//! | `flags` | lane | 1 | the float exception flags (4.13.2), six bits; written only by clauses that read them (see `flags`) |
//! | `texoff` | lane | 3 | the texel offsets x, y, z (integers) SET_TEXTURE_OFFSETS stores for GATHER4_O/GATHER4_C_O (see `tex`); 0 at launch |
//!
//! Launch contract: before block 0 runs, the launcher stores T0.xyz (local ids) and T1.xyz
//! (group ids) per lane (`notes/amd_launch_abi.md` §2.3, [`crate::launch::wave_state`]), the
//! active mask, the pool base and the address of every constant buffer the kernel reads
//! (constant buffer 0 holds the header and the arguments, [`crate::launch::constant_buffer0`]).
//! The lifter's prologue initialises `cf` (valid mask = the launch's active mask, empty stack,
//! no loop, CF_IDX0/1 and CLAUSE_GLOBAL 0) and `ar`/`pv` need nothing: reading them before a write is undefined on hardware.
//! Pointer arguments are byte offsets from the pool base; vertex-fetch buffer 1 and RAT 0
//! address the pool, fetch buffer 3 constant buffer 0. TEX instructions read their resource and
//! sampler words from the tables `tex` names (layout in `tex`); a launcher that binds no
//! textures leaves both 0, and a TEX instruction then ends the wave with a guest trap.
//! MEM_GDS instructions act on the [`GDS_BYTES`] at the `gds` address, which the launcher
//! allocates zero-filled once per dispatch and shares between all its work-groups; a launcher
//! that provides none leaves it 0, and a MEM_GDS instruction then traps.
pub use super::lds::OQ_ENTRIES;
use wavejit_ir::{FileId, FileKind, Reg, StateLayout};

/// Bytes of GDS a dispatch owns: the whole 64 KB global data share (2.6, Table 2.9), zero
/// at dispatch start (a launch input, like GCN's GDS in wavejit).
pub const GDS_BYTES: u32 = 64 << 10;

/// GPRs per lane.
pub const GPRS: u32 = 128;
/// Constant buffers a kernel can address (kcache banks and fetch buffer ids name 0-15).
pub const CONST_BUFFERS: u32 = 16;

/// Stack frames the `stack` file holds: a frame takes at least one of the
/// [`STACK_SUBENTRIES`] subentries, so this many frames always fit.
pub const STACK_FRAMES: u32 = 128;
/// Cells per stack frame (see [`Frame`]).
pub const FRAME_CELLS: u32 = 17;
/// Stack capacity in subentries: 32 entries of 4 subentries (3.6.5, Table 3.5: 64-wide
/// processors have 4 subentries per entry). 32 is the call-depth limit of 3.7.6 and covers
/// every `STACK_SIZE` LLVM computes for the fixture kernels; [`super::LiftConfig`] carries no
/// STACK_SIZE, so the lifter enforces this fixed capacity.
pub const STACK_SUBENTRIES: u32 = 128;

/// Cells of the `cf` file. Masks are 64-bit pairs (lo cell, hi cell next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Cf {
    /// The valid mask (3.6.1): lanes not killed. Compute: the launch's active mask.
    Valid = 0,
    /// The innermost loop's inactive-break lanes.
    Break = 2,
    /// The innermost loop's inactive-continue lanes.
    Continue = 4,
    /// The lanes that started the current iteration of the innermost loop.
    Iter = 6,
    /// The loop index aL (uniform; 4.6.1 INDEX_LOOP).
    LoopIndex = 8,
    /// Iterations left of a DX9 loop (LOOP_START/LOOP_START_NO_AL).
    LoopCount = 9,
    /// Loop kind: 0 none, 1 DX9 (LOOP_START), 2 DX10, 3 repeat (LOOP_START_NO_AL).
    LoopKind = 10,
    /// The stack depth (frames) just above the innermost loop's frame.
    LoopSp = 11,
    /// Frames on the stack.
    Sp = 12,
    /// Subentries in use (Table 3.6: PUSH and CALL 1, LOOP_START* 4).
    Sub = 13,
    /// Subroutine nesting depth (3.7.6).
    CallDepth = 14,
    /// The predicate bits of the running ALU clause (4.10), a 64-bit lane mask.
    Pred = 16,
    /// The exec-mask result of the clause's UPDATE_EXEC_MASK PRED_SET, applied at clause end.
    ExecUpdate = 18,
    /// Whether `ExecUpdate` was written in this clause (0/1).
    ExecUpdated = 20,
    /// Lanes an UPDATE_EXEC_MASK op sends to inactive-break / inactive-continue (Cayman
    /// EXECUTE_MASK_OP 1/2) during the clause.
    ExecBreak = 22,
    ExecContinue = 24,
    /// The CF index registers CF_IDX0 and CF_IDX1 (per wave; see `index`).
    Idx0 = 26,
    Idx1 = 27,
    /// Cayman's CLAUSE_GLOBAL register (per wave; see `index`).
    ClauseGlobal = 28,
    /// The constant buffer kcache set 0 locked at the start of the running ALU clause, bank
    /// index mode applied; sets 1-3 follow ([`TsLayout::kcache_bank`]).
    KcacheBank0 = 29,
}

/// Cells of a stack frame, from the frame's first cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Frame {
    /// The active mask when the frame was pushed (pair).
    Mask = 0,
    /// Loop frames: the enclosing loop's Break, Continue, Iter masks (pairs).
    Break = 2,
    Continue = 4,
    Iter = 6,
    /// Loop frames: the enclosing loop's index, count, kind and LoopSp.
    LoopIndex = 8,
    LoopCount = 9,
    LoopKind = 10,
    LoopSp = 11,
    /// Call frames: the guest address of the CF instruction to return to (pair; the kernel
    /// or its fetch subroutine), and the call depth before the call.
    Return = 12,
    CallDepth = 14,
    /// Subentries in use before this frame was pushed.
    SubBefore = 15,
    /// 0 PUSH, 1 loop, 2 call.
    Kind = 16,
}

/// The TeraScale register files (see the module doc).
#[derive(Clone, Debug)]
pub struct TsLayout {
    pub layout: StateLayout,
    pub r: FileId,
    pub active: FileId,
    pub pool: FileId,
    pub cb: FileId,
    pub cf: FileId,
    pub stack: FileId,
    pub pv: FileId,
    pub ar: FileId,
    pub oq: FileId,
    pub tex: FileId,
    pub grad: FileId,
    pub gds: FileId,
    pub flags: FileId,
    pub texoff: FileId,
}

impl TsLayout {
    /// The layout for a wave of `wave_size` lanes (64, or 32 on cedar).
    pub fn new(wave_size: u32) -> TsLayout {
        let mut layout = StateLayout::new(wave_size);
        let active = layout.add_file("active", FileKind::Uniform, 2);
        let pool = layout.add_file("pool", FileKind::Uniform, 2);
        let cb = layout.add_file("cb", FileKind::Uniform, 2 * CONST_BUFFERS);
        let r = layout.add_file("r", FileKind::Lane, 4 * GPRS);
        let cf = layout.add_file("cf", FileKind::Uniform, 40);
        let stack = layout.add_file("stack", FileKind::Uniform, STACK_FRAMES * FRAME_CELLS);
        // A frame is read only by the pop of its own push: pops of an empty stack trap
        // (`stack`), so a wave never sees another wave's frames.
        layout.set_written_first(stack);
        let pv = layout.add_file("pv", FileKind::Lane, 5);
        let ar = layout.add_file("ar", FileKind::Lane, 1);
        let oq = layout.add_file("oq", FileKind::Lane, 2 * OQ_ENTRIES);
        let tex = layout.add_file("tex", FileKind::Uniform, 4);
        let grad = layout.add_file("grad", FileKind::Lane, 6);
        let gds = layout.add_file("gds", FileKind::Uniform, 2);
        let flags = layout.add_file("flags", FileKind::Lane, 1);
        let texoff = layout.add_file("texoff", FileKind::Lane, 3);
        TsLayout {
            layout,
            r,
            active,
            pool,
            cb,
            cf,
            stack,
            pv,
            ar,
            oq,
            tex,
            grad,
            gds,
            flags,
            texoff,
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

    /// A cell of the control-flow state.
    pub fn cf(&self, c: Cf) -> Reg {
        Reg::new(self.cf, c as u32)
    }

    /// The constant buffer number kcache set `set` (0-3) locked for the running clause.
    pub fn kcache_bank(&self, set: u32) -> Reg {
        Reg::new(self.cf, Cf::KcacheBank0 as u32 + set)
    }

    /// PV.x..w (slot 0-3) or PS (slot 4).
    pub fn pv(&self, slot: u32) -> Reg {
        Reg::new(self.pv, slot)
    }

    /// Ring entry `i` of the LDS output queue: its A dword, or its B dword if `b`.
    pub fn oq(&self, i: u32, b: bool) -> Reg {
        Reg::new(self.oq, 2 * i + u32::from(b))
    }

    /// AR.x.
    pub fn ar(&self) -> Reg {
        Reg::new(self.ar, 0)
    }

    /// The guest address of the texture resource table as a 64-bit pair (0 = none bound).
    pub fn tex_resources(&self) -> Reg {
        Reg::new(self.tex, 0)
    }

    /// The guest address of the sampler table as a 64-bit pair (0 = none bound).
    pub fn tex_samplers(&self) -> Reg {
        Reg::new(self.tex, 2)
    }

    /// Component `c` (0-2: x, y, z) of the stored horizontal (`v` false) or vertical gradient.
    pub fn grad(&self, v: bool, c: u32) -> Reg {
        Reg::new(self.grad, 3 * u32::from(v) + c)
    }

    /// The guest address of the dispatch's GDS memory as a 64-bit pair (0 = none).
    pub fn gds(&self) -> Reg {
        Reg::new(self.gds, 0)
    }

    /// The float exception flags.
    pub fn flags(&self) -> Reg {
        Reg::new(self.flags, 0)
    }

    /// Component `c` (0-2: x, y, z) of the texel offsets SET_TEXTURE_OFFSETS stored.
    pub fn tex_offset(&self, c: u32) -> Reg {
        Reg::new(self.texoff, c)
    }
}
