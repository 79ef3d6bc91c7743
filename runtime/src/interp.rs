//! The reference interpreter: the oracle the JIT is checked against.
//!
//! It runs one block over the whole wave, one instruction at a time, keeping every value of
//! the block in a [`Lanes`] slot (a per-thread scratch vector, reused from block to block).
//! It is deliberately plain:
//! - pure ops are computed for every lane `0..wave_size` (inactivity matters only at writes)
//!   by [`wavejit_ir::semantics::eval`], except the few integer and bitwise ops of the `simd`
//!   module, whose vector form is the definition itself;
//! - everything that touches memory or crosses lanes goes through [`crate::effects`];
//! - register reads and writes go through [`crate::WaveState::read_reg`] and
//!   [`crate::WaveState::write_reg`].
//!
//! [`InterpProgram::new`] runs [`wavejit_ir::verify::verify`]: the interpreter indexes values,
//! blocks and registers by what the verifier guarantees, so only verified IR is run.

mod simd;

use crate::effects::run_effect;
use crate::engine::{BlockExit, Engine, Program, WaveCtx};
use crate::error::{ExecError, Fault, FaultKind};
use crate::wave::Lanes;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use wavejit_ir::semantics::eval;
use wavejit_ir::{Block, BlockData, Function, InstKind, ScalarType, Terminator, TrapKind};

/// The reference interpreter engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Interpreter;

impl Engine for Interpreter {
    fn name(&self) -> &'static str {
        "interp"
    }

    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError> {
        Ok(Arc::new(InterpProgram::new(func)?))
    }
}

/// A function prepared for interpretation.
pub struct InterpProgram {
    func: Arc<Function>,
    /// Per block, per instruction: operand facts computed once.
    blocks: Vec<Vec<Operands>>,
    /// Guest pc -> block, for `JumpIndirect`.
    targets: HashMap<u64, Block>,
}

/// Most operands of one instruction (`store_format`: code, address, 4 components, mask).
const MAX_ARGS: usize = 7;

/// An instruction's operands: their value indices, scalar types and shapes.
#[derive(Clone, Copy, Debug)]
struct Operands {
    n: usize,
    index: [usize; MAX_ARGS],
    ty: [ScalarType; MAX_ARGS],
    uniform: [bool; MAX_ARGS],
}

/// Stands in for absent operands.
static ZERO: Lanes = Lanes::ZERO;

impl Operands {
    /// The operand slots (absent ones read as zero).
    fn refs<'a>(&self, before: &'a [Lanes]) -> [&'a Lanes; MAX_ARGS] {
        std::array::from_fn(|k| {
            if k < self.n {
                &before[self.index[k]]
            } else {
                &ZERO
            }
        })
    }
}

impl InterpProgram {
    pub fn new(func: Arc<Function>) -> Result<InterpProgram, ExecError> {
        wavejit_ir::verify::verify(&func)
            .map_err(|e| ExecError::Setup(format!("{}: invalid IR: {e}", func.name)))?;
        let blocks = func
            .blocks
            .iter()
            .map(|b| {
                b.insts
                    .iter()
                    .map(|inst| {
                        let args = inst.args();
                        let mut o = Operands {
                            n: args.len().min(MAX_ARGS),
                            index: [0; MAX_ARGS],
                            ty: [ScalarType::I32; MAX_ARGS],
                            uniform: [true; MAX_ARGS],
                        };
                        for (k, v) in args.iter().take(MAX_ARGS).enumerate() {
                            // The verifier guarantees a typed, earlier definition.
                            let t = b
                                .value_type(*v)
                                .unwrap_or(wavejit_ir::Type::uniform(ScalarType::I32));
                            o.index[k] = v.index();
                            o.ty[k] = t.scalar;
                            o.uniform[k] = !t.is_lane();
                        }
                        o
                    })
                    .collect()
            })
            .collect();
        let mut targets = HashMap::new();
        for (i, b) in func.blocks.iter().enumerate() {
            if let Some(pc) = b.guest_pc {
                // The first block with a pc wins, as in `Function::block_at`.
                targets.entry(pc).or_insert(Block(i as u32));
            }
        }
        Ok(InterpProgram {
            func,
            blocks,
            targets,
        })
    }

