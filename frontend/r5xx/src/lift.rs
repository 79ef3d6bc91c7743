//! The lifter: an R5xx program and the setup it runs under ([`Setup`]) to one IR
//! [`Function`] that runs one wave, a 16×4 tile of index pairs.
//!
//! - [`state`]: the state layout, the register names of `wavejit wave`;
//! - [`launch`]: the tiles a domain is cut into and how each wave starts ([`DomainInit`]);
//! - `float`: the ALU's floating-point rules (OMOD, clamp, extra range, selects,
//!   transcendentals, comparisons against zero);
//! - `alu`: ALU and OUTPUT instructions: sources, presubtract, inputs, the RGB and alpha
//!   operations, and their writes (temporaries, outputs, predicates, the ALU result);
//! - `mem`: GPU memory through the memory controller's one definition ([`crate::mc`]) and
//!   the constants;
//! - `tex`: TEX instructions on the inputs;
//! - `flow`: flow control as mask arithmetic over the per-processor state machine;
//! - `output`: the end of the program: the render-target writes and the conditional output.
//!
//! # The executor's API
//! - [`lift`]`(&setup)` gives a [`Lifted`]: the function, its [`R5xxLayout`] and the number
//!   of slots it holds. The function is specialised on the setup: surfaces, modes and the
//!   constants' places are constants of the code.
//! - [`Tiles::new`]`(i0, j0, i1, j1)` cuts `set_domain`'s domain into tiles;
//!   [`Tiles::grid`] is the dispatch (one work-group of one 64-lane wave per tile).
//! - [`DomainInit::new`]`(&lifted.layout, tiles, coverage, mem_base, &setup)` is the
//!   [`wavejit_isa::WaveInit`]: `mem_base` is the guest address of GPU address 0 (GPU
//!   memory is one guest buffer); `coverage` is `None` unless conditional execution is at the
//!   PE, and then one lane mask per tile ([`Tiles::linear`] order) of the pairs whose CO test
//!   ([`crate::setup::CondTest::passes`] on the host) passed; the executor writes the PE's
//!   conditional value to the conditional buffer for those pairs itself, before the run.
//! - `wavejit wave`: [`R5xxLayout::names`] / [`R5xxLayout::lookup`] name the registers,
//!   [`R5xxLayout::exec`] reads the exec mask (the active lanes), [`R5xxLayout::lone_wave`]
//!   gives the cells of a lone wave with a given exec mask, [`R5xxLayout::mem_base`] is where
//!   the memory base goes.
//!
//! # The program
//! `setup.program` holds the instruction slots from slot 0 of the instruction memory; the
//! program runs from slot `info.start` (US_CODE_ADDR START) and ends after it executes slot
//! `info.end` (US_CODE_ADDR END, "the slot after which to halt"; seed 003 §2.1.1: "after the
//! processor executes the instruction at the end-of-program address, the processor halts"), or
//! after an ALU or OUTPUT slot with LAST set: CMN_INST LAST (effective for ALU and OUTPUT
//! only, seed 003 §3.2) marks the last instruction of a program, so the group ends there
//! (the R500 registers' meaning; Mesa sets it on the final instruction). Guest pcs are slot
//! numbers: a block starting at slot n has guest pc n, an IR instruction's pc is its slot, and
//! each executed slot counts one guest instruction. JUMP_ADDR is a slot number; US_CODE_OFFSET,
//! which a jump without JUMP_GLOBAL adds, is not part of a CTM program's info and is 0 (so
//! JUMP_GLOBAL makes no difference). A jump to a slot outside `start..=end` is a guest fault
//! ([`TrapKind::BadJump`]) when it is taken.
//!
//! Ignored, as a sequential emulator may (seed 003 §3.2.1, §3.4.2, §3.7): TEX_SEM_WAIT,
//! TEX_SEM_ACQUIRE, ALU_WAIT, NOP (the presubtract/MDH bubble), STAT_WE, the unused bits of
//! TEX and FC slots.
//!
//! # Refused ([`LiftError`]: `at` is "slot N", `pc` its byte offset, 24 bytes a slot)
//! Unsupported: uncached (UMRT) output programs (US_CONFIG bit 0): the seed gives no values
//! for the RNDR_TGT_UMRT_* targets or TEX_INST_LOOKUP_UNCACHED. Invalid: a program range
//! outside the slots (`start > end`, `end` past the program or slot 511); a value without a
//! documented meaning (reserved ALU, TEX and FC opcodes, predicate selects 6-7, swizzle 7
//! where it is read, A_OP 3, B_OP 3); REL on an inline constant (seed 003 line 777);
//! OMOD_DISABLED on another operation than MIN, MAX, CND, CMP (§3.3.5; with it the clamp bit
//! is ignored: "clamping is not applied"); RGB_SOP without an alpha transcendental, ALPHA_DP
//! without an RGB dot product (§3.3.4); a flow-control predicate that is not a replicate
//! select (§3.5.1); loops, REP, BREAK, CONTINUE or the address stack in partial flow-control
//! mode (§3.5); a read of constants, inputs or the conditional buffer whose surface the setup
//! does not give. All checks cover the slots of `start..=end`, executed or not.
//!
//! # Guest faults (at run time, naming the slot)
//! A taken jump outside `start..=end`; a loop or address stack pushed past 4 entries or
//! popped empty (ENDLOOP, BREAK or CONTINUE outside a loop, RETURN without a call); a branch
//! counter past its mode's limit; a read or write outside GPU memory (the runtime names the
//! lane and address). An endless loop ends when the wave's fuel (guest instructions) is spent.

