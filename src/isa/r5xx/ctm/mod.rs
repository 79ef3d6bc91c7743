//! `wavejit ctm FILE`: runs a CTM command stream (seed 003 chapter 3; DESIGN.md "`wavejit
//! ctm`"). The stream's syntax, its commands' state and the host directives are
//! [`wavejit_r5xx::stream`]'s; this module gives them memory and runs the programs.
//!
//! Order of work:
//! 1. parse FILE: binary when it ends in `.cb`, text otherwise
//!    ([`Stream::parse_file`]); the `--load`, `--program` and `--save` options join the
//!    file's directives after its own (options' paths are relative to the working directory,
//!    the file's to FILE's directory);
//! 2. GPU memory of `memory SIZE` bytes (default 64 MiB) at guest addresses `0..SIZE`
//!    ([`memory`]); the `load`s and `program`s are applied in order: a `load` copies the
//!    file's bytes, a `program` places the program's slots (a CTM ELF's `.text`, raw words,
//!    or assembler text `.s`: [`super::image`]) at ADDR and keeps its program info for the
//!    `start_program`s whose instruction base is ADDR (the last `program` at an address wins);
//! 3. the commands in order through the command processor ([`CommandProcessor`]): a
//!    `start_program` runs its program over the domain ([`program`]), a `read_perf_counters`
//!    writes the two counters ([`wavejit_r5xx::stream::perf`]: a deterministic model, the
//!    same on both engines and every thread count); caches and `wait_for_idle` need nothing;
//! 4. the `save`s, in order.
//!
//! Every error is one line naming FILE and, for a command, its position (`line N` /
//! `dword N`); nothing is saved after an error.

pub mod memory;
pub mod program;

use super::image::Image;
use crate::stream::{StreamReport, StreamRequest};
use crate::{Error, Result};
use memory::GpuMemory;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;
use wavejit_r5xx::stream::{
    self as st, CommandProcessor, Directives, Event, ImageKind, Pos, Stream, StreamError,
};

/// A program placed by a `program` directive: its info and its name (the file stem).
#[derive(Clone, Debug)]
pub struct Placed {
    pub info: wavejit_r5xx::setup::ProgInfo,
    pub name: String,
}

/// Runs the stream of `req` (module doc).
pub fn run(req: &StreamRequest<'_>) -> Result<StreamReport> {
    let shown = req.file.display().to_string();
    let at = |e: StreamError| Error::Load(format!("{shown}: {e}"));
    let t = Instant::now();
    let bytes = crate::cli::read(req.file)?;
    let stream = Stream::parse_file(req.file, &bytes).map_err(at)?;
    let directives = with_options(&stream.directives, req).map_err(at)?;
    let dir = req.file.parent().unwrap_or(Path::new(""));
    let mem = GpuMemory::new(directives.memory_size())?;
    let programs = place_images(&directives, dir, &mem, &shown)?;
    let mut report = StreamReport::default();
    report.seconds.load = t.elapsed().as_secs_f64();

    let mut runner = program::Runner::new(req, &mem)?;
    let mut cp = CommandProcessor::new();
    for l in &stream.commands {
        match cp.apply(l).map_err(at)? {
            Some(Event::StartProgram(launch)) => {
                let ran = runner
                    .start_program(&launch, &programs)
                    .map_err(|e| Error::Other(format!("{shown}: {}: start_program: {e}", l.pos)))?;
                cp.program_done(ran.guest_instructions);
                report.programs += 1;
                report.waves += ran.waves;
                report.guest_instructions += ran.guest_instructions;
            }
            Some(Event::ReadPerfCounters { addr, values }) => {
                let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
                mem.write(u64::from(addr), &bytes, "read_perf_counters")
                    .map_err(|e| Error::Load(format!("{shown}: {}: {e}", l.pos)))?;
            }
            Some(Event::WaitForIdle | Event::Cache(_)) | None => {}
        }
    }
    report.seconds.lift = runner.seconds.lift;
    report.seconds.compile = runner.seconds.compile;
    report.seconds.execute = runner.seconds.execute;

    for s in &directives.saves {
        let what = format!("save at {}", s.pos);
        let bytes = mem
            .read(u64::from(s.addr), s.size, &what)
            .map_err(|e| Error::Load(format!("{shown}: {e}")))?;
        let path = resolve(dir, s.pos, &s.path);
        if req.write_saves {
            std::fs::write(&path, &bytes).map_err(|e| Error::io(&path, e))?;
        }
        report.saved.push((path, bytes));
    }
    Ok(report)
}

/// The file's directives and then the options' (loads, programs, saves in option order).
fn with_options(d: &Directives, req: &StreamRequest<'_>) -> Result<Directives, StreamError> {
    let mut d = d.clone();
    for v in req.loads {
        d.images.push(st::Image::from_option(ImageKind::Load, v)?);
    }
    for v in req.programs {
        d.images
            .push(st::Image::from_option(ImageKind::Program, v)?);
    }
    for v in req.saves {
        d.saves.push(st::Save::from_option(v)?);
    }
    d.check()?;
    Ok(d)
}

/// A directive's path: as given for an option, else relative to the stream's directory.
fn resolve(dir: &Path, pos: Pos, path: &Path) -> PathBuf {
    match pos {
        Pos::Option(_) => path.to_path_buf(),
        _ => dir.join(path),
    }
}

/// Applies the `load` and `program` directives in order; the programs by address.
fn place_images(
    d: &Directives,
    dir: &Path,
    mem: &GpuMemory,
    shown: &str,
) -> Result<HashMap<u32, Placed>> {
    let mut programs = HashMap::new();
    for img in &d.images {
        let path = resolve(dir, img.pos, &img.path);
        let fail = |e: Error| Error::Load(format!("{shown}: {}: {e}", img.pos));
        let bytes = crate::cli::read(&path).map_err(fail)?;
        let (bytes, what) = match img.kind {
            ImageKind::Load => (bytes, "load"),
            ImageKind::Program => {
                let image = Image::from_file(&path, &bytes).map_err(fail)?;
                let (_, name) = crate::asm_file::names(&path);
                programs.insert(
                    img.addr,
                    Placed {
                        info: image.info,
                        name,
                    },
                );
                (image.bytes(), "program")
            }
        };
        mem.write(
            u64::from(img.addr),
            &bytes,
            &format!("{what} {}", path.display()),
        )
        .map_err(fail)?;
    }
    Ok(programs)
}
