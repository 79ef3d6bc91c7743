//! `drop_unread_writes` on a hand-written function: the expected function is written out by
//! hand from the pass's rule (a write whose cells no later read can see goes, with what only
//! it used, until nothing more goes; a masked write covers nothing; `return` keeps nothing
//! live).

use wavejit_ir::{drop_unread_writes, text};

const INPUT: &str = r#"function "f" wave 4 { uniform s[4], lane v[2] }

block0:
  %0 = read s[0] : i32
  write s[1], %0
  write s[2], %0
  %3 = lane_id : lane i32
  %4 = const 5 : i64
  %5 = mask_from_bits %4 : lane i1
  write v[0], %3, mask %5
  %7 = iadd %3, %3 : lane i32
  write v[1], %7
  jump block1

block1:
  %0 = const 7 : i32
  write s[2], %0
  %2 = read s[2] : i32
  %3 = read s[1] : i32
  %4 = iadd %2, %3 : i32
  %5 = lane_id : lane i32
  %6 = const 6 : i64
  %7 = mask_from_bits %6 : lane i1
  write v[0], %5, mask %7
  write v[1], %5
  %10 = read v[0] : lane i32
  %11 = read v[1] : lane i32
  %12 = iadd %10, %11 : lane i32
  %13 = splat %3 : lane i32
  %14 = iadd %12, %13 : lane i32
  store.lds.b32 %5, %14
  write s[3], %4
  return
"#;

/// block1: s[3] is never read again (gone, with the add and the read of s[2] only it used);
/// then s[2], whose only read is gone (gone, with its constant). block0: s[1] is read in
/// block1 for the stored value (kept); s[2] is written whole in block1 (gone); v[0]'s masked
/// write is seen through block1's masked write (kept); v[1] is written whole in block1 first
/// (gone, with the add only it used).
const EXPECTED: &str = r#"function "f" wave 4 { uniform s[4], lane v[2] }

block0:
  %0 = read s[0] : i32
  write s[1], %0
  %2 = lane_id : lane i32
  %3 = const 5 : i64
  %4 = mask_from_bits %3 : lane i1
  write v[0], %2, mask %4
  jump block1

block1:
  %0 = read s[1] : i32
  %1 = lane_id : lane i32
  %2 = const 6 : i64
  %3 = mask_from_bits %2 : lane i1
  write v[0], %1, mask %3
  write v[1], %1
  %6 = read v[0] : lane i32
  %7 = read v[1] : lane i32
  %8 = iadd %6, %7 : lane i32
  %9 = splat %0 : lane i32
  %10 = iadd %8, %9 : lane i32
  store.lds.b32 %1, %10
  return
"#;

#[test]
fn unread_writes_and_what_only_they_use_are_dropped() {
    let mut f = text::parse(INPUT).expect("the input parses");
    drop_unread_writes(&mut f);
    let want = text::parse(EXPECTED).expect("the expected function parses");
    assert_eq!(text::print(&f), text::print(&want));
}
