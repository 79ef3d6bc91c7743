//! The image-processing samples on buffers of pixels (BoxFilter, URNG, SobelFilter,
//! RecursiveGaussian).

use super::*;

/// One pass of BoxFilter's summed-area table kernels on a `w`-wide image of uint4 pixels:
/// each pixel sums `r` pixels `c = r^i` apart towards x = 0 (`vertical`: towards y = 0),
/// stopping at the edge.
fn sat_pass(input: &[[u32; 4]], w: usize, i: u32, r: usize, vertical: bool) -> Vec<[u32; 4]> {
    let c = (r as i64).pow(i);
    (0..input.len())
        .map(|pos| {
            let (x, y) = ((pos % w) as i64, (pos / w) as i64);
            let mut sum = [0u32; 4];
            for j in 0..r as i64 {
                let (sx, sy) = if vertical {
                    (x, y - j * c)
                } else {
                    (x - j * c, y)
                };
                if sx < 0 || sy < 0 {
                    break;
                }
                let p = input[(sy * w as i64 + sx) as usize];
                for k in 0..4 {
                    sum[k] = sum[k].wrapping_add(p[k]);
                }
            }
            sum
        })
        .collect()
}

/// `pixels` uchar4 pixels of seeded random bytes, the image kernels' input.
fn random_rgba8(seed: u64, pixels: usize) -> Vec<u8> {
    Rng::new(seed)
        .u32s(4 * pixels, 256)
        .iter()
        .map(|&v| v as u8)
        .collect()
}

fn uint4_bytes(px: &[[u32; 4]]) -> Vec<u8> {
    px.iter().flat_map(|p| bytes_of(p)).collect()
}

/// BoxFilter's SAT path as its host chains it on a 256 x 256 image (r = 16, so 2 horizontal
/// and 2 vertical passes): `horizontalSAT0` (uchar4 in), `horizontalSAT`, `verticalSAT` twice,
/// then `box_filter` (N = 5) over the table; the table is also checked against the plain
/// summed-area table, and the filter against the box average it computes.
pub fn box_filter_sat(enc: Encoding) {
    let (w, h, r, n) = (256usize, 256usize, 16usize, 5u32);
    for run in runners("si/BoxFilter_Kernels.bin", enc) {
        let image = random_rgba8(17, w * h);
        let pixels: Vec<[u32; 4]> = image
            .chunks_exact(4)
            .map(|p| [p[0], p[1], p[2], p[3]].map(u32::from))
            .collect();
        let (global, local) = (dims(w as u32, h as u32), dims(256, 1));
        let sat_args = |input: ArgSpec, i: u32| {
            vec![
                input,
                zero(16 * w * h),
                i32v(i as i32),
                i32v(r as i32),
                i32v(w as i32),
            ]
        };
        let mut table = sat_pass(&pixels, w, 0, r, false);
        let out = run.run(
            "horizontalSAT0",
            global,
            local,
            &sat_args(buf(image.clone()), 0),
        );
        run.same("horizontalSAT0", &out[1], &uint4_bytes(&table));
        for (kernel, i, vertical) in [
            ("horizontalSAT", 1, false),
            ("verticalSAT", 0, true),
            ("verticalSAT", 1, true),
        ] {
            let next = sat_pass(&table, w, i, r, vertical);
            let out = run.run(
                kernel,
                global,
                local,
                &sat_args(buf(uint4_bytes(&table)), i),
            );
            run.same(&format!("{kernel} pass {i}"), &out[1], &uint4_bytes(&next));
            table = next;
        }
        for (pos, t) in table.iter().enumerate() {
            let (x, y) = (pos % w, pos / w);
            let mut want = [0u32; 4];
            for yy in 0..=y {
                for xx in 0..=x {
                    for k in 0..4 {
                        want[k] += pixels[yy * w + xx][k];
                    }
                }
            }
            if pos % 997 == 0 {
                assert_eq!(*t, want, "summed-area table at ({x}, {y})");
            }
        }

        let k = ((n - 1) / 2) as i64;
        let at = |x: i64, y: i64| -> [i64; 4] {
            if x < 0 || y < 0 {
                [0; 4]
            } else {
                table[(y * w as i64 + x) as usize].map(|v| i64::from(v as i32))
            }
        };
        let mut want = vec![0u8; 4 * w * h];
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                if x < k || y < k || x > w as i64 - k - 1 || y > h as i64 - k - 1 {
                    continue;
                }
                let (a, b, c, d) = (
                    at(x - k - 1, y - k - 1),
                    at(x + k, y - k - 1),
                    at(x + k, y + k),
                    at(x - k - 1, y + k),
                );
                for ch in 0..4 {
                    let v = (a[ch] + c[ch] - b[ch] - d[ch]) as i32 / (n * n) as i32;
                    want[4 * (y as usize * w + x as usize) + ch] = v as u8;
                }
            }
        }
        let out = run.run(
            "box_filter",
            global,
            local,
            &[buf(uint4_bytes(&table)), zero(4 * w * h), u32v(n)],
        );
        run.same("box_filter", &out[1], &want);
    }
}

