//! LDS_OP codes of ALU_WORD1_LDS_IDX_OP (also the GDS_OP codes of MEM_GDS_WORD1).
//!
//! Columns: identity, LDS_OP [Evergreen, Cayman], source count (address first), whether the op
//! returns a value through the output queue, printed name.
//! Sources: Cayman = notes/hd6900_opcodes.tsv (class LDS; the garbled ch9 LDS_OP list is
//! recovered from the clean GDS_OP list L9874-L9930, extraction issue 9). Evergreen = Mesa
//! `r600_isa.c` (LDS_* rows, Evergreen column: the same codes) and its source counts.
//! ATOMIC_ORDERED_ALLOC_RET (63) is GDS-only (TSV status note).
//! Printed names follow LLVM 14 (EvergreenInstructions.td): `LDS_WRXCHG_RET` for XCHG_RET,
//! `LDS_CMPST` for CMP_XCHG_RET (its 1A2D_RET class drops the suffix; this is what llc emits
//! for cmpxchg). LLVM spells CMP_STORE "LDS_CMPST" as well, which would not read back, so
//! CMP_STORE prints with its ISA name.
use super::LdsInfo;
use crate::tables::LdsOp::*;

const fn row(
    op: super::LdsOp,
    opcode: [u16; 2],
    srcs: u8,
    ret: bool,
    text: &'static str,
) -> LdsInfo {
    LdsInfo {
        op,
        opcode,
        srcs,
        ret,
        text,
    }
}

#[rustfmt::skip]
pub(super) static LDS: &[LdsInfo] = &[
    row(ADD, [0, 0], 2, false, "LDS_ADD"),
    row(SUB, [1, 1], 2, false, "LDS_SUB"),
    row(RSUB, [2, 2], 2, false, "LDS_RSUB"),
    row(INC, [3, 3], 2, false, "LDS_INC"),
    row(DEC, [4, 4], 2, false, "LDS_DEC"),
    row(MIN_INT, [5, 5], 2, false, "LDS_MIN_INT"),
    row(MAX_INT, [6, 6], 2, false, "LDS_MAX_INT"),
    row(MIN_UINT, [7, 7], 2, false, "LDS_MIN_UINT"),
    row(MAX_UINT, [8, 8], 2, false, "LDS_MAX_UINT"),
    row(AND, [9, 9], 2, false, "LDS_AND"),
    row(OR, [10, 10], 2, false, "LDS_OR"),
    row(XOR, [11, 11], 2, false, "LDS_XOR"),
    row(MSKOR, [12, 12], 3, false, "LDS_MSKOR"),
    row(WRITE, [13, 13], 2, false, "LDS_WRITE"),
    row(WRITE_REL, [14, 14], 3, false, "LDS_WRITE_REL"),
    row(WRITE2, [15, 15], 3, false, "LDS_WRITE2"),
    row(CMP_STORE, [16, 16], 3, false, "LDS_CMP_STORE"),
    row(CMP_STORE_SPF, [17, 17], 3, false, "LDS_CMP_STORE_SPF"),
    row(BYTE_WRITE, [18, 18], 2, false, "LDS_BYTE_WRITE"),
    row(SHORT_WRITE, [19, 19], 2, false, "LDS_SHORT_WRITE"),
    row(ADD_RET, [32, 32], 2, true, "LDS_ADD_RET"),
    row(SUB_RET, [33, 33], 2, true, "LDS_SUB_RET"),
    row(RSUB_RET, [34, 34], 2, true, "LDS_RSUB_RET"),
    row(INC_RET, [35, 35], 2, true, "LDS_INC_RET"),
    row(DEC_RET, [36, 36], 2, true, "LDS_DEC_RET"),
    row(MIN_INT_RET, [37, 37], 2, true, "LDS_MIN_INT_RET"),
    row(MAX_INT_RET, [38, 38], 2, true, "LDS_MAX_INT_RET"),
    row(MIN_UINT_RET, [39, 39], 2, true, "LDS_MIN_UINT_RET"),
    row(MAX_UINT_RET, [40, 40], 2, true, "LDS_MAX_UINT_RET"),
    row(AND_RET, [41, 41], 2, true, "LDS_AND_RET"),
    row(OR_RET, [42, 42], 2, true, "LDS_OR_RET"),
    row(XOR_RET, [43, 43], 2, true, "LDS_XOR_RET"),
    row(MSKOR_RET, [44, 44], 3, true, "LDS_MSKOR_RET"),
    row(XCHG_RET, [45, 45], 2, true, "LDS_WRXCHG_RET"),
    row(XCHG_REL_RET, [46, 46], 3, true, "LDS_XCHG_REL_RET"),
    row(XCHG2_RET, [47, 47], 3, true, "LDS_XCHG2_RET"),
    row(CMP_XCHG_RET, [48, 48], 3, true, "LDS_CMPST"),
    row(CMP_XCHG_SPF_RET, [49, 49], 3, true, "LDS_CMP_XCHG_SPF_RET"),
    row(READ_RET, [50, 50], 1, true, "LDS_READ_RET"),
    row(READ_REL_RET, [51, 51], 1, true, "LDS_READ_REL_RET"),
    row(READ2_RET, [52, 52], 2, true, "LDS_READ2_RET"),
    row(READWRITE_RET, [53, 53], 3, true, "LDS_READWRITE_RET"),
    row(BYTE_READ_RET, [54, 54], 1, true, "LDS_BYTE_READ_RET"),
    row(UBYTE_READ_RET, [55, 55], 1, true, "LDS_UBYTE_READ_RET"),
    row(SHORT_READ_RET, [56, 56], 1, true, "LDS_SHORT_READ_RET"),
    row(USHORT_READ_RET, [57, 57], 1, true, "LDS_USHORT_READ_RET"),
    row(ATOMIC_ORDERED_ALLOC_RET, [63, 63], 1, true, "LDS_ATOMIC_ORDERED_ALLOC_RET"),
];
