//! Disassembler: the text of LLVM 14's r600 assembly printer (R600InstPrinter and the asm
//! strings of R600Instructions.td, EvergreenInstructions.td, CaymanInstructions.td), one line
//! per listing line: CF instructions, `PAD`, clause headers, ALU slots (`*` marks LAST; the
//! trailing spaces of LLVM's operand lists are kept), literal pairs, fetch instructions.
//!
//! Lossless extension: fields LLVM never sets (or sets to a fixed value) are printed only when
//! they differ from LLVM's value, as trailing `NAME:value` / `NAME` tokens after the LLVM
//! text, so every decodable program prints to text the assembler reads back to the same bytes.
//! Fetch words print as LLVM's VTX_READ_* or TEX_* text where they match it, else in the same
//! style with their fields named (`fetch`). Deviations from LLVM's spelling (ambiguous or mistyped names in its
//! .td files) are listed in the table modules.
use crate::chip::ChipClass;
use crate::inst::*;
use crate::opcode::AluOp;
use crate::tables::{self, AluEnc, CfOp, CfSyntax, RatInst};
use std::fmt::Write;

pub(crate) mod fetch;
pub(crate) use fetch::print_fetch;

/// The listing of a whole program, one string per line.
pub fn print_program(p: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for e in &p.cf {
        print_cf(p.class, &e.inst, &mut out);
    }
    let mut items: Vec<(u32, Option<&Clause>)> = p.pads.iter().map(|&a| (a, None)).collect();
    items.extend(p.clauses.iter().map(|c| (c.addr, Some(c))));
    items.sort_by_key(|i| i.0);
    for (addr, clause) in items {
        match clause {
            None => out.push("PAD".to_string()),
            Some(c) => match &c.body {
                ClauseBody::Fetch(insts) => {
                    out.push(format!("Fetch clause starting at {addr}:"));
                    out.extend(insts.iter().map(|f| print_fetch(p.class, f)));
                }
                ClauseBody::Alu(groups) => {
                    out.push(format!("ALU clause starting at {addr}:"));
                    for g in groups {
                        print_group(p.class, g, &mut out);
                    }
                }
            },
        }
    }
    out
}

/// Every machine instruction of a program with the byte offset the lifter reports as its pc
/// (8 times its 64-bit word address): CF instructions (an ALU_EXTENDED pair on one line),
/// ALU slot instructions and fetches, in address order.
pub fn listing(p: &Program) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    for e in &p.cf {
        let mut lines = Vec::new();
        print_cf(p.class, &e.inst, &mut lines);
        let text: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
        out.push((8 * u64::from(e.addr), text.join("; ")));
    }
    for c in &p.clauses {
        match &c.body {
            ClauseBody::Fetch(insts) => {
                for (k, f) in insts.iter().enumerate() {
                    let at = c.addr + 2 * k as u32;
                    out.push((
                        8 * u64::from(at),
                        print_fetch(p.class, f).trim().to_string(),
                    ));
                }
            }
            ClauseBody::Alu(groups) => {
                for g in groups {
                    for (k, i) in g.insts.iter().enumerate() {
                        let at = g.addr + k as u32;
                        out.push((8 * u64::from(at), print_alu(p.class, i).trim().to_string()));
                    }
                }
            }
        }
    }
    out.sort_by_key(|&(pc, _)| pc);
    out
}

const CHAN: [char; 4] = ['X', 'Y', 'Z', 'W'];

fn kcache_text(k: &KCache) -> String {
    if k.mode == 0 {
        return String::new();
    }
    let lines = if k.mode == 1 { 16 } else { 32 };
    let base = k.addr as u32 * 16;
    format!("CB{}:{}-{}", k.bank, base, base + lines)
}

/// Suffix tokens for kcache fields the `KCn[...]` text does not carry.
fn kcache_extra(i: usize, k: &KCache, s: &mut String) {
    if k.mode == 0 && (k.bank != 0 || k.addr != 0) {
        let _ = write!(s, " KC{i}_BANK:{} KC{i}_ADDR:{}", k.bank, k.addr);
    }
    // LLVM prints LOCK_LOOP_INDEX (3) like LOCK_2 (32 constants).
    if k.mode == 3 {
        let _ = write!(s, " KC{i}_MODE:3");
    }
}

