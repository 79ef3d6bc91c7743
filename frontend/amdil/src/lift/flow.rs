//! Structured control flow (7.2.2 L3063-L3085, 7.4 L3442-L4043) as mask arithmetic.
//!
//! IL control flow is structured, so the nesting of every instruction is known when lifting:
//! each open if, loop or switch owns a frame of two masks (and a DX9 loop its count) at its
//! nesting level in the `cf` file ([`super::state::frame`]; each body has levels of its own,
//! `call`), and the lanes in `exec` are the ones that run. A lane is active, or waits in
//! exactly one place: the `else` of an if (A), the end of an if's `then` part (B), a loop's
//! `break` (A) or `continue` (B), a switch's untaken cases (A) or its `break` (B), a
//! function's end after returning, or it has ended and waits nowhere.
//!
//! - `if_logicalnz`/`if_logicalz src0` (L3880): src0.x (after its swizzle) has any bit set / all
//!   bits zero; `ifc_relop(op) src0, src1` (L3901): a float compare of the x components after
//!   flushing denormals, false when either is NaN (7.2.1 L3055; `ne` too); `ifnz` (L3916)
//!   tests a boolean constant, which only a `defb` gives a value. The if sets A = exec
//!   & !cond, exec &= cond. `else`: B = exec, exec = A. `endif`: exec |= B after an else, A
//!   without one. A part no lane runs is skipped by a uniform branch.
//! - `whileloop` (L4033) clears A and B; `endloop` (L3772) sets exec |= B, clears B, and goes
//!   back to the loop's first instruction while exec has a lane; after the loop exec |= A.
//!   A loop that never breaks runs until the fuel is spent.
//! - `loop[_repeat] i#` (L3932) is a whileloop that also counts: its count is i#.x, from the
//!   program's `def` (L4883; a compute launch sets no integer constants, so an i# without one
//!   is refused). "LOOP_START jumps ... if the initial loop count is zero" (seed 000 L1255,
//!   the hardware IL compiles to; the IL entry is silent), so a count of 0 skips the body;
//!   `endloop` counts one iteration (L3776-L3784, damaged; CONTINUE's copy, L3662: `LoopIterationCount - 1`) and goes back while the
//!   count is not 0 and exec has a lane, so the lanes still running when it runs out go on
//!   after the loop with those that broke. `continue` waits for `endloop`, which counts once
//!   for the whole wave. Without `_repeat` the count, initial value and step must be 0-255
//!   ("unsigned eight-bit integers", L3938); with it the count must not be negative
//!   (L3940). The loop counter `aL` (initial value, step) is not kept: only loop-relative
//!   addressing (an IL_Rel_Addr token, whose layout the seed does not give, so the decoder
//!   refuses it) reads it, and Table 5.7 allows it on no register a compute program has.
//! - `break` (L3446) moves exec into the smallest enclosing loop's or switch's break mask;
//!   `continue` (L3657) into the smallest enclosing loop's continue mask; their conditional
//!   forms `break_logicalnz/z`, `continue_logicalnz/z` (L3470, L3685) and `breakc_relop`,
//!   `continuec_relop` (L3457, L3671) move the lanes whose condition holds, tested as the if
//!   forms test.
//! - `switch src0` (L4022) keeps src0.x per lane in `sel`, A = exec, B = 0 and exec = 0.
//!   `case n` (L3644, integer compare) moves the lanes of A whose selector is `n` into exec;
//!   `default` (L3709) those whose selector is none of the switch's case values, wherever the
//!   cases stand, as in C. Lanes already in exec fall through. `endswitch`: exec |= B | A (a
//!   lane no case took skips the switch).
//! - `ret_dyn`, `ret_logicalnz/z` (L3987, L4000) and `ret` inside a block remove the lanes that
//!   return from exec: in main they end, in a function they wait for its end (`call`). `ret`
//!   and `ret_dyn` outside every block return from a function; in main they, `endmain` and
//!   `end` end the wave.
//! - The structure is checked before lifting, body by body (`structure`).

use super::regs::{fcmp, Kind};
use super::state::frame;
use super::{Flow, LiftError, Lifter};
use crate::token::RegType;
use wavejit_ir::{Block, IntCC, Op, ScalarType, Terminator, Value};

use ScalarType::{I1, I32, I64};

/// An open block, as the lift holds it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Frame {
    If {
        level: u32,
        /// Where the `else` or `endif` that comes next starts.
        join: Block,
        has_else: bool,
    },
    Loop {
        level: u32,
        head: Block,
        exit: Block,
        /// A DX9 `loop`, which counts its iterations.
        counted: bool,
    },
    Switch {
        level: u32,
        /// The switch's pc.
        at: u64,
    },
}

