//! Per-lane semantics of every pure op (placeholder signature; being written).
use crate::op::{FloatMode, Op};
use crate::types::ScalarType;

/// The result bits of `op` on `args` (bits, zero-extended) with operand types `arg_tys` and
/// result type `ty`.
pub fn eval(op: Op, mode: FloatMode, ty: ScalarType, arg_tys: &[ScalarType], args: &[u64]) -> u64 {
    let _ = (op, mode, ty, arg_tys, args);
    todo!()
}
