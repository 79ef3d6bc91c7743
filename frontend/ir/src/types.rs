//! Value types: a scalar kind times a shape.
//!
//! A `lane i1` value is a *mask*: one bit per lane. Every value is carried as raw bits,
//! zero-extended to 64 bits (`i1` is 0 or 1); semantics never see host floats directly.

use std::fmt;

/// The scalar kind of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarType {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
}

impl ScalarType {
    pub const ALL: [ScalarType; 8] = [
        ScalarType::I1,
        ScalarType::I8,
        ScalarType::I16,
        ScalarType::I32,
        ScalarType::I64,
        ScalarType::F16,
        ScalarType::F32,
        ScalarType::F64,
    ];

    /// Width in bits.
    pub const fn bits(self) -> u32 {
        match self {
            ScalarType::I1 => 1,
            ScalarType::I8 => 8,
            ScalarType::I16 | ScalarType::F16 => 16,
            ScalarType::I32 | ScalarType::F32 => 32,
            ScalarType::I64 | ScalarType::F64 => 64,
        }
    }

    /// All-ones of this width (the mask that keeps a value canonical).
    pub const fn bit_mask(self) -> u64 {
        match self.bits() {
            64 => u64::MAX,
            b => (1u64 << b) - 1,
        }
    }

    pub const fn is_float(self) -> bool {
        matches!(self, ScalarType::F16 | ScalarType::F32 | ScalarType::F64)
    }

    /// Integer kinds, `i1` included.
    pub const fn is_int(self) -> bool {
        !self.is_float()
    }

    /// The integer kind of the same width (floats only; integers map to themselves).
    pub const fn as_int(self) -> ScalarType {
        match self {
            ScalarType::F16 => ScalarType::I16,
            ScalarType::F32 => ScalarType::I32,
            ScalarType::F64 => ScalarType::I64,
            t => t,
        }
    }

    /// Guest state cells (32 bits each) a value of this kind occupies.
    pub const fn cells(self) -> u32 {
        if self.bits() > 32 {
            2
        } else {
            1
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            ScalarType::I1 => "i1",
            ScalarType::I8 => "i8",
            ScalarType::I16 => "i16",
            ScalarType::I32 => "i32",
            ScalarType::I64 => "i64",
            ScalarType::F16 => "f16",
            ScalarType::F32 => "f32",
            ScalarType::F64 => "f64",
        }
    }

    pub fn from_name(s: &str) -> Option<ScalarType> {
        ScalarType::ALL.into_iter().find(|t| t.name() == s)
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a value has one instance per wave or one per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Uniform,
    Lane,
}

impl Shape {
    /// The shape of a result computed from operands of shapes `a` and `b`.
    pub fn join(self, other: Shape) -> Shape {
        if self == Shape::Lane || other == Shape::Lane {
            Shape::Lane
        } else {
            Shape::Uniform
        }
    }
}

/// A value's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    pub scalar: ScalarType,
    pub shape: Shape,
}

impl Type {
    pub const fn uniform(scalar: ScalarType) -> Type {
        Type {
            scalar,
            shape: Shape::Uniform,
        }
    }
    pub const fn lane(scalar: ScalarType) -> Type {
        Type {
            scalar,
            shape: Shape::Lane,
        }
    }
    /// One bit per lane.
    pub const MASK: Type = Type::lane(ScalarType::I1);

    pub fn is_lane(self) -> bool {
        self.shape == Shape::Lane
    }
    pub fn is_mask(self) -> bool {
        self == Type::MASK
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.shape {
            Shape::Uniform => write!(f, "{}", self.scalar),
            Shape::Lane => write!(f, "lane {}", self.scalar),
        }
    }
}
