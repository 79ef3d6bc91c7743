//! The CTM executable writer's byte layout (ELF32 little-endian, the TIS ELF 1.2 structures):
//!
//! | offset | contents |
//! |---|---|
//! | 0 | ELF header (52 bytes) |
//! | 52 | program headers: `PT_LOAD` (.text, R+X), `PT_NOTE` (.note, R), 32 bytes each |
//! | 128 | `.text`: the words, little-endian |
//! | after | `.note`: the seven "ATI DPP" notes, types 1-7 in order |
//! | after | `.shstrtab` (padded to 4) |
//! | after | section headers: null, `.text`, `.note`, `.shstrtab`, 40 bytes each |

use super::{Notes, NOTE_OWNER, PROGINFO_WORDS};

const EHDR: usize = 52;
const PHDR: usize = 32;
const SHDR: usize = 40;
const TEXT_OFFSET: usize = 128;
const SHSTRTAB: &[u8] = b"\0.text\0.note\0.shstrtab\0";
// Offsets of the names in SHSTRTAB.
const NAME_TEXT: u32 = 1;
const NAME_NOTE: u32 = 7;
const NAME_SHSTRTAB: u32 = 13;

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn note(out: &mut Vec<u8>, n_type: u32, desc: &[u32]) {
    // namesz counts the NUL: "ATI DPP\0" is 8 bytes, already a multiple of 4.
    u32le(out, NOTE_OWNER.len() as u32 + 1);
    u32le(out, 4 * desc.len() as u32);
    u32le(out, n_type);
    out.extend_from_slice(NOTE_OWNER);
    out.push(0);
    for w in desc {
        u32le(out, *w);
    }
}

fn notes_bytes(proginfo: &[u32; PROGINFO_WORDS], n: &Notes) -> Vec<u8> {
    let mut out = Vec::new();
    note(&mut out, super::NOTE_PROGINFO, proginfo);
    note(&mut out, super::NOTE_INPUTS, &n.inputs);
    note(&mut out, super::NOTE_OUTPUTS, &n.outputs);
    note(&mut out, super::NOTE_CONDOUT, &[u32::from(n.cond_out)]);
    note(&mut out, super::NOTE_FLOAT32CONSTS, &n.float32_consts);
    note(&mut out, super::NOTE_INT32CONSTS, &n.int32_consts);
    note(&mut out, super::NOTE_EARLYEXIT, &[u32::from(n.early_exit)]);
    out
}

fn phdr(out: &mut Vec<u8>, p_type: u32, offset: usize, size: usize, flags: u32) {
    u32le(out, p_type);
    u32le(out, offset as u32);
    u32le(out, 0); // p_vaddr
    u32le(out, 0); // p_paddr
    u32le(out, size as u32); // p_filesz
    u32le(out, size as u32); // p_memsz
    u32le(out, flags);
    u32le(out, 4); // p_align
}

fn shdr(out: &mut Vec<u8>, name: u32, sh_type: u32, flags: u32, offset: usize, size: usize) {
    u32le(out, name);
    u32le(out, sh_type);
    u32le(out, flags);
    u32le(out, 0); // sh_addr
    u32le(out, offset as u32);
    u32le(out, size as u32);
    u32le(out, 0); // sh_link
    u32le(out, 0); // sh_info
    u32le(out, if sh_type == 0 { 0 } else { 4 }); // sh_addralign
    u32le(out, 0); // sh_entsize
}

pub(super) fn write(words: &[u32], proginfo: &[u32; PROGINFO_WORDS], n: &Notes) -> Vec<u8> {
    let text_size = 4 * words.len();
    let notes = notes_bytes(proginfo, n);
    let note_offset = TEXT_OFFSET + text_size;
    let strtab_offset = note_offset + notes.len();
    let strtab_size = SHSTRTAB.len();
    let shoff = (strtab_offset + strtab_size).next_multiple_of(4);

    let mut out = Vec::with_capacity(shoff + 4 * SHDR);
    // e_ident: magic, ELFCLASS32, ELFDATA2LSB, EV_CURRENT, ELFOSABI_ATI, ABI version 1.
    out.extend_from_slice(b"\x7fELF");
    out.extend_from_slice(&[1, 1, 1, super::ELFOSABI_ATI, 1, 0, 0, 0, 0, 0, 0, 0]);
    u16le(&mut out, 2); // e_type = ET_EXEC
    u16le(&mut out, super::EM_ATI_R5XX);
    u32le(&mut out, 1); // e_version
    u32le(&mut out, 0); // e_entry
    u32le(&mut out, EHDR as u32); // e_phoff
    u32le(&mut out, shoff as u32);
    u32le(&mut out, super::EF_ATI_DPP);
    u16le(&mut out, EHDR as u16);
    u16le(&mut out, PHDR as u16);
    u16le(&mut out, 2); // e_phnum
    u16le(&mut out, SHDR as u16);
    u16le(&mut out, 4); // e_shnum
    u16le(&mut out, 3); // e_shstrndx
                        // PF_R = 4, PF_X = 1.
    phdr(&mut out, object::elf::PT_LOAD, TEXT_OFFSET, text_size, 5);
    phdr(&mut out, object::elf::PT_NOTE, note_offset, notes.len(), 4);
    out.resize(TEXT_OFFSET, 0);
    for w in words {
        u32le(&mut out, *w);
    }
    out.extend_from_slice(&notes);
    out.extend_from_slice(SHSTRTAB);
    out.resize(shoff, 0);
    shdr(&mut out, 0, 0, 0, 0, 0);
    let alloc_exec = object::elf::SHF_ALLOC | object::elf::SHF_EXECINSTR;
    shdr(
        &mut out,
        NAME_TEXT,
        object::elf::SHT_PROGBITS,
        alloc_exec,
        TEXT_OFFSET,
        text_size,
    );
    shdr(
        &mut out,
        NAME_NOTE,
        object::elf::SHT_NOTE,
        0,
        note_offset,
        notes.len(),
    );
    shdr(
        &mut out,
        NAME_SHSTRTAB,
        object::elf::SHT_STRTAB,
        0,
        strtab_offset,
        strtab_size,
    );
    out
}
