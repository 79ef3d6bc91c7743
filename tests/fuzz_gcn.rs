//! The GCN differential campaign (interpreter vs JIT) through the one fuzz driver, its
//! lifting policy and its minimiser/reproducer machinery. Campaigns count programs.

mod fuzz_common;
use fuzz_common::{
    assert_memory_campaign, assert_second_opinions, jit, jit_tier2, programs, scratch,
    second_opinion, FlipLane0, Reproducer,
};
use std::sync::Arc;
use wavejit::fuzz::{Campaign, Driver, FuzzIsa, LiftError, LiftErrorKind};
use wavejit::isa::gcn::fuzz::{memory_mnemonics, Case, GcnFuzz};
use wavejit_gcn::random::GenConfig;
use wavejit_gcn::Gen;
use wavejit_ir::{Function, StateLayout};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::solo::Solo;

fn all_gens() -> GcnFuzz {
    GcnFuzz {
        gens: Gen::ALL.to_vec(),
        config: GenConfig::default(),
    }
}

/// A fixed number of programs over gfx6-gfx9 run, are counted, and agree.
#[test]
fn campaign_counts_its_programs_and_finds_no_mismatch() {
    let out = scratch("gcn-smoke");
    let report = Driver::new(all_gens())
        .run(
            &programs(0x5eed_0001, 400, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    assert_eq!(report.programs + report.skipped, 400, "{report}");
    for g in Gen::ALL {
        assert!(
            report.per_gen.get(g.name()).copied().unwrap_or(0) > 0,
            "no {} program: {report}",
            g.name()
        );
    }
    assert!(
        report.executed > report.instructions,
        "loops should execute more than they contain: {report}"
    );
}

/// Programs of the memory-heavy campaign test, over gfx6-gfx9 (about 7 s in a release build
/// and 17 s in a debug build, the second passes included).
const MEMORY_PROGRAMS: u64 = 400;

/// The memory-heavy campaign (`gcn-mem`): a fixed number of programs whose instructions are
/// mostly memory instructions of every form, on consecutive, strided, uniform, scattered,
/// misaligned, edge, guarded and shared addresses under partial EXEC masks. Both engines agree
/// on every program; the edges are reached from both sides (some programs fault, at an
/// out-of-range load and store, at a misaligned atomic and in a lane's private segment, and
/// some complete); and the engines report every fault at the same lane and address, at both
/// JIT tiers.
#[test]
fn memory_heavy_campaign_reaches_both_sides_of_the_edges_and_agrees() {
    let out = scratch("gcn-mem");
    let isa = GcnFuzz {
        gens: Gen::ALL.to_vec(),
        config: GenConfig::memory_heavy(),
    };
    let seed = 0x5eed_0003;
    let (mut memory, mut total) = (0, 0);
    for k in 0..MEMORY_PROGRAMS {
        let gen = Gen::ALL[k as usize % Gen::ALL.len()];
        let case = isa
            .generate(gen, seed + k)
            .unwrap_or_else(|e| panic!("{e}"));
        memory += memory_mnemonics(&case.items).len();
        total += case.items.len();
    }
    // The same programs again, faults compared down to lane and address, at tier 1 and
    // (the first few, tier-2 compiles are slow) at tier 2.
    let tier1 = second_opinion(&isa, &Gen::ALL, seed, MEMORY_PROGRAMS, &*jit());
    let tier2 = second_opinion(&isa, &Gen::ALL, seed, MEMORY_PROGRAMS / 4, &*jit_tier2());
    let report = Driver::new(isa)
        .run(
            &programs(seed, MEMORY_PROGRAMS, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "{report}\n{memory} memory instructions of {total}\ntier 1: {tier1:?}\ntier 2: {tier2:?}"
    );
    assert_eq!(
        report.programs + report.skipped,
        MEMORY_PROGRAMS,
        "{report}"
    );
    assert_memory_campaign(&report, MEMORY_PROGRAMS, memory, total);
    assert!(
        report.faults.keys().any(|k| k.contains("Private memory")),
        "no private fault: {report}"
    );
    for prefix in [
        "ds_",
        "buffer_",
        "flat_",
        "global_",
        "scratch_",
        "s_buffer_load",
        "s_load",
    ] {
        assert!(
            report.mix.keys().any(|m| m.starts_with(prefix)),
            "no {prefix}*: {report}"
        );
    }
    assert_second_opinions(&report, &tier1, &tier2);
}

#[test]
fn unknown_isa_is_an_error_listing_every_fuzz_name() {
    let e = wavejit::fuzz::campaign("mips", 1, Some(1), &scratch("isa"), false, 0).unwrap_err();
    assert!(e.contains("unknown ISA 'mips'"), "{e}");
    for f in wavejit::registry::FRONTENDS {
        for name in f.fuzz_names() {
            assert!(e.contains(name), "{name} missing: {e}");
        }
    }
}

/// Every name a frontend lists for `fuzz --isa` names one of its campaigns, and only its.
#[test]
fn every_fuzz_name_names_a_campaign() {
    let frontends = wavejit::registry::FRONTENDS;
    for f in frontends {
        for name in f.fuzz_names() {
            let owners = frontends.iter().filter(|g| g.fuzz(name).is_some()).count();
            assert_eq!(owners, 1, "{name} of {}", f.name());
            assert!(f.fuzz(name).is_some(), "{name}");
        }
    }
}

/// The planted bug: bit 0 of v3 lane 0 flips after every block that writes v3.
const FLIP_V3: FlipLane0 = FlipLane0 {
    name: "flip-v3",
    reg: |_| wavejit_gcn::lift::GcnLayout::new().vgpr(3),
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("gcn-planted");
    let isa = GcnFuzz {
        gens: vec![Gen::Gfx9],
        config: GenConfig::default(),
    };
    let err = Driver::new(isa)
        .run(
            &programs(42, 20, &out),
            Arc::new(Interpreter),
            Arc::new(FLIP_V3),
        )
        .expect_err("the planted bug is found");
    assert!(err.contains("engines disagree"), "{err}");
    let r = Reproducer::only_one_in(&out);
    let small = r.check_common("gfx9");
    let count = |s: &str| s.lines().filter(|l| l.starts_with("  ")).count();
    assert!(
        count(&small) <= 3,
        "minimised program is still long:\n{small}"
    );
    assert!(
        small.contains("v3") || small.contains("v[2:3]") || small.contains("v[3:"),
        "the v3 write was removed:\n{small}"
    );
    // The text reassembles.
    wavejit_gcn::assemble(Gen::Gfx9, &small).unwrap_or_else(|e| panic!("{e}\n{small}"));
    assert!(
        r.read("diff.txt").contains("v3 lane 0: "),
        "{}",
        r.read("diff.txt")
    );
    assert_eq!(r.state()["gen"], "gfx9");
    let _ = std::fs::remove_dir_all(&out);
}

/// GCN with a planted lifter refusal: the first instruction whose text starts with `prefix`
/// is refused with `kind`.
struct Refuse {
    inner: GcnFuzz,
    prefix: &'static str,
    kind: LiftErrorKind,
}

impl FuzzIsa for Refuse {
    type Target = Gen;
    type Case = Case;
    fn targets(&self) -> Vec<Gen> {
        self.inner.targets()
    }
    fn target_name(&self, t: Gen) -> &'static str {
        self.inner.target_name(t)
    }
    fn generate(&self, t: Gen, seed: u64) -> Result<Case, String> {
        self.inner.generate(t, seed)
    }
    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        if let Some(p) = case.program() {
            for (it, &off) in p.items.iter().zip(&p.offsets) {
                let text = wavejit_gcn::print(&it.inst);
                if text.starts_with(self.prefix) {
                    return Err(LiftError::new(self.kind, off as u64, text, "planted"));
                }
            }
        }
        self.inner.lift(case)
    }
    fn without_instruction_at(&self, case: &Case, pc: u64) -> Option<Case> {
        self.inner.without_instruction_at(case, pc)
    }
    fn reductions(&self, case: &Case) -> Vec<Case> {
        self.inner.reductions(case)
    }
    fn solo(&self, case: &Case, layout: &StateLayout) -> Result<Solo, String> {
        self.inner.solo(case, layout)
    }
    fn listing(&self, case: &Case) -> String {
        self.inner.listing(case)
    }
    fn state_json(&self, case: &Case) -> serde_json::Value {
        self.inner.state_json(case)
    }
    fn instructions(&self, case: &Case) -> usize {
        self.inner.instructions(case)
    }
    fn fuel(&self) -> u64 {
        self.inner.fuel()
    }
}

/// An unsupported instruction is dropped and counted by mnemonic; the program still runs
/// (or is skipped after too many drops) and is counted.
#[test]
fn unsupported_instructions_are_dropped_and_counted() {
    let out = scratch("gcn-unsupported");
    let isa = Refuse {
        inner: all_gens(),
        prefix: "v_add",
        kind: LiftErrorKind::Unsupported,
    };
    let report = Driver::new(isa)
        .run(
            &programs(0x5eed_0002, 12, &out),
            Arc::new(Interpreter),
            Arc::new(Interpreter),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.programs + report.skipped, 12, "{report}");
    assert!(report.programs > 0, "{report}");
    let dropped: u64 = report.unsupported.values().sum();
    assert!(dropped > 0, "{report}");
    assert!(
        report.unsupported.keys().all(|m| m.starts_with("v_add")),
        "{report}"
    );
    assert!(!out.exists(), "no reproducer for a dropped instruction");
}

/// An invalid refusal is a lifter failure: minimised while the refusal persists, with a
/// reproducer but no diff.
#[test]
fn invalid_refusal_is_a_minimised_lift_failure() {
    let out = scratch("gcn-invalid");
    let isa = Refuse {
        inner: GcnFuzz {
            gens: vec![Gen::Gfx8],
            config: GenConfig::default(),
        },
        prefix: "v_add",
        kind: LiftErrorKind::Invalid,
    };
    let err = Driver::new(isa)
        .run(
            &programs(5, 20, &out),
            Arc::new(Interpreter),
            Arc::new(Interpreter),
        )
        .expect_err("the refusal is a failure");
    assert!(
        err.contains("lifter failure") && err.contains("planted"),
        "{err}"
    );
    let r = Reproducer::only_one_in(&out);
    let small = r.check_common("gfx8");
    let lines: Vec<&str> = small.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(lines.len(), 1, "{small}");
    assert!(lines[0].trim_start().starts_with("v_add"), "{small}");
    assert!(r.read("summary.txt").contains("invalid: planted"));
    assert!(!r.has("diff.txt"));
    let _ = std::fs::remove_dir_all(&out);
}
