//! Random starting states of a lone wave: temps, the indexed temp array, the exec mask, the
//! work-group, the constant buffer, the arena and the LDS.

use super::{
    ADDRESS_TEMP, ARENA_BYTES, ARENA_MASK, ARRAY_ELEMENTS, CB_ELEMENTS, COUNTER_TEMP, LANES,
    LDS_BYTES, LDS_MASK, MAX_TRIPS, PATTERN_TEMP, TEMPS,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_isa::edges::edge_cell;

/// Work-group shapes of at least one wave of work-items (the wave is the group's first).
const GROUP_SIZES: [[u32; 3]; 6] = [
    [64, 1, 1],
    [8, 8, 1],
    [4, 4, 4],
    [16, 2, 2],
    [32, 4, 1],
    [256, 1, 1],
];

/// What a random wave starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitialState {
    /// `temps[4 * n + c][lane]`: component `c` of `r{n}`, for `r0`..`r{TEMPS - 1}`.
    pub temps: Vec<[u32; LANES]>,
    /// `array[4 * e + c][lane]`: component `c` of element `e` of `x0`.
    pub array: Vec<[u32; LANES]>,
    pub exec: u64,
    /// The work-group's id, its size and the number of groups of the dispatch.
    pub group_id: [u32; 3],
    pub group_size: [u32; 3],
    pub groups: [u32; 3],
    /// `cb0`'s dwords.
    pub cb: Vec<u32>,
    pub arena: Vec<u8>,
    pub lds: Vec<u8>,
}

/// An exec mask with a lane in the first 32 (a 32-lane wave takes the low half).
fn exec_mask(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..10) {
        0..=2 => u64::MAX,
        3..=5 => rng.gen::<u64>() | 1 << rng.gen_range(0..32),
        6 => u64::from(u32::MAX),
        7 => 0xffff_0000_ffff_0000,
        8 => 1 << rng.gen_range(0..32),
        _ => u64::MAX >> rng.gen_range(1..64),
    }
}

fn bytes(rng: &mut ChaCha8Rng, n: u32) -> Vec<u8> {
    (0..n / 4)
        .flat_map(|_| edge_cell(rng).to_le_bytes())
        .collect()
}

impl InitialState {
    /// The state of `seed`.
    pub fn random(seed: u64) -> InitialState {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_11a7_e000_0000);
        let r = &mut rng;
        let mut temps = vec![[0u32; LANES]; 4 * TEMPS as usize];
        for (cell, row) in temps.iter_mut().enumerate() {
            let (n, c) = (cell as u32 / 4, cell as u32 % 4);
            for (lane, v) in row.iter_mut().enumerate() {
                let l = lane as u32;
                *v = match n {
                    PATTERN_TEMP => [l, 4 * l, l & 7, LANES as u32 - 1 - l][c as usize],
                    COUNTER_TEMP => r.gen_range(0..MAX_TRIPS),
                    ADDRESS_TEMP if c == 0 => r.gen::<u32>() & ARENA_MASK,
                    ADDRESS_TEMP if c == 1 => r.gen::<u32>() & LDS_MASK,
                    _ => edge_cell(r),
                };
            }
            if n != PATTERN_TEMP && r.gen_range(0..5) == 0 {
                // A uniform row now and then: compares and selects then agree across lanes.
                *row = [row[0]; LANES];
            }
        }
        let array = (0..4 * ARRAY_ELEMENTS)
            .map(|_| [0; LANES].map(|_| edge_cell(r)))
            .collect();
        let group_size = GROUP_SIZES[r.gen_range(0..GROUP_SIZES.len())];
        let groups = [0; 3].map(|_| r.gen_range(1..=4));
        let group_id = groups.map(|n| r.gen_range(0..n));
        InitialState {
            temps,
            array,
            exec: exec_mask(r),
            group_id,
            group_size,
            groups,
            cb: (0..4 * CB_ELEMENTS).map(|_| edge_cell(r)).collect(),
            arena: bytes(r, ARENA_BYTES),
            lds: bytes(r, LDS_BYTES),
        }
    }

    /// `vTidInGrp` of `lane`: the wave is the group's first, lane `l` its work-item `l`.
    pub fn tid(&self, lane: u32) -> [u32; 3] {
        let [x, y, _] = self.group_size;
        [lane % x, lane / x % y, lane / (x * y)]
    }
}
