//! The value semantics of every ALU instruction (seed 000 chapter 8.2; notes/hd6900_map.md §4),
//! lifted to IR one slot or one reduction group at a time.
//!
//! # Contract
//! - [`alu_form`] says what an instruction takes ([`AluForm`]) or that it is not a value op
//!   (kills, MOVA*, SET_MODE, barriers, LDS, interpolation, flag moves: the group and control
//!   flow lifters own them).
//! - [`lift_alu`] emits the IR through a [`FunctionBuilder`] and returns the slot results
//!   ([`AluValue`]). **Sources arrive as read, with the neg/abs input modifiers already applied
//!   by the caller** (float sign-bit flips on the dword; on a double, on its high dword), as `i32`
//!   values (one dword each, lane or uniform). Results are `i32` dwords. The output modifiers
//!   are separate: [`omod`], then [`clamp`] (4.9.1), applied by the caller to float results.
//! - Float ops use [`AluEnv::f32_mode`] or [`AluEnv::f64_mode`] (the kernel's round/denormal
//!   state, after SET_MODE). Where the document fixes a rule regardless of the mode (the
//!   64-bit tables flush denormal inputs, FLT32_TO_FLT64 keeps signalling NaNs, ...) the op
//!   says so and forces it.
//!
//! # Register pairs (4.12)
//! A double source is given as [`Src::W64`] `{hi, lo}`: in the document's examples the even
//! slot (x or z) reads the high dword and the odd slot (y or w) the low one; the caller pairs
//! them. A double result is [`AluValue::Double`]: the low dword goes to the even slot and the
//! high dword to the odd slot ("usually in swapped order"). MUL_64 occupies four slots: the
//! same pair goes to x/y and to z/w.
//!
//! # Document errors and silences (each resolved where the op is lifted)
//! SUB_INT is `src0 - src1` (the doc prints `src1 - src0`; SUBB_UINT's borrow, Mesa and LLVM
//! agree on src0 - src1). SETE_64 is `==` (the doc copies SETGE_64's `>=`). FLT_TO_INT of -inf
//! is INT_MIN (the doc prints max_int; D3D10's conversion rule). MULADD/MULADD_IEEE are
//! unfused ("same result as ADD after MUL"; amd_launch_abi.md §2.4), FMA is fused. The
//! transcendentals use the IR's reproducible definitions (semantics/trans.rs): RECIP_IEEE is
//! correctly rounded, SQRT_IEEE correctly rounded in the mode, the others within 1 ulp of the
//! exact function; hardware is an undocumented ~1 ulp approximation.

use super::emit::Emit;
use crate::AluOp;
use crate::ChipClass;
use thiserror::Error;
use wavejit_ir::{Angle, FloatCC, FloatMode, FunctionBuilder, IntCC, MinMax, Op, Round, Trans};
use wavejit_ir::{ScalarType, Value};

use ScalarType::{I1, I32, I64};

/// The state an instruction's value depends on besides its sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluEnv {
    pub class: ChipClass,
    /// Round and denormal state of single-precision ops.
    pub f32_mode: FloatMode,
    /// Round and denormal state of double-precision ops.
    pub f64_mode: FloatMode,
}

/// Width of one source of a 64-bit instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    W32,
    W64,
}

/// One source of a 64-bit instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    /// A dword (the exponent of LDEXP_64, the single of FLT32_TO_FLT64: the even slot's read).
    W32(Value),
    /// A double as its two dwords.
    W64 { hi: Value, lo: Value },
}

/// What an instruction takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluForm {
    /// `n` dword sources of the slot.
    Slot(usize),
    /// `n` dword sources plus the previous slot's result (the `_PREV`/`DOT` chains; "previous"
    /// is w for z, z for y, y for x).
    Chained(usize),
    /// Sources of a 64-bit instruction.
    Wide(&'static [Width]),
    /// A reduction over the four vector slots: (src0, src1) of x, y, z, w.
    Vector,
}

