//! wavejit-gcn: AMD GCN (gfx6-gfx9) tables, decoder, disassembler, assembler, loader.
//!
//! - [`tables`]: one row per instruction, one opcode column per generation.
//! - [`inst`]: the decoded-instruction model ([`Inst`], [`Opcode`], [`Operand`]).
//! - [`decode()`]: bytes -> [`Inst`], never panics.
//! - [`mod@print`]: [`Inst`] -> LLVM 14 syntax.
//! - [`asm`]: LLVM syntax -> bytes.
pub mod asm;
pub mod decode;
pub mod encode;
pub mod inst;
pub mod launch;
pub mod lift;
pub mod loader;
mod opcode;
mod operand;
pub mod print;
pub mod random;
pub mod tables;

pub use asm::{assemble, assemble_with_labels, AsmError};
pub use decode::{decode, decode_all, DecodeError, Decoded};
pub use inst::{Encoding, Gen, Inst, Opcode, Operand};
pub use print::{disassemble, print};
