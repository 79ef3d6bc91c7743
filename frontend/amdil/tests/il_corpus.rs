//! The IL encodings of the AMD APP SDK corpus (../shared/corpora/amd-app-sdk, read in place
//! through the appsdk loader): each decodes, prints as IL text that parses back to the same
//! tokens, and holds what il_sources.md §1 found in them by hand.

mod appsdk_common;

use wavejit_amdil::table::op;
use wavejit_amdil::{appsdk, decode, encode, parse, print};

/// Streams that do not decode, and why: opcode 550 is past every ILOpCode table there is
/// (il_opcodes.tsv ends at 483, grvk's amdil.h has nothing between 483 and 660).
const UNDECODED: [(&str, &str, &str); 1] = [(
    "si/MonteCarloAsianDP_Kernels.bin",
    "calPriceVega",
    "unknown IL opcode 550 at token 7994",
)];

#[test]
fn corpus_il_round_trips_through_text() {
    let Some(corpus) = appsdk_common::corpus() else {
        return;
    };
    let (mut streams, mut undecoded) = (0, Vec::new());
    for (path, bytes) in corpus {
        let binary = appsdk::load(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        for k in &binary.kernels {
            let il = &k
                .il()
                .unwrap_or_else(|| panic!("{path} {}: no IL", k.name))
                .text;
            streams += 1;
            let p = match decode::decode(il) {
                Ok(p) => p,
                Err(e) => {
                    undecoded.push((path.clone(), k.name.clone(), e.to_string()));
                    continue;
                }
            };
            let text = print::print(&p);
            let back = parse::parse(&text).unwrap_or_else(|e| panic!("{path} {}: {e}", k.name));
            assert_eq!(back, p, "{path} {}", k.name);
            assert_eq!(&encode::encode(&back).unwrap(), il, "{path} {}", k.name);
            assert_eq!(print::print(&back), text, "{path} {}", k.name);
            facts(&path, &k.name, &p, &text);
        }
    }
    assert_eq!(
        streams, 58,
        "54 sample kernels, SI vector-add and matrix-mul, two Evergreen"
    );
    let want: Vec<_> = UNDECODED
        .iter()
        .map(|(p, k, e)| (p.to_string(), k.to_string(), e.to_string()))
        .collect();
    assert_eq!(undecoded, want);
}

/// il_sources.md §1: a stream is the divide macro mdef(16383), language 0, IL 2.0 compute,
/// then dcl_cb cb0[15] and its comment; the kernel's metadata comments name it.
fn facts(path: &str, kernel: &str, p: &wavejit_amdil::inst::Program, text: &str) {
    let first = p
        .macros
        .first()
        .unwrap_or_else(|| panic!("{path} {kernel}: no macro"));
    assert_eq!(
        (first.op, first.control),
        (op::MACRODEF, 16383),
        "{path} {kernel}"
    );
    assert_eq!(
        (p.lang, p.version.token()),
        (0, 0x0003_0200),
        "{path} {kernel}"
    );
    assert!(
        text.contains("\nil_cs_2_0\ndcl_cb cb0[15]\n; Constant buffer that holds ABI data"),
        "{path} {kernel}"
    );
    assert!(
        text.contains(&format!(";ARGSTART:__OpenCL_{kernel}_kernel")),
        "{path} {kernel}"
    );
    assert_eq!(p.code.last().map(|i| i.op), Some(op::END));
}