/// Where the lanes of a `break`/`continue` go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Leave {
    Break,
    Continue,
}

impl Lifter<'_> {
    /// Lifts a control-flow instruction; `None` if `m` is not one.
    pub(super) fn lift_flow(&mut self, m: &str) -> Result<Option<Flow>, LiftError> {
        match m {
            "if_logicalz" | "if_logicalnz" | "ifnz" => {
                self.operands(0, 1)?;
                self.count();
                let cond = self.logical(m.ends_with('z') && !m.ends_with("nz"))?;
                self.open_if(cond);
            }
            "ifc" => {
                self.operands(0, 2)?;
                self.count();
                let cond = self.relop()?;
                self.open_if(cond);
            }
            "else" => self.else_()?,
            "endif" => self.endif()?,
            "whileloop" => {
                self.count();
                self.open_loop(None);
            }
            "loop" => {
                self.operands(0, 1)?;
                self.count();
                let n = self.loop_count()?;
                self.open_loop(Some(n));
            }
            "endloop" => self.endloop()?,
            "break" | "continue" => {
                self.operands(0, 0)?;
                self.count();
                self.leave(leave_kind(m), None)?;
            }
            "break_logicalz" | "break_logicalnz" | "continue_logicalz" | "continue_logicalnz" => {
                self.operands(0, 1)?;
                self.count();
                let cond = self.logical(m.ends_with("_logicalz"))?;
                self.leave(leave_kind(m), Some(cond))?;
            }
            "breakc" | "continuec" => {
                self.operands(0, 2)?;
                self.count();
                let cond = self.relop()?;
                self.leave(leave_kind(m), Some(cond))?;
            }
            "switch" => self.switch()?,
            "case" | "default" => self.case(m == "default")?,
            "endswitch" => self.endswitch()?,
            "ret" | "ret_dyn" => {
                self.count();
                self.ret(None);
            }
            "ret_logicalz" | "ret_logicalnz" => {
                self.operands(0, 1)?;
                self.count();
                let cond = self.logical(m == "ret_logicalz")?;
                self.ret(Some(cond));
            }
            "endmain" | "end" => {
                self.count();
                self.b.terminate(Terminator::Return);
                return Ok(Some(Flow::End));
            }
            "endfunc" => {
                self.count();
                self.return_to_caller();
                return Ok(Some(Flow::End));
            }
            "call" => {
                self.operands(0, 0)?;
                self.count();
                self.call(None);
            }
            "callnz" | "call_logicalnz" | "call_logicalz" => {
                self.operands(0, 1)?;
                self.count();
                let cond = self.logical(m == "call_logicalz")?;
                self.call(Some(cond));
            }
            "mcall" => self.mcall()?,
            _ => return Ok(None),
        }
        Ok(Some(Flow::Next))
    }

    /// src0.x all bits zero (`zero`) or any bit set, per lane.
    fn logical(&mut self, zero: bool) -> Result<Value, LiftError> {
        let v = self.src(0, 0, Kind::Int)?;
        let z = self.b.i32(0);
        let cc = if zero { IntCC::Eq } else { IntCC::Ne };
        Ok(self.b.op(Op::Icmp(cc), I1, &[v, z]))
    }

    /// `src0.x relop src1.x` as a float compare.
    fn relop(&mut self) -> Result<Value, LiftError> {
        let cc = self.relop_cc()?;
        let a = self.src(0, 0, Kind::Float)?;
        let b = self.src(1, 0, Kind::Float)?;
        Ok(fcmp(&mut self.b, cc, a, b))
    }

    /// The lanes where `cond` holds, as a uniform `i64`.
    pub(super) fn lanes(&mut self, cond: Value) -> Value {
        let m = self.b.splat(cond);
        self.b.ballot(m)
    }

    fn get(&mut self, level: u32, slot: u32) -> Value {
        let r = self.l.frame(level, slot);
        self.b.use_reg(r, I64)
    }

    fn set(&mut self, level: u32, slot: u32, v: Value) {
        let r = self.l.frame(level, slot);
        self.b.def_reg(r, v, None);
    }

    fn and(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::And, I64, &[a, b])
    }

    fn or(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Or, I64, &[a, b])
    }

    fn and_not(&mut self, a: Value, b: Value) -> Value {
        let nb = self.b.op(Op::Not, I64, &[b]);
        self.and(a, nb)
    }

    /// Ends the block with a branch to `then` when `bits` has a lane, to `otherwise` when not.
    fn branch_any(&mut self, bits: Value, then: Block, otherwise: Block) {
        let zero = self.b.i64(0);
        let any = self.b.op(Op::Icmp(IntCC::Ne), I1, &[bits, zero]);
        self.b.terminate(Terminator::Branch {
            cond: any,
            then_to: then,
            else_to: otherwise,
        });
    }

    fn level(&self) -> u32 {
        self.base + self.frames.len() as u32
    }

    fn open_if(&mut self, cond: Value) {
        let level = self.level();
        let exec = self.exec_bits();
        let c = self.lanes(cond);
        let taken = self.and(exec, c);
        let other = self.and_not(exec, c);
        self.set(level, frame::A, other);
        self.set_exec(taken);
        let join = self.b.create_block();
        let then = self.b.create_block();
        self.branch_any(taken, then, join);
        self.enter(then);
        self.frames.push(Frame::If {
            level,
            join,
            has_else: false,
        });
    }

    fn else_(&mut self) -> Result<(), LiftError> {
        let Some(Frame::If {
            level,
            join,
            has_else: false,
        }) = self.frames.pop()
        else {
            return Err(self.invalid("else without an open if"));
        };
        self.jump_to(join);
        self.count();
        let out = self.exec_bits();
        self.set(level, frame::B, out);
        let other = self.get(level, frame::A);
        self.set_exec(other);
        let end = self.b.create_block();
        let body = self.b.create_block();
        self.branch_any(other, body, end);
        self.enter(body);
        self.frames.push(Frame::If {
            level,
            join: end,
            has_else: true,
        });
        Ok(())
    }

    fn endif(&mut self) -> Result<(), LiftError> {
        let Some(Frame::If {
            level,
            join,
            has_else,
        }) = self.frames.pop()
        else {
            return Err(self.invalid("endif without an open if"));
        };
        self.jump_to(join);
        self.count();
        let back = self.get(level, if has_else { frame::B } else { frame::A });
        let exec = self.exec_bits();
        let exec = self.or(exec, back);
        self.set_exec(exec);
        Ok(())
    }

    /// The iteration count of a DX9 `loop` from its integer constant (L3938-L3960).
    fn loop_count(&self) -> Result<u32, LiftError> {
        let s = &self.inst().src[0];
        let r = &s.reg;
        if r.ty != RegType::CONST_INT {
            return Err(self.invalid("loop counts with an integer constant i# (L3938)"));
        }
        if s.modifier.is_some() || r.index != crate::inst::Index::None || r.dim2.is_some() {
            return Err(self.invalid("loop's i# takes no modifier or relative address (L3952)"));
        }
        let Some(v) = self.decls.ints.get(&r.num) else {
            return Err(self.unsupported(format!(
                "i{}: no def gives its value, and a compute launch sets no integer constants",
                r.num
            )));
        };
        if self.field("repeat") != 0 {
            if (v[0] as i32) < 0 {
                return Err(self.invalid("a negative iteration count (L3940)"));
            }
        } else if v[..3].iter().any(|&x| x > 0xff) {
            return Err(self.invalid(
                "count, initial value and step past 255 (L3938: unsigned eight-bit integers)",
            ));
        }
        Ok(v[0])
    }

    /// Opens a `whileloop`, or a DX9 `loop` of `count` iterations.
    fn open_loop(&mut self, count: Option<u32>) {
        let level = self.level();
        let zero = self.b.i64(0);
        self.set(level, frame::A, zero);
        self.set(level, frame::B, zero);
        if let Some(n) = count {
            let n = self.b.i32(n);
            let r = self.l.frame(level, frame::COUNT);
            self.b.def_reg(r, n, None);
        }
        let head = self.b.create_block();
        let exit = self.b.create_block();
        if count == Some(0) {
            self.b.terminate(Terminator::Jump(exit));
        } else {
            let exec = self.exec_bits();
            self.branch_any(exec, head, exit);
        }
        self.enter(head);
        self.frames.push(Frame::Loop {
            level,
            head,
            exit,
            counted: count.is_some(),
        });
    }

    fn endloop(&mut self) -> Result<(), LiftError> {
        let Some(Frame::Loop {
            level,
            head,
            exit,
            counted,
        }) = self.frames.pop()
        else {
            return Err(self.invalid("endloop without an open loop"));
        };
        self.count();
        let waiting = self.get(level, frame::B);
        let exec = self.exec_bits();
        let exec = self.or(exec, waiting);
        self.set_exec(exec);
        let zero = self.b.i64(0);
        self.set(level, frame::B, zero);
        if counted {
            let r = self.l.frame(level, frame::COUNT);
            let n = self.b.use_reg(r, I32);
            let one = self.b.i32(1);
            let n = self.b.op(Op::Isub, I32, &[n, one]);
            self.b.def_reg(r, n, None);
            let zero = self.b.i32(0);
            let more = self.b.op(Op::Icmp(IntCC::Ne), I1, &[n, zero]);
            let zero = self.b.i64(0);
            let any = self.b.op(Op::Icmp(IntCC::Ne), I1, &[exec, zero]);
            let again = self.b.op(Op::And, I1, &[more, any]);
            self.b.terminate(Terminator::Branch {
                cond: again,
                then_to: head,
                else_to: exit,
            });
        } else {
            self.branch_any(exec, head, exit);
        }
        self.enter(exit);
        // The lanes still active (a counted loop that ran out) and those that broke.
        let broke = self.get(level, frame::A);
        let exec = self.exec_bits();
        let exec = self.or(exec, broke);
        self.set_exec(exec);
        Ok(())
    }

    /// Moves the active lanes (those where `cond` holds, if given) to the break or continue
    /// mask of the frame `kind` names.
    fn leave(&mut self, kind: Leave, cond: Option<Value>) -> Result<(), LiftError> {
        let target = self.frames.iter().rev().find_map(|f| match (*f, kind) {
            (Frame::Loop { level, .. }, Leave::Break) => Some((level, frame::A)),
            (Frame::Loop { level, .. }, Leave::Continue) => Some((level, frame::B)),
            (Frame::Switch { level, .. }, Leave::Break) => Some((level, frame::B)),
            _ => None,
        });
        let Some((level, slot)) = target else {
            return Err(self.invalid("no loop or switch to leave"));
        };
        let exec = self.exec_bits();
        let leaving = match cond {
            None => exec,
            Some(c) => {
                let c = self.lanes(c);
                self.and(exec, c)
            }
        };
        let before = self.get(level, slot);
        let after = self.or(before, leaving);
        self.set(level, slot, after);
        let stay = self.and_not(exec, leaving);
        self.set_exec(stay);
        Ok(())
    }

    fn ret(&mut self, cond: Option<Value>) {
        match cond {
            None if self.frames.is_empty() && self.func.is_some() => self.return_to_caller(),
            None if self.frames.is_empty() => self.b.terminate(Terminator::Return),
            None => {
                let zero = self.b.i64(0);
                self.set_exec(zero);
            }
            Some(c) => {
                let exec = self.exec_bits();
                let c = self.lanes(c);
                let stay = self.and_not(exec, c);
                self.set_exec(stay);
            }
        }
    }

    fn switch(&mut self) -> Result<(), LiftError> {
        self.operands(0, 1)?;
        self.count();
        let level = self.level();
        let v = self.src(0, 0, Kind::Int)?;
        let r = self.l.selector(level);
        self.b.def_reg(r, v, None);
        let exec = self.exec_bits();
        self.set(level, frame::A, exec);
        let zero = self.b.i64(0);
        self.set(level, frame::B, zero);
        self.set_exec(zero);
        self.frames.push(Frame::Switch {
            level,
            at: self.pc(),
        });
        Ok(())
    }

    /// `case n`, or `default` when `default`.
    fn case(&mut self, default: bool) -> Result<(), LiftError> {
        let Some(&Frame::Switch { level, at }) = self.frames.last() else {
            return Err(self.invalid("case or default outside a switch"));
        };
        self.count();
        let r = self.l.selector(level);
        let s = self.b.use_reg(r, I32);
        let cond = if default {
            let mut cond = self.b.bool(true);
            for &v in self.plan.cases.get(&at).map_or(&[][..], Vec::as_slice) {
                let v = self.b.i32(v);
                let ne = self.b.op(Op::Icmp(IntCC::Ne), I1, &[s, v]);
                cond = self.b.op(Op::And, I1, &[cond, ne]);
            }
            cond
        } else {
            let v = self.inst().extra.first().copied().unwrap_or(0);
            let v = self.b.i32(v);
            self.b.op(Op::Icmp(IntCC::Eq), I1, &[s, v])
        };
        let pending = self.get(level, frame::A);
        let c = self.lanes(cond);
        let taken = self.and(pending, c);
        let exec = self.exec_bits();
        let exec = self.or(exec, taken);
        self.set_exec(exec);
        let rest = self.and_not(pending, taken);
        self.set(level, frame::A, rest);
        Ok(())
    }

    fn endswitch(&mut self) -> Result<(), LiftError> {
        let Some(Frame::Switch { level, .. }) = self.frames.pop() else {
            return Err(self.invalid("endswitch without an open switch"));
        };
        self.count();
        let exec = self.exec_bits();
        let broke = self.get(level, frame::B);
        let untaken = self.get(level, frame::A);
        let exec = self.or(exec, broke);
        let exec = self.or(exec, untaken);
        self.set_exec(exec);
        Ok(())
    }
}

fn leave_kind(m: &str) -> Leave {
    if m.starts_with("break") {
        Leave::Break
    } else {
        Leave::Continue
    }
}
