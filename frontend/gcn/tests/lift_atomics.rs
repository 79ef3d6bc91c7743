//! DS and MUBUF read-modify-writes beyond add/sub/min/max: rsub, mskor, wrap, float
//! compare-store, condxchg32, rsub_src2 and the gfx7 float buffer atomics. Expected values
//! are CLRX doc/GcnInstrsDs.md and GcnInstrsMubuf.md formulas (AMD's pseudocode for
//! ds_condxchg32_rtn_b64) computed on the host with Rust's f32/f64 comparisons.
mod lift_common;
mod lift_programs;

use lift_common::*;
use lift_programs as p;
use wavejit_gcn::Gen;

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
fn set_lds64(w: &mut Wave, at: u32, v: u64) {
    set_lds32(w, at, v as u32);
    set_lds32(w, at + 4, (v >> 32) as u32);
}

#[test]
fn ds_atomics_gfx7() {
    let exec: u64 = !(1 << 2 | 1 << 33);
    let on = |l: u32| exec >> l & 1 != 0;
    let init = |at: u32| 0x1000_0000 | at;
    let mem_f = |l: u32| match l % 4 {
        0 => 1.5 + l as f32,
        1 => 0.0,
        2 => f32::NAN,
        _ => 2.0,
    };
    let cmp_f = |l: u32| match l % 4 {
        0 => 1.5 + l as f32,
        1 => -0.0,
        2 => f32::NAN,
        _ => 3.0,
    };
    let mem_d = |l: u32| if l.is_multiple_of(2) { 2.5f64 } else { 7.0 };
    let lo = |l: u32| {
        if l.is_multiple_of(2) {
            0x8000_0000 | (0x123 + l)
        } else {
            0x456
        }
    };
    let hi = |l: u32| {
        if l.is_multiple_of(3) {
            0xffff_ffff
        } else {
            0x7fff_0000
        }
    };
    let mut w = Wave::new();
    for at in (0..4096).step_by(4) {
        set_lds32(&mut w, at, init(at));
    }
    for l in 0..64 {
        set_lds32(&mut w, 768 + 4 * l, mem_f(l).to_bits());
        set_lds64(&mut w, 1024 + 8 * l, mem_d(l).to_bits());
    }
    w.set_exec(exec);
    w.set_v_all(1, |l| 4 * l);
    w.set_v_all(10, |l| 0x2000_0000 + 7 * l);
    w.set_v_all(11, |_| 0x0000_ff0f);
    w.set_v_all(12, |l| l << 8);
    w.set_v_all(13, |l| (init(512 + 4 * l) + l % 3).wrapping_sub(1));
    w.set_v_all(14, |_| 0x55);
    w.set_v_all(15, |l| cmp_f(l).to_bits());
    w.set_v_all(16, |l| (100.0 + l as f32).to_bits());
    w.set_v_all(20, |l| 1024 + 8 * l);
    w.set_v_all(22, |_| 2.5f64.to_bits() as u32);
    w.set_v_all(23, |_| (2.5f64.to_bits() >> 32) as u32);
    w.set_v_all(24, |l| (-(l as f64)).to_bits() as u32);
    w.set_v_all(25, |l| ((-(l as f64)).to_bits() >> 32) as u32);
    w.set_v_all(21, |l| 2048 + 8 * l + 3);
    w.set_v_all(26, lo);
    w.set_v_all(27, hi);
    w.set_v_all(30, |l| 3072 + 4 * l);
    for n in [2, 3, 4, 5, 6, 7] {
        w.set_v_all(n, |_| 0xeeee);
    }
    w.lift_run(p::DS_ATOMIC_EXT_GFX7, &config(Gen::Gfx7, KEEP_ALL));
    for l in 0..64u32 {
        if !on(l) {
            for n in [2, 3, 4, 5, 6, 7] {
                assert_eq!(w.v(n, l), 0xeeee, "inactive lane {l} v{n}");
            }
            assert_eq!(lds32(&w, 4 * l), init(4 * l));
            assert_eq!(lds32(&w, 3072 + 4 * l), init(3072 + 4 * l));
            continue;
        }
        let old = init(4 * l);
        assert_eq!(w.v(2, l), old, "rsub returns old, lane {l}");
        assert_eq!(lds32(&w, 4 * l), (0x2000_0000 + 7 * l).wrapping_sub(old));
        let old = init(256 + 4 * l);
        assert_eq!(w.v(3, l), old, "mskor returns old, lane {l}");
        assert_eq!(
            lds32(&w, 256 + 4 * l),
            (old & !0xff0f) | l << 8,
            "mskor lane {l}"
        );
        let old = init(512 + 4 * l);
        let d0 = (old + l % 3).wrapping_sub(1);
        assert_eq!(w.v(4, l), old, "wrap returns old, lane {l}");
        let wrapped = if old >= d0 {
            old - d0
        } else {
            old.wrapping_add(0x55)
        };
        assert_eq!(lds32(&w, 512 + 4 * l), wrapped, "wrap lane {l}");
        assert_eq!(
            w.v(5, l),
            mem_f(l).to_bits(),
            "cmpst_f32 returns old, lane {l}"
        );
        let f = if mem_f(l) == cmp_f(l) {
            100.0 + l as f32
        } else {
            mem_f(l)
        };
        assert_eq!(lds32(&w, 768 + 4 * l), f.to_bits(), "cmpst_f32 lane {l}");
        let d = if mem_d(l) == 2.5 {
            -(l as f64)
        } else {
            mem_d(l)
        };
        assert_eq!(lds64(&w, 1024 + 8 * l), d.to_bits(), "cmpst_f64 lane {l}");
        let a = 2048 + 8 * l;
        assert_eq!(
            w.v64(6, l),
            lds64_init(a),
            "condxchg32 returns old, lane {l}"
        );
        let new_lo = if lo(l) >> 31 != 0 {
            lo(l) & 0x7fff_ffff
        } else {
            init(a)
        };
        let new_hi = if hi(l) >> 31 != 0 {
            hi(l) & 0x7fff_ffff
        } else {
            init(a + 4)
        };
        assert_eq!(lds32(&w, a), new_lo, "condxchg32 low, lane {l}");
        assert_eq!(lds32(&w, a + 4), new_hi, "condxchg32 high, lane {l}");
        let a = 3072 + 4 * l;
        assert_eq!(
            lds32(&w, a),
            init(a + 256).wrapping_sub(init(a)),
            "rsub_src2 lane {l}"
        );
    }
}

