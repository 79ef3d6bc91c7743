//! Integer semantics against Rust's native integer operations (wrapping, saturating, checked),
//! plus the IR's own definitions: RISC-V division by zero, shift amounts modulo the width,
//! clz/ctz of zero, carries, GCN bit fields, and width changes.

use wavejit_ir::semantics::eval;
use wavejit_ir::{FloatMode, IntCC, Op, ScalarType, ScalarType::*};

const IEEE: FloatMode = FloatMode::IEEE;

fn e(op: Op, ty: ScalarType, args: &[u64]) -> u64 {
    eval(op, IEEE, ty, &vec![ty; op.arity()], args)
}

fn lcg(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = s ^ (s >> 31);
            // A third of the values near the edges of every width.
            match r % 6 {
                0 => r % 3,
                1 => u64::MAX - r % 3,
                _ => r,
            }
        })
        .collect()
}

macro_rules! check_width {
    ($name:ident, $ty:expr, $u:ty, $i:ty) => {
        #[test]
        fn $name() {
            let ty = $ty;
            let vals = lcg(ty.bits() as u64, 600);
            for w in vals.chunks(2) {
                let (a, b) = (w[0] as $u, w[1] as $u);
                let (sa, sb) = (a as $i, b as $i);
                let r = |op: Op| {
                    e(
                        op,
                        ty,
                        &[a as u64 & ty.bit_mask(), b as u64 & ty.bit_mask()],
                    ) as $u
                };
                assert_eq!(r(Op::Iadd), a.wrapping_add(b));
                assert_eq!(r(Op::Isub), a.wrapping_sub(b));
                assert_eq!(r(Op::Imul), a.wrapping_mul(b));
                assert_eq!(r(Op::Udiv), a.checked_div(b).unwrap_or(<$u>::MAX));
                assert_eq!(r(Op::Urem), a.checked_rem(b).unwrap_or(a));
                let sdiv = if sb == 0 { -1 } else { sa.wrapping_div(sb) };
                let srem = if sb == 0 { sa } else { sa.wrapping_rem(sb) };
                assert_eq!(r(Op::Sdiv) as $i, sdiv);
                assert_eq!(r(Op::Srem) as $i, srem);
                assert_eq!(r(Op::UaddSat), a.saturating_add(b));
                assert_eq!(r(Op::UsubSat), a.saturating_sub(b));
                assert_eq!(r(Op::SaddSat) as $i, sa.saturating_add(sb));
                assert_eq!(r(Op::SsubSat) as $i, sa.saturating_sub(sb));
                assert_eq!(r(Op::Umin), a.min(b));
                assert_eq!(r(Op::Umax), a.max(b));
                assert_eq!(r(Op::Smin) as $i, sa.min(sb));
                assert_eq!(r(Op::Smax) as $i, sa.max(sb));
                assert_eq!(r(Op::And), a & b);
                assert_eq!(r(Op::Or), a | b);
                assert_eq!(r(Op::Xor), a ^ b);
                assert_eq!(r(Op::Shl), a.wrapping_shl(b as u32));
                assert_eq!(r(Op::Lshr), a.wrapping_shr(b as u32));
                assert_eq!(r(Op::Ashr) as $i, sa.wrapping_shr(b as u32));
                let wide = (a as u128) * (b as u128);
                assert_eq!(r(Op::UmulHi), (wide >> <$u>::BITS) as $u);
                let swide = (sa as i128) * (sb as i128);
                assert_eq!(r(Op::SmulHi) as $i, (swide >> <$u>::BITS) as $i);
                let u1 = |op: Op| e(op, ty, &[a as u64 & ty.bit_mask()]) as $u;
                assert_eq!(u1(Op::Not), !a);
                assert_eq!(u1(Op::Iabs) as $i, sa.wrapping_abs());
                assert_eq!(u1(Op::Popcnt), a.count_ones() as $u);
                assert_eq!(u1(Op::Clz), a.leading_zeros() as $u);
                assert_eq!(u1(Op::Ctz), a.trailing_zeros() as $u);
                assert_eq!(u1(Op::Bitrev), a.reverse_bits());
                let c = w[0] >> 63;
                let cmask = ty.bit_mask();
                let carry = eval(
                    Op::AddCarryOut,
                    IEEE,
                    I1,
                    &[ty, ty, I1],
                    &[a as u64 & cmask, b as u64 & cmask, c],
                );
                let (s1, o1) = a.overflowing_add(b);
                let (_, o2) = s1.overflowing_add(c as $u);
                assert_eq!(carry, (o1 || o2) as u64);
                let borrow = eval(
                    Op::SubBorrowOut,
                    IEEE,
                    I1,
                    &[ty, ty, I1],
                    &[a as u64 & cmask, b as u64 & cmask, c],
                );
                assert_eq!(borrow, ((a as u128) < (b as u128) + c as u128) as u64);
                for (cc, want) in [
                    (IntCC::Eq, a == b),
                    (IntCC::Ne, a != b),
                    (IntCC::Ult, a < b),
                    (IntCC::Ule, a <= b),
                    (IntCC::Ugt, a > b),
                    (IntCC::Uge, a >= b),
                    (IntCC::Slt, sa < sb),
                    (IntCC::Sle, sa <= sb),
                    (IntCC::Sgt, sa > sb),
                    (IntCC::Sge, sa >= sb),
                ] {
                    let got = eval(
                        Op::Icmp(cc),
                        IEEE,
                        I1,
                        &[ty, ty],
                        &[a as u64 & cmask, b as u64 & cmask],
                    );
                    assert_eq!(got, want as u64, "{cc:?}");
                }
            }
        }
    };
}

