//! Throughput figures. `wavejit bench` (the `alu` suite): the ALU-heavy kernel (`benches/kernels/alu_heavy.cl`, one build per
//! ISA, [`crate::frontend::Frontend::bench_kernel`]) under the interpreter and the JIT, and the
//! native Rust reference of the same computation ([`crate::native`]), measured in one run,
//! interleaved, on one thread. `wavejit bench --suite kernels`: [`suite`]; `--suite appsdk`:
//! [`appsdk`]; `--suite streams`: [`streams`].
//!
//! The reference is bit-identical to every build by construction of the source: fmaf is fused
//! everywhere (each ISA's fused multiply-add, Rust `mul_add`); `-ffp-contract=off` keeps every
//! other multiply and add separately rounded; fminf/fmaxf see no NaN; and no value is a
//! denormal (|a|, |b|, |c| stay far above 2^-126), so a float mode that flushes denormals
//! agrees with the host too. [`Figures::native_agrees`] checks it on every run.
//!
//! Times are the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`; every implementation
//! runs on that one thread), so other load on a shared machine does not count (it still
//! slows the code it shares a core with); the three implementations are interleaved within
//! each repetition and medians are reported. The JIT runs until all its blocks are at tier 2
//! before the repetitions, so its tier-up compiles are not timed (see [`compile_time`]).
//!
//! A lane-instruction is one guest instruction times the lanes of its wave, active or not
//! (the convention of notes/cranelift_jit.md; every lane of the benchmark's waves holds a
//! work-item, so this is the runtime's `lane_insts`); the native reference is credited with
//! the same number of lane-instructions as the emulated kernel executes.

pub mod appsdk;
pub mod pocl;
pub mod streams;
pub mod suite;

use crate::frontend::BenchKernel;
use crate::launch::{Prepared, RunRequest};
use crate::spec::ArgSpec;
use crate::{EngineKind, Error, Result};
use std::time::{Duration, Instant};

/// Work-items of a work-group of the benchmark kernel (its `reqd_work_group_size`).
pub const GROUP_ITEMS: u32 = 64;

/// The builds of the kernel `isa` names: a frontend's name, or `all` (every frontend that has
/// one).
pub fn kernels(isa: &str) -> Result<Vec<BenchKernel>> {
    let all: Vec<(&str, BenchKernel)> = crate::registry::FRONTENDS
        .iter()
        .filter_map(|f| f.bench_kernel().map(|k| (f.name(), k)))
        .collect();
    let chosen: Vec<BenchKernel> = all
        .iter()
        .filter(|(name, _)| isa == "all" || *name == isa)
        .map(|(_, k)| *k)
        .collect();
    if chosen.is_empty() {
        let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
        return Err(Error::Usage(format!(
            "no benchmark kernel for '{isa}' (all, {})",
            names.join(", ")
        )));
    }
    Ok(chosen)
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Work-groups in the grid ([`GROUP_ITEMS`] work-items each: one wave on every target
    /// whose waves have 64 lanes).
    pub waves: u32,
    /// Loop trips of the kernel.
    pub iters: u32,
    /// Repetitions per implementation (the median is reported).
    pub reps: u32,
    /// A frontend's name, or `all`.
    pub isa: String,
}

impl Default for BenchConfig {
    fn default() -> Self {
        BenchConfig {
            waves: 64,
            iters: 200,
            reps: 7,
            isa: "all".into(),
        }
    }
}

/// Figures for one exec configuration.
#[derive(Clone, Debug)]
pub struct Figures {
    /// "all lanes active" or "mixed exec (3 of 4 lanes)".
    pub label: &'static str,
    pub lane_insts: u64,
    /// Median seconds per run.
    pub interp: f64,
    pub jit: f64,
    pub native: f64,
    /// Whether the native reference's output equals the JIT's bit for bit.
    pub native_agrees: bool,
}

impl Figures {
    /// Giga lane-instructions per second.
    pub fn rate(&self, seconds: f64) -> f64 {
        self.lane_insts as f64 / seconds / 1e9
    }
}

/// Compile-time figures of the JIT for the kernel.
#[derive(Clone, Debug)]
pub struct CompileFigures {
    pub guest_insts: usize,
    pub ir_insts: usize,
    pub seconds: f64,
    pub code_bytes: u64,
}

/// The benchmark's input buffer of `n` floats.
pub fn input(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| ((i * 37 % 101) as f32) * 0.01 - 0.5)
        .collect()
}

