//! The lifter: G13 machine code to the IR.
//!
//! A program is code entered at an offset (0 for a raw file); only instructions reachable
//! from there are decoded (data or padding after the last `stop` never is). Blocks start at
//! the entry, at every
//! branch target and after every instruction that ends a block (a branch, `call`, `ret`,
//! `stop`, `trap`, `threadgroup_barrier`); a pc is a byte offset from the code's start.
//!
//! Control flow (notes/g13_map.md §3-4, g13_sources.md §4):
//! - Divergence is the r0l execution-mask stack (the `exec` module); the exec mask is state
//!   that only the exec-stack instructions recompute.
//! - `jmp_exec_any`/`jmp_exec_none` branch on the whole SIMD-group's exec mask, to a signed
//!   offset from the jump's own address. A target outside the code (or past its end) is a
//!   guest fault when the jump is taken; so is running off the end of the code.
//! - `call off` writes the return address (pc + 6) to r1 in the active lanes and jumps; `ret
//!   rN` jumps to rN of the lowest active lane (lane 0 when none is active) and `call rN` to
//!   rN likewise, with pc + 2 in r1. A computed target that is not the start of a block the
//!   lifter found (a return address, a branch target) is a guest fault.
//! - `stop` ends the SIMD-group; `trap` stops it with a guest fault.
//! - `threadgroup_barrier` is the IR's barrier: the SIMD-groups of a threadgroup switch there.
//! - `wait` has no effect: loads complete before the next instruction (a program that reads a
//!   load's registers before its `wait` is undefined on hardware and sees the loaded value
//!   here). The memory barriers have no observable effect either: one CPU thread runs a
//!   threadgroup's SIMD-groups one at a time, and every store is visible at once.
//!
//! Instructions the lifter refuses (the error names the instruction): texture, image and
//! fragment-only instructions (`texture_sample`, `texture_load`, `image_write`,
//! `image_write_block`, `iter`, `iterproj`, `TODO.ldcf`, `st_var`, `st_var_final`, `no_var`,
//! `zs_emit`, `sample_mask`, `TODO.ld/st_tile`, `wait_pix`, `signal_pix`, `dfdx`, `dfdy`,
//! `tex_state_store`, `sampler_state_store`): a compute dispatch has no textures, samplers,
//! varyings or tile buffer; and the forms whose effect no public source describes: those
//! applegpu.py knows only by their encoding (`TODO.*`, `iunop`, `funop`, `simd_op`,
//! `simd_shuf_op`, `doorbell`, `jmp_incomplete`, `jmp_if_skipping_doorbell`, `map`,
//! `stack_get_ptr`), `simd_matrix_fmadd16`/`32` (the matrix layout across the SIMD-group's
//! registers is unpublished), `async_load`/`async_store` (applegpu names the copy modes, not
//! their descriptors), a `uniform_store` to a register-held index, and `get_sr` of the
//! fragment and helper-program registers.

mod alu;
mod exec;
mod float;
mod formats;
mod mem;
mod regs;
mod simd;
mod sr;
pub mod state;

use crate::decode::{frame, Framed};
use crate::operand::{Reg, Src, Value as Operand};
use state::G13Layout;
use std::collections::{BTreeMap, BTreeSet};
use wavejit_ir::{Block, Function, FunctionBuilder, ScalarType, Terminator, TrapKind, Value};
use wavejit_isa::{LiftError, LiftErrorKind};

pub use state::WAVE_SIZE;

/// One decoded instruction of a program.
#[derive(Debug)]
pub struct Decoded {
    pub pc: u64,
    pub inst: Framed,
}

/// How an instruction leaves its block.
enum Flow {
    /// On to the next instruction.
    Next,
    /// The instruction ended the block (its terminator is set).
    Ended,
}

