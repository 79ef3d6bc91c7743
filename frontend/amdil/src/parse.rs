//! IL text to [`Program`]: the syntax of seed 001 Chapter 3 (L834-L1111) and Chapter 7, what
//! [`crate::print`] writes, and the variants real IL uses (il_sources.md §1).
//!
//! A program is: macro definitions (`mdef(k)_out(m)_in(n)` ... `mend`), an optional language
//! line (`dx11_ps`), the version line (`il_cs_2_0`; `il_cs` alone is IL 2.0), then one
//! instruction per line through `end`. A line is a mnemonic with its control specifiers
//! (`uav_raw_load_id(11)_cached`, `ifc_relop(lt)`, `add_x2_sat`, `_prec` for a prefix), then
//! comma-separated operands: control fields written as operands, destinations, sources, then
//! the opcode's trailing numbers (labels, literal bits, sizes), or `= {...}` lists.
//!
//! Comments: `;` starts a comment that becomes a `comment` instruction (AMD's compiler keeps
//! its `;` comments in the token stream); one after an instruction follows it. `//` starts a
//! comment that is dropped (the seed's macro example uses it, L13325). Comments where the
//! stream has no place for them (before the version line outside a macro, after `end`) are
//! dropped too.
//!
//! Variants accepted besides the canonical text: any indentation; mnemonics and specifier
//! names in any case (the seed's `INOT`, `Dcl_literal`, grvk's `_divComp`); short write masks
//! (`r0.xz` is `r0.x_z_`, `r0._y` is `r0._y__`) and short selects (`r1.xy` is `r1.xyyy`);
//! `rgba` for `xyzw`; `_resource(n)` for `_id(n)` (the LDS entries' spelling, L10540);
//! `_type(2d,unnorm)` (AMD's disassembler); literals in hex, decimal, negative, or as floats
//! (`1.0`, `2.0f`); `mcall(k), (...)` with the seed's comma (L13343).
//!
//! Every error is a [`ParseError`] naming the line; nothing panics on any text.

use crate::decode::operand_counts;
use crate::encode::check_inst;
use crate::inst::{Dim2, Dst, Index, Inst, Program, Reg, Src};
use crate::table::{self, enums, op, Field, Form, Kind, Radix, Row};
use crate::token::{DstComp, DstMod, RegType, Sel, SrcMod, Version, SHIFT_NAMES};

/// Why a text does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {why}")]
pub struct ParseError {
    /// 1-based.
    pub line: usize,
    pub why: String,
}

type Result<T> = std::result::Result<T, String>;

/// Parses a whole program.
pub fn parse(text: &str) -> std::result::Result<Program, ParseError> {
    let mut p = Parser::default();
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        last = i + 1;
        p.line(raw).map_err(|why| ParseError { line: i + 1, why })?;
    }
    p.finish().map_err(|why| ParseError { line: last, why })
}

/// Parses one line of code (no version line): its instructions (a prefix and the instruction,
/// or an instruction and its comment).
pub fn parse_line(line: &str) -> std::result::Result<Vec<Inst>, ParseError> {
    let (code, comment) = split_comment(line);
    let mut out = if code.is_empty() {
        Vec::new()
    } else {
        instruction(code).map_err(|why| ParseError { line: 1, why })?
    };
    out.extend(comment.map(|c| comment_inst(&c)));
    Ok(out)
}

#[derive(Default)]
struct Parser {
    macros: Vec<Inst>,
    in_macro: bool,
    lang: Option<u8>,
    version: Option<Version>,
    code: Vec<Inst>,
    ended: bool,
}

