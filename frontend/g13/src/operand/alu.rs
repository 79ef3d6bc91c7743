//! The ALU forms' destinations and sources.
//!
//! Destinations (`ALUDst` family, seed 004 lines 12752-12759, notes/g13_map.md §2): an 8-bit
//! register value `Dx:D` and a 2-bit flags field `Dt` (bit 0: the cache hint, bit 1: a
//! 32-bit register). A 32-bit destination whose value is odd, in a form that allows 64-bit
//! results, is the pair from `r(value >> 1)`; otherwise a 32-bit one is `r(value >> 1)` and a
//! 16-bit one the half `value` (`r(v>>1)l` even, `h` odd). The paired destination of the
//! matrix multiply-adds (`PairedALUDst`) names two consecutive registers or halves from
//! there.
//!
//! Sources ([`alu_src`], [`cmpsel_src`], [`paired_float_src`]): a 6-bit value with a 2-bit
//! extension and a type field, see each function.

use super::{Reg, RegRange, Src, SrcValue, UReg, Value, Width};
use crate::table::Row;

/// The destination operand of `row` in `word`: its first operand of an ALU destination
/// kind, `ALUDst` (16 or 32 bits), `ALUDst64` (also 64), `FloatDst` (16 or 32) or
/// `FloatDst16` (16 only), when it comes first or after a condition (the compare-selects).
pub fn alu_dst(row: &Row, word: u128) -> Option<Reg> {
    let first = row.operands.first()?;
    let k = usize::from(matches!(first.kind, "ICondition" | "FCondition"));
    dst(row, word, k)
}

/// Destination operand `k` of `row` in `word`, when it is of an ALU destination kind.
pub(super) fn dst(row: &Row, word: u128, k: usize) -> Option<Reg> {
    let op = row.operands.get(k)?;
    let (allow32, allow64) = match op.kind {
        "ALUDst" | "FloatDst" => (true, false),
        "ALUDst64" => (true, true),
        "FloatDst16" => (false, false),
        _ => return None,
    };
    let value = row.value(word, op.name)? as u16;
    let flags = row.suffixed_field(word, op.name, "t")?;
    let width = if flags & 2 != 0 && allow32 {
        if value & 1 != 0 && allow64 {
            Width::Pair
        } else {
            Width::Word
        }
    } else {
        Width::Half(value & 1 != 0)
    };
    Some(Reg {
        index: value >> 1,
        width,
        cache: flags & 1 != 0,
    })
}

/// The matrix multiply-adds' `PairedALUDst`: two consecutive words from `r(value >> 1)` when
/// `Dt` bit 1 is set, else two consecutive halves from half `value`.
pub(super) fn paired_dst(row: &Row, word: u128, name: &str) -> Option<Value> {
    let value = row.value(word, name)? as u16;
    let flags = row.suffixed_field(word, name, "t")?;
    let mut regs = if flags & 2 != 0 {
        RegRange::words(value >> 1, 2)
    } else {
        RegRange::halves(value, 2)
    };
    regs.cache = flags & 1 != 0;
    Some(Value::Regs(regs))
}

/// The value of a float source's 8-bit immediate: sign bit 7, a 3-bit exponent (bias 7) in
/// bits 6:4 and a 4-bit fraction; exponent 0 gives `fraction / 64` (seed 004 lines
/// 12865-12877). Every such value is exact in f32.
pub fn minifloat(bits: u8) -> f32 {
    let sign = if bits & 0x80 != 0 { -1.0 } else { 1.0 };
    let (e, f) = (i32::from((bits >> 4) & 7), f32::from(bits & 15));
    if e == 0 {
        sign * f / 64.0
    } else {
        sign * (16.0 + f) * 2f32.powi(e - 7)
    }
}

/// The size limits and extra flag fields of an ALU source kind: (32 bits allowed, 64 bits
/// allowed, has a sign-extension bit `s`, is a float source with modifiers `m`).
fn src_kind(kind: &str) -> Option<(bool, bool, bool, bool)> {
    Some(match kind {
        "ALUSrc" => (true, false, false, false),
        "ALUSrc64" => (true, true, false, false),
        "ALUSrc16" => (false, false, false, false),
        "MulSrc" => (true, false, true, false),
        "AddSrc" => (true, true, true, false),
        "FloatSrc" | "PairedFloatSrc" => (true, false, false, true),
        "FloatSrc16" => (false, false, false, true),
        _ => return None,
    })
}

