//! `convert` (lift/float.rs): integer to float (u8, s8, u16, s16, u32, s32; the source cut
//! to the mode's width and extended) rounded once to the destination's float width, and
//! float to integer (u16, s16, u32, s32; an f16 or a flushed f32 source) rounded to an
//! integer and saturated, NaN giving 0; each in both rounding modes, rtz and rte.

use super::num::{f, f16_value, flush, round, F16, F32};
use super::{each_lane, hi, lo};

/// `v` rounded to the float `fmt` in the given mode, as bits.
fn to_float(fmt: super::num::Fmt, v: i64, rte: bool) -> u64 {
    round(fmt, v < 0, u128::from(v.unsigned_abs()), 0, rte)
}

/// The mode's source value: `raw` cut to `bits` and extended.
fn source(raw: u32, bits: u32, signed: bool) -> i64 {
    let v = i64::from(raw) & ((1i64 << bits) - 1);
    if signed && v >> (bits - 1) != 0 {
        v - (1i64 << bits)
    } else {
        v
    }
}

#[test]
fn integer_to_float_rounds_once_in_either_mode() {
    let cases: &[u32] = &[
        0,
        1,
        0x7f,
        0x80,
        0xff,
        0x100,
        0x7fff,
        0x8000,
        0xffff,
        0x10000,
        0xff_ffff,
        0x100_0001, // 2^24 + 1: an f32 tie
        0x100_0003, // another tie, rounding up
        0x7fff_ffff,
        0x8000_0000,
        0xffff_ffff,
        0xffff_fffe,
        0x8000_0001,
        0x1234_5678,
        0x7fff_ff80,
        0xffff_ff7f,
        0xffff_ff80,
        0xfff0, // 65520: past the largest f16
        0xffe0, // 65504
        0xffef,
        0x1001, // 4097: an f16 tie
        0x1003,
        0x0801, // 2049: an f16 tie
        0x0803,
        0xffff_f7ff, // -2049
        0x8001,      // s16: -32767
        0xdead_beef,
    ];
    let text = "convert u8_to_f, r10, r0, rtz
                convert u8_to_f, r11, r0, rte
                convert s8_to_f, r12l, r0, rte
                convert u16_to_f, r12h, r0, rtz
                convert s16_to_f, r13, r0, rte
                convert u32_to_f, r14, r0, rtz
                convert u32_to_f, r15, r0, rte
                convert s32_to_f, r16, r0, rtz
                convert s32_to_f, r17, r0, rte
                convert u32_to_f, r18l, r0, rtz
                convert s32_to_f, r18h, r0, rte
                convert s16_to_f, r19l, r0l, rtz
                convert u8_to_f, r19h, r0h, rte
                convert u16_to_f, r20l, r0, rte
                convert s8_to_f, r20h, r0, rtz
                stop";
    each_lane(
        cases,
        text,
        |w, l, &v| w.set_r(0, l, v),
        |w, l, &v| {
            let s = |bits, signed| source(v, bits, signed);
            let f32_ = |x, rte| to_float(F32, x, rte) as u32;
            let f16_ = |x, rte| to_float(F16, x, rte) as u16;
            let want32 = [
                (10, f32_(s(8, false), false)),
                (11, f32_(s(8, false), true)),
                (13, f32_(s(16, true), true)),
                (14, f32_(s(32, false), false)),
                (15, f32_(s(32, false), true)),
                (16, f32_(s(32, true), false)),
                (17, f32_(s(32, true), true)),
            ];
            for (r, want) in want32 {
                assert_eq!(w.r(r, l), want, "r{r} of {v:#x}");
            }
            let want16 = [
                (lo(w.r(12, l)), f16_(s(8, true), true), "s8 rte"),
                (hi(w.r(12, l)), f16_(s(16, false), false), "u16 rtz"),
                (lo(w.r(18, l)), f16_(s(32, false), false), "u32 rtz"),
                (hi(w.r(18, l)), f16_(s(32, true), true), "s32 rte"),
                (
                    lo(w.r(19, l)),
                    f16_(source(v & 0xffff, 16, true), false),
                    "s16 rtz r0l",
                ),
                (
                    hi(w.r(19, l)),
                    f16_(source(v >> 16, 8, false), true),
                    "u8 rte r0h",
                ),
                (lo(w.r(20, l)), f16_(s(16, false), true), "u16 rte"),
                (hi(w.r(20, l)), f16_(s(8, true), false), "s8 rtz"),
            ];
            for (got, want, what) in want16 {
                assert_eq!(got, want, "{what} to f16 of {v:#x}");
            }
        },
    );
}

