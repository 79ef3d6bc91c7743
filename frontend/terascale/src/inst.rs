//! The instruction model: decoded CF instructions, ALU instructions and groups, fetch
//! instructions, clauses and whole programs, with their exact bit layouts.
//!
//! Invariants:
//! - every field of every word is represented, so `encode(decode(bytes)) == bytes` (reserved
//!   bits must be zero; the decoder rejects them otherwise);
//! - addresses (`addr`, clause starts, CF targets) are in 64-bit units from the program start,
//!   as the hardware counts them;
//! - an [`AluInst`] keeps its raw opcode: Cayman's duplicate 64-bit encodings (27-29) decode to
//!   the same [`AluOp`] as 202/205/206 and re-encode to the value they came from.
//!
//! Field layouts: notes/hd6900_map.md §2.1 (CF), §3.1 (ALU), §5-§6 (fetch), which cite the
//! seed 000 line numbers. Evergreen differences (END_OF_PROGRAM in bit 21 of CF_WORD1 and
//! CF_ALLOC_EXPORT_WORD1, VTX MEGA_FETCH_COUNT) come from Mesa's `evergreend.h`/`r600_asm.c`.
use crate::chip::ChipClass;
use crate::opcode::AluOp;
use crate::tables::{AluEnc, CfAluOp, CfMemOp, CfOp, FetchOp, LdsOp, RatInst};

/// A vector element / instruction-group slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    X,
    Y,
    Z,
    W,
    /// The transcendental slot of VLIW5 chips.
    T,
}

impl Slot {
    pub const VECTOR: [Slot; 4] = [Slot::X, Slot::Y, Slot::Z, Slot::W];
    pub fn from_chan(chan: u8) -> Slot {
        Slot::VECTOR[(chan & 3) as usize]
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

pub(crate) fn bits(w: u32, lo: u32, n: u32) -> u32 {
    (w >> lo) & ((1u32 << n) - 1)
}
fn bit(w: u32, b: u32) -> bool {
    (w >> b) & 1 != 0
}
fn put(v: u32, lo: u32) -> u32 {
    v << lo
}

// ---------------------------------------------------------------------------------------------
// CF

/// A CF_WORD0/1 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfWord {
    pub op: CfOp,
    /// CF_WORD0.ADDR (24 bits). For GLOBAL_WAVE_SYNC this is the whole CF_GWS_WORD0.
    pub addr: u32,
    pub jumptable_sel: u8,
    pub pop_count: u8,
    pub cf_const: u8,
    pub cond: u8,
    /// Raw COUNT field: clause instructions - 1, or CALL count / stream id.
    pub count: u8,
    pub valid_pixel_mode: bool,
    /// Evergreen END_OF_PROGRAM (reserved on Cayman).
    pub end_of_program: bool,
    pub whole_quad_mode: bool,
    pub barrier: bool,
}

/// One kcache lock of a CF_ALU instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KCache {
    /// Constant buffer index.
    pub bank: u8,
    /// 0 NOP, 1 LOCK_1, 2 LOCK_2, 3 LOCK_LOOP_INDEX.
    pub mode: u8,
    /// Line address in units of 16 constants.
    pub addr: u8,
}

/// The CF_ALU_WORD0/1_EXT prefix of ALU_EXTENDED (kcache sets 2 and 3, bank index modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AluExt {
    pub bank_index_mode: [u8; 4],
    pub barrier: bool,
}

/// A CF_ALU_WORD0/1 clause instruction (with its ALU_EXTENDED prefix if any).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfAlu {
    pub op: CfAluOp,
    pub addr: u32,
    /// Kcache sets 0-3 (2 and 3 only with `ext`).
    pub kcache: [KCache; 4],
    /// Raw COUNT: slots - 1 (literal slots included).
    pub count: u8,
    pub alt_const: bool,
    pub whole_quad_mode: bool,
    pub barrier: bool,
    pub ext: Option<AluExt>,
}

/// RAT fields of CF_ALLOC_EXPORT_WORD0_RAT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatFields {
    pub id: u8,
    pub inst: RatInst,
    pub index_mode: u8,
}

