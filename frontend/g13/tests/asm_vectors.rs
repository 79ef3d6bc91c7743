//! The assembler against applegpu.py's own disassembly (tests/data/applegpu-vectors.tsv):
//! every instruction applegpu prints (lines not marked `!`) assembles, at pc 0x100 where it
//! was printed, to bytes that decode to the line's row and print back to the line's text,
//! and that equal the line's bytes in every bit the text determines.
//!
//! The vectors hold random field values, so many set bits that applegpu's text does not
//! show (a register's low value bit, the fields of a `None` source, the length bit of a
//! form whose extra bytes are zero, ...). Such bits differ between the two encodings while
//! both print the same text; [`EXCEPTIONS`] names them by the operand kind and the part of
//! the operand they lie in, with the reason. The list is exact: every difference must be
//! covered, and every kind of every entry must be needed by some vector.
//!
//! Mesa's vectors (shared/corpora/g13/mesa-isa-cases.txt, real encodings from Mesa's own
//! tables) check the same way: the applegpu text of each ([`applegpu`] of its decoding)
//! assembles back to its bytes, but for the bits [`MESA_EXCEPTIONS`] lists.

mod vectors;

use std::collections::{BTreeMap, BTreeSet};
use vectors::{applegpu_vectors, mesa_corpus, mesa_vectors};
use wavejit_g13::asm::assemble_line;
use wavejit_g13::inst::decode;
use wavejit_g13::print::applegpu;
use wavejit_g13::table::Row;

/// Bits applegpu's text does not determine: in operands of these kinds, in this part of
/// the operand (`value`: the value's lowest field; `value_hi`: its other fields; `t`, `s`,
/// `a`: its flag fields; for bits of no operand, the field's name), these bits.
struct Exception {
    kinds: &'static [&'static str],
    part: &'static str,
    bits: u64,
    reason: &'static str,
}

const SOURCES: &[&str] = &[
    "ALUSrc",
    "ALUSrc64",
    "ALUSrc16",
    "MulSrc",
    "AddSrc",
    "FloatSrc",
    "PairedFloatSrc",
    "CmpselSrc",
];

/// Operands whose value some encodings leave out of the text.
const VALUES_OFTEN_ABSENT: &[&str] = &[
    "AtomicDestination",
    "SampleCompareOff",
    "Lod",
    "ThreadgroupMemoryBase",
];

const EXCEPTIONS: &[Exception] = &[
    Exception {
        kinds: &["-"],
        part: "length",
        bits: 1,
        reason: "a two-length form whose extra bytes are zero prints alike in both lengths; \
                 the assembler takes the short one, as applegpu's assembler does",
    },
    Exception {
        kinds: &["-"],
        part: "kill",
        bits: 1,
        reason: "dfdx and dfdy have a kill-helpers bit that applegpu does not print",
    },
    Exception {
        kinds: &[
            "ALUDst",
            "FloatDst",
            "PairedALUDst",
            "FloatSrc16",
            "AsyncMemoryReg",
            "Coords",
            "SampleReg",
            "VarRegister",
            "VarTripleRegister",
            "Texture",
        ],
        part: "value",
        bits: 1,
        reason: "a 32-bit register (or uniform) prints as number value >> 1: bit 0 of the \
                 value is not printed (applegpu asserts it is 0 only for pairs)",
    },
    Exception {
        kinds: SOURCES,
        part: "value",
        bits: 0x3f,
        reason: "a source of an undefined type prints None, without its value; a 32-bit \
                 register or uniform source prints value >> 1",
    },
    Exception {
        kinds: SOURCES,
        part: "value_hi",
        bits: 0b11,
        reason: "a source of an undefined type prints None, without its value",
    },
    Exception {
        kinds: &[
            "ALUSrc",
            "ALUSrc64",
            "MulSrc",
            "AddSrc",
            "FloatSrc",
            "PairedFloatSrc",
        ],
        part: "t",
        bits: 0b0100,
        reason: "a source of at most 32 bits prints the register types 10xx and 11xx alike, \
                 and the undefined types 1000 and 1100 both as None",
    },
    Exception {
        kinds: &["ALUSrc16"],
        part: "t",
        bits: 0b1100,
        reason: "a 16-bit source prints a half for the register types 00xx, 10xx and 11xx",
    },
    Exception {
        kinds: &["CmpselSrc"],
        part: "t",
        bits: 0b101,
        reason: "applegpu ignores a select operand's uniform ninth bit (type 11y), and \
                 prints the undefined types 000 and 101 both as None",
    },
    Exception {
        kinds: &["MulSrc", "AddSrc"],
        part: "s",
        bits: 1,
        reason: "an immediate or None source prints no sign extension",
    },
    Exception {
        kinds: &["FloatDst16"],
        part: "t",
        bits: 0b10,
        reason: "a 16-bit-only destination prints the half whatever its 32-bit flag",
    },
    Exception {
        kinds: &["Texture"],
        part: "t",
        bits: 0b11,
        reason: "a 16-bit texture register prints alike with the types 01 and 10 (the image \
                 write block has no uniform operand to tell them apart)",
    },
    Exception {
        kinds: &["MemoryReg", "ThreadgroupMemoryReg"],
        part: "value",
        bits: 0x3f,
        reason: "an empty mask (or an absent threadgroup-atomic result) prints no registers; \
                 32-bit registers print value >> 1",
    },
    Exception {
        kinds: &["MemoryReg"],
        part: "value_hi",
        bits: 0b11,
        reason: "an empty mask prints no registers",
    },
    Exception {
        kinds: &["MemoryReg", "ThreadgroupMemoryReg"],
        part: "t",
        bits: 1,
        reason: "an empty mask (or an absent threadgroup-atomic result) prints no register size",
    },
    Exception {
        kinds: VALUES_OFTEN_ABSENT,
        part: "value",
        bits: 0x3f,
        reason: "an absent atomic result (None), an absent compare and offset, the level 0 \
                 of auto_lod and the immediate threadgroup base 0 print no value; a 32-bit \
                 compare or gradient register prints value >> 1",
    },
    Exception {
        kinds: VALUES_OFTEN_ABSENT,
        part: "value_hi",
        bits: 0b11,
        reason: "an absent atomic result, an absent compare and offset, the level of \
                 auto_lod and the immediate threadgroup base print no value",
    },
    Exception {
        kinds: &["SampleUReg"],
        part: "value",
        bits: 0x1f,
        reason: "without a bindless texture the uniform prints as None",
    },
];

