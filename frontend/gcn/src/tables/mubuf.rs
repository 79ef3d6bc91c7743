//! Untyped (MUBUF) and typed (MTBUF) buffer rows.
//!
//! Columns of `row`: opcode identity, opcodes [gfx6, gfx7, gfx8, gfx9] (`NA` = absent),
//! operand slots in assembler order, dst type, src types, flags, and for VOP1/VOP2/VOPC the
//! generation masks of the VOP3, SDWA and DPP forms, then per-generation renames.
//! Source: LLVM 14 AMDGPU (llvm-mc encodings and disassembly), cross-checked with CLRX docs.
#[allow(unused_imports)]
use super::flags::*;
use super::Field::*;
use super::Ty::*;
#[allow(unused_imports)]
use super::{row, Family, OpInfo, Slot, G6, G7, G8, G9, NA};
#[allow(unused_imports)]
use crate::inst::Gen::*;
use crate::inst::Opcode::*;

#[rustfmt::skip]
pub(super) static MUBUF: &[OpInfo] = &[
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_X, [0, 0, 0, 0], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_XY, [1, 1, 1, 1], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_XYZ, [2, 2, 2, 2], &[Slot(Vdata, 3), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_XYZW, [3, 3, 3, 3], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_X, [4, 4, 4, 4], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_XY, [5, 5, 5, 5], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_XYZ, [6, 6, 6, 6], &[Slot(Vdata, 3), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_XYZW, [7, 7, 7, 7], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_D16_X, [NA, NA, 8, 8], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_D16_XY, [NA, NA, 9, 9], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_D16_XYZ, [NA, NA, 10, 10], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_D16_XYZW, [NA, NA, 11, 11], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_D16_X, [NA, NA, 12, 12], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_D16_XY, [NA, NA, 13, 13], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_D16_XYZ, [NA, NA, 14, 14], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_D16_XYZW, [NA, NA, 15, 15], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_UBYTE, [8, 8, 16, 16], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_SBYTE, [9, 9, 17, 17], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_USHORT, [10, 10, 18, 18], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_SSHORT, [11, 11, 19, 19], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_DWORD, [12, 12, 20, 20], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_DWORDX2, [13, 13, 21, 21], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_DWORDX3, [15, 15, 22, 22], &[Slot(Vdata, 3), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_DWORDX4, [14, 14, 23, 23], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_BYTE, [24, 24, 24, 24], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_SHORT, [26, 26, 26, 26], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_DWORD, [28, 28, 28, 28], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_DWORDX2, [29, 29, 29, 29], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_DWORDX3, [31, 31, 30, 30], &[Slot(Vdata, 3), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_DWORDX4, [30, 30, 31, 31], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SWAP, [48, 48, 64, 64], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_CMPSWAP, [49, 49, 65, 65], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_ADD, [50, 50, 66, 66], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SUB, [51, 51, 67, 67], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SMIN, [53, 53, 68, 68], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_UMIN, [54, 54, 69, 69], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SMAX, [55, 55, 70, 70], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_UMAX, [56, 56, 71, 71], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_AND, [57, 57, 72, 72], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_OR, [58, 58, 73, 73], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_XOR, [59, 59, 74, 74], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_INC, [60, 60, 75, 75], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_DEC, [61, 61, 76, 76], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SWAP_X2, [80, 80, 96, 96], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_CMPSWAP_X2, [81, 81, 97, 97], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_ADD_X2, [82, 82, 98, 98], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SUB_X2, [83, 83, 99, 99], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SMIN_X2, [85, 85, 100, 100], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_UMIN_X2, [86, 86, 101, 101], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_SMAX_X2, [87, 87, 102, 102], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_UMAX_X2, [88, 88, 103, 103], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_AND_X2, [89, 89, 104, 104], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_OR_X2, [90, 90, 105, 105], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_XOR_X2, [91, 91, 106, 106], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_INC_X2, [92, 92, 107, 107], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_DEC_X2, [93, 93, 108, 108], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_WBINVL1, [113, 113, 62, 62], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_WBINVL1_VOL, [NA, 112, 63, 63], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_BYTE_D16_HI, [NA, NA, NA, 25], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_SHORT_D16_HI, [NA, NA, NA, 27], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_UBYTE_D16, [NA, NA, NA, 32], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_UBYTE_D16_HI, [NA, NA, NA, 33], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_SBYTE_D16, [NA, NA, NA, 34], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_SBYTE_D16_HI, [NA, NA, NA, 35], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_SHORT_D16, [NA, NA, NA, 36], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_SHORT_D16_HI, [NA, NA, NA, 37], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_LOAD_FORMAT_D16_HI_X, [NA, NA, NA, 38], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_STORE_FORMAT_D16_HI_X, [NA, NA, NA, 39], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_FCMPSWAP, [62, 62, NA, NA], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_FCMPSWAP_X2, [94, 94, NA, NA], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_FMAX, [64, 64, NA, NA], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_FMAX_X2, [96, 96, NA, NA], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_FMIN, [63, 63, NA, NA], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_ATOMIC_FMIN_X2, [95, 95, NA, NA], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mubuf, BUFFER_WBINVL1_SC, [112, NA, NA, NA], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
];

#[rustfmt::skip]
pub(super) static MTBUF: &[OpInfo] = &[
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_X, [0, 0, 0, 0], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_XY, [1, 1, 1, 1], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_XYZ, [2, 2, 2, 2], &[Slot(Vdata, 3), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_XYZW, [3, 3, 3, 3], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_X, [4, 4, 4, 4], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_XY, [5, 5, 5, 5], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_XYZ, [6, 6, 6, 6], &[Slot(Vdata, 3), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_XYZW, [7, 7, 7, 7], &[Slot(Vdata, 4), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_D16_X, [NA, NA, 8, 8], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_D16_XY, [NA, NA, 9, 9], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_D16_XYZ, [NA, NA, 10, 10], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_LOAD_FORMAT_D16_XYZW, [NA, NA, 11, 11], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_D16_X, [NA, NA, 12, 12], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_D16_XY, [NA, NA, 13, 13], &[Slot(Vdata, 1), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_D16_XYZ, [NA, NA, 14, 14], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mtbuf, TBUFFER_STORE_FORMAT_D16_XYZW, [NA, NA, 15, 15], &[Slot(Vdata, 2), Slot(Addr, 0), Slot(Srsrc, 4), Slot(Soffset, 1)], None, [None, None, None], STORE, 0, 0, 0, &[]),
];
