//! Seeded random R5xx programs for differential fuzzing (interpreter vs JIT): programs the
//! lifter accepts that always end, with the integer and boolean constants they expect.
//!
//! A program is a tree of [`Item`]s ([`RandomProgram::main`], plus subroutines), lowered to
//! slots ([`RandomProgram::slots`]) and to a listing in the assembler syntax
//! ([`RandomProgram::listing`], which [`crate::parse::parse_program`] takes back):
//! - ALU and OUTPUT slots over every defined op, source kind, presubtract, swizzle,
//!   modifier, OMOD, clamp, write and output mask, predicate and predicate write, and the ALU
//!   result; TEX lookups of inputs 0-3 at (i, j) and TEXKILL ([`slots`]);
//! - flow control in the encodings of seed 003 §3.5.4 (lines 1237-1275): IF/ELSE/ENDIF on
//!   a boolean constant (0x55), a predicate (0x33) or the ALU result (0x0f, set by the ALU
//!   slot just before); LOOP/ENDLOOP and REP/ENDREP on integer constants; BREAK (plain, b, p,
//!   c) and CONTINUE with B_POP_CNT the number of IFs they are inside within their loop;
//!   CALL (plain, b, p, c) and RETURN.
//!
//! Layout: with subroutines, slot 0 jumps over them to the main program (JUMP_FUNC 0xff);
//! subroutine k may call subroutines before it (no recursion, so the address stack holds at
//! most [`MAX_SUBS`] entries); the last slot is an OUTPUT with TEX_SEM_WAIT and LAST, the end
//! of the program range. Every loop runs its integer constant's count, 0 to [`MAX_TRIPS`]
//! times, so a program ends. Loops nest at most [`MAX_LOOPS`] deep and IFs [`MAX_IFS`]
//! deep; programs without loops, calls or IFs deeper than 3 may run in partial flow-control
//! mode (branch counters up to 3), the others in full mode.
//!
//! Not generated: W_OMASK (the conditional value needs a conditional buffer), uncached
//! outputs, JUMP_GLOBAL, TEX NOP, reserved values and unused bits.
//!
//! Integer constants 0-7 hold (count, aL start, aL step) = (0..=3, 0..=4, 0..=2) as Mesa's
//! KR/KG/KB bytes; aL stays below [`MAX_AL`]. The boolean constants are a random mask.

mod lower;
mod slots;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::encode::encode;
use crate::inst::{Inst, Pred};
use crate::print::print_program;
use crate::setup::ProgInfo;
use crate::table::PredSel;
pub use slots::{Ctx, CONSTS, INPUTS, TEMPS};
use wavejit_isa::shrink::{reduce_structured, Structured};

/// The most iterations of a loop.
pub const MAX_TRIPS: u32 = 3;
/// Loop nesting.
pub const MAX_LOOPS: usize = 2;
/// IF nesting.
pub const MAX_IFS: usize = 4;
/// Subroutines.
pub const MAX_SUBS: usize = 3;
/// Integer constants the loops use (0-7).
pub const INT_CONSTS: u8 = 8;
/// aL stays below this (start at most 4, step at most 2, 3 iterations per loop).
pub const MAX_AL: u32 = 16;

/// What a conditional statement tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    /// Always (the plain forms).
    Always,
    /// Boolean constant `addr`.
    Bool(u8),
    /// A replicated predicate bit, possibly inverted.
    Pred(Pred),
    /// The ALU result the given ALU slot (ALU_WMASK set) computes just before.
    AluResult(Inst),
}

/// One element of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An ALU, OUTPUT or TEX slot.
    Slot(Inst),
    If {
        cond: Cond,
        then: Vec<Item>,
        otherwise: Option<Vec<Item>>,
    },
    /// LOOP/ENDLOOP (`rep` false) or REP/ENDREP on integer constant `int_addr`.
    Loop {
        rep: bool,
        int_addr: u8,
        body: Vec<Item>,
    },
    /// BREAKLOOP/BREAKREP out of the innermost loop.
    Break(Cond),
    /// CONTINUE to the innermost loop's end.
    Continue,
    /// CALL of subroutine `sub`.
    Call { sub: usize, cond: Cond },
}

