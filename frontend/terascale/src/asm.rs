//! Assembler: the text [`crate::print`] writes (LLVM 14's r600 listing plus `NAME:value`
//! tokens) back to the bytes it came from.
//!
//! The text is a whole program laid out word by word, as the printer writes it:
//! - CF lines first, one per 64-bit CF slot from address 0 (ALU_EXTENDED is its own line, the
//!   slot before its ALU line);
//! - then, in address order, `PAD` (one zero word), `Fetch clause starting at N:` followed by
//!   one line per 128-bit fetch instruction, and `ALU clause starting at N:` followed by slot
//!   lines (`*` marks the last slot of a group) and after each group its literal lines.
//!
//! Rules (an [`AsmError`] naming the line otherwise):
//! - the address N of a clause header must be where the previous item ends (the text places
//!   every word: no gaps, no overlaps; alignment padding is written as `PAD`), and a fetch
//!   clause starts at an even address;
//! - every clause instruction (`ALU count, @N`, `TEX count @N`, ...) names a clause of the text
//!   by its address and its size (ALU: count+1 words with literals; fetch: count+1
//!   instructions), and every clause is run by at least one of them;
//! - a group is followed by exactly the literal lines its sources read (the decoder's rule);
//! - the bytes must decode to the same CF program and clauses: the decoder's checks (slot
//!   rules, reserved bits, the end of the CF program) are the one definition of validity, and
//!   their errors are reported at the line of the word they name.
//!
//! Literal lines are read by their integers; the float in parentheses is not read. `;` starts
//! a comment; blank lines are ignored.
use crate::chip::ChipClass;
use crate::decode::{decode_program, DecodeError};
use crate::encode::encode_program;
use crate::inst::*;
use crate::tables::CfOp;

mod alu;
mod cf;
mod fetch;

/// An assembly error with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {msg}")]
pub struct AsmError {
    pub line: usize,
    pub msg: String,
}

/// Assembles a program for `class`.
pub fn assemble(class: ChipClass, text: &str) -> Result<Vec<u8>, AsmError> {
    let (program, lines) = parse_program(class, text)?;
    let bytes = encode_program(&program).map_err(|e| AsmError {
        line: lines.first_line,
        msg: e.to_string(),
    })?;
    check_decodes(&program, &bytes, &lines)?;
    Ok(bytes)
}

/// Which line each 64-bit word came from.
struct LineMap {
    first_line: usize,
    word_line: Vec<usize>,
}

impl LineMap {
    fn at(&self, word: u32) -> usize {
        self.word_line
            .get(word as usize)
            .or(self.word_line.last())
            .copied()
            .unwrap_or(self.first_line)
    }
}

/// The word a decoder error names.
fn error_word(e: &DecodeError) -> Option<u32> {
    use DecodeError::*;
    Some(match *e {
        CfAddressOutOfRange { at, .. }
        | ClausePastEnd { at, .. }
        | MisalignedClause { at, .. }
        | ClauseOverlapsCf { at, .. }
        | UnknownOpcode { at, .. }
        | ReservedBits { at, .. }
        | InvalidSlot { at, .. }
        | StrayData { at } => at,
        ClausesOverlap { b, .. } => b,
        MissingLiteral { group, .. } => group,
        UnterminatedGroup { clause, .. } => clause,
        Truncated { .. } | NoEnd => return None,
    })
}

