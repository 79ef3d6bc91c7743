//! The assembler: the syntax of [`crate::print`] back to slots. A line is parsed into the
//! slot's fields (its own syntax into an [`Inst`], then its flags into the encoded words),
//! so every printed slot reads back to the same words. Errors are one line, with the line
//! number in programs.

use std::collections::HashMap;
use std::fmt;

use crate::decode::{decode, MAX_SLOTS};
use crate::encode::encode;
use crate::inst::{
    inline_value, AlphaInput, Alu, Body, Cmn, Dest, Fc, Inst, Pred, RgbInput, Src, Tex, TexReg,
};
use crate::print::TEX_IDENTITY;
use crate::table::flags::{self, FlagKind};
use crate::table::{
    AlphaOp, CmpOp, FcOp, InstType, Modifier, Omod, PredSel, Presub, RgbOp, SrcSel, Swizzle, TexOp,
    TexSwizzle,
};

/// Why a text does not assemble: the 1-based line and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.msg)
    }
}

impl std::error::Error for ParseError {}

/// One slot (a line without label; FC targets are slot numbers).
pub fn parse_inst(text: &str) -> Result<Inst, ParseError> {
    let line = strip_comment(text).trim();
    parse_slot(line, &HashMap::new()).map_err(|msg| ParseError { line: 1, msg })
}

/// A program: one slot per line, `#` comments, blank lines, and labels (`name:`, alone or
/// before a slot) that FC targets may name.
pub fn parse_program(text: &str) -> Result<Vec<Inst>, ParseError> {
    let mut labels = HashMap::new();
    let mut slots = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let err = |msg: String| ParseError { line: n + 1, msg };
        let mut line = strip_comment(raw).trim();
        if let Some((label, rest)) = split_label(line) {
            if labels.insert(label.to_string(), slots.len()).is_some() {
                return Err(err(format!("label `{label}` defined twice")));
            }
            line = rest.trim();
        }
        if !line.is_empty() {
            slots.push((n + 1, line));
        }
    }
    if slots.len() > MAX_SLOTS {
        let line = slots[MAX_SLOTS].0;
        return Err(ParseError {
            line,
            msg: format!("more than {MAX_SLOTS} slots"),
        });
    }
    slots
        .into_iter()
        .map(|(line, text)| parse_slot(text, &labels).map_err(|msg| ParseError { line, msg }))
        .collect()
}

fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("")
}

/// `name: rest` when the line starts with an identifier and a colon.
fn split_label(line: &str) -> Option<(&str, &str)> {
    let end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, rest) = line.split_at(end);
    let first = name.chars().next()?;
    (first.is_ascii_alphabetic() || first == '_')
        .then_some(())
        .and_then(|_| rest.strip_prefix(':'))
        .map(|rest| (name, rest))
}

type R<T> = Result<T, String>;

/// A cursor over a line: whitespace-separated tokens of words (`[A-Za-z0-9_]+`) and
/// punctuation.
struct Cur<'a> {
    s: &'a str,
}

impl<'a> Cur<'a> {
    fn ws(&mut self) {
        self.s = self.s.trim_start();
    }

    fn peek(&mut self) -> Option<char> {
        self.ws();
        self.s.chars().next()
    }

    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        match self.s.strip_prefix(t) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, t: &str) -> R<()> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(format!("expected `{t}` at `{}`", self.rest()))
        }
    }

    fn word(&mut self) -> R<&'a str> {
        self.ws();
        let end = self
            .s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.s.len());
        if end == 0 {
            return Err(format!("expected a name or number at `{}`", self.rest()));
        }
        let (w, rest) = self.s.split_at(end);
        self.s = rest;
        Ok(w)
    }

    fn done(&mut self) -> bool {
        self.ws();
        self.s.is_empty()
    }

    fn end(&mut self) -> R<()> {
        if self.done() {
            Ok(())
        } else {
            Err(format!("unexpected `{}`", self.rest()))
        }
    }

    fn rest(&self) -> &'a str {
        if self.s.is_empty() {
            "end of line"
        } else {
            self.s
        }
    }
}

/// A number: decimal or `0x` hex.
fn number(w: &str) -> R<u32> {
    let parsed = match w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => w.parse(),
    };
    parsed.map_err(|_| format!("`{w}` is not a number"))
}

