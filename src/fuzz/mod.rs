//! Differential fuzzing, one driver for every ISA: seeded random programs of an ISA are lifted,
//! verified, and run from the same random wave state by a reference engine (the interpreter)
//! and a candidate engine (the JIT). The outcome (both finish, both fault with the same kind
//! at the same pc, or both run out of fuel), every register cell (NaN payloads included) and
//! every memory the program can write must agree bit for bit
//! ([`wavejit_runtime::solo::compare`]).
//!
//! What is an ISA's own is behind [`FuzzIsa`]: its targets, its generator, its lifter, how an
//! instruction is dropped, how a case is reduced, the wave a case starts ([`Solo`]: registers,
//! guest memory, LDS, private memory, the watched ranges), its listing (which the ISA's
//! assembler takes back) and its initial state as JSON. What is shared exists once, here:
//! [`Driver`] runs the campaign loop (program `k` gets seed `seed + k` and the targets
//! round-robin) until the [`Budget`] is spent, applies the lifting policy below, minimises a
//! failure ([`wavejit_isa::shrink::minimise`] over [`FuzzIsa::reductions`]), writes the
//! reproducer directory and counts the [`CampaignReport`]. [`Campaign`] is the object-safe face
//! the registry hands out ([`crate::frontend::Frontend::fuzz`]); [`campaign`] is
//! `wavejit fuzz --isa ISA`.
//!
//! # Instructions the lifter refuses
//!
//! One policy for every ISA. A lifter refusal is a [`LiftError`] of one of three kinds:
//! - [`LiftErrorKind::Unsupported`]: a valid instruction the lifter does not take (yet). The
//!   driver drops that instruction ([`FuzzIsa::without_instruction_at`] the refusal's pc) and
//!   lifts again, at most [`MAX_DROPS`] times per program; each dropped instruction is counted
//!   by mnemonic in [`CampaignReport::unsupported`]. A program still refused after
//!   [`MAX_DROPS`] drops is skipped ([`CampaignReport::skipped`]). When the ISA cannot drop the
//!   refused instruction on its own (`None`), the refusal is a failure as below.
//! - [`LiftErrorKind::Unknown`] and [`LiftErrorKind::Invalid`]: the generators emit only valid
//!   code, so such a refusal is a failure.
//! - Lifted IR that does not pass [`wavejit_ir::verify::verify`], or a lifter panic, is a
//!   failure too.
//!
//! A failure is minimised while a failure of the same kind persists and written to
//! `out/<target>-seed<seed>/` (`program.s` minimised, `original.s`, `initial_state.json`,
//! `summary.txt`); the campaign then stops with `Err` naming the directory.
//!
//! # Disagreements
//!
//! A disagreement is minimised while the engines still disagree (any difference) on a case
//! that lifts without drops, and written to `out/<target>-seed<seed>/`: `program.s` (the
//! minimised listing), `original.s`, `initial_state.json` (of the minimised case),
//! `diff.txt` (the outcomes, then one `name: reference candidate` line per differing register
//! cell or memory word) and `summary.txt` (one line); the campaign then stops with `Err`.

use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wavejit_ir::{Function, StateLayout};
use wavejit_isa::shrink::minimise;
pub use wavejit_isa::{LiftError, LiftErrorKind};
use wavejit_runtime::solo::{self, panic_text, Diff, End, Solo};
use wavejit_runtime::Engine;

/// Unsupported instructions dropped from one program at most (see the module doc).
pub const MAX_DROPS: usize = 8;

/// The suffix of an `--isa` value that selects an ISA's memory-heavy generator (`gcn-mem`,
/// `gfx9-mem`, `terascale-mem`, ...).
pub const MEMORY_SUFFIX: &str = "-mem";

/// An `--isa` value split into the campaign's name (lower case) and whether it asks for the
/// memory-heavy generator ([`MEMORY_SUFFIX`]); every ISA reads its values through this.
pub fn split_isa(isa: &str) -> (String, bool) {
    let lower = isa.to_ascii_lowercase();
    match lower.strip_suffix(MEMORY_SUFFIX) {
        Some(name) => (name.to_string(), true),
        None => (lower, false),
    }
}

