//! VOP2 rows (and their VOP3/SDWA/DPP forms).
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
pub(super) static VOP2: &[OpInfo] = &[
    row(Family::Vop2, V_CNDMASK_B32, [0, 0, 0, 0], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1), Slot(VccIn, 2)], B32, [B32, B32, None], READS_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_ADD_F32, [3, 3, 1, 1], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_SUB_F32, [4, 4, 2, 2], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_SUBREV_F32, [5, 5, 3, 3], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_LEGACY_F32, [7, 7, 4, 4], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_F32, [8, 8, 5, 5], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_I32_I24, [9, 9, 6, 6], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I32, [I24, I24, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_HI_I32_I24, [10, 10, 7, 7], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I32, [I24, I24, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_U32_U24, [11, 11, 8, 8], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U24, U24, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_HI_U32_U24, [12, 12, 9, 9], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U24, U24, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MIN_F32, [15, 15, 10, 10], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAX_F32, [16, 16, 11, 11], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MIN_I32, [17, 17, 12, 12], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I32, [I32, I32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAX_I32, [18, 18, 13, 13], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I32, [I32, I32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MIN_U32, [19, 19, 14, 14], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAX_U32, [20, 20, 15, 15], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_LSHRREV_B32, [22, 22, 16, 16], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [U32, B32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_ASHRREV_I32, [24, 24, 17, 17], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I32, [U32, I32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_LSHLREV_B32, [26, 26, 18, 18], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [U32, B32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_AND_B32, [27, 27, 19, 19], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, B32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_OR_B32, [28, 28, 20, 20], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, B32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_XOR_B32, [29, 29, 21, 21], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, B32, None], 0, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAC_F32, [31, 31, 22, 22], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], READS_DST, G6 | G7 | G8 | G9, G8, G8 | G9, &[]),
    row(Family::Vop2, V_MADMK_F32, [32, 32, 23, 23], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Literal, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, 0, 0, 0, &[]),
    row(Family::Vop2, V_MADAK_F32, [33, 33, 24, 24], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1), Slot(Literal, 1)], F32, [F32, F32, None], 0, 0, 0, 0, &[]),
    row(Family::Vop2, V_ADD_CO_U32, [37, 37, 25, 25], &[Slot(Vdst, 1), Slot(VccOut, 2), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], WRITES_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[(Gfx6, "v_add_i32"), (Gfx7, "v_add_i32"), (Gfx8, "v_add_u32")]),
    row(Family::Vop2, V_SUB_CO_U32, [38, 38, 26, 26], &[Slot(Vdst, 1), Slot(VccOut, 2), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], WRITES_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[(Gfx6, "v_sub_i32"), (Gfx7, "v_sub_i32"), (Gfx8, "v_sub_u32")]),
    row(Family::Vop2, V_SUBREV_CO_U32, [39, 39, 27, 27], &[Slot(Vdst, 1), Slot(VccOut, 2), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], WRITES_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[(Gfx6, "v_subrev_i32"), (Gfx7, "v_subrev_i32"), (Gfx8, "v_subrev_u32")]),
    row(Family::Vop2, V_ADDC_CO_U32, [40, 40, 28, 28], &[Slot(Vdst, 1), Slot(VccOut, 2), Slot(Src0, 1), Slot(Vsrc1, 1), Slot(VccIn, 2)], U32, [U32, U32, None], WRITES_VCC | READS_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[(Gfx6, "v_addc_u32"), (Gfx7, "v_addc_u32"), (Gfx8, "v_addc_u32")]),
    row(Family::Vop2, V_SUBB_CO_U32, [41, 41, 29, 29], &[Slot(Vdst, 1), Slot(VccOut, 2), Slot(Src0, 1), Slot(Vsrc1, 1), Slot(VccIn, 2)], U32, [U32, U32, None], WRITES_VCC | READS_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[(Gfx6, "v_subb_u32"), (Gfx7, "v_subb_u32"), (Gfx8, "v_subb_u32")]),
    row(Family::Vop2, V_SUBBREV_CO_U32, [42, 42, 30, 30], &[Slot(Vdst, 1), Slot(VccOut, 2), Slot(Src0, 1), Slot(Vsrc1, 1), Slot(VccIn, 2)], U32, [U32, U32, None], WRITES_VCC | READS_VCC, G6 | G7 | G8 | G9, G8 | G9, G8 | G9, &[(Gfx6, "v_subbrev_u32"), (Gfx7, "v_subbrev_u32"), (Gfx8, "v_subbrev_u32")]),
    row(Family::Vop2, V_ADD_F16, [NA, NA, 31, 31], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_SUB_F16, [NA, NA, 32, 32], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_SUBREV_F16, [NA, NA, 33, 33], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_F16, [NA, NA, 34, 34], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAC_F16, [NA, NA, 35, 35], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], READS_DST, G8 | G9, G8, G8 | G9, &[]),
    row(Family::Vop2, V_MADMK_F16, [NA, NA, 36, 36], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Literal, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, 0, 0, 0, &[]),
    row(Family::Vop2, V_MADAK_F16, [NA, NA, 37, 37], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1), Slot(Literal, 1)], F16, [F16, F16, None], 0, 0, 0, 0, &[]),
    row(Family::Vop2, V_ADD_U16, [NA, NA, 38, 38], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U16, [U16, U16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_SUB_U16, [NA, NA, 39, 39], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U16, [U16, U16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_SUBREV_U16, [NA, NA, 40, 40], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U16, [U16, U16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MUL_LO_U16, [NA, NA, 41, 41], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U16, [U16, U16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_LSHLREV_B16, [NA, NA, 42, 42], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B16, [U16, B16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_LSHRREV_B16, [NA, NA, 43, 43], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B16, [U16, B16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_ASHRREV_I16, [NA, NA, 44, 44], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I16, [U16, I16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAX_F16, [NA, NA, 45, 45], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MIN_F16, [NA, NA, 46, 46], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, F16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAX_U16, [NA, NA, 47, 47], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U16, [U16, U16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MAX_I16, [NA, NA, 48, 48], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I16, [I16, I16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MIN_U16, [NA, NA, 49, 49], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U16, [U16, U16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_MIN_I16, [NA, NA, 50, 50], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I16, [I16, I16, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_LDEXP_F16, [NA, NA, 51, 51], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F16, [F16, I32, None], 0, G8 | G9, G8 | G9, G8 | G9, &[]),
    row(Family::Vop2, V_ADD_U32, [NA, NA, NA, 52], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], 0, G9, G9, G9, &[]),
    row(Family::Vop2, V_SUB_U32, [NA, NA, NA, 53], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], 0, G9, G9, G9, &[]),
    row(Family::Vop2, V_SUBREV_U32, [NA, NA, NA, 54], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [U32, U32, None], 0, G9, G9, G9, &[]),
    row(Family::Vop2, V_BCNT_U32_B32, [34, 34, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [B32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_BFM_B32, [30, 30, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [U32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_CVT_PK_I16_I32, [49, 49, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], Pk16, [I32, I32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_CVT_PK_U16_U32, [48, 48, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], Pk16, [U32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_CVT_PKACCUM_U8_F32, [44, 44, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [F32, U32, None], READS_DST, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_CVT_PKNORM_I16_F32, [45, 45, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], Pk16, [F32, F32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_CVT_PKNORM_U16_F32, [46, 46, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], Pk16, [F32, F32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_CVT_PKRTZ_F16_F32, [47, 47, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], Pk16, [F32, F32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_LDEXP_F32, [43, 43, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, I32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_MBCNT_HI_U32_B32, [36, 36, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [B32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_MBCNT_LO_U32_B32, [35, 35, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], U32, [B32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_ASHR_I32, [23, 23, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], I32, [I32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_LSHL_B32, [25, 25, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_LSHR_B32, [21, 21, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, U32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_MAC_LEGACY_F32, [6, 6, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], READS_DST, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_MAX_LEGACY_F32, [14, 14, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7, 0, 0, &[]),
    row(Family::Vop2, V_MIN_LEGACY_F32, [13, 13, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], F32, [F32, F32, None], 0, G6 | G7, 0, 0, &[]),
    // gfx6/7 v_readlane/v_writelane: the Vsrc1 field holds a scalar lane select. CLRX lists VOP3
    // opcodes 257/258 for them, but LLVM 14 has no `_e64` form ("e64 variant of this
    // instruction is not supported") and prints no `_e32` suffix, so the rows have no VOP3 form.
    row(Family::Vop2, V_READLANE_B32, [1, 1, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, U32, None], 0, 0, 0, 0, &[]),
    row(Family::Vop2, V_WRITELANE_B32, [2, 2, NA, NA], &[Slot(Vdst, 1), Slot(Src0, 1), Slot(Vsrc1, 1)], B32, [B32, U32, None], READS_DST, 0, 0, 0, &[]),
];
