//! The IL text fixtures of `tests/programs/amdil/form_*.il`: one program per group of forms
//! (if, loops, switch, calls, macros, LDS, atomics, doubles, 64-bit integers), each run by the
//! real `wavejit run` under the OpenCL convention of `.il` files (DESIGN.md) on both engines,
//! over several work-groups, and checked against a host implementation written here from the
//! reference in the fixture's header comment. Inputs are seeded pseudo-random words with the
//! edge values each fixture cares about mixed in.

mod cli_util;

use cli_util::{bytes_of, succeeds, temp_path, words_of};
use std::path::{Path, PathBuf};

const ENGINES: [&str; 2] = ["jit", "interp"];

/// A deterministic xorshift stream of words.
struct Words(u64);

impl Words {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// `n` words: the `edges` first, then seeded values below `limit`.
fn inputs(n: usize, seed: u64, limit: u32, edges: &[u32]) -> Vec<u32> {
    let mut w = Words(seed);
    let mut v: Vec<u32> = edges.to_vec();
    while v.len() < n {
        v.push(w.next() % limit);
    }
    v.truncate(n);
    v
}

/// A buffer argument: its spec and, when it is saved, where.
enum Arg {
    /// A buffer holding these words, saved after the run.
    Buf(Vec<u32>),
    /// A buffer of this many zero bytes, saved after the run.
    Zero(usize),
}

/// Runs fixture `name` over `global` items in groups of `local` with `args` on `engine` and
/// returns every argument's words after the run.
fn run(name: &str, engine: &str, global: u32, local: u32, args: &[Arg]) -> Vec<Vec<u32>> {
    let file = format!("tests/programs/amdil/{name}.il");
    let (global, local) = (global.to_string(), local.to_string());
    let mut cmd: Vec<String> = [
        "run", &file, "--kernel", name, "--global", &global, "--local", &local, "--engine", engine,
    ]
    .map(String::from)
    .to_vec();
    let mut saved: Vec<PathBuf> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let spec = match a {
            Arg::Buf(words) => {
                let p = temp_path(&format!("{name}_in{i}.bin"));
                std::fs::write(&p, bytes_of(words)).unwrap();
                format!("buf:{}", p.display())
            }
            Arg::Zero(n) => format!("zero:{n}"),
        };
        let out = temp_path(&format!("{name}_out{i}.bin"));
        cmd.extend(["--arg".into(), spec, "--save".into()]);
        cmd.push(format!("{i}:{}", out.display()));
        saved.push(out);
    }
    let refs: Vec<&str> = cmd.iter().map(String::as_str).collect();
    succeeds(&refs);
    saved.iter().map(|p| words_of(&read(p))).collect()
}

