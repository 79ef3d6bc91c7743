//! Integer rules (lift/alu.rs; applegpu.py's formulas on unbounded integers, cut to the
//! destination): every bitop truth table, intl, and the shifts and bitfields with every shift
//! amount 0..127.

use super::common::Wave;
use super::each_lane;

/// Lane `l`'s pseudo-random word number `k` (a fixed mix, so every run sees the same inputs).
fn word(l: u32, k: u32) -> u32 {
    let x = l.wrapping_mul(0x9e37_79b9) ^ k.wrapping_mul(0x85eb_ca6b).rotate_left(l % 31);
    x ^ (x >> 13) ^ 0x5bd1_e995u32.wrapping_mul(k + 1)
}

#[test]
fn bitop_follows_each_of_the_16_truth_tables() {
    let mut text = String::new();
    for t in 0..16u32 {
        text += &format!("bitop {:04b}, r{}, r0, r1\n", t, 10 + t);
    }
    text += "bitop 0110, r30l, r0l, r1h\nbitop 0011, r30h, r0h, r1l\nstop";
    let mut w = Wave::new();
    for l in 0..32 {
        w.set_r(0, l, word(l, 0));
        w.set_r(1, l, word(l, 1));
    }
    w.set_r(0, 0, 0xffff_0000);
    w.set_r(1, 0, 0xff00_ff00);
    let out = w.go(&text);
    for l in 0..32 {
        let (a, b) = (w.r(0, l), w.r(1, l));
        for t in 0..16u32 {
            // Printed digits tt0 tt1 tt2 tt3: result bit for (a, b) is tt[a + 2b].
            let tt = [t >> 3 & 1, t >> 2 & 1, t >> 1 & 1, t & 1];
            let want = if tt == [0, 0, 1, 1] || tt == [1, 1, 0, 0] {
                a
            } else {
                let terms = [!a & !b, a & !b, !a & b, a & b];
                (0..4).filter(|&k| tt[k] == 1).fold(0, |r, k| r | terms[k])
            };
            assert_eq!(out.r(10 + t, l), want, "bitop {t:04b} a={a:#x} b={b:#x}");
        }
        let half = (a ^ (b >> 16)) & 0xffff | (a & 0xffff_0000);
        assert_eq!(out.r(30, l), half, "halves a={a:#x} b={b:#x}");
    }
}

#[test]
fn intl_interleaves_the_low_16_bits() {
    let spread = |x: u32| (0..16).fold(0u32, |r, i| r | ((x >> i) & 1) << (2 * i));
    let cases: Vec<(u32, u32)> = (0..32)
        .map(|l| (word(l, 2), word(l, 3)))
        .chain([(0xffff, 0), (0, 0xffff), (0xffff_ffff, 0xffff_ffff)])
        .collect();
    each_lane(
        &cases,
        "intl r10, r0, r1\nintl r11, r0l, r1h\nstop",
        |w, l, &(a, b)| {
            w.set_r(0, l, a);
            w.set_r(1, l, b);
        },
        |w, l, &(a, b)| {
            assert_eq!(w.r(10, l), spread(a) | spread(b) << 1, "intl {a:#x} {b:#x}");
            assert_eq!(w.r(11, l), spread(a) | spread(b >> 16) << 1, "halves");
        },
    );
}

/// Shift and bitfield results on unbounded integers (applegpu's formulas), cut to 32 bits;
/// `a`, `b` the sources as read (zero-extended), `s` the shift amount (0..127), `mask` the
/// field mask, `asize` A's width for `asr`/`asrh`.
fn shift(name: &str, a: u64, b: u64, s: u32, mask: u128, asize: u32) -> u32 {
    let (a, b) = (u128::from(a), u128::from(b));
    let shl = |x: u128, n: u32| x.checked_shl(n).unwrap_or(0);
    let sext = |x: u128| {
        let sh = 128 - asize;
        ((x << sh) as i128) >> sh
    };
    let r: u128 = match name {
        "asr" => (sext(a) >> s) as u128,
        "asrh" => ((sext(a) << 32) >> s) as u128,
        "bfi" => (a & !shl(mask, s)) | shl(b & mask, s),
        "bfeil" => (a & !mask) | ((b >> s) & mask),
        "extr" => (((b << 32) | a) >> s) & mask,
        "shlhi" => {
            let smask = shl(mask, s.saturating_sub(32));
            ((shl(b, s) >> 32) & smask) | (a & !smask)
        }
        "shrhi" => {
            let smask = (mask << 32) >> s.min(32);
            (((b << 32) >> s) & smask) | (a & !smask)
        }
        _ => unreachable!("{name}"),
    };
    r as u32
}

#[test]
fn shifts_and_bitfields_take_every_amount_up_to_127() {
    // (instruction, bitfield mask suffix, mask value)
    let forms: &[(&str, &str, u128)] = &[
        ("asr", "", 0),
        ("asrh", "", 0),
        ("bfi", "", 0xffff_ffff),
        ("bfi", ", mask 0xFFF", 0xfff),
        ("bfeil", "", 0xffff_ffff),
        ("bfeil", ", mask 0x1F", 0x1f),
        ("extr", "", 0xffff_ffff),
        ("extr", ", mask 0x7FFFFFFF", 0x7fff_ffff),
        ("shlhi", "", 0xffff_ffff),
        ("shlhi", ", mask 0xFF", 0xff),
        ("shrhi", "", 0xffff_ffff),
        ("shrhi", ", mask 0xFFFFF", 0xf_ffff),
    ];
    for chunk in 0..4u32 {
        let mut text = String::new();
        let mut dst = 10;
        for (name, m, _) in forms {
            let line = match *name {
                "asr" | "asrh" => format!("{name} r{dst}, r0, r2\n{name} r{}, r1h, r2\n", dst + 1),
                _ => format!(
                    "{name} r{dst}, r0, r1, r2{m}\n{name} r{}, r1, r0l, r2{m}\n",
                    dst + 1
                ),
            };
            text += &line;
            dst += 2;
        }
        text += "stop";
        let mut w = Wave::new();
        for l in 0..32 {
            w.set_r(
                0,
                l,
                word(l, 4 + chunk) | if l % 2 == 0 { 0x8000_0000 } else { 0 },
            );
            w.set_r(
                1,
                l,
                word(l, 8 + chunk) | if l % 3 == 0 { 0x8000_8000 } else { 0 },
            );
            // Amounts 32 chunk .. 32 chunk + 31, with garbage above bit 6.
            w.set_r(2, l, (32 * chunk + l) | (word(l, 12) & !0x7f));
        }
        let out = w.go(&text);
        for l in 0..32 {
            let (a, b) = (u64::from(w.r(0, l)), u64::from(w.r(1, l)));
            let s = w.r(2, l) & 0x7f;
            let b_hi = b >> 16;
            let a_lo = a & 0xffff;
            for (k, (name, _, mask)) in forms.iter().enumerate() {
                let r = 10 + 2 * k as u32;
                let (want, want2) = match *name {
                    "asr" | "asrh" => (shift(name, a, 0, s, 0, 32), shift(name, b_hi, 0, s, 0, 16)),
                    _ => (
                        shift(name, a, b, s, *mask, 32),
                        shift(name, b, a_lo, s, *mask, 32),
                    ),
                };
                let what = format!("{name} {mask:#x} a={a:#x} b={b:#x} s={s}");
                assert_eq!(out.r(r, l), want, "{what}");
                assert_eq!(out.r(r + 1, l), want2, "{what} (second form)");
            }
        }
    }
}
