//! The launch ABI against the notes (notes/amd_launch_abi.md §2.3) and against where llc's
//! listings read things from: every kernel argument and header value each fixture and the
//! argument probe (tests/fixtures/terascale/args_probe.cl) read from constant buffer 0.

mod loader_common;

use std::collections::BTreeSet;

use loader_common::{fixtures, kernels, listing, CHIPS};
use wavejit_isa::Grid;
use wavejit_terascale::launch::{
    self, arg_offsets, constant_buffer0, kcache_slot, wave_size, ArgValue, Resource,
};
use wavejit_terascale::Chip;

/// The dwords of constant buffer 0 a listing reads through `KC0[i].c`.
fn kc0_dwords(lines: &[String]) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    for line in lines {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("KC0[") {
            rest = &rest[at + 4..];
            let Some((index, tail)) = rest.split_once("].") else {
                continue;
            };
            let Ok(index) = index.parse::<u32>() else {
                continue; // the clause header's "KC0[CB0:0-32]"
            };
            let channel = "XYZW".find(&tail[..1]).unwrap() as u32;
            out.insert(4 * index + channel);
        }
    }
    out
}

/// (fetch buffer id, bytes, OFFSET) of every `VTX_READ_<bits> dst, src, OFFSET, #id`.
fn fetches(lines: &[String]) -> Vec<(u32, u32, u32)> {
    lines
        .iter()
        .filter_map(|l| {
            let rest = l.strip_prefix("VTX_READ_")?;
            let (bits, operands) = rest.split_once(' ')?;
            let f: Vec<&str> = operands.split(", ").collect();
            let id = f[3].trim_start_matches('#').parse().ok()?;
            Some((id, bits.parse::<u32>().ok()? / 8, f[2].parse().ok()?))
        })
        .collect()
}

/// The argument values of a fixture kernel, from the manifest's CLI specs (`buf:`/`zero:`
/// buffers become pointers; the fixtures' scalars are `u32` and `f32`).
fn manifest_args(kernel: &str) -> Vec<ArgValue> {
    let text = std::fs::read_to_string(fixtures().join("../manifest.json")).unwrap();
    let entry = text
        .split("\"kernel\": ")
        .find(|e| e.starts_with(&format!("\"{kernel}\"")))
        .unwrap_or_else(|| panic!("{kernel} not in the manifest"));
    let args = entry.split("\"args\": [").nth(1).unwrap();
    let args = &args[..args.find(']').unwrap()];
    args.split(',')
        .map(|spec| {
            let spec = spec.trim().trim_matches('"');
            match spec.split_once(':').unwrap() {
                ("buf" | "zero", _) => ArgValue::Offset(0),
                ("u32", v) => ArgValue::U32(v.parse().unwrap()),
                ("f32", v) => ArgValue::F32(v.parse().unwrap()),
                other => panic!("{kernel}: unexpected argument spec {other:?}"),
            }
        })
        .collect()
}

/// The dwords of constant buffer 0 the arguments occupy.
fn arg_dwords(args: &[ArgValue]) -> BTreeSet<u32> {
    args.iter()
        .zip(arg_offsets(args))
        .flat_map(|(a, at)| (at / 4..(at + a.bytes().len() as u32).div_ceil(4)).collect::<Vec<_>>())
        .collect()
}

#[test]
fn header_is_ngroups_global_local() {
    let d = Grid::new([40, 24, 3], [8, 16, 2], 64).unwrap();
    let cb = constant_buffer0(&d, &[ArgValue::Offset(0x1234), ArgValue::U32(7)]);
    let dword = |i: usize| u32::from_le_bytes(cb[4 * i..4 * i + 4].try_into().unwrap());
    // ngroups rounds a partial group up (24 / 16 -> 2, 3 / 2 -> 2).
    let expected = [5, 2, 2, 40, 24, 3, 8, 16, 2, 0x1234, 7];
    assert_eq!((0..11).map(dword).collect::<Vec<_>>(), expected);
    assert_eq!(cb.len(), 48, "padded to whole vec4 constants");
    assert_eq!(launch::IMPLICIT_HEADER_BYTES, 36);
}

