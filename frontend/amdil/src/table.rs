//! The opcode table: one [`Row`] per `ILOpCode` value (0 to 483), generated into `rows.rs` by
//! `scripts/gen-amdil-table.py` from `../shared/notes/il_opcodes.tsv` (values, enum names,
//! mnemonics, categories) and the forms that script lists, written from the AMD IL Reference
//! Guide v2.4 (seed 001, `001_ad105e733e076148.txt`; `Lnnnn` below are its lines).
//!
//! Invariants (checked by this module's tests):
//! - `rows()[v].value == v`; values 0 (`IL_OP_UNKNOWN`) and 483 (`IL_OP_LAST`) are
//!   [`Form::Sentinel`] rows, not instructions: the decoder calls them unknown opcodes.
//! - Mnemonics are unique, and no mnemonic is another's prefix followed by a field spelling.
//! - A row's fields never overlap; they lie in the 16 control bits (token bits 31:16). Bits 14
//!   and 15 are the secondary/primary modifier-present flags unless a field covers them
//!   (`dcl_resource`'s `unnorm` is bit 31, L4457-L4460); every other control bit that no field
//!   covers must be zero.
//! - An enumerated field's values past its enumeration are invalid; a field narrower than its
//!   enumeration holds its first values (dclpt's 3-bit type: "dx9 only il allows 0-7 values for
//!   dclpt", App. B L14230).
//!
//! Where the seed is corrupted, the table follows (each also in the row's `note`):
//! - Values: il_opcodes.tsv (grvk's numbering), never the count of App. B (L13522-L14026),
//!   which drops MOVA, U64_MUL, I_MAX3 and I64_DIV.
//! - CALL's label follows the opcode (L3487); its token table's "token 2 must be zero, token 3
//!   = label" (L3498-L3499) is not followed. CASE's value is one dword after the opcode (grvk),
//!   although its Format says 1-input (L3647).
//! - Format lines contradicted by the entry's syntax: FMA has 3 sources (L8043, not L8046),
//!   IMUL24 and IMUL24_HIGH 2 (L6826/L6839, not L6828/L6841); DCL_INPUT_PRIMITIVE's token table
//!   is DCL_LITERAL's (L4182-L4187), its Format (0-input, L4176) is followed; DCL_STRUCT_GDS takes
//!   two dwords like DCL_STRUCT_LDS (L12241), not 3-input (L12245).
//! - LDS_LOAD_VEC and LDS_STORE_VEC take no dword after the operands (L10372, grvk); their
//!   "additional token n" lines (L10380, L10945) are copies from DCL_NUM_THREAD_PER_GROUP.
//! - DCL_LDS's control is the id (L9932), not "must be zero" (L9941).
//! - DCL_UAV: fmtx (bits 23:20) is the element format and type (29:24) the dimension; the
//!   entry swaps their descriptions (L10096-L10098); grvk reads them the same way.
//! - DCL_TOTAL_NUM_THREAD_GROUP's dword count is its control field, as for
//!   DCL_NUM_THREAD_PER_GROUP (L4345); its entry says the control must be zero (L4507).
//! - Rows with [`Source::Guess`] (no Chapter 7 entry: mostly the post-v2.4 values 402-482) have
//!   operand counts by analogy, given in their note; their control bits are an id where the
//!   name says so and must be zero otherwise.

mod rows;

/// One opcode.
#[derive(Debug)]
pub struct Row {
    pub value: u16,
    /// The `ILOpCode` enumerator (`IL_OP_MOV`).
    pub name: &'static str,
    /// The text mnemonic without control specifiers (`uav_raw_load` of `uav_raw_load_id(n)`).
    pub mnemonic: &'static str,
    /// il_opcodes.tsv's category (`float`, `memory_uav`, ...).
    pub category: &'static str,
    pub compute: Compute,
    /// Destinations and sources of the packet (before [`Form`] adds any).
    pub dst: u8,
    pub src: u8,
    pub form: Form,
    /// Whether the primary and secondary modifier dwords may follow the opcode token.
    pub mods: bool,
    /// The control bits' fields, in text order.
    pub fields: &'static [Field],
    pub source: Source,
    /// The line of its Chapter 7 entry in seed 001 (0 when it has none).
    pub seed_line: u32,
    /// What the row follows where the seed is silent or corrupted.
    pub note: &'static str,
}

