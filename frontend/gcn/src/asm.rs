//! Assembler: LLVM 14 AMDGPU syntax -> bytes.
//!
//! Accepts one instruction per line, `label:` lines, branch operands naming labels, comments
//! (`;`, `//`, `#`) and ignores assembler directives (lines starting with `.`), so the `.s`
//! output of `llc` assembles. Two passes: sizes and label addresses first, then encoding.
use crate::encode::encode;
use crate::inst::{Dpp, Encoding, Gen, InlineFloat, Inst, MemFields, Operand, Opnd, Sdwa, VopMods};
use crate::operand::{self, parse_reg};
use crate::print::{hwreg_name, msg_name, operand_ty, DFMT, GS_OP, NFMT, SYSMSG};
use crate::tables::{self, flags, Family, Field, OpInfo, Slot};
use std::collections::HashMap;

/// An assembly error with its 1-based line number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {msg}")]
pub struct AsmError {
    pub line: usize,
    pub msg: String,
}

/// Assembles a program for `gen`.
pub fn assemble(gen: Gen, text: &str) -> Result<Vec<u8>, AsmError> {
    assemble_with_labels(gen, text).map(|(bytes, _)| bytes)
}

/// Assembles a program for `gen`; also returns the byte offset of every label.
pub fn assemble_with_labels(
    gen: Gen,
    text: &str,
) -> Result<(Vec<u8>, HashMap<String, usize>), AsmError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, strip_comment(l).trim()))
        .collect();
    let mut labels = HashMap::new();
    let mut pc = 0usize;
    for pass in 0..2 {
        let mut out = Vec::new();
        pc = 0;
        for &(ln, line) in &lines {
            let mut rest = line;
            while let Some((lab, after)) = split_label(rest) {
                if pass == 0 && labels.insert(lab.to_string(), pc).is_some() {
                    return Err(AsmError {
                        line: ln,
                        msg: format!("label `{lab}` is already defined"),
                    });
                }
                rest = after.trim();
            }
            if rest.is_empty() || rest.starts_with('.') {
                continue;
            }
            let inst = parse_inst(gen, rest, pc, &labels, pass == 0)
                .map_err(|msg| AsmError { line: ln, msg })?;
            let bytes = encode(&inst).map_err(|e| AsmError {
                line: ln,
                msg: e.to_string(),
            })?;
            pc += bytes.len();
            out.extend(bytes);
        }
        if pass == 1 {
            return Ok((out, labels));
        }
    }
    let _ = pc;
    Ok((Vec::new(), labels))
}

fn strip_comment(l: &str) -> &str {
    let mut end = l.len();
    for pat in [";", "//", "#"] {
        if let Some(i) = l.find(pat) {
            end = end.min(i);
        }
    }
    &l[..end]
}

fn split_label(l: &str) -> Option<(&str, &str)> {
    let i = l.find(':')?;
    let lab = &l[..i];
    if !lab.is_empty()
        && lab
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
    {
        Some((lab, &l[i + 1..]))
    } else {
        None
    }
}

