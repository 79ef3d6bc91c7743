//! `wavejit disasm` of every TeraScale fixture prints llc-14's own listing of it (K.s). (The
//! fixtures' runs are tests/fixtures_run.rs's, with every other ISA's.)

mod cli_util;

use serde_json::Value;
use wavejit::fixtures;

fn dir(t: &Value) -> std::path::PathBuf {
    fixtures::root().join(t["dir"].as_str().unwrap())
}

fn name(k: &Value) -> &str {
    k["kernel"].as_str().unwrap()
}

/// The instruction lines of llc's listing K.s: the lines of the function's body (from its
/// label to `.Lfunc_end`) that start with a tab, without it: CF instructions, `PAD`, clause
/// headers, ALU slots (indented by two more spaces), literal pairs, fetches.
fn llc_listing(path: &std::path::Path, kernel: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let label = format!("{kernel}:");
    text.lines()
        .skip_while(|l| !l.starts_with(&label))
        .skip(1)
        .take_while(|l| !l.starts_with(".Lfunc_end"))
        .filter_map(|l| l.strip_prefix('\t'))
        .map(str::to_string)
        .collect()
}

/// The one documented difference from LLVM's text (as in frontend/terascale's isa_vectors
/// test): LLVM prints 64- and 128-bit STORE_DWORD alike, wavejit marks the 64-bit form.
fn same_line(got: &str, want: &str) -> bool {
    got == want || (want.contains("STORE_DWORD") && got == format!("{want} COMP_MASK:3"))
}

#[test]
fn disasm_prints_the_llc_listing() {
    let m = fixtures::manifest().unwrap();
    let list = m.isas.iter().find(|l| l.isa == "terascale").unwrap();
    let mut compared = 0;
    for t in &list.targets {
        for k in m.kernels.iter().filter(|k| !fixtures::not_compiled(t, k)) {
            let object = dir(t).join(format!("{}.o", name(k)));
            let object = object.to_str().unwrap();
            let text = cli_util::succeeds(&["disasm", object, "--kernel", name(k)]);
            let mut lines = text.lines();
            assert_eq!(lines.next(), Some(format!("{}:", name(k)).as_str()));
            let got: Vec<&str> = lines.map(|l| l.strip_prefix('\t').unwrap()).collect();
            let want = llc_listing(&dir(t).join(format!("{}.s", name(k))), name(k));
            assert!(want.len() > 5, "{object}: listing not found");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert!(
                    same_line(g, w),
                    "{object} line {i}:\n  got  {g:?}\n  want {w:?}"
                );
            }
            assert_eq!(got.len(), want.len(), "{object}: line count");
            compared += 1;
        }
    }
    // Every kernel on every target but the three llc-14 rejects (missing.tsv).
    assert_eq!(compared, list.targets.len() * m.kernels.len() - 3);
}