/// Source operand `k` of `row` in `word`, when it is an ALU source: `ALUSrc` (16 or 32
/// bits), `ALUSrc64` (also 64), `ALUSrc16` (16 only), `MulSrc` (16 or 32, with a
/// sign-extension bit), `AddSrc` (also 64, with one), `FloatSrc` (16 or 32) or `FloatSrc16`
/// (16 only, a 3-bit type field); a float source's immediate is a minifloat and its `m` field
/// holds the abs (bit 0) and neg (bit 1) modifiers. The 4-bit type field `t`: 0 an
/// immediate; `01xy` a uniform register, the value's ninth bit `y`, 32-bit if `x`; else
/// bits 3:2 the size (`00` a half, `10` a word, `11` a pair where 64 bits are allowed, a word
/// otherwise) and bits 1:0 the hint (`01` none, `10` cache, `11` discard; `00` undefined).
/// Seed 004 lines 12760-12801; applegpu.py's `ALUSrcDesc`.
pub fn alu_src(row: &Row, word: u128, k: usize) -> Option<Src> {
    let op = row.operands.get(k)?;
    let (allow32, allow64, signed, float) = src_kind(op.kind)?;
    if op.kind == "PairedFloatSrc" {
        return None;
    }
    let value = row.value(word, op.name)? as u16;
    let t = row.suffixed_field(word, op.name, "t")?;
    let sx = signed && row.suffixed_field(word, op.name, "s")? & 1 != 0;
    let (abs, neg) = modifiers(row, word, op.name, float)?;
    let v = if t == 0 {
        let imm = value as u8;
        return Some(Src {
            value: if float {
                SrcValue::FloatImm(imm)
            } else {
                SrcValue::Imm(imm)
            },
            sx: false,
            abs,
            neg,
        });
    } else if t & 0b1100 == 0b0100 {
        uniform(value, t & 1 != 0, t & 2 != 0)
    } else {
        let width = match t & 0b1100 {
            0b1100 if allow64 => Width::Pair,
            0b1000 | 0b1100 if allow32 => Width::Word,
            0b0000 | 0b1000 | 0b1100 => Width::Half(value & 1 != 0),
            _ => return None,
        };
        hinted(value >> 1, width, t & 0b11)?
    };
    Some(Src {
        value: v,
        sx,
        abs,
        neg,
    })
}

/// A float source's modifiers (`m` bit 0 abs, bit 1 neg); none for an integer source.
fn modifiers(row: &Row, word: u128, name: &str, float: bool) -> Option<(bool, bool)> {
    if !float {
        return Some((false, false));
    }
    let m = row.suffixed_field(word, name, "m")?;
    Some((m & 1 != 0, m & 2 != 0))
}

/// The matrix multiply-adds' `PairedFloatSrc` `name`: a `FloatSrc` whose register forms name
/// two consecutive registers (type `10xy`/`11xy`: words from `r(value >> 1)`) or halves
/// (`00xy`: from half `value`); immediates and uniform registers read as in a `FloatSrc`.
/// `None` where the hint is undefined.
pub(super) fn paired_float_src(row: &Row, word: u128, name: &str) -> Option<Value> {
    let value = row.value(word, name)? as u16;
    let t = row.suffixed_field(word, name, "t")?;
    let (abs, neg) = modifiers(row, word, name, true)?;
    let plain = |value| {
        Value::Src(Src {
            value,
            sx: false,
            abs,
            neg,
        })
    };
    if t == 0 {
        return Some(plain(SrcValue::FloatImm(value as u8)));
    }
    if t & 0b1100 == 0b0100 {
        return Some(plain(uniform(value, t & 1 != 0, t & 2 != 0)));
    }
    let mut regs = if t & 0b1000 != 0 {
        RegRange::words(value >> 1, 2)
    } else {
        RegRange::halves(value, 2)
    };
    match t & 0b11 {
        0b01 => {}
        0b10 => regs.cache = true,
        0b11 => regs.discard = true,
        _ => return None,
    }
    regs.abs = abs;
    regs.neg = neg;
    Some(Value::Regs(regs))
}

