//! Pure operations: what an [`InstKind::Pure`](crate::InstKind::Pure) instruction computes.
//!
//! Ops are generic over shape: the same op computes a uniform value from uniform operands and a
//! lane value when any operand is lane-shaped (the uniform operands are broadcast). Each op's
//! per-lane result is defined once, in [`crate::semantics::eval`]; the operand and result typing
//! rules are defined once, in [`Op::check`].
//!
//! Float behaviour is explicit: flavours are separate ops (IEEE vs legacy multiply, fused vs
//! unfused mad, min/max NaN rules, transcendental flavours) and every float op carries a
//! [`FloatMode`] (denormal flushing of inputs and outputs, rounding).

use crate::except::Except;
use crate::types::ScalarType;
use std::fmt;

/// Integer comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntCC {
    Eq,
    Ne,
    Ult,
    Ule,
    Ugt,
    Uge,
    Slt,
    Sle,
    Sgt,
    Sge,
}

/// Float comparison. Ordered predicates are false when either operand is NaN; the `U*`
/// predicates ("unordered or ...") are true then. `Ord`/`Uno` test for NaN only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatCC {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Ordered and not equal (`lg`).
    One,
    Ord,
    Uno,
    Ueq,
    /// Unordered or not equal: the IEEE `!=` (GCN `neq`).
    Une,
    Ult,
    Ule,
    Ugt,
    Uge,
}

/// NaN and signed-zero rule of a float min/max.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MinMax {
    /// IEEE 754-2008 minNum/maxNum: a quiet NaN operand is ignored; a signalling NaN operand
    /// gives a quiet NaN (GCN with IEEE_MODE=1). -0 orders below +0.
    Ieee,
    /// Return the non-NaN operand; NaN only if both are NaN (GCN IEEE_MODE=0, DX10). -0 < +0.
    NonIeee,
    /// `a < b ? a : b` for min (`a > b ? a : b` for max): a NaN yields `b` (GCN `_legacy`,
    /// TeraScale DX9 MIN/MAX).
    Legacy,
}

/// Flavour of a transcendental approximation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Trans {
    /// IEEE special cases (rcp(0) = inf, rsq(-x) = NaN, ...).
    Ieee,
    /// Results clamped to +-max finite instead of infinity (TeraScale `_CLAMPED`, GCN `_clamp`).
    Clamped,
    /// Fixed-function: infinities become 0 (TeraScale `_FF`).
    Ff,
    /// GCN `_legacy` (gfx6/7 `v_rcp_legacy_f32`, `v_rsq_legacy_f32`): an rcp/rsq result that
    /// would be infinite is ±0 with the input's sign (CLRX GcnInstrsVop1.md); exp2, log2, sqrt,
    /// sin and cos behave as `Ieee`.
    Legacy,
}

/// Rounding mode of a float result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Round {
    #[default]
    NearestEven,
    TowardPositive,
    TowardNegative,
    TowardZero,
}

/// Float environment of one op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FloatMode {
    /// Denormal inputs are read as zero of the same sign.
    pub flush_in: bool,
    /// Denormal results are written as zero of the same sign.
    pub flush_out: bool,
    pub round: Round,
}

impl FloatMode {
    /// IEEE defaults: denormals kept, round to nearest even.
    pub const IEEE: FloatMode = FloatMode {
        flush_in: false,
        flush_out: false,
        round: Round::NearestEven,
    };
    /// Denormals flushed on input and output, round to nearest even.
    pub const FLUSH: FloatMode = FloatMode {
        flush_in: true,
        flush_out: true,
        round: Round::NearestEven,
    };

    /// Denormal inputs read as zero, denormal results kept.
    pub const FLUSH_IN: FloatMode = FloatMode {
        flush_in: true,
        flush_out: false,
        round: Round::NearestEven,
    };
    /// Denormal inputs kept, denormal results written as zero.
    pub const FLUSH_OUT: FloatMode = FloatMode {
        flush_in: false,
        flush_out: true,
        round: Round::NearestEven,
    };

