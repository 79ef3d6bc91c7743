//! Differential fuzzing of the GCN path (see [`super`] for what is compared): seeded random
//! programs ([`wavejit_gcn::random`]); the global buffer and the LDS are compared as well as
//! the registers.
//!
//! On a disagreement the case is minimised (delta debugging over the instructions, then
//! operand and initial-state simplification, each step kept only while the disagreement
//! persists) and a reproducer directory is written (see [`write_reproducer`]). A program the
//! lifter rejects as invalid, or whose lifted IR does not verify, is a failure too (the
//! generator only emits valid code); an instruction the lifter does not support yet is
//! dropped from the program and counted in the report.
//!
//! One wave64 runs alone ([`super::run_wave`]).

use super::{
    compare, drive, hex, prepare, run_wave, Budget, CampaignReport, Diff, Run, WaveMemory,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wavejit_gcn::lift::{lift, GcnLayout, LiftConfig, LiftError};
use wavejit_gcn::random::{
    self, GenConfig, InitState, Item, RandomProgram, BUFFER_BYTES, VGPR_ROWS,
};
use wavejit_gcn::{Gen, Operand};
use wavejit_ir::Function;
use wavejit_runtime::{Engine, GuestMemory, WaveState};

/// Guest instructions one run may execute (generated loops need a few hundred).
pub const FUEL: u64 = 20_000;
/// Guest address of the code (only `s_getpc_b64` sees it).
pub const CODE_BASE: u64 = 0x10_0000;
/// Lift attempts per program (each drops one unsupported instruction).
const MAX_DROPS: usize = 8;

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignOptions {
    /// Generations, used round-robin.
    pub gens: Vec<Gen>,
    pub budget: Budget,
    pub gen_config: GenConfig,
}

/// The generations an `--isa` value names: `gcn` (all, round-robin) or `gfx6`..`gfx9`.
pub fn parse_isa(isa: &str) -> Option<Vec<Gen>> {
    match isa.to_ascii_lowercase().as_str() {
        "gcn" => Some(Gen::ALL.to_vec()),
        "gfx6" => Some(vec![Gen::Gfx6]),
        "gfx7" => Some(vec![Gen::Gfx7]),
        "gfx8" => Some(vec![Gen::Gfx8]),
        "gfx9" => Some(vec![Gen::Gfx9]),
        _ => None,
    }
}

/// A campaign between any two engines (`reference` is believed).
pub fn run_campaign(
    opts: &CampaignOptions,
    reference: Arc<dyn Engine>,
    candidate: Arc<dyn Engine>,
) -> Result<CampaignReport, String> {
    let mut runner = Runner::new(reference, candidate)?;
    drive(&opts.budget, &opts.gens, Gen::name, |gen, seed, report| {
        let case = Case::new(gen, seed, &opts.gen_config)?;
        match runner.check_lifting(case, report) {
            Checked::Agree | Checked::Skipped => Ok(()),
            Checked::LiftFailure(case, msg) => {
                report.mismatches += 1;
                let dir = write_lift_failure(&opts.budget.out, &case, &msg)
                    .map_err(|e| format!("writing the reproducer: {e}"))?;
                Err(format!(
                    "lifter failure: {msg}; reproducer in {}",
                    dir.display()
                ))
            }
            Checked::Mismatch(case, diff) => {
                report.mismatches += 1;
                let (small, small_diff) = runner.minimise(case.clone(), diff.clone());
                let dir = write_reproducer(&opts.budget.out, &case, &small, &small_diff)
                    .map_err(|e| format!("writing the reproducer: {e}"))?;
                Err(format!(
                    "engines disagree ({}); minimised to {} instructions; reproducer in {}",
                    small_diff.headline(),
                    small.items.len(),
                    dir.display()
                ))
            }
        }
    })
}

/// One differential test case: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    pub gen: Gen,
    pub seed: u64,
    pub items: Vec<Item>,
    pub init: InitState,
    /// Initial contents of the global buffer and of the LDS.
    pub buffer: Vec<u8>,
    pub lds: Vec<u8>,
}