/// A CF_ALLOC_EXPORT_WORD0/1 instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfMem {
    pub op: CfMemOp,
    /// Present for MEM_RAT* (WORD0_RAT); otherwise `array_base` is meaningful.
    pub rat: Option<RatFields>,
    pub array_base: u16,
    pub kind: u8,
    pub rw_gpr: u8,
    pub rw_rel: bool,
    pub index_gpr: u8,
    pub elem_size: u8,
    /// WORD1_BUF.ARRAY_SIZE, or the four 3-bit SEL fields of WORD1_SWIZ.
    pub array_size: u16,
    /// WORD1_BUF.COMP_MASK (reserved in WORD1_SWIZ).
    pub comp_mask: u8,
    pub burst_count: u8,
    pub valid_pixel_mode: bool,
    /// Evergreen END_OF_PROGRAM (reserved on Cayman).
    pub end_of_program: bool,
    pub mark: bool,
    pub barrier: bool,
}

/// A CF program instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfInst {
    Word(CfWord),
    Alu(CfAlu),
    Mem(CfMem),
}

impl CfInst {
    /// CF slots (64-bit words) the instruction occupies: 2 for ALU_EXTENDED, else 1.
    pub fn slots(&self) -> u32 {
        match self {
            CfInst::Alu(a) if a.ext.is_some() => 2,
            _ => 1,
        }
    }

    /// Whether the program ends after this instruction in `class`.
    pub fn ends_program(&self, class: ChipClass) -> bool {
        match (class, self) {
            (ChipClass::Cayman, CfInst::Word(w)) => w.op == CfOp::END,
            (ChipClass::Evergreen, CfInst::Word(w)) => w.end_of_program,
            (ChipClass::Evergreen, CfInst::Mem(m)) => m.end_of_program,
            _ => false,
        }
    }
}

pub(crate) const CF_WORD0_USED: u32 = 0x07ff_ffff;
pub(crate) const CF_WORD1_USED: u32 = 0xfff0_ffff;
pub(crate) const CF_ALU_EXT0_USED: u32 = 0xffc0_0ff0;
pub(crate) const CF_ALU_EXT1_USED: u32 = 0xbc03_ffff;
pub(crate) const CF_MEM_RAT0_USED: u32 = 0xffff_fbff;

impl CfWord {
    pub fn encode(&self, opcode: u16) -> [u32; 2] {
        let w0 = if self.op == CfOp::GLOBAL_WAVE_SYNC {
            self.addr
        } else {
            self.addr | put(self.jumptable_sel as u32, 24)
        };
        let w1 = put(self.pop_count as u32, 0)
            | put(self.cf_const as u32, 3)
            | put(self.cond as u32, 8)
            | put(self.count as u32, 10)
            | put(self.valid_pixel_mode as u32, 20)
            | put(self.end_of_program as u32, 21)
            | put(opcode as u32, 22)
            | put(self.whole_quad_mode as u32, 30)
            | put(self.barrier as u32, 31);
        [w0, w1]
    }

    pub(crate) fn decode_fields(op: CfOp, w0: u32, w1: u32) -> CfWord {
        let gws = op == CfOp::GLOBAL_WAVE_SYNC;
        CfWord {
            op,
            addr: if gws { w0 } else { bits(w0, 0, 24) },
            jumptable_sel: if gws { 0 } else { bits(w0, 24, 3) as u8 },
            pop_count: bits(w1, 0, 3) as u8,
            cf_const: bits(w1, 3, 5) as u8,
            cond: bits(w1, 8, 2) as u8,
            count: bits(w1, 10, 6) as u8,
            valid_pixel_mode: bit(w1, 20),
            end_of_program: bit(w1, 21),
            whole_quad_mode: bit(w1, 30),
            barrier: bit(w1, 31),
        }
    }
}

