//! The loader against LLVM's own view of every r600 fixture: llvm-readelf-14 (ELF header,
//! section offsets, symbols, the raw `.AMDGPU.config` bytes), the llc listing (STACK_SIZE
//! comment, registers named, LDS object size) and the `-show-mc-encoding` listing (the bytes of
//! every instruction).

mod loader_common;

use loader_common::{
    fixtures, kernels, listing_encoding, missing, num, oracle, read, sources, CHIPS,
};
use wavejit_terascale::loader;
use wavejit_terascale::Chip;

/// Every source compiles for every chip except the ones missing.tsv lists, and each of those
/// is really absent.
#[test]
fn every_kernel_is_present_or_listed_missing() {
    let missing = missing();
    assert_eq!(missing.len(), 3, "{missing:?}");
    for chip in CHIPS {
        let have = kernels(chip);
        for k in sources() {
            let listed = missing.iter().any(|(c, m)| c == chip && *m == k);
            assert_eq!(have.contains(&k), !listed, "{chip}/{k}");
            assert_eq!(
                fixtures().join(chip).join(format!("{k}.o")).exists(),
                !listed
            );
        }
    }
}

#[test]
fn every_fixture_matches_its_oracle() {
    let mut checked = 0;
    for chip in CHIPS {
        for k in kernels(chip) {
            let what = format!("{chip}/{k}");
            let o = oracle(chip, &k);
            let field = |f: &str| {
                o.get(f)
                    .unwrap_or_else(|| panic!("{what}: no {f}"))
                    .as_str()
            };
            assert_eq!(field("elf.class"), "ELF32", "{what}");
            assert_eq!(field("elf.type"), "REL", "{what}");
            assert_eq!(field("elf.machine"), "EM_AMDGPU", "{what}");

            let data = read(chip, &format!("{k}.o"));
            let obj = loader::load(&data).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(u64::from(obj.e_flags), num(field("elf.flags")), "{what}");
            assert_eq!(obj.chip, Chip::from_name(chip).unwrap(), "{what}");
            assert_eq!(obj.kernels.len(), 1, "{what}");
            let kernel = obj.kernel(&k).unwrap();

            // Code: the symbol's range of .text, as readelf places them in the file, and byte
            // for byte what llc printed as the encoding of each instruction.
            let value = num(field("sym.value"));
            let size = num(field("sym.size"));
            assert_eq!(u64::from(kernel.text_offset), value, "{what}");
            let start = (num(field("text.offset")) + value) as usize;
            assert_eq!(kernel.code, data[start..start + size as usize], "{what}");
            assert_eq!(kernel.code, listing_encoding(chip, &k), "{what}");

            // .AMDGPU.config: the pairs as readelf dumped them.
            let pairs: Vec<(u32, u32)> = (0..)
                .map_while(|i| o.get(&format!("config.{i}")))
                .map(|p| {
                    let (r, v) = p.split_once(' ').unwrap();
                    (num(r) as u32, num(v) as u32)
                })
                .collect();
            assert_eq!(
                pairs.len() * 8,
                num(field("config.size")) as usize,
                "{what}"
            );
            assert_eq!(kernel.config, pairs, "{what}");
            assert_eq!(pairs[0].0, 0x288d4, "{what}: SQ_PGM_RESOURCES_LS first");

            // Decoded values against the listing: the STACK_SIZE comment, the LDS object,
            // and the registers the instructions name (a lower bound of NUM_GPRS).
            assert_eq!(
                u64::from(kernel.stack_size),
                num(field("asm.stack_size")),
                "{what}"
            );
            let lds = o
                .get("asm.lds_bytes")
                .map_or(0, |b| num(b).next_multiple_of(4));
            assert_eq!(u64::from(kernel.lds_size), lds, "{what}");
            let named = num(field("asm.gprs"));
            let gprs = u64::from(kernel.num_gprs);
            assert!(
                gprs >= named && gprs <= named + 2,
                "{what}: {gprs} GPRs, {named} named"
            );
            assert_eq!(kernel.num_gprs, pairs[0].1 % 256, "{what}");
            assert!(!kernel.kill_enable, "{what}");
            checked += 1;
        }
    }
    assert_eq!(checked, CHIPS.len() * sources().len() - missing().len());
}

/// The chip comes from e_flags alone: the same kernel built for each chip loads as that chip.
#[test]
fn e_flags_name_the_chip() {
    for chip in CHIPS {
        let obj = loader::load(&read(chip, "collatz.o")).unwrap();
        assert_eq!(obj.chip.name(), chip);
        assert_eq!(obj.e_flags, Chip::from_name(chip).unwrap().elf_mach());
    }
}
