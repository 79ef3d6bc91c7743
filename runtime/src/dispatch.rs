//! Dispatch: grid -> workgroups -> waves.
//!
//! - Workgroups run in parallel on a local rayon pool of `threads` threads (inline, in index
//!   order, for one thread). Each workgroup owns its LDS and its waves' private memory;
//!   global memory is the only thing workgroups share.
//! - The waves of one workgroup run cooperatively on one thread, in wave order: each runs
//!   block by block until it returns or reaches a barrier. When every wave that has not
//!   returned waits at a barrier, all of them are released (GCN `s_barrier` counts only
//!   waves that have not terminated), so barriers in loops work and a finished wave never
//!   blocks the others.
//! - Every wave has fuel: each block costs its `guest_insts`, at least 1 (so that a loop of
//!   blocks that lifted no guest instruction still ends); running out is
//!   [`ExecError::FuelExhausted`]. The wall-clock limit is checked every
//!   [`CHECK_EVERY_BLOCKS`] blocks. Engines run chains of blocks within that budget
//!   ([`Program::run_chain`]), so the checks cost nothing per block.
//! - The first error stops the dispatch. The error reported is that of the lowest-indexed
//!   failing workgroup: a failure cancels only workgroups with a higher index, so every
//!   lower one still runs to completion and the report does not depend on the thread count
//!   (except for timeouts, which depend on the host's speed).
//! - Within a workgroup, execution order is fixed, so results depend on the thread count
//!   only through races between workgroups on global memory, as on a GPU.

use crate::engine::{BlockExit, Budget, MemHints, Program, WaveCtx};
use crate::error::{ExecError, WaveId};
use crate::memory::GuestMemory;
use crate::wave::{Footprint, Fresh, WaveState};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wavejit_ir::{Block, BlockData, Function, MemSpace, StateLayout};
use wavejit_isa::{Grid, GroupWalk, WaveInit};

/// Blocks a wave runs between two looks at the clock and the cancel flag.
pub const CHECK_EVERY_BLOCKS: u32 = 256;

/// One kernel launch.
pub struct Launch<'a> {
    /// Kernel name, for error messages.
    pub kernel: String,
    pub func: Arc<Function>,
    /// `func` prepared by an engine.
    pub program: Arc<dyn Program>,
    /// The grid; its wave size must be the function's (`func.layout.wave_size`).
    pub grid: Grid,
    /// LDS bytes per workgroup (zero-filled at workgroup start).
    pub lds_bytes: u32,
    /// Private (scratch) bytes per lane (zero-filled at workgroup start).
    pub private_lane_bytes: u32,
    /// Host threads running workgroups (at least 1).
    pub threads: usize,
    /// Guest instructions one wave may execute.
    pub fuel: u64,
    /// Wall-clock limit of the whole dispatch.
    pub time_limit: Duration,
    /// The launch ABI: each wave's initial registers.
    pub init: &'a dyn WaveInit,
}

/// What a dispatch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchStats {
    pub workgroups: u64,
    pub waves: u64,
    /// Sum over waves of the guest instructions of the blocks they ran.
    pub guest_insts: u64,
    /// Sum over waves of their guest instructions times the lanes of the wave that hold
    /// work-items (the dynamic exec mask is the ISA's and is not counted).
    pub lane_insts: u64,
    pub blocks: u64,
    pub wall: Duration,
}

