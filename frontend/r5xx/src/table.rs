//! The instruction words' tables: where each field lies ([`fields`]), what each value of an
//! enumerated field is ([`values`]: the value enums and their rows, one row per opcode,
//! select, swizzle, modifier, OMOD, presubtract, predicate, target, FC operation) and which
//! fields the assembler writes as flags ([`flags`]). The decoder, encoder, printer, parser
//! and random generator all read these; nothing else spells a bit position, an opcode value
//! or a mnemonic. Every instruction and flag row of `../shared/notes/ctm_instructions.tsv`
//! is a row here (tests/isa_table.rs reads the file and checks).
//!
//! Invariants (checked by tests/isa_table.rs and tests/isa_words.rs): a value table has
//! `2^width` rows of its field, `rows[v].value == v` and distinct assembler spellings; the
//! fields of one slot type never overlap and, with its unused bits, cover all 192 bits; a
//! type's flags are distinct fields none of its own syntax writes.

pub mod fields;
pub mod flags;
pub mod values;

pub use values::*;

/// A bit field: `width` bits of word `word` of a slot, from bit `lo` up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub word: u8,
    pub lo: u8,
    pub width: u8,
    pub name: &'static str,
}

impl Field {
    /// The field's bits in place.
    pub const fn mask(self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.lo
    }

    /// The field's value in `words`.
    pub fn get(self, words: &[u32; 6]) -> u32 {
        (words[self.word as usize] & self.mask()) >> self.lo
    }

    /// The field's bit as a flag.
    pub fn flag(self, words: &[u32; 6]) -> bool {
        self.get(words) != 0
    }

    /// Writes `value` (masked to the field's width) into `words`.
    pub fn put(self, words: &mut [u32; 6], value: u32) {
        let w = &mut words[self.word as usize];
        *w = (*w & !self.mask()) | ((value << self.lo) & self.mask());
    }

    /// The largest value the field holds.
    pub const fn max(self) -> u32 {
        ((1u64 << self.width) - 1) as u32
    }
}

/// One value of an enumerated field.
#[derive(Debug)]
pub struct ValueRow<T: 'static> {
    pub value: u8,
    pub item: T,
    /// The assembler spelling ([`crate::print`]).
    pub asm: &'static str,
    /// The CTM Guide's name (seed 003), or the R500 register docs' where the Guide has none.
    pub ctm: &'static str,
    /// Whether the value has a documented meaning (the lifter refuses the others).
    pub defined: bool,
}
