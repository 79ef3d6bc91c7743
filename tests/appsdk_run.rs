//! AMD APP SDK OpenCL binaries for Southern Islands (../shared/corpora/amd-app-sdk/si, read in
//! place) run through the `amdapp` frontend under the driver's launch ABI, on both engines.
//!
//! Every expected output is computed here on the host, from the kernel's OpenCL C source
//! (github Multi2Sim/m2s-bench-amdsdk-2.5-src @ f7238df `<Sample>/<Sample>_Kernels.cl`;
//! m2s-client-kit @ f580f07 for vector-add and matrix-mul), at sizes taken from its host
//! program, never from a run. Integer outputs must match bit for bit; a kernel that uses the
//! hardware's approximate exp, log, sin, cos or division is checked within the tolerance its
//! test states.
//!
//! `__local` arguments are given as `zero:N` buffers of their size (the launch reads only the
//! size), by-value vectors as a value of their size.

mod cli_util;
use cli_util::Rng;

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

/// A corpus file run on one engine.
struct Runner {
    path: PathBuf,
    engine: EngineKind,
}

/// A runner of `file` (`si/X.bin`) per engine, none (after saying so) when it is absent.
fn runners(file: &str) -> Vec<Runner> {
    let Some(path) = corpus(file) else {
        return Vec::new();
    };
    [EngineKind::Jit, EngineKind::Interp]
        .into_iter()
        .map(|engine| Runner {
            path: path.clone(),
            engine,
        })
        .collect()
}

impl Runner {
    /// Runs `kernel` once and returns every argument's bytes afterwards (empty for values).
    fn run(
        &self,
        kernel: &str,
        global: [u32; 3],
        local: [u32; 3],
        args: &[ArgSpec],
    ) -> Vec<Vec<u8>> {
        let module = wavejit::registry::load(&self.path, None).expect("the binary loads");
        assert_eq!(module.target().isa, "amdapp");
        let req = RunRequest {
            kernel,
            global,
            local,
            engine: self.engine,
            threads: 2,
            args,
            fuel: 1 << 32,
            timeout: Duration::from_secs(600),
        };
        let what = || format!("{} {kernel} on {:?}", self.path.display(), self.engine);
        let prepared =
            wavejit::launch::prepare(&*module, &req).unwrap_or_else(|e| panic!("{}: {e}", what()));
        prepared
            .dispatch()
            .unwrap_or_else(|e| panic!("{}: {e}", what()));
        (0..args.len())
            .map(|i| prepared.buffer(i).unwrap_or_default())
            .collect()
    }