/// The 64-bit value `init` leaves at `at`.
fn lds64_init(at: u32) -> u64 {
    (0x1000_0000 | at) as u64 | ((0x1000_0000 | (at + 4)) as u64) << 32
}

#[test]
fn mubuf_float_atomics_gfx7() {
    let mem0 = |l: u32| if l % 4 == 1 { 0.0f32 } else { l as f32 * 0.5 };
    let cmp0 = |l: u32| match l % 4 {
        0 => mem0(l),
        1 => -0.0,
        2 => mem0(l) + 1.0,
        _ => f32::NAN,
    };
    let mem1 = |l: u32| l as f32 - 30.0;
    let d1 = |l: u32| {
        if l.is_multiple_of(5) {
            f32::NAN
        } else {
            3.0 - l as f32 * 0.25
        }
    };
    let mem2 = |l: u32| l as f64 * 1.25 - 20.0;
    let mut bytes = vec![0u8; 1024];
    for l in 0..64usize {
        let lu = l as u32;
        bytes[4 * l..4 * l + 4].copy_from_slice(&mem0(lu).to_bits().to_le_bytes());
        bytes[256 + 4 * l..260 + 4 * l].copy_from_slice(&mem1(lu).to_bits().to_le_bytes());
        bytes[512 + 8 * l..520 + 8 * l].copy_from_slice(&mem2(lu).to_bits().to_le_bytes());
    }
    let mut w = Wave::new();
    let buf = w.buffer(&bytes);
    w.set_s(0, buf as u32);
    w.set_s(1, (buf >> 32) as u32 & 0xffff);
    w.set_s(2, 1024);
    w.set_s(3, 0);
    w.set_v_all(40, |l| (10.0 + l as f32).to_bits());
    w.set_v_all(41, |l| cmp0(l).to_bits());
    w.set_v_all(42, |l| 4 * l);
    w.set_v_all(43, |l| d1(l).to_bits());
    w.set_v_all(44, |_| 5.0f64.to_bits() as u32);
    w.set_v_all(45, |_| (5.0f64.to_bits() >> 32) as u32);
    w.set_v_all(46, |l| 8 * l);
    w.lift_run(p::MUBUF_FLOAT_ATOMICS_GFX7, &config(Gen::Gfx7, KEEP_ALL));
    let out = w.read_u32(buf, 256);
    for l in 0..64u32 {
        let i = l as usize;
        assert_eq!(
            w.v(40, l),
            mem0(l).to_bits(),
            "fcmpswap returns old, lane {l}"
        );
        let f = if mem0(l) == cmp0(l) {
            10.0 + l as f32
        } else {
            mem0(l)
        };
        assert_eq!(out[i], f.to_bits(), "fcmpswap lane {l}");
        assert_eq!(w.v(43, l), mem1(l).to_bits(), "fmin returns old, lane {l}");
        assert_eq!(out[64 + i], mem1(l).min(d1(l)).to_bits(), "fmin lane {l}");
        assert_eq!(
            w.v64(44, l),
            mem2(l).to_bits(),
            "fmax_x2 returns old, lane {l}"
        );
        let m = mem2(l).max(5.0).to_bits();
        assert_eq!(
            out[128 + 2 * i] as u64 | (out[129 + 2 * i] as u64) << 32,
            m,
            "fmax_x2 lane {l}"
        );
    }
}
