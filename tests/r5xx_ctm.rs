//! CTM command streams through `wavejit ctm`, end to end: the programs of
//! `tests/programs/r5xx` (written in the assembler syntax of `wavejit_r5xx::print`) with
//! their streams, inputs generated here, and outputs checked against values computed on the
//! host from the program's formula, on both engines and two thread counts, bit for bit.
//!
//! Host arithmetic follows the ALU's documented model (`wavejit_r5xx::lift` float rules,
//! from seed 003 §3.6): a MAD `a * b + c` is computed in f64 and rounded once to f32, with
//! denormals flushed. Inputs are chosen so that the model, not an accident, decides the
//! values: matrix entries are small integers (every sum exact), Mandelbrot's escape counts
//! depend on the rounding of each step, which the host reproduces step for step.

mod cli_util;
mod r5xx_util;

use cli_util::{succeeds, Rng};
use r5xx_util::{binary, f32_bytes, f32s, u32s, Scratch};

/// The documented MAD: f64 product and sum, one rounding to f32, denormals flushed.
fn mad(a: f32, b: f32, c: f32) -> f32 {
    let ftz = |x: f32| {
        if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    ftz((ftz(a) as f64 * ftz(b) as f64 + ftz(c) as f64) as f32)
}

/// Runs `wavejit ctm STREAM` under both engines on 1 and 3 threads; each run's file `out`
/// must be the same bytes; those bytes.
fn run_everywhere(d: &Scratch, stream: &str, out: &str, extra: &[&str]) -> Vec<u8> {
    let mut first: Option<Vec<u8>> = None;
    for (engine, threads) in [("interp", "1"), ("jit", "1"), ("jit", "3"), ("interp", "3")] {
        let _ = std::fs::remove_file(d.dir().join(out));
        let mut args = vec!["ctm", stream, "--engine", engine, "--threads", threads];
        args.extend(extra);
        assert_eq!(succeeds(&args), "", "ctm prints nothing");
        let bytes = d.read(out);
        match &first {
            None => first = Some(bytes),
            Some(f) => assert!(*f == bytes, "{engine} on {threads} threads differs"),
        }
    }
    first.unwrap()
}

/// Bits of two float lists, compared one by one with the element named on failure.
fn assert_bits(got: &[f32], want: &[f32], width: usize) {
    assert_eq!(got.len(), want.len());
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g.to_bits(),
            w.to_bits(),
            "element ({}, {}): got {g}, want {w}",
            k % width,
            k / width
        );
    }
}

#[test]
fn elementwise_add_in_text_and_binary_forms() {
    let d = Scratch::new("add");
    let stream = d.copy("add.ctm");
    d.copy("add.s");
    let mut rng = Rng::new(1);
    let a: Vec<f32> = (0..512).map(|_| rng.f32(-100.0, 100.0)).collect();
    let b: Vec<f32> = (0..512).map(|_| rng.f32(-100.0, 100.0)).collect();
    d.write("a.bin", f32_bytes(&a));
    d.write("b.bin", f32_bytes(&b));
    let want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| mad(*x, 1.0, *y)).collect();
    let c = f32s(&run_everywhere(&d, &stream, "c.bin", &[]));
    assert_bits(&c, &want, 64);
    // The same commands as a binary stream, the directives as options (paths relative to
    // the working directory).
    let text = String::from_utf8(d.read("add.ctm")).unwrap();
    let cb = d.write("add.cb", binary(&text));
    let (prog, a, b, out) = (
        d.path("add.s"),
        d.path("a.bin"),
        d.path("b.bin"),
        d.path("c2.bin"),
    );
    let (prog, a, b) = (
        format!("0:{prog}"),
        format!("0x10000:{a}"),
        format!("0x20000:{b}"),
    );
    let save = format!("0x30000:2048:{out}");
    let c2 = run_everywhere(
        &d,
        &cb,
        "c2.bin",
        &[
            "--program",
            &prog,
            "--load",
            &a,
            "--load",
            &b,
            "--save",
            &save,
        ],
    );
    assert_bits(&f32s(&c2), &want, 64);
}

#[test]
fn matrix_multiply_loops_over_two_inputs() {
    let d = Scratch::new("matmul");
    let stream = d.copy("matmul.ctm");
    d.copy("matmul.s");
    let mut rng = Rng::new(2);
    let n = 16;
    let a: Vec<f32> = (0..n * n).map(|_| rng.i32_in(-8, 9) as f32).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.i32_in(-8, 9) as f32).collect();
    d.write("a.bin", f32_bytes(&a));
    d.write("b.bin", f32_bytes(&b));
    // Integer constant 0: 16 iterations (KR), aL 0 (KG), step 0 (KB).
    d.write("consti.bin", 16u32.to_le_bytes());
    // C[row j][column i] = sum over k of A[j][k] B[k][i]; every product and sum is a small
    // integer, exact in f32.
    let want: Vec<f32> = (0..n * n)
        .map(|e| {
            let (i, j) = (e % n, e / n);
            (0..n).map(|k| a[j * n + k] * b[k * n + i]).sum()
        })
        .collect();
    assert_bits(&f32s(&run_everywhere(&d, &stream, "c.bin", &[])), &want, n);
}