pub(crate) fn print_cf(class: ChipClass, inst: &CfInst, out: &mut Vec<String>) {
    match inst {
        CfInst::Alu(a) => {
            if let Some(ext) = &a.ext {
                let mut s = format!(
                    "ALU_EXTENDED KC2[{}], KC3[{}]",
                    kcache_text(&a.kcache[2]),
                    kcache_text(&a.kcache[3])
                );
                for (i, k) in a.kcache.iter().enumerate().skip(2) {
                    kcache_extra(i, k, &mut s);
                }
                let m = ext.bank_index_mode;
                if m != [0; 4] {
                    let _ = write!(s, " INDEX_MODE:{}:{}:{}:{}", m[0], m[1], m[2], m[3]);
                }
                if !ext.barrier {
                    s.push_str(" NO_BARRIER");
                }
                out.push(s);
            }
            let mut s = format!(
                "{} {}, @{}, KC0[{}], KC1[{}]",
                tables::cf_alu_info(a.op).text,
                a.count,
                a.addr,
                kcache_text(&a.kcache[0]),
                kcache_text(&a.kcache[1])
            );
            for (i, k) in a.kcache.iter().enumerate().take(2) {
                kcache_extra(i, k, &mut s);
            }
            flag(&mut s, a.alt_const, "ALT_CONST");
            flag(&mut s, a.whole_quad_mode, "WQM");
            flag(&mut s, !a.barrier, "NO_BARRIER");
            out.push(s);
        }
        CfInst::Word(c) => out.push(print_cf_word(class, c)),
        CfInst::Mem(m) => out.push(print_cf_mem(class, m)),
    }
}

fn flag(s: &mut String, on: bool, name: &str) {
    if on {
        s.push(' ');
        s.push_str(name);
    }
}

fn num(s: &mut String, v: u32, default: u32, name: &str) {
    if v != default {
        let _ = write!(s, " {name}:{v}");
    }
}

fn print_cf_word(class: ChipClass, c: &CfWord) -> String {
    let info = tables::cf_info(c.op);
    // LLVM's Evergreen CF_END is a NOP with END_OF_PROGRAM.
    let eg_end = class == ChipClass::Evergreen && c.op == CfOp::NOP && c.end_of_program;
    let mut s = if eg_end {
        "CF_END".to_string()
    } else {
        info.text.to_string()
    };
    let syntax = if eg_end { CfSyntax::Bare } else { info.syntax };
    match syntax {
        CfSyntax::Bare => {}
        CfSyntax::Addr => {
            let _ = write!(s, " @{}", c.addr);
        }
        CfSyntax::AddrPop => {
            let _ = write!(s, " @{} POP:{}", c.addr, c.pop_count);
        }
        CfSyntax::Clause => {
            let _ = write!(s, " {} @{}", c.count, c.addr);
        }
    }
    let has_addr = !matches!(syntax, CfSyntax::Bare);
    if !has_addr {
        num(&mut s, c.addr, 0, "ADDR");
    }
    if syntax != CfSyntax::AddrPop {
        num(&mut s, c.pop_count as u32, 0, "POP_COUNT");
    }
    if syntax != CfSyntax::Clause {
        num(&mut s, c.count as u32, 0, "COUNT");
    }
    num(&mut s, c.jumptable_sel as u32, 0, "JUMPTABLE_SEL");
    num(&mut s, c.cf_const as u32, 0, "CF_CONST");
    num(&mut s, c.cond as u32, 0, "COND");
    flag(&mut s, c.valid_pixel_mode, "VPM");
    flag(&mut s, c.end_of_program && !eg_end, "EOP");
    flag(&mut s, c.whole_quad_mode, "WQM");
    flag(&mut s, !c.barrier, "NO_BARRIER");
    s
}

