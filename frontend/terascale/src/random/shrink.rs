//! A minimiser for failing programs: greedy one-step reductions of the CF tree, kept while
//! the program stays valid ([`check`]) and the caller's predicate still holds.
//!
//! Reductions, biggest first: drop a node; replace an if by its then- or else-body, drop an
//! else, replace a loop by its body (minus its breaks and continues), a call by its body;
//! turn a DX9 loop into a DX10 one, drop an if's ALU_POP2_AFTER/ALU_ELSE_AFTER forms, drop a
//! fetch instruction; drop a group of a clause, or a run of up to four (an LDS sequence only
//! goes whole), never a condition clause's exec-mask group, never a loop's counter clauses;
//! drop an instruction, or every instruction of one op, from a group; replace a PV, PS, kcache,
//! literal or relative source by the inline constant 0, clear a relative destination, make
//! every operand of an instruction absolute (INDEX_MODE 0).
//! Literal dwords and LAST bits are recomputed after every edit.
use super::group::literal_count;
use super::{check, AluClause, Node, RandomProgram};
use crate::inst::{sel, AluGroup, AluSrc};

/// The smallest program reachable from `p` by one-step reductions ([`reductions`]) that keep
/// `fails` true, found by [`wavejit_isa::shrink::minimise`] (at most
/// [`wavejit_isa::shrink::MAX_TRIES`] predicate calls). `p` itself is returned if no
/// reduction keeps it failing.
pub fn minimise(p: &RandomProgram, fails: impl FnMut(&RandomProgram) -> bool) -> RandomProgram {
    wavejit_isa::shrink::minimise(p, reductions, fails)
}

/// The one-step reductions of `p` listed in the module doc, biggest first, each passing
/// [`check`].
pub fn reductions(p: &RandomProgram) -> Vec<RandomProgram> {
    let mut variants = Vec::new();
    node_list_variants(&p.nodes, &mut variants);
    variants
        .into_iter()
        .map(|nodes| RandomProgram {
            class: p.class,
            nodes,
        })
        .filter(|cand| check(cand).is_ok())
        .collect()
}

fn strip_loop_exits(nodes: &[Node]) -> Vec<Node> {
    nodes
        .iter()
        .filter(|n| {
            !matches!(
                n,
                Node::Break(_) | Node::Continue(_) | Node::AluBreak(_) | Node::AluContinue(_)
            )
        })
        .cloned()
        .collect()
}

