//! Seeded random TeraScale programs and wave states for differential testing.
//!
//! A program is generated as a tree of CF [`Node`]s (ALU clauses, if/else, loops with break
//! and continue, calls, fetch clauses, RAT instructions) whose ALU clauses hold instruction
//! groups picked from the tables, then
//! lowered to a [`Program`] in the shapes LLVM's R600 control-flow finalizer emits
//! (R600ControlFlowFinalizer.cpp; the cf_* vectors):
//! - if: `ALU_PUSH_BEFORE` (or `PUSH @after POP:0` + `ALU`: LLVM's work-around form is
//!   `PUSH @next POP:1`, which is balanced only when some lane is active, and ALU_ELSE_AFTER
//!   and ALU_BREAK reach code with none, so this PUSH skips the whole if) ending in a
//!   `PRED_SET* ... UPDATE_EXEC_MASK UPDATE_PRED` group, `JUMP @else POP:0`, then-body,
//!   `ELSE @after-pop POP:1` (LLVM's and Mesa's form; see `Lowering::if_node`), else-body,
//!   `POP @next POP:1`. Without else the JUMP is
//!   `JUMP @after-pop POP:1`; when the then-body ends in an ALU clause it may become
//!   `ALU_POP_AFTER` instead of the POP.
//! - loop: a counter clause, `LOOP_START_DX10 @after-end`, a break check (the same if shape
//!   around `LOOP_BREAK @end`), the body, `END_LOOP @first-body`. Break and continue nodes use
//!   the if shape around `LOOP_BREAK`/`LOOP_CONTINUE @end`.
//! - the program ends with `CF_END` (Cayman `END`; Evergreen `NOP` with END_OF_PROGRAM).
//!
//! Invariants (checked by [`check`], which the minimiser and the tests use):
//! - every program is valid for the decoder: `decode_program(encode_program(p)) == p`;
//! - it terminates: loop `d` keeps its trip counter in `R[COUNTER_GPR + d].x`, set to 1-4
//!   per lane before the loop and decremented at the top of every trip before anything can
//!   `continue`; lanes whose counter reaches 0 break. No random instruction writes a counter
//!   (destinations stay below [`GPR_POOL`], relative ones below it for every AR value);
//! - its values are defined: PV/PS are read only after a group whose slot produced a value
//!   unpredicated, kcache reads stay inside the clause's locked lines, AR is set by MOVA_INT
//!   (from a value masked to 0-7) at least two groups before a relative access in the same
//!   clause, PRED_SEL is used only after a PRED_SET with UPDATE_PRED earlier in the clause,
//!   neg/abs/OMOD/CLAMP only on float operands and results.
//!
//!
//! Further shapes (each behind a [`GenOptions`] switch):
//! - DX9 loops: `LOOP_START` (the compute loop constant: 4095 trips, so only the counter
//!   ends them) in place of `LOOP_START_DX10`;
//! - Evergreen `ALU_BREAK`/`ALU_CONTINUE`: one condition clause whose exec-mask update sends
//!   the lanes it deactivates to inactive-break/-continue;
//! - `ALU_POP2_AFTER`: an if without else whose then-body ends in an if without else ending
//!   in an ALU clause (the inner JUMP pops 2); `ALU_ELSE_AFTER`: an if/else whose then-body
//!   ends in an ALU clause replaces the ELSE (the JUMP targets that clause with POP:0);
//! - subroutines: `CALL @sub` (CALL_COUNT 0-2); the bodies follow the main program behind an
//!   always-taken `JUMP @end COND:FALSE`, each ending in `RETURN`; calls sit outside loops
//!   (a subroutine's own loops use the counters from depth 0), so a subroutine holds no
//!   break or continue of a caller's loop;
//! - fetch clauses (`VC` on Evergreen or `TC`) of LLVM's VTX_READ_8..128 templates, varied in
//!   SRC_SEL_X, DST_SEL and FORMAT_COMP_ALL, reading buffer 1 (the pool) or 3 (constant
//!   buffer 0) at `R[FETCH_GPR].c + OFFSET`, after a setup clause that masks the address
//!   channels to [`FETCH_MASK`] (aligned to the element's component size);
//! - RAT: `MEM_RAT_CACHELESS STORE_DWORD`/`STORE_RAW` with a random COMP_MASK, and the
//!   integer atomics of `MEM_RAT` (with and without return) on RAT 0, indexed by
//!   `R[RAT_GPR].x` (a setup clause masks it to [`STORE_INDEX_MASK`] dwords /
//!   [`ATOMIC_ADDR_MASK`] bytes);
//! - LDS in ALU clauses: an address group (`AND_INT R[LDS_ADDR_GPR].xy, src, mask`, at most
//!   [`LDS_ADDR_MASK`]), the LDS_IDX_OP group right after it (addresses from that GPR; the
//!   WRITE2/XCHG2 offset at most 7, so every access stays below [`LDS_BYTES`]), and for the
//!   returning ops a group popping the output queue (`MOV Rn, OQAP_POP`, and OQBP for the
//!   two-value ops), sometimes after a group that peeks; the queue is empty at clause end;
//! - GROUP_BARRIER and KILL* in random groups (never writing a GPR);
//! - STORE_FLAGS and LOAD_STORE_FLAGS in slot w of random groups (the float exception
//!   flags; LOAD_STORE_FLAGS loads a random source);
//! - inside a loop's body (not in a subroutine): aL (SRC_SEL 238) as a source, and
//!   instructions with INDEX_MODE 4 whose relative operands add aL (at most 3: a loop runs at
//!   most 4 trips, the loop constant's init is 0 and step 1) instead of AR.x.
//!
//! - CF_IDX0/1 (Cayman `MOVA_INT` with MOVA_DST 2/3; Evergreen `MOVA_INT` to AR then
//!   `SET_CF_IDX0/1`) from a value masked with [`CF_IDX_MASK`] in the group before, so every
//!   index is 0 or 2 whatever runs first; their uses: KCACHE_BANK_INDEX_MODE on bank-0 locks
//!   of ALU_EXTENDED clauses and VTX BUFFER_INDEX_MODE on buffer 1 (both name bound buffers
//!   for either value); Cayman CLAUSE_GLOBAL: MOVA_DST 4-7 from any value, read as SRC_SEL
//!   225;
//! - Cayman CF: `JUMP_ANY` over a region (POP_COUNT 0), ifs of PUSH_WQM/ELSE_WQM/POP_WQM
//!   (outside loops: whole-quad widening there would wake lanes whose counters were never
//!   set), REACTIVATE/REACTIVATE_WQM/ALU_REACTIVATE_BEFORE outside loops (lift/cf.rs: "do
//!   not do this inside a loop"), SET_PRIORITY and LDS_DEALLOC;
//! - further RAT forms (STORE_TYPED, NOP_RTN, MSKOR, Evergreen STORE_RAW_FDENORM and float
//!   compare-exchanges, Cayman STORE_SHORT/STORE_BYTE, stores through MEM_RAT) and bursts of
//!   up to [`MAX_RAT_BURST`] more steps;
//! - MEM_RD_SCATTER in fetch clauses (their setup masks `R[FETCH_GPR].x` to
//!   [`SCATTER_MASK`]); MEM_WR_SCRATCH and MEM_RD_SCRATCH, all of one ELEM_SIZE (0 or 1) per
//!   program, indexed by any GPR (the lifter clamps scratch indices into the array);
//! - Cayman GDS clauses of MEM_GDS ops at `R[GDS_GPR].x` (masked to [`GDS_ADDR_MASK`]);
//! - TEX instructions (LD, GET_TEXTURE_RESINFO, SAMPLE, SAMPLE_L/LB/LZ, GATHER4) in TC
//!   clauses on resources 0-1 ([`TEXTURES`]) and samplers 0-2 ([`SAMPLERS`]), from random
//!   GPRs: the wrap modes keep sampled texels inside the texture and LD reads 0 outside it.
//!
//! Memory stays inside what the fuzz harness provides: the pool of [`POOL_BYTES`], constant
//! buffer 0 of [`CB_DWORDS`] dwords and an LDS of [`LDS_BYTES`]. The address GPRs
//! (`LDS_ADDR_GPR`, `FETCH_GPR`, `RAT_GPR`) lie between the random pool and the counters and
//! are written only by their address groups.
//!
//! Not modelled: read-port and bank-swizzle limits (4.7.3-4.7.8: constraints of the hardware's
//! scheduling, no semantic effect; BANK_SWIZZLE is always 0), SET_MODE, LDS direct reads,
//! LOCK_LOOP_INDEX kcache locks.
mod check;
mod group;
mod mem;
mod shrink;
mod state;

