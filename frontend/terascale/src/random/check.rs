//! The validity rules of generated programs (the module doc of [`super`]), checked on the
//! tree so the minimiser can reject an edit that breaks one, then the layout round trip.
use super::group::{
    float_in, float_out, four_slot_wide, is_kill, is_pred_set, literal_count, produces_pv,
    CLAUSE_GLOBAL_SEL, LOOP_INDEX_SEL,
};
use super::mem::{
    gds_ops, is_generated_atomic, is_generated_store, lds_max_offset, lds_returns_b,
    lds_src1_is_address, rat_index_mask, TEX_OPS,
};
use super::{
    AluClause, GenError, Node, Push, RandomProgram, CF_IDX_MASK, CONST_BUFFERS, COUNTER_GPR,
    FETCH_GPR, FETCH_MASK, GDS_ADDR_MASK, GDS_GPR, GPR_POOL, KCACHE_LINES, LANE_GPR, LDS_ADDR_GPR,
    LDS_ADDR_MASK, MAX_FETCH_OFFSET, MAX_RAT_BURST, MAX_SCATTER_BASE, RAT_GPR, REL_SPAN, SAMPLERS,
    SCATTER_MASK, STORE_INDEX_MASK, TEXTURES,
};
use crate::chip::ChipClass;
use crate::inst::{
    bits, sel, AluGroup, AluInst, CfInst, CfMem, ClauseBody, FetchInst, Program, Slot,
};
use crate::lift::{alu_form, AluForm};
use crate::opcode::AluOp;
use crate::tables;
use crate::tables::{lds_by_code, CfOp};
use crate::tables::{lds_info, CfMemOp, FetchOp};
use std::collections::VecDeque;

/// What a clause is for (which registers it may write, whether it ends in an exec group).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Plain,
    Condition,
    LoopCheck(u8),
    CounterInit(u8),
}

/// Checks every rule and lays the program out; the result is the decoded-equal [`Program`].
pub fn check(p: &RandomProgram) -> Result<Program, GenError> {
    nodes(p.class, &p.nodes, None).map_err(GenError::Invalid)?;
    let l = p.lower()?;
    scratch_sizes(&l).map_err(GenError::Invalid)?;
    Ok(l)
}

/// Every scratch access of a program uses one ELEM_SIZE, 0 or 1.
fn scratch_sizes(p: &Program) -> Result<(), String> {
    let writes = p.cf.iter().filter_map(|e| match e.inst {
        CfInst::Mem(m) if m.op == CfMemOp::MEM_WR_SCRATCH => Some(u32::from(m.elem_size)),
        _ => None,
    });
    let reads = p.clauses.iter().flat_map(|c| match &c.body {
        ClauseBody::Fetch(f) => f
            .iter()
            .filter(|f| f.op == FetchOp::MEM_RD_SCRATCH)
            .map(|f| bits(f.words[0], 5, 2))
            .collect(),
        _ => Vec::new(),
    });
    let sizes: Vec<u32> = writes.chain(reads).collect();
    if sizes.iter().any(|&s| s > 1 || s != sizes[0]) {
        return Err(format!("scratch element sizes {sizes:?}"));
    }
    Ok(())
}