/// `x` rounded to an integer (to nearest even if `rte`, else toward zero) and saturated to
/// [lo, hi]; NaN gives 0.
fn to_int(x: f64, rte: bool, lo: i64, hi: i64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let r = if rte { x.round_ties_even() } else { x.trunc() };
    if r <= lo as f64 {
        lo
    } else if r >= hi as f64 {
        hi
    } else {
        r as i64
    }
}

#[test]
fn float_to_integer_rounds_saturates_and_maps_nan_to_zero() {
    // (f32 source, f16 source)
    let cases: &[(u32, u16)] = &[
        (0, 0),
        (0x8000_0000, 0x8000),
        (f(0.5), 0x3800),
        (f(1.5), 0x3e00),
        (f(2.5), 0x4100),
        (f(-0.5), 0xb800),
        (f(-1.5), 0xbe00),
        (f(-2.5), 0xc100),
        (f(65535.5), 0x7bff),
        (f(65534.5), 0xfbff),
        (f(32767.5), 0x7c00),
        (f(-32768.5), 0xfc00),
        (f(-32769.0), 0x7e01),
        (0x4f7f_ffff, 0x0001), // the largest f32 below 2^32
        (0x4f80_0000, 0x83ff), // 2^32
        (0x4eff_ffff, 0x3bff),
        (0x4f00_0000, 0x3c01), // 2^31
        (0xcf00_0000, 0x5a9a), // -2^31
        (0xcf00_0001, 0xda9a),
        (f(-1.0), 0xbc00),
        (0x7f80_0000, 0x7800),
        (0xff80_0000, 0xf800),
        (0x7fc0_0001, 0x4480),
        (0x0000_0001, 0x4490),
        (f(1e20), 0x4488),
        (f(-1e20), 0xc488),
        (0x3eff_ffff, 0x3bfe),
        (0x4aff_ffff, 0x3c00),
        (f(8_388_606.5), 0x2e66),
        (f(3.5), 0x4300),
        (f(123.456), 0xd7b5),
        (0xff80_0001, 0x4b80),
    ];
    let text = "convert f_to_u16, r10l, r0, rtz
                convert f_to_u16, r10h, r0, rte
                convert f_to_s16, r11l, r0, rtz
                convert f_to_s16, r11h, r0, rte
                convert f_to_u32, r12, r0, rtz
                convert f_to_u32, r13, r0, rte
                convert f_to_s32, r14, r0, rtz
                convert f_to_s32, r15, r0, rte
                convert f_to_u32, r16, r1l, rte
                convert f_to_s32, r17, r1l, rtz
                convert f_to_s16, r18l, r1l, rte
                convert f_to_u16, r18h, r1l, rtz
                stop";
    each_lane(
        cases,
        text,
        |w, l, &(a, b)| {
            w.set_r(0, l, a);
            w.set_r(1, l, u32::from(b) | 0x5555_0000);
        },
        |w, l, &(a, b)| {
            let x = f64::from(flush(f32::from_bits(a)));
            let y = f16_value(b);
            let u16_ = |v, rte| to_int(v, rte, 0, 0xffff) as u16;
            let s16_ = |v, rte| to_int(v, rte, -0x8000, 0x7fff) as u16;
            let u32_ = |v, rte| to_int(v, rte, 0, 0xffff_ffff) as u32;
            let s32_ = |v, rte| to_int(v, rte, -0x8000_0000, 0x7fff_ffff) as u32;
            let what = format!("{a:#x} / {b:#x}");
            assert_eq!(lo(w.r(10, l)), u16_(x, false), "f_to_u16 rtz {what}");
            assert_eq!(hi(w.r(10, l)), u16_(x, true), "f_to_u16 rte {what}");
            assert_eq!(lo(w.r(11, l)), s16_(x, false), "f_to_s16 rtz {what}");
            assert_eq!(hi(w.r(11, l)), s16_(x, true), "f_to_s16 rte {what}");
            assert_eq!(w.r(12, l), u32_(x, false), "f_to_u32 rtz {what}");
            assert_eq!(w.r(13, l), u32_(x, true), "f_to_u32 rte {what}");
            assert_eq!(w.r(14, l), s32_(x, false), "f_to_s32 rtz {what}");
            assert_eq!(w.r(15, l), s32_(x, true), "f_to_s32 rte {what}");
            assert_eq!(w.r(16, l), u32_(y, true), "f16 f_to_u32 rte {what}");
            assert_eq!(w.r(17, l), s32_(y, false), "f16 f_to_s32 rtz {what}");
            assert_eq!(lo(w.r(18, l)), s16_(y, true), "f16 f_to_s16 rte {what}");
            assert_eq!(hi(w.r(18, l)), u16_(y, false), "f16 f_to_u16 rtz {what}");
        },
    );
}
