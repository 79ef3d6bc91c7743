//! Element formats of typed memory: how the bytes of one element (a vertex attribute, a texel
//! of a buffer) become up to four register components on a load, and back on a store.
//!
//! An [`ElemFormat`] is a [`DataFormat`] (the component layout), a [`NumFormat`] (what each
//! component's bits mean) and a swizzle (which element component, or constant, each register
//! component receives on a load). [`ElemFormat::load`] and [`ElemFormat::store`] are the single
//! definition of every conversion; the memory effects of `load_format`/`store_format` call them.
//!
//! # Codes
//! A format read at run time (a `load_format`/`store_format` whose format is a value, see
//! [`crate::FormatSrc`]) is a uniform `i32` **format code**, an encoding the IR defines:
//!
//! | bits | field | values |
//! |---|---|---|
//! | `[2:0]` `[5:3]` `[8:6]` `[11:9]` | the [`Sel`] of register components x, y, z, w | 0-3 element component x-w, 4 zero, 5 one; 6 and 7 reserved (read as zero) |
//! | `[14:12]` | [`NumFormat`] | 0 unorm, 1 snorm, 2 uscaled, 3 sscaled, 4 uint, 5 sint, 6 snorm_ogl, 7 float |
//! | `[19:15]` | [`DataFormat`] | 0 invalid, 1-14 the layouts of [`DataFormat::ALL`] in order, 15 reserved (invalid), 16-26 the rest, 27-31 reserved (invalid) |
//! | `[31:20]` | ignored | |
//!
//! [`ElemFormat::code`] writes a code, [`ElemFormat::from_code`] reads any `u32` (reserved
//! values decode as said above). Every format has a code, and `from_code(f.code()) == f`.
//! The text form never shows a code: static formats are written by name
//! (`fmt.8_8_8_8.unorm.xyzw`), a dynamic one is the value that holds the code.
//!
//! A frontend whose ISA reads formats at run time converts its own bits to a code with generic
//! ops. The layout is chosen to make that cheap for the one ISA that needs it today: the data
//! and number format numbers and the field positions coincide with AMD GCN's buffer resource
//! (V#) word 3 (BUF_DATA_FORMAT, BUF_NUM_FORMAT, DST_SEL), whose selects differ from ours only
//! in bit 2 (SQ_SEL 0/1/4-7 are our 4/5/0-3), so the GCN lifter converts a descriptor with one
//! `and` and one `xor` (`wavejit-gcn` `lift/buffer_format.rs` owns that translation). The
//! select numbering (component index first) is TeraScale's DST_SEL's. Data formats 16-26 are
//! layouts GCN lacks (TeraScale's FMT_4_4, FMT_5_6_5, FMT_8_8_8, ...); code 15 stays
//! reserved so that GCN's reserved data format 15 still decodes as invalid.
//!
//! # Layout
//! Components are packed from bit 0 of the little-endian element in the order x, y, z, w with
//! the widths of [`DataFormat::fields`]. Format names list the fields from the most
//! significant one (GCN's naming: `10_11_11` is x = bits 10:0, y = 21:11, z = 31:22, the
//! layout of D3D's R11G11B10_FLOAT; `2_10_10_10` is R10G10B10A2).
//!
//! # Conversions (register values are 32 bits; `d16` narrows them to 16)
//! Sources: D3D10 "Data Conversion Rules" (learn.microsoft.com, direct3d10 resources data
//! conversion), Vulkan 1.0 section 2.8 "Fixed-Point Data Conversions", CLRX
//! GcnMemHandling.md (number format table), LLVM SIDefines.h (gfx10 unified formats).
//! - UNORM load: `c / (2^n - 1)`; SNORM: `max(c / (2^(n-1) - 1), -1)` (Vulkan 2.8.1, D3D
//!   "SNORM"; both minimum codes give -1). Evaluated exactly and rounded once to f32: the
//!   quotient is formed in f64 and rounded to f32, which is a correct rounding because
//!   53 >= 2 * 24 + 2 (Figueroa, "When is double rounding innocuous?", 1995). AMD documents no
//!   formula of its own.
//! - SNORM_OGL load (number format 6, gfx6/7 only): `(2c + 1) / (2^n - 1)`, the pre-GL4.2
//!   OpenGL rule, which CLRX describes as "data: MIN:MAX" (every code is used); same rounding.
//! - USCALED/SSCALED load: the integer as f32 (exact: fields are at most 16 bits).
//! - UINT/SINT load: zero/sign-extended to 32 bits.
//! - FLOAT load: 32-bit fields are raw bits; 16-bit fields are IEEE binary16; 11- and 10-bit
//!   fields are unsigned floats with a 5-bit exponent (bias 15) and a 6- or 5-bit fraction
//!   (D3D R11G11B10_FLOAT). All widen exactly, denormals included; a NaN keeps its payload
//!   (shifted into the top fraction bits) and is not quieted: a fetch is a data move, not an
//!   arithmetic op, and the documents say nothing more.
//! - Missing components (the format has fewer than four) read as 0 for y and z and as one
//!   for w (D3D's default for formats without G, B or A). "One" is 1.0 for float-valued
//!   number formats and 1 for UINT/SINT.
//! - UNORM/SNORM store: NaN gives 0, the value is clamped to [0, 1] / [-1, 1], scaled by
//!   `2^n - 1` / `2^(n-1) - 1` and rounded to nearest, ties to even (D3D FLOAT->UNORM/SNORM:
//!   NaN -> 0 and the clamps; CLRX: "conversion ... while writing ... with rounding to
//!   nearest even"). The product is exact in f64 (24 + 16 bits). D3D's "add 0.5 and truncate"
//!   (away from zero for SNORM) differs only on exact ties; the only ties are at +-0.5, where
//!   both agree except for 2-bit SNORM (`2_10_10_10` w), where we follow CLRX's even rule.
//! - USCALED/SSCALED store (CLRX marks them read-only; no document defines the write): the
//!   inverse of the load, with D3D's float-to-integer rule: NaN gives 0, round to nearest
//!   even, clamp to the field's range.
//! - SNORM_OGL store: CLRX marks it read-only and no inverse is documented: the store writes
//!   nothing ([`ElemFormat::store`] returns `None`).
//! - UINT/SINT store into a narrower field: the register value (unsigned / signed) is clamped
//!   to the field's range (D3D "Integer Conversion": conversions to fewer bits saturate; AMD's
//!   documents are silent). 32-bit fields take the register bits.
//! - FLOAT store into 16-, 11- and 10-bit fields: D3D's float-to-smaller-float rule: round
//!   toward zero, so finite values beyond the range give the largest finite value; infinities
//!   stay infinite; a NaN stays a NaN (its top payload bits are kept; if none are set the top
//!   fraction bit is); denormals that fit are kept, smaller values give zero. Unsigned 11/10-bit
//!   fields have no sign: negative values and -inf give +0. GCN's `v_cvt_pkrtz_f16_f32` exists
//!   for this D3D rule.
//! - `d16` (16-bit register components): a load narrows its 32-bit result by the rule a store
//!   into a 16-bit field of the same number format uses (f32 to f16 toward zero for
//!   float-valued formats; UINT/SINT clamped); a store widens a 16-bit register component
//!   first (f16 to f32 exactly, UINT zero-extended, SINT sign-extended), then converts as
//!   above. The documents only say the data is "converted to 16 bits".
//!
//! # Validity
//! [`DataFormat::Invalid`] (code 0, and every reserved code) is invalid. GCN's gfx6-9 documents list no valid
//! combinations; we accept those of the gfx10 unified format table (LLVM SIDefines.h,
//! `UFMT_*`): FLOAT only with 16-, 32-bit and 10_11_11/11_11_10 fields, UNORM/SNORM/SCALED
//! only without 32-bit fields, UINT/SINT with every layout, plus SNORM_OGL wherever SNORM is
//! valid. The layouts GCN lacks (codes 16-26) follow the same rule by their field widths (so
//! of them only 16_16_16 takes FLOAT).
//! An invalid format accesses no memory: a load gives the out-of-range value
//! ([`ElemFormat::load_out_of_range`]) and a store writes nothing. The documents do not say
//! what the hardware does; treating the element as absent is the choice that touches nothing.

