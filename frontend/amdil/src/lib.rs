//! wavejit-amdil: the AMD Intermediate Language (IL) of CAL and AMD's OpenCL compiler, as the
//! AMD IL Reference Guide v2.4 (seed 001) defines it.
//!
//! In progress (issue 11). What exists: the opcode table ([`table`], one row per `ILOpCode`
//! value, generated from `il_opcodes.tsv`), the token layouts ([`token`]), decoded programs
//! ([`inst`]), the binary token stream decoder ([`decode`]) and encoder ([`encode`]), the IL
//! text printer ([`print`](mod@print)) and parser ([`parse`]), the loader of AMD APP SDK
//! kernel binaries ([`appsdk`]), and the first part of the lifter of compute programs
//! ([`lift`]: the register model with every modifier, the common ALU, every structured
//! control-flow form, constant buffers, raw UAVs and LDS; its module doc lists what it does not
//! lift yet), and what a launch of a lifted program fills ([`launch`]). Decoding then encoding,
//! and printing then parsing, give the input back.

pub mod appsdk;
pub mod decode;
pub mod encode;
pub mod inst;
pub mod launch;
pub mod lift;
pub mod parse;
pub mod print;
pub mod random;
pub mod table;
pub mod token;
