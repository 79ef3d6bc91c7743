//! wavejit-terascale: AMD TeraScale 2/3 (the R600 family's Evergreen and Northern Islands VLIW5
//! chips, and Cayman VLIW4) tables, decoder, disassembler, assembler, loader and lifter.
//!
//! - [`chip`]: the chips, their class (the column of every table) and per-chip features.
//! - [`lift`]: lifting to IR (the ALU value semantics so far).
//! - [`opcode`]: the identity of every ALU instruction ([`AluOp`]).
pub mod chip;
pub mod lift;
pub mod opcode;

pub use chip::{Chip, ChipClass};
pub use opcode::AluOp;
