//! The semantics applegpu.py does not execute, against the rules the lifter's module docs
//! state (lift/float.rs, alu.rs, simd.rs, exec.rs, sr.rs), with every expected value computed
//! here from the documented formula (num.rs: exact integer rounding to f16 and f32, Rust's
//! f32/f64 arithmetic) on both engines ([`common::Wave::run`]). Each program runs 32 cases at
//! once, one per lane.

mod common;

#[path = "semantics_rules/alu.rs"]
mod alu;
#[path = "semantics_rules/convert.rs"]
mod convert;
#[path = "semantics_rules/exec.rs"]
mod exec;
#[path = "semantics_rules/float.rs"]
mod float;
#[path = "semantics_rules/num.rs"]
mod num;
#[path = "semantics_rules/simd.rs"]
mod simd;
#[path = "semantics_rules/sr.rs"]
mod sr;
#[path = "semantics_rules/unary.rs"]
mod unary;

use common::{Wave, LANES};

/// Runs `text` (applegpu syntax) once per 32 `cases`, case k in lane k % 32 (a last partial
/// run fills its other lanes with its first case): `setup` writes a lane's inputs, `check`
/// asserts on its results.
pub fn each_lane<T: std::fmt::Debug>(
    cases: &[T],
    text: &str,
    setup: impl Fn(&mut Wave, u32, &T),
    check: impl Fn(&Wave, u32, &T),
) {
    assert!(!cases.is_empty());
    for chunk in cases.chunks(LANES as usize) {
        let mut w = Wave::new();
        for lane in 0..LANES {
            setup(&mut w, lane, chunk.get(lane as usize).unwrap_or(&chunk[0]));
        }
        let out = w.go(text);
        for (lane, case) in chunk.iter().enumerate() {
            check(&out, lane as u32, case);
        }
    }
}

/// The low half of a register cell.
pub fn lo(v: u32) -> u16 {
    v as u16
}

/// The high half of a register cell.
pub fn hi(v: u32) -> u16 {
    (v >> 16) as u16
}
