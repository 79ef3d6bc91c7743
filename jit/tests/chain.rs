//! `Program::run_chain`: the JIT's chained runner against the trait's default (one
//! `run_block` per block, as the interpreter runs), under every small budget: the same exit,
//! the same charges, the same state, faults included. At tier 2 the blocks of a loop run as
//! one trace that charges the budget itself, so every case also runs with tier-2 code from
//! the start and with a tier-up after the first execution.

mod common;

use common::*;
use std::sync::Arc;
use wavejit_ir::{
    Block, Function, FunctionBuilder, IntCC, MemSpace, MemWidth, Op, ScalarType as T, Terminator,
    TrapKind,
};
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Budget, Program};

/// Two guest instructions (pcs 0x8 and 0xc): v0 += the lane id, then s0 -= 1; the new s0.
fn count_down(b: &mut FunctionBuilder) -> wavejit_ir::Value {
    b.begin_guest_inst(0x8);
    let x = b.use_reg(v(0), T::I32);
    let id = b.lane_id();
    let x = b.op(Op::Iadd, T::I32, &[x, id]);
    b.def_reg(v(0), x, None);
    b.begin_guest_inst(0xc);
    let n = b.use_reg(s(0), T::I32);
    let one = b.i32(1);
    let n = b.op(Op::Isub, T::I32, &[n, one]);
    b.def_reg(s(0), n, None);
    n
}

/// One guest instruction at `pc`: on to `back` while `n` is not zero, else to `out`.
fn loop_while_nonzero(
    b: &mut FunctionBuilder,
    pc: u32,
    n: wavejit_ir::Value,
    back: Block,
    out: Block,
) {
    b.begin_guest_inst(pc);
    let zero = b.i32(0);
    let more = b.op(Op::Icmp(IntCC::Ne), T::I1, &[n, zero]);
    b.terminate(Terminator::Branch {
        cond: more,
        then_to: back,
        else_to: out,
    });
}

/// Block 0 (two guest instructions) jumps to the loop; block 1 (three) adds the lane id to
/// v0 and counts s0 down, looping while it is not zero; block 2 (one) traps when s1 is set,
/// else block 3 (none: it costs one unit of fuel all the same) returns.
fn func() -> Arc<Function> {
    let mut b = FunctionBuilder::new("chain", layout(64, 4, 2));
    let [entry, body, tail, done] = [(); 4].map(|_| b.create_block());
    b.switch_to(entry);
    b.begin_guest_inst(0x0);
    let z = b.i32(7);
    b.def_reg(v(0), z, None);
    b.begin_guest_inst(0x4);
    b.terminate(Terminator::Jump(body));

    b.switch_to(body);
    let n = count_down(&mut b);
    loop_while_nonzero(&mut b, 0x10, n, body, tail);

    b.switch_to(tail);
    b.begin_guest_inst(0x14);
    let t = b.use_reg(s(1), T::I32);
    let zero = b.i32(0);
    let trap = b.op(Op::Icmp(IntCC::Ne), T::I1, &[t, zero]);
    let fail = b.create_block();
    b.terminate(Terminator::Branch {
        cond: trap,
        then_to: fail,
        else_to: done,
    });
    b.switch_to(done);
    b.terminate(Terminator::Return);
    b.switch_to(fail);
    b.begin_guest_inst(0x18);
    b.terminate(Terminator::Trap(TrapKind::Explicit("stop".into())));
    Arc::new(b.finish())
}

/// Runs the wave to its end as the dispatcher does: chains under `fuel` and `blocks` per
/// chain, resuming where a chain stopped, until the wave returns, faults, runs out of fuel
/// or 200 chains have run. Returns every chain's exit and charges, and the final state.
fn run(prog: &dyn Program, f: &Function, trips: u32, trap: bool, fuel: u64, blocks: u32) -> String {
    let mut w = Wave::new(&f.layout, 0, 0);
    w.state.set_uniform(s(0), trips);
    // `func` traps when s1 is set; `loop_func` faults when s0 counts down to s1 - 1.
    w.state.set_uniform(s(1), u32::from(trap));
    let mem = memory();
    let mut hints = Default::default();
    let mut log = String::new();
    let mut at = Block(0);
    let mut spent = 0;
    for _ in 0..200 {
        let mut ctx = w.ctx(&mem, &mut hints);
        let mut budget = Budget {
            fuel: fuel - spent,
            blocks,
            ..Budget::default()
        };
        let exit = prog.run_chain(&f.blocks, at, &mut ctx, &mut budget);
        spent += budget.fuel_spent;
        log += &format!("{exit:?} {budget:?}\n");
        match exit {
            Ok(BlockExit::Jump(b)) if budget.blocks_run > 0 => at = b,
            _ => break,
        }
    }
    format!("{log}{:?}", w.state.bytes())
}