fn check_decodes(p: &Program, bytes: &[u8], lines: &LineMap) -> Result<(), AsmError> {
    let decoded = decode_program(p.class, bytes).map_err(|e| AsmError {
        line: error_word(&e).map_or(lines.at(u32::MAX), |w| lines.at(w)),
        msg: format!("the program does not decode: {e}"),
    })?;
    if decoded.cf != p.cf {
        let end = decoded.cf.last().map_or(0, |e| e.addr + e.inst.slots());
        return Err(AsmError {
            line: lines.at(end),
            msg: format!("the CF program ends at word {end}, before this line"),
        });
    }
    let spans = |q: &Program| {
        q.clauses
            .iter()
            .map(|c| (c.addr, c.len))
            .collect::<Vec<_>>()
    };
    if spans(&decoded) != spans(p) {
        return Err(AsmError {
            line: lines.first_line,
            msg: "the clauses decode to a different layout".to_string(),
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Text helpers shared by the line parsers.

/// Splits at `sep` outside parentheses; pieces are trimmed (empty ones kept).
pub(crate) fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ if c == sep && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// Whitespace-separated words, not splitting inside parentheses (`T(3 + AR.x).X`).
pub(crate) fn words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, None);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        if c.is_whitespace() && depth == 0 {
            if let Some(st) = start.take() {
                out.push(&s[st..i]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push(&s[st..]);
    }
    out
}

/// A decimal or `0x` hexadecimal number, optionally negative.
pub(crate) fn parse_num(s: &str) -> Option<i64> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = match t.strip_prefix("0x") {
        Some(h) => i64::from_str_radix(h, 16).ok()?,
        None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse().ok()?,
        None => return None,
    };
    Some(if neg { -v } else { v })
}

/// An unsigned number of at most `bits` bits.
pub(crate) fn parse_field(s: &str, bits: u32, what: &str) -> Result<u32, String> {
    match parse_num(s) {
        Some(v) if (0..1i64 << bits).contains(&v) => Ok(v as u32),
        Some(v) => Err(format!("{what} {v} does not fit in {bits} bits")),
        None => Err(format!("expected a number for {what}, found `{s}`")),
    }
}

/// The trailing `NAME` / `NAME:value` tokens of a line.
pub(crate) struct Tokens<'a> {
    items: Vec<(&'a str, Option<&'a str>, bool)>,
}

impl<'a> Tokens<'a> {
    pub fn new(ws: &[&'a str]) -> Tokens<'a> {
        let items = ws
            .iter()
            .map(|w| match w.split_once(':') {
                Some((n, v)) => (n, Some(v), false),
                None => (*w, None, false),
            })
            .collect();
        Tokens { items }
    }
    /// Whether the bare word `name` is present.
    pub fn flag(&mut self, name: &str) -> bool {
        match self
            .items
            .iter_mut()
            .find(|t| !t.2 && t.0 == name && t.1.is_none())
        {
            Some(t) => {
                t.2 = true;
                true
            }
            None => false,
        }
    }
    pub fn value(&mut self, name: &str) -> Option<&'a str> {
        let t = self
            .items
            .iter_mut()
            .find(|t| !t.2 && t.0 == name && t.1.is_some())?;
        t.2 = true;
        t.1
    }
    /// `name:value` as a field of `bits` bits, or `default`.
    pub fn num(&mut self, name: &str, bits: u32, default: u32) -> Result<u32, String> {
        match self.value(name) {
            Some(v) => parse_field(v, bits, name),
            None => Ok(default),
        }
    }
    /// Tokens not taken yet (in line order).
    pub fn rest(&mut self) -> Vec<(&'a str, Option<&'a str>)> {
        self.items
            .iter_mut()
            .filter(|t| !t.2)
            .map(|t| {
                t.2 = true;
                (t.0, t.1)
            })
            .collect()
    }
    pub fn finish(mut self) -> Result<(), String> {
        match self.rest().first() {
            None => Ok(()),
            Some((n, Some(v))) => Err(format!("unknown or repeated token `{n}:{v}`")),
            Some((n, None)) => Err(format!("unknown or repeated token `{n}`")),
        }
    }
}

/// A cursor over one line's text.
pub(crate) struct Cursor<'a> {
    pub s: &'a str,
}

impl<'a> Cursor<'a> {
    pub fn lit(&mut self, t: &str) -> Result<(), String> {
        match self.s.strip_prefix(t) {
            Some(r) => {
                self.s = r;
                Ok(())
            }
            None => Err(format!("expected `{t}` at `{}`", self.s)),
        }
    }
    /// A run of decimal digits.
    pub fn digits(&mut self, bits: u32, what: &str) -> Result<u32, String> {
        let n = self.s.bytes().take_while(u8::is_ascii_digit).count();
        let (d, r) = self.s.split_at(n);
        self.s = r;
        parse_field(d, bits, what)
    }
    /// The text up to `c` (consumed, not returned).
    pub fn until(&mut self, c: char) -> Result<&'a str, String> {
        let i = self
            .s
            .find(c)
            .ok_or_else(|| format!("expected `{c}` in `{}`", self.s))?;
        let (a, b) = self.s.split_at(i);
        self.s = &b[c.len_utf8()..];
        Ok(a)
    }
}

// ---------------------------------------------------------------------------------------------
// The program

enum Section {
    Cf,
    /// After the CF program, outside any clause (after `PAD`).
    Between,
    /// A clause from this word.
    Fetch(u32),
    Alu(u32),
}

struct Builder {
    class: ChipClass,
    cf: Vec<(usize, CfEntry)>,
    pending_ext: Option<(usize, AluExt, [KCache; 2])>,
    clauses: Vec<(usize, Clause)>,
    pads: Vec<u32>,
    pos: u32,
    word_line: Vec<usize>,
    /// The open ALU group: its first word, its instructions and their lines.
    group_addr: u32,
    group: Vec<(usize, AluInst)>,
    /// Literal qwords the last closed group still expects, and the line that closed it.
    literals_due: (u32, usize),
}

/// Parses the text into a [`Program`] (with the line of each word).
fn parse_program(class: ChipClass, text: &str) -> Result<(Program, LineMap), AsmError> {
    let mut b = Builder {
        class,
        cf: Vec::new(),
        pending_ext: None,
        clauses: Vec::new(),
        pads: Vec::new(),
        pos: 0,
        word_line: Vec::new(),
        group_addr: 0,
        group: Vec::new(),
        literals_due: (0, 0),
    };
    let mut section = Section::Cf;
    let mut last_line = 1;
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let t = raw.split(';').next().unwrap_or("").trim();
        if t.is_empty() {
            continue;
        }
        last_line = line;
        let err = |msg: String| AsmError { line, msg };
        let header = header(t).map_err(err)?;
        if header.is_some() || t == "PAD" {
            b.close_section(&section)?;
            if matches!(section, Section::Cf) {
                b.close_cf(line)?;
            }
        }
        match header {
            Some((fetch, addr)) => {
                if addr != b.pos {
                    return Err(err(format!(
                        "clause address {addr} is inconsistent: the previous item ends at word {}",
                        b.pos
                    )));
                }
                if fetch && addr % 2 != 0 {
                    return Err(err(format!(
                        "fetch clause address {addr} is not 16-byte aligned"
                    )));
                }
                section = if fetch {
                    Section::Fetch(addr)
                } else {
                    Section::Alu(addr)
                };
                b.clauses.push((
                    line,
                    Clause {
                        addr,
                        len: 0,
                        body: if fetch {
                            ClauseBody::Fetch(Vec::new())
                        } else {
                            ClauseBody::Alu(Vec::new())
                        },
                    },
                ));
                continue;
            }
            None if t == "PAD" => {
                b.pads.push(b.pos);
                b.place(1, line);
                section = Section::Between;
                continue;
            }
            None => {}
        }
        match section {
            Section::Cf => b.cf_line(t, line).map_err(err)?,
            Section::Between => {
                return Err(err(format!(
                    "`{t}` is outside any clause (CF lines come before the clauses)"
                )))
            }
            Section::Fetch(_) => {
                let f = fetch::parse_fetch(class, t).map_err(err)?;
                b.place(2, line);
                if let Some((
                    _,
                    Clause {
                        body: ClauseBody::Fetch(v),
                        ..
                    },
                )) = b.clauses.last_mut()
                {
                    v.push(f);
                }
            }
            Section::Alu(_) => b.alu_line(t, line)?,
        }
    }
    b.close_section(&section)?;
    if matches!(section, Section::Cf) {
        b.close_cf(last_line)?;
    }
    b.check_clause_refs()?;
    let Builder {
        cf,
        clauses,
        pads,
        pos,
        word_line,
        ..
    } = b;
    let first_line = cf.first().map_or(1, |c| c.0);
    let program = Program {
        class,
        cf: cf.into_iter().map(|c| c.1).collect(),
        clauses: clauses.into_iter().map(|c| c.1).collect(),
        pads,
        len: pos,
    };
    Ok((
        program,
        LineMap {
            first_line,
            word_line,
        },
    ))
}

