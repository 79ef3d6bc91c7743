//! The decoded-instruction model shared by the decoder, printer, assembler and lifter.
//!
//! An [`Inst`] names its instruction by identity ([`Opcode`], generation independent), says
//! which encoding carried it ([`Encoding`]), lists its operands in assembler order as typed
//! values ([`Operand`]) tagged with the encoding field they came from, and keeps every
//! modifier and memory field as plain numbers. Nothing here depends on text.
pub use crate::opcode::Opcode;
use crate::tables::{Field, OpInfo};

/// A GCN hardware generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Gen {
    /// GCN 1.0 (Southern Islands).
    Gfx6,
    /// GCN 1.1 (Sea Islands).
    Gfx7,
    /// GCN 1.2 (Volcanic Islands).
    Gfx8,
    /// GCN 1.4 (Vega).
    Gfx9,
}

/// Chip names accepted by [`Gen::from_chip`], with their generation.
pub const CHIPS: [(&str, Gen); 7] = [
    ("tahiti", Gen::Gfx6),
    ("bonaire", Gen::Gfx7),
    ("hawaii", Gen::Gfx7),
    ("tonga", Gen::Gfx8),
    ("fiji", Gen::Gfx8),
    ("gfx900", Gen::Gfx9),
    ("vega10", Gen::Gfx9),
];

impl Gen {
    pub const ALL: [Gen; 4] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9];

    /// Column index in the tables (gfx6 = 0 ... gfx9 = 3).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Generation of a chip name (`tahiti`, `bonaire`, `hawaii`, `tonga`, `fiji`, `gfx900`)
    /// or of a generation name (`gfx6` ... `gfx9`, and LLVM's `gfx600`-style processor names).
    pub fn from_chip(name: &str) -> Option<Gen> {
        let n = name.to_ascii_lowercase();
        if let Some((_, g)) = CHIPS.iter().find(|(c, _)| *c == n) {
            return Some(*g);
        }
        match n.as_str() {
            "gfx6" | "gfx600" | "gfx601" | "gfx602" | "pitcairn" | "verde" | "oland" => {
                Some(Gen::Gfx6)
            }
            "gfx7" | "gfx700" | "gfx701" | "gfx702" | "gfx703" | "gfx704" | "gfx705" | "kaveri"
            | "kabini" | "mullins" => Some(Gen::Gfx7),
            "gfx8" | "gfx801" | "gfx802" | "gfx803" | "gfx805" | "gfx810" | "polaris10"
            | "polaris11" | "carrizo" | "iceland" | "stoney" => Some(Gen::Gfx8),
            // gfx908 is not here: its AccVGPRs and MFMA instructions are not plain gfx9.
            "gfx9" | "gfx902" | "gfx904" | "gfx906" | "gfx909" | "gfx90c" => Some(Gen::Gfx9),
            _ => None,
        }
    }

    /// A representative LLVM processor name (what `llvm-mc -mcpu=` accepts).
    pub fn llvm_cpu(self) -> &'static str {
        match self {
            Gen::Gfx6 => "tahiti",
            Gen::Gfx7 => "bonaire",
            Gen::Gfx8 => "tonga",
            Gen::Gfx9 => "gfx900",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Gen::Gfx6 => "gfx6",
            Gen::Gfx7 => "gfx7",
            Gen::Gfx8 => "gfx8",
            Gen::Gfx9 => "gfx9",
        }
    }

    /// Table generation mask bit (`tables::G6` ...).
    pub fn bit(self) -> u8 {
        1 << self.index()
    }
}

/// The encoding an instruction was carried in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smrd,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3a,
    /// VOP3 with a scalar destination in bits 14:8 (carry ops, div_scale, mad_u64_u32).
    Vop3b,
    Vop3p,
    /// VOP1/VOP2/VOPC with src0 = 249 and a second dword of sub-dword selects.
    Sdwa,
    /// VOP1/VOP2 with src0 = 250 and a second dword of data-parallel controls.
    Dpp,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Global,
    Scratch,
    /// Native 32-bit VINTRP word.
    Vintrp,
    Mimg,
}

/// One of the nine inline floating-point constants (operand codes 240-248). The value is
/// interpreted in the operand's type (f16/f32/f64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InlineFloat {
    Half,
    MinusHalf,
    One,
    MinusOne,
    Two,
    MinusTwo,
    Four,
    MinusFour,
    /// 1/(2*pi), gfx8+ only (code 248).
    InvTwoPi,
}

