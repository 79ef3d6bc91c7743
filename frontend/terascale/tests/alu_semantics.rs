//! Every ALU instruction that produces a value, against the documented formula computed on the
//! host (Rust f32/f64/integer ops and bit manipulation written out here), run through the IR
//! interpreter (and the JIT, which must agree) on a 64-lane wave, over edge values (NaN payloads, signalling NaNs, ±inf, -0,
//! denormals, rounding ties, integer extremes, shift amounts >= 32) with denormals kept and
//! flushed. Transcendentals: exact special cases, and within 1 ulp of the host's f64 function
//! (RECIP_IEEE, SQRT_IEEE: correctly rounded, so exact).

mod alu_common;

use alu_common::*;
use wavejit_ir::FloatMode;
use wavejit_terascale::lift::{alu_form, AluError, AluForm};
use wavejit_terascale::AluOp;

const QNAN: u32 = 0x7fc0_0000;
const DNAN: u32 = 0xffc0_0000;

/// Edge dwords as floats and as integers.
const F32S: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x3f00_0000,
    0x3fc0_0000,
    0x4020_0000,
    0xc020_0000,
    0x0000_0001,
    0x8000_0001,
    0x007f_ffff,
    0x0080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fc1_2345,
    0x7f80_0001,
    0xffc0_0000,
    0x4040_0000,
    0x3eff_ffff,
    0x4f00_0000,
    0xcf00_0000,
    0x4f80_0000,
    0x4b80_0001,
    0xb2f0_0000,
    0x0ca0_0000,
];
const INTS: &[u32] = &[
    0,
    1,
    2,
    0xffff_ffff,
    0x7fff_ffff,
    0x8000_0000,
    31,
    32,
    33,
    0x1234_5678,
    0xff,
    0x80_0000,
    0xff_ffff,
    0x100_0000,
    0xfff0_0f0f,
    0x3f80_0000,
    7,
    24,
    0x8000_0001,
    0xdead_beef,
];
const F64S: &[u64] = &[
    0,
    0x8000_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x4008_0000_0000_0000,
    0x4021_a0f4_f077_bca7,
    0x0000_0000_0000_0001,
    0x8000_0000_0000_0001,
    0x7fef_ffff_ffff_ffff,
    0x7ff0_0000_0000_0000,
    0xfff0_0000_0000_0000,
    0x7ff8_0000_0000_0000,
    0x7ff4_0000_0000_0001,
    0xfff8_0000_0000_0000,
    0xbcb0_0000_0000_0000,
    0x3fe0_0000_0000_0000,
    0x47f0_0000_6fc6_a731,
];

// --- host float rules ----------------------------------------------------------------------

fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}
fn is_den(x: u32) -> bool {
    x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0
}
fn fin(m: FloatMode, x: u32) -> u32 {
    if m.flush_in && is_den(x) {
        x & 0x8000_0000
    } else {
        x
    }
}
fn fout(m: FloatMode, r: u32) -> u32 {
    if is_nan(r) {
        r | 0x40_0000
    } else if m.flush_out && is_den(r) {
        r & 0x8000_0000
    } else {
        r
    }
}
fn f(x: u32) -> f32 {
    f32::from_bits(x)
}
/// A correctly rounded host operation under the NaN rule (first NaN operand quieted; an
/// invalid operation gives the default NaN 0xFFC00000).
fn arith(m: FloatMode, args: &[u32], op: impl Fn(&[f32]) -> f32) -> u32 {
    let a: Vec<u32> = args.iter().map(|&x| fin(m, x)).collect();
    if let Some(&n) = a.iter().find(|&&x| is_nan(x)) {
        return n | 0x40_0000;
    }
    let r = op(&a.iter().map(|&x| f(x)).collect::<Vec<_>>());
    fout(m, if r.is_nan() { DNAN } else { r.to_bits() })
}
fn add(m: FloatMode, a: u32, b: u32) -> u32 {
    arith(m, &[a, b], |v| v[0] + v[1])
}
fn mul(m: FloatMode, a: u32, b: u32) -> u32 {
    arith(m, &[a, b], |v| v[0] * v[1])
}
/// DX9: ±0 (after input flushing) times anything is +0.
fn mul_dx9(m: FloatMode, a: u32, b: u32) -> u32 {
    if fin(m, a) & 0x7fff_ffff == 0 || fin(m, b) & 0x7fff_ffff == 0 {
        0
    } else {
        mul(m, a, b)
    }
}
fn canon(m: FloatMode, x: u32) -> u32 {
    fout(m, fin(m, x))
}
fn cmp(m: FloatMode, a: u32, b: u32) -> Option<std::cmp::Ordering> {
    f(fin(m, a)).partial_cmp(&f(fin(m, b)))
}
fn b2f(c: bool) -> u32 {
    if c {
        0x3f80_0000
    } else {
        0
    }
}
fn b2m(c: bool) -> u32 {
    if c {
        u32::MAX
    } else {
        0
    }
}
fn whole(m: FloatMode, x: u32, g: fn(f32) -> f32) -> u32 {
    let x = fin(m, x);
    if is_nan(x) {
        return x | 0x40_0000;
    }
    fout(m, g(f(x)).to_bits())
}
/// IEEE maxNum-style with -0 < +0 and NaN ignored (the D3D10 rule).
fn minmax_dx10(m: FloatMode, a: u32, b: u32, max: bool) -> u32 {
    let (a, b) = (fin(m, a), fin(m, b));
    let r = match (is_nan(a), is_nan(b)) {
        (true, true) => a,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let key = |x: u32| {
                if x >> 31 == 1 {
                    -((x & 0x7fff_ffff) as i64) - 1
                } else {
                    x as i64
                }
            };
            if (key(a) > key(b)) == max {
                a
            } else {
                b
            }
        }
    };
    fout(m, r)
}
fn f2i_sat(m: FloatMode, x: u32, whole: u32) -> u32 {
    let x = fin(m, x);
    if is_nan(x) {
        return if x >> 31 == 1 {
            0x8000_0001
        } else {
            0x7fff_ffff
        };
    }
    ((f(whole) as i32).max(-i32::MAX)) as u32
}
/// f32 to f16 bits, round to nearest even or toward zero (independent bit arithmetic).
fn f16_of(x: u32, rtz: bool) -> u32 {
    let sign = (x >> 16) & 0x8000;
    let v = f(x).abs() as f64;
    if is_nan(x) {
        return sign | 0x7e00 | ((x >> 13) & 0x3ff);
    }
    if v.is_infinite() {
        return sign | 0x7c00;
    }
    // The value in units of the smallest f16 denormal (2^-24), then rounded.
    let units = v * 2f64.powi(24);
    let mut e = 0i32;
    let mut scaled = units;
    while scaled >= 2048.0 {
        scaled /= 2.0;
        e += 1;
    }
    let r = if rtz {
        scaled.trunc()
    } else {
        scaled.round_ties_even()
    };
    let (mut r, mut e) = (r as u32, e);
    if r == 2048 {
        r = 1024;
        e += 1;
    }
    if e >= 30 || (e == 29 && r >= 2048) {
        return sign | if rtz { 0x7bff } else { 0x7c00 };
    }
    if r < 1024 {
        sign | r
    } else {
        sign | (((e + 1) as u32) << 10) | (r & 0x3ff)
    }
}
fn f16_to_f32(h: u32) -> u32 {
    let s = (h & 0x8000) << 16;
    let (e, mnt) = ((h >> 10) & 0x1f, h & 0x3ff);
    if e == 31 {
        return s | 0x7f80_0000 | (mnt << 13) | if mnt != 0 { 0x40_0000 } else { 0 };
    }
    let v = (mnt as f32 + if e == 0 { 0.0 } else { 1024.0 }) * 2f32.powi(e.max(1) as i32 - 25);
    s | v.to_bits()
}
fn sad(a: u32, b: u32) -> u32 {
    (0..4)
        .map(|i| ((a >> (8 * i)) & 0xff).abs_diff((b >> (8 * i)) & 0xff))
        .sum()
}
fn mbcnt_below(mask: u64, lane: u32) -> u32 {
    (mask & ((1u64 << lane) - 1)).count_ones()
}

// --- host doubles ----------------------------------------------------------------------------

