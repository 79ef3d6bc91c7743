//! Lifting TeraScale machine code to wavejit IR: [`lift`] turns a decoded [`Program`] into one
//! [`Function`].
//!
//! - [`alu_ops`]: the value semantics of every ALU instruction, one slot (or one reduction
//!   group) at a time, with the output modifiers as separate helpers.
//! - `cf`: the CF program, the active-mask stack, loops and calls.
//! - `alu`: ALU clauses: instruction groups, operands, predication, exec-mask updates.
//! - `fetch`: vertex-fetch clauses (buffer loads), with `vtx_format` mapping their
//!   DATA_FORMAT/NUM_FORMAT fields to IR element formats.
//! - [`tex`]: TEX instructions (texture sampling, LD, GET_TEXTURE_RESINFO) and the launch
//!   convention for texture resources and samplers.
//! - `mem`: CF_ALLOC_EXPORT memory instructions (RAT stores and atomics).
//! - `scratch`: MEM_WR_SCRATCH and MEM_RD_SCRATCH on the lane's private memory.
//! - `mode`: SET_MODE (the float modes of an ALU clause).
//! - `lds`: LDS in ALU clauses (LDS_IDX_OP, the output queue, direct reads).
//! - `flags`: the float exception flags, STORE_FLAGS and LOAD_STORE_FLAGS.
//! - [`state`]: the guest state layout ([`TsLayout`]) and the launch contract.
//!
//! # Design
//! - **Blocks**: block 0 is a prologue (no guest pc) that initialises the control-flow state
//!   (`cf` cells: valid mask = launch active mask, empty stack, no loop) and jumps to CF
//!   address 0. Every CF instruction gets one IR block with `guest_pc = base + 8 * addr`
//!   (3.7.1, L1236-L1240: ADDR counts 64-bit words); its clause (if any) is lifted into it. A
//!   stack check or a GROUP_BARRIER splits it into further blocks without a guest pc. A CF
//!   target that is not a CF instruction of the program, and falling off the end of the CF
//!   program, go to a block that traps with [`TrapKind::BadJump`].
//! - **Guest pcs**: IR instructions carry the byte offset in the code of their CF
//!   instruction, ALU instruction (`8 * slot address`) or fetch instruction.
//! - **Divergence is mask arithmetic** on the uniform `active` mask; the per-lane states of
//!   3.6.1 (active, inactive-branch, inactive-continue, inactive-break) are `active`, the
//!   innermost loop's `Break` and `Continue` masks, and everything else (see `cf`).
//! - **Float mode**: f32 ops flush denormals in and out, round to nearest even (LLVM's r600
//!   back end assumes flushing: notes/amd_launch_abi.md §2.4); f64 ops keep denormals where
//!   the ALU op does not force its own rule. SET_MODE changes both for the rest of its
//!   clause, its own group included (`mode`).
//! - **Memory**: vertex fetch buffer 1 and RAT 0 address the pool (`pool` base + 32-bit byte
//!   offset), fetch buffer 3 and kcache bank `i` constant buffer `i`; every access is a
//!   global access the runtime checks (an unmapped address is a guest fault). LDS addresses
//!   are byte offsets into the work-group's LDS ([`wavejit_ir::MemSpace::Lds`]; see `lds`).
//!   Scratch is the lane's private memory ([`wavejit_ir::MemSpace::Private`]; see
//!   `scratch`): the launch must give each lane [`scratch_lane_bytes`] bytes.
//!
//! # Unsupported (a [`LiftError::Unsupported`] naming the instruction)
//! TEX instructions other than SAMPLE_LZ, SAMPLE_L, LD and GET_TEXTURE_RESINFO (see `tex`
//! for the resources and fields those support), MEM_RD_SCATTER/GDS fetches, exports, streams,
//! rings, scratch accesses other than four-dword elements (see `scratch`), the RAT
//! instructions `mem` does not list (STORE_TYPED, CMPXCHG_FLT, STORE_RAW_FDENORM,
//! STORE_SHORT/BYTE, NOP_RTN), RAT bursts other than cacheless stores, SET_LDS_SIZE and the
//! LDS_BASE_ADDR/LDS_SIZE
//! selects (217/218), LDS direct reads with THREAD_REL, more than 16 outstanding LDS
//! output-queue entries, MOVA to CF_IDX/CLAUSE_GLOBAL, SET_CF_IDX0/1, INDEX_MODE
//! GLOBAL/GLOBAL_AR_X, kcache bank index modes, JUMPTABLE, GWS, the WQM push/pop
//! variants, REACTIVATE, CALL_FS, interrupts, and the special SRC_SELs other than the
//! masks, aL, the double constants, the LDS queues and the LDS direct reads. MOVA and
//! MOVA_FLOOR have no Evergreen or Cayman encoding (R600/R700 only), so they never occur.
//! HALT lifts to a trap (see `cf`).
use crate::chip::Chip;
use crate::inst::{CfInst, Program};
use crate::launch::wave_size;
use std::collections::HashMap;
use wavejit_ir::{Block, FloatMode, Function, FunctionBuilder, Terminator, TrapKind};

mod alu;
pub mod alu_ops;
mod cf;
mod emit;
mod fetch;
mod flags;
mod lds;
mod mem;
mod mode;
mod scratch;
pub mod state;
pub mod tex;
mod vtx_format;

pub use alu_ops::{
    alu_form, clamp, lift_alu, lift_alu_flagged, omod, AluEnv, AluError, AluForm, AluInput,
    AluValue, Omod, Src, Width,
};
pub use scratch::scratch_lane_bytes;
pub use state::TsLayout;

