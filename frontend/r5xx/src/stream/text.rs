//! Text command streams (`.ctm`): one command per line, the seed's command name followed by
//! its parameter dwords (decimal or 0x-hex, separated by white space), `;` starting a
//! comment, blank lines ignored, and the host directives of [`super::directive`].
//!
//! ```text
//! ; c = a + b over 64x64 elements
//! memory 0x1000000
//! program 0x0 add.elf
//! load 0x10000 a.bin
//! save 0x30000 0x4000 c.bin
//! wait_for_idle 0
//! set_inst_fmt 0x00000000 0x00000000
//! set_inp_fmt 0 0x00010000 0x02000040 64    ; LINEAR FLOAT32_1 pitch 64
//! set_domain 0 0 63 63
//! start_program 0
//! ```
//!
//! [`print()`] writes the directives first (memory, images, saves), then the commands, each
//! parameter in the radix of its table entry, with a comment decoding each format word; it
//! parses back to the same directives and commands.

use super::command::{count_text, param_counts, Command};
use super::directive::{dword, nonempty, number, save, Image, ImageKind};
use super::table::Op;
use super::{Located, Pos, Stream, StreamError};
use crate::mc::Surface;
use std::fmt::Write;

/// The first white-space separated word of `s` and the rest after it.
fn word(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start();
    if s.is_empty() {
        return None;
    }
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    Some((&s[..end], &s[end..]))
}

/// Parses a text stream.
pub fn parse(src: &str) -> Result<Stream, StreamError> {
    let mut stream = Stream::default();
    for (n, line) in src.lines().enumerate() {
        let pos = Pos::Line(n + 1);
        let line = line.split(';').next().unwrap_or("");
        let Some((head, rest)) = word(line) else {
            continue;
        };
        match head {
            "memory" | "load" | "program" | "save" => directive(&mut stream, pos, head, rest)?,
            _ => stream.commands.push(command(pos, head, rest)?),
        }
    }
    stream.directives.check()?;
    Ok(stream)
}

fn command(pos: Pos, name: &str, rest: &str) -> Result<Located, StreamError> {
    let op = Op::from_name(name).ok_or_else(|| StreamError::UnknownCommand {
        pos,
        what: format!("`{name}`"),
    })?;
    let params = rest
        .split_whitespace()
        .map(|t| dword(pos, t))
        .collect::<Result<Vec<_>, _>>()?;
    let (min, max) = param_counts(op);
    if params.len() < min || params.len() > max {
        let msg = format!("takes {}, {} given", count_text(op), params.len());
        return Err(StreamError::ParamCount {
            pos,
            name: op.name(),
            msg,
        });
    }
    let cmd = Command::new(op, &params).map_err(|msg| StreamError::BadParam {
        pos,
        name: op.name(),
        msg,
    })?;
    Ok(Located { pos, cmd })
}

fn directive<'a>(
    stream: &mut Stream,
    pos: Pos,
    name: &str,
    rest: &'a str,
) -> Result<(), StreamError> {
    let bad = |msg: String| StreamError::BadDirective { pos, msg };
    let arg = |rest: &'a str, what: &str| {
        word(rest).ok_or_else(|| bad(format!("{name} needs {what}: `{}`", usage(name))))
    };
    let d = &mut stream.directives;
    match name {
        "memory" => {
            let (size, tail) = arg(rest, "SIZE")?;
            if word(tail).is_some() {
                return Err(bad(format!("memory takes one SIZE: `{}`", usage(name))));
            }
            if let Some((first, _)) = d.memory {
                return Err(bad(format!("memory is already set at {first}")));
            }
            let size = number(pos, size, 1 << 32)?;
            if size == 0 {
                return Err(bad("memory of 0 bytes".into()));
            }
            d.memory = Some((pos, size));
        }
        "load" | "program" => {
            let (addr, path) = arg(rest, "ADDR and PATH")?;
            let kind = if name == "load" {
                ImageKind::Load
            } else {
                ImageKind::Program
            };
            let addr = dword(pos, addr)?;
            let path = nonempty(pos, path)
                .map_err(|_| bad(format!("{name} needs a PATH: `{}`", usage(name))))?;
            d.images.push(Image {
                pos,
                kind,
                addr,
                path,
            });
        }
        _ => {
            let (addr, tail) = arg(rest, "ADDR, SIZE and PATH")?;
            let (size, path) = arg(tail, "SIZE and PATH")?;
            if word(path).is_none() {
                return Err(bad(format!("save needs a PATH: `{}`", usage(name))));
            }
            d.saves.push(save(pos, addr, size, path)?);
        }
    }
    Ok(())
}

fn usage(name: &str) -> &'static str {
    match name {
        "memory" => "memory SIZE",
        "load" => "load ADDR PATH",
        "program" => "program ADDR PATH",
        _ => "save ADDR SIZE PATH",
    }
}

/// The text of a stream.
pub fn print(stream: &Stream) -> String {
    let mut out = String::new();
    let d = &stream.directives;
    if let Some((_, size)) = d.memory {
        let _ = writeln!(out, "memory {size:#x}");
    }
    for i in &d.images {
        let kind = if i.kind == ImageKind::Load {
            "load"
        } else {
            "program"
        };
        let _ = writeln!(out, "{kind} {:#x} {}", i.addr, i.path.display());
    }
    for s in &d.saves {
        let _ = writeln!(out, "save {:#x} {:#x} {}", s.addr, s.size, s.path.display());
    }
    for l in &stream.commands {
        out.push_str(&print_command(&l.cmd));
        out.push('\n');
    }
    out
}

/// One command's line (no newline).
pub fn print_command(cmd: &Command) -> String {
    let info = cmd.op().info();
    let mut line = info.name.to_string();
    let mut format = None;
    for (i, &v) in cmd.params().iter().enumerate() {
        // A perf-counter command's header-count parameter has no table entry: reserved, hex.
        let param = info.params.get(i);
        if param.is_none_or(|p| p.hex) {
            let _ = write!(line, " {v:#010x}");
        } else {
            let _ = write!(line, " {v}");
        }
        if param.is_some_and(|p| p.name == "format") {
            format = Surface::decode(0, v, 0, false).ok();
        }
    }
    if let Some(s) = format {
        let _ = write!(
            line,
            "    ; {} {} pitch {}",
            s.tiling.name(),
            s.format.name(),
            s.pitch
        );
    }
    line
}
