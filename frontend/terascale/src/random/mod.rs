//! Seeded random TeraScale programs and wave states for differential testing.
//!
//! A program is generated as a tree of CF [`Node`]s (ALU clauses, if/else, DX10 loops with
//! break and continue) whose ALU clauses hold instruction groups picked from the tables, then
//! lowered to a [`Program`] in the shapes LLVM's R600 control-flow finalizer emits
//! (R600ControlFlowFinalizer.cpp; the cf_* vectors):
//! - if: `ALU_PUSH_BEFORE` (or `PUSH @next POP:1` + `ALU`, LLVM's work-around form) ending in a
//!   `PRED_SET* ... UPDATE_EXEC_MASK UPDATE_PRED` group, `JUMP @else POP:0`, then-body,
//!   `ELSE @after-pop POP:1`, else-body, `POP @next POP:1`. Without else the JUMP is
//!   `JUMP @after-pop POP:1`; when the then-body ends in an ALU clause it may become
//!   `ALU_POP_AFTER` instead of the POP.
//! - loop: a counter clause, `LOOP_START_DX10 @after-end`, a break check (the same if shape
//!   around `LOOP_BREAK @end`), the body, `END_LOOP @first-body`. Break and continue nodes use
//!   the if shape around `LOOP_BREAK`/`LOOP_CONTINUE @end`.
//! - the program ends with `CF_END` (Cayman `END`; Evergreen `NOP` with END_OF_PROGRAM).
//!
//! Invariants (checked by [`check`], which the minimiser and the tests use):
//! - every program is valid for the decoder: `decode_program(encode_program(p)) == p`;
//! - it terminates: loop `d` keeps its trip counter in `R[COUNTER_GPR + d].x`, set to 1-4
//!   per lane before the loop and decremented at the top of every trip before anything can
//!   `continue`; lanes whose counter reaches 0 break. No random instruction writes a counter
//!   (destinations stay below [`GPR_POOL`], relative ones below it for every AR value);
//! - its values are defined: PV/PS are read only after a group whose slot produced a value
//!   unpredicated, kcache reads stay inside the clause's locked lines, AR is set by MOVA_INT
//!   (from a value masked to 0-7) at least two groups before a relative access in the same
//!   clause, PRED_SEL is used only after a PRED_SET with UPDATE_PRED earlier in the clause,
//!   neg/abs/OMOD/CLAMP only on float operands and results.
//!
//! Not modelled: read-port and bank-swizzle limits (4.7.3-4.7.8: constraints of the hardware's
//! scheduling, no semantic effect; BANK_SWIZZLE is always 0), fetch and memory clauses, LDS,
//! KILL, SET_MODE, LOOP_START (DX9), CALL.
mod check;
mod group;
mod shrink;
mod state;

pub use check::check;
pub use group::{value_ops, EXEC_PRED_SETS};
pub use shrink::minimise;
pub use state::{edge_value, InitialState, CB_DWORDS, GPR_ROWS};

use crate::chip::ChipClass;
use crate::decode::{decode_program, DecodeError};
use crate::encode::{encode_program, EncodeError};
use crate::inst::*;
use crate::tables::{CfAluOp, CfOp};
use group::Picker;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random operands and destinations use `R0..GPR_POOL`.
pub const GPR_POOL: u8 = 24;
/// AR values a MOVA_INT sets are 0..REL_SPAN, so a relative base is at most
/// `GPR_POOL - REL_SPAN`.
pub const REL_SPAN: u8 = 8;
/// Loop `d` counts its trips in `R[COUNTER_GPR + d].x`.
pub const COUNTER_GPR: u8 = 32;
/// Constant buffers the kcache locks name (banks `0..CONST_BUFFERS`).
pub const CONST_BUFFERS: u8 = 3;
/// Kcache lines a lock may start at (`0..KCACHE_LINES`; LOCK_2 also reads the next line).
pub const KCACHE_LINES: u8 = 4;
/// Largest ALU clause (64-bit slots, literals included; COUNT is 7 bits).
pub const MAX_CLAUSE_SLOTS: u32 = 128;

