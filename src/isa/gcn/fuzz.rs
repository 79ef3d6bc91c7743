//! The GCN part of differential fuzzing ([`crate::fuzz`] is the driver and its policy):
//! seeded random programs of [`wavejit_gcn::random`] on one wave64 that starts from
//! [`InitState::random_for`], with the global buffer (watched as `buffer`) and the LDS
//! compared as well as the registers.
//!
//! Two campaigns per generation set: the mixed one (`gcn`, `gfx9`, ...) and the memory-heavy
//! one (the same name with `-mem`: `gcn-mem`, `gfx9-mem`, ...), whose programs are mostly
//! memory instructions on edge address patterns ([`GenConfig::memory_heavy`]); a campaign's
//! report lists the memory mnemonics its programs contain ([`FuzzIsa::forms`]). A memory-heavy
//! case has a second buffer of [`BUFFER_BYTES`] that ends exactly where the buffer starts
//! (watched as `below`): an access just before the buffer lands in it, one that straddles the
//! two faults (an access must lie inside one buffer), and the lanes of one instruction may
//! address both. It also has private segments of [`BUFFER_BYTES`] per lane (lane `l`'s starts
//! as the buffer's bytes XOR `l`), for the SCRATCH accesses.
//!
//! Reductions, biggest first: drop runs of items (ddmin's halving schedule,
//! [`chunk_removals`]; every remaining branch keeps its target, a branch into a dropped run
//! lands after it), replace a literal or inline float operand by the inline integer 0 or 1
//! and an inline integer by 0, then simplify the initial state (EXEC all ones, VCC 0, the
//! default float mode, M0 0, one VGPR row zeroed). Only cases that still lay out are offered.

use crate::fuzz::{Campaign, Driver, FuzzIsa};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use wavejit_gcn::lift::{lift, GcnLayout, LiftConfig};
use wavejit_gcn::random::{self, GenConfig, InitState, Item, Profile, RandomProgram, BUFFER_BYTES};
use wavejit_gcn::tables::Family;
use wavejit_gcn::{Gen, Operand};
use wavejit_ir::{Function, StateLayout};
use wavejit_isa::shrink::chunk_removals;
use wavejit_isa::LiftError;
use wavejit_runtime::solo::{hex, Solo};

/// The `--isa` values of GCN campaigns: all generations round-robin, or one; `gcn-mem` is the
/// memory-heavy campaign (any of the others with `-mem` too, e.g. `gfx9-mem`).
pub const FUZZ_NAMES: &[&str] = &["gcn", "gfx6", "gfx7", "gfx8", "gfx9", "gcn-mem"];

/// Guest instructions one run may execute (generated loops need a few hundred).
pub const FUEL: u64 = 20_000;
/// Guest address of the code (only `s_getpc_b64` sees it).
pub const CODE_BASE: u64 = 0x10_0000;
/// Guest memory reserved for one wave (the buffer is all it holds).
const RESERVE: u64 = 1 << 20;

/// The campaign an `--isa` value names ([`FUZZ_NAMES`]): the default generator, or with the
/// [`MEMORY_SUFFIX`](crate::fuzz::MEMORY_SUFFIX) the memory-heavy one.
pub fn campaign(isa: &str) -> Option<Box<dyn Campaign>> {
    let (name, memory) = crate::fuzz::split_isa(isa);
    let config = if memory {
        GenConfig::memory_heavy()
    } else {
        GenConfig::default()
    };
    parse_isa(&name).map(|gens| Driver::boxed(GcnFuzz { gens, config }))
}

/// The generations an `--isa` value names: `gcn` (all, round-robin) or `gfx6`..`gfx9`.
pub fn parse_isa(isa: &str) -> Option<Vec<Gen>> {
    match isa.to_ascii_lowercase().as_str() {
        "gcn" => Some(Gen::ALL.to_vec()),
        name => Gen::ALL
            .into_iter()
            .find(|g| g.name() == name)
            .map(|g| vec![g]),
    }
}

/// GCN programs for the [`Driver`].
#[derive(Clone, Debug)]
pub struct GcnFuzz {
    /// Generations, used round-robin.
    pub gens: Vec<Gen>,
    pub config: GenConfig,
}

/// One differential test case: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    pub gen: Gen,
    pub seed: u64,
    pub items: Vec<Item>,
    pub init: InitState,
    /// Initial contents of the global buffer and of the LDS.
    pub buffer: Vec<u8>,
    pub lds: Vec<u8>,
    /// Memory profile: the initial contents of the buffer adjacent below `buffer` (empty:
    /// none).
    pub below: Vec<u8>,
    /// Memory profile: bytes of each lane's private segment (0: no private memory).
    pub private_lane_bytes: u32,
}

