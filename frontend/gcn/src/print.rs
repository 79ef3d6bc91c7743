//! Printer: [`Inst`] -> the text LLVM 14 prints (`llvm-mc -show-encoding` / `--disassemble`).
//!
//! The operand list comes from the row's slots; modifiers are appended in LLVM's order. The
//! special immediates (s_waitcnt, sendmsg, hwreg, gpr_idx, DPP controls) follow
//! AMDGPUInstPrinter.cpp of LLVM 14.
use crate::decode::{decode, vop3_slots};
use crate::inst::{Encoding, Gen, Inst, Operand, Opnd};
use crate::operand;
use crate::tables::{Family, Field, OpInfo, Ty};
use std::fmt::Write;

/// Text of one instruction. Branch operands print as the raw displacement (`s_branch 5`).
pub fn print(inst: &Inst) -> String {
    print_with(inst, &|_| None)
}

/// Text of one instruction; `label(index)` may name the target of a branch whose
/// displacement operand is `simm16` (the closure receives the signed displacement in dwords).
pub fn print_with(inst: &Inst, label: &dyn Fn(i16) -> Option<String>) -> String {
    let mut s = String::from(inst.name());
    let fam = inst.info.family;
    let native_vop = matches!(fam, Family::Vop1 | Family::Vop2 | Family::Vopc);
    match inst.encoding {
        // LLVM names the 32-bit form `_e32` only when a VOP3 (`_e64`) form also exists.
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc if inst.info.vop3 != 0 => {
            s.push_str("_e32")
        }
        Encoding::Vop3a | Encoding::Vop3b if native_vop => s.push_str("_e64"),
        // gfx8/9 VINTRP opcodes 0-2 have both forms; the f16 rows are VOP3-only, unsuffixed.
        Encoding::Vintrp if inst.info.vop3 & inst.gen.bit() != 0 => s.push_str("_e32"),
        Encoding::Vop3a if fam == Family::Vintrp && inst.info.opcode_in(inst.gen) < Some(4) => {
            s.push_str("_e64")
        }
        Encoding::Sdwa if !(fam == Family::Vopc && inst.gen == Gen::Gfx8) => s.push_str("_sdwa"),
        Encoding::Dpp => s.push_str("_dpp"),
        _ => {}
    }
    let mut first = true;
    for (i, o) in inst.operands.iter().enumerate() {
        let t = operand_text(inst, i, o, label);
        if t.is_empty() {
            continue;
        }
        s.push_str(if first { " " } else { ", " });
        first = false;
        s.push_str(&t);
    }
    modifiers(inst, &mut s);
    s
}

fn is_scalar(f: Family) -> bool {
    matches!(
        f,
        Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk | Family::Sopp
    )
}

fn src_index(f: Field) -> Option<usize> {
    match f {
        Field::Src0 | Field::Ssrc0 => Some(0),
        Field::Src1 | Field::Vsrc1 | Field::Ssrc1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    }
}

/// The type by which LLVM prints (and parses) a constant in operand field `f` of `info`.
pub(crate) fn operand_ty(info: &OpInfo, f: Field) -> Ty {
    match src_index(f).map(|k| info.src_ty[k]) {
        // Scalar operands are 32/64-bit even where the instruction reads a half
        // (s_sext_i32_i16, s_pack_*_b32_b16): LLVM prints their constants as 32-bit.
        Some(Ty::I16 | Ty::U16 | Ty::B16 | Ty::F16) if is_scalar(info.family) => Ty::B32,
        // A VOP3P source's constant is one 16-bit half: LLVM prints it as an f16 on the
        // float rows (`1.0`) and as an i16 on the integer rows (`0x3c00`); the tables type
        // both Pk16, the row name tells them apart. (Other Pk16 sources, v_sad_u16 and
        // v_sat_pk_u8_i16, are 32-bit operands to LLVM.)
        Some(Ty::Pk16) if info.family == Family::Vop3p && info.opcode.name().contains("_f16") => {
            Ty::F16
        }
        Some(Ty::Pk16) if info.family == Family::Vop3p => Ty::I16,
        Some(t) => t,
        None => Ty::B32,
    }
}

