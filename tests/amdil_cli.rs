//! AMD IL files from the command line (README.md "AMD IL files"): IL text (`.il`) and its
//! binary token stream (`.ilb`, encoded here from the text by wavejit_amdil's encoder) run
//! on both engines under the IL file convention, every argument kind (`buf:`, `zero:`,
//! `u32:`, `i32:`, `local:`, `struct:`) and `--save`; the ids on a 3-D grid with partial
//! groups, `--stats`, `wave`, `disasm`, `info`; and the one-line errors of bad input.
//!
//! Expected outputs are the formulas in the fixtures' comments (tests/programs/amdil/*.il),
//! computed here on the host.

mod cli_util;
use cli_util::{bytes_of, fails, succeeds, words_of, TempFile};

const MIX: &str = "tests/programs/amdil/mix.il";
const IDS: &str = "tests/programs/amdil/ids.il";
const ENDLESS: &str = "tests/programs/amdil/endless.il";

fn text(path: &str) -> String {
    std::fs::read_to_string(cli_util::root().join(path)).unwrap()
}

/// The token stream of the IL file `path`, as a temporary `.ilb` file named `stem.ilb`.
fn ilb(path: &str, stem: &str) -> TempFile {
    let program = wavejit_amdil::parse::parse(&text(path)).expect("the fixture parses");
    let tokens = wavejit_amdil::encode::encode(&program).expect("the fixture encodes");
    TempFile::new(&format!("{stem}.ilb"), tokens)
}

/// The kernel of an IL file: its stem.
fn stem(file: &str) -> String {
    let path = std::path::Path::new(file);
    path.file_stem().unwrap().to_str().unwrap().to_string()
}

/// `wavejit run FILE --kernel KERNEL ARGV... --save I:...` on `engine`: the saved bytes.
fn run_saving(file: &str, kernel: &str, engine: &str, argv: &[&str], save: usize) -> Vec<u8> {
    let out = cli_util::temp_path("saved.bin");
    let spec = format!("{save}:{}", out.display());
    let mut args = vec!["run", file, "--kernel", kernel, "--engine", engine];
    args.extend(argv);
    args.extend(["--save", &spec]);
    succeeds(&args);
    let bytes = std::fs::read(&out).unwrap();
    std::fs::remove_file(&out).unwrap();
    bytes
}

/// mix.il's inputs and its host result (the fixture's formula) for `n` work-items in groups
/// of `group`.
struct Mix {
    input: TempFile,
    params: TempFile,
    want: Vec<u32>,
    n: usize,
    group: usize,
}

const SCALE: u32 = 0x0001_0003;
const BIAS: i32 = -77;
/// The local argument's LDS offset: the declared 60 bytes rounded up to 16.
const SCRATCH_OFFSET: u32 = 64;