fn nodes(class: ChipClass, ns: &[Node], in_loop: Option<u8>) -> Result<(), String> {
    for n in ns {
        match n {
            Node::Alu(c) => clause(class, c, Role::Plain, in_loop.is_some())?,
            Node::If {
                push,
                cond,
                then_body,
                else_body,
                ..
            } => {
                // Whole-quad widening would wake lanes whose loop counters were never set.
                if *push == Push::PushWqmThenAlu
                    && (class != ChipClass::Cayman || in_loop.is_some())
                {
                    return Err("PUSH_WQM off Cayman or in a loop".into());
                }
                clause(class, cond, Role::Condition, in_loop.is_some())?;
                nodes(class, then_body, in_loop)?;
                if let Some(e) = else_body {
                    nodes(class, e, in_loop)?;
                }
            }
            Node::Loop {
                depth,
                init,
                check,
                body,
                ..
            } => {
                let want = in_loop.map_or(0, |d| d + 1);
                if *depth != want || want >= 2 {
                    return Err(format!("loop at depth {want} names counter {depth}"));
                }
                clause(class, init, Role::CounterInit(want), false)?;
                clause(class, check, Role::LoopCheck(want), false)?;
                nodes(class, body, Some(want))?;
            }
            Node::Break(c) | Node::Continue(c) | Node::AluBreak(c) | Node::AluContinue(c) => {
                if in_loop.is_none() {
                    return Err("break or continue outside a loop".into());
                }
                if matches!(n, Node::AluBreak(_) | Node::AluContinue(_))
                    && class != ChipClass::Evergreen
                {
                    return Err("ALU_BREAK/ALU_CONTINUE exist only on Evergreen".into());
                }
                clause(class, c, Role::Condition, true)?;
            }
            Node::Call { count, body } => {
                if *count > 2 || in_loop.is_some() {
                    return Err(format!("CALL_COUNT {count} (in a loop: {in_loop:?})"));
                }
                nodes(class, body, None)?;
            }
            Node::Fetch { setup, vc, insts } => {
                setup_clause(setup, FETCH_GPR, FETCH_MASK)?;
                if insts.is_empty() || insts.len() > 8 || (*vc && class != ChipClass::Evergreen) {
                    return Err(format!("fetch clause of {} instructions", insts.len()));
                }
                for f in insts {
                    match f.op {
                        FetchOp::MEM_RD_SCATTER => scatter(f, literal_of(setup, 0))?,
                        FetchOp::MEM_RD_SCRATCH => scratch_read(f)?,
                        FetchOp::VTX_FETCH => vtx(f)?,
                        _ if !*vc => tex(f)?,
                        _ => return Err(format!("{} in a VC clause", f.op.name())),
                    }
                }
            }
            Node::JumpAny { cond, body } => {
                if class != ChipClass::Cayman || *cond > 3 {
                    return Err(format!("JUMP_ANY COND {cond} on {class:?}"));
                }
                nodes(class, body, in_loop)?;
            }
            Node::CfWord(op) => {
                let ok = class == ChipClass::Cayman
                    && match op {
                        CfOp::REACTIVATE | CfOp::REACTIVATE_WQM => in_loop.is_none(),
                        CfOp::SET_PRIORITY | CfOp::LDS_DEALLOC => true,
                        _ => false,
                    };
                if !ok {
                    return Err(format!("{} here (in a loop: {in_loop:?})", op.name()));
                }
            }
            Node::AluReactivate { clause: c, .. } => {
                if class != ChipClass::Cayman || in_loop.is_some() {
                    return Err("ALU_REACTIVATE_BEFORE off Cayman or in a loop".into());
                }
                clause(class, c, Role::Plain, false)?;
            }
            Node::Scratch(m) => scratch_write(m)?,
            Node::Gds { setup, insts } => {
                setup_clause(setup, GDS_GPR, u32::MAX)?;
                let addr = literal_of(setup, 0);
                if class != ChipClass::Cayman
                    || addr.is_none_or(|m| m > GDS_ADDR_MASK || m & 3 != 0)
                    || insts.is_empty()
                    || insts.len() > 8
                {
                    return Err(format!("GDS clause of {} instructions", insts.len()));
                }
                for f in insts {
                    gds(class, f)?;
                }
            }
            Node::Rat { setup, mem } => {
                let mask = mem
                    .rat
                    .map_or(STORE_INDEX_MASK, |r| rat_index_mask(class, r.inst));
                setup_clause(setup, RAT_GPR, mask)?;
                rat(class, mem)?;
            }
        }
    }
    Ok(())
}

/// A setup clause: one group of `AND_INT R[gpr].c, Rn, literal <= max`, or in the memory
/// profile `ADD_INT R[gpr].c, R[LANE_GPR].c', literal` (any base: such an address may leave
/// the buffer on purpose).
fn setup_clause(c: &AluClause, gpr: u8, max: u32) -> Result<(), String> {
    let bad = || Err(format!("setup clause of R{gpr} is not one masking group"));
    let [g] = &c.groups[..] else { return bad() };
    if c.kcache.iter().any(|k| k.mode != 0) || c.ext || g.insts.is_empty() {
        return bad();
    }
    for (k, i) in g.insts.iter().enumerate() {
        let lit = i.src[1];
        let masked = i.op == AluOp::AND_INT
            && i.src[0].sel < GPR_POOL as u16
            && g.literals.get(lit.chan as usize).is_some_and(|&m| m <= max);
        let ok = (masked || lane_base(i))
            && i.write
            && i.dst_gpr == gpr
            && !i.dst_rel
            && i.dst_chan as usize == i.slot.index()
            && i.slot != Slot::T
            && i.pred_sel == 0
            && i.last == (k + 1 == g.insts.len())
            && !i.src[0].rel
            && lit.sel == sel::LITERAL
            && g.literals.len() == literal_count(&g.insts);
        if !ok {
            return bad();
        }
    }
    Ok(())
}

