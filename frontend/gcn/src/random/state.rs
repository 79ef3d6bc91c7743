//! Random initial wave states, biased to the values where implementations disagree.
use super::{ADDR_VGPR, BUFFER_SGPR, LANE_STRIDE, LDS_ADDR_VGPR, SGPR_POOL, VGPR_POOL};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// VGPR rows an [`InitState`] describes (`v0..VGPR_ROWS`; the others start at zero).
pub const VGPR_ROWS: usize = 48;

/// A random 32-bit value: an edge pattern, a small integer, or random bits (the one set of
/// edge values every ISA draws from, [`wavejit_isa::edges`]).
pub fn edge_value(rng: &mut ChaCha8Rng) -> u32 {
    wavejit_isa::edges::edge_cell(rng)
}

/// The registers and MODE a random program starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InitState {
    /// `s0..s103`.
    pub sgprs: Vec<u32>,
    /// `v0..v[VGPR_ROWS-1]`, 64 lanes each.
    pub vgprs: Vec<[u32; 64]>,
    pub exec: u64,
    pub vcc: u64,
    pub scc: bool,
    pub m0: u32,
    /// MODE bits `[7:0]`: rounding `[3:0]`, denormals `[7:4]` (COMPUTE_PGM_RSRC1.FLOAT_MODE).
    pub float_mode: u8,
    pub ieee_mode: bool,
    pub dx10_clamp: bool,
}

fn mask64(rng: &mut ChaCha8Rng) -> u64 {
    match rng.gen_range(0..20) {
        0..=6 => u64::MAX,
        7 => 0,
        8..=9 => 1 << rng.gen_range(0..64),
        10 => u32::MAX as u64,
        11 => 0x5555_5555_5555_5555,
        12 => 0xffff_ffff_0000_0000,
        _ => rng.gen(),
    }
}

impl InitState {
    /// The state of `seed`.
    pub fn random(seed: u64) -> InitState {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_57a7_e000_0000);
        let r = &mut rng;
        let mut sgprs = vec![0u32; 104];
        for s in sgprs.iter_mut().take(SGPR_POOL as usize) {
            *s = edge_value(r);
        }
        let mut vgprs = vec![[0u32; 64]; VGPR_ROWS];
        for row in vgprs.iter_mut().take(VGPR_POOL as usize) {
            if r.gen_bool(0.2) {
                *row = [edge_value(r); 64];
            } else {
                for v in row.iter_mut() {
                    *v = edge_value(r);
                }
            }
        }
        // Mostly small: M0 indexes v_movrel*/s_movrel* (a large M0 faults at the first one).
        let m0 = match r.gen_range(0..20) {
            0..=13 => r.gen_range(0..16),
            14..=16 => u32::MAX,
            _ => r.gen(),
        };
        let denorm = *[0x0u8, 0x3, 0xc, 0xf].choose(r).unwrap_or(&0xf);
        let round = if r.gen_bool(0.85) {
            0
        } else {
            r.gen_range(0..16)
        };
        InitState {
            sgprs,
            vgprs,
            exec: mask64(r),
            vcc: mask64(r),
            scc: r.gen(),
            m0,
            float_mode: denorm << 4 | round,
            ieee_mode: r.gen(),
            dx10_clamp: r.gen(),
        }
    }

    /// Points the reserved memory registers at a global buffer at `base`: the scalar base
    /// pair, each lane's own [`LANE_STRIDE`]-byte slot, and each lane's LDS dword.
    pub fn set_buffers(&mut self, base: u64) {
        self.sgprs[BUFFER_SGPR as usize] = base as u32;
        self.sgprs[BUFFER_SGPR as usize + 1] = (base >> 32) as u32;
        for l in 0..64 {
            let a = base + l as u64 * LANE_STRIDE as u64;
            self.vgprs[ADDR_VGPR as usize][l] = a as u32;
            self.vgprs[ADDR_VGPR as usize + 1][l] = (a >> 32) as u32;
            self.vgprs[LDS_ADDR_VGPR as usize][l] = 4 * l as u32;
        }
    }
}
