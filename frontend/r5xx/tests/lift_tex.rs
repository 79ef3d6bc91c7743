//! TEX slots (seed 003 §3.4, §2.1.4): LD on linear and tiled inputs of every kind of format,
//! scaled and unscaled coordinates, PROJ, the NaN and wrap rules of coordinates, superfine
//! reads, write masks and predicates, IGNORE_UNCOVERED, TEXKILL, faults outside GPU memory.

mod lift_common;

use lift_common::*;
use wavejit_r5xx::lift::state::mask;
use wavejit_r5xx::mc::{address, DataFormat, Surface, Tiling};
use wavejit_r5xx::table::{CmpOp, PredSel, TexOp};

const BASE: u32 = 0x10000;

/// Element (x, y) of the test input: (x, y, x * y + 0.5, -1).
fn elem(x: u32, y: u32) -> [f32; 4] {
    [x as f32, y as f32, (x * y) as f32 + 0.5, -1.0]
}

/// A machine with input 3: a 64x16 linear FLOAT32_4 surface of [`elem`]s, whose element
/// (x, y) is at BASE + 16 (64 y + x) (table 1 with an even pitch).
fn machine(prog: Vec<wavejit_r5xx::inst::Inst>) -> Machine {
    let mut m = Machine::new(prog);
    m.setup.bindings.inputs[3] = Some(float4(BASE, 64, 16));
    for y in 0..16 {
        for x in 0..64 {
            m.write_f32(BASE + 16 * (64 * y + x), &elem(x, y));
        }
    }
    m
}

#[test]
fn ld_reads_texels_through_both_swizzles() {
    // S from r2.b, T from r2.r; result swizzle (a, b, g, r).
    let prog = vec![tex(TexOp::Ld, 3, 2, "brga", 4, "abgr").inst()];
    let mut m = machine(prog);
    m.set_temp4(2, |l| [(l % 16) as f32 + 0.75, 0.0, l as f32 + 0.25, 0.0]);
    let d = m.go();
    for l in 0..64 {
        let e = elem(l, l % 16);
        let got = [0, 1, 2, 3].map(|c| f32::from_bits(d.r(4, c, l)));
        assert_eq!(got, [e[3], e[2], e[1], e[0]], "lane {l}");
    }
}

#[test]
fn scaled_and_projected_coordinates() {
    // Scaled: S in [0, 1] times the pitch (64), T times the height (16).
    let prog = vec![tex(TexOp::Ld, 3, 2, "rgba", 4, "rgba").scaled().inst()];
    let mut m = machine(prog);
    m.set_temp4(2, |l| [(l as f32 + 0.5) / 64.0, 5.5 / 16.0, 0.0, 0.0]);
    let d = m.go();
    for l in 0..64 {
        assert_eq!(d.r(4, 0, l), f(l as f32), "lane {l}");
        assert_eq!(d.r(4, 1, l), f(5.0));
    }
    // PROJ divides S and T by Q first.
    let prog = vec![tex(TexOp::Proj, 3, 2, "rgba", 4, "rgba").inst()];
    let mut m = machine(prog);
    m.set_temp4(2, |l| [2.0 * l as f32 + 1.0, 14.5, 0.0, 2.0]);
    let d = m.go();
    for l in 0..64 {
        assert_eq!(d.r(4, 0, l), f(l as f32));
        assert_eq!(d.r(4, 1, l), f(7.0));
    }
}

#[test]
fn lod_bias_and_gradients_read_level_zero() {
    for op in [TexOp::Lod, TexOp::Lodbias, TexOp::Dxdy] {
        let mut m = machine(vec![tex(op, 3, 2, "rgba", 4, "rgba").inst()]);
        m.set_temp4(2, |l| [l as f32, 2.0, 9.0, 100.0]);
        let d = m.go();
        assert_eq!(d.r(4, 2, 33), f(33.0 * 2.0 + 0.5), "{op:?}");
    }
}

