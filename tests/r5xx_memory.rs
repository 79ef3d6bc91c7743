//! The memory controller and the conditional unit through `wavejit ctm`: every data format
//! in linear and tiled layouts (inputs and outputs), 2x2 superfine input reads, conditional
//! execution at the PE and conditional output at the DPP, each with the conditional write.
//! Both engines, bit for bit.
//!
//! Where elements are is computed here from seed 003's tables 1 and 2 (lines 180-193),
//! written out again from the table text, independently of `wavejit_r5xx::mc`.

mod cli_util;
mod r5xx_util;

use cli_util::{succeeds, Rng};
use r5xx_util::address::{linear, tiled};
use r5xx_util::{f32_bytes, f32s, u32s, Scratch};

/// The formats: (code, bytes per element, name).
const FORMATS: [(u32, u32, &str); 5] = [
    (0, 2, "UINT16_1"),
    (1, 4, "UINT8_4"),
    (2, 4, "FLOAT32_1"),
    (3, 8, "FLOAT32_2"),
    (4, 16, "FLOAT32_4"),
];

/// An element of `bpe` bytes that survives the trip through the processors' floats: any
/// integer bytes; for float formats finite normal floats of either sign (the move keeps
/// every bit).
fn element(rng: &mut Rng, code: u32, bpe: u32) -> Vec<u8> {
    if code < 2 {
        return (0..bpe).map(|_| rng.u32() as u8).collect();
    }
    (0..bpe / 4)
        .flat_map(|_| rng.f32(-1000.0, 1000.0).to_le_bytes())
        .collect()
}

fn format_word(code: u32, tiling: u32, pitch: u32) -> u32 {
    code << 24 | tiling << 16 | pitch
}

/// Runs `stream` (text) in `d` on both engines; the file `out` of each, which must agree.
fn run_both(d: &Scratch, stream: &str, out: &str) -> Vec<u8> {
    let s = d.write("s.ctm", stream);
    let runs: Vec<Vec<u8>> = ["jit", "interp"]
        .iter()
        .map(|e| {
            succeeds(&["ctm", &s, "--engine", e, "--threads", "2"]);
            d.read(out)
        })
        .collect();
    assert!(runs[0] == runs[1], "the engines' {out} differ");
    runs[0].clone()
}

/// copy.s over a 32x16 domain: input 0 in one layout, output 0 in another, every format.
#[test]
fn every_format_copies_between_linear_and_tiled_layouts() {
    let (w, h, pitch) = (32u32, 16u32, 32u32);
    let (inp, out, region) = (0x10000u32, 0x20000u32, 0x4000usize);
    for (code, bpe, name) in FORMATS {
        for (tin, tout) in [(1, 0), (0, 1), (1, 1)] {
            let d = Scratch::new("formats");
            d.copy("copy.s");
            let mut rng = Rng::new(u64::from(code * 8 + tin * 2 + tout));
            let place = |t: u32, base: u32, x: u32, y: u32| {
                let f = if t == 1 { tiled } else { linear };
                (f(base, pitch, bpe, x, y) - base) as usize
            };
            let mut a = vec![0u8; region];
            let mut want = vec![0u8; region];
            for y in 0..h {
                for x in 0..w {
                    let e = element(&mut rng, code, bpe);
                    let at = place(tin, inp, x, y);
                    a[at..at + bpe as usize].copy_from_slice(&e);
                    let at = place(tout, out, x, y);
                    want[at..at + bpe as usize].copy_from_slice(&e);
                }
            }
            d.write("a.bin", &a);
            let stream = format!(
                "memory 0x100000\nprogram 0x0 copy.s\nload {inp:#x} a.bin\nsave {out:#x} {region:#x} c.bin\n\
                 wait_for_idle 0\nset_inst_fmt 0x0 0x0\nset_inp_fmt 0 {inp:#x} {:#x} {h}\n\
                 set_out_fmt 0 {out:#x} {:#x} {h}\nset_domain 0 0 {} {}\nstart_program 0\n\
                 wait_for_idle 0\nflush_out_cache 0\n",
                format_word(code, tin, pitch),
                format_word(code, tout, pitch),
                w - 1,
                h - 1
            );
            let got = run_both(&d, &stream, "c.bin");
            assert!(
                got == want,
                "{name}: input tiling {tin}, output tiling {tout}"
            );
        }
    }
}

