//! CF program lines: CF_WORD instructions (`JUMP @10 POP:1`, `TEX 0 @18`, `CF_END`), CF_ALU
//! clause instructions with their kcache windows (and ALU_EXTENDED's line), and
//! CF_ALLOC_EXPORT instructions (`MEM_RAT_CACHELESS STORE_DWORD T2.X, T3.X`, `EXPORT T1`),
//! each followed by its `NAME` / `NAME:value` tokens.
use super::{parse_field, split_top, words, Cursor, Tokens};
use crate::chip::ChipClass;
use crate::inst::*;
use crate::tables::{self, CfAluOp, CfOp, CfSyntax, RatInst};

pub(super) fn cf_alu_op(class: ChipClass, m: &str) -> Option<CfAluOp> {
    tables::cf_alu_rows()
        .iter()
        .find(|r| {
            r.text == m && r.op != CfAluOp::ALU_EXTENDED && r.opcode[class.index()] != tables::NA
        })
        .map(|r| r.op)
}

pub(super) fn cf_mem_op(class: ChipClass, m: &str) -> Option<tables::CfMemOp> {
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
pub(super) fn parse_alu_extended(rest: &str) -> Result<(AluExt, [KCache; 2]), String> {
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
pub(super) fn parse_cf_alu(op: CfAluOp, rest: &str) -> Result<CfAlu, String> {
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

pub(super) fn parse_cf_word(class: ChipClass, m: &str, ws: &[&str]) -> Result<CfWord, String> {
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

pub(super) fn parse_cf_mem(
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
