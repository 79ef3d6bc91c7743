//! 64-bit instructions on register pairs (4.12).
use super::super::emit::Emit;
use super::*;
use wavejit_ir::{FloatCC, FloatMode, MinMax, Op};
use wavejit_ir::{ScalarType, Value};

use ScalarType::{I32, I64};

/// The documented double rule: denormal inputs read as zero ("denorms treated arithmetically
/// and obey rules of appropriate zero", Tables 8.1-8.10).
fn flush_in(m: FloatMode) -> FloatMode {
    FloatMode {
        flush_in: true,
        ..m
    }
}

pub(super) fn wide(e: &mut Emit, op: AluOp, s: &[Src]) -> AluValue {
    use AluOp::*;
    let d: Vec<Value> = s
        .iter()
        .map(|src| match *src {
            Src::W32(v) => v,
            Src::W64 { hi, lo } => e.join(hi, lo),
        })
        .collect();
    let m = e.m64;
    let r = match op {
        ADD_64 => e.d(Op::Fadd, &d),
        MUL_64 => e.d(Op::Fmul, &d),
        // R7xx only: multiply-add, unfused like MULADD_IEEE.
        MULADD_64 => e.d(Op::Fmad, &d),
        FMA_64 => e.d(Op::Fma, &d),
        SETE_64 | SETNE_64 | SETGT_64 | SETGE_64 => {
            // SETE_64 is `==` (the doc's `>=` at L6637 is a copy of SETGE_64, issue 24).
            let cc = match op {
                SETE_64 => FloatCC::Eq,
                SETNE_64 => FloatCC::Une,
                SETGT_64 => FloatCC::Gt,
                _ => FloatCC::Ge,
            };
            let c = cmp64(e, cc, d[0], d[1]);
            let (t, f) = (e.k64(u64::MAX), e.k64(0));
            e.sel(c, t, f)
        }
        PRED_SETE_64 | PRED_SETGT_64 | PRED_SETGE_64 => {
            let cc = match op {
                PRED_SETE_64 => FloatCC::Eq,
                PRED_SETGT_64 => FloatCC::Gt,
                _ => FloatCC::Ge,
            };
            let c = cmp64(e, cc, d[0], d[1]);
            let (t, f) = (e.k(0), e.k(u32::MAX));
            let value = e.sel(c, t, f);
            return AluValue::Predicate { value, execute: c };
        }
        // `src0 < src1 ? src0 : src1` with min(-0, +0) = -0 in either order (L5055), max
        // likewise with `>` and +0: the ordered min/max, and src1 (quieted) when either is NaN
        // as the pseudo-code's failed comparison gives.
        MIN_64 | MAX_64 => {
            let mm = if op == MIN_64 {
                Op::Fmin(MinMax::NonIeee)
            } else {
                Op::Fmax(MinMax::NonIeee)
            };
            let r = e.d_mode(mm, flush_in(m), &d);
            let q = e.d_mode(Op::Fcanonicalize, flush_in(m), &[d[1]]);
            let uno = cmp64(e, FloatCC::Uno, d[0], d[1]);
            e.sel(uno, q, r)
        }
        CNDNE_64 => {
            let zero = e.k64(0);
            let c = cmp64(e, FloatCC::Une, d[0], zero);
            e.sel(c, d[1], d[2])
        }
        // Table 8.4: denormals give +0, infinities NaN64, the result in [+0, 1).
        FRACT_64 => {
            let f = e.d_mode(Op::Ffract, flush_in(m), &d);
            let inf = e.class64(d[0], 0x204);
            let nan64 = e.k64(wavejit_ir::semantics::DEFAULT_NAN_F64);
            e.sel(inf, nan64, f)
        }
        // Table 8.5: mantissa in dst.ZW (z low, w high), exponent in y; x carries the exponent
        // too (the example's x line is garbled; see the report). inf: NaN64 and -1; NaN: the
        // NaN unchanged and -1; zero and denormal: {sign, 0} and 0.
        FREXP_64 => {
            let fm = flush_in(m);
            let mant = e.d_mode(Op::FrexpMant, fm, &d);
            let inf = e.class64(d[0], 0x204);
            let nan = e.class64(d[0], 0b11);
            let nan64 = e.k64(wavejit_ir::semantics::DEFAULT_NAN_F64);
            let mant = e.sel(nan, d[0], mant);
            let mant = e.sel(inf, nan64, mant);
            let df = e.cast(d[0], ScalarType::F64);
            let exp = e.op_mode(Op::FrexpExp, fm, I32, &[df]);
            let special = e.or1(inf, nan);
            let ones = e.k(u32::MAX);
            let exp = e.sel(special, ones, exp);
            let (hi, lo) = e.split(mant);
            return AluValue::Slots([exp, exp, lo, hi]);
        }
        // Table 8.6: src1 * 2^src0; denormals in and out are zeros, overflow is ±inf.
        LDEXP_64 => {
            let fm = FloatMode {
                flush_in: true,
                flush_out: true,
                ..m
            };
            let x = e.cast(d[1], ScalarType::F64);
            let r = e.op_mode(Op::Ldexp, fm, ScalarType::F64, &[x, d[0]]);
            e.cast(r, I64)
        }
        // Table 8.2: exact; denormals give ±0; a NaN keeps its sign and its mantissa in bits
        // [51:29], signalling NaNs included (not quieted, unlike the IR's fconvert).
        FLT32_TO_FLT64 => {
            let x = d[0];
            let xf = e.cast(x, ScalarType::F32);
            let conv = e.op_mode(Op::Fconvert, flush_in(e.m32), ScalarType::F64, &[xf]);
            let conv = e.cast(conv, I64);
            let x64 = e.op(Op::Zext, I64, &[x]);
            let (k29, k32) = (e.k64(29), e.k64(32));
            let mant_mask = e.k64(0x7f_ffff);
            let mant = e.op(Op::And, I64, &[x64, mant_mask]);
            let mant = e.op(Op::Shl, I64, &[mant, k29]);
            let sign_mask = e.k64(0x8000_0000);
            let sign = e.op(Op::And, I64, &[x64, sign_mask]);
            let sign = e.op(Op::Shl, I64, &[sign, k32]);
            let exp = e.k64(0x7ff0_0000_0000_0000);
            let nanv = e.op(Op::Or, I64, &[sign, exp]);
            let nanv = e.op(Op::Or, I64, &[nanv, mant]);
            let nan = e.is_nan32(x);
            e.sel(nan, nanv, conv)
        }
        // Table 8.3: rounded in the single mode; denormal inputs give ±0; a NaN gives the
        // quiet NaN 0x7FC00000 or 0xFFC00000 of its sign (payload dropped). The result goes
        // to the even slot, the odd slot gets 0 (the example's "always 0").
        FLT64_TO_FLT32 => {
            let x = e.cast(d[0], ScalarType::F64);
            let conv = e.op_mode(Op::Fconvert, flush_in(e.m32), ScalarType::F32, &[x]);
            let conv = e.cast(conv, I32);
            let (hi, _) = e.split(d[0]);
            let sign_mask = e.k(0x8000_0000);
            let sign = e.op(Op::And, I32, &[hi, sign_mask]);
            let qnan = e.k(0x7fc0_0000);
            let nanv = e.op(Op::Or, I32, &[sign, qnan]);
            let nan = e.class64(d[0], 0b11);
            let lo = e.sel(nan, nanv, conv);
            let hi = e.k(0);
            return AluValue::Double { hi, lo };
        }
        _ => unreachable!("{} has the wide form but no wide semantics", op.name()),
    };
    let (hi, lo) = e.split(r);
    AluValue::Double { hi, lo }
}

/// A double comparison with denormals read as zero (Tables 8.8-8.10).
fn cmp64(e: &mut Emit, cc: FloatCC, a: Value, b: Value) -> Value {
    let saved = e.m64;
    e.m64 = flush_in(saved);
    let c = e.dcmp(cc, a, b);
    e.m64 = saved;
    c
}
