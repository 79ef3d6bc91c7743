//! Ops whose uniform operands are constants, which the JIT folds into the code (shift
//! amounts, bit-field offsets and widths; selects between all-ones, zero and a value, which
//! become logic on the mask), on every lane against `semantics::eval`, at tier 1 and tier
//! 2. Amounts, offsets and widths cover zero, in-range values, the type width and beyond
//! (the semantics take them modulo the width).

mod common;

use common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use wavejit_ir::semantics::eval;
use wavejit_ir::{FloatMode, Function, FunctionBuilder, Op, ScalarType as T, Terminator};
use wavejit_jit::{Jit, JitOptions};

/// `v[2..] = op(v0:v1, consts...)` for each constant operand list, one result register pair
/// per list (64-bit values use pairs).
fn func(op: Op, ty: T, consts: &[Vec<(T, u64)>]) -> Function {
    let mut b = FunctionBuilder::new("consts", layout(64, 8, 2 + 2 * consts.len() as u32));
    let blk = b.create_block();
    b.switch_to(blk);
    let x = b.use_reg(v(0), ty);
    for (i, cs) in consts.iter().enumerate() {
        let mut args = vec![x];
        args.extend(cs.iter().map(|&(t, c)| b.iconst(t, c)));
        let r = b.op(op, ty, &args);
        b.def_reg(v(2 + 2 * i as u32), r, None);
    }
    b.terminate(Terminator::Return);
    b.finish()
}

fn check(jit: &Jit, op: Op, ty: T, consts: &[Vec<(T, u64)>], rng: &mut ChaCha8Rng) {
    let f = func(op, ty, consts);
    let prog = prepare(jit, &f);
    let mem = memory();
    let mut w = Wave::new(&f.layout, 0, 0);
    let xs: Vec<u64> = (0..64)
        .map(|l| match l % 4 {
            0 => ty.bit_mask(),
            1 => 1u64 << (ty.bits() - 1),
            _ => rng.gen::<u64>() & ty.bit_mask(),
        })
        .collect();
    for (l, &x) in xs.iter().enumerate() {
        w.state.set_lane(v(0), l as u32, x as u32);
        w.state.set_lane(v(1), l as u32, (x >> 32) as u32);
    }
    w.block(&*prog, 0, &mem).expect("runs");
    for (i, cs) in consts.iter().enumerate() {
        let r = 2 + 2 * i as u32;
        let mut tys = vec![ty];
        tys.extend(cs.iter().map(|&(t, _)| t));
        for (l, &x) in xs.iter().enumerate() {
            let mut args = vec![x];
            args.extend(cs.iter().map(|&(t, c)| c & t.bit_mask()));
            let want = eval(op, FloatMode::IEEE, ty, &tys, &args);
            let lo = w.state.lane(v(r), l as u32) as u64;
            let got = if ty.bits() == 64 {
                lo | (w.state.lane(v(r + 1), l as u32) as u64) << 32
            } else {
                lo
            };
            assert_eq!(got, want, "{op:?} {ty} x {x:#x} consts {cs:?} lane {l}");
        }
    }
}

fn engines() -> [Jit; 2] {
    [
        jit_with(JitOptions {
            tier_up_after: None,
            ..JitOptions::default()
        }),
        jit_with(JitOptions {
            tier_up_after: Some(0),
            ..JitOptions::default()
        }),
    ]
}

#[test]
fn shifts_by_constant_amounts() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let amounts = [0u64, 1, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 100, u64::MAX];
    for jit in engines() {
        for op in [Op::Shl, Op::Lshr, Op::Ashr] {
            for ty in [T::I8, T::I16, T::I32, T::I64] {
                for at in [T::I32, T::I64] {
                    let cs: Vec<Vec<(T, u64)>> = amounts.iter().map(|&a| vec![(at, a)]).collect();
                    check(&jit, op, ty, &cs, &mut rng);
                }
            }
        }
    }
}

#[test]
fn bit_field_extracts_with_constant_offset_and_width() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let vals = [0u64, 1, 4, 8, 16, 24, 28, 31, 32, 36];
    let cs: Vec<Vec<(T, u64)>> = vals
        .iter()
        .flat_map(|&o| vals.iter().map(move |&w| vec![(T::I32, o), (T::I32, w)]))
        .collect();
    for jit in engines() {
        for op in [Op::Ubfe, Op::Sbfe] {
            check(&jit, op, T::I32, &cs, &mut rng);
        }
    }
}

