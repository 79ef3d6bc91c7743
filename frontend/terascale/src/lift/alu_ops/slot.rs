//! Single-slot instructions: float, integer, conversion, compare and predicate ops.
use super::super::emit::Emit;
use super::*;
use wavejit_ir::{fpflag, Angle, Except, FloatCC, FloatMode, IntCC, MinMax, Op, Round, Trans};
use wavejit_ir::{ScalarType, Value};

use ScalarType::{I1, I32, I64};

pub(super) fn slot(e: &mut Emit, op: AluOp, s: &[Value]) -> AluValue {
    use AluOp::*;
    if let Some(p) = predicate(e, op, s) {
        return p;
    }
    let x = s.first().copied().unwrap_or_else(|| e.k(0));
    let y = s.get(1).copied().unwrap_or(x);
    let z = s.get(2).copied().unwrap_or(x);
    let m = e.m32;
    let v = match op {
        ADD => e.f(Op::Fadd, &[x, y]),
        MUL => e.f(Op::FmulLegacy, &[x, y]),
        MUL_IEEE => e.f(Op::Fmul, &[x, y]),
        // `src0 >= src1 ? src0 : src1` (L4899): NaN gives src1, equal zeros give src0. The
        // selected value is canonicalised like every float result (quiet NaN, flushing).
        MAX => {
            let c = e.fcmp(FloatCC::Ge, x, y);
            let r = e.sel(c, x, y);
            e.f(Op::Fcanonicalize, &[r])
        }
        // `src0 < src1 ? src0 : src1`: exactly the IR's legacy rule.
        MIN => e.f(Op::Fmin(MinMax::Legacy), &[x, y]),
        // "DirectX 10 NaN handling" (no rule given): the non-NaN operand, as D3D10 and LLVM's
        // fminnum/fmaxnum lowering (amd_launch_abi.md §2.4) expect.
        MAX_DX10 => e.f(Op::Fmax(MinMax::NonIeee), &[x, y]),
        MIN_DX10 => e.f(Op::Fmin(MinMax::NonIeee), &[x, y]),
        SETE | SETGT | SETGE | SETNE => {
            let c = fset(e, op, x, y);
            e.bool_f32(c)
        }
        SETE_DX10 | SETGT_DX10 | SETGE_DX10 | SETNE_DX10 => {
            let c = fset(e, op, x, y);
            e.bool_mask(c)
        }
        // `src0 - FLOOR(src0)` (L4250), kept below 1.0 as FRACT_64's table ([+0, +1)) and
        // GCN's v_fract do; an infinity gives the default NaN as the subtraction would.
        FRACT => {
            let f = e.f(Op::Ffract, &[x]);
            let inf = {
                let xf = e.cast(x, ScalarType::F32);
                let mask = e.k(0x204);
                e.op(Op::Fclass, I1, &[xf, mask])
            };
            let nan = e.k(wavejit_ir::semantics::DEFAULT_NAN_F32);
            e.sel(inf, nan, f)
        }
        TRUNC => e.f(Op::Ftrunc, &[x]),
        CEIL => e.f(Op::Fceil, &[x]),
        RNDNE => e.f(Op::Frint, &[x]),
        FLOOR => e.f(Op::Ffloor, &[x]),
        // The five low bits (L4861 ASHR, L4893 LSHR); the IR takes amounts modulo 32.
        ASHR_INT => e.op(Op::Ashr, I32, &[x, y]),
        LSHR_INT => e.op(Op::Lshr, I32, &[x, y]),
        // "If src1 is > 31, the result is 0" (L4861): unlike the right shifts, not masked.
        LSHL_INT => {
            let sh = e.op(Op::Shl, I32, &[x, y]);
            let k31 = e.k(31);
            let big = e.icmp(IntCC::Ugt, y, k31);
            let zero = e.k(0);
            e.sel(big, zero, sh)
        }
        MOV => x,
        AND_INT => e.op(Op::And, I32, &[x, y]),
        OR_INT => e.op(Op::Or, I32, &[x, y]),
        XOR_INT => e.op(Op::Xor, I32, &[x, y]),
        NOT_INT => e.op(Op::Not, I32, &[x]),
        ADD_INT => e.op(Op::Iadd, I32, &[x, y]),
        // The document prints `src1 - src0` (L6973, notes issue 23); the hardware computes
        // src0 - src1 (SUBB_UINT's borrow `src1 > src0` pairs with it; Mesa, LLVM).
        SUB_INT => e.op(Op::Isub, I32, &[x, y]),
        MAX_INT => e.op(Op::Smax, I32, &[x, y]),
        MIN_INT => e.op(Op::Smin, I32, &[x, y]),
        MAX_UINT => e.op(Op::Umax, I32, &[x, y]),
        MIN_UINT => e.op(Op::Umin, I32, &[x, y]),
        SETE_INT | SETGT_INT | SETGE_INT | SETNE_INT | SETGT_UINT | SETGE_UINT => {
            let c = e.icmp(int_cc(op), x, y);
            e.bool_mask(c)
        }
        // L3347, L6987: carry of src0 + src1, borrow of src0 - src1, as 1 or 0.
        ADDC_UINT | SUBB_UINT => {
            let f = e.b.bool(false);
            let o = if op == ADDC_UINT {
                Op::AddCarryOut
            } else {
                Op::SubBorrowOut
            };
            let c = e.op(o, I1, &[x, y, f]);
            e.bool_int(c)
        }
        // D3D10 conversion: truncate, saturate, NaN -> 0; -inf -> INT_MIN (the doc's "-inf ->
        // max_int" at L3921 is a typo, notes issue 30).
        FLT_TO_INT => e.f32_in(Op::FtoS, m, &[x], I32),
        FLT_TO_UINT => e.f32_in(Op::FtoU, m, &[x], I32),
        FLT_TO_INT_FLOOR => {
            let f = e.f(Op::Ffloor, &[x]);
            flt_to_int_sat(e, x, f)
        }
        FLT_TO_INT_RPI => {
            // floor(x + 0.5) with an exact sum (the doc's "equivalently": fract == 0.5 ->
            // ceil, else round to nearest even), so 0.49999997 gives 0. The tie test is no
            // operation of the instruction: it raises no flags.
            let tie = e.unflagged(|e| {
                let fr = e.f_mode(Op::Ffract, FloatMode::IEEE, &[x]);
                let half = e.k(0.5f32.to_bits());
                e.f32_in(Op::Fcmp(FloatCC::Eq), FloatMode::IEEE, &[fr, half], I1)
            });
            let c = e.f(Op::Fceil, &[x]);
            let r = e.f(Op::Frint, &[x]);
            let f = e.sel(tie, c, r);
            flt_to_int_sat(e, x, f)
        }
        BFREV_INT => e.op(Op::Bitrev, I32, &[x]),
        MUL_INT24 | MULHI_INT24 | MUL_UINT24 | MULHI_UINT24 => {
            let signed = matches!(op, MUL_INT24 | MULHI_INT24);
            let (a, c) = (int24(e, x, signed), int24(e, y, signed));
            let o = match op {
                MUL_INT24 | MUL_UINT24 => Op::Imul,
                MULHI_INT24 => Op::SmulHi,
                _ => Op::UmulHi,
            };
            e.op(o, I32, &[a, c])
        }
        // Transcendentals: `src == 1.0 -> 1.0` (and EXP(0) = 1, LOG(1) = 0) hold in the IR's
        // definitions; the flavours rewrite infinities (_CLAMPED: ±max float, _FF: ±0).
        EXP_IEEE => e.f(Op::Fexp2(Trans::Ieee), &[x]),
        LOG_CLAMPED => e.f(Op::Flog2(Trans::Clamped), &[x]),
        LOG_IEEE => e.f(Op::Flog2(Trans::Ieee), &[x]),
        RECIP_CLAMPED => e.f(Op::Frcp(Trans::Clamped), &[x]),
        RECIP_FF => e.f(Op::Frcp(Trans::Ff), &[x]),
        RECIP_IEEE => e.f(Op::Frcp(Trans::Ieee), &[x]),
        RECIPSQRT_CLAMPED => e.f(Op::Frsq(Trans::Clamped), &[x]),
        RECIPSQRT_FF => e.f(Op::Frsq(Trans::Ff), &[x]),
        RECIPSQRT_IEEE => e.f(Op::Frsq(Trans::Ieee), &[x]),
        SQRT_IEEE => e.f(Op::Fsqrt(Trans::Ieee), &[x]),
        // Input in turns (radians / 2π, L6905/L3712); outside [-256, 256] sin 0, cos 1.
        SIN => e.f(Op::Fsin(Trans::Ieee, Angle::Turns), &[x]),
        COS => e.f(Op::Fcos(Trans::Ieee, Angle::Turns), &[x]),
        MULLO_INT | MULLO_UINT => e.op(Op::Imul, I32, &[x, y]),
        MULHI_INT => e.op(Op::SmulHi, I32, &[x, y]),
        MULHI_UINT => e.op(Op::UmulHi, I32, &[x, y]),
        // src0 = high dword, src1 = low dword of the double; the result is the high dword
        // of the double result ("low-order bits assumed to be 0").
        RECIP_64 | RECIP_CLAMPED_64 | RECIPSQRT_64 | RECIPSQRT_CLAMPED_64 | SQRT_64 => {
            let d = e.join(x, y);
            let o = match op {
                RECIP_64 => Op::Frcp(Trans::Ieee),
                RECIP_CLAMPED_64 => Op::Frcp(Trans::Clamped),
                RECIPSQRT_64 => Op::Frsq(Trans::Ieee),
                RECIPSQRT_CLAMPED_64 => Op::Frsq(Trans::Clamped),
                _ => Op::Fsqrt(Trans::Ieee),
            };
            let r = e.d(o, &[d]);
            e.split(r).0
        }
        INT_TO_FLT => {
            let r = e.op_mode(Op::StoF, m, ScalarType::F32, &[x]);
            e.cast(r, I32)
        }
        UINT_TO_FLT => {
            let r = e.op_mode(Op::UtoF, m, ScalarType::F32, &[x]);
            e.cast(r, I32)
        }
        BFM_INT => e.op(Op::Bfm, I32, &[x, y]),
        FLT32_TO_FLT16 | FLT32_TO_FLT16_RTZ => {
            let mode = if op == FLT32_TO_FLT16_RTZ {
                FloatMode {
                    round: Round::TowardZero,
                    ..m
                }
            } else {
                m
            };
            let h = e.f32_in(Op::Fconvert, mode, &[x], ScalarType::F16);
            let h = e.cast(h, ScalarType::I16);
            e.op(Op::Zext, I32, &[h])
        }
        FLT16_TO_FLT32 => {
            let h = e.op(Op::Trunc, ScalarType::I16, &[x]);
            let h = e.cast(h, ScalarType::F16);
            // There is no half-precision denormal control and every half is a normal single,
            // so the single mode's input flush does not apply (exact conversion).
            let keep = FloatMode {
                flush_in: false,
                ..m
            };
            let r = e.op_mode(Op::Fconvert, keep, ScalarType::F32, &[h]);
            e.cast(r, I32)
        }
        UBYTE0_FLT | UBYTE1_FLT | UBYTE2_FLT | UBYTE3_FLT => {
            let n = match op {
                UBYTE0_FLT => 0,
                UBYTE1_FLT => 8,
                UBYTE2_FLT => 16,
                _ => 24,
            };
            let (off, w) = (e.k(n), e.k(8));
            let byte = e.op(Op::Ubfe, I32, &[x, off, w]);
            let r = e.op_mode(Op::UtoF, m, ScalarType::F32, &[byte]);
            e.cast(r, I32)
        }
        BCNT_INT => e.op(Op::Popcnt, I32, &[x]),
        // 0 gives 0xFFFFFFFF (L3833-L3892).
        FFBH_UINT | FFBL_INT => {
            let o = if op == FFBH_UINT { Op::Clz } else { Op::Ctz };
            let c = e.op(o, I32, &[x]);
            let zero = e.k(0);
            let is0 = e.icmp(IntCC::Eq, x, zero);
            let ones = e.k(u32::MAX);
            e.sel(is0, ones, c)
        }
        // Leading sign copies of a negative value; 0 and -1 give 0xFFFFFFFF.
        FFBH_INT => {
            let k31 = e.k(31);
            let sign = e.op(Op::Ashr, I32, &[x, k31]);
            let flipped = e.op(Op::Xor, I32, &[x, sign]);
            let c = e.op(Op::Clz, I32, &[flipped]);
            let zero = e.k(0);
            let none = e.icmp(IntCC::Eq, flipped, zero);
            let ones = e.k(u32::MAX);
            e.sel(none, ones, c)
        }
        // The lane's bits below it in the high half of the 64-lane mask (L4997).
        MBCNT_32HI_INT => {
            let zero = e.k(0);
            let v = e.join(x, zero);
            mbcnt(e, v)
        }
        // Four-bit signed src0[3:0] / 16 (L5606 table).
        OFFSET_TO_FLT => {
            let (o, w) = (e.k(0), e.k(4));
            let v = e.op(Op::Sbfe, I32, &[x, o, w]);
            let f = e.op_mode(Op::StoF, m, ScalarType::F32, &[v]);
            let f = e.cast(f, I32);
            let sixteenth = e.k(0.0625f32.to_bits());
            e.f(Op::Fmul, &[f, sixteenth])
        }
        // Evergreen only; not in seed 000 (notes issue 19). LLVM's URECIP: 2^32 / x, used
        // with fix-ups that tolerate a small error; the exact quotient, saturated, is used
        // here and 0 gives 0xFFFFFFFF.
        RECIP_UINT => {
            let x64 = e.op(Op::Zext, I64, &[x]);
            let num = e.k64(1 << 32);
            let q = e.op(Op::Udiv, I64, &[num, x64]);
            let max = e.k64(u64::from(u32::MAX));
            let q = e.op(Op::Umin, I64, &[q, max]);
            e.op(Op::Trunc, I32, &[q])
        }
        // Signed analogue: 2^32 / x toward zero, saturated; 0 gives 0x7FFFFFFF (no source).
        RECIP_INT => {
            let x64 = e.op(Op::Sext, I64, &[x]);
            let num = e.k64(1 << 32);
            let q = e.op(Op::Sdiv, I64, &[num, x64]);
            let (lo, hi) = (e.k64(i32::MIN as i64 as u64), e.k64(i32::MAX as u64));
            let q = e.op(Op::Smax, I64, &[q, lo]);
            let q = e.op(Op::Smin, I64, &[q, hi]);
            let q = e.op(Op::Trunc, I32, &[q]);
            let zero = e.k(0);
            let is0 = e.icmp(IntCC::Eq, x, zero);
            let max = e.k(i32::MAX as u32);
            e.sel(is0, max, q)
        }
        BFE_UINT => e.op(Op::Ubfe, I32, &[x, y, z]),
        BFE_INT => e.op(Op::Sbfe, I32, &[x, y, z]),
        BFI_INT => e.op(Op::Bfi, I32, &[x, y, z]),
        // Fused (L4201). Only cypress and cayman have it (LLVM's FeatureFMA); which chips
        // decode it is the tables' business.
        FMA => e.f(Op::Fma, &[x, y, z]),
        MULADD_INT24 | MULADD_UINT24 => {
            let signed = op == MULADD_INT24;
            let (a, c) = (int24(e, x, signed), int24(e, y, signed));
            let p = e.op(Op::Imul, I32, &[a, c]);
            e.op(Op::Iadd, I32, &[p, z])
        }
        LERP_UINT => e.op(Op::LerpU8, I32, &[x, y, z]),
        BIT_ALIGN_INT => e.op(Op::BitAlign, I32, &[x, y, z]),
        BYTE_ALIGN_INT => e.op(Op::ByteAlign, I32, &[x, y, z]),
        SAD_ACCUM_UINT => e.op(Op::SadU8, I32, &[x, y, z]),
        SAD_ACCUM_HI_UINT => e.op(Op::SadHiU8, I32, &[x, y, z]),
        // Unfused: "same results as ADD after MUL" (L5340); the scaled forms round again.
        MULADD | MULADD_M2 | MULADD_M4 | MULADD_D2 => {
            let r = e.f(Op::FmadLegacy, &[x, y, z]);
            scale(e, op, r)
        }
        MULADD_IEEE | MULADD_IEEE_M2 | MULADD_IEEE_M4 | MULADD_IEEE_D2 => {
            let r = e.f(Op::Fmad, &[x, y, z]);
            scale(e, op, r)
        }
        CNDE | CNDGT | CNDGE => {
            let zero = e.k(0);
            let cc = match op {
                CNDE => FloatCC::Eq,
                CNDGT => FloatCC::Gt,
                _ => FloatCC::Ge,
            };
            let c = e.fcmp(cc, x, zero);
            e.sel(c, y, z)
        }
        CNDE_INT | CNDGT_INT | CNDGE_INT => {
            let zero = e.k(0);
            let cc = match op {
                CNDE_INT => IntCC::Eq,
                CNDGT_INT => IntCC::Sgt,
                _ => IntCC::Sge,
            };
            let c = e.icmp(cc, x, zero);
            e.sel(c, y, z)
        }
        // L5176 "MUL_LIT": -MAX_FLOAT when src1 is -MAX_FLOAT, -inf or NaN, or src2 <= 0 or
        // NaN; else the legacy product src0 * src1.
        MUL_LIT | MUL_LIT_M2 | MUL_LIT_M4 | MUL_LIT_D2 => {
            let neg_max = e.k(f32::MIN.to_bits());
            let neg_inf = e.k(f32::NEG_INFINITY.to_bits());
            let zero = e.k(0);
            let c1 = e.fcmp(FloatCC::Eq, y, neg_max);
            let c2 = e.fcmp(FloatCC::Eq, y, neg_inf);
            let c3 = e.fcmp(FloatCC::Uno, y, y);
            let c4 = e.fcmp(FloatCC::Ule, z, zero);
            let c = e.or1(c1, c2);
            let c = e.or1(c, c3);
            let c = e.or1(c, c4);
            let p = e.f(Op::FmulLegacy, &[x, y]);
            let p = scale(e, op, p);
            e.sel(c, neg_max, p)
        }
        _ => unreachable!("{} has the slot form but no slot semantics", op.name()),
    };
    AluValue::Scalar(v)
}

