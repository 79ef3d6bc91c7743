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
use wavejit_isa::shrink::{reduce_structured, Structured};

pub(super) fn reductions(p: &RandomProgram) -> Vec<RandomProgram> {
    let mut out = Vec::new();
    reduce_structured(&p.items, &mut |items| {
        out.push(RandomProgram {
            items: valid(&items, Ctx::default()),
            literals: p.literals.clone(),
        })
    });
    out
}

/// Blocks reduce through the shared structured reducer: an if's then and else, a loop's body
/// and a switch's arms are its bodies; an if without its else, a switch without one of two or
/// more arms and [`simpler`] instructions are its variants. Validity is restored after each
/// reduction ([`valid`]), so a hoisted body is the body itself.
impl Structured for Item {
    fn bodies(&self) -> Vec<&[Item]> {
        match self {
            Item::If {
                then, otherwise, ..
            } => std::iter::once(then.as_slice())
                .chain(otherwise.as_deref())
                .collect(),
            Item::Loop { body, .. } => vec![body],
            Item::Switch { arms, .. } => arms.iter().map(|a| a.body.as_slice()).collect(),
            Item::Inst(_) | Item::Leave(_) => Vec::new(),
        }
    }

    fn with_body(&self, k: usize, inner: Vec<Item>) -> Item {
        let mut it = self.clone();
        match (&mut it, k) {
            (Item::If { then, .. }, 0) => *then = inner,
            (
                Item::If {
                    otherwise: Some(o), ..
                },
                _,
            ) => *o = inner,
            (Item::Loop { body, .. }, _) => *body = inner,
            (Item::Switch { arms, .. }, k) => arms[k].body = inner,
            _ => {}
        }
        it
    }

    fn variants(&self) -> Vec<Item> {
        match self {
            Item::If {
                head,
                then,
                otherwise: Some(_),
            } => vec![Item::If {
                head: head.clone(),
                then: then.clone(),
                otherwise: None,
            }],
            Item::Switch { selector, arms } if arms.len() > 1 => (0..arms.len())
                .map(|k| {
                    let mut fewer = arms.clone();
                    fewer.remove(k);
                    Item::Switch {
                        selector: selector.clone(),
                        arms: fewer,
                    }
                })
                .collect(),
            Item::Inst(inst) => simpler(inst).into_iter().map(Item::Inst).collect(),
            _ => Vec::new(),
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