impl CfAlu {
    /// The words: `[EXT0, EXT1]` first for ALU_EXTENDED, then CF_ALU_WORD0/1.
    pub fn encode(&self, opcode: u16, ext_opcode: u16) -> Vec<u32> {
        let k = &self.kcache;
        let mut out = Vec::with_capacity(4);
        if let Some(ext) = &self.ext {
            let m = &ext.bank_index_mode;
            out.push(
                put(m[0] as u32, 4)
                    | put(m[1] as u32, 6)
                    | put(m[2] as u32, 8)
                    | put(m[3] as u32, 10)
                    | put(k[2].bank as u32, 22)
                    | put(k[3].bank as u32, 26)
                    | put(k[2].mode as u32, 30),
            );
            out.push(
                put(k[3].mode as u32, 0)
                    | put(k[2].addr as u32, 2)
                    | put(k[3].addr as u32, 10)
                    | put(ext_opcode as u32, 26)
                    | put(ext.barrier as u32, 31),
            );
        }
        out.push(
            self.addr
                | put(k[0].bank as u32, 22)
                | put(k[1].bank as u32, 26)
                | put(k[0].mode as u32, 30),
        );
        out.push(
            put(k[1].mode as u32, 0)
                | put(k[0].addr as u32, 2)
                | put(k[1].addr as u32, 10)
                | put(self.count as u32, 18)
                | put(self.alt_const as u32, 25)
                | put(opcode as u32, 26)
                | put(self.whole_quad_mode as u32, 30)
                | put(self.barrier as u32, 31),
        );
        out
    }

    pub(crate) fn decode_fields(op: CfAluOp, w0: u32, w1: u32, ext: Option<(u32, u32)>) -> CfAlu {
        let mut kcache = [KCache::default(); 4];
        kcache[0] = KCache {
            bank: bits(w0, 22, 4) as u8,
            mode: bits(w0, 30, 2) as u8,
            addr: bits(w1, 2, 8) as u8,
        };
        kcache[1] = KCache {
            bank: bits(w0, 26, 4) as u8,
            mode: bits(w1, 0, 2) as u8,
            addr: bits(w1, 10, 8) as u8,
        };
        let ext = ext.map(|(e0, e1)| {
            kcache[2] = KCache {
                bank: bits(e0, 22, 4) as u8,
                mode: bits(e0, 30, 2) as u8,
                addr: bits(e1, 2, 8) as u8,
            };
            kcache[3] = KCache {
                bank: bits(e0, 26, 4) as u8,
                mode: bits(e1, 0, 2) as u8,
                addr: bits(e1, 10, 8) as u8,
            };
            AluExt {
                bank_index_mode: [
                    bits(e0, 4, 2) as u8,
                    bits(e0, 6, 2) as u8,
                    bits(e0, 8, 2) as u8,
                    bits(e0, 10, 2) as u8,
                ],
                barrier: bit(e1, 31),
            }
        });
        CfAlu {
            op,
            addr: bits(w0, 0, 22),
            kcache,
            count: bits(w1, 18, 7) as u8,
            alt_const: bit(w1, 25),
            whole_quad_mode: bit(w1, 30),
            barrier: bit(w1, 31),
            ext,
        }
    }

    /// ALU slots (64-bit words) of the clause.
    pub fn slots(&self) -> u32 {
        self.count as u32 + 1
    }
}

impl CfMem {
    pub fn encode(&self, opcode: u16, rat_opcode: Option<u16>) -> [u32; 2] {
        let low = match (&self.rat, rat_opcode) {
            (Some(r), Some(code)) => {
                r.id as u32 | put(code as u32, 4) | put(r.index_mode as u32, 11)
            }
            _ => self.array_base as u32,
        };
        let w0 = low
            | put(self.kind as u32, 13)
            | put(self.rw_gpr as u32, 15)
            | put(self.rw_rel as u32, 22)
            | put(self.index_gpr as u32, 23)
            | put(self.elem_size as u32, 30);
        let w1 = self.array_size as u32
            | put(self.comp_mask as u32, 12)
            | put(self.burst_count as u32, 16)
            | put(self.valid_pixel_mode as u32, 20)
            | put(self.end_of_program as u32, 21)
            | put(opcode as u32, 22)
            | put(self.mark as u32, 30)
            | put(self.barrier as u32, 31);
        [w0, w1]
    }
}