/// `wavejit fuzz --isa ISA`: the interpreter against the JIT (tiering up after
/// `tier_up_after` executions of a block) for `seconds`, from `seed` (the clock when
/// `None`). `ISA` is any name a registered frontend's
/// [`fuzz_names`](crate::frontend::Frontend::fuzz_names) lists. A disagreement or a lifter
/// failure returns `Err` naming the reproducer directory under `out`.
pub fn campaign(
    isa: &str,
    seconds: u64,
    seed: Option<u64>,
    out: &Path,
    progress: bool,
    tier_up_after: u32,
) -> Result<CampaignReport, String> {
    let frontends = crate::registry::FRONTENDS;
    let Some(campaign) = frontends.iter().find_map(|f| f.fuzz(isa)) else {
        let names: Vec<&str> = frontends
            .iter()
            .flat_map(|f| f.fuzz_names().iter().copied())
            .collect();
        return Err(format!(
            "unknown ISA '{isa}' for fuzzing (expected one of: {})",
            names.join(", ")
        ));
    };
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let budget = Budget {
        duration: Duration::from_secs(seconds),
        max_programs: None,
        seed,
        out: out.to_path_buf(),
        progress,
    };
    let opts = wavejit_jit::JitOptions {
        tier_up_after: Some(tier_up_after),
        ..wavejit_jit::JitOptions::default()
    };
    let jit = Arc::new(wavejit_jit::Jit::with_options(opts).map_err(|e| e.to_string())?);
    campaign.run(&budget, Arc::new(wavejit_runtime::interp::Interpreter), jit)
}

/// A fuzz campaign of one ISA, as the registry hands it out.
pub trait Campaign {
    /// Runs programs until the budget is spent. A disagreement or a lifter failure writes a
    /// reproducer directory and returns Err naming it.
    fn run(
        &self,
        budget: &Budget,
        reference: Arc<dyn Engine>,
        candidate: Arc<dyn Engine>,
    ) -> Result<CampaignReport, String>;
}

/// How long a campaign runs and where it reports; the same for every ISA.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Wall-clock budget (a campaign stops at whichever limit comes first).
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

/// What an ISA brings to the [`Driver`]; everything else is shared (see the module doc).
pub trait FuzzIsa: Sync {
    /// What a program is generated for (a generation, a chip); used round-robin.
    type Target: Copy;
    /// One test: a program and the state it starts from.
    type Case: Clone;

    /// The targets of the campaign, in round-robin order (at least one).
    fn targets(&self) -> Vec<Self::Target>;

    /// The target's name (`gfx9`, `cayman`): report key and reproducer directory prefix.
    fn target_name(&self, target: Self::Target) -> &'static str;

    /// The case of `seed` for `target`.
    fn generate(&self, target: Self::Target, seed: u64) -> Result<Self::Case, String>;

    /// Lifts the case's program (the case's state may set lifting options, such as a float
    /// mode). An error's `pc` is what [`FuzzIsa::without_instruction_at`] takes.
    fn lift(&self, case: &Self::Case) -> Result<Function, LiftError>;

    /// The case without the instruction at byte offset `pc`, if the ISA can drop that one
    /// instruction alone (branches keep their targets).
    fn without_instruction_at(&self, case: &Self::Case, pc: u64) -> Option<Self::Case>;

    /// The one-step reductions of a case, biggest first, each a valid case (it lays out).
    fn reductions(&self, case: &Self::Case) -> Vec<Self::Case>;

    /// The wave a case starts as, for a function of `layout`: its registers, guest memory
    /// with the watched ranges the program can write, LDS and private memory.
    fn solo(&self, case: &Self::Case, layout: &StateLayout) -> Result<Solo, String>;

    /// The case's program in the ISA's assembly syntax; the ISA's assembler takes it back.
    fn listing(&self, case: &Self::Case) -> String;

    /// The case's initial state, for `initial_state.json` (the driver adds `target` and
    /// `seed`).
    fn state_json(&self, case: &Self::Case) -> serde_json::Value;

    /// Machine instructions in the case's program.
    fn instructions(&self, case: &Self::Case) -> usize;

