//! The parser never panics: on arbitrary strings, on soups of the grammar's own tokens, and
//! on valid text with random edits. Whatever it accepts prints and parses back to the same
//! function, and the verifier does not panic on it either.

use proptest::collection::vec;
use proptest::prelude::*;
use wavejit_ir::random::{generate, GlobalBuffer, Options};
use wavejit_ir::text::{parse, print};
use wavejit_ir::verify::verify;

fn survives(src: &str) -> Result<(), TestCaseError> {
    if let Ok(f) = parse(src) {
        let _ = verify(&f);
        let text = print(&f);
        prop_assert_eq!(parse(&text), Ok(f), "reprinted:\n{}", text);
    }
    Ok(())
}

const FRAGMENTS: &[&str] = &[
    "function",
    "\"k\"",
    "wave",
    "64",
    "{",
    "}",
    "uniform",
    "lane",
    "s",
    "v",
    "[",
    "]",
    ",",
    "block0",
    "block1",
    ":",
    "\n",
    "\n",
    " ",
    "%0",
    "%1",
    "%2",
    "=",
    "read",
    "write",
    "const",
    "0x7f",
    "-1",
    "1.5",
    "i32",
    "f32",
    "i64",
    "i1",
    "f16",
    "iadd",
    "not",
    "fadd.flush.rtz",
    "fmin.ieee",
    "fsin.ieee.turns",
    "icmp.eq",
    "select",
    "load.global.u32",
    "store.lds.b8",
    "atomic.cmpxchg.global.b64",
    "cmp",
    "mask",
    "@",
    "0x10",
    "insts",
    "+",
    "br",
    "jump",
    "return",
    "trap",
    "bad_jump",
    "jump_indirect",
    "barrier",
    ";",
    "\"",
    "\\",
    "splat",
    "ballot",
    "shuffle",
    "read_lane",
    "lane_id",
    "mask_from_bits",
    "s[0]",
    "v[1 + %0]",
    "\\u{41}",
    "-",
    ".",
    "e5",
];

const HEADER: &str = "function \"k\" wave 64 { uniform s[8], lane v[8] }\nblock0:\n";

fn small_options() -> Options {
    Options {
        max_blocks: 3,
        max_block_insts: 12,
        global: Some(GlobalBuffer {
            base: 0x1000,
            len: 1024,
        }),
        lds_bytes: Some(256),
        private_bytes: Some(16),
        faults: true,
        ..Options::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_text(s in "\\PC{0,300}") {
        survives(&s)?;
    }

    #[test]
    fn arbitrary_bytes(bytes in vec(any::<u8>(), 0..300)) {
        survives(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn token_soup(
        with_header in any::<bool>(),
        picks in vec((0..FRAGMENTS.len(), any::<bool>()), 0..60),
    ) {
        let mut s = if with_header { HEADER.to_string() } else { String::new() };
        for (i, space) in picks {
            s.push_str(FRAGMENTS[i]);
            if space {
                s.push(' ');
            }
        }
        survives(&s)?;
    }

    /// Valid printed functions with a few edits: characters deleted or inserted, fragments
    /// inserted, lines deleted or duplicated.
    #[test]
    fn edited_valid_text(
        seed in 0u64..200,
        edits in vec((any::<usize>(), 0u8..5, 0..FRAGMENTS.len()), 1..4),
    ) {
        let mut text: Vec<char> = print(&generate(seed, &small_options())).chars().collect();
        for (pos, kind, frag) in edits {
            let at = pos % (text.len() + 1);
            let line_start = text[..at].iter().rposition(|&c| c == '\n').map_or(0, |i| i + 1);
            let line_end = text[at..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(text.len(), |i| at + i + 1);
            match kind {
                0 if at < text.len() => {
                    text.remove(at);
                }
                1 => text.insert(at, FRAGMENTS[frag].chars().next().unwrap_or(' ')),
                2 => {
                    let f: Vec<char> = FRAGMENTS[frag].chars().collect();
                    text.splice(at..at, f);
                }
                3 => {
                    text.drain(line_start..line_end);
                }
                _ => {
                    let line: Vec<char> = text[line_start..line_end].to_vec();
                    text.splice(line_start..line_start, line);
                }
            }
        }
        survives(&text.into_iter().collect::<String>())?;
    }
}