/// A VTX read of a LLVM template's format from the pool or constant buffer 0 at
/// `R[FETCH_GPR].c + OFFSET`.
fn vtx(f: &FetchInst) -> Result<(), String> {
    // BUFFER_INDEX_MODE only on buffer 1: + CF_IDX (0 or 2) names the pool or buffer 3.
    let index_mode = bits(f.words[2], 21, 2);
    let ok = f.op == FetchOp::VTX_FETCH
        && (index_mode == 0 || (index_mode <= 2 && f.buffer_id() == 1))
        && matches!(f.buffer_id(), 1 | 3)
        && f.src_gpr() == FETCH_GPR
        && !f.src_rel()
        && !f.dst_rel()
        && f.dst_gpr() < GPR_POOL
        && u32::from(f.offset()) <= MAX_FETCH_OFFSET
        && matches!(f.data_format(), 1 | 5 | 13 | 29 | 34)
        && f.num_format_all() == 1
        && f.endian_swap() == 0
        && f.dst_sel().iter().all(|&s| s != 6);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "fetch {:08x?} outside the generator's shapes",
            f.words
        ))
    }
}

/// The AND mask a setup clause applies to channel `c` (its literal), if it masks `c`.
fn literal_of(setup: &AluClause, c: u8) -> Option<u32> {
    let g = setup.groups.first()?;
    let i = g
        .insts
        .iter()
        .find(|i| i.dst_chan == c && i.op == AluOp::AND_INT)?;
    g.literals.get(i.src[1].chan as usize).copied()
}

/// Memory profile: `ADD_INT Rd.c, R[LANE_GPR].c', literal`, an address from a lane pattern
/// (unpredicated; the caller checks the destination).
fn lane_base(i: &AluInst) -> bool {
    i.op == AluOp::ADD_INT
        && i.pred_sel == 0
        && i.src[0].sel == u16::from(LANE_GPR)
        && !i.src[0].rel
        && !i.src[0].neg
        && !i.src[0].abs
        && i.src[1].sel == sel::LITERAL
}

/// A RAT 0 store (through MEM_RAT_CACHELESS or MEM_RAT) or atomic (MEM_RAT) indexed by
/// `R[RAT_GPR].x`, data from the random pool, with a burst that keeps the data GPRs in the
/// pool and the stride at most 16 (cacheless ARRAY_SIZE) or 1, 2, 4 (ELEM_SIZE) dwords.
fn rat(class: ChipClass, m: &CfMem) -> Result<(), String> {
    let Some(r) = m.rat else {
        return Err("memory instruction without RAT fields".into());
    };
    let cacheless = m.op == CfMemOp::MEM_RAT_CACHELESS;
    let store = is_generated_store(class, r.inst) && (cacheless || m.op == CfMemOp::MEM_RAT);
    let atomic = is_generated_atomic(class, r.inst) && m.op == CfMemOp::MEM_RAT;
    let stride_ok = if cacheless {
        m.array_size < 16 && m.elem_size == 0
    } else {
        m.elem_size != 2 && m.array_size == 0
    };
    let ok = (store || atomic)
        && r.id == 0
        && r.index_mode == 0
        && m.index_gpr == RAT_GPR
        && m.burst_count <= MAX_RAT_BURST
        && u16::from(m.rw_gpr) + u16::from(m.burst_count) < u16::from(GPR_POOL)
        && stride_ok
        && !m.rw_rel
        && !m.end_of_program;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "RAT instruction {m:?} outside the generator's shapes"
        ))
    }
}