impl Mix {
    fn new(n: usize, group: usize) -> Mix {
        let input: Vec<u32> = (0..n as u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        let params: Vec<u32> = (0..8).map(|i| 0x1111_1111u32.wrapping_mul(i + 3)).collect();
        let want = (0..n)
            .map(|i| {
                let j = i / group * group + (i % group + 1) % group;
                (input[j].wrapping_mul(SCALE).wrapping_add(params[0]) ^ params[1])
                    .wrapping_add(params[6])
                    .wrapping_add(BIAS as u32)
                    .wrapping_add(SCRATCH_OFFSET)
                    .wrapping_add(n as u32)
            })
            .collect();
        Mix {
            input: TempFile::new("mix_in.bin", bytes_of(&input)),
            params: TempFile::new("mix_params.bin", bytes_of(&params)),
            want,
            n,
            group,
        }
    }

    /// The run's saved output on `engine` for `file` (the `.il` or an `.ilb`), with `extra`
    /// options.
    fn run(&self, file: &str, kernel: &str, engine: &str, extra: &[&str]) -> Vec<u32> {
        let global = self.n.to_string();
        let local = self.group.to_string();
        let input = format!("buf:{}", &*self.input);
        let out = format!("zero:{}", 4 * self.n);
        let scale = format!("u32:{SCALE:#x}");
        let params = format!("struct:{}", &*self.params);
        let bias = format!("i32:{BIAS}");
        let mut argv = vec![
            "--global",
            &global,
            "--local",
            &local,
            "--arg",
            &input,
            "--arg",
            &out,
            "--arg",
            &scale,
            "--arg",
            "local:1024",
            "--arg",
            &params,
            "--arg",
            &bias,
        ];
        argv.extend(extra);
        words_of(&run_saving(file, kernel, engine, &argv, 1))
    }
}

/// The text and its token stream, on both engines, as cypress (64-lane waves) and cedar (32):
/// every argument kind in its CB1 slot, the LDS after the barrier, `--save`.
#[test]
fn il_and_ilb_run_on_both_engines() {
    let mix = Mix::new(512, 128);
    let binary = ilb(MIX, "mix");
    for file in [MIX, &*binary] {
        for engine in ["jit", "interp"] {
            for target in [&[][..], &["--target", "cedar"][..]] {
                let got = mix.run(file, &stem(file), engine, target);
                assert_eq!(got, mix.want, "{file} on {engine} {target:?}");
            }
        }
    }
}

/// The id registers on a 3-D grid whose edge groups are partial, and CB0's work_dim: one
/// record per work-item at 48 bytes times its flat absolute id (vThreadGrpIdFlat times the
/// group size plus vTidInGrpFlat); records of ids no work-item has stay zero.
#[test]
fn ids_follow_the_grid() {
    let global = [10u32, 5, 3];
    let local = [4u32, 2, 2];
    let groups = [0, 1, 2].map(|d| global[d].div_ceil(local[d]));
    let group_items = local.iter().product::<u32>();
    let records = (groups.iter().product::<u32>() * group_items) as usize;
    let mut want = vec![0u32; 12 * records];
    for z in 0..global[2] {
        for y in 0..global[1] {
            for x in 0..global[0] {
                let abs = [x, y, z];
                let g = [0, 1, 2].map(|d| abs[d] / local[d]);
                let t = [0, 1, 2].map(|d| abs[d] % local[d]);
                let t_flat = t[2] * local[0] * local[1] + t[1] * local[0] + t[0];
                let g_flat = g[2] * groups[0] * groups[1] + g[1] * groups[0] + g[0];
                let r = 12 * (g_flat * group_items + t_flat) as usize;
                want[r..r + 12].copy_from_slice(&[
                    t[0], t[1], t[2], t_flat, g[0], g[1], g[2], g_flat, x, y, z, 3,
                ]);
            }
        }
    }
    let out = format!("zero:{}", 48 * records);
    for engine in ["jit", "interp"] {
        let argv = ["--global", "10,5,3", "--local", "4,2,2", "--arg", &out];
        let got = words_of(&run_saving(IDS, "ids", engine, &argv, 0));
        assert_eq!(got, want, "{engine}");
    }
}

/// `--stats`: every instruction but the declarations and comments is a guest instruction
/// (`end` too), each wave runs all of mix.il's straight-line code.
#[test]
fn stats_count_the_ils_instructions() {
    let counted = text(MIX)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';') && !l.starts_with("dcl_"))
        .filter(|l| !l.starts_with("il_cs"))
        .count() as u64;
    let mix = Mix::new(256, 64);
    let input = format!("buf:{}", &*mix.input);
    let params = format!("struct:{}", &*mix.params);
    let out = succeeds(&[
        "run",
        MIX,
        "--kernel",
        "mix",
        "--global",
        "256",
        "--local",
        "64",
        "--arg",
        &input,
        "--arg",
        "zero:1024",
        "--arg",
        "u32:1",
        "--arg",
        "local:256",
        "--arg",
        &params,
        "--arg",
        "i32:0",
        "--stats",
        "-",
    ]);
    let stats: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(stats["isa"], "amdil");
    assert_eq!(stats["target"], "cypress");
    assert_eq!(stats["waves"], 4);
    assert_eq!(stats["guest_instructions"], 4 * counted);
    assert_eq!(stats["lane_instructions"], 256 * counted);
}

