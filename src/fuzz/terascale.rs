//! Differential fuzzing of the TeraScale path (see [`super`] for what is compared): seeded
//! random programs ([`wavejit_terascale::random`]: nested control flow with loops, calls and
//! the ALU_* CF forms, instruction groups with PV/PS, kcache, literals, predicates and
//! relative addressing, CF_IDX and CLAUSE_GLOBAL, fetch clauses with scatter and scratch
//! reads and TEX instructions, RAT stores and atomics, scratch writes, LDS ops, Cayman GDS
//! clauses and the Cayman WQM/REACTIVATE CF forms) on a chip of each class. Each run gets its own guest memory: the
//! pool buffer ([`random::POOL_BYTES`], at `pool_base`: fetch buffer 1 and RAT 0), the
//! constant buffers and the GDS ([`GDS_BYTES`] at the `gds` cell, its first
//! [`random::GDS_WINDOW`] bytes from the initial state), the textures of
//! [`random::TEXTURES`] with their resource and sampler tables, plus an LDS of [`random::LDS_BYTES`]
//! and the private segments the program's scratch accesses need
//! ([`scratch_lane_bytes`], zero at the start); the pool, the LDS, the GDS window and the
//! private memory are compared after the run.
//! A disagreement is minimised with [`random::minimise`] and written as a reproducer
//! directory ([`write_reproducer`]). The generator emits only programs the lifter takes, so
//! any lifter error (unsupported included), or IR that does not verify, is a failure.
use super::{compare, drive, prepare, run_wave, Budget, CampaignReport, Diff, Run, WaveMemory};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wavejit_ir::Function;
use wavejit_runtime::{Engine, GuestMemory, WaveState};
use wavejit_terascale::inst::{CfInst, ClauseBody, Program};
use wavejit_terascale::launch::wave_size;
use wavejit_terascale::lift::state::GDS_BYTES;
use wavejit_terascale::lift::{lift, scratch_lane_bytes, LiftConfig, TsLayout};
use wavejit_terascale::random::{self, GenOptions, InitialState, RandomProgram, GPR_ROWS};
use wavejit_terascale::tables::FetchOp;
use wavejit_terascale::{print_program, AluOp, Chip, ChipClass};

/// Guest instructions one run may execute (generated loops run at most a few trips).
pub const FUEL: u64 = 200_000;
/// Guest address of the code.
pub const CODE_BASE: u64 = 0x1000;

/// What to run.
#[derive(Clone, Debug)]
pub struct CampaignOptions {
    /// Chip classes, used round-robin.
    pub classes: Vec<ChipClass>,
    pub budget: Budget,
    pub gen: GenOptions,
}

/// The classes an `--isa` value names: `terascale` (both), a class or a chip name.
pub fn parse_isa(isa: &str) -> Option<Vec<ChipClass>> {
    match isa.to_ascii_lowercase().as_str() {
        "terascale" | "r600" => Some(ChipClass::ALL.to_vec()),
        "evergreen" => Some(vec![ChipClass::Evergreen]),
        name => Chip::from_name(name).map(|c| vec![c.class()]),
    }
}

/// The chip a class's programs are lifted for.
fn chip_of(class: ChipClass) -> Chip {
    match class {
        ChipClass::Evergreen => Chip::Cypress,
        ChipClass::Cayman => Chip::Cayman,
    }
}

fn class_name(class: ChipClass) -> &'static str {
    match class {
        ChipClass::Evergreen => "evergreen",
        ChipClass::Cayman => "cayman",
    }
}

/// One differential test case: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub program: RandomProgram,
    pub init: InitialState,
}

impl Case {
    pub fn new(class: ChipClass, seed: u64, opts: &GenOptions) -> Result<Case, String> {
        let program = random::generate(seed, class, opts)
            .map_err(|e| format!("generator ({class:?} seed {seed}): {e}"))?;
        let init = InitialState::random(seed, wave_size(chip_of(class)));
        Ok(Case {
            seed,
            program,
            init,
        })
    }