/// MEM_RD_SCATTER reading a VTX_READ template's format at dword
/// `ARRAY_BASE + R[FETCH_GPR].x` with the x mask at most [`SCATTER_MASK`].
fn scatter(f: &FetchInst, x_mask: Option<u32>) -> Result<(), String> {
    let [w0, w1, w2] = f.words;
    let burst = bits(w0, 26, 4);
    let ok = x_mask.is_some_and(|m| m <= SCATTER_MASK)
        && bits(w0, 5, 2) != 2
        && f.src_gpr() == FETCH_GPR
        && bits(w0, 24, 2) == 0
        && bits(w0, 23, 1) == 0
        && bits(w0, 30, 2) == 0
        && burst <= 3
        && !f.dst_rel()
        && u32::from(f.dst_gpr()) + burst < u32::from(GPR_POOL)
        && bits(w2, 0, 13) <= MAX_SCATTER_BASE
        && bits(w2, 16, 2) == 0
        && matches!(bits(w1, 22, 6), 1 | 5 | 13 | 29 | 34)
        && f.dst_sel().iter().all(|&s| s != 6);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "scatter read {:08x?} outside the generator's shapes",
            f.words
        ))
    }
}

/// A TEX instruction of [`TEX_OPS`] on a bound resource and sampler, from and to the random
/// pool, with no relative GPR, ALT_CONST or index mode, no reserved SRC_SEL or DST_SEL, and
/// no offsets on LD.
fn tex(f: &FetchInst) -> Result<(), String> {
    let [w0, w1, w2] = f.words;
    let ok = TEX_OPS
        .iter()
        .any(|&(op, code)| op == f.op && bits(w0, 0, 5) == code)
        && bits(w0, 5, 3) == 0
        && (bits(w0, 8, 8) as usize) < TEXTURES.len()
        && bits(w0, 16, 7) < u32::from(GPR_POOL)
        && bits(w0, 23, 9) == 0
        && bits(w1, 0, 7) < u32::from(GPR_POOL)
        && bits(w1, 7, 2) == 0
        && (0..4).all(|c| bits(w1, 9 + 3 * c, 3) != 6)
        && (f.op != FetchOp::TEX_LD || (bits(w2, 0, 15) == 0 && bits(w1, 21, 7) == 0))
        && (bits(w2, 15, 5) as usize) < SAMPLERS.len()
        && (0..4).all(|c| bits(w2, 20 + 3 * c, 3) <= 5);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "TEX {:08x?} outside the generator's shapes",
            f.words
        ))
    }
}

/// MEM_RD_SCRATCH of ELEM_SIZE 0/1 with its 32-bit format, into and from the random pool.
fn scratch_read(f: &FetchInst) -> Result<(), String> {
    let [w0, w1, w2] = f.words;
    let es = bits(w0, 5, 2);
    let burst = bits(w0, 26, 4);
    let fmt_ok = match es {
        0 => matches!(bits(w1, 22, 6), 13 | 14),
        1 => matches!(bits(w1, 22, 6), 29 | 30),
        _ => false,
    };
    let ok = fmt_ok
        && f.src_gpr() < GPR_POOL
        && !f.src_rel()
        && !f.dst_rel()
        && bits(w0, 30, 1) == 0
        && burst <= 2
        && u32::from(f.dst_gpr()) + burst < u32::from(GPR_POOL)
        && bits(w2, 0, 13) <= 15
        && bits(w2, 16, 2) == 0
        && bits(w2, 20, 12) <= 31
        && f.dst_sel().iter().all(|&s| s != 6);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "scratch read {:08x?} outside the generator's shapes",
            f.words
        ))
    }
}

/// MEM_WR_SCRATCH of ELEM_SIZE 0/1 from the random pool.
fn scratch_write(m: &CfMem) -> Result<(), String> {
    let ok = m.rat.is_none()
        && m.elem_size <= 1
        && m.burst_count <= 2
        && u16::from(m.rw_gpr) + u16::from(m.burst_count) < u16::from(GPR_POOL)
        && m.index_gpr < GPR_POOL
        && !m.rw_rel
        && m.array_base <= 15
        && m.array_size <= 31
        && !m.end_of_program;
    if ok {
        Ok(())
    } else {
        Err(format!(
            "scratch write {m:?} outside the generator's shapes"
        ))
    }
}