/// `wavejit wave` on an IL file: temps by their IL names in and out, constant buffers from
/// "constants", memory at the arena; the lone wave's ids are the lane (vTidInGrp.x) and its
/// group size is the wave.
#[test]
fn wave_runs_il_with_temps_and_constant_buffers() {
    let file = TempFile::new(
        "lonely.il",
        "il_cs_2_0\n\
         dcl_cb cb0[2]\n\
         dcl_cb cb1[1]\n\
         dcl_raw_uav_id(11)\n\
         dcl_literal l0, 0x00000002, 0x00000000, 0x00000000, 0x00000000\n\
         ishl r0.x___, vAbsTidFlat.x, l0.x\n\
         iadd r0.x___, r0.x, cb1[0].x\n\
         uav_raw_load_id(11) r1.x___, r0.x\n\
         iadd r1.x___, r1.x, r5.y\n\
         iadd r1.x___, r1.x, cb0[1].x\n\
         uav_raw_store_id(11) mem.x___, r0.x, r1.x\n\
         end\n",
    );
    let base = 0x1_0000_0000u64;
    let words: Vec<u32> = (0..64).map(|i| 100 * i).collect();
    let hex = |w: &[u32]| -> String { bytes_of(w).iter().map(|b| format!("{b:02x}")).collect() };
    let state = serde_json::json!({
        "exec": "0xffffffff0000ffff",
        "vector": {"r5.y": (0..64).collect::<Vec<u32>>()},
        "memory": [{"address": base + 0x100, "bytes": hex(&words)}],
        "constants": {"cb0": hex(&[0, 0, 0, 0, 7, 0, 0, 0]), "cb1": hex(&[0x100, 0, 0, 0])},
    });
    for engine in ["jit", "interp"] {
        let out = cli_util::wave(&file, "cypress", &state, &["--engine", engine]);
        let mem = out["memory"][0]["bytes"].as_str().unwrap();
        let got: Vec<u32> = words_of(
            &(0..mem.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&mem[i..i + 2], 16).unwrap())
                .collect::<Vec<u8>>(),
        );
        let want: Vec<u32> = (0..64u32)
            .map(|l| {
                let active = !(16..32).contains(&l);
                if active {
                    100 * l + l + 7
                } else {
                    100 * l
                }
            })
            .collect();
        assert_eq!(got, want, "{engine}");
        assert_eq!(cli_util::lanes(&out["vector"]["r5.y"]).len(), 64);
        let r0: Vec<u32> = cli_util::lanes(&out["vector"]["r0.x"]);
        assert_eq!(r0[40], 0x100 + 4 * 40, "{engine}");
        assert_eq!(out["exec"], "0xffffffff0000ffff");
        assert_eq!(out["instructions"], 7);
    }
}

/// `disasm` prints the program as IL text (which parses back to the same program), `--ir`
/// the lifted function; `info` the target, the declarations and the convention.
#[test]
fn disasm_and_info() {
    let listing = succeeds(&["disasm", MIX]);
    let body = listing.strip_prefix("mix:\n").expect("the kernel's header");
    assert_eq!(
        wavejit_amdil::parse::parse(body).unwrap(),
        wavejit_amdil::parse::parse(&text(MIX)).unwrap()
    );
    let ir = succeeds(&["disasm", MIX, "--ir"]);
    assert!(ir.starts_with("function \"mix\" wave 64"), "{ir}");
    let ir32 = succeeds(&["disasm", MIX, "--ir", "--target", "cedar"]);
    assert!(ir32.starts_with("function \"mix\" wave 32"), "{ir32}");
    let binary = ilb(MIX, "mix_info");
    for (file, kind) in [
        (MIX, "AMD IL text"),
        (&*binary, "AMD IL binary token stream"),
    ] {
        let info = succeeds(&["info", file]);
        cli_util::assert_mentions(
            &info,
            &[
                &format!("target: cypress (64-lane waves), {kind}"),
                "IL declares: constant buffers cb0[15], cb1[7]; LDS 60 bytes",
                "IL lifts: 9 temps, 24 guest instructions",
                "one 16-byte CB1 slot each",
            ],
        );
    }
    let tahiti = succeeds(&["info", MIX, "--target", "tahiti"]);
    assert!(
        tahiti.starts_with("target: tahiti (64-lane waves)"),
        "{tahiti}"
    );
}

/// An endless IL loop stops at the fuel limit with one line naming the kernel and the pc.
#[test]
fn an_endless_loop_runs_out_of_fuel() {
    for engine in ["jit", "interp"] {
        let line = fails(&[
            "run", ENDLESS, "--kernel", "endless", "--global", "64", "--local", "64", "--engine",
            engine, "--fuel", "1000",
        ]);
        cli_util::assert_mentions(&line, &["kernel endless", "ran out of fuel", "at pc 0x"]);
    }
}