    fn class(&self) -> ChipClass {
        self.program.class
    }

    /// The program's listing (empty if it no longer lays out).
    pub fn listing(&self) -> String {
        self.program
            .lower()
            .map(|p| print_program(&p).join("\n") + "\n")
            .unwrap_or_default()
    }

    /// The case with its program minimised while `still_fails` holds.
    fn minimised(&self, still_fails: impl Fn(&Case) -> bool) -> Case {
        let program = random::minimise(&self.program, |p| {
            still_fails(&Case {
                program: p.clone(),
                ..self.clone()
            })
        });
        Case {
            program,
            ..self.clone()
        }
    }
}

/// What lifting a case gave.
enum Lifted {
    /// The function and the private bytes per lane its scratch accesses need.
    Function(Arc<Function>, u32),
    Failure(String),
}

fn lift_case(case: &Case) -> Lifted {
    let program = match case.program.lower() {
        Ok(p) => p,
        Err(e) => return Lifted::Failure(format!("layout: {e}")),
    };
    let cfg = LiftConfig {
        chip: chip_of(case.class()),
        name: format!("{}_seed{}", class_name(case.class()), case.seed),
        base: CODE_BASE,
        fetch_subroutine: None,
    };
    match lift(&program, &cfg) {
        Ok(f) => match wavejit_ir::verify::verify(&f) {
            Ok(()) => Lifted::Function(Arc::new(f), scratch_lane_bytes(&program)),
            Err(e) => Lifted::Failure(format!("lifted IR does not verify: {e}")),
        },
        Err(e) => Lifted::Failure(e.to_string()),
    }
}

/// Runs cases on two engines.
pub struct Runner {
    reference: Arc<dyn Engine>,
    candidate: Arc<dyn Engine>,
}

impl Runner {
    pub fn new(reference: Arc<dyn Engine>, candidate: Arc<dyn Engine>) -> Runner {
        Runner {
            reference,
            candidate,
        }
    }

    /// How the engines' runs of a lifted case differ (`None`: they agree).
    fn compare_runs(&self, case: &Case, f: &Arc<Function>, lane_bytes: u32) -> (Option<Diff>, Run) {
        let a = run(&*self.reference, case, f, lane_bytes);
        let b = run(&*self.candidate, case, f, lane_bytes);
        (compare(&f.layout, &a, &b), a)
    }

    /// Lifts and runs `case`; `None` if the engines agree or the case does not lift.
    pub fn diff(&self, case: &Case) -> Option<Diff> {
        match lift_case(case) {
            Lifted::Function(f, lane_bytes) => self.compare_runs(case, &f, lane_bytes).0,
            _ => None,
        }
    }
}

