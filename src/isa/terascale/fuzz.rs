//! The TeraScale part of differential fuzzing ([`crate::fuzz`] is the driver and its policy):
//! seeded random programs of [`wavejit_terascale::random`] (nested control flow with loops,
//! calls and the ALU_* CF forms, instruction groups with PV/PS, kcache, literals, predicates
//! and relative addressing, CF_IDX and CLAUSE_GLOBAL, fetch clauses with scatter and scratch
//! reads and TEX instructions, RAT stores and atomics, scratch writes, LDS ops, Cayman GDS
//! clauses and the Cayman WQM/REACTIVATE CF forms) on one wave of the target chip (wave32 on
//! cedar), from [`InitialState::random`].
//!
//! The wave's memories: the pool buffer ([`random::POOL_BYTES`] at `pool_base`: fetch buffer
//! 1 and RAT 0; watched as `pool`), the constant buffers, the GDS ([`GDS_BYTES`] at the `gds`
//! cell; its first [`random::GDS_WINDOW`] bytes come from the initial state and are watched
//! as `gds`), the textures of [`random::TEXTURES`] with their resource and sampler tables, an
//! LDS of [`random::LDS_BYTES`] and the private segments the program's scratch accesses need
//! ([`scratch_lane_bytes`], zero at the start). The pool, the GDS window, the LDS and the
//! private memory are compared after the run.
//!
//! Two campaigns per chip set: the mixed one (`terascale`, `cayman`, ...) and the
//! memory-heavy one (the same name with `-mem`: `terascale-mem`, `cedar-mem`, ...), whose
//! programs are mostly fetch clauses, RAT instructions and LDS sequences on lane-pattern
//! addresses at and past the pool's and the LDS's ends ([`GenOptions::memory_heavy`]; the
//! wave starts with the lane patterns of [`InitialState::set_lane_patterns`]).
//!
//! Reductions are [`random::reductions`] (one-step edits of the CF tree, each passing
//! [`random::check`]); the initial state is kept. The program tree has no removal of one
//! instruction by address, so an instruction the lifter refuses as unsupported is a failure
//! (the generator emits only what the lifter takes).

use crate::fuzz::{Campaign, Driver, FuzzIsa};
use std::collections::BTreeSet;
use wavejit_ir::{Function, StateLayout};
use wavejit_isa::LiftError;
use wavejit_runtime::solo::{hex, Solo};
use wavejit_runtime::GuestMemory;
use wavejit_terascale::inst::{CfInst, ClauseBody, Program};
use wavejit_terascale::launch::wave_size;
use wavejit_terascale::lift::state::GDS_BYTES;
use wavejit_terascale::lift::{lift, scratch_lane_bytes, LiftConfig, TsLayout};
pub use wavejit_terascale::random::memory_instructions;
use wavejit_terascale::random::{self, GenOptions, InitialState, RandomProgram, GPR_ROWS};
use wavejit_terascale::tables::FetchOp;
use wavejit_terascale::{print_program, AluOp, Chip, ChipClass};

/// The `--isa` values of TeraScale campaigns: `terascale` (or `r600`: cypress and cayman
/// round-robin), a class (`evergreen`: cypress) or a chip (LLVM's aliases palm, hemlock and
/// aruba are taken too).
pub const FUZZ_NAMES: &[&str] = &[
    "terascale",
    "r600",
    "evergreen",
    "cayman",
    "cedar",
    "redwood",
    "sumo",
    "juniper",
    "cypress",
    "barts",
    "turks",
    "caicos",
    "terascale-mem",
];

/// Guest instructions one run may execute (generated loops run at most a few trips).
pub const FUEL: u64 = 200_000;
/// Guest address of the code.
pub const CODE_BASE: u64 = 0x1000;
/// Guest memory reserved for one wave.
const RESERVE: u64 = 1 << 24;

