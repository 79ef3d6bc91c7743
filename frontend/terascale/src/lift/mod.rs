//! Lifting TeraScale machine code to wavejit IR: [`lift`] turns a decoded [`Program`] into one
//! [`Function`].
//!
//! - [`alu_ops`]: the value semantics of every ALU instruction, one slot (or one reduction
//!   group) at a time, with the output modifiers as separate helpers.
//! - `cf`: the CF program, the active-mask tests, loops and calls.
//! - `stack`: the CF stack's frames, pushes and pops.
//! - `depth`: the static stack shape that lets `cf` omit the stack checks no path can fail.
//! - `alu`: ALU clauses: instruction groups, predication, exec-mask updates; `alu::src` their
//!   source operands.
//! - `fetch`: vertex-fetch clauses (buffer loads), with `vtx_format` mapping their
//!   DATA_FORMAT/NUM_FORMAT fields to IR element formats.
//! - [`tex`]: TEX instructions (sampling with mip levels, depth compares, gathers,
//!   gradients, LD, GET_TEXTURE_RESINFO) and the launch convention for texture resources and
//!   samplers.
//! - `mem`: CF_ALLOC_EXPORT memory instructions (RAT stores and atomics).
//! - `scratch`: MEM_WR_SCRATCH and MEM_RD_SCRATCH on the lane's private memory.
//! - `mem_rd`: MEM_RD_SCATTER (per-lane dword addresses into the pool).
//! - `gds`: MEM_GDS in GDS clauses (the dispatch's GDS memory, LDS op semantics).
//! - `mode`: SET_MODE (the float modes of an ALU clause).
//! - `index`: the CF index registers CF_IDX0/1 and CLAUSE_GLOBAL, and the index modes that
//!   add CF_IDX to kcache banks and fetch, texture and RAT numbers.
//! - `lds`: LDS in ALU clauses (LDS_IDX_OP, the output queue, direct reads).
//! - `flags`: the float exception flags, STORE_FLAGS and LOAD_STORE_FLAGS.
//! - [`state`]: the guest state layout ([`TsLayout`]) and the launch contract.
//!
//! # Design
//! - **Blocks**: block 0 is a prologue (no guest pc) that initialises the control-flow state
//!   (`cf` cells: valid mask = launch active mask, empty stack, no loop) and jumps to CF
//!   address 0. Every CF instruction gets one IR block with `guest_pc = base + 8 * addr`
//!   (3.7.1, L1236-L1240: ADDR counts 64-bit words); its clause (if any) is lifted into it. A
//!   branch, a stack check the stack shape cannot prove safe (`depth`) or a GROUP_BARRIER
//!   splits it into further blocks without a guest pc. A CF target that is not a CF
//!   instruction of the program, and falling off the end of the CF program, go to a block
//!   that traps with [`TrapKind::BadJump`]. The lifted function then goes through
//!   [`wavejit_ir::merge_blocks`]: straight-line CF instructions join one block (a block
//!   absorbed by its predecessor loses its guest pc, unless the program has an indirect jump,
//!   RETURN or JUMPTABLE, which keeps every CF block), trampolines disappear and small blocks
//!   such as a LOOP_END test are copied into the blocks that jump to them.
//! - **Guest pcs**: IR instructions carry the byte offset in the code of their CF
//!   instruction, ALU instruction (`8 * slot address`) or fetch instruction. A fetch
//!   subroutine ([`LiftConfig::fetch_subroutine`]) is lifted after the kernel into the same
//!   function: its CF blocks have `guest_pc = fs.base + 8 * addr` and its instructions carry
//!   offsets in its own code; the two codes must not overlap.
//! - **Divergence is mask arithmetic** on the uniform `active` mask; the per-lane states of
//!   3.6.1 (active, inactive-branch, inactive-continue, inactive-break) are `active`, the
//!   innermost loop's `Break` and `Continue` masks, and everything else (see `cf`).
//! - **Float mode**: f32 ops flush denormals in and out, round to nearest even (LLVM's r600
//!   back end assumes flushing: notes/amd_launch_abi.md §2.4); f64 ops keep denormals where
//!   the ALU op does not force its own rule. SET_MODE changes both for the rest of its
//!   clause, its own group included (`mode`).
//! - **Memory**: the launch's [`Bindings`] say what each fetch buffer id, RAT id and loop
//!   constant is ([`lift`] takes Mesa's: vertex fetch buffer 1 and RAT 0 address the pool
//!   (`pool` base + 32-bit byte offset), fetch buffer 3 constant buffer 0); kcache bank `i`
//!   is constant buffer `i`; every access is a global access the runtime checks (an unmapped address is a guest fault). LDS addresses
//!   are byte offsets into the work-group's LDS ([`wavejit_ir::MemSpace::Lds`]; see `lds`).
//!   Scratch is the lane's private memory ([`wavejit_ir::MemSpace::Private`]; see
//!   `scratch`): the launch must give each lane [`scratch_lane_bytes`] bytes.
//!   MEM_RD_SCATTER reads the pool at per-lane dword addresses (`mem_rd`); MEM_GDS acts on
//!   the dispatch's GDS memory at the `gds` cells (`gds`).
//!
//! # Unsupported (a [`LiftErrorKind::Unsupported`] [`LiftError`] naming the instruction)
//! Each has a reason: it belongs to another shader stage, its meaning needs host state a
//! compute launch never programs, or the document leaves it undefined. They are
//! the TEX instructions and fields `tex` lists (GET_NUMBER_OF_SAMPLES; see `tex` for the
//! resources the others support), the geometry-shader CF instructions (EMIT_VERTEX,
//! EMIT_CUT_VERTEX, CUT_VERTEX), the pixel-interpolation ALU ops INTERP_* (they read vertex
//! parameters the pixel-shader front end lays out in the LDS; a compute launch has none and
//! the document does not give the layout), GROUP_SEQ_BEGIN/END (named in the index only:
//! no opcode, no description), Evergreen MEM_GDS and the MEM_GDS fields `gds` lists,
//! MEM_TF_WRITE, exports,
//! streams, rings, scratch programs mixing element sizes (see `scratch`), RATs the launch
//! does not bind (see `mem`), SET_LDS_SIZE (L6587: the size's unit, the "global mode" and
//! the lane supplying them are undefined), the LDS_BASE_ADDR/LDS_SIZE selects 217/218 (a physical
//! allocation offset that depends on the scheduler; a size of undocumented unit), LDS direct
//! reads with THREAD_REL (its field description is garbled, notes §7.3), more than 16
//! outstanding LDS output-queue entries, MOVA_INT to CF_PC (see `index`), INDEX_MODE
//! GLOBAL/GLOBAL_AR_X (see `index`), JUMPTABLE on jump-table constants, GWS and
//! GLOBAL_WAVE_SYNC (waves of other work-groups cannot be made to wait without results
//! depending on the thread count, as for GCN's GWS), CALL_FS inside the fetch subroutine,
//! INTERRUPT and INTERRUPT_AND_SLEEP (no host handler exists), and the special SRC_SELs other than the
//! masks, aL, the double constants, CLAUSE_GLOBAL, the LDS queues and the LDS direct
//! reads. MOVA and MOVA_FLOOR have no Evergreen or Cayman encoding (R600/R700 only), so
//! they never occur.
//! HALT lifts to a trap (see `cf`).
use crate::chip::Chip;
use crate::inst::{CfInst, Program};
use crate::launch::{wave_size, Bindings};
use std::collections::HashMap;
use wavejit_ir::{merge_blocks, Block, FloatMode, Function, FunctionBuilder, Terminator, TrapKind};

