//! The command processor: the state each command sets, the events a stream yields, the
//! non-pipelined rule, launch checks, and the performance counters' documented model.

use wavejit_r5xx::decode::decode;
use wavejit_r5xx::mc::{DataFormat, Surface, Tiling};
use wavejit_r5xx::setup::{CondLoc, CondTest, ProgInfo};
use wavejit_r5xx::stream::{CacheOp, CommandProcessor, Domain, Event, Launch, Pos, Stream};

/// Runs a text stream, answering each start_program with `instructions` executed.
fn run(src: &str, instructions: u64) -> Result<(CommandProcessor, Vec<Event>), String> {
    let s = Stream::parse_text(src).map_err(|e| e.to_string())?;
    let mut cp = CommandProcessor::new();
    let mut events = Vec::new();
    for l in &s.commands {
        if let Some(e) = cp.apply(l).map_err(|e| e.to_string())? {
            if let Event::StartProgram(_) = e {
                cp.program_done(instructions);
            }
            events.push(e);
        }
    }
    Ok((cp, events))
}

fn launches(events: &[Event]) -> Vec<&Launch> {
    events
        .iter()
        .filter_map(|e| {
            if let Event::StartProgram(l) = e {
                Some(&**l)
            } else {
                None
            }
        })
        .collect()
}

const SETUP: &str = "wait_for_idle 0
set_inst_fmt 0x1000 0
set_constf_fmt 0x2000 0x04000000
set_consti_fmt 0x2800 0x04000000
set_constb_fmt 0x3000 0x02000000
set_inp_fmt 0 0x10000 0x02000040 64
set_inp_fmt 15 0x20000 0x02030040 32
set_out_fmt 3 0x30000 0x04010080 16
set_cond_out_fmt 0x40000 0x02000040 8
set_domain 1 2 63 31
";

#[test]
fn a_launch_carries_every_setting() {
    let src = format!(
        "{SETUP}set_out_mask 5\nset_cond_test 2\nset_cond_loc 1\nset_cond_val 0x3f800000\nset_cond_out_mask 1\nstart_program 0\n"
    );
    let (_, events) = run(&src, 0).unwrap();
    let l = launches(&events)[0];
    let surface = |base, pitch, tiling, format, height| {
        Some(Surface {
            base,
            pitch,
            tiling,
            format,
            height,
        })
    };
    assert_eq!(l.pos, Pos::Line(16));
    assert_eq!(
        Some(l.inst),
        surface(0x1000, 0, Tiling::Linear, DataFormat::Uint16x1, 0)
    );
    assert_eq!(
        l.bindings.constf,
        surface(0x2000, 0, Tiling::Linear, DataFormat::Float32x4, 0)
    );
    assert_eq!(
        l.bindings.consti,
        surface(0x2800, 0, Tiling::Linear, DataFormat::Float32x4, 0)
    );
    assert_eq!(
        l.bindings.constb,
        surface(0x3000, 0, Tiling::Linear, DataFormat::Float32x1, 0)
    );
    assert_eq!(
        l.bindings.inputs[0],
        surface(0x10000, 64, Tiling::Linear, DataFormat::Float32x1, 64)
    );
    assert_eq!(
        l.bindings.inputs[15],
        surface(0x20000, 64, Tiling::TiledInp2x2, DataFormat::Float32x1, 32)
    );
    assert!(l.bindings.inputs[1..15].iter().all(Option::is_none));
    assert_eq!(
        l.bindings.outputs[3],
        surface(0x30000, 128, Tiling::Tiled, DataFormat::Float32x4, 16)
    );
    assert_eq!(
        l.domain,
        Domain {
            i0: 1,
            j0: 2,
            i1: 63,
            j1: 31
        }
    );
    assert_eq!(
        (l.domain.width(), l.domain.height(), l.domain.len()),
        (63, 30, 63 * 30)
    );
    assert!(
        l.domain.contains(1, 2)
            && l.domain.contains(63, 31)
            && !l.domain.contains(0, 2)
            && !l.domain.contains(1, 32)
    );
    assert_eq!(l.bindings.out_mask, 5);
    assert_eq!(
        l.bindings.cond.buffer,
        surface(0x40000, 64, Tiling::Linear, DataFormat::Float32x1, 8)
    );
    assert_eq!(
        (
            l.bindings.cond.test,
            l.bindings.cond.loc,
            l.bindings.cond.write,
            l.bindings.cond.value
        ),
        (CondTest::LessEqual, CondLoc::Pe, true, 0x3f80_0000)
    );
    let info = ProgInfo {
        pixsize: 3,
        end: 7,
        ..ProgInfo::default()
    };
    let setup = l.setup(vec![decode([0; 6]).unwrap()], info);
    assert_eq!(
        (
            setup.info,
            setup.program.len(),
            setup.bindings.inputs,
            setup.bindings.outputs
        ),
        (info, 1, l.bindings.inputs, l.bindings.outputs)
    );
    assert_eq!(
        (
            setup.bindings.out_mask,
            setup.bindings.cond,
            setup.bindings.constf,
            setup.bindings.consti,
            setup.bindings.constb
        ),
        (
            5,
            l.bindings.cond,
            l.bindings.constf,
            l.bindings.consti,
            l.bindings.constb
        )
    );
}