/// What LLVM prints for the RAT operation and the COMP_MASK its text implies.
fn rat_operands(class: ChipClass, m: &CfMem, r: &RatFields) -> (String, u32, u32) {
    let rw = m.rw_gpr;
    let idx = m.index_gpr;
    let rtext = tables::rat_info(r.inst).text;
    match r.inst {
        RatInst::STORE_RAW => {
            let (sfx, mask) = match m.comp_mask {
                1 => (".X", 1),
                3 => (".XY", 3),
                _ => (".XYZW", 15),
            };
            (
                format!("{rtext} T{rw}{sfx}, T{idx}.X, {}", m.end_of_program as u8),
                mask,
                0,
            )
        }
        RatInst::STORE_DWORD => {
            // LLVM prints the 64- and 128-bit stores alike ("T3"); 15 is implied and a 64-bit
            // store carries COMP_MASK:3 (the one place the text adds to LLVM's).
            let (sfx, mask) = if m.comp_mask == 1 {
                (".X", 1)
            } else {
                ("", 15)
            };
            (format!("{rtext} T{rw}{sfx}, T{idx}.X"), mask, 0)
        }
        RatInst::MSKOR => (format!("{rtext} T{rw}.XW, T{idx}.X"), 15, 0),
        RatInst::STORE_TYPED => {
            let eop = if class == ChipClass::Evergreen {
                format!(", {}", m.end_of_program as u8)
            } else {
                String::new()
            };
            (
                format!("{rtext} RAT({}) T{rw}, T{idx}{eop}", r.id),
                15,
                r.id as u32,
            )
        }
        _ => (format!("{rtext} T{rw}, T{idx}.X"), 15, 0),
    }
}

fn print_cf_mem(class: ChipClass, m: &CfMem) -> String {
    let name = m.op.name();
    let mut s;
    let mut eop_printed = false;
    if let Some(r) = &m.rat {
        let (ops, mask, id) = rat_operands(class, m, r);
        eop_printed = matches!(r.inst, RatInst::STORE_RAW)
            || (r.inst == RatInst::STORE_TYPED && class == ChipClass::Evergreen);
        s = format!("{name} {ops}");
        num(&mut s, r.id as u32, id, "RAT_ID");
        num(&mut s, r.index_mode as u32, 0, "RAT_INDEX_MODE");
        num(&mut s, m.comp_mask as u32, mask, "COMP_MASK");
        num(&mut s, m.kind as u32, 1, "TYPE");
    } else {
        s = format!("{name} T{}", m.rw_gpr);
        num(&mut s, m.array_base as u32, 0, "ARRAY_BASE");
        num(&mut s, m.index_gpr as u32, 0, "INDEX_GPR");
        num(&mut s, m.comp_mask as u32, 0, "COMP_MASK");
        num(&mut s, m.kind as u32, 0, "TYPE");
    }
    flag(&mut s, m.rw_rel, "RW_REL");
    num(&mut s, m.elem_size as u32, 0, "ELEM_SIZE");
    num(&mut s, m.array_size as u32, 0, "ARRAY_SIZE");
    num(&mut s, m.burst_count as u32, 0, "BURST_COUNT");
    flag(&mut s, m.valid_pixel_mode, "VPM");
    flag(&mut s, m.end_of_program && !eop_printed, "EOP");
    flag(&mut s, m.mark, "MARK");
    flag(&mut s, !m.barrier, "NO_BARRIER");
    s
}

// ---------------------------------------------------------------------------------------------
// ALU