/// Whether compute kernels use an opcode (il_opcodes.tsv's `compute_relevant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compute {
    Yes,
    No,
    /// Texture operations compute kernels use on buffers.
    Partial,
    /// R7xx-only compute features (owner-computes LDS, shared registers).
    Legacy,
}

/// Where a row's packet layout comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Seed,
    Guess,
    /// A sentinel.
    None,
}

/// The packet layouts besides "opcode, modifiers, destinations, sources".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Plain,
    /// This many dwords after the operands (labels, sizes, literal bits), printed in this radix.
    Tail(u8, Radix),
    /// One dword after the operands per name, printed as `_name(v)` after the mnemonic.
    Named(&'static [&'static str]),
    /// 1 to 3 dwords after the opcode, their number in the [`Kind::Count`] field.
    Dims,
    /// A length dword, then that many dwords of NUL-terminated text (L9812-L9820).
    Comment,
    /// `dcl_cb`: one source, or with the primary modifier (the element count) that many dwords
    /// of an immediate constant buffer (L4048-L4080).
    ConstBuffer,
    /// `mdef`: one dword after the opcode, inputs 7:0, outputs 15:8, outline 16 (L13228-L13235).
    MacroDef,
    /// `mcall`: a count dword after the opcode (outputs 15:0, inputs 31:16), then the outputs as
    /// destinations and the inputs as sources (L13310-L13317).
    MacroCall,
    /// Texture operations (L3087-L3152): control bit 12 (`_ext`) adds a resource-format dword and
    /// two index sources, bit 13 an address-offset dword; both dwords follow the modifiers.
    Texture,
    /// `dcl_function_table`: a count dword, then that many labels (L13077-L13092).
    FunctionTable,
    /// `dcl_interface_ptr`: array size, length, a count, then that many table ids
    /// (L13094-L13118).
    InterfacePtr,
    /// `dcl_resource`: one dword with the four component formats, bits 31:20 (L4462-L4466).
    Resource,
    /// `IL_OP_PREFIX`: precise bits for the next instruction (L3398-L3440).
    Prefix,
    /// Not an instruction (`IL_OP_UNKNOWN`, `IL_OP_LAST`).
    Sentinel,
}

/// How [`Form::Tail`] dwords print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Radix {
    /// Unsigned decimal.
    Dec,
    /// Signed decimal.
    Int,
    /// `0x%08X`.
    Hex,
}

/// A field of the control bits.
#[derive(Debug)]
pub struct Field {
    /// Its text name (empty for kinds that print no name).
    pub name: &'static str,
    /// Lowest bit, counted from the control field's bit 0 (token bit 16).
    pub lo: u8,
    pub width: u8,
    pub kind: Kind,
}

/// How a field prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `_name` when set.
    Flag,
    /// `_name(v)`.
    Num,
    /// `_name(v)` when not zero.
    Opt,
    /// `_name(E[v])`.
    Enum(&'static [&'static str]),
    /// `_name(E[v])` when not zero.
    OptEnum(&'static [&'static str]),
    /// `_E[v]`.
    Bare(&'static [&'static str]),
    /// `_E[v]` when not zero.
    OptBare(&'static [&'static str]),
    /// `(v)` right after the mnemonic (`mdef(5)`).
    Paren,
    /// `(E[v])` right after the mnemonic (`ffb(hi)`).
    ParenEnum(&'static [&'static str]),
    /// `v` as the first operand (`dcl_lds_size_per_thread 8`).
    Arg,
    /// `E[v]` as the first operand.
    ArgEnum(&'static [&'static str]),
    /// The names of the set bits as the first operand, joined by `|`.
    Words(&'static [&'static str]),
    /// The number of [`Form::Dims`] dwords; not printed.
    Count,
}

impl Field {
    /// The field's bits within the control bits.
    pub fn mask(&self) -> u16 {
        (((1u32 << self.width) - 1) << self.lo) as u16
    }