/// Cayman MEM_GDS of an op the GDS lifter takes, at `R[GDS_GPR].x`, data from its y/z or a
/// constant, results to the random pool through DST_SELs of values the op returns.
fn gds(class: ChipClass, f: &FetchInst) -> Result<(), String> {
    let [w0, w1, w2] = f.words;
    let Some(info) = lds_by_code(class, bits(w1, 9, 6) as u16) else {
        return Err(format!("GDS op {:08x?} unknown", f.words));
    };
    let b = lds_returns_b(info.op);
    let sel_ok = |c: u32| match bits(w2, 3 * c, 3) {
        7 => true,
        0 | 4 | 5 => info.ret,
        1 => info.ret && b,
        _ => false,
    };
    let ok = gds_ops(class).contains(&info.op)
        && bits(w0, 11, 7) == u32::from(GDS_GPR)
        && bits(w0, 18, 2) == 0
        && bits(w0, 20, 3) == 0
        && matches!(bits(w0, 23, 3), 1 | 4 | 5)
        && matches!(bits(w0, 26, 3), 2 | 4 | 5)
        && bits(w1, 0, 7) < u32::from(GPR_POOL)
        && bits(w1, 7, 2) == 0
        && bits(w1, 16, 16) == 0
        && (0..4).all(sel_ok);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "GDS op {:08x?} outside the generator's shapes",
            f.words
        ))
    }
}

/// The GPR-read and write state while walking a clause.
struct State {
    windows: Vec<(u16, u16)>,
    pv: [bool; 4],
    ps: bool,
    pred: bool,
    mova_at: Option<usize>,
    /// The group that last set the LDS addresses.
    lds_addr_at: Option<usize>,
    /// Outstanding LDS output-queue entries (whether each has B), head first.
    queue: VecDeque<bool>,
    /// The clause runs inside a loop (aL is defined).
    in_loop: bool,
    /// The previous group's PV.x is an unpredicated `AND_INT` with this literal mask.
    prev_and_lit: Option<u32>,
    /// The group of the last MOVA_INT to AR.x, when its value was masked with
    /// [`CF_IDX_MASK`].
    idx_mova_at: Option<usize>,
}

fn clause(class: ChipClass, c: &AluClause, role: Role, in_loop: bool) -> Result<(), String> {
    let bases = [sel::KCACHE0, sel::KCACHE1, sel::KCACHE2, sel::KCACHE3];
    let mut windows = Vec::new();
    for (i, k) in c.kcache.iter().enumerate() {
        if k.mode == 0 {
            continue;
        }
        if (i >= 2 && !c.ext) || k.mode > 2 || k.bank >= CONST_BUFFERS || k.addr >= KCACHE_LINES {
            return Err(format!("kcache set {i} {k:?} not allowed"));
        }
        windows.push((bases[i], 16 * k.mode as u16));
    }
    for (i, &m) in c.bank_index.iter().enumerate() {
        // Bank 0 + CF_IDX (0 or 2) is a bound constant buffer.
        if m != 0 && (m > 2 || !c.ext || c.kcache[i].mode == 0 || c.kcache[i].bank != 0) {
            return Err(format!("kcache set {i}: bank index mode {m}"));
        }
    }
    if c.groups.is_empty() {
        return Err("empty clause".into());
    }
    let mut st = State {
        windows,
        pv: [false; 4],
        ps: false,
        pred: false,
        mova_at: None,
        lds_addr_at: None,
        queue: VecDeque::new(),
        in_loop,
        prev_and_lit: None,
        idx_mova_at: None,
    };
    let last = c.groups.len() - 1;
    for (gi, g) in c.groups.iter().enumerate() {
        let exec = matches!(role, Role::Condition | Role::LoopCheck(_)) && gi == last;
        group(class, g, gi, exec, role, &mut st).map_err(|e| format!("group {gi}: {e}"))?;
    }
    if !st.queue.is_empty() {
        return Err(format!(
            "{} LDS output-queue entries left at clause end",
            st.queue.len()
        ));
    }
    Ok(())
}

