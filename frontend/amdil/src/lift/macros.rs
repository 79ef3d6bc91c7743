//! Macros (7.19, L13191-L13350): `mdef(k)_out(m)_in(n)` ... `mend` before the language token,
//! expanded at each `mcall(k) (outputs), (inputs)`.
//!
//! An expansion is what L13291-L13297 describe: a prolog of moves from the actual inputs to
//! the formal inputs `in0`.. (each a `mov in#, src` of the whole source, its swizzle and
//! modifiers applied as `mov` applies them), the body, then an epilog of moves from the formal
//! outputs `out0`.. to the actual outputs (`mov dst, out#` under the destination's write mask);
//! the body's temps, literals and formal arguments are "replaced by new, unique" registers.
//! Here every expansion (each `mcall` of the code, and each `mcall` of a macro body within
//! each expansion of that macro) gets temps of its own after the program's: the body's `r#`
//! at `base + #`, `in#` after them, `out#` after those. A body's `dcl_literal`s are its own
//! literals; any other register (`x#`, `cb#`, thread ids, ...) is the program's. Expansions
//! are numbered in program order, depth first; the plan and the lift walk them alike.
//!
//! Checked before lifting (invalid otherwise): macro numbers are unique (L13215); `mcall`
//! names a defined macro with its declared numbers of outputs and inputs; actual inputs are
//! temps or literals and actual outputs temps (L13281; inside a macro its `in#`/`out#` are
//! temps too); a macro does not call itself, directly or through others (its expansion would
//! not end); each body is balanced on its own (`structure`), so a `break` or `continue`
//! in a macro leaves the macro's own loops. `_outline` (L13219) changes nothing observable and
//! is expanded like the rest. Refused as unsupported: a return inside a macro (the seed does
//! not say whether it leaves the macro or the function) and declarations other than
//! `dcl_literal` (L13215 scopes only temps and literals to a macro); macro calls nested more
//! than 64 deep or more than 4096 expansions.

use super::regs::Kind;
use super::scan::highest_temp_of;
use super::structure::structure;
use super::{refusal, LiftError, LiftErrorKind, Lifter};
use crate::inst::{Inst, Program};
use crate::token::RegType;
use std::collections::{BTreeSet, HashMap};
use wavejit_ir::ScalarType;

/// Macro expansions a program may have (each has registers of its own).
const MAX_EXPANSIONS: u32 = 4096;
/// How deep macro calls may nest (the lift recurses once per level).
const MAX_NESTING: usize = 64;

/// One macro definition.
pub(super) struct Macro {
    pub id: u32,
    /// Its body in `program.macros`: from the instruction after `mdef` through `mend`.
    first: usize,
    last: usize,
    ins: u32,
    outs: u32,
    /// The temps its body names (`r0`..).
    temps: u32,
    literals: HashMap<u32, [u32; 4]>,
    /// The nesting levels its body's blocks use, nested macros' included.
    pub depth: u32,
    /// The function labels it calls, directly or through the macros it calls.
    pub calls: BTreeSet<u32>,
    /// The macros its body calls.
    mcalls: Vec<u32>,
}

impl Macro {
    /// Registers of one expansion.
    fn registers(&self) -> u32 {
        self.temps + self.ins + self.outs
    }
}

/// The program's macros.
pub(super) struct Macros {
    list: Vec<Macro>,
    by_id: HashMap<u32, usize>,
    /// Case values of the switches in macro bodies, by pc.
    cases: HashMap<u64, Vec<u32>>,
}

/// The expansion being lifted.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scope {
    /// Its number (from 1).
    pub id: u32,
    /// Its macro (an index into [`Macros::list`]).
    mac: usize,
    /// Its first temp.
    base: u32,
}

/// Where each expansion's registers are.
#[derive(Default)]
pub(super) struct Expansions {
    /// (enclosing expansion or 0, `mcall` pc) -> (expansion number, first temp).
    map: HashMap<(u32, u64), (u32, u32)>,
    /// Temps of all expansions together.
    pub temps: u32,
}

