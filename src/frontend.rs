//! The one interface every ISA plugs into (DESIGN.md "One frontend interface"), in the manner
//! of Cranelift's `isa::lookup` and naga's `front::*` -> `Module`:
//!
//! - a [`Frontend`] names its targets, recognises its files, loads binaries, assembles text,
//!   and offers its fuzz campaigns, fixtures and benchmark kernel;
//! - a loaded [`Module`] describes, lists, disassembles and lifts its kernels, and plans a
//!   launch ([`LaunchPlan`]: the lifted function, its memories and a [`WaveInit`], the ISA's
//!   launch ABI) or a lone wave ([`WaveProgram`], for `wavejit wave`);
//! - the generic launcher ([`crate::launch`]), fuzz driver ([`crate::fuzz`]), `wave` command
//!   ([`crate::wave`]) and the CLI, demo, bench and fixtures are loops over the registry
//!   ([`crate::registry`]), which is the only place that names every ISA.
//!
//! Adding an ISA adds its crate, a module under `src/isa/` implementing these traits, and one
//! registry line; nothing else names it.

use crate::launch::PlacedArg;
use crate::Result;
use std::path::Path;
use std::sync::Arc;
use wavejit_ir::{Function, Reg};
use wavejit_runtime::{Grid, GuestMemory, WaveInit, WaveState};

/// A chip a frontend runs code for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The frontend's name (`gcn`, `terascale`).
    pub isa: &'static str,
    /// The chip's canonical name (`gfx900`, `cayman`).
    pub name: String,
    /// Lanes of a wave on this chip.
    pub wave_size: u32,
}

/// One ISA's entry point.
pub trait Frontend: Sync {
    /// Short lower-case name (`gcn`, `terascale`).
    fn name(&self) -> &'static str;

    /// The target names `--target` takes, for messages (canonical names first).
    fn target_names(&self) -> &'static [&'static str];

    /// The target a `--target` name (a chip, a generation or an alias) names, if it is one of
    /// this ISA's.
    fn target(&self, name: &str) -> Option<Target>;

    /// Whether `bytes` is a binary file of this ISA (by its header alone).
    fn sniff(&self, bytes: &[u8]) -> bool;

    /// Whether this ISA loads headerless code (which no [`Frontend::sniff`] recognises, so
    /// only with one of its targets).
    fn takes_raw_code(&self) -> bool {
        false
    }

    /// Loads a binary file; `name` (the file's stem) names its kernel when the file does not
    /// (raw code); `target` (one of this ISA's) overrides the chip the file names.
    fn load(&self, bytes: &[u8], name: &str, target: Option<&Target>) -> Result<Box<dyn Module>>;

    /// Whether `path` is a text file this ISA assembles when given one of its targets.
    fn takes_text(&self, path: &Path) -> bool {
        path.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("s"))
    }

    /// The target of a file this ISA recognises by its name alone (AMD IL's `.il` and `.ilb`),
    /// if `path` is one: the registry gives such a file to this frontend whatever `--target`
    /// says, resolves `--target` with [`Frontend::target`], and takes this target without
    /// one. `None` (the default): the ISA's files are recognised by their header
    /// ([`Frontend::sniff`]) or, with one of its targets, by [`Frontend::takes_text`].
    fn file_target(&self, _path: &Path) -> Option<Target> {
        None
    }

    /// Assembles a text file for `target`; `path` names it in messages and its stem names a
    /// file's only kernel.
    fn assemble(&self, path: &Path, text: &str, target: &Target) -> Result<Box<dyn Module>>;

    /// The fuzz campaign an `--isa` value names, if it names one of this ISA's.
    fn fuzz(&self, isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>>;

    /// The `--isa` values [`Frontend::fuzz`] takes, for messages.
    fn fuzz_names(&self) -> &'static [&'static str];

    /// The benchmark kernel built for this ISA, if it has one.
    fn bench_kernel(&self) -> Option<BenchKernel> {
        None
    }

    /// The subcommand that runs this ISA's command streams (`ctm`), if its programs run from
    /// a command stream rather than from `run`'s kernel launch. The registry finds the
    /// frontend of such a subcommand by this name ([`crate::registry::stream_frontend`]);
    /// the subcommand's options are generic ([`crate::stream`]).
    fn stream_command(&self) -> Option<&'static str> {
        None
    }

    /// The command streams `wavejit bench --suite streams` runs (paths relative to the
    /// repository root), for a frontend with a [`Frontend::stream_command`].
    fn bench_streams(&self) -> &'static [&'static str] {
        &[]
    }

    /// Runs the command stream `req.file` (for a frontend with a
    /// [`Frontend::stream_command`]).
    fn run_stream(
        &self,
        req: &crate::stream::StreamRequest<'_>,
    ) -> Result<crate::stream::StreamReport> {
        Err(crate::Error::Usage(format!(
            "{}: {} runs no command streams",
            req.file.display(),
            self.name()
        )))
    }
}