/// `prefix` followed by a number at most `max`: `r12`, `c200`, `o3`, `t15`.
fn indexed(w: &str, prefix: char, max: u32, what: &str) -> R<Option<u32>> {
    let Some(digits) = w.strip_prefix(prefix) else {
        return Ok(None);
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Ok(None);
    }
    let n = number(digits)?;
    if n > max {
        return Err(format!("{what} {n} is out of range (0-{max})"));
    }
    Ok(Some(n))
}

fn lookup<T>(found: Option<T>, what: &str, w: &str) -> R<T> {
    found.ok_or_else(|| format!("unknown {what} `{w}`"))
}

/// A mask of letters of `letters`, in order, or `_`.
fn mask(w: &str, letters: &str) -> R<u8> {
    if w == "_" {
        return Ok(0);
    }
    let mut bits = 0u8;
    let mut next = 0;
    for c in w.chars() {
        let k = letters[next..]
            .find(c)
            .map(|k| k + next)
            .ok_or_else(|| format!("mask `{w}`: letters of `{letters}` in order"))?;
        bits |= 1 << k;
        next = k + 1;
    }
    Ok(bits)
}

fn parse_slot(line: &str, labels: &HashMap<String, usize>) -> R<Inst> {
    let (body, flag_text) = match line.find('[') {
        Some(at) => {
            let inner = line[at + 1..]
                .trim_end()
                .strip_suffix(']')
                .ok_or("the flags need a closing `]` at the end of the line")?;
            (&line[..at], Some(inner))
        }
        None => (line, None),
    };
    let mut cur = Cur { s: body };
    let kw = cur.word()?;
    let ty = lookup(InstType::from_asm(kw), "slot type (alu, out, tex, fc)", kw)?;
    let mut inst = Inst {
        cmn: Cmn::default(),
        body: match ty {
            InstType::Alu => Body::Alu(blank_alu()),
            InstType::Output => Body::Output(blank_alu()),
            InstType::Tex => Body::Tex(blank_tex()),
            InstType::Fc => Body::Fc(blank_fc()),
        },
    };
    let out = ty == InstType::Output;
    match &mut inst.body {
        Body::Alu(a) | Body::Output(a) => alu(&mut cur, out, &mut inst.cmn, a)?,
        Body::Tex(t) => tex(&mut cur, &mut inst.cmn, t)?,
        Body::Fc(c) => fc(&mut cur, c, labels)?,
    }
    cur.end()?;
    let mut words = encode(&inst);
    if let Some(text) = flag_text {
        set_flags(ty, text, &mut words)?;
    }
    decode(words).map_err(|e| e.to_string())
}

fn set_flags(ty: InstType, text: &str, words: &mut [u32; 6]) -> R<()> {
    let mut seen = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = match item.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (item, None),
        };
        let fl = flags::find(ty, name)
            .ok_or_else(|| format!("`{name}` is not a flag of a {} slot", ty.asm()))?;
        if seen.contains(&name) {
            return Err(format!("flag `{name}` given twice"));
        }
        seen.push(name);
        let v = match (fl.kind, value) {
            (FlagKind::Bool, None) => 1,
            (_, None) => return Err(format!("flag `{name}` needs a value (`{name}=...`)")),
            (FlagKind::Enum(_, from), Some(v)) => {
                from(v).ok_or_else(|| format!("unknown value `{v}` of flag `{name}`"))?
            }
            (_, Some(v)) => number(v)?,
        };
        fl.set(ty, words, v)?;
    }
    Ok(())
}

fn blank_alu() -> Alu {
    let rgb_input = RgbInput {
        sel: SrcSel::Src0,
        swiz: [Swizzle::R; 3],
        modifier: Modifier::Nop,
    };
    let alpha_input = AlphaInput {
        sel: SrcSel::Src0,
        swiz: Swizzle::R,
        modifier: Modifier::Nop,
    };
    Alu {
        rgb_src: [Src::UNUSED; 3],
        rgb_srcp: Presub::Bias,
        alpha_src: [Src::UNUSED; 3],
        alpha_srcp: Presub::Bias,
        rgb_op: RgbOp::Mad,
        alpha_op: AlphaOp::Mad,
        rgb_in: [rgb_input; 3],
        alpha_in: [alpha_input; 3],
        rgb_omod: Omod::Mul1,
        alpha_omod: Omod::Mul1,
        rgb_target: 0,
        alpha_target: 0,
        rgb_dest: Dest::default(),
        alpha_dest: Dest::default(),
        alu_wmask: false,
        w_omask: false,
    }
}

const ZERO_TEX_REG: TexReg = TexReg {
    addr: 0,
    rel: false,
    swiz: [TexSwizzle::R; 4],
};

