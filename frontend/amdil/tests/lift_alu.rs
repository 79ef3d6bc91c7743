//! The ALU instructions on both engines, one lane per case of an edge-value table, against
//! references written here from seed 001's Chapter 7 rules (the line is at each reference):
//! host `f32`/`i32` arithmetic plus the rule the entry states (denormals flushed in and out,
//! the DX9 multiply, the min/max NaN rules, zeroop results, integer edge values).

mod alu_common;
mod lift_common;
use alu_common::*;
use lift_common::*;

#[test]
fn add_sub_flush_denormals_in_and_out() {
    check("add r4.x___, r0.x, r1.x", &pairs(&F), |[a, b, ..]| {
        out(fl(a) + fl(b))
    });
    check("sub r4.x___, r0.x, r1.x", &pairs(&F), |[a, b, ..]| {
        out(fl(a) - fl(b))
    });
    // The smallest normals' difference is a denormal: flushed to +0.
    check(
        "sub r4.x___, r0.x, r1.x",
        &[[0x0080_0001, 0x0080_0000, 0, 0]],
        |_| Bits(0),
    );
}

#[test]
fn mul_dx9_zero_times_anything_is_zero_ieee_is_nan() {
    check("mul r4.x___, r0.x, r1.x", &pairs(&F), |[a, b, ..]| {
        out(dx9_mul(a, b))
    });
    check("mul_ieee r4.x___, r0.x, r1.x", &pairs(&F), |[a, b, ..]| {
        out(ieee_mul(a, b))
    });
    // The named edge: 0 * inf.
    check("mul r4.x___, r0.x, r1.x", &[[0, 0x7f80_0000, 0, 0]], |_| {
        Bits(0)
    });
    check(
        "mul_ieee r4.x___, r0.x, r1.x",
        &[[0, 0x7f80_0000, 0, 0]],
        |_| Nan,
    );
    // A denormal factor is a zero factor: DX9 gives 0 even with NaN.
    check("mul r4.x___, r0.x, r1.x", &[[1, 0x7fc0_0000, 0, 0]], |_| {
        Bits(0)
    });
}

#[test]
fn mad_is_unfused_with_the_flavour_of_mul() {
    let v = [
        0x0000_0000,
        0x8000_0000,
        0x3f80_0000,
        0xc020_0000,
        0x7f80_0000,
        0x7fc0_0000,
        0x0000_0001,
        0x7f7f_ffff,
        0x3f00_0000,
    ];
    check(
        "mad r4.x___, r0.x, r1.x, r2.x",
        &triples(&v),
        |[a, b, c, _]| out(dx9_mul(a, b) + fl(c)),
    );
    check(
        "mad_ieee r4.x___, r0.x, r1.x, r2.x",
        &triples(&v),
        |[a, b, c, _]| out(ieee_mul(a, b) + fl(c)),
    );
    // max * 2 - max: the rounded product overflows (unfused), where a fused one would not.
    let two = 0x4000_0000;
    check(
        "mad_ieee r4.x___, r0.x, r1.x, r2.x",
        &[[0x7f7f_ffff, two, 0xff7f_ffff, 0]],
        |_| Bits(0x7f80_0000),
    );
}

#[test]
fn fma_rounds_once() {
    let v = [
        0x3f80_0001,
        0x3f7f_ffff,
        0xbf80_0000,
        0x4040_0000,
        0x0000_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x4000_0000,
    ];
    check(
        "fma r4.x___, r0.x, r1.x, r2.x",
        &triples(&v),
        |[a, b, c, _]| out(fl(a).mul_add(fl(b), fl(c))),
    );
    // (1 + 2^-23)(1 - 2^-24) - 1 = 2^-24 - 2^-47 exactly: fused, the tail survives.
    check(
        "fma r4.x___, r0.x, r1.x, r2.x",
        &[[0x3f80_0001, 0x3f7f_ffff, 0xbf80_0000, 0]],
        |_| Bits(0x337f_fffe),
    );
}

