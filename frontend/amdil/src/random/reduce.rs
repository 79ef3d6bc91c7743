//! One-step reductions of a random program, for the minimiser: each is a valid program of the
//! same shape rules (balanced blocks, every `break` inside a loop or switch, every `continue`
//! inside a loop, `fence_threads*` outside every block, loop counters distinct along every
//! nesting path), biggest first:
//! - an item dropped, a block replaced by one of its parts (then, else, the loop's body, an
//!   arm's body), an `else` or a switch arm dropped; then the same inside each block;
//! - an ALU instruction's modifiers dropped, one of its operands replaced by a plain temp.
//!
//! A part moved out of its loop or switch loses the `break`s and `continue`s that no longer
//! have a target ([`valid`]); nothing moves into a block, so fences stay outside and counters
//! stay distinct.

use super::{alu, Ctx, Item, RandomProgram, FIRST_TEMP};
use crate::inst::{Inst, Reg};
use crate::token::RegType;

pub(super) fn reductions(p: &RandomProgram) -> Vec<RandomProgram> {
    let mut out = Vec::new();
    reduce(&p.items, &mut |items| {
        out.push(RandomProgram {
            items: valid(&items, Ctx::default()),
            literals: p.literals.clone(),
        })
    });
    out
}

/// Calls `emit` with every one-step reduction of `items`.
fn reduce(items: &[Item], emit: &mut dyn FnMut(Vec<Item>)) {
    for (i, item) in items.iter().enumerate() {
        let with = |replacement: Vec<Item>| {
            let mut v = items[..i].to_vec();
            v.extend(replacement);
            v.extend_from_slice(&items[i + 1..]);
            v
        };
        emit(with(Vec::new()));
        match item {
            Item::If {
                head,
                then,
                otherwise,
            } => {
                emit(with(then.clone()));
                if let Some(o) = otherwise {
                    emit(with(o.clone()));
                    emit(with(vec![Item::If {
                        head: head.clone(),
                        then: then.clone(),
                        otherwise: None,
                    }]));
                }
                reduce(then, &mut |inner| {
                    emit(with(vec![Item::If {
                        head: head.clone(),
                        then: inner,
                        otherwise: otherwise.clone(),
                    }]))
                });
                if let Some(o) = otherwise {
                    reduce(o, &mut |inner| {
                        emit(with(vec![Item::If {
                            head: head.clone(),
                            then: then.clone(),
                            otherwise: Some(inner),
                        }]))
                    });
                }
            }
            Item::Loop {
                counter,
                start,
                body,
            } => {
                emit(with(body.clone()));
                reduce(body, &mut |inner| {
                    emit(with(vec![Item::Loop {
                        counter: *counter,
                        start: start.clone(),
                        body: inner,
                    }]))
                });
            }
            Item::Switch { selector, arms } => {
                for arm in arms {
                    emit(with(arm.body.clone()));
                }
                for k in 0..arms.len() {
                    if arms.len() > 1 {
                        let mut fewer = arms.clone();
                        fewer.remove(k);
                        emit(with(vec![Item::Switch {
                            selector: selector.clone(),
                            arms: fewer,
                        }]));
                    }
                }
                for (k, arm) in arms.iter().enumerate() {
                    reduce(&arm.body, &mut |inner| {
                        let mut changed = arms.clone();
                        changed[k].body = inner;
                        emit(with(vec![Item::Switch {
                            selector: selector.clone(),
                            arms: changed,
                        }]))
                    });
                }
            }
            Item::Inst(inst) => {
                for simpler in simpler(inst) {
                    emit(with(vec![Item::Inst(simpler)]));
                }
            }
            Item::Leave(_) => {}
        }
    }
}

/// An ALU instruction without its modifiers, then with one operand at a time replaced by a
/// plain temp (the same type rules hold for any register).
fn simpler(inst: &Inst) -> Vec<Inst> {
    if alu::form_of(inst).is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let modified = inst.dst.iter().any(|d| d.modifier.is_some())
        || inst.src.iter().any(|s| s.modifier.is_some());
    if modified {
        let mut plain = inst.clone();
        plain.dst.iter_mut().for_each(|d| d.modifier = None);
        plain.src.iter_mut().for_each(|s| s.modifier = None);
        out.push(plain);
    }
    let temp = Reg::new(RegType::TEMP, FIRST_TEMP);
    for (k, d) in inst.dst.iter().enumerate() {
        if d.reg.ty != RegType::TEMP {
            let mut s = inst.clone();
            s.dst[k].reg = temp.clone();
            out.push(s);
        }
    }
    for (k, src) in inst.src.iter().enumerate() {
        if src.reg != temp {
            let mut s = inst.clone();
            s.src[k].reg = temp.clone();
            out.push(s);
        }
    }
    out
}

/// `items` at `ctx` without the `break`s and `continue`s that have no target there.
pub(super) fn valid(items: &[Item], ctx: Ctx) -> Vec<Item> {
    let inner = Ctx {
        depth: ctx.depth + 1,
        ..ctx
    };
    items
        .iter()
        .filter(|i| match i {
            Item::Leave(l) => {
                let m = l.row().map_or("", |r| r.mnemonic);
                !(m.starts_with("break") && !ctx.breakable
                    || m.starts_with("continue") && ctx.loops == 0)
            }
            _ => true,
        })
        .map(|i| match i {
            Item::If {
                head,
                then,
                otherwise,
            } => Item::If {
                head: head.clone(),
                then: valid(then, inner),
                otherwise: otherwise.as_deref().map(|o| valid(o, inner)),
            },
            Item::Loop {
                counter,
                start,
                body,
            } => Item::Loop {
                counter: *counter,
                start: start.clone(),
                body: valid(
                    body,
                    Ctx {
                        loops: ctx.loops + 1,
                        breakable: true,
                        ..inner
                    },
                ),
            },
            Item::Switch { selector, arms } => {
                let arm_ctx = Ctx {
                    breakable: true,
                    ..inner
                };
                let mut arms = arms.clone();
                for a in &mut arms {
                    a.body = valid(&a.body, arm_ctx);
                }
                Item::Switch {
                    selector: selector.clone(),
                    arms,
                }
            }
            other => other.clone(),
        })
        .collect()
}
