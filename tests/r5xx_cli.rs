//! R5xx program files through `info`, `disasm` and `wave`: a CTM ELF is recognised by its
//! header, raw words and `.s` text need `--target r580`, and a lone wave runs under the
//! documented memory-controller state of `src/isa/r5xx/names.rs` (input k at 0x100000 +
//! 0x10000 k, FLOAT32_4, pitch 256; no outputs: results stay in the output registers).
//! Expected values are computed here from the programs' formulas.

mod cli_util;
mod r5xx_util;

use cli_util::{assert_mentions, fails, lanes, succeeds, wave};
use r5xx_util::Scratch;
use serde_json::json;

const ADD: &str = "tests/programs/r5xx/add.s";

/// add.s as a CTM ELF and as raw words.
fn binaries(d: &Scratch) -> (String, String) {
    let text = std::fs::read_to_string(ADD).unwrap();
    let program = wavejit_r5xx::parse::parse_program(&text).unwrap();
    let words = wavejit_r5xx::encode::encode_words(&program);
    let info = wavejit_r5xx::setup::ProgInfo {
        end: 2,
        pixsize: 2,
        full_fc: false,
        ..Default::default()
    };
    let notes = wavejit_r5xx::elf::Notes {
        inputs: vec![0, 1],
        outputs: vec![0],
        ..Default::default()
    };
    let elf = d.write(
        "add.elf",
        wavejit_r5xx::elf::write_elf(&words, &info, &notes),
    );
    let raw = d.write("add.bin", wavejit_r5xx::encode::encode_bytes(&program));
    (elf, raw)
}

#[test]
fn info_describes_each_kind_of_program_file() {
    let d = Scratch::new("info");
    let (elf, raw) = binaries(&d);
    let e = succeeds(&["info", &elf]);
    assert_mentions(
        &e,
        &[
            "r580",
            "CTM ELF",
            "3 slots",
            "kernel add",
            "dpp_proginfo",
            "slots 0..=2",
            "partial flow control",
            "inputs 0 1",
            "outputs 0",
            "r0..r2",
            "(i, j, 0.0, 1.0)",
        ],
    );
    let r = succeeds(&["info", &raw, "--target", "r520"]);
    assert_mentions(
        &r,
        &[
            "r520",
            "raw instruction words",
            "default",
            "full flow control",
        ],
    );
    let t = succeeds(&["info", ADD, "--target", "r580"]);
    assert_mentions(
        &t,
        &[
            "assembler text",
            "kernel add",
            "conditional value not exported",
        ],
    );
    let w = succeeds(&["info", "tests/programs/r5xx/condw.s", "--target", "r580"]);
    assert_mentions(&w, &["conditional value exported (W)"]);
    // Raw words name no chip.
    assert_mentions(&fails(&["info", &raw]), &["--target", "r580"]);
    assert_mentions(&fails(&["info", ADD]), &["--target"]);
}

#[test]
fn disasm_lists_the_slots_and_every_form_gives_the_same_listing() {
    let d = Scratch::new("disasm");
    let (elf, raw) = binaries(&d);
    let text = succeeds(&["disasm", ADD, "--target", "r580"]);
    assert_eq!(succeeds(&["disasm", &elf]), text);
    let raw_listing = succeeds(&["disasm", &raw, "--target", "r580"]);
    assert_eq!(raw_listing, text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "add:");
    assert!(
        lines[1].starts_with("   0:  tex  r1.rgba = ld t0, r0.rgrr"),
        "{text}"
    );
    assert!(lines[3].contains("[sem_wait, last]"), "{text}");
    // Without the slot numbers the listing assembles back to the same words.
    let body: String = lines[1..]
        .iter()
        .map(|l| l.split_once(":  ").unwrap().1.to_string() + "\n")
        .collect();
    let again = wavejit_r5xx::parse::parse_program(&body).unwrap();
    assert_eq!(
        wavejit_r5xx::encode::encode_bytes(&again),
        std::fs::read(&raw).unwrap()
    );
    let ir = succeeds(&["disasm", ADD, "--target", "r580", "--ir"]);
    // As `wave` lifts it: all 128 temporaries (US_PIXSIZE 127).
    assert_mentions(&ir, &["function", "lane r[512]", "load.global"]);
    assert_mentions(
        &fails(&["disasm", ADD, "--target", "r580", "--kernel", "sub"]),
        &["sub", "add"],
    );
}

