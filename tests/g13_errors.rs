//! Apple G13 files through the `wavejit` binary: bad input (every failure exits non-zero with
//! one line on stderr that starts `wavejit: `, never a panic, and both engines report the
//! same line), and `info`, `disasm` and `wave` on G13 files.
//!
//! Expected pcs, lanes and addresses come from the programs in tests/programs/g13 (their
//! header comments derive them from the instruction sizes applegpu.py gives); raw code bytes
//! come from applegpu.py's own vectors (frontend/g13/tests/data/applegpu-vectors.tsv:
//! `3800` wait 0, `8800` stop, `0e293db50f3a0000` an 8-byte iadd); `ffff` is no instruction
//! applegpu.py decodes.

mod cli_util;

use cli_util::{assert_mentions, fails, lanes, succeeds, temp_path, wave, TempFile};
use serde_json::{json, Value};

const DIR: &str = "tests/programs/g13";
const WAIT: &str = "3800";
const STOP: &str = "8800";
const IADD: &str = "0e293db50f3a0000";

fn program(name: &str) -> String {
    format!("{DIR}/{name}.s")
}

fn unhex(h: &str) -> Vec<u8> {
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `wavejit run FILE --target g13 --kernel K --global G --local L --engine E EXTRA...`.
fn run_args<'a>(
    file: &'a str,
    kernel: &'a str,
    grid: [&'a str; 2],
    engine: &'a str,
) -> Vec<&'a str> {
    vec![
        "run", file, "--target", "g13", "--kernel", kernel, "--global", grid[0], "--local",
        grid[1], "--engine", engine,
    ]
}

/// The failure of a run under both engines: the same line from each.
fn fails_alike(file: &str, kernel: &str, grid: [&str; 2], extra: &[&str]) -> String {
    let mut lines = ["jit", "interp"].map(|engine| {
        let mut args = run_args(file, kernel, grid, engine);
        args.extend(extra);
        fails(&args)
    });
    assert_eq!(lines[0], lines[1], "the engines report different failures");
    std::mem::take(&mut lines[0])
}

/// A run that must succeed under both engines.
fn succeeds_alike(file: &str, kernel: &str, grid: [&str; 2], extra: &[&str]) {
    for engine in ["jit", "interp"] {
        let mut args = run_args(file, kernel, grid, engine);
        args.extend(extra);
        succeeds(&args);
    }
}

/// A raw code file and its kernel's name (the file stem).
fn raw(name: &str, code: &[u8]) -> (TempFile, String) {
    let file = TempFile::new(&format!("{name}.bin"), code);
    let stem = std::path::Path::new(&*file)
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    (file, stem)
}

#[test]
fn raw_code_runs_under_its_file_stem() {
    let (file, kernel) = raw("waitstop", &unhex(&format!("{WAIT}{STOP}")));
    succeeds_alike(&file, &kernel, ["64", "32"], &[]);
    let info = succeeds(&["info", &file, "--target", "g13"]);
    assert_mentions(
        &info,
        &[
            "target: g13",
            "raw code, 4 bytes",
            &format!("kernel {kernel}:"),
            "entry at offset 0x0, 2 reachable instructions",
        ],
    );
    let listing = succeeds(&["disasm", &file, "--target", "g13"]);
    assert_eq!(
        listing,
        format!("{kernel}:\n     0:  wait 0\n     2:  stop\n")
    );
}

#[test]
fn a_truncated_instruction_names_its_offset() {
    let mut code = unhex(&format!("{WAIT}{IADD}"));
    code.truncate(2 + 5);
    let (file, kernel) = raw("trunc", &code);
    let line = fails_alike(&file, &kernel, ["32", "32"], &[]);
    let why = [
        "offset 0x2",
        "cannot decode",
        "iadd instruction takes 8 bytes; 5 remain",
    ];
    assert_mentions(&line, &why);
    assert_mentions(&line, &[&format!("kernel {kernel}")]);
    assert_mentions(&fails(&["disasm", &file, "--target", "g13"]), &why);
    // `info` describes the file and says where its code stops decoding.
    assert_mentions(&succeeds(&["info", &file, "--target", "g13"]), &why);
}

#[test]
fn an_unknown_encoding_names_its_offset_and_bytes() {
    let (file, kernel) = raw("unknown", &unhex(&format!("{WAIT}ffffffffffffffff{STOP}")));
    let line = fails_alike(&file, &kernel, ["32", "32"], &[]);
    assert_mentions(
        &line,
        &["offset 0x2", "no instruction form matches the bytes ffff"],
    );
    assert_mentions(
        &fails(&["disasm", &file, "--target", "g13"]),
        &["offset 0x2", "ffff"],
    );
}

