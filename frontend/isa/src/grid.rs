//! The geometry of one dispatch: a grid of work-items cut into work-groups, each work-group
//! cut into waves. One definition, used by the runtime's dispatcher and by every ISA's launch
//! ABI (ids in registers, scratch offsets, group counts in argument headers).
//!
//! Invariants (checked by [`Grid::new`]): every size is non-zero and a work-group holds at
//! most [`Grid::MAX_GROUP_ITEMS`] work-items (or the limit given to [`Grid::with_limit`]).
//!
//! - Work-groups are numbered x fastest: group `(x, y, z)` has linear index
//!   `x + gx * (y + gy * z)` with `g` = [`Grid::groups`].
//! - A work-group at the edge of a grid that is not a multiple of the local size is partial
//!   (the HSA rule): its extent in each dimension is what remains ([`Grid::group_extent`]).
//!   Every ISA accepts such grids; the group count includes the partial group.
//! - The work-items of a group are numbered x fastest over the group's *extent*
//!   (`flat = x + ex * (y + ey * z)`), and wave `w` of a wave size `S` holds flat ids
//!   `S*w .. S*w + S-1`; lane = flat - `S*w`. Lanes past the group's last work-item are empty.

use thiserror::Error;

/// Why a grid was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GridError {
    #[error("global and local sizes must be non-zero (global {global:?}, local {local:?})")]
    Zero { global: [u32; 3], local: [u32; 3] },
    #[error("work-group of {items} work-items exceeds {max}")]
    GroupTooLarge { items: u64, max: u32 },
    #[error("wave size {0} (1 to 64 lanes)")]
    WaveSize(u32),
}

/// A dispatch's grid: global and local sizes in work-items, the lanes of a wave, and the
/// number of dimensions the host gave (OpenCL's `work_dim`, 1-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub wave_size: u32,
    /// The dimensions the host gave: what [`Grid::with_dims`] set, else the highest
    /// dimension whose global or local size exceeds 1 (1 for a grid of one work-item).
    pub dims: u32,
}

impl Grid {
    /// The largest work-group any supported GPU runs (GCN, TeraScale, G13: 1024 work-items).
    pub const MAX_GROUP_ITEMS: u32 = 1024;

    /// A checked grid with at most [`Grid::MAX_GROUP_ITEMS`] work-items a group.
    pub fn new(global: [u32; 3], local: [u32; 3], wave_size: u32) -> Result<Grid, GridError> {
        Grid::with_limit(global, local, wave_size, Grid::MAX_GROUP_ITEMS)
    }

    /// A checked grid whose work-groups hold at most `max_group_items` work-items.
    pub fn with_limit(
        global: [u32; 3],
        local: [u32; 3],
        wave_size: u32,
        max_group_items: u32,
    ) -> Result<Grid, GridError> {
        if global.contains(&0) || local.contains(&0) {
            return Err(GridError::Zero { global, local });
        }
        let items = local.iter().map(|&n| u64::from(n)).product::<u64>();
        if items > u64::from(max_group_items) {
            return Err(GridError::GroupTooLarge {
                items,
                max: max_group_items,
            });
        }
        if !(1..=64).contains(&wave_size) {
            return Err(GridError::WaveSize(wave_size));
        }
        let dims = (0..3)
            .rev()
            .find(|&i| global[i] > 1 || local[i] > 1)
            .map_or(1, |i| i as u32 + 1);
        Ok(Grid {
            global,
            local,
            wave_size,
            dims,
        })
    }

    /// The grid as the host gave it in `dims` dimensions (a host may spell out trailing
    /// sizes of 1: `--global 64,1` is two); never fewer than the sizes need, at most 3.
    pub fn with_dims(self, dims: u32) -> Grid {
        Grid {
            dims: dims.clamp(self.dims, 3),
            ..self
        }
    }

