//! Integer ops on `bits`-wide values carried zero-extended in a `u64`.
//!
//! - Arithmetic wraps. Division by zero and overflow follow RISC-V (no trap, a defined value):
//!   `udiv x/0 = all ones`, `urem x%0 = x`, `sdiv x/0 = -1`, `srem x%0 = x`,
//!   `sdiv MIN/-1 = MIN`, `srem MIN%-1 = 0`. (GCN and TeraScale have no integer divide;
//!   compilers expand it, so the IR's choice only has to be total and fixed.)
//! - Shift amounts are taken modulo the width (GCN uses the low 5/6 bits).
//! - `clz`/`ctz` of 0 give the width (GCN `v_ffbh_u32` gives -1 instead: lifters adjust).
//! - Bit-field extract follows GCN `v_bfe_{u,i}32` (seed 002, with the missing `else`):
//!   offset and width modulo the width; width 0 gives 0; if offset + width reaches the top,
//!   the result is `x >> offset` (logical or arithmetic).

use crate::op::{IntCC, Op};

/// All-ones of `bits` (1..=64).
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// `x` sign-extended from `bits` to i64.
pub fn sext(x: u64, bits: u32) -> i64 {
    let s = 64 - bits;
    ((x << s) as i64) >> s
}

/// `a op b` on `bits`-wide operands (for shifts, `b` is the amount, of any width); `None` for
/// an op that is not a two-operand integer op.
pub fn binary(op: Op, bits: u32, a: u64, b: u64) -> Option<u64> {
    let m = mask(bits);
    let (a, bm) = (a & m, b & m);
    let (sa, sb) = (sext(a, bits), sext(bm, bits));
    let smin = -(1i128 << (bits - 1));
    let smax = (1i128 << (bits - 1)) - 1;
    let r = match op {
        Op::Iadd => a.wrapping_add(bm),
        Op::Isub => a.wrapping_sub(bm),
        Op::Imul => a.wrapping_mul(bm),
        Op::UmulHi => ((u128::from(a) * u128::from(bm)) >> bits) as u64,
        Op::SmulHi => ((i128::from(sa) * i128::from(sb)) >> bits) as u64,
        Op::Udiv => a.checked_div(bm).unwrap_or(m),
        Op::Urem => a.checked_rem(bm).unwrap_or(a),
        Op::Sdiv => match (sa, sb) {
            (_, 0) => m,
            _ if i128::from(sa) == smin && sb == -1 => a,
            _ => (sa / sb) as u64,
        },
        Op::Srem => match (sa, sb) {
            (_, 0) => a,
            _ if i128::from(sa) == smin && sb == -1 => 0,
            _ => (sa % sb) as u64,
        },
        Op::UaddSat => (u128::from(a) + u128::from(bm)).min(u128::from(m)) as u64,
        Op::UsubSat => a.saturating_sub(bm),
        Op::SaddSat => (i128::from(sa) + i128::from(sb)).clamp(smin, smax) as u64,
        Op::SsubSat => (i128::from(sa) - i128::from(sb)).clamp(smin, smax) as u64,
        Op::Umin => a.min(bm),
        Op::Umax => a.max(bm),
        Op::Smin => sa.min(sb) as u64,
        Op::Smax => sa.max(sb) as u64,
        Op::And => a & bm,
        Op::Or => a | bm,
        Op::Xor => a ^ bm,
        Op::Shl => a << (b % u64::from(bits)),
        Op::Lshr => a >> (b % u64::from(bits)),
        Op::Ashr => (sa >> (b % u64::from(bits))) as u64,
        _ => return None,
    };
    Some(r & m)
}

/// `op a` on a `bits`-wide operand; `None` for an op that is not a one-operand integer op.
pub fn unary(op: Op, bits: u32, a: u64) -> Option<u64> {
    let m = mask(bits);
    let a = a & m;
    let r = match op {
        Op::Not => !a,
        Op::Iabs => sext(a, bits).unsigned_abs(),
        Op::Popcnt => u64::from(a.count_ones()),
        Op::Clz => u64::from(a.leading_zeros() - (64 - bits)),
        Op::Ctz => u64::from(a.trailing_zeros().min(bits)),
        Op::Bitrev => a.reverse_bits() >> (64 - bits),
        _ => return None,
    };
    Some(r & m)
}

/// Integer comparison.
pub fn compare(cc: IntCC, bits: u32, a: u64, b: u64) -> bool {
    let (a, b) = (a & mask(bits), b & mask(bits));
    let (sa, sb) = (sext(a, bits), sext(b, bits));
    match cc {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
        IntCC::Slt => sa < sb,
        IntCC::Sle => sa <= sb,
        IntCC::Sgt => sa > sb,
        IntCC::Sge => sa >= sb,
    }
}

/// Carry out of `a + b + cin` (`sub`: borrow out of `a - b - cin`, unsigned).
pub fn carry(sub: bool, bits: u32, a: u64, b: u64, cin: u64) -> bool {
    let m = mask(bits);
    let (a, b, c) = (u128::from(a & m), u128::from(b & m), u128::from(cin & 1));
    if sub {
        a < b + c
    } else {
        a + b + c > u128::from(m)
    }
}

/// Median of three, unsigned or signed.
pub fn med3(signed: bool, bits: u32, a: u64, b: u64, c: u64) -> u64 {
    let m = mask(bits);
    let key = |x: u64| {
        if signed {
            i128::from(sext(x & m, bits))
        } else {
            i128::from(x & m)
        }
    };
    let mut v = [a & m, b & m, c & m];
    v.sort_by_key(|&x| key(x));
    v[1]
}

/// GCN bit-field extract of `x` (`bits` = 32 or 64).
pub fn bfe(signed: bool, bits: u32, x: u64, offset: u64, width: u64) -> u64 {
    let m = mask(bits);
    let x = x & m;
    let off = (offset % u64::from(bits)) as u32;
    let w = (width % u64::from(bits)) as u32;
    if w == 0 {
        return 0;
    }
    let r = if off + w < bits {
        let up = x << (bits - off - w) & m;
        if signed {
            (sext(up, bits) >> (bits - w)) as u64
        } else {
            up >> (bits - w)
        }
    } else if signed {
        (sext(x, bits) >> off) as u64
    } else {
        x >> off
    };
    r & m
}

/// `((1 << (width & 31)) - 1) << (offset & 31)`, 32 bits.
pub fn bfm(width: u64, offset: u64) -> u64 {
    ((1u64 << (width & 31)) - 1) << (offset & 31) & 0xffff_ffff
}

/// Low 32 bits of `{hi, lo} >> shift`.
pub fn align(hi: u64, lo: u64, shift: u32) -> u64 {
    (((hi & 0xffff_ffff) << 32 | (lo & 0xffff_ffff)) >> shift) & 0xffff_ffff
}