fn blank_tex() -> Tex {
    Tex {
        id: 0,
        op: TexOp::Nop,
        sem_acquire: false,
        ignore_uncovered: false,
        unscaled: false,
        src: ZERO_TEX_REG,
        dst: TexReg {
            swiz: TEX_IDENTITY,
            ..ZERO_TEX_REG
        },
        dx: ZERO_TEX_REG,
        dy: ZERO_TEX_REG,
        unused: [0; 6],
    }
}

fn blank_fc() -> Fc {
    Fc {
        op: FcOp::Jump,
        b_else: false,
        jump_any: false,
        a_op: Default::default(),
        jump_func: 0,
        b_pop_cnt: 0,
        b_op0: Default::default(),
        b_op1: Default::default(),
        ignore_uncovered: false,
        bool_addr: 0,
        int_addr: 0,
        jump_addr: 0,
        jump_global: false,
        unused: [0; 6],
    }
}

/// A temporary after its `r`: `r12`, `r12+aL`.
fn temp_of(w: &str, cur: &mut Cur) -> R<Option<Dest>> {
    Ok(indexed(w, 'r', 127, "temporary")?.map(|n| Dest {
        addr: n as u8,
        rel: cur.eat("+aL"),
    }))
}

/// What one ALU half writes and computes.
#[derive(Default)]
struct Half<'a> {
    pred: Pred,
    dest: Dest,
    wmask: u8,
    omask: u8,
    target: u8,
    w: bool,
    op: &'a str,
    clamp: bool,
    omod: Omod,
    /// (select, swizzle letters, modifier) of each input given.
    inputs: Vec<(SrcSel, &'a str, Modifier)>,
}

fn half<'a>(cur: &mut Cur<'a>, out: bool, alpha: bool) -> R<Half<'a>> {
    let letters = if alpha { "a" } else { "rgb" };
    let mut h = Half::default();
    if cur.eat("(") {
        h.pred.inv = cur.eat("!");
        cur.expect("p")?;
        cur.expect(".")?;
        let w = cur.word()?;
        h.pred.sel = lookup(PredSel::from_asm(w), "predicate select", w)?;
        cur.expect(")")?;
    }
    let first = cur.word()?;
    if first != "_" {
        let mut w = first;
        let (mut temp, mut target) = (false, false);
        loop {
            if let Some(d) = temp_of(w, cur)? {
                if std::mem::replace(&mut temp, true) {
                    return Err("two temporary destinations in one half".into());
                }
                h.dest = d;
                cur.expect(".")?;
                h.wmask = mask(cur.word()?, letters)?;
            } else if w == "w" && alpha {
                h.w = true;
            } else if let (Some(t), true) = (indexed(w, 'o', 3, "render target")?, out) {
                if std::mem::replace(&mut target, true) {
                    return Err("two output destinations in one half".into());
                }
                h.target = t as u8;
                cur.expect(".")?;
                h.omask = mask(cur.word()?, letters)?;
            } else if w == "p" && !out {
                if std::mem::replace(&mut target, true) {
                    return Err("two predicate destinations in one half".into());
                }
                cur.expect(".")?;
                h.omask = mask(cur.word()?, letters)?;
                cur.expect("(")?;
                let op = cur.word()?;
                h.target = lookup(CmpOp::from_asm(op), "predicate op", op)?.bits() as u8;
                cur.expect(")")?;
            } else {
                let kinds = match (out, alpha) {
                    (true, true) => "rN, oN or w",
                    (true, false) => "rN or oN",
                    (false, true) => "rN, p or w",
                    (false, false) => "rN or p",
                };
                return Err(format!("destination `{w}`: expected {kinds}"));
            }
            if !cur.eat(",") {
                break;
            }
            w = cur.word()?;
        }
    }
    cur.expect("=")?;
    h.op = cur.word()?;
    while cur.eat(".") {
        let s = cur.word()?;
        if s == "sat" {
            h.clamp = true;
        } else {
            h.omod = lookup(Omod::from_asm(s), "op suffix (sat or an omod)", s)?;
        }
    }
    while !matches!(cur.peek(), None | Some(';') | Some('{')) {
        if h.inputs.len() == 3 {
            return Err("more than three inputs".into());
        }
        let neg = cur.eat("-");
        let abs = cur.eat("|");
        let w = cur.word()?;
        let sel = lookup(SrcSel::from_asm(w), "input select (src0-src2, srcp)", w)?;
        cur.expect(".")?;
        let swz = cur.word()?;
        if abs {
            cur.expect("|")?;
        }
        let modifier = match (neg, abs) {
            (false, false) => Modifier::Nop,
            (true, false) => Modifier::Neg,
            (false, true) => Modifier::Abs,
            (true, true) => Modifier::Nab,
        };
        h.inputs.push((sel, swz, modifier));
        if !cur.eat(",") {
            break;
        }
    }
    Ok(h)
}