fn operand_text(inst: &Inst, _i: usize, o: &Opnd, label: &dyn Fn(i16) -> Option<String>) -> String {
    let simm = inst.simm16.unwrap_or(0);
    match o.field {
        // gfx8+ s_endpgm takes an optional immediate that LLVM omits when zero.
        Field::Simm16 if inst.opcode == crate::inst::Opcode::S_ENDPGM && simm == 0 => String::new(),
        Field::Simm16 => {
            if inst.encoding == Encoding::Sopk {
                format!("0x{simm:x}")
            } else {
                simm.to_string()
            }
        }
        Field::Branch => label(simm as i16).unwrap_or_else(|| (simm as i16).to_string()),
        Field::Waitcnt => waitcnt(inst.gen, simm),
        Field::Sendmsg => sendmsg(inst.gen, simm),
        Field::Hwreg => hwreg(inst.gen, simm),
        Field::GprIdx => {
            let v = match o.value {
                Operand::Imm(v) => v as u16,
                _ => simm,
            };
            gpr_idx(v)
        }
        Field::SdataImm | Field::Soff => match o.value {
            Operand::Imm(v) if o.field == Field::SdataImm => v.to_string(),
            Operand::Imm(v) | Operand::Literal(v) => format!("0x{v:x}"),
            v => operand::reg_text(v, 1),
        },
        Field::Literal => match o.value {
            Operand::Literal(v) => format!("0x{v:x}"),
            _ => String::new(),
        },
        Field::Attr => match o.value {
            Operand::Imm(v) => format!(
                "attr{}.{}",
                v & 0x3f,
                ["x", "y", "z", "w"][(v >> 6 & 3) as usize]
            ),
            v => operand::reg_text(v, 1),
        },
        Field::InterpParam => match o.value {
            Operand::Imm(v) => ["p10", "p20", "p0"]
                .get(v as usize)
                .unwrap_or(&"p?")
                .to_string(),
            v => operand::reg_text(v, 1),
        },
        f => {
            let ty = operand_ty(inst.info, f);
            let mut t = operand::text(o.value, o.dwords, ty, inst.gen);
            if let Some(k) = src_index(f) {
                let sext = inst.sdwa.map(|s| s.sext >> k & 1 != 0).unwrap_or(false);
                if sext {
                    t = format!("sext({t})");
                }
                if inst.mods.abs >> k & 1 != 0 {
                    t = format!("|{t}|");
                }
                if inst.mods.neg >> k & 1 != 0 && inst.encoding != Encoding::Vop3p {
                    // A lone neg on a constant is spelled `neg(..)`: `-13` would read as the
                    // inline constant -13 (AMDGPUInstPrinter::printOperandAndFPInputMods).
                    let constant = matches!(
                        o.value,
                        Operand::InlineInt(_) | Operand::InlineFloat(_) | Operand::Literal(_)
                    );
                    t = if constant && inst.mods.abs >> k & 1 == 0 {
                        format!("neg({t})")
                    } else {
                        format!("-{t}")
                    };
                }
            }
            t
        }
    }
}

const SEL: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
const UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

fn omod(s: &mut String, omod: u8) {
    match omod {
        1 => s.push_str(" mul:2"),
        2 => s.push_str(" mul:4"),
        3 => s.push_str(" div:2"),
        _ => {}
    }
}

fn bits_list(v: u8, n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| ((v >> i) & 1).to_string()).collect();
    format!("[{}]", items.join(","))
}

fn nsrc(inst: &Inst) -> usize {
    inst.operands
        .iter()
        .filter(|o| matches!(o.field, Field::Src0 | Field::Src1 | Field::Src2))
        .count()
}

