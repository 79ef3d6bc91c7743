//! The memory, varying, texture and fragment operand kinds (their meanings are in the table
//! of the parent module's doc). Each reads its own fields and, where applegpu's reading
//! depends on them, fields of the instruction (`mask`, `F`, `op`, `n`, `lod`, `compare`,
//! `interpolation`, `Tt`).

use super::{sign_extend, Reg, RegRange, UReg, Value};
use crate::table::Row;

/// The coordinates of texture type `n` (field `n`, [`super::enums`]): how many, and how
/// many extra values follow them (array index, sample); applegpu's TEX_SIZES. `None` for a
/// type without a known meaning.
pub fn tex_size(n: u64) -> Option<(u16, u16)> {
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

/// `count` halves from half `value` (`t` clear) or words from `r(value >> 1)`.
fn data(t: u64, value: u64, count: u16) -> RegRange {
    if t == 0 {
        RegRange::halves(value as u16, count)
    } else {
        RegRange::words((value >> 1) as u16, count)
    }
}

/// The half `value`, or an immediate when `imm`.
fn half_or_imm(imm: bool, value: u64) -> Value {
    if imm {
        Value::Imm(value as i64)
    } else {
        Value::Reg(Reg::half(value as u16))
    }
}

pub(super) fn decode(row: &Row, word: u128, kind: &str, name: &str) -> Value {
    let v = |name: &str| row.value(word, name).unwrap_or(0);
    let own = |suffix: &str| row.suffixed_field(word, name, suffix).unwrap_or(0);
    let has_own = |suffix: &str| row.suffixed_field(word, name, suffix).is_some();
    let value = v(name);
    let t = own("t");
    let mask_count = v("mask").count_ones() as u16;
    match kind {
        "MemoryReg" | "SampleReg" => Value::Regs(data(t, value, mask_count)),
        "ThreadgroupMemoryReg" if has_own("a") => {
            if own("a") == 0 {
                Value::Absent
            } else {
                Value::Regs(data(t, value, 1))
            }
        }
        "ThreadgroupMemoryReg" => Value::Regs(data(t, value, mask_count)),
        "MemoryBase" | "AsyncMemoryReg" if t != 0 => Value::UniformPair((value >> 1) as u16),
        "MemoryBase" | "AsyncMemoryReg" => Value::Reg(Reg::pair((value >> 1) as u16)),
        "AsyncMemoryBase" => Value::Regs(RegRange {
            uniform: t != 0,
            ..RegRange::words(value as u16, if v("F") != 0 { 5 } else { 3 })
        }),
        "MemoryIndex" if t != 0 => Value::Imm(sign_extend(value, 16)),
        "MemoryIndex" => Value::Reg(Reg::word((value >> 1) as u16)),
        "ThreadgroupIndex" if t != 0 => Value::Imm(sign_extend(value, 16)),
        "ThreadgroupIndex" => Value::Reg(Reg::half((value & 0xff) as u16)),
        "ThreadgroupMemoryBase" => match t {
            0 => Value::Reg(Reg::half(value as u16)),
            2 => Value::Imm(0),
            _ => Value::Uniform(UReg::half((value | (t >> 1) << 8) as u16)),
        },
        "AtomicSource" if v("op") == 3 => Value::Reg(Reg::pair((value >> 1) as u16)),
        "AtomicSource" => Value::Reg(Reg::word((value >> 1) as u16)),
        "AtomicDestination" if t == 1 => Value::Reg(Reg::word((value >> 1) as u16)),
        "AtomicDestination" => Value::Absent,
        "SampleMask" => {
            let two_bit = super::width(row, &format!("{name}t")) == 2;
            match t {
                0 | 1 => half_or_imm((t == 0) == two_bit, value),
                _ => Value::Undefined,
            }
        }
        "DiscardMask" | "UVSIndex" | "PBELod" => half_or_imm(t != 0, value),
        "ZS" => Value::Regs(RegRange::halves(
            value as u16,
            2 * v("z") as u16 + v("s") as u16,
        )),
        "VarRegister" | "VarTripleRegister" => {
            let count = match v("count") {
                0 => 4,
                c => c as u16,
            };
            let triple = if kind == "VarTripleRegister" { 3 } else { 1 };
            Value::Regs(data(t, value, count * triple))
        }
        "CF" if t == 0 => Value::Cf(value as u16),
        "CF" => Value::Reg(Reg::half(value as u16)),
        "IterSampleID" => {
            let mode = v("interpolation");
            if mode & 1 == 0 {
                Value::Absent
            } else {
                half_or_imm(mode & 2 == 0, value)
            }
        }
        "Texture" => match t {
            0 => Value::TextureState(value as u16),
            2 if value == 0 => Value::Imm(0),
            1 | 2 => Value::Reg(Reg::half(value as u16)),
            _ => Value::Reg(Reg::word((value >> 1) as u16)),
        },
        "Sampler" if t == 0 => Value::SamplerState(value as u16),
        "Sampler" => Value::Reg(Reg::half(value as u16)),
        "Coords" => {
            let Some((count, extra)) = tex_size(v("n")) else {
                return Value::Undefined;
            };
            let mut regs = if own("s") != 0 {
                RegRange::halves(value as u16, count + extra)
            } else if extra != 0 {
                RegRange::halves(value as u16, count * 2 + 1)
            } else {
                RegRange::words((value >> 1) as u16, count)
            };
            regs.discard = t != 0;
            Value::Regs(regs)
        }
        "SampleCompareOff" => {
            let compare = (v("compare") != 0).then(|| Reg::word((value >> 1) as u16));
            let at = value + if compare.is_some() { 2 } else { 0 };
            Value::CompareOffset {
                compare,
                offset: (t != 0).then(|| Reg::half(at as u16)),
            }
        }
        "Lod" => match v("lod") {
            0 => Value::Imm(0),
            lod @ (4 | 12) => {
                let Some((count, _)) = tex_size(v("n")) else {
                    return Value::Undefined;
                };
                let count = count * 2 + u16::from(lod == 12);
                Value::Regs(RegRange::words((value >> 1) as u16, count))
            }
            1 | 2 => Value::Uniform(UReg::half(value as u16)),
            5 | 6 => Value::Reg(Reg::half(value as u16)),
            // Bias and minimum: applegpu.py fails on these; Mesa's AGX2.xml reads two
            // uniform halves (9) or two halves (13).
            9 => Value::Regs(RegRange {
                uniform: true,
                ..RegRange::halves(value as u16, 2)
            }),
            13 => Value::Regs(RegRange::halves(value as u16, 2)),
            _ => Value::Undefined,
        },
        "SampleUReg" if v("Tt") & 2 != 0 => Value::UniformPair(value as u16 * 2),
        "SampleUReg" => Value::Absent,
        "PBESourceReg" => Value::Regs(data(t, value, 4)),
        _ => Value::Undefined,
    }
}
