//! wavejit-g13: the Apple G13 (M1 GPU) instruction set.
//!
//! In progress (issue 10). What exists: the encoding table of every instruction that
//! applegpu.py decodes ([`table`], generated from it); the framing of an instruction stream
//! into instructions of their exact lengths ([`decode`]); decoded instructions ([`inst`])
//! with the meaning of every operand ([`operand`]: registers, register ranges and uniforms
//! with their hints and modifiers, immediates, conditions, branch offsets, memory,
//! exec-stack, varying and texture operands); two disassemblers, in applegpu.py's syntax
//! ([`print`]) and in Mesa's ([`mesa`]); and the assembler ([`asm`]). The lifter and the
//! launch come next; the crate is not in the registry yet, so no command takes G13 files.

pub mod asm;
pub mod decode;
pub mod inst;
pub mod launch;
pub mod lift;
pub mod mesa;
pub mod operand;
pub mod print;
pub mod random;
pub mod table;

pub use decode::{frame, DecodeError, Framed};
pub use inst::Inst;
pub use table::{Field, Merged, Operand, Row};