/// A random program and the constants it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomProgram {
    pub subs: Vec<Vec<Item>>,
    pub main: Vec<Item>,
    /// The final OUTPUT slot (TEX_SEM_WAIT and LAST are set when lowering).
    pub last: Inst,
    /// Run in full flow-control mode even when partial mode would do.
    pub prefer_full: bool,
    /// Set IGNORE_UNCOVERED where Mesa does (IF, LOOP/REP, ENDLOOP/ENDREP, BREAK,
    /// CONTINUE), so processors TEXKILL killed stay out of those decisions.
    pub ignore_uncovered: bool,
    /// Integer constants 0-7: KR (count) | KG (aL start) << 8 | KB (aL step) << 16.
    pub int_consts: [u32; INT_CONSTS as usize],
    /// Boolean constant k is bit k.
    pub bool_consts: u32,
}

/// How much of a program is left to generate, and where the generator is.
struct Gen {
    rng: ChaCha8Rng,
    budget: u32,
    subs: usize,
}

#[derive(Clone, Copy, Default)]
struct Depth {
    loops: usize,
    ifs: usize,
    /// A subroutine body (no loops, breaks or continues; calls only to earlier ones).
    sub: Option<usize>,
}

impl Gen {
    fn cond(&mut self, ctx: Ctx, plain: bool) -> Cond {
        match self.rng.gen_range(0..if plain { 4 } else { 3 }) {
            0 => Cond::Bool(self.rng.gen_range(0..32)),
            1 => Cond::Pred(Pred {
                // Flow control takes a replicated predicate bit only (§3.5.1).
                sel: PredSel::from_bits(self.rng.gen_range(2..6)),
                inv: self.rng.gen_bool(0.5),
            }),
            2 => Cond::AluResult(slots::alu(&mut self.rng, ctx, false, true)),
            _ => Cond::Always,
        }
    }

    fn slot(&mut self, ctx: Ctx) -> Item {
        Item::Slot(match self.rng.gen_range(0..10) {
            0..=5 => {
                let result = self.rng.gen_bool(0.1);
                slots::alu(&mut self.rng, ctx, false, result)
            }
            6 | 7 => slots::alu(&mut self.rng, ctx, true, false),
            _ => slots::tex(&mut self.rng, ctx),
        })
    }

    fn block(&mut self, d: Depth) -> Vec<Item> {
        let ctx = Ctx {
            in_loop: d.loops > 0,
        };
        let mut items = Vec::new();
        let len = self.rng.gen_range(1..6);
        for _ in 0..len {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let roll = self.rng.gen_range(0..20);
            let item = match roll {
                0 | 1 if d.ifs < MAX_IFS => {
                    let cond = self.cond(ctx, false);
                    let inner = Depth {
                        ifs: d.ifs + 1,
                        ..d
                    };
                    let then = self.block(inner);
                    let otherwise = self.rng.gen_bool(0.4).then(|| self.block(inner));
                    Item::If {
                        cond,
                        then,
                        otherwise,
                    }
                }
                2 if d.loops < MAX_LOOPS && d.sub.is_none() => Item::Loop {
                    rep: self.rng.gen_bool(0.4),
                    int_addr: self.rng.gen_range(0..INT_CONSTS),
                    body: self.block(Depth {
                        loops: d.loops + 1,
                        ifs: 0,
                        ..d
                    }),
                },
                3 if d.loops > 0 && d.sub.is_none() => Item::Break(self.cond(ctx, true)),
                4 if d.loops > 0 && d.sub.is_none() && d.ifs > 0 => Item::Continue,
                5 if d.sub.unwrap_or(self.subs) > 0 => Item::Call {
                    sub: self.rng.gen_range(0..d.sub.unwrap_or(self.subs)),
                    cond: self.cond(ctx, true),
                },
                _ => self.slot(ctx),
            };
            items.push(item);
        }
        items
    }
}

/// The program of `seed`.
pub fn generate(seed: u64) -> RandomProgram {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        budget: 0,
        subs: 0,
    };
    let nsubs = if g.rng.gen_bool(0.3) {
        g.rng.gen_range(1..=MAX_SUBS)
    } else {
        0
    };
    let mut subs = Vec::new();
    for k in 0..nsubs {
        g.subs = k;
        g.budget = g.rng.gen_range(2..8);
        subs.push(g.block(Depth {
            sub: Some(k),
            ..Depth::default()
        }));
    }
    g.subs = nsubs;
    g.budget = g.rng.gen_range(6..40);
    let mut main = Vec::new();
    while g.budget > 0 {
        main.extend(g.block(Depth::default()));
    }
    let last = slots::alu(&mut g.rng, Ctx::default(), true, false);
    let int_consts = std::array::from_fn(|_| {
        g.rng.gen_range(0..=MAX_TRIPS)
            | g.rng.gen_range(0..=4u32) << 8
            | g.rng.gen_range(0..=2u32) << 16
    });
    RandomProgram {
        subs,
        main,
        last,
        prefer_full: g.rng.gen_bool(0.5),
        ignore_uncovered: g.rng.gen_bool(0.5),
        int_consts,
        bool_consts: g.rng.gen(),
    }
}

