//! `.s` files for r600 chips (src/isa/terascale/asm.rs): llc's own listings assemble to the
//! bytes llc put in the objects; the example programs in tests/programs/r600_*.s run on both
//! engines with outputs computed here from the programs' documented formulas; GDS is shared by
//! all work-groups and zeroed before each dispatch; faults and malformed input are one-line
//! errors with a non-zero exit.

mod cli_util;

use cli_util::{assert_mentions, fails, root, succeeds, temp_path, TempFile};
use std::path::Path;
use std::time::Duration;
use wavejit::launch::RunRequest;
use wavejit::spec::ArgSpec;
use wavejit::EngineKind;
use wavejit_terascale::Chip;

const LANES: &str = "tests/programs/r600_lanes.s";
const GDS: &str = "tests/programs/r600_gds_tickets.s";
const OOB: &str = "tests/programs/r600_oob_store.s";

fn ts_kernels(path: &Path, chip: &str) -> Vec<(String, Vec<u8>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let chip = Chip::from_name(chip).unwrap();
    match wavejit::isa::terascale::asm::parse(path, &text, chip) {
        Ok(object) => object
            .kernels
            .into_iter()
            .map(|k| (k.name, k.code))
            .collect(),
        Err(e) => panic!("{}: {e}", path.display()),
    }
}

#[test]
fn llc_listings_assemble_to_the_bytes_of_llcs_objects() {
    let fixtures = root().join("tests/fixtures/terascale");
    let (mut compared, mut marked_listings) = (0, 0);
    for chip in ["barts", "cayman", "cypress", "juniper", "redwood"] {
        let dir = fixtures.join(chip);
        let mut objects: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "o"))
            .collect();
        objects.sort();
        for object in objects {
            let loaded = wavejit_terascale::loader::load(&std::fs::read(&object).unwrap()).unwrap();
            let want: Vec<(String, Vec<u8>)> = loaded
                .kernels
                .into_iter()
                .map(|k| (k.name, k.code))
                .collect();
            // The plain listing and the one with `; encoding:` comments.
            for listing in [object.with_extension("s"), object.with_extension("enc.s")] {
                let text = std::fs::read_to_string(&listing).unwrap();
                let (marked, marks) = with_dword64_masks(&text, &want);
                let path = if marks == 0 {
                    listing.clone()
                } else {
                    marked_listings += 1;
                    let path = temp_path(&format!("{chip}-marked.s"));
                    std::fs::write(&path, &marked).unwrap();
                    path
                };
                let got = ts_kernels(&path, chip);
                if marks != 0 {
                    std::fs::remove_file(&path).unwrap();
                }
                assert!(
                    got == want,
                    "{}: not the object's kernels and bytes",
                    listing.display()
                );
            }
            compared += 1;
        }
        let probe = fixtures.join(format!("abi/{chip}/args_probe.s"));
        assert_eq!(ts_kernels(&probe, chip).len(), 1, "{}", probe.display());
    }
    // Every fixture kernel on the five chips but the three llc-14 rejects (missing.tsv).
    let kernels = wavejit::fixtures::manifest().unwrap().kernels.len();
    assert_eq!(compared, 5 * kernels - 3);
    // cayman's float_conv and int64_ops store 64 bits; plain and encoding listings.
    assert_eq!(marked_listings, 4);
}

/// `text` with `COMP_MASK:3` added to every STORE_DWORD that llc's `bytes` store as 64 bits
/// (COMP_MASK, CF dword 1 bits [15:12], = 3). LLVM prints the 64- and 128-bit forms alike, and
/// the text without the token is the 128-bit one (the one documented addition to llc's text,
/// frontend/terascale/src/print.rs). CF word `i` of a kernel is its `i`-th program line.
fn with_dword64_masks(text: &str, kernels: &[(String, Vec<u8>)]) -> (String, usize) {
    let (mut out, mut marks) = (Vec::new(), 0);
    let mut current: Option<(&[u8], usize)> = None;
    for line in text.lines() {
        let code = line.split(';').next().unwrap();
        if let Some(name) = code.trim().strip_suffix(':') {
            if let Some((_, bytes)) = kernels.iter().find(|k| k.0 == name) {
                current = Some((bytes, 0));
            }
        }
        let program = line.starts_with('\t') && !code.trim().is_empty() && !line.starts_with("\t.");
        let mut marked = line.to_string();
        if let (true, Some((bytes, word))) = (program, current.as_mut()) {
            let w1 = bytes
                .get(*word * 8 + 4..*word * 8 + 8)
                .map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap()));
            let rw = code
                .split("STORE_DWORD ")
                .nth(1)
                .and_then(|r| r.split(',').next());
            if rw.is_some_and(|r| !r.ends_with(".X")) && (w1 >> 12) & 0xf == 3 {
                marked = format!("{} COMP_MASK:3{}", code.trim_end(), &line[code.len()..]);
                marks += 1;
            }
            *word += 1;
        }
        out.push(marked);
    }
    (out.join("\n"), marks)
}