/// Runs a kernel over its grid.
pub fn dispatch(launch: &Launch<'_>, mem: &GuestMemory) -> Result<DispatchStats, ExecError> {
    let start = Instant::now();
    let geo = Geometry::new(launch)?;
    let run = Run {
        launch,
        mem,
        geo,
        layout: Arc::new(launch.func.layout.clone()),
        footprint: Footprint::of(&launch.func),
        uses_lds: launch.func.uses_space(MemSpace::Lds),
        uses_private: launch.func.uses_space(MemSpace::Private),
        deadline: start.checked_add(launch.time_limit),
        lowest_failed: AtomicU64::new(u64::MAX),
        error: Mutex::new(None),
        waves: AtomicU64::new(0),
        guest_insts: AtomicU64::new(0),
        lane_insts: AtomicU64::new(0),
        blocks: AtomicU64::new(0),
    };
    let total = geo.walk.group_count();
    // Workgroups go to threads in runs of `per_task`, so that the shared counters and the
    // cancel flag are touched once a run, not once a workgroup (small kernels run one short
    // wave per workgroup; a counter bounced between cores per workgroup cost more than the
    // wave). Runs stay small enough to balance the threads.
    let per_task = (total / (launch.threads as u64 * 32)).clamp(1, 256);
    let tasks = total.div_ceil(per_task);
    let groups = |t: u64| t * per_task..((t + 1) * per_task).min(total);
    if launch.threads == 1 {
        let mut scratch = Scratch::default();
        for t in 0..tasks {
            if !run.groups(groups(t), &mut scratch) {
                break;
            }
        }
    } else {
        use rayon::prelude::*;
        let pool = pool(launch.threads)?;
        pool.install(|| {
            (0..tasks)
                .into_par_iter()
                .for_each_init(Scratch::default, |scratch, t| {
                    run.groups(groups(t), scratch);
                })
        });
    }
    let error = run.error.lock().unwrap_or_else(|p| p.into_inner()).take();
    if let Some((_, e)) = error {
        return Err(e);
    }
    Ok(DispatchStats {
        workgroups: total,
        waves: run.waves.load(Ordering::Relaxed),
        guest_insts: run.guest_insts.load(Ordering::Relaxed),
        lane_insts: run.lane_insts.load(Ordering::Relaxed),
        blocks: run.blocks.load(Ordering::Relaxed),
        wall: start.elapsed(),
    })
}

/// A pool of `threads` worker threads, started once per thread count and kept for later
/// dispatches (starting threads costs more than a small kernel's whole dispatch).
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, ExecError> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(Arc::new)
        .map_err(|e| ExecError::Setup(format!("cannot start {threads} threads: {e}")))?;
    pools.push((threads, p.clone()));
    Ok(p)
}

/// The launch's grid, checked against the function.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    grid: Grid,
    walk: GroupWalk,
}

impl Geometry {
    fn new(l: &Launch<'_>) -> Result<Geometry, ExecError> {
        let setup = |m: String| Err(ExecError::Setup(format!("kernel {}: {m}", l.kernel)));
        if l.threads == 0 {
            return setup("thread count must be at least 1".into());
        }
        let g = l.grid;
        if let Err(e) = Grid::new(g.global, g.local, g.wave_size) {
            return setup(e.to_string());
        }
        let wave_size = l.func.layout.wave_size;
        if l.grid.wave_size != wave_size {
            return setup(format!(
                "the grid has waves of {} lanes, the function {wave_size}",
                l.grid.wave_size
            ));
        }
        Ok(Geometry {
            grid: l.grid,
            walk: l.grid.walk(),
        })
    }

    fn group_id(&self, g: u64) -> [u32; 3] {
        self.walk.group_id(g)
    }
}

/// Per-thread buffers reused from workgroup to workgroup.
#[derive(Default)]
struct Scratch {
    waves: Vec<WaveSlot>,
    lds: Vec<u8>,
    private: Vec<u8>,
    thread: Carried,
}

/// Counts of the workgroups a thread ran since it last added them to the dispatch's.
#[derive(Default)]
struct Tally {
    waves: u64,
    guest_insts: u64,
    lane_insts: u64,
    blocks: u64,
}

/// What a thread carries from wave to wave and workgroup to workgroup.
#[derive(Default)]
struct Carried {
    /// Blocks run since the last look at the clock (so many short waves are checked as often
    /// as one long one).
    since_check: u32,
    /// The buffers the last global accesses hit (every wave shares the buffers).
    hints: MemHints,
    tally: Tally,
}

struct WaveSlot {
    state: WaveState,
    at: Block,
    status: Status,
    /// Fuel units spent (each block costs max(1, guest_insts)).
    fuel_used: u64,
    guest_insts: u64,
    /// Lanes holding work-items.
    lanes: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Ready,
    AtBarrier,
    Done,
}

/// How a workgroup ended early.
enum Stop {
    Failed(ExecError),
    /// A lower-indexed workgroup failed; this one's outcome no longer matters.
    Cancelled,
}

impl From<ExecError> for Stop {
    fn from(e: ExecError) -> Stop {
        Stop::Failed(e)
    }
}

