//! The dot products and vector macros, and the compare-and-select instructions, on both
//! engines, against their entries' pseudocode written here with host f32 arithmetic (each
//! step rounded and flushed), the DX9 multiply where the instruction has no `_ieee` control
//! or does not set it.

mod alu_common;
mod lift_common;
use alu_common::*;

/// A result rounded to f32, then flushed.
fn flushed(v: f32) -> f32 {
    f32::from_bits(flush(v.to_bits()))
}

fn bits(v: f32) -> u32 {
    v.to_bits()
}

/// Values that tell the multiplies and the flushing apart.
const V: [u32; 10] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbfc0_0000,
    0x4040_0000,
    0x7f80_0000,
    0x7fc0_0000,
    0x0000_0001,
    0x3e80_0000,
    0xc0a0_0000,
];

/// Deterministic operand sets: three source vectors drawn from `V`, and r3 zero.
fn cases(n: usize) -> Vec<[[u32; 4]; 4]> {
    let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        V[(s >> 33) as usize % V.len()]
    };
    (0..n)
        .map(|_| {
            let mut c = [[0u32; 4]; 4];
            for r in c.iter_mut().take(3) {
                for x in r.iter_mut() {
                    *x = next();
                }
            }
            c
        })
        .collect()
}

/// Σ a.c * b.c over `n` components, left to right, each product and sum rounded and flushed.
fn dot(a: &[u32; 4], b: &[u32; 4], n: usize, ieee: bool) -> f32 {
    let m = |x, y| if ieee { ieee_mul(x, y) } else { dx9_mul(x, y) };
    let mut acc = m(a[0], b[0]);
    for c in 1..n {
        acc = flushed(m(a[c], b[c]) + acc);
    }
    acc
}

#[test]
fn dot_products_dx9_and_ieee() {
    let cs = cases(256);
    for (n, name) in [(2, "dp2"), (3, "dp3"), (4, "dp4")] {
        for ieee in [false, true] {
            let line = format!("{name}{} r4, r0, r1", if ieee { "_ieee" } else { "" });
            check4(&line, &cs, |c| [Some(out(dot(&c[0], &c[1], n, ieee))); 4]);
        }
    }
    for ieee in [false, true] {
        let line = format!("dp2add{} r4, r0, r1, r2", if ieee { "_ieee" } else { "" });
        check4(&line, &cs, |c| {
            [Some(out(flushed(dot(&c[0], &c[1], 2, ieee) + fl(c[2][2])))); 4]
        });
    }
    // The named edge: 0 * inf is 0 in DX9, NaN in IEEE.
    let edge = [[
        [0, 0x3f80_0000, 0, 0],
        [0x7f80_0000, 0x3f80_0000, 0, 0],
        [0; 4],
        [0; 4],
    ]];
    check4("dp2 r4, r0, r1", &edge, |_| [Some(Bits(0x3f80_0000)); 4]);
    check4("dp2_ieee r4, r0, r1", &edge, |_| [Some(Nan); 4]);
}

#[test]
fn dist_and_len_use_xyz() {
    let cs = cases(256);
    check4("dist r4, r0, r1", &cs, |c| {
        let mut s = None;
        for (&x, &y) in c[0].iter().zip(&c[1]).take(3) {
            let d = flushed(fl(x) - fl(y));
            let p = flushed(d * d);
            s = Some(s.map_or(p, |s| flushed(p + s)));
        }
        let s = s.expect("three terms");
        [Some(out(s.sqrt())); 4]
    });
    check4("len r4, r0", &cs, |c| {
        [Some(out(dot(&c[0], &c[0], 3, false).sqrt())); 4]
    });
}

#[test]
fn crs_writes_xyz_only() {
    check4("crs r4, r0, r1", &cases(256), |c| {
        let (a, b) = (c[0], c[1]);
        let f = |i: usize, j: usize| Some(out(flushed(dx9_mul(a[i], b[j]) - dx9_mul(a[j], b[i]))));
        [f(1, 2), f(2, 0), f(0, 1), None]
    });
    let one = [[
        [0x3f80_0000, 0, 0, 0],
        [0, 0x3f80_0000, 0, 0],
        [0; 4],
        [0; 4],
    ]];
    check4("crs r4.xyz1, r0, r1", &one, |_| {
        [
            Some(Bits(0)),
            Some(Bits(0)),
            Some(Bits(0x3f80_0000)),
            Some(Bits(0x3f80_0000)),
        ]
    });
}

