//! The memory controller (seed 003 §2.1.4 and §2.2.2): where each client's data lives.
//!
//! A [`Surface`] is what a `set_*_fmt` command gives a client: a 2 KiB-aligned base, a pitch
//! (elements per row, a multiple of 4), a [`Tiling`] and a [`DataFormat`]. Element (x, y) of a
//! surface is at the address seed 003's tables 1 and 2 give (see the address translation
//! below); nothing here assumes that equals `base + bpe * (y * pitch + x)`.

/// How a surface's elements are laid out (format word bits 17:16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiling {
    Linear,
    Tiled,
    /// Linear, with 2x2 superfine reads for single-channel inputs.
    LinearInp2x2,
    /// Tiled, with 2x2 superfine reads for single-channel inputs.
    TiledInp2x2,
}

/// An element's data format (format word bits 26:24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    Uint16x1,
    Uint8x4,
    Float32x1,
    Float32x2,
    Float32x4,
}

/// A client's memory: base address, pitch, tiling and data format, and the height its
/// `set_*_fmt` command gave (inputs, outputs and the conditional buffer; 0 for the others).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Surface {
    /// The base address (bits 31:11 of the command's parameter; bits 10:0 are zero).
    pub base: u32,
    /// Elements per row (format word bits 12:2, bits 1:0 zero).
    pub pitch: u32,
    pub tiling: Tiling,
    pub format: DataFormat,
    pub height: u32,
}
