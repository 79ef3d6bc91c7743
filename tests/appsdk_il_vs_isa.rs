//! The two encodings of every corpus kernel against each other: each launch of each kernel
//! test of tests/appsdk_kernels, recorded in the ISA encoding on the JIT
//! ([`appsdk_kernels::recording`]), runs again in the IL encoding on the same inputs, and
//! every buffer argument afterwards is compared element by element, as the kernel's metadata
//! types it: integers exactly (the largest difference), floats in ulps (the distance between
//! the two values in the ordered sequence of finite values; a NaN or infinity against a
//! number counts as unbounded).
//!
//! [`EXPECTED`] says what each kernel gives: identical outputs, or float outputs that differ
//! by at most a bound of ulps for a reason read off the two encodings (`wavejit disasm FILE
//! --kernel K` and `--encoding il`), where AMD's ISA compiler computed something else than the
//! IL it compiled from. Two such rewrites exist in the corpus: the IL's divisions become a
//! reciprocal and a multiply, and the IL's radian `sin_vec`/`cos_vec` become the ISA's sine
//! and cosine of turns. Its multiply-adds are not among them: the IL's `mad_ieee` and SI's
//! `v_mad_f32`/`v_mac_f32` both round the product, and the ISA's `v_fma_f32` are the IL's
//! `fma`. A kernel that then agrees exactly fails until its entry says so. One engine
//! suffices: both engines are checked against the host in each encoding by
//! tests/appsdk_run.rs and tests/appsdk_il.rs.

mod appsdk_kernels;
mod cli_util;

use appsdk_kernels::{corpus_dir, recording, Encoding, Recorded};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use wavejit_amdil::appsdk::metadata::Access;
use wavejit_amdil::appsdk::{AddressSpace, ArgKind};

