//! AMD APP SDK OpenCL binaries for Southern Islands (../shared/corpora/amd-app-sdk/si, read in
//! place) run through the `amdapp` frontend under the driver's launch ABI, on both engines.
//!
//! Every expected output is computed here on the host, from the kernel's OpenCL C source
//! (github Multi2Sim/m2s-bench-amdsdk-2.5-src @ f7238df `<Sample>/<Sample>_Kernels.cl`;
//! m2s-client-kit @ f580f07 for vector-add and matrix-mul), at sizes taken from its host
//! program, never from a run; outputs must match bit for bit.
//!
//! `__local` arguments are given as `zero:N` buffers of their size (the launch reads only the
//! size), by-value vectors as a value of their size.

mod cli_util;

use std::path::PathBuf;
use std::time::Duration;
use wavejit::launch::RunRequest;
use wavejit::spec::{ArgSpec, ValueKind};
use wavejit::EngineKind;

/// A file of the corpus (`si/vector-add.bin`), or `None` after saying it is absent.
fn corpus(file: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/amd-app-sdk")
        .join(file);
    if path.exists() {
        Some(path)
    } else {
        println!("NOT RUN: {} absent", path.display());
        None
    }
}

/// Deterministic pseudo-random numbers (xorshift64*), one stream per seed.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    fn below(&mut self, n: u32) -> u32 {
        self.u32() % n
    }
    fn i32_in(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo) as u32) as i32
    }
    fn u32s(&mut self, n: usize, below: u32) -> Vec<u32> {
        (0..n).map(|_| self.below(below)).collect()
    }
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn i32_bytes(xs: &[i32]) -> Vec<u8> {
    xs.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn f32_bytes(xs: &[f32]) -> Vec<u8> {
    xs.iter().flat_map(|w| w.to_bits().to_le_bytes()).collect()
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn buf(bytes: Vec<u8>) -> ArgSpec {
    ArgSpec::Data(bytes)
}

fn zero(n: usize) -> ArgSpec {
    ArgSpec::Zero(n as u64)
}

/// A `__local` argument of `n` bytes.
fn local(n: usize) -> ArgSpec {
    ArgSpec::Zero(n as u64)
}

fn u32v(v: u32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::U32,
        bits: u64::from(v),
    }
}

fn i32v(v: i32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::I32,
        bits: u64::from(v as u32),
    }
}

fn f32v(v: f32) -> ArgSpec {
    ArgSpec::Value {
        kind: ValueKind::F32,
        bits: u64::from(v.to_bits()),
    }
}

/// One launch of a corpus kernel.
struct Launch<'a> {
    file: &'a str,
    kernel: &'a str,
    global: [u32; 3],
    local: [u32; 3],
    args: Vec<ArgSpec>,
}

impl Launch<'_> {
    /// Runs the launch on `engine` and returns every argument's bytes afterwards (empty for
    /// values), or `None` when the corpus is absent.
    fn run_on(&self, engine: EngineKind) -> Option<Vec<Vec<u8>>> {
        let path = corpus(&format!("si/{}", self.file))?;
        let module = wavejit::registry::load(&path, None).expect("the binary loads");
        assert_eq!(module.target().isa, "amdapp");
        let req = RunRequest {
            kernel: self.kernel,
            global: self.global,
            local: self.local,
            engine,
            threads: 2,
            args: &self.args,
            fuel: 1 << 32,
            timeout: Duration::from_secs(600),
        };
        let prepared = wavejit::launch::prepare(&*module, &req)
            .unwrap_or_else(|e| panic!("{} {}: {e}", self.file, self.kernel));
        prepared
            .dispatch()
            .unwrap_or_else(|e| panic!("{} {} on {engine:?}: {e}", self.file, self.kernel));
        Some(
            (0..self.args.len())
                .map(|i| prepared.buffer(i).unwrap_or_default())
                .collect(),
        )
    }

    /// Runs on both engines; argument `i`'s bytes must equal `want` (each `(i, want)`).
    fn check(&self, want: &[(usize, Vec<u8>)]) {
        for engine in [EngineKind::Jit, EngineKind::Interp] {
            let Some(out) = self.run_on(engine) else {
                return;
            };
            for (i, want) in want {
                let got = &out[*i];
                assert_eq!(got.len(), want.len());
                if let Some(at) = (0..got.len()).find(|&b| got[b] != want[b]) {
                    panic!(
                        "{} {} on {engine:?}: argument {i} differs first at byte {at} (dword {}): got {:02x?}, want {:02x?}",
                        self.file,
                        self.kernel,
                        at / 4,
                        &got[at & !3..(at & !3) + 4],
                        &want[at & !3..(at & !3) + 4]
                    );
                }
            }
        }
    }
}

