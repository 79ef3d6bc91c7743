//! The launch geometry of `start_program`: which index pair each lane of each wave runs,
//! and how a wave starts ([`DomainInit`], the [`WaveInit`] the executor hands the runtime).
//!
//! # Tiles
//! A wave is a 16×4 tile of index pairs, tiles aligned to multiples of (16, 4) in absolute
//! (i, j): the tile with origin (16·tx, 4·ty) holds pair (i, j) in lane
//! `16 * (j % 4) + i % 16` ([`lane_of`]). The seed leaves the SIMD group's size and shape
//! open ("the specific partitioning of work among the processors ... is unspecified",
//! §2.1.2); 16×4 keeps every quad (the 2×2 block at even (i, j) that MDH/MDV read) in one
//! wave: horizontal neighbour `lane ^ 1`, vertical `lane ^ 16`.
//!
//! [`Tiles`] covers the domain `i0..=i1 × j0..=j1` with the tiles that meet it; the executor
//! dispatches [`Tiles::grid`]: one work-group of one wave per tile, group (x, y) = tile
//! (tx0 + x, ty0 + y).
//!
//! # Coverage
//! A pair is *covered* when it is in the domain and, with conditional execution at the PE
//! (`set_cond_loc` PE), passed the CO's test, which the executor computes on the host
//! ([`crate::setup::CondTest::passes`]) and hands over as one 64-bit lane mask per tile
//! (bit l = lane l passed, in [`Tiles::linear`] order). Every lane of a quad with a covered
//! lane runs (is *alive*); its uncovered lanes are helpers: they execute, so that
//! derivatives see their values, but never write outputs or the conditional buffer, and
//! IGNORE_UNCOVERED leaves them out of flow-control decisions and texture reads. Quads with
//! no covered lane never run. A wave starts with every alive lane active.
//!
//! # Initial registers
//! r0 = (i, j, 0.0, 1.0) as floats in every lane (DESIGN.md's `wavejit ctm`: the seed does
//! not say how the pair reaches the program); every other temporary, output, predicate and
//! counter 0, but W, the conditional-value output, which starts as the PE's conditional
//! value (`set_cond_val`): the seed's processor receives that value with its pair (§2.1.1),
//! and a program that exports no value sends it (see `super::output`). The memory base is
//! the guest address of GPU address 0.

use super::state::{mask, R5xxLayout};
use crate::setup::Setup;
use wavejit_isa::{Grid, RegSink, WaveCoord, WaveInit};

/// Largest i or j (12-bit fields).
pub const MAX_INDEX: u32 = 4095;

/// The lane of a tile holding pair (i, j).
pub fn lane_of(i: u32, j: u32) -> u32 {
    16 * (j % 4) + i % 16
}

/// The lanes of the quads that hold a lane of `covered`: the alive lanes.
pub fn quads_of(covered: u64) -> u64 {
    const EVEN_I: u64 = 0x5555_5555_5555_5555;
    const EVEN_J: u64 = 0x0000_ffff_0000_ffff;
    let m = covered | (covered & EVEN_I) << 1 | (covered & !EVEN_I) >> 1;
    m | (m & EVEN_J) << 16 | (m & !EVEN_J) >> 16
}

/// The domain of a `start_program`, cut into tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    /// The domain, inclusive: i0..=i1, j0..=j1.
    pub i0: u32,
    pub j0: u32,
    pub i1: u32,
    pub j1: u32,
    /// The first tile (tile coordinates: origin (16 tx, 4 ty)) and the tile counts.
    pub tx0: u32,
    pub ty0: u32,
    pub nx: u32,
    pub ny: u32,
}

impl Tiles {
    /// The tiles of domain `i0..=i1 × j0..=j1`, or why it is not one (`i0 > i1`, `j0 > j1`,
    /// or a bound past the 12-bit range).
    pub fn new(i0: u32, j0: u32, i1: u32, j1: u32) -> Result<Tiles, String> {
        if i1.max(j1) > MAX_INDEX {
            return Err(format!(
                "domain ({i0}, {j0})..({i1}, {j1}) exceeds the 12-bit index range 0-{MAX_INDEX}"
            ));
        }
        if i0 > i1 || j0 > j1 {
            return Err(format!(
                "empty domain ({i0}, {j0})..({i1}, {j1}): i0 > i1 or j0 > j1"
            ));
        }
        Ok(Tiles {
            i0,
            j0,
            i1,
            j1,
            tx0: i0 / 16,
            ty0: j0 / 4,
            nx: i1 / 16 - i0 / 16 + 1,
            ny: j1 / 4 - j0 / 4 + 1,
        })
    }

    /// The dispatch: group (x, y) is tile (tx0 + x, ty0 + y), one wave of 64 lanes each.
    pub fn grid(&self) -> Grid {
        Grid::new([self.nx * 64, self.ny, 1], [64, 1, 1], 64)
            .expect("at most 256 x 1024 tiles of 64 lanes")
    }

    /// Tiles in the domain.
    pub fn count(&self) -> u64 {
        u64::from(self.nx) * u64::from(self.ny)
    }

    /// The index of work-group `group`'s tile in a per-tile list (x fastest).
    pub fn linear(&self, group: [u32; 3]) -> usize {
        group[0] as usize + self.nx as usize * group[1] as usize
    }

