//! Image (MIMG) rows and the MIMG register-count rules.
//!
//! Columns of `row` as in the other table files. Opcodes: LLVM 14's assembler for every
//! generation (`llvm-mc -show-encoding`, tahiti/bonaire/tonga/gfx900) and its disassembler for
//! gfx8/gfx9 (it cannot disassemble gfx6/gfx7). gfx6/gfx7 number the first four atomics one
//! lower than gfx8 (`image_atomic_swap` 15 vs 16) and have `image_atomic_rsub`,
//! `image_atomic_fcmpswap`, `image_atomic_fmin` and `image_atomic_fmax`, which gfx8 dropped.
//!
//! Slot widths are not the instruction's data size, which the `dmask`, `tfe` and `d16` bits
//! decide (see [`vdata_regs`]); they are the forms LLVM 14's gfx6-gfx9 disassembler decodes
//! before it resizes VDATA (AMDGPUDisassembler::convertMIMGInst):
//! - `Vdata`: the fallback width when no form of the computed width exists (1; 2 for the
//!   compare-and-swap atomics; 4 for gather4);
//! - `Addr`: the VADDR width LLVM 14 prints, which it never resizes on gfx6-gfx9 (the address
//!   size depends on the image dimension, which the instruction does not encode; LLVM prints
//!   the smallest form: one register per address component of a 1D, non-array access);
//! - `Srsrc`: 8 SGPRs (LLVM prints the full descriptor even with `r128`), `Ssamp`: 4 SGPRs,
//!   present only on the rows that take a sampler.
#[allow(unused_imports)]
use super::flags::*;
use super::Field::*;
use super::Ty::*;
#[allow(unused_imports)]
use super::{row, Family, OpInfo, Slot, G6, G7, G8, G9, NA};
use crate::inst::Gen;
#[allow(unused_imports)]
use crate::inst::Gen::*;
use crate::inst::Opcode::*;

/// True for rows whose `d16` bit (gfx8+) is defined: the plain loads and stores, samples and
/// gathers (LLVM 14 `BaseOpcode.HasD16`; its disassembler rejects the bit elsewhere).
pub fn has_d16(info: &OpInfo) -> bool {
    let n = info.opcode.name();
    matches!(
        n,
        "image_load" | "image_load_mip" | "image_store" | "image_store_mip"
    ) || n.starts_with("image_sample")
        || n.starts_with("image_gather4")
}

/// True for gather4 rows: they return four components whatever the dmask (which selects the
/// one channel gathered).
pub fn is_gather4(info: &OpInfo) -> bool {
    info.opcode.name().starts_with("image_gather4")
}

/// VDATA registers of a MIMG instruction as LLVM 14 prints them: one per `dmask` component
/// (at least one; four for gather4), halved rounding up for d16 on gfx9 (packed d16; gfx8
/// as tonga keeps one component per register), plus one for `tfe` (`lwe` adds none in LLVM
/// 14). Where the row has no form of that width (atomics come in the data width and twice
/// it; gather4 in 2, 4 and 5 registers; the rest in 1 to 5) LLVM keeps its decoded form, the
/// row's `Vdata` slot width.
pub fn vdata_regs(info: &OpInfo, gen: Gen, dmask: u8, tfe: bool, d16: bool) -> u8 {
    let base = info.width(Vdata).unwrap_or(1);
    let mut n = if is_gather4(info) {
        4
    } else {
        (dmask.count_ones() as u8).max(1)
    };
    if d16 && gen == Gen::Gfx9 {
        n = n.div_ceil(2);
    }
    n += tfe as u8;
    let exists = if info.has(ATOMIC) {
        n == base || n == 2 * base
    } else if is_gather4(info) {
        matches!(n, 2 | 4 | 5)
    } else {
        (1..=5).contains(&n)
    };
    if exists {
        n
    } else {
        base
    }
}

