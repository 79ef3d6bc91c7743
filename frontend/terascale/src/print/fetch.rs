//! Fetch-clause text. LLVM 14 prints two kinds of fetch instruction: the VTX_READ_* buffer
//! loads (`VTX_READ_32 T1.X, T0.X, 4, #1`, EvergreenInstructions.td / CaymanInstructions.td)
//! and the TEX_* instructions (R600Instructions.td `R600_TEX`: `TEX_SAMPLE T0.XYZW, T0.XYZW
//! RID:5 SID:6 CT:NUNN`, checked against llc-14 in tests/isa_asm_fetch.rs). Every other fetch
//! word is printed in the same style: a head of register operands, then one `NAME:value`
//! token per non-zero field the head does not show (ISA field names, hd6900_map.md §5, §6,
//! §8), then `RSVDn:0x..` for non-zero bits of word n that no field covers (the decoder keeps
//! fetch words raw, so reserved bits must survive the text).
//!
//! Heads (one per [`Family`]):
//! - VTX (`VFETCH`, `GET_BUFFER_RESINFO`): `T<dst>.<dst_sel> , T<src>.<src_sel_x> RID:<buffer>`;
//!   VTX_SEMANTIC (`SEMFETCH`) writes semantic `S<id>` instead of a GPR.
//! - TEX: LLVM's head above.
//! - MEM_RD (`MEM_RD_SCRATCH`, `MEM_RD_SCATTER`): `T<dst>.<dst_sel>, T<src>.<src_sel_x>`.
//! - GDS: `GDS_<op> T<dst>.<dst_sel>, T<src>.<src_sel_xyz>, T<src2>` (the GDS_OP names are the
//!   ISA's LDS/GDS op names with Mesa's `GDS_` prefix); MEM_TF_WRITE and GDS_OP codes without
//!   a name print as `MEM_TF_WRITE` / `MEM_GDS` with a `GDS_OP:n` token.
//!
//! Swizzle characters are LLVM's `printRSel` (`X Y Z W 0 1 _` for 0-5 and 7); LLVM prints
//! nothing for the reserved select 6, which would not read back, so it prints as `?` (Mesa
//! `r600_asm.c` print_swizzle). Coordinate types print as LLVM's `printCT`: `U`nnormalized,
//! `N`ormalized.
use crate::chip::ChipClass;
use crate::inst::FetchInst;
use crate::tables::{self, FetchOp, LdsOp};
use std::fmt::Write;

/// A named bit field of one of the three fetch dwords.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field {
    pub name: &'static str,
    pub word: usize,
    pub lo: u32,
    pub width: u32,
    /// Printed and parsed as a two's-complement value (texel offsets, LOD bias).
    pub signed: bool,
}

impl Field {
    pub fn mask(&self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.lo
    }
    pub fn get(&self, words: &[u32; 3]) -> u32 {
        (words[self.word] & self.mask()) >> self.lo
    }
    /// The value as printed (sign-extended for signed fields).
    pub fn get_text(&self, words: &[u32; 3]) -> i64 {
        let v = self.get(words) as i64;
        if self.signed && v >> (self.width - 1) != 0 {
            v - (1i64 << self.width)
        } else {
            v
        }
    }
    /// Stores `v` (a printed value); `None` if it does not fit the field.
    pub fn set(&self, words: &mut [u32; 3], v: i64) -> Option<()> {
        let n = 1i64 << self.width;
        let raw = if self.signed && (-(n / 2)..0).contains(&v) {
            v + n
        } else if (0..n).contains(&v) {
            v
        } else {
            return None;
        };
        words[self.word] = (words[self.word] & !self.mask()) | ((raw as u32) << self.lo);
        Some(())
    }
}

const fn f(name: &'static str, word: usize, lo: u32, width: u32) -> Field {
    Field {
        name,
        word,
        lo,
        width,
        signed: false,
    }
}
const fn s(name: &'static str, word: usize, lo: u32, width: u32) -> Field {
    Field {
        name,
        word,
        lo,
        width,
        signed: true,
    }
}