/// Splits at top-level commas (outside parentheses and brackets).
fn split_top(s: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if c == sep && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    if !cur.trim().is_empty() {
        parts.push(cur);
    }
    parts
        .into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if let Some(h) = t.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else {
        t.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

fn inline_float(s: &str) -> Option<InlineFloat> {
    Some(match s {
        "0.5" => InlineFloat::Half,
        "-0.5" => InlineFloat::MinusHalf,
        "1.0" => InlineFloat::One,
        "-1.0" => InlineFloat::MinusOne,
        "2.0" => InlineFloat::Two,
        "-2.0" => InlineFloat::MinusTwo,
        "4.0" => InlineFloat::Four,
        "-4.0" => InlineFloat::MinusFour,
        "0.15915494" | "0.15915494309189532" => InlineFloat::InvTwoPi,
        _ => return None,
    })
}

/// Symbols whose value the loader patches into a zero literal (the AMDGPU ABI's scratch
/// resource words, relocated with R_AMDGPU_ABS32_LO/HI). `assemble` returns bytes only, so
/// they assemble as that zero literal, as in an object file before relocation.
const RELOCATED_SYMBOLS: [&str; 2] = ["SCRATCH_RSRC_DWORD0", "SCRATCH_RSRC_DWORD1"];

/// A value operand: register, inline constant or literal.
fn value(s: &str) -> Result<(Operand, u8), String> {
    if let Some(r) = parse_reg(s) {
        return Ok(r);
    }
    if let Some(f) = inline_float(s) {
        return Ok((Operand::InlineFloat(f), 1));
    }
    if RELOCATED_SYMBOLS.contains(&s) {
        return Ok((Operand::Literal(0), 1));
    }
    let v = parse_int(s).ok_or_else(|| format!("bad operand `{s}`"))?;
    // A value in -16..=64 is an inline integer whatever the operand; the other spellings of
    // inline constants (`0xffffffff`, `0x3f800000`, `0xc400`) depend on the operand's width
    // and type, and sources resolve them with `operand::constant`.
    if (-16..=64).contains(&v) {
        return Ok((Operand::InlineInt(v as i8), 1));
    }
    if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
        return Err(format!("literal `{s}` out of range"));
    }
    Ok((Operand::Literal(v as u32), 1))
}

struct Src {
    op: Operand,
    dwords: u8,
    neg: bool,
    abs: bool,
    sext: bool,
}

/// The argument of `name(...)` wrapped around all of `s`.
fn wrapped<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    s.strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')
        .map(str::trim)
}

/// A source with its modifiers, in LLVM's spellings: `sext(x)` (SDWA), then `neg(x)` or `-x`,
/// then `abs(x)` or `|x|`. A leading `-` is the neg modifier only before a register or an
/// absolute value: `-13` and `-1.0` are constants (LLVM prints a negated constant `neg(13)`).
fn source(s: &str) -> Result<Src, String> {
    let mut t = s.trim();
    let mut neg = false;
    let mut abs = false;
    let mut sext = false;
    if let Some(r) = wrapped(t, "sext") {
        sext = true;
        t = r;
    }
    if let Some(r) = wrapped(t, "neg") {
        neg = true;
        t = r;
    } else if let Some(r) = t.strip_prefix('-').map(str::trim_start) {
        if r.starts_with('|') || r.starts_with("abs(") || parse_reg(r).is_some() {
            neg = true;
            t = r;
        }
    }
    if let Some(r) = wrapped(t, "abs") {
        abs = true;
        t = r;
    } else if let Some(r) = t.strip_prefix('|').and_then(|r| r.strip_suffix('|')) {
        abs = true;
        t = r.trim();
    }
    let (op, dwords) = value(t)?;
    Ok(Src {
        op,
        dwords,
        neg,
        abs,
        sext,
    })
}

fn bits_list(s: &str) -> Result<u8, String> {
    let inner = s
        .strip_prefix('[')
        .and_then(|r| r.strip_suffix(']'))
        .ok_or("expected [..]")?;
    let mut v = 0u8;
    for (i, b) in inner.split(',').enumerate() {
        match b.trim() {
            "0" => {}
            "1" => v |= 1 << i,
            _ => return Err(format!("bad bit list {s}")),
        }
    }
    Ok(v)
}

const SEL: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
const UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

fn pick(list: &[&str], s: &str) -> Result<u8, String> {
    list.iter()
        .position(|x| *x == s)
        .map(|i| i as u8)
        .ok_or_else(|| format!("unknown `{s}`"))
}

fn call_args(s: &str, name: &str) -> Option<Vec<String>> {
    s.strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')')
        .map(|a| split_top(a, ','))
}

fn num_or(list_fn: &dyn Fn(u16) -> Option<&'static str>, s: &str, max: u16) -> Result<u16, String> {
    if let Some(v) = parse_int(s) {
        return Ok(v as u16);
    }
    (0..max)
        .find(|&i| list_fn(i) == Some(s))
        .ok_or_else(|| format!("unknown `{s}`"))
}