    pub fn is_default(self) -> bool {
        self == FloatMode::IEEE
    }
}

/// Units of the angle operand of `fsin`/`fcos`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Angle {
    Radians,
    /// Full turns: sin(2*pi*x) (GCN `v_sin_f32`, TeraScale SIN/COS). Inputs outside the hardware
    /// domain [-256, 256] give sin 0 and cos 1.
    Turns,
}

/// A pure operation. The comment on each group gives its operands and result type; `T` is the
/// result type, `F` a float type, `I` an integer type (`i1` to `i64` unless noted).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    // --- integer, (I, I) -> I; wrapping; division by zero defined in semantics ---
    Iadd,
    Isub,
    Imul,
    UmulHi,
    SmulHi,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    UaddSat,
    UsubSat,
    SaddSat,
    SsubSat,
    Umin,
    Umax,
    Smin,
    Smax,
    // --- bitwise, (I, I) -> I, i1 allowed ---
    And,
    Or,
    Xor,
    /// (I, any int) -> I: the amount is taken modulo the bit width.
    Shl,
    Lshr,
    Ashr,
    // --- integer unary, I -> I ---
    Not,
    Iabs,
    Popcnt,
    /// Leading zeros; the bit width for 0.
    Clz,
    /// Trailing zeros; the bit width for 0.
    Ctz,
    Bitrev,
    // --- carries, (I, I, i1) -> i1 ---
    /// Carry out of `a + b + cin`.
    AddCarryOut,
    /// Borrow out of `a - b - bin` (unsigned).
    SubBorrowOut,
    // --- bit fields, i32/i64 ---
    /// (x, offset, width) -> x[offset +: width] zero-extended; offset and width taken modulo
    /// the bit width, width 0 gives 0.
    Ubfe,
    /// As `Ubfe`, sign-extended from the field's top bit.
    Sbfe,
    /// (mask, a, b) -> (a & mask) | (b & !mask).
    Bfi,
    /// (width, offset) -> ((1 << width) - 1) << offset, both modulo 32. i32.
    Bfm,
    /// (hi, lo, shift) -> low 32 bits of ({hi, lo} >> (shift & 31)). i32.
    BitAlign,
    /// (hi, lo, shift) -> low 32 bits of ({hi, lo} >> (8 * (shift & 3))). i32.
    ByteAlign,
    // --- compare and select ---
    /// (I, I) -> i1.
    Icmp(IntCC),
    /// (F, F) -> i1.
    Fcmp(FloatCC),
    /// (F, i32 class mask) -> i1; mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
    /// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
    Fclass,
    /// (i1, T, T) -> T.
    Select,
    // --- width and kind changes; the result type is the instruction's type ---
    Zext,
    Sext,
    Trunc,
    /// Same width, reinterpreted.
    Bitcast,
    /// (lo, hi) -> twice the width.
    Concat,
    /// F -> I, toward zero, saturating, NaN -> 0.
    FtoU,
    FtoS,
    /// I -> F, rounded per mode.
    UtoF,
    StoF,
    /// F -> F of another width, rounded per mode.
    Fconvert,
    // --- float arithmetic, (F, F) -> F ---
    Fadd,
    Fsub,
    Fmul,
    /// DX9 multiply: +-0 times anything (inf and NaN included) is +0.
    FmulLegacy,
    Fdiv,
    Fmin(MinMax),
    Fmax(MinMax),
    /// (F, i32) -> F.
    Ldexp,
    /// (F, F) -> F: magnitude of the first, sign of the second.
    Fcopysign,
    // --- float ternary, (F, F, F) -> F ---
    /// Fused multiply-add, one rounding.
    Fma,
    /// Unfused: the product is rounded (and flushed per mode), then added.
    Fmad,
    /// Unfused with the DX9 multiply rule.
    FmadLegacy,
    /// Median of three (GCN `v_med3_f32`: with any NaN operand, the min of the three).
    Fmed3(MinMax),
    /// (I, I, I) -> I.
    Umed3,
    Smed3,
    // --- float unary, F -> F ---
    Fneg,
    Fabs,
    Ffloor,
    Fceil,
    Ftrunc,
    /// Round to nearest integer, ties to even.
    Frint,
    /// x - floor(x), clamped below 1.0.
    Ffract,
    /// Quiets NaNs and flushes per mode; otherwise identity.
    Fcanonicalize,
    /// Clamp to [0, 1]; NaN gives 0 when `dx10` (GCN DX10_CLAMP), else NaN.
    Fclamp {
        dx10: bool,
    },
    Fsqrt(Trans),
    Frcp(Trans),
    Frsq(Trans),
    Fexp2(Trans),
    Flog2(Trans),
    Fsin(Trans, Angle),
    Fcos(Trans, Angle),
    /// Mantissa in [0.5, 1) with the sign of x (NaN/inf pass through).
    FrexpMant,
    /// F -> i32 exponent (0 for NaN/inf/0).
    FrexpExp,
    // --- GPU-specific float helpers (GCN division and trig sequences, cube maps, packing) ---
    /// (numerator, denominator, selected) -> scaled value (GCN `v_div_scale`).
    DivScale,
    /// Same operands -> i1: the VCC flag `v_div_scale` writes.
    DivScaleFlag,
    /// (a, b, c, vcc: i1) -> fma(a, b, c) scaled by 2^+-64 (f32) / 2^+-128 (f64) when vcc: up
    /// when |c| >= 2, down otherwise; one rounding. f16: a plain fma.
    DivFmas,
    /// (quotient, denominator, numerator) -> fixed-up quotient (GCN `v_div_fixup`).
    DivFixup,
    /// (f64, i32 segment) -> f64 (GCN `v_trig_preop_f64`).
    TrigPreop,
    /// (x, y, z) -> f32 (GCN `v_cubeid/sc/tc/ma_f32`).
    CubeId,
    CubeSc,
    CubeTc,
    CubeMa,
    /// (a: f32, b: f32) -> i32: two f16 rounded toward zero, a in the low half.
    CvtPkrtzF16,
    /// (a: f32, b: f32) -> i32: two snorm/unorm 16-bit values.
    CvtPknormI16,
    CvtPknormU16,
    /// (f32, byte index: i32, accumulator: i32) -> i32 (GCN `v_cvt_pk_u8_f32`).
    CvtPkU8F32,
    // --- byte sums (GCN SAD family), i32 ---
    /// (a, b, acc) -> acc + sum over bytes |a.b - b.b|.
    SadU8,
    /// As SadU8 with the sum shifted left 16.
    SadHiU8,
    /// Over 16-bit halves.
    SadU16,
    /// acc + |a - b|.
    SadU32,
    /// Masked SAD: bytes of `b` equal to 0 are skipped.
    MsadU8,
    /// (a, b, c) -> byte-wise rounded average (GCN `v_lerp_u8`).
    LerpU8,
    // --- exception flags ---
    /// (the operands of the named op) -> i32: the IEEE 754 exception flags that op raises on
    /// them in this mode ([`crate::except`]: bit order; [`crate::semantics::except`]: rules).
    Fexcept(Except),
}

