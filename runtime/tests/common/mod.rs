//! Test harness: a small register layout, single-wave block runner, IR building shortcuts.
#![allow(dead_code)]

use std::sync::Arc;
use wavejit_ir::{FileId, FileKind, Function, FunctionBuilder, Reg, StateLayout, Terminator};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, Fault, GuestMemory, Program, WaveCtx, WaveState};

/// Uniform file `s` (32 cells), lane file `v` (16 cells).
pub const S: FileId = FileId(0);
pub const V: FileId = FileId(1);

pub fn layout(wave_size: u32) -> StateLayout {
    let mut l = StateLayout::new(wave_size);
    assert_eq!(l.add_file("s", FileKind::Uniform, 32), S);
    assert_eq!(l.add_file("v", FileKind::Lane, 16), V);
    l
}

pub fn s(i: u32) -> Reg {
    Reg::new(S, i)
}

pub fn v(i: u32) -> Reg {
    Reg::new(V, i)
}

/// A one-block function built by `body`, ending in `Return` unless `body` terminated it.
pub fn one_block(wave_size: u32, body: impl FnOnce(&mut FunctionBuilder)) -> Arc<Function> {
    let mut b = FunctionBuilder::new("test", layout(wave_size));
    let blk = b.create_block();
    b.switch_to(blk);
    b.begin_guest_inst(0x100);
    body(&mut b);
    if b.current_block().is_some() {
        b.terminate(Terminator::Return);
    }
    Arc::new(b.finish())
}

/// One wave with its own LDS and private memory.
pub struct Wave {
    pub state: WaveState,
    pub lds: Vec<u8>,
    pub private: Vec<u8>,
    pub private_lane_bytes: u32,
}

impl Wave {
    pub fn new(func: &Function, lds_bytes: usize, private_lane_bytes: u32) -> Wave {
        let ws = func.layout.wave_size;
        Wave {
            state: WaveState::new(Arc::new(func.layout.clone())),
            lds: vec![0; lds_bytes],
            private: vec![0; ws as usize * private_lane_bytes as usize],
            private_lane_bytes,
        }
    }

    /// Sets lane register `r` to `f(lane)` in every lane.
    pub fn set_v(&mut self, r: u32, f: impl Fn(u32) -> u32) {
        for l in 0..self.state.wave_size() {
            self.state.set_lane(v(r), l, f(l));
        }
    }

    pub fn get_v(&self, r: u32) -> Vec<u32> {
        (0..self.state.wave_size())
            .map(|l| self.state.lane(v(r), l))
            .collect()
    }

    /// Runs the function's block 0 once with the interpreter.
    pub fn run(&mut self, func: &Arc<Function>, mem: &GuestMemory) -> Result<BlockExit, Fault> {
        let prog = Interpreter.prepare(func.clone()).expect("test IR verifies");
        self.run_prog(&*prog, mem)
    }

    pub fn run_prog(&mut self, prog: &dyn Program, mem: &GuestMemory) -> Result<BlockExit, Fault> {
        let mut ctx = WaveCtx {
            state: &mut self.state,
            mem,
            lds: &mut self.lds,
            private: &mut self.private,
            private_lane_bytes: self.private_lane_bytes,
            hints: &mut Default::default(),
        };
        prog.run_block(wavejit_ir::Block(0), &mut ctx)
    }
}

/// A small guest memory for tests.
pub fn memory() -> GuestMemory {
    GuestMemory::with_reserve(64 << 20).expect("64 MiB reservation")
}

/// The mask held in `s[30..32]` (bit `l` = lane `l`), as a `lane i1` value.
pub fn exec(b: &mut FunctionBuilder) -> wavejit_ir::Value {
    let bits = b.use_reg(s(30), wavejit_ir::ScalarType::I64);
    b.mask_from_bits(bits)
}

impl Wave {
    /// Sets the mask `exec` reads.
    pub fn set_exec(&mut self, bits: u64) {
        self.state.set_uniform(s(30), bits as u32);
        self.state.set_uniform(s(31), (bits >> 32) as u32);
    }
}
