//! Float kernels whose every f32 operation the host repeats in the kernel's order (scans,
//! butterflies, convolutions, exact integer-valued products), and the two of approximate
//! division (DwtHaar1D, EigenValue) within their stated tolerances.

use super::*;

/// The work-efficient exclusive scan of PrefixSum's and ScanLargeArrays' `prefixSum` (and the
/// block scans of `ScanLargeArrays`) on one block, in the kernel's order of f32 additions:
/// the up-sweep, then (`sum` taken) the last element cleared and the down-sweep. Returns the
/// block's total before it is cleared.
fn block_scan(block: &mut [f32]) -> f32 {
    let n = block.len();
    let mut offset = 1;
    let mut d = n >> 1;
    while d > 0 {
        for tid in 0..d {
            let (ai, bi) = (offset * (2 * tid + 1) - 1, offset * (2 * tid + 2) - 1);
            block[bi] += block[ai];
        }
        offset *= 2;
        d >>= 1;
    }
    let total = block[n - 1];
    block[n - 1] = 0.0;
    let mut d = 1;
    while d < n {
        offset >>= 1;
        for tid in 0..d {
            let (ai, bi) = (offset * (2 * tid + 1) - 1, offset * (2 * tid + 2) - 1);
            let t = block[ai];
            block[ai] = block[bi];
            block[bi] += t;
        }
        d *= 2;
    }
    total
}

/// PrefixSum: one group of length/2 work-items scans `length` floats (host default 512).
pub fn prefix_sum(enc: Encoding) {
    let length = 512usize;
    let input = unit_floats(&mut Rng::new(8), length);
    let mut want = input.clone();
    block_scan(&mut want);
    Launch {
        file: "PrefixSum_Kernels.bin",
        kernel: "prefixSum",
        global: [length as u32 / 2, 1, 1],
        local: [length as u32 / 2, 1, 1],
        args: vec![
            zero(4 * length),
            buf(f32_bytes(&input)),
            local(4 * length),
            u32v(length as u32),
        ],
    }
    .check(enc, &[(0, f32_bytes(&want))]);
}

/// ScanLargeArrays as its host runs 1024 floats with blockSize 256 (one pass): the block scans
/// with their sums (`ScanLargeArrays`), the scan of the 4 sums (`prefixSum`), and their
/// addition to every block (`blockAddition`), each launch on the previous one's outputs.
pub fn scan_large_arrays(enc: Encoding) {
    let (length, bs) = (1024usize, 256usize);
    let blocks = length / bs;
    for r in runners("si/ScanLargeArrays_Kernels.bin", enc) {
        let input = unit_floats(&mut Rng::new(9), length);
        let mut scanned = input.clone();
        let sums: Vec<f32> = scanned.chunks_mut(bs).map(block_scan).collect();
        let out = r.run(
            "ScanLargeArrays",
            [length as u32 / 2, 1, 1],
            [bs as u32 / 2, 1, 1],
            &[
                zero(4 * length),
                buf(f32_bytes(&input)),
                local(4 * bs),
                u32v(bs as u32),
                u32v(length as u32),
                zero(4 * blocks),
            ],
        );
        r.same("ScanLargeArrays output", &out[0], &f32_bytes(&scanned));
        r.same("ScanLargeArrays sumBuffer", &out[5], &f32_bytes(&sums));

        let mut block_sums = sums.clone();
        block_scan(&mut block_sums);
        let out = r.run(
            "prefixSum",
            [blocks as u32 / 2, 1, 1],
            [blocks as u32 / 2, 1, 1],
            &[
                zero(4 * blocks),
                buf(f32_bytes(&sums)),
                local(4 * blocks),
                u32v(blocks as u32),
            ],
        );
        r.same("prefixSum output", &out[0], &f32_bytes(&block_sums));

        let mut total = scanned.clone();
        for (i, v) in total.iter_mut().enumerate() {
            *v += block_sums[i / bs];
        }
        let out = r.run(
            "blockAddition",
            [length as u32, 1, 1],
            [bs as u32, 1, 1],
            &[buf(f32_bytes(&block_sums)), buf(f32_bytes(&scanned))],
        );
        r.same("blockAddition output", &out[1], &f32_bytes(&total));
    }
}

