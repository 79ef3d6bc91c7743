//! Operands that are numbers or names: immediates, binary fields, enumerations, conditions,
//! shifts and masks, truth tables, special registers and branch targets.

use super::fields::Fields;
use super::names;
use super::text::{int, numbered};
use super::Labels;
use crate::operand::enums::{self, special_name, Names};

/// A number of `width` bits, 0 to 2^width - 1.
fn unsigned(text: &str, width: u32) -> Result<u64, String> {
    let v = int(text).ok_or_else(|| format!("`{text}` is not a number"))?;
    let max = (1i128 << width) - 1;
    if !(0..=max).contains(&v) {
        return Err(format!("{v} is out of range (0-{max})"));
    }
    Ok(v as u64)
}

/// A signed number of `width` bits, as its two's complement.
pub(super) fn signed(text: &str, width: u32) -> Result<u64, String> {
    let v = int(text).ok_or_else(|| format!("`{text}` is not a number"))?;
    check_signed(v, width)
}

fn check_signed(v: i128, width: u32) -> Result<u64, String> {
    let half = 1i128 << (width - 1);
    if !(-half..half).contains(&v) {
        return Err(format!("{v} is out of range ({}-{})", -half, half - 1));
    }
    Ok((v & ((1i128 << width) - 1)) as u64)
}

fn width(f: &Fields, name: &str) -> Result<u32, String> {
    f.width(name)
        .ok_or_else(|| format!("the {} form has no field {name}", f.row.name))
}

/// `Immediate` and `Binary`: the field's value, in any base (applegpu prints the first in
/// decimal, the second as `0b` and all its digits).
pub(super) fn number(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let v = unsigned(text, width(f, name)?)?;
    f.put(name, v)
}

/// An enumeration: a name (the first value of a repeated one) or a number; nothing for the
/// value whose name is empty.
pub(super) fn enumeration(f: &mut Fields, name: &str, text: Option<&str>) -> Result<(), String> {
    let v = names::enum_value(f, name, text)?;
    f.put(name, v)
}

fn lookup(names: Names, text: &str) -> Result<u64, String> {
    names::lookup(names, text).ok_or_else(|| {
        let known: Vec<&str> = names.iter().map(|&(_, n)| n).collect();
        format!("`{text}` is not one of {} or a number", known.join(", "))
    })
}

/// A compare condition by name or number: bits 2:0 in `cc`, bit 3 in `ccn` (forms without
/// `ccn` take the first eight only).
pub(super) fn condition(f: &mut Fields, kind: &str, text: &str) -> Result<(), String> {
    let names = if kind == "ICondition" {
        enums::ICONDITIONS
    } else {
        enums::FCONDITIONS
    };
    let v = lookup(names, text)?;
    let max = if f.has("ccn") { 15 } else { 7 };
    if v > max {
        return Err(format!(
            "condition {text} needs a negation bit this form lacks"
        ));
    }
    f.put("cc", v & 7)?;
    if f.has("ccn") {
        f.put("ccn", v >> 3)?;
    }
    Ok(())
}

/// `lsl N` or nothing (0): the ALU shift `s` or a memory operand's shift field `name`.
pub(super) fn shift(f: &mut Fields, name: &str, text: Option<&str>) -> Result<(), String> {
    let v = match text {
        None => 0,
        Some(t) => {
            let n = t
                .strip_prefix("lsl ")
                .ok_or_else(|| format!("`{t}` is not `lsl N`"))?;
            unsigned(n.trim(), width(f, name)?)?
        }
    };
    f.put(name, v)
}

/// `mask 0x...` (2^m - 1 for m in 1..=32, 32 encoded as 0) or nothing (0).
pub(super) fn mask(f: &mut Fields, name: &str, text: Option<&str>) -> Result<(), String> {
    let m = match text {
        None => 0,
        Some(t) => {
            let v = t
                .strip_prefix("mask ")
                .and_then(|n| int(n.trim()))
                .ok_or_else(|| format!("`{t}` is not `mask N`"))?;
            let ones = (1..=32u32).find(|&m| v == (1i128 << m) - 1);
            let m = ones.ok_or_else(|| format!("mask {v:#x} is not 1 to 32 low bits"))?;
            u64::from(m % 32)
        }
    };
    f.put(name, m)
}

/// A truth table: four digits (`tt0` .. `tt3`, left to right), optionally after `0b`.
pub(super) fn truth_table(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let digits = text.strip_prefix("0b").unwrap_or(text);
    if digits.len() != 4 || !digits.bytes().all(|b| b == b'0' || b == b'1') {
        return Err(format!(
            "`{text}` is not a truth table of four binary digits"
        ));
    }
    for (k, b) in digits.bytes().enumerate() {
        f.put(&format!("{name}{k}"), u64::from(b - b'0'))?;
    }
    Ok(())
}

/// `srN`, optionally followed by applegpu's name in parentheses, or that name alone.
pub(super) fn special_register(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let (sr, given) = match text.split_once(" (") {
        Some((sr, rest)) => {
            let n = rest
                .strip_suffix(')')
                .ok_or_else(|| format!("`{text}`: unclosed parenthesis"))?;
            (sr.trim(), Some(n))
        }
        None => (text, None),
    };
    let v = match numbered(sr, "sr") {
        Some(v) => v,
        None if given.is_none() => enums::special_number(sr)
            .map(u64::from)
            .ok_or_else(|| format!("`{text}` is not a special register"))?,
        None => return Err(format!("`{text}` is not a special register")),
    };
    if let Some(g) = given {
        let named = u16::try_from(v).ok().and_then(special_name);
        if named != Some(g) {
            return Err(format!("sr{v} is not named {g}"));
        }
    }
    f.put(name, v)
}

/// A 16-bit signed stack adjustment.
pub(super) fn stack_adjustment(f: &mut Fields, name: &str, text: &str) -> Result<(), String> {
    let v = signed(text, 16)?;
    f.put(name, v)
}

/// A branch target: `pc+N`, `pc-N`, `pc+label` (signed bytes from this instruction), or
/// the absolute address as applegpu prints it (`0x1F4`, `0x-1C`; the program starts at 0).
pub(super) fn branch(
    f: &mut Fields,
    name: &str,
    text: &str,
    pc: u64,
    labels: &Labels,
) -> Result<(), String> {
    let s: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let offset = if let Some(rel) = s.strip_prefix("pc") {
        match int(rel.strip_prefix('+').unwrap_or(rel)) {
            Some(v) => v,
            None => {
                let label = rel
                    .strip_prefix('+')
                    .ok_or_else(|| format!("`{text}` is not pc+N, pc-N or pc+label"))?;
                labels.resolve(label, pc)? - i128::from(pc)
            }
        }
    } else if let Some(hex) = s.strip_prefix("0x-") {
        -int(&format!("0x{hex}")).ok_or_else(|| format!("`{text}` is not an address"))?
            - i128::from(pc)
    } else if s.starts_with("0x") {
        int(&s).ok_or_else(|| format!("`{text}` is not an address"))? - i128::from(pc)
    } else {
        return Err(format!(
            "`{text}` is not a branch target (pc+N, pc-N, pc+label or 0x address)"
        ));
    };
    let v = check_signed(offset, width(f, name)?)
        .map_err(|e| format!("branch offset {offset}: {e}"))?;
    f.put(name, v)
}
