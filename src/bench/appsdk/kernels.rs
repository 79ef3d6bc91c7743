//! The suite's kernels: each a corpus binary's kernel with its grid and its arguments at the
//! suite's size, the inputs generated here with fixed seeds.

use crate::bench::suite::{f32v, u32v, Rng, SuiteKernel};
use crate::spec::{ArgSpec, ValueKind};

/// A corpus kernel at its benchmark size.
pub struct AppSdkKernel {
    /// The binary, under `corpora/amd-app-sdk/si`.
    pub file: &'static str,
    /// The kernel (its `name`), its grid and its arguments.
    pub launch: SuiteKernel,
}

fn i32v(v: i32) -> ArgSpec {
    u32v(v as u32)
}

fn local(bytes: u32) -> ArgSpec {
    ArgSpec::Local(u64::from(bytes))
}

fn zero(bytes: u32) -> ArgSpec {
    ArgSpec::Zero(u64::from(bytes))
}

/// Two 32-bit values as one `uint2` argument.
fn uint2(x: u32, y: u32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::U64,
        bits: u64::from(x) | u64::from(y) << 32,
    }
}

fn f32_bytes(xs: impl IntoIterator<Item = f32>) -> Vec<u8> {
    xs.into_iter().flat_map(f32::to_le_bytes).collect()
}

/// `n` floats in [0, 1) with 24 random mantissa bits.
fn unit_floats(rng: &mut Rng, n: u32) -> Vec<u8> {
    f32_bytes((0..n).map(|_| (rng.next() >> 40) as f32 / (1u32 << 24) as f32))
}

/// `n` random bytes below `below`.
fn bytes_below(rng: &mut Rng, n: u32, below: u64) -> Vec<u8> {
    (0..n).map(|_| (rng.next() % below) as u8).collect()
}

/// `size` divided by the scale, at least `min`, a multiple of `step`.
fn scaled(size: u32, s: u32, min: u32, step: u32) -> u32 {
    (size / s).max(min).next_multiple_of(step)
}

fn kernel(
    file: &'static str,
    name: &'static str,
    size: &'static str,
    global: [u32; 3],
    local: [u32; 3],
    args: Vec<ArgSpec>,
) -> AppSdkKernel {
    AppSdkKernel {
        file,
        launch: SuiteKernel {
            name,
            size,
            global,
            local,
            args,
        },
    }
}