/// How the IL and the ISA of a kernel compare on the same inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Agreement {
    /// Every buffer bit for bit.
    Identical,
    /// Every buffer bit for bit on the test's inputs, although the ISA rewrites some of the
    /// IL's computations as `note` says (other inputs can differ).
    IdenticalHere { note: &'static str },
    /// Float outputs differ, each element by at most `ulps`, because of `reason`.
    Differs { ulps: u64, reason: &'static str },
    /// The IL lifter refuses the kernel (tests/appsdk_il.rs checks the refusal's text).
    Refused,
}

use Agreement::{Differs, Identical, IdenticalHere, Refused};

/// The reason of a kernel whose ISA computes its IL's divisions `what` as the compiler
/// does: a reciprocal and a multiply (the multiply sometimes folded into an unfused
/// `v_mad_f32`, which rounds its product all the same).
macro_rules! division {
    ($what:literal) => {
        concat!(
            "IL `div_zeroop(infinity)` x / y (one rounding) is `v_rcp_f32` 1/y, then x times it, in the ISA (two roundings): ",
            $what
        )
    };
}

/// Every corpus kernel the kernel tests launch, as `(file, kernel)`, and how its encodings
/// compare. The reasons were found in the disassemblies and then checked by lifting the IL
/// as the ISA computes (`div` as `frcp` and `fmul`, `sin_vec`/`cos_vec` of x as the
/// functions in turns of `fmul_legacy(x, 0x3e22f983)`): every kernel then gave identical
/// outputs.
const EXPECTED: &[(&str, &str, Agreement)] = &[
    ("vector-add", "vector_add", Identical),
    ("matrix-mul", "matrix_mul", Identical),
    ("BinarySearch_Kernels", "binarySearch", Identical),
    ("BitonicSort_Kernels", "bitonicSort", Identical),
    ("FloydWarshall_Kernels", "floydWarshallPass", Identical),
    ("Reduction_Kernels", "reduce", Identical),
    ("MatrixTranspose_Kernels", "matrixTranspose", Identical),
    ("Histogram_Kernels", "histogram256", Identical),
    ("HistogramAtomics_Kernels", "histogramKernel", Identical),
    ("HistogramAtomics_Kernels", "reduceKernel", Identical),
    ("RadixSort_Kernels", "histogram", Identical),
    ("RadixSort_Kernels", "permute", Identical),
    ("MemoryOptimizations_Kernels", "copy1DFastPath", Identical),
    ("MemoryOptimizations_Kernels", "copy1DCompletePath", Identical),
    ("MemoryOptimizations_Kernels", "copy2Dfloat", Identical),
    ("MemoryOptimizations_Kernels", "copy2Dfloat4", Identical),
    ("MemoryOptimizations_Kernels", "copy1Dfloat4", Identical),
    ("MemoryOptimizations_Kernels", "NoCoal", Identical),
    ("MemoryOptimizations_Kernels", "Split", Identical),
    ("DeviceFission_Kernels", "copy", Identical),
    ("PrefixSum_Kernels", "prefixSum", Identical),
    ("ScanLargeArrays_Kernels", "ScanLargeArrays", Identical),
    ("ScanLargeArrays_Kernels", "prefixSum", Identical),
    ("ScanLargeArrays_Kernels", "blockAddition", Identical),
    ("FastWalshTransform_Kernels", "fastWalshTransform", Identical),
    ("SimpleConvolution_Kernels", "simpleConvolution", Identical),
    ("QuasiRandomSequence_Kernels", "QuasiRandomSequence", Identical),
    ("MatrixMultiplication_Kernels", "mmmKernel", Identical),
    ("MatrixMultiplication_Kernels", "mmmKernel_local", Identical),
    ("MatrixMultiplication_Kernels", "mmmKernel_local2", Identical),
    ("DCT_Kernels", "DCT", Identical),
    ("DwtHaar1D_Kernels", "dwtHaar1D", Identical),
    ("EigenValue_Kernels", "calNumEigenValueInterval", Identical),
    (
        "EigenValue_Kernels",
        "recalculateEigenIntervals",
        Differs {
            ulps: 8,
            reason: division!("the interval width (u - l) / count, which the new ends l + k * width multiply"),
        },
    ),
    ("BoxFilter_Kernels", "horizontalSAT0", Identical),
    ("BoxFilter_Kernels", "horizontalSAT", Identical),
    ("BoxFilter_Kernels", "verticalSAT", Identical),
    ("BoxFilter_Kernels", "box_filter", Identical),
    ("BoxFilter_Kernels", "box_filter_horizontal", Identical),
    ("BoxFilter_Kernels", "box_filter_vertical", Identical),
    ("BoxFilter_Kernels", "box_filter_horizontal_local", Identical),
    ("URNG_Kernels", "noise_uniform", Identical),
    ("SobelFilter_Kernels", "sobel_filter", Identical),
    ("RecursiveGaussian_Kernels", "transpose_kernel", Identical),
    ("RecursiveGaussian_Kernels", "RecursiveGaussian_kernel", Identical),
    (
        "BlackScholes_Kernels",
        "blackScholes",
        Differs {
            ulps: 1664,
            reason: division!("its 15 float4 divisions (among them S / K, d1's quotient by sigma sqrt(T) and the normal CDF's 1 / (1 + 0.2316419 |x|)); call and put prices near 0 show them in ulps"),
        },
    ),
    (
        "BinomialOption_Kernels",
        "binomial_options",
        Differs {
            ulps: 175,
            reason: division!("its 7 float4 divisions (among them 1 / u, pu = (r - d) / (u - d), pu / r and (1 - pu) / r), carried through the 254 steps"),
        },
    ),
    (
        "FFT_Kernels",
        "kfft",
        Differs {
            ulps: 12288,
            reason: "IL `sin_vec`/`cos_vec` (native_sin/native_cos) take radians; the ISA multiplies \
                     by 1/(2 pi) (`v_mul_legacy_f32` by 0x3e22f983), takes the fraction (`v_fract_f32`) \
                     and runs `v_sin_f32`/`v_cos_f32` in turns: the angle is rounded once more",
        },
    ),
    (
        "MersenneTwister_Kernels",
        "gaussianRand",
        IdenticalHere {
            note: division!(
                "two of its 3 float4 divisions are by 2^32, exact either way; the third, f / (2 + f) of the inlined log, rounds alike on these 2048 outputs (82 of a 256x256 grid's 524288 differ, `wavejit bench --suite appsdk`)"
            ),
        },
    ),
    (
        "MonteCarloAsian_Kernels",
        "calPriceVega",
        Differs {
            ulps: 2048,
            reason: division!("its 15 float4 divisions (among them the price over the initial price inside log, the quotient by sigma and the means over noOfSum)"),
        },
    ),
    ("MonteCarloAsianDP_Kernels", "calPriceVega", Refused),
];

/// An element type of a buffer, from its pointer's metadata (a vector's components are its
/// elements: a `float4*` buffer of n vectors has 4n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Elem {
    Int { bytes: usize, signed: bool },
    F32,
    F64,
}

