//! The validity rules of generated programs (the module doc of [`super`]), checked on the
//! tree so the minimiser can reject an edit that breaks one, then the layout round trip.
use super::group::{float_in, float_out, four_slot_wide, is_pred_set, literal_count, produces_pv};
use super::{
    AluClause, GenError, Node, RandomProgram, CONST_BUFFERS, COUNTER_GPR, GPR_POOL, KCACHE_LINES,
    REL_SPAN,
};
use crate::chip::ChipClass;
use crate::inst::{sel, AluGroup, AluInst, Program, Slot};
use crate::lift::{alu_form, AluForm};
use crate::opcode::AluOp;
use crate::tables;

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
    p.lower()
}

fn nodes(class: ChipClass, ns: &[Node], in_loop: Option<u8>) -> Result<(), String> {
    for n in ns {
        match n {
            Node::Alu(c) => clause(class, c, Role::Plain)?,
            Node::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                clause(class, cond, Role::Condition)?;
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
            } => {
                let want = in_loop.map_or(0, |d| d + 1);
                if *depth != want || want >= 2 {
                    return Err(format!("loop at depth {want} names counter {depth}"));
                }
                clause(class, init, Role::CounterInit(want))?;
                clause(class, check, Role::LoopCheck(want))?;
                nodes(class, body, Some(want))?;
            }
            Node::Break(c) | Node::Continue(c) => {
                if in_loop.is_none() {
                    return Err("break or continue outside a loop".into());
                }
                clause(class, c, Role::Condition)?;
            }
        }
    }
    Ok(())
}

/// The GPR-read and write state while walking a clause.
struct State {
    windows: Vec<(u16, u16)>,
    pv: [bool; 4],
    ps: bool,
    pred: bool,
    mova_at: Option<usize>,
}

fn clause(class: ChipClass, c: &AluClause, role: Role) -> Result<(), String> {
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
    if c.groups.is_empty() {
        return Err("empty clause".into());
    }
    let mut st = State {
        windows,
        pv: [false; 4],
        ps: false,
        pred: false,
        mova_at: None,
    };
    let last = c.groups.len() - 1;
    for (gi, g) in c.groups.iter().enumerate() {
        let exec = matches!(role, Role::Condition | Role::LoopCheck(_)) && gi == last;
        group(class, g, gi, exec, role, &mut st).map_err(|e| format!("group {gi}: {e}"))?;
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
    let rel_ok = !mova && st.mova_at.is_some_and(|m| gi >= m + 2);
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
    if mova {
        st.mova_at = Some(gi);
    }
    Ok(())
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
        Err(_) if matches!(i.op, AluOp::NOP | AluOp::MOVA_INT) => None,
        Err(e) => return Err(e.to_string()),
    };
    if i.index_mode != 0 || i.bank_swizzle != 0 || i.lds.is_some() {
        return Err("index mode, bank swizzle or LDS fields set".into());
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
    let srcs = tables::alu_info(i.op).srcs as usize;
    for (k, s) in i.src.iter().enumerate().take(srcs) {
        if (s.neg || s.abs) && !float_in(i.op) {
            return Err(format!("src{k} modifier on a non-float op"));
        }
        let ok = match s.sel {
            n if n < 128 && s.rel => rel_ok && n <= (GPR_POOL - REL_SPAN) as u16,
            n if n < 128 => {
                n < GPR_POOL as u16
                    || matches!(role, Role::LoopCheck(d) if n == (COUNTER_GPR + d) as u16)
            }
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
        if i.write || i.dst_gpr != 0 || i.src[0].sel != sel::PV || i.slot != Slot::X {
            return Err("MOVA_INT must read PV into AR.x from slot x".into());
        }
    } else if i.write {
        let counter = match role {
            Role::LoopCheck(d) | Role::CounterInit(d) => Some(COUNTER_GPR + d),
            _ => None,
        };
        let ok = if i.dst_rel {
            rel_ok && i.dst_gpr <= GPR_POOL - REL_SPAN
        } else {
            i.dst_gpr < GPR_POOL || Some(i.dst_gpr) == counter
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
