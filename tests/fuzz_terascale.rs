//! The TeraScale differential campaign (interpreter vs JIT on random VLIW programs of both chip
//! classes, with the pool, the GDS window, the LDS and private memory compared) through the one
//! fuzz driver, and its minimiser/reproducer machinery. Campaigns count programs.

mod fuzz_common;
use fuzz_common::{
    assert_memory_campaign, assert_second_opinions, jit, jit_tier2, programs, scratch,
    second_opinion, FlipLane0, Reproducer,
};
use std::sync::Arc;
use wavejit::fuzz::{Campaign, Driver, FuzzIsa, LiftError};
use wavejit::isa::terascale::fuzz::{memory_instructions, Case, TsFuzz};
use wavejit_ir::{Block, Function, InstKind, MemSpace, StateLayout};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::solo::Solo;
use wavejit_runtime::{BlockExit, Engine, ExecError, Fault, Program, WaveCtx};
use wavejit_terascale::lift::TsLayout;
use wavejit_terascale::random::GenOptions;
use wavejit_terascale::{Chip, ChipClass};

fn chips(chips: &[Chip], options: GenOptions) -> TsFuzz {
    TsFuzz {
        chips: chips.to_vec(),
        options,
    }
}

/// A fixed number of programs of both classes run, are counted, and agree: no lifter failure,
/// no fault and no endless loop on the generator's valid programs.
#[test]
fn campaign_counts_its_programs_and_finds_no_mismatch() {
    let out = scratch("ts-smoke");
    let n = PROGRAMS;
    let report = Driver::new(chips(&[Chip::Cypress, Chip::Cayman], GenOptions::default()))
        .run(
            &programs(0x7e4a_0000, n, &out),
            Arc::new(Interpreter),
            jit(),
        )
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    // Every program lifts (the generator emits only what the lifter takes).
    assert_eq!((report.programs, report.skipped), (n, 0), "{report}");
    assert!(report.unsupported.is_empty(), "{report}");
    // Generated programs terminate, keep the stack balanced and access memory in bounds.
    assert_eq!(
        (report.faulted, report.out_of_fuel),
        (0, 0),
        "a generated program faulted or did not finish: {report}"
    );
    for chip in ["cypress", "cayman"] {
        assert_eq!(report.per_gen.get(chip).copied(), Some(n / 2), "{report}");
    }
    assert!(
        report.executed > report.instructions,
        "loops should execute more than they contain: {report}"
    );
    // The lifter features the generator claims reach both engines.
    for form in [
        "JUMP_ANY",
        "PUSH_WQM",
        "ELSE_WQM",
        "POP_WQM",
        "REACTIVATE",
        "REACTIVATE_WQM",
        "ALU_REACTIVATE_BEFORE",
        "SET_PRIORITY",
        "LDS_DEALLOC",
        "MOVA_INT to CF_IDX",
        "MOVA_INT to CLAUSE_GLOBAL",
        "SET_CF_IDX0",
        "CLAUSE_GLOBAL read",
        "KCACHE_BANK_INDEX_MODE",
        "BUFFER_INDEX_MODE",
        "MEM_RAT_CACHELESS STORE_RAW_FDENORM",
        "MEM_RAT_CACHELESS STORE_TYPED",
        "MEM_RAT_CACHELESS STORE_BYTE",
        "MEM_RAT burst",
        "MEM_RAT_CACHELESS burst",
        "MEM_RD_SCATTER",
        "MEM_RD_SCRATCH",
        "MEM_WR_SCRATCH",
        "MEM_GDS",
        "TEX_SAMPLE",
        "TEX_LD",
    ] {
        assert!(report.mix.contains_key(form), "no {form}: {report}");
    }
}

/// Programs of the smoke campaign (half per class): enough that every form above shows up
/// (with the fixed seed; 100 were not enough once the edge values became the shared set).
const PROGRAMS: u64 = 160;

/// Programs of the memory-heavy campaign test, over cypress, cayman and cedar (about 5 s in a
/// release build and 15 s in a debug build, the second passes included).
const MEMORY_PROGRAMS: u64 = 80;