/// Lifting state: the builder, the layout and the instruction being lifted.
pub(crate) struct Lifter<'a> {
    b: &'a mut FunctionBuilder,
    l: &'a G13Layout,
    /// The instruction being lifted.
    pc: u64,
    inst: &'a Framed,
    /// Block of each block-starting pc.
    blocks: &'a BTreeMap<u64, Block>,
    /// Blocks that stop the SIMD-group with a guest fault, made while lifting and ended
    /// afterwards: the block, the pc of the instruction that faults and why.
    faults: &'a mut Vec<(Block, u32, TrapKind)>,
}

impl Lifter<'_> {
    fn invalid(&self, why: String) -> LiftError {
        LiftError::invalid(self.pc, self.inst.row.name, why)
    }

    fn unsupported(&self, why: &str) -> LiftError {
        LiftError::unsupported(self.pc, self.inst.row.name, why)
    }

    /// Field `name` of the instruction (a merged value when it has pieces).
    fn field(&self, name: &str) -> u64 {
        self.inst.row.value(self.inst.word, name).unwrap_or(0)
    }

    /// The operand named `name` (the table's operand name: `D`, `A`, `cc`, ...).
    fn operand(&self, name: &str) -> Operand {
        let row = self.inst.row;
        row.operands
            .iter()
            .position(|o| o.name == name)
            .map_or(Operand::Undefined, |k| {
                crate::operand::decode(row, self.inst.word, k)
            })
    }

    /// The ALU source named `name`.
    fn src(&self, name: &str) -> Result<Src, LiftError> {
        match self.operand(name) {
            Operand::Src(s) => Ok(s),
            _ => Err(self.invalid(format!("operand {name} has an undefined encoding"))),
        }
    }

    /// The destination register `D`.
    fn dst(&self) -> Result<Reg, LiftError> {
        match self.operand("D") {
            Operand::Reg(r) => Ok(r),
            _ => Err(self.invalid("the destination has an undefined encoding".into())),
        }
    }

    /// The exec mask as a lane mask.
    fn exec_mask(&mut self) -> Value {
        let bits = self.b.use_reg(self.l.exec(), ScalarType::I64);
        self.b.mask_from_bits(bits)
    }

    /// The block starting at `pc`, or one that faults with a jump outside the program.
    fn block_at(&mut self, pc: i64) -> Block {
        match u64::try_from(pc).ok().and_then(|pc| self.blocks.get(&pc)) {
            Some(&b) => b,
            None => self.fault_block(TrapKind::BadJump),
        }
    }

    /// A new block that stops the SIMD-group with `why`, reported at this instruction.
    fn fault_block(&mut self, why: TrapKind) -> Block {
        let b = self.b.create_block();
        self.faults.push((b, self.pc as u32, why));
        b
    }
}

/// The instructions reachable from `entry` and the pcs that start blocks.
pub fn discover(code: &[u8], entry: u64) -> Result<(Vec<Decoded>, BTreeSet<u64>), LiftError> {
    let len = code.len() as u64;
    let mut insts: BTreeMap<u64, Framed> = BTreeMap::new();
    let mut leaders = BTreeSet::from([entry]);
    let mut work = vec![entry];
    while let Some(pc) = work.pop() {
        if pc >= len || insts.contains_key(&pc) {
            continue;
        }
        let inst = frame(&code[pc as usize..])
            .map_err(|e| LiftError::new(LiftErrorKind::Unknown, pc, "", e.to_string()))?;
        let next = pc + inst.len as u64;
        let succ = exec::successors(&inst, pc);
        if succ.ends_block {
            leaders.insert(next);
        }
        for &t in &succ.targets {
            if let Ok(t) = u64::try_from(t) {
                if t < len {
                    leaders.insert(t);
                    work.push(t);
                }
            }
        }
        if succ.falls_through {
            work.push(next);
        }
        insts.insert(pc, inst);
    }
    leaders.retain(|pc| insts.contains_key(pc));
    let decoded = insts
        .into_iter()
        .map(|(pc, inst)| Decoded { pc, inst })
        .collect();
    Ok((decoded, leaders))
}

