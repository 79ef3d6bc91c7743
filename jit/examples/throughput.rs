//! Quick throughput and compile-time figures (not a benchmark suite; run in release mode):
//! `cargo run --release -p wavejit-jit --example throughput`.
//!
//! An ALU clause in the style of lifted GCN code (every result written to a lane register
//! under exec and read back) runs over a pool of 64 waves, all active or 3/4 of them
//! partially active, with the interpreter and several JIT configurations. Figures are guest
//! lane-instructions per second of wall time, best of several rounds.

use std::sync::Arc;
use std::time::Instant;
use wavejit_ir::{
    FileId, FileKind, FloatCC, Function, FunctionBuilder, MinMax, Op, Reg, ScalarType as T,
    StateLayout, Terminator,
};
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{Engine, GuestMemory, Program, WaveCtx, WaveState};

const S: FileId = FileId(0);
const V: FileId = FileId(1);

/// `copies` times the clause; returns the function and its guest instruction count.
fn clause(copies: u32) -> (Function, u64) {
    let mut l = StateLayout::new(64);
    l.add_file("s", FileKind::Uniform, 32);
    l.add_file("v", FileKind::Lane, 16);
    let mut b = FunctionBuilder::new("alu", l);
    let blk = b.create_block();
    b.switch_to(blk);
    let v = |i| Reg::new(V, i);
    let mut guest = 0;
    for _ in 0..copies {
        let e = b.use_reg(Reg::new(S, 30), T::I64);
        let exec = b.mask_from_bits(e);
        let mut op =
            |b: &mut FunctionBuilder, op: Op, ty: T, args: &[u32], consts: &[u64], dst: u32| {
                let mut vals: Vec<_> = args.iter().map(|&r| b.use_reg(v(r), ty)).collect();
                vals.extend(consts.iter().map(|&c| b.iconst(ty, c)));
                let r = b.op(op, ty, &vals);
                b.def_reg(v(dst), r, Some(exec));
                guest += 1;
            };
        op(&mut b, Op::Fmul, T::F32, &[0, 1], &[], 3);
        op(&mut b, Op::Fadd, T::F32, &[3, 2], &[], 4);
        op(&mut b, Op::Fsub, T::F32, &[4, 0], &[], 5);
        op(&mut b, Op::Fma, T::F32, &[3, 4, 5], &[], 6);
        op(&mut b, Op::Fmin(MinMax::NonIeee), T::F32, &[6, 0], &[], 7);
        op(&mut b, Op::Fmax(MinMax::NonIeee), T::F32, &[7, 1], &[], 3);
        op(&mut b, Op::Fmul, T::F32, &[3, 2], &[], 4);
        op(&mut b, Op::Fadd, T::F32, &[4, 6], &[], 5);
        op(&mut b, Op::Iadd, T::I32, &[8, 9], &[], 8);
        op(&mut b, Op::And, T::I32, &[8], &[0xffff], 9);
        op(&mut b, Op::Xor, T::I32, &[9, 10], &[], 10);
        op(&mut b, Op::Shl, T::I32, &[10], &[3], 11);
        op(&mut b, Op::Isub, T::I32, &[11, 8], &[], 12);
        op(&mut b, Op::Umax, T::I32, &[12, 9], &[], 13);
        // v_cmp_lt_f32 vcc, v6, v7; v_cndmask v14, v7, v6, vcc
        let (x, y) = (b.use_reg(v(6), T::F32), b.use_reg(v(7), T::F32));
        let lt = b.op(Op::Fcmp(FloatCC::Lt), T::I1, &[x, y]);
        let vcc = b.ballot(lt);
        b.def_reg(Reg::new(S, 28), vcc, None);
        let sel = b.op(Op::Select, T::F32, &[lt, x, y]);
        b.def_reg(v(14), sel, Some(exec));
        guest += 2;
    }
    b.terminate(Terminator::Return);
    (b.finish(), guest)
}

fn pool(func: &Function, mixed: bool) -> Vec<WaveState> {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    (0..64)
        .map(|i| {
            let mut w = WaveState::new(Arc::new(func.layout.clone()));
            for l in 0..64 {
                for r in 0..16 {
                    let x = if r < 8 {
                        ((rnd() % 2000) as f32 * 0.01 - 10.0).to_bits()
                    } else {
                        rnd() as u32
                    };
                    w.set_lane(Reg::new(V, r), l, x);
                }
            }
            let exec = if mixed && i % 4 != 0 { rnd() } else { u64::MAX };
            w.set_uniform(Reg::new(S, 30), exec as u32);
            w.set_uniform(Reg::new(S, 31), (exec >> 32) as u32);
            w
        })
        .collect()
}