#[test]
fn defaults_and_each_conditional_code() {
    let (cp, _) = run("", 0).unwrap();
    assert_eq!(
        (
            cp.bindings.out_mask,
            cp.bindings.cond.test,
            cp.bindings.cond.loc,
            cp.bindings.cond.write,
            cp.bindings.cond.value
        ),
        (0xf, CondTest::Always, CondLoc::Dpp, false, 0)
    );
    assert!(
        cp.inst.is_none()
            && cp.domain.is_none()
            && cp.bindings.cond.buffer.is_none()
            && !cp.perf.enabled
    );
    let tests = [
        CondTest::Never,
        CondTest::Less,
        CondTest::LessEqual,
        CondTest::Equal,
        CondTest::GreaterEqual,
        CondTest::Greater,
        CondTest::NotEqual,
        CondTest::Always,
    ];
    for (code, want) in tests.into_iter().enumerate() {
        let (cp, _) = run(
            &format!("set_cond_test {code}\nset_cond_loc 1\nset_cond_loc 0"),
            0,
        )
        .unwrap();
        assert_eq!(
            (cp.bindings.cond.test, cp.bindings.cond.loc),
            (want, CondLoc::Dpp)
        );
    }
    let (cp, _) = run(
        "set_out_mask 0\nset_cond_out_mask 1\nset_cond_out_mask 0",
        0,
    )
    .unwrap();
    assert_eq!((cp.bindings.out_mask, cp.bindings.cond.write), (0, false));
}

#[test]
fn later_commands_replace_earlier_state_between_launches() {
    let src = format!("{SETUP}start_program 0\nwait_for_idle 0\nset_inp_fmt 0 0x50000 0x01000010 4\nset_domain 0 0 0 0\nstart_program 0\n");
    let (_, events) = run(&src, 0).unwrap();
    let l = launches(&events);
    assert_eq!(l.len(), 2);
    assert_eq!(l[0].bindings.inputs[0].unwrap().base, 0x10000);
    assert_eq!(
        l[1].bindings.inputs[0].unwrap(),
        Surface {
            base: 0x50000,
            pitch: 16,
            tiling: Tiling::Linear,
            format: DataFormat::Uint8x4,
            height: 4
        }
    );
    assert_eq!(
        (
            l[1].domain.len(),
            l[1].bindings.inputs[15],
            l[1].bindings.outputs[3]
        ),
        (1, l[0].bindings.inputs[15], l[0].bindings.outputs[3])
    );
}

