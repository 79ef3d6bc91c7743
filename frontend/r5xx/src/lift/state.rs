//! The guest state of a lifted R5xx program as a [`StateLayout`] of 64-lane waves, and the
//! register names `wavejit wave` uses.
//!
//! A wave is a SIMD group of 64 processors: a 16×4 tile of index pairs (`super::launch`).
//! Per-processor state is a lane file; the group's state (the loop and address stacks, aL)
//! and the flow-control masks are uniform. A mask of lanes is a 64-bit value in two uniform
//! cells (lo, hi), bit l = lane l.
//!
//! | file | kind | cells | contents |
//! |---|---|---|---|
//! | `r` | lane | 4 per temp | temporary n, channel c (r, g, b, a = x, y, z, w) in cell `4n + c` |
//! | `out` | lane | 17 | output register of render target t (0-3 = A-D), channel c in `4t + c`; cell 16 = W (the conditional value) |
//! | `p` | lane | 4 | predicate bits r, g, b, a (0 or 1) |
//! | `alu` | lane | 1 | the ALU result bit (0 or 1) |
//! | `bcnt` | lane | 1 | the branch counter (meaningful while the processor is branch-inactive) |
//! | `mask` | uniform | 6 | lane masks: `ACTIVE` (flow control lets the processor write), `ALIVE` (the processor runs: its quad has a covered pair), `COVERED` (its pair is in the domain, passed the PE's test, and was not killed) |
//! | `loop` | uniform | 1 + 4 × 7 | the loop stack: its depth, then 4 frames, the top (innermost) first ([`frame`]) |
//! | `astack` | uniform | 1 + 4 | the address stack: its depth, then 4 return slots, the top first |
//! | `fc` | uniform | 2 | scratch of a flow-control instruction: the processors that want to jump (mask) |
//! | `tile` | uniform | 2 | the (i, j) of lane 0: lane l holds pair (i + l % 16, j + l / 16) |
//! | `mem` | uniform | 2 | the guest address of GPU address 0 (lo, hi) |
//!
//! The temp file holds 128 temporaries when any instruction addresses temporaries relative
//! to aL, else as many as the highest index any instruction names (at least r0): a program
//! cannot reach the others.
//!
//! Invariants the lift keeps: `ACTIVE` ⊆ `ALIVE` and `COVERED` ⊆ `ALIVE` (a lane outside
//! `ALIVE` is never activated); the loop frames below the depth are all zero (a pop shifts a
//! zero frame in), so the union of every frame's masks is the set of loop-inactive lanes.

use wavejit_ir::{FileId, FileKind, Reg, StateLayout};

/// Lanes of a wave: a 16×4 tile of index pairs.
pub const WAVE_SIZE: u32 = 64;
/// Entries of the loop stack and of the address stack (seed 003 §3.5.2, full mode).
pub const STACK_DEPTH: u32 = 4;
/// Temporaries a program can address (7-bit addresses).
pub const TEMPS: u32 = 128;
/// Output registers: 4 render targets of 4 channels, then W.
pub const OUT_CELLS: u32 = 17;
/// The cell of the W output (the conditional value) in `out`.
pub const OUT_W: u32 = 16;

/// The cells of `mask`: 64-bit lane masks, two cells each.
pub mod mask {
    pub const ACTIVE: u32 = 0;
    pub const ALIVE: u32 = 2;
    pub const COVERED: u32 = 4;
    pub const CELLS: u32 = 6;
}

/// A loop-stack frame's cells, as offsets in the frame (`loop` cell `1 + 7 * k + offset` for
/// frame k, 0 = the innermost loop).
pub mod frame {
    /// Iterations left (LOOP/REP set it to the integer constant's R; ENDLOOP/ENDREP count
    /// one down).
    pub const COUNT: u32 = 0;
    /// aL while this loop runs.
    pub const AL: u32 = 1;
    /// The aL increment (0 for REP).
    pub const STEP: u32 = 2;
    /// Lanes BREAKLOOP/BREAKREP disabled until the loop ends (mask, two cells).
    pub const BREAK: u32 = 3;
    /// Lanes CONTINUE disabled until the loop's ENDLOOP/ENDREP (mask, two cells).
    pub const CONTINUE: u32 = 5;
    pub const CELLS: u32 = 7;
}

