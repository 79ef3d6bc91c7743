//! AMD IL files behind the one frontend interface: IL text (`.il`, [`wavejit_amdil::parse`])
//! and binary token streams (`.ilb`, [`wavejit_amdil::decode`]: the stream as AMD's compiler
//! and [`wavejit_amdil::encode`] write it). A file is one kernel named after its stem, a
//! compute program (`il_cs`) or a pixel-shader program (`il_ps`, run over a domain as CAL ran
//! them), lifted by [`wavejit_amdil::lift`] and launched under the OpenCL convention of
//! [`launch`] (README.md "AMD IL files").
//!
//! IL names no chip: the files are recognised by their extension ([`Frontend::file_target`])
//! and run as `--target` says, any r600-family or GCN chip (AMD's IL compiler targets both),
//! cypress by default. The chip sets the wave size (cedar's 32 lanes, 64 on every other);
//! no IL rule of the lifter depends on it otherwise.
//!
//! The shared parts, which the IL encoding of AMD OpenCL binaries also runs through, are
//! [`code`] (lifting, listing, the launch plan) and [`names`] (the `wavejit wave` registers).
//! Every pc wavejit reports is a byte offset in the program's token stream, as
//! [`wavejit_amdil::lift`] numbers it; `disasm` prints the program as IL text.

pub mod code;
pub mod fuzz;
pub mod launch;
pub mod names;

use crate::frontend::{Frontend, LaunchPlan, Lifted, Module, Target, WaveProgram};
use crate::launch::PlacedArg;
use crate::{Error, Result};
use code::IlCode;
use std::fmt::Write;
use std::path::Path;
use std::sync::OnceLock;
use wavejit_amdil::inst::Program;
use wavejit_runtime::{Grid, GuestMemory};

/// The frontend of AMD IL files.
pub struct AmdIl;

/// The registry's AMD IL entry.
pub static AMDIL: AmdIl = AmdIl;

/// The chip IL files run as without `--target`.
const DEFAULT_CHIP: &str = "cypress";

/// The encoding name of IL (`--encoding il`).
pub const ENCODING: &str = "il";

/// The target `name` names: an r600-family chip (its wave size), a GCN chip or generation, or
/// a chip of AMD's OpenCL binaries.
fn target_of(name: &str) -> Option<Target> {
    let lower = name.to_ascii_lowercase();
    let (name, wave_size) = if let Some(chip) = wavejit_terascale::Chip::from_name(&lower) {
        (
            chip.name().to_string(),
            wavejit_terascale::launch::wave_size(chip),
        )
    } else if wavejit_gcn::Gen::from_chip(&lower).is_some()
        || wavejit_amdil::appsdk::Chip::ALL
            .iter()
            .any(|c| c.name() == lower)
    {
        (lower, wavejit_gcn::launch::WAVE_SIZE)
    } else {
        return None;
    };
    Some(Target {
        isa: "amdil",
        name,
        wave_size,
    })
}

fn is_il(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("il"))
}

fn is_ilb(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ilb"))
}

impl Frontend for AmdIl {
    fn name(&self) -> &'static str {
        "amdil"
    }

    /// cypress (the default), the r600-family chips, the GCN chips and generations and the
    /// chips of AMD's OpenCL binaries.
    fn target_names(&self) -> &'static [&'static str] {
        static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
        NAMES.get_or_init(|| {
            let mut names = vec![DEFAULT_CHIP];
            names.extend(wavejit_terascale::Chip::ALL.iter().map(|c| c.name()));
            names.extend(wavejit_gcn::inst::CHIPS.iter().map(|(c, _)| *c));
            names.extend(wavejit_gcn::Gen::ALL.iter().map(|g| g.name()));
            names.extend(wavejit_amdil::appsdk::Chip::ALL.iter().map(|c| c.name()));
            let mut seen = std::collections::HashSet::new();
            names.retain(|n| seen.insert(*n));
            names
        })
    }

    fn target(&self, name: &str) -> Option<Target> {
        target_of(name)
    }

    /// IL files are recognised by their extension ([`Frontend::file_target`]).
    fn sniff(&self, _bytes: &[u8]) -> bool {
        false
    }

    fn file_target(&self, path: &Path) -> Option<Target> {
        (is_il(path) || is_ilb(path)).then(|| target_of(DEFAULT_CHIP))?
    }

    /// A binary token stream (`.ilb`).
    fn load(&self, bytes: &[u8], name: &str, target: Option<&Target>) -> Result<Box<dyn Module>> {
        let program =
            wavejit_amdil::decode::decode(bytes).map_err(|e| Error::Load(e.to_string()))?;
        let target = match target {
            Some(t) => t.clone(),
            None => target_of(DEFAULT_CHIP).expect("the default chip is a target"),
        };
        Ok(Box::new(IlModule::new(program, name, target, false)))
    }

    fn takes_text(&self, path: &Path) -> bool {
        is_il(path)
    }

    fn assemble(&self, path: &Path, text: &str, target: &Target) -> Result<Box<dyn Module>> {
        let program = wavejit_amdil::parse::parse(text)
            .map_err(|e| Error::Load(format!("{}: {e}", path.display())))?;
        let (_, stem) = crate::asm_file::names(path);
        Ok(Box::new(IlModule::new(
            program,
            &stem,
            target.clone(),
            true,
        )))
    }

    fn fuzz(&self, isa: &str) -> Option<Box<dyn crate::fuzz::Campaign>> {
        fuzz::campaign(isa)
    }

    fn fuzz_names(&self) -> &'static [&'static str] {
        fuzz::FUZZ_NAMES
    }
}