/// BoxFilter's separable kernels with the host's filterWidth 8 (k = 3) on a 256 x 64 image,
/// groups of 256 x 1: `box_filter_horizontal` sums the 7 pixels x-3 ..= x+3 (in the kernel's
/// order) and divides by 8, zero in the apron; `box_filter_vertical` the same along y.
pub fn box_filter_separable(enc: Encoding) {
    let (w, h, fw) = (256usize, 64usize, 8i32);
    let k = (fw - 1) / 2;
    let image = random_rgba8(18, w * h);
    let filter = |vertical: bool| {
        let mut want = vec![0u8; 4 * w * h];
        for y in 0..h as i32 {
            for x in 0..w as i32 {
                let (c, extent) = if vertical {
                    (y, h as i32)
                } else {
                    (x, w as i32)
                };
                if c < k || c >= extent - k {
                    continue;
                }
                for ch in 0..4 {
                    let sum: i32 = (-k..=k)
                        .map(|d| {
                            let (sx, sy) = if vertical { (x, y + d) } else { (x + d, y) };
                            i32::from(image[4 * (sy as usize * w + sx as usize) + ch])
                        })
                        .sum();
                    want[4 * (y as usize * w + x as usize) + ch] = (sum / fw) as u8;
                }
            }
        }
        want
    };
    for (kernel, vertical) in [
        ("box_filter_horizontal", false),
        ("box_filter_vertical", true),
    ] {
        Launch {
            file: "BoxFilter_Kernels.bin",
            kernel,
            global: dims(w as u32, h as u32),
            local: dims(256, 1),
            args: vec![buf(image.clone()), zero(4 * w * h), i32v(fw)],
        }
        .check(enc, &[(1, filter(vertical))]);
    }
}

/// BoxFilter `box_filter_horizontal_local` with filterWidth 1 (k = 0): each group stages its
/// 256 pixels in LDS and every pixel is its own average. With the host's filterWidth 8 the
/// first group reads 3 pixels before the image (its apron, which it never uses), which this
/// launch's UAV arena makes a guest fault (see src/isa/amdapp/launch.rs).
pub fn box_filter_horizontal_local(enc: Encoding) {
    let (w, h) = (256usize, 16usize);
    let image = random_rgba8(19, w * h);
    Launch {
        file: "BoxFilter_Kernels.bin",
        kernel: "box_filter_horizontal_local",
        global: dims(w as u32, h as u32),
        local: dims(256, 1),
        args: vec![buf(image.clone()), zero(4 * w * h), i32v(1), local(4 * 256)],
    }
    .check(enc, &[(1, image)]);
}

/// URNG (host: groups of 64 x 1, noise factor 25; a random 64 x 16 image here): the kernel's
/// `ran1` on `(int)-avg` in 32-bit integers, its `AM * iy` and `(dev - 0.55) * factor` in
/// double (the literals are doubles and Tahiti has fp64), the sum converted with saturation
/// (toward zero); bit for bit.
pub fn urng(enc: Encoding) {
    let (w, h, factor) = (64usize, 16usize, 25i32);
    let image = random_rgba8(25, w * h);
    const IA: i32 = 16807;
    const IM: i32 = 2147483647;
    const IQ: i32 = 127773;
    const IR: i32 = 2836;
    const NDIV: i32 = 1 + (IM - 1) / 16;
    let step = |idum: i32| {
        let k = idum / IQ;
        let next = IA * (idum - k * IQ) - IR * k;
        if next < 0 {
            next + IM
        } else {
            next
        }
    };
    let mut want = vec![0u8; 4 * w * h];
    for pos in 0..w * h {
        let px: Vec<f32> = image[4 * pos..4 * pos + 4]
            .iter()
            .map(|&b| f32::from(b))
            .collect();
        let avg = (px[0] + px[1] + px[2] + px[1]) / 4.0;
        let mut idum = (-avg) as i32;
        let mut iv = [0i32; 16];
        for j in (0..=16).rev() {
            idum = step(idum);
            if j < 16 {
                iv[j] = idum;
            }
        }
        let iy = iv[0];
        let _ = step(idum);
        let iy = iv[(iy / NDIV) as usize];
        let dev = ((1.0 / f64::from(IM)) * f64::from(iy)) as f32;
        let dev = ((f64::from(dev) - 0.55) * f64::from(factor)) as f32;
        for c in 0..4 {
            want[4 * pos + c] = (px[c] + dev).clamp(0.0, 255.0) as u8;
        }
    }
    Launch {
        file: "URNG_Kernels.bin",
        kernel: "noise_uniform",
        global: dims(w as u32, h as u32),
        local: dims(64, 1),
        args: vec![buf(image), zero(4 * w * h), i32v(factor)],
    }
    .check(enc, &[(1, want)]);
}