const DST_SEL: &[Field] = &[
    f("DST_SEL_X", 1, 9, 3),
    f("DST_SEL_Y", 1, 12, 3),
    f("DST_SEL_Z", 1, 15, 3),
    f("DST_SEL_W", 1, 18, 3),
];
/// The WORD1 format fields shared by VTX and MEM_RD.
const FORMAT: &[Field] = &[
    f("DATA_FORMAT", 1, 22, 6),
    f("NUM_FORMAT_ALL", 1, 28, 2),
    f("FORMAT_COMP_ALL", 1, 30, 1),
    f("SRF_MODE_ALL", 1, 31, 1),
];

/// VTX_WORD0/1/2 fields of both classes (hd6900_map.md §5).
const VTX: &[Field] = &[
    f("FETCH_TYPE", 0, 5, 2),
    f("FETCH_WHOLE_QUAD", 0, 7, 1),
    f("BUFFER_ID", 0, 8, 8),
    f("SRC_GPR", 0, 16, 7),
    f("SRC_REL", 0, 23, 1),
    f("SRC_SEL_X", 0, 24, 2),
    f("USE_CONST_FIELDS", 1, 21, 1),
    f("OFFSET", 2, 0, 16),
    f("ENDIAN_SWAP", 2, 16, 2),
    f("CONST_BUF_NO_STRIDE", 2, 18, 1),
    f("ALT_CONST", 2, 20, 1),
    f("BUFFER_INDEX_MODE", 2, 21, 2),
];
/// Evergreen VTX: MEGA_FETCH_COUNT and MEGA_FETCH (Mesa `evergreend.h`).
const VTX_EG: &[Field] = &[f("MEGA_FETCH_COUNT", 0, 26, 6), f("MEGA_FETCH", 2, 19, 1)];
/// Cayman VTX_WORD0 bits `[31:26]` (hd6900_map.md §5).
const VTX_CM: &[Field] = &[
    f("SRC_SEL_Y", 0, 26, 2),
    f("STRUCTURED_READ", 0, 28, 2),
    f("LDS_REQ", 0, 30, 1),
    f("COALESCED_READ", 0, 31, 1),
];
/// VTX_WORD1_GPR destination, or VTX_WORD1_SEM's SEMANTIC_ID.
const VTX_GPR: &[Field] = &[f("DST_GPR", 1, 0, 7), f("DST_REL", 1, 7, 1)];
const VTX_SEM: &[Field] = &[f("SEMANTIC_ID", 1, 0, 8)];

/// TEX_WORD0/1/2 (hd6900_map.md §5; the same layout on Evergreen).
const TEX: &[Field] = &[
    f("INST_MOD", 0, 5, 2),
    f("FETCH_WHOLE_QUAD", 0, 7, 1),
    f("RESOURCE_ID", 0, 8, 8),
    f("SRC_GPR", 0, 16, 7),
    f("SRC_REL", 0, 23, 1),
    f("ALT_CONST", 0, 24, 1),
    f("RESOURCE_INDEX_MODE", 0, 25, 2),
    f("SAMPLER_INDEX_MODE", 0, 27, 2),
    f("DST_GPR", 1, 0, 7),
    f("DST_REL", 1, 7, 1),
    s("LOD_BIAS", 1, 21, 7),
    f("COORD_TYPE_X", 1, 28, 1),
    f("COORD_TYPE_Y", 1, 29, 1),
    f("COORD_TYPE_Z", 1, 30, 1),
    f("COORD_TYPE_W", 1, 31, 1),
    s("OFFSET_X", 2, 0, 5),
    s("OFFSET_Y", 2, 5, 5),
    s("OFFSET_Z", 2, 10, 5),
    f("SAMPLER_ID", 2, 15, 5),
    f("SRC_SEL_X", 2, 20, 3),
    f("SRC_SEL_Y", 2, 23, 3),
    f("SRC_SEL_Z", 2, 26, 3),
    f("SRC_SEL_W", 2, 29, 3),
];

