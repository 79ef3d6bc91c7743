//! The reference interpreter on small hand-built IR: register access (masks, 64-bit pairs),
//! pure ops (vector fast paths checked against `semantics::eval` lane by lane), terminators.

mod common;

use common::*;
use std::sync::Arc;
use wavejit_ir::semantics::eval;
use wavejit_ir::{
    Block, FloatMode, FunctionBuilder, Op, ScalarType, ScalarType::*, Terminator, TrapKind,
};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, ExecError, FaultKind};

#[test]
fn masked_writes_and_64_bit_registers() {
    let f = one_block(64, |b| {
        let m = exec(b);
        let x = b.use_reg(v(4), I64);
        b.def_reg(v(6), x, Some(m));
        let u = b.use_reg(s(2), I64);
        b.def_reg(s(4), u, None);
        // A uniform value written to a lane register is broadcast (to active lanes).
        let lo = b.use_reg(s(2), I32);
        b.def_reg(v(8), lo, Some(m));
        let id = b.lane_id();
        b.def_reg(v(9), id, None);
    });
    let mut w = Wave::new(&f, 0, 0);
    w.set_v(4, |l| 0x1000 + l);
    w.set_v(5, |l| 0x2000 + l);
    w.set_v(6, |_| 0xaaaa);
    w.set_v(7, |_| 0xbbbb);
    w.set_v(8, |_| 0xcccc);
    w.state.set_uniform(s(2), 0xdead_beef);
    w.state.set_uniform(s(3), 0x0123_4567);
    let bits = 0xf0f0_0000_ffff_0001u64;
    w.set_exec(bits);
    assert_eq!(w.run(&f, &memory()), Ok(BlockExit::Return));
    let on = |l: u32| bits >> l & 1 == 1;
    assert_eq!(
        w.get_v(6),
        (0..64)
            .map(|l| if on(l) { 0x1000 + l } else { 0xaaaa })
            .collect::<Vec<_>>()
    );
    assert_eq!(
        w.get_v(7),
        (0..64)
            .map(|l| if on(l) { 0x2000 + l } else { 0xbbbb })
            .collect::<Vec<_>>()
    );
    assert_eq!(
        w.get_v(8),
        (0..64)
            .map(|l| if on(l) { 0xdead_beef } else { 0xcccc })
            .collect::<Vec<_>>()
    );
    assert_eq!(w.get_v(9), (0..64).collect::<Vec<_>>());
    assert_eq!(
        (w.state.uniform(s(4)), w.state.uniform(s(5))),
        (0xdead_beef, 0x0123_4567)
    );
    // The layout puts lane registers in rows of wave_size cells, low half first.
    let l = &w.state.layout;
    assert_eq!(
        l.lane_cell_offset(v(7), 0),
        l.lane_cell_offset(v(6), 0) + 64 * 4
    );
}

/// splitmix64: a fixed stream of test inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Mostly random, sometimes an edge value.
    fn value(&mut self) -> u64 {
        match self.next() % 8 {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << (self.next() % 64),
            3 => self.next() % 70,
            _ => self.next(),
        }
    }
}