/// The instructions reachable from `entry` in applegpu's syntax, by pc.
pub fn listing(code: &[u8], entry: u64) -> Result<Vec<(u64, String)>, LiftError> {
    let (insts, _) = discover(code, entry)?;
    Ok(insts
        .iter()
        .map(|d| {
            let inst = crate::inst::Inst::new(d.inst.row, d.inst.len, d.inst.word);
            (d.pc, crate::print::applegpu(&inst, d.pc))
        })
        .collect())
}

/// Lifts the program `code` entered at byte offset `entry` to a function named `name`; pcs
/// are byte offsets from the start of `code`.
pub fn lift(code: &[u8], entry: u64, name: &str) -> Result<Function, LiftError> {
    if entry >= code.len() as u64 {
        return Err(LiftError::invalid(
            entry,
            "",
            "the entry lies outside the code",
        ));
    }
    let (insts, leaders) = discover(code, entry)?;
    let layout = G13Layout::new();
    let mut b = FunctionBuilder::new(name, layout.layout.clone());
    let mut blocks = BTreeMap::new();
    // The entry's block first: block 0 is where a function starts.
    let order = std::iter::once(entry).chain(leaders.iter().copied().filter(|&pc| pc != entry));
    for pc in order {
        let blk = b.create_block();
        b.set_guest_pc(blk, pc);
        blocks.insert(pc, blk);
    }
    let mut faults = Vec::new();
    let index: BTreeMap<u64, usize> = insts.iter().enumerate().map(|(i, d)| (d.pc, i)).collect();
    for (&start, &blk) in &blocks {
        b.switch_to(blk);
        let mut pc = start;
        loop {
            let Some(&i) = index.get(&pc) else {
                // Past the last instruction: the code ran off its end.
                b.terminate(Terminator::Trap(TrapKind::BadJump));
                break;
            };
            let d = &insts[i];
            if pc != start && leaders.contains(&pc) {
                b.terminate(Terminator::Jump(blocks[&pc]));
                break;
            }
            b.begin_guest_inst(pc as u32);
            let mut lifter = Lifter {
                b: &mut b,
                l: &layout,
                pc,
                inst: &d.inst,
                blocks: &blocks,
                faults: &mut faults,
            };
            match lifter.lift_inst()? {
                Flow::Next => pc += d.inst.len as u64,
                Flow::Ended => break,
            }
        }
    }
    for (blk, pc, why) in faults {
        b.switch_to(blk);
        b.set_inst_pc(pc);
        b.terminate(Terminator::Trap(why));
    }
    Ok(b.finish())
}

impl Lifter<'_> {
    /// Lifts the current instruction.
    fn lift_inst(&mut self) -> Result<Flow, LiftError> {
        let name = self.inst.row.name;
        if let Some(flow) = self.lift_control(name)? {
            return Ok(flow);
        }
        if self.lift_alu(name)?
            || self.lift_float(name)?
            || self.lift_simd(name)?
            || self.lift_mem(name)?
        {
            return Ok(Flow::Next);
        }
        match name {
            "get_sr" => self.get_sr()?,
            "wait" | "memory_barrier" => {}
            _ => return Err(self.refused(name)),
        }
        Ok(Flow::Next)
    }

    /// Why `name` does not lift.
    fn refused(&self, name: &str) -> LiftError {
        const GRAPHICS: &[&str] = &[
            "texture_sample",
            "texture_load",
            "image_write",
            "image_write_block",
            "iter",
            "iterproj",
            "TODO.ldcf",
            "st_var",
            "st_var_final",
            "no_var",
            "zs_emit",
            "sample_mask",
            "TODO.ld/st_tile",
            "wait_pix",
            "signal_pix",
            "dfdx",
            "dfdy",
            "tex_state_store",
            "sampler_state_store",
        ];
        if GRAPHICS.contains(&name) {
            self.unsupported(
                "a texture, image or fragment instruction; a compute dispatch has none of their resources",
            )
        } else {
            self.unsupported("no public source describes what this instruction does")
        }
    }
}
