//! `wavejit bench --suite streams`: the benchmark command streams of every frontend that runs
//! programs from streams ([`crate::frontend::Frontend::bench_streams`], paths relative to the
//! repository root), under the JIT and the interpreter on one thread, in one run.
//!
//! Each repetition is a whole run of the stream as `wavejit <command> FILE` does it (a fresh
//! engine, so the JIT compiles the programs again, at tier 1 first and tier 2 once a block
//! has run 256 times); the figure is the run's execute time (the dispatches, wall clock), the
//! median of the repetitions, and lane-instructions are the guest instructions the waves ran
//! times the wave size. Lifting and compiling are reported beside it. The engines' saved
//! ranges must be equal byte for byte, or the suite fails.

use super::median;
use crate::frontend::Frontend;
use crate::stream::{StreamReport, StreamRequest};
use crate::{EngineKind, Error, Result};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// What to measure.
#[derive(Clone, Debug)]
pub struct StreamsConfig {
    pub reps: u32,
    /// Skip the interpreter.
    pub no_interp: bool,
    /// Only streams whose file stem is this.
    pub stream: Option<String>,
}

/// The repository root (benchmark streams' paths are relative to it).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(f: &dyn Frontend, file: &std::path::Path, engine: EngineKind) -> Result<StreamReport> {
    let target = f
        .target(f.target_names()[0])
        .ok_or_else(|| Error::Other(format!("{}: no canonical target", f.name())))?;
    f.run_stream(&StreamRequest {
        file,
        target,
        engine,
        threads: 1,
        fuel: crate::DEFAULT_FUEL,
        timeout: Duration::from_secs(3600),
        loads: &[],
        programs: &[],
        saves: &[],
        write_saves: false,
    })
}

/// One engine's figures: median execute seconds, median lift + compile seconds, the report.
fn measure(
    f: &dyn Frontend,
    file: &std::path::Path,
    engine: EngineKind,
    reps: u32,
) -> Result<(f64, f64, StreamReport)> {
    let mut execute = Vec::new();
    let mut prepare = Vec::new();
    let mut last = None;
    for _ in 0..reps.max(1) {
        let r = run(f, file, engine)?;
        execute.push(r.seconds.execute);
        prepare.push(r.seconds.lift + r.seconds.compile);
        last = Some(r);
    }
    Ok((
        median(execute),
        median(prepare),
        last.expect("one repetition"),
    ))
}

/// The suite's report.
pub fn report(cfg: &StreamsConfig) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "stream | programs | waves | guest instr | JIT s | JIT G lane-instr/s | lift+compile ms | interp s | interp G lane-instr/s | JIT / interp"
    );
    let mut any = false;
    for f in crate::registry::FRONTENDS {
        let Some(command) = f.stream_command() else {
            continue;
        };
        let lanes = f
            .target(f.target_names()[0])
            .map_or(64, |t| u64::from(t.wave_size));
        for path in f.bench_streams() {
            let file = root().join(path);
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if cfg.stream.as_ref().is_some_and(|k| *k != stem) {
                continue;
            }
            any = true;
            let (jit, prep, jr) = measure(*f, &file, EngineKind::Jit, cfg.reps)?;
            let rate = |secs: f64| (jr.guest_instructions * lanes) as f64 / secs / 1e9;
            let mut row = format!(
                "{command} {path} | {} | {} | {} | {jit:.3} | {:.3} | {:.1}",
                jr.programs,
                jr.waves,
                jr.guest_instructions,
                rate(jit),
                prep * 1e3
            );
            if cfg.no_interp {
                row.push_str(" | - | - | -");
            } else {
                let (interp, _, ir) = measure(*f, &file, EngineKind::Interp, 1)?;
                if ir.saved != jr.saved || ir.guest_instructions != jr.guest_instructions {
                    return Err(Error::Other(format!(
                        "{path}: the JIT's and the interpreter's results differ"
                    )));
                }
                let _ = write!(
                    row,
                    " | {interp:.3} | {:.4} | {:.0}x",
                    rate(interp),
                    interp / jit
                );
            }
            let _ = writeln!(s, "{row}");
        }
    }
    if !any {
        return Err(Error::Usage("no benchmark stream matched".into()));
    }
    Ok(s)
}