    /// The instruction forms the program contains, for the report's mix (may be empty).
    fn forms(&self, _case: &Self::Case) -> Vec<String> {
        Vec::new()
    }

    /// Guest instructions one run may execute.
    fn fuel(&self) -> u64;
}

/// The one campaign driver: any [`FuzzIsa`] as a [`Campaign`].
pub struct Driver<I: FuzzIsa> {
    isa: I,
}

impl<I: FuzzIsa> Driver<I> {
    pub fn new(isa: I) -> Driver<I> {
        Driver { isa }
    }

    pub fn isa(&self) -> &I {
        &self.isa
    }
}

impl<I: FuzzIsa + 'static> Driver<I> {
    /// The driver as the registry hands it out.
    pub fn boxed(isa: I) -> Box<dyn Campaign> {
        Box::new(Driver::new(isa))
    }
}

impl<I: FuzzIsa> Campaign for Driver<I> {
    fn run(
        &self,
        budget: &Budget,
        reference: Arc<dyn Engine>,
        candidate: Arc<dyn Engine>,
    ) -> Result<CampaignReport, String> {
        let targets = self.isa.targets();
        if targets.is_empty() {
            return Err("nothing to fuzz: no target given".into());
        }
        let engines = Engines {
            reference: &*reference,
            candidate: &*candidate,
        };
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
            let name = self.isa.target_name(target);
            let outcome = self.one(target, seed, &engines, &budget.out, &mut report);
            report.elapsed = start.elapsed();
            if let Err(msg) = outcome {
                finish(&bar);
                return Err(format!("{name} seed {seed}: {msg}"));
            }
            if let Some(b) = &bar {
                b.set_message(format!(
                    "{} programs, {} instructions, {} mismatches ({name})",
                    report.programs, report.instructions, report.mismatches,
                ));
                b.tick();
            }
        }
        finish(&bar);
        report.elapsed = start.elapsed();
        Ok(report)
    }
}

/// The two engines of a campaign.
struct Engines<'a> {
    reference: &'a dyn Engine,
    candidate: &'a dyn Engine,
}

/// What kind of lifting failure a case has (minimisation keeps the kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FailureKind {
    Refused(LiftErrorKind),
    Unverified,
    Panic,
}

/// A lifting failure: its kind and message.
#[derive(Clone, Debug)]
struct Failure {
    kind: FailureKind,
    message: String,
}

/// What the lifting policy made of a case.
enum Lifting<C> {
    /// The case (after drops) and its verified function.
    Lifted(C, Arc<Function>),
    /// More than [`MAX_DROPS`] unsupported instructions.
    Skipped,
    /// The case (after drops) and its failure.
    Failed(C, Failure),
}

