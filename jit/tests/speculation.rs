//! NaN speculation: at tier 2 a chunk loop first runs a copy whose float ops assume operands
//! without NaNs, and from the first chunk holding one it runs the exact copy. Each case runs
//! one block under the interpreter (the oracle) and the JIT (tier 2 with speculation on and
//! off, tier 1) from the same state and compares the whole wave state bit for bit. NaNs are
//! placed in no lane, the first, last or a middle chunk, and pair two different payloads in
//! one lane, where the semantics' operand order decides the result.

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use wavejit_ir::{
    FloatCC, FloatMode, Function, FunctionBuilder, MinMax, Op, ScalarType as T, Terminator,
};
use wavejit_jit::JitOptions;
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::Engine;

/// exec = s[30..32]. Float ops of every kind the speculating copy changes, on lane
/// registers v0-v2 (f32) and v20:v21, v22:v23 (f64), with constant operands, written under
/// exec; a ballot in the same loop and a second loop using the ballot and a value of the
/// first loop (a scratch slot). `snan` adds a product with a signalling NaN constant (which
/// makes every chunk leave the speculating copy).
///
/// Registers: v3.. results; v20-v27 the f64 operands and results; v28 the second loop's.
fn func(wave: u32, snan: bool) -> Arc<Function> {
    let mut b = FunctionBuilder::new("spec", layout(wave, 32, 32));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0);
    let e = b.use_reg(s(30), T::I64);
    let exec = b.mask_from_bits(e);
    let a = b.use_reg(v(0), T::F32);
    let x = b.use_reg(v(1), T::F32);
    let c = b.use_reg(v(2), T::F32);
    let c15 = b.f32(1.5);
    let c025 = b.f32(0.25);
    let nan = b.iconst(T::F32, 0x7fa0_0001);
    let mode = FloatMode::IEEE;
    let mut ops: Vec<(Op, Vec<_>)> = vec![
        (Op::Fma, vec![a, x, c]),
        (Op::Fmin(MinMax::Ieee), vec![a, x]),
        (Op::Fmax(MinMax::NonIeee), vec![x, c]),
        (Op::Fmin(MinMax::Legacy), vec![c, a]),
        (Op::Fmax(MinMax::Ieee), vec![a, c15]),
        (Op::Fadd, vec![c025, a]),
        (Op::FmulLegacy, vec![a, x]),
        (Op::Fmad, vec![a, x, c]),
        (Op::Fsub, vec![a, x]),
        (Op::Fmax(MinMax::Legacy), vec![x, a]),
    ];
    if snan {
        ops.push((Op::Fmul, vec![nan, x]));
        ops.push((Op::Fmul, vec![x, nan]));
    }
    let mut first = None;
    let mut reg = 3;
    for (op, args) in &ops {
        let r = b.op_mode(*op, mode, T::F32, args);
        first.get_or_insert(r);
        b.def_reg(v(reg), r, Some(exec));
        reg += 1;
    }
    // `a` and `x` are checked by now (min/max operands). Results of an op with a constant
    // operand are NaN-free where the other operand is, except for the constants that make
    // NaNs of infinities and zeros (0 in a product or divisor, infinity in a sum):
    // min/max must check those before speculating on them.
    let zero = b.f32(0.0);
    let inf = b.f32(f32::INFINITY);
    let c25 = b.f32(2.5);
    let m0 = b.op_mode(Op::Fmul, mode, T::F32, &[a, zero]);
    let a0 = b.op_mode(Op::Fadd, mode, T::F32, &[inf, x]);
    let d0 = b.op_mode(Op::Fdiv, mode, T::F32, &[a, zero]);
    let up = b.op_mode(Op::Fadd, mode, T::F32, &[a, c25]);
    let neg = b.op(Op::Fneg, T::F32, &[x]);
    for (op, args) in [
        (Op::Fmin(MinMax::Ieee), [m0, x]),
        (Op::Fmin(MinMax::NonIeee), [x, a0]),
        (Op::Fmin(MinMax::NonIeee), [d0, x]),
        (Op::Fmax(MinMax::Ieee), [up, neg]),
    ] {
        let r = b.op_mode(op, mode, T::F32, &args);
        b.def_reg(v(reg), r, Some(exec));
        reg += 1;
    }
    let d = b.use_reg(v(20), T::F64);
    let g = b.use_reg(v(22), T::F64);
    let s64 = b.op_mode(Op::Fadd, mode, T::F64, &[d, g]);
    b.def_reg(v(24), s64, Some(exec));
    let m64 = b.op_mode(Op::Fmin(MinMax::Ieee), mode, T::F64, &[g, d]);
    b.def_reg(v(26), m64, Some(exec));
    let lt = b.op(Op::Fcmp(FloatCC::Lt), T::I1, &[a, x]);
    let bal = b.ballot(lt);
    b.def_reg(s(0), bal, None);
    // A lane op with an operand computed from the ballot starts a second loop.
    let t = b.op(Op::Trunc, T::I32, &[bal]);
    let fi = b.op(Op::Bitcast, T::I32, &[first.expect("ops")]);
    let y = b.op(Op::Iadd, T::I32, &[fi, t]);
    b.def_reg(v(28), y, Some(exec));
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

