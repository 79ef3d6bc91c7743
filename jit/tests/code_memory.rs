//! A JIT past its code limit starts fresh modules: programs prepared before still run (their
//! code lives as long as they do), later programs compile into the new modules, and the
//! cache forgets the old code.

mod common;

use common::*;
use std::sync::Arc;
use wavejit_ir::{Function, FunctionBuilder, Op, ScalarType as T, Terminator};
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::Engine;

/// v[1] = v[0] * k + lane id (a program of its own for each `k`).
fn func(k: i32) -> Arc<Function> {
    let mut b = FunctionBuilder::new("scaled", layout(64, 2, 2));
    let entry = b.create_block();
    b.switch_to(entry);
    b.begin_guest_inst(0);
    let x = b.use_reg(v(0), T::I32);
    let c = b.i32(k as u32);
    let y = b.op(Op::Imul, T::I32, &[x, c]);
    let id = b.lane_id();
    let y = b.op(Op::Iadd, T::I32, &[y, id]);
    b.def_reg(v(1), y, None);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

/// Runs `prog` (of `func(k)`) on one wave and checks v[1] by the formula.
fn check(prog: &dyn wavejit_runtime::Program, f: &Function, k: i32) {
    let mut w = Wave::new(&f.layout, 0, 0);
    for l in 0..64 {
        w.state.set_lane(v(0), l, 1000 + 7 * l);
    }
    let mem = memory();
    let (_, end) = w.run(prog, &mem, 10);
    assert_eq!(end, Ok(()));
    for l in 0..64u32 {
        let want = (1000 + 7 * l).wrapping_mul(k as u32).wrapping_add(l);
        assert_eq!(w.state.lane(v(1), l), want, "k {k}, lane {l}");
    }
}

#[test]
fn programs_outlive_the_modules_the_jit_leaves() {
    // Every compile fills the modules: the next one starts fresh ones.
    let jit = Jit::with_options(JitOptions {
        code_limit: 1,
        ..JitOptions::default()
    })
    .unwrap();
    let funcs: Vec<Arc<Function>> = (1..=6).map(func).collect();
    let progs: Vec<_> = funcs
        .iter()
        .map(|f| jit.prepare(f.clone()).unwrap())
        .collect();
    assert_eq!(jit.stats().fresh_modules, 5, "{:?}", jit.stats());
    // The first programs' modules are no longer the JIT's; their code still runs.
    for (i, (p, f)) in progs.iter().zip(&funcs).enumerate() {
        check(&**p, f, i as i32 + 1);
    }
    // The cache forgot the old code: preparing the first function again compiles it.
    let compiled = jit.stats().blocks_compiled;
    let again = jit.prepare(funcs[0].clone()).unwrap();
    assert_eq!(jit.stats().blocks_compiled, compiled + 1);
    drop(progs);
    check(&*again, &funcs[0], 1);
}

#[test]
fn under_the_limit_the_cache_serves() {
    let jit = jit();
    let f = func(3);
    let a = jit.prepare(f.clone()).unwrap();
    let b = jit.prepare(f.clone()).unwrap();
    let s = jit.stats();
    assert_eq!(
        (s.fresh_modules, s.blocks_compiled, s.cache_hits),
        (0, 1, 1)
    );
    check(&*a, &f, 3);
    check(&*b, &f, 3);
}
