//! Shared harness of the lift_* tests that build programs by hand: instruction builders, a
//! program assembler (CF instructions, ALU and fetch clauses), one 64-lane wave with a pool
//! buffer, constant buffer 0 and private memory, and a runner that executes on the
//! interpreter and the JIT and checks that they agree on every GPR cell, the pool and the
//! private memory.
#![allow(dead_code)]
use std::sync::Arc;
use wavejit_ir::{Block, Function};
use wavejit_runtime::{BlockExit, Engine, FaultKind, GuestMemory, Interpreter, WaveCtx, WaveState};
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

fn run_on(engine: &dyn Engine, f: &Function, st: &Start) -> Out {
    let l = TsLayout::new(LANES);
    let mut state = WaveState::new(Arc::new(l.layout.clone()));
    let mut mem = GuestMemory::with_reserve(1 << 24).unwrap();
    let pool = mem.alloc_bytes(&st.pool, 256).unwrap();
    let cb: Vec<u8> = st.cb0.iter().flat_map(|v| v.to_le_bytes()).collect();
    let cb = mem.alloc_bytes(&cb, 256).unwrap();
    let gds = st.gds.as_ref().map(|g| mem.alloc_bytes(g, 256).unwrap());
    for (n, c, f) in &st.gprs {
        for lane in 0..LANES {
            state.set_lane(l.gpr(*n, *c), lane, f(lane));
        }
    }
    set_pair(&mut state, l.active(), st.active);
    set_pair(&mut state, l.pool_base(), pool);
    set_pair(&mut state, l.const_buffer(0), cb);
    for (id, dwords) in &st.cbs {
        let bytes: Vec<u8> = dwords.iter().flat_map(|v| v.to_le_bytes()).collect();
        let a = mem.alloc_bytes(&bytes, 256).unwrap();
        set_pair(&mut state, l.const_buffer(*id), a);
    }
    if !st.tex_resources.is_empty() {
        let bytes: Vec<u8> = st
            .tex_resources
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let a = mem.alloc_bytes(&bytes, 256).unwrap();
        set_pair(&mut state, l.tex_resources(), a);
    }
    set_pair(&mut state, l.gds(), gds.unwrap_or(0));
    let mut private = vec![0u8; (st.private_lane_bytes * LANES) as usize];
    let mut lds = vec![0u8; 64];
    let prog = engine.prepare(Arc::new(f.clone())).unwrap();
    let mut b = Block(0);
    let mut result = Err(FaultKind::Trap("block budget".into()));
    for _ in 0..10_000 {
        let mut ctx = WaveCtx {
            state: &mut state,
            mem: &mem,
            lds: &mut lds,
            private: &mut private,
            private_lane_bytes: st.private_lane_bytes,
        };
        match prog.run_block(b, &mut ctx) {
            Ok(BlockExit::Jump(n) | BlockExit::Barrier(n)) => b = n,
            Ok(BlockExit::Return) => {
                result = Ok(());
                break;
            }
            Err(e) => {
                result = Err(e.kind);
                break;
            }
        }
    }
    let mut bytes = vec![0u8; st.pool.len()];
    mem.read_bytes(pool, &mut bytes).unwrap();
    let mut gds_bytes = vec![0u8; st.gds.as_ref().map_or(0, Vec::len)];
    if let Some(g) = gds {
        mem.read_bytes(g, &mut gds_bytes).unwrap();
    }
    Out {
        l,
        state,
        pool: bytes,
        private,
        gds: gds_bytes,
        result,
    }
}

/// Runs `p` on both engines from `st`; checks that they agree on the outcome, R0-R31, the
/// pool and the private memory; returns the interpreter's state.
pub fn run(p: &Program, st: &Start) -> Out {
    run_function(&lift_ok(p), st)
}

/// [`run`] of a lifted function.
pub fn run_function(f: &Function, st: &Start) -> Out {
    let a = run_on(&Interpreter, f, st);
    let jit = wavejit_jit::Jit::new().expect("host supported by Cranelift");
    let b = run_on(&jit, f, st);
    assert_eq!(a.result, b.result, "engines disagree on the outcome");
    for n in 0..32 {
        for c in 0..4 {
            for lane in 0..LANES {
                assert_eq!(a.r(n, c, lane), b.r(n, c, lane), "R{n}.{c} lane {lane}");
            }
        }
    }
    assert!(a.pool == b.pool, "engines disagree on the pool");
    assert!(a.private == b.private, "engines disagree on private memory");
    assert!(a.gds == b.gds, "engines disagree on GDS memory");
    a
}
