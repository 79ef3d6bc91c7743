//! Instruction tables: one row per instruction and encoding family, one opcode column per
//! generation (`NA` where the generation lacks the instruction).
//!
//! Invariants (checked by the unit tests of this module):
//! - within one family and generation an opcode appears in at most one row;
//! - `slots` lists the operands in the order the ISA's assembler syntax (LLVM's) writes them
//!   for the family's native encoding; the VOP3, SDWA and DPP forms of VOP1/VOP2/VOPC rows are
//!   derived from it by fixed rules (see `decode` and `print`).
//!
//! The rows were bootstrapped from LLVM 14's AMDGPU assembler/disassembler (the same oracle the
//! test vectors come from) and cross-checked against CLRX `doc/GcnInstrs*.md`. Data types
//! (`dst_ty`/`src_ty`, conventions on [`Ty`]) start from the ISA naming convention
//! (`v_cvt_<dst>_<src>`, `<op>_<type>`) and are corrected where the documented operation
//! differs (shift counts, ldexp exponents, class masks, 24-bit multiply-adds, packed results);
//! they are what a lifter needs to pick operand interpretations and inline-constant encodings.
//! `tests/isa_tables.rs` checks operand widths and 16-bit classes against LLVM 14 and the
//! scalar implicit effects ([`flags`]) against a transcription of the CLRX documents.
use crate::inst::{Gen, Opcode};

mod ds;
mod flat;
pub mod mimg;
mod mubuf;
mod smem;
mod sop;
mod vintrp;
mod vop1;
mod vop2;
mod vop3;
mod vopc;

pub use vintrp::VOP3_BASE as VINTRP_VOP3_BASE;

/// Opcode value meaning "this generation has no such instruction".
pub const NA: u16 = u16::MAX;

/// Encoding families that own an opcode space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    /// Scalar memory, gfx6/gfx7 (32-bit word, dword offsets).
    Smrd,
    /// Scalar memory, gfx8/gfx9 (64-bit word, byte offsets).
    Smem,
    Vop2,
    Vop1,
    Vopc,
    /// Instructions that exist only in the VOP3 encoding.
    Vop3,
    /// gfx9 packed-math VOP3P.
    Vop3p,
    Ds,
    Mubuf,
    Mtbuf,
    Flat,
    Global,
    Scratch,
    /// Parameter interpolation (native VINTRP, and on gfx8/gfx9 also VOP3-encoded).
    Vintrp,
    /// Image loads, stores, atomics and samples.
    Mimg,
}

/// An encoding field an operand lives in (or an implicit operand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// SOP destination (SOPK: the `sdst` field, which SOPK compares read).
    Sdst,
    Ssrc0,
    Ssrc1,
    /// SOPK/SOPP 16-bit immediate printed as hex (SOPK) or decimal (SOPP).
    Simm16,
    /// SOPP/SOPK branch displacement in dwords (relative to the next instruction).
    Branch,
    /// s_waitcnt counters.
    Waitcnt,
    /// s_sendmsg message.
    Sendmsg,
    /// s_set_gpr_idx_mode / s_set_gpr_idx_on mode bits.
    GprIdx,
    /// s_getreg/s_setreg hardware register descriptor.
    Hwreg,
    /// 32-bit literal that follows the instruction (s_setreg_imm32_b32, v_madmk/v_madak K).
    Literal,
    /// Scalar memory data register(s).
    Sdata,
    /// s_atc_probe: the sdata field holds a small immediate, not a register.
    SdataImm,
    /// Scalar memory base register pair/quad.
    Sbase,
    /// Scalar memory offset: immediate or SGPR.
    Soff,
    /// VALU destination (a VGPR; SGPR for v_readlane/v_readfirstlane).
    Vdst,
    /// VALU 9-bit source 0.
    Src0,
    /// VOP2/VOPC 8-bit VGPR source 1.
    Vsrc1,
    /// VOP3 source 1 and 2 (9-bit).
    Src1,
    Src2,
    /// VOP3B scalar destination (carry-out / div_scale VCC).
    Sdst3b,
    /// Implicit VCC written (VOP2 carry-out, VOPC result).
    VccOut,
    /// Implicit VCC read (VOP2 carry-in, v_cndmask).
    VccIn,
    /// Memory address VGPR(s) (DS addr, MUBUF and MIMG vaddr, FLAT addr).
    Addr,
    /// DS data0 / MUBUF and FLAT store data.
    Data0,
    /// DS data1.
    Data1,
    /// Memory load result VGPR(s) (DS vdst, FLAT vdst, MUBUF and MIMG vdata).
    Vdata,
    /// MUBUF/MTBUF resource descriptor SGPR quad (MIMG: the image descriptor, 8 SGPRs).
    Srsrc,
    /// MIMG sampler descriptor SGPR quad.
    Ssamp,
    /// MUBUF/MTBUF SGPR offset.
    Soffset,
    /// gfx9 GLOBAL/SCRATCH SGPR base (`off` when absent).
    Saddr,
    /// VINTRP attribute and channel: `Imm(attr | chan << 6 | high << 8)`, the VOP3 src0 field
    /// layout (native VINTRP holds attr in bits 15:10, chan in 9:8 and has no `high`).
    Attr,
    /// v_interp_mov_f32 parameter selector: `Imm(0..=2)` for p10, p20, p0.
    InterpParam,
}

