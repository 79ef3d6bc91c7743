//! Scalar memory rows: SMRD (gfx6/7) and SMEM (gfx8/9).
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
use super::{Family, OpInfo, Slot, G6, G7, G8, G9, NA};
#[allow(unused_imports)]
use crate::inst::Gen::*;
use crate::inst::Opcode::*;

#[rustfmt::skip]
pub(super) static SMRD: &[OpInfo] = &[
    row(Family::Smrd, S_BUFFER_LOAD_DWORD, [8, 8, NA, NA], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_BUFFER_LOAD_DWORDX16, [12, 12, NA, NA], &[Slot(Sdata, 16), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_BUFFER_LOAD_DWORDX2, [9, 9, NA, NA], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_BUFFER_LOAD_DWORDX4, [10, 10, NA, NA], &[Slot(Sdata, 4), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_BUFFER_LOAD_DWORDX8, [11, 11, NA, NA], &[Slot(Sdata, 8), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_DCACHE_INV, [31, 31, NA, NA], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smrd, S_LOAD_DWORD, [0, 0, NA, NA], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_LOAD_DWORDX16, [4, 4, NA, NA], &[Slot(Sdata, 16), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_LOAD_DWORDX2, [1, 1, NA, NA], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_LOAD_DWORDX4, [2, 2, NA, NA], &[Slot(Sdata, 4), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_LOAD_DWORDX8, [3, 3, NA, NA], &[Slot(Sdata, 8), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smrd, S_MEMTIME, [30, 30, NA, NA], &[Slot(Sdata, 2)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smrd, S_DCACHE_INV_VOL, [NA, 29, NA, NA], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
];

#[rustfmt::skip]
pub(super) static SMEM: &[OpInfo] = &[
    row(Family::Smem, S_LOAD_DWORD, [NA, NA, 0, 0], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_LOAD_DWORDX2, [NA, NA, 1, 1], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_LOAD_DWORDX4, [NA, NA, 2, 2], &[Slot(Sdata, 4), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_LOAD_DWORDX8, [NA, NA, 3, 3], &[Slot(Sdata, 8), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_LOAD_DWORDX16, [NA, NA, 4, 4], &[Slot(Sdata, 16), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_LOAD_DWORD, [NA, NA, 8, 8], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_LOAD_DWORDX2, [NA, NA, 9, 9], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_LOAD_DWORDX4, [NA, NA, 10, 10], &[Slot(Sdata, 4), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_LOAD_DWORDX8, [NA, NA, 11, 11], &[Slot(Sdata, 8), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_LOAD_DWORDX16, [NA, NA, 12, 12], &[Slot(Sdata, 16), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_STORE_DWORD, [NA, NA, 16, 16], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_STORE_DWORDX2, [NA, NA, 17, 17], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_STORE_DWORDX4, [NA, NA, 18, 18], &[Slot(Sdata, 4), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_STORE_DWORD, [NA, NA, 24, 24], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_STORE_DWORDX2, [NA, NA, 25, 25], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_STORE_DWORDX4, [NA, NA, 26, 26], &[Slot(Sdata, 4), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_ATC_PROBE, [NA, NA, 38, 38], &[Slot(SdataImm, 0), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_ATC_PROBE_BUFFER, [NA, NA, 39, 39], &[Slot(SdataImm, 0), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_DCACHE_INV, [NA, NA, 32, 32], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_DCACHE_WB, [NA, NA, 33, 33], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_DCACHE_INV_VOL, [NA, NA, 34, 34], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_DCACHE_WB_VOL, [NA, NA, 35, 35], &[], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_MEMTIME, [NA, NA, 36, 36], &[Slot(Sdata, 2)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_MEMREALTIME, [NA, NA, 37, 37], &[Slot(Sdata, 2)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_SCRATCH_LOAD_DWORD, [NA, NA, NA, 5], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_SCRATCH_LOAD_DWORDX2, [NA, NA, NA, 6], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_SCRATCH_LOAD_DWORDX4, [NA, NA, NA, 7], &[Slot(Sdata, 4), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Smem, S_SCRATCH_STORE_DWORD, [NA, NA, NA, 21], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_SCRATCH_STORE_DWORDX2, [NA, NA, NA, 22], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_SCRATCH_STORE_DWORDX4, [NA, NA, NA, 23], &[Slot(Sdata, 4), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Smem, S_DCACHE_DISCARD, [NA, NA, NA, 40], &[Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_DCACHE_DISCARD_X2, [NA, NA, NA, 41], &[Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], 0, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SWAP, [NA, NA, NA, 64], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_CMPSWAP, [NA, NA, NA, 65], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_ADD, [NA, NA, NA, 66], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SUB, [NA, NA, NA, 67], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SMIN, [NA, NA, NA, 68], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_UMIN, [NA, NA, NA, 69], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SMAX, [NA, NA, NA, 70], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_UMAX, [NA, NA, NA, 71], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_AND, [NA, NA, NA, 72], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_OR, [NA, NA, NA, 73], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_XOR, [NA, NA, NA, 74], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_INC, [NA, NA, NA, 75], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_DEC, [NA, NA, NA, 76], &[Slot(Sdata, 1), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SWAP_X2, [NA, NA, NA, 96], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_CMPSWAP_X2, [NA, NA, NA, 97], &[Slot(Sdata, 4), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_ADD_X2, [NA, NA, NA, 98], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SUB_X2, [NA, NA, NA, 99], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SMIN_X2, [NA, NA, NA, 100], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_UMIN_X2, [NA, NA, NA, 101], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_SMAX_X2, [NA, NA, NA, 102], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_UMAX_X2, [NA, NA, NA, 103], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_AND_X2, [NA, NA, NA, 104], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_OR_X2, [NA, NA, NA, 105], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_XOR_X2, [NA, NA, NA, 106], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_INC_X2, [NA, NA, NA, 107], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_BUFFER_ATOMIC_DEC_X2, [NA, NA, NA, 108], &[Slot(Sdata, 2), Slot(Sbase, 4), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SWAP, [NA, NA, NA, 128], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_CMPSWAP, [NA, NA, NA, 129], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_ADD, [NA, NA, NA, 130], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SUB, [NA, NA, NA, 131], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SMIN, [NA, NA, NA, 132], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_UMIN, [NA, NA, NA, 133], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SMAX, [NA, NA, NA, 134], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_UMAX, [NA, NA, NA, 135], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_AND, [NA, NA, NA, 136], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_OR, [NA, NA, NA, 137], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_XOR, [NA, NA, NA, 138], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_INC, [NA, NA, NA, 139], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_DEC, [NA, NA, NA, 140], &[Slot(Sdata, 1), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SWAP_X2, [NA, NA, NA, 160], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_CMPSWAP_X2, [NA, NA, NA, 161], &[Slot(Sdata, 4), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_ADD_X2, [NA, NA, NA, 162], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SUB_X2, [NA, NA, NA, 163], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SMIN_X2, [NA, NA, NA, 164], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_UMIN_X2, [NA, NA, NA, 165], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_SMAX_X2, [NA, NA, NA, 166], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_UMAX_X2, [NA, NA, NA, 167], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_AND_X2, [NA, NA, NA, 168], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_OR_X2, [NA, NA, NA, 169], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_XOR_X2, [NA, NA, NA, 170], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_INC_X2, [NA, NA, NA, 171], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Smem, S_ATOMIC_DEC_X2, [NA, NA, NA, 172], &[Slot(Sdata, 2), Slot(Sbase, 2), Slot(Soff, 0)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
];

#[allow(clippy::too_many_arguments)]
const fn row(
    family: Family,
    opcode: crate::inst::Opcode,
    op: [u16; 4],
    slots: &'static [Slot],
    dst_ty: super::Ty,
    src_ty: [super::Ty; 3],
    flags: u16,
    vop3: u8,
    sdwa: u8,
    dpp: u8,
    renamed: &'static [(crate::inst::Gen, &'static str)],
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
