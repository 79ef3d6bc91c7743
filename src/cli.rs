//! The subcommands of the `wavejit` binary.

use crate::frontend::Module;
use crate::spec::{ArgSpec, SaveSpec};
use crate::{EngineKind, Error, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;
use wavejit_isa::KernelNotFound;

/// Options of `wavejit run` (the command line's contract, see DESIGN.md).
// The field docs are clap's `--help` text, written for a terminal, not for rustdoc.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::Args)]
pub struct RunOptions {
    pub file: PathBuf,
    #[arg(long)]
    pub kernel: String,
    /// Global size in work-items: X[,Y[,Z]].
    #[arg(long)]
    pub global: String,
    /// Workgroup size: X[,Y[,Z]].
    #[arg(long)]
    pub local: String,
    #[arg(long, value_enum, default_value = "jit")]
    pub engine: EngineKind,
    /// Worker threads (default: available cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// One per kernel argument, in order: buf:PATH zero:N u32:V i32:V u64:V i64:V f32:V f64:V;
    /// AMD OpenCL binaries and IL files also take local:N (a __local pointer to N bytes of
    /// LDS) and struct:PATH (a by-value argument whose bytes are the file's).
    #[arg(long = "arg")]
    pub args: Vec<ArgSpec>,
    /// After the run, write buffer argument I (0-based argument index) to PATH.
    #[arg(long = "save")]
    pub saves: Vec<SaveSpec>,
    /// Override the target chip read from the file (e.g. gfx900, tahiti, cayman, cypress);
    /// required for assembly text files (.s); IL files (.il, .ilb) run as cypress without it.
    #[arg(long)]
    pub target: Option<String>,
    /// Which encoding of the kernel runs: isa (the chip's machine code; the default) or il
    /// (AMD IL: AMD OpenCL binaries carry both; IL files have only il, their default).
    #[arg(long, value_parser = ENCODINGS)]
    pub encoding: Option<String>,
    /// Guest instructions a wave may execute before the run stops.
    #[arg(long, default_value_t = crate::DEFAULT_FUEL)]
    pub fuel: u64,
    /// Wall-clock limit in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// Write the run's figures as JSON to PATH ('-' = stdout): kernel, target, engine,
    /// threads, waves, guest_instructions, lane_instructions, seconds {load, lift, compile,
    /// execute}.
    #[arg(long)]
    pub stats: Option<PathBuf>,
}

/// Options of `wavejit ctm` (DESIGN.md "`wavejit ctm`"): a command stream and, for binary
/// streams, the host directives as options.
// The field docs are clap's `--help` text.
#[allow(rustdoc::broken_intra_doc_links)]
#[derive(clap::Args)]
pub struct CtmOptions {
    /// A CTM command stream: binary (.cb) or text (.ctm).
    pub file: PathBuf,
    #[arg(long, value_enum, default_value = "jit")]
    pub engine: EngineKind,
    /// Worker threads (default: available cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Guest instructions a wave may execute in one program run.
    #[arg(long, default_value_t = crate::DEFAULT_FUEL)]
    pub fuel: u64,
    /// Wall-clock limit of one program run, in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// The chip (default: the first the ISA of the stream names).
    #[arg(long)]
    pub target: Option<String>,
    /// Before the stream runs, copy PATH into GPU memory at ADDR (ADDR:PATH).
    #[arg(long = "load")]
    pub loads: Vec<String>,
    /// Load a CTM ELF or raw instruction words at ADDR and apply its program info (ADDR:PATH).
    #[arg(long = "program")]
    pub programs: Vec<String>,
    /// After the stream has run, write SIZE bytes of GPU memory at ADDR to PATH
    /// (ADDR:SIZE:PATH).
    #[arg(long = "save")]
    pub saves: Vec<String>,
}

/// The subcommand of [`CtmOptions`].
pub const CTM: &str = "ctm";

/// The wall-clock limit `--timeout` names, if it is positive seconds.
fn timeout(seconds: f64) -> Result<std::time::Duration> {
    if !(seconds > 0.0 && seconds.is_finite()) {
        return Err(Error::Usage(format!(
            "bad --timeout {seconds}: expected positive seconds"
        )));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

pub fn ctm(o: CtmOptions) -> Result<()> {
    let timeout = timeout(o.timeout)?;
    let (frontend, target) = crate::registry::stream_frontend(CTM, o.target.as_deref())?;
    frontend.run_stream(&crate::stream::StreamRequest {
        file: &o.file,
        target,
        engine: o.engine,
        threads: o.threads.unwrap_or_else(available_threads).max(1),
        fuel: o.fuel,
        timeout,
        loads: &o.loads,
        programs: &o.programs,
        saves: &o.saves,
        write_saves: true,
    })?;
    Ok(())
}

/// The values `--encoding` takes (the encodings files of some ISA carry).
pub const ENCODINGS: [&str; 2] = ["isa", "il"];

pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

/// Loads `file` (for `target`) with its kernels in `encoding` (default: the file's own).
pub fn load(file: &Path, target: Option<&str>, encoding: Option<&str>) -> Result<Box<dyn Module>> {
    let mut module = crate::registry::load(file, target)?;
    if let Some(e) = encoding {
        module
            .select_encoding(e)
            .map_err(|e| Error::Usage(format!("{}: {e}", file.display())))?;
    }
    Ok(module)
}

pub fn info(file: &Path, target: Option<&str>) -> Result<()> {
    print!("{}", crate::registry::load(file, target)?.describe());
    Ok(())
}

/// The named kernel, or every kernel of `module`.
fn selected(module: &dyn Module, kernel: Option<&str>) -> Result<Vec<String>> {
    let all = module.kernels();
    match kernel {
        None => Ok(all),
        Some(k) if all.iter().any(|n| n == k) => Ok(vec![k.to_string()]),
        Some(k) => Err(KernelNotFound::new(k, all.iter().map(String::as_str)).into()),
    }
}

pub fn disasm(
    file: &Path,
    kernel: Option<&str>,
    target: Option<&str>,
    encoding: Option<&str>,
    ir: bool,
) -> Result<()> {
    let module = load(file, target, encoding)?;
    let mut out = String::new();
    for name in selected(&*module, kernel)? {
        if ir {
            out.push_str(&wavejit_ir::text::print(&module.lift(&name)?.func));
        } else {
            out.push_str(&format!("{name}:\n"));
            out.push_str(&module.disassemble(&name)?);
        }
    }
    print!("{out}");
    Ok(())
}

fn available_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

pub fn run(o: RunOptions) -> Result<()> {
    let timeout = timeout(o.timeout)?;
    let global = crate::spec::parse_dims(&o.global).map_err(|e| Error::Usage(e.0))?;
    let local = crate::spec::parse_dims(&o.local).map_err(|e| Error::Usage(e.0))?;
    let threads = o.threads.unwrap_or_else(available_threads);
    let req = crate::launch::RunRequest {
        kernel: &o.kernel,
        global,
        work_dim: Some(o.global.split(',').count() as u32),
        local,
        engine: o.engine,
        threads,
        args: &o.args,
        fuel: o.fuel,
        timeout,
    };
    let t = Instant::now();
    let module = load(&o.file, o.target.as_deref(), o.encoding.as_deref())?;
    let load = t.elapsed().as_secs_f64();
    let prepared = crate::launch::prepare(&*module, &req)?;
    let t = Instant::now();
    let dispatch = prepared.dispatch()?;
    let execute = t.elapsed().as_secs_f64();
    for s in &o.saves {
        let bytes = prepared.buffer(s.arg)?;
        std::fs::write(&s.path, bytes).map_err(|e| Error::io(&s.path, e))?;
    }
    if let Some(path) = &o.stats {
        let stats =
            crate::stats::RunStats::new(&*module, &prepared, &dispatch, o.engine, load, execute);
        stats.write(path)?;
    }
    Ok(())
}

pub fn wave(o: &crate::wave::WaveOptions<'_>) -> Result<()> {
    let text = crate::wave::run(o)?;
    match o.out {
        Some(path) => std::fs::write(path, format!("{text}\n")).map_err(|e| Error::io(path, e)),
        None => {
            println!("{text}");
            Ok(())
        }
    }
}

pub fn fuzz(
    isa: &str,
    seconds: u64,
    seed: Option<u64>,
    out: &Path,
    tier_up_after: u32,
) -> Result<()> {
    let report = crate::fuzz::campaign(isa, seconds, seed, out, true, tier_up_after)
        .map_err(Error::Other)?;
    println!("{report}");
    Ok(())
}

pub fn bench(cfg: crate::bench::BenchConfig) -> Result<()> {
    print!("{}", crate::bench::report(&cfg)?);
    Ok(())
}

pub fn bench_kernels(cfg: crate::bench::suite::SuiteConfig) -> Result<()> {
    print!("{}", crate::bench::suite::report(&cfg)?);
    Ok(())
}

pub fn bench_appsdk(cfg: crate::bench::appsdk::AppSdkConfig) -> Result<()> {
    print!("{}", crate::bench::appsdk::report(&cfg)?);
    Ok(())
}

pub fn bench_streams(cfg: crate::bench::streams::StreamsConfig) -> Result<()> {
    print!("{}", crate::bench::streams::report(&cfg)?);
    Ok(())
}

pub fn demo() -> Result<()> {
    crate::demo::run()
}
