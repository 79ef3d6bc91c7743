//! The pocl reference of the kernel suite: the same OpenCL C source run by pocl (an OpenCL
//! implementation that compiles kernels for the CPU and vectorises across work-items), through
//! `benches/pocl/run.py` and Debian's `python3-pyopencl`. Optional: when the script, Python's
//! pyopencl or a pocl device is missing, the suite says so and runs without it.
//!
//! The script takes one JSON request on standard input (`source`, `kernel`, `global`,
//! `local`, `args`, `reps`, `threads`; buffers as files) and answers with the median kernel
//! time from OpenCL profiling events and the output buffers (benches/pocl/README.md).

use super::suite::SuiteKernel;
use crate::spec::{ArgSpec, ValueKind};
use crate::{Error, Result};
use serde_json::{json, Value};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The Python that has Debian's pyopencl (a pyenv `python3` earlier on PATH does not).
const PYTHON: &str = "/usr/bin/python3";

/// A working pocl installation.
pub struct Pocl {
    script: PathBuf,
    /// The pocl version the script reports.
    pub version: String,
}

/// What one pocl run gave.
pub struct PoclRun {
    pub seconds: f64,
    /// Every buffer argument after one run, in argument order.
    pub outputs: Vec<Vec<u8>>,
}

impl Pocl {
    /// The installation, if the script runs and finds a pocl device.
    pub fn find() -> Option<Pocl> {
        let script = crate::fixtures::root().join("benches/pocl/run.py");
        if !script.exists() {
            return None;
        }
        let out = Command::new(PYTHON)
            .arg(&script)
            .arg("--version")
            .stderr(Stdio::null())
            .output()
            .ok()?;
        let version = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !version.is_empty()).then_some(Pocl { script, version })
    }

    /// Runs kernel `k` of `source` `reps` times on `threads` threads.
    pub fn run(
        &self,
        source: &Path,
        k: &SuiteKernel,
        threads: usize,
        reps: u32,
    ) -> Result<PoclRun> {
        let dir = std::env::temp_dir().join(format!("wavejit-pocl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
        let mut args = Vec::new();
        for (i, a) in k.args.iter().enumerate() {
            args.push(match a {
                ArgSpec::File(p) => json!({"buf": p}),
                ArgSpec::Data(bytes) => {
                    let p = dir.join(format!("arg{i}.bin"));
                    std::fs::write(&p, bytes).map_err(|e| Error::io(&p, e))?;
                    json!({"buf": p})
                }
                ArgSpec::Zero(n) => json!({"zero": n}),
                ArgSpec::Value { kind, bits } => match kind {
                    ValueKind::U32 => json!({"u32": bits}),
                    ValueKind::F32 => json!({"f32": f32::from_bits(*bits as u32)}),
                    other => return Err(Error::Other(format!("pocl runner: {other:?} argument"))),
                },
                ArgSpec::Local(_) | ArgSpec::Struct(_) => {
                    return Err(Error::Other(format!("pocl runner: {a:?} argument")))
                }
            });
        }
        let request = json!({
            "source": source,
            "kernel": k.name,
            "global": k.global,
            "local": k.local,
            "args": args,
            "reps": reps,
            "threads": threads,
            "out_dir": dir,
        });
        let mut child = Command::new(PYTHON)
            .arg(&self.script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::Other(format!("pocl runner: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(request.to_string().as_bytes())
                .map_err(|e| Error::Other(format!("pocl runner: {e}")))?;
        }
        let out = child
            .wait_with_output()
            .map_err(|e| Error::Other(format!("pocl runner: {e}")))?;
        let _ = std::fs::remove_dir_all(&dir);
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err.lines().last().unwrap_or("failed");
            return Err(Error::Other(format!("pocl runner: {last}")));
        }
        let answer: Value = serde_json::from_slice(&out.stdout)
            .map_err(|e| Error::Other(format!("pocl runner's answer: {e}")))?;
        let seconds = answer["seconds"]
            .as_f64()
            .ok_or_else(|| Error::Other("pocl runner: no seconds".into()))?;
        let mut outputs = Vec::new();
        for (i, a) in k.args.iter().enumerate() {
            if matches!(a, ArgSpec::Value { .. }) {
                continue;
            }
            let hex = answer["outputs"][i.to_string()]
                .as_str()
                .unwrap_or_default();
            outputs.push(unhex(hex));
        }
        Ok(PoclRun { seconds, outputs })
    }
}

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len() / 2)
        .filter_map(|i| u8::from_str_radix(&h[2 * i..2 * i + 2], 16).ok())
        .collect()
}