/// One engine's run of a case: the wave state from `case.init`, the pool, the constant
/// buffers and the GDS in guest memory, the LDS from `case.init`, zeroed private segments of
/// `lane_bytes`; the pool, the LDS, the GDS window and the private memory are read back.
fn run(engine: &dyn Engine, case: &Case, f: &Arc<Function>, lane_bytes: u32) -> Run {
    let program = match prepare(engine, f) {
        Ok(p) => p,
        Err(why) => return Run::failed(why),
    };
    let st = &case.init;
    let mut mem = match GuestMemory::with_reserve(1 << 24) {
        Ok(m) => m,
        Err(e) => return Run::failed(format!("guest memory: {e}")),
    };
    let pool_bytes = st.pool_bytes();
    let pool = match mem.alloc_bytes(&pool_bytes, 256) {
        Ok(a) => a,
        Err(e) => return Run::failed(format!("pool buffer: {e}")),
    };
    let mut cbs = Vec::new();
    for b in 0..st.const_buffers.len() {
        match mem.alloc_bytes(&st.const_buffer_bytes(b), 256) {
            Ok(a) => cbs.push(a),
            Err(e) => return Run::failed(format!("constant buffer {b}: {e}")),
        }
    }
    let gds = match mem.alloc(u64::from(GDS_BYTES), 256) {
        Ok(a) => a,
        Err(e) => return Run::failed(format!("GDS: {e}")),
    };
    let gds_window = st.gds_bytes();
    if let Err(e) = mem.write_bytes(gds, &gds_window) {
        return Run::failed(format!("GDS setup: {e}"));
    }
    let (resources, samplers) = match tex_tables(&mut mem, st) {
        Ok(t) => t,
        Err(why) => return Run::failed(why),
    };
    let l = TsLayout::new(f.layout.wave_size);
    let mut w = WaveState::new(Arc::new(f.layout.clone()));
    for n in 0..GPR_ROWS {
        for c in 0..4 {
            for lane in 0..st.lanes {
                w.set_lane(l.gpr(n, c), lane, st.gpr(n, c, lane));
            }
        }
    }
    let pair = |w: &mut WaveState, r: wavejit_ir::Reg, v: u64| {
        w.set_uniform(r, v as u32);
        w.set_uniform(r.offset(1), (v >> 32) as u32);
    };
    pair(&mut w, l.active(), st.active);
    pair(&mut w, l.pool_base(), pool);
    pair(&mut w, l.gds(), gds);
    pair(&mut w, l.tex_resources(), resources);
    pair(&mut w, l.tex_samplers(), samplers);
    for (b, &addr) in cbs.iter().enumerate() {
        pair(&mut w, l.const_buffer(b as u32), addr);
    }
    let mut lds = st.lds_bytes();
    let mut private = vec![0u8; f.layout.wave_size as usize * lane_bytes as usize];
    let wm = WaveMemory {
        lds: &mut lds,
        private: &mut private,
        private_lane_bytes: lane_bytes,
    };
    let (end, executed) = run_wave(&*program, f, &mut w, &mem, wm, engine.name(), FUEL);
    let mut buffer = vec![0u8; pool_bytes.len()];
    if let Err(e) = mem.read_bytes(pool, &mut buffer) {
        return Run::failed(format!("pool readback: {e}"));
    }
    let mut gds_after = vec![0u8; gds_window.len()];
    if let Err(e) = mem.read_bytes(gds, &mut gds_after) {
        return Run::failed(format!("GDS readback: {e}"));
    }
    Run {
        end,
        state: Some(w),
        buffer,
        lds,
        gds: gds_after,
        private,
        executed,
    }
}

/// A campaign between any two engines (`reference` is believed).
pub fn run_campaign(
    opts: &CampaignOptions,
    reference: Arc<dyn Engine>,
    candidate: Arc<dyn Engine>,
) -> Result<CampaignReport, String> {
    let runner = Runner::new(reference, candidate);
    let out = &opts.budget.out;
    drive(
        &opts.budget,
        &opts.classes,
        class_name,
        |class, seed, report| {
            let case = Case::new(class, seed, &opts.gen)?;
            let (f, lane_bytes) = match lift_case(&case) {
                Lifted::Function(f, lane_bytes) => (f, lane_bytes),
                Lifted::Failure(msg) => {
                    report.mismatches += 1;
                    let small = case.minimised(|c| matches!(lift_case(c), Lifted::Failure(_)));
                    let dir = write_lift_failure(out, &case, &small, &msg)
                        .map_err(|e| format!("writing the reproducer: {e}"))?;
                    return Err(format!(
                        "lifter failure: {msg}; reproducer in {}",
                        dir.display()
                    ));
                }
            };
            report.programs += 1;
            report.instructions += case.program.instructions() as u64;
            if let Ok(p) = case.program.lower() {
                for form in forms(&p) {
                    *report.mix.entry(form).or_default() += 1;
                }
            }
            *report.per_gen.entry(class_name(class)).or_default() += 1;
            let (diff, a) = runner.compare_runs(&case, &f, lane_bytes);
            report.executed += a.executed;
            let Some(diff) = diff else {
                report.count_outcome(&a.end);
                return Ok(());
            };
            report.mismatches += 1;
            let small = case.minimised(|c| runner.diff(c).is_some());
            let small_diff = runner.diff(&small).unwrap_or(diff);
            let dir = write_reproducer(out, &case, &small, &small_diff)
                .map_err(|e| format!("writing the reproducer: {e}"))?;
            Err(format!(
                "engines disagree ({}); minimised to {} instructions; reproducer in {}",
                small_diff.headline(),
                small.program.instructions(),
                dir.display()
            ))
        },
    )
}