/// The notes' worked example: vec_math(out, a, b, c, n) reads KC0[2].Y, `[2]`.Z, `[2]`.W, `[3]`.X,
/// `[3]`.Y.
#[test]
fn notes_example_kcache_slots() {
    let args = [ArgValue::Offset(0); 4]
        .into_iter()
        .chain([ArgValue::U32(0)])
        .collect::<Vec<_>>();
    let slots: Vec<(u32, u32)> = arg_offsets(&args)
        .iter()
        .map(|o| kcache_slot(o / 4))
        .collect();
    assert_eq!(slots, [(2, 1), (2, 2), (2, 3), (3, 0), (3, 1)]);
}

/// Natural alignment counts from the end of the header: u64 after a u32 sits at 36+8 = 44.
#[test]
fn natural_alignment_is_relative_to_the_header() {
    let args = [
        ArgValue::Offset(0),
        ArgValue::U32(0),
        ArgValue::U64(0x1122_3344_5566_7788),
        ArgValue::F32(1.5),
        ArgValue::U8(0xab),
        ArgValue::U16(0xcdef),
        ArgValue::I32(-2),
    ];
    assert_eq!(arg_offsets(&args), [36, 40, 44, 52, 56, 58, 60]);
    let cb = constant_buffer0(&Grid::new([1; 3], [1; 3], 64).unwrap(), &args);
    assert_eq!(cb[44..52], 0x1122_3344_5566_7788u64.to_le_bytes());
    assert_eq!(cb[52..56], 1.5f32.to_bits().to_le_bytes());
    assert_eq!(cb[56..60], [0xab, 0, 0xef, 0xcd]);
    assert_eq!(cb[60..64], (-2i32).to_le_bytes());
}

/// The probe kernel reads its 4- and 8-byte arguments through KC0 and its 8- and 16-bit ones
/// with fetches from buffer 3, exactly where `arg_offsets` puts them.
#[test]
fn args_probe_listing_reads_where_the_layout_says() {
    let args = [
        ArgValue::Offset(0),
        ArgValue::U32(0),
        ArgValue::U64(0),
        ArgValue::F32(0.0),
        ArgValue::U8(0),
        ArgValue::U16(0),
        ArgValue::U32(0),
    ];
    let offsets = arg_offsets(&args);
    let mut kc0 = BTreeSet::new();
    let mut fetched = Vec::new();
    for (a, at) in args.iter().zip(&offsets) {
        match a.bytes().len() as u32 {
            n @ (4 | 8) => kc0.extend((at / 4)..(at + n) / 4),
            n => fetched.push((3, n, *at)),
        }
    }
    for chip in CHIPS {
        let path = fixtures().join("abi").join(chip).join("args_probe.s");
        let lines: Vec<String> = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .lines()
            .map(|l| l.trim().to_string())
            .collect();
        assert_eq!(kc0_dwords(&lines), kc0, "{chip}");
        let mut got = fetches(&lines);
        got.sort();
        assert_eq!(got, fetched, "{chip}");
        for (id, _, _) in got {
            assert_eq!(launch::fetch_buffer(id), Some(Resource::KernelArgs));
        }
    }
}

/// Every fixture reads exactly its arguments' dwords plus header sizes (global size dwords
/// 3-5, local size 6-8) through KC0, and fetches global data from buffer 1 only.
#[test]
fn fixture_listings_read_args_where_the_layout_says() {
    let sizes: BTreeSet<u32> = (3..9).collect();
    for chip in CHIPS {
        for k in kernels(chip) {
            let lines = listing(chip, &k);
            let args = manifest_args(&k);
            let read = kc0_dwords(&lines);
            let header: BTreeSet<u32> = read.iter().copied().filter(|&d| d < 9).collect();
            let rest: BTreeSet<u32> = read.iter().copied().filter(|&d| d >= 9).collect();
            assert!(
                header.is_subset(&sizes),
                "{chip}/{k}: header dwords {header:?}"
            );
            assert_eq!(rest, arg_dwords(&args), "{chip}/{k}");
            for (id, _, _) in fetches(&lines) {
                assert_eq!(
                    launch::fetch_buffer(id),
                    Some(Resource::GlobalPool),
                    "{chip}/{k}"
                );
            }
        }
    }
}

