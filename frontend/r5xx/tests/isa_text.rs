//! The assembler syntax: every slot prints and parses back to the same words (proptest over
//! random words and over the edge patterns of every slot type), hand-written lines with the
//! words they must give (worked out from ctm_map.md §4 by hand), every spelling of every
//! table, and one-line parse errors with their line numbers.

use proptest::prelude::*;
use wavejit_r5xx::decode::decode;
use wavejit_r5xx::encode::encode;
use wavejit_r5xx::parse::parse_inst;
use wavejit_r5xx::print::print_inst;

fn through_text(w: [u32; 6]) -> String {
    let inst = decode(w).unwrap();
    let text = print_inst(&inst);
    let back = parse_inst(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    assert_eq!(encode(&back), w, "{text}");
    assert_eq!(print_inst(&back), text);
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]
    #[test]
    fn random_slots_print_and_parse_back(w in any::<[u32; 6]>()) {
        through_text(w);
    }

    /// Sparse words: mostly-zero slots, where defaults and omissions matter.
    #[test]
    fn sparse_slots_print_and_parse_back(
        ty in 0u32..4,
        bits in proptest::collection::vec((0usize..6, 0u32..32), 0..6),
    ) {
        let mut w = [ty, 0, 0, 0, 0, 0];
        for (word, bit) in bits {
            w[word] |= 1 << bit;
        }
        through_text(w);
    }
}

#[test]
fn every_single_bit_slot_prints_and_parses_back() {
    for ty in 0..4u32 {
        through_text([ty, 0, 0, 0, 0, 0]);
        for word in 0..6 {
            for bit in 0..32 {
                let mut w = [ty, 0, 0, 0, 0, 0];
                w[word] |= 1 << bit;
                through_text(w);
                let mut w = [!0u32; 6];
                w[0] = (w[0] & !3) | ty;
                if word != 0 || bit >= 2 {
                    w[word] &= !(1 << bit);
                }
                through_text(w);
            }
        }
    }
}

