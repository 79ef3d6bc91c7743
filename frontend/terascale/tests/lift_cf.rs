//! Hand-built programs through the lifter, on the interpreter and the JIT: ALU group rules
//! (atomicity, PV, literals, kcache) and every CF stack operation, with expected values
//! worked out from the document's rules in the test (seed 000 3.6-3.7, 4.3-4.10).
use std::sync::Arc;
use wavejit_ir::Function;
use wavejit_runtime::solo::{End, Solo};
use wavejit_runtime::{FaultKind, GuestMemory, WaveState};
use wavejit_terascale::inst::{
    sel, AluGroup, AluInst, AluSrc, CfEntry, CfInst, CfMem, Clause, ClauseBody, FetchInst,
    RatFields, Slot,
};
use wavejit_terascale::lift::{lift, LiftConfig, TsLayout};
use wavejit_terascale::tables::{CfAluOp, CfMemOp, CfOp, FetchOp, RatInst};
use wavejit_terascale::{AluOp, Chip, ChipClass, Program};

mod lift_common;
use lift_common::{alu_cf, both, inst, src as gpr, src as k, BASE};

fn word(op: CfOp, addr: u32, pop_count: u8) -> CfInst {
    let mut i = lift_common::word(op, addr);
    if let CfInst::Word(w) = &mut i {
        w.pop_count = pop_count;
    }
    i
}

/// An OP2 instruction writing `dst.chan` (the slot is the channel), Cayman opcode.
fn op2(op: AluOp, dst: u8, chan: u8, src: [AluSrc; 2]) -> AluInst {
    inst(ChipClass::Cayman, op, dst, chan, &src)
}

/// A PRED_SET* updating the exec mask and the predicate, not writing its GPR.
fn pred_set(op: AluOp, a: AluSrc, b: AluSrc) -> AluInst {
    let mut i = op2(op, 127, 0, [a, b]);
    i.update_exec_mask = true;
    i.update_pred = true;
    i.write = false;
    i
}

fn group(addr: u32, mut insts: Vec<AluInst>, literals: Vec<u32>) -> AluGroup {
    insts.last_mut().unwrap().last = true;
    AluGroup {
        addr,
        insts,
        literals,
    }
}

/// An ALU clause: its CF index, its groups and their literals.
type AluClause = (usize, Vec<Vec<AluInst>>, Vec<Vec<u32>>);

/// A program of CF instructions and ALU clauses (each clause a list of groups; clause
/// addresses are assigned after the CF program, in order).
struct Prog {
    cf: Vec<CfInst>,
    clauses: Vec<AluClause>,
    fetch: Vec<(usize, Vec<FetchInst>)>,
}

