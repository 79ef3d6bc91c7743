//! Typing rules: each op's row in the [op table](super::table) names one [`Sig`], and
//! [`Sig::check`] is the single definition of what that signature accepts. `T` is the result
//! type, `F` a float type, `I` an integer type (`i1` to `i64` unless noted).

use super::{Op, TypeError};
use crate::types::ScalarType::{self, *};

/// The operand and result typing rule of an op (its class in the op table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sig {
    /// Operands and result one integer type, `i1` excluded.
    Int,
    /// Operands and result one integer type, `i1` allowed (bitwise ops).
    Bits,
    /// (I, any int) -> I: a shift.
    Shift,
    /// (I, I, i1) -> i1: a carry or borrow out.
    Carry,
    /// (i32|i64, i32, i32) -> same: a bit-field extract.
    BitField,
    /// Operands and result i32 or i64.
    Int32Or64,
    /// Operands and result i32.
    I32,
    /// (I, I) -> i1.
    IntCompare,
    /// (F, F) -> i1.
    FloatCompare,
    /// (F, i32) -> i1.
    FloatClass,
    /// (i1, T, T) -> T.
    Select,
    /// I -> a wider I.
    Widen,
    /// I -> a narrower I.
    Narrow,
    /// Same width, any type but i1.
    Bitcast,
    /// (I, I) -> I of twice the width.
    Concat,
    /// F -> I (`i1` excluded).
    FloatToInt,
    /// I (`i1` excluded) -> F.
    IntToFloat,
    /// F -> F of another width.
    FloatToFloat,
    /// Operands and result one float type.
    Float,
    /// (F, F, F) -> i1.
    FloatFlag3,
    /// (F, F, F, i1) -> F.
    DivFmas,
    /// (F, i32) -> F.
    Ldexp,
    /// F -> i32.
    FloatToI32,
    /// (f64, i32) -> f64.
    TrigPreop,
    /// Operands and result f32.
    F32,
    /// (f32, f32) -> i32: two values packed.
    PackF32,
    /// (f32, i32, i32) -> i32.
    CvtPkU8,
    /// The operands of the reported op (typed by that op's rule) -> i32 flags.
    Fexcept,
}

fn want(cond: bool, op: Op, what: &str) -> Result<(), TypeError> {
    if cond {
        Ok(())
    } else {
        Err(TypeError(format!("{}: {what}", op.name())))
    }
}

impl Sig {
    /// Checks `op` (whose signature this is) with result type `ty` and operand types `args`;
    /// the operand count has been checked.
    pub fn check(self, op: Op, ty: ScalarType, args: &[ScalarType]) -> Result<(), TypeError> {
        let all = |t: ScalarType| args.iter().all(|&a| a == t);
        let int_n = |t: ScalarType| t.is_int() && t != I1;
        let one_int = "operands and result must be one integer type";
        match self {
            Sig::Int => want(int_n(ty) && all(ty), op, one_int),
            Sig::Bits => want(ty.is_int() && all(ty), op, one_int),
            Sig::Shift => want(
                int_n(ty) && args[0] == ty && int_n(args[1]),
                op,
                "value and result must match; amount an integer",
            ),
            Sig::Carry => want(
                ty == I1 && int_n(args[0]) && args[1] == args[0] && args[2] == I1,
                op,
                "(I, I, i1) -> i1",
            ),
            Sig::BitField => want(
                matches!(ty, I32 | I64) && args[0] == ty && args[1] == I32 && args[2] == I32,
                op,
                "(i32|i64, i32, i32) -> same",
            ),
            Sig::Int32Or64 => want(
                matches!(ty, I32 | I64) && all(ty),
                op,
                "operands and result i32/i64",
            ),
            Sig::I32 => want(ty == I32 && all(I32), op, "i32 operands and result"),
            Sig::IntCompare => want(
                ty == I1 && args[0].is_int() && args[0] == args[1],
                op,
                "(I, I) -> i1",
            ),
            Sig::FloatCompare => want(
                ty == I1 && args[0].is_float() && args[0] == args[1],
                op,
                "(F, F) -> i1",
            ),
            Sig::FloatClass => want(
                ty == I1 && args[0].is_float() && args[1] == I32,
                op,
                "(F, i32) -> i1",
            ),
            Sig::Select => want(
                args[0] == I1 && args[1] == ty && args[2] == ty,
                op,
                "(i1, T, T) -> T",
            ),
            Sig::Widen => want(
                ty.is_int() && args[0].is_int() && ty.bits() > args[0].bits(),
                op,
                "integer widening",
            ),
            Sig::Narrow => want(
                ty.is_int() && args[0].is_int() && ty.bits() < args[0].bits(),
                op,
                "integer narrowing",
            ),
            Sig::Bitcast => want(ty.bits() == args[0].bits() && ty != I1, op, "same width"),
            Sig::Concat => want(
                ty.is_int() && ty.bits() == 2 * args[0].bits() && args[0] == args[1],
                op,
                "(I, I) -> I of twice the width",
            ),
            Sig::FloatToInt => want(int_n(ty) && args[0].is_float(), op, "F -> I"),
            Sig::IntToFloat => want(ty.is_float() && int_n(args[0]), op, "I -> F"),
            Sig::FloatToFloat => want(
                ty.is_float() && args[0].is_float() && ty != args[0],
                op,
                "F -> F of another width",
            ),
            Sig::Float => want(
                ty.is_float() && all(ty),
                op,
                "operands and result must be one float type",
            ),
            Sig::FloatFlag3 => want(
                ty == I1 && args[0].is_float() && all(args[0]),
                op,
                "(F, F, F) -> i1",
            ),
            Sig::DivFmas => want(
                ty.is_float() && args[..3].iter().all(|&a| a == ty) && args[3] == I1,
                op,
                "(F, F, F, i1) -> F",
            ),
            Sig::Ldexp => want(
                ty.is_float() && args[0] == ty && args[1] == I32,
                op,
                "(F, i32) -> F",
            ),
            Sig::FloatToI32 => want(ty == I32 && args[0].is_float(), op, "F -> i32"),
            Sig::TrigPreop => want(
                ty == F64 && args[0] == F64 && args[1] == I32,
                op,
                "(f64, i32) -> f64",
            ),
            Sig::F32 => want(ty == F32 && all(F32), op, "f32"),
            Sig::PackF32 => want(ty == I32 && all(F32), op, "(f32, f32) -> i32"),
            Sig::CvtPkU8 => want(
                ty == I32 && args[0] == F32 && args[1] == I32 && args[2] == I32,
                op,
                "(f32, i32, i32) -> i32",
            ),
            Sig::Fexcept => {
                want(ty == I32, op, "the flags are an i32")?;
                let Op::Fexcept(k) = op else {
                    return want(false, op, "not an fexcept");
                };
                let inner = k
                    .op_type(args)
                    .ok_or_else(|| TypeError(format!("{}: no operands", op.name())))?;
                k.op()
                    .check(inner, args)
                    .map_err(|e| TypeError(format!("{}: {e}", op.name())))
            }
        }
    }
}
