//! Malformed input: arbitrary and mutated token streams and texts decode or parse, or fail with
//! an error value, never a panic (the shared testkit checks); every stream that does decode
//! goes back to its own tokens through text; named defects give the errors they should, each a
//! one-line message.

mod appsdk_common;
mod il_common;

use il_common::programs::PROGRAMS;
use il_common::{bytes, row_program, samples};
use wavejit_amdil::appsdk;
use wavejit_amdil::decode::{self, DecodeError};
use wavejit_amdil::{encode, parse, print};
use wavejit_isa::testkit::{never_panics, random_cases, reencodes, Case, Mutation, Mutator};

/// Valid streams: every row's samples and the hand-written programs.
fn corpus() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = samples()
        .into_iter()
        .map(|(_, i)| encode::encode(&row_program(i)).unwrap())
        .collect();
    for (_, text) in PROGRAMS {
        out.push(encode::encode(&parse::parse(text).unwrap()).unwrap());
    }
    out
}

/// Decoding, then print -> parse -> encode.
fn through_text(p: &wavejit_amdil::inst::Program) -> Result<Vec<u8>, String> {
    let text = print::print(p);
    let back = parse::parse(&text).map_err(|e| format!("{e}\n{text}"))?;
    encode::encode(&back).map_err(|e| e.to_string())
}

#[test]
fn random_streams_never_panic() {
    let n = never_panics("decode random", random_cases(0x11, 4000, 0..=512), |b| {
        let _ = decode::decode(b);
    });
    assert_eq!(n, 4000);
    // Random tokens behind a valid header reach the packet decoder.
    let cases = random_cases(0x12, 4000, 0..=256).map(|c| {
        let mut b = bytes(&[0, 0x0003_0200]);
        b.extend(c.bytes);
        Case::new(b, c.origin)
    });
    never_panics("decode random packets", cases, |b| {
        let _ = decode::decode(b);
    });
}

/// The corpus's IL streams, when the corpus is there (real compiler output: comments with
/// stray bytes, macros, long functions).
fn corpus_il() -> Vec<Vec<u8>> {
    let Some(files) = appsdk_common::corpus() else {
        return Vec::new();
    };
    files
        .iter()
        .filter_map(|(_, b)| appsdk::load(b).ok())
        .flat_map(|b| b.kernels)
        .filter_map(|k| k.il().map(|e| e.text.clone()))
        .collect()
}

#[test]
fn mutated_streams_never_panic_and_decoded_ones_reencode() {
    let mut all = corpus();
    all.extend(corpus_il());
    let m = Mutator::new(all, 0x5eed);
    never_panics("decode mutants", m.cases(20000), |b| {
        let _ = decode::decode(b);
    });
    let in_place = Mutator::new(corpus(), 0x5eee).with(&Mutation::IN_PLACE);
    let decoded = reencodes(
        "mutants through text",
        in_place.cases(20000),
        decode::decode,
        through_text,
    );
    assert!(
        decoded > 2000,
        "only {decoded} of 20000 in-place mutants decode"
    );
}

#[test]
fn mutated_texts_never_panic() {
    let texts: Vec<Vec<u8>> = PROGRAMS
        .iter()
        .map(|(_, t)| t.as_bytes().to_vec())
        .collect();
    let m = Mutator::new(texts, 0x7e47);
    never_panics("parse mutants", m.cases(20000), |b| {
        let text = String::from_utf8_lossy(b);
        if let Ok(p) = parse::parse(&text) {
            // What parses prints and parses back to itself.
            let again = parse::parse(&print::print(&p)).expect("printed text parses");
            assert_eq!(again, p);
        }
    });
}

const HEAD: [u32; 2] = [0, 0x0003_0200];

fn stream(tokens: &[u32]) -> Result<wavejit_amdil::inst::Program, DecodeError> {
    let mut w = HEAD.to_vec();
    w.extend(tokens);
    decode::decode(&bytes(&w))
}

#[test]
fn truncated_streams_are_errors() {
    let b = encode::encode(&parse::parse(PROGRAMS[1].1).unwrap()).unwrap();
    for len in 0..b.len() {
        let e = decode::decode(&b[..len]).expect_err("a cut stream does not decode");
        if len % 4 == 0 {
            assert!(
                matches!(e, DecodeError::Truncated { .. }),
                "cut at {len}: {e}"
            );
        } else {
            assert_eq!(e, DecodeError::Length(len));
        }
    }
}

