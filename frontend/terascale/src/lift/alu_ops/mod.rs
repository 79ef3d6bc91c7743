//! The value semantics of every ALU instruction (seed 000 chapter 8.2; notes/hd6900_map.md §4),
//! lifted to IR one slot or one reduction group at a time.
//!
//! # Contract
//! - [`alu_form`] says what an instruction takes ([`AluForm`]) or that it is not a value op
//!   (kills, MOVA*, SET_MODE, barriers, LDS, interpolation, flag moves: the group and control
//!   flow lifters own them).
//! - [`lift_alu`] emits the IR through a [`FunctionBuilder`] and returns the slot results
//!   ([`AluValue`]); [`lift_alu_flagged`] also returns the instruction's float exception
//!   flags (the `fexcept` of every IEEE operation its value is made of: `emit`). **Sources arrive as read, with the neg/abs input modifiers already applied
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

mod group;
mod slot;
mod wide;

use super::emit::Emit;
use crate::AluOp;
use crate::ChipClass;
use group::{chained, vector};
use slot::slot;
use thiserror::Error;
use wavejit_ir::Value;
use wavejit_ir::{FloatMode, FunctionBuilder, Op};
use wide::wide;

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

/// The OMOD field (ALU_WORD1_OP2 bits `[6:5]`): the float result scale.
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
        STORE_FLAGS | LOAD_STORE_FLAGS => return not("exception flags, group lifter"),
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
    lift_with(b, op, env, input, None).map(|(v, _)| v)
}

/// [`lift_alu`], and the instruction's float exception flags (`i32`, the IR's
/// [`wavejit_ir::fpflag`] bits; 0 for an op without float operations).
pub fn lift_alu_flagged(
    b: &mut FunctionBuilder,
    op: AluOp,
    env: &AluEnv,
    input: AluInput<'_>,
) -> Result<(AluValue, Value), AluError> {
    let zero = b.i32(0);
    lift_with(b, op, env, input, Some(zero)).map(|(v, f)| (v, f.unwrap_or(zero)))
}

fn lift_with(
    b: &mut FunctionBuilder,
    op: AluOp,
    env: &AluEnv,
    input: AluInput<'_>,
    flags: Option<Value>,
) -> Result<(AluValue, Option<Value>), AluError> {
    let form = alu_form(op)?;
    if env.class == ChipClass::Cayman && evergreen_only(op) {
        return Err(AluError::NotOnClass(op, env.class));
    }
    let bad = AluError::BadOperands(op, form);
    let mut e = Emit {
        b,
        m32: env.f32_mode,
        m64: env.f64_mode,
        flags,
    };
    let v = match (form, input) {
        (AluForm::Slot(n), AluInput::Slot(s)) if s.len() == n => slot(&mut e, op, s),
        (AluForm::Chained(n), AluInput::Chained { srcs, prev }) if srcs.len() == n => {
            AluValue::Scalar(chained(&mut e, op, srcs, prev))
        }
        (AluForm::Wide(w), AluInput::Wide(s)) if widths_match(w, s) => wide(&mut e, op, s),
        (AluForm::Vector, AluInput::Vector(v)) => vector(&mut e, op, v),
        _ => return Err(bad),
    };
    Ok((v, e.flags))
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
        flags: None,
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
        flags: None,
    };
    e.f(Op::Fclamp { dx10: true }, &[v])
}
