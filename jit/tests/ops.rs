//! Every pure op x every typing x shape (lane, uniform, mixed) x float mode, JIT against
//! `semantics::eval` (the definition), on edge-value inputs (NaN payloads, infinities, signed
//! zeros, denormals, extremes; `random::edge_bits`), with wave sizes 64 and 32, inlined and
//! helper-only code.

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_ir::random::{edge_bits, signatures, Signature};
use wavejit_ir::semantics::eval;
use wavejit_ir::text::all_ops;
use wavejit_ir::{FloatMode, FunctionBuilder, Op, Round, ScalarType, Terminator};
use wavejit_jit::{Jit, JitOptions};

/// Uniform operand copies per mode (each reads its own registers).
const UN: u32 = 4;
/// Lane variants per mode: all lane; first lane, rest uniform; first uniform, rest lane.
const LV: u32 = 3;

/// Which float modes each op runs under.
#[derive(Clone, Copy)]
enum Modes {
    /// IEEE and full flushing.
    Two,
    /// Every flushing combination and the directed roundings.
    All,
    /// Only modes that flush inputs: the code runs with the host's denormals-are-zero mode,
    /// which then flushes the operands of host arithmetic in place of the code.
    FlushIn,
}

fn modes(op: Op, set: Modes) -> Vec<FloatMode> {
    if !op.uses_float_mode() {
        return vec![FloatMode::IEEE];
    }
    let flush_in = FloatMode {
        flush_in: true,
        ..FloatMode::IEEE
    };
    let directed = FloatMode {
        round: Round::TowardPositive,
        ..FloatMode::FLUSH
    };
    match set {
        Modes::Two => vec![FloatMode::IEEE, FloatMode::FLUSH],
        Modes::FlushIn => vec![FloatMode::FLUSH, flush_in, directed],
        Modes::All => vec![
            FloatMode::IEEE,
            FloatMode::FLUSH,
            flush_in,
            FloatMode {
                flush_out: true,
                ..FloatMode::IEEE
            },
            FloatMode {
                round: Round::TowardZero,
                ..FloatMode::IEEE
            },
            directed,
        ],
    }
}

fn lane_arg(k: u32) -> u32 {
    2 * k
}
fn lane_res(slot: u32) -> u32 {
    8 + 2 * slot
}
fn uni_arg(j: u32, k: u32) -> u32 {
    2 * (4 * j + k)
}
fn uni_res(slot: u32) -> u32 {
    2 * 4 * UN + 2 * slot
}

/// Whether operand `k` of lane variant `var` is uniform.
fn is_uniform(var: u32, k: usize) -> bool {
    match var {
        0 => false,
        1 => k > 0,
        _ => k == 0,
    }
}

fn build(op: Op, sig: &Signature, modes: &[FloatMode], wave: u32) -> wavejit_ir::Function {
    let n = sig.arity;
    let m = modes.len() as u32;
    let l = layout(wave, 2 * 4 * UN + 2 * UN * m, 8 + 2 * LV * m);
    let mut b = FunctionBuilder::new("op", l);
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x40);
    for (mi, &mode) in modes.iter().enumerate() {
        let mi = mi as u32;
        for var in 0..LV {
            if n < 2 && var > 0 {
                continue;
            }
            let args: Vec<_> = (0..n)
                .map(|k| {
                    let reg = if is_uniform(var, k) {
                        s(uni_arg(0, k as u32))
                    } else {
                        v(lane_arg(k as u32))
                    };
                    b.use_reg(reg, sig.args[k])
                })
                .collect();
            let r = b.op_mode(op, mode, sig.result, &args);
            b.def_reg(v(lane_res(mi * LV + var)), r, None);
        }
        for j in 0..UN {
            let args: Vec<_> = (0..n)
                .map(|k| b.use_reg(s(uni_arg(j, k as u32)), sig.args[k]))
                .collect();
            let r = b.op_mode(op, mode, sig.result, &args);
            b.def_reg(s(uni_res(mi * UN + j)), r, None);
        }
    }
    b.terminate(Terminator::Return);
    b.finish()
}

