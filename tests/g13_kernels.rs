//! Apple G13 kernels in applegpu syntax (tests/programs/g13/*.s, shaped as Mesa compiles
//! compute shaders) run end to end through `wavejit run --target g13` under both engines, on
//! seeded inputs, against outputs computed here on the host from the documented G13 rules
//! (applegpu.py's per-thread semantics; notes/g13_sources.md §5 for floats), never from a run:
//! every saved buffer must match bit for bit.
//!
//! The float models:
//! - fp32 (`fadd32`, `fmadd32`): one rounding to nearest even (`f32::mul_add`, with
//!   `fadd(a, b) = fma(a, 1, b)`), denormal sources read as zeros of their sign, denormal
//!   results flushed to zeros of their sign, any NaN the default NaN 0x7fc00000. The hardware
//!   detects tininess before rounding; the model flushes after it, so no input here has an
//!   exact result just below 2^-126 that rounds up to it.
//! - fp16 (`fadd16`, `fmul16`, `fmadd16`): the exact result of `a * b + c` (integers
//!   scaled by powers of two) rounded once to nearest even, denormals kept, any NaN 0x7e00,
//!   `fmul(a, b) = fma(a, b, +0)`; `.sat` clamps the exact result to [+0, 1] first (NaN and
//!   negatives, -0 too, give +0).

mod cli_util;

use cli_util::{bytes_of, succeeds, temp_path, words_of, Rng, TempFile};

const PROGRAMS: &str = "tests/programs/g13";

/// A kernel argument.
enum Arg {
    Buf(Vec<u8>),
    Zero(usize),
    U32(u32),
    /// Passed as its bits (`u32:`), which no decimal text could round.
    F32(f32),
}

fn f32_bytes(xs: &[f32]) -> Vec<u8> {
    bytes_of(&xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>())
}

/// One launch of a kernel of tests/programs/g13.
struct Launch<'a> {
    kernel: &'a str,
    global: &'a str,
    local: &'a str,
    args: &'a [Arg],
    /// Argument indices of the buffers to read back.
    save: &'a [usize],
}

impl Launch<'_> {
    /// Runs the launch under `engine` (with `extra` options) and returns the saved buffers.
    fn run(&self, engine: &str, extra: &[&str]) -> Vec<Vec<u8>> {
        let file = format!("{PROGRAMS}/{}.s", self.kernel);
        let inputs: Vec<Option<TempFile>> = self
            .args
            .iter()
            .map(|a| match a {
                Arg::Buf(b) => Some(TempFile::new(&format!("{}-in.bin", self.kernel), b)),
                _ => None,
            })
            .collect();
        let specs: Vec<String> = self
            .args
            .iter()
            .zip(&inputs)
            .map(|(a, f)| match a {
                Arg::Buf(_) => format!("buf:{}", &**f.as_ref().unwrap()),
                Arg::Zero(n) => format!("zero:{n}"),
                Arg::U32(v) => format!("u32:{v}"),
                Arg::F32(v) => format!("u32:{}", v.to_bits()),
            })
            .collect();
        let outs: Vec<std::path::PathBuf> = self
            .save
            .iter()
            .map(|i| temp_path(&format!("{}-out{i}.bin", self.kernel)))
            .collect();
        let saves: Vec<String> = self
            .save
            .iter()
            .zip(&outs)
            .map(|(i, p)| format!("{i}:{}", p.display()))
            .collect();
        let mut cmd = vec![
            "run",
            &file,
            "--target",
            "g13",
            "--kernel",
            self.kernel,
            "--global",
            self.global,
            "--local",
            self.local,
            "--engine",
            engine,
        ];
        for s in &specs {
            cmd.extend(["--arg", s]);
        }
        for s in &saves {
            cmd.extend(["--save", s]);
        }
        cmd.extend(extra);
        succeeds(&cmd);
        outs.iter()
            .map(|p| {
                let b = std::fs::read(p).unwrap();
                std::fs::remove_file(p).unwrap();
                b
            })
            .collect()
    }

    /// Runs under both engines and checks each saved buffer with `check(engine, buffers)`.
    fn check_both(&self, extra: &[&str], check: impl Fn(&str, &[Vec<u8>])) {
        for engine in ["interp", "jit"] {
            check(engine, &self.run(engine, extra));
        }
    }
}