impl Case {
    /// The generated case of `seed`.
    pub fn new(gen: Gen, seed: u64, cfg: &GenConfig) -> Result<Case, String> {
        let p = random::generate(gen, seed, cfg)
            .map_err(|e| format!("generator ({} seed {seed}): {e}", gen.name()))?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x00b0_ffe4);
        let mut bytes = |n: u32| (0..n).map(|_| rng.gen::<u8>()).collect::<Vec<u8>>();
        let buffer = bytes(BUFFER_BYTES);
        let lds = bytes(BUFFER_BYTES);
        let memory = cfg.profile == Profile::Memory;
        let below = if memory {
            bytes(BUFFER_BYTES)
        } else {
            Vec::new()
        };
        Ok(Case {
            gen,
            seed,
            items: p.items,
            init: InitState::random_for(seed, cfg.profile),
            buffer,
            lds,
            below,
            private_lane_bytes: if memory { BUFFER_BYTES } else { 0 },
        })
    }

    /// The laid-out program (`None` if an edited case no longer encodes).
    pub fn program(&self) -> Option<RandomProgram> {
        random::layout(self.gen, self.items.clone()).ok()
    }

    fn lift_config(&self) -> LiftConfig {
        LiftConfig {
            gen: self.gen,
            float_mode: self.init.float_mode,
            ieee_mode: self.init.ieee_mode,
            dx10_clamp: self.init.dx10_clamp,
            base: CODE_BASE,
            name: format!("{}_seed{}", self.gen.name(), self.seed),
        }
    }

    /// The case without items `start..end`: a branch to a later item keeps its target, a
    /// branch into the dropped run goes to the item after it.
    pub fn without(&self, start: usize, end: usize) -> Case {
        let mut c = self.clone();
        c.items.drain(start..end);
        let n = end - start;
        for t in c.items.iter_mut().filter_map(|it| it.target.as_mut()) {
            if *t >= end {
                *t -= n;
            } else if *t > start {
                *t = start;
            }
        }
        c
    }

    /// The case with `edit` applied to its initial state, if that changes it.
    fn with_init(&self, edit: impl FnOnce(&mut InitState)) -> Option<Case> {
        let mut c = self.clone();
        edit(&mut c.init);
        (c.init != self.init).then_some(c)
    }
}

impl FuzzIsa for GcnFuzz {
    type Target = Gen;
    type Case = Case;

    fn targets(&self) -> Vec<Gen> {
        self.gens.clone()
    }

