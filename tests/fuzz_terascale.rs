//! The TeraScale differential campaign (interpreter vs JIT on random VLIW programs of both chip
//! classes, with the pool buffer and the LDS compared) and its minimiser/reproducer machinery.

mod fuzz_common;
use fuzz_common::FlipLane0;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use wavejit::fuzz::terascale::{run_campaign, CampaignOptions};
use wavejit::fuzz::Budget;
use wavejit_ir::{Block, Function, InstKind, MemSpace};
use wavejit_runtime::interp::Interpreter;
use wavejit_runtime::{BlockExit, Engine, ExecError, Fault, Program, WaveCtx};
use wavejit_terascale::lift::TsLayout;
use wavejit_terascale::random::GenOptions;
use wavejit_terascale::ChipClass;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavejit-tsfuzz-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A fixed-seed, time-boxed campaign over both classes finds no disagreement, no lifter
/// failure, no fault and no endless loop on the generator's valid programs.
#[test]
fn time_boxed_campaign_finds_no_mismatch() {
    let out = scratch("smoke");
    let opts = CampaignOptions {
        classes: ChipClass::ALL.to_vec(),
        budget: Budget {
            duration: Duration::from_secs(8),
            max_programs: None,
            seed: 0x7e4a_0000,
            out: out.clone(),
            progress: false,
        },
        gen: GenOptions::default(),
    };
    let jit = wavejit_jit::Jit::new().expect("the JIT starts");
    let report =
        run_campaign(&opts, Arc::new(Interpreter), Arc::new(jit)).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{report}");
    assert_eq!(report.mismatches, 0);
    // Generated programs terminate, keep the stack balanced and access memory in bounds.
    assert_eq!(
        (report.faulted, report.out_of_fuel),
        (0, 0),
        "a generated program faulted or did not finish: {report}"
    );
    assert!(
        report.programs >= 20,
        "only {} programs ran: {report}",
        report.programs
    );
    for class in ["evergreen", "cayman"] {
        assert!(
            report.per_gen.get(class).copied().unwrap_or(0) > 0,
            "no {class} program: {report}"
        );
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

/// The planted bug: bit 0 of R3.x lane 0 flips after every block that writes it.
const FLIP_R3: FlipLane0 = FlipLane0 {
    name: "flip-r3",
    reg: |f| TsLayout::new(f.layout.wave_size).gpr(3, 0),
};

#[test]
fn planted_bug_is_minimised_into_a_reproducer() {
    let out = scratch("planted");
    let opts = CampaignOptions {
        classes: vec![ChipClass::Cayman],
        budget: Budget {
            duration: Duration::from_secs(60),
            max_programs: Some(40),
            seed: 7,
            out: out.clone(),
            progress: false,
        },
        gen: GenOptions::default(),
    };
    let err = run_campaign(&opts, Arc::new(Interpreter), Arc::new(FLIP_R3))
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
    // Slot lines of ALU clauses are indented by two spaces in the listing.
    let count = |s: &str| s.lines().filter(|l| l.starts_with("  ")).count();
    let (small, original) = (read("program.s"), read("original.s"));
    assert!(count(&small) < count(&original), "not minimised:\n{small}");
    // An ALU/fetch write names T3.X; a returning RAT atomic writes RW_GPR.x, listed as `T3,`.
    assert!(
        small.contains("T3.X") || small.contains(" T3, "),
        "the R3.x write was removed:\n{small}"
    );
    // The listing reassembles.
    wavejit_terascale::asm::assemble(ChipClass::Cayman, &small)
        .unwrap_or_else(|e| panic!("{e}\n{small}"));
    assert!(
        read("diff.txt").contains("r12 lane 0: "),
        "{}",
        read("diff.txt")
    );
    let state: serde_json::Value =
        serde_json::from_str(&read("initial_state.json")).expect("JSON state");
    assert_eq!(state["class"], "cayman");
    assert_eq!(read("summary.txt").lines().count(), 1);
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
    for (target, class, name, what, hex) in [
        (
            Target::Pool,
            ChipClass::Evergreen,
            "buffer+0x0",
            "MEM_RAT",
            Some("pool_hex"),
        ),
        (
            Target::Lds,
            ChipClass::Evergreen,
            "lds+0x0",
            "LDS_",
            Some("lds_hex"),
        ),
        (
            Target::Gds,
            ChipClass::Cayman,
            "gds+0x0",
            "GDS_",
            Some("gds_hex"),
        ),
        (
            Target::Private,
            ChipClass::Evergreen,
            "private+0x0",
            "MEM_WR_SCRATCH",
            None,
        ),
    ] {
        let out = scratch(name);
        let opts = CampaignOptions {
            classes: vec![class],
            budget: Budget {
                duration: Duration::from_secs(60),
                max_programs: Some(60),
                seed: 11,
                out: out.clone(),
                progress: false,
            },
            gen: GenOptions {
                rat: target == Target::Pool,
                lds: target == Target::Lds,
                gds: target == Target::Gds,
                scratch: target == Target::Private,
                ..only.clone()
            },
        };
        let err = run_campaign(&opts, Arc::new(Interpreter), Arc::new(FlipMem(target)))
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
        let diff = read("diff.txt");
        assert!(diff.contains(&format!("{name}: ")), "{diff}");
        assert!(read("program.s").contains(what), "{}", read("program.s"));
        let state: serde_json::Value =
            serde_json::from_str(&read("initial_state.json")).expect("JSON state");
        if let Some(hex) = hex {
            assert!(
                state[hex].as_str().is_some_and(|s| !s.is_empty()),
                "{state}"
            );
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}