/// The text of a source operand's register (without modifiers).
pub(crate) fn src_reg(s: &AluSrc) -> String {
    let c = CHAN[s.chan as usize & 3];
    let lc = c.to_ascii_lowercase();
    let fixed = |name: &str| {
        if s.chan == 0 {
            name.to_string()
        } else {
            format!("SEL{}.{c}", s.sel)
        }
    };
    match s.sel {
        // LLVM's indirect-addressing registers (R600_AddrRegClass).
        0..=127 if s.rel => format!("T({} + AR.x).{c}", s.sel),
        0..=127 => format!("T{}.{c}", s.sel),
        128..=159 => format!("KC0[{}].{c}", s.sel - sel::KCACHE0),
        160..=191 => format!("KC1[{}].{c}", s.sel - sel::KCACHE1),
        256..=287 => format!("KC2[{}].{c}", s.sel - sel::KCACHE2),
        288..=319 => format!("KC3[{}].{c}", s.sel - sel::KCACHE3),
        sel::ZERO => fixed("0.0"),
        sel::ONE => fixed("1.0"),
        sel::ONE_INT => fixed("1"),
        sel::HALF => fixed("0.5"),
        sel::LITERAL => format!("literal.{lc}"),
        sel::PV => format!("PV.{c}"),
        sel::PS => fixed("PS"),
        sel::LDS_OQ_A => fixed("OQA"),
        sel::LDS_OQ_B => fixed("OQB"),
        sel::LDS_OQ_A_POP => fixed("OQAP"),
        sel::LDS_OQ_B_POP => fixed("OQBP"),
        sel::LDS_DIRECT_A => fixed("LDS_DIRECT_A"),
        sel::LDS_DIRECT_B => fixed("LDS_DIRECT_B"),
        n => format!("SEL{n}.{c}"),
    }
}

fn src_text(s: &AluSrc, with_abs: bool) -> String {
    let neg = if s.neg { "-" } else { "" };
    let abs = if with_abs && s.abs { "|" } else { "" };
    let rel = if s.rel { "+" } else { "" };
    format!("{neg}{abs}{}{abs}{rel}", src_reg(s))
}

fn pred_text(p: u8) -> &'static str {
    match p {
        2 => "Pred_sel_zero",
        3 => "Pred_sel_one",
        1 => "Pred_sel_1",
        _ => "",
    }
}

pub(crate) const BANK_SWIZZLE: [&str; 8] = [
    "",
    "BS:VEC_021/SCL_122",
    "BS:VEC_120/SCL_212",
    "BS:VEC_102/SCL_221",
    "BS:VEC_201",
    "BS:VEC_210",
    "BS:6",
    "BS:7",
];

fn is_pred_set(op: AluOp) -> bool {
    op.name().starts_with("PRED_SET")
}

fn dst_text(i: &AluInst) -> String {
    let c = CHAN[i.dst_chan as usize];
    let plain = i.dst_gpr == 0 && i.dst_chan == 0 && !i.dst_rel;
    let reg = if i.op == AluOp::MOVA_INT && plain {
        "AR.x".to_string()
    } else if is_pred_set(i.op) && plain && !i.write {
        "PredicateBit".to_string()
    } else if i.dst_rel {
        format!("T({} + AR.x).{c}", i.dst_gpr)
    } else {
        format!("T{}.{c}", i.dst_gpr)
    };
    let masked = if i.write { "" } else { " (MASKED)" };
    let rel = if i.dst_rel { "+" } else { "" };
    let omod = match (i.enc, i.omod) {
        (AluEnc::Op2, 1) => " * 2.0",
        (AluEnc::Op2, 2) => " * 4.0",
        (AluEnc::Op2, 3) => " / 2.0",
        _ => "",
    };
    format!("{reg}{masked}{rel}{omod}")
}

/// Whether `i` is LLVM's fixed GROUP_BARRIER encoding (printed without operands).
fn is_llvm_group_barrier(i: &AluInst) -> bool {
    *i == AluInst::llvm_group_barrier(i.opcode, i.slot)
}

