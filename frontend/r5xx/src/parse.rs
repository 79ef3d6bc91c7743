//! The assembler: the syntax of [`crate::print`] back to slots. A line is parsed into the
//! slot's fields (its own syntax into an [`Inst`], then its flags into the encoded words),
//! so every printed slot reads back to the same words. Errors are one line, with the line
//! number in programs.

use std::collections::HashMap;
use std::fmt;

use crate::decode::{decode, MAX_SLOTS};
use crate::encode::encode;
use crate::inst::{AlphaInput, Alu, Body, Cmn, Dest, Fc, Inst, RgbInput, Src, Tex, TexReg};
use crate::print::TEX_IDENTITY;
use crate::table::flags::{self, FlagKind};
use crate::table::{
    AlphaOp, FcOp, InstType, Modifier, Omod, Presub, RgbOp, SrcSel, Swizzle, TexOp, TexSwizzle,
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

mod alu;
mod cursor;

use cursor::{indexed, lookup, mask, number, Cur, R};

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
        Body::Alu(a) | Body::Output(a) => alu::alu(&mut cur, out, &mut inst.cmn, a)?,
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
