//! Vertex-fetch data formats through the lifter, on the interpreter and the JIT: every
//! lifted r600 DATA_FORMAT (seed 000 L9390-L9424) under NUM_FORMAT_ALL NORM / INT / SCALED,
//! FORMAT_COMP_ALL and SRF_MODE_ALL (L9760-L9785), and DST_SEL. Expected values are computed
//! here: field widths typed from the FMT_* names (most significant field first), the
//! conversions written out from the document's definitions (NORM `c / (2^n - 1)`, signed
//! `c / (2^(n-1) - 1)` clamped to -1 or, SRF NO_ZERO, `(2c + 1) / (2^n - 1)`; SCALED the
//! integer as a float; INT the integer) and the float fields decoded arithmetically.
mod lift_common;
use lift_common::*;
use wavejit_terascale::inst::FetchInst;
use wavejit_terascale::tables::FetchOp;
use wavejit_terascale::ChipClass;

/// (DATA_FORMAT, name, float fields).
const FORMATS: &[(u32, &str, bool)] = &[
    (1, "8", false),
    (2, "4_4", false),
    (3, "3_3_2", false),
    (5, "16", false),
    (6, "16", true),
    (7, "8_8", false),
    (8, "5_6_5", false),
    (9, "6_5_5", false),
    (10, "1_5_5_5", false),
    (11, "4_4_4_4", false),
    (12, "5_5_5_1", false),
    (13, "32", false),
    (14, "32", true),
    (15, "16_16", false),
    (16, "16_16", true),
    (17, "8_24", false),
    (19, "24_8", false),
    (21, "10_11_11", false),
    (22, "10_11_11", true),
    (23, "11_11_10", false),
    (24, "11_11_10", true),
    (25, "2_10_10_10", false),
    (26, "8_8_8_8", false),
    (27, "10_10_10_2", false),
    (29, "32_32", false),
    (30, "32_32", true),
    (31, "16_16_16_16", false),
    (32, "16_16_16_16", true),
    (34, "32_32_32_32", false),
    (35, "32_32_32_32", true),
    (44, "8_8_8", false),
    (45, "16_16_16", false),
    (46, "16_16_16", true),
    (47, "32_32_32", false),
    (48, "32_32_32", true),
];

/// Field widths, x first (the name lists the most significant field first).
fn widths(name: &str) -> Vec<u32> {
    name.split('_').rev().map(|w| w.parse().unwrap()).collect()
}

/// VFETCH from buffer 1 at R0.x into R`dst`.
fn vfetch(dst: u32, data: u32, num: u32, signed: bool, srf: bool, sel: [u32; 4]) -> FetchInst {
    let w0 = 1 << 8;
    let w1 = dst
        | sel[0] << 9
        | sel[1] << 12
        | sel[2] << 15
        | sel[3] << 18
        | data << 22
        | num << 28
        | u32::from(signed) << 30
        | u32::from(srf) << 31;
    FetchInst {
        op: FetchOp::VTX_FETCH,
        words: [w0, w1, 0],
    }
}

/// The pool: lane `l` reads the 16 bytes at `16 * l`, bytes from a fixed LCG, with a few
/// lanes holding edge patterns (all zeros, all ones, sign bits only).
fn pool() -> Vec<u8> {
    let mut x = 0x1234_5678u32;
    let mut p: Vec<u8> = (0..16 * LANES)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 24) as u8
        })
        .collect();
    p[..16].fill(0);
    p[16..32].fill(0xff);
    for (k, b) in p[32..48].iter_mut().enumerate() {
        *b = if k % 2 == 1 { 0x80 } else { 0 };
    }
    p
}

fn element(p: &[u8], lane: u32) -> u128 {
    u128::from_le_bytes(p[16 * lane as usize..][..16].try_into().unwrap())
}

/// `c / d` rounded once to f32 (exact in f64 for these sizes, then rounded).
fn ratio(c: f64, d: f64) -> u32 {
    ((c / d) as f32).to_bits()
}

/// A float with a 5-bit exponent (bias 15) and `m` fraction bits, evaluated arithmetically.
fn small_float(bits: u32, m: u32, signed: bool) -> u32 {
    let neg = signed && bits >> 15 & 1 == 1;
    let (e, f) = (bits >> m & 31, bits & ((1 << m) - 1));
    let sign = if neg { 1u32 << 31 } else { 0 };
    if e == 31 {
        return sign | 0x7f80_0000 | f << (23 - m);
    }
    let scale = f64::from(1u32 << m);
    let mag = if e == 0 {
        f64::from(f) / scale * 2f64.powi(-14)
    } else {
        (1.0 + f64::from(f) / scale) * 2f64.powi(e as i32 - 15)
    };
    sign | (mag as f32).to_bits()
}

