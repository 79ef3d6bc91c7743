//! Register writes nothing reads: left out of a function whose final state nobody looks at.
//!
//! A dispatch keeps what its waves leave in memory and drops their registers when they end,
//! so a register write that no later instruction can read is work without a result there:
//! VCC after the last carry of an address, a row a kernel writes just before it returns, a
//! flag the next block overwrites. [`drop_unread_writes`] removes such writes, then the
//! instructions only they used, and repeats while that leaves more writes unread. The launcher runs it on the function it dispatches; the
//! `wave` command, which prints the final state, and the engines' differential tests run the
//! function as lifted.
//!
//! # The rule
//! Cells are the 32-bit cells of the layout's files (a lane register's cell is its row). A
//! cell is **live** at a point when some path from there reads it (a `read`, or an indexed
//! read of its file) before a write covers it whole (a write without a mask; a lane write
//! under a mask leaves the other lanes' values, so it covers nothing). A block ending in
//! `return` or a trap has nothing live after it (a fault reports where it happened, not the
//! registers); `jump`, `branch` and `barrier` have what their successors read; after a
//! `jump_indirect` every cell is live. A `write` of cells none of which is live after it is
//! removed; indexed writes stay (their cell is only known at run time).
//!
//! # What it keeps
//! Every load, store, atomic, indexed access, terminator and the values they use, in the
//! same order with the same operands: memory and faults are the same as the lifted
//! function's. The blocks, their guest pcs and guest-instruction counts do not change.

use crate::func::{BlockData, Function, InstKind, Terminator, Value};
use crate::state::{Reg, StateLayout};

/// A set of cells, by their index in the layout (files in order).
#[derive(Clone, PartialEq, Eq)]
struct Cells(Vec<u64>);

impl Cells {
    fn none(n: usize) -> Cells {
        Cells(vec![0; n.div_ceil(64)])
    }

    /// Every cell (and the unused bits of the last word, which no range names).
    fn all(n: usize) -> Cells {
        Cells(vec![u64::MAX; n.div_ceil(64)])
    }

    fn add(&mut self, r: std::ops::Range<usize>) {
        for i in r {
            self.0[i / 64] |= 1 << (i % 64);
        }
    }

    fn remove(&mut self, r: std::ops::Range<usize>) {
        for i in r {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }

    fn any(&self, r: std::ops::Range<usize>) -> bool {
        r.into_iter().any(|i| self.0[i / 64] & (1 << (i % 64)) != 0)
    }

    fn union(&mut self, o: &Cells) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
}

/// Where each file's cells start in the numbering, and how many there are in all.
struct Numbering {
    start: Vec<usize>,
    total: usize,
}

impl Numbering {
    fn new(layout: &StateLayout) -> Numbering {
        let mut start = Vec::with_capacity(layout.files.len());
        let mut total = 0;
        for f in &layout.files {
            start.push(total);
            total += f.cells as usize;
        }
        Numbering { start, total }
    }

    /// The cells of `n` consecutive registers from `reg`, cut to the file (the verifier's
    /// business otherwise); `None` for a file the layout does not have.
    fn reg(&self, layout: &StateLayout, reg: Reg, n: u32) -> Option<std::ops::Range<usize>> {
        let f = layout.files.get(reg.file.0 as usize)?;
        let lo = reg.index.min(f.cells);
        let hi = reg.index.saturating_add(n).min(f.cells);
        let s = self.start[reg.file.0 as usize];
        Some(s + lo as usize..s + hi as usize)
    }

