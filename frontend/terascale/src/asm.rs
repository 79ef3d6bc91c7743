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
use crate::tables::{self, CfAluOp, CfOp, CfSyntax, RatInst};

mod alu;
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
            let (ext, kc) = parse_alu_extended(&t[mnemonic.len()..])?;
            self.pending_ext = Some((line, ext, kc));
            self.place(1, line);
            return Ok(());
        }
        let inst = if let Some(op) = cf_alu_op(self.class, mnemonic) {
            let ext = self.pending_ext.take();
            let mut a = parse_cf_alu(op, &t[mnemonic.len()..])?;
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
            if let Some(op) = cf_mem_op(self.class, mnemonic) {
                CfInst::Mem(parse_cf_mem(self.class, op, &ws[1..], t)?)
            } else {
                CfInst::Word(parse_cf_word(self.class, mnemonic, &ws[1..])?)
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

// ---------------------------------------------------------------------------------------------
// CF lines

fn cf_alu_op(class: ChipClass, m: &str) -> Option<CfAluOp> {
    tables::cf_alu_rows()
        .iter()
        .find(|r| {
            r.text == m && r.op != CfAluOp::ALU_EXTENDED && r.opcode[class.index()] != tables::NA
        })
        .map(|r| r.op)
}

fn cf_mem_op(class: ChipClass, m: &str) -> Option<tables::CfMemOp> {
    tables::cf_mem_rows()
        .iter()
        .find(|r| r.op.name() == m && r.opcode[class.index()] != tables::NA)
        .map(|r| r.op)
}

/// `KCn[]` / `KCn[CBb:lo-hi]` contents and the `KCn_*` tokens.
fn parse_kcache(i: usize, text: &str, toks: &mut Tokens) -> Result<KCache, String> {
    let mode3 = toks.num(&format!("KC{i}_MODE"), 2, 0)?;
    if mode3 != 0 && mode3 != 3 {
        return Err(format!(
            "KC{i}_MODE:{mode3}: only mode 3 is written as a token"
        ));
    }
    if text.is_empty() {
        if mode3 != 0 {
            return Err(format!("KC{i}_MODE:3 needs a KC{i}[CB..] window"));
        }
        return Ok(KCache {
            bank: toks.num(&format!("KC{i}_BANK"), 4, 0)? as u8,
            mode: 0,
            addr: toks.num(&format!("KC{i}_ADDR"), 8, 0)? as u8,
        });
    }
    let mut c = Cursor { s: text };
    c.lit("CB")?;
    let bank = c.digits(4, "kcache bank")? as u8;
    c.lit(":")?;
    let lo = c.digits(12, "kcache start")?;
    c.lit("-")?;
    let hi = c.digits(13, "kcache end")?;
    if !c.s.is_empty() || lo % 16 != 0 || lo / 16 > 255 {
        return Err(format!(
            "KC{i}[{text}]: the window starts at a multiple of 16 below 4096"
        ));
    }
    let mode = match hi.checked_sub(lo) {
        Some(16) if mode3 == 0 => 1,
        Some(32) if mode3 == 3 => 3,
        Some(32) => 2,
        _ => {
            return Err(format!(
                "KC{i}[{text}]: a window is 16 (LOCK_1) or 32 (LOCK_2, LOCK_LOOP_INDEX) constants"
            ))
        }
    };
    Ok(KCache {
        bank,
        mode,
        addr: (lo / 16) as u8,
    })
}

/// ` KC2[..], KC3[..]` and the tokens of an ALU_EXTENDED line.
fn parse_alu_extended(rest: &str) -> Result<(AluExt, [KCache; 2]), String> {
    let mut c = Cursor {
        s: rest.trim_start(),
    };
    c.lit("KC2[")?;
    let k2 = c.until(']')?;
    c.lit(", KC3[")?;
    let k3 = c.until(']')?;
    let ws = words(c.s);
    let mut toks = Tokens::new(&ws);
    let kc = [
        parse_kcache(2, k2, &mut toks)?,
        parse_kcache(3, k3, &mut toks)?,
    ];
    let mut bank_index_mode = [0u8; 4];
    if let Some(v) = toks.value("INDEX_MODE") {
        let parts: Vec<&str> = v.split(':').collect();
        if parts.len() != 4 {
            return Err(format!("INDEX_MODE:{v}: expected four modes a:b:c:d"));
        }
        for (m, p) in bank_index_mode.iter_mut().zip(parts) {
            *m = parse_field(p, 2, "bank index mode")? as u8;
        }
    }
    let barrier = !toks.flag("NO_BARRIER");
    toks.finish()?;
    Ok((
        AluExt {
            bank_index_mode,
            barrier,
        },
        kc,
    ))
}

/// ` count, @addr, KC0[..], KC1[..]` and the tokens of a CF_ALU line.
fn parse_cf_alu(op: CfAluOp, rest: &str) -> Result<CfAlu, String> {
    let mut c = Cursor {
        s: rest.trim_start(),
    };
    let count = c.digits(7, "ALU count")? as u8;
    c.lit(", @")?;
    let addr = c.digits(22, "ALU clause address")?;
    c.lit(", KC0[")?;
    let k0 = c.until(']')?;
    c.lit(", KC1[")?;
    let k1 = c.until(']')?;
    let ws = words(c.s);
    let mut toks = Tokens::new(&ws);
    let mut kcache = [KCache::default(); 4];
    kcache[0] = parse_kcache(0, k0, &mut toks)?;
    kcache[1] = parse_kcache(1, k1, &mut toks)?;
    let a = CfAlu {
        op,
        addr,
        kcache,
        count,
        alt_const: toks.flag("ALT_CONST"),
        whole_quad_mode: toks.flag("WQM"),
        barrier: !toks.flag("NO_BARRIER"),
        ext: None,
    };
    toks.finish()?;
    Ok(a)
}

/// `@N` (with the given bits).
fn at_addr(w: Option<&&str>, bits: u32) -> Result<u32, String> {
    let w = w.ok_or("missing `@address`")?;
    let n = w
        .strip_prefix('@')
        .ok_or_else(|| format!("expected `@address`, found `{w}`"))?;
    parse_field(n, bits, "address")
}

fn parse_cf_word(class: ChipClass, m: &str, ws: &[&str]) -> Result<CfWord, String> {
    let eg_end = class == ChipClass::Evergreen && m == "CF_END";
    let info = if eg_end {
        tables::cf_info(CfOp::NOP)
    } else {
        tables::cf_rows()
            .iter()
            .find(|r| r.text == m && r.opcode[class.index()] != tables::NA)
            .ok_or_else(|| format!("unknown CF instruction `{m}`"))?
    };
    let syntax = if eg_end { CfSyntax::Bare } else { info.syntax };
    let (mut addr, mut pop_count, mut count) = (None, None, None);
    let used = match syntax {
        CfSyntax::Bare => 0,
        CfSyntax::Addr => {
            addr = Some(at_addr(ws.first(), 24)?);
            1
        }
        CfSyntax::AddrPop => {
            addr = Some(at_addr(ws.first(), 24)?);
            let p = ws
                .get(1)
                .and_then(|w| w.strip_prefix("POP:"))
                .ok_or_else(|| format!("{m}: expected `POP:n` after the address"))?;
            pop_count = Some(parse_field(p, 3, "POP")?);
            2
        }
        CfSyntax::Clause => {
            let n = ws.first().ok_or_else(|| format!("{m}: missing count"))?;
            count = Some(parse_field(n, 6, "count")?);
            addr = Some(at_addr(ws.get(1), 24)?);
            2
        }
    };
    let mut toks = Tokens::new(&ws[used.min(ws.len())..]);
    let addr_bits = if info.op == CfOp::GLOBAL_WAVE_SYNC {
        32
    } else {
        24
    };
    let w = CfWord {
        op: info.op,
        addr: match addr {
            Some(a) => a,
            None => toks.num("ADDR", addr_bits, 0)?,
        },
        jumptable_sel: toks.num("JUMPTABLE_SEL", 3, 0)? as u8,
        pop_count: match pop_count {
            Some(p) => p,
            None => toks.num("POP_COUNT", 3, 0)?,
        } as u8,
        cf_const: toks.num("CF_CONST", 5, 0)? as u8,
        cond: toks.num("COND", 2, 0)? as u8,
        count: match count {
            Some(c) => c,
            None => toks.num("COUNT", 6, 0)?,
        } as u8,
        valid_pixel_mode: toks.flag("VPM"),
        end_of_program: eg_end || toks.flag("EOP"),
        whole_quad_mode: toks.flag("WQM"),
        barrier: !toks.flag("NO_BARRIER"),
    };
    toks.finish().map_err(|e| format!("{m}: {e}"))?;
    Ok(w)
}

/// `T<n>` with an optional `.SUFFIX`: (gpr, suffix).
fn gpr_with_suffix(w: &str) -> Result<(u8, &str), String> {
    let t = w
        .strip_prefix('T')
        .ok_or_else(|| format!("expected a register T<n>, found `{w}`"))?;
    let n = t.bytes().take_while(u8::is_ascii_digit).count();
    Ok((parse_field(&t[..n], 7, "register")? as u8, &t[n..]))
}

fn parse_cf_mem(
    class: ChipClass,
    op: tables::CfMemOp,
    ws: &[&str],
    line: &str,
) -> Result<CfMem, String> {
    let name = op.name();
    let info = tables::cf_mem_info(op);
    let mut m = CfMem {
        op,
        rat: None,
        array_base: 0,
        kind: 0,
        rw_gpr: 0,
        rw_rel: false,
        index_gpr: 0,
        elem_size: 0,
        array_size: 0,
        comp_mask: 0,
        burst_count: 0,
        valid_pixel_mode: false,
        end_of_program: false,
        mark: false,
        barrier: true,
    };
    if info.rat {
        let rtext = ws
            .first()
            .ok_or_else(|| format!("{name}: missing the RAT operation"))?;
        let rat = tables::rat_rows()
            .iter()
            .find(|r| r.text == *rtext && r.opcode[class.index()] != tables::NA)
            .ok_or_else(|| format!("{name}: unknown RAT operation `{rtext}`"))?;
        // The operands follow `<mnemonic> <rat op>`; the tokens follow the last operand.
        let ops_text = line[name.len()..]
            .trim_start()
            .strip_prefix(*rtext)
            .unwrap_or("")
            .trim_start();
        let pieces = split_top(ops_text, ',');
        let mut it = pieces.iter();
        let mut next = || it.next().copied().unwrap_or("");
        let mut id = 0u32;
        let first = next();
        let first = match rat.op {
            RatInst::STORE_TYPED => {
                let mut c = Cursor { s: first };
                c.lit("RAT(")?;
                id = c.digits(4, "RAT id")?;
                c.lit(") ")?;
                c.s
            }
            _ => first,
        };
        let (rw, sfx) = gpr_with_suffix(first)?;
        // The COMP_MASK the register suffix implies (the printer's `rat_operands`).
        let mask = match (rat.op, sfx) {
            (RatInst::STORE_RAW, ".X") | (RatInst::STORE_DWORD, ".X") => 1,
            (RatInst::STORE_RAW, ".XY") => 3,
            (RatInst::STORE_RAW, ".XYZW") | (RatInst::STORE_DWORD, "") => 15,
            (RatInst::MSKOR, ".XW") => 15,
            (RatInst::STORE_RAW | RatInst::STORE_DWORD | RatInst::MSKOR, _) => {
                return Err(format!("{name} {rtext}: bad register suffix `{first}`"))
            }
            (_, "") => 15,
            _ => return Err(format!("{name} {rtext}: bad register `{first}`")),
        };
        let second = next();
        let (idx, isfx) = gpr_with_suffix(second.split_whitespace().next().unwrap_or(""))?;
        let want = if rat.op == RatInst::STORE_TYPED {
            ""
        } else {
            ".X"
        };
        if isfx != want {
            return Err(format!("{name} {rtext}: bad index register `{second}`"));
        }
        let mut rest_words: Vec<&str> = second.split_whitespace().skip(1).collect();
        let eop_operand = rat.op == RatInst::STORE_RAW
            || (rat.op == RatInst::STORE_TYPED && class == ChipClass::Evergreen);
        if eop_operand {
            let third = next();
            let mut tw = third.split_whitespace();
            m.end_of_program = match tw.next() {
                Some("0") => false,
                Some("1") => true,
                _ => {
                    return Err(format!(
                        "{name} {rtext}: expected the end-of-program 0 or 1"
                    ))
                }
            };
            rest_words = tw.collect();
        }
        if let Some(extra) = it.next() {
            return Err(format!("{name} {rtext}: unexpected operand `{extra}`"));
        }
        let mut toks = Tokens::new(&rest_words);
        let id = toks.num("RAT_ID", 4, id)?;
        m.rat = Some(RatFields {
            id: id as u8,
            inst: rat.op,
            index_mode: toks.num("RAT_INDEX_MODE", 2, 0)? as u8,
        });
        m.comp_mask = toks.num("COMP_MASK", 4, mask)? as u8;
        m.kind = toks.num("TYPE", 2, 1)? as u8;
        m.rw_gpr = rw;
        m.index_gpr = idx;
        return finish_cf_mem(m, toks, eop_operand);
    }
    let (rw, sfx) = gpr_with_suffix(ws.first().copied().unwrap_or(""))?;
    if !sfx.is_empty() {
        return Err(format!("{name}: bad register `{}`", ws[0]));
    }
    m.rw_gpr = rw;
    let mut toks = Tokens::new(&ws[1..]);
    m.array_base = toks.num("ARRAY_BASE", 13, 0)? as u16;
    m.index_gpr = toks.num("INDEX_GPR", 7, 0)? as u8;
    m.comp_mask = toks.num("COMP_MASK", 4, 0)? as u8;
    m.kind = toks.num("TYPE", 2, 0)? as u8;
    finish_cf_mem(m, toks, false)
}

fn finish_cf_mem(mut m: CfMem, mut toks: Tokens, eop_printed: bool) -> Result<CfMem, String> {
    m.rw_rel = toks.flag("RW_REL");
    m.elem_size = toks.num("ELEM_SIZE", 2, 0)? as u8;
    m.array_size = toks.num("ARRAY_SIZE", 12, 0)? as u16;
    m.burst_count = toks.num("BURST_COUNT", 4, 0)? as u8;
    m.valid_pixel_mode = toks.flag("VPM");
    if !eop_printed {
        m.end_of_program = toks.flag("EOP");
    }
    m.mark = toks.flag("MARK");
    m.barrier = !toks.flag("NO_BARRIER");
    toks.finish().map_err(|e| format!("{}: {e}", m.op.name()))?;
    Ok(m)
}
