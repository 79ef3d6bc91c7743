//! Control flow and the r0l execution-mask stack (seed 004 lines 29-54 and 6172-8104;
//! notes/g13_map.md §3, whose per-thread rules these are; applegpu.py's `exec` methods
//! agree).
//!
//! r0l is a per-thread counter, 0 = active. Each exec-stack instruction updates r0l of every
//! thread (active or not) and then sets exec = (r0l == 0) within the lanes that hold threads:
//! - `pop_exec n`: v = max(v - n, 0);
//! - `if_*cmp n`: v != 0 ? v + n : (cmp ? 0 : 1);
//! - `else_*cmp n`: v == 0 ? n : v == 1 ? (cmp ? 0 : 1) : v;
//! - `while_*cmp n`: v < n ? (cmp ? 0 : n) : v.
//!
//! The counter is 16 bits wide and wraps (`v + n`). The compare reads its sources in every
//! lane, so an inactive lane's registers decide its own counter as they do on hardware.

use super::{Flow, Lifter};
use crate::decode::Framed;
use crate::operand::{Reg, Width};
use wavejit_ir::{IntCC, Op, ScalarType, Terminator, TrapKind, Value};
use wavejit_isa::LiftError;

use ScalarType::*;

/// Where control goes after an instruction.
pub(super) struct Successors {
    /// Branch targets (signed: a target before offset 0 is a bad jump).
    pub targets: Vec<i64>,
    pub falls_through: bool,
    /// The next instruction starts a block.
    pub ends_block: bool,
}

/// The branch offset field of a jump or call, sign-extended.
fn offset(inst: &Framed) -> i64 {
    i64::from(inst.row.value(inst.word, "off").unwrap_or(0) as u32 as i32)
}

pub(super) fn successors(inst: &Framed, pc: u64) -> Successors {
    let s = |targets: Vec<i64>, falls_through, ends_block| Successors {
        targets,
        falls_through,
        ends_block,
    };
    let target = pc as i64 + offset(inst);
    match inst.row.name {
        "jmp_exec_any" | "jmp_exec_none" => s(vec![target], true, true),
        // The return address is a block so that `ret` finds it.
        "call" if inst.len == 6 => s(vec![target], true, true),
        "call" => s(vec![], true, true),
        "stop" | "trap" | "ret" => s(vec![], false, true),
        "threadgroup_barrier" => s(vec![], true, true),
        _ => s(vec![], true, false),
    }
}

/// r0l, the counter every exec-stack instruction updates.
const R0L: Reg = Reg {
    index: 0,
    width: Width::Half(false),
    cache: false,
};

