//! Rare VALU and DS forms on both engines: v_mullit_f32, v_mqsad_u32_u8 (register and
//! constant accumulators), v_screen_partition_4se_b32 and the DS exchange/src2/append/
//! addtid/permute forms. Expected values are the CLRX doc/GcnInstrsVop1.md, Vop3.md and
//! GcnInstrsDs.md formulas (AMD's pseudocode for ds_permute_b32) evaluated here on the host.
mod lift_common;
mod lift_programs;

use lift_common::*;
use lift_programs as p;
use wavejit_gcn::Gen;

/// v_screen_partition_4se_b32's table as printed in CLRX GcnInstrsVop1.md.
const SCREEN_TABLE: [u8; 256] = [
    0x1, 0x3, 0x7, 0xf, 0x5, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, //
    0xf, 0x2, 0x6, 0xe, 0xf, 0xa, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, //
    0xd, 0xf, 0x4, 0xc, 0xf, 0xf, 0x5, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, //
    0x9, 0xb, 0xf, 0x8, 0xf, 0xf, 0xf, 0xa, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0x4, 0xc, 0xd, 0xf, 0x6, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0x9, 0xb, 0xf, 0x9, 0x9, 0xf, 0xf, 0xd, 0xf, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0x7, 0xf, 0x1, 0x3, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, //
    0xf, 0xf, 0xf, 0xf, 0x6, 0xe, 0xf, 0x2, 0x6, 0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, //
    0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2, 0x3, 0xb, 0xf, 0xa, 0xf, 0xf, 0xf, //
    0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x1, 0x9, 0xd, 0xf, 0x5, 0xf, 0xf, //
    0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xe, 0xf, 0x8, 0xc, 0xf, 0xf, 0xa, 0xf, //
    0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0x6, 0x7, 0xf, 0x4, 0xf, 0xf, 0xf, 0x5, //
    0x9, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0xc, 0xe, 0xf, //
    0xf, 0x6, 0x6, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x4, 0x6, 0x7, //
    0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xb, 0xf, 0x2, 0x3, //
    0x9, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0x9, 0xd, 0xf, 0x1,
];

