//! Integer kernels and kernels that move data: every output bit for bit.

use super::*;

/// vector-add.cl: `dst[i] = src1[i] + src2[i]`, int, wrapping.
pub fn vector_add(enc: Encoding) {
    let n = 1000;
    let mut rng = Rng::new(1);
    let a: Vec<i32> = (0..n).map(|_| rng.u32() as i32).collect();
    let b: Vec<i32> = (0..n).map(|_| rng.u32() as i32).collect();
    let c: Vec<i32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    Launch {
        file: "vector-add.bin",
        kernel: "vector_add",
        global: dims(n as u32, 1),
        local: dims(40, 1),
        args: vec![buf(i32_bytes(&a)), buf(i32_bytes(&b)), zero(4 * n)],
    }
    .check(enc, &[(2, i32_bytes(&c))]);
}

/// matrix-mul.cl (m2s-client-kit si-emu-matrix-mul, host `matrix-mul 50 10`): both tiles are
/// read from A (B is unused), so `C = A x A`: `C[row][col] = sum_k A[row][k] * A[k][col]`.
pub fn matrix_mul(enc: Encoding) {
    let (dim, ldim) = (50usize, 10usize);
    let mut rng = Rng::new(2);
    let a: Vec<i32> = (0..dim * dim).map(|_| rng.i32_in(-3000, 3000)).collect();
    let b: Vec<i32> = (0..dim * dim).map(|_| rng.i32_in(-3000, 3000)).collect();
    let mut c = vec![0i32; dim * dim];
    for row in 0..dim {
        for col in 0..dim {
            c[row * dim + col] = (0..dim)
                .map(|k| a[row * dim + k].wrapping_mul(a[k * dim + col]))
                .fold(0i32, i32::wrapping_add);
        }
    }
    Launch {
        file: "matrix-mul.bin",
        kernel: "matrix_mul",
        global: dims(dim as u32, dim as u32),
        local: dims(ldim as u32, ldim as u32),
        args: vec![
            buf(i32_bytes(&a)),
            buf(i32_bytes(&b)),
            zero(4 * dim * dim),
            local(4 * ldim * ldim),
            local(4 * ldim * ldim),
        ],
    }
    .check(
        enc,
        &[(0, i32_bytes(&a)), (1, i32_bytes(&b)), (2, i32_bytes(&c))],
    );
}

/// BinarySearch: each work-item checks its segment `[lb + s*tid, lb + s*tid + s - 1]`; the one
/// whose end elements enclose `findMe` writes its bounds to x, y and 1 to w of `outputArray[0]`
/// (z untouched). Host defaults: 512 elements, 256 work-items of one group, so `s` = 2; and a
/// 65536-element array (256 segments of 256).
pub fn binary_search(enc: Encoding) {
    for r in runners("si/BinarySearch_Kernels.bin", enc) {
        let mut rng = Rng::new(3);
        for (length, find) in [(512u32, Some(300usize)), (512, None), (65536, Some(40000))] {
            let mut sorted = Vec::with_capacity(length as usize);
            let mut v = 0u32;
            for _ in 0..length {
                v += 2 + rng.below(1000);
                sorted.push(v);
            }
            // Absent: between the last element of a segment (of 2) and the first of the next
            // (elements differ by 2 at least), so no segment encloses it.
            let find_me = find.map_or(sorted[101] + 1, |i| sorted[i]);
            let subdiv = length / 256;
            let initial = [0xAAAA_AAAAu32, 0xBBBB_BBBB, 0xCCCC_CCCC, 0];
            let mut want = initial;
            for tid in 0..256 {
                let (lb, ub) = (subdiv * tid, subdiv * tid + subdiv - 1);
                if !(sorted[lb as usize] > find_me || sorted[ub as usize] < find_me) {
                    want = [lb, ub, initial[2], 1];
                }
            }
            let out = r.run(
                "binarySearch",
                [256, 1, 1],
                [256, 1, 1],
                &[
                    buf(bytes_of(&initial)),
                    buf(bytes_of(&sorted)),
                    u32v(find_me),
                    u32v(0),
                    u32v(length - 1),
                    u32v(subdiv),
                ],
            );
            r.same("binarySearch outputArray", &out[0], &bytes_of(&want));
            assert_eq!(want[3], u32::from(find.is_some()));
        }
    }
}

