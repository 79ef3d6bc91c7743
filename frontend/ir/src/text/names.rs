//! The spellings the printer writes and the parser reads, one table per enum, so the two can
//! never disagree.

use crate::except::Except;
use crate::func::{AtomicOp, MemSpace, MemWidth};
use crate::op::{Angle, FloatCC, IntCC, MinMax, Op, Round, Trans};
use crate::types::ScalarType;

/// Every [`Op`] variant once, with its first parameter values (the key for [`Op::name`]).
/// Kept complete by [`ordinal`] (an exhaustive match) and the test below.
#[rustfmt::skip]
pub const BASE_OPS: [Op; 104] = {
    use Op::*;
    [
        Iadd, Isub, Imul, UmulHi, SmulHi, Udiv, Urem, Sdiv, Srem, UaddSat, UsubSat, SaddSat,
        SsubSat, Umin, Umax, Smin, Smax, And, Or, Xor, Shl, Lshr, Ashr, Not, Iabs, Popcnt, Clz,
        Ctz, Bitrev, AddCarryOut, SubBorrowOut, Ubfe, Sbfe, Bfi, Bfm, BitAlign, ByteAlign,
        Icmp(IntCC::Eq), Fcmp(FloatCC::Eq), Fclass, Select, Zext, Sext, Trunc, Bitcast, Concat,
        FtoU, FtoS, UtoF, StoF, Fconvert, Fadd, Fsub, Fmul, FmulLegacy, Fdiv,
        Fmin(MinMax::Ieee), Fmax(MinMax::Ieee), Ldexp, Fcopysign, Fma, Fmad, FmadLegacy,
        Fmed3(MinMax::Ieee), Umed3, Smed3, Fneg, Fabs, Ffloor, Fceil, Ftrunc, Frint, Ffract,
        Fcanonicalize, Fclamp { dx10: false }, Fsqrt(Trans::Ieee), Frcp(Trans::Ieee),
        Frsq(Trans::Ieee), Fexp2(Trans::Ieee), Flog2(Trans::Ieee),
        Fsin(Trans::Ieee, Angle::Radians), Fcos(Trans::Ieee, Angle::Radians), FrexpMant,
        FrexpExp, DivScale, DivScaleFlag, DivFmas, DivFixup, TrigPreop, CubeId, CubeSc, CubeTc,
        CubeMa, CvtPkrtzF16, CvtPknormI16, CvtPknormU16, CvtPkU8F32, SadU8, SadHiU8, SadU16,
        SadU32, MsadU8, LerpU8, Fexcept(Except::Fadd),
    ]
};

/// The position of `op`'s variant in [`BASE_OPS`]. Exhaustive on purpose: a new `Op` variant
/// does not compile until it is numbered here (and the test then demands it in the list).
#[rustfmt::skip]
pub fn ordinal(op: Op) -> usize {
    use Op::*;
    match op {
        Iadd => 0, Isub => 1, Imul => 2, UmulHi => 3, SmulHi => 4, Udiv => 5, Urem => 6,
        Sdiv => 7, Srem => 8, UaddSat => 9, UsubSat => 10, SaddSat => 11, SsubSat => 12,
        Umin => 13, Umax => 14, Smin => 15, Smax => 16, And => 17, Or => 18, Xor => 19,
        Shl => 20, Lshr => 21, Ashr => 22, Not => 23, Iabs => 24, Popcnt => 25, Clz => 26,
        Ctz => 27, Bitrev => 28, AddCarryOut => 29, SubBorrowOut => 30, Ubfe => 31, Sbfe => 32,
        Bfi => 33, Bfm => 34, BitAlign => 35, ByteAlign => 36, Icmp(_) => 37, Fcmp(_) => 38,
        Fclass => 39, Select => 40, Zext => 41, Sext => 42, Trunc => 43, Bitcast => 44,
        Concat => 45, FtoU => 46, FtoS => 47, UtoF => 48, StoF => 49, Fconvert => 50,
        Fadd => 51, Fsub => 52, Fmul => 53, FmulLegacy => 54, Fdiv => 55, Fmin(_) => 56,
        Fmax(_) => 57, Ldexp => 58, Fcopysign => 59, Fma => 60, Fmad => 61, FmadLegacy => 62,
        Fmed3(_) => 63, Umed3 => 64, Smed3 => 65, Fneg => 66, Fabs => 67, Ffloor => 68,
        Fceil => 69, Ftrunc => 70, Frint => 71, Ffract => 72, Fcanonicalize => 73,
        Fclamp { .. } => 74, Fsqrt(_) => 75, Frcp(_) => 76, Frsq(_) => 77, Fexp2(_) => 78,
        Flog2(_) => 79, Fsin(..) => 80, Fcos(..) => 81, FrexpMant => 82, FrexpExp => 83,
        DivScale => 84, DivScaleFlag => 85, DivFmas => 86, DivFixup => 87, TrigPreop => 88,
        CubeId => 89, CubeSc => 90, CubeTc => 91, CubeMa => 92, CvtPkrtzF16 => 93,
        CvtPknormI16 => 94, CvtPknormU16 => 95, CvtPkU8F32 => 96, SadU8 => 97, SadHiU8 => 98,
        SadU16 => 99, SadU32 => 100, MsadU8 => 101, LerpU8 => 102, Fexcept(_) => 103,
    }
}

