//! Instruction tables: one row per instruction, one opcode column per [`ChipClass`]
//! (`[Evergreen, Cayman]`, [`NA`] where the class lacks the instruction).
//!
//! Families (one file each): `alu` (OP2/OP3), `cf` (CF_WORD and CF_ALU_WORD), `mem`
//! (CF_ALLOC_EXPORT and RAT_INST), `fetch` (VTX, TEX, MEM_RD/GDS), `lds` (LDS_OP/GDS_OP).
//!
//! Invariants (tests/isa_tables.rs): within one family and class an opcode appears in at most
//! one row; every row of notes/hd6900_opcodes.tsv is present with its Cayman value; every
//! [`AluOp`] has exactly one row. Decoding goes by (class, family, opcode), never by name.
use crate::chip::ChipClass;
use crate::opcode::AluOp;

mod alu;
mod cf;
mod fetch;
mod lds;
mod mem;

/// Opcode value meaning "this class has no such instruction".
pub const NA: u16 = u16::MAX;

/// The two ALU instruction encodings (ALU_WORD1_OP2: 11-bit ALU_INST; ALU_WORD1_OP3: 5-bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AluEnc {
    Op2,
    Op3,
}

/// Where an ALU instruction may sit in an instruction group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SlotRule {
    /// The class lacks the instruction.
    Absent,
    /// Any vector slot, or T on VLIW5.
    Any,
    /// Vector slots x, y, z, w only (never T).
    Vector,
    /// VLIW5 only: the transcendental slot T.
    Trans,
    /// Cayman transcendental: issued in slots x, y and z (and optionally w) of one group, each
    /// slot computing the same function of its own sources and writing its own channel.
    Replicated,
    /// The instruction fills all four vector slots of its group (reductions, Cayman MULLO_INT).
    AllFour,
    /// Slots x and y only (INTERP_X).
    Xy,
    /// Slots z and w only (INTERP_Z).
    Zw,
}

/// One ALU instruction row.
#[derive(Clone, Copy, Debug)]
pub struct AluInfo {
    pub op: AluOp,
    pub enc: AluEnc,
    pub opcode: [u16; 2],
    /// Sources read (0-3), in the order src0, src1, src2.
    pub srcs: u8,
    pub slots: [SlotRule; 2],
    /// The mnemonic LLVM 14's r600 printer uses.
    pub llvm: &'static str,
}

impl AluInfo {
    pub fn opcode(&self, class: ChipClass) -> Option<u16> {
        Some(self.opcode[class.index()]).filter(|&o| o != NA)
    }
    pub fn slot_rule(&self, class: ChipClass) -> SlotRule {
        self.slots[class.index()]
    }
}

/// Printed shape of a CF_WORD instruction (LLVM's asm strings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfSyntax {
    /// `NAME`
    Bare,
    /// `NAME @ADDR`
    Addr,
    /// `NAME @ADDR POP:n`
    AddrPop,
    /// `NAME COUNT @ADDR` (fetch/GDS clause; COUNT is the raw field, instructions - 1).
    Clause,
}

macro_rules! ident_enum {
    ($(#[$m:meta])* $name:ident { $($v:ident),* $(,)? }) => {
        $(#[$m])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($v),* }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// The ISA mnemonic (without the family prefix).
            pub fn name(self) -> &'static str {
                match self { $($name::$v => stringify!($v)),* }
            }
        }
    };
}

ident_enum!(
    /// A CF_WORD0/1 instruction (CF_INST of CF_WORD1).
    CfOp {
    NOP, TC, VC, GDS, LOOP_START, LOOP_END, LOOP_START_DX10, LOOP_START_NO_AL, LOOP_CONTINUE,
    LOOP_BREAK, JUMP, PUSH, ELSE, POP, CALL, CALL_FS, RETURN, EMIT_VERTEX, EMIT_CUT_VERTEX,
    CUT_VERTEX, KILL, WAIT_ACK, TC_ACK, VC_ACK, JUMPTABLE, GLOBAL_WAVE_SYNC, HALT, END,
    LDS_DEALLOC, PUSH_WQM, POP_WQM, ELSE_WQM, JUMP_ANY, REACTIVATE, REACTIVATE_WQM, INTERRUPT,
    INTERRUPT_AND_SLEEP, SET_PRIORITY,
});

ident_enum!(
    /// A CF_ALU_WORD0/1 clause instruction (4-bit CF_INST).
    CfAluOp {
    ALU, ALU_PUSH_BEFORE, ALU_POP_AFTER, ALU_POP2_AFTER, ALU_EXTENDED, ALU_CONTINUE, ALU_BREAK,
    ALU_REACTIVATE_BEFORE, ALU_VALID_PIXEL_MODE, ALU_ELSE_AFTER,
});

