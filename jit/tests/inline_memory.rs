//! Inline loads and stores (jit/src/emit/memory.rs) against the interpreter and against the
//! JIT's helper path (`inline_memory: false`), bit for bit, faults included (kind, pc, lane
//! and address): every width, signed and unsigned, partial and empty masks, sequential,
//! misaligned, reversed, overlapping and shared addresses, lanes at the last byte of a buffer
//! and one byte past it, a buffer that ends at the last byte of the guest reservation, the
//! LDS with offsets in, straddling and past its end, uniform loads, and accesses alternating
//! between two buffers (the hint slot changes buffer), private memory with offsets in, at
//! the end of and past each lane's segment. A faulting store writes nothing on any engine.

mod common;

use common::*;
use std::sync::Arc;
use wavejit_ir::{Function, FunctionBuilder, MemSpace, MemWidth, Op, ScalarType as T, Terminator};
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::solo::{self, End, Run, Solo};
use wavejit_runtime::{Engine, Interpreter, GUEST_BASE};

const WAVE: u32 = 64;
/// Bytes of the LDS the tests give the wave.
const LDS: usize = 256;
/// Bytes of private memory each lane owns in the private tests.
const SEGMENT: u32 = 48;

/// s[0:1] = buffer address, s[2:3] = exec bits, s[4:5] = second buffer address; v0 = byte
/// offset of the first access, v1 = byte offset of the store, v2:v3 = store value.
/// v4:v5 = load(base + v0) under exec; store(base + v1, v2:v3) under exec; then
/// v6:v7 = load(second + v0) and store(second + v1) (the second buffer, same hint slots).
///
/// The accesses run twice: first with v0 = v1 = 4 * lane under every lane (in range, so
/// every hint slot holds its buffer afterwards), then with the case's offsets (v8, v9) and
/// exec, which the inline code checks against warm hints.
fn func(space: MemSpace, width: MemWidth, signed: bool, ty: T, two_buffers: bool) -> Arc<Function> {
    let mut b = FunctionBuilder::new("access", layout(WAVE, 10, 12));
    let (entry, body, done) = (b.create_block(), b.create_block(), b.create_block());
    b.switch_to(entry);
    b.begin_guest_inst(0x10);
    let zero = b.i32(0);
    b.def_reg(s(8), zero, None);
    b.terminate(Terminator::Jump(body));
    b.switch_to(body);
    b.begin_guest_inst(0x20);
    let bits = b.use_reg(s(2), T::I64);
    let exec = b.mask_from_bits(bits);
    let addr = |b: &mut FunctionBuilder, base: u32, off: u32| {
        let o = b.use_reg(v(off), T::I32);
        match space {
            MemSpace::Global => {
                let base = b.use_reg(s(base), T::I64);
                let o = b.op(Op::Zext, T::I64, &[o]);
                b.op(Op::Iadd, T::I64, &[base, o])
            }
            _ => o,
        }
    };
    let a = addr(&mut b, 0, 0);
    let x = b.load(space, width, signed, ty, a, Some(exec));
    b.def_reg(v(4), x, None);
    b.begin_guest_inst(0x28);
    let a = addr(&mut b, 0, 1);
    let val = b.use_reg(v(2), T::I64);
    b.store(space, width, a, val, Some(exec));
    if two_buffers {
        b.begin_guest_inst(0x30);
        let a = addr(&mut b, 4, 0);
        let x = b.load(space, width, signed, ty, a, Some(exec));
        b.def_reg(v(6), x, None);
        b.begin_guest_inst(0x38);
        let a = addr(&mut b, 4, 1);
        b.store(space, width, a, val, Some(exec));
    }
    second_pass(b, &[(8, 0), (9, 1)], body, done)
}

/// Ends the accesses' block `body`: the first pass over, moves the case's offsets (`copies`:
/// from row, to row) and exec (s[6:7] to s[2:3]) in place and runs `body` again; after the
/// second pass, `done` returns.
fn second_pass(
    mut b: FunctionBuilder,
    copies: &[(u32, u32)],
    body: wavejit_ir::Block,
    done: wavejit_ir::Block,
) -> Arc<Function> {
    b.begin_guest_inst(0x40);
    for &(from, to) in copies {
        let x = b.use_reg(v(from), T::I32);
        b.def_reg(v(to), x, None);
    }
    let e = b.use_reg(s(6), T::I64);
    b.def_reg(s(2), e, None);
    let n = b.use_reg(s(8), T::I32);
    let one = b.i32(1);
    let n1 = b.op(Op::Iadd, T::I32, &[n, one]);
    b.def_reg(s(8), n1, None);
    let again = b.op(Op::Icmp(wavejit_ir::IntCC::Eq), T::I1, &[n1, one]);
    b.terminate(Terminator::Branch {
        cond: again,
        then_to: body,
        else_to: done,
    });
    b.switch_to(done);
    b.terminate(Terminator::Return);
    Arc::new(b.finish())
}