use std::fmt;

/// The component layout of an element; the discriminant is the code (module docs, "Codes").
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataFormat {
    Invalid = 0,
    D8 = 1,
    D16 = 2,
    D8_8 = 3,
    D32 = 4,
    D16_16 = 5,
    D10_11_11 = 6,
    D11_11_10 = 7,
    D10_10_10_2 = 8,
    D2_10_10_10 = 9,
    D8_8_8_8 = 10,
    D32_32 = 11,
    D16_16_16_16 = 12,
    D32_32_32 = 13,
    D32_32_32_32 = 14,
    D4_4 = 16,
    D3_3_2 = 17,
    D5_6_5 = 18,
    D6_5_5 = 19,
    D1_5_5_5 = 20,
    D4_4_4_4 = 21,
    D5_5_5_1 = 22,
    D8_8_8 = 23,
    D16_16_16 = 24,
    D8_24 = 25,
    D24_8 = 26,
}

/// What a component's bits mean; the discriminant is the code (module docs, "Codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NumFormat {
    Unorm = 0,
    Snorm = 1,
    Uscaled = 2,
    Sscaled = 3,
    Uint = 4,
    Sint = 5,
    /// `(2c + 1) / (2^n - 1)`; GCN gfx6/7 only (reserved on gfx8/9).
    SnormOgl = 6,
    Float = 7,
}