    pub fn function(&self) -> &Arc<Function> {
        &self.func
    }
}

thread_local! {
    /// Value slots of the block being interpreted on this thread.
    static SCRATCH: RefCell<Vec<Lanes>> = const { RefCell::new(Vec::new()) };
}

/// Watches an interpreted block guest instruction by guest instruction (`wavejit wave
/// --trace`).
pub trait Tracer {
    /// The block starts the instructions of guest pc `pc` (called before the first IR
    /// instruction of each run of instructions with one pc, and before the terminator when
    /// its pc differs), with the state as it is then.
    fn guest_inst(&mut self, pc: u32, state: &crate::wave::WaveState);
    /// Register `reg` and the `cells - 1` after it were written.
    fn wrote(&mut self, reg: wavejit_ir::Reg, cells: u32);
}

impl Program for InterpProgram {
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        self.run_block_traced(block, ctx, None)
    }
}

impl InterpProgram {
    /// [`Program::run_block`], telling `trace` where each guest instruction starts and which
    /// registers it writes.
    pub fn run_block_traced(
        &self,
        block: Block,
        ctx: &mut WaveCtx<'_>,
        trace: Option<&mut dyn Tracer>,
    ) -> Result<BlockExit, Fault> {
        let (Some(data), Some(ops)) = (
            self.func.blocks.get(block.index()),
            self.blocks.get(block.index()),
        ) else {
            return Err(trap(0, format!("{block} is not a block of the function")));
        };
        if ctx.state.wave_size() > 64 {
            return Err(trap(0, "wave size above 64".to_string()));
        }
        SCRATCH.with(|s| match s.try_borrow_mut() {
            Ok(mut vals) => {
                if vals.len() < data.insts.len() {
                    vals.resize(data.insts.len(), Lanes::ZERO);
                }
                self.run(data, ops, &mut vals, ctx, trace)
            }
            // Re-entered on this thread (a program calling another): use a fresh vector.
            Err(_) => self.run(
                data,
                ops,
                &mut vec![Lanes::ZERO; data.insts.len()],
                ctx,
                trace,
            ),
        })
    }
}