mod alu;
mod float;
mod flow;
pub mod launch;
mod mem;
mod output;
pub mod state;
mod tex;

use crate::inst::{Body, Inst, Pred, Src};
use crate::setup::Setup;
use crate::table::PredSel;
pub use launch::{DomainInit, Tiles};
use mem::Gpu;
pub use state::R5xxLayout;
use state::{mask, TEMPS};
use std::collections::BTreeMap;
use wavejit_ir::{
    merge_blocks, Block, Function, FunctionBuilder, IntCC, Op, ScalarType, Terminator, TrapKind,
    Value,
};
pub use wavejit_isa::{LiftError, LiftErrorKind};

use ScalarType::{F32, I1, I32, I64};

/// Instruction slots of the instruction memory (seed 003 §3.1).
pub const SLOTS: u32 = 512;
/// Bytes of one slot (six words): what [`LiftError::pc`] counts in.
pub const SLOT_BYTES: u64 = 24;

/// A lifted program.
#[derive(Clone, Debug)]
pub struct Lifted {
    pub func: Function,
    pub layout: R5xxLayout,
    /// Slots of `start..=end`.
    pub slots: usize,
}

/// Lifts `setup`'s program (see the module doc).
pub fn lift(setup: &Setup) -> Result<Lifted, LiftError> {
    let info = &setup.info;
    let whole = |why: String| LiftError::invalid(0, "", why).at("program");
    if info.start > info.end || info.end >= SLOTS || info.end as usize >= setup.program.len() {
        return Err(whole(format!(
            "the program runs slots {}..={} of {} slots (at most {SLOTS})",
            info.start,
            info.end,
            setup.program.len()
        )));
    }
    if info.uncached_outputs {
        return Err(LiftError::unsupported(
            0,
            "",
            "uncached (UMRT) output programs: the seed gives no values for the RNDR_TGT_UMRT \
             targets or the uncached read",
        )
        .at("program"));
    }
    let layout = R5xxLayout::new(temps_used(range(setup)).max(setup.info.pixsize + 1));
    let mut lifter = Lifter::new(setup, &layout);
    lifter.lift_all()?;
    let mut func = lifter.b.finish();
    merge_blocks(&mut func);
    Ok(Lifted {
        func,
        layout,
        slots: (info.end - info.start + 1) as usize,
    })
}

/// Temporaries `slots` can reach: all 128 with any aL-relative temp address, else one more
/// than the highest index named (r0 at least). The lifted state holds these, and at least
/// US_PIXSIZE + 1 (the program info's "largest register used").
pub fn temps_used(slots: &[Inst]) -> u32 {
    let mut top = 0u32;
    for inst in slots {
        let (regs, rel) = inst_temps(inst);
        if rel {
            return TEMPS;
        }
        top = regs.into_iter().fold(top, u32::max);
    }
    top + 1
}

/// The slots of the program range.
fn range(setup: &Setup) -> &[Inst] {
    &setup.program[setup.info.start as usize..=setup.info.end as usize]
}

/// The temp indices an instruction names, and whether any is aL-relative.
fn inst_temps(inst: &Inst) -> (Vec<u32>, bool) {
    let mut regs = Vec::new();
    let mut rel = false;
    match &inst.body {
        Body::Alu(a) | Body::Output(a) => {
            for s in a.rgb_src.iter().chain(&a.alpha_src) {
                if let Src::Temp { index, rel: r } = *s {
                    regs.push(u32::from(index));
                    rel |= r;
                }
            }
            for d in [a.rgb_dest, a.alpha_dest] {
                regs.push(u32::from(d.addr));
                rel |= d.rel;
            }
        }
        Body::Tex(t) => {
            for r in [t.src, t.dst] {
                regs.push(u32::from(r.addr));
                rel |= r.rel;
            }
        }
        Body::Fc(_) => {}
    }
    (regs, rel)
}

