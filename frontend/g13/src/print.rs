//! Disassembly in applegpu.py's syntax: the text its disassembler prints for an instruction
//! (`AsmInstruction.__str__`), with the mnemonic and the operands separated by one space
//! (applegpu pads the mnemonic to 16 columns; the vectors and the assembler take one space).
//!
//! The operands print in applegpu's order, joined by `, `; an operand that prints as nothing
//! (no shift, a full bitfield mask, an empty enum name, an empty register range) is left
//! out, and one that applegpu reads as Python's `None` (an undefined source encoding, an
//! absent optional register) prints `None`, as applegpu does. Registers print as `r5l`,
//! `r6`, `r6_r7`, `u4`, `u4_u5`, ranges as `r0_r1_r2`, with flags after a dot in applegpu's
//! order (`cache`/`discard`, `sx`, `abs`, `neg`). Branch targets print as `0x` and the hex
//! of `pc + offset`, a minus sign after the `0x` when that is negative (Python's `%X`).
//!
//! The mnemonic is [`Inst::mnemonic`] after applegpu's aliases: `bitop` by truth table
//! (`and`, `or`, `xor`, `nand`, `nor`, `xnor`, `not`, `mov`, `bitop_mov_a`), `if_fcmp` of
//! `0.0 eq 0.0` (`update_exec`, `push_exec`), `ld_tile`/`st_tile`, `map`/`unmap`.

use crate::inst::Inst;
use crate::operand::enums::special_name;
use crate::operand::{Enum, Reg, RegRange, Src, SrcValue, UReg, Value};

/// `inst` in applegpu's syntax, as if at address `pc`.
pub fn applegpu(inst: &Inst, pc: u64) -> String {
    let ops: Vec<String> = inst
        .operands
        .iter()
        .zip(inst.row.operands)
        .map(|(v, op)| operand(v, op.kind, pc))
        .collect();
    let (mnem, ops) = alias(inst, inst.mnemonic(), ops);
    let ops: Vec<String> = ops.into_iter().filter(|s| !s.is_empty()).collect();
    if ops.is_empty() {
        mnem
    } else {
        format!("{mnem} {}", ops.join(", "))
    }
}

/// `bitop`'s aliases: the name, the truth table it stands for (`tt0` .. `tt3`, as printed
/// left to right), and whether it is unary, an alias only when `B` is the immediate 0 and
/// printed without it.
pub const BITOP_ALIASES: &[(&str, [bool; 4], bool)] = &[
    ("and", [false, false, false, true], false),
    ("or", [false, true, true, true], false),
    ("xor", [false, true, true, false], false),
    ("nand", [true, true, true, false], false),
    ("nor", [true, false, false, false], false),
    ("xnor", [true, false, false, true], false),
    ("not", [true, false, true, false], true),
    ("mov", [false, true, false, true], true),
];

/// applegpu's `map_to_alias`: a few forms print under other names, some operands dropped.
fn alias(inst: &Inst, mnem: String, ops: Vec<String>) -> (String, Vec<String>) {
    let op = |k: usize| ops.get(k).map_or("", String::as_str);
    match inst.row.name {
        "bitop" => {
            let tt = match inst.operand("tt") {
                Some(Value::TruthTable(tt)) => Some(*tt),
                _ => None,
            };
            match BITOP_ALIASES.iter().find(|a| Some(a.1) == tt) {
                Some(&(a, _, false)) => (a.into(), ops[1..].to_vec()),
                Some(&(a, _, true)) if op(3) == "0" => (a.into(), ops[1..3].to_vec()),
                _ if matches!(op(0), "0011" | "1100") => ("bitop_mov_a".into(), ops),
                _ => (mnem, ops),
            }
        }
        "if_fcmp" if (op(1), op(2), op(3)) == ("eq", "0.0", "0.0") => {
            if op(4) == "0" {
                ("update_exec".into(), ops[..1].to_vec())
            } else {
                ("push_exec".into(), vec![ops[0].clone(), ops[4].clone()])
            }
        }
        "TODO.ld/st_tile" => {
            let load = !matches!(inst.operands.first(), Some(Value::Imm(0)));
            let m = if load { "ld_tile" } else { "st_tile" };
            (m.into(), ops[1..].to_vec())
        }
        "map" => match op(0) {
            m @ ("unmap" | "map") => (m.into(), ops[1..].to_vec()),
            _ => ("TODO.map".into(), ops),
        },
        _ => (mnem, ops),
    }
}

