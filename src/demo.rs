//! `wavejit demo`: the bundled example kernels (tests/fixtures/gcn: 13 OpenCL C kernels
//! compiled by LLVM 14 for six GCN chips and two legacy targets), each run under the
//! interpreter and the JIT and checked against the host-native build of the same source, then
//! the throughput figures of [`crate::bench`].

use crate::{Error, Result};

pub fn run() -> Result<()> {
    let m = crate::fixtures::manifest()?;
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "wavejit demo: {} kernels x {} targets, both engines, checked against host-native outputs",
        m.kernels.len(),
        m.targets.len()
    );
    println!(
        "{:<16} {:<14} {:>10} {:>10} {:>12}  result",
        "target", "kernel", "interp ms", "JIT ms", "lane-instr"
    );
    let mut failed = 0;
    for t in &m.targets {
        for k in &m.kernels {
            let c = crate::fixtures::check(t, k, threads);
            match &c.result {
                Ok((i, j)) => println!(
                    "{:<16} {:<14} {:>10.2} {:>10.2} {:>12}  ok (outputs match, JIT = interp bit for bit)",
                    c.target,
                    c.kernel,
                    i.seconds * 1e3,
                    j.seconds * 1e3,
                    j.lane_insts
                ),
                Err(e) => {
                    failed += 1;
                    println!("{:<16} {:<14} {:>10} {:>10} {:>12}  FAILED: {e}", c.target, c.kernel, "-", "-", "-");
                }
            }
        }
    }
    println!();
    print!(
        "{}",
        crate::bench::report(&crate::bench::BenchConfig {
            waves: 64,
            iters: 200,
            reps: 3
        })?
    );
    if failed > 0 {
        return Err(Error::Other(format!("demo: {failed} kernel runs failed")));
    }
    println!(
        "all {} kernel runs passed",
        m.kernels.len() * m.targets.len()
    );
    Ok(())
}
