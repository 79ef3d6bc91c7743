//! GuestMemory: bounds at every boundary byte, guard gaps, wild pointers, unaligned access,
//! atomics. Expected values come from host byte arithmetic (`from_le_bytes`), not from the
//! memory under test.

mod common;

use wavejit_ir::MemWidth;
use wavejit_runtime::{GuestMemory, MemError, GUARD_BYTES, GUEST_BASE, MIN_BUFFER_ALIGN};

const WIDTHS: [MemWidth; 4] = [MemWidth::B8, MemWidth::B16, MemWidth::B32, MemWidth::B64];

#[test]
fn every_boundary_byte_of_a_buffer() {
    let mut mem = common::memory();
    let a = mem.alloc(100, 4).unwrap();
    let pattern: Vec<u8> = (0..100u32).map(|i| (i * 7 + 3) as u8).collect();
    mem.write_bytes(a, &pattern).unwrap();
    for addr in a - 16..a + 116 {
        for w in WIDTHS {
            let n = w.bytes() as u64;
            let inside = addr >= a && addr + n <= a + 100;
            let got = mem.load(addr, w);
            if inside {
                let off = (addr - a) as usize;
                let mut b = [0u8; 8];
                b[..n as usize].copy_from_slice(&pattern[off..off + n as usize]);
                assert_eq!(
                    got,
                    Ok(u64::from_le_bytes(b)),
                    "load {n} at +{}",
                    addr as i64 - a as i64
                );
            } else {
                assert_eq!(
                    got,
                    Err(MemError::OutOfBounds {
                        addr,
                        len: n,
                        write: false
                    })
                );
                let st = mem.store(addr, w, 0xdead_beef_dead_beef);
                assert_eq!(
                    st,
                    Err(MemError::OutOfBounds {
                        addr,
                        len: n,
                        write: true
                    })
                );
            }
        }
    }
    // Failed stores changed nothing.
    let mut back = vec![0u8; 100];
    mem.read_bytes(a, &mut back).unwrap();
    assert_eq!(back, pattern);
}

#[test]
fn buffers_are_aligned_and_separated_by_guard_gaps() {
    let mut mem = common::memory();
    let a = mem.alloc(10, 1).unwrap();
    let b = mem.alloc(10, 4096).unwrap();
    let c = mem.alloc(0, 1).unwrap();
    let d = mem.alloc(1, 1).unwrap();
    assert!(a >= GUEST_BASE);
    assert_eq!(a % MIN_BUFFER_ALIGN, 0);
    assert_eq!(b % 4096, 0);
    assert!(b >= a + 10 + GUARD_BYTES);
    assert!(c >= b + 10 + GUARD_BYTES);
    assert!(d > c, "a zero-sized buffer still gets its own address");
    // Every byte of the gap between a and b belongs to no buffer (sampled densely near the
    // edges, sparsely in the middle).
    for addr in (a + 10..a + 10 + 64)
        .chain((a + 10..b).step_by(997))
        .chain(b - 64..b)
    {
        assert!(
            mem.load(addr, MemWidth::B8).is_err(),
            "gap byte {addr:#x} readable"
        );
    }
    // An access straddling from one buffer's end into the gap fails.
    assert!(mem.load(a + 8, MemWidth::B32).is_err());
    // Zero-sized buffer: no byte accessible, empty host copies fine.
    assert!(mem.load(c, MemWidth::B8).is_err());
    assert_eq!(mem.read_bytes(c, &mut []), Ok(()));
    assert_eq!(mem.buffer_at(b + 9).map(|x| x.start), Some(b));
    assert_eq!(mem.buffer_at(b + 10), None);
}

#[test]
fn wild_pointers_fault() {
    let mut mem = common::memory();
    let a = mem.alloc(64, 8).unwrap();
    let end_of_arena = GUEST_BASE + mem.reserved();
    for addr in [
        0,
        1,
        8,
        0xffff_ffff,
        GUEST_BASE - 8,
        end_of_arena,
        end_of_arena - 8,
        u64::MAX,
        u64::MAX - 3,
        a ^ (1 << 63),
    ] {
        for w in WIDTHS {
            assert!(mem.load(addr, w).is_err(), "load at {addr:#x}");
            assert!(mem.store(addr, w, 1).is_err(), "store at {addr:#x}");
            assert!(
                mem.atomic_rmw(addr, w, |x| x + 1).is_err(),
                "atomic at {addr:#x}"
            );
        }
        assert!(mem.read_bytes(addr, &mut [0u8; 4]).is_err());
        assert!(mem.write_bytes(addr, &[0u8; 4]).is_err());
    }
}