impl<I: FuzzIsa> Driver<I> {
    /// Generates, lifts, runs and compares program `seed` for `target`, counting into `report`.
    fn one(
        &self,
        target: I::Target,
        seed: u64,
        engines: &Engines<'_>,
        out: &Path,
        report: &mut CampaignReport,
    ) -> Result<(), String> {
        let isa = &self.isa;
        let name = isa.target_name(target);
        let case = isa.generate(target, seed)?;
        let mut dropped = |mnemonic: &str| {
            *report.unsupported.entry(mnemonic.to_string()).or_default() += 1;
        };
        let (case, f) = match self.lift_with_policy(case.clone(), &mut dropped) {
            Lifting::Lifted(case, f) => (case, f),
            Lifting::Skipped => {
                report.skipped += 1;
                return Ok(());
            }
            Lifting::Failed(failed, failure) => {
                report.mismatches += 1;
                let small = minimise(
                    &failed,
                    |c| isa.reductions(c),
                    |c| self.failure(c).is_some_and(|f| f.kind == failure.kind),
                );
                let small_failure = self.failure(&small).unwrap_or_else(|| failure.clone());
                let repro = Reproducer {
                    out,
                    target: name,
                    seed,
                };
                let dir = repro
                    .lift_failure(isa, &case, &small, &failure, &small_failure)
                    .map_err(|e| format!("writing the reproducer: {e}"))?;
                return Err(format!(
                    "lifter failure: {}; minimised to {} instructions; reproducer in {}",
                    failure.message,
                    isa.instructions(&small),
                    dir.display()
                ));
            }
        };
        report.programs += 1;
        report.instructions += isa.instructions(&case) as u64;
        *report.per_gen.entry(name).or_default() += 1;
        for form in isa.forms(&case) {
            *report.mix.entry(form).or_default() += 1;
        }
        let start = isa.solo(&case, &f.layout)?;
        let (a, _, diff) =
            solo::run_both(engines.reference, engines.candidate, &f, start, isa.fuel());
        report.executed += a.executed;
        let Some(diff) = diff else {
            report.count_outcome(&a.end);
            return Ok(());
        };
        report.mismatches += 1;
        let mut small_diff = diff.clone();
        let small = minimise(
            &case,
            |c| isa.reductions(c),
            |c| match self.diff(c, engines) {
                Some(d) => {
                    // The minimiser keeps every case that fails: this is the new best's.
                    small_diff = d;
                    true
                }
                None => false,
            },
        );
        let repro = Reproducer {
            out,
            target: name,
            seed,
        };
        let dir = repro
            .disagreement(isa, &case, &small, &small_diff)
            .map_err(|e| format!("writing the reproducer: {e}"))?;
        Err(format!(
            "engines disagree ({}); minimised to {} instructions; reproducer in {}",
            small_diff.headline(),
            isa.instructions(&small),
            dir.display()
        ))
    }

    /// Lifts and verifies `case` as it is.
    /// A refusal as unsupported comes with its error, for the policy to drop the instruction.
    fn lift_verified(&self, case: &I::Case) -> Result<Arc<Function>, (Failure, Option<LiftError>)> {
        let lifted = catch_unwind(AssertUnwindSafe(|| self.isa.lift(case)));
        let f = match lifted {
            Ok(Ok(f)) => f,
            Ok(Err(e)) => {
                let failure = Failure {
                    kind: FailureKind::Refused(e.kind),
                    message: e.to_string(),
                };
                return Err((failure, e.is_unsupported().then_some(e)));
            }
            Err(p) => {
                let failure = Failure {
                    kind: FailureKind::Panic,
                    message: format!("the lifter panicked: {}", panic_text(&*p)),
                };
                return Err((failure, None));
            }
        };
        if let Err(e) = wavejit_ir::verify::verify(&f) {
            let failure = Failure {
                kind: FailureKind::Unverified,
                message: format!("lifted IR does not verify: {e}"),
            };
            return Err((failure, None));
        }
        Ok(Arc::new(f))
    }

    /// The lifting policy of the module doc; `dropped` hears the mnemonic of every
    /// instruction dropped as unsupported.
    fn lift_with_policy(
        &self,
        mut case: I::Case,
        dropped: &mut dyn FnMut(&str),
    ) -> Lifting<I::Case> {
        let mut drops = 0;
        loop {
            let (failure, refusal) = match self.lift_verified(&case) {
                Ok(f) => return Lifting::Lifted(case, f),
                Err(e) => e,
            };
            let Some(refusal) = refusal else {
                return Lifting::Failed(case, failure);
            };
            if drops == MAX_DROPS {
                return Lifting::Skipped;
            }
            let Some(smaller) = self.isa.without_instruction_at(&case, refusal.pc) else {
                return Lifting::Failed(case, failure);
            };
            dropped(refusal.text.split_whitespace().next().unwrap_or("?"));
            drops += 1;
            case = smaller;
        }
    }

    /// The lifting failure of `case` under the policy, if it has one.
    fn failure(&self, case: &I::Case) -> Option<Failure> {
        match self.lift_with_policy(case.clone(), &mut |_| {}) {
            Lifting::Failed(_, f) => Some(f),
            _ => None,
        }
    }

    /// How the engines disagree on `case` lifted without drops (`None`: they agree, or it
    /// does not lift).
    fn diff(&self, case: &I::Case, engines: &Engines<'_>) -> Option<Diff> {
        let f = self.lift_verified(case).ok()?;
        let start = self.isa.solo(case, &f.layout).ok()?;
        solo::run_both(
            engines.reference,
            engines.candidate,
            &f,
            start,
            self.isa.fuel(),
        )
        .2
    }
}