// ---------------------------------------------------------------------------------------------
// ALU

/// One ALU source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AluSrc {
    /// SRC*_SEL (9 bits): GPR, kcache, inline constant, literal, PV/PS, special.
    pub sel: u16,
    pub rel: bool,
    pub chan: u8,
    pub neg: bool,
    /// OP2 src0/src1 only.
    pub abs: bool,
}

/// SRC_SEL values with a fixed meaning (hd6900_map.md §3.2).
pub mod sel {
    pub const KCACHE0: u16 = 128;
    pub const KCACHE1: u16 = 160;
    pub const KCACHE2: u16 = 256;
    pub const KCACHE3: u16 = 288;
    pub const LDS_OQ_A: u16 = 219;
    pub const LDS_OQ_B: u16 = 220;
    pub const LDS_OQ_A_POP: u16 = 221;
    pub const LDS_OQ_B_POP: u16 = 222;
    pub const LDS_DIRECT_A: u16 = 223;
    pub const LDS_DIRECT_B: u16 = 224;
    pub const ZERO: u16 = 248;
    pub const ONE: u16 = 249;
    pub const ONE_INT: u16 = 250;
    pub const M_1_INT: u16 = 251;
    pub const HALF: u16 = 252;
    pub const LITERAL: u16 = 253;
    pub const PV: u16 = 254;
    pub const PS: u16 = 255;
}

/// LDS_IDX_OP fields (ALU_WORD0/1_LDS_IDX_OP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdsIdx {
    pub op: LdsOp,
    /// The 6-bit IDX_OFFSET gathered from its six scattered bits.
    pub offset: u8,
}

/// An ALU instruction (ALU_WORD0 + ALU_WORD1_OP2 / _OP3 / _LDS_IDX_OP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AluInst {
    pub op: AluOp,
    pub enc: AluEnc,
    /// The ALU_INST value as encoded.
    pub opcode: u16,
    /// The slot the group assigned (X-W by DST_CHAN, or T).
    pub slot: Slot,
    pub src: [AluSrc; 3],
    pub index_mode: u8,
    /// 0 OFF, 2 ZERO, 3 ONE.
    pub pred_sel: u8,
    pub last: bool,
    pub bank_swizzle: u8,
    /// DST_GPR (Cayman MOVA_INT: MOVA_DST).
    pub dst_gpr: u8,
    pub dst_rel: bool,
    pub dst_chan: u8,
    pub clamp: bool,
    /// OP2: UPDATE_EXEC_MASK (Cayman: selects the EXECUTE_MASK form of word 1).
    pub update_exec_mask: bool,
    pub update_pred: bool,
    /// OP2: WRITE_MASK (OP3 always writes).
    pub write: bool,
    /// OP2: OMOD, or EXECUTE_MASK_OP in Cayman's EXECUTE_MASK form.
    pub omod: u8,
    pub lds: Option<LdsIdx>,
}

impl AluInst {
    /// LLVM's fixed GROUP_BARRIER encoding (printed without operands): opcode `opcode` in
    /// `slot`, last of its group, every other field zero.
    pub fn llvm_group_barrier(opcode: u16, slot: Slot) -> AluInst {
        AluInst {
            op: AluOp::GROUP_BARRIER,
            enc: AluEnc::Op2,
            opcode,
            slot,
            src: [AluSrc::default(); 3],
            index_mode: 0,
            pred_sel: 0,
            last: true,
            bank_swizzle: 0,
            dst_gpr: 0,
            dst_rel: false,
            dst_chan: 0,
            clamp: false,
            update_exec_mask: false,
            update_pred: false,
            write: false,
            omod: 0,
            lds: None,
        }
    }

    /// Cayman ALU_WORD1_OP2_EXECUTE_MASK: EXECUTE_MASK_OP (bits `[6:5]`) when UPDATE_EXEC_MASK.
    pub fn execute_mask_op(&self, class: ChipClass) -> Option<u8> {
        (class == ChipClass::Cayman && self.enc == AluEnc::Op2 && self.update_exec_mask)
            .then_some(self.omod)
    }

