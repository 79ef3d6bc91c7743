//! Bad input to the `wavejit` binary: every failure exits non-zero with exactly one line on
//! stderr that starts `wavejit: `, never a panic; run-time failures name the kernel and the pc
//! (and the wave, lane and address where they apply), and both engines report the same.
//!
//! Expected pcs, lanes and addresses come from the programs in `tests/programs` (their header
//! comments derive them; the instruction sizes were checked with `llvm-mc-14 -show-encoding`).

mod cli_util;

use cli_util::{assert_mentions, fails, root, temp_path, TempFile};

const BRANCHES: &str = "tests/fixtures/gcn/gfx900/branches.hsaco";
const BRANCHES_ARGS: [&str; 6] = [
    "--arg",
    "zero:1024",
    "--arg",
    "buf:tests/fixtures/data/branches/in.bin",
    "--arg",
    "u32:200",
];

/// `wavejit run FILE --kernel K --global G --local L EXTRA...` under `engine`.
fn run_args<'a>(
    file: &'a str,
    kernel: &'a str,
    global: &'a str,
    local: &'a str,
    engine: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    let mut v = vec![
        "run", file, "--kernel", kernel, "--global", global, "--local", local, "--engine", engine,
    ];
    v.extend_from_slice(extra);
    v
}

/// The failure of a run under both engines: the same line from each.
fn fails_alike(file: &str, kernel: &str, global: &str, local: &str, extra: &[&str]) -> String {
    let jit = fails(&run_args(file, kernel, global, local, "jit", extra));
    let interp = fails(&run_args(file, kernel, global, local, "interp", extra));
    assert_eq!(jit, interp, "the engines report different failures");
    jit
}

/// Deterministic pseudo-random bytes (xorshift64*).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

#[test]
fn random_bytes_are_not_a_code_object() {
    for (seed, len) in [(1, 0), (2, 7), (3, 64), (4, 3000)] {
        let file = TempFile::new(&format!("noise{seed}.hsaco"), noise(seed, len));
        assert_mentions(&fails(&["info", &file]), &["not an ELF file"]);
        let line = fails(&run_args(&file, "k", "64", "64", "jit", &[]));
        assert_mentions(&line, &["not an ELF file"]);
    }
    // A real ELF header followed by noise gets past the identification: whatever the loader
    // finds wrong, it says so in one line.
    let header = &std::fs::read(root().join(BRANCHES)).unwrap()[..64];
    for seed in 5..13 {
        let mut bytes = header.to_vec();
        bytes.extend(noise(seed, 4000));
        let file = TempFile::new(&format!("noise{seed}.hsaco"), &bytes);
        fails(&["info", &file]);
        fails(&["disasm", &file]);
    }
}

#[test]
fn truncated_code_objects_are_rejected() {
    for fixture in [BRANCHES, "tests/fixtures/gcn/legacy-tahiti/branches.o"] {
        let bytes = std::fs::read(root().join(fixture)).unwrap();
        let len = bytes.len();
        for cut in [0, 4, 16, 63, 64, len / 4, len / 2, 3 * len / 4, len - 1] {
            let file = TempFile::new(&format!("cut{cut}.o"), &bytes[..cut]);
            let line = fails(&["info", &file]);
            let want = if cut == 0 {
                "not an ELF file"
            } else {
                "truncated ELF file"
            };
            assert_mentions(&line, &[want]);
            let run = fails(&run_args(
                &file,
                "branches",
                "256",
                "64",
                "jit",
                &BRANCHES_ARGS,
            ));
            assert_eq!(run, line, "run and info disagree on {fixture} cut at {cut}");
        }
    }
}

#[test]
fn a_missing_kernel_lists_the_available_ones() {
    let line = fails(&run_args(
        BRANCHES,
        "nope",
        "256",
        "64",
        "jit",
        &BRANCHES_ARGS,
    ));
    assert_eq!(line, "wavejit: kernel nope not found; available: branches");
    assert_eq!(fails(&["disasm", BRANCHES, "--kernel", "nope"]), line);
    let s = "tests/programs/two_kernels.s";
    let line = fails(&[
        "run", s, "--target", "gfx900", "--kernel", "third", "--global", "1", "--local", "1",
    ]);
    assert_eq!(
        line,
        "wavejit: kernel third not found; available: first, second"
    );
}

