//! Launch state of real fixture kernels checked against notes/amd_launch_abi.md §3.2 (the
//! observed SGPR layouts, the kernarg layouts, the dispatch packet fields) and against the
//! resource words LLVM's own legacy code builds.

mod loader_common;

use loader_common::{fixtures, read};
use wavejit_gcn::launch::{self, ArgValue, LaunchError, WaveAddresses};
use wavejit_gcn::loader::{self, Kernel};
use wavejit_isa::Grid;

fn kernel(dir: &str, name: &str) -> Kernel {
    let ext = if dir.starts_with("legacy-") {
        "o"
    } else {
        "hsaco"
    };
    loader::load(&read(dir, &format!("{name}.{ext}")))
        .unwrap()
        .kernel(name)
        .unwrap()
        .clone()
}

const ADDRS: WaveAddresses = WaveAddresses {
    kernarg: 0x1_2345_6000,
    dispatch_packet: 0x2_0000_0040,
    queue: 0,
    dispatch_id: 7,
    scratch_base: 0x3_0000_1000,
    scratch_wave_offset: 0x4400,
    gds: 0x5_0000_0000,
};

/// A grid of 64-lane waves (sizes valid for the tests that use it).
fn grid(global: [u32; 3], local: [u32; 3]) -> Grid {
    Grid::new(global, local, launch::WAVE_SIZE).unwrap()
}

fn sgpr_indices(state: &launch::WaveState) -> Vec<u8> {
    state.sgprs.iter().map(|&(i, _)| i).collect()
}

fn sgpr(state: &launch::WaveState, index: u8) -> u32 {
    state
        .sgprs
        .iter()
        .find(|&&(i, _)| i == index)
        .unwrap_or_else(|| panic!("s{index} not set"))
        .1
}

#[test]
fn hsa_dispatch_ptr_kernel_layout() {
    // notes §3.2: "uses get_local_size: s[0:3]=PSB, s[4:5]=dispatch_ptr, s[6:7]=kernarg,
    // s8=wg_id_x (s9=wg_id_y in 2D)".
    let k = kernel("tonga", "grid2d");
    let d = grid([40, 24, 1], [8, 8, 1]);
    let st = launch::wave_state(&k, &ADDRS, 8, &d.wave([3, 2, 0], 0)).unwrap();
    assert_eq!(sgpr_indices(&st), (0..10).collect::<Vec<u8>>());
    assert_eq!((sgpr(&st, 4), sgpr(&st, 5)), (0x0000_0040, 0x2));
    assert_eq!((sgpr(&st, 6), sgpr(&st, 7)), (0x2345_6000, 0x1));
    assert_eq!((sgpr(&st, 8), sgpr(&st, 9)), (3, 2));
    assert_eq!(sgpr(&st, 0), 0x0000_1000, "V# base low");
    assert_eq!(sgpr(&st, 1) & 0xffff, 0x3, "V# base high");
    // 2D: v0 = x, v1 = y; 64 work-items of an 8x8 group fill the wave.
    assert_eq!(st.vgprs.len(), 2);
    assert_eq!(st.exec, u64::MAX);
    for lane in 0..64 {
        assert_eq!(
            (st.vgprs[0].1[lane], st.vgprs[1].1[lane]),
            (lane as u32 % 8, lane as u32 / 8)
        );
    }
}

#[test]
fn hsa_reqd_workgroup_size_layout() {
    // notes §3.2: "reqd_work_group_size (float_conv): s[0:3]=PSB, s[4:5]=kernarg, s6=wg_id_x".
    let k = kernel("gfx900", "float_conv");
    let d = grid([256, 1, 1], [64, 1, 1]);
    let st = launch::wave_state(&k, &ADDRS, 9, &d.wave([2, 0, 0], 0)).unwrap();
    assert_eq!(sgpr_indices(&st), (0..7).collect::<Vec<u8>>());
    assert_eq!(
        (sgpr(&st, 4), sgpr(&st, 5), sgpr(&st, 6)),
        (0x2345_6000, 0x1, 2)
    );
    let wrong = grid([256, 1, 1], [32, 1, 1]);
    assert!(matches!(
        launch::wave_state(&k, &ADDRS, 9, &wrong.wave([0, 0, 0], 0)),
        Err(LaunchError::WorkgroupSizeMismatch {
            required: [64, 1, 1],
            ..
        })
    ));
}

