//! Bad input gives a [`LoadError`] with a one-line message, never a panic: every truncation of
//! a real binary, random bytes, mutants of the whole corpus (testkit's mutator), and named
//! defects of the outer ELF, the metadata, the CAL image (dictionary, program headers, notes,
//! sections) and PROGINFO.

mod appsdk_common;

use appsdk_common::{corpus, read};
use wavejit_amdil::appsdk::{self, Binary, LoadError};
use wavejit_isa::elf::{Elf32, ElfFile};
use wavejit_isa::testkit::{self, Mutation, Mutator};

const VECTOR_ADD: &str = "si/vector-add.bin";

fn one_line(e: &LoadError) {
    let msg = e.to_string();
    assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
}

/// Every offset at which `needle` occurs in `data`.
fn find_all(data: &[u8], needle: &[u8]) -> Vec<usize> {
    data.windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i)
        .collect()
}

/// The one offset at which `needle` occurs.
fn find(data: &[u8], needle: &[u8]) -> usize {
    let hits = find_all(data, needle);
    assert_eq!(hits.len(), 1, "{needle:02x?} occurs {} times", hits.len());
    hits[0]
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The load error of `data`, checked to be one line.
fn error(data: &[u8]) -> LoadError {
    match appsdk::load(data) {
        Ok(b) => panic!("loaded: {} kernels", b.kernels.len()),
        Err(e) => {
            one_line(&e);
            e
        }
    }
}

/// The reason of a [`LoadError::MalformedKernel`] for `kernel`.
fn kernel_reason(data: &[u8], kernel: &str) -> String {
    match error(data) {
        LoadError::MalformedKernel { kernel: k, reason } if k == kernel => reason,
        other => panic!("{other:?}"),
    }
}

/// What every loaded binary keeps (the module's invariants), for mutants that still load.
fn check_invariants(b: &Binary) {
    assert!(!b.kernels.is_empty());
    for k in &b.kernels {
        assert_eq!(k.isa().entry.machine, b.chip.isa_machine());
        assert!(!k.isa().text.is_empty());
        assert_eq!(k.isa().data.len(), 4736);
        if let Some(il) = k.il() {
            assert_eq!(Some(il.entry.machine), b.chip.il_machine());
        }
        assert!(k
            .metadata
            .args
            .iter()
            .all(|a| !a.cl_type.is_empty() || a.line.is_empty()));
    }
    assert!(b.globals.windows(2).all(|w| w[0].cb < w[1].cb));
}

#[test]
fn every_truncation_is_an_error() {
    if corpus().is_none() {
        return;
    }
    for path in [VECTOR_ADD, "evergreen/vector-add.bin"] {
        let data = read(path);
        appsdk::load(&data).unwrap();
        for len in testkit::truncations(data.len()) {
            match appsdk::load(&data[..len]) {
                Ok(_) => panic!("{path} truncated to {len} bytes loaded"),
                Err(e) => one_line(&e),
            }
        }
    }
}

#[test]
fn random_bytes_are_errors() {
    if corpus().is_none() {
        return;
    }
    let header = read(VECTOR_ADD)[..52].to_vec();
    // Half of them start with a valid outer header so parsing goes deeper.
    let inputs = testkit::random_cases(0xa9d5_0000_0000_0001, 2000, 0..=4095)
        .enumerate()
        .map(|(i, mut c)| {
            if i % 2 == 1 && c.bytes.len() >= 52 {
                c.bytes[..52].copy_from_slice(&header);
                c.origin += " with a valid header";
            }
            c
        });
    testkit::never_panics(
        "appsdk loader on random bytes",
        inputs,
        |data| match appsdk::load(data) {
            Ok(b) => panic!("random input loaded: {} kernels", b.kernels.len()),
            Err(e) => one_line(&e),
        },
    );
}

/// Mutants of every corpus file: an error, or a load that keeps the invariants. The in-place
/// mutations keep the layout, so many mutants get as far as the CAL images and their notes.
#[test]
fn mutated_binaries_never_panic() {
    let Some(files) = corpus() else { return };
    let all: Vec<Vec<u8>> = files.into_iter().map(|(_, b)| b).collect();
    let small: Vec<Vec<u8>> = all.iter().filter(|b| b.len() < 40_000).cloned().collect();
    let (mut loaded, mut failed) = (0, 0);
    let mut run = |name: &str, m: Mutator, n: usize| {
        testkit::never_panics(name, m.cases(n), |data| match appsdk::load(data) {
            Ok(b) => {
                loaded += 1;
                check_invariants(&b)
            }
            Err(e) => {
                failed += 1;
                one_line(&e)
            }
        });
    };
    run(
        "appsdk loader on mutated binaries",
        Mutator::new(all, 0xa9d5_0000_0000_0002),
        1500,
    );
    run(
        "appsdk loader on binaries mutated in place",
        Mutator::new(small, 0xa9d5_0000_0000_0003)
            .with(&Mutation::IN_PLACE)
            .steps(1..=8),
        3000,
    );
    // Both outcomes happen, so the invariants and the errors are both exercised.
    assert!(
        loaded > 200 && failed > 200,
        "{loaded} loaded, {failed} failed"
    );
}

#[test]
fn outer_elf_defects() {
    if corpus().is_none() {
        return;
    }
    let clean = read(VECTOR_ADD);
    let with = |at: usize, bytes: &[u8]| {
        let mut d = clean.clone();
        d[at..at + bytes.len()].copy_from_slice(bytes);
        d
    };
    assert_eq!(error(b"\x7fEL"), LoadError::NotElf);
    assert_eq!(error(&with(0, b"\x7fELG")), LoadError::NotElf);
    assert_eq!(error(&with(4, &[2])), LoadError::WrongClass);
    assert_eq!(error(&with(5, &[2])), LoadError::WrongClass);
    // e_machine (offset 18): 0x3F2 is no chip's; the message lists the known ones.
    let e = error(&with(18, &0x3F2u16.to_le_bytes()));
    assert_eq!(e, LoadError::WrongMachine(0x3F2));
    assert_eq!(
        e.to_string(),
        "ELF machine 0x3f2 is not an AMD APP SDK chip's (cypress 0x3f1, tahiti 0x3fd, \
         pitcairn 0x3fe, capeverde 0x3ff, oland 0x402, hainan 0x407)"
    );
    // Another chip's machine: the metadata says tahiti.
    let reason = kernel_reason(&with(18, &0x3F1u16.to_le_bytes()), "vector_add");
    assert_eq!(
        reason,
        "metadata: device tahiti but the ELF machine is cypress's"
    );
    // The section header table (e_shoff at 32) past the end.
    assert!(matches!(
        error(&with(32, &0x7fff_fff0u32.to_le_bytes())),
        LoadError::Truncated(_)
    ));

    // .text's sh_offset past the end of the file.
    let elf = ElfFile::parse::<Elf32>(&clean, 0x3FD).unwrap();
    let (text, _) = elf.section_by_name(".text").unwrap();
    let shoff = u32::from_le_bytes(clean[32..36].try_into().unwrap()) as usize;
    let sh_offset = shoff + 40 * text + 16;
    assert_eq!(
        error(&with(sh_offset, &0x00ff_0000u32.to_le_bytes())),
        LoadError::Truncated("section .text is past the end of the file".into())
    );
    // The kernel symbol's size past the end of .text.
    let sym = find(&clean, &le(&[0, 14916, 0x0007_0002]));
    let e = kernel_reason(&with(sym, &le(&[0, 14917])), "vector_add");
    assert_eq!(
        e,
        "symbol __OpenCL_vector_add_kernel (0x0+0x3a45) is outside .text (0x3a44 bytes)"
    );
    // No metadata or header symbol (.strtab is the first place the names occur).
    let at = find_all(&clean, b"__OpenCL_vector_add_header\0")[0];
    let reason = kernel_reason(&with(at, b"__OpenCL_vector_add_headeX"), "vector_add");
    assert_eq!(reason, "no symbol __OpenCL_vector_add_header in .rodata");
    // Renamed kernel symbols are not kernels; with none left, the file has no kernels.
    let at = find_all(&clean, b"__OpenCL_vector_add_kernel\0")[0];
    assert_eq!(
        error(&with(at, b"__OpenCL_vector_add_kerneX")),
        LoadError::Malformed(
            "function symbol __OpenCL_vector_add_kerneX in .text is not __OpenCL_<name>_kernel"
                .into()
        )
    );
}

#[test]
fn metadata_defects() {
    if corpus().is_none() {
        return;
    }
    let clean = read(VECTOR_ADD);
    // The first copy of each string is the metadata in .rodata (the IL encoding embeds the
    // same lines later, in .text).
    let with = |from: &[u8], to: &[u8]| {
        assert_eq!(from.len(), to.len());
        let mut d = clean.clone();
        let at = find_all(&d, from)[0];
        d[at..at + to.len()].copy_from_slice(to);
        kernel_reason(&d, "vector_add")
    };
    assert_eq!(
        with(
            b";ARGSTART:__OpenCL_vector_add_kernel",
            b";ARGSTART:__OpenCL_vector_add_kerneX"
        ),
        "metadata: the first line \";ARGSTART:__OpenCL_vector_add_kerneX\" is not \
         \";ARGSTART:__OpenCL_vector_add_kernel\""
    );
    assert_eq!(
        with(b";reflection:1:", b";reflection:7:"),
        "metadata: 3 argument lines but reflection indices [0, 7, 2]: every argument has one \
         reflection line, in order"
    );
    assert_eq!(
        with(b":uav:11:4:RO", b":uav:1x:4:RO"),
        "metadata: \"pointer:src1:i32:1:1:0:uav:1x:4:RO:0:0\": field 7 (\"1x\") is not a number"
    );
    assert_eq!(
        with(b":uav:11:4:RO", b":uvv:11:4:RO"),
        "metadata: \"pointer:src1:i32:1:1:0:uvv:11:4:RO:0:0\": address space \"uvv\" is not uav, \
         hc, c or hl"
    );
    assert_eq!(
        with(b";device:tahiti", b";device:hainan"),
        "metadata: device hainan but the ELF machine is tahiti's"
    );
    assert_eq!(
        with(b";memory:hwregion", b";memory:hwregiox"),
        "metadata: unknown memory line \"memory:hwregiox:0\""
    );
}

#[test]
fn cal_image_defects() {
    if corpus().is_none() {
        return;
    }
    let clean = read(VECTOR_ADD);
    let b = appsdk::load(&clean).unwrap();
    let k = b.kernel("vector_add").unwrap();
    let image = find(&clean, b"\x7fELF\x01\x01\x01\x64");
    let (il, isa) = (k.image.dictionary[0], k.image.dictionary[1]);
    let dict = find(&clean, &le(&[25, 4, il.offset, il.size, 0]));
    let with = |at: usize, words: &[u32]| {
        let mut d = clean.clone();
        d[at..at + 4 * words.len()].copy_from_slice(&le(words));
        kernel_reason(&d, "vector_add")
    };

    // The inner machine.
    assert_eq!(
        with(image + 18, &[0x7E]),
        "CAL image: ELF machine 0x7e is not a CAL image's (0x7d)"
    );
    // Missing encodings: an unknown machine, the ISA entry named IL, an entry past the end.
    assert_eq!(
        with(dict + 20, &[27]),
        "CAL image: encoding 1 (machine 27): not tahiti's ISA (26) or IL (25)"
    );
    assert_eq!(
        with(dict + 20, &[25]),
        "CAL image: encoding 1 (machine 25): a second Il encoding"
    );
    assert_eq!(
        with(dict + 20 + 12, &[0x10_0000]),
        format!(
            "CAL image: encoding 1 ({:#x}+0x100000) runs past the end of the image ({:#x} bytes)",
            isa.offset,
            k.image.isa.entry.offset + k.image.isa.entry.size
        )
    );
    // The dictionary's program header reduced to one entry: the ISA's segments belong to none.
    let e_phoff = u32::from_le_bytes(clean[image + 28..image + 32].try_into().unwrap());
    let ph0 = image + e_phoff as usize;
    assert_eq!(clean[ph0..ph0 + 4], le(&[0x7000_0002]));
    let e = with(ph0 + 16, &[20]);
    assert!(
        e.starts_with("CAL image: program header 3 ")
            && e.ends_with("does not lie in exactly one encoding"),
        "{e}"
    );
    // The dictionary and the program headers reduced to the IL encoding's: no ISA encoding.
    let mut d = clean.clone();
    d[ph0 + 16..ph0 + 20].copy_from_slice(&le(&[20]));
    d[image + 44..image + 46].copy_from_slice(&3u16.to_le_bytes());
    assert_eq!(
        kernel_reason(&d, "vector_add"),
        "CAL image: no ISA encoding (machine 26) among machines [25]"
    );
    // A dictionary that is not whole entries.
    assert_eq!(
        with(ph0 + 16, &[30]),
        "CAL image: the encoding dictionary is 30 bytes, not a positive number of 20-byte entries"
    );

    // A note whose size runs past the end of the PT_NOTE: CONSTANT_BUFFERS of the ISA.
    let note = find_all(&clean, &[le(&[8, 16, 10]), b"ATI CAL\0".to_vec()].concat())[1];
    assert_eq!(
        with(note + 4, &[0x1000]),
        "CAL image: encoding 1 (machine 26): notes: Invalid ELF note descsz"
    );
    // A repeated note type (whole-entry payloads: the unit tests of notes.rs).
    assert_eq!(
        with(note + 8, &[2]),
        "CAL image: encoding 1 (machine 26): two INPUTS notes"
    );
    // A note of another owner.
    let mut d = clean.clone();
    d[note + 12..note + 20].copy_from_slice(b"ATI CAX\0");
    assert_eq!(
        kernel_reason(&d, "vector_add"),
        "CAL image: encoding 1 (machine 26): a note of owner \"ATI CAX\", not \"ATI CAL\""
    );

    // .data of the ISA encoding shrunk (its section header: size 4736, entsize 4736).
    let data_sh = find_all(&clean, &le(&[4736, 0, 0, 0, 4736]))[1];
    assert_eq!(
        with(data_sh, &[4732]),
        "CAL image: encoding 1 (machine 26): .data is 4732 bytes, not 4736"
    );
    // .text renamed in .shstrtab (both encodings' .text sections share the name).
    let shstrtab = find(&clean[image..], b"\0.text\0.data\0") + image;
    assert_eq!(
        with(shstrtab + 1, &[u32::from_le_bytes(*b".teX")]),
        "CAL image: encoding 0 (machine 25): not exactly one .text section in its PT_LOAD"
    );
}

#[test]
fn proginfo_defects() {
    if corpus().is_none() {
        return;
    }
    let clean = read(VECTOR_ADD);
    let with = |pair: &[u32], new: &[u32]| {
        let mut d = clean.clone();
        let at = find(&d, &le(pair));
        d[at..at + 4 * new.len()].copy_from_slice(&le(new));
        kernel_reason(&d, "vector_add")
    };
    assert_eq!(
        with(&[0x2E13, 0x98], &[0x2E14]),
        "ISA encoding: PROGINFO has no COMPUTE_PGM_RSRC2 (0x2e13)"
    );
    // USER_SGPR 4: the CB0 descriptor in s[4:7] is outside.
    assert_eq!(
        with(&[0x2E13, 0x98], &[0x2E13, 0x88]),
        "ISA encoding: USER_ELEMENTS_1 (IMM_CONST_BUFFER) loads s4..s7 but COMPUTE_PGM_RSRC2 \
         has 4 user SGPRs"
    );
    assert_eq!(
        with(&[0x8000_1000, 3], &[0x8000_1000, 17]),
        "ISA encoding: USER_ELEMENT_COUNT 17 exceeds the 16 slots"
    );
    assert_eq!(
        with(&[0x8000_1001, 0x17], &[0x8000_1001, 0x40]),
        "ISA encoding: USER_ELEMENTS_0: unknown data class 64"
    );
    assert_eq!(
        with(&[0x8000_1041], &[0x8000_1042]),
        "CAL image: encoding 1 (machine 26): PROGINFO gives address 0x80001042 twice"
    );
}

#[test]
fn missing_kernel_lists_the_available_ones() {
    if corpus().is_none() {
        return;
    }
    let b = appsdk::load(&read("si/MemoryOptimizations_Kernels.bin")).unwrap();
    let e = b.kernel("copy").unwrap_err();
    assert_eq!(
        e.to_string(),
        "kernel copy not found; available: copy1DFastPath, copy1DCompletePath, copy2Dfloat, \
         copy2Dfloat4, copy1Dfloat4, NoCoal, Split"
    );
    one_line(&b.kernel("a\nb").unwrap_err());
}

/// A misaligned buffer (a slice of a larger one) loads the same as an aligned one.
#[test]
fn misaligned_input_loads() {
    if corpus().is_none() {
        return;
    }
    let data = read(VECTOR_ADD);
    let mut shifted = vec![0u8; data.len() + 3];
    shifted[3..].copy_from_slice(&data);
    assert_eq!(
        appsdk::load(&shifted[3..]).unwrap(),
        appsdk::load(&data).unwrap()
    );
}
