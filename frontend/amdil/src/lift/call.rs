//! Subroutines (7.4): `func n` ... `endfunc` blocks after `endmain`, called by `call n`
//! (L3485), `callnz b#, n` (L3504), `call_logicalnz`/`call_logicalz src0, n` (L3553, L3589),
//! left by `ret`, `ret_dyn`, `ret_logicalnz`/`ret_logicalz` (L3973-L4006) and `endfunc`.
//!
//! # Program shape (checked before lifting)
//! Main runs from the first instruction to `endmain` (or to `end` in a program without
//! functions); only `func` blocks (and comments) stand between `endmain` and `end` (L3797,
//! L3757); a `func` is never inside another or before `endmain` (L3834); labels are unique
//! (L3834); every label a call names is a function's ("call to undefined function 7" is an
//! invalid program). Each body (main, each function, each macro) is checked on its own by
//! `structure`: a function's `break` and `continue` leave its own loops only.
//!
//! # Calls as mask arithmetic
//! Each function is lifted once, as blocks of its own; a call jumps there and the return is an
//! indirect jump back. The `calls` file ([`super::state::calls`]) holds the return stack: per
//! entry the return site and the caller's exec mask. A call:
//! - takes the lanes that call (the active lanes; for the conditional forms those whose
//!   src0.x has a bit set, or none set for `call_logicalz`; `callnz` tests a `defb` boolean);
//! - is skipped when no lane calls, or when the stack already holds 32 entries: "If there are
//!   already 32 entries on the return address stack, and a call is issued, the call is
//!   skipped" (L3487), execution going on after it;
//! - otherwise pushes the return site and exec, sets exec to the calling lanes and jumps to the
//!   function's first instruction.
//!
//! In a function, `ret_dyn` and `ret_logical*` (and `ret`, which the seed puts only at the
//! end, L3975) remove the returning lanes from exec, where they wait; outside every block a
//! `ret` or `ret_dyn` with all lanes, and `endfunc`, return: pop the entry, exec = the caller's
//! exec (every lane that called comes back, and the lanes that did not call were waiting in
//! it), continue after the call.
//!
//! # Recursion
//! "Direct or indirect recursion is permitted" (L3487), to the 32 levels of the stack. IL
//! registers are global, so an activation owns nothing but its open blocks: each body has its
//! own nesting levels in `cf` and `sel` (main from 0, each function after the one before), and
//! a call that can come back to the calling function (through any chain of calls) saves that
//! function's open frames in `saved`/`saved_sel` at the stack depth and restores them when it
//! returns. Calls that cannot recurse cost nothing of this.

use super::macros::Macros;
use super::state::{calls, frame};
use super::structure::structure;
use super::{refusal, LiftError, LiftErrorKind, Lifter};
use crate::inst::{Inst, Program};
use std::collections::{BTreeSet, HashMap};
use wavejit_ir::{IntCC, Op, Reg, ScalarType, Terminator, Value};

use ScalarType::{I1, I32, I64};

/// One body: main or a function.
struct Body {
    /// The function's label (`None` for main).
    label: Option<u32>,
    /// Its first and last instructions (main through `endmain`/`end`, a function from the
    /// instruction after `func` through `endfunc`).
    first: usize,
    last: usize,
    /// Its first nesting level and how many it uses.
    base: u32,
    depth: u32,
    /// The labels it calls, directly or through the macros it calls.
    callees: BTreeSet<u32>,
}

/// The program's bodies and call graph.
pub(super) struct Funcs {
    /// Main first, then the functions in program order.
    bodies: Vec<Body>,
    by_label: HashMap<u32, usize>,
    /// `reach[b]`: the bodies a call chain from body `b` can enter.
    reach: Vec<BTreeSet<usize>>,
}