impl Prog {
    fn new() -> Prog {
        Prog {
            cf: Vec::new(),
            clauses: Vec::new(),
            fetch: Vec::new(),
        }
    }
    fn cf(mut self, i: CfInst) -> Prog {
        self.cf.push(i);
        self
    }
    /// An ALU CF instruction of `op` running `groups` (with no literals).
    fn alu(self, op: CfAluOp, groups: Vec<Vec<AluInst>>) -> Prog {
        let lits = vec![Vec::new(); groups.len()];
        self.alu_lit(op, groups, lits)
    }
    fn alu_lit(mut self, op: CfAluOp, groups: Vec<Vec<AluInst>>, lits: Vec<Vec<u32>>) -> Prog {
        self.clauses.push((self.cf.len(), groups, lits));
        self.cf.push(alu_cf(op));
        self
    }
    fn vtx(mut self, f: FetchInst) -> Prog {
        self.fetch.push((self.cf.len(), vec![f]));
        self.cf.push(word(CfOp::TC, 0, 0));
        self
    }
    fn build(mut self, class: ChipClass) -> Program {
        let mut at = self.cf.len() as u32;
        at += at % 2;
        let mut clauses = Vec::new();
        for (ci, f) in &self.fetch {
            if let CfInst::Word(w) = &mut self.cf[*ci] {
                w.addr = at;
            }
            clauses.push(Clause {
                addr: at,
                len: 2 * f.len() as u32,
                body: ClauseBody::Fetch(f.clone()),
            });
            at += 2 * f.len() as u32;
        }
        for (ci, groups, lits) in &self.clauses {
            let start = at;
            let mut gs = Vec::new();
            for (g, l) in groups.iter().zip(lits) {
                let grp = group(at, g.clone(), l.clone());
                at += grp.slots();
                gs.push(grp);
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
        Program {
            class,
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

/// One 64-lane wave: lane l holds R0.x = l; `active` lanes run.
struct Wave {
    l: TsLayout,
    state: WaveState,
    mem: GuestMemory,
}

impl Wave {
    fn new(active: u64, cb0: &[u32]) -> Wave {
        let l = TsLayout::new(64);
        let mut state = WaveState::new(Arc::new(l.layout.clone()));
        let mut mem = GuestMemory::with_reserve(1 << 24).unwrap();
        for lane in 0..64 {
            state.set_lane(l.gpr(0, 0), lane, lane);
        }
        state.set_uniform(l.active(), active as u32);
        state.set_uniform(l.active().offset(1), (active >> 32) as u32);
        let bytes: Vec<u8> = cb0.iter().flat_map(|v| v.to_le_bytes()).collect();
        let cb = mem.alloc_bytes(&bytes, 256).unwrap();
        state.set_uniform(l.const_buffer(0), cb as u32);
        state.set_uniform(l.const_buffer(0).offset(1), (cb >> 32) as u32);
        let pool = wavejit_runtime::GUEST_BASE;
        state.set_uniform(l.pool_base(), pool as u32);
        state.set_uniform(l.pool_base().offset(1), (pool >> 32) as u32);
        Wave { l, state, mem }
    }

    fn r(&self, n: u32, chan: u32, lane: u32) -> u32 {
        self.state.lane(self.l.gpr(n, chan), lane)
    }
}

fn lift_ok(p: &Program, chip: Chip) -> Function {
    let cfg = LiftConfig {
        chip,
        name: "t".into(),
        base: BASE,
        fetch_subroutine: None,
    };
    let f = lift(p, &cfg).unwrap_or_else(|e| panic!("{e}"));
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("verify: {e}"));
    f
}

/// Guest instructions a run may spend.
const FUEL: u64 = 20_000;

/// Runs `f` from `w` for at most `fuel` guest instructions on the interpreter and the JIT
/// (the shared runner: they must agree on the outcome, every register cell, every buffer,
/// LDS and private memory, after a fault too) and leaves the interpreter's final state and
/// memory in `w`. Ok(true) if it returned, Ok(false) if the fuel ran out, Err on a fault.
fn run_on(f: &Function, w: &mut Wave, fuel: u64) -> Result<bool, FaultKind> {
    let f = Arc::new(f.clone());
    let mem = std::mem::replace(&mut w.mem, GuestMemory::with_reserve(1 << 12).unwrap());
    let start = Solo {
        state: w.state.clone(),
        watch: both::watch_buffers(&mem),
        mem,
        lds: vec![0u8; 64],
        private: vec![0u8; 256],
        private_lane_bytes: 4,
    };
    let (a, b) = both::run_both(&f, start, fuel);
    both::same_after_fault(&f, &a, &b);
    let out = match a.end {
        End::Done => Ok(true),
        End::OutOfFuel => Ok(false),
        _ => Err(a.fault.clone().expect("a fault").kind),
    };
    w.state = a.state.expect("a final state");
    w.mem = a.mem.expect("a final memory");
    out
}

/// Runs on both engines from the same start (see [`run_on`]); returns the interpreter's
/// wave and outcome.
fn run(p: &Program, chip: Chip, active: u64, cb0: &[u32]) -> (Wave, Result<bool, FaultKind>) {
    let f = lift_ok(p, chip);
    let mut w = Wave::new(active, cb0);
    let r = run_on(&f, &mut w, FUEL);
    (w, r)
}

fn end(p: Prog) -> Prog {
    p.cf(word(CfOp::END, 0, 0))
}

#[test]
fn a_group_reads_every_source_before_writing() {
    // R1.x = lane + 1, R1.y = lane + 2; then one group swaps them.
    let one = k(sel::ONE_INT, 0);
    let p = end(Prog::new().alu(
        CfAluOp::ALU,
        vec![
            vec![
                op2(AluOp::ADD_INT, 1, 0, [gpr(0, 0), one]),
                op2(AluOp::ADD_INT, 1, 1, [gpr(0, 0), k(sel::LITERAL, 0)]),
            ],
            vec![
                op2(AluOp::MOV, 1, 0, [gpr(1, 1), one]),
                op2(AluOp::MOV, 1, 1, [gpr(1, 0), one]),
            ],
        ],
    ));
    // The first group uses literal x = 2.
    let mut prog = p.build(ChipClass::Cayman);
    if let ClauseBody::Alu(g) = &mut prog.clauses[0].body {
        g[0].literals = vec![2, 0];
        g[1].addr += 1;
    }
    let (w, r) = run(&prog, Chip::Cayman, u64::MAX, &[0; 4]);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        assert_eq!((w.r(1, 0, lane), w.r(1, 1, lane)), (lane + 2, lane + 1));
    }
}

#[test]
fn pv_holds_the_previous_group_and_kcache_reads_the_locked_line() {
    // Group 1: R2.x = lane + KC0[1].z; R2.w = MOV 7 (write mask off: PV only).
    // Group 2: R2.y = PV.x, R2.z = PV.w.
    let mut masked = op2(AluOp::MOV, 2, 3, [k(sel::LITERAL, 0), gpr(0, 0)]);
    masked.write = false;
    let p = end(Prog::new().alu_lit(
        CfAluOp::ALU,
        vec![
            vec![
                op2(AluOp::ADD_INT, 2, 0, [gpr(0, 0), k(sel::KCACHE0 + 1, 2)]),
                masked,
            ],
            vec![
                op2(AluOp::MOV, 2, 1, [k(sel::PV, 0), gpr(0, 0)]),
                op2(AluOp::MOV, 2, 2, [k(sel::PV, 3), gpr(0, 0)]),
            ],
        ],
        vec![vec![7, 0], vec![]],
    ));
    let cb0 = [0, 0, 0, 0, 10, 20, 1000, 40];
    let (w, r) = run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &cb0);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        assert_eq!(w.r(2, 0, lane), lane + 1000);
        assert_eq!(w.r(2, 1, lane), lane + 1000);
        assert_eq!(w.r(2, 2, lane), 7);
        assert_eq!(w.r(2, 3, lane), 0, "write mask off");
    }
}

#[test]
fn evergreen_ps_is_the_t_slot_of_the_previous_group() {
    let mut t = op2(AluOp::ADD_INT, 3, 0, [gpr(0, 0), k(sel::ONE_INT, 0)]);
    t.slot = Slot::T;
    let p = end(Prog::new().alu(
        CfAluOp::ALU,
        vec![
            vec![op2(AluOp::MOV, 3, 1, [gpr(0, 0), gpr(0, 0)]), t],
            vec![op2(AluOp::MOV, 3, 2, [k(sel::PS, 0), gpr(0, 0)])],
        ],
    ));
    let (w, r) = run(
        &p.build(ChipClass::Evergreen),
        Chip::Cypress,
        u64::MAX,
        &[0; 4],
    );
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        assert_eq!(w.r(3, 2, lane), lane + 1);
    }
}

