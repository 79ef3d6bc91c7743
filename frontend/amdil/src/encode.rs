//! [`Program`] to binary IL tokens: the inverse of [`crate::decode`].
//!
//! The encoder writes a modifier-present bit exactly when the modifier is there, the extended
//! dword exactly when a register number needs more than 16 bits, and each packet in the order
//! [`crate::decode`] reads. It refuses (with an [`EncodeError`]) every instruction the decoder
//! would not give back: an opcode without a row, control bits or operand counts its row does
//! not allow, trailing dwords of the wrong number, a stream whose macro blocks or `end` are
//! misplaced. So `decode(encode(p)) == p` for every program that encodes.

use crate::decode::{check_control, check_tail, check_texture_dwords, operand_counts, MAX_NESTING};
use crate::inst::{Dim2, Index, Inst, Program, Reg, Src};
use crate::table::{self, op, Form, Kind, Row, PRI_BIT, SEC_BIT, TEX_AOFFSET_BIT, TEX_EXT_BIT};
use crate::token::{Addressing, OpcodeToken, RegToken, RegType};

/// Why a program does not encode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("opcode {0} is not an IL instruction")]
    UnknownOpcode(u16),
    #[error("{op}: {why}")]
    Invalid { op: &'static str, why: String },
}

/// The little-endian bytes of a program's token stream.
pub fn encode(p: &Program) -> Result<Vec<u8>, EncodeError> {
    Ok(encode_words(p)?
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect())
}

/// A program's token stream.
pub fn encode_words(p: &Program) -> Result<Vec<u32>, EncodeError> {
    check_program(p)?;
    let mut out = Vec::new();
    for inst in &p.macros {
        encode_inst(inst, &mut out)?;
    }
    out.push(u32::from(p.lang));
    out.push(p.version.token());
    for inst in &p.code {
        encode_inst(inst, &mut out)?;
    }
    Ok(out)
}

fn program_error(why: &str) -> EncodeError {
    EncodeError::Invalid {
        op: "program",
        why: why.into(),
    }
}

/// Macro blocks are `mdef` ... `mend` with neither inside, and only the last instruction is
/// `end`: what [`crate::decode`] reads back as the same lists.
pub fn check_program(p: &Program) -> Result<(), EncodeError> {
    if usize::from(p.lang) >= table::enums::LANG.len()
        || usize::from(p.version.shader) >= table::enums::SHADER.len()
    {
        return Err(program_error("language or shader type out of range"));
    }
    let mut open = false;
    for inst in &p.macros {
        match (inst.op, open) {
            (op::MACRODEF, false) => open = true,
            (op::MACROEND, true) => open = false,
            (op::MACRODEF | op::MACROEND, _) => {
                return Err(program_error("macro blocks are mdef ... mend, not nested"))
            }
            (_, false) => return Err(program_error("an instruction outside mdef ... mend")),
            (_, true) => {}
        }
    }
    if open {
        return Err(program_error("a macro block without mend"));
    }
    let ends = p.code.iter().filter(|i| i.op == op::END).count();
    if ends != 1 || p.code.last().map(|i| i.op) != Some(op::END) {
        return Err(program_error("the code ends with its only end"));
    }
    Ok(())
}

/// Appends one instruction's packet.
pub fn encode_inst(inst: &Inst, out: &mut Vec<u32>) -> Result<(), EncodeError> {
    let row = check_inst(inst)?;
    let mut control = inst.control;
    if inst.pri.is_some() {
        control |= PRI_BIT;
    }
    if inst.sec.is_some() {
        control |= SEC_BIT;
    }
    out.push(
        OpcodeToken {
            code: inst.op,
            control,
        }
        .token(),
    );
    out.extend(inst.pri);
    out.extend(inst.sec);
    out.extend(&inst.pre);
    if row.form == Form::MacroCall {
        out.push(inst.dst.len() as u32 | (inst.src.len() as u32) << 16);
    }
    for d in &inst.dst {
        let modifier = d.modifier.map(|m| m.token());
        reg(&d.reg, modifier, out);
    }
    for s in &inst.src {
        src(s, out);
    }
    match row.form {
        Form::Comment | Form::FunctionTable => out.push(inst.extra.len() as u32),
        Form::InterfacePtr => {
            out.extend(&inst.extra[..2]);
            out.push(inst.extra.len() as u32 - 2);
            out.extend(&inst.extra[2..]);
            return Ok(());
        }
        _ => {}
    }
    out.extend(&inst.extra);
    Ok(())
}

fn src(s: &Src, out: &mut Vec<u32>) {
    reg(&s.reg, s.modifier.map(|m| m.token()), out);
}