#[test]
fn screen_partition_is_the_doc_table_gfx9() {
    let mut w = Wave::new();
    w.set_v_all(0, |l| l);
    w.set_v_all(1, |l| l + 64);
    w.set_v_all(2, |l| (l + 128) | 0xabc00);
    w.set_v_all(3, |l| (l + 192) | 0xffff_ff00);
    w.lift_run(p::VALU_RARE_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    for l in 0..64u32 {
        for k in 0..4 {
            let i = (l + 64 * k) as usize;
            assert_eq!(w.v(20 + k, l), SCREEN_TABLE[i] as u32, "entry {i}");
        }
    }
}

/// CLRX: `S2 > 0 && !isnan(S2)` ? (`S0 == 0 || S1 == 0` ? 0.0 : S0 * S1) : -MAX_FLOAT.
fn mullit(a: f32, b: f32, c: f32) -> f32 {
    if c > 0.0 {
        if a == 0.0 || b == 0.0 {
            0.0
        } else {
            a * b
        }
    } else {
        -f32::MAX
    }
}

/// CLRX MSADU8 with the 64-bit sum saturated to u32.
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
fn mullit_and_mqsad_gfx7() {
    let cases: [(f32, f32, f32); 10] = [
        (2.0, 3.0, 1.0),
        (0.0, f32::INFINITY, 1.0),
        (-0.0, 5.0, 1.0),
        (f32::NAN, 0.0, 1.0),
        (2.0, 3.0, 0.0),
        (2.0, 3.0, -1.0),
        (2.0, 3.0, f32::NAN),
        (1e30, 1e30, 2.0),
        (-3.0, 0.5, f32::from_bits(1)),
        (-0.0, -7.0, 0.25),
    ];
    let case = |l: u32| cases[l as usize % cases.len()];
    let src = |l: u32| 0x0123_4567_89ab_cdefu64.rotate_left(5 * l) ^ (l as u64 * 0x1111);
    let reff = |l: u32| {
        if l.is_multiple_of(3) {
            0x00ff_1000
        } else {
            0x8040_2001u32.wrapping_mul(l | 1)
        }
    };
    let acc = |l: u32, k: u32| {
        if l.is_multiple_of(4) {
            u32::MAX - 100 * k
        } else {
            l * 1000 + k
        }
    };
    let mut w = Wave::new();
    w.set_v_all(0, |l| case(l).0.to_bits());
    w.set_v_all(1, |l| case(l).1.to_bits());
    w.set_v_all(2, |l| case(l).2.to_bits());
    w.set_v_all(4, |l| src(l) as u32);
    w.set_v_all(5, |l| (src(l) >> 32) as u32);
    w.set_v_all(6, reff);
    for k in 0..4 {
        w.set_v_all(20 + k, |l| acc(l, k));
    }
    w.lift_run(p::VALU_RARE_GFX7, &config(Gen::Gfx7, KEEP_ALL));
    for l in 0..64u32 {
        let (a, b, c) = case(l);
        assert_eq!(
            w.v(10, l),
            mullit(a, b, c).to_bits(),
            "mullit lane {l} {a} {b} {c}"
        );
        for k in 0..4u32 {
            let win = (src(l) >> (8 * k)) as u32;
            assert_eq!(
                w.v(12 + k, l),
                msad_sat(win, reff(l), acc(l, k)),
                "mqsad v-acc lane {l} dword {k}"
            );
            assert_eq!(w.v(16 + k, l), u32::MAX, "mqsad -1 saturates, lane {l}");
            let five = [5, 0, 0, 0][k as usize];
            assert_eq!(
                w.v(24 + k, l),
                msad_sat(win, reff(l), five),
                "mqsad constant 5 lane {l} dword {k}"
            );
        }
    }
}

fn lds32(w: &Wave, at: u32) -> u32 {
    let a = at as usize;
    u32::from_le_bytes(w.lds[a..a + 4].try_into().unwrap())
}
fn lds64(w: &Wave, at: u32) -> u64 {
    lds32(w, at) as u64 | (lds32(w, at + 4) as u64) << 32
}
fn set_lds32(w: &mut Wave, at: u32, v: u32) {
    let a = at as usize;
    w.lds[a..a + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn ds_ext_gfx9() {
    let exec: u64 = !(1 << 3 | 1 << 5 | 1 << 40);
    let on = |l: u32| exec >> l & 1 != 0;
    let init = |at: u32| 0x1000_0000 | at;
    let mut w = Wave::new();
    w.lds = vec![0; 8192];
    for at in (0..8192).step_by(4) {
        set_lds32(&mut w, at, init(at));
    }
    let fa = |l: u32| l as f32 - 10.0;
    let fb = |l: u32| 20.0 - 2.0 * l as f32;
    for l in 0..64 {
        set_lds32(&mut w, 5632 + 4 * l, fa(l).to_bits());
        set_lds32(&mut w, 5888 + 4 * l, fb(l).to_bits());
    }
    set_lds32(&mut w, 3400, 1000);
    set_lds32(&mut w, 3404, 500);
    w.set_exec(exec);
    w.set_v_all(1, |l| 4 * l);
    w.set_v_all(10, |l| 0xa000 + l);
    w.set_v_all(11, |l| 0xb000 + l);
    w.set_v_all(40, |l| 1024 + 8 * l);
    w.set_v_all(12, |l| 0xc000 + l);
    w.set_v_all(13, |l| 0xc100 + l);
    w.set_v_all(14, |l| 0xd000 + l);
    w.set_v_all(15, |l| 0xd100 + l);
    w.set_v_all(16, |l| 0xe000 + l);
    w.set_v_all(41, |l| 4096 + 4 * l + 1);
    w.set_v_all(42, |l| (128 << 17) | (4608 + 8 * l));
    w.set_v_all(43, |l| 5632 + 4 * l);
    w.set_v_all(44, |l| (4 * (l / 2)).wrapping_sub(4) | 0x100);
    w.set_v_all(25, |l| 0x5000 + l);
    for n in [2, 3, 4, 5, 6, 7, 17, 18, 19, 24] {
        w.set_v_all(n, |_| 0xeeee);
    }
    w.lift_run(p::DS_EXT_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let active = exec.count_ones();
    // ds_permute_b32 per AMD's pseudocode: highest active sender wins, default 0.
    let mut perm = [0u32; 64];
    for j in 0..64u32 {
        if on(j) {
            let t = ((4 * (j / 2)).wrapping_sub(4) | 0x100).wrapping_add(4) / 4 % 64;
            perm[t as usize] = 0x5000 + j;
        }
    }
    for l in 0..64u32 {
        if !on(l) {
            for n in [2, 3, 4, 17, 18, 19, 24] {
                assert_eq!(w.v(n, l), 0xeeee, "inactive lane {l} v{n} untouched");
            }
            assert_eq!(lds32(&w, 4 * l + 4), init(4 * l + 4));
            continue;
        }
        assert_eq!(w.v(2, l), init(4 * l + 4), "wrxchg2 first old, lane {l}");
        assert_eq!(w.v(3, l), init(4 * l + 320), "wrxchg2 second old, lane {l}");
        assert_eq!(lds32(&w, 4 * l + 4), 0xa000 + l);
        assert_eq!(lds32(&w, 4 * l + 320), 0xb000 + l);
        let (a0, a1) = (1024 + 8 * l + 512, 1024 + 8 * l + 1024);
        let old0 = init(a0) as u64 | (init(a0 + 4) as u64) << 32;
        let old1 = init(a1) as u64 | (init(a1 + 4) as u64) << 32;
        assert_eq!(w.v64(4, l), old0, "wrxchg2st64 b64 first old, lane {l}");
        assert_eq!(w.v64(6, l), old1, "wrxchg2st64 b64 second old, lane {l}");
        assert_eq!(
            lds64(&w, a0),
            (0xc100 + l as u64) << 32 | (0xc000 + l as u64)
        );
        assert_eq!(
            lds64(&w, a1),
            (0xd100 + l as u64) << 32 | (0xd000 + l as u64)
        );
        // addtid: written at 0xc00 + 16 + 4l, read from 0xc00 + 4l.
        assert_eq!(
            lds32(&w, 0xc00 + 16 + 4 * l),
            0xe000 + l,
            "write_addtid lane {l}"
        );
        let expect_read = if l >= 4 && on(l - 4) {
            0xe000 + l - 4
        } else {
            init(0xc00 + 4 * l)
        };
        assert_eq!(w.v(17, l), expect_read, "read_addtid lane {l}");
        assert_eq!(w.v(18, l), 1000, "append returns the old count");
        assert_eq!(w.v(19, l), 500, "consume returns the old count");
        let a = 4096 + 4 * l;
        assert_eq!(
            lds32(&w, a),
            init(a).wrapping_add(init(a + 256)),
            "add_src2 lane {l}"
        );
        let a = 4608 + 8 * l;
        let b = a + 512;
        assert_eq!(
            lds64(&w, a),
            init(b) as u64 | (init(b + 4) as u64) << 32,
            "write_src2_b64 lane {l}"
        );
        let m = fa(l).max(fb(l));
        assert_eq!(
            lds32(&w, 5632 + 4 * l),
            m.to_bits(),
            "max_src2_f32 lane {l}"
        );
        assert_eq!(w.v(24, l), perm[l as usize], "permute lane {l}");
    }
    assert_eq!(lds32(&w, 3400), 1000 + active);
    assert_eq!(lds32(&w, 3404), 500 - active);
}
