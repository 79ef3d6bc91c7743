//! What the fuzz campaign tests of every ISA share: planted bugs (engines that run the
//! interpreter and then corrupt one thing, which a campaign must find, minimise and report),
//! budgets that count programs, and reading a reproducer directory.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use wavejit::fuzz::Budget;
use wavejit_ir::{Block, Function, InstKind, Reg};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, ExecError, Fault, Program, WaveCtx};

/// Runs the interpreter, then flips bit 0 of lane 0 of the register `reg` picks after every
/// block that writes that register.
pub struct FlipLane0 {
    pub name: &'static str,
    pub reg: fn(&Function) -> Reg,
}

struct FlipProgram {
    inner: Arc<dyn Program>,
    func: Arc<Function>,
    reg: Reg,
}

impl Engine for FlipLane0 {
    fn name(&self) -> &'static str {
        self.name
    }

    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError> {
        Ok(Arc::new(FlipProgram {
            inner: Interpreter.prepare(func.clone())?,
            reg: (self.reg)(&func),
            func,
        }))
    }
}

impl Program for FlipProgram {
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        let exit = self.inner.run_block(block, ctx)?;
        let writes = self.func.blocks[block.index()]
            .insts
            .iter()
            .any(|i| matches!(i.kind, InstKind::WriteReg { reg, .. } if reg == self.reg));
        if writes {
            let x = ctx.state.lane(self.reg, 0);
            ctx.state.set_lane(self.reg, 0, x ^ 1);
        }
        Ok(exit)
    }
}

/// An empty scratch directory for reproducers (removed first if a previous run left it).
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-fuzz-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A budget of exactly `programs` programs from `seed` (the wall-clock cap only guards
/// against a hang; tests count programs, never time).
pub fn programs(seed: u64, programs: u64, out: &Path) -> Budget {
    Budget {
        duration: Duration::from_secs(600),
        max_programs: Some(programs),
        seed,
        out: out.to_path_buf(),
        progress: false,
    }
}

/// The JIT, the candidate of the real campaigns.
pub fn jit() -> Arc<dyn Engine> {
    Arc::new(wavejit_jit::Jit::new().expect("the JIT starts"))
}

/// The one reproducer directory a failed campaign wrote under `out`.
pub struct Reproducer(pub PathBuf);

impl Reproducer {
    pub fn only_one_in(out: &Path) -> Reproducer {
        let dirs: Vec<PathBuf> = std::fs::read_dir(out)
            .expect("reproducer directory")
            .map(|e| e.expect("entry").path())
            .collect();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        Reproducer(dirs[0].clone())
    }

    pub fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.0.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
    }

    pub fn has(&self, file: &str) -> bool {
        self.0.join(file).exists()
    }

    pub fn state(&self) -> serde_json::Value {
        serde_json::from_str(&self.read("initial_state.json")).expect("JSON state")
    }

    /// The directory's name: `<target>-seed<seed>`.
    pub fn name(&self) -> String {
        self.0.file_name().unwrap().to_string_lossy().into_owned()
    }

    /// Checks what every reproducer holds: a minimised `program.s` shorter than
    /// `original.s` (instruction lines are indented), an initial state naming the target
    /// and seed of the directory, a one-line summary; returns `program.s`.
    pub fn check_common(&self, target: &str) -> String {
        let count = |s: &str| s.lines().filter(|l| l.starts_with("  ")).count();
        let (small, original) = (self.read("program.s"), self.read("original.s"));
        assert!(count(&small) < count(&original), "not minimised:\n{small}");
        let state = self.state();
        assert_eq!(state["target"], target, "{state}");
        assert_eq!(
            self.name(),
            format!("{target}-seed{}", state["seed"]),
            "{state}"
        );
        assert_eq!(self.read("summary.txt").lines().count(), 1);
        small
    }
}

/// The JIT compiling every block at tier 2 at once (the campaigns' JIT starts at tier 1 and
/// tiers up after many executions, which a fuzz program rarely reaches).
pub fn jit_tier2() -> Arc<dyn Engine> {
    let opts = wavejit_jit::JitOptions {
        tier_up_after: Some(0),
        ..wavejit_jit::JitOptions::default()
    };
    Arc::new(wavejit_jit::Jit::with_options(opts).expect("the JIT starts"))
}