/// Why an op rejects its operand types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError(pub String);

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

use ScalarType::*;

fn want(cond: bool, op: Op, what: &str) -> Result<(), TypeError> {
    if cond {
        Ok(())
    } else {
        Err(TypeError(format!("{}: {what}", op.name())))
    }
}

impl Op {
    /// Number of operands.
    pub fn arity(self) -> usize {
        use Op::*;
        match self {
            Not
            | Iabs
            | Popcnt
            | Clz
            | Ctz
            | Bitrev
            | Zext
            | Sext
            | Trunc
            | Bitcast
            | FtoU
            | FtoS
            | UtoF
            | StoF
            | Fconvert
            | Fneg
            | Fabs
            | Ffloor
            | Fceil
            | Ftrunc
            | Frint
            | Ffract
            | Fcanonicalize
            | Fclamp { .. }
            | Fsqrt(_)
            | Frcp(_)
            | Frsq(_)
            | Fexp2(_)
            | Flog2(_)
            | Fsin(..)
            | Fcos(..)
            | FrexpMant
            | FrexpExp => 1,
            Iadd | Isub | Imul | UmulHi | SmulHi | Udiv | Urem | Sdiv | Srem | UaddSat
            | UsubSat | SaddSat | SsubSat | Umin | Umax | Smin | Smax | And | Or | Xor | Shl
            | Lshr | Ashr | Bfm | Icmp(_) | Fcmp(_) | Fclass | Concat | Fadd | Fsub | Fmul
            | FmulLegacy | Fdiv | Fmin(_) | Fmax(_) | Ldexp | Fcopysign | TrigPreop
            | CvtPkrtzF16 | CvtPknormI16 | CvtPknormU16 => 2,
            AddCarryOut | SubBorrowOut | Ubfe | Sbfe | Bfi | BitAlign | ByteAlign | Select
            | Fma | Fmad | FmadLegacy | Fmed3(_) | Umed3 | Smed3 | DivScale | DivScaleFlag
            | DivFixup | CubeId | CubeSc | CubeTc | CubeMa | CvtPkU8F32 | SadU8 | SadHiU8
            | SadU16 | SadU32 | MsadU8 | LerpU8 => 3,
            DivFmas => 4,
            Fexcept(k) => k.op().arity(),
        }
    }