impl Parser {
    fn line(&mut self, raw: &str) -> Result<()> {
        let (code, comment) = split_comment(raw);
        if self.ended {
            return if code.is_empty() {
                Ok(())
            } else {
                Err("text after end".into())
            };
        }
        let word = code.split_whitespace().next().unwrap_or("");
        let version_line = word.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("il_"));
        if self.in_macro && version_line {
            return Err("the version line inside a macro (no mend)".into());
        }
        let insts = if code.is_empty() {
            Vec::new()
        } else if self.version.is_some()
            || self.in_macro
            || self.lang.is_none()
                && word
                    .get(..4)
                    .is_some_and(|w| w.eq_ignore_ascii_case("mdef"))
        {
            instruction(code)?
        } else if let Some(lang) = enums::LANG
            .iter()
            .position(|l| l.eq_ignore_ascii_case(code))
        {
            if self.lang.replace(lang as u8).is_some() {
                return Err("a second language line".into());
            }
            Vec::new()
        } else if version_line {
            if code != word {
                return Err(format!("{code:?} is not a version line"));
            }
            self.version = Some(version(word)?);
            Vec::new()
        } else {
            return Err(format!(
                "{word:?} before the version line (il_cs_2_0), which only macro definitions precede"
            ));
        };
        for inst in insts {
            self.push(inst)?;
        }
        // A comment goes where an instruction could: in a macro body, or in the code before end.
        if let Some(c) = comment {
            if self.in_macro || self.version.is_some() && !self.ended {
                self.push(comment_inst(&c))?;
            }
        }
        Ok(())
    }

    fn push(&mut self, inst: Inst) -> Result<()> {
        if self.version.is_none() {
            match (inst.op, self.in_macro) {
                (op::MACRODEF, false) => self.in_macro = true,
                (op::MACRODEF, true) => return Err("mdef inside a macro".into()),
                (op::MACROEND, true) => self.in_macro = false,
                (_, false) => return Err("an instruction before the version line".into()),
                _ => {}
            }
            self.macros.push(inst);
        } else {
            self.ended = inst.op == op::END;
            self.code.push(inst);
        }
        Ok(())
    }

    fn finish(self) -> Result<Program> {
        let version = self.version.ok_or("no version line (il_cs_2_0)")?;
        if !self.ended {
            return Err("no end instruction".into());
        }
        Ok(Program {
            macros: self.macros,
            lang: self.lang.unwrap_or(0),
            version,
            code: self.code,
        })
    }
}

/// The code before a comment, and a `;` comment's text.
fn split_comment(raw: &str) -> (&str, Option<String>) {
    let raw = raw.strip_suffix('\r').unwrap_or(raw);
    let semi = raw.find(';');
    let slashes = raw.find("//");
    match (semi, slashes) {
        (Some(s), d) if d.is_none_or(|d| s < d) => {
            (raw[..s].trim(), Some(raw[s + 1..].to_string()))
        }
        (_, Some(d)) => (raw[..d].trim(), None),
        _ => (raw.trim(), None),
    }
}

/// A comment instruction holding `text` (unescaped) and its NUL, or exactly the escaped bytes
/// when they hold a NUL themselves (see [`crate::print`]).
fn comment_inst(text: &str) -> Inst {
    let mut bytes = unescape(text);
    if !bytes.contains(&0) {
        bytes.push(0);
    }
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    let mut inst = Inst::new(op::COMMENT);
    inst.extra = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    inst
}

fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') {
            let hex = text
                .get(i + 2..i + 4)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(v) = hex {
                out.push(v);
                i += 4;
                continue;
            }
            out.push(b[i]);
            i += 1;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// `il_cs_2_0[_mp][_rt]`, `il_cs`.
fn version(word: &str) -> Result<Version> {
    let lower = word.to_ascii_lowercase();
    let mut parts = lower.split('_').skip(1);
    let shader = parts.next().unwrap_or("");
    let shader = enums::SHADER
        .iter()
        .position(|s| *s == shader)
        .ok_or_else(|| format!("unknown shader type in {word:?}"))? as u8;
    let mut numbers = Vec::new();
    let (mut multipass, mut realtime) = (false, false);
    for part in parts {
        match part {
            "mp" if !multipass => multipass = true,
            "rt" if !realtime => realtime = true,
            n if !multipass && !realtime && numbers.len() < 2 => numbers.push(
                n.parse::<u8>()
                    .map_err(|_| format!("bad version in {word:?}"))?,
            ),
            _ => return Err(format!("bad version line {word:?}")),
        }
    }
    Ok(Version {
        major: numbers.first().copied().unwrap_or(2),
        minor: numbers.get(1).copied().unwrap_or(0),
        shader,
        multipass,
        realtime,
    })
}

/// The specifiers spelled on a mnemonic.
#[derive(Default)]
struct Specs {
    /// The control fields given, and which of their bits were given (each field once).
    control: u16,
    set: u16,
    pri: Option<u32>,
    sec: Option<u32>,
    prec: Option<u16>,
    clamp: bool,
    shift: Option<u8>,
    resourcetype: Option<u32>,
    aoffimmi: Option<u32>,
    named: Vec<(usize, u32)>,
    formats: [Option<u32>; 4],
    macro_out: Option<u32>,
    macro_in: Option<u32>,
    outline: bool,
    /// `dcl_interface_ptr`'s `[array size][length]`.
    brackets: Vec<u32>,
}

