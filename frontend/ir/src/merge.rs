//! Block merging: fewer, larger blocks for the same guest behaviour.
//!
//! Every block boundary costs a back end a trip through the dispatcher, so a lifter whose
//! natural output is many small blocks (a block per guest instruction, trampolines that only
//! jump) runs [`merge_blocks`] on its function. The pass:
//! 1. **threads jumps** through empty blocks (no instructions, no guest instruction counted,
//!    ending in `jump`): an edge to such a block goes straight to where it jumps;
//! 2. **merges** a block into its only predecessor when that predecessor ends in an
//!    unconditional `jump` to it: the predecessor takes its instructions (values renumbered),
//!    its terminator and terminator pc, and adds its guest-instruction count;
//! 3. **copies** a small block (tail duplication) into a predecessor ending in a `jump` to
//!    it when it has other predecessors too (or must stay, see below): the same as a merge,
//!    but the block stays for its other predecessors. A block grows by at most
//!    [`COPY_LIMIT`] copied instructions (a loop's exit test joined to the end of its body
//!    saves a block transition per iteration for a few instructions of code);
//! 4. **removes** the blocks nothing reaches any more and renumbers the rest in order.
//!
//! # Invariants
//! - Block 0 stays the entry and is never merged into another block (it may be copied).
//! - Each block is joined to a given block at most once (a cycle of jumps is not unrolled).
//! - **Possible indirect-jump targets stay**: when the function has a `jump_indirect`, every
//!   block with a `guest_pc` is kept as a block of its own with that pc (edges may still be
//!   threaded past it, or copied: it is never absorbed). A copy has no `guest_pc`.
//! - **Guest behaviour is unchanged**: instructions run in the same order with the same
//!   operands; a merged block keeps each instruction's guest pc, so faults report the same
//!   pcs, and its terminator keeps its `term_pc`.
//! - **Guest-instruction counts**: along every path the sum of `guest_insts` is unchanged.
//!   Fuel, which charges each block `max(1, guest_insts)`, is never charged more: a threaded or
//!   merged empty block no longer costs its 1. A cycle of empty blocks is left as it is (it
//!   still burns fuel on every trip).
//! - Barriers, branches and the other terminators are never merged across: only `jump`.
use crate::func::{Block, BlockData, Function, Terminator, Value};

/// Instructions copies of small blocks may add to one block (see the module doc).
pub const COPY_LIMIT: usize = 32;

/// Threads, merges and removes blocks of `func` (see the module doc).
pub fn merge_blocks(func: &mut Function) {
    let n = func.blocks.len();
    // Malformed targets (the verifier's business) leave the function as it is.
    if n == 0
        || func
            .blocks
            .iter()
            .any(|b| b.term.successors().iter().any(|s| s.index() >= n))
    {
        return;
    }
    let indirect = func
        .blocks
        .iter()
        .any(|b| matches!(b.term, Terminator::JumpIndirect(_)));
    thread_jumps(func);
    // Blocks left unreachable by threading must not count as predecessors.
    remove_unreachable(func, indirect);
    merge_chains(func, indirect);
    remove_unreachable(func, indirect);
}

/// Whether `d` must stay a block of its own: a possible `jump_indirect` target.
fn pinned(d: &BlockData, indirect: bool) -> bool {
    indirect && d.guest_pc.is_some()
}

/// Where an edge to `b` ends up after skipping empty jump-only blocks (`b` itself when it
/// is not one, or when the blocks skipped form a cycle).
fn forward(func: &Function, b: Block) -> Block {
    let mut at = b;
    for _ in 0..func.blocks.len() {
        let d = &func.blocks[at.index()];
        match d.term {
            Terminator::Jump(next) if d.insts.is_empty() && d.guest_insts == 0 => at = next,
            _ => return at,
        }
        if at == b {
            return b;
        }
    }
    // More steps than blocks: a cycle not through `b`; keep the edge as it was.
    b
}

