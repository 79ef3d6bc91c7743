//! The MC's address translation (seed 003 §2.1.4, tables 1 and 2), written once over
//! [`BitOps`] so that the host ([`Host`], `u32`) and the lifter (values in generated code)
//! compute the same addresses.
//!
//! Only bits 11:0 of x and y take part (the seed's fields never name a higher bit), so a
//! coordinate wraps modulo 4096; the sum in the high part wraps modulo 2^(32 - shift), as the
//! seed's bit ranges say. x and y may be any 32-bit values (a lifter turning a float input
//! coordinate into an integer decides what a negative or fractional one becomes; its bits
//! 11:0 are then the element's). The result equals `base + bpe * (y * pitch + x)` only for linear
//! surfaces whose pitch is a multiple of 32 / bpe: table 1 drops pitch bits below k.

use super::recipe::{recipe, Coord, Recipe, Src};
use super::Surface;

/// The bit operations the translation needs, on 32-bit values of some kind: host integers,
/// or values in code being generated (`&mut self` is the builder). All arithmetic wraps
/// modulo 2^32.
pub trait BitOps {
    type V: Copy;
    /// A 32-bit constant.
    fn constant(&mut self, value: u32) -> Self::V;
    /// Bits `hi:lo` of `v`, moved to bit 0 (`(v >> lo) & ((1 << (hi - lo + 1)) - 1)`).
    fn field(&mut self, v: Self::V, hi: u32, lo: u32) -> Self::V;
    /// `v << n`, n < 32.
    fn shl(&mut self, v: Self::V, n: u32) -> Self::V;
    fn or(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn xor(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn add(&mut self, a: Self::V, b: Self::V) -> Self::V;
    fn mul(&mut self, a: Self::V, b: Self::V) -> Self::V;
}

/// The host instance: plain `u32`s.
#[derive(Clone, Copy, Debug, Default)]
pub struct Host;

/// Bits `hi:lo` of `v` (host arithmetic on the surface's own constants).
pub(crate) fn bits(v: u32, hi: u32, lo: u32) -> u32 {
    let width = hi - lo + 1;
    let shifted = v >> lo;
    if width >= 32 {
        shifted
    } else {
        shifted & ((1 << width) - 1)
    }
}

impl BitOps for Host {
    type V = u32;
    fn constant(&mut self, value: u32) -> u32 {
        value
    }
    fn field(&mut self, v: u32, hi: u32, lo: u32) -> u32 {
        bits(v, hi, lo)
    }
    fn shl(&mut self, v: u32, n: u32) -> u32 {
        v << n
    }
    fn or(&mut self, a: u32, b: u32) -> u32 {
        a | b
    }
    fn xor(&mut self, a: u32, b: u32) -> u32 {
        a ^ b
    }
    fn add(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_add(b)
    }
    fn mul(&mut self, a: u32, b: u32) -> u32 {
        a.wrapping_mul(b)
    }
}

/// The address of element (x, y) of `s`, in `b`'s values. The surface's base and pitch are
/// constants (folded here on the host); only x and y are values. Superfine tiling only
/// changes which elements an input read fetches (see [`super::format::read_input`]), not
/// where an element is, so tilings 2 and 3 translate as 0 and 1.
pub fn translate<B: BitOps>(b: &mut B, s: &Surface, x: B::V, y: B::V) -> B::V {
    let r = recipe(s.bpe(), s.tiling.tiled()).expect("every data format's bpe has a row");
    translate_with(b, r, s.base, s.pitch, x, y)
}

/// The address of element (x, y) under one row of the tables, for any base and pitch (base
/// bits below the recipe's shift are ignored, as they are zero in a surface).
pub fn translate_with<B: BitOps>(
    b: &mut B,
    r: &Recipe,
    base: u32,
    pitch: u32,
    x: B::V,
    y: B::V,
) -> B::V {
    let yf = b.field(y, 11, r.y_lo);
    let pitch = b.constant(bits(pitch, 13, r.pitch_lo));
    let xf = b.field(x, 11, r.x_lo);
    let offset = b.constant(base >> r.shift);
    let row = b.mul(yf, pitch);
    let sum = b.add(row, xf);
    let sum = b.add(sum, offset);
    let mut addr = b.shl(sum, r.shift);
    for p in r.low {
        let mut v = coord_bits(b, x, y, p.src, p.width);
        if let Some(other) = p.xor {
            let w = coord_bits(b, x, y, other, p.width);
            v = b.xor(v, w);
        }
        let v = b.shl(v, p.dst);
        addr = b.or(addr, v);
    }
    addr
}

fn coord_bits<B: BitOps>(b: &mut B, x: B::V, y: B::V, src: Src, width: u32) -> B::V {
    let v = match src.coord {
        Coord::X => x,
        Coord::Y => y,
    };
    b.field(v, src.lo + width - 1, src.lo)
}

/// The host address of element (x, y) of `s`.
pub fn address(s: &Surface, x: u32, y: u32) -> u32 {
    translate(&mut Host, s, x, y)
}
