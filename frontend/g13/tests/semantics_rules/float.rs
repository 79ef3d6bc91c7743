//! fadd, fmul and fmadd at both widths (lift/float.rs): one fused operation with one rounding,
//! fp32 sources and results flushed with tininess detected before rounding, fp16 denormals
//! kept, the default NaN, `.sat`, the abs and neg modifiers, f16 sources of 32-bit operations
//! and 32-bit results written to 16-bit registers (rounded twice).

use super::num::{f, f16_of, f16_value, flush, fma16, fma32, h, sat16, sat32};
use super::{each_lane, hi, lo};

const ONE: u32 = 0x3f80_0000;
const SIGN: u32 = 0x8000_0000;

/// An f32 result written to a 16-bit register: rounded again, to f16.
fn to_half(bits: u32) -> u16 {
    f16_of(f64::from(f32::from_bits(bits)), true)
}

fn p2(e: i32) -> u32 {
    f(2f32.powi(e))
}

#[test]
fn fp32_arithmetic_is_fused_flushed_and_rounded_once() {
    let cases: &[(u32, u32, u32)] = &[
        (ONE, p2(-24), 0),                       // a tie: to even
        (ONE, f(3.0 * 2f32.powi(-25)), ONE),     // above the tie
        (0x3f80_0001, p2(-24), f(-1.0)),         // a tie to the even neighbour above
        (0x0000_0001, ONE, 0x0000_0001),         // denormal sources read as +0
        (0x8040_0000, ONE, 0x8000_0003),         // and as -0
        (SIGN, SIGN, SIGN),                      // -0 + -0 = -0; -0 * -0 + 0 = +0
        (f(-1.0), 0, SIGN),                      // fmul: -0 + +0 = +0
        (0x1fff_ffff, 0x2000_0000, 0),           // exact product just below 2^-126
        (0x9fff_ffff, 0x2000_0000, 0x0080_0001), // a tiny sum that would round up
        (0x2000_0000, 0x2000_0000, 0x8080_0001), // 2^-126 kept; a tiny negative sum
        (0x2040_0000, 0x2000_0000, SIGN),        // a normal product
        (0x7f7f_ffff, 0x7f7f_ffff, 0xff7f_ffff), // overflow
        (0x7fc0_0001, ONE, 0),                   // NaN payloads do not pass
        (0x7f80_0000, 0, ONE),                   // inf * 0
        (0x7f80_0000, 0xff80_0000, 0),           // inf - inf
        (0xff80_0fff, f(2.0), f(3.0)),           // a signalling NaN
        (0x3f80_1000, p2(-30), 0),               // f32 1+2^-11, an f16 tie
        (0x3f80_1001, 0, 0),                     // just above the f16 tie
        (f(65504.0), f(8.0), 0),                 // f16: a tie at the top rounds to inf
        (f(65519.0), 0, 0),                      // f16: rounds down to 65504
        (f(65520.0), 0, SIGN),                   // f16: inf
        (p2(-20), ONE, 0),                       // f16 denormal
        (p2(-25), ONE, p2(-25)),                 // f16: a tie at zero, and 2^-24
        (f(3.0 * 2f32.powi(-26)), ONE, 0),       // f16: rounds up to 2^-24
        (ONE, p2(-23), 0),                       // 1 + ulp saturates to 1
        (f(0.5), f(0.25), f(-1.0)),              // a negative result saturates to 0
        (SIGN, 0, SIGN),                         // -0 saturates to +0
        (f(2.0), f(3.0), f(-5.0)),               // 1.0 exactly
        (ONE, ONE, p2(-24)),                     // 1 + 2^-24: a tie
        (f(std::f32::consts::PI), f(std::f32::consts::E), ONE),
        (f(1e10), f(-1e10), f(1e19)), // an exact zero sum is +0
        (0x3eff_ffff, f(2.0), SIGN),
        (0x00c0_0000, 0x8080_0000, 0), // a sum below 2^-126 flushes
    ];
    let text = "fadd32 r10, r0, r1
                fmul32 r11, r0, r1
                fmadd32 r12, r0, r1, r2
                fadd32.sat r13, r0, r1
                fmadd32.sat r14, r0, r1, r2
                fadd32 r15l, r0, r1
                fmul32 r15h, r0, r1
                fmadd32.sat r16l, r0, r1, r2
                fmadd32 r16h, r0, r1, r2
                fadd32 r17, r0.neg, r1.abs
                fmul32.sat r18, r0.abs.neg, r1
                stop";
    each_lane(
        cases,
        text,
        |w, l, &(a, b, c)| {
            w.set_r(0, l, a);
            w.set_r(1, l, b);
            w.set_r(2, l, c);
        },
        |w, l, &(a, b, c)| {
            let add = fma32(a, ONE, b);
            let mul = fma32(a, b, 0);
            let madd = fma32(a, b, c);
            let want = [
                (10, add),
                (11, mul),
                (12, madd),
                (13, sat32(add)),
                (14, sat32(madd)),
                (15, u32::from(to_half(add)) | u32::from(to_half(mul)) << 16),
                (
                    16,
                    u32::from(to_half(sat32(madd))) | u32::from(to_half(madd)) << 16,
                ),
                (17, fma32(a ^ SIGN, ONE, b & !SIGN)),
                (18, sat32(fma32(a | SIGN, b, 0))),
            ];
            for (r, v) in want {
                assert_eq!(w.r(r, l), v, "r{r} for a={a:#x} b={b:#x} c={c:#x}:\n{text}");
            }
        },
    );
}