pub use check::check;
pub use group::{value_ops, EXEC_PRED_SETS};
pub use mem::{memory_instructions, TEX_OPS};
pub use shrink::{minimise, reductions};
pub use state::{
    edge_value, InitialState, Texture, CB_DWORDS, GPR_ROWS, LANE_TOPS, SAMPLERS, TEXTURES,
};

use crate::chip::ChipClass;
use crate::decode::{decode_program, DecodeError};
use crate::encode::{encode_program, EncodeError};
use crate::inst::*;
use crate::tables::{CfAluOp, CfOp};
use group::Picker;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random operands and destinations use `R0..GPR_POOL`.
pub const GPR_POOL: u8 = 24;
/// AR values a MOVA_INT sets are 0..REL_SPAN, so a relative base is at most
/// `GPR_POOL - REL_SPAN`.
pub const REL_SPAN: u8 = 8;
/// Loop `d` counts its trips in `R[COUNTER_GPR + d].x`.
pub const COUNTER_GPR: u8 = 32;
/// Constant buffers the kcache locks name (banks `0..CONST_BUFFERS`).
pub const CONST_BUFFERS: u8 = 3;
/// Kcache lines a lock may start at (`0..KCACHE_LINES`; LOCK_2 also reads the next line).
pub const KCACHE_LINES: u8 = 4;
/// Largest ALU clause (64-bit slots, literals included; COUNT is 7 bits).
pub const MAX_CLAUSE_SLOTS: u32 = 128;
/// LDS addresses: `R[LDS_ADDR_GPR].x` (and `.y`, the second address of READ2/READWRITE).
pub const LDS_ADDR_GPR: u8 = 24;
/// Fetch addresses: `R[FETCH_GPR].x..w`.
pub const FETCH_GPR: u8 = 25;
/// RAT indices: `R[RAT_GPR].x`.
pub const RAT_GPR: u8 = 26;
/// Bytes of the pool buffer (fetch buffer 1, RAT 0) the harness provides.
pub const POOL_BYTES: u32 = 2048;
/// Bytes of LDS the harness provides.
pub const LDS_BYTES: u32 = 4096;
/// Largest LDS address an address group sets.
pub const LDS_ADDR_MASK: u32 = 0x7ff;
/// Largest fetch address a setup clause sets; with [`MAX_FETCH_OFFSET`] and a 16-byte element
/// it stays inside constant buffer 0 (`4 * CB_DWORDS` bytes) and the pool.
pub const FETCH_MASK: u32 = 0x3ff;
/// Largest VTX OFFSET.
pub const MAX_FETCH_OFFSET: u32 = 240;
/// Largest RAT store index (dwords; four channels follow it).
pub const STORE_INDEX_MASK: u32 = 0xff;
/// Largest RAT atomic address (bytes, dword aligned).
pub const ATOMIC_ADDR_MASK: u32 = 0x3fc;
/// Every CF_IDX0/1 write takes a value masked with this (0 or 2): bank 0 + CF_IDX is a bound
/// constant buffer (0 or 2) and VTX buffer 1 + CF_IDX a bound fetch buffer (the pool or
/// constant buffer 0, [`crate::launch::fetch_buffer`]).
pub const CF_IDX_MASK: u32 = 2;
/// Largest RAT burst count (steps after the first).
pub const MAX_RAT_BURST: u8 = 3;
/// Largest MEM_RD_SCATTER index: a clause with scatter reads masks `R[FETCH_GPR].x` to it
/// (dwords; with [`MAX_SCATTER_BASE`], a burst and a 4-dword element it stays in the pool).
pub const SCATTER_MASK: u32 = 0xfc;
/// Largest MEM_RD_SCATTER ARRAY_BASE (dwords).
pub const MAX_SCATTER_BASE: u32 = 64;
/// GDS addresses and data: `R[GDS_GPR].x` (address) and `.y`/`.z` (data).
pub const GDS_GPR: u8 = 27;
/// Largest GDS address a setup clause sets (bytes).
pub const GDS_ADDR_MASK: u32 = 0x3ff;
/// Bytes of GDS the harness initialises and compares (every generated access lies below).
pub const GDS_WINDOW: u32 = 2048;
/// Memory profile: the lane patterns (see the module doc) are the channels of `R[LANE_GPR]`.
pub const LANE_GPR: u8 = 28;
/// Memory profile: no lane pattern value exceeds this.
pub const LANE_SPAN: u32 = 255;