#[test]
fn cache_and_idle_commands_are_events_without_state() {
    let src = "inv_inst_cache 0\ninv_constf_cache 0\ninv_consti_cache 0\ninv_constb_cache 0\ninv_cond_out_cache 0\n\
               inv_inp_cache 0\nflush_out_cache 0\nflush_cond_out_cache 0\nwait_for_idle 0\n";
    let (cp, events) = run(src, 0).unwrap();
    use CacheOp::*;
    let want: Vec<Event> = [
        InvInst,
        InvConstf,
        InvConsti,
        InvConstb,
        InvCondOut,
        InvInp,
        FlushOut,
        FlushCondOut,
    ]
    .into_iter()
    .map(Event::Cache)
    .chain([Event::WaitForIdle])
    .collect();
    assert_eq!(events, want);
    assert_eq!(cp, CommandProcessor::new());
}

#[test]
fn non_pipelined_commands_need_wait_for_idle_after_start_program() {
    let base = format!("{SETUP}start_program 0\n");
    for cmd in [
        "set_inst_fmt 0 0",
        "set_inp_fmt 1 0 0 0",
        "set_out_fmt 0 0 0 0",
        "set_cond_out_fmt 0 0 0",
        "set_constf_fmt 0 0",
        "set_consti_fmt 0 0",
        "set_constb_fmt 0 0",
        "read_perf_counters 0",
    ] {
        let name = cmd.split(' ').next().unwrap();
        let e = run(&format!("{base}flush_out_cache 0\n{cmd}\n"), 0).unwrap_err();
        assert_eq!(
            e,
            format!("line 13: {name} is not pipelined: it must follow a wait_for_idle after the start_program at line 11 (seed 003 §2.2)")
        );
        assert!(
            run(&format!("{base}wait_for_idle 0\n{cmd}\n"), 0).is_ok(),
            "{cmd}"
        );
    }
    // Pipelined commands may follow a start_program directly, and a stream starts idle.
    assert!(run(
        &format!("{base}set_domain 0 0 1 1\nset_out_mask 1\nstart_program 0\ninv_inp_cache 0\n"),
        0
    )
    .is_ok());
    assert!(run("set_inp_fmt 0 0 0 0\nread_perf_counters 0\n", 0).is_ok());
}

#[test]
fn start_program_needs_a_program_a_domain_and_a_buffer_to_compare_with() {
    let e = run("set_domain 0 0 1 1\nstart_program 0", 0).unwrap_err();
    assert_eq!(
        e,
        "line 2: start_program: no set_inst_fmt has given the program's address"
    );
    let e = run("set_inst_fmt 0 0\nstart_program 0", 0).unwrap_err();
    assert_eq!(
        e,
        "line 2: start_program: no set_domain has given the domain"
    );
    let ok = "set_inst_fmt 0 0\nset_domain 0 0 1 1\n";
    for (cond, fine) in [
        ("set_cond_test 1", false),
        ("set_cond_test 6", false),
        ("set_cond_test 7\nset_cond_out_mask 1", false),
        ("set_cond_test 0\nset_cond_out_mask 1", true),
        ("set_cond_test 7", true),
        ("set_cond_test 0", true),
    ] {
        let r = run(&format!("{ok}{cond}\nstart_program 0"), 0);
        assert_eq!(r.is_ok(), fine, "{cond}: {r:?}");
        if let Err(e) = r {
            assert!(
                e.contains("uses the conditional buffer, which no set_cond_out_fmt has given"),
                "{e}"
            );
        }
        let r = run(
            &format!("{ok}set_cond_out_fmt 0x800 0x02000004 1\n{cond}\nstart_program 0"),
            0,
        );
        assert!(r.is_ok(), "{cond} with a buffer");
    }
}

