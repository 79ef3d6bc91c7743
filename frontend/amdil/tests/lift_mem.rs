//! Memory of OpenCL kernels on both engines: constant buffers (the cb0/cb1 convention,
//! relative addressing), raw UAV loads and stores into the arena (masks, gaps, alignment,
//! faults; byte, short and arena-sized forms; cache controls), the LDS across lanes with a
//! barrier and its byte, short, vector and structured forms.

mod lift_common;
use lift_common::*;
#[allow(dead_code)]
#[path = "il_common/programs.rs"]
mod programs;
use programs::VECTOR_ADD;

const ONE: u32 = 0x3f80_0000;

/// cb0 of a 64-work-item, one-group launch as DESIGN.md lays it out (dwords 0-2 global size,
/// 3 work_dim, 4-6 local size, 8-10 number of groups, 20-23 0.0, 0.5, 1.0, 2.0).
fn cb0() -> Vec<u32> {
    let mut w = vec![0u32; 40];
    w[..4].copy_from_slice(&[64, 1, 1, 1]);
    w[4..7].copy_from_slice(&[64, 1, 1]);
    w[8..11].copy_from_slice(&[1, 1, 1]);
    w[20..24].copy_from_slice(&[0, 0x3f00_0000, ONE, 0x4000_0000]);
    w
}

/// cb1 holding `args`, one 16-byte slot each (the argument in .x).
fn cb1(args: &[u32]) -> Vec<u32> {
    args.iter().flat_map(|&a| [a, 0, 0, 0]).collect()
}

#[test]
fn vector_add_through_cb1_arguments_and_the_arena() {
    let k = Kernel::new(VECTOR_ADD);
    let mut l = k.launch();
    let exec = 0xffff_0000_ffff_fff7u64;
    l.set_exec(exec);
    l.set_cb(0, &cb0());
    // a at byte 0, b at 256, c at 512 of the arena.
    l.set_cb(1, &cb1(&[0, 256, 512]));
    let mut arena = vec![0u32; 3 * 64];
    for i in 0..64 {
        arena[i] = 1000 * i as u32;
        arena[64 + i] = 7 + i as u32;
        arena[128 + i] = 0xcccc;
    }
    l.set_arena(&arena);
    let d = l.go();
    for i in 0..64u32 {
        let want = if exec >> i & 1 == 1 {
            1000 * i + 7 + i
        } else {
            0xcccc
        };
        assert_eq!(d.arena[128 + i as usize], want, "work-item {i}");
        assert_eq!(d.arena[i as usize], 1000 * i, "a is read only");
    }
}

#[test]
fn raw_loads_and_stores_follow_the_mask_with_gaps() {
    // Lane l loads dwords 4l and 4l + 2 of its 16-byte slot into x and z, stores x at
    // 4l + 64 * 4, z at 4l + 2 + 64 * 4 and 1.0f at 4l + 3 + 64 * 4; the unaligned address
    // 16l + 3 reads as 16l.
    let text = "il_cs_2_0
dcl_raw_uav_id(11)
dcl_literal l0, 0x00000004, 0x00000400, 0x00000003, 0x00000000
ishl r0.x___, vTidInGrpFlat.x, l0.x
iadd r0._y__, r0.x, l0.z
uav_raw_load_id(11) r1.x_z_, r0.y
iadd r0.x___, r0.x, l0.y
uav_raw_store_id(11) mem.x_z1, r0.x, r1
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_r(1, 1, |_| 0x1111);
    l.set_r(1, 3, |_| 0x2222);
    let arena: Vec<u32> = (0..512).map(|i| 0x10_0000 + i).collect();
    l.set_arena(&arena);
    let d = l.go();
    for lane in 0..64u32 {
        let (src, dst) = (4 * lane as usize, 256 + 4 * lane as usize);
        assert_eq!(d.r(1, 0, lane), arena[src]);
        assert_eq!(d.r(1, 1, lane), 0x1111, "y not loaded");
        assert_eq!(d.r(1, 2, lane), arena[src + 2]);
        assert_eq!(d.r(1, 3, lane), 0x2222, "w not loaded");
        assert_eq!(
            d.arena[dst..dst + 4],
            [arena[src], arena[dst + 1], arena[src + 2], ONE],
            "lane {lane}"
        );
    }
}

