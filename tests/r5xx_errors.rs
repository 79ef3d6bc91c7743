//! `wavejit ctm` and R5xx program files on bad input: every failure exits non-zero with one
//! line on stderr that starts `wavejit: `, never a panic, and failures that happen while
//! programs run are the same line on both engines.
//!
//! The streams are variations of `tests/programs/r5xx/add.ctm` (c = a + b over a 64x8
//! domain, FLOAT32_1, 1 MiB of GPU memory): each test changes one thing and checks the
//! message names it. Addresses in the expected messages follow from the streams' numbers.

mod cli_util;
mod r5xx_util;

use cli_util::{assert_mentions, fails, succeeds};
use r5xx_util::{binary, Scratch};

/// The commands of add.ctm with GPU memory of 1 MiB: `program 0x0 PROG`, inputs at 0x10000
/// and 0x20000, output at 0x30000.
fn stream(prog: &str, commands: &str) -> String {
    format!(
        "memory 0x100000\nprogram 0x0 {prog}\nload 0x10000 a.bin\nload 0x20000 b.bin\n{commands}"
    )
}

const SURFACES: &str = "wait_for_idle 0
set_inst_fmt 0x0 0x0
set_inp_fmt 0 0x10000 0x02000040 8
set_inp_fmt 1 0x20000 0x02000040 8
set_out_fmt 0 0x30000 0x02000040 8
";

const RUN: &str = "set_domain 0 0 63 7\nstart_program 0\nwait_for_idle 0\n";

/// A scratch directory with add.s, spin.s, const.s and the inputs a.bin and b.bin.
fn dir() -> Scratch {
    let d = Scratch::new("errors");
    for p in ["add.s", "spin.s", "const.s"] {
        d.copy(p);
    }
    d.write("a.bin", vec![0u8; 2048]);
    d.write("b.bin", vec![0u8; 2048]);
    d
}

/// The failure of `wavejit ctm FILE EXTRA` under both engines: the same line from each.
fn fails_alike(file: &str, extra: &[&str]) -> String {
    let mut lines = ["jit", "interp"].map(|engine| {
        let mut args = vec!["ctm", file, "--engine", engine];
        args.extend(extra);
        fails(&args)
    });
    assert_eq!(lines[0], lines[1], "the engines report different failures");
    std::mem::take(&mut lines[0])
}

#[test]
fn the_unchanged_stream_runs() {
    let d = dir();
    let s = d.write("ok.ctm", stream("add.s", &format!("{SURFACES}{RUN}")));
    for engine in ["jit", "interp"] {
        assert_eq!(succeeds(&["ctm", &s, "--engine", engine]), "");
    }
}

#[test]
fn a_binary_stream_of_a_partial_dword_is_malformed() {
    let d = dir();
    let s = d.write("bad.cb", [0x00, 0x09, 0x00, 0xc0, 0x00, 0x00, 0x00]);
    assert_mentions(
        &fails(&["ctm", &s]),
        &["bad.cb", "malformed stream", "7 bytes"],
    );
}

#[test]
fn a_binary_stream_cut_inside_a_command_is_truncated() {
    let d = dir();
    let mut b = binary(&format!("{SURFACES}{RUN}"));
    // The last command is wait_for_idle and its one parameter; drop the parameter.
    b.truncate(b.len() - 4);
    let s = d.write("cut.cb", b);
    assert_mentions(
        &fails(&["ctm", &s, "--program", &format!("0:{}", d.path("add.s"))]),
        &["cut.cb", "truncated stream", "wait_for_idle"],
    );
}

#[test]
fn unknown_commands_are_refused_in_both_forms() {
    let d = dir();
    let text = d.write(
        "unknown.ctm",
        stream("add.s", "wait_for_idle 0\nfrobnicate 1\n"),
    );
    assert_mentions(
        &fails(&["ctm", &text]),
        &["line 6", "unknown command", "frobnicate"],
    );
    // A type-3 header with command id 0x3f, which table 3 does not have.
    let mut b = binary("wait_for_idle 0\n");
    b.extend(0xc000_3f00u32.to_le_bytes());
    b.extend(0u32.to_le_bytes());
    let bin = d.write("unknown.cb", b);
    assert_mentions(&fails(&["ctm", &bin]), &["dword 2", "unknown command"]);
}

#[test]
fn a_text_stream_that_is_not_utf8_is_malformed() {
    let d = dir();
    let s = d.write("latin1.ctm", b"wait_for_idle 0 ; caf\xe9\n");
    assert_mentions(
        &fails(&["ctm", &s]),
        &["latin1.ctm", "malformed stream", "UTF-8"],
    );
}

