//! Bad input gives a typed error, never a panic: every truncation of real objects, random
//! bytes, random byte flips, and specific defects of the header, the sections and
//! `.AMDGPU.config`.

mod loader_common;

use loader_common::{fixtures, num, oracle, read, CHIPS};
use wavejit_isa::testkit::{self, Mutator};
use wavejit_terascale::loader::{self, CodeObject, LoadError, MAX_GPRS, MAX_LDS_BYTES};

const SAMPLES: [(&str, &str); 3] = [
    ("cayman", "lds_reduce"),
    ("barts", "private_array"),
    ("cypress", "int64_ops"),
];

/// The invariants documented in the loader module, for whatever a corrupted file still loads as.
fn check_invariants(obj: &CodeObject) {
    for k in &obj.kernels {
        assert!(!k.code.is_empty() && k.code.len() % 8 == 0);
        assert!(k.num_gprs <= MAX_GPRS);
        assert!(k.lds_size <= MAX_LDS_BYTES);
    }
}

fn one_line(e: &LoadError) {
    let msg = e.to_string();
    assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
}

fn sample(chip: &str, k: &str) -> Vec<u8> {
    read(chip, &format!("{k}.o"))
}

/// Where `needle` occurs in `data` (exactly once).
fn find(data: &[u8], needle: &[u8]) -> usize {
    let hits: Vec<usize> = data
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(hits.len(), 1, "{needle:02x?} occurs {} times", hits.len());
    hits[0]
}

/// Offset of `.AMDGPU.config` in the file: its bytes are the oracle's pairs.
fn config_offset(chip: &str, k: &str, data: &[u8]) -> usize {
    let o = oracle(chip, k);
    let mut bytes = Vec::new();
    for i in 0..3 {
        let (r, v) = o[&format!("config.{i}")].split_once(' ').unwrap();
        bytes.extend((num(r) as u32).to_le_bytes());
        bytes.extend((num(v) as u32).to_le_bytes());
    }
    find(data, &bytes)
}

/// Offset of the kernel's Elf32_Sym (value 0, the oracle's size, GLOBAL FUNC, section 2).
fn symbol_offset(chip: &str, k: &str, data: &[u8]) -> usize {
    let size = num(&oracle(chip, k)["sym.size"]) as u32;
    let mut tail = vec![0, 0, 0, 0];
    tail.extend(size.to_le_bytes());
    tail.extend([0x12, 0, 2, 0]);
    find(data, &tail) - 4
}

fn put32(data: &mut [u8], at: usize, v: u32) {
    data[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn every_truncation_is_an_error() {
    for (chip, k) in SAMPLES {
        let data = sample(chip, k);
        loader::load(&data).unwrap();
        for len in 0..data.len() {
            match loader::load(&data[..len]) {
                Ok(_) => panic!("{chip}/{k} truncated to {len} bytes loaded"),
                Err(e) => one_line(&e),
            }
        }
    }
}

#[test]
fn random_bytes_are_errors() {
    let header = sample("cayman", "collatz")[..52].to_vec();
    // Half of them start with a valid r600 ELF header so parsing goes deeper.
    let inputs = testkit::random_cases(0x5eed_7e2a_0000_0001, 3000, 0..=4095)
        .enumerate()
        .map(|(i, mut c)| {
            if i % 2 == 1 && c.bytes.len() >= 52 {
                c.bytes[..52].copy_from_slice(&header);
                c.origin += " with a valid header";
            }
            c
        });
    testkit::never_panics(
        "r600 loader on random bytes",
        inputs,
        |data| match loader::load(data) {
            Ok(obj) => panic!("random input loaded: {obj:?}"),
            Err(e) => one_line(&e),
        },
    );
}

/// Every object of every chip's fixture directory.
fn all_fixture_objects() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for chip in CHIPS {
        let mut names: Vec<String> = std::fs::read_dir(fixtures().join(chip))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.ends_with(".o"))
            .collect();
        names.sort();
        out.extend(names.iter().map(|n| read(chip, n)));
    }
    out
}