/// FastWalshTransform: the host's launches for step = 1, 2, 4, ... < 1024 on 1024 floats
/// (512 work-items, groups of 256), each a butterfly `(T1 + T2, T1 - T2)`.
pub fn fast_walsh_transform(enc: Encoding) {
    let length = 1024usize;
    for r in runners("si/FastWalshTransform_Kernels.bin", enc) {
        let mut data: Vec<f32> = unit_floats(&mut Rng::new(10), length);
        let mut step = 1usize;
        while step < length {
            let out = r.run(
                "fastWalshTransform",
                [length as u32 / 2, 1, 1],
                [256, 1, 1],
                &[buf(f32_bytes(&data)), i32v(step as i32)],
            );
            for tid in 0..length / 2 {
                let pair = 2 * step * (tid / step) + tid % step;
                let (t1, t2) = (data[pair], data[pair + step]);
                data[pair] = t1 + t2;
                data[pair + step] = t1 - t2;
            }
            r.same(&format!("step {step}"), &out[0], &f32_bytes(&data));
            step <<= 1;
        }
    }
}

/// SimpleConvolution: a 3 x 3 mask (the host's cross of 1/5) over a 64 x 64 image of values
/// in [0, 255], clamped at the borders, summed in the kernel's order (i over x, then j over
/// y) and rounded by `(uint)(sum + 0.5f)`.
pub fn simple_convolution(enc: Encoding) {
    let (w, h, mw, mh) = (64usize, 64usize, 3usize, 3usize);
    let input = Rng::new(11).u32s(w * h, 256);
    let mut mask = vec![0f32; mw * mh];
    let val = 1.0f32 / (mw as f32 * 2.0 - 1.0);
    for i in 0..mw {
        mask[mh / 2 * mw + i] = val;
    }
    for i in 0..mh {
        mask[i * mw + mw / 2] = val;
    }
    let (vstep, hstep) = ((mw - 1) / 2, (mh - 1) / 2);
    let mut want = vec![0u32; w * h];
    for (tid, out) in want.iter_mut().enumerate() {
        let (x, y) = (tid % w, tid / w);
        let left = x.saturating_sub(vstep);
        let right = (x + vstep).min(w - 1);
        let top = y.saturating_sub(hstep);
        let bottom = (y + hstep).min(h - 1);
        let mut sum = 0f32;
        for i in left..=right {
            for j in top..=bottom {
                let m = (j + hstep - y) * mw + (i + vstep - x);
                sum += input[j * w + i] as f32 * mask[m];
            }
        }
        *out = (sum + 0.5) as u32;
    }
    let pair = |a: usize, b: usize| ArgSpec::Value {
        kind: ValueKind::U64,
        bits: a as u64 | (b as u64) << 32,
    };
    Launch {
        file: "SimpleConvolution_Kernels.bin",
        kernel: "simpleConvolution",
        global: [(w * h) as u32, 1, 1],
        local: [256, 1, 1],
        args: vec![
            zero(4 * w * h),
            buf(bytes_of(&input)),
            buf(f32_bytes(&mask)),
            pair(w, h),
            pair(mw, mh),
        ],
    }
    .check(enc, &[(0, bytes_of(&want))]);
}

/// QuasiRandomSequence (host: 8 dimensions of 1024 vectors, groups of 256 work-items, each
/// computing a uint4): element i of dimension j is the XOR of direction numbers
/// `input[32 j + k]` over the set bits k of i, converted to float (to nearest) and scaled by
/// 2^-32. Direction numbers are random words here (the kernel takes any).
pub fn quasi_random_sequence(enc: Encoding) {
    let (dimensions, vectors) = (8usize, 1024usize);
    let input = Rng::new(20).u32s(32 * dimensions, u32::MAX);
    let mut want = vec![0f32; dimensions * vectors];
    for j in 0..dimensions {
        for i in 0..vectors {
            let temp = (0..32)
                .filter(|k| i >> k & 1 == 1)
                .fold(0u32, |t, k| t ^ input[32 * j + k]);
            want[j * vectors + i] = temp as f32 / 4294967296.0;
        }
    }
    Launch {
        file: "QuasiRandomSequence_Kernels.bin",
        kernel: "QuasiRandomSequence",
        global: [(dimensions * vectors / 4) as u32, 1, 1],
        local: [(vectors / 4) as u32, 1, 1],
        args: vec![zero(4 * want.len()), buf(bytes_of(&input)), local(4 * 32)],
    }
    .check(enc, &[(0, f32_bytes(&want))]);
}

