//! Bad AMD IL input from the command line: each case ends with one line on stderr and a
//! non-zero exit, never a panic or a hang (cli_util::fails checks the shape). Malformed token
//! streams, unknown opcodes, bad text and an endless loop are in amdil_cli.rs; here the
//! program shapes the lifter refuses, a call to a missing function, an out-of-bounds UAV
//! store, and a malformed CAL image inside an AMD APP SDK binary.

mod cli_util;

use cli_util::{fails, TempFile};
use std::path::Path;

/// Runs IL text `body` (after `il_cs_2_0`) as a one-wave kernel with a 64-byte buffer
/// argument; returns the one-line error.
fn run_il(name: &str, body: &str) -> String {
    let file = TempFile::new(&format!("{name}.il"), format!("il_cs_2_0\n{body}end\n"));
    let path: &str = &file;
    let kernel = Path::new(path).file_stem().unwrap().to_str().unwrap();
    fails(&[
        "run", path, "--kernel", kernel, "--global", "64", "--local", "64", "--arg", "zero:64",
    ])
}

#[test]
fn unbalanced_blocks_are_refused() {
    for (name, body, want) in [
        (
            "open_if",
            "if_logicalnz vTidInGrp.x\nmov r1, r0\n",
            "`end`: invalid: main ends inside an if, loop or switch (L3085)",
        ),
        (
            "open_loop",
            "whileloop\nmov r1, r0\n",
            "main ends inside an if, loop or switch",
        ),
        (
            "open_switch",
            "switch vTidInGrp.x\ncase 0\nbreak\n",
            "main ends inside an if, loop or switch",
        ),
        (
            "stray_endif",
            "endif\n",
            "`endif`: invalid: endif without an open if (L3768)",
        ),
        ("stray_endloop", "endloop\n", "`endloop`: invalid"),
        ("stray_endswitch", "endswitch\n", "`endswitch`: invalid"),
    ] {
        let line = run_il(name, body);
        assert!(line.contains(want), "{name}: {line:?} lacks {want:?}");
    }
}

#[test]
fn a_call_to_a_missing_function_is_refused() {
    let line = run_il("no_func", "call 7\nendmain\nfunc 8\nret\nendfunc\n");
    assert!(
        line.contains("`call 7`: invalid: call to undefined function 7"),
        "{line}"
    );
}

/// A raw UAV store 1 MiB past the arena's start, far outside the one 64-byte buffer: a guest
/// fault that names the lane and the address, on both engines.
#[test]
fn an_out_of_bounds_uav_store_is_a_guest_fault() {
    let body = "dcl_raw_uav_id(11)
dcl_literal l0, 0x00100000, 0x00000000, 0x00000000, 0x00000000
uav_raw_store_id(11) mem.x___, l0.x, l0.x
";
    let file = TempFile::new("oob_store.il", format!("il_cs_2_0\n{body}end\n"));
    let path: &str = &file;
    let kernel = Path::new(path).file_stem().unwrap().to_str().unwrap();
    for engine in ["jit", "interp"] {
        let line = fails(&[
            "run", path, "--kernel", kernel, "--global", "64", "--local", "64", "--arg", "zero:64",
            "--engine", engine,
        ]);
        assert!(
            line.contains("guest fault at pc 0x24")
                && line.contains("lane 0 address 0x")
                && line.contains("out-of-bounds store to Global memory"),
            "{engine}: {line}"
        );
    }
}

/// A corpus binary whose first CAL image has its program header count overwritten: `info`
/// and `run` (either encoding) say what is wrong with the image.
#[test]
fn a_malformed_cal_image_is_refused() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora/amd-app-sdk/si/vector-add.bin");
    let Ok(bytes) = std::fs::read(&corpus) else {
        println!("NOT RUN: {} absent", corpus.display());
        return;
    };
    let image = bytes[4..]
        .windows(4)
        .position(|w| w == b"\x7fELF")
        .expect("an inner CAL image")
        + 4;
    let mut bad = bytes.clone();
    // e_phnum of the ELF32 header.
    bad[image + 0x2c..image + 0x2e].copy_from_slice(&0xffffu16.to_le_bytes());
    let file = TempFile::new("bad_cal.bin", bad);
    let path: &str = &file;
    let run = |extra: &[&str]| {
        let mut argv = vec![
            "run",
            path,
            "--kernel",
            "vector_add",
            "--global",
            "64",
            "--local",
            "64",
        ];
        argv.extend(extra);
        fails(&argv)
    };
    for line in [fails(&["info", path]), run(&[]), run(&["--encoding", "il"])] {
        assert!(line.contains("CAL image: "), "{line}");
    }
}