fn modifiers(inst: &Inst, s: &mut String) {
    let m = &inst.mods;
    let mem = &inst.mem;
    match inst.encoding {
        Encoding::Vop3a | Encoding::Vop3b => {
            if let Some(Operand::Imm(a)) = inst.operand(Field::Attr).map(|o| o.value) {
                if a & 0x100 != 0 {
                    s.push_str(" high");
                }
            }
            if m.clamp {
                s.push_str(" clamp");
            }
            omod(s, m.omod);
            if inst.gen == Gen::Gfx9 && m.op_sel != 0 {
                let n = nsrc(inst);
                let _ = write!(
                    s,
                    " op_sel:{}",
                    bits_list(m.op_sel & ((1 << n) - 1) | (m.op_sel >> 3 & 1) << n, n + 1)
                );
            }
        }
        Encoding::Vop3p => {
            let n = nsrc(inst);
            let all = (1u8 << n) - 1;
            // v_mad_mix* are not packed: their op_sel_hi defaults to 0 (LLVM VOP3PInstructions.td).
            let hi_default = if inst.opcode.name().starts_with("v_mad_mix") {
                0
            } else {
                all
            };
            if m.op_sel & all != 0 {
                let _ = write!(s, " op_sel:{}", bits_list(m.op_sel, n));
            }
            if m.op_sel_hi & all != hi_default {
                let _ = write!(s, " op_sel_hi:{}", bits_list(m.op_sel_hi, n));
            }
            if m.neg & all != 0 {
                let _ = write!(s, " neg_lo:{}", bits_list(m.neg, n));
            }
            if m.neg_hi & all != 0 {
                let _ = write!(s, " neg_hi:{}", bits_list(m.neg_hi, n));
            }
            if m.clamp {
                s.push_str(" clamp");
            }
        }
        Encoding::Sdwa => {
            let sd = inst.sdwa.unwrap_or_default();
            if m.clamp {
                s.push_str(" clamp");
            }
            omod(s, m.omod);
            if inst.info.family != Family::Vopc {
                let _ = write!(
                    s,
                    " dst_sel:{} dst_unused:{}",
                    SEL[sd.dst_sel as usize % 7],
                    UNUSED[sd.dst_unused as usize % 3]
                );
            }
            let _ = write!(s, " src0_sel:{}", SEL[sd.src0_sel as usize % 7]);
            if inst.info.family != Family::Vop1 {
                let _ = write!(s, " src1_sel:{}", SEL[sd.src1_sel as usize % 7]);
            }
        }
        Encoding::Dpp => {
            let d = inst.dpp.unwrap_or_default();
            let _ = write!(
                s,
                " {} row_mask:0x{:x} bank_mask:0x{:x}",
                dpp_ctrl(d.ctrl),
                d.row_mask,
                d.bank_mask
            );
            if d.bound_ctrl {
                s.push_str(" bound_ctrl:1");
            }
        }
        Encoding::Ds => {
            if inst.info.has(crate::tables::flags::DS_2ADDR) {
                if mem.offset0 != 0 {
                    let _ = write!(s, " offset0:{}", mem.offset0);
                }
                if mem.offset1 != 0 {
                    let _ = write!(s, " offset1:{}", mem.offset1);
                }
            } else if mem.offset != 0 {
                if inst.opcode == crate::inst::Opcode::DS_SWIZZLE_B32 {
                    let _ = write!(s, " offset:{}", swizzle(mem.offset as u16));
                } else {
                    let _ = write!(s, " offset:{}", mem.offset);
                }
            }
            if mem.gds {
                s.push_str(" gds");
            }
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            if inst.operands.is_empty() {
                return;
            }
            if inst.encoding == Encoding::Mtbuf && (mem.dfmt != 1 || mem.nfmt != 0) {
                let mut parts = Vec::new();
                if mem.dfmt != 1 {
                    parts.push(
                        DFMT.get(mem.dfmt as usize)
                            .copied()
                            .unwrap_or("?")
                            .to_string(),
                    );
                }
                if mem.nfmt != 0 {
                    parts.push(
                        NFMT.get(mem.nfmt as usize)
                            .copied()
                            .unwrap_or("?")
                            .to_string(),
                    );
                }
                let _ = write!(s, " format:[{}]", parts.join(","));
            }
            if mem.idxen {
                s.push_str(" idxen");
            }
            if mem.offen {
                s.push_str(" offen");
            }
            if mem.addr64 {
                s.push_str(" addr64");
            }
            if mem.offset != 0 {
                let _ = write!(s, " offset:{}", mem.offset);
            }
            flags(s, mem.glc, mem.slc, mem.lds, mem.tfe);
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            if mem.offset != 0 {
                let _ = write!(s, " offset:{}", mem.offset);
            }
            if mem.glc {
                s.push_str(" glc");
            }
            if mem.slc {
                s.push_str(" slc");
            }
            if mem.lds {
                s.push_str(" lds");
            }
            if mem.tfe {
                s.push_str(" tfe");
            }
            if mem.nv {
                s.push_str(" nv");
            }
        }
        Encoding::Smem => {
            if mem.glc {
                s.push_str(" glc");
            }
            if mem.nv {
                s.push_str(" nv");
            }
        }
        Encoding::Mimg => mimg_modifiers(s, inst),
        _ => {}
    }
}