/// Select operand `k` of a compare-select (`CmpselSrc`): a 3-bit type field, `100` an 8-bit
/// immediate, `11y` a uniform register (the value's ninth bit `y`), `0xy` a register with
/// hint `xy` (`00` undefined); register and uniform take the destination's size (`Dt` bit
/// 1: 32-bit). Seed 004 lines 12802-12821. applegpu.py HEAD drops the ninth bit `y` when it
/// names the uniform; the seed's pseudocode and Mesa's encoder keep it, and so does this
/// reading (the applegpu printer reproduces the drop).
pub fn cmpsel_src(row: &Row, word: u128, k: usize) -> Option<Src> {
    let op = row.operands.get(k)?;
    if op.kind != "CmpselSrc" {
        return None;
    }
    let value = row.value(word, op.name)? as u16;
    let t = row.suffixed_field(word, op.name, "t")?;
    let wide = row.field(word, "Dt")? & 2 != 0;
    let plain = |value| Src {
        value,
        sx: false,
        abs: false,
        neg: false,
    };
    Some(plain(match t {
        0b100 => SrcValue::Imm(value as u8),
        0b110 | 0b111 => uniform(value, t & 1 != 0, wide),
        0b001..=0b011 => {
            let width = if wide {
                Width::Word
            } else {
                Width::Half(value & 1 != 0)
            };
            hinted(value >> 1, width, t & 0b11)?
        }
        _ => return None,
    }))
}

/// A uniform register from an 8-bit register value and its ninth bit: the 32-bit `u(v >> 1)`
/// if `wide`, else the half `v` (`u(v >> 1)l` even, `h` odd).
fn uniform(value: u16, ninth: bool, wide: bool) -> SrcValue {
    let u = value | (u16::from(ninth) << 8);
    SrcValue::Uniform(UReg {
        index: u >> 1,
        half: (!wide).then_some(u & 1 != 0),
    })
}

/// A general register read with a source's 2-bit hint: `01` none, `10` cache, `11` discard,
/// `00` undefined (`None`).
fn hinted(index: u16, width: Width, hint: u64) -> Option<SrcValue> {
    let reg = Reg {
        index,
        width,
        cache: hint == 0b10,
    };
    match hint {
        0b01 | 0b10 => Some(SrcValue::Reg(reg)),
        0b11 => Some(SrcValue::Discarded(reg)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `word` with field `name` of `row` set to `v`.
    fn with(row: &Row, word: u128, name: &str, v: u128) -> u128 {
        let f = row.fields.iter().find(|f| f.name == name).expect(name);
        word | (v << f.start)
    }

    /// The type field's cases on iadd's A (6-bit value at 16, `Ax` the high bits, `At` at
    /// 22, `As` the sign extension), by the rules written above.
    #[test]
    fn integer_sources_by_type() {
        let iadd = crate::table::rows()
            .iter()
            .find(|r| r.name == "iadd")
            .expect("iadd");
        let src = |t: u128, a: u128, ax: u128, s: u128| {
            let w = with(iadd, iadd.bits, "At", t);
            let w = with(iadd, w, "A", a);
            let w = with(iadd, w, "Ax", ax);
            let w = with(iadd, w, "As", s);
            alu_src(iadd, w, 1).expect("a source")
        };
        let reg = |index, width, cache| Reg {
            index,
            width,
            cache,
        };
        assert_eq!(src(0, 9, 0, 1).value, SrcValue::Imm(9));
        assert!(!src(0, 9, 0, 1).sx, "an immediate is never sign-extended");
        assert_eq!(
            src(0b1001, 6, 0, 0).value,
            SrcValue::Reg(reg(3, Width::Word, false))
        );
        assert_eq!(
            src(0b1010, 6, 0, 1).value,
            SrcValue::Reg(reg(3, Width::Word, true))
        );
        assert!(src(0b1010, 6, 0, 1).sx);
        assert_eq!(
            src(0b1011, 6, 0, 0).value,
            SrcValue::Discarded(reg(3, Width::Word, false))
        );
        assert_eq!(
            src(0b1101, 6, 1, 0).value,
            SrcValue::Reg(reg(35, Width::Pair, false))
        );
        assert_eq!(
            src(0b0001, 7, 0, 0).value,
            SrcValue::Reg(reg(3, Width::Half(true), false))
        );
        assert_eq!(
            src(0b0111, 6, 0, 0).value,
            SrcValue::Uniform(UReg {
                index: 131,
                half: None
            })
        );
        assert_eq!(
            src(0b0100, 7, 0, 0).value,
            SrcValue::Uniform(UReg {
                index: 3,
                half: Some(true)
            })
        );
        assert_eq!(alu_src(iadd, with(iadd, iadd.bits, "At", 0b1000), 1), None);
    }
}