/// MEM_RD_WORD0/1/2 (hd6900_map.md §6).
const MEM_RD: &[Field] = &[
    f("ELEM_SIZE", 0, 5, 2),
    f("FETCH_WHOLE_QUAD", 0, 7, 1),
    f("UNCACHED", 0, 11, 1),
    f("INDEXED", 0, 12, 1),
    f("SRC_SEL_Y", 0, 13, 2),
    f("SRC_GPR", 0, 16, 7),
    f("SRC_REL", 0, 23, 1),
    f("SRC_SEL_X", 0, 24, 2),
    f("BURST_COUNT", 0, 26, 4),
    f("LDS_REQ", 0, 30, 1),
    f("COALESCED_READ", 0, 31, 1),
    f("DST_GPR", 1, 0, 7),
    f("DST_REL", 1, 7, 1),
    f("ARRAY_BASE", 2, 0, 13),
    f("ENDIAN_SWAP", 2, 16, 2),
];
const MEM_RD_SIZE: Field = f("ARRAY_SIZE", 2, 20, 12);

/// MEM_GDS_WORD0/1/2 (hd6900_map.md §8; WORD1 `[22:16]` is printed SRC_GPR2, the second
/// source the document's duplicate SRC_GPR name stands for).
const GDS: &[Field] = &[
    f("SRC_GPR", 0, 11, 7),
    f("SRC_REL_MODE", 0, 18, 2),
    f("SRC_SEL_X", 0, 20, 3),
    f("SRC_SEL_Y", 0, 23, 3),
    f("SRC_SEL_Z", 0, 26, 3),
    f("DST_GPR", 1, 0, 7),
    f("DST_REL_MODE", 1, 7, 2),
    f("GDS_OP", 1, 9, 6),
    f("SRC_GPR2", 1, 16, 7),
    f("UAV_INDEX_MODE", 1, 24, 2),
    f("UAV_ID", 1, 26, 4),
    f("ALLOC_CONSUME", 1, 30, 1),
    f("BCAST_FIRST_REQ", 1, 31, 1),
    f("DST_SEL_X", 2, 0, 3),
    f("DST_SEL_Y", 2, 3, 3),
    f("DST_SEL_Z", 2, 6, 3),
    f("DST_SEL_W", 2, 9, 3),
];

/// The word layouts of fetch instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    Vtx,
    Semantic,
    Tex,
    MemRd,
    Gds,
}

impl Family {
    pub fn of(op: FetchOp) -> Family {
        use FetchOp::*;
        match op {
            VTX_FETCH | VTX_GET_BUFFER_RESINFO => Family::Vtx,
            VTX_SEMANTIC => Family::Semantic,
            MEM_RD_SCRATCH | MEM_RD_SCATTER => Family::MemRd,
            MEM_GDS | MEM_TF_WRITE => Family::Gds,
            _ => Family::Tex,
        }
    }

    /// Every named field of the family in `class`.
    pub fn fields(self, class: ChipClass) -> Vec<Field> {
        let eg = class == ChipClass::Evergreen;
        let v: Vec<Field> = match self {
            Family::Vtx | Family::Semantic => {
                let mut v = VTX.to_vec();
                v.extend(if self == Family::Vtx {
                    VTX_GPR
                } else {
                    VTX_SEM
                });
                v.extend(DST_SEL);
                v.extend(FORMAT);
                v.extend(if eg { VTX_EG } else { VTX_CM });
                v
            }
            Family::Tex => {
                let mut v = TEX.to_vec();
                v.extend(DST_SEL);
                v
            }
            Family::MemRd => {
                let mut v = MEM_RD.to_vec();
                v.extend(DST_SEL);
                v.extend(FORMAT);
                v.push(MEM_RD_SIZE);
                v
            }
            Family::Gds => GDS.to_vec(),
        };
        v
    }