/// MIMG modifiers in LLVM 14's order (`$dmask$unorm$cpol$r128$tfe$lwe$da$d16`); bit 15 is
/// `a16` on gfx9.
fn mimg_modifiers(s: &mut String, inst: &Inst) {
    let m = &inst.mem;
    if m.dmask != 0 {
        let _ = write!(s, " dmask:0x{:x}", m.dmask);
    }
    let r128 = if inst.gen == Gen::Gfx9 {
        " a16"
    } else {
        " r128"
    };
    for (on, t) in [
        (m.unorm, " unorm"),
        (m.glc, " glc"),
        (m.slc, " slc"),
        (m.r128, r128),
        (m.tfe, " tfe"),
        (m.lwe, " lwe"),
        (m.da, " da"),
        (m.d16, " d16"),
    ] {
        if on {
            s.push_str(t);
        }
    }
}

fn flags(s: &mut String, glc: bool, slc: bool, lds: bool, tfe: bool) {
    for (on, t) in [(glc, " glc"), (slc, " slc"), (lds, " lds"), (tfe, " tfe")] {
        if on {
            s.push_str(t);
        }
    }
}

pub(crate) const DFMT: [&str; 16] = [
    "BUF_DATA_FORMAT_INVALID",
    "BUF_DATA_FORMAT_8",
    "BUF_DATA_FORMAT_16",
    "BUF_DATA_FORMAT_8_8",
    "BUF_DATA_FORMAT_32",
    "BUF_DATA_FORMAT_16_16",
    "BUF_DATA_FORMAT_10_11_11",
    "BUF_DATA_FORMAT_11_11_10",
    "BUF_DATA_FORMAT_10_10_10_2",
    "BUF_DATA_FORMAT_2_10_10_10",
    "BUF_DATA_FORMAT_8_8_8_8",
    "BUF_DATA_FORMAT_32_32",
    "BUF_DATA_FORMAT_16_16_16_16",
    "BUF_DATA_FORMAT_32_32_32",
    "BUF_DATA_FORMAT_32_32_32_32",
    "BUF_DATA_FORMAT_RESERVED_15",
];
pub(crate) const NFMT: [&str; 8] = [
    "BUF_NUM_FORMAT_UNORM",
    "BUF_NUM_FORMAT_SNORM",
    "BUF_NUM_FORMAT_USCALED",
    "BUF_NUM_FORMAT_SSCALED",
    "BUF_NUM_FORMAT_UINT",
    "BUF_NUM_FORMAT_SINT",
    "BUF_NUM_FORMAT_RESERVED_6",
    "BUF_NUM_FORMAT_FLOAT",
];

