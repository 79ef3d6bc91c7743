//! Items to slots, with the flow-control encodings of seed 003 §3.5.4 (the table at lines
//! 1237-1275; columns JUMP_FUNC, JUMP_ANY, OP, A_OP, B_OP0, B_OP1, B_POP_CNT, B_ELSE,
//! JUMP_ADDR). JUMP_ADDR is a slot number (the program starts at slot 0).

use super::{Cond, Item, RandomProgram};
use crate::inst::{Body, Cmn, Fc, Inst, Pred};
use crate::table::{AOp, BOp, FcOp};

/// A loop being lowered: its kind, the branch-counter frames (IFs on a predicate or the
/// ALU result) open inside it, and the slots to point at its end.
struct Open {
    rep: bool,
    frames: u8,
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

struct Lower<'a> {
    out: Vec<Inst>,
    loops: Vec<Open>,
    /// The first slot of each subroutine.
    subs: Vec<usize>,
    /// Counter frames open now (outside and inside loops), and the most ever open.
    frames: u8,
    max_frames: u8,
    /// Loops or calls seen: full flow-control mode needed.
    full: bool,
    program: &'a RandomProgram,
}

/// A flow-control slot with everything zero but its op, JUMP_FUNC and ALU_WAIT (what Mesa
/// sets on every flow-control slot).
fn fc(op: FcOp, func: u8) -> Fc {
    Fc {
        op,
        b_else: false,
        jump_any: false,
        a_op: AOp::None,
        jump_func: func,
        b_pop_cnt: 0,
        b_op0: BOp::None,
        b_op1: BOp::None,
        ignore_uncovered: false,
        bool_addr: 0,
        int_addr: 0,
        jump_addr: 0,
        jump_global: false,
        unused: [0; 6],
    }
}

fn slot(f: Fc, pred: Pred) -> Inst {
    Inst {
        cmn: Cmn {
            alu_wait: true,
            rgb_pred: pred,
            ..Cmn::default()
        },
        body: Body::Fc(f),
    }
}

/// JUMP_FUNC of a conditional statement: `table[kind]` for always, boolean, predicate, ALU
/// result.
fn func(cond: &Cond, table: [u8; 4]) -> u8 {
    match cond {
        Cond::Always => table[0],
        Cond::Bool(_) => table[1],
        Cond::Pred(_) => table[2],
        Cond::AluResult(_) => table[3],
    }
}

/// BREAK and CALL: plain 0xff, b 0xaa, p 0xcc, c 0xf0.
const TESTS: [u8; 4] = [0xff, 0xaa, 0xcc, 0xf0];
/// IF: b 0x55, p 0x33, c 0x0f (jump when the test fails).
const IF_TESTS: [u8; 4] = [0xff, 0x55, 0x33, 0x0f];

