//! An ISA's launch ABI as the dispatcher sees it: what each wave's registers hold when it
//! starts. The runtime calls [`WaveInit::init`] once per wave, with the wave's place in the
//! grid, and the ISA writes its registers (ids, argument addresses, exec mask) through a
//! [`RegSink`]; registers it does not write start at 0.

use crate::grid::WaveCoord;
use wavejit_ir::Reg;

/// Where a launch ABI writes a wave's initial registers (the runtime's wave state).
pub trait RegSink {
    /// Sets a uniform (wave-wide) register cell.
    fn set_uniform(&mut self, reg: Reg, value: u32);
    /// Sets one lane of a lane (per-lane) register row.
    fn set_lane(&mut self, reg: Reg, lane: u32, value: u32);

    /// Sets lanes `0..values.len()` of a lane register row.
    fn set_row(&mut self, reg: Reg, values: &[u32]) {
        for (lane, &v) in values.iter().enumerate() {
            self.set_lane(reg, lane as u32, v);
        }
    }

    /// Sets lanes `0..lanes` of a lane register row to `value`.
    fn fill_row(&mut self, reg: Reg, lanes: u32, value: u32) {
        for lane in 0..lanes {
            self.set_lane(reg, lane, value);
        }
    }

    /// Sets consecutive uniform cells from `reg` on to `values`.
    fn set_uniforms(&mut self, reg: Reg, values: &[u32]) {
        for (i, &v) in values.iter().enumerate() {
            self.set_uniform(reg.offset(i as u32), v);
        }
    }

    /// Sets two consecutive uniform cells to a 64-bit value, low half first.
    fn set_uniform64(&mut self, reg: Reg, value: u64) {
        self.set_uniform(reg, value as u32);
        self.set_uniform(reg.offset(1), (value >> 32) as u32);
    }

    /// Whether the function the registers are for can observe lane register `reg`'s
    /// initial row: a sink may drop the rows it does not observe, so an initialiser may skip
    /// computing them.
    fn observes_row(&self, reg: Reg) -> bool {
        let _ = reg;
        true
    }
}

/// The initial register state of every wave of a launch.
pub trait WaveInit: Sync {
    /// Writes the initial registers of `wave`; an error (one line) stops the dispatch.
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String>;
}

impl<F> WaveInit for F
where
    F: Fn(&WaveCoord, &mut dyn RegSink) -> Result<(), String> + Sync,
{
    fn init(&self, wave: &WaveCoord, regs: &mut dyn RegSink) -> Result<(), String> {
        self(wave, regs)
    }
}