/// `if (lane > 31) R8.x = 1 else R8.x = 2` with ALU_PUSH_BEFORE, JUMP, ELSE, POP; only the
/// lanes of `active` run.
#[test]
fn push_jump_else_pop() {
    let p = Prog::new()
        .alu(
            CfAluOp::ALU_PUSH_BEFORE,
            vec![vec![pred_set(
                AluOp::PRED_SETGT_INT,
                gpr(0, 0),
                k(sel::LITERAL, 0),
            )]],
        )
        .cf(word(CfOp::JUMP, 3, 0))
        .alu(
            CfAluOp::ALU,
            vec![vec![op2(AluOp::MOV, 8, 0, [k(sel::ONE_INT, 0), gpr(0, 0)])]],
        )
        .cf(word(CfOp::ELSE, 5, 0))
        .alu(
            CfAluOp::ALU,
            vec![vec![op2(AluOp::MOV, 8, 0, [k(sel::LITERAL, 0), gpr(0, 0)])]],
        )
        .cf(word(CfOp::POP, 6, 1));
    let mut prog = end(p).build(ChipClass::Cayman);
    for c in &mut prog.clauses {
        if let ClauseBody::Alu(g) = &mut c.body {
            if g[0].insts[0].src[0].sel == sel::LITERAL || g[0].insts[0].src[1].sel == sel::LITERAL
            {
                g[0].literals = vec![
                    if g[0].insts[0].op == AluOp::MOV {
                        2
                    } else {
                        31
                    },
                    0,
                ];
            }
        }
    }
    fix_addrs(&mut prog);
    let active = 0x0000_ffff_ffff_fff0u64;
    let (w, r) = run(&prog, Chip::Cayman, active, &[0; 4]);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        let want = if active >> lane & 1 == 0 {
            0
        } else if lane > 31 {
            1
        } else {
            2
        };
        assert_eq!(w.r(8, 0, lane), want, "lane {lane}");
    }
}

/// Recomputes clause addresses after literals were added by hand.
fn fix_addrs(p: &mut Program) {
    let mut at = p.clauses[0].addr;
    let mut starts = Vec::new();
    for c in &mut p.clauses {
        c.addr = at;
        if let ClauseBody::Alu(g) = &mut c.body {
            for grp in g.iter_mut() {
                grp.addr = at;
                at += grp.slots();
            }
        } else {
            at += c.len;
        }
        c.len = at - c.addr;
        starts.push((c.addr, c.len));
    }
    let mut k = 0;
    for e in &mut p.cf {
        if let CfInst::Alu(a) = &mut e.inst {
            a.addr = starts[k].0;
            a.count = (starts[k].1 - 1) as u8;
            k += 1;
        }
    }
    p.len = at;
}

