//! The end of a program (seed 003 §2.1, §3.3.8): output registers to render targets at
//! (i, j) over a domain of several tiles, the output mask, bound and written targets, format
//! conversion, PE coverage, killed processors and the conditional output test at the DPP.

mod lift_common;

use lift_common::*;
use wavejit_r5xx::inst::Inst;
use wavejit_r5xx::mc::{DataFormat, Surface, Tiling};
use wavejit_r5xx::setup::{CondLoc, CondTest};
use wavejit_r5xx::table::{AlphaOp, Modifier, RgbOp, TexOp};

const OUT: u32 = 0x60000;
const SENTINEL: u32 = 0xdead_beef;

/// OUTPUT slot: render target `target` = r[n] * 1 + 0 in all channels.
fn out(n: u8, target: u8) -> Inst {
    alu(RgbOp::Mad, AlphaOp::Mad)
        .srcs([t(n), inline(0), inline(0)])
        .rgb_in(1, 0, "111", Modifier::Nop)
        .alpha_in(1, 0, '1', Modifier::Nop)
        .rgb_in(2, 0, "000", Modifier::Nop)
        .alpha_in(2, 0, '0', Modifier::Nop)
        .out(target, 7, target, true)
        .inst()
}

/// A machine whose output 0 is a 64x16 FLOAT32_4 linear surface at OUT filled with
/// SENTINEL; the program `prog` then `out(0, 0)` (r0 = (i, j, 0, 1)).
fn machine(mut prog: Vec<Inst>) -> Machine {
    prog.push(out(0, 0));
    let mut m = Machine::new(prog);
    m.setup.bindings.outputs[0] = Some(float4(OUT, 64, 16));
    m.write_u32(OUT, &vec![SENTINEL; 64 * 16 * 4]);
    m
}

fn element(d: &Done, i: u32, j: u32) -> [u32; 4] {
    let a = OUT + 16 * (64 * j + i);
    [0, 1, 2, 3].map(|c| d.u32_at(a + 4 * c))
}

fn written(i: u32, j: u32) -> [u32; 4] {
    [f(i as f32), f(j as f32), 0, f(1.0)]
}

#[test]
fn every_pair_of_the_domain_writes_its_element() {
    let mut m = machine(vec![]);
    m.domain = [3, 1, 20, 5]; // 2 x 2 tiles; edges cut quads
    let d = m.go();
    assert_eq!(d.states.len(), 4);
    for j in 0..16 {
        for i in 0..64 {
            let inside = (3..=20).contains(&i) && (1..=5).contains(&j);
            let want = if inside { written(i, j) } else { [SENTINEL; 4] };
            assert_eq!(element(&d, i, j), want, "({i}, {j})");
        }
    }
    assert_eq!(d.executed, 4, "one slot in each of the four tiles");
}

#[test]
fn the_output_mask_selects_channels() {
    let mut m = machine(vec![]);
    m.setup.bindings.out_mask = 0b0101;
    let d = m.go();
    let w = written(7, 2);
    assert_eq!(element(&d, 7, 2), [w[0], SENTINEL, w[2], SENTINEL]);
    m.setup.bindings.out_mask = 0;
    assert_eq!(element(&m.go(), 7, 2), [SENTINEL; 4]);
}

#[test]
fn only_written_and_bound_targets_are_stored() {
    // Target 1 is bound but no slot writes it; target 2 is written but unbound.
    let mut m = machine(vec![out(0, 2)]);
    m.setup.bindings.outputs[1] = Some(float4(0x70000, 64, 16));
    m.write_u32(0x70000, &[SENTINEL; 8]);
    let d = m.go();
    assert_eq!(d.u32_at(0x70000), SENTINEL);
    assert_eq!(element(&d, 1, 0), written(1, 0));
}

#[test]
fn unorm8_outputs_clamp_and_round() {
    let mut m = Machine::new(vec![out(2, 0)]);
    m.setup.bindings.outputs[0] = Some(Surface {
        base: OUT,
        pitch: 64,
        tiling: Tiling::Linear,
        format: DataFormat::Uint8x4,
        height: 4,
    });
    m.set_temp4(2, |_| [0.5, 1.5, -1.0, f32::NAN]);
    let d = m.go();
    // 0.5 * 255 = 127.5 rounds to even (128); 1.5 clamps to 255; -1 and NaN give 0.
    assert_eq!(
        d.u32_at(OUT + 4 * (64 + 3)),
        u32::from_le_bytes([128, 255, 0, 0])
    );
}