/// MAX/MIN (L8454-L8490): control 0 returns the other operand when one is NaN; `_ieee` is
/// maxNum/minNum, so a signalling NaN gives NaN; +0 is above -0; denormals flushed first.
fn minmax(a: u32, b: u32, max: bool, ieee: bool) -> Exp {
    if ieee && (is_snan(a) || is_snan(b)) {
        return Nan;
    }
    let (x, y) = (fl(a), fl(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => Nan,
        (true, false) => out(y),
        (false, true) => out(x),
        _ if x == 0.0 && y == 0.0 => {
            let neg = |v: f32| v.is_sign_negative();
            let negative = if max {
                neg(x) && neg(y)
            } else {
                neg(x) || neg(y)
            };
            Bits(if negative { 0x8000_0000 } else { 0 })
        }
        _ => out(if (x > y) == max { x } else { y }),
    }
}

#[test]
fn min_max_dx9_and_ieee_nan_rules() {
    for (op, max) in [("max", true), ("min", false)] {
        check(
            &format!("{op} r4.x___, r0.x, r1.x"),
            &pairs(&F),
            |[a, b, ..]| minmax(a, b, max, false),
        );
        check(
            &format!("{op}_ieee r4.x___, r0.x, r1.x"),
            &pairs(&F),
            |[a, b, ..]| minmax(a, b, max, true),
        );
    }
    // The named edges: a signalling NaN is ignored by DX9, not by IEEE.
    check(
        "max r4.x___, r0.x, r1.x",
        &[[0x7fa0_0000, 0x3f80_0000, 0, 0]],
        |_| Bits(0x3f80_0000),
    );
    check(
        "max_ieee r4.x___, r0.x, r1.x",
        &[[0x7fa0_0000, 0x3f80_0000, 0, 0]],
        |_| Nan,
    );
    check("min r4.x___, r0.x, r1.x", &[[0, 0x8000_0000, 0, 0]], |_| {
        Bits(0x8000_0000)
    });
    check("max r4.x___, r0.x, r1.x", &[[0x8000_0000, 0, 0, 0]], |_| {
        Bits(0)
    });
}

#[test]
fn float_compares_give_masks_and_are_false_on_nan() {
    type Cmp = fn(f32, f32) -> bool;
    let ops: [(&str, Cmp); 4] = [
        ("eq", |x, y| x == y),
        ("ge", |x, y| x >= y),
        ("lt", |x, y| x < y),
        ("ne", |x, y| !x.is_nan() && !y.is_nan() && x != y),
    ];
    for (op, f) in ops {
        check(
            &format!("{op} r4.x___, r0.x, r1.x"),
            &pairs(&F),
            |[a, b, ..]| mask(f(fl(a), fl(b))),
        );
    }
    // +0 = -0, and a denormal equals zero (flushed before comparing).
    check("eq r4.x___, r0.x, r1.x", &[[1, 0x8000_0000, 0, 0]], |_| {
        Bits(u32::MAX)
    });
}

#[test]
fn div_zeroop_choices() {
    // (zeroop, result for a zero divisor before its sign).
    for (z, r) in [
        ("", 0x7f7f_ffff),
        ("_zeroop(fltmax)", 0x7f7f_ffff),
        ("_zeroop(zero)", 0),
        ("_zeroop(infinity)", 0x7f80_0000),
        ("_zeroop(inf_else_max)", 0x7f80_0000),
    ] {
        check(
            &format!("div{z} r4.x___, r0.x, r1.x"),
            &pairs(&F),
            |[a, b, ..]| {
                let (x, y) = (fl(a), fl(b));
                if y == 0.0 {
                    Bits(if x < 0.0 { r | 0x8000_0000 } else { r })
                } else {
                    out(x / y)
                }
            },
        );
    }
    // 0/0 with fltmax: FLT_MAX, not NaN (L7791's pseudocode tests the divisor only).
    check("div r4.x___, r0.x, r1.x", &[[0, 0, 0, 0]], |_| {
        Bits(0x7f7f_ffff)
    });
}

#[test]
fn rounding_and_fraction() {
    let v: Vec<u32> = F
        .iter()
        .copied()
        .chain([
            0x3fd9_999a,
            0xbfd9_999a,
            0x4020_0000,
            0xc060_0000,
            0x4b80_0001,
        ])
        .collect();
    check("flr r4.x___, r0.x", &singles(&v), |[a, ..]| {
        out(fl(a).floor())
    });
    check("round_neginf r4.x___, r0.x", &singles(&v), |[a, ..]| {
        out(fl(a).floor())
    });
    check("round_plusinf r4.x___, r0.x", &singles(&v), |[a, ..]| {
        out(fl(a).ceil())
    });
    check("round_z r4.x___, r0.x", &singles(&v), |[a, ..]| {
        out(fl(a).trunc())
    });
    check("round_nearest r4.x___, r0.x", &singles(&v), |[a, ..]| {
        out(fl(a).round_ties_even())
    });
    // RND: floor(x + 0.5) (L8851): 2.5 -> 3, -3.5 -> -3.
    check("rnd r4.x___, r0.x", &singles(&v), |[a, ..]| {
        out(f32::from_bits(flush((fl(a) + 0.5).to_bits())).floor())
    });
    // FRC: x - floor(x), always in [0, 1) (L8056): -1.7 -> 0.3.
    check("frc r4.x___, r0.x", &singles(&v), |[a, ..]| {
        let x = fl(a);
        if !x.is_finite() {
            return Nan;
        }
        let r = x - x.floor();
        out(if r >= 1.0 {
            f32::from_bits(0x3f7f_ffff)
        } else {
            r
        })
    });
}

#[test]
fn cmov_moves_where_not_zero_and_leaves_the_rest() {
    // cmov r4, r0, r1 with r4 = 0x11111111 before: moves r1 where r0 is not 0.0 (NaN moves,
    // a denormal is 0.0, L7595-L7599).
    let k = Kernel::new("il_cs_2_0\ncmov r4.x___, r0.x, r1.x\nend\n");
    let mut l = k.launch();
    l.set_r(0, 0, |lane| F[lane as usize % 16]);
    l.set_r(1, 0, |lane| 0x4000_0000 + lane);
    l.set_r(4, 0, |_| 0x1111_1111);
    let d = l.go();
    for lane in 0..LANES {
        let moves = fl(F[lane as usize % 16]) != 0.0;
        let want = if moves {
            0x4000_0000 + lane
        } else {
            0x1111_1111
        };
        assert_eq!(d.r(4, 0, lane), want, "lane {lane}");
    }
    // The mask's 1 is not written where the test is 0.0.
    let k = Kernel::new("il_cs_2_0\ncmov r4.x1__, r0.xx, r1.xx\nend\n");
    let mut l = k.launch();
    l.set_r(0, 0, |lane| if lane % 2 == 0 { 0 } else { 0x3f80_0000 });
    l.set_r(4, 1, |_| 7);
    let d = l.go();
    for lane in 0..LANES {
        let want = if lane % 2 == 0 { 7 } else { 0x3f80_0000 };
        assert_eq!(d.r(4, 1, lane), want, "lane {lane}");
    }
}

#[test]
fn cmov_logical_tests_bits() {
    check(
        "cmov_logical r4.x___, r0.x, r1.x, r2.x",
        &triples(&[0, 0x8000_0000, 1, 0x7fc0_0000]),
        |[a, b, c, _]| Bits(if a != 0 { b } else { c }),
    );
}

fn sext24(x: u32) -> i64 {
    i64::from(((x << 8) as i32) >> 8)
}

#[test]
fn integer_arithmetic_wraps() {
    let p = pairs(&I);
    check("iadd r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a.wrapping_add(b))
    });
    check("inegate r4.x___, r0.x", &p, |[a, ..]| {
        Bits(a.wrapping_neg())
    });
    check("imul r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a.wrapping_mul(b))
    });
    check("umul r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a.wrapping_mul(b))
    });
    check("imul_high r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(((i64::from(a as i32) * i64::from(b as i32)) >> 32) as u32)
    });
    check("umul_high r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(((u64::from(a) * u64::from(b)) >> 32) as u32)
    });
    let t = triples(&I[..8]);
    check("imad r4.x___, r0.x, r1.x, r2.x", &t, |[a, b, c, _]| {
        Bits(a.wrapping_mul(b).wrapping_add(c))
    });
    check("umad r4.x___, r0.x, r1.x, r2.x", &t, |[a, b, c, _]| {
        Bits(a.wrapping_mul(b).wrapping_add(c))
    });
    check("icarry r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(u32::from(u64::from(a) + u64::from(b) > 0xffff_ffff))
    });
    check("iborrow r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(u32::from(a < b))
    });
}