/// BitonicSort: the host's whole sort of 1024 elements, every (stage, pass) a launch of 512
/// work-items in groups of GROUP_SIZE = 1, direction 0 as the host passes it; each pass checked
/// against the kernel's own compare-exchange, and the result sorted.
pub fn bitonic_sort(enc: Encoding) {
    let length = 1024u32;
    for r in runners("si/BitonicSort_Kernels.bin", enc) {
        let mut data = Rng::new(4).u32s(length as usize, u32::MAX);
        let direction = 0u32;
        let stages = length.trailing_zeros();
        for stage in 0..stages {
            for pass in 0..=stage {
                let out = r.run(
                    "bitonicSort",
                    [length / 2, 1, 1],
                    [1, 1, 1],
                    &[
                        buf(bytes_of(&data)),
                        u32v(stage),
                        u32v(pass),
                        u32v(length),
                        u32v(direction),
                    ],
                );
                let pair_distance = 1u32 << (stage - pass);
                for tid in 0..length / 2 {
                    let left =
                        (tid % pair_distance + tid / pair_distance * 2 * pair_distance) as usize;
                    let right = left + pair_distance as usize;
                    let mut increasing = direction;
                    if (tid / (1 << stage)) % 2 == 1 {
                        increasing = 1 - increasing;
                    }
                    let (l, g) = (data[left].min(data[right]), data[left].max(data[right]));
                    (data[left], data[right]) = if increasing != 0 { (l, g) } else { (g, l) };
                }
                r.same(
                    &format!("bitonicSort stage {stage} pass {pass}"),
                    &out[0],
                    &bytes_of(&data),
                );
            }
        }
        assert!(
            data.windows(2).all(|w| w[0] >= w[1]),
            "direction 0 sorts descending"
        );
    }
}

/// FloydWarshall: every pass k relaxes `d[y][x]` through node k and records k in the path
/// matrix where the indirect distance is strictly shorter; work-group y handles row y.
/// Distances in [0, 200) (MAXDISTANCE), zero diagonal, path matrix initialised as the host
/// does; all 64 passes of a 64-node graph (the host's default is 256 nodes).
pub fn floyd_warshall(enc: Encoding) {
    let n = 64usize;
    for r in runners("si/FloydWarshall_Kernels.bin", enc) {
        let mut rng = Rng::new(5);
        let mut dist = rng.u32s(n * n, 200);
        let mut path = vec![0u32; n * n];
        for i in 0..n {
            dist[i * n + i] = 0;
            for j in 0..n {
                path[i * n + j] = if j <= i { i as u32 } else { j as u32 };
            }
        }
        for k in 0..n {
            let out = r.run(
                "floydWarshallPass",
                [(n * n) as u32, 1, 1],
                [n as u32, 1, 1],
                &[
                    buf(bytes_of(&dist)),
                    buf(bytes_of(&path)),
                    u32v(n as u32),
                    u32v(k as u32),
                ],
            );
            for y in 0..n {
                for x in 0..n {
                    let indirect = dist[y * n + k] + dist[k * n + x];
                    if indirect < dist[y * n + x] {
                        dist[y * n + x] = indirect;
                        path[y * n + x] = k as u32;
                    }
                }
            }
            r.same(&format!("pass {k} distances"), &out[0], &bytes_of(&dist));
            r.same(&format!("pass {k} paths"), &out[1], &bytes_of(&path));
        }
    }
}

/// Reduction: each group of 256 work-items sums its 256 uint4 (per component, wrapping) into
/// `output[group]`; 2048 uint4 (8 groups; the host's default of 1024 values is one group).
pub fn reduction(enc: Encoding) {
    let (n4, group) = (2048usize, 256usize);
    let input = Rng::new(6).u32s(4 * n4, u32::MAX);
    let mut want = vec![0u32; 4 * n4 / group];
    for (i, v) in input.iter().enumerate() {
        let g = i / 4 / group;
        want[4 * g + i % 4] = want[4 * g + i % 4].wrapping_add(*v);
    }
    Launch {
        file: "Reduction_Kernels.bin",
        kernel: "reduce",
        global: [n4 as u32, 1, 1],
        local: [group as u32, 1, 1],
        args: vec![
            buf(bytes_of(&input)),
            zero(4 * want.len()),
            local(16 * group),
        ],
    }
    .check(enc, &[(1, bytes_of(&want))]);
}

