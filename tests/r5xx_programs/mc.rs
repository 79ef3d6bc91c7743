//! The memory controller on the host, restated from seed 003 §2.1.4 and §2.2.2 for the
//! tests (independent of frontend/r5xx/src/mc): the format word, the address tables 1 and 2
//! (the CLI tests' transcription, `tests/r5xx_util/address.rs`, checked by hand below), the
//! data formats and the 2x2 superfine input reads.
//!
//! Where the seed names a format but not its conversion, the rules are the ones
//! frontend/r5xx/src/mc/format.rs documents (and DX9's): UINT8_4 and UINT16_1 read as
//! `v / 255` (`/ 65535`) in f32; they are written clamped to [0, 1] (NaN as 0), scaled by 255
//! (65535) in f32 and rounded to the nearest integer, ties to even; FLOAT32 channels are raw
//! bits; channels a format lacks read as G = 0, B = 0, A = 1.

/// A client's surface: what a `set_*_fmt` command gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Surface {
    pub base: u32,
    pub pitch: u32,
    /// 0 LINEAR, 1 TILED, 2 LINEAR_INP_2X2, 3 TILED_INP_2X2.
    pub tiling: u32,
    /// 0 UINT16_1, 1 UINT8_4, 2 FLOAT32_1, 3 FLOAT32_2, 4 FLOAT32_4.
    pub format: u32,
    pub height: u32,
}

pub const UINT16_1: u32 = 0;
pub const UINT8_4: u32 = 1;
pub const FLOAT32_1: u32 = 2;