mod alu;
pub mod alu_ops;
mod cf;
mod depth;
mod emit;
mod fetch;
mod flags;
mod gds;
mod index;
mod lds;
mod mem;
mod mem_rd;
mod mode;
mod scratch;
mod stack;
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
    /// The fetch subroutine CALL_FS calls, if the launch supplies one (see `cf`).
    pub fetch_subroutine: Option<FetchSubroutine>,
}

/// A fetch subroutine: the program hardware finds at the address of the host register
/// SQ_PGM_START_FS, lifted into the kernel's function with its own CF blocks. CALL_FS's
/// ADDR counts from its code byte 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FetchSubroutine {
    pub program: Program,
    /// Guest address of its code byte 0 (SQ_PGM_START_FS).
    pub base: u64,
}

/// Why a program could not be lifted: the one error type of every ISA
/// ([`wavejit_isa::LiftError`]). Its `pc` is the byte offset of the instruction (8 times its
/// 64-bit word address) and its place reads `CF @cf, @at`: the CF address of the CF
/// instruction and the word address of the instruction itself (a clause instruction, or `cf`
/// again); see [`refusal`].
pub use wavejit_isa::{LiftError, LiftErrorKind};

/// A refusal of kind `kind` of the instruction at word `at` of CF instruction `cf`.
pub fn refusal(kind: LiftErrorKind, cf: u32, at: u32, text: String, why: &str) -> LiftError {
    LiftError::new(kind, 8 * u64::from(at), text, why).at(format!("CF @{cf}, @{at}"))
}

/// A program of another chip class than the chip it is lifted for.
fn wrong_class(program: crate::ChipClass, chip: Chip) -> LiftError {
    let why = format!(
        "the program is for {program:?} but the chip {chip:?} is {:?}",
        chip.class()
    );
    LiftError::invalid(0, "", why).at("program")
}

