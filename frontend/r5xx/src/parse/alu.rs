//! ALU and OUTPUT lines: the two halves, the sources (the syntax of [`crate::print`]).

use super::cursor::{indexed, lookup, mask, number, Cur, R};
use super::temp_of;
use crate::inst::{inline_value, AlphaInput, Alu, Cmn, Dest, Pred, RgbInput, Src};
use crate::table::{AlphaOp, CmpOp, Modifier, Omod, PredSel, Presub, RgbOp, SrcSel, Swizzle};

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
    /// (operand, swizzle letters, modifier) of each input given.
    inputs: Vec<(Operand, Option<&'a str>, Modifier)>,
}

/// An input's operand: a source select, or a register the assembler puts in a source slot.
#[derive(Clone, Copy)]
enum Operand {
    Sel(SrcSel),
    Reg(Src),
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
        let (operand, swz) = match digit_or_word(cur)? {
            None => (Operand::Reg(inline(cur)?), None),
            Some(w) => match SrcSel::from_asm(w) {
                Some(sel) => {
                    cur.expect(".")?;
                    (Operand::Sel(sel), Some(cur.word()?))
                }
                None if is_register(w) => (Operand::Reg(source_word(cur, w)?), None),
                None => {
                    return Err(format!(
                        "input `{w}`: expected src0-src2, srcp, rN, cN, an inline constant, \
                         lit(n) or _"
                    ))
                }
            },
        };
        let swz = match (swz, &operand) {
            (None, Operand::Reg(_)) if cur.eat(".") => Some(cur.word()?),
            (swz, _) => swz,
        };
        if abs {
            cur.expect("|")?;
        }
        let modifier = match (neg, abs) {
            (false, false) => Modifier::Nop,
            (true, false) => Modifier::Neg,
            (false, true) => Modifier::Abs,
            (true, true) => Modifier::Nab,
        };
        h.inputs.push((operand, swz, modifier));
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

pub(super) fn alu(cur: &mut Cur, out: bool, cmn: &mut Cmn, a: &mut Alu) -> R<()> {
    let rgb = half(cur, out, false)?;
    cmn.rgb_pred = rgb.pred;
    cmn.rgb_wmask = rgb.wmask;
    cmn.rgb_omask = rgb.omask;
    cmn.rgb_clamp = rgb.clamp;
    a.rgb_dest = rgb.dest;
    a.rgb_target = rgb.target;
    a.rgb_op = lookup(RgbOp::from_asm(rgb.op), "RGB op", rgb.op)?;
    a.rgb_omod = rgb.omod;
    let mut regs = Vec::new();
    for (k, &(operand, swz, modifier)) in rgb.inputs.iter().enumerate() {
        let swiz = match swz {
            Some(w) => swizzles::<3>(w)?,
            None => [Swizzle::R, Swizzle::G, Swizzle::B],
        };
        a.rgb_in[k] = RgbInput {
            sel: SrcSel::Src0,
            swiz,
            modifier,
        };
        match operand {
            Operand::Sel(sel) => a.rgb_in[k].sel = sel,
            Operand::Reg(r) => regs.push((r, Input::Rgb(k), reads(&swiz))),
        }
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
        for (k, &(operand, swz, modifier)) in al.inputs.iter().enumerate() {
            let [swiz] = match swz {
                Some(w) => swizzles::<1>(w)?,
                None => [Swizzle::A],
            };
            a.alpha_in[k] = AlphaInput {
                sel: SrcSel::Src0,
                swiz,
                modifier,
            };
            match operand {
                Operand::Sel(sel) => a.alpha_in[k].sel = sel,
                Operand::Reg(r) => regs.push((r, Input::Alpha(k), reads(&[swiz]))),
            }
        }
    }
    let mut given = [[false; 3]; 2];
    if cur.eat("{") {
        given = sources(cur, a)?;
        cur.expect("}")?;
    }
    for (reg, input, units) in regs {
        let k = allocate(a, &given, reg, units)?;
        match input {
            Input::Rgb(i) => a.rgb_in[i].sel = SrcSel::from_bits(k as u32),
            Input::Alpha(i) => a.alpha_in[i].sel = SrcSel::from_bits(k as u32),
        }
    }
    Ok(())
}

/// Which input a register operand is.
#[derive(Clone, Copy)]
enum Input {
    Rgb(usize),
    Alpha(usize),
}

/// The source units a swizzle reads: (the RGB source for r, g, b; the alpha source for a).
fn reads(swiz: &[Swizzle]) -> (bool, bool) {
    let rgb = swiz
        .iter()
        .any(|s| matches!(s, Swizzle::R | Swizzle::G | Swizzle::B));
    (rgb, swiz.contains(&Swizzle::A))
}

/// The source slot for register `reg` read through units `(rgb, alpha)`: the first that
/// holds it in every unit read, else the first free (still Mesa's unused pattern and not
/// given in braces) or holding it in every unit read.
fn allocate(a: &mut Alu, given: &[[bool; 3]; 2], reg: Src, (rgb, alpha): (bool, bool)) -> R<usize> {
    let holds =
        |a: &Alu, k: usize| (!rgb || a.rgb_src[k] == reg) && (!alpha || a.alpha_src[k] == reg);
    let fits = |a: &Alu, k: usize| {
        let ok = |s: Src, given: bool| s == reg || (s == Src::UNUSED && !given);
        (!rgb || ok(a.rgb_src[k], given[0][k])) && (!alpha || ok(a.alpha_src[k], given[1][k]))
    };
    let k = (0..3)
        .find(|&k| holds(a, k))
        .or_else(|| (0..3).find(|&k| fits(a, k)))
        .ok_or_else(|| format!("no source slot left for `{}`", crate::print::src(reg)))?;
    if rgb {
        a.rgb_src[k] = reg;
    }
    if alpha {
        a.alpha_src[k] = reg;
    }
    Ok(k)
}

/// `srcK = X`, `srcK.rgb = X`, `srcK.a = X`, `srcp = P` items, comma-separated; which
/// (unit, slot) pairs they set.
fn sources(cur: &mut Cur, a: &mut Alu) -> R<[[bool; 3]; 2]> {
    let mut given = [[false; 3]; 2];
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
                given[0][k] = true;
            }
            if alpha {
                a.alpha_src[k] = s;
                given[1][k] = true;
            }
        }
        if !cur.eat(",") {
            break;
        }
    }
    Ok(given)
}