/// One operand's text. `kind` matters where applegpu prints one meaning two ways.
fn operand(v: &Value, kind: &str, pc: u64) -> String {
    match *v {
        Value::Reg(r) => r.to_string(),
        Value::Src(s) => src(&s, kind == "CmpselSrc"),
        Value::Regs(r) => range(&r),
        Value::Uniform(u) => u.to_string(),
        Value::UniformPair(n) => format!("u{n}_u{}", n + 1),
        Value::Imm(n) => n.to_string(),
        Value::Binary { value, width } => format!("0b{value:0w$b}", w = usize::from(width)),
        Value::TruthTable(tt) => tt.iter().map(|&b| if b { '1' } else { '0' }).collect(),
        Value::Enum(Enum { value, name }) => name.map_or_else(|| value.to_string(), String::from),
        Value::ICond(c) => c.name().map_or_else(|| c.code().to_string(), String::from),
        Value::FCond(c) => c.name().map_or_else(|| c.code().to_string(), String::from),
        Value::Offset(off) => {
            let target = i128::from(pc) + i128::from(off);
            if target < 0 {
                format!("0x-{:X}", -target)
            } else {
                format!("0x{target:X}")
            }
        }
        Value::Shift(0) | Value::Mask(0) => String::new(),
        Value::Shift(s) => format!("lsl {s}"),
        Value::Mask(m) => format!("mask 0x{:X}", (1u64 << m) - 1),
        Value::Special(n) => match special_name(n) {
            Some(name) => format!("sr{n} ({name})"),
            None => format!("sr{n}"),
        },
        Value::TextureState(n) => format!("ts{n}"),
        Value::SamplerState(n) => format!("ss{n}"),
        Value::Cf(n) => format!("cf{n}"),
        Value::CompareOffset { compare, offset } => [compare, offset]
            .iter()
            .flatten()
            .map(Reg::to_string)
            .collect::<Vec<_>>()
            .join("_"),
        // applegpu reads "no sample" as an empty string, other absent operands as None.
        Value::Absent if kind == "IterSampleID" => String::new(),
        Value::Absent | Value::Undefined => "None".into(),
    }
}

/// Python's `str` of a float: the shortest text that reads back, with a `.0` on integers.
/// The minifloats are all exact and between 1/64 and 31 in size, where that is Rust's `{:?}`.
fn python_float(x: f32) -> String {
    format!("{:?}", f64::from(x))
}

/// An ALU source: the value, then its flags. `cmpsel`: a compare-select's select operand,
/// whose uniform register applegpu names without the value's ninth bit.
fn src(s: &Src, cmpsel: bool) -> String {
    let mut text = match s.value {
        SrcValue::Imm(n) => n.to_string(),
        SrcValue::FloatImm(b) => python_float(crate::operand::minifloat(b)),
        SrcValue::Reg(r) => Reg { cache: false, ..r }.to_string(),
        SrcValue::Discarded(r) => r.to_string(),
        SrcValue::Uniform(u) if cmpsel => UReg {
            index: u.index & 0x7f,
            ..u
        }
        .to_string(),
        SrcValue::Uniform(u) => u.to_string(),
    };
    let flags = [
        (matches!(s.value, SrcValue::Reg(r) if r.cache), ".cache"),
        (matches!(s.value, SrcValue::Discarded(_)), ".discard"),
        (s.sx, ".sx"),
        (s.abs, ".abs"),
        (s.neg, ".neg"),
    ];
    for (on, flag) in flags {
        if on {
            text.push_str(flag);
        }
    }
    text
}

/// A register range: the registers joined by `_`, then the range's flags.
fn range(r: &RegRange) -> String {
    let file = if r.uniform { 'u' } else { 'r' };
    let mut text = (0..r.count)
        .map(|i| {
            let at = r.first + i;
            match (r.halves, r.uniform) {
                (true, false) => Reg::half(at).to_string(),
                (true, true) => UReg::half(at).to_string(),
                (false, _) => format!("{file}{at}"),
            }
        })
        .collect::<Vec<_>>()
        .join("_");
    for (on, flag) in [
        (r.cache, ".cache"),
        (r.discard, ".discard"),
        (r.abs, ".abs"),
        (r.neg, ".neg"),
    ] {
        if on {
            text.push_str(flag);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_prints_floats_so() {
        assert_eq!(python_float(0.0), "0.0");
        assert_eq!(python_float(-0.0), "-0.0");
        assert_eq!(python_float(0.015625), "0.015625");
        assert_eq!(python_float(-2.5), "-2.5");
        assert_eq!(python_float(31.0), "31.0");
    }
}