/// Small integer-valued floats: every product and partial sum of the kernels below is an
/// integer below 2^24, so it is exact in any order and with or without fused operations.
fn small_int_floats(rng: &mut Rng, n: usize, bound: i32) -> Vec<f32> {
    (0..n)
        .map(|_| rng.i32_in(-bound, bound + 1) as f32)
        .collect()
}

/// MatrixMultiplication's three kernels on the host's 64 x 64 matrices, groups of 8 x 8
/// work-items each computing a 4 x 4 tile (float4 columns): C = A x B, exactly.
pub fn matrix_multiplication(enc: Encoding) {
    let n = 64usize;
    let mut rng = Rng::new(21);
    let a = small_int_floats(&mut rng, n * n, 15);
    let b = small_int_floats(&mut rng, n * n, 15);
    let mut c = vec![0f32; n * n];
    for row in 0..n {
        for col in 0..n {
            c[row * n + col] = (0..n).map(|k| a[row * n + k] * b[k * n + col]).sum();
        }
    }
    let block = 4 * 32 * 32;
    let g = dims(n as u32 / 4, n as u32 / 4);
    let l = dims(8, 8);
    let ab = || vec![buf(f32_bytes(&a)), buf(f32_bytes(&b)), zero(4 * n * n)];
    let cases = [
        ("mmmKernel", vec![u32v(n as u32), u32v(n as u32)]),
        ("mmmKernel_local", vec![i32v(n as i32), local(block)]),
        (
            "mmmKernel_local2",
            vec![i32v(n as i32), local(block), local(block)],
        ),
    ];
    for (kernel, rest) in cases {
        Launch {
            file: "MatrixMultiplication_Kernels.bin",
            kernel,
            global: g,
            local: l,
            args: [ab(), rest].concat(),
        }
        .check(enc, &[(2, f32_bytes(&c))]);
    }
}

/// DCT (host: 64 x 64, blocks of 8 x 8, forward and inverse) with an integer-valued
/// coefficient matrix and input instead of the cosines (the kernel takes any): per block,
/// `inter[j][i] = sum_k M[k][i] X[k][j]` (forward; `M[i][k]` inverse), then
/// `out[j][i] = sum_k inter[i][k] M[k][j]` (forward; `M[j][k]` inverse), exactly.
pub fn dct(enc: Encoding) {
    let (w, bw) = (64usize, 8usize);
    let mut rng = Rng::new(22);
    let input = small_int_floats(&mut rng, w * w, 15);
    let m = small_int_floats(&mut rng, bw * bw, 3);
    for inverse in [0u32, 1] {
        let coef = |r: usize, c: usize| {
            if inverse == 1 {
                m[c * bw + r]
            } else {
                m[r * bw + c]
            }
        };
        let mut want = vec![0f32; w * w];
        for by in 0..w / bw {
            for bx in 0..w / bw {
                let x = |r: usize, c: usize| input[(by * bw + r) * w + bx * bw + c];
                let mut inter = vec![0f32; bw * bw];
                for j in 0..bw {
                    for i in 0..bw {
                        inter[j * bw + i] = (0..bw).map(|k| coef(k, i) * x(k, j)).sum();
                    }
                }
                for j in 0..bw {
                    for i in 0..bw {
                        want[(by * bw + j) * w + bx * bw + i] =
                            (0..bw).map(|k| inter[i * bw + k] * coef(k, j)).sum();
                    }
                }
            }
        }
        Launch {
            file: "DCT_Kernels.bin",
            kernel: "DCT",
            global: dims(w as u32, w as u32),
            local: dims(bw as u32, bw as u32),
            args: vec![
                zero(4 * w * w),
                buf(f32_bytes(&input)),
                buf(f32_bytes(&m)),
                local(4 * bw * bw),
                u32v(w as u32),
                u32v(bw as u32),
                u32v(inverse),
            ],
        }
        .check(enc, &[(0, f32_bytes(&want))]);
    }
}