impl Macros {
    /// Reads and checks the macro definitions (see the module doc).
    pub fn new(program: &Program, pcs: &[u64]) -> Result<Macros, LiftError> {
        let code = &program.macros;
        let invalid =
            |i: usize, why: String| refusal(LiftErrorKind::Invalid, pcs[i], &code[i], why);
        let mut list = Vec::new();
        let mut by_id = HashMap::new();
        let mut i = 0;
        while i < code.len() {
            let def = &code[i];
            let Some(row) = def.row().filter(|r| r.mnemonic == "mdef") else {
                return Err(invalid(i, "a macro starts with mdef".into()));
            };
            let id = u32::from(row.fields[0].get(def.control));
            let counts = def.extra.first().copied().unwrap_or(0);
            let last = (i + 1..code.len())
                .find(|&j| code[j].row().is_some_and(|r| r.mnemonic == "mend"))
                .ok_or_else(|| invalid(i, format!("mdef({id}) without mend")))?;
            let mut m = Macro {
                id,
                first: i + 1,
                last,
                ins: counts & 0xff,
                outs: counts >> 8 & 0xff,
                temps: 0,
                literals: HashMap::new(),
                depth: 0,
                calls: BTreeSet::new(),
                mcalls: Vec::new(),
            };
            for j in m.first..m.last {
                read_body(&mut m, &code[j])
                    .map_err(|(kind, why)| refusal(kind, pcs[j], &code[j], why))?;
            }
            if by_id.insert(id, list.len()).is_some() {
                return Err(invalid(i, format!("a second mdef({id}) (L13215: unique)")));
            }
            list.push(m);
            i = last + 1;
        }
        let mut macros = Macros {
            list,
            by_id,
            cases: HashMap::new(),
        };
        for m in &macros.list {
            for (j, inst) in code.iter().enumerate().take(m.last).skip(m.first) {
                if let Some(k) = mcall_id(inst) {
                    if !macros.by_id.contains_key(&k) {
                        return Err(invalid(j, format!("mcall to undefined macro {k}")));
                    }
                }
            }
        }
        for n in macros.post_order()? {
            let m = &macros.list[n];
            let mut calls = m.calls.clone();
            for k in &m.mcalls {
                calls.extend(macros.list[macros.by_id[k]].calls.iter().copied());
            }
            let (first, last) = (m.first, m.last);
            let mut cases = std::mem::take(&mut macros.cases);
            let span = |inst: &Inst| macros.called(inst).map_or(0, |c| c.depth);
            let depth = structure(code, pcs, first..=last, &span, &mut cases)?;
            macros.cases = cases;
            let m = &mut macros.list[n];
            m.depth = depth;
            m.calls = calls;
        }
        Ok(macros)
    }

    /// The macros in an order where each comes after those it calls; refuses a macro that
    /// calls itself.
    fn post_order(&self) -> Result<Vec<usize>, LiftError> {
        fn visit(
            ms: &Macros,
            n: usize,
            path: &mut Vec<usize>,
            done: &mut Vec<bool>,
            out: &mut Vec<usize>,
        ) -> Result<(), LiftError> {
            if done[n] {
                return Ok(());
            }
            if path.contains(&n) {
                let chain: Vec<String> = path
                    .iter()
                    .chain([&n])
                    .map(|&k| ms.list[k].id.to_string())
                    .collect();
                return Err(LiftError::invalid(
                    0,
                    "",
                    format!(
                        "macro {} calls itself ({}): its expansion would not end",
                        ms.list[n].id,
                        chain.join(" -> ")
                    ),
                )
                .at("macro"));
            }
            if path.len() == MAX_NESTING {
                return Err(LiftError::unsupported(
                    0,
                    "",
                    format!(
                        "macro calls nested more than {MAX_NESTING} deep, the most the lift takes"
                    ),
                )
                .at("macro"));
            }
            path.push(n);
            for k in &ms.list[n].mcalls {
                visit(ms, ms.by_id[k], path, done, out)?;
            }
            path.pop();
            done[n] = true;
            out.push(n);
            Ok(())
        }
        let mut done = vec![false; self.list.len()];
        let mut out = Vec::new();
        for n in 0..self.list.len() {
            visit(self, n, &mut Vec::new(), &mut done, &mut out)?;
        }
        Ok(out)
    }

    /// The macro an `mcall` names, if `inst` is one and the macro is defined.
    pub fn called(&self, inst: &Inst) -> Option<&Macro> {
        mcall_id(inst).and_then(|k| self.by_id.get(&k).map(|&n| &self.list[n]))
    }

