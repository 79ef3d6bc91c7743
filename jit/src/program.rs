//! A prepared function: compiled blocks plus the glue that runs them.

use crate::compile::CompiledBlock;
use crate::ctx::{exit, JitCtx};
use crate::Shared;
use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::resume_unwind;
use std::sync::Arc;
use wavejit_ir::{Block, Function, Terminator};
use wavejit_runtime::interp::{fault_kind, terminator_pc};
use wavejit_runtime::{BlockExit, Fault, FaultKind, Lanes, Program, WaveCtx};

thread_local! {
    /// Scratch slots of the block running on this thread (blocks never nest).
    static SCRATCH: RefCell<Vec<Lanes>> = const { RefCell::new(Vec::new()) };
}

pub(crate) struct JitProgram {
    func: Arc<Function>,
    blocks: Vec<Arc<CompiledBlock>>,
    /// Guest pc -> block, for `JumpIndirect`.
    by_pc: HashMap<u64, Block>,
    /// Keeps the code memory alive.
    _shared: Arc<Shared>,
}

impl JitProgram {
    pub fn new(
        func: Arc<Function>,
        blocks: Vec<Arc<CompiledBlock>>,
        shared: Arc<Shared>,
    ) -> JitProgram {
        let mut by_pc = HashMap::new();
        for (i, b) in func.blocks.iter().enumerate() {
            if let Some(pc) = b.guest_pc {
                by_pc.entry(pc).or_insert(Block(i as u32));
            }
        }
        JitProgram {
            func,
            blocks,
            by_pc,
            _shared: shared,
        }
    }
}

fn fault(kind: FaultKind, pc: u32) -> Fault {
    Fault {
        kind,
        pc,
        lane: None,
        addr: None,
    }
}

impl Program for JitProgram {
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        let (Some(code), Some(data)) = (
            self.blocks.get(block.index()),
            self.func.blocks.get(block.index()),
        ) else {
            // The interpreter's wording, so both engines report the same fault.
            return Err(fault(
                FaultKind::Trap(format!(
                    "malformed IR: {block} is not a block of the function"
                )),
                0,
            ));
        };
        // Memory safety needs only the size and the wave size the code was compiled for.
        let l = &ctx.state.layout;
        if l.wave_size != self.func.layout.wave_size
            || l.state_bytes() != self.func.layout.state_bytes()
        {
            return Err(fault(
                FaultKind::Trap("wave state layout differs from the program's".into()),
                0,
            ));
        }
        let last_pc = terminator_pc(data);
        let code_word = SCRATCH.with(|s| {
            let mut scratch = s.borrow_mut();
            if scratch.len() < code.n_slots as usize {
                scratch.resize(code.n_slots as usize, Lanes::default());
            }
            let wave: *mut WaveCtx<'_> = ctx;
            let mut jc = JitCtx {
                // SAFETY: `wave` is the live `&mut WaveCtx` of this call.
                state: unsafe { (*wave).state.as_mut_ptr() },
                scratch: scratch.as_mut_ptr(),
                indirect_pc: 0,
                wave: wave.cast(),
                block: data,
                fault: None,
                panic: None,
            };
            // SAFETY: the code was compiled for this block and this state layout (checked
            // above); the scratch area has the slots it was planned with; helpers reach the
            // wave context only through `jc.wave`, while this frame does not touch it.
            let w = unsafe { (code.entry)(&mut jc) };
            (w, jc)
        });
        let (w, mut jc) = code_word;
        if let Some(p) = jc.panic.take() {
            resume_unwind(p);
        }
        match w & 3 {
            exit::TAG_JUMP => return Ok(BlockExit::Jump(Block(w >> 2))),
            exit::TAG_BARRIER => return Ok(BlockExit::Barrier(Block(w >> 2))),
            _ => {}
        }
        match w {
            exit::RETURN => Ok(BlockExit::Return),
            exit::FAULT => Err(jc.fault.take().unwrap_or_else(|| {
                fault(
                    FaultKind::Trap("JIT helper failed without a fault".into()),
                    last_pc,
                )
            })),
            // Fault pcs as the interpreter reports them.
            exit::INDIRECT => match self.by_pc.get(&jc.indirect_pc) {
                Some(&b) => Ok(BlockExit::Jump(b)),
                None => {
                    let pc = match data.term {
                        Terminator::JumpIndirect(v) => {
                            data.insts.get(v.index()).map_or(last_pc, |i| i.pc)
                        }
                        _ => last_pc,
                    };
                    Err(Fault {
                        kind: FaultKind::BadJump,
                        pc,
                        lane: None,
                        addr: Some(jc.indirect_pc),
                    })
                }
            },
            exit::TRAP => Err(fault(
                match &data.term {
                    Terminator::Trap(t) => fault_kind(t),
                    t => FaultKind::Trap(format!("JIT trap exit for terminator {t:?}")),
                },
                last_pc,
            )),
            w => Err(fault(
                FaultKind::Trap(format!("JIT returned an unknown exit code {w:#x}")),
                last_pc,
            )),
        }
    }
}
