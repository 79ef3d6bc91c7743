//! Every fixture kernel on every target of every ISA (tests/fixtures/manifest.json and each
//! tests/fixtures/*/targets.json), under both engines: outputs must match the host-native
//! build of the same OpenCL C source (tests/fixtures/README.md), and the JIT must agree with
//! the interpreter bit for bit on every buffer. Nothing is skipped but the kernels a chip's
//! compiler could not build (a target's `missing`, with the compiler's reason in that
//! directory's missing.tsv), which must then have no binary.

use serde_json::Value;
use wavejit::fixtures;

fn name(k: &Value) -> &str {
    k["kernel"].as_str().unwrap()
}

fn binary(t: &Value, k: &Value) -> std::path::PathBuf {
    fixtures::root()
        .join(t["dir"].as_str().unwrap())
        .join(format!("{}.{}", name(k), t["ext"].as_str().unwrap()))
}

#[test]
fn every_fixture_passes_under_both_engines() {
    let m = fixtures::manifest().unwrap();
    assert!(m.kernels.len() >= 13, "kernels missing from the manifest");
    let (mut failures, mut ran, mut not_compiled) = (Vec::new(), 0, 0);
    for list in &m.isas {
        for t in &list.targets {
            for k in &m.kernels {
                if fixtures::not_compiled(t, k) {
                    not_compiled += 1;
                    continue;
                }
                let c = fixtures::check(t, k, 2);
                if let Err(e) = c.result {
                    failures.push(format!("{}/{}/{}: {e}", list.isa, c.target, c.kernel));
                }
                ran += 1;
            }
        }
    }
    let targets: usize = m.isas.iter().map(|l| l.targets.len()).sum();
    assert!(m.isas.len() >= 2 && targets >= 13, "target lists missing");
    assert_eq!(ran + not_compiled, targets * m.kernels.len());
    assert!(
        failures.is_empty(),
        "{} of {ran} fixture runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Exactly the kernels a target lists as missing have no binary, and its missing.tsv gives
/// the compiler's reason for each.
#[test]
fn missing_kernels_have_no_binary_and_a_reason() {
    let m = fixtures::manifest().unwrap();
    let mut missing = 0;
    for list in &m.isas {
        for t in &list.targets {
            let target = fixtures::target_name(t);
            let tsv = fixtures::root()
                .join(t["dir"].as_str().unwrap())
                .parent()
                .unwrap()
                .join("missing.tsv");
            let tsv = std::fs::read_to_string(tsv).unwrap_or_default();
            for k in &m.kernels {
                let absent = fixtures::not_compiled(t, k);
                missing += usize::from(absent);
                let bin = binary(t, k);
                assert_eq!(bin.exists(), !absent, "{}", bin.display());
                let reason = tsv
                    .lines()
                    .any(|l| l.starts_with(&format!("{target}\t{}\terror: ", name(k))));
                assert_eq!(reason, absent, "{target}/{}", name(k));
            }
        }
    }
    assert_eq!(
        missing, 3,
        "llc-14 rejects three TeraScale builds (missing.tsv)"
    );
}

/// The comparison itself can fail: a corrupted output is caught.
#[test]
fn a_wrong_output_is_reported() {
    let m = fixtures::manifest().unwrap();
    let k = m
        .kernels
        .iter()
        .find(|k| k["kernel"] == "f32_arith")
        .unwrap();
    let out = &k["outputs"][0];
    let path = fixtures::root().join(out["expected"].as_str().unwrap());
    let mut bytes = std::fs::read(path).unwrap();
    assert!(fixtures::compare(out, &bytes).is_ok());
    bytes[5] ^= 1;
    assert!(fixtures::compare(out, &bytes).is_err());
}