/// Asserts two word vectors equal, naming the first differing index.
fn assert_words(what: &str, got: &[u32], want: &[u32]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
        panic!(
            "{what}: word {i} is {:#010x}, expected {:#010x}",
            got[i], want[i]
        );
    }
}

// ---- fp32 -----------------------------------------------------------------------------

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// `fmadd32 a, b, c` as G13 computes it, as bits.
fn fmadd32(a: f32, b: f32, c: f32) -> u32 {
    let r = flush(a).mul_add(flush(b), flush(c));
    if r.is_nan() {
        0x7fc0_0000
    } else {
        flush(r).to_bits()
    }
}

fn fadd32(a: f32, b: f32) -> u32 {
    fmadd32(a, 1.0, b)
}

// ---- fp16 -----------------------------------------------------------------------------

/// An exact value: NaN, an infinity, or (-1)^neg × mant × 2^exp (mant 0 is a signed zero).
#[derive(Clone, Copy)]
enum Exact {
    Nan,
    Inf(bool),
    Fin { neg: bool, mant: u128, exp: i32 },
}

impl Exact {
    fn of_f16(h: u16) -> Exact {
        let neg = h >> 15 != 0;
        let frac = u128::from(h & 0x3ff);
        match (h >> 10) & 0x1f {
            31 if frac != 0 => Exact::Nan,
            31 => Exact::Inf(neg),
            0 => Exact::Fin {
                neg,
                mant: frac,
                exp: -24,
            },
            e => Exact::Fin {
                neg,
                mant: frac | 0x400,
                exp: i32::from(e) - 25,
            },
        }
    }

    const ONE: Exact = Exact::Fin {
        neg: false,
        mant: 1,
        exp: 0,
    };
    const ZERO: Exact = Exact::Fin {
        neg: false,
        mant: 0,
        exp: 0,
    };

    fn abs(self) -> Exact {
        match self {
            Exact::Inf(_) => Exact::Inf(false),
            Exact::Fin { mant, exp, .. } => Exact::Fin {
                neg: false,
                mant,
                exp,
            },
            x => x,
        }
    }

    fn neg(self) -> Exact {
        match self {
            Exact::Inf(n) => Exact::Inf(!n),
            Exact::Fin { neg, mant, exp } => Exact::Fin {
                neg: !neg,
                mant,
                exp,
            },
            x => x,
        }
    }

    /// `a * b + c` exactly, with IEEE's special cases and zero signs (round to nearest).
    fn fma(a: Exact, b: Exact, c: Exact) -> Exact {
        use Exact::*;
        let is_zero = |x: Exact| matches!(x, Fin { mant: 0, .. });
        let p = match (a, b) {
            (Nan, _) | (_, Nan) => return Nan,
            (Inf(_), y) | (y, Inf(_)) if is_zero(y) => return Nan,
            (Inf(x), Inf(y)) => Inf(x != y),
            (Inf(x), Fin { neg, .. }) | (Fin { neg, .. }, Inf(x)) => Inf(x != neg),
            (
                Fin {
                    neg: n1,
                    mant: m1,
                    exp: e1,
                },
                Fin {
                    neg: n2,
                    mant: m2,
                    exp: e2,
                },
            ) => Fin {
                neg: n1 != n2,
                mant: m1 * m2,
                exp: e1 + e2,
            },
        };
        match (p, c) {
            (_, Nan) => Nan,
            (Inf(x), Inf(y)) if x != y => Nan,
            (Inf(x), _) | (_, Inf(x)) => Inf(x),
            (
                Fin {
                    neg: pn,
                    mant: pm,
                    exp: pe,
                },
                Fin {
                    neg: cn,
                    mant: cm,
                    exp: ce,
                },
            ) => {
                let e = pe.min(ce);
                let signed = |neg: bool, m: u128, x: i32| {
                    let v = (m << (x - e)) as i128;
                    if neg {
                        -v
                    } else {
                        v
                    }
                };
                let s = signed(pn, pm, pe) + signed(cn, cm, ce);
                let neg = if s == 0 {
                    pm == 0 && cm == 0 && pn && cn
                } else {
                    s < 0
                };
                Fin {
                    neg,
                    mant: s.unsigned_abs(),
                    exp: e,
                }
            }
            (Nan, _) => Nan,
        }
    }