/// One line of code: its instructions (a `_prec` prefix first).
fn instruction(code: &str) -> Result<Vec<Inst>> {
    let (head, list) = match code.find('=') {
        Some(at) => (code[..at].trim(), Some(brace_list(&code[at + 1..])?)),
        None => (code, None),
    };
    let (word, rest) = match head.find(char::is_whitespace) {
        Some(at) => (&head[..at], head[at..].trim()),
        None => (head, ""),
    };
    let word = word.strip_suffix(',').unwrap_or(word);
    let (row, suffix) = find_row(word)?;
    let mut specs = Specs::default();
    specifiers(row, suffix, &mut specs)?;
    let mut inst = Inst::new(row.value);
    if row.form == Form::Prefix {
        inst.control = specs.prec.unwrap_or(0xf);
        if !rest.is_empty() || list.is_some() {
            return Err("prec takes no operands; write _prec on the instruction".into());
        }
        return Ok(vec![inst]);
    }
    inst.control = specs.control;
    inst.pri = specs.pri;
    inst.sec = specs.sec;
    let ops = split_top(rest, ',')?;
    operands(row, &mut inst, &specs, ops, list)?;
    if specs.clamp || specs.shift.is_some() {
        let d = inst
            .dst
            .first_mut()
            .ok_or("_sat or a shift on an instruction without a destination")?;
        let m = d.modifier.get_or_insert(DstMod::IDENTITY);
        m.clamp = specs.clamp;
        m.shift = specs.shift.unwrap_or(0);
    }
    check_inst(&inst).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    if let Some(mask) = specs.prec {
        let mut p = Inst::new(op::PREFIX);
        p.control = mask;
        out.push(p);
    }
    out.push(inst);
    Ok(out)
}

/// The instruction whose mnemonic is the longest prefix of `word` ending where a specifier
/// starts, and the rest of `word`.
fn find_row(word: &str) -> Result<(&'static Row, &str)> {
    table::rows()
        .iter()
        .filter(|r| r.is_instruction())
        .filter(|r| {
            let m = r.mnemonic;
            word.len() >= m.len()
                && word.is_char_boundary(m.len())
                && word[..m.len()].eq_ignore_ascii_case(m)
                && matches!(
                    word.as_bytes().get(m.len()),
                    None | Some(b'_' | b'(' | b'[')
                )
        })
        .max_by_key(|r| r.mnemonic.len())
        .map(|r| (r, &word[r.mnemonic.len()..]))
        .ok_or_else(|| format!("unknown instruction {word:?}"))
}

/// Names a row's mnemonic can carry, longest first so that the longest one matches.
fn specifier_names(row: &Row) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = vec!["prec", "sat"];
    names.extend(&SHIFT_NAMES[1..]);
    for f in row.fields {
        match f.kind {
            Kind::Flag | Kind::Num | Kind::Opt | Kind::Enum(_) | Kind::OptEnum(_) => {
                names.push(f.name)
            }
            Kind::Bare(e) | Kind::OptBare(e) => names.extend(e.iter().copied()),
            _ => {}
        }
    }
    if row.field("id").is_some() && row.field("resource").is_none() {
        names.push("resource");
    }
    match row.form {
        Form::Texture => names.extend(["resourcetype", "aoffimmi"]),
        Form::Named(n) => names.extend(n.iter().copied()),
        Form::Resource => names.extend(["fmtx", "fmty", "fmtz", "fmtw"]),
        Form::MacroDef => names.extend(["out", "in", "outline"]),
        _ => {}
    }
    if row.takes_pri() && row.form != Form::ConstBuffer {
        names.push("pri");
    }
    if row.takes_sec() {
        names.push("sec");
    }
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names
}

