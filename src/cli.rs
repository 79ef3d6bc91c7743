//! The subcommands of the `wavejit` binary.

use crate::spec::{ArgSpec, SaveSpec};
use crate::{EngineKind, Error, Result};
use std::path::{Path, PathBuf};

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
    /// One per kernel argument, in order: buf:PATH zero:N u32:V i32:V u64:V i64:V f32:V f64:V.
    #[arg(long = "arg")]
    pub args: Vec<ArgSpec>,
    /// After the run, write buffer argument I (0-based argument index) to PATH.
    #[arg(long = "save")]
    pub saves: Vec<SaveSpec>,
    /// Override the target chip read from the file (e.g. gfx900, tahiti; cayman, cypress for
    /// r600 objects).
    #[arg(long)]
    pub target: Option<String>,
    /// Guest instructions a wave may execute before the run stops.
    #[arg(long, default_value_t = crate::DEFAULT_FUEL)]
    pub fuel: u64,
    /// Wall-clock limit in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
}

pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::io(path, e))
}

pub fn info(file: &Path, target: Option<&str>) -> Result<()> {
    if crate::asm_kernel::is_asm_file(file) {
        print!("{}", crate::asm_kernel::load(file, target)?.describe());
        return Ok(());
    }
    print!("{}", crate::object::load(&read(file)?, target)?.describe());
    Ok(())
}

pub fn disasm(file: &Path, kernel: Option<&str>, target: Option<&str>, ir: bool) -> Result<()> {
    if crate::asm_kernel::is_asm_file(file) {
        let asm = crate::asm_kernel::load(file, target)?;
        let text = if ir {
            asm.lifted_ir(kernel)?
        } else {
            asm.disassemble(kernel)?
        };
        print!("{text}");
        return Ok(());
    }
    let object = crate::object::load(&read(file)?, target)?;
    let text = if ir {
        object.lifted_ir(kernel)?
    } else {
        object.disassemble(kernel)?
    };
    print!("{text}");
    Ok(())
}

fn available_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

pub fn run(o: RunOptions) -> Result<()> {
    if !(o.timeout > 0.0 && o.timeout.is_finite()) {
        return Err(Error::Usage(format!(
            "bad --timeout {}: expected positive seconds",
            o.timeout
        )));
    }
    let global = crate::spec::parse_dims(&o.global).map_err(|e| Error::Usage(e.0))?;
    let local = crate::spec::parse_dims(&o.local).map_err(|e| Error::Usage(e.0))?;
    let req = crate::launch::RunRequest {
        kernel: &o.kernel,
        global,
        local,
        engine: o.engine,
        threads: o.threads.unwrap_or_else(available_threads),
        args: &o.args,
        fuel: o.fuel,
        timeout: std::time::Duration::from_secs_f64(o.timeout),
    };
    let out = if crate::asm_kernel::is_asm_file(&o.file) {
        crate::asm_kernel::load(&o.file, o.target.as_deref())?.run(&req)?
    } else {
        crate::object::load(&read(&o.file)?, o.target.as_deref())?.run(&req)?
    };
    for s in &o.saves {
        let bytes = out.buffer(s.arg)?;
        std::fs::write(&s.path, bytes).map_err(|e| Error::io(&s.path, e))?;
    }
    Ok(())
}

pub fn fuzz(isa: &str, seconds: u64, seed: Option<u64>, out: &Path) -> Result<()> {
    let report = crate::fuzz::campaign(isa, seconds, seed, out, true).map_err(Error::Other)?;
    println!("{report}");
    Ok(())
}

pub fn bench(cfg: crate::bench::BenchConfig) -> Result<()> {
    print!("{}", crate::bench::report(&cfg)?);
    Ok(())
}

pub fn demo() -> Result<()> {
    crate::demo::run()
}
