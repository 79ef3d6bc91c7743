//! The R5xx differential campaign (interpreter vs JIT on random programs of every ALU op,
//! TEX op and flow-control form, over one 16x4 tile under a random memory-controller state:
//! input and output formats and tilings, partial domains, conditional output at the DPP and
//! conditional execution at the PE) through the one fuzz driver, and its minimiser and
//! reproducer. Campaigns count programs, never seconds.

mod fuzz_common;
use fuzz_common::{jit, jit_tier2, programs, scratch, second_opinion, FlipLane0, Reproducer};
use std::sync::Arc;
use wavejit::fuzz::{Campaign, Driver, FuzzIsa};
use wavejit::isa::r5xx::fuzz::{self, R5xxFuzz};
use wavejit_runtime::interp::Interpreter;

/// Programs of the campaign test (a few seconds in release).
const PROGRAMS: u64 = 120;

/// A fixed number of programs run, are counted and agree: every program lifts, none runs out
/// of fuel or faults (loops are bounded, every address is in GPU memory), and every form the
/// generator claims reaches both engines.
#[test]
fn campaign_counts_its_programs_and_finds_no_mismatch() {
    let out = scratch("r5xx-smoke");
    let report = Driver::new(R5xxFuzz)
        .run(
            &programs(0x5_0580, PROGRAMS, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    assert_eq!((report.programs, report.skipped), (PROGRAMS, 0), "{report}");
    assert!(report.unsupported.is_empty(), "{report}");
    assert_eq!((report.out_of_fuel, report.faulted), (0, 0), "{report}");
    assert_eq!(
        report.per_gen.get("r580"),
        Some(&(PROGRAMS / 2)),
        "{report}"
    );
    for form in [
        "alu mad",
        "alu dp3",
        "alu dp4",
        "alu d2a",
        "alu min",
        "alu max",
        "alu frc",
        "alu cnd",
        "alu cmp",
        "alu sop",
        "alu mdh",
        "alu mdv",
        "alu dp",
        "alu ex2",
        "alu ln2",
        "alu rcp",
        "alu rsq",
        "alu sin",
        "alu cos",
        "out mad",
        "tex ld",
        "tex texkill",
        "tex proj",
        "tex lodbias",
        "fc jump",
        "fc loop",
        "fc endloop",
        "fc rep",
        "fc endrep",
        "fc breakloop",
        "fc continue",
    ] {
        assert!(report.mix.contains_key(form), "no {form}: {report}");
    }
}

/// The same programs' cases differ in their launch state: conditional execution at the PE,
/// conditional output at the DPP and partial domains all occur, and the JIT at tier 2 agrees
/// with the interpreter on a share of them too.
#[test]
fn cases_cover_the_launch_states_and_tier2_agrees() {
    let cases: Vec<_> = (0..64).map(|k| fuzz::generate(0x5_0580 + k)).collect();
    use wavejit_r5xx::setup::{CondLoc, CondTest};
    assert!(cases.iter().any(|c| c.coverage.is_some()));
    assert!(cases
        .iter()
        .any(|c| c.setup.bindings.cond.loc == CondLoc::Dpp
            && c.setup.bindings.cond.test != CondTest::Always));
    assert!(cases.iter().any(|c| c.setup.bindings.cond.write));
    assert!(cases.iter().any(|c| (c.tiles.i0, c.tiles.j1) != (0, 3)));
    let tier2 = second_opinion(&R5xxFuzz, &R5xxFuzz.targets(), 0x5_0580, 12, &*jit_tier2());
    assert_eq!(tier2.runs, 12);
    assert!(tier2.differ.is_empty(), "tier 2: {:#?}", tier2.differ);
}

/// The planted bug: bit 0 of r1.x lane 0 flips after every block that writes it.
const FLIP_R1: FlipLane0 = FlipLane0 {
    name: "flip-r1",
    reg: |_| {
        let l = wavejit_r5xx::lift::R5xxLayout::new(2);
        l.temp(1, 0)
    },
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("r5xx-planted");
    let err = Driver::new(R5xxFuzz)
        .run(
            &programs(5, 60, &out),
            Arc::new(Interpreter),
            Arc::new(FLIP_R1),
        )
        .expect_err("the planted bug is found");
    assert!(err.contains("engines disagree"), "{err}");
    let r = Reproducer::only_one_in(&out);
    let slots = |s: &str| {
        s.lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_end().ends_with(':'))
            .count()
    };
    let (small, original) = (r.read("program.s"), r.read("original.s"));
    assert!(slots(&small) < slots(&original), "not minimised:\n{small}");
    assert!(small.contains("r1."), "the r1 write was removed:\n{small}");
    let state = r.state();
    assert_eq!(
        r.name(),
        format!(
            "{}-seed{}",
            state["target"].as_str().unwrap(),
            state["seed"]
        )
    );
    // The diff names state cells: r1.x is cell 4 of the `r` file.
    assert!(
        r.read("diff.txt").contains("r4 lane 0"),
        "{}",
        r.read("diff.txt")
    );
    // The listing reassembles.
    wavejit_r5xx::parse::parse_program(&small).unwrap_or_else(|e| panic!("{e}\n{small}"));
}

/// The registry's R5xx entry names the campaign.
#[test]
fn r5xx_names_name_campaigns() {
    let c: Option<Box<dyn Campaign>> = fuzz::campaign("r5xx");
    assert!(c.is_some());
    assert!(fuzz::campaign("R5XX").is_some());
    assert!(fuzz::campaign("r600").is_none());
    assert!(fuzz::campaign("r5xx-mem").is_none());
}
