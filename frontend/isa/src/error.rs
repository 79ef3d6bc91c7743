//! Why a lifter refused a program: one error type for every ISA, with three kinds that
//! callers treat differently (naga's split of unknown, unsupported and invalid input).
//!
//! - [`LiftErrorKind::Unknown`]: the bytes do not decode to any instruction of the target.
//! - [`LiftErrorKind::Unsupported`]: a valid instruction (or operand form) the lifter does
//!   not take, for a reason its crate documents; other programs of the same target may lift.
//! - [`LiftErrorKind::Invalid`]: the program breaks a rule of the ISA (a jump outside the
//!   program, a field out of range, a stack that cannot balance).
//!
//! The fuzz driver drops an instruction refused as unsupported and counts it; an unknown or
//! invalid refusal of a generated program is a failure (the generators emit valid code).

use std::fmt;

/// What kind of refusal a [`LiftError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LiftErrorKind {
    Unknown,
    Unsupported,
    Invalid,
}

impl fmt::Display for LiftErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LiftErrorKind::Unknown => "cannot decode",
            LiftErrorKind::Unsupported => "unsupported",
            LiftErrorKind::Invalid => "invalid",
        })
    }
}

/// A lifter's refusal: its kind, where (a byte offset from the program's start, and the
/// ISA's own way of naming the place), the instruction's text and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftError {
    pub kind: LiftErrorKind,
    /// Byte offset of the instruction from the start of the program.
    pub pc: u64,
    /// The place as the ISA names it (`offset 0x10`, `CF @3, @12`).
    pub at: String,
    /// The instruction in the ISA's syntax (empty when it does not decode).
    pub text: String,
    pub why: String,
}

impl LiftError {
    /// A refusal at byte offset `pc`, named `offset {pc:#x}`.
    pub fn new(
        kind: LiftErrorKind,
        pc: u64,
        text: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        LiftError {
            kind,
            pc,
            at: format!("offset {pc:#x}"),
            text: text.into(),
            why: why.into(),
        }
    }

    pub fn unknown(pc: u64, why: impl Into<String>) -> Self {
        LiftError::new(LiftErrorKind::Unknown, pc, "", why)
    }

    pub fn unsupported(pc: u64, text: impl Into<String>, why: impl Into<String>) -> Self {
        LiftError::new(LiftErrorKind::Unsupported, pc, text, why)
    }

    pub fn invalid(pc: u64, text: impl Into<String>, why: impl Into<String>) -> Self {
        LiftError::new(LiftErrorKind::Invalid, pc, text, why)
    }

    /// The same refusal with the place named `at`.
    pub fn at(mut self, at: impl Into<String>) -> Self {
        self.at = at.into();
        self
    }

    pub fn is_unsupported(&self) -> bool {
        self.kind == LiftErrorKind::Unsupported
    }
}

impl fmt::Display for LiftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            write!(f, "{}: {}: {}", self.at, self.kind, self.why)
        } else {
            write!(
                f,
                "{}: `{}`: {}: {}",
                self.at, self.text, self.kind, self.why
            )
        }
    }
}

impl std::error::Error for LiftError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_place_text_and_kind() {
        let e = LiftError::unsupported(0x10, "s_sleep 1", "no clock");
        assert_eq!(
            e.to_string(),
            "offset 0x10: `s_sleep 1`: unsupported: no clock"
        );
        let e = LiftError::unknown(4, "opcode 0x3f").at("CF @2, @0");
        assert_eq!(e.to_string(), "CF @2, @0: cannot decode: opcode 0x3f");
        assert!(!e.is_unsupported());
    }
}
