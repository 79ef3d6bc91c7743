//! `wavejit demo`: the bundled example kernels (tests/fixtures: 13 OpenCL C kernels compiled by
//! LLVM 14 for six GCN chips, two legacy GCN targets and five TeraScale chips), each run under
//! the interpreter and the JIT and checked against the host-native build of the same source,
//! then the throughput figures of [`crate::bench`].
//!
//! Kernels llc cannot compile for a chip (the manifest's `missing`) and TeraScale kernels the
//! lifter cannot run yet ([`crate::fixtures::TERASCALE_NOT_YET_SUPPORTED`]) are listed as such,
//! not run; every other failure fails the demo.

use crate::fixtures::{self, Manifest};
use crate::{Error, Result};

/// Why a fixture run is listed as not yet supported (target, kernel), if it is.
type Listed = fn(&str, &str) -> Option<&'static str>;

/// Runs every kernel of every target of `m`; returns (runs passed, runs failed).
fn run_all(isa: &str, m: &Manifest, listed: Listed, threads: usize) -> (usize, usize) {
    println!(
        "{isa}: {} kernels x {} targets, both engines, checked against host-native outputs",
        m.kernels.len(),
        m.targets.len()
    );
    println!(
        "{:<16} {:<14} {:>10} {:>10} {:>12}  result",
        "target", "kernel", "interp ms", "JIT ms", "lane-instr"
    );
    let (mut passed, mut failed) = (0, 0);
    for t in &m.targets {
        for k in &m.kernels {
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
            if let Some(why) = listed(&target, kernel) {
                skip(&format!("not yet supported: {why}"));
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
    let none: Listed = |_, _| None;
    for (isa, m, listed) in [
        ("GCN", fixtures::manifest()?, none),
        (
            "TeraScale",
            fixtures::terascale_manifest()?,
            fixtures::not_yet_supported as Listed,
        ),
    ] {
        let (p, f) = run_all(isa, &m, listed, threads);
        passed += p;
        failed += f;
    }
    print!(
        "{}",
        crate::bench::report(&crate::bench::BenchConfig {
            waves: 64,
            iters: 200,
            reps: 3,
            isa: crate::bench::BenchIsa::Both,
        })?
    );
    if failed > 0 {
        return Err(Error::Other(format!("demo: {failed} kernel runs failed")));
    }
    println!("all {passed} kernel runs passed");
    Ok(())
}
