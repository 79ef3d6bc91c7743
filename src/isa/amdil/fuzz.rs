//! The AMD IL part of differential fuzzing ([`crate::fuzz`] is the driver and its policy): the
//! seeded random compute programs of [`wavejit_amdil::random`] (every ALU form the lifter
//! takes with random swizzles and modifiers, structured control flow, raw UAV and LDS
//! accesses, fences) on one wave, from [`wavejit_amdil::random::InitialState::random`]. The
//! targets are the wave sizes: `wave64` (every r600-family and GCN chip but cedar) and
//! `wave32` (cedar), lifted with [`wavejit_amdil::lift::lift_wave`].
//!
//! The wave is the first of its work-group (lane `l` is work-item `l`), started under the
//! launch contract of [`wavejit_amdil::lift::state`]: the state's exec mask (its lanes of the
//! wave), `vTidInGrp` per
//! lane, the group's id, size and count, `cb0` at the address of a buffer of its dwords, and
//! the arena address at a buffer of [`ARENA_BYTES`] (watched as `arena`). The LDS holds
//! [`LDS_BYTES`]. Both are compared after the run, with every register cell.
//!
//! Two campaigns: `il` (mixed) and `il-mem` (mostly memory instructions, a few at addresses
//! past the arena's and the LDS's ends). Reductions are
//! [`wavejit_amdil::random::RandomProgram::reductions`]; the initial state is kept. The
//! listing is IL text that [`wavejit_amdil::parse::parse`] takes back; an instruction the
//! lifter refuses is a failure.

use crate::fuzz::{Campaign, Driver, FuzzIsa};
use wavejit_amdil::lift;
use wavejit_amdil::lift::state::{grid, IlLayout};
use wavejit_amdil::random::{
    self, GenOptions, InitialState, RandomProgram, ARENA_BYTES, ARRAY, CB, LDS_BYTES,
};
use wavejit_ir::{Function, StateLayout};
use wavejit_isa::{LiftError, RegSink};
use wavejit_runtime::solo::{hex, Solo};

/// The `--isa` values of IL campaigns.
pub const FUZZ_NAMES: &[&str] = &["il", "il-mem"];

/// Guest instructions one run may execute (loops run at most three trips, nest at most three
/// deep).
pub const FUEL: u64 = 200_000;
/// The wave sizes, in round-robin order.
pub const WAVE_SIZES: [u32; 2] = [64, 32];
/// Guest memory reserved for one wave.
const RESERVE: u64 = 1 << 20;

/// The campaign an `--isa` value names.
pub fn campaign(isa: &str) -> Option<Box<dyn Campaign>> {
    let (name, memory) = crate::fuzz::split_isa(isa);
    (name == "il").then(|| {
        Driver::boxed(IlFuzz {
            options: GenOptions {
                memory_focus: memory,
            },
        })
    })
}

/// IL programs for the [`Driver`].
pub struct IlFuzz {
    pub options: GenOptions,
}

/// One differential test case.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub wave_size: u32,
    pub program: RandomProgram,
    pub init: InitialState,
}

impl FuzzIsa for IlFuzz {
    /// The wave size.
    type Target = u32;
    type Case = Case;

    fn targets(&self) -> Vec<u32> {
        WAVE_SIZES.to_vec()
    }

