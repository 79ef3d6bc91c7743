//! Lifting TeraScale machine code to wavejit IR.
//!
//! - [`alu_ops`]: the value semantics of every ALU instruction, one slot (or one reduction
//!   group) at a time, with the output modifiers as separate helpers. Operand fetch (GPRs,
//!   constants, PV/PS, literals, the neg/abs input modifiers), write masks, predication and
//!   the slot bookkeeping of an instruction group are the caller's job.
//! - [`state`]: the guest state layout ([`TsLayout`]) and the launch contract.
pub mod alu_ops;
mod emit;
pub mod state;

pub use alu_ops::{
    alu_form, clamp, lift_alu, omod, AluEnv, AluError, AluForm, AluInput, AluValue, Omod, Src,
    Width,
};
pub use state::TsLayout;
