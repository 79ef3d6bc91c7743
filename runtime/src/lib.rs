//! wavejit-runtime: wave state, guest memory, dispatch, and the reference interpreter.
//!
//! The runtime knows the IR only (never an ISA crate). An [`Engine`] turns a
//! [`wavejit_ir::Function`] into a [`Program`] that runs one block of one wave at a time; the
//! dispatcher drives blocks, switches the waves of a workgroup at barriers, and enforces the
//! fuel and wall-clock limits. Engines share [`effects`], the one implementation of every
//! instruction that touches memory or crosses lanes.

pub mod dispatch;
pub mod effects;
pub mod engine;
pub mod error;
pub mod interp;
pub mod memory;
pub mod solo;
pub mod wave;

pub use dispatch::*;
pub use engine::*;
pub use error::*;
pub use interp::Interpreter;
pub use memory::*;
pub use wave::*;
pub use wavejit_isa::{Grid, GridError, RegSink, WaveCoord, WaveInit};