    /// Cayman ALU_WORD1_OP2_MOVA: MOVA_DST (0 AR.X, 1 CF_PC, 2/3 CF_IDX0/1, 4-7 CLAUSE_GLOBAL).
    pub fn mova_dst(&self, class: ChipClass) -> Option<u8> {
        (class == ChipClass::Cayman && self.op == AluOp::MOVA_INT).then_some(self.dst_gpr)
    }

    pub fn encode(&self) -> [u32; 2] {
        let s = &self.src;
        let mut w0 = put(s[0].sel as u32, 0)
            | put(s[0].rel as u32, 9)
            | put(s[0].chan as u32, 10)
            | put(s[1].sel as u32, 13)
            | put(s[1].rel as u32, 22)
            | put(s[1].chan as u32, 23)
            | put(self.index_mode as u32, 26)
            | put(self.pred_sel as u32, 29)
            | put(self.last as u32, 31);
        let common = put(self.bank_swizzle as u32, 18) | put(self.dst_chan as u32, 29);
        let w1 = if let Some(lds) = &self.lds {
            let o = lds.offset as u32;
            w0 |= put((o >> 4) & 1, 12) | put((o >> 5) & 1, 25);
            put(s[2].sel as u32, 0)
                | put(s[2].rel as u32, 9)
                | put(s[2].chan as u32, 10)
                | put((o >> 1) & 1, 12)
                | put(self.opcode as u32, 13)
                | common
                | put(crate::tables::lds_code(lds.op) as u32, 21)
                | put(o & 1, 27)
                | put((o >> 2) & 1, 28)
                | put((o >> 3) & 1, 31)
        } else {
            w0 |= put(s[0].neg as u32, 12) | put(s[1].neg as u32, 25);
            let dst = put(self.dst_gpr as u32, 21)
                | put(self.dst_rel as u32, 28)
                | put(self.clamp as u32, 31);
            match self.enc {
                AluEnc::Op2 => {
                    put(s[0].abs as u32, 0)
                        | put(s[1].abs as u32, 1)
                        | put(self.update_exec_mask as u32, 2)
                        | put(self.update_pred as u32, 3)
                        | put(self.write as u32, 4)
                        | put(self.omod as u32, 5)
                        | put(self.opcode as u32, 7)
                        | common
                        | dst
                }
                AluEnc::Op3 => {
                    put(s[2].sel as u32, 0)
                        | put(s[2].rel as u32, 9)
                        | put(s[2].chan as u32, 10)
                        | put(s[2].neg as u32, 12)
                        | put(self.opcode as u32, 13)
                        | common
                        | dst
                }
            }
        };
        [w0, w1]
    }
}

/// An instruction group: 1-5 ALU instructions in stream order and 0, 2 or 4 literal dwords.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluGroup {
    /// Address of the first instruction.
    pub addr: u32,
    pub insts: Vec<AluInst>,
    pub literals: Vec<u32>,
}

impl AluGroup {
    /// The instruction in `slot`, if any.
    pub fn in_slot(&self, slot: Slot) -> Option<&AluInst> {
        self.insts.iter().find(|i| i.slot == slot)
    }
    /// 64-bit words the group occupies.
    pub fn slots(&self) -> u32 {
        (self.insts.len() + self.literals.len() / 2) as u32
    }
}

// ---------------------------------------------------------------------------------------------
// Fetch

/// A fetch-clause instruction (128 bits: three dwords and a zero dword). Fields are read with
/// the accessors; the layout depends on the family (VTX_WORD*, TEX_WORD*, MEM_RD_WORD*,
/// MEM_GDS_WORD*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchInst {
    pub op: FetchOp,
    pub words: [u32; 3],
}

