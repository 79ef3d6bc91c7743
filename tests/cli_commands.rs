//! The `wavejit` binary on good input: `info` and `disasm` of fixtures against LLVM's own
//! readings of them, `run --save` against the host-computed expected outputs, thread-count
//! independence, and `.s` files under the launch convention of README.md "Assembly files".

mod cli_util;

use cli_util::{assert_mentions, root, succeeds, temp_path};
use std::collections::BTreeMap;

/// `field -> value` of a fixture's `.oracle.tsv` (read from the binary by llvm-readelf-14).
fn oracle(chip: &str, kernel: &str) -> BTreeMap<String, String> {
    let path = root().join(format!("tests/fixtures/gcn/{chip}/{kernel}.oracle.tsv"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

const KERNELS: [&str; 13] = [
    "atomics",
    "branches",
    "collatz",
    "f32_arith",
    "float_conv",
    "grid2d",
    "int64_ops",
    "int_alu",
    "lds_reduce",
    "math_f32",
    "matmul_tiled",
    "private_array",
    "uniform_loop",
];

#[test]
fn info_matches_the_metadata_llvm_reads() {
    for k in KERNELS {
        let o = oracle("gfx900", k);
        let text = succeeds(&["info", &format!("tests/fixtures/gcn/gfx900/{k}.hsaco")]);
        let sym = u64::from_str_radix(o["sym.value"].trim_start_matches("0x"), 16).unwrap();
        assert_mentions(
            &text,
            &[
                "target: gfx900 (gfx9), amdgcn-amd-amdhsa",
                &format!("kernel {k}:"),
                &format!(
                    "code: {} bytes at {sym:#x}; sgprs {}, vgprs {}, wave64",
                    o["sym.size"], o["md.sgpr_count"], o["md.vgpr_count"]
                ),
                &format!(
                    "lds: {} bytes; scratch: {} bytes per lane",
                    o["md.group_segment_fixed_size"], o["md.private_segment_fixed_size"]
                ),
                &format!(
                    "kernarg: {} bytes, align {}",
                    o["md.kernarg_segment_size"], o["md.kernarg_segment_align"]
                ),
            ],
        );
        for i in 0.. {
            let Some(offset) = o.get(&format!("md.arg.{i}.offset")) else {
                break;
            };
            let size = &o[&format!("md.arg.{i}.size")];
            assert_mentions(
                &text,
                &[&format!("arg {i}: offset {offset:>3}, size {size}, ")],
            );
        }
    }
}

/// Instruction lines of `llvm-objdump -d`, in the form `wavejit disasm` prints them: the
/// `// address: words` comment dropped, and a branch operand (the hex target in objdump's
/// `<kernel+0xNN>` annotation) written as `label_00NN`.
fn objdump_instructions(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    text.lines()
        .filter(|l| l.starts_with('\t'))
        .map(|l| {
            let (inst, comment) = l.split_once("//").unwrap_or((l, ""));
            let inst = inst.trim();
            let Some(target) = comment
                .split_once('<')
                .map(|(_, t)| t.trim_end_matches('>'))
            else {
                return inst.to_string();
            };
            let offset = match target.split_once("+0x") {
                Some((_, hex)) => u64::from_str_radix(hex, 16).unwrap(),
                None => 0,
            };
            let (head, _) = inst.rsplit_once(' ').unwrap();
            format!("{head} label_{offset:04X}")
        })
        .collect()
}

#[test]
fn disasm_matches_the_objdump_listing() {
    for chip in ["gfx900", "fiji"] {
        for k in KERNELS {
            let bin = format!("tests/fixtures/gcn/{chip}/{k}.hsaco");
            let text = succeeds(&["disasm", &bin, "--kernel", k]);
            assert!(text.starts_with(&format!("{k}:\n")), "{bin}: {text}");
            let got: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix('\t')).collect();
            let want = objdump_instructions(&format!("tests/fixtures/gcn/{chip}/{k}.dis"));
            assert_eq!(got, want, "{bin}");
        }
    }
}

#[test]
fn run_saves_the_expected_outputs() {
    let out = temp_path("branches_out.bin");
    let save = format!("0:{}", out.display());
    succeeds(&[
        "run",
        "tests/fixtures/gcn/gfx900/branches.hsaco",
        "--kernel",
        "branches",
        "--global",
        "256",
        "--local",
        "64",
        "--arg",
        "buf:tests/fixtures/data/branches/out.bin",
        "--arg",
        "buf:tests/fixtures/data/branches/in.bin",
        "--arg",
        "u32:200",
        "--save",
        &save,
    ]);
    let expected =
        std::fs::read(root().join("tests/fixtures/data/branches/out.expected.bin")).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), expected);
    let _ = std::fs::remove_file(out);
}

