//! MTBUF data/number formats the lifter converts (CLRX doc/GcnInstrsMtbuf.md,
//! GcnMemHandling.md; LLVM's BUF_DATA_FORMAT_*/BUF_NUM_FORMAT_* numbering for gfx6-9).
//!
//! Components are `comp_bytes` wide and packed (component `i` at byte `i * comp_bytes`).
//! Loads: UINT zero-extends, SINT sign-extends, USCALED/SSCALED convert the integer to f32
//! (exact for 8/16-bit values), FLOAT widens f16 to f32 (exact) and moves 32-bit components
//! raw. Stores: 32-bit components move raw; 8/16-bit UINT/SINT store the low bits (the docs
//! are silent on clamping out-of-range values; truncation is what a register holding an
//! in-range value needs). UNORM/SNORM (the rounding of the scale is undocumented), SCALED and
//! FLOAT stores of narrow components, and packed formats (10_11_11, 2_10_10_10, ...) are
//! not modelled.
use wavejit_ir::MemWidth;

/// How a loaded component becomes a register value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conv {
    /// Zero- or sign-extended integer (32-bit components: raw bits).
    Int { signed: bool },
    /// Integer converted to f32.
    Scaled { signed: bool },
    /// f16 widened to f32.
    Half,
}

/// A supported typed format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TypedFormat {
    pub comp_bytes: u32,
    pub comps: u32,
    pub conv: Conv,
}

impl TypedFormat {
    pub(crate) fn width(&self) -> MemWidth {
        match self.comp_bytes {
            1 => MemWidth::B8,
            2 => MemWidth::B16,
            _ => MemWidth::B32,
        }
    }
}

/// The format of (`dfmt`, `nfmt`) for a load or a store, or None when not modelled.
pub(crate) fn typed_format(dfmt: u8, nfmt: u8, store: bool) -> Option<TypedFormat> {
    let (comp_bytes, comps) = match dfmt {
        1 => (1, 1),
        2 => (2, 1),
        3 => (1, 2),
        4 => (4, 1),
        5 => (2, 2),
        10 => (1, 4),
        11 => (4, 2),
        12 => (2, 4),
        13 => (4, 3),
        14 => (4, 4),
        _ => return None,
    };
    let conv = match (nfmt, comp_bytes) {
        (4, _) => Conv::Int { signed: false },
        (5, _) => Conv::Int { signed: true },
        (7, 4) => Conv::Int { signed: false },
        (2, 1 | 2) if !store => Conv::Scaled { signed: false },
        (3, 1 | 2) if !store => Conv::Scaled { signed: true },
        (7, 2) if !store => Conv::Half,
        _ => return None,
    };
    Some(TypedFormat {
        comp_bytes,
        comps,
        conv,
    })
}