/// do { R6.x += 1 } while (R6.x < lane) as LLVM builds it: a DX10 loop with
/// ALU_PUSH_BEFORE + LOOP_BREAK + POP; R6.x ends as max(1, lane).
#[test]
fn dx10_loop_with_break() {
    let p = end(Prog::new()
        .cf(word(CfOp::LOOP_START_DX10, 6, 0))
        .alu(
            CfAluOp::ALU,
            vec![vec![op2(
                AluOp::ADD_INT,
                6,
                0,
                [gpr(6, 0), k(sel::ONE_INT, 0)],
            )]],
        )
        .alu(
            CfAluOp::ALU_PUSH_BEFORE,
            vec![vec![pred_set(AluOp::PRED_SETGE_INT, gpr(6, 0), gpr(0, 0))]],
        )
        .cf(word(CfOp::LOOP_BREAK, 5, 0))
        .cf(word(CfOp::POP, 5, 1))
        .cf(word(CfOp::LOOP_END, 1, 0)));
    let active = u64::MAX >> 3;
    let (w, r) = run(&p.build(ChipClass::Cayman), Chip::Cayman, active, &[0; 4]);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        let want = if lane < 61 { lane.max(1) } else { 0 };
        assert_eq!(w.r(6, 0, lane), want, "lane {lane}");
    }
}

/// LOOP_CONTINUE: lanes with an odd lane id skip the second add of each iteration; the loop
/// runs 4 times (ALU_PUSH_BEFORE on the iteration count, LOOP_BREAK).
#[test]
fn loop_continue_skips_the_rest_of_the_iteration() {
    let odd = pred_set(AluOp::PRED_SETNE_INT, gpr(9, 1), k(sel::ZERO, 0));
    let p = end(Prog::new()
        .alu(
            CfAluOp::ALU,
            vec![vec![op2(
                AluOp::AND_INT,
                9,
                1,
                [gpr(0, 0), k(sel::ONE_INT, 0)],
            )]],
        )
        .cf(word(CfOp::LOOP_START_DX10, 11, 0))
        // 2: count iterations in R9.x, break when R9.x >= 4 (pushes/pops around the break)
        .alu(
            CfAluOp::ALU,
            vec![vec![op2(
                AluOp::ADD_INT,
                9,
                0,
                [gpr(9, 0), k(sel::ONE_INT, 0)],
            )]],
        )
        .alu(
            CfAluOp::ALU_PUSH_BEFORE,
            vec![vec![pred_set(
                AluOp::PRED_SETGE_INT,
                gpr(9, 0),
                k(sel::LITERAL, 0),
            )]],
        )
        .cf(word(CfOp::LOOP_BREAK, 10, 0))
        .cf(word(CfOp::POP, 6, 1))
        // 6: odd lanes continue
        .alu(CfAluOp::ALU_PUSH_BEFORE, vec![vec![odd]])
        .cf(word(CfOp::LOOP_CONTINUE, 10, 0))
        .cf(word(CfOp::POP, 9, 1))
        // 9: R9.z += 1 for the lanes still running this iteration
        .alu(
            CfAluOp::ALU,
            vec![vec![op2(
                AluOp::ADD_INT,
                9,
                2,
                [gpr(9, 2), k(sel::ONE_INT, 0)],
            )]],
        )
        .cf(word(CfOp::LOOP_END, 2, 0)));
    let mut prog = p.build(ChipClass::Cayman);
    if let ClauseBody::Alu(g) = &mut prog.clauses[2].body {
        g[0].literals = vec![4, 0];
    }
    fix_addrs(&mut prog);
    let (w, r) = run(&prog, Chip::Cayman, u64::MAX, &[0; 4]);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        // Iterations 1-3 reach the add (the 4th breaks first); odd lanes never do.
        assert_eq!(w.r(9, 0, lane), 4);
        assert_eq!(
            w.r(9, 2, lane),
            if lane % 2 == 1 { 0 } else { 3 },
            "lane {lane}"
        );
    }
}