/// `Fetch clause starting at N:` / `ALU clause starting at N:` -> (is fetch, N).
fn header(t: &str) -> Result<Option<(bool, u32)>, String> {
    let (fetch, rest) = if let Some(r) = t.strip_prefix("Fetch clause starting at ") {
        (true, r)
    } else if let Some(r) = t.strip_prefix("ALU clause starting at ") {
        (false, r)
    } else {
        return Ok(None);
    };
    let n = rest
        .strip_suffix(':')
        .ok_or_else(|| format!("clause header `{t}` does not end with `:`"))?;
    Ok(Some((fetch, parse_field(n, 24, "clause address")?)))
}

impl Builder {
    fn place(&mut self, words: u32, line: usize) {
        self.pos += words;
        self.word_line
            .extend(std::iter::repeat_n(line, words as usize));
    }

    fn close_cf(&mut self, line: usize) -> Result<(), AsmError> {
        if let Some((l, ..)) = self.pending_ext {
            return Err(AsmError {
                line: l,
                msg: "ALU_EXTENDED must be followed by its ALU line".to_string(),
            });
        }
        if self.cf.is_empty() {
            return Err(AsmError {
                line,
                msg: "the program has no CF instructions".to_string(),
            });
        }
        Ok(())
    }

    fn close_section(&mut self, s: &Section) -> Result<(), AsmError> {
        let start = match *s {
            Section::Alu(start) => {
                if let Some(&(line, ref i)) = self.group.last() {
                    return Err(AsmError {
                        line,
                        msg: format!(
                            "{} ends the clause without `*` (the group has no last slot)",
                            i.op.name()
                        ),
                    });
                }
                self.check_literals_done()?;
                start
            }
            Section::Fetch(start) => start,
            _ => return Ok(()),
        };
        let len = self.pos - start;
        if let Some((_, c)) = self.clauses.last_mut() {
            c.len = len;
        }
        Ok(())
    }

