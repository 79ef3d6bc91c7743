//! A lifted R5xx program run over a domain, tile by tile, on both engines, for the lifter
//! tests.
//!
//! A [`Machine`] is a [`Setup`] (program, surfaces, modes), the GPU memory's bytes, a domain
//! (one tile, (0, 0)..(15, 3), unless set), optional PE coverage masks, and temporaries set
//! lane by lane after the launch ABI (in every tile). [`Machine::run`] lifts the program,
//! then runs each tile's wave (in [`Tiles::linear`] order, each on the memory the previous
//! one left) on the reference interpreter and on the JIT; the two must end the same way and
//! agree on every register cell and every byte of GPU memory, else the error says how they
//! did not. A guest fault or running out of fuel is an `Err` naming it.
#![allow(dead_code)]

pub mod build;
pub mod model;
#[allow(unused_imports)]
pub use build::*;

use std::sync::{Arc, OnceLock};
use wavejit_jit::Jit;
use wavejit_r5xx::inst::Inst;
use wavejit_r5xx::lift::{lift, DomainInit, R5xxLayout, Tiles};
use wavejit_r5xx::mc::{DataFormat, Surface, Tiling};
use wavejit_r5xx::setup::{Bindings, Cond, CondLoc, ProgInfo, Setup};
use wavejit_runtime::solo::{self, End, Solo};
use wavejit_runtime::{Interpreter, WaveInit, WaveState};

/// Bytes of GPU memory a test machine has.
pub const GPU_BYTES: usize = 1 << 20;
/// Guest instructions a wave may run.
pub const FUEL: u64 = 200_000;

pub fn jit() -> &'static Jit {
    static JIT: OnceLock<Jit> = OnceLock::new();
    JIT.get_or_init(|| Jit::new().expect("host supported by Cranelift"))
}

/// f32 bits.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A linear FLOAT32_4 surface at `base` with `pitch` elements a row.
pub fn float4(base: u32, pitch: u32, height: u32) -> Surface {
    Surface {
        base,
        pitch,
        tiling: Tiling::Linear,
        format: DataFormat::Float32x4,
        height,
    }
}

pub struct Machine {
    pub setup: Setup,
    pub mem: Vec<u8>,
    /// i0, j0, i1, j1.
    pub domain: [u32; 4],
    pub coverage: Option<Vec<u64>>,
    /// (temporary, channel, value of each lane).
    pub temps: Vec<(u32, u32, Vec<u32>)>,
    pub fuel: u64,
}

/// A run that ended normally.
pub struct Done {
    pub layout: R5xxLayout,
    /// Each tile's final state, in [`Tiles::linear`] order.
    pub states: Vec<WaveState>,
    pub mem: Vec<u8>,
    /// Guest instructions the tiles executed.
    pub executed: u64,
}

impl Machine {
    /// `program` as slots 0.. (start 0, end its last slot) in full flow-control mode, no
    /// surfaces, all output channels enabled, conditional output off (location PE, test
    /// ALWAYS).
    pub fn new(program: Vec<Inst>) -> Machine {
        let end = program.len() as u32 - 1;
        Machine {
            setup: Setup {
                program,
                info: ProgInfo {
                    full_fc: true,
                    start: 0,
                    end,
                    ..ProgInfo::default()
                },
                bindings: Bindings {
                    cond: Cond {
                        loc: CondLoc::Pe,
                        ..Bindings::default().cond
                    },
                    ..Bindings::default()
                },
            },
            mem: vec![0; GPU_BYTES],
            domain: [0, 0, 15, 3],
            coverage: None,
            temps: Vec::new(),
            fuel: FUEL,
        }
    }

    /// Channel `c` of temporary `n` in lane l = `v(l)`, every tile.
    pub fn set_temp(&mut self, n: u32, c: u32, v: impl Fn(u32) -> u32) {
        self.temps.push((n, c, (0..64).map(v).collect()));
    }

    /// Channels of temporary `n`: lane l gets `v(l)` (four f32).
    pub fn set_temp4(&mut self, n: u32, v: impl Fn(u32) -> [f32; 4]) {
        for c in 0..4 {
            self.set_temp(n, c, |l| v(l)[c as usize].to_bits());
        }
    }

    pub fn write_u32(&mut self, addr: u32, words: &[u32]) {
        for (i, w) in words.iter().enumerate() {
            let a = addr as usize + 4 * i;
            self.mem[a..a + 4].copy_from_slice(&w.to_le_bytes());
        }
    }

    pub fn write_f32(&mut self, addr: u32, v: &[f32]) {
        let w: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
        self.write_u32(addr, &w);
    }

    /// Float constants from `base`, FLOAT32_4 linear, `values[c]` = constant c.
    pub fn constf(&mut self, base: u32, values: &[[f32; 4]]) {
        self.setup.bindings.constf = Some(float4(base, 256, 1));
        for (c, v) in values.iter().enumerate() {
            self.write_f32(base + 16 * c as u32, v);
        }
    }

