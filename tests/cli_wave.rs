//! `wavejit wave`: one wave from a JSON state, for GCN and TeraScale, on both engines.
//! Expected values come from the programs' formulas (tests/programs/wave_ops.s for gfx900,
//! tests/programs/r600_lanes.s for cypress), computed here, never from a run: register files
//! in and out, exec masks (inactive lanes keep their values), memory ranges, a guest fault in
//! the output, `--trace` lines, and malformed states as one-line errors.

mod cli_util;

use cli_util::{assert_mentions, fails, lanes, succeeds, temp_path, wave};
use serde_json::{json, Value};

const GUEST_BASE: u64 = 0x1_0000_0000;
const GCN: &str = "tests/programs/wave_ops.s";
const R600: &str = "tests/programs/r600_lanes.s";

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn words(h: &str) -> Vec<u32> {
    (0..h.len())
        .step_by(8)
        .map(|i| u32::from_str_radix(&h[i..i + 8], 16).unwrap().swap_bytes())
        .collect()
}

/// The wave_ops.s start: v0 = lane, v1 = 7 + 3 lane, K at 0x1_0000_0000, an output buffer
/// of 64 dwords of 0xaaaaaaaa at 0x1_0000_0100, exec = `exec`.
fn gcn_state(exec: u64, out_words: usize) -> Value {
    let v1: Vec<u32> = (0..64).map(|l| 7 + 3 * l).collect();
    json!({
        "exec": format!("{exec:#x}"),
        "vector": {"v0": (0..64).collect::<Vec<u32>>(), "v1": v1},
        "scalar": {"s4": 0, "s5": 1, "s8": "0x100", "s9": 1},
        "memory": [
            {"address": GUEST_BASE, "bytes": hex(&0x11u32.to_le_bytes())},
            {"address": format!("{:#x}", GUEST_BASE + 0x100), "bytes": "aa".repeat(4 * out_words)}
        ]
    })
}

#[test]
fn gcn_registers_exec_and_memory_follow_the_formulas() {
    let exec: u64 = 0xffff_0000_ff00_00ff;
    for engine in ["jit", "interp"] {
        let out = wave(GCN, "gfx900", &gcn_state(exec, 64), &["--engine", engine]);
        assert_eq!(out["lanes"], 64);
        assert_eq!(out["exec"], format!("{exec:#x}"));
        assert_eq!(out["instructions"], 10, "ten instructions, no branch");
        assert!(out.get("fault").is_none(), "{out}");
        // Named inputs come back unchanged; s6 was loaded; v2..v5 were written.
        assert_eq!(lanes(&out["vector"]["v0"]), (0..64).collect::<Vec<_>>());
        assert_eq!(out["scalar"]["s6"], 0x11);
        assert_eq!(out["scalar"]["s8"], 0x100);
        let (v2, v3) = (lanes(&out["vector"]["v2"]), lanes(&out["vector"]["v3"]));
        let stored = words(out["memory"][1]["bytes"].as_str().unwrap());
        for l in 0..64u32 {
            let active = exec >> l & 1 == 1;
            let sum = l + 7 + 3 * l;
            assert_eq!(
                v2[l as usize],
                if active { sum } else { 0 },
                "{engine} v2 lane {l}"
            );
            assert_eq!(
                v3[l as usize],
                if active { sum * 0x11 } else { 0 },
                "{engine} v3"
            );
            let want = if active { sum * 0x11 } else { 0xaaaa_aaaa };
            assert_eq!(stored[l as usize], want, "{engine} out[{l}]");
        }
        // The input range of K is reported unchanged.
        assert_eq!(out["memory"][0]["bytes"], "11000000");
        assert_eq!(out["memory"][0]["address"], GUEST_BASE);
    }
}

/// Memory ranges sit at the addresses the state gives, low ones included.
#[test]
fn gcn_memory_at_low_addresses() {
    let mut state = gcn_state(0xffff_ffff, 64);
    state["scalar"] = json!({"s4": "0x40", "s5": 0, "s8": "0x1000", "s9": 0});
    state["memory"] = json!([
        {"address": 64, "bytes": hex(&0x11u32.to_le_bytes())},
        {"address": 4096, "bytes": "aa".repeat(256)}
    ]);
    let out = wave(GCN, "gfx900", &state, &["--engine", "interp"]);
    assert!(out.get("fault").is_none(), "{out}");
    let stored = words(out["memory"][1]["bytes"].as_str().unwrap());
    for l in 0..64u32 {
        let want = if l < 32 {
            (4 * l + 7) * 0x11
        } else {
            0xaaaa_aaaa
        };
        assert_eq!(stored[l as usize], want, "out[{l}]");
    }
}