#[test]
fn a_program_that_does_not_fit_in_memory_is_refused() {
    let d = dir();
    // add.s is 3 slots = 72 bytes; 0xfffe0 leaves 32 bytes of the 1 MiB memory.
    let s = d.write(
        "far.ctm",
        format!("memory 0x100000\nprogram 0xfffe0 add.s\n{SURFACES}{RUN}"),
    );
    assert_mentions(
        &fails(&["ctm", &s]),
        &[
            "line 2",
            "72 bytes at 0xfffe0",
            "outside the 1048576-byte GPU memory",
        ],
    );
    // An address past the end is refused with the directives.
    let s = d.write("past.ctm", "memory 0x100000\nprogram 0x100000 add.s\n");
    assert_mentions(&fails(&["ctm", &s]), &["line 2", "outside GPU memory"]);
}

#[test]
fn a_start_program_without_a_program_at_the_instruction_base_is_refused() {
    let d = dir();
    let commands = SURFACES.replace("set_inst_fmt 0x0", "set_inst_fmt 0x800");
    let s = d.write("nobase.ctm", stream("add.s", &format!("{commands}{RUN}")));
    assert_mentions(
        &fails(&["ctm", &s]),
        &[
            "line 11",
            "start_program",
            "no program at the instruction base 0x800",
        ],
    );
}

#[test]
fn an_endless_loop_runs_out_of_fuel_on_both_engines() {
    let d = dir();
    let s = d.write("spin.ctm", stream("spin.s", &format!("{SURFACES}{RUN}")));
    let line = fails_alike(&s, &["--fuel", "10000"]);
    assert_mentions(&line, &["line 11", "start_program", "spin", "out of fuel"]);
}

#[test]
fn inputs_outside_memory_are_guest_faults_on_both_engines() {
    let d = dir();
    let commands = SURFACES.replace("set_inp_fmt 1 0x20000", "set_inp_fmt 1 0x200000");
    let s = d.write("inp.ctm", stream("add.s", &format!("{commands}{RUN}")));
    // Slot 1 reads input 1; lane 0 is pair (0, 0), element 0 at the base.
    assert_mentions(
        &fails_alike(&s, &[]),
        &["line 11", "guest fault at pc 0x1", "address 0x200000"],
    );
}

#[test]
fn outputs_outside_memory_are_guest_faults_on_both_engines() {
    let d = dir();
    // The base is 2 KiB-aligned (bits 10:0 are ignored), so an output in memory ends in
    // memory; one based at the end is outside from its first element.
    let commands = SURFACES.replace("set_out_fmt 0 0x30000", "set_out_fmt 0 0x100000");
    let s = d.write("out.ctm", stream("add.s", &format!("{commands}{RUN}")));
    assert_mentions(
        &fails_alike(&s, &[]),
        &[
            "line 11",
            "guest fault at pc 0x2",
            "address 0x100000",
            "store",
        ],
    );
}

#[test]
fn constants_outside_memory_are_guest_faults_on_both_engines() {
    let d = dir();
    let commands = format!("{SURFACES}set_constf_fmt 0x180000 0x04000100\n");
    let s = d.write("const.ctm", stream("const.s", &format!("{commands}{RUN}")));
    assert_mentions(
        &fails_alike(&s, &[]),
        &["line 12", "guest fault at pc 0x0", "address 0x180000"],
    );
}

#[test]
fn a_conditional_buffer_outside_memory_is_refused() {
    let d = dir();
    let cond = "set_cond_out_fmt 0x200000 0x02000040 8\nset_cond_test 1\n";
    // At the PE the host runs the test before any processor.
    let pe = d.write(
        "pe.ctm",
        stream("add.s", &format!("{SURFACES}{cond}set_cond_loc 1\n{RUN}")),
    );
    assert_mentions(
        &fails_alike(&pe, &[]),
        &[
            "start_program",
            "conditional buffer",
            "(0, 0) at 0x200000",
            "outside",
        ],
    );
    // At the DPP the processors read it when they end.
    let dpp = d.write(
        "dpp.ctm",
        stream("add.s", &format!("{SURFACES}{cond}set_cond_loc 0\n{RUN}")),
    );
    assert_mentions(
        &fails_alike(&dpp, &[]),
        &["start_program", "guest fault", "address 0x200000"],
    );
}