fn group(
    class: ChipClass,
    g: &AluGroup,
    gi: usize,
    exec: bool,
    role: Role,
    st: &mut State,
) -> Result<(), String> {
    let n = g.insts.len();
    if n == 0 {
        return Err("empty group".into());
    }
    if g.insts
        .iter()
        .enumerate()
        .any(|(k, i)| i.last != (k + 1 == n))
    {
        return Err("LAST must mark exactly the final instruction".into());
    }
    if g.literals.len() != literal_count(&g.insts) {
        return Err(format!(
            "{} literal dwords for its sources",
            g.literals.len()
        ));
    }
    let mut preds: Vec<AluOp> = g
        .insts
        .iter()
        .map(|i| i.op)
        .filter(|&o| is_pred_set(o))
        .collect();
    preds.dedup();
    let wide_pred = preds.len() == 1 && matches!(alu_form(preds[0]), Ok(AluForm::Wide(_)));
    if preds.len() > 1 || (!wide_pred && g.insts.iter().filter(|i| is_pred_set(i.op)).count() > 1) {
        return Err("more than one PRED_SET".into());
    }
    let execs = g.insts.iter().filter(|i| i.update_exec_mask).count();
    if execs != usize::from(exec) {
        return Err(format!(
            "{execs} exec-mask updates where {} expected",
            u8::from(exec)
        ));
    }
    let mova = g.insts.iter().any(|i| i.op == AluOp::MOVA_INT);
    let mova_ar = g
        .insts
        .iter()
        .any(|i| i.op == AluOp::MOVA_INT && i.mova_dst(class).unwrap_or(0) == 0);
    let rel_ok = !mova && st.mova_at.is_some_and(|m| gi >= m + 2);
    let pop = queue_use(g, st)?;
    let mut writes = Vec::new();
    for i in &g.insts {
        inst(class, g, i, gi, role, rel_ok, st).map_err(|e| format!("{}: {e}", i.op.name()))?;
        if i.write && i.op != AluOp::NOP {
            let w = (i.dst_gpr, i.dst_chan, i.dst_rel);
            if writes.contains(&w) {
                return Err("two slots write one GPR element".into());
            }
            writes.push(w);
        }
    }
    if let Some(t) = g.in_slot(Slot::T) {
        if t.dst_rel {
            return Err("relative T-slot write".into());
        }
        if g.in_slot(Slot::from_chan(t.dst_chan))
            .is_some_and(|v| v.dst_rel)
        {
            return Err("T slot shares a channel with a relative write".into());
        }
    }
    for s in Slot::VECTOR {
        st.pv[s.index()] = g.in_slot(s).is_some_and(produces_pv);
    }
    st.ps = g.in_slot(Slot::T).is_some_and(produces_pv);
    st.pred |= g.insts.iter().any(|i| i.update_pred);
    if mova_ar {
        st.mova_at = Some(gi);
        st.idx_mova_at = (st.prev_and_lit == Some(CF_IDX_MASK)).then_some(gi);
    }
    st.prev_and_lit = g
        .in_slot(Slot::X)
        .filter(|i| i.op == AluOp::AND_INT && i.pred_sel == 0 && i.src[1].sel == sel::LITERAL)
        .and_then(|i| g.literals.get(i.src[1].chan as usize).copied());
    if g.insts.iter().any(|i| i.write && i.dst_gpr == LDS_ADDR_GPR) {
        st.lds_addr_at = Some(gi);
    }
    if pop {
        st.queue.pop_front();
    }
    for i in &g.insts {
        if let Some(l) = i.lds.filter(|l| lds_info(l.op).ret) {
            st.queue.push_back(lds_returns_b(l.op));
        }
    }
    Ok(())
}

/// Memory profile: an LDS address channel (`R[LDS_ADDR_GPR].x` or `.y`) set from a lane
/// pattern ([`lane_base`]; LDS accesses out of range read 0 and drop writes).
fn lds_lane_addr(i: &AluInst) -> bool {
    lane_base(i) && i.write && !i.dst_rel && i.dst_gpr == LDS_ADDR_GPR && i.dst_chan < 2
}

/// Checks the group's output-queue reads against the queue; true if it pops.
fn queue_use(g: &AluGroup, st: &State) -> Result<bool, String> {
    let mut uses = Vec::new();
    for i in &g.insts {
        let n = match i.lds {
            Some(l) => lds_info(l.op).srcs as usize,
            None => tables::alu_info(i.op).srcs as usize,
        };
        for s in &i.src[..n.min(3)] {
            if (sel::LDS_OQ_A..=sel::LDS_OQ_B_POP).contains(&s.sel) {
                uses.push(s.sel);
            }
        }
    }
    let Some(&first) = uses.first() else {
        return Ok(false);
    };
    let pop = first >= sel::LDS_OQ_A_POP;
    if uses.iter().any(|&u| (u >= sel::LDS_OQ_A_POP) != pop) {
        return Err("a group mixes popping and peeking queue reads".into());
    }
    let Some(&has_b) = st.queue.front() else {
        return Err("reads an empty LDS output queue".into());
    };
    if !has_b
        && uses
            .iter()
            .any(|&u| matches!(u, sel::LDS_OQ_B | sel::LDS_OQ_B_POP))
    {
        return Err("reads B of a queue entry without B".into());
    }
    Ok(pop)
}