fn waitcnt(gen: Gen, s: &str) -> Result<u16, String> {
    if let Some(v) = parse_int(s) {
        return Ok(v as u16);
    }
    let (mut vm, mut exp, mut lgkm) = (if gen == Gen::Gfx9 { 63u16 } else { 15 }, 7u16, 15u16);
    for part in s.split([' ', '&', ',']).filter(|p| !p.is_empty()) {
        let (name, v) = part.split_once('(').ok_or("bad s_waitcnt")?;
        let v: u16 = v.trim_end_matches(')').parse().map_err(|_| "bad count")?;
        match name {
            "vmcnt" => vm = v,
            "expcnt" => exp = v,
            "lgkmcnt" => lgkm = v,
            _ => return Err(format!("unknown counter {name}")),
        }
    }
    let mut w = (vm & 0xf) | (exp & 7) << 4 | (lgkm & 0xf) << 8;
    if gen == Gen::Gfx9 {
        w |= (vm >> 4 & 3) << 14;
    }
    Ok(w)
}

fn sendmsg(gen: Gen, s: &str) -> Result<u16, String> {
    if let Some(v) = parse_int(s) {
        return Ok(v as u16);
    }
    let a = call_args(s, "sendmsg").ok_or("bad sendmsg")?;
    let id = num_or(&|i| msg_name(gen, i), &a[0], 16)?;
    let mut v = id;
    if let Some(op) = a.get(1) {
        let o = if id == 15 {
            pick(&SYSMSG, op)?
        } else {
            pick(&GS_OP, op)?
        };
        v |= (o as u16) << 4;
    }
    if let Some(st) = a.get(2) {
        v |= (parse_int(st).ok_or("bad stream")? as u16) << 8;
    }
    Ok(v)
}

fn hwreg(gen: Gen, s: &str) -> Result<u16, String> {
    if let Some(v) = parse_int(s) {
        return Ok(v as u16);
    }
    let a = call_args(s, "hwreg").ok_or("bad hwreg")?;
    let id = num_or(&|i| hwreg_name(gen, i), &a[0], 64)?;
    let (off, size) = if a.len() == 3 {
        (
            parse_int(&a[1]).ok_or("bad offset")? as u16,
            parse_int(&a[2]).ok_or("bad size")? as u16,
        )
    } else {
        (0, 32)
    };
    Ok(id | off << 6 | (size.wrapping_sub(1) & 0x1f) << 11)
}

fn gpr_idx(s: &str) -> Result<u16, String> {
    let a = call_args(s, "gpr_idx").ok_or("bad gpr_idx")?;
    let mut v = 0;
    for x in a {
        v |= 1 << pick(&["SRC0", "SRC1", "SRC2", "DST"], &x)?;
    }
    Ok(v)
}

fn dpp_ctrl(s: &str) -> Result<u16, String> {
    if let Some(q) = s.strip_prefix("quad_perm:") {
        let inner = q
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or("bad quad_perm")?;
        let mut v = 0u16;
        for (i, x) in inner.split(',').enumerate() {
            v |= (x.trim().parse::<u16>().map_err(|_| "bad quad_perm")? & 3) << (2 * i);
        }
        return Ok(v);
    }
    let (k, n) = s.split_once(':').unwrap_or((s, ""));
    let n: u16 = n.parse().unwrap_or(0);
    Ok(match k {
        "row_shl" => 0x100 | n,
        "row_shr" => 0x110 | n,
        "row_ror" => 0x120 | n,
        "wave_shl" => 0x130,
        "wave_rol" => 0x134,
        "wave_shr" => 0x138,
        "wave_ror" => 0x13c,
        "row_mirror" => 0x140,
        "row_half_mirror" => 0x141,
        "row_bcast" if n == 15 => 0x142,
        "row_bcast" => 0x143,
        _ => return Err(format!("unknown DPP control `{s}`")),
    })
}

