//! The op table: every pure op, one row each. The row is the op's whole definition outside
//! its per-lane result ([`crate::semantics::eval`]): variant and parameters, text name,
//! operand count, typing rule ([`Sig`]) and whether it reads its
//! [`FloatMode`](super::FloatMode). A macro turns the rows into [`Op`] and its methods
//! (`BASE`, `ordinal`, `name`, `from_name`, `arity`, `sig`, `uses_float_mode`,
//! `visit_params`); adding an op is adding a row (and its result in `semantics::eval`).
//!
//! A row is
//! ```text
//! /// docs
//! Variant[(param: Type, ...) | { flag: bool }] = "text_name", ARITY, SIG, MODE;
//! ```
//! - tuple parameters are [`Param`](super::param::Param)s: a [`Choice`](super::Choice) (a
//!   condition, NaN rule, flavour or angle unit, spelled by its own table) or the [`Except`]
//!   an `fexcept` reports on; the text form writes them after the name in their order
//!   (`fsin.clamped.turns`), and their first values make the op's base form;
//! - a `{ name: bool }` field is an optional flag, written `.name` when set (`fclamp.dx10`);
//! - `ARITY` is the operand count, or `reported` for the operand count of the reported op;
//! - `SIG` names the typing rule, a [`Sig`] variant;
//! - `MODE` is `mode` when the op reads its [`FloatMode`](super::FloatMode), `-` otherwise.
//!
//! Groups are separated by comments giving their usual operand and result types.

use super::define::ops;
use super::param::ParamVisitor;
use super::Sig;
use crate::except::Except;
use crate::op::{Angle, FloatCC, IntCC, MinMax, Trans};

