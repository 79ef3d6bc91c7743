//! Mnemonics: how applegpu spells a form's name from its fields, read backwards.
//!
//! Most forms print their table name. The exceptions (applegpu's `fields_to_mnem` and
//! `map_to_alias`): the saturating ALU forms ([`crate::inst::saturates`]) append `.sat`
//! when field `S` is set; `iadd` and `imadd` print `isub` and `imsub` when `N` is set;
//! `bitop` prints a named alias for six truth tables (the table operand dropped) and
//! `not`/`mov` for two more when `B` is the immediate 0 (both dropped); `if_fcmp` with
//! condition `eq` and two `0.0` sources prints `update_exec r0l` (push count 0) or
//! `push_exec r0l, n`; `TODO.ld/st_tile` prints `ld_tile` or `st_tile` after its `load`
//! operand; `map` prints `map` or `unmap` after its `op` operand (other ops keep `TODO.map`
//! and the operand). Each spelling here gives the fields it fixes and the operands it leaves
//! out of the text.

use crate::inst::saturates;
use crate::print::BITOP_ALIASES;
use crate::table::{rows, Row};

/// A form a mnemonic may be: the row, the fields the spelling fixes, the row's operands
/// that the text leaves out.
pub(super) struct Spelling {
    pub row: &'static Row,
    pub fixed: Vec<(&'static str, u64)>,
    pub skipped: Vec<usize>,
}

/// Every form `mnemonic` may name, in the table's (matching) order.
pub(super) fn spellings(mnemonic: &str) -> Vec<Spelling> {
    rows()
        .iter()
        .filter_map(|row| spell(row, mnemonic))
        .collect()
}

fn spell(row: &'static Row, mnemonic: &str) -> Option<Spelling> {
    let mut s = Spelling {
        row,
        fixed: Vec::new(),
        skipped: Vec::new(),
    };
    let operand = |name: &str| row.operands.iter().position(|o| o.name == name);
    let base = if saturates(row) {
        match mnemonic.strip_suffix(".sat") {
            Some(b) => {
                s.fixed.push(("S", 1));
                b
            }
            None => mnemonic,
        }
    } else {
        mnemonic
    };
    match (row.name, base) {
        ("iadd", "isub") | ("imadd", "imsub") => s.fixed.push(("N", 1)),
        ("bitop", "bitop" | "bitop_mov_a") => {}
        ("bitop", alias) => {
            let &(_, tt, unary) = BITOP_ALIASES.iter().find(|a| a.0 == alias)?;
            for (k, bit) in tt.into_iter().enumerate() {
                s.fixed
                    .push((["tt0", "tt1", "tt2", "tt3"][k], u64::from(bit)));
            }
            s.skipped.push(operand("tt")?);
            if unary {
                // B = the immediate 0: type 0, value 0.
                s.skipped.push(operand("B")?);
            }
        }
        ("if_fcmp", "update_exec" | "push_exec") => {
            // Condition eq and the sources 0.0 are the zero fields; update_exec pushes 0.
            s.skipped
                .extend([operand("cc")?, operand("A")?, operand("B")?]);
            if base == "update_exec" {
                s.skipped.push(operand("n")?);
            }
        }
        ("TODO.ld/st_tile", "ld_tile" | "st_tile") => {
            s.fixed.push(("load", u64::from(base == "ld_tile")));
            s.skipped.push(operand("load")?);
        }
        ("map", "map" | "unmap") => {
            s.fixed.push(("op", u64::from(base == "map")));
            s.skipped.push(operand("op")?);
        }
        ("map", "TODO.map") => {}
        (name, b) if name == b => {}
        _ => return None,
    }
    s.skipped.sort_unstable();
    Some(s)
}