fn specifiers(row: &Row, mut s: &str, specs: &mut Specs) -> Result<()> {
    if let Some(rest) = s.strip_prefix('(') {
        let (arg, rest) = paren(rest)?;
        s = rest;
        if row.form == Form::Prefix {
            specs.prec = Some(precise_mask(arg)?);
        } else {
            let f = row
                .field_of(|k| matches!(k, Kind::Paren | Kind::ParenEnum(_)))
                .ok_or_else(|| format!("{} takes no (..)", row.mnemonic))?;
            set_field(f, arg, specs)?;
        }
    }
    let names = specifier_names(row);
    while !s.is_empty() {
        if let Some(rest) = s.strip_prefix('[') {
            let end = rest.find(']').ok_or("unclosed [")?;
            specs.brackets.push(number(&rest[..end])?);
            s = &rest[end + 1..];
            continue;
        }
        let rest = s
            .strip_prefix('_')
            .ok_or_else(|| format!("unexpected {s:?}"))?;
        let name = names
            .iter()
            .find(|n| {
                rest.len() >= n.len()
                    && rest.is_char_boundary(n.len())
                    && rest[..n.len()].eq_ignore_ascii_case(n)
                    && matches!(
                        rest.as_bytes().get(n.len()),
                        None | Some(b'_' | b'(' | b'[')
                    )
            })
            .ok_or_else(|| format!("unknown specifier _{rest} on {}", row.mnemonic))?;
        let mut after = &rest[name.len()..];
        let arg = match after.strip_prefix('(') {
            Some(r) => {
                let (arg, r) = paren(r)?;
                after = r;
                Some(arg)
            }
            None => None,
        };
        specifier(row, name, arg, specs)?;
        s = after;
    }
    Ok(())
}

/// The text inside a parenthesis opened just before `s`, and what follows it.
fn paren(s: &str) -> Result<(&str, &str)> {
    let end = s.find(')').ok_or("unclosed (")?;
    Ok((&s[..end], &s[end + 1..]))
}

fn specifier(row: &Row, name: &str, arg: Option<&str>, specs: &mut Specs) -> Result<()> {
    let need = || arg.ok_or_else(|| format!("_{name} needs (..)"));
    let none = || match arg {
        None => Ok(()),
        Some(_) => Err(format!("_{name} takes no (..)")),
    };
    let lname = name.to_ascii_lowercase();
    let field = row
        .fields
        .iter()
        .find(|f| f.name.eq_ignore_ascii_case(name))
        .or_else(|| (lname == "resource").then(|| row.field("id")).flatten());
    if let Some(f) = field {
        let arg = match f.kind {
            Kind::Flag => {
                none()?;
                return set_value(f, 1, specs);
            }
            _ => need()?,
        };
        // `_type(2d,unnorm)`: AMD's disassembler spells dcl_resource's unnorm bit there.
        if let (Some((arg, flag)), Some(unnorm)) = (arg.split_once(','), row.field("unnorm")) {
            if flag.trim().eq_ignore_ascii_case("unnorm") {
                set_value(unnorm, 1, specs)?;
                return set_field(f, arg, specs);
            }
        }
        return set_field(f, arg, specs);
    }
    for f in row.fields {
        if let Kind::Bare(e) | Kind::OptBare(e) = f.kind {
            if let Some(v) = e.iter().position(|n| n.eq_ignore_ascii_case(name)) {
                none()?;
                return set_value(f, v as u16, specs);
            }
        }
    }
    let once = |slot: bool| {
        if slot {
            Err(format!("_{name} twice"))
        } else {
            Ok(())
        }
    };
    match lname.as_str() {
        "prec" => {
            once(specs.prec.is_some())?;
            specs.prec = Some(arg.map_or(Ok(0xf), precise_mask)?);
        }
        "sat" => {
            none()?;
            once(specs.clamp)?;
            specs.clamp = true;
        }
        "pri" => specs.pri = Some(number(need()?)?),
        "sec" => specs.sec = Some(number(need()?)?),
        "resourcetype" => {
            specs.resourcetype = Some(enum_value(enums::PIXTEX, need()?)? as u32);
        }
        "aoffimmi" => specs.aoffimmi = Some(address_offset(need()?)?),
        "fmtx" | "fmty" | "fmtz" | "fmtw" => {
            let i = "xyzw".find(&lname[3..]).unwrap_or(0);
            specs.formats[i] = Some(enum_value(enums::ELEMFMT, need()?)? as u32);
        }
        "out" => specs.macro_out = Some(number(need()?)?),
        "in" => specs.macro_in = Some(number(need()?)?),
        "outline" => {
            none()?;
            specs.outline = true;
        }
        _ => {
            if let Some(shift) = SHIFT_NAMES.iter().position(|s| *s == lname) {
                none()?;
                once(specs.shift.is_some())?;
                specs.shift = Some(shift as u8);
            } else if let Form::Named(names) = row.form {
                let i = names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
                    .ok_or_else(|| format!("unknown specifier _{name}"))?;
                specs.named.push((i, number(need()?)?));
            } else {
                return Err(format!("unknown specifier _{name}"));
            }
        }
    }
    Ok(())
}