#[test]
fn disasm_of_a_listing_prints_llcs_lines_and_info_describes_it() {
    // r600_lanes.s is llc's listing: disasm prints its function lines (from the label to
    // .Lfunc_end0) from the assembled bytes.
    let text = std::fs::read_to_string(root().join(LANES)).unwrap();
    let want: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("r600_lanes:"))
        .take_while(|l| !l.starts_with(".Lfunc_end0:"))
        .filter(|l| l.starts_with('\t') && !l.starts_with("\t."))
        .collect();
    let got = succeeds(&["disasm", LANES, "--target", "juniper"]);
    let mut lines = got.lines();
    assert_eq!(lines.next(), Some("r600_lanes:"));
    assert_eq!(lines.collect::<Vec<_>>(), want);

    let info = succeeds(&["info", LANES, "--target", "cedar"]);
    assert_mentions(
        &info,
        &[
            "target: cedar (VLIW5), assembly file",
            "kernel r600_lanes:",
            // One 64-bit word per line but the clause header.
            &format!("code: {} bytes at offset 0x0", (want.len() - 1) * 8),
            "gprs 128, stack 32, wave32",
            "lds: 32768 bytes",
            "constant buffer 0 after its 36-byte header",
        ],
    );
    let ir = succeeds(&["disasm", GDS, "--target", "cayman", "--ir"]);
    assert!(ir.contains("r600_gds_tickets"), "{ir}");
}