/// A single-channel input with 2x2 superfine tiling returns (x+1, y), (x, y+1), (x+1, y+1),
/// (x, y) in channels 0-3 (seed 003 line 195), linear and tiled.
#[test]
fn superfine_reads_return_the_2x2_block() {
    let (w, h, pitch) = (31u32, 15u32, 32u32);
    for (tiling, plain) in [(2u32, 0u32), (3, 1)] {
        let d = Scratch::new("superfine");
        d.copy("copy.s");
        let mut rng = Rng::new(u64::from(tiling));
        let v: Vec<f32> = (0..pitch * 16).map(|_| rng.f32(-5.0, 5.0)).collect();
        let mut a = vec![0u8; 0x1000];
        for y in 0..16 {
            for x in 0..pitch {
                let f = if plain == 1 { tiled } else { linear };
                let at = (f(0x10000, pitch, 4, x, y) - 0x10000) as usize;
                a[at..at + 4].copy_from_slice(&v[(y * pitch + x) as usize].to_le_bytes());
            }
        }
        d.write("a.bin", &a);
        let stream = format!(
            "memory 0x100000\nprogram 0x0 copy.s\nload 0x10000 a.bin\nsave 0x20000 {:#x} c.bin\n\
             wait_for_idle 0\nset_inst_fmt 0x0 0x0\nset_inp_fmt 0 0x10000 {:#x} 16\n\
             set_out_fmt 0 0x20000 {:#x} 16\nset_domain 0 0 {} {}\nstart_program 0\nwait_for_idle 0\n",
            pitch * 16 * 16,
            format_word(2, tiling, pitch),
            format_word(4, 0, pitch),
            w - 1,
            h - 1
        );
        let got = f32s(&run_both(&d, &stream, "c.bin"));
        let at = |x: u32, y: u32| v[(y * pitch + x) as usize];
        for y in 0..h {
            for x in 0..w {
                let e = (4 * (y * pitch + x)) as usize;
                let want = [at(x + 1, y), at(x, y + 1), at(x + 1, y + 1), at(x, y)];
                assert_eq!(got[e..e + 4], want, "tiling {tiling}, element ({x}, {y})");
            }
        }
    }
}

/// The conditional unit's stream around add.s / condw.s: the buffer (FLOAT32_1, pitch 64)
/// at 0x40000, the output prefilled with a sentinel.
fn cond_stream(prog: &str, test: u32, loc: u32, value: u32) -> String {
    format!(
        "memory 0x100000\nprogram 0x0 {prog}\nload 0x10000 a.bin\nload 0x20000 b.bin\n\
         load 0x30000 c0.bin\nload 0x40000 cond.bin\nsave 0x30000 2048 c.bin\n\
         save 0x40000 2048 cond_out.bin\nwait_for_idle 0\nset_inst_fmt 0x0 0x0\n\
         set_inp_fmt 0 0x10000 0x02000040 8\nset_inp_fmt 1 0x20000 0x02000040 8\n\
         set_out_fmt 0 0x30000 0x02000040 8\nset_cond_out_fmt 0x40000 0x02000040 8\n\
         set_cond_test {test}\nset_cond_loc {loc}\nset_cond_val {value:#x}\n\
         set_cond_out_mask 1\ninv_cond_out_cache 0\nset_domain 0 0 63 7\nstart_program 0\n\
         wait_for_idle 0\nflush_out_cache 0\nflush_cond_out_cache 0\n"
    )
}

const SENTINEL: u32 = 0xdead_beef;

