//! Fetch clause lines: LLVM's VTX_READ_* templates, and every other fetch word in the
//! field-named syntax of [`crate::print::fetch`] (its head, `NAME:value` tokens, `RSVDn:`).
use super::{parse_num, split_top, words, Cursor};
use crate::chip::ChipClass;
use crate::inst::FetchInst;
use crate::print::fetch::{
    field, gds_mnemonic, vtx_read_words, Family, Part, COORD_TYPE, SWIZZLE, VTX_READS,
};
use crate::tables::{self, FetchOp, LdsOp};

/// Parses one fetch line (leading spaces removed).
pub(super) fn parse_fetch(class: ChipClass, t: &str) -> Result<FetchInst, String> {
    let m = t.split_whitespace().next().unwrap_or(t);
    let rest = &t[m.len()..];
    if let Some(k) = VTX_READS.iter().position(|r| r.0 == m) {
        return parse_vtx_read(class, k, rest).map_err(|e| format!("{m}: {e}"));
    }
    let gds = LdsOp::ALL.iter().copied().find(|&op| {
        gds_mnemonic(op) == m && tables::lds_info(op).opcode[class.index()] != tables::NA
    });
    let op = match gds {
        Some(_) => FetchOp::MEM_GDS,
        None => tables::vtx_rows()
            .iter()
            .chain(tables::mem_rd_rows())
            .chain(tables::tex_rows())
            .find(|r| r.text == m && r.opcode[class.index()] != tables::NA)
            .map(|r| r.op)
            .ok_or_else(|| format!("unknown fetch instruction `{m}`"))?,
    };
    parse_fields(class, op, gds, rest).map_err(|e| format!("{m}: {e}"))
}

/// ` T<dst><sfx>, T<src>.X, <offset>, #<buffer>`.
fn parse_vtx_read(class: ChipClass, k: usize, rest: &str) -> Result<FetchInst, String> {
    let pieces = split_top(rest.trim(), ',');
    if pieces.len() != 4 {
        return Err(format!(
            "expected `T<dst>{}, T<src>.X, offset, #buffer`",
            VTX_READS[k].4
        ));
    }
    let reg = |p: &str, sfx: &str| -> Result<u8, String> {
        let n = p
            .strip_prefix('T')
            .and_then(|x| x.strip_suffix(sfx))
            .ok_or_else(|| format!("expected `T<n>{sfx}`, found `{p}`"))?;
        super::parse_field(n, 7, "register").map(|v| v as u8)
    };
    let dst = reg(pieces[0], VTX_READS[k].4)?;
    let src = reg(pieces[1], ".X")?;
    let offset = super::parse_field(pieces[2], 16, "offset")? as u16;
    let buffer = pieces[3]
        .strip_prefix('#')
        .ok_or_else(|| format!("expected `#buffer`, found `{}`", pieces[3]))?;
    let buffer = super::parse_field(buffer, 8, "buffer id")? as u8;
    Ok(FetchInst {
        op: FetchOp::VTX_FETCH,
        words: vtx_read_words(class, k, dst, src, buffer, offset),
    })
}

fn parse_fields(
    class: ChipClass,
    op: FetchOp,
    gds: Option<LdsOp>,
    rest: &str,
) -> Result<FetchInst, String> {
    let family = Family::of(op);
    let fields = family.fields(class);
    let mut words3 = [0u32; 3];
    let code = tables::fetch_info(op).opcode[class.index()] as u32;
    words3[0] = match family {
        Family::MemRd | Family::Gds => 2 | code << 8,
        _ => code,
    };
    let mut shown: Vec<&str> = Vec::new();
    if let Some(g) = gds {
        let code = tables::lds_info(g).opcode[class.index()] as i64;
        field(&fields, "GDS_OP").set(&mut words3, code);
        shown.push("GDS_OP");
    }
    let mut c = Cursor { s: rest };
    for part in family.head() {
        match *part {
            Part::Lit(t) => c.lit(t)?,
            Part::Num(name) => {
                let fl = field(&fields, name);
                let v = c.digits(fl.width, name)?;
                fl.set(&mut words3, v as i64);
                shown.push(name);
            }
            Part::Swz(names) | Part::Ct(names) => {
                let set: &[char] = match part {
                    Part::Swz(_) => &SWIZZLE,
                    _ => &COORD_TYPE,
                };
                let mut chars = c.s.chars();
                for name in names {
                    let ch = chars.next().unwrap_or(' ');
                    let v = set
                        .iter()
                        .position(|&x| x == ch)
                        .ok_or_else(|| format!("bad select `{ch}` for {name}"))?;
                    field(&fields, name)
                        .set(&mut words3, v as i64)
                        .ok_or_else(|| format!("select `{ch}` does not fit {name}"))?;
                    shown.push(name);
                }
                c.s = chars.as_str();
            }
        }
    }
    let reserved = family.reserved(class);
    let mut seen: Vec<&str> = Vec::new();
    for w in words(c.s) {
        let (name, v) = w
            .split_once(':')
            .ok_or_else(|| format!("expected NAME:value, found `{w}`"))?;
        if seen.contains(&name) {
            return Err(format!("{name} given twice"));
        }
        seen.push(name);
        let value = parse_num(v).ok_or_else(|| format!("bad number in `{w}`"))?;
        if let Some(k) = name.strip_prefix("RSVD") {
            let k: usize = match k {
                "0" => 0,
                "1" => 1,
                "2" => 2,
                _ => return Err(format!("unknown token `{w}`")),
            };
            let bits = u32::try_from(value).map_err(|_| format!("bad bits in `{w}`"))?;
            if bits & !reserved[k] != 0 {
                return Err(format!(
                    "{w}: bits outside the reserved bits {:#x}",
                    reserved[k]
                ));
            }
            words3[k] |= bits;
            continue;
        }
        let fl = fields
            .iter()
            .find(|f| f.name == name && !shown.contains(&f.name))
            .ok_or_else(|| format!("unknown token `{w}`"))?;
        fl.set(&mut words3, value)
            .ok_or_else(|| format!("{w}: does not fit in {} bits", fl.width))?;
    }
    Ok(FetchInst { op, words: words3 })
}
