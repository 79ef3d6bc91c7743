//! Every instruction row of the opcode table round-trips: a representative instruction of each
//! (plain, and with every field, modifier and operand form the row allows) goes binary -> text
//! -> binary to the same tokens, and text -> binary -> text to the same text.

mod il_common;

use il_common::{bytes, row_program, samples};
use wavejit_amdil::{decode, encode, parse, print, table};
use wavejit_isa::testkit::{reencodes, round_trip, text_round_trip, Case};

#[test]
fn every_row_has_two_samples() {
    let rows = table::rows().iter().filter(|r| r.is_instruction()).count();
    assert_eq!(rows, 482, "484 values less IL_OP_UNKNOWN and IL_OP_LAST");
    assert_eq!(samples().len(), 2 * rows);
}

#[test]
fn every_row_round_trips_binary_text_binary() {
    let cases: Vec<Case> = samples()
        .into_iter()
        .map(|(row, inst)| {
            let p = row_program(inst);
            let words = encode::encode_words(&p).unwrap_or_else(|e| panic!("{}: {e}", row.name));
            Case::new(bytes(&words), format!("{} {}", row.name, print::print(&p)))
        })
        .collect();
    let n = cases.len();
    let decoded = reencodes(
        "binary -> text -> binary",
        cases,
        decode::decode,
        |p| -> Result<Vec<u8>, String> {
            let text = print::print(p);
            let back = parse::parse(&text).map_err(|e| format!("{e}\n{text}"))?;
            encode::encode(&back).map_err(|e| e.to_string())
        },
    );
    assert_eq!(decoded, n, "every sample decodes");
}

#[test]
fn every_row_round_trips_text_binary_text() {
    let programs: Vec<_> = samples().into_iter().map(|(_, i)| row_program(i)).collect();
    text_round_trip(
        "text -> program",
        programs.clone(),
        print::print,
        parse::parse,
    );
    round_trip(
        "program -> binary -> program",
        programs.clone(),
        encode::encode,
        |b: &Vec<u8>| decode::decode(b),
    );
    round_trip(
        "text -> binary -> text",
        programs.iter().map(print::print).collect::<Vec<_>>(),
        |t: &String| parse::parse(t).map(|p| encode::encode(&p).expect("encodes")),
        |b: &Vec<u8>| decode::decode(b).map(|p| print::print(&p)),
    );
}
