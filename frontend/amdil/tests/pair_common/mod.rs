//! Running 64-bit instructions (doubles, 64-bit integers) case by case on both engines, one lane
//! per case: source `i` of a case is the pair r`i`.xy (the low dword in x), r`i`.zw hold a
//! poison value the instructions must not read, and r4 starts as [`SENTINEL`] in every
//! component, so that the components an instruction must not write can be checked.
#![allow(dead_code)]

use crate::lift_common::*;

/// r4's components before the instruction.
pub const SENTINEL: u32 = 0x5555_5555;
/// r0-r3's z and w components.
pub const POISON: u32 = 0xdead_beef;

pub fn lo(x: u64) -> u32 {
    x as u32
}

pub fn hi(x: u64) -> u32 {
    (x >> 32) as u32
}

pub fn pair(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | u64::from(hi) << 32
}

/// Runs `body` (IL lines) once per case and hands `check` each case and r4's four components
/// after it.
pub fn run_cases<const N: usize>(
    body: &str,
    cases: &[[u64; N]],
    check: impl Fn(&[u64; N], [u32; 4]),
) {
    let text = format!("il_cs_2_0\n{body}\nend\n");
    let k = Kernel::new(&text);
    for chunk in cases.chunks(LANES as usize) {
        let mut l = k.launch();
        let at = |lane: u32| &chunk[lane as usize % chunk.len()];
        for n in 0..N {
            l.set_r(n as u32, 0, |lane| lo(at(lane)[n]));
            l.set_r(n as u32, 1, |lane| hi(at(lane)[n]));
            l.set_r(n as u32, 2, |_| POISON);
            l.set_r(n as u32, 3, |_| POISON);
        }
        for c in 0..4 {
            l.set_r(4, c, |_| SENTINEL);
        }
        let d = l.go();
        for (lane, case) in chunk.iter().enumerate() {
            let r4 = [0, 1, 2, 3].map(|c| d.r(4, c, lane as u32));
            check(case, r4);
        }
    }
}

/// Every ordered pair of `v`.
pub fn pairs(v: &[u64]) -> Vec<[u64; 2]> {
    v.iter()
        .flat_map(|&a| v.iter().map(move |&b| [a, b]))
        .collect()
}

/// Every ordered triple of `v`.
pub fn triples(v: &[u64]) -> Vec<[u64; 3]> {
    v.iter()
        .flat_map(|&a| {
            v.iter()
                .flat_map(move |&b| v.iter().map(move |&c| [a, b, c]))
        })
        .collect()
}

pub fn singles(v: &[u64]) -> Vec<[u64; 1]> {
    v.iter().map(|&a| [a]).collect()
}

/// The refusal of `body` as a compute program: its kind and its one-line text.
pub fn refusal(body: &str) -> (wavejit_amdil::lift::LiftErrorKind, String) {
    let text = format!("il_cs_2_0\n{body}\nend\n");
    let p = wavejit_amdil::parse::parse(&text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    let e = wavejit_amdil::lift::lift(&p, "t")
        .err()
        .unwrap_or_else(|| panic!("{text}\nlifted"));
    let s = e.to_string();
    assert!(!s.contains('\n'), "one line: {s}");
    (e.kind, s)
}
