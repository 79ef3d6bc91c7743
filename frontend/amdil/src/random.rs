//! Seeded random IL compute programs (`il_cs`) and starting states, for differential fuzzing
//! (interpreter vs JIT) of the lifter and the engines.
//!
//! A program is a tree of [`Item`]s lowered to a [`Program`] ([`RandomProgram::program`]) that
//! [`crate::print`] writes and [`crate::parse`] reads back to the same value, and that
//! [`crate::encode`] and [`crate::decode`] round-trip. It holds:
//! - ALU instructions of every form of [`ALU_FORMS`] (float with the DX9 and IEEE multiply,
//!   mad, min and max and every `div` zeroop, the `_vec` transcendentals, `clamp`, `lrp`,
//!   integer, logical, bit operations, `bitalign`/`bytealign`, the min3/med3/max3 family,
//!   compares, `cmov`/`cmov_logical`, conversions; not yet the doubles, 64-bit integers,
//!   dot products, atomics, calls or macros) with random swizzles, the source modifiers Table 2.10
//!   (L681-L692) allows each operand's type ([`Ty`]), write masks with `0`/`1` components and,
//!   on float results, shift_scale and `_sat`;
//! - sources from temps, literals (`dcl_literal`, edge values: ±0, denormals, NaN payloads,
//!   infinities, INT_MIN, ...), `cb0` (absolute, and register-relative with any index: one
//!   outside the buffer reads 0), the indexed temp array `x0` (absolute, and relative to an
//!   index that stays inside it) and the thread-id registers; destinations in the random temps
//!   and `x0` (absolute, and relative to an index that stays inside it);
//! - structured control flow: `if_logicalnz`/`if_logicalz`/`ifc_relop` with an optional
//!   `else`; `whileloop` bounded by a trip counter, with `break`/`continue` and their
//!   `_logicalnz`/`_logicalz`/`c_relop` forms; `switch` with distinct `case` values, an
//!   optional `default`, arms that break or fall through; `ret_logicalnz`/`ret_logicalz`;
//! - memory: raw UAV loads and stores into the arena (ids [`RAW_UAV`] and [`ARENA_UAV`]) and
//!   LDS loads and stores, each after an `iand` that masks its byte address into range;
//!   fences, `fence_threads*` only outside every block (L5271).
//!
//! Declarations follow from use: the lowering declares `cb0`, `x0`, the literals, the UAVs and
//! the LDS the code names, so a reduced program declares only what it still uses.
//!
//! # Registers
//! - `r0` (never written): lane patterns x = lane, y = 4 × lane, z = lane & 7, w = 63 - lane.
//! - `r1` (written only by loops): the trip counter of the loop at loop depth `d` in component
//!   `d`; every component of `r1` stays below [`MAX_TRIPS`] (the start value is masked to
//!   `MAX_TRIPS - 1`, a trip that would take it below 0 breaks first), so `x0[r1.c + k]` (and
//!   `x0[l0.y + k]`) with `k <= ARRAY_ELEMENTS - MAX_TRIPS` stays inside `x0`.
//! - `r2`-`r9`: the random instructions' destinations; `r10` (written only by address masks):
//!   x an arena byte address below [`ARENA_BYTES`] - 12, y an LDS byte address.
//! - `l0` = (-1, `MAX_TRIPS - 1`, [`ARENA_MASK`], [`LDS_MASK`]) for loops and addresses; `l1` =
//!   ([`ARENA_WIDE_MASK`], [`LDS_WIDE_MASK`], 0, 0), masks that reach past the arena (a guest
//!   fault) and the LDS (reads 0, drops writes), used by the memory-heavy programs only;
//!   `l2`.. random.
//!
//! # Termination
//! A loop sets its counter, then each trip starts with `break_logicalz r1.c` and
//! `iadd r1.c, r1.c, -1`, before anything that could `continue`: a lane runs a loop's body
//! at most `MAX_TRIPS - 1` times per entry, and loops nest at most three deep.

mod alu;
mod lower;
mod mem;
mod operand;
mod reduce;
mod state;

pub use alu::{form_of, AluForm, ALU_FORMS};
pub use operand::Ty;
pub use state::InitialState;

