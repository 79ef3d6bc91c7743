//! A prepared function: compiled blocks plus the glue that runs them.
//!
//! Tier-up: each block counts its tier-1 executions in a relaxed atomic shared by every thread
//! running the program. The execution that makes the count equal the threshold (exactly one,
//! as `fetch_add` hands out distinct counts) recompiles the block at tier 2 and publishes the
//! code in a `OnceLock`, which later executions on any thread read without locking. Executions
//! racing with the recompile keep running tier 1; the count stops at the threshold, so a block
//! whose recompile failed stays at tier 1 without retrying.

use crate::compile::{CompiledBlock, Tier};
use crate::ctx::{exit, JitCtx};
use crate::host_float::Scope;
use crate::{Keys, Shared};
use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::resume_unwind;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, OnceLock};
use wavejit_ir::{Block, BlockData, Function, Terminator};
use wavejit_runtime::interp::{fault_kind, terminator_pc};
use wavejit_runtime::{BlockExit, Budget, Fault, FaultKind, Lanes, Program, WaveCtx};

thread_local! {
    /// Scratch slots of the block running on this thread (blocks never nest).
    static SCRATCH: RefCell<Vec<Lanes>> = const { RefCell::new(Vec::new()) };
}

/// The code of one block at its tiers.
struct BlockCode {
    /// The code `prepare` chose (tier 1, or tier 2 found in the cache or forced).
    first: Arc<CompiledBlock>,
    /// Tier-2 code (of the block's trace) once published.
    hot: OnceLock<Arc<CompiledBlock>>,
    /// Executions of `first` so far, up to the tier-up threshold.
    runs: AtomicU32,
}

pub(crate) struct JitProgram {
    func: Arc<Function>,
    blocks: Vec<BlockCode>,
    tier_up_after: Option<u32>,
    /// Guest pc -> block, for `JumpIndirect`.
    by_pc: HashMap<u64, Block>,
    /// Keeps the code memory alive and compiles tier-2 code.
    shared: Arc<Shared>,
    /// The cache keys of `func`'s blocks, for tier-up.
    keys: Keys,
    /// `func.layout.state_bytes()`, computed once (it walks the register files).
    state_bytes: usize,
    /// The most scratch slots a block's code uses (both tiers plan a block alike, and a
    /// trace uses its blocks' most).
    max_slots: u32,
}

impl JitProgram {
    pub fn new(
        func: Arc<Function>,
        keys: Keys,
        blocks: Vec<Arc<CompiledBlock>>,
        shared: Arc<Shared>,
    ) -> JitProgram {
        let mut by_pc = HashMap::new();
        for (i, b) in func.blocks.iter().enumerate() {
            if let Some(pc) = b.guest_pc {
                by_pc.entry(pc).or_insert(Block(i as u32));
            }
        }
        let max_slots = blocks.iter().map(|b| b.n_slots).max().unwrap_or(0);
        let blocks = blocks
            .into_iter()
            .map(|first| {
                let hot = OnceLock::new();
                if first.tier == Tier::Two {
                    let _ = hot.set(first.clone());
                }
                BlockCode {
                    first,
                    hot,
                    runs: AtomicU32::new(0),
                }
            })
            .collect();
        JitProgram {
            state_bytes: func.layout.state_bytes(),
            max_slots,
            func,
            blocks,
            tier_up_after: shared.opts.tier_up_after,
            by_pc,
            shared,
            keys,
        }
    }

    /// The code to run for this execution of a block, tiering it up when it reaches the
    /// threshold.
    fn code<'a>(&'a self, block: Block, slot: &'a BlockCode) -> &'a CompiledBlock {
        if let Some(hot) = slot.hot.get() {
            return hot;
        }
        let Some(after) = self.tier_up_after else {
            return &slot.first;
        };
        // Past the threshold another execution is recompiling (or failed to): do not count.
        if slot.runs.load(Ordering::Relaxed) >= after
            || slot.runs.fetch_add(1, Ordering::Relaxed).wrapping_add(1) != after
        {
            return &slot.first;
        }
        match self.shared.tier_up(&self.func, &self.keys, block) {
            Some(code) => slot.hot.get_or_init(|| code),
            None => &slot.first,
        }
    }
}

