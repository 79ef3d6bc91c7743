//! [`Program`] to IL text, in the syntax of seed 001 Chapter 3 (L834-L1111) and its Chapter 7
//! entries, with the canonical choices of AMD's own disassembler where the seed leaves a choice
//! (the `dx11_ps`/`il_ps_2_0` header, `r0.x___` masks, `r1.x` for a replicated select, `_neg(xyzw)`,
//! `0x3F800000` literals, four spaces per block level; grvk's `test/res/*.txt` are its output).
//!
//! The text is canonical: [`crate::parse`] reads it back to the same program, and printing that
//! gives the same text. Each instruction is one line; a `prefix` becomes the `_prec` specifier
//! of the next instruction's mnemonic (L3435-L3438).
//!
//! Spellings the seed does not give, chosen so that every program prints:
//! - A source or destination modifier token that changes nothing prints `.xyzw`: AMD's
//!   compiler writes such tokens (grvk's `il_indexing.bin` has `mov o0, r4096` with both), its
//!   disassembler prints nothing for them, and the text must keep them to give the tokens back.
//! - A source's clamp bit prints `_clamp` (Table 3.2 has none); the primary and secondary
//!   modifier dwords of the opcodes that take them print `_pri(0x...)` and `_sec(0x...)`.
//! - A standalone prefix (before a comment or at the end) prints `prec` or `prec(xz)`.
//! - An immediate constant buffer prints `dcl_cb icb[n] = {...}`, in the `= {...}` list form of
//!   `dcl_function_table` (L13161).
//! - A comment prints `;` and its text; bytes that are not printable ASCII print `\xHH` and a
//!   backslash `\\`. A comment whose dwords are not its text, a NUL and zero padding (AMD's
//!   compiler leaves other bytes after the NUL) prints all its bytes, NUL as `\x00`.
//! - `dcl_resource`'s unnorm bit prints `_unnorm` (AMD's disassembler writes `_type(2d,unnorm)`,
//!   which the parser reads too); `case` and `default` print at their `switch`'s level, as
//!   `else` does at its `if`'s.
//! - A second dimension with no first index prints `v[1][2]` (example 3, L749); with one,
//!   the register number is printed even where it is 0 and usually omitted (`g0[5][7]`), so
//!   that the two read back apart.

use crate::inst::{Dim2, Dst, Index, Inst, Program, Reg, Src};
use crate::table::{enums, op, Form, Kind, Radix, Row, TEX_AOFFSET_BIT, TEX_EXT_BIT};
use crate::token::{DstComp, DstMod, Sel, SrcMod, SHIFT_NAMES};
use std::fmt::Write;

/// The program's text, one instruction per line.
pub fn print(p: &Program) -> String {
    let mut out = String::new();
    lines(&p.macros, &mut out);
    if p.lang != 0 {
        let _ = writeln!(out, "{}", name(enums::LANG, u32::from(p.lang)));
    }
    let v = &p.version;
    let _ = writeln!(
        out,
        "il_{}_{}_{}{}{}",
        name(enums::SHADER, u32::from(v.shader)),
        v.major,
        v.minor,
        if v.multipass { "_mp" } else { "" },
        if v.realtime { "_rt" } else { "" }
    );
    lines(&p.code, &mut out);
    out
}

/// One instruction's line, without indentation.
pub fn print_inst(inst: &Inst) -> String {
    line(inst, None)
}

fn lines(code: &[Inst], out: &mut String) {
    let mut depth = 0usize;
    let mut prefix: Option<&Inst> = None;
    for (i, inst) in code.iter().enumerate() {
        if inst.op == op::PREFIX && merges(code.get(i + 1)) {
            prefix = Some(inst);
            continue;
        }
        let (before, after) = block(inst.op);
        depth = depth.saturating_sub(before);
        let _ = writeln!(out, "{}{}", "    ".repeat(depth), line(inst, prefix.take()));
        depth += after;
    }
}

/// Whether a prefix prints as a specifier of this next instruction.
fn merges(next: Option<&Inst>) -> bool {
    next.is_some_and(|n| n.op != op::PREFIX && n.op != op::COMMENT && n.row().is_some())
}