fn swizzle(s: &str) -> Result<u16, String> {
    let a = call_args(s, "swizzle").ok_or("bad swizzle")?;
    let n = |i: usize| -> Result<u16, String> {
        a.get(i)
            .and_then(|x| parse_int(x))
            .map(|v| v as u16)
            .ok_or_else(|| "bad swizzle".into())
    };
    Ok(match a.first().map(String::as_str) {
        Some("QUAD_PERM") => 0x8000 | n(1)? | n(2)? << 2 | n(3)? << 4 | n(4)? << 6,
        Some("SWAP") => 0x1f | n(1)? << 10,
        Some("REVERSE") => 0x1f | (n(1)? - 1) << 10,
        Some("BROADCAST") => (0x1f - (n(1)? - 1)) | n(2)? << 5,
        Some("BITMASK_PERM") => {
            let m = a.get(1).ok_or("bad swizzle")?.trim_matches('"');
            let (mut and, mut or, mut xor) = (0u16, 0u16, 0u16);
            for (i, c) in m.chars().rev().enumerate() {
                match c {
                    '0' => {}
                    '1' => or |= 1 << i,
                    'p' => and |= 1 << i,
                    'i' => {
                        and |= 1 << i;
                        xor |= 1 << i
                    }
                    _ => return Err("bad swizzle mask".into()),
                }
            }
            and | or << 5 | xor << 10
        }
        _ => return Err("bad swizzle".into()),
    })
}

/// Finds the row and encoding for a mnemonic (with LLVM's `_e32/_e64/_sdwa/_dpp` suffixes).
fn lookup(gen: Gen, mnemonic: &str) -> Result<(&'static OpInfo, Encoding), String> {
    let suffixed = |suf: &str| mnemonic.strip_suffix(suf);
    let (base, want) = if let Some(b) = suffixed("_e32") {
        (b, Some("e32"))
    } else if let Some(b) = suffixed("_e64") {
        (b, Some("e64"))
    } else if let Some(b) = suffixed("_sdwa") {
        (b, Some("sdwa"))
    } else if let Some(b) = suffixed("_dpp") {
        (b, Some("dpp"))
    } else {
        (mnemonic, None)
    };
    let cands: Vec<&'static OpInfo> = tables::by_name(gen, base).collect();
    if cands.is_empty() {
        return Err(format!(
            "unknown instruction `{mnemonic}` on {}",
            gen.name()
        ));
    }
    for r in &cands {
        let native = matches!(r.family, Family::Vop1 | Family::Vop2 | Family::Vopc);
        let enc = match (r.family, want) {
            (Family::Vop1, Some("e32") | None) => Encoding::Vop1,
            (Family::Vop2, Some("e32") | None) => Encoding::Vop2,
            (Family::Vopc, Some("e32") | None) => Encoding::Vopc,
            (Family::Vintrp, w) => {
                // Opcodes 0-2 have the native form (`_e32` on gfx8/9, which also have `_e64`);
                // the f16 rows exist only VOP3-encoded and take no suffix.
                let has_native = r.opcode_in(gen).is_some_and(|o| o < 4);
                let has_vop3 = r.vop3 & gen.bit() != 0;
                match w {
                    None if has_native => Encoding::Vintrp,
                    None => Encoding::Vop3a,
                    Some("e32") if has_native && has_vop3 => Encoding::Vintrp,
                    Some("e64") if has_native && has_vop3 => Encoding::Vop3a,
                    _ => continue,
                }
            }
            (_, Some("e64")) if native => Encoding::Vop3a,
            (_, Some("sdwa")) if native => Encoding::Sdwa,
            (_, Some("dpp")) if native => Encoding::Dpp,
            (_, Some(_)) => continue,
            (Family::Sop2, _) => Encoding::Sop2,
            (Family::Sopk, _) => Encoding::Sopk,
            (Family::Sop1, _) => Encoding::Sop1,
            (Family::Sopc, _) => Encoding::Sopc,
            (Family::Sopp, _) => Encoding::Sopp,
            (Family::Smrd, _) => Encoding::Smrd,
            (Family::Smem, _) => Encoding::Smem,
            (Family::Vop3, _) => Encoding::Vop3a,
            (Family::Vop3p, _) => Encoding::Vop3p,
            (Family::Ds, _) => Encoding::Ds,
            (Family::Mubuf, _) => Encoding::Mubuf,
            (Family::Mtbuf, _) => Encoding::Mtbuf,
            (Family::Flat, _) => Encoding::Flat,
            (Family::Global, _) => Encoding::Global,
            (Family::Scratch, _) => Encoding::Scratch,
            (Family::Mimg, _) => Encoding::Mimg,
        };
        return Ok((r, enc));
    }
    Err(format!("no {} form of `{base}`", want.unwrap_or("native")))
}

