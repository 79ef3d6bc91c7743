//! The corpus kernels of AMD APP SDK binaries for Southern Islands
//! (../shared/corpora/amd-app-sdk/si, read in place) with their host implementations, run
//! through the `amdapp` frontend on both engines in either encoding of the binary: its ISA
//! (tests/appsdk_run.rs) or its IL (tests/appsdk_il.rs).
//!
//! Every expected output is computed here on the host, from the kernel's OpenCL C source
//! (github Multi2Sim/m2s-bench-amdsdk-2.5-src @ f7238df `<Sample>/<Sample>_Kernels.cl`;
//! m2s-client-kit @ f580f07 for vector-add and matrix-mul), at sizes taken from its host
//! program, never from a run. Integer outputs must match bit for bit; a kernel that uses the
//! hardware's approximate exp, log, sin, cos or division is checked within the tolerance its
//! test states.
//!
//! `__local` arguments are given as `local:N` ([`ArgSpec::Local`]), by-value vectors as a
//! value of their size, by-value structs as a buffer of their bytes.
//!
//! Each kernel test is a function of the [`Encoding`] it runs; [`every_kernel!`] lists them
//! all, once, for the test files to generate their tests from. Under the IL encoding a kernel
//! the IL lifter refuses stops its test with a [`Refused`] payload (not a failure: the IL
//! tests compare it with the refusals they expect).
#![allow(dead_code)]

pub mod floats;
pub mod images;
pub mod ints;
pub mod models;

pub use crate::cli_util::Rng;
pub use wavejit::spec::{ArgSpec, ValueKind};

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;
use wavejit::launch::RunRequest;
use wavejit::EngineKind;

/// Calls `$m!` with every corpus kernel test as `module::function`, the one list the tests
/// of both encodings are made from.
macro_rules! every_kernel {
    ($m:ident) => {
        $m! {
            ints::vector_add,
            ints::matrix_mul,
            ints::binary_search,
            ints::bitonic_sort,
            ints::floyd_warshall,
            ints::reduction,
            ints::matrix_transpose,
            ints::histogram,
            ints::histogram_atomics,
            ints::radix_sort,
            ints::memory_optimizations,
            ints::device_fission_copy,
            floats::prefix_sum,
            floats::scan_large_arrays,
            floats::fast_walsh_transform,
            floats::simple_convolution,
            floats::quasi_random_sequence,
            floats::matrix_multiplication,
            floats::dct,
            floats::dwt_haar_1d,
            floats::eigen_value,
            images::box_filter_sat,
            images::box_filter_separable,
            images::box_filter_horizontal_local,
            images::urng,
            images::sobel_filter,
            images::recursive_gaussian,
            models::black_scholes,
            models::binomial_option,
            models::fft,
            models::mersenne_twister,
            models::monte_carlo_asian,
        }
    };
}
pub(crate) use every_kernel;

/// Which encoding of a binary's kernels runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// The Southern Islands ISA.
    Isa,
    /// AMD IL.
    Il,
}

impl Encoding {
    /// Its `--encoding` name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Isa => "isa",
            Encoding::Il => "il",
        }
    }
}

/// The payload a kernel test stops with when the IL lifter refuses its kernel: the one-line
/// error.
#[derive(Debug)]
pub struct Refused(pub String);

/// The directory of the corpus, or `None` after saying it is absent: `corpora/amd-app-sdk` in
/// `shared/` beside the clone, or in the directory `WAVEJIT_SHARED` names (a checkout that is
/// not beside `shared/`, such as a git worktree).
pub fn corpus_dir() -> Option<PathBuf> {
    wavejit::bench::appsdk::corpus_dir()
        .map_err(|e| println!("NOT RUN: {e}"))
        .ok()
}

/// A file of the corpus (`si/vector-add.bin`), or `None` after saying it is absent.
pub fn corpus(file: &str) -> Option<PathBuf> {
    let path = corpus_dir()?.join(file);
    if path.exists() {
        Some(path)
    } else {
        println!("NOT RUN: {} absent", path.display());
        None
    }
}