/// The layout of one program's waves, with its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct R5xxLayout {
    pub layout: StateLayout,
    /// Temporaries in the `r` file.
    pub temps: u32,
    pub r: FileId,
    pub out: FileId,
    pub p: FileId,
    pub alu: FileId,
    pub bcnt: FileId,
    pub mask: FileId,
    pub loops: FileId,
    pub astack: FileId,
    pub fc: FileId,
    pub tile: FileId,
    pub mem: FileId,
}

const CHANNELS: [char; 4] = ['x', 'y', 'z', 'w'];

impl R5xxLayout {
    /// A layout with `temps` temporaries (1 to 128).
    pub fn new(temps: u32) -> R5xxLayout {
        let temps = temps.clamp(1, TEMPS);
        let mut l = StateLayout::new(WAVE_SIZE);
        let r = l.add_file("r", FileKind::Lane, 4 * temps);
        let out = l.add_file("out", FileKind::Lane, OUT_CELLS);
        let p = l.add_file("p", FileKind::Lane, 4);
        let alu = l.add_file("alu", FileKind::Lane, 1);
        let bcnt = l.add_file("bcnt", FileKind::Lane, 1);
        let mask = l.add_file("mask", FileKind::Uniform, mask::CELLS);
        let loops = l.add_file("loop", FileKind::Uniform, 1 + STACK_DEPTH * frame::CELLS);
        let astack = l.add_file("astack", FileKind::Uniform, 1 + STACK_DEPTH);
        let fc = l.add_file("fc", FileKind::Uniform, 2);
        // A flow-control instruction writes its scratch before reading it.
        l.set_written_first(fc);
        let tile = l.add_file("tile", FileKind::Uniform, 2);
        let mem = l.add_file("mem", FileKind::Uniform, 2);
        R5xxLayout {
            layout: l,
            temps,
            r,
            out,
            p,
            alu,
            bcnt,
            mask,
            loops,
            astack,
            fc,
            tile,
            mem,
        }
    }

    /// Channel `c` of temporary `n`.
    pub fn temp(&self, n: u32, c: u32) -> Reg {
        Reg::new(self.r, 4 * n + c)
    }

    /// Channel `c` of render target `t`'s output register.
    pub fn output(&self, t: u32, c: u32) -> Reg {
        Reg::new(self.out, 4 * t + c)
    }

    /// The W output.
    pub fn w(&self) -> Reg {
        Reg::new(self.out, OUT_W)
    }

    /// Predicate bit `c` (r, g, b, a).
    pub fn pred(&self, c: u32) -> Reg {
        Reg::new(self.p, c)
    }

    pub fn alu_result(&self) -> Reg {
        Reg::new(self.alu, 0)
    }

    pub fn branch_counter(&self) -> Reg {
        Reg::new(self.bcnt, 0)
    }

    /// A lane mask of [`mask`] (first of two cells).
    pub fn mask(&self, which: u32) -> Reg {
        Reg::new(self.mask, which)
    }

    /// The loop stack's depth (0-4).
    pub fn loop_depth(&self) -> Reg {
        Reg::new(self.loops, 0)
    }

    /// Cell `offset` of loop frame `k` (0 = innermost).
    pub fn loop_frame(&self, k: u32, offset: u32) -> Reg {
        Reg::new(self.loops, 1 + frame::CELLS * k + offset)
    }

    /// aL: the innermost frame's (0 outside every loop: the frames below the depth are 0).
    pub fn al(&self) -> Reg {
        self.loop_frame(0, frame::AL)
    }

    /// The address stack's depth (0-4).
    pub fn addr_depth(&self) -> Reg {
        Reg::new(self.astack, 0)
    }

    /// Address-stack entry `k` (0 = top).
    pub fn addr_entry(&self, k: u32) -> Reg {
        Reg::new(self.astack, 1 + k)
    }