/// Best G lane-instr/s over `rounds` rounds of `reps` passes over a fresh pool (the best
/// round is the one least disturbed by other processes on a shared machine).
fn measure(
    prog: &dyn Program,
    func: &Function,
    mixed: bool,
    guest: u64,
    reps: u32,
    rounds: u32,
) -> f64 {
    let mem = GuestMemory::with_reserve(1 << 20).expect("reserve");
    let mut waves = pool(func, mixed);
    let mut rates = Vec::new();
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..reps {
            for w in waves.iter_mut() {
                let mut ctx = WaveCtx {
                    state: w,
                    mem: &mem,
                    lds: &mut [],
                    private: &mut [],
                    private_lane_bytes: 0,
                    hints: &mut Default::default(),
                };
                prog.run_block(wavejit_ir::Block(0), &mut ctx)
                    .expect("runs");
            }
        }
        let lane_insts = guest as f64 * 64.0 * waves.len() as f64 * reps as f64;
        rates.push(lane_insts / t.elapsed().as_secs_f64() / 1e9);
    }
    rates.into_iter().fold(0.0, f64::max)
}

fn main() {
    let (func, guest) = clause(1);
    let func = Arc::new(func);
    println!(
        "clause: {guest} guest instructions, {} IR instructions",
        func.inst_count()
    );
    let configs: [(&str, JitOptions); 7] = [
        ("jit (default, tiered)", JitOptions::default()),
        (
            "jit, tier 1 only",
            JitOptions {
                tier_up_after: None,
                ..JitOptions::default()
            },
        ),
        (
            "jit, tier 2 at prepare",
            JitOptions {
                tier_up_after: Some(0),
                ..JitOptions::default()
            },
        ),
        (
            "jit, no fast path",
            JitOptions {
                fast_path: false,
                ..JitOptions::default()
            },
        ),
        (
            "jit, no lazy blend",
            JitOptions {
                lazy_blend: false,
                ..JitOptions::default()
            },
        ),
        (
            "jit, no NaN speculation",
            JitOptions {
                nan_speculation: false,
                ..JitOptions::default()
            },
        ),
        (
            "jit, all ops via helpers",
            JitOptions {
                inline: false,
                ..JitOptions::default()
            },
        ),
    ];
    println!(
        "{:<28} {:>12} {:>12}   (G lane-instr/s)",
        "engine", "full exec", "mixed exec"
    );
    let interp = Interpreter.prepare(func.clone()).expect("prepares");
    println!(
        "{:<28} {:>12.3} {:>12.3}",
        "interpreter",
        measure(&*interp, &func, false, guest, 2, 5),
        measure(&*interp, &func, true, guest, 2, 5)
    );
    for (name, opts) in configs {
        let jit = Jit::with_options(opts).expect("jit");
        let prog = jit.prepare(func.clone()).expect("prepares");
        let reps = if name.contains("helpers") { 4 } else { 200 };
        println!(
            "{:<28} {:>12.3} {:>12.3}",
            name,
            measure(&*prog, &func, false, guest, reps, 15),
            measure(&*prog, &func, true, guest, reps, 15)
        );
    }
    for (tier, after) in [("tier 1", None), ("tier 2", Some(0))] {
        for copies in [1, 10] {
            let (f, _) = clause(copies);
            let n = f.inst_count();
            let mut times = Vec::new();
            let mut bytes = 0;
            for _ in 0..9 {
                let jit = Jit::with_options(JitOptions {
                    tier_up_after: after,
                    ..JitOptions::default()
                })
                .expect("jit");
                jit.prepare(Arc::new(f.clone())).expect("prepares");
                let st = jit.stats();
                times.push(st.compile_nanos as f64 / 1e3);
                bytes = st.code_bytes;
            }
            times.sort_by(|a, b| a.total_cmp(b));
            let med = times[times.len() / 2];
            println!(
                "compile {copies:>2}x clause at {tier}: {n} IR insts, {med:.0} us, {:.1} us/IR inst, {bytes} code bytes",
                med / n as f64
            );
        }
    }
}
