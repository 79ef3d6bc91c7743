//! Straight-line programs and their host models: elementwise arithmetic, tiled surfaces and
//! superfine reads, every data format with output masks, derivatives over quads. Each model
//! restates its program's comment (tests/programs/r5xx/NAME.s) in host arithmetic.

use crate::r5xx::float::{dot, f, mad, max_raw, neg, test_zero, Zero};
use crate::r5xx::mc::Surface;
use crate::r5xx::{check, data, stream_of, Case, Ctx, Image, Model, Pair, Rng};

const MEMORY: usize = 0x80000;

/// The surfaces of a stream's `set_inp_fmt` commands by input index (the last of each).
fn inputs(name: &str) -> [Option<Surface>; 16] {
    let mut v = [None; 16];
    for (k, s) in stream_of(name).surfaces("set_inp_fmt") {
        v[k as usize] = Some(s);
    }
    v
}

/// The surfaces of a stream's `set_constf_fmt` commands, in order.
fn constf_tables(name: &str) -> Vec<Surface> {
    stream_of(name)
        .surfaces("set_constf_fmt")
        .into_iter()
        .map(|(_, s)| s)
        .collect()
}

/// Fills every input of stream `name` over x in `0..w`, y in `0..h` with `value`'s floats
/// (unorm inputs with random integers).
fn fill_inputs(
    img: &mut Image,
    rng: &mut Rng,
    name: &str,
    w: u32,
    h: u32,
    value: fn(&mut Rng) -> u32,
) {
    for s in inputs(name).into_iter().flatten() {
        img.fill(s, 0..w, 0..h, &mut |_, _| {
            data::raw(rng, s.format, &mut |r| value(r))
        });
    }
}

fn per_channel(a: [u32; 4], b: [u32; 4], c: [u32; 4]) -> [u32; 4] {
    std::array::from_fn(|k| mad(a[k], b[k], c[k]))
}

// --- elementwise ---

fn elementwise_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let (a, b, c) = (cx.tex_at(0, i, j), cx.tex_at(1, i, j), cx.tex_at(2, i, j));
    let (c0, c1) = (cx.constf(0), cx.constf(1));
    // r4 = r0 * c1 + 0: (i / 64, j / 32), read with scaled coordinates.
    let s = mad(f(i as f32), c1[0], 0);
    let t = mad(f(j as f32), c1[1], 0);
    let d = cx.tex_scaled(3, s, t);
    let mut p = Pair::default();
    p.out[0] = Some(per_channel(a, b, c));
    p.out[1] = Some(per_channel(a, c0, d));
    p.out[2] = Some([dot(&a, &b, None); 4]);
    p
}

pub fn elementwise() {
    let mut rng = Rng::new(0x5e1e);
    let mut img = Image::new(MEMORY, &mut rng);
    fill_inputs(&mut img, &mut rng, "elementwise", 48, 24, |r| {
        data::mixed(r, -4.0, 4.0, 12)
    });
    let c0 = std::array::from_fn(|_| data::mixed(&mut rng, -2.0, 2.0, 4));
    let c1 = [f(1.0 / 64.0), f(1.0 / 32.0), 0, 0];
    img.constants(constf_tables("elementwise")[0], &[c0, c1]);
    check(Case {
        stream: "elementwise",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "elementwise",
            pair: elementwise_pair,
        }],
        filled: img.filled,
    });
}

// --- tiled ---

fn tiled_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let t: [[u32; 4]; 6] = std::array::from_fn(|k| cx.tex_at(k, i, j));
    let mut p = Pair::default();
    p.out[0] = Some(t[5].map(|v| max_raw(v, v)));
    p.out[1] = Some([2, 1, 0, 3].map(|c| max_raw(t[1][c], t[1][c])));
    p.out[2] = Some(per_channel(t[2], [f(1.0); 4], t[4]));
    p.out[3] = Some(per_channel(t[3], [t[0][0]; 4], t[4]));
    p
}