/// The float mode of single-precision ALU ops (see the module doc).
pub const F32_MODE: FloatMode = FloatMode::FLUSH;
/// The float mode of double-precision ALU ops.
pub const F64_MODE: FloatMode = FloatMode::IEEE;

/// Lifts `program` to one IR function (see the module doc) under Mesa's bindings
/// ([`Bindings::mesa`]).
pub fn lift(program: &Program, cfg: &LiftConfig) -> Result<Function, LiftError> {
    lift_bound(program, cfg, &Bindings::mesa())
}

/// Lifts `program` to one IR function for a launch that binds the fetch buffers, RATs and
/// loop constants `bind` names.
pub fn lift_bound(
    program: &Program,
    cfg: &LiftConfig,
    bind: &Bindings,
) -> Result<Function, LiftError> {
    // Lift until the stack shapes each CF instruction was lifted with are those its edges
    // bring (`depth`); structured code needs one lift (a second when a RETURN or a loop's
    // back edge brings a new shape, one more per loop nesting level whose shape changes).
    // Each CF instruction's state only rises (dead, one shape, unknown), so this ends; past
    // `MAX_LIFTS` every state is taken as unknown, which keeps every check.
    const MAX_LIFTS: usize = 8;
    let mut entries = HashMap::new();
    for _ in 0..MAX_LIFTS {
        let (mut func, flow) = lift_once(program, cfg, bind, depth::Flow::next(entries))?;
        let (all, stable) = flow.finish();
        if stable {
            merge_blocks(&mut func);
            return Ok(func);
        }
        entries = all;
    }
    let (mut func, _) = lift_once(program, cfg, bind, depth::Flow::unknown())?;
    merge_blocks(&mut func);
    Ok(func)
}

/// One lift with the stack shapes of `flow.entries` (see [`lift`]).
fn lift_once<'a>(
    program: &'a Program,
    cfg: &'a LiftConfig,
    bind: &'a Bindings,
    flow: depth::Flow,
) -> Result<(Function, depth::Flow), LiftError> {
    let class = cfg.chip.class();
    if program.class != class {
        return Err(wrong_class(program.class, cfg.chip));
    }
    let l = TsLayout::new(wave_size(cfg.chip));
    let mut b = FunctionBuilder::new(&cfg.name, l.layout.clone());
    let prologue = b.create_block();
    let blocks = cf_blocks(&mut b, program, cfg.base);
    let fs = match &cfg.fetch_subroutine {
        Some(fs) => {
            if fs.program.class != class {
                return Err(wrong_class(fs.program.class, cfg.chip));
            }
            let fs_blocks = cf_blocks(&mut b, &fs.program, fs.base);
            let pcs = |p: &Program, base: u64| {
                let first = p.cf.first().map_or(0, |e| e.addr);
                (base + 8 * u64::from(first), base + 8 * u64::from(p.len))
            };
            let (k0, k1) = pcs(program, cfg.base);
            let (f0, f1) = pcs(&fs.program, fs.base);
            if k0 < f1 && f0 < k1 {
                return Err(refusal(
                    LiftErrorKind::Invalid,
                    0,
                    0,
                    "fetch subroutine".into(),
                    "its code overlaps the kernel's",
                ));
            }
            Some(Code {
                p: &fs.program,
                base: fs.base,
                blocks: fs_blocks,
            })
        }
        None => None,
    };
    let mut cf_of = HashMap::new();
    for (&addr, &blk) in &blocks {
        cf_of.insert(blk, depth::Node { in_fs: false, addr });
    }
    if let Some(fs) = &fs {
        for (&addr, &blk) in &fs.blocks {
            cf_of.insert(blk, depth::Node { in_fs: true, addr });
        }
    }
    let mut cx = Lifter {
        b,
        l,
        p: program,
        bind,
        base: cfg.base,
        blocks,
        other: fs,
        in_fs: false,
        env: AluEnv {
            class,
            f32_mode: F32_MODE,
            f64_mode: F64_MODE,
        },
        oq: lds::OutputQueue::default(),
        clause: alu::ClauseValues::default(),
        flags: flags::FlagState::default(),
        shadow: depth::Shadow::start(),
        flow,
        cf_of,
    };
    cx.b.switch_to(prologue);
    cx.prologue();
    let first = cx.target(0);
    cx.goto(first);
    cx.lift_program()?;
    if cx.other.is_some() {
        cx.switch_program();
        cx.lift_program()?;
    }
    Ok((cx.b.finish(), cx.flow))
}