/// A start: buffer bytes (placed so they end at the last byte of a 1 MiB reservation when
/// `at_end`), exec, offsets.
struct Case {
    name: String,
    exec: u64,
    load_off: Vec<u32>,
    store_off: Vec<u32>,
    buffer: usize,
    at_end: bool,
    /// Bytes between the lanes' addresses in the warm-up pass.
    warm: u32,
}

fn solo_for(f: &Function, c: &Case) -> Solo {
    const RESERVE: u64 = 1 << 20;
    let mut solo = Solo::new(&f.layout, RESERVE).unwrap();
    let bytes: Vec<u8> = (0..c.buffer).map(|i| (i * 37 + 11) as u8).collect();
    let second: Vec<u8> = (0..c.buffer).map(|i| (i * 91 + 5) as u8).collect();
    let (a, b2) = if c.at_end {
        // The second buffer first, so the first ends at the reservation's last byte.
        let b2 = solo.mem.alloc_bytes(&second, 256).unwrap();
        let a = GUEST_BASE + RESERVE - c.buffer as u64;
        solo.mem.alloc_at(a, &bytes).unwrap();
        (a, b2)
    } else {
        let a = solo.mem.alloc_bytes(&bytes, 256).unwrap();
        (a, solo.mem.alloc_bytes(&second, 256).unwrap())
    };
    solo.watch.push(("first".into(), a, c.buffer as u64));
    solo.watch.push(("second".into(), b2, c.buffer as u64));
    let st = &mut solo.state;
    st.set_uniform(s(0), a as u32);
    st.set_uniform(s(1), (a >> 32) as u32);
    st.set_uniform(s(2), u32::MAX);
    st.set_uniform(s(3), u32::MAX);
    st.set_uniform(s(6), c.exec as u32);
    st.set_uniform(s(7), (c.exec >> 32) as u32);
    st.set_uniform(s(4), b2 as u32);
    st.set_uniform(s(5), (b2 >> 32) as u32);
    for l in 0..WAVE {
        st.set_lane(v(0), l, c.warm * l);
        st.set_lane(v(1), l, c.warm * l);
        st.set_lane(v(8), l, c.load_off[l as usize]);
        st.set_lane(v(9), l, c.store_off[l as usize]);
        st.set_lane(v(2), l, 0x8070_6050 ^ l.wrapping_mul(0x0101_0101));
        st.set_lane(v(3), l, 0xf0e0_d0c0 ^ l);
    }
    solo.lds = (0..LDS).map(|i| (i * 13 + 7) as u8).collect();
    solo.private_lane_bytes = SEGMENT;
    solo.private = (0..WAVE * SEGMENT).map(|i| (i * 29 + 3) as u8).collect();
    solo
}

fn fault_of(r: &Run) -> Option<(u32, Option<u32>, Option<u64>)> {
    r.fault.as_ref().map(|f| (f.pc, f.lane, f.addr))
}

/// Runs `f` from `c` on the interpreter, the inlining JIT and the helper-only JIT; all three
/// must agree; returns the interpreter's run.
fn check(f: &Arc<Function>, c: &Case, inline: &Jit, helper: &Jit) -> Run {
    let (a, b, diff) = solo::run_both(&Interpreter, inline, f, solo_for(f, c), 1000);
    assert!(
        diff.is_none(),
        "{}: inline JIT: {}",
        c.name,
        diff.unwrap().text()
    );
    assert_eq!(fault_of(&a), fault_of(&b), "{}: fault lane/address", c.name);
    let h = solo::run(helper, f, solo_for(f, c), 1000);
    assert!(
        solo::compare(&f.layout, &a, &h).is_none(),
        "{}: helper JIT",
        c.name
    );
    if matches!(a.end, End::Fault(..)) {
        // The engines may stop at different points of the block, but a store that faults
        // must not have written; compare what every engine left in memory.
        for (name, bytes) in &a.memories {
            assert_eq!(
                Some(bytes.as_slice()),
                b.memory(name),
                "{}: {name} after a fault",
                c.name
            );
        }
    }
    a
}

