//! The CF program: clause initiation, the branch/loop/call instructions and the stack.
//!
//! # Per-lane state (3.6.1, L1079-L1101)
//! A lane is *active* (bit set in `active`), *inactive-break* or *inactive-continue* (bit
//! set in the innermost loop's `Break`/`Continue` cell) or *inactive-branch* (otherwise). A
//! compute lane is valid when it holds a work-item (`Valid` = the launch's active mask); ALU
//! KILL clears valid bits.
//!
//! # Condition test (3.6.4, Table 3.4, L1134-L1161)
//! `test = base & cond`: base is `active`, widened to whole quads under WHOLE_QUAD_MODE
//! (lanes `4k..4k+3` form a quad) and narrowed to `Valid` under VALID_PIXEL_MODE; COND 0
//! ACTIVE passes every base lane, 1 (FALSE) none, 2 BOOL and 3 NOT_BOOL read the boolean
//! constant CF_CONST names. The table's NOT_BOOL row copies BOOL; we use "boolean is zero"
//! (notes §10.8). Compute dispatches never write the boolean constants (Mesa's compute path
//! programs none), so every boolean reads 0: BOOL fails, NOT_BOOL passes.
//!
//! # Stack
//! Frames, pushes and pops: `stack`.
//!
//! # Instructions (Table 3.7 and 3.7.2-3.7.7)
//! - PUSH: if no lane passes, pop POP_COUNT and jump; else push, active = test.
//! - POP: pop POP_COUNT, then active = test of the popped state (3.6.4 pop steps). POP never
//!   jumps (3.7.2 L1247 and ch8; ch9 says it jumps, notes §10.9).
//! - Cayman PUSH_WQM / POP_WQM / ELSE_WQM (Table 3.7 L1207-L1209: "PUSH/Pop/ELSE, then apply
//!   whole quad mode to the active mask"): the plain instruction, then active is widened to
//!   whole quads before its jump test; POP_WQM jumps (without further pops) when no lane is
//!   active after that.
//! - REACTIVATE / REACTIVATE_WQM (Table 3.7 L1211-L1212: "reactivate all valid work-items on
//!   the top of the branch stack") and ALU_REACTIVATE_BEFORE (L8093, before its clause; WQM
//!   when the CF_ALU WHOLE_QUAD_MODE bit is set): the text does not say which lanes are "on
//!   the top of the stack"; we read it as the lanes the top frame saved (all lanes when the
//!   stack is empty), so active = that mask & valid, widened to whole quads for the WQM forms.
//!   No stack change. Loops forbid them ("do not do this inside a loop"); should one run
//!   there, the innermost loop's break and continue lanes stay inactive.
//! - JUMPTABLE (L2784-L2798): if no lane passes COND, continue at ADDR; else jump to the
//!   table entry CF_IDX0/1 selects (JUMPTABLE_SEL 4/5), the CF instruction at `addr + 1 +
//!   index` (the entries, normally `JUMP` with COND FALSE, run as themselves). An index at
//!   or past ADDR is a guest trap. JUMPTABLE_SEL 0-3 read jump-table constants, host state a
//!   compute dispatch does not program: unsupported.
//! - JUMP: if no lane passes the test, pop POP_COUNT and jump (Table 3.7 pops only then;
//!   3.7.2's "first pops" would break LLVM's `JUMP @x POP:1` after ALU_PUSH_BEFORE).
//! - JUMP_ANY (Cayman): pop POP_COUNT, then jump if any lane passes the test; the active
//!   mask is unchanged. Table 3.7's row (L1210) contradicts itself: its jump column copies
//!   JUMP's "if all pixels fail test", its description says "Jump to ADDR unless all pixels
//!   fail the condition test"; we follow the description, which the name agrees with (R5xx's
//!   JUMP_ANY flag also means "jump if any active lane wants to", notes/ctm_map.md).
//! - ELSE: lanes of the mask saved by the top frame ("active as of the last surviving PUSH")
//!   that pass COND swap active and inactive-branch; if none is active, pop POP_COUNT and
//!   jump. 3.7.2 (L1248) says ELSE pops first, but the compilers' if/else only balances the
//!   stack if it pops when it jumps: LLVM (R600ControlFlowFinalizer, ENDIF) and Mesa
//!   (r600_shader.c `tgsi_else`/`tgsi_endif`) both emit `ELSE @past-the-POP POP:1` and then
//!   `POP POP:1`, the same shape as JUMP, whose pops Table 3.7 ties to the jump. COND gates
//!   the swap through its boolean and VALID_PIXEL_MODE only: the active-state part of the
//!   test would make the swap a no-op. An empty stack is an underflow.
//! - LOOP_START/_DX10/_NO_AL: if no lane passes (or a DX9 count is 0), pop POP_COUNT and
//!   jump; else push a loop frame and start the loop: no break/continue lanes, aL = init
//!   (not for NO_AL), count from the integer constant CF_CONST names, which the launch
//!   binds ([`crate::launch::Bindings::loop_consts`]; Mesa writes 0x01000FFF for compute:
//!   count 4095, init 0, step 1). LOOP_END steps aL by its own CF_CONST's step (L1253:
//!   "both instructions specify the DirectX9 integer constant").
//! - LOOP_END: lanes for the next iteration = (active | continue) & !break, passing COND;
//!   DX9/repeat loops also stop when the count reaches 0 ("all pixels fail if loop count is
//!   one"). Iterate: clear continue, aL += step, jump. Exit: pop the loop frame (and any frame
//!   above it) and restore the enclosing loop.
//! - LOOP_BREAK/LOOP_CONTINUE: passing lanes go to inactive-break/-continue; when every lane
//!   that started the iteration is done, jump, popping back to the loop's level (Table 3.7;
//!   POP_COUNT is ignored).
//! - CALL: pop POP_COUNT; if a lane passes and depth + CALL_COUNT <= 32, push a call frame
//!   (the guest pc of the next CF instruction), depth += CALL_COUNT, active = test, jump.
//!   RETURN: pop the call frame, restore its mask and depth, continue after the CALL (an
//!   indirect jump to the saved pc, which may lie in the kernel or the fetch subroutine).
//! - CALL_FS: CALL to CF address ADDR of the fetch subroutine (3.7.6, L1281: "relative to
//!   the address specified in a host-configured register", SQ_PGM_START_FS). A compute
//!   dispatch programs no such register, so the launch supplies the subroutine
//!   ([`super::LiftConfig::fetch_subroutine`]); without one, a CALL_FS that calls ends the
//!   wave with a guest trap. Its RETURN is RETURN (the index's RETURN_FS has no opcode). The
//!   "fetch-program mode" CALL_FS activates is not modelled: the text names no operation it
//!   changes. CALL_FS inside the fetch subroutine is unsupported (only a VS calls one).
//! - No effect: NOP; WAIT_ACK, TC_ACK and VC_ACK (every access completes in order here);
//!   Cayman SET_PRIORITY (scheduling only); Cayman LDS_DEALLOC, which releases the LDS early
//!   (L298, L8029): a program that touches the LDS afterwards reads undefined contents, and
//!   keeping them is one such content.
//! - HALT traps ([`TrapKind::Explicit`]): on hardware the wave waits for the driver to
//!   resume it (L2751), which no launch does.
//! - ALU clauses: ALU_PUSH_BEFORE pushes once before the clause (notes §3.4: the reading
//!   Mesa and LLVM use); the exec-mask update of the clause (see `alu`) is applied after it,
//!   then ALU_POP_AFTER/ALU_POP2_AFTER pop once/twice, ALU_ELSE_AFTER does an ELSE with
//!   POP_COUNT 0 and no jump (3.7.7: "none of the ALU* instructions can jump"), and
//!   ALU_BREAK/ALU_CONTINUE (Evergreen) send the lanes the clause deactivated to
//!   inactive-break/-continue.
//! - CF_END (Cayman) and END_OF_PROGRAM (Evergreen) end the wave after the instruction
//!   (L820: "regardless of whether the instruction is conditionally executed").
use super::depth::{Node, Pushed, Shadow};
use super::stack::KIND_CALL;
use super::state::{Cf, Frame};
use super::{cf_text, LiftError, Lifter};
use crate::inst::{CfAlu, CfInst, CfWord, ClauseBody};
use crate::launch::{LoopConst, LOOP_CONSTS};
use crate::tables::{CfAluOp, CfOp};
use wavejit_ir::{Block, IntCC, Op, ScalarType, Terminator, TrapKind, Value};