/// The memory-heavy campaign (`terascale-mem`, here with cedar's wave32 too): a fixed number
/// of programs made mostly of VTX fetches, RAT stores and atomics and LDS ops, on lane-pattern
/// addresses (consecutive, scattered, shared) whose bases sometimes put the top lane exactly
/// at, one unit past or across the wrap of the pool's and the LDS's ends, under partial
/// active masks and predication. Both engines agree on every program; the edges are reached
/// from both sides (some programs fault, at an out-of-range fetch and store and at a
/// misaligned atomic, and some complete); and the engines report every fault at the same
/// lane and address, at both JIT tiers.
#[test]
fn memory_heavy_campaign_reaches_both_sides_of_the_edges_and_agrees() {
    let out = scratch("ts-mem");
    let targets = [Chip::Cypress, Chip::Cayman, Chip::Cedar];
    let isa = chips(&targets, GenOptions::memory_heavy());
    let seed = 0x7e4a_3e30;
    let (mut memory, mut total) = (0, 0);
    for k in 0..MEMORY_PROGRAMS {
        let chip = targets[k as usize % targets.len()];
        let case = isa
            .generate(chip, seed + k)
            .unwrap_or_else(|e| panic!("{e}"));
        let p = case.program.lower().unwrap_or_else(|e| panic!("{e}"));
        let (m, all) = memory_instructions(&p);
        memory += m;
        total += all;
    }
    // The same programs again, faults compared down to lane and address, at tier 1 and
    // (the first few, tier-2 compiles are slow) at tier 2.
    let tier1 = second_opinion(&isa, &targets, seed, MEMORY_PROGRAMS, &*jit());
    let tier2 = second_opinion(&isa, &targets, seed, MEMORY_PROGRAMS / 8, &*jit_tier2());
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
        (report.programs, report.skipped),
        (MEMORY_PROGRAMS, 0),
        "{report}"
    );
    assert!(report.unsupported.is_empty(), "{report}");
    assert_memory_campaign(&report, MEMORY_PROGRAMS, memory, total);
    for form in [
        "VTX_FETCH",
        "LDS_IDX_OP",
        "MEM_RAT ADD_RTN",
        "MEM_RAT burst",
    ] {
        assert!(report.mix.contains_key(form), "no {form}: {report}");
    }
    assert!(
        report
            .mix
            .keys()
            .any(|f| f.starts_with("MEM_RAT_CACHELESS STORE")),
        "no cacheless store: {report}"
    );
    assert_second_opinions(&report, &tier1, &tier2);
}

/// A chip name fuzzes that chip: cedar's waves have 32 lanes.
#[test]
fn cedar_campaign_runs_wave32() {
    let out = scratch("ts-cedar");
    let campaign = wavejit::isa::terascale::fuzz::campaign("cedar").expect("cedar is a name");
    let report = campaign
        .run(&programs(0xceda, 6, &out), Arc::new(Interpreter), jit())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.programs, 6, "{report}");
    assert_eq!(report.per_gen.get("cedar").copied(), Some(6), "{report}");
}

/// The planted bug: bit 0 of R3.x lane 0 flips after every block that writes it.
const FLIP_R3: FlipLane0 = FlipLane0 {
    name: "flip-r3",
    reg: |f| TsLayout::new(f.layout.wave_size).gpr(3, 0),
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("ts-planted");
    let err = Driver::new(chips(&[Chip::Cayman], GenOptions::default()))
        .run(
            &programs(7, 40, &out),
            Arc::new(Interpreter),
            Arc::new(FLIP_R3),
        )
        .expect_err("the planted bug is found");
    assert!(err.contains("engines disagree"), "{err}");
    let r = Reproducer::only_one_in(&out);
    let small = r.check_common("cayman");
    // An ALU/fetch write names T3.X; a returning RAT atomic writes RW_GPR.x, listed as `T3,`.
    assert!(
        small.contains("T3.X") || small.contains(" T3, "),
        "the R3.x write was removed:\n{small}"
    );
    // The listing reassembles.
    wavejit_terascale::asm::assemble(ChipClass::Cayman, &small)
        .unwrap_or_else(|e| panic!("{e}\n{small}"));
    assert!(
        r.read("diff.txt").contains("r12 lane 0: "),
        "{}",
        r.read("diff.txt")
    );
    assert_eq!(r.state()["class"], "cayman");
    let _ = std::fs::remove_dir_all(&out);
}

/// The memory a [`FlipMem`] engine corrupts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Pool,
    Lds,
    Gds,
    Private,
}

impl Target {
    /// The space of the stores after which the engine flips a bit.
    fn space(self) -> MemSpace {
        match self {
            Target::Pool | Target::Gds => MemSpace::Global,
            Target::Lds => MemSpace::Lds,
            Target::Private => MemSpace::Private,
        }
    }
}

/// An engine that runs the interpreter but, after every block that writes the target's
/// memory space, flips bit 0 of the target memory's first byte (the pool's, the LDS's, the
/// GDS's or lane 0's private segment): a planted bug only the memory comparison can see.
struct FlipMem(Target);

struct FlipMemProgram {
    inner: Arc<dyn Program>,
    func: Arc<Function>,
    target: Target,
}

impl Engine for FlipMem {
    fn name(&self) -> &'static str {
        "flip-mem"
    }

    fn prepare(&self, func: Arc<Function>) -> Result<Arc<dyn Program>, ExecError> {
        Ok(Arc::new(FlipMemProgram {
            inner: Interpreter.prepare(func.clone())?,
            func,
            target: self.0,
        }))
    }
}