/// Register cells holding `bits` of type `t`, with garbage above a narrow type's width.
fn cells(rng: &mut ChaCha8Rng, t: ScalarType, bits: u64) -> (u32, u32) {
    let garbage = if t.bits() < 32 {
        rng.gen::<u32>() & !(t.bit_mask() as u32)
    } else {
        0
    };
    (bits as u32 | garbage, (bits >> 32) as u32)
}

fn hex(v: &[u64]) -> String {
    v.iter()
        .map(|x| format!("{x:#x}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs every op under `jit`; returns mismatch descriptions.
fn check_all(jit: &Jit, wave: u32, set: Modes, runs: u32, seed: u64) -> Vec<String> {
    let mem = memory();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut bad = Vec::new();
    let mut tested = 0;
    for op in all_ops() {
        for sig in signatures(op) {
            let ms = modes(op, set);
            let func = build(op, sig, &ms, wave);
            let prog = prepare(jit, &func);
            let n = sig.arity;
            let tys = &sig.args[..n];
            for _ in 0..runs {
                let mut w = Wave::new(&func.layout, 0, 0);
                let mut lane_in = vec![[0u64; 4]; wave as usize];
                let mut uni_in = vec![[0u64; 4]; UN as usize];
                for (k, &t) in tys.iter().enumerate() {
                    for (lane, vals) in lane_in.iter_mut().enumerate() {
                        vals[k] = edge_bits(&mut rng, t);
                        let (lo, hi) = cells(&mut rng, t, vals[k]);
                        w.state.set_lane(v(lane_arg(k as u32)), lane as u32, lo);
                        w.state.set_lane(v(lane_arg(k as u32) + 1), lane as u32, hi);
                    }
                    for (j, vals) in uni_in.iter_mut().enumerate() {
                        vals[k] = edge_bits(&mut rng, t);
                        let (lo, hi) = cells(&mut rng, t, vals[k]);
                        w.state.set_uniform(s(uni_arg(j as u32, k as u32)), lo);
                        w.state.set_uniform(s(uni_arg(j as u32, k as u32) + 1), hi);
                    }
                }
                if let Err(f) = w.block(&*prog, 0, &mem) {
                    bad.push(format!("{op:?} {sig:?}: fault {f:?}"));
                    continue;
                }
                let wide = sig.result.bits() == 64;
                let mut check = |what: String, args: &[u64], mode: FloatMode, got: (u32, u32)| {
                    let want = eval(op, mode, sig.result, tys, args);
                    let got = got.0 as u64 | if wide { (got.1 as u64) << 32 } else { 0 };
                    if got != want {
                        bad.push(format!(
                            "{op:?} -> {} ({}) {mode:?} {what}: args [{}] got {got:#x} want {want:#x}",
                            sig.result,
                            tys.iter().map(|t| t.name()).collect::<Vec<_>>().join(","),
                            hex(args)
                        ));
                    }
                };
                for (mi, &mode) in ms.iter().enumerate() {
                    let mi = mi as u32;
                    for var in 0..LV {
                        if n < 2 && var > 0 {
                            continue;
                        }
                        let r = lane_res(mi * LV + var);
                        for lane in 0..wave {
                            let args: Vec<u64> = (0..n)
                                .map(|k| {
                                    if is_uniform(var, k) {
                                        uni_in[0][k]
                                    } else {
                                        lane_in[lane as usize][k]
                                    }
                                })
                                .collect();
                            let got = (w.state.lane(v(r), lane), w.state.lane(v(r + 1), lane));
                            check(format!("lane variant {var} lane {lane}"), &args, mode, got);
                        }
                    }
                    for j in 0..UN {
                        let r = uni_res(mi * UN + j);
                        let got = (w.state.uniform(s(r)), w.state.uniform(s(r + 1)));
                        check(
                            format!("uniform copy {j}"),
                            &uni_in[j as usize][..n],
                            mode,
                            got,
                        );
                    }
                }
                tested += 1;
            }
        }
    }
    assert!(tested > 300, "only {tested} op runs");
    bad
}

fn report(bad: Vec<String>) {
    if !bad.is_empty() {
        let n = bad.len();
        let shown: Vec<String> = bad.into_iter().take(40).collect();
        panic!("{n} mismatches, first ones:\n{}", shown.join("\n"));
    }
}

#[test]
fn every_op_wave64_all_modes() {
    report(check_all(&jit(), 64, Modes::All, 4, 1));
}

/// Tier 2 forced at prepare, then tier 1 only: both tiers must agree with the interpreter
/// whatever the threshold makes the default configuration run.
#[test]
fn every_op_wave64_at_tier_2() {
    let j = jit_with(JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    });
    report(check_all(&j, 64, Modes::Two, 2, 5));
}

#[test]
fn every_op_wave64_at_tier_1_only() {
    let j = jit_with(JitOptions {
        tier_up_after: None,
        ..JitOptions::default()
    });
    report(check_all(&j, 64, Modes::Two, 2, 6));
}

/// Blocks whose float ops all flush their inputs run with the host's denormals-are-zero mode
/// and leave operand flushes to it: at both tiers, against the definition on denormal-rich
/// edge values.
#[test]
fn every_op_under_flushing_modes_only() {
    let tier2 = JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    };
    report(check_all(&jit(), 64, Modes::FlushIn, 3, 7));
    report(check_all(&jit_with(tier2), 64, Modes::FlushIn, 3, 8));
}

#[test]
fn every_op_wave32() {
    report(check_all(&jit(), 32, Modes::Two, 3, 2));
}

#[test]
fn every_op_through_helpers_only() {
    let j = jit_with(JitOptions {
        inline: false,
        ..JitOptions::default()
    });
    report(check_all(&j, 64, Modes::Two, 2, 3));
}

/// Every ordered pair (and triple) of NaN-heavy operands, lane by lane: which NaN wins must
/// not depend on how the host code orders machine operands. At tier 1 and at tier 2, where
/// chunks with NaNs leave the speculating loop copy for the exact one.
#[test]
fn nan_operand_order_of_inlined_arithmetic() {
    let tier2 = JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    };
    for jit in [jit(), jit_with(tier2)] {
        nan_operand_order(&jit);
    }
}

