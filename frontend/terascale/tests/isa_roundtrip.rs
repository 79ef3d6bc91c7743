//! Decode/encode round trips on llc's vectors, and the decoder on hostile input: random bytes
//! and mutated vectors never panic, and whatever decodes re-encodes to the same bytes.
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_terascale::{decode_program, encode_program, print_program, ChipClass};

#[path = "isa_vectors.rs"]
#[allow(dead_code)]
mod vectors;

#[test]
fn vectors_reencode_to_their_bytes() {
    for f in vectors::vectors() {
        let p = decode_program(f.chip.class(), &f.bytes).unwrap();
        assert_eq!(
            encode_program(&p).unwrap(),
            f.bytes,
            "{} {}",
            f.file,
            f.name
        );
    }
}

#[test]
fn random_and_mutated_input_never_panics() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e7a5ca1e);
    let all = vectors::vectors();
    let mut decoded = 0;
    for round in 0..3000 {
        let class = ChipClass::ALL[round % 2];
        let bytes: Vec<u8> = if round % 3 == 0 {
            let n = rng.gen_range(0..40) * 8
                + if rng.gen_bool(0.1) {
                    rng.gen_range(1..8)
                } else {
                    0
                };
            (0..n).map(|_| rng.gen()).collect()
        } else {
            let f = &all[rng.gen_range(0..all.len())];
            let mut b = f.bytes.clone();
            for _ in 0..rng.gen_range(1..4) {
                let i = rng.gen_range(0..b.len());
                b[i] ^= 1 << rng.gen_range(0..8);
            }
            b
        };
        if let Ok(p) = decode_program(class, &bytes) {
            decoded += 1;
            let _ = print_program(&p);
            assert_eq!(encode_program(&p).unwrap(), bytes, "round {round}");
        }
    }
    assert!(
        decoded > 100,
        "mutations should often stay decodable ({decoded})"
    );
}
