//! The memory controller (seed 003 §2.1.4 and §2.2.2): where each client's data lives and
//! how its elements convert to and from the four channels a program sees.
//!
//! A [`Surface`] is what a `set_*_fmt` command gives a client: a 2 KiB-aligned base, a pitch
//! (elements per row, a multiple of 4), a [`Tiling`] and a [`DataFormat`]; [`Surface::decode`]
//! reads it from the command's base, format and height words.
//!
//! Every rule that generated code must also apply is written once, generic over a small
//! trait of operations, so that the host (the `u32` instances here) and the lifter (an IR
//! instance) cannot disagree:
//! - [`mod@translate`]: the address of element (x, y), seed 003 tables 1 and 2 bit for bit, as
//!   data ([`recipe`]) walked by [`translate()`] over [`BitOps`];
//! - [`mod@format`]: the data formats' channel layouts (data) and the conversions of a channel's
//!   raw bytes to and from an f32, over [`FloatOps`]; [`format::read_input`],
//!   [`format::read_element`] and [`format::write_element`] combine the two into whole
//!   element reads (with the 2x2 superfine reads of inputs) and masked writes.
//!
//! Invariants: a decoded [`Surface`] has `base % 2048 == 0`, `pitch % 4 == 0`,
//! `pitch < 8192`, `height < 8192`, and an input surface with a superfine tiling has a
//! single-channel format (checked by the stream's `set_inp_fmt`, see [`Surface::decode`]).

pub mod format;
pub mod recipe;
pub mod translate;

pub use format::{read_element, read_input, write_element, Channel, FloatOps, Kind, MISSING};
pub use translate::{address, translate, translate_with, BitOps, Host};

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

impl Tiling {
    /// The tiling of format word bits 17:16.
    pub fn from_bits(bits: u32) -> Tiling {
        match bits & 3 {
            0 => Tiling::Linear,
            1 => Tiling::Tiled,
            2 => Tiling::LinearInp2x2,
            _ => Tiling::TiledInp2x2,
        }
    }

    pub fn bits(self) -> u32 {
        self as u32
    }

    /// Whether addresses follow table 2 (tiled) rather than table 1 (linear).
    pub fn tiled(self) -> bool {
        matches!(self, Tiling::Tiled | Tiling::TiledInp2x2)
    }

    /// Whether input reads are 2x2 superfine reads (ignored for every other client).
    pub fn superfine(self) -> bool {
        matches!(self, Tiling::LinearInp2x2 | Tiling::TiledInp2x2)
    }

    /// The seed's name (LINEAR, TILED, LINEAR_INP_2X2, TILED_INP_2X2).
    pub fn name(self) -> &'static str {
        ["LINEAR", "TILED", "LINEAR_INP_2X2", "TILED_INP_2X2"][self as usize]
    }
}

/// An element's data format (format word bits 26:24; 5-7 are reserved).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    Uint16x1,
    Uint8x4,
    Float32x1,
    Float32x2,
    Float32x4,
}

impl DataFormat {
    /// The format of format word bits 26:24, `None` for the reserved values 5-7.
    pub fn from_bits(bits: u32) -> Option<DataFormat> {
        Some(match bits {
            0 => DataFormat::Uint16x1,
            1 => DataFormat::Uint8x4,
            2 => DataFormat::Float32x1,
            3 => DataFormat::Float32x2,
            4 => DataFormat::Float32x4,
            _ => return None,
        })
    }

    pub fn bits(self) -> u32 {
        self as u32
    }

    /// Bytes per element (the seed's bpe).
    pub fn bpe(self) -> u32 {
        match self {
            DataFormat::Uint16x1 => 2,
            DataFormat::Uint8x4 | DataFormat::Float32x1 => 4,
            DataFormat::Float32x2 => 8,
            DataFormat::Float32x4 => 16,
        }
    }

    /// How many of the four channels an element holds (the rest read as (0, 0, 1) for
    /// G, B, A; see [`format::MISSING`]).
    pub fn channel_count(self) -> usize {
        self.channels().len()
    }