impl Case {
    /// The generated case of `seed`.
    pub fn new(gen: Gen, seed: u64, cfg: &GenConfig) -> Result<Case, String> {
        let p = random::generate(gen, seed, cfg)
            .map_err(|e| format!("generator ({} seed {seed}): {e}", gen.name()))?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x00b0_ffe4);
        let mut bytes = |n: u32| (0..n).map(|_| rng.gen::<u8>()).collect::<Vec<u8>>();
        let buffer = bytes(BUFFER_BYTES);
        let lds = bytes(BUFFER_BYTES);
        Ok(Case {
            gen,
            seed,
            items: p.items,
            init: InitState::random(seed),
            buffer,
            lds,
        })
    }

    /// The laid-out program (`None` if an edited case no longer encodes).
    pub fn program(&self) -> Option<RandomProgram> {
        random::layout(self.gen, self.items.clone()).ok()
    }

    fn lift_config(&self) -> LiftConfig {
        LiftConfig {
            gen: self.gen,
            float_mode: self.init.float_mode,
            ieee_mode: self.init.ieee_mode,
            dx10_clamp: self.init.dx10_clamp,
            base: CODE_BASE,
            name: format!("{}_seed{}", self.gen.name(), self.seed),
        }
    }

    /// Removes item `i`, keeping every other branch on its target.
    fn without(&self, i: usize) -> Case {
        let mut c = self.clone();
        c.items.remove(i);
        for it in c.items.iter_mut() {
            if let Some(t) = it.target.as_mut() {
                if *t > i {
                    *t -= 1;
                }
            }
        }
        c
    }
}

enum Checked {
    Agree,
    Skipped,
    LiftFailure(Case, String),
    Mismatch(Case, Diff),
}

/// Runs cases on two engines, sharing one guest memory.
pub struct Runner {
    reference: Arc<dyn Engine>,
    candidate: Arc<dyn Engine>,
    mem: GuestMemory,
    buffer: u64,
    g: GcnLayout,
}

impl Runner {
    pub fn new(reference: Arc<dyn Engine>, candidate: Arc<dyn Engine>) -> Result<Runner, String> {
        let mut mem = GuestMemory::new().map_err(|e| e.to_string())?;
        let buffer = mem
            .alloc(BUFFER_BYTES as u64, 256)
            .map_err(|e| e.to_string())?;
        Ok(Runner {
            reference,
            candidate,
            mem,
            buffer,
            g: GcnLayout::new(),
        })
    }

    /// Lifts `case`, dropping unsupported instructions, then compares the engines.
    fn check_lifting(&mut self, mut case: Case, report: &mut CampaignReport) -> Checked {
        for _ in 0..MAX_DROPS {
            let Some(p) = case.program() else {
                return Checked::Skipped;
            };
            match lift(&p.code, &case.lift_config()) {
                Ok(f) => {
                    if let Err(e) = wavejit_ir::verify::verify(&f) {
                        return Checked::LiftFailure(
                            case,
                            format!("lifted IR does not verify: {e}"),
                        );
                    }
                    report.programs += 1;
                    report.instructions += case.items.len() as u64;
                    *report.per_gen.entry(case.gen.name()).or_default() += 1;
                    let f = Arc::new(f);
                    let (a, b) = self.run_both(&case, &f);
                    report.executed += a.executed;
                    if let Some(diff) = compare(&self.g.layout, &a, &b) {
                        return Checked::Mismatch(case, diff);
                    }
                    report.count_outcome(&a.end);
                    return Checked::Agree;
                }
                Err(LiftError::Unsupported { pc, text, .. }) => {
                    let Some(i) = p.item_at(pc) else {
                        return Checked::LiftFailure(
                            case,
                            format!("unsupported at {pc:#x}: {text}"),
                        );
                    };
                    let name = text.split_whitespace().next().unwrap_or("?").to_string();
                    *report.unsupported.entry(name).or_default() += 1;
                    case = case.without(i);
                }
                Err(e) => return Checked::LiftFailure(case, e.to_string()),
            }
        }
        report.skipped += 1;
        Checked::Skipped
    }

    /// Lifts and runs `case` on both engines; `None` if it does not lift (not a test then).
    pub fn diff(&mut self, case: &Case) -> Option<Diff> {
        let p = case.program()?;
        let f = lift(&p.code, &case.lift_config()).ok()?;
        wavejit_ir::verify::verify(&f).ok()?;
        let (a, b) = self.run_both(case, &Arc::new(f));
        compare(&self.g.layout, &a, &b)
    }

    fn run_both(&mut self, case: &Case, f: &Arc<Function>) -> (Run, Run) {
        let init = self.initial_state(case, f);
        let reference = self.reference.clone();
        let candidate = self.candidate.clone();
        let a = self.run(&*reference, f, &init, case);
        let b = self.run(&*candidate, f, &init, case);
        (a, b)
    }

