//! The names of enumerated fields, conditions and special registers
//! ([`crate::operand::enums`]) read backwards.

use super::fields::Fields;
use crate::operand::enums::{self, Names};

/// The value named `name` (the first of a repeated name), or a number.
pub(super) fn lookup(names: Names, text: &str) -> Option<u64> {
    names
        .iter()
        .find(|(_, n)| *n == text)
        .map(|&(v, _)| v)
        .or_else(|| number(text))
}

fn number(text: &str) -> Option<u64> {
    super::text::int(text).and_then(|v| u64::try_from(v).ok())
}

/// Every value of enumerated operand `operand` of the form in `f` that has a name, in
/// order, with its name (`""`: printed as nothing).
fn enum_values(f: &Fields, operand: &str) -> Vec<(u64, &'static str)> {
    let width = f.width(operand).unwrap_or(0).min(16);
    (0..1u64 << width)
        .filter_map(|v| enums::name(f.row.name, operand, v).map(|n| (v, n)))
        .collect()
}

/// The value of enumerated operand `operand` written `text`: a name (the first value of a
/// repeated one) or a number; `None` (the text left out) is the value named `""`.
pub(super) fn enum_value(f: &Fields, operand: &str, text: Option<&str>) -> Result<u64, String> {
    let values = enum_values(f, operand);
    let want = text.unwrap_or("");
    if let Some(&(v, _)) = values.iter().find(|(_, n)| *n == want) {
        return Ok(v);
    }
    match text {
        None => Err("this operand cannot be left out".into()),
        Some(t) => number(t).ok_or_else(|| {
            let known: Vec<&str> = values
                .iter()
                .map(|&(_, n)| n)
                .filter(|n| !n.is_empty())
                .collect();
            format!("`{t}` is not one of {} or a number", known.join(", "))
        }),
    }
}

/// Whether enumerated operand `operand` has a value printed as nothing.
pub(super) fn enum_may_be_empty(f: &Fields, operand: &str) -> bool {
    enum_values(f, operand).iter().any(|(_, n)| n.is_empty())
}
