//! CTM command streams (seed 003 chapter 2 §2.2 and table 3), as `wavejit ctm` reads them
//! (DESIGN.md, "`wavejit ctm`"): binary `.cb` files of little-endian dwords, and `.ctm`
//! text, one command per line with the host directives `memory`, `load`, `program`, `save`.
//!
//! - [`table`]: the 27 commands of table 3; [`command`]: a command and its checked
//!   parameters;
//! - [`binary`] and [`text`]: parsers and printers (text prints back to the same commands,
//!   binary encodes back to the same bytes); [`directive`]: the host directives and the
//!   number syntax they share with command parameters;
//! - [`processor`]: the command processor's state machine, which applies commands in order
//!   and yields the [`Event`]s an executor acts on; [`perf`]: the performance counters.
//!
//! Every error is one line and starts with its position: `line N` in text, `dword N (byte
//! 0x..)` in a binary stream.

pub mod binary;
pub mod command;
pub mod directive;
pub mod perf;
pub mod processor;
pub mod table;
pub mod text;

pub use command::Command;
pub use directive::{Directives, Image, ImageKind, Save};
pub use perf::PerfCounters;
pub use processor::{CacheOp, CommandProcessor, Domain, Event, Launch};
pub use table::{Op, OpInfo, OPS};

use std::fmt;

/// Where a command or error is: a line of text (1-based), a dword of a binary stream
/// (0-based), or a command-line option of `wavejit ctm`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pos {
    Line(usize),
    Dword(usize),
    Option(&'static str),
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Pos::Line(n) => write!(f, "line {n}"),
            Pos::Dword(n) => write!(f, "dword {n} (byte {:#x})", n * 4),
            Pos::Option(name) => write!(f, "{name}"),
        }
    }
}

/// A command and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub pos: Pos,
    pub cmd: Command,
}

/// A bad stream, or a command the processor cannot apply. Each message is one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    #[error("malformed stream: {0} bytes is not a whole number of dwords")]
    Malformed(usize),
    #[error("malformed stream: {0}")]
    NotText(String),
    #[error("{pos}: truncated stream: {name} needs {need} parameter dwords, {have} remain")]
    Truncated {
        pos: Pos,
        name: &'static str,
        need: usize,
        have: usize,
    },
    #[error("{pos}: unknown command {what}")]
    UnknownCommand { pos: Pos, what: String },
    #[error("{pos}: {name} {msg}")]
    ParamCount {
        pos: Pos,
        name: &'static str,
        msg: String,
    },
    #[error("{pos}: bad number `{text}`: {why}")]
    BadNumber {
        pos: Pos,
        text: String,
        why: &'static str,
    },
    #[error("{pos}: bad directive: {msg}")]
    BadDirective { pos: Pos, msg: String },
    #[error("{pos}: {name}: {msg}")]
    BadParam {
        pos: Pos,
        name: &'static str,
        msg: String,
    },
    #[error("{pos}: {name} is not pipelined: it must follow a wait_for_idle after the start_program at {since} (seed 003 §2.2)")]
    NotPipelined {
        pos: Pos,
        name: &'static str,
        since: Pos,
    },
    #[error("{pos}: start_program: {msg}")]
    Launch { pos: Pos, msg: String },
}

/// A parsed stream: its commands in order and, for text, its directives (a binary stream's
/// come from `wavejit ctm`'s options, see [`Image::from_option`] and [`Save::from_option`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stream {
    pub commands: Vec<Located>,
    pub directives: Directives,
}

impl Stream {
    /// A `.ctm` text stream.
    pub fn parse_text(src: &str) -> Result<Stream, StreamError> {
        text::parse(src)
    }

    /// A `.cb` binary stream (no directives).
    pub fn parse_binary(bytes: &[u8]) -> Result<Stream, StreamError> {
        Ok(Stream {
            commands: binary::parse(bytes)?,
            directives: Directives::default(),
        })
    }

    /// A stream file's contents: binary when `path` ends in `.cb`, text otherwise.
    pub fn parse_file(path: &std::path::Path, bytes: &[u8]) -> Result<Stream, StreamError> {
        if path.extension().is_some_and(|e| e == "cb") {
            return Stream::parse_binary(bytes);
        }
        let src = std::str::from_utf8(bytes)
            .map_err(|e| StreamError::NotText(format!("a text stream is not UTF-8 ({e})")))?;
        Stream::parse_text(src)
    }

    /// The text form: directives, then one command per line.
    pub fn to_text(&self) -> String {
        text::print(self)
    }

    /// The binary form of the commands (directives have none).
    pub fn to_binary(&self) -> Vec<u8> {
        binary::encode(self.commands.iter().map(|l| &l.cmd))
    }

    /// The commands without their positions.
    pub fn commands(&self) -> impl Iterator<Item = &Command> {
        self.commands.iter().map(|l| &l.cmd)
    }
}