/// The instruction forms a program contains: its CF instructions (ALU_EXTENDED and RAT
/// instructions by form), fetch-clause instructions, and the ALU forms that name a feature
/// rather than a value op (LDS, flags, the CF index writes and reads, indexed resources).
fn forms(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in &p.cf {
        match e.inst {
            CfInst::Word(w) => {
                out.insert(w.op.name().to_string());
            }
            CfInst::Alu(a) => {
                out.insert(a.op.name().to_string());
                if let Some(x) = a.ext {
                    out.insert("ALU_EXTENDED".into());
                    if x.bank_index_mode.iter().any(|&m| m != 0) {
                        out.insert("KCACHE_BANK_INDEX_MODE".into());
                    }
                }
            }
            CfInst::Mem(m) => match m.rat {
                Some(r) => {
                    out.insert(format!("{} {}", m.op.name(), r.inst.name()));
                    if m.burst_count > 0 {
                        out.insert(format!("{} burst", m.op.name()));
                    }
                }
                None => {
                    out.insert(m.op.name().to_string());
                }
            },
        }
    }
    for c in &p.clauses {
        match &c.body {
            ClauseBody::Fetch(f) => {
                for f in f {
                    out.insert(f.op.name().to_string());
                    if f.op == FetchOp::VTX_FETCH && (f.words[2] >> 21) & 3 != 0 {
                        out.insert("BUFFER_INDEX_MODE".into());
                    }
                }
            }
            ClauseBody::Alu(groups) => {
                for i in groups.iter().flat_map(|g| &g.insts) {
                    let name = match i.op {
                        AluOp::MOVA_INT => match i.mova_dst(p.class) {
                            Some(2 | 3) => "MOVA_INT to CF_IDX",
                            Some(4..=7) => "MOVA_INT to CLAUSE_GLOBAL",
                            _ => "MOVA_INT",
                        },
                        AluOp::LDS_IDX_OP
                        | AluOp::SET_CF_IDX0
                        | AluOp::SET_CF_IDX1
                        | AluOp::STORE_FLAGS
                        | AluOp::LOAD_STORE_FLAGS
                        | AluOp::GROUP_BARRIER => i.op.name(),
                        _ => "",
                    };
                    if !name.is_empty() {
                        out.insert(name.to_string());
                    }
                    if i.src.iter().any(|s| s.sel == 225) && p.class == ChipClass::Cayman {
                        out.insert("CLAUSE_GLOBAL read".into());
                    }
                }
            }
        }
    }
    out
}