impl Lower<'_> {
    fn here(&self) -> usize {
        self.out.len()
    }

    fn target(&mut self, at: usize, to: usize) {
        if let Body::Fc(f) = &mut self.out[at].body {
            f.jump_addr = to as u16;
        }
    }

    /// [`Lower::cond_slot`] with IGNORE_UNCOVERED when the program asks for it.
    fn mesa_slot(&mut self, cond: &Cond, mut f: Fc) -> usize {
        f.ignore_uncovered = self.program.ignore_uncovered;
        self.cond_slot(cond, f)
    }

    /// Emits a conditional flow-control slot: the ALU result's slot first, the predicate
    /// or boolean in the slot.
    fn cond_slot(&mut self, cond: &Cond, mut f: Fc) -> usize {
        let mut pred = Pred::default();
        match cond {
            Cond::AluResult(setter) => self.out.push(setter.clone()),
            Cond::Bool(b) => f.bool_addr = *b,
            Cond::Pred(p) => pred = *p,
            Cond::Always => {}
        }
        self.out.push(slot(f, pred));
        self.here() - 1
    }

    fn open_frame(&mut self) {
        self.frames += 1;
        self.max_frames = self.max_frames.max(self.frames);
        if let Some(l) = self.loops.last_mut() {
            l.frames += 1;
        }
    }

    fn close_frame(&mut self) {
        self.frames -= 1;
        if let Some(l) = self.loops.last_mut() {
            l.frames -= 1;
        }
    }

    fn items(&mut self, items: &[Item]) {
        for item in items {
            self.item(item);
        }
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Slot(i) => self.out.push(i.clone()),
            Item::If {
                cond: cond @ Cond::Bool(_),
                then,
                otherwise,
            } => {
                // IF b / ELSE / ENDIF: a uniform jump, no branch counters.
                let at = self.cond_slot(cond, fc(FcOp::Jump, IF_TESTS[1]));
                self.items(then);
                if let Some(o) = otherwise {
                    let skip = self.cond_slot(&Cond::Always, fc(FcOp::Jump, 0xff));
                    let else_start = self.here();
                    self.target(at, else_start);
                    self.items(o);
                    let end = self.here();
                    self.target(skip, end);
                } else {
                    let end = self.here();
                    self.target(at, end);
                }
            }
            Item::If {
                cond,
                then,
                otherwise,
            } => {
                // IF p / IF c: INCR on stay (and on jump with an ELSE); ELSE: B_ELSE, DECR 1
                // on jump to ENDIF+1; ENDIF: JUMP_ANY with JUMP_FUNC 0, DECR 1 on stay.
                let mut f = fc(FcOp::Jump, func(cond, IF_TESTS));
                f.b_op0 = BOp::Incr;
                if otherwise.is_some() {
                    f.b_op1 = BOp::Incr;
                }
                let at = self.mesa_slot(cond, f);
                self.open_frame();
                self.items(then);
                let mut else_at = None;
                if let Some(o) = otherwise {
                    let mut e = fc(FcOp::Jump, 0);
                    e.b_op1 = BOp::Decr;
                    e.b_pop_cnt = 1;
                    e.b_else = true;
                    else_at = Some(self.cond_slot(&Cond::Always, e));
                    let else_start = self.here();
                    self.target(at, else_start);
                    self.items(o);
                }
                let mut endif = fc(FcOp::Jump, 0);
                endif.jump_any = true;
                endif.b_op0 = BOp::Decr;
                endif.b_pop_cnt = 1;
                let endif_at = self.cond_slot(&Cond::Always, endif);
                self.close_frame();
                match else_at {
                    Some(e) => self.target(e, endif_at + 1),
                    None => self.target(at, endif_at + 1),
                }
            }
            Item::Loop {
                rep,
                int_addr,
                body,
            } => {
                self.full = true;
                let (start, end) = if *rep {
                    (FcOp::Rep, FcOp::EndRep)
                } else {
                    (FcOp::Loop, FcOp::EndLoop)
                };
                let mut f = fc(start, 0);
                f.int_addr = *int_addr;
                let at = self.mesa_slot(&Cond::Always, f);
                self.loops.push(Open {
                    rep: *rep,
                    frames: 0,
                    breaks: Vec::new(),
                    continues: Vec::new(),
                });
                self.items(body);
                let mut e = fc(end, 0xff);
                e.jump_any = true;
                e.int_addr = *int_addr;
                e.jump_addr = (at + 1) as u16;
                let end_at = self.mesa_slot(&Cond::Always, e);
                self.target(at, end_at + 1);
                let open = self.loops.pop().expect("pushed above");
                for b in open.breaks {
                    self.target(b, end_at + 1);
                }
                for c in open.continues {
                    self.target(c, end_at);
                }
            }
            Item::Break(cond) => {
                let Some(open) = self.loops.last() else {
                    return;
                };
                let op = if open.rep {
                    FcOp::BreakRep
                } else {
                    FcOp::BreakLoop
                };
                let mut f = fc(op, func(cond, TESTS));
                f.b_op1 = BOp::Decr;
                f.b_pop_cnt = open.frames;
                let at = self.mesa_slot(cond, f);
                if let Some(open) = self.loops.last_mut() {
                    open.breaks.push(at);
                }
            }
            Item::Continue => {
                let Some(open) = self.loops.last() else {
                    return;
                };
                let mut f = fc(FcOp::Continue, 0xff);
                f.b_op1 = BOp::Decr;
                f.b_pop_cnt = open.frames;
                let at = self.mesa_slot(&Cond::Always, f);
                if let Some(open) = self.loops.last_mut() {
                    open.continues.push(at);
                }
            }
            Item::Call { sub, cond } => {
                let Some(&start) = self.subs.get(*sub) else {
                    return;
                };
                self.full = true;
                let mut f = fc(FcOp::Jump, func(cond, TESTS));
                f.jump_any = true;
                f.a_op = AOp::Push;
                f.b_op1 = BOp::Incr;
                f.jump_addr = start as u16;
                self.cond_slot(cond, f);
            }
        }
    }
}

/// The slots of `p`, and whether it needs full flow-control mode (loops, subroutines, or
/// more than 3 branch-counter frames open at once).
pub(super) fn lower(p: &RandomProgram) -> (Vec<Inst>, bool) {
    let mut l = Lower {
        out: Vec::new(),
        loops: Vec::new(),
        subs: Vec::new(),
        frames: 0,
        max_frames: 0,
        full: false,
        program: p,
    };
    let over = (!p.subs.is_empty()).then(|| l.cond_slot(&Cond::Always, fc(FcOp::Jump, 0xff)));
    for sub in &l.program.subs {
        // RETURN pops the address stack: full mode even when nothing calls it.
        l.full = true;
        l.subs.push(l.here());
        l.items(sub);
        // RETURN: pop the address stack on the jump, DECR 1 (undoing the CALL's INCR).
        let mut r = fc(FcOp::Jump, 0xff);
        r.a_op = AOp::Pop;
        r.b_op1 = BOp::Decr;
        r.b_pop_cnt = 1;
        l.cond_slot(&Cond::Always, r);
    }
    if let Some(at) = over {
        let main = l.here();
        l.target(at, main);
    }
    l.items(&p.main);
    let mut last = p.last.clone();
    last.cmn.tex_sem_wait = true;
    last.cmn.last = true;
    l.out.push(last);
    let full = l.full || l.max_frames > 3;
    (l.out, full)
}
