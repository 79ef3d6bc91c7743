//! Issue 8, item 9: a code object whose `.dynstr` ends exactly where `.rodata` (the kernel
//! descriptor) begins. The loader once resolved the descriptor's address through the first
//! section whose range reached it, got the empty slice at the end of `.dynstr` and reported
//! "kernel descriptor at 0x540 is outside the file".
//!
//! The fixture is real `clang-14` + `ld.lld-14` output (tests/data/dynstr_boundary, made and
//! checked by scripts/gen-boundary-fixture.sh); the expected values below are what that script
//! prints from `llvm-readelf-14` and `llvm-objdump-14`.

use wavejit_gcn::loader::{self, Abi, UserSgpr};

const FIXTURE: &[u8] = include_bytes!("data/dynstr_boundary/boundary.hsaco");
const NAME: &str = "kernel_name_ending_dynstr_at_rodata_address";

/// Reads a 64-bit little-endian field of an ELF64 structure.
fn u64_at(data: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(data[at..at + 8].try_into().unwrap())
}

/// (address, size) of the section called `name`, read straight from the section headers.
fn section(data: &[u8], name: &str) -> (u64, u64) {
    let shoff = u64_at(data, 0x28) as usize;
    let shnum = u16::from_le_bytes([data[0x3c], data[0x3d]]) as usize;
    let shstrndx = u16::from_le_bytes([data[0x3e], data[0x3f]]) as usize;
    let header = |i: usize| &data[shoff + 64 * i..shoff + 64 * (i + 1)];
    let strtab = u64_at(header(shstrndx), 0x18) as usize;
    (0..shnum)
        .map(header)
        .find(|h| {
            let at = strtab + u32::from_le_bytes(h[..4].try_into().unwrap()) as usize;
            data[at..].split(|&b| b == 0).next() == Some(name.as_bytes())
        })
        .map(|h| (u64_at(h, 0x10), u64_at(h, 0x20)))
        .unwrap_or_else(|| panic!("no section {name}"))
}

#[test]
fn the_fixture_has_dynstr_ending_at_rodata() {
    let (dynstr, dynstr_size) = section(FIXTURE, ".dynstr");
    let (rodata, rodata_size) = section(FIXTURE, ".rodata");
    assert_eq!((dynstr, dynstr_size), (0x4e4, 0x5c));
    assert_eq!((rodata, rodata_size), (0x540, 0x40));
    assert_eq!(dynstr + dynstr_size, rodata);
}

#[test]
fn a_descriptor_right_after_dynstr_loads() {
    let obj = loader::load(FIXTURE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(obj.abi, Abi::Hsa);
    assert_eq!(obj.target.gfx, 9);
    let k = obj.kernel(NAME).unwrap();
    // llvm-readelf -s: the kernel symbol at 0x1600, 44 bytes; `.kd` at 0x540, 64 bytes.
    assert_eq!(k.code_address, 0x1600);
    assert_eq!(k.code.len(), 44);
    // llvm-objdump -d: the first instruction (s_load_dword s2, s[4:5], 0x8) and s_endpgm.
    assert_eq!(
        k.code[..8],
        [0x82, 0x00, 0x02, 0xc0, 0x08, 0x00, 0x00, 0x00]
    );
    assert_eq!(k.code[40..], [0x00, 0x00, 0x81, 0xbf]);
    // llvm-objdump -s -j .rodata: the descriptor's kernarg size (12), entry offset 0x10c0
    // (0x540 + 0x10c0 = 0x1600), RSRC1 0x00af0000, RSRC2 0x8c, kernel_code_properties 0x9
    // (private segment buffer and kernarg segment pointer).
    assert_eq!(k.rsrc1, 0x00af_0000);
    assert_eq!(k.rsrc2, 0x0000_008c);
    assert_eq!(k.user_sgpr(UserSgpr::PrivateSegmentBuffer), Some(0));
    assert_eq!(k.user_sgpr(UserSgpr::KernargSegmentPtr), Some(4));
    assert_eq!(k.user_sgpr_count, 6);
    assert_eq!((k.lds_size, k.private_segment_size), (0, 0));
    // llvm-readelf --notes: the metadata.
    assert_eq!((k.kernarg_size, k.kernarg_align), (12, 8));
    assert_eq!((k.sgpr_count, k.vgpr_count), (6, 2));
    assert_eq!(k.wavefront_size, 64);
    assert_eq!(k.args.len(), 2);
}
