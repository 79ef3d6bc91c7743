//! The GCN guest state as a [`StateLayout`]: which register files exist and where each
//! architectural register lives.
//!
//! One layout serves every generation (gfx6-gfx9); registers a generation lacks are simply
//! never addressed by code decoded for it. Files:
//!
//! | file | kind | cells | contents |
//! |---|---|---|---|
//! | `s` | uniform | 104 | SGPRs s0-s103 (gfx8/9 code addresses only s0-s101) |
//! | `v` | lane | 256 | VGPRs v0-v255 |
//! | `exec` | uniform | 2 | EXEC lo, hi |
//! | `vcc` | uniform | 2 | VCC lo, hi |
//! | `m0` | uniform | 1 | M0 |
//! | `scc` | uniform | 1 | SCC, always 0 or 1 |
//! | `flat_scratch` | uniform | 2 | FLAT_SCRATCH lo, hi (gfx7+) |
//! | `xnack_mask` | uniform | 2 | XNACK_MASK lo, hi (gfx8+) |
//! | `ttmp` | uniform | 16 | trap temporaries (12 before gfx9) |
//! | `tba`, `tma` | uniform | 2 each | trap base / memory addresses (gfx6-8) |
//! | `hwreg` | uniform | 16 | hardware registers by `s_getreg` id (1 = MODE, 3 = TRAPSTS, ...) |
//! | `clock` | uniform | 2 | the wave's deterministic clock: guest instructions retired (lo, hi) |
//! | `gds` | uniform | 2 | guest address of the dispatch's GDS memory, lo, hi (a launch input, not an architectural register) |
//!
//! VCCZ, EXECZ and the STATUS register are derived from VCC, EXEC and SCC when read, never
//! stored; the `hwreg` STATUS cell holds only the STATUS bits an instruction sets (INST_ATC,
//! by `s_rfe_restore_b64`). MODE holds the conditional-branch stack pointer CSP `[31:29]` and
//! VSKIP `[28]` as well (fork/join and `s_setvskip` keep them there, so `s_getreg` sees them).
//! A 64-bit register pair is two consecutive cells, low half first (the IR rule).
//!
//! The clock starts at 0 with the wave and only programs that read it (`s_memtime`,
//! `s_memrealtime`) advance it (see `smem.rs`).
//!
//! GDS (the global data share) is modelled as [`GDS_BYTES`] of guest memory per dispatch,
//! zero-filled at launch and shared by every work-group; the launcher allocates it and stores
//! its address in the `gds` cells before the first block runs (see `ds_gds.rs`).
use wavejit_ir::{FileId, FileKind, Reg, StateLayout};

/// Number of SGPR cells.
pub const SGPRS: u32 = 104;
/// Number of VGPR rows.
pub const VGPRS: u32 = 256;
/// Hardware register ids (`hwreg(...)` operand of s_getreg/s_setreg; CLRX GcnOperands.md).
pub const HW_REG_MODE: u32 = 1;
pub const HW_REG_STATUS: u32 = 2;
/// Cells of the `hwreg` file (ids 0-15).
pub const HWREGS: u32 = 16;
/// Bytes of GDS a dispatch owns: the whole 64 KiB GDS of a GCN chip (HD 6900 ISA §2.6.3 gives
/// the same 64 KiB for the generation before GCN; M0's 16-bit base and size fields address
/// no more).
pub const GDS_BYTES: u32 = 64 << 10;

/// The GCN state layout and the ids of its files.
#[derive(Clone, Debug)]
pub struct GcnLayout {
    pub layout: StateLayout,
    pub s: FileId,
    pub v: FileId,
    pub exec: FileId,
    pub vcc: FileId,
    pub m0: FileId,
    pub scc: FileId,
    pub flat_scratch: FileId,
    pub xnack_mask: FileId,
    pub ttmp: FileId,
    pub tba: FileId,
    pub tma: FileId,
    pub hwreg: FileId,
    pub gds: FileId,
    pub clock: FileId,
}

impl Default for GcnLayout {
    fn default() -> Self {
        GcnLayout::new()
    }
}

impl GcnLayout {
    /// The wave64 GCN layout.
    pub fn new() -> GcnLayout {
        let mut l = StateLayout::new(64);
        let s = l.add_file("s", FileKind::Uniform, SGPRS);
        let exec = l.add_file("exec", FileKind::Uniform, 2);
        let vcc = l.add_file("vcc", FileKind::Uniform, 2);
        let m0 = l.add_file("m0", FileKind::Uniform, 1);
        let scc = l.add_file("scc", FileKind::Uniform, 1);
        let flat_scratch = l.add_file("flat_scratch", FileKind::Uniform, 2);
        let xnack_mask = l.add_file("xnack_mask", FileKind::Uniform, 2);
        let ttmp = l.add_file("ttmp", FileKind::Uniform, 16);
        let tba = l.add_file("tba", FileKind::Uniform, 2);
        let tma = l.add_file("tma", FileKind::Uniform, 2);
        let hwreg = l.add_file("hwreg", FileKind::Uniform, HWREGS);
        let clock = l.add_file("clock", FileKind::Uniform, 2);
        let v = l.add_file("v", FileKind::Lane, VGPRS);
        let gds = l.add_file("gds", FileKind::Uniform, 2);
        GcnLayout {
            layout: l,
            s,
            v,
            exec,
            vcc,
            m0,
            scc,
            flat_scratch,
            xnack_mask,
            ttmp,
            tba,
            tma,
            hwreg,
            gds,
            clock,
        }
    }

    /// SGPR `n` (the first cell of a pair/quad starting there).
    pub fn sgpr(&self, n: u32) -> Reg {
        Reg::new(self.s, n)
    }
    /// VGPR `n`.
    pub fn vgpr(&self, n: u32) -> Reg {
        Reg::new(self.v, n)
    }
    /// EXEC as a 64-bit pair (lo cell; hi is `.offset(1)`).
    pub fn exec(&self) -> Reg {
        Reg::new(self.exec, 0)
    }
    pub fn vcc(&self) -> Reg {
        Reg::new(self.vcc, 0)
    }
    pub fn m0(&self) -> Reg {
        Reg::new(self.m0, 0)
    }
    pub fn scc(&self) -> Reg {
        Reg::new(self.scc, 0)
    }
    pub fn flat_scratch(&self) -> Reg {
        Reg::new(self.flat_scratch, 0)
    }
    /// The guest address of the dispatch's GDS memory (lo cell; hi is `.offset(1)`).
    pub fn gds(&self) -> Reg {
        Reg::new(self.gds, 0)
    }
    /// The wave clock as a 64-bit pair (lo cell; hi is `.offset(1)`).
    pub fn clock(&self) -> Reg {
        Reg::new(self.clock, 0)
    }
    /// Hardware register `id` (see [`HW_REG_MODE`]).
    pub fn hwreg(&self, id: u32) -> Reg {
        Reg::new(self.hwreg, id)
    }
}