/// What a generated program may contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// CF nodes at the top level (control nodes add their bodies).
    pub nodes: usize,
    /// Random instruction groups per ALU clause (at most).
    pub max_groups: usize,
    /// If/else, DX10 loops, break and continue.
    pub control: bool,
    /// Nesting depth of ifs and loops (loops at most 2 deep).
    pub max_depth: usize,
    /// Kcache locks and constant reads.
    pub kcache: bool,
    /// ALU_EXTENDED clauses (kcache sets 2 and 3).
    pub alu_extended: bool,
    /// Literal operands.
    pub literals: bool,
    /// neg/abs input modifiers, OMOD and CLAMP on float ops.
    pub modifiers: bool,
    /// PRED_SEL after a PRED_SET with UPDATE_PRED.
    pub predication: bool,
    /// MOVA_INT and AR-relative GPR reads and writes.
    pub relative: bool,
    /// The 64-bit (double) ops, in slot pairs.
    pub double_ops: bool,
    /// The double inline constants (SRC_SEL 244-247: 1.0 and 0.5 as dword halves).
    pub double_constants: bool,
    /// Vertex-fetch clauses from the pool and constant buffer 0.
    pub fetch: bool,
    /// RAT stores and integer atomics on the pool.
    pub rat: bool,
    /// LDS ops and the output queue in ALU clauses.
    pub lds: bool,
    /// GROUP_BARRIER in random groups.
    pub barrier: bool,
    /// KILL* in random groups.
    pub kill: bool,
    /// STORE_FLAGS and LOAD_STORE_FLAGS (slot w) in random groups.
    pub flags: bool,
    /// DX9 loops (`LOOP_START` with the loop constant).
    pub dx9_loops: bool,
    /// CALL/RETURN subroutines.
    pub calls: bool,
    /// ALU_POP2_AFTER closing two nested ifs.
    pub pop2_after: bool,
    /// ALU_ELSE_AFTER in place of ELSE.
    pub else_after: bool,
    /// Evergreen ALU_BREAK/ALU_CONTINUE.
    pub alu_break: bool,
    /// Inside loops: aL reads (SRC_SEL 238) and aL-relative GPR operands (INDEX_MODE 4).
    pub loop_index: bool,
    /// Cayman JUMP_ANY regions and ifs of PUSH_WQM/ELSE_WQM/POP_WQM.
    pub wqm_branches: bool,
    /// Cayman REACTIVATE, REACTIVATE_WQM and ALU_REACTIVATE_BEFORE (outside loops).
    pub reactivate: bool,
    /// Cayman SET_PRIORITY and LDS_DEALLOC (no effect).
    pub cf_nops: bool,
    /// CF_IDX0/1 writes (Cayman MOVA_INT MOVA_DST 2/3, Evergreen SET_CF_IDX0/1) and their
    /// uses (indexed kcache banks, VTX BUFFER_INDEX_MODE), Cayman CLAUSE_GLOBAL
    /// (MOVA_DST 4-7, SRC_SEL 225).
    pub cf_index: bool,
    /// The further RAT forms (STORE_TYPED, NOP_RTN, the float and MSKOR atomics,
    /// STORE_RAW_FDENORM, Cayman STORE_SHORT/STORE_BYTE, stores through MEM_RAT) and bursts.
    pub rat_forms: bool,
    /// MEM_RD_SCATTER in fetch clauses.
    pub scatter: bool,
    /// MEM_WR_SCRATCH and MEM_RD_SCRATCH (one ELEM_SIZE, 0 or 1, per program).
    pub scratch: bool,
    /// Cayman GDS clauses of MEM_GDS.
    pub gds: bool,
    /// TEX instructions in TC clauses on the harness's textures and samplers.
    pub tex: bool,
    /// The memory profile (see the module doc): mostly memory nodes, LDS in most clauses,
    /// addresses from the lane patterns with bases at and past the buffers' ends.
    pub memory_focus: bool,
}

impl GenOptions {
    /// The memory profile: every memory shape, with shorter random runs in ALU clauses, less
    /// nesting and no AR-relative operands (the mixed profile's business), so that memory
    /// instructions are the majority.
    pub fn memory_heavy() -> GenOptions {
        GenOptions {
            nodes: 8,
            max_groups: 1,
            max_depth: 2,
            relative: false,
            memory_focus: true,
            ..GenOptions::default()
        }
    }
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            nodes: 6,
            max_groups: 6,
            control: true,
            max_depth: 3,
            kcache: true,
            alu_extended: true,
            literals: true,
            modifiers: true,
            predication: true,
            relative: true,
            double_ops: true,
            double_constants: true,
            fetch: true,
            rat: true,
            lds: true,
            barrier: true,
            kill: true,
            flags: true,
            dx9_loops: true,
            calls: true,
            pop2_after: true,
            else_after: true,
            alu_break: true,
            loop_index: true,
            wqm_branches: true,
            reactivate: true,
            cf_nops: true,
            cf_index: true,
            rat_forms: true,
            scatter: true,
            scratch: true,
            gds: true,
            tex: true,
            memory_focus: false,
        }
    }
}