    /// Work-groups per dimension (a partial last group counts).
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.global[d].div_ceil(self.local[d]))
    }

    /// Work-groups in the whole grid.
    pub fn group_count(&self) -> u64 {
        self.groups().iter().map(|&g| u64::from(g)).product()
    }

    /// The id of the work-group with linear index `linear` (x fastest).
    pub fn group_id(&self, linear: u64) -> [u32; 3] {
        let [nx, ny, _] = self.groups().map(u64::from);
        [
            (linear % nx) as u32,
            (linear / nx % ny) as u32,
            (linear / (nx * ny)) as u32,
        ]
    }

    /// The linear index of work-group `group` (x fastest).
    pub fn linear_group(&self, group: [u32; 3]) -> u64 {
        let [nx, ny, _] = self.groups().map(u64::from);
        u64::from(group[0]) + nx * (u64::from(group[1]) + ny * u64::from(group[2]))
    }

    /// The extent of work-group `group`: `local`, or what remains at the edge of the grid.
    #[inline]
    pub fn group_extent(&self, group: [u32; 3]) -> [u32; 3] {
        [0, 1, 2].map(|d| {
            self.local[d].min(self.global[d].saturating_sub(group[d].saturating_mul(self.local[d])))
        })
    }

    /// Work-items in the largest work-group (`local`'s product).
    pub fn group_items(&self) -> u32 {
        self.local.iter().product()
    }

    /// Waves of a full work-group (the most any group has; what per-group allocations size).
    pub fn waves_per_group(&self) -> u32 {
        self.group_items().div_ceil(self.wave_size)
    }

    /// Waves in work-group `group` (fewer than [`Grid::waves_per_group`] for a partial group).
    pub fn waves_in_group(&self, group: [u32; 3]) -> u32 {
        self.group_extent(group)
            .iter()
            .product::<u32>()
            .div_ceil(self.wave_size)
    }

    /// Waves in the whole grid, counting every group as full (what per-wave allocations of a
    /// dispatch size; see [`WaveCoord::dispatch_wave`]).
    pub fn wave_slots(&self) -> u64 {
        self.group_count() * u64::from(self.waves_per_group())
    }

    /// The grid's group counts and wave counts computed once, for a dispatcher that visits
    /// every group ([`GroupWalk`]).
    pub fn walk(&self) -> GroupWalk {
        let groups = self.groups();
        GroupWalk {
            grid: *self,
            groups,
            row: u64::from(groups[0]),
            plane: u64::from(groups[0]) * u64::from(groups[1]),
            waves_per_group: self.waves_per_group(),
            group_items: self.group_items(),
        }
    }

    /// Wave `wave` of work-group `group`.
    pub fn wave(&self, group: [u32; 3], wave: u32) -> WaveCoord {
        self.walk().wave(group, wave)
    }
}

/// A grid with its counts computed once: group ids (the values of [`Grid::group_id`]) and
/// the [`WaveCoord`]s of a group (the one definition, which [`Grid::wave`] uses), for a
/// dispatcher that visits every group.
#[derive(Clone, Copy, Debug)]
pub struct GroupWalk {
    grid: Grid,
    groups: [u32; 3],
    /// Groups in a row (x) and in a plane (x * y).
    row: u64,
    plane: u64,
    waves_per_group: u32,
    group_items: u32,
}

impl GroupWalk {
    #[inline]
    pub fn group_count(&self) -> u64 {
        self.plane * u64::from(self.groups[2])
    }

    /// [`Grid::group_id`].
    #[inline]
    pub fn group_id(&self, linear: u64) -> [u32; 3] {
        // The first row (every group of a 1D grid) needs no division.
        if linear < self.row {
            return [linear as u32, 0, 0];
        }
        let (z, in_plane) = (linear / self.plane, linear % self.plane);
        [
            (in_plane % self.row) as u32,
            (in_plane / self.row) as u32,
            z as u32,
        ]
    }

    /// Wave `wave` of `group` (the definition [`Grid::wave`] gives).
    #[inline]
    pub fn wave(&self, group: [u32; 3], wave: u32) -> WaveCoord {
        let g = &self.grid;
        let extent = g.group_extent(group);
        let items: u32 = extent.iter().product();
        let first_item = wave * g.wave_size;
        WaveCoord {
            group,
            groups: self.groups,
            wave,
            waves_in_group: if items == self.group_items {
                self.waves_per_group
            } else {
                items.div_ceil(g.wave_size)
            },
            waves_per_group: self.waves_per_group,
            wave_size: g.wave_size,
            first_item,
            lanes: items.saturating_sub(first_item).min(g.wave_size),
            global: g.global,
            local: g.local,
            extent,
        }
    }

    /// The waves of `group` in order.
    #[inline]
    pub fn waves(&self, group: [u32; 3]) -> impl ExactSizeIterator<Item = WaveCoord> {
        let walk = *self;
        let first = self.wave(group, 0);
        (0..first.waves_in_group).map(move |w| if w == 0 { first } else { walk.wave(group, w) })
    }
}