check_width!(i8_ops_match_native, I8, u8, i8);
check_width!(i16_ops_match_native, I16, u16, i16);
check_width!(i32_ops_match_native, I32, u32, i32);
check_width!(i64_ops_match_native, I64, u64, i64);

#[test]
fn division_edge_cases() {
    assert_eq!(e(Op::Udiv, I32, &[7, 0]), 0xffff_ffff);
    assert_eq!(e(Op::Urem, I32, &[7, 0]), 7);
    assert_eq!(e(Op::Sdiv, I32, &[7, 0]), 0xffff_ffff);
    assert_eq!(e(Op::Sdiv, I32, &[(-7i32) as u32 as u64, 0]), 0xffff_ffff);
    assert_eq!(
        e(Op::Srem, I32, &[(-7i32) as u32 as u64, 0]),
        (-7i32) as u32 as u64
    );
    assert_eq!(e(Op::Sdiv, I32, &[0x8000_0000, 0xffff_ffff]), 0x8000_0000);
    assert_eq!(e(Op::Srem, I32, &[0x8000_0000, 0xffff_ffff]), 0);
    assert_eq!(e(Op::Sdiv, I64, &[1 << 63, u64::MAX]), 1 << 63);
    assert_eq!(e(Op::Srem, I64, &[1 << 63, u64::MAX]), 0);
    assert_eq!(e(Op::Sdiv, I8, &[0x80, 0xff]), 0x80);
    assert_eq!(
        e(Op::Sdiv, I16, &[(-7i16) as u16 as u64, 2]),
        (-3i16) as u16 as u64
    );
}

#[test]
fn shifts_take_the_amount_modulo_the_width() {
    assert_eq!(e(Op::Shl, I32, &[1, 33]), 2);
    assert_eq!(e(Op::Lshr, I8, &[0x80, 9]), 0x40);
    assert_eq!(e(Op::Ashr, I16, &[0x8000, 31]), 0xffff);
    // The amount may have another type.
    assert_eq!(eval(Op::Shl, IEEE, I64, &[I64, I32], &[1, 65]), 2);
    assert_eq!(
        eval(Op::Lshr, IEEE, I8, &[I8, I64], &[0xf0, 0x1_0000_0004]),
        0x0f
    );
}

#[test]
fn counts_of_zero_are_the_width() {
    for ty in [I8, I16, I32, I64] {
        assert_eq!(e(Op::Clz, ty, &[0]), u64::from(ty.bits()));
        assert_eq!(e(Op::Ctz, ty, &[0]), u64::from(ty.bits()));
        assert_eq!(e(Op::Popcnt, ty, &[ty.bit_mask()]), u64::from(ty.bits()));
    }
    assert_eq!(e(Op::Clz, I32, &[1]), 31);
    assert_eq!(e(Op::Bitrev, I16, &[1]), 0x8000);
}

