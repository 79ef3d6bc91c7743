//! Tier-up: a loop block that runs past the threshold is recompiled at tier 2 once, and the
//! results stay bit-identical to the interpreter's and to an all-tier-1 run, also when several
//! threads run the program and cross the threshold together.

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use wavejit_ir::{Function, FunctionBuilder, IntCC, MinMax, Op, ScalarType as T, Terminator};
use wavejit_jit::{Jit, JitOptions, JitStats};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::Program;

/// Loop trips of every wave (the count is in s0).
const TRIPS: u32 = 40;

/// Block 0 seeds v2 and jumps to the loop; block 1 (the loop) runs, under the exec mask in
/// s4:s5: v2 = fma(v2, v0, v1), v3 ^= bits of v2, v4 = fmin(v4, v2), v5 = v5 * 3 + lane;
/// then s0 -= 1 and loops while s0 != 0; block 2 stores v2 + v3 bits into v6 and returns.
fn loop_func() -> Arc<Function> {
    let mut b = FunctionBuilder::new("tier_loop", layout(64, 8, 8));
    let (entry, body, tail) = (b.create_block(), b.create_block(), b.create_block());
    b.switch_to(entry);
    b.begin_guest_inst(0x00);
    let x = b.use_reg(v(0), T::F32);
    b.def_reg(v(2), x, None);
    b.terminate(Terminator::Jump(body));

    b.switch_to(body);
    b.begin_guest_inst(0x10);
    let e = b.use_reg(s(4), T::I64);
    let exec = b.mask_from_bits(e);
    let acc = b.use_reg(v(2), T::F32);
    let m = b.use_reg(v(0), T::F32);
    let a = b.use_reg(v(1), T::F32);
    let f = b.op(Op::Fma, T::F32, &[acc, m, a]);
    b.def_reg(v(2), f, Some(exec));
    let fi = b.op(Op::Bitcast, T::I32, &[f]);
    let x3 = b.use_reg(v(3), T::I32);
    let x3 = b.op(Op::Xor, T::I32, &[x3, fi]);
    b.def_reg(v(3), x3, Some(exec));
    let lo = b.use_reg(v(4), T::F32);
    let lo = b.op(Op::Fmin(MinMax::NonIeee), T::F32, &[lo, f]);
    b.def_reg(v(4), lo, Some(exec));
    let c = b.use_reg(v(5), T::I32);
    let three = b.i32(3);
    let c = b.op(Op::Imul, T::I32, &[c, three]);
    let id = b.lane_id();
    let c = b.op(Op::Iadd, T::I32, &[c, id]);
    b.def_reg(v(5), c, Some(exec));
    let n = b.use_reg(s(0), T::I32);
    let one = b.i32(1);
    let n = b.op(Op::Isub, T::I32, &[n, one]);
    b.def_reg(s(0), n, None);
    let zero = b.i32(0);
    let more = b.op(Op::Icmp(IntCC::Ne), T::I1, &[n, zero]);
    b.terminate(Terminator::Branch {
        cond: more,
        then_to: body,
        else_to: tail,
    });

    b.switch_to(tail);
    b.begin_guest_inst(0x20);
    let r = b.use_reg(v(2), T::I32);
    let q = b.use_reg(v(3), T::I32);
    let r = b.op(Op::Iadd, T::I32, &[r, q]);
    b.def_reg(v(6), r, None);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

/// A wave with inputs from `seed`: values near 1 so the loop neither overflows nor flushes
/// to zero, a NaN in some lanes (fmin must pick the other operand), and an exec mask that is
/// all ones for even seeds and mixed for odd ones.
fn wave(func: &Function, seed: u64) -> Wave {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut w = Wave::new(&func.layout, 0, 0);
    for l in 0..64 {
        let m: f32 = rng.gen_range(0.9..1.05);
        let a: f32 = if l % 13 == 5 {
            f32::NAN
        } else {
            rng.gen_range(-0.5..0.5)
        };
        w.state.set_lane(v(0), l, m.to_bits());
        w.state.set_lane(v(1), l, a.to_bits());
        for r in 3..6 {
            w.state.set_lane(v(r), l, rng.gen());
        }
    }
    let exec: u64 = if seed.is_multiple_of(2) {
        !0
    } else {
        rng.gen()
    };
    w.state.set_uniform(s(0), TRIPS);
    w.state.set_uniform(s(4), exec as u32);
    w.state.set_uniform(s(5), (exec >> 32) as u32);
    w
}

/// Runs waves `seeds` to completion and returns their final states.
fn run_waves(prog: &dyn Program, func: &Function, seeds: &[u64]) -> Vec<Vec<u8>> {
    let mem = memory();
    seeds
        .iter()
        .map(|&seed| {
            let mut w = wave(func, seed);
            let (blocks, end) = w.run(prog, &mem, 10 * TRIPS);
            assert_eq!(end, Ok(()), "wave {seed}");
            assert_eq!(blocks, TRIPS + 2, "wave {seed}: blocks run");
            w.state.bytes().to_vec()
        })
        .collect()
}

fn jit_after(n: Option<u32>) -> Jit {
    jit_with(JitOptions {
        tier_up_after: n,
        ..JitOptions::default()
    })
}

const SEEDS: [u64; 4] = [1, 2, 3, 4];

#[test]
fn loop_block_tiers_up_once_and_matches_the_interpreter() {
    let func = loop_func();
    let want = run_waves(&*prepare(&Interpreter, &func), &func, &SEEDS);

    let tier1 = jit_after(None);
    let got1 = run_waves(&*prepare(&tier1, &func), &func, &SEEDS);
    assert_eq!(tier1.stats().tier_ups, 0);

    // The loop block runs 4 * 40 times, the other two 4 times: only the loop crosses 25,
    // in the first wave, so that wave mixes tier-1 and tier-2 executions of it.
    let tiered = jit_after(Some(25));
    let got = run_waves(&*prepare(&tiered, &func), &func, &SEEDS);
    let st = tiered.stats();
    assert_eq!(st.blocks_compiled, 3);
    assert_eq!(st.tier_ups, 1, "{st:?}");
    assert_eq!(st.tier_up_failures, 0);
    assert!(st.tier_up_nanos > 0 && st.tier_up_code_bytes > 0, "{st:?}");

    let tier2 = jit_after(Some(0));
    let got2 = run_waves(&*prepare(&tier2, &func), &func, &SEEDS);
    assert_eq!(
        tier2.stats().tier_ups,
        0,
        "prepare compiled tier 2 directly"
    );

    for (i, w) in want.iter().enumerate() {
        assert!(got1[i] == *w, "wave {i}: all-tier-1 run differs");
        assert!(got[i] == *w, "wave {i}: tiered run differs");
        assert!(got2[i] == *w, "wave {i}: all-tier-2 run differs");
    }
}

/// Two threads run waves of one program at once: the block is recompiled once, and every
/// wave (some run while the other thread compiles) matches the interpreter.
#[test]
fn threads_crossing_the_threshold_compile_once() {
    let func = loop_func();
    let seeds: Vec<u64> = (10..18).collect();
    let want = run_waves(&*prepare(&Interpreter, &func), &func, &seeds);
    let jit = jit_after(Some(30));
    let prog = prepare(&jit, &func);
    let (a, b) = seeds.split_at(4);
    let (got_a, got_b) = std::thread::scope(|sc| {
        let ta = sc.spawn(|| run_waves(&*prog, &func, a));
        let tb = sc.spawn(|| run_waves(&*prog, &func, b));
        (ta.join().expect("thread a"), tb.join().expect("thread b"))
    });
    for (i, got) in got_a.iter().chain(&got_b).enumerate() {
        assert!(*got == want[i], "wave {} differs", seeds[i]);
    }
    assert_eq!(jit.stats().tier_ups, 1, "{:?}", jit.stats());
}

/// A second program of the same function starts from the cached tier-2 code of the hot block
/// and the cached tier-1 code of the others.
#[test]
fn tier_2_code_is_cached() {
    let func = loop_func();
    let jit = jit_after(Some(10));
    let first = run_waves(&*prepare(&jit, &func), &func, &SEEDS);
    let before: JitStats = jit.stats();
    assert_eq!(before.tier_ups, 1);
    let again = run_waves(&*prepare(&jit, &func), &func, &SEEDS);
    let after = jit.stats();
    assert_eq!(after.blocks_compiled, before.blocks_compiled);
    assert_eq!(after.tier_ups, 1, "the hot block was not recompiled");
    assert_eq!(after.cache_hits, before.cache_hits + 3);
    assert!(first == again);
}

/// The default configuration is the tiered one: 8 waves run the loop block 320 times, past
/// the default threshold of 256.
#[test]
fn default_options_tier_up() {
    let func = loop_func();
    let seeds: Vec<u64> = (20..28).collect();
    let want = run_waves(&*prepare(&Interpreter, &func), &func, &seeds);
    let jit = jit();
    let got = run_waves(&*prepare(&jit, &func), &func, &seeds);
    assert!(got == want);
    assert_eq!(jit.stats().tier_ups, 1, "{:?}", jit.stats());
}