#[test]
fn an_undecodable_word_names_the_kernel_and_its_offset() {
    // branches' code starts with `s_load_dword s0, s[4:5], 0x4` (C0020002 00000004 in the
    // objdump listing); its instruction at +0x20 is `v_add_u32_e32 v0, s8, v0`, which becomes
    // 0xffffffff: encoding bits 111111 belong to no gfx9 format.
    let mut bytes = std::fs::read(root().join(BRANCHES)).unwrap();
    let first: Vec<u8> = [0xC002_0002u32, 4]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let code = bytes
        .windows(8)
        .position(|w| w == first)
        .expect("the code is in the file");
    assert_eq!(
        &bytes[code + 0x20..code + 0x24],
        &0x6800_0008u32.to_le_bytes()
    );
    bytes[code + 0x20..code + 0x24].copy_from_slice(&0xffff_ffffu32.to_le_bytes());
    let file = TempFile::new("undecodable.hsaco", &bytes);
    let line = fails_alike(&file, "branches", "256", "64", &BRANCHES_ARGS);
    assert_mentions(&line, &["kernel branches", "offset 0x20", "cannot decode"]);
    assert_mentions(&fails(&["disasm", &file]), &["kernel branches", "byte 32"]);
}

#[test]
fn a_branch_outside_the_code_is_a_guest_fault() {
    let line = fails_alike(
        "tests/programs/branch_out.s",
        "branch_out",
        "64",
        "64",
        &["--target", "gfx900"],
    );
    assert_mentions(
        &line,
        &[
            "kernel branch_out",
            "guest fault",
            "group (0,0,0) wave 0",
            "jump outside the program",
        ],
    );
}

/// The fault should name the branch (pc 0x8), as every other fault names its instruction.
#[test]
fn a_branch_outside_the_code_names_the_branch() {
    let line = fails_alike(
        "tests/programs/branch_out.s",
        "branch_out",
        "64",
        "64",
        &["--target", "gfx900"],
    );
    assert_mentions(&line, &["pc 0x8,"]);
}

#[test]
fn an_endless_loop_runs_out_of_fuel() {
    let line = fails_alike(
        "tests/programs/endless.s",
        "endless",
        "64",
        "64",
        &["--target", "gfx900", "--fuel", "1000"],
    );
    assert_mentions(
        &line,
        &[
            "kernel endless",
            "group (0,0,0) wave 0",
            "ran out of fuel",
            "at pc 0x4 ",
        ],
    );
}

#[test]
fn an_endless_loop_hits_the_wall_clock_limit() {
    let extra = ["--target", "gfx900", "--timeout", "0.2"];
    let line = fails_alike("tests/programs/endless.s", "endless", "64", "64", &extra);
    assert_mentions(
        &line,
        &[
            "kernel endless",
            "wall-clock limit of 0.2 s",
            "pc 0x4,",
            "group (0,0,0) wave 0",
        ],
    );
}

#[test]
fn an_out_of_bounds_load_is_a_guest_fault() {
    let extra = ["--target", "gfx900", "--threads", "2", "--arg", "zero:1024"];
    let line = fails_alike(
        "tests/programs/oob_load.s",
        "oob_load",
        "256",
        "128",
        &extra,
    );
    assert_mentions(
        &line,
        &[
            "kernel oob_load",
            "pc 0x40,",
            "group (1,0,0) wave 1 lane 5 address 0x70000314",
            "out-of-bounds load",
        ],
    );
}

#[test]
fn an_out_of_bounds_store_is_a_guest_fault_and_nothing_is_saved() {
    let saved = temp_path("oob_store.bin");
    let _ = std::fs::remove_file(&saved);
    let save = format!("0:{}", saved.display());
    let extra = [
        "--target",
        "gfx900",
        "--threads",
        "2",
        "--arg",
        "zero:1024",
        "--save",
        &save,
    ];
    let line = fails_alike(
        "tests/programs/oob_store.s",
        "oob_store",
        "256",
        "128",
        &extra,
    );
    assert_mentions(
        &line,
        &[
            "kernel oob_store",
            "pc 0x40,",
            "group (1,0,0) wave 0 lane 7 address 0x7000021c",
            "out-of-bounds store",
        ],
    );
    assert!(!saved.exists(), "a failed run saved its buffers");
}