/// One operand of a row: its field and its width in dwords (0 for immediates; for MUBUF
/// `Addr` the width depends on offen/idxen/addr64 and is decided at decode time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(pub Field, pub u8);

/// Operand data types, in the ISA's vocabulary.
///
/// `dst_ty`/`src_ty[i]` say how the instruction interprets the operand: signedness, float or
/// integer, and the element width. The register count is the slot's. Conventions:
/// - shift counts, bit offsets/widths, lane selects and byte selects are `U32` (`U16` for the
///   16-bit shifts), whatever the type of the shifted value;
/// - bytes or halves packed in one dword are `B32` (bytes) or `Pk16` (halves); for a
///   multi-register vector (v_mqsad_u32_u8) the type is the element type;
/// - a 16-bit float operand is `F16`, a 16-bit integer `I16`/`U16`/`B16` (LLVM prints inline
///   float constants differently in them: `1.0` vs `0x3c00`);
/// - v_ldexp_f16 src1 is `I32`: the ISA reads S1.i16, but LLVM 14 (the printing oracle) models
///   the operand as 32-bit.
///
/// Widths agree with LLVM 14's operand types (checked by `tests/isa_tables.rs` against
/// `tests/vectors/gfx{8,9}.optypes`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    None,
    B16,
    B32,
    B64,
    F16,
    F32,
    F64,
    I8,
    U8,
    I16,
    U16,
    I24,
    U24,
    I32,
    U32,
    I64,
    U64,
    /// Packed pair of 16-bit values.
    Pk16,
}

impl Ty {
    /// True for floating-point types (inline constants are then interpreted as floats).
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F16 | Ty::F32 | Ty::F64)
    }
}

/// Row flags: implicit effects and instruction classes.
///
/// Implicit effects are the reads and writes that no operand slot names. VALU lane masking by
/// EXEC is not an effect here (every VALU instruction has it); `READS_EXEC` marks instructions
/// that use EXEC as a value (scalar branches, saveexec, fork/join, v_readfirstlane). VCC flags
/// describe the native VOP2/VOPC encoding; their VOP3 forms name an SGPR pair instead (the
/// `Sdst3b`/`Vdst` operand). M0 effects that depend on the generation or on instruction bits
/// (DS before gfx9, GDS, MUBUF `lds`) are in `Inst::reads_m0`.
///
/// Source: the Operation blocks of CLRX `doc/GcnInstrsSop{1,2,k,c,p}.md`, `GcnInstrsVop{1,2,3}.md`
/// (see `tests/vectors/scalar_effects.tsv` and `tests/isa_tables.rs`).
pub mod flags {
    pub const WRITES_SCC: u16 = 1 << 0;
    pub const READS_SCC: u16 = 1 << 1;
    pub const WRITES_VCC: u16 = 1 << 2;
    pub const READS_VCC: u16 = 1 << 3;
    pub const WRITES_EXEC: u16 = 1 << 4;
    pub const BRANCH: u16 = 1 << 5;
    pub const LOAD: u16 = 1 << 6;
    pub const STORE: u16 = 1 << 7;
    pub const ATOMIC: u16 = 1 << 8;
    /// DS: two addresses (offset0/offset1 printed separately).
    pub const DS_2ADDR: u16 = 1 << 9;
    /// The SOPK `sdst` field is a source (s_cmpk_*, s_setreg_b32, s_cbranch_i_fork).
    pub const SDST_IS_SRC: u16 = 1 << 10;
    /// Ends the program (s_endpgm*).
    pub const ENDPGM: u16 = 1 << 11;
    /// Reads EXEC as a value (beyond VALU lane masking).
    pub const READS_EXEC: u16 = 1 << 12;
    /// Reads M0 implicitly in every generation (movrel, sendmsg, GPR indexing).
    pub const READS_M0: u16 = 1 << 13;
    /// Writes M0 implicitly (s_set_gpr_idx_*: they replace bit fields of M0).
    pub const WRITES_M0: u16 = 1 << 14;
    /// The destination's previous value is an input (s_addk, s_cmov*, s_bitset*, v_mac*,
    /// v_writelane, v_cvt_pkaccum_u8_f32).
    pub const READS_DST: u16 = 1 << 15;
}