    fn file(&self, layout: &StateLayout, file: crate::state::FileId) -> std::ops::Range<usize> {
        self.reg(layout, Reg::new(file, 0), u32::MAX)
            .unwrap_or(0..0)
    }
}

/// What instruction `inst` of `b` reads and writes whole: `(reads, covers)`.
fn effect(
    layout: &StateLayout,
    num: &Numbering,
    b: &BlockData,
    i: usize,
) -> (
    Option<std::ops::Range<usize>>,
    Option<std::ops::Range<usize>>,
) {
    let inst = &b.insts[i];
    let cells = |v: Value| b.value_type(v).map_or(1, |t| t.scalar.cells());
    match inst.kind {
        InstKind::ReadReg(reg) => {
            let n = inst.ty.map_or(1, |t| t.scalar.cells());
            (num.reg(layout, reg, n), None)
        }
        InstKind::ReadRegIndexed { file, .. } => (Some(num.file(layout, file)), None),
        InstKind::WriteReg {
            reg,
            value,
            mask: None,
        } => (None, num.reg(layout, reg, cells(value))),
        _ => (None, None),
    }
}

/// The cells live at the start of `b` given those live at its end.
fn live_in(layout: &StateLayout, num: &Numbering, b: &BlockData, out: &Cells) -> Cells {
    let mut live = out.clone();
    for i in (0..b.insts.len()).rev() {
        let (reads, covers) = effect(layout, num, b, i);
        if let Some(c) = covers {
            live.remove(c);
        }
        if let Some(r) = reads {
            live.add(r);
        }
    }
    live
}

/// Removes the register writes of `func` that nothing reads, then the instructions without
/// an effect that nothing uses, until no more go (a read that only a removed write used
/// goes too, and may leave another write unread).
pub fn drop_unread_writes(func: &mut Function) {
    while drop_round(func) {}
}

/// One round of [`drop_unread_writes`]; whether it removed anything.
fn drop_round(func: &mut Function) -> bool {
    let layout = &func.layout;
    let num = Numbering::new(layout);
    let n = func.blocks.len();
    let succ_ok = |t: &Terminator| t.successors().iter().all(|s| s.index() < n);
    if func.blocks.iter().any(|b| !succ_ok(&b.term)) {
        return false;
    }
    // Live cells at each block's end, to a fixed point (sets only grow).
    let mut outs: Vec<Cells> = vec![Cells::none(num.total); n];
    let mut ins: Vec<Cells> = vec![Cells::none(num.total); n];
    loop {
        let mut changed = false;
        for k in (0..n).rev() {
            let b = &func.blocks[k];
            let mut out = match b.term {
                Terminator::JumpIndirect(_) => Cells::all(num.total),
                _ => Cells::none(num.total),
            };
            for s in b.term.successors() {
                out.union(&ins[s.index()]);
            }
            let inn = live_in(layout, &num, b, &out);
            if inn != ins[k] || out != outs[k] {
                changed = true;
                ins[k] = inn;
                outs[k] = out;
            }
        }
        if !changed {
            break;
        }
    }
    let mut removed = false;
    for (k, out) in outs.iter().enumerate() {
        let keep = kept(layout, &num, &func.blocks[k], out);
        removed |= keep.iter().any(|&k| !k);
        compact(&mut func.blocks[k], &keep);
    }
    removed
}

/// Which instructions of `b` stay, given the cells live at its end.
fn kept(layout: &StateLayout, num: &Numbering, b: &BlockData, out: &Cells) -> Vec<bool> {
    let len = b.insts.len();
    let mut keep = vec![true; len];
    let mut live = out.clone();
    for i in (0..len).rev() {
        let (reads, covers) = effect(layout, num, b, i);
        if let InstKind::WriteReg { reg, value, .. } = b.insts[i].kind {
            let n = b.value_type(value).map_or(1, |t| t.scalar.cells());
            let written = num.reg(layout, reg, n);
            keep[i] = written.is_none_or(|w| live.any(w));
        }
        if let Some(c) = covers {
            live.remove(c);
        }
        if let Some(r) = reads {
            live.add(r);
        }
    }
    // Then what only removed instructions used, back to front.
    let mut used = vec![false; len];
    for v in b.term.args() {
        if let Some(u) = used.get_mut(v.index()) {
            *u = true;
        }
    }
    for i in (0..len).rev() {
        let inst = &b.insts[i];
        if keep[i] && !used[i] && !inst.has_side_effect() {
            keep[i] = false;
        }
        if keep[i] {
            for a in inst.args() {
                if let Some(u) = used.get_mut(a.index()) {
                    *u = true;
                }
            }
        }
    }
    keep
}

/// Leaves out the instructions `keep` does not keep and renumbers the values.
fn compact(b: &mut BlockData, keep: &[bool]) {
    if keep.iter().all(|&k| k) {
        return;
    }
    let mut new = vec![Value(u32::MAX); keep.len()];
    let mut next = 0;
    for (i, &k) in keep.iter().enumerate() {
        if k {
            new[i] = Value(next);
            next += 1;
        }
    }
    let map = |v: Value| new.get(v.index()).copied().unwrap_or(v);
    let insts = std::mem::take(&mut b.insts);
    for (inst, &k) in insts.into_iter().zip(keep) {
        if k {
            let mut inst = inst;
            inst.kind.map_args(map);
            b.insts.push(inst);
        }
    }
    b.term.map_args(map);
}