/// Mutants of real objects (flipped bits, edge bytes and dwords, truncations, insertions,
/// deletions, splices of two objects): an error, or a load that keeps the invariants.
#[test]
fn mutated_objects_never_panic() {
    let corpus = all_fixture_objects();
    assert!(corpus.len() >= 5 * 12, "{} fixture objects", corpus.len());
    let mut loaded = 0;
    testkit::never_panics(
        "r600 loader on mutated objects",
        Mutator::new(corpus, 0xf11b_0000_7e2a_0002).cases(8000),
        |data| match loader::load(data) {
            Ok(obj) => {
                loaded += 1;
                check_invariants(&obj)
            }
            Err(e) => one_line(&e),
        },
    );
    // Some mutants (a flipped bit in code or padding) must still load, so the invariants
    // are exercised.
    assert!(loaded > 100, "only {loaded} mutants loaded");
}

#[test]
fn header_defects() {
    let clean = sample("cayman", "collatz");
    let with = |at: usize, bytes: &[u8]| {
        let mut d = clean.clone();
        d[at..at + bytes.len()].copy_from_slice(bytes);
        loader::load(&d)
    };
    assert_eq!(loader::load(b"\x7fEL"), Err(LoadError::NotElf));
    assert_eq!(with(0, b"\x7fELG"), Err(LoadError::NotElf));
    assert_eq!(with(4, &[2]), Err(LoadError::WrongClass));
    assert_eq!(with(5, &[2]), Err(LoadError::WrongClass));
    // e_machine at 18: EM_X86_64.
    assert_eq!(
        with(18, &62u16.to_le_bytes()),
        Err(LoadError::WrongMachine(62))
    );
    // e_type at 16: ET_DYN.
    assert_eq!(
        with(16, &3u16.to_le_bytes()),
        Err(LoadError::NotRelocatable(3))
    );
    // e_flags at 36: R600 (1) and RV770 (7) are not Evergreen/NI; 0x11 is no chip at all.
    for mach in [0x01u32, 0x07, 0x11, 0x2c] {
        assert_eq!(
            with(36, &mach.to_le_bytes()),
            Err(LoadError::UnsupportedChip(mach))
        );
    }
    // Section headers at e_shoff (32) past the end.
    assert!(matches!(
        with(32, &0x7fff_fff0u32.to_le_bytes()),
        Err(LoadError::Truncated(_))
    ));
    // A GCN (ELF64) object is the wrong class, not a crash.
    let mut gcn = clean.clone();
    gcn[4] = 2;
    assert_eq!(loader::load(&gcn), Err(LoadError::WrongClass));
}

#[test]
fn section_defects() {
    let (chip, k) = ("cypress", "grid2d");
    let clean = sample(chip, k);
    // Renaming a section in .strtab removes it.
    let renamed = |from: &[u8], to: &[u8]| {
        let mut d = clean.clone();
        let at = find(&d, from);
        d[at..at + to.len()].copy_from_slice(to);
        loader::load(&d)
    };
    assert!(matches!(
        renamed(b".text\0", b".texx\0"),
        Err(LoadError::Malformed(_))
    ));
    assert!(matches!(
        renamed(b".AMDGPU.config\0", b".AMDGPU.confiX\0"),
        Err(LoadError::BadConfig(_))
    ));
    // The kernel symbol's size past the end of .text, zero, or not whole 64-bit words.
    let sym = symbol_offset(chip, k, &clean);
    for size in [0x10_0000, 0, 12, u32::MAX] {
        let mut d = clean.clone();
        put32(&mut d, sym + 8, size);
        let e = loader::load(&d).unwrap_err();
        assert!(
            matches!(e, LoadError::MalformedKernel { .. }),
            "size {size}: {e}"
        );
        one_line(&e);
    }
    // The symbol no longer a function: no kernel for the config run.
    let mut d = clean.clone();
    d[sym + 12] = 0x11; // GLOBAL OBJECT
    assert!(matches!(loader::load(&d), Err(LoadError::BadConfig(_))));
}

