//! Parameter-interpolation rows (VINTRP), in their own family.
//!
//! The opcode column is the native VINTRP 2-bit opcode (gfx6-gfx9) and, on gfx8/gfx9, also
//! the VOP3 opcode minus 624 (CLRX GcnInstrsVop3.md: VINTRP instructions sit at VOP3 opcodes
//! 624-631 on GCN 1.2/1.4). The f16 rows exist only VOP3-encoded: their opcodes (4-7) do not
//! fit the 2-bit native field. `vop3` is the mask of generations with a VOP3 form.
//!
//! Slots are in LLVM 14's assembler order. `Src1` is the interpolation coordinate VGPR (I or
//! J: native bits 7:0, VOP3 src1), `Attr` the attribute/channel pair (native bits 15:8, VOP3
//! src0 with the `high` bit in src0 bit 8), `InterpParam` v_interp_mov's parameter selector
//! (p10/p20/p0), `Src2` the f16 rows' third source (VOP3 src2).
//! Source: LLVM 14 (llvm-mc encodings, VINTRPInstructions.td, VOP3Instructions.td),
//! cross-checked with CLRX GcnInstrsVintrp.md and seed 002 (`gcn_vop3.tsv`).
use super::flags::{READS_DST, READS_M0};
use super::Field::*;
use super::Ty::*;
use super::{Family, OpInfo, Slot, G8, G9, NA};
use crate::inst::Opcode::*;

const IJ: &[Slot] = &[Slot(Vdst, 1), Slot(Src1, 1), Slot(Attr, 0)];
const IJ_SRC2: &[Slot] = &[Slot(Vdst, 1), Slot(Src1, 1), Slot(Attr, 0), Slot(Src2, 1)];
const MOV: &[Slot] = &[Slot(Vdst, 1), Slot(InterpParam, 0), Slot(Attr, 0)];

/// VOP3 opcode of the VINTRP row with opcode 0 (gfx8/gfx9).
pub const VOP3_BASE: u16 = 624;

#[rustfmt::skip]
pub(super) static VINTRP: &[OpInfo] = &[
    row(V_INTERP_P1_F32, [0, 0, 0, 0], IJ, F32, [None, F32, None], READS_M0, G8 | G9),
    row(V_INTERP_P2_F32, [1, 1, 1, 1], IJ, F32, [None, F32, None], READS_M0 | READS_DST, G8 | G9),
    row(V_INTERP_MOV_F32, [2, 2, 2, 2], MOV, F32, [None, None, None], READS_M0, G8 | G9),
    row(V_INTERP_P1LL_F16, [NA, NA, 4, 4], IJ, F32, [None, F32, None], READS_M0, G8 | G9),
    row(V_INTERP_P1LV_F16, [NA, NA, 5, 5], IJ_SRC2, F32, [None, F32, F16], READS_M0, G8 | G9),
    row(V_INTERP_P2_F16, [NA, NA, 6, 7], IJ_SRC2, F16, [None, F32, F32], READS_M0, G8 | G9),
    row(V_INTERP_P2_LEGACY_F16, [NA, NA, NA, 6], IJ_SRC2, F16, [None, F32, F32], READS_M0, G8 | G9),
];

const fn row(
    opcode: crate::inst::Opcode,
    op: [u16; 4],
    slots: &'static [Slot],
    dst_ty: super::Ty,
    src_ty: [super::Ty; 3],
    flags: u16,
    vop3: u8,
) -> OpInfo {
    super::row(
        Family::Vintrp,
        opcode,
        op,
        slots,
        dst_ty,
        src_ty,
        flags,
        vop3,
        0,
        0,
        &[],
    )
}