    /// Opcode bits: VC_INST / TEX_INST `[4:0]`, and MEM_OP `[10:8]` of the MEM encodings.
    pub fn opcode_mask(self) -> u32 {
        match self {
            Family::MemRd | Family::Gds => 0x71f,
            _ => 0x1f,
        }
    }

    /// Bits of each word no field (nor the opcode) covers.
    pub fn reserved(self, class: ChipClass) -> [u32; 3] {
        let mut used = [self.opcode_mask(), 0, 0];
        for f in self.fields(class) {
            used[f.word] |= f.mask();
        }
        used.map(|u| !u)
    }

    /// The head: literal text and the fields it shows.
    pub fn head(self) -> &'static [Part] {
        use Part::*;
        const DST: Part = Swz(&["DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W"]);
        match self {
            Family::Vtx => &[
                Lit(" T"),
                Num("DST_GPR"),
                Lit("."),
                DST,
                Lit(", T"),
                Num("SRC_GPR"),
                Lit("."),
                Swz(&["SRC_SEL_X"]),
                Lit(" RID:"),
                Num("BUFFER_ID"),
            ],
            Family::Semantic => &[
                Lit(" S"),
                Num("SEMANTIC_ID"),
                Lit("."),
                DST,
                Lit(", T"),
                Num("SRC_GPR"),
                Lit("."),
                Swz(&["SRC_SEL_X"]),
                Lit(" RID:"),
                Num("BUFFER_ID"),
            ],
            Family::Tex => &[
                Lit(" T"),
                Num("DST_GPR"),
                Lit("."),
                DST,
                Lit(", T"),
                Num("SRC_GPR"),
                Lit("."),
                Swz(&["SRC_SEL_X", "SRC_SEL_Y", "SRC_SEL_Z", "SRC_SEL_W"]),
                Lit(" RID:"),
                Num("RESOURCE_ID"),
                Lit(" SID:"),
                Num("SAMPLER_ID"),
                Lit(" CT:"),
                Ct(&[
                    "COORD_TYPE_X",
                    "COORD_TYPE_Y",
                    "COORD_TYPE_Z",
                    "COORD_TYPE_W",
                ]),
            ],
            Family::MemRd => &[
                Lit(" T"),
                Num("DST_GPR"),
                Lit("."),
                DST,
                Lit(", T"),
                Num("SRC_GPR"),
                Lit("."),
                Swz(&["SRC_SEL_X"]),
            ],
            Family::Gds => &[
                Lit(" T"),
                Num("DST_GPR"),
                Lit("."),
                DST,
                Lit(", T"),
                Num("SRC_GPR"),
                Lit("."),
                Swz(&["SRC_SEL_X", "SRC_SEL_Y", "SRC_SEL_Z"]),
                Lit(", T"),
                Num("SRC_GPR2"),
            ],
        }
    }
}

/// One piece of a head.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Part {
    Lit(&'static str),
    /// A field in decimal.
    Num(&'static str),
    /// One swizzle character per field.
    Swz(&'static [&'static str]),
    /// One coordinate-type character per field.
    Ct(&'static [&'static str]),
}

/// Swizzle characters by select value.
pub(crate) const SWIZZLE: [char; 8] = ['X', 'Y', 'Z', 'W', '0', '1', '?', '_'];
/// Coordinate-type characters by value.
pub(crate) const COORD_TYPE: [char; 2] = ['U', 'N'];

pub(crate) fn field(fields: &[Field], name: &str) -> Field {
    *fields
        .iter()
        .find(|f| f.name == name)
        .expect("head names a field of its family")
}

/// The GDS op a MEM_GDS word names in its mnemonic, if its GDS_OP code has a name.
fn gds_op(class: ChipClass, f: &FetchInst) -> Option<LdsOp> {
    let code = (f.words[1] >> 9) & 0x3f;
    (f.op == FetchOp::MEM_GDS)
        .then(|| tables::lds_by_code(class, code as u16).map(|r| r.op))
        .flatten()
}