#[test]
fn hsa_scratch_layouts() {
    // notes §3.2, gfx9: "s[0:3] PSB, s[4:5] dispatch, s[6:7] kernarg, s[8:9] flat_scratch_init,
    // s10 wg_id_x, s11 wave offset".
    let k = kernel("gfx900", "private_array");
    let d = grid([128, 1, 1], [64, 1, 1]);
    let st = launch::wave_state(&k, &ADDRS, 9, &d.wave([1, 0, 0], 0)).unwrap();
    assert_eq!(sgpr_indices(&st), (0..12).collect::<Vec<u8>>());
    assert_eq!(
        (sgpr(&st, 8), sgpr(&st, 9)),
        (0x0000_1000, 0x3),
        "gfx9 flat_scratch_init = scratch base"
    );
    assert_eq!((sgpr(&st, 10), sgpr(&st, 11)), (1, 0x4400));
    // gfx6: "... s8 = wg_id_x, s9 = private_segment_wave_byte_offset".
    let k6 = kernel("tahiti", "private_array");
    let st6 = launch::wave_state(&k6, &ADDRS, 6, &d.wave([1, 0, 0], 0)).unwrap();
    assert_eq!((sgpr(&st6, 8), sgpr(&st6, 9)), (1, 0x4400));
    assert_eq!(st6.sgprs.len(), 10);
    // The V#'s stride covers the private segment of one lane.
    let stride = launch::scratch_lane_stride(&k6);
    assert!(stride >= k6.private_segment_size && stride.is_multiple_of(4));
    assert_eq!(sgpr(&st6, 1) >> 16 & 0x3fff, stride);
    assert_eq!(
        launch::scratch_wave_offset(&k6, 3),
        3 * 64 * u64::from(stride)
    );
}

#[test]
fn legacy_layout_and_relocations() {
    // notes §3.2 legacy: "s[0:1] = kernarg pointer, then wg_id, then the private wave offset
    // (for example s2 = wg x, s3 = wave offset)".
    let k = kernel("legacy-tahiti", "private_array");
    let d = grid([128, 1, 1], [64, 1, 1]);
    let st = launch::wave_state(&k, &ADDRS, 6, &d.wave([1, 0, 0], 0)).unwrap();
    assert_eq!(
        st.sgprs,
        vec![(0, 0x2345_6000), (1, 0x1), (2, 1), (3, 0x4400)]
    );

    let rsrc = launch::scratch_rsrc(6, ADDRS.scratch_base, launch::scratch_lane_stride(&k));
    let code = launch::relocated_code(&k, rsrc);
    assert_eq!(k.scratch_relocs.len(), 2);
    for r in &k.scratch_relocs {
        let at = r.code_offset as usize;
        let word = u32::from_le_bytes(code[at..at + 4].try_into().unwrap());
        let expected = match r.word {
            loader::ScratchRsrcWord::Dword0 => rsrc[0],
            loader::ScratchRsrcWord::Dword1 => rsrc[1],
        };
        assert_eq!(word, expected);
    }
    let patched: Vec<usize> = k
        .scratch_relocs
        .iter()
        .flat_map(|r| r.code_offset as usize..r.code_offset as usize + 4)
        .collect();
    for (i, (a, b)) in code.iter().zip(&k.code).enumerate() {
        if !patched.contains(&i) {
            assert_eq!(a, b, "byte {i} changed");
        }
    }
}

/// The constant the legacy code moves into the scratch V#'s dword `n` ("s_mov_b32 sX, V"
/// following the SCRATCH_RSRC_DWORD1 line of the llc listing).
fn llc_rsrc_word(dir: &str, n: usize) -> u32 {
    let s = std::fs::read_to_string(fixtures().join(dir).join("private_array.s")).unwrap();
    let lines: Vec<&str> = s.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("SCRATCH_RSRC_DWORD1"))
        .unwrap();
    let value = lines[at + n - 1].rsplit(", ").next().unwrap();
    match value.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).unwrap(),
        None => value.parse::<i32>().unwrap() as u32,
    }
}

