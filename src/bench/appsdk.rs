//! `wavejit bench --suite appsdk`: kernels of AMD's own OpenCL binaries (the AMD APP SDK
//! corpus, `corpora/amd-app-sdk/si` in `../shared` beside the clone or in the directory
//! `WAVEJIT_SHARED` names, the rule of tests/appsdk_kernels) in both encodings each binary
//! carries, its Southern Islands ISA and its AMD IL, under the JIT on one thread and the
//! interpreter.
//!
//! Figures are [`super::suite::measure`]'s: the dispatch's execute time, for the JIT the
//! median of the repetitions after warm-up dispatches that bring its blocks to tier 2, for
//! the interpreter one dispatch (it is the oracle and the slowest). Every buffer of the JIT must equal the interpreter's bit for
//! bit in each encoding (a difference is noted in the row); whether the two encodings' JIT
//! outputs are identical is noted too (tests/appsdk_il_vs_isa.rs names where AMD's compiler
//! made them differ).
//!
//! The kernels are a representative 22 of the corpus's 51 that take no image (integer and
//! float, streaming and LDS-tiled, barriers, histograms, the financial models' inlined
//! transcendentals; tests/appsdk_kernels runs all 51 at their host programs' sizes). Sizes are larger than the host
//! programs' where those are tiny, so that execution dominates, and small enough that the
//! interpreter takes seconds, not minutes; inputs are generated here with fixed seeds (the
//! kernels take any, except where a kernel's comment says otherwise). `--scale N` divides
//! every size (a quick look).

mod kernels;

pub use kernels::{kernels, AppSdkKernel};

use super::suite::{geomean, measure, SuiteKernel};
use crate::{EngineKind, Error, Result};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The corpus directory (`corpora/amd-app-sdk`), or the one-line error saying where it is
/// not.
pub fn corpus_dir() -> Result<PathBuf> {
    let shared = std::env::var_os("WAVEJIT_SHARED")
        .map_or_else(|| crate::fixtures::root().join("../shared"), PathBuf::from);
    let path = shared.join("corpora/amd-app-sdk");
    if path.join("si").is_dir() {
        Ok(path)
    } else {
        Err(Error::Usage(format!(
            "the AMD APP SDK corpus is not at {} (WAVEJIT_SHARED names the directory holding corpora/amd-app-sdk)",
            path.display()
        )))
    }
}

/// Options of the suite.
#[derive(Clone, Debug)]
pub struct AppSdkConfig {
    /// Repetitions of each JIT measurement (the median is reported).
    pub reps: u32,
    /// Divides every size (1: the real suite).
    pub scale: u32,
    /// Skip the interpreter (its figures and the bit-for-bit check against it).
    pub no_interp: bool,
    /// Only this kernel (`None`: the whole suite).
    pub kernel: Option<String>,
}

/// One encoding's figures of a kernel.
struct Figures {
    jit: f64,
    interp: Option<f64>,
    /// The JIT's buffers.
    outputs: Vec<Vec<u8>>,
}

/// Measures `k` in `encoding` (`isa` or `il`) of the binary at `path`; notes a difference
/// between the engines' outputs in `note`.
fn run(
    path: &std::path::Path,
    encoding: &str,
    k: &SuiteKernel,
    cfg: &AppSdkConfig,
    note: &mut String,
) -> Result<Figures> {
    let mut module = crate::registry::load(path, None)?;
    module.select_encoding(encoding)?;
    let (jit, _, outputs) = measure(&*module, k, EngineKind::Jit, 1, cfg.reps)?;
    let interp = if cfg.no_interp {
        None
    } else {
        let (t, _, outi) = measure(&*module, k, EngineKind::Interp, 1, 1)?;
        if outi != outputs {
            let _ = write!(
                note,
                " {encoding}: JIT OUTPUT DIFFERS FROM THE INTERPRETER'S;"
            );
        }
        Some(t)
    };
    Ok(Figures {
        jit,
        interp,
        outputs,
    })
}

