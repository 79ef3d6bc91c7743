//! Launching a lifted IL compute program: what [`crate::lift::state`]'s launch contract asks of
//! a launcher, and the declarations a launch reads. A pixel-shader program (`il_ps`) launches
//! the same way over a two-dimensional domain: its grid is the domain, its work-groups are
//! tiles of it (the contract's "Pixel shaders"); [`Declared::check_grid`] refuses a third
//! dimension.
//!
//! - [`IlWaveInit`] starts each wave: `exec` = the lanes holding work-items; `vTidInGrp` per
//!   lane (x fastest, as every launch of the project numbers work-items); the `grid` cells:
//!   the work-group's id, the launch's work-group size (not the extent of an edge group: the
//!   IL's absolute ids are `vThreadGrpId * size + vTidInGrp`, L1269) and the number of groups;
//!   the guest address of every constant buffer the launch binds; the arena's address.
//! - [`lone_wave`] gives a wave run alone (`wavejit wave`) the geometry of wave 0 of work-group
//!   (0, 0, 0) of a grid of one wave along x, so that the id registers read the lane index.
//! - [`abi_data`] is the "ABI data" that AMD's OpenCL runtime writes to constant buffer 0 for
//!   both encodings of its kernels (../shared/notes/amd_appsdk_binaries.md §3.1; il_sources.md
//!   §2, "Runtime ABI / Reserved Locations"); the compiler's IL reads the local size from
//!   `cb0[1]`, the global offset from `cb0[6]` and the group offset from `cb0[7]`.
//! - [`Declared`] is what a program declares that its launch must provide: the constant
//!   buffers with their sizes, the LDS, the work-group size.
//!
//! Nothing here depends on the runtime: the waves' registers are written through
//! [`RegSink`], so the same start serves every engine.

use crate::inst::{Index, Program};
use crate::lift::state::{grid, IlLayout, CONST_BUFFERS};
use crate::token::RegType;
use std::collections::BTreeMap;
use wavejit_isa::{Grid, RegSink, WaveCoord, WaveInit};

/// LDS bytes a work-group can have: "the sum of all LDS allocations must be <= 32k bytes"
/// (`dcl_lds`, L9924), the local memory AMD's OpenCL exposes on Evergreen and Southern Islands.
pub const LDS_LIMIT: u32 = 32 << 10;

/// Bytes of constant buffer 0 at least: the 15 vec4 that AMD's compiler declares for the ABI
/// data (`dcl_cb cb0[15]`) and that the binaries' CONSTANT_BUFFERS note gives.
pub const CB0_MIN_BYTES: u32 = 240;

/// Dwords of the ABI data [`abi_data`] defines: through the group offset (dword 30).
pub const ABI_DWORDS: usize = 32;

/// The ABI data of constant buffer 0 for `grid`, zero-extended to `dwords` (at least
/// [`ABI_DWORDS`]): dwords 0-2 the global size, 3 work_dim, 4-6 the local size, 8-10 the
/// number of groups (a size's unused components are 1), 20-23 the floats 0.0, 0.5, 1.0, 2.0,
/// 24-26 the global offset and 28-30 the group-id offset, both 0 (a launch has no offset);
/// every other dword 0 (the private and local ring offsets of dwords 12-17, which the driver
/// fills only when it emulates those memories, and the math-library table of dword 19 are
/// not used by this launch).
///
/// work_dim is the number of dimensions the host gave ([`Grid::dims`]: the components given to
/// `--global`).
pub fn abi_data(grid: &Grid, dwords: usize) -> Vec<u32> {
    let mut d = vec![0u32; dwords.max(ABI_DWORDS)];
    d[0..3].copy_from_slice(&grid.global);
    d[3] = grid.dims;
    d[4..7].copy_from_slice(&grid.local);
    d[8..11].copy_from_slice(&grid.groups());
    for (i, f) in [0.0f32, 0.5, 1.0, 2.0].into_iter().enumerate() {
        d[20 + i] = f.to_bits();
    }
    d
}

/// What a program declares that its launch provides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// Elements (16 bytes each) of every constant buffer `dcl_cb cb#[n]` declares.
    pub const_buffers: BTreeMap<u32, u32>,
    /// Bytes of the largest `dcl_lds_id(n) size`: every LDS id addresses the work-group's one
    /// LDS from byte 0 (the lifter's rule), so the declarations overlap.
    pub lds_bytes: u32,
    /// `dcl_num_thread_per_group n1[, n2[, n3]]`: the work-group size the program is written
    /// for (omitted sizes are 1, L4343).
    pub group_size: Option<[u32; 3]>,
    /// `dcl_max_thread_per_group n`: the most work-items a work-group may have (L4283).
    pub max_group_items: Option<u32>,
    /// The program is a pixel shader (`il_ps`): its grid is a two-dimensional domain.
    pub pixel: bool,
}

