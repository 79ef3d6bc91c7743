//! Shared harness of the ALU semantics tests: lift one instruction over lane registers, run it
//! for one 64-lane wave on the interpreter and the JIT (the runtime's shared runner: they must
//! agree bit for bit), read the interpreter's results back as dwords.
#![allow(dead_code)]
#[path = "../lift_common/both.rs"]
mod both;

use std::sync::Arc;
use wavejit_ir::{FileId, FileKind, FunctionBuilder, Reg, StateLayout, Terminator};
use wavejit_ir::{FloatMode, Function, Op, ScalarType};
use wavejit_runtime::solo::{End, Solo};
use wavejit_runtime::WaveState;
use wavejit_terascale::lift::{alu_form, lift_alu, AluEnv, AluForm, AluInput, AluValue};
use wavejit_terascale::lift::{Src, Width};
use wavejit_terascale::{AluOp, ChipClass};

pub const LANES: usize = 64;
const R: FileId = FileId(0);
const OUT: u32 = 16;

/// Dwords an instruction of `form` reads, in the harness's flat order.
pub fn input_dwords(form: AluForm) -> usize {
    match form {
        AluForm::Slot(n) => n,
        AluForm::Chained(n) => n + 1,
        AluForm::Wide(w) => w.iter().map(|w| if *w == Width::W64 { 2 } else { 1 }).sum(),
        AluForm::Vector => 8,
    }
}

pub fn env(mode: FloatMode) -> AluEnv {
    AluEnv {
        class: ChipClass::Evergreen,
        f32_mode: mode,
        f64_mode: mode,
    }
}

/// The IR of `op` reading lane registers 0.. (flat order: the slot's sources then `prev`;
/// a double as hi, lo; a reduction as x.src0, x.src1, y.src0, ...) and writing its result
/// dwords to registers 16.. (Double: hi, lo; Predicate: value, execute as 0/1).
pub fn build(op: AluOp, env: &AluEnv) -> Function {
    let mut l = StateLayout::new(LANES as u32);
    assert_eq!(l.add_file("r", FileKind::Lane, 32), R);
    let mut b = FunctionBuilder::new(op.name(), l);
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0);
    let form = alu_form(op).expect("a value op");
    let r: Vec<_> = (0..input_dwords(form) as u32)
        .map(|i| b.use_reg(Reg::new(R, i), ScalarType::I32))
        .collect();
    let srcs: Vec<Src>;
    let vec4: [[wavejit_ir::Value; 2]; 4];
    let input = match form {
        AluForm::Slot(_) => AluInput::Slot(&r),
        AluForm::Chained(n) => AluInput::Chained {
            srcs: &r[..n],
            prev: r[n],
        },
        AluForm::Wide(w) => {
            let mut i = 0;
            srcs = w
                .iter()
                .map(|w| {
                    i += if *w == Width::W64 { 2 } else { 1 };
                    match w {
                        Width::W64 => Src::W64 {
                            hi: r[i - 2],
                            lo: r[i - 1],
                        },
                        Width::W32 => Src::W32(r[i - 1]),
                    }
                })
                .collect();
            AluInput::Wide(&srcs)
        }
        AluForm::Vector => {
            vec4 = [[r[0], r[1]], [r[2], r[3]], [r[4], r[5]], [r[6], r[7]]];
            AluInput::Vector(&vec4)
        }
    };
    let v = lift_alu(&mut b, op, env, input).unwrap_or_else(|e| panic!("{e}"));
    let outs = match v {
        AluValue::Scalar(v) | AluValue::Replicated(v) => vec![v],
        AluValue::Double { hi, lo } => vec![hi, lo],
        AluValue::Slots(s) => s.to_vec(),
        AluValue::Predicate { value, execute } => {
            let e = b.op(Op::Zext, ScalarType::I32, &[execute]);
            vec![value, e]
        }
    };
    for (i, o) in outs.into_iter().enumerate() {
        b.def_reg(Reg::new(R, OUT + i as u32), o, None);
    }
    b.terminate(Terminator::Return);
    let f = b.finish();
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("{}: {e}", op.name()));
    f
}

/// Runs `f` (one block) from `state` on the interpreter and the JIT, which must agree on
/// every register cell and memory byte; returns the interpreter's final state.
pub fn run_state(f: &Arc<Function>, state: WaveState) -> WaveState {
    let mut start = Solo::new(&f.layout, 1 << 16).expect("memory");
    start.state = state;
    start.lds = vec![0u8; 16];
    start.private = vec![0u8; 64 * 4];
    start.private_lane_bytes = 4;
    let (a, _) = both::run_both(f, start, 1000);
    assert_eq!(a.end, End::Done, "no fault");
    a.state.expect("a final state")
}

/// Runs `f` on both engines once per chunk of 64 input rows; returns the interpreter's 8
/// result dwords per row.
pub fn run(f: &Function, rows: &[Vec<u32>]) -> Vec<[u32; 8]> {
    let f = Arc::new(f.clone());
    let mut out = Vec::new();
    for chunk in rows.chunks(LANES) {
        let mut state = WaveState::new(Arc::new(f.layout.clone()));
        for (lane, row) in chunk.iter().enumerate() {
            for (i, &v) in row.iter().enumerate() {
                state.set_lane(Reg::new(R, i as u32), lane as u32, v);
            }
        }
        let state = run_state(&f, state);
        for lane in 0..chunk.len() {
            let mut r = [0u32; 8];
            for (i, d) in r.iter_mut().enumerate() {
                *d = state.lane(Reg::new(R, OUT + i as u32), lane as u32);
            }
            out.push(r);
        }
    }
    out
}

/// Every row of `n` dwords over `vals` (the cross product), capped at `cap` rows taken evenly.
pub fn rows(vals: &[u32], n: usize, cap: usize) -> Vec<Vec<u32>> {
    let total = vals.len().pow(n as u32);
    let step = total.div_ceil(cap).max(1);
    (0..total)
        .step_by(step)
        .map(|mut k| {
            (0..n)
                .map(|_| {
                    let v = vals[k % vals.len()];
                    k /= vals.len();
                    v
                })
                .collect()
        })
        .collect()
}