/// Runs the suite; the report `wavejit bench --suite appsdk` prints.
pub fn report(cfg: &AppSdkConfig) -> Result<String> {
    let si = corpus_dir()?.join("si");
    let mut s = String::new();
    let _ = writeln!(
        s,
        "AMD APP SDK kernels, ISA and IL encodings (execute seconds: JIT on 1 thread, median of {}; interpreter once):",
        cfg.reps
    );
    let _ = writeln!(
        s,
        "  {:<45} {:<29} {:>9} {:>9} {:>8} {:>9} {:>9} {:>8} {:>7}",
        "kernel", "size", "ISA JIT", "ISA int", "int/JIT", "IL JIT", "IL int", "int/JIT", "IL/ISA"
    );
    let (mut isa_ratios, mut il_ratios, mut il_isa) = (Vec::new(), Vec::new(), Vec::new());
    let wanted = |k: &AppSdkKernel| cfg.kernel.as_deref().is_none_or(|n| n == k.launch.name);
    for k in kernels(cfg.scale).into_iter().filter(wanted) {
        let path = si.join(k.file);
        let mut note = String::new();
        let isa = run(&path, "isa", &k.launch, cfg, &mut note)?;
        let il = run(&path, "il", &k.launch, cfg, &mut note)?;
        let words = |o: &[Vec<u8>]| o.concat().chunks(4).map(<[u8]>::to_vec).collect::<Vec<_>>();
        let (wi, wl) = (words(&isa.outputs), words(&il.outputs));
        let differing = wi.iter().zip(&wl).filter(|(a, b)| a != b).count();
        if differing > 0 || wi.len() != wl.len() {
            let _ = write!(
                note,
                " IL and ISA outputs differ in {differing} of {} words;",
                wi.len()
            );
        }
        let secs = |x: Option<f64>| x.map_or(format!("{:>9}", "-"), |x| format!("{x:>9.4}"));
        let ratio = |f: &Figures, all: &mut Vec<f64>| match f.interp {
            Some(i) => {
                all.push(i / f.jit);
                format!("{:>7.0}x", i / f.jit)
            }
            None => format!("{:>8}", "-"),
        };
        il_isa.push(il.jit / isa.jit);
        let _ = writeln!(
            s,
            "  {:<45} {:<29} {} {} {} {} {} {} {:>6.2}x{note}",
            format!(
                "{} {}",
                k.file.trim_end_matches(".bin").trim_end_matches("_Kernels"),
                k.launch.name
            ),
            k.launch.size,
            secs(Some(isa.jit)),
            secs(isa.interp),
            ratio(&isa, &mut isa_ratios),
            secs(Some(il.jit)),
            secs(il.interp),
            ratio(&il, &mut il_ratios),
            il.jit / isa.jit,
        );
    }
    if il_isa.is_empty() {
        return Err(Error::Usage(format!(
            "no kernel {} in the AMD APP SDK suite",
            cfg.kernel.as_deref().unwrap_or_default()
        )));
    }
    let _ = write!(
        s,
        "  geometric mean IL JIT / ISA JIT {:.2}x",
        geomean(&il_isa)
    );
    if !isa_ratios.is_empty() {
        let _ = write!(
            s,
            ", interpreter / JIT: ISA {:.0}x, IL {:.0}x",
            geomean(&isa_ratios),
            geomean(&il_ratios)
        );
    }
    let _ = writeln!(s);
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suite at a 64th of its sizes: one kernel through the report, and every launch on
    /// the interpreter in both encodings (the real suite is `wavejit bench --suite appsdk`).
    #[test]
    fn smoke_at_a_64th() {
        let si = match corpus_dir() {
            Ok(dir) => dir.join("si"),
            Err(e) => {
                println!("NOT RUN: {e}");
                return;
            }
        };
        let cfg = AppSdkConfig {
            reps: 1,
            scale: 64,
            no_interp: false,
            kernel: Some("dwtHaar1D".into()),
        };
        let report = report(&cfg).expect("the suite runs");
        assert_eq!(report.lines().count(), 4, "{report}");
        assert!(!report.contains("DIFFERS"), "{report}");
        for k in kernels(64) {
            for encoding in ["isa", "il"] {
                let mut module = crate::registry::load(&si.join(k.file), None).unwrap();
                module.select_encoding(encoding).unwrap();
                measure(&*module, &k.launch, EngineKind::Interp, 1, 1)
                    .unwrap_or_else(|e| panic!("{} ({encoding}): {e}", k.launch.name));
            }
        }
    }
}
