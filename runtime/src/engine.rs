//! The engine interface: what the dispatcher needs from the interpreter and the JIT.

use crate::error::{ExecError, Fault};
use crate::memory::GuestMemory;
use crate::wave::WaveState;
use std::sync::Arc;
use wavejit_ir::{Block, Function};

/// Everything a block may touch while it runs, lent by the dispatcher for one block.
pub struct WaveCtx<'a> {
    pub state: &'a mut WaveState,
    /// Device memory (shared by every workgroup; accesses are checked).
    pub mem: &'a GuestMemory,
    /// The workgroup's LDS (shared by its waves, which run one at a time).
    pub lds: &'a mut [u8],
    /// The wave's private memory: lane `l` owns `private[l * private_lane_bytes ..][.. private_lane_bytes]`.
    pub private: &'a mut [u8],
    pub private_lane_bytes: u32,
    /// The buffers the wave's global accesses last hit (kept by the caller across blocks and
    /// waves).
    pub hints: &'a mut MemHints,
}

/// Guest buffers that global memory instructions last touched, one per hint slot, for an
/// engine that checks accesses without a call (the JIT; the interpreter ignores them). A
/// slot holds the bounds `[start, end)` (guest addresses) of one buffer of the wave's
/// [`GuestMemory`], or `[0, 0)`: it is only ever set to a real buffer's bounds, so an access
/// inside a slot's range is inside that buffer, and a stale or empty slot only sends an
/// access to the exact path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct MemHints(pub [[u64; 2]; MemHints::SLOTS]);

impl Default for MemHints {
    fn default() -> MemHints {
        MemHints([[0; 2]; MemHints::SLOTS])
    }
}

impl MemHints {
    /// Slots (memory instructions share them by index).
    pub const SLOTS: usize = 256;
}

/// Where a block sends the wave next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockExit {
    Jump(Block),
    /// Wait at the workgroup barrier, then continue at the block.
    Barrier(Block),
    Return,
}

/// A function prepared by an engine; shared by every thread of a dispatch.
pub trait Program: Send + Sync {
    /// Runs one block of one wave.
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault>;
}

/// An execution engine (the reference interpreter or the JIT).
pub trait Engine: Send + Sync {
    fn name(&self) -> &'static str;
    /// Prepares a verified function for execution.
    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError>;
}