    /// The flow-control scratch mask (two cells).
    pub fn fc_want(&self) -> Reg {
        Reg::new(self.fc, 0)
    }

    /// The i (cell 0) and j (cell 1) of lane 0.
    pub fn tile_origin(&self) -> Reg {
        Reg::new(self.tile, 0)
    }

    /// The guest address of GPU address 0 (two cells).
    pub fn mem_base(&self) -> Reg {
        Reg::new(self.mem, 0)
    }

    /// The registers `wavejit wave` names, in listing order: the temporaries `r0.x`..,
    /// the outputs `out0.x`..`out3.w` and `outw` (W), the predicate bits `p.x`..`p.w`, the
    /// ALU result `alu_result` and the branch counter `bcnt` (lane registers), and aL `aL`
    /// (uniform). The exec mask of a `wave` state is [`mask::ACTIVE`] ([`Self::exec`]).
    pub fn names(&self) -> Vec<(String, Reg, FileKind)> {
        let lane = FileKind::Lane;
        let mut v = Vec::new();
        for n in 0..self.temps {
            for (c, ch) in CHANNELS.iter().enumerate() {
                v.push((format!("r{n}.{ch}"), self.temp(n, c as u32), lane));
            }
        }
        for t in 0..4 {
            for (c, ch) in CHANNELS.iter().enumerate() {
                v.push((format!("out{t}.{ch}"), self.output(t, c as u32), lane));
            }
        }
        v.push(("outw".into(), self.w(), lane));
        for (c, ch) in CHANNELS.iter().enumerate() {
            v.push((format!("p.{ch}"), self.pred(c as u32), lane));
        }
        v.push(("alu_result".into(), self.alu_result(), lane));
        v.push(("bcnt".into(), self.branch_counter(), lane));
        v.push(("aL".into(), self.al(), FileKind::Uniform));
        v
    }

    /// The register `name` denotes ([`Self::names`]).
    pub fn lookup(&self, name: &str) -> Option<(Reg, FileKind)> {
        self.names()
            .into_iter()
            .find(|(n, ..)| n == name)
            .map(|(_, r, k)| (r, k))
    }

    /// The lanes of `wave` state's exec mask: [`mask::ACTIVE`] read from two cells.
    pub fn exec(&self, cell: impl Fn(Reg) -> u32) -> u64 {
        let r = self.mask(mask::ACTIVE);
        u64::from(cell(r)) | u64::from(cell(r.offset(1))) << 32
    }

    /// The cells a lone wave (`wavejit wave`) starts from for exec mask `lanes`: every lane of
    /// it active, alive and covered, the tile at (0, 0) (lane l is pair (l % 16, l / 16)).
    /// The memory base is [`Self::mem_base`], set by the caller.
    pub fn lone_wave(&self, lanes: u64) -> Vec<(Reg, u32)> {
        let mut v = Vec::new();
        for which in [mask::ACTIVE, mask::ALIVE, mask::COVERED] {
            let r = self.mask(which);
            v.push((r, lanes as u32));
            v.push((r.offset(1), (lanes >> 32) as u32));
        }
        v.push((self.tile_origin(), 0));
        v.push((self.tile_origin().offset(1), 0));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_find_their_registers() {
        let l = R5xxLayout::new(3);
        let names = l.names();
        assert_eq!(names.len(), 12 + 17 + 4 + 2 + 1);
        for (n, r, k) in &names {
            assert_eq!(l.lookup(n), Some((*r, *k)), "{n}");
            assert!(l.layout.contains(*r, 1), "{n}");
        }
        assert_eq!(l.lookup("r2.w"), Some((l.temp(2, 3), FileKind::Lane)));
        assert_eq!(l.lookup("r3.x"), None);
        assert_eq!(l.lookup("outw"), Some((l.w(), FileKind::Lane)));
    }

    #[test]
    fn temps_are_clamped_to_the_address_range() {
        assert_eq!(R5xxLayout::new(0).temps, 1);
        assert_eq!(R5xxLayout::new(500).temps, TEMPS);
    }
}
