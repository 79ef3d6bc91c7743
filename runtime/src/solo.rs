//! One wave run alone, outside a dispatch: the runner that the lifter tests of every ISA, the
//! fuzz driver and `wavejit wave` share, and the bit-for-bit comparison of two engines' runs.
//!
//! A [`Solo`] is everything the wave starts from: its registers, guest memory, LDS and private
//! memory, and the guest-memory ranges whose final bytes matter. [`run`] runs it on one engine
//! from block 0 until the function returns, faults, or has spent `fuel` guest instructions
//! (counted per block as the dispatcher counts them: `max(1, guest_insts)`); barriers just
//! continue, as the wave is alone in its work-group. Engine panics become
//! [`End::EngineError`], never a panic of the caller. [`run_both`] runs the same start on two
//! engines (each on its own copy of memory) and [`compare`]s them: the outcome, every register
//! cell (NaN payloads included) and every watched byte must agree.

use crate::engine::{BlockExit, Budget, Engine, Program, WaveCtx};
use crate::error::Fault;
use crate::memory::{GuestMemory, MemError};
use crate::wave::WaveState;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use wavejit_ir::{Block, FileId, FileKind, Function, Reg, StateLayout};

/// What one wave starts from.
pub struct Solo {
    pub state: WaveState,
    pub mem: GuestMemory,
    pub lds: Vec<u8>,
    /// Lane `l` owns `private[l * private_lane_bytes..][..private_lane_bytes]`.
    pub private: Vec<u8>,
    pub private_lane_bytes: u32,
    /// Guest-memory ranges read back after the run: (name, address, bytes).
    pub watch: Vec<(String, u64, u64)>,
}

impl Solo {
    /// A wave of `layout` with zeroed registers, an empty guest memory of `reserve` bytes, no
    /// LDS and no private memory.
    pub fn new(layout: &StateLayout, reserve: u64) -> Result<Solo, MemError> {
        Ok(Solo {
            state: WaveState::new(Arc::new(layout.clone())),
            mem: GuestMemory::with_reserve(reserve)?,
            lds: Vec::new(),
            private: Vec::new(),
            private_lane_bytes: 0,
            watch: Vec::new(),
        })
    }

    /// A copy to run another engine on.
    pub fn duplicate(&self) -> Result<Solo, MemError> {
        Ok(Solo {
            state: self.state.clone(),
            mem: self.mem.duplicate()?,
            lds: self.lds.clone(),
            private: self.private.clone(),
            private_lane_bytes: self.private_lane_bytes,
            watch: self.watch.clone(),
        })
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Done,
    /// A guest fault: its kind and pc (the lane and address may legitimately be reported
    /// differently by two engines, so they are not compared).
    Fault(String, u32),
    OutOfFuel,
    /// The engine refused the function, jumped outside it or panicked: always a failure.
    EngineError(String),
}

/// One engine's run of a [`Solo`].
pub struct Run {
    pub end: End,
    /// The full fault (with lane and address), when the run ended with one.
    pub fault: Option<Fault>,
    /// The final state (`None` when the engine could not start).
    pub state: Option<WaveState>,
    /// The guest memory after the run (`None` when the engine could not start).
    pub mem: Option<GuestMemory>,
    /// The watched ranges, then `lds` and `private`: (name, bytes after the run).
    pub memories: Vec<(String, Vec<u8>)>,
    /// Guest instructions executed (the blocks' `guest_insts`; fuel also charges 1 for a
    /// block that lifted none).
    pub executed: u64,
}

impl Run {
    fn failed(why: String) -> Run {
        Run {
            end: End::EngineError(why),
            fault: None,
            state: None,
            mem: None,
            memories: Vec::new(),
            executed: 0,
        }
    }

    /// The bytes of memory `name` after the run.
    pub fn memory(&self, name: &str) -> Option<&[u8]> {
        self.memories
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.as_slice())
    }
}

/// Prepares `f` on `engine`, turning a refusal or a panic into the reason.
pub fn prepare(engine: &dyn Engine, f: &Arc<Function>) -> Result<Arc<dyn Program>, String> {
    match catch_unwind(AssertUnwindSafe(|| engine.prepare(f.clone()))) {
        Ok(Ok(p)) => Ok(p),
        Ok(Err(e)) => Err(format!(
            "{} cannot prepare the function: {e}",
            engine.name()
        )),
        Err(p) => Err(format!(
            "{} panicked preparing the function: {}",
            engine.name(),
            panic_text(&*p)
        )),
    }
}

/// Runs `solo` on `engine` (see the module doc).
pub fn run(engine: &dyn Engine, f: &Arc<Function>, solo: Solo, fuel: u64) -> Run {
    let program = match prepare(engine, f) {
        Ok(p) => p,
        Err(why) => return Run::failed(why),
    };
    run_prepared(&*program, engine.name(), f, solo, fuel)
}

