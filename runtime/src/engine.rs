//! The engine interface: what the dispatcher needs from the interpreter and the JIT.

use crate::error::{ExecError, Fault};
use crate::memory::GuestMemory;
use crate::wave::WaveState;
use std::sync::Arc;
use wavejit_ir::{Block, BlockData, Function};

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

/// What a run of chained blocks ([`Program::run_chain`]) may spend and has spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Fuel left: a block costs its `guest_insts`, at least 1.
    pub fuel: u64,
    /// Blocks the run may start.
    pub blocks: u32,
    /// Spent so far: fuel, blocks run, and their guest instructions.
    pub fuel_spent: u64,
    pub blocks_run: u32,
    pub guest_insts: u64,
}

impl Budget {
    /// The fuel running `block` costs: its guest instructions, at least 1 (a block of none
    /// still takes a step, so an endless loop of empty blocks runs out of fuel).
    #[inline]
    pub fn cost(block: &BlockData) -> u64 {
        u64::from(block.guest_insts.max(1))
    }

    /// Whether the budget covers `block` (cost and one more block); if it does, charges it.
    /// (Inlined into the engines' chain loops, which call it once per block.)
    #[inline]
    pub fn charge(&mut self, block: &BlockData) -> bool {
        let cost = Self::cost(block);
        if self.blocks_run >= self.blocks || self.fuel_spent + cost > self.fuel {
            return false;
        }
        self.fuel_spent += cost;
        self.blocks_run += 1;
        self.guest_insts += u64::from(block.guest_insts);
        true
    }
}

/// A function prepared by an engine; shared by every thread of a dispatch.
pub trait Program: Send + Sync {
    /// Runs one block of one wave.
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault>;

    /// Runs blocks of one wave from `block` (of `blocks`, the function's) while each jumps
    /// to the next, charging each to `budget` before it runs ([`Budget::charge`]). Returns
    /// the first barrier or return, or `Jump(b)` for the first block `b` that does not exist
    /// or that the budget does not cover (the caller decides what that means: an error, a
    /// look at the clock, more fuel). A fault stops the run with the faulting block charged.
    /// The default calls [`Self::run_block`] per block; an engine may chain with less work
    /// per block, with the same results.
    fn run_chain(
        &self,
        blocks: &[BlockData],
        block: Block,
        ctx: &mut WaveCtx<'_>,
        budget: &mut Budget,
    ) -> Result<BlockExit, Fault> {
        chain(blocks, block, budget, |b, _| self.run_block(b, ctx))
    }
}

/// The rules of [`Program::run_chain`], with `step` running one block (given its index and
/// data): each block is charged before it runs, a jump continues the chain, anything else
/// (and a block that does not exist or that the budget does not cover) ends it.
#[inline]
pub fn chain(
    blocks: &[BlockData],
    mut block: Block,
    budget: &mut Budget,
    mut step: impl FnMut(Block, &BlockData) -> Result<BlockExit, Fault>,
) -> Result<BlockExit, Fault> {
    loop {
        let data = match blocks.get(block.index()) {
            Some(data) if budget.charge(data) => data,
            _ => return Ok(BlockExit::Jump(block)),
        };
        match step(block, data)? {
            BlockExit::Jump(b) => block = b,
            other => return Ok(other),
        }
    }
}

/// An execution engine (the reference interpreter or the JIT).
pub trait Engine: Send + Sync {
    fn name(&self) -> &'static str;
    /// Prepares a verified function for execution.
    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError>;
}
