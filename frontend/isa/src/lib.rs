//! wavejit-isa: what every ISA crate shares, so that a new ISA writes only what is its own.
//!
//! - [`grid`]: the geometry of a dispatch (group counts, group extents, waves per group, the
//!   work-item of every lane). The runtime's dispatcher and every ISA's launch ABI use this
//!   one definition.
//! - [`wave_init`]: [`WaveInit`], an ISA's launch ABI as the dispatcher calls it (what each
//!   wave's registers hold at start), and [`RegSink`], where it writes them.
//! - [`args`]: kernel argument values and their packing into argument blocks.
//! - [`elf`]: reading ELF files with `object` (sections, symbols, guest addresses).
//! - [`names`]: printable names and the "kernel not found" error.
//! - [`error`]: the lift error kinds (unknown, unsupported, invalid), with pc and text.
//! - [`edges`]: the 32-bit edge patterns random initial states are drawn from.
//! - [`shrink`]: delta debugging, for minimising failing programs.
//! - [`testkit`]: checks every ISA crate's tests call (decoders and loaders never panic on
//!   mutated input; encode/decode/print/parse round trips).
//!
//! This crate depends on the IR only for register names ([`wavejit_ir::Reg`]) and the IR's
//! edge values; an ISA's decoder, printer, assembler and loader use none of the IR through it.

pub mod args;
pub mod edges;
pub mod elf;
pub mod error;
pub mod grid;
pub mod names;
pub mod shrink;
pub mod testkit;
pub mod wave_init;

pub use args::{natural_offsets, ArgBlock, ArgValue};
pub use error::{LiftError, LiftErrorKind};
pub use grid::{Grid, GridError, GroupWalk, WaveCoord};
pub use names::{printable, KernelNotFound};
pub use wave_init::{RegSink, WaveInit};
