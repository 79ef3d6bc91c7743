//! Shared harness of the lift_* tests that build programs by hand: instruction builders, a
//! program assembler (CF instructions, ALU and fetch clauses), one 64-lane wave with a pool
//! buffer, constant buffer 0 and private memory, and a runner that executes on the
//! interpreter and the JIT (the runtime's shared runner, through [`both`]) and checks that
//! they agree on the outcome, every register cell, the pool, GDS, LDS and the private memory.
#![allow(dead_code)]
pub mod both;

use std::sync::Arc;
use wavejit_ir::Function;
use wavejit_runtime::solo::{End, Solo};
use wavejit_runtime::{FaultKind, WaveState};
use wavejit_terascale::inst::{
    AluGroup, AluInst, AluSrc, CfAlu, CfEntry, CfInst, CfWord, Clause, ClauseBody, FetchInst,
    KCache, Slot,
};
use wavejit_terascale::lift::{lift, FetchSubroutine, LiftConfig, LiftError, TsLayout};
use wavejit_terascale::tables::{alu_info, AluEnc, CfAluOp, CfOp};
use wavejit_terascale::{AluOp, Chip, ChipClass, Program};

pub const BASE: u64 = 0x1000;
pub const LANES: u32 = 64;

pub fn word(op: CfOp, addr: u32) -> CfInst {
    CfInst::Word(CfWord {
        op,
        addr,
        jumptable_sel: 0,
        pop_count: 0,
        cf_const: 0,
        cond: 0,
        count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        whole_quad_mode: false,
        barrier: true,
    })
}

pub fn src(sel: u16, chan: u8) -> AluSrc {
    AluSrc {
        sel,
        chan,
        ..AluSrc::default()
    }
}

/// An instruction writing `dst.chan` (the slot is the channel) with up to three sources.
pub fn inst(class: ChipClass, op: AluOp, dst: u8, chan: u8, s: &[AluSrc]) -> AluInst {
    let info = alu_info(op);
    let mut srcs = [AluSrc::default(); 3];
    srcs[..s.len()].copy_from_slice(s);
    AluInst {
        op,
        enc: info.enc,
        opcode: info.opcode(class).unwrap_or(0),
        slot: Slot::from_chan(chan),
        src: srcs,
        index_mode: 0,
        pred_sel: 0,
        last: false,
        bank_swizzle: 0,
        dst_gpr: dst,
        dst_rel: false,
        dst_chan: chan,
        clamp: false,
        update_exec_mask: false,
        update_pred: false,
        write: info.enc == AluEnc::Op2,
        omod: 0,
        lds: None,
    }
}

/// A CF_ALU instruction of `op` locking constant buffer 0, line 0 (KCACHE_MODE 1).
pub fn alu_cf(op: CfAluOp) -> CfInst {
    CfInst::Alu(CfAlu {
        op,
        addr: 0,
        kcache: [
            KCache {
                bank: 0,
                mode: 1,
                addr: 0,
            },
            KCache::default(),
            KCache::default(),
            KCache::default(),
        ],
        count: 0,
        alt_const: false,
        whole_quad_mode: false,
        barrier: true,
        ext: None,
    })
}

/// A group: its instructions and literal dwords.
pub type Group = (Vec<AluInst>, Vec<u32>);

enum Body {
    Alu(Vec<Group>),
    Fetch(Vec<FetchInst>),
}

/// A program under construction: CF instructions, each clause attached to its CF index.
/// Clauses are laid out after the CF program, in order, when built; END is appended.
pub struct Prog {
    class: ChipClass,
    cf: Vec<CfInst>,
    bodies: Vec<(usize, Body)>,
}

