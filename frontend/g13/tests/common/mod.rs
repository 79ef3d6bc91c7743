//! One G13 SIMD-group run alone on both engines, for the semantics tests.
//!
//! A [`Wave`] is the start state: general registers lane by lane, uniform registers, the exec
//! mask (the live mask is every lane), and the geometry `get_sr` reads as `wavejit wave` sets
//! it for a lone wave (SIMD-group 0 of threadgroup (0, 0, 0), 32 threads along x, lane l at
//! thread position (l, 0, 0)). [`Wave::run`] lifts the code (entered at 0) and runs it on the
//! reference interpreter and on the JIT through the runtime's single-wave runner; the two
//! must end normally and agree on every register cell, else the error says how they did not.
#![allow(dead_code)]

use std::sync::{Arc, OnceLock};
use wavejit_g13::lift::state::G13Layout;
use wavejit_jit::Jit;
use wavejit_runtime::solo::{self, End, Solo};
use wavejit_runtime::{Interpreter, WaveState};

pub const LANES: u32 = 32;
/// Guest instructions a test program may run.
const FUEL: u64 = 100_000;

/// The JIT every test of the process shares.
pub fn jit() -> &'static Jit {
    static JIT: OnceLock<Jit> = OnceLock::new();
    JIT.get_or_init(|| Jit::new().expect("host supported by Cranelift"))
}

pub fn layout() -> &'static G13Layout {
    static L: OnceLock<G13Layout> = OnceLock::new();
    L.get_or_init(G13Layout::new)
}

/// The start of one wave.
#[derive(Clone)]
pub struct Wave {
    pub state: WaveState,
}

impl Default for Wave {
    fn default() -> Self {
        Wave::new()
    }
}

impl Wave {
    /// Registers 0, every lane active and live, the lone wave's geometry.
    pub fn new() -> Wave {
        let l = layout();
        let mut state = WaveState::new(Arc::new(l.layout.clone()));
        wavejit_g13::launch::lone_wave(l, 1024, &mut state);
        let mut w = Wave { state };
        w.set_live(u32::MAX);
        w.set_exec(u32::MAX);
        w
    }

    pub fn set_exec(&mut self, mask: u32) {
        let e = layout().exec();
        self.state.set_uniform(e, mask);
        self.state.set_uniform(e.offset(1), 0);
    }

    pub fn set_live(&mut self, mask: u32) {
        let e = layout().live();
        self.state.set_uniform(e, mask);
        self.state.set_uniform(e.offset(1), 0);
    }

    pub fn exec(&self) -> u32 {
        self.state.uniform(layout().exec())
    }

    /// rN in `lane`.
    pub fn r(&self, n: u32, lane: u32) -> u32 {
        self.state.lane(layout().gpr(n), lane)
    }

    pub fn set_r(&mut self, n: u32, lane: u32, v: u32) {
        self.state.set_lane(layout().gpr(n), lane, v)
    }

    /// rN in every lane.
    pub fn set_r_all(&mut self, n: u32, v: u32) {
        for lane in 0..LANES {
            self.set_r(n, lane, v);
        }
    }

    /// rN lane by lane from `f(lane)`.
    pub fn set_r_with(&mut self, n: u32, f: impl Fn(u32) -> u32) {
        for lane in 0..LANES {
            self.set_r(n, lane, f(lane));
        }
    }

    /// rN of every lane.
    pub fn row(&self, n: u32) -> Vec<u32> {
        (0..LANES).map(|lane| self.r(n, lane)).collect()
    }

    pub fn u(&self, n: u32) -> u32 {
        self.state.uniform(layout().uniform(n))
    }

    pub fn set_u(&mut self, n: u32, v: u32) {
        self.state.set_uniform(layout().uniform(n), v)
    }

    /// Runs `code` from offset 0 on both engines; the final state, or why there is none (the
    /// lifter refused the code, an engine failed or faulted, the engines disagree).
    pub fn run(&self, code: &[u8]) -> Result<Wave, String> {
        self.run_with_stack(code, 0).map(|(w, _)| w)
    }

    /// [`Wave::run`] with `lane_bytes` of zeroed private (stack) memory per lane; also
    /// returns the private memory after the run (lane l's at `l * lane_bytes`).
    pub fn run_with_stack(&self, code: &[u8], lane_bytes: u32) -> Result<(Wave, Vec<u8>), String> {
        let f = wavejit_g13::lift::lift(code, 0, "semantics").map_err(|e| format!("lift: {e}"))?;
        let f = Arc::new(f);
        let mut start = Solo::new(&f.layout, 0).map_err(|e| e.to_string())?;
        start.state = self.state.clone();
        start.private_lane_bytes = lane_bytes;
        start.private = vec![0; (lane_bytes * LANES) as usize];
        let (a, b, diff) = solo::run_both(&Interpreter, jit(), &f, start, FUEL);
        if let Some(d) = diff {
            let lines: Vec<&String> = d.lines.iter().take(20).collect();
            return Err(format!(
                "interpreter and JIT disagree: {}\n{lines:#?}",
                d.headline()
            ));
        }
        let private = a.memory("private").map(<[u8]>::to_vec).unwrap_or_default();
        match (&a.end, a.state, b.state) {
            (End::Done, Some(state), Some(_)) => Ok((Wave { state }, private)),
            (end, ..) => Err(format!("the run ended with {end:?}")),
        }
    }

    /// Assembles `text` (applegpu syntax) and runs it.
    pub fn run_asm(&self, text: &str) -> Result<Wave, String> {
        let p = wavejit_g13::asm::assemble(text).map_err(|e| format!("assembling: {e}"))?;
        self.run(&p.bytes)
    }

    /// [`Wave::run_asm`], panicking on an error.
    pub fn go(&self, text: &str) -> Wave {
        self.run_asm(text).unwrap_or_else(|e| panic!("{text}\n{e}"))
    }
}

/// `stop`'s bytes.
pub const STOP: [u8; 2] = [0x88, 0x00];
