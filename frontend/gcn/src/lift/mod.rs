//! The GCN lifter: decoded gfx6-gfx9 machine code to one [`wavejit_ir::Function`].
//!
//! # Design
//! - **State** ([`state::GcnLayout`]): SGPRs, VGPRs and the special registers are IR register
//!   files; VCCZ/EXECZ/STATUS are derived when read. Launch code fills the cells the ABI
//!   defines (user/system SGPRs, `v0..v2`, EXEC, FLAT_SCRATCH) before the first block runs.
//! - **Control flow**: code is discovered by recursive descent from offset 0 (so padding after
//!   `s_endpgm` is never decoded). Basic-block leaders are the entry, every branch target and
//!   every instruction after a branch, `s_barrier`, `s_swappc`/`s_call`. One IR block per basic
//!   block carries `guest_pc` = base address + offset; block 0 is a prologue (no guest pc)
//!   that stores the initial MODE register and jumps to the code. Targets outside the code and
//!   falling off its end go to a block (one per jump) that traps with [`TrapKind::BadJump`] at
//!   the jump's pc. Then [`wavejit_ir::merge_blocks`] joins straight-line blocks (the
//!   prologue into the first block, small return blocks into their predecessors), except in
//!   programs that read the clock, whose block entries it counts. `s_setpc`/
//!   `s_swappc` lift to `JumpIndirect` (only discovered blocks are valid targets; an address
//!   formed by `s_getpc_b64` and constant adds is discovered, see `targets.rs`), and so do
//!   the trap returns `s_rfe*`, `s_cbranch_g_fork` and `s_cbranch_join` (`control.rs`:
//!   fork/join, VSKIP guards of vector runs, halts). Only programs that read a clock advance
//!   the wave clock at each block entry (`smem.rs`).
//! - **Divergence is mask arithmetic**: every VALU write, vector memory access and LDS access
//!   uses `mask_from_bits(EXEC)` (re-read after each EXEC write through the builder's
//!   forwarding). Per-lane bits written to VCC or an SGPR pair (VOPC, carry-outs, div_scale)
//!   are `ballot(result & exec)`, so inactive lanes' bits are 0 (CLRX GcnInstrsVopc.md: "the
//!   bits of inactive lanes are cleared"; LLVM relies on it for `s_and_b64 vcc, exec, vcc`).
//!   `v_cmpx_*` write the same value to EXEC as well.
//! - **Float mode** is tracked statically: the kernel's FLOAT_MODE, DX10_CLAMP and IEEE_MODE
//!   form the initial MODE bits; `s_setreg(_imm32)_b32` on HW_REG_MODE updates them (and the
//!   `hwreg` cell; `s_setreg_b32` from a register only when the previous instruction set that
//!   register to a constant). Each block starts with the mode of its predecessors; disagreement is a
//!   an invalid-program [`LiftError`]. f32 ops use MODE round bits `[1:0]` and denorm bits `[5:4]`;
//!   f64 and f16 ops bits `[3:2]` and `[7:6]` (denorm field: bit 0 keeps input denormals, bit 1
//!   output denormals). `v_mad_f32`/`v_mac_f32` are unfused ([`wavejit_ir::Op::Fmad`]), `v_fma_*` fused,
//!   `*_legacy_f32` use the DX9 multiply, min/max follow IEEE_MODE, clamp follows DX10_CLAMP,
//!   OMOD scales before clamp and is ignored when the result type keeps output denormals
//!   (notes/gcn_vop3_rules.md §2). Input abs/neg are sign-bit operations.
//! - **Memory**: scalar loads are uniform global loads; MUBUF/MTBUF compute addresses and range
//!   checks from the V# per CLRX doc/GcnMemHandling.md (see `buffer.rs`; formatted accesses in
//!   `buffer_format.rs`); FLAT/GLOBAL/SCRATCH
//!   addresses are global addresses; DS is the LDS space. Widths above 64 bits are split
//!   into dword accesses.
//!
//! - **Launch contract** ([`GcnLayout`]): before block 0 runs, the launcher stores the ABI's
//!   user and system SGPRs in `s` ([`GcnLayout::sgpr`]), the work-item ids in `v0..v2`
//!   ([`GcnLayout::vgpr`]), EXEC ([`GcnLayout::exec`], both cells) and, for scratch, the
//!   private segment buffer V# (a global buffer; MUBUF scratch is addressed as global memory)
//!   and FLAT_SCRATCH ([`GcnLayout::flat_scratch`]) as the ABI says. MODE needs nothing: the
//!   prologue writes it. Other hardware registers read as whatever their `hwreg` cell holds.
//! - **Program counters**: IR instructions carry the instruction's byte offset in the code
//!   (what disassemblies print); blocks carry guest addresses (`base + offset`).
//!
//! # Unsupported (a [`LiftErrorKind::Unsupported`] [`LiftError`] naming the instruction)
//! Operand forms, not rows (every table row lifts; `tests/lift_table.rs`): under GPR indexing
//! mode (`s_set_gpr_idx_on`; see `operand.rs`) DPP/SDWA/VOP3P, lane-access, movrel, swap and
//! read-modify-write-destination VALU forms; `s_setreg_b32` of the float-control MODE bits from
//! a register of unknown value; MUBUF `lds` on opcodes other than the byte/short/dword/
//! `format_x` loads, and `tfe` on stores and atomics; DS `addtid` with `gds` (see `ds_gds.rs`;
//! `ds_ordered_count` and `ds_gws_*` lift to a guest fault); `v_mqsad_u32_u8` with a TTMP or
//! special-register accumulator; LDS_DIRECT as an SDWA or VOP3P source (see `operand.rs`); the
//! gfx9 aperture source registers; every MIMG instruction (images are not modelled). EXP is
//! rejected by the decoder.
//!
//! Errors never panic: decode failures, unsupported instructions and invalid operand
//! combinations are a [`LiftError`] naming the offset and the instruction text.
use crate::decode::{decode, DecodeError};
use crate::inst::{Gen, Inst, Opcode};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use wavejit_ir::{Block, FunctionBuilder, Terminator, TrapKind, Value};

