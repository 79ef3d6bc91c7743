//! Random initial wave states, biased to the values where implementations disagree, and the
//! address patterns of the memory profile ([`Pattern`]).
use super::{
    Profile, ADDR_VGPR, BUFFER_BYTES, BUFFER_SGPR, GUARD_SGPR, HEADROOM, LANE_STRIDE,
    LDS_ADDR_VGPR, OFFSET_VGPR, PAIR_VGPR, RSRC_ABS_SGPR, RSRC_SGPR, SGPR_POOL, VGPR_POOL,
};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// VGPR rows an [`InitState`] describes (`v0..VGPR_ROWS`; the others start at zero).
pub const VGPR_ROWS: usize = 64;

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

    /// The state of `seed` for a program of `profile`: [`InitState::random`], and for the
    /// memory profile the offset rows of every [`Pattern`] and the guard mask (from a stream
    /// of their own, so the rest of the state is the one [`InitState::random`] gives).
    pub fn random_for(seed: u64, profile: Profile) -> InitState {
        let mut s = InitState::random(seed);
        if profile == Profile::Memory {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x3e30_0a11_0000_0000);
            let r = &mut rng;
            let guard = match r.gen_range(0..10) {
                0..=6 => r.gen::<u64>() | r.gen::<u64>(),
                7..=8 => r.gen(),
                _ => r.gen::<u64>() | r.gen::<u64>() | r.gen::<u64>(),
            };
            s.sgprs[GUARD_SGPR as usize] = guard as u32;
            s.sgprs[GUARD_SGPR as usize + 1] = (guard >> 32) as u32;
            for p in Pattern::ALL {
                s.vgprs[p.offset_vgpr() as usize] = p.offsets(r, guard);
            }
        }
        s
    }

    /// Points the reserved memory registers at a global buffer at `base`: the scalar base
    /// pair, each lane's own [`LANE_STRIDE`]-byte slot, each lane's LDS dword, the address
    /// pair of every [`Pattern`] (`base` plus the sign-extended offset of its row) and the
    /// two MUBUF resources.
    pub fn set_buffers(&mut self, base: u64) {
        self.sgprs[BUFFER_SGPR as usize] = base as u32;
        self.sgprs[BUFFER_SGPR as usize + 1] = (base >> 32) as u32;
        for l in 0..64 {
            let a = base + l as u64 * LANE_STRIDE as u64;
            self.vgprs[ADDR_VGPR as usize][l] = a as u32;
            self.vgprs[ADDR_VGPR as usize + 1][l] = (a >> 32) as u32;
            self.vgprs[LDS_ADDR_VGPR as usize][l] = 4 * l as u32;
            for p in Pattern::ALL {
                let off = self.vgprs[p.offset_vgpr() as usize][l] as i32 as i64 as u64;
                let a = base.wrapping_add(off);
                self.vgprs[p.pair_vgpr() as usize][l] = a as u32;
                self.vgprs[p.pair_vgpr() as usize + 1][l] = (a >> 32) as u32;
            }
        }
        // V#: BASE [47:0], STRIDE 0, NUM_RECORDS, then DST_SEL_XYZW = XYZW and a 32-bit
        // format in word 3 (only formatted accesses read it).
        let word3 = 4 | 5 << 3 | 6 << 6 | 7 << 9 | 4 << 12 | 4 << 15;
        let rsrc = [
            base as u32,
            (base >> 32) as u32 & 0xffff,
            BUFFER_BYTES,
            word3,
        ];
        let abs = [0, 0, 0, word3];
        for k in 0..4 {
            self.sgprs[RSRC_SGPR as usize + k] = rsrc[k];
            self.sgprs[RSRC_ABS_SGPR as usize + k] = abs[k];
        }
    }
}

