//! The `wavejit` binary on r600-family objects (tests/fixtures/terascale): `info` against the
//! values llvm-readelf-14 and llc read (the fixtures' `.oracle.tsv`), `--target`, and bad input:
//! every failure is one line on stderr starting `wavejit: `, a non-zero exit, never a panic.

mod cli_util;

use cli_util::{assert_mentions, fails, root, succeeds, temp_path, TempFile};
use std::collections::BTreeMap;

const BRANCHES: &str = "tests/fixtures/terascale/cayman/branches.o";

/// `field -> value` of a fixture's `.oracle.tsv`.
fn oracle(chip: &str, kernel: &str) -> BTreeMap<String, String> {
    let path = root().join(format!(
        "tests/fixtures/terascale/{chip}/{kernel}.oracle.tsv"
    ));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn hex(s: &str) -> u64 {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap()
}

/// The value the oracle's `.AMDGPU.config` dump gives register `reg`.
fn config(o: &BTreeMap<String, String>, reg: u64) -> u64 {
    (0..)
        .map_while(|i| o.get(&format!("config.{i}")))
        .find_map(|pair| {
            let (r, v) = pair.split_once(' ').unwrap();
            (hex(r) == reg).then(|| hex(v))
        })
        .unwrap_or_else(|| panic!("register {reg:#x} not in the oracle"))
}

#[test]
fn info_gives_the_values_llvm_wrote() {
    for (chip, class, kernel) in [
        ("cayman", "VLIW4", "branches"),
        ("cayman", "VLIW4", "lds_reduce"),
        ("cypress", "VLIW5", "matmul_tiled"),
        ("barts", "VLIW5", "private_array"),
    ] {
        let o = oracle(chip, kernel);
        let text = succeeds(&[
            "info",
            &format!("tests/fixtures/terascale/{chip}/{kernel}.o"),
        ]);
        // SQ_PGM_RESOURCES_LS: NUM_GPRS [7:0], STACK_SIZE [15:8]; SQ_LDS_ALLOC in dwords.
        let resources = config(&o, 0x288d4);
        assert_eq!(o["asm.stack_size"], ((resources >> 8) & 0xff).to_string());
        assert_mentions(
            &text,
            &[
                &format!(
                    "target: {chip} ({class}), r600-- (ELF32 relocatable, e_flags {:#x})",
                    hex(&o["elf.flags"])
                ),
                &format!("kernel {kernel}:"),
                &format!(
                    "code: {} bytes at .text+{:#x}; gprs {}, stack {}, wave64",
                    o["sym.size"],
                    hex(&o["sym.value"]),
                    resources & 0xff,
                    o["asm.stack_size"]
                ),
                &format!("lds: {} bytes", config(&o, 0x288e8) * 4),
                "constant buffer 0 after its 36-byte header",
            ],
        );
        if let Some(lds) = o.get("asm.lds_bytes") {
            assert_mentions(&text, &[&format!("lds: {lds} bytes")]);
        }
    }
}

#[test]
fn target_overrides_the_chip_of_the_file() {
    let text = succeeds(&[
        "info",
        "tests/fixtures/terascale/cypress/branches.o",
        "--target",
        "juniper",
    ]);
    assert_mentions(
        &text,
        &["target: juniper (VLIW5; --target overrides the file's cypress)"],
    );
    // Decoding follows the chip's class: juniper reads the same VLIW5 tables as cypress.
    let as_cypress = succeeds(&["disasm", "tests/fixtures/terascale/cypress/branches.o"]);
    let as_juniper = succeeds(&[
        "disasm",
        "tests/fixtures/terascale/cypress/branches.o",
        "--target",
        "juniper",
    ]);
    assert_eq!(
        as_cypress, as_juniper,
        "juniper and cypress share the VLIW5 tables"
    );
}

#[test]
fn targets_of_the_other_isa_or_none_are_rejected() {
    assert_eq!(
        fails(&["info", BRANCHES, "--target", "gfx900"]),
        "wavejit: target 'gfx900' is a gcn chip, but the file is a terascale file"
    );
    assert_eq!(
        fails(&[
            "info",
            "tests/fixtures/gcn/gfx900/branches.hsaco",
            "--target",
            "cayman"
        ]),
        "wavejit: target 'cayman' is a terascale chip, but the file is a gcn file"
    );
    let unknown = fails(&["disasm", BRANCHES, "--target", "rv770"]);
    assert!(
        unknown.starts_with("wavejit: unknown target 'rv770' (targets: ")
            && unknown.contains("cayman")
            && unknown.contains("gfx900"),
        "{unknown}"
    );
}

fn run_args<'a>(file: &'a str, kernel: &'a str, engine: &'a str) -> Vec<&'a str> {
    vec![
        "run",
        file,
        "--kernel",
        kernel,
        "--global",
        "256",
        "--local",
        "64",
        "--engine",
        engine,
        "--arg",
        "zero:1024",
        "--arg",
        "zero:1024",
        "--arg",
        "u32:200",
    ]
}

#[test]
fn truncated_objects_are_rejected_in_one_line() {
    let bytes = std::fs::read(root().join(BRANCHES)).unwrap();
    let len = bytes.len();
    for cut in [0, 4, 20, 51, 52, len / 4, len / 2, 3 * len / 4, len - 1] {
        let file = TempFile::new(&format!("ts-cut{cut}.o"), &bytes[..cut]);
        let line = fails(&["info", &file]);
        let want = if cut == 0 {
            "not an ELF file"
        } else {
            "truncated ELF file"
        };
        assert_mentions(&line, &[want]);
        assert_eq!(
            fails(&run_args(&file, "branches", "jit")),
            line,
            "cut at {cut}"
        );
        assert_eq!(fails(&["disasm", &file]), line, "cut at {cut}");
    }
}

