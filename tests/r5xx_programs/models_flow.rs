//! Programs with flow control and the conditional units, and their host models: a matrix
//! multiply (LOOP/ENDLOOP, aL-relative constants), Mandelbrot (BREAKLOOP on the ALU result),
//! subroutines and branches (CALL/RET, IF/ELSE/ENDIF on a predicate, IF on booleans), and
//! conditional execution and output. Each model restates its program's comment
//! (tests/programs/r5xx/NAME.s) in host arithmetic; the flow control is the host's own.

use crate::r5xx::float::{dot, f, frc, mad, mad_x, max_raw, neg, test_zero, Omod, Zero};
use crate::r5xx::mc::Surface;
use crate::r5xx::{check, data, stream_of, Case, Ctx, Image, Model, Pair, Rng};

const MEMORY: usize = 0x80000;

fn surfaces(name: &str, cmd: &str) -> Vec<(u32, Surface)> {
    stream_of(name).surfaces(cmd)
}

fn per_channel(a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> [u32; 4] {
    std::array::from_fn(|k| mad(a[k], b[k], c[k]))
}

/// Integer constant 0 (UINT8_4 bytes: count, initial aL, step).
fn int_constant(img: &mut Image, s: Surface, count: u32, init: u32, step: i8) {
    img.constants(s, &[[count, init, step as u8 as u32, 0]]);
}

// --- matrix multiply ---

fn matmul_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let (count, init, step) = cx.consti(0);
    let (fi, fj) = (f(i as f32), f(j as f32));
    let mut acc = 0;
    let mut al = init as i32;
    for _ in 0..count {
        let k = cx.constf((al as u32) & 0xff)[0];
        // r2 = c.r00 * 1 + r0.0g0, r3 = c.0r0 * 1 + r0.r00.
        let (ax, ay) = (mad(k, f(1.0), 0), mad(0, f(1.0), fj));
        let (bx, by) = (mad(0, f(1.0), fi), mad(k, f(1.0), 0));
        let a = cx.tex(0, ax, ay)[0];
        let b = cx.tex(1, bx, by)[0];
        acc = mad(a, b, acc);
        al += step;
    }
    let mut p = Pair::default();
    p.out[0] = Some([max_raw(acc, acc), 0, 0, 0]);
    p
}

pub fn matmul() {
    let mut rng = Rng::new(0x3a7);
    let mut img = Image::new(MEMORY, &mut rng);
    for (_, s) in surfaces("matrix_multiply", "set_inp_fmt") {
        img.fill(s, 0..24, 0..16, &mut |_, _| {
            [data::uniform(&mut rng, -2.0, 2.0), 0, 0, 0]
        });
    }
    let columns: Vec<[u32; 4]> = (0..13).map(|k| [f(k as f32); 4]).collect();
    img.constants(surfaces("matrix_multiply", "set_constf_fmt")[0].1, &columns);
    let tables = surfaces("matrix_multiply", "set_consti_fmt");
    int_constant(&mut img, tables[0].1, 13, 0, 1);
    int_constant(&mut img, tables[1].1, 0, 0, 1);
    int_constant(&mut img, tables[2].1, 13, 12, -1);
    check(Case {
        stream: "matrix_multiply",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "matrix_multiply",
            pair: matmul_pair,
        }],
        filled: img.filled,
    });
}

// --- loops with BREAK and CONTINUE ---

fn loops_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let [v, w, ..] = cx.tex_at(0, i, j);
    let (count, init, step) = cx.consti(0);
    let (reps, ..) = cx.consti(1);
    let mut acc = 0;
    let mut hist = [0u32; 128];
    for _ in 0..reps {
        let mut al = init as i32;
        for _ in 0..count {
            let c = cx.constf((al as u32) & 0xff);
            let k = al;
            al += step;
            if test_zero(Zero::Ge, mad(c[0], f(1.0), neg(v))) {
                break;
            }
            let half = mad_x(c[0], f(1.0), w, Omod::D2);
            if test_zero(Zero::Ge, mad(frc(half), f(1.0), neg(f(0.25)))) {
                continue;
            }
            acc = mad(c[1], f(1.0), acc);
            hist[((10 + k) & 127) as usize] = acc;
        }
    }
    let mut p = Pair::default();
    p.out[0] = Some([acc; 4]);
    p.out[1] = Some([hist[10], hist[11], hist[12], hist[13]]);
    p
}