/// The sources of one instruction, shaped as its [`AluForm`].
#[derive(Clone, Copy, Debug)]
pub enum AluInput<'a> {
    Slot(&'a [Value]),
    Chained { srcs: &'a [Value], prev: Value },
    Wide(&'a [Src]),
    Vector(&'a [[Value; 2]; 4]),
}

/// The results of one instruction (all `i32` dwords).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AluValue {
    /// The slot's result.
    Scalar(Value),
    /// A double: `lo` to the even slot, `hi` to the odd slot (MUL_64: to both pairs).
    Double { hi: Value, lo: Value },
    /// One result per vector slot x, y, z, w (CUBE, FREXP_64).
    Slots([Value; 4]),
    /// One result for all four vector slots (DOT4, DOT4_IEEE, MAX4, FLT_TO_UINT4).
    Replicated(Value),
    /// A PRED_SET*: the dword written (for the 64-bit forms, both dwords) and the condition
    /// (`i1`, true = "execute"). Updating the predicate, the exec mask or the stack is the
    /// control-flow lifter's job.
    Predicate { value: Value, execute: Value },
}

/// Why an instruction gets no value here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum AluError {
    #[error("{name}: not a value op ({why})", name = .0.name(), why = .1)]
    NotValueOp(AluOp, &'static str),
    #[error("{name}: not an instruction of {class:?}", name = .0.name(), class = .1)]
    NotOnClass(AluOp, ChipClass),
    #[error("{name}: operands do not match its form {form:?}", name = .0.name(), form = .1)]
    BadOperands(AluOp, AluForm),
}

/// The OMOD field (ALU_WORD1_OP2 bits [6:5]): the float result scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Omod {
    Off,
    M2,
    M4,
    D2,
}

impl Omod {
    /// The field value (0 off, 1 ×2, 2 ×4, 3 ÷2).
    pub fn from_field(v: u32) -> Omod {
        match v & 3 {
            0 => Omod::Off,
            1 => Omod::M2,
            2 => Omod::M4,
            _ => Omod::D2,
        }
    }
}

/// Instructions of the Evergreen/R7xx list that Cayman lacks (notes issue 19; Mesa).
fn evergreen_only(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        MOVA | MOVA_FLOOR
            | RECIP_INT
            | RECIP_UINT
            | GROUP_SEQ_BEGIN
            | GROUP_SEQ_END
            | SET_CF_IDX0
            | SET_CF_IDX1
            | MULADD_64
            | MUL_LIT_D2
            | MUL_LIT_M2
            | MUL_LIT_M4
            | MULADD_IEEE_D2
            | MULADD_IEEE_M2
            | MULADD_IEEE_M4
    )
}

const W64_1: &[Width] = &[Width::W64];
const W64_2: &[Width] = &[Width::W64, Width::W64];
const W64_3: &[Width] = &[Width::W64, Width::W64, Width::W64];