mod buffer;
mod buffer_format;
mod control;
mod ds;
mod ds_ext;
mod ds_gds;
mod flat;
mod interp;
mod operand;
mod scalar;
mod sdwa_dpp;
mod smem;
pub mod state;
mod targets;
mod valu_ops;
mod valu_rare;
mod valu_special;
mod vector;
mod vop3p;
mod vopc;

pub use state::GcnLayout;

/// What the lifter needs to know about a kernel besides its code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiftConfig {
    pub gen: Gen,
    /// COMPUTE_PGM_RSRC1.FLOAT_MODE (MODE bits `[7:0]`: round `[3:0]`, denorm `[7:4]`).
    pub float_mode: u8,
    /// COMPUTE_PGM_RSRC1.IEEE_MODE.
    pub ieee_mode: bool,
    /// COMPUTE_PGM_RSRC1.DX10_CLAMP.
    pub dx10_clamp: bool,
    /// Guest virtual address of the first code byte.
    pub base: u64,
    /// Name of the lifted function.
    pub name: String,
}

impl LiftConfig {
    /// Configuration from a kernel's RSRC1 word.
    pub fn from_rsrc1(gen: Gen, rsrc1: u32, base: u64, name: &str) -> LiftConfig {
        LiftConfig {
            gen,
            float_mode: ((rsrc1 >> 12) & 0xff) as u8,
            ieee_mode: rsrc1 & (1 << 23) != 0,
            dx10_clamp: rsrc1 & (1 << 21) != 0,
            base,
            name: name.to_string(),
        }
    }

    /// The MODE hardware register at wave start: FP_ROUND/FP_DENORM `[7:0]`, DX10_CLAMP `[8]`,
    /// IEEE `[9]` (CLRX GcnState.md).
    pub fn initial_mode(&self) -> u32 {
        self.float_mode as u32 | (self.dx10_clamp as u32) << 8 | (self.ieee_mode as u32) << 9
    }
}