/// An input swizzle of `N` letters; one letter for an RGB input is replicated (`src0.a` is
/// `src0.aaa`).
fn swizzles<const N: usize>(w: &str) -> R<[Swizzle; N]> {
    let v = w
        .chars()
        .map(|c| lookup(Swizzle::from_asm(c.encode_utf8(&mut [0; 4])), "swizzle", w))
        .collect::<R<Vec<_>>>()?;
    if let [one] = v[..] {
        return Ok([one; N]);
    }
    v.try_into().map_err(|_| match N {
        1 => format!("alpha swizzle `{w}`: one letter of r g b a 0 h 1 _"),
        _ => format!("RGB swizzle `{w}`: three letters of r g b a 0 h 1 _, or one replicated"),
    })
}

fn alu(cur: &mut Cur, out: bool, cmn: &mut Cmn, a: &mut Alu) -> R<()> {
    let rgb = half(cur, out, false)?;
    cmn.rgb_pred = rgb.pred;
    cmn.rgb_wmask = rgb.wmask;
    cmn.rgb_omask = rgb.omask;
    cmn.rgb_clamp = rgb.clamp;
    a.rgb_dest = rgb.dest;
    a.rgb_target = rgb.target;
    a.rgb_op = lookup(RgbOp::from_asm(rgb.op), "RGB op", rgb.op)?;
    a.rgb_omod = rgb.omod;
    for (k, (sel, swz, modifier)) in rgb.inputs.into_iter().enumerate() {
        a.rgb_in[k] = RgbInput {
            sel,
            swiz: swizzles::<3>(swz)?,
            modifier,
        };
    }
    if cur.eat(";") {
        let al = half(cur, out, true)?;
        cmn.alpha_pred = al.pred;
        cmn.alpha_wmask = al.wmask != 0;
        cmn.alpha_omask = al.omask != 0;
        cmn.alpha_clamp = al.clamp;
        a.alpha_dest = al.dest;
        a.alpha_target = al.target;
        a.w_omask = al.w;
        a.alpha_op = lookup(AlphaOp::from_asm(al.op), "alpha op", al.op)?;
        a.alpha_omod = al.omod;
        for (k, (sel, swz, modifier)) in al.inputs.into_iter().enumerate() {
            let [swiz] = swizzles::<1>(swz)?;
            a.alpha_in[k] = AlphaInput {
                sel,
                swiz,
                modifier,
            };
        }
    }
    if cur.eat("{") {
        sources(cur, a)?;
        cur.expect("}")?;
    }
    Ok(())
}

/// `srcK = X`, `srcK.rgb = X`, `srcK.a = X`, `srcp = P` items, comma-separated.
fn sources(cur: &mut Cur, a: &mut Alu) -> R<()> {
    while cur.peek() != Some('}') {
        let w = cur.word()?;
        let (rgb, alpha) = if cur.eat(".") {
            match cur.word()? {
                "rgb" => (true, false),
                "a" => (false, true),
                u => return Err(format!("`{w}.{u}`: expected `.rgb` or `.a`")),
            }
        } else {
            (true, true)
        };
        cur.expect("=")?;
        if w == "srcp" {
            let p = cur.word()?;
            let p = lookup(Presub::from_asm(p), "presubtract op", p)?;
            if rgb {
                a.rgb_srcp = p;
            }
            if alpha {
                a.alpha_srcp = p;
            }
        } else {
            let k = match w {
                "src0" => 0,
                "src1" => 1,
                "src2" => 2,
                _ => return Err(format!("unknown source `{w}` (src0-src2, srcp)")),
            };
            let s = source(cur)?;
            if rgb {
                a.rgb_src[k] = s;
            }
            if alpha {
                a.alpha_src[k] = s;
            }
        }
        if !cur.eat(",") {
            break;
        }
    }
    Ok(())
}