const QNAN: u32 = 0x7fc0_1234;
const SNAN: u32 = 0xff80_0042;

/// Finite values including both zeros (min/max of equal zeros picks by sign).
fn finite(rng: &mut ChaCha8Rng) -> u32 {
    match rng.gen_range(0..8) {
        0 => 0,
        1 => 0x8000_0000,
        _ => (rng.gen_range(-64..64) as f32 * 0.375).to_bits(),
    }
}

/// Runs the block under `engine` from the state set up by `init`; returns the state bytes.
fn run(engine: &dyn Engine, f: &Arc<Function>, init: &dyn Fn(&mut Wave)) -> Vec<u8> {
    let prog = prepare(engine, f);
    let mut w = Wave::new(&f.layout, 0, 0);
    init(&mut w);
    w.block(&*prog, 0, &memory()).expect("runs");
    w.state.bytes().to_vec()
}

/// What one case puts into an otherwise NaN-free wave.
#[derive(Clone, Copy, Debug)]
enum Event {
    None,
    /// Two NaN operands (different payloads, one signalling) in the lane, f32 and f64.
    Nans(u32),
    /// An infinite `a` (`x` a number, `a` a nonzero number in the rest of the chunk).
    InfA(u32),
    /// A negative infinite `x` (likewise).
    InfX(u32),
}

/// Sets lane registers from `vals` (v0-v2 f32, v20:v21 and v22:v23 f64), then `event`,
/// then exec.
fn setup(w: &mut Wave, vals: &[[u32; 5]], event: Event, exec: u64) {
    for (l, r) in vals.iter().enumerate() {
        let l = l as u32;
        for k in 0..3 {
            w.state.set_lane(v(k), l, r[k as usize]);
        }
        for (k, reg) in [(3, 20), (4, 22)] {
            let d = (f32::from_bits(r[k]) as f64).to_bits();
            w.state.set_lane(v(reg), l, d as u32);
            w.state.set_lane(v(reg + 1), l, (d >> 32) as u32);
        }
    }
    let (inf, num) = (f32::INFINITY.to_bits(), 1.5f32.to_bits());
    match event {
        Event::None => {}
        Event::Nans(l) => {
            w.state.set_lane(v(0), l, QNAN);
            w.state.set_lane(v(1), l, SNAN);
            w.state.set_lane(v(20), l, 1);
            w.state.set_lane(v(21), l, 0x7ff0_0000);
            w.state.set_lane(v(22), l, 2);
            w.state.set_lane(v(23), l, 0xfff8_0000);
        }
        Event::InfA(l) | Event::InfX(l) => {
            // Only the op under test may make a NaN in this chunk: no zero a (a / 0).
            for k in l & !3..(l & !3) + 4 {
                w.state.set_lane(v(0), k, num);
            }
            let (a, x) = match event {
                Event::InfA(_) => (inf, num),
                _ => (num, inf | 1 << 31),
            };
            w.state.set_lane(v(0), l, a);
            w.state.set_lane(v(1), l, x);
        }
    }
    w.state.set_uniform(s(30), exec as u32);
    w.state.set_uniform(s(31), (exec >> 32) as u32);
}

