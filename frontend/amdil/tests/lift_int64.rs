//! The 64-bit integer instructions on both engines, one lane per case of an edge-value table,
//! against host `u64`/`i64` arithmetic and the rules seed 001 states (the line is at each
//! reference): wrapping arithmetic, broadcast compare masks, the low 6 bits of a shift amount,
//! and the division-by-zero rules the lifter documents.

mod lift_common;
mod pair_common;
use lift_common::*;
use pair_common::*;

/// Edge values: 0, 1, 2, -1, INT64_MIN, INT64_MAX, the 32-bit boundaries (carries and borrows
/// across the dwords), a pattern, and small negatives.
const V: [u64; 16] = [
    0,
    1,
    2,
    u64::MAX,
    0x8000_0000_0000_0000,
    0x7fff_ffff_ffff_ffff,
    0x0000_0000_ffff_ffff,
    0x0000_0001_0000_0000,
    0x0000_0000_8000_0000,
    0xffff_ffff_0000_0000,
    0xffff_ffff_8000_0000,
    0x1234_5678_9abc_def0,
    0xfedc_ba98_7654_3211,
    0xffff_ffff_ffff_fffd,
    0x0000_0000_0000_0007,
    0x8000_0000_0000_0001,
];

/// Shift amounts: in range, 31 to 33 around the dword boundary, 63 to 65, and large values
/// whose low 6 bits count (L3230).
const SHIFTS: [u64; 10] = [0, 1, 31, 32, 33, 63, 64, 65, 127, 0xffff_ffff];

/// Runs `line` (sources r0.xy, r1.xy; result r4.xy) and checks r4.xy and r4.zw unwritten.
fn check(line: &str, cases: &[[u64; 2]], reference: impl Fn(u64, u64) -> u64) {
    run_cases(line, cases, |&[a, b], r4| {
        let want = reference(a, b);
        assert_eq!(
            [r4[0], r4[1], r4[2], r4[3]],
            [lo(want), hi(want), SENTINEL, SENTINEL],
            "{line}: operands {a:#018x} {b:#018x}"
        );
    });
}

fn mask(c: bool) -> u32 {
    if c {
        u32::MAX
    } else {
        0
    }
}

#[test]
fn add_sub_mul_negate_wrap() {
    check(
        "i64add r4.xy__, r0.xyxy, r1.xyxy",
        &pairs(&V),
        u64::wrapping_add,
    );
    check(
        "i64sub r4.xy__, r0.xyxy, r1.xyxy",
        &pairs(&V),
        u64::wrapping_sub,
    );
    check(
        "i64mul r4.xy__, r0.xyxy, r1.xyxy",
        &pairs(&V),
        u64::wrapping_mul,
    );
    check(
        "u64mul r4.xy__, r0.xyxy, r1.xyxy",
        &pairs(&V),
        u64::wrapping_mul,
    );
    let singles: Vec<[u64; 2]> = V.iter().map(|&a| [a, 0]).collect();
    check("i64negate r4.xy__, r0.xyxy", &singles, |a, _| {
        a.wrapping_neg()
    });
}

#[test]
fn max_min_signed_and_unsigned() {
    let s = |x: u64| x as i64;
    check("i64max r4.xy__, r0.xyxy, r1.xyxy", &pairs(&V), |a, b| {
        s(a).max(s(b)) as u64
    });
    check("i64min r4.xy__, r0.xyxy, r1.xyxy", &pairs(&V), |a, b| {
        s(a).min(s(b)) as u64
    });
    check("u64max r4.xy__, r0.xyxy, r1.xyxy", &pairs(&V), u64::max);
    check("u64min r4.xy__, r0.xyxy, r1.xyxy", &pairs(&V), u64::min);
}

