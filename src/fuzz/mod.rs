//! Differential fuzzing: seeded random programs of an ISA are lifted, verified, and run from
//! the same random wave state by a reference engine (the interpreter) and a candidate engine
//! (the JIT). The final state (every register cell, NaN payloads included) and the memory the
//! program can write must agree bit for bit, and so must the outcome: both finish, both fault
//! with the same kind at the same pc, or both run out of fuel.
//!
//! The ISA parts ([`gcn`], [`terascale`]) generate cases, lift them, minimise a disagreement
//! and write a reproducer directory; this module holds what they share: how one wave is run
//! alone ([`run_wave`], a fuel budget counted in guest instructions as the dispatcher does),
//! how two runs are compared ([`compare`]), and the campaign report.

pub mod gcn;
pub mod terascale;

use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wavejit_ir::{Block, FileKind, Function, StateLayout};
use wavejit_runtime::{BlockExit, Engine, Fault, GuestMemory, Program, WaveCtx, WaveState};

/// `wavejit fuzz --isa ISA`: the interpreter against the JIT for `seconds`. `ISA` is `gcn`
/// or a GCN generation (`gfx6`..`gfx9`), or `terascale` or a TeraScale class or chip
/// (`evergreen`, `cayman`, `cypress`, ...). A disagreement (or a lifter failure) returns
/// `Err` naming the reproducer directory.
pub fn campaign(
    isa: &str,
    seconds: u64,
    seed: Option<u64>,
    out: &Path,
    progress: bool,
) -> Result<CampaignReport, String> {
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let budget = Budget {
        duration: std::time::Duration::from_secs(seconds),
        max_programs: None,
        seed,
        out: out.to_path_buf(),
        progress,
    };
    let jit = Arc::new(wavejit_jit::Jit::new().map_err(|e| e.to_string())?);
    let reference = Arc::new(wavejit_runtime::interp::Interpreter);
    if let Some(gens) = gcn::parse_isa(isa) {
        let opts = gcn::CampaignOptions {
            gens,
            budget,
            gen_config: Default::default(),
        };
        return gcn::run_campaign(&opts, reference, jit);
    }
    if let Some(classes) = terascale::parse_isa(isa) {
        let opts = terascale::CampaignOptions {
            classes,
            budget,
            gen: Default::default(),
        };
        return terascale::run_campaign(&opts, reference, jit);
    }
    Err(format!(
        "unknown ISA '{isa}' for fuzzing (expected gcn, gfx6, gfx7, gfx8, gfx9, terascale, \
         evergreen, cayman or an r600 chip name)"
    ))
}

/// How long a campaign runs and where it reports; the same for every ISA.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Wall-clock budget.
    pub duration: Duration,
    /// Stop after this many programs, if given.
    pub max_programs: Option<u64>,
    /// Program `k` uses seed `seed + k`.
    pub seed: u64,
    /// Where reproducers go.
    pub out: PathBuf,
    /// Show a spinner with running counts.
    pub progress: bool,
}

/// The campaign loop every ISA shares: program `k` gets seed `budget.seed + k` and target
/// `targets[k % len]`; `one` generates, lifts and compares it, counting into the report,
/// and returns `Err` (after writing the reproducer) on a lifter failure or a disagreement.
/// The error is prefixed with the target's `name` and the seed.
fn drive<T: Copy>(
    budget: &Budget,
    targets: &[T],
    name: impl Fn(T) -> &'static str,
    mut one: impl FnMut(T, u64, &mut CampaignReport) -> Result<(), String>,
) -> Result<CampaignReport, String> {
    if targets.is_empty() {
        return Err("nothing to fuzz: no target given".into());
    }
    let mut report = CampaignReport {
        seed: budget.seed,
        ..Default::default()
    };
    let start = Instant::now();
    let bar = progress_bar(budget.progress);
    let mut k = 0u64;
    while start.elapsed() < budget.duration && budget.max_programs.is_none_or(|m| k < m) {
        let target = targets[(k % targets.len() as u64) as usize];
        let seed = budget.seed.wrapping_add(k);
        k += 1;
        let outcome = one(target, seed, &mut report);
        report.elapsed = start.elapsed();
        if let Err(msg) = outcome {
            finish(&bar);
            return Err(format!("{} seed {seed}: {msg}", name(target)));
        }
        if let Some(b) = &bar {
            b.set_message(format!(
                "{} programs, {} instructions, {} mismatches ({})",
                report.programs,
                report.instructions,
                report.mismatches,
                name(target)
            ));
            b.tick();
        }
    }
    finish(&bar);
    report.elapsed = start.elapsed();
    Ok(report)
}