fn fault(kind: FaultKind, pc: u32) -> Fault {
    Fault {
        kind,
        pc,
        lane: None,
        addr: None,
    }
}

/// The fault for a block the program does not have, in the interpreter's wording, so both
/// engines report the same fault.
fn missing(block: Block) -> Fault {
    fault(
        FaultKind::Trap(format!(
            "malformed IR: {block} is not a block of the function"
        )),
        0,
    )
}

impl JitProgram {
    /// Memory safety needs only the size and the wave size the code was compiled for. A
    /// wave state holds exactly `layout.state_bytes()` bytes (a multiple of 8), so its cell
    /// count gives the size without walking the layout's files.
    fn check_layout(&self, ctx: &WaveCtx<'_>) -> Result<(), Fault> {
        if ctx.state.wave_size() != self.func.layout.wave_size
            || ctx.state.cells().len() * 4 != self.state_bytes
        {
            return Err(fault(
                FaultKind::Trap("wave state layout differs from the program's".into()),
                0,
            ));
        }
        Ok(())
    }

    /// The context compiled code runs with, for the wave of `ctx` (its scratch pointer is set
    /// by the caller, its block and budget by [`Self::call`]).
    fn context(&self, ctx: &mut WaveCtx<'_>, data: &BlockData) -> JitCtx {
        let wave: *mut WaveCtx<'_> = ctx;
        // SAFETY (the fields below): `wave` is the live `&mut WaveCtx` of the caller.
        let lds: &mut [u8] = unsafe { &mut *(*wave).lds };
        let (lds, lds_len) = (lds.as_mut_ptr(), lds.len() as u64);
        let private: &mut [u8] = unsafe { &mut *(*wave).private };
        let private_lane_bytes = u64::from(unsafe { (*wave).private_lane_bytes });
        // A segment layout the private area does not hold would let code address past it:
        // then no lane owns a byte, and every private access takes the exact path.
        let ws = unsafe { (*wave).state.wave_size() } as u64;
        let private_lane_bytes = if private_lane_bytes * ws <= private.len() as u64 {
            private_lane_bytes
        } else {
            0
        };
        JitCtx {
            state: unsafe { (*wave).state.as_mut_ptr() },
            scratch: std::ptr::null_mut(),
            indirect_pc: 0,
            global_base: unsafe { (*wave).mem.host_base() },
            lds,
            lds_len,
            hints: unsafe { (*wave).hints.0.as_mut_ptr() },
            private: private.as_mut_ptr(),
            private_lane_bytes,
            block: data,
            blocks: self.func.blocks.as_ptr(),
            fuel_left: 0,
            blocks_left: 0,
            trace_insts: 0,
            wave: wave.cast(),
            fault: None,
            panic: None,
        }
    }

    /// Runs `f` with this thread's scratch area grown to `slots` slots.
    fn with_scratch<T>(slots: u32, f: impl FnOnce(*mut Lanes) -> T) -> T {
        SCRATCH.with(|s| {
            let mut scratch = s.borrow_mut();
            if scratch.len() < slots as usize {
                scratch.resize(slots as usize, Lanes::default());
            }
            f(scratch.as_mut_ptr())
        })
    }

    /// Runs `code`, block `data`'s (charged already), with `jc`, whose scratch area holds
    /// `capacity` slots, and decodes its exit. A trace goes on to further blocks while
    /// `budget` covers them and charges them to it; without a budget it runs `data` only.
    #[inline(always)]
    fn call(
        &self,
        code: &CompiledBlock,
        data: &BlockData,
        jc: &mut JitCtx,
        capacity: u32,
        budget: Option<&mut Budget>,
    ) -> Result<BlockExit, Fault> {
        if code.n_slots > capacity {
            return Err(fault(
                FaultKind::Trap("JIT code needs more scratch slots than planned".into()),
                0,
            ));
        }
        jc.block = data;
        let (fuel, blocks) = match &budget {
            Some(b) => (
                b.fuel.saturating_sub(b.fuel_spent),
                u64::from(b.blocks.saturating_sub(b.blocks_run)),
            ),
            None => (0, 0),
        };
        (jc.fuel_left, jc.blocks_left, jc.trace_insts) = (fuel, blocks, 0);
        // SAFETY: the code was compiled for this block (and its trace, of this function's
        // blocks, which `jc.blocks` points at) and this state layout (the callers check
        // it); the scratch area has the slots it was planned with (code without slots never
        // reads the pointer); helpers reach the wave context only through `jc.wave`, while
        // the caller's frame does not touch it.
        let w = {
            let _daz = code.daz.then(Scope::daz);
            unsafe { (code.entry)(jc) }
        };
        if let Some(b) = budget {
            b.fuel_spent += fuel - jc.fuel_left;
            b.blocks_run += (blocks - jc.blocks_left) as u32;
            b.guest_insts += jc.trace_insts;
        }
        if let Some(p) = jc.panic.take() {
            resume_unwind(p);
        }
        // SAFETY: `jc.block` is `data` or, after a trace went on, a block of `jc.blocks`.
        let last = unsafe { &*jc.block };
        self.exit(w, jc, last)
    }
}

