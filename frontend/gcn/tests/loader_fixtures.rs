//! Loads every checked-in fixture and compares the loader's description with values LLVM's
//! own tools printed for the same file (tests/fixtures/gcn/*/<k>.oracle.tsv), and the extracted
//! code with llvm-objdump-14 (gfx8/9) or llc's encodings (gfx6/7).

mod loader_common;

use loader_common::{kernels, parse_num, read, Oracle, HSA_DIRS, LEGACY_DIRS};
use wavejit_gcn::loader::{self, Abi, ArgKind, RelocKind, ScratchRsrcWord, UserSgpr, UserSgprSlot};

/// The metadata spelling of an argument kind.
fn value_kind(kind: &ArgKind) -> String {
    match kind {
        ArgKind::GlobalBuffer => "global_buffer".into(),
        ArgKind::ByValue => "by_value".into(),
        ArgKind::DynamicSharedPointer => "dynamic_shared_pointer".into(),
        ArgKind::HiddenGlobalOffset(d) => {
            format!("hidden_global_offset_{}", ["x", "y", "z"][*d as usize])
        }
        ArgKind::HiddenNone => "hidden_none".into(),
        ArgKind::Other(s) => s.clone(),
    }
}

#[test]
fn hsa_code_objects_match_llvm_tools() {
    for (dir, chip, gfx) in HSA_DIRS {
        for k in kernels(dir) {
            let o = Oracle::load(dir, &k);
            let obj = loader::load(&read(dir, &format!("{k}.hsaco")))
                .unwrap_or_else(|e| panic!("{dir}/{k}: {e}"));
            let ctx = format!("{dir}/{k}");
            assert_eq!(obj.abi, Abi::Hsa, "{ctx}");
            assert_eq!((obj.target.name, obj.target.gfx), (chip, gfx), "{ctx}");
            assert_eq!(u64::from(obj.e_flags), o.num("elf.flags"), "{ctx}");
            assert_eq!(obj.kernels.len(), 1, "{ctx}");
            let kern = obj.kernel(&k).unwrap();

            assert_eq!(kern.code_address, o.num("sym.value"), "{ctx}: entry");
            assert_eq!(
                kern.code.len() as u64,
                o.num("sym.size"),
                "{ctx}: code size"
            );
            assert_eq!(
                u64::from(kern.lds_size),
                o.num("amdhsa.group_segment_fixed_size"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.lds_size),
                o.num("md.group_segment_fixed_size"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.private_segment_size),
                o.num("amdhsa.private_segment_fixed_size"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.kernarg_size),
                o.num("md.kernarg_segment_size"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.kernarg_size),
                o.num("amdhsa.kernarg_size"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.kernarg_align),
                o.num("md.kernarg_segment_align"),
                "{ctx}"
            );
            assert_eq!(u64::from(kern.sgpr_count), o.num("md.sgpr_count"), "{ctx}");
            assert_eq!(u64::from(kern.vgpr_count), o.num("md.vgpr_count"), "{ctx}");
            assert!(
                u64::from(kern.vgpr_count) >= o.num("amdhsa.next_free_vgpr"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.wavefront_size),
                o.num("md.wavefront_size"),
                "{ctx}"
            );
            assert_eq!(kern.implicit_kernarg_bytes, 0, "{ctx}");
            assert!(kern.scratch_relocs.is_empty(), "{ctx}");
            let reqd = o.get("md.reqd_workgroup_size").map(|v| {
                let d: Vec<u32> = v.split(',').map(|x| parse_num(x) as u32).collect();
                [d[0], d[1], d[2]]
            });
            assert_eq!(kern.reqd_workgroup_size, reqd, "{ctx}");

            // User SGPRs in the hardware order (notes/amd_launch_abi.md §3.2), from the
            // .amdhsa_user_sgpr_* directives.
            let order = [
                ("private_segment_buffer", UserSgpr::PrivateSegmentBuffer, 4),
                ("dispatch_ptr", UserSgpr::DispatchPtr, 2),
                ("queue_ptr", UserSgpr::QueuePtr, 2),
                ("kernarg_segment_ptr", UserSgpr::KernargSegmentPtr, 2),
                ("dispatch_id", UserSgpr::DispatchId, 2),
                ("flat_scratch_init", UserSgpr::FlatScratchInit, 2),
                ("private_segment_size", UserSgpr::PrivateSegmentSize, 1),
            ];
            let mut expected = Vec::new();
            let mut next = 0u8;
            for (name, kind, size) in order {
                if o.flag(&format!("amdhsa.user_sgpr_{name}")) {
                    expected.push(UserSgprSlot { kind, first: next });
                    next += size;
                }
            }
            assert_eq!(kern.user_sgprs, expected, "{ctx}");
            assert_eq!(
                u64::from(kern.user_sgpr_count),
                o.num("amdhsa.user_sgpr_count"),
                "{ctx}"
            );
            let s = kern.system_sgprs;
            assert_eq!(
                s.workgroup_id[0],
                o.flag("amdhsa.system_sgpr_workgroup_id_x"),
                "{ctx}"
            );
            assert_eq!(
                s.workgroup_id[1],
                o.flag("amdhsa.system_sgpr_workgroup_id_y"),
                "{ctx}"
            );
            assert_eq!(
                s.workgroup_id[2],
                o.flag("amdhsa.system_sgpr_workgroup_id_z"),
                "{ctx}"
            );
            assert_eq!(
                s.workgroup_info,
                o.flag("amdhsa.system_sgpr_workgroup_info"),
                "{ctx}"
            );
            assert_eq!(
                s.private_segment_wave_offset,
                o.flag("amdhsa.system_sgpr_private_segment_wavefront_offset"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.tidig_comp_cnt),
                o.num("amdhsa.system_vgpr_workitem_id"),
                "{ctx}"
            );

            let float_mode = o.num("amdhsa.float_round_mode_32")
                | o.num("amdhsa.float_round_mode_16_64") << 2
                | o.num("amdhsa.float_denorm_mode_32") << 4
                | o.num("amdhsa.float_denorm_mode_16_64") << 6;
            assert_eq!(u64::from(kern.float_mode), float_mode, "{ctx}");
            assert_eq!(kern.dx10_clamp, o.flag("amdhsa.dx10_clamp"), "{ctx}");
            assert_eq!(kern.ieee_mode, o.flag("amdhsa.ieee_mode"), "{ctx}");
            // gfx6-8 amdhsa flush f32 denormals, gfx900 keeps them (notes §3.3).
            assert_eq!(kern.flushes_f32_denormals(), gfx < 9, "{ctx}");

            let nargs = (0..)
                .take_while(|i| o.get(&format!("md.arg.{i}.offset")).is_some())
                .count();
            assert!(nargs >= 2, "{ctx}");
            assert_eq!(kern.args.len(), nargs, "{ctx}");
            for (i, a) in kern.args.iter().enumerate() {
                let key = |f: &str| format!("md.arg.{i}.{f}");
                assert_eq!(u64::from(a.offset), o.num(&key("offset")), "{ctx} arg {i}");
                assert_eq!(u64::from(a.size), o.num(&key("size")), "{ctx} arg {i}");
                assert_eq!(
                    value_kind(&a.kind),
                    o.str(&key("value_kind")),
                    "{ctx} arg {i}"
                );
                assert_eq!(
                    a.type_name.as_deref(),
                    o.get(&key("type_name")),
                    "{ctx} arg {i}"
                );
                assert_eq!(
                    a.address_space.as_deref(),
                    o.get(&key("address_space")),
                    "{ctx} arg {i}"
                );
                assert_eq!(a.name.as_deref(), o.get(&key("name")), "{ctx} arg {i}");
            }
        }
    }
}