    /// Rounded to f16, nearest even, denormals kept, NaN as 0x7e00.
    fn to_f16(self) -> u16 {
        let (neg, mant, exp) = match self {
            Exact::Nan => return 0x7e00,
            Exact::Inf(n) => return u16::from(n) << 15 | 0x7c00,
            Exact::Fin { neg, mant, exp } => (neg, mant, exp),
        };
        let sign = u16::from(neg) << 15;
        if mant == 0 {
            return sign;
        }
        let top = 127 - mant.leading_zeros() as i32 + exp;
        // The weight of the last kept bit: 11 significant bits, none below 2^-24.
        let q = (top - 10).max(-24);
        let m = if exp >= q {
            mant << (exp - q)
        } else {
            let d = (q - exp) as u32;
            let (kept, rest, half) = (mant >> d, mant & ((1 << d) - 1), 1u128 << (d - 1));
            kept + u128::from(rest > half || (rest == half && kept & 1 == 1))
        };
        let (m, q) = if m == 1 << 11 {
            (m >> 1, q + 1)
        } else {
            (m, q)
        };
        if m < 0x400 {
            return sign | m as u16;
        }
        let field = q + 25;
        if field >= 31 {
            return sign | 0x7c00;
        }
        sign | (field as u16) << 10 | (m as u16 & 0x3ff)
    }

    /// Clamped to [+0, 1] (`.sat`) and rounded to f16.
    fn saturated_f16(self) -> u16 {
        match self {
            Exact::Nan | Exact::Inf(true) | Exact::Fin { neg: true, .. } => 0,
            Exact::Inf(false) => 0x3c00,
            Exact::Fin { mant, exp, .. } => {
                let above_one = if exp >= 0 {
                    mant << exp > 1
                } else {
                    -exp < 127 && mant > 1 << -exp
                };
                if above_one {
                    0x3c00
                } else {
                    self.to_f16()
                }
            }
        }
    }
}

// ---- the kernels ----------------------------------------------------------------------

#[test]
fn vadd_adds_with_one_rounding_and_flushes_denormals() {
    let n = 1000;
    let mut rng = Rng::new(1);
    let mut a: Vec<f32> = (0..n).map(|_| rng.f32(-100.0, 100.0)).collect();
    let mut b: Vec<f32> = (0..n).map(|_| rng.f32(-1.0, 1.0)).collect();
    // A denormal source reads as a zero; a denormal sum is flushed (to +0 and to -0).
    a[3] = f32::from_bits(0x0000_1234);
    (a[4], b[4]) = (1.5 * f32::MIN_POSITIVE, -f32::MIN_POSITIVE);
    (a[5], b[5]) = (-1.5 * f32::MIN_POSITIVE, f32::MIN_POSITIVE);
    (a[6], b[6]) = (-0.0, -0.0);
    (a[7], b[7]) = (f32::INFINITY, f32::NEG_INFINITY);
    let want: Vec<u32> = (0..n).map(|i| fadd32(a[i], b[i])).collect();
    assert_eq!(want[3], b[3].to_bits());
    assert_eq!((want[4], want[5], want[6]), (0, 0x8000_0000, 0x8000_0000));
    assert_eq!(want[7], 0x7fc0_0000);
    // The grid of the second launch is wider than the buffers: the kernel's `i < n` keeps it
    // inside them.
    for (global, local, count) in [
        ("1000", "64", 1000),
        ("1024", "256", 1000),
        ("37", "32", 37),
    ] {
        let args = [
            Arg::Buf(f32_bytes(&a)),
            Arg::Buf(f32_bytes(&b)),
            Arg::Zero(4 * n),
            Arg::U32(count as u32),
        ];
        let launch = Launch {
            kernel: "vadd",
            global,
            local,
            args: &args,
            save: &[2],
        };
        launch.check_both(&[], |engine, out| {
            let mut w = want.clone();
            w[count..].fill(0);
            assert_words(
                &format!("vadd {global}/{local} {engine}"),
                &words_of(&out[0]),
                &w,
            );
        });
    }
}

