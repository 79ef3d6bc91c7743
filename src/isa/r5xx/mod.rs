//! ATI R5xx (X1000) data-parallel processor behind the one frontend interface, as CTM exposes
//! it (seed 003, the ATI CTM Guide; crate [`wavejit_r5xx`]).
//!
//! Programs run from CTM command streams: `wavejit ctm` ([`ctm`]), this frontend's
//! [`Frontend::stream_command`]. A program file alone (a CTM ELF, raw instruction words with
//! `--target r580`, or assembler text `.s` with `--target r580`; one kernel named after the
//! file stem) is for `info`, `disasm` and `wave`; `run` refuses it, since a CTM program has
//! no kernel arguments: its inputs, outputs and constants are the memory controller's
//! surfaces, which a command stream sets.
//!
//! Targets: `r580` (canonical: the chip CTM shipped for) and `r520`, which behaves the same
//! (both are R5xx unified-shader parts with the same US instruction set; seed 003 names no
//! difference). A wave is 64 processors: a 16x4 tile of index pairs
//! ([`wavejit_r5xx::lift`]).

pub mod ctm;

use crate::frontend::{Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use std::path::Path;
use wavejit_runtime::{Grid, GuestMemory};

/// The frontend of ATI R5xx programs and CTM command streams.
pub struct R5xx;

/// The registry's R5xx entry.
pub static R5XX: R5xx = R5xx;

/// Processors of one wave (one SIMD group as wavejit runs it: a 16x4 tile).
pub const WAVE_SIZE: u32 = 64;

/// The chips, canonical first.
const TARGETS: &[&str] = &["r580", "r520"];

fn target_of(name: &str) -> Option<Target> {
    let lower = name.to_ascii_lowercase();
    TARGETS.contains(&lower.as_str()).then(|| Target {
        isa: "r5xx",
        name: lower,
        wave_size: WAVE_SIZE,
    })
}

impl Frontend for R5xx {
    fn name(&self) -> &'static str {
        "r5xx"
    }

    fn target_names(&self) -> &'static [&'static str] {
        TARGETS
    }

    fn target(&self, name: &str) -> Option<Target> {
        target_of(name)
    }

    fn sniff(&self, _bytes: &[u8]) -> bool {
        false
    }

    fn takes_raw_code(&self) -> bool {
        true
    }

    fn load(&self, _bytes: &[u8], name: &str, _target: Option<&Target>) -> Result<Box<dyn Module>> {
        Err(Error::Load(format!("{name}: R5xx programs are being written")))
    }

    fn assemble(&self, path: &Path, _text: &str, _target: &Target) -> Result<Box<dyn Module>> {
        Err(Error::Load(format!(
            "{}: R5xx text is being written",
            path.display()
        )))
    }

    fn fuzz(&self, _isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>> {
        None
    }

    fn fuzz_names(&self) -> &'static [&'static str] {
        &[]
    }

    fn stream_command(&self) -> Option<&'static str> {
        Some("ctm")
    }

    fn run_stream(&self, req: &crate::stream::StreamRequest<'_>) -> Result<()> {
        ctm::run(req)
    }
}

/// `run`'s refusal: CTM programs run from command streams.
fn no_run(kernel: &str) -> Error {
    Error::Usage(format!(
        "kernel {kernel}: R5xx programs run from CTM command streams: use `wavejit ctm STREAM` (README \"ATI R5xx\")"
    ))
}

#[allow(dead_code)]
struct Placeholder;

impl Placeholder {
    #[allow(dead_code)]
    fn refuse(
        kernel: &str,
        _grid: &Grid,
        _args: &[PlacedArg],
        _mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        Err(no_run(kernel))
    }
    #[allow(dead_code)]
    fn types(_: Lifted, _: WaveProgram, _: &dyn Module) {}
}
