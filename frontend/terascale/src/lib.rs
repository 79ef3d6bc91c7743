//! wavejit-terascale: AMD TeraScale 2/3 (the R600 family's Evergreen and Northern Islands VLIW5
//! chips, and Cayman VLIW4) tables, decoder, disassembler, assembler, loader and lifter.
//!
//! - [`chip`]: the chips, their class (the column of every table) and per-chip features.
//! - [`opcode`]: the identity of every ALU instruction ([`AluOp`]).
//! - [`loader`]: LLVM r600 ELF objects: kernels, their code and `.AMDGPU.config` values.
//! - [`launch`]: the launch ABI: constant buffer 0, initial T0/T1 and active lanes, buffer ids.
pub mod chip;
pub mod launch;
pub mod loader;
pub mod opcode;

pub use chip::{Chip, ChipClass};
pub use opcode::AluOp;
