//! AMD APP SDK OpenCL binaries for Evergreen (Cypress; ../shared/corpora/amd-app-sdk/evergreen,
//! read in place): the ISA encoding runs through the TeraScale lifter under the driver's
//! launch ABI (`src/isa/amdapp/evergreen.rs`), on both engines.
//!
//! Every expected output is computed here on the host from the kernel's OpenCL C semantics,
//! never from a run: vector-add is `dst[i] = src1[i] + src2[i]` (int, wrapping;
//! ../shared/corpora/amd-app-sdk/README.md), and Multi2Sim's evg-emu-vector-add test runs it
//! as 10 work-items in one group with `dst[i] = i + 100`. The matrix-mul source is not
//! available offline; its semantics are read from the IL encoding of the same kernel
//! (`wavejit disasm evergreen/matrix-mul.bin --encoding il`): both `__local` tiles are loaded from
//! A (B is never read), so with `n` = global size x it computes
//! `C[row][col] = sum_k A[row][k] * A[k][col]`, row = global id y, col = global id x, which
//! is what the SI build of it computes too (tests/appsdk_run.rs). Its host program runs it as
//! `matrix-mul 50 10`: 50 x 50 matrices, 10 x 10 work-groups.

mod cli_util;
use cli_util::Rng;

use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;
use wavejit::launch::RunRequest;
use wavejit::spec::ArgSpec;
use wavejit::EngineKind;

/// A file of the corpus's Evergreen folder, or `None` after saying it is absent.
fn corpus(file: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/amd-app-sdk/evergreen")
        .join(file);
    if path.exists() {
        Some(path)
    } else {
        println!("NOT RUN: {} absent", path.display());
        None
    }
}

/// [`corpus`] as a command-line argument.
fn corpus_arg(file: &str) -> Option<String> {
    corpus(file).map(|p| p.to_str().expect("a UTF-8 path").to_string())
}

/// The first guest address (wavejit_runtime::GUEST_BASE).
const GUEST_BASE: u64 = 0x1_0000_0000;