/// Why a program could not be lifted: the one error type of every ISA
/// ([`wavejit_isa::LiftError`]); `pc` is the byte offset in the code. Bytes that do not decode
/// are [`LiftErrorKind::Unknown`]; the refusals listed under "Unsupported" below are
/// [`LiftErrorKind::Unsupported`]; everything else (a jump outside the code, predecessors that
/// disagree on the float MODE, operands the ISA forbids) is [`LiftErrorKind::Invalid`].
pub use wavejit_isa::{LiftError, LiftErrorKind};

/// How an instruction leaves its basic block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// Continues with the next instruction.
    Fall,
    /// Unconditional jump.
    Jump(i64),
    /// Conditional branch: target or the next instruction.
    Cond(i64),
    /// The wave stops or jumps to an unknown place.
    Stop,
    /// The next instruction starts a new block (barrier, call return point).
    Split,
    /// A call: the target and the next instruction are both reachable.
    Call(i64),
}

fn exit_of(inst: &Inst, off: u64) -> Exit {
    use Opcode::*;
    let target = || inst.branch_target(off).map(|t| t as i64).unwrap_or(-1);
    match inst.opcode {
        S_BRANCH => Exit::Jump(target()),
        S_CBRANCH_SCC0
        | S_CBRANCH_SCC1
        | S_CBRANCH_VCCZ
        | S_CBRANCH_VCCNZ
        | S_CBRANCH_EXECZ
        | S_CBRANCH_EXECNZ
        | S_CBRANCH_CDBGSYS
        | S_CBRANCH_CDBGUSER
        | S_CBRANCH_CDBGSYS_OR_USER
        | S_CBRANCH_CDBGSYS_AND_USER
        | S_CBRANCH_I_FORK => Exit::Cond(target()),
        S_ENDPGM
        | S_ENDPGM_SAVED
        | S_ENDPGM_ORDERED_PS_DONE
        | S_TRAP
        | S_SETPC_B64
        | S_RFE_B64
        | S_RFE_RESTORE_B64
        | S_SENDMSGHALT => Exit::Stop,
        S_SETHALT if control::halts(inst) => Exit::Stop,
        // `s_cbranch_g_fork` continues at a register address or the next instruction;
        // `s_cbranch_join` at the next instruction or a popped address (a fork's target or
        // next instruction, both leaders already).
        S_BARRIER | S_SWAPPC_B64 | S_CBRANCH_G_FORK | S_CBRANCH_JOIN => Exit::Split,
        S_CALL_B64 => Exit::Call(target()),
        _ => Exit::Fall,
    }
}

/// Whether `inst` is a vector instruction (not issued while MODE.VSKIP is set): VALU
/// (VOPC, lane reads and VALU writes of SGPRs included), LDS/GDS, buffer and flat accesses.
fn is_vector(inst: &Inst) -> bool {
    use crate::inst::Encoding as E;
    !matches!(
        inst.encoding,
        E::Sop1 | E::Sop2 | E::Sopk | E::Sopc | E::Sopp | E::Smrd | E::Smem
    )
}

/// One basic block found by discovery.
struct BasicBlock {
    start: u64,
    /// Offsets of its instructions.
    insts: Vec<u64>,
    /// Offsets of the successors (targets outside the code included, as negative or >= len).
    succs: Vec<i64>,
}