#[test]
fn named_defects() {
    let mov = 71;
    let r0 = 0x0004_0000;
    let r1 = 0x0004_0001;
    let cases: Vec<(&str, Vec<u32>, DecodeError)> = vec![
        (
            "no end",
            vec![mov, r0, r1],
            DecodeError::Truncated {
                at: 5,
                what: "an IL_Opcode token",
            },
        ),
        (
            "unknown opcode",
            vec![511, 40],
            DecodeError::UnknownOpcode { at: 2, code: 511 },
        ),
        (
            "IL_OP_UNKNOWN",
            vec![0, 40],
            DecodeError::UnknownOpcode { at: 2, code: 0 },
        ),
        (
            "IL_OP_LAST",
            vec![483, 40],
            DecodeError::UnknownOpcode { at: 2, code: 483 },
        ),
        (
            "bad register type",
            vec![mov, 0x003f_0000, r1, 40],
            DecodeError::BadToken {
                at: 3,
                word: 0x003f_0000,
                why: "register type 63 (IL_REGTYPE_LAST)",
            },
        ),
        (
            "destination modifier missing",
            vec![mov, 0x0044_0000],
            DecodeError::Truncated {
                at: 4,
                what: "an IL_Dst_Mod token",
            },
        ),
        (
            "source modifier missing",
            vec![mov, r0, 0x0044_0001],
            DecodeError::Truncated {
                at: 5,
                what: "an IL_Src_Mod token",
            },
        ),
        (
            "immediate index missing",
            vec![mov, r0, 0x041f_0000],
            DecodeError::Truncated {
                at: 5,
                what: "an immediate index",
            },
        ),
        (
            "index source missing",
            vec![mov, r0, 0x011e_0000],
            DecodeError::Truncated {
                at: 5,
                what: "an IL_Src token",
            },
        ),
        (
            "tokens after end",
            vec![40, 0],
            DecodeError::Trailing { at: 3, count: 1 },
        ),
        (
            "select past IL_COMPSEL_1",
            vec![mov, r0, 0x0044_0001, 6, 40],
            DecodeError::BadToken {
                at: 5,
                word: 6,
                why: "IL_Src_Mod component select past IL_COMPSEL_1",
            },
        ),
        (
            "primary modifier on mov",
            vec![mov | 1 << 31, 0, r0, r1, 40],
            DecodeError::Malformed {
                at: 2,
                op: "mov",
                why: "control bits 0x8000 must be zero".into(),
            },
        ),
        (
            "relop past IL_RELOP_LT",
            vec![52 | 6 << 16, r0, r1, 40],
            DecodeError::Malformed {
                at: 2,
                op: "ifc",
                why: "relop value 6 is not defined".into(),
            },
        ),
        (
            "four thread dimensions",
            vec![212 | 4 << 16, 1, 1, 1, 1, 40],
            DecodeError::Malformed {
                at: 2,
                op: "dcl_num_thread_per_group",
                why: "4 dimensions, not 1 to 3".into(),
            },
        ),
        (
            "comment without its NUL",
            vec![15, 1, u32::from_le_bytes(*b"abcd"), 40],
            DecodeError::Malformed {
                at: 2,
                op: "comment",
                why: "comment text without its terminating NUL".into(),
            },
        ),
        (
            "immediate constant buffer longer than the stream",
            vec![118 | 1 << 31, u32::MAX, 40],
            DecodeError::Truncated {
                at: 5,
                what: "the immediate constant buffer",
            },
        ),
    ];
    for (name, tokens, want) in cases {
        let got = stream(&tokens).expect_err(name);
        assert_eq!(got, want, "{name}");
        assert!(!got.to_string().contains('\n'), "{name}: {got}");
    }
}

#[test]
fn unsupported_operand_forms_are_errors() {
    let relative = stream(&[71, 0x0004_0000, 0x0084_0001, 40]).unwrap_err();
    assert!(
        matches!(relative, DecodeError::Malformed { op: "operand", .. }),
        "{relative}"
    );
    assert!(relative.to_string().contains("IL_Rel_Addr"), "{relative}");
    // x1[x1[...[r0]...]]: index sources nested past the limit.
    let mut tokens = vec![71, 0x0004_0000];
    tokens.extend(std::iter::repeat_n(0x011e_0001, decode::MAX_NESTING + 1));
    tokens.extend([0x0004_0000, 40]);
    let deep = stream(&tokens).unwrap_err();
    assert!(deep.to_string().contains("nested deeper"), "{deep}");
    tokens.drain(2..4);
    assert!(stream(&tokens).is_ok(), "the limit itself decodes");
}

#[test]
fn text_errors_name_their_line() {
    let cases = [
        ("mov r0, r1\nend\n", 1, "before the version line"),
        ("il_cs_2_0\nmov r0, r1\n", 2, "no end instruction"),
        ("il_cs_2_0\nfrobnicate r0\nend\n", 2, "unknown instruction"),
        ("il_cs_2_0\nmov r0\nend\n", 2, "takes 2 operands, not 1"),
        ("il_cs_2_0\nmov q0, r1\nend\n", 2, "unknown register"),
        ("il_cs_2_0\nmov r0.yx, r1\nend\n", 2, "bad write mask"),
        ("il_cs_2_0\nmov r0, r1.xq\nend\n", 2, "bad select"),
        (
            "il_cs_2_0\nifc_relop(xx) r0, r1\nend\n",
            2,
            "is not one of ne, eq",
        ),
        (
            "il_cs_2_0\nuav_raw_load_id(11)_banana r0, r1\nend\n",
            2,
            "unknown specifier",
        ),
        ("il_cs_2_0\nend\nmov r0, r1\n", 3, "text after end"),
        ("il_cs_2_0\nmov r0, cb0[r1.x\nend\n", 2, "unbalanced"),
        ("il_xs_2_0\nend\n", 1, "unknown shader type"),
        (
            "il_cs_2_0\ndcl_num_thread_per_group 1, 2, 3, 4\nend\n",
            2,
            "1 to 3 numbers",
        ),
        (
            "mdef(1)_out(1)_in(1)\nmov out0, in0\nil_cs_2_0\nend\n",
            3,
            "inside a macro",
        ),
    ];
    for (text, line, want) in cases {
        let e = parse::parse(text).expect_err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.why.contains(want), "{text:?}: {e}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}
