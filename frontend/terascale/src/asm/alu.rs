//! ALU clause lines: slot lines in the printer's syntax (LLVM's operand order, `*` for LAST,
//! `ExecMask,` / `Pred,` before the destination, `(MASKED)`, `+` for relative operands,
//! output modifiers, `Pred_sel_*`, `BS:*`, `NAME:value` tokens), LDS_IDX_OP lines, and literal
//! lines.
use super::{parse_field, parse_num, split_top, words, Tokens};
use crate::chip::ChipClass;
use crate::inst::{sel, AluInst, AluSrc, LdsIdx, Slot};
use crate::opcode::AluOp;
use crate::print::BANK_SWIZZLE;
use crate::tables::{self, AluEnc, AluInfo, LdsInfo};

const CHANS: &str = "XYZW";

/// Literal lines start with the (signed) integer of the first literal.
pub(super) fn is_literal_line(t: &str) -> bool {
    t.trim_start_matches('-')
        .starts_with(|c: char| c.is_ascii_digit())
}

/// `a(float), b(float)` -> [a, b] (the parenthesised floats are not read).
pub(super) fn parse_literals(t: &str) -> Result<[u32; 2], String> {
    let pieces = split_top(t, ',');
    if pieces.len() != 2 {
        return Err(format!("a literal line holds two literals, found `{t}`"));
    }
    let mut out = [0u32; 2];
    for (o, p) in out.iter_mut().zip(pieces) {
        let int = p.split('(').next().unwrap_or("").trim();
        *o = match parse_num(int) {
            Some(v) if (i32::MIN as i64..=u32::MAX as i64).contains(&v) => v as u32,
            _ => return Err(format!("bad literal `{p}`")),
        };
    }
    Ok(out)
}

fn chan(c: Option<char>) -> Result<u8, String> {
    c.and_then(|c| CHANS.find(c))
        .map(|i| i as u8)
        .ok_or_else(|| {
            format!(
                "expected a channel X, Y, Z or W, found `{}`",
                c.unwrap_or(' ')
            )
        })
}

/// `<n>.<C>` after a register prefix.
fn index_chan(t: &str, bits: u32, what: &str) -> Result<(u32, u8), String> {
    let (n, c) = t
        .split_once('.')
        .ok_or_else(|| format!("expected `{what}<n>.<chan>`"))?;
    let mut cs = c.chars();
    let ch = chan(cs.next())?;
    if cs.next().is_some() {
        return Err(format!("bad channel `.{c}`"));
    }
    Ok((parse_field(n, bits, what)?, ch))
}

/// A relative GPR `T(<n> + AR.x).<C>`.
fn rel_gpr(t: &str) -> Option<Result<(u32, u8), String>> {
    let r = t.strip_prefix("T(")?;
    Some((|| {
        let (n, c) = r
            .split_once(" + AR.x).")
            .ok_or_else(|| format!("bad relative register `{t}`"))?;
        index_chan(&format!("{n}.{c}"), 7, "T")
    })())
}

/// A source operand's register text (no modifiers).
fn parse_src_reg(t: &str, rel: bool) -> Result<(u16, u8), String> {
    let fixed = [
        ("0.0", sel::ZERO),
        ("1.0", sel::ONE),
        ("1", sel::ONE_INT),
        ("0.5", sel::HALF),
        ("PS", sel::PS),
        ("OQA", sel::LDS_OQ_A),
        ("OQB", sel::LDS_OQ_B),
        ("OQAP", sel::LDS_OQ_A_POP),
        ("OQBP", sel::LDS_OQ_B_POP),
        ("LDS_DIRECT_A", sel::LDS_DIRECT_A),
        ("LDS_DIRECT_B", sel::LDS_DIRECT_B),
    ];
    if let Some(&(_, s)) = fixed.iter().find(|f| f.0 == t) {
        return Ok((s, 0));
    }
    if let Some(r) = rel_gpr(t) {
        if !rel {
            return Err(format!("`{t}` is relative: it ends with `+`"));
        }
        let (n, c) = r?;
        return Ok((n as u16, c));
    }
    let kc = [
        ("KC0[", sel::KCACHE0),
        ("KC1[", sel::KCACHE1),
        ("KC2[", sel::KCACHE2),
        ("KC3[", sel::KCACHE3),
    ];
    for (p, base) in kc {
        if let Some(r) = t.strip_prefix(p) {
            let (n, c) = index_chan(&r.replacen(']', "", 1), 5, "KC index")?;
            return Ok((base + n as u16, c));
        }
    }
    if let Some(c) = t.strip_prefix("literal.") {
        let ch = chan(c.to_ascii_uppercase().chars().next())?;
        if c.len() != 1 || !c.starts_with(|x: char| x.is_ascii_lowercase()) {
            return Err(format!("bad literal channel `{t}`"));
        }
        return Ok((sel::LITERAL, ch));
    }
    if let Some(c) = t.strip_prefix("PV.") {
        let ch = chan(c.chars().next())?;
        if c.len() != 1 {
            return Err(format!("bad operand `{t}`"));
        }
        return Ok((sel::PV, ch));
    }
    if let Some(r) = t.strip_prefix("SEL") {
        let (n, c) = index_chan(r, 9, "SEL")?;
        return Ok((n as u16, c));
    }
    if let Some(r) = t.strip_prefix('T') {
        if rel {
            return Err(format!(
                "relative GPR operands are written T(n + AR.x), not `{t}`"
            ));
        }
        let (n, c) = index_chan(r, 7, "T")?;
        return Ok((n as u16, c));
    }
    Err(format!("bad operand `{t}`"))
}