#[test]
fn coordinates_floor_saturate_and_wrap_at_4096() {
    // Texel x = floor(S) saturated to i32, bits 11:0: NaN (+Inf) and -0.5 give 4095;
    // 5000.5 gives 904; +Inf gives 4095. The surface is 4096 wide here.
    let prog = vec![tex(TexOp::Ld, 0, 2, "rgba", 4, "rgba").inst()];
    let mut m = Machine::new(prog);
    let s = Surface {
        base: 0x20000,
        pitch: 4096,
        tiling: Tiling::Linear,
        format: DataFormat::Float32x1,
        height: 2,
    };
    m.setup.bindings.inputs[0] = Some(s);
    for x in [0u32, 904, 4095] {
        m.write_f32(0x20000 + 4 * (4096 + x), &[x as f32 + 0.25]);
    }
    let xs = [f32::NAN, -0.5, 5000.5, f32::INFINITY, 904.0, -1e-40];
    m.set_temp4(2, move |l| [xs[l as usize % xs.len()], 1.0, 0.0, 0.0]);
    let d = m.go();
    let want = [4095.25, 4095.25, 904.25, 4095.25, 904.25, 0.25];
    for (l, w) in want.iter().enumerate() {
        assert_eq!(d.r(4, 0, l as u32), f(*w), "S = {}", xs[l]);
        // A one-channel format reads (v, 0, 0, 1).
        assert_eq!(
            [1, 2, 3].map(|c| d.r(4, c, l as u32)),
            [0, 0, f(1.0)],
            "missing channels"
        );
    }
}

#[test]
fn uint8_inputs_are_normalised() {
    let prog = vec![tex(TexOp::Ld, 1, 2, "rgba", 4, "rgba").inst()];
    let mut m = Machine::new(prog);
    m.setup.bindings.inputs[1] = Some(Surface {
        base: 0x30000,
        pitch: 64,
        tiling: Tiling::Linear,
        format: DataFormat::Uint8x4,
        height: 1,
    });
    for x in 0..64u32 {
        let a = 0x30000 + 4 * x as usize;
        m.mem[a..a + 4].copy_from_slice(&[x as u8, 255 - x as u8, 4 * x as u8, 128]);
    }
    m.set_temp4(2, |l| [l as f32, 0.0, 0.0, 0.0]);
    let d = m.go();
    for l in 0..64u32 {
        let bytes = [l as u8, 255 - l as u8, 4 * l as u8, 128];
        for c in 0..4 {
            let want = f32::from(bytes[c as usize]) / 255.0;
            assert_eq!(d.r(4, c, l), f(want), "lane {l} channel {c}");
        }
    }
}

#[test]
fn superfine_reads_fetch_a_two_by_two_block() {
    let prog = vec![tex(TexOp::Ld, 2, 2, "rgba", 4, "rgba").inst()];
    let mut m = Machine::new(prog);
    m.setup.bindings.inputs[2] = Some(Surface {
        base: 0x40000,
        pitch: 64,
        tiling: Tiling::LinearInp2x2,
        format: DataFormat::Float32x1,
        height: 8,
    });
    let v = |x: u32, y: u32| (100 * y + x) as f32;
    for y in 0..8 {
        for x in 0..64 {
            m.write_f32(0x40000 + 4 * (64 * y + x), &[v(x, y)]);
        }
    }
    m.set_temp4(2, |l| [(l % 60) as f32, 3.0, 0.0, 0.0]);
    let d = m.go();
    for l in 0..64 {
        let x = l % 60;
        let want = [v(x + 1, 3), v(x, 4), v(x + 1, 4), v(x, 3)];
        assert_eq!([0, 1, 2, 3].map(|c| d.r(4, c, l)), want.map(f), "lane {l}");
    }
}

#[test]
fn tiled_inputs_follow_the_memory_controllers_addresses() {
    let s = Surface {
        base: 0x50000,
        pitch: 64,
        tiling: Tiling::Tiled,
        format: DataFormat::Float32x4,
        height: 16,
    };
    let prog = vec![tex(TexOp::Ld, 5, 2, "rgba", 4, "rgba").inst()];
    let mut m = Machine::new(prog);
    m.setup.bindings.inputs[5] = Some(s);
    for y in 0..16 {
        for x in 0..64 {
            m.write_f32(address(&s, x, y), &elem(x, y));
        }
    }
    // (40, 9): bits 10:5 mix x and y (table 2, bpe 16), far from a linear address.
    assert_ne!(address(&s, 40, 9), 0x50000 + 16 * (64 * 9 + 40));
    m.set_temp4(2, |l| [(l + 1) as f32 % 64.0, (l / 4) as f32, 0.0, 0.0]);
    let d = m.go();
    for l in 0..64 {
        let e = elem((l + 1) % 64, l / 4);
        assert_eq!([0, 1, 2, 3].map(|c| d.r(4, c, l)), e.map(f), "lane {l}");
    }
}

