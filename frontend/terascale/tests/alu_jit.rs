//! The JIT agrees with the interpreter bit for bit on every ALU value instruction, over the
//! same edge values (floats, integers, doubles) with denormals kept and flushed (the
//! harness's runner compares the engines on every cell).

mod alu_common;

use alu_common::*;
use wavejit_ir::FloatMode;
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
    let mut n = 0;
    for op in AluOp::ALL {
        let Ok(form) = alu_form(op) else { continue };
        let rows = rows(VALS, input_dwords(form), 128);
        for mode in [FloatMode::IEEE, FloatMode::FLUSH] {
            // The harness runs every chunk of rows on both engines and panics with the
            // differing cells unless they agree bit for bit.
            let got = run(&build(op, &env(mode)), &rows);
            assert_eq!(got.len(), rows.len(), "{} {mode:?}", op.name());
        }
        n += 1;
    }
    assert_eq!(n, 177);
}