fn d(x: u64) -> f64 {
    f64::from_bits(x)
}
fn dnan(x: u64) -> bool {
    x & 0x7fff_ffff_ffff_ffff > 0x7ff0_0000_0000_0000
}
fn din(x: u64) -> u64 {
    if x & 0x7ff0_0000_0000_0000 == 0 {
        x & 0x8000_0000_0000_0000
    } else {
        x
    }
}
fn darith(m: FloatMode, args: &[u64], op: impl Fn(&[f64]) -> f64) -> u64 {
    let a: Vec<u64> = args
        .iter()
        .map(|&x| if m.flush_in { din(x) } else { x })
        .collect();
    if let Some(&n) = a.iter().find(|&&x| dnan(x)) {
        return n | 0x8_0000_0000_0000;
    }
    let r = op(&a.iter().map(|&x| d(x)).collect::<Vec<_>>());
    let r = if r.is_nan() {
        0xfff8_0000_0000_0000
    } else {
        r.to_bits()
    };
    if m.flush_out {
        din(r)
    } else {
        r
    }
}
fn split(v: u64) -> Vec<u32> {
    vec![(v >> 32) as u32, v as u32]
}
fn dcmp(a: u64, b: u64) -> Option<std::cmp::Ordering> {
    d(din(a)).partial_cmp(&d(din(b)))
}