pub fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn i32_bytes(xs: &[i32]) -> Vec<u8> {
    xs.iter().flat_map(|w| w.to_le_bytes()).collect()
}

pub fn f32_bytes(xs: &[f32]) -> Vec<u8> {
    xs.iter().flat_map(|w| w.to_bits().to_le_bytes()).collect()
}

pub fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn f32s_of(bytes: &[u8]) -> Vec<f32> {
    words_of(bytes).into_iter().map(f32::from_bits).collect()
}

/// Floats in [0, 1) with 24 random mantissa bits: sums of a few thousand stay normal, so the
/// kernel's denormal flushing never applies and the host's f32 additions are the guest's.
pub fn unit_floats(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| (rng.u32() >> 8) as f32 / (1u32 << 24) as f32)
        .collect()
}

pub fn buf(bytes: Vec<u8>) -> ArgSpec {
    ArgSpec::Data(bytes)
}

pub fn zero(n: usize) -> ArgSpec {
    ArgSpec::Zero(n as u64)
}

/// A `__local` argument of `n` bytes.
pub fn local(n: usize) -> ArgSpec {
    ArgSpec::Local(n as u64)
}

pub fn u32v(v: u32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::U32,
        bits: u64::from(v),
    }
}

pub fn i32v(v: i32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::I32,
        bits: u64::from(v as u32),
    }
}

pub fn f32v(v: f32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::F32,
        bits: u64::from(v.to_bits()),
    }
}

pub fn dims(x: u32, y: u32) -> [u32; 3] {
    [x, y, 1]
}

/// A corpus file run on one engine in one encoding.
pub struct Runner {
    path: PathBuf,
    pub engine: EngineKind,
    encoding: Encoding,
}

/// One launch a kernel test made under [`recording`].
pub struct Recorded {
    pub path: PathBuf,
    pub kernel: String,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub args: Vec<ArgSpec>,
    /// Every argument's bytes after the launch, as [`Runner::run`] returns them.
    pub out: Vec<Vec<u8>>,
}

thread_local! {
    /// The launches of the kernel test [`recording`] runs on this thread.
    static RECORDING: RefCell<Option<Vec<Recorded>>> = const { RefCell::new(None) };
}

/// Runs `test` (a kernel test) on the JIT alone and returns its launches in order, with
/// their outputs.
pub fn recording(test: impl FnOnce()) -> Vec<Recorded> {
    RECORDING.with(|r| *r.borrow_mut() = Some(Vec::new()));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(test));
    let launches = RECORDING
        .with(|r| r.borrow_mut().take())
        .unwrap_or_default();
    if let Err(payload) = outcome {
        std::panic::resume_unwind(payload);
    }
    launches
}

impl Recorded {
    /// The same launch on the same inputs in `encoding` on the JIT: every argument's bytes
    /// after it, or the IL lifter's refusal.
    pub fn rerun(&self, encoding: Encoding) -> Result<Vec<Vec<u8>>, Refused> {
        let runner = Runner {
            path: self.path.clone(),
            engine: EngineKind::Jit,
            encoding,
        };
        runner.try_run(&self.kernel, self.global, self.local, &self.args)
    }
}

/// A runner of `file` (`si/X.bin`) per engine in `encoding` (the JIT's alone under
/// [`recording`]), none (after saying so) when it is absent.
pub fn runners(file: &str, encoding: Encoding) -> Vec<Runner> {
    let Some(path) = corpus(file) else {
        return Vec::new();
    };
    let engines: &[EngineKind] = if RECORDING.with(|r| r.borrow().is_some()) {
        &[EngineKind::Jit]
    } else {
        &[EngineKind::Jit, EngineKind::Interp]
    };
    engines
        .iter()
        .copied()
        .map(|engine| Runner {
            path: path.clone(),
            engine,
            encoding,
        })
        .collect()
}

