//! The G13 part of differential fuzzing ([`crate::fuzz`] is the driver and its policy): the
//! seeded random programs of [`wavejit_g13::random`] (ALU forms with random operands and
//! modifiers, if/else regions with forward `jmp_exec_none`, Mesa-shaped loops with
//! `jmp_exec_any` and breaks through r0l, SIMD-group and quad operations, device and
//! threadgroup memory and atomics) on one SIMD-group, from
//! [`wavejit_g13::random::InitialState::random`].
//!
//! The wave's memories: the device buffer ([`BUFFER_BYTES`], u0_u1 pointing at its middle;
//! watched as `buffer`), the threadgroup memory ([`THREADGROUP_BYTES`]) and no stack. Both
//! are compared after the run. The wave is SIMD-group 0 of a 32-thread threadgroup, its
//! exec and live masks the state's.
//!
//! Two campaigns: `g13` (mixed) and `g13-mem` (mostly memory instructions). Reductions are
//! [`wavejit_g13::random::RandomProgram::reductions`]; the initial state is kept. Programs
//! are built only of lines the assembler takes, and an instruction the lifter refuses is a
//! failure.

use crate::fuzz::{Campaign, Driver, FuzzIsa};
use wavejit_g13::lift::state::G13Layout;
use wavejit_g13::random::{
    self, GenOptions, InitialState, RandomProgram, BUFFER_BYTES, THREADGROUP_BYTES,
};
use wavejit_ir::{Function, StateLayout};
use wavejit_isa::LiftError;
use wavejit_runtime::solo::{hex, Solo};

/// The `--isa` values of G13 campaigns.
pub const FUZZ_NAMES: &[&str] = &["g13", "g13-mem"];

/// Guest instructions one run may execute (loops run at most a few trips).
pub const FUEL: u64 = 100_000;
/// Guest memory reserved for one wave.
const RESERVE: u64 = 1 << 20;

/// The campaign an `--isa` value names.
pub fn campaign(isa: &str) -> Option<Box<dyn Campaign>> {
    let (name, memory) = crate::fuzz::split_isa(isa);
    (name == "g13").then(|| {
        Driver::boxed(G13Fuzz {
            options: GenOptions {
                memory_focus: memory,
            },
        })
    })
}

/// G13 programs for the [`Driver`].
pub struct G13Fuzz {
    pub options: GenOptions,
}

/// One differential test case.
#[derive(Clone, Debug)]
pub struct Case {
    pub seed: u64,
    pub program: RandomProgram,
    pub init: InitialState,
}

impl FuzzIsa for G13Fuzz {
    type Target = ();
    type Case = Case;

    fn targets(&self) -> Vec<()> {
        vec![()]
    }

    fn target_name(&self, _: ()) -> &'static str {
        "g13"
    }

    fn generate(&self, _: (), seed: u64) -> Result<Case, String> {
        Ok(Case {
            seed,
            program: random::generate(seed, &self.options),
            init: InitialState::random(seed),
        })
    }

    fn lift(&self, case: &Case) -> Result<Function, LiftError> {
        let code = case.program.code().map_err(|e| {
            LiftError::invalid(0, "", format!("the listing does not assemble: {e}"))
        })?;
        wavejit_g13::lift::lift(&code, 0, &format!("g13_seed{}", case.seed))
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
        let st = &case.init;
        let mut solo = Solo::new(layout, RESERVE).map_err(|e| format!("guest memory: {e}"))?;
        let buffer = solo
            .mem
            .alloc_bytes(&st.buffer, 256)
            .map_err(|e| format!("buffer: {e}"))?;
        solo.watch
            .push(("buffer".into(), buffer, u64::from(BUFFER_BYTES)));
        let l = G13Layout::new();
        let w = &mut solo.state;
        for (r, row) in st.gprs.iter().enumerate() {
            for (lane, &v) in row.iter().enumerate() {
                w.set_lane(l.gpr(r as u32), lane as u32, v);
            }
        }
        let middle = buffer + u64::from(BUFFER_BYTES / 2);
        let mut uniforms = st.uniforms;
        uniforms[0] = middle as u32;
        uniforms[1] = (middle >> 32) as u32;
        for (u, &v) in uniforms.iter().enumerate() {
            w.set_uniform(l.uniform(u as u32), v);
        }
        for reg in [l.exec(), l.live()] {
            w.set_uniform(reg, st.exec);
        }
        wavejit_g13::launch::lone_wave(&l, THREADGROUP_BYTES, w);
        solo.lds = st.threadgroup.clone();
        Ok(solo)
    }

    /// The listing; assembles with `wavejit_g13::asm::assemble`.
    fn listing(&self, case: &Case) -> String {
        case.program.listing()
    }

    fn state_json(&self, case: &Case) -> serde_json::Value {
        let st = &case.init;
        let gprs: serde_json::Map<String, serde_json::Value> = st
            .gprs
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let lanes: Vec<String> = row.iter().map(|v| format!("{v:#010x}")).collect();
                (format!("r{r}"), lanes.into())
            })
            .collect();
        let uniforms: Vec<String> = st.uniforms.iter().map(|v| format!("{v:#010x}")).collect();
        serde_json::json!({
            "exec": format!("{:#010x}", st.exec),
            "gprs": gprs,
            "uniforms_u0_u15": uniforms,
            "buffer_hex": hex(&st.buffer),
            "threadgroup_hex": hex(&st.threadgroup),
            "note": "u0_u1 = the buffer's guest address + BUFFER_BYTES / 2 (set at run time); \
                     the wave is SIMD-group 0 of a 32-thread threadgroup; live = exec",
        })
    }

    fn instructions(&self, case: &Case) -> usize {
        case.program.instructions()
    }

    fn forms(&self, case: &Case) -> Vec<String> {
        let mut forms: Vec<String> = case
            .program
            .listing()
            .lines()
            .filter(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect();
        forms.sort();
        forms.dedup();
        forms
    }

    fn fuel(&self) -> u64 {
        FUEL
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
        assert!(campaign("gcn").is_none());
    }
}