    /// The seed's name (UINT16_1, UINT8_4, FLOAT32_1, FLOAT32_2, FLOAT32_4).
    pub fn name(self) -> &'static str {
        ["UINT16_1", "UINT8_4", "FLOAT32_1", "FLOAT32_2", "FLOAT32_4"][self as usize]
    }
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

/// A base, format or height word the seed does not allow.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum McError {
    #[error("data format {0} (format word bits 26:24) is reserved; 0-4 are UINT16_1, UINT8_4, FLOAT32_1, FLOAT32_2, FLOAT32_4")]
    ReservedFormat(u32),
    #[error("pitch bits 1:0 of format word {0:#010x} are not zero (the pitch is a multiple of 4)")]
    PitchLowBits(u32),
    #[error("reserved bits {bits} of the {word} word {value:#010x} are set")]
    Reserved {
        word: &'static str,
        bits: &'static str,
        value: u32,
    },
    #[error("2x2 superfine tiling ({tiling}) needs a single-channel input format, not {format} (seed 003 §2.1.4: undefined otherwise)")]
    SuperfineChannels {
        tiling: &'static str,
        format: &'static str,
    },
    #[error("address {0:#x} is outside GPU memory")]
    OutOfMemory(u64),
}

/// Format word fields (seed 003 §2.2.2): pitch 12:2, tiling 17:16, format 26:24.
const FORMAT_RESERVED: [(u32, &str); 3] = [
    (0x0000_e000, "15:13"),
    (0x00fc_0000, "23:18"),
    (0xf800_0000, "31:27"),
];

impl Surface {
    /// The surface a `set_*_fmt` command's base, format and height words describe.
    ///
    /// Base bits 10:0 are ignored, as the seed says ("treated as if all of the bits were
    /// zero"). Pitch bits 1:0 must be zero and formats 5-7 are reserved (the seed). The seed
    /// is silent on the other reserved bits of the format and height words; they are errors
    /// here too, since a value that does not fit its field is almost certainly a mistake in
    /// the stream, and the hardware's reading of it is unknown. `input` says whether the
    /// client is an input: only inputs honour superfine tiling, whose behaviour the seed
    /// leaves undefined for formats of more than one channel, so that is an error.
    pub fn decode(base: u32, format: u32, height: u32, input: bool) -> Result<Surface, McError> {
        if format & 3 != 0 {
            return Err(McError::PitchLowBits(format));
        }
        for (mask, bits) in FORMAT_RESERVED {
            if format & mask != 0 {
                return Err(McError::Reserved {
                    word: "format",
                    bits,
                    value: format,
                });
            }
        }
        if height >> 13 != 0 {
            return Err(McError::Reserved {
                word: "height",
                bits: "31:13",
                value: height,
            });
        }
        let fmt_bits = (format >> 24) & 7;
        let data = DataFormat::from_bits(fmt_bits).ok_or(McError::ReservedFormat(fmt_bits))?;
        let tiling = Tiling::from_bits(format >> 16);
        if input && tiling.superfine() && data.channel_count() != 1 {
            return Err(McError::SuperfineChannels {
                tiling: tiling.name(),
                format: data.name(),
            });
        }
        Ok(Surface {
            base: base & !0x7ff,
            pitch: format & 0x1ffc,
            tiling,
            format: data,
            height,
        })
    }

    /// The format word that decodes to this surface's pitch, tiling and format.
    pub fn format_word(&self) -> u32 {
        (self.pitch & 0x1ffc) | self.tiling.bits() << 16 | self.format.bits() << 24
    }

    /// The bytes per element of its format.
    pub fn bpe(&self) -> u32 {
        self.format.bpe()
    }

    /// The address of element (x, y) (seed 003 tables 1 and 2; see [`translate()`]).
    pub fn address(&self, x: u32, y: u32) -> u32 {
        address(self, x, y)
    }
}

impl std::fmt::Display for Surface {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "base {:#x} pitch {} {} {} height {}",
            self.base,
            self.pitch,
            self.tiling.name(),
            self.format.name(),
            self.height
        )
    }
}