    /// The wave state `case.init` describes, with the memory registers pointing at the buffer.
    fn initial_state(&self, case: &Case, f: &Function) -> WaveState {
        let mut init = case.init.clone();
        init.set_buffers(self.buffer);
        let g = &self.g;
        let mut s = WaveState::new(Arc::new(f.layout.clone()));
        for (n, v) in init.sgprs.iter().enumerate() {
            s.set_uniform(g.sgpr(n as u32), *v);
        }
        for (n, row) in init.vgprs.iter().enumerate() {
            for (l, v) in row.iter().enumerate() {
                s.set_lane(g.vgpr(n as u32), l as u32, *v);
            }
        }
        s.set_uniform(g.exec(), init.exec as u32);
        s.set_uniform(g.exec().offset(1), (init.exec >> 32) as u32);
        s.set_uniform(g.vcc(), init.vcc as u32);
        s.set_uniform(g.vcc().offset(1), (init.vcc >> 32) as u32);
        s.set_uniform(g.scc(), init.scc as u32);
        s.set_uniform(g.m0(), init.m0);
        s
    }

    fn run(
        &mut self,
        engine: &dyn Engine,
        f: &Arc<Function>,
        init: &WaveState,
        case: &Case,
    ) -> Run {
        let failed = Run::failed;
        let program = match prepare(engine, f) {
            Ok(p) => p,
            Err(why) => return failed(why),
        };
        if let Err(e) = self.mem.write_bytes(self.buffer, &case.buffer) {
            return failed(format!("buffer setup: {e}"));
        }
        let mut state = init.clone();
        let mut lds = case.lds.clone();
        let (end, executed) = run_wave(
            &*program,
            f,
            &mut state,
            &self.mem,
            WaveMemory {
                lds: &mut lds,
                private: &mut [],
                private_lane_bytes: 0,
            },
            engine.name(),
            FUEL,
        );
        let mut buffer = vec![0u8; case.buffer.len()];
        if let Err(e) = self.mem.read_bytes(self.buffer, &mut buffer) {
            return failed(format!("buffer readback: {e}"));
        }
        Run {
            end,
            state: Some(state),
            buffer,
            lds,
            gds: Vec::new(),
            private: Vec::new(),
            executed,
        }
    }

    /// Delta debugging: drop chunks of instructions (halving the chunk size down to one)
    /// while the engines still disagree, then simplify operands and the initial state.
    pub fn minimise(&mut self, mut case: Case, mut diff: Diff) -> (Case, Diff) {
        let mut chunk = (case.items.len() / 2).max(1);
        loop {
            let mut i = 0;
            let mut removed = false;
            while i < case.items.len() {
                let mut c = case.clone();
                let n = chunk.min(c.items.len() - i);
                for _ in 0..n {
                    c = c.without(i);
                }
                match self.diff(&c) {
                    Some(d) => {
                        case = c;
                        diff = d;
                        removed = true;
                    }
                    None => i += n,
                }
            }
            if chunk == 1 && !removed {
                break;
            }
            chunk = (chunk / 2).max(1);
        }
        for i in 0..case.items.len() {
            for k in 0..case.items[i].inst.operands.len() {
                let o = case.items[i].inst.operands[k];
                let simpler: &[Operand] = match o.value {
                    Operand::Literal(_) | Operand::InlineFloat(_) => {
                        &[Operand::InlineInt(0), Operand::InlineInt(1)]
                    }
                    Operand::InlineInt(v) if v != 0 => &[Operand::InlineInt(0)],
                    _ => &[],
                };
                for &v in simpler {
                    let mut c = case.clone();
                    c.items[i].inst.operands[k].value = v;
                    if let Some(d) = self.diff(&c) {
                        case = c;
                        diff = d;
                        break;
                    }
                }
            }
        }
        let tries: [fn(&mut InitState); 4] = [
            |s| s.exec = u64::MAX,
            |s| s.vcc = 0,
            |s| s.float_mode = 0xf0,
            |s| s.m0 = 0,
        ];
        for t in tries {
            let mut c = case.clone();
            t(&mut c.init);
            if let Some(d) = self.diff(&c) {
                case = c;
                diff = d;
            }
        }
        for r in 0..VGPR_ROWS {
            if case.init.vgprs[r].iter().any(|&v| v != 0) {
                let mut c = case.clone();
                c.init.vgprs[r] = [0; 64];
                if let Some(d) = self.diff(&c) {
                    case = c;
                    diff = d;
                }
            }
        }
        (case, diff)
    }
}

