//! Every GCN fixture kernel on every target, under both engines: outputs must match the
//! host-native build of the same OpenCL C source (tests/fixtures/README.md), and the JIT must
//! agree with the interpreter bit for bit on every buffer.

#[test]
fn every_fixture_passes_under_both_engines() {
    let m = wavejit::fixtures::manifest().unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for t in &m.targets {
        for k in &m.kernels {
            let c = wavejit::fixtures::check(t, k, 2);
            if let Err(e) = c.result {
                failures.push(format!("{}/{}: {e}", c.target, c.kernel));
            }
            ran += 1;
        }
    }
    assert!(ran >= 8 * 13, "only {ran} kernel runs");
    assert!(
        failures.is_empty(),
        "{} of {ran} fixture runs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The comparison itself can fail: a corrupted output is caught.
#[test]
fn a_wrong_output_is_reported() {
    let m = wavejit::fixtures::manifest().unwrap();
    let k = m
        .kernels
        .iter()
        .find(|k| k["kernel"] == "f32_arith")
        .unwrap();
    let out = &k["outputs"][0];
    let path = wavejit::fixtures::root().join(out["expected"].as_str().unwrap());
    let mut bytes = std::fs::read(path).unwrap();
    assert!(wavejit::fixtures::compare(out, &bytes).is_ok());
    bytes[5] ^= 1;
    assert!(wavejit::fixtures::compare(out, &bytes).is_err());
}