#[test]
fn call_and_return() {
    // 0: CALL @3; 1: R7.x += 10; 2: END; 3: R7.x = 5; 4: RETURN.
    let mut call = word(CfOp::CALL, 3, 0);
    if let CfInst::Word(w) = &mut call {
        w.count = 1;
    }
    let p = Prog::new()
        .cf(call)
        .alu_lit(
            CfAluOp::ALU,
            vec![vec![op2(
                AluOp::ADD_INT,
                7,
                0,
                [gpr(7, 0), k(sel::LITERAL, 0)],
            )]],
            vec![vec![10, 0]],
        )
        .cf(word(CfOp::END, 0, 0))
        .alu_lit(
            CfAluOp::ALU,
            vec![vec![op2(AluOp::MOV, 7, 0, [k(sel::LITERAL, 0), gpr(0, 0)])]],
            vec![vec![5, 0]],
        )
        .cf(word(CfOp::RETURN, 0, 0));
    let (w, r) = run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]);
    assert_eq!(r, Ok(true));
    assert_eq!(w.r(7, 0, 5), 15);
}

#[test]
fn stack_faults() {
    // POP with nothing pushed.
    let p = end(Prog::new().cf(word(CfOp::POP, 1, 1)));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Err(FaultKind::StackUnderflow)
    );
    // RETURN outside a subroutine.
    let p = end(Prog::new().cf(word(CfOp::RETURN, 0, 0)));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Err(FaultKind::StackUnderflow)
    );
    // A CALL_COUNT 0 self-call never reaches the depth limit: the 129th push overflows the
    // 128 subentries.
    let p = end(Prog::new().cf(word(CfOp::CALL, 0, 0)));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Err(FaultKind::StackOverflow)
    );
    // With CALL_COUNT 1 the self-call is ignored at depth 32 (3.7.6; 32 subentries fit)
    // and the program ends normally.
    let mut call = word(CfOp::CALL, 0, 0);
    if let CfInst::Word(w) = &mut call {
        w.count = 1;
    }
    let p = end(Prog::new().cf(call));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Ok(true)
    );
}

#[test]
fn bad_jumps_and_endless_loops() {
    // JUMP with COND = FALSE always jumps: to an address outside the program.
    let mut j = word(CfOp::JUMP, 100, 0);
    if let CfInst::Word(w) = &mut j {
        w.cond = 1;
    }
    let p = end(Prog::new().cf(j));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Err(FaultKind::BadJump)
    );
    // Falling off the end of a CF program without CF_END.
    let p = Prog::new().cf(word(CfOp::NOP, 0, 0));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Err(FaultKind::BadJump)
    );
    // A DX10 loop nobody breaks out of never ends (the fuel runs out).
    let p = end(Prog::new()
        .cf(word(CfOp::LOOP_START_DX10, 3, 0))
        .cf(word(CfOp::NOP, 0, 0))
        .cf(word(CfOp::LOOP_END, 1, 0)));
    assert_eq!(
        run(&p.build(ChipClass::Cayman), Chip::Cayman, u64::MAX, &[0; 4]).1,
        Ok(false)
    );
}

/// VTX_READ_32 R0.x, R0.x, 0, #1 as llc-14 encodes it (cayman listing).
fn vtx_read_32() -> FetchInst {
    FetchInst {
        op: FetchOp::VTX_FETCH,
        words: [0x0000_0140, 0x135f_f000, 0],
    }
}

#[test]
fn fetch_and_rat_out_of_bounds_are_faults() {
    let p = end(Prog::new().vtx(vtx_read_32()));
    // R0.x = lane: bytes 0..255 of the pool, where nothing is mapped below the first buffer
    // the test allocates after GUEST_BASE (constant buffer 0 sits at GUEST_BASE itself), so
    // move every lane far past it.
    let prog = p.build(ChipClass::Cayman);
    let f = lift_ok(&prog, Chip::Cayman);
    let mut w = Wave::new(u64::MAX, &[0; 4]);
    for lane in 0..64 {
        w.state
            .set_lane(w.l.gpr(0, 0), lane, 0x0100_0000 + 4 * lane);
    }
    assert!(matches!(
        run_on(&f, &mut w, FUEL),
        Err(FaultKind::OutOfBounds { .. })
    ));
    // In bounds: the lanes read constant buffer 0 (at GUEST_BASE) through the pool.
    let mut w = Wave::new(u64::MAX, &[11, 22, 33, 44]);
    for lane in 0..64 {
        w.state.set_lane(w.l.gpr(0, 0), lane, 4 * (lane % 4));
    }
    assert_eq!(run_on(&f, &mut w, FUEL), Ok(true));
    assert_eq!(
        (0..4).map(|l| w.r(0, 0, l)).collect::<Vec<_>>(),
        [11, 22, 33, 44]
    );

    // MEM_RAT_CACHELESS STORE_DWORD R1.x at dword index R0.x.
    let store = CfInst::Mem(CfMem {
        op: CfMemOp::MEM_RAT_CACHELESS,
        rat: Some(RatFields {
            id: 0,
            inst: RatInst::STORE_DWORD,
            index_mode: 0,
        }),
        array_base: 0,
        kind: 1,
        rw_gpr: 1,
        rw_rel: false,
        index_gpr: 0,
        elem_size: 0,
        array_size: 0,
        comp_mask: 1,
        burst_count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        mark: false,
        barrier: true,
    });
    let prog = end(Prog::new().cf(store)).build(ChipClass::Cayman);
    let f = lift_ok(&prog, Chip::Cayman);
    let mut w = Wave::new(u64::MAX, &[0; 4]);
    for lane in 0..64 {
        w.state.set_lane(w.l.gpr(0, 0), lane, 0x0040_0000 + lane);
    }
    assert!(matches!(
        run_on(&f, &mut w, FUEL),
        Err(FaultKind::OutOfBounds { write: true, .. })
    ));
    // In bounds: lane l stores R1.x = 100 + l to dword l of constant buffer 0's bytes.
    let mut w = Wave::new(0xf, &[0; 4]);
    for lane in 0..64 {
        w.state.set_lane(w.l.gpr(0, 0), lane, lane);
        w.state.set_lane(w.l.gpr(1, 0), lane, 100 + lane);
    }
    assert_eq!(run_on(&f, &mut w, FUEL), Ok(true));
    let mut b = [0u8; 16];
    w.mem
        .read_bytes(wavejit_runtime::GUEST_BASE, &mut b)
        .unwrap();
    let got: Vec<u32> = b
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(got, [100, 101, 102, 103]);
}