/// [`run`] with a program already prepared by the engine called `engine`.
pub fn run_prepared(
    program: &dyn Program,
    engine: &str,
    f: &Function,
    solo: Solo,
    fuel: u64,
) -> Run {
    let Solo {
        mut state,
        mem,
        mut lds,
        mut private,
        private_lane_bytes,
        watch,
    } = solo;
    let mut block = Block(0);
    let mut hints = crate::engine::MemHints::default();
    let (mut executed, mut fuel_used) = (0u64, 0u64);
    let mut fault = None;
    let end = loop {
        let Some(data) = f.blocks.get(block.index()) else {
            break End::EngineError(format!("{engine} jumped to {block}, outside the function"));
        };
        let cost = Budget::cost(data);
        if fuel_used + cost > fuel {
            break End::OutOfFuel;
        }
        fuel_used += cost;
        executed += u64::from(data.guest_insts);
        let mut ctx = WaveCtx {
            state: &mut state,
            mem: &mem,
            lds: &mut lds,
            private: &mut private,
            private_lane_bytes,
            hints: &mut hints,
        };
        let step = catch_unwind(AssertUnwindSafe(|| program.run_block(block, &mut ctx)));
        match step {
            Ok(Ok(BlockExit::Jump(b) | BlockExit::Barrier(b))) => block = b,
            Ok(Ok(BlockExit::Return)) => break End::Done,
            Ok(Err(f)) => {
                let end = End::Fault(f.kind.to_string(), f.pc);
                fault = Some(f);
                break end;
            }
            Err(p) => break End::EngineError(format!("{engine} panicked: {}", panic_text(&*p))),
        }
    };
    let mut memories = Vec::new();
    for (name, addr, len) in watch {
        let mut bytes = vec![0u8; len as usize];
        if let Err(e) = mem.read_bytes(addr, &mut bytes) {
            return Run::failed(format!("reading back {name}: {e}"));
        }
        memories.push((name, bytes));
    }
    memories.push(("lds".into(), lds));
    memories.push(("private".into(), private));
    Run {
        end,
        fault,
        state: Some(state),
        mem: Some(mem),
        memories,
        executed,
    }
}

/// Runs `solo` on `reference` and on `candidate` (on a copy of its memory) and compares them.
pub fn run_both(
    reference: &dyn Engine,
    candidate: &dyn Engine,
    f: &Arc<Function>,
    solo: Solo,
    fuel: u64,
) -> (Run, Run, Option<Diff>) {
    let copy = match solo.duplicate() {
        Ok(c) => c,
        Err(e) => {
            let why = format!("copying the wave's memory: {e}");
            return (Run::failed(why.clone()), Run::failed(why), None);
        }
    };
    let a = run(reference, f, solo, fuel);
    let b = run(candidate, f, copy, fuel);
    let diff = compare(&f.layout, &a, &b);
    (a, b, diff)
}

/// Where two runs differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub reference: End,
    pub candidate: End,
    /// `name: reference candidate`, one per differing register cell or memory word.
    pub lines: Vec<String>,
}

impl Diff {
    /// One line: the outcomes if they differ, else the first difference.
    pub fn headline(&self) -> String {
        if self.reference != self.candidate {
            format!(
                "reference {:?}, candidate {:?}",
                self.reference, self.candidate
            )
        } else {
            format!(
                "{} differences, first {}",
                self.lines.len(),
                self.lines.first().map(String::as_str).unwrap_or("?")
            )
        }
    }

    /// The outcomes, then every difference, one a line.
    pub fn text(&self) -> String {
        let mut d = format!(
            "reference: {:?}\ncandidate: {:?}\n",
            self.reference, self.candidate
        );
        for l in &self.lines {
            d.push_str(l);
            d.push('\n');
        }
        d
    }
}

/// The differences between two runs, or `None` if they agree bit for bit. An engine error
/// is always a difference. States and memories are not compared after a fault (engines may
/// stop at different points inside the faulting block).
pub fn compare(layout: &StateLayout, a: &Run, b: &Run) -> Option<Diff> {
    let failed = matches!(a.end, End::EngineError(_)) || matches!(b.end, End::EngineError(_));
    let outcome_differs = a.end != b.end;
    let mut lines = Vec::new();
    if !failed && !outcome_differs && matches!(a.end, End::Done | End::OutOfFuel) {
        if let (Some(sa), Some(sb)) = (&a.state, &b.state) {
            if sa.bytes() != sb.bytes() {
                lines.extend(register_diffs(layout, sa, sb));
            }
        }
        for (name, x) in &a.memories {
            match b.memory(name) {
                Some(y) => lines.extend(byte_diffs(name, x, y)),
                None => lines.push(format!("{name}: only the reference has it")),
            }
        }
    }
    (failed || outcome_differs || !lines.is_empty()).then(|| Diff {
        reference: a.end.clone(),
        candidate: b.end.clone(),
        lines,
    })
}

/// `file<cell>` (uniform) or `file<row> lane l` (lane) for every differing cell.
fn register_diffs(layout: &StateLayout, a: &WaveState, b: &WaveState) -> Vec<String> {
    let mut out = Vec::new();
    for (fi, file) in layout.files.iter().enumerate() {
        for n in 0..file.cells {
            let reg = Reg::new(FileId(fi as u16), n);
            match file.kind {
                FileKind::Uniform => {
                    let (x, y) = (a.uniform(reg), b.uniform(reg));
                    if x != y {
                        out.push(format!("{}{n}: {x:#010x} {y:#010x}", file.name));
                    }
                }
                FileKind::Lane => {
                    for l in 0..layout.wave_size {
                        let (x, y) = (a.lane(reg, l), b.lane(reg, l));
                        if x != y {
                            out.push(format!("{}{n} lane {l}: {x:#010x} {y:#010x}", file.name));
                        }
                    }
                }
            }
        }
    }
    out
}

fn byte_diffs(name: &str, a: &[u8], b: &[u8]) -> Vec<String> {
    let mut out: Vec<String> = a
        .chunks(4)
        .zip(b.chunks(4))
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| format!("{name}+{:#x}: {} {}", 4 * i, hex(x), hex(y)))
        .collect();
    if a.len() != b.len() {
        out.push(format!("{name}: {} bytes vs {}", a.len(), b.len()));
    }
    out
}

/// Lower-case hex of `bytes`, two digits each.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|x| format!("{x:02x}")).collect()
}

/// The message of a caught panic.
pub fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}