pub(crate) fn print_alu(class: ChipClass, i: &AluInst) -> String {
    if is_llvm_group_barrier(i) {
        return "  GROUP_BARRIER".to_string();
    }
    let last = if i.last { "*" } else { " " };
    let mut s = String::from("  ");
    if let Some(l) = &i.lds {
        let info = tables::lds_info(l.op);
        let src = |k: usize| src_text(&i.src[k], false);
        let p = pred_text(i.pred_sel);
        match info.srcs {
            1 => {
                let _ = write!(s, "{} {last} OQAP, {} {p}", info.text, src(0));
            }
            2 if info.ret => {
                let _ = write!(s, "{} {last} OQAP, {}, {}, {p}", info.text, src(0), src(1));
            }
            2 => {
                let _ = write!(s, "{} {last} {}, {}, {p}", info.text, src(0), src(1));
            }
            _ => {
                let _ = write!(
                    s,
                    "{}{last} {}, {}, {}, {p}",
                    info.text,
                    src(0),
                    src(1),
                    src(2)
                );
            }
        }
        // Sources LLVM's syntax for this op does not show.
        for k in info.srcs as usize..3 {
            if i.src[k] != AluSrc::default() {
                let _ = write!(s, " SRC{k}:{}", src_text(&i.src[k], false));
            }
        }
        num(&mut s, l.offset as u32, 0, "OFFSET");
        num(&mut s, i.dst_chan as u32, 0, "DST_CHAN");
        num(&mut s, i.bank_swizzle as u32, 0, "BANK_SWIZZLE");
        extra_common(i, &mut s);
        return s;
    }
    let info = tables::alu_info(i.op);
    let name = if i.opcode != info.opcode[class.index()] {
        // Cayman's low duplicate encodings of the 64-bit ops.
        format!("{}_ENC{}", info.llvm, i.opcode)
    } else {
        info.llvm.to_string()
    };
    let sat = if i.clamp { "_SAT" } else { "" };
    let p = pred_text(i.pred_sel);
    let bs = BANK_SWIZZLE[i.bank_swizzle as usize & 7];
    let dst = dst_text(i);
    match (i.enc, info.srcs) {
        (AluEnc::Op3, _) => {
            let _ = write!(
                s,
                "{name}{sat} {last} {dst}, {}, {}, {}, {p}{bs}",
                src_text(&i.src[0], false),
                src_text(&i.src[1], false),
                src_text(&i.src[2], false)
            );
        }
        (AluEnc::Op2, 1) => {
            let _ = write!(
                s,
                "{name}{sat} {last} {}{dst}, {}, {p} {bs}",
                uem_up(i),
                src_text(&i.src[0], true)
            );
            if i.src[1] != AluSrc::default() {
                let _ = write!(s, " SRC1:{}", src_text(&i.src[1], true));
            }
        }
        (AluEnc::Op2, _) => {
            let _ = write!(
                s,
                "{name}{sat} {last} {}{dst}, {}, {}, {p} {bs}",
                uem_up(i),
                src_text(&i.src[0], true),
                src_text(&i.src[1], true)
            );
        }
    }
    extra_common(i, &mut s);
    s
}

fn uem_up(i: &AluInst) -> String {
    let mut s = String::new();
    if i.update_exec_mask {
        s.push_str("ExecMask,");
    }
    if i.update_pred {
        s.push_str("Pred,");
    }
    s
}

fn extra_common(i: &AluInst, s: &mut String) {
    num(s, i.index_mode as u32, 0, "INDEX_MODE");
}

fn literal_text(v: u32) -> String {
    format!("{}({})", v as i32, c_exp(f32::from_bits(v) as f64))
}

/// LLVM's `raw_ostream << double`: `nan`, `INF`/`-INF`, else C's `%e`.
fn c_exp(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x < 0.0 {
            "-INF".to_string()
        } else {
            "INF".to_string()
        };
    }
    let r = format!("{x:.6e}");
    let (mant, exp) = r.split_once('e').unwrap_or((&r, "0"));
    let e: i32 = exp.parse().unwrap_or(0);
    let sign = if e < 0 { '-' } else { '+' };
    format!("{mant}e{sign}{:02}", e.abs())
}

fn print_group(class: ChipClass, g: &AluGroup, out: &mut Vec<String>) {
    for i in &g.insts {
        out.push(print_alu(class, i));
    }
    for pair in g.literals.chunks(2) {
        let hi = pair.get(1).copied().unwrap_or(0);
        out.push(format!("{}, {}", literal_text(pair[0]), literal_text(hi)));
    }
}
