//! `merge_blocks` on hand-written functions: the expected functions are written out by hand
//! from the pass's rules (module doc of `wavejit_ir::merge`), not produced by the pass.

use wavejit_ir::merge::COPY_LIMIT;
use wavejit_ir::text::parse;
use wavejit_ir::verify::verify;
use wavejit_ir::*;

fn merged(src: &str) -> Function {
    let mut f = parse(src).unwrap_or_else(|e| panic!("{e}"));
    verify(&f).unwrap_or_else(|e| panic!("input: {e}"));
    merge_blocks(&mut f);
    verify(&f).unwrap_or_else(|e| panic!("merged: {e}"));
    f
}

fn expect(src: &str) -> Function {
    parse(src).unwrap_or_else(|e| panic!("{e}"))
}

fn total_insts(f: &Function) -> u32 {
    f.blocks.iter().map(|b| b.guest_insts).sum()
}

#[test]
fn a_jump_chain_merges_and_trampolines_are_threaded() {
    // block1 has one predecessor ending in a jump: it joins block0 (values renumbered, pcs
    // kept). block2 is empty: the branch goes straight to block4. block3 counts a guest
    // instruction, so it stays; block4 has two predecessors, so it stays, and block3 gets a
    // copy of it (four instructions).
    let f = merged(
        r#"
function "chain" wave 4 { uniform c[2] }

block0:
  %0 = const 1 : i32 @0x0
  write c[0], %0
  jump block1 @0x0

block1 @0x10 insts=2:
  %0 = read c[0] : i32 @0x10
  %1 = const 2 : i32 @0x14
  %2 = iadd %0, %1 : i32
  write c[1], %2
  %4 = icmp.eq %2, %1 : i1
  br %4, block2, block3 @0x14

block2:
  jump block4 @0x0

block3 @0x18 insts=1:
  jump block4 @0x18

block4 @0x20 insts=1:
  %0 = read c[1] : i32 @0x20
  %1 = const 3 : i32
  %2 = iadd %0, %1 : i32
  write c[0], %2
  return @0x24
"#,
    );
    let want = expect(
        r#"
function "chain" wave 4 { uniform c[2] }

block0 insts=2:
  %0 = const 1 : i32 @0x0
  write c[0], %0
  %2 = read c[0] : i32 @0x10
  %3 = const 2 : i32 @0x14
  %4 = iadd %2, %3 : i32
  write c[1], %4
  %6 = icmp.eq %4, %3 : i1
  br %6, block2, block1 @0x14

block1 @0x18 insts=2:
  %0 = read c[1] : i32 @0x20
  %1 = const 3 : i32
  %2 = iadd %0, %1 : i32
  write c[0], %2
  return @0x24

block2 @0x20 insts=1:
  %0 = read c[1] : i32 @0x20
  %1 = const 3 : i32
  %2 = iadd %0, %1 : i32
  write c[0], %2
  return @0x24
"#,
    );
    assert_eq!(f, want, "{}", wavejit_ir::text::print(&f));
    assert_eq!(total_insts(&f), 5);
}

#[test]
fn indirect_jump_targets_keep_their_blocks() {
    // With a jump_indirect every block with a guest pc may be its target: block1, block2 and
    // block4 keep their blocks, although each has one predecessor ending in a jump; those
    // predecessors get copies instead. The empty block3 is threaded past and removed.
    let f = merged(
        r#"
function "ind" wave 4 { uniform c[2] }

block0:
  %0 = const 0x20 : i64 @0x0
  write c[0], %0
  jump block1 @0x0

block1 @0x10 insts=1:
  %0 = read c[0] : i64 @0x10
  jump_indirect %0 @0x10

block2 @0x20 insts=1:
  %0 = const 5 : i32 @0x20
  write c[1], %0
  jump block3 @0x20

block3:
  jump block4 @0x0

block4 @0x28 insts=1:
  return @0x28
"#,
    );
    let pcs: Vec<Option<u64>> = f.blocks.iter().map(|b| b.guest_pc).collect();
    assert_eq!(pcs, [None, Some(0x10), Some(0x20), Some(0x28)]);
    assert!(matches!(f.blocks[0].term, Terminator::JumpIndirect(_)));
    assert_eq!(f.blocks[0].guest_insts, 1);
    assert!(matches!(f.blocks[1].term, Terminator::JumpIndirect(_)));
    assert_eq!(f.blocks[2].term, Terminator::Return);
    assert_eq!(f.blocks[2].guest_insts, 2);
    assert_eq!(f.blocks[3].term, Terminator::Return);
}