/// Counts of a finished campaign.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CampaignReport {
    pub seed: u64,
    pub programs: u64,
    /// Instructions in the programs run (after dropping unsupported ones).
    pub instructions: u64,
    /// Guest instructions executed per engine (summed over programs).
    pub executed: u64,
    /// Programs per target (generation or chip class).
    pub per_gen: BTreeMap<&'static str, u64>,
    /// Programs where both engines faulted identically (by fault kind) / ran out of fuel.
    pub faulted: u64,
    pub faults: BTreeMap<String, u64>,
    pub out_of_fuel: u64,
    /// Instructions dropped because the lifter does not support them, by mnemonic.
    pub unsupported: BTreeMap<String, u64>,
    /// Programs skipped because the lifter does not support them.
    pub skipped: u64,
    pub mismatches: u64,
    pub elapsed: std::time::Duration,
    /// Programs run that contain each instruction form (filled by campaigns that count
    /// their mix; printed on a second line).
    pub mix: BTreeMap<String, u64>,
}

impl fmt::Display for CampaignReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let gens: Vec<String> = self
            .per_gen
            .iter()
            .map(|(g, n)| format!("{g} {n}"))
            .collect();
        write!(
            f,
            "seed {}: {} programs ({}), {} instructions, {} executed per engine, {} faulted alike, {} out of fuel, {} skipped, {} mismatches in {:.1} s",
            self.seed,
            self.programs,
            gens.join(", "),
            self.instructions,
            self.executed,
            self.faulted,
            self.out_of_fuel,
            self.skipped,
            self.mismatches,
            self.elapsed.as_secs_f64()
        )?;
        let list = |m: &BTreeMap<String, u64>| -> String {
            m.iter()
                .map(|(n, c)| format!("{n} x{c}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.faults.is_empty() {
            write!(f, "; faults: {}", list(&self.faults))?;
        }
        if !self.unsupported.is_empty() {
            write!(
                f,
                "; dropped as unsupported by the lifter: {}",
                list(&self.unsupported)
            )?;
        }
        if !self.mix.is_empty() {
            write!(f, "\nprograms containing: {}", list(&self.mix))?;
        }
        Ok(())
    }
}

impl CampaignReport {
    /// Counts an agreed run's outcome.
    fn count_outcome(&mut self, end: &End) {
        match end {
            End::Fault(kind, _) => {
                self.faulted += 1;
                *self.faults.entry(kind.clone()).or_default() += 1;
            }
            End::OutOfFuel => self.out_of_fuel += 1,
            _ => {}
        }
    }
}

/// A spinner showing the campaign's progress, if asked for.
fn progress_bar(show: bool) -> Option<ProgressBar> {
    show.then(|| {
        let b = ProgressBar::new_spinner();
        if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
            b.set_style(style);
        }
        b
    })
}

fn finish(bar: &Option<ProgressBar>) {
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Done,
    /// A guest fault: its kind and pc (lanes and addresses may legitimately be reported
    /// differently, so they are not compared).
    Fault(String, u32),
    OutOfFuel,
    /// The engine refused the function or panicked: always a disagreement.
    EngineError(String),
}

/// The result of one engine on one case.
#[derive(Clone, Debug)]
pub struct Run {
    pub end: End,
    pub state: Option<WaveState>,
    /// The memory the program can write (global buffer), after the run.
    pub buffer: Vec<u8>,
    pub lds: Vec<u8>,
    /// The global data share's compared window after the run (empty when not modelled).
    pub gds: Vec<u8>,
    /// The wave's private (scratch) memory after the run (empty when it has none).
    pub private: Vec<u8>,
    pub executed: u64,
}

impl Run {
    fn failed(why: String) -> Run {
        Run {
            end: End::EngineError(why),
            state: None,
            buffer: Vec::new(),
            lds: Vec::new(),
            gds: Vec::new(),
            private: Vec::new(),
            executed: 0,
        }
    }
}

/// Where two runs differ.
#[derive(Clone, Debug)]
pub struct Diff {
    pub reference: End,
    pub candidate: End,
    /// `name: reference candidate`, one per differing register cell or memory byte range.
    pub lines: Vec<String>,
}

impl Diff {
    /// One line: the outcomes if they differ, else the first differing register.
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