#[rustfmt::skip]
ops! {
    // variant                          text name          arity  typing        float mode
    // --- integer, (I, I) -> I; wrapping; division by zero defined in semantics ---
    Iadd                              = "iadd",              2,   Int,          -;
    Isub                              = "isub",              2,   Int,          -;
    Imul                              = "imul",              2,   Int,          -;
    UmulHi                            = "umulhi",            2,   Int,          -;
    SmulHi                            = "smulhi",            2,   Int,          -;
    Udiv                              = "udiv",              2,   Int,          -;
    Urem                              = "urem",              2,   Int,          -;
    Sdiv                              = "sdiv",              2,   Int,          -;
    Srem                              = "srem",              2,   Int,          -;
    UaddSat                           = "uadd_sat",          2,   Int,          -;
    UsubSat                           = "usub_sat",          2,   Int,          -;
    SaddSat                           = "sadd_sat",          2,   Int,          -;
    SsubSat                           = "ssub_sat",          2,   Int,          -;
    Umin                              = "umin",              2,   Int,          -;
    Umax                              = "umax",              2,   Int,          -;
    Smin                              = "smin",              2,   Int,          -;
    Smax                              = "smax",              2,   Int,          -;
    // --- bitwise, (I, I) -> I, i1 allowed ---
    And                               = "and",               2,   Bits,         -;
    Or                                = "or",                2,   Bits,         -;
    Xor                               = "xor",               2,   Bits,         -;
    /// (I, any int) -> I: the amount is taken modulo the bit width.
    Shl                               = "shl",               2,   Shift,        -;
    Lshr                              = "lshr",              2,   Shift,        -;
    Ashr                              = "ashr",              2,   Shift,        -;
    // --- integer unary, I -> I ---
    Not                               = "not",               1,   Bits,         -;
    Iabs                              = "iabs",              1,   Int,          -;
    Popcnt                            = "popcnt",            1,   Int,          -;
    /// Leading zeros; the bit width for 0.
    Clz                               = "clz",               1,   Int,          -;
    /// Trailing zeros; the bit width for 0.
    Ctz                               = "ctz",               1,   Int,          -;
    Bitrev                            = "bitrev",            1,   Int,          -;
    // --- carries, (I, I, i1) -> i1 ---
    /// Carry out of `a + b + cin`.
    AddCarryOut                       = "add_carry_out",     3,   Carry,        -;
    /// Borrow out of `a - b - bin` (unsigned).
    SubBorrowOut                      = "sub_borrow_out",    3,   Carry,        -;
    // --- bit fields, i32/i64 ---
    /// (x, offset, width) -> x[offset +: width] zero-extended; offset and width taken modulo
    /// the bit width, width 0 gives 0.
    Ubfe                              = "ubfe",              3,   BitField,     -;
    /// As `Ubfe`, sign-extended from the field's top bit.
    Sbfe                              = "sbfe",              3,   BitField,     -;
    /// (mask, a, b) -> (a & mask) | (b & !mask).
    Bfi                               = "bfi",               3,   Int32Or64,    -;
    /// (width, offset) -> ((1 << width) - 1) << offset, both modulo 32. i32.
    Bfm                               = "bfm",               2,   I32,          -;
    /// (hi, lo, shift) -> low 32 bits of ({hi, lo} >> (shift & 31)). i32.
    BitAlign                          = "bitalign",          3,   I32,          -;
    /// (hi, lo, shift) -> low 32 bits of ({hi, lo} >> (8 * (shift & 3))). i32.
    ByteAlign                         = "bytealign",         3,   I32,          -;
    // --- compare and select ---
    /// (I, I) -> i1.
    Icmp(cc: IntCC)                   = "icmp",              2,   IntCompare,   -;
    /// (F, F) -> i1.
    Fcmp(cc: FloatCC)                 = "fcmp",              2,   FloatCompare, mode;
    /// (F, i32 class mask) -> i1; mask bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
    /// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
    Fclass                            = "fclass",            2,   FloatClass,   -;
    /// (i1, T, T) -> T.
    Select                            = "select",            3,   Select,       -;
    // --- width and kind changes; the result type is the instruction's type ---
    Zext                              = "zext",              1,   Widen,        -;
    Sext                              = "sext",              1,   Widen,        -;
    Trunc                             = "trunc",             1,   Narrow,       -;
    /// Same width, reinterpreted.
    Bitcast                           = "bitcast",           1,   Bitcast,      -;
    /// (lo, hi) -> twice the width.
    Concat                            = "concat",            2,   Concat,       -;
    /// F -> I, toward zero, saturating, NaN -> 0.
    FtoU                              = "ftou",              1,   FloatToInt,   mode;
    FtoS                              = "ftos",              1,   FloatToInt,   mode;
    /// I -> F, rounded per mode.
    UtoF                              = "utof",              1,   IntToFloat,   mode;
    StoF                              = "stof",              1,   IntToFloat,   mode;
    /// F -> F of another width, rounded per mode.
    Fconvert                          = "fconvert",          1,   FloatToFloat, mode;
    // --- float arithmetic, (F, F) -> F ---
    Fadd                              = "fadd",              2,   Float,        mode;
    Fsub                              = "fsub",              2,   Float,        mode;
    Fmul                              = "fmul",              2,   Float,        mode;
    /// DX9 multiply: +-0 times anything (inf and NaN included) is +0.
    FmulLegacy                        = "fmul_legacy",       2,   Float,        mode;
    Fdiv                              = "fdiv",              2,   Float,        mode;
    Fmin(rule: MinMax)                = "fmin",              2,   Float,        mode;
    Fmax(rule: MinMax)                = "fmax",              2,   Float,        mode;
    /// (F, i32) -> F.
    Ldexp                             = "ldexp",             2,   Ldexp,        mode;
    /// (F, F) -> F: magnitude of the first, sign of the second.
    Fcopysign                         = "fcopysign",         2,   Float,        -;
    // --- float ternary, (F, F, F) -> F ---
    /// Fused multiply-add, one rounding.
    Fma                               = "fma",               3,   Float,        mode;
    /// Unfused: the product is rounded (and flushed per mode), then added.
    Fmad                              = "fmad",              3,   Float,        mode;
    /// Unfused with the DX9 multiply rule.
    FmadLegacy                        = "fmad_legacy",       3,   Float,        mode;
    /// Median of three (GCN `v_med3_f32`: with any NaN operand, the min of the three).
    Fmed3(rule: MinMax)               = "fmed3",             3,   Float,        mode;
    /// (I, I, I) -> I.
    Umed3                             = "umed3",             3,   Int,          -;
    Smed3                             = "smed3",             3,   Int,          -;
    // --- float unary, F -> F ---
    Fneg                              = "fneg",              1,   Float,        -;
    Fabs                              = "fabs",              1,   Float,        -;
    Ffloor                            = "ffloor",            1,   Float,        mode;
    Fceil                             = "fceil",             1,   Float,        mode;
    Ftrunc                            = "ftrunc",            1,   Float,        mode;
    /// Round to nearest integer, ties to even.
    Frint                             = "frint",             1,   Float,        mode;
    /// x - floor(x), clamped below 1.0.
    Ffract                            = "ffract",            1,   Float,        mode;
    /// Quiets NaNs and flushes per mode; otherwise identity.
    Fcanonicalize                     = "fcanonicalize",     1,   Float,        mode;
    /// Clamp to [0, 1]; NaN gives 0 when `dx10` (GCN DX10_CLAMP), else NaN.
    Fclamp { dx10: bool }             = "fclamp",            1,   Float,        mode;
    Fsqrt(flavour: Trans)             = "fsqrt",             1,   Float,        mode;
    Frcp(flavour: Trans)              = "frcp",              1,   Float,        mode;
    Frsq(flavour: Trans)              = "frsq",              1,   Float,        mode;
    Fexp2(flavour: Trans)             = "fexp2",             1,   Float,        mode;
    Flog2(flavour: Trans)             = "flog2",             1,   Float,        mode;
    Fsin(flavour: Trans, unit: Angle) = "fsin",              1,   Float,        mode;
    Fcos(flavour: Trans, unit: Angle) = "fcos",              1,   Float,        mode;
    /// Mantissa in [0.5, 1) with the sign of x (NaN/inf pass through).
    FrexpMant                         = "frexp_mant",        1,   Float,        mode;
    /// F -> i32 exponent (0 for NaN/inf/0).
    FrexpExp                          = "frexp_exp",         1,   FloatToI32,   mode;
    // --- GPU-specific float helpers (GCN division and trig sequences, cube maps, packing) ---
    /// (numerator, denominator, selected) -> scaled value (GCN `v_div_scale`).
    DivScale                          = "div_scale",         3,   Float,        mode;
    /// Same operands -> i1: the VCC flag `v_div_scale` writes.
    DivScaleFlag                      = "div_scale_flag",    3,   FloatFlag3,   mode;
    /// (a, b, c, vcc: i1) -> fma(a, b, c) scaled by 2^+-64 (f32) / 2^+-128 (f64) when vcc: up
    /// when |c| >= 2, down otherwise; one rounding. f16: a plain fma.
    DivFmas                           = "div_fmas",          4,   DivFmas,      mode;
    /// (quotient, denominator, numerator) -> fixed-up quotient (GCN `v_div_fixup`).
    DivFixup                          = "div_fixup",         3,   Float,        mode;
    /// (f64, i32 segment) -> f64 (GCN `v_trig_preop_f64`).
    TrigPreop                         = "trig_preop",        2,   TrigPreop,    mode;
    /// (x, y, z) -> f32 (GCN `v_cubeid/sc/tc/ma_f32`).
    CubeId                            = "cubeid",            3,   F32,          mode;
    CubeSc                            = "cubesc",            3,   F32,          mode;
    CubeTc                            = "cubetc",            3,   F32,          mode;
    CubeMa                            = "cubema",            3,   F32,          mode;
    /// (a: f32, b: f32) -> i32: two f16 rounded toward zero, a in the low half.
    CvtPkrtzF16                       = "cvt_pkrtz_f16",     2,   PackF32,      -;
    /// (a: f32, b: f32) -> i32: two snorm/unorm 16-bit values.
    CvtPknormI16                      = "cvt_pknorm_i16",    2,   PackF32,      -;
    CvtPknormU16                      = "cvt_pknorm_u16",    2,   PackF32,      -;
    /// (f32, byte index: i32, accumulator: i32) -> i32 (GCN `v_cvt_pk_u8_f32`).
    CvtPkU8F32                        = "cvt_pk_u8_f32",     3,   CvtPkU8,      -;
    // --- byte sums (GCN SAD family), i32 ---
    /// (a, b, acc) -> acc + sum over bytes |a.b - b.b|.
    SadU8                             = "sad_u8",            3,   I32,          -;
    /// As SadU8 with the sum shifted left 16.
    SadHiU8                           = "sad_hi_u8",         3,   I32,          -;
    /// Over 16-bit halves.
    SadU16                            = "sad_u16",           3,   I32,          -;
    /// acc + |a - b|.
    SadU32                            = "sad_u32",           3,   I32,          -;
    /// Masked SAD: bytes of `b` equal to 0 are skipped.
    MsadU8                            = "msad_u8",           3,   I32,          -;
    /// (a, b, c) -> byte-wise rounded average (GCN `v_lerp_u8`).
    LerpU8                            = "lerp_u8",           3,   I32,          -;
    // --- exception flags ---
    /// (the operands of the named op) -> i32: the IEEE 754 exception flags that op raises on
    /// them in this mode ([`crate::except`]: bit order; [`crate::semantics::except`]: rules).
    Fexcept(reported: Except)         = "fexcept",     reported,  Fexcept,      mode;
}