/// MatrixTranspose: `output[x * height + y] = input[y * width + x]` through a `__local` block
/// of blockSize x blockSize; host defaults 64 x 64, blockSize 16. The data are arbitrary bit
/// patterns: the kernel only moves them.
pub fn matrix_transpose(enc: Encoding) {
    let (w, h, bs) = (64usize, 64usize, 16usize);
    let input = Rng::new(7).u32s(w * h, u32::MAX);
    let mut want = vec![0u32; w * h];
    for y in 0..h {
        for x in 0..w {
            want[x * h + y] = input[y * w + x];
        }
    }
    Launch {
        file: "MatrixTranspose_Kernels.bin",
        kernel: "matrixTranspose",
        global: dims(w as u32, h as u32),
        local: dims(bs as u32, bs as u32),
        args: vec![
            zero(4 * w * h),
            buf(bytes_of(&input)),
            local(4 * bs * bs),
            u32v(w as u32),
            u32v(h as u32),
            u32v(bs as u32),
        ],
    }
    .check(enc, &[(0, bytes_of(&want))]);
}

/// Histogram: 1024 x 1024 values in [0, 256) (the host's defaults), work-groups of 128 with a
/// byte sub-histogram per work-item (counts wrap at 256, as the kernel's uchar does); each
/// group writes its 256 bins.
pub fn histogram(enc: Encoding) {
    let (values, group, bins) = (1024 * 1024usize, 128usize, 256usize);
    let data = Rng::new(12).u32s(values, 256);
    let threads = values / bins;
    let groups = threads / group;
    let mut want = vec![0u32; groups * bins];
    for g in 0..groups {
        for l in 0..group {
            let mut mine = [0u8; 256];
            for i in 0..bins {
                let v = data[g * group * bins + i * group + l] as usize;
                mine[v] = mine[v].wrapping_add(1);
            }
            for (b, c) in mine.iter().enumerate() {
                want[g * bins + b] += u32::from(*c);
            }
        }
    }
    Launch {
        file: "Histogram_Kernels.bin",
        kernel: "histogram256",
        global: [threads as u32, 1, 1],
        local: [group as u32, 1, 1],
        args: vec![
            buf(bytes_of(&data)),
            local(group * bins),
            zero(4 * groups * bins),
        ],
    }
    .check(enc, &[(2, bytes_of(&want))]);
}

/// HistogramAtomics: `histogramKernel` (reqd_work_group_size 256) counts the bytes of the
/// uint4 each work-item reads (`Image[tid + i * global]`) into LDS sub-histograms with
/// `atom_inc`, one row of 256 bins per group; `reduceKernel` then sums the rows into row 0.
/// 1024 work-items, 4 uint4 each (the host runs 65536 x 64).
pub fn histogram_atomics(enc: Encoding) {
    let (threads, group, per) = (1024usize, 256usize, 4usize);
    let groups = threads / group;
    for r in runners("si/HistogramAtomics_Kernels.bin", enc) {
        let image = Rng::new(13).u32s(4 * threads * per, u32::MAX);
        let mut rows = vec![0u32; groups * 256];
        for tid in 0..threads {
            for i in 0..per {
                let idx = tid + i * threads;
                for word in &image[4 * idx..4 * idx + 4] {
                    for byte in word.to_le_bytes() {
                        rows[tid / group * 256 + byte as usize] += 1;
                    }
                }
            }
        }
        let out = r.run(
            "histogramKernel",
            [threads as u32, 1, 1],
            [group as u32, 1, 1],
            &[
                buf(bytes_of(&image)),
                zero(4 * groups * 256),
                u32v(per as u32),
            ],
        );
        r.same("histogramKernel rows", &out[1], &bytes_of(&rows));

        let mut reduced = rows.clone();
        for b in 0..256 {
            reduced[b] = (0..groups).map(|g| rows[g * 256 + b]).sum();
        }
        let out = r.run(
            "reduceKernel",
            [256, 1, 1],
            [256, 1, 1],
            &[buf(bytes_of(&rows)), u32v(groups as u32)],
        );
        r.same("reduceKernel", &out[0], &bytes_of(&reduced));
    }
}