/// Regression (fuzz_diff, Evergreen seed 0x7e4a0008): a relative destination indexed by a
/// per-lane AR.x whose value folds to a uniform (a literal MOV, PRED_SET_CLR's constant)
/// used to give IR the verifier rejects. Lane l writes R(2 + l % 8).w, and only that row.
#[test]
fn relative_destination_with_a_per_lane_ar_and_a_uniform_value() {
    let mut rel_mov = op2(AluOp::MOV, 2, 3, [k(sel::LITERAL, 0), gpr(0, 0)]);
    rel_mov.dst_rel = true;
    let mut rel_clr = op2(AluOp::PRED_SET_CLR, 20, 2, [gpr(0, 0), gpr(0, 0)]);
    rel_clr.dst_rel = true;
    let p = end(Prog::new().alu_lit(
        CfAluOp::ALU,
        vec![
            vec![op2(AluOp::AND_INT, 1, 0, [gpr(0, 0), k(sel::LITERAL, 0)])],
            vec![op2(AluOp::MOVA_INT, 0, 0, [gpr(1, 0), gpr(0, 0)])],
            vec![rel_clr, rel_mov],
        ],
        vec![vec![7, 0], vec![], vec![0x1234, 0]],
    ));
    let (w, r) = run(
        &p.build(ChipClass::Evergreen),
        Chip::Cypress,
        u64::MAX,
        &[0; 8],
    );
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        for row in 2..10 {
            let want = if row == 2 + lane % 8 { 0x1234 } else { 0 };
            assert_eq!(w.r(row, 3, lane), want, "R{row}.w lane {lane}");
        }
    }
}

#[test]
fn every_alu_instruction_counts_once() {
    // Two groups of three and two instructions (one with a literal) in one ALU clause; fuel
    // and the guest-instruction rates count machine instructions, so the clause's block
    // must count the CF instruction and each ALU instruction exactly once.
    let one = k(sel::ONE_INT, 0);
    let prog = end(Prog::new().alu_lit(
        CfAluOp::ALU,
        vec![
            vec![
                op2(AluOp::ADD_INT, 1, 0, [gpr(0, 0), one]),
                op2(AluOp::MOV, 1, 1, [k(sel::LITERAL, 0), one]),
                op2(AluOp::XOR_INT, 1, 2, [gpr(0, 0), one]),
            ],
            vec![
                op2(AluOp::ADD_INT, 1, 3, [k(sel::PV, 0), one]),
                op2(AluOp::MOV, 2, 0, [k(sel::PV, 1), one]),
            ],
        ],
        vec![vec![5, 0], vec![]],
    ))
    .build(ChipClass::Cayman);
    let alu: usize = prog
        .clauses
        .iter()
        .map(|c| match &c.body {
            ClauseBody::Alu(gs) => gs.iter().map(|g| g.insts.len()).sum(),
            ClauseBody::Fetch(f) => f.len(),
        })
        .sum();
    assert_eq!(alu, 5);
    let f = lift_ok(&prog, Chip::Cayman);
    // Straight-line CF code merges into one block (`wavejit_ir::merge_blocks`): the block
    // holding the clause counts the ALU CF instruction, each ALU instruction and CF_END.
    let clause_pc = 8 * prog.clauses[0].addr;
    let blk = f
        .blocks
        .iter()
        .find(|b| b.insts.iter().any(|i| i.pc == clause_pc))
        .expect("the clause's block");
    assert_eq!(
        blk.guest_insts as usize,
        prog.cf.len() + alu,
        "the clause's block"
    );
    let total: u32 = f.blocks.iter().map(|b| b.guest_insts).sum();
    assert_eq!(total as usize, prog.cf.len() + alu);
    // And the clause still computes: R1.x = lane + 1, R1.w = PV.x + 1, R2.x = PV.y = 5.
    let (w, r) = run(&prog, Chip::Cayman, u64::MAX, &[0; 4]);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        assert_eq!(w.r(1, 0, lane), lane + 1);
        assert_eq!(w.r(1, 3, lane), lane + 2);
        assert_eq!(w.r(2, 0, lane), 5);
    }
}

