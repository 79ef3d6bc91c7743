//! Memory families on both engines: scalar loads, FLAT/GLOBAL, MUBUF (addr64, range
//! checks, swizzled scratch with ADD_TID) and DS. Expected values follow CLRX
//! doc/GcnMemHandling.md and GcnInstrsDs.md, computed here independently of the lifter.
mod lift_common;
mod lift_programs;

use lift_common::*;
use lift_programs as p;
use wavejit_gcn::Gen;

fn le(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn global_loads_stores_atomics_gfx9() {
    let exec = 0x0000_ffff_ffff_ffffu64;
    let data = |i: u32| 0x8000_0000 | i.wrapping_mul(0x0103_0507);
    let mut init: Vec<u32> = (0..64).map(data).collect();
    init.extend((0..64).map(|i| 0xdead_0000 + i));
    init.extend((0..64).map(|i| 1000 + i));
    let mut w = Wave::new();
    let buf = w.buffer(&le(&init));
    let karg = w.buffer(&le(&[buf as u32, (buf >> 32) as u32, 7]));
    w.set_s64(0, karg);
    w.set_exec(exec);
    w.set_v_all(0, |l| l);
    w.lift_run(p::MEM_GLOBAL_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let out = w.read_u32(buf, 192);
    for l in 0..64u32 {
        let on = exec >> l & 1 != 0;
        let i = l as usize;
        assert_eq!(
            out[64 + i],
            if on {
                data(l).wrapping_add(7)
            } else {
                0xdead_0000 + l
            },
            "store lane {l}"
        );
        assert_eq!(out[128 + i], 1000 + l + on as u32, "atomic lane {l}");
        if on {
            assert_eq!(w.v(4, l), 1000 + l, "atomic returns the old value");
            let hi = data(l) >> 16;
            assert_eq!(
                w.v(5, l),
                hi | (data(l) & 0xffff) << 16,
                "ushort + short_d16_hi lane {l}"
            );
            assert_eq!(
                w.v(6, l),
                (data(l) >> 24) as u8 as i8 as i32 as u32,
                "sbyte lane {l}"
            );
        }
    }
}

#[test]
fn flat_gfx7() {
    let mut w = Wave::new();
    let init: Vec<u32> = (0..64).map(|i| i * 11).collect();
    let buf = w.buffer(&le(&init));
    let karg = w.buffer(&le(&[buf as u32, (buf >> 32) as u32, 5]));
    w.set_s64(0, karg);
    w.set_v_all(0, |l| l);
    w.lift_run(p::MEM_FLAT_GFX7, &config(Gen::Gfx7, FLUSH_F32));
    let out = w.read_u32(buf, 64);
    for l in 0..64u32 {
        let stored = l * 11 + 5;
        assert_eq!(w.v(4, l), stored);
        assert_eq!(out[l as usize], 2 * stored);
    }
}

#[test]
fn mubuf_addr64_is_not_range_checked_gfx6() {
    let mut w = Wave::new();
    let init: Vec<u32> = (0..128).map(|i| i * 3).collect();
    let buf = w.buffer(&le(&init));
    // V# with NUM_RECORDS = 0, as LLVM builds it for addr64 (s6 = 0, s7 = 0xf000).
    w.set_s64(4, buf);
    w.set_v_all(0, |l| l);
    w.lift_run(p::MUBUF_ADDR64_GFX6, &config(Gen::Gfx6, FLUSH_F32));
    let out = w.read_u32(buf, 128);
    for l in 0..64usize {
        assert_eq!(out[64 + l], l as u32 * 3 + 1);
    }
}

#[test]
fn mubuf_range_checks_gfx9() {
    let mut w = Wave::new();
    let a: Vec<u32> = (0..64).map(|i| 100 + i).collect();
    let buf = w.buffer(&le(&a));
    let buf2 = w.buffer(&vec![0u8; 1024]);
    let vsharp = |w: &mut Wave, s: u32, base: u64, num: u32| {
        w.set_s(s, base as u32);
        w.set_s(s + 1, (base >> 32) as u32 & 0xffff);
        w.set_s(s + 2, num);
        w.set_s(s + 3, 0);
    };
    vsharp(&mut w, 4, buf, 40);
    vsharp(&mut w, 8, buf2, 300);
    w.set_s(12, 256);
    w.set_v_all(0, |l| l);
    for r in [2, 4, 5, 6] {
        w.set_v_all(r, |_| 0xffff_ffff);
    }
    w.lift_run(p::MUBUF_RANGE_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let out2 = w.read_u32(buf2, 256);
    let out = w.read_u32(buf, 64);
    for l in 0..64u32 {
        // Raw buffer: offset = 4l (+ inst offset); in range iff offset + soffset < NUM_RECORDS.
        let ok = |off: u32, soff: u32, num: u32| off + soff < num;
        assert_eq!(
            w.v(2, l),
            if ok(4 * l, 0, 40) { 100 + l } else { 0 },
            "load lane {l}"
        );
        let st = (256 + 4 * l + 4) / 4;
        assert_eq!(
            out2[st as usize],
            if ok(4 * l + 4, 256, 300) { l } else { 0 },
            "store lane {l}"
        );
        assert_eq!(
            w.v(4, l),
            if ok(32 + 4 * l, 0, 40) {
                100 + l + 8
            } else {
                0
            },
            "x2 comp 0 lane {l}"
        );
        assert_eq!(
            w.v(5, l),
            if ok(36 + 4 * l, 0, 40) {
                100 + l + 9
            } else {
                0
            },
            "x2 comp 1 lane {l}"
        );
        let in_range = ok(4 * l, 0, 40);
        assert_eq!(
            w.v(6, l),
            if in_range { 100 + l } else { 0 },
            "atomic return lane {l}"
        );
        assert_eq!(
            out[l as usize],
            100 + l + if in_range { 5 } else { 0 },
            "atomic lane {l}"
        );
    }
}

#[test]
fn mubuf_swizzled_scratch_gfx8() {
    let mut w = Wave::new();
    let buf = w.buffer(&vec![0u8; 4096]);
    // LLVM's scratch V#: SWIZZLE_EN, STRIDE 0, NUM_RECORDS -1, word3 0xe8f000 (ADD_TID,
    // INDEX_STRIDE 64, ELEMSIZE 4).
    w.set_s(0, buf as u32);
    w.set_s(1, ((buf >> 32) as u32 & 0xffff) | 1 << 31);
    w.set_s(2, u32::MAX);
    w.set_s(3, 0x00e8_f000);
    w.set_s(4, 16);
    w.set_v_all(0, |l| l);
    w.set_v_all(1, |l| l * 10);
    w.set_v_all(2, |l| 4 * (l % 3) + 20);
    w.lift_run(p::MUBUF_SCRATCH_GFX8, &config(Gen::Gfx8, FLUSH_F32));
    let (elem, istride, stride) = (4u32, 64u32, w.s(1) >> 16 & 0x3fff);
    let addr = |lane: u32, aoff: u32| {
        16 + aoff % elem
            + elem * (lane % istride)
            + istride * ((lane / istride) * stride + aoff / elem * elem)
    };
    let mem = w.read_u32(buf, 1024);
    for l in 0..64u32 {
        assert_eq!(mem[(addr(l, 8) / 4) as usize], l, "store 1 lane {l}");
        assert_eq!(
            mem[(addr(l, 4 * (l % 3) + 20) / 4) as usize],
            l * 10,
            "store 2 lane {l}"
        );
        assert_eq!(w.v(3, l), l, "load lane {l}");
    }
}

#[test]
fn lds_gfx9() {
    let mut w = Wave::new();
    let exec = u64::MAX;
    w.set_v_all(0, |l| l);
    w.set_v_all(2, |l| 1000 + l);
    w.set_v_all(3, |_| 1);
    w.set_v_all(10, |l| 4 * ((l + 1) % 64));
    w.set_v_all(12, |l| l * 0x0101);
    w.set_v_all(13, |l| 0xabc0_0000 | l);
    w.set_exec(exec);
    w.lift_run(p::DS_GFX9, &config(Gen::Gfx9, KEEP_ALL));
    let lds = |w: &Wave, at: usize| {
        u32::from_le_bytes([w.lds[at], w.lds[at + 1], w.lds[at + 2], w.lds[at + 3]])
    };
    for l in 0..64u32 {
        let i = l as usize;
        assert_eq!(w.v(4, l), l, "read2 first");
        assert_eq!(
            w.v(5, l),
            if l < 63 { l + 1 } else { 0 },
            "read2 second lane {l}"
        );
        assert_eq!(w.v(6, l), l + 1, "add_rtn returns the old value");
        assert_eq!(w.v(7, l), l + 2);
        assert_eq!(lds(&w, 4 * i + 1024), l, "write2st64 offset0:4");
        assert_eq!(w.v(8, l), l ^ 16, "swizzle SWAP,16");
        assert_eq!(w.v(9, l), (l + 1) % 64, "bpermute");
        assert_eq!(w.v(11, l), (l + 2) >> 8 & 0xff, "read_u8 offset:1");
        assert_eq!(
            w.v64(14, l),
            (0xabc0_0000u64 | l as u64) << 32 | (l * 0x0101) as u64,
            "b64"
        );
    }
    // write2st64 offset1:8 landed at 2048 + 4l before the b64 stores replaced it.
    assert_eq!(lds(&w, 2048 + 8 * 63 + 8), 0);
}

#[test]
fn scalar_loads_gfx6() {
    let mut w = Wave::new();
    let karg = w.buffer(&le(&[10, 11, 12, 13, 14, 15]));
    let buf = w.buffer(&le(&[20, 21, 22, 23, 24, 25]));
    w.set_s64(0, karg);
    w.set_s(16, buf as u32);
    w.set_s(17, (buf >> 32) as u32 & 0xffff);
    w.set_s(18, 16);
    w.set_s(19, 0);
    w.lift_run(p::SMEM_GFX6, &config(Gen::Gfx6, FLUSH_F32));
    assert_eq!(
        (w.s(4), w.s(5)),
        (12, 13),
        "immediate offsets are dwords on gfx6"
    );
    assert_eq!(w.s(6), 13, "SGPR offsets are bytes");
    assert_eq!(
        (w.s(12), w.s(13)),
        (23, 0),
        "s_buffer_load beyond NUM_RECORDS reads 0"
    );
}