fn set_field(f: &Field, arg: &str, specs: &mut Specs) -> Result<()> {
    let value = match f.names() {
        Some(e) => enum_value(e, arg)? as u32,
        None => number(arg)?,
    };
    if value >= 1 << f.width {
        return Err(format!("{value} does not fit {}", f.name));
    }
    set_value(f, value as u16, specs)
}

fn set_value(f: &Field, v: u16, specs: &mut Specs) -> Result<()> {
    if specs.set & f.mask() != 0 {
        return Err(format!(
            "{} given twice",
            if f.name.is_empty() { "a field" } else { f.name }
        ));
    }
    specs.set |= f.mask();
    specs.control = f.set(specs.control, v);
    Ok(())
}

fn enum_value(names: &[&str], arg: &str) -> Result<usize> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(arg.trim()))
        .ok_or_else(|| format!("{arg:?} is not one of {}", names.join(", ")))
}

fn precise_mask(arg: &str) -> Result<u16> {
    let mut mask = 0;
    for c in arg.chars() {
        let i = "xyzw"
            .find(c.to_ascii_lowercase())
            .ok_or("a precise mask is xyzw letters")?;
        mask |= 1 << i;
    }
    Ok(mask)
}

/// `u,v,w` in texels, signed 7.1 fixed point, one byte each (L5612).
fn address_offset(arg: &str) -> Result<u32> {
    let parts: Vec<&str> = arg.split(',').map(str::trim).collect();
    if parts.len() != 3 {
        return Err("_aoffimmi takes three offsets".into());
    }
    let mut w = 0;
    for (i, p) in parts.iter().enumerate() {
        let v: f64 = p.parse().map_err(|_| format!("bad offset {p:?}"))?;
        let fixed = v * 2.0;
        if fixed.fract() != 0.0 || !(-128.0..=127.0).contains(&fixed) {
            return Err(format!("offset {p} is not a 7.1 fixed-point value"));
        }
        w |= u32::from(fixed as i8 as u8) << (8 * i);
    }
    Ok(w)
}

/// Assigns the operands and the form's dwords.
fn operands(
    row: &Row,
    inst: &mut Inst,
    specs: &Specs,
    ops: Vec<&str>,
    list: Option<Vec<&str>>,
) -> Result<()> {
    let mut ops = ops.into_iter();
    for f in row.fields {
        match f.kind {
            Kind::Arg => {
                let v = number(ops.next().ok_or("missing operand")?)?;
                if v >= 1 << f.width {
                    return Err(format!("{v} is too large"));
                }
                inst.control = f.set(inst.control, v as u16);
            }
            Kind::ArgEnum(e) => {
                let v = enum_value(e, ops.next().ok_or("missing operand")?)?;
                inst.control = f.set(inst.control, v as u16);
            }
            Kind::Words(e) => {
                let mut v = 0;
                if let Some(w) = ops.next() {
                    for word in w.split('|') {
                        v |= 1 << enum_value(e, word)?;
                    }
                }
                inst.control = f.set(inst.control, v);
            }
            _ => {}
        }
    }
    let mut ops: Vec<&str> = ops.collect();
    if row.form == Form::MacroCall {
        let [outs, ins] = ops[..] else {
            return Err("mcall(k) (outputs), (inputs)".into());
        };
        inst.dst = parenthesized(outs)?
            .into_iter()
            .map(dst)
            .collect::<Result<_>>()?;
        inst.src = parenthesized(ins)?
            .into_iter()
            .map(src)
            .collect::<Result<_>>()?;
        return form_dwords(row, inst, specs, &[], None);
    }
    if row.form == Form::ConstBuffer
        && ops
            .first()
            .is_some_and(|o| o.to_ascii_lowercase().starts_with("icb["))
    {
        let n = number(ops[0][4..].strip_suffix(']').ok_or("icb[n]")?)?;
        let values = list.ok_or("dcl_cb icb[n] = {...}")?;
        if values.len() != n as usize || ops.len() != 1 {
            return Err(format!("icb[{n}] with {} values", values.len()));
        }
        inst.pri = Some(n);
        inst.extra = values.into_iter().map(literal).collect::<Result<_>>()?;
        return Ok(());
    }
    let (dsts, srcs) = operand_counts(row, inst.control, inst.pri);
    if ops.len() < dsts + srcs {
        return Err(format!(
            "{} takes {} operands, not {}",
            row.mnemonic,
            dsts + srcs,
            ops.len()
        ));
    }
    let tail = ops.split_off(dsts + srcs);
    inst.dst = ops[..dsts].iter().map(|o| dst(o)).collect::<Result<_>>()?;
    inst.src = ops[dsts..].iter().map(|o| src(o)).collect::<Result<_>>()?;
    form_dwords(row, inst, specs, &tail, list)
}