/// Runs fixture `name` on both engines and checks its first argument's words.
fn outputs_are(name: &str, global: u32, local: u32, args: &[Arg], want: &[u32]) {
    for engine in ENGINES {
        let out = run(name, engine, global, local, args);
        assert_eq!(out[0], want, "{engine}");
    }
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn if_forms() {
    let x = inputs(256, 1, 40, &[0, 1, 2, 3, 6, 7, 8, 9, 10, 11]);
    let want: Vec<u32> = x
        .iter()
        .map(|&x| match (x & 1 != 0, x & 2 != 0) {
            (true, false) => 10,
            (true, true) => 20,
            (false, _) if (x as f32) < 8.0 => 30,
            (false, _) => 40,
        })
        .collect();
    outputs_are(
        "form_if",
        256,
        64,
        &[Arg::Zero(1024), Arg::Buf(x.clone())],
        &want,
    );
}

fn loop_reference(x: u32) -> [u32; 2] {
    let (mut acc, mut i) = (0u32, 0u32);
    loop {
        if i >= x {
            break;
        }
        i += 1;
        if i & 3 == 0 {
            continue;
        }
        let mut j = 0;
        loop {
            if j >= i {
                break;
            }
            j += 1;
            acc = acc.wrapping_add(j);
            if (j & 1) as f32 != 0.0 {
                continue;
            }
            acc = acc.wrapping_add(100);
        }
        if acc as f32 > 5000.0 {
            break;
        }
    }
    let mut k = 0;
    loop {
        k += 1;
        if k >= 3 {
            break;
        }
        if k != 1 {
            continue;
        }
        acc = acc.wrapping_add(7);
    }
    [acc, i]
}

#[test]
fn loop_forms() {
    let x = inputs(256, 2, 60, &[0, 1, 2, 3, 4, 5, 59]);
    let want: Vec<u32> = x.iter().flat_map(|&x| loop_reference(x)).collect();
    outputs_are(
        "form_loop",
        256,
        64,
        &[Arg::Zero(2048), Arg::Buf(x.clone())],
        &want,
    );
}

#[test]
fn switch_forms() {
    let x = inputs(256, 3, 1000, &[0, 1, 2, 3, 4, 5, 6, 7, 13, u32::MAX]);
    let want: Vec<u32> = x
        .iter()
        .map(|&x| {
            let r = match x % 7 {
                0 => 10,
                1 => 31,
                2 => 20,
                6 => 1,
                _ => 100,
            };
            r + 2000
        })
        .collect();
    outputs_are(
        "form_switch",
        256,
        64,
        &[Arg::Zero(1024), Arg::Buf(x.clone())],
        &want,
    );
}

#[test]
fn call_forms() {
    let x = inputs(256, 4, 30, &[0, 1, 2, 9, 10, 11, 0xFFFF_FFFF]);
    let want: Vec<u32> = x
        .iter()
        .map(|&x| {
            let mut v = x.wrapping_mul(x).wrapping_add(1);
            if x & 1 == 1 && (x as i32) < 10 {
                v = v.wrapping_add(1000);
            }
            if x & 1 == 0 {
                v = v.wrapping_add(2);
            }
            v
        })
        .collect();
    outputs_are(
        "form_call",
        256,
        64,
        &[Arg::Zero(1024), Arg::Buf(x.clone())],
        &want,
    );
}

#[test]
fn macro_forms() {
    let x = inputs(256, 5, u32::MAX, &[0, 1, 0xFFFF_FFFF, 0x8000_0000]);
    let want: Vec<u32> = x
        .iter()
        .flat_map(|&x| {
            let sq = x.wrapping_mul(x);
            [sq.wrapping_add(7).wrapping_add(sq).wrapping_add(x), x << 3]
        })
        .collect();
    outputs_are(
        "form_macro",
        256,
        64,
        &[Arg::Zero(2048), Arg::Buf(x.clone())],
        &want,
    );
}

#[test]
fn lds_forms() {
    let (n, l) = (512usize, 128usize);
    let x = inputs(
        n,
        6,
        u32::MAX,
        &[0x80, 0x7F, 0xFF, 0x8000, 0x7FFF, 0xFFFF_FF80],
    );
    let mut want = Vec::new();
    for i in 0..n {
        let (g, lid) = (i / l, i % l);
        let y = x[g * l + (l - 1 - lid)];
        want.extend([
            x[g * l + (lid + 1) % l],
            y & 0xFF,
            y as u8 as i8 as i32 as u32,
            y as u16 as i16 as i32 as u32,
            y & 0xFFFF,
        ]);
    }
    outputs_are(
        "form_lds",
        n as u32,
        l as u32,
        &[Arg::Zero(20 * n), Arg::Buf(x.clone())],
        &want,
    );
}

/// Whether `v` holds each of `start .. start + v.len()` once.
fn is_permutation(v: &[u32], start: u32) -> bool {
    let mut s = v.to_vec();
    s.sort_unstable();
    s.iter().enumerate().all(|(i, &t)| t == start + i as u32)
}

#[test]
fn atomic_forms() {
    let (n, l) = (512usize, 128usize);
    let x = inputs(n, 7, u32::MAX, &[0x8000_0000, 0x7FFF_FFFF, 0xFFFF_FFFF, 0]);
    let state0 = [5u32, 0x8000_0000];
    let mut bins = vec![0u32; 16];
    for &v in &x {
        bins[(v & 15) as usize] += 1;
    }
    let max = x
        .iter()
        .map(|&v| v as i32)
        .max()
        .unwrap()
        .max(state0[1] as i32);
    for engine in ENGINES {
        let out = run(
            "form_atomic",
            engine,
            n as u32,
            l as u32,
            &[
                Arg::Zero(64),
                Arg::Buf(state0.to_vec()),
                Arg::Zero(4 * n),
                Arg::Zero(4 * n),
                Arg::Zero(8 * (n / l)),
                Arg::Buf(x.clone()),
            ],
        );
        assert_eq!(out[0], bins, "{engine}: bins");
        assert_eq!(
            out[1],
            [state0[0] + n as u32, max as u32],
            "{engine}: state"
        );
        assert!(
            is_permutation(&out[2], state0[0]),
            "{engine}: tickets {:?}",
            out[2]
        );
        for g in 0..n / l {
            let tickets = &out[3][g * l..(g + 1) * l];
            assert!(
                is_permutation(tickets, 0),
                "{engine}: group {g} tickets {tickets:?}"
            );
            let gmax = x[g * l..(g + 1) * l].iter().copied().max().unwrap();
            assert_eq!(
                out[4][2 * g..2 * g + 2],
                [l as u32, gmax],
                "{engine}: group {g}"
            );
        }
    }
}

/// `n` seeded doubles in [-1000, 1000) after the `edges`.
fn doubles(n: usize, seed: u64, edges: &[f64]) -> Vec<f64> {
    let mut w = Words(seed);
    let mut v = edges.to_vec();
    while v.len() < n {
        let bits = (u64::from(w.next()) << 32) | u64::from(w.next());
        v.push((bits >> 11) as f64 / (1u64 << 53) as f64 * 2000.0 - 1000.0);
    }
    v.truncate(n);
    v
}

fn words_of_u64(v: &[u64]) -> Vec<u32> {
    v.iter()
        .flat_map(|&d| [d as u32, (d >> 32) as u32])
        .collect()
}

/// The f32 a float result is after flushing a denormal to zero (sign kept).
fn flushed(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `got` equals `want`, or both are NaN.
fn same_f64(got: u64, want: f64) -> bool {
    got == want.to_bits() || (want.is_nan() && f64::from_bits(got).is_nan())
}

#[test]
fn double_forms() {
    let big = 1e308;
    let pairs: [(f64, f64); 13] = [
        (0.0, -0.0),
        (-0.0, -0.0),
        (f64::INFINITY, f64::NEG_INFINITY),
        (f64::NAN, 1.0),
        (1e-310, 1e-310),
        (big, big),
        (1.0, 0.0),
        (-1.0, 3.0),
        (2.5e9, 1.0),
        (-3e9, 0.0),
        (1e-40, 0.0),
        (0.1, 0.2),
        (1.0 + f64::EPSILON, 1.0 - f64::EPSILON / 2.0),
    ];
    let n = 256;
    let a = doubles(n, 8, &pairs.map(|p| p.0));
    let b = doubles(n, 9, &pairs.map(|p| p.1));
    let bits = |v: &[f64]| words_of_u64(&v.iter().map(|d| d.to_bits()).collect::<Vec<_>>());
    for engine in ENGINES {
        let out = run(
            "form_double",
            engine,
            n as u32,
            64,
            &[Arg::Zero(64 * n), Arg::Buf(bits(&a)), Arg::Buf(bits(&b))],
        );
        for (g, (&a, &b)) in a.iter().zip(&b).enumerate() {
            let o = &out[0][16 * g..16 * g + 16];
            let d = |i: usize| u64::from(o[2 * i]) | (u64::from(o[2 * i + 1]) << 32);
            let f = flushed((a + b) as f32);
            let want = [
                (0, a + b),
                (1, a * b),
                (2, a.mul_add(b, -a)),
                (3, a / b),
                (4, a.abs().sqrt()),
                (6, f64::from(g as u32)),
                (7, f64::from(f)),
            ];
            for (i, w) in want {
                assert!(
                    same_f64(d(i), w),
                    "{engine}: item {g} ({a:e}, {b:e}) double {i}: {:#x}, want {w:e}",
                    d(i)
                );
            }
            let f_ok = o[10] == f.to_bits() || (f.is_nan() && f32::from_bits(o[10]).is_nan());
            assert!(f_ok, "{engine}: item {g}: d2f {:#x}, want {f:e}", o[10]);
            assert_eq!(o[11], a as i32 as u32, "{engine}: item {g}: dtoi of {a:e}");
        }
    }
}

#[test]
fn int64_forms() {
    let edges: [(u64, u64); 8] = [
        (0, 0),
        (u64::MAX, 1),
        (1 << 63, u64::MAX),
        (0x1234_5678_9ABC_DEF0, 64),
        (5, 63),
        (0x8000_0000, 0x1_0000_0000),
        (u64::MAX, u64::MAX),
        (7, 0x40),
    ];
    let n = 256;
    let mut w = Words(10);
    let mut next = || (u64::from(w.next()) << 32) | u64::from(w.next());
    let mut a: Vec<u64> = edges.iter().map(|e| e.0).collect();
    let mut b: Vec<u64> = edges.iter().map(|e| e.1).collect();
    while a.len() < n {
        a.push(next());
        b.push(next() >> (next() % 64));
    }
    let mask = |c: bool| if c { u64::MAX } else { 0 };
    let want: Vec<u32> = a
        .iter()
        .zip(&b)
        .flat_map(|(&a, &b)| {
            let s = (b & 63) as u32;
            words_of_u64(&[
                a.wrapping_add(b),
                a.wrapping_mul(b),
                a.checked_div(b).unwrap_or(u64::MAX),
                a.checked_rem(b).unwrap_or(u64::MAX),
                a << s,
                ((a as i64) >> s) as u64,
                a >> s,
                a.min(b),
                mask((a as i64) < (b as i64)),
                mask(a >= b),
            ])
        })
        .collect();
    for engine in ENGINES {
        let out = run(
            "form_int64",
            engine,
            n as u32,
            64,
            &[
                Arg::Zero(80 * n),
                Arg::Buf(words_of_u64(&a)),
                Arg::Buf(words_of_u64(&b)),
            ],
        );
        assert_eq!(out[0], want, "{engine}");
    }
}
