//! gfx9 scalar atomics (`s_atomic_*`, `s_buffer_atomic_*`), gfx9 scalar scratch and MUBUF
//! `lds`/`tfe` on both engines. Expected values are computed here from the documented
//! formulas (AMD Vega ISA SMEM opcodes and scalar addressing; CLRX doc/GcnMemHandling.md for
//! buffer addressing, range checks and the LDS address `(M0 & 0xffff) + lane * 4`), not from
//! the lifter. Programs are assembled with the crate's assembler.
mod lift_common;

use lift_common::*;
use wavejit_gcn::lift::{lift, LiftError, LiftErrorKind};
use wavejit_gcn::{assemble, Gen};

fn le(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn asm(gen: Gen, text: &str) -> Vec<u8> {
    assemble(gen, text).unwrap_or_else(|e| panic!("assemble: {e}\n{text}"))
}

fn lds32(w: &Wave, at: u32) -> u32 {
    let a = at as usize;
    u32::from_le_bytes([w.lds[a], w.lds[a + 1], w.lds[a + 2], w.lds[a + 3]])
}

/// V# words of a raw buffer (STRIDE 0, no swizzle, no TID) of `num_records` bytes.
fn raw_vsharp(w: &mut Wave, s: u32, base: u64, num_records: u32) {
    w.set_s(s, base as u32);
    w.set_s(s + 1, (base >> 32) as u32 & 0xffff);
    w.set_s(s + 2, num_records);
    w.set_s(s + 3, 0x0002_7000);
}

#[test]
fn scalar_atomics_gfx9() {
    let code = asm(
        Gen::Gfx9,
        "s_atomic_add s4, s[2:3], 0x0 glc
         s_atomic_sub s5, s[2:3], 0x4
         s_atomic_cmpswap s[6:7], s[2:3], 0x8 glc
         s_atomic_cmpswap s[18:19], s[2:3], 0xc glc
         s_atomic_umax_x2 s[8:9], s[2:3], 0x10 glc
         s_atomic_cmpswap_x2 s[12:15], s[2:3], 0x18 glc
         s_atomic_inc s16, s[2:3], 0x20 glc
         s_atomic_smin s17, s[2:3], s20 glc
         s_endpgm",
    );
    let init: [u32; 12] = [
        100,
        50,
        7,
        9,
        0xffff_fff0,
        0x1,
        0x89ab_cdef,
        0x0123_4567,
        5,
        0,
        0,
        (-3i32) as u32,
    ];
    let mut w = Wave::new();
    let buf = w.buffer(&le(&init));
    w.set_s64(2, buf);
    w.set_s(4, 23);
    w.set_s(5, 8);
    w.set_s(6, 42);
    w.set_s(7, 7); // compare equals mem[2]
    w.set_s(18, 43);
    w.set_s(19, 1); // compare differs from mem[3]
    w.set_s64(8, 0x2_0000_0000);
    w.set_s64(12, 0x1111_2222_3333_4444);
    w.set_s64(14, 0x0123_4567_89ab_cdef);
    w.set_s(16, 5);
    w.set_s(17, (-8i32) as u32);
    w.set_s(20, 0x2c);
    w.lift_run(&code, &config(Gen::Gfx9, KEEP_ALL));
    let m = w.read_u32(buf, 12);
    // add: old returned with glc.
    assert_eq!((m[0], w.s(4)), (123, 100));
    // sub without glc: SDATA keeps its value.
    assert_eq!((m[1], w.s(5)), (42, 8));
    // cmpswap: DATA[0] new, DATA[1] compare; old value to DATA[0].
    assert_eq!((m[2], w.s(6), w.s(7)), (42, 7, 7));
    assert_eq!(
        (m[3], w.s(18)),
        (9, 9),
        "cmpswap with a different compare keeps memory"
    );
    // umax_x2: max(0x1_ffff_fff0, 0x2_0000_0000).
    assert_eq!((m[4], m[5]), (0, 2));
    assert_eq!(w.s64(8), 0x1_ffff_fff0);
    // cmpswap_x2: SDATA[0:1] new, SDATA[2:3] compare (equal to memory).
    assert_eq!((m[6], m[7]), (0x3333_4444, 0x1111_2222));
    assert_eq!(w.s64(12), 0x0123_4567_89ab_cdef);
    // inc: tmp >= data ? 0 : tmp + 1, with tmp = 5, data = 5.
    assert_eq!((m[8], w.s(16)), (0, 5));
    // smin through an SGPR byte offset (0x2c = dword 11).
    assert_eq!((m[11], w.s(17)), ((-8i32) as u32, (-3i32) as u32));
    assert_eq!((m[9], m[10]), (0, 0), "untouched dwords");
}

#[test]
fn scalar_buffer_atomics_gfx9() {
    let code = asm(
        Gen::Gfx9,
        "s_buffer_atomic_add s20, s[8:11], 0x4 glc
         s_buffer_atomic_swap s21, s[8:11], 0x10 glc
         s_buffer_atomic_add_x2 s[22:23], s[8:11], 0x8 glc
         s_buffer_atomic_or_x2 s[24:25], s[8:11], 0xc glc
         s_buffer_atomic_cmpswap s[26:27], s[8:11], 0x0 glc
         s_buffer_atomic_xor s28, s[8:11], s29 glc
         s_buffer_atomic_umin s30, s[8:11], s31
         s_endpgm",
    );
    let init: [u32; 8] = [1, 2, 0xffff_ffff, 4, 0x55, 0x66, 0x77, 0x88];
    let mut w = Wave::new();
    let buf = w.buffer(&le(&init));
    // NUM_RECORDS = 16 bytes: dwords 0..3 are in range, dword 4 on is not.
    raw_vsharp(&mut w, 8, buf, 16);
    w.set_s(20, 10);
    w.set_s(21, 0xdead);
    w.set_s64(22, 0x1_0000_0001);
    w.set_s64(24, 0xf0f0);
    w.set_s(26, 77);
    w.set_s(27, 1);
    w.set_s(28, 0xff);
    w.set_s(29, 4);
    w.set_s(30, 0x1234);
    w.set_s(31, 0x14);
    w.lift_run(&code, &config(Gen::Gfx9, KEEP_ALL));
    let m = w.read_u32(buf, 8);
    // add at byte 4, then xor (offset s29 = 4): (2 + 10) ^ 0xff.
    assert_eq!(w.s(20), 2);
    assert_eq!((m[1], w.s(28)), ((2 + 10) ^ 0xff, 12));
    // Offset 16 is out of range: dropped, returns 0.
    assert_eq!((m[4], w.s(21)), (0x55, 0));
    // x2 at byte 8: dwords 8 and 12 in range; 0x4_ffff_ffff + 0x1_0000_0001.
    assert_eq!(w.s64(22), 0x4_ffff_ffff);
    let sum = 0x4_ffff_ffffu64 + 0x1_0000_0001;
    assert_eq!((m[2], m[3]), (sum as u32, (sum >> 32) as u32));
    // x2 at byte 12: its second dword (byte 16) is out of range, so the whole atomic drops.
    assert_eq!(w.s64(24), 0);
    assert_eq!((m[3], m[4]), ((sum >> 32) as u32, 0x55));
    // cmpswap at 0: memory 1 equals compare 1, stores 77.
    assert_eq!((m[0], w.s(26)), (77, 1));
    // umin at byte 0x14 (out of range), no glc: memory and SDATA unchanged.
    assert_eq!((m[5], w.s(30)), (0x66, 0x1234));
    assert_eq!((m[6], m[7]), (0x77, 0x88));
}

#[test]
fn scalar_scratch_gfx9() {
    let code = asm(
        Gen::Gfx9,
        "s_scratch_store_dwordx2 s[4:5], flat_scratch, s6
         s_scratch_load_dword s7, flat_scratch, 0x8
         s_scratch_load_dwordx4 s[8:11], s[2:3], s12
         s_scratch_store_dword s13, s[2:3], 0x13
         s_scratch_load_dwordx2 s[14:15], s[2:3], s16
         s_endpgm",
    );
    let init: Vec<u32> = (0..128).map(|i| 0x1000 + i).collect();
    let mut w = Wave::new();
    let buf = w.buffer(&le(&init));
    let fs = w.g.flat_scratch();
    w.state.set_uniform(fs, buf as u32);
    w.state.set_uniform(fs.offset(1), (buf >> 32) as u32);
    w.set_s64(2, buf);
    w.set_s64(4, 0xaaaa_bbbb_cccc_dddd);
    w.set_s(6, 2); // 2 * 64 = byte 128 = dword 32
    w.set_s(12, 1); // byte 64 = dword 16
    w.set_s(13, 0x5555);
    w.set_s(16, 3); // byte 192 = dword 48
    w.lift_run(&code, &config(Gen::Gfx9, KEEP_ALL));
    let m = w.read_u32(buf, 128);
    assert_eq!(
        (m[32], m[33]),
        (0xcccc_dddd, 0xaaaa_bbbb),
        "SGPR offset in 64-byte units"
    );
    assert_eq!(w.s(7), 0x1002, "immediate offset in bytes");
    assert_eq!(
        (w.s(8), w.s(9), w.s(10), w.s(11)),
        (0x1010, 0x1011, 0x1012, 0x1013)
    );
    assert_eq!(m[4], 0x5555, "offset 0x13 has its low two bits cleared");
    assert_eq!((w.s(14), w.s(15)), (0x1000 + 48, 0x1000 + 49));
    assert_eq!((m[3], m[5]), (0x1003, 0x1005));
}

#[test]
fn buffer_load_to_lds_gfx9() {
    let code = asm(
        Gen::Gfx9,
        "s_mov_b32 m0, 0x10100
         buffer_load_dword v1, v0, s[4:7], s8 offen offset:4 lds
         s_mov_b32 m0, 0x600
         buffer_load_sbyte v1, v0, s[4:7], 0 offen lds
         s_mov_b32 m0, 0xa00
         buffer_load_ushort v1, v0, s[4:7], 0 offen offset:2 lds
         s_endpgm",
    );
    let data: Vec<u32> = (0..80u32).map(|i| 0x8070_60f0 ^ (i * 0x0101)).collect();
    let exec: u64 = !(1 << 5 | 1 << 40);
    let mut w = Wave::new();
    let buf = w.buffer(&le(&data));
    // NUM_RECORDS 200 bytes; soffset 8.
    raw_vsharp(&mut w, 4, buf, 200);
    w.set_s(8, 8);
    w.set_v_all(0, |l| 4 * l);
    w.set_v_all(1, |l| 0x7700 + l);
    for at in (0..w.lds.len()).step_by(4) {
        w.lds[at..at + 4].copy_from_slice(&0xcafe_0000u32.to_le_bytes());
    }
    w.set_exec(exec);
    w.lift_run(&code, &config(Gen::Gfx9, KEEP_ALL));
    let bytes = le(&data);
    for l in 0..64u32 {
        let on = exec >> l & 1 != 0;
        // dword: bufoffset = 4l + 4, in range iff bufoffset + soffset < 200.
        let off = 4 * l + 4;
        let want = if !on {
            0xcafe_0000
        } else if off + 8 < 200 {
            data[((off + 8) / 4) as usize]
        } else {
            0
        };
        assert_eq!(lds32(&w, 0x100 + 4 * l), want, "dword lane {l}");
        // sbyte: zero-extended (GcnMemHandling.md), in range iff 4l < 200.
        let b = 4 * l;
        let want = if !on {
            0xcafe_0000
        } else if b < 200 {
            bytes[b as usize] as u32
        } else {
            0
        };
        assert_eq!(lds32(&w, 0x600 + 4 * l), want, "sbyte lane {l}");
        let h = 4 * l + 2;
        let want = if !on {
            0xcafe_0000
        } else if h < 200 {
            u16::from_le_bytes([bytes[h as usize], bytes[h as usize + 1]]) as u32
        } else {
            0
        };
        assert_eq!(lds32(&w, 0xa00 + 4 * l), want, "ushort lane {l}");
        assert_eq!(w.v(1, l), 0x7700 + l, "VDATA is not written with lds");
    }
    assert_eq!(
        lds32(&w, 0x100 + 4 * 64),
        0xcafe_0000,
        "nothing past lane 63"
    );
}

#[test]
fn buffer_load_tfe_gfx9() {
    let code = asm(
        Gen::Gfx9,
        "buffer_load_dword v[2:3], v0, s[4:7], 0 offen tfe
         buffer_load_dwordx2 v[4:6], v0, s[4:7], 0 offen offset:4 tfe
         buffer_load_ushort v[7:8], v0, s[4:7], 0 offen tfe
         tbuffer_load_format_x v[9:10], v0, s[4:7], 0 offen format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_UINT] tfe
         s_endpgm",
    );
    let data: Vec<u32> = (0..80u32).map(|i| 0x4000_0000 | (i * 3)).collect();
    let exec: u64 = !(1 << 1 | 1 << 63);
    let mut w = Wave::new();
    let buf = w.buffer(&le(&data));
    raw_vsharp(&mut w, 4, buf, 160);
    w.set_v_all(0, |l| 4 * l);
    for r in 2..=10 {
        w.set_v_all(r, |l| 0xdead_0000 | r << 8 | l);
    }
    w.set_exec(exec);
    w.lift_run(&code, &config(Gen::Gfx9, KEEP_ALL));
    let at = |byte: u32| {
        if byte < 160 {
            data[(byte / 4) as usize]
        } else {
            0
        }
    };
    for l in 0..64u32 {
        let keep = |r: u32| 0xdead_0000 | r << 8 | l;
        if exec >> l & 1 == 0 {
            for r in 2..=10 {
                assert_eq!(w.v(r, l), keep(r), "inactive lane {l} v{r}");
            }
            continue;
        }
        assert_eq!(w.v(2, l), at(4 * l), "dword lane {l}");
        assert_eq!((w.v(4, l), w.v(5, l)), (at(4 * l + 4), at(4 * l + 8)));
        assert_eq!(w.v(7, l), at(4 * l) & 0xffff);
        assert_eq!(w.v(9, l), at(4 * l));
        for r in [3, 6, 8, 10] {
            assert_eq!(w.v(r, l), 0, "tfe status v{r} lane {l}");
        }
    }
}

#[test]
fn buffer_lds_tfe_rejections() {
    let cfg = config(Gen::Gfx9, KEEP_ALL);
    let lifted = |text: &str| lift(&asm(Gen::Gfx9, text), &cfg);
    assert!(matches!(
        lifted("buffer_load_dword v[1:2], v0, s[4:7], 0 offen lds tfe\ns_endpgm"),
        Err(LiftError {
            kind: LiftErrorKind::Invalid,
            ..
        })
    ));
    assert!(matches!(
        lifted("buffer_store_dword v[1:2], v0, s[4:7], 0 offen tfe\ns_endpgm"),
        Err(LiftError {
            kind: LiftErrorKind::Unsupported,
            ..
        })
    ));
    assert!(matches!(
        lifted("buffer_load_dwordx2 v[1:2], v0, s[4:7], 0 offen lds\ns_endpgm"),
        Err(LiftError {
            kind: LiftErrorKind::Unsupported,
            ..
        })
    ));
}