#[test]
fn fp16_arithmetic_keeps_denormals_and_rounds_once() {
    let cases: &[(u16, u16, u16)] = &[
        (0x0001, 0x0001, 0x0001), // denormals kept
        (0x0001, h(0.5), 0x8001), // 2^-25: a tie to 0
        (0x0003, h(0.5), 0),      // 1.5 * 2^-24: a tie to 2 * 2^-24
        (0x0400, h(0.5), 0x0200), // the smallest normal halved
        (0x83ff, 0x0001, 0x8000), // a product far below 2^-24
        (0x7bff, 0x7bff, 0xfbff), // overflow
        (0x7bff, 0x3c01, 0),      // 65504 * (1 + 2^-10) is inf
        (0x7e01, h(1.0), 0),      // NaN payloads do not pass
        (0xfd55, h(2.0), h(3.0)), // a signalling NaN
        (0x7c00, 0, h(1.0)),      // inf * 0
        (0x7c00, 0xfc00, 0),      // inf - inf
        (0x8000, 0x8000, 0x8000), // -0 + -0 = -0; fmul gives +0
        (h(-1.0), 0, 0x8000),
        (h(1.0), 0x1000, 0),        // 1 + 2^-11: a tie to 1
        (h(1.0), 0x1000, 0x0c00),   // above the tie
        (0x3c01, 0x1000, h(-1.0)),  // a tie to the even neighbour above
        (h(1.0), 0x1400, 0),        // 1 + ulp saturates to 1
        (h(0.5), h(0.25), h(-1.0)), // negative: saturates to 0
        (0x8000, 0, 0x8000),        // -0 saturates to +0
        (h(2.0), h(3.0), h(-5.0)),
        (0x3555, 0x3555, 0x3555),
        (h(1024.0), h(0.0009765625), h(-1.0)),
        (h(-3.5), h(7.25), h(100.0)),
        (0x0200, 0x0200, 0x0001),   // a tiny product, exact sum
        (0x2e66, h(10.0), h(-1.0)), // 0.0999755859375
        (0xfbff, h(-1.0), 0x7bff),
        (h(3.0), 0x03ff, 0x83ff),
    ];
    let text = "fadd16 r10l, r0l, r1l
                fmul16 r10h, r0l, r1l
                fmadd16 r11l, r0l, r1l, r2l
                fadd16.sat r11h, r0l, r1l
                fmadd16.sat r12l, r0l, r1l, r2l
                fmadd32 r12h, r0l, r1l, r2l
                fadd32 r13, r0l, r1l
                fmul32 r14, r0l, r1l
                fadd16 r15l, r0l.neg, r1l.abs
                fmadd16 r15h, r0l, r1l, 0.5
                stop";
    let as32 = |x: u16| f(f16_value(x) as f32);
    each_lane(
        cases,
        text,
        |w, l, &(a, b, c)| {
            w.set_r(0, l, u32::from(a) | 0xdead_0000);
            w.set_r(1, l, u32::from(b) | 0xbeef_0000);
            w.set_r(2, l, u32::from(c) | 0x1234_0000);
        },
        |w, l, &(a, b, c)| {
            let one = h(1.0);
            let add = fma16(a, one, b);
            let mul = fma16(a, b, 0);
            let madd = fma16(a, b, c);
            let madd32 = fma32(as32(a), as32(b), as32(c));
            let what = format!("a={a:#x} b={b:#x} c={c:#x}");
            assert_eq!(lo(w.r(10, l)), add, "fadd16 {what}");
            assert_eq!(hi(w.r(10, l)), mul, "fmul16 {what}");
            assert_eq!(lo(w.r(11, l)), madd, "fmadd16 {what}");
            assert_eq!(hi(w.r(11, l)), sat16(add), "fadd16.sat {what}");
            assert_eq!(lo(w.r(12, l)), sat16(madd), "fmadd16.sat {what}");
            assert_eq!(hi(w.r(12, l)), to_half(madd32), "fmadd32 to a half {what}");
            assert_eq!(w.r(13, l), fma32(as32(a), ONE, as32(b)), "fadd32 {what}");
            assert_eq!(w.r(14, l), fma32(as32(a), as32(b), 0), "fmul32 {what}");
            assert_eq!(
                lo(w.r(15, l)),
                fma16(a ^ 0x8000, one, b & 0x7fff),
                "fadd16 neg abs {what}"
            );
            assert_eq!(hi(w.r(15, l)), fma16(a, b, h(0.5)), "fmadd16 imm {what}");
        },
    );
}

