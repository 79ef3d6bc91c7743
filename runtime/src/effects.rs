//! Shared implementation of instructions that touch memory or cross lanes (being written; the
//! signature below is the contract).

use crate::engine::WaveCtx;
use crate::error::Fault;
use crate::wave::Lanes;
use wavejit_ir::{BlockData, Inst};

/// Executes `inst` over the whole wave: `Load`, `Store`, `Atomic`, `Ballot`, `ReadLane`,
/// `Shuffle`, `ReadRegIndexed`, `WriteRegIndexed`. `args` are the operand values in
/// [`Inst::args`] order; the result (if any) goes to `out`. Operand shapes come from `block`.
pub fn run_effect(
    block: &BlockData,
    inst: &Inst,
    args: &[&Lanes],
    out: &mut Lanes,
    ctx: &mut WaveCtx<'_>,
) -> Result<(), Fault> {
    let _ = (block, inst, args, out, ctx);
    todo!()
}
