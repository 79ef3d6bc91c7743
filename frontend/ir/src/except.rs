//! IEEE 754 exception flags as values: which float operation [`Op::Fexcept`] reports on, and
//! the bit order of its result.
//!
//! `fexcept.K a, b, ...` takes exactly the operands of the float op `K` names (same types, same
//! [`crate::FloatMode`]) and returns, as an `i32`, the exception flags that op raises on them
//! ([`crate::semantics::except`] defines which). The op's value is not computed; a lifter that
//! tracks flags emits the op and its `fexcept` side by side and ORs the flags into a register
//! of its own.
//!
//! # Bit order ([`fpflag`])
//! IEEE 754-2008 §7 names five exceptions but no encoding. The bits are x86 MXCSR's status
//! order (bit 0 invalid, 1 denormal operand, 2 division by zero, 3 overflow, 4 underflow,
//! 5 inexact), the de-facto ISA-neutral layout that also carries the denormal-operand flag
//! IEEE leaves out. Bits 6..31 are always 0.
//!
//! # Covered ops
//! The arithmetic IEEE 754 defines exceptions for: `+ - * /`, fused and unfused multiply-add
//! (and the DX9 multiply), min/max, comparisons, rounding to integral, `fract`, `ldexp`,
//! `frexp`, the transcendentals, and conversions (float/integer and between float widths; a
//! conversion names its result type, the one thing the operands do not give). Ops that only
//! move or inspect bits (`fneg fabs fcopysign fclass select bitcast`) raise nothing by IEEE
//! 754-2008 §5.5.1 and have no `fexcept` form; neither have the GPU helper ops (division
//! scale/fixup, cube maps, packing, `fmed3`, `fclamp`), which IEEE does not define.

use crate::op::{Angle, FloatCC, MinMax, Op, Trans};
use crate::types::ScalarType;

/// The flag bits of an [`Op::Fexcept`] result (x86 MXCSR status order; see the module docs).
pub mod fpflag {
    /// Invalid operation: a signalling NaN operand, ∞-∞, 0·∞, 0/0, ∞/∞, sqrt/log of a
    /// negative, an unrepresentable float-to-integer conversion, ...
    pub const INVALID: u32 = 1 << 0;
    /// An operand was denormal (after input flushing: a flushed operand is a zero).
    pub const DENORMAL: u32 = 1 << 1;
    /// An exact infinite result from finite operands (x/0, log(0), rcp(0), rsq(0)).
    pub const DIV_BY_ZERO: u32 = 1 << 2;
    /// The rounded result exceeded the largest finite value.
    pub const OVERFLOW: u32 = 1 << 3;
    /// The result was tiny (detected after rounding) and inexact.
    pub const UNDERFLOW: u32 = 1 << 4;
    /// The delivered result differs from the exact one.
    pub const INEXACT: u32 = 1 << 5;
    /// Every flag.
    pub const ALL: u32 = 0x3f;
}

/// The float operation whose exception flags an [`Op::Fexcept`] computes. Each variant is the
/// [`Op`] of the same name with the same parameters (see [`Except::op`]); conversions also
/// name their result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Except {
    Fadd,
    Fsub,
    Fmul,
    FmulLegacy,
    Fdiv,
    Fma,
    Fmad,
    FmadLegacy,
    Fmin(MinMax),
    Fmax(MinMax),
    Fcmp(FloatCC),
    Ldexp,
    Ffloor,
    Fceil,
    Ftrunc,
    Frint,
    Ffract,
    Fcanonicalize,
    Fsqrt(Trans),
    Frcp(Trans),
    Frsq(Trans),
    Fexp2(Trans),
    Flog2(Trans),
    Fsin(Trans, Angle),
    Fcos(Trans, Angle),
    FrexpMant,
    FrexpExp,
    /// Float to the given integer type.
    FtoU(ScalarType),
    FtoS(ScalarType),
    /// Integer to the given float type.
    UtoF(ScalarType),
    StoF(ScalarType),
    /// Float to the given float type.
    Fconvert(ScalarType),
}

