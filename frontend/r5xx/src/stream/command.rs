//! A command and its parameter dwords, checked against the seed's field definitions
//! (§2.2.1-§2.2.3) when it is made, and kept verbatim so that a stream prints and encodes back
//! to the same dwords.
//!
//! The checks (each error names the parameter):
//! - base addresses: bits 10:0 are ignored, as the seed says;
//! - format words and heights: as [`Surface::decode`] (reserved formats 5-7, pitch bits
//!   1:0, other reserved bits, superfine tiling on a multi-channel input);
//! - parameters with fields (indices, domain, masks, test, location, perf flags): bits the
//!   seed marks reserved must be zero, so a value that does not fit its field is an error
//!   rather than silently truncated (the seed is silent; this is the choice);
//! - `set_domain`: i0 <= i1 and j0 <= j1 (an inclusive rectangle, §2.1.2);
//! - parameters the seed marks wholly reserved take any value.

use super::table::Op;
use crate::mc::Surface;

/// A command with its parameters (the table's count, or for the two perf-counter commands
/// also the count their header implies; see [`super::table`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Command {
    op: Op,
    params: Vec<u32>,
}

/// How many parameters `op` may take: the table's count, and the header's when it differs.
pub fn param_counts(op: Op) -> (usize, usize) {
    let info = op.info();
    (
        info.params.len(),
        info.header_params().max(info.params.len()),
    )
}

impl Command {
    /// The command, if its parameter count and fields are valid; otherwise a one-line reason
    /// (the caller adds the position).
    pub fn new(op: Op, params: &[u32]) -> Result<Command, String> {
        let (min, max) = param_counts(op);
        if params.len() < min || params.len() > max {
            return Err(format!("takes {}, not {}", count_text(op), params.len()));
        }
        check(op, params)?;
        Ok(Command {
            op,
            params: params.to_vec(),
        })
    }

    pub fn op(&self) -> Op {
        self.op
    }

    pub fn name(&self) -> &'static str {
        self.op.name()
    }

    pub fn params(&self) -> &[u32] {
        &self.params
    }

    /// The header and parameter dwords, as a binary stream holds them.
    pub fn dwords(&self) -> Vec<u32> {
        let mut v = vec![self.op.info().opcode];
        v.extend_from_slice(&self.params);
        v
    }
}

/// "4 parameters", or "1 parameter (or 2: the header's count)".
pub fn count_text(op: Op) -> String {
    let (min, max) = param_counts(op);
    let plural = |n: usize| if n == 1 { "parameter" } else { "parameters" };
    if min == max {
        format!("{min} {}", plural(min))
    } else {
        format!("{min} {} (or {max}: its header's count field)", plural(min))
    }
}

/// `value` must fit in `bits` bits (the rest of the dword is reserved).
fn fits(op: Op, index: usize, value: u32, bits: u32) -> Result<(), String> {
    if value >> bits == 0 {
        return Ok(());
    }
    let name = op.info().params[index].name;
    Err(format!(
        "{name} {value:#x} does not fit bits {}:0 (bits 31:{bits} are reserved)",
        bits - 1
    ))
}

fn surface(base: u32, format: u32, height: u32, input: bool) -> Result<Surface, String> {
    Surface::decode(base, format, height, input).map_err(|e| e.to_string())
}

fn check(op: Op, p: &[u32]) -> Result<(), String> {
    match op {
        Op::InitPerfCounters => fits(op, 0, p[0], 1),
        Op::SetDomain => {
            for (i, &v) in p.iter().enumerate() {
                fits(op, i, v, 12)?;
            }
            if p[0] > p[2] || p[1] > p[3] {
                return Err(format!(
                    "empty domain ({}, {}) - ({}, {}): i0 <= i1 and j0 <= j1 are required",
                    p[0], p[1], p[2], p[3]
                ));
            }
            Ok(())
        }
        Op::SetInstFmt | Op::SetConstfFmt | Op::SetConstiFmt | Op::SetConstbFmt => {
            surface(p[0], p[1], 0, false).map(drop)
        }
        Op::SetInpFmt => {
            fits(op, 0, p[0], 4)?;
            surface(p[1], p[2], p[3], true).map(drop)
        }
        Op::SetOutFmt => {
            fits(op, 0, p[0], 2)?;
            surface(p[1], p[2], p[3], false).map(drop)
        }
        Op::SetCondOutFmt => surface(p[0], p[1], p[2], false).map(drop),
        Op::SetOutMask => fits(op, 0, p[0], 4),
        Op::SetCondOutMask | Op::SetCondLoc => fits(op, 0, p[0], 1),
        Op::SetCondTest => fits(op, 0, p[0], 3),
        Op::StartPerfCounters
        | Op::StopPerfCounters
        | Op::ReadPerfCounters
        | Op::SetCondVal
        | Op::StartProgram
        | Op::WaitForIdle
        | Op::InvInstCache
        | Op::InvConstfCache
        | Op::InvConstiCache
        | Op::InvConstbCache
        | Op::InvCondOutCache
        | Op::InvInpCache
        | Op::FlushOutCache
        | Op::FlushCondOutCache => Ok(()),
    }
}