impl Declared {
    /// Checks `grid` against the declared work-group size (the IL's ids are computed from
    /// the launch's sizes, so a program run with another size than it declares computes
    /// other work-items' results).
    pub fn check_grid(&self, grid: &Grid) -> Result<(), String> {
        if self.pixel && (grid.global[2] > 1 || grid.local[2] > 1) {
            return Err(format!(
                "a pixel shader runs over a two-dimensional domain (--global X[,Y], --local \
                 X[,Y]); the launch's is {} in tiles of {}",
                dims(grid.global),
                dims(grid.local)
            ));
        }
        if let Some(size) = self.group_size {
            if size != grid.local {
                return Err(format!(
                    "the program declares work-groups of {} (dcl_num_thread_per_group); the launch's are {}",
                    dims(size),
                    dims(grid.local)
                ));
            }
        }
        if let Some(max) = self.max_group_items {
            let items = grid.group_items();
            if items > max {
                return Err(format!(
                    "{items} work-items a group; the program declares at most {max} (dcl_max_thread_per_group)"
                ));
            }
        }
        Ok(())
    }
}

fn dims(d: [u32; 3]) -> String {
    format!("{},{},{}", d[0], d[1], d[2])
}

/// The declarations of `program` a launch reads, anywhere in its code (AMD's compiler puts
/// some inside the kernel's function); the error names the declaration that is malformed or
/// declared twice with different values.
pub fn declared(program: &Program) -> Result<Declared, String> {
    let mut d = Declared {
        pixel: program.version.shader == crate::token::Version::PIXEL,
        ..Declared::default()
    };
    for inst in &program.code {
        let Some(row) = inst.row() else { continue };
        let text = || crate::print::print_inst(inst);
        match row.mnemonic {
            // The immediate form (`pri`) is data in the program, not a buffer to bind.
            "dcl_cb" if inst.pri.is_none() => {
                let sized = match &inst.src[..] {
                    [s] if s.reg.ty == RegType::CONST_BUFF && s.reg.dim2.is_none() => {
                        match s.reg.index {
                            Index::Imm(n) if s.reg.num < CONST_BUFFERS => Some((s.reg.num, n)),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                let (cb, n) =
                    sized.ok_or_else(|| format!("{}: not a cb#[n] of cb0-cb14", text()))?;
                let n = d.const_buffers.get(&cb).map_or(n, |&m| m.max(n));
                d.const_buffers.insert(cb, n);
            }
            "dcl_lds" => {
                let size = *inst
                    .extra
                    .first()
                    .ok_or_else(|| format!("{}: no size", text()))?;
                d.lds_bytes = d.lds_bytes.max(size);
            }
            "dcl_num_thread_per_group" => {
                let mut size = [1u32; 3];
                if inst.extra.is_empty() || inst.extra.len() > 3 || inst.extra.contains(&0) {
                    return Err(format!("{}: 1 to 3 sizes, none 0 (L4343)", text()));
                }
                size[..inst.extra.len()].copy_from_slice(&inst.extra);
                if d.group_size.is_some_and(|s| s != size) {
                    return Err(format!("{}: a second, different work-group size", text()));
                }
                d.group_size = Some(size);
            }
            "dcl_max_thread_per_group" => {
                let n = *inst
                    .extra
                    .first()
                    .ok_or_else(|| format!("{}: no count", text()))?;
                d.max_group_items = Some(d.max_group_items.map_or(n, |m| m.min(n)));
            }
            _ => {}
        }
    }
    if d.group_size.is_some() && d.max_group_items.is_some() {
        return Err(
            "dcl_num_thread_per_group and dcl_max_thread_per_group cannot both be present (L4281)"
                .into(),
        );
    }
    Ok(d)
}

/// Every wave's start of one dispatch of a lifted IL program (see the module doc).
pub struct IlWaveInit {
    pub layout: IlLayout,
    /// (constant buffer number, guest address) of each buffer the launch binds.
    pub const_buffers: Vec<(u32, u64)>,
    /// Guest address of the arena: byte offset 0 of every raw UAV.
    pub arena: u64,
}

impl WaveInit for IlWaveInit {
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String> {
        let l = &self.layout;
        if wave.wave_size != l.layout.wave_size {
            return Err(format!(
                "the program was lifted for waves of {} lanes, not {}",
                l.layout.wave_size, wave.wave_size
            ));
        }
        regs.set_uniform64(l.exec(), wave.exec_mask());
        regs.set_uniforms(l.grid(grid::GROUP_ID), &wave.group);
        regs.set_uniforms(l.grid(grid::GROUP_SIZE), &wave.local);
        regs.set_uniforms(l.grid(grid::GROUPS), &wave.groups);
        for &(cb, addr) in &self.const_buffers {
            regs.set_uniform64(l.const_buffer(cb), addr);
        }
        regs.set_uniform64(l.arena(), self.arena);
        let ids = [0, 1, 2].map(|c| l.tid(c));
        if ids.iter().any(|&r| regs.observes_row(r)) {
            let n = wave.wave_size as usize;
            let mut rows = [[0u32; 64]; 3];
            let [x, y, z] = &mut rows;
            wave.fill_local_ids(&mut x[..n], &mut y[..n], &mut z[..n]);
            for (&reg, row) in ids.iter().zip(&rows) {
                regs.set_row(reg, &row[..n]);
            }
        }
        Ok(())
    }
}

/// The geometry of a wave run alone: wave 0 of work-group (0, 0, 0), one wave of the
/// layout's lanes along x (lane l at `vTidInGrp` (l, 0, 0); a pixel shader's lane l is the
/// domain point (l, 0)), one work-group. The exec mask, the constant buffers and the arena are
/// the caller's.
pub fn lone_wave(layout: &IlLayout, regs: &mut dyn RegSink) {
    let lanes = layout.layout.wave_size;
    regs.set_uniforms(layout.grid(grid::GROUP_ID), &[0; 3]);
    regs.set_uniforms(layout.grid(grid::GROUP_SIZE), &[lanes, 1, 1]);
    regs.set_uniforms(layout.grid(grid::GROUPS), &[1; 3]);
    for lane in 0..lanes {
        regs.set_lane(layout.tid(0), lane, lane);
        regs.set_lane(layout.tid(1), lane, 0);
        regs.set_lane(layout.tid(2), lane, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abi_data_follows_the_runtime_table() {
        let grid = Grid::new([100, 6, 1], [10, 3, 1], 64).unwrap();
        let d = abi_data(&grid, 60);
        assert_eq!(d.len(), 60);
        assert_eq!(&d[0..11], &[100, 6, 1, 2, 10, 3, 1, 0, 10, 2, 1]);
        assert_eq!(d[20..24], [0, 0x3f00_0000, 0x3f80_0000, 0x4000_0000]);
        assert!(d[24..].iter().all(|&w| w == 0));
        let one = Grid::new([64, 1, 1], [64, 1, 1], 64).unwrap();
        assert_eq!(abi_data(&one, 0)[3], 1);
        let z = Grid::new([4, 1, 2], [2, 1, 1], 64).unwrap();
        assert_eq!(abi_data(&z, 0)[3], 3);
        assert_eq!(abi_data(&one.with_dims(2), 0)[3], 2);
        assert_eq!(abi_data(&z.with_dims(1), 0)[3], 3);
    }

    #[test]
    fn declarations_are_read_anywhere() {
        let p = crate::parse::parse(
            "il_cs_2_0\ndcl_cb cb0[15]\ndcl_num_thread_per_group 8, 4\ndcl_lds_id(0) 256\n\
             dcl_lds_id(1) 1024\ndcl_cb cb1[3]\nend\n",
        )
        .unwrap();
        let d = declared(&p).unwrap();
        assert_eq!(d.const_buffers, BTreeMap::from([(0, 15), (1, 3)]));
        assert_eq!(d.lds_bytes, 1024);
        assert_eq!(d.group_size, Some([8, 4, 1]));
        let grid = |l| Grid::new([64, 8, 1], l, 64).unwrap();
        assert!(d.check_grid(&grid([8, 4, 1])).is_ok());
        let e = d.check_grid(&grid([4, 8, 1])).unwrap_err();
        assert!(e.contains("8,4,1"), "{e}");
    }

    #[test]
    fn a_pixel_shaders_domain_is_two_dimensional() {
        let p = crate::parse::parse("il_ps_2_0\nend\n").unwrap();
        let d = declared(&p).unwrap();
        assert!(d.pixel);
        assert!(d
            .check_grid(&Grid::new([100, 30, 1], [8, 8, 1], 64).unwrap())
            .is_ok());
        let e = d
            .check_grid(&Grid::new([8, 8, 2], [8, 8, 1], 64).unwrap())
            .unwrap_err();
        assert!(e.contains("two-dimensional"), "{e}");
        assert!(d
            .check_grid(&Grid::new([8, 8, 2], [8, 8, 2], 64).unwrap())
            .is_err());
    }

    #[test]
    fn max_group_items_bounds_the_group() {
        let p = crate::parse::parse("il_cs_2_0\ndcl_max_thread_per_group 64\nend\n").unwrap();
        let d = declared(&p).unwrap();
        assert!(d
            .check_grid(&Grid::new([128, 1, 1], [64, 1, 1], 64).unwrap())
            .is_ok());
        assert!(d
            .check_grid(&Grid::new([128, 1, 1], [128, 1, 1], 64).unwrap())
            .is_err());
    }
}