    /// The (i, j) of lane 0 of work-group `group`'s tile.
    pub fn origin(&self, group: [u32; 3]) -> (u32, u32) {
        (16 * (self.tx0 + group[0]), 4 * (self.ty0 + group[1]))
    }

    /// The pair lane `lane` of work-group `group`'s tile holds.
    pub fn pair(&self, group: [u32; 3], lane: u32) -> (u32, u32) {
        let (i, j) = self.origin(group);
        (i + lane % 16, j + lane / 16)
    }

    /// The lanes of work-group `group`'s tile whose pairs are in the domain.
    pub fn in_domain(&self, group: [u32; 3]) -> u64 {
        (0..64)
            .filter(|&l| {
                let (i, j) = self.pair(group, l);
                (self.i0..=self.i1).contains(&i) && (self.j0..=self.j1).contains(&j)
            })
            .fold(0, |m, l| m | 1 << l)
    }
}

/// How each wave of a `start_program` starts (the module doc).
#[derive(Clone, Debug)]
pub struct DomainInit {
    layout: R5xxLayout,
    tiles: Tiles,
    coverage: Option<Vec<u64>>,
    mem_base: u64,
    cond_value: u32,
}

impl DomainInit {
    /// The start of `layout`'s waves over `tiles` under `setup` (its PE conditional value),
    /// with GPU address 0 at guest address `mem_base` and, with conditional execution at the
    /// PE, the lanes that passed the test: one mask per tile in [`Tiles::linear`] order.
    pub fn new(
        layout: &R5xxLayout,
        tiles: Tiles,
        coverage: Option<Vec<u64>>,
        mem_base: u64,
        setup: &Setup,
    ) -> Result<DomainInit, String> {
        if let Some(c) = &coverage {
            if c.len() as u64 != tiles.count() {
                return Err(format!(
                    "{} coverage masks for {} tiles",
                    c.len(),
                    tiles.count()
                ));
            }
        }
        Ok(DomainInit {
            layout: layout.clone(),
            tiles,
            coverage,
            mem_base,
            cond_value: setup.bindings.cond.value,
        })
    }

    /// The covered lanes of work-group `group`'s tile.
    pub fn covered(&self, group: [u32; 3]) -> u64 {
        let pe = self
            .coverage
            .as_ref()
            .map_or(u64::MAX, |c| c[self.tiles.linear(group)]);
        self.tiles.in_domain(group) & pe
    }
}

impl WaveInit for DomainInit {
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String> {
        let l = &self.layout;
        let covered = self.covered(wave.group);
        let alive = quads_of(covered);
        for (which, m) in [
            (mask::ACTIVE, alive),
            (mask::ALIVE, alive),
            (mask::COVERED, covered),
        ] {
            regs.set_uniform64(l.mask(which), m);
        }
        let (i, j) = self.tiles.origin(wave.group);
        regs.set_uniforms(l.tile_origin(), &[i, j]);
        regs.set_uniform64(l.mem_base(), self.mem_base);
        let pairs = (0..64).map(|lane| self.tiles.pair(wave.group, lane));
        if regs.observes_row(l.temp(0, 0)) {
            let x: Vec<u32> = pairs.clone().map(|(i, _)| (i as f32).to_bits()).collect();
            regs.set_row(l.temp(0, 0), &x);
        }
        if regs.observes_row(l.temp(0, 1)) {
            let y: Vec<u32> = pairs.map(|(_, j)| (j as f32).to_bits()).collect();
            regs.set_row(l.temp(0, 1), &y);
        }
        if regs.observes_row(l.temp(0, 3)) {
            regs.fill_row(l.temp(0, 3), 64, 1.0f32.to_bits());
        }
        if regs.observes_row(l.w()) {
            regs.fill_row(l.w(), 64, self.cond_value);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_the_domain_at_aligned_origins() {
        let t = Tiles::new(10, 3, 40, 9).unwrap();
        assert_eq!((t.tx0, t.ty0, t.nx, t.ny), (0, 0, 3, 3));
        assert_eq!(t.grid().groups(), [3, 3, 1]);
        assert_eq!(t.origin([2, 1, 0]), (32, 4));
        assert_eq!(t.pair([2, 1, 0], 17), (33, 5));
        assert_eq!(lane_of(33, 5), 17);
        // Tile (0, 0): i 0..16, j 0..4; the domain starts at (10, 3): lanes 58..64.
        assert_eq!(t.in_domain([0, 0, 0]), 0xfc00_0000_0000_0000);
        assert!(Tiles::new(5, 0, 4, 0).is_err());
        assert!(Tiles::new(0, 0, 4096, 0).is_err());
    }

    #[test]
    fn a_quad_with_one_covered_lane_runs_whole() {
        // Lane 17 = (1, 1): its quad is lanes 0, 1, 16, 17.
        assert_eq!(quads_of(1 << 17), 1 | 1 << 1 | 1 << 16 | 1 << 17);
        // Lane 50 = (2, 3): quad lanes 34, 35, 50, 51.
        assert_eq!(quads_of(1 << 50), 1 << 34 | 1 << 35 | 1 << 50 | 1 << 51);
        assert_eq!(quads_of(0), 0);
        assert_eq!(quads_of(u64::MAX), u64::MAX);
    }
}