#[test]
fn speculating_loops_match_the_interpreter_with_nans_anywhere() {
    let tier2 = JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    };
    let engines = [
        ("tier 2", jit_with(tier2.clone())),
        (
            "tier 2 without speculation",
            jit_with(JitOptions {
                nan_speculation: false,
                ..tier2
            }),
        ),
        ("tier 1", jit_with(JitOptions::default())),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for (wave, snan) in [(64u32, false), (32, false), (64, true)] {
        let f = func(wave, snan);
        let full = if wave == 64 {
            u64::MAX
        } else {
            (1 << wave) - 1
        };
        let mut events = vec![Event::None];
        for l in [0, 6, wave / 2 + 1, wave - 1] {
            events.extend([Event::Nans(l), Event::InfA(l), Event::InfX(l)]);
        }
        for exec in [full, full & 0x7777_7777_7777_7777] {
            for &event in &events {
                let vals: Vec<[u32; 5]> = (0..wave)
                    .map(|_| std::array::from_fn(|_| finite(&mut rng)))
                    .collect();
                let init = |w: &mut Wave| setup(w, &vals, event, exec);
                let want = run(&Interpreter, &f, &init);
                for (name, j) in &engines {
                    let got = run(j, &f, &init);
                    assert!(
                        got == want,
                        "{name}: wave {wave} sNaN op {snan} exec {exec:#x} {event:?}: state \
                         differs from the interpreter's"
                    );
                }
            }
        }
    }
}

/// Composite ops (legacy multiply, multiply-add) whose operands are checked only through
/// their result: `v3 = min(fmul_legacy(v0, v1), v2)`, `v4 = min(fmad(v0, v1, 2.5), v2)`.
fn composite(wave: u32) -> Arc<Function> {
    let mut b = FunctionBuilder::new("composite", layout(wave, 32, 32));
    let blk = b.create_block();
    b.switch_to(blk);
    let (a, x, c) = (
        b.use_reg(v(0), T::F32),
        b.use_reg(v(1), T::F32),
        b.use_reg(v(2), T::F32),
    );
    let k = b.f32(2.5);
    let p = b.op(Op::FmulLegacy, T::F32, &[a, x]);
    let q = b.op(Op::Fmad, T::F32, &[a, x, k]);
    for (i, y) in [p, q].into_iter().enumerate() {
        let r = b.op(Op::Fmin(MinMax::NonIeee), T::F32, &[y, c]);
        b.def_reg(v(3 + i as u32), r, None);
    }
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

#[test]
fn composite_ops_are_checked_through_their_results() {
    let j = jit_with(JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    });
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let f = composite(64);
    for event in [Event::None, Event::Nans(5), Event::Nans(62)] {
        let vals: Vec<[u32; 5]> = (0..64)
            .map(|_| std::array::from_fn(|_| finite(&mut rng)))
            .collect();
        let init = |w: &mut Wave| setup(w, &vals, event, u64::MAX);
        assert!(
            run(&j, &f, &init) == run(&Interpreter, &f, &init),
            "{event:?}: state differs from the interpreter's"
        );
    }
}

/// Code bytes of `f` at tier 2 with speculation on or off.
fn code_bytes(f: &Function, spec: bool) -> u64 {
    let j = jit_with(JitOptions {
        tier_up_after: Some(0),
        nan_speculation: spec,
        ..JitOptions::default()
    });
    prepare(&j, f);
    j.stats().code_bytes
}

/// `v1 = (v0 * k) + k` for a constant `k`, or with `v1` as the second product operand.
fn mul_add(k: Option<f32>) -> Function {
    let mut b = FunctionBuilder::new("mul_add", layout(64, 32, 8));
    let blk = b.create_block();
    b.switch_to(blk);
    let a = b.use_reg(v(0), T::F32);
    let m = match k {
        Some(k) => b.f32(k),
        None => b.use_reg(v(1), T::F32),
    };
    let p = b.op(Op::Fmul, T::F32, &[a, m]);
    let q = b.op(Op::Fadd, T::F32, &[m, p]);
    b.def_reg(v(1), q, None);
    b.terminate(Terminator::Return);
    b.finish()
}

/// The speculating copy is compiled only where it changes something: float ops with a
/// constant operand that is not a NaN need no check (at most one operand can be a NaN), so
/// speculation adds no code for them; with two lane operands it adds a copy.
#[test]
fn speculation_adds_a_copy_only_where_checks_are_needed() {
    let consts = mul_add(Some(0.5));
    assert_eq!(code_bytes(&consts, true), code_bytes(&consts, false));
    let nan_const = mul_add(Some(f32::NAN));
    assert!(code_bytes(&nan_const, true) > code_bytes(&nan_const, false));
    let lanes = mul_add(None);
    assert!(code_bytes(&lanes, true) > code_bytes(&lanes, false));
}