/// s_waitcnt counters: vmcnt 3:0 (+15:14 on gfx9), expcnt 6:4, lgkmcnt 11:8.
pub(crate) fn waitcnt_fields(gen: Gen, v: u16) -> (u16, u16, u16, u16) {
    let vm_max = if gen == Gen::Gfx9 { 63 } else { 15 };
    let mut vm = v & 0xf;
    if gen == Gen::Gfx9 {
        vm |= (v >> 14 & 3) << 4;
    }
    (vm, v >> 4 & 7, v >> 8 & 0xf, vm_max)
}

fn waitcnt(gen: Gen, v: u16) -> String {
    let (vm, exp, lgkm, vm_max) = waitcnt_fields(gen, v);
    let all = vm == vm_max && exp == 7 && lgkm == 15;
    let mut parts = Vec::new();
    if vm != vm_max || all {
        parts.push(format!("vmcnt({vm})"));
    }
    if exp != 7 || all {
        parts.push(format!("expcnt({exp})"));
    }
    if lgkm != 15 || all {
        parts.push(format!("lgkmcnt({lgkm})"));
    }
    parts.join(" ")
}

pub(crate) fn msg_name(gen: Gen, id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_GS",
        3 => "MSG_GS_DONE",
        4 if gen >= Gen::Gfx8 => "MSG_SAVEWAVE",
        5 if gen == Gen::Gfx9 => "MSG_STALL_WAVE_GEN",
        6 if gen == Gen::Gfx9 => "MSG_HALT_WAVES",
        7 if gen == Gen::Gfx9 => "MSG_ORDERED_PS_DONE",
        15 => "MSG_SYSMSG",
        _ => return None,
    })
}

pub(crate) const GS_OP: [&str; 4] = ["GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"];
pub(crate) const SYSMSG: [&str; 5] = [
    "",
    "SYSMSG_OP_ECC_ERR_INTERRUPT",
    "SYSMSG_OP_REG_RD",
    "SYSMSG_OP_HOST_TRAP_ACK",
    "SYSMSG_OP_TTRACE_PC",
];

fn sendmsg(gen: Gen, v: u16) -> String {
    let id = v & 0xf;
    let raw = || v.to_string();
    let Some(name) = msg_name(gen, id) else {
        return raw();
    };
    match id {
        2 | 3 => {
            let op = v >> 4 & 3;
            let stream = v >> 8 & 3;
            if v & !0x33f != 0 || (id == 2 && op == 0) {
                return raw();
            }
            if op == 0 {
                if stream != 0 {
                    return raw();
                }
                return format!("sendmsg({name}, {})", GS_OP[0]);
            }
            format!("sendmsg({name}, {}, {stream})", GS_OP[op as usize])
        }
        15 => {
            let op = (v >> 4 & 7) as usize;
            if v & !0x7f != 0 || op == 0 || op > 4 {
                return raw();
            }
            format!("sendmsg({name}, {})", SYSMSG[op])
        }
        _ if v & !0xf != 0 => raw(),
        _ => format!("sendmsg({name})"),
    }
}

pub(crate) fn hwreg_name(gen: Gen, id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        4 => "HW_REG_HW_ID",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 if gen == Gen::Gfx9 => "HW_REG_SH_MEM_BASES",
        _ => return None,
    })
}

fn hwreg(gen: Gen, v: u16) -> String {
    let id = v & 0x3f;
    let off = v >> 6 & 0x1f;
    let size = (v >> 11 & 0x1f) + 1;
    let name = hwreg_name(gen, id)
        .map(str::to_string)
        .unwrap_or_else(|| id.to_string());
    if off == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {off}, {size})")
    }
}

fn gpr_idx(v: u16) -> String {
    let names = ["SRC0", "SRC1", "SRC2", "DST"];
    let on: Vec<&str> = (0..4)
        .filter(|i| v >> i & 1 != 0)
        .map(|i| names[i])
        .collect();
    format!("gpr_idx({})", on.join(","))
}