/// What a register component of a load receives; the discriminant is the code (module docs,
/// "Codes").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sel {
    X = 0,
    Y = 1,
    Z = 2,
    W = 3,
    Zero = 4,
    One = 5,
}

/// A complete element format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElemFormat {
    pub data: DataFormat,
    pub num: NumFormat,
    /// The source of register components x, y, z, w on a load (stores ignore it).
    pub swizzle: [Sel; 4],
}

const DATA_NAMES: [(DataFormat, &str); 26] = [
    (DataFormat::Invalid, "invalid"),
    (DataFormat::D8, "8"),
    (DataFormat::D16, "16"),
    (DataFormat::D8_8, "8_8"),
    (DataFormat::D32, "32"),
    (DataFormat::D16_16, "16_16"),
    (DataFormat::D10_11_11, "10_11_11"),
    (DataFormat::D11_11_10, "11_11_10"),
    (DataFormat::D10_10_10_2, "10_10_10_2"),
    (DataFormat::D2_10_10_10, "2_10_10_10"),
    (DataFormat::D8_8_8_8, "8_8_8_8"),
    (DataFormat::D32_32, "32_32"),
    (DataFormat::D16_16_16_16, "16_16_16_16"),
    (DataFormat::D32_32_32, "32_32_32"),
    (DataFormat::D32_32_32_32, "32_32_32_32"),
    (DataFormat::D4_4, "4_4"),
    (DataFormat::D3_3_2, "3_3_2"),
    (DataFormat::D5_6_5, "5_6_5"),
    (DataFormat::D6_5_5, "6_5_5"),
    (DataFormat::D1_5_5_5, "1_5_5_5"),
    (DataFormat::D4_4_4_4, "4_4_4_4"),
    (DataFormat::D5_5_5_1, "5_5_5_1"),
    (DataFormat::D8_8_8, "8_8_8"),
    (DataFormat::D16_16_16, "16_16_16"),
    (DataFormat::D8_24, "8_24"),
    (DataFormat::D24_8, "24_8"),
];

const NUM_NAMES: [(NumFormat, &str); 8] = [
    (NumFormat::Unorm, "unorm"),
    (NumFormat::Snorm, "snorm"),
    (NumFormat::Uscaled, "uscaled"),
    (NumFormat::Sscaled, "sscaled"),
    (NumFormat::Uint, "uint"),
    (NumFormat::Sint, "sint"),
    (NumFormat::SnormOgl, "snorm_ogl"),
    (NumFormat::Float, "float"),
];