use crate::inst::{Dst, Index, Inst, Program, Reg, Src};
use crate::table::{self, op};
use crate::token::{DstComp, DstMod, RegType, Sel, SrcMod, Version};
use operand::{chance, source, temp_comp, Pools};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Lanes of the wave a random program runs on ([`crate::lift::WAVE_SIZE`]).
pub const LANES: usize = crate::lift::WAVE_SIZE as usize;
/// Temps `r0`..`r10` (see the module doc).
pub const TEMPS: u32 = 11;
pub const PATTERN_TEMP: u32 = 0;
pub const COUNTER_TEMP: u32 = 1;
pub const FIRST_TEMP: u32 = 2;
pub const LAST_TEMP: u32 = 9;
pub const ADDRESS_TEMP: u32 = 10;
/// A loop's counter starts below this; the deepest loop nesting is 3 (components x, y, z).
pub const MAX_TRIPS: u32 = 4;
const MAX_LOOPS: u32 = 3;
/// Blocks nest at most this deep.
const MAX_DEPTH: u32 = 4;
/// The constant buffer (`cb0`) and its elements.
pub const CB: u32 = 0;
pub const CB_ELEMENTS: u32 = 16;
/// The indexed temp array (`x0`) and its elements.
pub const ARRAY: u32 = 0;
pub const ARRAY_ELEMENTS: u32 = 8;
/// The raw UAV ids: one declared `dcl_raw_uav`, one `dcl_arena_uav`; both address the arena.
pub const RAW_UAV: u16 = 11;
pub const ARENA_UAV: u16 = 8;
/// The LDS id.
pub const LDS_ID: u16 = 1;
/// The arena's and the LDS's bytes.
pub const ARENA_BYTES: u32 = 4096;
pub const LDS_BYTES: u32 = 1024;
/// Address masks: inside (the low two bits are kept: the lifter ignores them) and wide.
pub const ARENA_MASK: u32 = 0xff3;
pub const LDS_MASK: u32 = 0x3ff;
pub const ARENA_WIDE_MASK: u32 = 0x1ff3;
pub const LDS_WIDE_MASK: u32 = 0x7ff;
/// The fixed literals `l0`, `l1` and the first random one.
const CONTROL_LITERAL: u32 = 0;
const WIDE_LITERAL: u32 = 1;
pub const FIRST_LITERAL: u32 = 2;

/// The version line of every program.
const VERSION: Version = Version {
    major: 2,
    minor: 0,
    shader: Version::COMPUTE,
    multipass: false,
    realtime: false,
};

/// What the generator emits.
#[derive(Clone, Debug, Default)]
pub struct GenOptions {
    /// Mostly memory instructions, some at addresses past the ends.
    pub memory_focus: bool,
}

/// One element of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// An ALU, memory or fence instruction.
    Inst(Inst),
    /// An `if_logicalnz`, `if_logicalz` or `ifc` head, the then part and the else part.
    If {
        head: Inst,
        then: Vec<Item>,
        otherwise: Option<Vec<Item>>,
    },
    /// A `whileloop` counting `r1.<counter>` down from `start` masked to `MAX_TRIPS - 1`.
    Loop {
        counter: u8,
        start: Src,
        body: Vec<Item>,
    },
    /// A `switch` on `selector.x`.
    Switch { selector: Src, arms: Vec<Arm> },
    /// A `break`, `continue` or `ret` form.
    Leave(Inst),
}

/// One `case` (or `default`, without a label) of a switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arm {
    pub label: Option<u32>,
    pub body: Vec<Item>,
    /// Whether the arm ends with `break` (else it falls through).
    pub breaks: bool,
}

/// A random program: its items and the values of its literals `l0`, `l1`, ...
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomProgram {
    pub items: Vec<Item>,
    pub literals: Vec<[u32; 4]>,
}

/// Where an item stands: what it may leave.
#[derive(Clone, Copy, Debug, Default)]
struct Ctx {
    depth: u32,
    loops: u32,
    /// Inside a loop or a switch: `break` has a target.
    breakable: bool,
}

/// The program of `seed`.
pub fn generate(seed: u64, opts: &GenOptions) -> RandomProgram {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let randoms = rng.gen_range(2..=6);
    let mut literals = vec![
        [u32::MAX, MAX_TRIPS - 1, ARENA_MASK, LDS_MASK],
        [ARENA_WIDE_MASK, LDS_WIDE_MASK, 0, 0],
    ];
    for _ in 0..randoms {
        literals.push([0; 4].map(|_| literal_value(&mut rng)));
    }
    let mut g = Gen {
        budget: rng.gen_range(8..56),
        rng,
        opts,
        pools: Pools { literals: randoms },
    };
    let mut items = Vec::new();
    while g.budget > 0 {
        items.extend(g.block(Ctx::default()));
    }
    RandomProgram { items, literals }
}

/// A literal component: an edge pattern half the time.
fn literal_value(rng: &mut ChaCha8Rng) -> u32 {
    use wavejit_isa::edges::{edge_cell, EDGE_CELLS};
    if chance(rng, 50) {
        EDGE_CELLS[rng.gen_range(0..EDGE_CELLS.len())]
    } else {
        edge_cell(rng)
    }
}

/// The opcode of a mnemonic this module emits.
fn opcode(mnemonic: &str) -> u16 {
    table::by_mnemonic(mnemonic)
        .map(|r| r.value)
        .expect("the generator's mnemonics are rows of the table")
}

