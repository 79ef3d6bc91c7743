//! CF rows: the CF_WORD0/1 instructions and the CF_ALU_WORD0/1 clause instructions.
//!
//! Columns: identity, CF_INST [Evergreen, Cayman] (`NA` = absent), printed syntax.
//! Sources: Cayman = notes/hd6900_opcodes.tsv (classes CF and CF_ALU; seed 000 ch9
//! CF_WORD1.CF_INST, L7995-L8040, recovered per extraction issue 2). Evergreen = Mesa
//! `r600_isa.c` `cf_op_table` (Evergreen column): VC (2) and VC_ACK (28) exist only there;
//! END (32), LDS_DEALLOC and the WQM/REACTIVATE/INTERRUPT/SET_PRIORITY group only on Cayman.
//! Evergreen ends a program with the END_OF_PROGRAM bit instead of END (see `decode`).
//! CF_ALU 13/14: Evergreen ALU_CONTINUE/ALU_BREAK, Cayman ALU_REACTIVATE_BEFORE/
//! ALU_VALID_PIXEL_MODE (the Cayman CF_ALU_WORD1 table and Mesa's `r600_opcodes.h`; the ch8
//! text's Evergreen values are extraction issue 20).
//! The printed forms are LLVM 14's (R600Instructions.td, EvergreenInstructions.td,
//! CaymanInstructions.td: `TEX`, `VTX`, `END_LOOP`, `CONTINUE`, `CF_END`, `@addr`, `POP:n`);
//! instructions LLVM never emits print their ISA name in the same shape.
use super::CfSyntax::*;
use super::{CfAluInfo, CfInfo, NA};
use crate::tables::CfAluOp::*;
use crate::tables::CfOp::*;

const fn row(
    op: super::CfOp,
    opcode: [u16; 2],
    syntax: super::CfSyntax,
    text: &'static str,
) -> CfInfo {
    CfInfo {
        op,
        opcode,
        syntax,
        text,
    }
}

#[rustfmt::skip]
pub(super) static CF: &[CfInfo] = &[
    row(NOP, [0, 0], Bare, "NOP"),
    row(TC, [1, 1], Clause, "TEX"),
    row(VC, [2, NA], Clause, "VTX"),
    row(GDS, [3, 3], Clause, "GDS"),
    row(LOOP_START, [4, 4], Addr, "LOOP_START"),
    row(LOOP_END, [5, 5], Addr, "END_LOOP"),
    row(LOOP_START_DX10, [6, 6], Addr, "LOOP_START_DX10"),
    row(LOOP_START_NO_AL, [7, 7], Addr, "LOOP_START_NO_AL"),
    row(LOOP_CONTINUE, [8, 8], Addr, "CONTINUE"),
    row(LOOP_BREAK, [9, 9], Addr, "LOOP_BREAK"),
    row(JUMP, [10, 10], AddrPop, "JUMP"),
    row(PUSH, [11, 11], AddrPop, "PUSH"),
    row(ELSE, [13, 13], AddrPop, "ELSE"),
    row(POP, [14, 14], AddrPop, "POP"),
    row(CALL, [18, 18], Addr, "CALL"),
    row(CALL_FS, [19, 19], Bare, "CALL_FS"),
    row(RETURN, [20, 20], Bare, "RETURN"),
    row(EMIT_VERTEX, [21, 21], Bare, "EMIT_VERTEX"),
    row(EMIT_CUT_VERTEX, [22, 22], Bare, "EMIT_CUT_VERTEX"),
    row(CUT_VERTEX, [23, 23], Bare, "CUT_VERTEX"),
    row(KILL, [24, 24], Addr, "KILL"),
    row(WAIT_ACK, [26, 26], Addr, "WAIT_ACK"),
    row(TC_ACK, [27, 27], Clause, "TEX_ACK"),
    row(VC_ACK, [28, NA], Clause, "VTX_ACK"),
    row(JUMPTABLE, [29, 29], Addr, "JUMPTABLE"),
    row(GLOBAL_WAVE_SYNC, [30, 30], Bare, "GLOBAL_WAVE_SYNC"),
    row(HALT, [31, 31], Bare, "HALT"),
    row(END, [NA, 32], Bare, "CF_END"),
    row(LDS_DEALLOC, [NA, 33], Bare, "LDS_DEALLOC"),
    row(PUSH_WQM, [NA, 34], AddrPop, "PUSH_WQM"),
    row(POP_WQM, [NA, 35], AddrPop, "POP_WQM"),
    row(ELSE_WQM, [NA, 36], AddrPop, "ELSE_WQM"),
    row(JUMP_ANY, [NA, 37], AddrPop, "JUMP_ANY"),
    row(REACTIVATE, [NA, 38], Bare, "REACTIVATE"),
    row(REACTIVATE_WQM, [NA, 39], Bare, "REACTIVATE_WQM"),
    row(INTERRUPT, [NA, 40], Bare, "INTERRUPT"),
    row(INTERRUPT_AND_SLEEP, [NA, 41], Bare, "INTERRUPT_AND_SLEEP"),
    row(SET_PRIORITY, [NA, 42], Bare, "SET_PRIORITY"),
];

const fn alu(op: super::CfAluOp, opcode: [u16; 2], text: &'static str) -> CfAluInfo {
    CfAluInfo { op, opcode, text }
}

#[rustfmt::skip]
pub(super) static CF_ALU: &[CfAluInfo] = &[
    alu(ALU, [8, 8], "ALU"),
    alu(ALU_PUSH_BEFORE, [9, 9], "ALU_PUSH_BEFORE"),
    alu(ALU_POP_AFTER, [10, 10], "ALU_POP_AFTER"),
    alu(ALU_POP2_AFTER, [11, 11], "ALU_POP2_AFTER"),
    alu(ALU_EXTENDED, [12, 12], "ALU_EXTENDED"),
    alu(ALU_CONTINUE, [13, NA], "ALU_CONTINUE"),
    alu(ALU_BREAK, [14, NA], "ALU_BREAK"),
    alu(ALU_REACTIVATE_BEFORE, [NA, 13], "ALU_REACTIVATE_BEFORE"),
    alu(ALU_VALID_PIXEL_MODE, [NA, 14], "ALU_VALID_PIXEL_MODE"),
    alu(ALU_ELSE_AFTER, [15, 15], "ALU_ELSE_AFTER"),
];