#[test]
fn assembly_files_need_a_known_target_and_valid_text() {
    let prog = "tests/programs/endless.s";
    let run = |target: &[&str]| {
        let mut a = vec![
            "run", prog, "--kernel", "endless", "--global", "1", "--local", "1",
        ];
        a.extend_from_slice(target);
        fails(&a)
    };
    assert_mentions(&run(&[]), &[prog, "needs --target"]);
    assert_mentions(
        &run(&["--target", "gfx1100"]),
        &["unknown target 'gfx1100'"],
    );
    assert_mentions(&fails(&["info", prog]), &["needs --target"]);
    assert_mentions(&fails(&["disasm", prog]), &["needs --target"]);

    let bad = TempFile::new("bad.s", b"\ts_nop 0\n\tv_frobnicate v0, v1\n");
    assert_mentions(
        &fails(&["disasm", &bad, "--target", "gfx900"]),
        &["bad.s: line 2:"],
    );
    let bad = TempFile::new("undeclared.s", b"\t.globl\tmain\n\ts_endpgm\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "gfx900"]),
        &["line 1:", "`main`", "no label"],
    );
    let bad = TempFile::new("directive.s", b"; wavejit: float_mode 0x1ff\n\ts_endpgm\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "gfx900"]),
        &["line 1:", "FLOAT_MODE is one byte"],
    );
    let bad = TempFile::new("latin1.s", b"; caf\xe9\n\ts_endpgm\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "gfx900"]),
        &["not UTF-8"],
    );
}

#[test]
fn argument_errors_are_one_line() {
    let run = |extra: &[&str]| fails(&run_args(BRANCHES, "branches", "256", "64", "jit", extra));
    assert_mentions(
        &run(&["--arg", "zero:1024"]),
        &["kernel branches", "takes 3 arguments, got 1"],
    );
    assert_mentions(
        &run(&["--arg", "u32:1", "--arg", "zero:4", "--arg", "u32:3"]),
        &["argument 0 needs a pointer"],
    );
    assert_mentions(
        &run(&["--arg", "zero:1024", "--arg", "zero:1024", "--arg", "u64:3"]),
        &["argument 2 is 4 bytes, the value given is 8"],
    );
    assert_mentions(
        &run(&[
            "--arg",
            "zero:1024",
            "--arg",
            "buf:tests/no/such.bin",
            "--arg",
            "u32:3",
        ]),
        &["tests/no/such.bin"],
    );
    let save = [
        "--arg",
        "zero:1024",
        "--arg",
        "zero:1024",
        "--arg",
        "u32:3",
        "--save",
        "2:/dev/null",
    ];
    assert_mentions(&run(&save), &["argument 2 is not a buffer"]);
    assert_mentions(
        &fails(&run_args(BRANCHES, "branches", "0", "64", "jit", &[])),
        &["bad size '0'"],
    );
    assert_mentions(
        &fails(&run_args(BRANCHES, "branches", "256", "2000", "jit", &[])),
        &["exceeds 1024"],
    );
    assert_mentions(&run(&["--timeout", "0"]), &["bad --timeout"]);
    // Rejected by the SPEC parser while the command line is read: still one line.
    for spec in ["u32:-1", "i32:2147483648", "zero:x", "q:1", "f32:abc"] {
        let line = fails(&run_args(
            BRANCHES,
            "branches",
            "256",
            "64",
            "jit",
            &["--arg", spec],
        ));
        assert_mentions(&line, &[&format!("bad argument spec '{spec}'")]);
    }
    assert_mentions(&fails(&["run", BRANCHES]), &["--kernel"]);
    assert_mentions(&fails(&["frobnicate"]), &["frobnicate"]);
}
