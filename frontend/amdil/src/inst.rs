//! Decoded IL: a [`Program`] of [`Inst`]s whose operands are [`Dst`]s and [`Src`]s.
//!
//! The model holds exactly what the binary stream holds, so that decoding then encoding gives
//! the stream back, and printing then parsing gives the program back. What the stream implies
//! is not stored twice: the modifier-present bits come from `pri`/`sec` and the operands'
//! `modifier`, counts (comment length, `mcall`'s outputs and inputs, function-table sizes)
//! from the lengths of the lists they count.

use crate::table::{self, Row};
use crate::token::{DstMod, RegType, SrcMod, Version};

/// A whole stream: macro definitions (which precede the language token, L13195), the
/// language and version tokens, and the instructions through `end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// `mdef` ... `mend` blocks, instruction by instruction.
    pub macros: Vec<Inst>,
    /// IL_Lang's client type (`table::enums::LANG`).
    pub lang: u8,
    pub version: Version,
    /// The instructions; the last is `end`.
    pub code: Vec<Inst>,
}

/// One instruction packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inst {
    /// The `ILOpCode` value (a row of [`table`]).
    pub op: u16,
    /// The control bits (token bits 31:16) other than the modifier-present flags.
    pub control: u16,
    /// The primary and secondary modifier dwords.
    pub pri: Option<u32>,
    pub sec: Option<u32>,
    /// Dwords between the modifiers and the operands: a texture operation's resource format
    /// and address offset.
    pub pre: Vec<u32>,
    pub dst: Vec<Dst>,
    pub src: Vec<Src>,
    /// Dwords after the operands: labels, literal bits, sizes, text, table entries.
    pub extra: Vec<u32>,
}

impl Inst {
    /// An instruction with no operands or other dwords.
    pub fn new(op: u16) -> Inst {
        Inst {
            op,
            control: 0,
            pri: None,
            sec: None,
            pre: Vec::new(),
            dst: Vec::new(),
            src: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// Its table row (`None` for an opcode no row describes).
    pub fn row(&self) -> Option<&'static Row> {
        table::row(self.op)
    }
}

/// A destination: a register and, when the IL_Dst_Mod token is present, its modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dst {
    pub reg: Reg,
    pub modifier: Option<DstMod>,
}

/// A source: a register and, when the IL_Src_Mod token is present, its modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Src {
    pub reg: Reg,
    pub modifier: Option<SrcMod>,
}

impl Src {
    /// A plain source.
    pub fn reg(ty: RegType, num: u32) -> Src {
        Src {
            reg: Reg::new(ty, num),
            modifier: None,
        }
    }
}

/// A register operand: its type, number and indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reg {
    pub ty: RegType,
    /// 16 bits, or 32 with the extended dword.
    pub num: u32,
    pub index: Index,
    /// The second dimension (`v[1][2]`, `cb[r6.w+2][r2.x+4]`).
    pub dim2: Option<Dim2>,
}

impl Reg {
    pub fn new(ty: RegType, num: u32) -> Reg {
        Reg {
            ty,
            num,
            index: Index::None,
            dim2: None,
        }
    }
}

/// The first index of a register.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Index {
    None,
    /// Absolute addressing with the immediate (`x5[6]`, `cb0[41]`).
    Imm(u32),
    /// Register-relative addressing: an index source and the optional immediate added to it
    /// (`cb1[r0.x+13]`, `g[r1.x]`).
    Rel(Box<Src>, Option<u32>),
}

/// The second dimension, a further register token after the first dimension's tokens
/// (L504, examples 3-5 L749-L832). An absolute one holds the index as its register
/// number and the outer register's type (example 3); a register-relative one has register
/// number 0 and type 0, and its index source and immediate follow it (example 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim2 {
    Abs(u32),
    Rel(Box<Src>, Option<u32>),
}
