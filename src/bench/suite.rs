//! `wavejit bench --suite kernels`: the fixture kernels at sizes where execution dominates,
//! for every ISA's benchmark target, under the JIT on one and two threads and the
//! interpreter, and (when it is installed) the same OpenCL C source under pocl with the same
//! inputs, all in one run.
//!
//! Figures are the dispatch's execute time (what `run --stats` reports as `seconds.execute`,
//! wall-clock, after a warm-up dispatch that lets the JIT's hot blocks reach tier 2), the
//! median of the repetitions; lane-instructions per second use the runtime's
//! `lane_insts`. Every engine's output buffers must equal the interpreter's bit for bit (the
//! interpreter runs once: it is the oracle and the slowest); pocl's outputs are compared
//! too and any difference is reported next to its time, since pocl is another compiler of
//! the same source, not an emulator of the same machine code.
//!
//! Inputs are generated here with fixed seeds at the suite's sizes; the kernels are the
//! fixture binaries (`tests/fixtures/<isa>/<target>/<kernel>.<ext>`), so they are the code
//! the fixture tests check against host-native outputs at small sizes.

use super::median;
use crate::fixtures;
use crate::launch::{prepare, Prepared, RunRequest};
use crate::spec::{ArgSpec, ValueKind};
use crate::{EngineKind, Result};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// One kernel of the suite at its benchmark size.
pub struct SuiteKernel {
    pub name: &'static str,
    /// What the size means, for the report.
    pub size: &'static str,
    pub global: [u32; 3],
    pub local: [u32; 3],
    /// The arguments (inputs generated here).
    pub args: Vec<ArgSpec>,
}

/// A deterministic generator (splitmix64).
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `n` floats in [-1, 1).
    pub(super) fn floats(&mut self, n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|_| ((self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0).to_le_bytes())
            .collect()
    }

    /// `n` words below `below`.
    pub(super) fn words(&mut self, n: usize, below: u32) -> Vec<u8> {
        (0..n)
            .flat_map(|_| ((self.next() % u64::from(below)) as u32).to_le_bytes())
            .collect()
    }
}

pub(super) fn u32v(v: u32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::U32,
        bits: u64::from(v),
    }
}

pub(super) fn f32v(v: f32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::F32,
        bits: u64::from(v.to_bits()),
    }
}

/// The suite: sizes from the issue that asked for it (matmul 512x512, collatz 2^18 items,
/// loop_fir 2^20, saxpy 2^22, a reduction and a histogram). `scale` divides every size (1
/// for the real suite; larger for a quick look).
pub fn kernels(scale: u32) -> Vec<SuiteKernel> {
    let s = scale.max(1);
    let mut rng = Rng(0x5eed_5417e);
    let mm = (512 / s).max(16).next_multiple_of(16);
    let collatz = (1u32 << 18) / s;
    let fir = (1u32 << 20) / s;
    let taps = 16;
    let saxpy = (1u32 << 22) / s;
    let reduce = (1u32 << 20) / s;
    let hist = (1u32 << 20) / s;
    vec![
        SuiteKernel {
            name: "matmul_tiled",
            size: "512x512x512",
            global: [mm, mm, 1],
            local: [16, 16, 1],
            args: vec![
                ArgSpec::Zero(u64::from(mm * mm * 4)),
                ArgSpec::Data(rng.floats((mm * mm) as usize)),
                ArgSpec::Data(rng.floats((mm * mm) as usize)),
                u32v(mm),
                u32v(mm),
                u32v(mm),
            ],
        },
        SuiteKernel {
            name: "collatz",
            size: "2^18 items, cap 1000",
            global: [collatz, 1, 1],
            local: [64, 1, 1],
            args: vec![
                ArgSpec::Zero(u64::from(collatz * 4)),
                ArgSpec::Data(rng.words(collatz as usize, 1 << 20)),
                u32v(1000),
            ],
        },
        SuiteKernel {
            name: "loop_fir",
            size: "2^20 outputs, 16 taps",
            global: [fir, 1, 1],
            local: [64, 1, 1],
            args: vec![
                ArgSpec::Zero(u64::from(fir * 4)),
                ArgSpec::Data(rng.floats((fir + taps - 1) as usize)),
                ArgSpec::Data(rng.floats(taps as usize)),
                u32v(taps),
                u32v(fir),
            ],
        },
        SuiteKernel {
            name: "saxpy",
            size: "2^22 items",
            global: [saxpy, 1, 1],
            local: [64, 1, 1],
            // (y, x, a, n)
            args: vec![
                ArgSpec::Data(rng.floats(saxpy as usize)),
                ArgSpec::Data(rng.floats(saxpy as usize)),
                f32v(2.5),
                u32v(saxpy),
            ],
        },
        SuiteKernel {
            name: "lds_reduce",
            size: "2^20 items, groups of 256",
            global: [reduce, 1, 1],
            local: [256, 1, 1],
            args: vec![
                ArgSpec::Zero(u64::from(reduce / 256 * 4)),
                ArgSpec::Zero(u64::from(reduce / 256 * 4)),
                ArgSpec::Data(rng.floats(reduce as usize)),
            ],
        },
        SuiteKernel {
            name: "atomics",
            size: "2^20 items histogram",
            global: [hist, 1, 1],
            local: [128, 1, 1],
            args: vec![
                ArgSpec::Zero(64),
                ArgSpec::Data(
                    [u32::MAX, 0, 0, 0]
                        .iter()
                        .flat_map(|w| w.to_le_bytes())
                        .collect(),
                ),
                ArgSpec::Data(rng.words(hist as usize, u32::MAX)),
            ],
        },
    ]
}