#[test]
fn buffer_ids() {
    assert_eq!(launch::fetch_buffer(1), Some(Resource::GlobalPool));
    assert_eq!(launch::fetch_buffer(2), Some(Resource::CodeConstants));
    assert_eq!(launch::fetch_buffer(3), Some(Resource::KernelArgs));
    assert_eq!(launch::fetch_buffer(0), None);
    assert_eq!(launch::rat(0), Some(Resource::GlobalPool));
    assert_eq!(launch::rat(1), None);
    assert_eq!(launch::constant_buffer(0), Some(Resource::KernelArgs));
    assert_eq!(launch::constant_buffer(1), None);
    // LLVM stores `pointer >> 2` as the RAT index (`LSHR T6.X, KC0[2].Y, literal.x` = 2 in
    // the probe listing): the RAT address is back in bytes. Fetch offsets add in bytes.
    let ptr = 0x0010_0040u32;
    assert_eq!(launch::rat_address(ptr >> 2), u64::from(ptr));
    assert_eq!(launch::rat_address(u32::MAX), 0x3_ffff_fffc);
    assert_eq!(launch::fetch_address(ptr, 56), ptr + 56);
    assert_eq!(launch::fetch_address(u32::MAX, 2), 1);
}

/// LLVM's processor table: cedar is wave32, the other chips (every fixture chip) wave64.
#[test]
fn wave_sizes() {
    for chip in Chip::ALL {
        let expected = if chip.name() == "cedar" { 32 } else { 64 };
        assert_eq!(wave_size(chip), expected, "{chip:?}");
    }
}

/// Work-items of a group in order, z outermost and x fastest, each with its local id.
fn work_items(extent: [u32; 3]) -> Vec<[u32; 3]> {
    let mut out = Vec::new();
    for z in 0..extent[2] {
        for y in 0..extent[1] {
            for x in 0..extent[0] {
                out.push([x, y, z]);
            }
        }
    }
    out
}

/// T0 = local id and T1 = group id in every lane, EXEC = the lanes holding work-items, for
/// full and partial waves, partial groups at the grid's edge, and both wave sizes.
#[test]
fn initial_registers_and_exec() {
    let cases = [
        (Chip::Cayman, [40, 24, 1], [8, 8, 1]), // grid2d: one full wave per group
        (Chip::Barts, [48, 32, 1], [16, 16, 1]), // matmul_tiled: 4 waves
        (Chip::Cypress, [100, 1, 1], [100, 1, 1]), // a partial second wave
        (Chip::Redwood, [40, 1, 1], [16, 1, 1]), // a partial last group (8 items)
        (Chip::Cedar, [6, 4, 6], [3, 4, 5]),    // wave32, 3D, partial in z
    ];
    for (chip, global, local) in cases {
        let s = wave_size(chip) as usize;
        let d = Grid::new(global, local, s as u32).unwrap();
        let groups = d.groups();
        for group in work_items(groups) {
            let extent: [u32; 3] = [0, 1, 2].map(|i| {
                let end = ((group[i] + 1) * local[i]).min(global[i]);
                end - group[i] * local[i]
            });
            let items = work_items(extent);
            let waves = items.len().div_ceil(s);
            assert_eq!(d.waves_in_group(group) as usize, waves);
            for w in 0..waves {
                let st = launch::wave_state(chip, &d.wave(group, w as u32)).unwrap();
                assert_eq!(st.t0.len(), s);
                assert_eq!(st.t1, [group[0], group[1], group[2], 0]);
                for lane in 0..s {
                    let item = items.get(w * s + lane);
                    assert_eq!(
                        st.exec >> lane & 1 == 1,
                        item.is_some(),
                        "{chip:?} lane {lane}"
                    );
                    let id = item.map_or([0; 4], |i| [i[0], i[1], i[2], 0]);
                    assert_eq!(st.t0[lane], id, "{chip:?} {group:?} wave {w} lane {lane}");
                }
                assert_eq!(st.exec.checked_shr(s as u32).unwrap_or(0), 0);
            }
            assert!(launch::wave_state(chip, &d.wave(group, waves as u32)).is_err());
        }
        assert!(launch::wave_state(chip, &d.wave(groups, 0)).is_err());
    }
}

