//! UAVs and SRVs with bounds, on both engines: private UAVs (each lane's own bytes), structured
//! UAVs and SRVs, raw SRVs and the GDS, all views of the arena the launch describes in the
//! `view` cells (`state.rs`); out of range a load gives 0 and a store writes nothing.

mod lift_common;
use lift_common::*;
use wavejit_amdil::lift::state::{view, View};

#[test]
fn private_uavs_are_each_lanes_own_bytes() {
    // AMD's scratch declaration: 16 bytes per work-item. Every lane stores its r1.xy at
    // private byte 4 (lane 7 at 10, aligned down to 8), reads its first four dwords back,
    // reads byte 16 (past the length: 0), and stores at 16 (dropped, although the launch gave
    // 32 bytes) and at 12.
    let text = "il_cs_2_0
dcl_typeless_uav_id(8)_stride(4)_length(16)_access(private)_ctl(11)
uav_raw_store_id(8) mem.xy__, r0.x, r1
uav_raw_load_id(8) r2, r0.y
uav_raw_load_id(8) r3.x___, r0.z
uav_raw_store_id(8) mem.x___, r0.z, r1.z
uav_raw_store_id(8) mem.x___, r0.w, r1.w
end
";
    let k = Kernel::new(text);
    assert_eq!(k.layout.bindings.private_lane_bytes, 16);
    let mut l = k.launch();
    l.set_exec(!(1 << 20));
    l.set_r(0, 0, |lane| if lane == 7 { 10 } else { 4 });
    l.set_r(0, 1, |_| 0);
    l.set_r(0, 2, |_| 16);
    l.set_r(0, 3, |_| 12);
    for c in 0..4 {
        l.set_r(1, c, move |lane| 0x1000 * (c + 1) + lane);
    }
    l.set_r(3, 0, |_| 0x99);
    let init = |lane: u32| -> Vec<u8> { (0..32).map(|i| (lane * 32 + i) as u8).collect() };
    let (s, private) = run_private(&l, 32, init).unwrap();
    let r = |n, c, lane| s.lane(k.layout.temp(n, c), lane);
    for lane in 0..64u32 {
        let mut want = init(lane);
        let word = |w: &Vec<u8>, i: usize| u32::from_le_bytes(w[i..i + 4].try_into().unwrap());
        if lane != 20 {
            let at = if lane == 7 { 8 } else { 4 };
            want[at..at + 4].copy_from_slice(&(0x1000 + lane).to_le_bytes());
            want[at + 4..at + 8].copy_from_slice(&(0x2000 + lane).to_le_bytes());
            let loaded: Vec<u32> = (0..4).map(|c| word(&want, 4 * c)).collect();
            assert_eq!((0..4).map(|c| r(2, c, lane)).collect::<Vec<_>>(), loaded);
            assert_eq!(r(3, 0, lane), 0, "byte 16 is past the length");
            want[12..16].copy_from_slice(&(0x4000 + lane).to_le_bytes());
        } else {
            assert_eq!(r(3, 0, lane), 0x99, "inactive");
        }
        assert_eq!(
            &private[32 * lane as usize..][..32],
            &want[..],
            "lane {lane}"
        );
    }
}

#[test]
fn structured_uavs_check_the_index_and_the_offset() {
    // 10 structures of 12 bytes at arena byte 64. Lanes 0-9 store r1.xyz at structure l
    // (lane 5 at offset 4: its z would end at byte 16 of 12 and is dropped); lanes 10-63
    // name structures past the count (dropped). Then structure (3l) % 12, offset 0 or 8, is
    // loaded: past the count or the stride it reads 0.
    let text = "il_cs_2_0
dcl_struct_uav_id(3) 12
uav_struct_store_id(3) mem.xyz_, r0.xy, r1
uav_struct_load_id(3) r2, r0.zw
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_view(View::Uav(3), &[(view::OFFSET, 64), (view::SIZE, 10)]);
    let arena: Vec<u32> = (0..64).map(|i| 0xe000 + i).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| lane);
    l.set_r(0, 1, |lane| if lane == 5 { 4 } else { 0 });
    l.set_r(0, 2, |lane| 3 * lane % 12);
    l.set_r(0, 3, |lane| if lane % 2 == 1 { 8 } else { 0 });
    for c in 0..3 {
        l.set_r(1, c, move |lane| 0x100 * lane + c);
    }
    let d = l.go();
    let mut want = arena.clone();
    for lane in 0..10u32 {
        let first = 16 + 3 * lane as usize + if lane == 5 { 1 } else { 0 };
        for c in 0..3 {
            if first + c < 16 + 3 * lane as usize + 3 {
                want[first + c] = 0x100 * lane + c as u32;
            }
        }
    }
    assert_eq!(d.arena, want);
    for lane in 0..64u32 {
        let (index, offset) = (3 * lane % 12, if lane % 2 == 1 { 8 } else { 0 });
        for c in 0..4u32 {
            let byte = offset + 4 * c;
            let v = if index < 10 && byte + 4 <= 12 {
                want[16 + 3 * index as usize + byte as usize / 4]
            } else {
                0
            };
            assert_eq!(d.r(2, c, lane), v, "lane {lane} component {c}");
        }
    }
}

