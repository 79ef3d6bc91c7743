//! The one launcher: from a loaded module and a run request to a prepared kernel that can be
//! dispatched any number of times, for every ISA.
//!
//! Order of work, the same for every ISA: check the grid (the target's wave size), place the
//! `--arg` buffers in a fresh guest memory (each its own buffer, in argument order, aligned to
//! [`BUFFER_ALIGN`], so an access outside any of them is a checked fault), let the ISA place its
//! ABI's data, lift and say how waves start ([`Module::launch`]), prepare the function on the
//! engine, then dispatch. The time of each step is kept for `run --stats`.

use crate::frontend::{LaunchPlan, Module};
use crate::spec::{ArgSpec, ValueKind};
use crate::{EngineKind, Error, Result};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wavejit_isa::ArgValue;
use wavejit_runtime::{DispatchStats, Grid, GuestMemory, MemError, Program};

/// Alignment of every buffer argument (the alignment GPU drivers give allocations).
pub const BUFFER_ALIGN: u64 = 256;

/// A kernel launch: sizes, arguments, engine and limits.
pub struct RunRequest<'a> {
    pub kernel: &'a str,
    pub global: [u32; 3],
    /// The components the host gave `global` (OpenCL's work_dim), if it says; else the
    /// highest dimension whose size exceeds 1.
    pub work_dim: Option<u32>,
    pub local: [u32; 3],
    pub engine: EngineKind,
    pub threads: usize,
    pub args: &'a [ArgSpec],
    pub fuel: u64,
    pub timeout: Duration,
}

/// One argument after placing: a buffer in guest memory, or a value; with the OpenCL
/// argument kinds of `local:N` and `struct:PATH`, a `__local` pointer's size or a by-value
/// argument's bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacedArg {
    Buffer {
        addr: u64,
        size: u64,
    },
    Value {
        kind: ValueKind,
        bits: u64,
    },
    /// A `__local` pointer to `size` bytes of LDS, which the module's launch places.
    Local {
        size: u64,
    },
    /// A by-value argument of `size` bytes, staged in guest memory at `addr` for the launch
    /// to read (no kernel address reaches it).
    Struct {
        addr: u64,
        size: u64,
    },
}

impl PlacedArg {
    /// The argument's value: a buffer's 64-bit guest address, or the value of its kind. The
    /// launcher gives `Local` and `Struct` arguments only to modules that take them
    /// ([`Module::takes_local_and_struct_args`]), which read them themselves; their value
    /// here is 0.
    pub fn value(self) -> ArgValue {
        match self {
            PlacedArg::Buffer { addr, .. } => ArgValue::Pointer(addr),
            PlacedArg::Local { .. } | PlacedArg::Struct { .. } => ArgValue::U32(0),
            PlacedArg::Value { kind, bits } => match kind {
                ValueKind::U32 => ArgValue::U32(bits as u32),
                ValueKind::I32 => ArgValue::I32(bits as u32 as i32),
                ValueKind::U64 => ArgValue::U64(bits),
                ValueKind::I64 => ArgValue::I64(bits as i64),
                ValueKind::F32 => ArgValue::F32(f32::from_bits(bits as u32)),
                ValueKind::F64 => ArgValue::F64(f64::from_bits(bits)),
            },
        }
    }
}

/// Allocates one guest buffer per buffer argument (file contents, zeros or given bytes).
pub fn place_args(mem: &mut GuestMemory, specs: &[ArgSpec]) -> Result<Vec<PlacedArg>> {
    specs
        .iter()
        .map(|spec| {
            let (addr, size) = match spec {
                ArgSpec::File(path) => {
                    let data = crate::cli::read(path)?;
                    (mem.alloc_bytes(&data, BUFFER_ALIGN), data.len() as u64)
                }
                ArgSpec::Zero(n) => (mem.alloc(*n, BUFFER_ALIGN), *n),
                ArgSpec::Data(data) => (mem.alloc_bytes(data, BUFFER_ALIGN), data.len() as u64),
                ArgSpec::Value { kind, bits } => {
                    return Ok(PlacedArg::Value {
                        kind: *kind,
                        bits: *bits,
                    })
                }
                ArgSpec::Local(size) => return Ok(PlacedArg::Local { size: *size }),
                ArgSpec::Struct(path) => {
                    let data = crate::cli::read(path)?;
                    let addr = mem.alloc_bytes(&data, BUFFER_ALIGN).map_err(mem_err)?;
                    return Ok(PlacedArg::Struct {
                        addr,
                        size: data.len() as u64,
                    });
                }
            };
            Ok(PlacedArg::Buffer {
                addr: addr.map_err(mem_err)?,
                size,
            })
        })
        .collect()
}