impl Elem {
    fn of(pointee: &str) -> Elem {
        match pointee {
            "float" => Elem::F32,
            "double" => Elem::F64,
            "i8" | "u8" => Elem::Int {
                bytes: 1,
                signed: pointee == "i8",
            },
            "i16" | "u16" => Elem::Int {
                bytes: 2,
                signed: pointee == "i16",
            },
            "i64" | "u64" => Elem::Int {
                bytes: 8,
                signed: pointee == "i64",
            },
            _ => Elem::Int {
                bytes: 4,
                signed: pointee == "i32",
            },
        }
    }

    fn bytes(self) -> usize {
        match self {
            Elem::Int { bytes, .. } => bytes,
            Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }

    /// An element's place on the number line differences are counted on, and its value: an
    /// integer is both; a float's place is its index among the floats in order (both zeros
    /// at 0, so a difference is in ulps), `None` for a NaN or infinity.
    fn place(self, bytes: &[u8]) -> (Option<i128>, f64) {
        let mut w = [0u8; 8];
        w[..bytes.len()].copy_from_slice(bytes);
        let raw = u64::from_le_bytes(w);
        let (magnitude, negative, value) = match self {
            Elem::Int { bytes, signed } => {
                let bits = 8 * bytes as u32;
                let v = if signed && bits < 64 {
                    ((raw << (64 - bits)) as i64 >> (64 - bits)) as i128
                } else if signed {
                    raw as i64 as i128
                } else {
                    raw as i128
                };
                return (Some(v), v as f64);
            }
            Elem::F32 => {
                let f = f32::from_bits(raw as u32);
                (raw & 0x7fff_ffff, raw >> 31 == 1, f64::from(f))
            }
            Elem::F64 => (raw & !(1 << 63), raw >> 63 == 1, f64::from_bits(raw)),
        };
        let place = if negative {
            -(magnitude as i128)
        } else {
            magnitude as i128
        };
        (value.is_finite().then_some(place), value)
    }
}

/// One buffer argument of a kernel, over all its launches.
struct BufferDiff {
    name: String,
    elem: Elem,
    /// The kernel may write it (its metadata access is not RO).
    written: bool,
    elems: usize,
    /// Elements whose bits differ.
    differing: usize,
    /// The largest difference (ulps for floats).
    max: u128,
    /// Some element is a NaN or infinity in one encoding and differs in the other.
    unbounded: bool,
    /// The largest |difference| of values, and the largest |value| of the ISA's.
    max_abs: f64,
    largest: f64,
}

/// A kernel over all its launches.
struct KernelDiff {
    file: String,
    kernel: String,
    launches: usize,
    /// Its global buffer arguments, by argument index.
    buffers: BTreeMap<usize, BufferDiff>,
    /// The IL lifter's refusal.
    refused: Option<String>,
}

impl KernelDiff {
    fn identical(&self) -> bool {
        self.buffers.values().all(|b| b.differing == 0)
    }

