//! VOP3 modifiers on integer operations and the LDS_DIRECT operand, per generation, on both
//! engines (interpreter and JIT, compared by the harness).
//!
//! - abs/neg on an integer operand are sign-bit operations at the operand's width (seed 002:
//!   "ABS and negation is applied to source operand for any instruction"; lift/vector.rs). The
//!   expected values of 32/64-bit operands come from the host's float `abs`/negation on the
//!   same bits, which are exactly the IEEE sign-bit operations.
//! - CLAMP saturates only the ops with a saturating form (add/sub); on the other integer ops it
//!   has no effect: the expected values are plain wrapping host arithmetic.
//! - LDS_DIRECT reads LDS at M0[15:0] with data type M0[18:16] (CLRX doc/GcnOperands.md); the
//!   expected value is built from the LDS bytes here, out-of-range bytes reading 0.
mod lift_common;

use lift_common::*;
use wavejit_gcn::lift::{lift, LiftError, LiftErrorKind};
use wavejit_gcn::Gen;

const ALL: [Gen; 4] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9];
const CANARY: u32 = 0xdead_beef;

/// Operand patterns with every combination of sign and low bits.
const PAT: [u32; 12] = [
    0,
    1,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x8000_7fff,
    0x0000_8000,
    0x1234_5678,
    0xfedc_ba98,
    0x00ff_ffff,
    0x0080_0000,
    0x7f80_0001,
];

fn pat(l: u32, k: u32) -> u32 {
    PAT[((l + k) % PAT.len() as u32) as usize].rotate_left(k * 5 + l / 12)
}

fn asm(gen: Gen, text: &str) -> Vec<u8> {
    wavejit_gcn::assemble(gen, text).unwrap_or_else(|e| panic!("{gen:?}: {e}"))
}

/// `-x`, `|x|`, `-|x|` of a 32-bit operand, by host f32 arithmetic on its bits.
fn f32_mod(x: u32, abs: bool, neg: bool) -> u32 {
    let mut f = f32::from_bits(x);
    if abs {
        f = f.abs();
    }
    if neg {
        f = -f;
    }
    f.to_bits()
}

fn f64_mod(x: u64, abs: bool, neg: bool) -> u64 {
    let mut f = f64::from_bits(x);
    if abs {
        f = f.abs();
    }
    if neg {
        f = -f;
    }
    f.to_bits()
}

/// The 16-bit sign-bit operations (no host f16 type): bit 15 cleared, then flipped.
fn h_mod(x: u16, abs: bool, neg: bool) -> u16 {
    let x = if abs { x & 0x7fff } else { x };
    if neg {
        x ^ 0x8000
    } else {
        x
    }
}

fn inputs(w: &mut Wave) {
    for k in 0..4 {
        w.set_v_all(1 + k, |l| pat(l, k));
    }
    w.set_v_all(4, |l| pat(l, 7));
    w.set_v_all(5, |l| pat(l, 9));
    w.set_v_all(9, |l| l * 5 % 61); // shift counts
}

#[test]
fn integer_abs_neg_are_sign_bit_operations() {
    for gen in ALL {
        let shifts = if matches!(gen, Gen::Gfx6 | Gen::Gfx7) {
            "v_lshl_b64 v[14:15], -v[4:5], v9\nv_ashr_i64 v[16:17], |v[4:5]|, v9"
        } else {
            "v_lshlrev_b64 v[14:15], v9, -v[4:5]\nv_ashrrev_i64 v[16:17], v9, |v[4:5]|"
        };
        let text = format!(
            "v_xor_b32_e64 v10, -v1, |v2|\n\
             v_max_i32_e64 v11, -|v1|, v2\n\
             v_mad_u32_u24 v12, -v1, |v2|, -|v3|\n\
             v_mul_hi_u32 v13, v1, -v2\n\
             {shifts}\n\
             s_endpgm"
        );
        let mut w = Wave::new();
        inputs(&mut w);
        w.lift_run(&asm(gen, &text), &config(gen, KEEP_ALL));
        for l in 0..64 {
            let (a, b, c) = (w.v(1, l), w.v(2, l), w.v(3, l));
            let x = w.v64(4, l);
            let s = w.v(9, l) & 63;
            let at = format!("{gen:?} lane {l}");
            assert_eq!(
                w.v(10, l),
                f32_mod(a, false, true) ^ f32_mod(b, true, false),
                "xor {at}"
            );
            let m = (f32_mod(a, true, true) as i32).max(b as i32) as u32;
            assert_eq!(w.v(11, l), m, "max_i32 {at}");
            let p = (f32_mod(a, false, true) & 0xff_ffff)
                .wrapping_mul(f32_mod(b, true, false) & 0xff_ffff)
                .wrapping_add(f32_mod(c, true, true));
            assert_eq!(w.v(12, l), p, "mad_u32_u24 {at}");
            let hi = ((a as u64 * f32_mod(b, false, true) as u64) >> 32) as u32;
            assert_eq!(w.v(13, l), hi, "mul_hi_u32 {at}");
            assert_eq!(w.v64(14, l), f64_mod(x, false, true) << s, "shl64 {at}");
            let sr = ((f64_mod(x, true, false) as i64) >> s) as u64;
            assert_eq!(w.v64(16, l), sr, "ashr64 {at}");
        }
    }
}

