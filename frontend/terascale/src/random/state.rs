//! Random initial wave states, biased to the values where implementations disagree: NaN
//! payloads (quiet and signalling, both signs), -0, denormals, infinities, integer edges and
//! double halves, a partial active mask, constant buffer contents for the kcache and the
//! fetches, and the pool, LDS and GDS contents the memory instructions read and write.
use super::{CONST_BUFFERS, GDS_WINDOW, KCACHE_LINES, LANE_GPR, LANE_SPAN, LDS_BYTES, POOL_BYTES};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// GPR rows an [`InitialState`] gives values (`R0..GPR_ROWS`: the random pool and the loop
/// counters); the others start at zero.
pub const GPR_ROWS: u32 = 40;
/// Dwords of every constant buffer: the kcache lines a lock may name (LOCK_2 of the last
/// line reads one more), 16 constants of four dwords each.
pub const CB_DWORDS: usize = (KCACHE_LINES as usize + 1) * 16 * 4;

/// The largest value of each lane pattern channel of `R[LANE_GPR]` (x, y, z, w; see
/// [`InitialState::set_lane_patterns`]).
pub const LANE_TOPS: [u32; 4] = [63, 252, LANE_SPAN, 252];

/// A 2D texture the fuzz harness binds (one level, linear aligned), in the resource layout
/// of lift/tex's module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Texture {
    pub width: u32,
    pub height: u32,
    /// Texels per row (PITCH: a multiple of 8).
    pub pitch: u32,
    /// DATA_FORMAT (FMT_8_8_8_8, FMT_32_32_32_32_FLOAT).
    pub format: u32,
    pub texel_bytes: u32,
}

impl Texture {
    /// Bytes of the texture's level 0.
    pub fn bytes(&self) -> u32 {
        self.pitch * self.height * self.texel_bytes
    }

    /// SQ_TEX_RESOURCE_WORD0-7 of the texture at guest address `base` (256-byte aligned):
    /// DIM 1 (2D), ARRAY_LINEAR_ALIGNED, identity DST_SEL, unsigned NORM, one level, TYPE 2.
    pub fn resource_words(&self, base: u64) -> [u32; 8] {
        [
            1 | (self.pitch / 8 - 1) << 6 | (self.width - 1) << 18,
            (self.height - 1) | 1 << 28,
            (base >> 8) as u32,
            (base >> 8) as u32,
            1 << 19 | 2 << 22 | 3 << 25,
            0,
            0,
            self.format | 2 << 30,
        ]
    }
}

/// The textures of resource slots 0 and 1.
pub const TEXTURES: [Texture; 2] = [
    Texture {
        width: 8,
        height: 8,
        pitch: 8,
        format: 26,
        texel_bytes: 4,
    },
    Texture {
        width: 5,
        height: 3,
        pitch: 8,
        format: 35,
        texel_bytes: 16,
    },
];

/// SQ_TEX_SAMPLER_WORD0-2 and the border colour of sampler slots 0-2: point sampling with
/// WRAP; bilinear with CLAMP_LAST_TEXEL and point mips; bilinear with MIRROR on x and
/// CLAMP_BORDER (register colour, BORDER_COLOR_TYPE 3) on y.
pub const SAMPLERS: [[u32; 8]; 3] = [
    [0, 0, 0, 0, 0, 0, 0, 0],
    [
        2 | 2 << 3 | 2 << 6 | 1 << 9 | 1 << 11 | 1 << 15,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ],
    [
        1 | 6 << 3 | 1 << 9 | 1 << 11 | 3 << 20,
        0,
        0,
        0,
        0x3f80_0000,
        0x3f00_0000,
        0,
        0x3f80_0000,
    ],
];

/// A random 32-bit value: an edge pattern, a small integer, or random bits (the one set of
/// edge values every ISA draws from, [`wavejit_isa::edges`]).
pub fn edge_value(rng: &mut ChaCha8Rng) -> u32 {
    wavejit_isa::edges::edge_cell(rng)
}

/// What a wave starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitialState {
    /// Lanes of the wave (64, or 32 on cedar).
    pub lanes: u32,
    /// `gprs[4 * n + chan][lane]` for `n < GPR_ROWS` (the `r` file's cell numbering).
    pub gprs: Vec<Vec<u32>>,
    /// Lanes that run (bit `l` = lane `l`; never bits at or above `lanes`).
    pub active: u64,
    /// Constant buffer `b`'s dwords (`CONST_BUFFERS` buffers of [`CB_DWORDS`]).
    pub const_buffers: Vec<Vec<u32>>,
    /// The pool buffer's dwords ([`POOL_BYTES`] bytes: fetch buffer 1 and RAT 0).
    pub pool: Vec<u32>,
    /// The LDS's dwords ([`LDS_BYTES`] bytes).
    pub lds: Vec<u32>,
    /// The first [`GDS_WINDOW`] bytes of GDS (the rest starts at zero).
    pub gds: Vec<u32>,
    /// The texels of the harness's textures ([`TEXTURES`]), one dword list per texture.
    pub texels: Vec<Vec<u32>>,
}

