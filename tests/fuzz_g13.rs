//! The G13 differential campaigns (interpreter vs JIT on random SIMD-group programs: ALU
//! forms with random modifiers, exec-stack regions, Mesa-shaped loops with `jmp_exec_any`
//! and breaks through r0l, shuffles and reductions, device and threadgroup memory) through
//! the one fuzz driver, and its minimiser and reproducer. Campaigns count programs.

mod fuzz_common;
use fuzz_common::{
    assert_second_opinions, jit, jit_tier2, programs, scratch, second_opinion, FlipLane0,
    Reproducer,
};
use std::sync::Arc;
use wavejit::fuzz::{Campaign, Driver};
use wavejit::isa::g13::fuzz::G13Fuzz;
use wavejit_g13::lift::state::G13Layout;
use wavejit_g13::random::GenOptions;
use wavejit_runtime::interp::Interpreter;

/// Programs of the mixed campaign test.
const PROGRAMS: u64 = 240;
/// Programs of the memory-heavy campaign test.
const MEMORY_PROGRAMS: u64 = 120;

fn isa(memory_focus: bool) -> G13Fuzz {
    G13Fuzz {
        options: GenOptions { memory_focus },
    }
}

/// A fixed number of programs run, are counted and agree: every program lifts, none runs out
/// of fuel (loops are bounded), loops execute, and the forms the generator claims reach both
/// engines.
#[test]
fn campaign_counts_its_programs_and_finds_no_mismatch() {
    let out = scratch("g13-smoke");
    let report = Driver::new(isa(false))
        .run(
            &programs(0x613_0000, PROGRAMS, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    assert_eq!((report.programs, report.skipped), (PROGRAMS, 0), "{report}");
    assert!(report.unsupported.is_empty(), "{report}");
    assert_eq!(report.out_of_fuel, 0, "{report}");
    // Memory instructions reach past the buffers' ends in some programs, not in most.
    assert!(report.faulted < PROGRAMS / 2, "{report}");
    assert!(report.executed > report.instructions, "{report}");
    for form in [
        "if_icmp",
        "if_fcmp",
        "else_fcmp",
        "while_icmp",
        "jmp_exec_any",
        "jmp_exec_none",
        "pop_exec",
        "iadd",
        "imadd",
        "isub",
        "bitop",
        "fmadd32",
        "fmadd16",
        "fcmpsel",
        "icmpsel",
        "convert",
        "get_sr",
        "simd_shuffle",
        "icmp_ballot",
        "device_load",
        "threadgroup_store",
        "atomic",
    ] {
        assert!(report.mix.contains_key(form), "no {form}: {report}");
    }
    assert!(
        report.mix.keys().any(|f| f.ends_with(".sat")),
        "no saturating form: {report}"
    );
}

/// The memory-heavy campaign: mostly device and threadgroup loads, stores and atomics at
/// lane-pattern indices near and past the ends of the buffer and the threadgroup memory.
/// Both sides of the edges are reached (some programs fault, most complete) and the engines
/// report every fault at the same lane and address, at both JIT tiers.
#[test]
fn memory_campaign_reaches_both_sides_of_the_edges_and_agrees() {
    let out = scratch("g13-mem");
    let fuzz = isa(true);
    let seed = 0x613_3e30;
    let tier1 = second_opinion(&fuzz, &[()], seed, MEMORY_PROGRAMS, &*jit());
    let tier2 = second_opinion(&fuzz, &[()], seed, MEMORY_PROGRAMS / 8, &*jit_tier2());
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
        report.faulted > 0 && report.faulted < MEMORY_PROGRAMS,
        "{report}"
    );
    for form in [
        "device_load",
        "device_store",
        "threadgroup_load",
        "threadgroup_atomic",
    ] {
        assert!(report.mix.contains_key(form), "no {form}: {report}");
    }
    assert_second_opinions(&report, &tier1, &tier2);
}

/// The planted bug: bit 0 of r9 lane 0 flips after every block that writes it.
const FLIP_R9: FlipLane0 = FlipLane0 {
    name: "flip-r9",
    reg: |_| G13Layout::new().gpr(9),
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("g13-planted");
    let err = Driver::new(isa(false))
        .run(
            &programs(13, 60, &out),
            Arc::new(Interpreter),
            Arc::new(FLIP_R9),
        )
        .expect_err("the planted bug is found");
    assert!(err.contains("engines disagree"), "{err}");
    let r = Reproducer::only_one_in(&out);
    let small = r.check_common("g13");
    assert!(small.contains("r9"), "the r9 write was removed:\n{small}");
    // The listing reassembles.
    wavejit_g13::asm::assemble(&small).unwrap_or_else(|e| panic!("{e}\n{small}"));
}

/// Every `--isa` name of the registry's G13 entry names a campaign.
#[test]
fn g13_names_name_campaigns() {
    for name in ["g13", "g13-mem"] {
        let c: Option<Box<dyn Campaign>> = wavejit::isa::g13::fuzz::campaign(name);
        assert!(c.is_some(), "{name}");
    }
}
