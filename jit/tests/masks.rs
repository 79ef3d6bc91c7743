//! Masked register writes: all-ones fast path vs mixed and empty masks, lazy blending on and
//! off, 32- and 64-bit values, wave sizes 64 and 32. Expected values are computed here with
//! host arithmetic, lane by lane.

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use wavejit_ir::{Function, FunctionBuilder, IntCC, Op, ScalarType as T, Terminator};
use wavejit_jit::{Jit, JitOptions};

/// exec = s[30..32]; vcc = s[28..30].
/// v2 = v0 + v1 (f32), v3 = v2 * v0 (reads v2 back), v4 += 7, v6:v7 = 2 * v6:v7 (i64),
/// all under exec; v5 = v5 ^ 1 under exec & vcc; v8 = lane id, unmasked.
fn alu_func(wave: u32) -> Arc<Function> {
    let mut b = FunctionBuilder::new("masked", layout(wave, 32, 16));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x10);
    let e = b.use_reg(s(30), T::I64);
    let exec = b.mask_from_bits(e);
    let a = b.use_reg(v(0), T::F32);
    let c = b.use_reg(v(1), T::F32);
    let t = b.op(Op::Fadd, T::F32, &[a, c]);
    b.def_reg(v(2), t, Some(exec));
    let t2 = b.use_reg(v(2), T::F32);
    let u = b.op(Op::Fmul, T::F32, &[t2, a]);
    b.def_reg(v(3), u, Some(exec));
    let x = b.use_reg(v(4), T::I32);
    let seven = b.i32(7);
    let y = b.op(Op::Iadd, T::I32, &[x, seven]);
    b.def_reg(v(4), y, Some(exec));
    let w = b.use_reg(v(6), T::I64);
    let w2 = b.op(Op::Iadd, T::I64, &[w, w]);
    b.def_reg(v(6), w2, Some(exec));
    let vb = b.use_reg(s(28), T::I64);
    let vcc = b.mask_from_bits(vb);
    let both = b.op(Op::And, T::I1, &[exec, vcc]);
    let z = b.use_reg(v(5), T::I32);
    let one = b.i32(1);
    let z1 = b.op(Op::Xor, T::I32, &[z, one]);
    b.def_reg(v(5), z1, Some(both));
    let id = b.lane_id();
    b.def_reg(v(8), id, None);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

fn check_alu(jit: &Jit, wave: u32, exec: u64, vcc: u64, rng: &mut ChaCha8Rng) {
    let func = alu_func(wave);
    let prog = prepare(jit, &func);
    let mem = memory();
    let mut w = Wave::new(&func.layout, 0, 0);
    let init: Vec<[u32; 9]> = (0..wave)
        .map(|_| std::array::from_fn(|_| rng.gen()))
        .collect();
    let fl = |rng: &mut ChaCha8Rng| (rng.gen_range(-1000..1000) as f32 * 0.25).to_bits();
    let ins: Vec<(u32, u32)> = (0..wave).map(|_| (fl(rng), fl(rng))).collect();
    for l in 0..wave {
        for r in 2..9 {
            w.state.set_lane(v(r), l, init[l as usize][r as usize]);
        }
        w.state.set_lane(v(0), l, ins[l as usize].0);
        w.state.set_lane(v(1), l, ins[l as usize].1);
    }
    w.state.set_uniform(s(30), exec as u32);
    w.state.set_uniform(s(31), (exec >> 32) as u32);
    w.state.set_uniform(s(28), vcc as u32);
    w.state.set_uniform(s(29), (vcc >> 32) as u32);
    w.block(&*prog, 0, &mem).expect("runs");
    for l in 0..wave {
        let on = exec >> l & 1 == 1;
        let both = on && vcc >> l & 1 == 1;
        let old = init[l as usize];
        let (a, c) = (
            f32::from_bits(ins[l as usize].0),
            f32::from_bits(ins[l as usize].1),
        );
        let old64 = old[6] as u64 | (old[7] as u64) << 32;
        let want = [
            if on { (a + c).to_bits() } else { old[2] },
            if on { ((a + c) * a).to_bits() } else { old[3] },
            if on { old[4].wrapping_add(7) } else { old[4] },
            if both { old[5] ^ 1 } else { old[5] },
            if on {
                old64.wrapping_mul(2) as u32
            } else {
                old[6]
            },
            if on {
                (old64.wrapping_mul(2) >> 32) as u32
            } else {
                old[7]
            },
            l,
        ];
        let got: Vec<u32> = (2..9).map(|r| w.state.lane(v(r), l)).collect();
        assert_eq!(
            got, want,
            "wave {wave} exec {exec:#x} vcc {vcc:#x} lane {l}"
        );
    }
}