#[test]
fn an_access_outside_the_arena_is_a_fault_in_active_lanes_only() {
    let text = "il_cs_2_0
dcl_raw_uav_id(11)
uav_raw_load_id(11) r1.x___, r0.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_arena(&[0; 64]);
    l.set_r(0, 0, |lane| if lane == 33 { 256 } else { 4 * lane });
    let e = l.run().err().expect("byte 256 of a 256-byte arena");
    assert!(e.contains("out-of-bounds load from Global"), "{e}");
    l.set_exec(!(1 << 33));
    assert!(l.run().is_ok());
    let text = "il_cs_2_0
dcl_raw_uav_id(11)
uav_raw_store_id(11) mem.x___, r0.x, r0.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_arena(&[0; 64]);
    l.set_r(0, 0, |lane| 0x1000 + lane);
    let e = l.run().err().expect("a store past the arena");
    assert!(e.contains("out-of-bounds store to Global"), "{e}");
}

#[test]
fn constant_buffers_absolute_and_relative() {
    // r1 = cb0[1] (the local size), r2.x = cb0[5].z (1.0f), r3 = cb1[r0.x + 1] with r0.x =
    // lane - 1: elements 0..3 exist, the rest read 0; r4 = cb1[r5.x + 2] with a uniform
    // index past the end.
    let text = "il_cs_2_0
dcl_cb cb0[10]
dcl_cb cb1[4]
mov r1, cb0[1]
mov r2.x___, cb0[5].z
mov r3, cb1[r0.x+1]
mov r4, cb1[r5.x+2].wzyx
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_cb(0, &cb0());
    let elems: Vec<u32> = (0..16).map(|i| 0x100 + i).collect();
    l.set_cb(1, &elems);
    l.set_r(0, 0, |lane| lane.wrapping_sub(1));
    l.set_r(5, 0, |_| 2);
    let d = l.go();
    for lane in 0..64u32 {
        assert_eq!([0, 1, 2, 3].map(|c| d.r(1, c, lane)), [64, 1, 1, 0]);
        assert_eq!(d.r(2, 0, lane), ONE);
        for c in 0..4 {
            let want = if lane < 4 { 0x100 + 4 * lane + c } else { 0 };
            assert_eq!(d.r(3, c, lane), want, "lane {lane} component {c}");
            assert_eq!(d.r(4, c, lane), 0, "cb1[4] is past the end");
        }
    }
}

#[test]
fn lds_across_lanes_with_a_barrier() {
    // Lane l stores l*l at byte 4l, waits at the barrier, reads byte 4(63 - l); an address
    // past the LDS reads 0 and a store there is dropped.
    let text = "il_cs_2_0
dcl_num_thread_per_group 64
dcl_lds_id(1) 256
dcl_literal l0, 0x00000002, 0x0000003F, 0x00001000, 0x00000000
mov r0.x___, vTidInGrpFlat.x
imul r1.x___, r0.x, r0.x
ishl r2.x___, r0.x, l0.x
lds_store_id(1) r2.x, r1.x
fence_threads_lds
iadd r3.x___, r0.x_neg(x), l0.y
ishl r3.x___, r3.x, l0.x
lds_load_id(1) r4.x___, r3.x
iadd r5.x___, r2.x, l0.z
lds_store_id(1) r5.x, r1.x
lds_load_id(1) r6.x___, r5.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_lds(256);
    l.set_r(6, 0, |_| 0x77);
    let d = l.go();
    for lane in 0..64u32 {
        let other = 63 - lane;
        assert_eq!(d.r(4, 0, lane), other * other, "lane {lane}");
        assert_eq!(d.r(6, 0, lane), 0, "past the LDS");
        assert_eq!(d.lds_word(lane as usize), lane * lane);
    }
    assert_eq!(d.lds.len(), 256);
}

#[test]
fn fences_without_threads_order_nothing_and_cut_no_block() {
    let text = "il_cs_2_0
dcl_lds_id(0) 256
lds_store_id(0) r0.x, r1.x
fence_lds_memory
lds_load_id(0) r2.x___, r0.x
end
";
    let k = Kernel::new(text);
    assert_eq!(k.func.blocks.len(), 1);
    let mut l = k.launch();
    l.set_lds(256);
    l.set_r(0, 0, |lane| 4 * lane);
    l.set_r(1, 0, |lane| lane + 5);
    let d = l.go();
    assert_eq!(d.row(2, 0), (5..69).collect::<Vec<u32>>());
}