fn thread_jumps(func: &mut Function) {
    for i in 0..func.blocks.len() {
        let mut term = func.blocks[i].term.clone();
        for t in targets_mut(&mut term) {
            *t = forward(func, *t);
        }
        func.blocks[i].term = term;
    }
}

fn targets_mut(t: &mut Terminator) -> Vec<&mut Block> {
    match t {
        Terminator::Jump(b) | Terminator::Barrier(b) => vec![b],
        Terminator::Branch {
            then_to, else_to, ..
        } => vec![then_to, else_to],
        Terminator::JumpIndirect(_) | Terminator::Return | Terminator::Trap(_) => vec![],
    }
}

/// Edges into each block.
fn pred_counts(func: &Function) -> Vec<u32> {
    let mut preds = vec![0u32; func.blocks.len()];
    for d in &func.blocks {
        for s in d.term.successors() {
            preds[s.index()] += 1;
        }
    }
    preds
}

fn merge_chains(func: &mut Function, indirect: bool) {
    let mut preds = pred_counts(func);
    for p in 0..func.blocks.len() {
        // Blocks joined to `p` so far (a chain of copies that came back would never end)
        // and the instructions copies added.
        let mut joined = vec![p];
        let mut copied = 0;
        while let Terminator::Jump(b) = func.blocks[p].term {
            let bi = b.index();
            if joined.contains(&bi) {
                break;
            }
            joined.push(bi);
            if bi != 0 && !pinned(&func.blocks[bi], indirect) && preds[bi] == 1 {
                let absorbed = std::mem::replace(&mut func.blocks[bi], empty_block());
                append(&mut func.blocks[p], absorbed);
                // `b` is unreachable now; its successors keep their edge, now from `p`.
                preds[bi] = 0;
            } else if copied + func.blocks[bi].insts.len() <= COPY_LIMIT {
                let mut copy = func.blocks[bi].clone();
                copy.guest_pc = None;
                copied += copy.insts.len();
                preds[bi] -= 1;
                for s in copy.term.successors() {
                    preds[s.index()] += 1;
                }
                append(&mut func.blocks[p], copy);
            } else {
                break;
            }
        }
    }
}

/// A block no edge reaches (left behind by a merge until [`remove_unreachable`]).
fn empty_block() -> BlockData {
    BlockData {
        guest_pc: None,
        guest_insts: 0,
        insts: Vec::new(),
        term: Terminator::Return,
        term_pc: 0,
    }
}

/// Appends `b` to `p`, whose terminator jumps to it.
fn append(p: &mut BlockData, b: BlockData) {
    let off = p.insts.len() as u32;
    let shift = |v: Value| Value(v.0 + off);
    for mut inst in b.insts {
        inst.kind.map_args(shift);
        p.insts.push(inst);
    }
    p.term = b.term;
    p.term.map_args(shift);
    p.term_pc = b.term_pc;
    p.guest_insts += b.guest_insts;
}

fn remove_unreachable(func: &mut Function, indirect: bool) {
    let n = func.blocks.len();
    let mut live = vec![false; n];
    let mut work: Vec<usize> = std::iter::once(0)
        .chain((0..n).filter(|&i| pinned(&func.blocks[i], indirect)))
        .collect();
    while let Some(i) = work.pop() {
        if std::mem::replace(&mut live[i], true) {
            continue;
        }
        work.extend(func.blocks[i].term.successors().iter().map(|b| b.index()));
    }
    let mut new_index = vec![0u32; n];
    let mut next = 0;
    for i in 0..n {
        if live[i] {
            new_index[i] = next;
            next += 1;
        }
    }
    let old = std::mem::take(&mut func.blocks);
    for (i, mut d) in old.into_iter().enumerate() {
        if !live[i] {
            continue;
        }
        for t in targets_mut(&mut d.term) {
            *t = Block(new_index[t.index()]);
        }
        func.blocks.push(d);
    }
}