impl InlineFloat {
    /// Every inline float constant, in operand-code order (1/(2*pi) last: gfx8+ only).
    pub const ALL: [InlineFloat; 9] = [
        InlineFloat::Half,
        InlineFloat::MinusHalf,
        InlineFloat::One,
        InlineFloat::MinusOne,
        InlineFloat::Two,
        InlineFloat::MinusTwo,
        InlineFloat::Four,
        InlineFloat::MinusFour,
        InlineFloat::InvTwoPi,
    ];

    /// The f64 value (1/(2*pi) is the ISA's rounded constant in the operand's type; this is the
    /// f64 one, 0x3fc45f306dc9c882).
    pub fn value(self) -> f64 {
        match self {
            InlineFloat::Half => 0.5,
            InlineFloat::MinusHalf => -0.5,
            InlineFloat::One => 1.0,
            InlineFloat::MinusOne => -1.0,
            InlineFloat::Two => 2.0,
            InlineFloat::MinusTwo => -2.0,
            InlineFloat::Four => 4.0,
            InlineFloat::MinusFour => -4.0,
            InlineFloat::InvTwoPi => f64::from_bits(0x3fc4_5f30_6dc9_c882),
        }
    }

    /// The operand code (240-248).
    pub fn code(self) -> u16 {
        240 + self as u16
    }
}

/// An operand value. Register operands name their first register; the width in dwords is in
/// [`Opnd::dwords`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Sgpr(u8),
    Vgpr(u8),
    Ttmp(u8),
    VccLo,
    VccHi,
    ExecLo,
    ExecHi,
    FlatScratchLo,
    FlatScratchHi,
    XnackMaskLo,
    XnackMaskHi,
    TbaLo,
    TbaHi,
    TmaLo,
    TmaHi,
    M0,
    /// Operand code 253 (the SCC bit as a source value).
    Scc,
    Vccz,
    Execz,
    LdsDirect,
    /// gfx9 aperture registers (codes 235-238) and POPS wave id (239).
    SrcSharedBase,
    SrcSharedLimit,
    SrcPrivateBase,
    SrcPrivateLimit,
    SrcPopsExitingWaveId,
    /// Inline integer constant -16..=64.
    InlineInt(i8),
    InlineFloat(InlineFloat),
    /// 32-bit literal dword following the instruction (for 64-bit float operands it is the
    /// high dword; for 64-bit integer operands it is zero-extended).
    Literal(u32),
    /// An immediate field (SOPK/SOPP simm16, SMEM offset, s_atc_probe data...).
    Imm(u32),
    /// `off`: an absent optional register (gfx9 GLOBAL/SCRATCH saddr, MUBUF vaddr).
    Off,
}

impl Operand {
    /// True for any register (SGPR, VGPR, TTMP or special register).
    pub fn is_reg(self) -> bool {
        !matches!(
            self,
            Operand::InlineInt(_)
                | Operand::InlineFloat(_)
                | Operand::Literal(_)
                | Operand::Imm(_)
                | Operand::Off
        )
    }
}

/// An operand with the field it came from and its width in dwords.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opnd {
    pub field: Field,
    pub value: Operand,
    pub dwords: u8,
}

/// VOP3/VOP3P/SDWA/DPP input and output modifiers. Bit i of `abs`/`neg`/`op_sel`... applies to
/// source i (op_sel bit 3 is the destination on gfx9 VOP3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VopMods {
    pub abs: u8,
    pub neg: u8,
    pub clamp: bool,
    /// 0 none, 1 mul:2, 2 mul:4, 3 div:2.
    pub omod: u8,
    pub op_sel: u8,
    /// VOP3P only (all ones by default).
    pub op_sel_hi: u8,
    /// VOP3P only.
    pub neg_hi: u8,
}

/// SDWA controls (second dword).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sdwa {
    /// 0-3 BYTE_0..3, 4 WORD_0, 5 WORD_1, 6 DWORD.
    pub dst_sel: u8,
    /// 0 UNUSED_PAD, 1 UNUSED_SEXT, 2 UNUSED_PRESERVE.
    pub dst_unused: u8,
    pub src0_sel: u8,
    pub src1_sel: u8,
    /// Bit i: sign-extend source i.
    pub sext: u8,
}

/// DPP controls (second dword).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dpp {
    pub ctrl: u16,
    pub row_mask: u8,
    pub bank_mask: u8,
    pub bound_ctrl: bool,
}