#[test]
fn gcn_fault_is_reported_in_the_output() {
    // Room for 8 dwords only: lane 8 is the first lane of exec that stores past the range.
    let out = wave(GCN, "gfx900", &gcn_state(0xffff, 8), &[]);
    let fault = out["fault"].as_str().expect("a fault");
    assert_mentions(
        fault,
        &[
            "wave_ops",
            "out-of-bounds store",
            "pc 0x28",
            "lane 8",
            "0x100000120",
        ],
    );
}

#[test]
fn gcn_trace_has_one_line_per_instruction_with_exec_and_writes() {
    let trace = temp_path("gcn-trace.jsonl");
    let t = trace.to_str().unwrap();
    let exec: u64 = 0x0f0f;
    wave(
        GCN,
        "gfx900",
        &gcn_state(exec, 64),
        &["--trace", t, "--engine", "interp"],
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let pcs: Vec<u64> = lines.iter().map(|l| l["pc"].as_u64().unwrap()).collect();
    // s_waitcnt (pc 8) lifts to no IR; every other instruction has its line, in order.
    assert_eq!(pcs, [0, 12, 16, 24, 28, 32, 36, 40, 48]);
    let add = &lines[1];
    assert_eq!(add["text"], "v_add_u32_e32 v2, v0, v1");
    assert_eq!(add["exec"], format!("{exec:#x}"));
    let v2 = lanes(&add["writes"]["v2"]);
    for l in 0..64u32 {
        let want = if exec >> l & 1 == 1 { 7 + 4 * l } else { 0 };
        assert_eq!(v2[l as usize], want, "lane {l}");
    }
    assert_eq!(lines[0]["writes"]["s6"], 0x11);
    assert_eq!(lines[0]["text"], "s_load_dword s6, s[4:5], 0x0");
    assert!(lines[7]["text"]
        .as_str()
        .unwrap()
        .starts_with("global_store_dword"));
    assert_eq!(lines[7]["writes"], json!({}));
}

/// r600_lanes: out[gid] = (gid * k) ^ (lid << 8) ^ (group << 20) with gid = group * lsize + lid,
/// stored at pool byte offset out + 4 gid. Group 3 of local size 64; out points 3 * 64 dwords
/// before the range, so lane l stores at its dword l.
#[test]
fn terascale_registers_constants_and_pool_follow_the_formula() {
    let (group, lsize, k, range) = (3u32, 64u32, 0x9e37u32, 0x1000u32);
    let out_arg = range - 4 * group * lsize;
    let mut cb0 = [0u32; 16];
    cb0[6] = lsize; // KC0[1].Z: local size x
    cb0[9] = out_arg; // KC0[2].Y
    cb0[10] = k; // KC0[2].Z
    let cb0: Vec<u8> = cb0.iter().flat_map(|w| w.to_le_bytes()).collect();
    let exec: u64 = 0x8000_0001_ffff_00f0;
    let state = json!({
        "lanes": 64,
        "exec": format!("{exec:#x}"),
        "vector": {"R0.x": (0..64).collect::<Vec<u32>>(), "T1.X": group},
        "memory": [{"address": GUEST_BASE + u64::from(range), "bytes": "55".repeat(256)}],
        "constants": {"cb0": hex(&cb0)}
    });
    for engine in ["jit", "interp"] {
        let out = wave(R600, "cypress", &state, &["--engine", engine]);
        assert!(out.get("fault").is_none(), "{out}");
        assert_eq!(out["exec"], format!("{exec:#x}"));
        // 3 CF instructions and 9 ALU slots.
        assert_eq!(out["instructions"], 12);
        let stored = words(out["memory"][0]["bytes"].as_str().unwrap());
        // T1.X (named so in the input, returned as R1.x) ends as the stored value in the
        // active lanes (XOR_INT * T1.X) and keeps the group id in the others.
        let r1x = lanes(&out["vector"]["R1.x"]);
        for l in 0..64u32 {
            let gid = group * lsize + l;
            let want = if exec >> l & 1 == 1 {
                gid.wrapping_mul(k) ^ (l << 8) ^ (group << 20)
            } else {
                0x5555_5555
            };
            assert_eq!(stored[l as usize], want, "{engine} lane {l}");
            let t1x = if exec >> l & 1 == 1 { want } else { group };
            assert_eq!(r1x[l as usize], t1x, "{engine} R1.x lane {l}");
        }
    }
}

#[test]
fn terascale_trace_names_the_listing() {
    let trace = temp_path("r600-trace.jsonl");
    let t = trace.to_str().unwrap();
    // Every lane has local id 5 in group 0; constant buffer 0 is zero (out = pool offset 0,
    // k = 0), so both lanes store at pool offset 20.
    let state = json!({
        "exec": "0x3",
        "vector": {"R0.x": 5},
        "memory": [{"address": GUEST_BASE, "bytes": "00".repeat(64)}],
        "constants": {"cb0": "00".repeat(64)}
    });
    wave(R600, "cypress", &state, &["--trace", t]);
    let text = std::fs::read_to_string(&trace).unwrap();
    std::fs::remove_file(&trace).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let texts: Vec<&str> = lines.iter().map(|l| l["text"].as_str().unwrap()).collect();
    assert!(
        texts.iter().any(|t| t.starts_with("MULLO_INT")),
        "{texts:?}"
    );
    assert!(
        texts.iter().any(|t| t.starts_with("MEM_RAT_CACHELESS")),
        "{texts:?}"
    );
    // A group's slots come in the lifter's order: its sources first, then its writes.
    assert!(
        texts.iter().any(|t| t.starts_with("XOR_INT * T1.X")),
        "{texts:?}"
    );
    assert!(lines.iter().all(|l| l["exec"] == "0x3"));
    // MULLO_INT T0.Y = T1.X (0) * KC0[1].Z (0): T0.Y's lanes are written with zero.
    let mullo = lines
        .iter()
        .find(|l| l["text"].as_str().unwrap().starts_with("MULLO_INT * T0.Y"))
        .unwrap();
    assert!(mullo["writes"].get("R0.y").is_some(), "{mullo}");
}

#[test]
fn malformed_states_are_one_line_errors() {
    let cases: [(Value, &str); 7] = [
        (json!({"vector": {"v999": 1}}), "unknown register 'v999'"),
        (json!({"scalar": {"v1": 1}}), "v1 is a per-lane register"),
        (json!({"vector": {"v1": [1, 2]}}), "2 values for 64 lanes"),
        (json!({"lanes": 32}), "the target's waves have 64 lanes"),
        (json!({"exec": "zz"}), "not a number"),
        (
            json!({"memory": [{"address": 16, "bytes": "0000"}, {"address": 17, "bytes": "00"}]}),
            "overlap",
        ),
        (json!({"registers": {}}), "unknown key 'registers'"),
    ];
    for (state, why) in cases {
        let path = temp_path("bad-state.json");
        std::fs::write(&path, state.to_string()).unwrap();
        let p = path.to_str().unwrap();
        let e = fails(&["wave", GCN, "--target", "gfx900", "--state", p]);
        assert_mentions(&e, &[why]);
        std::fs::remove_file(&path).unwrap();
    }
    let e = fails(&["wave", GCN, "--target", "gfx900", "--state", "no/such.json"]);
    assert_mentions(&e, &["no/such.json"]);
}

#[test]
fn an_endless_wave_stops_with_a_reported_fuel_fault() {
    let path = temp_path("endless-state.json");
    std::fs::write(&path, "{}").unwrap();
    let p = path.to_str().unwrap();
    let out = succeeds(&[
        "wave",
        "tests/programs/endless.s",
        "--target",
        "gfx900",
        "--state",
        p,
        "--fuel",
        "1000",
    ]);
    std::fs::remove_file(&path).unwrap();
    let out: Value = serde_json::from_str(&out).unwrap();
    assert_mentions(out["fault"].as_str().unwrap(), &["out of fuel"]);
    assert!(out["instructions"].as_u64().unwrap() <= 1000);
}