pub const INT_CCS: [(IntCC, &str); 10] = [
    (IntCC::Eq, "eq"),
    (IntCC::Ne, "ne"),
    (IntCC::Ult, "ult"),
    (IntCC::Ule, "ule"),
    (IntCC::Ugt, "ugt"),
    (IntCC::Uge, "uge"),
    (IntCC::Slt, "slt"),
    (IntCC::Sle, "sle"),
    (IntCC::Sgt, "sgt"),
    (IntCC::Sge, "sge"),
];

pub const FLOAT_CCS: [(FloatCC, &str); 15] = [
    (FloatCC::Eq, "eq"),
    (FloatCC::Ne, "ne"),
    (FloatCC::Lt, "lt"),
    (FloatCC::Le, "le"),
    (FloatCC::Gt, "gt"),
    (FloatCC::Ge, "ge"),
    (FloatCC::One, "one"),
    (FloatCC::Ord, "ord"),
    (FloatCC::Uno, "uno"),
    (FloatCC::Ueq, "ueq"),
    (FloatCC::Une, "une"),
    (FloatCC::Ult, "ult"),
    (FloatCC::Ule, "ule"),
    (FloatCC::Ugt, "ugt"),
    (FloatCC::Uge, "uge"),
];

pub const MIN_MAXES: [(MinMax, &str); 3] = [
    (MinMax::Ieee, "ieee"),
    (MinMax::NonIeee, "nonieee"),
    (MinMax::Legacy, "legacy"),
];

pub const TRANSES: [(Trans, &str); 4] = [
    (Trans::Ieee, "ieee"),
    (Trans::Clamped, "clamped"),
    (Trans::Ff, "ff"),
    (Trans::Legacy, "legacy"),
];

pub const ANGLES: [(Angle, &str); 2] = [(Angle::Radians, "radians"), (Angle::Turns, "turns")];

/// Rounding suffixes; `rne` (the default) is accepted but never printed.
pub const ROUNDS: [(Round, &str); 4] = [
    (Round::NearestEven, "rne"),
    (Round::TowardPositive, "rtp"),
    (Round::TowardNegative, "rtn"),
    (Round::TowardZero, "rtz"),
];

pub const SPACES: [(MemSpace, &str); 3] = [
    (MemSpace::Global, "global"),
    (MemSpace::Lds, "lds"),
    (MemSpace::Private, "private"),
];

pub const WIDTHS: [MemWidth; 4] = [MemWidth::B8, MemWidth::B16, MemWidth::B32, MemWidth::B64];

pub const ATOMIC_OPS: [(AtomicOp, &str); 22] = [
    (AtomicOp::Add, "add"),
    (AtomicOp::Sub, "sub"),
    (AtomicOp::Xchg, "xchg"),
    (AtomicOp::CmpXchg, "cmpxchg"),
    (AtomicOp::Umin, "umin"),
    (AtomicOp::Umax, "umax"),
    (AtomicOp::Smin, "smin"),
    (AtomicOp::Smax, "smax"),
    (AtomicOp::And, "and"),
    (AtomicOp::Or, "or"),
    (AtomicOp::Xor, "xor"),
    (AtomicOp::Inc, "inc"),
    (AtomicOp::Dec, "dec"),
    (AtomicOp::Fadd, "fadd"),
    (AtomicOp::Fmin, "fmin"),
    (AtomicOp::Fmax, "fmax"),
    (AtomicOp::Rsub, "rsub"),
    (AtomicOp::Mskor, "mskor"),
    (AtomicOp::Wrap, "wrap"),
    (AtomicOp::FcmpXchg, "fcmpxchg"),
    (AtomicOp::FcmpXchgFlushIn, "fcmpxchg_flush_in"),
    (AtomicOp::CondXchg32, "condxchg32"),
];