/// grid2d over 15 work-groups and the LDS reduction with its barriers (arguments from the
/// fixture manifest), saved after runs on one and on two threads under both engines: every
/// output is the expected one (so all runs give the same bytes).
#[test]
fn the_thread_count_does_not_change_the_result() {
    let text = std::fs::read_to_string(root().join("tests/fixtures/manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    for k in ["grid2d", "lds_reduce"] {
        let entry = m["kernels"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["kernel"] == k)
            .unwrap();
        let dims = |v: &serde_json::Value| {
            v.as_array()
                .unwrap()
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let (global, local) = (dims(&entry["global"]), dims(&entry["local"]));
        let bin = format!("tests/fixtures/gcn/gfx900/{k}.hsaco");
        for engine in ["jit", "interp"] {
            for threads in ["1", "2"] {
                let mut a = vec![
                    "run", &bin, "--kernel", k, "--global", &global, "--local", &local,
                ];
                a.extend(["--engine", engine, "--threads", threads]);
                for spec in entry["args"].as_array().unwrap() {
                    a.extend(["--arg", spec.as_str().unwrap()]);
                }
                let outputs = entry["outputs"].as_array().unwrap();
                let saves: Vec<(std::path::PathBuf, String)> = outputs
                    .iter()
                    .map(|o| {
                        let path = temp_path(&format!("{k}_{engine}_{threads}_{}.bin", o["arg"]));
                        let spec = format!("{}:{}", o["arg"], path.display());
                        (path, spec)
                    })
                    .collect();
                for (_, spec) in &saves {
                    a.extend(["--save", spec]);
                }
                succeeds(&a);
                for (o, (path, _)) in outputs.iter().zip(&saves) {
                    let expected =
                        std::fs::read(root().join(o["expected"].as_str().unwrap())).unwrap();
                    assert_eq!(
                        std::fs::read(path).unwrap(),
                        expected,
                        "{k} {} on {threads} threads ({engine})",
                        o["name"]
                    );
                    let _ = std::fs::remove_file(path);
                }
            }
        }
    }
}

/// Runs a `.s` program on gfx900 under `engine` and returns buffer argument 0.
fn run_asm(
    file: &str,
    kernel: &str,
    global: &str,
    local: &str,
    engine: &str,
    args: &[&str],
) -> Vec<u8> {
    let out = temp_path(&format!("{kernel}_{engine}.bin"));
    let save = format!("0:{}", out.display());
    let mut a = vec![
        "run", file, "--target", "gfx900", "--kernel", kernel, "--global", global, "--local", local,
    ];
    a.extend(["--engine", engine, "--save", &save]);
    for s in args {
        a.extend(["--arg", s]);
    }
    succeeds(&a);
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(out);
    bytes
}

/// The initial registers of the convention: tests/programs/ids.s stores, for each work-item,
/// s2, s3, s4 and v0 | v1 << 8 | v2 << 16 at its linear global id. A 6x3x2 grid of 4x2x2
/// groups has partial groups in x and y: work-items that do not exist must not run (the
/// buffer holds exactly the grid, so a stray lane would fault or be counted below).
#[test]
fn assembly_kernels_start_in_the_documented_state() {
    let (g, l) = ([6u32, 3, 2], [4u32, 2, 2]);
    let mut expected = vec![0u8; 16 * 36];
    for z in 0..g[2] {
        for y in 0..g[1] {
            for x in 0..g[0] {
                let linear = (x + g[0] * (y + g[1] * z)) as usize;
                let words = [
                    x / l[0],
                    y / l[1],
                    z / l[2],
                    (x % l[0]) | (y % l[1]) << 8 | (z % l[2]) << 16,
                ];
                for (i, w) in words.iter().enumerate() {
                    expected[16 * linear + 4 * i..][..4].copy_from_slice(&w.to_le_bytes());
                }
            }
        }
    }
    let args = ["zero:576", "u32:4", "u32:2", "u32:2", "u32:6", "u32:3"];
    for engine in ["jit", "interp"] {
        assert_eq!(
            run_asm(
                "tests/programs/ids.s",
                "ids",
                "6,3,2",
                "4,2,2",
                engine,
                &args
            ),
            expected,
            "{engine}"
        );
    }
}

#[test]
fn float_mode_defaults_to_denormals_kept_and_a_directive_overrides_it() {
    let prog = std::fs::read_to_string(root().join("tests/programs/denorm.s")).unwrap();
    let dir = temp_path("flush");
    std::fs::create_dir_all(&dir).unwrap();
    let flush = dir.join("denorm.s");
    std::fs::write(&flush, format!("; wavejit: float_mode 0xc0\n{prog}")).unwrap();
    for engine in ["jit", "interp"] {
        // 1.0 * 2^-149 is 2^-149 (bits 0x1) with denormals kept, +0 with f32 denormals flushed.
        assert_eq!(
            run_asm(
                "tests/programs/denorm.s",
                "denorm",
                "64",
                "64",
                engine,
                &["zero:4"]
            ),
            1u32.to_le_bytes()
        );
        let flushed = run_asm(
            flush.to_str().unwrap(),
            "denorm",
            "64",
            "64",
            engine,
            &["zero:4"],
        );
        assert_eq!(flushed, 0u32.to_le_bytes(), "{engine}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn globl_labels_are_kernels() {
    let prog = "tests/programs/two_kernels.s";
    for (k, v) in [("first", 1u32), ("second", 2)] {
        assert_eq!(
            run_asm(prog, k, "1", "1", "jit", &["zero:4"]),
            v.to_le_bytes(),
            "{k}"
        );
    }
    let info = succeeds(&["info", prog, "--target", "gfx900"]);
    assert_mentions(
        &info,
        &[
            "target: gfx900 (gfx9), assembly file",
            "kernel first:\n  code: 44 bytes at offset 0x0",
            "kernel second:\n  code: 36 bytes at offset 0x8",
        ],
    );
    // `second` disassembles from its own entry, with branch labels relative to it.
    let text = succeeds(&["disasm", prog, "--target", "gfx900", "--kernel", "second"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "second:",
            "\tv_mov_b32_e32 v1, 2",
            "\ts_load_dwordx2 s[6:7], s[0:1], 0x0"
        ]
    );
    let first = succeeds(&["disasm", prog, "--target", "gfx900", "--kernel", "first"]);
    assert_mentions(
        &first,
        &["\ts_branch label_000C\n\tv_mov_b32_e32 v1, 2\nlabel_000C:\n"],
    );
}