impl FetchInst {
    pub fn word(&self, i: usize) -> u32 {
        self.words[i]
    }
    /// VTX/TEX/MEM_RD: BUFFER_ID / RESOURCE_ID (word 0 bits `[15:8]`).
    pub fn buffer_id(&self) -> u8 {
        bits(self.words[0], 8, 8) as u8
    }
    /// VTX/TEX/MEM_RD: SRC_GPR (word 0 bits `[22:16]`).
    pub fn src_gpr(&self) -> u8 {
        bits(self.words[0], 16, 7) as u8
    }
    pub fn src_rel(&self) -> bool {
        bit(self.words[0], 23)
    }
    /// VTX/MEM_RD: SRC_SEL_X (word 0 bits `[25:24]`).
    pub fn src_sel_x(&self) -> u8 {
        bits(self.words[0], 24, 2) as u8
    }
    /// VTX: FETCH_TYPE (word 0 bits `[6:5]`).
    pub fn fetch_type(&self) -> u8 {
        bits(self.words[0], 5, 2) as u8
    }
    /// Evergreen VTX: MEGA_FETCH_COUNT (word 0 bits `[31:26]`).
    pub fn mega_fetch_count(&self) -> u8 {
        bits(self.words[0], 26, 6) as u8
    }
    /// VTX/TEX/MEM_RD: DST_GPR (word 1 bits `[6:0]`).
    pub fn dst_gpr(&self) -> u8 {
        bits(self.words[1], 0, 7) as u8
    }
    pub fn dst_rel(&self) -> bool {
        bit(self.words[1], 7)
    }
    /// VTX/TEX/MEM_RD: DST_SEL_X..W (0-3 XYZW, 4 = 0, 5 = 1, 7 = masked).
    pub fn dst_sel(&self) -> [u8; 4] {
        let w = self.words[1];
        [
            bits(w, 9, 3) as u8,
            bits(w, 12, 3) as u8,
            bits(w, 15, 3) as u8,
            bits(w, 18, 3) as u8,
        ]
    }
    /// VTX: USE_CONST_FIELDS (word 1 bit 21).
    pub fn use_const_fields(&self) -> bool {
        bit(self.words[1], 21)
    }
    /// VTX/MEM_RD: DATA_FORMAT (word 1 bits `[27:22]`).
    pub fn data_format(&self) -> u8 {
        bits(self.words[1], 22, 6) as u8
    }
    /// VTX/MEM_RD: NUM_FORMAT_ALL (word 1 bits `[29:28]`: 0 norm, 1 int, 2 scaled).
    pub fn num_format_all(&self) -> u8 {
        bits(self.words[1], 28, 2) as u8
    }
    /// VTX/MEM_RD: FORMAT_COMP_ALL (word 1 bit 30: signed).
    pub fn format_comp_all(&self) -> bool {
        bit(self.words[1], 30)
    }
    pub fn srf_mode_all(&self) -> bool {
        bit(self.words[1], 31)
    }
    /// VTX: OFFSET in bytes (word 2 bits `[15:0]`).
    pub fn offset(&self) -> u16 {
        bits(self.words[2], 0, 16) as u16
    }
    /// VTX: ENDIAN_SWAP (word 2 bits `[17:16]`).
    pub fn endian_swap(&self) -> u8 {
        bits(self.words[2], 16, 2) as u8
    }
    /// Evergreen VTX: MEGA_FETCH (word 2 bit 19).
    pub fn mega_fetch(&self) -> bool {
        bit(self.words[2], 19)
    }
}

// ---------------------------------------------------------------------------------------------
// Program

/// A CF instruction and its CF address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfEntry {
    pub addr: u32,
    pub inst: CfInst,
}

/// A clause body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseBody {
    Alu(Vec<AluGroup>),
    Fetch(Vec<FetchInst>),
}

/// A clause referenced by the CF program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub addr: u32,
    /// 64-bit words the clause occupies.
    pub len: u32,
    pub body: ClauseBody,
}

/// A decoded program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub class: ChipClass,
    pub cf: Vec<CfEntry>,
    /// Clauses in address order (each once, however many CF instructions run it).
    pub clauses: Vec<Clause>,
    /// Zero 64-bit words outside the CF program and the clauses (alignment padding).
    pub pads: Vec<u32>,
    /// Length of the code in 64-bit words.
    pub len: u32,
}