ident_enum!(
    /// A CF_ALLOC_EXPORT instruction.
    CfMemOp {
    MEM_STREAM0_BUF0, MEM_STREAM0_BUF1, MEM_STREAM0_BUF2, MEM_STREAM0_BUF3, MEM_STREAM1_BUF0,
    MEM_STREAM1_BUF1, MEM_STREAM1_BUF2, MEM_STREAM1_BUF3, MEM_STREAM2_BUF0, MEM_STREAM2_BUF1,
    MEM_STREAM2_BUF2, MEM_STREAM2_BUF3, MEM_STREAM3_BUF0, MEM_STREAM3_BUF1, MEM_STREAM3_BUF2,
    MEM_STREAM3_BUF3, MEM_WR_SCRATCH, MEM_RING, EXPORT, EXPORT_DONE, MEM_EXPORT, MEM_RAT,
    MEM_RAT_CACHELESS, MEM_RING1, MEM_RING2, MEM_RING3, MEM_EXPORT_COMBINED,
    MEM_RAT_COMBINED_CACHELESS, MEM_RAT_COMBINED,
});

ident_enum!(
    /// A RAT_INST code (CF_ALLOC_EXPORT_WORD0_RAT bits `[9:4]`).
    RatInst {
    NOP, STORE_TYPED, STORE_RAW, STORE_RAW_FDENORM, CMPXCHG_INT, CMPXCHG_FLT, CMPXCHG_FDENORM,
    ADD, SUB, RSUB, MIN_INT, MIN_UINT, MAX_INT, MAX_UINT, AND, OR, XOR, MSKOR, INC_UINT,
    DEC_UINT, STORE_DWORD, STORE_SHORT, STORE_BYTE, NOP_RTN, XCHG_RTN, XCHG_FDENORM_RTN,
    CMPXCHG_INT_RTN, CMPXCHG_FLT_RTN, CMPXCHG_FDENORM_RTN, ADD_RTN, SUB_RTN, RSUB_RTN,
    MIN_INT_RTN, MIN_UINT_RTN, MAX_INT_RTN, MAX_UINT_RTN, AND_RTN, OR_RTN, XOR_RTN, MSKOR_RTN,
    INC_UINT_RTN, DEC_UINT_RTN,
});

ident_enum!(
    /// A fetch-clause instruction: VTX (VC_INST), MEM (MEM_OP under VC_INST 2) or TEX.
    FetchOp {
    VTX_FETCH, VTX_SEMANTIC, VTX_GET_BUFFER_RESINFO, MEM_RD_SCRATCH, MEM_RD_SCATTER, MEM_GDS,
    MEM_TF_WRITE, TEX_LD, TEX_GET_TEXTURE_RESINFO, TEX_GET_NUMBER_OF_SAMPLES,
    TEX_GET_COMP_TEX_LOD, TEX_GET_GRADIENTS_H, TEX_GET_GRADIENTS_V, TEX_SET_TEXTURE_OFFSETS,
    TEX_KEEP_GRADIENTS, TEX_SET_GRADIENTS_H, TEX_SET_GRADIENTS_V, TEX_SAMPLE, TEX_SAMPLE_L,
    TEX_SAMPLE_LB, TEX_SAMPLE_LZ, TEX_SAMPLE_G, TEX_GATHER4, TEX_SAMPLE_G_LB, TEX_GATHER4_O,
    TEX_SAMPLE_C, TEX_SAMPLE_C_L, TEX_SAMPLE_C_LB, TEX_SAMPLE_C_LZ, TEX_SAMPLE_C_G,
    TEX_GATHER4_C, TEX_SAMPLE_C_G_LB, TEX_GATHER4_C_O,
});

ident_enum!(
    /// An LDS_OP / GDS_OP code.
    LdsOp {
    ADD, SUB, RSUB, INC, DEC, MIN_INT, MAX_INT, MIN_UINT, MAX_UINT, AND, OR, XOR, MSKOR, WRITE,
    WRITE_REL, WRITE2, CMP_STORE, CMP_STORE_SPF, BYTE_WRITE, SHORT_WRITE, ADD_RET, SUB_RET,
    RSUB_RET, INC_RET, DEC_RET, MIN_INT_RET, MAX_INT_RET, MIN_UINT_RET, MAX_UINT_RET, AND_RET,
    OR_RET, XOR_RET, MSKOR_RET, XCHG_RET, XCHG_REL_RET, XCHG2_RET, CMP_XCHG_RET,
    CMP_XCHG_SPF_RET, READ_RET, READ_REL_RET, READ2_RET, READWRITE_RET, BYTE_READ_RET,
    UBYTE_READ_RET, SHORT_READ_RET, USHORT_READ_RET, ATOMIC_ORDERED_ALLOC_RET,
});