fn nan_operand_order(jit: &Jit) {
    let f32s: [u64; 6] = [
        0x7fc0_0001,
        0x7f80_0002,
        0xffc0_0003,
        0x3f80_0000,
        0x7f80_0000,
        0,
    ];
    let f64s: [u64; 6] = [
        0x7ff8_0000_0000_0001,
        0x7ff0_0000_0000_0002,
        0xfff8_0000_0000_0003,
        0x3ff0_0000_0000_0000,
        0x7ff0_0000_0000_0000,
        0,
    ];
    let mem = memory();
    for (ty, vals) in [(ScalarType::F32, f32s), (ScalarType::F64, f64s)] {
        for op in [
            Op::Fadd,
            Op::Fsub,
            Op::Fmul,
            Op::Fdiv,
            Op::Fma,
            Op::Fmad,
            Op::Fmin(wavejit_ir::MinMax::Ieee),
            Op::Fmax(wavejit_ir::MinMax::NonIeee),
        ] {
            let n = op.arity();
            let sig = Signature {
                result: ty,
                args: [ty; 4],
                arity: n,
            };
            let func = build(op, &sig, &[FloatMode::IEEE], 64);
            let prog = prepare(jit, &func);
            let combos: Vec<Vec<u64>> = (0..6usize.pow(n as u32))
                .map(|mut c| {
                    (0..n)
                        .map(|_| {
                            let v = vals[c % 6];
                            c /= 6;
                            v
                        })
                        .collect()
                })
                .collect();
            for chunk in combos.chunks(64) {
                let mut w = Wave::new(&func.layout, 0, 0);
                for (lane, args) in chunk.iter().enumerate() {
                    for (k, &a) in args.iter().enumerate() {
                        w.state
                            .set_lane(v(lane_arg(k as u32)), lane as u32, a as u32);
                        w.state
                            .set_lane(v(lane_arg(k as u32) + 1), lane as u32, (a >> 32) as u32);
                    }
                }
                w.block(&*prog, 0, &mem).expect("runs");
                for (lane, args) in chunk.iter().enumerate() {
                    let r = lane_res(0);
                    let lo = w.state.lane(v(r), lane as u32) as u64;
                    let hi = w.state.lane(v(r + 1), lane as u32) as u64;
                    let got = if ty == ScalarType::F64 {
                        lo | hi << 32
                    } else {
                        lo
                    };
                    let want = eval(op, FloatMode::IEEE, ty, &vec![ty; n], args);
                    assert_eq!(got, want, "{op:?} {ty} [{}]", hex(args));
                }
            }
        }
    }
}