/// Bits `hi:lo` of `v`.
fn field(v: u32, hi: u32, lo: u32) -> u32 {
    (v >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

impl Surface {
    /// The surface of a command's base address, format and height parameters: base bits
    /// 31:11, pitch 12:2, tiling 17:16, format 26:24.
    pub fn new(base: u32, format: u32, height: u32) -> Surface {
        Surface {
            base: base & !0x7ff,
            pitch: field(format, 12, 2) << 2,
            tiling: field(format, 17, 16),
            format: field(format, 26, 24),
            height,
        }
    }

    /// The format word of a pitch, tiling and data format.
    pub fn word(pitch: u32, tiling: u32, format: u32) -> u32 {
        assert_eq!(pitch % 4, 0, "the pitch is a multiple of 4");
        pitch | tiling << 16 | format << 24
    }

    pub fn bpe(&self) -> u32 {
        [2, 4, 4, 8, 16][self.format as usize]
    }

    pub fn channels(&self) -> usize {
        [1, 4, 1, 2, 4][self.format as usize]
    }

    fn tiled(&self) -> bool {
        self.tiling & 1 == 1
    }

    pub fn superfine(&self) -> bool {
        self.tiling & 2 == 2
    }

    /// The address of element (x, y): table 1 (linear) or table 2 (tiled), as the CLI
    /// tests restate them (`tests/r5xx_util/address.rs`).
    pub fn address(&self, x: u32, y: u32) -> u32 {
        let (base, pitch, bpe) = (self.base, self.pitch, self.bpe());
        if self.tiled() {
            crate::r5xx_util::address::tiled(base, pitch, bpe, x, y)
        } else {
            crate::r5xx_util::address::linear(base, pitch, bpe, x, y)
        }
    }

    /// Byte offset and size of channel `c` in an element, if the format has it.
    fn channel(&self, c: usize) -> Option<(u32, u32)> {
        (c < self.channels()).then(|| match self.format {
            UINT16_1 => (0, 2),
            UINT8_4 => (c as u32, 1),
            _ => (4 * c as u32, 4),
        })
    }

    /// The f32 bits of the channels of element (x, y).
    pub fn read(&self, mem: &[u8], x: u32, y: u32) -> [u32; 4] {
        let addr = self.address(x, y) as usize;
        std::array::from_fn(|c| match self.channel(c) {
            None => [0, 0, 0, 1.0f32.to_bits()][c],
            Some((off, size)) => {
                let at = addr + off as usize;
                let raw = mem[at..at + size as usize]
                    .iter()
                    .rev()
                    .fold(0u32, |v, &b| v << 8 | u32::from(b));
                match size {
                    1 => (raw as f32 / 255.0).to_bits(),
                    2 => (raw as f32 / 65535.0).to_bits(),
                    _ => raw,
                }
            }
        })
    }

    /// An input read at (x, y): the element, or with a 2x2 superfine tiling channel 0 of
    /// (x+1, y), (x, y+1), (x+1, y+1), (x, y) in R, G, B, A.
    pub fn read_input(&self, mem: &[u8], x: u32, y: u32) -> [u32; 4] {
        if !self.superfine() {
            return self.read(mem, x, y);
        }
        let at = [(1, 0), (0, 1), (1, 1), (0, 0)];
        at.map(|(dx, dy)| self.read(mem, x.wrapping_add(dx), y.wrapping_add(dy))[0])
    }

    /// The raw value a channel of `size` bytes stores for f32 bits `v`.
    fn encode(size: u32, v: u32) -> u32 {
        let scale = match size {
            1 => 255.0f32,
            2 => 65535.0,
            _ => return v,
        };
        let f = f32::from_bits(v);
        let c = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
        (c * scale).round_ties_even() as u32
    }

    /// Writes the channels of `mask` of `value` to element (x, y).
    pub fn write(&self, mem: &mut [u8], x: u32, y: u32, mask: u8, value: [u32; 4]) {
        let addr = self.address(x, y) as usize;
        for (c, &v) in value.iter().enumerate() {
            if mask >> c & 1 == 0 {
                continue;
            }
            if let Some((off, size)) = self.channel(c) {
                let at = addr + off as usize;
                let raw = Self::encode(size, v).to_le_bytes();
                mem[at..at + size as usize].copy_from_slice(&raw[..size as usize]);
            }
        }
    }

    /// Writes raw channel values (unorm integers or f32 bits) to element (x, y): how the
    /// tests lay out their input data.
    pub fn put_raw(&self, mem: &mut [u8], x: u32, y: u32, raw: [u32; 4]) {
        let addr = self.address(x, y) as usize;
        for (c, &v) in raw.iter().enumerate() {
            if let Some((off, size)) = self.channel(c) {
                let at = addr + off as usize;
                mem[at..at + size as usize].copy_from_slice(&v.to_le_bytes()[..size as usize]);
            }
        }
    }

    /// The byte ranges element (x, y) covers (for the harness's overlap checks).
    pub fn bytes(&self, x: u32, y: u32) -> std::ops::Range<u32> {
        let a = self.address(x, y);
        a..a + self.bpe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_addresses_are_row_major_for_whole_pitches() {
        // Table 1 with a pitch that is a multiple of 32 / bpe: base + bpe * (y * pitch + x).
        let s = Surface::new(0x800, Surface::word(64, 0, FLOAT32_1), 8);
        assert_eq!(s.address(5, 3), 0x800 + 4 * (3 * 64 + 5));
        // pitch 36 (not a multiple of 8): pitch[13:3] = 4 rows of 32 bytes.
        let s = Surface::new(0, Surface::word(36, 0, FLOAT32_1), 8);
        assert_eq!(s.address(1, 1), 4 * 32 + 4);
    }

    #[test]
    fn tiled_addresses_by_hand() {
        // bpe 4, (x, y) = (5, 3): y0 -> bit 4, x[1:0] = 1 -> bits 3:2, y1 -> bit 6, x2 -> 5,
        // y2^x4 = 0, x3^y3 = 0: 0x10 + 0x4 + 0x40 + 0x20.
        let s = Surface::new(0x1000, Surface::word(64, 1, FLOAT32_1), 8);
        assert_eq!(s.address(5, 3), 0x1000 + 0x74);
        // (32, 16): tile (1, 1) = 1 * (64 >> 5) + 1 = 3 tiles, y3^x5 = 1 -> bit 10, x4^y4 = 1
        // -> bit 9.
        assert_eq!(s.address(32, 16), 0x1000 + 3 * 2048 + 0x600);
    }

    #[test]
    fn unorm_conversions() {
        let s = Surface::new(0, Surface::word(4, 0, UINT8_4), 1);
        let mut mem = vec![0u8; 16];
        s.write(
            &mut mem,
            0,
            0,
            0xf,
            [
                f32::NAN.to_bits(),
                2.0f32.to_bits(),
                0.5f32.to_bits(),
                (-1.0f32).to_bits(),
            ],
        );
        assert_eq!(&mem[..4], &[0, 255, 128, 0]);
        assert_eq!(s.read(&mem, 0, 0)[1], 1.0f32.to_bits());
    }
}