pub fn loops() {
    let mut rng = Rng::new(0x100b);
    let mut img = Image::new(MEMORY, &mut rng);
    let x = surfaces("loops", "set_inp_fmt")[0].1;
    img.fill(x, 0..32, 0..20, &mut |_, _| {
        let v = rng.below(13) as f32;
        let w = rng.below(4) as f32;
        [f(v), f(w), data::uniform(&mut rng, -1.0, 1.0), 0]
    });
    let c: Vec<[u32; 4]> = (0..10)
        .map(|k| [f(k as f32), data::uniform(&mut rng, -2.0, 2.0), 0, 0])
        .collect();
    img.constants(surfaces("loops", "set_constf_fmt")[0].1, &c);
    let consti = surfaces("loops", "set_consti_fmt")[0].1;
    img.constants(consti, &[[10, 0, 1, 0], [2, 0, 0, 0]]);
    check(Case {
        stream: "loops",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "loops",
            pair: loops_pair,
        }],
        filled: img.filled,
    });
}

// --- Mandelbrot ---

fn mandelbrot_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let (c0, c1) = (cx.constf(0), cx.constf(1));
    let (count, ..) = cx.consti(0);
    let cx_ = mad(f(i as f32), c0[0], c1[0]);
    let cy = mad(f(j as f32), c0[1], c1[1]);
    let cy_half = mad(cy, f(0.5), 0);
    let (mut zx, mut zy, mut n) = (0, 0, 0);
    for _ in 0..count {
        let t_r = mad(zx, zx, cx_);
        let t_a = mad(n, f(1.0), f(1.0));
        let t_g = mad_x(zx, zy, cy_half, Omod::X2);
        zx = mad(neg(zy), zy, t_r);
        zy = max_raw(t_g, t_g);
        n = max_raw(t_a, t_a);
        let m = dot(&[zx, zy], &[zx, zy], Some(neg(f(4.0))));
        if test_zero(Zero::Ge, m) {
            break;
        }
    }
    let mut p = Pair::default();
    p.out[0] = Some([zx, zy, 0, n]);
    p
}

pub fn mandelbrot() {
    let mut rng = Rng::new(0xe5c);
    let mut img = Image::new(MEMORY, &mut rng);
    let c = [
        [f(1.0 / 16.0), f(1.0 / 16.0), 0, 0],
        [f(-2.5), f(-1.15), 0, 0],
    ];
    img.constants(surfaces("escape_time", "set_constf_fmt")[0].1, &c);
    int_constant(
        &mut img,
        surfaces("escape_time", "set_consti_fmt")[0].1,
        48,
        0,
        1,
    );
    check(Case {
        stream: "escape_time",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "escape_time",
            pair: mandelbrot_pair,
        }],
        filled: img.filled,
    });
}

// --- subroutines and branches ---

fn subroutine_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let x = cx.tex_at(0, i, j);
    let (c0, c1, c2) = (cx.constf(0), cx.constf(1), cx.constf(2));
    let ones = [f(1.0); 4];
    let twice = |v: [u32; 4]| per_channel(v, [f(2.0); 4], ones);
    let mut r2 = per_channel(x, c0, [0; 4]);
    let mut r3 = [0; 4];
    let mut r4 = [0; 4];
    let mut r5 = [0; 4];
    // CALL c on the ALU result i - 10 >= 0: add, which calls twice.
    if test_zero(Zero::Ge, mad(f(i as f32), f(1.0), neg(f(10.0)))) {
        r2 = twice(per_channel(r2, ones, c1));
    }
    // IF p (p.r = j - 5 < 0) CALL twice ELSE r3 = 0.5 - x and r5 = 2 x.
    let p_of = |y: u32| test_zero(Zero::Lt, mad(f(y as f32), f(1.0), neg(f(5.0))));
    if p_of(j) {
        r2 = twice(r2);
    } else {
        r3 = per_channel(x.map(neg), ones, [f(0.5); 4]);
    }
    // The ELSE part runs when a processor of the group is in it; its WRITE_INACTIVE slot
    // then writes every running processor.
    if cx.group_any(i, j, &|_, y| !p_of(y)) {
        r5 = per_channel(x, [f(2.0); 4], [0; 4]);
    }
    if cx.constb(2) {
        r4 = per_channel(x, ones, c2);
    }
    if cx.constb(3) {
        r4 = per_channel(r4, ones, c1);
    }
    let copy = |v: [u32; 4]| v.map(|c| max_raw(c, c));
    Pair {
        out: [
            Some(copy(r2)),
            Some(copy(r3)),
            Some(copy(r4)),
            Some(copy(r5)),
        ],
        ..Pair::default()
    }
}