/// The block levels an instruction closes before it prints and opens after.
fn block(code: u16) -> (usize, usize) {
    match code {
        op::IF_LOGICALZ
        | op::IF_LOGICALNZ
        | op::IFC
        | op::IFNZ
        | op::WHILE
        | op::LOOP
        | op::SWITCH => (0, 1),
        op::ELSE | op::CASE | op::DEFAULT => (1, 1),
        op::ENDIF | op::ENDLOOP | op::ENDSWITCH => (1, 0),
        _ => (0, 0),
    }
}

fn name(names: &[&str], v: u32) -> String {
    names
        .get(v as usize)
        .map_or_else(|| format!("{v}"), |n| n.to_string())
}

fn line(inst: &Inst, prefix: Option<&Inst>) -> String {
    let Some(row) = inst.row() else {
        return format!("il_op({})", inst.op);
    };
    match row.form {
        Form::Comment => return format!(";{}", comment_text(&inst.extra)),
        Form::Prefix => return format!("prec{}", precise(inst.control).unwrap_or_default()),
        _ => {}
    }
    let mut m = row.mnemonic.to_string();
    mnemonic_specifiers(row, inst, &mut m);
    if let Some(p) = prefix {
        m.push_str("_prec");
        m.push_str(&precise(p.control).unwrap_or_default());
    }
    if let Some(d) = inst.dst.first().and_then(|d| d.modifier) {
        m.push_str(&dst_specifiers(&d));
    }
    let mut ops = operand_fields(row, inst.control);
    let mut list = None;
    match row.form {
        Form::MacroCall => {
            ops.push(format!("({})", join(inst.dst.iter().map(dst))));
            ops.push(format!("({})", join(inst.src.iter().map(src))));
        }
        Form::ConstBuffer if inst.pri.is_some() => {
            ops.push(format!("icb[{}]", inst.extra.len()));
            list = Some(join(inst.extra.iter().map(|&w| number(w, Radix::Hex))));
        }
        _ => {
            ops.extend(inst.dst.iter().map(dst));
            ops.extend(inst.src.iter().map(src));
        }
    }
    match row.form {
        Form::Tail(_, radix) => ops.extend(inst.extra.iter().map(|&w| number(w, radix))),
        Form::Dims => ops.extend(inst.extra.iter().map(|w| w.to_string())),
        Form::FunctionTable => list = Some(join(inst.extra.iter().map(|w| w.to_string()))),
        Form::InterfacePtr => list = Some(join(inst.extra.iter().skip(2).map(|w| w.to_string()))),
        _ => {}
    }
    if !ops.is_empty() {
        m.push(' ');
        m.push_str(&ops.join(", "));
    }
    if let Some(list) = list {
        let _ = write!(m, " = {{{list}}}");
    }
    m
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
}

/// A trailing dword in its row's radix.
pub fn number(w: u32, radix: Radix) -> String {
    match radix {
        Radix::Dec => w.to_string(),
        Radix::Int => (w as i32).to_string(),
        Radix::Hex => format!("0x{w:08X}"),
    }
}

/// `(xz)` for a partial precise mask, nothing for all four.
fn precise(control: u16) -> Option<String> {
    let mask = control & 0xf;
    (mask != 0xf).then(|| {
        let comps: String = (0..4)
            .filter(|i| mask >> i & 1 != 0)
            .map(|i| b"xyzw"[i] as char)
            .collect();
        format!("({comps})")
    })
}