/// The documented result dwords of `op` on `i` (flat harness order) in lane `lane`, or `None`
/// for the transcendentals (checked by [`transcendental`]).
fn reference(op: AluOp, m: FloatMode, i: &[u32], lane: u32) -> Option<Vec<u32>> {
    use std::cmp::Ordering::*;
    use AluOp::*;
    let (x, y, z) = (
        i.first().copied().unwrap_or(0),
        i.get(1).copied().unwrap_or(0),
        i.get(2).copied().unwrap_or(0),
    );
    let dx = || (u64::from(i[0]) << 32) | u64::from(i[1]);
    let dy = || (u64::from(i[2]) << 32) | u64::from(i[3]);
    let dz = || (u64::from(i[4]) << 32) | u64::from(i[5]);
    let pred = |c: bool, v: u32| vec![v, u32::from(c)];
    let cnt = |c: bool| pred(c, if c { 0 } else { 0x3f80_0000 });
    let push = |c1: bool| {
        let c = c1 && cmp(m, x, 0) == Some(Equal);
        pred(c, if c { 0 } else { add(m, x, 0x3f80_0000) })
    };
    let sc = |v: u32| Some(vec![v]);
    let s24 = |v: u32| ((v << 8) as i32 >> 8) as i64;
    let u24 = |v: u32| u64::from(v & 0xff_ffff);
    let scale = |v: u32, k: f32| mul(m, v, k.to_bits());
    let lit = |k: f32| {
        let bad = cmp(m, y, f32::MIN.to_bits()) == Some(Equal)
            || cmp(m, y, f32::NEG_INFINITY.to_bits()) == Some(Equal)
            || is_nan(y)
            || !matches!(cmp(m, z, 0), Some(Greater));
        if bad {
            f32::MIN.to_bits()
        } else {
            scale(mul_dx9(m, x, y), k)
        }
    };
    Some(match op {
        ADD => vec![add(m, x, y)],
        MUL => vec![mul_dx9(m, x, y)],
        MUL_IEEE => vec![mul(m, x, y)],
        MAX => vec![canon(
            m,
            if cmp(m, x, y).is_some_and(|o| o != Less) {
                x
            } else {
                y
            },
        )],
        MIN => vec![canon(m, if cmp(m, x, y) == Some(Less) { x } else { y })],
        MAX_DX10 => vec![minmax_dx10(m, x, y, true)],
        MIN_DX10 => vec![minmax_dx10(m, x, y, false)],
        SETE => vec![b2f(cmp(m, x, y) == Some(Equal))],
        SETGT => vec![b2f(cmp(m, x, y) == Some(Greater))],
        SETGE => vec![b2f(matches!(cmp(m, x, y), Some(Greater | Equal)))],
        SETNE => vec![b2f(cmp(m, x, y) != Some(Equal))],
        SETE_DX10 => vec![b2m(cmp(m, x, y) == Some(Equal))],
        SETGT_DX10 => vec![b2m(cmp(m, x, y) == Some(Greater))],
        SETGE_DX10 => vec![b2m(matches!(cmp(m, x, y), Some(Greater | Equal)))],
        SETNE_DX10 => vec![b2m(cmp(m, x, y) != Some(Equal))],
        FRACT => {
            let v = fin(m, x);
            if is_nan(v) {
                vec![v | 0x40_0000]
            } else if f(v).is_infinite() {
                vec![DNAN]
            } else {
                let r = f(v) - f(v).floor();
                vec![fout(m, r.min(f(0x3f7f_ffff)).to_bits())]
            }
        }
        TRUNC => vec![whole(m, x, f32::trunc)],
        CEIL => vec![whole(m, x, f32::ceil)],
        RNDNE => vec![whole(m, x, f32::round_ties_even)],
        FLOOR => vec![whole(m, x, f32::floor)],
        ASHR_INT => vec![((x as i32) >> (y & 31)) as u32],
        LSHR_INT => vec![x >> (y & 31)],
        LSHL_INT => vec![if y > 31 { 0 } else { x << y }],
        MOV => vec![x],
        AND_INT => vec![x & y],
        OR_INT => vec![x | y],
        XOR_INT => vec![x ^ y],
        NOT_INT => vec![!x],
        ADD_INT => vec![x.wrapping_add(y)],
        SUB_INT => vec![x.wrapping_sub(y)],
        MAX_INT => vec![(x as i32).max(y as i32) as u32],
        MIN_INT => vec![(x as i32).min(y as i32) as u32],
        MAX_UINT => vec![x.max(y)],
        MIN_UINT => vec![x.min(y)],
        SETE_INT => vec![b2m(x == y)],
        SETGT_INT => vec![b2m(x as i32 > y as i32)],
        SETGE_INT => vec![b2m(x as i32 >= y as i32)],
        SETNE_INT => vec![b2m(x != y)],
        SETGT_UINT => vec![b2m(x > y)],
        SETGE_UINT => vec![b2m(x >= y)],
        ADDC_UINT => vec![u32::from(u64::from(x) + u64::from(y) > 0xffff_ffff)],
        SUBB_UINT => vec![u32::from(y > x)],
        FLT_TO_INT => vec![f(fin(m, x)) as i32 as u32],
        FLT_TO_UINT => vec![f(fin(m, x)) as u32],
        FLT_TO_INT_FLOOR => vec![f2i_sat(m, x, whole(m, x, f32::floor))],
        FLT_TO_INT_RPI => {
            let v = f(fin(m, x)) as f64;
            vec![f2i_sat(m, x, ((v + 0.5).floor() as f32).to_bits())]
        }
        BFREV_INT => vec![x.reverse_bits()],
        MUL_INT24 => vec![(s24(x) * s24(y)) as u32],
        MULHI_INT24 => vec![((s24(x) * s24(y)) >> 32) as u32],
        MUL_UINT24 => vec![(u24(x) * u24(y)) as u32],
        MULHI_UINT24 => vec![((u24(x) * u24(y)) >> 32) as u32],
        MULLO_INT | MULLO_UINT => vec![x.wrapping_mul(y)],
        MULHI_INT => vec![((x as i32 as i64 * y as i32 as i64) >> 32) as u32],
        MULHI_UINT => vec![((u64::from(x) * u64::from(y)) >> 32) as u32],
        INT_TO_FLT => vec![(x as i32 as f32).to_bits()],
        UINT_TO_FLT => vec![(x as f32).to_bits()],
        BFM_INT => vec![((1u64 << (x & 31)) as u32).wrapping_sub(1) << (y & 31)],
        FLT32_TO_FLT16 => vec![f16_of(fin(m, x), false)],
        FLT32_TO_FLT16_RTZ => vec![f16_of(fin(m, x), true)],
        FLT16_TO_FLT32 => {
            let r = f16_to_f32(x & 0xffff);
            vec![r]
        }
        UBYTE0_FLT => vec![((x & 0xff) as f32).to_bits()],
        UBYTE1_FLT => vec![((x >> 8 & 0xff) as f32).to_bits()],
        UBYTE2_FLT => vec![((x >> 16 & 0xff) as f32).to_bits()],
        UBYTE3_FLT => vec![((x >> 24) as f32).to_bits()],
        BCNT_INT => vec![x.count_ones()],
        FFBH_UINT => vec![if x == 0 { u32::MAX } else { x.leading_zeros() }],
        FFBL_INT => vec![if x == 0 { u32::MAX } else { x.trailing_zeros() }],
        FFBH_INT => {
            let v = if (x as i32) < 0 { !x } else { x };
            vec![if v == 0 { u32::MAX } else { v.leading_zeros() }]
        }
        MBCNT_32HI_INT => vec![mbcnt_below(u64::from(x) << 32, lane)],
        OFFSET_TO_FLT => vec![((((x << 28) as i32) >> 28) as f32 / 16.0).to_bits()],
        RECIP_UINT => vec![if x == 0 {
            u32::MAX
        } else {
            ((1u64 << 32) / u64::from(x)).min(0xffff_ffff) as u32
        }],
        RECIP_INT => vec![if x == 0 {
            i32::MAX as u32
        } else {
            ((1i64 << 32) / i64::from(x as i32)).clamp(i32::MIN.into(), i32::MAX.into()) as u32
        }],
        BFE_UINT | BFE_INT => {
            let (o, w) = (y & 31, z & 31);
            let r = if w == 0 {
                0
            } else if o + w < 32 {
                let up = x << (32 - o - w);
                if op == BFE_INT {
                    ((up as i32) >> (32 - w)) as u32
                } else {
                    up >> (32 - w)
                }
            } else if op == BFE_INT {
                ((x as i32) >> o) as u32
            } else {
                x >> o
            };
            vec![r]
        }
        BFI_INT => vec![(y & x) | (z & !x)],
        FMA => vec![arith(m, &[x, y, z], |v| v[0].mul_add(v[1], v[2]))],
        MULADD_INT24 => vec![((s24(x) * s24(y)) as u32).wrapping_add(z)],
        MULADD_UINT24 => vec![((u24(x) * u24(y)) as u32).wrapping_add(z)],
        LERP_UINT => vec![(0..4)
            .map(|k| {
                let s = 8 * k;
                ((((x >> s) & 0xff) + ((y >> s) & 0xff) + ((z >> s) & 1)) >> 1) << s
            })
            .sum()],
        BIT_ALIGN_INT => vec![(((u64::from(x) << 32) | u64::from(y)) >> (z & 31)) as u32],
        BYTE_ALIGN_INT => vec![(((u64::from(x) << 32) | u64::from(y)) >> (8 * (z & 3))) as u32],
        SAD_ACCUM_UINT => vec![sad(x, y).wrapping_add(z)],
        SAD_ACCUM_HI_UINT => vec![(sad(x, y) << 16).wrapping_add(z)],
        MULADD => vec![add(m, mul_dx9(m, x, y), z)],
        MULADD_M2 => vec![scale(add(m, mul_dx9(m, x, y), z), 2.0)],
        MULADD_M4 => vec![scale(add(m, mul_dx9(m, x, y), z), 4.0)],
        MULADD_D2 => vec![scale(add(m, mul_dx9(m, x, y), z), 0.5)],
        MULADD_IEEE => vec![add(m, mul(m, x, y), z)],
        MULADD_IEEE_M2 => vec![scale(add(m, mul(m, x, y), z), 2.0)],
        MULADD_IEEE_M4 => vec![scale(add(m, mul(m, x, y), z), 4.0)],
        MULADD_IEEE_D2 => vec![scale(add(m, mul(m, x, y), z), 0.5)],
        CNDE => vec![if cmp(m, x, 0) == Some(Equal) { y } else { z }],
        CNDGT => vec![if cmp(m, x, 0) == Some(Greater) { y } else { z }],
        CNDGE => vec![if matches!(cmp(m, x, 0), Some(Greater | Equal)) {
            y
        } else {
            z
        }],
        CNDE_INT => vec![if x == 0 { y } else { z }],
        CNDGT_INT => vec![if (x as i32) > 0 { y } else { z }],
        CNDGE_INT => vec![if (x as i32) >= 0 { y } else { z }],
        MUL_LIT => vec![lit(1.0)],
        MUL_LIT_M2 => vec![lit(2.0)],
        MUL_LIT_M4 => vec![lit(4.0)],
        MUL_LIT_D2 => vec![lit(0.5)],
        PRED_SETE => cnt(cmp(m, x, y) == Some(Equal)),
        PRED_SETGT => cnt(cmp(m, x, y) == Some(Greater)),
        PRED_SETGE => cnt(matches!(cmp(m, x, y), Some(Greater | Equal))),
        PRED_SETNE => cnt(cmp(m, x, y) != Some(Equal)),
        PRED_SETE_INT => cnt(x == y),
        PRED_SETGT_INT => cnt(x as i32 > y as i32),
        PRED_SETGE_INT => cnt(x as i32 >= y as i32),
        PRED_SETNE_INT => cnt(x != y),
        PRED_SETGT_UINT => cnt(x > y),
        PRED_SETGE_UINT => cnt(x >= y),
        PRED_SETE_PUSH => push(cmp(m, y, 0) == Some(Equal)),
        PRED_SETGT_PUSH => push(cmp(m, y, 0) == Some(Greater)),
        PRED_SETGE_PUSH => push(matches!(cmp(m, y, 0), Some(Greater | Equal))),
        PRED_SETNE_PUSH => push(cmp(m, y, 0) != Some(Equal)),
        PRED_SETE_PUSH_INT => push(y == 0),
        PRED_SETGT_PUSH_INT => push((y as i32) > 0),
        PRED_SETGE_PUSH_INT => push((y as i32) >= 0),
        PRED_SETNE_PUSH_INT => push(y != 0),
        PRED_SETLT_PUSH_INT => push((y as i32) < 0),
        PRED_SETLE_PUSH_INT => push((y as i32) <= 0),
        PRED_SET_INV => {
            let c = cmp(m, x, 0x3f80_0000) == Some(Equal);
            let other = if cmp(m, x, 0) == Some(Equal) {
                0x3f80_0000
            } else {
                x
            };
            pred(c, if c { 0 } else { other })
        }
        PRED_SET_POP => {
            let c = matches!(cmp(m, x, y), Some(Less | Equal));
            pred(
                c,
                if c {
                    0
                } else {
                    arith(m, &[x, y], |v| v[0] - v[1])
                },
            )
        }
        PRED_SET_CLR => pred(false, f32::MAX.to_bits()),
        PRED_SET_RESTORE => {
            let c = cmp(m, x, 0) == Some(Equal);
            pred(c, if c { 0 } else { x })
        }
        // Chained: sources, then prev.
        BCNT_ACCUM_PREV_INT => vec![x.count_ones().wrapping_add(y)],
        MBCNT_32LO_ACCUM_PREV_INT => vec![mbcnt_below(u64::from(x), lane).wrapping_add(y)],
        ADD_PREV => vec![add(m, x, y)],
        MUL_PREV => vec![mul_dx9(m, y, z)],
        MUL_IEEE_PREV => vec![mul(m, y, z)],
        MULADD_PREV | DOT => vec![add(m, mul_dx9(m, x, y), z)],
        MULADD_IEEE_PREV | DOT_IEEE => vec![add(m, mul(m, x, y), z)],
        SAD_ACCUM_PREV_UINT => vec![sad(x, y).wrapping_add(z)],
        // Wide: doubles as (hi, lo).
        ADD_64 => split(darith(m, &[dx(), dy()], |v| v[0] + v[1])),
        MUL_64 => split(darith(m, &[dx(), dy()], |v| v[0] * v[1])),
        FMA_64 => split(darith(m, &[dx(), dy(), dz()], |v| v[0].mul_add(v[1], v[2]))),
        MULADD_64 => {
            let p = darith(m, &[dx(), dy()], |v| v[0] * v[1]);
            split(darith(m, &[p, dz()], |v| v[0] + v[1]))
        }
        SETE_64 => split(if dcmp(dx(), dy()) == Some(Equal) {
            u64::MAX
        } else {
            0
        }),
        SETNE_64 => split(if dcmp(dx(), dy()) != Some(Equal) {
            u64::MAX
        } else {
            0
        }),
        SETGT_64 => split(if dcmp(dx(), dy()) == Some(Greater) {
            u64::MAX
        } else {
            0
        }),
        SETGE_64 => split(if matches!(dcmp(dx(), dy()), Some(Greater | Equal)) {
            u64::MAX
        } else {
            0
        }),
        PRED_SETE_64 | PRED_SETGT_64 | PRED_SETGE_64 => {
            let o = dcmp(dx(), dy());
            let c = match op {
                PRED_SETE_64 => o == Some(Equal),
                PRED_SETGT_64 => o == Some(Greater),
                _ => matches!(o, Some(Greater | Equal)),
            };
            pred(c, if c { 0 } else { u32::MAX })
        }
        MIN_64 | MAX_64 => {
            let (a, b) = (din(dx()), din(dy()));
            let r = if dnan(a) || dnan(b) {
                if dnan(b) {
                    b | 0x8_0000_0000_0000
                } else {
                    b
                }
            } else {
                // Ordered with -0 < +0 (L5055: min(-0, +0) = -0 in either order).
                let key = |v: u64| {
                    if v >> 63 == 1 {
                        -((v & !(1 << 63)) as i128) - 1
                    } else {
                        v as i128
                    }
                };
                if (key(a) < key(b)) == (op == MIN_64) {
                    a
                } else {
                    b
                }
            };
            split(if m.flush_out { din(r) } else { r })
        }
        CNDNE_64 => split(if dcmp(dx(), 0) != Some(Equal) {
            dy()
        } else {
            dz()
        }),
        FRACT_64 => {
            let a = din(dx());
            split(if dnan(a) {
                a | 0x8_0000_0000_0000
            } else if d(a).is_infinite() {
                0xfff8_0000_0000_0000
            } else {
                (d(a) - d(a).floor())
                    .min(1.0 - f64::EPSILON / 2.0)
                    .to_bits()
            })
        }
        FREXP_64 => {
            let a = din(dx());
            let (mant, exp) = if dnan(a) {
                (a, u32::MAX)
            } else if d(a).is_infinite() {
                (0xfff8_0000_0000_0000, u32::MAX)
            } else if d(a) == 0.0 {
                (a, 0)
            } else {
                let e = ((a >> 52) & 0x7ff) as i32 - 1022;
                ((a & 0x800f_ffff_ffff_ffff) | (0x3fe << 52), e as u32)
            };
            vec![exp, exp, mant as u32, (mant >> 32) as u32]
        }
        LDEXP_64 => {
            let (e, v) = (x as i32, din((u64::from(i[1]) << 32) | u64::from(i[2])));
            let r = if dnan(v) {
                v | 0x8_0000_0000_0000
            } else {
                let mut r = d(v);
                for _ in 0..e.unsigned_abs().min(3000) {
                    r = if e > 0 { r * 2.0 } else { r / 2.0 };
                }
                din(r.to_bits())
            };
            split(r)
        }
        FLT32_TO_FLT64 => {
            let v = if is_den(x) { x & 0x8000_0000 } else { x };
            split(if is_nan(v) {
                (u64::from(v & 0x8000_0000) << 32)
                    | 0x7ff0_0000_0000_0000
                    | (u64::from(v & 0x7f_ffff) << 29)
            } else {
                f64::from(f(v)).to_bits()
            })
        }
        FLT64_TO_FLT32 => {
            let a = din(dx());
            let r = if dnan(a) {
                (i[0] & 0x8000_0000) | QNAN
            } else {
                fout(m, (d(a) as f32).to_bits())
            };
            vec![0, r]
        }
        RECIP_64 | RECIP_CLAMPED_64 | RECIPSQRT_64 | RECIPSQRT_CLAMPED_64 | SQRT_64 => return None,
        // Vector: x.src0, x.src1, y.src0, ...
        DOT4 | DOT4_IEEE => {
            let p = |a, b| {
                if op == DOT4 {
                    mul_dx9(m, a, b)
                } else {
                    mul(m, a, b)
                }
            };
            let mut acc = p(i[6], i[7]);
            for k in [2, 1, 0] {
                acc = add(m, p(i[2 * k], i[2 * k + 1]), acc);
            }
            vec![acc]
        }
        MAX4 => {
            let mut acc = i[6];
            for k in [4, 2, 0] {
                if cmp(m, acc, i[k]).is_none_or(|o| o == Less) {
                    acc = i[k];
                }
            }
            vec![canon(m, acc)]
        }
        FLT_TO_UINT4 => vec![(0..4)
            .map(|k| ((f(fin(m, i[2 * k])) as u32) & 0xff) << (8 * k))
            .sum()],
        CUBE => return None,
        _ => return None,
    })
    .and_then(|v| sc(v[0]).map(|_| v))
}

