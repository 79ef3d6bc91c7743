//! Guest device memory: one lazily committed host reservation holding every buffer.
//!
//! Invariants:
//! - Guest virtual addresses start at [`GUEST_BASE`], so null and small integers are never
//!   valid pointers; guest address `a` lives at arena offset `a - GUEST_BASE`. (A caller that
//!   chooses its own addresses, `wavejit wave`, reserves from another 64 KiB-aligned base.)
//! - Buffers are placed in increasing address order, each aligned to at least
//!   [`MIN_BUFFER_ALIGN`] and followed by a gap of at least [`GUARD_BYTES`] that belongs to no
//!   buffer. An access is valid only if it lies entirely inside ONE buffer; any other access
//!   returns [`MemError`] and touches nothing, so a kernel can never reach host memory outside
//!   the arena (or bytes of the arena outside its buffers).
//! - All reads and writes go through `Atomic*::from_ptr`: plain accesses are relaxed (byte-wise
//!   when unaligned), read-modify-writes are `SeqCst`. Workgroups running on several threads
//!   may race on guest memory (as they do on a GPU), but never cause Rust undefined behaviour.
//! - Buffers are only added through `&mut self`, so the buffer table is immutable while a
//!   dispatch shares the memory, and lookups need no lock.

use memmap2::{MmapOptions, MmapRaw};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use wavejit_ir::MemWidth;

/// Guest address of the first byte of the arena.
pub const GUEST_BASE: u64 = 0x1_0000_0000;
/// Unmapped guest bytes after every buffer (catches small overruns as faults).
pub const GUARD_BYTES: u64 = 64 << 10;
/// Minimum alignment of a buffer's start (the alignment GPU drivers give allocations).
pub const MIN_BUFFER_ALIGN: u64 = 256;
/// Reservation tried first by [`GuestMemory::new`]; smaller ones are tried if the host
/// refuses (strict overcommit).
pub const DEFAULT_RESERVE: u64 = 16 << 30;
const MIN_RESERVE: u64 = 256 << 20;

/// A failed guest memory operation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MemError {
    #[error("{len}-byte {} at guest address {addr:#x} is outside every buffer", if *write { "store" } else { "load" })]
    OutOfBounds { addr: u64, len: u64, write: bool },
    #[error("{len}-byte atomic at guest address {addr:#x} is not aligned to its size")]
    Misaligned { addr: u64, len: u64 },
    #[error("cannot allocate {size} bytes: the {reserved}-byte guest arena is full")]
    ArenaFull { size: u64, reserved: u64 },
    #[error("buffer alignment {0} is not a power of two")]
    BadAlign(u64),
    #[error("cannot reserve guest memory: {0}")]
    Reserve(String),
    #[error("a buffer cannot start at {addr:#x}: guest memory is free from {below:#x} on")]
    Placement { addr: u64, below: u64 },
}

/// One allocated buffer: guest addresses `start .. start + len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Buffer {
    pub start: u64,
    pub len: u64,
}

/// Device memory: one reserved arena; every access is checked.
pub struct GuestMemory {
    arena: MmapRaw,
    /// Sorted by `start` (allocation order), non-overlapping.
    buffers: Vec<Buffer>,
    /// The guest address of the arena's first byte ([`GUEST_BASE`] unless placed with
    /// [`GuestMemory::with_reserve_at`]); a multiple of 64 KiB.
    base: u64,
    /// Next free guest address.
    next: u64,
    /// Index of the buffer the last successful lookup hit (a hint; any value is safe).
    last_hit: AtomicUsize,
}

impl GuestMemory {
    /// Reserves [`DEFAULT_RESERVE`] bytes (or, if the host refuses, the largest power-of-two
    /// fraction of it down to 256 MiB). Nothing is committed until written.
    pub fn new() -> Result<GuestMemory, MemError> {
        let mut size = DEFAULT_RESERVE;
        loop {
            match GuestMemory::with_reserve(size) {
                Ok(m) => return Ok(m),
                Err(e) if size <= MIN_RESERVE => return Err(e),
                Err(_) => size /= 2,
            }
        }
    }