/// The register value of field `raw` (`n` bits) under (num, signed, srf) or float.
fn convert(raw: u32, n: u32, num: u32, signed: bool, srf: bool, float: bool) -> u32 {
    if float {
        return match n {
            16 => small_float(raw, 10, true),
            11 => small_float(raw, 6, false),
            10 => small_float(raw, 5, false),
            _ => raw,
        };
    }
    if n == 32 {
        return raw;
    }
    let s = if raw >> (n - 1) & 1 == 1 {
        i64::from(raw) - (1i64 << n)
    } else {
        i64::from(raw)
    };
    let max = ((1u64 << n) - 1) as f64;
    let half = ((1u64 << (n - 1)) - 1) as f64;
    match (num, signed) {
        (0, false) => ratio(f64::from(raw), max),
        (0, true) if srf => ratio(2.0 * s as f64 + 1.0, max),
        (0, true) => ((s as f64 / half).max(-1.0) as f32).to_bits(),
        (1, false) => raw,
        (1, true) => s as i32 as u32,
        (_, false) => (raw as f32).to_bits(),
        (_, true) => (s as f32).to_bits(),
    }
}

/// One = 1 for INT formats of integer fields, 1.0f otherwise.
fn one(num: u32, float: bool) -> u32 {
    if num == 1 && !float {
        1
    } else {
        1f32.to_bits()
    }
}

/// The expected register component for DST_SEL `sel`.
fn expect(e: u128, w: &[u32], sel: u32, cfg: (u32, bool, bool, bool)) -> u32 {
    let (num, signed, srf, float) = cfg;
    match sel {
        4 => 0,
        5 => one(num, float),
        i if (i as usize) < w.len() => {
            let at: u32 = w[..i as usize].iter().sum();
            let n = w[i as usize];
            let raw = (e >> at) as u32 & (u64::from(u32::MAX) >> (32 - n)) as u32;
            convert(raw, n, num, signed, srf, float)
        }
        3 => one(num, float),
        _ => 0,
    }
}

#[test]
fn every_data_format_and_number_format() {
    let configs: Vec<(u32, bool, bool)> = vec![
        (0, false, false),
        (0, true, false),
        (0, true, true),
        (1, false, false),
        (1, true, false),
        (2, false, false),
        (2, true, false),
    ];
    let sels = [[0, 1, 2, 3], [3, 4, 5, 1], [2, 0, 1, 3]];
    let p = pool();
    for (class, formats) in [
        (ChipClass::Evergreen, &FORMATS[..18]),
        (ChipClass::Cayman, &FORMATS[18..]),
    ] {
        for &(data, name, float) in formats {
            let cfgs = if float { &configs[..1] } else { &configs[..] };
            let mut fetches = Vec::new();
            let mut want = Vec::new();
            for (k, &(num, signed, srf)) in cfgs.iter().enumerate() {
                let sel = sels[k % sels.len()];
                let dst = 2 + k as u32;
                fetches.push(vfetch(dst, data, num, signed, srf, sel));
                want.push((dst, sel, (num, signed, srf, float)));
            }
            let prog = Prog::new(class).fetch(fetches).build();
            let st = Start {
                gprs: vec![(0, 0, Box::new(|l| 16 * l))],
                pool: p.clone(),
                ..Start::default()
            };
            let o = run(&prog, &st);
            assert_eq!(o.result, Ok(()));
            let w = widths(name);
            for lane in 0..LANES {
                let e = element(&p, lane);
                for &(dst, sel, cfg) in &want {
                    for c in 0..4 {
                        let x = expect(e, &w, sel[c as usize], cfg);
                        assert_eq!(
                            o.r(dst, c, lane),
                            x,
                            "FMT {data} ({name}) {cfg:?} sel {sel:?} lane {lane} chan {c}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn masked_channels_are_not_written() {
    let class = ChipClass::Cayman;
    let prog = Prog::new(class)
        .fetch(vec![vfetch(3, 26, 1, false, false, [0, 7, 2, 7])])
        .build();
    let st = Start {
        gprs: vec![
            (0, 0, Box::new(|l| 16 * l)),
            (3, 1, Box::new(|l| 0xdead_0000 + l)),
            (3, 3, Box::new(|l| 0xbeef_0000 + l)),
        ],
        pool: pool(),
        ..Start::default()
    };
    let o = run(&prog, &st);
    for lane in 0..LANES {
        assert_eq!(o.r(3, 1, lane), 0xdead_0000 + lane);
        assert_eq!(o.r(3, 3, lane), 0xbeef_0000 + lane);
        assert_eq!(
            o.r(3, 2, lane),
            (element(&st.pool, lane) >> 16) as u32 & 0xff
        );
    }
}

#[test]
fn unlifted_and_reserved_encodings_are_errors() {
    let class = ChipClass::Evergreen;
    let one = |f: FetchInst| Prog::new(class).fetch(vec![f]).build();
    lift_err(
        &one(vfetch(2, 18, 0, false, false, [0, 1, 2, 3])),
        "data format",
    );
    lift_err(
        &one(vfetch(2, 43, 0, false, false, [0, 1, 2, 3])),
        "data format",
    );
    lift_err(
        &one(vfetch(2, 26, 3, false, false, [0, 1, 2, 3])),
        "NUM_FORMAT_ALL 3",
    );
    lift_err(
        &one(vfetch(2, 26, 0, false, false, [0, 6, 2, 3])),
        "DST_SEL 6",
    );
}