fn check(op: AluOp, mode: FloatMode, rows: Vec<Vec<u32>>) -> usize {
    let f = build(op, &env(mode));
    let got = run(&f, &rows);
    let mut checked = 0;
    for (k, (row, g)) in rows.iter().zip(&got).enumerate() {
        let lane = (k % LANES) as u32;
        let Some(want) = reference(op, mode, row, lane) else {
            return 0;
        };
        assert_eq!(
            &g[..want.len()],
            &want[..],
            "{} {mode:?} inputs {row:08x?}: got {:08x?} want {want:08x?}",
            op.name(),
            &g[..want.len()]
        );
        checked += 1;
    }
    checked
}

fn f64_rows(n64: usize, extra32: usize) -> Vec<Vec<u32>> {
    let idx = rows(&(0..F64S.len() as u32).collect::<Vec<_>>(), n64, 300);
    idx.iter()
        .enumerate()
        .map(|(k, r)| {
            let mut v: Vec<u32> = (0..extra32).map(|j| INTS[(k + j) % INTS.len()]).collect();
            for &i in r {
                v.extend(split(F64S[i as usize]));
            }
            v
        })
        .collect()
}

#[test]
fn every_value_op_matches_its_documented_formula() {
    let (mut untested, mut cases, mut ops) = (Vec::new(), 0, 0);
    for op in AluOp::ALL {
        let Ok(form) = alu_form(op) else { continue };
        let transcendental = matches!(
            op,
            AluOp::EXP_IEEE
                | AluOp::LOG_CLAMPED
                | AluOp::LOG_IEEE
                | AluOp::RECIP_CLAMPED
                | AluOp::RECIP_FF
                | AluOp::RECIP_IEEE
                | AluOp::RECIPSQRT_CLAMPED
                | AluOp::RECIPSQRT_FF
                | AluOp::RECIPSQRT_IEEE
                | AluOp::SQRT_IEEE
                | AluOp::SIN
                | AluOp::COS
                | AluOp::RECIP_64
                | AluOp::RECIP_CLAMPED_64
                | AluOp::RECIPSQRT_64
                | AluOp::RECIPSQRT_CLAMPED_64
                | AluOp::SQRT_64
                | AluOp::CUBE
        );
        if transcendental {
            continue;
        }
        for mode in [FloatMode::IEEE, FloatMode::FLUSH] {
            let int_op = op.name().contains("INT") && !op.name().contains("FLT");
            let vals = if int_op
                || op.name().contains("BF")
                || op.name().contains("ALIGN")
                || op.name().contains("SAD")
                || op.name().contains("LERP")
                || op.name().contains("UINT24")
                || matches!(
                    op,
                    AluOp::RECIP_UINT
                        | AluOp::UBYTE0_FLT
                        | AluOp::UBYTE1_FLT
                        | AluOp::UBYTE2_FLT
                        | AluOp::UBYTE3_FLT
                        | AluOp::OFFSET_TO_FLT
                        | AluOp::FLT16_TO_FLT32
                        | AluOp::ADDC_UINT
                        | AluOp::SUBB_UINT
                        | AluOp::MAX_UINT
                        | AluOp::MIN_UINT
                        | AluOp::SETGT_UINT
                        | AluOp::SETGE_UINT
                        | AluOp::PRED_SETGT_UINT
                        | AluOp::PRED_SETGE_UINT
                        | AluOp::MULLO_UINT
                        | AluOp::MULHI_UINT
                ) {
                INTS
            } else {
                F32S
            };
            let rows = match form {
                AluForm::Wide(w) => {
                    let n64 = w
                        .iter()
                        .filter(|w| **w == wavejit_terascale::lift::Width::W64)
                        .count();
                    let n32 = w.len() - n64;
                    if op == AluOp::FLT32_TO_FLT64 {
                        rows(F32S, 1, 64)
                    } else {
                        f64_rows(n64, n32)
                    }
                }
                _ => rows(vals, input_dwords(form), 640),
            };
            let n = check(op, mode, rows);
            if n == 0 {
                untested.push(op.name());
                break;
            }
            cases += n;
        }
        ops += 1;
    }
    assert!(untested.is_empty(), "no reference for {untested:?}");
    // 177 value ops minus the 18 transcendentals (tested below), each in both modes.
    assert_eq!(ops, 159);
    assert!(cases > 20_000, "{cases} cases");
}

#[test]
fn non_value_ops_are_typed_answers() {
    let not: Vec<_> = AluOp::ALL
        .into_iter()
        .filter_map(|op| match alu_form(op) {
            Err(AluError::NotValueOp(o, _)) => Some(o.name()),
            _ => None,
        })
        .collect();
    assert_eq!(not.len(), 31, "{not:?}");
    assert!(not.contains(&"KILLGT_UINT") && not.contains(&"LDS_IDX_OP") && not.contains(&"NOP"));
    // The flag moves belong to the group lifter (tests/lift_flags.rs).
    assert!(not.contains(&"STORE_FLAGS") && not.contains(&"LOAD_STORE_FLAGS"));
}
