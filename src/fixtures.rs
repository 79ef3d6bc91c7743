//! The bundled example kernels: OpenCL C sources compiled for every ISA's targets, with one
//! ISA-neutral manifest (`tests/fixtures/manifest.json`: launches, arguments, expected outputs
//! in `tests/fixtures/data/`) and one target list per ISA (`tests/fixtures/*/targets.json`: the
//! directories of compiled kernels, and the kernels a chip's compiler could not build). Runs
//! them and checks every output against the host-native build of the same source. `wavejit
//! demo` and the fixture integration tests use this.

use crate::spec::ArgSpec;
use crate::{EngineKind, Error, Result};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the repository's fixtures are (they are read at run time, not embedded).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The kernels and every ISA's targets.
pub struct Manifest {
    pub kernels: Vec<Value>,
    /// Target lists, one per `targets.json`, in directory order.
    pub isas: Vec<TargetList>,
}

/// One ISA's targets.
pub struct TargetList {
    /// The ISA's name as its `targets.json` gives it.
    pub isa: String,
    pub targets: Vec<Value>,
}

/// Whether target `t` lists kernel `k` as missing: the compiler could not build it for that
/// chip, so there is no binary to run (the reason is in the directory's missing.tsv).
pub fn not_compiled(t: &Value, k: &Value) -> bool {
    t["missing"]
        .as_array()
        .is_some_and(|m| m.iter().any(|n| *n == k["kernel"]))
}

/// A target's name: its fixture directory's name (`gfx900`, `cayman`, ...).
pub fn target_name(t: &Value) -> String {
    std::path::Path::new(t["dir"].as_str().unwrap_or_default())
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn read_json(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| Error::Other(format!("{}: {e}", path.display())))
}

/// The manifest and every `tests/fixtures/*/targets.json`.
pub fn manifest() -> Result<Manifest> {
    let dir = root().join("tests/fixtures");
    let m = read_json(&dir.join("manifest.json"))?;
    let mut lists: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| Error::io(&dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path().join("targets.json")))
        .filter(|p| p.is_file())
        .collect();
    lists.sort();
    let isas = lists
        .iter()
        .map(|p| {
            let t = read_json(p)?;
            Ok(TargetList {
                isa: t["isa"].as_str().unwrap_or_default().to_string(),
                targets: t["targets"].as_array().cloned().unwrap_or_default(),
            })
        })
        .collect::<Result<_>>()?;
    Ok(Manifest {
        kernels: m["kernels"].as_array().cloned().unwrap_or_default(),
        isas,
    })
}

fn spec(s: &str) -> Result<ArgSpec> {
    Ok(match s.parse::<ArgSpec>().map_err(|e| Error::Usage(e.0))? {
        ArgSpec::File(p) => ArgSpec::File(root().join(p)),
        other => other,
    })
}

fn dims(v: &Value) -> [u32; 3] {
    let a: Vec<u32> = v
        .as_array()
        .map(|a| a.iter().map(|x| x.as_u64().unwrap_or(1) as u32).collect())
        .unwrap_or_default();
    [0, 1, 2].map(|i| a.get(i).copied().unwrap_or(1))
}