/// f64 -> f32 narrowing, lane by lane, on the values where it is delicate: results in and
/// around f32's denormal range (flushed or not, rounding up to the smallest normal), overflow
/// to infinity, ties to even, NaN payloads. `edge_bits` rarely lands there. At tier 1 and 2.
#[test]
fn narrowing_to_f32_at_its_edges() {
    let mut vals: Vec<u64> = [
        f64::from(f32::MIN_POSITIVE),
        f64::from(f32::MIN_POSITIVE) * (1.0 - 2f64.powi(-25)),
        f64::from(f32::MIN_POSITIVE) * (1.0 - 2f64.powi(-30)),
        f64::from(f32::MIN_POSITIVE) / 2.0,
        2f64.powi(-149),
        2f64.powi(-150),
        2f64.powi(-150) * 1.5,
        2f64.powi(-151),
        1e-300,
        f64::from(f32::MAX),
        f64::from(f32::MAX) * (1.0 + 2f64.powi(-25)),
        f64::from(f32::MAX) * (1.0 + 2f64.powi(-24)),
        1e300,
        1.0 + 2f64.powi(-24),
        1.0 + 3.0 * 2f64.powi(-24),
        1.0 + 2f64.powi(-24) + 2f64.powi(-50),
        f64::INFINITY,
        0.0,
    ]
    .iter()
    .flat_map(|&x: &f64| [x.to_bits(), (-x).to_bits()])
    .collect();
    vals.extend([
        0x7ff8_0000_0000_0001,
        0x7ff0_0000_0000_0001,
        0xfff4_5678_9abc_def0,
        0x0000_0000_0000_0001,
        0x800f_ffff_ffff_ffff,
    ]);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    while vals.len() < 192 {
        let e = rng.gen_range(0x350u64..0x390) << 52;
        vals.push(e | rng.gen_range(0..1u64 << 52) | (rng.gen::<u64>() & 1 << 63));
    }
    let op = Op::Fconvert;
    let sig = Signature {
        result: ScalarType::F32,
        args: [ScalarType::F64; 4],
        arity: 1,
    };
    let tier2 = JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    };
    let mem = memory();
    for jit in [jit(), jit_with(tier2)] {
        for mode in modes(op, Modes::All) {
            let func = build(op, &sig, &[mode], 64);
            let prog = prepare(&jit, &func);
            for chunk in vals.chunks(64) {
                let mut w = Wave::new(&func.layout, 0, 0);
                for (lane, &a) in chunk.iter().enumerate() {
                    w.state.set_lane(v(lane_arg(0)), lane as u32, a as u32);
                    w.state
                        .set_lane(v(lane_arg(0) + 1), lane as u32, (a >> 32) as u32);
                }
                w.block(&*prog, 0, &mem).expect("runs");
                for (lane, &a) in chunk.iter().enumerate() {
                    let got = u64::from(w.state.lane(v(lane_res(0)), lane as u32));
                    let want = eval(op, mode, ScalarType::F32, &[ScalarType::F64], &[a]);
                    assert_eq!(got, want, "{mode:?} {a:#018x}");
                }
            }
        }
    }
}