/// Builds `op` over lane operands of types `tys` (read from v[2k..2k+2] and truncated or
/// bitcast), optionally with operand 0 uniform (from s[0..2]), and checks every lane against
/// `eval` on the same canonical inputs.
fn check_op(op: Op, ty: ScalarType, tys: &[ScalarType], uniform_first: bool, rng: &mut Rng) {
    let f = one_block(64, |b| {
        let args: Vec<_> = tys
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let raw = if k == 0 && uniform_first {
                    b.use_reg(s(0), I64)
                } else {
                    b.use_reg(v(2 * k as u32), I64)
                };
                match t {
                    I64 => raw,
                    F64 => b.op(Op::Bitcast, F64, &[raw]),
                    F32 => {
                        let i = b.op(Op::Trunc, I32, &[raw]);
                        b.op(Op::Bitcast, F32, &[i])
                    }
                    t => b.op(Op::Trunc, t, &[raw]),
                }
            })
            .collect();
        let r = b.op(op, ty, &args);
        let r = match ty {
            I64 => r,
            F64 => b.op(Op::Bitcast, I64, &[r]),
            F32 => {
                let i = b.op(Op::Bitcast, I32, &[r]);
                b.op(Op::Zext, I64, &[i])
            }
            _ => b.op(Op::Zext, I64, &[r]),
        };
        let r = if b.ty(r).is_lane() { r } else { b.splat(r) };
        b.def_reg(v(10), r, None);
    });
    let mut w = Wave::new(&f, 0, 0);
    let inputs: Vec<Vec<u64>> = (0..tys.len())
        .map(|_| (0..64).map(|_| rng.value()).collect())
        .collect();
    for (k, vals) in inputs.iter().enumerate() {
        w.set_v(2 * k as u32, |l| vals[l as usize] as u32);
        w.set_v(2 * k as u32 + 1, |l| (vals[l as usize] >> 32) as u32);
    }
    w.state.set_uniform(s(0), inputs[0][0] as u32);
    w.state.set_uniform(s(1), (inputs[0][0] >> 32) as u32);
    w.run(&f, &memory()).unwrap();
    for l in 0..64usize {
        let a: Vec<u64> = (0..tys.len())
            .map(|k| if k == 0 && uniform_first { inputs[0][0] } else { inputs[k][l] } & tys[k].bit_mask())
            .collect();
        let want = eval(op, FloatMode::IEEE, ty, tys, &a);
        let got =
            w.state.lane(v(10), l as u32) as u64 | (w.state.lane(v(11), l as u32) as u64) << 32;
        assert_eq!(got, want, "{op:?} {ty} {tys:?} lane {l} args {a:x?}");
    }
}

#[test]
fn vector_fast_paths_match_eval() {
    let mut rng = Rng(42);
    for ty in [I8, I16, I32, I64] {
        for op in [Op::Iadd, Op::Isub, Op::And, Op::Or, Op::Xor] {
            for uniform_first in [false, true] {
                check_op(op, ty, &[ty, ty], uniform_first, &mut rng);
            }
        }
        check_op(Op::Not, ty, &[ty], false, &mut rng);
        for amount in [I8, I32, I64] {
            check_op(Op::Shl, ty, &[ty, amount], false, &mut rng);
            check_op(Op::Lshr, ty, &[ty, amount], true, &mut rng);
        }
        check_op(Op::Select, ty, &[I1, ty, ty], false, &mut rng);
        check_op(Op::Select, ty, &[I1, ty, ty], true, &mut rng);
    }
    for op in [Op::And, Op::Or, Op::Xor] {
        check_op(op, I1, &[I1, I1], false, &mut rng);
    }
    check_op(Op::Not, I1, &[I1], false, &mut rng);
}

#[test]
fn other_ops_go_through_eval() {
    let mut rng = Rng(7);
    check_op(Op::Imul, I32, &[I32, I32], false, &mut rng);
    check_op(Op::Ashr, I16, &[I16, I32], false, &mut rng);
    check_op(Op::Fadd, F32, &[F32, F32], true, &mut rng);
    check_op(Op::Fma, F64, &[F64, F64, F64], false, &mut rng);
    check_op(Op::Select, F32, &[I1, F32, F32], false, &mut rng);
}

#[test]
fn float_add_matches_the_host_for_ordinary_values() {
    // Independent of eval: host f32 addition on finite, non-NaN inputs.
    let f = one_block(4, |b| {
        let x = b.use_reg(v(0), F32);
        let y = b.use_reg(s(0), F32);
        let r = b.op(Op::Fadd, F32, &[x, y]);
        b.def_reg(v(1), r, None);
    });
    let xs = [1.5f32, -0.0, 3.0e38, 1.0e-40];
    let mut w = Wave::new(&f, 0, 0);
    w.set_v(0, |l| xs[l as usize].to_bits());
    w.state.set_uniform(s(0), 0.25f32.to_bits());
    w.run(&f, &memory()).unwrap();
    assert_eq!(
        w.get_v(1),
        xs.iter().map(|x| (x + 0.25).to_bits()).collect::<Vec<_>>()
    );
}