fn ulp_distance(a: f32, b: f32) -> u64 {
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    // Maps floats to integers that are ordered like the floats, so ulps are differences.
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

/// Compares one output buffer with its expected file per the manifest entry `out`.
pub fn compare(out: &Value, got: &[u8]) -> std::result::Result<(), String> {
    let path = root().join(out["expected"].as_str().unwrap_or_default());
    let expected = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    if got.len() != expected.len() {
        return Err(format!("{} bytes, expected {}", got.len(), expected.len()));
    }
    let size = if out["elem"].as_str() == Some("u64") {
        8
    } else {
        4
    };
    let tol = out["tolerance"].as_f64().unwrap_or(0.0);
    let how = out["compare"].as_str().unwrap_or("exact");
    for (i, (g, e)) in got.chunks(size).zip(expected.chunks(size)).enumerate() {
        let f = |b: &[u8]| f32::from_le_bytes(b.try_into().unwrap_or([0; 4]));
        let ok = match how {
            "exact" => g == e,
            "ulp" => ulp_distance(f(g), f(e)) <= tol as u64,
            "abs" => ((f(g) as f64) - (f(e) as f64)).abs() <= tol,
            c => return Err(format!("unknown comparison {c}")),
        };
        if !ok {
            return Err(format!(
                "{} element {i}: got {g:02x?}, expected {e:02x?}",
                out["name"]
            ));
        }
    }
    Ok(())
}

/// One kernel run: every buffer argument's bytes afterwards and the time the dispatch took.
pub struct KernelRun {
    pub buffers: Vec<Vec<u8>>,
    pub seconds: f64,
    pub lane_insts: u64,
}

/// Runs kernel entry `k` of the target directory `dir` and checks its outputs.
pub fn run_kernel(
    dir: &Path,
    ext: &str,
    k: &Value,
    engine: EngineKind,
    threads: usize,
) -> std::result::Result<KernelRun, String> {
    let name = k["kernel"].as_str().unwrap_or_default();
    let file = dir.join(format!("{name}.{ext}"));
    let err = |e: Error| format!("{name} ({}): {e}", engine.name());
    let bytes = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let module = crate::registry::load_bytes(&bytes, name, None).map_err(err)?;
    let args: Vec<ArgSpec> = k["args"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| spec(s.as_str().unwrap_or_default()))
                .collect::<Result<_>>()
        })
        .transpose()
        .map_err(err)?
        .unwrap_or_default();
    let req = crate::launch::RunRequest {
        kernel: name,
        global: dims(&k["global"]),
        work_dim: None,
        local: dims(&k["local"]),
        engine,
        threads,
        args: &args,
        fuel: 1 << 28,
        timeout: Duration::from_secs(120),
    };
    let launcher = crate::launch::prepare(&*module, &req).map_err(err)?;
    let t = Instant::now();
    let stats = launcher.dispatch().map_err(err)?;
    let seconds = t.elapsed().as_secs_f64();
    let mut buffers = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let is_buffer = matches!(a, ArgSpec::File(_) | ArgSpec::Zero(_) | ArgSpec::Data(_));
        buffers.push(if is_buffer {
            launcher.buffer(i).map_err(err)?
        } else {
            Vec::new()
        });
    }
    for o in k["outputs"].as_array().into_iter().flatten() {
        let i = o["arg"].as_u64().unwrap_or(0) as usize;
        let got = buffers
            .get(i)
            .ok_or_else(|| format!("{name}: output argument {i} missing"))?;
        compare(o, got).map_err(|e| format!("{name} ({}): {e}", engine.name()))?;
    }
    Ok(KernelRun {
        buffers,
        seconds,
        lane_insts: stats.lane_insts,
    })
}

/// The outcome of one kernel on one target under both engines.
pub struct Checked {
    pub target: String,
    pub kernel: String,
    /// `Err` describes the first failure (an engine's error, a wrong output, or the engines
    /// disagreeing).
    pub result: std::result::Result<(KernelRun, KernelRun), String>,
}

/// Runs kernel `k` on target `t` under the interpreter and the JIT; they must agree bit for
/// bit on every buffer, and both must match the expected outputs.
pub fn check(t: &Value, k: &Value, threads: usize) -> Checked {
    let dir = root().join(t["dir"].as_str().unwrap_or_default());
    let ext = t["ext"].as_str().unwrap_or_default();
    let target = target_name(t);
    let kernel = k["kernel"].as_str().unwrap_or_default().to_string();
    let interp = run_kernel(&dir, ext, k, EngineKind::Interp, threads);
    let jit = run_kernel(&dir, ext, k, EngineKind::Jit, threads);
    let result = match (interp, jit) {
        (Ok(a), Ok(b)) if a.buffers != b.buffers => {
            Err("JIT and interpreter buffers differ".to_string())
        }
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    Checked {
        target,
        kernel,
        result,
    }
}