#[test]
fn without_indirect_jumps_guest_pc_blocks_merge() {
    // The same shape without jump_indirect: block2 joins block1, block4 joins them (block3
    // threaded away); block1 then joins block0.
    let f = merged(
        r#"
function "direct" wave 4 { uniform c[2] }

block0:
  %0 = const 0x20 : i64 @0x0
  write c[0], %0
  jump block1 @0x0

block1 @0x10 insts=1:
  %0 = read c[0] : i64 @0x10
  jump block2 @0x10

block2 @0x20 insts=1:
  %0 = const 5 : i32 @0x20
  write c[1], %0
  jump block3 @0x20

block3:
  jump block4 @0x0

block4 @0x28 insts=1:
  return @0x28
"#,
    );
    assert_eq!(f.blocks.len(), 1);
    assert_eq!(f.blocks[0].guest_insts, 3);
    assert_eq!(f.blocks[0].term, Terminator::Return);
    assert_eq!(f.blocks[0].term_pc, 0x28);
    assert_eq!(f.blocks[0].insts.len(), 5);
}

#[test]
fn empty_cycles_branches_barriers_and_the_entry_stay() {
    // block1 <-> block2 is a cycle of empty blocks (an endless loop that must still burn
    // fuel): it folds to one empty block jumping to itself, never away. The branch in block3
    // and the barrier in block4 end their blocks; block0 is never absorbed: block5, its only
    // predecessor, gets a copy.
    let f = merged(
        r#"
function "stay" wave 4 { uniform c[2] }

block0 @0x0 insts=1:
  %0 = read c[0] : i32 @0x0
  %1 = const 0 : i32
  %2 = icmp.eq %0, %1 : i1
  br %2, block1, block3 @0x0

block1:
  jump block2 @0x0

block2:
  jump block1 @0x0

block3 @0x8 insts=1:
  %0 = read c[1] : i32 @0x8
  %1 = const 0 : i32
  %2 = icmp.eq %0, %1 : i1
  br %2, block4, block5 @0x8

block4 @0x10 insts=1:
  barrier block5 @0x10

block5 @0x18 insts=1:
  %0 = const 1 : i32 @0x18
  write c[1], %0
  jump block0 @0x18
"#,
    );
    assert_eq!(f.blocks.len(), 5);
    assert_eq!(f.blocks[1].insts.len(), 0);
    assert_eq!(f.blocks[1].term, Terminator::Jump(Block(1)));
    assert!(matches!(
        f.blocks[0].term,
        Terminator::Branch {
            then_to: Block(1),
            else_to: Block(2),
            ..
        }
    ));
    assert!(matches!(
        f.blocks[2].term,
        Terminator::Branch {
            then_to: Block(3),
            else_to: Block(4),
            ..
        }
    ));
    assert_eq!(f.blocks[3].term, Terminator::Barrier(Block(4)));
    assert!(matches!(
        f.blocks[4].term,
        Terminator::Branch {
            then_to: Block(1),
            else_to: Block(2),
            ..
        }
    ));
    assert_eq!(f.blocks[4].guest_insts, 2);
    assert_eq!(f.blocks[0].insts.len(), 3);
}

#[test]
fn copies_are_limited() {
    // block3 is jumped to by block1 and block2; with COPY_LIMIT instructions both get a
    // copy (and block3 goes), with one more neither does.
    for (n, copied) in [(COPY_LIMIT, true), (COPY_LIMIT + 1, false)] {
        let body: String = (0..n)
            .map(|i| format!("  %{i} = const {i} : i32\n"))
            .collect();
        let src = format!(
            r#"
function "copy" wave 4 {{ uniform c[1] }}

block0:
  %0 = read c[0] : i32 @0x0
  %1 = const 0 : i32
  %2 = icmp.eq %0, %1 : i1
  br %2, block1, block2 @0x0

block1 @0x8 insts=1:
  jump block3 @0x8

block2 @0x10 insts=1:
  jump block3 @0x10

block3 @0x18 insts=1:
{body}  return @0x18
"#
        );
        let f = merged(&src);
        assert_eq!(f.blocks.len(), if copied { 3 } else { 4 }, "{n}");
        assert_eq!(f.blocks[1].term == Terminator::Return, copied, "{n}");
        assert_eq!(f.blocks[1].guest_insts, if copied { 2 } else { 1 });
    }
}
