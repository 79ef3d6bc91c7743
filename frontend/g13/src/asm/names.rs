//! The names applegpu.py prints for compare conditions, and the readings of names of the
//! other enumerated fields ([`crate::operand::enums`]) and special registers
//! ([`crate::print::special_name`]) backwards.

use super::fields::Fields;
use crate::operand::enums;
use crate::print::special_name;

/// A value and its printed name.
pub(super) type Names = &'static [(u64, &'static str)];

/// Integer compare conditions: bits 2:0 in `cc` (bit 2 signed, 1:0 eq/lt/gt), bit 3 (`ccn`,
/// where the form has it) negates.
pub(super) const ICONDITIONS: Names = &[
    (0b0000, "ueq"),
    (0b0001, "ult"),
    (0b0010, "ugt"),
    (0b0100, "seq"),
    (0b0101, "slt"),
    (0b0110, "sgt"),
    (0b1000, "nueq"),
    (0b1001, "ugte"),
    (0b1010, "ulte"),
    (0b1100, "nseq"),
    (0b1101, "sgte"),
    (0b1110, "slte"),
];

/// Float compare conditions, bit 3 negating.
pub(super) const FCONDITIONS: Names = &[
    (0b000, "eq"),
    (0b001, "lt"),
    (0b010, "gt"),
    (0b011, "ltn"),
    (0b101, "gte"),
    (0b110, "lte"),
    (0b111, "gtn"),
    (0b1000, "neq"),
    (0b1001, "nlt"),
    (0b1011, "nltn"),
    (0b1010, "ngt"),
    (0b1101, "ngte"),
    (0b1110, "nlte"),
    (0b1111, "ngtn"),
];

/// A texture type's coordinate count and its extra (array index, sample) components.
pub(super) fn tex_size(n: u64) -> Option<(u32, u32)> {
    Some(match n {
        0 => (1, 0),
        1 => (1, 1),
        2 => (2, 0),
        3 | 4 => (2, 1),
        5 | 6 => (3, 0),
        7 => (3, 1),
        8 => (2, 2),
        _ => return None,
    })
}

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

/// The special register named `name` (applegpu's name, without `srN`).
pub(super) fn special_register(name: &str) -> Option<u64> {
    (0..256u16)
        .find(|&n| special_name(n) == Some(name))
        .map(u64::from)
}
