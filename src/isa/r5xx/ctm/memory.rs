//! The GPU memory of a CTM stream: `memory SIZE` bytes at guest addresses `0..SIZE`, the
//! addresses CTM's 32-bit base addresses name, with no offset anywhere.
//!
//! It is one runtime buffer allocated at guest address 0 of a [`GuestMemory`] reserved from
//! address 0 ([`GuestMemory::with_reserve_at`]): every access a lifted program makes inside
//! `0..SIZE` is valid and every access outside is a checked fault, on both engines. Pages are
//! committed on first write only, so the default 64 MiB costs what a stream touches.

use crate::{Error, Result};
use wavejit_runtime::GuestMemory;

/// Bytes of GPU memory without a `memory` directive.
pub const DEFAULT_SIZE: u64 = 64 << 20;

/// The largest memory CTM's 32-bit addresses reach.
pub const MAX_SIZE: u64 = 1 << 32;

/// GPU memory: guest addresses `0..size`.
pub struct GpuMemory {
    mem: GuestMemory,
    size: u64,
}

impl GpuMemory {
    /// `size` bytes of zeroed memory (1 to [`MAX_SIZE`]).
    pub fn new(size: u64) -> Result<GpuMemory> {
        if size == 0 || size > MAX_SIZE {
            return Err(Error::Usage(format!(
                "memory {size}: GPU memory is 1 to {MAX_SIZE} bytes (32-bit addresses)"
            )));
        }
        // Room past the end for the runtime's guard gap.
        let reserve = size.next_multiple_of(1 << 16) + (1 << 16);
        let mut mem = GuestMemory::with_reserve_at(0, reserve).map_err(mem_err)?;
        let at = mem.alloc(size, 1 << 16).map_err(mem_err)?;
        if at != 0 {
            return Err(Error::Other(format!(
                "GPU memory was placed at {at:#x}, not at address 0"
            )));
        }
        Ok(GpuMemory { mem, size })
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    /// The runtime's memory the programs run on.
    pub fn guest(&self) -> &GuestMemory {
        &self.mem
    }

    /// Checks that `addr .. addr + len` lies in memory; `what` names the range in the error.
    pub fn check(&self, addr: u64, len: u64, what: &str) -> Result<()> {
        match addr.checked_add(len) {
            Some(end) if end <= self.size => Ok(()),
            _ => Err(Error::Load(format!(
                "{what}: {len} bytes at {addr:#x} are outside the {}-byte GPU memory",
                self.size
            ))),
        }
    }

    pub fn write(&self, addr: u64, bytes: &[u8], what: &str) -> Result<()> {
        self.check(addr, bytes.len() as u64, what)?;
        self.mem.write_bytes(addr, bytes).map_err(mem_err)
    }

    pub fn read(&self, addr: u64, len: u64, what: &str) -> Result<Vec<u8>> {
        self.check(addr, len, what)?;
        let mut out = vec![0; len as usize];
        self.mem.read_bytes(addr, &mut out).map_err(mem_err)?;
        Ok(out)
    }

    /// The little-endian dword at `addr`.
    pub fn read_u32(&self, addr: u64, what: &str) -> Result<u32> {
        let b = self.read(addr, 4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn mem_err(e: wavejit_runtime::MemError) -> Error {
    Error::Other(format!("GPU memory: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use wavejit_ir::MemWidth;

    #[test]
    fn memory_spans_addresses_zero_to_size() {
        let m = GpuMemory::new(1 << 20).unwrap();
        m.write(0, &[1, 2, 3, 4], "t").unwrap();
        m.write((1 << 20) - 4, &[5, 6, 7, 8], "t").unwrap();
        assert_eq!(m.read_u32(0, "t").unwrap(), 0x0403_0201);
        assert_eq!(m.guest().load(0, MemWidth::B32).unwrap(), 0x0403_0201);
        assert_eq!(
            m.guest().load((1 << 20) - 4, MemWidth::B32).unwrap(),
            0x0807_0605
        );
        // The engines see the same bounds: past the end is a fault, not host memory.
        assert!(m.guest().load(1 << 20, MemWidth::B8).is_err());
        assert!(m.write((1 << 20) - 3, &[0; 4], "t").is_err());
        assert!(m.read(u64::MAX, 2, "t").is_err());
    }

    #[test]
    fn sizes_outside_32_bit_addresses_are_refused() {
        assert!(GpuMemory::new(0).is_err());
        assert!(GpuMemory::new(MAX_SIZE + 1).is_err());
    }
}
