//! The `wavejit` command line (a contract: scripts depend on it; see README).

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "wavejit",
    version,
    about = "Runs real GPU machine code on the CPU, JIT-compiled to host SIMD"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a kernel of a GCN code object, an r600 object or a `.s` file of either ISA (see README
    /// "Assembly files").
    Run(wavejit::cli::RunOptions),
    /// Disassembly in the ISA's conventional syntax.
    Disasm {
        file: PathBuf,
        #[arg(long)]
        kernel: Option<String>,
        #[arg(long)]
        target: Option<String>,
        /// Print the lifted wavejit IR instead of the machine code.
        #[arg(long)]
        ir: bool,
    },
    /// Kernels, target, resources, argument layout.
    Info {
        file: PathBuf,
        #[arg(long)]
        target: Option<String>,
    },
    /// Differential campaign (interpreter vs JIT) on random programs; reproducers on failure.
    Fuzz {
        /// gcn, gfx6..gfx9, terascale, evergreen, cayman or an r600 chip name.
        #[arg(long)]
        isa: String,
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        #[arg(long)]
        seed: Option<u64>,
        /// Where reproducers are written.
        #[arg(long, default_value = "fuzz-failures")]
        out: PathBuf,
    },
    /// Throughput figures: JIT vs interpreter vs a native Rust reference, and compile time.
    Bench {
        /// Waves in the grid (64 work-items each).
        #[arg(long, default_value_t = 64)]
        waves: u32,
        /// Loop trips of the kernel per work-item.
        #[arg(long, default_value_t = 200)]
        iters: u32,
        /// Repetitions per implementation (medians are reported).
        #[arg(long, default_value_t = 7)]
        reps: u32,
        /// Which build of the kernel: gcn (gfx900), terascale (cayman) or both.
        #[arg(long, value_enum, default_value = "gcn")]
        isa: wavejit::bench::BenchIsa,
    },
    /// Bundled example kernels, both engines, checked, with figures.
    Demo,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as clap formats them; usage errors are one line, like
        // every other error of this command (scripts read the first line of stderr).
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let reason: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!(
                "wavejit: {}",
                reason.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Run(options) => wavejit::cli::run(options),
        Command::Disasm {
            file,
            kernel,
            target,
            ir,
        } => wavejit::cli::disasm(&file, kernel.as_deref(), target.as_deref(), ir),
        Command::Info { file, target } => wavejit::cli::info(&file, target.as_deref()),
        Command::Fuzz {
            isa,
            seconds,
            seed,
            out,
        } => wavejit::cli::fuzz(&isa, seconds, seed, &out),
        Command::Bench {
            waves,
            iters,
            reps,
            isa,
        } => wavejit::cli::bench(wavejit::bench::BenchConfig {
            waves,
            iters,
            reps,
            isa,
        }),
        Command::Demo => wavejit::cli::demo(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("wavejit: {e}");
            ExitCode::FAILURE
        }
    }
}