    pub fn iter(&self) -> impl Iterator<Item = &Macro> {
        self.list.iter()
    }

    pub fn cases(&self) -> &HashMap<u64, Vec<u32>> {
        &self.cases
    }

    /// Numbers every expansion of the program and gives it temps from `first_temp` on.
    pub fn expand(
        &self,
        program: &Program,
        pcs: &[u64],
        macro_pcs: &[u64],
        first_temp: u32,
    ) -> Result<Expansions, LiftError> {
        let mut e = Expansions::default();
        let mut next = (1, first_temp);
        for (i, inst) in program.code.iter().enumerate() {
            if let Some(k) = mcall_id(inst) {
                let m = self.called(inst).ok_or_else(|| {
                    refusal(
                        LiftErrorKind::Invalid,
                        pcs[i],
                        inst,
                        format!("mcall to undefined macro {k}"),
                    )
                })?;
                self.expand_one(program, macro_pcs, m, (0, pcs[i]), &mut next, &mut e)?;
            }
        }
        e.temps = next.1 - first_temp;
        Ok(e)
    }

    fn expand_one(
        &self,
        program: &Program,
        macro_pcs: &[u64],
        m: &Macro,
        at: (u32, u64),
        next: &mut (u32, u32),
        e: &mut Expansions,
    ) -> Result<(), LiftError> {
        let (id, base) = *next;
        if id > MAX_EXPANSIONS {
            return Err(LiftError::unsupported(
                0,
                "",
                format!("more than {MAX_EXPANSIONS} macro expansions, the most the lift takes"),
            )
            .at("program"));
        }
        *next = (id + 1, base.saturating_add(m.registers()));
        e.map.insert(at, (id, base));
        for j in m.first..m.last {
            if let Some(inner) = self.called(&program.macros[j]) {
                self.expand_one(program, macro_pcs, inner, (id, macro_pcs[j]), next, e)?;
            }
        }
        Ok(())
    }
}

/// The number of the macro `inst` calls, if it is an `mcall`.
fn mcall_id(inst: &Inst) -> Option<u32> {
    let row = inst.row()?;
    (row.mnemonic == "mcall").then(|| u32::from(row.fields[0].get(inst.control)))
}

/// Records what body instruction `inst` adds to `m`, or why it cannot stand in a macro.
fn read_body(m: &mut Macro, inst: &Inst) -> Result<(), (LiftErrorKind, String)> {
    let mnemonic = inst.row().map_or("", |r| r.mnemonic);
    if let Some(n) = highest_temp_of(inst) {
        m.temps = m.temps.max(n.saturating_add(1));
    }
    match mnemonic {
        "mdef" | "func" | "endfunc" | "endmain" | "end" => Err((
            LiftErrorKind::Invalid,
            format!("{mnemonic} inside a macro body"),
        )),
        "ret" | "ret_dyn" | "ret_logicalz" | "ret_logicalnz" => Err((
            LiftErrorKind::Unsupported,
            "a return inside a macro: the seed does not say whether it leaves the macro or \
             the function (7.19); not lifted"
                .into(),
        )),
        "dcl_literal" => match (&inst.src[..], &inst.extra[..]) {
            ([s], &[x, y, z, w]) if s.reg.ty == RegType::LITERAL => {
                if m.literals.insert(s.reg.num, [x, y, z, w]).is_some() {
                    return Err((
                        LiftErrorKind::Invalid,
                        format!("l{} is declared twice in macro {}", s.reg.num, m.id),
                    ));
                }
                Ok(())
            }
            _ => Err((
                LiftErrorKind::Invalid,
                "a literal declaration names one l# and four values".into(),
            )),
        },
        d if d.starts_with("dcl_") || d == "def" || d == "defb" => Err((
            LiftErrorKind::Unsupported,
            format!(
                "{d} inside a macro: only temps and literals are scoped to a macro (L13215); \
                 not lifted"
            ),
        )),
        "call" | "callnz" | "call_logicalz" | "call_logicalnz" => {
            m.calls.insert(inst.extra.last().copied().unwrap_or(0));
            Ok(())
        }
        _ => {
            if let Some(k) = mcall_id(inst) {
                m.mcalls.push(k);
            }
            Ok(())
        }
    }
}