/// The control fields, form dwords and modifier dwords spelled on the mnemonic.
fn mnemonic_specifiers(row: &Row, inst: &Inst, m: &mut String) {
    let c = inst.control;
    for f in row.fields {
        let v = f.get(c);
        match f.kind {
            Kind::Paren => {
                let _ = write!(m, "({v})");
            }
            Kind::ParenEnum(e) => {
                let _ = write!(m, "({})", name(e, v.into()));
            }
            _ => {}
        }
    }
    for (i, f) in row.fields.iter().enumerate() {
        let v = f.get(c);
        if i == 1 {
            named_dwords(row, inst, m);
        }
        let _ = match f.kind {
            Kind::Flag if v != 0 => write!(m, "_{}", f.name),
            Kind::Num => write!(m, "_{}({v})", f.name),
            Kind::Opt if v != 0 => write!(m, "_{}({v})", f.name),
            Kind::Enum(e) => write!(m, "_{}({})", f.name, name(e, v.into())),
            Kind::OptEnum(e) if v != 0 => write!(m, "_{}({})", f.name, name(e, v.into())),
            Kind::Bare(e) => write!(m, "_{}", name(e, v.into())),
            Kind::OptBare(e) if v != 0 => write!(m, "_{}", name(e, v.into())),
            _ => Ok(()),
        };
    }
    match row.form {
        Form::Texture => {
            let mut pre = inst.pre.iter();
            if c & TEX_EXT_BIT != 0 {
                if let Some(&fmt) = pre.next() {
                    let _ = write!(m, "_resourcetype({})", name(enums::PIXTEX, fmt));
                }
            }
            if c & TEX_AOFFSET_BIT != 0 {
                if let Some(&a) = pre.next() {
                    let offs = [0, 8, 16].map(|s| half(((a >> s) as u8) as i8));
                    let _ = write!(m, "_aoffimmi({})", offs.join(","));
                }
            }
        }
        Form::Resource => {
            let w = inst.extra.first().copied().unwrap_or(0);
            for (i, comp) in ["x", "y", "z", "w"].iter().enumerate() {
                let fmt = w >> (20 + 3 * i) & 7;
                let _ = write!(m, "_fmt{comp}({})", name(enums::ELEMFMT, fmt));
            }
        }
        Form::MacroDef => {
            let w = inst.extra.first().copied().unwrap_or(0);
            let _ = write!(m, "_out({})_in({})", w >> 8 & 0xff, w & 0xff);
            if w >> 16 & 1 != 0 {
                m.push_str("_outline");
            }
        }
        Form::InterfacePtr => {
            for w in inst.extra.iter().take(2) {
                let _ = write!(m, "[{w}]");
            }
        }
        _ => {}
    }
    if row.form != Form::ConstBuffer {
        if let Some(p) = inst.pri {
            let _ = write!(m, "_pri({p:#x})");
        }
    }
    if let Some(s) = inst.sec {
        let _ = write!(m, "_sec({s:#x})");
    }
}

/// `_stride(4)_length(4)`: a [`Form::Named`] row's dwords, after its first field (the id) as AMD's
/// compiler writes them (`dcl_typeless_uav_id(11)_stride(4)_length(4)_access(read_write)`).
fn named_dwords(row: &Row, inst: &Inst, m: &mut String) {
    if let Form::Named(names) = row.form {
        for (n, v) in names.iter().zip(&inst.extra) {
            let _ = write!(m, "_{n}({v})");
        }
    }
}

/// A signed 7.1 fixed-point address offset (L5612).
fn half(v: i8) -> String {
    let v = i32::from(v);
    if v % 2 == 0 {
        (v / 2).to_string()
    } else {
        format!("{}{}.5", if v < 0 { "-" } else { "" }, (v / 2).abs())
    }
}

/// The control fields printed as operands.
fn operand_fields(row: &Row, c: u16) -> Vec<String> {
    let mut ops = Vec::new();
    for f in row.fields {
        let v = f.get(c);
        match f.kind {
            Kind::Arg => ops.push(v.to_string()),
            Kind::ArgEnum(e) => ops.push(name(e, v.into())),
            Kind::Words(e) => {
                let set: Vec<String> = (0..f.width)
                    .filter(|i| v >> i & 1 != 0)
                    .map(|i| name(e, i.into()))
                    .collect();
                if !set.is_empty() {
                    ops.push(set.join("|"));
                }
            }
            _ => {}
        }
    }
    ops
}

/// `_x2_sat`: a destination modifier's shift and clamp, spelled on the mnemonic (L919-L927).
fn dst_specifiers(m: &DstMod) -> String {
    let mut s = String::new();
    if let Some(name) = SHIFT_NAMES
        .get(usize::from(m.shift))
        .filter(|n| !n.is_empty())
    {
        s.push('_');
        s.push_str(name);
    }
    if m.clamp {
        s.push_str("_sat");
    }
    s
}

