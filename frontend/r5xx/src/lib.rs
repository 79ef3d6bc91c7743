//! wavejit-r5xx: the ATI R5xx (X1000) data-parallel processor as CTM exposes it (seed 003,
//! the ATI CTM Guide v1.01; bit positions and opcode values from the R500 register
//! definitions, see `../shared/notes/ctm_map.md`).
//!
//! - [`table`]: the fields of the six instruction words (US_CMN_INST, the RGB and alpha
//!   source addresses, the RGB, alpha and RGBA instructions, TEX and FC) and their value
//!   tables; [`inst`]: a decoded instruction slot; [`decode`] and [`encode`]: words <->
//!   [`inst::Inst`]; [`print`] and [`parse`]: the assembler syntax (docs in [`print`]);
//! - [`elf`]: the CTM ELF executable (seed 003 chapter 4) and its program info;
//! - [`mc`]: the memory controller: surfaces (base, pitch, tiling, data format), the address
//!   translation of seed 003 §2.1.4 as one bit recipe, and the data formats' conversions;
//! - [`stream`]: CTM command streams (seed 003 chapter 3), binary and text, and the
//!   command processor's state they set;
//! - [`setup`]: what a `start_program` hands the lifter: the program and the MC/US state it
//!   runs under;
//! - [`lift`]: the lifter to the IR (the only module that uses it), with the state layout
//!   and the launch geometry (which index pair each lane of a wave runs);
//! - [`random`]: seeded random programs for differential fuzzing.
//!
//! Decoders, parsers and loaders never panic on any input.

pub mod decode;
pub mod elf;
pub mod encode;
pub mod inst;
pub mod lift;
pub mod mc;
pub mod parse;
pub mod print;
pub mod random;
pub mod setup;
pub mod stream;
pub mod table;