/// An ALU clause before layout: its kcache locks and its groups (addresses are assigned by
/// [`RandomProgram::lower`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluClause {
    /// Kcache sets 0-3 (2 and 3 only when `ext`).
    pub kcache: [KCache; 4],
    /// Issued as ALU_EXTENDED.
    pub ext: bool,
    /// KCACHE_BANK_INDEX_MODE of sets 0-3 (CF_ALU_WORD0_EXT; only with `ext`): 1/2 add
    /// CF_IDX0/1 to a bank-0 lock.
    pub bank_index: [u8; 4],
    pub groups: Vec<AluGroup>,
}

/// How an if pushes the active mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Push {
    /// `ALU_PUSH_BEFORE` runs the condition clause.
    AluPushBefore,
    /// `PUSH @next POP:1`, then the condition clause as plain `ALU` (LLVM's work-around).
    PushThenAlu,
    /// Cayman: `PUSH_WQM`, then the condition clause as plain `ALU`; the if's ELSE and POP
    /// are ELSE_WQM and POP_WQM.
    PushWqmThenAlu,
}

/// A CF construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Alu(AluClause),
    /// `cond` ends with the exec-mask PRED_SET group.
    If {
        push: Push,
        cond: AluClause,
        then_body: Vec<Node>,
        else_body: Option<Vec<Node>>,
        /// Fold the POP into a final then-body ALU clause (`ALU_POP_AFTER`) when there is no
        /// else and the then-body ends with an ALU clause.
        pop_after: bool,
        /// With `pop_after`: when the then-body ends in an if without else whose then-body
        /// ends in an ALU clause, that clause pops both (`ALU_POP2_AFTER`).
        pop2: bool,
        /// With an else: a final then-body ALU clause becomes `ALU_ELSE_AFTER` (no ELSE).
        else_after: bool,
    },
    /// A bounded DX10 loop at nesting `depth` (its counter is `R[COUNTER_GPR + depth].x`):
    /// `init` sets the counter, `check` decrements it and sets the exec mask to the lanes
    /// that break.
    Loop {
        depth: u8,
        /// `LOOP_START` (DX9, the loop constant's count) rather than `LOOP_START_DX10`.
        dx9: bool,
        init: AluClause,
        check: AluClause,
        body: Vec<Node>,
    },
    /// Lanes passing the condition leave the innermost loop.
    Break(AluClause),
    /// Lanes passing the condition skip to the innermost loop's END_LOOP.
    Continue(AluClause),
    /// Evergreen `ALU_BREAK`: lanes failing the condition leave the innermost loop.
    AluBreak(AluClause),
    /// Evergreen `ALU_CONTINUE`: lanes failing the condition skip to END_LOOP.
    AluContinue(AluClause),
    /// `CALL @sub` with CALL_COUNT `count`; `body` is the subroutine (laid out after the
    /// main program, ending in RETURN).
    Call {
        count: u8,
        body: Vec<Node>,
    },
    /// `setup` masks the address channels of `R[FETCH_GPR]`, then a fetch clause (`vc`:
    /// Evergreen's VC, else TC) runs `insts`.
    Fetch {
        setup: AluClause,
        vc: bool,
        insts: Vec<FetchInst>,
    },
    /// `setup` masks `R[RAT_GPR].x`, then the RAT instruction `mem` runs.
    Rat {
        setup: AluClause,
        mem: CfMem,
    },
    /// Cayman `JUMP_ANY @after-body` with COND `cond` and POP_COUNT 0 (no stack change).
    JumpAny {
        cond: u8,
        body: Vec<Node>,
    },
    /// A bare Cayman CF word: REACTIVATE, REACTIVATE_WQM (outside loops), SET_PRIORITY or
    /// LDS_DEALLOC.
    CfWord(CfOp),
    /// Cayman `ALU_REACTIVATE_BEFORE` (with WHOLE_QUAD_MODE when `wqm`), outside loops.
    AluReactivate {
        clause: AluClause,
        wqm: bool,
    },
    /// MEM_WR_SCRATCH (indexed by a clamped random GPR: no setup needed).
    Scratch(CfMem),
    /// `setup` masks `R[GDS_GPR]`, then a Cayman GDS clause runs the MEM_GDS `insts`.
    Gds {
        setup: AluClause,
        insts: Vec<FetchInst>,
    },
}

/// A generated program: the class and its CF tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomProgram {
    pub class: ChipClass,
    pub nodes: Vec<Node>,
}

/// A generated program that is not valid (a generator or minimiser bug).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("cannot encode: {0}")]
    Encode(#[from] EncodeError),
    #[error("does not decode: {0}")]
    Decode(#[from] DecodeError),
    #[error("decodes to a different program: {0}")]
    RoundTrip(String),
    #[error("ALU clause of {0} slots (at most {MAX_CLAUSE_SLOTS})")]
    ClauseTooLong(u32),
    #[error("invalid program: {0}")]
    Invalid(String),
}

/// Generates the program of `seed` for `class`; it passes [`check`].
pub fn generate(seed: u64, class: ChipClass, opts: &GenOptions) -> Result<RandomProgram, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = Builder {
        p: Picker::new(&mut rng, class, opts),
        opts,
    };
    let nodes = b.body(opts.nodes, 0, None);
    let p = RandomProgram { class, nodes };
    check(&p)?;
    Ok(p)
}

/// The program and the wave state of `seed`: the inputs of one differential test case.
pub fn program_and_state(
    seed: u64,
    class: ChipClass,
    opts: &GenOptions,
) -> Result<(Program, InitialState), GenError> {
    let p = generate(seed, class, opts)?;
    Ok((p.lower()?, InitialState::random(seed, 64)))
}

struct Builder<'a, 'r> {
    p: Picker<'r>,
    opts: &'a GenOptions,
}