/// What `op` takes, or why it is not lifted here.
pub fn alu_form(op: AluOp) -> Result<AluForm, AluError> {
    use AluForm::*;
    use AluOp::*;
    let not = |why| Err(AluError::NotValueOp(op, why));
    Ok(match op {
        NOP => return not("no result; PV invalidated by the group lifter"),
        KILLE | KILLGT | KILLGE | KILLNE | KILLGT_UINT | KILLGE_UINT | KILLE_INT | KILLGT_INT
        | KILLGE_INT | KILLNE_INT => return not("pixel kill, control flow"),
        MOVA_INT | MOVA | MOVA_FLOOR => return not("address register write, group lifter"),
        SET_MODE => return not("float mode change, group lifter"),
        SET_LDS_SIZE | LDS_IDX_OP => return not("LDS, memory lifter"),
        GROUP_BARRIER | GROUP_SEQ_BEGIN | GROUP_SEQ_END => return not("synchronisation"),
        SET_CF_IDX0 | SET_CF_IDX1 => return not("CF index register, group lifter"),
        STORE_FLAGS | LOAD_STORE_FLAGS => return not("exception flags, not modelled"),
        INTERP_XY | INTERP_ZW | INTERP_X | INTERP_Z | INTERP_LOAD_P0 | INTERP_LOAD_P10
        | INTERP_LOAD_P20 => return not("pixel interpolation"),
        PRED_SET_CLR => Slot(0),
        FRACT | TRUNC | CEIL | RNDNE | FLOOR | MOV | NOT_INT | FLT_TO_INT | BFREV_INT
        | EXP_IEEE | LOG_CLAMPED | LOG_IEEE | RECIP_CLAMPED | RECIP_FF | RECIP_IEEE
        | RECIPSQRT_CLAMPED | RECIPSQRT_FF | RECIPSQRT_IEEE | SQRT_IEEE | SIN | COS
        | FLT_TO_UINT | INT_TO_FLT | UINT_TO_FLT | FLT32_TO_FLT16_RTZ | FLT32_TO_FLT16
        | FLT16_TO_FLT32 | UBYTE0_FLT | UBYTE1_FLT | UBYTE2_FLT | UBYTE3_FLT | BCNT_INT
        | FFBH_UINT | FFBL_INT | FFBH_INT | FLT_TO_INT_RPI | FLT_TO_INT_FLOOR | MBCNT_32HI_INT
        | OFFSET_TO_FLT | RECIP_INT | RECIP_UINT | PRED_SET_INV | PRED_SET_RESTORE => Slot(1),
        ADD | MUL | MUL_IEEE | MAX | MIN | MAX_DX10 | MIN_DX10 | SETE | SETGT | SETGE | SETNE
        | SETE_DX10 | SETGT_DX10 | SETGE_DX10 | SETNE_DX10 | ASHR_INT | LSHR_INT | LSHL_INT
        | AND_INT | OR_INT | XOR_INT | ADD_INT | SUB_INT | MAX_INT | MIN_INT | MAX_UINT
        | MIN_UINT | SETE_INT | SETGT_INT | SETGE_INT | SETNE_INT | SETGT_UINT | SETGE_UINT
        | ADDC_UINT | SUBB_UINT | MUL_INT24 | MULHI_INT24 | MULLO_INT | MULHI_INT | MULLO_UINT
        | MULHI_UINT | BFM_INT | MULHI_UINT24 | MUL_UINT24 | RECIP_64 | RECIP_CLAMPED_64
        | RECIPSQRT_64 | RECIPSQRT_CLAMPED_64 | SQRT_64 | PRED_SETGT_UINT | PRED_SETGE_UINT
        | PRED_SETE | PRED_SETGT | PRED_SETGE | PRED_SETNE | PRED_SET_POP | PRED_SETE_PUSH
        | PRED_SETGT_PUSH | PRED_SETGE_PUSH | PRED_SETNE_PUSH | PRED_SETE_INT | PRED_SETGT_INT
        | PRED_SETGE_INT | PRED_SETNE_INT | PRED_SETE_PUSH_INT | PRED_SETGT_PUSH_INT
        | PRED_SETGE_PUSH_INT | PRED_SETNE_PUSH_INT | PRED_SETLT_PUSH_INT | PRED_SETLE_PUSH_INT => {
            Slot(2)
        }
        BFE_UINT | BFE_INT | BFI_INT | FMA | MULADD_INT24 | LERP_UINT | BIT_ALIGN_INT
        | BYTE_ALIGN_INT | SAD_ACCUM_UINT | SAD_ACCUM_HI_UINT | MULADD_UINT24 | MULADD
        | MULADD_M2 | MULADD_M4 | MULADD_D2 | MULADD_IEEE | MULADD_IEEE_D2 | MULADD_IEEE_M2
        | MULADD_IEEE_M4 | CNDE | CNDGT | CNDGE | CNDE_INT | CNDGT_INT | CNDGE_INT | MUL_LIT
        | MUL_LIT_D2 | MUL_LIT_M2 | MUL_LIT_M4 => Slot(3),
        BCNT_ACCUM_PREV_INT | MBCNT_32LO_ACCUM_PREV_INT | ADD_PREV => Chained(1),
        SAD_ACCUM_PREV_UINT | DOT | DOT_IEEE | MUL_PREV | MUL_IEEE_PREV | MULADD_PREV
        | MULADD_IEEE_PREV => Chained(2),
        FLT64_TO_FLT32 | FRACT_64 | FREXP_64 => Wide(W64_1),
        FLT32_TO_FLT64 => Wide(&[Width::W32]),
        LDEXP_64 => Wide(&[Width::W32, Width::W64]),
        MUL_64 | ADD_64 | SETE_64 | SETNE_64 | SETGT_64 | SETGE_64 | MIN_64 | MAX_64
        | PRED_SETGT_64 | PRED_SETE_64 | PRED_SETGE_64 => Wide(W64_2),
        MULADD_64 | FMA_64 | CNDNE_64 => Wide(W64_3),
        DOT4 | DOT4_IEEE | CUBE | MAX4 | FLT_TO_UINT4 => Vector,
    })
}

/// Emits `op` on `input` and returns its results. See the module docs for the contract.
pub fn lift_alu(
    b: &mut FunctionBuilder,
    op: AluOp,
    env: &AluEnv,
    input: AluInput<'_>,
) -> Result<AluValue, AluError> {
    let form = alu_form(op)?;
    if env.class == ChipClass::Cayman && evergreen_only(op) {
        return Err(AluError::NotOnClass(op, env.class));
    }
    let bad = AluError::BadOperands(op, form);
    let mut e = Emit {
        b,
        m32: env.f32_mode,
        m64: env.f64_mode,
    };
    match (form, input) {
        (AluForm::Slot(n), AluInput::Slot(s)) if s.len() == n => Ok(slot(&mut e, op, s)),
        (AluForm::Chained(n), AluInput::Chained { srcs, prev }) if srcs.len() == n => {
            Ok(AluValue::Scalar(chained(&mut e, op, srcs, prev)))
        }
        (AluForm::Wide(w), AluInput::Wide(s)) if widths_match(w, s) => Ok(wide(&mut e, op, s)),
        (AluForm::Vector, AluInput::Vector(v)) => Ok(vector(&mut e, op, v)),
        _ => Err(bad),
    }
}

