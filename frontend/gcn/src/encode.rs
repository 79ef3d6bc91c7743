//! Encoder: [`Inst`] -> machine words, the inverse of `decode` (same bit layouts).
//!
//! Invariant: for every `Inst` produced by `decode`, `encode(&inst)` returns the decoded bytes
//! (checked against the LLVM vectors by the assembler tests).
use crate::inst::{Encoding, Gen, Inst, Operand};
use crate::operand::scalar_code;
use crate::print::encoded_slots;
use crate::tables::{Family, Field};

/// Why an `Inst` cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    #[error("{0} has no opcode on this generation")]
    NoOpcode(&'static str),
    #[error("operand {0:?} cannot be encoded in field {1:?}")]
    Operand(Operand, Field),
    #[error("missing operand for field {0:?}")]
    Missing(Field),
    #[error("value out of range for {0}")]
    Range(&'static str),
}

struct Enc<'a> {
    inst: &'a Inst,
    gen: Gen,
    literal: Option<u32>,
}

impl Enc<'_> {
    fn opnd(&self, f: Field) -> Result<Operand, EncodeError> {
        self.inst
            .operand(f)
            .map(|o| o.value)
            .ok_or(EncodeError::Missing(f))
    }

    fn opt(&self, f: Field) -> Option<Operand> {
        self.inst.operand(f).map(|o| o.value)
    }

    /// 9-bit source code (VGPR = 256 + n); records a literal.
    fn src9(&mut self, f: Field) -> Result<u32, EncodeError> {
        let v = self.opnd(f)?;
        self.code9(v, f)
    }

    fn code9(&mut self, v: Operand, f: Field) -> Result<u32, EncodeError> {
        match v {
            Operand::Vgpr(n) => Ok(256 + n as u32),
            Operand::Literal(l) => {
                if self.literal.is_some_and(|x| x != l) {
                    return Err(EncodeError::Operand(v, f));
                }
                self.literal = Some(l);
                Ok(255)
            }
            _ => scalar_code(self.gen, v)
                .map(u32::from)
                .ok_or(EncodeError::Operand(v, f)),
        }
    }

    /// Scalar code of a register-only field (7 or 8 bits).
    fn sreg(&self, f: Field) -> Result<u32, EncodeError> {
        let v = self.opnd(f)?;
        self.sreg_of(v, f)
    }

    fn sreg_of(&self, v: Operand, f: Field) -> Result<u32, EncodeError> {
        match v {
            Operand::Vgpr(_) | Operand::Literal(_) | Operand::Imm(_) | Operand::Off => {
                Err(EncodeError::Operand(v, f))
            }
            _ => scalar_code(self.gen, v)
                .map(u32::from)
                .ok_or(EncodeError::Operand(v, f)),
        }
    }

    fn vgpr(&self, f: Field) -> Result<u32, EncodeError> {
        match self.opnd(f)? {
            Operand::Vgpr(n) => Ok(n as u32),
            v => Err(EncodeError::Operand(v, f)),
        }
    }

    fn vgpr_or0(&self, f: Field) -> Result<u32, EncodeError> {
        match self.opt(f) {
            None | Some(Operand::Off) => Ok(0),
            Some(Operand::Vgpr(n)) => Ok(n as u32),
            Some(v) => Err(EncodeError::Operand(v, f)),
        }
    }
}

fn b(v: bool, at: u32) -> u32 {
    (v as u32) << at
}

/// The value of a VINTRP immediate operand (`Field::Attr`/`Field::InterpParam`), at most `max`.
fn interp_imm(v: Operand, f: Field, max: u32) -> Result<u32, EncodeError> {
    match v {
        Operand::Imm(x) if x <= max => Ok(x),
        _ => Err(EncodeError::Operand(v, f)),
    }
}

