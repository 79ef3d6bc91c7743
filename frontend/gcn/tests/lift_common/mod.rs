//! Shared harness of the lifter tests: lift machine code, verify the IR, and run it for one
//! wave under the reference interpreter with chosen registers and memory.
#![allow(dead_code)]
use std::sync::Arc;
use wavejit_gcn::lift::{lift, GcnLayout, LiftConfig};
use wavejit_gcn::Gen;
use wavejit_ir::{Block, Function};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, Fault, GuestMemory, WaveCtx, WaveState};

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

    /// Runs `f` from block 0 until it returns (barriers just continue: one wave).
    pub fn run(&mut self, f: &Function) -> Result<(), Fault> {
        let prog = Interpreter.prepare(Arc::new(f.clone())).expect("prepare");
        let mut b = Block(0);
        for _ in 0..100_000 {
            let mut ctx = WaveCtx {
                state: &mut self.state,
                mem: &self.mem,
                lds: &mut self.lds,
                private: &mut self.private,
                private_lane_bytes: self.private_lane_bytes,
            };
            match prog.run_block(b, &mut ctx)? {
                BlockExit::Jump(n) | BlockExit::Barrier(n) => b = n,
                BlockExit::Return => return Ok(()),
            }
        }
        panic!("program did not end");
    }

    /// Lifts (with verification) and runs.
    pub fn lift_run(&mut self, code: &[u8], cfg: &LiftConfig) {
        let f = lift_ok(code, cfg);
        if let Err(e) = self.run(&f) {
            panic!("fault: {e}");
        }
    }
}
