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
    /// Run a kernel of any ISA's binary or text file (see README "Command line").
    Run(wavejit::cli::RunOptions),
    /// Run a CTM command stream (see README "ATI R5xx (CTM)").
    Ctm(wavejit::cli::CtmOptions),
    /// Disassembly in the ISA's conventional syntax.
    Disasm {
        file: PathBuf,
        #[arg(long)]
        kernel: Option<String>,
        #[arg(long)]
        target: Option<String>,
        /// Which encoding of the kernels: isa (default) or il (AMD OpenCL binaries' IL).
        #[arg(long, value_parser = wavejit::cli::ENCODINGS)]
        encoding: Option<String>,
        /// Print the lifted wavejit IR instead of the machine code.
        #[arg(long)]
        ir: bool,
    },
    /// One wave of a kernel from a state given as JSON; writes the final state (see README
    /// "wavejit wave").
    Wave {
        file: PathBuf,
        /// The initial state (JSON).
        #[arg(long)]
        state: PathBuf,
        /// Where the final state goes (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        target: Option<String>,
        /// Which encoding of the kernel runs: isa (default) or il (AMD OpenCL binaries' IL).
        #[arg(long, value_parser = wavejit::cli::ENCODINGS)]
        encoding: Option<String>,
        /// The kernel (default: the file's first).
        #[arg(long)]
        kernel: Option<String>,
        #[arg(long, value_enum, default_value = "jit")]
        engine: wavejit::EngineKind,
        /// Guest instructions the wave may execute.
        #[arg(long, default_value_t = 1 << 24)]
        fuel: u64,
        /// Write one JSON line per executed guest instruction to PATH.
        #[arg(long)]
        trace: Option<PathBuf>,
    },
    /// Kernels, target, resources, argument layout.
    Info {
        file: PathBuf,
        #[arg(long)]
        target: Option<String>,
    },
    /// Differential campaign (interpreter vs JIT) on random programs; reproducers on failure.
    Fuzz {
        /// An ISA or a generation of one (`wavejit fuzz --isa help` lists them).
        #[arg(long)]
        isa: String,
        #[arg(long, default_value_t = 60)]
        seconds: u64,
        #[arg(long)]
        seed: Option<u64>,
        /// Where reproducers are written.
        #[arg(long, default_value = "fuzz-failures")]
        out: PathBuf,
        /// Executions of a block before the JIT recompiles it at tier 2 (with its trace); 0
        /// compiles every block at tier 2 at once. Random programs rarely run a block 256
        /// times, so the default campaign checks tier 1 mostly.
        #[arg(long, default_value_t = wavejit_jit::JitOptions::DEFAULT_TIER_UP_AFTER)]
        tier_up_after: u32,
    },
    /// Throughput figures: JIT vs interpreter vs a native Rust reference, and compile time.
    Bench {
        /// Work-groups in the grid (of the kernel's 64 work-items each).
        #[arg(long, default_value_t = 64)]
        waves: u32,
        /// Loop trips of the kernel per work-item.
        #[arg(long, default_value_t = 200)]
        iters: u32,
        /// Repetitions per implementation (medians are reported).
        #[arg(long, default_value_t = 7)]
        reps: u32,
        /// Which build of the kernel (ALU), or which ISA's target (kernel suite): an ISA's
        /// name, or `all`.
        #[arg(long, default_value = "all")]
        isa: String,
        /// `alu` (the ALU-heavy kernel against native Rust), `kernels` (the fixture kernels
        /// at benchmark sizes against the interpreter and pocl), `appsdk` (AMD APP SDK
        /// corpus kernels, ISA and IL, against the interpreter) or `streams` (command streams,
        /// JIT against the interpreter).
        #[arg(long, default_value = "alu")]
        suite: String,
        /// Divide the kernel suites' sizes by N (for a quick look).
        #[arg(long, default_value_t = 1)]
        scale: u32,
        /// Kernel suites: skip the interpreter.
        #[arg(long)]
        no_interp: bool,
        /// Kernel suites: run only this kernel (streams: only the stream of this file stem).
        #[arg(long)]
        kernel: Option<String>,
    },
    /// Bundled example kernels, both engines, checked, with figures.
    Demo,
}

fn main() -> ExitCode {
    // A closed output pipe (`wavejit disasm ... | head`) ends the process quietly, as it ends
    // other command-line tools, rather than failing every later `println!` with a panic.
    // SAFETY: setting a signal's disposition to its default before any thread starts.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
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
        Command::Ctm(options) => wavejit::cli::ctm(options),
        Command::Disasm {
            file,
            kernel,
            target,
            encoding,
            ir,
        } => wavejit::cli::disasm(
            &file,
            kernel.as_deref(),
            target.as_deref(),
            encoding.as_deref(),
            ir,
        ),
        Command::Info { file, target } => wavejit::cli::info(&file, target.as_deref()),
        Command::Wave {
            file,
            state,
            out,
            target,
            encoding,
            kernel,
            engine,
            fuel,
            trace,
        } => wavejit::cli::wave(&wavejit::wave::WaveOptions {
            file: &file,
            state: &state,
            out: out.as_deref(),
            target: target.as_deref(),
            encoding: encoding.as_deref(),
            kernel: kernel.as_deref(),
            engine,
            fuel,
            trace: trace.as_deref(),
        }),
        Command::Fuzz {
            isa,
            seconds,
            seed,
            out,
            tier_up_after,
        } => wavejit::cli::fuzz(&isa, seconds, seed, &out, tier_up_after),
        Command::Bench {
            waves,
            iters,
            reps,
            isa,
            suite,
            scale,
            no_interp,
            kernel,
        } => match suite.as_str() {
            "alu" => wavejit::cli::bench(wavejit::bench::BenchConfig {
                waves,
                iters,
                reps,
                isa,
            }),
            "kernels" => wavejit::cli::bench_kernels(wavejit::bench::suite::SuiteConfig {
                reps,
                scale,
                no_interp,
                isa,
                kernel,
            }),
            "appsdk" => wavejit::cli::bench_appsdk(wavejit::bench::appsdk::AppSdkConfig {
                reps,
                scale,
                no_interp,
                kernel,
            }),
            "streams" => wavejit::cli::bench_streams(wavejit::bench::streams::StreamsConfig {
                reps,
                no_interp,
                stream: kernel,
            }),
            other => Err(wavejit::Error::Usage(format!(
                "unknown suite '{other}' (alu, kernels, appsdk, streams)"
            ))),
        },
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