    pub fn get(&self, control: u16) -> u16 {
        (control & self.mask()) >> self.lo
    }

    pub fn set(&self, control: u16, value: u16) -> u16 {
        (control & !self.mask()) | ((value << self.lo) & self.mask())
    }

    /// The field's enumeration, for the enumerated kinds.
    pub fn names(&self) -> Option<&'static [&'static str]> {
        match self.kind {
            Kind::Enum(e)
            | Kind::OptEnum(e)
            | Kind::Bare(e)
            | Kind::OptBare(e)
            | Kind::ParenEnum(e)
            | Kind::ArgEnum(e) => Some(e),
            _ => None,
        }
    }

    /// Whether `value` is one the field can hold (an enumerated field's values end with its
    /// enumeration).
    pub fn valid(&self, value: u16) -> bool {
        self.names().is_none_or(|e| usize::from(value) < e.len())
    }
}

/// The control bit that says the primary modifier dword follows.
pub const PRI_BIT: u16 = 1 << 15;
/// The control bit that says the secondary modifier dword follows.
pub const SEC_BIT: u16 = 1 << 14;
/// The texture operations' indexed-arguments bit (`_ext`, token bit 28).
pub const TEX_EXT_BIT: u16 = 1 << 12;
/// The texture operations' address-offset bit (`_aoffimmi`, token bit 29).
pub const TEX_AOFFSET_BIT: u16 = 1 << 13;

impl Row {
    /// The control bits the fields cover, with [`TEX_AOFFSET_BIT`] for texture operations.
    pub fn field_bits(&self) -> u16 {
        let bits = self.fields.iter().fold(0, |m, f| m | f.mask());
        if self.form == Form::Texture {
            bits | TEX_AOFFSET_BIT
        } else {
            bits
        }
    }

    /// Whether the primary modifier dword may follow (its bit is then not a field).
    pub fn takes_pri(&self) -> bool {
        (self.mods || self.form == Form::ConstBuffer) && self.field_bits() & PRI_BIT == 0
    }

    pub fn takes_sec(&self) -> bool {
        self.mods && self.field_bits() & SEC_BIT == 0
    }

    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    pub fn field_of(&self, kind: fn(&Kind) -> bool) -> Option<&'static Field> {
        self.fields.iter().find(|f| kind(&f.kind))
    }

    pub fn is_instruction(&self) -> bool {
        self.form != Form::Sentinel
    }
}

/// Every row, indexed by value.
pub fn rows() -> &'static [Row] {
    rows::ROWS
}

/// The instruction with this opcode value (`None` for the sentinels and unknown values).
pub fn row(value: u16) -> Option<&'static Row> {
    rows::ROWS
        .get(usize::from(value))
        .filter(|r| r.is_instruction())
}

/// The instruction with this mnemonic.
pub fn by_mnemonic(mnemonic: &str) -> Option<&'static Row> {
    rows::ROWS
        .iter()
        .find(|r| r.is_instruction() && r.mnemonic == mnemonic)
}

/// Well-known opcode values the decoder, printer and parser name.
pub mod op {
    pub const COMMENT: u16 = 15;
    pub const ELSE: u16 = 39;
    pub const END: u16 = 40;
    pub const ENDIF: u16 = 41;
    pub const ENDLOOP: u16 = 42;
    pub const FUNC: u16 = 50;
    pub const IFC: u16 = 52;
    pub const IFNZ: u16 = 53;
    pub const LOOP: u16 = 62;
    pub const CASE: u16 = 105;
    pub const DEFAULT: u16 = 108;
    pub const ENDSWITCH: u16 = 109;
    pub const ENDFUNC: u16 = 110;
    pub const IF_LOGICALZ: u16 = 111;
    pub const IF_LOGICALNZ: u16 = 112;
    pub const WHILE: u16 = 113;
    pub const SWITCH: u16 = 114;
    pub const DCL_CB: u16 = 118;
    pub const MACRODEF: u16 = 345;
    pub const MACROEND: u16 = 346;
    pub const PREFIX: u16 = 353;
}