#[test]
fn terminators() {
    let mut b = FunctionBuilder::new("t", layout(4));
    let [b0, b1, b2, b3, b4] = [0; 5].map(|_| b.create_block());
    b.set_guest_pc(b2, 0x200);
    b.switch_to(b0);
    b.begin_guest_inst(0x10);
    let c = b.use_reg(s(0), I32);
    let c = b.op(Op::Trunc, I1, &[c]);
    b.terminate(Terminator::Branch {
        cond: c,
        then_to: b1,
        else_to: b2,
    });
    b.switch_to(b1);
    b.begin_guest_inst(0x20);
    let t = b.use_reg(s(2), I64);
    b.terminate(Terminator::JumpIndirect(t));
    b.switch_to(b2);
    b.begin_guest_inst(0x30);
    b.terminate(Terminator::Barrier(b3));
    b.switch_to(b3);
    b.begin_guest_inst(0x40);
    let x = b.use_reg(s(0), I32);
    b.def_reg(s(1), x, None);
    b.terminate(Terminator::Trap(TrapKind::Explicit("s_trap 2".into())));
    b.switch_to(b4);
    b.terminate(Terminator::Trap(TrapKind::StackOverflow));
    let f = Arc::new(b.finish());
    let prog = Interpreter.prepare(f.clone()).unwrap();
    let mem = memory();
    let mut w = Wave::new(&f, 0, 0);
    let run = |w: &mut Wave, blk: Block| {
        let mut ctx = wavejit_runtime::WaveCtx {
            state: &mut w.state,
            mem: &mem,
            lds: &mut [],
            private: &mut [],
            private_lane_bytes: 0,
            hints: &mut Default::default(),
        };
        prog.run_block(blk, &mut ctx)
    };
    w.state.set_uniform(s(0), 3);
    assert_eq!(run(&mut w, b0), Ok(BlockExit::Jump(b1)));
    w.state.set_uniform(s(0), 2);
    assert_eq!(run(&mut w, b0), Ok(BlockExit::Jump(b2)));
    w.state.set_uniform(s(2), 0x200);
    assert_eq!(run(&mut w, b1), Ok(BlockExit::Jump(b2)));
    w.state.set_uniform(s(3), 1);
    let e = run(&mut w, b1).unwrap_err();
    assert_eq!(
        (e.kind, e.pc, e.addr),
        (FaultKind::BadJump, 0x20, Some(0x1_0000_0200))
    );
    assert_eq!(run(&mut w, b2), Ok(BlockExit::Barrier(b3)));
    let e = run(&mut w, b3).unwrap_err();
    assert_eq!((e.kind, e.pc), (FaultKind::Trap("s_trap 2".into()), 0x40));
    assert_eq!(
        w.state.uniform(s(1)),
        2,
        "the block's effects before the trap happened"
    );
    assert_eq!(run(&mut w, b4).unwrap_err().kind, FaultKind::StackOverflow);
    assert!(
        run(&mut w, Block(99)).is_err(),
        "a block outside the function is a fault, not a panic"
    );
}

#[test]
fn prepare_rejects_invalid_ir() {
    let mut b = FunctionBuilder::new("bad", layout(4));
    let b0 = b.create_block();
    b.switch_to(b0);
    b.terminate(Terminator::Jump(Block(7)));
    let e = Interpreter
        .prepare(Arc::new(b.finish()))
        .err()
        .expect("rejected");
    assert!(
        matches!(&e, ExecError::Setup(m) if m.contains("bad")),
        "{e}"
    );
}

#[test]
fn mask_from_bits_ignores_bits_above_the_wave() {
    let f = one_block(32, |b| {
        let m = exec(b);
        let bits = b.ballot(m);
        b.def_reg(s(0), bits, None);
    });
    let mut w = Wave::new(&f, 0, 0);
    w.set_exec(0xffff_0000_8000_0001);
    w.run(&f, &memory()).unwrap();
    // (The builder folds only mask_from_bits(ballot(m)), so this ballot really runs.)
    assert_eq!(
        (w.state.uniform(s(0)), w.state.uniform(s(1))),
        (0x8000_0001, 0)
    );
}