/// What a generated program may contain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// CF nodes at the top level (control nodes add their bodies).
    pub nodes: usize,
    /// Random instruction groups per ALU clause (at most).
    pub max_groups: usize,
    /// If/else, DX10 loops, break and continue.
    pub control: bool,
    /// Nesting depth of ifs and loops (loops at most 2 deep).
    pub max_depth: usize,
    /// Kcache locks and constant reads.
    pub kcache: bool,
    /// ALU_EXTENDED clauses (kcache sets 2 and 3).
    pub alu_extended: bool,
    /// Literal operands.
    pub literals: bool,
    /// neg/abs input modifiers, OMOD and CLAMP on float ops.
    pub modifiers: bool,
    /// PRED_SEL after a PRED_SET with UPDATE_PRED.
    pub predication: bool,
    /// MOVA_INT and AR-relative GPR reads and writes.
    pub relative: bool,
    /// The 64-bit (double) ops, in slot pairs.
    pub double_ops: bool,
    /// The double inline constants (SRC_SEL 244-247: 1.0 and 0.5 as dword halves).
    pub double_constants: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            nodes: 6,
            max_groups: 6,
            control: true,
            max_depth: 3,
            kcache: true,
            alu_extended: true,
            literals: true,
            modifiers: true,
            predication: true,
            relative: true,
            double_ops: true,
            double_constants: true,
        }
    }
}

/// An ALU clause before layout: its kcache locks and its groups (addresses are assigned by
/// [`RandomProgram::lower`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AluClause {
    /// Kcache sets 0-3 (2 and 3 only when `ext`).
    pub kcache: [KCache; 4],
    /// Issued as ALU_EXTENDED.
    pub ext: bool,
    pub groups: Vec<AluGroup>,
}

/// How an if pushes the active mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Push {
    /// `ALU_PUSH_BEFORE` runs the condition clause.
    AluPushBefore,
    /// `PUSH @next POP:1`, then the condition clause as plain `ALU` (LLVM's work-around).
    PushThenAlu,
}

/// A CF construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Alu(AluClause),
    /// `cond` ends with the exec-mask PRED_SET group.
    If {
        push: Push,
        cond: AluClause,
        then_body: Vec<Node>,
        else_body: Option<Vec<Node>>,
        /// Fold the POP into a final then-body ALU clause (`ALU_POP_AFTER`) when there is no
        /// else and the then-body ends with an ALU clause.
        pop_after: bool,
    },
    /// A bounded DX10 loop at nesting `depth` (its counter is `R[COUNTER_GPR + depth].x`):
    /// `init` sets the counter, `check` decrements it and sets the exec mask to the lanes
    /// that break.
    Loop {
        depth: u8,
        init: AluClause,
        check: AluClause,
        body: Vec<Node>,
    },
    /// Lanes passing the condition leave the innermost loop.
    Break(AluClause),
    /// Lanes passing the condition skip to the innermost loop's END_LOOP.
    Continue(AluClause),
}

/// A generated program: the class and its CF tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomProgram {
    pub class: ChipClass,
    pub nodes: Vec<Node>,
}

/// A generated program that is not valid (a generator or minimiser bug).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    #[error("cannot encode: {0}")]
    Encode(#[from] EncodeError),
    #[error("does not decode: {0}")]
    Decode(#[from] DecodeError),
    #[error("decodes to a different program: {0}")]
    RoundTrip(String),
    #[error("ALU clause of {0} slots (at most {MAX_CLAUSE_SLOTS})")]
    ClauseTooLong(u32),
    #[error("invalid program: {0}")]
    Invalid(String),
}

/// Generates the program of `seed` for `class`; it passes [`check`].
pub fn generate(seed: u64, class: ChipClass, opts: &GenOptions) -> Result<RandomProgram, GenError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut b = Builder {
        p: Picker::new(&mut rng, class, opts),
        opts,
    };
    let nodes = b.body(opts.nodes, 0, None);
    let p = RandomProgram { class, nodes };
    check(&p)?;
    Ok(p)
}

/// The program and the wave state of `seed`: the inputs of one differential test case.
pub fn program_and_state(
    seed: u64,
    class: ChipClass,
    opts: &GenOptions,
) -> Result<(Program, InitialState), GenError> {
    let p = generate(seed, class, opts)?;
    Ok((p.lower()?, InitialState::random(seed, 64)))
}