impl Funcs {
    /// Checks the program's shape (see the module doc) and measures each body, recording
    /// switch case values in `cases`.
    pub fn new(
        program: &Program,
        pcs: &[u64],
        main_end: usize,
        macros: &Macros,
        cases: &mut HashMap<u64, Vec<u32>>,
    ) -> Result<Funcs, LiftError> {
        let code = &program.code;
        let bad = |i: usize, why: String| refusal(LiftErrorKind::Invalid, pcs[i], &code[i], why);
        let span = |inst: &Inst| macros.called(inst).map_or(0, |m| m.depth);
        let mut bodies = vec![Body {
            label: None,
            first: 0,
            last: main_end,
            base: 0,
            depth: structure(code, pcs, 0..=main_end, &span, cases)?,
            callees: BTreeSet::new(),
        }];
        for (label, first, last) in function_bodies(code, pcs, main_end)? {
            bodies.push(Body {
                label: Some(label),
                first,
                last,
                base: 0,
                depth: 0,
                callees: BTreeSet::new(),
            });
        }
        let by_label: HashMap<u32, usize> = bodies
            .iter()
            .enumerate()
            .filter_map(|(n, b)| b.label.map(|l| (l, n)))
            .collect();
        let mut base = 0;
        for (n, body) in bodies.iter_mut().enumerate() {
            for (i, inst) in code.iter().enumerate().take(body.last + 1).skip(body.first) {
                if is_call(inst) {
                    let l = label(inst);
                    if !by_label.contains_key(&l) {
                        return Err(bad(i, format!("call to undefined function {l}")));
                    }
                    body.callees.insert(l);
                }
                if let Some(m) = macros.called(inst) {
                    body.callees.extend(m.calls.iter().copied());
                }
            }
            if n > 0 {
                body.depth = structure(code, pcs, body.first..=body.last, &span, cases)?;
            }
            body.base = base;
            base += body.depth;
        }
        for m in macros.iter() {
            if let Some(&l) = m.calls.iter().find(|l| !by_label.contains_key(l)) {
                return Err(LiftError::invalid(
                    0,
                    "",
                    format!("call to undefined function {l} in macro {}", m.id),
                )
                .at("macro"));
            }
        }
        let reach = (0..bodies.len())
            .map(|from| {
                let mut seen = BTreeSet::new();
                let mut todo = vec![from];
                while let Some(b) = todo.pop() {
                    for l in &bodies[b].callees {
                        let to = by_label[l];
                        if seen.insert(to) {
                            todo.push(to);
                        }
                    }
                }
                seen
            })
            .collect();
        Ok(Funcs {
            bodies,
            by_label,
            reach,
        })
    }

    /// Nesting levels of every body together.
    pub fn depth(&self) -> u32 {
        self.bodies.iter().map(|b| b.depth).sum()
    }

    /// Whether any body calls.
    pub fn any_calls(&self) -> bool {
        self.bodies.iter().any(|b| !b.callees.is_empty())
    }

    /// The levels a recursive call saves: the deepest function a call chain can re-enter.
    pub fn saved_levels(&self) -> u32 {
        (1..self.bodies.len())
            .filter(|&b| self.reach[b].contains(&b))
            .map(|b| self.bodies[b].depth)
            .max()
            .unwrap_or(0)
    }

    /// The functions as (label, first instruction, last instruction, base level), in
    /// program order.
    pub fn functions(&self) -> impl Iterator<Item = (u32, usize, usize, u32)> + '_ {
        self.bodies[1..]
            .iter()
            .map(|b| (b.label.unwrap_or(0), b.first, b.last, b.base))
    }

    /// Whether a call of `callee` from function `caller` (`None`: main) can come back to the
    /// caller before it returns.
    fn recursive(&self, caller: Option<u32>, callee: u32) -> bool {
        let (Some(from), Some(&to)) = (
            caller.and_then(|l| self.by_label.get(&l)),
            self.by_label.get(&callee),
        ) else {
            return false;
        };
        to == *from || self.reach[to].contains(from)
    }
}