    /// Reserves exactly `bytes` of guest address space (MAP_NORESERVE: pages are committed
    /// on first write only) from [`GUEST_BASE`].
    pub fn with_reserve(bytes: u64) -> Result<GuestMemory, MemError> {
        GuestMemory::with_reserve_at(GUEST_BASE, bytes)
    }

    /// Reserves `bytes` of guest address space starting at guest address `base` (rounded down
    /// to 64 KiB, so guest alignment is host alignment), for a caller that places buffers at
    /// addresses of its own (`wavejit wave`).
    pub fn with_reserve_at(base: u64, bytes: u64) -> Result<GuestMemory, MemError> {
        let base = base & !0xffff;
        let len =
            usize::try_from(bytes).map_err(|_| MemError::Reserve(format!("{bytes} bytes")))?;
        let map = MmapOptions::new()
            .len(len)
            .no_reserve_swap()
            .map_anon()
            .map_err(|e| MemError::Reserve(format!("{bytes} bytes: {e}")))?;
        Ok(GuestMemory {
            arena: MmapRaw::from(map),
            buffers: Vec::new(),
            base,
            next: base,
            last_hit: AtomicUsize::new(0),
        })
    }

    /// A copy: the same reservation size, the same buffers at the same addresses with the
    /// same bytes (so two engines can run from one initial memory).
    pub fn duplicate(&self) -> Result<GuestMemory, MemError> {
        let mut copy = GuestMemory::with_reserve_at(self.base, self.reserved())?;
        copy.buffers = self.buffers.clone();
        copy.next = self.next;
        let mut bytes = Vec::new();
        for b in &self.buffers {
            bytes.resize(b.len as usize, 0);
            self.read_bytes(b.start, &mut bytes)?;
            copy.write_bytes(b.start, &bytes)?;
        }
        Ok(copy)
    }

    /// The guest address of the arena's first byte.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The host address of guest address 0 (wrapping): guest address `a` of a buffer is at
    /// host address `host_base() + a`. For engines that access buffers directly after
    /// checking the range against a buffer's bounds ([`GuestMemory::buffer_at`]).
    pub fn host_base(&self) -> u64 {
        (self.arena.as_mut_ptr() as u64).wrapping_sub(self.base)
    }

    /// Bytes of guest address space reserved.
    pub fn reserved(&self) -> u64 {
        self.arena.len() as u64
    }

    /// The buffers allocated so far, in address order.
    pub fn buffers(&self) -> &[Buffer] {
        &self.buffers
    }

    /// Allocates a zero-filled buffer of `size` bytes aligned to `align` (a power of two;
    /// at least [`MIN_BUFFER_ALIGN`] is used) and returns its guest address. A zero-sized
    /// buffer gets a unique address at which no access is valid.
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64, MemError> {
        if !align.is_power_of_two() {
            return Err(MemError::BadAlign(align));
        }
        let align = align.max(MIN_BUFFER_ALIGN);
        let full = MemError::ArenaFull {
            size,
            reserved: self.reserved(),
        };
        let start = self
            .next
            .checked_next_multiple_of(align)
            .ok_or(full.clone())?;
        let end = start.checked_add(size).ok_or(full.clone())?;
        if end - self.base > self.reserved() {
            return Err(full);
        }
        self.buffers.push(Buffer { start, len: size });
        // A zero-sized buffer still advances `next`, so addresses stay unique.
        self.next = end.max(start + 1).saturating_add(GUARD_BYTES);
        Ok(start)
    }

    /// Allocates a buffer holding `data` at guest address `addr` exactly (`wavejit wave`'s
    /// memory ranges). Buffers placed this way must come in increasing address order, each at
    /// or after the end of the previous one (no guard gap is required).
    pub fn alloc_at(&mut self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let len = data.len() as u64;
        let full = MemError::ArenaFull {
            size: len,
            reserved: self.reserved(),
        };
        let below = self
            .buffers
            .last()
            .map_or(self.base, |b| b.start + b.len.max(1));
        let end = addr.checked_add(len).ok_or(full.clone())?;
        if addr < below {
            return Err(MemError::Placement { addr, below });
        }
        if end - self.base > self.reserved() {
            return Err(full);
        }
        self.buffers.push(Buffer { start: addr, len });
        self.next = self.next.max(end.max(addr + 1).saturating_add(GUARD_BYTES));
        self.write_bytes(addr, data)
    }