#[test]
fn write_masks_and_predicates_limit_the_destination() {
    let prog = vec![
        mov(9, t(5), 0, false)
            .set_pred(CmpOp::Ne, 7, CmpOp::Ne, true)
            .inst(),
        tex(TexOp::Ld, 3, 2, "rgba", 4, "rgba")
            .wmask(0b101, true)
            .pred((PredSel::Rrrr, false), (PredSel::Aaaa, true))
            .inst(),
    ];
    let mut m = machine(prog);
    m.set_temp4(2, |l| [l as f32, 1.0, 0.0, 0.0]);
    m.set_temp4(4, |_| [7.0; 4]);
    m.set_temp4(5, |l| [(l & 1) as f32, 0.0, 0.0, (l >> 1 & 1) as f32]);
    let d = m.go();
    for l in 0..64u32 {
        let e = elem(l, 1);
        let r = if l & 1 == 1 { e[0] } else { 7.0 };
        let b = if l & 1 == 1 { e[2] } else { 7.0 };
        let a = if l >> 1 & 1 == 0 { e[3] } else { 7.0 };
        assert_eq!(
            [0, 1, 2, 3].map(|c| d.r(4, c, l)),
            [r, 7.0, b, a].map(f),
            "lane {l}"
        );
    }
}

#[test]
fn ignore_uncovered_reads_nothing_for_helpers() {
    // Pair (0, 0) alone; its helpers point far outside GPU memory but do not read.
    let prog = vec![tex(TexOp::Ld, 3, 2, "rgba", 4, "rgba")
        .ignore_uncovered()
        .inst()];
    let mut m = machine(prog);
    m.domain = [0, 0, 0, 0];
    m.set_temp4(2, |l| {
        if l == 0 {
            [5.0, 2.0, 0.0, 0.0]
        } else {
            [0.0, 4000.0, 0.0, 0.0]
        }
    });
    let d = m.go();
    assert_eq!(d.r(4, 0, 0), f(5.0));
    assert_eq!(d.r(4, 0, 1), 0, "a helper's destination is not written");
    // Without IGNORE_UNCOVERED the helper reads row 4000: outside the 1 MiB memory.
    let mut m = machine(vec![tex(TexOp::Ld, 3, 2, "rgba", 4, "rgba").inst()]);
    m.domain = [0, 0, 0, 0];
    m.set_temp4(2, |l| {
        if l == 0 {
            [5.0, 2.0, 0.0, 0.0]
        } else {
            [0.0, 4000.0, 0.0, 0.0]
        }
    });
    let e = m.run().err().expect("a read outside GPU memory");
    assert!(
        e.starts_with("fault:") && e.contains("out-of-bounds") && e.contains("lane 1"),
        "{e}"
    );
}

#[test]
fn texkill_uncovers_processors_with_a_negative_channel() {
    // Examined: r, g (RGB_WMASK 0b011) and a (ALPHA_WMASK); -0, NaN and denormals are not
    // below 0.
    let prog = vec![tex(TexOp::Texkill, 0, 2, "rgba", 0, "rgba")
        .wmask(0b011, true)
        .inst()];
    let mut m = Machine::new(prog);
    let cases: [[f32; 4]; 7] = [
        [1.0, 1.0, 1.0, 1.0],
        [-1.0, 1.0, 1.0, 1.0],
        [1.0, 1.0, -1.0, 1.0], // b is not examined
        [1.0, 1.0, 1.0, -0.5],
        [-0.0, f32::NAN, 1.0, -1e-40],
        [1.0, f32::NEG_INFINITY, 1.0, 1.0],
        [0.0, 0.0, 0.0, 0.0],
    ];
    m.set_temp4(2, move |l| cases[l as usize % cases.len()]);
    let d = m.go();
    let killed: u64 = (0..64)
        .filter(|l| [1, 3, 5].contains(&(l % 7)))
        .fold(0, |m, l| m | 1 << l);
    assert_eq!(d.mask(mask::COVERED), !killed);
    assert_eq!(
        d.mask(mask::ACTIVE),
        u64::MAX,
        "killed processors keep running"
    );
}

#[test]
fn a_missing_input_is_refused() {
    let e = Machine::new(vec![tex(TexOp::Ld, 7, 2, "rgba", 4, "rgba").inst()])
        .run()
        .err()
        .expect("refused");
    assert!(e.contains("input 7"), "{e}");
}