fn perf_reads(events: &[Event]) -> Vec<(u32, [u32; 2])> {
    events
        .iter()
        .filter_map(|e| {
            if let Event::ReadPerfCounters { addr, values } = e {
                Some((*addr, *values))
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn perf_counters_follow_the_documented_model() {
    // Hand count: start resets; then set_domain 1, set_inst_fmt 2, start_program 3 + 100
    // instructions, wait_for_idle 104, stop_perf_counters 105; the read after the stop adds
    // nothing. Active = the 100 instructions.
    let src = "init_perf_counters 1\nset_out_mask 15\nstart_perf_counters 0\nset_domain 0 0 3 3\nset_inst_fmt 0 0\n\
               start_program 0\nwait_for_idle 0\nstop_perf_counters 0\nread_perf_counters 0x10800\n";
    let (_, events) = run(src, 100).unwrap();
    assert_eq!(perf_reads(&events), [(0x10800, [105, 100])]);
    // A read while running counts its own clock; the address's bits 10:0 are ignored.
    let src =
        "init_perf_counters 1\nstart_perf_counters 0\nset_out_mask 1\nread_perf_counters 0x107ff\n";
    assert_eq!(perf_reads(&run(src, 0).unwrap().1), [(0x10000, [2, 0])]);
    // Started twice: the second start resets.
    let src = "init_perf_counters 1\nstart_perf_counters 0\nset_out_mask 1\nstart_perf_counters 0\nread_perf_counters 0\n";
    assert_eq!(perf_reads(&run(src, 0).unwrap().1), [(0, [1, 0])]);
    // Enabled but never started: zeros.
    assert_eq!(
        perf_reads(
            &run(
                "init_perf_counters 1\nset_out_mask 1\nread_perf_counters 0",
                0
            )
            .unwrap()
            .1
        ),
        [(0, [0, 0])]
    );
}

#[test]
fn disabled_perf_counters_do_nothing() {
    let prog = "set_domain 0 0 0 0\nset_inst_fmt 0 0\nstart_program 0\nwait_for_idle 0\n";
    for pre in [
        "",
        "init_perf_counters 0\n",
        "init_perf_counters 1\nstart_perf_counters 0\ninit_perf_counters 0\n",
    ] {
        let (cp, events) = run(
            &format!(
                "{pre}start_perf_counters 0\n{prog}stop_perf_counters 0\nread_perf_counters 0\n"
            ),
            7,
        )
        .unwrap();
        assert!(perf_reads(&events).is_empty(), "{pre}");
        assert_eq!(
            (cp.perf.total, cp.perf.active, cp.perf.running),
            (0, 0, false)
        );
    }
    // Re-initialising stops and zeroes them.
    let src = format!("init_perf_counters 1\nstart_perf_counters 0\n{prog}init_perf_counters 1\n{prog}read_perf_counters 0\n");
    assert_eq!(perf_reads(&run(&src, 7).unwrap().1), [(0, [0, 0])]);
}

#[test]
fn perf_counters_wrap_at_32_bits_and_only_count_while_running() {
    let mut cp = CommandProcessor::new();
    let apply = |cp: &mut CommandProcessor, line: &str| {
        let s = Stream::parse_text(line).unwrap();
        cp.apply(&s.commands[0]).unwrap()
    };
    cp.program_done(1000);
    apply(&mut cp, "init_perf_counters 1");
    cp.program_done(1000);
    apply(&mut cp, "start_perf_counters 0");
    cp.program_done((1 << 32) + 5);
    assert_eq!(
        apply(&mut cp, "read_perf_counters 0"),
        Some(Event::ReadPerfCounters {
            addr: 0,
            values: [6, 5]
        })
    );
    assert_eq!(
        (cp.perf.total, cp.perf.active),
        ((1 << 32) + 6, (1 << 32) + 5)
    );
}

#[test]
fn binary_and_text_streams_drive_the_processor_alike() {
    let src = format!("{SETUP}init_perf_counters 1\nstart_perf_counters 0\nstart_program 0\nwait_for_idle 0\nread_perf_counters 0\n");
    let t = Stream::parse_text(&src).unwrap();
    let b = Stream::parse_binary(&t.to_binary()).unwrap();
    let drive = |s: &Stream| {
        let mut cp = CommandProcessor::new();
        let mut out = Vec::new();
        for l in &s.commands {
            if let Some(mut e) = cp.apply(l).unwrap() {
                if let Event::StartProgram(l) = &mut e {
                    cp.program_done(42);
                    l.pos = Pos::Line(0);
                }
                out.push(e);
            }
        }
        out
    };
    let (te, be) = (drive(&t), drive(&b));
    assert_eq!(te, be);
    assert_eq!(perf_reads(&te), [(0, [45, 42])]);
}
