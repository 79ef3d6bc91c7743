//! wavejit-terascale: AMD TeraScale 2/3 (the R600 family's Evergreen and Northern Islands VLIW5
//! chips, and Cayman VLIW4) tables, decoder, disassembler, assembler, loader and lifter.
//!
//! - [`chip`]: the chips, their class (the column of every table) and per-chip features.
//! - [`opcode`]: the identity of every ALU instruction ([`AluOp`]).
//! - [`tables`]: every instruction per family with its opcode in each class and its slot rule.
//! - [`inst`]: the decoded instruction model ([`Program`], clauses, ALU groups).
//! - [`decode`]: whole-program decoder ([`decode_program`]).
//! - [`encode`]: program to bytes ([`encode_program`]).
//! - [`mod@print`]: LLVM r600 assembly text ([`print_program`]).
//! - [`asm`]: that text back to bytes ([`asm::assemble`]).
//! - [`loader`]: LLVM r600 ELF objects: kernels, their code and `.AMDGPU.config` values.
//! - [`launch`]: the launch ABI: constant buffer 0, initial T0/T1 and active lanes, buffer ids.
//! - [`lift`]: lifting to the IR ([`lift::lift`]: a decoded program to one IR function).
//! - [`random`]: seeded random valid programs and a minimiser (the differential fuzzer's input).
pub mod asm;
pub mod chip;
pub mod decode;
pub mod encode;
pub mod inst;
pub mod launch;
pub mod lift;
pub mod loader;
pub mod opcode;
pub mod print;
pub mod random;
pub mod tables;

pub use chip::{Chip, ChipClass};
pub use decode::{decode_program, DecodeError};
pub use encode::{encode_program, EncodeError};
pub use inst::Program;
pub use opcode::AluOp;
pub use print::{listing, print_program};