    /// The text of a reproducer's `diff.txt`.
    fn text(&self) -> String {
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

/// Prepares `f` on `engine`, turning a refusal or a panic into the reason.
fn prepare(engine: &dyn Engine, f: &Arc<Function>) -> Result<Arc<dyn Program>, String> {
    match catch_unwind(AssertUnwindSafe(|| engine.prepare(f.clone()))) {
        Ok(Ok(p)) => Ok(p),
        Ok(Err(e)) => Err(format!(
            "{} cannot prepare the function: {e}",
            engine.name()
        )),
        Err(p) => Err(format!(
            "{} panicked preparing the function: {}",
            engine.name(),
            panic_text(&p)
        )),
    }
}

/// A wave's memories besides guest memory: its LDS and its private segments (lane `l` owns
/// `private[l * private_lane_bytes..][..private_lane_bytes]`).
pub struct WaveMemory<'a> {
    pub lds: &'a mut [u8],
    pub private: &'a mut [u8],
    pub private_lane_bytes: u32,
}

/// Runs one wave from block 0 until it returns, faults or runs out of `fuel` guest
/// instructions; returns how it ended and the guest instructions executed.
pub fn run_wave(
    program: &dyn Program,
    f: &Function,
    state: &mut WaveState,
    mem: &GuestMemory,
    wm: WaveMemory<'_>,
    engine: &str,
    fuel: u64,
) -> (End, u64) {
    let mut block = Block(0);
    let mut executed = 0u64;
    let WaveMemory {
        lds,
        private,
        private_lane_bytes,
    } = wm;
    loop {
        let Some(data) = f.blocks.get(block.index()) else {
            return (
                End::EngineError(format!("{engine} jumped to {block}, outside the function")),
                executed,
            );
        };
        let cost = (data.guest_insts as u64).max(1);
        if executed + cost > fuel {
            return (End::OutOfFuel, executed);
        }
        executed += cost;
        let mut ctx = WaveCtx {
            state: &mut *state,
            mem,
            lds: &mut *lds,
            private: &mut *private,
            private_lane_bytes,
        };
        match catch_unwind(AssertUnwindSafe(|| program.run_block(block, &mut ctx))) {
            Ok(Ok(BlockExit::Jump(b) | BlockExit::Barrier(b))) => block = b,
            Ok(Ok(BlockExit::Return)) => return (End::Done, executed),
            Ok(Err(Fault { kind, pc, .. })) => return (End::Fault(kind.to_string(), pc), executed),
            Err(p) => {
                return (
                    End::EngineError(format!("{engine} panicked: {}", panic_text(&p))),
                    executed,
                )
            }
        }
    }
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "(no message)".into())
}

/// The differences between two runs, or `None` if they agree bit for bit. States are not
/// compared after a fault (engines may stop at different points inside the faulting block).
pub fn compare(layout: &StateLayout, a: &Run, b: &Run) -> Option<Diff> {
    let mut lines = Vec::new();
    let outcome_differs = a.end != b.end;
    let comparable = matches!(a.end, End::Done | End::OutOfFuel) && !outcome_differs;
    if comparable {
        if let (Some(sa), Some(sb)) = (&a.state, &b.state) {
            if sa.bytes() != sb.bytes() {
                lines.extend(register_diffs(layout, sa, sb));
            }
        }
        lines.extend(byte_diffs("buffer", &a.buffer, &b.buffer));
        lines.extend(byte_diffs("lds", &a.lds, &b.lds));
        lines.extend(byte_diffs("gds", &a.gds, &b.gds));
        lines.extend(byte_diffs("private", &a.private, &b.private));
    }
    (outcome_differs || !lines.is_empty()).then(|| Diff {
        reference: a.end.clone(),
        candidate: b.end.clone(),
        lines,
    })
}

/// `file[cell]` (uniform) or `file[row] lane l` (lane) for every differing cell.
fn register_diffs(layout: &StateLayout, a: &WaveState, b: &WaveState) -> Vec<String> {
    let mut out = Vec::new();
    for (fi, file) in layout.files.iter().enumerate() {
        let id = wavejit_ir::FileId(fi as u16);
        for n in 0..file.cells {
            let reg = wavejit_ir::Reg::new(id, n);
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
    a.chunks(4)
        .zip(b.chunks(4))
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| format!("{name}+{:#x}: {} {}", 4 * i, hex(x), hex(y)))
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