/// Lines and the words they must assemble to, each field worked out by hand from the bit
/// layout (ctm_map.md §4); each also prints back to itself.
#[test]
fn hand_written_lines_give_hand_computed_words() {
    let unused12 = 0x80 << 10 | 0x80 << 20;
    let cases: Vec<(&str, [u32; 6])> = vec![
        (
            "alu  r1.rgb = mad src0.rgb, src1.rrr, src2.rrr ; r1.a = rcp src0.a \
             {src0 = r2, src1 = c0, src2 = 0.5}",
            [
                7 << 11 | 1 << 14,
                2 | 1 << 18 | 0xb0 << 20,
                2 | 1 << 18 | 0xb0 << 20,
                1 << 5 | 2 << 8 | 1 << 13,
                10 | 1 << 4 | 3 << 14,
                1 << 4 | 2 << 12,
            ],
        ),
        (
            "tex  r0.rgba = ld t0, r0.rgrr [sem_wait, acquire, ignore_uncovered]",
            [0x7807, 0x0640_0000, 0xe400_0400, 0, 0, 0],
        ),
        (
            "fc   jump 7 [alu_wait, func=0xf, b_op0=incr, b_op1=incr, ignore_uncovered]",
            [
                2 | 1 << 10,
                0,
                0x0f << 8 | 2 << 24 | 2 << 26 | 1 << 28,
                7 << 16,
                0,
                0,
            ],
        ),
        (
            "out  o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a \
             {src0 = r1} [sem_wait, last]",
            [
                1 | 1 << 2 | 7 << 15 | 1 << 18 | 1 << 8,
                1 | unused12,
                1 | unused12,
                1 << 5 | 2 << 8 | 1 << 18 | 2 << 21 | 7 << 26,
                3 | 3 << 14 | 3 << 21 | 7 << 26,
                5,
            ],
        ),
        (
            "alu  (p.rrrr) r2.rg, p.b(ne) = mad.sat.x2 -src0.rgb, |srcp.bgr|, src0.000 \
             {src0.rgb = r2, src0.a = c3+aL, srcp = sub} [nop]",
            [
                2 << 3 | 3 << 11 | 4 << 15 | 1 << 19 | 1 << 9,
                2 | unused12 | 1 << 30,
                3 | 1 << 8 | 1 << 9 | unused12 | 1 << 30,
                1 << 5
                    | 2 << 8
                    | 1 << 11
                    | 3 << 13
                    | 2 << 15
                    | 1 << 18
                    | 2 << 24
                    | 1 << 26
                    | 3 << 29,
                0,
                2 << 4 | 4 << 14 | 4 << 17 | 4 << 20,
            ],
        ),
        (
            // Inline constants by value and raw, REL sources and destinations, W_OMASK,
            // NAB, a second output target, the alpha unit's predicate and clamp.
            "out  r127+aL.b, o3.r = cmp src0.rgb, src1.bbb, -|src2.h1_| ; (!p.aaaa) r5._, w = \
             frc.sat src1.g {src0 = 480, src1 = lit(0x38)+aL, src2.rgb = c255+aL, src2.a = _+aL}",
            [
                1 | 4 << 11 | 1 << 15 | 5 << 25 | 1 << 22 | 1 << 20,
                0xff | (0xb8 | 1 << 9) << 10 | (0xff | 3 << 8) << 20,
                0xff | (0xb8 | 1 << 9) << 10 | (0x80 | 1 << 9) << 20,
                1 << 5 | 2 << 8 | 1 << 13 | 2 << 15 | 2 << 18 | 2 << 21 | 3 << 29,
                7 | 5 << 4 | 1 << 12 | 1 << 14 | 1 << 31,
                8 | 127 << 4 | 1 << 11 | 2 << 12 | 5 << 14 | 6 << 17 | 7 << 20 | 3 << 23,
            ],
        ),
    ];
    for (text, words) in cases {
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let inst = parse_inst(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
        assert_eq!(encode(&inst), words, "{text}");
        let printed = print_inst(&inst);
        // The printer writes an inline constant by its value (0x38 is 1.0).
        let expect = text.replace("lit(0x38)", "1");
        assert_eq!(
            printed.split_whitespace().collect::<Vec<_>>().join(" "),
            expect
        );
    }
}

/// Whole programs through the shared test kit: random byte strings that decode (whole
/// slots) re-encode through print and parse; printed programs parse to the same slots.
#[test]
fn programs_reencode_through_text_with_the_test_kit() {
    use wavejit_isa::testkit::{random_cases, reencodes, text_round_trip};
    use wavejit_r5xx::decode::decode_bytes;
    use wavejit_r5xx::encode::encode_bytes;
    use wavejit_r5xx::parse::parse_program;
    use wavejit_r5xx::print::print_program;
    let cases = || {
        random_cases(0x5e5, 300, 0..=24 * 8).map(|mut c| {
            c.bytes.truncate(c.bytes.len() / 24 * 24);
            c
        })
    };
    let decoded = reencodes("r5xx program text", cases(), decode_bytes, |p| {
        parse_program(&print_program(p)).map(|q| encode_bytes(&q))
    });
    assert_eq!(decoded, 300);
    let programs: Vec<_> = cases().map(|c| decode_bytes(&c.bytes).unwrap()).collect();
    assert_eq!(
        text_round_trip(
            "r5xx programs",
            programs,
            |p| print_program(p),
            parse_program
        ),
        300
    );
}

/// Mutated program text never panics the assembler; it assembles or gives a one-line error.
#[test]
fn mutated_text_never_panics_the_parser() {
    use wavejit_isa::testkit::{never_panics, Mutator};
    use wavejit_r5xx::parse::parse_program;
    let corpus = [
        "top: alu r1.rgb = mad src0.rgb, src1.rrr, src2.rrr ; r1.a = rcp src0.a {src0 = r2, src1 = c0, src2 = 0.5} [nop]\nfc jump top [func=0xf]\n",
        "tex r0.rgba = ld t0.bgra, r0.rgrr, r1+aL.rgba, r2.aaaa [unscaled, unused1=0x3]\nout o0.rgb, r3.r = max.disable -|src0.rgb|, src0.rgb ; o0.a, w = max src0.a {src0 = lit(0x38)+aL, srcp.a = inv} [sem_wait, last]\n",
    ];
    let m = Mutator::new(corpus.map(|s| s.as_bytes().to_vec()), 0x7e47);
    let n = never_panics("r5xx parser", m.cases(3000), |bytes| {
        if let Err(e) = parse_program(&String::from_utf8_lossy(bytes)) {
            assert!(!e.to_string().contains('\n'));
        }
    });
    assert_eq!(n, 3000);
}