/// `attrN.c` (N 0-63, c one of x y z w) as `attr | chan << 6`.
fn interp_attr(text: &str) -> Result<u32, String> {
    let bad = || format!("bad attribute `{text}`");
    let (n, c) = text
        .strip_prefix("attr")
        .and_then(|r| r.split_once('.'))
        .ok_or_else(bad)?;
    let n: u32 = n.parse().map_err(|_| bad())?;
    let c = ["x", "y", "z", "w"]
        .iter()
        .position(|x| *x == c)
        .ok_or_else(bad)? as u32;
    if n > 63 {
        return Err(bad());
    }
    Ok(n | c << 6)
}

fn parse_inst(
    gen: Gen,
    line: &str,
    pc: usize,
    labels: &HashMap<String, usize>,
    first_pass: bool,
) -> Result<Inst, String> {
    let (mnemonic, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let (info, mut enc) = lookup(gen, mnemonic)?;
    let mut slots: Vec<Slot> = match enc {
        Encoding::Vop3a => crate::decode::vop3_slots(info),
        _ => info.slots.to_vec(),
    };
    if matches!(enc, Encoding::Vop3a) && slots.iter().any(|s| s.0 == Field::Sdst3b) {
        enc = Encoding::Vop3b;
    }
    if info.family == Family::Vop3 && slots.iter().any(|s| s.0 == Field::Sdst3b) {
        enc = Encoding::Vop3b;
    }
    // Split operands from trailing modifiers: the last comma part holds `operand mod mod...`.
    let mut parts = split_top(rest, ',');
    let whole_last = slots.last().is_some_and(|s| s.0 == Field::Waitcnt);
    let mut mods: Vec<String> = Vec::new();
    if let Some(last) = parts.pop() {
        let toks = split_top(&last, ' ');
        if whole_last {
            parts.push(last);
        } else if !toks.is_empty() {
            let first_is_mod = {
                let t = &toks[0];
                t.split_once(':')
                    .is_some_and(|(k, _)| !k.contains('[') && !k.contains('('))
                    || matches!(
                        t.as_str(),
                        "glc"
                            | "slc"
                            | "gds"
                            | "offen"
                            | "idxen"
                            | "addr64"
                            | "lds"
                            | "tfe"
                            | "clamp"
                            | "nv"
                            | "unorm"
                            | "da"
                            | "r128"
                            | "a16"
                            | "lwe"
                            | "d16"
                    )
            };
            let n_ops = if first_is_mod { 0 } else { 1 };
            parts.extend(toks[..n_ops].iter().cloned());
            mods.extend(toks[n_ops..].iter().cloned());
        }
    }
    // gfx8 prints VOPC SDWA without the `_sdwa` suffix; the selects identify it.
    if enc == Encoding::Vopc && mods.iter().any(|t| t.starts_with("src0_sel:")) {
        enc = Encoding::Sdwa;
    }
    let mut m = VopMods::default();
    if enc == Encoding::Vop3p && !info.opcode.name().starts_with("v_mad_mix") {
        m.op_sel_hi = 7;
    }
    let mut mem = MemFields::default();
    // Unused SDWA fields are zero (VOP1 has no src1_sel; VOPC no dst_sel/dst_unused).
    let vopc = info.family == Family::Vopc;
    let mut sdwa = Sdwa {
        dst_sel: if vopc { 0 } else { 6 },
        dst_unused: if vopc { 0 } else { 2 },
        src0_sel: 6,
        src1_sel: if info.family == Family::Vop1 { 0 } else { 6 },
        sext: 0,
    };
    let mut dpp = Dpp {
        ctrl: 0xe4,
        row_mask: 0xf,
        bank_mask: 0xf,
        bound_ctrl: false,
    };
    let mut simm16: Option<u16> = if matches!(enc, Encoding::Sopk | Encoding::Sopp) {
        Some(0)
    } else {
        None
    };
    if enc == Encoding::Mtbuf {
        mem.dfmt = 1;
    }
    // Returning FLAT atomics carry an extra leading vdst operand.
    let flat_like = matches!(enc, Encoding::Flat | Encoding::Global | Encoding::Scratch);
    let glc_mod = mods.iter().any(|t| t == "glc");
    if flat_like && info.has(flags::ATOMIC) && glc_mod {
        slots.insert(0, Slot(Field::Vdata, 1));
    }
    // Optional operands: SOPP s_endpgm immediate.
    if parts.len() + 1 == slots.len() && info.opcode == crate::inst::Opcode::S_ENDPGM {
        slots.clear();
    }
    if parts.len() != slots.len() {
        return Err(format!(
            "`{mnemonic}` takes {} operands, got {}",
            slots.len(),
            parts.len()
        ));
    }
    let mut operands = Vec::new();
    for (k, (slot, text)) in slots.iter().zip(&parts).enumerate() {
        let _ = k;
        let (value, dwords) = match slot.0 {
            Field::Simm16 => {
                let v = parse_int(text).ok_or_else(|| format!("bad immediate `{text}`"))?;
                simm16 = Some(v as u16);
                (Operand::Imm(v as u16 as u32), 0)
            }
            Field::Branch => {
                let d = match parse_int(text) {
                    Some(v) => v,
                    None => match labels.get(text.as_str()) {
                        Some(&t) => (t as i64 - (pc as i64 + 4)) / 4,
                        None if first_pass => 0,
                        None => return Err(format!("unknown label `{text}`")),
                    },
                };
                simm16 = Some(d as u16);
                (Operand::Imm(d as u16 as u32), 0)
            }
            Field::Waitcnt => {
                let v = waitcnt(gen, text)?;
                simm16 = Some(v);
                (Operand::Imm(v as u32), 0)
            }
            Field::Sendmsg => {
                let v = sendmsg(gen, text)?;
                simm16 = Some(v);
                (Operand::Imm(v as u32), 0)
            }
            Field::Hwreg => {
                let v = hwreg(gen, text)?;
                simm16 = Some(v);
                (Operand::Imm(v as u32), 0)
            }
            Field::GprIdx => {
                let v = gpr_idx(text)?;
                if enc == Encoding::Sopp {
                    simm16 = Some(v);
                }
                (Operand::Imm(v as u32), 0)
            }
            Field::Literal => {
                let v = parse_int(text).ok_or_else(|| format!("bad literal `{text}`"))?;
                (Operand::Literal(v as u32), 1)
            }
            Field::SdataImm => (
                Operand::Imm(parse_int(text).ok_or("bad immediate")? as u32),
                0,
            ),
            Field::Soff => match parse_int(text) {
                Some(v) if text.starts_with("0x") || v >= 0 => {
                    mem.imm = true;
                    mem.offset = v as i32;
                    if enc == Encoding::Smrd && v > 255 {
                        mem.imm = false;
                        (Operand::Literal(v as u32), 1)
                    } else {
                        (Operand::Imm(v as u32), 0)
                    }
                }
                _ => value(text)?,
            },
            Field::Src0
            | Field::Src1
            | Field::Src2
            | Field::Vsrc1
            | Field::Ssrc0
            | Field::Ssrc1 => {
                let mut s = source(text)?;
                let i = match slot.0 {
                    Field::Src0 | Field::Ssrc0 => 0,
                    Field::Src2 => 2,
                    _ => 1,
                };
                // A relocated symbol keeps its literal slot whatever its placeholder value.
                if !s.op.is_reg() && !RELOCATED_SYMBOLS.contains(&text.as_str()) {
                    let literal_ok = !matches!(
                        enc,
                        Encoding::Vop3a
                            | Encoding::Vop3b
                            | Encoding::Vop3p
                            | Encoding::Sdwa
                            | Encoding::Dpp
                    );
                    let ty = operand_ty(info, slot.0);
                    s.op = operand::constant(s.op, slot.1, ty, gen, literal_ok);
                }
                m.neg |= (s.neg as u8) << i;
                m.abs |= (s.abs as u8) << i;
                sdwa.sext |= (s.sext as u8) << i;
                (s.op, if s.op.is_reg() { s.dwords } else { slot.1 })
            }
            Field::Attr => (Operand::Imm(interp_attr(text)?), 0),
            Field::InterpParam => {
                let p = ["p10", "p20", "p0"]
                    .iter()
                    .position(|p| *p == text.as_str());
                let p = p.ok_or_else(|| format!("bad interpolation parameter `{text}`"))?;
                (Operand::Imm(p as u32), 0)
            }
            _ => value(text)?,
        };
        let dwords = if slot.0 == Field::Addr && value == Operand::Off {
            1
        } else if value.is_reg() {
            dwords
        } else {
            slot.1
        };
        operands.push(Opnd {
            field: slot.0,
            value,
            dwords,
        });
    }
    for t in &mods {
        let (k, v) = t.split_once(':').unwrap_or((t.as_str(), ""));
        let int = || parse_int(v).ok_or_else(|| format!("bad value in `{t}`"));
        match k {
            "clamp" => m.clamp = true,
            // VINTRP-in-VOP3 `high`: bit 8 of the attribute operand (the src0 field).
            "high" if enc == Encoding::Vop3a => {
                let attr = operands.iter_mut().find(|o| o.field == Field::Attr);
                match attr {
                    Some(Opnd {
                        value: Operand::Imm(v),
                        ..
                    }) => *v |= 0x100,
                    _ => return Err(format!("unknown modifier `{t}`")),
                }
            }
            "mul" => m.omod = if v == "2" { 1 } else { 2 },
            "div" => m.omod = 3,
            "op_sel" => m.op_sel = bits_list(v)?,
            "op_sel_hi" => {
                // Entries for absent sources keep their default of 1 (LLVM VOP3P encoding).
                let n = v.split(',').count() as u32;
                m.op_sel_hi = bits_list(v)? | (0b111u8 << n & 0b111);
            }
            "neg_lo" => m.neg = bits_list(v)?,
            "neg_hi" => m.neg_hi = bits_list(v)?,
            "dst_sel" => sdwa.dst_sel = pick(&SEL, v)?,
            "dst_unused" => sdwa.dst_unused = pick(&UNUSED, v)?,
            "src0_sel" => sdwa.src0_sel = pick(&SEL, v)?,
            "src1_sel" => sdwa.src1_sel = pick(&SEL, v)?,
            "row_mask" => dpp.row_mask = int()? as u8,
            "bank_mask" => dpp.bank_mask = int()? as u8,
            "bound_ctrl" => dpp.bound_ctrl = true,
            "quad_perm" | "row_shl" | "row_shr" | "row_ror" | "wave_shl" | "wave_rol"
            | "wave_shr" | "wave_ror" | "row_mirror" | "row_half_mirror" | "row_bcast" => {
                dpp.ctrl = dpp_ctrl(t)?
            }
            "offset" if v.starts_with("swizzle") => mem.offset = swizzle(v)? as i32,
            "offset" => mem.offset = int()? as i32,
            "offset0" => mem.offset0 = int()? as u8,
            "offset1" => mem.offset1 = int()? as u8,
            "glc" => mem.glc = true,
            "slc" => mem.slc = true,
            "tfe" => mem.tfe = true,
            "lds" => mem.lds = true,
            "gds" => mem.gds = true,
            "nv" => mem.nv = true,
            "offen" => mem.offen = true,
            "idxen" => mem.idxen = true,
            "addr64" => mem.addr64 = true,
            "dmask" if enc == Encoding::Mimg => mem.dmask = int()? as u8 & 0xf,
            "unorm" if enc == Encoding::Mimg => mem.unorm = true,
            "da" if enc == Encoding::Mimg => mem.da = true,
            "lwe" if enc == Encoding::Mimg => mem.lwe = true,
            // Bit 15: `r128` before gfx9, `a16` on gfx9.
            "r128" if enc == Encoding::Mimg && gen != Gen::Gfx9 => mem.r128 = true,
            "a16" if enc == Encoding::Mimg && gen == Gen::Gfx9 => mem.r128 = true,
            "d16"
                if enc == Encoding::Mimg
                    && gen >= Gen::Gfx8
                    && crate::tables::mimg::has_d16(info) =>
            {
                mem.d16 = true
            }
            "format" => {
                let inner = v
                    .strip_prefix('[')
                    .and_then(|r| r.strip_suffix(']'))
                    .ok_or("bad format")?;
                for f in inner.split(',') {
                    if let Ok(d) = pick(&DFMT, f) {
                        mem.dfmt = d;
                    } else {
                        mem.nfmt = pick(&NFMT, f)?;
                    }
                }
            }
            _ => return Err(format!("unknown modifier `{t}`")),
        }
    }
    if enc == Encoding::Ds && !info.has(flags::DS_2ADDR) {
        mem.offset0 = mem.offset as u8;
        mem.offset1 = (mem.offset >> 8) as u8;
    }
    if flat_like {
        mem.seg = match enc {
            Encoding::Scratch => 1,
            Encoding::Global => 2,
            _ => 0,
        };
    }
    Ok(Inst {
        gen,
        opcode: info.opcode,
        encoding: enc,
        info,
        operands,
        mods: m,
        sdwa: (enc == Encoding::Sdwa).then_some(sdwa),
        dpp: (enc == Encoding::Dpp).then_some(dpp),
        mem,
        simm16,
        len: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_comments() {
        // Expected bytes from llvm-mc-14 -mcpu=tonga -show-encoding:
        //   s_branch 1   ; [0x01,0x00,0x82,0xbf]
        //   s_nop 0      ; [0x00,0x00,0x80,0xbf]
        //   s_endpgm     ; [0x00,0x00,0x81,0xbf]
        let src = "  .text\nstart: ; entry\n s_branch done // skip\n s_nop 0\ndone:\n s_endpgm\n";
        let b = assemble(Gen::Gfx8, src).unwrap();
        assert_eq!(
            b,
            [0x01, 0x00, 0x82, 0xbf, 0x00, 0x00, 0x80, 0xbf, 0x00, 0x00, 0x81, 0xbf]
        );
    }

    #[test]
    fn every_swizzle_offset_prints_and_reads_back() {
        let n = wavejit_isa::testkit::text_round_trip(
            "ds_swizzle offsets",
            0..=u16::MAX,
            |&v| crate::print::swizzle(v),
            |text| match text.starts_with("swizzle") {
                true => swizzle(text),
                false => text.parse::<u16>().map_err(|e| e.to_string()),
            },
        );
        assert_eq!(n, 1 << 16);
    }

    #[test]
    fn error_has_line() {
        let e = assemble(Gen::Gfx9, "s_nop 0\nv_bogus v0\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