fn form_dwords(
    row: &Row,
    inst: &mut Inst,
    specs: &Specs,
    tail: &[&str],
    list: Option<Vec<&str>>,
) -> Result<()> {
    let too_many = || Err(format!("too many operands for {}", row.mnemonic));
    match row.form {
        Form::Tail(n, radix) => {
            if tail.len() != usize::from(n) {
                return Err(format!(
                    "{} takes {n} numbers after its operands",
                    row.mnemonic
                ));
            }
            inst.extra = tail
                .iter()
                .map(|t| {
                    if radix == Radix::Hex {
                        literal(t)
                    } else {
                        number(t)
                    }
                })
                .collect::<Result<_>>()?;
        }
        Form::Dims => {
            if !(1..=3).contains(&tail.len()) {
                return Err("1 to 3 numbers".into());
            }
            inst.extra = tail.iter().map(|t| number(t)).collect::<Result<_>>()?;
            let f = row
                .field_of(|k| *k == Kind::Count)
                .ok_or("no count field")?;
            inst.control = f.set(inst.control, tail.len() as u16);
        }
        Form::FunctionTable | Form::InterfacePtr => {
            if !tail.is_empty() {
                return too_many();
            }
            let list = list.ok_or("= {...} expected")?;
            if row.form == Form::InterfacePtr {
                let [a, l] = specs.brackets[..] else {
                    return Err("dcl_interface_ptr_id(n)[size][length] = {...}".into());
                };
                inst.extra = vec![a, l];
            }
            for item in list {
                inst.extra.push(number(item)?);
            }
            return Ok(());
        }
        _ if !tail.is_empty() => return too_many(),
        _ => {}
    }
    if list.is_some() {
        return Err(format!("{} takes no = {{...}}", row.mnemonic));
    }
    match row.form {
        Form::Texture => {
            inst.pre.extend(specs.resourcetype);
            inst.pre.extend(specs.aoffimmi);
            if specs.aoffimmi.is_some() {
                inst.control |= table::TEX_AOFFSET_BIT;
            }
        }
        Form::Named(names) => {
            let mut v = vec![0; names.len()];
            for &(i, x) in &specs.named {
                v[i] = x;
            }
            inst.extra = v;
        }
        Form::Resource => {
            let w = specs
                .formats
                .iter()
                .enumerate()
                .fold(0, |w, (i, f)| w | f.unwrap_or(0) << (20 + 3 * i));
            inst.extra = vec![w];
        }
        Form::MacroDef => {
            let (o, i) = (specs.macro_out.unwrap_or(0), specs.macro_in.unwrap_or(0));
            if o > 0xff || i > 0xff {
                return Err("at most 255 macro outputs and inputs".into());
            }
            inst.extra = vec![i | o << 8 | u32::from(specs.outline) << 16];
        }
        _ => {}
    }
    Ok(())
}

/// Splits at `sep` outside brackets, parentheses and braces; an empty text has no items.
fn split_top(s: &str, sep: char) -> Result<Vec<&str>> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
        if depth < 0 {
            return Err("unbalanced brackets".into());
        }
    }
    if depth != 0 {
        return Err("unbalanced brackets".into());
    }
    out.push(s[start..].trim());
    if out.iter().any(|o| o.is_empty()) {
        return Err("an empty operand".into());
    }
    Ok(out)
}