/// One block per CF instruction of `p`, at guest pc `base + 8 * addr`.
fn cf_blocks(b: &mut FunctionBuilder, p: &Program, base: u64) -> HashMap<u32, Block> {
    let mut blocks = HashMap::new();
    for e in &p.cf {
        let blk = b.create_block();
        b.set_guest_pc(blk, base + 8 * u64::from(e.addr));
        blocks.insert(e.addr, blk);
    }
    blocks
}

/// A program's code as the lifter sees it: the kernel or its fetch subroutine.
pub(crate) struct Code<'a> {
    pub p: &'a Program,
    pub base: u64,
    pub blocks: HashMap<u32, Block>,
}

/// The lifting context.
pub(crate) struct Lifter<'a> {
    pub b: FunctionBuilder,
    pub l: TsLayout,
    /// The program being lifted (the kernel, then its fetch subroutine) and its code base.
    pub p: &'a Program,
    /// What the launch binds to the code's fetch buffer ids, RAT ids and loop constants.
    pub bind: &'a Bindings,
    pub base: u64,
    /// The block of every CF instruction of `p`, by CF address.
    pub blocks: HashMap<u32, Block>,
    /// The other program (the fetch subroutine while the kernel is lifted, and back).
    pub other: Option<Code<'a>>,
    /// Whether `p` is the fetch subroutine.
    pub in_fs: bool,
    pub env: AluEnv,
    /// The LDS output queue of the ALU clause being lifted.
    pub oq: lds::OutputQueue,
    /// Values the ALU clause being lifted keeps in SSA.
    pub clause: alu::ClauseValues,
    /// The exception-flag tracking of the ALU clause being lifted.
    pub flags: flags::FlagState,
    /// The stack shape at the point being lifted (see `depth`).
    pub shadow: depth::Shadow,
    /// The stack shapes of this lift's edges and CF instructions.
    pub flow: depth::Flow,
    /// The CF instruction each CF block lifts.
    pub cf_of: HashMap<Block, depth::Node>,
}

impl<'a> Lifter<'a> {
    /// Lifts every CF instruction of `p` into its block.
    fn lift_program(&mut self) -> Result<(), LiftError> {
        let p = self.p;
        for (i, e) in p.cf.iter().enumerate() {
            let blk = self.blocks[&e.addr];
            self.b.switch_to(blk);
            self.shadow = self.flow.enter(depth::Node {
                in_fs: self.in_fs,
                addr: e.addr,
            });
            self.b.begin_guest_inst(8 * e.addr);
            let next =
                p.cf.get(i + 1)
                    .map(|n| n.addr)
                    .unwrap_or(e.addr + e.inst.slots());
            self.lift_cf(e.addr, &e.inst, next)?;
        }
        Ok(())
    }

    /// Swaps the program being lifted with `other`.
    fn switch_program(&mut self) {
        if let Some(o) = self.other.as_mut() {
            std::mem::swap(&mut self.p, &mut o.p);
            std::mem::swap(&mut self.base, &mut o.base);
            std::mem::swap(&mut self.blocks, &mut o.blocks);
            self.in_fs = !self.in_fs;
        }
    }

    /// The block of CF address `addr`, or a new block trapping with BadJump.
    pub fn target(&mut self, addr: u32) -> Block {
        match self.blocks.get(&addr) {
            Some(&blk) => blk,
            None => self.trap_block(TrapKind::BadJump),
        }
    }

    /// Ends the current block with a jump to `to`, an edge of the stack shape (`depth`) when
    /// `to` is a CF block.
    pub fn goto(&mut self, to: Block) {
        self.reach(to);
        self.b.terminate(Terminator::Jump(to));
    }

    /// Records an edge with the current stack shape to `to` if it is a CF block.
    pub fn reach(&mut self, to: Block) {
        if let Some(&n) = self.cf_of.get(&to) {
            self.flow.reach(n, &self.shadow);
        }
    }

    /// The block of the CF instruction `n`, if it exists.
    pub fn node_block(&self, n: depth::Node) -> Option<Block> {
        let blocks = if n.in_fs == self.in_fs {
            Some(&self.blocks)
        } else {
            self.other.as_ref().map(|o| &o.blocks)
        };
        blocks.and_then(|b| b.get(&n.addr).copied())
    }

    /// A new block that traps with `kind` (the current block stays current).
    pub fn trap_block(&mut self, kind: TrapKind) -> Block {
        let cur = self.b.current_block();
        let trap = self.b.create_block();
        self.b.switch_to(trap);
        self.b.terminate(Terminator::Trap(kind));
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
        refusal(LiftErrorKind::Unsupported, cf, at, text, why)
    }

    pub fn invalid(&self, cf: u32, at: u32, text: String, why: &str) -> LiftError {
        refusal(LiftErrorKind::Invalid, cf, at, text, why)
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