#[test]
fn a_group_under_other_lanes_reads_the_blend_of_a_predicated_write() {
    // G1 (all lanes): R1.x = lane + 100.
    // G2: PRED_SETGT_INT lane, 31 (predicate only): pred = lanes 32-63; PV.x = 1.0f where
    //     the test fails (4.8 PRED_SET*: 0.0 when true, 1.0 when false).
    // G3 (PRED_SEL ONE, lanes 32-63): R2.x = lane + 1000 (and PV.x).
    // G4 (all lanes): R3.x = R2.x + 1, R3.y = PV.x + 0, R3.z = R1.x + 0.
    // Lanes 0-31 of R2.x and PV.x keep their values from before G3 (R2.x = 0).
    let one = k(sel::ONE_INT, 0);
    let zero = k(sel::ZERO, 0);
    let mut ps = pred_set(AluOp::PRED_SETGT_INT, gpr(0, 0), k(sel::LITERAL, 0));
    ps.update_exec_mask = false;
    let mut g3 = op2(AluOp::ADD_INT, 2, 0, [gpr(0, 0), k(sel::LITERAL, 0)]);
    g3.pred_sel = 3;
    let prog = end(Prog::new().alu_lit(
        CfAluOp::ALU,
        vec![
            vec![op2(AluOp::ADD_INT, 1, 0, [gpr(0, 0), k(sel::LITERAL, 0)])],
            vec![ps],
            vec![g3],
            vec![
                op2(AluOp::ADD_INT, 3, 0, [gpr(2, 0), one]),
                op2(AluOp::ADD_INT, 3, 1, [k(sel::PV, 0), zero]),
                op2(AluOp::ADD_INT, 3, 2, [gpr(1, 0), zero]),
            ],
        ],
        vec![vec![100, 0], vec![31, 0], vec![1000, 0], vec![]],
    ))
    .build(ChipClass::Cayman);
    let (w, r) = run(&prog, Chip::Cayman, u64::MAX, &[0; 4]);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        let pred = lane > 31;
        assert_eq!(w.r(1, 0, lane), lane + 100);
        assert_eq!(w.r(2, 0, lane), if pred { lane + 1000 } else { 0 }, "R2.x");
        assert_eq!(w.r(3, 0, lane), if pred { lane + 1001 } else { 1 }, "R3.x");
        let pv = if pred { lane + 1000 } else { 1f32.to_bits() };
        assert_eq!(w.r(3, 1, lane), pv, "R3.y = PV.x");
        assert_eq!(w.r(3, 2, lane), lane + 100, "R3.z");
    }
}

