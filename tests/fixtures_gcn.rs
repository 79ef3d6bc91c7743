//! Every GCN fixture kernel on every target, under both engines: outputs must match the
//! host-native build of the same OpenCL C source (tests/fixtures/README.md), and the JIT must
//! agree with the interpreter bit for bit on every buffer.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wavejit::spec::ArgSpec;
use wavejit::EngineKind;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn manifest() -> Value {
    let text = std::fs::read_to_string(root().join("tests/fixtures/gcn/manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn spec(s: &str) -> ArgSpec {
    match s.parse::<ArgSpec>().unwrap() {
        ArgSpec::File(p) => ArgSpec::File(root().join(p)),
        other => other,
    }
}

fn dims(v: &Value) -> [u32; 3] {
    let a: Vec<u32> = v.as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u32).collect();
    [a[0], a[1], a[2]]
}

/// Compares one output buffer with its expected file; returns a description of the first
/// mismatch.
fn compare(out: &Value, got: &[u8]) -> Result<(), String> {
    let expected = std::fs::read(root().join(out["expected"].as_str().unwrap())).unwrap();
    if got.len() != expected.len() {
        return Err(format!("{} bytes, expected {}", got.len(), expected.len()));
    }
    let elem = out["elem"].as_str().unwrap();
    let size = if elem == "u64" { 8 } else { 4 };
    let tol = out["tolerance"].as_f64().unwrap_or(0.0);
    for (i, (g, e)) in got.chunks(size).zip(expected.chunks(size)).enumerate() {
        let ok = match out["compare"].as_str().unwrap() {
            "exact" => g == e,
            "ulp" => {
                let (g, e) = (f32::from_le_bytes(g.try_into().unwrap()), f32::from_le_bytes(e.try_into().unwrap()));
                ulp_distance(g, e) <= tol as u64
            }
            "abs" => {
                let (g, e) = (f32::from_le_bytes(g.try_into().unwrap()), f32::from_le_bytes(e.try_into().unwrap()));
                ((g as f64) - (e as f64)).abs() <= tol
            }
            c => return Err(format!("unknown comparison {c}")),
        };
        if !ok {
            return Err(format!("{} element {i}: got {g:02x?}, expected {e:02x?}", out["name"]));
        }
    }
    Ok(())
}

fn ulp_distance(a: f32, b: f32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    let key = |x: f32| {
        let b = x.to_bits() as i64;
        if b < 0x8000_0000 {
            b
        } else {
            0x8000_0000 - b
        }
    };
    (key(a) - key(b)).unsigned_abs()
}

fn run_one(dir: &Path, ext: &str, k: &Value, engine: EngineKind) -> Result<Vec<Vec<u8>>, String> {
    let name = k["kernel"].as_str().unwrap();
    let file = dir.join(format!("{name}.{ext}"));
    let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let loaded = wavejit::gcn::load(&bytes, None).map_err(|e| e.to_string())?;
    let args: Vec<ArgSpec> = k["args"].as_array().unwrap().iter().map(|a| spec(a.as_str().unwrap())).collect();
    let req = wavejit::gcn::RunRequest {
        kernel: name,
        global: dims(&k["global"]),
        local: dims(&k["local"]),
        engine,
        threads: 2,
        args: &args,
        fuel: 1 << 28,
        timeout: Duration::from_secs(120),
    };
    let out = wavejit::gcn::run(&loaded, &req).map_err(|e| e.to_string())?;
    let mut buffers = Vec::new();
    for i in 0..args.len() {
        if matches!(args[i], ArgSpec::File(_) | ArgSpec::Zero(_)) {
            buffers.push(out.buffer(i).map_err(|e| e.to_string())?);
        } else {
            buffers.push(Vec::new());
        }
    }
    for o in k["outputs"].as_array().unwrap() {
        let i = o["arg"].as_u64().unwrap() as usize;
        compare(o, &buffers[i]).map_err(|e| format!("{} ({}): {e}", name, engine.name()))?;
    }
    Ok(buffers)
}

/// Runs every kernel of one target directory; returns the failures.
fn run_target(t: &Value, kernels: &[Value]) -> Vec<String> {
    let dir = root().join(t["dir"].as_str().unwrap());
    let ext = t["ext"].as_str().unwrap();
    let mut failures = Vec::new();
    for k in kernels {
        let interp = run_one(&dir, ext, k, EngineKind::Interp);
        let jit = run_one(&dir, ext, k, EngineKind::Jit);
        let where_ = format!("{}/{}", dir.file_name().unwrap().to_string_lossy(), k["kernel"].as_str().unwrap());
        match (interp, jit) {
            (Ok(a), Ok(b)) if a != b => failures.push(format!("{where_}: JIT and interpreter buffers differ")),
            (Ok(_), Ok(_)) => {}
            (Err(e), _) | (_, Err(e)) => failures.push(format!("{where_}: {e}")),
        }
    }
    failures
}

#[test]
fn every_fixture_passes_under_both_engines() {
    let m = manifest();
    let kernels = m["kernels"].as_array().unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    for t in m["targets"].as_array().unwrap() {
        failures.extend(run_target(t, kernels));
        ran += kernels.len();
    }
    assert!(ran >= 8 * 13, "only {ran} kernel runs");
    assert!(failures.is_empty(), "{} of {ran} fixture runs failed:\n{}", failures.len(), failures.join("\n"));
}