#[test]
fn scratch_rsrc_words_2_3_match_llvm() {
    for (dir, gfx) in [("legacy-tahiti", 6), ("legacy-gfx900", 9)] {
        let rsrc = launch::scratch_rsrc(gfx, 0x1234_5678_9abc, 272);
        assert_eq!(rsrc[2], llc_rsrc_word(dir, 2), "{dir}");
        assert_eq!(rsrc[3], llc_rsrc_word(dir, 3), "{dir}");
        assert_eq!(rsrc[0], 0x5678_9abc);
        assert_eq!(rsrc[1], 0x1234 | 272 << 16);
    }
    // llc-14 -mtriple=amdgcn-- -mcpu=tonga private_array: "s_mov_b32 s91, 0xe80000".
    assert_eq!(launch::scratch_rsrc(8, 0, 4)[3], 0xe8_0000);
}

#[test]
fn partial_waves_and_groups() {
    let k = kernel("gfx900", "collatz");
    // 100 work-items: wave 1 holds work-items 64..99.
    let d = grid([200, 1, 1], [100, 1, 1]);
    let st = launch::wave_state(&k, &ADDRS, 9, &d.wave([1, 0, 0], 1)).unwrap();
    assert_eq!(st.exec, (1u64 << 36) - 1);
    assert_eq!(st.vgprs.len(), 1);
    assert_eq!(st.vgprs[0].1[..36], (64..100).collect::<Vec<u32>>()[..]);
    assert!(st.vgprs[0].1[36..].iter().all(|&v| v == 0));
    assert!(launch::wave_state(&k, &ADDRS, 9, &d.wave([1, 0, 0], 2)).is_err());
    assert!(launch::wave_state(&k, &ADDRS, 9, &d.wave([2, 0, 0], 0)).is_err());
    // A grid of 40 with groups of 16: the third group has 8 work-items.
    let edge = grid([40, 1, 1], [16, 1, 1]);
    assert_eq!(edge.groups(), [3, 1, 1]);
    assert_eq!(edge.group_extent([2, 0, 0]), [8, 1, 1]);
    let st = launch::wave_state(&k, &ADDRS, 9, &edge.wave([2, 0, 0], 0)).unwrap();
    assert_eq!(st.exec, 0xff);
    // Empty or oversized groups are not grids.
    for local in [[0, 1, 1], [1024, 2, 1]] {
        assert!(Grid::new([2048, 2, 1], local, 64).is_err());
    }
    // Waves of another size are refused.
    let wave32 = Grid::new([64, 1, 1], [64, 1, 1], 32).unwrap();
    assert!(matches!(
        launch::wave_state(&k, &ADDRS, 9, &wave32.wave([0, 0, 0], 0)),
        Err(LaunchError::InvalidLaunch(_))
    ));
}

#[test]
fn hsa_kernarg_uses_metadata_offsets() {
    let k = kernel("fiji", "grid2d"); // (uint *out, const uint *in, uint w, uint h)
    let d = grid([40, 24, 1], [8, 8, 1]);
    let args = [
        ArgValue::Pointer(0x1111_2222_3333),
        ArgValue::Pointer(0x4444_5555_6666),
        ArgValue::U32(37),
        ArgValue::U32(23),
    ];
    let ka = launch::build_kernarg(&k, &d, &args).unwrap();
    // Natural layout from offset 0 (notes §3.2): pointers at 0 and 8, then 16 and 20.
    let mut want = Vec::new();
    want.extend(0x1111_2222_3333u64.to_le_bytes());
    want.extend(0x4444_5555_6666u64.to_le_bytes());
    want.extend(37u32.to_le_bytes());
    want.extend(23u32.to_le_bytes());
    assert_eq!(ka, want);

    assert!(matches!(
        launch::build_kernarg(&k, &d, &args[..3]),
        Err(LaunchError::ArgCount {
            expected: 4,
            got: 3,
            ..
        })
    ));
    let wrong_kind = [ArgValue::U64(1), args[1], args[2], args[3]];
    assert!(matches!(
        launch::build_kernarg(&k, &d, &wrong_kind),
        Err(LaunchError::ArgKind { index: 0, .. })
    ));
    let wrong_size = [args[0], args[1], ArgValue::U64(37), args[3]];
    assert!(matches!(
        launch::build_kernarg(&k, &d, &wrong_size),
        Err(LaunchError::ArgSize {
            index: 2,
            expected: 4,
            got: 8,
            ..
        })
    ));
}