fn dims(x: u32, y: u32) -> [u32; 3] {
    [x, y, 1]
}

/// vector-add.cl: `dst[i] = src1[i] + src2[i]`, int, wrapping.
#[test]
fn vector_add() {
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
    .check(&[(2, i32_bytes(&c))]);
}

/// matrix-mul.cl (m2s-client-kit si-emu-matrix-mul, host `matrix-mul 50 10`): both tiles are
/// read from A (B is unused), so `C = A x A`: `C[row][col] = sum_k A[row][k] * A[k][col]`.
#[test]
fn matrix_mul() {
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
    .check(&[(0, i32_bytes(&a)), (1, i32_bytes(&b)), (2, i32_bytes(&c))]);
}

/// The corpus file as a command-line argument, or `None` after saying it is absent.
fn corpus_arg(file: &str) -> Option<String> {
    corpus(file).map(|p| p.to_str().expect("a UTF-8 path").to_string())
}

/// The mnemonics of Multi2Sim's golden disassembly of si/vector-add.bin (m2s-client-kit
/// f580f07, local-tests/test-auto/si-asm-vector-add/test.out), in order.
const VECTOR_ADD_GOLDEN: [&str; 24] = [
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_buffer_load_dword",
    "s_load_dwordx4",
    "s_load_dwordx4",
    "s_load_dwordx4",
    "s_waitcnt",
    "s_min_u32",
    "v_mov_b32",
    "v_mul_i32_i24",
    "v_add_i32",
    "v_add_i32",
    "v_lshlrev_b32",
    "v_add_i32",
    "v_add_i32",
    "v_add_i32",
    "tbuffer_load_format_x",
    "tbuffer_load_format_x",
    "s_waitcnt",
    "v_add_i32",
    "tbuffer_store_format_x",
    "s_endpgm",
];

/// `info` names the kernel's arguments with their CB1 offsets and UAVs and its user
/// elements; `disasm` prints the ISA encoding in the GCN syntax, instruction for instruction
/// as Multi2Sim's golden listing.
#[test]
fn cli_info_and_disasm() {
    let Some(file) = corpus_arg("si/vector-add.bin") else {
        return;
    };
    let info = cli_util::succeeds(&["info", &file]);
    for line in [
        "target: tahiti (Southern Islands, GCN gfx6)",
        "kernel vector_add:",
        "user element PTR_UAV_TABLE[0] -> s[2:3]",
        "user element IMM_CONST_BUFFER[1] -> s[8:11]",
        "arg 1: cb1+16  4 bytes, int* src2: global pointer, uav 12",
        "arg 2: cb1+32  4 bytes, int* dst: global pointer, uav 10",
    ] {
        assert!(info.contains(line), "info lacks {line:?}:\n{info}");
    }
    let listing = cli_util::succeeds(&["disasm", &file, "--kernel", "vector_add"]);
    let mnemonics: Vec<&str> = listing
        .lines()
        .filter(|l| l.starts_with('\t'))
        .map(|l| l.trim().split(' ').next().unwrap_or(""))
        .map(|m| {
            m.strip_suffix("_e32")
                .or(m.strip_suffix("_e64"))
                .unwrap_or(m)
        })
        .collect();
    assert_eq!(mnemonics, VECTOR_ADD_GOLDEN, "{listing}");
    assert!(
        listing.contains("s_load_dwordx4 s[8:11], s[2:3], 0x58"),
        "{listing}"
    );
}