    /// The largest difference of its buffers, `None` if unbounded.
    fn max(&self) -> Option<u128> {
        let bufs = self.buffers.values();
        (!bufs.clone().any(|b| b.unbounded)).then(|| bufs.map(|b| b.max).max().unwrap_or(0))
    }

    /// Only float buffers differ.
    fn floats_only(&self) -> bool {
        self.buffers
            .values()
            .all(|b| b.differing == 0 || b.elem.is_float())
    }

    /// The largest ratio of a buffer's largest |difference| to its largest |value|.
    fn relative(&self) -> f64 {
        self.buffers
            .values()
            .filter(|b| b.differing > 0 && b.largest > 0.0)
            .map(|b| b.max_abs / b.largest)
            .fold(0.0, f64::max)
    }
}

/// Adds one recorded launch's buffers, against the IL's, to `diff`.
fn compare(rec: &Recorded, il: &[Vec<u8>], diff: &mut KernelDiff) {
    let binary = wavejit_amdil::appsdk::load(&std::fs::read(&rec.path).unwrap()).unwrap();
    let kernel = binary.kernel(&rec.kernel).unwrap();
    for (i, arg) in kernel.metadata.args.iter().enumerate() {
        let ArgKind::Pointer(p) = &arg.kind else {
            continue;
        };
        if p.space != AddressSpace::Global {
            continue;
        }
        let b = diff.buffers.entry(i).or_insert_with(|| BufferDiff {
            name: arg.name.clone(),
            elem: Elem::of(&p.pointee),
            written: p.access != Access::ReadOnly,
            elems: 0,
            differing: 0,
            max: 0,
            unbounded: false,
            max_abs: 0.0,
            largest: 0.0,
        });
        let (isa, il) = (&rec.out[i], &il[i]);
        assert_eq!(isa.len(), il.len(), "{} argument {i}: length", rec.kernel);
        let n = b.elem.bytes();
        for (x, y) in isa.chunks_exact(n).zip(il.chunks_exact(n)) {
            b.elems += 1;
            let ((px, vx), (py, vy)) = (b.elem.place(x), b.elem.place(y));
            if vx.is_finite() {
                b.largest = b.largest.max(vx.abs());
            }
            if x == y {
                continue;
            }
            b.differing += 1;
            match (px, py) {
                (Some(px), Some(py)) => {
                    b.max = b.max.max(px.abs_diff(py));
                    b.max_abs = b.max_abs.max((vx - vy).abs());
                }
                _ => b.unbounded = true,
            }
        }
    }
}

/// Runs the kernel test `body` in the ISA encoding, recording, and each launch again in the
/// IL encoding; the kernels' differences, in the order the test first launches them.
fn kernel_diffs(body: fn(Encoding)) -> Vec<KernelDiff> {
    let mut diffs: Vec<KernelDiff> = Vec::new();
    for rec in recording(|| body(Encoding::Isa)) {
        let file = rec.path.file_stem().unwrap().to_str().unwrap().to_string();
        let at = diffs
            .iter()
            .position(|d| d.file == file && d.kernel == rec.kernel)
            .unwrap_or_else(|| {
                diffs.push(KernelDiff {
                    file,
                    kernel: rec.kernel.clone(),
                    launches: 0,
                    buffers: BTreeMap::new(),
                    refused: None,
                });
                diffs.len() - 1
            });
        let diff = &mut diffs[at];
        diff.launches += 1;
        if diff.refused.is_some() {
            continue;
        }
        match rec.rerun(Encoding::Il) {
            Ok(il) => compare(&rec, &il, diff),
            Err(refused) => diff.refused = Some(refused.0),
        }
    }
    diffs
}

/// What `d` measured, in words.
fn measured(d: &KernelDiff) -> String {
    match (&d.refused, d.identical(), d.max()) {
        (Some(r), _, _) => format!("refused ({r})"),
        (None, true, _) => "identical".into(),
        (None, false, Some(m)) => format!("differs by {m}"),
        (None, false, None) => "differs unboundedly".into(),
    }
}

/// The report's row of `d`.
fn row(d: &KernelDiff, expected: Option<&Agreement>) -> String {
    let outputs: Vec<String> = d
        .buffers
        .values()
        .filter(|b| b.written || b.differing > 0)
        .map(|b| format!("{} {}/{}", b.name, b.differing, b.elems))
        .collect();
    let unit = if d.floats_only() { " ulp" } else { "" };
    let (verdict, max, relative) = match (&d.refused, d.identical(), d.max()) {
        (Some(_), _, _) => ("not run", "-".into(), "-".into()),
        (None, true, _) => ("identical", "0".into(), "0".into()),
        (None, false, Some(m)) => (
            "differs",
            format!("{m}{unit}"),
            format!("{:.1e}", d.relative()),
        ),
        (None, false, None) => ("differs", "unbounded".into(), "-".into()),
    };
    let reason = match (expected, &d.refused) {
        (_, Some(r)) => format!("the IL lifter refuses it: {r}"),
        (Some(Differs { reason, .. } | IdenticalHere { note: reason }), None) => reason.to_string(),
        _ => String::new(),
    };
    format!(
        "| {} `{}` | {} | {} | {verdict} | {max} | {relative} | {reason} |",
        d.file.trim_end_matches("_Kernels"),
        d.kernel,
        d.launches,
        outputs.join(", ")
    )
}

/// `d` against its [`EXPECTED`] entry: the mismatch, if any.
fn check(d: &KernelDiff, expected: Option<&Agreement>) -> Option<String> {
    let what = format!("{} {}: {}", d.file, d.kernel, measured(d));
    let Some(expected) = expected else {
        return Some(format!("{what}; EXPECTED has no entry"));
    };
    let ok = match expected {
        Refused => d.refused.is_some(),
        _ if d.refused.is_some() => false,
        Identical | IdenticalHere { .. } => d.identical(),
        Differs { ulps, .. } => {
            !d.identical() && d.floats_only() && d.max().is_some_and(|m| m <= u128::from(*ulps))
        }
    };
    (!ok).then(|| format!("{what}; EXPECTED says {expected:?}"))
}

/// Every kernel test, as a function of its encoding.
macro_rules! kernel_tests {
    ($($module:ident :: $kernel:ident),* $(,)?) => {
        const KERNEL_TESTS: &[fn(Encoding)] = &[$(appsdk_kernels::$module::$kernel),*];
    };
}
appsdk_kernels::every_kernel!(kernel_tests);

/// Every kernel's IL against its ISA on the launches of its test, as [`EXPECTED`] says;
/// prints the report (the README's "IL vs ISA" table).
#[test]
fn il_and_isa_agree_as_expected() {
    if corpus_dir().is_none() {
        return;
    }
    let mut report = String::from(
        "| kernel | launches | written buffers: differing / elements | IL vs ISA | max difference | max abs. difference / max abs. value | reason |\n\
         |---|---:|---|---|---:|---:|---|\n",
    );
    let mut mismatches = Vec::new();
    let mut seen = Vec::new();
    for body in KERNEL_TESTS {
        for d in kernel_diffs(*body) {
            let expected = EXPECTED
                .iter()
                .find(|e| e.0 == d.file && e.1 == d.kernel)
                .map(|e| &e.2);
            let _ = writeln!(report, "{}", row(&d, expected));
            mismatches.extend(check(&d, expected));
            seen.push((d.file, d.kernel));
        }
    }
    println!("{report}");
    for (file, kernel, _) in EXPECTED {
        if !seen.iter().any(|s| s.0 == *file && s.1 == *kernel) {
            mismatches.push(format!(
                "EXPECTED names {file} {kernel}, which no test launches"
            ));
        }
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
