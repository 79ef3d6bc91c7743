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
pub mod fuzz;
pub mod image;
pub mod names;

use crate::frontend::{Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use image::{Image, Source};
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;
use wavejit_r5xx::lift;
use wavejit_runtime::{Grid, GuestMemory};

/// The frontend of ATI R5xx programs and CTM command streams.
pub struct R5xx;

/// The registry's R5xx entry.
pub static R5XX: R5xx = R5xx;

/// Processors of one wave (one SIMD group as wavejit runs it: a 16x4 tile).
pub const WAVE_SIZE: u32 = lift::state::WAVE_SIZE;

/// The chips, canonical first.
const TARGETS: &[&str] = &["r580", "r520"];

/// The subcommand that runs CTM command streams.
pub const STREAM_COMMAND: &str = "ctm";

fn target_of(name: &str) -> Option<Target> {
    let lower = name.to_ascii_lowercase();
    let known = TARGETS.contains(&lower.as_str());
    known.then_some(Target {
        isa: "r5xx",
        name: lower,
        wave_size: WAVE_SIZE,
    })
}

fn canonical() -> Target {
    target_of(TARGETS[0]).expect("the canonical chip is a target")
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

    /// A CTM ELF (EM_ATI_R5XX with ELFOSABI_ATI).
    fn sniff(&self, bytes: &[u8]) -> bool {
        wavejit_r5xx::elf::sniff(bytes)
    }

    /// Raw instruction words, with `--target r580` (or `r520`).
    fn takes_raw_code(&self) -> bool {
        true
    }

    fn load(&self, bytes: &[u8], name: &str, target: Option<&Target>) -> Result<Box<dyn Module>> {
        let image = Image::from_bytes(bytes)?;
        Ok(Box::new(R5xxModule::new(image, name, target.cloned())))
    }

    fn assemble(&self, path: &Path, text: &str, target: &Target) -> Result<Box<dyn Module>> {
        let image = Image::from_text(path, text)?;
        let (_, stem) = crate::asm_file::names(path);
        Ok(Box::new(R5xxModule::new(
            image,
            &stem,
            Some(target.clone()),
        )))
    }

    fn fuzz(&self, isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>> {
        fuzz::campaign(isa)
    }

    fn fuzz_names(&self) -> &'static [&'static str] {
        fuzz::FUZZ_NAMES
    }

    fn stream_command(&self) -> Option<&'static str> {
        Some(STREAM_COMMAND)
    }

    /// Mandelbrot and a matrix multiply (`benches/ctm`, README "ATI R5xx").
    fn bench_streams(&self) -> &'static [&'static str] {
        &["benches/ctm/mandelbrot.ctm", "benches/ctm/matmul.ctm"]
    }

    fn run_stream(
        &self,
        req: &crate::stream::StreamRequest<'_>,
    ) -> Result<crate::stream::StreamReport> {
        ctm::run(req)
    }
}

/// A loaded R5xx program: one kernel, named after the file stem.
pub struct R5xxModule {
    target: Target,
    image: Image,
    name: String,
}

impl R5xxModule {
    pub fn new(image: Image, name: &str, target: Option<Target>) -> R5xxModule {
        R5xxModule {
            target: target.unwrap_or_else(canonical),
            image,
            name: name.to_string(),
        }
    }

    fn check(&self, kernel: &str) -> Result<()> {
        if kernel == self.name {
            Ok(())
        } else {
            Err(wavejit_isa::KernelNotFound::new(kernel, [self.name.as_str()]).into())
        }
    }

    /// The program lifted under a lone wave's setup ([`names::lone_setup`]).
    fn lift_lone(&self, kernel: &str) -> Result<lift::Lifted> {
        self.check(kernel)?;
        let setup = names::lone_setup(self.image.program.clone(), self.image.info);
        lift_setup(&setup, kernel)
    }

    /// (slot, text) of the slots the program runs.
    fn listing(&self) -> Vec<(u64, String)> {
        let info = &self.image.info;
        self.image
            .program
            .iter()
            .enumerate()
            .filter(|(n, _)| (info.start as usize..=info.end as usize).contains(n))
            .map(|(n, i)| (n as u64, wavejit_r5xx::print::print_inst(i)))
            .collect()
    }
}