#[test]
fn a_jump_outside_the_code_faults_when_taken() {
    let file = program("jump_out");
    succeeds_alike(&file, "jump_out", ["64", "32"], &["--arg", "u32:0"]);
    let line = fails_alike(&file, "jump_out", ["64", "32"], &["--arg", "u32:40"]);
    assert_mentions(
        &line,
        &[
            "kernel jump_out",
            "guest fault at pc 0xe,",
            "group (0,0,0) wave 0",
            "jump outside the program",
        ],
    );
}

#[test]
fn an_endless_loop_stops_on_fuel_and_on_the_wall_clock() {
    let file = program("endless");
    let line = fails_alike(&file, "endless", ["64", "32"], &["--fuel", "1000"]);
    assert_mentions(
        &line,
        &[
            "kernel endless",
            "group (0,0,0) wave 0",
            "ran out of fuel",
            "at pc 0x6 ",
        ],
    );
    let line = fails_alike(&file, "endless", ["64", "32"], &["--timeout", "0.2"]);
    assert_mentions(
        &line,
        &[
            "kernel endless",
            "wall-clock limit of 0.2 s",
            "group (0,0,0) wave 0",
        ],
    );
}

#[test]
fn an_out_of_bounds_device_load_is_a_guest_fault() {
    let file = program("oob_device");
    let ok = ["--threads", "2", "--arg", "zero:1024", "--arg", "u32:256"];
    succeeds_alike(&file, "oob_device", ["256", "128"], &ok);
    let bad = ["--threads", "2", "--arg", "zero:1024", "--arg", "u32:197"];
    let line = fails_alike(&file, "oob_device", ["256", "128"], &bad);
    assert_mentions(
        &line,
        &[
            "kernel oob_device",
            "guest fault at pc 0x20,",
            "group (1,0,0) wave 2 lane 5 address 0x70000314",
            "out-of-bounds load",
        ],
    );
}

#[test]
fn an_out_of_bounds_threadgroup_store_is_a_guest_fault() {
    let file = program("oob_threadgroup");
    succeeds_alike(&file, "oob_threadgroup", ["256", "64"], &[]);
    let line = fails_alike(&file, "oob_threadgroup", ["256", "128"], &[]);
    assert_mentions(
        &line,
        &[
            "kernel oob_threadgroup",
            "guest fault at pc 0x4,",
            "group (0,0,0) wave 2",
            "threadgroup memory access out of bounds",
        ],
    );
}

#[test]
fn registers_past_r127_do_not_lift() {
    let file = program("beyond");
    let line = fails_alike(&file, "pair_source", ["32", "32"], &[]);
    assert_mentions(
        &line,
        &[
            "kernel pair_source",
            "offset 0x0",
            "iadd",
            "register r128 is beyond the register file",
        ],
    );
    let line = fails_alike(&file, "range_past", ["32", "32"], &["--arg", "zero:64"]);
    assert_mentions(
        &line,
        &[
            "kernel range_past",
            "offset 0xa",
            "device_load",
            "register r128 is beyond the register file",
        ],
    );
}

#[test]
fn empty_files_unknown_kernels_and_missing_targets_are_one_line_errors() {
    let (empty, kernel) = raw("empty", &[]);
    assert_mentions(
        &fails_alike(&empty, &kernel, ["32", "32"], &[]),
        &["empty file", "no G13 code"],
    );
    let text = TempFile::new("comments.s", "; nothing but a comment\nlabel:\n.globl x\n");
    let kernel = std::path::Path::new(&*text)
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert_mentions(
        &fails_alike(&text, &kernel, ["32", "32"], &[]),
        &["no instructions"],
    );
    let bad = TempFile::new("bad.s", "stop\nmov_imm r4, 0\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "g13"]),
        &["line 2", "mov_imm"],
    );

    let beyond = program("beyond");
    assert_mentions(
        &fails_alike(&beyond, "nope", ["32", "32"], &[]),
        &["nope", "pair_source, range_past"],
    );
    let vadd = program("vadd");
    let run = [
        "run",
        vadd.as_str(),
        "--kernel",
        "vadd",
        "--global",
        "32",
        "--local",
        "32",
    ];
    assert_mentions(&fails(&run), &["needs --target", "g13"]);
    assert_mentions(&fails(&["disasm", &vadd]), &["needs --target"]);
    // Raw code has no header: without --target it is no file wavejit recognises.
    let (stop, kernel) = raw("stop", &unhex(STOP));
    let line = fails(&[
        "run", &stop, "--kernel", &kernel, "--global", "32", "--local", "32",
    ]);
    assert!(
        line.contains("--target") || line.contains("not an ELF file"),
        "{line}"
    );
    let many: Vec<String> = (0..125)
        .flat_map(|_| ["--arg".into(), "u32:0".into()])
        .collect();
    let many: Vec<&str> = many.iter().map(String::as_str).collect();
    assert_mentions(
        &fails_alike(&vadd, "vadd", ["32", "32"], &many),
        &["125 arguments", "at most 124"],
    );
}