/// DwtHaar1D as its host launches it first on 1024 samples (2 groups of 256, tLevels 10,
/// mLevels 9, levelsDone 0): each group scales its 512 samples by 1/sqrt(1024), then 9 levels
/// of Haar steps write `(d0 - d1) / sqrt(2)` to `coefsSignal[mid + group * active + l]` and keep
/// `(d0 + d1) / sqrt(2)`; `AverageSignal[group]` gets the last. Within 1e-6 (absolute) of the
/// f64 model; `coefsSignal[0..2]`, which the host fills, stay as given.
pub fn dwt_haar_1d(enc: Encoding) {
    let (n, group, levels) = (1024usize, 256usize, 9usize);
    let signal = unit_floats(&mut Rng::new(31), n);
    let mut coefs = vec![0f64; n];
    let mut averages = vec![0f64; n / (2 * group)];
    for g in 0..n / (2 * group) {
        let mut shared: Vec<f64> = signal[g * 2 * group..(g + 1) * 2 * group]
            .iter()
            .map(|&v| f64::from(v) / (n as f64).sqrt())
            .collect();
        let (mut active, mut mid) = (group, n / 2);
        for _ in 0..levels {
            let next: Vec<f64> = (0..active)
                .map(|l| (shared[2 * l] + shared[2 * l + 1]) / 2f64.sqrt())
                .collect();
            for l in 0..active {
                coefs[mid + g * active + l] = (shared[2 * l] - shared[2 * l + 1]) / 2f64.sqrt();
            }
            shared[..active].copy_from_slice(&next);
            active >>= 1;
            mid >>= 1;
        }
        averages[g] = shared[0];
    }
    for r in runners("si/DwtHaar1D_Kernels.bin", enc) {
        let out = r.run(
            "dwtHaar1D",
            [(n / 2) as u32, 1, 1],
            [group as u32, 1, 1],
            &[
                buf(f32_bytes(&signal)),
                zero(4 * n),
                zero(4 * averages.len()),
                local(4 * 2 * group),
                u32v(10),
                u32v(n as u32),
                u32v(0),
                u32v(levels as u32),
            ],
        );
        r.close("coefsSignal", &out[1], &coefs, 1e-6);
        r.close("AverageSignal", &out[2], &averages, 1e-6);
    }
}

/// The number of eigenvalues of the symmetric tridiagonal matrix below `x` (Sturm sequence,
/// as EigenValue's `calNumEigenValuesLessThan` counts them), in f64.
fn sturm_count(diag: &[f32], off: &[f32], x: f64) -> u32 {
    let mut prev = f64::from(diag[0]) - x;
    let mut count = u32::from(prev < 0.0);
    for i in 1..diag.len() {
        let o = f64::from(off[i - 1]);
        let d = f64::from(diag[i]) - x - o * o / prev;
        count += u32::from(d < 0.0);
        prev = d;
    }
    count
}

