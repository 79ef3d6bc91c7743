//! The parameters an op carries besides its operands (comparison conditions, NaN rules,
//! transcendental flavours, angle units), the float environment every float op carries
//! ([`FloatMode`]), and the [`Param`] machinery through which the op table
//! ([`super::table`]) reads, writes and enumerates the parameters of any op generically.

use crate::except::Except;

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

/// A parameter with a fixed set of values, each spelled by one word in the text form.
pub trait Choice: Copy + PartialEq + 'static {
    /// What the parameter is, for parse errors ("condition", "NaN rule").
    const WHAT: &'static str;
    /// Every value with its spelling; the first is the value of the op's base form
    /// ([`super::Op::from_name`]), and the order is the order [`crate::text::all_ops`] lists.
    const VALUES: &'static [(Self, &'static str)];
}

/// The kinds of op parameter, as a visitor sees them: [`super::Op::visit_params`] hands each
/// parameter of an op, in its fixed order, to one of these methods. The text parser fills
/// them in, the printer writes them, [`crate::text::all_ops`] enumerates them.
pub trait ParamVisitor {
    type Error;
    /// A [`Choice`] (written `.spelling`).
    fn choice<P: Choice>(&mut self, p: &mut P) -> Result<(), Self::Error>;
    /// An optional flag, written `.name` when set (`fclamp.dx10`).
    fn flag(&mut self, name: &'static str, on: &mut bool) -> Result<(), Self::Error>;
    /// The op an `fexcept` reports on: written as that op's name and parameters, then a
    /// conversion's result type.
    fn reported(&mut self, k: &mut Except) -> Result<(), Self::Error>;
}

/// A type an op's tuple parameter can have: how a [`ParamVisitor`] visits it, and its value
/// in the op's base form.
pub trait Param: Copy {
    const FIRST: Self;
    fn visit<V: ParamVisitor>(&mut self, v: &mut V) -> Result<(), V::Error>;
}

macro_rules! choices {
    ($($t:ty, $what:literal: [$($v:ident $s:literal),* $(,)?];)*) => {$(
        impl Choice for $t {
            const WHAT: &'static str = $what;
            const VALUES: &'static [(Self, &'static str)] = &[$((<$t>::$v, $s)),*];
        }
        impl Param for $t {
            const FIRST: Self = <$t as Choice>::VALUES[0].0;
            fn visit<V: ParamVisitor>(&mut self, v: &mut V) -> Result<(), V::Error> {
                v.choice(self)
            }
        }
    )*};
}

choices! {
    IntCC, "condition": [
        Eq "eq", Ne "ne", Ult "ult", Ule "ule", Ugt "ugt", Uge "uge", Slt "slt", Sle "sle",
        Sgt "sgt", Sge "sge",
    ];
    FloatCC, "condition": [
        Eq "eq", Ne "ne", Lt "lt", Le "le", Gt "gt", Ge "ge", One "one", Ord "ord", Uno "uno",
        Ueq "ueq", Une "une", Ult "ult", Ule "ule", Ugt "ugt", Uge "uge",
    ];
    MinMax, "NaN rule": [Ieee "ieee", NonIeee "nonieee", Legacy "legacy"];
    Trans, "flavour": [Ieee "ieee", Clamped "clamped", Ff "ff", Legacy "legacy"];
    Angle, "angle unit": [Radians "radians", Turns "turns"];
}

impl Param for Except {
    const FIRST: Self = Except::Fadd;
    fn visit<V: ParamVisitor>(&mut self, v: &mut V) -> Result<(), V::Error> {
        v.reported(self)
    }
}
