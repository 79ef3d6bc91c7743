//! CTM command streams in both forms: every command of seed 003 table 3 (opcodes copied here
//! from the seed), round trips, and every parse error with its position.

use std::path::Path;
use wavejit_r5xx::stream::{Command, ImageKind, Op, Pos, Save, Stream, StreamError};
use wavejit_r5xx::stream::{Image, OPS};

/// (name, opcode from seed 003 table 3, sample parameters).
const SAMPLES: [(&str, u32, &[u32]); 27] = [
    ("init_perf_counters", 0xC0010200, &[1]),
    ("start_perf_counters", 0xC0000300, &[0]),
    ("stop_perf_counters", 0xC0000400, &[0]),
    ("read_perf_counters", 0xC0010500, &[0x10000]),
    ("set_cond_val", 0xC0000600, &[0x3f80_0000]),
    ("set_domain", 0xC0030700, &[1, 2, 63, 31]),
    ("start_program", 0xC0000800, &[0]),
    ("wait_for_idle", 0xC0000900, &[0]),
    ("set_inst_fmt", 0xC0010A00, &[0x800, 0]),
    (
        "set_inp_fmt",
        0xC0030B00,
        &[15, 0x10000, 64 | 1 << 16 | 4 << 24, 64],
    ),
    ("set_out_fmt", 0xC0030C00, &[3, 0x20000, 64 | 1 << 24, 32]),
    ("set_cond_out_fmt", 0xC0020D00, &[0x30000, 64 | 2 << 24, 16]),
    ("set_constf_fmt", 0xC0010E00, &[0x40000, 4 << 24]),
    ("set_consti_fmt", 0xC0010F00, &[0x40800, 4 << 24]),
    ("set_constb_fmt", 0xC0011000, &[0x41000, 2 << 24]),
    ("inv_inst_cache", 0xC0001100, &[0]),
    ("inv_constf_cache", 0xC0001200, &[0]),
    ("inv_consti_cache", 0xC0001300, &[0]),
    ("inv_constb_cache", 0xC0001400, &[0]),
    ("inv_cond_out_cache", 0xC0001500, &[0]),
    ("inv_inp_cache", 0xC0001600, &[7]),
    ("flush_out_cache", 0xC0001700, &[0]),
    ("flush_cond_out_cache", 0xC0001800, &[0]),
    ("set_out_mask", 0xC0001900, &[0b1010]),
    ("set_cond_out_mask", 0xC0001A00, &[1]),
    ("set_cond_test", 0xC0001B00, &[5]),
    ("set_cond_loc", 0xC0001C00, &[1]),
];

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn text(src: &str) -> Result<Stream, String> {
    Stream::parse_text(src).map_err(|e| e.to_string())
}

fn binary(words: &[u32]) -> Result<Stream, String> {
    Stream::parse_binary(&le(words)).map_err(|e| e.to_string())
}

#[test]
fn the_table_has_the_seeds_27_commands() {
    assert_eq!(OPS.len(), 27);
    for (row, (name, opcode, params)) in OPS.iter().zip(SAMPLES) {
        assert_eq!((row.name, row.opcode), (name, opcode));
        assert_eq!(row.params.len(), params.len(), "{name}");
        let not_pipelined =
            name.starts_with("set_") && name.ends_with("_fmt") || name == "read_perf_counters";
        assert_eq!(row.pipelined, !not_pipelined, "{name}");
    }
}

