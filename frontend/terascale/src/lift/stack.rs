//! The CF stack: frames, pushes and pops.
//!
//! 3.6.5, Tables 3.5/3.6, L1163-L1192; 3.7, Table 3.7, L1194-L1234.
//!
//! One LIFO of frames in the `stack` file: PUSH (1 subentry; 4, one entry, for PUSH_WQM or
//! with WHOLE_QUAD_MODE set, Table 3.6) saves the active mask, LOOP_START* (one entry = 4
//! subentries) also saves the enclosing loop's state, CALL (1 subentry) the return address.
//! A push beyond [`STACK_SUBENTRIES`] traps with [`TrapKind::StackOverflow`]; popping an
//! empty stack, or RETURN without a call frame on top, with [`TrapKind::StackUnderflow`].
//! These checks are emitted only where the stack shape of every path (`depth`) does not
//! prove them to pass. A pop restores the saved mask minus the innermost loop's break and
//! continue lanes: those stay inactive "until the innermost loop exits" / "until the end of
//! the current iteration" (3.7.3, L1261-L1263), whatever the pops in between restore.
use super::depth::Pushed;
use super::state::{Cf, Frame, FRAME_CELLS, STACK_SUBENTRIES};
use super::Lifter;
use wavejit_ir::{IntCC, Op, ScalarType, TrapKind, Value};

use ScalarType::{I1, I32, I64};

/// What a frame holds (its `Frame::Kind` cell).
const KIND_PUSH: u32 = 0;
const KIND_LOOP: u32 = 1;
pub(super) const KIND_CALL: u32 = 2;

impl Lifter<'_> {
    pub(super) fn frame_index(&mut self, sp: Value) -> Value {
        let k = self.b.i32(FRAME_CELLS);
        self.b.op(Op::Imul, I32, &[sp, k])
    }

    pub(super) fn frame_read(&mut self, idx: Value, f: Frame, ty: ScalarType) -> Value {
        let file = self.l.stack;
        self.b.read_reg_indexed(file, f as u32, idx, ty)
    }

    pub(super) fn frame_write(&mut self, idx: Value, f: Frame, v: Value) {
        let file = self.l.stack;
        self.b.write_reg_indexed(file, f as u32, idx, v, None);
    }

    /// Pushes a frame costing `cost` subentries, saving the active mask, the loop state
    /// (loop frames) or the return pc (call frames). Traps on overflow (checked unless the
    /// stack shape proves it fits, `depth`).
    pub(super) fn push(&mut self, pushed: Pushed, cost: u32) {
        if self.shadow.push(pushed, cost) {
            let sub = self.get(Cf::Sub, I32);
            let k = self.b.i32(STACK_SUBENTRIES - cost);
            let over = self.b.op(Op::Icmp(IntCC::Ugt), I1, &[sub, k]);
            self.check(over, TrapKind::StackOverflow);
        }
        let kind = match pushed {
            Pushed::Push => KIND_PUSH,
            Pushed::Loop => KIND_LOOP,
            Pushed::Call(_) => KIND_CALL,
        };
        let sp = self.get(Cf::Sp, I32);
        let sub = self.get(Cf::Sub, I32);
        let idx = self.frame_index(sp);
        let act = self.active();
        self.frame_write(idx, Frame::Mask, act);
        self.frame_write(idx, Frame::SubBefore, sub);
        let kv = self.b.i32(kind);
        self.frame_write(idx, Frame::Kind, kv);
        if kind == KIND_LOOP {
            for (c, f) in [
                (Cf::Break, Frame::Break),
                (Cf::Continue, Frame::Continue),
                (Cf::Iter, Frame::Iter),
            ] {
                let v = self.get(c, I64);
                self.frame_write(idx, f, v);
            }
            for (c, f) in [
                (Cf::LoopIndex, Frame::LoopIndex),
                (Cf::LoopCount, Frame::LoopCount),
                (Cf::LoopKind, Frame::LoopKind),
                (Cf::LoopSp, Frame::LoopSp),
            ] {
                let v = self.get(c, I32);
                self.frame_write(idx, f, v);
            }
        }
        if let Pushed::Call(ret) = pushed {
            let r = self.b.i64(self.base + 8 * u64::from(ret.addr));
            self.frame_write(idx, Frame::Return, r);
            let d = self.get(Cf::CallDepth, I32);
            self.frame_write(idx, Frame::CallDepth, d);
        }
        let one = self.b.i32(1);
        let sp1 = self.b.op(Op::Iadd, I32, &[sp, one]);
        self.set(Cf::Sp, sp1);
        let c = self.b.i32(cost);
        let sub1 = self.b.op(Op::Iadd, I32, &[sub, c]);
        self.set(Cf::Sub, sub1);
    }

    /// `cell - 1`, the index of the frame below the depth `cell` (`Sp` or `LoopSp`) holds;
    /// an empty stack (0) traps with [`TrapKind::StackUnderflow`] (checked unless the stack
    /// shape proves it is not empty, `depth`).
    pub(super) fn below_top(&mut self, cell: Cf) -> Value {
        if self.shadow.below_top(cell == Cf::LoopSp) {
            let depth = self.get(cell, I32);
            let z = self.b.i32(0);
            let empty = self.b.op(Op::Icmp(IntCC::Eq), I1, &[depth, z]);
            self.check(empty, TrapKind::StackUnderflow);
        }
        let depth = self.get(cell, I32);
        let one = self.b.i32(1);
        self.b.op(Op::Isub, I32, &[depth, one])
    }

    /// Pops one frame (traps when the stack is empty): active = its mask minus the lanes
    /// done with the innermost loop; a loop frame also restores the enclosing loop.
    pub(super) fn pop(&mut self) {
        let sp = self.below_top(Cf::Sp);
        self.shadow.pop();
        self.set(Cf::Sp, sp);
        self.restore_frame(sp);
    }

    /// Restores the frame at stack depth `sp` (which becomes the top).
    pub(super) fn restore_frame(&mut self, sp: Value) {
        let idx = self.frame_index(sp);
        let sub = self.frame_read(idx, Frame::SubBefore, I32);
        self.set(Cf::Sub, sub);
        let kind = self.frame_read(idx, Frame::Kind, I32);
        let kl = self.b.i32(KIND_LOOP);
        let is_loop = self.b.op(Op::Icmp(IntCC::Eq), I1, &[kind, kl]);
        for (c, f, ty) in [
            (Cf::Break, Frame::Break, I64),
            (Cf::Continue, Frame::Continue, I64),
            (Cf::Iter, Frame::Iter, I64),
            (Cf::LoopIndex, Frame::LoopIndex, I32),
            (Cf::LoopCount, Frame::LoopCount, I32),
            (Cf::LoopKind, Frame::LoopKind, I32),
            (Cf::LoopSp, Frame::LoopSp, I32),
        ] {
            let saved = self.frame_read(idx, f, ty);
            let cur = self.get(c, ty);
            let v = self.b.op(Op::Select, ty, &[is_loop, saved, cur]);
            self.set(c, v);
        }
        let mask = self.frame_read(idx, Frame::Mask, I64);
        let done = self.done_lanes();
        let act = self.andn64(mask, done);
        self.set_active(act);
    }

    pub(super) fn pop_n(&mut self, n: u8) {
        for _ in 0..n {
            self.pop();
        }
    }
}
