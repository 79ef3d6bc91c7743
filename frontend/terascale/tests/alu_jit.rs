//! The JIT agrees with the interpreter bit for bit on every ALU value instruction, over the
//! same edge values (floats, integers, doubles) with denormals kept and flushed.

mod alu_common;

use alu_common::*;
use wavejit_ir::FloatMode;
use wavejit_jit::Jit;
use wavejit_runtime::interp::Interpreter;
use wavejit_terascale::lift::alu_form;
use wavejit_terascale::AluOp;

const VALS: &[u32] = &[
    0,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4020_0000,
    0x0000_0001,
    0x807f_ffff,
    0x7f7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc1_2345,
    0x7f80_0001,
    0x3eff_ffff,
    0x4f00_0000,
    31,
    33,
    0xffff_ffff,
    0x1234_5678,
    0x7ff0_0000,
    0x3ff0_0000,
];

#[test]
fn jit_and_interpreter_agree_on_every_value_op() {
    let jit = Jit::new().expect("host supported by Cranelift");
    let mut n = 0;
    for op in AluOp::ALL {
        let Ok(form) = alu_form(op) else { continue };
        let rows = rows(VALS, input_dwords(form), 128);
        for mode in [FloatMode::IEEE, FloatMode::FLUSH] {
            let f = build(op, &env(mode));
            let a = run(&Interpreter, &f, &rows);
            let b = run(&jit, &f, &rows);
            for (k, (x, y)) in a.iter().zip(&b).enumerate() {
                assert_eq!(x, y, "{} {mode:?} inputs {:08x?}", op.name(), rows[k]);
            }
        }
        n += 1;
    }
    assert_eq!(n, 177);
}