const SEL_CHARS: [(Sel, char); 6] = [
    (Sel::Zero, '0'),
    (Sel::One, '1'),
    (Sel::X, 'x'),
    (Sel::Y, 'y'),
    (Sel::Z, 'z'),
    (Sel::W, 'w'),
];

impl DataFormat {
    /// Every data format, in code order.
    pub const ALL: [DataFormat; 26] = {
        let mut a = [DataFormat::Invalid; 26];
        let mut i = 0;
        while i < 26 {
            a[i] = DATA_NAMES[i].0;
            i += 1;
        }
        a
    };

    /// The format of a 5-bit code (bits above are ignored); the reserved codes 15 and 27..31
    /// decode as [`DataFormat::Invalid`].
    pub const fn from_code(code: u32) -> DataFormat {
        let c = code & 31;
        let mut i = 0;
        while i < DATA_NAMES.len() {
            if DATA_NAMES[i].0 as u32 == c {
                return DATA_NAMES[i].0;
            }
            i += 1;
        }
        DataFormat::Invalid
    }

    /// Component widths in bits, x first (from bit 0); empty for [`DataFormat::Invalid`].
    pub const fn fields(self) -> &'static [u32] {
        use DataFormat::*;
        match self {
            Invalid => &[],
            D8 => &[8],
            D16 => &[16],
            D8_8 => &[8, 8],
            D32 => &[32],
            D16_16 => &[16, 16],
            D10_11_11 => &[11, 11, 10],
            D11_11_10 => &[10, 11, 11],
            D10_10_10_2 => &[2, 10, 10, 10],
            D2_10_10_10 => &[10, 10, 10, 2],
            D8_8_8_8 => &[8, 8, 8, 8],
            D32_32 => &[32, 32],
            D16_16_16_16 => &[16, 16, 16, 16],
            D32_32_32 => &[32, 32, 32],
            D32_32_32_32 => &[32, 32, 32, 32],
            D4_4 => &[4, 4],
            D3_3_2 => &[2, 3, 3],
            D5_6_5 => &[5, 6, 5],
            D6_5_5 => &[5, 5, 6],
            D1_5_5_5 => &[5, 5, 5, 1],
            D4_4_4_4 => &[4, 4, 4, 4],
            D5_5_5_1 => &[1, 5, 5, 5],
            D8_8_8 => &[8, 8, 8],
            D16_16_16 => &[16, 16, 16],
            D8_24 => &[24, 8],
            D24_8 => &[8, 24],
        }
    }

    /// Element size in bytes (0 for [`DataFormat::Invalid`]).
    pub fn bytes(self) -> u32 {
        self.fields().iter().sum::<u32>() / 8
    }

    pub fn name(self) -> &'static str {
        DATA_NAMES
            .iter()
            .find(|(d, _)| *d == self)
            .map_or("invalid", |p| p.1)
    }

    pub fn from_name(s: &str) -> Option<DataFormat> {
        DATA_NAMES.iter().find(|(_, n)| *n == s).map(|(d, _)| *d)
    }
}

impl NumFormat {
    pub const ALL: [NumFormat; 8] = [
        NumFormat::Unorm,
        NumFormat::Snorm,
        NumFormat::Uscaled,
        NumFormat::Sscaled,
        NumFormat::Uint,
        NumFormat::Sint,
        NumFormat::SnormOgl,
        NumFormat::Float,
    ];

    /// The number format of a 3-bit code (bits above are ignored).
    pub const fn from_code(code: u32) -> NumFormat {
        NumFormat::ALL[(code & 7) as usize]
    }

    /// Whether register components hold floats (everything but UINT and SINT).
    pub const fn is_float_valued(self) -> bool {
        !matches!(self, NumFormat::Uint | NumFormat::Sint)
    }

    pub fn name(self) -> &'static str {
        NUM_NAMES[self as usize].1
    }

    pub fn from_name(s: &str) -> Option<NumFormat> {
        NUM_NAMES.iter().find(|(_, n)| *n == s).map(|(f, _)| *f)
    }
}