    fn check_literals_done(&self) -> Result<(), AsmError> {
        let (due, line) = self.literals_due;
        if due > 0 {
            return Err(AsmError {
                line,
                msg: format!("missing literal line: the group reads {due} more literal pair(s)"),
            });
        }
        Ok(())
    }

    fn alu_line(&mut self, t: &str, line: usize) -> Result<(), AsmError> {
        let err = |msg: String| AsmError { line, msg };
        if alu::is_literal_line(t) {
            if self.literals_due.0 == 0 {
                return Err(err(
                    "unexpected literal line: the group reads no more literals".into(),
                ));
            }
            let pair = alu::parse_literals(t).map_err(err)?;
            self.literals_due.0 -= 1;
            self.place(1, line);
            if let Some(g) = self.alu_groups().and_then(|g| g.last_mut()) {
                g.literals.extend(pair);
            }
            return Ok(());
        }
        self.check_literals_done()?;
        let inst = alu::parse_alu(self.class, t).map_err(err)?;
        if self.group.len() == self.class.alu_slots() {
            return Err(err(format!(
                "{}: a group has at most {} slots (the previous line needs `*`)",
                inst.op.name(),
                self.class.alu_slots()
            )));
        }
        if self.group.is_empty() {
            self.group_addr = self.pos;
        }
        let last = inst.last;
        self.group.push((line, inst));
        self.place(1, line);
        if last {
            let insts: Vec<AluInst> = self.group.drain(..).map(|g| g.1).collect();
            self.literals_due = (crate::decode::literal_qwords(&insts), line);
            let addr = self.group_addr;
            if let Some(groups) = self.alu_groups() {
                groups.push(AluGroup {
                    addr,
                    insts,
                    literals: Vec::new(),
                });
            }
        }
        Ok(())
    }

