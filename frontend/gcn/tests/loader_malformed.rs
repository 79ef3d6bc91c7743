//! Bad input gives a typed error, never a panic: truncations at every offset, random bytes,
//! random corruption of real code objects, and specific header defects.

mod loader_common;

use loader_common::{fixtures, read};
use wavejit_gcn::loader::{self, CodeObject, LoadError};
use wavejit_isa::testkit::{self, Mutator};

const SAMPLES: [(&str, &str); 4] = [
    ("gfx900", "private_array.hsaco"),
    ("tahiti", "matmul_tiled.hsaco"),
    ("legacy-tahiti", "private_array.o"),
    ("legacy-gfx900", "atomics.o"),
];

/// The invariants documented in the loader module, for whatever a corrupted file still loads as.
fn check_invariants(obj: &CodeObject) {
    for k in &obj.kernels {
        for r in &k.scratch_relocs {
            assert!(r.code_offset as usize + 4 <= k.code.len());
        }
        let mut next = 0;
        for s in &k.user_sgprs {
            assert_eq!(s.first, next);
            next += s.kind.size();
        }
    }
}

fn one_line(e: &LoadError) {
    let msg = e.to_string();
    assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
}

#[test]
fn every_truncation_is_an_error() {
    for (dir, file) in SAMPLES {
        let data = read(dir, file);
        loader::load(&data).unwrap();
        for len in 0..data.len() {
            match loader::load(&data[..len]) {
                Ok(_) => panic!("{dir}/{file} truncated to {len} bytes loaded"),
                Err(e) => one_line(&e),
            }
        }
    }
}

#[test]
fn random_bytes_are_errors() {
    let header = read("gfx900", "private_array.hsaco")[..64].to_vec();
    // Half of them start with a valid AMDGPU ELF header so parsing goes deeper.
    let inputs = testkit::random_cases(0x5eed_1234_abcd_0001, 3000, 0..=4095)
        .enumerate()
        .map(|(i, mut c)| {
            if i % 2 == 1 && c.bytes.len() >= 64 {
                c.bytes[..64].copy_from_slice(&header);
                c.origin += " with a valid header";
            }
            c
        });
    testkit::never_panics(
        "gcn loader on random bytes",
        inputs,
        |data| match loader::load(data) {
            Ok(obj) => panic!("random input loaded: {obj:?}"),
            Err(e) => one_line(&e),
        },
    );
}

/// Every code object of every fixture directory (HSA and legacy).
fn all_fixture_objects() -> Vec<Vec<u8>> {
    let mut paths: Vec<_> = std::fs::read_dir(fixtures())
        .unwrap()
        .flat_map(|d| std::fs::read_dir(d.unwrap().path()).into_iter().flatten())
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("hsaco" | "o")))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read(p).unwrap()).collect()
}

/// Mutants of real code objects (flipped bits, edge bytes and dwords, truncations,
/// insertions, deletions, splices of two objects): an error, or a load that keeps the
/// invariants.
#[test]
fn corrupted_code_objects_never_panic() {
    let corpus = all_fixture_objects();
    assert!(corpus.len() >= 8 * 12, "{} fixture objects", corpus.len());
    let mut loaded = 0;
    testkit::never_panics(
        "gcn loader on mutated code objects",
        Mutator::new(corpus, 0x0bad_c0de_0000_0042).cases(8000),
        |data| match loader::load(data) {
            Ok(obj) => {
                loaded += 1;
                check_invariants(&obj)
            }
            Err(e) => one_line(&e),
        },
    );
    // Some mutants (a flipped bit in padding or code) must still load, so the invariants
    // are exercised.
    assert!(loaded > 100, "only {loaded} mutants loaded");
}