#[test]
fn saxpy_is_one_fused_multiply_add() {
    let n = 777;
    let mut rng = Rng::new(2);
    let x: Vec<f32> = (0..n).map(|_| rng.f32(-8.0, 8.0)).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.f32(-8.0, 8.0)).collect();
    let (mut x, mut y) = (x, y);
    let a = 1.75f32;
    // Denormal source; an exactly denormal result (-2^-127), flushed to -0; inf - inf.
    x[10] = f32::from_bits(0x8000_0001);
    (x[11], y[11]) = (f32::from_bits(0x0100_0000), -f32::from_bits(0x0180_0000));
    (x[12], y[12]) = (f32::INFINITY, f32::NEG_INFINITY);
    x[13] = f32::from_bits(0x7fa0_0001);
    let want: Vec<u32> = (0..n).map(|i| fmadd32(a, x[i], y[i])).collect();
    assert_eq!(want[10], y[10].to_bits());
    assert_eq!(want[11], 0x8000_0000);
    assert_eq!((want[12], want[13]), (0x7fc0_0000, 0x7fc0_0000));
    // Fusion is visible: a rounded product would differ on some element.
    assert!((0..n).any(|i| (a * x[i] + y[i]).to_bits() != want[i]));
    let args = [
        Arg::Buf(f32_bytes(&x)),
        Arg::Buf(f32_bytes(&y)),
        Arg::Zero(4 * n),
        Arg::F32(a),
        Arg::U32(n as u32),
    ];
    for (global, local) in [("777", "128"), ("800", "32")] {
        let launch = Launch {
            kernel: "saxpy",
            global,
            local,
            args: &args,
            save: &[2],
        };
        launch.check_both(&[], |engine, out| {
            assert_words(
                &format!("saxpy {global} {engine}"),
                &words_of(&out[0]),
                &want,
            );
        });
    }
}

fn collatz_steps(mut n: u32) -> u32 {
    let mut steps = 0;
    while n != 1 {
        n = if n & 1 == 1 { 3 * n + 1 } else { n >> 1 };
        steps += 1;
    }
    steps
}

#[test]
fn collatz_loops_diverge_per_thread_and_break_through_r0l() {
    let mut rng = Rng::new(3);
    let mut start: Vec<u32> = (0..1000).map(|_| 1 + rng.below(9999)).collect();
    start[..4].copy_from_slice(&[1, 2, 27, 9]);
    for (global, local, count) in [(1000, "64", 1000), (100, "32", 90), (45, "64", 45)] {
        let want: Vec<u32> = (0..global)
            .map(|i| {
                if i < count {
                    collatz_steps(start[i])
                } else {
                    0
                }
            })
            .collect();
        assert_eq!(&want[..4], &[0, 1, 111, 19]);
        let args = [
            Arg::Buf(bytes_of(&start[..global])),
            Arg::Zero(4 * global),
            Arg::U32(count as u32),
        ];
        let g = global.to_string();
        let launch = Launch {
            kernel: "collatz",
            global: &g,
            local,
            args: &args,
            save: &[1],
        };
        launch.check_both(&[], |engine, out| {
            assert_words(&format!("collatz {g} {engine}"), &words_of(&out[0]), &want);
        });
    }
}