/// One wave of a dispatch: where it is and which work-item each of its lanes holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveCoord {
    /// Work-group id.
    pub group: [u32; 3],
    /// Work-groups per dimension.
    pub groups: [u32; 3],
    /// Index of the wave in its work-group.
    pub wave: u32,
    /// Waves of this work-group.
    pub waves_in_group: u32,
    /// Waves of a full work-group.
    pub waves_per_group: u32,
    pub wave_size: u32,
    /// Flat local id of lane 0.
    pub first_item: u32,
    /// Lanes `0..lanes` hold work-items; the rest of the wave is empty.
    pub lanes: u32,
    pub global: [u32; 3],
    /// The launch's work-group size.
    pub local: [u32; 3],
    /// This work-group's extent (`local`, or less at the edge of the grid).
    pub extent: [u32; 3],
}

impl WaveCoord {
    /// Local id (x, y, z) of `lane`, or `None` for a lane without a work-item.
    #[inline]
    pub fn local_id(&self, lane: u32) -> Option<[u32; 3]> {
        if lane >= self.lanes {
            return None;
        }
        let id = self.first_item + lane;
        let [ex, ey, _] = self.extent;
        Some([id % ex, id / ex % ey, id / (ex * ey)])
    }

    /// The local ids of lanes `0..lanes` into `x`, `y`, `z` (one entry per lane; lanes
    /// without a work-item keep their entries), counted up from lane 0's id without a
    /// division per lane.
    #[inline]
    pub fn fill_local_ids(&self, x: &mut [u32], y: &mut [u32], z: &mut [u32]) {
        let Some([mut ix, mut iy, mut iz]) = self.local_id(0) else {
            return;
        };
        let [ex, ey, _] = self.extent;
        let n = (self.lanes as usize).min(x.len()).min(y.len()).min(z.len());
        if ix as usize + n <= ex as usize {
            // The whole wave lies in one row of the group (every 1D group): a loop the
            // compiler vectorises.
            for (l, x) in x[..n].iter_mut().enumerate() {
                *x = ix + l as u32;
            }
            y[..n].fill(iy);
            z[..n].fill(iz);
            return;
        }
        for l in 0..n {
            (x[l], y[l], z[l]) = (ix, iy, iz);
            ix += 1;
            if ix == ex {
                ix = 0;
                iy += 1;
                if iy == ey {
                    iy = 0;
                    iz += 1;
                }
            }
        }
    }

    /// Global id (x, y, z) of `lane`, or `None` for a lane without a work-item.
    pub fn global_id(&self, lane: u32) -> Option<[u32; 3]> {
        let l = self.local_id(lane)?;
        Some([0, 1, 2].map(|d| self.group[d] * self.local[d] + l[d]))
    }

    /// The lanes holding work-items, bit i = lane i.
    #[inline]
    pub fn exec_mask(&self) -> u64 {
        if self.lanes >= 64 {
            u64::MAX
        } else {
            (1u64 << self.lanes) - 1
        }
    }

    /// The linear index of this wave's work-group (x fastest).
    #[inline]
    pub fn linear_group(&self) -> u64 {
        let [nx, ny, _] = self.groups.map(u64::from);
        u64::from(self.group[0]) + nx * (u64::from(self.group[1]) + ny * u64::from(self.group[2]))
    }