#[test]
fn pe_coverage_and_texkill_keep_pairs_from_writing() {
    let mut m = machine(vec![tex(TexOp::Texkill, 0, 2, "rgba", 0, "rgba").inst()]);
    m.coverage = Some(vec![0x5555_5555_5555_5555]);
    // Lane 4 has a negative channel: killed.
    m.set_temp4(2, |l| if l == 4 { [-1.0; 4] } else { [1.0; 4] });
    let d = m.go();
    for l in 0..64u32 {
        let (i, j) = (l % 16, l / 16);
        let want = if l % 2 == 0 && l != 4 {
            written(i, j)
        } else {
            [SENTINEL; 4]
        };
        assert_eq!(element(&d, i, j), want, "lane {l}");
    }
}

const COND: u32 = 0x80000;

/// Conditional output at the DPP: lane l's value is r2.a = l (its W output when the
/// program exports one), the buffer holds 20 at every pair, test `test`.
fn conditional(test: CondTest, exports: bool, write: bool) -> Done {
    let w = alu(RgbOp::Mad, AlphaOp::Mad)
        .srcs([t(2), inline(0), inline(0)])
        .alpha_in(1, 0, '1', Modifier::Nop)
        .alpha_in(2, 0, '0', Modifier::Nop)
        .w()
        .inst();
    let mut m = machine(vec![w]);
    m.setup.info.exports_cond = exports;
    m.setup.bindings.cond.loc = CondLoc::Dpp;
    m.setup.bindings.cond.test = test;
    m.setup.bindings.cond.write = write;
    m.setup.bindings.cond.value = f(30.0);
    m.setup.bindings.cond.buffer = Some(Surface {
        base: COND,
        pitch: 64,
        tiling: Tiling::Linear,
        format: DataFormat::Float32x1,
        height: 4,
    });
    m.write_f32(COND, &[20.0; 64 * 4]);
    m.set_temp(2, 3, |l| f(l as f32));
    m.go()
}

#[test]
fn the_conditional_output_test_at_the_processors() {
    let tests = [
        CondTest::Never,
        CondTest::Less,
        CondTest::LessEqual,
        CondTest::Equal,
        CondTest::GreaterEqual,
        CondTest::Greater,
        CondTest::NotEqual,
        CondTest::Always,
    ];
    for test in tests {
        for (exports, write) in [(true, true), (false, true), (true, false)] {
            let d = conditional(test, exports, write);
            for l in 0..64u32 {
                let (i, j) = (l % 16, l / 16);
                let v = if exports { l as f32 } else { 30.0 };
                let pass = match test {
                    CondTest::Never => false,
                    CondTest::Less => v < 20.0,
                    CondTest::LessEqual => v <= 20.0,
                    CondTest::Equal => v == 20.0,
                    CondTest::GreaterEqual => v >= 20.0,
                    CondTest::Greater => v > 20.0,
                    CondTest::NotEqual => v != 20.0,
                    CondTest::Always => true,
                };
                let what = format!("{test:?} exports {exports} write {write} lane {l}");
                let want = if pass { written(i, j) } else { [SENTINEL; 4] };
                assert_eq!(element(&d, i, j), want, "{what}");
                let b = d.f32_at(COND + 4 * (64 * j + i));
                let want = if pass && write { v } else { 20.0 };
                assert_eq!(b, want, "{what}: buffer");
            }
        }
    }
}

#[test]
fn the_host_test_agrees_with_the_lifted_one() {
    // The executor's PE test and the DPP's lifted test are one rule: NaN fails all but !=.
    let nan = f32::NAN.to_bits();
    assert!(CondTest::NotEqual.passes(nan, f(1.0)));
    assert!(!CondTest::Equal.passes(nan, nan));
    assert!(CondTest::Equal.passes(f(0.0), f(-0.0)));
    assert!(!CondTest::Less.passes(f(1.0), nan));
    assert!(
        CondTest::Greater.passes(f(1.0), 1),
        "denormals are not flushed"
    );
    let d = conditional(CondTest::Less, true, false);
    for l in 0..64u32 {
        let pass = CondTest::Less.passes(f(l as f32), f(20.0));
        assert_eq!(element(&d, l % 16, l / 16)[0] != SENTINEL, pass, "lane {l}");
    }
}

#[test]
fn a_test_that_reads_no_buffer_needs_none() {
    let mut m = machine(vec![]);
    m.setup.bindings.cond.loc = CondLoc::Dpp;
    m.setup.bindings.cond.test = CondTest::Less;
    let e = m.run().err().expect("refused");
    assert!(e.contains("set_cond_out_fmt"), "{e}");
    m.setup.bindings.cond.test = CondTest::Always;
    m.setup.bindings.cond.write = true;
    assert_eq!(element(&m.go(), 2, 1), written(2, 1));
}