/// `[-][|]reg[|][+]`.
fn parse_src(t: &str, mods: bool) -> Result<AluSrc, String> {
    let mut s = AluSrc::default();
    let mut r = t;
    if let Some(x) = r.strip_prefix('-') {
        s.neg = true;
        r = x;
    }
    if let Some(x) = r.strip_suffix('+') {
        s.rel = true;
        r = x;
    }
    if let Some(x) = r.strip_prefix('|') {
        s.abs = true;
        r = x
            .strip_suffix('|')
            .ok_or_else(|| format!("unbalanced `|` in `{t}`"))?;
    }
    if !mods && (s.neg || s.abs) {
        return Err(format!("`{t}`: this operand takes no modifiers"));
    }
    let (sel, chan) = parse_src_reg(r, s.rel)?;
    s.sel = sel;
    s.chan = chan;
    Ok(s)
}

/// The fields a destination sets.
struct Dst {
    gpr: u8,
    rel: bool,
    chan: u8,
    write: bool,
    omod: u8,
}

fn parse_dst(t: &str, op: AluOp) -> Result<Dst, String> {
    let mut r = t;
    let mut omod = 0;
    for (sfx, v) in [(" * 2.0", 1), (" * 4.0", 2), (" / 2.0", 3)] {
        if let Some(x) = r.strip_suffix(sfx) {
            omod = v;
            r = x;
        }
    }
    let rel = r.ends_with('+');
    r = r.trim_end_matches('+');
    let write = !r.ends_with(" (MASKED)");
    r = r.trim_end_matches(" (MASKED)");
    let pred = op.name().starts_with("PRED_SET");
    // LLVM's names for GPR 0 channel X as MOVA_INT's AR.x and a PRED_SET* predicate result.
    let implicit =
        (r == "AR.x" && op == AluOp::MOVA_INT) || (r == "PredicateBit" && pred && !write);
    let (gpr, chan) = if implicit && !rel {
        (0, 0)
    } else if let Some(g) = rel_gpr(r) {
        if !rel {
            return Err(format!("`{r}` is relative: it ends with `+`"));
        }
        g?
    } else if let Some(x) = r.strip_prefix('T') {
        if rel {
            return Err(format!(
                "relative destinations are written T(n + AR.x), not `{r}`"
            ));
        }
        index_chan(x, 7, "T")?
    } else {
        return Err(format!("bad destination `{t}`"));
    };
    Ok(Dst {
        gpr: gpr as u8,
        rel,
        chan,
        write,
        omod,
    })
}

/// Words after the operands: `Pred_sel_*`, `BS:*` (possibly run together) and tokens.
fn parse_tail<'a>(ws: &[&'a str], pred: &mut u8, bs: &mut u8) -> Result<Vec<&'a str>, String> {
    let mut tokens = Vec::new();
    for &w in ws {
        let mut w = w;
        for (name, v) in [("Pred_sel_zero", 2), ("Pred_sel_one", 3), ("Pred_sel_1", 1)] {
            if let Some(x) = w.strip_prefix(name) {
                *pred = v;
                w = x;
                break;
            }
        }
        if w.is_empty() {
            continue;
        }
        if w.starts_with("BS:") {
            *bs = BANK_SWIZZLE
                .iter()
                .position(|b| *b == w)
                .ok_or_else(|| format!("unknown bank swizzle `{w}`"))? as u8;
            continue;
        }
        tokens.push(w);
    }
    Ok(tokens)
}