    fn target_name(&self, wave_size: u32) -> &'static str {
        if wave_size == 32 {
            "wave32"
        } else {
            "wave64"
        }
    }

    fn generate(&self, wave_size: u32, seed: u64) -> Result<Case, String> {
        Ok(Case {
            seed,
            wave_size,
            program: random::generate(seed, &self.options),
            init: InitialState::random(seed),
        })
    }

    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        let name = format!("il_seed{}", case.seed);
        lift::lift_wave(&case.program.program(), &name, case.wave_size)
    }

    fn without_instruction_at(&self, _case: &Case, _pc: u64) -> Option<Case> {
        None
    }

    fn reductions(&self, case: &Case) -> Vec<Case> {
        case.program
            .reductions()
            .into_iter()
            .map(|program| Case {
                program,
                ..case.clone()
            })
            .collect()
    }

    fn solo(&self, case: &Case, layout: &StateLayout) -> Result<Solo, String> {
        let l = lift::layout(&case.program.program(), case.wave_size).map_err(|e| e.to_string())?;
        if l.layout != *layout {
            return Err("the program's layout is not the lifted function's".into());
        }
        let st = &case.init;
        let mut solo = Solo::new(layout, RESERVE).map_err(|e| format!("guest memory: {e}"))?;
        let arena = solo
            .mem
            .alloc_bytes(&st.arena, 256)
            .map_err(|e| format!("arena: {e}"))?;
        solo.watch
            .push(("arena".into(), arena, u64::from(ARENA_BYTES)));
        let cb: Vec<u8> = st.cb.iter().flat_map(|w| w.to_le_bytes()).collect();
        let cb = solo
            .mem
            .alloc_bytes(&cb, 256)
            .map_err(|e| format!("cb{CB}: {e}"))?;
        let w = &mut solo.state;
        w.set_uniform64(l.arena(), arena);
        w.set_uniform64(l.const_buffer(CB), cb);
        let lanes = u64::MAX >> (64 - case.wave_size);
        w.set_uniform64(l.exec(), st.exec & lanes);
        launch_grid(&l, st, case.wave_size, w);
        for (cell, row) in st.temps.iter().enumerate() {
            let (n, c) = (cell as u32 / 4, cell as u32 % 4);
            if n < l.temps {
                w.set_row(l.temp(n, c), row);
            }
        }
        if let Some(&(file, len)) = l.arrays.get(&ARRAY) {
            for (cell, row) in st.array.iter().enumerate().take(4 * len as usize) {
                w.set_row(wavejit_ir::Reg::new(file, cell as u32), row);
            }
        }
        solo.lds = st.lds.clone();
        debug_assert_eq!(solo.lds.len(), LDS_BYTES as usize);
        Ok(solo)
    }

    /// The program as IL text; [`wavejit_amdil::parse::parse`] reads it back.
    fn listing(&self, case: &Case) -> String {
        case.program.listing()
    }

    fn state_json(&self, case: &Case) -> serde_json::Value {
        let st = &case.init;
        let lanes =
            |row: &[u32]| -> Vec<String> { row.iter().map(|v| format!("{v:#010x}")).collect() };
        let cells = |rows: &[[u32; random::LANES]], name: &dyn Fn(usize) -> String| {
            rows.iter()
                .enumerate()
                .map(|(cell, row)| {
                    let key = format!("{}.{}", name(cell / 4), ['x', 'y', 'z', 'w'][cell % 4]);
                    (key, lanes(row).into())
                })
                .collect::<serde_json::Map<String, serde_json::Value>>()
        };
        serde_json::json!({
            "exec": format!("{:#018x}", st.exec),
            "temps": cells(&st.temps, &|n| format!("r{n}")),
            "x0": cells(&st.array, &|e| format!("x{ARRAY}[{e}]")),
            "group_id": st.group_id,
            "group_size": st.group_size,
            "groups": st.groups,
            "cb0": lanes(&st.cb),
            "arena_hex": hex(&st.arena),
            "lds_hex": hex(&st.lds),
            "wave_size": case.wave_size,
            "note": "exec's lanes past the wave size are not set; the wave is the first of its group, \
                     lane l work-item l; the arena and cb0 addresses are set at run time",
        })
    }

    fn instructions(&self, case: &Case) -> usize {
        case.program.instructions()
    }

    fn forms(&self, case: &Case) -> Vec<String> {
        case.program.forms()
    }

    fn fuel(&self) -> u64 {
        FUEL
    }
}

/// The `grid` cells and `vTidInGrp` of the state's work-group.
fn launch_grid(l: &IlLayout, st: &InitialState, wave_size: u32, w: &mut dyn RegSink) {
    for c in 0..3 {
        w.set_uniform(l.grid(grid::GROUP_ID + c), st.group_id[c as usize]);
        w.set_uniform(l.grid(grid::GROUP_SIZE + c), st.group_size[c as usize]);
        w.set_uniform(l.grid(grid::GROUPS + c), st.groups[c as usize]);
    }
    for lane in 0..wave_size {
        for (c, v) in st.tid(lane).into_iter().enumerate() {
            w.set_lane(l.tid(c as u32), lane, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuzz_names_name_campaigns() {
        for name in FUZZ_NAMES {
            assert!(campaign(name).is_some(), "{name}");
        }
        assert!(campaign("g13").is_none());
    }
}