#[test]
fn an_unknown_chip_in_e_flags_is_named() {
    let mut bytes = std::fs::read(root().join(BRANCHES)).unwrap();
    // e_flags is the ELF32 header's word at byte 36; 0x3f is no EF_AMDGPU_MACH_R600_* value.
    bytes[36..40].copy_from_slice(&0x3fu32.to_le_bytes());
    let file = TempFile::new("ts-eflags.o", &bytes);
    assert_mentions(&fails(&["info", &file]), &["unsupported processor", "0x3f"]);
    // With a chip given, the file is still not one wavejit can trust to be r600 code.
    assert_mentions(
        &fails(&["info", &file, "--target", "cayman"]),
        &["unsupported processor"],
    );
}

#[test]
fn a_missing_kernel_lists_the_available_ones() {
    let want = "wavejit: kernel nope not found; available: branches";
    assert_eq!(fails(&run_args(BRANCHES, "nope", "interp")), want);
    assert_eq!(fails(&["disasm", BRANCHES, "--kernel", "nope"]), want);
}

#[test]
fn an_unknown_cf_opcode_names_the_kernel_and_the_word() {
    let o = oracle("cayman", "branches");
    let mut bytes = std::fs::read(root().join(BRANCHES)).unwrap();
    // CF word 0's second dword: CF_INST [29:22] = 44, which no Evergreen/Cayman CF_WORD1 uses
    // (the CF instruction table of the Cayman ISA document stops at 42).
    let at = hex(&o["text.offset"]) as usize + 4;
    let w1 = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let w1 = (w1 & !(0xff << 22)) | (44 << 22);
    bytes[at..at + 4].copy_from_slice(&w1.to_le_bytes());
    let file = TempFile::new("ts-opcode.o", &bytes);
    let want = "wavejit: kernel branches: unknown CF opcode 44 at word 0";
    assert_eq!(fails(&["disasm", &file]), want);
    assert_eq!(fails(&run_args(&file, "branches", "jit")), want);
    assert_eq!(fails(&run_args(&file, "branches", "interp")), want);
}

#[test]
fn bad_launch_sizes_name_the_kernel() {
    let mut args = run_args(BRANCHES, "branches", "jit");
    args[7] = "2048";
    args[5] = "2048";
    assert_mentions(
        &fails(&args),
        &["kernel branches", "invalid launch", "exceeds 1024"],
    );
}

#[test]
fn an_instruction_the_lifter_refuses_is_named_in_one_line() {
    let mut bytes = std::fs::read(root().join(BRANCHES)).unwrap();
    // CF 13 (`POP @14 POP:1` in branches.s) becomes INTERRUPT (CF_INST 40, every other field
    // 0): it decodes and prints, but the lifter has no interrupt to raise.
    let at = hex(&oracle("cayman", "branches")["text.offset"]) as usize + 13 * 8;
    bytes[at..at + 8].copy_from_slice(&[0, 0, 0, 0, 0, 0, 0x00, 0x0a]);
    let file = TempFile::new("ts-interrupt.o", &bytes);
    let text = succeeds(&["disasm", &file]);
    assert_eq!(text.lines().nth(14), Some("\tINTERRUPT NO_BARRIER"));
    let line = fails(&run_args(&file, "branches", "jit"));
    assert_mentions(
        &line,
        &["kernel branches: CF @13", "INTERRUPT", "unsupported"],
    );
    assert_eq!(fails(&run_args(&file, "branches", "interp")), line);
    assert_eq!(fails(&["disasm", &file, "--ir"]), line);
}

/// `run --save` of r600 fixtures under both engines gives the host-computed expected outputs.
#[test]
fn run_saves_the_expected_outputs() {
    let data = "tests/fixtures/data";
    for (chip, engine) in [("cayman", "jit"), ("barts", "interp"), ("cypress", "jit")] {
        let out = temp_path(&format!("ts-{chip}-{engine}.bin"));
        let sums = temp_path(&format!("ts-{chip}-{engine}-sums.bin"));
        let save0 = format!("0:{}", out.display());
        let save1 = format!("1:{}", sums.display());
        let file = format!("tests/fixtures/terascale/{chip}/uniform_loop.o");
        let x = format!("buf:{data}/uniform_loop/x.bin");
        let coef = format!("buf:{data}/uniform_loop/coef.bin");
        succeeds(&[
            "run",
            &file,
            "--kernel",
            "uniform_loop",
            "--global",
            "256",
            "--local",
            "64",
            "--engine",
            engine,
            "--arg",
            "zero:1024",
            "--arg",
            "zero:1024",
            "--arg",
            &x,
            "--arg",
            &coef,
            "--arg",
            "u32:13",
            "--save",
            &save0,
            "--save",
            &save1,
        ]);
        for (path, expected) in [(&out, "out"), (&sums, "sums")] {
            let want =
                std::fs::read(root().join(format!("{data}/uniform_loop/{expected}.expected.bin")))
                    .unwrap();
            assert!(
                std::fs::read(path).unwrap() == want,
                "{chip} {engine} {expected}"
            );
            let _ = std::fs::remove_file(path);
        }
    }
}