impl Prog {
    pub fn new(class: ChipClass) -> Prog {
        Prog {
            class,
            cf: Vec::new(),
            bodies: Vec::new(),
        }
    }
    pub fn cf(mut self, i: CfInst) -> Prog {
        self.cf.push(i);
        self
    }
    pub fn alu(mut self, groups: Vec<Group>) -> Prog {
        self.bodies.push((self.cf.len(), Body::Alu(groups)));
        self.cf.push(alu_cf(CfAluOp::ALU));
        self
    }
    /// An ALU clause whose CF_ALU instruction `edit` adjusts (kcache sets, ALU_EXTENDED).
    pub fn alu_with(mut self, groups: Vec<Group>, edit: impl FnOnce(&mut CfAlu)) -> Prog {
        self = self.alu(groups);
        if let Some(CfInst::Alu(a)) = self.cf.last_mut() {
            edit(a);
        }
        self
    }
    pub fn fetch(mut self, insts: Vec<FetchInst>) -> Prog {
        self.bodies.push((self.cf.len(), Body::Fetch(insts)));
        self.cf.push(word(CfOp::TC, 0));
        self
    }
    /// A GDS clause (CF GDS) of MEM_GDS instructions.
    pub fn gds(mut self, insts: Vec<FetchInst>) -> Prog {
        self.bodies.push((self.cf.len(), Body::Fetch(insts)));
        self.cf.push(word(CfOp::GDS, 0));
        self
    }
    pub fn build(mut self) -> Program {
        self.cf.push(word(CfOp::END, 0));
        let mut at = self.cf.len() as u32;
        let mut clauses = Vec::new();
        for (ci, body) in &self.bodies {
            match body {
                Body::Fetch(f) => {
                    at += at % 2;
                    if let CfInst::Word(w) = &mut self.cf[*ci] {
                        w.addr = at;
                        w.count = (f.len() - 1) as u8;
                    }
                    clauses.push(Clause {
                        addr: at,
                        len: 2 * f.len() as u32,
                        body: ClauseBody::Fetch(f.clone()),
                    });
                    at += 2 * f.len() as u32;
                }
                Body::Alu(groups) => {
                    let start = at;
                    let mut gs = Vec::new();
                    for (insts, lits) in groups {
                        let mut insts = insts.clone();
                        insts.last_mut().unwrap().last = true;
                        let g = AluGroup {
                            addr: at,
                            insts,
                            literals: lits.clone(),
                        };
                        at += g.slots();
                        gs.push(g);
                    }
                    if let CfInst::Alu(a) = &mut self.cf[*ci] {
                        a.addr = start;
                        a.count = (at - start - 1) as u8;
                    }
                    clauses.push(Clause {
                        addr: start,
                        len: at - start,
                        body: ClauseBody::Alu(gs),
                    });
                }
            }
        }
        Program {
            class: self.class,
            cf: self
                .cf
                .iter()
                .enumerate()
                .map(|(i, inst)| CfEntry {
                    addr: i as u32,
                    inst: *inst,
                })
                .collect(),
            clauses,
            pads: Vec::new(),
            len: at,
        }
    }
}

pub fn chip_of(class: ChipClass) -> Chip {
    match class {
        ChipClass::Cayman => Chip::Cayman,
        _ => Chip::Cypress,
    }
}

pub fn try_lift(p: &Program) -> Result<Function, LiftError> {
    try_lift_fs(p, None)
}

/// Lifts `p` with the fetch subroutine `fs`.
pub fn try_lift_fs(p: &Program, fs: Option<FetchSubroutine>) -> Result<Function, LiftError> {
    let cfg = LiftConfig {
        chip: chip_of(p.class),
        name: "t".into(),
        base: BASE,
        fetch_subroutine: fs,
    };
    lift(p, &cfg)
}

pub fn lift_ok(p: &Program) -> Function {
    lift_fs_ok(p, None)
}

pub fn lift_fs_ok(p: &Program, fs: Option<FetchSubroutine>) -> Function {
    let f = try_lift_fs(p, fs).unwrap_or_else(|e| panic!("{e}"));
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("verify: {e}"));
    f
}

/// Asserts that lifting fails with an error whose text holds `needle`.
pub fn lift_err(p: &Program, needle: &str) -> LiftError {
    let e = try_lift(p).expect_err("the lift should fail");
    assert!(e.to_string().contains(needle), "{e}");
    e
}

/// A GPR's start value per lane: (register, channel, value of lane).
pub type GprInit = (u32, u32, Box<dyn Fn(u32) -> u32>);

/// The start of a run: GPR values per (register, channel, lane), the pool's bytes, constant
/// buffer 0, the active lanes, the private bytes per lane and the GDS bytes (none: the `gds`
/// address stays 0).
pub struct Start {
    pub gprs: Vec<GprInit>,
    pub pool: Vec<u8>,
    pub cb0: Vec<u32>,
    pub active: u64,
    pub private_lane_bytes: u32,
    /// Further constant buffers: (id, dwords).
    pub cbs: Vec<(u32, Vec<u32>)>,
    /// The texture resource table's words (empty: none bound).
    pub tex_resources: Vec<u32>,
    pub gds: Option<Vec<u8>>,
}