/// SobelFilter (host: groups of the image's width; a 64 x 16 image of values below 64 here,
/// so every magnitude converts in range): `hypot(Gx, Gy) / 2` converted toward zero inside
/// the border, 0 on it; the ISA's hypot is an approximation, so each byte may be 1 below or
/// above the f64 model where that model is within 1e-3 of an integer.
pub fn sobel_filter(enc: Encoding) {
    let (w, h) = (64usize, 16usize);
    let image: Vec<u8> = Rng::new(26)
        .u32s(4 * w * h, 64)
        .iter()
        .map(|&v| v as u8)
        .collect();
    let mut model = vec![0f64; 4 * w * h];
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            for c in 0..4 {
                let p = |dx: i32, dy: i32| {
                    let (xx, yy) = ((x as i32 + dx) as usize, (y as i32 + dy) as usize);
                    f64::from(image[4 * (yy * w + xx) + c])
                };
                let gx = p(-1, -1) + 2.0 * p(0, -1) + p(1, -1) - p(-1, 1) - 2.0 * p(0, 1) - p(1, 1);
                let gy = p(-1, -1) - p(1, -1) + 2.0 * p(-1, 0) - 2.0 * p(1, 0) + p(-1, 1) - p(1, 1);
                model[4 * (y * w + x) + c] = gx.hypot(gy) / 2.0;
            }
        }
    }
    for r in runners("si/SobelFilter_Kernels.bin", enc) {
        let out = r.run(
            "sobel_filter",
            dims(w as u32, h as u32),
            dims(64, 1),
            &[buf(image.clone()), zero(4 * w * h)],
        );
        for (i, (&g, &m)) in out[1].iter().zip(&model).enumerate() {
            let exact = m.trunc() as i32;
            let near = (m - m.round()).abs() < 1e-3;
            let ok =
                i32::from(g) == exact || (near && (i32::from(g) - m.round() as i32).abs() <= 1);
            assert!(
                ok,
                "sobel on {:?}: byte {i} is {g}, the model's {m}",
                r.engine
            );
        }
    }
}

/// RecursiveGaussian: `transpose_kernel` (host: blocks of 16 x 16) moves uchar4 pixels to
/// `output[x * height + y]`, exactly; `RecursiveGaussian_kernel` runs the causal and
/// anti-causal passes down each column with coefficients that keep every value a short dyadic
/// fraction below 256 (a0 3/8, a1 1/8, a2 1/4, a3 1/8, feedback b1 = b2 = 0; the host derives
/// them from a sigma, the kernel takes any), so the f32 sums and the conversions to uchar
/// (toward zero) are exact.
pub fn recursive_gaussian(enc: Encoding) {
    let (w, h, bs) = (64usize, 32usize, 16usize);
    let image = random_rgba8(29, w * h);
    let mut transposed = vec![0u8; 4 * w * h];
    for y in 0..h {
        for x in 0..w {
            transposed[4 * (x * h + y)..4 * (x * h + y) + 4]
                .copy_from_slice(&image[4 * (y * w + x)..4 * (y * w + x) + 4]);
        }
    }
    Launch {
        file: "RecursiveGaussian_Kernels.bin",
        kernel: "transpose_kernel",
        global: dims(w as u32, h as u32),
        local: dims(bs as u32, bs as u32),
        args: vec![
            zero(4 * w * h),
            buf(image.clone()),
            local(4 * bs * bs),
            u32v(w as u32),
            u32v(h as u32),
            u32v(bs as u32),
        ],
    }
    .check(enc, &[(0, transposed)]);

    let (a0, a1, a2, a3) = (0.375f32, 0.125f32, 0.25f32, 0.125f32);
    let mut want = vec![0u8; 4 * w * h];
    for x in 0..w {
        for c in 0..4 {
            let px = |y: usize| f32::from(image[4 * (y * w + x) + c]);
            let mut xp = 0f32;
            for y in 0..h {
                want[4 * (y * w + x) + c] = (a0 * px(y) + a1 * xp) as u8;
                xp = px(y);
            }
            let (mut xn, mut xa) = (0f32, 0f32);
            for y in (0..h).rev() {
                let yc = a2 * xn + a3 * xa;
                xa = xn;
                xn = px(y);
                let at = 4 * (y * w + x) + c;
                want[at] = (f32::from(want[at]) + yc) as u8;
            }
        }
    }
    Launch {
        file: "RecursiveGaussian_Kernels.bin",
        kernel: "RecursiveGaussian_kernel",
        global: [w as u32, 1, 1],
        local: [64, 1, 1],
        args: vec![
            buf(image),
            zero(4 * w * h),
            i32v(w as i32),
            i32v(h as i32),
            f32v(a0),
            f32v(a1),
            f32v(a2),
            f32v(a3),
            f32v(0.0),
            f32v(0.0),
            f32v(0.0),
            f32v(0.0),
        ],
    }
    .check(enc, &[(1, want)]);
}
