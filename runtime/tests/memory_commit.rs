//! The guest arena is reserved, not committed: touching a few bytes of a huge buffer costs a
//! few pages of resident memory. (Own test binary so no other test's allocations disturb the
//! resident-set measurement.)

use wavejit_ir::MemWidth;
use wavejit_runtime::GuestMemory;

/// Resident set size of this process in bytes, from /proc/self/status (Linux).
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .expect("VmRSS line");
    let kb: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

#[test]
fn reservation_commits_only_touched_pages() {
    let before = rss();
    let mut mem = GuestMemory::with_reserve(8 << 30).unwrap();
    let a = mem.alloc(6 << 30, 4096).unwrap();
    for i in 0..6u64 {
        mem.store(a + (i << 30), MemWidth::B32, 0xffff_ffff)
            .unwrap();
    }
    assert_eq!(mem.load(a + (5 << 30), MemWidth::B32), Ok(0xffff_ffff));
    assert_eq!(mem.load(a + (5 << 30) + 4, MemWidth::B32), Ok(0));
    let grown = rss().saturating_sub(before);
    assert!(
        grown < 32 << 20,
        "resident set grew by {grown} bytes for 6 touched pages"
    );
}