/// Parses one slot line (leading spaces removed).
pub(super) fn parse_alu(class: ChipClass, t: &str) -> Result<AluInst, String> {
    if t == "GROUP_BARRIER" {
        return Ok(llvm_group_barrier(class));
    }
    // Longest name first: `ADD_INT` before `ADD`, `MUL NON-IEEE` whole.
    let mut alus: Vec<&AluInfo> = tables::alu_rows()
        .iter()
        .filter(|r| r.opcode(class).is_some() && r.op != AluOp::LDS_IDX_OP)
        .collect();
    alus.sort_by_key(|r| std::cmp::Reverse(r.llvm.len()));
    for info in alus {
        let Some(rest) = t.strip_prefix(info.llvm) else {
            continue;
        };
        if let Some(r) = parse_alu_name_tail(class, info, rest) {
            return r;
        }
    }
    let mut ldss: Vec<&LdsInfo> = tables::lds_rows()
        .iter()
        .filter(|r| r.opcode[class.index()] != tables::NA)
        .collect();
    ldss.sort_by_key(|r| std::cmp::Reverse(r.text.len()));
    for info in ldss {
        if let Some(rest) = t.strip_prefix(info.text) {
            if rest.starts_with([' ', '*']) {
                return parse_lds(class, info, rest);
            }
        }
    }
    let m = t.split_whitespace().next().unwrap_or(t);
    Err(format!("unknown ALU instruction `{m}`"))
}

/// After the name: `[_ENC<n>][_SAT] <*| > operands`; `None` if this is not the name's end.
fn parse_alu_name_tail(
    class: ChipClass,
    info: &AluInfo,
    rest: &str,
) -> Option<Result<AluInst, String>> {
    let mut r = rest;
    let mut opcode = info.opcode[class.index()];
    if let Some(x) = r.strip_prefix("_ENC") {
        let n = x.bytes().take_while(u8::is_ascii_digit).count();
        let code: u16 = x[..n].parse().ok()?;
        r = &x[n..];
        if class != ChipClass::Cayman || tables::cayman_op2_alias(code) != Some(info.op) {
            return Some(Err(format!(
                "{}_ENC{code}: not an encoding of {} on this chip class",
                info.llvm, info.llvm
            )));
        }
        opcode = code;
    }
    let clamp = match r.strip_prefix("_SAT") {
        Some(x) => {
            r = x;
            true
        }
        None => false,
    };
    let last = if let Some(x) = r.strip_prefix(" * ") {
        r = x;
        true
    } else if let Some(x) = r.strip_prefix("   ") {
        r = x;
        false
    } else {
        return None;
    };
    Some(parse_alu_operands(info, opcode, clamp, last, r))
}

fn parse_alu_operands(
    info: &AluInfo,
    opcode: u16,
    clamp: bool,
    last: bool,
    text: &str,
) -> Result<AluInst, String> {
    let name = info.llvm;
    let wrap = |e: String| format!("{name}: {e}");
    let mut r = text;
    let mut update_exec_mask = false;
    let mut update_pred = false;
    if let Some(x) = r.strip_prefix("ExecMask,") {
        update_exec_mask = true;
        r = x;
    }
    if let Some(x) = r.strip_prefix("Pred,") {
        update_pred = true;
        r = x;
    }
    let op3 = info.enc == AluEnc::Op3;
    let nsrc = match (info.enc, info.srcs) {
        (AluEnc::Op3, _) => 3,
        (AluEnc::Op2, 1) => 1,
        _ => 2,
    };
    // `dst, src.., tail`: the tail after the last comma holds the predicate, bank swizzle and
    // tokens (it may be missing when trailing spaces were trimmed).
    let mut pieces = split_top(r, ',');
    if pieces.len() == nsrc + 1 {
        pieces.push("");
    }
    if pieces.len() != nsrc + 2 || pieces[..=nsrc].iter().any(|p| p.is_empty()) {
        return Err(wrap(format!(
            "expected a destination and {nsrc} source(s), found `{text}`"
        )));
    }
    if op3 && (update_exec_mask || update_pred) {
        return Err(wrap(
            "OP3 instructions update neither exec mask nor predicate".into(),
        ));
    }
    let dst = parse_dst(pieces[0], info.op).map_err(wrap)?;
    if op3 && (!dst.write || dst.omod != 0) {
        return Err(wrap(
            "OP3 instructions have no write mask or output modifier".into(),
        ));
    }
    let mut src = [AluSrc::default(); 3];
    for k in 0..nsrc {
        src[k] = parse_src(pieces[k + 1], true).map_err(wrap)?;
        if op3 && src[k].abs {
            return Err(wrap("OP3 sources have no absolute value".into()));
        }
    }
    let (mut pred_sel, mut bank_swizzle) = (0, 0);
    let tail = words(pieces.get(nsrc + 1).copied().unwrap_or(""));
    let toks = parse_tail(&tail, &mut pred_sel, &mut bank_swizzle).map_err(wrap)?;
    let mut toks = Tokens::new(&toks);
    if nsrc == 1 {
        if let Some(v) = toks.value("SRC1") {
            src[1] = parse_src(v, true).map_err(wrap)?;
        }
    }
    let index_mode = toks.num("INDEX_MODE", 3, 0).map_err(wrap)? as u8;
    toks.finish().map_err(wrap)?;
    Ok(AluInst {
        op: info.op,
        enc: info.enc,
        opcode,
        slot: Slot::from_chan(dst.chan),
        src,
        index_mode,
        pred_sel,
        last,
        bank_swizzle,
        dst_gpr: dst.gpr,
        dst_rel: dst.rel,
        dst_chan: dst.chan,
        clamp,
        update_exec_mask,
        update_pred,
        write: dst.write,
        omod: dst.omod,
        lds: None,
    })
}