#[test]
fn a_token_stream_lifts_as_its_text() {
    let p = wavejit_amdil::parse::parse(VECTOR_ADD).unwrap();
    let bytes = wavejit_amdil::encode::encode(&p).unwrap();
    let q = wavejit_amdil::decode::decode(&bytes).unwrap();
    let a = wavejit_amdil::lift::lift(&p, "k").unwrap();
    let b = wavejit_amdil::lift::lift(&q, "k").unwrap();
    assert_eq!(a, b);
    // The guest pcs are the instructions' byte offsets: the first uav_raw_load's opcode.
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let load = words.iter().position(|&w| w & 0xffff == 225).unwrap() as u32;
    let pcs: Vec<u32> = a.blocks[0].insts.iter().map(|i| i.pc).collect();
    assert!(pcs.contains(&(4 * load)), "{pcs:?}");
}

/// LDS bytes 0, 1, ...: a pattern with both signs in every byte and short.
fn lds_pattern(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 37 + 0x75) as u8).collect()
}

#[test]
fn lds_byte_and_short_loads_extend_as_named() {
    // Byte loads at byte l, short loads at 2l + 1 (aligned down to 2l); lane 63 reads past
    // the 256 bytes, which gives 0 (the IR's LDS rule).
    let text = "il_cs_2_0
dcl_lds_id(1) 256
lds_load_byte_id(1) r1.x___, r0.x
lds_load_ubyte_id(1) r2.x___, r0.x
lds_load_short_id(1) r3.x___, r0.y
lds_load_ushort_id(1) r4.x___, r0.y
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let lds = lds_pattern(256);
    l.set_lds_bytes(&lds);
    l.set_r(0, 0, |lane| if lane == 63 { 300 } else { lane });
    l.set_r(0, 1, |lane| if lane == 63 { 301 } else { 2 * lane + 1 });
    let d = l.go();
    for lane in 0..63u32 {
        let b = lds[lane as usize];
        let s = u16::from_le_bytes([lds[2 * lane as usize], lds[2 * lane as usize + 1]]);
        assert_eq!(d.r(1, 0, lane), b as i8 as i32 as u32, "byte, lane {lane}");
        assert_eq!(d.r(2, 0, lane), u32::from(b), "ubyte, lane {lane}");
        assert_eq!(
            d.r(3, 0, lane),
            s as i16 as i32 as u32,
            "short, lane {lane}"
        );
        assert_eq!(d.r(4, 0, lane), u32::from(s), "ushort, lane {lane}");
    }
    assert!(lds.iter().any(|&b| b >= 0x80) && lds.iter().any(|&b| b < 0x80));
    for n in 1..5 {
        assert_eq!(d.r(n, 0, 63), 0, "r{n}: past the LDS");
    }
}

#[test]
fn lds_byte_and_short_stores_write_the_low_bits_of_active_lanes() {
    // Lane l stores the low byte of r1.x at byte l and the low short of r1.y at 64 + 2l (+1
    // on odd lanes: aligned down); lanes 3 and 40 are inactive.
    let text = "il_cs_2_0
dcl_lds_id(1) 256
lds_store_byte_id(1) r0.x, r1.x
lds_store_short_id(1) r0.y, r1.y
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let exec = !(1u64 << 3 | 1 << 40);
    l.set_exec(exec);
    let lds = lds_pattern(256);
    l.set_lds_bytes(&lds);
    l.set_r(0, 0, |lane| lane);
    l.set_r(0, 1, |lane| 64 + 2 * lane + (lane & 1));
    l.set_r(1, 0, |lane| 0x1234_5600 + 3 * lane);
    l.set_r(1, 1, |lane| 0xabcd_0000 + 0x0101 * lane);
    let d = l.go();
    let mut want = lds.clone();
    for lane in (0..64u32).filter(|&n| exec >> n & 1 == 1) {
        want[lane as usize] = (3 * lane) as u8;
        let s = (0x0101 * lane) as u16;
        want[64 + 2 * lane as usize..][..2].copy_from_slice(&s.to_le_bytes());
    }
    assert_eq!(d.lds, want);
}