/// Lifting state.
pub(crate) struct Lifter<'a> {
    b: FunctionBuilder,
    l: &'a R5xxLayout,
    setup: &'a Setup,
    /// The slot being lifted.
    pc: u32,
    /// The block of each slot a block starts at (jump targets, fall-throughs after flow
    /// control, the first slot).
    starts: BTreeMap<u32, Block>,
    /// The program's end: the output writes.
    end: Block,
}

impl<'a> Lifter<'a> {
    fn new(setup: &'a Setup, l: &'a R5xxLayout) -> Lifter<'a> {
        let mut b = FunctionBuilder::new("r5xx", l.layout.clone());
        let info = &setup.info;
        let mut starts = BTreeMap::new();
        // Block 0, the entry, is the first slot's.
        let entry = b.create_block();
        b.set_guest_pc(entry, u64::from(info.start));
        starts.insert(info.start, entry);
        for pc in flow::block_starts(setup) {
            starts.entry(pc).or_insert_with(|| {
                let blk = b.create_block();
                b.set_guest_pc(blk, u64::from(pc));
                blk
            });
        }
        let end = b.create_block();
        Lifter {
            b,
            l,
            setup,
            pc: info.start,
            starts,
            end,
        }
    }

    fn lift_all(&mut self) -> Result<(), LiftError> {
        let (start, end) = (self.setup.info.start, self.setup.info.end);
        self.b.switch_to(self.starts[&start]);
        let mut open = true;
        for pc in start..=end {
            self.pc = pc;
            if let Some(&blk) = self.starts.get(&pc) {
                if open && pc != start {
                    self.b.terminate(Terminator::Jump(blk));
                }
                self.b.switch_to(blk);
            } else if !open {
                // Reached by no jump and no fall-through: lifted for its checks only.
                let blk = self.b.create_block();
                self.b.switch_to(blk);
            }
            open = true;
            self.b.begin_guest_inst(pc);
            let inst = &self.setup.program[pc as usize];
            match &inst.body {
                Body::Alu(a) => self.lift_alu(inst, a, false)?,
                Body::Output(a) => self.lift_alu(inst, a, true)?,
                Body::Tex(t) => self.lift_tex(inst, t)?,
                Body::Fc(f) => {
                    self.lift_fc(inst, f)?;
                    open = false;
                }
            }
            if open && inst.cmn.last && inst.alu().is_some() {
                self.b.terminate(Terminator::Jump(self.end));
                open = false;
            }
        }
        if open {
            self.b.terminate(Terminator::Jump(self.end));
        }
        self.b.switch_to(self.end);
        self.lift_end()?;
        self.b.terminate(Terminator::Return);
        Ok(())
    }

    /// A refusal of the current slot.
    fn error(&self, kind: LiftErrorKind, why: impl Into<String>) -> LiftError {
        let pc = u64::from(self.pc);
        LiftError::new(kind, pc * SLOT_BYTES, "", why).at(format!("slot {pc}"))
    }

    fn invalid(&self, why: impl Into<String>) -> LiftError {
        self.error(LiftErrorKind::Invalid, why)
    }

    // --- lane masks ---

    /// A 64-bit lane mask of [`mask`] (uniform `i64`).
    fn mask_bits(&mut self, which: u32) -> Value {
        self.b.use_reg(self.l.mask(which), I64)
    }

    fn set_mask_bits(&mut self, which: u32, bits: Value) {
        self.b.def_reg(self.l.mask(which), bits, None);
    }

    /// The lanes an ALU or TEX instruction writes: the active ones, or with WRITE_INACTIVE
    /// every running one (a `lane i1`).
    fn exec_mask(&mut self, write_inactive: bool) -> Value {
        let which = if write_inactive {
            mask::ALIVE
        } else {
            mask::ACTIVE
        };
        let bits = self.mask_bits(which);
        self.b.mask_from_bits(bits)
    }

    fn and1(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::And, I1, &[a, b])
    }

    /// Predicate bit `c` as a `lane i1`.
    fn pred_lane(&mut self, c: u32) -> Value {
        let p = self.b.use_reg(self.l.pred(c), I32);
        let zero = self.b.i32(0);
        self.b.op(Op::Icmp(IntCC::Ne), I1, &[p, zero])
    }

    /// The predicate `p` gives channel `c` (0-3): `None` without predication (PRED_SEL
    /// NONE, whose INV "should be zero" and is ignored).
    fn predicate(&mut self, p: Pred, c: u32) -> Result<Option<Value>, LiftError> {
        let bit = match p.sel {
            PredSel::None => return Ok(None),
            PredSel::Rgba => c,
            PredSel::Rrrr => 0,
            PredSel::Gggg => 1,
            PredSel::Bbbb => 2,
            PredSel::Aaaa => 3,
            PredSel::Sel6 | PredSel::Sel7 => {
                return Err(self.invalid(format!(
                    "predicate select {} has no documented meaning",
                    p.sel.bits()
                )))
            }
        };
        let v = self.pred_lane(bit);
        Ok(Some(if p.inv {
            let t = self.b.bool(true);
            self.b.op(Op::Xor, I1, &[v, t])
        } else {
            v
        }))
    }

    /// `exec` and the predicate of channel `c`, if any.
    fn predicated(&mut self, exec: Value, pred: Option<Value>) -> Value {
        match pred {
            Some(p) => self.and1(exec, p),
            None => exec,
        }
    }

    // --- registers ---

    /// aL (uniform `i32`).
    fn al(&mut self) -> Value {
        self.b.use_reg(self.l.al(), I32)
    }

    /// `(addr + aL) mod size` when `rel`, as a uniform `i32`.
    fn rel_index(&mut self, addr: u32, size: u32) -> Value {
        let al = self.al();
        let a = self.b.i32(addr);
        let sum = self.b.op(Op::Iadd, I32, &[a, al]);
        let m = self.b.i32(size - 1);
        self.b.op(Op::And, I32, &[sum, m])
    }

    /// Channel `c` of temporary `addr` (+ aL when `rel`), as f32.
    fn read_temp(&mut self, addr: u8, rel: bool, c: u32) -> Value {
        if !rel {
            return self.b.use_reg(self.l.temp(u32::from(addr), c), F32);
        }
        let n = self.rel_index(u32::from(addr), TEMPS);
        let idx = self.cell_index(n, c);
        self.b.read_reg_indexed(self.l.r, 0, idx, F32)
    }

    /// Writes `v` to channel `c` of temporary `addr` (+ aL when `rel`) in the lanes of
    /// `lanes`.
    fn write_temp(&mut self, addr: u8, rel: bool, c: u32, v: Value, lanes: Value) {
        if !rel {
            self.b
                .def_reg(self.l.temp(u32::from(addr), c), v, Some(lanes));
            return;
        }
        let n = self.rel_index(u32::from(addr), TEMPS);
        let idx = self.cell_index(n, c);
        let v = self.b.splat(v);
        self.b.write_reg_indexed(self.l.r, 0, idx, v, Some(lanes));
    }

    fn cell_index(&mut self, n: Value, c: u32) -> Value {
        let four = self.b.i32(4);
        let base = self.b.op(Op::Imul, I32, &[n, four]);
        let c = self.b.i32(c);
        self.b.op(Op::Iadd, I32, &[base, c])
    }

    /// Uniform GPU memory access (constants).
    fn gpu_uniform(&mut self) -> Gpu {
        let base = self.b.use_reg(self.l.mem_base(), I64);
        Gpu { base, mask: None }
    }

    /// GPU memory access by the lanes of `lanes`.
    fn gpu_lanes(&mut self, lanes: Value) -> Gpu {
        let base = self.b.use_reg(self.l.mem_base(), I64);
        Gpu {
            base,
            mask: Some(lanes),
        }
    }

    /// The lane id (`lane i32`), and its pair's i and j (`lane i32`).
    fn pair(&mut self) -> (Value, Value) {
        let lane = self.b.lane_id();
        let fifteen = self.b.i32(15);
        let four = self.b.i32(4);
        let di = self.b.op(Op::And, I32, &[lane, fifteen]);
        let dj = self.b.op(Op::Lshr, I32, &[lane, four]);
        let i0 = self.b.use_reg(self.l.tile_origin(), I32);
        let j0 = self.b.use_reg(self.l.tile_origin().offset(1), I32);
        let i = self.b.op(Op::Iadd, I32, &[i0, di]);
        let j = self.b.op(Op::Iadd, I32, &[j0, dj]);
        (i, j)
    }

    /// Ends the current block with a trap unless `ok` (uniform `i1`) holds, and continues
    /// in a new block: values of the current block are not visible there.
    fn trap_unless(&mut self, ok: Value, why: String) {
        let cont = self.b.create_block();
        let trap = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond: ok,
            then_to: cont,
            else_to: trap,
        });
        self.b.switch_to(trap);
        self.b.set_inst_pc(self.pc);
        self.b.terminate(Terminator::Trap(TrapKind::Explicit(why)));
        self.b.switch_to(cont);
        self.b.set_inst_pc(self.pc);
    }
}
