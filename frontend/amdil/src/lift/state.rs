//! The guest state of a lifted IL compute (or pixel-shader) program as a [`StateLayout`], and
//! the launch contract: which cells a launcher fills before the first block runs.
//!
//! IL registers are virtual (a program names as many temps as it likes), so the layout is the
//! program's own: [`IlLayout::new`] sizes the temp file and the indexed temp arrays from what
//! the program uses and declares, and the control-flow frames from its nesting depth. The same
//! program always gets the same layout.
//!
//! | file | kind | cells | contents |
//! |---|---|---|---|
//! | `r` | lane | 4 per temp | temp `r#`, component `c` (x = 0 .. w = 3) in cell `4 * # + c` |
//! | `x#` | lane | 4 per element | array `x#` (its `dcl_indexed_temp_array`): element `n` component `c` in cell `4n + c` |
//! | `exec` | uniform | 2 | the active mask (lo, hi): lanes that run the current instruction |
//! | `cf` | uniform | 5 per nesting level | the control-flow frames: two masks and a DX9 loop's count per level ([`frame`]) |
//! | `sel` | lane | 1 per nesting level | a `switch`'s selector, at its level |
//! | `calls` | uniform | 3 + 4 per call level | the subroutine return stack ([`calls`]) |
//! | `saved` | uniform | 5 per level per call level | `cf` cells a recursive call saves ([`IlLayout::saved`]) |
//! | `saved_sel` | lane | 1 per level per call level | `sel` cells a recursive call saves |
//! | `icb` | uniform | 1 per dword | the immediate constant buffer, when an index reads it |
//! | `cb` | uniform | 30 | guest address of constant buffer `i` (0-14) in cells `2i`, `2i + 1` (lo, hi) |
//! | `arena` | uniform | 2 | guest address of the global arena (lo, hi) |
//! | `grid` | uniform | 9 | the work-group: id, size and the number of groups ([`grid`]) |
//! | `tid` | lane | 3 | `vTidInGrp.xyz`: the lane's work-item id in its group |
//! | `view` | uniform | [`view::CELLS`] per view | where each bound resource lies in the arena, and its bounds ([`view`]); only when the program declares one |
//!
//! # Launch contract
//! Before block 0 runs, the launcher stores: `exec` = the lanes that hold a work-item (the lift
//! never activates a lane outside it); `tid` per lane; the nine `grid` cells; the address of
//! every constant buffer the program declares, each at least `16 * n` bytes for its
//! `dcl_cb cb#[n]`; the arena address (every raw UAV id and the arena UAV address the arena:
//! a raw UAV address is a byte offset from it). The LDS is the work-group's group-shared
//! memory (every LDS id addresses it from byte 0). `r` and `x#` start at 0 (reading a temp
//! before writing it is undefined in IL; the zero makes it reproducible). `cf` and `sel` need
//! nothing: the lift writes a frame when it enters the block that owns it, before any read.
//! Nor do `calls` (main's first block sets the depth to 0), `saved`, `saved_sel` and `icb`
//! (main's first block writes the program's immediate constant buffer there).
//!
//! ## Memory beyond the arena ([`IlLayout::bindings`], [`IlLayout::views`])
//! - The arena's address is a multiple of 4 (its atomics are dword atomics; AMD's runtime
//!   aligns arena objects to 256 bytes, L9903).
//! - **Views**: each typed UAV (`dcl_uav`), structured UAV (`dcl_struct_uav`), raw or
//!   structured SRV (`dcl_raw_srv`, `dcl_struct_srv`) and the GDS (`dcl_gds`,
//!   `dcl_struct_gds`) is a range of the arena, like every buffer of the OpenCL convention. Its
//!   [`view::CELLS`] cells start at [`IlLayout::views`]`[&View]`; the launcher stores, for
//!   every view the program declares ([`Bindings::views`]):
//!   - [`view::OFFSET`]: the byte offset of the resource's first byte from the arena address
//!     (a multiple of 4; the resource must lie inside the arena, else its accesses fault);
//!   - [`view::SIZE`]: a raw SRV's size in bytes; a structured UAV's or SRV's number of
//!     structures; a typed UAV's width (elements per row); unused for the GDS, whose size is
//!     the program's ([`Bindings::gds_bytes`]);
//!   - typed UAVs only: [`view::HEIGHT`] and [`view::DEPTH`] (rows and slices; the layers of a
//!     `1darray` are its rows, of a `2darray` its slices), [`view::ROW_PITCH`] and
//!     [`view::SLICE_PITCH`] in bytes, [`view::ELEMENT_BYTES`] (the size of one element of the
//!     format) and [`view::FORMAT`], the element format as a `wavejit_ir::format` code
//!     (data format, number format and swizzle: the binding's format decides the conversion,
//!     not the declaration's `fmtx`, see `lift/mem/typed.rs`).
//!
//!   Coordinate `i` of a typed address (x, y, z of the source) is checked against extent `i`
//!   (SIZE, HEIGHT, DEPTH) and scaled by pitch `i` (ELEMENT_BYTES, ROW_PITCH, SLICE_PITCH);
//!   a view uses as many as its dimension has (buffer and 1d: 1; 1darray and 2d: 2; 2darray
//!   and 3d: 3). Cells a view does not use are not read.
//! - **GDS**: [`Bindings::gds_bytes`] bytes at the GDS view's offset, zero-filled before the
//!   dispatch and shared by every work-group (every GDS id addresses it from byte 0).
//! - **Private memory** (`dcl_typeless_uav_id(n)_..._length(N)_access(private)`, AMD's
//!   compiler's scratch): each lane owns [`Bindings::private_lane_bytes`] (= N) bytes of the
//!   IR's private space, zero-filled; the runtime's `private_lane_bytes` must be at least that.
//! - **LDS**: [`Bindings::lds_bytes`] is the largest declared LDS (every id at byte 0); the
//!   launcher allocates at least that, plus what `local:N` arguments add.
//!
//! ## Pixel shaders (`il_ps`)
//! A pixel-shader program has the same layout and the same contract: the launch runs it over a
//! two-dimensional domain whose points are its work-items. A work-group is a tile of the
//! domain: `grid` holds the tile's id, the tile size and the number of tiles, `tid` the
//! point's place in its tile (x fastest), `exec` the lanes holding a point. No cell is added:
//! `vWinCoord0` is computed from these (`pixel`, `regs`): x, y = float(`GROUP_ID` *
//! `GROUP_SIZE` + `tid`) + 0.5 per component (seed 001 5.58, L2319; pixel centres at +0.5,
//! L4649), z = 0.0, w = 1.0 (the seed gives z and w no value in a domain: the lift's choice).
//! A tile's lanes share nothing observable (a pixel shader has no LDS, L3270, and no
//! `fence_threads`, L5271), so the tiling changes no result. The compute-only id registers are
//! refused in a pixel shader, not read from these cells.
//!
//! The other IL register types (vertex and pixel inputs and outputs, shared registers, ...)
//! are not state of a launch here; the lifter refuses the instructions that name them.
//! Constants a program defines itself (`def`, `defb`, `dcl_literal`, an immediate constant
//! buffer) are values of the lift; `g[]` is the arena's memory.

