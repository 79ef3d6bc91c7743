//! wavejit: runs real GPU machine code on the CPU, JIT-compiled to host SIMD.
//!
//! This crate is the facade the command line and the integration tests use: it loads a file
//! with the frontend of its ISA ([`registry`]), lifts a kernel, and runs it on an engine through
//! the runtime ([`launch`], [`wave`]). Every ISA plugs in through [`frontend`]'s traits.

pub mod asm_file;
pub mod bench;
pub mod cli;
pub mod demo;
pub mod fixtures;
pub mod frontend;
pub mod fuzz;
pub mod isa;
pub mod launch;
pub mod native;
pub mod registry;
pub mod spec;
pub mod stats;
pub mod stream;
pub mod wave;

use std::sync::Arc;
use wavejit_runtime::Engine;

/// Guest instructions a wave may execute by default before a run stops (an endless loop then
/// ends with a clear error instead of hanging).
pub const DEFAULT_FUEL: u64 = 1 << 32;

/// Which engine runs the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    Jit,
    Interp,
}

impl EngineKind {
    pub fn engine(self) -> Result<Arc<dyn Engine>, wavejit_runtime::ExecError> {
        Ok(match self {
            EngineKind::Jit => Arc::new(wavejit_jit::Jit::new()?),
            EngineKind::Interp => Arc::new(wavejit_runtime::interp::Interpreter),
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Jit => "jit",
            EngineKind::Interp => "interp",
        }
    }
}

/// Every way a command can fail; each prints as one line.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A file or kernel the loader refused.
    #[error("{0}")]
    Load(String),
    #[error("{0}")]
    Exec(#[from] wavejit_runtime::ExecError),
    #[error("{0}")]
    Usage(String),
    #[error("{0}")]
    Other(String),
}

impl From<wavejit_isa::KernelNotFound> for Error {
    fn from(e: wavejit_isa::KernelNotFound) -> Error {
        Error::Load(e.to_string())
    }
}

impl Error {
    pub fn io(path: &std::path::Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