fn offsets(f: impl Fn(u32) -> u32) -> Vec<u32> {
    (0..WAVE).map(f).collect()
}

fn cases(width: MemWidth, buffer: usize) -> Vec<Case> {
    let w = width.bytes();
    let last = buffer as u32 - w;
    let mut out = Vec::new();
    let mut case = |name: &str, exec: u64, load: Vec<u32>, store: Vec<u32>, at_end: bool| {
        out.push(Case {
            name: format!("{name} (w{w}{})", if at_end { ", at the end" } else { "" }),
            exec,
            load_off: load,
            store_off: store,
            buffer,
            at_end,
            warm: 4,
        });
    };
    for at_end in [false, true] {
        let seq = offsets(|l| l * w);
        case("sequential", u64::MAX, seq.clone(), seq.clone(), at_end);
        case(
            "partial exec",
            0x0f0f_ff00_1234_8001,
            seq.clone(),
            seq.clone(),
            at_end,
        );
        case("empty exec", 0, seq.clone(), seq.clone(), at_end);
        case(
            "misaligned",
            u64::MAX,
            offsets(|l| l * w + 1),
            offsets(|l| l * w + 3),
            at_end,
        );
        case(
            "reversed",
            u64::MAX,
            offsets(|l| (63 - l) * w),
            offsets(|l| (63 - l) * w),
            at_end,
        );
        case(
            "shared address",
            u64::MAX,
            offsets(|_| 8),
            offsets(|_| 16),
            at_end,
        );
        // One word for every lane at the buffer's last word, and one word past it.
        case(
            "shared address, the last word",
            u64::MAX,
            offsets(|_| last),
            offsets(|_| last),
            at_end,
        );
        case(
            "shared address past the end",
            u64::MAX,
            offsets(|_| last + 1),
            seq.clone(),
            at_end,
        );
        case(
            "overlapping stores",
            u64::MAX,
            seq.clone(),
            offsets(|l| (l / 4) * 2),
            at_end,
        );
        case(
            "last byte",
            u64::MAX,
            offsets(|l| last - l % 3),
            offsets(|l| last - l % 5),
            at_end,
        );
        // Lane 37 starts one byte too late: its access ends past the buffer.
        let mut past = offsets(|l| l * w);
        past[37] = last + 1;
        case(
            "one lane past the end",
            u64::MAX,
            past.clone(),
            seq.clone(),
            at_end,
        );
        case(
            "a store past the end",
            u64::MAX,
            seq.clone(),
            past.clone(),
            at_end,
        );
        // The same lane outside exec does not act.
        case(
            "past the end, lane masked",
            !(1 << 37),
            past.clone(),
            past.clone(),
            at_end,
        );
        case(
            "far outside",
            1 << 9,
            offsets(|_| 0x40_0000),
            offsets(|_| 0x40_0000),
            at_end,
        );
    }
    out
}

fn engines() -> (Jit, Jit) {
    let helper = jit_with(JitOptions {
        inline_memory: false,
        ..JitOptions::default()
    });
    (jit(), helper)
}

#[test]
fn global_accesses_match_the_interpreter() {
    let (inline, helper) = engines();
    let mut faults = 0;
    for (width, ty) in [
        (MemWidth::B8, T::I32),
        (MemWidth::B16, T::I32),
        (MemWidth::B32, T::I32),
        (MemWidth::B64, T::I64),
    ] {
        for signed in [false, true] {
            for two in [false, true] {
                let f = func(MemSpace::Global, width, signed, ty, two);
                for c in cases(width, 1024) {
                    let r = check(&f, &c, &inline, &helper);
                    faults += matches!(r.end, End::Fault(..)) as u32;
                }
            }
        }
    }
    // The past-the-end (one lane, a store, every lane on one word) and far-outside cases
    // fault; the masked one does not.
    assert_eq!(faults, 4 * 2 * 2 * 2 * 4);
}

#[test]
fn lds_accesses_match_the_interpreter() {
    let (inline, helper) = engines();
    for (width, ty) in [
        (MemWidth::B8, T::I32),
        (MemWidth::B16, T::I32),
        (MemWidth::B32, T::I32),
        (MemWidth::B64, T::I64),
    ] {
        for signed in [false, true] {
            let f = func(MemSpace::Lds, width, signed, ty, false);
            // Offsets are into the 256-byte LDS: in range, straddling its end, past it.
            for c in cases(width, LDS) {
                let r = check(&f, &c, &inline, &helper);
                assert_eq!(r.end, End::Done, "{}: LDS accesses never fault", c.name);
            }
        }
    }
}

