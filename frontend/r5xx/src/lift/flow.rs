//! Flow control (seed 003 §3.5, lines 1088-1304; the state machine of ctm_map.md §5) as
//! mask arithmetic under uniform IR control flow: the group's pc is the IR's, every
//! per-processor bit is data, and a flow-control slot ends its block with a uniform branch on
//! the group's decision (its `ballot`s over the lanes).
//!
//! # State (`super::state`)
//! A running processor (an `ALIVE` lane) is *active*, *loop-inactive* (in the innermost
//! loop frame's BREAK or CONTINUE mask, or an outer frame's: the loop stack frames hold these
//! "processor masks", §3.5.2) or else *branch-inactive* with its branch counter `bcnt`. The
//! ALU result bit is read by the slot and then cleared: it is "NOT preserved across flow
//! control instructions" (§3.3.10), so a flow-control slot with no ALU_WMASK write since the
//! previous one reads 0.
//!
//! # One flow-control slot
//! 1. ENDLOOP/ENDREP first reactivate the processors CONTINUE disabled in their loop (CONTINUE
//!    disables "until end of current loop"; done before the vote so that a loop whose
//!    processors all continued goes on). B_ELSE then activates the branch-inactive processors
//!    whose counter is 0 and deactivates the active ones (counter 0).
//! 2. Each active processor *wants* to jump when JUMP_FUNC's bit
//!    `(alu_result << 2) | (predicate << 1) | boolean` is set; the predicate is the replicated
//!    bit RGB_PRED_SEL names (inverted by RGB_PRED_INV; NONE gives 0), the boolean is boolean
//!    constant BOOL_ADDR; processors B_ELSE deactivated want to jump. The voters are the active
//!    processors and those B_ELSE deactivated, without the uncovered ones when
//!    IGNORE_UNCOVERED is set (which still follow their own want below).
//! 3. The group jumps, with JUMP_ANY, when some voter wants to (never with no voter); without,
//!    when every voter wants to (always with no voter). LOOP and REP with an iteration count
//!    of 0 jump whatever the vote; ENDLOOP and ENDREP count one iteration down and do not
//!    jump when that leaves 0 (see "Loops"). A BREAK or CONTINUE does not jump while a
//!    voter branch-disabled inside the current loop exists: one whose counter is below
//!    B_POP_CNT, the number of conditional blocks the statement is inside within its loop
//!    (§3.5.4 note); nor a BREAK while a voter is CONTINUE-disabled in the loop (§3.5.3
//!    special cases). A processor branch-disabled outside the loop does not hold the group
//!    back: the jump's `DECR n` gives it back its counter from before the loop. (The seed's
//!    sentence names every processor "deactivated by a branching statement"; read literally,
//!    B_POP_CNT on a BREAK could never matter, so the loop-local reading is the one that fits
//!    the encodings of §3.5.4. Both agree on every well-formed program's results.)
//! 4. BREAKLOOP/BREAKREP and CONTINUE move the active processors that want to jump into the
//!    innermost frame's BREAK or CONTINUE mask (they "mask off passing processors").
//! 5. Then, jumping: B_OP1, the loop operation's jump part, A_OP, and the pc becomes
//!    JUMP_ADDR (or, with A_OP POP, the popped address); staying: B_OP0 and the loop
//!    operation's stay part, and the pc goes on. The address stack changes only on a jump.
//!    - INCR: branch-inactive processors count up by 1; active processors that disagree with
//!      the decision (wanted the other way) become branch-inactive with counter 0. A counter
//!      past its limit (3 in partial mode, 31 in full mode, §3.5.2) is a guest fault.
//!    - DECR: branch-inactive processors count down by B_POP_CNT; those below 0 become
//!      active.
//!    - A_OP PUSH pushes the slot after this one; POP pops the address to continue at.
//!
//! # Loops (a frame: iterations left, aL, aL step, BREAK mask, CONTINUE mask)
//! - LOOP reads integer constant INT_ADDR: R iterations, aL from G, step B. Staying, it
//!   pushes a frame (R, G, B); REP pushes (R, the current aL, 0), so an inner REP sees the
//!   outer loop's aL (§3.5.2); outside every loop aL is 0.
//! - ENDLOOP/ENDREP: iterations left − 1; jumping (back to the body), aL += step; staying,
//!   pop. The seed contradicts itself here (r5xx_sources.md §3): the CTM Guide says "increment
//!   counter and aL if jump" and "when the iteration count is zero, ENDLOOP ... don't jump";
//!   the R5xx register reference says ENDLOOP decrements the counter and does not jump when it
//!   becomes zero. Both read as "the body runs R times" when the count is the iterations
//!   left; this lifter keeps the iterations left and counts down, so LOOP with R = n runs the
//!   body n times (n = 0: never, LOOP jumps past), aL taking G, G + B, ... .
//! - BREAKLOOP/BREAKREP jumping pop the frame. A pop reactivates the frame's BREAK and
//!   CONTINUE processors.
//! - A fifth frame or address, and a pop or loop operation with an empty stack, are guest
//!   faults (the hardware's are undefined, §3.5.2). An endless loop ends on the fuel.
//!
//! Partial flow-control mode (US_FC_CTRL bit 31 clear) has no loops or subroutines: the
//! lifter refuses loop operations and A_OP PUSH/POP there.