#[test]
fn a_clause_keeps_masks_constants_and_pv_in_ssa() {
    // Three groups, all lanes: R1.x = lane + KC0[1].z, R1.y = KC0[1].z (PV.x, PV.y);
    // R2.x = PV.x + KC0[1].z, R2.y = PV.y + 1; R3.x = R1.x + R2.x.
    use wavejit_ir::InstKind;
    let one = k(sel::ONE_INT, 0);
    let kz = k(sel::KCACHE0 + 1, 2);
    let prog = end(Prog::new().alu(
        CfAluOp::ALU,
        vec![
            vec![
                op2(AluOp::ADD_INT, 1, 0, [gpr(0, 0), kz]),
                op2(AluOp::MOV, 1, 1, [kz, one]),
            ],
            vec![
                op2(AluOp::ADD_INT, 2, 0, [k(sel::PV, 0), kz]),
                op2(AluOp::ADD_INT, 2, 1, [k(sel::PV, 1), one]),
            ],
            vec![op2(AluOp::ADD_INT, 3, 0, [gpr(1, 0), gpr(2, 0)])],
        ],
    ))
    .build(ChipClass::Cayman);
    let f = lift_ok(&prog, Chip::Cayman);
    let clause_pc = 8 * prog.clauses[0].addr;
    let blk = f
        .blocks
        .iter()
        .find(|b| b.insts.iter().any(|i| i.pc == clause_pc))
        .expect("the clause's block");
    let count = |p: &dyn Fn(&InstKind) -> bool| blk.insts.iter().filter(|i| p(&i.kind)).count();
    let l = TsLayout::new(64);
    assert_eq!(
        count(&|k| matches!(k, InstKind::Load { .. })),
        1,
        "one kcache load"
    );
    assert_eq!(
        count(&|k| matches!(k, InstKind::MaskFromBits(_))),
        1,
        "one exec mask"
    );
    let pv = count(&|k| matches!(k, InstKind::WriteReg { reg, .. } if reg.file == l.pv));
    // PV values are not preserved past the end of the clause (4.6.2, L1458): never stored.
    assert_eq!(pv, 0, "no PV store");
    let reads = count(
        &|k| matches!(k, InstKind::ReadReg(r) if r.file == l.pv || r.file == l.r && r.index >= 4),
    );
    assert_eq!(reads, 0, "PV and R1-R3 read from SSA values");
    let cb0 = [0, 0, 0, 0, 10, 20, 1000, 40];
    let (w, r) = run(&prog, Chip::Cayman, u64::MAX, &cb0);
    assert_eq!(r, Ok(true));
    for lane in 0..64 {
        assert_eq!(w.r(1, 0, lane), lane + 1000);
        assert_eq!(w.r(1, 1, lane), 1000);
        assert_eq!(w.r(2, 0, lane), lane + 2000);
        assert_eq!(w.r(2, 1, lane), 1001);
        assert_eq!(w.r(3, 0, lane), 2 * lane + 3000);
    }
}

/// LLVM's and Mesa's if/else: `JUMP @else POP:0`, `ELSE @past-the-POP POP:1`, `POP POP:1`
/// (R600ControlFlowFinalizer, r600_shader.c). ELSE pops only when it jumps, so the stack
/// balances whether the then-part, the else-part or both have lanes, and the active mask is
/// restored at the end.
#[test]
fn llvm_if_else_balances_the_stack() {
    for active in [
        0x0000_ffff_ffff_fff0u64,
        0xffff_ffff_0000_0000,
        0x0000_0000_ffff_ffff,
    ] {
        let p = Prog::new()
            .alu(
                CfAluOp::ALU_PUSH_BEFORE,
                vec![vec![pred_set(
                    AluOp::PRED_SETGT_INT,
                    gpr(0, 0),
                    k(sel::LITERAL, 0),
                )]],
            )
            .cf(word(CfOp::JUMP, 3, 0))
            .alu(
                CfAluOp::ALU,
                vec![vec![op2(AluOp::MOV, 8, 0, [k(sel::ONE_INT, 0), gpr(0, 0)])]],
            )
            .cf(word(CfOp::ELSE, 6, 1))
            .alu(
                CfAluOp::ALU,
                vec![vec![op2(AluOp::MOV, 8, 0, [k(sel::LITERAL, 0), gpr(0, 0)])]],
            )
            .cf(word(CfOp::POP, 6, 1))
            // After the if: every lane that was active writes R9.x = 7.
            .alu(
                CfAluOp::ALU,
                vec![vec![op2(AluOp::MOV, 9, 0, [k(sel::LITERAL, 0), gpr(0, 0)])]],
            );
        let mut prog = end(p).build(ChipClass::Cayman);
        for c in &mut prog.clauses {
            if let ClauseBody::Alu(g) = &mut c.body {
                let i = g[0].insts[0];
                if i.src[0].sel == sel::LITERAL || i.src[1].sel == sel::LITERAL {
                    let v = match (i.op, i.dst_gpr) {
                        (AluOp::MOV, 8) => 2,
                        (AluOp::MOV, _) => 7,
                        _ => 31,
                    };
                    g[0].literals = vec![v, 0];
                }
            }
        }
        fix_addrs(&mut prog);
        let (w, r) = run(&prog, Chip::Cayman, active, &[0; 4]);
        assert_eq!(r, Ok(true), "active {active:#x}");
        for lane in 0..64 {
            let on = active >> lane & 1 != 0;
            let want = match (on, lane > 31) {
                (false, _) => 0,
                (true, true) => 1,
                (true, false) => 2,
            };
            assert_eq!(w.r(8, 0, lane), want, "active {active:#x} lane {lane}");
            assert_eq!(
                w.r(9, 0, lane),
                if on { 7 } else { 0 },
                "active {active:#x} lane {lane}: after the if"
            );
        }
    }
}