/// Enumerations' text names by value (App. B L13485-L14440 gives the order, Chapter 6 the
/// spellings; il_map.md §3 for the corrupted ones).
pub mod enums {
    /// `IL_Language_Type` (L13504-L13520 is garbled; the order is grvk's).
    pub const LANG: &[&str] = &[
        "generic", "opengl", "dx8_ps", "dx8_vs", "dx9_ps", "dx9_vs", "dx10_ps", "dx10_vs",
        "dx10_gs", "dx11_ps", "dx11_vs", "dx11_gs", "dx11_cs", "dx11_hs", "dx11_ds",
    ];
    /// `IL_Shader_Type` as the version line spells it (`il_cs_2_0`).
    pub const SHADER: &[&str] = &["vs", "ps", "gs", "cs", "hs", "ds"];
    pub const RELOP: &[&str] = &["ne", "eq", "ge", "gt", "le", "lt"];
    pub const ZEROOP: &[&str] = &["fltmax", "zero", "infinity", "inf_else_max"];
    pub const CMPVAL: &[&str] = &["0.0", "0.5", "1.0", "-0.5", "-1.0"];
    pub const MATRIX: &[&str] = &["4x4", "4x3", "3x4", "3x3", "3x2"];
    pub const NOISE: &[&str] = &["perlin1D", "perlin2D", "perlin3D", "perlin4D"];
    /// `ILPixTexUsage` with Table 6.22's spellings; the two "Pele" values have none there.
    pub const PIXTEX: &[&str] = &[
        "unknown",
        "1d",
        "2d",
        "3d",
        "cubemap",
        "2dmsaa",
        "4c",
        "buffer",
        "1darray",
        "2darray",
        "2darraymsaa",
        "2dplusw",
        "cubemapplusw",
        "cubemaparray",
    ];
    pub const COORDMODE: &[&str] = &["unknown", "normalized", "unnormalized"];
    pub const ELEMFMT: &[&str] = &[
        "unknown", "snorm", "unorm", "sint", "uint", "float", "srgb", "mixed",
    ];
    /// `ILImportUsage` (Table 6.10's spellings; the ones it lacks as App. B names them).
    pub const USAGE: &[&str] = &[
        "pos",
        "pointsize",
        "color",
        "backcolor",
        "fog",
        "pixel_sample_coverage",
        "generic",
        "clipdistance",
        "culldistance",
        "primitiveid",
        "vertexid",
        "instanceid",
        "isfrontface",
        "lod",
        "coloring",
        "node_coloring",
        "normal",
        "rendertarget_array_index",
        "viewport_array_index",
        "undefined",
        "sample_index",
        "edge_tessfactor",
        "inside_tessfactor",
        "detail_tessfactor",
        "density_tessfactor",
    ];
    /// `ILInterpMode` (Table 6.11).
    pub const INTERP: &[&str] = &[
        "notused",
        "constant",
        "linear",
        "centroid",
        "noperspective",
        "noper_centroid",
        "sample",
        "noper_sample",
    ];
    pub const TOPOLOGY: &[&str] = &[
        "point",
        "line",
        "triangle",
        "line_adj",
        "triangle_adj",
        "patch1",
        "patch2",
        "patch3",
        "patch4",
        "patch5",
        "patch6",
        "patch7",
        "patch8",
        "patch9",
        "patch10",
        "patch11",
        "patch12",
        "patch13",
        "patch14",
        "patch15",
        "patch16",
        "patch17",
        "patch18",
        "patch19",
        "patch20",
        "patch21",
        "patch22",
        "patch23",
        "patch24",
        "patch25",
        "patch26",
        "patch27",
        "patch28",
        "patch29",
        "patch30",
        "patch31",
        "patch32",
    ];
    pub const OUTTOPOLOGY: &[&str] = &["point_list", "line_strip", "triangle_strip"];
    /// `dcl_lds_sharing_mode`'s spellings (L4192).
    pub const SHARING: &[&str] = &["wavefrontRel", "wavefrontAbs"];
    pub const DATASIZE: &[&str] = &["dword", "short", "byte"];
    /// `IL_UAV_READ_TYPE`; 0 (the compiler decides) prints nothing.
    pub const UAVREAD: &[&str] = &["sc_decide", "cached", "uncached"];
    /// `IL_UAV_ACCESS_TYPE` as AMD's compiler spells it (`_access(read_write)`).
    pub const ACCESS: &[&str] = &["read_write", "read_only", "write_only", "private"];
    pub const FIRSTBIT: &[&str] = &["lo", "hi", "shi"];
    pub const TSDOMAIN: &[&str] = &["ts_domain_isoline", "ts_domain_tri", "ts_domain_quad"];
    pub const TSPARTITION: &[&str] = &[
        "ts_partition_integer",
        "ts_partition_pow2",
        "ts_partition_fractional_odd",
        "ts_partition_fractional_even",
    ];
    pub const TSOUTPUT: &[&str] = &[
        "ts_output_point",
        "ts_output_line",
        "ts_output_triangle_cw",
        "ts_output_triangle_ccw",
    ];
    /// `dcl_global_flags` bits 0-3 (L4092-L4096) as AMD's disassembler spells them.
    pub const GLOBALFLAGS: &[&str] = &[
        "refactoringAllowed",
        "forceEarlyDepthStencil",
        "enableRawStructuredBuffers",
        "enableDoublePrecisionFloatOps",
    ];
    /// `ILDivComp` (Table 6.6; App. B omits W).
    pub const DIVCOMP: &[&str] = &["none", "y", "z", "w", "unknown"];
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn rows_are_indexed_by_value_and_named_once() {
        assert_eq!(rows().len(), 484);
        let mut names = HashSet::new();
        for (i, r) in rows().iter().enumerate() {
            assert_eq!(usize::from(r.value), i, "{}", r.name);
            assert!(names.insert(r.mnemonic), "{} twice", r.mnemonic);
            assert_eq!(r.is_instruction(), i != 0 && i != 483, "{}", r.name);
        }
        // Spot values from grvk's numbering (il_sources.md §3), independent of the tsv.
        for (value, name) in [
            (71, "mov"),
            (8, "call"),
            (50, "func"),
            (113, "whileloop"),
            (112, "if_logicalnz"),
            (145, "iadd"),
            (225, "uav_raw_load"),
            (228, "uav_raw_store"),
            (345, "mdef"),
            (353, "prec"),
        ] {
            assert_eq!(row(value).map(|r| r.mnemonic), Some(name));
        }
    }