#[test]
fn twenty_four_bit_multiplies_ignore_bits_31_to_24() {
    let p = pairs(&I);
    check("imul24 r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits((sext24(a) * sext24(b)) as u32)
    });
    check("umul24 r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) as u32)
    });
    check("imul24_high r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(((sext24(a) * sext24(b)) >> 32) as u32)
    });
    check("umul24_high r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) >> 32) as u32)
    });
    let t = triples(&I[..8]);
    check("imad24 r4.x___, r0.x, r1.x, r2.x", &t, |[a, b, c, _]| {
        Bits(((sext24(a) * sext24(b)) as u32).wrapping_add(c))
    });
    check("umad24 r4.x___, r0.x, r1.x, r2.x", &t, |[a, b, c, _]| {
        Bits(((u64::from(a & 0xff_ffff) * u64::from(b & 0xff_ffff)) as u32).wrapping_add(c))
    });
    // 0xFFFFFF is -1 as a signed 24-bit value and 16777215 unsigned.
    check(
        "imul24 r4.x___, r0.x, r1.x",
        &[[0x00ff_ffff, 3, 0, 0]],
        |_| Bits(-3i32 as u32),
    );
    check(
        "umul24_high r4.x___, r0.x, r1.x",
        &[[0x00ff_ffff, 0x00ff_ffff, 0, 0]],
        |_| Bits(0xffff),
    );
}