    fn target_name(&self, gen: Gen) -> &'static str {
        gen.name()
    }

    fn generate(&self, gen: Gen, seed: u64) -> Result<Case, String> {
        Case::new(gen, seed, &self.config)
    }

    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        let Some(p) = case.program() else {
            return Err(LiftError::invalid(0, "", "the program does not lay out"));
        };
        lift(&p.code, &case.lift_config())
    }

    fn without_instruction_at(&self, case: &Case, pc: u64) -> Option<Case> {
        let i = case.program()?.item_at(pc)?;
        Some(case.without(i, i + 1))
    }

    fn reductions(&self, case: &Case) -> Vec<Case> {
        let mut out: Vec<Case> = chunk_removals(case.items.len())
            .into_iter()
            .map(|(a, b)| case.without(a, b))
            .collect();
        for (i, it) in case.items.iter().enumerate() {
            for (k, o) in it.inst.operands.iter().enumerate() {
                let simpler: &[Operand] = match o.value {
                    Operand::Literal(_) | Operand::InlineFloat(_) => {
                        &[Operand::InlineInt(0), Operand::InlineInt(1)]
                    }
                    Operand::InlineInt(v) if v != 0 => &[Operand::InlineInt(0)],
                    _ => &[],
                };
                for &v in simpler {
                    let mut c = case.clone();
                    c.items[i].inst.operands[k].value = v;
                    out.push(c);
                }
            }
        }
        out.retain(|c| c.program().is_some());
        let edits: [fn(&mut InitState); 4] = [
            |s| s.exec = u64::MAX,
            |s| s.vcc = 0,
            |s| s.float_mode = 0xf0,
            |s| s.m0 = 0,
        ];
        out.extend(edits.into_iter().filter_map(|e| case.with_init(e)));
        for r in 0..case.init.vgprs.len() {
            out.extend(case.with_init(|s| s.vgprs[r] = [0; 64]));
        }
        out
    }

    /// The registers of `case.init` (with the buffer registers pointing at the buffer), the
    /// global buffer (watched as `buffer`), the buffer below it if the case has one (watched
    /// as `below`), the LDS and the private segments if the case has them.
    fn solo(&self, case: &Case, layout: &StateLayout) -> Result<Solo, String> {
        let mut solo = Solo::new(layout, RESERVE).map_err(|e| e.to_string())?;
        let buffer = if case.below.is_empty() {
            solo.mem.alloc_bytes(&case.buffer, 256)
        } else {
            let below = solo
                .mem
                .alloc_bytes(&case.below, 256)
                .map_err(|e| format!("buffer below: {e}"))?;
            solo.watch
                .push(("below".into(), below, case.below.len() as u64));
            let at = below + case.below.len() as u64;
            solo.mem.alloc_at(at, &case.buffer).map(|_| at)
        }
        .map_err(|e| format!("buffer: {e}"))?;
        solo.watch
            .push(("buffer".into(), buffer, case.buffer.len() as u64));
        solo.lds = case.lds.clone();
        solo.private_lane_bytes = case.private_lane_bytes;
        solo.private = (0..64u8)
            .flat_map(|l| {
                case.buffer
                    .iter()
                    .cycle()
                    .take(case.private_lane_bytes as usize)
                    .map(move |b| b ^ l)
            })
            .collect();
        let mut init = case.init.clone();
        init.set_buffers(buffer);
        let g = GcnLayout::new();
        let s = &mut solo.state;
        for (n, v) in init.sgprs.iter().enumerate() {
            s.set_uniform(g.sgpr(n as u32), *v);
        }
        for (n, row) in init.vgprs.iter().enumerate() {
            for (l, v) in row.iter().enumerate() {
                s.set_lane(g.vgpr(n as u32), l as u32, *v);
            }
        }
        s.set_uniform(g.exec(), init.exec as u32);
        s.set_uniform(g.exec().offset(1), (init.exec >> 32) as u32);
        s.set_uniform(g.vcc(), init.vcc as u32);
        s.set_uniform(g.vcc().offset(1), (init.vcc >> 32) as u32);
        s.set_uniform(g.scc(), init.scc as u32);
        s.set_uniform(g.m0(), init.m0);
        Ok(solo)
    }

    /// LLVM syntax with `L<item>` labels; assembles with [`wavejit_gcn::assemble`].
    fn listing(&self, case: &Case) -> String {
        case.program().map(|p| p.text()).unwrap_or_default()
    }

    fn state_json(&self, case: &Case) -> serde_json::Value {
        let s = &case.init;
        let vgprs: serde_json::Map<String, serde_json::Value> = s
            .vgprs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.iter().any(|&v| v != 0))
            .map(|(n, r)| {
                (
                    format!("v{n}"),
                    serde_json::json!(r.iter().map(|v| format!("{v:#010x}")).collect::<Vec<_>>()),
                )
            })
            .collect();
        serde_json::json!({
            "gen": case.gen.name(),
            "float_mode": format!("{:#04x}", s.float_mode),
            "ieee_mode": s.ieee_mode,
            "dx10_clamp": s.dx10_clamp,
            "exec": format!("{:#018x}", s.exec),
            "vcc": format!("{:#018x}", s.vcc),
            "scc": s.scc,
            "m0": format!("{:#010x}", s.m0),
            "sgprs": s.sgprs.iter().map(|v| format!("{v:#010x}")).collect::<Vec<_>>(),
            "vgprs": vgprs,
            "buffer_hex": hex(&case.buffer),
            "below_hex": hex(&case.below),
            "private_lane_bytes": case.private_lane_bytes,
            "lds_hex": hex(&case.lds),
            "note": "s[86:87] and v[40:41] hold the buffer address, v42 the lane's LDS offset; \
                     memory profile: v[57:63] the patterns' offsets, v[43:56] the patterns' \
                     addresses (buffer + offset), s[88:89] the guard mask, s[92:95] and s[96:99] \
                     the buffer resources (random::InitState::set_buffers); below_hex, when not \
                     empty, is a buffer ending where the buffer starts; each lane's private \
                     segment (private_lane_bytes, 0: none) starts as the buffer's bytes XOR the \
                     lane number",
        })
    }

    fn instructions(&self, case: &Case) -> usize {
        case.items.len()
    }

    /// The mnemonics of the program's memory instructions.
    fn forms(&self, case: &Case) -> Vec<String> {
        memory_mnemonics(&case.items)
            .into_iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    }

    fn fuel(&self) -> u64 {
        FUEL
    }
}

/// The mnemonic of every memory instruction (scalar, MUBUF, MTBUF, DS, FLAT, GLOBAL, SCRATCH)
/// of `items`, in order, repeats included.
pub fn memory_mnemonics(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter(|it| {
            matches!(
                it.inst.info.family,
                Family::Smrd
                    | Family::Smem
                    | Family::Mubuf
                    | Family::Mtbuf
                    | Family::Ds
                    | Family::Flat
                    | Family::Global
                    | Family::Scratch
            )
        })
        .map(|it| it.inst.info.name(it.inst.gen).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fuzz_name_names_a_campaign() {
        for name in FUZZ_NAMES {
            assert!(campaign(name).is_some(), "{name}");
        }
        assert!(campaign("gfx10").is_none());
        assert!(campaign("gfx10-mem").is_none());
        assert!(campaign("GFX8-MEM").is_some());
        assert_eq!(parse_isa("GFX8"), Some(vec![Gen::Gfx8]));
    }

    #[test]
    fn dropping_items_keeps_branch_targets() {
        let case = Case::new(Gen::Gfx9, 3, &GenConfig::default()).expect("generates");
        let n = case.items.len();
        assert!(case.items.iter().any(|it| it.target.is_some()));
        for (a, b) in chunk_removals(n) {
            let c = case.without(a, b);
            let kept = (0..a).chain(b..n);
            for (old, new) in kept.map(|i| &case.items[i]).zip(&c.items) {
                assert_eq!(old.inst, new.inst);
                let want = old.target.map(|t| match t {
                    t if t >= b => t - (b - a),
                    t if t > a => a,
                    t => t,
                });
                assert_eq!(new.target, want, "dropping {a}..{b}");
            }
        }
    }
}