use std::collections::BTreeMap;
use wavejit_ir::{FileId, FileKind, Reg, StateLayout};

/// Lanes of a wave unless a launch says otherwise (every r600-family and GCN chip but
/// cedar's 32).
pub const WAVE_SIZE: u32 = 64;
/// Constant buffers `cb0`..`cb14` (`dcl_cb`, L4054: "the cb index m can be in the range of
/// 0-14").
pub const CONST_BUFFERS: u32 = 15;

/// The cells of the `grid` file.
pub mod grid {
    /// `vThreadGrpId` x, y, z: the work-group's id.
    pub const GROUP_ID: u32 = 0;
    /// The work-group size x, y, z (what `dcl_num_thread_per_group` declares or the launch
    /// chose).
    pub const GROUP_SIZE: u32 = 3;
    /// The number of work-groups x, y, z of the dispatch.
    pub const GROUPS: u32 = 6;
    /// Cells of the file.
    pub const CELLS: u32 = 9;
}

/// The cells of a control-flow frame at a nesting level, as offsets within the level's `cf`
/// cells: two masks (each a 64-bit pair, lo first) and a count.
pub mod frame {
    /// if: the lanes that take the `else`; whileloop: the lanes that left by `break`;
    /// switch: the lanes no `case` has taken yet.
    pub const A: u32 = 0;
    /// if: the lanes active at the end of the `then` part; whileloop: the lanes waiting at
    /// `continue`; switch: the lanes that left by `break`.
    pub const B: u32 = 2;
    /// DX9 `loop`: the iterations left (`LoopIterationCount`, L3662).
    pub const COUNT: u32 = 4;
    /// Cells per nesting level.
    pub const CELLS: u32 = 5;
}

