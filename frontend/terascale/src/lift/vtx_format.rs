//! The element format of a vertex fetch: VTX_WORD1's DATA_FORMAT (the r600 `FMT_*`
//! numbering, seed 000 L9390-L9424, the same as Mesa's `EVTXDataFormat` in
//! sfn_defines.h), NUM_FORMAT_ALL, FORMAT_COMP_ALL, SRF_MODE_ALL and DST_SEL, as an IR
//! [`ElemFormat`] whose `load` is the single definition of the unpacking.
//!
//! # Layouts
//! `FMT_a_b_..` names its fields from the most significant one, like the IR's data formats
//! (Mesa maps R11G11B10_FLOAT to FMT_10_11_11_FLOAT, R10G10B10A2 to FMT_2_10_10_10 and
//! Z24_S8 to FMT_8_24). An `*_FLOAT` format is the same layout with float fields (16-bit
//! binary16, 11/10-bit unsigned floats, 32-bit raw); NUM_FORMAT_ALL and FORMAT_COMP_ALL do
//! not apply to it.
//!
//! # Number formats (MEM_RD_WORD1 / VTX_WORD1_GPR, L9760-L9785)
//! NORM: UNORM, or with FORMAT_COMP_ALL signed, SNORM under SRF_MODE_ALL 0
//! (ZERO_CLAMP_MINUS_ONE: steps of `1/(2^(n-1) - 1)`, -1 twice) and the OpenGL rule
//! `(2c + 1)/(2^n - 1)` under SRF_MODE_ALL 1 (NO_ZERO). INT: UINT / SINT. SCALED: USCALED /
//! SSCALED. NUM_FORMAT_ALL 3 is reserved (invalid).
//!
//! Formats with 32-bit integer fields (FMT_32, FMT_32_32, FMT_32_32_32, FMT_32_32_32_32) move
//! their dwords unchanged whatever NUM_FORMAT_ALL says (under NORM and SCALED as the IR's
//! raw FLOAT fields, so that "one" is 1.0f): the document defines NORM and SCALED by "the
//! number of bits" without a 32-bit case, and this keeps the lifter's earlier behaviour;
//! LLVM's reads use INT.
//!
//! # Swizzle
//! DST_SEL 0-3 pick a component, 4 gives 0, 5 gives 1 (1.0f unless the format is integer),
//! 7 masks the channel (no write) and 6 is reserved (invalid). Components the layout lacks
//! read 0 (x-z) and 1 (w).
//!
//! # Not lifted
//! FMT_8_24_FLOAT, FMT_24_8_FLOAT, FMT_X24_8_32_FLOAT (depth layouts with undocumented float
//! fields), FMT_1, FMT_1_REVERSED, FMT_GB_GR, FMT_BG_RG, FMT_32_AS_8(_8),
//! FMT_5_9_9_9_SHAREDEXP and the block-compressed formats (texture formats), the reserved
//! codes.
use wavejit_ir::{DataFormat, ElemFormat, NumFormat, Sel};

use DataFormat as D;

/// The layout of an r600 DATA_FORMAT code and whether its fields are floats.
pub fn layout(code: u8) -> Option<(DataFormat, bool)> {
    Some(match code {
        1 => (D::D8, false),
        2 => (D::D4_4, false),
        3 => (D::D3_3_2, false),
        5 => (D::D16, false),
        6 => (D::D16, true),
        7 => (D::D8_8, false),
        8 => (D::D5_6_5, false),
        9 => (D::D6_5_5, false),
        10 => (D::D1_5_5_5, false),
        11 => (D::D4_4_4_4, false),
        12 => (D::D5_5_5_1, false),
        13 => (D::D32, false),
        14 => (D::D32, true),
        15 => (D::D16_16, false),
        16 => (D::D16_16, true),
        17 => (D::D8_24, false),
        19 => (D::D24_8, false),
        21 => (D::D10_11_11, false),
        22 => (D::D10_11_11, true),
        23 => (D::D11_11_10, false),
        24 => (D::D11_11_10, true),
        25 => (D::D2_10_10_10, false),
        26 => (D::D8_8_8_8, false),
        27 => (D::D10_10_10_2, false),
        29 => (D::D32_32, false),
        30 => (D::D32_32, true),
        31 => (D::D16_16_16_16, false),
        32 => (D::D16_16_16_16, true),
        34 => (D::D32_32_32_32, false),
        35 => (D::D32_32_32_32, true),
        44 => (D::D8_8_8, false),
        45 => (D::D16_16_16, false),
        46 => (D::D16_16_16, true),
        47 => (D::D32_32_32, false),
        48 => (D::D32_32_32, true),
        _ => return None,
    })
}

/// Why a fetch's format fields cannot be lifted.
pub enum FormatError {
    /// A format this lifter does not model (the module doc's list).
    Unsupported(&'static str),
    /// A reserved encoding.
    Invalid(&'static str),
}

/// The IR format of a fetch's fields; `None` in the swizzle marks a masked channel.
pub fn elem_format(
    data: u8,
    num_all: u8,
    signed: bool,
    srf_no_zero: bool,
    dst_sel: [u8; 4],
) -> Result<(ElemFormat, [bool; 4]), FormatError> {
    let Some((d, float)) = layout(data) else {
        return Err(FormatError::Unsupported("data format not lifted"));
    };
    let wide = d.fields().contains(&32);
    let num = match (float, num_all, signed) {
        (true, _, _) => NumFormat::Float,
        (false, 3, _) => return Err(FormatError::Invalid("reserved NUM_FORMAT_ALL 3")),
        (false, 1, false) if wide => NumFormat::Uint,
        (false, 1, true) if wide => NumFormat::Sint,
        // Raw dwords whose "one" is 1.0f (module doc).
        (false, _, _) if wide => NumFormat::Float,
        (false, 0, false) => NumFormat::Unorm,
        (false, 0, true) if srf_no_zero => NumFormat::SnormOgl,
        (false, 0, true) => NumFormat::Snorm,
        (false, 1, false) => NumFormat::Uint,
        (false, 1, true) => NumFormat::Sint,
        (false, _, false) => NumFormat::Uscaled,
        (false, _, true) => NumFormat::Sscaled,
    };
    let mut swizzle = [Sel::Zero; 4];
    let mut write = [true; 4];
    for (c, &s) in dst_sel.iter().enumerate() {
        swizzle[c] = match s {
            0 => Sel::X,
            1 => Sel::Y,
            2 => Sel::Z,
            3 => Sel::W,
            4 => Sel::Zero,
            5 => Sel::One,
            7 => {
                write[c] = false;
                Sel::Zero
            }
            _ => return Err(FormatError::Invalid("reserved DST_SEL 6")),
        };
    }
    Ok((
        ElemFormat {
            data: d,
            num,
            swizzle,
        },
        write,
    ))
}