/// A destination operand: its register and write mask.
pub fn dst(d: &Dst) -> String {
    let mut s = reg(&d.reg, true);
    if let Some(m) = d.modifier {
        let all = m.comp == [DstComp::Write; 4];
        if !all {
            s.push('.');
            for (i, c) in m.comp.iter().enumerate() {
                s.push(match c {
                    DstComp::NoWrite => '_',
                    DstComp::Write => b"xyzw"[i] as char,
                    DstComp::Zero => '0',
                    DstComp::One => '1',
                });
            }
        } else if !m.clamp && m.shift == 0 {
            s.push_str(".xyzw");
        }
    }
    s
}

/// A source operand: its register, select and modifiers (in Table 2.9's order of precedence,
/// but `_neg` before `_abs` as AMD's disassembler writes them).
pub fn src(x: &Src) -> String {
    let mut s = reg(&x.reg, false);
    if let Some(m) = x.modifier {
        s.push_str(&src_specifiers(&m));
    }
    s
}

fn src_specifiers(m: &SrcMod) -> String {
    let mut s = String::new();
    let identity = m.swizzle == SrcMod::IDENTITY.swizzle;
    let plain = SrcMod {
        swizzle: m.swizzle,
        ..SrcMod::IDENTITY
    } == *m;
    if identity && plain {
        s.push_str(".xyzw");
    } else if !identity {
        s.push('.');
        if m.swizzle.iter().all(|&c| c == m.swizzle[0]) {
            s.push(m.swizzle[0].char());
        } else {
            s.extend(m.swizzle.iter().map(|c| c.char()));
        }
    }
    if m.invert {
        s.push_str("_invert");
    }
    match (m.bias, m.x2) {
        (true, true) => s.push_str("_bx2"),
        (true, false) => s.push_str("_bias"),
        (false, true) => s.push_str("_x2"),
        (false, false) => {}
    }
    if m.sign {
        s.push_str("_sign");
    }
    if m.divcomp != 0 {
        let _ = write!(s, "_divcomp({})", name(enums::DIVCOMP, m.divcomp.into()));
    }
    if m.neg.iter().any(|&n| n) {
        let comps: String = (0..4)
            .filter(|&i| m.neg[i])
            .map(|i| Sel::ALL[i].char())
            .collect();
        let _ = write!(s, "_neg({comps})");
    }
    if m.abs {
        s.push_str("_abs");
    }
    if m.clamp {
        s.push_str("_clamp");
    }
    s
}

/// A register with its number and indices.
pub fn reg(r: &Reg, dst: bool) -> String {
    let name = r.ty.name(dst);
    let mut s = String::from(name);
    if r.index == Index::None && r.dim2.is_some() {
        let _ = write!(s, "[{}]", r.num);
    } else if r.ty.numbered() || r.num != 0 || r.dim2.is_some() {
        let _ = write!(s, "{}", r.num);
    }
    match &r.index {
        Index::None => {}
        Index::Imm(i) => {
            let _ = write!(s, "[{i}]");
        }
        Index::Rel(x, imm) => s.push_str(&relative(x, *imm)),
    }
    match &r.dim2 {
        None => {}
        Some(Dim2::Abs(n)) => {
            let _ = write!(s, "[{n}]");
        }
        Some(Dim2::Rel(x, imm)) => s.push_str(&relative(x, *imm)),
    }
    s
}

fn relative(x: &Src, imm: Option<u32>) -> String {
    match imm {
        None => format!("[{}]", src(x)),
        Some(i) if (i as i32) < 0 => format!("[{}-{}]", src(x), (i as i32).unsigned_abs()),
        Some(i) => format!("[{}+{i}]", src(x)),
    }
}

/// A comment's text: its bytes up to the NUL when the rest is zero padding of the least
/// length, otherwise every byte; escaped as the module doc says.
pub fn comment_text(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let text_len = bytes.iter().position(|&b| b == 0);
    let canonical = text_len.is_some_and(|n| {
        bytes[n..].iter().all(|&b| b == 0) && bytes.len() == (n + 1).div_ceil(4) * 4
    });
    let shown = match text_len {
        Some(n) if canonical => &bytes[..n],
        _ => &bytes[..],
    };
    let mut s = String::new();
    for &b in shown {
        match b {
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s
}