    /// Integer constants from `base`, UINT8_4 linear: (count, init, step) bytes.
    pub fn consti(&mut self, base: u32, values: &[(u8, u8, i8)]) {
        self.setup.bindings.consti = Some(Surface {
            base,
            pitch: 32,
            tiling: Tiling::Linear,
            format: DataFormat::Uint8x4,
            height: 1,
        });
        for (c, &(n, i, s)) in values.iter().enumerate() {
            let a = base as usize + 4 * c;
            self.mem[a..a + 4].copy_from_slice(&[n, i, s as u8, 0]);
        }
    }

    /// Boolean constants from `base`, FLOAT32_1 linear: raw words.
    pub fn constb(&mut self, base: u32, values: &[u32]) {
        self.setup.bindings.constb = Some(Surface {
            base,
            pitch: 32,
            tiling: Tiling::Linear,
            format: DataFormat::Float32x1,
            height: 1,
        });
        self.write_u32(base, values);
    }

    /// Runs the machine (see the module doc).
    pub fn run(&self) -> Result<Done, String> {
        let lifted = lift(&self.setup).map_err(|e| format!("lift: {e}"))?;
        if let Err(e) = wavejit_ir::verify::verify(&lifted.func) {
            return Err(format!("the lifted function does not verify: {e:?}"));
        }
        let func = Arc::new(lifted.func);
        let layout = lifted.layout;
        let [i0, j0, i1, j1] = self.domain;
        let tiles = Tiles::new(i0, j0, i1, j1)?;
        let grid = tiles.grid();
        let mut mem = self.mem.clone();
        let mut states = Vec::new();
        let mut executed = 0;
        for gy in 0..tiles.ny {
            for gx in 0..tiles.nx {
                let wave = grid.wave([gx, gy, 0], 0);
                let mut start = Solo::new(&layout.layout, 1 << 24).map_err(|e| e.to_string())?;
                let base = start
                    .mem
                    .alloc_bytes(&mem, 4096)
                    .map_err(|e| e.to_string())?;
                let init =
                    DomainInit::new(&layout, tiles, self.coverage.clone(), base, &self.setup)?;
                init.init(&wave, &mut start.state)?;
                for (n, c, v) in &self.temps {
                    for (lane, &x) in v.iter().enumerate() {
                        start.state.set_lane(layout.temp(*n, *c), lane as u32, x);
                    }
                }
                start.watch.push(("gpu".into(), base, mem.len() as u64));
                let (a, b, diff) = solo::run_both(&Interpreter, jit(), &func, start, self.fuel);
                if let Some(d) = diff {
                    let lines: Vec<&String> = d.lines.iter().take(20).collect();
                    return Err(format!(
                        "interpreter and JIT disagree: {}\n{lines:#?}",
                        d.headline()
                    ));
                }
                executed += a.executed;
                let after = a.memory("gpu").map(<[u8]>::to_vec);
                match (&a.end, a.state, b.state) {
                    (End::Done, Some(state), Some(_)) => states.push(state),
                    (End::OutOfFuel, ..) => return Err("out of fuel".into()),
                    (end, ..) => {
                        return Err(match &a.fault {
                            Some(f) => format!("fault: {f}"),
                            None => format!("the run ended with {end:?}"),
                        })
                    }
                }
                mem = after.expect("watched");
            }
        }
        Ok(Done {
            layout,
            states,
            mem,
            executed,
        })
    }

    /// [`Machine::run`], panicking on an error.
    pub fn go(&self) -> Done {
        self.run().unwrap_or_else(|e| panic!("{e}"))
    }
}

impl Done {
    /// Channel `c` of temporary `n` in `lane` of the first tile.
    pub fn r(&self, n: u32, c: u32, lane: u32) -> u32 {
        self.states[0].lane(self.layout.temp(n, c), lane)
    }

    /// Channel `c` of temporary `n` as f32, every lane of the first tile.
    pub fn row(&self, n: u32, c: u32) -> Vec<u32> {
        (0..64).map(|l| self.r(n, c, l)).collect()
    }

    pub fn pred(&self, c: u32, lane: u32) -> u32 {
        self.states[0].lane(self.layout.pred(c), lane)
    }

    pub fn u32_at(&self, addr: u32) -> u32 {
        let a = addr as usize;
        u32::from_le_bytes(self.mem[a..a + 4].try_into().unwrap())
    }

    pub fn f32_at(&self, addr: u32) -> f32 {
        f32::from_bits(self.u32_at(addr))
    }

    /// A 64-bit lane mask of the first tile's state.
    pub fn mask(&self, which: u32) -> u64 {
        let r = self.layout.mask(which);
        let s = &self.states[0];
        u64::from(s.uniform(r)) | u64::from(s.uniform(r.offset(1))) << 32
    }
}

/// Asserts lane by lane that `got` equals `want` (bits), naming the lane and both values.
pub fn assert_lanes(what: &str, got: &[u32], want: &[u32]) {
    for (l, (g, w)) in got.iter().zip(want).enumerate() {
        assert_eq!(
            g,
            w,
            "{what}: lane {l}: got {g:#010x} ({}), want {w:#010x} ({})",
            f32::from_bits(*g),
            f32::from_bits(*w)
        );
    }
}