#[test]
fn config_defects() {
    let (chip, k) = ("barts", "lds_reduce");
    let clean = sample(chip, k);
    let at = config_offset(chip, k, &clean);
    let with = |pair: usize, reg: Option<u32>, value: Option<u32>| {
        let mut d = clean.clone();
        if let Some(r) = reg {
            put32(&mut d, at + 8 * pair, r);
        }
        if let Some(v) = value {
            put32(&mut d, at + 8 * pair + 4, v);
        }
        loader::load(&d)
    };
    let bad_config = |r: Result<CodeObject, LoadError>| match r {
        Err(e @ LoadError::BadConfig(_)) => one_line(&e),
        other => panic!("{other:?}"),
    };
    let bad_kernel = |r: Result<CodeObject, LoadError>| match r {
        Err(e @ LoadError::MalformedKernel { .. }) => one_line(&e),
        other => panic!("{other:?}"),
    };
    // A graphics stage, an unknown register, a register before the resources, a repeat.
    bad_config(with(0, Some(0x28844), None));
    bad_config(with(1, Some(0x28850), None));
    bad_config(with(0, Some(0x2880c), None));
    bad_config(with(2, Some(0x2880c), None));
    // A second run: two runs for one kernel symbol.
    bad_config(with(2, Some(0x288d4), None));
    // LDS beyond 32 KiB, NUM_GPRS beyond 128 (a missing SQ_LDS_ALLOC: the test below).
    bad_kernel(with(2, None, Some(MAX_LDS_BYTES / 4 + 1)));
    bad_kernel(with(2, None, Some(u32::MAX)));
    bad_kernel(with(0, None, Some(0x200 | (MAX_GPRS + 1))));
    // The largest legal values load.
    let obj = with(2, None, Some(MAX_LDS_BYTES / 4)).unwrap();
    assert_eq!(obj.kernels[0].lds_size, MAX_LDS_BYTES);
    let obj = with(0, None, Some(0xff00 | MAX_GPRS)).unwrap();
    assert_eq!(
        (obj.kernels[0].num_gprs, obj.kernels[0].stack_size),
        (MAX_GPRS, 0xff)
    );
    // KILL_ENABLE is bit 6 of DB_SHADER_CONTROL.
    assert!(with(1, None, Some(1 << 6)).unwrap().kernels[0].kill_enable);
    assert!(!with(1, None, Some(!(1 << 6))).unwrap().kernels[0].kill_enable);
}

#[test]
fn a_config_without_lds_alloc_is_not_a_kernel() {
    let (chip, k) = ("barts", "lds_reduce");
    let mut d = sample(chip, k);
    let at = config_offset(chip, k, &d);
    // Shrink .AMDGPU.config to its first two pairs: find its section header (sh_offset and
    // sh_size = 24 follow each other) and change the size.
    let mut header = (at as u32).to_le_bytes().to_vec();
    header.extend(24u32.to_le_bytes());
    let sh = find(&d, &header);
    put32(&mut d, sh + 4, 16);
    match loader::load(&d) {
        Err(LoadError::MalformedKernel { kernel, reason }) => {
            assert_eq!(kernel, k);
            assert!(reason.contains("SQ_LDS_ALLOC"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    // And 20 bytes is not whole pairs.
    put32(&mut d, sh + 4, 20);
    assert!(matches!(loader::load(&d), Err(LoadError::BadConfig(_))));
}

#[test]
fn missing_kernel_lists_the_available_ones() {
    let obj = loader::load(&sample("juniper", "atomics")).unwrap();
    let e = obj.kernel("atomic").unwrap_err();
    assert_eq!(
        e,
        LoadError::KernelNotFound {
            name: "atomic".into(),
            available: "atomics".into()
        }
    );
    assert_eq!(e.to_string(), "kernel atomic not found; available: atomics");
    // Control characters in a requested name are escaped, keeping the message on one line.
    one_line(&obj.kernel("a\nb").unwrap_err());
}

/// A misaligned buffer (a slice of a larger one) loads the same as an aligned one.
#[test]
fn misaligned_input_loads() {
    let data = sample("cayman", "matmul_tiled");
    let mut shifted = vec![0u8; data.len() + 1];
    shifted[1..].copy_from_slice(&data);
    assert_eq!(
        loader::load(&shifted[1..]).unwrap(),
        loader::load(&data).unwrap()
    );
}