impl Lifter<'_> {
    /// Lifts a control-flow or exec-stack instruction; `None` if `name` is neither.
    pub(super) fn lift_control(&mut self, name: &str) -> Result<Option<Flow>, LiftError> {
        let next = self.pc + self.inst.len as u64;
        let target = self.pc as i64 + offset(self.inst);
        Ok(Some(match name {
            "stop" => {
                self.b.terminate(Terminator::Return);
                Flow::Ended
            }
            "trap" => {
                self.b.terminate(Terminator::Trap(TrapKind::Explicit(
                    "trap instruction".into(),
                )));
                Flow::Ended
            }
            "jmp_exec_any" | "jmp_exec_none" => {
                let exec = self.b.use_reg(self.l.exec(), I64);
                let zero = self.b.i64(0);
                let cc = if name == "jmp_exec_any" {
                    IntCC::Ne
                } else {
                    IntCC::Eq
                };
                let cond = self
                    .b
                    .op(Op::Icmp(cc), wavejit_ir::ScalarType::I1, &[exec, zero]);
                let then_to = self.block_at(target);
                let else_to = self.block_at(next as i64);
                self.b.terminate(Terminator::Branch {
                    cond,
                    then_to,
                    else_to,
                });
                Flow::Ended
            }
            "call" => {
                let link = Reg {
                    index: 1,
                    width: Width::Word,
                    cache: false,
                };
                let to = if self.inst.len == 6 {
                    None
                } else {
                    Some(self.computed_target()?)
                };
                let ret = self.b.i32(next as u32);
                self.write_gpr(link, ret)?;
                match to {
                    None => {
                        let t = self.block_at(target);
                        self.b.terminate(Terminator::Jump(t));
                    }
                    Some(v) => self.b.terminate(Terminator::JumpIndirect(v)),
                }
                Flow::Ended
            }
            "ret" => {
                let to = self.computed_target()?;
                self.b.terminate(Terminator::JumpIndirect(to));
                Flow::Ended
            }
            "threadgroup_barrier" => {
                let t = self.block_at(next as i64);
                self.b.terminate(Terminator::Barrier(t));
                Flow::Ended
            }
            "pop_exec" => {
                let n = self.field("n");
                let v = self.r0l()?;
                let n = self.b.iconst(I16, n);
                let over = self.b.op(Op::Icmp(IntCC::Ugt), I1, &[v, n]);
                let less = self.b.op(Op::Isub, I16, &[v, n]);
                let zero = self.b.iconst(I16, 0);
                let v = self.b.op(Op::Select, I16, &[over, less, zero]);
                self.set_r0l(v)?;
                Flow::Next
            }
            "if_icmp" | "if_fcmp" | "else_icmp" | "else_fcmp" | "while_icmp" | "while_fcmp" => {
                let cmp = self.condition(name.ends_with("fcmp"))?;
                let n = self.b.iconst(I16, self.field("n"));
                let v = self.r0l()?;
                let zero = self.b.iconst(I16, 0);
                let one = self.b.iconst(I16, 1);
                let on_cmp = |s: &mut Self, otherwise: Value| {
                    s.b.op(Op::Select, I16, &[cmp, zero, otherwise])
                };
                let v = match &name[..2] {
                    "if" => {
                        let inactive = self.b.op(Op::Icmp(IntCC::Ne), I1, &[v, zero]);
                        let pushed = self.b.op(Op::Iadd, I16, &[v, n]);
                        let test = on_cmp(self, one);
                        self.b.op(Op::Select, I16, &[inactive, pushed, test])
                    }
                    "el" => {
                        let active = self.b.op(Op::Icmp(IntCC::Eq), I1, &[v, zero]);
                        let waiting = self.b.op(Op::Icmp(IntCC::Eq), I1, &[v, one]);
                        let test = on_cmp(self, one);
                        let v1 = self.b.op(Op::Select, I16, &[waiting, test, v]);
                        self.b.op(Op::Select, I16, &[active, n, v1])
                    }
                    _ => {
                        let inside = self.b.op(Op::Icmp(IntCC::Ult), I1, &[v, n]);
                        let test = on_cmp(self, n);
                        self.b.op(Op::Select, I16, &[inside, test, v])
                    }
                };
                self.set_r0l(v)?;
                Flow::Next
            }
            _ => return Ok(None),
        }))
    }

    /// The compare of an exec-stack instruction or a ballot: condition `cc` (with its
    /// inversion) of sources `A` and `B`, in every lane.
    pub(super) fn condition(&mut self, float: bool) -> Result<Value, LiftError> {
        let (a, b) = (self.src("A")?, self.src("B")?);
        let Some(code) = self.cond_code() else {
            return Err(self.invalid("no condition".into()));
        };
        if float {
            self.float_compare(code & 7, code & 8 != 0, a, b)
        } else {
            self.int_compare(code, a, b)
        }
    }

    fn r0l(&mut self) -> Result<Value, LiftError> {
        self.read_gpr(R0L)
    }

    /// Writes r0l in every lane and recomputes exec = (r0l == 0) within the live lanes.
    fn set_r0l(&mut self, v: Value) -> Result<(), LiftError> {
        self.write_all(R0L, v)?;
        let zero = self.b.iconst(I16, 0);
        let active = self.b.op(Op::Icmp(IntCC::Eq), I1, &[v, zero]);
        let bits = self.b.ballot(active);
        let live = self.b.use_reg(self.l.live(), I64);
        let exec = self.b.op(Op::And, I64, &[bits, live]);
        self.b.def_reg(self.l.exec(), exec, None);
        Ok(())
    }

    /// A register-held code address (`ret rN`, `call rN`): rN of the lowest active lane, or
    /// of lane 0 when none is active.
    fn computed_target(&mut self) -> Result<Value, LiftError> {
        let index = self.field("reg32") as u16;
        let r = Reg {
            index,
            width: Width::Word,
            cache: false,
        };
        let v = self.read_gpr(r)?;
        let exec = self.b.use_reg(self.l.exec(), I64);
        let lowest = self.b.op(Op::Ctz, I64, &[exec]);
        let lane = self.b.op(Op::Trunc, I32, &[lowest]);
        let at = self.b.read_lane(v, lane);
        Ok(self.b.op(Op::Zext, I64, &[at]))
    }
}