#[test]
fn integer_abs_neg_on_16_bit_operands_gfx8_gfx9() {
    for gen in [Gen::Gfx8, Gen::Gfx9] {
        let mut text = "v_max_i16_e64 v18, -v1, |v2|\nv_sub_u16_e64 v20, -|v3|, v1\n".to_string();
        if gen == Gen::Gfx9 {
            // op_sel: the high half of src0; the sign bit is bit 15 of that half. The result
            // goes to the low half, the high half of v19 is kept.
            text.push_str("v_max3_i16 v19, -v1, |v2|, v3 op_sel:[1,0,0,0]\n");
        }
        text.push_str("s_endpgm");
        let mut w = Wave::new();
        inputs(&mut w);
        w.set_v_all(19, |_| CANARY);
        w.lift_run(&asm(gen, &text), &config(gen, KEEP_ALL));
        for l in 0..64 {
            let (a, b, c) = (w.v(1, l), w.v(2, l), w.v(3, l));
            let at = format!("{gen:?} lane {l}");
            let lo = |x: u32| x as u16;
            let m = (h_mod(lo(a), false, true) as i16).max(h_mod(lo(b), true, false) as i16);
            assert_eq!(w.v(18, l), m as u16 as u32, "max_i16 {at}");
            let d = h_mod(lo(c), true, true).wrapping_sub(lo(a));
            assert_eq!(w.v(20, l), d as u32, "sub_u16 {at}");
            if gen == Gen::Gfx9 {
                let x = h_mod((a >> 16) as u16, false, true) as i16;
                let y = h_mod(lo(b), true, false) as i16;
                let m = x.max(y).max(lo(c) as i16) as u16 as u32;
                assert_eq!(w.v(19, l), CANARY & 0xffff_0000 | m, "max3_i16 {at}");
            }
        }
    }
}

/// CLRX's MSADU8 with the sum saturated to u32 (as lift_rare.rs).
fn msad_sat(s: u32, r: u32, acc: u32) -> u32 {
    let mut out = acc as u64;
    for i in 0..4 {
        let (sb, rb) = ((s >> (8 * i)) & 0xff, (r >> (8 * i)) & 0xff);
        if rb != 0 {
            out += sb.abs_diff(rb) as u64;
        }
    }
    out.min(u32::MAX as u64) as u32
}

#[test]
fn modifiers_on_the_128_bit_mqsad_accumulator_act_on_its_top_bit() {
    for gen in [Gen::Gfx7, Gen::Gfx8, Gen::Gfx9] {
        let text = "v_mqsad_u32_u8 v[20:23], v[4:5], v2, -|v[24:27]|\n\
                    v_mqsad_u32_u8 v[30:33], v[4:5], v2, -v[24:27]\n\
                    s_endpgm";
        let mut w = Wave::new();
        inputs(&mut w);
        for k in 0..4 {
            w.set_v_all(24 + k, |l| pat(l, 3 + k) >> (k * 3));
        }
        w.lift_run(&asm(gen, text), &config(gen, KEEP_ALL));
        for l in 0..64 {
            let src = w.v64(4, l);
            let r = w.v(2, l);
            for k in 0..4u32 {
                let acc = w.v(24 + k, l);
                let win = (src >> (8 * k)) as u32;
                let top = k == 3;
                let negabs = if top { acc | 0x8000_0000 } else { acc };
                let neg = if top { acc ^ 0x8000_0000 } else { acc };
                let at = format!("{gen:?} lane {l} dword {k}");
                assert_eq!(w.v(20 + k, l), msad_sat(win, r, negabs), "-|acc| {at}");
                assert_eq!(w.v(30 + k, l), msad_sat(win, r, neg), "-acc {at}");
            }
        }
    }
}

fn sext24(x: u32) -> i32 {
    ((x << 8) as i32) >> 8
}