#[test]
fn legacy_objects_match_llvm_tools() {
    for (dir, chip, gfx) in LEGACY_DIRS {
        for k in kernels(dir) {
            let o = Oracle::load(dir, &k);
            let obj = loader::load(&read(dir, &format!("{k}.o")))
                .unwrap_or_else(|e| panic!("{dir}/{k}: {e}"));
            let ctx = format!("{dir}/{k}");
            assert_eq!(obj.abi, Abi::Legacy, "{ctx}");
            assert_eq!((obj.target.name, obj.target.gfx), (chip, gfx), "{ctx}");
            assert_eq!(u64::from(obj.e_flags), o.num("elf.flags"), "{ctx}");
            let kern = obj.kernel(&k).unwrap();

            assert_eq!(kern.code_address, o.num("sym.value"), "{ctx}");
            assert_eq!(kern.code.len() as u64, o.num("sym.size"), "{ctx}");
            assert_eq!(u64::from(kern.rsrc1), o.num("config.0xb848"), "{ctx}");
            assert_eq!(u64::from(kern.rsrc2), o.num("config.0xb84c"), "{ctx}");
            assert_eq!(u64::from(kern.float_mode), o.num("asm.FloatMode"), "{ctx}");
            assert_eq!(kern.ieee_mode, o.flag("asm.IeeeMode"), "{ctx}");
            // amdgcn-- keeps f32 denormals on every chip (notes §3.3).
            assert!(!kern.flushes_f32_denormals(), "{ctx}");
            assert_eq!(
                u64::from(kern.sgpr_count),
                (o.num("asm.SGPRBlocks") + 1) * 8,
                "{ctx}"
            );
            assert!(u64::from(kern.sgpr_count) >= o.num("asm.NumSgprs"), "{ctx}");
            assert_eq!(
                u64::from(kern.vgpr_count),
                (o.num("asm.VGPRBlocks") + 1) * 4,
                "{ctx}"
            );
            assert!(u64::from(kern.vgpr_count) >= o.num("asm.NumVgprs"), "{ctx}");
            // Scratch: whole KiB per wave64; LDS: 256-byte granules on gfx6, 512 on gfx7+.
            let scratch_wave = (o.num("asm.ScratchSize") * 64).div_ceil(1024) * 1024;
            assert_eq!(
                u64::from(kern.private_segment_size),
                scratch_wave / 64,
                "{ctx}"
            );
            let granule = if gfx == 6 { 256 } else { 512 };
            assert_eq!(
                u64::from(kern.lds_size),
                o.num("asm.LDSByteSize").div_ceil(granule) * granule,
                "{ctx}"
            );

            assert_eq!(
                kern.user_sgprs,
                vec![UserSgprSlot {
                    kind: UserSgpr::KernargSegmentPtr,
                    first: 0
                }],
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.user_sgpr_count),
                o.num("asm.COMPUTE_PGM_RSRC2:USER_SGPR"),
                "{ctx}"
            );
            let s = kern.system_sgprs;
            assert_eq!(
                s.workgroup_id[0],
                o.flag("asm.COMPUTE_PGM_RSRC2:TGID_X_EN"),
                "{ctx}"
            );
            assert_eq!(
                s.workgroup_id[1],
                o.flag("asm.COMPUTE_PGM_RSRC2:TGID_Y_EN"),
                "{ctx}"
            );
            assert_eq!(
                s.workgroup_id[2],
                o.flag("asm.COMPUTE_PGM_RSRC2:TGID_Z_EN"),
                "{ctx}"
            );
            assert_eq!(
                s.private_segment_wave_offset,
                o.flag("asm.COMPUTE_PGM_RSRC2:SCRATCH_EN"),
                "{ctx}"
            );
            assert_eq!(
                u64::from(kern.tidig_comp_cnt),
                o.num("asm.COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT"),
                "{ctx}"
            );
            assert_eq!(kern.implicit_kernarg_bytes, 36, "{ctx}");
            assert!(kern.args.is_empty(), "{ctx}");

            // "reloc.N" = "0xOFFSET TYPE SYMBOL" from llvm-readelf -r.
            let relocs: Vec<&str> = (0..).map_while(|i| o.get(&format!("reloc.{i}"))).collect();
            assert_eq!(kern.scratch_relocs.len(), relocs.len(), "{ctx}");
            assert_eq!(relocs.is_empty(), o.num("asm.ScratchSize") == 0, "{ctx}");
            for (r, line) in kern.scratch_relocs.iter().zip(relocs) {
                let f: Vec<&str> = line.split(' ').collect();
                assert_eq!(
                    u64::from(r.code_offset) + kern.code_address,
                    parse_num(f[0]),
                    "{ctx}"
                );
                let kind = match f[1] {
                    "R_AMDGPU_ABS32_LO" => RelocKind::Abs32Lo,
                    "R_AMDGPU_ABS32_HI" => RelocKind::Abs32Hi,
                    "R_AMDGPU_ABS32" => RelocKind::Abs32,
                    other => panic!("{ctx}: unexpected relocation {other}"),
                };
                assert_eq!(r.kind, kind, "{ctx}");
                let word = if f[2] == "SCRATCH_RSRC_DWORD0" {
                    ScratchRsrcWord::Dword0
                } else {
                    ScratchRsrcWord::Dword1
                };
                assert_eq!(r.word, word, "{ctx}");
                assert_eq!(r.addend, 0, "{ctx}");
            }
        }
    }
}