impl Sel {
    /// The select of a 3-bit code (bits above are ignored); the reserved codes 6 and 7
    /// decode as [`Sel::Zero`].
    pub const fn from_code(code: u32) -> Sel {
        match code & 7 {
            0 => Sel::X,
            1 => Sel::Y,
            2 => Sel::Z,
            3 => Sel::W,
            5 => Sel::One,
            _ => Sel::Zero,
        }
    }

    pub fn to_char(self) -> char {
        SEL_CHARS
            .iter()
            .find(|(s, _)| *s == self)
            .map_or('0', |p| p.1)
    }

    pub fn from_char(c: char) -> Option<Sel> {
        SEL_CHARS.iter().find(|(_, x)| *x == c).map(|p| p.0)
    }
}

/// "One" as a float-valued register component (1.0f).
const F32_ONE: u32 = 0x3f80_0000;

impl ElemFormat {
    pub const IDENTITY: [Sel; 4] = [Sel::X, Sel::Y, Sel::Z, Sel::W];

    /// A format with the identity swizzle.
    pub const fn new(data: DataFormat, num: NumFormat) -> ElemFormat {
        ElemFormat {
            data,
            num,
            swizzle: ElemFormat::IDENTITY,
        }
    }

    /// Where a code's number format field starts (module docs, "Codes").
    pub const NUM_AT: u32 = 12;
    /// Where a code's data format field starts (module docs, "Codes").
    pub const DATA_AT: u32 = 15;

    /// The format of a code (module docs, "Codes"; every `u32` decodes).
    pub const fn from_code(code: u32) -> ElemFormat {
        ElemFormat {
            data: DataFormat::from_code(code >> ElemFormat::DATA_AT),
            num: NumFormat::from_code(code >> ElemFormat::NUM_AT),
            swizzle: [
                Sel::from_code(code),
                Sel::from_code(code >> 3),
                Sel::from_code(code >> 6),
                Sel::from_code(code >> 9),
            ],
        }
    }

    /// The format's code (module docs, "Codes").
    pub const fn code(self) -> u32 {
        let s = self.swizzle;
        let sel = s[0] as u32 | (s[1] as u32) << 3 | (s[2] as u32) << 6 | (s[3] as u32) << 9;
        sel | (self.num as u32) << ElemFormat::NUM_AT | (self.data as u32) << ElemFormat::DATA_AT
    }

    /// Whether the data and number formats combine (module docs, "Validity").
    pub fn is_valid(self) -> bool {
        let f = self.data.fields();
        let wide = f.contains(&32);
        match self.num {
            _ if f.is_empty() => false,
            NumFormat::Uint | NumFormat::Sint => true,
            NumFormat::Float => f.iter().all(|&n| matches!(n, 10 | 11 | 16 | 32)),
            _ => !wide,
        }
    }

    /// Bytes one element occupies in memory; 0 for an invalid format (no access).
    pub fn bytes(self) -> u32 {
        if self.is_valid() {
            self.data.bytes()
        } else {
            0
        }
    }

    /// Register component `comp` (0..4, after the swizzle) of a load of `elem` (the element's
    /// bytes, little-endian). `d16` gives a 16-bit register component (in the low bits).
    pub fn load(self, elem: u128, comp: usize, d16: bool) -> u32 {
        if !self.is_valid() {
            return self.load_out_of_range(comp, d16);
        }
        let v = match self.swizzle[comp & 3] {
            Sel::Zero => 0,
            Sel::One => self.one32(),
            s => {
                let i = s as usize - Sel::X as usize;
                let fields = self.data.fields();
                match fields.get(i) {
                    Some(&n) => {
                        let at: u32 = fields[..i].iter().sum();
                        let raw = (elem >> at) as u32 & field_mask(n);
                        decode(raw, n, self.num)
                    }
                    None if i == 3 => self.one32(),
                    None => 0,
                }
            }
        };
        if d16 {
            narrow16(v, self.num)
        } else {
            v
        }
    }

    /// Register component `comp` of a load outside the buffer (or of an invalid format): 0,
    /// except one for a component that selects [`Sel::One`] (AMD GCN3 ISA, "Range checking":
    /// out-of-range reads return zero "except for components with V#.dst_sel = SEL_1").
    pub fn load_out_of_range(self, comp: usize, d16: bool) -> u32 {
        match self.swizzle[comp & 3] {
            Sel::One if d16 => narrow16(self.one32(), self.num),
            Sel::One => self.one32(),
            _ => 0,
        }
    }

