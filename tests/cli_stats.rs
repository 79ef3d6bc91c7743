//! `wavejit run --stats PATH`: the documented fields are all there, and the counts follow
//! from programs whose instruction counts are known: tests/programs/straight8.s executes its
//! 8 instructions once per wave; tests/programs/r600_lanes.s executes its 3 CF instructions
//! and 9 ALU slots once per wave.

mod cli_util;

use cli_util::{succeeds, temp_path};
use serde_json::Value;

fn stats(args: &[&str]) -> Value {
    let path = temp_path(&format!("stats-{}.json", args[1].replace('/', "_")));
    let p = path.to_str().unwrap();
    let mut a = args.to_vec();
    a.extend(["--stats", p]);
    assert_eq!(succeeds(&a), "", "--stats PATH prints nothing");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn check_fields(s: &Value) {
    for key in [
        "kernel",
        "target",
        "isa",
        "engine",
        "threads",
        "workgroups",
        "waves",
        "guest_instructions",
        "lane_instructions",
    ] {
        assert!(s.get(key).is_some(), "{key} missing: {s}");
    }
    for key in ["load", "lift", "compile", "execute"] {
        let t = s["seconds"][key].as_f64().unwrap_or(-1.0);
        assert!((0.0..60.0).contains(&t), "seconds.{key} = {t}");
    }
}

#[test]
fn gcn_counts_follow_the_program() {
    // 200 work-items in groups of 64: 4 groups, the last with 8 work-items, one wave each.
    for engine in ["jit", "interp"] {
        let s = stats(&[
            "run",
            "tests/programs/straight8.s",
            "--target",
            "gfx900",
            "--kernel",
            "straight8",
            "--global",
            "200",
            "--local",
            "64",
            "--arg",
            "zero:256",
            "--engine",
            engine,
            "--threads",
            "1",
        ]);
        check_fields(&s);
        assert_eq!(s["kernel"], "straight8");
        assert_eq!(
            (s["target"].as_str(), s["isa"].as_str()),
            (Some("gfx900"), Some("gcn"))
        );
        assert_eq!(
            (s["engine"].as_str(), s["threads"].as_u64()),
            (Some(engine), Some(1))
        );
        assert_eq!(
            (s["workgroups"].as_u64(), s["waves"].as_u64()),
            (Some(4), Some(4))
        );
        assert_eq!(s["guest_instructions"], 8 * 4);
        assert_eq!(s["lane_instructions"], 8 * 200);
    }
}

#[test]
fn terascale_counts_follow_the_wave_size() {
    // cedar has 32-lane waves: groups of 64 hold 2 waves, the last group (8 items) one.
    let s = stats(&[
        "run",
        "tests/programs/r600_lanes.s",
        "--target",
        "cedar",
        "--kernel",
        "r600_lanes",
        "--global",
        "200",
        "--local",
        "64",
        "--arg",
        "zero:800",
        "--arg",
        "u32:7",
    ]);
    check_fields(&s);
    assert_eq!(s["isa"], "terascale");
    assert_eq!(
        (s["workgroups"].as_u64(), s["waves"].as_u64()),
        (Some(4), Some(7))
    );
    assert_eq!(s["guest_instructions"], 12 * 7);
    assert_eq!(s["lane_instructions"], 12 * 200);
}

#[test]
fn stats_go_to_stdout_with_a_dash() {
    let out = succeeds(&[
        "run",
        "tests/programs/straight8.s",
        "--target",
        "gfx9",
        "--kernel",
        "straight8",
        "--global",
        "64",
        "--local",
        "64",
        "--arg",
        "zero:256",
        "--stats",
        "-",
    ]);
    let s: Value = serde_json::from_str(out.trim()).unwrap();
    check_fields(&s);
    assert_eq!(s["guest_instructions"], 8);
}