pub fn tiled() {
    let mut rng = Rng::new(0x711ed);
    let mut img = Image::new(MEMORY, &mut rng);
    fill_inputs(&mut img, &mut rng, "tiled", 48, 28, |r| {
        data::mixed(r, -4.0, 4.0, 16)
    });
    check(Case {
        stream: "tiled",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "tiled",
            pair: tiled_pair,
        }],
        filled: img.filled,
    });
}

// --- formats ---

fn formats_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let t: [[u32; 4]; 5] = std::array::from_fn(|k| cx.tex_at(k, i, j));
    let c0 = cx.constf(0);
    let mut p = Pair::default();
    p.out[0] = Some(per_channel(t[1], c0, t[0]));
    p.out[1] = Some(per_channel(t[2], t[3], t[4]));
    p.out[2] = Some(t[4].map(|v| max_raw(v, v)));
    p.out[3] = Some(t[3].map(|v| max_raw(v, v)));
    p
}

pub fn formats() {
    let mut rng = Rng::new(0xf0a7);
    let mut img = Image::new(MEMORY, &mut rng);
    fill_inputs(&mut img, &mut rng, "formats", 32, 16, |r| {
        data::mixed(r, -2.0, 2.0, 6)
    });
    let tables = constf_tables("formats");
    let c0 = [
        [f(1.5), f(-0.5), f(2.0), f(1.0)],
        [f(0.75), f(1.25), f(-1.0), f(3.0)],
        std::array::from_fn(|_| data::uniform(&mut rng, -2.0, 2.0)),
        std::array::from_fn(|_| data::uniform(&mut rng, -2.0, 2.0)),
    ];
    for (s, c) in tables.iter().zip(&c0) {
        img.constants(*s, &[*c]);
    }
    check(Case {
        stream: "formats",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "formats",
            pair: formats_pair,
        }],
        filled: img.filled,
    });
}

// --- derivatives ---

fn derivatives_pair(cx: &Ctx, i: u32, j: u32) -> Pair {
    let fx = |x: u32, y: u32| cx.tex_at(0, x, y);
    let (x0, y0) = (i & !1, j & !1);
    let (tl, tr, bl) = (fx(x0, y0), fx(x0 + 1, y0), fx(x0, y0 + 1));
    let c0 = cx.constf(0);
    // A = -tl (NEG), B = 1 (RGB) or c0.a (alpha), C = tr or bl.
    let diff = |other: [u32; 4]| -> [u32; 4] {
        std::array::from_fn(|c| {
            let b = if c < 3 { f(1.0) } else { c0[3] };
            mad(neg(tl[c]), b, other[c])
        })
    };
    let mut p = Pair::default();
    p.out[0] = Some(diff(tr));
    p.out[1] = Some(diff(bl));
    p.out[2] = Some(fx(i, j));
    p.killed = test_zero(Zero::Lt, cx.tex_at(1, i, j)[0]);
    p
}

pub fn derivatives() {
    let mut rng = Rng::new(0xdd);
    let mut img = Image::new(MEMORY, &mut rng);
    let ins = inputs("derivatives");
    let (f_in, kill) = (ins[0].unwrap(), ins[1].unwrap());
    img.fill(f_in, 0..40, 0..24, &mut |_, _| {
        std::array::from_fn(|_| data::mixed(&mut rng, -8.0, 8.0, 16))
    });
    img.fill(kill, 0..40, 0..24, &mut |_, _| {
        [if rng.below(5) == 0 { f(-1.0) } else { f(1.0) }, 0, 0, 0]
    });
    img.constants(constf_tables("derivatives")[0], &[[0, 0, 0, f(0.75)]]);
    check(Case {
        stream: "derivatives",
        files: vec![("mem.bin", img.mem)],
        models: vec![Model {
            name: "derivatives",
            pair: derivatives_pair,
        }],
        filled: img.filled,
    });
}