/// The 2-operand float comparison of SET* and SET*_DX10. `!=` is true on NaN (unordered).
fn fset(e: &mut Emit, op: AluOp, x: Value, y: Value) -> Value {
    use AluOp::*;
    let cc = match op {
        SETE | SETE_DX10 => FloatCC::Eq,
        SETGT | SETGT_DX10 => FloatCC::Gt,
        SETGE | SETGE_DX10 => FloatCC::Ge,
        _ => FloatCC::Une,
    };
    e.fcmp(cc, x, y)
}

fn int_cc(op: AluOp) -> IntCC {
    use AluOp::*;
    match op {
        SETE_INT | PRED_SETE_INT => IntCC::Eq,
        SETGT_INT | PRED_SETGT_INT => IntCC::Sgt,
        SETGE_INT | PRED_SETGE_INT => IntCC::Sge,
        SETNE_INT | PRED_SETNE_INT => IntCC::Ne,
        SETGT_UINT | PRED_SETGT_UINT => IntCC::Ugt,
        _ => IntCC::Uge,
    }
}

/// The low 24 bits, sign- or zero-extended.
fn int24(e: &mut Emit, x: Value, signed: bool) -> Value {
    let (o, w) = (e.k(0), e.k(24));
    e.op(if signed { Op::Sbfe } else { Op::Ubfe }, I32, &[x, o, w])
}