/// Lifts and verifies a setup's program; errors name `kernel`.
pub fn lift_setup(setup: &wavejit_r5xx::setup::Setup, kernel: &str) -> Result<lift::Lifted> {
    let fail = |what: String| Error::Load(format!("program {kernel}: {what}"));
    let lifted = lift::lift(setup).map_err(|e| fail(e.to_string()))?;
    wavejit_ir::verify::verify(&lifted.func)
        .map_err(|e| fail(format!("lifted IR is invalid: {e}")))?;
    Ok(lifted)
}

/// The frontend's view of a lifted program.
fn to_lifted(l: &lift::Lifted) -> Lifted {
    Lifted {
        func: Arc::new(l.func.clone()),
        machine_insts: l.slots,
    }
}

/// `run`'s refusal: CTM programs run from command streams.
fn no_run(kernel: &str) -> Error {
    Error::Usage(format!(
        "kernel {kernel}: R5xx programs run from CTM command streams, not with run: use `wavejit {STREAM_COMMAND} STREAM` (README \"ATI R5xx\")"
    ))
}

impl Module for R5xxModule {
    fn target(&self) -> &Target {
        &self.target
    }

    fn describe(&self) -> String {
        let mut s = String::new();
        let img = &self.image;
        let info = &img.info;
        let _ = writeln!(
            s,
            "target: {} ({}-processor waves: 16x4 tiles of index pairs), {}, {} slots (runs from CTM command streams: README.md \"ATI R5xx\")",
            self.target.name,
            self.target.wave_size,
            img.source.describe(),
            img.program.len()
        );
        let _ = writeln!(s, "kernel {}:", self.name);
        let info_of = if img.source == Source::Elf {
            "dpp_proginfo"
        } else {
            "default, no program info in the file"
        };
        let _ = writeln!(
            s,
            "  program info ({info_of}): slots {}..={}, {} flow control, US_PIXSIZE {}, {} outputs, multiply {}, conditional value {}",
            info.start,
            info.end,
            if info.full_fc { "full" } else { "partial" },
            info.pixsize,
            if info.uncached_outputs { "uncached (UMRT)" } else { "cached" },
            if info.zero_times_anything { "0*anything=0 (legacy)" } else { "IEEE (0*inf=NaN)" },
            if info.exports_cond { "exported (W)" } else { "not exported" },
        );
        if let Some(n) = &img.notes {
            let list = |v: &[u32]| {
                if v.is_empty() {
                    "none".to_string()
                } else {
                    v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
                }
            };
            let _ = writeln!(
                s,
                "  notes: inputs {}; outputs {}; float constants {}; int constants {}; conditional output {}; early exit {}",
                list(&n.inputs),
                list(&n.outputs),
                list(&n.float32_consts),
                list(&n.int32_consts),
                n.cond_out,
                n.early_exit
            );
        }
        match self.lift_lone(&self.name) {
            Ok(_) => {
                let slots = &img.program[info.start as usize..=info.end as usize];
                let temps = wavejit_r5xx::lift::temps_used(slots);
                let _ = writeln!(s, "  temporaries: r0..r{}", temps - 1);
            }
            Err(e) => {
                let _ = writeln!(s, "  not runnable: {e}");
            }
        }
        let _ = writeln!(
            s,
            "  launch: per index pair (i, j) of set_domain, r0 = (i, j, 0.0, 1.0); inputs, outputs and constants are the stream's surfaces"
        );
        s
    }

    fn kernels(&self) -> Vec<String> {
        vec![self.name.clone()]
    }

    fn disassemble(&self, kernel: &str) -> Result<String> {
        self.check(kernel)?;
        let mut s = String::new();
        for (pc, text) in self.listing() {
            let _ = writeln!(s, "{pc:4}:  {text}");
        }
        Ok(s)
    }

    /// Lifted under a lone wave's memory-controller state ([`names`]).
    fn lift(&self, kernel: &str) -> Result<Lifted> {
        Ok(to_lifted(&self.lift_lone(kernel)?))
    }

    fn launch(
        &self,
        kernel: &str,
        _grid: &Grid,
        _args: &[PlacedArg],
        _mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        Err(no_run(kernel))
    }

    fn wave(&self, kernel: &str) -> Result<WaveProgram> {
        let l = self.lift_lone(kernel)?;
        Ok(WaveProgram {
            lifted: to_lifted(&l),
            names: Box::new(names::R5xxNames::new(l.layout)),
            listing: self.listing(),
            private_lane_bytes: 0,
            lds_bytes: 0,
        })
    }
}