/// The 24 results of int_alu.s for one thread (applegpu.py's `exec_thread` rules).
fn int_alu(a: u32, b: u32) -> [u32; 24] {
    let (za, zb) = (i128::from(a), i128::from(b));
    let (sa, sb) = (i128::from(a as i32), i128::from(b as i32));
    let (a16s, b_hi) = (i128::from(a as u16 as i16), i128::from(b >> 16));
    let sat_s32 = |r: i128| r.clamp(i32::MIN.into(), i32::MAX.into()) as u32;
    let sat_u32 = |r: i128| r.clamp(0, u32::MAX.into()) as u32;
    let product = (sa * sb) as u64;
    let m12 = 0xfffu128;
    let bfi = (u128::from(a) & !(m12 << 7)) | ((u128::from(b) & m12) << 7);
    let bfeil = (a & !0x1f) | ((b >> 11) & 0x1f);
    let extr = ((u128::from(b) << 32 | u128::from(a)) >> 13) as u32;
    let shlhi = {
        let (sh, mask) = (37u32, 0x3ffu128);
        let m = mask << (sh - 32);
        (((u128::from(b) << sh) >> 32) & m) | (u128::from(a) & !m)
    };
    let shrhi = {
        let (sh, mask) = (9u32, 0xfffu128);
        let m = (mask << 32) >> sh.min(32);
        (((u128::from(b) << 32) >> sh) & m) | (u128::from(a) & !m)
    };
    let intl = (0..16).fold(0u32, |r, i| {
        r | ((a >> i) & 1) << (2 * i) | ((b >> (16 + i)) & 1) << (2 * i + 1)
    });
    [
        a.wrapping_add(b),
        (za + ((-zb) << 2)) as u32,
        sat_s32(sa + sb),
        sat_u32(za - zb),
        (za * zb + za) as u32,
        product as u32,
        (product >> 32) as u32,
        sat_s32(a16s * sb + b_hi),
        bfi as u32,
        bfeil,
        extr,
        (sa >> (b & 0x7f)) as u32,
        (!b) | a,
        a.count_ones(),
        b.reverse_bits(),
        if a == 0 {
            u32::MAX
        } else {
            31 - a.leading_zeros()
        },
        intl,
        shlhi as u32,
        shrhi as u32,
        if (a as i32) < (b as i32) { a } else { b },
        if (a as i32) < (b as i32) {
            b.wrapping_sub(a)
        } else {
            a.wrapping_sub(b)
        },
        (u128::from(a) << (b & 0x7f)) as u32,
        ((sa << 32) >> (b & 0x7f)) as u32,
        (za * zb + ((-(za >> 16)) << 3)) as u32,
    ]
}

#[test]
fn integer_alu_follows_applegpu_rules() {
    let mut rng = Rng::new(4);
    let edges = [
        0,
        1,
        2,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0x8000,
        0xffff,
        31,
        32,
        64,
    ];
    let n = 300;
    let pick = |rng: &mut Rng| {
        if rng.below(4) == 0 {
            edges[rng.below(edges.len() as u32) as usize]
        } else {
            rng.u32()
        }
    };
    let a: Vec<u32> = (0..n).map(|_| pick(&mut rng)).collect();
    let b: Vec<u32> = (0..n).map(|_| pick(&mut rng)).collect();
    let want: Vec<u32> = (0..n).flat_map(|i| int_alu(a[i], b[i])).collect();
    // Spot checks of the model against the rules' plain statements.
    assert_eq!(int_alu(0x7fff_ffff, 1)[2], 0x7fff_ffff, "signed saturation");
    assert_eq!(int_alu(1, 2)[3], 0, "unsigned saturation at 0");
    assert_eq!(int_alu(0, 5)[15], u32::MAX, "ffs of 0");
    assert_eq!(int_alu(0x8000_0000, 40)[11], u32::MAX, "asr past 32 bits");
    for (global, local, count) in [(300, "64", 300), (100, "32", 77)] {
        let args = [
            Arg::Buf(bytes_of(&a[..global])),
            Arg::Buf(bytes_of(&b[..global])),
            Arg::Zero(96 * global),
            Arg::U32(count as u32),
        ];
        let g = global.to_string();
        let launch = Launch {
            kernel: "int_alu",
            global: &g,
            local,
            args: &args,
            save: &[2],
        };
        launch.check_both(&[], |engine, out| {
            let got = words_of(&out[0]);
            for i in 0..global {
                let w: Vec<u32> = if i < count {
                    want[24 * i..24 * i + 24].to_vec()
                } else {
                    vec![0; 24]
                };
                let what = format!(
                    "int_alu {g} {engine} thread {i} (a {:#x} b {:#x})",
                    a[i], b[i]
                );
                assert_words(&what, &got[24 * i..24 * i + 24], &w);
            }
        });
    }
}

