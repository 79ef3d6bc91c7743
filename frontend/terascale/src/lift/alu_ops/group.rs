//! Instructions that read more than their own slot: the `_PREV` chains (the previous slot's
//! result) and the reductions over the four vector slots.
use super::super::emit::Emit;
use super::slot::mbcnt;
use super::*;
use wavejit_ir::{FloatCC, Op};
use wavejit_ir::{ScalarType, Value};

use ScalarType::{I32, I64};

pub(super) fn chained(e: &mut Emit, op: AluOp, s: &[Value], prev: Value) -> Value {
    use AluOp::*;
    match op {
        BCNT_ACCUM_PREV_INT => {
            let c = e.op(Op::Popcnt, I32, &[s[0]]);
            e.op(Op::Iadd, I32, &[c, prev])
        }
        // The lane's bits below it in the low half of the mask (L5033), plus prev.
        MBCNT_32LO_ACCUM_PREV_INT => {
            let v = e.op(Op::Zext, I64, &[s[0]]);
            let c = mbcnt(e, v);
            e.op(Op::Iadd, I32, &[c, prev])
        }
        ADD_PREV => e.f(Op::Fadd, &[s[0], prev]),
        // "Result = Arg2 * prev_slot_result": the second source (L5245 area). Mesa's table
        // lists MUL_PREV as one-operand; the document is followed.
        MUL_PREV => e.f(Op::FmulLegacy, &[s[1], prev]),
        MUL_IEEE_PREV => e.f(Op::Fmul, &[s[1], prev]),
        // `src0 * src1 + prev`; DOT chains the same way. The document says the previous
        // result is "not normalized" on the DOT path; this rounds it (unfused), an
        // approximation of undocumented internal precision.
        MULADD_PREV | DOT => e.f(Op::FmadLegacy, &[s[0], s[1], prev]),
        MULADD_IEEE_PREV | DOT_IEEE => e.f(Op::Fmad, &[s[0], s[1], prev]),
        SAD_ACCUM_PREV_UINT => e.op(Op::SadU8, I32, &[s[0], s[1], prev]),
        _ => unreachable!(
            "{} has the chained form but no chained semantics",
            op.name()
        ),
    }
}

pub(super) fn vector(e: &mut Emit, op: AluOp, v: &[[Value; 2]; 4]) -> AluValue {
    use AluOp::*;
    let [x, y, z, w] = *v;
    match op {
        // `W*W + Z*Z + Y*Y + X*X` (L3790), summed in that order, each product rounded
        // (legacy multiply for DOT4). The internal precision is not documented.
        DOT4 | DOT4_IEEE => {
            let (mul, mad) = if op == DOT4 {
                (Op::FmulLegacy, Op::FmadLegacy)
            } else {
                (Op::Fmul, Op::Fmad)
            };
            let mut acc = e.f(mul, &[w[0], w[1]]);
            for s in [z, y, x] {
                acc = e.f(mad, &[s[0], s[1], acc]);
            }
            AluValue::Replicated(acc)
        }
        // `max(srcA.W, srcA.Z, srcA.Y, srcA.X)` with MAX's rule, folded in that order.
        MAX4 => {
            let mut acc = w[0];
            for s in [z, y, x] {
                let c = e.fcmp(FloatCC::Ge, acc, s[0]);
                acc = e.sel(c, acc, s[0]);
            }
            AluValue::Replicated(e.f(Op::Fcanonicalize, &[acc]))
        }
        // src0 = Rn.zzxy and src1 = Rn.yxzz (L3730): x reads (z, y), y (z, x), z (x, z),
        // w (y, z). dst = (T, S, 2 * major axis, face id), the GCN cube ops' definitions.
        CUBE => {
            let (cx, cy, cz) = (z[0], w[0], x[0]);
            let f = |e: &mut Emit, o: Op| e.f(o, &[cx, cy, cz]);
            AluValue::Slots([
                f(e, Op::CubeTc),
                f(e, Op::CubeSc),
                f(e, Op::CubeMa),
                f(e, Op::CubeId),
            ])
        }
        // Four FLT_TO_UINT results' low bytes packed, x in the low byte.
        FLT_TO_UINT4 => {
            let mut acc = e.k(0);
            for (i, s) in [x, y, z, w].into_iter().enumerate() {
                let u = e.f32_in(Op::FtoU, e.m32, &[s[0]], I32);
                let mask = e.k(0xff);
                let u = e.op(Op::And, I32, &[u, mask]);
                let sh = e.k(8 * i as u32);
                let u = e.op(Op::Shl, I32, &[u, sh]);
                acc = e.op(Op::Or, I32, &[acc, u]);
            }
            AluValue::Replicated(acc)
        }
        _ => unreachable!("{} has the vector form but no vector semantics", op.name()),
    }
}