#[test]
fn compares_broadcast_one_mask() {
    type Relation = fn(u64, u64) -> bool;
    let all: [(&str, Relation); 6] = [
        ("i64eq", |a, b| a == b),
        ("i64ne", |a, b| a != b),
        ("i64ge", |a, b| a as i64 >= b as i64),
        ("i64lt", |a, b| (a as i64) < b as i64),
        ("u64ge", |a, b| a >= b),
        ("u64lt", |a, b| a < b),
    ];
    for (name, f) in all {
        let line = format!("{name} r4, r0.xyxy, r1.xyxy");
        run_cases(&line, &pairs(&V), |&[a, b], r4| {
            assert_eq!(r4, [mask(f(a, b)); 4], "{line}: {a:#x} {b:#x}");
        });
    }
    // The 0 and 1 components of a mask are written as well (L519).
    run_cases(
        "i64lt r4.x_10, r0.xyxy, r1.xyxy",
        &[[u64::MAX, 0]],
        |_, r4| {
            assert_eq!(r4, [u32::MAX, SENTINEL, 0x3f80_0000, 0]);
        },
    );
    // Signed and unsigned order differ across the sign bit.
    run_cases(
        "i64lt r4, r0.xyxy, r1.xyxy",
        &[[0x8000_0000_0000_0000, 1]],
        |_, r4| {
            assert_eq!(r4, [u32::MAX; 4]);
        },
    );
    run_cases(
        "u64lt r4, r0.xyxy, r1.xyxy",
        &[[0x8000_0000_0000_0000, 1]],
        |_, r4| {
            assert_eq!(r4, [0; 4]);
        },
    );
}

#[test]
fn shifts_take_the_low_6_bits_of_src1_x() {
    let cases: Vec<[u64; 2]> = V
        .iter()
        .flat_map(|&x| SHIFTS.iter().map(move |&n| [x, n]))
        .collect();
    let n6 = |n: u64| n as u32 & 63;
    check("i64shl r4.xy__, r0.xyxy, r1.x", &cases, |a, n| a << n6(n));
    check("i64shr r4.xy__, r0.xyxy, r1.x", &cases, |a, n| {
        ((a as i64) >> n6(n)) as u64
    });
    check("u64shr r4.xy__, r0.xyxy, r1.x", &cases, |a, n| a >> n6(n));
    // The amount is src1.x after the swizzle: r1.y here, and it may be negated (32 bits).
    run_cases(
        "u64shr r4.xy__, r0.xyxy, r1.y",
        &[[u64::MAX, 4 << 32]],
        |_, r4| {
            assert_eq!([r4[0], r4[1]], [u32::MAX, 0x0fff_ffff]);
        },
    );
    run_cases(
        "i64shl r4.xy__, r0.xyxy, r1.x_neg(x)",
        &[[1, 0xffff_ffe0]],
        |_, r4| {
            assert_eq!([r4[0], r4[1]], [0, 1]);
        },
    );
}

/// Quotient or remainder with the documented zero rules: all ones for the unsigned forms, the
/// IR's for the signed ones (-1 and the dividend; INT64_MIN / -1 wraps to INT64_MIN).
fn divide(a: u64, b: u64, signed: bool, rem: bool) -> u64 {
    match (signed, rem) {
        (false, _) if b == 0 => u64::MAX,
        (false, false) => a / b,
        (false, true) => a % b,
        (true, false) if b == 0 => u64::MAX,
        (true, true) if b == 0 => a,
        (true, false) => (a as i64).wrapping_div(b as i64) as u64,
        (true, true) => (a as i64).wrapping_rem(b as i64) as u64,
    }
}

#[test]
fn division_and_remainder() {
    for (name, signed, rem) in [
        ("u64div", false, false),
        ("u64mod", false, true),
        ("i64div", true, false),
        ("i64mod", true, true),
    ] {
        check(
            &format!("{name} r4.xy__, r0.xyxy, r1.xyxy"),
            &pairs(&V),
            |a, b| divide(a, b, signed, rem),
        );
    }
    // The named edges: INT64_MIN / -1 and INT64_MIN % -1; truncation toward zero.
    let min = 0x8000_0000_0000_0000;
    check(
        "i64div r4.xy__, r0.xyxy, r1.xyxy",
        &[[min, u64::MAX]],
        |_, _| min,
    );
    check(
        "i64mod r4.xy__, r0.xyxy, r1.xyxy",
        &[[min, u64::MAX]],
        |_, _| 0,
    );
    check(
        "i64div r4.xy__, r0.xyxy, r1.xyxy",
        &[[(-7i64) as u64, 2]],
        |_, _| (-3i64) as u64,
    );
    check(
        "i64mod r4.xy__, r0.xyxy, r1.xyxy",
        &[[(-7i64) as u64, 2]],
        |_, _| (-1i64) as u64,
    );
}

