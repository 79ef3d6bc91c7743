//! R5xx programs written in the assembler syntax (tests/programs/r5xx/NAME.s) with their CTM
//! command streams (NAME.ctm), run by `wavejit ctm` on both engines, in text and binary
//! form, against host models of what they compute (the harness: tests/r5xx_programs/mod.rs;
//! the models: tests/r5xx_programs/models*.rs). Expected values come from the host: the
//! seed's rules restated in tests/r5xx_programs/{float,mc,stream}.rs, never from the lifter.

mod cli_util;
#[path = "r5xx_programs/models.rs"]
mod models;
#[path = "r5xx_programs/models_flow.rs"]
mod models_flow;
#[path = "r5xx_programs/mod.rs"]
mod r5xx;
mod r5xx_util;

/// out = a * b + c and two more outputs over a domain that is no multiple of the 16x4 SIMD
/// group at a nonzero origin; float constants; scaled and unscaled reads; the perf counters.
#[test]
fn elementwise() {
    models::elementwise();
}

/// A matrix multiply: LOOP/ENDLOOP on an integer constant, aL-relative float constants as the
/// coordinates of the TEX reads; an iteration count of 0.
#[test]
fn matrix_multiply() {
    models_flow::matmul();
}

/// Mandelbrot: an escape-time loop left by BREAKLOOP on the ALU result; the iteration count.
#[test]
fn escape_time() {
    models_flow::mandelbrot();
}

/// Nested loops: REP around LOOP, BREAK and CONTINUE inside IF blocks (B_POP_CNT 1) where
/// the processors of a group leave at different iterations; aL-relative temporary writes;
/// an output written one channel per slot.
#[test]
fn loops() {
    models_flow::loops();
}

/// Nested IFs on the ALU result and a predicate closed by one merged ENDIF (B_POP_CNT 3),
/// IF/ELSE/ENDIF on the ALU result, in partial flow-control mode.
#[test]
fn branches() {
    models_flow::branches();
}

/// Conditional execution (at the PE) and conditional output (at the DPP) with each of the 8
/// tests, the conditional write mask, set_cond_val and W-exported values; predicated writes.
#[test]
fn conditional() {
    models_flow::cond();
}

/// TILED inputs and outputs of every bytes-per-element with pitches that are no multiple of
/// 32 / bpe, and 2x2 superfine inputs, linear and tiled.
#[test]
fn tiled() {
    models::tiled();
}

/// Every data format on input and output with the conversions; set_out_mask.
#[test]
fn formats() {
    models::formats();
}

/// CALL/RET (nested, conditional), IF/ELSE/ENDIF on a predicate, IF on boolean constants.
#[test]
fn subroutine() {
    models_flow::subroutine();
}

/// MDH/MDV over quads with helpers at the domain's edges, TEXKILL, TEX DXDY.
#[test]
fn derivatives() {
    models::derivatives();
}

#[test]
fn every_program_assembles_and_loads() {
    r5xx::assemble::assemble_all();
}