    #[test]
    fn fields_fit_and_do_not_overlap() {
        for r in rows() {
            let mut seen = 0u16;
            for f in r.fields {
                assert!(
                    u32::from(f.lo) + u32::from(f.width) <= 16,
                    "{} {}",
                    r.name,
                    f.name
                );
                assert_eq!(seen & f.mask(), 0, "{}: {} overlaps", r.name, f.name);
                seen |= f.mask();
                if let Some(e) = f.names() {
                    assert!(e.len() > 1, "{}: {}", r.name, f.name);
                }
            }
            if r.mods {
                assert!(r.takes_sec(), "{}", r.name);
            }
            if let Form::Named(_) = r.form {
                assert!(
                    r.fields.len() >= 2,
                    "{}: named dwords print after the first field",
                    r.name
                );
            }
            assert_eq!(
                r.form == Form::Dims,
                r.field_of(|k| *k == Kind::Count).is_some()
            );
            if r.form == Form::Texture {
                assert_eq!(
                    r.field("ext").map(|f| f.mask()),
                    Some(TEX_EXT_BIT),
                    "{}",
                    r.name
                );
            }
        }
    }

    #[test]
    fn guessed_rows_say_why() {
        let guessed: Vec<_> = rows()
            .iter()
            .filter(|r| r.source == Source::Guess)
            .collect();
        assert!(guessed
            .iter()
            .all(|r| !r.note.is_empty() && r.seed_line == 0));
        assert!(rows()
            .iter()
            .filter(|r| r.source == Source::Seed)
            .all(|r| r.seed_line > 3000 && r.seed_line < 13400));
        // The tsv's 72 instructions without a Chapter 7 entry, less the four 64-bit compares
        // that share I64EQ's entry (L6616), plus IL_OP_INIT_SR_HELPER (internal, L3423).
        assert_eq!(guessed.len(), 69);
    }
}