/// `kernel` prepared on `engine` for `cfg`'s grid, with `active` lanes of 4 running the loop.
pub fn launcher(
    kernel: BenchKernel,
    engine: EngineKind,
    cfg: &BenchConfig,
    active: u32,
) -> Result<Prepared> {
    let module = load(kernel)?;
    let n = (cfg.waves * GROUP_ITEMS) as usize;
    let data: Vec<u8> = input(n).iter().flat_map(|x| x.to_le_bytes()).collect();
    let args = [
        ArgSpec::Zero(n as u64 * 4),
        ArgSpec::Data(data),
        ArgSpec::Value {
            kind: crate::spec::ValueKind::U32,
            bits: cfg.iters as u64,
        },
        ArgSpec::Value {
            kind: crate::spec::ValueKind::U32,
            bits: active as u64,
        },
    ];
    let req = RunRequest {
        kernel: "alu_heavy",
        global: [n as u32, 1, 1],
        work_dim: None,
        local: [GROUP_ITEMS, 1, 1],
        engine,
        threads: 1,
        args: &args,
        fuel: u64::MAX,
        timeout: Duration::from_secs(3600),
    };
    crate::launch::prepare(&*module, &req)
}

/// The module of a build of the kernel, for the chip it was built for (raw code, such as
/// G13's, says no chip of its own).
fn load(kernel: BenchKernel) -> Result<Box<dyn crate::frontend::Module>> {
    let target = crate::registry::target(kernel.chip)
        .ok_or_else(|| Error::Other(format!("benchmark build for unknown chip {}", kernel.chip)))?;
    crate::registry::load_bytes(kernel.object, "alu_heavy", Some((target.0, &target.1)))
}

/// CPU time consumed by the calling thread, in seconds (None if the clock is unavailable).
fn thread_cpu_seconds() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid out-pointer for clock_gettime.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

/// Runs `f` and returns its result and the thread CPU seconds it took (wall-clock seconds
/// where the thread CPU clock is unavailable).
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let (cpu, wall) = (thread_cpu_seconds(), Instant::now());
    let r = f();
    let secs = match (cpu, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall.elapsed().as_secs_f64(),
    };
    (r, secs)
}