/// An instruction `mnemonic` with control fields set by name.
fn inst(mnemonic: &str, fields: &[(&str, u16)]) -> Inst {
    let mut i = Inst::new(opcode(mnemonic));
    if let Some(row) = i.row() {
        for &(name, v) in fields {
            if let Some(f) = row.field(name) {
                i.control = f.set(i.control, v);
            }
        }
    }
    i
}

/// A destination writing component `comp` of temp `num` only.
fn temp_dst(num: u32, comp: usize) -> Dst {
    let mut m = DstMod {
        comp: [DstComp::NoWrite; 4],
        ..DstMod::IDENTITY
    };
    m.comp[comp] = DstComp::Write;
    Dst {
        reg: Reg::new(RegType::TEMP, num),
        modifier: Some(m),
    }
}

/// Component `comp` of a literal.
fn literal(num: u32, comp: Sel) -> Src {
    Src {
        reg: Reg::new(RegType::LITERAL, num),
        modifier: Some(SrcMod::replicate(comp)),
    }
}

struct Gen<'a> {
    rng: ChaCha8Rng,
    opts: &'a GenOptions,
    pools: Pools,
    /// Items left to generate.
    budget: u32,
}

impl Gen<'_> {
    fn chance(&mut self, percent: u32) -> bool {
        chance(&mut self.rng, percent)
    }

    fn source(&mut self, ty: Ty) -> Src {
        source(&mut self.rng, ty, &self.pools)
    }

    /// Items in a block at `ctx`.
    fn block(&mut self, ctx: Ctx) -> Vec<Item> {
        let mut items = Vec::new();
        for _ in 0..self.rng.gen_range(1..=6) {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            let inner = ctx.depth < MAX_DEPTH;
            match self.rng.gen_range(0..100) {
                0..=9 if inner => items.push(self.if_item(ctx)),
                10..=16 if inner && ctx.loops < MAX_LOOPS => items.push(self.loop_item(ctx)),
                17..=20 if inner => items.push(self.switch_item(ctx)),
                21..=27 if ctx.breakable => items.push(Item::Leave(self.leave(ctx))),
                28 => {
                    let m = ["ret_logicalnz", "ret_logicalz"][self.rng.gen_range(0..2)];
                    let mut i = inst(m, &[]);
                    let c = self.condition_source();
                    i.src.push(c);
                    items.push(Item::Leave(i));
                }
                _ => items.extend(self.instruction(ctx)),
            }
        }
        items
    }

    /// A condition instruction: `<prefix>_logicalnz`/`_logicalz src` or `<c_form>_relop(op)
    /// src0, src1`.
    fn condition(&mut self, logical: &str, relop: &str) -> Inst {
        if self.chance(65) {
            let z = if self.chance(50) { "z" } else { "nz" };
            let mut i = inst(&format!("{logical}_logical{z}"), &[]);
            let c = self.condition_source();
            i.src.push(c);
            i
        } else {
            let r = self.rng.gen_range(0..table::enums::RELOP.len() as u16);
            let mut i = inst(relop, &[("relop", r)]);
            i.src = vec![self.source(Ty::Float), self.source(Ty::Float)];
            i
        }
    }

    /// A logical condition's source: a random one, or a lane pattern or loop counter that is
    /// zero in some lanes only (random values are rarely zero).
    fn condition_source(&mut self) -> Src {
        match self.rng.gen_range(0..10) {
            0..=2 => temp_comp(PATTERN_TEMP, Sel::ALL[self.rng.gen_range(0..3)]),
            3 => temp_comp(COUNTER_TEMP, Sel::ALL[self.rng.gen_range(0..3)]),
            _ => self.source(Ty::Int),
        }
    }

    fn inner(ctx: Ctx) -> Ctx {
        Ctx {
            depth: ctx.depth + 1,
            ..ctx
        }
    }

    fn if_item(&mut self, ctx: Ctx) -> Item {
        let head = self.condition("if", "ifc");
        let then = self.block(Self::inner(ctx));
        let otherwise = self.chance(40).then(|| self.block(Self::inner(ctx)));
        Item::If {
            head,
            then,
            otherwise,
        }
    }

    fn loop_item(&mut self, ctx: Ctx) -> Item {
        let start = match self.rng.gen_range(0..4) {
            0 => temp_comp(PATTERN_TEMP, Sel::ALL[self.rng.gen_range(0..4)]),
            _ => self.source(Ty::Bits),
        };
        let body = self.block(Ctx {
            depth: ctx.depth + 1,
            loops: ctx.loops + 1,
            breakable: true,
        });
        Item::Loop {
            counter: ctx.loops as u8,
            start,
            body,
        }
    }

    fn switch_item(&mut self, ctx: Ctx) -> Item {
        let selector = match self.rng.gen_range(0..10) {
            0..=4 => temp_comp(PATTERN_TEMP, Sel::Z),
            5 | 6 if ctx.loops > 0 => temp_comp(
                COUNTER_TEMP,
                Sel::ALL[self.rng.gen_range(0..ctx.loops as usize)],
            ),
            _ => self.source(Ty::Int),
        };
        let mut labels: Vec<u32> = (0..8).collect();
        let mut arms = Vec::new();
        for _ in 0..self.rng.gen_range(1..=4) {
            let label = labels.remove(self.rng.gen_range(0..labels.len()));
            // Now and then a label no selector pattern has.
            let label = if self.chance(10) {
                label | 0x8000_0000
            } else {
                label
            };
            arms.push(Some(label));
        }
        if self.chance(50) {
            let at = self.rng.gen_range(0..=arms.len());
            arms.insert(at, None);
        }
        let body_ctx = Ctx {
            depth: ctx.depth + 1,
            breakable: true,
            ..ctx
        };
        let arms = arms
            .into_iter()
            .map(|label| Arm {
                label,
                body: self.block(body_ctx),
                breaks: self.chance(80),
            })
            .collect();
        Item::Switch { selector, arms }
    }

    /// A break (or, inside a loop, a continue) form.
    fn leave(&mut self, ctx: Ctx) -> Inst {
        let kind = if ctx.loops > 0 && self.chance(45) {
            "continue"
        } else {
            "break"
        };
        if self.chance(12) {
            inst(kind, &[])
        } else {
            self.condition(kind, &format!("{kind}c"))
        }
    }

    /// One instruction, or a memory access and the mask of its address.
    fn instruction(&mut self, ctx: Ctx) -> Vec<Item> {
        let memory = if self.opts.memory_focus { 70 } else { 10 };
        let r = self.rng.gen_range(0..100);
        if r < memory {
            self.memory()
        } else if r < memory + 3 {
            vec![Item::Inst(self.fence(ctx))]
        } else {
            let form = alu::pick(&mut self.rng);
            form.random(&mut self.rng, &self.pools)
                .map(Item::Inst)
                .into_iter()
                .collect()
        }
    }
}