/// The ×2/×4/÷2 built into an OP3 opcode (one more rounding in the mode).
fn scale(e: &mut Emit, op: AluOp, v: Value) -> Value {
    use AluOp::*;
    let k: f32 = match op {
        MULADD_M2 | MULADD_IEEE_M2 | MUL_LIT_M2 => 2.0,
        MULADD_M4 | MULADD_IEEE_M4 | MUL_LIT_M4 => 4.0,
        MULADD_D2 | MULADD_IEEE_D2 | MUL_LIT_D2 => 0.5,
        _ => return v,
    };
    let k = e.k(k.to_bits());
    e.f(Op::Fmul, &[v, k])
}

/// FLT_TO_INT_FLOOR/RPI saturation (L3939, L3957): ±max_int (0x7FFFFFFF / 0x80000001) for
/// magnitudes beyond 2^31 and infinities; a NaN by its sign bit. The conversion of the
/// rounded value raises invalid for NaN and out-of-range values; it is exact, so the
/// inexact flag comes from `x` itself (not integral: what truncating `x` reports).
fn flt_to_int_sat(e: &mut Emit, x: Value, whole: Value) -> Value {
    if e.flags.is_some() {
        let xf = e.cast(x, ScalarType::F32);
        let f =
            e.b.op_mode(Op::Fexcept(Except::FtoS(I32)), e.m32, I32, &[xf]);
        let inexact = e.k(fpflag::INEXACT);
        let f = e.op(Op::And, I32, &[f, inexact]);
        e.raise(f);
    }
    let i = e.f32_in(Op::FtoS, e.m32, &[whole], I32);
    let neg_max = e.k(0x8000_0001);
    let i = e.op(Op::Smax, I32, &[i, neg_max]);
    let zero = e.k(0);
    let neg = e.icmp(IntCC::Slt, x, zero);
    let pos_max = e.k(0x7fff_ffff);
    let nan_v = e.sel(neg, neg_max, pos_max);
    let nan = e.is_nan32(x);
    e.sel(nan, nan_v, i)
}