/// `mcall`'s `(a, b)` lists.
fn parenthesized(s: &str) -> Result<Vec<&str>> {
    let inner = s
        .strip_prefix('(')
        .and_then(|s| s.strip_suffix(')'))
        .ok_or("mcall(k) (outputs), (inputs)")?;
    split_top(inner, ',')
}

fn brace_list(s: &str) -> Result<Vec<&str>> {
    let inner = s
        .trim()
        .strip_prefix('{')
        .and_then(|s| s.strip_suffix('}'))
        .ok_or("= {...} expected")?;
    split_top(inner, ',')
}

/// An unsigned number: decimal or `0x` hex; a negative decimal as its two's complement.
fn number(s: &str) -> Result<u32> {
    let s = s.trim();
    let parsed = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u32::from_str_radix(h, 16).ok()
    } else if let Some(n) = s.strip_prefix('-') {
        n.parse::<u32>()
            .ok()
            .filter(|&v| v <= 1 << 31)
            .map(|v| v.wrapping_neg())
    } else {
        s.parse::<u32>().ok()
    };
    parsed.ok_or_else(|| format!("{s:?} is not a number"))
}

/// Literal bits: a number, or a float (`1.0`, `2.0f`, `-0.5`, `1e3`) as its f32 bits.
fn literal(s: &str) -> Result<u32> {
    let s = s.trim();
    if let Ok(v) = number(s) {
        return Ok(v);
    }
    let f = s.strip_suffix(['f', 'F']).unwrap_or(s);
    f.parse::<f32>()
        .map(f32::to_bits)
        .map_err(|_| format!("{s:?} is not a number"))
}

/// A destination: a register and its write mask.
fn dst(s: &str) -> Result<Dst> {
    let (reg, rest) = register(s)?;
    let modifier = match rest.strip_prefix('.') {
        None if rest.is_empty() => None,
        None => return Err(format!("unexpected {rest:?} after a destination")),
        Some(mask) => Some(DstMod {
            comp: write_mask(mask)?,
            ..DstMod::IDENTITY
        }),
    };
    Ok(Dst { reg, modifier })
}

fn component(c: char) -> Option<usize> {
    "xyzw".find(c).or_else(|| "rgba".find(c))
}

/// `x_z_`, `xy01` (a character per component, padded with `_`), or the compact `xz`.
fn write_mask(mask: &str) -> Result<[DstComp; 4]> {
    let chars: Vec<char> = mask.chars().map(|c| c.to_ascii_lowercase()).collect();
    let bad = || format!("bad write mask .{mask}");
    if chars.is_empty() || chars.len() > 4 {
        return Err(bad());
    }
    let mut comp = [DstComp::NoWrite; 4];
    let letters: Option<Vec<usize>> = chars.iter().map(|&c| component(c)).collect();
    if let Some(idx) = letters.filter(|i| chars.len() < 4 && i.windows(2).all(|w| w[0] < w[1])) {
        for i in idx {
            comp[i] = DstComp::Write;
        }
        return Ok(comp);
    }
    for (i, &c) in chars.iter().enumerate() {
        comp[i] = match c {
            '_' => DstComp::NoWrite,
            '0' => DstComp::Zero,
            '1' => DstComp::One,
            c if component(c) == Some(i) => DstComp::Write,
            _ => return Err(bad()),
        };
    }
    Ok(comp)
}