/// The campaign an `--isa` value names ([`FUZZ_NAMES`]; any of them takes the
/// [`MEMORY_SUFFIX`](crate::fuzz::MEMORY_SUFFIX), `terascale-mem` is listed): the default
/// generator, or the memory-heavy one.
pub fn campaign(isa: &str) -> Option<Box<dyn Campaign>> {
    let (name, memory) = crate::fuzz::split_isa(isa);
    let options = if memory {
        GenOptions::memory_heavy()
    } else {
        GenOptions::default()
    };
    parse_isa(&name).map(|chips| Driver::boxed(TsFuzz { chips, options }))
}

/// The chips an `--isa` value names: `terascale`/`r600` (one of each class), `evergreen`
/// (cypress) or a chip name.
pub fn parse_isa(isa: &str) -> Option<Vec<Chip>> {
    match isa.to_ascii_lowercase().as_str() {
        "terascale" | "r600" => Some(vec![Chip::Cypress, Chip::Cayman]),
        "evergreen" => Some(vec![Chip::Cypress]),
        name => Chip::from_name(name).map(|c| vec![c]),
    }
}

/// TeraScale programs for the [`Driver`].
#[derive(Clone, Debug)]
pub struct TsFuzz {
    /// Chips, used round-robin.
    pub chips: Vec<Chip>,
    pub options: GenOptions,
}

/// One differential test case: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    pub chip: Chip,
    pub seed: u64,
    pub program: RandomProgram,
    pub init: InitialState,
}

impl Case {
    pub fn new(chip: Chip, seed: u64, opts: &GenOptions) -> Result<Case, String> {
        let program = random::generate(seed, chip.class(), opts)
            .map_err(|e| format!("generator ({} seed {seed}): {e}", chip.name()))?;
        let mut init = InitialState::random(seed, wave_size(chip));
        if opts.memory_focus {
            init.set_lane_patterns(seed);
        }
        Ok(Case {
            chip,
            seed,
            program,
            init,
        })
    }
}

fn class_name(class: ChipClass) -> &'static str {
    match class {
        ChipClass::Evergreen => "evergreen",
        ChipClass::Cayman => "cayman",
    }
}

impl FuzzIsa for TsFuzz {
    type Target = Chip;
    type Case = Case;

    fn targets(&self) -> Vec<Chip> {
        self.chips.clone()
    }