/// The spelling of `key` in `table` (every table above is total over its enum).
pub fn name_of<K: PartialEq + Copy>(table: &[(K, &'static str)], key: K) -> &'static str {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("?", |(_, n)| n)
}

pub fn lookup<K: Copy>(table: &[(K, &'static str)], name: &str) -> Option<K> {
    table.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
}

/// The op of a base name (`fmin`, not `fmin.ieee`), with its first parameter values.
pub fn base_op(name: &str) -> Option<Op> {
    BASE_OPS.into_iter().find(|op| op.name() == name)
}

/// Every op with every parameter value: all 104 variants, comparisons with each condition,
/// min/max with each NaN rule, transcendentals with each flavour (and angle unit), and
/// `fexcept` of each of those it covers (conversions with each result type they allow).
pub fn all_ops() -> Vec<Op> {
    let plain = plain_ops();
    let mut out = plain.clone();
    for &op in &plain {
        for t in ScalarType::ALL {
            let Some(k) = Except::of(op, t) else { continue };
            // A conversion's result type must be one some operand type converts to.
            let named_ok = k.named_type().is_none()
                || [ScalarType::I32, ScalarType::F32, ScalarType::F64]
                    .iter()
                    .any(|&a| op.check(t, &[a]).is_ok());
            if named_ok && !out.contains(&Op::Fexcept(k)) {
                out.push(Op::Fexcept(k));
            }
        }
    }
    out
}

/// [`all_ops`] without `fexcept`.
fn plain_ops() -> Vec<Op> {
    use Op::*;
    let mut out = Vec::new();
    for op in BASE_OPS {
        match op {
            Icmp(_) => out.extend(INT_CCS.iter().map(|&(cc, _)| Icmp(cc))),
            Fcmp(_) => out.extend(FLOAT_CCS.iter().map(|&(cc, _)| Fcmp(cc))),
            Fmin(_) => out.extend(MIN_MAXES.iter().map(|&(m, _)| Fmin(m))),
            Fmax(_) => out.extend(MIN_MAXES.iter().map(|&(m, _)| Fmax(m))),
            Fmed3(_) => out.extend(MIN_MAXES.iter().map(|&(m, _)| Fmed3(m))),
            Fclamp { .. } => out.extend([Fclamp { dx10: false }, Fclamp { dx10: true }]),
            Fsqrt(_) => out.extend(TRANSES.iter().map(|&(t, _)| Fsqrt(t))),
            Frcp(_) => out.extend(TRANSES.iter().map(|&(t, _)| Frcp(t))),
            Frsq(_) => out.extend(TRANSES.iter().map(|&(t, _)| Frsq(t))),
            Fexp2(_) => out.extend(TRANSES.iter().map(|&(t, _)| Fexp2(t))),
            Flog2(_) => out.extend(TRANSES.iter().map(|&(t, _)| Flog2(t))),
            Fsin(..) | Fcos(..) => {
                for &(t, _) in &TRANSES {
                    for &(a, _) in &ANGLES {
                        out.push(if matches!(op, Fsin(..)) {
                            Fsin(t, a)
                        } else {
                            Fcos(t, a)
                        });
                    }
                }
            }
            Fexcept(_) => {}
            _ => out.push(op),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_ops_are_every_variant_once_in_ordinal_order() {
        for (i, op) in BASE_OPS.into_iter().enumerate() {
            assert_eq!(ordinal(op), i, "{}", op.name());
        }
    }

    #[test]
    fn op_names_are_unique() {
        for (i, a) in BASE_OPS.into_iter().enumerate() {
            assert_eq!(base_op(a.name()).map(ordinal), Some(i), "{}", a.name());
        }
    }

    #[test]
    fn all_ops_expands_every_parameter() {
        // 103 variants besides fexcept; icmp 10 and fcmp 15 conditions; fmin/fmax/fmed3 3
        // rules each; fclamp 2; five transcendentals 4 flavours; fsin/fcos 4 flavours x 2
        // angle units.
        let plain = 103 - 13 + 10 + 15 + 3 * 3 + 2 + 5 * 4 + 2 * 8;
        // fexcept of: 8 arithmetic ops, fmin/fmax 3 rules each, fcmp 15, ldexp, 4 roundings
        // to integral, fract, canonicalize, 20 + 16 transcendentals, 2 frexp; ftou/ftos to 4
        // integer types, utof/stof to 3 float types, fconvert to 3.
        let fexcept = 8 + 6 + 15 + 1 + 4 + 2 + 20 + 16 + 2 + 2 * 4 + 2 * 3 + 3;
        let expected = plain + fexcept;
        let ops = all_ops();
        assert_eq!(ops.len(), expected);
        for (i, a) in ops.iter().enumerate() {
            assert!(!ops[..i].contains(a), "{a:?} twice");
        }
    }
}