impl RandomProgram {
    /// The program: the declarations, the items, `end`.
    pub fn program(&self) -> Program {
        let mut body = Vec::new();
        lower::lower(&self.items, &mut body);
        body.push(Inst::new(op::END));
        let mut code = lower::declarations(&body, &self.literals);
        code.extend(body);
        Program {
            macros: Vec::new(),
            lang: 0,
            version: VERSION,
            code,
        }
    }

    /// The program as IL text ([`crate::parse`] reads it back).
    pub fn listing(&self) -> String {
        crate::print::print(&self.program())
    }

    /// Instructions of the program, declarations and `end` included.
    pub fn instructions(&self) -> usize {
        self.program().code.len()
    }

    /// One-step reductions, biggest first (see [`reduce`]).
    pub fn reductions(&self) -> Vec<RandomProgram> {
        reduce::reductions(self)
    }

    /// The instruction forms and modifiers the program holds: each instruction's mnemonic
    /// with its control specifiers (`mul_ieee`, `ifc_relop(lt)`), each source modifier as
    /// `src_<name>` and each result modifier as `dst_<name>`, and `relative` for a
    /// register-relative index.
    pub fn forms(&self) -> Vec<String> {
        let mut forms = BTreeSet::new();
        for i in &self.program().code {
            let bare = crate::print::print_inst(&Inst {
                dst: Vec::new(),
                src: Vec::new(),
                extra: Vec::new(),
                ..i.clone()
            });
            forms.extend(bare.split_whitespace().next().map(str::to_string));
            if let Some(m) = i.dst.first().and_then(|d| d.modifier) {
                let name = crate::token::SHIFT_NAMES[usize::from(m.shift)];
                if !name.is_empty() {
                    forms.insert(format!("dst_{name}"));
                }
                if m.clamp {
                    forms.insert("dst_sat".into());
                }
            }
            for m in i.src.iter().filter_map(|s| s.modifier) {
                for (on, name) in [
                    (m.neg.contains(&true), "neg"),
                    (m.abs, "abs"),
                    (m.invert, "invert"),
                    (m.bias, "bias"),
                    (m.x2, "x2"),
                    (m.sign, "sign"),
                    (m.divcomp != 0, "divcomp"),
                    (m.clamp, "clamp"),
                ] {
                    if on {
                        forms.insert(format!("src_{name}"));
                    }
                }
            }
            lower::each_reg(i, &mut |r| {
                if matches!(r.index, Index::Rel(..)) {
                    forms.insert("relative".into());
                }
            });
        }
        forms.into_iter().collect()
    }
}

#[cfg(test)]
mod tests;