/// Generation bit masks for `OpInfo::{vop3, sdwa, dpp}`.
pub const G6: u8 = 1;
pub const G7: u8 = 2;
pub const G8: u8 = 4;
pub const G9: u8 = 8;

/// One instruction row.
#[derive(Debug)]
pub struct OpInfo {
    pub opcode: Opcode,
    pub family: Family,
    /// Opcode per generation, indexed by `Gen::index()`; `NA` where absent.
    pub op: [u16; 4],
    /// Operands in assembler order (native encoding).
    pub slots: &'static [Slot],
    pub dst_ty: Ty,
    pub src_ty: [Ty; 3],
    pub flags: u16,
    /// VOP1/VOP2/VOPC: generations (mask) with a VOP3-encoded form.
    pub vop3: u8,
    /// VOP1/VOP2/VOPC: generations (mask) with an SDWA form.
    pub sdwa: u8,
    /// VOP1/VOP2/VOPC: generations (mask) with a DPP form.
    pub dpp: u8,
    /// Per-generation mnemonic where it differs from `opcode.name()`.
    pub renamed: &'static [(Gen, &'static str)],
}

impl OpInfo {
    /// The opcode in generation `gen`, if the instruction exists there.
    pub fn opcode_in(&self, gen: Gen) -> Option<u16> {
        let op = self.op[gen.index()];
        (op != NA).then_some(op)
    }

    /// VDATA registers of a MUBUF/MTBUF row in `gen`, given its slot count `packed`. The slot
    /// counts d16 format data packed two components per VGPR (gfx9); gfx8 (tonga, fiji) keeps
    /// each d16 format component in its own VGPR (llvm-mc 14 for tonga encodes
    /// `buffer_load_format_d16_xy v[4:5]`, for gfx900 `v4`).
    pub fn vdata_regs(&self, gen: Gen, packed: u8) -> u8 {
        let name = self.opcode.name();
        match name.split_once("format_d16_") {
            Some((_, comps)) if gen == Gen::Gfx8 => comps.len() as u8,
            _ => packed,
        }
    }

    /// The mnemonic used by generation `gen` (without `_e32`/`_e64`/`_sdwa`/`_dpp`).
    pub fn name(&self, gen: Gen) -> &'static str {
        self.renamed
            .iter()
            .find(|(g, _)| *g == gen)
            .map(|(_, n)| *n)
            .unwrap_or_else(|| self.opcode.name())
    }

    pub fn has(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }

    /// Width in dwords of the operand in `field`, if the row has one.
    pub fn width(&self, field: Field) -> Option<u8> {
        self.slots.iter().find(|s| s.0 == field).map(|s| s.1)
    }
}

/// All rows of a family.
pub fn rows(family: Family) -> &'static [OpInfo] {
    match family {
        Family::Sop2 => sop::SOP2,
        Family::Sopk => sop::SOPK,
        Family::Sop1 => sop::SOP1,
        Family::Sopc => sop::SOPC,
        Family::Sopp => sop::SOPP,
        Family::Smrd => smem::SMRD,
        Family::Smem => smem::SMEM,
        Family::Vop2 => vop2::VOP2,
        Family::Vop1 => vop1::VOP1,
        Family::Vopc => vopc::VOPC,
        Family::Vop3 => vop3::VOP3,
        Family::Vop3p => vop3::VOP3P,
        Family::Ds => ds::DS,
        Family::Mubuf => mubuf::MUBUF,
        Family::Mtbuf => mubuf::MTBUF,
        Family::Flat => flat::FLAT,
        Family::Global => flat::GLOBAL,
        Family::Scratch => flat::SCRATCH,
        Family::Vintrp => vintrp::VINTRP,
        Family::Mimg => mimg::MIMG,
    }
}

