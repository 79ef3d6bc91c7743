//! Shared harness of the lifter tests: lift machine code, verify the IR, and run it for one
//! wave with chosen registers and memory on both engines (the reference interpreter and the
//! JIT, through the runtime's shared runner `wavejit_runtime::solo`), which must agree bit for
//! bit; the wave is left holding the interpreter's final state.
#![allow(dead_code)]
use std::sync::{Arc, OnceLock};
use wavejit_gcn::lift::{lift, GcnLayout, LiftConfig};
use wavejit_gcn::Gen;
use wavejit_ir::Function;
use wavejit_jit::Jit;
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::solo::{self, End, Solo};
use wavejit_runtime::{Fault, GuestMemory, WaveState};

/// Guest instructions a run may execute before it counts as not ending.
pub const FUEL: u64 = 10_000_000;

/// Differences shown when the engines disagree.
const DIFF_LINES: usize = 40;

/// The JIT every test of the process shares (its code cache is shared too).
pub fn jit() -> &'static Jit {
    static JIT: OnceLock<Jit> = OnceLock::new();
    JIT.get_or_init(|| Jit::new().expect("host supported by Cranelift"))
}

/// FLOAT_MODE values LLVM 14 emits: f32 denormals flushed (HSA gfx6-8) or kept.
pub const FLUSH_F32: u8 = 0xc0;
pub const KEEP_ALL: u8 = 0xf0;

pub fn config(gen: Gen, float_mode: u8) -> LiftConfig {
    LiftConfig {
        gen,
        float_mode,
        ieee_mode: true,
        dx10_clamp: true,
        base: 0x1000,
        name: "test".into(),
    }
}

/// Lifts and verifies.
pub fn lift_ok(code: &[u8], cfg: &LiftConfig) -> Function {
    let f = lift(code, cfg).unwrap_or_else(|e| panic!("lift failed: {e}"));
    if let Err(e) = wavejit_ir::verify::verify(&f) {
        panic!("lifted IR does not verify: {e}\n{f:#?}");
    }
    f
}

/// One wave: registers, memory, LDS and private memory.
pub struct Wave {
    pub g: GcnLayout,
    pub state: WaveState,
    pub mem: GuestMemory,
    pub lds: Vec<u8>,
    pub private: Vec<u8>,
    pub private_lane_bytes: u32,
}

impl Wave {
    pub fn new() -> Wave {
        let g = GcnLayout::new();
        let state = WaveState::new(Arc::new(g.layout.clone()));
        let mut w = Wave {
            g,
            state,
            mem: GuestMemory::with_reserve(1 << 24).expect("guest memory"),
            lds: vec![0; 4096],
            private: vec![0; 64 * 64],
            private_lane_bytes: 64,
        };
        w.set_exec(u64::MAX);
        w
    }

    pub fn set_s(&mut self, n: u32, v: u32) {
        let r = self.g.sgpr(n);
        self.state.set_uniform(r, v);
    }
    pub fn s(&self, n: u32) -> u32 {
        self.state.uniform(self.g.sgpr(n))
    }
    pub fn set_s64(&mut self, n: u32, v: u64) {
        self.set_s(n, v as u32);
        self.set_s(n + 1, (v >> 32) as u32);
    }
    pub fn s64(&self, n: u32) -> u64 {
        self.s(n) as u64 | (self.s(n + 1) as u64) << 32
    }
    pub fn set_v(&mut self, n: u32, lane: u32, v: u32) {
        let r = self.g.vgpr(n);
        self.state.set_lane(r, lane, v);
    }
    /// Sets VGPR `n` of every lane from `f(lane)`.
    pub fn set_v_all(&mut self, n: u32, f: impl Fn(u32) -> u32) {
        for l in 0..64 {
            self.set_v(n, l, f(l));
        }
    }
    pub fn v(&self, n: u32, lane: u32) -> u32 {
        self.state.lane(self.g.vgpr(n), lane)
    }
    pub fn v64(&self, n: u32, lane: u32) -> u64 {
        self.v(n, lane) as u64 | (self.v(n + 1, lane) as u64) << 32
    }
    pub fn set_exec(&mut self, e: u64) {
        let r = self.g.exec();
        self.state.set_uniform(r, e as u32);
        self.state.set_uniform(r.offset(1), (e >> 32) as u32);
    }
    pub fn exec(&self) -> u64 {
        let r = self.g.exec();
        self.state.uniform(r) as u64 | (self.state.uniform(r.offset(1)) as u64) << 32
    }
    pub fn set_vcc(&mut self, e: u64) {
        let r = self.g.vcc();
        self.state.set_uniform(r, e as u32);
        self.state.set_uniform(r.offset(1), (e >> 32) as u32);
    }
    pub fn vcc(&self) -> u64 {
        let r = self.g.vcc();
        self.state.uniform(r) as u64 | (self.state.uniform(r.offset(1)) as u64) << 32
    }
    pub fn scc(&self) -> u32 {
        self.state.uniform(self.g.scc())
    }
    pub fn set_scc(&mut self, v: u32) {
        let r = self.g.scc();
        self.state.set_uniform(r, v);
    }
    pub fn set_m0(&mut self, v: u32) {
        let r = self.g.m0();
        self.state.set_uniform(r, v);
    }

