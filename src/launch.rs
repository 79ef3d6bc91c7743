//! What every ISA's launcher shares: the launch request, the placing of `--arg` buffers in
//! guest memory, reading them back, and the prepared-kernel interface the commands use.
//!
//! Invariants: every buffer argument is its own guest buffer (so every access outside it is a
//! checked fault), allocated in argument order with [`BUFFER_ALIGN`]; value arguments allocate
//! nothing. The ISA facades ([`crate::gcn`], [`crate::terascale`]) turn a [`PlacedArg`] into
//! their ABI's argument value (a 64-bit address, or a 32-bit offset from a pool base).

use crate::spec::{ArgSpec, ValueKind};
use crate::{Error, Result};
use wavejit_runtime::{DispatchStats, GuestMemory, MemError};

/// Alignment of every buffer argument (the alignment GPU drivers give allocations).
pub const BUFFER_ALIGN: u64 = 256;

/// A kernel launch: sizes, arguments, engine and limits.
pub struct RunRequest<'a> {
    pub kernel: &'a str,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub engine: crate::EngineKind,
    pub threads: usize,
    pub args: &'a [ArgSpec],
    pub fuel: u64,
    pub timeout: std::time::Duration,
}

/// One argument after placing: a buffer in guest memory, or a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlacedArg {
    Buffer { addr: u64, size: u64 },
    Value { kind: ValueKind, bits: u64 },
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
            };
            Ok(PlacedArg::Buffer {
                addr: addr.map_err(mem_err)?,
                size,
            })
        })
        .collect()
}

/// The bytes of buffer argument `i` (an error for a value argument).
pub fn read_buffer(mem: &GuestMemory, args: &[PlacedArg], i: usize) -> Result<Vec<u8>> {
    let Some(&PlacedArg::Buffer { addr, size }) = args.get(i) else {
        return Err(Error::Usage(format!("argument {i} is not a buffer")));
    };
    let mut out = vec![0u8; size as usize];
    mem.read_bytes(addr, &mut out).map_err(mem_err)?;
    Ok(out)
}

pub(crate) fn mem_err(e: MemError) -> Error {
    Error::Other(e.to_string())
}

/// A kernel made ready to dispatch (buffers in guest memory, code lifted and prepared by an
/// engine), whatever its ISA. It may be dispatched any number of times (benchmarks do).
pub trait Prepared {
    /// Runs the kernel once over the whole grid.
    fn dispatch(&self) -> Result<DispatchStats>;
    /// The bytes of buffer argument `i`.
    fn buffer(&self, i: usize) -> Result<Vec<u8>>;
}

/// The outcome of one run: the prepared kernel (memory and buffers) and what the dispatch did.
pub struct RunOutcome {
    pub launcher: Box<dyn Prepared>,
    pub stats: DispatchStats,
}

impl RunOutcome {
    /// Dispatches `launcher` once.
    pub fn run(launcher: Box<dyn Prepared>) -> Result<RunOutcome> {
        let stats = launcher.dispatch()?;
        Ok(RunOutcome { launcher, stats })
    }

    /// The bytes of buffer argument `i` after the run.
    pub fn buffer(&self, i: usize) -> Result<Vec<u8>> {
        self.launcher.buffer(i)
    }
}