pub(crate) fn mem_err(e: MemError) -> Error {
    Error::Other(e.to_string())
}

/// Seconds spent in each step of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// Placing the arguments and the ABI's data.
    pub load: f64,
    /// Decoding and lifting the kernel.
    pub lift: f64,
    /// Preparing the function on the engine.
    pub compile: f64,
}

/// A kernel made ready to dispatch: buffers in guest memory, code lifted and prepared by an
/// engine. It may be dispatched any number of times (benchmarks do); every dispatch starts
/// with the plan's zeroed ranges zeroed again.
pub struct Prepared {
    pub kernel: String,
    pub mem: GuestMemory,
    /// Every argument as placed in guest memory.
    pub args: Vec<PlacedArg>,
    pub grid: Grid,
    pub plan: LaunchPlan,
    pub program: Arc<dyn Program>,
    pub timings: Timings,
    threads: usize,
    fuel: u64,
    timeout: Duration,
}

/// Places the arguments, lets the module plan the launch and prepares the kernel on
/// `req.engine`.
pub fn prepare(module: &dyn Module, req: &RunRequest<'_>) -> Result<Prepared> {
    let wave_size = module.target().wave_size;
    let grid = Grid::new(req.global, req.local, wave_size)
        .map_err(|e| Error::Usage(format!("kernel {}: invalid launch: {e}", req.kernel)))?;
    let grid = req.work_dim.map_or(grid, |n| grid.with_dims(n));
    if !module.takes_local_and_struct_args() {
        if let Some((i, spec)) = req
            .args
            .iter()
            .enumerate()
            .find(|(_, a)| matches!(a, ArgSpec::Local(_) | ArgSpec::Struct(_)))
        {
            let kind = if matches!(spec, ArgSpec::Local(_)) {
                "local:"
            } else {
                "struct:"
            };
            return Err(Error::Usage(format!(
                "kernel {}: argument {i}: {kind} arguments are for AMD OpenCL binaries and IL files; {} kernels take buffers and values",
                req.kernel,
                module.target().isa
            )));
        }
    }
    let t = Instant::now();
    let mut mem = GuestMemory::new().map_err(mem_err)?;
    let args = place_args(&mut mem, req.args)?;
    let load = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut plan = module.launch(req.kernel, &grid, &args, &mut mem)?;
    // A dispatch keeps memory, not the waves' registers: writes nothing reads go.
    let mut func = (*plan.lifted.func).clone();
    wavejit_ir::drop_unread_writes(&mut func);
    plan.lifted.func = Arc::new(func);
    let lift = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let program = req.engine.engine()?.prepare(plan.lifted.func.clone())?;
    let compile = t.elapsed().as_secs_f64();
    Ok(Prepared {
        kernel: req.kernel.to_string(),
        mem,
        args,
        grid,
        plan,
        program,
        timings: Timings {
            load,
            lift,
            compile,
        },
        threads: req.threads.max(1),
        fuel: req.fuel,
        timeout: req.timeout,
    })
}

impl Prepared {
    /// Host threads a dispatch uses.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs the kernel once over the whole grid.
    pub fn dispatch(&self) -> Result<DispatchStats> {
        for &(addr, len) in &self.plan.zero_before_dispatch {
            self.mem
                .write_bytes(addr, &vec![0; len as usize])
                .map_err(mem_err)?;
        }
        let launch = wavejit_runtime::Launch {
            kernel: self.kernel.clone(),
            func: self.plan.lifted.func.clone(),
            program: self.program.clone(),
            grid: self.grid,
            lds_bytes: self.plan.lds_bytes,
            private_lane_bytes: self.plan.private_lane_bytes,
            threads: self.threads,
            fuel: self.fuel,
            time_limit: self.timeout,
            init: &*self.plan.init,
        };
        Ok(wavejit_runtime::dispatch(&launch, &self.mem)?)
    }

    /// The bytes of buffer argument `i` (an error for a value argument).
    pub fn buffer(&self, i: usize) -> Result<Vec<u8>> {
        let Some(&PlacedArg::Buffer { addr, size }) = self.args.get(i) else {
            return Err(Error::Usage(format!("argument {i} is not a buffer")));
        };
        let mut out = vec![0u8; size as usize];
        self.mem.read_bytes(addr, &mut out).map_err(mem_err)?;
        Ok(out)
    }
}