/// `run` from the command line: files in, `--save` out, exit 0.
#[test]
fn cli_run_vector_add() {
    let Some(file) = corpus_arg("si/vector-add.bin") else {
        return;
    };
    let a: Vec<u32> = (0..256).collect();
    let b: Vec<u32> = (0..256).map(|i| 1000 * i + 7).collect();
    let (fa, fb) = (
        cli_util::TempFile::new("a.bin", bytes_of(&a)),
        cli_util::TempFile::new("b.bin", bytes_of(&b)),
    );
    let out = cli_util::temp_path("c.bin");
    let out_s = out.to_str().unwrap();
    for engine in ["jit", "interp"] {
        cli_util::succeeds(&[
            "run",
            &file,
            "--kernel",
            "vector_add",
            "--global",
            "256",
            "--local",
            "64",
            "--engine",
            engine,
            "--arg",
            &format!("buf:{}", &*fa),
            "--arg",
            &format!("buf:{}", &*fb),
            "--arg",
            "zero:1024",
            "--save",
            &format!("2:{out_s}"),
        ]);
        let got = words_of(&std::fs::read(&out).unwrap());
        std::fs::remove_file(&out).unwrap();
        let want: Vec<u32> = (0..256).map(|i| 1001 * i + 7).collect();
        assert_eq!(got, want, "{engine}");
    }
}

/// Kernels taking images stop with one line naming the image argument.
#[test]
fn image_kernels_are_refused_naming_the_image() {
    for (file, kernel, arg) in [
        ("si/MatrixMulImage_Kernels.bin", "mmmKernel", "matrixA"),
        ("si/SimpleImage_Kernels.bin", "image2dCopy", "input"),
    ] {
        let Some(file) = corpus_arg(file) else {
            return;
        };
        let line = cli_util::fails(&[
            "run", &file, "--kernel", kernel, "--global", "64", "--local", "64", "--arg",
            "zero:256", "--arg", "zero:256",
        ]);
        assert!(
            line.contains(&format!("kernel {kernel}: argument 0 ({arg}, "))
                && line.contains("is an image"),
            "{line}"
        );
    }
}

/// Evergreen ISA encodings disassemble (TeraScale syntax) but do not run yet: one line.
#[test]
fn evergreen_runs_are_refused() {
    let Some(file) = corpus_arg("evergreen/vector-add.bin") else {
        return;
    };
    let listing = cli_util::succeeds(&["disasm", &file]);
    assert!(listing.contains("MEM_RAT_CACHELESS STORE_RAW"), "{listing}");
    assert!(listing.contains("RID:153"), "{listing}");
    let line = cli_util::fails(&[
        "run",
        &file,
        "--kernel",
        "vector_add",
        "--global",
        "64",
        "--local",
        "64",
        "--arg",
        "zero:256",
        "--arg",
        "zero:256",
        "--arg",
        "zero:256",
    ]);
    assert!(
        line.contains("Evergreen (cypress)") && line.contains("not supported yet"),
        "{line}"
    );
}

/// The IL encoding prints as IL text; running it is refused with one line.
#[test]
fn il_encoding_prints_and_is_refused_to_run() {
    use wavejit::frontend::Module;
    use wavejit_amdil::appsdk::EncodingKind;
    let Some(path) = corpus("si/vector-add.bin") else {
        return;
    };
    let bytes = std::fs::read(path).unwrap();
    let module =
        wavejit::isa::amdapp::load_encoding(&bytes, EncodingKind::Il, None).expect("loads");
    let text = module.disassemble("vector_add").expect("prints");
    let program = wavejit_amdil::parse::parse(&text).expect("the IL text parses back");
    assert!(text.lines().any(|l| l == "il_cs_2_0"), "{text}");
    let binary = wavejit_amdil::appsdk::load(&bytes).unwrap();
    let tokens = &binary.kernel("vector_add").unwrap().il().unwrap().text;
    assert_eq!(
        &wavejit_amdil::encode::encode(&program).unwrap(),
        tokens,
        "the printed IL encodes back to the binary's tokens"
    );
    let err = module.lift("vector_add").expect_err("refused").to_string();
    assert!(
        err.contains("IL encoding") && err.contains("not supported yet") && !err.contains('\n'),
        "{err}"
    );
}
