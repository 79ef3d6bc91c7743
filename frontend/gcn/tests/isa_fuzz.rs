//! Arbitrary and mutated bytes never make the decoder, printer or encoder panic; random
//! instructions round-trip through encode/decode and print/assemble (checks from
//! `wavejit_isa::testkit`).
use wavejit_gcn::random::{generate, GenConfig};
use wavejit_gcn::{assemble, decode, print, Gen, Inst};
use wavejit_isa::testkit::{self, Mutator};

/// Decodes `bytes` as one instruction of each generation; whatever decodes fits in the input
/// and prints and encodes without panicking. Returns how many generations decoded it.
fn decode_print_encode(bytes: &[u8]) -> usize {
    let mut decoded = 0;
    for g in Gen::ALL {
        if let Ok(i) = decode(g, bytes, 0) {
            decoded += 1;
            assert!(i.len as usize <= bytes.len());
            let _ = print(&i);
            let _ = wavejit_gcn::encode::encode(&i);
        }
    }
    decoded
}

#[test]
fn random_bytes_never_panic() {
    let mut decoded = 0;
    let n = testkit::never_panics(
        "gcn decode of random bytes",
        testkit::random_cases(0x9e37_79b9_7f4a_7c15, 20_000, 0..=12),
        |b| decoded += decode_print_encode(b),
    );
    assert_eq!(n, 20_000);
    assert!(decoded > 1000, "only {decoded} random words decoded");
}

/// The LLVM vectors' bytes (tests/vectors/gfxN.txt, hex<TAB>text) of every generation.
fn vector_words() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for g in Gen::ALL {
        let path = format!(
            "{}/tests/vectors/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            g.name()
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for line in text.lines().filter(|l| !l.is_empty()) {
            let hex = line.split_once('\t').expect("hex<TAB>text").0;
            out.push(
                (0..hex.len() / 2)
                    .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
                    .collect(),
            );
        }
    }
    out
}

/// Real instructions with flipped bits, edge bytes and dwords, cut, extended and spliced:
/// mostly near-valid encodings, which reach deeper into the operand decoders than random bytes.
#[test]
fn mutated_vector_words_never_panic() {
    let words = vector_words();
    assert!(words.len() > 4000, "{} vectors", words.len());
    let mut decoded = 0;
    testkit::never_panics(
        "gcn decode of mutated vectors",
        Mutator::new(words, 0x6c6e_0001).steps(1..=2).cases(15_000),
        |b| decoded += decode_print_encode(b),
    );
    assert!(decoded > 10_000, "only {decoded} mutated words decoded");
}

/// Instructions of seeded random programs, with their lengths as encoded.
fn random_insts(gen: Gen) -> Vec<Inst> {
    let mut out = Vec::new();
    for seed in 0..40 {
        let p = generate(gen, seed, &GenConfig::default())
            .unwrap_or_else(|e| panic!("{gen:?} seed {seed}: {e}"));
        for (k, it) in p.items.iter().enumerate() {
            let mut inst = it.inst.clone();
            let end = p.offsets.get(k + 1).copied().unwrap_or(p.code.len());
            inst.len = (end - p.offsets[k]) as u8;
            out.push(inst);
        }
    }
    out
}

#[test]
fn random_instructions_round_trip() {
    for gen in Gen::ALL {
        let insts = random_insts(gen);
        assert!(insts.len() > 1000, "{gen:?}: {} instructions", insts.len());
        testkit::round_trip(
            &format!("{gen:?} encode/decode"),
            insts.iter().cloned(),
            wavejit_gcn::encode::encode,
            |b: &Vec<u8>| decode(gen, b, 0),
        );
        testkit::text_round_trip(
            &format!("{gen:?} print/assemble"),
            insts,
            print,
            |text: &str| -> Result<Inst, String> {
                let b = assemble(gen, text).map_err(|e| e.to_string())?;
                decode(gen, &b, 0).map_err(|e| e.to_string())
            },
        );
    }
}
