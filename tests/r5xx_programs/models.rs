//! Straight-line programs and their host models: elementwise arithmetic, tiled surfaces and
//! superfine reads, every data format with output masks, derivatives over quads. Each model
//! restates its program's comment (tests/programs/r5xx/NAME.s) in host arithmetic.

use crate::r5xx::float::{dot, f, mad, max_raw, neg};
use crate::r5xx::mc::{self, Surface};
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
fn fill_inputs(img: &mut Image, rng: &mut Rng, name: &str, w: u32, h: u32, value: fn(&mut Rng) -> u32) {
    for s in inputs(name).into_iter().flatten() {
        img.fill(s, 0..w, 0..h, &mut |_, _| data::raw(rng, s.format, &mut |r| value(r)));
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
    let mut img = Image::new(MEMORY);
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

#[allow(dead_code)]
fn unused(_: Surface) -> (u32, u32) {
    (neg(0), max_raw(0, 0) + mc::FLOAT32_1)
}