#[test]
fn header_defects_are_named() {
    let good = read("gfx900", "private_array.hsaco");

    assert_eq!(loader::load(b""), Err(LoadError::NotElf));
    assert_eq!(
        loader::load(b"MZ\x90\x00 not an ELF file at all"),
        Err(LoadError::NotElf)
    );

    let mut elf32 = good.clone();
    elf32[4] = 1; // ELFCLASS32, like r600 objects
    assert_eq!(loader::load(&elf32), Err(LoadError::WrongClass));

    let mut big_endian = good.clone();
    big_endian[5] = 2;
    assert_eq!(loader::load(&big_endian), Err(LoadError::WrongClass));

    let mut x86 = good.clone();
    x86[18..20].copy_from_slice(&62u16.to_le_bytes()); // EM_X86_64
    assert_eq!(loader::load(&x86), Err(LoadError::WrongMachine(62)));

    let mut cayman = good.clone();
    cayman[48..52].copy_from_slice(&0x0fu32.to_le_bytes()); // e_flags: EF_AMDGPU_MACH_R600_CAYMAN
    assert_eq!(loader::load(&cayman), Err(LoadError::UnsupportedChip(0x0f)));

    for abi_version in [0u8, 3] {
        let mut v = good.clone();
        v[8] = abi_version; // EI_ABIVERSION: code object v2 / v5
        assert!(
            matches!(loader::load(&v), Err(LoadError::UnsupportedVersion(_))),
            "ABI version {abi_version}"
        );
    }

    let mut os = good.clone();
    os[7] = 3; // ELFOSABI_LINUX
    assert!(matches!(
        loader::load(&os),
        Err(LoadError::UnsupportedVersion(_))
    ));
}

#[test]
fn missing_kernel_lists_the_available_ones() {
    let obj = loader::load(&read("gfx900", "matmul_tiled.hsaco")).unwrap();
    let err = obj.kernel("matmul").unwrap_err();
    assert_eq!(
        err,
        LoadError::KernelNotFound {
            name: "matmul".into(),
            available: "matmul_tiled".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "kernel matmul not found; available: matmul_tiled"
    );
    let legacy = loader::load(&read("legacy-tahiti", "atomics.o")).unwrap();
    assert!(
        matches!(legacy.kernel("nope"), Err(LoadError::KernelNotFound { available, .. }) if available == "atomics")
    );
}

/// Offset of the msgpack descriptor of the NT_AMDGPU_METADATA note: the note header is
/// namesz (7), descsz, type (32), then "AMDGPU\0" padded to 8 bytes.
fn metadata_desc_offset(data: &[u8]) -> usize {
    let pattern = [
        &7u32.to_le_bytes()[..],
        &[0; 4],
        &32u32.to_le_bytes(),
        b"AMDGPU\0\0",
    ]
    .concat();
    let at = data
        .windows(pattern.len())
        .position(|w| w[..4] == pattern[..4] && w[8..] == pattern[8..]);
    at.expect("metadata note") + pattern.len()
}

#[test]
fn malformed_metadata_is_a_note_error() {
    let good = read("tonga", "grid2d.hsaco");
    let desc = metadata_desc_offset(&good);

    let mut reserved = good.clone();
    reserved[desc] = 0xc1; // the one byte msgpack never uses
    assert!(matches!(
        loader::load(&reserved),
        Err(LoadError::MalformedNote(_))
    ));

    let mut not_a_map = good.clone();
    not_a_map[desc] = 0xc0; // nil instead of the root map
    assert!(matches!(
        loader::load(&not_a_map),
        Err(LoadError::MalformedNote(_))
    ));

    // Rename the key "amdhsa.kernels" so it is missing.
    let mut no_kernels = good.clone();
    let key = no_kernels
        .windows(14)
        .position(|w| w == b"amdhsa.kernels")
        .unwrap();
    no_kernels[key] = b'x';
    match loader::load(&no_kernels) {
        Err(LoadError::MalformedNote(m)) => assert!(m.contains("amdhsa.kernels"), "{m}"),
        other => panic!("{other:?}"),
    }

    // Point the descriptor symbol name at something else: ".symbol" -> "grid2d.kx".
    let mut no_kd = good.clone();
    let sym = no_kd.windows(9).position(|w| w == b"grid2d.kd").unwrap();
    no_kd[sym + 8] = b'x';
    assert!(matches!(
        loader::load(&no_kd),
        Err(LoadError::MalformedKernel { .. })
    ));
}

/// The loader accepts a code object at any alignment (e.g. embedded with `include_bytes!`).
#[test]
fn unaligned_input_loads_like_aligned_input() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/gcn/gfx900/f32_arith.hsaco"
    );
    let bytes = std::fs::read(path).unwrap();
    let aligned = wavejit_gcn::loader::load(&bytes).unwrap();
    let mut shifted = vec![0u8; bytes.len() + 1];
    shifted[1..].copy_from_slice(&bytes);
    assert_eq!(wavejit_gcn::loader::load(&shifted[1..]).unwrap(), aligned);
}