impl Builder<'_, '_> {
    /// `n` nodes at `depth` (ifs and loops around them), inside loop `in_loop` if any.
    fn body(&mut self, n: usize, depth: usize, in_loop: Option<u8>) -> Vec<Node> {
        let mut out = Vec::new();
        let o = self.opts;
        let alu_exit = o.alu_break && self.p.class() == ChipClass::Evergreen;
        let cayman = self.p.class() == ChipClass::Cayman;
        for _ in 0..n {
            // Nested bodies (a subroutine's) change it; every node of this body resets it.
            self.p.in_loop = in_loop.is_some();
            if o.memory_focus && (o.fetch || o.rat) && self.p.rng.gen_bool(0.7) {
                let fetch = o.fetch && (!o.rat || self.p.rng.gen_bool(0.6));
                out.push(if fetch {
                    self.p.fetch_node()
                } else {
                    self.p.rat_node()
                });
                continue;
            }
            let roll = self.p.rng.gen_range(0..100);
            let nest = o.control && depth < o.max_depth;
            let loop_depth = in_loop.map_or(0, |d| d + 1);
            let node = match roll {
                0..=17 if nest => self.if_node(depth, in_loop),
                18..=25 if nest && (loop_depth as usize) < 2 => self.loop_node(depth, loop_depth),
                26..=30 if in_loop.is_some() => {
                    let c = self.p.clause(true);
                    if alu_exit && self.p.rng.gen_bool(0.4) {
                        Node::AluBreak(c)
                    } else {
                        Node::Break(c)
                    }
                }
                31..=35 if in_loop.is_some() => {
                    let c = self.p.clause(true);
                    if alu_exit && self.p.rng.gen_bool(0.4) {
                        Node::AluContinue(c)
                    } else {
                        Node::Continue(c)
                    }
                }
                // Outside loops only: a subroutine's loops count in R[COUNTER_GPR + 0..].
                36..=40 if nest && o.calls && in_loop.is_none() => {
                    let count = self.p.rng.gen_range(0..=2);
                    let n = self.p.rng.gen_range(1..=3);
                    let body = self.body(n, depth + 1, None);
                    Node::Call { count, body }
                }
                41..=48 if o.fetch => self.p.fetch_node(),
                49..=55 if o.rat => self.p.rat_node(),
                56..=59 if cayman && o.wqm_branches && nest => {
                    let cond = *[0u8, 0, 1, 2, 3].choose(self.p.rng).unwrap_or(&0);
                    let n = self.p.rng.gen_range(0..=2);
                    let body = self.body(n, depth + 1, in_loop);
                    Node::JumpAny { cond, body }
                }
                60..=62 if cayman && o.reactivate && in_loop.is_none() => {
                    match self.p.rng.gen_range(0..3) {
                        0 => Node::CfWord(CfOp::REACTIVATE),
                        1 => Node::CfWord(CfOp::REACTIVATE_WQM),
                        _ => Node::AluReactivate {
                            clause: self.p.clause(false),
                            wqm: self.p.rng.gen_bool(0.5),
                        },
                    }
                }
                63..=64 if cayman && o.cf_nops => Node::CfWord(
                    *[CfOp::SET_PRIORITY, CfOp::LDS_DEALLOC]
                        .choose(self.p.rng)
                        .unwrap_or(&CfOp::SET_PRIORITY),
                ),
                65..=68 if o.scratch => self.p.scratch_node(),
                69..=72 if cayman && o.gds => self.p.gds_node(),
                _ => Node::Alu(self.p.clause(false)),
            };
            out.push(node);
        }
        out
    }

    /// How an if pushes: mostly ALU_PUSH_BEFORE, else a PUSH (PUSH_WQM on Cayman outside
    /// loops: widening to whole quads there would wake lanes whose counters were never set).
    fn push_kind(&mut self, before: f64, in_loop: Option<u8>) -> Push {
        let wqm =
            self.opts.wqm_branches && self.p.class() == ChipClass::Cayman && in_loop.is_none();
        if self.p.rng.gen_bool(before) {
            Push::AluPushBefore
        } else if wqm && self.p.rng.gen_bool(0.4) {
            Push::PushWqmThenAlu
        } else {
            Push::PushThenAlu
        }
    }

    fn if_node(&mut self, depth: usize, in_loop: Option<u8>) -> Node {
        let push = self.push_kind(0.7, in_loop);
        let cond = self.p.clause(true);
        if self.opts.pop2_after && depth + 1 < self.opts.max_depth && self.p.rng.gen_bool(0.15) {
            return self.pop2_if(push, cond, depth, in_loop);
        }
        let n = self.p.rng.gen_range(0..=3);
        let then_body = self.body(n, depth + 1, in_loop);
        let else_body = if self.p.rng.gen_bool(0.4) {
            let n = self.p.rng.gen_range(0..=2);
            Some(self.body(n, depth + 1, in_loop))
        } else {
            None
        };
        Node::If {
            push,
            cond,
            then_body,
            else_body,
            pop_after: self.p.rng.gen_bool(0.5),
            pop2: self.opts.pop2_after && self.p.rng.gen_bool(0.6),
            else_after: self.opts.else_after && self.p.rng.gen_bool(0.4),
        }
    }

    /// An if whose then-body ends in an if without else ending in an ALU clause, folded into
    /// `ALU_POP2_AFTER`.
    fn pop2_if(&mut self, push: Push, cond: AluClause, depth: usize, in_loop: Option<u8>) -> Node {
        let inner_push = self.push_kind(0.5, in_loop);
        let inner_cond = self.p.clause(true);
        let n = self.p.rng.gen_range(0..=1);
        let mut inner_then = self.body(n, depth + 2, in_loop);
        self.p.in_loop = in_loop.is_some();
        inner_then.push(Node::Alu(self.p.clause(false)));
        let n = self.p.rng.gen_range(0..=1);
        let mut then_body = self.body(n, depth + 1, in_loop);
        then_body.push(Node::If {
            push: inner_push,
            cond: inner_cond,
            then_body: inner_then,
            else_body: None,
            pop_after: true,
            pop2: false,
            else_after: false,
        });
        Node::If {
            push,
            cond,
            then_body,
            else_body: None,
            pop_after: true,
            pop2: true,
            else_after: false,
        }
    }