impl InterpProgram {
    fn run(
        &self,
        data: &BlockData,
        ops: &[Operands],
        vals: &mut [Lanes],
        ctx: &mut WaveCtx<'_>,
        mut trace: Option<&mut dyn Tracer>,
    ) -> Result<BlockExit, Fault> {
        let ws = ctx.state.wave_size() as usize;
        let mut pc = None;
        for (i, (inst, o)) in data.insts.iter().zip(ops).enumerate() {
            if let Some(t) = trace.as_deref_mut() {
                if pc != Some(inst.pc) {
                    pc = Some(inst.pc);
                    t.guest_inst(inst.pc, ctx.state);
                }
                if let InstKind::WriteReg { reg, .. } = inst.kind {
                    t.wrote(reg, o.ty[0].bits().div_ceil(32));
                }
            }
            let (before, rest) = vals.split_at_mut(i);
            let out = &mut rest[0];
            match inst.kind {
                InstKind::Const(c) => out.0[0] = c,
                InstKind::Splat(_) => out.0[..ws].fill(before[o.index[0]].0[0]),
                InstKind::LaneId => {
                    for (l, e) in out.0[..ws].iter_mut().enumerate() {
                        *e = l as u64;
                    }
                }
                InstKind::MaskFromBits(_) => {
                    let bits = before[o.index[0]].0[0];
                    for (l, e) in out.0[..ws].iter_mut().enumerate() {
                        *e = (bits >> l) & 1;
                    }
                }
                InstKind::Pure { op, mode, .. } => {
                    // The verifier guarantees a type on every value-producing instruction.
                    let Some(ty) = inst.ty else {
                        return Err(trap(inst.pc, "untyped op".into()));
                    };
                    let all = o.refs(before);
                    let args = [all[0], all[1], all[2], all[3]];
                    let uniform = [o.uniform[0], o.uniform[1], o.uniform[2], o.uniform[3]];
                    let n = o.n;
                    if ty.is_lane() {
                        if !simd::run(op, ty.scalar, &args, &uniform, n, out, ws) {
                            for l in 0..ws {
                                let a = [0, 1, 2, 3].map(|k| args[k].get(o.uniform[k], l));
                                out.0[l] = eval(op, mode, ty.scalar, &o.ty[..n], &a[..n])
                                    & ty.scalar.bit_mask();
                            }
                        }
                    } else {
                        let a = [0, 1, 2, 3].map(|k| args[k].0[0]);
                        out.0[0] =
                            eval(op, mode, ty.scalar, &o.ty[..n], &a[..n]) & ty.scalar.bit_mask();
                    }
                }
                InstKind::ReadReg(reg) => {
                    let Some(ty) = inst.ty else {
                        return Err(trap(inst.pc, "untyped read".into()));
                    };
                    if !ctx.state.read_reg(reg, ty.scalar, out) {
                        return Err(trap(inst.pc, format!("register {reg:?} outside its file")));
                    }
                }
                InstKind::WriteReg { reg, mask, .. } => {
                    let value = &before[o.index[0]];
                    let mask = mask.map(|_| (&before[o.index[1]], o.uniform[1]));
                    if !ctx.state.write_reg(reg, o.ty[0], value, o.uniform[0], mask) {
                        return Err(trap(inst.pc, format!("register {reg:?} outside its file")));
                    }
                }
                _ => {
                    let args = o.refs(before);
                    run_effect(data, inst, &args[..o.n], out, ctx)?;
                }
            }
        }
        if let Some(t) = trace {
            if pc != Some(data.term_pc) {
                t.guest_inst(data.term_pc, ctx.state);
            }
        }
        self.exit(data, vals)
    }

    fn exit(&self, data: &BlockData, vals: &[Lanes]) -> Result<BlockExit, Fault> {
        match &data.term {
            Terminator::Jump(b) => Ok(BlockExit::Jump(*b)),
            Terminator::Branch {
                cond,
                then_to,
                else_to,
            } => Ok(BlockExit::Jump(if vals[cond.index()].0[0] & 1 != 0 {
                *then_to
            } else {
                *else_to
            })),
            Terminator::JumpIndirect(v) => {
                let pc = vals[v.index()].0[0];
                self.targets
                    .get(&pc)
                    .map(|&b| BlockExit::Jump(b))
                    .ok_or(Fault {
                        kind: FaultKind::BadJump,
                        pc: data.insts[v.index()].pc,
                        lane: None,
                        addr: Some(pc),
                    })
            }
            Terminator::Barrier(b) => Ok(BlockExit::Barrier(*b)),
            Terminator::Return => Ok(BlockExit::Return),
            Terminator::Trap(kind) => Err(Fault {
                kind: fault_kind(kind),
                pc: terminator_pc(data),
                lane: None,
                addr: None,
            }),
        }
    }
}

/// The fault a `Trap` terminator raises.
pub fn fault_kind(t: &TrapKind) -> FaultKind {
    match t {
        TrapKind::BadJump => FaultKind::BadJump,
        TrapKind::StackOverflow => FaultKind::StackOverflow,
        TrapKind::StackUnderflow => FaultKind::StackUnderflow,
        TrapKind::Explicit(s) => FaultKind::Trap(s.clone()),
    }
}

/// The guest pc a terminator's fault reports.
pub fn terminator_pc(data: &BlockData) -> u32 {
    data.term_pc
}

fn trap(pc: u32, what: String) -> Fault {
    Fault {
        kind: FaultKind::Trap(format!("malformed IR: {what}")),
        pc,
        lane: None,
        addr: None,
    }
}