/// The mnemonic of a GDS op (`GDS_` and the ISA name).
pub(crate) fn gds_mnemonic(op: LdsOp) -> String {
    format!("GDS_{}", op.name())
}

/// LLVM's VTX_READ_* templates: (name, DATA_FORMAT, DST_SEL, Evergreen MEGA_FETCH_COUNT,
/// destination suffix) from EvergreenInstructions.td / CaymanInstructions.td.
pub(crate) const VTX_READS: [(&str, u8, [u8; 4], u8, &str); 5] = [
    ("VTX_READ_8", 1, [0, 7, 7, 7], 1, ".X"),
    ("VTX_READ_16", 5, [0, 7, 7, 7], 2, ".X"),
    ("VTX_READ_32", 13, [0, 7, 7, 7], 4, ".X"),
    ("VTX_READ_64", 29, [0, 1, 7, 7], 8, ".XY"),
    ("VTX_READ_128", 34, [0, 1, 2, 3], 16, ".XYZW"),
];

/// The words LLVM emits for a VTX_READ template.
pub(crate) fn vtx_read_words(
    class: ChipClass,
    t: usize,
    dst: u8,
    src: u8,
    buffer: u8,
    offset: u16,
) -> [u32; 3] {
    let (_, fmt, sel, mfc, _) = VTX_READS[t];
    let eg = class == ChipClass::Evergreen;
    let w0 = (2 << 5)
        | (buffer as u32) << 8
        | (src as u32) << 16
        | if eg { (mfc as u32) << 26 } else { 0 };
    let w1 = dst as u32
        | (sel[0] as u32) << 9
        | (sel[1] as u32) << 12
        | (sel[2] as u32) << 15
        | (sel[3] as u32) << 18
        | (fmt as u32) << 22
        | 1 << 28;
    let w2 = offset as u32 | if eg { 1 << 19 } else { 0 };
    [w0, w1, w2]
}

pub(crate) fn print_fetch(class: ChipClass, f: &FetchInst) -> String {
    if f.op == FetchOp::VTX_FETCH {
        for (k, t) in VTX_READS.iter().enumerate() {
            let words = vtx_read_words(
                class,
                k,
                f.dst_gpr(),
                f.src_gpr(),
                f.buffer_id(),
                f.offset(),
            );
            if words == f.words {
                return format!(
                    "  {} T{}{}, T{}.X, {}, #{}",
                    t.0,
                    f.dst_gpr(),
                    t.4,
                    f.src_gpr(),
                    f.offset(),
                    f.buffer_id()
                );
            }
        }
    }
    let family = Family::of(f.op);
    let fields = family.fields(class);
    let named = gds_op(class, f);
    let mut s = match named {
        Some(op) => format!("  {}", gds_mnemonic(op)),
        None => format!("  {}", tables::fetch_info(f.op).text),
    };
    let mut shown: Vec<&str> = Vec::new();
    if named.is_some() {
        shown.push("GDS_OP");
    }
    for part in family.head() {
        match *part {
            Part::Lit(t) => s.push_str(t),
            Part::Num(name) => {
                let _ = write!(s, "{}", field(&fields, name).get(&f.words));
                shown.push(name);
            }
            Part::Swz(names) => {
                for name in names {
                    s.push(SWIZZLE[field(&fields, name).get(&f.words) as usize & 7]);
                    shown.push(name);
                }
            }
            Part::Ct(names) => {
                for name in names {
                    s.push(COORD_TYPE[field(&fields, name).get(&f.words) as usize & 1]);
                    shown.push(name);
                }
            }
        }
    }
    for fl in fields.iter().filter(|fl| !shown.contains(&fl.name)) {
        let v = fl.get_text(&f.words);
        if v != 0 {
            let _ = write!(s, " {}:{v}", fl.name);
        }
    }
    for (k, r) in family.reserved(class).iter().enumerate() {
        let bits = f.words[k] & r;
        if bits != 0 {
            let _ = write!(s, " RSVD{k}:{bits:#x}");
        }
    }
    s
}