#[test]
fn clamp_has_no_effect_on_integer_ops_without_a_saturating_form() {
    for gen in ALL {
        let mut text = "v_mad_u32_u24 v30, v1, v2, v3 clamp\n\
                        v_mad_i32_i24 v31, v1, v2, v3 clamp\n\
                        v_xor_b32_e64 v32, v1, v2 clamp\n\
                        v_mul_lo_u32 v33, v1, v2 clamp\n"
            .to_string();
        match gen {
            Gen::Gfx9 => text.push_str(
                "v_mad_u32_u16 v34, v1, v2, v3 clamp\n\
                 v_mad_i32_i16 v35, v1, v2, v3 clamp\n\
                 v_add3_u32 v36, v1, v2, v3 clamp\n\
                 v_mad_u64_u32 v[38:39], s[20:21], v1, v2, v[4:5] clamp\n\
                 v_add_u32_e64 v40, v1, v2 clamp\n\
                 v_add_u32_e64 v41, v1, v2\n",
            ),
            Gen::Gfx8 => text.push_str(
                "v_add_u16_e64 v40, v1, v2 clamp\n\
                 v_add_u16_e64 v41, v1, v2\n",
            ),
            _ => {}
        }
        text.push_str("s_endpgm");
        let mut w = Wave::new();
        inputs(&mut w);
        w.lift_run(&asm(gen, &text), &config(gen, KEEP_ALL));
        let mut carry = 0u64;
        for l in 0..64 {
            let (a, b, c) = (w.v(1, l), w.v(2, l), w.v(3, l));
            let at = format!("{gen:?} lane {l}");
            let mad24 = (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff).wrapping_add(c);
            assert_eq!(w.v(30, l), mad24, "mad_u32_u24 {at}");
            let imad24 = sext24(a).wrapping_mul(sext24(b)).wrapping_add(c as i32);
            assert_eq!(w.v(31, l), imad24 as u32, "mad_i32_i24 {at}");
            assert_eq!(w.v(32, l), a ^ b, "xor {at}");
            assert_eq!(w.v(33, l), a.wrapping_mul(b), "mul_lo {at}");
            match gen {
                Gen::Gfx9 => {
                    let m16 = (a & 0xffff) * (b & 0xffff);
                    assert_eq!(w.v(34, l), m16.wrapping_add(c), "mad_u32_u16 {at}");
                    let i16m = (a as i16 as i32) * (b as i16 as i32);
                    let want = i16m.wrapping_add(c as i32) as u32;
                    assert_eq!(w.v(35, l), want, "mad_i32_i16 {at}");
                    let add3 = a.wrapping_add(b).wrapping_add(c);
                    assert_eq!(w.v(36, l), add3, "add3 {at}");
                    let (s, o) = (a as u64 * b as u64).overflowing_add(w.v64(4, l));
                    assert_eq!(w.v64(38, l), s, "mad_u64_u32 {at}");
                    carry |= (o as u64) << l;
                    let sat = a.saturating_add(b);
                    assert_eq!(w.v(40, l), sat, "add_u32 clamp saturates {at}");
                    assert_eq!(w.v(41, l), a.wrapping_add(b), "add_u32 {at}");
                }
                Gen::Gfx8 => {
                    let (x, y) = (a as u16, b as u16);
                    let sat = x.saturating_add(y);
                    assert_eq!(w.v(40, l), sat as u32, "add_u16 clamp saturates {at}");
                    assert_eq!(w.v(41, l), x.wrapping_add(y) as u32, "add_u16 {at}");
                }
                _ => {}
            }
        }
        if gen == Gen::Gfx9 {
            assert_eq!(w.s64(20), carry, "mad_u64_u32 carry-out");
        }
    }
}

/// LDS bytes of the LDS_DIRECT tests: every byte distinct in its neighbourhood, sign bits mixed.
fn lds_byte(i: usize) -> u8 {
    (i * 151 + 7) as u8 ^ (i >> 8) as u8
}

/// The LDS_DIRECT operand for M0 = `m0` over an LDS of `lds` bytes, from CLRX's data-type
/// table: 0 u8, 1 u16, 2 and 3 dword, 4 i8, 5 i16; 6 and 7 (undocumented) read as a dword,
/// wavejit's convention. Bytes past the end read 0.
fn lds_direct(lds: &[u8], m0: u32) -> u32 {
    let addr = (m0 & 0xffff) as usize;
    let byte = |i: usize| lds.get(addr + i).copied().unwrap_or(0) as u32;
    let d = byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
    match (m0 >> 16) & 7 {
        0 => d & 0xff,
        1 => d & 0xffff,
        4 => d as u8 as i8 as i32 as u32,
        5 => d as u16 as i16 as i32 as u32,
        _ => d,
    }
}

