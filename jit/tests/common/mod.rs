//! Test harness: layouts, a single-wave runner for any engine, state setup.
#![allow(dead_code)]

use std::sync::Arc;
use wavejit_ir::{FileId, FileKind, Function, Reg, StateLayout};
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::{
    BlockExit, Engine, Fault, GuestMemory, MemHints, Program, WaveCtx, WaveState,
};

pub const S: FileId = FileId(0);
pub const V: FileId = FileId(1);

/// Uniform file `s` and lane file `v` of the given sizes.
pub fn layout(wave_size: u32, s_cells: u32, v_cells: u32) -> StateLayout {
    let mut l = StateLayout::new(wave_size);
    assert_eq!(l.add_file("s", FileKind::Uniform, s_cells), S);
    assert_eq!(l.add_file("v", FileKind::Lane, v_cells), V);
    l
}

pub fn s(i: u32) -> Reg {
    Reg::new(S, i)
}

pub fn v(i: u32) -> Reg {
    Reg::new(V, i)
}

pub fn jit() -> Jit {
    Jit::new().expect("host supported by Cranelift")
}

pub fn jit_with(opts: JitOptions) -> Jit {
    Jit::with_options(opts).expect("host supported by Cranelift")
}

pub fn memory() -> GuestMemory {
    GuestMemory::with_reserve(16 << 20).expect("16 MiB reservation")
}

/// One wave with its own LDS and private memory.
pub struct Wave {
    pub state: WaveState,
    pub lds: Vec<u8>,
    pub private: Vec<u8>,
    pub private_lane_bytes: u32,
}

impl Wave {
    pub fn new(layout: &StateLayout, lds_bytes: usize, private_lane_bytes: u32) -> Wave {
        Wave {
            state: WaveState::new(Arc::new(layout.clone())),
            lds: vec![0; lds_bytes],
            private: vec![0; layout.wave_size as usize * private_lane_bytes as usize],
            private_lane_bytes,
        }
    }

    /// The context a block of this wave runs with.
    pub fn ctx<'a>(&'a mut self, mem: &'a GuestMemory, hints: &'a mut MemHints) -> WaveCtx<'a> {
        WaveCtx {
            state: &mut self.state,
            mem,
            lds: &mut self.lds,
            private: &mut self.private,
            private_lane_bytes: self.private_lane_bytes,
            hints,
        }
    }

    pub fn block(
        &mut self,
        prog: &dyn Program,
        b: u32,
        mem: &GuestMemory,
    ) -> Result<BlockExit, Fault> {
        let mut hints = MemHints::default();
        prog.run_block(wavejit_ir::Block(b), &mut self.ctx(mem, &mut hints))
    }

    /// Runs from block 0 until `Return`, a fault, or `max_blocks` blocks (barriers continue:
    /// the wave is alone in its workgroup). Returns the blocks run and how it ended.
    pub fn run(
        &mut self,
        prog: &dyn Program,
        mem: &GuestMemory,
        max_blocks: u32,
    ) -> (u32, Result<(), Fault>) {
        let mut b = 0;
        for n in 1..=max_blocks {
            match self.block(prog, b, mem) {
                Ok(BlockExit::Jump(t)) | Ok(BlockExit::Barrier(t)) => b = t.0,
                Ok(BlockExit::Return) => return (n, Ok(())),
                Err(f) => return (n, Err(f)),
            }
        }
        (max_blocks, Ok(()))
    }
}

/// Prepares `func` with `engine`.
pub fn prepare(engine: &dyn Engine, func: &Function) -> Arc<dyn Program> {
    engine
        .prepare(Arc::new(func.clone()))
        .unwrap_or_else(|e| panic!("{}: prepare failed: {e}", engine.name()))
}