impl Program for JitProgram {
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        let (Some(slot), Some(data)) = (
            self.blocks.get(block.index()),
            self.func.blocks.get(block.index()),
        ) else {
            return Err(missing(block));
        };
        self.check_layout(ctx)?;
        let mut jc = self.context(ctx, data);
        let code = self.code(block, slot);
        Self::with_scratch(code.n_slots, |scratch| {
            jc.scratch = scratch;
            self.call(code, data, &mut jc, code.n_slots, None)
        })
    }

    /// The default's contract with one context and one scratch area for the whole chain,
    /// and the blocks a trace goes on to charged by its code. A wave state of another layout
    /// is an error before any block runs.
    fn run_chain(
        &self,
        blocks: &[BlockData],
        block: Block,
        ctx: &mut WaveCtx<'_>,
        budget: &mut Budget,
    ) -> Result<BlockExit, Fault> {
        let Some(first) = blocks.get(block.index()) else {
            return Ok(BlockExit::Jump(block));
        };
        self.check_layout(ctx)?;
        let mut jc = self.context(ctx, first);
        Self::with_scratch(self.max_slots, |scratch| {
            jc.scratch = scratch;
            let mut block = block;
            loop {
                let data = match blocks.get(block.index()) {
                    Some(data) if budget.charge(data) => data,
                    _ => return Ok(BlockExit::Jump(block)),
                };
                let slot = self
                    .blocks
                    .get(block.index())
                    .ok_or_else(|| missing(block))?;
                let code = self.code(block, slot);
                match self.call(code, data, &mut jc, self.max_slots, Some(budget))? {
                    BlockExit::Jump(b) => block = b,
                    other => return Ok(other),
                }
            }
        })
    }
}

impl JitProgram {
    /// What exit code `w` of block `data` means.
    #[inline(always)]
    fn exit(&self, w: u32, jc: &mut JitCtx, data: &BlockData) -> Result<BlockExit, Fault> {
        let last_pc = terminator_pc(data);
        match w & 3 {
            exit::TAG_JUMP => return Ok(BlockExit::Jump(Block(w >> 2))),
            exit::TAG_BARRIER => return Ok(BlockExit::Barrier(Block(w >> 2))),
            _ => {}
        }
        match w {
            exit::RETURN => Ok(BlockExit::Return),
            exit::FAULT => Err(jc.fault.take().unwrap_or_else(|| {
                fault(
                    FaultKind::Trap("JIT helper failed without a fault".into()),
                    last_pc,
                )
            })),
            // Fault pcs as the interpreter reports them.
            exit::INDIRECT => match self.by_pc.get(&jc.indirect_pc) {
                Some(&b) => Ok(BlockExit::Jump(b)),
                None => {
                    let pc = match data.term {
                        Terminator::JumpIndirect(v) => {
                            data.insts.get(v.index()).map_or(last_pc, |i| i.pc)
                        }
                        _ => last_pc,
                    };
                    Err(Fault {
                        kind: FaultKind::BadJump,
                        pc,
                        lane: None,
                        addr: Some(jc.indirect_pc),
                    })
                }
            },
            exit::TRAP => Err(fault(
                match &data.term {
                    Terminator::Trap(t) => fault_kind(t),
                    t => FaultKind::Trap(format!("JIT trap exit for terminator {t:?}")),
                },
                last_pc,
            )),
            w => Err(fault(
                FaultKind::Trap(format!("JIT returned an unknown exit code {w:#x}")),
                last_pc,
            )),
        }
    }
}
