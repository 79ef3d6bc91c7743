//! CF_ALLOC_EXPORT rows (exports, memory writes, RAT/UAV operations) and the RAT_INST codes.
//!
//! Sources: Cayman = notes/hd6900_opcodes.tsv (classes CF_MEM and RAT; seed 000
//! CF_ALLOC_EXPORT_WORD0_RAT L8221-L8325 and WORD1_BUF L8326-L8384). Evergreen = Mesa
//! `r600_isa.c` `cf_op_table` (Evergreen column; MEM_RAT_COMBINED 93 is Cayman-only, "not in
//! cayman isa doc" there) and, for the Evergreen-only RAT codes (STORE_RAW 2, *_FDENORM, MSKOR,
//! CMPXCHG_FLT), Multi2Sim's Evergreen disassembler table `evg_fmt_cf_alloc_export_rat_inst_map`
//! (0-19, 32-51), with STORE_RAW confirmed by LLVM EvergreenInstructions.td. STORE_DWORD/SHORT/BYTE (20-22) are Cayman's replacement of STORE_RAW
//! (hd6900_map.md §7). MSKOR (17) is listed as Evergreen-only there, but LLVM 14 emits it for
//! Cayman sub-dword global stores (RAT_MSKOR is defined for isEGorCayman), so Cayman decodes it.
//!
//! Printed names: LLVM prints `MEM_RAT`/`MEM_RAT_CACHELESS` followed by the RAT operation
//! (`STORE_RAW`, `STORE_DWORD`, `STORE_TYPED`, `MSKOR`, `ATOMIC_*`). LLVM 14's RAT_ATOMIC
//! multiclass (EvergreenInstructions.td) passes (op_ret, op_noret) swapped: the `ATOMIC_ADD`
//! it emits for a no-return atomic carries RAT_INST 39 (ADD_RTN), and its `ATOMIC_ADD_RTN`
//! would carry 7 (ADD); tests/vectors confirm the codes. The printed names follow LLVM so the
//! listings match; the identities keep the ISA's meaning.
use super::{CfMemInfo, RatInfo, NA};
use crate::tables::CfMemOp::*;
use crate::tables::RatInst::*;

const fn row(op: super::CfMemOp, opcode: [u16; 2], rat: bool, swiz: bool) -> CfMemInfo {
    CfMemInfo {
        op,
        opcode,
        rat,
        swiz,
    }
}

#[rustfmt::skip]
pub(super) static CF_MEM: &[CfMemInfo] = &[
    row(MEM_STREAM0_BUF0, [64, 64], false, false),
    row(MEM_STREAM0_BUF1, [65, 65], false, false),
    row(MEM_STREAM0_BUF2, [66, 66], false, false),
    row(MEM_STREAM0_BUF3, [67, 67], false, false),
    row(MEM_STREAM1_BUF0, [68, 68], false, false),
    row(MEM_STREAM1_BUF1, [69, 69], false, false),
    row(MEM_STREAM1_BUF2, [70, 70], false, false),
    row(MEM_STREAM1_BUF3, [71, 71], false, false),
    row(MEM_STREAM2_BUF0, [72, 72], false, false),
    row(MEM_STREAM2_BUF1, [73, 73], false, false),
    row(MEM_STREAM2_BUF2, [74, 74], false, false),
    row(MEM_STREAM2_BUF3, [75, 75], false, false),
    row(MEM_STREAM3_BUF0, [76, 76], false, false),
    row(MEM_STREAM3_BUF1, [77, 77], false, false),
    row(MEM_STREAM3_BUF2, [78, 78], false, false),
    row(MEM_STREAM3_BUF3, [79, 79], false, false),
    row(MEM_WR_SCRATCH, [80, 80], false, false),
    row(MEM_RING, [82, 82], false, false),
    row(EXPORT, [83, 83], false, true),
    row(EXPORT_DONE, [84, 84], false, true),
    row(MEM_EXPORT, [85, 85], false, false),
    row(MEM_RAT, [86, 86], true, false),
    row(MEM_RAT_CACHELESS, [87, 87], true, false),
    row(MEM_RING1, [88, 88], false, false),
    row(MEM_RING2, [89, 89], false, false),
    row(MEM_RING3, [90, 90], false, false),
    row(MEM_EXPORT_COMBINED, [91, 91], false, false),
    row(MEM_RAT_COMBINED_CACHELESS, [92, 92], true, false),
    row(MEM_RAT_COMBINED, [NA, 93], true, false),
];