#[test]
fn bit_fields_follow_gcn() {
    let bfe = |signed: bool, ty, x: u64, off: u64, w: u64| {
        eval(
            if signed { Op::Sbfe } else { Op::Ubfe },
            IEEE,
            ty,
            &[ty, I32, I32],
            &[x, off, w],
        )
    };
    assert_eq!(bfe(false, I32, 0x1234_5678, 8, 8), 0x56);
    assert_eq!(bfe(true, I32, 0x0000_f000, 12, 4), 0xffff_ffff);
    assert_eq!(bfe(true, I32, 0x0000_7000, 12, 4), 7);
    assert_eq!(bfe(false, I32, 0x1234_5678, 8, 0), 0);
    assert_eq!(bfe(true, I32, 0xffff_ffff, 8, 32), 0); // width 32 is width 0
                                                       // offset + width reaching the top: x >> offset.
    assert_eq!(bfe(false, I32, 0x8000_0000, 28, 8), 0x8);
    assert_eq!(bfe(true, I32, 0x8000_0000, 28, 8), 0xffff_fff8);
    assert_eq!(bfe(false, I32, 0x1234_5678, 40, 8), 0x56); // offset modulo 32
    assert_eq!(bfe(false, I64, 0x1234_5678_9abc_def0, 36, 12), 0x567);
    assert_eq!(
        bfe(true, I64, 0x8000_0000_0000_0000, 60, 8),
        0xffff_ffff_ffff_fff8
    );
    assert_eq!(
        e(Op::Bfi, I32, &[0x0000_ff00, 0x1234_5678, 0xaaaa_aaaa]),
        0xaaaa_56aa
    );
    assert_eq!(e(Op::Bfm, I32, &[8, 4]), 0xff0);
    assert_eq!(e(Op::Bfm, I32, &[0, 4]), 0);
    assert_eq!(e(Op::Bfm, I32, &[40, 36]), 0xff0);
    assert_eq!(e(Op::Bfm, I32, &[31, 1]), 0xffff_fffe);
    assert_eq!(
        e(Op::BitAlign, I32, &[0x1122_3344, 0x5566_7788, 8]),
        0x4455_6677
    );
    assert_eq!(
        e(Op::BitAlign, I32, &[0x1122_3344, 0x5566_7788, 32]),
        0x5566_7788
    );
    assert_eq!(
        e(Op::ByteAlign, I32, &[0x1122_3344, 0x5566_7788, 1]),
        0x4455_6677
    );
    assert_eq!(
        e(Op::ByteAlign, I32, &[0x1122_3344, 0x5566_7788, 7]),
        0x2233_4455
    );
}

#[test]
fn selects_and_width_changes() {
    assert_eq!(eval(Op::Select, IEEE, I32, &[I1, I32, I32], &[1, 5, 6]), 5);
    assert_eq!(eval(Op::Select, IEEE, F64, &[I1, F64, F64], &[0, 5, 6]), 6);
    assert_eq!(eval(Op::Zext, IEEE, I64, &[I8], &[0xff]), 0xff);
    assert_eq!(eval(Op::Sext, IEEE, I64, &[I8], &[0xff]), u64::MAX);
    assert_eq!(eval(Op::Sext, IEEE, I32, &[I1], &[1]), 0xffff_ffff);
    assert_eq!(eval(Op::Zext, IEEE, I16, &[I1], &[1]), 1);
    assert_eq!(eval(Op::Trunc, IEEE, I8, &[I32], &[0x1234]), 0x34);
    assert_eq!(eval(Op::Trunc, IEEE, I1, &[I32], &[2]), 0);
    assert_eq!(
        eval(Op::Bitcast, IEEE, F32, &[I32], &[0x3f80_0000]),
        0x3f80_0000
    );
    assert_eq!(
        eval(
            Op::Concat,
            IEEE,
            I64,
            &[I32, I32],
            &[0x1111_2222, 0x3333_4444]
        ),
        0x3333_4444_1111_2222
    );
    assert_eq!(
        eval(Op::Concat, IEEE, I16, &[I8, I8], &[0x01, 0x80]),
        0x8001
    );
    // i1 logic.
    assert_eq!(e(Op::And, I1, &[1, 1]), 1);
    assert_eq!(e(Op::Xor, I1, &[1, 1]), 0);
    assert_eq!(e(Op::Not, I1, &[1]), 0);
    assert_eq!(e(Op::Or, I1, &[0, 1]), 1);
    assert_eq!(eval(Op::Icmp(IntCC::Slt), IEEE, I1, &[I1, I1], &[1, 0]), 1); // -1 < 0
    assert_eq!(e(Op::Umed3, I32, &[5, 0xffff_ffff, 7]), 7);
    assert_eq!(e(Op::Smed3, I32, &[5, 0xffff_ffff, 7]), 5);
    assert_eq!(e(Op::Smed3, I8, &[0x80, 0x7f, 0]), 0);
    assert_eq!(e(Op::Umed3, I64, &[3, 1, 2]), 2);
}
