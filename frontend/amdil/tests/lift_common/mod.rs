//! One wave of a lifted IL compute program run alone on both engines, for the lifter tests.
//!
//! A [`Kernel`] is IL text parsed and lifted, with its layout. A [`Launch`] is a start state:
//! temps set lane by lane, the exec mask (all 64 lanes unless set), the wave as work-group
//! (0, 0, 0) of one group of 64 work-items along x (lane l is `vTidInGrp` (l, 0, 0)) unless
//! set, the constant buffers, the arena and the LDS. [`Launch::run`] runs it on the reference
//! interpreter and on the JIT through the runtime's single-wave runner; the two must end the
//! same way and agree on every register cell, the arena and the LDS, else the error says how
//! they did not.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use wavejit_amdil::lift::state::{grid, IlLayout};
use wavejit_ir::Function;
use wavejit_jit::Jit;
use wavejit_runtime::solo::{self, End, Solo};
use wavejit_runtime::{Interpreter, WaveState};

pub const LANES: u32 = 64;
/// Guest instructions a test program may run.
const FUEL: u64 = 200_000;

/// The JIT every test of the process shares.
pub fn jit() -> &'static Jit {
    static JIT: OnceLock<Jit> = OnceLock::new();
    JIT.get_or_init(|| Jit::new().expect("host supported by Cranelift"))
}

/// A lifted program.
pub struct Kernel {
    pub layout: IlLayout,
    pub func: Arc<Function>,
}

impl Kernel {
    /// Parses and lifts `text`, or says why not.
    pub fn try_new(text: &str) -> Result<Kernel, String> {
        let p = wavejit_amdil::parse::parse(text).map_err(|e| format!("parse: {e}"))?;
        let (func, layout) =
            wavejit_amdil::lift::lift_laid_out(&p, "test", LANES).map_err(|e| e.to_string())?;
        if let Err(e) = wavejit_ir::verify::verify(&func) {
            return Err(format!("the lifted function does not verify: {e:?}"));
        }
        Ok(Kernel {
            layout,
            func: Arc::new(func),
        })
    }

    /// [`Kernel::try_new`], panicking with the program and the reason.
    pub fn new(text: &str) -> Kernel {
        Kernel::try_new(text).unwrap_or_else(|e| panic!("{text}\n{e}"))
    }

    /// A launch of this kernel with the defaults of the module doc.
    pub fn launch(&self) -> Launch<'_> {
        let l = &self.layout;
        let mut state = WaveState::new(Arc::new(l.layout.clone()));
        for lane in 0..LANES {
            state.set_lane(l.tid(0), lane, lane);
        }
        let mut launch = Launch {
            k: self,
            state,
            cbs: BTreeMap::new(),
            arena: Vec::new(),
            lds: Vec::new(),
        };
        launch.set_exec(u64::MAX);
        launch.set_grid([0; 3], [LANES, 1, 1], [1, 1, 1]);
        launch
    }
}

/// A start state.
pub struct Launch<'k> {
    k: &'k Kernel,
    pub state: WaveState,
    cbs: BTreeMap<u32, Vec<u32>>,
    arena: Vec<u32>,
    lds: Vec<u8>,
}

/// A run that ended normally.
pub struct Done<'k> {
    k: &'k Kernel,
    pub state: WaveState,
    /// The arena's dwords after the run.
    pub arena: Vec<u32>,
    pub lds: Vec<u8>,
    /// Guest instructions executed.
    pub executed: u64,
}

impl Done<'_> {
    /// Component `c` of temp `n` in `lane`.
    pub fn r(&self, n: u32, c: u32, lane: u32) -> u32 {
        self.state.lane(self.k.layout.temp(n, c), lane)
    }

    /// Component `c` of temp `n`, every lane.
    pub fn row(&self, n: u32, c: u32) -> Vec<u32> {
        (0..LANES).map(|lane| self.r(n, c, lane)).collect()
    }

    pub fn exec(&self) -> u64 {
        let e = self.k.layout.exec();
        u64::from(self.state.uniform(e)) | u64::from(self.state.uniform(e.offset(1))) << 32
    }

    /// LDS dword `i`.
    pub fn lds_word(&self, i: usize) -> u32 {
        u32::from_le_bytes(self.lds[4 * i..4 * i + 4].try_into().unwrap())
    }
}

impl<'k> Launch<'k> {
    pub fn set_exec(&mut self, mask: u64) {
        let e = self.k.layout.exec();
        self.state.set_uniform(e, mask as u32);
        self.state.set_uniform(e.offset(1), (mask >> 32) as u32);
    }

    /// The work-group id, the work-group size and the number of groups.
    pub fn set_grid(&mut self, id: [u32; 3], size: [u32; 3], groups: [u32; 3]) {
        for c in 0..3 {
            let l = &self.k.layout;
            self.state
                .set_uniform(l.grid(grid::GROUP_ID + c as u32), id[c]);
            self.state
                .set_uniform(l.grid(grid::GROUP_SIZE + c as u32), size[c]);
            self.state
                .set_uniform(l.grid(grid::GROUPS + c as u32), groups[c]);
        }
    }

    /// `vTidInGrp` of `lane`.
    pub fn set_tid(&mut self, lane: u32, tid: [u32; 3]) {
        for (c, v) in tid.into_iter().enumerate() {
            let r = self.k.layout.tid(c as u32);
            self.state.set_lane(r, lane, v);
        }
    }

