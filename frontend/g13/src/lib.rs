//! wavejit-g13: the Apple G13 (M1 GPU) instruction set.
//!
//! In progress (issue 10). What exists: the encoding table of every instruction that
//! applegpu.py decodes ([`table`], generated from it) and the framing of an instruction
//! stream into instructions of their exact lengths ([`decode`]), and the ALU forms'
//! destinations and sources ([`operand`]). The other operands, the
//! printers, the assembler, the lifter and the launch come next; the crate is not in the
//! registry yet, so no command takes G13 files.

pub mod asm;
pub mod decode;
pub mod inst;
pub mod operand;
pub mod print;
pub mod table;

pub use decode::{frame, DecodeError, Framed};
pub use inst::Inst;
pub use table::{Field, Merged, Operand, Row};