/// Where one failing program's reproducer goes: `out/<target>-seed<seed>/`.
struct Reproducer<'a> {
    out: &'a Path,
    target: &'static str,
    seed: u64,
}

impl Reproducer<'_> {
    fn dir(&self) -> std::io::Result<PathBuf> {
        let dir = self.out.join(format!("{}-seed{}", self.target, self.seed));
        std::fs::create_dir_all(&dir)?;
        Ok(dir)
    }

    /// `program.s` (of `small`), `original.s` and `initial_state.json` (of `small`).
    fn common<I: FuzzIsa>(
        &self,
        dir: &Path,
        isa: &I,
        original: &I::Case,
        small: &I::Case,
    ) -> std::io::Result<()> {
        std::fs::write(dir.join("program.s"), isa.listing(small))?;
        std::fs::write(dir.join("original.s"), isa.listing(original))?;
        let mut state = isa.state_json(small);
        if let Some(m) = state.as_object_mut() {
            m.insert("target".into(), self.target.into());
            m.insert("seed".into(), self.seed.into());
        }
        std::fs::write(
            dir.join("initial_state.json"),
            serde_json::to_string_pretty(&state).unwrap_or_default(),
        )
    }

    /// A disagreement's directory (see the module doc).
    fn disagreement<I: FuzzIsa>(
        &self,
        isa: &I,
        original: &I::Case,
        small: &I::Case,
        diff: &Diff,
    ) -> std::io::Result<PathBuf> {
        let dir = self.dir()?;
        self.common(&dir, isa, original, small)?;
        std::fs::write(dir.join("diff.txt"), diff.text())?;
        std::fs::write(
            dir.join("summary.txt"),
            format!(
                "{} seed {}: reference and candidate engines disagree ({}); {} instructions (from {})\n",
                self.target,
                self.seed,
                diff.headline(),
                isa.instructions(small),
                isa.instructions(original)
            ),
        )?;
        Ok(dir)
    }

    /// A lifting failure's directory (see the module doc).
    fn lift_failure<I: FuzzIsa>(
        &self,
        isa: &I,
        original: &I::Case,
        small: &I::Case,
        failure: &Failure,
        small_failure: &Failure,
    ) -> std::io::Result<PathBuf> {
        let dir = self.dir()?;
        self.common(&dir, isa, original, small)?;
        let was = if small_failure.message == failure.message {
            String::new()
        } else {
            format!(" (the original: {})", failure.message)
        };
        std::fs::write(
            dir.join("summary.txt"),
            format!(
                "{} seed {}: lifter failure: {}{was}; {} instructions (from {})\n",
                self.target,
                self.seed,
                small_failure.message,
                isa.instructions(small),
                isa.instructions(original)
            ),
        )?;
        Ok(dir)
    }
}

/// Counts of a finished campaign.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CampaignReport {
    pub seed: u64,
    /// Programs lifted and run on both engines.
    pub programs: u64,
    /// Instructions in the programs run (after dropping unsupported ones).
    pub instructions: u64,
    /// Guest instructions executed per engine (summed over programs).
    pub executed: u64,
    /// Programs per target (generation or chip).
    pub per_gen: BTreeMap<&'static str, u64>,
    /// Programs where both engines faulted identically (by fault kind) / ran out of fuel.
    pub faulted: u64,
    pub faults: BTreeMap<String, u64>,
    pub out_of_fuel: u64,
    /// Instructions dropped because the lifter does not support them, by mnemonic.
    pub unsupported: BTreeMap<String, u64>,
    /// Programs skipped because the lifter refused more than [`MAX_DROPS`] instructions.
    pub skipped: u64,
    /// Disagreements and lifting failures (a campaign stops at the first).
    pub mismatches: u64,
    pub elapsed: Duration,
    /// Programs run that contain each instruction form (filled by ISAs that count their
    /// mix; printed on a second line).
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
            End::Done | End::EngineError(_) => {}
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