/// LLVM's operand-less GROUP_BARRIER (the printer's `is_llvm_group_barrier`).
fn llvm_group_barrier(class: ChipClass) -> AluInst {
    let opcode = tables::alu_info(AluOp::GROUP_BARRIER).opcode[class.index()];
    AluInst::llvm_group_barrier(opcode, Slot::X)
}

/// An LDS_IDX_OP line after its name.
fn parse_lds(class: ChipClass, info: &LdsInfo, rest: &str) -> Result<AluInst, String> {
    let name = info.text;
    let wrap = |e: String| format!("{name}: {e}");
    // Three-source forms run the LAST mark into the name (`LDS_CMPST* T1.X, ...`).
    let (last, r) = if info.srcs == 3 {
        match rest.get(..2) {
            Some("* ") => (true, &rest[2..]),
            Some("  ") => (false, &rest[2..]),
            _ => {
                return Err(wrap(format!(
                    "expected `*` or ` ` then the operands, found `{rest}`"
                )))
            }
        }
    } else {
        match rest.get(..3) {
            Some(" * ") => (true, &rest[3..]),
            Some("   ") => (false, &rest[3..]),
            _ => {
                return Err(wrap(format!(
                    "expected ` * ` or three spaces, found `{rest}`"
                )))
            }
        }
    };
    let nsrc = info.srcs as usize;
    let mut pieces = split_top(r, ',');
    // Returning one- and two-source ops name their queue first (LLVM's asm strings).
    if info.ret && nsrc < 3 {
        if pieces.first() != Some(&"OQAP") {
            return Err(wrap(
                "the first operand of a returning LDS op is OQAP".into(),
            ));
        }
        pieces.remove(0);
    }
    // One source: `OQAP, src pred` (no comma before the predicate).
    let (srcs, tail): (Vec<&str>, Vec<&str>) = if nsrc == 1 {
        if pieces.len() != 1 {
            return Err(wrap(format!("expected one source, found `{r}`")));
        }
        let ws = words(pieces[0]);
        (
            ws.first().copied().into_iter().collect(),
            ws.get(1..).unwrap_or(&[]).to_vec(),
        )
    } else {
        if pieces.len() < nsrc || pieces.len() > nsrc + 1 {
            return Err(wrap(format!("expected {nsrc} sources, found `{r}`")));
        }
        let tail = pieces.get(nsrc).map(|t| words(t)).unwrap_or_default();
        (pieces[..nsrc].to_vec(), tail)
    };
    if srcs.len() != nsrc {
        return Err(wrap("missing source".into()));
    }
    let mut src = [AluSrc::default(); 3];
    for (k, s) in srcs.iter().enumerate() {
        src[k] = parse_src(s, false).map_err(wrap)?;
    }
    let (mut pred_sel, mut bank_swizzle) = (0, 0);
    let toks = parse_tail(&tail, &mut pred_sel, &mut bank_swizzle).map_err(wrap)?;
    if bank_swizzle != 0 {
        return Err(wrap("LDS instructions take BANK_SWIZZLE:n".into()));
    }
    let mut toks = Tokens::new(&toks);
    for (k, s) in src.iter_mut().enumerate().skip(nsrc) {
        if let Some(v) = toks.value(&format!("SRC{k}")) {
            *s = parse_src(v, false).map_err(wrap)?;
        }
    }
    let offset = toks.num("OFFSET", 6, 0).map_err(wrap)? as u8;
    let dst_chan = toks.num("DST_CHAN", 2, 0).map_err(wrap)? as u8;
    let bank_swizzle = toks.num("BANK_SWIZZLE", 3, 0).map_err(wrap)? as u8;
    let index_mode = toks.num("INDEX_MODE", 3, 0).map_err(wrap)? as u8;
    toks.finish().map_err(wrap)?;
    let idx = tables::alu_info(AluOp::LDS_IDX_OP);
    Ok(AluInst {
        op: AluOp::LDS_IDX_OP,
        enc: AluEnc::Op3,
        opcode: idx.opcode[class.index()],
        slot: Slot::from_chan(dst_chan),
        src,
        index_mode,
        pred_sel,
        last,
        bank_swizzle,
        dst_gpr: 0,
        dst_rel: false,
        dst_chan,
        clamp: false,
        update_exec_mask: false,
        update_pred: false,
        write: false,
        omod: 0,
        lds: Some(LdsIdx {
            op: info.op,
            offset,
        }),
    })
}