#[test]
fn pairs_are_read_through_the_swizzle_and_written_to_xy_or_zw() {
    let (a, b) = (0x0000_0001_ffff_ffffu64, 0x0000_0000_0000_0001u64);
    let k = Kernel::new(
        "il_cs_2_0
i64add r4.__zw, r0.xyxy, r0.zwzw
i64add r5.xy__, r0.zw, r0.yx
mov r6, r0
i64add r6.xy__, r6.xyxy, r6.zwzw
end
",
    );
    let mut l = k.launch();
    l.set_r(0, 0, |_| lo(a));
    l.set_r(0, 1, |_| hi(a));
    l.set_r(0, 2, |_| lo(b));
    l.set_r(0, 3, |_| hi(b));
    let d = l.go();
    let sum = a + b;
    // zw written, xy kept.
    assert_eq!([d.r(4, 0, 0), d.r(4, 1, 0)], [0, 0]);
    assert_eq!([d.r(4, 2, 0), d.r(4, 3, 0)], [lo(sum), hi(sum)]);
    // .zw repeats w: (z, w); .yx is (y, x), a swapped pair.
    let swapped = pair(hi(a), lo(a));
    assert_eq!(pair(d.r(5, 0, 0), d.r(5, 1, 0)), b.wrapping_add(swapped));
    // A destination that is also a source: every source is read first.
    assert_eq!(pair(d.r(6, 0, 0), d.r(6, 1, 0)), sum);
    assert_eq!([d.r(6, 2, 0), d.r(6, 3, 0)], [lo(b), hi(b)]);
}

#[test]
fn refusals() {
    use wavejit_amdil::lift::LiftErrorKind::{Invalid, Unsupported};
    for (body, kind, has) in [
        ("i64add r4, r0, r1", Invalid, "dst.xy or dst.zw"),
        ("i64add r4._yz_, r0, r1", Invalid, "dst.xy or dst.zw"),
        ("i64add r4.xyzw, r0, r1", Invalid, "dst.xy or dst.zw"),
        ("i64add_x2 r4.xy__, r0, r1", Invalid, "shift_scale"),
        ("i64add_sat r4.xy__, r0, r1", Invalid, "clamp"),
        (
            "i64add r4.xy__, r0_abs, r1",
            Invalid,
            "_abs on a 64-bit integer source",
        ),
        (
            "i64add r4.xy__, r0_neg(y), r1",
            Unsupported,
            "_neg on a 64-bit integer",
        ),
        ("i64eq r4, r0_sign, r1", Invalid, "_sign"),
    ] {
        let (k, s) = refusal(body);
        assert_eq!(k, kind, "{body}: {s}");
        assert!(s.contains(has), "{body}: {s:?} lacks {has:?}");
    }
}

/// The 64-bit forms AMD's compiler emits (the URNG sample's IL, as `wavejit disasm
/// --encoding il` prints it): a 32x32 product widened, multiplied and shifted back down.
#[test]
fn the_corpus_forms() {
    let k = Kernel::new(
        "il_cs_2_0
dcl_literal l22, 0x0000BC8F, 0x00000000, 0x0000BC8F, 0x00000000
dcl_literal l23, 0x0000001F, 0x0000001F, 0x0000001F, 0x0000001F
iadd r69.xy__, r68.y000, r68.0z00
mov r69.__zw, l22
i64mul r69.xy__, r69.xyxy, r69.zwzw
mov r68._y__, l23
u64shr r69.xy__, r69.xyxy, r68.y
end
",
    );
    let mut l = k.launch();
    l.set_r(68, 1, |lane| 0x7654_3210u32.wrapping_mul(lane + 1));
    l.set_r(68, 2, |lane| lane);
    let d = l.go();
    for lane in 0..LANES {
        let x = pair(0x7654_3210u32.wrapping_mul(lane + 1), lane);
        let want = x.wrapping_mul(0xbc8f) >> 31;
        assert_eq!(
            pair(d.r(69, 0, lane), d.r(69, 1, lane)),
            want,
            "lane {lane}"
        );
    }
}