/// The subroutine return stack (`call`, L3487): cell [`calls::DEPTH`] holds the number of
/// entries, entry `d` (0-31) starts at cell `ENTRY + STRIDE * d`.
pub mod calls {
    /// Entries on the stack: the call depth.
    pub const DEPTH: u32 = 0;
    /// The lanes of the call being made (a 64-bit pair), from the test to the jump.
    pub const CALLING: u32 = 1;
    /// The first entry's first cell.
    pub const ENTRY: u32 = 3;
    /// Within an entry: the return site (a 64-bit pair, the `guest_pc` of the block the
    /// return continues at).
    pub const RETURN: u32 = 0;
    /// Within an entry: the caller's exec mask (a 64-bit pair), restored by the return.
    pub const EXEC: u32 = 2;
    /// Cells per entry.
    pub const STRIDE: u32 = 4;
    /// "Subroutines can nest up to 32 levels deep" (L3487).
    pub const MAX_DEPTH: u32 = 32;
}

/// What a program needs beyond its temps, arrays and nesting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extra {
    /// The program calls subroutines: the `calls` file holds a return stack.
    pub calls: bool,
    /// Nesting levels a recursive call saves (`saved`, `saved_sel`), 0 without recursion.
    pub saved_levels: u32,
    /// Dwords of the immediate constant buffer kept in state (0 when no index reads it).
    pub icb: u32,
}

/// The cells of one view in the `view` file (see the module doc's "Memory beyond the arena"),
/// as offsets from its first cell.
pub mod view {
    /// Byte offset of the resource from the arena address.
    pub const OFFSET: u32 = 0;
    /// Raw SRV: bytes; structured UAV or SRV: structures; typed UAV: width in elements.
    pub const SIZE: u32 = 1;
    /// Typed UAV: rows (or the layers of a `1darray`).
    pub const HEIGHT: u32 = 2;
    /// Typed UAV: slices (or the layers of a `2darray`).
    pub const DEPTH: u32 = 3;
    /// Typed UAV: bytes from one row (or `1darray` layer) to the next.
    pub const ROW_PITCH: u32 = 4;
    /// Typed UAV: bytes from one slice (or `2darray` layer) to the next.
    pub const SLICE_PITCH: u32 = 5;
    /// Typed UAV: bytes of one element of its format.
    pub const ELEMENT_BYTES: u32 = 6;
    /// Typed UAV: the element format as a `wavejit_ir::format` code.
    pub const FORMAT: u32 = 7;
    /// Cells per view.
    pub const CELLS: u32 = 8;
}

/// A resource whose place and bounds the launch gives in the `view` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum View {
    /// A typed or structured UAV, by id.
    Uav(u32),
    /// A raw or structured SRV, by id.
    Srv(u32),
    /// The GDS (all its ids).
    Gds,
}

impl std::fmt::Display for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            View::Uav(id) => write!(f, "typed or structured UAV {id}"),
            View::Srv(id) => write!(f, "SRV {id}"),
            View::Gds => write!(f, "a GDS"),
        }
    }
}

/// What a program needs from the launch besides registers, the constant buffers and the arena
/// (the module doc's "Memory beyond the arena").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// The views to fill, in the `view` file's order.
    pub views: Vec<View>,
    /// Private bytes of each lane (0: the program has no private UAV).
    pub private_lane_bytes: u32,
    /// Bytes of GDS (0: none declared).
    pub gds_bytes: u32,
    /// Bytes of the largest LDS declaration (0: none).
    pub lds_bytes: u32,
}

/// The layout of one program's state and where each register lives in it.
#[derive(Clone, Debug, PartialEq)]
pub struct IlLayout {
    pub layout: StateLayout,
    pub r: FileId,
    pub exec: FileId,
    pub cf: FileId,
    pub sel: FileId,
    pub cb: FileId,
    pub arena: FileId,
    pub grid: FileId,
    pub tid: FileId,
    pub calls: FileId,
    pub saved: FileId,
    pub saved_sel: FileId,
    pub icb: FileId,
    /// Levels per call level in `saved` and `saved_sel`.
    pub saved_levels: u32,
    /// Indexed temp arrays by number: their file and element count.
    pub arrays: BTreeMap<u32, (FileId, u32)>,
    /// Temps `r0`..: the `r` file holds four cells for each.
    pub temps: u32,
    /// What the launch provides besides registers ([`IlLayout::with_bindings`]).
    pub bindings: Bindings,
    /// The first cell of each view in the `view` file.
    pub views: BTreeMap<View, Reg>,
}