fn u32s(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn lanes_runs_on_vliw5_chips_under_both_engines() {
    const N: u32 = 200; // 3 groups of 64 and a partial one
    let k: u32 = 0x9e37_79b9;
    let want: Vec<u32> = (0..N)
        .map(|gid| gid.wrapping_mul(k) ^ ((gid % 64) << 8) ^ ((gid / 64) << 20))
        .collect();
    for chip in ["cypress", "cedar", "caicos"] {
        for engine in ["jit", "interp"] {
            let out = temp_path(&format!("lanes-{chip}-{engine}.bin"));
            succeeds(&[
                "run",
                LANES,
                "--target",
                chip,
                "--kernel",
                "r600_lanes",
                "--global",
                &N.to_string(),
                "--local",
                "64",
                "--engine",
                engine,
                "--arg",
                &format!("zero:{}", 4 * N),
                "--arg",
                &format!("u32:{k}"),
                "--save",
                &format!("0:{}", out.display()),
            ]);
            let got = u32s(&std::fs::read(&out).unwrap());
            std::fs::remove_file(&out).unwrap();
            assert!(got == want, "{chip} {engine}: {got:x?}");
        }
    }
}

/// The tickets of one dispatch of `n` work-items in groups of `local`: each of 0..n once, and
/// ascending along the lanes of every 64-lane wave (the lanes of one MEM_GDS take theirs in
/// lane order). Other threads' waves may take tickets between two lanes of a wave, so only a
/// run on one thread gives every wave consecutive tickets.
fn check_tickets(got: &[u32], n: u32, local: u32, one_thread: bool, what: &str) {
    let mut sorted = got.to_vec();
    sorted.sort_unstable();
    assert!(
        sorted == (0..n).collect::<Vec<_>>(),
        "{what}: not each ticket once"
    );
    for gid in 1..n as usize {
        let same_wave = !(gid as u32 % local).is_multiple_of(64);
        let (prev, this) = (got[gid - 1], got[gid]);
        if same_wave {
            assert!(this > prev, "{what}: gid {gid} took {this} after {prev}");
            if one_thread {
                assert_eq!(this, prev + 1, "{what}: gid {gid}");
            }
        }
    }
}

#[test]
fn gds_tickets_are_shared_by_all_groups_on_both_engines() {
    const N: u32 = 1000;
    for engine in ["jit", "interp"] {
        for threads in ["1", "3"] {
            let out = temp_path(&format!("tickets-{engine}-{threads}.bin"));
            succeeds(&[
                "run",
                GDS,
                "--target",
                "cayman",
                "--kernel",
                "r600_gds_tickets",
                "--global",
                &N.to_string(),
                "--local",
                "128",
                "--engine",
                engine,
                "--threads",
                threads,
                "--arg",
                &format!("zero:{}", 4 * N),
                "--save",
                &format!("0:{}", out.display()),
            ]);
            let got = u32s(&std::fs::read(&out).unwrap());
            std::fs::remove_file(&out).unwrap();
            check_tickets(
                &got,
                N,
                128,
                threads == "1",
                &format!("{engine}, {threads} threads"),
            );
        }
    }
}

#[test]
fn gds_is_zeroed_before_every_dispatch() {
    const N: u32 = 320;
    let file = wavejit::registry::load(&root().join(GDS), Some("cayman")).unwrap();
    let args = [ArgSpec::Zero(4 * u64::from(N))];
    for engine in [EngineKind::Interp, EngineKind::Jit] {
        let req = RunRequest {
            kernel: "r600_gds_tickets",
            global: [N, 1, 1],
            work_dim: None,
            local: [64, 1, 1],
            engine,
            threads: 2,
            args: &args,
            fuel: 1 << 20,
            timeout: Duration::from_secs(60),
        };
        let launcher = wavejit::launch::prepare(&*file, &req).unwrap();
        for run in 0..2 {
            launcher.dispatch().unwrap();
            let got = u32s(&launcher.buffer(0).unwrap());
            check_tickets(
                &got,
                N,
                64,
                false,
                &format!("{} dispatch {run}", engine.name()),
            );
        }
    }
}

#[test]
fn an_out_of_bounds_rat_store_is_a_clear_fault() {
    for engine in ["jit", "interp"] {
        let line = fails(&[
            "run",
            OOB,
            "--target",
            "cayman",
            "--kernel",
            "r600_oob_store",
            "--global",
            "128",
            "--local",
            "64",
            "--engine",
            engine,
            "--arg",
            "zero:512",
        ]);
        assert_mentions(
            &line,
            &[
                "kernel r600_oob_store: guest fault at pc 0x8",
                "group (0,0,0) wave 0 lane 0",
                "out-of-bounds store",
            ],
        );
    }
}

#[test]
fn bad_files_targets_and_kernels_are_one_line_errors() {
    let run = |file: &str, target: &str, kernel: &str| {
        fails(&[
            "run", file, "--target", target, "--kernel", kernel, "--global", "64", "--local", "64",
            "--arg", "zero:256",
        ])
    };
    assert_mentions(
        &run(OOB, "cayman", "r600_lanes"),
        &["kernel r600_lanes not found; available: r600_oob_store"],
    );
    assert_mentions(
        &fails(&["disasm", LANES, "--target", "cypress", "--kernel", "main"]),
        &["kernel main not found; available: r600_lanes"],
    );
    assert_mentions(
        &run(OOB, "rv770", "r600_oob_store"),
        &["unknown target 'rv770'"],
    );
    assert_mentions(&fails(&["info", OOB]), &[OOB, "needs --target"]);
    // VLIW5 text on the VLIW4 chip: Cayman has no STORE_RAW (the assembler's error).
    assert_mentions(
        &fails(&["disasm", LANES, "--target", "cayman"]),
        &[LANES, "line 29:", "STORE_RAW"],
    );

    let bad = TempFile::new(
        "bad_op.s",
        "k:\n\tALU 0, @2, KC0[], KC1[]\n\tCF_END\n\tFROB\n",
    );
    assert_mentions(
        &fails(&["info", &bad, "--target", "cayman"]),
        &["bad_op.s: line 4:"],
    );
    let bad = TempFile::new(
        "bad_count.s",
        "k:\n\tALU 1, @2, KC0[], KC1[]\n\tCF_END\n\tALU clause starting at 2:\n\t  MOV * T0.X, 1,\n",
    );
    assert_mentions(
        &fails(&["disasm", &bad, "--target", "cypress"]),
        &["bad_count.s: line 2:", "the count says 2"],
    );
    let bad = TempFile::new("stray.s", "\tCF_END\n\tPAD\nk:\n\tCF_END\n\tPAD\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "barts"]),
        &["line 1:", "before the first kernel label"],
    );
    let bad = TempFile::new("undeclared.s", "\t.globl\tmain\nk:\n\tCF_END\n\tPAD\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "cayman"]),
        &["line 1:", "`main`", "no label"],
    );
    let bad = TempFile::new("twice.s", "k:\n\tCF_END\n\tPAD\nk:\n\tCF_END\n\tPAD\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "cayman"]),
        &["line 4:", "`k:` appears twice"],
    );
    let bad = TempFile::new("lds.s", "; wavejit: lds_size 65536\n\tCF_END\n\tPAD\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "cayman"]),
        &["lds.s: line 1:", "at most 32768"],
    );
    let bad = TempFile::new("mode.s", "; wavejit: float_mode 0xc0\n\tCF_END\n\tPAD\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "cayman"]),
        &["line 1:", "unknown key (lds_size)"],
    );
    let bad = TempFile::new("empty.s", "\t.text\n; nothing\n");
    assert_mentions(
        &fails(&["info", &bad, "--target", "cayman"]),
        &["empty.s: no instructions"],
    );
    let ok = TempFile::new("lds_ok.s", "; wavejit: lds_size 1024\n\tCF_END\n\tPAD\n");
    assert_mentions(
        &succeeds(&["info", &ok, "--target", "cayman"]),
        &["lds: 1024 bytes", "kernel wavejit-cli-"],
    );
}