pub fn subroutine() {
    let mut rng = Rng::new(0x5ab);
    let mut img = Image::new(MEMORY, &mut rng);
    let x = surfaces("subroutine", "set_inp_fmt")[0].1;
    img.fill(x, 0..28, 0..14, &mut |_, _| {
        std::array::from_fn(|_| data::uniform(&mut rng, -3.0, 3.0))
    });
    let c: Vec<[u32; 4]> = (0..3)
        .map(|_| std::array::from_fn(|_| data::uniform(&mut rng, -2.0, 2.0)))
        .collect();
    img.constants(surfaces("subroutine", "set_constf_fmt")[0].1, &c);
    let tables = surfaces("subroutine", "set_constb_fmt");
    let mut bools = |b2: u32, b3: u32| -> Vec<[u32; 4]> {
        (0..8)
            .map(|k| match k {
                2 => [b2, 0, 0, 0],
                3 => [b3, 0, 0, 0],
                _ => [rng.u32(), 0, 0, 0],
            })
            .collect()
    };
    let (run1, run2) = (bools(f(-0.0), 0), bools(0, 1));
    img.constants(tables[0].1, &run1);
    img.constants(tables[1].1, &run2);
    check(Case {
        stream: "subroutine",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "subroutine",
            pair: subroutine_pair,
        }],
        filled: img.filled,
    });
}

// --- nested branches ---

fn branches_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let x = cx.tex_at(0, i, j);
    let ge = |c: usize| test_zero(Zero::Ge, x[c]);
    let one = f(1.0);
    let mut r2 = [0; 4];
    if ge(0) {
        r2[0] = one;
        if ge(1) {
            r2[1] = one;
            if ge(2) {
                r2[2] = one;
            }
        }
    }
    let r3 = if ge(3) { [one; 4] } else { [f(2.0); 4] };
    let mut p = Pair::default();
    p.out[0] = Some(r2);
    p.out[1] = Some(r3);
    p
}

pub fn branches() {
    let mut rng = Rng::new(0xb7a);
    let mut img = Image::new(MEMORY, &mut rng);
    let x = surfaces("branches", "set_inp_fmt")[0].1;
    img.fill(x, 0..32, 0..20, &mut |_, _| {
        std::array::from_fn(|_| data::mixed(&mut rng, -1.0, 1.0, 8))
    });
    check(Case {
        stream: "branches",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "branches",
            pair: branches_pair,
        }],
        filled: img.filled,
    });
}

// --- conditional execution and output ---

fn cond_plain_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let x = cx.tex_at(0, i, j);
    let r0 = [f(i as f32), f(j as f32), 0, f(1.0)];
    let mut p = Pair::default();
    p.out[0] = Some(per_channel(x, cx.constf(0), r0));
    p
}

fn cond_w_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let x = cx.tex_at(0, i, j);
    let c0 = cx.constf(0);
    let pred = test_zero(Zero::Ge, mad(x[0], f(1.0), neg(f(0.5))));
    let mut r2 = [0; 4];
    if pred {
        for c in 0..3 {
            r2[c] = mad(x[c], c0[c], 0);
        }
    }
    r2[3] = if pred { x[2] } else { x[3] };
    let mut p = Pair::default();
    p.out[0] = Some(r2.map(|v| max_raw(v, v)));
    p.w = Some(r2[3]);
    p
}

/// Values for comparisons: equal ones are likely, NaN and the zeros among them.
const COMPARED: [f32; 8] = [-1.0, 0.0, -0.0, 0.5, 1.0, 2.0, f32::NAN, f32::INFINITY];

pub fn cond() {
    let mut rng = Rng::new(0xc0d);
    let mut img = Image::new(MEMORY, &mut rng);
    let pick = |rng: &mut Rng| f(COMPARED[rng.below(8) as usize]);
    let x = surfaces("cond", "set_inp_fmt")[0].1;
    img.fill(x, 0..24, 0..14, &mut |_, _| {
        let r = data::uniform(&mut rng, 0.0, 1.0);
        let g = data::uniform(&mut rng, -2.0, 2.0);
        [r, g, pick(&mut rng), pick(&mut rng)]
    });
    let buffer = surfaces("cond", "set_cond_out_fmt")[0].1;
    img.preset(buffer, 0..24, 0..14, &mut |_, _| [pick(&mut rng), 0, 0, 0]);
    for (_, s) in surfaces("cond", "set_constf_fmt") {
        let c0 = std::array::from_fn(|_| data::uniform(&mut rng, -2.0, 2.0));
        img.constants(s, &[c0]);
    }
    check(Case {
        stream: "cond",
        files: vec![("mem.bin", img.mem)],
        models: vec![
            Model {
                name: "cond_plain",
                pair: cond_plain_pair,
            },
            Model {
                name: "cond_w",
                pair: cond_w_pair,
            },
        ],
        filled: img.filled,
    });
}