struct Builder<'a, 'r> {
    p: Picker<'r>,
    opts: &'a GenOptions,
}

impl Builder<'_, '_> {
    /// `n` nodes at `depth` (ifs and loops around them), inside loop `in_loop` if any.
    fn body(&mut self, n: usize, depth: usize, in_loop: Option<u8>) -> Vec<Node> {
        let mut out = Vec::new();
        for _ in 0..n {
            let roll = self.p.rng.gen_range(0..100);
            let nest = self.opts.control && depth < self.opts.max_depth;
            let loop_depth = in_loop.map_or(0, |d| d + 1);
            let node = match roll {
                0..=21 if nest => self.if_node(depth, in_loop),
                22..=31 if nest && (loop_depth as usize) < 2 => self.loop_node(depth, loop_depth),
                32..=37 if in_loop.is_some() => Node::Break(self.p.clause(true)),
                38..=43 if in_loop.is_some() => Node::Continue(self.p.clause(true)),
                _ => Node::Alu(self.p.clause(false)),
            };
            out.push(node);
        }
        out
    }

    fn if_node(&mut self, depth: usize, in_loop: Option<u8>) -> Node {
        let push = if self.p.rng.gen_bool(0.7) {
            Push::AluPushBefore
        } else {
            Push::PushThenAlu
        };
        let cond = self.p.clause(true);
        let n = self.p.rng.gen_range(0..=3);
        let then_body = self.body(n, depth + 1, in_loop);
        let else_body = if self.p.rng.gen_bool(0.4) {
            let n = self.p.rng.gen_range(0..=2);
            Some(self.body(n, depth + 1, in_loop))
        } else {
            None
        };
        Node::If {
            push,
            cond,
            then_body,
            else_body,
            pop_after: self.p.rng.gen_bool(0.5),
        }
    }