#[test]
fn every_command_parses_in_both_forms_and_round_trips() {
    for (name, opcode, params) in SAMPLES {
        let line = format!(
            "{name} {}",
            params
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let t = text(&line).unwrap();
        let mut words = vec![opcode];
        words.extend_from_slice(params);
        let b = binary(&words).unwrap();
        assert_eq!(
            t.commands().collect::<Vec<_>>(),
            b.commands().collect::<Vec<_>>(),
            "{name}"
        );
        let cmd = &t.commands[0].cmd;
        assert_eq!((cmd.name(), cmd.params()), (name, params));
        assert_eq!(cmd.dwords(), words);
        assert_eq!(t.to_binary(), le(&words), "{name}");
        let printed = b.to_text();
        assert_eq!(
            text(&printed).unwrap().commands().collect::<Vec<_>>(),
            vec![cmd],
            "{printed}"
        );
    }
}

#[test]
fn a_whole_stream_round_trips() {
    let words: Vec<u32> = SAMPLES
        .iter()
        .flat_map(|(_, op, p)| std::iter::once(*op).chain(p.iter().copied()))
        .collect();
    let b = binary(&words).unwrap();
    assert_eq!(b.commands.len(), 27);
    assert_eq!(
        b.commands[5].pos,
        Pos::Dword(10),
        "set_domain follows five 2-dword commands"
    );
    let t = text(&b.to_text()).unwrap();
    assert_eq!(t.to_binary(), le(&words));
    assert_eq!(t.commands[5].pos, Pos::Line(6));
    let again = text(&t.to_text()).unwrap();
    assert_eq!(again, t);
}

#[test]
fn text_syntax_hex_comments_and_blank_lines() {
    let s = text("; a comment\n\n  set_domain 0x0 0X1 0xfff 4095 ; trailing\nstart_program 0\n")
        .unwrap();
    assert_eq!(s.commands.len(), 2);
    assert_eq!(s.commands[0].cmd.params(), &[0, 1, 4095, 4095]);
    assert_eq!(s.commands[0].pos, Pos::Line(3));
    assert_eq!(s.commands[1].pos, Pos::Line(4));
    let printed = text("set_inp_fmt 2 0x10000 0x01010040 8\n")
        .unwrap()
        .to_text();
    assert_eq!(
        printed,
        "set_inp_fmt 2 0x00010000 0x01010040 8    ; TILED UINT8_4 pitch 64\n"
    );
}

#[test]
fn perf_commands_take_the_headers_second_dword_when_it_is_not_a_command() {
    let b = binary(&[0xC0010200, 1, 0, 0xC0000300, 0]).unwrap();
    assert_eq!(b.commands[0].cmd.params(), &[1, 0]);
    assert_eq!(b.commands[1].pos, Pos::Dword(3));
    let b = binary(&[0xC0010200, 1, 0xC0000300, 0]).unwrap();
    assert_eq!(b.commands[0].cmd.params(), &[1]);
    assert_eq!(b.commands[1].cmd.op(), Op::StartPerfCounters);
    let b = binary(&[0xC0010500, 0x800]).unwrap();
    assert_eq!(b.commands[0].cmd.params(), &[0x800]);
    let b = binary(&[0xC0010500, 0x800, 0x1234]).unwrap();
    assert_eq!(b.commands[0].cmd.params(), &[0x800, 0x1234]);
    assert_eq!(b.to_binary(), le(&[0xC0010500, 0x800, 0x1234]));
    assert_eq!(text(&b.to_text()).unwrap().to_binary(), b.to_binary());
    assert_eq!(
        text("init_perf_counters 1 0").unwrap().commands[0]
            .cmd
            .params(),
        &[1, 0]
    );
    let e = text("init_perf_counters 1 0 0").unwrap_err();
    assert_eq!(
        e,
        "line 1: init_perf_counters takes 1 parameter (or 2: its header's count field), 3 given"
    );
}

#[test]
fn binary_errors_name_the_dword() {
    assert_eq!(binary(&[]).unwrap().commands.len(), 0);
    assert_eq!(
        Stream::parse_binary(&[0, 8, 0, 0xc0, 0, 0, 0]).unwrap_err(),
        StreamError::Malformed(7)
    );
    assert_eq!(
        binary(&[0xC0000800, 0, 0xC0030700, 0, 0]).unwrap_err(),
        "dword 2 (byte 0x8): truncated stream: set_domain needs 4 parameter dwords, 2 remain"
    );
    assert_eq!(
        binary(&[0xC0000800]).unwrap_err(),
        "dword 0 (byte 0x0): truncated stream: start_program needs 1 parameter dwords, 0 remain"
    );
    assert_eq!(
        binary(&[0xC0000800, 0, 0x1234_5678, 0]).unwrap_err(),
        "dword 2 (byte 0x8): unknown command opcode 0x12345678"
    );
    assert_eq!(
        binary(&[0xC0001D00, 0]).unwrap_err(),
        "dword 0 (byte 0x0): unknown command opcode 0xc0001d00"
    );
    assert_eq!(
        binary(&[0xC0020700, 0, 0, 0]).unwrap_err(),
        "dword 0 (byte 0x0): set_domain header 0xc0020700 counts 3 parameters; the seed's opcode is 0xc0030700 (4 parameters)"
    );
    assert!(binary(&[0xC0000200, 1])
        .unwrap_err()
        .contains("init_perf_counters header 0xc0000200 counts 1 parameters"));
    let e = binary(&[0xC0000800, 0, 0xC0030700, 5, 0, 4, 9]).unwrap_err();
    assert!(
        e.starts_with("dword 2 (byte 0x8): set_domain: empty domain (5, 0) - (4, 9)"),
        "{e}"
    );
}

#[test]
fn parameter_fields_are_checked_in_both_forms() {
    let cases: [(&str, &[u32], &str); 13] = [
        ("set_domain", &[0, 0, 4096, 1], "i1 0x1000 does not fit bits 11:0"),
        ("set_domain", &[0, 3, 1, 2], "empty domain"),
        ("set_inp_fmt", &[16, 0, 0, 0], "input index 0x10 does not fit bits 3:0"),
        ("set_out_fmt", &[4, 0, 0, 0], "output index 0x4 does not fit bits 1:0"),
        ("set_out_fmt", &[0, 0, 5 << 24, 0], "data format 5 (format word bits 26:24) is reserved"),
        ("set_constf_fmt", &[0, 66], "pitch bits 1:0 of format word 0x00000042 are not zero"),
        ("set_cond_out_fmt", &[0, 0, 8192], "reserved bits 31:13 of the height word"),
        ("set_inp_fmt", &[0, 0, 2 << 16 | 4 << 24, 0], "2x2 superfine tiling (LINEAR_INP_2X2) needs a single-channel input format, not FLOAT32_4"),
        ("set_out_mask", &[16], "mask 0x10 does not fit bits 3:0"),
        ("set_cond_out_mask", &[2], "mask 0x2 does not fit bits 0:0"),
        ("set_cond_test", &[8], "condition 0x8 does not fit bits 2:0"),
        ("set_cond_loc", &[2], "location 0x2 does not fit bits 0:0"),
        ("init_perf_counters", &[3], "flags 0x3 does not fit bits 0:0"),
    ];
    for (name, params, want) in cases {
        let line = format!(
            "{name} {}",
            params
                .iter()
                .map(|p| format!("{p:#x}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let e = text(&format!("wait_for_idle 0\n{line}")).unwrap_err();
        assert!(
            e.starts_with(&format!("line 2: {name}: ")) && e.contains(want),
            "{e}"
        );
        let op = Op::from_name(name).unwrap();
        let mut words = vec![0xC0000900, 0, op.info().opcode];
        words.extend_from_slice(params);
        let e = binary(&words).unwrap_err();
        assert!(
            e.starts_with(&format!("dword 2 (byte 0x8): {name}: ")) && e.contains(want),
            "{e}"
        );
        assert!(Command::new(op, params).is_err());
    }
    // Base address bits 10:0 are ignored (the seed), and reserved parameters take anything.
    assert!(text("set_inp_fmt 0 0x107ff 0x40 0\nstart_program 0xffffffff").is_ok());
}

#[test]
fn text_errors_name_the_line() {
    let cases = [
        (
            "start_program 0\nstart_programme 0",
            "line 2: unknown command `start_programme`",
        ),
        (
            "set_domain 0 0 1",
            "line 1: set_domain takes 4 parameters, 3 given",
        ),
        (
            "start_program",
            "line 1: start_program takes 1 parameter, 0 given",
        ),
        (
            "wait_for_idle 0 0",
            "line 1: wait_for_idle takes 1 parameter, 2 given",
        ),
        (
            "set_cond_val 12x",
            "line 1: bad number `12x`: expected decimal digits or 0x and hex digits",
        ),
        (
            "set_cond_val 0x",
            "line 1: bad number `0x`: expected decimal digits or 0x and hex digits",
        ),
        (
            "set_cond_val -1",
            "line 1: bad number `-1`: expected decimal digits or 0x and hex digits",
        ),
        (
            "set_cond_val 1.5",
            "line 1: bad number `1.5`: expected decimal digits or 0x and hex digits",
        ),
        (
            "set_cond_val 4294967296",
            "line 1: bad number `4294967296`: does not fit in 32 bits",
        ),
        (
            "set_cond_val 0x1ffffffff",
            "line 1: bad number `0x1ffffffff`: does not fit in 32 bits",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(text(src).unwrap_err(), want);
    }
    assert_eq!(
        text("set_cond_val 0xFFFFFFFF").unwrap().commands[0]
            .cmd
            .params(),
        &[u32::MAX]
    );
}

#[test]
fn directives_parse_and_print() {
    let s = text(
        "memory 0x100000\nload 0x1000 data/a b.bin ; spaces are part of the path\nprogram 4096 prog.elf\n\
         save 0x2000 64 out.bin\nload 0 raw.bin\nstart_program 0\n",
    )
    .unwrap();
    let d = &s.directives;
    assert_eq!(d.memory, Some((Pos::Line(1), 0x100000)));
    assert_eq!(d.memory_size(), 0x100000);
    assert_eq!(d.images.len(), 3);
    assert_eq!(
        (
            d.images[0].kind,
            d.images[0].addr,
            d.images[0].path.as_path()
        ),
        (ImageKind::Load, 0x1000, Path::new("data/a b.bin"))
    );
    assert_eq!(
        (d.images[1].kind, d.images[1].addr),
        (ImageKind::Program, 4096)
    );
    assert_eq!(d.images[2].pos, Pos::Line(5));
    assert_eq!(
        (d.saves[0].addr, d.saves[0].size, d.saves[0].path.as_path()),
        (0x2000, 64, Path::new("out.bin"))
    );
    assert_eq!(d.program_at(0x1000).unwrap().path, Path::new("prog.elf"));
    assert!(d.program_at(0).is_none(), "a load is not a program");
    let again = text(&s.to_text()).unwrap();
    assert_eq!(
        again
            .directives
            .images
            .iter()
            .map(|i| (&i.path, i.addr, i.kind))
            .collect::<Vec<_>>(),
        d.images
            .iter()
            .map(|i| (&i.path, i.addr, i.kind))
            .collect::<Vec<_>>()
    );
    assert_eq!(again.directives.memory_size(), 0x100000);
    assert_eq!(
        text("start_program 0").unwrap().directives.memory_size(),
        64 << 20
    );
}

#[test]
fn bad_directives_name_the_line() {
    let cases = [
        (
            "memory",
            "line 1: bad directive: memory needs SIZE: `memory SIZE`",
        ),
        ("memory 0", "line 1: bad directive: memory of 0 bytes"),
        (
            "memory 16 32",
            "line 1: bad directive: memory takes one SIZE: `memory SIZE`",
        ),
        (
            "memory 0x100000001",
            "line 1: bad number `0x100000001`: too large",
        ),
        (
            "memory 4096\nmemory 4096",
            "line 2: bad directive: memory is already set at line 1",
        ),
        (
            "load 0x10",
            "line 1: bad directive: load needs a PATH: `load ADDR PATH`",
        ),
        (
            "program",
            "line 1: bad directive: program needs ADDR and PATH: `program ADDR PATH`",
        ),
        (
            "load abc x.bin",
            "line 1: bad number `abc`: expected decimal digits or 0x and hex digits",
        ),
        (
            "save 0 16",
            "line 1: bad directive: save needs a PATH: `save ADDR SIZE PATH`",
        ),
        (
            "save 0",
            "line 1: bad directive: save needs SIZE and PATH: `save ADDR SIZE PATH`",
        ),
        ("save 0 0 x", "line 1: bad directive: save of 0 bytes"),
        (
            "memory 4096\nsave 4000 97 x",
            "line 2: bad directive: 0xfa0..0x1001 is outside GPU memory (0..0x1000)",
        ),
        (
            "load 4096 x\nmemory 4096",
            "line 1: bad directive: address 0x1000 is outside GPU memory (0..0x1000)",
        ),
        (
            "program 0x4000000 p.elf",
            "line 1: bad directive: address 0x4000000 is outside GPU memory (0..0x4000000)",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(text(src).unwrap_err(), want, "{src}");
    }
    assert!(text("memory 0x100000000\nsave 0xfffff000 0x1000 top.bin").is_ok());
}

#[test]
fn option_forms_for_binary_streams() {
    let i = Image::from_option(ImageKind::Program, "0x800:dir/p.elf").unwrap();
    assert_eq!(
        (i.pos, i.addr, i.path.as_path()),
        (Pos::Option("--program"), 0x800, Path::new("dir/p.elf"))
    );
    let s = Save::from_option("4096:0x40:c:/out.bin").unwrap();
    assert_eq!(
        (s.addr, s.size, s.path.as_path()),
        (4096, 0x40, Path::new("c:/out.bin"))
    );
    assert_eq!(
        Image::from_option(ImageKind::Load, "x.bin")
            .unwrap_err()
            .to_string(),
        "--load: bad directive: `x.bin` is not ADDR:PATH"
    );
    assert_eq!(
        Image::from_option(ImageKind::Load, "12:")
            .unwrap_err()
            .to_string(),
        "--load: bad directive: missing PATH"
    );
    assert_eq!(
        Save::from_option("1:2").unwrap_err().to_string(),
        "--save: bad directive: `1:2` is not ADDR:SIZE:PATH"
    );
    assert_eq!(
        Save::from_option("1:zz:p").unwrap_err().to_string(),
        "--save: bad number `zz`: expected decimal digits or 0x and hex digits"
    );
}

#[test]
fn files_are_read_by_extension() {
    let words = le(&[0xC0000900, 0]);
    let s = Stream::parse_file(Path::new("a/s.cb"), &words).unwrap();
    assert_eq!(s.commands[0].cmd.op(), Op::WaitForIdle);
    let s = Stream::parse_file(Path::new("s.ctm"), b"wait_for_idle 0\n").unwrap();
    assert_eq!(s.commands[0].cmd.op(), Op::WaitForIdle);
    let e = Stream::parse_file(Path::new("s.ctm"), &words)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("malformed stream: a text stream is not UTF-8"),
        "{e}"
    );
}