pub(crate) fn swizzle(v: u16) -> String {
    // LLVM prints ds_swizzle offsets symbolically (AMDGPUInstPrinter::printSwizzle).
    if v & 0xff00 == 0x8000 {
        let lanes: Vec<String> = (0..4).map(|i| (v >> (2 * i) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", lanes.join(","));
    }
    if v & 0x8000 != 0 {
        return v.to_string();
    }
    let and = v & 0x1f;
    let or = v >> 5 & 0x1f;
    let xor = v >> 10 & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        return format!("swizzle(SWAP,{xor})");
    }
    if or == 0 && and == 0x1f && xor != 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    // The mask form spells a bit that keeps the lane's bit (`p`), inverts it (`i`) or forces
    // it (`0`, `1`); a bit that is both kept and or-ed, or forced and xor-ed, has no letter,
    // and such an offset is printed as its number (LLVM prints a mask that assembles to
    // another offset).
    if ((and & or) | (!and & xor)) & 0x1f != 0 {
        return v.to_string();
    }
    let mask: String = (0..5)
        .rev()
        .map(|i| match (and >> i & 1, or >> i & 1, xor >> i & 1) {
            (0, 0, _) => '0',
            (0, 1, _) => '1',
            (1, _, 1) => 'i',
            _ => 'p',
        })
        .collect();
    format!("swizzle(BITMASK_PERM,\"{mask}\")")
}

fn dpp_ctrl(c: u16) -> String {
    match c {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", c & 0xf),
        0x111..=0x11f => format!("row_shr:{}", c & 0xf),
        0x121..=0x12f => format!("row_ror:{}", c & 0xf),
        0x130 => "wave_shl:1".into(),
        0x134 => "wave_rol:1".into(),
        0x138 => "wave_shr:1".into(),
        0x13c => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 => "row_bcast:15".into(),
        0x143 => "row_bcast:31".into(),
        _ => format!("dpp_ctrl:0x{c:x}"),
    }
}

/// Disassembles a code region, one tab-indented instruction per line: the text `llvm-objdump -d`
/// prints, without its trailing `// address: words` comment. Branch operands name their
/// target, and each target gets a `label_XXXX:` line (XXXX the byte offset in hex).
pub fn disassemble(gen: Gen, bytes: &[u8]) -> Result<String, crate::decode::DecodeError> {
    let insts = crate::decode::decode_all(gen, bytes)?;
    let mut targets = std::collections::BTreeSet::new();
    for d in &insts {
        if let Some(t) = d.inst.branch_target(d.offset as u64) {
            targets.insert(t);
        }
    }
    let mut out = String::new();
    for d in &insts {
        if targets.contains(&(d.offset as u64)) {
            let _ = writeln!(out, "label_{:04X}:", d.offset);
        }
        let pc = d.offset as i64 + d.inst.len as i64;
        let text = print_with(&d.inst, &|disp| {
            Some(format!("label_{:04X}", pc + 4 * disp as i64))
        });
        let _ = writeln!(out, "\t{text}");
    }
    Ok(out)
}

/// Decodes and prints one instruction (convenience for tests and tools).
pub fn print_bytes(gen: Gen, bytes: &[u8]) -> Result<String, crate::decode::DecodeError> {
    decode(gen, bytes, 0).map(|i| print(&i))
}

/// The slots of `inst` as encoded (VOP3 forms of VOP1/2/C rows are rewritten).
pub(crate) fn encoded_slots(inst: &Inst) -> Vec<crate::tables::Slot> {
    match inst.encoding {
        Encoding::Vop3a | Encoding::Vop3b
            if matches!(inst.info.family, Family::Vop1 | Family::Vop2 | Family::Vopc) =>
        {
            vop3_slots(inst.info)
        }
        _ => inst.info.slots.to_vec(),
    }
}
