//! R5xx programs written in the assembler syntax (tests/programs/r5xx/NAME.s) with their CTM
//! command streams (NAME.ctm), run by `wavejit ctm` on both engines, in text and binary
//! form, against host models of what they compute (the harness: tests/r5xx_programs/mod.rs;
//! the models: tests/r5xx_programs/models*.rs). Expected values come from the host: the
//! seed's rules restated in tests/r5xx_programs/{float,mc,stream}.rs, never from the lifter.

mod cli_util;
#[path = "r5xx_programs/mod.rs"]
mod r5xx;
#[path = "r5xx_programs/models.rs"]
mod models;
#[path = "r5xx_programs/models_flow.rs"]
mod models_flow;

#[test]
fn elementwise() {
    models::elementwise();
}

#[test]
fn every_program_assembles_and_loads() {
    let names = r5xx::assemble_all();
    assert!(names.len() >= 9, "{names:?}");
}