#[test]
fn nrm_three_and_four_components_with_zeroop() {
    let mut cs = cases(256);
    // Zero xyz with a non-zero w: the zeroop value times w (nrm3).
    cs.push([[0, 0x8000_0000, 1, 0x4000_0000], [0; 4], [0; 4], [0; 4]]);
    cs.push([
        [0x4040_0000, 0x4080_0000, 0, 0x3f80_0000],
        [0; 4],
        [0; 4],
        [0; 4],
    ]);
    for (z, zv) in [
        ("", 0x7f7f_ffff),
        ("_zeroop(zero)", 0),
        ("_zeroop(infinity)", 0x7f80_0000),
        ("_zeroop(inf_else_max)", 0x7f80_0000),
    ] {
        for (form, n) in [("", 3), ("_nrm4", 4)] {
            check4(&format!("nrm{z}{form} r4, r0"), &cs, |c| {
                let f = dot(&c[0], &c[0], n, false);
                let s = if f == 0.0 {
                    zv
                } else {
                    bits(flushed(1.0 / f.sqrt()))
                };
                c[0].map(|x| Some(out(dx9_mul(x, s))))
            });
        }
    }
    // (3, 4, 0) normalised: exactly (0.6, 0.8, 0) in f32 rounding.
    check4("nrm r4, r0", &cs[257..], |_| {
        let s = 1.0f32 / 5.0;
        [
            Some(Bits(bits(3.0 * s))),
            Some(Bits(bits(4.0 * s))),
            Some(Bits(0)),
            Some(Bits(bits(s))),
        ]
    });
}

#[test]
fn dst_lit_and_reflect_follow_their_pseudocode() {
    let cs = cases(256);
    check4("dst r4, r0, r1", &cs, |c| {
        [
            Some(Bits(0x3f80_0000)),
            Some(out(dx9_mul(c[0][1], c[1][1]))),
            Some(Bits(c[0][2])),
            Some(Bits(c[1][3])),
        ]
    });
    let mut lit = cs.clone();
    for w in [200.0f32, -200.0, 128.0, -127.5, 0.5] {
        lit.push([
            [0x3f00_0000, 0x3f00_0000, 0, bits(w)],
            [0; 4],
            [0; 4],
            [0; 4],
        ]);
    }
    check4("lit r4, r0", &lit, |c| {
        let (x, y) = (fl(c[0][0]), fl(c[0][1]));
        let g = fl(c[0][3]);
        let g = if g < -128.0 { -128.0 } else { g };
        let g = if g > 128.0 { 128.0 } else { g };
        let lg = flushed((f64::from(y)).log2() as f32);
        let p = dx9_mul(bits(g), bits(lg));
        let spec = flushed(f64::from(p).exp2() as f32);
        [
            Some(Bits(0x3f80_0000)),
            Some(if x > 0.0 { Bits(c[0][0]) } else { Bits(0) }),
            Some(if x > 0.0 && y > 0.0 {
                out(spec)
            } else {
                Bits(0)
            }),
            Some(Bits(0x3f80_0000)),
        ]
    });
    for normalize in [false, true] {
        let line = format!(
            "reflect{} r4, r0, r1",
            if normalize { "_normalize" } else { "" }
        );
        check4(&line, &cs, |c| {
            let f = bits(dx9_mul(0x4000_0000, bits(dot(&c[0], &c[1], 4, false))));
            let n = bits(dot(&c[1], &c[1], 4, false));
            let mut r = [None; 4];
            for (i, v) in r.iter_mut().enumerate() {
                let x = if normalize {
                    dx9_mul(n, c[0][i])
                } else {
                    fl(c[0][i])
                };
                *v = Some(out(flushed(x - dx9_mul(f, c[1][i]))));
            }
            r
        });
    }
}

#[test]
fn clamp_compares_then_flushes() {
    check(
        "clamp r4.x___, r0.x, r1.x, r2.x",
        &triples(&F),
        |[a, b, c, _]| {
            let mut v = fl(a);
            if v < fl(b) {
                v = fl(b);
            }
            if v > fl(c) {
                v = fl(c);
            }
            if v.is_nan() {
                Nan
            } else {
                Bits(v.to_bits())
            }
        },
    );
}

type Relation = fn(f32, f32) -> bool;

/// ILRelOp in order with the host compare (false on NaN, `ne` included).
const RELOPS: [(&str, Relation); 6] = [
    ("ne", |a, b| a.partial_cmp(&b).is_some_and(|o| o.is_ne())),
    ("eq", |a, b| a == b),
    ("ge", |a, b| a >= b),
    ("gt", |a, b| a > b),
    ("le", |a, b| a <= b),
    ("lt", |a, b| a < b),
];