const fn rat(op: super::RatInst, opcode: [u16; 2], text: &'static str) -> RatInfo {
    RatInfo { op, opcode, text }
}

#[rustfmt::skip]
pub(super) static RAT: &[RatInfo] = &[
    rat(NOP, [0, 0], "NOP"),
    rat(STORE_TYPED, [1, 1], "STORE_TYPED"),
    rat(STORE_RAW, [2, NA], "STORE_RAW"),
    rat(STORE_RAW_FDENORM, [3, NA], "STORE_RAW_FDENORM"),
    rat(CMPXCHG_INT, [4, 4], "ATOMIC_CMPXCHG_INT_RTN"),
    rat(CMPXCHG_FLT, [5, NA], "CMPXCHG_FLT"),
    rat(CMPXCHG_FDENORM, [6, NA], "CMPXCHG_FDENORM"),
    rat(ADD, [7, 7], "ATOMIC_ADD_RTN"),
    rat(SUB, [8, 8], "ATOMIC_SUB_RTN"),
    rat(RSUB, [9, 9], "ATOMIC_RSUB_RTN"),
    rat(MIN_INT, [10, 10], "ATOMIC_MIN_INT_RTN"),
    rat(MIN_UINT, [11, 11], "ATOMIC_MIN_UINT_RTN"),
    rat(MAX_INT, [12, 12], "ATOMIC_MAX_INT_RTN"),
    rat(MAX_UINT, [13, 13], "ATOMIC_MAX_UINT_RTN"),
    rat(AND, [14, 14], "ATOMIC_AND_RTN"),
    rat(OR, [15, 15], "ATOMIC_OR_RTN"),
    rat(XOR, [16, 16], "ATOMIC_XOR_RTN"),
    rat(MSKOR, [17, 17], "MSKOR"),
    rat(INC_UINT, [18, 18], "ATOMIC_INC_UINT_RTN"),
    rat(DEC_UINT, [19, 19], "ATOMIC_DEC_UINT_RTN"),
    rat(STORE_DWORD, [NA, 20], "STORE_DWORD"),
    rat(STORE_SHORT, [NA, 21], "STORE_SHORT"),
    rat(STORE_BYTE, [NA, 22], "STORE_BYTE"),
    rat(NOP_RTN, [32, 32], "NOP_RTN"),
    rat(XCHG_RTN, [34, 34], "ATOMIC_XCHG_INT"),
    rat(XCHG_FDENORM_RTN, [35, NA], "XCHG_FDENORM_RTN"),
    rat(CMPXCHG_INT_RTN, [36, 36], "ATOMIC_CMPXCHG_INT"),
    rat(CMPXCHG_FLT_RTN, [37, NA], "CMPXCHG_FLT_RTN"),
    rat(CMPXCHG_FDENORM_RTN, [38, NA], "CMPXCHG_FDENORM_RTN"),
    rat(ADD_RTN, [39, 39], "ATOMIC_ADD"),
    rat(SUB_RTN, [40, 40], "ATOMIC_SUB"),
    rat(RSUB_RTN, [41, 41], "ATOMIC_RSUB"),
    rat(MIN_INT_RTN, [42, 42], "ATOMIC_MIN_INT"),
    rat(MIN_UINT_RTN, [43, 43], "ATOMIC_MIN_UINT"),
    rat(MAX_INT_RTN, [44, 44], "ATOMIC_MAX_INT"),
    rat(MAX_UINT_RTN, [45, 45], "ATOMIC_MAX_UINT"),
    rat(AND_RTN, [46, 46], "ATOMIC_AND"),
    rat(OR_RTN, [47, 47], "ATOMIC_OR"),
    rat(XOR_RTN, [48, 48], "ATOMIC_XOR"),
    rat(MSKOR_RTN, [49, NA], "MSKOR_RTN"),
    rat(INC_UINT_RTN, [50, 50], "ATOMIC_INC_UINT"),
    rat(DEC_UINT_RTN, [51, 51], "ATOMIC_DEC_UINT"),
];