    fn loop_node(&mut self, depth: usize, loop_depth: u8) -> Node {
        let init = self.p.counter_init(loop_depth);
        let check = self.p.counter_check(loop_depth);
        let n = self.p.rng.gen_range(1..=3);
        let body = self.body(n, depth + 1, Some(loop_depth));
        Node::Loop {
            depth: loop_depth,
            init,
            check,
            body,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Lowering

fn cf_word(op: CfOp, addr: u32, pop_count: u8) -> CfInst {
    CfInst::Word(CfWord {
        op,
        addr,
        jumptable_sel: 0,
        pop_count,
        cf_const: 0,
        cond: 0,
        count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        whole_quad_mode: false,
        barrier: true,
    })
}

/// CF instructions being emitted and the clauses they run (patched once the CF end is known).
struct Lowering {
    cf: Vec<CfEntry>,
    at: u32,
    /// (CF index, clause) for every CF_ALU instruction.
    clauses: Vec<(usize, AluClause)>,
    /// END_LOOP address placeholders of the loops being emitted: indices of CF instructions
    /// whose address is the innermost loop's END_LOOP.
    loop_exits: Vec<Vec<usize>>,
}

impl Lowering {
    fn push(&mut self, inst: CfInst) -> usize {
        self.cf.push(CfEntry {
            addr: self.at,
            inst,
        });
        self.at += inst.slots();
        self.cf.len() - 1
    }

    fn set_target(&mut self, i: usize, addr: u32, pop: Option<u8>) {
        if let CfInst::Word(w) = &mut self.cf[i].inst {
            w.addr = addr;
            if let Some(p) = pop {
                w.pop_count = p;
            }
        }
    }

    fn alu(&mut self, op: CfAluOp, c: &AluClause) {
        let inst = CfInst::Alu(CfAlu {
            op,
            addr: 0,
            kcache: c.kcache,
            count: 0,
            alt_const: false,
            whole_quad_mode: false,
            barrier: true,
            ext: c.ext.then_some(AluExt {
                bank_index_mode: [0; 4],
                barrier: true,
            }),
        });
        let i = self.push(inst);
        self.clauses.push((i, c.clone()));
    }

    fn nodes(&mut self, nodes: &[Node]) {
        for n in nodes {
            self.node(n);
        }
    }

    /// `cond` pushed, then `JUMP`; returns the JUMP's index.
    fn pushed_cond(&mut self, push: Push, cond: &AluClause) -> usize {
        match push {
            Push::AluPushBefore => self.alu(CfAluOp::ALU_PUSH_BEFORE, cond),
            Push::PushThenAlu => {
                let next = self.at + 1;
                self.push(cf_word(CfOp::PUSH, next, 1));
                self.alu(CfAluOp::ALU, cond);
            }
        }
        self.push(cf_word(CfOp::JUMP, 0, 1))
    }

    /// `cond; JUMP; op @END_LOOP; POP` (break and continue).
    fn loop_exit(&mut self, op: CfOp, cond: &AluClause) {
        let jump = self.pushed_cond(Push::AluPushBefore, cond);
        let i = self.push(cf_word(op, 0, 0));
        if let Some(exits) = self.loop_exits.last_mut() {
            exits.push(i);
        }
        let after = self.at + 1;
        self.push(cf_word(CfOp::POP, after, 1));
        self.set_target(jump, after, Some(1));
    }

    fn node(&mut self, n: &Node) {
        match n {
            Node::Alu(c) => self.alu(CfAluOp::ALU, c),
            Node::If {
                push,
                cond,
                then_body,
                else_body,
                pop_after,
            } => {
                let jump = self.pushed_cond(*push, cond);
                match (else_body, then_body.split_last()) {
                    (None, Some((Node::Alu(last), rest))) if *pop_after => {
                        self.nodes(rest);
                        self.alu(CfAluOp::ALU_POP_AFTER, last);
                        let after = self.at;
                        self.set_target(jump, after, Some(1));
                    }
                    (None, _) => {
                        self.nodes(then_body);
                        let after = self.at + 1;
                        self.push(cf_word(CfOp::POP, after, 1));
                        self.set_target(jump, after, Some(1));
                    }
                    (Some(else_body), _) => {
                        self.nodes(then_body);
                        let else_at = self.at;
                        self.set_target(jump, else_at, Some(0));
                        let e = self.push(cf_word(CfOp::ELSE, 0, 1));
                        self.nodes(else_body);
                        let after = self.at + 1;
                        self.push(cf_word(CfOp::POP, after, 1));
                        self.set_target(e, after, None);
                    }
                }
            }
            Node::Loop {
                init, check, body, ..
            } => {
                self.alu(CfAluOp::ALU, init);
                let start = self.push(cf_word(CfOp::LOOP_START_DX10, 0, 0));
                let first = self.at;
                self.loop_exits.push(Vec::new());
                self.loop_exit(CfOp::LOOP_BREAK, check);
                self.nodes(body);
                let end = self.push(cf_word(CfOp::LOOP_END, first, 0));
                let end_at = self.cf[end].addr;
                for i in self.loop_exits.pop().unwrap_or_default() {
                    self.set_target(i, end_at, None);
                }
                self.set_target(start, end_at + 1, None);
            }
            Node::Break(c) => self.loop_exit(CfOp::LOOP_BREAK, c),
            Node::Continue(c) => self.loop_exit(CfOp::LOOP_CONTINUE, c),
        }
    }
}

impl RandomProgram {
    /// The program laid out: the CF program from address 0, then every ALU clause in CF order
    /// (no padding), checked to decode back to itself.
    pub fn lower(&self) -> Result<Program, GenError> {
        let mut l = Lowering {
            cf: Vec::new(),
            at: 0,
            clauses: Vec::new(),
            loop_exits: Vec::new(),
        };
        l.nodes(&self.nodes);
        match self.class {
            ChipClass::Cayman => {
                l.push(cf_word(CfOp::END, 0, 0));
            }
            ChipClass::Evergreen => {
                let mut end = cf_word(CfOp::NOP, 0, 0);
                if let CfInst::Word(w) = &mut end {
                    w.end_of_program = true;
                }
                l.push(end);
            }
        }
        // LLVM pads the CF program to an even length with a zero word. On Evergreen a first
        // clause word that reads as NOP + END_OF_PROGRAM would be taken for a trailing end
        // (see `decode`), so a zero pair keeps it out of the CF program.
        let mut pads: Vec<u32> = Vec::new();
        if l.at % 2 == 1 {
            pads.push(l.at);
        } else if self.class == ChipClass::Evergreen && self.first_word_reads_as_end() {
            pads.extend([l.at, l.at + 1]);
        }
        let mut at = l.at + pads.len() as u32;
        let mut clauses = Vec::new();
        for (i, c) in &l.clauses {
            let mut groups = c.groups.clone();
            let mut q = at;
            for g in groups.iter_mut() {
                g.addr = q;
                q += g.slots();
            }
            let len = q - at;
            if len == 0 || len > MAX_CLAUSE_SLOTS {
                return Err(GenError::ClauseTooLong(len));
            }
            if let CfInst::Alu(a) = &mut l.cf[*i].inst {
                a.addr = at;
                a.count = (len - 1) as u8;
            }
            clauses.push(Clause {
                addr: at,
                len,
                body: ClauseBody::Alu(groups),
            });
            at = q;
        }
        let p = Program {
            class: self.class,
            cf: l.cf,
            clauses,
            pads,
            len: at,
        };
        let bytes = encode_program(&p)?;
        let back = decode_program(self.class, &bytes)?;
        if back != p {
            return Err(GenError::RoundTrip(first_difference(&p, &back)));
        }
        Ok(p)
    }

    /// Whether the first ALU word after the CF program has the shape of a CF NOP with
    /// END_OF_PROGRAM (CF_INST [29:22] = 0, bit 21 set).
    fn first_word_reads_as_end(&self) -> bool {
        let mut first = None;
        walk_clauses(&self.nodes, &mut |c, _| {
            if first.is_none() {
                first = c
                    .groups
                    .first()
                    .and_then(|g| g.insts.first())
                    .map(|i| i.encode()[1]);
            }
        });
        first.is_some_and(|w1| (w1 >> 22) & 0xff == 0 && w1 & (1 << 21) != 0)
    }

    /// ALU instructions of the program (every clause, fixed loop clauses included).
    pub fn instructions(&self) -> usize {
        let mut n = 0;
        walk_clauses(&self.nodes, &mut |c, _| {
            n += c.groups.iter().map(|g| g.insts.len()).sum::<usize>()
        });
        n
    }
}

/// Which part of the CF tree a clause plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClauseRole {
    /// A plain ALU clause.
    Plain,
    /// Ends with the exec-mask PRED_SET group (if, break, continue, loop check).
    Condition,
    /// A loop counter's initialisation.
    CounterInit,
}

/// Calls `f` on every clause of `nodes` in CF order.
pub fn walk_clauses(nodes: &[Node], f: &mut impl FnMut(&AluClause, ClauseRole)) {
    for n in nodes {
        match n {
            Node::Alu(c) => f(c, ClauseRole::Plain),
            Node::If {
                cond,
                then_body,
                else_body,
                ..
            } => {
                f(cond, ClauseRole::Condition);
                walk_clauses(then_body, f);
                if let Some(e) = else_body {
                    walk_clauses(e, f);
                }
            }
            Node::Loop {
                init, check, body, ..
            } => {
                f(init, ClauseRole::CounterInit);
                f(check, ClauseRole::Condition);
                walk_clauses(body, f);
            }
            Node::Break(c) | Node::Continue(c) => f(c, ClauseRole::Condition),
        }
    }
}

fn first_difference(a: &Program, b: &Program) -> String {
    for (x, y) in a.cf.iter().zip(&b.cf) {
        if x != y {
            return format!("CF {x:?} decodes as {y:?}");
        }
    }
    for (x, y) in a.clauses.iter().zip(&b.clauses) {
        if let (ClauseBody::Alu(gx), ClauseBody::Alu(gy)) = (&x.body, &y.body) {
            for (g, h) in gx.iter().zip(gy) {
                if g != h {
                    return format!("group {g:?} decodes as {h:?}");
                }
            }
        }
    }
    format!(
        "{} CF / {} clauses / {} words decode as {} / {} / {}",
        a.cf.len(),
        a.clauses.len(),
        a.len,
        b.cf.len(),
        b.clauses.len(),
        b.len
    )
}
