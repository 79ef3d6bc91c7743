//! The CTM executable (seed 003 chapter 4): the writer's file against an independent reading
//! (GNU readelf's listing of it, checked in as tests/data/ctm_two_slots.readelf.txt, and a
//! byte-level header check written from the ELF32 layout), the loader on it, and the loader's
//! one-line error for each check, and never a panic on random, truncated or mutated bytes.

use wavejit_isa::testkit::{never_panics, random_cases, truncations, Case, Mutator};
use wavejit_r5xx::elf::{load, proginfo_words, sniff, write_elf, write_elf_raw, LoadError, Notes};
use wavejit_r5xx::encode::encode_words;
use wavejit_r5xx::parse::parse_program;
use wavejit_r5xx::setup::ProgInfo;

const FIXTURE: &[u8] = include_bytes!("data/ctm_two_slots.elf");
const READELF: &str = include_str!("data/ctm_two_slots.readelf.txt");

fn program() -> Vec<u32> {
    let p = parse_program(
        "alu r1.rgb = mad src0.rgb, src1.rrr, src2.rrr ; r1.a = rcp src0.a \
         {src0 = r2, src1 = c0, src2 = 0.5}\n\
         out o0.rgb = max.disable src0.rgb, src0.rgb ; o0.a = max.disable src0.a, src0.a \
         {src0 = r1} [sem_wait, last]\n",
    )
    .unwrap();
    encode_words(&p)
}

fn info() -> ProgInfo {
    ProgInfo {
        exports_cond: true,
        uncached_outputs: false,
        zero_times_anything: true,
        pixsize: 2,
        full_fc: true,
        start: 0,
        end: 1,
    }
}

fn notes() -> Notes {
    Notes {
        inputs: vec![0, 3],
        outputs: vec![0],
        cond_out: true,
        float32_consts: vec![0, 5],
        int32_consts: vec![1],
        early_exit: false,
    }
}

fn fixture() -> Vec<u8> {
    write_elf(&program(), &info(), &notes())
}

#[test]
fn the_writer_still_writes_the_checked_in_file() {
    assert_eq!(fixture(), FIXTURE);
}

/// The value after `label` on readelf's header line.
fn header(label: &str) -> &'static str {
    READELF
        .lines()
        .find_map(|l| l.trim().strip_prefix(label))
        .unwrap_or_else(|| panic!("{label}"))
        .trim()
}