fn word(bytes: &[u8]) -> u128 {
    let mut b = [0u8; 16];
    b[..bytes.len()].copy_from_slice(bytes);
    u128::from_le_bytes(b)
}

/// The operand kind and the part of that operand field `field` of `row` lies in (see
/// [`Exception`]); `("-", field)` for a field of no operand.
fn part_of(row: &Row, field: &str) -> (&'static str, String) {
    let kind = |name: &str| row.operands.iter().find(|o| o.name == name).map(|o| o.kind);
    for m in row.merged.iter().filter(|m| m.parts.len() > 1) {
        if let Some(&(_, shift)) = m.parts.iter().find(|(p, _)| *p == field) {
            if let Some(k) = kind(m.name) {
                let part = if shift == 0 { "value" } else { "value_hi" };
                return (k, part.into());
            }
        }
    }
    if let Some(k) = kind(field) {
        return (k, "value".into());
    }
    for op in row.operands {
        if let Some(flag @ ("t" | "s" | "m" | "a")) = field.strip_prefix(op.name) {
            return (op.kind, flag.into());
        }
    }
    ("-", field.into())
}

/// The parts in which two encodings of form `row` differ: (kind, part, bits).
fn differences(row: &Row, want: &[u8], got: &[u8]) -> Vec<(&'static str, String, u64)> {
    let mut x = word(want) ^ word(got);
    let mut out = Vec::new();
    if want.len() != got.len() {
        out.push(("-", "length".to_string(), 1));
        x &= !(1u128 << row.l_bit);
    }
    for f in row.fields {
        let bits = ((x >> f.start) & ((1u128 << f.size) - 1)) as u64;
        if bits != 0 {
            let (kind, part) = part_of(row, f.name);
            out.push((kind, part, bits));
            x &= !(((1u128 << f.size) - 1) << f.start);
        }
    }
    if x != 0 {
        out.push((
            "-",
            "outside fields".into(),
            u64::try_from(x).unwrap_or(u64::MAX),
        ));
    }
    out
}