#[test]
fn info_lists_kernels_entries_and_threadgroup_memory() {
    let info = succeeds(&["info", &program("beyond"), "--target", "g13"]);
    assert_mentions(
        &info,
        &[
            "target: g13",
            "assembly file, 22 bytes",
            "kernel pair_source:\n  code: entry at offset 0x0, 2 reachable instructions",
            "kernel range_past:\n  code: entry at offset 0xa, 3 reachable instructions",
            "threadgroup memory: 32768 bytes",
            "u248-u250",
        ],
    );
    let info = succeeds(&["info", &program("reduce"), "--target", "g13"]);
    assert_mentions(&info, &["kernel reduce:", "threadgroup memory: 512 bytes"]);
}

/// The listing of every kernel program is its source: the same instructions in the same
/// text, labels resolved to the addresses the listing gives the instructions after them.
#[test]
fn disasm_prints_the_source_back() {
    for name in [
        "vadd",
        "saxpy",
        "collatz",
        "int_alu",
        "reduce",
        "matmul",
        "hist_device",
        "hist_threadgroup",
        "half",
    ] {
        let file = program(name);
        let listing = succeeds(&["disasm", &file, "--target", "g13"]);
        let mut lines = listing.lines();
        assert_eq!(lines.next(), Some(format!("{name}:").as_str()));
        let listed: Vec<(u64, &str)> = lines
            .map(|l| {
                let (pc, text) = l.split_once(":  ").unwrap();
                (u64::from_str_radix(pc.trim(), 16).unwrap(), text)
            })
            .collect();
        let source = std::fs::read_to_string(cli_util::root().join(&file)).unwrap();
        let mut insts = Vec::new();
        let mut labels = std::collections::HashMap::new();
        for line in source.lines() {
            let code = line.split(';').next().unwrap().trim();
            if let Some(label) = code.strip_suffix(':') {
                labels.insert(label.to_string(), insts.len());
            } else if !code.is_empty() {
                insts.push(code.to_string());
            }
        }
        assert_eq!(listed.len(), insts.len(), "{name}: instructions");
        for (i, src) in insts.iter().enumerate() {
            let want = match src.split_once("pc+") {
                Some((head, label)) => {
                    format!("{head}{:#X}", listed[labels[label]].0).replace("0X", "0x")
                }
                None => src.clone(),
            };
            assert_eq!(listed[i].1, want, "{name}: instruction {i}");
        }
        let ir = succeeds(&["disasm", &file, "--target", "g13", "--ir"]);
        assert_mentions(
            &ir,
            &[&format!("function \"{name}\" wave 32"), "lane r[128]"],
        );
    }
}

/// The bits of an f32 as G13's fmadd32 computes `a * x + y` for these normal inputs.
fn fma_bits(a: f32, x: f32, y: f32) -> u32 {
    a.mul_add(x, y).to_bits()
}

