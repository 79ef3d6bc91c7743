//! Parameter interpolation and LDS_DIRECT through both engines: tests/programs/interp_lds_direct.s
//! runs under the JIT and the interpreter, which must agree bit for bit, and both must give
//! the values of the documented model computed here on the host (lift/interp.rs and
//! lift/operand.rs module docs: M0 = new_prim_mask << 16 | lds_param_offset, 12-dword records
//! per attribute and primitive with P0.c at 2c, P10.c at 2c + 1, P20.c at 8 + c; p1/p2 an
//! unfused f32 multiply-add; LDS_DIRECT data type 2 = dword, 5 = signed 16-bit word).

mod cli_util;

use cli_util::{succeeds, temp_path};

const PROG: &str = "tests/programs/interp_lds_direct.s";

fn run(engine: &str) -> Vec<u32> {
    let out = temp_path(&format!("interp_lds_direct_{engine}.bin"));
    let save = format!("0:{}", out.display());
    succeeds(&[
        "run",
        PROG,
        "--target",
        "gfx900",
        "--kernel",
        "interp_lds_direct",
        "--global",
        "64",
        "--local",
        "64",
        "--engine",
        engine,
        "--arg",
        "zero:2048",
        "--save",
        &save,
    ]);
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(out);
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The f32 the program stores in LDS dword `n`.
fn lds(n: u32) -> f32 {
    if n < 256 {
        n as f32 * 0.5 - 100.0
    } else {
        0.0
    }
}

/// (primitive of the lane's quad, primitives in the wave) for new_prim_mask `mask`.
fn prim(lane: u32, mask: u32) -> (u32, u32) {
    let starts: Vec<u32> = (1..16).filter(|q| mask >> (q - 1) & 1 == 1).collect();
    let p = starts.iter().filter(|&&q| q <= lane / 4).count() as u32;
    (p, starts.len() as u32 + 1)
}

/// Parameter dword `slot` of `attr` for `lane` (lds_param_offset 32 bytes = dword 8).
fn param(lane: u32, attr: u32, slot: u32) -> f32 {
    let (p, n) = prim(lane, 0b101_0011);
    lds(8 + 12 * (attr * n + p) + slot)
}

/// An f16 (bits) as f32, exactly.
fn h2f(h: u32) -> f32 {
    let (s, e, m) = (h >> 15 & 1, h >> 10 & 0x1f, h & 0x3ff);
    let mag = match e {
        0 => m as f32 * 2f32.powi(-24),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m as f32 / 1024.0) * 2f32.powi(e as i32 - 15),
    };
    if s == 1 {
        -mag
    } else {
        mag
    }
}

#[test]
fn interpolation_and_lds_direct_agree_across_engines_and_with_the_model() {
    let jit = run("jit");
    let interp = run("interp");
    assert_eq!(jit, interp, "JIT and interpreter differ");
    for id in 0..64u32 {
        let got = &jit[8 * id as usize..][..5];
        let i = id as f32 * f32::from_bits(0x3dcc_cccd);
        let p1 = param(id, 1, 3) * i + param(id, 1, 2);
        let p2 = param(id, 1, 9) * i + p1;
        let hi = |f: f32| h2f(f.to_bits() >> 16);
        let ll = hi(param(id, 0, 1)) * i + hi(param(id, 0, 0));
        let want = [
            p2.to_bits(),
            param(id, 0, 11).to_bits(),
            (lds(3) + i).to_bits(),
            (lds(5).to_bits() >> 16) as u16 as i16 as i32 as u32,
            ll.to_bits(),
        ];
        assert_eq!(got, want, "work-item {id}");
    }
}