/// Lifts `code` (the kernel's code bytes, entry at offset 0) to a function.
pub fn lift(code: &[u8], cfg: &LiftConfig) -> Result<wavejit_ir::Function, LiftError> {
    let (insts, leaders, indirect) = discover(code, cfg)?;
    let blocks = split_blocks(code.len() as u64, &insts, &leaders, &indirect);
    let modes = entry_modes(&blocks, &insts, cfg)?;
    let g = GcnLayout::new();
    let mut b = FunctionBuilder::new(&cfg.name, g.layout.clone());
    let prologue = b.create_block();
    let mut ids = HashMap::new();
    for bb in &blocks {
        let id = b.create_block();
        b.set_guest_pc(id, cfg.base.wrapping_add(bb.start));
        ids.insert(bb.start, id);
    }
    let mut l = Lifter {
        b,
        g,
        cfg,
        code,
        mode: cfg.initial_mode(),
        pc: 0,
        ids,
        bad_jumps: Vec::new(),
        exec_cache: None,
        dpp_write: None,
        prev_inst: None,
        vskip: insts.values().any(control::writes_vskip),
        clock: insts.values().any(smem::reads_clock),
        block_len: 0,
        block_index: 0,
    };
    l.b.switch_to(prologue);
    let m = l.b.i32(cfg.initial_mode());
    let r = l.g.hwreg(state::HW_REG_MODE);
    l.b.def_reg(r, m, None);
    let first = l.target(0);
    l.b.terminate(Terminator::Jump(first));
    for bb in &blocks {
        l.mode = modes[&bb.start];
        l.lift_block(bb, &insts)?;
    }
    // One trap block per jump outside the code; its fault names the pc of the jump.
    for (blk, pc) in std::mem::take(&mut l.bad_jumps) {
        l.b.switch_to(blk);
        l.b.begin_guest_inst(pc as u32);
        l.b.terminate(Terminator::Trap(TrapKind::BadJump));
    }
    let clock = l.clock;
    let mut func = l.b.finish();
    // Fewer, larger blocks (the prologue joins the first block, a return block is copied into
    // the blocks that jump to it), unless the wave clock counts block entries.
    if !clock {
        wavejit_ir::merge_blocks(&mut func);
    }
    Ok(func)
}

/// Register-jump targets found by discovery: jump offset -> target offset.
type Indirect = HashMap<u64, i64>;
/// What discovery finds: instructions by offset, block leaders, register-jump targets.
type Discovered = (BTreeMap<u64, Inst>, BTreeSet<u64>, Indirect);

/// Recursive-descent discovery: decodes every reachable instruction and collects leaders
/// (register-jump targets where `targets.rs` can tell them).
fn discover(code: &[u8], cfg: &LiftConfig) -> Result<Discovered, LiftError> {
    let len = code.len() as u64;
    let mut insts = BTreeMap::new();
    let mut leaders = BTreeSet::new();
    let mut indirect = Indirect::new();
    let mut work = vec![0u64];
    leaders.insert(0);
    let in_code = |t: i64| t >= 0 && (t as u64) < len;
    while let Some(start) = work.pop() {
        let mut off = start;
        let mut known = targets::Known::default();
        while off < len && !insts.contains_key(&off) {
            let inst = decode(cfg.gen, code, off as usize)
                .map_err(|e: DecodeError| LiftError::unknown(off, e.to_string()))?;
            let next = off + inst.len as u64;
            let exit = exit_of(&inst, off);
            let push = |t: i64, leaders: &mut BTreeSet<u64>, work: &mut Vec<u64>| {
                if in_code(t) && leaders.insert(t as u64) {
                    work.push(t as u64);
                }
            };
            let reg_target = targets::jump_source(&inst)
                .and_then(|f| known.pair(&inst, f))
                .map(|a| a.wrapping_sub(cfg.base) as i64)
                .filter(|&t| in_code(t));
            if let Some(t) = reg_target {
                push(t, &mut leaders, &mut work);
                indirect.insert(off, t);
            }
            known.step(&inst, cfg.base.wrapping_add(off));
            insts.insert(off, inst);
            match exit {
                Exit::Fall => {}
                Exit::Jump(t) => {
                    push(t, &mut leaders, &mut work);
                    break;
                }
                Exit::Stop => break,
                Exit::Cond(t) | Exit::Call(t) => {
                    push(t, &mut leaders, &mut work);
                    leaders.insert(next);
                }
                Exit::Split => {
                    leaders.insert(next);
                }
            }
            off = next;
        }
    }
    Ok((insts, leaders, indirect))
}

