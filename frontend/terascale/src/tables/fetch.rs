//! Fetch-clause rows: VTX (VC_INST), TEX (TEX_INST) and memory-read/GDS (MEM_OP) codes.
//!
//! Sources: Cayman = notes/hd6900_opcodes.tsv (classes VTX, TEX, MEM; seed 000 9.3-9.6,
//! L9291-L9968, with the VC_INST and TEX_INST 29-31 numbers recovered per extraction issues
//! 10 and 12). Evergreen = Mesa `r600_isa.c` `fetch_op_table` (Evergreen column): the same
//! values for every instruction listed here. VC_INST 2 selects the MEM_RD / MEM_GDS encoding
//! (MEM_OP picks the operation), so it is not a VTX row.
use super::FetchInfo;
use crate::tables::FetchOp::*;

const fn row(op: super::FetchOp, opcode: [u16; 2], text: &'static str) -> FetchInfo {
    FetchInfo { op, opcode, text }
}

/// VC_INST values (VTX_WORD0 bits `[4:0]`) other than the MEM selector 2.
#[rustfmt::skip]
pub(super) static VTX: &[FetchInfo] = &[
    row(VTX_FETCH, [0, 0], "VFETCH"),
    row(VTX_SEMANTIC, [1, 1], "SEMFETCH"),
    row(VTX_GET_BUFFER_RESINFO, [14, 14], "GET_BUFFER_RESINFO"),
];

/// MEM_OP values (MEM_RD_WORD0 / MEM_GDS_WORD0 bits `[10:8]`, VC_INST = 2).
#[rustfmt::skip]
pub(super) static MEM: &[FetchInfo] = &[
    row(MEM_RD_SCRATCH, [0, 0], "MEM_RD_SCRATCH"),
    row(MEM_RD_SCATTER, [2, 2], "MEM_RD_SCATTER"),
    row(MEM_GDS, [4, 4], "MEM_GDS"),
    row(MEM_TF_WRITE, [5, 5], "MEM_TF_WRITE"),
];

/// TEX_INST values (TEX_WORD0 bits `[4:0]`).
#[rustfmt::skip]
pub(super) static TEX: &[FetchInfo] = &[
    row(TEX_LD, [3, 3], "TEX_LD"),
    row(TEX_GET_TEXTURE_RESINFO, [4, 4], "TEX_GET_TEXTURE_RESINFO"),
    row(TEX_GET_NUMBER_OF_SAMPLES, [5, 5], "TEX_GET_NUMBER_OF_SAMPLES"),
    row(TEX_GET_COMP_TEX_LOD, [6, 6], "TEX_GET_COMP_TEX_LOD"),
    row(TEX_GET_GRADIENTS_H, [7, 7], "TEX_GET_GRADIENTS_H"),
    row(TEX_GET_GRADIENTS_V, [8, 8], "TEX_GET_GRADIENTS_V"),
    row(TEX_SET_TEXTURE_OFFSETS, [9, 9], "TEX_SET_TEXTURE_OFFSETS"),
    row(TEX_KEEP_GRADIENTS, [10, 10], "TEX_KEEP_GRADIENTS"),
    row(TEX_SET_GRADIENTS_H, [11, 11], "TEX_SET_GRADIENTS_H"),
    row(TEX_SET_GRADIENTS_V, [12, 12], "TEX_SET_GRADIENTS_V"),
    row(TEX_SAMPLE, [16, 16], "TEX_SAMPLE"),
    row(TEX_SAMPLE_L, [17, 17], "TEX_SAMPLE_L"),
    row(TEX_SAMPLE_LB, [18, 18], "TEX_SAMPLE_LB"),
    row(TEX_SAMPLE_LZ, [19, 19], "TEX_SAMPLE_LZ"),
    row(TEX_SAMPLE_G, [20, 20], "TEX_SAMPLE_G"),
    row(TEX_GATHER4, [21, 21], "TEX_GATHER4"),
    row(TEX_SAMPLE_G_LB, [22, 22], "TEX_SAMPLE_G_LB"),
    row(TEX_GATHER4_O, [23, 23], "TEX_GATHER4_O"),
    row(TEX_SAMPLE_C, [24, 24], "TEX_SAMPLE_C"),
    row(TEX_SAMPLE_C_L, [25, 25], "TEX_SAMPLE_C_L"),
    row(TEX_SAMPLE_C_LB, [26, 26], "TEX_SAMPLE_C_LB"),
    row(TEX_SAMPLE_C_LZ, [27, 27], "TEX_SAMPLE_C_LZ"),
    row(TEX_SAMPLE_C_G, [28, 28], "TEX_SAMPLE_C_G"),
    row(TEX_GATHER4_C, [29, 29], "TEX_GATHER4_C"),
    row(TEX_SAMPLE_C_G_LB, [30, 30], "TEX_SAMPLE_C_G_LB"),
    row(TEX_GATHER4_C_O, [31, 31], "TEX_GATHER4_C_O"),
];