fn state_json(case: &Case) -> serde_json::Value {
    let s = &case.init;
    let vgprs: serde_json::Map<String, serde_json::Value> = s
        .vgprs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.iter().any(|&v| v != 0))
        .map(|(n, r)| {
            (
                format!("v{n}"),
                serde_json::json!(r.iter().map(|v| format!("{v:#010x}")).collect::<Vec<_>>()),
            )
        })
        .collect();
    serde_json::json!({
        "gen": case.gen.name(),
        "seed": case.seed,
        "float_mode": format!("{:#04x}", s.float_mode),
        "ieee_mode": s.ieee_mode,
        "dx10_clamp": s.dx10_clamp,
        "exec": format!("{:#018x}", s.exec),
        "vcc": format!("{:#018x}", s.vcc),
        "scc": s.scc,
        "m0": format!("{:#010x}", s.m0),
        "sgprs": s.sgprs.iter().map(|v| format!("{v:#010x}")).collect::<Vec<_>>(),
        "vgprs": vgprs,
        "buffer_hex": hex(&case.buffer),
        "lds_hex": hex(&case.lds),
        "note": "s[86:87] and v[40:41] hold the buffer address, v42 the lane's LDS offset (random::InitState::set_buffers)",
    })
}

fn case_dir(out: &Path, case: &Case) -> Result<PathBuf, std::io::Error> {
    let dir = out.join(format!("{}-seed{}", case.gen.name(), case.seed));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Writes `out/<gen>-seed<seed>/`: `program.s` (minimised; assembles with
/// `wavejit_gcn::assemble`), `original.s`, `initial_state.json` (of the minimised case),
/// `diff.txt` (outcomes and differing registers: name, reference value, candidate value) and
/// `summary.txt` (one line).
pub fn write_reproducer(
    out: &Path,
    original: &Case,
    small: &Case,
    diff: &Diff,
) -> Result<PathBuf, std::io::Error> {
    let dir = case_dir(out, original)?;
    let text = |c: &Case| c.program().map(|p| p.text()).unwrap_or_default();
    std::fs::write(dir.join("program.s"), text(small))?;
    std::fs::write(dir.join("original.s"), text(original))?;
    std::fs::write(
        dir.join("initial_state.json"),
        serde_json::to_string_pretty(&state_json(small)).unwrap_or_default(),
    )?;
    std::fs::write(dir.join("diff.txt"), diff.text())?;
    std::fs::write(
        dir.join("summary.txt"),
        format!(
            "{} seed {}: reference and candidate engines disagree ({}); {} instructions (from {})\n",
            original.gen.name(),
            original.seed,
            diff.headline(),
            small.items.len(),
            original.items.len()
        ),
    )?;
    Ok(dir)
}

/// Writes `program.s`, `initial_state.json` and `summary.txt` for a program the lifter
/// rejected (or whose IR does not verify).
fn write_lift_failure(out: &Path, case: &Case, msg: &str) -> Result<PathBuf, std::io::Error> {
    let dir = case_dir(out, case)?;
    std::fs::write(
        dir.join("program.s"),
        case.program().map(|p| p.text()).unwrap_or_default(),
    )?;
    std::fs::write(
        dir.join("initial_state.json"),
        serde_json::to_string_pretty(&state_json(case)).unwrap_or_default(),
    )?;
    let mut culprits = String::new();
    for c in lone_culprits(case) {
        culprits.push_str(&c);
        culprits.push('\n');
    }
    std::fs::write(dir.join("culprits.txt"), culprits)?;
    std::fs::write(
        dir.join("summary.txt"),
        format!(
            "{} seed {}: lifter failure: {msg}\n",
            case.gen.name(),
            case.seed
        ),
    )?;
    Ok(dir)
}

/// The instructions of `case` that fail to lift or verify on their own (followed by
/// `s_endpgm`), each with its error.
fn lone_culprits(case: &Case) -> Vec<String> {
    let Some(end) = case.items.last().cloned() else {
        return Vec::new();
    };
    case.items
        .iter()
        .filter(|it| it.target.is_none())
        .filter_map(|it| {
            let one = Case {
                items: vec![it.clone(), end.clone()],
                ..case.clone()
            };
            let p = one.program()?;
            let err = match lift(&p.code, &one.lift_config()) {
                Ok(f) => wavejit_ir::verify::verify(&f).err()?.to_string(),
                Err(LiftError::Unsupported { .. }) => return None,
                Err(e) => e.to_string(),
            };
            Some(format!("{}: {err}", wavejit_gcn::print(&it.inst)))
        })
        .collect()
}