#[test]
fn lds_vectors_follow_the_mask_with_gaps() {
    // Lane l writes r1.x, z, w at dwords 4l, 4l + 2, 4l + 3 (lane 5's address 16l + 3 aligns
    // down), then reads its neighbour's four dwords into r2.x, y, w.
    let text = "il_cs_2_0
dcl_num_thread_per_group 64
dcl_lds_id(1) 1024
lds_store_vec_id(1) mem.x_zw, r0.x, r9.x, r1
lds_load_vec_id(1) r2.xy_w, r0.y, r9.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let lds = lds_pattern(1024);
    l.set_lds_bytes(&lds);
    l.set_r(0, 0, |lane| 16 * lane + if lane == 5 { 3 } else { 0 });
    l.set_r(0, 1, |lane| 16 * ((lane + 1) % 64));
    for c in 0..4 {
        l.set_r(1, c, move |lane| 0x100 * lane + c);
    }
    l.set_r(2, 2, |_| 0x5555);
    let d = l.go();
    let word = |i: usize| u32::from_le_bytes(lds[4 * i..4 * i + 4].try_into().unwrap());
    for lane in 0..64u32 {
        let i = 4 * lane as usize;
        assert_eq!(
            [0, 1, 2, 3].map(|c| d.lds_word(i + c)),
            [
                0x100 * lane,
                word(i + 1),
                0x100 * lane + 2,
                0x100 * lane + 3
            ],
            "lane {lane}"
        );
        let n = (lane + 1) % 64;
        assert_eq!(
            [0, 1, 2, 3].map(|c| d.r(2, c, lane)),
            [0x100 * n, word(4 * n as usize + 1), 0x5555, 0x100 * n + 3]
        );
    }
}

#[test]
fn structured_lds_addresses_index_times_stride_plus_offset() {
    // 20 structures of 12 bytes. Lane l < 60 stores l at structure l % 20, byte 4 * (l / 20);
    // then each lane loads that dword, and the vector form reads a whole structure (its
    // offset in src1.x).
    let text = "il_cs_2_0
dcl_num_thread_per_group 64
dcl_struct_lds_id(2) 12, 20
lds_store_id(2) r0.xy, r1.x
fence_threads_lds
lds_load_id(2) r2.x___, r0.xy
lds_load_vec_id(2) r3.xyz_, r0.x, r9.x
end
";
    let k = Kernel::new(text);
    assert_eq!(k.layout.bindings.lds_bytes, 240);
    let mut l = k.launch();
    l.set_exec(u64::MAX >> 4);
    l.set_lds(240);
    l.set_r(0, 0, |lane| lane % 20);
    l.set_r(0, 1, |lane| 4 * (lane / 20));
    l.set_r(1, 0, |lane| 1000 + lane);
    l.set_r(9, 0, |_| 0);
    let d = l.go();
    for lane in 0..60u32 {
        assert_eq!(d.r(2, 0, lane), 1000 + lane);
        let s = lane % 20;
        assert_eq!(
            [0, 1, 2].map(|c| d.r(3, c, lane)),
            [1000 + s, 1020 + s, 1040 + s],
            "lane {lane}"
        );
        assert_eq!(
            d.lds_word(3 * s as usize + (lane / 20) as usize),
            1000 + lane
        );
    }
}

#[test]
fn raw_uav_byte_and_short_forms() {
    // AMD's post-v2.4 byte and short forms on a typeless UAV (no entry; the AMDIL back end's
    // operands): loads at byte l and short 2l + 1 (aligned down), stores of the low bytes of
    // the component mem's mask names.
    let text = "il_cs_2_0
dcl_typeless_uav_id(11)_stride(4)_length(4)_access(read_write)
uav_byte_load_id(11)_cached r1.x___, r0.x
uav_ubyte_load_id(11) r2.x___, r0.x
uav_short_load_id(11) r3.x___, r0.y
uav_ushort_load_id(11)_cached r4.x___, r0.y
uav_byte_store_id(11) mem._y__, r0.z, r5
uav_short_store_id(11) mem.x___, r0.w, r5
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let arena: Vec<u32> = (0..128u32)
        .map(|i| 0x8070_f00fu32.rotate_left(i) ^ (0x0101_0101 * i))
        .collect();
    let bytes: Vec<u8> = arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| lane);
    l.set_r(0, 1, |lane| 2 * lane + 1);
    l.set_r(0, 2, |lane| 256 + lane);
    l.set_r(0, 3, |lane| 384 + 2 * lane);
    l.set_r(5, 0, |lane| 0xaaaa_0000 + lane);
    l.set_r(5, 1, |lane| 0x5555_5500 + 2 * lane);
    let d = l.go();
    let mut want = bytes.clone();
    for lane in 0..64u32 {
        let b = bytes[lane as usize];
        let s = u16::from_le_bytes([bytes[2 * lane as usize], bytes[2 * lane as usize + 1]]);
        assert_eq!(d.r(1, 0, lane), b as i8 as i32 as u32);
        assert_eq!(d.r(2, 0, lane), u32::from(b));
        assert_eq!(d.r(3, 0, lane), s as i16 as i32 as u32);
        assert_eq!(d.r(4, 0, lane), u32::from(s));
        want[256 + lane as usize] = (2 * lane) as u8;
        want[384 + 2 * lane as usize..][..2].copy_from_slice(&(lane as u16).to_le_bytes());
    }
    let got: Vec<u8> = d.arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(got, want);
}