/// The sums of reduce.s for a grid of `global` threads in groups of 128, `n` inputs read.
fn reduce_sums(x: &[f32], global: usize, n: usize) -> Vec<u32> {
    (0..global.div_ceil(128))
        .map(|g| {
            let extent = (global - 128 * g).min(128);
            let mut tg: Vec<f32> = (0..extent)
                .map(|l| if 128 * g + l < n { x[128 * g + l] } else { 0.0 })
                .collect();
            let mut s = 64;
            while s > 0 {
                for l in 0..s.min(extent) {
                    if l + s < extent {
                        tg[l] = f32::from_bits(fadd32(tg[l], tg[l + s]));
                    }
                }
                s >>= 1;
            }
            tg[0].to_bits()
        })
        .collect()
}

#[test]
fn reduction_meets_a_barrier_in_every_iteration() {
    let mut rng = Rng::new(5);
    let x: Vec<f32> = (0..1000).map(|_| rng.f32(0.5, 2.0)).collect();
    for (global, n, extra) in [
        (1000, 990, &[][..]),
        (256, 256, &["--threads", "2"][..]),
        (77, 77, &[][..]),
    ] {
        let want = reduce_sums(&x, global, n);
        let args = [
            Arg::Buf(f32_bytes(&x[..global])),
            Arg::Zero(4 * want.len()),
            Arg::U32(n as u32),
        ];
        let g = global.to_string();
        let launch = Launch {
            kernel: "reduce",
            global: &g,
            local: "128",
            args: &args,
            save: &[1],
        };
        launch.check_both(extra, |engine, out| {
            assert_words(&format!("reduce {g} {engine}"), &words_of(&out[0]), &want);
        });
    }
}

