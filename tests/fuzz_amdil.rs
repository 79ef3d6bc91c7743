//! The AMD IL differential campaigns (interpreter vs JIT on random compute programs: every ALU
//! form the lifter takes with random swizzles and modifiers, structured control flow, raw UAV
//! and LDS accesses) through the one fuzz driver, and its minimiser and reproducer. Campaigns
//! count programs.

mod fuzz_common;
use fuzz_common::{
    assert_second_opinions, jit, jit_tier2, programs, scratch, second_opinion, FlipLane0,
    Reproducer,
};
use std::sync::Arc;
use wavejit::fuzz::{Campaign, Driver, FuzzIsa};
use wavejit::isa::amdil::fuzz::{IlFuzz, WAVE_SIZES};
use wavejit_amdil::random::{GenOptions, FIRST_TEMP};
use wavejit_amdil::{decode, encode, parse};
use wavejit_ir::{FileId, Function, Reg};
use wavejit_runtime::interp::Interpreter;

/// Programs of the mixed campaign test.
const PROGRAMS: u64 = 300;
/// Programs of the memory-heavy campaign test.
const MEMORY_PROGRAMS: u64 = 120;

fn isa(memory_focus: bool) -> IlFuzz {
    IlFuzz {
        options: GenOptions { memory_focus },
    }
}

/// A fixed number of programs run, are counted and agree: every program lifts, none faults
/// (every access is in range) or runs out of fuel (loops are bounded), most of their code
/// runs (if/else parts skip some, loops repeat some), and the forms and modifiers the
/// generator claims reach both engines.
#[test]
fn campaign_counts_its_programs_and_finds_no_mismatch() {
    let out = scratch("il-smoke");
    let report = Driver::new(isa(false))
        .run(
            &programs(0x11_0000, PROGRAMS, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    assert_eq!((report.programs, report.skipped), (PROGRAMS, 0), "{report}");
    assert!(report.unsupported.is_empty(), "{report}");
    assert_eq!((report.faulted, report.out_of_fuel), (0, 0), "{report}");
    for target in ["wave64", "wave32"] {
        assert_eq!(report.per_gen[target], PROGRAMS / 2, "{report}");
    }
    assert!(2 * report.executed > report.instructions, "{report}");
    for form in [
        "mul_ieee",
        "mad",
        "max_ieee",
        "min",
        "div_zeroop(infinity)",
        "cmov",
        "cmov_logical",
        "imul24_high",
        "ubit_insert",
        "ffb(shi)",
        "ftou",
        "ifc_relop(ge)",
        "if_logicalnz",
        "else",
        "whileloop",
        "break_logicalnz",
        "continuec_relop(ne)",
        "switch",
        "default",
        "uav_raw_load_id(11)",
        "uav_raw_store_id(8)",
        "lds_load_id(1)",
        "lds_store_id(1)",
        "fence_threads",
        "sqrt_vec",
        "bitalign",
        "relative",
        "src_neg",
        "src_abs",
        "src_divcomp",
        "dst_sat",
    ] {
        assert!(report.mix.contains_key(form), "no {form}: {report}");
    }
}

/// The memory-heavy campaign: mostly raw UAV and LDS accesses, a few at addresses past the
/// arena's end (a guest fault) and the LDS's (reads 0, drops writes). Both sides of the edge
/// are reached and the engines report every fault at the same lane and address, at both JIT
/// tiers.
#[test]
fn memory_campaign_reaches_both_sides_of_the_edges_and_agrees() {
    let out = scratch("il-mem");
    let fuzz = isa(true);
    let seed = 0x11_3e30;
    let tier1 = second_opinion(&fuzz, &WAVE_SIZES, seed, MEMORY_PROGRAMS, &*jit());
    let tier2 = second_opinion(&fuzz, &WAVE_SIZES, seed, MEMORY_PROGRAMS / 4, &*jit_tier2());
    let report = Driver::new(fuzz)
        .run(
            &programs(seed, MEMORY_PROGRAMS, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}\ntier 1: {tier1:?}\ntier 2: {tier2:?}");
    assert_eq!(report.programs, MEMORY_PROGRAMS, "{report}");
    assert!(
        report.faulted > 0 && report.faulted < MEMORY_PROGRAMS / 2,
        "{report}"
    );
    assert!(
        report
            .faults
            .contains_key("out-of-bounds load from Global memory")
            || report
                .faults
                .contains_key("out-of-bounds store to Global memory"),
        "{report}"
    );
    assert_second_opinions(&report, &tier1, &tier2);
}

/// The same seed gives the same case; every case's listing parses back to its program, which
/// encodes and decodes back.
#[test]
fn cases_are_deterministic_and_their_listings_read_back() {
    for memory in [false, true] {
        let fuzz = isa(memory);
        for seed in 0..100 {
            let a = fuzz.generate(64, seed).unwrap_or_else(|e| panic!("{e}"));
            let b = fuzz.generate(64, seed).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!((&a.program, &a.init), (&b.program, &b.init), "seed {seed}");
            let program = a.program.program();
            let text = fuzz.listing(&a);
            let parsed = parse::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(parsed, program, "seed {seed}\n{text}");
            let bytes = encode::encode(&program).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(decode::decode(&bytes), Ok(program), "seed {seed}\n{text}");
        }
    }
}

/// The first random temp's x component (`r2.x`): the `r` file's cell `4 * 2`.
fn r2x(f: &Function) -> Reg {
    let file = f.layout.files.iter().position(|file| file.name == "r");
    Reg::new(FileId(file.unwrap_or(0) as u16), 4 * FIRST_TEMP)
}

/// The planted bug: bit 0 of r2.x lane 0 flips after every block that writes it.
const FLIP_R2X: FlipLane0 = FlipLane0 {
    name: "flip-r2x",
    reg: r2x,
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("il-planted");
    let err = Driver::new(isa(false))
        .run(
            &programs(7, 40, &out),
            Arc::new(Interpreter),
            Arc::new(FLIP_R2X),
        )
        .expect_err("the planted bug is found");
    assert!(err.contains("engines disagree"), "{err}");
    let r = Reproducer::only_one_in(&out);
    let state = r.state();
    let target = state["target"].as_str().unwrap_or_default();
    assert!(["wave64", "wave32"].contains(&target), "{state}");
    assert_eq!(r.name(), format!("{target}-seed{}", state["seed"]));
    assert_eq!(r.read("summary.txt").lines().count(), 1);
    assert!(
        r.read("diff.txt").contains("lane 0"),
        "{}",
        r.read("diff.txt")
    );
    let (small, original) = (r.read("program.s"), r.read("original.s"));
    let [small_p, original_p] = [&small, &original]
        .map(|t| parse::parse(t).unwrap_or_else(|e| panic!("the listing reads back: {e}\n{t}")));
    assert!(
        small_p.code.len() < original_p.code.len() && small_p.code.len() <= 8,
        "not minimised:\n{small}"
    );
    assert!(small.contains("r2"), "the r2 write was removed:\n{small}");
    let _ = std::fs::remove_dir_all(&out);
}

/// Every `--isa` name of IL names a campaign.
#[test]
fn il_names_name_campaigns() {
    for name in wavejit::isa::amdil::fuzz::FUZZ_NAMES {
        let c: Option<Box<dyn Campaign>> = wavejit::isa::amdil::fuzz::campaign(name);
        assert!(c.is_some(), "{name}");
    }
    assert!(wavejit::isa::amdil::fuzz::campaign("gcn").is_none());
}
