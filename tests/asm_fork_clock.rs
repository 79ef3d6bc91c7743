//! A fork/join program that reads the wave clock (tests/programs/fork_clock.s), run by the
//! `wavejit` binary under both engines and several thread counts: the outputs must equal
//! each other bit for bit and the values derived by hand from the ISA pseudocode of
//! `s_cbranch_i_fork`/`s_cbranch_join` and the lifter's documented clock (one tick per
//! retired guest instruction, starting at 0 with each wave).

mod cli_util;

use cli_util::{succeeds, temp_path};

const GROUPS: u32 = 2;

fn run(engine: &str, threads: &str) -> Vec<u32> {
    let out = temp_path(&format!("fork_clock_{engine}_{threads}.bin"));
    let save = format!("0:{}", out.display());
    let bytes_arg = format!("zero:{}", GROUPS * 64 * 32);
    let global = format!("{}", GROUPS * 64);
    succeeds(&[
        "run",
        "tests/programs/fork_clock.s",
        "--target",
        "gfx900",
        "--kernel",
        "fork_clock",
        "--global",
        &global,
        "--local",
        "64",
        "--engine",
        engine,
        "--threads",
        threads,
        "--arg",
        &bytes_arg,
        "--save",
        &save,
    ]);
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(out);
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// The expected 8 dwords of one lane.
fn expected(lane: u32) -> [u32; 8] {
    // vcc = lanes 0-39: 40 pass, 24 fail, so the fall-through (fail) path runs first and
    // the target is pushed; the join then runs the target's 40 lanes.
    let path = if lane < 40 { 2 } else { 1 };
    // Retired before each s_memtime: 7 in the first block; its 9, then the fall-through's
    // v_or (10); its 3 and the join (13), then the target's v_or (14); its 2 and the join
    // again (16), then s_mov_b64 exec (17). The high halves are 0; s40 (the saved CSP) 0.
    [path, 7, 10, 14, 17, 0, 0, 0]
}

#[test]
fn fork_join_and_memtime_agree_across_engines_and_threads() {
    let want: Vec<u32> = (0..GROUPS)
        .flat_map(|_| (0..64).flat_map(expected))
        .collect();
    for (engine, threads) in [("interp", "1"), ("jit", "1"), ("jit", "2"), ("interp", "2")] {
        assert_eq!(run(engine, threads), want, "{engine} on {threads} threads");
    }
}