    fn target_name(&self, chip: Chip) -> &'static str {
        chip.name()
    }

    fn generate(&self, chip: Chip, seed: u64) -> Result<Case, String> {
        Case::new(chip, seed, &self.options)
    }

    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        let program = case
            .program
            .lower()
            .map_err(|e| LiftError::invalid(0, "", format!("the program does not lay out: {e}")))?;
        let cfg = LiftConfig {
            chip: case.chip,
            name: format!("{}_seed{}", case.chip.name(), case.seed),
            base: CODE_BASE,
            fetch_subroutine: None,
        };
        lift(&program, &cfg)
    }

    fn without_instruction_at(&self, _case: &Case, _pc: u64) -> Option<Case> {
        None
    }

    fn reductions(&self, case: &Case) -> Vec<Case> {
        random::reductions(&case.program)
            .into_iter()
            .map(|program| Case {
                program,
                ..case.clone()
            })
            .collect()
    }

    /// The wave state from `case.init`, the pool, the constant buffers, the GDS and the
    /// textures in guest memory, the LDS from `case.init`, zeroed private segments.
    fn solo(&self, case: &Case, layout: &StateLayout) -> Result<Solo, String> {
        let st = &case.init;
        let lowered = case.program.lower().map_err(|e| format!("layout: {e}"))?;
        let lane_bytes = scratch_lane_bytes(&lowered);
        let mut solo = Solo::new(layout, RESERVE).map_err(|e| format!("guest memory: {e}"))?;
        let mem = &mut solo.mem;
        let pool_bytes = st.pool_bytes();
        let pool = mem
            .alloc_bytes(&pool_bytes, 256)
            .map_err(|e| format!("pool buffer: {e}"))?;
        let mut cbs = Vec::new();
        for b in 0..st.const_buffers.len() {
            let addr = mem
                .alloc_bytes(&st.const_buffer_bytes(b), 256)
                .map_err(|e| format!("constant buffer {b}: {e}"))?;
            cbs.push(addr);
        }
        let gds = mem
            .alloc(u64::from(GDS_BYTES), 256)
            .map_err(|e| format!("GDS: {e}"))?;
        let gds_window = st.gds_bytes();
        mem.write_bytes(gds, &gds_window)
            .map_err(|e| format!("GDS setup: {e}"))?;
        let (resources, samplers) = tex_tables(mem, st)?;
        solo.watch
            .push(("pool".into(), pool, pool_bytes.len() as u64));
        solo.watch
            .push(("gds".into(), gds, gds_window.len() as u64));
        let l = TsLayout::new(layout.wave_size);
        let w = &mut solo.state;
        for n in 0..GPR_ROWS {
            for c in 0..4 {
                for lane in 0..st.lanes {
                    w.set_lane(l.gpr(n, c), lane, st.gpr(n, c, lane));
                }
            }
        }
        let mut pair = |r: wavejit_ir::Reg, v: u64| {
            w.set_uniform(r, v as u32);
            w.set_uniform(r.offset(1), (v >> 32) as u32);
        };
        pair(l.active(), st.active);
        pair(l.pool_base(), pool);
        pair(l.gds(), gds);
        pair(l.tex_resources(), resources);
        pair(l.tex_samplers(), samplers);
        for (b, &addr) in cbs.iter().enumerate() {
            pair(l.const_buffer(b as u32), addr);
        }
        solo.lds = st.lds_bytes();
        solo.private = vec![0u8; layout.wave_size as usize * lane_bytes as usize];
        solo.private_lane_bytes = lane_bytes;
        Ok(solo)
    }

    /// The lowered program's listing; assembles with `wavejit_terascale::asm::assemble`.
    fn listing(&self, case: &Case) -> String {
        case.program
            .lower()
            .map(|p| print_program(&p).join("\n") + "\n")
            .unwrap_or_default()
    }

    /// Every GPR row the programs read, the active mask, the constant buffers, the pool, the
    /// LDS, the GDS window and the textures, as hex.
    fn state_json(&self, case: &Case) -> serde_json::Value {
        let st = &case.init;
        let gprs: serde_json::Map<String, serde_json::Value> = (0..GPR_ROWS)
            .flat_map(|n| (0..4).map(move |c| (n, c)))
            .map(|(n, c)| {
                let lanes: Vec<String> = (0..st.lanes)
                    .map(|l| format!("{:#010x}", st.gpr(n, c, l)))
                    .collect();
                (
                    format!("R{n}.{}", ['x', 'y', 'z', 'w'][c as usize]),
                    lanes.into(),
                )
            })
            .collect();
        let cbs: Vec<String> = (0..st.const_buffers.len())
            .map(|b| hex(&st.const_buffer_bytes(b)))
            .collect();
        let texels: Vec<String> = st
            .texels
            .iter()
            .map(|t| hex(&t.iter().flat_map(|d| d.to_le_bytes()).collect::<Vec<u8>>()))
            .collect();
        serde_json::json!({
            "class": class_name(case.chip.class()),
            "chip": case.chip.name(),
            "active": format!("{:#018x}", st.active),
            "gprs": gprs,
            "const_buffers_hex": cbs,
            "pool_hex": hex(&st.pool_bytes()),
            "lds_hex": hex(&st.lds_bytes()),
            "gds_hex": hex(&st.gds_bytes()),
            "texels_hex": texels,
            "note": "the pool is fetch buffer 1 and RAT 0 (pool_base); the LDS starts at byte 0; \
                     gds_hex is the start of the 64 KiB GDS (the rest is zero); scratch starts zero; \
                     memory profile: R28 holds the lane patterns (random::InitialState::set_lane_patterns)",
        })
    }

    fn instructions(&self, case: &Case) -> usize {
        case.program.instructions()
    }

    fn forms(&self, case: &Case) -> Vec<String> {
        case.program
            .lower()
            .map(|p| forms(&p).into_iter().collect())
            .unwrap_or_default()
    }

    fn fuel(&self) -> u64 {
        FUEL
    }
}