#[test]
fn legacy_kernarg_has_the_implicit_header() {
    let k = kernel("legacy-gfx900", "grid2d");
    let d = grid([40, 24, 1], [8, 8, 1]);
    let args = [
        ArgValue::Pointer(0xaaaa_0000_0010),
        ArgValue::Pointer(0xbbbb_0000_0020),
        ArgValue::U32(37),
        ArgValue::U32(23),
    ];
    let ka = launch::build_kernarg(&k, &d, &args).unwrap();
    let dword = |i: usize| u32::from_le_bytes(ka[4 * i..4 * i + 4].try_into().unwrap());
    // ngroups, global size, local size (notes §2.3 / §3.2).
    assert_eq!(
        (0..9).map(dword).collect::<Vec<_>>(),
        vec![5, 3, 1, 40, 24, 1, 8, 8, 1]
    );
    // Pointers at 36 and 44 (only 4-byte aligned), then w at 52 and h at 56.
    assert_eq!(&ka[36..44], &0xaaaa_0000_0010u64.to_le_bytes());
    assert_eq!(&ka[44..52], &0xbbbb_0000_0020u64.to_le_bytes());
    assert_eq!((dword(13), dword(14)), (37, 23));
    assert_eq!(ka.len(), 60);
}

#[test]
fn dispatch_packet_fields() {
    let k = kernel("gfx900", "lds_reduce");
    let d = grid([1024, 3, 2], [256, 1, 2]);
    let p = launch::dispatch_packet(&k, &d, 0xdead_beef_0000, 0x1_2345_6000);
    let u16_at = |o: usize| u16::from_le_bytes([p[o], p[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(p[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(p[o..o + 8].try_into().unwrap());
    // notes §3.2: +4/+6/+8 u16 workgroup size, +12/+16/+20 u32 grid size.
    assert_eq!((u16_at(4), u16_at(6), u16_at(8)), (256, 1, 2));
    assert_eq!((u32_at(12), u32_at(16), u32_at(20)), (1024, 3, 2));
    // hsa_kernel_dispatch_packet_t: header type 2 (kernel dispatch), setup = 3 dimensions,
    // +24 private and +28 group segment sizes, +32 kernel object, +40 kernarg address.
    assert_eq!(u16_at(0) & 0xff, 2);
    assert_eq!(u16_at(2) & 3, 3);
    assert_eq!(u32_at(24), k.private_segment_size);
    assert_eq!(
        u32_at(28),
        2048,
        "lds_reduce has two 256-entry 4-byte LDS arrays"
    );
    assert_eq!((u64_at(32), u64_at(40)), (0xdead_beef_0000, 0x1_2345_6000));
}

/// The dispatcher's path (`GcnWaveInit`, written straight into the registers) and the
/// inspectable one (`wave_state` then `apply`) give every wave the same registers.
#[test]
fn wave_init_writes_what_wave_state_describes() {
    use wavejit_isa::testkit::RecordingSink;
    use wavejit_isa::WaveInit;
    for (dir, name, global, local) in [
        ("gfx900", "private_array", [200, 1, 1], [64, 1, 1]),
        ("tonga", "grid2d", [40, 24, 1], [8, 8, 1]),
        ("legacy-tahiti", "private_array", [128, 1, 1], [64, 1, 1]),
        ("gfx900", "matmul_tiled", [48, 32, 1], [16, 16, 1]),
    ] {
        let k = kernel(dir, name);
        let gfx = if dir.contains("tahiti") { 6 } else { 9 };
        let init =
            launch::GcnWaveInit::new(k.clone(), wavejit_gcn::lift::GcnLayout::new(), gfx, ADDRS);
        let g = grid(global, local);
        for linear in 0..g.group_count() {
            let group = g.group_id(linear);
            for w in 0..g.waves_in_group(group) {
                let wave = g.wave(group, w);
                let mut direct = RecordingSink::default();
                init.init(&wave, &mut direct).unwrap();
                let addrs = WaveAddresses {
                    scratch_wave_offset: launch::scratch_wave_offset(&k, wave.dispatch_wave())
                        as u32,
                    ..ADDRS
                };
                let mut described = RecordingSink::default();
                launch::wave_state(&k, &addrs, gfx, &wave)
                    .unwrap()
                    .apply(&wavejit_gcn::lift::GcnLayout::new(), &mut described);
                assert_eq!(direct, described, "{dir}/{name} group {group:?} wave {w}");
            }
        }
    }
}