/// The default (tier 1, as no block here reaches the threshold), tier 2 forced with each
/// exec mechanism off, and tier 1 only with both off.
fn configs() -> Vec<JitOptions> {
    let d = JitOptions::default();
    let tier2 = Some(0);
    vec![
        d.clone(),
        JitOptions {
            tier_up_after: tier2,
            ..d.clone()
        },
        JitOptions {
            fast_path: false,
            tier_up_after: tier2,
            ..d.clone()
        },
        JitOptions {
            lazy_blend: false,
            tier_up_after: tier2,
            ..d.clone()
        },
        JitOptions {
            fast_path: false,
            lazy_blend: false,
            tier_up_after: None,
            ..d
        },
    ]
}

#[test]
fn masked_writes_under_full_empty_and_mixed_masks() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for opts in configs() {
        let jit = jit_with(opts);
        for wave in [64u32, 32] {
            let all = if wave == 64 {
                u64::MAX
            } else {
                (1 << wave) - 1
            };
            let mut masks = vec![
                all,
                0,
                0x5555_5555_5555_5555,
                1,
                1 << (wave - 1),
                all ^ 0x10,
            ];
            masks.extend((0..6).map(|_| rng.gen::<u64>()));
            for &e in &masks {
                // Bits above the wave size must be ignored, also by the fast-path test.
                let e_hi = if wave == 32 {
                    e | 0xdead_beef_0000_0000
                } else {
                    e
                };
                check_alu(&jit, wave, e_hi, rng.gen(), &mut rng);
                check_alu(&jit, wave, e, all, &mut rng);
            }
        }
    }
}

/// A ballot's result used by later lane code (a new chunk loop after the reduction).
#[test]
fn ballot_feeds_later_lane_code() {
    for wave in [64u32, 32] {
        let mut b = FunctionBuilder::new("ballot", layout(wave, 8, 4));
        let blk = b.create_block();
        b.switch_to(blk);
        let x = b.use_reg(v(0), T::I32);
        let y = b.use_reg(v(1), T::I32);
        let lt = b.op(Op::Icmp(IntCC::Slt), T::I1, &[x, y]);
        let bits = b.ballot(lt);
        b.def_reg(s(0), bits, None);
        let pc = b.op(Op::Popcnt, T::I64, &[bits]);
        let n = b.op(Op::Trunc, T::I32, &[pc]);
        let r = b.op(Op::Iadd, T::I32, &[x, n]);
        b.def_reg(v(2), r, None);
        b.terminate(Terminator::Return);
        let func = b.finish();
        let prog = prepare(&jit(), &func);
        let mut w = Wave::new(&func.layout, 0, 0);
        let mut rng = ChaCha8Rng::seed_from_u64(wave as u64);
        let xs: Vec<i32> = (0..wave).map(|_| rng.gen_range(-5..5)).collect();
        let ys: Vec<i32> = (0..wave).map(|_| rng.gen_range(-5..5)).collect();
        for l in 0..wave {
            w.state.set_lane(v(0), l, xs[l as usize] as u32);
            w.state.set_lane(v(1), l, ys[l as usize] as u32);
        }
        w.block(&*prog, 0, &memory()).expect("runs");
        let want: u64 = (0..wave)
            .filter(|&l| xs[l as usize] < ys[l as usize])
            .map(|l| 1u64 << l)
            .sum();
        let got = w.state.uniform(s(0)) as u64 | (w.state.uniform(s(1)) as u64) << 32;
        assert_eq!(got, want, "wave {wave}");
        for l in 0..wave {
            assert_eq!(
                w.state.lane(v(2), l),
                (xs[l as usize] + want.count_ones() as i32) as u32
            );
        }
    }
}
