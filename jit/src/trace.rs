//! Traces: the blocks one tier-2 host function runs without returning to the dispatcher.
//!
//! A wave running a loop of small blocks (a loop body and the block that counts its trips)
//! paid, per block, a host call, the function's prologue and epilogue, and the chain loop's
//! bookkeeping; for a loop of short blocks that cost as much as the lanes' work. At tier 2 a
//! block on a loop is compiled together with the other blocks of the loops through it as one
//! host function in which a jump between them is a host jump and a jump back to the head is
//! a host loop. Blocks on no loop stay functions of their own: a function joining straight-
//! line blocks saves one call per wave, and costs more than that in register pressure
//! (measured: saxpy on cayman 12% slower).
//!
//! Invariants:
//! - The head is the first block of its trace; every block appears once.
//! - Only `jump` and `branch` edges are followed: a barrier, a return, a trap or an indirect
//!   jump leaves the host function, so that the dispatcher sees every barrier and every
//!   exit it sees without traces.
//! - Going on to a block of the trace charges it as [`wavejit_runtime::Budget::charge`]
//!   would (the compiled code does it against the context's budget fields, and leaves with
//!   a jump exit when the budget does not cover the block), and points the context's
//!   `block` at it: fuel, time checks, statistics and fault reports are those of a run that
//!   returns to the dispatcher after every block.
//! - A trace holds at most [`MAX_BLOCKS`] blocks and [`MAX_INSTS`] IR instructions, so that
//!   the code a function compiles to grows by a bounded factor.

use wavejit_ir::{Block, Function, Terminator};

/// The blocks `term` goes on to without leaving the host function: a `jump`'s target and a
/// `branch`'s two.
pub(crate) fn local_successors(term: &Terminator) -> Vec<Block> {
    match *term {
        Terminator::Jump(t) => vec![t],
        Terminator::Branch {
            then_to, else_to, ..
        } => vec![then_to, else_to],
        _ => Vec::new(),
    }
}

/// The most blocks one trace holds.
pub(crate) const MAX_BLOCKS: usize = 8;
/// The most IR instructions the blocks of one trace hold together (the head's own count
/// always fits).
pub(crate) const MAX_INSTS: usize = 4000;

/// The trace headed by `head`: it and the blocks of the loops through it, those its `jump`s
/// and `branch`es reach that reach it back, breadth first, while the limits allow (a block
/// that does not fit is left out, and the blocks only it reaches too). A block on no loop is
/// a trace of its own.
pub(crate) fn trace(func: &Function, head: Block) -> Vec<Block> {
    let n = func.blocks.len();
    let Some(first) = func.blocks.get(head.index()) else {
        return Vec::new();
    };
    // The blocks that reach `head`: a walk back over the `jump` and `branch` edges.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, b) in func.blocks.iter().enumerate() {
        for t in local_successors(&b.term) {
            if t.index() < n {
                preds[t.index()].push(i);
            }
        }
    }
    let mut reaches = vec![false; n];
    let mut work = vec![head.index()];
    while let Some(i) = work.pop() {
        for &p in &preds[i] {
            if !reaches[p] {
                reaches[p] = true;
                work.push(p);
            }
        }
    }
    let mut blocks = vec![head];
    let mut insts = first.insts.len();
    let mut next = 0;
    while next < blocks.len() && blocks.len() < MAX_BLOCKS {
        let data = &func.blocks[blocks[next].index()];
        next += 1;
        for t in local_successors(&data.term) {
            let Some(tdata) = func.blocks.get(t.index()) else {
                continue;
            };
            if !reaches[t.index()]
                || blocks.contains(&t)
                || blocks.len() >= MAX_BLOCKS
                || insts + tdata.insts.len() > MAX_INSTS
            {
                continue;
            }
            insts += tdata.insts.len();
            blocks.push(t);
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use wavejit_ir::{FunctionBuilder, StateLayout};

    fn layout() -> StateLayout {
        wavejit_ir::text::parse("function \"f\" wave 4 { uniform s[2] }\n\nblock0:\n  return\n")
            .expect("parses")
            .layout
    }

    /// `n` blocks; block `i` ends with `term(i)` (given the blocks) and holds `sizes[i]`
    /// constants.
    fn func(sizes: &[usize], term: impl Fn(usize, &[Block]) -> Terminator) -> Function {
        let mut b = FunctionBuilder::new("f", layout());
        let blocks: Vec<Block> = sizes.iter().map(|_| b.create_block()).collect();
        for (i, &n) in sizes.iter().enumerate() {
            b.switch_to(blocks[i]);
            for _ in 0..n {
                b.i32(1);
            }
            let t = match term(i, &blocks) {
                Terminator::Branch {
                    then_to, else_to, ..
                } => {
                    let c = b.bool(true);
                    Terminator::Branch {
                        cond: c,
                        then_to,
                        else_to,
                    }
                }
                t => t,
            };
            b.terminate(t);
        }
        b.finish()
    }

    #[test]
    fn the_blocks_of_a_loop_form_one_trace_without_its_entry_and_exit() {
        // 0 -> 1; 1 -> 2 or 3; 2 -> 1 (the loop); 3 returns.
        let f = func(&[1, 1, 1, 1], |i, b| match i {
            0 => Terminator::Jump(b[1]),
            1 => Terminator::Branch {
                cond: wavejit_ir::Value(0),
                then_to: b[2],
                else_to: b[3],
            },
            2 => Terminator::Jump(b[1]),
            _ => Terminator::Return,
        });
        assert_eq!(trace(&f, Block(1)), vec![Block(1), Block(2)]);
        assert_eq!(trace(&f, Block(2)), vec![Block(2), Block(1)]);
        assert_eq!(trace(&f, Block(0)), vec![Block(0)]);
        assert_eq!(trace(&f, Block(3)), vec![Block(3)]);
    }

    #[test]
    fn barriers_and_indirect_jumps_end_a_trace() {
        let f = func(&[1, 1, 1], |i, b| match i {
            0 => Terminator::Barrier(b[1]),
            1 => Terminator::JumpIndirect(wavejit_ir::Value(0)),
            _ => Terminator::Jump(b[0]),
        });
        assert_eq!(trace(&f, Block(0)), vec![Block(0)]);
        assert_eq!(trace(&f, Block(1)), vec![Block(1)]);
        assert_eq!(trace(&f, Block(2)), vec![Block(2)]);
    }

    #[test]
    fn the_limits_bound_a_trace() {
        // A loop of 20 blocks: at most MAX_BLOCKS of them.
        let f = func(&[1; 20], |i, b| Terminator::Jump(b[(i + 1) % b.len()]));
        assert_eq!(trace(&f, Block(0)).len(), MAX_BLOCKS);
        // A big block of the loop is left out, and what only it reaches; the head always
        // fits.
        let f = func(&[MAX_INSTS, 10, MAX_INSTS - 20, 1], |i, b| match i {
            0 => Terminator::Jump(b[1]),
            1 => Terminator::Jump(b[2]),
            2 => Terminator::Jump(b[3]),
            _ => Terminator::Jump(b[0]),
        });
        assert_eq!(trace(&f, Block(0)), vec![Block(0)]);
        assert_eq!(trace(&f, Block(1)), vec![Block(1), Block(2), Block(3)]);
    }
}