use ScalarType::{I1, I32, I64};

/// The subroutine nesting limit (3.7.6).
const MAX_CALL_DEPTH: u32 = 32;

const LOOP_DX9: u32 = 1;
const LOOP_DX10: u32 = 2;
const LOOP_REPEAT: u32 = 3;

impl Lifter<'_> {
    // --- state helpers ---------------------------------------------------------------------

    pub fn get(&mut self, c: Cf, ty: ScalarType) -> Value {
        let r = self.l.cf(c);
        self.b.use_reg(r, ty)
    }

    pub fn set(&mut self, c: Cf, v: Value) {
        let r = self.l.cf(c);
        self.b.def_reg(r, v, None);
    }

    pub fn active(&mut self) -> Value {
        let r = self.l.active();
        self.b.use_reg(r, I64)
    }

    pub fn set_active(&mut self, v: Value) {
        let r = self.l.active();
        self.b.def_reg(r, v, None);
    }

    pub fn and64(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::And, I64, &[a, b])
    }

    pub fn or64(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Or, I64, &[a, b])
    }

    pub fn andn64(&mut self, a: Value, b: Value) -> Value {
        let nb = self.b.op(Op::Not, I64, &[b]);
        self.and64(a, nb)
    }

    pub fn is_zero64(&mut self, v: Value) -> Value {
        let z = self.b.i64(0);
        self.b.op(Op::Icmp(IntCC::Eq), I1, &[v, z])
    }

    /// Break | Continue of the innermost loop.
    pub(super) fn done_lanes(&mut self) -> Value {
        let brk = self.get(Cf::Break, I64);
        let cont = self.get(Cf::Continue, I64);
        self.or64(brk, cont)
    }

    pub fn prologue(&mut self) {
        let act = self.active();
        self.set(Cf::Valid, act);
        let z64 = self.b.i64(0);
        for c in [
            Cf::Break,
            Cf::Continue,
            Cf::Iter,
            Cf::Pred,
            Cf::ExecUpdate,
            Cf::ExecBreak,
            Cf::ExecContinue,
        ] {
            self.set(c, z64);
        }
        let z = self.b.i32(0);
        for c in [
            Cf::LoopIndex,
            Cf::LoopCount,
            Cf::LoopKind,
            Cf::LoopSp,
            Cf::Sp,
            Cf::Sub,
            Cf::CallDepth,
            Cf::ExecUpdated,
            Cf::Idx0,
            Cf::Idx1,
            Cf::ClauseGlobal,
        ] {
            self.set(c, z);
        }
    }

    /// The condition test of a CF_WORD instruction over `base` (Table 3.4).
    fn test_of(&mut self, w: &CfWord, base: Value) -> Value {
        let mut t = base;
        if w.whole_quad_mode {
            t = self.whole_quads(t);
        }
        if w.valid_pixel_mode {
            let v = self.get(Cf::Valid, I64);
            t = self.and64(t, v);
        }
        match w.cond {
            // ACTIVE, NOT_BOOL (the boolean constants read 0).
            0 | 3 => t,
            // FALSE, BOOL.
            _ => self.b.i64(0),
        }
    }

    fn test(&mut self, w: &CfWord) -> Value {
        let a = self.active();
        self.test_of(w, a)
    }

    /// Every lane of a quad that holds a lane of `m`.
    pub fn whole_quads(&mut self, m: Value) -> Value {
        let mut q = m;
        for (sh, keep) in [(1u64, 0x5555_5555_5555_5555u64), (2, 0x3333_3333_3333_3333)] {
            let k = self.b.i64(sh);
            let kk = self.b.i64(keep);
            let down = self.b.op(Op::Lshr, I64, &[q, k]);
            let down = self.and64(down, kk);
            q = self.or64(q, down);
            let low = self.and64(q, kk);
            let up = self.b.op(Op::Shl, I64, &[low, k]);
            q = self.or64(q, up);
        }
        q
    }

    /// If no lane passes `t`: pop POP_COUNT and jump to ADDR (PUSH, JUMP); else continue in a
    /// new block.
    fn jump_if_none(&mut self, t: Value, w: &CfWord) -> Result<(), LiftError> {
        let none = self.is_zero64(t);
        let pc = w.pop_count;
        self.branch_with(none, w.addr, |s| {
            s.pop_n(pc);
            Ok(())
        })
    }

    /// If `cond`: run `taken` (which may split blocks) and jump to `addr`; else continue in
    /// a new block.
    fn branch_with(
        &mut self,
        cond: Value,
        addr: u32,
        taken: impl FnOnce(&mut Self) -> Result<(), LiftError>,
    ) -> Result<(), LiftError> {
        let to = self.target(addr);
        self.branch_to(cond, to, taken)
    }

    /// [`Self::branch_with`] to the block `to`.
    fn branch_to(
        &mut self,
        cond: Value,
        to: Block,
        taken: impl FnOnce(&mut Self) -> Result<(), LiftError>,
    ) -> Result<(), LiftError> {
        let yes = self.b.create_block();
        let no = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond,
            then_to: yes,
            else_to: no,
        });
        self.b.switch_to(yes);
        let shadow = self.shadow.clone();
        taken(self)?;
        self.goto(to);
        self.shadow = shadow;
        self.b.switch_to(no);
        Ok(())
    }

    // --- instructions ----------------------------------------------------------------------

    /// Lifts the CF instruction at `addr` into the current block and ends it; `next` is the
    /// address of the following CF instruction.
    pub fn lift_cf(&mut self, addr: u32, inst: &CfInst, next: u32) -> Result<(), LiftError> {
        let ends = inst.ends_program(self.p.class);
        match inst {
            CfInst::Word(w) => {
                if !self.lift_word(addr, w, next)? {
                    return Ok(());
                }
            }
            CfInst::Alu(a) => self.lift_alu_cf(addr, a)?,
            CfInst::Mem(m) => self.lift_mem(addr, m)?,
        }
        if ends {
            self.b.terminate(Terminator::Return);
        } else {
            let to = self.target(next);
            self.goto(to);
        }
        Ok(())
    }

    /// Returns false when the instruction ended the block itself.
    fn lift_word(&mut self, addr: u32, w: &CfWord, next: u32) -> Result<bool, LiftError> {
        use CfOp::*;
        let text = || cf_text(&CfInst::Word(*w));
        match w.op {
            NOP | WAIT_ACK | TC_ACK | VC_ACK | SET_PRIORITY | LDS_DEALLOC => {}
            TC | VC | GDS => {
                let body = self.clause_body(addr, w.addr, &CfInst::Word(*w))?;
                match body {
                    ClauseBody::Fetch(f) => self.lift_fetch_clause(addr, w, &f)?,
                    ClauseBody::Alu(_) => {
                        return Err(self.invalid(addr, addr, text(), "not a fetch clause"))
                    }
                }
            }
            HALT => {
                // HALT stops the wave until the driver re-enables it by a register write
                // (L2751-L2760); a launch has no driver to do that, so the wave ends with a
                // guest fault instead of waiting forever.
                let why = "HALT: the wavefront halted (only a driver could resume it)";
                self.b
                    .terminate(Terminator::Trap(TrapKind::Explicit(why.into())));
                return Ok(false);
            }
            END => {
                self.b.terminate(Terminator::Return);
                return Ok(false);
            }
            PUSH | PUSH_WQM => {
                let t = self.test(w);
                self.jump_if_none(t, w)?;
                let wqm = w.op == PUSH_WQM;
                let cost = if wqm || w.whole_quad_mode { 4 } else { 1 };
                self.push(Pushed::Push, cost);
                let mut t = self.test(w);
                if wqm {
                    t = self.whole_quads(t);
                }
                self.set_active(t);
            }
            POP => {
                self.pop_n(w.pop_count);
                let t = self.test(w);
                self.set_active(t);
            }
            POP_WQM => {
                self.pop_n(w.pop_count);
                let t = self.test(w);
                let t = self.whole_quads(t);
                self.set_active(t);
                let none = self.is_zero64(t);
                self.branch_with(none, w.addr, |_| Ok(()))?;
            }
            JUMP => {
                let t = self.test(w);
                self.jump_if_none(t, w)?;
            }
            JUMP_ANY => {
                self.pop_n(w.pop_count);
                let t = self.test(w);
                let any = self.is_zero64(t);
                let any = self.b.op(Op::Not, I1, &[any]);
                self.branch_with(any, w.addr, |_| Ok(()))?;
            }
            ELSE | ELSE_WQM => {
                self.else_op(w.valid_pixel_mode, w.cond);
                let mut act = self.active();
                if w.op == ELSE_WQM {
                    act = self.whole_quads(act);
                    self.set_active(act);
                }
                let none = self.is_zero64(act);
                let pc = w.pop_count;
                self.branch_with(none, w.addr, |s| {
                    s.pop_n(pc);
                    Ok(())
                })?;
            }
            LOOP_START | LOOP_START_DX10 | LOOP_START_NO_AL => self.loop_start(w)?,
            LOOP_END => self.loop_end(w),
            LOOP_BREAK | LOOP_CONTINUE => {
                let t = self.test(w);
                let which = if w.op == LOOP_BREAK {
                    Cf::Break
                } else {
                    Cf::Continue
                };
                let old = self.get(which, I64);
                let new = self.or64(old, t);
                self.set(which, new);
                let act = self.active();
                let act = self.andn64(act, t);
                self.set_active(act);
                let iter = self.get(Cf::Iter, I64);
                let done = self.done_lanes();
                let left = self.andn64(iter, done);
                let all_done = self.is_zero64(left);
                self.branch_with(all_done, w.addr, |s| {
                    s.unwind_to_loop();
                    Ok(())
                })?;
            }
            CALL => {
                let to = self.target(w.addr);
                self.call(w, next, to)?;
            }
            CALL_FS => {
                let to = self.fetch_subroutine(addr, w)?;
                self.call(w, next, to)?;
            }
            RETURN => {
                self.lift_return();
                return Ok(false);
            }
            REACTIVATE | REACTIVATE_WQM => self.reactivate(w.op == REACTIVATE_WQM),
            JUMPTABLE => {
                self.jumptable(addr, w)?;
                return Ok(false);
            }
            _ => {
                return Err(self.unsupported(addr, addr, text(), "CF instruction not lifted"));
            }
        }
        Ok(true)
    }

    /// CALL/CALL_FS to the block `to`: pop POP_COUNT; if a lane passes and the depth
    /// allows, push a call frame returning to `next` and jump.
    fn call(&mut self, w: &CfWord, next: u32, to: Block) -> Result<(), LiftError> {
        self.pop_n(w.pop_count);
        let t = self.test(w);
        let any = self.is_zero64(t);
        let any = self.b.op(Op::Not, I1, &[any]);
        let depth = self.get(Cf::CallDepth, I32);
        let cnt = self.b.i32(u32::from(w.count));
        let nd = self.b.op(Op::Iadd, I32, &[depth, cnt]);
        let lim = self.b.i32(MAX_CALL_DEPTH);
        let ok = self.b.op(Op::Icmp(IntCC::Ule), I1, &[nd, lim]);
        let go = self.b.op(Op::And, I1, &[any, ok]);
        let ret = Node {
            in_fs: self.in_fs,
            addr: next,
        };
        if self.node_block(ret).is_some() {
            self.flow.ret_sites.push(ret);
        }
        let (wc, count) = (*w, w.count);
        self.branch_to(go, to, move |s| {
            s.push(Pushed::Call(ret), 1);
            let depth = s.get(Cf::CallDepth, I32);
            let cnt = s.b.i32(u32::from(count));
            let nd = s.b.op(Op::Iadd, I32, &[depth, cnt]);
            s.set(Cf::CallDepth, nd);
            let t = s.test(&wc);
            s.set_active(t);
            Ok(())
        })
    }

    /// The block CALL_FS at `addr` jumps to: CF address ADDR of the launch's fetch
    /// subroutine, or a guest trap when the launch supplies none.
    fn fetch_subroutine(&mut self, addr: u32, w: &CfWord) -> Result<Block, LiftError> {
        if self.in_fs {
            let why = "CALL_FS inside the fetch subroutine (only a vertex shader calls one)";
            return Err(self.unsupported(addr, addr, cf_text(&CfInst::Word(*w)), why));
        }
        let to = self
            .other
            .as_ref()
            .map(|fs| fs.blocks.get(&w.addr).copied());
        Ok(match to {
            Some(Some(blk)) => blk,
            Some(None) => self.trap_block(TrapKind::BadJump),
            None => {
                let why = "CALL_FS: the launch supplies no fetch subroutine (SQ_PGM_START_FS)";
                self.trap_block(TrapKind::Explicit(why.into()))
            }
        })
    }

    /// REACTIVATE(_WQM): active = the valid lanes of the mask the top frame saved (all valid
    /// lanes when the stack is empty), widened to whole quads if `wqm`, minus the innermost
    /// loop's done lanes.
    fn reactivate(&mut self, wqm: bool) {
        let sp = self.get(Cf::Sp, I32);
        let z = self.b.i32(0);
        let empty = self.b.op(Op::Icmp(IntCC::Eq), I1, &[sp, z]);
        let one = self.b.i32(1);
        let below = self.b.op(Op::Isub, I32, &[sp, one]);
        let top = self.b.op(Op::Select, I32, &[empty, z, below]);
        let idx = self.frame_index(top);
        let saved = self.frame_read(idx, Frame::Mask, I64);
        let valid = self.get(Cf::Valid, I64);
        let m = self.b.op(Op::Select, I64, &[empty, valid, saved]);
        let mut m = self.and64(m, valid);
        if wqm {
            m = self.whole_quads(m);
        }
        let done = self.done_lanes();
        let act = self.andn64(m, done);
        self.set_active(act);
    }

    /// JUMPTABLE at `addr` (ends the block): if no lane passes the test, continue at ADDR;
    /// else jump to table entry CF_IDX0/1 (JUMPTABLE_SEL 4/5), the CF instruction at
    /// `addr + 1 + index`. An index past the table (entries up to ADDR) is a guest trap.
    fn jumptable(&mut self, addr: u32, w: &CfWord) -> Result<(), LiftError> {
        let text = || cf_text(&CfInst::Word(*w));
        let cell = match w.jumptable_sel {
            4 => Cf::Idx0,
            5 => Cf::Idx1,
            0..=3 => {
                let why = "JUMPTABLE_SEL CONST_A-D (jump-table constants: host state no compute \
                           dispatch programs)";
                return Err(self.unsupported(addr, addr, text(), why));
            }
            _ => return Err(self.invalid(addr, addr, text(), "reserved JUMPTABLE_SEL")),
        };
        if w.addr <= addr {
            return Err(self.invalid(addr, addr, text(), "ADDR not after the table"));
        }
        let entries = w.addr - addr - 1;
        let t = self.test(w);
        let none = self.is_zero64(t);
        self.branch_with(none, w.addr, |_| Ok(()))?;
        let idx = self.get(cell, I32);
        let n = self.b.i32(entries);
        let past = self.b.op(Op::Icmp(IntCC::Uge), I1, &[idx, n]);
        let why = format!(
            "{}: the CF index is past the table's {entries} entries",
            text()
        );
        self.check(past, TrapKind::Explicit(why));
        let idx = self.get(cell, I32);
        let idx = self.b.op(Op::Zext, I64, &[idx]);
        let eight = self.b.i64(8);
        let off = self.b.op(Op::Imul, I64, &[idx, eight]);
        let first = self.b.i64(self.base + 8 * u64::from(addr + 1));
        let pc = self.b.op(Op::Iadd, I64, &[first, off]);
        for entry in addr + 1..w.addr {
            let n = Node {
                in_fs: self.in_fs,
                addr: entry,
            };
            if let Some(blk) = self.node_block(n) {
                self.reach(blk);
            }
        }
        self.b.terminate(Terminator::JumpIndirect(pc));
        Ok(())
    }

    /// ELSE after its pops: swap active and inactive-branch lanes of the top frame's mask.
    fn else_op(&mut self, vpm: bool, cond: u8) {
        let top = self.below_top(Cf::Sp);
        let idx = self.frame_index(top);
        let saved = self.frame_read(idx, Frame::Mask, I64);
        let mut gate = saved;
        if vpm {
            let v = self.get(Cf::Valid, I64);
            gate = self.and64(gate, v);
        }
        if cond == 1 || cond == 2 {
            gate = self.b.i64(0);
        }
        let act = self.active();
        let done = self.done_lanes();
        let inactive = self.andn64(saved, act);
        let flipped = self.andn64(inactive, done);
        let flipped = self.and64(flipped, gate);
        let kept = self.andn64(act, gate);
        let new = self.or64(flipped, kept);
        self.set_active(new);
    }

    /// The loop constant `w`'s CF_CONST names.
    fn loop_const(&self, w: &CfWord) -> LoopConst {
        self.bind.loop_consts[usize::from(w.cf_const) % LOOP_CONSTS]
    }

    fn loop_start(&mut self, w: &CfWord) -> Result<(), LiftError> {
        let kind = match w.op {
            CfOp::LOOP_START => LOOP_DX9,
            CfOp::LOOP_START_DX10 => LOOP_DX10,
            _ => LOOP_REPEAT,
        };
        let lc = self.loop_const(w);
        let count = lc.count;
        let t = self.test(w);
        let none = if kind != LOOP_DX10 && count == 0 {
            self.b.bool(true)
        } else {
            self.is_zero64(t)
        };
        let pc = w.pop_count;
        self.branch_with(none, w.addr, |s| {
            s.pop_n(pc);
            Ok(())
        })?;
        self.push(Pushed::Loop, 4);
        self.shadow.enter_loop();
        let t = self.test(w);
        self.set_active(t);
        self.set(Cf::Iter, t);
        let z = self.b.i64(0);
        self.set(Cf::Break, z);
        self.set(Cf::Continue, z);
        if kind != LOOP_REPEAT {
            let init = self.b.i32(lc.init);
            self.set(Cf::LoopIndex, init);
        }
        let c = self.b.i32(count);
        self.set(Cf::LoopCount, c);
        let k = self.b.i32(kind);
        self.set(Cf::LoopKind, k);
        let sp = self.get(Cf::Sp, I32);
        self.set(Cf::LoopSp, sp);
        Ok(())
    }

    fn loop_end(&mut self, w: &CfWord) {
        let act = self.active();
        let cont = self.get(Cf::Continue, I64);
        let brk = self.get(Cf::Break, I64);
        let lanes = self.or64(act, cont);
        let lanes = self.andn64(lanes, brk);
        let next = self.test_of(w, lanes);
        // The DX9 and repeat loop count (the DX10 loop has none).
        let kind = self.get(Cf::LoopKind, I32);
        let dx10 = self.b.i32(LOOP_DX10);
        let counted = self.b.op(Op::Icmp(IntCC::Ne), I1, &[kind, dx10]);
        let count = self.get(Cf::LoopCount, I32);
        let one = self.b.i32(1);
        let count = self.b.op(Op::Isub, I32, &[count, one]);
        self.set(Cf::LoopCount, count);
        let z = self.b.i32(0);
        let out_of_count = self.b.op(Op::Icmp(IntCC::Eq), I1, &[count, z]);
        let out_of_count = self.b.op(Op::And, I1, &[counted, out_of_count]);
        let none = self.is_zero64(next);
        let exit = self.b.op(Op::Or, I1, &[none, out_of_count]);
        // The next iteration's state, selected so that the exit keeps the current one: the
        // loop's back edge is then a branch straight to its first CF instruction, with no
        // block of its own.
        let iter = self.get(Cf::Iter, I64);
        let z = self.b.i64(0);
        let ai = self.get(Cf::LoopIndex, I32);
        let step = self.b.i32(self.loop_const(w).step);
        let ai_next = self.b.op(Op::Iadd, I32, &[ai, step]);
        for (c, ty, cur, new) in [
            (Cf::Iter, I64, iter, next),
            (Cf::Continue, I64, cont, z),
            (Cf::LoopIndex, I32, ai, ai_next),
        ] {
            let v = self.b.op(Op::Select, ty, &[exit, cur, new]);
            self.set(c, v);
        }
        let v = self.b.op(Op::Select, I64, &[exit, act, next]);
        self.set_active(v);
        let to = self.target(w.addr);
        self.reach(to);
        let leave = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond: exit,
            then_to: leave,
            else_to: to,
        });
        // Exit: pop the loop frame (and anything above it).
        self.b.switch_to(leave);
        let sp = self.below_top(Cf::LoopSp);
        self.shadow.leave_loop();
        self.set(Cf::Sp, sp);
        self.restore_frame(sp);
    }

    /// LOOP_BREAK/CONTINUE jump: the stack back to the loop's level (Table 3.7); outside a
    /// loop an underflow.
    fn unwind_to_loop(&mut self) {
        let lf = self.below_top(Cf::LoopSp);
        self.shadow.unwind_to_loop();
        let lsp = self.get(Cf::LoopSp, I32);
        self.set(Cf::Sp, lsp);
        let idx = self.frame_index(lf);
        let before = self.frame_read(idx, Frame::SubBefore, I32);
        let four = self.b.i32(4);
        let sub = self.b.op(Op::Iadd, I32, &[before, four]);
        self.set(Cf::Sub, sub);
        let z = self.b.i64(0);
        self.set_active(z);
    }

    fn lift_return(&mut self) {
        let top = self.below_top(Cf::Sp);
        if self.shadow.top_is_call_check() {
            let idx = self.frame_index(top);
            let kind = self.frame_read(idx, Frame::Kind, I32);
            let kc = self.b.i32(KIND_CALL);
            let not_call = self.b.op(Op::Icmp(IntCC::Ne), I1, &[kind, kc]);
            self.check(not_call, TrapKind::StackUnderflow);
        }
        match self.shadow.ret() {
            Some(n) => {
                if let Some(blk) = self.node_block(n) {
                    self.reach(blk);
                }
            }
            None => self.flow.unknown_return |= self.shadow == Shadow::Unknown,
        }
        let sp = self.get(Cf::Sp, I32);
        let one = self.b.i32(1);
        let top = self.b.op(Op::Isub, I32, &[sp, one]);
        self.set(Cf::Sp, top);
        let idx = self.frame_index(top);
        let sub = self.frame_read(idx, Frame::SubBefore, I32);
        self.set(Cf::Sub, sub);
        let d = self.frame_read(idx, Frame::CallDepth, I32);
        self.set(Cf::CallDepth, d);
        let mask = self.frame_read(idx, Frame::Mask, I64);
        let done = self.done_lanes();
        let act = self.andn64(mask, done);
        self.set_active(act);
        let pc = self.frame_read(idx, Frame::Return, I64);
        self.b.terminate(Terminator::JumpIndirect(pc));
    }

    fn lift_alu_cf(&mut self, addr: u32, a: &CfAlu) -> Result<(), LiftError> {
        use CfAluOp::*;
        let inst = CfInst::Alu(*a);
        let groups = match self.clause_body(addr, a.addr, &inst)? {
            ClauseBody::Alu(g) => g,
            ClauseBody::Fetch(_) => {
                return Err(self.invalid(addr, addr, cf_text(&inst), "not an ALU clause"))
            }
        };
        match a.op {
            ALU
            | ALU_PUSH_BEFORE
            | ALU_POP_AFTER
            | ALU_POP2_AFTER
            | ALU_ELSE_AFTER
            | ALU_CONTINUE
            | ALU_BREAK
            | ALU_EXTENDED
            | ALU_REACTIVATE_BEFORE => {}
            _ => {
                return Err(self.unsupported(
                    addr,
                    addr,
                    cf_text(&inst),
                    "CF_ALU variant not lifted",
                ))
            }
        }
        self.lock_kcache_banks(addr, a)?;
        if a.op == ALU_PUSH_BEFORE {
            self.push(Pushed::Push, 1);
        }
        if a.op == ALU_REACTIVATE_BEFORE {
            self.reactivate(a.whole_quad_mode);
        }
        self.lift_alu_clause(addr, a, &groups)?;
        self.apply_exec_update(a.op == ALU_BREAK, a.op == ALU_CONTINUE);
        match a.op {
            ALU_POP_AFTER => self.pop_n(1),
            ALU_POP2_AFTER => self.pop_n(2),
            ALU_ELSE_AFTER => self.else_op(false, 0),
            _ => {}
        }
        Ok(())
    }

    /// Applies the clause's exec-mask update at its end (3.6.3: "changes to the active mask
    /// from the ALU take effect at the beginning of the next CF instruction").
    fn apply_exec_update(&mut self, to_break: bool, to_continue: bool) {
        let updated = self.get(Cf::ExecUpdated, I32);
        let z = self.b.i32(0);
        let updated = self.b.op(Op::Icmp(IntCC::Ne), I1, &[updated, z]);
        let act = self.active();
        let upd = self.get(Cf::ExecUpdate, I64);
        let new = self.b.op(Op::Select, I64, &[updated, upd, act]);
        let dropped = self.andn64(act, new);
        self.set_active(new);
        let eb = self.get(Cf::ExecBreak, I64);
        let ec = self.get(Cf::ExecContinue, I64);
        let (eb, ec) = match (to_break, to_continue) {
            (true, _) => (self.or64(eb, dropped), ec),
            (_, true) => (eb, self.or64(ec, dropped)),
            _ => (eb, ec),
        };
        let brk = self.get(Cf::Break, I64);
        let brk = self.or64(brk, eb);
        self.set(Cf::Break, brk);
        let cont = self.get(Cf::Continue, I64);
        let cont = self.or64(cont, ec);
        self.set(Cf::Continue, cont);
    }

    /// The clause body at `at`.
    pub fn clause_body(&self, cf: u32, at: u32, inst: &CfInst) -> Result<ClauseBody, LiftError> {
        self.p
            .clauses
            .iter()
            .find(|c| c.addr == at)
            .map(|c| c.body.clone())
            .ok_or_else(|| self.invalid(cf, cf, cf_text(inst), "no clause at its address"))
    }
}