/// A build of `benches/kernels/alu_heavy.cl` for one ISA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchKernel {
    /// The chip it was compiled for.
    pub chip: &'static str,
    pub object: &'static [u8],
}

/// A kernel lifted to IR.
#[derive(Clone, Debug)]
pub struct Lifted {
    pub func: Arc<Function>,
    /// Machine instructions of the kernel (what a guest instruction count counts).
    pub machine_insts: usize,
}

/// What dispatching a kernel needs, once the ISA has placed its ABI's data in guest memory.
pub struct LaunchPlan {
    pub lifted: Lifted,
    /// LDS bytes per work-group.
    pub lds_bytes: u32,
    /// Private (scratch) bytes per lane the runtime provides (0 when the ABI puts scratch in
    /// guest memory itself).
    pub private_lane_bytes: u32,
    /// Each wave's initial registers.
    pub init: Box<dyn WaveInit + Send>,
    /// Guest memory ranges (address, bytes) zero-filled before every dispatch (GDS).
    pub zero_before_dispatch: Vec<(u64, u64)>,
}

/// A loaded file of one ISA: code objects, assembled text.
pub trait Module: Send + Sync {
    fn target(&self) -> &Target;

    /// `wavejit info`: target, kernels, resources, argument layout.
    fn describe(&self) -> String;

    /// The kernels' names, in the file's order.
    fn kernels(&self) -> Vec<String>;

    /// `wavejit disasm`: the ISA's conventional listing of one kernel, without a header line.
    fn disassemble(&self, kernel: &str) -> Result<String>;

    /// The kernel lifted to IR as `run` would lift it with no arguments (`disasm --ir`).
    fn lift(&self, kernel: &str) -> Result<Lifted>;

    /// Places the ABI's data for `args` (already in `mem`) over `grid`, lifts the kernel and
    /// says how its waves start (see the ISA's launch convention in the README).
    fn launch(
        &self,
        kernel: &str,
        grid: &Grid,
        args: &[PlacedArg],
        mem: &mut GuestMemory,
    ) -> Result<LaunchPlan>;

    /// The kernel as one lone wave for `wavejit wave`: no launch ABI, register names.
    fn wave(&self, kernel: &str) -> Result<WaveProgram>;

    /// Makes `disassemble`, `lift`, `launch` and `wave` use the kernels' encoding named
    /// `encoding` (`--encoding`): a file may carry a kernel in more than one form (AMD OpenCL
    /// binaries: the chip's ISA and AMD IL). By default a file has one, `isa`, its machine code.
    fn select_encoding(&mut self, encoding: &str) -> Result<()> {
        match encoding {
            "isa" => Ok(()),
            _ => Err(no_encoding(encoding, &["isa"])),
        }
    }

    /// Whether `launch` takes `local:N` ([`PlacedArg::Local`]) and `struct:PATH`
    /// ([`PlacedArg::Struct`]) arguments, which only launch conventions with OpenCL's
    /// argument kinds define; the launcher refuses them for a module that does not (the
    /// default).
    fn takes_local_and_struct_args(&self) -> bool {
        false
    }
}

/// The error for an `--encoding` a file does not have; `have` are the ones it has.
pub fn no_encoding(encoding: &str, have: &[&str]) -> crate::Error {
    crate::Error::Usage(format!(
        "the file has no {encoding} encoding of its kernels (it has: {})",
        have.join(", ")
    ))
}

/// A register a state file names: a uniform cell, or a lane row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegRef {
    Uniform(Reg),
    Lane(Reg),
}

/// An ISA's register naming for `wavejit wave`.
pub trait RegisterNames: Send + Sync {
    /// The register `name` denotes in the ISA's own syntax (`v0`, `s3`, `R1.x`), if any.
    fn lookup(&self, name: &str) -> Option<RegRef>;

    /// Every nameable register, in the order the output lists them.
    fn all(&self) -> Vec<(String, RegRef)>;

    /// The wave's exec mask (bit i = lane i) in `state`.
    fn exec(&self, state: &WaveState) -> u64;

    /// Sets the exec mask.
    fn set_exec(&self, state: &mut WaveState, mask: u64);

    /// Points the ISA's memory windows of `state` at guest address `base` (TeraScale's global
    /// pool offset 0); nothing by default.
    fn bind_memory(&self, _state: &mut WaveState, _base: u64) {}

    /// Binds constant buffer `name` (`cb0`, ...) at guest address `addr` in `state`; `None`
    /// if the ISA has no constant buffer of that name.
    fn bind_constants(&self, _name: &str, _addr: u64, _state: &mut WaveState) -> Option<()> {
        None
    }
}

/// A kernel lifted to run as one wave from a given state.
pub struct WaveProgram {
    pub lifted: Lifted,
    pub names: Box<dyn RegisterNames>,
    /// (pc, disassembly) of every instruction, for `--trace`.
    pub listing: Vec<(u64, String)>,
    /// Private bytes per lane the wave gets.
    pub private_lane_bytes: u32,
    /// Work-items' LDS bytes when the state gives none.
    pub lds_bytes: u32,
}
