//! Differential fuzzing of the TeraScale lifter: random valid programs ([`random`]) are
//! lifted, verified, and run from the same random wave state on the interpreter and the JIT;
//! the final register state must agree bit for bit. A disagreement is minimised
//! ([`random::minimise`]) and reported with the listing of the minimised program. Time-boxed.
use std::sync::Arc;
use std::time::{Duration, Instant};
use wavejit_ir::{Block, Function};
use wavejit_runtime::{
    BlockExit, Engine, GuestMemory, Interpreter, WaveCtx, WaveState, GUEST_BASE,
};
use wavejit_terascale::lift::{lift, LiftConfig, LiftError, TsLayout};
use wavejit_terascale::random::{self, GenOptions, InitialState, RandomProgram, GPR_ROWS};
use wavejit_terascale::{print_program, Chip, ChipClass};

const BUDGET: Duration = Duration::from_secs(6);
const FUEL: u64 = 200_000;

#[derive(Debug, PartialEq)]
enum End {
    Done(Vec<u32>),
    Fault(String),
    OutOfFuel,
    Error(String),
}

struct Harness {
    mem: GuestMemory,
    cbs: Vec<u64>,
    jit: wavejit_jit::Jit,
}

fn chip_of(class: ChipClass) -> Chip {
    match class {
        ChipClass::Evergreen => Chip::Cypress,
        ChipClass::Cayman => Chip::Cayman,
    }
}

impl Harness {
    fn new(st: &InitialState) -> Harness {
        let mut mem = GuestMemory::with_reserve(1 << 24).expect("guest memory");
        let cbs = (0..st.const_buffers.len())
            .map(|b| mem.alloc_bytes(&st.const_buffer_bytes(b), 256).expect("cb"))
            .collect();
        Harness {
            mem,
            cbs,
            jit: wavejit_jit::Jit::new().expect("the JIT starts"),
        }
    }

    fn initial(&self, l: &TsLayout, st: &InitialState) -> WaveState {
        let mut w = WaveState::new(Arc::new(l.layout.clone()));
        for n in 0..GPR_ROWS {
            for c in 0..4 {
                for lane in 0..st.lanes {
                    w.set_lane(l.gpr(n, c), lane, st.gpr(n, c, lane));
                }
            }
        }
        let act = l.active();
        w.set_uniform(act, st.active as u32);
        w.set_uniform(act.offset(1), (st.active >> 32) as u32);
        let pool = l.pool_base();
        w.set_uniform(pool, GUEST_BASE as u32);
        w.set_uniform(pool.offset(1), (GUEST_BASE >> 32) as u32);
        for (b, &addr) in self.cbs.iter().enumerate() {
            let r = l.const_buffer(b as u32);
            w.set_uniform(r, addr as u32);
            w.set_uniform(r.offset(1), (addr >> 32) as u32);
        }
        w
    }

    fn run(&self, engine: &dyn Engine, f: &Arc<Function>, mut w: WaveState) -> End {
        let program = match engine.prepare(f.clone()) {
            Ok(p) => p,
            Err(e) => return End::Error(format!("{}: {e}", engine.name())),
        };
        let (mut lds, mut private) = ([0u8; 4], [0u8; 0]);
        let mut block = Block(0);
        let mut executed = 0u64;
        loop {
            executed += f.blocks[block.index()].guest_insts.max(1) as u64;
            if executed > FUEL {
                return End::OutOfFuel;
            }
            let mut ctx = WaveCtx {
                state: &mut w,
                mem: &self.mem,
                lds: &mut lds,
                private: &mut private,
                private_lane_bytes: 0,
            };
            match program.run_block(block, &mut ctx) {
                Ok(BlockExit::Jump(b) | BlockExit::Barrier(b)) => block = b,
                Ok(BlockExit::Return) => return End::Done(w.cells().to_vec()),
                Err(f) => return End::Fault(format!("{:?} at {:#x}", f.kind, f.pc)),
            }
        }
    }

    /// `None` if both engines agree, or if the lifter does not support the program (then
    /// `unsupported` says why); otherwise what went wrong.
    fn disagreement(
        &self,
        p: &RandomProgram,
        st: &InitialState,
        unsupported: &mut Option<String>,
    ) -> Option<String> {
        let program = match p.lower() {
            Ok(x) => x,
            Err(e) => return Some(format!("layout: {e}")),
        };
        let chip = chip_of(p.class);
        let cfg = LiftConfig {
            chip,
            name: "fuzz".into(),
            base: 0x1000,
        };
        let f = match lift(&program, &cfg) {
            Ok(f) => Arc::new(f),
            Err(e @ LiftError::Unsupported { .. }) => {
                *unsupported = Some(e.to_string());
                return None;
            }
            Err(e) => return Some(format!("lift: {e}")),
        };
        if let Err(e) = wavejit_ir::verify::verify(&f) {
            return Some(format!("verify: {e}"));
        }
        let l = TsLayout::new(wavejit_terascale::launch::wave_size(chip));
        let a = self.run(&Interpreter, &f, self.initial(&l, st));
        let b = self.run(&self.jit, &f, self.initial(&l, st));
        match (&a, &b) {
            (End::Done(x), End::Done(y)) if x == y => None,
            (End::Done(x), End::Done(y)) => {
                let i = x.iter().zip(y).position(|(u, v)| u != v).unwrap_or(0);
                Some(format!(
                    "cell {i}: interpreter {:#x}, JIT {:#x}",
                    x[i], y[i]
                ))
            }
            (End::Error(e), _) | (_, End::Error(e)) => Some(e.clone()),
            (End::OutOfFuel, _) | (_, End::OutOfFuel) => {
                Some(format!("out of fuel: {a:?} / {b:?}"))
            }
            _ if a == b => None,
            _ => Some(format!("interpreter {a:?}, JIT {b:?}")),
        }
    }
}

/// A fixed-seed, time-boxed campaign over both classes finds no disagreement, no lifter
/// rejection of a valid program, and no runaway loop.
#[test]
fn interpreter_and_jit_agree_on_random_programs() {
    let opts = GenOptions::default();
    let start = Instant::now();
    let (mut ran, mut unsupported_n) = (0u32, 0u32);
    let mut seed = 0x7e4a_0000u64;
    let mut unsupported_first = None;
    while start.elapsed() < BUDGET {
        for class in ChipClass::ALL {
            let p = random::generate(seed, class, &opts).expect("generator");
            let st = InitialState::random(seed, 64);
            let h = Harness::new(&st);
            let mut unsupported = None;
            if let Some(why) = h.disagreement(&p, &st, &mut unsupported) {
                let small = random::minimise(&p, |q| h.disagreement(q, &st, &mut None).is_some());
                let why_small = h.disagreement(&small, &st, &mut None).unwrap_or_default();
                let listing = small
                    .lower()
                    .map(|l| print_program(&l).join("\n"))
                    .unwrap_or_default();
                panic!(
                    "{class:?} seed {seed:#x}: {why}\nminimised ({}): {why_small}\n{listing}",
                    small.instructions()
                );
            }
            if let Some(u) = unsupported {
                unsupported_n += 1;
                unsupported_first.get_or_insert(u);
            } else {
                ran += 1;
            }
        }
        seed += 1;
    }
    eprintln!("{ran} programs agreed, {unsupported_n} unsupported (first: {unsupported_first:?})");
    assert!(
        ran >= 20,
        "only {ran} programs ran ({unsupported_n} unsupported: {unsupported_first:?})"
    );
}