    /// The element bytes (little-endian, [`ElemFormat::bytes`] of them) a store of register
    /// components `regs` (x first, at most 4; missing ones count as 0) writes, or `None` when
    /// it writes nothing (an invalid format, SNORM_OGL). `d16`: the components are 16-bit.
    pub fn store(self, regs: &[u32], d16: bool) -> Option<u128> {
        if !self.is_valid() || self.num == NumFormat::SnormOgl {
            return None;
        }
        let mut elem = 0u128;
        let mut at = 0;
        for (i, &n) in self.data.fields().iter().enumerate() {
            let r = regs.get(i).copied().unwrap_or(0);
            let r = if d16 { widen16(r, self.num) } else { r };
            elem |= (encode(r, n, self.num) as u128) << at;
            at += n;
        }
        Some(elem)
    }

    fn one32(self) -> u32 {
        if self.num.is_float_valued() {
            F32_ONE
        } else {
            1
        }
    }
}

impl fmt::Display for ElemFormat {
    /// `DATA.NUM.SWIZZLE`, e.g. `8_8_8_8.unorm.xyzw` (the text form's format word, after
    /// its `fmt.` prefix).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.", self.data.name(), self.num.name())?;
        self.swizzle
            .iter()
            .try_for_each(|s| write!(f, "{}", s.to_char()))
    }
}

impl ElemFormat {
    /// The inverse of `Display`: `DATA.NUM.SWIZZLE` split into its three parts.
    pub fn from_parts(data: &str, num: &str, swizzle: &str) -> Result<ElemFormat, String> {
        let data = DataFormat::from_name(data).ok_or(format!("unknown data format `{data}`"))?;
        let num = NumFormat::from_name(num).ok_or(format!("unknown number format `{num}`"))?;
        let sels: Option<Vec<Sel>> = swizzle.chars().map(Sel::from_char).collect();
        let Some([x, y, z, w]) = sels.as_deref().and_then(|s| <[Sel; 4]>::try_from(s).ok()) else {
            return Err(format!("swizzle `{swizzle}` is not four of x y z w 0 1"));
        };
        Ok(ElemFormat {
            data,
            num,
            swizzle: [x, y, z, w],
        })
    }
}

fn field_mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

fn sign_extend(raw: u32, n: u32) -> i32 {
    let sh = 32 - n;
    ((raw << sh) as i32) >> sh
}

fn f32_bits(x: f64) -> u32 {
    (x as f32).to_bits()
}

/// The 32-bit register value of an `n`-bit field `raw` (module docs, "Conversions").
fn decode(raw: u32, n: u32, num: NumFormat) -> u32 {
    let s = sign_extend(raw, n);
    match num {
        NumFormat::Unorm => f32_bits(raw as f64 / field_mask(n) as f64),
        NumFormat::Snorm => {
            let max = field_mask(n - 1) as f64;
            f32_bits((s as f64 / max).max(-1.0))
        }
        NumFormat::SnormOgl => f32_bits((2.0 * s as f64 + 1.0) / field_mask(n) as f64),
        NumFormat::Uscaled => (raw as f32).to_bits(),
        NumFormat::Sscaled => (s as f32).to_bits(),
        NumFormat::Uint => raw,
        NumFormat::Sint => s as u32,
        NumFormat::Float => match n {
            16 => small_to_f32(raw, 10, true),
            11 => small_to_f32(raw, 6, false),
            10 => small_to_f32(raw, 5, false),
            _ => raw,
        },
    }
}