/// saxpy.s as one SIMD-group from a state: lanes 0-7 and 16-23 hold threads (exec
/// 0x00ff00ff), n = 20, so lanes 0-7 and 16-19 store; x, y and out at 0x1000, 0x2000, 0x3000;
/// r0's high half and r9 pass through.
#[test]
fn wave_runs_saxpy_from_a_state() {
    let x: Vec<f32> = (0..32).map(|i| i as f32 * 0.75 - 3.0).collect();
    let y: Vec<f32> = (0..32).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let a = -1.25f32;
    let f32s = |v: &[f32]| hex(&v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<_>>());
    let state = json!({
        "lanes": 32,
        "exec": "0x00ff00ff",
        "vector": {"r0": "0x12340000", "r9": (100..132).collect::<Vec<u32>>()},
        "scalar": {"u0": "0x1000", "u1": 0, "u2": "0x2000", "u3": 0, "u4": "0x3000", "u5": 0,
                   "u6": a.to_bits(), "u8": 20, "u255": 7},
        "memory": [
            {"address": "0x1000", "bytes": f32s(&x)},
            {"address": "0x2000", "bytes": f32s(&y)},
            {"address": "0x3000", "bytes": "aa".repeat(128)}
        ]
    });
    let live = |l: u32| 0x00ff_00ffu32 >> l & 1 == 1;
    let stores = |l: u32| live(l) && l < 20;
    for engine in ["jit", "interp"] {
        let trace = temp_path("g13-trace.jsonl");
        let t = trace.to_str().unwrap();
        let out = wave(
            &program("saxpy"),
            "g13",
            &state,
            &["--engine", engine, "--trace", t],
        );
        assert_eq!(out["lanes"], 32);
        assert_eq!(out["exec"], "0xff00ff");
        assert_eq!(out["instructions"], 11, "{out}");
        assert!(out.get("fault").is_none(), "{out}");
        assert_eq!(out["scalar"]["u255"], 7);
        assert_eq!(out["scalar"]["u8"], 20);
        assert_eq!(lanes(&out["vector"]["r0"]), vec![0x1234_0000; 32]);
        assert_eq!(
            lanes(&out["vector"]["r9"]),
            (100..132).collect::<Vec<u32>>()
        );
        let (r2, r5) = (lanes(&out["vector"]["r2"]), lanes(&out["vector"]["r5"]));
        let mut memory = vec![0xaau8; 128];
        for l in 0..32u32 {
            assert_eq!(r2[l as usize], if live(l) { l } else { 0 }, "r2 lane {l}");
            let want = stores(l).then(|| fma_bits(a, x[l as usize], y[l as usize]));
            assert_eq!(r5[l as usize], want.unwrap_or(0), "r5 lane {l}");
            if let Some(w) = want {
                memory[4 * l as usize..4 * l as usize + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        assert_eq!(out["memory"][2]["address"], 0x3000);
        assert_eq!(out["memory"][2]["bytes"], hex(&memory));
        assert_eq!(out["memory"][0]["bytes"], f32s(&x));
        // One trace line per instruction but `wait`; the if_icmp leaves lanes 20-23 at 1.
        let text = std::fs::read_to_string(&trace).unwrap();
        std::fs::remove_file(&trace).unwrap();
        let steps: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(steps.len(), 10, "{text}");
        assert_eq!(steps[2]["pc"], 8);
        assert_eq!(steps[2]["text"], "if_icmp r0l, ult, r2, u8, 1");
        let r0 = lanes(&steps[2]["writes"]["r0"]);
        for l in 0..32u32 {
            let pending = u32::from(live(l) && l >= 20);
            assert_eq!(
                r0[l as usize] & 0xffff,
                pending,
                "r0l lane {l} after if_icmp"
            );
        }
    }
}

#[test]
fn wave_reports_faults_and_rejects_registers_past_the_files() {
    let endless = program("endless");
    let out = wave(
        &endless,
        "g13",
        &json!({"vector": {"r127": 5}}),
        &["--fuel", "100"],
    );
    assert_mentions(out["fault"].as_str().unwrap(), &["out of fuel"]);
    assert_eq!(lanes(&out["vector"]["r127"]), vec![5; 32]);
    let out = wave(
        &program("jump_out"),
        "g13",
        &json!({"scalar": {"u0": 3}}),
        &[],
    );
    assert_mentions(
        out["fault"].as_str().unwrap(),
        &["pc 0xe", "jump outside the program"],
    );
    for (state, why) in [
        (json!({"vector": {"r128": 1}}), "unknown register 'r128'"),
        (json!({"scalar": {"u256": 1}}), "unknown register 'u256'"),
        (json!({"lanes": 64}), "32 lanes"),
        (json!({"vector": {"r1": [1, 2]}}), "2 values for 32 lanes"),
    ] {
        let path = temp_path("g13-bad-state.json");
        std::fs::write(&path, state.to_string()).unwrap();
        let p = path.to_str().unwrap();
        let line = fails(&["wave", &endless, "--target", "g13", "--state", p]);
        std::fs::remove_file(&path).unwrap();
        assert_mentions(&line, &[why]);
    }
}