/// The functions of `code` as (label, first instruction, `endfunc`), checking the program's
/// shape around them (see the module doc).
fn function_bodies(
    code: &[Inst],
    pcs: &[u64],
    main_end: usize,
) -> Result<Vec<(u32, usize, usize)>, LiftError> {
    let bad = |i: usize, why: &str| Err(refusal(LiftErrorKind::Invalid, pcs[i], &code[i], why));
    let mnemonic = |i: usize| code[i].row().map_or("", |r| r.mnemonic);
    for i in 0..main_end {
        match mnemonic(i) {
            "func" => return bad(i, "func before endmain (L3834: only after ENDMAIN)"),
            "endfunc" => return bad(i, "endfunc without func"),
            _ => {}
        }
    }
    let mut funcs: Vec<(u32, usize, usize)> = Vec::new();
    let mut open: Option<(u32, usize)> = None;
    for (i, inst) in code.iter().enumerate().skip(main_end + 1) {
        match (mnemonic(i), open) {
            ("func", None) => {
                let l = label(inst);
                if funcs.iter().any(|f| f.0 == l) {
                    return bad(i, &format!("a second func {l} (L3834: unique)"));
                }
                open = Some((l, i));
            }
            ("endfunc", Some((l, at))) => {
                funcs.push((l, at + 1, i));
                open = None;
            }
            ("comment", None) | ("end", None) => {}
            ("endfunc", None) => return bad(i, "endfunc without func"),
            ("func", Some(_)) => return bad(i, "func inside a function"),
            ("endmain", Some(_)) => return bad(i, "endmain inside a function"),
            ("end", Some(_)) => return bad(i, "a function without endfunc (L3757)"),
            (_, None) => return bad(i, "only func blocks and end follow endmain (L3797)"),
            _ => {}
        }
    }
    Ok(funcs)
}

/// Whether `inst` is one of the call instructions.
fn is_call(inst: &Inst) -> bool {
    inst.row().is_some_and(|r| {
        matches!(
            r.mnemonic,
            "call" | "callnz" | "call_logicalnz" | "call_logicalz"
        )
    })
}

/// The label of a `func` or call (its trailing dword; the encoder checked it is there).
fn label(inst: &Inst) -> u32 {
    inst.extra.last().copied().unwrap_or(0)
}

