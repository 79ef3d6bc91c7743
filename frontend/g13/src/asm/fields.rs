//! An instruction under construction: a form's constant bits and the values put into its
//! fields so far, and the choice of its length.
//!
//! Invariants: the word always holds the form's constant bits (a value that would change
//! one is refused where it is put, naming the operand's field); every bit outside the
//! constants and the fields put so far is zero.

use crate::table::Row;

#[derive(Clone, Copy)]
pub(super) struct Fields {
    pub row: &'static Row,
    pub word: u128,
}

impl Fields {
    pub fn new(row: &'static Row) -> Self {
        Fields {
            row,
            word: row.bits,
        }
    }

    /// The total width of value `name`: its pieces ([`crate::table::Merged`]) or its field.
    pub fn width(&self, name: &str) -> Option<u32> {
        match self.row.merged.iter().find(|m| m.name == name) {
            Some(m) => m
                .parts
                .iter()
                .map(|(p, _)| self.field(p).map(|f| f.1))
                .sum(),
            None => self.field(name).map(|f| f.1),
        }
    }

    fn field(&self, name: &str) -> Option<(u32, u32)> {
        self.row
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (u32::from(f.start), u32::from(f.size)))
    }

    pub fn has(&self, name: &str) -> bool {
        self.width(name).is_some()
    }

    /// The value `name` holds so far.
    pub fn get(&self, name: &str) -> u64 {
        self.row.value(self.word, name).unwrap_or(0)
    }

    /// Puts `value` into value `name` (split over its pieces). Errors: the form has no such
    /// value, the value does not fit its width, or it contradicts the form's constant bits.
    pub fn put(&mut self, name: &str, value: u64) -> Result<(), String> {
        let width = self
            .width(name)
            .ok_or_else(|| format!("the {} form has no field {name}", self.row.name))?;
        if width < 64 && value >> width != 0 {
            return Err(format!("{value} does not fit in {width} bits"));
        }
        let pieces: Vec<(&str, u32)> = match self.row.merged.iter().find(|m| m.name == name) {
            Some(m) => m.parts.iter().map(|&(p, s)| (p, u32::from(s))).collect(),
            None => vec![(name, 0)],
        };
        let mut word = self.word;
        for (piece, shift) in pieces {
            let (start, size) = self
                .field(piece)
                .ok_or_else(|| format!("no field {piece}"))?;
            let mask = ((1u128 << size) - 1) << start;
            let bits = (u128::from(value >> shift) << start) & mask;
            word = (word & !mask) | bits;
        }
        if word & self.row.mask != self.row.bits {
            return Err(format!(
                "the {} form fixes bits that {name} = {value} would change",
                self.row.name
            ));
        }
        self.word = word;
        Ok(())
    }

    /// The instruction's bytes: the short length when nothing lies past it, else the long
    /// one with the length bit set (applegpu's choice when it assembles).
    pub fn bytes(&self) -> Vec<u8> {
        let [short, long] = self.row.sizes.map(usize::from);
        let mut word = self.word;
        let len = if short != long && word >> (8 * short) != 0 {
            word |= 1 << self.row.l_bit;
            long
        } else {
            short
        };
        word.to_le_bytes()[..len].to_vec()
    }
}