    /// Allocates a buffer holding `data`.
    pub fn alloc_bytes(&mut self, data: &[u8], align: u64) -> Result<u64, MemError> {
        let addr = self.alloc(data.len() as u64, align)?;
        self.write_bytes(addr, data)?;
        Ok(addr)
    }

    /// The buffer containing guest address `addr`, if any.
    pub fn buffer_at(&self, addr: u64) -> Option<Buffer> {
        let i = self
            .buffers
            .partition_point(|b| b.start <= addr)
            .checked_sub(1)?;
        let b = self.buffers[i];
        (addr - b.start < b.len).then_some(b)
    }

    /// Arena offset of `addr .. addr + len` if that range lies inside one buffer.
    #[inline]
    pub fn check(&self, addr: u64, len: u64, write: bool) -> Result<usize, MemError> {
        let oob = MemError::OutOfBounds { addr, len, write };
        let inside = |b: &Buffer| addr >= b.start && len <= b.len && addr - b.start <= b.len - len;
        let hint = self.last_hit.load(Ordering::Relaxed);
        if let Some(b) = self.buffers.get(hint) {
            if inside(b) {
                return Ok((addr - self.base) as usize);
            }
        }
        let i = self
            .buffers
            .partition_point(|b| b.start <= addr)
            .checked_sub(1)
            .ok_or(oob.clone())?;
        if !inside(&self.buffers[i]) {
            return Err(oob);
        }
        self.last_hit.store(i, Ordering::Relaxed);
        Ok((addr - self.base) as usize)
    }

    fn ptr(&self, off: usize) -> *mut u8 {
        // `off` comes from `check`: inside a buffer, hence inside the arena.
        self.arena.as_mut_ptr().wrapping_add(off)
    }

    /// Loads `width` bytes (little-endian, zero-extended). Relaxed; byte-wise if unaligned.
    pub fn load(&self, addr: u64, width: MemWidth) -> Result<u64, MemError> {
        let n = width.bytes() as usize;
        let off = self.check(addr, n as u64, false)?;
        let p = self.ptr(off);
        // SAFETY: `p .. p + n` lies inside the live arena (checked); alignment is tested
        // before each typed view; all concurrent accesses to the arena are atomic.
        Ok(unsafe {
            if (p as usize).is_multiple_of(n) {
                match width {
                    MemWidth::B8 => AtomicU8::from_ptr(p).load(Ordering::Relaxed) as u64,
                    MemWidth::B16 => {
                        AtomicU16::from_ptr(p as *mut u16).load(Ordering::Relaxed) as u64
                    }
                    MemWidth::B32 => {
                        AtomicU32::from_ptr(p as *mut u32).load(Ordering::Relaxed) as u64
                    }
                    MemWidth::B64 => AtomicU64::from_ptr(p as *mut u64).load(Ordering::Relaxed),
                }
            } else {
                (0..n).fold(0u64, |v, i| v | (load_byte(p.add(i)) as u64) << (8 * i))
            }
        })
    }

    /// Stores the low `width` bytes of `value` (little-endian). Relaxed; byte-wise if
    /// unaligned.
    pub fn store(&self, addr: u64, width: MemWidth, value: u64) -> Result<(), MemError> {
        let n = width.bytes() as usize;
        let off = self.check(addr, n as u64, true)?;
        let p = self.ptr(off);
        // SAFETY: as in `load`.
        unsafe {
            if (p as usize).is_multiple_of(n) {
                match width {
                    MemWidth::B8 => AtomicU8::from_ptr(p).store(value as u8, Ordering::Relaxed),
                    MemWidth::B16 => {
                        AtomicU16::from_ptr(p as *mut u16).store(value as u16, Ordering::Relaxed)
                    }
                    MemWidth::B32 => {
                        AtomicU32::from_ptr(p as *mut u32).store(value as u32, Ordering::Relaxed)
                    }
                    MemWidth::B64 => {
                        AtomicU64::from_ptr(p as *mut u64).store(value, Ordering::Relaxed)
                    }
                }
            } else {
                for i in 0..n {
                    store_byte(p.add(i), (value >> (8 * i)) as u8);
                }
            }
        }
        Ok(())
    }

