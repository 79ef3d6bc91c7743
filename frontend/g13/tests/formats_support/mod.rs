//! Running memory-format programs: one SIMD-group (tests/common's [`Wave`]) with a device
//! buffer, threadgroup memory and per-thread stack memory, on the interpreter and on the JIT,
//! which must agree on every register and byte; and the expected values ([`oracle`]).
#![allow(dead_code)]

pub mod oracle;

use crate::common::{jit, Wave, LANES};
use std::sync::Arc;
use wavejit_g13::lift::state::sr;
use wavejit_ir::Function;
use wavejit_runtime::solo::{self, End, Solo};
use wavejit_runtime::Interpreter;

/// Guest instructions a program may run.
const FUEL: u64 = 10_000;

/// Memory a run starts with.
#[derive(Clone, Default)]
pub struct Memory {
    /// The device buffer (its address goes to u0_u1 and to the `setup` callback of [`run`]).
    pub device: Vec<u8>,
    /// Threadgroup memory; its size is the threadgroup memory size the guard checks.
    pub threadgroup: Vec<u8>,
    /// Each thread's stack memory, `stack_bytes` per lane, lane 0 first.
    pub stack: Vec<u8>,
    pub stack_bytes: u32,
}

/// What a run left: the registers and the three memories.
pub struct After {
    pub wave: Wave,
    pub memory: Memory,
}

/// The code of applegpu-syntax `text`, lifted.
pub fn lift(text: &str) -> Arc<Function> {
    let p = wavejit_g13::asm::assemble(text).unwrap_or_else(|e| panic!("{text}\n{e}"));
    let f = wavejit_g13::lift::lift(&p.bytes, 0, "formats").unwrap_or_else(|e| panic!("{e}"));
    Arc::new(f)
}

/// Runs `f` from `wave` (changed by `setup`, which receives the device buffer's address) with
/// `memory`, on both engines; how the run ended (the same on both) and what it left.
pub fn run_to_end(
    f: &Arc<Function>,
    wave: &Wave,
    memory: &Memory,
    setup: impl Fn(&mut Wave, u64),
) -> (End, After) {
    let mut start = Solo::new(&f.layout, 1 << 20).expect("guest memory");
    let at = start
        .mem
        .alloc_bytes(&memory.device, 256)
        .expect("device buffer");
    start
        .watch
        .push(("device".into(), at, memory.device.len() as u64));
    start.lds = memory.threadgroup.clone();
    start.private = memory.stack.clone();
    start.private_lane_bytes = memory.stack_bytes;
    let mut wave = wave.clone();
    wave.set_u(0, at as u32);
    wave.set_u(1, (at >> 32) as u32);
    let l = crate::common::layout();
    wave.state
        .set_uniform(l.sr(sr::THREADGROUP_BYTES), memory.threadgroup.len() as u32);
    setup(&mut wave, at);
    start.state = wave.state;
    let (a, _, diff) = solo::run_both(&Interpreter, jit(), f, start, FUEL);
    if let Some(d) = diff {
        let lines: Vec<&String> = d.lines.iter().take(20).collect();
        panic!("interpreter and JIT disagree: {}\n{lines:#?}", d.headline());
    }
    let bytes = |name: &str| a.memory(name).map(<[u8]>::to_vec).unwrap_or_default();
    let after = After {
        wave: Wave {
            state: a.state.clone().expect("a final state"),
        },
        memory: Memory {
            device: bytes("device"),
            threadgroup: bytes("lds"),
            stack: bytes("private"),
            stack_bytes: memory.stack_bytes,
        },
    };
    (a.end, after)
}

/// [`run_to_end`] for a run that must end normally.
pub fn run(
    f: &Arc<Function>,
    wave: &Wave,
    memory: &Memory,
    setup: impl Fn(&mut Wave, u64),
) -> After {
    let (end, after) = run_to_end(f, wave, memory, setup);
    assert_eq!(end, End::Done, "`{}` did not end normally", f.name);
    after
}

/// Sets the register pair rN, rN+1 of every lane to `f(lane)`.
pub fn set_pair(wave: &mut Wave, n: u32, f: impl Fn(u32) -> u64) {
    for lane in 0..LANES {
        let v = f(lane);
        wave.set_r(n, lane, v as u32);
        wave.set_r(n + 1, lane, (v >> 32) as u32);
    }
}

/// The 16-bit register half `h` (h = 2n for rNl, 2n + 1 for rNh) of `lane`.
pub fn half(wave: &Wave, h: u32, lane: u32) -> u32 {
    (wave.r(h / 2, lane) >> (16 * (h % 2))) & 0xffff
}

/// Sets the 16-bit register half `h` of `lane`.
pub fn set_half(wave: &mut Wave, h: u32, lane: u32, v: u32) {
    let shift = 16 * (h % 2);
    let old = wave.r(h / 2, lane) & !(0xffff << shift);
    wave.set_r(h / 2, lane, old | (v & 0xffff) << shift);
}

/// Register value `k` of a register range of 32-bit registers from rN (`half` false) or of
/// halves from half `2N` (`half` true).
pub fn reg(wave: &Wave, n: u32, k: u32, half_regs: bool, lane: u32) -> u32 {
    if half_regs {
        half(wave, 2 * n + k, lane)
    } else {
        wave.r(n + k, lane)
    }
}

/// Sets register value `k` of such a range.
pub fn set_reg(wave: &mut Wave, n: u32, k: u32, half_regs: bool, lane: u32, v: u32) {
    if half_regs {
        set_half(wave, 2 * n + k, lane, v)
    } else {
        wave.set_r(n + k, lane, v)
    }
}

/// The text of a register range of `count` registers from rN: words, or halves from rNl.
pub fn range(n: u32, count: u32, half_regs: bool) -> String {
    let names: Vec<String> = (0..count)
        .map(|k| {
            if half_regs {
                let h = 2 * n + k;
                format!("r{}{}", h / 2, if h.is_multiple_of(2) { 'l' } else { 'h' })
            } else {
                format!("r{}", n + k)
            }
        })
        .collect();
    names.join("_")
}

/// Little-endian words as bytes.
pub fn word_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Word `i` of little-endian bytes.
pub fn word_at(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap())
}

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}