/// What the lifter needs to know about a kernel besides its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftConfig {
    pub chip: Chip,
    /// Name of the lifted function.
    pub name: String,
    /// Guest address of code byte 0.
    pub base: u64,
}

/// Why a program could not be lifted. `cf` is the CF address (64-bit words) of the CF
/// instruction, `at` the address (64-bit words) of the instruction itself (a clause
/// instruction, or `cf` again).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LiftError {
    #[error("CF @{cf}, @{at}: `{text}`: unsupported: {why}")]
    Unsupported {
        cf: u32,
        at: u32,
        text: String,
        why: String,
    },
    #[error("CF @{cf}, @{at}: `{text}`: invalid: {why}")]
    Invalid {
        cf: u32,
        at: u32,
        text: String,
        why: String,
    },
    #[error("the program is for {program:?} but the chip {chip:?} is {class:?}")]
    WrongClass {
        program: crate::ChipClass,
        chip: Chip,
        class: crate::ChipClass,
    },
}

/// The float mode of single-precision ALU ops (see the module doc).
pub const F32_MODE: FloatMode = FloatMode::FLUSH;
/// The float mode of double-precision ALU ops.
pub const F64_MODE: FloatMode = FloatMode::IEEE;

/// Lifts `program` to one IR function (see the module doc).
pub fn lift(program: &Program, cfg: &LiftConfig) -> Result<Function, LiftError> {
    let class = cfg.chip.class();
    if program.class != class {
        return Err(LiftError::WrongClass {
            program: program.class,
            chip: cfg.chip,
            class,
        });
    }
    let l = TsLayout::new(wave_size(cfg.chip));
    let mut b = FunctionBuilder::new(&cfg.name, l.layout.clone());
    let prologue = b.create_block();
    let mut blocks = HashMap::new();
    for e in &program.cf {
        let blk = b.create_block();
        b.set_guest_pc(blk, cfg.base + 8 * u64::from(e.addr));
        blocks.insert(e.addr, blk);
    }
    let mut cx = Lifter {
        b,
        l,
        p: program,
        cfg,
        blocks,
        env: AluEnv {
            class,
            f32_mode: F32_MODE,
            f64_mode: F64_MODE,
        },
        oq: lds::OutputQueue::default(),
        clause: alu::ClauseValues::default(),
        flags: flags::FlagState::default(),
    };
    cx.b.switch_to(prologue);
    cx.prologue();
    let first = cx.target(0);
    cx.b.terminate(Terminator::Jump(first));
    for (i, e) in program.cf.iter().enumerate() {
        let blk = cx.blocks[&e.addr];
        cx.b.switch_to(blk);
        cx.b.begin_guest_inst(8 * e.addr);
        let next = program
            .cf
            .get(i + 1)
            .map(|n| n.addr)
            .unwrap_or(e.addr + e.inst.slots());
        cx.lift_cf(e.addr, &e.inst, next)?;
    }
    Ok(cx.b.finish())
}

/// The lifting context.
pub(crate) struct Lifter<'a> {
    pub b: FunctionBuilder,
    pub l: TsLayout,
    pub p: &'a Program,
    pub cfg: &'a LiftConfig,
    /// The block of every CF instruction, by CF address.
    pub blocks: HashMap<u32, Block>,
    pub env: AluEnv,
    /// The LDS output queue of the ALU clause being lifted.
    pub oq: lds::OutputQueue,
    /// Values the ALU clause being lifted keeps in SSA.
    pub clause: alu::ClauseValues,
    /// The exception-flag tracking of the ALU clause being lifted.
    pub flags: flags::FlagState,
}

impl Lifter<'_> {
    /// The block of CF address `addr`, or a new block trapping with BadJump.
    pub fn target(&mut self, addr: u32) -> Block {
        if let Some(&blk) = self.blocks.get(&addr) {
            return blk;
        }
        let cur = self.b.current_block();
        let trap = self.b.create_block();
        self.b.switch_to(trap);
        self.b.terminate(Terminator::Trap(TrapKind::BadJump));
        if let Some(c) = cur {
            self.b.switch_to(c);
        }
        trap
    }

    /// Continues in a new block if `fail` (uniform `i1`) is false, else traps with `kind`.
    /// Values of the current block are dead afterwards.
    pub fn check(&mut self, fail: wavejit_ir::Value, kind: TrapKind) {
        let trap = self.b.create_block();
        let cont = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond: fail,
            then_to: trap,
            else_to: cont,
        });
        self.b.switch_to(trap);
        self.b.terminate(Terminator::Trap(kind));
        self.b.switch_to(cont);
    }

    pub fn unsupported(&self, cf: u32, at: u32, text: String, why: &str) -> LiftError {
        LiftError::Unsupported {
            cf,
            at,
            text,
            why: why.to_string(),
        }
    }

    pub fn invalid(&self, cf: u32, at: u32, text: String, why: &str) -> LiftError {
        LiftError::Invalid {
            cf,
            at,
            text,
            why: why.to_string(),
        }
    }
}

/// A short text of a CF instruction for error messages.
pub(crate) fn cf_text(inst: &CfInst) -> String {
    match inst {
        CfInst::Word(w) => format!("{} @{}", w.op.name(), w.addr),
        CfInst::Alu(a) => format!("{} {}, @{}", a.op.name(), a.count, a.addr),
        CfInst::Mem(m) => match &m.rat {
            Some(r) => format!("{} {}", m.op.name(), r.inst.name()),
            None => m.op.name().to_string(),
        },
    }
}