impl Lifter<'_> {
    /// Lifts every function after main.
    pub(super) fn functions(&mut self) -> Result<(), LiftError> {
        let funcs: Vec<_> = self.plan.funcs.functions().collect();
        for (label, first, last, base) in funcs {
            let entry = self.entry(label);
            self.enter(entry);
            self.func = Some(label);
            self.base = base;
            self.frames.clear();
            self.body(first..last + 1)?;
        }
        Ok(())
    }

    /// The first block of function `label`.
    fn entry(&mut self, label: u32) -> wavejit_ir::Block {
        if let Some(&b) = self.entries.get(&label) {
            return b;
        }
        let b = self.b.create_block();
        self.entries.insert(label, b);
        b
    }

    fn call_cell(&self, cell: u32) -> Reg {
        self.l.call_cell(cell)
    }

    /// A call of the lanes of exec where `cond` holds (all of them without `cond`).
    pub(super) fn call(&mut self, cond: Option<Value>) {
        let callee = label(self.inst());
        let exec = self.exec_bits();
        let calling = match cond {
            None => exec,
            Some(c) => {
                let bits = self.lanes(c);
                self.b.op(Op::And, I64, &[exec, bits])
            }
        };
        self.b
            .def_reg(self.call_cell(calls::CALLING), calling, None);
        let depth = self.b.use_reg(self.call_cell(calls::DEPTH), I32);
        let max = self.b.i32(calls::MAX_DEPTH);
        let room = self.b.op(Op::Icmp(IntCC::Ult), I1, &[depth, max]);
        let zero = self.b.i64(0);
        let any = self.b.op(Op::Icmp(IntCC::Ne), I1, &[calling, zero]);
        let go = self.b.op(Op::And, I1, &[room, any]);
        let enter = self.b.create_block();
        let back = self.b.create_block();
        let after = self.b.create_block();
        self.b.terminate(Terminator::Branch {
            cond: go,
            then_to: enter,
            else_to: after,
        });

        self.enter(enter);
        let recursive = self.plan.funcs.recursive(self.func, callee);
        let depth = self.b.use_reg(self.call_cell(calls::DEPTH), I32);
        if recursive {
            self.save_frames(depth);
        }
        let stride = self.b.i32(calls::STRIDE);
        let at = self.b.op(Op::Imul, I32, &[depth, stride]);
        let site = self.return_site();
        self.b.set_guest_pc(back, site);
        let site = self.b.i64(site);
        let (calls_file, entry) = (self.l.calls, calls::ENTRY);
        self.b
            .write_reg_indexed(calls_file, entry + calls::RETURN, at, site, None);
        let exec = self.exec_bits();
        self.b
            .write_reg_indexed(calls_file, entry + calls::EXEC, at, exec, None);
        let one = self.b.i32(1);
        let deeper = self.b.op(Op::Iadd, I32, &[depth, one]);
        self.b.def_reg(self.call_cell(calls::DEPTH), deeper, None);
        let calling = self.b.use_reg(self.call_cell(calls::CALLING), I64);
        self.set_exec(calling);
        let target = self.entry(callee);
        self.b.terminate(Terminator::Jump(target));

        self.enter(back);
        if recursive {
            let depth = self.b.use_reg(self.call_cell(calls::DEPTH), I32);
            self.restore_frames(depth);
        }
        self.jump_to(after);
    }

    /// The `guest_pc` of the block a return from the current call continues at: the call's
    /// pc, and in a macro expansion the expansion's number above it (a macro's call has one
    /// site per expansion).
    fn return_site(&self) -> u64 {
        let expansion = self.scope.map_or(0, |s| s.id);
        self.pc() | u64::from(expansion) << 32
    }

    /// Returns from the function being lifted (see the module doc).
    pub(super) fn return_to_caller(&mut self) {
        let depth = self.b.use_reg(self.call_cell(calls::DEPTH), I32);
        let one = self.b.i32(1);
        let depth = self.b.op(Op::Isub, I32, &[depth, one]);
        self.b.def_reg(self.call_cell(calls::DEPTH), depth, None);
        let stride = self.b.i32(calls::STRIDE);
        let at = self.b.op(Op::Imul, I32, &[depth, stride]);
        let file = self.l.calls;
        let exec = self
            .b
            .read_reg_indexed(file, calls::ENTRY + calls::EXEC, at, I64);
        self.set_exec(exec);
        let site = self
            .b
            .read_reg_indexed(file, calls::ENTRY + calls::RETURN, at, I64);
        self.b.terminate(Terminator::JumpIndirect(site));
    }

    /// The nesting levels of the calling function's open frames.
    fn open_levels(&self) -> std::ops::Range<u32> {
        self.base..self.base + self.frames.len() as u32
    }

    /// Saves the calling function's open frames at stack depth `depth`.
    fn save_frames(&mut self, depth: Value) {
        let (cells, sels) = self.saved_at(depth);
        for (j, level) in self.open_levels().enumerate() {
            let j = j as u32;
            for c in 0..frame::CELLS {
                let v = self.b.use_reg(self.l.frame(level, c), I32);
                self.b
                    .write_reg_indexed(self.l.saved, frame::CELLS * j + c, cells, v, None);
            }
            let v = self.b.use_reg(self.l.selector(level), I32);
            self.b.write_reg_indexed(self.l.saved_sel, j, sels, v, None);
        }
    }

    /// Restores what [`Self::save_frames`] saved at stack depth `depth`.
    fn restore_frames(&mut self, depth: Value) {
        let (cells, sels) = self.saved_at(depth);
        for (j, level) in self.open_levels().enumerate() {
            let j = j as u32;
            for c in 0..frame::CELLS {
                let v = self
                    .b
                    .read_reg_indexed(self.l.saved, frame::CELLS * j + c, cells, I32);
                self.b.def_reg(self.l.frame(level, c), v, None);
            }
            let v = self.b.read_reg_indexed(self.l.saved_sel, j, sels, I32);
            self.b.def_reg(self.l.selector(level), v, None);
        }
    }

    /// The first `saved` and `saved_sel` cells of stack depth `depth`.
    fn saved_at(&mut self, depth: Value) -> (Value, Value) {
        let levels = self.l.saved_levels;
        let k = self.b.i32(frame::CELLS * levels);
        let cells = self.b.op(Op::Imul, I32, &[depth, k]);
        let k = self.b.i32(levels);
        let sels = self.b.op(Op::Imul, I32, &[depth, k]);
        (cells, sels)
    }
}