    /// Whether the op reads its [`FloatMode`] (float arithmetic, conversions to float).
    pub fn uses_float_mode(self) -> bool {
        use Op::*;
        matches!(
            self,
            UtoF | StoF
                | Fconvert
                | Fadd
                | Fsub
                | Fmul
                | FmulLegacy
                | Fdiv
                | Fmin(_)
                | Fmax(_)
                | Ldexp
                | Fma
                | Fmad
                | FmadLegacy
                | Fmed3(_)
                | Ffloor
                | Fceil
                | Ftrunc
                | Frint
                | Ffract
                | Fcanonicalize
                | Fclamp { .. }
                | Fsqrt(_)
                | Frcp(_)
                | Frsq(_)
                | Fexp2(_)
                | Flog2(_)
                | Fsin(..)
                | Fcos(..)
                | FrexpMant
                | FrexpExp
                | DivScale
                | DivScaleFlag
                | DivFmas
                | DivFixup
                | TrigPreop
                | CubeId
                | CubeSc
                | CubeTc
                | CubeMa
                | Fcmp(_)
                | FtoU
                | FtoS
                | Fexcept(_)
        )
    }

    /// Checks operand scalar types against the op and the result type `ty`.
    /// The single definition of each op's typing rule; the verifier and builder call it.
    pub fn check(self, ty: ScalarType, args: &[ScalarType]) -> Result<(), TypeError> {
        use Op::*;
        let op = self;
        want(args.len() == self.arity(), op, "wrong number of operands")?;
        let all = |t: ScalarType| args.iter().all(|&a| a == t);
        let int_n = |t: ScalarType| t.is_int() && t != I1;
        match self {
            Iadd | Isub | Imul | UmulHi | SmulHi | Udiv | Urem | Sdiv | Srem | UaddSat
            | UsubSat | SaddSat | SsubSat | Umin | Umax | Smin | Smax | Iabs | Popcnt | Clz
            | Ctz | Bitrev | Umed3 | Smed3 => want(
                int_n(ty) && all(ty),
                op,
                "operands and result must be one integer type",
            ),
            And | Or | Xor | Not => want(
                ty.is_int() && all(ty),
                op,
                "operands and result must be one integer type",
            ),
            Shl | Lshr | Ashr => want(
                int_n(ty) && args[0] == ty && int_n(args[1]),
                op,
                "value and result must match; amount an integer",
            ),
            AddCarryOut | SubBorrowOut => want(
                ty == I1 && int_n(args[0]) && args[1] == args[0] && args[2] == I1,
                op,
                "(I, I, i1) -> i1",
            ),
            Ubfe | Sbfe => want(
                matches!(ty, I32 | I64) && args[0] == ty && args[1] == I32 && args[2] == I32,
                op,
                "(i32|i64, i32, i32) -> same",
            ),
            Bfi => want(
                matches!(ty, I32 | I64) && all(ty),
                op,
                "operands and result i32/i64",
            ),
            Bfm | BitAlign | ByteAlign | SadU8 | SadHiU8 | SadU16 | SadU32 | MsadU8 | LerpU8 => {
                want(ty == I32 && all(I32), op, "i32 operands and result")
            }
            Icmp(_) => want(
                ty == I1 && args[0].is_int() && args[0] == args[1],
                op,
                "(I, I) -> i1",
            ),
            Fcmp(_) => want(
                ty == I1 && args[0].is_float() && args[0] == args[1],
                op,
                "(F, F) -> i1",
            ),
            Fclass => want(
                ty == I1 && args[0].is_float() && args[1] == I32,
                op,
                "(F, i32) -> i1",
            ),
            Select => want(
                args[0] == I1 && args[1] == ty && args[2] == ty,
                op,
                "(i1, T, T) -> T",
            ),
            Zext | Sext => want(
                ty.is_int() && args[0].is_int() && ty.bits() > args[0].bits(),
                op,
                "integer widening",
            ),
            Trunc => want(
                ty.is_int() && args[0].is_int() && ty.bits() < args[0].bits(),
                op,
                "integer narrowing",
            ),
            Bitcast => want(ty.bits() == args[0].bits() && ty != I1, op, "same width"),
            Concat => want(
                ty.is_int() && ty.bits() == 2 * args[0].bits() && args[0] == args[1],
                op,
                "(I, I) -> I of twice the width",
            ),
            FtoU | FtoS => want(int_n(ty) && args[0].is_float(), op, "F -> I"),
            UtoF | StoF => want(ty.is_float() && int_n(args[0]), op, "I -> F"),
            Fconvert => want(
                ty.is_float() && args[0].is_float() && ty != args[0],
                op,
                "F -> F of another width",
            ),
            Fadd
            | Fsub
            | Fmul
            | FmulLegacy
            | Fdiv
            | Fmin(_)
            | Fmax(_)
            | Fcopysign
            | Fma
            | Fmad
            | FmadLegacy
            | Fmed3(_)
            | Fneg
            | Fabs
            | Ffloor
            | Fceil
            | Ftrunc
            | Frint
            | Ffract
            | Fcanonicalize
            | Fclamp { .. }
            | Fsqrt(_)
            | Frcp(_)
            | Frsq(_)
            | Fexp2(_)
            | Flog2(_)
            | Fsin(..)
            | Fcos(..)
            | FrexpMant
            | DivScale
            | DivFixup => want(
                ty.is_float() && all(ty),
                op,
                "operands and result must be one float type",
            ),
            DivScaleFlag => want(
                ty == I1 && args[0].is_float() && all(args[0]),
                op,
                "(F, F, F) -> i1",
            ),
            DivFmas => want(
                ty.is_float() && args[..3].iter().all(|&a| a == ty) && args[3] == I1,
                op,
                "(F, F, F, i1) -> F",
            ),
            Ldexp => want(
                ty.is_float() && args[0] == ty && args[1] == I32,
                op,
                "(F, i32) -> F",
            ),
            FrexpExp => want(ty == I32 && args[0].is_float(), op, "F -> i32"),
            TrigPreop => want(
                ty == F64 && args[0] == F64 && args[1] == I32,
                op,
                "(f64, i32) -> f64",
            ),
            CubeId | CubeSc | CubeTc | CubeMa => want(ty == F32 && all(F32), op, "f32"),
            CvtPkrtzF16 | CvtPknormI16 | CvtPknormU16 => {
                want(ty == I32 && all(F32), op, "(f32, f32) -> i32")
            }
            CvtPkU8F32 => want(
                ty == I32 && args[0] == F32 && args[1] == I32 && args[2] == I32,
                op,
                "(f32, i32, i32) -> i32",
            ),
            Fexcept(k) => {
                want(ty == I32, op, "the flags are an i32")?;
                let inner = k
                    .op_type(args)
                    .ok_or_else(|| TypeError(format!("{}: no operands", op.name())))?;
                k.op()
                    .check(inner, args)
                    .map_err(|e| TypeError(format!("{}: {e}", op.name())))
            }
        }
    }

