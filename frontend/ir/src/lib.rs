//! wavejit-ir: the intermediate representation every GPU ISA is lifted to.
//!
//! # IR rules
//! 1. **Values are typed**: a [`ScalarType`] (`i1 i8 i16 i32 i64 f16 f32 f64`) times a [`Shape`]
//!    (uniform: one per wave; lane: one per lane). A `lane i1` is a mask. Values are raw bits,
//!    zero-extended to 64 bits.
//! 2. **Values are block-local SSA**: instruction `i` of a block defines `%i`; operands refer to
//!    earlier instructions of the same block. Guest state ([`StateLayout`]) is the only carrier
//!    between blocks, so a block is the unit of compilation and of scheduling.
//! 3. **Control flow is uniform**: terminators branch on uniform values only. Divergence is
//!    data: lane writes, stores and atomics take a mask and leave other lanes untouched.
//! 4. **Side effects are designated instructions**: register writes, indexed register access,
//!    loads, stores (plain and formatted, see [`mod@format`]), atomics; barriers and traps are terminators. Everything else is pure and
//!    may be reordered, duplicated or removed by a back end.
//! 5. **Cross-lane instructions** (`ballot`, `read_lane`, `shuffle`) are explicit.
//! 6. **Float behaviour is explicit** in the op (flavours) and its [`FloatMode`]; the per-lane
//!    result of every op is defined once, in [`semantics::eval`], which the interpreter and
//!    every JIT slow path call.
//! 7. **Out-of-bounds behaviour is defined per memory space** ([`MemSpace`]); no access is ever
//!    host undefined behaviour.
//! 8. Verified IR ([`verify::verify`]) never makes a back end panic.

pub mod builder;
pub mod except;
pub mod format;
pub mod func;
pub mod merge;
pub mod op;
pub mod random;
pub mod semantics;
pub mod state;
pub mod text;
pub mod types;
mod unread;
pub mod verify;

pub use builder::FunctionBuilder;
pub use except::{fpflag, Except};
pub use format::{DataFormat, ElemFormat, NumFormat, Sel};
pub use func::*;
pub use merge::merge_blocks;
pub use op::*;
pub use state::*;
pub use types::*;
pub use unread::drop_unread_writes;