/// Private memory: every lane addresses its own segment, so offsets are the same shapes as
/// in the other spaces but a lane's window is its segment.
#[test]
fn private_accesses_match_the_interpreter() {
    let (inline, helper) = engines();
    let mut faults = 0;
    for (width, ty) in [
        (MemWidth::B8, T::I32),
        (MemWidth::B16, T::I32),
        (MemWidth::B32, T::I32),
        (MemWidth::B64, T::I64),
    ] {
        let w = width.bytes();
        let last = SEGMENT - w;
        for signed in [false, true] {
            let f = func(MemSpace::Private, width, signed, ty, false);
            let mut past = offsets(|l| (l * w) % (last + 1));
            past[37] = last + 1;
            for (name, exec, load, store) in [
                ("same offset", u64::MAX, offsets(|_| 8), offsets(|_| 16)),
                (
                    "varied offsets, partial exec",
                    0x0f0f_ff00_1234_8001,
                    offsets(|l| (l * 7) % (last + 1)),
                    offsets(|l| (l * 5) % (last + 1)),
                ),
                (
                    "last byte",
                    u64::MAX,
                    offsets(|_| last),
                    offsets(|l| last - l % 3),
                ),
                (
                    "one lane past its segment",
                    u64::MAX,
                    past.clone(),
                    offsets(|_| 0),
                ),
                (
                    "a store past its segment",
                    u64::MAX,
                    offsets(|_| 0),
                    past.clone(),
                ),
                ("past, lane masked", !(1 << 37), past.clone(), past.clone()),
                (
                    "far outside",
                    1 << 9,
                    offsets(|_| 1 << 20),
                    offsets(|_| 1 << 20),
                ),
            ] {
                let c = Case {
                    name: format!("private {name} (w{w})"),
                    exec,
                    load_off: load,
                    store_off: store,
                    buffer: 64,
                    at_end: false,
                    warm: 0,
                };
                let r = check(&f, &c, &inline, &helper);
                faults += matches!(r.end, End::Fault(..)) as u32;
            }
        }
    }
    // The past-the-end and far-outside cases fault; the masked one does not.
    assert_eq!(faults, 4 * 2 * 3);
}

/// A uniform load (a kernarg read): inside, at the last byte, and past the buffer.
#[test]
fn uniform_loads_match_the_interpreter() {
    let (inline, helper) = engines();
    for (off, faults) in [(4u32, false), (1020, false), (1021, true), (1 << 20, true)] {
        // Twice: at offset 0 (warms the hint), then at `off` (s9).
        let mut b = FunctionBuilder::new("uniform", layout(WAVE, 10, 12));
        let (entry, body, done) = (b.create_block(), b.create_block(), b.create_block());
        b.switch_to(entry);
        b.begin_guest_inst(0x30);
        let zero = b.i64(0);
        b.def_reg(s(8), zero, None);
        b.terminate(Terminator::Jump(body));
        b.switch_to(body);
        b.begin_guest_inst(0x40);
        let base = b.use_reg(s(0), T::I64);
        let o = b.use_reg(s(8), T::I64);
        let a = b.op(Op::Iadd, T::I64, &[base, o]);
        let x = b.load(MemSpace::Global, MemWidth::B32, false, T::I32, a, None);
        b.def_reg(s(6), x, None);
        let next = b.i64(u64::from(off));
        b.def_reg(s(8), next, None);
        let zero = b.i64(0);
        let first = b.op(Op::Icmp(wavejit_ir::IntCC::Eq), T::I1, &[o, zero]);
        b.terminate(Terminator::Branch {
            cond: first,
            then_to: body,
            else_to: done,
        });
        b.switch_to(done);
        b.terminate(Terminator::Return);
        let f = Arc::new(b.finish());
        let c = Case {
            name: format!("uniform load at {off}"),
            exec: u64::MAX,
            load_off: offsets(|_| 0),
            store_off: offsets(|_| 0),
            buffer: 1024,
            at_end: true,
            warm: 4,
        };
        let r = check(&f, &c, &inline, &helper);
        assert_eq!(matches!(r.end, End::Fault(..)), faults, "{}", c.name);
        if !faults {
            let want = u32::from_le_bytes([0, 1, 2, 3].map(|i| ((off + i) * 37 + 11) as u8));
            assert_eq!(r.state.unwrap().uniform(s(6)), want);
        }
    }
}