impl InitialState {
    /// The state of `seed` for a wave of `lanes` (at most 64) lanes.
    pub fn random(seed: u64, lanes: u32) -> InitialState {
        let lanes = lanes.clamp(1, 64);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7e4a_5ca1_e000_0000);
        let r = &mut rng;
        let mut gprs = Vec::with_capacity(4 * GPR_ROWS as usize);
        for _ in 0..4 * GPR_ROWS {
            let row: Vec<u32> = if r.gen_bool(0.2) {
                vec![edge_value(r); lanes as usize]
            } else {
                (0..lanes).map(|_| edge_value(r)).collect()
            };
            gprs.push(row);
        }
        let all = if lanes == 64 {
            u64::MAX
        } else {
            (1u64 << lanes) - 1
        };
        let active = match r.gen_range(0..10) {
            0..=4 => all,
            5 => 1,
            6 => 0x5555_5555_5555_5555 & all,
            7 => all >> (lanes / 2),
            _ => (r.gen::<u64>() & all) | 1,
        };
        let const_buffers = (0..CONST_BUFFERS)
            .map(|_| (0..CB_DWORDS).map(|_| edge_value(r)).collect())
            .collect();
        let pool = (0..POOL_BYTES / 4).map(|_| edge_value(r)).collect();
        let lds = (0..LDS_BYTES / 4).map(|_| edge_value(r)).collect();
        let gds = (0..GDS_WINDOW / 4).map(|_| edge_value(r)).collect();
        let texels = TEXTURES
            .iter()
            .map(|t| (0..t.bytes() / 4).map(|_| edge_value(r)).collect())
            .collect();
        InitialState {
            lanes,
            gprs,
            active,
            const_buffers,
            pool,
            lds,
            gds,
            texels,
        }
    }

    /// Memory profile: writes the lane patterns of the module doc of [`super`] to the
    /// channels of `R[LANE_GPR]` (from a stream of their own, so the rest of the state is the
    /// one [`InitialState::random`] gives). Every value of channel `c` is at most
    /// `LANE_TOPS[c]`; x and y reach it on the last lane, z on one to three random lanes and w
    /// on every lane sharing the top offset when it is one of the shared ones. x counts lanes
    /// from the top (`lane + 64 - lanes`), so a wave32 reaches the same top.
    pub fn set_lane_patterns(&mut self, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x1a4e_9a77_e000_0000);
        let r = &mut rng;
        let lanes = self.lanes as usize;
        let x: Vec<u32> = (0..lanes).map(|l| (l + 64 - lanes) as u32).collect();
        let y: Vec<u32> = x.iter().map(|v| 4 * v).collect();
        let mut z: Vec<u32> = (0..lanes)
            .map(|_| {
                let align = *[4u32, 4, 4, 2, 1].choose(r).unwrap_or(&4);
                r.gen_range(0..=LANE_TOPS[2] / align) * align
            })
            .collect();
        for _ in 0..r.gen_range(1..=3) {
            z[r.gen_range(0..lanes)] = LANE_TOPS[2];
        }
        let mut shared: Vec<u32> = (0..r.gen_range(1..=3))
            .map(|_| 4 * r.gen_range(0..=LANE_TOPS[3] / 4))
            .collect();
        if r.gen_bool(0.5) {
            shared[0] = LANE_TOPS[3];
        }
        let w: Vec<u32> = (0..lanes)
            .map(|_| *shared.choose(r).unwrap_or(&0))
            .collect();
        for (c, row) in [x, y, z, w].into_iter().enumerate() {
            self.gprs[4 * LANE_GPR as usize + c] = row;
        }
    }

    /// Channel `chan` of `R[n]` in `lane`.
    pub fn gpr(&self, n: u32, chan: u32, lane: u32) -> u32 {
        self.gprs
            .get((4 * n + chan) as usize)
            .and_then(|row| row.get(lane as usize))
            .copied()
            .unwrap_or(0)
    }

    /// The little-endian bytes of the pool buffer.
    pub fn pool_bytes(&self) -> Vec<u8> {
        self.pool.iter().flat_map(|d| d.to_le_bytes()).collect()
    }

    /// The little-endian bytes of the LDS.
    pub fn lds_bytes(&self) -> Vec<u8> {
        self.lds.iter().flat_map(|d| d.to_le_bytes()).collect()
    }

    /// The little-endian bytes of the GDS window.
    pub fn gds_bytes(&self) -> Vec<u8> {
        self.gds.iter().flat_map(|d| d.to_le_bytes()).collect()
    }

    /// The little-endian bytes of constant buffer `bank` (for guest memory).
    pub fn const_buffer_bytes(&self, bank: usize) -> Vec<u8> {
        self.const_buffers
            .get(bank)
            .map(|b| b.iter().flat_map(|d| d.to_le_bytes()).collect())
            .unwrap_or_default()
    }
}