impl<'a> Lifter<'a> {
    /// Expands an `mcall` (see the module doc).
    pub(super) fn mcall(&mut self) -> Result<(), LiftError> {
        let inst = self.inst();
        let plan = self.plan;
        let Some(m) = plan.macros.called(inst) else {
            return Err(self.invalid("mcall to an undefined macro"));
        };
        let mac = plan.macros.by_id[&m.id];
        if inst.dst.len() != m.outs as usize || inst.src.len() != m.ins as usize {
            return Err(self.invalid(format!(
                "{} outputs and {} inputs to mdef({})_out({})_in({})",
                inst.dst.len(),
                inst.src.len(),
                m.id,
                m.outs,
                m.ins
            )));
        }
        let temp = |ty: RegType| {
            ty == RegType::TEMP || ty == RegType::INPUT_ARG || ty == RegType::OUTPUT_ARG
        };
        if !inst
            .src
            .iter()
            .all(|s| temp(s.reg.ty) || s.reg.ty == RegType::LITERAL)
            || !inst.dst.iter().all(|d| temp(d.reg.ty))
        {
            return Err(self
                .invalid("an actual parameter is a temp or a literal, an output a temp (L13281)"));
        }
        let parent = self.scope.map_or(0, |s| s.id);
        let Some(&(id, base)) = plan.expansions.map.get(&(parent, self.pc())) else {
            return Err(self.invalid("an expansion the plan did not number"));
        };
        self.count();
        let mut inputs = Vec::with_capacity(4 * inst.src.len());
        for s in &inst.src {
            for c in 0..4 {
                inputs.push(self.read_src(s, c, Kind::Float)?);
            }
        }
        let outer = self.scope.replace(Scope { id, mac, base });
        let exec = self.exec_mask();
        for (n, &v) in inputs.iter().enumerate() {
            let r = self.l.temp(base + m.temps + n as u32 / 4, n as u32 % 4);
            self.b.def_reg(r, v, Some(exec));
        }
        let (code, pcs, at) = (self.code, self.pcs, self.i);
        self.code = &self.program.macros;
        self.pcs = &plan.macro_pcs;
        let lifted = self.body(m.first..m.last);
        self.code = code;
        self.pcs = pcs;
        self.i = at;
        self.fetched.clear();
        lifted?;
        if self.b.current_block().is_none() {
            let b = self.b.create_block();
            self.enter(b);
        }
        self.b.set_inst_pc(self.pc() as u32);
        let first_out = base + m.temps + m.ins;
        let outputs: Vec<[Option<wavejit_ir::Value>; 4]> = (0..m.outs)
            .map(|k| {
                [0, 1, 2, 3].map(|c| {
                    let r = self.l.temp(first_out + k, c);
                    Some(self.b.use_reg(r, ScalarType::I32))
                })
            })
            .collect();
        self.scope = outer;
        for (d, vals) in inst.dst.iter().zip(outputs) {
            self.write_to(d, vals, [None; 4], Kind::Float)?;
        }
        Ok(())
    }

    /// The temp that register `num` of type `ty` (a temp, or a macro's `in#`/`out#`) names in
    /// the current scope, or why it names none.
    pub(super) fn temp_number(&self, ty: RegType, num: u32) -> Result<u32, LiftError> {
        let Some(s) = self.scope else {
            return if ty == RegType::TEMP {
                Ok(num)
            } else {
                Err(self.invalid(format!(
                    "{}{num} outside a macro (L1630, L1794: formal parameters of a macro)",
                    ty.name(false)
                )))
            };
        };
        let m = &self.plan.macros.list[s.mac];
        let (first, count) = match ty {
            RegType::INPUT_ARG => (m.temps, m.ins),
            RegType::OUTPUT_ARG => (m.temps + m.ins, m.outs),
            _ => (0, m.temps),
        };
        if num >= count {
            return Err(self.invalid(format!(
                "{}{num}: mdef({})_out({})_in({}) has no such register",
                ty.name(false),
                m.id,
                m.outs,
                m.ins
            )));
        }
        Ok(s.base + first + num)
    }

    /// Literal `num` of the current scope.
    pub(super) fn literal(&self, num: u32) -> Option<[u32; 4]> {
        match self.scope {
            Some(s) => self.plan.macros.list[s.mac].literals.get(&num).copied(),
            None => self.decls.literals.get(&num).copied(),
        }
    }
}
