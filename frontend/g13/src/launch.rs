//! The launch convention of a G13 compute dispatch (DESIGN.md "Launch conventions"; README
//! "Apple G13"): what each SIMD-group's registers hold when it starts.
//!
//! - Argument i is the 64-bit value in uniforms u(2i) (low half) and u(2i+1): a buffer's
//!   guest address, a 32-bit value zero-extended, or a 64-bit value. Arguments end below
//!   [`GRID_SIZE_UNIFORM`], so at most [`MAX_ARGS`] of them.
//! - u248, u249, u250 hold the threads per grid in x, y, z.
//! - Thread and threadgroup ids are read with `get_sr` ([`crate::lift`]'s `sr` module): the
//!   launch fills the `sr` and `tid` files with the threadgroup's position, size and extent,
//!   the SIMD-group's index and every lane's position in the threadgroup. SIMD-group k of a
//!   threadgroup holds its threads 32k..32k+31 in linear order, x fastest.
//! - The exec mask and the live mask are the lanes that hold threads; r0..r127 start at 0
//!   (so r0l, the exec-stack counter, starts at "active").
//! - Threadgroup memory is [`DEFAULT_THREADGROUP_BYTES`] unless the file says otherwise.

use crate::lift::state::{sr, G13Layout};
use wavejit_isa::{RegSink, WaveCoord, WaveInit};

/// The first uniform after the arguments: u248..u250 = threads per grid.
pub const GRID_SIZE_UNIFORM: u32 = 248;
/// Arguments that fit below the grid size.
pub const MAX_ARGS: usize = (GRID_SIZE_UNIFORM / 2) as usize;
/// Threadgroup memory of a dispatch whose file does not say (Apple's limit on M1).
pub const DEFAULT_THREADGROUP_BYTES: u32 = 32 << 10;

/// Every SIMD-group's start of one dispatch.
pub struct G13WaveInit {
    pub layout: G13Layout,
    /// Each argument's 64-bit value.
    pub args: Vec<u64>,
    pub threadgroup_bytes: u32,
}

impl WaveInit for G13WaveInit {
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String> {
        let l = &self.layout;
        if self.args.len() > MAX_ARGS {
            return Err(format!(
                "{} arguments; a G13 kernel takes at most {MAX_ARGS} (u0..u{})",
                self.args.len(),
                GRID_SIZE_UNIFORM - 1
            ));
        }
        if wave.wave_size != crate::lift::WAVE_SIZE {
            return Err(format!(
                "a G13 SIMD-group has 32 threads, not {}",
                wave.wave_size
            ));
        }
        for (i, &a) in self.args.iter().enumerate() {
            regs.set_uniform64(l.uniform(2 * i as u32), a);
        }
        regs.set_uniforms(l.uniform(GRID_SIZE_UNIFORM), &wave.global);
        regs.set_uniforms(l.sr(sr::GROUP), &wave.group);
        regs.set_uniforms(l.sr(sr::GROUP_SIZE), &wave.local);
        regs.set_uniforms(l.sr(sr::EXTENT), &wave.extent);
        regs.set_uniform(l.sr(sr::SIMDGROUP), wave.wave);
        regs.set_uniform(l.sr(sr::THREADGROUP_BYTES), self.threadgroup_bytes);
        regs.set_uniform64(l.exec(), wave.exec_mask());
        regs.set_uniform64(l.live(), wave.exec_mask());
        let ids = [0, 1, 2].map(|c| l.tid(c));
        if ids.iter().any(|&r| regs.observes_row(r)) {
            let n = crate::lift::WAVE_SIZE as usize;
            let mut rows = [[0u32; 32]; 3];
            let [x, y, z] = &mut rows;
            wave.fill_local_ids(&mut x[..n], &mut y[..n], &mut z[..n]);
            for (&reg, row) in ids.iter().zip(&rows) {
                regs.set_row(reg, &row[..n]);
            }
        }
        Ok(())
    }
}

/// What `get_sr` reads in a SIMD-group run alone (`wavejit wave`, fuzzing, the semantics
/// tests): SIMD-group 0 of threadgroup (0, 0, 0), 32 threads along x (lane l at thread
/// position (l, 0, 0)), with `threadgroup_bytes` of threadgroup memory.
pub fn lone_wave(layout: &G13Layout, threadgroup_bytes: u32, regs: &mut dyn RegSink) {
    let lanes = crate::lift::WAVE_SIZE;
    for c in 0..3 {
        let size = if c == 0 { lanes } else { 1 };
        regs.set_uniform(layout.sr(sr::GROUP_SIZE + c), size);
        regs.set_uniform(layout.sr(sr::EXTENT + c), size);
    }
    for lane in 0..lanes {
        regs.set_lane(layout.tid(0), lane, lane);
    }
    regs.set_uniform(layout.sr(sr::THREADGROUP_BYTES), threadgroup_bytes);
}