/// A uniform load among lane code, which the JIT runs before the loop around it: in range,
/// and past the buffer, where the wave must stop with the lane writes before the load made
/// and none after it, the state the interpreter leaves (compared cell for cell).
#[test]
fn a_uniform_load_among_lane_code_faults_in_program_order() {
    let (inline, helper) = engines();
    for (off, faults) in [(8u64, false), (1 << 20, true)] {
        let mut b = FunctionBuilder::new("hoisted", layout(WAVE, 10, 12));
        let entry = b.create_block();
        b.switch_to(entry);
        b.begin_guest_inst(0x10);
        let lane = b.lane_id();
        let one = b.i32(1);
        let before = b.op(Op::Iadd, T::I32, &[lane, one]);
        b.def_reg(v(4), before, None);
        b.begin_guest_inst(0x14);
        let base = b.use_reg(s(0), T::I64);
        let o = b.i64(off);
        let a = b.op(Op::Iadd, T::I64, &[base, o]);
        let x = b.load(MemSpace::Global, MemWidth::B32, false, T::I32, a, None);
        b.begin_guest_inst(0x18);
        let xs = b.splat(x);
        let after = b.op(Op::Iadd, T::I32, &[lane, xs]);
        b.def_reg(v(5), after, None);
        b.def_reg(s(9), x, None);
        b.terminate(Terminator::Return);
        let f = Arc::new(b.finish());
        let c = Case {
            name: format!("uniform load at {off} among lane code"),
            exec: u64::MAX,
            load_off: offsets(|_| 0),
            store_off: offsets(|_| 0),
            buffer: 1024,
            at_end: false,
            warm: 0,
        };
        let r = check(&f, &c, &inline, &helper);
        assert_eq!(matches!(r.end, End::Fault(..)), faults, "{}", c.name);
        for jit in [&inline, &helper] {
            let j = solo::run(jit, &f, solo_for(&f, &c), 1000);
            let (want, got) = (r.state.as_ref().unwrap(), j.state.as_ref().unwrap());
            let first = want
                .bytes()
                .iter()
                .zip(got.bytes())
                .position(|(x, y)| x != y);
            assert_eq!(first, None, "{}: first state byte that differs", c.name);
        }
        let st = r.state.unwrap();
        assert_eq!(st.lane(v(4), 5), 6, "{}: the write before the load", c.name);
        // v5 starts at 0.
        let after = if faults {
            0
        } else {
            5u32.wrapping_add(st.uniform(s(9)))
        };
        assert_eq!(
            st.lane(v(5), 5),
            after,
            "{}: the write after the load",
            c.name
        );
    }
}

/// Loads under every engine, through `wavejit_runtime::dispatch`: two threads, many
/// work-groups sharing the buffers, hints carried across waves.
#[test]
fn engines_agree_on_a_dispatch() {
    let f = func(MemSpace::Global, MemWidth::B32, false, T::I32, true);
    let c = &cases(MemWidth::B32, 1024)[0];
    let results: Vec<Vec<u8>> = [&jit() as &dyn Engine, &Interpreter]
        .into_iter()
        .map(|e| {
            let solo = solo_for(&f, c);
            let prog = e.prepare(f.clone()).unwrap();
            let init = |_: &wavejit_runtime::WaveCoord,
                        regs: &mut dyn wavejit_runtime::RegSink|
             -> Result<(), String> {
                for r in 0..8 {
                    regs.set_uniform(s(r), solo.state.uniform(s(r)));
                }
                for l in 0..WAVE {
                    for r in [0, 1, 2, 3, 8, 9] {
                        regs.set_lane(v(r), l, solo.state.lane(v(r), l));
                    }
                }
                Ok(())
            };
            let launch = wavejit_runtime::Launch {
                kernel: "access".into(),
                func: f.clone(),
                program: prog,
                grid: wavejit_runtime::Grid::new([64 * 16, 1, 1], [64, 1, 1], WAVE).unwrap(),
                lds_bytes: LDS as u32,
                private_lane_bytes: 0,
                threads: 2,
                fuel: 1000,
                time_limit: std::time::Duration::from_secs(60),
                init: &init,
            };
            wavejit_runtime::dispatch(&launch, &solo.mem).unwrap();
            let (_, a, n) = solo.watch[0].clone();
            let mut out = vec![0; n as usize];
            solo.mem.read_bytes(a, &mut out).unwrap();
            out
        })
        .collect();
    assert_eq!(results[0], results[1]);
}