pub(crate) fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn to_f32(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Measures one exec configuration of `kernel`: `active` = 4 (all lanes) or 3 (mixed exec).
pub fn measure(kernel: BenchKernel, cfg: &BenchConfig, active: u32) -> Result<Figures> {
    let interp = launcher(kernel, EngineKind::Interp, cfg, active)?;
    let jit = launcher(kernel, EngineKind::Jit, cfg, active)?;
    let n = (cfg.waves * GROUP_ITEMS) as usize;
    let inp = input(n);
    let mut native_out = vec![0f32; n];
    let (mut ti, mut tj, mut tn) = (Vec::new(), Vec::new(), Vec::new());
    let mut lane_insts = 0;
    // Blocks tier up after a number of executions, compiling on the running thread; the
    // blocks that run once per wave reach it only after several dispatches. Run those first,
    // so that every rep times the same (tier-2) code; compile times are reported apart.
    let warm = wavejit_jit::JitOptions::DEFAULT_TIER_UP_AFTER.div_ceil(cfg.waves.max(1));
    for _ in 0..=warm {
        jit.dispatch()?;
    }
    for _ in 0..cfg.reps.max(1) {
        let (s, t) = timed(|| interp.dispatch());
        let s = s?;
        ti.push(t);
        let (sj, t) = timed(|| jit.dispatch());
        let sj = sj?;
        tj.push(t);
        if s.guest_insts != sj.guest_insts {
            return Err(Error::Other(
                "interpreter and JIT executed different instruction counts".into(),
            ));
        }
        lane_insts = sj.lane_insts;
        let ((), t) = timed(|| crate::native::alu_heavy(&mut native_out, &inp, cfg.iters, active));
        tn.push(t);
        std::hint::black_box(&native_out);
    }
    let (oi, oj) = (interp.buffer(0)?, jit.buffer(0)?);
    if oi != oj {
        return Err(Error::Other(
            "benchmark kernel: JIT and interpreter outputs differ".into(),
        ));
    }
    let native_agrees = to_f32(&oj)
        .iter()
        .zip(&native_out)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    Ok(Figures {
        label: if active >= 4 {
            "all lanes active"
        } else {
            "mixed exec (3 of 4 lanes)"
        },
        lane_insts,
        interp: median(ti),
        jit: median(tj),
        native: median(tn),
        native_agrees,
    })
}

/// Compiles `kernel` with a fresh JIT (no code cache) and reports the time per instruction.
pub fn compile_time(kernel: BenchKernel) -> Result<CompileFigures> {
    use wavejit_runtime::Engine;
    let lifted = load(kernel)?.lift("alu_heavy")?;
    let (func, guest_insts) = (lifted.func, lifted.machine_insts);
    let mut best = f64::MAX;
    let mut code_bytes = 0;
    for _ in 0..5 {
        let jit = wavejit_jit::Jit::new()?;
        let (prepared, t) = timed(|| jit.prepare(func.clone()));
        prepared?;
        best = best.min(t);
        code_bytes = jit.stats().code_bytes;
    }
    Ok(CompileFigures {
        guest_insts,
        ir_insts: func.inst_count(),
        seconds: best,
        code_bytes,
    })
}

/// The report `wavejit bench` and `wavejit demo` print.
pub fn report(cfg: &BenchConfig) -> Result<String> {
    let mut s = String::new();
    for kernel in kernels(&cfg.isa)? {
        report_kernel(&mut s, kernel, cfg)?;
    }
    Ok(s)
}

fn report_kernel(s: &mut String, kernel: BenchKernel, cfg: &BenchConfig) -> Result<()> {
    use std::fmt::Write;
    let _ = writeln!(
        s,
        "alu_heavy ({}), {} waves x {} loop trips, 1 thread; G lane-instr/s (median of {}, thread CPU time):",
        kernel.chip, cfg.waves, cfg.iters, cfg.reps
    );
    let _ = writeln!(
        s,
        "  {:<28} {:>8} {:>8} {:>8} {:>11} {:>11}",
        "", "interp", "JIT", "native", "JIT/native", "JIT/interp"
    );
    for active in [4, 3] {
        let f = measure(kernel, cfg, active)?;
        let _ = writeln!(
            s,
            "  {:<28} {:>8.3} {:>8.2} {:>8.2} {:>10.2}x {:>10.1}x{}",
            f.label,
            f.rate(f.interp),
            f.rate(f.jit),
            f.rate(f.native),
            f.native / f.jit,
            f.interp / f.jit,
            if f.native_agrees {
                ""
            } else {
                "  (native output differs!)"
            }
        );
    }
    let c = compile_time(kernel)?;
    let _ = writeln!(
        s,
        "JIT compile: {:.2} ms for {} guest instructions ({} IR): {:.1} us per guest instruction, {:.1} us per IR instruction, {} bytes of code",
        c.seconds * 1e3,
        c.guest_insts,
        c.ir_insts,
        c.seconds * 1e6 / c.guest_insts as f64,
        c.seconds * 1e6 / c.ir_insts as f64,
        c.code_bytes
    );
    Ok(())
}