#[test]
fn readelf_reads_the_seeds_header_sections_segments_and_notes() {
    // Seed 003 §4.1.2: ELFCLASS32, LSB, OSABI 98 (0x62), ABI version 1, ET_EXEC,
    // EM_ATI_R5XX 122 (0x7a), entry 0, flags 1.
    assert_eq!(
        header("Magic:"),
        "7f 45 4c 46 01 01 01 62 01 00 00 00 00 00 00 00"
    );
    assert_eq!(header("Class:"), "ELF32");
    assert_eq!(header("Data:"), "2's complement, little endian");
    assert_eq!(header("OS/ABI:"), "<unknown: 62>");
    assert_eq!(header("ABI Version:"), "1");
    assert_eq!(header("Type:"), "EXEC (Executable file)");
    assert_eq!(header("Machine:"), "<unknown>: 0x7a");
    assert_eq!(header("Entry point address:"), "0x0");
    assert_eq!(header("Flags:"), "0x1");
    // .text: PROGBITS, AX, at 0x80, 2 slots of 24 bytes; in the LOAD segment; .note in NOTE.
    let text = READELF.lines().find(|l| l.contains("] .text")).unwrap();
    let cols: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(
        &cols[3..8],
        ["PROGBITS", "00000000", "000080", "000030", "00"]
    );
    assert_eq!(cols[8], "AX");
    assert!(
        READELF.contains("LOAD           0x000080 0x00000000 0x00000000 0x00030 0x00030 R E 0x4")
    );
    assert!(READELF.lines().any(|l| l.trim() == "00     .text"));
    assert!(READELF.lines().any(|l| l.trim() == "01     .note"));
    // The .text bytes are the program's words.
    let words: Vec<u32> = FIXTURE[0x80..0xb0]
        .chunks(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(words, program());
    // The seven notes, owner "ATI DPP", in type order, with the descriptors written out
    // from the seed's tables: dpp_proginfo = 1, FG_DEPTH_SRC 1, US_CONFIG 2 (bit 1), PIXSIZE
    // 2, FC_CTRL bit 31, CODE_ADDR 0..1, CODE_RANGE (2-1)<<16, 0xc0, 0x20000, zeros, CNT 2.
    let mut proginfo = vec![
        1u32,
        1,
        2,
        2,
        0x8000_0000,
        0x1_0000,
        0x1_0000,
        0xc0,
        0x2_0000,
    ];
    proginfo.resize(27, 0);
    proginfo.push(2);
    let descs: Vec<Vec<u32>> = READELF
        .lines()
        .filter(|l| l.contains("ATI DPP"))
        .map(|l| {
            let hex = l.split("description data:").nth(1).unwrap();
            let bytes: Vec<u8> = hex
                .split_whitespace()
                .map(|b| u8::from_str_radix(b, 16).unwrap())
                .collect();
            bytes
                .chunks(4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
                .collect()
        })
        .collect();
    assert_eq!(
        descs,
        vec![
            proginfo,
            vec![0, 3],
            vec![0],
            vec![1],
            vec![0, 5],
            vec![1],
            vec![0]
        ]
    );
}

#[test]
fn the_header_bytes_follow_the_elf32_layout() {
    let b = FIXTURE;
    let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
    let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    // e_ident: magic, EI_CLASS 1, EI_DATA 1, EI_VERSION 1, EI_OSABI 98, EI_ABIVERSION 1.
    assert_eq!(&b[..9], b"\x7fELF\x01\x01\x01\x62\x01");
    assert_eq!(u16_at(16), 2, "e_type ET_EXEC");
    assert_eq!(u16_at(18), 122, "e_machine");
    assert_eq!(u32_at(20), 1, "e_version");
    assert_eq!(u32_at(24), 0, "e_entry");
    assert_eq!(u32_at(28), 52, "e_phoff");
    assert_eq!(u32_at(36), 1, "e_flags");
    assert_eq!((u16_at(40), u16_at(42), u16_at(44)), (52, 32, 2));
    assert_eq!((u16_at(46), u16_at(48), u16_at(50)), (40, 4, 3));
    // Program header 0: PT_LOAD (1) at 0x80; header 1: PT_NOTE (4).
    assert_eq!((u32_at(52), u32_at(56)), (1, 0x80));
    assert_eq!(u32_at(84), 4);
    assert!(sniff(b));
    assert!(!sniff(&b[..19]));
    assert!(!sniff(&patched(18, &[3, 0])), "another machine");
    assert!(!sniff(&patched(7, &[0])), "another OS ABI");
    assert!(!sniff(&patched(4, &[2])), "ELF64");
}

#[test]
fn the_loader_reads_program_info_and_notes() {
    let elf = load(FIXTURE).unwrap();
    assert_eq!(elf.words, program());
    assert_eq!(elf.program.len(), 2);
    assert_eq!(elf.info, info());
    assert_eq!(elf.notes, notes());
    assert_eq!(elf.proginfo, proginfo_words(&info(), 2));
    // Reserved words are not checked: a file with other values loads.
    let mut words = proginfo_words(&info(), 2);
    words[0] = 7;
    words[20] = 9;
    let elf = load(&write_elf_raw(&program(), &words, &notes())).unwrap();
    assert_eq!((elf.proginfo[0], elf.proginfo[20]), (7, 9));
}

fn patched(at: usize, bytes: &[u8]) -> Vec<u8> {
    let mut f = fixture();
    f[at..at + bytes.len()].copy_from_slice(bytes);
    f
}

fn msg(bytes: &[u8]) -> String {
    let e = load(bytes).unwrap_err();
    let m = e.to_string();
    assert!(!m.contains('\n'), "{m}");
    m
}

/// Offsets in the fixture: section headers at 0x1e4 (40 bytes each), notes from 0xb0 (each
/// 12 header bytes, 8 name bytes, then the descriptor: proginfo 112, inputs 8, outputs 4,
/// condout 4, float32 8, int32 4, earlyexit 4).
const SHOFF: usize = 0x1e4;
const NOTE_PROGINFO: usize = 0xb0;
const NOTE_INPUTS: usize = NOTE_PROGINFO + 20 + 112;
const NOTE_OUTPUTS: usize = NOTE_INPUTS + 20 + 8;
const NOTE_CONDOUT: usize = NOTE_OUTPUTS + 20 + 4;

#[test]
fn each_header_check_has_its_error() {
    assert_eq!(load(b"hello").unwrap_err(), LoadError::NotElf);
    assert_eq!(
        msg(&patched(4, &[2])),
        "not a 32-bit little-endian ELF file (a CTM executable is ELFCLASS32, ELFDATA2LSB)"
    );
    assert_eq!(msg(&patched(5, &[2])), msg(&patched(4, &[2])));
    assert!(msg(&FIXTURE[..40]).starts_with("truncated ELF file: 40 bytes"));
    assert_eq!(
        msg(&patched(18, &[3, 0])),
        "e_machine is 3, not EM_ATI_R5XX (122)"
    );
    assert_eq!(
        msg(&patched(7, &[0])),
        "EI_OSABI is 0, a CTM executable has 98"
    );
    assert_eq!(
        msg(&patched(8, &[2])),
        "EI_ABIVERSION is 2, a CTM executable has 1"
    );
    assert_eq!(
        msg(&patched(16, &[1, 0])),
        "e_type is 1, a CTM executable has 2"
    );
    assert_eq!(
        msg(&patched(24, &[4])),
        "e_entry is 4, a CTM executable has 0"
    );
    assert_eq!(
        msg(&patched(36, &[0])),
        "e_flags is 0, a CTM executable has 1"
    );
}

#[test]
fn each_section_and_segment_check_has_its_error() {
    // .shstrtab at 0x1cc: "\0.text\0.note\0.shstrtab\0".
    assert_eq!(
        msg(&patched(0x1cc + 1, b".txet")),
        "malformed CTM executable: no .text section"
    );
    assert_eq!(
        msg(&patched(0x1cc + 7, b".text")),
        "malformed CTM executable: 2 .text sections"
    );
    assert_eq!(
        msg(&patched(SHOFF + 40 + 4, &[0x11])),
        "malformed CTM executable: .text has type 17, not SHT_PROGBITS"
    );
    assert_eq!(
        msg(&patched(SHOFF + 40 + 8, &[2])),
        "malformed CTM executable: .text is not SHF_ALLOC | SHF_EXECINSTR"
    );
    assert_eq!(
        msg(&patched(52, &[0])),
        "malformed CTM executable: no PT_LOAD segment holds .text"
    );
    assert_eq!(
        msg(&patched(84, &[0])),
        "malformed CTM executable: no PT_NOTE segment holds note section .note"
    );
    let e = |words: &[u32]| msg(&write_elf(words, &ProgInfo::default(), &Notes::default()));
    assert_eq!(
        e(&[0; 7]),
        "malformed CTM executable: .text is 28 bytes, not a whole number (at least 1) of 24-byte slots"
    );
    assert_eq!(
        e(&[]),
        "malformed CTM executable: .text is 0 bytes, not a whole number (at least 1) of 24-byte slots"
    );
    assert_eq!(
        e(&vec![0; 6 * 513]),
        "malformed CTM executable: 513 slots exceed the 512-slot instruction memory"
    );
}

#[test]
fn each_program_info_check_has_its_error() {
    let raw = |f: &dyn Fn(&mut [u32; 28])| {
        let mut w = proginfo_words(&info(), 2);
        f(&mut w);
        msg(&write_elf_raw(&program(), &w, &notes()))
    };
    assert_eq!(
        raw(&|w| w[27] = 3),
        "malformed CTM executable: INSTR_CNT is 3, .text has 2 slots"
    );
    assert_eq!(
        raw(&|w| w[6] = 0x2_0000),
        "malformed CTM executable: US_CODE_RANGE is 0x20000, not (INSTR_CNT - 1) << 16 = 0x10000"
    );
    assert_eq!(
        raw(&|w| w[5] = 2 << 16),
        "malformed CTM executable: US_CODE_ADDR runs slots 0 to 2, outside 0 to 1"
    );
    assert_eq!(
        raw(&|w| w[5] = 1),
        "malformed CTM executable: US_CODE_ADDR runs slots 1 to 0, outside 0 to 1"
    );
    // The program info note's type changed to 9 (ignored): none left.
    assert_eq!(
        msg(&patched(NOTE_PROGINFO + 8, &[9])),
        "malformed CTM executable: no ATI DPP program info note (type 1)"
    );
    // The inputs note retyped as program info: two of them; with the real one gone, one of
    // 8 bytes.
    assert_eq!(
        msg(&patched(NOTE_INPUTS + 8, &[1])),
        "malformed CTM executable: 2 program info notes (type 1)"
    );
    let mut f = patched(NOTE_INPUTS + 8, &[1]);
    f[NOTE_PROGINFO + 8] = 9;
    assert_eq!(
        msg(&f),
        "malformed CTM executable: the program info note is 8 bytes, not 112"
    );
}

#[test]
fn each_note_check_has_its_error() {
    let with = |n: Notes| msg(&write_elf(&program(), &info(), &n));
    let e = with(Notes {
        inputs: vec![16],
        ..notes()
    });
    assert_eq!(
        e,
        "malformed CTM executable: inputs index 16 is out of range (0-15)"
    );
    let e = with(Notes {
        outputs: vec![1, 4],
        ..notes()
    });
    assert_eq!(
        e,
        "malformed CTM executable: outputs index 4 is out of range (0-3)"
    );
    let e = with(Notes {
        float32_consts: vec![256],
        ..notes()
    });
    assert_eq!(
        e,
        "malformed CTM executable: float32 constants index 256 is out of range (0-255)"
    );
    let e = with(Notes {
        int32_consts: vec![32],
        ..notes()
    });
    assert_eq!(
        e,
        "malformed CTM executable: int32 constants index 32 is out of range (0-31)"
    );
    // A one-word note holding 2 (the conditional output word at the descriptor's start).
    assert_eq!(
        msg(&patched(NOTE_CONDOUT + 20, &[2])),
        "malformed CTM executable: the conditional output note holds 2, not 0 or 1"
    );
    // descsz 6 (padded to 8, so the notes after it still parse): not whole words.
    assert_eq!(
        msg(&patched(NOTE_INPUTS + 4, &[6])),
        "malformed CTM executable: the inputs note is 6 bytes, not whole words"
    );
    // The inputs note retyped as the conditional output note (and the real one ignored):
    // two words.
    let mut f = patched(NOTE_INPUTS + 8, &[4]);
    f[NOTE_CONDOUT + 8] = 9;
    assert_eq!(
        msg(&f),
        "malformed CTM executable: the conditional output note is 8 bytes, not 4"
    );
    assert_eq!(
        msg(&patched(NOTE_INPUTS + 8, &[3])),
        "malformed CTM executable: 2 outputs notes (type 3)"
    );
    // Absent notes read as empty.
    let mut f = fixture();
    for at in [NOTE_INPUTS, NOTE_OUTPUTS, NOTE_CONDOUT] {
        f[at + 8] = 9;
    }
    let elf = load(&f).unwrap();
    assert!(elf.notes.inputs.is_empty() && elf.notes.outputs.is_empty() && !elf.notes.cond_out);
}

#[test]
fn random_truncated_and_mutated_files_never_panic() {
    let n = never_panics("r5xx elf random", random_cases(0xe1f, 2000, 0..=600), |b| {
        let _ = load(b);
        let _ = sniff(b);
    });
    assert_eq!(n, 2000);
    let cuts = truncations(FIXTURE.len())
        .into_iter()
        .map(|len| Case::new(&FIXTURE[..len], format!("first {len} bytes")));
    never_panics("r5xx elf truncated", cuts, |b| {
        if b.len() < FIXTURE.len() {
            assert!(load(b).is_err());
        }
    });
    let m = Mutator::new([FIXTURE.to_vec()], 0x5eed);
    let n = never_panics("r5xx elf mutated", m.cases(4000), |b| {
        if let Err(e) = load(b) {
            assert!(!e.to_string().contains('\n'));
        }
    });
    assert_eq!(n, 4000);
}