#[test]
fn unaligned_plain_accesses_are_little_endian_bytes() {
    let mut mem = common::memory();
    let bytes: Vec<u8> = (1..=32).collect();
    let a = mem.alloc_bytes(&bytes, 16).unwrap();
    for off in 0..24u64 {
        let host = u64::from_le_bytes(bytes[off as usize..off as usize + 8].try_into().unwrap());
        assert_eq!(mem.load(a + off, MemWidth::B64), Ok(host));
        assert_eq!(mem.load(a + off, MemWidth::B32), Ok(host & 0xffff_ffff));
        assert_eq!(mem.load(a + off, MemWidth::B16), Ok(host & 0xffff));
    }
    mem.store(a + 3, MemWidth::B32, 0xaabb_ccdd).unwrap();
    let mut back = [0u8; 8];
    mem.read_bytes(a, &mut back).unwrap();
    assert_eq!(back, [1, 2, 3, 0xdd, 0xcc, 0xbb, 0xaa, 8]);
}

#[test]
fn host_copies_must_fit_one_buffer() {
    let mut mem = common::memory();
    let a = mem.alloc(16, 1).unwrap();
    let _b = mem.alloc(16, 1).unwrap();
    assert!(mem.write_bytes(a, &[0u8; 16]).is_ok());
    assert_eq!(
        mem.write_bytes(a + 1, &[0u8; 16]),
        Err(MemError::OutOfBounds {
            addr: a + 1,
            len: 16,
            write: true
        })
    );
    assert!(mem.read_bytes(a, &mut [0u8; 17]).is_err());
}

#[test]
fn atomics_need_alignment_and_return_the_old_value() {
    let mut mem = common::memory();
    let a = mem.alloc(16, 8).unwrap();
    mem.store(a, MemWidth::B32, 41).unwrap();
    assert_eq!(mem.atomic_rmw(a, MemWidth::B32, |x| x + 1), Ok(41));
    assert_eq!(mem.load(a, MemWidth::B32), Ok(42));
    assert_eq!(
        mem.atomic_rmw(a + 2, MemWidth::B32, |x| x),
        Err(MemError::Misaligned {
            addr: a + 2,
            len: 4
        })
    );
    assert_eq!(
        mem.atomic_rmw(a + 4, MemWidth::B64, |x| x),
        Err(MemError::Misaligned {
            addr: a + 4,
            len: 8
        })
    );
    // A 64-bit atomic sees and writes all 8 bytes.
    mem.store(a + 8, MemWidth::B64, 0x1_0000_0000).unwrap();
    assert_eq!(
        mem.atomic_rmw(a + 8, MemWidth::B64, |x| x.wrapping_sub(1)),
        Ok(0x1_0000_0000)
    );
    assert_eq!(mem.load(a + 8, MemWidth::B64), Ok(0xffff_ffff));
}

#[test]
fn concurrent_atomic_increments_are_not_lost() {
    let mut mem = common::memory();
    let a = mem.alloc(8, 8).unwrap();
    std::thread::scope(|sc| {
        for _ in 0..4 {
            sc.spawn(|| {
                for _ in 0..5000 {
                    mem.atomic_rmw(a, MemWidth::B32, |x| x + 1).unwrap();
                }
            });
        }
    });
    assert_eq!(mem.load(a, MemWidth::B32), Ok(20000));
}

#[test]
fn allocation_errors() {
    let mut mem = GuestMemory::with_reserve(1 << 20).unwrap();
    assert_eq!(mem.alloc(16, 3), Err(MemError::BadAlign(3)));
    assert!(matches!(
        mem.alloc(2 << 20, 1),
        Err(MemError::ArenaFull { .. })
    ));
    assert!(matches!(
        mem.alloc(u64::MAX, 1),
        Err(MemError::ArenaFull { .. })
    ));
    // The arena is still usable after a refused allocation.
    let a = mem.alloc(1000, 1).unwrap();
    assert!(mem.store(a + 999, MemWidth::B8, 1).is_ok());
}

#[test]
fn default_reservation_succeeds() {
    let mut mem = GuestMemory::new().unwrap();
    assert!(mem.reserved() >= 256 << 20);
    let a = mem.alloc(4, 4).unwrap();
    assert_eq!(mem.load(a, MemWidth::B32), Ok(0));
}
