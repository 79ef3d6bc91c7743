//! Kernel argument values and their packing into an argument block (a GCN kernarg segment, a
//! TeraScale constant buffer 0, ...).
//!
//! Every ABI here lays arguments out the same way when no metadata says otherwise: in
//! parameter order, each aligned to its own size *counted from the start of the explicit
//! arguments*, which may follow a header ([`natural_offsets`]): LLVM's
//! `getExplicitKernelArgOffset` adds the header size after aligning, so an 8-byte value after a
//! 36-byte header sits at 44.

/// A kernel argument value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ArgValue {
    /// A global address as the ABI passes it (8 bytes; an ISA whose pointers are 32-bit
    /// offsets converts first, see [`ArgValue::Offset`]).
    Pointer(u64),
    /// A 32-bit pointer: a byte offset into a pool (TeraScale's global pool).
    Offset(u32),
    U8(u8),
    U16(u16),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
}

impl ArgValue {
    /// The little-endian bytes; their count is also the argument's natural alignment.
    pub fn bytes(self) -> Vec<u8> {
        match self {
            ArgValue::Pointer(v) | ArgValue::U64(v) => v.to_le_bytes().to_vec(),
            ArgValue::Offset(v) | ArgValue::U32(v) => v.to_le_bytes().to_vec(),
            ArgValue::U8(v) => vec![v],
            ArgValue::U16(v) => v.to_le_bytes().to_vec(),
            ArgValue::I32(v) => v.to_le_bytes().to_vec(),
            ArgValue::I64(v) => v.to_le_bytes().to_vec(),
            ArgValue::F32(v) => v.to_bits().to_le_bytes().to_vec(),
            ArgValue::F64(v) => v.to_bits().to_le_bytes().to_vec(),
        }
    }

    /// Bytes the value takes (and its natural alignment).
    pub fn size(self) -> u32 {
        self.bytes().len() as u32
    }

    /// Whether the value is an address or an offset.
    pub fn is_pointer(self) -> bool {
        matches!(self, ArgValue::Pointer(_) | ArgValue::Offset(_))
    }
}

/// The offset of every argument of `sizes`: each aligned to its own size counting from 0,
/// then moved past a `header` of that many bytes.
pub fn natural_offsets(sizes: &[u32], header: u32) -> Vec<u32> {
    let mut natural = 0u32;
    sizes
        .iter()
        .map(|&size| {
            natural = natural.next_multiple_of(size.max(1));
            let at = header + natural;
            natural += size;
            at
        })
        .collect()
}

/// An argument block under construction: bytes placed at given offsets, zero between them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArgBlock {
    bytes: Vec<u8>,
}

impl ArgBlock {
    pub fn new() -> ArgBlock {
        ArgBlock::default()
    }

    /// Writes `bytes` at `offset`, growing the block with zeros as needed.
    pub fn put(&mut self, offset: u32, bytes: &[u8]) {
        let end = offset as usize + bytes.len();
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        self.bytes[offset as usize..end].copy_from_slice(bytes);
    }

    /// Writes consecutive little-endian u32 words from `offset`.
    pub fn put_u32s(&mut self, offset: u32, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            self.put(offset + 4 * i as u32, &w.to_le_bytes());
        }
    }

    /// Places `values` after a `header`-byte header at [`natural_offsets`]; returns the offsets.
    pub fn put_natural(&mut self, header: u32, values: &[ArgValue]) -> Vec<u32> {
        let sizes: Vec<u32> = values.iter().map(|v| v.size()).collect();
        let offsets = natural_offsets(&sizes, header);
        for (v, &at) in values.iter().zip(&offsets) {
            self.put(at, &v.bytes());
        }
        offsets
    }

    /// Grows the block with zeros to at least `len` bytes.
    pub fn reserve_to(&mut self, len: usize) {
        if self.bytes.len() < len {
            self.bytes.resize(len, 0);
        }
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes, zero-padded to a multiple of `multiple`.
    pub fn finish(mut self, multiple: usize) -> Vec<u8> {
        let len = self.bytes.len().next_multiple_of(multiple.max(1));
        self.bytes.resize(len, 0);
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_align_from_the_end_of_the_header() {
        assert_eq!(
            natural_offsets(&[4, 8, 4, 2, 1, 4], 36),
            [36, 44, 52, 56, 58, 60]
        );
        assert_eq!(natural_offsets(&[4, 8, 4, 8, 4], 0), [0, 8, 16, 24, 32]);
    }

    #[test]
    fn blocks_hold_values_at_their_offsets() {
        let mut b = ArgBlock::new();
        b.put_u32s(0, &[7, 8]);
        let at = b.put_natural(
            8,
            &[ArgValue::U8(1), ArgValue::F64(-2.0), ArgValue::Offset(5)],
        );
        assert_eq!(at, [8, 16, 24]);
        let bytes = b.finish(16);
        assert_eq!(bytes.len(), 32);
        assert_eq!(&bytes[16..24], &(-2.0f64).to_le_bytes());
        assert_eq!(bytes[9..16], [0; 7]);
        assert_eq!(&bytes[24..28], &5u32.to_le_bytes());
    }
}
