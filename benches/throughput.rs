//! Criterion benchmark of the ALU-heavy kernel, every ISA's build: interpreter,
//! JIT and the native Rust reference (see src/bench.rs for what is measured), and the JIT's
//! compile time. `wavejit bench` prints the same comparison with ratios; this target gives
//! criterion's statistics.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use wavejit::bench::{BenchConfig, GROUP_ITEMS};
use wavejit::EngineKind;

fn alu_heavy(c: &mut Criterion) {
    let cfg = BenchConfig {
        waves: 64,
        iters: 50,
        reps: 1,
        isa: "all".into(),
    };
    for kernel in wavejit::bench::kernels(&cfg.isa).unwrap() {
        for (active, label) in [(4, "all-active"), (3, "mixed-exec")] {
            let mut g = c.benchmark_group(format!("alu_heavy/{}/{label}", kernel.chip));
            let jit = wavejit::bench::launcher(kernel, EngineKind::Jit, &cfg, active).unwrap();
            let interp =
                wavejit::bench::launcher(kernel, EngineKind::Interp, &cfg, active).unwrap();
            let lane_insts = jit.dispatch().unwrap().lane_insts;
            g.throughput(Throughput::Elements(lane_insts));
            g.sample_size(10);
            g.bench_function("jit", |b| b.iter(|| jit.dispatch().unwrap()));
            g.bench_function("interp", |b| b.iter(|| interp.dispatch().unwrap()));
            let n = (cfg.waves * GROUP_ITEMS) as usize;
            let input = wavejit::bench::input(n);
            let mut out = vec![0f32; n];
            g.bench_function("native", |b| {
                b.iter(|| wavejit::native::alu_heavy(&mut out, &input, cfg.iters, active))
            });
            g.finish();
        }
        c.bench_function(&format!("jit_compile/alu_heavy/{}", kernel.chip), |b| {
            b.iter(|| wavejit::bench::compile_time(kernel).unwrap())
        });
    }
}

criterion_group!(benches, alu_heavy);
criterion_main!(benches);