fn f(x: f32) -> u64 {
    u64::from(x.to_bits())
}

#[test]
fn a_lone_wave_reads_inputs_at_the_documented_places() {
    // Input 0 holds (x + 100 y) at element (x, y) of its 256-wide rows, input 1 holds 0.5:
    // lane l reads element (r0.x, r0.y) = (l % 16, l / 16) of both.
    let row = |v: &dyn Fn(u32, u32) -> f32| -> String {
        (0..4u32)
            .flat_map(|y| (0..256u32).map(move |x| (x, y)))
            .flat_map(|(x, y)| [v(x, y), 0.0, 0.0, 1.0])
            .flat_map(|c| c.to_le_bytes())
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let state = json!({
        "exec": "0xffffffff0000ffff",
        "vector": {
            "r0.x": (0..64).map(|l| f((l % 16) as f32)).collect::<Vec<_>>(),
            "r0.y": (0..64).map(|l| f((l / 16) as f32)).collect::<Vec<_>>(),
        },
        "memory": [
            {"address": 0x100000, "bytes": row(&|x, y| (x + 100 * y) as f32)},
            {"address": 0x110000, "bytes": row(&|_, _| 0.5)},
        ],
    });
    for engine in ["jit", "interp"] {
        let out = wave(ADD, "r580", &state, &["--engine", engine]);
        assert_eq!(out["exec"], "0xffffffff0000ffff");
        assert_eq!(out["instructions"], 3);
        assert!(out.get("fault").is_none(), "{out}");
        let x = lanes(&out["vector"]["out0.x"]);
        let w = lanes(&out["vector"]["out0.w"]);
        for l in 0..64u32 {
            let active = !(16..32).contains(&l);
            let want = if active {
                ((l % 16 + 100 * (l / 16)) as f32 + 0.5).to_bits()
            } else {
                0
            };
            assert_eq!(x[l as usize], want, "{engine} lane {l}");
            // Both inputs' A is 1.0 (FLOAT32_4 elements (v, 0, 0, 1)).
            assert_eq!(
                w[l as usize],
                if active { 2.0f32.to_bits() } else { 0 },
                "lane {l}"
            );
        }
    }
    // Without the inputs' memory the first TEX faults; the fault is a result.
    let bare = json!({"vector": {}});
    let out = wave(ADD, "r580", &bare, &[]);
    let fault = out["fault"].as_str().unwrap();
    assert_mentions(fault, &["pc 0x0", "address 0x100000"]);
}

#[test]
fn a_lone_wave_traces_its_slots() {
    let d = Scratch::new("trace");
    let trace = d.path("trace.jsonl");
    // spin.s names r0 only, but a lone wave has all 128 temporaries (US_PIXSIZE 127), so a
    // state may name any of them, and no more.
    let state = json!({"vector": {"r0.y": 7, "r127.w": 9}});
    let out = wave(
        "tests/programs/r5xx/spin.s",
        "r580",
        &state,
        &["--fuel", "50", "--trace", &trace],
    );
    assert_mentions(out["fault"].as_str().unwrap(), &["out of fuel"]);
    assert_eq!(lanes(&out["vector"]["r0.y"])[5], 7);
    assert_eq!(lanes(&out["vector"]["r127.w"])[63], 9);
    let path = d.write("r128.json", json!({"vector": {"r128.x": 7}}).to_string());
    assert_mentions(
        &fails(&[
            "wave",
            "tests/programs/r5xx/spin.s",
            "--target",
            "r580",
            "--state",
            &path,
        ]),
        &["unknown register 'r128.x'"],
    );
    let first = std::fs::read_to_string(&trace).unwrap();
    let line: serde_json::Value = serde_json::from_str(first.lines().next().unwrap()).unwrap();
    assert_eq!(line["pc"], 0);
    assert_mentions(line["text"].as_str().unwrap(), &["fc", "jump 0"]);
    // Constants are memory for R5xx, not a `constants` buffer.
    let bad = json!({"constants": {"cb0": "00000000"}});
    let path = d.write("bad.json", bad.to_string());
    assert_mentions(
        &fails(&["wave", ADD, "--target", "r580", "--state", &path]),
        &["constants", "cb0"],
    );
}