impl Except {
    /// The kind of `op` with result type `ty`, or `None` when `op` raises no exception by
    /// definition or is not covered (see the module docs).
    pub fn of(op: Op, ty: ScalarType) -> Option<Except> {
        use Except as E;
        Some(match op {
            Op::Fadd => E::Fadd,
            Op::Fsub => E::Fsub,
            Op::Fmul => E::Fmul,
            Op::FmulLegacy => E::FmulLegacy,
            Op::Fdiv => E::Fdiv,
            Op::Fma => E::Fma,
            Op::Fmad => E::Fmad,
            Op::FmadLegacy => E::FmadLegacy,
            Op::Fmin(m) => E::Fmin(m),
            Op::Fmax(m) => E::Fmax(m),
            Op::Fcmp(cc) => E::Fcmp(cc),
            Op::Ldexp => E::Ldexp,
            Op::Ffloor => E::Ffloor,
            Op::Fceil => E::Fceil,
            Op::Ftrunc => E::Ftrunc,
            Op::Frint => E::Frint,
            Op::Ffract => E::Ffract,
            Op::Fcanonicalize => E::Fcanonicalize,
            Op::Fsqrt(t) => E::Fsqrt(t),
            Op::Frcp(t) => E::Frcp(t),
            Op::Frsq(t) => E::Frsq(t),
            Op::Fexp2(t) => E::Fexp2(t),
            Op::Flog2(t) => E::Flog2(t),
            Op::Fsin(t, a) => E::Fsin(t, a),
            Op::Fcos(t, a) => E::Fcos(t, a),
            Op::FrexpMant => E::FrexpMant,
            Op::FrexpExp => E::FrexpExp,
            Op::FtoU => E::FtoU(ty),
            Op::FtoS => E::FtoS(ty),
            Op::UtoF => E::UtoF(ty),
            Op::StoF => E::StoF(ty),
            Op::Fconvert => E::Fconvert(ty),
            _ => return None,
        })
    }

    /// The op whose flags are reported.
    pub fn op(self) -> Op {
        use Except as E;
        match self {
            E::Fadd => Op::Fadd,
            E::Fsub => Op::Fsub,
            E::Fmul => Op::Fmul,
            E::FmulLegacy => Op::FmulLegacy,
            E::Fdiv => Op::Fdiv,
            E::Fma => Op::Fma,
            E::Fmad => Op::Fmad,
            E::FmadLegacy => Op::FmadLegacy,
            E::Fmin(m) => Op::Fmin(m),
            E::Fmax(m) => Op::Fmax(m),
            E::Fcmp(cc) => Op::Fcmp(cc),
            E::Ldexp => Op::Ldexp,
            E::Ffloor => Op::Ffloor,
            E::Fceil => Op::Fceil,
            E::Ftrunc => Op::Ftrunc,
            E::Frint => Op::Frint,
            E::Ffract => Op::Ffract,
            E::Fcanonicalize => Op::Fcanonicalize,
            E::Fsqrt(t) => Op::Fsqrt(t),
            E::Frcp(t) => Op::Frcp(t),
            E::Frsq(t) => Op::Frsq(t),
            E::Fexp2(t) => Op::Fexp2(t),
            E::Flog2(t) => Op::Flog2(t),
            E::Fsin(t, a) => Op::Fsin(t, a),
            E::Fcos(t, a) => Op::Fcos(t, a),
            E::FrexpMant => Op::FrexpMant,
            E::FrexpExp => Op::FrexpExp,
            E::FtoU(_) => Op::FtoU,
            E::FtoS(_) => Op::FtoS,
            E::UtoF(_) => Op::UtoF,
            E::StoF(_) => Op::StoF,
            E::Fconvert(_) => Op::Fconvert,
        }
    }

    /// The result type of [`Except::op`] on operands `args` (the first operand's type for the
    /// float-valued ops), or `None` without operands.
    pub fn op_type(self, args: &[ScalarType]) -> Option<ScalarType> {
        use Except as E;
        Some(match self {
            E::FtoU(t) | E::FtoS(t) | E::UtoF(t) | E::StoF(t) | E::Fconvert(t) => t,
            E::Fcmp(_) => ScalarType::I1,
            E::FrexpExp => ScalarType::I32,
            _ => *args.first()?,
        })
    }

    /// The result type a conversion names (`None` for the other kinds).
    pub fn named_type(self) -> Option<ScalarType> {
        use Except as E;
        match self {
            E::FtoU(t) | E::FtoS(t) | E::UtoF(t) | E::StoF(t) | E::Fconvert(t) => Some(t),
            _ => None,
        }
    }

    /// The same kind with the result type `t` (conversions only; others are returned as is).
    pub fn with_type(self, t: ScalarType) -> Except {
        use Except as E;
        match self {
            E::FtoU(_) => E::FtoU(t),
            E::FtoS(_) => E::FtoS(t),
            E::UtoF(_) => E::UtoF(t),
            E::StoF(_) => E::StoF(t),
            E::Fconvert(_) => E::Fconvert(t),
            other => other,
        }
    }
}
