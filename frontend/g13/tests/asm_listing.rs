//! Listings: labels (alone on a line or before an instruction), forward and backward
//! `pc+label` references, `pc+N`/`pc-N` and applegpu's absolute targets, comments and blank
//! lines. Expected bytes come from applegpu's own assembler (assemble.py at the table's
//! commit) where it can assemble the text, otherwise from applegpu's decoder (the target it
//! prints for the bytes).

mod vectors;

use vectors::hex;
use wavejit_g13::asm::{assemble, assemble_line, AsmErrorKind};
use wavejit_g13::inst::decode;
use wavejit_g13::print::applegpu;

/// applegpu's `assemble_multiline` gives these bytes for the same listing without its
/// comments.
#[test]
fn labels_resolve_backward_and_forward() {
    let listing = "\
start:
    mov_imm r0l, 1          ; a comment
loop:
    iadd r1, r1, 1          # another
    jmp_exec_any pc+loop    // and another

    jmp_exec_none pc+end
    icmpsel ult, r2, r1, 10, r3, 0
end: stop
";
    let p = assemble(listing).expect("assembles");
    assert_eq!(
        p.bytes,
        hex("620001000e0542120000000000c0f8ffffff20c00e000000120942a2004600308800")
    );
    let labels: Vec<(&str, u64)> = p.labels.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(labels, [("end", 32), ("loop", 4), ("start", 0)]);
}

/// `pc+N`, `pc-N` and applegpu's absolute targets (the instruction's address plus the
/// offset, `0x-` below zero) give the same offsets; bytes from applegpu's assembler for the
/// relative forms.
#[test]
fn relative_and_absolute_targets_agree() {
    let cases = [
        ("jmp_exec_any pc+12", 0x100, "00c00c000000"),
        ("jmp_exec_any 0x10C", 0x100, "00c00c000000"),
        ("jmp_exec_none pc-4", 0x100, "20c0fcffffff"),
        ("jmp_exec_none 0xFC", 0x100, "20c0fcffffff"),
        ("jmp_exec_none 0x-4", 0, "20c0fcffffff"),
        ("jmp_incomplete pc+100", 0, "00006400"),
        ("jmp_incomplete pc - 128", 0, "00008000"),
    ];
    for (text, pc, bytes) in cases {
        assert_eq!(assemble_line(text, pc), Ok(hex(bytes)), "{text}");
    }
    // applegpu cannot assemble the pc-relative call (it reads `call` as the register form);
    // its decoder prints this encoding as the target 0x-1F2D667C at pc 0x100.
    let b = assemble_line("call 0x-1F2D667C", 0x100).expect("call");
    assert_eq!(b, hex("10c08498d2e0"));
    assert_eq!(
        applegpu(&decode(&b).expect("decodes"), 0x100),
        "call 0x-1F2D667C"
    );
    assert!(
        assemble_line("jmp_incomplete pc+128", 0).is_err(),
        "8-bit offset"
    );
}

/// A label's address is the offset of the next instruction; a program's absolute targets
/// count from 0.
#[test]
fn listing_addresses_start_at_zero() {
    let p = assemble("stop\nhere:\n\n  jmp_exec_any 0x2\n  jmp_exec_any pc+here\n").expect("ok");
    // Both jumps go to address 2: offsets 0 and -6.
    assert_eq!(p.bytes, hex("880000c00000000000c0faffffff"));
    assert_eq!(p.labels.get("here"), Some(&2));
}

#[test]
fn label_errors_name_their_line() {
    let e = assemble("stop\n  jmp_exec_any pc+nowhere\n").unwrap_err();
    assert_eq!((e.line, e.kind), (Some(2), AsmErrorKind::Operand));
    assert!(e.to_string().starts_with("line 2: "), "{e}");
    assert!(e.to_string().contains("undefined label `nowhere`"), "{e}");
    let e = assemble("a:\nstop\na: stop\n").unwrap_err();
    assert_eq!((e.line, e.kind), (Some(3), AsmErrorKind::Label));
    let e = assemble("1x: stop\n").unwrap_err();
    assert_eq!((e.line, e.kind), (Some(1), AsmErrorKind::Label));
    let e = assemble_line("a: stop", 0).unwrap_err();
    assert_eq!(e.kind, AsmErrorKind::Label);
}

/// Handwritten lines in applegpu's canonical spelling (aliases, suffixes, flags, every
/// family of operands) print back unchanged; bytes from applegpu's assembler where it
/// assembles them.
#[test]
fn handwritten_lines_round_trip() {
    let known = [
        ("fadd32.sat r1, r2.abs, 0.5", "6a8544060200"),
        (
            "device_load 0, i32, x, r0, u0_u1, r1, unsigned",
            "0501200e00c01200",
        ),
        ("and r1, r2, r3", "7e054462a400"),
        ("not r1, r2", "7e0544064000"),
        ("isub r1, r2, 3", "0e05443a00000000"),
        ("imadd r0_r1, r2.sx, 3, u4, lsl 2", "1e03443600881100"),
    ];
    for (text, bytes) in known {
        assert_eq!(assemble_line(text, 0), Ok(hex(bytes)), "{text}");
    }
    let lines = [
        "update_exec r0l",
        "push_exec r0l.cache, 2",
        "if_icmp r0l, slt, r1, u5l, 1",
        "while_fcmp r0l, ltn, r2.discard.neg, -0.0, 1",
        "fcmpsel gtn, r4, r5.abs, 31.0, u7, 200",
        "icmpsel 3, r4l, r5h, 7, r9h.cache, None",
        "get_sr r4, sr80 (thread_position_in_grid.x)",
        "mov_imm r2, 4294967295, 0b1",
        "bfeil r1, r2, r3, 5, mask 0xFF",
        "xnor r127h.cache, u255h, r0l.discard",
        "device_store 1, rgb10a2, xyzw, r4_r5_r6_r7, r2_r3, -32768, signed, lsl 3, 1",
        "threadgroup_load i16, xy, r8l_r8h, u150l, -4",
        "threadgroup_atomic cmpxchg, None, 0, 56, r0_r1, 1, 0, 3, 0",
        "atomic add, 1, r2, u4_u5, r6, unsigned, r8, 1, 0, 1, 4, 2",
        "stack_load r4_r5, i32, 0, 0, xy, 0, r6, 0",
        "texture_sample 0, 0b0000, 0b0, none, xyzw, 0b00, r0_r1_r2_r3, None, ts1, ss2, \
         tex_2d, r4_r5, auto_lod, 0",
        "iter r0_r1, cf4, center, 0b0, 0, 0, 0, 0, 0",
        "zs_emit r3l, r4l_r4h_r5l, 0",
        "ld_tile r1l, i16, 0, x, 5, 255, 0",
        "unmap target1, r3, -5, 0b00, 0b0, 0b000, 0b10000, 0b00010000",
        "jmp_exec_any 0x200",
        "stop",
    ];
    for text in lines {
        let b = assemble_line(text, 0x100).unwrap_or_else(|e| panic!("{text}: {e}"));
        let i = decode(&b).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(applegpu(&i, 0x100), text, "{b:02x?}");
    }
}