/// The `n`-bit field a 32-bit register value `r` is stored as (module docs, "Conversions").
fn encode(r: u32, n: u32, num: NumFormat) -> u32 {
    let f = f32::from_bits(r) as f64;
    let mask = field_mask(n);
    let to_int = |x: f64, lo: f64, hi: f64| -> u32 {
        if x.is_nan() {
            0
        } else {
            (x.clamp(lo, hi).round_ties_even() as i64 as u32) & mask
        }
    };
    let (smin, smax) = (-(field_mask(n - 1) as f64) - 1.0, field_mask(n - 1) as f64);
    match num {
        NumFormat::Unorm => to_int(f.clamp(0.0, 1.0) * mask as f64, 0.0, mask as f64),
        NumFormat::Snorm => to_int(f.clamp(-1.0, 1.0) * smax, -smax, smax),
        NumFormat::Uscaled => to_int(f, 0.0, mask as f64),
        NumFormat::Sscaled => to_int(f, smin, smax),
        NumFormat::Uint => r.min(mask),
        NumFormat::Sint => (r as i32).clamp(smin as i32, smax as i32) as u32 & mask,
        NumFormat::SnormOgl => 0,
        NumFormat::Float => match n {
            16 => f32_to_small(r, 10, true),
            11 => f32_to_small(r, 6, false),
            10 => f32_to_small(r, 5, false),
            _ => r,
        },
    }
}

/// A 32-bit register value as a 16-bit one (module docs, "d16").
fn narrow16(v: u32, num: NumFormat) -> u32 {
    match num {
        NumFormat::Uint => v.min(0xffff),
        NumFormat::Sint => (v as i32).clamp(-0x8000, 0x7fff) as u32 & 0xffff,
        _ => f32_to_small(v, 10, true),
    }
}

/// A 16-bit register value as a 32-bit one (module docs, "d16").
fn widen16(v: u32, num: NumFormat) -> u32 {
    let v = v & 0xffff;
    match num {
        NumFormat::Uint => v,
        NumFormat::Sint => sign_extend(v, 16) as u32,
        _ => small_to_f32(v, 10, true),
    }
}

/// A float with a 5-bit exponent (bias 15) and `mant` fraction bits, signed (binary16) or
/// not (the 11- and 10-bit formats), widened exactly to f32 bits.
fn small_to_f32(bits: u32, mant: u32, signed: bool) -> u32 {
    let sign = if signed { (bits >> 15 & 1) << 31 } else { 0 };
    let exp = bits >> mant & 31;
    let frac = bits & ((1 << mant) - 1);
    let shift = 23 - mant;
    let mag = match exp {
        31 => 0x7f80_0000 | frac << shift,
        0 if frac == 0 => 0,
        0 => {
            // Denormal: frac * 2^(-14 - mant), normalised.
            let lead = 31 - frac.leading_zeros();
            let e = lead as i32 - 14 - mant as i32 + 127;
            let f = (frac << (23 - lead)) & 0x7f_ffff;
            (e as u32) << 23 | f
        }
        _ => (exp + 127 - 15) << 23 | frac << shift,
    };
    sign | mag
}

/// f32 bits narrowed to a float with a 5-bit exponent and `mant` fraction bits, rounding
/// toward zero (module docs, FLOAT store).
fn f32_to_small(bits: u32, mant: u32, signed: bool) -> u32 {
    let neg = bits >> 31 != 0;
    let exp = (bits >> 23 & 0xff) as i32;
    let frac = bits & 0x7f_ffff;
    let shift = 23 - mant;
    let inf = 31 << mant;
    let sign = if signed && neg { 1 << 15 } else { 0 };
    if exp == 0xff && frac != 0 {
        let payload = frac >> shift;
        let payload = if payload == 0 {
            1 << (mant - 1)
        } else {
            payload
        };
        return sign | inf | payload;
    }
    if neg && !signed {
        return 0;
    }
    if exp == 0xff {
        return sign | inf;
    }
    // The value is 1.frac * 2^(exp - 127) (f32 denormals are far below the target's range).
    let e = exp - 127 + 15;
    let mag = if exp == 0 || e < -(mant as i32) {
        0
    } else if e >= 31 {
        inf - 1
    } else if e >= 1 {
        (e as u32) << mant | frac >> shift
    } else {
        // Denormal result: (1.frac) * 2^(e - 1) in units of 2^(-14 - mant), truncated.
        ((1 << 23 | frac) >> (shift as i32 + 1 - e)) & ((1 << mant) - 1)
    };
    sign | mag
}