#[test]
fn every_printed_vector_assembles_to_its_bytes() {
    let (mut total, mut assembled, mut identical) = (0, 0, 0);
    let mut bad = Vec::new();
    let mut used: BTreeSet<(usize, &str)> = BTreeSet::new();
    let mut uncovered: BTreeMap<String, String> = BTreeMap::new();
    for v in applegpu_vectors() {
        let Some(want) = v.text else {
            continue;
        };
        total += 1;
        let row = v.row;
        let got = match assemble_line(want, 0x100) {
            Ok(b) => b,
            Err(e) => {
                bad.push(format!("{want}: {e}"));
                continue;
            }
        };
        let back = match decode(&got) {
            Ok(i) if std::ptr::eq(i.row, row) => applegpu(&i, 0x100),
            Ok(i) => format!("<decodes as {}>", i.row.name),
            Err(e) => format!("<{e}>"),
        };
        if back != want {
            bad.push(format!(
                "{want}: assembles to {got:02x?}, which prints {back}"
            ));
            continue;
        }
        assembled += 1;
        if got == v.bytes {
            identical += 1;
            continue;
        }
        for (kind, part, bits) in differences(row, &v.bytes, &got) {
            let covering = EXCEPTIONS.iter().enumerate().find(|(_, e)| {
                e.kinds.contains(&kind) && e.part == part && bits & !e.bits == 0 && bits != 0
            });
            match covering {
                Some((k, e)) => {
                    let kind = e.kinds.iter().find(|&&n| n == kind).expect("listed");
                    used.insert((k, kind));
                }
                None => {
                    uncovered.insert(
                        format!("{} {kind} {part} {bits:#b}", row.name),
                        format!("{want} ({})", v.hex),
                    );
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} lines fail:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        uncovered.is_empty(),
        "differences no exception covers:\n{uncovered:#?}"
    );
    let unneeded: Vec<String> = EXCEPTIONS
        .iter()
        .enumerate()
        .flat_map(|(k, e)| e.kinds.iter().map(move |kind| (k, e, *kind)))
        .filter(|(k, _, kind)| !used.contains(&(*k, kind)))
        .map(|(_, e, kind)| format!("{kind} {} ({})", e.part, e.reason))
        .collect();
    assert!(
        unneeded.is_empty(),
        "exceptions no vector needs: {unneeded:#?}"
    );
    assert_eq!(
        (assembled, total),
        (3271, 3271),
        "assembled / printed vectors"
    );
    eprintln!("{identical} of {total} vectors assemble to their exact bytes");
}

/// Bits of Mesa's vectors the applegpu text does not carry, by row.
struct MesaException {
    rows: &'static [&'static str],
    part: &'static str,
    bits: u64,
    reason: &'static str,
}

const MESA_EXCEPTIONS: &[MesaException] = &[
    MesaException {
        rows: &[
            "iter",
            "iterproj",
            "TODO.ldcf",
            "threadgroup_load",
            "threadgroup_store",
            "stack_store",
        ],
        part: "length",
        bits: 1,
        reason: "Mesa sets the length bit with zero extra bytes; both lengths print alike and \
                 the assembler takes the short one",
    },
    MesaException {
        rows: &["map"],
        part: "outside fields",
        bits: 1 << 26,
        reason: "AGX2.xml fixes bit 26 of map and unmap to 1; applegpu's map has no field or \
                 constant there",
    },
    MesaException {
        rows: &["stack_store"],
        part: "outside fields",
        bits: 1 << 16,
        reason: "these are AGX2.xml's stack_adjust (bit 16 set), which applegpu's stack_store \
                 reads without bit 16 (tests/agx2_table.rs)",
    },
    MesaException {
        rows: &["TODO.ld/st_tile"],
        part: "outside fields",
        bits: 1 << 55,
        reason: "AGX2.xml's tile coordinate has a type bit (55: a register pair) in no field of \
                 applegpu's, which prints the coordinate as an immediate",
    },
    MesaException {
        rows: &["sampler_state_store"],
        part: "outside fields",
        bits: 1 << 16,
        reason: "bit 16 is in no field of either description; Mesa's vector sets it",
    },
];

#[test]
fn mesa_vectors_reassemble_from_their_applegpu_text() {
    let Some((_, text)) = mesa_corpus() else {
        return;
    };
    let (mut total, mut identical) = (0, 0);
    let mut bad = Vec::new();
    let mut used = BTreeSet::new();
    for v in mesa_vectors(&text) {
        let (line, bytes) = (v.line, v.bytes);
        total += 1;
        let inst = decode(&bytes).expect("every Mesa vector decodes (tests/mesa_vectors.rs)");
        let want = applegpu(&inst, 0);
        let got = match assemble_line(&want, 0) {
            Ok(b) => b,
            Err(e) => {
                bad.push(format!("{line}: `{want}`: {e}"));
                continue;
            }
        };
        let back = decode(&got).map(|i| applegpu(&i, 0));
        if back.as_deref() != Ok(want.as_str()) {
            bad.push(format!(
                "{line}: `{want}` assembles to {got:02x?}, printed {back:?}"
            ));
            continue;
        }
        if got == bytes {
            identical += 1;
            continue;
        }
        for (_, part, bits) in differences(inst.row, &bytes, &got) {
            let covering = MESA_EXCEPTIONS.iter().position(|e| {
                e.rows.contains(&inst.row.name) && e.part == part && bits & !e.bits == 0
            });
            match covering {
                Some(k) => {
                    used.insert((k, inst.row.name));
                }
                None => bad.push(format!(
                    "{line}: `{want}` gives {got:02x?}: {part} {bits:#x}"
                )),
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} vectors fail:\n{}",
        bad.len(),
        bad.join("\n")
    );
    let unneeded: Vec<String> = MESA_EXCEPTIONS
        .iter()
        .enumerate()
        .flat_map(|(k, e)| e.rows.iter().map(move |r| (k, *r)))
        .filter(|key| !used.contains(key))
        .map(|(k, r)| format!("{r}: {}", MESA_EXCEPTIONS[k].reason))
        .collect();
    assert!(
        unneeded.is_empty(),
        "exceptions no vector needs: {unneeded:#?}"
    );
    assert_eq!(total, 555, "the corpus is fixed");
    eprintln!("{identical} of {total} Mesa vectors reassemble to their exact bytes");
}