/// RadixSort as its host runs it on 16384 values (8192 rounded up to GROUP_SIZE x RADICES):
/// for each byte, `histogram` (64 work-items, each counting its 256 values into u16 LDS bins),
/// the host's scan of the bins in (radix, group, work-item) order, and `permute` scattering
/// every value to its bin's next index; the result is sorted.
pub fn radix_sort(enc: Encoding) {
    let (count, group) = (16384usize, 64usize);
    let threads = count / 256;
    for r in runners("si/RadixSort_Kernels.bin", enc) {
        let mut data = Rng::new(14).u32s(count, u32::MAX);
        for shift in [0u32, 8, 16, 24] {
            let mut bins = vec![0u32; threads * 256];
            for t in 0..threads {
                for i in 0..256 {
                    let v = (data[t * 256 + i] >> shift) & 0xff;
                    bins[t * 256 + v as usize] += 1;
                }
            }
            let out = r.run(
                "histogram",
                [threads as u32, 1, 1],
                [group as u32, 1, 1],
                &[
                    buf(bytes_of(&data)),
                    zero(4 * bins.len()),
                    u32v(shift),
                    local(2 * group * 256),
                ],
            );
            r.same(
                &format!("histogram shift {shift}"),
                &out[1],
                &bytes_of(&bins),
            );

            let mut scanned = bins.clone();
            let mut sum = 0;
            for radix in 0..256 {
                for t in 0..threads {
                    let at = t * 256 + radix;
                    scanned[at] = sum;
                    sum += bins[at];
                }
            }
            let mut sorted = vec![0u32; count];
            let mut next = scanned.clone();
            for t in 0..threads {
                for i in 0..256 {
                    let v = data[t * 256 + i];
                    let at = t * 256 + ((v >> shift) & 0xff) as usize;
                    sorted[next[at] as usize] = v;
                    next[at] += 1;
                }
            }
            let out = r.run(
                "permute",
                [threads as u32, 1, 1],
                [group as u32, 1, 1],
                &[
                    buf(bytes_of(&data)),
                    buf(bytes_of(&scanned)),
                    u32v(shift),
                    local(2 * group * 256),
                    zero(4 * count),
                ],
            );
            r.same(
                &format!("permute shift {shift}"),
                &out[4],
                &bytes_of(&sorted),
            );
            data = sorted;
        }
        assert!(data.windows(2).all(|w| w[0] <= w[1]));
    }
}

/// A copy kernel, its grid and its expected output.
type CopyCase = (&'static str, [u32; 3], [u32; 3], Vec<u8>);

/// MemoryOptimizations: seven copy kernels (`output[i] = input[i]` for the indices each
/// work-item computes), each launched as its host launches it (2D kernels over 1024-wide rows;
/// `NoCoal` and `Split` with the 1024 x N grid of 64 x 1 groups the host leaves set); the
/// bytes of every index no work-item copies stay zero. The data are arbitrary bit patterns.
pub fn memory_optimizations(enc: Encoding) {
    let rows = 16usize;
    let input = Rng::new(15).u32s(4 * 1024 * rows, u32::MAX);
    let copied = |indices: &mut dyn Iterator<Item = usize>, elem: usize| {
        let mut want = vec![0u32; input.len()];
        for i in indices {
            want[elem * i..elem * i + elem].copy_from_slice(&input[elem * i..elem * i + elem]);
        }
        bytes_of(&want)
    };
    let n = 1024 * rows;
    let cases: Vec<CopyCase> = vec![
        (
            "copy1DFastPath",
            [n as u32, 1, 1],
            [256, 1, 1],
            copied(&mut (0..n), 1),
        ),
        (
            "copy1DCompletePath",
            [n as u32, 1, 1],
            [256, 1, 1],
            copied(&mut (0..n), 1),
        ),
        (
            "copy2Dfloat",
            dims(1024, rows as u32),
            dims(64, 2),
            copied(&mut (0..n), 1),
        ),
        (
            "copy2Dfloat4",
            dims(1024, rows as u32),
            dims(16, 16),
            copied(&mut (0..n), 4),
        ),
        (
            "copy1Dfloat4",
            [n as u32, 1, 1],
            [64, 1, 1],
            copied(&mut (0..n), 4),
        ),
        // gid - 1, or gid + 15 for the first of each 16: every x below 1024, whatever y.
        (
            "NoCoal",
            dims(1024, 4),
            dims(64, 1),
            copied(&mut (0..1024), 1),
        ),
        // Odd x copy themselves; even x copy 62 - local id (`gid & !63` is 0).
        (
            "Split",
            dims(1024, 4),
            dims(64, 1),
            copied(
                &mut (0..1024).filter(|x| x % 2 == 1).chain((0..=62).step_by(2)),
                1,
            ),
        ),
    ];
    for r in runners("si/MemoryOptimizations_Kernels.bin", enc) {
        for (kernel, global, local, want) in &cases {
            let out = r.run(
                kernel,
                *global,
                *local,
                &[buf(bytes_of(&input)), zero(4 * input.len())],
            );
            r.same(kernel, &out[1], want);
        }
    }
}

/// DeviceFission `copy`: `output[i] = input[i]`.
pub fn device_fission_copy(enc: Encoding) {
    let input = Rng::new(16).u32s(4096, u32::MAX);
    Launch {
        file: "DeviceFission_Kernels.bin",
        kernel: "copy",
        global: [4096, 1, 1],
        local: [64, 1, 1],
        args: vec![buf(bytes_of(&input)), zero(4 * 4096)],
    }
    .check(enc, &[(1, bytes_of(&input))]);
}
