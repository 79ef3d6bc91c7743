//! Command streams: programs that a GPU runs from a host's command buffer rather than from a
//! kernel launch (`wavejit ctm`, DESIGN.md "`wavejit ctm`"). The command-line plumbing is
//! generic: a frontend says which subcommand runs its streams
//! ([`crate::frontend::Frontend::stream_command`]), the registry finds it
//! ([`crate::registry::stream_frontend`]) and hands it a [`StreamRequest`]; what a stream
//! means is the ISA's.
//!
//! The host directives a text stream carries (`load`, `program`, `save`) are options for a
//! binary stream: `--load ADDR:PATH`, `--program ADDR:PATH`, `--save ADDR:SIZE:PATH`. They
//! reach the frontend as given, which parses them as it parses its text directives. Paths
//! given as options are relative to the working directory, as every other path of the
//! command line is.

use crate::frontend::Target;
use crate::EngineKind;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// One run of a command stream file.
pub struct StreamRequest<'a> {
    pub file: &'a Path,
    /// The chip (`--target`, or the frontend's canonical one).
    pub target: Target,
    pub engine: EngineKind,
    /// Host threads a program's dispatch uses.
    pub threads: usize,
    /// Guest instructions one wave may execute in one program run.
    pub fuel: u64,
    /// Wall-clock limit of one program run.
    pub timeout: Duration,
    /// `--load` values (ADDR:PATH), in order.
    pub loads: &'a [String],
    /// `--program` values (ADDR:PATH), in order.
    pub programs: &'a [String],
    /// `--save` values (ADDR:SIZE:PATH), in order.
    pub saves: &'a [String],
    /// Write the saved ranges to their files (the command line); otherwise they are only
    /// returned in [`StreamReport::saved`] (benchmarks, tests).
    pub write_saves: bool,
}

/// Seconds spent in each step of a stream's run, summed over its programs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StreamSeconds {
    /// Reading the stream and the files its directives name, placing them in memory.
    pub load: f64,
    /// Decoding and lifting programs (a program lifted once per setup).
    pub lift: f64,
    /// Preparing lifted functions on the engine.
    pub compile: f64,
    /// Running programs (dispatches, and the host's share of a launch: conditional tests).
    pub execute: f64,
}

/// What a stream's run did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StreamReport {
    /// Programs run (`start_program` commands).
    pub programs: u64,
    /// Waves dispatched, summed over the programs.
    pub waves: u64,
    /// Guest instructions the waves executed, summed over the programs.
    pub guest_instructions: u64,
    pub seconds: StreamSeconds,
    /// Every saved range in order: the path it names and its bytes.
    pub saved: Vec<(PathBuf, Vec<u8>)>,
}