#[rustfmt::skip]
pub(super) static MIMG: &[OpInfo] = &[
    row(Family::Mimg, IMAGE_LOAD, [0, 0, 0, 0], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_LOAD_MIP, [1, 1, 1, 1], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_LOAD_PCK, [2, 2, 2, 2], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_LOAD_PCK_SGN, [3, 3, 3, 3], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_LOAD_MIP_PCK, [4, 4, 4, 4], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_LOAD_MIP_PCK_SGN, [5, 5, 5, 5], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_STORE, [8, 8, 8, 8], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_STORE_MIP, [9, 9, 9, 9], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_STORE_PCK, [10, 10, 10, 10], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_STORE_MIP_PCK, [11, 11, 11, 11], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], STORE, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GET_RESINFO, [14, 14, 14, 14], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_SWAP, [15, 15, 16, 16], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_CMPSWAP, [16, 16, 17, 17], &[Slot(Vdata, 2), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_ADD, [17, 17, 18, 18], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_SUB, [18, 18, 19, 19], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_SMIN, [20, 20, 20, 20], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_UMIN, [21, 21, 21, 21], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_SMAX, [22, 22, 22, 22], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_UMAX, [23, 23, 23, 23], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_AND, [24, 24, 24, 24], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_OR, [25, 25, 25, 25], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_XOR, [26, 26, 26, 26], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_INC, [27, 27, 27, 27], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_DEC, [28, 28, 28, 28], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE, [32, 32, 32, 32], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_CL, [33, 33, 33, 33], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_D, [34, 34, 34, 34], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_D_CL, [35, 35, 35, 35], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_L, [36, 36, 36, 36], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_B, [37, 37, 37, 37], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_B_CL, [38, 38, 38, 38], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_LZ, [39, 39, 39, 39], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C, [40, 40, 40, 40], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_CL, [41, 41, 41, 41], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_D, [42, 42, 42, 42], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_D_CL, [43, 43, 43, 43], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_L, [44, 44, 44, 44], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_B, [45, 45, 45, 45], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_B_CL, [46, 46, 46, 46], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_LZ, [47, 47, 47, 47], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_O, [48, 48, 48, 48], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_CL_O, [49, 49, 49, 49], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_D_O, [50, 50, 50, 50], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_D_CL_O, [51, 51, 51, 51], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_L_O, [52, 52, 52, 52], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_B_O, [53, 53, 53, 53], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_B_CL_O, [54, 54, 54, 54], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_LZ_O, [55, 55, 55, 55], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_O, [56, 56, 56, 56], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_CL_O, [57, 57, 57, 57], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_D_O, [58, 58, 58, 58], &[Slot(Vdata, 1), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_D_CL_O, [59, 59, 59, 59], &[Slot(Vdata, 1), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_L_O, [60, 60, 60, 60], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_B_O, [61, 61, 61, 61], &[Slot(Vdata, 1), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_B_CL_O, [62, 62, 62, 62], &[Slot(Vdata, 1), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_LZ_O, [63, 63, 63, 63], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4, [64, 64, 64, 64], &[Slot(Vdata, 4), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_CL, [65, 65, 65, 65], &[Slot(Vdata, 4), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_L, [68, 68, 68, 68], &[Slot(Vdata, 4), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_B, [69, 69, 69, 69], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_B_CL, [70, 70, 70, 70], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_LZ, [71, 71, 71, 71], &[Slot(Vdata, 4), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C, [72, 72, 72, 72], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_CL, [73, 73, 73, 73], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_L, [76, 76, 76, 76], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_B, [77, 77, 77, 77], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_B_CL, [78, 78, 78, 78], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_LZ, [79, 79, 79, 79], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_O, [80, 80, 80, 80], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_CL_O, [81, 81, 81, 81], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_L_O, [84, 84, 84, 84], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_B_O, [85, 85, 85, 85], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_B_CL_O, [86, 86, 86, 86], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_LZ_O, [87, 87, 87, 87], &[Slot(Vdata, 4), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_O, [88, 88, 88, 88], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_CL_O, [89, 89, 89, 89], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_L_O, [92, 92, 92, 92], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_B_O, [93, 93, 93, 93], &[Slot(Vdata, 4), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_B_CL_O, [94, 94, 94, 94], &[Slot(Vdata, 4), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GATHER4_C_LZ_O, [95, 95, 95, 95], &[Slot(Vdata, 4), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_GET_LOD, [96, 96, 96, 96], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_CD, [104, 104, 104, 104], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_CD_CL, [105, 105, 105, 105], &[Slot(Vdata, 1), Slot(Addr, 2), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_CD, [106, 106, 106, 106], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_CD_CL, [107, 107, 107, 107], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_CD_O, [108, 108, 108, 108], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_CD_CL_O, [109, 109, 109, 109], &[Slot(Vdata, 1), Slot(Addr, 3), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_CD_O, [110, 110, 110, 110], &[Slot(Vdata, 1), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_SAMPLE_C_CD_CL_O, [111, 111, 111, 111], &[Slot(Vdata, 1), Slot(Addr, 4), Slot(Srsrc, 8), Slot(Ssamp, 4)], None, [None, None, None], LOAD, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_RSUB, [19, 19, NA, NA], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_FCMPSWAP, [29, 29, NA, NA], &[Slot(Vdata, 2), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_FMIN, [30, 30, NA, NA], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
    row(Family::Mimg, IMAGE_ATOMIC_FMAX, [31, 31, NA, NA], &[Slot(Vdata, 1), Slot(Addr, 1), Slot(Srsrc, 8)], None, [None, None, None], ATOMIC, 0, 0, 0, &[]),
];
