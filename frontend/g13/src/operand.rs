//! Operand values of decoded instructions.
//!
//! So far the destinations of the ALU forms (applegpu's `ALUDst` family, seed 004 lines
//! 12752-12759, notes/g13_map.md §2): an 8-bit register value `Dx:D` and a 2-bit flags
//! field `Dt` (bit 0: the cache hint, bit 1: a 32-bit register). A 32-bit destination whose
//! value is odd, in a form that allows 64-bit results, is the pair from `r(value >> 1)`;
//! otherwise a 32-bit one is `r(value >> 1)` and a 16-bit one the half `value` (`r(v>>1)l`
//! even, `h` odd). The other operand kinds come next.

use crate::table::Row;
use std::fmt;

/// Which part of a register an operand names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// The low (`false`) or high (`true`) 16 bits.
    Half(bool),
    Word,
    /// Two consecutive registers from this one.
    Pair,
}

/// A general-purpose register operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    /// `rN`.
    pub index: u16,
    pub width: Width,
    /// The register-cache hint (no effect on results).
    pub cache: bool,
}

impl Reg {
    /// The register without its hint (`r5l`, `r6`; a pair as Mesa names it, `dr6`).
    fn name(&self) -> String {
        match self.width {
            Width::Half(high) => format!("r{}{}", self.index, if high { 'h' } else { 'l' }),
            Width::Word => format!("r{}", self.index),
            Width::Pair => format!("dr{}", self.index),
        }
    }

    /// The register in Mesa's syntax: `r5l`, `r6`, `dr6`, `$r2` with the cache hint.
    pub fn mesa(&self) -> String {
        let hint = if self.cache { "$" } else { "" };
        format!("{hint}{}", self.name())
    }
}

impl fmt::Display for Reg {
    /// applegpu's syntax: `r5l`, `r6`, `r6_r7`, `r2.cache` with the cache hint.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.width {
            Width::Pair => write!(f, "r{}_r{}", self.index, self.index + 1)?,
            _ => f.write_str(&self.name())?,
        }
        if self.cache {
            f.write_str(".cache")?;
        }
        Ok(())
    }
}

/// The destination operand of `row` in `word`, when its first operand is an ALU
/// destination: `ALUDst` (16 or 32 bits), `ALUDst64` (also 64), `FloatDst` (16 or 32),
/// `FloatDst16` (16 only).
pub fn alu_dst(row: &Row, word: u128) -> Option<Reg> {
    let op = row.operands.first()?;
    let (allow32, allow64) = match op.kind {
        "ALUDst" | "FloatDst" => (true, false),
        "ALUDst64" => (true, true),
        "FloatDst16" => (false, false),
        _ => return None,
    };
    let value = row.value(word, op.name)? as u16;
    let flags = row.field(word, &format!("{}t", op.name))?;
    let (index, width) = if flags & 2 != 0 && allow32 {
        if value & 1 != 0 && allow64 {
            (value >> 1, Width::Pair)
        } else {
            (value >> 1, Width::Word)
        }
    } else {
        (value >> 1, Width::Half(value & 1 != 0))
    };
    Some(Reg {
        index,
        width,
        cache: flags & 1 != 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_syntaxes_name_a_register() {
        let r = |index, width, cache| Reg {
            index,
            width,
            cache,
        };
        assert_eq!(r(5, Width::Half(false), false).mesa(), "r5l");
        assert_eq!(r(5, Width::Half(true), true).to_string(), "r5h.cache");
        assert_eq!(r(6, Width::Pair, false).mesa(), "dr6");
        assert_eq!(r(6, Width::Pair, false).to_string(), "r6_r7");
        assert_eq!(r(2, Width::Word, true).mesa(), "$r2");
    }
}