#[test]
fn nan_losing_conditions_pick_the_operand_that_is_not_nan() {
    let nan = 0x7fc0_0123;
    let cases: &[(u32, u32)] = &[
        (f(1.0), f(2.0)),
        (f(2.0), f(1.0)),
        (f(1.0), f(1.0)),
        (nan, f(1.0)),
        (f(1.0), nan),
        (nan, 0xffc0_0000),
        (SIGN, 0),
        (0, SIGN),
        (0xff80_0000, 0x7f80_0000),
        (0x0000_0001, 0),           // a denormal reads as +0
        (0x0000_0001, 0x8000_0002), // and as -0: equal
        (0x7f80_0000, nan),
        (f(-3.0), f(-2.5)),
    ];
    let text = "fcmpsel ltn, r10, r0, r1, r2, r3
                fcmpsel gtn, r11, r0, r1, r2, r3
                fcmp_ballot r12, nltn, r0, r1
                fcmp_ballot r13, ngtn, r0, r1
                fcmpsel gtn, r14, r0, r1, r0, r1
                stop";
    each_lane(
        cases,
        text,
        |w, l, &(a, b)| {
            w.set_r(0, l, a);
            w.set_r(1, l, b);
            w.set_r(2, l, 0x1111_1111);
            w.set_r(3, l, 0x2222_2222);
        },
        |w, l, &(a, b)| {
            let (x, y) = (flush(f32::from_bits(a)), flush(f32::from_bits(b)));
            let ltn = x < y || y.is_nan();
            let gtn = x > y || y.is_nan();
            let sel = |c: bool| if c { 0x1111_1111 } else { 0x2222_2222 };
            let what = format!("a={a:#x} b={b:#x}");
            assert_eq!(w.r(10, l), sel(ltn), "ltn {what}");
            assert_eq!(w.r(11, l), sel(gtn), "gtn {what}");
            // fcmpsel has no inverted conditions; a ballot's bit shows them.
            assert_eq!(w.r(12, l) >> l & 1, u32::from(!ltn), "nltn {what}");
            assert_eq!(w.r(13, l) >> l & 1, u32::from(!gtn), "ngtn {what}");
            // max(a, b) as Mesa builds it: the operand that is not a NaN.
            assert_eq!(w.r(14, l), if gtn { a } else { b }, "fmax {what}");
        },
    );
}