fn inst(
    class: ChipClass,
    g: &AluGroup,
    i: &AluInst,
    gi: usize,
    role: Role,
    rel_ok: bool,
    st: &State,
) -> Result<(), String> {
    let form = match alu_form(i.op) {
        Ok(f) => Some(f),
        Err(_)
            if matches!(
                i.op,
                AluOp::NOP
                    | AluOp::MOVA_INT
                    | AluOp::GROUP_BARRIER
                    | AluOp::LDS_IDX_OP
                    | AluOp::STORE_FLAGS
                    | AluOp::LOAD_STORE_FLAGS
                    | AluOp::SET_CF_IDX0
                    | AluOp::SET_CF_IDX1
            ) || is_kill(i.op) =>
        {
            None
        }
        Err(e) => return Err(e.to_string()),
    };
    let al = i.index_mode == 4 && st.in_loop && i.lds.is_none();
    if (i.index_mode != 0 && !al)
        || i.bank_swizzle != 0
        || i.lds.is_some() != (i.op == AluOp::LDS_IDX_OP)
    {
        return Err("index mode, bank swizzle or LDS fields set".into());
    }
    // aL is at most 3 in a loop, AR.x at most REL_SPAN - 1: both keep the base's bound.
    let rel_ok = rel_ok || al;
    let set_cf_idx = matches!(i.op, AluOp::SET_CF_IDX0 | AluOp::SET_CF_IDX1);
    if set_cf_idx
        && (class != ChipClass::Evergreen
            || i.pred_sel != 0
            || st.idx_mova_at.is_none_or(|m| m + 1 != gi))
    {
        return Err("SET_CF_IDX without a masked MOVA_INT in the group before".into());
    }
    let no_write =
        matches!(i.op, AluOp::GROUP_BARRIER | AluOp::LDS_IDX_OP) || is_kill(i.op) || set_cf_idx;
    if no_write && (i.write || i.omod != 0 || i.clamp) {
        return Err("writes a GPR or has output modifiers".into());
    }
    if let Some(l) = i.lds {
        if i.slot != Slot::X || l.offset > lds_max_offset(l.op) {
            return Err(format!("LDS op in {:?} with offset {}", i.slot, l.offset));
        }
        let addrs = if lds_src1_is_address(l.op) { 2 } else { 1 };
        for (k, s) in i.src.iter().enumerate().take(addrs) {
            let ok = s.sel == LDS_ADDR_GPR as u16
                && s.chan as usize == k
                && !s.rel
                && st.lds_addr_at.is_some_and(|a| a + 1 == gi);
            if !ok {
                return Err(format!("LDS address src{k} {s:?} not just masked"));
            }
        }
    }
    if !matches!(i.pred_sel, 0 | 2 | 3) || (i.pred_sel != 0 && !st.pred) {
        return Err(format!("PRED_SEL {} without a predicate", i.pred_sel));
    }
    if (i.update_pred || i.update_exec_mask) && (!is_pred_set(i.op) || i.pred_sel != 0) {
        return Err("predicate update from a non-PRED_SET or predicated op".into());
    }
    if i.update_exec_mask && (i.write || i.omod != 0 || i.clamp) {
        return Err("exec-mask PRED_SET writes or has output modifiers".into());
    }
    let srcs = match i.lds {
        Some(l) => lds_info(l.op).srcs as usize,
        None => tables::alu_info(i.op).srcs as usize,
    };
    for (k, s) in i.src.iter().enumerate().take(srcs) {
        if (s.neg || s.abs) && !float_in(i.op) {
            return Err(format!("src{k} modifier on a non-float op"));
        }
        let ok = match s.sel {
            n if n < 128 && s.rel => rel_ok && n <= (GPR_POOL - REL_SPAN) as u16,
            n if n < 128 => {
                n < GPR_POOL as u16
                    || matches!(role, Role::LoopCheck(d) if n == (COUNTER_GPR + d) as u16)
                    || (i.lds.is_some() && n == LDS_ADDR_GPR as u16)
                    || (k == 0 && n == u16::from(LANE_GPR) && lds_lane_addr(i))
            }
            sel::LDS_OQ_A..=sel::LDS_OQ_B_POP => true,
            LOOP_INDEX_SEL => st.in_loop,
            CLAUSE_GLOBAL_SEL => class == ChipClass::Cayman,
            sel::PV => gi > 0 && st.pv[s.chan as usize],
            sel::PS => class == ChipClass::Evergreen && gi > 0 && st.ps,
            sel::LITERAL | sel::ZERO | sel::ONE | sel::ONE_INT | sel::M_1_INT | sel::HALF => true,
            244..=247 => true,
            n => st.windows.iter().any(|&(b, c)| (b..b + c).contains(&n)),
        };
        if !ok || (s.rel && s.sel >= 128) {
            return Err(format!("src{k} {s:?} is not readable here"));
        }
    }
    if (i.omod != 0 || i.clamp) && !float_out(i.op) && !i.update_exec_mask {
        return Err("output modifier on a non-float result".into());
    }
    if i.op == AluOp::MOVA_INT {
        // Cayman MOVA_DST: 0 AR.x, 2/3 CF_IDX0/1 (from a CF_IDX_MASK value), 4-7
        // CLAUSE_GLOBAL bytes.
        let dst_ok = match i.mova_dst(class) {
            None | Some(0) => i.dst_gpr == 0,
            Some(2 | 3) => st.prev_and_lit == Some(CF_IDX_MASK),
            Some(4..=7) => true,
            Some(_) => false,
        };
        if i.write || !dst_ok || i.src[0].sel != sel::PV || i.src[0].chan != 0 || i.slot != Slot::X
        {
            return Err("MOVA_INT must read PV.x from slot x into AR.x or an index".into());
        }
    } else if i.write {
        let counter = match role {
            Role::LoopCheck(d) | Role::CounterInit(d) => Some(COUNTER_GPR + d),
            _ => None,
        };
        let lds_addr = (i.op == AluOp::AND_INT
            && i.dst_gpr == LDS_ADDR_GPR
            && i.dst_chan < 2
            && i.pred_sel == 0
            && i.src[1].sel == sel::LITERAL
            && g.literals
                .get(i.src[1].chan as usize)
                .is_some_and(|&m| m <= LDS_ADDR_MASK))
            || lds_lane_addr(i);
        let ok = if i.dst_rel {
            rel_ok && i.dst_gpr <= GPR_POOL - REL_SPAN
        } else {
            i.dst_gpr < GPR_POOL || Some(i.dst_gpr) == counter || lds_addr
        };
        if !ok {
            return Err(format!("writes R{} (relative {})", i.dst_gpr, i.dst_rel));
        }
    }
    let same = |s: Slot| g.in_slot(s).is_some_and(|o| o.op == i.op);
    match form {
        Some(AluForm::Chained(_)) => {
            let next = match i.slot {
                Slot::X => Slot::Y,
                Slot::Y => Slot::Z,
                Slot::Z => Slot::W,
                _ => return Err("chained op without a next slot".into()),
            };
            let prev_ok = g.in_slot(next).is_some_and(|o| {
                produces_pv(o)
                    && matches!(alu_form(o.op), Ok(AluForm::Slot(_) | AluForm::Chained(_)))
            });
            if !prev_ok {
                return Err("chained op without a single-slot value in the next slot".into());
            }
        }
        Some(AluForm::Wide(_)) => {
            let ok = if four_slot_wide(i.op, class) {
                Slot::VECTOR.iter().all(|&s| same(s))
            } else {
                match i.slot {
                    Slot::X | Slot::Y => same(Slot::X) && same(Slot::Y),
                    Slot::Z | Slot::W => same(Slot::Z) && same(Slot::W),
                    Slot::T => false,
                }
            };
            if !ok {
                return Err("64-bit op without its slot pair".into());
            }
        }
        Some(AluForm::Vector) if !Slot::VECTOR.iter().all(|&s| same(s)) => {
            return Err("reduction not in all four vector slots".into());
        }
        _ => {}
    }
    Ok(())
}