mod stacks;

use super::state::{frame, mask, STACK_DEPTH};
use super::{LiftError, Lifter};
use crate::inst::{Body, Fc, Inst};
use crate::setup::Setup;
use crate::table::{AOp, BOp, FcOp, PredSel};
use wavejit_ir::{IntCC, Op, ScalarType, Terminator, TrapKind, Value};

use ScalarType::{I1, I32, I64};

/// The slots a block starts at besides the first: the slot after each flow-control slot
/// and each jump target inside the program.
pub(super) fn block_starts(setup: &Setup) -> Vec<u32> {
    let (start, end) = (setup.info.start, setup.info.end);
    let mut v = Vec::new();
    for pc in start..=end {
        if let Body::Fc(f) = &setup.program[pc as usize].body {
            if pc < end {
                v.push(pc + 1);
            }
            let t = u32::from(f.jump_addr);
            if (start..=end).contains(&t) {
                v.push(t);
            }
        }
    }
    v
}

fn is_loop_end(op: FcOp) -> bool {
    matches!(op, FcOp::EndLoop | FcOp::EndRep)
}

fn is_break(op: FcOp) -> bool {
    matches!(op, FcOp::BreakLoop | FcOp::BreakRep)
}

impl Lifter<'_> {
    fn check_fc(&self, inst: &Inst, f: &Fc) -> Result<(), LiftError> {
        if !f.a_op.defined() || !f.b_op0.defined() || !f.b_op1.defined() {
            return Err(self.invalid("A_OP 3 and B_OP 3 have no documented meaning"));
        }
        match inst.cmn.rgb_pred.sel {
            PredSel::Rgba | PredSel::Sel6 | PredSel::Sel7 => {
                return Err(self
                    .invalid("flow-control predication must replicate one predicate bit (§3.5.1)"))
            }
            _ => {}
        }
        if !self.setup.info.full_fc && (f.op != FcOp::Jump || f.a_op != AOp::None) {
            return Err(self.invalid(
                "partial flow-control mode (US_FC_CTRL bit 31 clear) has no loops or subroutines",
            ));
        }
        Ok(())
    }

    /// The largest branch counter.
    fn counter_limit(&self) -> u32 {
        if self.setup.info.full_fc {
            31
        } else {
            3
        }
    }

    /// Lifts a flow-control slot (ends the current block).
    pub(super) fn lift_fc(&mut self, inst: &Inst, f: &Fc) -> Result<(), LiftError> {
        self.check_fc(inst, f)?;
        let op = f.op;
        if is_loop_end(op) || is_break(op) || op == FcOp::Continue {
            let depth = self.b.use_reg(self.l.loop_depth(), I32);
            let zero = self.b.i32(0);
            let ok = self.b.op(Op::Icmp(IntCC::Ne), I1, &[depth, zero]);
            self.trap_unless(
                ok,
                format!("{} with an empty loop stack", op.asm().to_uppercase()),
            );
        }
        let decision = self.decide(inst, f)?;
        let jump = self.b.create_block();
        let stay = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond: decision,
            then_to: jump,
            else_to: stay,
        });
        self.b.switch_to(jump);
        self.jump_path(f)?;
        self.b.switch_to(stay);
        self.stay_path(f)
    }

    /// Steps 1-4 of the module doc; the decision (uniform `i1`). Leaves the processors that
    /// want to jump in the `fc` scratch.
    fn decide(&mut self, inst: &Inst, f: &Fc) -> Result<Value, LiftError> {
        let l = self.l;
        let alu = self.b.use_reg(l.alu_result(), I32);
        let zero32 = self.b.i32(0);
        self.b.def_reg(l.alu_result(), zero32, None);
        let mut active = self.mask_bits(mask::ACTIVE);
        if is_loop_end(f.op) {
            let cont = self.b.use_reg(l.loop_frame(0, frame::CONTINUE), I64);
            active = self.b.op(Op::Or, I64, &[active, cont]);
            let zero = self.b.i64(0);
            self.b.def_reg(l.loop_frame(0, frame::CONTINUE), zero, None);
        }
        let alive = self.mask_bits(mask::ALIVE);
        let covered = self.mask_bits(mask::COVERED);
        let mut branch_off = self.branch_inactive(active, alive);
        let bcnt = self.b.use_reg(l.branch_counter(), I32);
        let mut else_off = self.b.i64(0);
        if f.b_else {
            let at_zero = self.b.op(Op::Icmp(IntCC::Eq), I1, &[bcnt, zero32]);
            let at_zero = self.b.ballot(at_zero);
            let wake = self.b.op(Op::And, I64, &[branch_off, at_zero]);
            else_off = active;
            let lanes = self.b.mask_from_bits(else_off);
            self.b.def_reg(l.branch_counter(), zero32, Some(lanes));
            let not_wake = self.b.op(Op::Not, I64, &[wake]);
            branch_off = self.b.op(Op::And, I64, &[branch_off, not_wake]);
            branch_off = self.b.op(Op::Or, I64, &[branch_off, else_off]);
            active = wake;
        }
        let want_lanes = self.want(inst, f, alu)?;
        let want = self.b.ballot(want_lanes);
        let want = self.b.op(Op::And, I64, &[want, active]);
        let want = self.b.op(Op::Or, I64, &[want, else_off]);
        self.b.def_reg(l.fc_want(), want, None);
        let mut voters = self.b.op(Op::Or, I64, &[active, else_off]);
        if f.ignore_uncovered {
            voters = self.b.op(Op::And, I64, &[voters, covered]);
        }
        let zero = self.b.i64(0);
        let mut decision = if f.jump_any {
            let v = self.b.op(Op::And, I64, &[voters, want]);
            self.b.op(Op::Icmp(IntCC::Ne), I1, &[v, zero])
        } else {
            let not_want = self.b.op(Op::Not, I64, &[want]);
            let v = self.b.op(Op::And, I64, &[voters, not_want]);
            self.b.op(Op::Icmp(IntCC::Eq), I1, &[v, zero])
        };
        match f.op {
            FcOp::Loop | FcOp::Rep => {
                let (count, ..) = self.int_constant(f.int_addr)?;
                let none = self.b.op(Op::Icmp(IntCC::Eq), I1, &[count, zero32]);
                decision = self.b.op(Op::Or, I1, &[decision, none]);
            }
            FcOp::EndLoop | FcOp::EndRep => {
                let left = self.b.use_reg(l.loop_frame(0, frame::COUNT), I32);
                let one = self.b.i32(1);
                let more = self.b.op(Op::Icmp(IntCC::Ugt), I1, &[left, one]);
                decision = self.b.op(Op::And, I1, &[decision, more]);
            }
            FcOp::BreakLoop | FcOp::BreakRep | FcOp::Continue => {
                // Voters branch-disabled inside the loop (counter below B_POP_CNT).
                let n = self.b.i32(u32::from(f.b_pop_cnt));
                let inside = self.b.op(Op::Icmp(IntCC::Slt), I1, &[bcnt, n]);
                let inside = self.b.ballot(inside);
                let inside = self.b.op(Op::And, I64, &[inside, branch_off]);
                let mut holds = inside;
                if is_break(f.op) {
                    let cont = self.b.use_reg(l.loop_frame(0, frame::CONTINUE), I64);
                    holds = self.b.op(Op::Or, I64, &[holds, cont]);
                }
                let mut held = self.b.op(Op::And, I64, &[holds, alive]);
                if f.ignore_uncovered {
                    held = self.b.op(Op::And, I64, &[held, covered]);
                }
                let free = self.b.op(Op::Icmp(IntCC::Eq), I1, &[held, zero]);
                decision = self.b.op(Op::And, I1, &[decision, free]);
                // The processors that want to jump leave until the loop (iteration) ends.
                let cell = if f.op == FcOp::Continue {
                    frame::CONTINUE
                } else {
                    frame::BREAK
                };
                let leaving = self.b.op(Op::And, I64, &[want, active]);
                let old = self.b.use_reg(l.loop_frame(0, cell), I64);
                let new = self.b.op(Op::Or, I64, &[old, leaving]);
                self.b.def_reg(l.loop_frame(0, cell), new, None);
                let stay = self.b.op(Op::Not, I64, &[leaving]);
                active = self.b.op(Op::And, I64, &[active, stay]);
            }
            FcOp::Jump => {}
        }
        self.set_mask_bits(mask::ACTIVE, active);
        Ok(decision)
    }

    /// The branch-inactive lanes: alive, not active, in no loop frame's masks.
    fn branch_inactive(&mut self, active: Value, alive: Value) -> Value {
        let mut off = active;
        for k in 0..STACK_DEPTH {
            for cell in [frame::BREAK, frame::CONTINUE] {
                let m = self.b.use_reg(self.l.loop_frame(k, cell), I64);
                off = self.b.op(Op::Or, I64, &[off, m]);
            }
        }
        let not = self.b.op(Op::Not, I64, &[off]);
        self.b.op(Op::And, I64, &[alive, not])
    }

    /// Whether each processor wants to jump (`lane i1`) by JUMP_FUNC, bit
    /// `(alu_result << 2) | (predicate << 1) | boolean` of the table. The table is a constant
    /// and the boolean uniform, so it is lifted as a sum of products over the lane bits, not
    /// as a per-lane shift (which no host has as a vector instruction).
    fn want(&mut self, inst: &Inst, f: &Fc, alu: Value) -> Result<Value, LiftError> {
        let jf = u32::from(f.jump_func);
        if jf == 0 || jf == 0xff {
            let v = self.b.bool(jf != 0);
            return Ok(self.b.splat(v));
        }
        let pred = match inst.cmn.rgb_pred.sel {
            PredSel::None => None,
            _ => Some(
                self.predicate(inst.cmn.rgb_pred, 0)?
                    .expect("a replicate select"),
            ),
        };
        // The boolean matters when the odd and even bits of JUMP_FUNC differ.
        let boolean = if (jf & 0x55) << 1 != jf & 0xaa {
            Some(self.bool_constant(f.bool_addr)?)
        } else {
            None
        };
        let zero = self.b.i32(0);
        let alu = self.b.op(Op::Icmp(IntCC::Ne), I1, &[alu, zero]);
        let mut want: Option<Value> = None;
        for a in 0..2u32 {
            for p in 0..2u32 {
                if p == 1 && pred.is_none() {
                    continue;
                }
                let bit = |b: u32| jf >> (a << 2 | p << 1 | b) & 1 != 0;
                // The term's uniform factor: the table's two entries over the boolean.
                let factor = match (bit(0), bit(1)) {
                    (false, false) => continue,
                    (true, true) => None,
                    (false, true) => boolean,
                    (true, false) => boolean.map(|v| self.b.op(Op::Not, I1, &[v])),
                };
                let mut term = if a == 1 {
                    alu
                } else {
                    self.b.op(Op::Not, I1, &[alu])
                };
                if let Some(pv) = pred {
                    let pv = if p == 1 {
                        pv
                    } else {
                        self.b.op(Op::Not, I1, &[pv])
                    };
                    term = self.b.op(Op::And, I1, &[term, pv]);
                }
                if let Some(v) = factor {
                    term = self.b.op(Op::And, I1, &[term, v]);
                }
                want = Some(match want {
                    Some(w) => self.b.op(Op::Or, I1, &[w, term]),
                    None => term,
                });
            }
        }
        Ok(want.unwrap_or_else(|| {
            let v = self.b.bool(false);
            self.b.splat(v)
        }))
    }

    /// Traps when an INCR would take a branch-inactive counter past its limit.
    fn check_incr(&mut self, bop: BOp) {
        if bop != BOp::Incr {
            return;
        }
        let active = self.mask_bits(mask::ACTIVE);
        let alive = self.mask_bits(mask::ALIVE);
        let off = self.branch_inactive(active, alive);
        let bcnt = self.b.use_reg(self.l.branch_counter(), I32);
        let limit = self.b.i32(self.counter_limit());
        let full = self.b.op(Op::Icmp(IntCC::Sge), I1, &[bcnt, limit]);
        let full = self.b.ballot(full);
        let full = self.b.op(Op::And, I64, &[full, off]);
        let zero = self.b.i64(0);
        let ok = self.b.op(Op::Icmp(IntCC::Eq), I1, &[full, zero]);
        let limit = self.counter_limit();
        self.trap_unless(
            ok,
            format!(
                "branch counter overflow: more than {} nested conditional blocks",
                limit + 1
            ),
        );
    }

    /// Applies a branch-counter operation; `jumped` says which way the group went.
    fn branch_op(&mut self, bop: BOp, pop_cnt: u8, jumped: bool) {
        let l = self.l;
        let active = self.mask_bits(mask::ACTIVE);
        let alive = self.mask_bits(mask::ALIVE);
        let off = self.branch_inactive(active, alive);
        let off_lanes = self.b.mask_from_bits(off);
        let bcnt = self.b.use_reg(l.branch_counter(), I32);
        match bop {
            BOp::Incr => {
                let one = self.b.i32(1);
                let up = self.b.op(Op::Iadd, I32, &[bcnt, one]);
                self.b.def_reg(l.branch_counter(), up, Some(off_lanes));
                let want = self.b.use_reg(l.fc_want(), I64);
                let against = if jumped {
                    self.b.op(Op::Not, I64, &[want])
                } else {
                    want
                };
                let disagree = self.b.op(Op::And, I64, &[active, against]);
                let lanes = self.b.mask_from_bits(disagree);
                let zero = self.b.i32(0);
                self.b.def_reg(l.branch_counter(), zero, Some(lanes));
                let keep = self.b.op(Op::Not, I64, &[disagree]);
                let active = self.b.op(Op::And, I64, &[active, keep]);
                self.set_mask_bits(mask::ACTIVE, active);
            }
            BOp::Decr => {
                let n = self.b.i32(u32::from(pop_cnt));
                let down = self.b.op(Op::Isub, I32, &[bcnt, n]);
                self.b.def_reg(l.branch_counter(), down, Some(off_lanes));
                let zero = self.b.i32(0);
                let neg = self.b.op(Op::Icmp(IntCC::Slt), I1, &[down, zero]);
                let neg = self.b.ballot(neg);
                let wake = self.b.op(Op::And, I64, &[neg, off]);
                let active = self.b.op(Op::Or, I64, &[active, wake]);
                self.set_mask_bits(mask::ACTIVE, active);
            }
            BOp::None | BOp::Bop3 => {}
        }
    }

    /// The group jumps: B_OP1, the loop operation, A_OP, the new pc.
    fn jump_path(&mut self, f: &Fc) -> Result<(), LiftError> {
        let l = self.l;
        self.check_incr(f.b_op1);
        match f.a_op {
            AOp::Push => self.depth_check(
                l.addr_depth(),
                true,
                "address stack overflow: a fifth nested call (the stack holds 4 addresses)".into(),
            ),
            AOp::Pop => self.depth_check(
                l.addr_depth(),
                false,
                "address stack underflow: a return with no call".into(),
            ),
            _ => {}
        }
        self.branch_op(f.b_op1, f.b_pop_cnt, true);
        match f.op {
            FcOp::EndLoop | FcOp::EndRep => {
                let left = self.b.use_reg(l.loop_frame(0, frame::COUNT), I32);
                let one = self.b.i32(1);
                let left = self.b.op(Op::Isub, I32, &[left, one]);
                self.b.def_reg(l.loop_frame(0, frame::COUNT), left, None);
                let al = self.b.use_reg(l.al(), I32);
                let step = self.b.use_reg(l.loop_frame(0, frame::STEP), I32);
                let al = self.b.op(Op::Iadd, I32, &[al, step]);
                self.b.def_reg(l.al(), al, None);
            }
            FcOp::BreakLoop | FcOp::BreakRep => self.pop_loop(),
            _ => {}
        }
        let target = u32::from(f.jump_addr);
        match f.a_op {
            AOp::Pop => {
                let to = self.pop_address();
                let to = self.b.op(Op::Zext, I64, &[to]);
                self.b.terminate(Terminator::JumpIndirect(to));
            }
            op => {
                if op == AOp::Push {
                    self.push_address(self.pc + 1);
                }
                match self.starts.get(&target) {
                    Some(&blk)
                        if (self.setup.info.start..=self.setup.info.end).contains(&target) =>
                    {
                        self.b.terminate(Terminator::Jump(blk))
                    }
                    _ => self.b.terminate(Terminator::Trap(TrapKind::BadJump)),
                }
            }
        }
        Ok(())
    }

    /// The group stays: B_OP0, the loop operation, on to the next slot.
    fn stay_path(&mut self, f: &Fc) -> Result<(), LiftError> {
        let l = self.l;
        self.check_incr(f.b_op0);
        if matches!(f.op, FcOp::Loop | FcOp::Rep) {
            self.depth_check(
                l.loop_depth(),
                true,
                "loop stack overflow: a fifth nested LOOP or REP (the stack holds 4 frames)".into(),
            );
        }
        self.branch_op(f.b_op0, f.b_pop_cnt, false);
        match f.op {
            FcOp::Loop | FcOp::Rep => {
                let (count, init, step) = self.int_constant(f.int_addr)?;
                let (al, step) = if f.op == FcOp::Loop {
                    (init, step)
                } else {
                    let al = self.b.use_reg(l.al(), I32);
                    (al, self.b.i32(0))
                };
                self.push_loop(count, al, step);
            }
            FcOp::EndLoop | FcOp::EndRep => self.pop_loop(),
            _ => {}
        }
        let next = self.pc + 1;
        let to = match self.starts.get(&next) {
            Some(&blk) if next <= self.setup.info.end => blk,
            _ => self.end,
        };
        self.b.terminate(Terminator::Jump(to));
        Ok(())
    }
}
