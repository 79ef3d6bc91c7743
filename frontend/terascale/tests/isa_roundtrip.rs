//! Decode/encode and print/assemble round trips on llc's vectors, and the decoder on hostile
//! input: random bytes and mutated vectors never panic, and whatever decodes re-encodes to the
//! same bytes (checks from `wavejit_isa::testkit`).
use wavejit_isa::testkit::{self, Case, Mutation, Mutator};
use wavejit_terascale::asm::assemble;
use wavejit_terascale::{decode_program, encode_program, print_program, ChipClass, Program};

#[path = "isa_vectors.rs"]
#[allow(dead_code)]
mod vectors;

/// The vectors of one chip class, labelled by file and function.
fn vector_cases(class: ChipClass) -> Vec<Case> {
    vectors::vectors()
        .into_iter()
        .filter(|f| f.chip.class() == class)
        .map(|f| Case::new(f.bytes, format!("{} {}", f.file, f.name)))
        .collect()
}

#[test]
fn vectors_reencode_to_their_bytes() {
    let mut total = 0;
    for class in ChipClass::ALL {
        let cases = vector_cases(class);
        let n = cases.len();
        assert!(n > 0, "{class:?}: no vectors");
        let decoded = testkit::reencodes(
            &format!("{class:?} vectors decode/encode"),
            cases,
            |b| decode_program(class, b),
            encode_program,
        );
        // Every vector decodes (the vector test checks the listing too).
        assert_eq!(decoded, n, "{class:?}: some vectors do not decode");
        total += n;
    }
    assert_eq!(total, vectors::vectors().len());
}

/// Every vector program prints to text that assembles to the same program, and printing that
/// again gives the same text.
#[test]
fn vector_programs_print_and_parse_back() {
    for class in ChipClass::ALL {
        let programs: Vec<Program> = vector_cases(class)
            .iter()
            .map(|c| decode_program(class, &c.bytes).unwrap())
            .collect();
        testkit::text_round_trip(
            &format!("{class:?} vectors print/assemble"),
            programs,
            |p| print_program(p).join("\n"),
            |text| -> Result<Program, String> {
                let b = assemble(class, text).map_err(|e| e.to_string())?;
                decode_program(class, &b).map_err(|e| e.to_string())
            },
        );
    }
}

#[test]
fn random_and_mutated_input_never_panics() {
    let all: Vec<Vec<u8>> = vectors::vectors().into_iter().map(|f| f.bytes).collect();
    let mut decoded = 0;
    for (k, class) in ChipClass::ALL.into_iter().enumerate() {
        let seed = 0x7e7a5ca1e + k as u64;
        // Random programs of whole 64-bit words (one in ten with a ragged tail).
        let random = testkit::random_cases(seed, 500, 0..=320).map(|mut c| {
            if c.bytes.len() % 10 != 0 {
                c.bytes.truncate(c.bytes.len() / 8 * 8);
            }
            c
        });
        // Vectors (of either class) with a few flipped bits: mostly still decodable.
        let flips = Mutator::new(all.clone(), seed)
            .with(&[Mutation::BitFlip])
            .steps(1..=3);
        // Vectors with any mutation: structure broken in every way.
        let any = Mutator::new(all.clone(), seed ^ 0xa11);
        let inputs = random.chain(flips.cases(1000)).chain(any.cases(1000));
        decoded += testkit::reencodes(
            &format!("{class:?} decode of random and mutated programs"),
            inputs,
            |b| decode_program(class, b),
            |p| {
                let _ = print_program(p);
                encode_program(p)
            },
        );
    }
    assert!(
        decoded > 100,
        "mutations should often stay decodable ({decoded})"
    );
}