/// Bits of the 64-bit mask `v` below the lane's position, counted.
pub(super) fn mbcnt(e: &mut Emit, v: Value) -> Value {
    let lane = e.b.lane_id();
    let one = e.k64(1);
    let bit = e.op(Op::Shl, I64, &[one, lane]);
    let below = e.op(Op::Isub, I64, &[bit, one]);
    let m = e.op(Op::And, I64, &[v, below]);
    let c = e.op(Op::Popcnt, I64, &[m]);
    e.op(Op::Trunc, I32, &[c])
}

/// The PRED_SET* family (L5655-L6293): the value written and the "execute" condition.
fn predicate(e: &mut Emit, op: AluOp, s: &[Value]) -> Option<AluValue> {
    use AluOp::*;
    let zero = e.k(0);
    let one_f = e.k(1f32.to_bits());
    let (execute, value) = match op {
        PRED_SETE | PRED_SETGT | PRED_SETGE | PRED_SETNE => {
            let c = fset(e, set_of(op), s[0], s[1]);
            let v = e.sel(c, zero, one_f);
            (c, v)
        }
        PRED_SETE_INT | PRED_SETGT_INT | PRED_SETGE_INT | PRED_SETNE_INT | PRED_SETGT_UINT
        | PRED_SETGE_UINT => {
            let c = e.icmp(int_cc(op), s[0], s[1]);
            let v = e.sel(c, zero, one_f);
            (c, v)
        }
        // Push forms: execute when src1 passes against 0 and the counter src0 is 0.0;
        // otherwise the counter is incremented (src0 + 1.0).
        PRED_SETE_PUSH | PRED_SETGT_PUSH | PRED_SETGE_PUSH | PRED_SETNE_PUSH
        | PRED_SETE_PUSH_INT | PRED_SETGT_PUSH_INT | PRED_SETGE_PUSH_INT | PRED_SETNE_PUSH_INT
        | PRED_SETLT_PUSH_INT | PRED_SETLE_PUSH_INT => {
            let c1 = match op {
                PRED_SETE_PUSH => e.fcmp(FloatCC::Eq, s[1], zero),
                PRED_SETGT_PUSH => e.fcmp(FloatCC::Gt, s[1], zero),
                PRED_SETGE_PUSH => e.fcmp(FloatCC::Ge, s[1], zero),
                PRED_SETNE_PUSH => e.fcmp(FloatCC::Une, s[1], zero),
                PRED_SETE_PUSH_INT => e.icmp(IntCC::Eq, s[1], zero),
                PRED_SETGT_PUSH_INT => e.icmp(IntCC::Sgt, s[1], zero),
                PRED_SETGE_PUSH_INT => e.icmp(IntCC::Sge, s[1], zero),
                PRED_SETNE_PUSH_INT => e.icmp(IntCC::Ne, s[1], zero),
                PRED_SETLT_PUSH_INT => e.icmp(IntCC::Slt, s[1], zero),
                _ => e.icmp(IntCC::Sle, s[1], zero),
            };
            let c0 = e.fcmp(FloatCC::Eq, s[0], zero);
            let c = e.and1(c1, c0);
            let inc = e.f(Op::Fadd, &[s[0], one_f]);
            let v = e.sel(c, zero, inc);
            (c, v)
        }
        // src0 == 1.0 -> 0.0, execute; else 0.0 -> 1.0, other counters unchanged; skip.
        PRED_SET_INV => {
            let c = e.fcmp(FloatCC::Eq, s[0], one_f);
            let was0 = e.fcmp(FloatCC::Eq, s[0], zero);
            let other = e.sel(was0, one_f, s[0]);
            let v = e.sel(c, zero, other);
            (c, v)
        }
        PRED_SET_POP => {
            let c = e.fcmp(FloatCC::Le, s[0], s[1]);
            let d = e.f(Op::Fsub, &[s[0], s[1]]);
            let v = e.sel(c, zero, d);
            (c, v)
        }
        PRED_SET_CLR => {
            let skip = e.b.bool(false);
            let max = e.k(f32::MAX.to_bits());
            (skip, max)
        }
        PRED_SET_RESTORE => {
            let c = e.fcmp(FloatCC::Eq, s[0], zero);
            let v = e.sel(c, zero, s[0]);
            (c, v)
        }
        _ => return None,
    };
    Some(AluValue::Predicate { value, execute })
}

fn set_of(op: AluOp) -> AluOp {
    use AluOp::*;
    match op {
        PRED_SETE => SETE,
        PRED_SETGT => SETGT,
        PRED_SETGE => SETGE,
        _ => SETNE,
    }
}