    /// Atomically replaces the `width`-byte value at `addr` by `f(old)` (SeqCst) and returns
    /// `old`. The address must be aligned to the width. `f` may be called more than once
    /// (compare-and-swap loop), so it must be a pure function of `old`.
    pub fn atomic_rmw(
        &self,
        addr: u64,
        width: MemWidth,
        f: impl Fn(u64) -> u64,
    ) -> Result<u64, MemError> {
        let n = width.bytes() as u64;
        let off = self.check(addr, n, true)?;
        if !addr.is_multiple_of(n) {
            return Err(MemError::Misaligned { addr, len: n });
        }
        let p = self.ptr(off);
        let sc = Ordering::SeqCst;
        // SAFETY: inside the arena (checked) and aligned (the base and the arena are
        // page-aligned, so guest alignment is host alignment).
        let old = unsafe {
            match width {
                MemWidth::B8 => AtomicU8::from_ptr(p)
                    .fetch_update(sc, sc, |o| Some(f(o as u64) as u8))
                    .map(|o| o as u64)
                    .map_err(|o| o as u64),
                MemWidth::B16 => AtomicU16::from_ptr(p as *mut u16)
                    .fetch_update(sc, sc, |o| Some(f(o as u64) as u16))
                    .map(|o| o as u64)
                    .map_err(|o| o as u64),
                MemWidth::B32 => AtomicU32::from_ptr(p as *mut u32)
                    .fetch_update(sc, sc, |o| Some(f(o as u64) as u32))
                    .map(|o| o as u64)
                    .map_err(|o| o as u64),
                MemWidth::B64 => {
                    AtomicU64::from_ptr(p as *mut u64).fetch_update(sc, sc, |o| Some(f(o)))
                }
            }
        };
        // The closure never returns `None`, so `fetch_update` cannot fail.
        Ok(old.unwrap_or_else(|o| o))
    }

    /// Copies guest bytes at `addr` into `out` (host side: setup, results). The range must lie
    /// inside one buffer; an empty range always succeeds.
    pub fn read_bytes(&self, addr: u64, out: &mut [u8]) -> Result<(), MemError> {
        if out.is_empty() {
            return Ok(());
        }
        let p = self.ptr(self.check(addr, out.len() as u64, false)?);
        for (i, b) in out.iter_mut().enumerate() {
            // SAFETY: `p .. p + out.len()` is inside the arena (checked).
            *b = unsafe { load_byte(p.add(i)) };
        }
        Ok(())
    }

    /// Copies `data` to guest address `addr` (host side). The range must lie inside one buffer;
    /// an empty range always succeeds.
    pub fn write_bytes(&self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        if data.is_empty() {
            return Ok(());
        }
        let p = self.ptr(self.check(addr, data.len() as u64, true)?);
        for (i, &b) in data.iter().enumerate() {
            // SAFETY: as in `read_bytes`.
            unsafe { store_byte(p.add(i), b) };
        }
        Ok(())
    }
}

/// # Safety
/// `p` must point into the live arena.
#[inline]
unsafe fn load_byte(p: *mut u8) -> u8 {
    unsafe { AtomicU8::from_ptr(p).load(Ordering::Relaxed) }
}

/// # Safety
/// `p` must point into the live arena.
#[inline]
unsafe fn store_byte(p: *mut u8, v: u8) {
    unsafe { AtomicU8::from_ptr(p).store(v, Ordering::Relaxed) }
}

impl std::fmt::Debug for GuestMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GuestMemory")
            .field("reserved", &self.reserved())
            .field("buffers", &self.buffers.len())
            .finish()
    }
}
