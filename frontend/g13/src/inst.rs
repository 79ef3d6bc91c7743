//! Decoded instructions: a framed instruction ([`crate::decode::frame`]) with the meaning of
//! each of its operands ([`crate::operand::decode`]), in applegpu.py's operand order.
//!
//! Invariant: `operands[k]` is the reading of `row.operands[k]`; `word` holds exactly the
//! instruction's `len` bytes.

use crate::decode::{frame, DecodeError};
use crate::operand::{self, Value};
use crate::table::Row;

/// One decoded instruction.
#[derive(Debug)]
pub struct Inst {
    pub row: &'static Row,
    pub len: usize,
    pub word: u128,
    pub operands: Vec<Value>,
}

/// The instruction at the start of `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Inst, DecodeError> {
    let f = frame(bytes)?;
    Ok(Inst::new(f.row, f.len, f.word))
}

/// Whether form `row`'s `S` field saturates the result, which its mnemonic spells `.sat`
/// (applegpu's saturatable instructions: the integer adds and multiply-adds, and every form
/// with a float destination).
pub fn saturates(row: &Row) -> bool {
    matches!(row.name, "iadd" | "imadd")
        || row
            .operands
            .first()
            .is_some_and(|o| matches!(o.kind, "FloatDst" | "FloatDst16"))
}

impl Inst {
    /// The instruction of form `row` in the `len` bytes of `word`.
    pub fn new(row: &'static Row, len: usize, word: u128) -> Inst {
        let operands = (0..row.operands.len())
            .map(|k| operand::decode(row, word, k))
            .collect();
        Inst {
            row,
            len,
            word,
            operands,
        }
    }

    /// The value `name` (a field, or the value made of several, [`Row::value`]); a field the
    /// form lacks reads as 0, as the omitted bytes of a short form do.
    pub fn field(&self, name: &str) -> u64 {
        self.row.value(self.word, name).unwrap_or(0)
    }

    /// The value `name`, or `None` when the form has no such field.
    pub fn try_field(&self, name: &str) -> Option<u64> {
        self.row.value(self.word, name)
    }

    /// The operand applegpu names `name` (`D`, `A`, `cc`, `R`, ...).
    pub fn operand(&self, name: &str) -> Option<&Value> {
        let k = self.row.operands.iter().position(|o| o.name == name)?;
        self.operands.get(k)
    }

    /// Whether the result saturates (`.sat`: to [0, 1] for floats, to the destination's
    /// range for integers, signed if a source is sign-extended).
    pub fn saturate(&self) -> bool {
        saturates(self.row) && self.field("S") != 0
    }

    /// Whether an `iadd` or `imadd` subtracts its last source (`N`; the mnemonics `isub`,
    /// `imsub`).
    pub fn negate(&self) -> bool {
        matches!(self.row.name, "iadd" | "imadd") && self.field("N") != 0
    }

    /// applegpu's mnemonic, before its printing aliases: the form's name, `isub`/`imsub` for
    /// a negated add, and `.sat` when the result saturates.
    pub fn mnemonic(&self) -> String {
        let base = match self.row.name {
            "iadd" if self.negate() => "isub",
            "imadd" if self.negate() => "imsub",
            name => name,
        };
        if self.saturate() {
            format!("{base}.sat")
        } else {
            base.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::operand::{FCmp, ICmp, Reg, RegRange, Src, SrcValue, Width};

    fn hex(s: &str) -> Vec<u8> {
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
            .collect()
    }

    /// Instructions from tests/data/applegpu-vectors.tsv, against the operands applegpu
    /// prints for them.
    #[test]
    fn operands_mean_what_applegpu_prints() {
        // `isub.sat r83h, None, r76_r77.cache, lsl 5`
        let i = decode(&hex("4e4e318ab9262000")).expect("isub");
        assert_eq!(i.mnemonic(), "isub.sat");
        assert_eq!(i.operands[0], Value::Reg(Reg::half(167)));
        assert_eq!(i.operands[1], Value::Undefined);
        let pair = Reg {
            cache: true,
            ..Reg::pair(76)
        };
        assert!(
            matches!(i.operands[2], Value::Src(Src { value: SrcValue::Reg(r), .. }) if r == pair)
        );
        assert_eq!(i.operands[3], Value::Shift(5));
        // `icmpsel ugt, r19, r23.cache, r12.discard, u14, 35`
        let i = decode(&hex("124dae923d9c3152")).expect("icmpsel");
        let Value::ICond(c) = i.operands[0] else {
            panic!("{:?}", i.operands[0])
        };
        assert_eq!((c.cmp, c.signed, c.invert), (Some(ICmp::Gt), false, false));
        assert_eq!(i.operands[1], Value::Reg(Reg::word(19)));
        // `fcmpsel lte, r76l.cache, r115.abs, u49h.neg, r55h, None`
        let i = decode(&hex("82b06636926f00d4602d")).expect("fcmpsel");
        assert!(matches!(i.operands[0], Value::FCond(c) if c.cmp == Some(FCmp::Le)));
        assert_eq!(i.operands[5], Value::Undefined);
        assert_eq!(i.len, 10);
    }

    #[test]
    fn memory_operands() {
        // Mesa `load r0_r1_r2, du52, 4, i32, xyz, a` (applegpu: device_load, 3 words from
        // r0, base u52_u53, index 4).
        let i = decode(&hex("0501480d60c07200")).expect("device_load");
        assert_eq!(i.row.name, "device_load");
        assert_eq!(i.operand("R"), Some(&Value::Regs(RegRange::words(0, 3))));
        assert_eq!(i.operand("A"), Some(&Value::UniformPair(52)));
        assert_eq!(i.operand("O"), Some(&Value::Imm(4)));
        let Some(Value::Enum(f)) = i.operand("F") else {
            panic!("format")
        };
        assert_eq!(f.name, Some("i32"));
        // Mesa `jmp_any -634`: a backward branch from the jump itself.
        let i = decode(&hex("00c086fdffff")).expect("jmp_exec_any");
        assert_eq!(i.operands, vec![Value::Offset(-634)]);
        assert_eq!(Reg::half(1).width, Width::Half(true));
    }
}