/// Shared state of one dispatch.
struct Run<'a> {
    launch: &'a Launch<'a>,
    mem: &'a GuestMemory,
    geo: Geometry,
    layout: Arc<StateLayout>,
    /// The state cells the function touches: all a wave slot reused for another wave needs
    /// zeroed.
    footprint: Footprint,
    /// Whether the function accesses the LDS and private memory (else they are not zeroed
    /// from workgroup to workgroup: nothing reads them).
    uses_lds: bool,
    uses_private: bool,
    deadline: Option<Instant>,
    /// Index of the lowest workgroup that failed so far (u64::MAX: none).
    lowest_failed: AtomicU64,
    error: Mutex<Option<(u64, ExecError)>>,
    waves: AtomicU64,
    guest_insts: AtomicU64,
    lane_insts: AtomicU64,
    blocks: AtomicU64,
}

impl Run<'_> {
    /// Runs the workgroups `range` in order, then adds their counts to the dispatch's.
    /// Returns false when a workgroup of the range, or a lower one, has failed.
    fn groups(&self, range: std::ops::Range<u64>, scratch: &mut Scratch) -> bool {
        let mut go_on = true;
        for g in range {
            if self.lowest_failed.load(Ordering::Relaxed) < g {
                go_on = false;
                break;
            }
            self.group_guarded(g, scratch);
        }
        let t = std::mem::take(&mut scratch.thread.tally);
        self.waves.fetch_add(t.waves, Ordering::Relaxed);
        self.guest_insts.fetch_add(t.guest_insts, Ordering::Relaxed);
        self.lane_insts.fetch_add(t.lane_insts, Ordering::Relaxed);
        self.blocks.fetch_add(t.blocks, Ordering::Relaxed);
        go_on && self.lowest_failed.load(Ordering::Relaxed) == u64::MAX
    }

    /// Runs workgroup `g`, recording its error; an engine panic becomes an error too.
    fn group_guarded(&self, g: u64, scratch: &mut Scratch) {
        let result = catch_unwind(AssertUnwindSafe(|| self.group(g, scratch)));
        let err = match result {
            Ok(Ok(())) | Ok(Err(Stop::Cancelled)) => return,
            Ok(Err(Stop::Failed(e))) => e,
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                // The scratch may be half-updated; drop it (its counts no longer matter).
                *scratch = Scratch::default();
                ExecError::Emulator(format!(
                    "kernel {}: engine panicked in workgroup {:?}: {msg}",
                    self.launch.kernel,
                    self.geo.group_id(g)
                ))
            }
        };
        self.lowest_failed.fetch_min(g, Ordering::Relaxed);
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        if slot.as_ref().is_none_or(|(i, _)| g < *i) {
            *slot = Some((g, err));
        }
    }

    fn group(&self, g: u64, s: &mut Scratch) -> Result<(), Stop> {
        let l = self.launch;
        let grid = self.geo.grid;
        let group = self.geo.group_id(g);
        let mut waves = self.geo.walk.waves(group);
        let n_waves = waves.len() as u32;
        let seg = grid.wave_size as usize * l.private_lane_bytes as usize;

        // A space the code never accesses keeps its size (the engines see the same slices)
        // but not its contents.
        if self.uses_lds || s.lds.len() != l.lds_bytes as usize {
            s.lds.clear();
            s.lds.resize(l.lds_bytes as usize, 0);
        }
        if self.uses_private || s.private.len() != seg * n_waves as usize {
            s.private.clear();
            s.private.resize(seg * n_waves as usize, 0);
        }
        s.waves.truncate(n_waves as usize);
        while s.waves.len() < n_waves as usize {
            s.waves.push(WaveSlot {
                state: WaveState::new(self.layout.clone()),
                at: Block(0),
                status: Status::Ready,
                fuel_used: 0,
                guest_insts: 0,
                lanes: 0,
            });
        }
        for (w, (slot, wave)) in s.waves.iter_mut().zip(&mut waves).enumerate() {
            if !Arc::ptr_eq(&slot.state.layout, &self.layout) {
                slot.state = WaveState::new(self.layout.clone());
            }
            slot.state.clear_footprint(&self.footprint);
            slot.at = Block(0);
            slot.status = Status::Ready;
            slot.fuel_used = 0;
            slot.guest_insts = 0;
            slot.lanes = wave.lanes;
            let mut fresh = Fresh {
                state: &mut slot.state,
                footprint: &self.footprint,
            };
            l.init.init(&wave, &mut fresh).map_err(|m| {
                ExecError::Setup(format!(
                    "kernel {}: wave {w} of group {group:?}: {m}",
                    l.kernel
                ))
            })?;
        }
        s.thread.tally.waves += u64::from(n_waves);

        let result = self.schedule(g, group, s, seg);
        for w in &s.waves {
            s.thread.tally.guest_insts += w.guest_insts;
            s.thread.tally.lane_insts += w.guest_insts * u64::from(w.lanes);
        }
        result
    }

    /// Runs the group's waves to completion, releasing barriers.
    fn schedule(&self, g: u64, group: [u32; 3], s: &mut Scratch, seg: usize) -> Result<(), Stop> {
        loop {
            for w in 0..s.waves.len() {
                if s.waves[w].status != Status::Ready {
                    continue;
                }
                let private = &mut s.private[w * seg..(w + 1) * seg];
                let id = WaveId {
                    group,
                    wave: w as u32,
                };
                self.run_wave(g, id, &mut s.waves[w], &mut s.lds, private, &mut s.thread)?;
            }
            // Every wave now waits at a barrier or is done: release the barrier.
            let mut waiting = false;
            for slot in s.waves.iter_mut().filter(|w| w.status == Status::AtBarrier) {
                slot.status = Status::Ready;
                waiting = true;
            }
            if !waiting {
                return Ok(());
            }
        }
    }

    /// Runs one wave until it returns or reaches a barrier.
    fn run_wave(
        &self,
        g: u64,
        id: WaveId,
        slot: &mut WaveSlot,
        lds: &mut [u8],
        private: &mut [u8],
        thread: &mut Carried,
    ) -> Result<(), Stop> {
        let l = self.launch;
        let mut ctx = WaveCtx {
            state: &mut slot.state,
            mem: self.mem,
            lds,
            private,
            private_lane_bytes: l.private_lane_bytes,
            hints: &mut thread.hints,
        };
        let mut block = slot.at;
        let mut blocks = 0u64;
        let result = loop {
            let Some(data) = l.func.blocks.get(block.index()) else {
                break Err(ExecError::Emulator(format!(
                    "kernel {}: {id}: jump to {block}, which does not exist",
                    l.kernel
                ))
                .into());
            };
            let cost = Budget::cost(data);
            if slot.fuel_used + cost > l.fuel {
                break Err(ExecError::FuelExhausted {
                    kernel: l.kernel.clone(),
                    wave: id,
                    pc: block_pc(data),
                    executed: slot.guest_insts,
                }
                .into());
            }
            if thread.since_check >= CHECK_EVERY_BLOCKS {
                thread.since_check = 0;
                if let Err(e) = self.check_time(g, id, data) {
                    break Err(e);
                }
            }
            // The engine runs blocks until one leaves the chain (a barrier, the return, a
            // fault) or the fuel or the blocks until the next look at the clock run out; the
            // block in hand is covered by both (checked above).
            let mut budget = Budget {
                fuel: l.fuel - slot.fuel_used,
                blocks: CHECK_EVERY_BLOCKS - thread.since_check,
                ..Budget::default()
            };
            let exit = l
                .program
                .run_chain(&l.func.blocks, block, &mut ctx, &mut budget);
            slot.fuel_used += budget.fuel_spent;
            slot.guest_insts += budget.guest_insts;
            thread.since_check += budget.blocks_run;
            blocks += u64::from(budget.blocks_run);
            match exit {
                Ok(BlockExit::Jump(b)) => block = b,
                Ok(BlockExit::Barrier(b)) => {
                    slot.at = b;
                    slot.status = Status::AtBarrier;
                    break Ok(());
                }
                Ok(BlockExit::Return) => {
                    slot.status = Status::Done;
                    break Ok(());
                }
                Err(f) => break Err(ExecError::from_fault(&l.kernel, id, f).into()),
            }
        };
        thread.tally.blocks += blocks;
        result
    }

    /// Stops the wave if the time is up or a lower-indexed workgroup failed.
    fn check_time(&self, g: u64, id: WaveId, data: &BlockData) -> Result<(), Stop> {
        if self.lowest_failed.load(Ordering::Relaxed) < g {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Failed(ExecError::Timeout {
                kernel: self.launch.kernel.clone(),
                wave: id,
                pc: block_pc(data),
                seconds: self.launch.time_limit.as_secs_f64(),
            }));
        }
        Ok(())
    }
}

/// The guest pc of a block, for reports: its start, else its first instruction's.
fn block_pc(data: &BlockData) -> u32 {
    data.guest_pc
        .map(|p| p as u32)
        .or(data.insts.first().map(|i| i.pc))
        .unwrap_or(0)
}