/// Options of the kernel suite.
#[derive(Clone, Debug)]
pub struct SuiteConfig {
    /// Repetitions of each JIT measurement (the median is reported).
    pub reps: u32,
    /// Divides every size (1: the real suite).
    pub scale: u32,
    /// Skip the interpreter (its figures and the bit-for-bit check against it).
    pub no_interp: bool,
    /// Only this ISA's target (`all`: every ISA's).
    pub isa: String,
    /// Only this kernel (`None`: the whole suite).
    pub kernel: Option<String>,
}

/// One kernel's figures on one target.
pub struct Row {
    pub target: String,
    pub kernel: &'static str,
    pub lane_insts: u64,
    pub jit1: f64,
    pub jit2: f64,
    pub interp: Option<f64>,
    pub pocl: Option<Result<f64, String>>,
    pub note: String,
}

/// Where a target's fixture binaries are: the benchmark target of each ISA that has fixtures.
fn targets(isa: &str) -> Result<Vec<(String, std::path::PathBuf, String)>> {
    let m = fixtures::manifest()?;
    let mut out = Vec::new();
    for list in m.isas.iter().filter(|l| isa == "all" || l.isa == isa) {
        let Some(bench) = crate::registry::frontend(&list.isa).and_then(|f| f.bench_kernel())
        else {
            continue;
        };
        let Some(t) = list
            .targets
            .iter()
            .find(|t| fixtures::target_name(t) == bench.chip)
        else {
            continue;
        };
        out.push((
            bench.chip.to_string(),
            fixtures::root().join(t["dir"].as_str().unwrap_or_default()),
            t["ext"].as_str().unwrap_or_default().to_string(),
        ));
    }
    Ok(out)
}

/// The bytes of every buffer argument.
fn buffers(p: &Prepared, args: &[ArgSpec]) -> Result<Vec<Vec<u8>>> {
    args.iter()
        .enumerate()
        .filter(|(_, a)| matches!(a, ArgSpec::File(_) | ArgSpec::Zero(_) | ArgSpec::Data(_)))
        .map(|(i, _)| p.buffer(i))
        .collect()
}

/// The execute seconds of `k` on `engine` (median of `reps` dispatches of one prepared
/// kernel, after warm-up dispatches for the JIT so that its blocks run at tier 2: one, or as
/// many as a block that runs once per wave needs to reach the tier-up count),
/// the lane-instructions of one dispatch, and the buffers after a single dispatch of a fresh
/// preparation (some kernels update their inputs, so outputs are taken from one dispatch).
pub(super) fn measure(
    module: &dyn crate::frontend::Module,
    k: &SuiteKernel,
    engine: EngineKind,
    threads: usize,
    reps: u32,
) -> Result<(f64, u64, Vec<Vec<u8>>)> {
    let req = RunRequest {
        kernel: k.name,
        global: k.global,
        work_dim: None,
        local: k.local,
        engine,
        threads,
        args: &k.args,
        fuel: u64::MAX,
        timeout: Duration::from_secs(3600),
    };
    let once = prepare(module, &req)?;
    let (stats, first) = wall(|| once.dispatch());
    let stats = stats?;
    let outputs = buffers(&once, &k.args)?;
    if engine == EngineKind::Interp {
        return Ok((first, stats.lane_insts, outputs));
    }
    let p = prepare(module, &req)?;
    let tier_up = u64::from(wavejit_jit::JitOptions::DEFAULT_TIER_UP_AFTER);
    for _ in 0..tier_up.div_ceil(stats.waves.max(1)).max(1) {
        p.dispatch()?;
    }
    let mut times = Vec::new();
    for _ in 0..reps.max(1) {
        let (stats, t) = wall(|| p.dispatch());
        stats?;
        times.push(t);
    }
    Ok((median(times), stats.lane_insts, outputs))
}

fn wall<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let r = f();
    (r, t.elapsed().as_secs_f64())
}