/// Encodes an instruction.
pub fn encode(inst: &Inst) -> Result<Vec<u8>, EncodeError> {
    let gen = inst.gen;
    let op = inst
        .info
        .opcode_in(gen)
        .ok_or(EncodeError::NoOpcode(inst.info.opcode.name()))? as u32;
    let mut e = Enc {
        inst,
        gen,
        literal: None,
    };
    let g8 = gen >= Gen::Gfx8;
    let g9 = gen == Gen::Gfx9;
    let m = &inst.mods;
    let mem = &inst.mem;
    let simm = inst.simm16.unwrap_or(0) as u32;
    let mut words: Vec<u32> = Vec::with_capacity(3);
    match inst.encoding {
        Encoding::Sop2 | Encoding::Sop1 | Encoding::Sopc | Encoding::Sopk | Encoding::Sopp => {
            let sdst = if inst.operand(Field::Sdst).is_some() {
                e.sreg(Field::Sdst)?
            } else {
                0
            };
            let s0 = if inst.operand(Field::Ssrc0).is_some() {
                e.src9(Field::Ssrc0)?
            } else {
                0
            };
            let s1 = match e.opt(Field::Ssrc1) {
                Some(_) => e.src9(Field::Ssrc1)?,
                None => match e.opt(Field::GprIdx) {
                    Some(Operand::Imm(v)) => v,
                    _ => 0,
                },
            };
            let w = match inst.encoding {
                Encoding::Sop2 => 0x8000_0000 | op << 23 | sdst << 16 | s1 << 8 | s0,
                Encoding::Sop1 => 0xbe80_0000 | sdst << 16 | op << 8 | s0,
                Encoding::Sopc => 0xbf00_0000 | op << 16 | s1 << 8 | s0,
                Encoding::Sopk => 0xb000_0000 | op << 23 | sdst << 16 | simm,
                _ => 0xbf80_0000 | op << 16 | simm,
            };
            words.push(w);
            if let Some(Operand::Literal(l)) = e.opt(Field::Literal) {
                e.literal = Some(l);
            }
        }
        Encoding::Smrd => {
            let sdata = if inst.operand(Field::Sdata).is_some() {
                e.sreg(Field::Sdata)?
            } else {
                0
            };
            let sbase = if inst.operand(Field::Sbase).is_some() {
                e.sreg(Field::Sbase)? >> 1
            } else {
                0
            };
            let (imm, off) = match e.opt(Field::Soff) {
                Some(Operand::Imm(v)) => (true, v),
                Some(Operand::Literal(l)) => {
                    e.literal = Some(l);
                    (false, 255)
                }
                Some(v) => (false, e.sreg_of(v, Field::Soff)?),
                None => (false, 0),
            };
            if off > 255 {
                return Err(EncodeError::Range("SMRD offset"));
            }
            words.push(0xc000_0000 | op << 22 | sdata << 15 | sbase << 9 | b(imm, 8) | off);
        }
        Encoding::Smem => {
            let sdata = match e.opt(Field::Sdata) {
                Some(_) => e.sreg(Field::Sdata)?,
                None => match e.opt(Field::SdataImm) {
                    Some(Operand::Imm(v)) => v,
                    _ => 0,
                },
            };
            let sbase = if inst.operand(Field::Sbase).is_some() {
                e.sreg(Field::Sbase)? >> 1
            } else {
                0
            };
            let (imm, off) = match e.opt(Field::Soff) {
                Some(Operand::Imm(v)) => (true, v),
                Some(v) => (false, e.sreg_of(v, Field::Soff)?),
                None => (false, 0),
            };
            if off >= 1 << 20 {
                return Err(EncodeError::Range("SMEM offset"));
            }
            words.push(
                0xc000_0000
                    | op << 18
                    | b(imm, 17)
                    | b(mem.glc, 16)
                    | b(mem.nv, 15)
                    | (sdata & 0x7f) << 6
                    | sbase,
            );
            words.push(off);
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc => {
            let vdst = match e.opt(Field::Vdst) {
                Some(Operand::Vgpr(n)) => n as u32,
                Some(v) => e.sreg_of(v, Field::Vdst)?,
                None => 0,
            };
            let s0 = if inst.operand(Field::Src0).is_some() {
                e.src9(Field::Src0)?
            } else {
                0
            };
            let v1 = match e.opt(Field::Vsrc1) {
                Some(Operand::Vgpr(n)) => n as u32,
                Some(v) => e.sreg_of(v, Field::Vsrc1).or_else(|_| {
                    scalar_code(gen, v)
                        .map(u32::from)
                        .ok_or(EncodeError::Operand(v, Field::Vsrc1))
                })?,
                None => 0,
            };
            if let Some(Operand::Literal(k)) = e.opt(Field::Literal) {
                if e.literal.is_some_and(|x| x != k) {
                    return Err(EncodeError::Range("madmk/madak constant"));
                }
                e.literal = Some(k);
            }
            words.push(match inst.info.family {
                Family::Vop1 => 0x7e00_0000 | vdst << 17 | op << 9 | s0,
                Family::Vopc => 0x7c00_0000 | op << 17 | v1 << 9 | s0,
                _ => op << 25 | vdst << 17 | v1 << 9 | s0,
            });
        }
        Encoding::Sdwa | Encoding::Dpp => {
            let sdwa = inst.encoding == Encoding::Sdwa;
            let vdst = match e.opt(Field::Vdst) {
                Some(Operand::Vgpr(n)) => n as u32,
                _ => 0,
            };
            let (s0, s0_sgpr) = match e.opnd(Field::Src0)? {
                Operand::Vgpr(n) => (n as u32, false),
                v => (e.sreg_of(v, Field::Src0)?, true),
            };
            let (v1, v1_sgpr) = match e.opt(Field::Vsrc1) {
                Some(Operand::Vgpr(n)) => (n as u32, false),
                Some(v) => (e.sreg_of(v, Field::Vsrc1)?, true),
                None => (0, false),
            };
            let marker = if sdwa { 249 } else { 250 };
            words.push(match inst.info.family {
                Family::Vop1 => 0x7e00_0000 | vdst << 17 | op << 9 | marker,
                Family::Vopc => 0x7c00_0000 | op << 17 | v1 << 9 | marker,
                _ => op << 25 | vdst << 17 | v1 << 9 | marker,
            });
            let neg = |i: u8| (m.neg >> i & 1) as u32;
            let abs = |i: u8| (m.abs >> i & 1) as u32;
            let w1 = if sdwa {
                let s = inst.sdwa.unwrap_or_default();
                let mut w = s0
                    | (s.src0_sel as u32) << 16
                    | ((s.sext & 1) as u32) << 19
                    | neg(0) << 20
                    | abs(0) << 21
                    | (s.src1_sel as u32) << 24
                    | ((s.sext >> 1 & 1) as u32) << 27
                    | neg(1) << 28
                    | abs(1) << 29
                    | b(s0_sgpr, 23)
                    | b(v1_sgpr, 31);
                if inst.info.family == Family::Vopc && g9 {
                    match e.opt(Field::VccOut) {
                        Some(Operand::VccLo) | None => {}
                        Some(v) => w |= e.sreg_of(v, Field::VccOut)? << 8 | 1 << 15,
                    }
                } else {
                    w |= (s.dst_sel as u32) << 8 | (s.dst_unused as u32) << 11 | b(m.clamp, 13);
                    if g9 {
                        w |= (m.omod as u32) << 14;
                    }
                }
                if inst.info.family == Family::Vopc && !g9 {
                    w |= b(m.clamp, 13);
                }
                w
            } else {
                let d = inst.dpp.unwrap_or_default();
                s0 | (d.ctrl as u32) << 8
                    | b(d.bound_ctrl, 19)
                    | neg(0) << 20
                    | abs(0) << 21
                    | neg(1) << 22
                    | abs(1) << 23
                    | (d.bank_mask as u32) << 24
                    | (d.row_mask as u32) << 28
            };
            words.push(w1);
        }
        Encoding::Vop3a | Encoding::Vop3b => {
            let native = matches!(inst.info.family, Family::Vop1 | Family::Vop2 | Family::Vopc);
            let vop1_base = if g8 { 320 } else { 384 };
            let op3 = match inst.info.family {
                Family::Vopc => op,
                Family::Vop2 => 256 + op,
                Family::Vop1 => vop1_base + op,
                Family::Vintrp => crate::tables::VINTRP_VOP3_BASE as u32 + op,
                _ => op,
            };
            let slots = encoded_slots(inst);
            let _ = native;
            let vdst = match e.opt(Field::Vdst) {
                Some(Operand::Vgpr(n)) => n as u32,
                Some(v) => e.sreg_of(v, Field::Vdst)?,
                None => 0,
            };
            let mut w0 = 0xd000_0000 | vdst;
            w0 |= if g8 { op3 << 16 } else { op3 << 17 };
            if slots.iter().any(|s| s.0 == Field::Sdst3b) {
                w0 |= e.sreg(Field::Sdst3b)? << 8;
                if g8 {
                    w0 |= b(m.clamp, 15);
                }
            } else {
                w0 |= (m.abs as u32 & 7) << 8;
                w0 |= if g8 { b(m.clamp, 15) } else { b(m.clamp, 11) };
                if g9 {
                    w0 |= (m.op_sel as u32 & 15) << 11;
                }
            }
            let mut w1 = (m.neg as u32 & 7) << 29 | (m.omod as u32 & 3) << 27;
            for (f, at) in [(Field::Src0, 0), (Field::Src1, 9), (Field::Src2, 18)] {
                if inst.operand(f).is_some() {
                    w1 |= e.src9(f)? << at;
                }
            }
            // VINTRP in VOP3: attr/chan/high fill src0, v_interp_mov's selector src1.
            if let Some(v) = e.opt(Field::Attr) {
                w1 |= interp_imm(v, Field::Attr, 0x1ff)?;
            }
            if let Some(v) = e.opt(Field::InterpParam) {
                w1 |= interp_imm(v, Field::InterpParam, 2)? << 9;
            }
            if e.literal.is_some() {
                return Err(EncodeError::Range("VOP3 literal"));
            }
            words.push(w0);
            words.push(w1);
        }
        Encoding::Vintrp => {
            // CLRX GcnInstrsVintrp.md: vsrc 7:0, attrchan 9:8, attr 15:10, op 17:16,
            // vdst 25:18, encoding 0x32 (gfx6/7) or 0x35 (gfx8/9) in 31:26.
            let vsrc = match e.opt(Field::InterpParam) {
                Some(v) => interp_imm(v, Field::InterpParam, 2)?,
                None => e.vgpr(Field::Src1)?,
            };
            let ac = interp_imm(e.opnd(Field::Attr)?, Field::Attr, 0xff)?;
            let code = if g8 { 0x35 } else { 0x32 };
            words.push(
                code << 26
                    | e.vgpr(Field::Vdst)? << 18
                    | op << 16
                    | (ac & 0x3f) << 10
                    | (ac >> 6) << 8
                    | vsrc,
            );
        }
        Encoding::Vop3p => {
            let vdst = e.vgpr(Field::Vdst)?;
            let w0 = 0xd380_0000
                | op << 16
                | vdst
                | (m.neg_hi as u32 & 7) << 8
                | (m.op_sel as u32 & 7) << 11
                | ((m.op_sel_hi >> 2 & 1) as u32) << 14
                | b(m.clamp, 15);
            let mut w1 = (m.neg as u32 & 7) << 29 | (m.op_sel_hi as u32 & 3) << 27;
            for (f, at) in [(Field::Src0, 0), (Field::Src1, 9), (Field::Src2, 18)] {
                if inst.operand(f).is_some() {
                    w1 |= e.src9(f)? << at;
                }
            }
            if e.literal.is_some() {
                return Err(EncodeError::Range("VOP3P literal"));
            }
            words.push(w0);
            words.push(w1);
        }
        Encoding::Ds => {
            let off = if inst.info.has(crate::tables::flags::DS_2ADDR) {
                mem.offset0 as u32 | (mem.offset1 as u32) << 8
            } else {
                mem.offset as u32 & 0xffff
            };
            let w0 = if g8 {
                0xd800_0000 | op << 17 | b(mem.gds, 16) | off
            } else {
                0xd800_0000 | op << 18 | b(mem.gds, 17) | off
            };
            let w1 = e.vgpr_or0(Field::Addr)?
                | e.vgpr_or0(Field::Data0)? << 8
                | e.vgpr_or0(Field::Data1)? << 16
                | e.vgpr_or0(Field::Vdata)? << 24;
            words.push(w0);
            words.push(w1);
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            if mem.offset as u32 > 0xfff {
                return Err(EncodeError::Range("buffer offset"));
            }
            let mut w0 = mem.offset as u32 | b(mem.offen, 12) | b(mem.idxen, 13) | b(mem.glc, 14);
            if inst.encoding == Encoding::Mtbuf {
                w0 |= 0xe800_0000
                    | (mem.dfmt as u32) << 19
                    | (mem.nfmt as u32) << 23
                    | b(mem.addr64, 15);
                w0 |= if g8 { op << 15 } else { op << 16 };
            } else {
                w0 |= 0xe000_0000 | op << 18 | b(mem.lds, 16);
                w0 |= if g8 {
                    b(mem.slc, 17)
                } else {
                    b(mem.addr64, 15)
                };
            }
            let slc1 = inst.encoding == Encoding::Mtbuf || !g8;
            let srsrc = if inst.operand(Field::Srsrc).is_some() {
                e.sreg(Field::Srsrc)? >> 2
            } else {
                0
            };
            let soff = if inst.operand(Field::Soffset).is_some() {
                e.src9(Field::Soffset)?
            } else {
                0
            };
            if e.literal.is_some() {
                return Err(EncodeError::Range("buffer soffset literal"));
            }
            let w1 = e.vgpr_or0(Field::Addr)?
                | e.vgpr_or0(Field::Vdata)? << 8
                | srsrc << 16
                | b(mem.slc && slc1, 22)
                | b(mem.tfe, 23)
                | soff << 24;
            words.push(w0);
            words.push(w1);
        }
        Encoding::Mimg => {
            let w0 = 0xf000_0000
                | (mem.dmask as u32 & 0xf) << 8
                | b(mem.unorm, 12)
                | b(mem.glc, 13)
                | b(mem.da, 14)
                | b(mem.r128, 15)
                | b(mem.tfe, 16)
                | b(mem.lwe, 17)
                | op << 18
                | b(mem.slc, 25);
            // The fields hold an SGPR quad index: descriptors start at a multiple of 4.
            let quad = |f| match e.sreg(f)? {
                c if c % 4 == 0 => Ok(c >> 2),
                _ => Err(EncodeError::Range("MIMG descriptor alignment")),
            };
            let ssamp = if inst.operand(Field::Ssamp).is_some() {
                quad(Field::Ssamp)?
            } else {
                0
            };
            let w1 = e.vgpr_or0(Field::Addr)?
                | e.vgpr_or0(Field::Vdata)? << 8
                | quad(Field::Srsrc)? << 16
                | ssamp << 21
                | b(mem.d16, 31);
            words.push(w0);
            words.push(w1);
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            let mut w0 = 0xdc00_0000 | op << 18 | b(mem.slc, 17) | b(mem.glc, 16);
            let mut w1 = e.vgpr_or0(Field::Addr)?
                | e.vgpr_or0(Field::Data0)? << 8
                | e.vgpr_or0(Field::Vdata)? << 24;
            if g9 {
                let seg = match inst.encoding {
                    Encoding::Scratch => 1,
                    Encoding::Global => 2,
                    _ => 0,
                };
                w0 |= seg << 14 | b(mem.lds, 13) | (mem.offset as u32 & 0x1fff);
                let saddr = match e.opt(Field::Saddr) {
                    None if seg == 0 => 0,
                    None | Some(Operand::Off) => 0x7f,
                    Some(v) => e.sreg_of(v, Field::Saddr)?,
                };
                w1 |= saddr << 16 | b(mem.nv, 23);
            } else {
                w1 |= b(mem.tfe, 23);
            }
            words.push(w0);
            words.push(w1);
        }
    }
    if let Some(l) = e.literal {
        words.push(l);
    }
    Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
}