impl RandomProgram {
    /// The slots: the jump over the subroutines (if any), the subroutines, the main
    /// program, the final OUTPUT.
    pub fn slots(&self) -> Vec<Inst> {
        lower::lower(self).0
    }

    /// The program info it runs under: slots 0 to the last, full flow control when it has
    /// loops or calls or IFs deeper than 3 (or prefers it), US_PIXSIZE covering r0-r15 + aL.
    pub fn info(&self) -> ProgInfo {
        let (slots, needs_full) = lower::lower(self);
        ProgInfo {
            pixsize: u32::from(TEMPS) + MAX_AL,
            full_fc: needs_full || self.prefer_full,
            start: 0,
            end: slots.len() as u32 - 1,
            ..ProgInfo::default()
        }
    }

    /// The words of the slots.
    pub fn words(&self) -> Vec<u32> {
        self.slots().iter().flat_map(encode).collect()
    }

    /// The listing in the assembler syntax.
    pub fn listing(&self) -> String {
        print_program(&self.slots())
    }

    /// One-step reductions, biggest first: a subroutine and its calls removed, an item
    /// removed, a region replaced by its body (a loop's own breaks and continues dropped).
    pub fn reductions(&self) -> Vec<RandomProgram> {
        let mut out = Vec::new();
        for k in 0..self.subs.len() {
            let mut p = self.clone();
            p.subs.remove(k);
            for sub in &mut p.subs {
                *sub = without_calls(sub, k);
            }
            p.main = without_calls(&p.main, k);
            out.push(p);
        }
        reduce_structured(&self.main, &mut |main| {
            out.push(RandomProgram {
                main,
                ..self.clone()
            })
        });
        for k in 0..self.subs.len() {
            reduce_structured(&self.subs[k], &mut |sub| {
                let mut p = self.clone();
                p.subs[k] = sub;
                out.push(p);
            });
        }
        out
    }
}

/// `items` without the calls of subroutine `k`, later subroutines renumbered.
fn without_calls(items: &[Item], k: usize) -> Vec<Item> {
    items
        .iter()
        .filter(|i| !matches!(i, Item::Call { sub, .. } if *sub == k))
        .map(|i| match i {
            Item::Call { sub, cond } => Item::Call {
                sub: if *sub > k { sub - 1 } else { *sub },
                cond: cond.clone(),
            },
            Item::If {
                cond,
                then,
                otherwise,
            } => Item::If {
                cond: cond.clone(),
                then: without_calls(then, k),
                otherwise: otherwise.as_deref().map(|o| without_calls(o, k)),
            },
            Item::Loop {
                rep,
                int_addr,
                body,
            } => Item::Loop {
                rep: *rep,
                int_addr: *int_addr,
                body: without_calls(body, k),
            },
            other => other.clone(),
        })
        .collect()
}

/// A loop's body taken out of it: the breaks and continues that belong to it dropped (those
/// of loops inside it stay).
fn unlooped(items: &[Item]) -> Vec<Item> {
    items
        .iter()
        .filter(|i| !matches!(i, Item::Break(_) | Item::Continue))
        .map(|i| match i {
            Item::If {
                cond,
                then,
                otherwise,
            } => Item::If {
                cond: cond.clone(),
                then: unlooped(then),
                otherwise: otherwise.as_deref().map(unlooped),
            },
            other => other.clone(),
        })
        .collect()
}

/// Blocks reduce through the shared structured reducer: an if's then and else and a loop's
/// body are its bodies; a loop's body taken out of it loses its own breaks and continues.
impl Structured for Item {
    fn bodies(&self) -> Vec<&[Item]> {
        match self {
            Item::If {
                then, otherwise, ..
            } => std::iter::once(then.as_slice())
                .chain(otherwise.as_deref())
                .collect(),
            Item::Loop { body, .. } => vec![body],
            _ => Vec::new(),
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
            _ => {}
        }
        it
    }

    fn hoist(&self, k: usize) -> Vec<Item> {
        match self {
            Item::Loop { body, .. } => unlooped(body),
            _ => self.bodies()[k].to_vec(),
        }
    }
}