/// `select(v0 <u v2, a, b)` per lane for constant `a` and `b` of all ones, zero and other
/// values, and for one of them the lane value v4 (64-bit values in register pairs).
#[test]
fn selects_between_constants_and_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for jit in engines() {
        for ty in [T::I8, T::I16, T::I32, T::I64] {
            let ones = ty.bit_mask();
            // `None`: the lane value v4.
            let operands = [
                Some(ones),
                Some(0),
                Some(0x1234_5678_9abc_def0 & ones),
                None,
            ];
            let mut b = FunctionBuilder::new("select", layout(64, 8, 6 + 2 * 16));
            let blk = b.create_block();
            b.switch_to(blk);
            let x = b.use_reg(v(0), T::I32);
            let y = b.use_reg(v(2), T::I32);
            let m = b.op(Op::Icmp(wavejit_ir::IntCC::Ult), T::I1, &[x, y]);
            let z = b.use_reg(v(4), ty);
            let mut pairs = Vec::new();
            for &p in &operands {
                for &q in &operands {
                    let pv = p.map_or(z, |c| b.iconst(ty, c));
                    let qv = q.map_or(z, |c| b.iconst(ty, c));
                    let r = b.op(Op::Select, ty, &[m, pv, qv]);
                    b.def_reg(v(6 + 2 * pairs.len() as u32), r, None);
                    pairs.push((p, q));
                }
            }
            b.terminate(Terminator::Return);
            let f = b.finish();
            let prog = prepare(&jit, &f);
            let mem = memory();
            let mut w = Wave::new(&f.layout, 0, 0);
            let lanes: Vec<(u32, u32, u64)> = (0..64)
                .map(|_| (rng.gen(), rng.gen(), rng.gen::<u64>() & ones))
                .collect();
            for (l, &(a, c, z)) in lanes.iter().enumerate() {
                let l = l as u32;
                w.state.set_lane(v(0), l, a);
                w.state.set_lane(v(2), l, c);
                w.state.set_lane(v(4), l, z as u32);
                w.state.set_lane(v(5), l, (z >> 32) as u32);
            }
            w.block(&*prog, 0, &mem).expect("runs");
            for (i, &(p, q)) in pairs.iter().enumerate() {
                let r = 6 + 2 * i as u32;
                for (l, &(a, c, z)) in lanes.iter().enumerate() {
                    let want = if a < c {
                        p.unwrap_or(z)
                    } else {
                        q.unwrap_or(z)
                    };
                    let lo = w.state.lane(v(r), l as u32) as u64;
                    let got = if ty.bits() == 64 {
                        lo | (w.state.lane(v(r + 1), l as u32) as u64) << 32
                    } else {
                        lo
                    };
                    assert_eq!(got, want, "{ty} select {p:?} {q:?} lane {l}");
                }
            }
        }
    }
}

/// 64-bit shifts by every constant amount of values one of whose halves is a constant zero
/// (GCN's `v_mov_b32 v1, 0; v_lshlrev_b64 v[0:1], 2, v[0:1]`): the JIT shifts the halves as
/// rows and leaves out the zero one.
#[test]
fn shifts_of_64_bit_values_with_a_zero_half() {
    for jit in engines() {
        for op in [Op::Shl, Op::Lshr, Op::Ashr] {
            for zero_high in [true, false] {
                let mut b = FunctionBuilder::new("shift64", layout(64, 8, 2 + 2 * 64));
                let blk = b.create_block();
                b.switch_to(blk);
                let x = b.use_reg(v(0), T::I32);
                let z = b.iconst(T::I32, 0);
                let halves = if zero_high { [x, z] } else { [z, x] };
                let wide = b.op(Op::Concat, T::I64, &halves);
                for k in 0..64u64 {
                    let amt = b.iconst(T::I32, k);
                    let r = b.op(op, T::I64, &[wide, amt]);
                    b.def_reg(v(2 + 2 * k as u32), r, None);
                }
                b.terminate(Terminator::Return);
                let f = b.finish();
                let prog = prepare(&jit, &f);
                let mem = memory();
                let mut w = Wave::new(&f.layout, 0, 0);
                let xs: Vec<u32> = (0..64u32)
                    .map(|l| match l % 4 {
                        0 => u32::MAX,
                        1 => 1 << 31,
                        2 => 1,
                        _ => l.wrapping_mul(0x9e37_79b9),
                    })
                    .collect();
                for (l, &x) in xs.iter().enumerate() {
                    w.state.set_lane(v(0), l as u32, x);
                }
                w.block(&*prog, 0, &mem).expect("runs");
                for k in 0..64u32 {
                    for (l, &x) in xs.iter().enumerate() {
                        let wide = if zero_high {
                            u64::from(x)
                        } else {
                            u64::from(x) << 32
                        };
                        // The definition, written out: shifts of the 64-bit value.
                        let want = match op {
                            Op::Shl => wide << k,
                            Op::Lshr => wide >> k,
                            _ => ((wide as i64) >> k) as u64,
                        };
                        let r = 2 + 2 * k;
                        let got = u64::from(w.state.lane(v(r), l as u32))
                            | u64::from(w.state.lane(v(r + 1), l as u32)) << 32;
                        assert_eq!(got, want, "{op:?} zero_high {zero_high} k {k} lane {l}");
                    }
                }
            }
        }
    }
}