#[test]
fn invalid_launches_are_errors() {
    let bad = [
        ([0, 1, 1], [1, 1, 1]),
        ([64, 1, 1], [64, 0, 1]),
        ([2048, 1, 1], [1025, 1, 1]),
        ([64, 64, 1], [32, 33, 1]),
    ];
    for (global, local) in bad {
        let e = Grid::new(global, local, 64).unwrap_err();
        assert!(!e.to_string().contains('\n'));
    }
    let d = Grid::new([1024, 1, 1], [1024, 1, 1], 64).unwrap();
    assert_eq!(d.waves_in_group([0; 3]), 16);
    // A wave of the wrong size for the chip is refused.
    let wave32 = Grid::new([64, 1, 1], [64, 1, 1], 32).unwrap();
    assert!(launch::wave_state(Chip::Cayman, &wave32.wave([0; 3], 0)).is_err());
}

/// The dispatcher's path (`TsWaveInit`, written straight into the registers) writes what
/// `wave_state` describes: T0 = local id, T1 = group id (w = 0), the active lanes, and the
/// pool, constant buffer 0 and GDS addresses.
#[test]
fn wave_init_writes_what_wave_state_describes() {
    use wavejit_isa::testkit::RecordingSink;
    use wavejit_isa::WaveInit;
    use wavejit_terascale::lift::TsLayout;
    for (chip, global, local) in [
        (Chip::Cayman, [40, 24, 1], [8, 8, 1]),
        (Chip::Cypress, [100, 1, 1], [100, 1, 1]),
        (Chip::Cedar, [6, 4, 6], [3, 4, 5]),
    ] {
        let s = wave_size(chip);
        let layout = TsLayout::new(s);
        let init = launch::TsWaveInit {
            chip,
            layout: TsLayout::new(s),
            pool_base: 0x1_0000_0000,
            cb0: 0x1_0000_4000,
            gds: 0x1_0000_8000,
        };
        let g = Grid::new(global, local, s).unwrap();
        for linear in 0..g.group_count() {
            let group = g.group_id(linear);
            for w in 0..g.waves_in_group(group) {
                let wave = g.wave(group, w);
                let mut direct = RecordingSink::default();
                init.init(&wave, &mut direct).unwrap();
                let st = launch::wave_state(chip, &wave).unwrap();
                let mut want = RecordingSink::default();
                use wavejit_isa::RegSink;
                for lane in 0..s {
                    for c in 0..4 {
                        want.set_lane(
                            layout.gpr(launch::LOCAL_ID_GPR, c),
                            lane,
                            st.t0[lane as usize][c as usize],
                        );
                        want.set_lane(layout.gpr(launch::GROUP_ID_GPR, c), lane, st.t1[c as usize]);
                    }
                }
                want.set_uniform64(layout.active(), st.exec);
                want.set_uniform64(layout.pool_base(), 0x1_0000_0000);
                want.set_uniform64(layout.const_buffer(0), 0x1_0000_4000);
                want.set_uniform64(layout.gds(), 0x1_0000_8000);
                assert_eq!(direct, want, "{chip:?} group {group:?} wave {w}");
            }
        }
    }
}