#[test]
fn arena_uav_sized_loads_and_stores() {
    // dcl_arena_uav (L9900): loads zero-extend into the one component the mask writes; a
    // store's address is its destination register (AMD's ArenaLSInst), its data src0.x.
    let text = "il_cs_2_0
dcl_arena_uav_id(8)
uav_arena_load_id(8)_size(byte) r1._y__, r0.x
uav_arena_load_id(8)_size(short)_cached r1.__z_, r0.x
uav_arena_load_id(8)_size(dword) r1.___w, r0.x
uav_arena_store_id(8)_size(byte) r0.y, r2.x
uav_arena_store_id(8)_size(short) r0.z, r2.x
uav_arena_store_id(8)_size(dword) r0.w, r2.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let arena: Vec<u32> = (0..256u32)
        .map(|i| 0xf1e2_d3c4 ^ i.wrapping_mul(0x9e37_79b9))
        .collect();
    let bytes: Vec<u8> = arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    l.set_arena(&arena);
    // Loads at 4l + 3 (bytes), aligned down to 4l + 2 (shorts) and 4l (dwords).
    l.set_r(0, 0, |lane| 4 * lane + 3);
    l.set_r(0, 1, |lane| 256 + lane);
    l.set_r(0, 2, |lane| 384 + 2 * lane);
    l.set_r(0, 3, |lane| 512 + 4 * lane);
    l.set_r(1, 0, |_| 0x7777);
    l.set_r(2, 0, |lane| 0x8765_4300 + lane);
    let d = l.go();
    let mut want = bytes.clone();
    for lane in 0..64u32 {
        let i = 4 * lane as usize;
        assert_eq!(d.r(1, 0, lane), 0x7777);
        assert_eq!(d.r(1, 1, lane), u32::from(bytes[i + 3]));
        assert_eq!(
            d.r(1, 2, lane),
            u32::from(u16::from_le_bytes([bytes[i + 2], bytes[i + 3]]))
        );
        assert_eq!(d.r(1, 3, lane), arena[lane as usize]);
        let v = 0x8765_4300 + lane;
        want[256 + lane as usize] = v as u8;
        want[384 + 2 * lane as usize..][..2].copy_from_slice(&(v as u16).to_le_bytes());
        want[512 + i..][..4].copy_from_slice(&v.to_le_bytes());
    }
    let got: Vec<u8> = d.arena.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(got, want);
}

#[test]
fn cache_controls_change_nothing() {
    // AMD's compiler's spellings: `_cached`, `_ctl(n)` on loads and declarations.
    let text = "il_cs_2_0
dcl_typeless_uav_id(10)_stride(4)_length(4)_access(read_write)_ctl(11)
dcl_typeless_uav_id(11)_stride(4)_length(4)_access(read_write)_ctl(4)
uav_raw_load_id(10)_cached_ctl(4) r1, r0.x
uav_raw_load_id(11)_uncached r2, r0.x
uav_raw_load_id(11) r3, r0.x
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    let arena: Vec<u32> = (0..256).map(|i| 0x3000 + i).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| 16 * lane);
    let d = l.go();
    for c in 0..4 {
        let want: Vec<u32> = (0..64).map(|lane| 0x3000 + 4 * lane + c).collect();
        for n in 1..4 {
            assert_eq!(d.row(n, c), want, "r{n}.{c}");
        }
    }
}