/// (data type, address) pairs: each type, unaligned addresses, the last bytes of the 4 KiB LDS
/// of the harness (partly and wholly out of range), and high M0 bits that must be ignored.
const DIRECT: [u32; 14] = [
    0x0000_0005,
    0x0001_0006,
    0x0001_0007,
    0x0002_0008,
    0x0002_0ffe,
    0x0003_000c,
    0x0004_000d,
    0x0004_0fff,
    0x0005_000e,
    0x0005_0011,
    0x0006_0010,
    0x0007_0014,
    0x0005_ffff,
    0xfff8_0003,
];

#[test]
fn lds_direct_reads_the_m0_address_and_data_type() {
    for gen in ALL {
        let mut text = String::new();
        for (i, m0) in DIRECT.iter().enumerate() {
            text.push_str(&format!(
                "s_mov_b32 m0, {m0:#x}\nv_mov_b32 v{}, src_lds_direct\n",
                40 + i
            ));
        }
        // Modifiers and arithmetic on the LDS value (a dword), and a VOPC src0.
        text.push_str(
            "s_mov_b32 m0, 0x20010\n\
             v_add_f32_e64 v60, -src_lds_direct, v1\n\
             v_mad_u32_u24 v61, src_lds_direct, v2, v3\n\
             v_cmp_lt_u32_e64 s[30:31], src_lds_direct, v1\n",
        );
        if gen >= Gen::Gfx8 {
            text.push_str("v_add_u16_e64 v62, src_lds_direct, v1\n");
        }
        if gen == Gen::Gfx9 {
            text.push_str("v_add_u16_e64 v63, src_lds_direct, v1 op_sel:[1,0,0]\n");
        }
        text.push_str("s_endpgm");
        let mut w = Wave::new();
        inputs(&mut w);
        for (i, b) in w.lds.iter_mut().enumerate() {
            *b = lds_byte(i);
        }
        let exec = 0x8f0f_00ff_f0f0_1235u64;
        w.set_exec(exec);
        for r in 40..64 {
            w.set_v_all(r, |_| CANARY);
        }
        w.lift_run(&asm(gen, &text), &config(gen, KEEP_ALL));
        let lds = w.lds.clone();
        let d = lds_direct(&lds, 0x20010);
        let mut lt = 0u64;
        for l in 0..64 {
            let at = format!("{gen:?} lane {l}");
            let on = exec >> l & 1 != 0;
            let want = |v: u32| if on { v } else { CANARY };
            for (i, &m0) in DIRECT.iter().enumerate() {
                let got = w.v(40 + i as u32, l);
                assert_eq!(got, want(lds_direct(&lds, m0)), "M0 {m0:#x} {at}");
            }
            let (a, b, c) = (w.v(1, l), w.v(2, l), w.v(3, l));
            let sum = -f32::from_bits(d) + f32::from_bits(a);
            if on && sum.is_nan() {
                assert!(f32::from_bits(w.v(60, l)).is_nan(), "add_f32 -lds {at}");
            } else {
                assert_eq!(w.v(60, l), want(sum.to_bits()), "add_f32 -lds {at}");
            }
            let mad = (d & 0xff_ffff).wrapping_mul(b & 0xff_ffff);
            assert_eq!(w.v(61, l), want(mad.wrapping_add(c)), "mad {at}");
            if on && d < a {
                lt |= 1 << l;
            }
            if gen >= Gen::Gfx8 {
                let s = (d as u16).wrapping_add(a as u16) as u32;
                assert_eq!(w.v(62, l), want(s), "add_u16 {at}");
            }
            if gen == Gen::Gfx9 {
                let s = ((d >> 16) as u16).wrapping_add(a as u16) as u32;
                assert_eq!(w.v(63, l), want(s), "add_u16 op_sel {at}");
            }
        }
        assert_eq!(w.s64(30), lt, "{gen:?} v_cmp");
    }
}

#[test]
fn lds_direct_outside_a_32_bit_src0_is_invalid() {
    for gen in ALL {
        for text in [
            "v_add_f32_e64 v0, v1, src_lds_direct",
            "v_mad_u32_u24 v0, v1, v2, src_lds_direct",
            "v_subrev_f32 v0, src_lds_direct, v1",
            "v_add_f64 v[0:1], src_lds_direct, v[2:3]",
        ] {
            let code = asm(gen, &format!("{text}\ns_endpgm"));
            match lift(&code, &config(gen, KEEP_ALL)) {
                Err(LiftError {
                    kind: LiftErrorKind::Invalid,
                    pc: 0,
                    why,
                    ..
                }) => {
                    assert!(why.contains("LDS_DIRECT"), "{gen:?} `{text}`: {why}")
                }
                other => panic!("{gen:?} `{text}`: {:?}", other.map(|_| ())),
            }
        }
    }
}