#[test]
fn integer_min_max_and_compares() {
    let p = pairs(&I);
    let s = |x: u32| x as i32;
    check("imax r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(s(a).max(s(b)) as u32)
    });
    check("imin r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(s(a).min(s(b)) as u32)
    });
    check("umax r4.x___, r0.x, r1.x", &p, |[a, b, ..]| Bits(a.max(b)));
    check("umin r4.x___, r0.x, r1.x", &p, |[a, b, ..]| Bits(a.min(b)));
    check("ieq r4.x___, r0.x, r1.x", &p, |[a, b, ..]| mask(a == b));
    check("ine r4.x___, r0.x, r1.x", &p, |[a, b, ..]| mask(a != b));
    check("ige r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        mask(s(a) >= s(b))
    });
    check("ilt r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        mask(s(a) < s(b))
    });
    check("uge r4.x___, r0.x, r1.x", &p, |[a, b, ..]| mask(a >= b));
    check("ult r4.x___, r0.x, r1.x", &p, |[a, b, ..]| mask(a < b));
}

#[test]
fn shifts_use_the_low_five_bits_of_the_count() {
    let p = pairs(&I);
    check("ishl r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a << (b & 31))
    });
    check("ishr r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(((a as i32) >> (b & 31)) as u32)
    });
    check("ushr r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a >> (b & 31))
    });
    // "shifts of 33 and 1 are treated identically" (L3228).
    check("ishl r4.x___, r0.x, r1.x", &[[5, 33, 0, 0]], |_| Bits(10));
}

#[test]
fn unsigned_division_by_zero_gives_all_ones() {
    let p = pairs(&I);
    check("udiv r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a.checked_div(b).unwrap_or(u32::MAX))
    });
    check("umod r4.x___, r0.x, r1.x", &p, |[a, b, ..]| {
        Bits(a.checked_rem(b).unwrap_or(u32::MAX))
    });
}

#[test]
fn logical_operations() {
    let p = pairs(&I);
    check("iand r4.x___, r0.x, r1.x", &p, |[a, b, ..]| Bits(a & b));
    check("ior r4.x___, r0.x, r1.x", &p, |[a, b, ..]| Bits(a | b));
    check("ixor r4.x___, r0.x, r1.x", &p, |[a, b, ..]| Bits(a ^ b));
    check("inot r4.x___, r0.x", &p, |[a, ..]| Bits(!a));
}