fn widths_match(w: &[Width], s: &[Src]) -> bool {
    w.len() == s.len()
        && w.iter().zip(s).all(|(w, s)| {
            matches!(
                (w, s),
                (Width::W32, Src::W32(_)) | (Width::W64, Src::W64 { .. })
            )
        })
}

/// The output modifier's scale (4.9.1; float results only). One more rounding in the mode.
pub fn omod(b: &mut FunctionBuilder, m: Omod, mode: FloatMode, v: Value) -> Value {
    let k = match m {
        Omod::Off => return v,
        Omod::M2 => 2.0f32,
        Omod::M4 => 4.0,
        Omod::D2 => 0.5,
    };
    let mut e = Emit {
        b,
        m32: mode,
        m64: mode,
    };
    let k = e.k(k.to_bits());
    e.f(Op::Fmul, &[v, k])
}

/// The output clamp to [0, 1] (4.9.1; after [`omod`]). The document gives no NaN rule; NaN
/// gives +0, the DX10 clamp LLVM's R600 back end assumes for its `clamp` bit (AMDGPU `clamp`
/// node: "NaN clamped to 0").
pub fn clamp(b: &mut FunctionBuilder, mode: FloatMode, v: Value) -> Value {
    let mut e = Emit {
        b,
        m32: mode,
        m64: mode,
    };
    e.f(Op::Fclamp { dx10: true }, &[v])
}

// --- single-slot instructions -------------------------------------------------------------

fn slot(e: &mut Emit, op: AluOp, s: &[Value]) -> AluValue {
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
            // ceil, else round to nearest even), so 0.49999997 gives 0.
            let fr = e.f_mode(Op::Ffract, FloatMode::IEEE, &[x]);
            let half = e.k(0.5f32.to_bits());
            let tie = e.f32_in(Op::Fcmp(FloatCC::Eq), FloatMode::IEEE, &[fr, half], I1);
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
            let r = e.b.op_mode(Op::StoF, m, ScalarType::F32, &[x]);
            e.cast(r, I32)
        }
        UINT_TO_FLT => {
            let r = e.b.op_mode(Op::UtoF, m, ScalarType::F32, &[x]);
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
            let r = e.b.op_mode(Op::Fconvert, keep, ScalarType::F32, &[h]);
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
            let r = e.b.op_mode(Op::UtoF, m, ScalarType::F32, &[byte]);
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
            let f = e.b.op_mode(Op::StoF, m, ScalarType::F32, &[v]);
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
/// magnitudes beyond 2^31 and infinities; a NaN by its sign bit.
fn flt_to_int_sat(e: &mut Emit, x: Value, whole: Value) -> Value {
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
fn mbcnt(e: &mut Emit, v: Value) -> Value {
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

// --- chained instructions (the previous slot's result) ---------------------------------------

fn chained(e: &mut Emit, op: AluOp, s: &[Value], prev: Value) -> Value {
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

// --- 64-bit instructions ----------------------------------------------------------------

/// The documented double rule: denormal inputs read as zero ("denorms treated arithmetically
/// and obey rules of appropriate zero", Tables 8.1-8.10).
fn flush_in(m: FloatMode) -> FloatMode {
    FloatMode {
        flush_in: true,
        ..m
    }
}

fn wide(e: &mut Emit, op: AluOp, s: &[Src]) -> AluValue {
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
            let exp = e.b.op_mode(Op::FrexpExp, fm, I32, &[df]);
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
            let r = e.b.op_mode(Op::Ldexp, fm, ScalarType::F64, &[x, d[0]]);
            e.cast(r, I64)
        }
        // Table 8.2: exact; denormals give ±0; a NaN keeps its sign and its mantissa in bits
        // [51:29], signalling NaNs included (not quieted, unlike the IR's fconvert).
        FLT32_TO_FLT64 => {
            let x = d[0];
            let xf = e.cast(x, ScalarType::F32);
            let conv =
                e.b.op_mode(Op::Fconvert, flush_in(e.m32), ScalarType::F64, &[xf]);
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
            let conv =
                e.b.op_mode(Op::Fconvert, flush_in(e.m32), ScalarType::F32, &[x]);
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

// --- reductions over the four vector slots -------------------------------------------------

fn vector(e: &mut Emit, op: AluOp, v: &[[Value; 2]; 4]) -> AluValue {
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