    /// A global buffer holding `data`; returns its address.
    pub fn buffer(&mut self, data: &[u8]) -> u64 {
        self.mem.alloc_bytes(data, 256).expect("alloc")
    }
    pub fn buffer_u32(&mut self, data: &[u32]) -> u64 {
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.buffer(&bytes)
    }
    pub fn read_u32(&self, addr: u64, n: usize) -> Vec<u32> {
        let mut b = vec![0u8; 4 * n];
        self.mem.read_bytes(addr, &mut b).expect("read");
        b.chunks(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    }

    /// Runs `f` from block 0 until it returns (barriers just continue: one wave) on the
    /// interpreter and on the JIT, each from its own copy of the wave, and panics unless they
    /// agree on the outcome (a fault's kind and pc), every register cell, every byte of every
    /// buffer, LDS and private memory. The wave then holds the interpreter's final state and
    /// memory (also after a fault); the fault is returned.
    pub fn run(&mut self, f: &Function) -> Result<(), Fault> {
        self.try_run(f).unwrap_or_else(|why| panic!("{why}"))
    }

    /// [`Wave::run`], returning where the engines disagree (or why they could not run) as
    /// `Err` instead of panicking, for callers that add context.
    pub fn try_run(&mut self, f: &Function) -> Result<Result<(), Fault>, String> {
        let f = Arc::new(f.clone());
        let mem = std::mem::replace(
            &mut self.mem,
            GuestMemory::with_reserve(1 << 12).expect("guest memory"),
        );
        let watch = mem
            .buffers()
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("buffer{i}@{:#x}", b.start), b.start, b.len))
            .collect();
        let start = Solo {
            state: self.state.clone(),
            mem,
            lds: std::mem::take(&mut self.lds),
            private: std::mem::take(&mut self.private),
            private_lane_bytes: self.private_lane_bytes,
            watch,
        };
        let (a, _, diff) = solo::run_both(&Interpreter, jit(), &f, start, FUEL);
        if let Some(d) = diff {
            let mut text = format!("interpreter and JIT disagree: {}\n", d.headline());
            for l in d.lines.iter().take(DIFF_LINES) {
                text += l;
                text.push('\n');
            }
            if d.lines.len() > DIFF_LINES {
                text += &format!("... {} more\n", d.lines.len() - DIFF_LINES);
            }
            return Err(text);
        }
        let solo::Run {
            end,
            fault,
            state,
            mem,
            memories,
            ..
        } = a;
        match end {
            End::EngineError(e) => return Err(format!("interpreter: {e}")),
            End::OutOfFuel => {
                return Err(format!("program did not end within {FUEL} instructions"))
            }
            End::Done | End::Fault(..) => {}
        }
        self.state = state.expect("a final state");
        self.mem = mem.expect("a final memory");
        for (name, bytes) in memories {
            match name.as_str() {
                "lds" => self.lds = bytes,
                "private" => self.private = bytes,
                _ => {}
            }
        }
        Ok(match fault {
            Some(e) => Err(e),
            None => Ok(()),
        })
    }

    /// Lifts (with verification) and runs.
    pub fn lift_run(&mut self, code: &[u8], cfg: &LiftConfig) {
        let f = lift_ok(code, cfg);
        if let Err(e) = self.run(&f) {
            panic!("fault: {e}");
        }
    }
}