    fn loop_node(&mut self, depth: usize, loop_depth: u8) -> Node {
        let dx9 = self.opts.dx9_loops && self.p.rng.gen_bool(0.4);
        let init = self.p.counter_init(loop_depth);
        let check = self.p.counter_check(loop_depth);
        let n = self.p.rng.gen_range(1..=3);
        let body = self.body(n, depth + 1, Some(loop_depth));
        Node::Loop {
            depth: loop_depth,
            dx9,
            init,
            check,
            body,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lowering

fn cf_word(op: CfOp, addr: u32, pop_count: u8) -> CfInst {
    CfInst::Word(CfWord {
        op,
        addr,
        jumptable_sel: 0,
        pop_count,
        cf_const: 0,
        cond: 0,
        count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        whole_quad_mode: false,
        barrier: true,
    })
}

/// A clause waiting for its address.
enum Pending {
    Alu(AluClause),
    Fetch(Vec<FetchInst>),
}

/// CF instructions being emitted and the clauses they run (patched once the CF end is known).
struct Lowering {
    cf: Vec<CfEntry>,
    at: u32,
    /// (CF index, clause) for every clause-running CF instruction, in CF order.
    clauses: Vec<(usize, Pending)>,
    /// END_LOOP address placeholders of the loops being emitted: indices of CF instructions
    /// whose address is the innermost loop's END_LOOP.
    loop_exits: Vec<Vec<usize>>,
    /// (CALL index, body) of the subroutines still to lay out.
    subs: std::collections::VecDeque<(usize, Vec<Node>)>,
}

impl Lowering {
    fn push(&mut self, inst: CfInst) -> usize {
        self.cf.push(CfEntry {
            addr: self.at,
            inst,
        });
        self.at += inst.slots();
        self.cf.len() - 1
    }

    fn set_target(&mut self, i: usize, addr: u32, pop: Option<u8>) {
        if let CfInst::Word(w) = &mut self.cf[i].inst {
            w.addr = addr;
            if let Some(p) = pop {
                w.pop_count = p;
            }
        }
    }

    fn alu(&mut self, op: CfAluOp, c: &AluClause) {
        self.alu_wqm(op, c, false);
    }

    fn alu_wqm(&mut self, op: CfAluOp, c: &AluClause, whole_quad_mode: bool) {
        let inst = CfInst::Alu(CfAlu {
            op,
            addr: 0,
            kcache: c.kcache,
            count: 0,
            alt_const: false,
            whole_quad_mode,
            barrier: true,
            ext: c.ext.then_some(AluExt {
                bank_index_mode: c.bank_index,
                barrier: true,
            }),
        });
        let i = self.push(inst);
        self.clauses.push((i, Pending::Alu(c.clone())));
    }

    fn nodes(&mut self, nodes: &[Node]) {
        for n in nodes {
            self.node(n);
        }
    }

    /// `cond` pushed, then `JUMP`; returns the PUSH's index (if any: its target is the end
    /// of the if) and the JUMP's.
    fn pushed_cond(&mut self, push: Push, cond: &AluClause) -> (Option<usize>, usize) {
        let p = match push {
            Push::AluPushBefore => {
                self.alu(CfAluOp::ALU_PUSH_BEFORE, cond);
                None
            }
            Push::PushThenAlu | Push::PushWqmThenAlu => {
                let op = match push {
                    Push::PushWqmThenAlu => CfOp::PUSH_WQM,
                    _ => CfOp::PUSH,
                };
                let p = self.push(cf_word(op, 0, 0));
                self.alu(CfAluOp::ALU, cond);
                Some(p)
            }
        };
        (p, self.push(cf_word(CfOp::JUMP, 0, 1)))
    }

    fn set_push(&mut self, push: Option<usize>, addr: u32, pop: u8) {
        if let Some(p) = push {
            self.set_target(p, addr, Some(pop));
        }
    }

    /// `cond; JUMP; op @END_LOOP; POP` (break and continue).
    fn loop_exit(&mut self, op: CfOp, cond: &AluClause) {
        let (_, jump) = self.pushed_cond(Push::AluPushBefore, cond);
        let i = self.push(cf_word(op, 0, 0));
        if let Some(exits) = self.loop_exits.last_mut() {
            exits.push(i);
        }
        let after = self.at + 1;
        self.push(cf_word(CfOp::POP, after, 1));
        self.set_target(jump, after, Some(1));
    }

    fn if_node(
        &mut self,
        push: Push,
        cond: &AluClause,
        then_body: &[Node],
        else_body: Option<&[Node]>,
        (pop_after, pop2, else_after): (bool, bool, bool),
    ) {
        let (p, jump) = self.pushed_cond(push, cond);
        let (else_op, pop_op) = match push {
            Push::PushWqmThenAlu => (CfOp::ELSE_WQM, CfOp::POP_WQM),
            _ => (CfOp::ELSE, CfOp::POP),
        };
        match (else_body, then_body.split_last()) {
            (
                None,
                Some((
                    Node::If {
                        push: ipush,
                        cond: icond,
                        then_body: ithen,
                        else_body: None,
                        ..
                    },
                    rest,
                )),
            ) if pop_after && pop2 && matches!(ithen.last(), Some(Node::Alu(_))) => {
                self.nodes(rest);
                let (ip, inner) = self.pushed_cond(*ipush, icond);
                if let Some((Node::Alu(last), irest)) = ithen.split_last() {
                    self.nodes(irest);
                    self.alu(CfAluOp::ALU_POP2_AFTER, last);
                }
                let after = self.at;
                self.set_target(inner, after, Some(2));
                self.set_push(ip, after, 1);
                self.set_target(jump, after, Some(1));
                self.set_push(p, after, 0);
            }
            (None, Some((Node::Alu(last), rest))) if pop_after => {
                self.nodes(rest);
                self.alu(CfAluOp::ALU_POP_AFTER, last);
                let after = self.at;
                self.set_target(jump, after, Some(1));
                self.set_push(p, after, 0);
            }
            (None, _) => {
                self.nodes(then_body);
                let after = self.at + 1;
                self.push(cf_word(pop_op, after, 1));
                self.set_target(jump, after, Some(1));
                self.set_push(p, after, 0);
            }
            (Some(else_body), Some((Node::Alu(last), rest))) if else_after => {
                self.nodes(rest);
                let else_at = self.at;
                self.alu(CfAluOp::ALU_ELSE_AFTER, last);
                self.set_target(jump, else_at, Some(0));
                self.nodes(else_body);
                let after = self.at + 1;
                self.push(cf_word(pop_op, after, 1));
                self.set_push(p, after, 0);
            }
            (Some(else_body), _) => {
                self.nodes(then_body);
                let else_at = self.at;
                self.set_target(jump, else_at, Some(0));
                // LLVM's and Mesa's form: `ELSE @after-pop POP:1` pops only when it jumps
                // past the POP (see lift/cf.rs).
                let e = self.push(cf_word(else_op, 0, 1));
                self.nodes(else_body);
                let pop_at = self.at;
                self.push(cf_word(pop_op, pop_at + 1, 1));
                self.set_target(e, pop_at + 1, None);
                self.set_push(p, pop_at + 1, 0);
            }
        }
    }

    fn node(&mut self, n: &Node) {
        match n {
            Node::Alu(c) => self.alu(CfAluOp::ALU, c),
            Node::If {
                push,
                cond,
                then_body,
                else_body,
                pop_after,
                pop2,
                else_after,
            } => self.if_node(
                *push,
                cond,
                then_body,
                else_body.as_deref(),
                (*pop_after, *pop2, *else_after),
            ),
            Node::Loop {
                dx9,
                init,
                check,
                body,
                ..
            } => {
                self.alu(CfAluOp::ALU, init);
                let op = if *dx9 {
                    CfOp::LOOP_START
                } else {
                    CfOp::LOOP_START_DX10
                };
                let start = self.push(cf_word(op, 0, 0));
                let first = self.at;
                self.loop_exits.push(Vec::new());
                self.loop_exit(CfOp::LOOP_BREAK, check);
                self.nodes(body);
                let end = self.push(cf_word(CfOp::LOOP_END, first, 0));
                let end_at = self.cf[end].addr;
                for i in self.loop_exits.pop().unwrap_or_default() {
                    self.set_target(i, end_at, None);
                }
                self.set_target(start, end_at + 1, None);
            }
            Node::Break(c) => self.loop_exit(CfOp::LOOP_BREAK, c),
            Node::Continue(c) => self.loop_exit(CfOp::LOOP_CONTINUE, c),
            Node::AluBreak(c) => self.alu(CfAluOp::ALU_BREAK, c),
            Node::AluContinue(c) => self.alu(CfAluOp::ALU_CONTINUE, c),
            Node::Call { count, body } => {
                let mut w = cf_word(CfOp::CALL, 0, 0);
                if let CfInst::Word(x) = &mut w {
                    x.count = *count;
                }
                let i = self.push(w);
                self.subs.push_back((i, body.clone()));
            }
            Node::Fetch { setup, vc, insts } => {
                self.alu(CfAluOp::ALU, setup);
                let op = if *vc { CfOp::VC } else { CfOp::TC };
                let mut w = cf_word(op, 0, 0);
                if let CfInst::Word(x) = &mut w {
                    x.count = insts.len().saturating_sub(1) as u8;
                }
                let i = self.push(w);
                self.clauses.push((i, Pending::Fetch(insts.clone())));
            }
            Node::Rat { setup, mem } => {
                self.alu(CfAluOp::ALU, setup);
                self.push(CfInst::Mem(*mem));
            }
            Node::JumpAny { cond, body } => {
                let mut w = cf_word(CfOp::JUMP_ANY, 0, 0);
                if let CfInst::Word(x) = &mut w {
                    x.cond = *cond;
                }
                let j = self.push(w);
                self.nodes(body);
                let after = self.at;
                self.set_target(j, after, None);
            }
            Node::CfWord(op) => {
                self.push(cf_word(*op, 0, 0));
            }
            Node::AluReactivate { clause, wqm } => {
                self.alu_wqm(CfAluOp::ALU_REACTIVATE_BEFORE, clause, *wqm)
            }
            Node::Scratch(m) => {
                self.push(CfInst::Mem(*m));
            }
            Node::Gds { setup, insts } => {
                self.alu(CfAluOp::ALU, setup);
                let mut w = cf_word(CfOp::GDS, 0, 0);
                if let CfInst::Word(x) = &mut w {
                    x.count = insts.len().saturating_sub(1) as u8;
                }
                let i = self.push(w);
                self.clauses.push((i, Pending::Fetch(insts.clone())));
            }
        }
    }

    /// Every subroutine after the main program, behind an always-taken jump to the end
    /// (JUMP with COND FALSE: no lane passes, so it jumps); returns that jump's index.
    fn subroutines(&mut self) -> Option<usize> {
        if self.subs.is_empty() {
            return None;
        }
        let mut skip = cf_word(CfOp::JUMP, 0, 0);
        if let CfInst::Word(w) = &mut skip {
            w.cond = 1;
        }
        let skip = self.push(skip);
        while let Some((call, body)) = self.subs.pop_front() {
            let at = self.at;
            self.set_target(call, at, None);
            self.nodes(&body);
            self.push(cf_word(CfOp::RETURN, 0, 0));
        }
        Some(skip)
    }
}

impl RandomProgram {
    /// The program laid out: the CF program from address 0, then every clause in CF order
    /// (fetch clauses at even addresses, zero padding before them), checked to decode back
    /// to itself.
    pub fn lower(&self) -> Result<Program, GenError> {
        let mut l = Lowering {
            cf: Vec::new(),
            at: 0,
            clauses: Vec::new(),
            loop_exits: Vec::new(),
            subs: Default::default(),
        };
        l.nodes(&self.nodes);
        if let Some(skip) = l.subroutines() {
            let end = l.at;
            l.set_target(skip, end, None);
        }
        match self.class {
            ChipClass::Cayman => {
                l.push(cf_word(CfOp::END, 0, 0));
            }
            ChipClass::Evergreen => {
                let mut end = cf_word(CfOp::NOP, 0, 0);
                if let CfInst::Word(w) = &mut end {
                    w.end_of_program = true;
                }
                l.push(end);
            }
        }
        // LLVM pads the CF program to an even length with a zero word. On Evergreen a first
        // clause word that reads as NOP + END_OF_PROGRAM would be taken for a trailing end
        // (see `decode`), so a zero pair keeps it out of the CF program.
        let mut pads: Vec<u32> = Vec::new();
        if l.at % 2 == 1 {
            pads.push(l.at);
        } else if self.class == ChipClass::Evergreen && first_word_reads_as_end(&l.clauses) {
            pads.extend([l.at, l.at + 1]);
        }
        let mut at = l.at + pads.len() as u32;
        let mut clauses = Vec::new();
        for (i, c) in &l.clauses {
            let (body, len) = match c {
                Pending::Alu(c) => {
                    let mut groups = c.groups.clone();
                    let mut q = at;
                    for g in groups.iter_mut() {
                        g.addr = q;
                        q += g.slots();
                    }
                    let len = q - at;
                    if len == 0 || len > MAX_CLAUSE_SLOTS {
                        return Err(GenError::ClauseTooLong(len));
                    }
                    (ClauseBody::Alu(groups), len)
                }
                Pending::Fetch(insts) => {
                    if at % 2 == 1 {
                        pads.push(at);
                        at += 1;
                    }
                    (ClauseBody::Fetch(insts.clone()), 2 * insts.len() as u32)
                }
            };
            match &mut l.cf[*i].inst {
                CfInst::Alu(a) => {
                    a.addr = at;
                    a.count = (len - 1) as u8;
                }
                CfInst::Word(w) => w.addr = at,
                CfInst::Mem(_) => {}
            }
            clauses.push(Clause {
                addr: at,
                len,
                body,
            });
            at += len;
        }
        let p = Program {
            class: self.class,
            cf: l.cf,
            clauses,
            pads,
            len: at,
        };
        let bytes = encode_program(&p)?;
        let back = decode_program(self.class, &bytes)?;
        if back != p {
            return Err(GenError::RoundTrip(first_difference(&p, &back)));
        }
        Ok(p)
    }

    /// ALU instructions of the program (every clause, fixed loop clauses included).
    pub fn instructions(&self) -> usize {
        let mut n = 0;
        walk_clauses(&self.nodes, &mut |c, _| {
            n += c.groups.iter().map(|g| g.insts.len()).sum::<usize>()
        });
        n
    }
}

/// Which part of the CF tree a clause plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseRole {
    /// A plain ALU clause.
    Plain,
    /// Ends with the exec-mask PRED_SET group (if, break, continue, loop check).
    Condition,
    /// A loop counter's initialisation.
    CounterInit,
    /// The address group before a fetch clause or a RAT instruction.
    Setup,
}

/// Calls `f` on every clause of `nodes` in CF order.
pub fn walk_clauses(nodes: &[Node], f: &mut impl FnMut(&AluClause, ClauseRole)) {
    for n in nodes {
        match n {
            Node::Alu(c) => f(c, ClauseRole::Plain),
            Node::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                f(cond, ClauseRole::Condition);
                walk_clauses(then_body, f);
                if let Some(e) = else_body {
                    walk_clauses(e, f);
                }
            }
            Node::Loop {
                init, check, body, ..
            } => {
                f(init, ClauseRole::CounterInit);
                f(check, ClauseRole::Condition);
                walk_clauses(body, f);
            }
            Node::Break(c) | Node::Continue(c) | Node::AluBreak(c) | Node::AluContinue(c) => {
                f(c, ClauseRole::Condition)
            }
            Node::Call { body, .. } | Node::JumpAny { body, .. } => walk_clauses(body, f),
            Node::Fetch { setup, .. } | Node::Rat { setup, .. } | Node::Gds { setup, .. } => {
                f(setup, ClauseRole::Setup)
            }
            Node::AluReactivate { clause, .. } => f(clause, ClauseRole::Plain),
            Node::CfWord(_) | Node::Scratch(_) => {}
        }
    }
}

/// Whether the first clause word after the CF program has the shape of a CF NOP with
/// END_OF_PROGRAM (CF_INST `[29:22]` = 0, bit 21 set).
fn first_word_reads_as_end(clauses: &[(usize, Pending)]) -> bool {
    let w1 = match clauses.first().map(|c| &c.1) {
        Some(Pending::Alu(c)) => c
            .groups
            .first()
            .and_then(|g| g.insts.first())
            .map(|i| i.encode()[1]),
        Some(Pending::Fetch(f)) => f.first().map(|i| i.words[1]),
        None => None,
    };
    w1.is_some_and(|w1| (w1 >> 22) & 0xff == 0 && w1 & (1 << 21) != 0)
}

fn first_difference(a: &Program, b: &Program) -> String {
    for (x, y) in a.cf.iter().zip(&b.cf) {
        if x != y {
            return format!("CF {x:?} decodes as {y:?}");
        }
    }
    for (x, y) in a.clauses.iter().zip(&b.clauses) {
        if let (ClauseBody::Alu(gx), ClauseBody::Alu(gy)) = (&x.body, &y.body) {
            for (g, h) in gx.iter().zip(gy) {
                if g != h {
                    return format!("group {g:?} decodes as {h:?}");
                }
            }
        }
    }
    format!(
        "{} CF / {} clauses / {} words decode as {} / {} / {}",
        a.cf.len(),
        a.clauses.len(),
        a.len,
        b.cf.len(),
        b.clauses.len(),
        b.len
    )
}

#[cfg(test)]
mod tests;