#[derive(Clone, Copy, Debug)]
pub struct CfInfo {
    pub op: CfOp,
    pub opcode: [u16; 2],
    pub syntax: CfSyntax,
    /// Printed mnemonic (LLVM's where LLVM emits the instruction).
    pub text: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct CfAluInfo {
    pub op: CfAluOp,
    pub opcode: [u16; 2],
    pub text: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct CfMemInfo {
    pub op: CfMemOp,
    pub opcode: [u16; 2],
    /// WORD0 is CF_ALLOC_EXPORT_WORD0_RAT (RAT_ID, RAT_INST) rather than the plain form.
    pub rat: bool,
    /// WORD1 is CF_ALLOC_EXPORT_WORD1_SWIZ (EXPORT, EXPORT_DONE) rather than _BUF.
    pub swiz: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct RatInfo {
    pub op: RatInst,
    pub opcode: [u16; 2],
    /// The operation name LLVM prints after MEM_RAT* (see `mem.rs` on the atomics).
    pub text: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct FetchInfo {
    pub op: FetchOp,
    pub opcode: [u16; 2],
    pub text: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct LdsInfo {
    pub op: LdsOp,
    pub opcode: [u16; 2],
    /// Sources read; src0 is the address.
    pub srcs: u8,
    /// The op pushes a result onto LDS output queue A.
    pub ret: bool,
    pub text: &'static str,
}

macro_rules! lookups {
    ($table:expr, $info:ty, $id:ty, $by_op:ident, $by_code:ident) => {
        /// The row of an instruction (every identity has exactly one row).
        pub fn $by_op(op: $id) -> &'static $info {
            $table
                .iter()
                .find(|r| r.op == op)
                .expect("table invariant: one row per identity")
        }
        /// The row a class decodes `code` to.
        pub fn $by_code(class: ChipClass, code: u16) -> Option<&'static $info> {
            $table
                .iter()
                .find(|r| r.opcode[class.index()] == code && code != NA)
        }
    };
}

lookups!(cf::CF, CfInfo, CfOp, cf_info, cf_by_code);
lookups!(cf::CF_ALU, CfAluInfo, CfAluOp, cf_alu_info, cf_alu_by_code);
lookups!(mem::CF_MEM, CfMemInfo, CfMemOp, cf_mem_info, cf_mem_by_code);
lookups!(mem::RAT, RatInfo, RatInst, rat_info, rat_by_code);
lookups!(lds::LDS, LdsInfo, LdsOp, lds_info, lds_by_code);

/// The row of an ALU instruction (every [`AluOp`] has exactly one row).
pub fn alu_info(op: AluOp) -> &'static AluInfo {
    alu::ALU
        .iter()
        .find(|r| r.op == op)
        .expect("table invariant: one row per identity")
}

/// The ALU instruction a class decodes (encoding, opcode) to; Cayman also accepts the low
/// encodings of MUL_64 / FLT64_TO_FLT32 / FLT32_TO_FLT64 (see [`cayman_op2_alias`]).
pub fn alu_by_code(class: ChipClass, enc: AluEnc, code: u16) -> Option<&'static AluInfo> {
    let direct = alu::ALU
        .iter()
        .find(|r| r.enc == enc && r.opcode[class.index()] == code && code != NA);
    direct.or_else(|| match (class, enc) {
        (ChipClass::Cayman, AluEnc::Op2) => cayman_op2_alias(code).map(alu_info),
        _ => None,
    })
}

/// The op a Cayman OP2 alias opcode (27, 28, 29) stands for.
pub fn cayman_op2_alias(code: u16) -> Option<AluOp> {
    alu::CAYMAN_OP2_ALIASES
        .iter()
        .find(|a| a.0 == code)
        .map(|a| a.1)
}

/// Every ALU row.
pub fn alu_rows() -> &'static [AluInfo] {
    alu::ALU
}
pub fn cf_rows() -> &'static [CfInfo] {
    cf::CF
}
pub fn cf_alu_rows() -> &'static [CfAluInfo] {
    cf::CF_ALU
}
pub fn cf_mem_rows() -> &'static [CfMemInfo] {
    mem::CF_MEM
}
pub fn rat_rows() -> &'static [RatInfo] {
    mem::RAT
}
pub fn lds_rows() -> &'static [LdsInfo] {
    lds::LDS
}
pub fn vtx_rows() -> &'static [FetchInfo] {
    fetch::VTX
}
pub fn mem_rd_rows() -> &'static [FetchInfo] {
    fetch::MEM
}
pub fn tex_rows() -> &'static [FetchInfo] {
    fetch::TEX
}

/// Fetch rows by family and code.
pub fn vtx_by_code(class: ChipClass, code: u16) -> Option<&'static FetchInfo> {
    fetch::VTX.iter().find(|r| r.opcode[class.index()] == code)
}
pub fn mem_rd_by_code(class: ChipClass, code: u16) -> Option<&'static FetchInfo> {
    fetch::MEM.iter().find(|r| r.opcode[class.index()] == code)
}
pub fn tex_by_code(class: ChipClass, code: u16) -> Option<&'static FetchInfo> {
    fetch::TEX.iter().find(|r| r.opcode[class.index()] == code)
}
pub fn fetch_info(op: FetchOp) -> &'static FetchInfo {
    fetch::VTX
        .iter()
        .chain(fetch::MEM)
        .chain(fetch::TEX)
        .find(|r| r.op == op)
        .expect("table invariant: one row per identity")
}

/// The LDS_OP code of an LDS op (the same in both classes).
pub fn lds_code(op: LdsOp) -> u16 {
    lds_info(op).opcode[ChipClass::Cayman.index()]
}