impl Program for FlipMemProgram {
    fn run_block(&self, block: Block, ctx: &mut WaveCtx<'_>) -> Result<BlockExit, Fault> {
        let exit = self.inner.run_block(block, ctx)?;
        let space = self.target.space();
        let writes = self.func.blocks[block.index()].insts.iter().any(|i| {
            matches!(i.kind, InstKind::Store { space: s, .. } | InstKind::Atomic { space: s, .. }
                if s == space)
        });
        if writes {
            let l = TsLayout::new(self.func.layout.wave_size);
            let base = match self.target {
                Target::Lds => {
                    ctx.lds[0] ^= 1;
                    return Ok(exit);
                }
                Target::Private => {
                    if let Some(b) = ctx.private.first_mut() {
                        *b ^= 1;
                    }
                    return Ok(exit);
                }
                Target::Pool => l.pool_base(),
                Target::Gds => l.gds(),
            };
            let addr = u64::from(ctx.state.uniform(base))
                | u64::from(ctx.state.uniform(base.offset(1))) << 32;
            let mut b = [0u8];
            if ctx.mem.read_bytes(addr, &mut b).is_ok() {
                let _ = ctx.mem.write_bytes(addr, &[b[0] ^ 1]);
            }
        }
        Ok(exit)
    }
}

/// The pool, the LDS, the GDS window and the private memory are compared: a planted bug in
/// any is found and minimised to a program that still writes that memory.
#[test]
fn planted_memory_bugs_are_found() {
    let only = GenOptions {
        rat: false,
        lds: false,
        gds: false,
        scratch: false,
        ..GenOptions::default()
    };
    for (target, chip, name, what, hex) in [
        (
            Target::Pool,
            Chip::Cypress,
            "pool+0x0",
            "MEM_RAT",
            Some("pool_hex"),
        ),
        (
            Target::Lds,
            Chip::Cypress,
            "lds+0x0",
            "LDS_",
            Some("lds_hex"),
        ),
        (
            Target::Gds,
            Chip::Cayman,
            "gds+0x0",
            "GDS_",
            Some("gds_hex"),
        ),
        (
            Target::Private,
            Chip::Cypress,
            "private+0x0",
            "MEM_WR_SCRATCH",
            None,
        ),
    ] {
        let out = scratch(name);
        let options = GenOptions {
            rat: target == Target::Pool,
            lds: target == Target::Lds,
            gds: target == Target::Gds,
            scratch: target == Target::Private,
            ..only.clone()
        };
        let err = Driver::new(chips(&[chip], options))
            .run(
                &programs(11, 60, &out),
                Arc::new(Interpreter),
                Arc::new(FlipMem(target)),
            )
            .expect_err("the planted bug is found");
        assert!(err.contains("engines disagree"), "{err}");
        let r = Reproducer::only_one_in(&out);
        let diff = r.read("diff.txt");
        assert!(diff.contains(&format!("{name}: ")), "{diff}");
        assert!(
            r.read("program.s").contains(what),
            "{}",
            r.read("program.s")
        );
        if let Some(hex) = hex {
            let state = r.state();
            assert!(
                state[hex].as_str().is_some_and(|s| !s.is_empty()),
                "{state}"
            );
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// TeraScale with a planted refusal: programs whose listing contains `word` are refused as
/// unsupported.
struct Refuse {
    inner: TsFuzz,
    word: &'static str,
}

impl FuzzIsa for Refuse {
    type Target = Chip;
    type Case = Case;
    fn targets(&self) -> Vec<Chip> {
        self.inner.targets()
    }
    fn target_name(&self, t: Chip) -> &'static str {
        self.inner.target_name(t)
    }
    fn generate(&self, t: Chip, seed: u64) -> Result<Case, String> {
        self.inner.generate(t, seed)
    }
    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        if self.inner.listing(case).contains(self.word) {
            return Err(LiftError::unsupported(0, self.word, "planted"));
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

/// TeraScale cannot drop one instruction by address, so an unsupported refusal is a lifter
/// failure (the same policy as GCN's, whose driver drops what the ISA can drop), minimised
/// while the refusal persists.
#[test]
fn undroppable_unsupported_refusal_is_a_minimised_lift_failure() {
    let out = scratch("ts-unsupported");
    let isa = Refuse {
        inner: chips(&[Chip::Cypress], GenOptions::default()),
        word: "ALU_PUSH_BEFORE",
    };
    let err = Driver::new(isa)
        .run(
            &programs(3, 20, &out),
            Arc::new(Interpreter),
            Arc::new(Interpreter),
        )
        .expect_err("the refusal is a failure");
    assert!(
        err.contains("lifter failure") && err.contains("planted"),
        "{err}"
    );
    let r = Reproducer::only_one_in(&out);
    let small = r.check_common("cypress");
    assert!(small.contains("ALU_PUSH_BEFORE"), "{small}");
    assert!(r.read("summary.txt").contains("unsupported: planted"));
    assert!(!r.has("diff.txt"));
    let _ = std::fs::remove_dir_all(&out);
}