    /// `got` must equal `want` byte for byte; `what` names it in the message.
    fn same(&self, what: &str, got: &[u8], want: &[u8]) {
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
    /// Runs on both engines; argument `i`'s bytes must equal `want` (each `(i, want)`).
    fn check(&self, want: &[(usize, Vec<u8>)]) {
        for r in runners(&format!("si/{}", self.file)) {
            let out = r.run(self.kernel, self.global, self.local, &self.args);
            for (i, want) in want {
                r.same(&format!("{} argument {i}", self.kernel), &out[*i], want);
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
        ("si/MatrixMulImage_Kernels.bin", "mmmKernel2", "matrixA"),
        ("si/MatrixMulImage_Kernels.bin", "mmmKernel3", "matrixA"),
        ("si/SimpleImage_Kernels.bin", "image2dCopy", "input"),
        ("si/SimpleImage_Kernels.bin", "image3dCopy", "input"),
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

/// BinarySearch: each work-item checks its segment `[lb + s*tid, lb + s*tid + s - 1]`; the one
/// whose end elements enclose `findMe` writes its bounds to x, y and 1 to w of `outputArray[0]`
/// (z untouched). Host defaults: 512 elements, 256 work-items of one group, so `s` = 2; and a
/// 65536-element array (256 segments of 256).
#[test]
fn binary_search() {
    for r in runners("si/BinarySearch_Kernels.bin") {
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
#[test]
fn bitonic_sort() {
    let length = 1024u32;
    for r in runners("si/BitonicSort_Kernels.bin") {
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
#[test]
fn floyd_warshall() {
    let n = 64usize;
    for r in runners("si/FloydWarshall_Kernels.bin") {
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
#[test]
fn reduction() {
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
    .check(&[(1, bytes_of(&want))]);
}

/// MatrixTranspose: `output[x * height + y] = input[y * width + x]` through a `__local` block
/// of blockSize x blockSize; host defaults 64 x 64, blockSize 16. The data are arbitrary bit
/// patterns: the kernel only moves them.
#[test]
fn matrix_transpose() {
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
    .check(&[(0, bytes_of(&want))]);
}

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

/// Floats in [0, 1) with 24 random mantissa bits: sums of a few thousand stay normal, so the
/// kernel's denormal flushing never applies and the host's f32 additions are the guest's.
fn unit_floats(rng: &mut Rng, n: usize) -> Vec<f32> {
    (0..n)
        .map(|_| (rng.u32() >> 8) as f32 / (1u32 << 24) as f32)
        .collect()
}

/// PrefixSum: one group of length/2 work-items scans `length` floats (host default 512).
#[test]
fn prefix_sum() {
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
    .check(&[(0, f32_bytes(&want))]);
}

/// ScanLargeArrays as its host runs 1024 floats with blockSize 256 (one pass): the block scans
/// with their sums (`ScanLargeArrays`), the scan of the 4 sums (`prefixSum`), and their
/// addition to every block (`blockAddition`), each launch on the previous one's outputs.
#[test]
fn scan_large_arrays() {
    let (length, bs) = (1024usize, 256usize);
    let blocks = length / bs;
    for r in runners("si/ScanLargeArrays_Kernels.bin") {
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
#[test]
fn fast_walsh_transform() {
    let length = 1024usize;
    for r in runners("si/FastWalshTransform_Kernels.bin") {
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
#[test]
fn simple_convolution() {
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
    .check(&[(0, bytes_of(&want))]);
}

/// Histogram: 1024 x 1024 values in [0, 256) (the host's defaults), work-groups of 128 with a
/// byte sub-histogram per work-item (counts wrap at 256, as the kernel's uchar does); each
/// group writes its 256 bins.
#[test]
fn histogram() {
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
    .check(&[(2, bytes_of(&want))]);
}

/// HistogramAtomics: `histogramKernel` (reqd_work_group_size 256) counts the bytes of the
/// uint4 each work-item reads (`Image[tid + i * global]`) into LDS sub-histograms with
/// `atom_inc`, one row of 256 bins per group; `reduceKernel` then sums the rows into row 0.
/// 1024 work-items, 4 uint4 each (the host runs 65536 x 64).
#[test]
fn histogram_atomics() {
    let (threads, group, per) = (1024usize, 256usize, 4usize);
    let groups = threads / group;
    for r in runners("si/HistogramAtomics_Kernels.bin") {
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
#[test]
fn radix_sort() {
    let (count, group) = (16384usize, 64usize);
    let threads = count / 256;
    for r in runners("si/RadixSort_Kernels.bin") {
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
#[test]
fn memory_optimizations() {
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
    for r in runners("si/MemoryOptimizations_Kernels.bin") {
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
#[test]
fn device_fission_copy() {
    let input = Rng::new(16).u32s(4096, u32::MAX);
    Launch {
        file: "DeviceFission_Kernels.bin",
        kernel: "copy",
        global: [4096, 1, 1],
        local: [64, 1, 1],
        args: vec![buf(bytes_of(&input)), zero(4 * 4096)],
    }
    .check(&[(1, bytes_of(&input))]);
}

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
#[test]
fn box_filter_sat() {
    let (w, h, r, n) = (256usize, 256usize, 16usize, 5u32);
    for run in runners("si/BoxFilter_Kernels.bin") {
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
#[test]
fn box_filter_separable() {
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
        .check(&[(1, filter(vertical))]);
    }
}

/// BoxFilter `box_filter_horizontal_local` with filterWidth 1 (k = 0): each group stages its
/// 256 pixels in LDS and every pixel is its own average. With the host's filterWidth 8 the
/// first group reads 3 pixels before the image (its apron, which it never uses), which this
/// launch's UAV arena makes a guest fault (see src/isa/amdapp/launch.rs).
#[test]
fn box_filter_horizontal_local() {
    let (w, h) = (256usize, 16usize);
    let image = random_rgba8(19, w * h);
    Launch {
        file: "BoxFilter_Kernels.bin",
        kernel: "box_filter_horizontal_local",
        global: dims(w as u32, h as u32),
        local: dims(256, 1),
        args: vec![buf(image.clone()), zero(4 * w * h), i32v(1), local(4 * 256)],
    }
    .check(&[(1, image)]);
}

/// QuasiRandomSequence (host: 8 dimensions of 1024 vectors, groups of 256 work-items, each
/// computing a uint4): element i of dimension j is the XOR of direction numbers
/// `input[32 j + k]` over the set bits k of i, converted to float (to nearest) and scaled by
/// 2^-32. Direction numbers are random words here (the kernel takes any).
#[test]
fn quasi_random_sequence() {
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
    .check(&[(0, f32_bytes(&want))]);
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
#[test]
fn matrix_multiplication() {
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
        .check(&[(2, f32_bytes(&c))]);
    }
}

/// DCT (host: 64 x 64, blocks of 8 x 8, forward and inverse) with an integer-valued
/// coefficient matrix and input instead of the cosines (the kernel takes any): per block,
/// `inter[j][i] = sum_k M[k][i] X[k][j]` (forward; `M[i][k]` inverse), then
/// `out[j][i] = sum_k inter[i][k] M[k][j]` (forward; `M[j][k]` inverse), exactly.
#[test]
fn dct() {
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
        .check(&[(0, f32_bytes(&want))]);
    }
}

fn f32s_of(bytes: &[u8]) -> Vec<f32> {
    words_of(bytes).into_iter().map(f32::from_bits).collect()
}

impl Runner {
    /// Float outputs against a host model in f64: each within `rel` of the model's value
    /// (relative, or absolute below 1). For float kernels whose ISA computes `exp`, `log`,
    /// `sqrt` and divisions with AMD's approximations, which no host reproduces bit for bit.
    fn close(&self, what: &str, got: &[u8], want: &[f64], rel: f64) {
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

/// BlackScholes (host: 64 x 64 float4 of uniform [0, 1) numbers, groups of 16 x 16): call and
/// put prices of the kernel's formulas (its polynomial approximation of the normal CDF)
/// evaluated in f64; the ISA's exp, log, sqrt and divisions are approximations, so each price
/// must be within 1e-4 (relative, absolute below 1) of the model.
#[test]
fn black_scholes() {
    let (w, h) = (64usize, 64usize);
    let mut rng = Rng::new(23);
    let rand: Vec<f32> = unit_floats(&mut rng, 4 * w * h);
    let phi = |x: f64| {
        let t = 1.0 / (1.0 + 0.2316419 * x.abs());
        let y = 1.0
            - 0.398942280
                * (-x * x / 2.0).exp()
                * t
                * (0.319381530
                    + t * (-0.356563782
                        + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
        if x < 0.0 {
            1.0 - y
        } else {
            y
        }
    };
    let (mut call, mut put) = (Vec::new(), Vec::new());
    for &u in &rand {
        let u = f64::from(u);
        let mix = |lo: f64, hi: f64| lo * u + hi * (1.0 - u);
        let (s, k, t, r, sigma) = (
            mix(10.0, 100.0),
            mix(10.0, 100.0),
            mix(1.0, 10.0),
            mix(0.01, 0.05),
            mix(0.01, 0.10),
        );
        let sst = sigma * t.sqrt();
        let d1 = ((s / k).ln() + (r + sigma * sigma / 2.0) * t) / sst;
        let d2 = d1 - sst;
        let kexp = k * (-r * t).exp();
        call.push(s * phi(d1) - kexp * phi(d2));
        put.push(kexp * phi(-d2) - s * phi(-d1));
    }
    for r in runners("si/BlackScholes_Kernels.bin") {
        let out = r.run(
            "blackScholes",
            dims(w as u32, h as u32),
            dims(16, 16),
            &[
                buf(f32_bytes(&rand)),
                i32v(w as i32),
                zero(16 * w * h),
                zero(16 * w * h),
            ],
        );
        r.close("call", &out[2], &call, 1e-4);
        r.close("put", &out[3], &put, 1e-4);
    }
}

/// BinomialOption (host: numSteps 254, one group of 255 work-items per float4 of options):
/// the backward induction of the kernel in f64, two steps per loop trip through callA and
/// callB; 16 groups; within 1e-3 of the model (254 steps of f32 rounding).
#[test]
fn binomial_option() {
    let (samples, steps) = (16usize, 254i32);
    let rand = unit_floats(&mut Rng::new(24), 4 * samples);
    let mut want = Vec::new();
    for &u in &rand {
        let u = f64::from(u);
        let s = (1.0 - u) * 5.0 + u * 30.0;
        let x = (1.0 - u) * 1.0 + u * 100.0;
        let years = (1.0 - u) * 0.25 + u * 10.0;
        let dt = years * (1.0 / f64::from(steps));
        let vsdt = 0.30 * dt.sqrt();
        let r = (0.02 * dt).exp();
        let (up, down) = (vsdt.exp(), 1.0 / vsdt.exp());
        let pu = (r - down) / (up - down);
        let (pu_r, pd_r) = (pu / r, (1.0 - pu) / r);
        let mut a: Vec<f64> = (0..=steps)
            .map(|t| (s * (vsdt * (2.0 * f64::from(t) - f64::from(steps))).exp() - x).max(0.0))
            .collect();
        let mut b = vec![0f64; a.len()];
        let mut j = steps as usize;
        while j > 0 {
            for t in 0..j {
                b[t] = pu_r * a[t] + pd_r * a[t + 1];
            }
            for t in 0..j.saturating_sub(1) {
                a[t] = pu_r * b[t] + pd_r * b[t + 1];
            }
            j = j.saturating_sub(2);
        }
        want.push(a[0]);
    }
    for r in runners("si/BinomialOption_Kernels.bin") {
        let n = steps as usize + 1;
        let out = r.run(
            "binomial_options",
            [(samples * n) as u32, 1, 1],
            [n as u32, 1, 1],
            &[
                i32v(steps),
                buf(f32_bytes(&rand)),
                zero(16 * samples),
                local(16 * n),
                local(16 * (n - 1)),
            ],
        );
        r.close("option prices", &out[2], &want, 1e-3);
    }
}

/// URNG (host: groups of 64 x 1, noise factor 25; a random 64 x 16 image here): the kernel's
/// `ran1` on `(int)-avg` in 32-bit integers, its `AM * iy` and `(dev - 0.55) * factor` in
/// double (the literals are doubles and Tahiti has fp64), the sum converted with saturation
/// (toward zero); bit for bit.
#[test]
fn urng() {
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
    .check(&[(1, want)]);
}

/// SobelFilter (host: groups of the image's width; a 64 x 16 image of values below 64 here,
/// so every magnitude converts in range): `hypot(Gx, Gy) / 2` converted toward zero inside
/// the border, 0 on it; the ISA's hypot is an approximation, so each byte may be 1 below or
/// above the f64 model where that model is within 1e-3 of an integer.
#[test]
fn sobel_filter() {
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
    for r in runners("si/SobelFilter_Kernels.bin") {
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

/// FFT `kfft` (host: one group of 64 work-items transforms 1024 complex points in place): the
/// output is the forward DFT `X[k] = sum_n x[n] e^(-2 pi i n k / 1024)` in natural order,
/// within 1e-4 of the largest |X| (the kernel's twiddles come from native_sin/native_cos).
#[test]
fn fft() {
    let n = 1024usize;
    let mut rng = Rng::new(27);
    let re: Vec<f32> = unit_floats(&mut rng, n).iter().map(|v| v - 0.5).collect();
    let im: Vec<f32> = unit_floats(&mut rng, n).iter().map(|v| v - 0.5).collect();
    let (mut want_re, mut want_im) = (vec![0f64; n], vec![0f64; n]);
    for k in 0..n {
        for j in 0..n {
            let a = -2.0 * std::f64::consts::PI * ((j * k) % n) as f64 / n as f64;
            let (s, c) = a.sin_cos();
            want_re[k] += f64::from(re[j]) * c - f64::from(im[j]) * s;
            want_im[k] += f64::from(re[j]) * s + f64::from(im[j]) * c;
        }
    }
    let scale = want_re
        .iter()
        .chain(&want_im)
        .fold(0f64, |m, v| m.max(v.abs()));
    for r in runners("si/FFT_Kernels.bin") {
        let out = r.run(
            "kfft",
            [64, 1, 1],
            [64, 1, 1],
            &[buf(f32_bytes(&re)), buf(f32_bytes(&im))],
        );
        for (what, got, want) in [
            ("real", &out[0], &want_re),
            ("imaginary", &out[1], &want_im),
        ] {
            for (k, (g, w)) in f32s_of(got).iter().zip(want.iter()).enumerate() {
                assert!(
                    (f64::from(*g) - w).abs() <= 1e-4 * scale,
                    "fft {what} part on {:?}: X[{k}] is {g}, the DFT's {w}",
                    r.engine
                );
            }
        }
    }
}

/// The SIMD-oriented Mersenne Twister step of MersenneTwister's `gaussianRand` and
/// MonteCarloAsian's `generateRand`: the four initial states from the seed, then `count`
/// words of the recurrence (with the kernels' 128-bit shifts by 24 and masks).
fn sfmt(seed: [u32; 4], count: usize) -> Vec<[u32; 4]> {
    let next =
        |s: [u32; 4], k: u32| s.map(|v| 1812433253u32.wrapping_mul(v ^ (v >> 30)).wrapping_add(k));
    let s1 = seed;
    let s2 = next(s1, 1);
    let s3 = next(s2, 2);
    let s4 = next(s3, 3);
    let s5 = next(s4, 4);
    let lshift = |a: [u32; 4]| {
        [
            a[0] << 24,
            a[1] << 24 | a[0] >> 8,
            a[2] << 24 | a[1] >> 8,
            a[3] << 24 | a[2] >> 8,
        ]
    };
    let rshift = |a: [u32; 4]| {
        [
            a[0] >> 24 | a[1] << 8,
            a[1] >> 24 | a[2] << 8,
            a[2] >> 24 | a[3] << 8,
            a[3] >> 24,
        ]
    };
    let masks = [0xfdff37ffu32, 0xef7f3f7d, 0xff777b7d, 0x7ff7fb2f];
    let mut temp: Vec<[u32; 4]> = Vec::new();
    let (mut r1, mut r2) = (s4, s5);
    for i in 0..count {
        if i > 0 {
            r1 = r2;
            r2 = temp[i - 1];
        }
        let (a, b) = match i {
            0 => (s1, s3),
            1 => (s2, s4),
            2 => (s3, s5),
            3 => (s4, s1),
            4 => (s5, s2),
            _ => (temp[i - 5], temp[i - 3]),
        };
        let (e, f) = (lshift(a), rshift(r1));
        temp.push(std::array::from_fn(|c| {
            a[c] ^ e[c] ^ ((b[c] >> 13) & masks[c]) ^ f[c] ^ (r2[c] << 15)
        }));
    }
    temp
}

/// The Box-Muller pair of two words per lane, in f64 from their f32 conversions (as the
/// kernels convert them).
fn box_muller(u: u32, v: u32) -> (f64, f64) {
    let t1 = f64::from(u as f32) / 4294967296.0;
    let t2 = f64::from(v as f32) / 4294967296.0;
    let r = (-2.0 * t1.ln()).sqrt();
    let phi = 2.0 * std::f64::consts::PI * t2;
    (r * phi.cos(), r * phi.sin())
}

/// MersenneTwister `gaussianRand` (host: mulFactor 2; a 64 x 4 grid of seeds here, groups of
/// 64 x 1): the integer recurrence exactly, then Box-Muller through the ISA's log, sqrt, sin
/// and cos, within 1e-4 (relative, absolute below 1) of the f64 model.
#[test]
fn mersenne_twister() {
    let (w, h, mul) = (64usize, 4usize, 2usize);
    let seeds = Rng::new(28).u32s(4 * w * h, u32::MAX);
    let mut want = vec![0f64; 4 * w * h * mul];
    for p in 0..w * h {
        let t = sfmt(
            [
                seeds[4 * p],
                seeds[4 * p + 1],
                seeds[4 * p + 2],
                seeds[4 * p + 3],
            ],
            mul,
        );
        for i in 0..mul / 2 {
            for c in 0..4 {
                let (g1, g2) = box_muller(t[i][c], t[i + 1][c]);
                want[4 * (p * mul + 2 * i) + c] = g1;
                want[4 * (p * mul + 2 * i + 1) + c] = g2;
            }
        }
    }
    for r in runners("si/MersenneTwister_Kernels.bin") {
        let out = r.run(
            "gaussianRand",
            dims(w as u32, h as u32),
            dims(64, 1),
            &[
                buf(bytes_of(&seeds)),
                u32v(w as u32),
                u32v(mul as u32),
                zero(4 * want.len()),
            ],
        );
        r.close("gaussianRand", &out[3], &want, 1e-4);
    }
}

/// RecursiveGaussian: `transpose_kernel` (host: blocks of 16 x 16) moves uchar4 pixels to
/// `output[x * height + y]`, exactly; `RecursiveGaussian_kernel` runs the causal and
/// anti-causal passes down each column with coefficients that keep every value a short dyadic
/// fraction below 256 (a0 3/8, a1 1/8, a2 1/4, a3 1/8, feedback b1 = b2 = 0; the host derives
/// them from a sigma, the kernel takes any), so the f32 sums and the conversions to uchar
/// (toward zero) are exact.
#[test]
fn recursive_gaussian() {
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
    .check(&[(0, transposed)]);

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
    .check(&[(1, want)]);
}

/// The DP kernel's `PI` literal, which is not `f64::consts::PI`.
#[allow(clippy::approx_constant)]
const DP_KERNEL_PI: f64 = 3.14159265358979;

/// MonteCarloAsian(DP) `calPriceVega` in f64: per work-item and lane, two trajectories driven
/// by `generateRand`'s Box-Muller pairs (the integer recurrence from the seed, the next seed
/// its third word), their mean prices and mean "derivatives", and the payoffs above the
/// strike. Returns (prices, derivatives, decisive): an element is decisive when its mean
/// price is at least 1e-2 from the strike, where the payoff's threshold cannot flip.
fn monte_carlo_model(
    seeds: &[u32],
    attrib: &[f64; 7],
    sums: i32,
    single: bool,
) -> (Vec<f64>, Vec<f64>, Vec<bool>) {
    let [strike, c1, c2, c3, init, sigma, time_step] = *attrib;
    let items = seeds.len() / 4;
    let (mut prices, mut derivs, mut decisive) = (
        vec![0f64; 8 * items],
        vec![0f64; 8 * items],
        vec![true; 8 * items],
    );
    for p in 0..items {
        for c in 0..4 {
            let mut seed = [
                seeds[4 * p],
                seeds[4 * p + 1],
                seeds[4 * p + 2],
                seeds[4 * p + 3],
            ];
            let (mut traj, mut sum, mut deriv) = ([init; 2], [init; 2], [0f64; 2]);
            for i in 1..sums {
                let t = sfmt(seed, 4);
                let (g1, g2) = if single {
                    box_muller(t[0][c], t[1][c])
                } else {
                    let t1 = f64::from(t[0][c]) / 4294967296.0;
                    let t2 = f64::from(t[1][c]) / 4294967296.0;
                    let r = (-2.0 * t1.ln()).sqrt();
                    let phi = 2.0 * DP_KERNEL_PI * t2;
                    (r * phi.cos(), r * phi.sin())
                };
                seed = t[2];
                for (k, g) in [g1, g2].into_iter().enumerate() {
                    traj[k] *= (c1 + c2 * g).exp();
                    sum[k] += traj[k];
                    let temp = c3 * time_step * f64::from(i);
                    deriv[k] += traj[k] * (((traj[k] / init).ln() - temp) / sigma);
                }
            }
            for k in 0..2 {
                let mean = sum[k] / f64::from(sums);
                let at = 4 * (2 * p + k) + c;
                let above = mean - strike > 0.0;
                prices[at] = if above { mean - strike } else { 0.0 };
                derivs[at] = if above {
                    deriv[k] / f64::from(sums)
                } else {
                    0.0
                };
                decisive[at] = (mean - strike).abs() >= 1e-2;
            }
        }
    }
    (prices, derivs, decisive)
}

/// MonteCarloAsian and MonteCarloAsianDP `calPriceVega` (host: initPrice 50, strikePrice 55,
/// interest 0.06, maturity 1, noOfSum 12, sigma 0.01 + k steps; here sigma 0.1 and a 64 x 4
/// grid of seeds, groups of 64 x 1): the by-value `MonteCarloAttrib` struct (112 bytes of
/// float4, 224 of double4) given as a buffer of its bytes, CB2 constants, private arrays. The
/// float kernel's outputs within 1e-3 (relative, absolute below 1) of the f64 model, the
/// double kernel's within 1e-9; elements whose mean price is within 1e-2 of the strike are
/// not compared.
#[test]
fn monte_carlo_asian() {
    let (w, h, sums) = (64usize, 4usize, 12i32);
    let seeds = Rng::new(30).u32s(4 * w * h, u32::MAX);
    let (init, strike, interest, maturity, sigma) = (50f32, 55f32, 0.06f32, 1f32, 0.1f32);
    let time_step = maturity / (sums - 1) as f32;
    let c1 = (interest - 0.5 * sigma * sigma) * time_step;
    let c2 = sigma * time_step.sqrt();
    let c3 = interest + 0.5 * sigma * sigma;
    let fields = [strike, c1, c2, c3, init, sigma, time_step];
    for (file, single) in [
        ("si/MonteCarloAsian_Kernels.bin", true),
        ("si/MonteCarloAsianDP_Kernels.bin", false),
    ] {
        let attrib = fields.map(f64::from);
        let (prices, derivs, decisive) = monte_carlo_model(&seeds, &attrib, sums, single);
        assert!(decisive.iter().filter(|d| !**d).count() < prices.len() / 50);
        assert!(prices.iter().filter(|p| **p > 0.0).count() > prices.len() / 10);
        let struct_bytes: Vec<u8> = if single {
            fields
                .iter()
                .flat_map(|f| [*f; 4])
                .flat_map(|f| f.to_le_bytes())
                .collect()
        } else {
            fields
                .iter()
                .flat_map(|f| [f64::from(*f); 4])
                .flat_map(|f| f.to_le_bytes())
                .collect()
        };
        let elem = if single { 4 } else { 8 };
        for r in runners(file) {
            let out = r.run(
                "calPriceVega",
                dims(w as u32, h as u32),
                dims(64, 1),
                &[
                    buf(struct_bytes.clone()),
                    i32v(sums),
                    i32v(w as i32),
                    buf(bytes_of(&seeds)),
                    zero(8 * elem * w * h),
                    zero(8 * elem * w * h),
                ],
            );
            let values = |bytes: &[u8]| -> Vec<f64> {
                if single {
                    f32s_of(bytes).into_iter().map(f64::from).collect()
                } else {
                    bytes
                        .chunks_exact(8)
                        .map(|b| f64::from_le_bytes(b.try_into().unwrap()))
                        .collect()
                }
            };
            let tol = if single { 1e-3 } else { 1e-9 };
            for (what, got, want) in [
                ("priceSamples", &out[4], &prices),
                ("pathDeriv", &out[5], &derivs),
            ] {
                for (i, (g, w)) in values(got).iter().zip(want.iter()).enumerate() {
                    let err = (g - w).abs() / w.abs().max(1.0);
                    assert!(
                        !decisive[i] || err <= tol,
                        "{file} {what} on {:?}: element {i} is {g}, the model's {w}",
                        r.engine
                    );
                }
            }
        }
    }
}

/// DwtHaar1D as its host launches it first on 1024 samples (2 groups of 256, tLevels 10,
/// mLevels 9, levelsDone 0): each group scales its 512 samples by 1/sqrt(1024), then 9 levels
/// of Haar steps write `(d0 - d1) / sqrt(2)` to `coefsSignal[mid + group * active + l]` and keep
/// `(d0 + d1) / sqrt(2)`; `AverageSignal[group]` gets the last. Within 1e-6 (absolute) of the
/// f64 model; `coefsSignal[0..2]`, which the host fills, stay as given.
#[test]
fn dwt_haar_1d() {
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
    for r in runners("si/DwtHaar1D_Kernels.bin") {
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
#[test]
fn eigen_value() {
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
    for r in runners("si/EigenValue_Kernels.bin") {
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

/// Launches the ABI cannot make stop with one line saying why.
#[test]
fn bad_launches_are_one_line_errors() {
    let (Some(add), Some(hist), Some(mc)) = (
        corpus_arg("si/vector-add.bin"),
        corpus_arg("si/HistogramAtomics_Kernels.bin"),
        corpus_arg("si/MonteCarloAsian_Kernels.bin"),
    ) else {
        return;
    };
    let run = |file: &str, kernel: &str, global: &str, local: &str, args: &[&str]| {
        let mut argv = vec![
            "run", file, "--kernel", kernel, "--global", global, "--local", local,
        ];
        for a in args {
            argv.extend(["--arg", a]);
        }
        cli_util::fails(&argv)
    };
    let z = "zero:256";
    for (line, want) in [
        (
            run(&add, "vector_add", "64", "64", &[z, z]),
            "takes 3 arguments (src1, src2, dst), got 2",
        ),
        (
            run(&add, "vector_add", "64", "64", &[z, z, "u32:1"]),
            "argument 2 (dst, int*) is a pointer: give a buffer",
        ),
        (
            run(&add, "vector_add", "100", "64", &[z, z, z]),
            "is not a multiple of local size",
        ),
        (
            run(&add, "vector_add", "512", "512", &[z, z, z]),
            "at most 256 (NUM_THREAD_PER_GROUP)",
        ),
        (
            run(&add, "vectorAdd", "64", "64", &[z, z, z]),
            "kernel vectorAdd not found",
        ),
        (
            run(&hist, "histogramKernel", "128", "128", &[z, z, "u32:1"]),
            "requires work-group size [256, 1, 1]",
        ),
        (
            run(
                &mc,
                "calPriceVega",
                "64",
                "64",
                &["zero:100", "i32:2", "i32:64", z, z, z],
            ),
            "argument 0 (attrib, MonteCarloAttrib) is 112 bytes; the value given is 100 bytes",
        ),
    ] {
        assert!(line.contains(want), "{line:?} lacks {want:?}");
    }
}
