//! What the ALU tests share: expected results (exact bits or any NaN), float and integer
//! edge values, the flushing and DX9-multiply rules written on the host, and runners that
//! lift one instruction and check it lane by lane on both engines (`lift_common`).
#![allow(dead_code)]

use crate::lift_common::*;

/// An expected result: exact bits, or any NaN (the seed leaves NaN bit patterns open).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exp {
    Bits(u32),
    Nan,
}
pub use Exp::{Bits, Nan};

/// Float edge values: ±0, ±1, 1.5, -2.5, ±inf, a quiet and a signalling NaN, ±denormals, the
/// largest finite, the smallest normal, 3, 0.5.
pub const F: [u32; 16] = [
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3fc0_0000,
    0xc020_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fa0_0000,
    0x0000_0001,
    0x8040_0000,
    0x7f7f_ffff,
    0x0080_0000,
    0x4040_0000,
    0x3f00_0000,
];

/// Integer edge values: 0, 1, 2, -1, INT_MIN, INT_MAX, shift counts around 32, 24-bit
/// boundaries, and a few patterns.
pub const I: [u32; 16] = [
    0,
    1,
    2,
    0xffff_ffff,
    0x8000_0000,
    0x7fff_ffff,
    31,
    32,
    33,
    0x0080_0000,
    0x00ff_ffff,
    0x007f_ffff,
    0x0100_0001,
    0x1234_5678,
    0xffff_0000,
    0xffff_ff80,
];

pub fn is_nan(x: u32) -> bool {
    x & 0x7f80_0000 == 0x7f80_0000 && x & 0x007f_ffff != 0
}

pub fn is_snan(x: u32) -> bool {
    is_nan(x) && x & 0x0040_0000 == 0
}

/// A denormal read as zero of its sign (L3055, L8418).
pub fn flush(x: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

pub fn fl(x: u32) -> f32 {
    f32::from_bits(flush(x))
}

/// A float result, flushed.
pub fn out(v: f32) -> Exp {
    if v.is_nan() {
        Nan
    } else {
        Bits(flush(v.to_bits()))
    }
}

pub fn matches(e: Exp, got: u32) -> bool {
    match e {
        Bits(b) => b == got,
        Nan => is_nan(got),
    }
}

/// Runs `line`, which reads r0.x, r1.x, r2.x, r3.x and writes r4.x, once per case (one lane
/// each), and checks r4.x against `reference`.
pub fn check(line: &str, cases: &[[u32; 4]], reference: impl Fn([u32; 4]) -> Exp) {
    let text = format!("il_cs_2_0\n{line}\nend\n");
    let k = Kernel::new(&text);
    for chunk in cases.chunks(LANES as usize) {
        let mut l = k.launch();
        for n in 0..4 {
            l.set_r(n, 0, |lane| chunk[lane as usize % chunk.len()][n as usize]);
        }
        let d = l.go();
        for (lane, case) in chunk.iter().enumerate() {
            let got = d.r(4, 0, lane as u32);
            let want = reference(*case);
            assert!(
                matches(want, got),
                "{line}: operands {:08x?}: got {got:#010x}, want {want:x?}",
                case
            );
        }
    }
}

pub fn pairs(v: &[u32]) -> Vec<[u32; 4]> {
    v.iter()
        .flat_map(|&a| v.iter().map(move |&b| [a, b, 0, 0]))
        .collect()
}

pub fn triples(v: &[u32]) -> Vec<[u32; 4]> {
    v.iter()
        .flat_map(|&a| {
            v.iter()
                .flat_map(move |&b| v.iter().map(move |&c| [a, b, c, 0]))
        })
        .collect()
}

pub fn singles(v: &[u32]) -> Vec<[u32; 4]> {
    v.iter().map(|&a| [a, 0, 0, 0]).collect()
}

pub fn mask(c: bool) -> Exp {
    Bits(if c { u32::MAX } else { 0 })
}

/// MUL control 0: "0*n = 0, even if n is NaN" (L8444, L8606); a zero factor gives +0.
pub fn dx9_mul(a: u32, b: u32) -> f32 {
    let (x, y) = (fl(a), fl(b));
    if x == 0.0 || y == 0.0 {
        0.0
    } else {
        f32::from_bits(flush((x * y).to_bits()))
    }
}

pub fn ieee_mul(a: u32, b: u32) -> f32 {
    f32::from_bits(flush((fl(a) * fl(b)).to_bits()))
}

/// What r4 holds before a [`check4`] run: a component the instruction does not write keeps it.
pub const UNTOUCHED: u32 = 0xdead_beef;

/// Runs `line`, which reads r0-r3 and writes r4, once per case (one lane each; `case[n][c]`
/// is component `c` of rn), and checks each component of r4 against `reference`: `Some`
/// result, or `None` for a component the instruction leaves as it was.
pub fn check4(
    line: &str,
    cases: &[[[u32; 4]; 4]],
    reference: impl Fn(&[[u32; 4]; 4]) -> [Option<Exp>; 4],
) {
    let text = format!("il_cs_2_0\n{line}\nend\n");
    let k = Kernel::new(&text);
    for chunk in cases.chunks(LANES as usize) {
        let mut l = k.launch();
        for n in 0..4 {
            for c in 0..4 {
                l.set_r(n, c, |lane| {
                    chunk[lane as usize % chunk.len()][n as usize][c as usize]
                });
            }
        }
        for c in 0..4 {
            l.set_r(4, c, |_| UNTOUCHED);
        }
        let d = l.go();
        for (lane, case) in chunk.iter().enumerate() {
            let want = reference(case);
            for (c, w) in want.iter().enumerate() {
                let got = d.r(4, c as u32, lane as u32);
                let ok = match w {
                    Some(e) => matches(*e, got),
                    None => got == UNTOUCHED,
                };
                assert!(
                    ok,
                    "{line}: operands {case:08x?}: r4.{}: got {got:#010x}, want {w:x?}",
                    ['x', 'y', 'z', 'w'][c]
                );
            }
        }
    }
}

/// Why `line` does not lift (panics if it does).
pub fn refusal(line: &str) -> String {
    match Kernel::try_new(&format!("il_cs_2_0\n{line}\nend\n")) {
        Ok(_) => panic!("{line} lifted"),
        Err(e) => e,
    }
}

/// `n` evenly spaced f32s from `lo` to `hi`, as bits.
pub fn spread(lo: f32, hi: f32, n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| (lo + (hi - lo) * i as f32 / (n - 1) as f32).to_bits())
        .collect()
}

/// The distance in ulps between two finite f32s.
pub fn ulps(a: f32, b: f32) -> u32 {
    let key = |x: f32| {
        let i = x.to_bits() as i32;
        if i < 0 {
            i64::from(i32::MIN) - i64::from(i)
        } else {
            i64::from(i)
        }
    };
    (key(a) - key(b)).unsigned_abs() as u32
}

/// Each case once in all four components of every source register (for [`check4`]).
pub fn splat(cases: &[[u32; 4]]) -> Vec<[[u32; 4]; 4]> {
    cases.iter().map(|c| c.map(|x| [x; 4])).collect()
}