/// A second pass over a campaign's programs (see [`second_opinion`]).
#[derive(Debug, Default)]
pub struct SecondOpinion {
    /// Programs run (those that lift as generated).
    pub runs: u64,
    /// Programs where both engines faulted.
    pub faulted: u64,
    /// `seed: ...` for every program whose runs differ: in anything
    /// [`wavejit_runtime::solo::compare`] compares, or in the fault's lane or address.
    pub differ: Vec<String>,
}

/// Runs the programs `seed..seed + n` of `isa` (targets round-robin, as the driver does) that
/// lift as generated on the interpreter and on `candidate`, and compares them as the driver
/// does and also their faults in full (kind, pc, lane and address):
/// [`wavejit_runtime::solo::compare`] leaves the lane and address out (an engine may report
/// another lane), but the JIT's memory paths promise the interpreter's report, so a memory
/// campaign holds them to it.
pub fn second_opinion<I: wavejit::fuzz::FuzzIsa>(
    isa: &I,
    targets: &[I::Target],
    seed: u64,
    n: u64,
    candidate: &dyn Engine,
) -> SecondOpinion {
    let mut out = SecondOpinion::default();
    for k in 0..n {
        let target = targets[k as usize % targets.len()];
        let case = isa
            .generate(target, seed + k)
            .unwrap_or_else(|e| panic!("{e}"));
        let Ok(f) = isa.lift(&case) else { continue };
        let f = Arc::new(f);
        let solo = isa.solo(&case, &f.layout).unwrap_or_else(|e| panic!("{e}"));
        let fuel = isa.fuel();
        let (a, b, diff) = wavejit_runtime::solo::run_both(&Interpreter, candidate, &f, solo, fuel);
        out.runs += 1;
        if a.fault.is_some() && b.fault.is_some() {
            out.faulted += 1;
        }
        if let Some(d) = diff {
            out.differ
                .push(format!("seed {}: {}", seed + k, d.headline()));
        } else if a.fault != b.fault {
            out.differ
                .push(format!("seed {}: {:?} / {:?}", seed + k, a.fault, b.fault));
        }
    }
    out
}

/// What the second opinions on a memory-heavy campaign's programs ([`second_opinion`], at
/// tier 1 and tier 2) must show: faults, at tier 1 no more than the campaign saw, and no
/// disagreement.
pub fn assert_second_opinions(
    report: &wavejit::fuzz::CampaignReport,
    tier1: &SecondOpinion,
    tier2: &SecondOpinion,
) {
    assert!(
        tier1.faulted > 0 && tier1.faulted <= report.faulted,
        "{tier1:?}"
    );
    assert!(tier2.faulted > 0, "{tier2:?}");
    assert!(tier1.differ.is_empty(), "tier 1: {:#?}", tier1.differ);
    assert!(tier2.differ.is_empty(), "tier 2: {:#?}", tier2.differ);
}

/// What a memory-heavy campaign of `programs` programs must show whatever the ISA: no
/// mismatch, mostly memory instructions (`memory` of `total`), programs that fault and
/// programs that complete (the edges reached from both sides), and the global faults of an
/// access past a buffer's end and of a misaligned atomic.
pub fn assert_memory_campaign(
    report: &wavejit::fuzz::CampaignReport,
    programs: u64,
    memory: usize,
    total: usize,
) {
    assert_eq!(report.mismatches, 0);
    assert!(
        2 * memory > total,
        "{memory} memory instructions of {total}"
    );
    let completed = report.programs - report.faulted - report.out_of_fuel;
    assert!(
        report.faulted >= programs / 10 && completed >= programs / 3,
        "the edges should be reached from both sides: {report}"
    );
    for kind in [
        "out-of-bounds load from Global memory",
        "out-of-bounds store to Global memory",
        "misaligned atomic on Global memory",
    ] {
        assert!(report.faults.contains_key(kind), "no {kind}: {report}");
    }
}