/// Memory-instruction fields. Unused fields are zero/false.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemFields {
    /// DS offset (offset0 | offset1 << 8 for single-address ops), MUBUF/MTBUF 12-bit offset,
    /// FLAT/GLOBAL/SCRATCH 13-bit signed offset (gfx9), SMEM/SMRD immediate offset.
    pub offset: i32,
    pub offset0: u8,
    pub offset1: u8,
    pub glc: bool,
    pub slc: bool,
    pub tfe: bool,
    pub lds: bool,
    pub gds: bool,
    pub addr64: bool,
    pub offen: bool,
    pub idxen: bool,
    /// MTBUF data and numeric formats.
    pub dfmt: u8,
    pub nfmt: u8,
    /// SMRD/SMEM: the offset is an immediate (else an SGPR, given as the `Soff` operand).
    pub imm: bool,
    /// gfx9 FLAT segment: 0 flat, 1 scratch, 2 global.
    pub seg: u8,
    /// FLAT/GLOBAL/SCRATCH nv bit (gfx9).
    pub nv: bool,
    /// MIMG: enabled data components (4 bits).
    pub dmask: u8,
    /// MIMG: unnormalized coordinates.
    pub unorm: bool,
    /// MIMG: array image (`da`).
    pub da: bool,
    /// MIMG bit 15: `r128` (128-bit resource) on gfx6-gfx8, `a16` (16-bit addresses) on gfx9.
    pub r128: bool,
    /// MIMG: LOD warning enable.
    pub lwe: bool,
    /// MIMG (gfx8+): 16-bit data.
    pub d16: bool,
}

/// A decoded instruction.
#[derive(Clone, Debug)]
pub struct Inst {
    pub gen: Gen,
    pub opcode: Opcode,
    pub encoding: Encoding,
    /// The table row (operand types, flags, per-generation opcodes).
    pub info: &'static OpInfo,
    /// Operands in assembler order.
    pub operands: Vec<Opnd>,
    pub mods: VopMods,
    pub sdwa: Option<Sdwa>,
    pub dpp: Option<Dpp>,
    pub mem: MemFields,
    /// SOPK/SOPP 16-bit immediate (branch displacement in dwords for branches), if any.
    pub simm16: Option<u16>,
    /// Size in bytes (4, 8 or 12).
    pub len: u8,
}

impl Inst {
    /// The operand in `field`, if present.
    pub fn operand(&self, field: Field) -> Option<&Opnd> {
        self.operands.iter().find(|o| o.field == field)
    }

    /// The mnemonic in this instruction's generation (without encoding suffix).
    pub fn name(&self) -> &'static str {
        self.info.name(self.gen)
    }

    /// True when the instruction reads M0 implicitly: the row's `READS_M0`, every DS
    /// instruction before gfx9 (M0 bounds LDS addresses; LLVM's `_gfx9` DS forms drop the
    /// use), GDS accesses (M0 holds the GDS base and size), DS ops addressed by M0 on gfx9
    /// (ds_*_addtid_b32), and MUBUF/MTBUF with `lds` set (M0 holds the LDS destination).
    pub fn reads_m0(&self) -> bool {
        use crate::tables::{flags, Family};
        let f = self.info.family;
        self.info.has(flags::READS_M0)
            || (f == Family::Ds
                && (self.gen < Gen::Gfx9
                    || self.mem.gds
                    || matches!(
                        self.opcode,
                        Opcode::DS_WRITE_ADDTID_B32 | Opcode::DS_READ_ADDTID_B32
                    )))
            || (matches!(f, Family::Mubuf | Family::Mtbuf) && self.mem.lds)
    }

    /// Branch target byte offset for PC-relative branches, given the instruction's own byte
    /// offset: next pc + 4 * simm16 (sign-extended).
    pub fn branch_target(&self, pc: u64) -> Option<u64> {
        self.operand(Field::Branch)?;
        let d = self.simm16? as i16 as i64;
        Some((pc as i64 + self.len as i64 + 4 * d) as u64)
    }
}

impl PartialEq for Inst {
    fn eq(&self, o: &Self) -> bool {
        self.gen == o.gen
            && self.opcode == o.opcode
            && self.encoding == o.encoding
            && std::ptr::eq(self.info, o.info)
            && self.operands == o.operands
            && self.mods == o.mods
            && self.sdwa == o.sdwa
            && self.dpp == o.dpp
            && self.mem == o.mem
            && self.simm16 == o.simm16
            && self.len == o.len
    }
}