/// Every family, in a fixed order.
pub const FAMILIES: [Family; 20] = [
    Family::Sop2,
    Family::Sopk,
    Family::Sop1,
    Family::Sopc,
    Family::Sopp,
    Family::Smrd,
    Family::Smem,
    Family::Vop2,
    Family::Vop1,
    Family::Vopc,
    Family::Vop3,
    Family::Vop3p,
    Family::Ds,
    Family::Mubuf,
    Family::Mtbuf,
    Family::Flat,
    Family::Global,
    Family::Scratch,
    Family::Vintrp,
    Family::Mimg,
];

/// Looks a row up by (generation, family, opcode). Linear in the family size; the decoder
/// uses the indexed form in `lookup`.
pub fn find(gen: Gen, family: Family, op: u16) -> Option<&'static OpInfo> {
    lookup::get(gen, family, op)
}

/// Rows whose mnemonic in `gen` is `name` (several families may share a name, e.g. SMRD/SMEM
/// never coexist, VOP2 v_bfm_b32 on gfx6 vs VOP3 on gfx8).
pub fn by_name(gen: Gen, name: &str) -> impl Iterator<Item = &'static OpInfo> + '_ {
    FAMILIES
        .iter()
        .flat_map(|f| rows(*f).iter())
        .filter(move |r| r.opcode_in(gen).is_some() && r.name(gen) == name)
}

mod lookup {
    //! Dense (generation, family, opcode) -> row index, built once.
    use super::{rows, Family, OpInfo, FAMILIES};
    use crate::inst::Gen;
    use std::sync::OnceLock;

    const SPACE: usize = 1024;
    type Index = Vec<[u16; SPACE]>;

    fn index() -> &'static Index {
        static IDX: OnceLock<Index> = OnceLock::new();
        IDX.get_or_init(|| {
            let mut idx = vec![[u16::MAX; SPACE]; FAMILIES.len() * 4];
            for (fi, f) in FAMILIES.iter().enumerate() {
                for (ri, r) in rows(*f).iter().enumerate() {
                    for g in Gen::ALL {
                        if let Some(op) = r.opcode_in(g) {
                            idx[fi * 4 + g.index()][op as usize] = ri as u16;
                        }
                    }
                }
            }
            idx
        })
    }

    pub fn get(gen: Gen, family: Family, op: u16) -> Option<&'static OpInfo> {
        let fi = FAMILIES.iter().position(|f| *f == family)?;
        let ri = *index()[fi * 4 + gen.index()].get(op as usize)?;
        (ri != u16::MAX).then(|| &rows(family)[ri as usize])
    }
}

impl PartialEq for OpInfo {
    fn eq(&self, o: &Self) -> bool {
        self.opcode == o.opcode && self.family == o.family
    }
}

/// A table row, in the argument order every table file writes its rows in.
#[allow(clippy::too_many_arguments)]
const fn row(
    family: Family,
    opcode: Opcode,
    op: [u16; 4],
    slots: &'static [Slot],
    dst_ty: Ty,
    src_ty: [Ty; 3],
    flags: u16,
    vop3: u8,
    sdwa: u8,
    dpp: u8,
    renamed: &'static [(Gen, &'static str)],
) -> OpInfo {
    OpInfo {
        opcode,
        family,
        op,
        slots,
        dst_ty,
        src_ty,
        flags,
        vop3,
        sdwa,
        dpp,
        renamed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcodes_unique_per_family_and_gen() {
        for f in FAMILIES {
            for g in Gen::ALL {
                let mut seen = std::collections::HashSet::new();
                for r in rows(f) {
                    if let Some(op) = r.opcode_in(g) {
                        assert!(seen.insert(op), "{f:?} {g:?} opcode {op} twice");
                    }
                }
            }
        }
    }

    #[test]
    fn same_word_differs_between_generations() {
        // VOP2 opcode 1 is v_readlane_b32 on gfx6 (CLRX GcnInstrsVop2.md) and v_add_f32 on gfx8.
        let g8 = find(Gen::Gfx8, Family::Vop2, 1).unwrap();
        assert_eq!(g8.opcode, Opcode::V_ADD_F32);
        let g6 = find(Gen::Gfx6, Family::Vop2, 3).unwrap();
        assert_eq!(g6.opcode, Opcode::V_ADD_F32);
    }
}
