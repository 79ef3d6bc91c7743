//! `wavejit run --stats PATH`: what one run did and where its time went, as one JSON object
//! (a contract: scripts read it).
//!
//! ```json
//! {"kernel": "saxpy", "target": "gfx900", "isa": "gcn", "engine": "jit", "threads": 2,
//!  "workgroups": 16, "waves": 64, "guest_instructions": 1408, "lane_instructions": 90112,
//!  "seconds": {"load": 0.0004, "lift": 0.0011, "compile": 0.0032, "execute": 0.0019}}
//! ```
//! - `guest_instructions`: machine instructions executed, summed over waves (each wave counts
//!   the instructions of the blocks it ran, as its fuel does).
//! - `lane_instructions`: each wave's guest instructions times the lanes of that wave holding
//!   work-items (a partial wave at the edge of the grid counts only its work-items; lanes the
//!   program itself masks off still count).
//! - `seconds`: `load` reads the file and places the arguments and the ABI's data, `lift`
//!   decodes and lifts the kernel, `compile` prepares it on the engine (the JIT's first tier;
//!   later tiers compile while executing), `execute` is the dispatch.

use crate::frontend::Module;
use crate::launch::Prepared;
use crate::{EngineKind, Error, Result};
use serde::Serialize;
use std::path::Path;
use wavejit_runtime::DispatchStats;

/// The figures of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunStats {
    pub kernel: String,
    pub target: String,
    pub isa: String,
    pub engine: String,
    pub threads: usize,
    pub workgroups: u64,
    pub waves: u64,
    pub guest_instructions: u64,
    pub lane_instructions: u64,
    pub seconds: Seconds,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Seconds {
    pub load: f64,
    pub lift: f64,
    pub compile: f64,
    pub execute: f64,
}

impl RunStats {
    /// The figures of `prepared`'s `dispatch`; `load` is the time the file took to load,
    /// `execute` the dispatch's.
    pub fn new(
        module: &dyn Module,
        prepared: &Prepared,
        dispatch: &DispatchStats,
        engine: EngineKind,
        load: f64,
        execute: f64,
    ) -> RunStats {
        let t = prepared.timings;
        RunStats {
            kernel: prepared.kernel.clone(),
            target: module.target().name.clone(),
            isa: module.target().isa.to_string(),
            engine: engine.name().to_string(),
            threads: prepared.threads(),
            workgroups: dispatch.workgroups,
            waves: dispatch.waves,
            guest_instructions: dispatch.guest_insts,
            lane_instructions: dispatch.lane_insts,
            seconds: Seconds {
                load: load + t.load,
                lift: t.lift,
                compile: t.compile,
                execute,
            },
        }
    }

    /// Writes the JSON object to `path` (`-`: standard output), one line.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self).map_err(|e| Error::Other(e.to_string()))?;
        if path == Path::new("-") {
            println!("{text}");
            return Ok(());
        }
        std::fs::write(path, format!("{text}\n")).map_err(|e| Error::io(path, e))
    }
}