#[test]
fn cmp_and_set_for_every_relop() {
    let mut vals = F.to_vec();
    vals.extend([0x3f00_0000, 0xbf00_0000, 0xbf80_0000]);
    for (name, rel) in RELOPS {
        for (cv, k) in [
            ("0.0", 0.0f32),
            ("0.5", 0.5),
            ("1.0", 1.0),
            ("-0.5", -0.5),
            ("-1.0", -1.0),
        ] {
            let cases: Vec<_> = vals
                .iter()
                .map(|&a| [a, 0x1111_1111, 0x7fa0_0001, 0])
                .collect();
            check(
                &format!("cmp_relop({name})_cmpval({cv}) r4.x___, r0.x, r1.x, r2.x"),
                &cases,
                |[a, b, c, _]| Bits(if rel(fl(a), k) { b } else { c }),
            );
        }
        check(
            &format!("set_relop({name}) r4.x___, r0.x, r1.x"),
            &pairs(&vals),
            |[a, b, ..]| Bits(if rel(fl(a), fl(b)) { 0x3f80_0000 } else { 0 }),
        );
    }
}

#[test]
fn sgn_mod_lrp_and_invariant_move() {
    check("sgn r4.x___, r0.x", &singles(&F), |[a, ..]| {
        let v = fl(a);
        Bits(if v < 0.0 {
            0xbf80_0000
        } else if v == 0.0 {
            0
        } else {
            0x3f80_0000
        })
    });
    check("mod r4.x___, r0.x, r1.x", &pairs(&F), |[a, b, ..]| {
        if fl(b) == 0.0 {
            return Bits(a);
        }
        let t = flushed(fl(a) / fl(b)).trunc();
        out(flushed(fl(a) - dx9_mul(b, bits(t))))
    });
    // The entry's example: mod(-1.7, 1.0) = -0.7 (in f32: -1.7f + 1).
    check(
        "mod r4.x___, r0.x, r1.x",
        &[[bits(-1.7), 0x3f80_0000, 0, 0]],
        |_| Bits(bits(-1.7f32 + 1.0)),
    );
    check(
        "lrp r4.x___, r0.x, r1.x, r2.x",
        &triples(&V),
        |[a, b, c, _]| {
            let t = flushed(1.0 - fl(a));
            out(flushed(dx9_mul(b, a) + dx9_mul(c, bits(t))))
        },
    );
    check("invariant_move r4.x___, r0.x", &singles(&F), |[a, ..]| {
        Bits(a)
    });
}

#[test]
fn three_operand_integer_min_median_max() {
    let med = |a: i64, b: i64, c: i64| a.max(b).min(a.min(b).max(c));
    let s = |x: u32| i64::from(x as i32);
    let u = |x: u32| i64::from(x);
    for (op, f) in [
        (
            "imin3",
            (|a, b, c| a.min(b).min(c)) as fn(i64, i64, i64) -> i64,
        ),
        ("imax3", |a, b, c| a.max(b).max(c)),
    ] {
        check(
            &format!("{op} r4.x___, r0.x, r1.x, r2.x"),
            &triples(&I),
            |[a, b, c, _]| Bits(f(s(a), s(b), s(c)) as u32),
        );
    }
    for (op, f) in [
        (
            "umin3",
            (|a, b, c| a.min(b).min(c)) as fn(i64, i64, i64) -> i64,
        ),
        ("umax3", |a, b, c| a.max(b).max(c)),
    ] {
        check(
            &format!("{op} r4.x___, r0.x, r1.x, r2.x"),
            &triples(&I),
            |[a, b, c, _]| Bits(f(u(a), u(b), u(c)) as u32),
        );
    }
    check(
        "imed3 r4.x___, r0.x, r1.x, r2.x",
        &triples(&I),
        |[a, b, c, _]| Bits(med(s(a), s(b), s(c)) as u32),
    );
    check(
        "umed3 r4.x___, r0.x, r1.x, r2.x",
        &triples(&I),
        |[a, b, c, _]| Bits(med(u(a), u(b), u(c)) as u32),
    );
}

#[test]
fn refused_float_rows_say_why() {
    for (line, why) in [
        ("noise_type(perlin1D) r4, r0", "pseudo-random"),
        ("faceforward r4, r0, r1, r2", "damaged"),
        ("clg r4, r0", "no Chapter 7 entry"),
    ] {
        let e = refusal(line);
        assert!(e.contains(why), "{line}: {e}");
    }
}