#[test]
fn malformed_ctm_elfs_are_refused() {
    use wavejit_r5xx::elf::{write_elf, Notes};
    let d = dir();
    let words = wavejit_r5xx::encode::encode_words(
        &wavejit_r5xx::parse::parse_program(&String::from_utf8(d.read("add.s")).unwrap()).unwrap(),
    );
    let info = wavejit_r5xx::setup::ProgInfo {
        end: 2,
        full_fc: true,
        ..Default::default()
    };
    let good = write_elf(&words, &info, &Notes::default());
    d.write("good.elf", &good);
    let s = d.write("elf.ctm", stream("good.elf", &format!("{SURFACES}{RUN}")));
    succeeds(&["ctm", &s]);
    // e_flags (bytes 36-39 of an ELF32 header) must be EF_ATI_DPP.
    let mut flags = good.clone();
    flags[36] = 0;
    d.write("flags.elf", &flags);
    let s = d.write(
        "flags.ctm",
        stream("flags.elf", &format!("{SURFACES}{RUN}")),
    );
    assert_mentions(
        &fails(&["ctm", &s]),
        &["line 2", "flags.elf", "CTM ELF", "e_flags"],
    );
    // Cut in the middle of its section headers.
    d.write("cut.elf", &good[..good.len() - 10]);
    let s = d.write("cut.ctm", stream("cut.elf", &format!("{SURFACES}{RUN}")));
    assert_mentions(&fails(&["ctm", &s]), &["line 2", "cut.elf", "CTM ELF"]);
    // The same file given to info.
    let line = fails(&["info", &d.path("flags.elf")]);
    assert_mentions(&line, &["e_flags"]);
}

#[test]
fn raw_words_that_are_not_whole_slots_are_refused() {
    let d = dir();
    d.write("odd.bin", [0u8; 30]);
    let s = d.write("odd.ctm", stream("odd.bin", &format!("{SURFACES}{RUN}")));
    assert_mentions(
        &fails(&["ctm", &s]),
        &["line 2", "odd.bin", "30 bytes", "24-byte"],
    );
}

#[test]
fn bad_directives_are_refused() {
    let d = dir();
    for (text, parts) in [
        ("memory 0\n", &["line 1", "memory"][..]),
        ("memory 0x200000000\n", &["line 1"][..]),
        ("memory 0x1000\nmemory 0x1000\n", &["line 2", "memory"][..]),
        (
            "memory 0x100000\nsave 0xff000 0x2000 out.bin\n",
            &["line 2", "outside GPU memory"][..],
        ),
        ("load 0x1000\n", &["line 1", "bad directive"][..]),
        ("load zz a.bin\n", &["line 1", "bad number `zz`"][..]),
    ] {
        let s = d.write("dir.ctm", text);
        assert_mentions(&fails(&["ctm", &s]), parts);
    }
    // A file that is not there names its path.
    let s = d.write("missing.ctm", "load 0x1000 nothere.bin\n");
    assert_mentions(&fails(&["ctm", &s]), &["line 1", "nothere.bin"]);
    // The option forms.
    let b = d.write("empty.cb", []);
    for (opt, value, part) in [
        ("--load", "0x1000", "ADDR:PATH"),
        ("--program", "x:add.s", "bad number"),
        ("--save", "0x1000:a.bin", "ADDR:SIZE:PATH"),
    ] {
        assert_mentions(&fails(&["ctm", &b, opt, value]), &[opt, part]);
    }
}

#[test]
fn a_non_pipelined_command_while_a_program_may_run_is_refused() {
    let d = dir();
    let commands = format!(
        "{SURFACES}set_domain 0 0 63 7\nstart_program 0\nset_inp_fmt 0 0x10000 0x02000040 8\n"
    );
    let s = d.write("pipe.ctm", stream("add.s", &commands));
    assert_mentions(
        &fails(&["ctm", &s]),
        &["line 12", "set_inp_fmt", "wait_for_idle"],
    );
}

#[test]
fn launches_without_a_domain_or_with_an_empty_one_are_refused() {
    let d = dir();
    let s = d.write(
        "nodomain.ctm",
        stream("add.s", &format!("{SURFACES}start_program 0\n")),
    );
    assert_mentions(&fails(&["ctm", &s]), &["line 10", "set_domain"]);
    let s = d.write(
        "empty.ctm",
        stream(
            "add.s",
            &format!("{SURFACES}set_domain 5 0 4 0\nstart_program 0\n"),
        ),
    );
    assert_mentions(&fails(&["ctm", &s]), &["line 10", "empty domain"]);
}

#[test]
fn streams_run_only_on_r5xx_targets() {
    let d = dir();
    let s = d.write("ok.ctm", stream("add.s", &format!("{SURFACES}{RUN}")));
    assert_mentions(
        &fails(&["ctm", &s, "--target", "gfx900"]),
        &["gfx900", "r580"],
    );
    assert_mentions(
        &fails(&["ctm", &s, "--target", "nochip"]),
        &["unknown target", "nochip"],
    );
    succeeds(&["ctm", &s, "--target", "r520"]);
    assert_mentions(&fails(&["ctm", &s, "--timeout", "0"]), &["--timeout"]);
    assert_mentions(&fails(&["ctm", &d.path("none.ctm")]), &["none.ctm"]);
}

#[test]
fn run_refuses_r5xx_programs_and_points_to_ctm() {
    let line = fails(&[
        "run",
        "tests/programs/r5xx/add.s",
        "--target",
        "r580",
        "--kernel",
        "add",
        "--global",
        "64",
        "--local",
        "64",
    ]);
    assert_mentions(&line, &["add", "wavejit ctm"]);
}