/// A source address: `rN`, `cN`, an inline value, `lit(n)`, `_`; then `+aL`.
fn source(cur: &mut Cur) -> R<Src> {
    let make = |cur: &mut Cur, f: &dyn Fn(bool) -> Src| Ok(f(cur.eat("+aL")));
    if cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        let len = cur
            .s
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(cur.s.len());
        let (text, rest) = cur.s.split_at(len);
        cur.s = rest;
        let v: f32 = text
            .parse()
            .map_err(|_| format!("`{text}` is not a number"))?;
        let bits = (0..128u8).find(|&b| inline_value(b) == v).ok_or_else(|| {
            format!("{text} is not an inline constant (4-bit exponent, 3-bit mantissa)")
        })?;
        return make(cur, &|rel| Src::Inline { bits, rel });
    }
    let w = cur.word()?;
    if w == "_" {
        return make(cur, &|rel| Src::Inline { bits: 0, rel });
    }
    if w == "lit" {
        cur.expect("(")?;
        let n = number(cur.word()?)?;
        cur.expect(")")?;
        if n > 127 {
            return Err(format!("lit({n}): an inline constant is 7 bits"));
        }
        return make(cur, &|rel| Src::Inline { bits: n as u8, rel });
    }
    if let Some(n) = indexed(w, 'r', 127, "temporary")? {
        return make(cur, &|rel| Src::Temp {
            index: n as u8,
            rel,
        });
    }
    if let Some(n) = indexed(w, 'c', 255, "constant")? {
        return make(cur, &|rel| Src::Const {
            index: n as u8,
            rel,
        });
    }
    Err(format!(
        "source `{w}`: expected rN, cN, an inline constant, lit(n) or _"
    ))
}

fn tex_swizzles(w: &str) -> R<[TexSwizzle; 4]> {
    let v = w
        .chars()
        .map(|c| {
            lookup(
                TexSwizzle::from_asm(c.encode_utf8(&mut [0; 4])),
                "TEX swizzle",
                w,
            )
        })
        .collect::<R<Vec<_>>>()?;
    v.try_into()
        .map_err(|_| format!("TEX swizzle `{w}` needs 4 letters of r g b a"))
}

/// `rN[+aL].swz` of a TEX operand.
fn tex_reg(cur: &mut Cur) -> R<TexReg> {
    let w = cur.word()?;
    let d = temp_of(w, cur)?.ok_or_else(|| format!("TEX operand `{w}`: expected rN"))?;
    cur.expect(".")?;
    Ok(TexReg {
        addr: d.addr,
        rel: d.rel,
        swiz: tex_swizzles(cur.word()?)?,
    })
}

fn tex(cur: &mut Cur, cmn: &mut Cmn, t: &mut Tex) -> R<()> {
    let w = cur.word()?;
    if w != "_" {
        let d =
            temp_of(w, cur)?.ok_or_else(|| format!("TEX destination `{w}`: expected rN or _"))?;
        t.dst.addr = d.addr;
        t.dst.rel = d.rel;
        cur.expect(".")?;
        let m = mask(cur.word()?, "rgba")?;
        cmn.rgb_wmask = m & 7;
        cmn.alpha_wmask = m & 8 != 0;
    }
    cur.expect("=")?;
    let op = cur.word()?;
    t.op = lookup(TexOp::from_asm(op), "TEX op", op)?;
    let id = cur.word()?;
    t.id = indexed(id, 't', 15, "TEX_ID")?.ok_or_else(|| format!("`{id}`: expected tN (TEX_ID)"))?
        as u8;
    if cur.eat(".") {
        t.dst.swiz = tex_swizzles(cur.word()?)?;
    }
    cur.expect(",")?;
    t.src = tex_reg(cur)?;
    if cur.eat(",") {
        t.dx = tex_reg(cur)?;
        cur.expect(",")?;
        t.dy = tex_reg(cur)?;
    }
    Ok(())
}

fn fc(cur: &mut Cur, c: &mut Fc, labels: &HashMap<String, usize>) -> R<()> {
    let op = cur.word()?;
    c.op = lookup(FcOp::from_asm(op), "FC op", op)?;
    let target = cur.word()?;
    let addr = if target.starts_with(|ch: char| ch.is_ascii_digit()) {
        number(target)? as usize
    } else {
        *labels
            .get(target)
            .ok_or_else(|| format!("unknown label `{target}`"))?
    };
    if addr >= MAX_SLOTS {
        return Err(format!(
            "jump target {addr} is past the 512-slot instruction memory"
        ));
    }
    c.jump_addr = addr as u16;
    Ok(())
}