/// Chains of flushing ops (FloatMode::FLUSH), where the JIT skips flushing what is flushed
/// already (a flushing op's result, a min/max of flushed operands, an integer conversion):
/// `m = max(v0, v1)`, `n = min(m, v0)`, `p = n * 2^-120`, `q = p + v1`, `u = utof(v2)`,
/// `r = u * 2^-140`, `t = r + m` into v3-v9, on denormals, zeros, NaNs and small numbers.
/// Then across a wave operation (a shuffle, which closes the chunk loop, so later loops read
/// `q` and `d` from scratch slots): `w = q + v1` and `z = d * 2^100`, both flushing, into
/// v10 and v12, where `q` is flushed and `d = v1 * 2^-120` is an IEEE product, denormal for
/// small `v1`, which `z` must flush.
fn flush_chain(wave: u32) -> Arc<Function> {
    let mut b = FunctionBuilder::new("flush", layout(wave, 32, 32));
    let blk = b.create_block();
    b.switch_to(blk);
    let m = FloatMode::FLUSH;
    let (a, x) = (b.use_reg(v(0), T::F32), b.use_reg(v(1), T::F32));
    let i = b.use_reg(v(2), T::I32);
    let tiny = b.f32(2f32.powi(-120));
    let tinier = b.f32(2f32.powi(-140));
    let mx = b.op_mode(Op::Fmax(MinMax::NonIeee), m, T::F32, &[a, x]);
    let mn = b.op_mode(Op::Fmin(MinMax::Ieee), m, T::F32, &[mx, a]);
    let p = b.op_mode(Op::Fmul, m, T::F32, &[mn, tiny]);
    let q = b.op_mode(Op::Fadd, m, T::F32, &[p, x]);
    let u = b.op_mode(Op::UtoF, m, T::F32, &[i]);
    let r = b.op_mode(Op::Fmul, m, T::F32, &[u, tinier]);
    let t = b.op_mode(Op::Fadd, m, T::F32, &[r, mx]);
    for (k, val) in [mx, mn, p, q, u, r, t].into_iter().enumerate() {
        b.def_reg(v(3 + k as u32), val, None);
    }
    let d = b.op(Op::Fmul, T::F32, &[x, tiny]);
    let lane = b.lane_id();
    let shuffled = b.shuffle(i, lane);
    let w = b.op_mode(Op::Fadd, m, T::F32, &[q, x]);
    let huge = b.f32(2f32.powi(100));
    let z = b.op_mode(Op::Fmul, m, T::F32, &[d, huge]);
    b.def_reg(v(10), w, None);
    b.def_reg(v(11), shuffled, None);
    b.def_reg(v(12), z, None);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

#[test]
fn flushing_chains_match_the_interpreter() {
    let tier2 = JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    };
    let engines = [
        ("tier 2", jit_with(tier2.clone())),
        (
            "tier 2 without speculation",
            jit_with(JitOptions {
                nan_speculation: false,
                ..tier2
            }),
        ),
        ("tier 1", jit_with(JitOptions::default())),
    ];
    let specials = [
        1u32,
        0x807f_ffff,
        0x0040_0000,
        0,
        0x8000_0000,
        0x0080_0000,
        0x8080_0001,
        (2f32.powi(-10)).to_bits(),
        (-3f32 * 2f32.powi(-8)).to_bits(),
        1.5f32.to_bits(),
        QNAN,
        SNAN,
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let f = flush_chain(64);
    for round in 0..8 {
        let pick = |rng: &mut ChaCha8Rng| specials[rng.gen_range(0..specials.len())];
        let vals: Vec<[u32; 3]> = (0..64)
            .map(|l| {
                // Round 0: no NaN anywhere (the speculating copy runs throughout).
                let mut a = pick(&mut rng);
                let mut x = pick(&mut rng);
                if round == 0 {
                    (a, x) = (a & !0x0040_0000 & 0x807f_ffff, x & 0x807f_ffff);
                }
                [a, x, rng.gen_range(0..1u32 << (l % 32))]
            })
            .collect();
        let init = |w: &mut Wave| {
            for (l, r) in vals.iter().enumerate() {
                for k in 0..3 {
                    w.state.set_lane(v(k), l as u32, r[k as usize]);
                }
            }
        };
        let want = run(&Interpreter, &f, &init);
        for (name, j) in &engines {
            assert!(
                run(j, &f, &init) == want,
                "{name}: round {round}: state differs"
            );
        }
    }
}