fn case_dir(out: &Path, case: &Case) -> Result<PathBuf, std::io::Error> {
    let dir = out.join(format!("{}-seed{}", class_name(case.class()), case.seed));
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// The textures of `st` ([`random::TEXTURES`], 256-byte aligned) and the resource and sampler
/// tables naming them; returns the tables' guest addresses.
fn tex_tables(mem: &mut GuestMemory, st: &InitialState) -> Result<(u64, u64), String> {
    let mut resources = Vec::new();
    for (t, texels) in random::TEXTURES.iter().zip(&st.texels) {
        let bytes: Vec<u8> = texels.iter().flat_map(|d| d.to_le_bytes()).collect();
        let base = mem
            .alloc_bytes(&bytes, 256)
            .map_err(|e| format!("texture: {e}"))?;
        resources.extend(t.resource_words(base).iter().flat_map(|d| d.to_le_bytes()));
    }
    let samplers: Vec<u8> = random::SAMPLERS
        .iter()
        .flatten()
        .flat_map(|d| d.to_le_bytes())
        .collect();
    let r = mem
        .alloc_bytes(&resources, 256)
        .map_err(|e| format!("resource table: {e}"))?;
    let s = mem
        .alloc_bytes(&samplers, 256)
        .map_err(|e| format!("sampler table: {e}"))?;
    Ok((r, s))
}

/// `initial_state.json`: every GPR row the programs read, the active mask, the constant
/// buffers, the pool and the LDS, as hex.
fn state_json(case: &Case) -> serde_json::Value {
    let st = &case.init;
    let gprs: serde_json::Map<String, serde_json::Value> = (0..GPR_ROWS)
        .flat_map(|n| (0..4).map(move |c| (n, c)))
        .map(|(n, c)| {
            let lanes: Vec<String> = (0..st.lanes)
                .map(|l| format!("{:#010x}", st.gpr(n, c, l)))
                .collect();
            (
                format!("R{n}.{}", ['x', 'y', 'z', 'w'][c as usize]),
                lanes.into(),
            )
        })
        .collect();
    let cbs: Vec<String> = (0..st.const_buffers.len())
        .map(|b| super::hex(&st.const_buffer_bytes(b)))
        .collect();
    serde_json::json!({
        "class": class_name(case.class()),
        "chip": chip_of(case.class()).name(),
        "seed": case.seed,
        "active": format!("{:#018x}", st.active),
        "gprs": gprs,
        "const_buffers_hex": cbs,
        "pool_hex": super::hex(&st.pool_bytes()),
        "lds_hex": super::hex(&st.lds_bytes()),
        "gds_hex": super::hex(&st.gds_bytes()),
        "texels_hex": st.texels.iter().map(|t| super::hex(&t.iter().flat_map(|d| d.to_le_bytes()).collect::<Vec<u8>>())).collect::<Vec<String>>(),
        "note": "the pool is fetch buffer 1 and RAT 0 (pool_base); the LDS starts at byte 0; \
                 gds_hex is the start of the 64 KiB GDS (the rest is zero); scratch starts zero",
    })
}

/// Writes `out/<class>-seed<seed>/`: `program.s` (the minimised program's listing; it
/// assembles with `wavejit_terascale::asm::assemble`), `original.s`, `initial_state.json`,
/// `diff.txt` and `summary.txt`.
pub fn write_reproducer(
    out: &Path,
    original: &Case,
    small: &Case,
    diff: &Diff,
) -> Result<PathBuf, std::io::Error> {
    let dir = case_dir(out, original)?;
    std::fs::write(dir.join("program.s"), small.listing())?;
    std::fs::write(dir.join("original.s"), original.listing())?;
    std::fs::write(
        dir.join("initial_state.json"),
        serde_json::to_string_pretty(&state_json(small)).unwrap_or_default(),
    )?;
    std::fs::write(dir.join("diff.txt"), diff.text())?;
    std::fs::write(
        dir.join("summary.txt"),
        format!(
            "{} seed {}: reference and candidate engines disagree ({}); {} instructions (from {})\n",
            class_name(original.class()),
            original.seed,
            diff.headline(),
            small.program.instructions(),
            original.program.instructions()
        ),
    )?;
    Ok(dir)
}

/// Writes `program.s` (minimised, still failing to lift), `original.s`, `initial_state.json`
/// and `summary.txt` for a program the lifter rejected (or whose IR does not verify).
fn write_lift_failure(
    out: &Path,
    case: &Case,
    small: &Case,
    msg: &str,
) -> Result<PathBuf, std::io::Error> {
    let dir = case_dir(out, case)?;
    std::fs::write(dir.join("program.s"), small.listing())?;
    std::fs::write(dir.join("original.s"), case.listing())?;
    std::fs::write(
        dir.join("initial_state.json"),
        serde_json::to_string_pretty(&state_json(case)).unwrap_or_default(),
    )?;
    std::fs::write(
        dir.join("summary.txt"),
        format!(
            "{} seed {}: lifter failure: {msg}\n",
            class_name(case.class()),
            case.seed
        ),
    )?;
    Ok(dir)
}