#[test]
fn srvs_are_read_only_views_with_bounds() {
    // A raw SRV of 40 bytes at arena byte 256 and a structured one of 5 structures of 8
    // bytes at 512 (dcl_raw_srv L9953, dcl_struct_srv L10048).
    let text = "il_cs_2_0
dcl_raw_srv_id(2)
dcl_struct_srv_id(4) 8
srv_raw_load_id(2) r1, r0.x
srv_struct_load_id(4) r2.xy_w, r0.yz
end
";
    let k = Kernel::new(text);
    let mut l = k.launch();
    l.set_view(View::Srv(2), &[(view::OFFSET, 256), (view::SIZE, 40)]);
    l.set_view(View::Srv(4), &[(view::OFFSET, 512), (view::SIZE, 5)]);
    let arena: Vec<u32> = (0..256).map(|i| 0xa0000 + i).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| 4 * lane + 2);
    l.set_r(0, 1, |lane| lane % 7);
    l.set_r(0, 2, |lane| 4 * (lane % 3));
    l.set_r(2, 2, |_| 0x4242);
    let d = l.go();
    for lane in 0..64u32 {
        for c in 0..4u32 {
            let byte = 4 * lane + 4 * c;
            let raw = if byte + 4 <= 40 {
                arena[64 + byte as usize / 4]
            } else {
                0
            };
            assert_eq!(d.r(1, c, lane), raw, "raw: lane {lane} component {c}");
            let (index, offset) = (lane % 7, 4 * (lane % 3) + 4 * c);
            let s = if index < 5 && offset + 4 <= 8 {
                arena[128 + 2 * index as usize + offset as usize / 4]
            } else {
                0
            };
            let want = if c == 2 { 0x4242 } else { s };
            assert_eq!(d.r(2, c, lane), want, "struct: lane {lane} component {c}");
        }
    }
    assert_eq!(d.arena, arena, "read only");
}

#[test]
fn the_gds_is_a_bounded_view_shared_by_its_ids() {
    // 64 bytes of GDS at arena byte 0x300 (two ids, both from byte 0): lane l stores at 4l
    // through id 0 and loads 4(l + 1) through id 1; from lane 15 on the addresses are past the
    // 64 bytes: loads give 0 and stores are dropped.
    let text = "il_cs_2_0
dcl_gds_id(0) 64
dcl_gds_id(1) 32
gds_store_id(0) mem, r0.x, r1.x
gds_load_id(1) r2.x___, r0.y
end
";
    let k = Kernel::new(text);
    assert_eq!(k.layout.bindings.gds_bytes, 64);
    let mut l = k.launch();
    l.set_view(View::Gds, &[(view::OFFSET, 0x300)]);
    let arena: Vec<u32> = (0..256).map(|i| 0xb0000 + i).collect();
    l.set_arena(&arena);
    l.set_r(0, 0, |lane| 4 * lane);
    l.set_r(0, 1, |lane| 4 * lane + 4);
    l.set_r(1, 0, |lane| 0x700 + lane);
    let d = l.go();
    let mut want = arena.clone();
    for lane in 0..16u32 {
        want[0xc0 + lane as usize] = 0x700 + lane;
    }
    assert_eq!(d.arena, want);
    for lane in 0..64u32 {
        let v = if lane < 15 { 0x700 + lane + 1 } else { 0 };
        assert_eq!(d.r(2, 0, lane), v, "lane {lane}");
    }
}

#[test]
fn memory_refusals_name_the_rule() {
    use wavejit_amdil::lift::LiftErrorKind::{Invalid, Unsupported};
    let refused = |body: &str, kind, has: &str| {
        let text = format!("il_cs_2_0\n{body}end\n");
        let p = wavejit_amdil::parse::parse(&text).unwrap_or_else(|e| panic!("{text}{e}"));
        let e = wavejit_amdil::lift::lift(&p, "t").expect_err(&text);
        assert_eq!(e.kind, kind, "{e}");
        assert!(e.to_string().contains(has), "{e} lacks {has:?}");
        assert!(!e.to_string().contains('\n'));
    };
    refused(
        "dcl_raw_uav_id(1)\nuav_struct_load_id(1) r0, r1.xy\n",
        Invalid,
        "UAV 1 is not declared structured",
    );
    refused(
        "srv_raw_load_id(2) r0, r1.x\n",
        Invalid,
        "SRV 2 is not declared",
    );
    refused(
        "dcl_struct_srv_id(2) 8\nsrv_raw_load_id(2) r0, r1.x\n",
        Invalid,
        "SRV 2 is not declared raw",
    );
    refused(
        "dcl_struct_srv_id(2) 8\nsrv_struct_load_ext_id(2) r0, r1.xy, r2.x\n",
        Unsupported,
        "indexed resource id",
    );
    refused(
        "gds_load_id(0) r0.x___, r1.x\n",
        Invalid,
        "GDS 0 is not declared",
    );
    refused("dcl_struct_uav_id(1) 6\n", Invalid, "stride 6");
    refused(
        "dcl_typeless_uav_id(1)_stride(8)_length(4)_access(read_write)\n",
        Unsupported,
        "only stride 4",
    );
    refused(
        "dcl_typed_uav_id(1) 0x00000000\n",
        Unsupported,
        "dcl_typed_uav",
    );
    refused(
        "dcl_raw_uav_id(1)\ndcl_struct_uav_id(1) 8\n",
        Invalid,
        "UAV 1 is declared twice, differently",
    );
    refused(
        "dcl_raw_uav_id(1)\nuav_read_add_id(1) r0.xy__, r1.x, r2.x\n",
        Invalid,
        "exactly one component",
    );
    refused(
        "dcl_lds_id(0) 16\nlds_read_add_id(0) r0._y__, r1.x, r2.x\n",
        Invalid,
        "into dst.x",
    );
    refused(
        "dcl_arena_uav_id(8)\nuav_arena_store_id(8)_size(byte) x0[0].x, r1.x\n",
        Unsupported,
        "only as a temp",
    );
    refused(
        "dcl_lds_id(0) 16\nlds_store_vec_id(0) r0, r1.x, r2.x, r3\n",
        Invalid,
        "mem, its write mask",
    );
}
