//! Planted bugs shared by the fuzz campaign tests: engines that run the interpreter and then
//! corrupt one thing, which a campaign must find, minimise and report.
use std::sync::Arc;
use wavejit_ir::{Block, Function, InstKind, Reg};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, ExecError, Fault, Program, WaveCtx};

/// Runs the interpreter, then flips bit 0 of lane 0 of the register `reg` picks after every
/// block that writes that register.
pub struct FlipLane0 {
    pub name: &'static str,
    pub reg: fn(&Function) -> Reg,
}

struct FlipProgram {
    inner: Arc<dyn Program>,
    func: Arc<Function>,
    reg: Reg,
}

impl Engine for FlipLane0 {
    fn name(&self) -> &'static str {
        self.name
    }

    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError> {
        Ok(Arc::new(FlipProgram {
            inner: Interpreter.prepare(func.clone())?,
            reg: (self.reg)(&func),
            func,
        }))
    }
}

impl Program for FlipProgram {
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        let exit = self.inner.run_block(block, ctx)?;
        let writes = self.func.blocks[block.index()]
            .insts
            .iter()
            .any(|i| matches!(i.kind, InstKind::WriteReg { reg, .. } if reg == self.reg));
        if writes {
            let x = ctx.state.lane(self.reg, 0);
            ctx.state.set_lane(self.reg, 0, x ^ 1);
        }
        Ok(exit)
    }
}