    fn alu_groups(&mut self) -> Option<&mut Vec<AluGroup>> {
        match self.clauses.last_mut() {
            Some((
                _,
                Clause {
                    body: ClauseBody::Alu(g),
                    ..
                },
            )) => Some(g),
            _ => None,
        }
    }

    fn cf_addr(&self) -> u32 {
        self.cf.last().map_or(0, |e| e.1.addr + e.1.inst.slots())
    }

    fn cf_line(&mut self, t: &str, line: usize) -> Result<(), String> {
        let ws = words(t);
        let mnemonic = ws[0];
        if mnemonic == "ALU_EXTENDED" {
            if self.pending_ext.is_some() {
                return Err("ALU_EXTENDED must be followed by its ALU line".into());
            }
            let (ext, kc) = cf::parse_alu_extended(&t[mnemonic.len()..])?;
            self.pending_ext = Some((line, ext, kc));
            self.place(1, line);
            return Ok(());
        }
        let inst = if let Some(op) = cf::cf_alu_op(self.class, mnemonic) {
            let ext = self.pending_ext.take();
            let mut a = cf::parse_cf_alu(op, &t[mnemonic.len()..])?;
            if let Some((_, e, kc)) = ext {
                a.ext = Some(e);
                a.kcache[2] = kc[0];
                a.kcache[3] = kc[1];
            }
            CfInst::Alu(a)
        } else {
            if self.pending_ext.is_some() {
                return Err(format!(
                    "{mnemonic}: ALU_EXTENDED must be followed by an ALU line"
                ));
            }
            if let Some(op) = cf::cf_mem_op(self.class, mnemonic) {
                CfInst::Mem(cf::parse_cf_mem(self.class, op, &ws[1..], t)?)
            } else {
                CfInst::Word(cf::parse_cf_word(self.class, mnemonic, &ws[1..])?)
            }
        };
        let slots = inst.slots();
        let addr = self.cf_addr();
        self.cf.push((line, CfEntry { addr, inst }));
        // ALU_EXTENDED's slot was placed on its own line.
        self.place(if slots == 2 { 1 } else { slots }, line);
        Ok(())
    }

    /// Every clause instruction names a clause of the text; every clause is run.
    fn check_clause_refs(&self) -> Result<(), AsmError> {
        let mut run = vec![false; self.clauses.len()];
        for (line, e) in &self.cf {
            let (what, addr, len, fetch) = match &e.inst {
                CfInst::Alu(a) => (a.op.name(), a.addr, a.slots(), false),
                CfInst::Word(w) if runs_fetch_clause(w.op) => {
                    (w.op.name(), w.addr, (w.count as u32 + 1) * 2, true)
                }
                _ => continue,
            };
            let found = self.clauses.iter().position(|(_, c)| {
                c.addr == addr && matches!(c.body, ClauseBody::Fetch(_)) == fetch
            });
            let kind = if fetch { "fetch" } else { "ALU" };
            let Some(k) = found else {
                return Err(AsmError {
                    line: *line,
                    msg: format!("{what}: no {kind} clause starts at {addr}"),
                });
            };
            let c = &self.clauses[k].1;
            if c.len != len {
                return Err(AsmError {
                    line: *line,
                    msg: format!(
                        "{what}: the {kind} clause at {addr} has {} words, the count says {len}",
                        c.len
                    ),
                });
            }
            run[k] = true;
        }
        if let Some(k) = run.iter().position(|r| !r) {
            return Err(AsmError {
                line: self.clauses[k].0,
                msg: format!(
                    "the clause at {} is not run by any CF instruction",
                    self.clauses[k].1.addr
                ),
            });
        }
        Ok(())
    }
}

fn runs_fetch_clause(op: CfOp) -> bool {
    matches!(
        op,
        CfOp::TC | CfOp::VC | CfOp::GDS | CfOp::TC_ACK | CfOp::VC_ACK
    )
}