impl Runner {
    /// Runs `kernel` once and returns every argument's bytes afterwards (empty for values and
    /// `__local` arguments). Under the IL encoding a kernel that does not lift stops the test
    /// with [`Refused`].
    pub fn run(
        &self,
        kernel: &str,
        global: [u32; 3],
        local: [u32; 3],
        args: &[ArgSpec],
    ) -> Vec<Vec<u8>> {
        let out = self
            .try_run(kernel, global, local, args)
            .unwrap_or_else(|refused| std::panic::resume_unwind(Box::new(refused)));
        RECORDING.with(|r| {
            if let Some(launches) = r.borrow_mut().as_mut() {
                launches.push(Recorded {
                    path: self.path.clone(),
                    kernel: kernel.to_string(),
                    global,
                    local,
                    args: args.to_vec(),
                    out: out.clone(),
                });
            }
        });
        out
    }

    /// [`Runner::run`], with the IL lifter's refusal as an error.
    fn try_run(
        &self,
        kernel: &str,
        global: [u32; 3],
        local: [u32; 3],
        args: &[ArgSpec],
    ) -> Result<Vec<Vec<u8>>, Refused> {
        let mut module = wavejit::registry::load(&self.path, None).expect("the binary loads");
        assert_eq!(module.target().isa, "amdapp");
        module
            .select_encoding(self.encoding.name())
            .expect("the binary has the encoding");
        if self.encoding == Encoding::Il {
            module.lift(kernel).map_err(|e| Refused(e.to_string()))?;
        }
        let req = RunRequest {
            kernel,
            global,
            work_dim: None,
            local,
            engine: self.engine,
            threads: 2,
            args,
            fuel: 1 << 32,
            timeout: Duration::from_secs(600),
        };
        let what = || {
            format!(
                "{} {kernel} ({}) on {:?}",
                self.path.display(),
                self.encoding.name(),
                self.engine
            )
        };
        let prepared =
            wavejit::launch::prepare(&*module, &req).unwrap_or_else(|e| panic!("{}: {e}", what()));
        prepared
            .dispatch()
            .unwrap_or_else(|e| panic!("{}: {e}", what()));
        Ok((0..args.len())
            .map(|i| prepared.buffer(i).unwrap_or_default())
            .collect())
    }

    /// `got` must equal `want` byte for byte; `what` names it in the message.
    pub fn same(&self, what: &str, got: &[u8], want: &[u8]) {
        assert_eq!(got.len(), want.len(), "{what} on {:?}: length", self.engine);
        if let Some(at) = (0..got.len()).find(|&b| got[b] != want[b]) {
            let w = at & !3;
            let end = (w + 4).min(got.len());
            panic!(
                "{what} on {:?}: differs first at byte {at} (dword {}): got {:02x?}, want {:02x?}",
                self.engine,
                at / 4,
                &got[w..end],
                &want[w..end]
            );
        }
    }

    /// Float outputs against a host model in f64: each within `rel` of the model's value
    /// (relative, or absolute below 1). For float kernels whose ISA computes `exp`, `log`,
    /// `sqrt` and divisions with AMD's approximations, which no host reproduces bit for bit.
    pub fn close(&self, what: &str, got: &[u8], want: &[f64], rel: f64) {
        let got = f32s_of(got);
        assert_eq!(got.len(), want.len(), "{what}: length");
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            let err = (f64::from(*g) - w).abs() / w.abs().max(1.0);
            assert!(
                err <= rel,
                "{what} on {:?}: element {i} is {g}, the model's {w} (error {err:e} > {rel:e})",
                self.engine
            );
        }
    }
}

/// One launch of a corpus kernel.
pub struct Launch<'a> {
    pub file: &'a str,
    pub kernel: &'a str,
    pub global: [u32; 3],
    pub local: [u32; 3],
    pub args: Vec<ArgSpec>,
}

impl Launch<'_> {
    /// Runs on both engines in `encoding`; argument `i`'s bytes must equal `want` (each
    /// `(i, want)`).
    pub fn check(&self, encoding: Encoding, want: &[(usize, Vec<u8>)]) {
        for r in runners(&format!("si/{}", self.file), encoding) {
            let out = r.run(self.kernel, self.global, self.local, &self.args);
            for (i, want) in want {
                r.same(&format!("{} argument {i}", self.kernel), &out[*i], want);
            }
        }
    }
}
