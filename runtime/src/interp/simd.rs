//! Whole-wave vector forms of the pure ops whose vector form IS their definition.
//!
//! Only ops that are exact for every input qualify: wrapping integer add/sub (the sum modulo
//! 2^bits), bitwise and/or/xor/not, shifts with the amount taken modulo the width (IR rule),
//! and bitwise select. Values are canonical (zero-extended to 64 bits), so each op works on
//! `u64x4` and masks the result back to the type's width. Float ops are never done here:
//! [`wavejit_ir::semantics::eval`] defines them (NaN payloads, denormal modes).

use crate::wave::Lanes;
use wavejit_ir::{Op, ScalarType};
use wide::u64x4;

/// Computes `op` over lanes `0..ws` into `out` if it has a vector form; `false` otherwise.
pub(super) fn run(
    op: Op,
    ty: ScalarType,
    args: &[&Lanes; 4],
    uniform: &[bool; 4],
    n: usize,
    out: &mut Lanes,
    ws: usize,
) -> bool {
    let m = u64x4::splat(ty.bit_mask());
    let sh = u64x4::splat(ty.bits().saturating_sub(1) as u64);
    let a = |k: usize, c: usize| chunk(args[k], uniform[k], c);
    let f: &dyn Fn(usize) -> u64x4 = match (op, n) {
        (Op::Iadd, 2) => &|c| (a(0, c) + a(1, c)) & m,
        (Op::Isub, 2) => &|c| (a(0, c) - a(1, c)) & m,
        (Op::And, 2) => &|c| a(0, c) & a(1, c),
        (Op::Or, 2) => &|c| a(0, c) | a(1, c),
        (Op::Xor, 2) => &|c| a(0, c) ^ a(1, c),
        (Op::Not, 1) => &|c| a(0, c) ^ m,
        (Op::Shl, 2) => &|c| a(0, c).unbounded_shl(a(1, c) & sh) & m,
        (Op::Lshr, 2) => &|c| a(0, c).unbounded_shr(a(1, c) & sh),
        // The i1 condition becomes all-ones or all-zeros.
        (Op::Select, 3) => {
            &|c| (u64x4::splat(0) - (a(0, c) & u64x4::splat(1))).bitselect(a(1, c), a(2, c))
        }
        _ => return false,
    };
    for c in 0..ws / 4 {
        out.0[4 * c..4 * c + 4].copy_from_slice(f(c).as_array());
    }
    true
}

#[inline]
fn chunk(v: &Lanes, uniform: bool, c: usize) -> u64x4 {
    if uniform {
        u64x4::splat(v.0[0])
    } else {
        let s = &v.0[4 * c..4 * c + 4];
        u64x4::new([s[0], s[1], s[2], s[3]])
    }
}