/// Inputs a, b, the buffer's values and the sentinel output, written to `d`.
fn cond_inputs(d: &Scratch, seed: u64) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let mut rng = Rng::new(seed);
    let a: Vec<f32> = (0..512).map(|_| rng.f32(0.0, 1.0)).collect();
    let b: Vec<f32> = (0..512).map(|_| rng.f32(0.0, 1.0)).collect();
    let cond: Vec<f32> = (0..512).map(|_| rng.f32(0.0, 1.0)).collect();
    d.write("a.bin", f32_bytes(&a));
    d.write("b.bin", f32_bytes(&b));
    d.write("cond.bin", f32_bytes(&cond));
    d.write("c0.bin", SENTINEL.to_le_bytes().repeat(512));
    (a, b, cond)
}

/// Conditional execution at the PE (`set_cond_loc 1`): the PE's value v = 0.5 against the
/// buffer's b by LESS: pairs with 0.5 < b run (c = a + b) and get 0.5 written to the
/// buffer; the others run not at all (c keeps the sentinel, b stays).
#[test]
fn conditional_execution_at_the_pe_runs_the_passing_pairs_only() {
    let d = Scratch::new("cond-pe");
    d.copy("add.s");
    let (a, b, cond) = cond_inputs(&d, 11);
    run_both(&d, &cond_stream("add.s", 1, 1, 0.5f32.to_bits()), "c.bin");
    let (c, buf) = (u32s(&d.read("c.bin")), f32s(&d.read("cond_out.bin")));
    let mut passed = 0;
    for k in 0..512 {
        if 0.5 < cond[k] {
            passed += 1;
            assert_eq!(c[k], (a[k] + b[k]).to_bits(), "pair {k}");
            assert_eq!(buf[k], 0.5, "pair {k}");
        } else {
            assert_eq!(c[k], SENTINEL, "pair {k} ran");
            assert_eq!(buf[k].to_bits(), cond[k].to_bits(), "pair {k}");
        }
    }
    assert!(passed > 100 && passed < 412, "{passed} of 512 passed");
}

/// Conditional output at the DPP (`set_cond_loc 0`) of a program that exports a (W): pairs
/// with a >= b (GREATER_EQUAL) write c = a + b and a to the buffer; the others write
/// nothing. A program that exports no value sends the PE's: with NEVER nothing is written,
/// and with EQUAL against a buffer holding that value at even pairs only those write.
#[test]
fn conditional_output_at_the_dpp_writes_the_passing_pairs_only() {
    let d = Scratch::new("cond-dpp");
    d.copy("condw.s");
    d.copy("add.s");
    let (a, b, cond) = cond_inputs(&d, 12);
    run_both(&d, &cond_stream("condw.s", 4, 0, 0), "c.bin");
    let (c, buf) = (u32s(&d.read("c.bin")), f32s(&d.read("cond_out.bin")));
    for k in 0..512 {
        if a[k] >= cond[k] {
            assert_eq!(c[k], (a[k] + b[k]).to_bits(), "pair {k}");
            assert_eq!(buf[k].to_bits(), a[k].to_bits(), "pair {k}");
        } else {
            assert_eq!(c[k], SENTINEL, "pair {k} wrote");
            assert_eq!(buf[k].to_bits(), cond[k].to_bits(), "pair {k}");
        }
    }
    run_both(&d, &cond_stream("add.s", 0, 0, 0), "c.bin");
    assert!(u32s(&d.read("c.bin")).iter().all(|&x| x == SENTINEL));
    let even: Vec<f32> = (0..512)
        .map(|k| if k % 2 == 0 { 0.25 } else { 0.75 })
        .collect();
    d.write("cond.bin", f32_bytes(&even));
    run_both(&d, &cond_stream("add.s", 3, 0, 0.25f32.to_bits()), "c.bin");
    let c = u32s(&d.read("c.bin"));
    for k in 0..512 {
        let want = if k % 2 == 0 {
            (a[k] + b[k]).to_bits()
        } else {
            SENTINEL
        };
        assert_eq!(c[k], want, "pair {k}");
    }
}