/// The per-lane address shapes of the memory profile. Pattern `p`'s byte offsets (into the
/// buffer, or the LDS) are in `v[OFFSET_VGPR + p]` and its absolute addresses in the pair
/// `v[PAIR_VGPR + 2p]`. Every offset of the in-range patterns (all but [`Pattern::Edge`] and
/// the unguarded lanes of [`Pattern::Guarded`]) is at most `BUFFER_BYTES - HEADROOM`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// `4 * lane` from a base that puts the last lane at `BUFFER_BYTES - HEADROOM`: the JIT's
    /// consecutive-address path, whose span ends at the edge.
    Consecutive,
    /// `LANE_STRIDE * lane`: each lane's own slot, the last one ending at the buffer's end.
    Slot,
    /// One 8-byte aligned offset for every lane.
    Uniform,
    /// Random offsets per lane, aligned to 8, 4 or 1.
    Scattered,
    /// Scattered, with one to four lanes at the last bytes of the buffer, just past it, or
    /// far outside it.
    Edge,
    /// 8-byte aligned in range on the lanes of the guard mask ([`GUARD_SGPR`]), out of range
    /// on the others.
    Guarded,
    /// One to three 8-byte aligned offsets shared by every lane (atomic contention).
    Contended,
}

impl Pattern {
    pub const ALL: [Pattern; 7] = [
        Pattern::Consecutive,
        Pattern::Slot,
        Pattern::Uniform,
        Pattern::Scattered,
        Pattern::Edge,
        Pattern::Guarded,
        Pattern::Contended,
    ];

    /// The VGPR holding the pattern's byte offsets.
    pub fn offset_vgpr(self) -> u8 {
        OFFSET_VGPR + self as u8
    }

    /// The first VGPR of the pair holding the pattern's absolute addresses.
    pub fn pair_vgpr(self) -> u8 {
        PAIR_VGPR + 2 * self as u8
    }

    /// The pattern's 64 offsets; `guard` is the guard mask.
    fn offsets(self, r: &mut ChaCha8Rng, guard: u64) -> [u32; 64] {
        const TOP: u32 = BUFFER_BYTES - HEADROOM;
        let aligned = |r: &mut ChaCha8Rng, a: u32| r.gen_range(0..=TOP / a) * a;
        let scattered = |r: &mut ChaCha8Rng| {
            let a = *[8u32, 8, 4, 1].choose(r).unwrap_or(&8);
            aligned(r, a)
        };
        let mut out = [0u32; 64];
        match self {
            Pattern::Consecutive => {
                for (l, o) in out.iter_mut().enumerate() {
                    *o = TOP - 4 * (63 - l as u32);
                }
            }
            Pattern::Slot => {
                for (l, o) in out.iter_mut().enumerate() {
                    *o = LANE_STRIDE * l as u32;
                }
            }
            Pattern::Uniform => out = [aligned(r, 8); 64],
            Pattern::Scattered => out.iter_mut().for_each(|o| *o = scattered(r)),
            Pattern::Edge => {
                out.iter_mut().for_each(|o| *o = scattered(r));
                // The last bytes, just past the end, just before the start (-1, -4, -16:
                // in the buffer the fuzz harness places below, or a fault across the two),
                // and far away.
                const EDGES: [u32; 11] = [
                    BUFFER_BYTES - 1,
                    BUFFER_BYTES - 2,
                    BUFFER_BYTES - 4,
                    BUFFER_BYTES - 8,
                    BUFFER_BYTES,
                    BUFFER_BYTES + 1,
                    BUFFER_BYTES + 3,
                    u32::MAX,
                    u32::MAX - 3,
                    u32::MAX - 15,
                    0x8000_0000,
                ];
                for _ in 0..r.gen_range(1..=4) {
                    let l = r.gen_range(0..64);
                    out[l] = *EDGES.choose(r).unwrap_or(&BUFFER_BYTES);
                }
            }
            Pattern::Guarded => {
                const OUTSIDE: [u32; 5] = [
                    BUFFER_BYTES,
                    BUFFER_BYTES + 4,
                    0x8000_0000,
                    u32::MAX - 7,
                    0x10_0000,
                ];
                for (l, o) in out.iter_mut().enumerate() {
                    *o = if guard >> l & 1 != 0 {
                        aligned(r, 8)
                    } else {
                        *OUTSIDE.choose(r).unwrap_or(&BUFFER_BYTES)
                    };
                }
            }
            Pattern::Contended => {
                let n = r.gen_range(1..=3);
                let at: Vec<u32> = (0..n).map(|_| aligned(r, 8)).collect();
                out.iter_mut()
                    .for_each(|o| *o = *at.choose(r).unwrap_or(&0));
            }
        }
        out
    }
}
