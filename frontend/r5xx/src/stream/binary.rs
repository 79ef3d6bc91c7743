//! Binary command streams (`.cb`): little-endian dwords, each command an opcode dword of
//! table 3 followed by its parameters (seed 003 §2.2: "tightly packed").
//!
//! Parsing is by exact opcode. A dword that is not one:
//! - has the header form (bits 31:30 = 3, bits 7:0 = 0) and a known command id in bits
//!   15:8: a wrong parameter count (its count field disagrees with the table);
//! - anything else: an unknown command.
//!
//! For `init_perf_counters` and `read_perf_counters`, whose header counts 2 parameters while
//! the seed lists 1 (see [`super::table`]), the dword after the parameter is taken as a
//! second, reserved parameter when it is present and does not have the header form: a
//! stream written with one parameter is followed by a command (or nothing), and one written
//! with two by a reserved dword, which encoders write as 0. The one stream this misreads is
//! a two-parameter stream whose reserved dword looks like a header.

use super::command::Command;
use super::table::{header_count, looks_like_header, Op};
use super::{Located, Pos, StreamError};

/// The commands of a binary stream.
pub fn parse(bytes: &[u8]) -> Result<Vec<Located>, StreamError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(StreamError::Malformed(bytes.len()));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let pos = Pos::Dword(i);
        let header = words[i];
        let op = match Op::from_opcode(header) {
            Some(op) => op,
            None => return Err(not_an_opcode(pos, header)),
        };
        let info = op.info();
        let need = info.params.len();
        let have = words.len() - i - 1;
        if have < need {
            return Err(StreamError::Truncated {
                pos,
                name: info.name,
                need,
                have,
            });
        }
        let mut end = i + 1 + need;
        if info.header_params() > need && end < words.len() && !looks_like_header(words[end]) {
            end += 1;
        }
        let cmd = Command::new(op, &words[i + 1..end]).map_err(|msg| StreamError::BadParam {
            pos,
            name: info.name,
            msg,
        })?;
        out.push(Located { pos, cmd });
        i = end;
    }
    Ok(out)
}

fn not_an_opcode(pos: Pos, dword: u32) -> StreamError {
    if looks_like_header(dword) {
        if let Some(op) = Op::from_id(dword >> 8 & 0xff) {
            let info = op.info();
            return StreamError::ParamCount {
                pos,
                name: info.name,
                msg: format!(
                    "header {dword:#010x} counts {} parameters; the seed's opcode is {:#010x} ({})",
                    header_count(dword),
                    info.opcode,
                    super::command::count_text(op)
                ),
            };
        }
    }
    StreamError::UnknownCommand {
        pos,
        what: format!("opcode {dword:#010x}"),
    }
}

/// The bytes of a binary stream holding `commands`.
pub fn encode<'a>(commands: impl IntoIterator<Item = &'a Command>) -> Vec<u8> {
    commands
        .into_iter()
        .flat_map(|c| c.dwords())
        .flat_map(u32::to_le_bytes)
        .collect()
}