/// v4:v5 = atomic(op, base + v0, v2:v3) under exec, twice: first with v0 = width * lane under
/// every lane (warming the hint), then with the case's offsets (v8) and exec (s6:s7).
fn atomic_func(space: MemSpace, width: MemWidth, op: wavejit_ir::AtomicOp) -> Arc<Function> {
    let ty = if width == MemWidth::B64 {
        T::I64
    } else {
        T::I32
    };
    let mut b = FunctionBuilder::new("atomic", layout(WAVE, 10, 12));
    let (entry, body, done) = (b.create_block(), b.create_block(), b.create_block());
    b.switch_to(entry);
    b.begin_guest_inst(0x10);
    let zero = b.i32(0);
    b.def_reg(s(8), zero, None);
    b.terminate(Terminator::Jump(body));
    b.switch_to(body);
    b.begin_guest_inst(0x20);
    let bits = b.use_reg(s(2), T::I64);
    let exec = b.mask_from_bits(bits);
    let o = b.use_reg(v(0), T::I32);
    let a = match space {
        MemSpace::Global => {
            let base = b.use_reg(s(0), T::I64);
            let o = b.op(Op::Zext, T::I64, &[o]);
            b.op(Op::Iadd, T::I64, &[base, o])
        }
        _ => o,
    };
    let d = b.use_reg(v(2), ty);
    // A compare and exchange compares with the previous pass's old values: it succeeds where
    // a lane meets the value it saw before, else fails.
    let c = (op == wavejit_ir::AtomicOp::CmpXchg).then(|| b.use_reg(v(4), ty));
    let old = b.atomic(op, space, width, a, d, c, Some(exec));
    b.def_reg(v(4), old, None);
    second_pass(b, &[(8, 0)], body, done)
}

/// Atomics inline (every inlined operation, 32 and 64 bits, global and LDS) against the
/// interpreter and the helper: all lanes on one address (contention: the lanes' old values
/// come out in lane order; in global memory one host atomic for the wave), also under
/// partial exec, at the last word and past it, distinct addresses, partial exec, a
/// misaligned lane and a lane past the end (global: faults before any lane acts; LDS: the
/// exact path, which reads 0 and writes nothing for it).
#[test]
fn atomics_match_the_interpreter() {
    use wavejit_ir::AtomicOp::*;
    let (inline, helper) = engines();
    let mut faults = 0;
    for space in [MemSpace::Global, MemSpace::Lds] {
        for width in [MemWidth::B32, MemWidth::B64] {
            let w = width.bytes();
            let buffer = if space == MemSpace::Lds { LDS } else { 1024 };
            let last = buffer as u32 - w;
            let cases = [
                ("one address", u64::MAX, offsets(|_| 8 * w)),
                ("distinct", u64::MAX, offsets(|l| l * w)),
                (
                    "partial exec",
                    0x8000_f0f0_0000_1111,
                    offsets(|l| (l % 7) * w),
                ),
                (
                    "misaligned lane",
                    u64::MAX,
                    offsets(|l| if l == 9 { 4 * w + 1 } else { 0 }),
                ),
                (
                    "past the end",
                    u64::MAX,
                    offsets(|l| if l == 40 { last + w } else { last }),
                ),
                // One word for every lane: the wave's update as one host atomic (global).
                (
                    "one address, partial exec",
                    0x8000_f0f0_0000_1111,
                    offsets(|_| 8 * w),
                ),
                ("one address, the last word", u64::MAX, offsets(|_| last)),
                ("one address past the end", u64::MAX, offsets(|_| last + w)),
            ];
            for op in [
                Add, Sub, Xchg, And, Or, Xor, Umin, Umax, Smin, Smax, CmpXchg, Inc, Dec,
            ] {
                let f = atomic_func(space, width, op);
                for (name, exec, offs) in &cases {
                    let c = Case {
                        name: format!("{op:?} {space:?} w{w} {name}"),
                        exec: *exec,
                        load_off: offs.clone(),
                        store_off: offs.clone(),
                        buffer,
                        at_end: false,
                        warm: w,
                    };
                    let r = check(&f, &c, &inline, &helper);
                    faults += matches!(r.end, End::Fault(..)) as u32;
                }
            }
        }
    }
    // Global memory: the misaligned lane (both widths: 4w + 1 is never aligned), the lane
    // past the end and the one address past the end fault, for every operation.
    assert_eq!(faults, 13 * 2 * 3);
}
