//! The 32-bit patterns random initial states are drawn from: one set for every ISA, the IR's
//! ([`wavejit_ir::random::EDGE_CELLS`]), so that a pattern added for one ISA's bug is tried on
//! all of them.

pub use wavejit_ir::random::{edge_cell, EDGE_CELLS};