/// Every one-step reduction of a node list.
fn node_list_variants(nodes: &[Node], out: &mut Vec<Vec<Node>>) {
    let splice = |i: usize, with: Vec<Node>| {
        let mut v = nodes[..i].to_vec();
        v.extend(with);
        v.extend_from_slice(&nodes[i + 1..]);
        v
    };
    for i in 0..nodes.len() {
        out.push(splice(i, Vec::new()));
    }
    for (i, n) in nodes.iter().enumerate() {
        match n {
            Node::If {
                then_body,
                else_body,
                ..
            } => {
                out.push(splice(i, then_body.clone()));
                if let Some(e) = else_body {
                    out.push(splice(i, e.clone()));
                }
            }
            Node::Loop { body, .. } => out.push(splice(i, strip_loop_exits(body))),
            Node::Call { body, .. } | Node::JumpAny { body, .. } => {
                out.push(splice(i, body.clone()))
            }
            _ => {}
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        for m in node_variants(n) {
            out.push(splice(i, vec![m]));
        }
    }
}

fn node_variants(n: &Node) -> Vec<Node> {
    let mut out = Vec::new();
    match n {
        Node::Alu(c) => out.extend(clause_variants(c, false).into_iter().map(Node::Alu)),
        Node::Break(c) => out.extend(clause_variants(c, true).into_iter().map(Node::Break)),
        Node::Continue(c) => out.extend(clause_variants(c, true).into_iter().map(Node::Continue)),
        Node::AluBreak(c) => out.extend(clause_variants(c, true).into_iter().map(Node::AluBreak)),
        Node::AluContinue(c) => {
            out.extend(clause_variants(c, true).into_iter().map(Node::AluContinue))
        }
        Node::Call { count, body } => {
            let mut bodies = Vec::new();
            node_list_variants(body, &mut bodies);
            out.extend(bodies.into_iter().map(|body| Node::Call {
                count: *count,
                body,
            }));
        }
        Node::Fetch { setup, vc, insts } if insts.len() > 1 => {
            for k in 0..insts.len() {
                let mut insts = insts.clone();
                insts.remove(k);
                out.push(Node::Fetch {
                    setup: setup.clone(),
                    vc: *vc,
                    insts,
                });
            }
        }
        Node::Fetch { .. }
        | Node::Rat { .. }
        | Node::Gds { .. }
        | Node::CfWord(_)
        | Node::Scratch(_) => {}
        Node::JumpAny { cond, body } => {
            let mut bodies = Vec::new();
            node_list_variants(body, &mut bodies);
            out.extend(
                bodies
                    .into_iter()
                    .map(|body| Node::JumpAny { cond: *cond, body }),
            );
        }
        Node::AluReactivate { clause, wqm } => {
            out.extend(
                clause_variants(clause, false)
                    .into_iter()
                    .map(|clause| Node::AluReactivate { clause, wqm: *wqm }),
            );
        }
        Node::If {
            push,
            cond,
            then_body,
            else_body,
            pop_after,
            pop2,
            else_after,
        } => {
            let with =
                |cond: AluClause, then_body: Vec<Node>, else_body: Option<Vec<Node>>| Node::If {
                    push: *push,
                    cond,
                    then_body,
                    else_body,
                    pop_after: *pop_after,
                    pop2: *pop2,
                    else_after: *else_after,
                };
            if *pop2 || *else_after {
                out.push(Node::If {
                    push: *push,
                    cond: cond.clone(),
                    then_body: then_body.clone(),
                    else_body: else_body.clone(),
                    pop_after: *pop_after,
                    pop2: false,
                    else_after: false,
                });
            }
            if else_body.is_some() {
                out.push(with(cond.clone(), then_body.clone(), None));
            }
            let mut bodies = Vec::new();
            node_list_variants(then_body, &mut bodies);
            for b in bodies {
                out.push(with(cond.clone(), b, else_body.clone()));
            }
            if let Some(e) = else_body {
                let mut bodies = Vec::new();
                node_list_variants(e, &mut bodies);
                for b in bodies {
                    out.push(with(cond.clone(), then_body.clone(), Some(b)));
                }
            }
            for c in clause_variants(cond, true) {
                out.push(with(c, then_body.clone(), else_body.clone()));
            }
        }
        Node::Loop {
            depth,
            dx9,
            init,
            check,
            body,
        } => {
            let mut bodies = Vec::new();
            node_list_variants(body, &mut bodies);
            if *dx9 {
                bodies.insert(0, body.clone());
            }
            for (k, b) in bodies.into_iter().enumerate() {
                out.push(Node::Loop {
                    depth: *depth,
                    dx9: *dx9 && k > 0,
                    init: init.clone(),
                    check: check.clone(),
                    body: b,
                });
            }
        }
    }
    out
}

/// Recomputes LAST and the literal dwords (keeping the values still addressed).
fn normalise(g: &mut AluGroup) {
    let n = g.insts.len();
    for (k, i) in g.insts.iter_mut().enumerate() {
        i.last = k + 1 == n;
    }
    let want = literal_count(&g.insts);
    g.literals.resize(want, 0);
}

fn clause_variants(c: &AluClause, keep_last: bool) -> Vec<AluClause> {
    let mut out = Vec::new();
    let fixed = usize::from(keep_last);
    let with_groups = |groups: Vec<AluGroup>| AluClause {
        groups,
        ..c.clone()
    };
    // Runs of up to four groups: an LDS sequence (address, op, peek, pop) only goes whole.
    let free = c.groups.len().saturating_sub(fixed);
    for run in 1..=4 {
        for k in 0..(free + 1).saturating_sub(run) {
            let mut gs = c.groups.clone();
            gs.drain(k..k + run);
            out.push(with_groups(gs));
        }
    }
    for (k, g) in c.groups.iter().enumerate() {
        if g.insts.len() < 2 {
            continue;
        }
        for j in 0..g.insts.len() {
            for same_op in [true, false] {
                let op = g.insts[j].op;
                let mut ng = g.clone();
                if same_op {
                    ng.insts.retain(|i| i.op != op);
                } else {
                    ng.insts.remove(j);
                }
                if ng.insts.is_empty() || (same_op && ng.insts.len() == g.insts.len() - 1) {
                    continue;
                }
                normalise(&mut ng);
                let mut gs = c.groups.clone();
                gs[k] = ng;
                out.push(with_groups(gs));
            }
        }
    }
    for (k, g) in c.groups.iter().enumerate() {
        for j in 0..g.insts.len() {
            let i = &g.insts[j];
            let mut edits = Vec::new();
            for s in 0..3 {
                let src = i.src[s];
                if src.rel || src.sel >= 128 && !matches!(src.sel, sel::ZERO) {
                    let mut ng = g.clone();
                    ng.insts[j].src[s] = AluSrc {
                        sel: sel::ZERO,
                        ..AluSrc::default()
                    };
                    edits.push(ng);
                }
            }
            if i.dst_rel {
                let mut ng = g.clone();
                ng.insts[j].dst_rel = false;
                edits.push(ng);
            }
            // Every operand absolute and no index mode (an aL-relative op may then leave its
            // loop).
            if i.index_mode != 0 || i.dst_rel || i.src.iter().any(|s| s.rel) {
                let mut ng = g.clone();
                let n = &mut ng.insts[j];
                n.index_mode = 0;
                n.dst_rel = false;
                for s in n.src.iter_mut() {
                    s.rel = false;
                }
                edits.push(ng);
            }
            for mut ng in edits {
                normalise(&mut ng);
                let mut gs = c.groups.clone();
                gs[k] = ng;
                out.push(with_groups(gs));
            }
        }
    }
    out
}