fn i32_bytes(xs: &[i32]) -> Vec<u8> {
    xs.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn hex(words: &[u32]) -> String {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn words_of_hex(s: &str) -> Vec<u32> {
    (0..s.len() / 8)
        .map(|i| {
            u32::from_le_bytes(std::array::from_fn(|b| {
                u8::from_str_radix(&s[8 * i + 2 * b..8 * i + 2 * b + 2], 16).unwrap()
            }))
        })
        .collect()
}

/// Runs `kernel` of `file` on `engine` and returns every argument's bytes afterwards.
fn run(
    file: &Path,
    engine: EngineKind,
    kernel: &str,
    global: [u32; 3],
    local: [u32; 3],
    args: &[ArgSpec],
) -> Vec<Vec<u8>> {
    let module = wavejit::registry::load(file, None).expect("the binary loads");
    assert_eq!(module.target().isa, "amdapp");
    assert_eq!(module.target().wave_size, 64, "Cypress runs 64-lane waves");
    let req = RunRequest {
        kernel,
        global,
        work_dim: None,
        local,
        engine,
        threads: 2,
        args,
        fuel: 1 << 32,
        timeout: Duration::from_secs(600),
    };
    let what = || format!("{} {kernel} on {engine:?}", file.display());
    let prepared =
        wavejit::launch::prepare(&*module, &req).unwrap_or_else(|e| panic!("{}: {e}", what()));
    prepared
        .dispatch()
        .unwrap_or_else(|e| panic!("{}: {e}", what()));
    (0..args.len())
        .map(|i| prepared.buffer(i).unwrap_or_default())
        .collect()
}

/// Runs on both engines; argument `i`'s bytes must equal `want` (each `(i, want)`).
fn check(
    file: &str,
    kernel: &str,
    global: [u32; 3],
    local: [u32; 3],
    args: &[ArgSpec],
    want: &[(usize, Vec<u8>)],
) {
    let Some(path) = corpus(file) else {
        return;
    };
    for engine in [EngineKind::Jit, EngineKind::Interp] {
        let out = run(&path, engine, kernel, global, local, args);
        for (i, want) in want {
            let got = &out[*i];
            assert_eq!(got.len(), want.len(), "{kernel} argument {i} on {engine:?}");
            if let Some(at) = (0..got.len())
                .step_by(4)
                .find(|&b| got[b..b + 4] != want[b..b + 4])
            {
                panic!(
                    "{kernel} argument {i} on {engine:?}: dword {} is {:02x?}, want {:02x?}",
                    at / 4,
                    &got[at..at + 4],
                    &want[at..at + 4]
                );
            }
        }
    }
}

fn buf(bytes: Vec<u8>) -> ArgSpec {
    ArgSpec::Data(bytes)
}

fn zero(n: usize) -> ArgSpec {
    ArgSpec::Zero(n as u64)
}

/// Multi2Sim's evg-emu-vector-add run: 10 work-items in one group, `dst[i] = i + 100`.
#[test]
fn vector_add_multi2sim_run() {
    let src1: Vec<i32> = (0..10).collect();
    let src2 = vec![100; 10];
    let want: Vec<i32> = (0..10).map(|i| i + 100).collect();
    check(
        "vector-add.bin",
        "vector_add",
        [10, 1, 1],
        [10, 1, 1],
        &[buf(i32_bytes(&src1)), buf(i32_bytes(&src2)), zero(40)],
        &[(2, i32_bytes(&want))],
    );
}

/// `dst[i] = src1[i] + src2[i]` over 25 groups of 40 work-items (waves with 24 idle lanes),
/// wrapping.
#[test]
fn vector_add() {
    let n = 1000;
    let mut rng = Rng::new(11);
    let a: Vec<i32> = (0..n).map(|_| rng.u32() as i32).collect();
    let b: Vec<i32> = (0..n).map(|_| rng.u32() as i32).collect();
    let c: Vec<i32> = a.iter().zip(&b).map(|(x, y)| x.wrapping_add(*y)).collect();
    check(
        "vector-add.bin",
        "vector_add",
        [n as u32, 1, 1],
        [40, 1, 1],
        &[buf(i32_bytes(&a)), buf(i32_bytes(&b)), zero(4 * n)],
        &[(0, i32_bytes(&a)), (1, i32_bytes(&b)), (2, i32_bytes(&c))],
    );
}

/// `C = A x A` for `dim` x `dim` int matrices in `ldim` x `ldim` work-groups (module doc).
fn matrix_mul(dim: usize, ldim: usize, seed: u64) {
    let mut rng = Rng::new(seed);
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
    let tile = 4 * ldim * ldim;
    check(
        "matrix-mul.bin",
        "matrix_mul",
        [dim as u32, dim as u32, 1],
        [ldim as u32, ldim as u32, 1],
        &[
            buf(i32_bytes(&a)),
            buf(i32_bytes(&b)),
            zero(4 * dim * dim),
            zero(tile),
            zero(tile),
        ],
        &[(0, i32_bytes(&a)), (1, i32_bytes(&b)), (2, i32_bytes(&c))],
    );
}

/// The host program's run, `matrix-mul 50 10`: groups of 100 work-items (two waves, the
/// second with 36 lanes) meet at the tile barriers.
#[test]
fn matrix_mul_50_by_10() {
    matrix_mul(50, 10, 12);
}

/// Groups of 256 work-items, the most Cypress takes (four full waves per barrier).
#[test]
fn matrix_mul_64_by_16() {
    matrix_mul(64, 16, 13);
}

/// `info` names the Evergreen resources, `disasm` prints the TeraScale listing (the fetches
/// through fetch constant 153 and the RAT 11 store) and `disasm --ir` the lifted code
/// (`run` from the command line: appsdk_run.rs's cli_run_vector_add).
#[test]
fn cli_info_and_disasm() {
    let Some(file) = corpus_arg("vector-add.bin") else {
        return;
    };
    let info = cli_util::succeeds(&["info", &file]);
    for line in [
        "target: cypress (Evergreen, TeraScale 2)",
        "registers: 3 gprs, stack 0; SPI_COMPUTE_INPUT_CNTL 0x7",
        "arg 2: cb1+32  4 bytes, int* dst: global pointer, uav 11",
    ] {
        assert!(info.contains(line), "info lacks {line:?}:\n{info}");
    }
    let listing = cli_util::succeeds(&["disasm", &file]);
    for part in [
        "MEM_RAT_CACHELESS STORE_RAW T0.X, T1.X, 1 RAT_ID:11",
        "VFETCH T0.X___, T0.Y RID:153",
        "MULLO_INT * T0.X (MASKED), T1.X, KC0[1].X",
    ] {
        assert!(listing.contains(part), "{listing}");
    }
    let ir = cli_util::succeeds(&["disasm", &file, "--ir"]);
    assert!(ir.contains("vector_add"), "{ir}");
}

/// `wavejit wave` runs the kernel from a given state with no launch ABI: R0.x the local id,
/// R1.x the group id, CB0 (local size at dword 4, global offset at dword 24) and CB1 (the
/// pool offsets of src1, src2, dst at dwords 0, 4, 8) given as constants.
#[test]
fn wave_runs_from_a_state() {
    let Some(file) = corpus_arg("vector-add.bin") else {
        return;
    };
    let (group, offset) = (2u32, 5u32);
    let mut cb0 = [0u32; 64];
    cb0[4] = 64;
    cb0[24] = offset;
    // gid = 64 * group + lane + offset; each array's pointer is its pool offset minus 4 times
    // the gid of lane 0, so lane l reads and writes word l of its array. The pool starts at
    // the range's address rounded down to 64 KiB, GUEST_BASE, so the range is at pool
    // offset `at`.
    let first = 64 * group + offset;
    let at = 0x1000u32;
    let mut cb1 = [0u32; 12];
    for (slot, start) in [(0, 0u32), (4, 256), (8, 512)] {
        cb1[slot] = at + start - 4 * first;
    }
    let src1: Vec<u32> = (0..64).map(|l| 3 * l).collect();
    let src2: Vec<u32> = (0..64).map(|l| 0x1000 + l).collect();
    let mem = [src1.clone(), src2.clone(), vec![0x5555_5555; 64]].concat();
    let exec: u64 = 0xffff_0000_0000_fff0;
    let state = json!({
        "lanes": 64,
        "exec": format!("{exec:#x}"),
        "vector": {"R0.x": (0..64).collect::<Vec<u32>>(), "R1.x": group},
        "memory": [{"address": format!("{:#x}", GUEST_BASE + u64::from(at)), "bytes": hex(&mem)}],
        "constants": {"cb0": hex(&cb0), "cb1": hex(&cb1)}
    });
    for engine in ["jit", "interp"] {
        // No --target: the chip is the file's ("cypress" names the r600 object target).
        let path = cli_util::temp_path(&format!("eg-wave-{engine}.json"));
        std::fs::write(&path, state.to_string()).unwrap();
        let p = path.to_str().unwrap();
        let out = cli_util::succeeds(&["wave", &file, "--state", p, "--engine", engine]);
        std::fs::remove_file(&path).unwrap();
        let out: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(out.get("fault").is_none(), "{out}");
        let words = words_of_hex(out["memory"][0]["bytes"].as_str().unwrap());
        for l in 0..64usize {
            let want = if exec >> l & 1 == 1 {
                src1[l].wrapping_add(src2[l])
            } else {
                0x5555_5555
            };
            assert_eq!(words[128 + l], want, "{engine} lane {l}");
        }
    }
}

/// Launches the ABI cannot make, and an access outside every buffer, stop with one line
/// saying why, on both engines.
#[test]
fn bad_launches_are_one_line_errors() {
    let (Some(add), Some(mm)) = (corpus_arg("vector-add.bin"), corpus_arg("matrix-mul.bin")) else {
        return;
    };
    let run = |file: &str, kernel: &str, global: &str, local: &str, engine: &str, args: &[&str]| {
        let mut argv = vec![
            "run", file, "--kernel", kernel, "--global", global, "--local", local, "--engine",
            engine,
        ];
        for a in args {
            argv.extend(["--arg", a]);
        }
        cli_util::fails(&argv)
    };
    let z = "zero:256";
    for engine in ["jit", "interp"] {
        for (line, want) in [
            (
                run(&add, "vector_add", "64", "64", engine, &[z, z]),
                "kernel vector_add: takes 3 arguments (src1, src2, dst), got 2",
            ),
            (
                run(&mm, "matrix_mul", "50,50", "10,10", engine, &[z, z, z]),
                "kernel matrix_mul: takes 5 arguments (A, B, C, BlockA, BlockB), got 3",
            ),
            (
                run(
                    &mm,
                    "matrix_mul",
                    "50,50",
                    "10,10",
                    engine,
                    &[z, z, z, z, "u32:400"],
                ),
                "argument 4 (BlockB, int*) is a __local pointer",
            ),
            (
                run(&add, "vector_add", "100", "64", engine, &[z, z, z]),
                "is not a multiple of local size",
            ),
            (
                // 64 work-items of the second group read src1[64], past its 256 bytes.
                run(&add, "vector_add", "4096", "64", engine, &[z, z, z]),
                "out-of-bounds load from Global memory",
            ),
        ] {
            assert!(line.contains(want), "{engine}: {line:?} lacks {want:?}");
        }
    }
}