fn split_blocks(
    len: u64,
    insts: &BTreeMap<u64, Inst>,
    leaders: &BTreeSet<u64>,
    indirect: &Indirect,
) -> Vec<BasicBlock> {
    let mut out = Vec::new();
    for &start in leaders {
        if start >= len || !insts.contains_key(&start) {
            continue;
        }
        let mut bb = BasicBlock {
            start,
            insts: Vec::new(),
            succs: Vec::new(),
        };
        let mut off = start;
        loop {
            let inst = &insts[&off];
            bb.insts.push(off);
            let next = off + inst.len as u64;
            bb.succs.extend(indirect.get(&off));
            match exit_of(inst, off) {
                Exit::Jump(t) => {
                    bb.succs.push(t);
                    break;
                }
                Exit::Cond(t) | Exit::Call(t) => {
                    bb.succs.extend([t, next as i64]);
                    break;
                }
                Exit::Stop => break,
                Exit::Split => {
                    bb.succs.push(next as i64);
                    break;
                }
                Exit::Fall => {}
            }
            if leaders.contains(&next) || !insts.contains_key(&next) {
                bb.succs.push(next as i64);
                break;
            }
            off = next;
        }
        out.push(bb);
    }
    out
}

/// MODE at each block's entry, propagated along the CFG from the kernel's initial MODE.
/// Blocks no discovered edge reaches (indirect-jump targets) start with the initial MODE.
fn entry_modes(
    blocks: &[BasicBlock],
    insts: &BTreeMap<u64, Inst>,
    cfg: &LiftConfig,
) -> Result<HashMap<u64, u32>, LiftError> {
    let index: HashMap<u64, usize> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| (b.start, i))
        .collect();
    let mut modes: HashMap<u64, u32> = HashMap::new();
    let mut work: Vec<usize> = Vec::new();
    if let Some(&e) = index.get(&0) {
        modes.insert(0, cfg.initial_mode());
        work.push(e);
    }
    loop {
        while let Some(i) = work.pop() {
            let bb = &blocks[i];
            let mut m = modes[&bb.start];
            let mut prev = None;
            for off in &bb.insts {
                m = control::mode_after(&insts[off], prev, *off, m)?;
                prev = Some(&insts[off]);
            }
            for &s in &bb.succs {
                let Some(&si) = (s >= 0).then(|| index.get(&(s as u64))).flatten() else {
                    continue;
                };
                match modes.get(&(s as u64)) {
                    None => {
                        modes.insert(s as u64, m);
                        work.push(si);
                    }
                    Some(&old) if old != m => {
                        return Err(LiftError::invalid(
                            s as u64,
                            "",
                            format!("predecessors disagree on the float MODE ({old:#x} vs {m:#x})"),
                        ))
                    }
                    _ => {}
                }
            }
        }
        match blocks.iter().position(|b| !modes.contains_key(&b.start)) {
            Some(i) => {
                modes.insert(blocks[i].start, cfg.initial_mode());
                work.push(i);
            }
            None => return Ok(modes),
        }
    }
}

/// Lifting state shared by the per-family modules.
pub(crate) struct Lifter<'a> {
    pub b: FunctionBuilder,
    pub g: GcnLayout,
    pub cfg: &'a LiftConfig,
    pub code: &'a [u8],
    /// The MODE register bits at the current instruction.
    pub mode: u32,
    /// Byte offset of the current instruction.
    pub pc: u64,
    ids: HashMap<u64, Block>,
    /// Blocks that trap with `BadJump` (jumps outside the code), with the pc of the jump.
    bad_jumps: Vec<(Block, u64)>,
    /// (EXEC value, its mask) of the current block.
    exec_cache: Option<(Value, Value)>,
    /// Lanes a DPP source allows to be written (set while lifting a DPP instruction).
    pub(crate) dpp_write: Option<Value>,
    /// The previous instruction of the current block (`s_setreg_b32` constant tracking).
    pub(crate) prev_inst: Option<Inst>,
    /// Whether the program can set MODE.VSKIP (then vector instructions are guarded).
    vskip: bool,
    /// Whether the program reads the clock (then every block advances it).
    pub(crate) clock: bool,
    /// Instructions in the current basic block, and the index of the current one in it.
    pub(crate) block_len: u64,
    pub(crate) block_index: u64,
}

/// Whether lifting an instruction ended the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    Next,
    Ended,
}

