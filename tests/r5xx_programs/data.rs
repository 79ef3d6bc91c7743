//! Test data: seeded random values (uniform floats, the special values of seed 003 §3.6,
//! unorm integers) and the memory image a test fills with them.

use super::mc::Surface;
use super::{Filled, Rng};

/// A float in [lo, hi), f32 bits.
pub fn uniform(rng: &mut Rng, lo: f32, hi: f32) -> u32 {
    rng.f32(lo, hi).to_bits()
}

/// Special values of seed 003 §3.6: NaNs with payloads, infinities, zeros, denormals, the
/// smallest normals, huge values.
pub const SPECIALS: [u32; 14] = [
    0x7fc0_0000,
    0xffc1_2345,
    0x7f80_0001,
    0x7f80_0000,
    0xff80_0000,
    0x0000_0000,
    0x8000_0000,
    0x0000_0123,
    0x8040_0000,
    0x0080_0000,
    0x8080_0000,
    0x7f7f_ffff,
    0x3f80_0000,
    0xbf80_0000,
];

/// A float in [lo, hi), or with probability 1/`one_in` a special value.
pub fn mixed(rng: &mut Rng, lo: f32, hi: f32, one_in: u32) -> u32 {
    if rng.below(one_in) == 0 {
        SPECIALS[rng.below(SPECIALS.len() as u32) as usize]
    } else {
        uniform(rng, lo, hi)
    }
}

/// Raw channel values for an element of `format` (unorm integers or f32 bits from `f`).
pub fn raw(rng: &mut Rng, format: u32, f: &mut dyn FnMut(&mut Rng) -> u32) -> [u32; 4] {
    std::array::from_fn(|_| match format {
        super::mc::UINT16_1 => rng.below(65536),
        super::mc::UINT8_4 => rng.below(256),
        _ => f(rng),
    })
}

/// A memory image being filled with a test's data.
pub struct Image {
    pub mem: Vec<u8>,
    pub filled: Filled,
}

impl Image {
    /// Memory of `size` random bytes: a write of any value, zeros too, shows, and so does a
    /// missing one.
    pub fn new(size: usize, rng: &mut Rng) -> Image {
        Image {
            mem: (0..size).map(|_| rng.u32() as u8).collect(),
            filled: Vec::new(),
        }
    }

    /// Puts `value(x, y)` (raw channels) at every element of `xs` x `ys` of `s`.
    pub fn fill(
        &mut self,
        s: Surface,
        xs: std::ops::Range<u32>,
        ys: std::ops::Range<u32>,
        value: &mut dyn FnMut(u32, u32) -> [u32; 4],
    ) {
        for y in ys {
            for x in xs.clone() {
                s.put_raw(&mut self.mem, x, y, value(x, y));
                self.filled.push(s.bytes(x, y));
            }
        }
    }

    /// Puts `value(x, y)` at every element of `xs` x `ys` of `s` that a run may overwrite (the
    /// conditional buffer): not recorded as input data.
    pub fn preset(
        &mut self,
        s: Surface,
        xs: std::ops::Range<u32>,
        ys: std::ops::Range<u32>,
        value: &mut dyn FnMut(u32, u32) -> [u32; 4],
    ) {
        for y in ys {
            for x in xs.clone() {
                s.put_raw(&mut self.mem, x, y, value(x, y));
            }
        }
    }

    /// Puts constants 0, 1, ... at elements (c, 0) of `s`.
    pub fn constants(&mut self, s: Surface, values: &[[u32; 4]]) {
        for (c, v) in values.iter().enumerate() {
            s.put_raw(&mut self.mem, c as u32, 0, *v);
            self.filled.push(s.bytes(c as u32, 0));
        }
    }
}