/// Malformed token streams, bad text and misused options are one-line errors.
#[test]
fn bad_input_is_one_line() {
    let program = wavejit_amdil::parse::parse(&text(MIX)).unwrap();
    let tokens = wavejit_amdil::encode::encode(&program).unwrap();
    let truncated = TempFile::new("cut.ilb", &tokens[..tokens.len() / 8 * 4]);
    let mut unknown = tokens.clone();
    // The first instruction token follows the language and version tokens.
    unknown[8..10].copy_from_slice(&0xfffeu16.to_le_bytes());
    let unknown = TempFile::new("unknown.ilb", unknown);
    let words = TempFile::new("words.ilb", &tokens[..tokens.len() - 1]);
    let badtext = TempFile::new("bad.il", "il_cs_2_0\nfrobnicate r0, r1\nend\n");
    let cb2 = TempFile::new("cb2.il", "il_cs_2_0\ndcl_cb cb2[1]\nmov r0, cb2[0]\nend\n");
    let run = |file: &str, kernel: &str, extra: &[&str]| {
        let mut argv = vec![
            "run", file, "--kernel", kernel, "--global", "64", "--local", "64",
        ];
        argv.extend(extra);
        fails(&argv)
    };
    let gcn = "tests/programs/straight8.s";
    for (line, want) in [
        (run(&truncated, "cut", &[]), "IL stream ends at token"),
        (
            run(&unknown, "unknown", &[]),
            "unknown IL opcode 65534 at token 2",
        ),
        (run(&words, "words", &[]), "is not"),
        (run(&badtext, "bad", &[]), "bad.il: line 2"),
        (
            run(MIX, "mix", &["--encoding", "isa"]),
            "mix.il: the file has no isa encoding of its kernels (it has: il)",
        ),
        (
            run(
                gcn,
                "straight8",
                &["--target", "gfx900", "--encoding", "il"],
            ),
            "straight8.s: the file has no il encoding of its kernels (it has: isa)",
        ),
        (
            run(
                gcn,
                "straight8",
                &["--target", "gfx900", "--arg", "local:64"],
            ),
            "argument 0: local: arguments are for AMD OpenCL binaries and IL files",
        ),
        (
            run(
                gcn,
                "straight8",
                &["--target", "gfx900", "--arg", "struct:x.bin"],
            ),
            "argument 0: struct: arguments are for AMD OpenCL binaries and IL files",
        ),
        (
            run(MIX, "mix", &["--target", "g13"]),
            "unknown target 'g13' for amdil files",
        ),
        (run(MIX, "other", &[]), "kernel other not found"),
        (
            run(MIX, "mix", &["--arg", "local:32768"]),
            "exceed the 32768 bytes of a work-group",
        ),
        (
            run(&cb2, &stem(&cb2), &[]),
            "the program declares cb2, which the launch does not bind (it binds cb0, cb1)",
        ),
        (
            run(IDS, "ids", &["--arg", "struct:/nonexistent/attrib.bin"]),
            "/nonexistent/attrib.bin",
        ),
    ] {
        assert!(line.contains(want), "{line:?} lacks {want:?}");
    }
    let line = fails(&[
        "run", MIX, "--kernel", "mix", "--global", "512", "--local", "512",
    ]);
    assert!(
        line.contains("at most 256 (dcl_max_thread_per_group)"),
        "{line}"
    );
    let line = fails(&[
        "run", MIX, "--kernel", "mix", "--global", "64", "--local", "64", "--arg", "local:x",
    ]);
    assert!(line.contains("bad argument spec 'local:x'"), "{line}");
}

/// CB0's work_dim is the number of components given to `--global` (DESIGN.md), trailing 1s
/// included: ids.il's last record word is cb0[0].w.
#[test]
fn work_dim_counts_the_components_given() {
    for (global, local, dims) in [("8", "8", 1), ("8,1", "8,1", 2), ("8,1,1", "8,1,1", 3)] {
        let argv = ["--global", global, "--local", local, "--arg", "zero:384"];
        let got = words_of(&run_saving(IDS, "ids", "jit", &argv, 0));
        for item in 0..8 {
            assert_eq!(got[12 * item + 11], dims, "--global {global}, item {item}");
        }
    }
}
