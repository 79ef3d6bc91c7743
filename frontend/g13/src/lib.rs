//! wavejit-g13: the Apple G13 (M1 GPU) instruction set.
//!
//! - [`table`]: the encoding of every instruction form applegpu.py decodes (generated from
//!   it by `scripts/gen-g13-table.py`), and [`decode`]: framing a stream into instructions
//!   of their exact lengths;
//! - [`inst`] and [`operand`]: decoded instructions and the meaning of every operand
//!   (registers, ranges and uniforms with their hints and modifiers, immediates, conditions,
//!   branch offsets, memory, exec-stack, varying and texture operands);
//! - [`print`] and [`mesa`]: disassembly in applegpu.py's syntax and in Mesa's; [`asm`]: the
//!   assembler of applegpu's syntax;
//! - [`lift`]: the lifter to the IR (the only module that uses it), with the state layout;
//!   [`launch`]: the launch convention of a compute dispatch;
//! - [`random`]: seeded random programs for differential fuzzing.
//!
//! The decoder, printers and assembler never panic on any input.

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