    /// Component `c` of temp `n` lane by lane from `f(lane)`.
    pub fn set_r(&mut self, n: u32, c: u32, f: impl Fn(u32) -> u32) {
        let r = self.k.layout.temp(n, c);
        for lane in 0..LANES {
            self.state.set_lane(r, lane, f(lane));
        }
    }

    /// Constant buffer `id`'s dwords.
    pub fn set_cb(&mut self, id: u32, words: &[u32]) {
        self.cbs.insert(id, words.to_vec());
    }

    /// The arena's dwords (its address goes to the `arena` cells).
    pub fn set_arena(&mut self, words: &[u32]) {
        self.arena = words.to_vec();
    }

    /// `bytes` of zeroed LDS.
    pub fn set_lds(&mut self, bytes: usize) {
        self.lds = vec![0; bytes];
    }

    /// Runs the launch on both engines: the final state, or why there is none (an engine
    /// failed or faulted, the engines disagree).
    pub fn run(&self) -> Result<Done<'k>, String> {
        let l = &self.k.layout;
        let mut start = Solo::new(&l.layout, 1 << 24).map_err(|e| e.to_string())?;
        start.state = self.state.clone();
        let bytes = |w: &[u32]| -> Vec<u8> { w.iter().flat_map(|x| x.to_le_bytes()).collect() };
        let arena = start
            .mem
            .alloc_bytes(&bytes(&self.arena), 256)
            .map_err(|e| e.to_string())?;
        set_pair(&mut start.state, l.arena(), arena);
        start
            .watch
            .push(("arena".into(), arena, 4 * self.arena.len() as u64));
        for (&id, words) in &self.cbs {
            let at = start
                .mem
                .alloc_bytes(&bytes(words), 256)
                .map_err(|e| e.to_string())?;
            set_pair(&mut start.state, l.const_buffer(id), at);
        }
        start.lds = self.lds.clone();
        let (a, b, diff) = solo::run_both(&Interpreter, jit(), &self.k.func, start, FUEL);
        if let Some(d) = diff {
            let lines: Vec<&String> = d.lines.iter().take(20).collect();
            return Err(format!(
                "interpreter and JIT disagree: {}\n{lines:#?}",
                d.headline()
            ));
        }
        let arena = a
            .memory("arena")
            .map(|b| {
                b.chunks(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        let lds = a.memory("lds").map(<[u8]>::to_vec).unwrap_or_default();
        match (&a.end, a.state, b.state) {
            (End::Done, Some(state), Some(_)) => Ok(Done {
                k: self.k,
                state,
                arena,
                lds,
                executed: a.executed,
            }),
            (end, ..) => Err(match &a.fault {
                Some(f) => format!("fault: {f}"),
                None => format!("the run ended with {end:?}"),
            }),
        }
    }

    /// [`Launch::run`], panicking on an error.
    pub fn go(&self) -> Done<'k> {
        self.run().unwrap_or_else(|e| panic!("{e}"))
    }
}

fn set_pair(state: &mut WaveState, r: wavejit_ir::Reg, v: u64) {
    state.set_uniform(r, v as u32);
    state.set_uniform(r.offset(1), (v >> 32) as u32);
}

/// `f32` bits.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A `dcl_literal` line for `l#` with four words.
pub fn literal(n: u32, w: [u32; 4]) -> String {
    format!(
        "dcl_literal l{n}, 0x{:08X}, 0x{:08X}, 0x{:08X}, 0x{:08X}\n",
        w[0], w[1], w[2], w[3]
    )
}

impl Launch<'_> {
    /// The LDS's initial bytes.
    pub fn set_lds_bytes(&mut self, bytes: &[u8]) {
        self.lds = bytes.to_vec();
    }

    /// Cells of view `v` (`state::view` offsets and values).
    pub fn set_view(&mut self, v: wavejit_amdil::lift::state::View, cells: &[(u32, u32)]) {
        for &(cell, value) in cells {
            let r = self.k.layout.view(v, cell).expect("a declared view");
            self.state.set_uniform(r, value);
        }
    }
}

/// Runs `l`'s registers (not its arena, constant buffers or LDS) on both engines with
/// `lane_bytes` of private memory per lane, lane `l` starting from `init(l)` (its length
/// `lane_bytes`); the final state and private bytes, or why there are none.
pub fn run_private(
    l: &Launch,
    lane_bytes: u32,
    init: impl Fn(u32) -> Vec<u8>,
) -> Result<(WaveState, Vec<u8>), String> {
    let layout = &l.k.layout;
    let mut start = Solo::new(&layout.layout, 1 << 20).map_err(|e| e.to_string())?;
    start.state = l.state.clone();
    start.private = (0..LANES).flat_map(&init).collect();
    assert_eq!(start.private.len(), (LANES * lane_bytes) as usize);
    start.private_lane_bytes = lane_bytes;
    let (a, b, diff) = solo::run_both(&Interpreter, jit(), &l.k.func, start, FUEL);
    if let Some(d) = diff {
        return Err(format!("interpreter and JIT disagree: {}", d.headline()));
    }
    let private = a.memory("private").map(<[u8]>::to_vec).unwrap_or_default();
    match (&a.end, a.state, b.state) {
        (End::Done, Some(state), Some(_)) => Ok((state, private)),
        (end, ..) => Err(match &a.fault {
            Some(f) => format!("fault: {f}"),
            None => format!("the run ended with {end:?}"),
        }),
    }
}
