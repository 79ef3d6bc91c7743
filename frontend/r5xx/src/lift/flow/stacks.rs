//! The group's stacks (seed 003 §3.5.2): pushes and pops of the loop stack (4 frames, the
//! innermost first) and of the address stack (4 return slots), by shifting cells so that the
//! top sits at fixed cells (aL is always frame 0's), and their depth checks. A pop shifts a
//! zero frame in, keeping the invariant of `super::super::state`.

use super::super::state::{frame, mask, STACK_DEPTH};
use super::super::Lifter;
use wavejit_ir::{IntCC, Op, Reg, ScalarType, Value};

use ScalarType::{I1, I32, I64};

impl Lifter<'_> {
    pub(super) fn depth_check(&mut self, depth_reg: Reg, push: bool, why: String) {
        let depth = self.b.use_reg(depth_reg, I32);
        let ok = if push {
            let max = self.b.i32(STACK_DEPTH);
            self.b.op(Op::Icmp(IntCC::Ult), I1, &[depth, max])
        } else {
            let zero = self.b.i32(0);
            self.b.op(Op::Icmp(IntCC::Ne), I1, &[depth, zero])
        };
        self.trap_unless(ok, why);
    }

    /// Pushes a loop frame (the depth was checked).
    pub(super) fn push_loop(&mut self, count: Value, al: Value, step: Value) {
        let l = self.l;
        for k in (1..STACK_DEPTH).rev() {
            for c in 0..frame::CELLS {
                let v = self.b.use_reg(l.loop_frame(k - 1, c), I32);
                self.b.def_reg(l.loop_frame(k, c), v, None);
            }
        }
        let zero = self.b.i64(0);
        for (c, v) in [
            (frame::COUNT, count),
            (frame::AL, al),
            (frame::STEP, step),
            (frame::BREAK, zero),
            (frame::CONTINUE, zero),
        ] {
            self.b.def_reg(l.loop_frame(0, c), v, None);
        }
        self.bump(l.loop_depth(), true);
    }

    /// Pops the innermost loop frame, reactivating its BREAK and CONTINUE processors.
    pub(super) fn pop_loop(&mut self) {
        let l = self.l;
        let brk = self.b.use_reg(l.loop_frame(0, frame::BREAK), I64);
        let cont = self.b.use_reg(l.loop_frame(0, frame::CONTINUE), I64);
        let back = self.b.op(Op::Or, I64, &[brk, cont]);
        let active = self.mask_bits(mask::ACTIVE);
        let active = self.b.op(Op::Or, I64, &[active, back]);
        self.set_mask_bits(mask::ACTIVE, active);
        for k in 0..STACK_DEPTH {
            for c in 0..frame::CELLS {
                let v = if k + 1 < STACK_DEPTH {
                    self.b.use_reg(l.loop_frame(k + 1, c), I32)
                } else {
                    self.b.i32(0)
                };
                self.b.def_reg(l.loop_frame(k, c), v, None);
            }
        }
        self.bump(l.loop_depth(), false);
    }

    pub(super) fn push_address(&mut self, addr: u32) {
        let l = self.l;
        for k in (1..STACK_DEPTH).rev() {
            let v = self.b.use_reg(l.addr_entry(k - 1), I32);
            self.b.def_reg(l.addr_entry(k), v, None);
        }
        let a = self.b.i32(addr);
        self.b.def_reg(l.addr_entry(0), a, None);
        self.bump(l.addr_depth(), true);
    }

    /// Pops the top address (the depth was checked).
    pub(super) fn pop_address(&mut self) -> Value {
        let l = self.l;
        let top = self.b.use_reg(l.addr_entry(0), I32);
        for k in 0..STACK_DEPTH {
            let v = if k + 1 < STACK_DEPTH {
                self.b.use_reg(l.addr_entry(k + 1), I32)
            } else {
                self.b.i32(0)
            };
            self.b.def_reg(l.addr_entry(k), v, None);
        }
        self.bump(l.addr_depth(), false);
        top
    }

    pub(super) fn bump(&mut self, reg: Reg, up: bool) {
        let d = self.b.use_reg(reg, I32);
        let one = self.b.i32(1);
        let op = if up { Op::Iadd } else { Op::Isub };
        let d = self.b.op(op, I32, &[d, one]);
        self.b.def_reg(reg, d, None);
    }
}
