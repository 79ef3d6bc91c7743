//! SIMD-group and quad operations without an applegpu model (lift/simd.rs): float ballots,
//! quad ballots, quad shuffles, and the reductions and prefix operations (integer results
//! exact; float results in the documented tree order, each step an fadd or fmul of
//! lift/float.rs).

use super::common::{Wave, LANES};
use super::num::{f, fma16, fma32, h, F16_NAN, F32_NAN};

/// Lanes with the exec mask off in the tests that mask.
const EXEC: u32 = 0xbf7f_fe6d;

fn word(l: u32, k: u32) -> u32 {
    let x = (l + 1).wrapping_mul(0x2545_f491) ^ k.wrapping_mul(0x9e37_79b9);
    x ^ (x >> 15)
}

#[test]
fn ballots_of_active_threads_and_quad_ballots() {
    let floats = [
        f(1.0),
        f(2.0),
        f(-1.0),
        0,
        0x8000_0000,
        F32_NAN,
        0x7f80_0000,
        f(0.5),
    ];
    let mut w = Wave::new();
    for l in 0..LANES {
        // Small values of both signs: ult and the signed conditions disagree on some.
        w.set_r(0, l, (word(l, 0) % 7).wrapping_sub(3));
        w.set_r(1, l, (word(l, 1) % 7).wrapping_sub(3));
        w.set_r(2, l, floats[(word(l, 2) % 8) as usize]);
        w.set_r(3, l, floats[(word(l, 3) % 8) as usize]);
    }
    w.set_exec(EXEC);
    let out = w.go("icmp_ballot r10, ult, r0, r1
         icmp_quad_ballot r11, sgte, r0, r1
         fcmp_ballot r12, lt, r2, r3
         fcmp_quad_ballot r13, nlt, r2, r3
         fcmp_ballot r14, gtn, r2, r3
         stop");
    let ballot = |cmp: &dyn Fn(u32) -> bool| {
        (0..LANES)
            .filter(|&l| EXEC >> l & 1 == 1 && cmp(l))
            .fold(0u32, |m, l| m | 1 << l)
    };
    let fv = |r: u32, l: u32| f32::from_bits(w.r(r, l));
    let ult = ballot(&|l| w.r(0, l) < w.r(1, l));
    let sgte = ballot(&|l| w.r(0, l) as i32 >= w.r(1, l) as i32);
    let lt = ballot(&|l| fv(2, l) < fv(3, l));
    let nlt = ballot(&|l| fv(2, l).partial_cmp(&fv(3, l)) != Some(std::cmp::Ordering::Less));
    let gtn = ballot(&|l| fv(2, l) > fv(3, l) || fv(3, l).is_nan());
    for l in 0..LANES {
        let quad = |m: u32| (m >> (l & !3)) & 0xf;
        let active = EXEC >> l & 1 == 1;
        let want = |v: u32, r: u32| if active { v } else { w.r(r, l) };
        assert_eq!(out.r(10, l), want(ult, 10), "icmp_ballot lane {l}");
        assert_eq!(
            out.r(11, l),
            want(quad(sgte), 11),
            "icmp_quad_ballot lane {l}"
        );
        assert_eq!(out.r(12, l), want(lt, 12), "fcmp_ballot lane {l}");
        assert_eq!(
            out.r(13, l),
            want(quad(nlt), 13),
            "fcmp_quad_ballot lane {l}"
        );
        assert_eq!(out.r(14, l), want(gtn, 14), "fcmp_ballot gtn lane {l}");
    }
}

#[test]
fn quad_shuffles_stay_in_the_quad() {
    let bs: [u32; 8] = [0, 1, 2, 3, 4, 5, 0xffff, 0x8003];
    let mut w = Wave::new();
    for l in 0..LANES {
        w.set_r(0, l, 0x1000 + l * 0x1111);
        w.set_r(1, l, bs[(word(l, 4) % 8) as usize] | 0xabcd_0000);
    }
    w.set_u(8, 0xffff_ffff);
    w.set_u(9, 0xffff_fffd);
    let out = w.go("quad_shuffle r10, r0, r1l
         quad_shuffle_down r11, r0, r1l
         quad_shuffle_up r12, r0, r1l
         quad_shuffle_rotate_up r13, r0, r1l
         quad_shuffle_xor r14, r0, r1l
         quad_shuffle_down r15, r0, u8
         quad_shuffle_up r16, r0, u9
         quad_shuffle r17l, r0h, 2
         stop");
    for t in 0..LANES {
        let a = |lane: u32| w.r(0, lane);
        let pick = |i: i64| {
            if (0..4).contains(&i) {
                a((t & !3) + i as u32)
            } else {
                a(t)
            }
        };
        let (q, b) = (i64::from(t & 3), i64::from(w.r(1, t) & 0xffff));
        let want = [
            pick(b),
            pick(q + b),
            pick(q - b),
            pick((q - b).rem_euclid(4)),
            pick(q ^ b),
            pick(q + 0xffff_ffff),
            pick(q - 0xffff_fffd),
        ];
        for (k, v) in want.into_iter().enumerate() {
            let r = 10 + k as u32;
            assert_eq!(out.r(r, t), v, "r{r} lane {t}, b={b:#x}");
        }
        let high = a((t & !3) + 2) >> 16;
        assert_eq!(out.r(17, t) & 0xffff, high, "r17l lane {t}");
    }
}

/// One combining step, `x` from the lower lane (integer ops on 32 bits).
fn combine(op: &str, x: u32, y: u32) -> u32 {
    let (sx, sy) = (x as i32, y as i32);
    match op {
        "and" => x & y,
        "or" => x | y,
        "xor" => x ^ y,
        "iadd" => x.wrapping_add(y),
        "min.u" => x.min(y),
        "max.u" => x.max(y),
        "min.s" => sx.min(sy) as u32,
        "max.s" => sx.max(sy) as u32,
        "fadd" => fma32(x, f(1.0), y),
        "fmul" => fma32(x, y, 0),
        "min.f" | "max.f" => {
            let (fx, fy) = (f32::from_bits(x), f32::from_bits(y));
            match (fx.is_nan(), fy.is_nan()) {
                (true, true) => F32_NAN,
                (true, false) => y,
                (false, true) => x,
                _ if (fx < fy) == (op == "min.f") => x,
                _ => y,
            }
        }
        _ => unreachable!("{op}"),
    }
}

fn identity(op: &str) -> u32 {
    match op {
        "and" | "min.u" => u32::MAX,
        "min.s" => i32::MAX as u32,
        "max.s" => i32::MIN as u32,
        "fadd" => 0x8000_0000,
        "fmul" => f(1.0),
        "min.f" | "max.f" => F32_NAN,
        _ => 0,
    }
}

/// The documented reduction or prefix of `op` over `xs` (the span's values, inactive ones
/// already the identity): reductions as a butterfly, the halves of each step combined lower
/// lane first; exclusive prefixes as Hillis-Steele over the values shifted up by one.
fn scan(
    op: &str,
    prefix: bool,
    xs: &[u32],
    id: u32,
    comb: &dyn Fn(&str, u32, u32) -> u32,
) -> Vec<u32> {
    let n = xs.len();
    let mut x = xs.to_vec();
    if prefix {
        x = (0..n)
            .map(|i| if i == 0 { id } else { xs[i - 1] })
            .collect();
        let mut step = 1;
        while step < n {
            x = (0..n)
                .map(|i| {
                    if i >= step {
                        comb(op, x[i - step], x[i])
                    } else {
                        x[i]
                    }
                })
                .collect();
            step *= 2;
        }
    } else {
        let mut step = n / 2;
        while step >= 1 {
            x = (0..n)
                .map(|i| {
                    let (lo, hi) = if i & step == 0 {
                        (i, i + step)
                    } else {
                        (i - step, i)
                    };
                    comb(op, x[lo], x[hi])
                })
                .collect();
            step /= 2;
        }
    }
    x
}

/// Runs `forms` (instruction names without the op) for each op on 32-bit values `a` and
/// checks them against [`scan`].
fn check_reductions(ops: &[&str], forms: &[(&str, bool, bool)], a: &dyn Fn(u32) -> u32) {
    let mut text = String::new();
    let mut r = 10;
    for op in ops {
        for (form, _, _) in forms {
            text += &format!("{form}{op} r{r}, r0\n");
            r += 1;
        }
    }
    text += "stop";
    let mut w = Wave::new();
    w.set_r_with(0, a);
    w.set_exec(EXEC);
    let out = w.go(&text);
    let mut r = 10;
    for op in ops {
        for &(form, quad, prefix) in forms {
            let span = if quad { 4 } else { 32 };
            for base in (0..LANES).step_by(span) {
                let xs: Vec<u32> = (base..base + span as u32)
                    .map(|l| {
                        if EXEC >> l & 1 == 1 {
                            w.r(0, l)
                        } else {
                            identity(op)
                        }
                    })
                    .collect();
                let want = scan(op, prefix, &xs, identity(op), &combine);
                for (k, &v) in want.iter().enumerate() {
                    let l = base + k as u32;
                    let v = if EXEC >> l & 1 == 1 { v } else { 0 };
                    assert_eq!(out.r(r, l), v, "{form}{op} lane {l}: inputs {xs:x?}");
                }
            }
            r += 1;
        }
    }
}

#[test]
fn integer_reductions_and_prefixes_are_exact() {
    let word_or_small = |l: u32| {
        if l.is_multiple_of(3) {
            word(l, 5)
        } else {
            word(l, 6) % 100
        }
    };
    check_reductions(
        &["iadd"],
        &[
            ("simd_", false, false),
            ("quad_", true, false),
            ("simd_prefix_", false, true),
            ("quad_prefix_", true, true),
        ],
        &word_or_small,
    );
    check_reductions(
        &["and", "or", "xor", "min.u", "max.u", "min.s", "max.s"],
        &[
            ("simd_", false, false),
            ("quad_", true, false),
            ("simd_prefix_", false, true),
        ],
        &word_or_small,
    );
}

#[test]
fn float_reductions_and_prefixes_follow_the_tree_order() {
    // Partial sums stay exact in f64 (the reference's check), not in f32.
    let values = [
        f(1.0),
        f(1048576.0),
        f(-1048576.0),
        f(3.0 * 2f32.powi(-25)),
        f(2f32.powi(-24)),
        0x8000_0000,
        f(-0.75),
        0x3f80_0001,
        f(2f32.powi(-10)),
        f(1.5),
    ];
    let pick = |l: u32| values[(word(l, 7) % values.len() as u32) as usize];
    check_reductions(
        &["fadd", "fmul"],
        &[
            ("simd_", false, false),
            ("quad_", true, false),
            ("simd_prefix_", false, true),
            ("quad_prefix_", true, true),
        ],
        &pick,
    );
    let ordered = [
        f(1.0),
        f(-2.5),
        F32_NAN,
        f(7.0),
        0x7f80_0000,
        0xff80_0000,
        f(0.5),
    ];
    check_reductions(
        &["min.f", "max.f"],
        &[("simd_", false, false), ("quad_", true, false)],
        &|l| ordered[(word(l, 8) % 7) as usize],
    );
}

#[test]
fn f16_reductions_combine_at_f16() {
    let values = [
        h(1.0),
        h(2048.0),
        h(-2048.0),
        0x0001,
        0x1000,
        0x8000,
        h(-0.75),
        F16_NAN,
    ];
    let mut w = Wave::new();
    w.set_r_with(0, |l| {
        u32::from(values[(word(l, 9) % 8) as usize]) | 0x7777_0000
    });
    let out = w.go("simd_fadd r10l, r0l\nquad_prefix_fmul r10h, r0l\nstop");
    let add16 = |_: &str, x: u32, y: u32| u32::from(fma16(x as u16, h(1.0), y as u16));
    let mul16 = |_: &str, x: u32, y: u32| u32::from(fma16(x as u16, y as u16, 0));
    let xs: Vec<u32> = (0..LANES).map(|l| w.r(0, l) & 0xffff).collect();
    let sum = scan("fadd", false, &xs, 0x8000, &add16);
    for base in (0..LANES as usize).step_by(4) {
        let quad = &xs[base..base + 4];
        let prefix = scan("fmul", true, quad, u32::from(h(1.0)), &mul16);
        for k in 0..4 {
            let l = (base + k) as u32;
            let got = out.r(10, l);
            assert_eq!(got & 0xffff, sum[base + k], "simd_fadd lane {l}: {xs:x?}");
            assert_eq!(got >> 16, prefix[k], "quad_prefix_fmul lane {l}: {quad:x?}");
        }
    }
}

#[test]
fn sixteen_bit_integer_reductions_keep_the_sign_of_halves() {
    let mut w = Wave::new();
    w.set_r_with(0, |l| word(l, 10) & 0x8fff_8fff);
    w.set_exec(EXEC);
    let out = w.go("simd_min.s r10l, r0l
         quad_max.u r10h, r0h
         simd_prefix_iadd r11l, r0l
         quad_max.s r11h, r0h
         stop");
    let halves = |high: bool| -> Vec<u32> {
        (0..LANES)
            .map(|l| {
                if high {
                    w.r(0, l) >> 16
                } else {
                    w.r(0, l) & 0xffff
                }
            })
            .collect()
    };
    let (lo, hi) = (halves(false), halves(true));
    let as_i16 = |v: u32| i32::from(v as u16 as i16);
    let active = |l: usize| EXEC >> l & 1 == 1;
    let min_s = (0..32)
        .filter(|&l| active(l))
        .map(|l| as_i16(lo[l]))
        .min()
        .unwrap();
    for l in 0..LANES as usize {
        if !active(l) {
            assert_eq!(out.r(10, l as u32), 0, "lane {l}");
            continue;
        }
        let quad = (l & !3)..(l & !3) + 4;
        let qmax_u = quad
            .clone()
            .filter(|&k| active(k))
            .map(|k| hi[k])
            .max()
            .unwrap();
        let qmax_s = quad
            .filter(|&k| active(k))
            .map(|k| as_i16(hi[k]))
            .max()
            .unwrap();
        let prefix: u32 = (0..l).filter(|&k| active(k)).map(|k| lo[k]).sum();
        let got = out.row(10)[l];
        assert_eq!(got & 0xffff, min_s as u32 & 0xffff, "simd_min.s lane {l}");
        assert_eq!(got >> 16, qmax_u, "quad_max.u lane {l}");
        let got = out.r(11, l as u32);
        assert_eq!(got & 0xffff, prefix & 0xffff, "simd_prefix_iadd lane {l}");
        assert_eq!(got >> 16, qmax_s as u32 & 0xffff, "quad_max.s lane {l}");
    }
}