/// The bytes of every `// ADDR: XXXXXXXX [YYYYYYYY] [<target>]` comment of an llvm-objdump
/// listing.
fn objdump_bytes(listing: &str) -> (Option<u64>, Vec<u8>) {
    let mut first = None;
    let mut bytes = Vec::new();
    for line in listing.lines() {
        let Some((_, tail)) = line.split_once("// ") else {
            continue;
        };
        let Some((addr, words)) = tail.split_once(": ") else {
            continue;
        };
        first = first.or(Some(u64::from_str_radix(addr.trim(), 16).unwrap()));
        for w in words.split_whitespace().take_while(|w| !w.starts_with('<')) {
            bytes.extend(u32::from_str_radix(w, 16).unwrap().to_le_bytes());
        }
    }
    (first, bytes)
}

/// The bytes of every `; encoding: [0x.., ...]` comment of an llc -show-mc-encoding listing;
/// None where a fixup (a branch offset, printed `A`) fills the byte later.
fn llc_encoding_bytes(listing: &str) -> Vec<Option<u8>> {
    let mut bytes = Vec::new();
    for line in listing.lines() {
        let Some((_, enc)) = line.split_once("; encoding: [") else {
            continue;
        };
        for b in enc.trim_end_matches(']').split(',') {
            bytes.push(
                b.trim()
                    .strip_prefix("0x")
                    .map(|h| u8::from_str_radix(h, 16).unwrap()),
            );
        }
    }
    bytes
}