/// An IL file: one kernel.
pub struct IlModule {
    target: Target,
    program: Program,
    name: String,
    /// Parsed from text (else decoded from tokens).
    text: bool,
}

impl IlModule {
    fn new(program: Program, name: &str, target: Target, text: bool) -> IlModule {
        IlModule {
            target,
            program,
            name: name.to_string(),
            text,
        }
    }

    fn code(&self, kernel: &str) -> Result<IlCode<'_>> {
        if kernel != self.name {
            return Err(wavejit_isa::KernelNotFound::new(kernel, [self.name.as_str()]).into());
        }
        Ok(IlCode {
            program: &self.program,
            name: &self.name,
            wave_size: self.target.wave_size,
        })
    }
}

impl Module for IlModule {
    fn target(&self) -> &Target {
        &self.target
    }

    fn describe(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "target: {} ({}-lane waves), AMD IL {} (launch convention: README.md \"AMD IL files\")",
            self.target.name,
            self.target.wave_size,
            if self.text {
                "text"
            } else {
                "binary token stream"
            }
        );
        let _ = writeln!(s, "kernel {}:", self.name);
        if let Ok(code) = self.code(&self.name) {
            code.describe(&mut s, "  ");
        }
        if self.program.version.shader == wavejit_amdil::token::Version::PIXEL {
            let _ = writeln!(
                s,
                "  domain: a pixel shader runs once per point of --global X[,Y], in tiles of --local; vWinCoord0 = (x + 0.5, y + 0.5, 0.0, 1.0)"
            );
        }
        let _ = writeln!(
            s,
            "  arguments: --arg list in order, one 16-byte CB1 slot each; buffers are byte offsets in the arena, local:N LDS offsets after the declared LDS"
        );
        s
    }

    fn kernels(&self) -> Vec<String> {
        vec![self.name.clone()]
    }

    fn disassemble(&self, kernel: &str) -> Result<String> {
        self.code(kernel)?;
        Ok(wavejit_amdil::print::print(&self.program))
    }

    fn lift(&self, kernel: &str) -> Result<Lifted> {
        Ok(self.code(kernel)?.lift()?.0)
    }

    fn launch(
        &self,
        kernel: &str,
        grid: &Grid,
        args: &[PlacedArg],
        mem: &mut GuestMemory,
    ) -> Result<LaunchPlan> {
        let code = self.code(kernel)?;
        let placed = launch::place(kernel, &code.declared()?, grid, args, mem)?;
        code.plan(placed.const_buffers, placed.arena, placed.lds_bytes)
    }

    fn wave(&self, kernel: &str) -> Result<WaveProgram> {
        self.code(kernel)?.wave()
    }

    /// An IL file's one encoding is IL.
    fn select_encoding(&mut self, encoding: &str) -> Result<()> {
        if encoding == ENCODING {
            Ok(())
        } else {
            Err(crate::frontend::no_encoding(encoding, &[ENCODING]))
        }
    }

    fn takes_local_and_struct_args(&self) -> bool {
        true
    }
}