/// The next word, or `None` when a number (an inline constant) starts here.
fn digit_or_word<'a>(cur: &mut Cur<'a>) -> R<Option<&'a str>> {
    if cur.peek().is_some_and(|c| c.is_ascii_digit()) {
        Ok(None)
    } else {
        cur.word().map(Some)
    }
}

/// A source address: `rN`, `cN`, an inline value, `lit(n)`, `_`; then `+aL`.
fn source(cur: &mut Cur) -> R<Src> {
    match digit_or_word(cur)? {
        None => inline(cur),
        Some(w) => source_word(cur, w),
    }
}

/// An inline constant by value (digits, then `.` and digits), then `+aL`.
fn inline(cur: &mut Cur) -> R<Src> {
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let mut len = digits(cur.s);
    if cur.s[len..].starts_with('.') && cur.s[len + 1..].starts_with(|c: char| c.is_ascii_digit()) {
        len += 1 + digits(&cur.s[len + 1..]);
    }
    let (text, rest) = cur.s.split_at(len);
    cur.s = rest;
    let v: f32 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number"))?;
    let bits = (0..128u8).find(|&b| inline_value(b) == v).ok_or_else(|| {
        format!("{text} is not an inline constant (4-bit exponent, 3-bit mantissa)")
    })?;
    Ok(Src::Inline {
        bits,
        rel: cur.eat("+aL"),
    })
}

/// Whether word `w` starts a source address (`rN`, `cN`, `lit`, `_`).
fn is_register(w: &str) -> bool {
    let numbered = |p: char| {
        w.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    w == "_" || w == "lit" || numbered('r') || numbered('c')
}

/// The source address that starts with word `w` (`r5`, `c9`, `lit`, `_`), then `+aL`.
fn source_word(cur: &mut Cur, w: &str) -> R<Src> {
    let make = |cur: &mut Cur, f: &dyn Fn(bool) -> Src| Ok(f(cur.eat("+aL")));
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