impl Default for Start {
    fn default() -> Start {
        Start {
            gprs: Vec::new(),
            pool: vec![0; 256],
            cb0: vec![0; 16],
            active: u64::MAX,
            private_lane_bytes: 0,
            cbs: Vec::new(),
            tex_resources: Vec::new(),
            gds: None,
        }
    }
}

/// The state after a run.
pub struct Out {
    pub l: TsLayout,
    pub state: WaveState,
    pub pool: Vec<u8>,
    pub private: Vec<u8>,
    pub gds: Vec<u8>,
    pub result: Result<(), FaultKind>,
}

impl Out {
    pub fn r(&self, n: u32, chan: u32, lane: u32) -> u32 {
        self.state.lane(self.l.gpr(n, chan), lane)
    }
    pub fn pool_u32(&self, byte: usize) -> u32 {
        u32::from_le_bytes(self.pool[byte..byte + 4].try_into().unwrap())
    }
    pub fn private_u32(&self, byte: usize) -> u32 {
        u32::from_le_bytes(self.private[byte..byte + 4].try_into().unwrap())
    }
}

fn set_pair(state: &mut WaveState, r: wavejit_ir::Reg, v: u64) {
    state.set_uniform(r, v as u32);
    state.set_uniform(r.offset(1), (v >> 32) as u32);
}

/// Guest instructions a run may execute; a run that spends them all ends with
/// `Err(Trap("block budget"))`.
pub const FUEL: u64 = 1_000_000;

/// The wave `st` describes.
fn start(st: &Start) -> Solo {
    let l = TsLayout::new(LANES);
    let mut w = Solo::new(&l.layout, 1 << 24).unwrap();
    let (state, mem) = (&mut w.state, &mut w.mem);
    let pool = mem.alloc_bytes(&st.pool, 256).unwrap();
    let cb: Vec<u8> = st.cb0.iter().flat_map(|v| v.to_le_bytes()).collect();
    let cb = mem.alloc_bytes(&cb, 256).unwrap();
    let gds = st.gds.as_ref().map(|g| mem.alloc_bytes(g, 256).unwrap());
    for (n, c, f) in &st.gprs {
        for lane in 0..LANES {
            state.set_lane(l.gpr(*n, *c), lane, f(lane));
        }
    }
    set_pair(state, l.active(), st.active);
    set_pair(state, l.pool_base(), pool);
    set_pair(state, l.const_buffer(0), cb);
    for (id, dwords) in &st.cbs {
        let bytes: Vec<u8> = dwords.iter().flat_map(|v| v.to_le_bytes()).collect();
        let a = mem.alloc_bytes(&bytes, 256).unwrap();
        set_pair(state, l.const_buffer(*id), a);
    }
    if !st.tex_resources.is_empty() {
        let bytes: Vec<u8> = st
            .tex_resources
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let a = mem.alloc_bytes(&bytes, 256).unwrap();
        set_pair(state, l.tex_resources(), a);
    }
    set_pair(state, l.gds(), gds.unwrap_or(0));
    w.watch.push(("pool".into(), pool, st.pool.len() as u64));
    if let Some(g) = gds {
        w.watch
            .push(("gds".into(), g, st.gds.as_ref().map_or(0, Vec::len) as u64));
    }
    w.private = vec![0u8; (st.private_lane_bytes * LANES) as usize];
    w.private_lane_bytes = st.private_lane_bytes;
    w.lds = vec![0u8; 64];
    w
}

/// Runs `p` on both engines from `st`; checks that they agree on the outcome, every
/// register cell, the pool, GDS and the private memory (after a fault too); returns the
/// interpreter's state.
pub fn run(p: &Program, st: &Start) -> Out {
    run_function(&lift_ok(p), st)
}

/// [`run`] of a lifted function.
pub fn run_function(f: &Function, st: &Start) -> Out {
    let f = Arc::new(f.clone());
    let (a, b) = both::run_both(&f, start(st), FUEL);
    both::same_after_fault(&f, &a, &b);
    let result = match &a.end {
        End::Done => Ok(()),
        End::OutOfFuel => Err(FaultKind::Trap("block budget".into())),
        _ => Err(a.fault.clone().expect("a fault").kind),
    };
    let gds = match st.gds {
        Some(_) => both::memory(&a, "gds"),
        None => Vec::new(),
    };
    Out {
        l: TsLayout::new(LANES),
        pool: both::memory(&a, "pool"),
        private: both::memory(&a, "private"),
        gds,
        state: a.state.expect("a final state"),
        result,
    }
}