/// EigenValue as its host iterates it (a 256 x 256 tridiagonal matrix of values in [0, 255),
/// one group of 256): `calNumEigenValueInterval` counts the eigenvalues of the Gerschgorin
/// interval (all of them; the other intervals are empty), `recalculateEigenIntervals` splits
/// it into 256 equal intervals (within 1e-5 of the model: the ISA divides approximately), and
/// `calNumEigenValueInterval` counts them again, compared where no eigenvalue lies within
/// 1e-3 of an end (the f64 counts there agree on both sides).
pub fn eigen_value(enc: Encoding) {
    let n = 256usize;
    let mut rng = Rng::new(32);
    let diag: Vec<f32> = (0..n).map(|_| rng.below(255) as f32 + 0.5).collect();
    let off: Vec<f32> = (0..n - 1).map(|_| rng.below(255) as f32 + 0.25).collect();
    let (mut lo, mut hi) = (f32::MAX, f32::MIN);
    for i in 0..n {
        let r =
            if i > 0 { off[i - 1].abs() } else { 0.0 } + if i + 1 < n { off[i].abs() } else { 0.0 };
        lo = lo.min(diag[i] - r);
        hi = hi.max(diag[i] + r);
    }
    let mut intervals = vec![hi; 2 * n];
    intervals[0] = lo;
    let mut want_counts = vec![0u32; n];
    want_counts[0] = n as u32;
    for r in runners("si/EigenValue_Kernels.bin", enc) {
        let args = |intervals: &[f32]| {
            vec![
                zero(4 * n),
                buf(f32_bytes(intervals)),
                buf(f32_bytes(&diag)),
                buf(f32_bytes(&off)),
                u32v(n as u32),
            ]
        };
        let g = [n as u32, 1, 1];
        let counts = r.run("calNumEigenValueInterval", g, g, &args(&intervals));
        r.same("first counts", &counts[0], &bytes_of(&want_counts));

        let width = (f64::from(hi) - f64::from(lo)) / n as f64;
        let want: Vec<f64> = (0..2 * n)
            .map(|i| f64::from(lo) + width * (i / 2) as f64 + if i % 2 == 1 { width } else { 0.0 })
            .collect();
        let out = r.run(
            "recalculateEigenIntervals",
            g,
            g,
            &[
                zero(4 * 2 * n),
                buf(f32_bytes(&intervals)),
                buf(counts[0].clone()),
                buf(f32_bytes(&diag)),
                buf(f32_bytes(&off)),
                u32v(n as u32),
                f32v(0.001),
            ],
        );
        let scale = f64::from(hi.abs().max(lo.abs()));
        let split = f32s_of(&out[0]);
        for (i, (g, w)) in split.iter().zip(&want).enumerate() {
            assert!(
                (f64::from(*g) - w).abs() <= 1e-5 * scale,
                "interval end {i} is {g}, the model's {w}"
            );
        }

        let counts = words_of(&r.run("calNumEigenValueInterval", g, g, &args(&split))[0]);
        let decisive = |x: f32| {
            let x = f64::from(x);
            sturm_count(&diag, &off, x - 1e-3) == sturm_count(&diag, &off, x + 1e-3)
        };
        let mut compared = 0;
        for t in 0..n {
            let (l, u) = (split[2 * t], split[2 * t + 1]);
            if decisive(l) && decisive(u) {
                let want =
                    sturm_count(&diag, &off, f64::from(u)) - sturm_count(&diag, &off, f64::from(l));
                assert_eq!(counts[t], want, "interval {t} [{l}, {u}] on {:?}", r.engine);
                compared += 1;
            }
        }
        assert!(compared > n * 9 / 10, "{compared} intervals compared");
        assert_eq!(
            counts.iter().sum::<u32>(),
            n as u32,
            "every eigenvalue in one interval"
        );

        // The host's next step: intervals holding one eigenvalue are bisected (towards the
        // half holding it, by the counts at the midpoint), the others split again.
        let out = r.run(
            "recalculateEigenIntervals",
            g,
            g,
            &[
                zero(4 * 2 * n),
                buf(f32_bytes(&split)),
                buf(bytes_of(&counts)),
                buf(f32_bytes(&diag)),
                buf(f32_bytes(&off)),
                u32v(n as u32),
                f32v(0.001),
            ],
        );
        let next = f32s_of(&out[0]);
        let mut bisected = 0;
        for t in 0..n {
            let (mut index, mut current) = (0, t as u32);
            while current >= counts[index] {
                current -= counts[index];
                index += 1;
            }
            let (l, u) = (split[2 * index], split[2 * index + 1]);
            let got = (next[2 * t], next[2 * t + 1]);
            if counts[index] == 1 {
                let mid = (u + l) / 2.0;
                if !(decisive(mid) && decisive(l)) {
                    continue;
                }
                let below = sturm_count(&diag, &off, f64::from(mid))
                    - sturm_count(&diag, &off, f64::from(l));
                let want = if below == 0 { (mid, u) } else { (l, mid) };
                assert_eq!(
                    got, want,
                    "bisection of interval {index} for eigenvalue {t} on {:?}",
                    r.engine
                );
                bisected += 1;
            } else {
                let w = (f64::from(u) - f64::from(l)) / f64::from(counts[index]);
                let lower = f64::from(l) + w * f64::from(current);
                for (g, want) in [(got.0, lower), (got.1, lower + w)] {
                    assert!(
                        (f64::from(g) - want).abs() <= 1e-5 * scale,
                        "split {t}: {g}, the model's {want}"
                    );
                }
            }
        }
        assert!(bisected > n / 4, "{bisected} bisections compared");
    }
}
