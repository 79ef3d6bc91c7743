//! Seeded random programs ([`wavejit_r5xx::random`]) lifted and run over a two-by-two-tile
//! domain: every one must lift, end normally, and give the same registers and GPU memory on
//! the interpreter and the JIT (the runner compares them bit for bit).

mod lift_common;

use lift_common::*;
use wavejit_r5xx::mc::{DataFormat, Surface, Tiling};
use wavejit_r5xx::random::{generate, CONSTS, INPUTS, INT_CONSTS, TEMPS};

/// A machine for random program `seed`: its constants; inputs 0-3 and outputs 0-3 over the
/// domain (0, 0)..(27, 6) with mixed formats; temps from edge values.
fn machine(seed: u64) -> Machine {
    let p = generate(seed);
    let mut m = Machine::new(p.slots());
    m.setup.info = p.info();
    let ints: Vec<(u8, u8, i8)> = p
        .int_consts
        .iter()
        .map(|&w| (w as u8, (w >> 8) as u8, (w >> 16) as u8 as i8))
        .collect();
    assert_eq!(ints.len(), usize::from(INT_CONSTS));
    m.consti(0x1000, &ints);
    let bools: Vec<u32> = (0..32).map(|k| p.bool_consts >> k & 1).collect();
    m.constb(0x2000, &bools);
    let consts: Vec<[f32; 4]> = (0..u32::from(CONSTS) + 32)
        .map(|c| std::array::from_fn(|k| model::edge(c * 4 + k as u32, 7)))
        .collect();
    m.constf(0x3000, &consts);
    let formats = [
        DataFormat::Float32x4,
        DataFormat::Uint8x4,
        DataFormat::Float32x1,
        DataFormat::Uint16x1,
    ];
    for s in 0..u32::from(INPUTS).max(4) {
        let surface = |base| Surface {
            base,
            pitch: 32,
            tiling: if s % 2 == 0 {
                Tiling::Linear
            } else {
                Tiling::Tiled
            },
            format: formats[s as usize],
            height: 8,
        };
        if s < u32::from(INPUTS) {
            m.setup.bindings.inputs[s as usize] = Some(surface(0x10000 + 0x2000 * s));
        }
        m.setup.bindings.outputs[s as usize] = Some(surface(0x20000 + 0x2000 * s));
    }
    for a in (0x10000..0x18000).step_by(4) {
        m.write_u32(a, &[model::edge(a, 3).to_bits() ^ a]);
    }
    m.domain = [0, 0, 27, 6];
    for n in 1..u32::from(TEMPS) {
        m.set_temp4(n, |l| {
            std::array::from_fn(|c| model::edge(l * 64 + n * 4 + c as u32, 1))
        });
    }
    m
}

#[test]
fn random_programs_agree_on_both_engines() {
    let mut slots = 0;
    for seed in 0..60 {
        let m = machine(seed);
        slots += m.setup.program.len();
        if let Err(e) = m.run() {
            panic!("seed {seed}: {e}\n{}", generate(seed).listing());
        }
    }
    assert!(slots > 600, "the programs are not trivial: {slots} slots");
}