/// Runs the suite; the report `wavejit bench --suite kernels` prints.
pub fn report(cfg: &SuiteConfig) -> Result<String> {
    let mut s = String::new();
    let pocl = super::pocl::Pocl::find();
    let _ = writeln!(
        s,
        "kernel suite (execute seconds, median of {}; G lane-instr/s of the JIT on 1 thread){}:",
        cfg.reps,
        match &pocl {
            Some(p) => format!("; pocl {}", p.version),
            None =>
                "; pocl not installed (apt-get install pocl-opencl-icd python3-pyopencl)".into(),
        }
    );
    let _ = writeln!(
        s,
        "  {:<8} {:<13} {:>9} {:>9} {:>9} {:>8} {:>9} {:>8} {:>10} {:>10}",
        "target",
        "kernel",
        "JIT 1t",
        "JIT 2t",
        "2t/1t",
        "G l-i/s",
        "interp",
        "JIT/int",
        "pocl 1t",
        "pocl/JIT"
    );
    let mut rows = Vec::new();
    for (target, dir, ext) in targets(&cfg.isa)? {
        let wanted = |k: &SuiteKernel| cfg.kernel.as_deref().is_none_or(|n| n == k.name);
        for k in kernels(cfg.scale).into_iter().filter(wanted) {
            let path = dir.join(format!("{}.{ext}", k.name));
            if !path.exists() {
                continue;
            }
            let module = crate::registry::load(&path, None)?;
            let (jit1, lane_insts, out1) = measure(&*module, &k, EngineKind::Jit, 1, cfg.reps)?;
            let (jit2, _, out2) = measure(&*module, &k, EngineKind::Jit, 2, cfg.reps)?;
            let mut note = String::new();
            let interp = if cfg.no_interp {
                None
            } else {
                let (t, _, outi) = measure(&*module, &k, EngineKind::Interp, 1, 1)?;
                if outi != out1 || outi != out2 {
                    note.push_str(" JIT OUTPUT DIFFERS FROM THE INTERPRETER'S;");
                }
                Some(t)
            };
            let source = fixtures::root().join(format!("tests/fixtures/src/{}.cl", k.name));
            let pocl_t = pocl.as_ref().map(|p| {
                let r = p.run(&source, &k, 1, cfg.reps).map_err(|e| e.to_string())?;
                if r.outputs != out1 {
                    note.push_str(" pocl's output differs;");
                }
                Ok(r.seconds)
            });
            rows.push(Row {
                target: target.clone(),
                kernel: k.name,
                lane_insts,
                jit1,
                jit2,
                interp,
                pocl: pocl_t,
                note,
            });
            let r = rows.last().expect("just pushed");
            let opt = |x: Option<f64>, w: usize| {
                x.map_or(format!("{:>w$}", "-"), |x| format!("{x:>w$.4}"))
            };
            let _ = writeln!(
                s,
                "  {:<8} {:<13} {:>9.4} {:>9.4} {:>8.2}x {:>8.2} {} {} {} {}{}",
                r.target,
                r.kernel,
                r.jit1,
                r.jit2,
                r.jit1 / r.jit2,
                r.lane_insts as f64 / r.jit1 / 1e9,
                opt(r.interp, 9),
                r.interp
                    .map_or(format!("{:>8}", "-"), |i| format!("{:>7.0}x", i / r.jit1)),
                match &r.pocl {
                    Some(Ok(p)) => format!("{p:>10.4}"),
                    Some(Err(_)) => format!("{:>10}", "failed"),
                    None => format!("{:>10}", "-"),
                },
                match &r.pocl {
                    Some(Ok(p)) => format!("{:>9.2}x", p / r.jit1),
                    _ => format!("{:>10}", "-"),
                },
                r.note
            );
        }
    }
    summary(&mut s, &rows);
    Ok(s)
}

pub(super) fn geomean(v: &[f64]) -> f64 {
    (v.iter().map(|x| x.ln()).sum::<f64>() / v.len().max(1) as f64).exp()
}

/// Geometric means over the suite, per target.
fn summary(s: &mut String, rows: &[Row]) {
    let mut targets: Vec<&str> = rows.iter().map(|r| r.target.as_str()).collect();
    targets.dedup();
    for t in targets {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.target == t).collect();
        let scaling: Vec<f64> = rs.iter().map(|r| r.jit1 / r.jit2).collect();
        let _ = write!(s, "  {t}: geometric mean 2t/1t {:.2}x", geomean(&scaling));
        let ji: Vec<f64> = rs
            .iter()
            .filter_map(|r| r.interp.map(|i| i / r.jit1))
            .collect();
        if !ji.is_empty() {
            let _ = write!(s, ", JIT/interp {:.0}x", geomean(&ji));
        }
        let pj: Vec<f64> = rs
            .iter()
            .filter_map(|r| match &r.pocl {
                Some(Ok(p)) => Some(p / r.jit1),
                _ => None,
            })
            .collect();
        if !pj.is_empty() {
            let min = pj.iter().copied().fold(f64::INFINITY, f64::min);
            let _ = write!(s, ", pocl/JIT {:.2}x (lowest {min:.2}x)", geomean(&pj));
        }
        let _ = writeln!(s);
    }
    if rows.is_empty() {
        let _ = writeln!(s, "  (no fixture binaries found)");
    }
}