    /// The op's name in the text form (flavour parameters are printed separately).
    pub fn name(self) -> &'static str {
        use Op::*;
        match self {
            Iadd => "iadd",
            Isub => "isub",
            Imul => "imul",
            UmulHi => "umulhi",
            SmulHi => "smulhi",
            Udiv => "udiv",
            Urem => "urem",
            Sdiv => "sdiv",
            Srem => "srem",
            UaddSat => "uadd_sat",
            UsubSat => "usub_sat",
            SaddSat => "sadd_sat",
            SsubSat => "ssub_sat",
            Umin => "umin",
            Umax => "umax",
            Smin => "smin",
            Smax => "smax",
            And => "and",
            Or => "or",
            Xor => "xor",
            Shl => "shl",
            Lshr => "lshr",
            Ashr => "ashr",
            Not => "not",
            Iabs => "iabs",
            Popcnt => "popcnt",
            Clz => "clz",
            Ctz => "ctz",
            Bitrev => "bitrev",
            AddCarryOut => "add_carry_out",
            SubBorrowOut => "sub_borrow_out",
            Ubfe => "ubfe",
            Sbfe => "sbfe",
            Bfi => "bfi",
            Bfm => "bfm",
            BitAlign => "bitalign",
            ByteAlign => "bytealign",
            Icmp(_) => "icmp",
            Fcmp(_) => "fcmp",
            Fclass => "fclass",
            Select => "select",
            Zext => "zext",
            Sext => "sext",
            Trunc => "trunc",
            Bitcast => "bitcast",
            Concat => "concat",
            FtoU => "ftou",
            FtoS => "ftos",
            UtoF => "utof",
            StoF => "stof",
            Fconvert => "fconvert",
            Fadd => "fadd",
            Fsub => "fsub",
            Fmul => "fmul",
            FmulLegacy => "fmul_legacy",
            Fdiv => "fdiv",
            Fmin(_) => "fmin",
            Fmax(_) => "fmax",
            Ldexp => "ldexp",
            Fcopysign => "fcopysign",
            Fma => "fma",
            Fmad => "fmad",
            FmadLegacy => "fmad_legacy",
            Fmed3(_) => "fmed3",
            Umed3 => "umed3",
            Smed3 => "smed3",
            Fneg => "fneg",
            Fabs => "fabs",
            Ffloor => "ffloor",
            Fceil => "fceil",
            Ftrunc => "ftrunc",
            Frint => "frint",
            Ffract => "ffract",
            Fcanonicalize => "fcanonicalize",
            Fclamp { .. } => "fclamp",
            Fsqrt(_) => "fsqrt",
            Frcp(_) => "frcp",
            Frsq(_) => "frsq",
            Fexp2(_) => "fexp2",
            Flog2(_) => "flog2",
            Fsin(..) => "fsin",
            Fcos(..) => "fcos",
            FrexpMant => "frexp_mant",
            FrexpExp => "frexp_exp",
            DivScale => "div_scale",
            DivScaleFlag => "div_scale_flag",
            DivFmas => "div_fmas",
            DivFixup => "div_fixup",
            TrigPreop => "trig_preop",
            CubeId => "cubeid",
            CubeSc => "cubesc",
            CubeTc => "cubetc",
            CubeMa => "cubema",
            CvtPkrtzF16 => "cvt_pkrtz_f16",
            CvtPknormI16 => "cvt_pknorm_i16",
            CvtPknormU16 => "cvt_pknorm_u16",
            CvtPkU8F32 => "cvt_pk_u8_f32",
            SadU8 => "sad_u8",
            SadHiU8 => "sad_hi_u8",
            SadU16 => "sad_u16",
            SadU32 => "sad_u32",
            MsadU8 => "msad_u8",
            LerpU8 => "lerp_u8",
            Fexcept(_) => "fexcept",
        }
    }
}
