//! `wavejit demo`: the bundled example kernels (tests/fixtures: OpenCL C kernels compiled by
//! LLVM 14 for every ISA's targets), each run under the interpreter and the JIT and checked
//! against the host-native build of the same source, then the throughput figures of
//! [`crate::bench`].
//!
//! Kernels a chip's compiler could not build (a target's `missing`) are listed as such, not
//! run; every other failure fails the demo.

use crate::fixtures::{self, TargetList};
use crate::{Error, Result};
use serde_json::Value;

/// Runs every kernel on every target of `list`; returns (runs passed, runs failed).
fn run_all(list: &TargetList, kernels: &[Value], threads: usize) -> (usize, usize) {
    println!(
        "{}: {} kernels x {} targets, both engines, checked against host-native outputs",
        list.isa,
        kernels.len(),
        list.targets.len()
    );
    println!(
        "{:<16} {:<14} {:>10} {:>10} {:>12}  result",
        "target", "kernel", "interp ms", "JIT ms", "lane-instr"
    );
    let (mut passed, mut failed) = (0, 0);
    for t in &list.targets {
        for k in kernels {
            let target = fixtures::target_name(t);
            let kernel = k["kernel"].as_str().unwrap_or_default();
            let skip = |why: &str| {
                println!(
                    "{target:<16} {kernel:<14} {:>10} {:>10} {:>12}  {why}",
                    "-", "-", "-"
                )
            };
            if fixtures::not_compiled(t, k) {
                skip("not compiled: llc-14 rejects it for this chip (missing.tsv)");
                continue;
            }
            let c = fixtures::check(t, k, threads);
            match &c.result {
                Ok((i, j)) => {
                    passed += 1;
                    println!(
                        "{:<16} {:<14} {:>10.2} {:>10.2} {:>12}  ok (outputs match, JIT = interp bit for bit)",
                        c.target,
                        c.kernel,
                        i.seconds * 1e3,
                        j.seconds * 1e3,
                        j.lane_insts
                    )
                }
                Err(e) => {
                    failed += 1;
                    println!(
                        "{:<16} {:<14} {:>10} {:>10} {:>12}  FAILED: {e}",
                        c.target, c.kernel, "-", "-", "-"
                    );
                }
            }
        }
    }
    println!();
    (passed, failed)
}

pub fn run() -> Result<()> {
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let (mut passed, mut failed) = (0, 0);
    let m = fixtures::manifest()?;
    for list in &m.isas {
        let (p, f) = run_all(list, &m.kernels, threads);
        passed += p;
        failed += f;
    }
    print!(
        "{}",
        crate::bench::report(&crate::bench::BenchConfig {
            waves: 64,
            iters: 200,
            reps: 3,
            isa: "all".into(),
        })?
    );
    if failed > 0 {
        return Err(Error::Other(format!("demo: {failed} kernel runs failed")));
    }
    println!("all {passed} kernel runs passed");
    Ok(())
}