    /// The dispatch-wide index of this wave, every group counted with
    /// [`WaveCoord::waves_per_group`] waves: unique among the waves of a dispatch and below
    /// [`Grid::wave_slots`] (what per-wave memory such as scratch is indexed by).
    #[inline]
    pub fn dispatch_wave(&self) -> u64 {
        self.linear_group() * u64::from(self.waves_per_group) + u64::from(self.wave)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_groups_hold_what_remains() {
        let g = Grid::new([10, 5, 1], [4, 4, 1], 64).unwrap();
        assert_eq!(g.groups(), [3, 2, 1]);
        assert_eq!(g.group_count(), 6);
        assert_eq!(g.group_extent([2, 1, 0]), [2, 1, 1]);
        assert_eq!(g.waves_in_group([2, 1, 0]), 1);
        let w = g.wave([2, 1, 0], 0);
        assert_eq!(w.lanes, 2);
        assert_eq!(w.exec_mask(), 0b11);
        assert_eq!(w.local_id(1), Some([1, 0, 0]));
        assert_eq!(w.global_id(1), Some([9, 4, 0]));
        assert_eq!(w.local_id(2), None);
    }

    #[test]
    fn waves_split_flat_ids_by_wave_size() {
        let g = Grid::new([100, 1, 1], [100, 1, 1], 32).unwrap();
        assert_eq!(g.waves_per_group(), 4);
        let last = g.wave([0, 0, 0], 3);
        assert_eq!((last.first_item, last.lanes), (96, 4));
        assert_eq!(last.local_id(3), Some([99, 0, 0]));
        let g = Grid::new([8, 8, 2], [4, 4, 2], 64).unwrap();
        let w = g.wave([1, 1, 0], 0);
        assert_eq!(w.local_id(21), Some([1, 1, 1]));
        assert_eq!(w.global_id(21), Some([5, 5, 1]));
    }

    #[test]
    fn a_walk_gives_the_grids_coordinates() {
        for (global, local, ws) in [
            ([100, 1, 1], [100, 1, 1], 32),
            ([10, 5, 3], [4, 4, 2], 8),
            ([7, 9, 4], [2, 3, 3], 4),
        ] {
            let g = Grid::new(global, local, ws).unwrap();
            let walk = g.walk();
            assert_eq!(walk.group_count(), g.group_count());
            for linear in 0..g.group_count() {
                let group = g.group_id(linear);
                assert_eq!(walk.group_id(linear), group);
                // The module doc's rules: waves of `ws` flat ids over the group's extent.
                let items: u32 = g.group_extent(group).iter().product();
                let listed: Vec<WaveCoord> = walk.waves(group).collect();
                assert_eq!(listed.len() as u32, items.div_ceil(ws));
                for (w, c) in listed.iter().enumerate() {
                    let first = w as u32 * ws;
                    assert_eq!((c.group, c.wave, c.first_item), (group, w as u32, first));
                    assert_eq!(c.lanes, (items - first).min(ws));
                    assert_eq!(c.waves_in_group, listed.len() as u32);
                    assert_eq!(c.groups, g.groups());
                }
            }
        }
    }

    #[test]
    fn filled_ids_are_the_lane_ids() {
        // Rows shorter than a wave, waves inside one row, waves crossing rows, partial groups.
        for (global, local, ws) in [
            ([6, 4, 6], [3, 4, 5], 32),
            ([100, 1, 1], [64, 1, 1], 32),
            ([80, 3, 1], [40, 2, 1], 16),
        ] {
            filled_ids_match(Grid::new(global, local, ws).unwrap());
        }
    }

    fn filled_ids_match(g: Grid) {
        for group in (0..g.group_count()).map(|i| g.group_id(i)) {
            for wave in 0..g.waves_in_group(group) {
                let w = g.wave(group, wave);
                let (mut x, mut y, mut z) = ([9; 32], [9; 32], [9; 32]);
                w.fill_local_ids(&mut x, &mut y, &mut z);
                for l in 0..32 {
                    let want = w.local_id(l).unwrap_or([9; 3]);
                    assert_eq!([x[l as usize], y[l as usize], z[l as usize]], want);
                }
            }
        }
    }

    #[test]
    fn linear_indices_round_trip() {
        let g = Grid::new([9, 7, 5], [2, 3, 2], 64).unwrap();
        for i in 0..g.group_count() {
            assert_eq!(g.linear_group(g.group_id(i)), i);
            assert_eq!(g.wave(g.group_id(i), 0).linear_group(), i);
        }
        let last = g.wave(g.group_id(g.group_count() - 1), g.waves_per_group() - 1);
        assert_eq!(last.dispatch_wave(), g.wave_slots() - 1);
    }

    #[test]
    fn bad_grids_are_refused() {
        assert!(matches!(
            Grid::new([0, 1, 1], [1, 1, 1], 64),
            Err(GridError::Zero { .. })
        ));
        assert!(matches!(
            Grid::new([2048, 1, 1], [1025, 1, 1], 64),
            Err(GridError::GroupTooLarge { items: 1025, .. })
        ));
        assert!(Grid::new([1, 1, 1], [1, 1, 1], 0).is_err());
        assert!(Grid::with_limit([64, 1, 1], [64, 1, 1], 64, 32).is_err());
    }
}
