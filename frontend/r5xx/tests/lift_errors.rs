//! What the lifter refuses (the `lift` module doc's list), each with a one-line reason that
//! names the slot, and what it accepts that looks odd (a jump address never taken, a
//! reserved value outside the program range).

mod lift_common;

use lift_common::*;
use wavejit_r5xx::inst::{Inst, Src};
use wavejit_r5xx::lift::{lift, LiftErrorKind};
use wavejit_r5xx::table::{AOp, AlphaOp, BOp, FcOp, Omod, PredSel, RgbOp, TexOp};

fn refused(m: &Machine) -> wavejit_r5xx::lift::LiftError {
    lift(&m.setup).expect_err("refused")
}

fn refuses(prog: Vec<Inst>, what: &str) {
    let m = Machine::new(prog);
    let e = refused(&m);
    let text = e.to_string();
    assert_eq!(e.kind, LiftErrorKind::Invalid, "{text}");
    assert!(text.contains(what), "{text}");
    assert!(text.starts_with("slot "), "{text}");
    assert!(!text.contains('\n'), "{text}");
}

#[test]
fn invalid_alu_slots() {
    refuses(vec![alu(RgbOp::Op6, AlphaOp::Mad).inst()], "RGB opcode 6");
    refuses(vec![alu(RgbOp::Mad, AlphaOp::Op4).inst()], "alpha opcode 4");
    refuses(
        vec![alu(RgbOp::Mad, AlphaOp::Mad)
            .omod(Omod::Disable, Omod::Mul1)
            .inst()],
        "OMOD_DISABLED",
    );
    refuses(vec![alu(RgbOp::Sop, AlphaOp::Mad).inst()], "RGB_SOP");
    refuses(vec![alu(RgbOp::Mad, AlphaOp::Dp).inst()], "ALPHA_DP");
    refuses(
        vec![alu(RgbOp::Mad, AlphaOp::Mad)
            .srcs([Src::Inline { bits: 3, rel: true }, t(1), t(1)])
            .inst()],
        "inline constant",
    );
    refuses(
        vec![alu(RgbOp::Mad, AlphaOp::Mad)
            .rgb_in(0, 0, "r_b", wavejit_r5xx::table::Modifier::Nop)
            .inst()],
        "swizzle 7",
    );
    refuses(
        vec![set(1, 1.0)
            .pred((PredSel::Sel6, false), (PredSel::None, false))
            .inst()],
        "predicate select 6",
    );
    refuses(vec![mov(1, k(4), 7, true).inst()], "set_constf_fmt");
}

#[test]
fn an_unread_swizzle_7_is_accepted() {
    // FRC reads input A only: B's swizzle 7 is never read.
    let slot = alu(RgbOp::Frc, AlphaOp::Frc)
        .srcs([t(1), t(1), t(1)])
        .rgb_in(1, 0, "___", wavejit_r5xx::table::Modifier::Nop);
    Machine::new(vec![slot.inst()]).go();
}

#[test]
fn invalid_tex_and_fc_slots() {
    refuses(
        vec![tex(TexOp::Op7, 0, 1, "rgba", 1, "rgba").inst()],
        "TEX opcode 7",
    );
    refuses(
        vec![fc(FcOp::Jump, 0xff, false, 1)
            .stacks(AOp::Aop3, BOp::None, BOp::None, 0, false)
            .inst()],
        "A_OP 3",
    );
    refuses(
        vec![fc(FcOp::Jump, 0xff, false, 1)
            .stacks(AOp::None, BOp::Bop3, BOp::None, 0, false)
            .inst()],
        "B_OP 3",
    );
    refuses(
        vec![fc(FcOp::Jump, 0x33, false, 1)
            .pred(PredSel::Rgba, false)
            .inst()],
        "replicate",
    );
    refuses(vec![fc(FcOp::Loop, 0, false, 1).inst()], "set_consti_fmt");
    refuses(
        vec![fc(FcOp::Jump, 0x55, false, 1).inst()],
        "set_constb_fmt",
    );
}

#[test]
fn program_ranges_and_uncached_outputs() {
    let mut m = Machine::new(vec![set(1, 1.0).inst()]);
    m.setup.info.end = 1;
    assert!(refused(&m).to_string().contains("slots 0..=1 of 1"));
    m.setup.info.end = 0;
    m.setup.info.start = 1;
    assert!(refused(&m).to_string().starts_with("program: "));
    m.setup.info.start = 0;
    m.setup.info.uncached_outputs = true;
    let e = refused(&m);
    assert_eq!(e.kind, LiftErrorKind::Unsupported);
    assert!(e.to_string().contains("UMRT"));
}

#[test]
fn only_the_program_range_is_checked() {
    // A reserved opcode in slot 0 is outside a program of slot 1.
    let mut m = Machine::new(vec![
        alu(RgbOp::Op13, AlphaOp::Mad).inst(),
        set(1, 1.0).inst(),
    ]);
    m.setup.info.start = 1;
    assert_eq!(m.go().r(1, 0, 0), f(1.0));
    // A refusal names the slot and its byte offset (24 bytes a slot).
    let mut m = Machine::new(vec![
        set(1, 1.0).inst(),
        alu(RgbOp::Op13, AlphaOp::Mad).inst(),
    ]);
    m.setup.info.end = 1;
    let e = refused(&m);
    assert_eq!((e.pc, e.at.as_str()), (24, "slot 1"));
}