/// The suite; `scale` divides every size (1: the real suite). The sizes the report names are
/// the real suite's.
pub fn kernels(scale: u32) -> Vec<AppSdkKernel> {
    let s = scale.max(1);
    let mut rng = Rng(0xa3d_5d4);
    let mut v = Vec::new();

    let n = scaled(1 << 22, s, 256, 256);
    let (a, b) = (
        rng.words(n as usize, u32::MAX),
        rng.words(n as usize, u32::MAX),
    );
    v.push(kernel(
        "vector-add.bin",
        "vector_add",
        "2^22 ints",
        [n, 1, 1],
        [256, 1, 1],
        vec![ArgSpec::Data(a), ArgSpec::Data(b), zero(4 * n)],
    ));

    // Both tiles are read from A (m2s-client-kit's matrix-mul.cl).
    let d = scaled(256, s, 16, 16);
    v.push(kernel(
        "matrix-mul.bin",
        "matrix_mul",
        "256x256 ints, 16x16 tiles",
        [d, d, 1],
        [16, 16, 1],
        vec![
            ArgSpec::Data(rng.words((d * d) as usize, 1 << 12)),
            ArgSpec::Data(rng.words((d * d) as usize, 1 << 12)),
            zero(4 * d * d),
            local(4 * 16 * 16),
            local(4 * 16 * 16),
        ],
    ));

    let n = scaled(1 << 22, s, 512, 512);
    let stage = n.trailing_zeros() - 1;
    v.push(kernel(
        "BitonicSort_Kernels.bin",
        "bitonicSort",
        "2^22 uints, one pass",
        [n / 2, 1, 1],
        [256, 1, 1],
        vec![
            ArgSpec::Data(rng.words(n as usize, u32::MAX)),
            u32v(stage),
            u32v(0),
            u32v(n),
            u32v(1),
        ],
    ));

    let n4 = scaled(1 << 20, s, 256, 256);
    v.push(kernel(
        "Reduction_Kernels.bin",
        "reduce",
        "2^20 uint4",
        [n4, 1, 1],
        [256, 1, 1],
        vec![
            ArgSpec::Data(rng.words(4 * n4 as usize, u32::MAX)),
            zero(16 * n4 / 256),
            local(16 * 256),
        ],
    ));

    let w = scaled(1024, s, 16, 16);
    v.push(kernel(
        "MatrixTranspose_Kernels.bin",
        "matrixTranspose",
        "1024x1024, blocks of 16",
        [w, w, 1],
        [16, 16, 1],
        vec![
            zero(4 * w * w),
            ArgSpec::Data(rng.words((w * w) as usize, u32::MAX)),
            local(4 * 16 * 16),
            u32v(w),
            u32v(w),
            u32v(16),
        ],
    ));

    // Each work-item counts 256 values into its own byte bins.
    let values = scaled(1 << 24, s, 128 * 256, 128 * 256);
    let threads = values / 256;
    v.push(kernel(
        "Histogram_Kernels.bin",
        "histogram256",
        "2^24 values",
        [threads, 1, 1],
        [128, 1, 1],
        vec![
            ArgSpec::Data(rng.words(values as usize, 256)),
            local(128 * 256),
            zero(4 * threads / 128 * 256),
        ],
    ));

    let count = scaled(1 << 22, s, 64 * 256, 64 * 256);
    v.push(kernel(
        "RadixSort_Kernels.bin",
        "histogram",
        "2^22 uints, bits 8-15",
        [count / 256, 1, 1],
        [64, 1, 1],
        vec![
            ArgSpec::Data(rng.words(count as usize, u32::MAX)),
            zero(4 * count),
            u32v(8),
            local(2 * 64 * 256),
        ],
    ));

    let n = scaled(1 << 22, s, 256, 256);
    v.push(kernel(
        "ScanLargeArrays_Kernels.bin",
        "ScanLargeArrays",
        "2^22 floats, blocks of 256",
        [n / 2, 1, 1],
        [128, 1, 1],
        vec![
            zero(4 * n),
            ArgSpec::Data(rng.floats(n as usize)),
            local(4 * 256),
            u32v(256),
            u32v(n),
            zero(4 * n / 256),
        ],
    ));

    let n = scaled(1 << 22, s, 512, 512);
    v.push(kernel(
        "FastWalshTransform_Kernels.bin",
        "fastWalshTransform",
        "2^22 floats, step 256",
        [n / 2, 1, 1],
        [256, 1, 1],
        vec![ArgSpec::Data(rng.floats(n as usize)), i32v(256)],
    ));

    let h = scaled(512, s, 16, 16);
    v.push(kernel(
        "SimpleConvolution_Kernels.bin",
        "simpleConvolution",
        "1024x512, 5x5 mask",
        [1024 * h, 1, 1],
        [256, 1, 1],
        vec![
            zero(4 * 1024 * h),
            ArgSpec::Data(rng.words((1024 * h) as usize, 256)),
            ArgSpec::Data(rng.floats(25)),
            uint2(1024, h),
            uint2(5, 5),
        ],
    ));

    // A work-group per dimension, 1024 vectors each (four per work-item).
    let dims = scaled(512, s, 1, 1);
    v.push(kernel(
        "QuasiRandomSequence_Kernels.bin",
        "QuasiRandomSequence",
        "512 dimensions x 1024",
        [256 * dims, 1, 1],
        [256, 1, 1],
        vec![
            zero(4 * 1024 * dims),
            ArgSpec::Data(rng.words(32 * dims as usize, u32::MAX)),
            local(4 * 32),
        ],
    ));

    // Each work-item computes a 4x4 tile; the LDS block is the group's rows of A.
    let n = scaled(256, s, 32, 32);
    v.push(kernel(
        "MatrixMultiplication_Kernels.bin",
        "mmmKernel_local",
        "256x256x256 floats",
        [n / 4, n / 4, 1],
        [8, 8, 1],
        vec![
            ArgSpec::Data(rng.floats((n * n) as usize)),
            ArgSpec::Data(rng.floats((n * n) as usize)),
            zero(4 * n * n),
            i32v(n as i32),
            local(4 * 32 * 32),
        ],
    ));

    let w = scaled(1024, s, 8, 8);
    v.push(kernel(
        "DCT_Kernels.bin",
        "DCT",
        "1024x1024, 8x8 blocks",
        [w, w, 1],
        [8, 8, 1],
        vec![
            zero(4 * w * w),
            ArgSpec::Data(rng.floats((w * w) as usize)),
            ArgSpec::Data(rng.floats(64)),
            local(4 * 64),
            u32v(w),
            u32v(8),
            u32v(0),
        ],
    ));

    // Each group transforms its 512 samples through 9 levels.
    let n = scaled(1 << 20, s, 512, 512);
    v.push(kernel(
        "DwtHaar1D_Kernels.bin",
        "dwtHaar1D",
        "2^20 samples",
        [n / 2, 1, 1],
        [256, 1, 1],
        vec![
            ArgSpec::Data(unit_floats(&mut rng, n)),
            zero(4 * n),
            zero(4 * n / 512),
            local(4 * 512),
            u32v(n.trailing_zeros()),
            u32v(n),
            u32v(0),
            u32v(9),
        ],
    ));

    // Each work-item counts the eigenvalues in its interval by two Sturm sequences over the
    // whole tridiagonal matrix; the intervals split its Gerschgorin bounds evenly.
    let n = scaled(2048, s, 256, 256);
    let diag: Vec<f32> = (0..n).map(|_| (rng.next() % 255) as f32 + 0.5).collect();
    let off: Vec<f32> = (0..n).map(|_| (rng.next() % 255) as f32 + 0.25).collect();
    let (lo, hi) = (-520.0f32, 780.0f32);
    let ends = (0..2 * n).map(|i| lo + (hi - lo) * (i / 2 + i % 2) as f32 / n as f32);
    v.push(kernel(
        "EigenValue_Kernels.bin",
        "calNumEigenValueInterval",
        "2048 intervals, 2048x2048",
        [n, 1, 1],
        [256, 1, 1],
        vec![
            zero(4 * n),
            ArgSpec::Data(f32_bytes(ends)),
            ArgSpec::Data(f32_bytes(diag)),
            ArgSpec::Data(f32_bytes(off)),
            u32v(n),
        ],
    ));

    let h = scaled(1024, s, 1, 1);
    v.push(kernel(
        "BoxFilter_Kernels.bin",
        "box_filter_horizontal",
        "1024x1024 uchar4, width 9",
        [1024, h, 1],
        [256, 1, 1],
        vec![
            ArgSpec::Data(bytes_below(&mut rng, 4 * 1024 * h, 256)),
            zero(4 * 1024 * h),
            i32v(9),
        ],
    ));

    // Pixels below 64, so that every gradient converts to a byte in range.
    let h = scaled(1024, s, 1, 1);
    v.push(kernel(
        "SobelFilter_Kernels.bin",
        "sobel_filter",
        "1024x1024 uchar4",
        [1024, h, 1],
        [64, 1, 1],
        vec![
            ArgSpec::Data(bytes_below(&mut rng, 4 * 1024 * h, 64)),
            zero(4 * 1024 * h),
        ],
    ));

    // A work-item per column; stable feedback (poles of modulus 0.32).
    let w = scaled(2048, s, 64, 64);
    v.push(kernel(
        "RecursiveGaussian_Kernels.bin",
        "RecursiveGaussian_kernel",
        "2048 columns of 1024",
        [w, 1, 1],
        [64, 1, 1],
        vec![
            ArgSpec::Data(bytes_below(&mut rng, 4 * w * 1024, 256)),
            zero(4 * w * 1024),
            i32v(w as i32),
            i32v(1024),
            f32v(0.1),
            f32v(0.05),
            f32v(0.05),
            f32v(-0.02),
            f32v(-0.6),
            f32v(0.1),
            f32v(1.0),
            f32v(1.0),
        ],
    ));

    let h = scaled(256, s, 16, 16);
    v.push(kernel(
        "BlackScholes_Kernels.bin",
        "blackScholes",
        "256x256 float4 options",
        [256, h, 1],
        [16, 16, 1],
        vec![
            ArgSpec::Data(unit_floats(&mut rng, 4 * 256 * h)),
            i32v(256),
            zero(16 * 256 * h),
            zero(16 * 256 * h),
        ],
    ));

    // A work-group of numSteps + 1 work-items per float4 of options.
    let samples = scaled(64, s, 1, 1);
    v.push(kernel(
        "BinomialOption_Kernels.bin",
        "binomial_options",
        "64 float4 options, 254 steps",
        [255 * samples, 1, 1],
        [255, 1, 1],
        vec![
            i32v(254),
            ArgSpec::Data(unit_floats(&mut rng, 4 * samples)),
            zero(16 * samples),
            local(16 * 255),
            local(16 * 254),
        ],
    ));

    let h = scaled(256, s, 1, 1);
    v.push(kernel(
        "MersenneTwister_Kernels.bin",
        "gaussianRand",
        "256x256 seeds, mulFactor 2",
        [256, h, 1],
        [64, 1, 1],
        vec![
            ArgSpec::Data(rng.words(4 * 256 * h as usize, u32::MAX)),
            u32v(256),
            u32v(2),
            zero(4 * 4 * 2 * 256 * h),
        ],
    ));

    // The host program's MonteCarloAttrib (initial price 50, strike 55, interest 0.06,
    // maturity 1, 12 sums) with sigma 0.1, each field a float4 of one value.
    let (sums, sigma) = (12, 0.1f32);
    let step = 1.0 / (sums - 1) as f32;
    let attrib = [
        55.0,
        (0.06 - 0.5 * sigma * sigma) * step,
        sigma * step.sqrt(),
        0.06 + 0.5 * sigma * sigma,
        50.0,
        sigma,
        step,
    ];
    let h = scaled(64, s, 1, 1);
    v.push(kernel(
        "MonteCarloAsian_Kernels.bin",
        "calPriceVega",
        "256x64 seeds, 12 sums",
        [256, h, 1],
        [64, 1, 1],
        vec![
            ArgSpec::Data(f32_bytes(attrib.iter().flat_map(|f| [*f; 4]))),
            i32v(sums),
            i32v(256),
            ArgSpec::Data(rng.words(4 * 256 * h as usize, u32::MAX)),
            zero(32 * 256 * h),
            zero(32 * 256 * h),
        ],
    ));
    v
}