/// The JITs every case runs on: tier 1 only (the default threshold is not reached), tier 2
/// from the start, and a tier-up after the first execution of each block.
fn jits() -> Vec<Jit> {
    let with = |t| {
        jit_with(JitOptions {
            tier_up_after: Some(t),
            ..JitOptions::default()
        })
    };
    vec![jit(), with(0), with(1)]
}

/// Entry (one guest instruction) jumps to a loop of two blocks: `a` (two) adds the lane id
/// to v0 and counts s0 down; `b` (two) loads from guest address 0, where nothing is mapped,
/// in every lane when s0 + 1 equals s1 (a fault: never for s1 = 0) and in no lane otherwise,
/// then goes back to `a` while s0 is not zero, else to `done` (none), which returns.
fn loop_func() -> Arc<Function> {
    let mut b = FunctionBuilder::new("loop", layout(64, 4, 2));
    let [entry, a, blk_b, done] = [(); 4].map(|_| b.create_block());
    b.switch_to(entry);
    b.begin_guest_inst(0x0);
    b.terminate(Terminator::Jump(a));

    b.switch_to(a);
    count_down(&mut b);
    b.terminate(Terminator::Jump(blk_b));

    b.switch_to(blk_b);
    b.begin_guest_inst(0x10);
    let n = b.use_reg(s(0), T::I32);
    let at = b.use_reg(s(1), T::I32);
    let one = b.i32(1);
    let n1 = b.op(Op::Iadd, T::I32, &[n, one]);
    let hit = b.op(Op::Icmp(IntCC::Eq), T::I1, &[n1, at]);
    let all = b.i64(u64::MAX);
    let none = b.i64(0);
    let bits = b.op(Op::Select, T::I64, &[hit, all, none]);
    let mask = b.mask_from_bits(bits);
    let zero = b.i64(0);
    let addr = b.splat(zero);
    let got = b.load(
        MemSpace::Global,
        MemWidth::B32,
        false,
        T::I32,
        addr,
        Some(mask),
    );
    b.def_reg(v(1), got, Some(mask));
    loop_while_nonzero(&mut b, 0x14, n, a, done);
    b.switch_to(done);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

#[test]
fn chains_match_block_by_block_runs_under_every_budget() {
    let jits = jits();
    for jit in &jits {
        every_budget(&func(), jit, &[false, true]);
    }
    // Its only loop is one block: no trace holds another block.
    let tier2 = jits[1].stats();
    assert!(tier2.blocks_compiled > 0);
    assert_eq!(tier2.trace_blocks, 0);
}

/// A loop's trace faults in its second block at the iteration `s1` names (0: never).
#[test]
fn loop_traces_match_block_by_block_runs_under_every_budget() {
    for jit in jits() {
        every_budget(&loop_func(), &jit, &[false, true]);
    }
    let f = loop_func();
    let j = jits().remove(1);
    let p = prepare(&j, &f);
    // Each block of the two-block loop heads a trace holding the other one.
    assert_eq!(j.stats().trace_blocks, 2);
    let out = run(&*p, &f, 5, true, 1000, 256);
    assert!(
        out.contains("pc: 16"),
        "the fault names the second block's load:\n{out}"
    );
}

fn every_budget(f: &Arc<Function>, jit: &Jit, traps: &[bool]) {
    let f = f.clone();
    let reference = prepare(&Interpreter, &f);
    let jit = prepare(jit, &f);
    let (mut chains, mut runs) = (0, 0);
    for &trap in traps {
        for trips in [1, 5] {
            for fuel in [1, 2, 3, 5, 8, 13, 30, 1000] {
                for blocks in [1, 2, 3, 7, 256] {
                    let want = run(&*reference, &f, trips, trap, fuel, blocks);
                    let got = run(&*jit, &f, trips, trap, fuel, blocks);
                    assert_eq!(
                        got, want,
                        "trips {trips}, trap {trap}, fuel {fuel}, blocks {blocks}"
                    );
                    chains += want.lines().count() - 1;
                    runs += 1;
                }
            }
        }
    }
    // Budgets that cut the runs short were exercised, not only whole runs.
    assert!(chains > 2 * runs, "{chains} chains in {runs} runs");
}

#[test]
fn a_chain_from_a_missing_block_runs_nothing() {
    let f = func();
    let jit = prepare(&jit(), &f);
    let mut w = Wave::new(&f.layout, 0, 0);
    let mem = memory();
    let mut hints = Default::default();
    let mut ctx = w.ctx(&mem, &mut hints);
    let mut budget = Budget {
        fuel: 100,
        blocks: 100,
        ..Budget::default()
    };
    let exit = jit.run_chain(&f.blocks, Block(99), &mut ctx, &mut budget);
    assert_eq!(exit, Ok(BlockExit::Jump(Block(99))));
    assert_eq!(budget.blocks_run, 0);
}