fn reg(r: &Reg, modifier: Option<u32>, out: &mut Vec<u32>) {
    let (addressing, immediate, rel) = match &r.index {
        Index::None => (Addressing::Absolute, None, None),
        Index::Imm(i) => (Addressing::Absolute, Some(*i), None),
        Index::Rel(s, i) => (Addressing::RegRelative, *i, Some(s)),
    };
    token(
        r.ty,
        r.num,
        modifier.is_some(),
        addressing,
        r.dim2.is_some(),
        immediate.is_some(),
        out,
    );
    out.extend(modifier);
    if let Some(s) = rel {
        src(s, out);
    }
    out.extend(immediate);
    match &r.dim2 {
        None => {}
        Some(Dim2::Abs(n)) => token(r.ty, *n, false, Addressing::Absolute, false, false, out),
        Some(Dim2::Rel(s, imm)) => {
            // Type 0 and number 0, as example 5's second-dimension token (L809-L816).
            let ty = RegType::CONST_BOOL;
            token(
                ty,
                0,
                false,
                Addressing::RegRelative,
                false,
                imm.is_some(),
                out,
            );
            src(s, out);
            out.extend(*imm);
        }
    }
}

fn token(
    ty: RegType,
    num: u32,
    modifier: bool,
    addressing: Addressing,
    dimension: bool,
    immediate: bool,
    out: &mut Vec<u32>,
) {
    let extended = num > 0xffff;
    out.push(
        RegToken {
            num: num as u16,
            ty,
            modifier,
            addressing,
            dimension,
            immediate,
            extended,
        }
        .token(),
    );
    if extended {
        out.push(num >> 16);
    }
}

/// The instruction's row, when the instruction is one its row allows.
pub fn check_inst(inst: &Inst) -> Result<&'static Row, EncodeError> {
    let row = inst.row().ok_or(EncodeError::UnknownOpcode(inst.op))?;
    let bad = |why: String| EncodeError::Invalid {
        op: row.mnemonic,
        why,
    };
    check_control(row, inst.control).map_err(bad)?;
    if inst.pri.is_some() && !row.takes_pri() || inst.sec.is_some() && !row.takes_sec() {
        return Err(bad("takes no modifier dwords".into()));
    }
    let pre = if row.form == Form::Texture {
        usize::from(inst.control & TEX_EXT_BIT != 0)
            + usize::from(inst.control & TEX_AOFFSET_BIT != 0)
    } else {
        0
    };
    if inst.pre.len() != pre {
        return Err(bad(format!(
            "{} dwords before the operands, not {pre}",
            inst.pre.len()
        )));
    }
    check_texture_dwords(inst).map_err(|why| bad(why.into()))?;
    if row.form == Form::MacroCall {
        if inst.dst.len() > 0xffff || inst.src.len() > 0xffff {
            return Err(bad("more than 65535 outputs or inputs".into()));
        }
        if inst
            .dst
            .iter()
            .any(|d| d.modifier.is_some_and(|m| m.clamp || m.shift != 0))
        {
            return Err(bad("mcall outputs take no _sat or shift".into()));
        }
    } else {
        let (dsts, srcs) = operand_counts(row, inst.control, inst.pri);
        if inst.dst.len() != dsts || inst.src.len() != srcs {
            return Err(bad(format!(
                "{} destinations and {} sources, not {dsts} and {srcs}",
                inst.dst.len(),
                inst.src.len()
            )));
        }
    }
    for r in inst
        .dst
        .iter()
        .map(|d| &d.reg)
        .chain(inst.src.iter().map(|s| &s.reg))
    {
        check_reg(r, 0).map_err(|why| bad(why.into()))?;
    }
    let tail = match row.form {
        Form::Tail(n, _) => Some(usize::from(n)),
        Form::Named(names) => Some(names.len()),
        Form::Dims => row
            .field_of(|k| *k == Kind::Count)
            .map(|f| usize::from(f.get(inst.control))),
        Form::ConstBuffer => Some(inst.pri.map_or(0, |n| n as usize)),
        Form::MacroDef | Form::Resource => Some(1),
        Form::Comment | Form::FunctionTable => Some(inst.extra.len()),
        Form::InterfacePtr => (inst.extra.len() >= 2).then_some(inst.extra.len()),
        Form::Plain | Form::Texture | Form::MacroCall | Form::Prefix | Form::Sentinel => Some(0),
    };
    if tail != Some(inst.extra.len()) {
        return Err(bad(format!(
            "{} dwords after the operands",
            inst.extra.len()
        )));
    }
    if row.form == Form::Comment && inst.extra.len() > 0xffff {
        return Err(bad("a comment of more than 65535 dwords".into()));
    }
    check_tail(row, inst).map_err(bad)?;
    Ok(row)
}

fn check_reg(r: &Reg, depth: usize) -> Result<(), &'static str> {
    if depth > MAX_NESTING {
        return Err("index sources nested too deep");
    }
    if let Index::Rel(s, _) = &r.index {
        check_reg(&s.reg, depth + 1)?;
    }
    match &r.dim2 {
        Some(Dim2::Rel(s, _)) => check_reg(&s.reg, depth + 1),
        _ => Ok(()),
    }
}