#[test]
fn kernel_code_is_what_llvm_disassembles() {
    let mut checked = 0;
    let dirs = HSA_DIRS.iter().chain(LEGACY_DIRS.iter());
    for &(dir, _, gfx) in dirs {
        let legacy = dir.starts_with("legacy-");
        for k in kernels(dir) {
            let file = read(dir, &format!("{k}.{}", if legacy { "o" } else { "hsaco" }));
            let obj = loader::load(&file).unwrap();
            let kern = obj.kernel(&k).unwrap();
            if gfx >= 8 {
                let (first, bytes) =
                    objdump_bytes(&String::from_utf8(read(dir, &format!("{k}.dis"))).unwrap());
                assert_eq!(first, Some(kern.code_address), "{dir}/{k}");
                assert_eq!(bytes, kern.code, "{dir}/{k}");
            } else {
                let bytes = llc_encoding_bytes(
                    &String::from_utf8(read(dir, &format!("{k}.enc.s"))).unwrap(),
                );
                assert_eq!(bytes.len(), kern.code.len(), "{dir}/{k}");
                for (i, (want, got)) in bytes.iter().zip(&kern.code).enumerate() {
                    assert!(want.is_none_or(|w| w == *got), "{dir}/{k}: byte {i}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 8 * 12);
}