/// The textures of `st` ([`random::TEXTURES`], 256-byte aligned) and the resource and sampler
/// tables naming them; returns the tables' guest addresses.
fn tex_tables(mem: &mut GuestMemory, st: &InitialState) -> Result<(u64, u64), String> {
    let mut resources = Vec::new();
    for (t, texels) in random::TEXTURES.iter().zip(&st.texels) {
        let bytes: Vec<u8> = texels.iter().flat_map(|d| d.to_le_bytes()).collect();
        let base = mem
            .alloc_bytes(&bytes, 256)
            .map_err(|e| format!("texture: {e}"))?;
        resources.extend(t.resource_words(base).iter().flat_map(|d| d.to_le_bytes()));
    }
    let samplers: Vec<u8> = random::SAMPLERS
        .iter()
        .flatten()
        .flat_map(|d| d.to_le_bytes())
        .collect();
    let r = mem
        .alloc_bytes(&resources, 256)
        .map_err(|e| format!("resource table: {e}"))?;
    let s = mem
        .alloc_bytes(&samplers, 256)
        .map_err(|e| format!("sampler table: {e}"))?;
    Ok((r, s))
}

/// The instruction forms a program contains: its CF instructions (ALU_EXTENDED and RAT
/// instructions by form), fetch-clause instructions, and the ALU forms that name a feature
/// rather than a value op (LDS, flags, the CF index writes and reads, indexed resources).
fn forms(p: &Program) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in &p.cf {
        match e.inst {
            CfInst::Word(w) => {
                out.insert(w.op.name().to_string());
            }
            CfInst::Alu(a) => {
                out.insert(a.op.name().to_string());
                if let Some(x) = a.ext {
                    out.insert("ALU_EXTENDED".into());
                    if x.bank_index_mode.iter().any(|&m| m != 0) {
                        out.insert("KCACHE_BANK_INDEX_MODE".into());
                    }
                }
            }
            CfInst::Mem(m) => match m.rat {
                Some(r) => {
                    out.insert(format!("{} {}", m.op.name(), r.inst.name()));
                    if m.burst_count > 0 {
                        out.insert(format!("{} burst", m.op.name()));
                    }
                }
                None => {
                    out.insert(m.op.name().to_string());
                }
            },
        }
    }
    for c in &p.clauses {
        match &c.body {
            ClauseBody::Fetch(f) => {
                for f in f {
                    out.insert(f.op.name().to_string());
                    if f.op == FetchOp::VTX_FETCH && (f.words[2] >> 21) & 3 != 0 {
                        out.insert("BUFFER_INDEX_MODE".into());
                    }
                }
            }
            ClauseBody::Alu(groups) => {
                for i in groups.iter().flat_map(|g| &g.insts) {
                    let name = match i.op {
                        AluOp::MOVA_INT => match i.mova_dst(p.class) {
                            Some(2 | 3) => "MOVA_INT to CF_IDX",
                            Some(4..=7) => "MOVA_INT to CLAUSE_GLOBAL",
                            _ => "MOVA_INT",
                        },
                        AluOp::LDS_IDX_OP
                        | AluOp::SET_CF_IDX0
                        | AluOp::SET_CF_IDX1
                        | AluOp::STORE_FLAGS
                        | AluOp::LOAD_STORE_FLAGS
                        | AluOp::GROUP_BARRIER => i.op.name(),
                        _ => "",
                    };
                    if !name.is_empty() {
                        out.insert(name.to_string());
                    }
                    if i.src.iter().any(|s| s.sel == 225) && p.class == ChipClass::Cayman {
                        out.insert("CLAUSE_GLOBAL read".into());
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fuzz_name_names_a_campaign() {
        for name in FUZZ_NAMES {
            assert!(campaign(name).is_some(), "{name}");
        }
        for chip in Chip::ALL {
            assert!(FUZZ_NAMES.contains(&chip.name()), "{}", chip.name());
            assert!(campaign(&format!("{}-mem", chip.name())).is_some());
        }
        assert!(campaign("gfx9-mem").is_none());
        assert_eq!(parse_isa("hemlock"), Some(vec![Chip::Cypress]));
        assert!(campaign("gfx9").is_none());
    }
}