/// IBIT_EXTRACT/UBIT_EXTRACT's pseudocode (L7165-L7190): width and offset are the low five
/// bits of src0 and src1.
fn bit_extract(w: u32, o: u32, x: u32, signed: bool) -> u32 {
    let (w, o) = (w & 31, o & 31);
    if w == 0 {
        return 0;
    }
    if w + o < 32 {
        let up = x << (32 - (w + o));
        if signed {
            ((up as i32) >> (32 - w)) as u32
        } else {
            up >> (32 - w)
        }
    } else if signed {
        ((x as i32) >> o) as u32
    } else {
        x >> o
    }
}

#[test]
fn bit_operations() {
    let fields = [0, 1, 4, 8, 24, 31, 32, 33];
    let t: Vec<[u32; 4]> = fields
        .iter()
        .flat_map(|&w| {
            fields
                .iter()
                .map(move |&o| [w, o, 0xf0e1_d2c3, 0x1234_5678])
        })
        .collect();
    check(
        "ibit_extract r4.x___, r0.x, r1.x, r2.x",
        &t,
        |[w, o, x, _]| Bits(bit_extract(w, o, x, true)),
    );
    check(
        "ubit_extract r4.x___, r0.x, r1.x, r2.x",
        &t,
        |[w, o, x, _]| Bits(bit_extract(w, o, x, false)),
    );
    check(
        "ubit_insert r4.x___, r0.x, r1.x, r2.x, r3.x",
        &t,
        |[w, o, x, y]| {
            let (w, o) = (w & 31, o & 31);
            let mask = (((1u64 << w) - 1) << o) as u32;
            Bits((x << o) & mask | (y & !mask))
        },
    );
    let s = singles(&I);
    check("icbits r4.x___, r0.x", &s, |[a, ..]| Bits(a.count_ones()));
    check("ubit_reverse r4.x___, r0.x", &s, |[a, ..]| {
        Bits(a.reverse_bits())
    });
    // L7285's example.
    check(
        "ubit_reverse r4.x___, r0.x",
        &[[0x1234_5678, 0, 0, 0]],
        |_| Bits(0x1e6a_2c48),
    );
    let none = |c: bool, v: u32| Bits(if c { v } else { u32::MAX });
    check("ffb(lo) r4.x___, r0.x", &s, |[a, ..]| {
        none(a != 0, a.trailing_zeros())
    });
    check("ffb(hi) r4.x___, r0.x", &s, |[a, ..]| {
        none(a != 0, a.leading_zeros())
    });
    check("ffb(shi) r4.x___, r0.x", &s, |[a, ..]| {
        let d = if (a as i32) < 0 { !a } else { a };
        none(d != 0, d.leading_zeros())
    });
    // "ffb lo on 0x00000001 gives the result 0" (L7228).
    check("ffb(lo) r4.x___, r0.x", &[[1, 0, 0, 0]], |_| Bits(0));
}

#[test]
fn conversions() {
    let f: Vec<u32> = F
        .iter()
        .copied()
        .chain([
            0x4f00_0000,
            0xcf00_0001,
            0x4f80_0000,
            0xbfd9_999a,
            0x4effffff,
        ])
        .collect();
    // Toward zero; outside the range the seed leaves undefined: saturated, NaN to 0 (Rust's
    // `as` does exactly that).
    check("ftoi r4.x___, r0.x", &singles(&f), |[a, ..]| {
        Bits(fl(a) as i32 as u32)
    });
    check("ftou r4.x___, r0.x", &singles(&f), |[a, ..]| {
        Bits(fl(a) as u32)
    });
    // Nearest even.
    let i: Vec<u32> = I
        .iter()
        .copied()
        .chain([0x0100_0001, 0x7fff_ffc0, 0xffff_ff81])
        .collect();
    check("itof r4.x___, r0.x", &singles(&i), |[a, ..]| {
        Bits((a as i32 as f32).to_bits())
    });
    check("utof r4.x___, r0.x", &singles(&i), |[a, ..]| {
        Bits((a as f32).to_bits())
    });
    // 16777217 rounds to 16777216 (nearest even), not up.
    check("utof r4.x___, r0.x", &[[0x0100_0001, 0, 0, 0]], |_| {
        Bits(0x4b80_0000)
    });
}

#[test]
fn abs_clears_the_sign_bit() {
    check("abs r4.x___, r0.x", &singles(&F), |[a, ..]| {
        if is_nan(a) {
            Nan
        } else {
            Bits(a & 0x7fff_ffff)
        }
    });
}