/// matmul.s's C (M x N): per element, the tiles' fused multiply-adds in order.
fn matmul(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<u32> {
    let mut c = Vec::new();
    for row in 0..m {
        for col in 0..n {
            let mut acc = 0.0f32;
            for kk in 0..k.div_ceil(8) * 8 {
                let (x, y) = if kk < k {
                    (a[row * k + kk], b[kk * n + col])
                } else {
                    (0.0, 0.0)
                };
                acc = f32::from_bits(fmadd32(x, y, acc));
            }
            c.push(acc.to_bits());
        }
    }
    c
}

#[test]
fn tiled_matmul_stages_tiles_in_threadgroup_memory() {
    let mut rng = Rng::new(6);
    for (m, n, k) in [(13, 19, 21), (8, 8, 8), (5, 17, 3)] {
        let a: Vec<f32> = (0..m * k).map(|_| rng.f32(-1.0, 1.0)).collect();
        let b: Vec<f32> = (0..k * n).map(|_| rng.f32(-1.0, 1.0)).collect();
        let want = matmul(&a, &b, m, n, k);
        let args = [
            Arg::Buf(f32_bytes(&a)),
            Arg::Buf(f32_bytes(&b)),
            Arg::Zero(4 * m * n),
            Arg::U32(m as u32),
            Arg::U32(n as u32),
            Arg::U32(k as u32),
        ];
        let global = format!("{},{}", n.div_ceil(8) * 8, m.div_ceil(8) * 8);
        let launch = Launch {
            kernel: "matmul",
            global: &global,
            local: "8,8",
            args: &args,
            save: &[2],
        };
        launch.check_both(&[], |engine, out| {
            assert_words(
                &format!("matmul {m}x{n}x{k} {engine}"),
                &words_of(&out[0]),
                &want,
            );
        });
    }
}

fn bin_of(v: u32) -> usize {
    ((v >> 5) & 63) as usize
}

#[test]
fn device_atomics_count_a_histogram_and_hand_out_tickets() {
    let mut rng = Rng::new(7);
    let n = 1000;
    let data: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
    let mut want = vec![0u32; 64];
    for &v in &data {
        want[bin_of(v)] += 1;
    }
    let args = [
        Arg::Buf(bytes_of(&data)),
        Arg::Zero(256),
        Arg::Zero(4 * n),
        Arg::Zero(4),
        Arg::U32(n as u32),
    ];
    for (global, local, extra) in [
        ("1000", "64", &[][..]),
        ("1024", "256", &["--threads", "2"][..]),
    ] {
        let launch = Launch {
            kernel: "hist_device",
            global,
            local,
            args: &args,
            save: &[1, 2, 3],
        };
        launch.check_both(extra, |engine, out| {
            let what = format!("hist_device {global} {engine}");
            assert_words(&what, &words_of(&out[0]), &want);
            let mut tickets = words_of(&out[1]);
            tickets.sort_unstable();
            assert_words(
                &format!("{what} tickets"),
                &tickets,
                &(0..n as u32).collect::<Vec<_>>(),
            );
            assert_eq!(words_of(&out[2]), [n as u32], "{what}: counter");
        });
    }
}

#[test]
fn threadgroup_atomics_count_per_group_and_rank_within_bins() {
    let mut rng = Rng::new(8);
    let (global, n) = (1000, 990);
    let data: Vec<u32> = (0..global).map(|_| rng.u32()).collect();
    let mut want = vec![0u32; 64];
    for &v in &data[..n] {
        want[bin_of(v)] += 1;
    }
    let args = [
        Arg::Buf(bytes_of(&data)),
        Arg::Zero(256),
        Arg::Zero(4 * global),
        Arg::U32(n as u32),
    ];
    let launch = Launch {
        kernel: "hist_threadgroup",
        global: "1000",
        local: "128",
        args: &args,
        save: &[1, 2],
    };
    launch.check_both(&[], |engine, out| {
        let what = format!("hist_threadgroup {engine}");
        assert_words(&what, &words_of(&out[0]), &want);
        let ranks = words_of(&out[1]);
        for g in 0..global.div_ceil(128) {
            for bin in 0..64 {
                let mut r: Vec<u32> = (128 * g..(128 * g + 128).min(n))
                    .filter(|&i| bin_of(data[i]) == bin)
                    .map(|i| ranks[i])
                    .collect();
                r.sort_unstable();
                let w: Vec<u32> = (0..r.len() as u32).collect();
                assert_words(&format!("{what} group {g} bin {bin} ranks"), &r, &w);
            }
        }
        assert!(ranks[n..].iter().all(|&r| r == 0), "{what}: ranks past n");
    });
}

/// The 16 halves of half.s for one thread.
fn half_ops(a: u16, b: u16, c: u16, d: u16) -> [u16; 16] {
    let [ea, eb, ec, ed] = [a, b, c, d].map(Exact::of_f16);
    let fma = |x, y, z| Exact::fma(x, y, z).to_f16();
    let half = Exact::Fin {
        neg: false,
        mant: 1,
        exp: -1,
    };
    let s16 = |x: u16| i32::from(x as i16);
    [
        fma(ea, Exact::ONE, eb),
        fma(ea, eb, Exact::ZERO),
        fma(ea, eb, ec),
        fma(ea.neg(), eb.abs(), ed),
        Exact::fma(ea, Exact::ONE, ec).saturated_f16(),
        fma(ea, half, ec),
        fma(ea.abs(), Exact::ONE, eb.neg()),
        Exact::fma(eb, ed, Exact::ZERO).saturated_f16(),
        c.wrapping_add(d),
        (s16(a) + s16(d)).clamp(-0x8000, 0x7fff) as u16,
        a.wrapping_mul(b).wrapping_add(c),
        a.saturating_sub(c),
        ((b as i16) >> 3) as u16,
        a ^ d,
        fma(ec, ed, ea),
        b.wrapping_add(c << 1),
    ]
}

#[test]
fn half_precision_arithmetic_rounds_once_and_keeps_denormals() {
    let mut rng = Rng::new(9);
    let specials: [u16; 14] = [
        0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
        0x7e01, 0x3555, 0x1400,
    ];
    let n = 300;
    let recs: Vec<[u16; 4]> = (0..n)
        .map(|_| {
            [0; 4].map(|_| match rng.below(3) {
                0 => specials[rng.below(specials.len() as u32) as usize],
                // Small exponents make sums, products and denormal results likely.
                1 => (rng.u32() as u16 & 0x83ff) | (rng.below(12) as u16) << 10,
                _ => rng.u32() as u16,
            })
        })
        .collect();
    let want: Vec<u16> = recs
        .iter()
        .flat_map(|&[a, b, c, d]| half_ops(a, b, c, d))
        .collect();
    // The model against plain statements of the rules.
    let h = |a, b, c, d| half_ops(a, b, c, d);
    assert_eq!(h(0x3c00, 0x3c00, 0, 0)[0], 0x4000, "1 + 1");
    assert_eq!(
        h(0x7c00, 0xfc00, 0, 0)[0],
        0x7e00,
        "inf - inf is the default NaN"
    );
    assert_eq!(h(0x0001, 0x0001, 0, 0)[0], 0x0002, "denormals kept");
    assert_eq!(h(0x8000, 0x3c00, 0, 0)[1], 0x0000, "-0 * 1 + +0 = +0");
    assert_eq!(h(0x0001, 0x3800, 0, 0)[1], 0x0000, "2^-25 rounds to even 0");
    assert_eq!(
        h(0x0003, 0x3800, 0, 0)[1],
        0x0002,
        "1.5 ulp rounds to even 2"
    );
    assert_eq!(h(0x7bff, 0x7bff, 0, 0)[0], 0x7c00, "overflow to inf");
    assert_eq!(h(0xbc00, 0, 0, 0)[4], 0, "a negative saturates to +0");
    assert_eq!(h(0x3c00, 0, 0x0001, 0)[4], 0x3c00, "above 1 saturates to 1");
    let words: Vec<u32> = recs
        .iter()
        .flat_map(|r| [(r[0], r[1]), (r[2], r[3])])
        .map(|(lo, hi)| u32::from(lo) | u32::from(hi) << 16)
        .collect();
    for (global, local, count) in [(300, "128", 300), (64, "32", 50)] {
        let args = [
            Arg::Buf(bytes_of(&words[..2 * global])),
            Arg::Zero(32 * global),
            Arg::U32(count as u32),
        ];
        let g = global.to_string();
        let launch = Launch {
            kernel: "half",
            global: &g,
            local,
            args: &args,
            save: &[1],
        };
        launch.check_both(&[], |engine, out| {
            let got: Vec<u16> = out[0]
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect();
            for i in 0..global {
                let w: &[u16] = if i < count {
                    &want[16 * i..16 * i + 16]
                } else {
                    &[0; 16]
                };
                let r = recs[i];
                assert_eq!(
                    &got[16 * i..16 * i + 16],
                    w,
                    "half {g} {engine} thread {i} (a b c d = {:04x} {:04x} {:04x} {:04x})",
                    r[0],
                    r[1],
                    r[2],
                    r[3]
                );
            }
        });
    }
}