/// The host's escape count of pixel (i, j), step for step as mandelbrot.s computes it.
fn escape(i: u32, j: u32, c0: [f32; 4], limit: u32) -> f32 {
    let [x0, y0, dx, dy] = c0;
    let (cx, cy) = (mad(i as f32, dx, x0), mad(j as f32, dy, y0));
    let (mut zx, mut zy, mut n) = (0.0f32, 0.0f32, 0.0f32);
    for _ in 0..limit {
        let t = mad(-zy, zy, cx);
        zy = mad(zx + zx, zy, cy);
        zx = mad(zx, zx, t);
        n = mad(n, 1.0, 1.0);
        let q = mad(-zy, zy, 4.0);
        if mad(-zx, zx, q) < 0.0 {
            break;
        }
    }
    n
}

#[test]
fn mandelbrot_escape_times_break_out_of_the_loop() {
    let d = Scratch::new("mandelbrot");
    let stream = d.copy("mandelbrot.ctm");
    d.copy("mandelbrot.s");
    let c0 = [-2.0f32, -1.125, 2.5 / 128.0, 2.25 / 96.0];
    let limit = 64u32;
    d.write("constf.bin", f32_bytes(&c0));
    d.write("consti.bin", limit.to_le_bytes());
    let want: Vec<f32> = (0..128 * 96)
        .map(|e| escape(e % 128, e / 128, c0, limit))
        .collect();
    // Some pixels escape at once, some never: the loop runs and breaks.
    assert!(want.contains(&1.0) && want.contains(&(limit as f32)));
    assert!(want.iter().any(|&n| n > 5.0 && n < limit as f32));
    let counts = f32s(&run_everywhere(&d, &stream, "counts.bin", &[]));
    assert_bits(&counts, &want, 128);
}

/// A stream running `prog` over one input and one output of `w` x `h` FLOAT32 elements
/// with `fmt` the output's format word.
fn one_in_one_out(prog: &str, w: u32, h: u32, out_fmt: u32) -> String {
    format!(
        "memory 0x100000\nprogram 0x0 {prog}\nload 0x10000 a.bin\nsave 0x40000 {} c.bin\n\
         wait_for_idle 0\nset_inst_fmt 0x0 0x0\nset_inp_fmt 0 0x10000 {:#x} {h}\n\
         set_out_fmt 0 0x40000 {out_fmt:#x} {h}\nset_domain 0 0 {} {}\nstart_program 0\n\
         wait_for_idle 0\nflush_out_cache 0\n",
        w * h * [2, 4, 4, 8, 16][(out_fmt >> 24) as usize],
        0x0200_0000 | w,
        w - 1,
        h - 1
    )
}

#[test]
fn a_subroutine_call_returns_to_the_caller() {
    let d = Scratch::new("call");
    d.copy("call.s");
    let s = d.write("call.ctm", one_in_one_out("call.s", 32, 8, 0x0200_0020));
    let mut rng = Rng::new(3);
    let a: Vec<f32> = (0..256)
        .map(|_| rng.i32_in(-400, 400) as f32 / 4.0)
        .collect();
    d.write("a.bin", f32_bytes(&a));
    let want: Vec<f32> = a.iter().map(|&x| mad(mad(x, 2.0, 0.0), 1.0, 1.0)).collect();
    assert_bits(&f32s(&run_everywhere(&d, &s, "c.bin", &[])), &want, 32);
}

#[test]
fn derivatives_read_the_quads_neighbours() {
    let d = Scratch::new("deriv");
    d.copy("deriv.s");
    // Output FLOAT32_2 (format 3), pitch 32.
    let s = d.write("deriv.ctm", one_in_one_out("deriv.s", 32, 8, 0x0300_0020));
    let mut rng = Rng::new(4);
    let v: Vec<f32> = (0..256).map(|_| rng.f32(-10.0, 10.0)).collect();
    d.write("a.bin", f32_bytes(&v));
    let at = |i: usize, j: usize| v[j * 32 + i];
    let mut want = Vec::new();
    for j in 0..8 {
        for i in 0..32 {
            let (l, t) = (i & !1, j & !1);
            want.push(mad(-at(l, t), 1.0, at(l | 1, t)));
            want.push(mad(-at(l, t), 1.0, at(l, t | 1)));
        }
    }
    assert_bits(&f32s(&run_everywhere(&d, &s, "c.bin", &[])), &want, 64);
}

#[test]
fn performance_counters_count_commands_and_instructions_alike_everywhere() {
    let d = Scratch::new("perf");
    d.copy("add.s");
    d.write("a.bin", vec![0u8; 2048]);
    d.write("b.bin", vec![0u8; 2048]);
    let text = String::from_utf8(std::fs::read("tests/programs/r5xx/add.ctm").unwrap()).unwrap();
    let text = text.replace(
        "wait_for_idle 0\nset_inst_fmt",
        "init_perf_counters 1\nstart_perf_counters 0\nwait_for_idle 0\nset_inst_fmt",
    ) + "stop_perf_counters 0\nwait_for_idle 0\nread_perf_counters 0x40000\n"
        + "save 0x40000 8 perf.bin\n";
    let s = d.write("perf.ctm", text);
    let perf = u32s(&run_everywhere(&d, &s, "perf.bin", &[]));
    // Commands while running: from wait_for_idle to stop_perf_counters, 13 of them (the
    // model charges each command one clock, start_perf_counters resetting after its own).
    // Active: the guest instructions of the waves: 8 tiles of 16x4 (64x8 pairs in tiles of
    // 16x4: 4 x 2 waves) of 3 slots each.
    let active = 8 * 3;
    assert_eq!(perf, vec![13 + active, active]);
}