impl Lifter<'_> {
    fn lift_block(
        &mut self,
        bb: &BasicBlock,
        insts: &BTreeMap<u64, Inst>,
    ) -> Result<(), LiftError> {
        let id = self.ids[&bb.start];
        self.switch_block(id);
        self.prev_inst = None;
        self.block_len = bb.insts.len() as u64;
        if self.clock {
            self.advance_clock();
        }
        let last = *bb.insts.last().expect("blocks are never empty");
        let next = last + insts[&last].len as u64;
        // The guarded run of vector instructions being lifted: (index after it, block after it).
        let mut run: Option<(usize, Block)> = None;
        for (i, &off) in bb.insts.iter().enumerate() {
            let inst = &insts[&off];
            if let Some((end, rest)) = run {
                if i == end {
                    self.b.terminate(Terminator::Jump(rest));
                    self.switch_block(rest);
                    run = None;
                }
            }
            self.pc = off;
            self.block_index = i as u64;
            self.b.begin_guest_inst(off as u32);
            if self.vskip && run.is_none() && is_vector(inst) {
                let end = (i..bb.insts.len())
                    .find(|&j| !is_vector(&insts[&bb.insts[j]]))
                    .unwrap_or(bb.insts.len());
                let rest = if end < bb.insts.len() {
                    self.b.create_block()
                } else {
                    self.target(next as i64)
                };
                self.vskip_guard(rest);
                run = Some((end, rest));
            }
            self.dpp_write = None;
            if self.lift_inst(inst)? == Flow::Ended {
                return Ok(());
            }
            self.prev_inst = Some(inst.clone());
        }
        let t = match run {
            Some((_, rest)) => rest,
            None => self.target(next as i64),
        };
        self.b.terminate(Terminator::Jump(t));
        Ok(())
    }

    /// Makes `b` the current block; per-block caches of values start empty.
    fn switch_block(&mut self, b: Block) {
        self.b.switch_to(b);
        self.exec_cache = None;
    }

    fn lift_inst(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        use crate::inst::Encoding as E;
        self.gpr_idx_check(inst)?;
        match inst.encoding {
            // VOP3-encoded VINTRP shares the VOP3 encoding; the family tells it apart.
            _ if inst.info.family == crate::tables::Family::Vintrp => {
                self.vintrp(inst).map(|_| Flow::Next)
            }
            E::Sop1 | E::Sop2 | E::Sopk | E::Sopc => self.scalar(inst),
            E::Sopp => self.sopp(inst),
            E::Smrd | E::Smem => self.smem(inst).map(|_| Flow::Next),
            E::Vop1 | E::Vop2 | E::Vop3a | E::Vop3b | E::Sdwa | E::Dpp => {
                self.valu(inst).map(|_| Flow::Next)
            }
            E::Vopc => self.vopc(inst).map(|_| Flow::Next),
            E::Vop3p => self.vop3p(inst).map(|_| Flow::Next),
            E::Ds => self.ds(inst),
            E::Mubuf | E::Mtbuf => self.buffer(inst).map(|_| Flow::Next),
            E::Flat | E::Global | E::Scratch => self.flat(inst).map(|_| Flow::Next),
            E::Vintrp => self.vintrp(inst).map(|_| Flow::Next),
            E::Mimg => Err(self.unsupported(inst, "images (MIMG) are not modelled")),
        }
    }

    /// The block for code offset `t`, or a block that traps with `BadJump` at the current pc.
    pub(crate) fn target(&mut self, t: i64) -> Block {
        if t >= 0 {
            if let Some(&b) = self.ids.get(&(t as u64)) {
                return b;
            }
        }
        let trap = self.b.create_block();
        self.bad_jumps.push((trap, self.pc));
        trap
    }

    /// The guest address of code offset `off`.
    pub(crate) fn guest_addr(&self, off: u64) -> u64 {
        self.cfg.base.wrapping_add(off)
    }

    pub(crate) fn unsupported(&self, inst: &Inst, why: impl Into<String>) -> LiftError {
        LiftError::unsupported(self.pc, crate::print::print(inst), why)
    }

    pub(crate) fn invalid(&self, inst: &Inst, why: impl Into<String>) -> LiftError {
        LiftError::invalid(self.pc, crate::print::print(inst), why)
    }
}