/// A source: a register, its select and modifiers.
fn src(s: &str) -> Result<Src> {
    let (reg, mut rest) = register(s)?;
    let mut m = SrcMod::IDENTITY;
    let mut present = false;
    if let Some(r) = rest.strip_prefix('.') {
        let end = r.find('_').unwrap_or(r.len());
        let sel: Vec<Sel> = r[..end]
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                '0' => Some(Sel::Zero),
                '1' => Some(Sel::One),
                c => component(c).map(|i| Sel::ALL[i]),
            })
            .collect::<Option<_>>()
            .ok_or_else(|| format!("bad select .{}", &r[..end]))?;
        if sel.is_empty() || sel.len() > 4 {
            return Err(format!("bad select .{}", &r[..end]));
        }
        for i in 0..4 {
            m.swizzle[i] = sel[i.min(sel.len() - 1)];
        }
        present = true;
        rest = &r[end..];
    }
    while let Some(r) = rest.strip_prefix('_') {
        let end = r.find(['_', '(']).unwrap_or(r.len());
        let name = r[..end].to_ascii_lowercase();
        let mut after = &r[end..];
        let arg = match after.strip_prefix('(') {
            Some(a) => {
                let (arg, a) = paren(a)?;
                after = a;
                Some(arg)
            }
            None => None,
        };
        let flag = |b: &mut bool| -> Result<()> {
            if arg.is_some() || *b {
                return Err(format!("bad _{name}"));
            }
            *b = true;
            Ok(())
        };
        match name.as_str() {
            "invert" => flag(&mut m.invert)?,
            "bias" => flag(&mut m.bias)?,
            "x2" => flag(&mut m.x2)?,
            "bx2" => {
                flag(&mut m.bias)?;
                flag(&mut m.x2)?;
            }
            "sign" => flag(&mut m.sign)?,
            "abs" => flag(&mut m.abs)?,
            "clamp" => flag(&mut m.clamp)?,
            "divcomp" => {
                m.divcomp = enum_value(enums::DIVCOMP, arg.ok_or("_divcomp(..)")?)? as u8;
            }
            "neg" => {
                for c in arg.ok_or("_neg(..)")?.chars() {
                    let i = component(c.to_ascii_lowercase()).ok_or("_neg(xyzw)")?;
                    m.neg[i] = true;
                }
            }
            _ => return Err(format!("unknown source modifier _{name}")),
        }
        present = true;
        rest = after;
    }
    if !rest.is_empty() {
        return Err(format!("unexpected {rest:?} after a source"));
    }
    Ok(Src {
        reg,
        modifier: present.then_some(m),
    })
}

/// A register and its indices, and the text after them.
fn register(s: &str) -> Result<(Reg, &str)> {
    let s = s.trim();
    let letters = s
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    let name = &s[..letters];
    let ty = RegType::from_name(name).ok_or_else(|| {
        format!(
            "unknown register {:?}",
            if name.is_empty() { s } else { name }
        )
    })?;
    let rest = &s[letters..];
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let num = if digits > 0 {
        Some(
            rest[..digits]
                .parse::<u32>()
                .map_err(|_| "register number too large")?,
        )
    } else {
        None
    };
    let mut rest = &rest[digits..];
    let mut brackets = Vec::new();
    while let Some(r) = rest.strip_prefix('[') {
        let mut depth = 1;
        let end = r
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '[' => depth += 1,
                    ']' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map(|(i, _)| i)
            .ok_or("unclosed [")?;
        brackets.push(&r[..end]);
        rest = &r[end + 1..];
    }
    let mut reg = Reg::new(ty, num.unwrap_or(0));
    match brackets[..] {
        [] => {}
        [a, b] if num.is_none() && plain_number(a) => {
            reg.num = number(a)?;
            reg.dim2 = Some(dim2(b)?);
        }
        [a] => reg.index = index(a)?,
        [a, b] => {
            reg.index = index(a)?;
            reg.dim2 = Some(dim2(b)?);
        }
        _ => return Err("at most two indices".into()),
    }
    Ok((reg, rest))
}

fn plain_number(s: &str) -> bool {
    number(s).is_ok()
}

fn index(s: &str) -> Result<Index> {
    if plain_number(s) {
        return Ok(Index::Imm(number(s)?));
    }
    let (x, imm) = relative(s)?;
    Ok(Index::Rel(Box::new(x), imm))
}

fn dim2(s: &str) -> Result<Dim2> {
    if plain_number(s) {
        return Ok(Dim2::Abs(number(s)?));
    }
    let (x, imm) = relative(s)?;
    Ok(Dim2::Rel(Box::new(x), imm))
}

/// `r0.x+13`, `r0.x-4`, `r0.x`.
fn relative(s: &str) -> Result<(Src, Option<u32>)> {
    let s = s.trim();
    let mut depth = 0;
    let mut split = None;
    for (i, c) in s.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            '+' | '-' if depth == 0 => split = Some(i),
            _ => {}
        }
    }
    match split {
        Some(i) => {
            let imm = s[i + 1..].trim();
            let v = number(imm)?;
            let v = if s.as_bytes()[i] == b'-' {
                if v > 1 << 31 {
                    return Err(format!("-{imm} is out of range"));
                }
                v.wrapping_neg()
            } else {
                v
            };
            Ok((src(&s[..i])?, Some(v)))
        }
        None => Ok((src(s)?, None)),
    }
}