impl IlLayout {
    /// The layout for `temps` temps, the indexed temp arrays `arrays` (number -> elements),
    /// `depth` nesting levels of control flow, the state `extra` says, and waves of
    /// `wave_size` lanes (a multiple of 4, at most 64: [`StateLayout::new`] panics
    /// otherwise). Files are never empty (a file of one unused cell stands for none).
    pub fn new(
        temps: u32,
        arrays: &BTreeMap<u32, u32>,
        depth: u32,
        extra: Extra,
        wave_size: u32,
    ) -> IlLayout {
        let mut layout = StateLayout::new(wave_size);
        let exec = layout.add_file("exec", FileKind::Uniform, 2);
        let cf = layout.add_file("cf", FileKind::Uniform, (frame::CELLS * depth).max(1));
        layout.set_written_first(cf);
        let cb = layout.add_file("cb", FileKind::Uniform, 2 * CONST_BUFFERS);
        let arena = layout.add_file("arena", FileKind::Uniform, 2);
        let grid = layout.add_file("grid", FileKind::Uniform, grid::CELLS);
        let r = layout.add_file("r", FileKind::Lane, (4 * temps).max(1));
        let sel = layout.add_file("sel", FileKind::Lane, depth.max(1));
        layout.set_written_first(sel);
        let tid = layout.add_file("tid", FileKind::Lane, 3);
        let arrays = arrays
            .iter()
            .map(|(&num, &len)| {
                let f = layout.add_file(&format!("x{num}"), FileKind::Lane, (4 * len).max(1));
                (num, (f, len))
            })
            .collect();
        let stack = if extra.calls {
            calls::ENTRY + calls::STRIDE * calls::MAX_DEPTH
        } else {
            1
        };
        let calls = layout.add_file("calls", FileKind::Uniform, stack);
        layout.set_written_first(calls);
        let levels = calls::MAX_DEPTH * extra.saved_levels;
        let saved = layout.add_file("saved", FileKind::Uniform, (frame::CELLS * levels).max(1));
        layout.set_written_first(saved);
        let saved_sel = layout.add_file("saved_sel", FileKind::Lane, levels.max(1));
        layout.set_written_first(saved_sel);
        let icb = layout.add_file("icb", FileKind::Uniform, extra.icb.max(1));
        layout.set_written_first(icb);
        IlLayout {
            layout,
            r,
            exec,
            cf,
            sel,
            cb,
            arena,
            grid,
            tid,
            calls,
            saved,
            saved_sel,
            icb,
            saved_levels: extra.saved_levels,
            arrays,
            temps,
            bindings: Bindings::default(),
            views: BTreeMap::new(),
        }
    }

    /// This layout with the memory `bindings` the program declares: the `view` file holds
    /// [`view::CELLS`] cells for each of `bindings.views`, in order.
    pub fn with_bindings(mut self, bindings: Bindings) -> IlLayout {
        if !bindings.views.is_empty() {
            let cells = view::CELLS * bindings.views.len() as u32;
            let file = self.layout.add_file("view", FileKind::Uniform, cells);
            self.views = (bindings.views.iter().enumerate())
                .map(|(i, &v)| (v, Reg::new(file, view::CELLS * i as u32)))
                .collect();
        }
        self.bindings = bindings;
        self
    }

    /// Cell `cell` ([`view`]) of view `v`, if the program declares it.
    pub fn view(&self, v: View, cell: u32) -> Option<Reg> {
        self.views.get(&v).map(|r| r.offset(cell))
    }

    /// Component `c` (0 = x .. 3 = w) of temp `n`.
    pub fn temp(&self, n: u32, c: u32) -> Reg {
        Reg::new(self.r, 4 * n + c)
    }

    /// The active mask as a 64-bit pair.
    pub fn exec(&self) -> Reg {
        Reg::new(self.exec, 0)
    }

    /// Mask `slot` ([`frame::A`] or [`frame::B`]) of the frame at nesting level `level`.
    pub fn frame(&self, level: u32, slot: u32) -> Reg {
        Reg::new(self.cf, frame::CELLS * level + slot)
    }

    /// Cell `cell` of the return stack ([`calls`]).
    pub fn call_cell(&self, cell: u32) -> Reg {
        Reg::new(self.calls, cell)
    }

    /// The selector of the `switch` at nesting level `level`.
    pub fn selector(&self, level: u32) -> Reg {
        Reg::new(self.sel, level)
    }

    /// The guest address of constant buffer `id` as a 64-bit pair.
    pub fn const_buffer(&self, id: u32) -> Reg {
        Reg::new(self.cb, 2 * id)
    }

    /// The arena's guest address as a 64-bit pair.
    pub fn arena(&self) -> Reg {
        Reg::new(self.arena, 0)
    }

    /// Cell `n` of the `grid` file ([`grid`]).
    pub fn grid(&self, n: u32) -> Reg {
        Reg::new(self.grid, n)
    }

    /// `vTidInGrp` component `c` (0-2).
    pub fn tid(&self, c: u32) -> Reg {
        Reg::new(self.tid, c)
    }
}
