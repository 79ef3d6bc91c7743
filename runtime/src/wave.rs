//! The state of one wave and the per-value storage engines share.

use std::sync::Arc;
use wavejit_ir::{Reg, StateLayout};

/// Storage of one IR value over a wave: a lane value uses entries `0..wave_size`, a uniform
/// value entry 0 only. Entries hold the value's bits zero-extended (a mask: 0 or 1 per lane).
/// This is the exchange format between the interpreter, the JIT's wave-op helpers and
/// [`crate::effects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Lanes(pub [u64; 64]);

impl Default for Lanes {
    fn default() -> Self {
        Lanes([0; 64])
    }
}

/// Guest register state of one wave, laid out as [`StateLayout`] describes.
#[derive(Clone, Debug)]
pub struct WaveState {
    pub layout: Arc<StateLayout>,
    /// 8-byte aligned backing store of `layout.state_bytes()` bytes.
    words: Vec<u64>,
}

impl WaveState {
    pub fn new(layout: Arc<StateLayout>) -> WaveState {
        let words = vec![0u64; layout.state_bytes().div_ceil(8)];
        WaveState { layout, words }
    }

    pub fn wave_size(&self) -> u32 {
        self.layout.wave_size
    }

    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.words.as_mut_ptr() as *mut u8
    }

    fn cell(&self, byte_off: usize) -> u32 {
        let w = self.words[byte_off / 8];
        (w >> ((byte_off % 8) * 8)) as u32
    }

    fn set_cell(&mut self, byte_off: usize, v: u32) {
        let w = &mut self.words[byte_off / 8];
        let sh = (byte_off % 8) * 8;
        *w = (*w & !(0xffff_ffffu64 << sh)) | ((v as u64) << sh);
    }

    /// A uniform cell.
    pub fn uniform(&self, reg: Reg) -> u32 {
        self.cell(self.layout.uniform_cell_offset(reg))
    }

    pub fn set_uniform(&mut self, reg: Reg, v: u32) {
        let off = self.layout.uniform_cell_offset(reg);
        self.set_cell(off, v)
    }

    /// One lane of a lane cell.
    pub fn lane(&self, reg: Reg, lane: u32) -> u32 {
        self.cell(self.layout.lane_cell_offset(reg, lane))
    }

    pub fn set_lane(&mut self, reg: Reg, lane: u32, v: u32) {
        let off = self.layout.lane_cell_offset(reg, lane);
        self.set_cell(off, v)
    }

    /// The raw bytes (for comparisons between engines).
    pub fn bytes(&self) -> &[u8] {
        let n = self.layout.state_bytes();
        // SAFETY: `words` holds at least `n` initialised bytes; u64 -> u8 view is always valid.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr() as *const u8, n) }
    }
}
