//! The GCN differential campaign (interpreter vs JIT) and its minimiser/reproducer machinery.

mod fuzz_common;
use fuzz_common::FlipLane0;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use wavejit::fuzz::campaign;
use wavejit::fuzz::gcn::{run_campaign, CampaignOptions};
use wavejit::fuzz::Budget;
use wavejit_gcn::random::GenConfig;
use wavejit_gcn::Gen;
use wavejit_runtime::interp::Interpreter;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-fuzz-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A fixed-seed, time-boxed campaign over gfx6-gfx9 finds no disagreement.
#[test]
fn time_boxed_campaign_finds_no_mismatch() {
    let out = scratch("smoke");
    let opts = CampaignOptions {
        gens: Gen::ALL.to_vec(),
        budget: Budget {
            duration: Duration::from_secs(12),
            max_programs: None,
            seed: 0x5eed_0001,
            out: out.clone(),
            progress: false,
        },
        gen_config: GenConfig::default(),
    };
    let jit = wavejit_jit::Jit::new().expect("the JIT starts");
    let report =
        run_campaign(&opts, Arc::new(Interpreter), Arc::new(jit)).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    assert!(
        report.programs >= 40,
        "only {} programs ran: {report}",
        report.programs
    );
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

#[test]
fn unknown_isa_is_an_error() {
    let e = campaign("mips", 1, Some(1), &scratch("isa"), false).unwrap_err();
    assert!(e.contains("unknown ISA 'mips'"), "{e}");
}

/// The planted bug: bit 0 of v3 lane 0 flips after every block that writes v3.
const FLIP_V3: FlipLane0 = FlipLane0 {
    name: "flip-v3",
    reg: |_| wavejit_gcn::lift::GcnLayout::new().vgpr(3),
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("planted");
    let opts = CampaignOptions {
        gens: vec![Gen::Gfx9],
        budget: Budget {
            duration: Duration::from_secs(60),
            max_programs: Some(20),
            seed: 42,
            out: out.clone(),
            progress: false,
        },
        gen_config: GenConfig::default(),
    };
    let err = run_campaign(&opts, Arc::new(Interpreter), Arc::new(FLIP_V3))
        .expect_err("the planted bug is found");
    assert!(err.contains("engines disagree"), "{err}");
    let dir = std::fs::read_dir(&out)
        .expect("reproducer directory")
        .next()
        .expect("one entry")
        .expect("entry")
        .path();
    let read =
        |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    let count = |s: &str| s.lines().filter(|l| l.starts_with("  ")).count();
    let (small, original) = (read("program.s"), read("original.s"));
    assert!(count(&small) < count(&original), "not minimised:\n{small}");
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
        read("diff.txt").contains("v3 lane 0: "),
        "{}",
        read("diff.txt")
    );
    let state: serde_json::Value =
        serde_json::from_str(&read("initial_state.json")).expect("JSON state");
    assert_eq!(state["gen"], "gfx9");
    assert_eq!(read("summary.txt").lines().count(), 1);
    let _ = std::fs::remove_dir_all(&out);
}
