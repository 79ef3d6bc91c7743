//! Decoder: machine words -> [`Inst`], by (generation, encoding, opcode), never by name.
//!
//! Invariants: never panics on any input; every error is a small `Copy` value; `Inst::len`
//! is the exact number of bytes consumed. Bit layouts per generation follow CLRX
//! `doc/GcnInstrs*.md` and LLVM's `*Instructions.td` (SI/CI vs VI/GFX9 field positions).
use crate::inst::{Dpp, Encoding, Gen, Inst, MemFields, Opcode, Operand, Opnd, Sdwa, VopMods};
use crate::operand;
use crate::tables::{self, Family, Field, OpInfo, Slot};

/// Why a word could not be decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("truncated instruction at byte {offset}")]
    Truncated { offset: usize },
    #[error("unknown {family:?} opcode {op} at byte {offset}")]
    UnknownOpcode {
        family: Family,
        op: u16,
        offset: usize,
    },
    #[error("unsupported {what} instruction at byte {offset}")]
    Unsupported { what: &'static str, offset: usize },
    #[error("invalid instruction at byte {offset}: {why}")]
    Invalid { why: &'static str, offset: usize },
}

/// An instruction with its byte offset.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    pub offset: usize,
    pub inst: Inst,
}

struct Words<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Words<'_> {
    fn dword(&self, i: usize) -> Result<u32, DecodeError> {
        let s = self.at + 4 * i;
        let b = self
            .bytes
            .get(s..s + 4)
            .ok_or(DecodeError::Truncated { offset: self.at })?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

fn bit(w: u32, b: u32) -> bool {
    (w >> b) & 1 != 0
}

/// Decodes the instruction at `offset` of `bytes`.
pub fn decode(gen: Gen, bytes: &[u8], offset: usize) -> Result<Inst, DecodeError> {
    let w = Words { bytes, at: offset };
    let d0 = w.dword(0)?;
    let mut cx = Cx {
        gen,
        w,
        d0,
        len: 4,
        lit: None,
    };
    cx.run()
}

/// Decodes a whole code region, stopping at the first error (returned with its offset).
pub fn decode_all(gen: Gen, bytes: &[u8]) -> Result<Vec<Decoded>, DecodeError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let inst = decode(gen, bytes, at)?;
        let len = inst.len as usize;
        out.push(Decoded { offset: at, inst });
        at += len;
    }
    Ok(out)
}

/// An iterator over a code region: yields each instruction or the error that stops it.
pub fn iter(gen: Gen, bytes: &[u8]) -> impl Iterator<Item = Result<Decoded, DecodeError>> + '_ {
    let mut at = 0usize;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed || at >= bytes.len() {
            return None;
        }
        match decode(gen, bytes, at) {
            Ok(inst) => {
                let offset = at;
                at += inst.len as usize;
                Some(Ok(Decoded { offset, inst }))
            }
            Err(e) => {
                failed = true;
                Some(Err(e))
            }
        }
    })
}

struct Cx<'a> {
    gen: Gen,
    w: Words<'a>,
    d0: u32,
    len: u8,
    /// The literal dword once read: GCN has one literal slot per instruction, shared by
    /// every source (and the v_madmk/v_madak K constant) that names it.
    lit: Option<u32>,
}

/// True when the VOP `Vdst` of this instruction is an SGPR.
pub(crate) fn vdst_is_scalar(op: Opcode) -> bool {
    matches!(op, Opcode::V_READFIRSTLANE_B32 | Opcode::V_READLANE_B32)
}

/// True when the VOP2 `Vsrc1` field holds an SGPR code (gfx6/7 v_readlane/v_writelane).
pub(crate) fn vsrc1_is_scalar(op: Opcode) -> bool {
    matches!(op, Opcode::V_READLANE_B32 | Opcode::V_WRITELANE_B32)
}

/// Slots of the VOP3-encoded form of a VOP1/VOP2/VOPC row.
pub(crate) fn vop3_slots(info: &OpInfo) -> Vec<Slot> {
    info.slots
        .iter()
        .filter_map(|s| match s.0 {
            Field::VccOut if info.family == Family::Vopc => Some(Slot(Field::Vdst, 2)),
            Field::VccOut => Some(Slot(Field::Sdst3b, 2)),
            Field::VccIn => Some(Slot(Field::Src2, 2)),
            Field::Vsrc1 => Some(Slot(Field::Src1, s.1)),
            Field::Literal => None,
            _ => Some(*s),
        })
        .collect()
}

impl Cx<'_> {
    fn invalid(&self, why: &'static str) -> DecodeError {
        DecodeError::Invalid {
            why,
            offset: self.w.at,
        }
    }

    fn row(&self, family: Family, op: u32) -> Result<&'static OpInfo, DecodeError> {
        tables::find(self.gen, family, op as u16).ok_or(DecodeError::UnknownOpcode {
            family,
            op: op as u16,
            offset: self.w.at,
        })
    }

    /// The instruction's literal dword (the one after the instruction words), read once.
    fn literal(&mut self) -> Result<u32, DecodeError> {
        if let Some(v) = self.lit {
            return Ok(v);
        }
        let i = (self.len / 4) as usize;
        let v = self.w.dword(i)?;
        self.len += 4;
        self.lit = Some(v);
        Ok(v)
    }

    /// A 9-bit source code (VGPRs at 256+); 255 reads the literal if `allow_lit`.
    fn src(&mut self, code: u32, allow_lit: bool) -> Result<Operand, DecodeError> {
        if code >= 256 {
            return Ok(Operand::Vgpr((code - 256) as u8));
        }
        if code == 255 {
            if !allow_lit {
                return Err(self.invalid("literal constant not allowed here"));
            }
            let lit = self.literal()?;
            return Ok(Operand::Literal(lit));
        }
        operand::scalar(self.gen, code as u16).ok_or(self.invalid("operand code"))
    }

    fn sreg(&self, code: u32) -> Result<Operand, DecodeError> {
        match operand::scalar(self.gen, code as u16) {
            Some(o) if o.is_reg() => Ok(o),
            _ => Err(self.invalid("scalar register code")),
        }
    }

    fn run(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let g8 = self.gen >= Gen::Gfx8;
        if d0 >> 31 == 0 {
            return match d0 >> 25 {
                0x3f => self.vop(Family::Vop1, bits(d0, 16, 9)),
                0x3e => self.vop(Family::Vopc, bits(d0, 24, 17)),
                _ => self.vop(Family::Vop2, bits(d0, 30, 25)),
            };
        }
        match d0 >> 23 {
            0x17d => return self.sop(Family::Sop1, bits(d0, 15, 8)),
            0x17e => return self.sop(Family::Sopc, bits(d0, 22, 16)),
            0x17f => return self.sop(Family::Sopp, bits(d0, 22, 16)),
            _ => {}
        }
        if d0 >> 28 == 0xb {
            return self.sop(Family::Sopk, bits(d0, 27, 23));
        }
        if d0 >> 30 == 2 {
            return self.sop(Family::Sop2, bits(d0, 29, 23));
        }
        if !g8 && d0 >> 27 == 0x18 {
            return self.smrd();
        }
        let unsupported = |what| DecodeError::Unsupported {
            what,
            offset: self.w.at,
        };
        match (d0 >> 26, g8) {
            (0x30, true) => self.smem(),
            (0x34, _) => self.vop3(),
            (0x36, _) => self.ds(),
            (0x38, _) => self.mubuf(Family::Mubuf),
            (0x3a, _) => self.mubuf(Family::Mtbuf),
            (0x37, _) if self.gen >= Gen::Gfx7 => self.flat(),
            (0x3c, _) => self.mimg(),
            (0x3e, false) | (0x31, true) => Err(unsupported("EXP")),
            (0x32, false) | (0x35, true) => self.vintrp(),
            _ => Err(self.invalid("no encoding matches")),
        }
    }

    fn finish(
        &self,
        info: &'static OpInfo,
        encoding: Encoding,
        operands: Vec<Opnd>,
    ) -> Result<Inst, DecodeError> {
        Ok(Inst {
            gen: self.gen,
            opcode: info.opcode,
            encoding,
            info,
            operands,
            mods: VopMods::default(),
            sdwa: None,
            dpp: None,
            mem: MemFields::default(),
            simm16: None,
            len: self.len,
        })
    }

    fn sop(&mut self, family: Family, op: u32) -> Result<Inst, DecodeError> {
        let info = self.row(family, op)?;
        let d0 = self.d0;
        let enc = match family {
            Family::Sop2 => Encoding::Sop2,
            Family::Sopk => Encoding::Sopk,
            Family::Sop1 => Encoding::Sop1,
            Family::Sopc => Encoding::Sopc,
            _ => Encoding::Sopp,
        };
        let mut ops = Vec::new();
        let mut simm = None;
        let is_simm_family = matches!(family, Family::Sopk | Family::Sopp);
        if is_simm_family {
            simm = Some(bits(d0, 15, 0) as u16);
        }
        for s in info.slots {
            let v = match s.0 {
                Field::Sdst => self.sreg(bits(d0, 22, 16))?,
                Field::Ssrc0 => self.src(bits(d0, 7, 0), true)?,
                Field::Ssrc1 => self.src(bits(d0, 15, 8), true)?,
                Field::GprIdx if family == Family::Sopc => Operand::Imm(bits(d0, 15, 8)),
                Field::Literal => Operand::Literal(self.literal()?),
                _ => Operand::Imm(bits(d0, 15, 0)),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        if family == Family::Sopp && info.slots.is_empty() && bits(d0, 15, 0) != 0 {
            return Err(self.invalid("nonzero simm16 in an operandless SOPP"));
        }
        let mut inst = self.finish(info, enc, ops)?;
        inst.simm16 = simm;
        Ok(inst)
    }

    fn smrd(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let info = self.row(Family::Smrd, bits(d0, 26, 22))?;
        let imm = bit(d0, 8);
        let mut mem = MemFields {
            imm,
            ..Default::default()
        };
        let mut ops = Vec::new();
        for s in info.slots {
            let v = match s.0 {
                Field::Sdata => self.sreg(bits(d0, 21, 15))?,
                Field::Sbase => self.sreg(bits(d0, 14, 9) << 1)?,
                _ => {
                    let off = bits(d0, 7, 0);
                    if imm {
                        mem.offset = off as i32;
                        Operand::Imm(off)
                    } else if off == 255 && self.gen == Gen::Gfx7 {
                        // CI: a 32-bit literal dword offset follows (LLVM SMRD_Real_Load_IMM_ci).
                        let lit = self.literal()?;
                        mem.offset = lit as i32;
                        Operand::Literal(lit)
                    } else {
                        self.sreg(off)?
                    }
                }
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        let mut inst = self.finish(info, Encoding::Smrd, ops)?;
        inst.mem = mem;
        Ok(inst)
    }

    fn smem(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let info = self.row(Family::Smem, bits(d0, 25, 18))?;
        let imm = bit(d0, 17);
        let g9 = self.gen == Gen::Gfx9;
        if g9 && bit(d0, 14) {
            return Err(DecodeError::Unsupported {
                what: "SMEM soffset+imm (soe)",
                offset: self.w.at,
            });
        }
        let mut mem = MemFields {
            imm,
            glc: bit(d0, 16),
            nv: g9 && bit(d0, 15),
            ..Default::default()
        };
        let mut ops = Vec::new();
        for s in info.slots {
            let v = match s.0 {
                Field::Sdata => self.sreg(bits(d0, 12, 6))?,
                Field::SdataImm => Operand::Imm(bits(d0, 12, 6)),
                Field::Sbase => self.sreg(bits(d0, 5, 0) << 1)?,
                _ => {
                    if imm {
                        let off = bits(d1, 19, 0);
                        mem.offset = off as i32;
                        Operand::Imm(off)
                    } else {
                        self.sreg(bits(d1, 7, 0))?
                    }
                }
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        let mut inst = self.finish(info, Encoding::Smem, ops)?;
        inst.mem = mem;
        Ok(inst)
    }

    /// VOP1/VOP2/VOPC native, SDWA and DPP forms.
    fn vop(&mut self, family: Family, op: u32) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let info = self.row(family, op)?;
        let src0 = bits(d0, 8, 0);
        let g8 = self.gen >= Gen::Gfx8;
        let vsrc1 = bits(d0, 16, 9);
        let vdst = bits(d0, 24, 17);
        if g8 && (src0 == 249 || src0 == 250) {
            return self.vop_ext(info, src0 == 249, vsrc1, vdst);
        }
        let enc = match family {
            Family::Vop1 => Encoding::Vop1,
            Family::Vop2 => Encoding::Vop2,
            _ => Encoding::Vopc,
        };
        let mut ops = Vec::new();
        let mut lit_slot = None;
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst if vdst_is_scalar(info.opcode) => self.sreg(vdst)?,
                Field::Vdst => Operand::Vgpr(vdst as u8),
                Field::Src0 => self.src(src0, true)?,
                Field::Vsrc1 if vsrc1_is_scalar(info.opcode) => self.src(vsrc1 & 0xff, false)?,
                Field::Vsrc1 => Operand::Vgpr(vsrc1 as u8),
                Field::VccIn | Field::VccOut => Operand::VccLo,
                Field::Literal => {
                    lit_slot = Some(ops.len());
                    Operand::Imm(0)
                }
                _ => return Err(self.invalid("VOP slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        if let Some(i) = lit_slot {
            // v_madmk/v_madak: the K constant is the dword after the instruction; it may be
            // shared with a src0 literal (LLVM requires them equal).
            ops[i].value = Operand::Literal(self.literal()?);
        }
        self.finish(info, enc, ops)
    }

    fn vop_ext(
        &mut self,
        info: &'static OpInfo,
        sdwa: bool,
        vsrc1: u32,
        vdst: u32,
    ) -> Result<Inst, DecodeError> {
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let g9 = self.gen == Gen::Gfx9;
        let mask = if sdwa { info.sdwa } else { info.dpp };
        if mask & self.gen.bit() == 0 {
            return Err(DecodeError::Unsupported {
                what: if sdwa {
                    "SDWA form of this"
                } else {
                    "DPP form of this"
                },
                offset: self.w.at,
            });
        }
        let mut mods = VopMods::default();
        let mut ext_sdwa = None;
        let mut ext_dpp = None;
        let src0 = if sdwa {
            if g9 && bit(d1, 23) {
                self.sreg(bits(d1, 7, 0))?
            } else {
                Operand::Vgpr(bits(d1, 7, 0) as u8)
            }
        } else {
            Operand::Vgpr(bits(d1, 7, 0) as u8)
        };
        let mut sdst = None;
        if sdwa {
            let is_vopc = info.family == Family::Vopc;
            mods.neg = (bit(d1, 20) as u8) | (bit(d1, 28) as u8) << 1;
            mods.abs = (bit(d1, 21) as u8) | (bit(d1, 29) as u8) << 1;
            let mut s = Sdwa {
                src0_sel: bits(d1, 18, 16) as u8,
                src1_sel: bits(d1, 26, 24) as u8,
                sext: (bit(d1, 19) as u8) | (bit(d1, 27) as u8) << 1,
                ..Default::default()
            };
            if is_vopc && g9 {
                if bit(d1, 15) {
                    sdst = Some(self.sreg(bits(d1, 14, 8))?);
                }
            } else {
                s.dst_sel = bits(d1, 10, 8) as u8;
                s.dst_unused = bits(d1, 12, 11) as u8;
                mods.clamp = bit(d1, 13);
                if g9 {
                    mods.omod = bits(d1, 15, 14) as u8;
                }
            }
            if is_vopc && !g9 {
                mods.clamp = bit(d1, 13);
            }
            if s.src0_sel > 6 || s.src1_sel > 6 || s.dst_sel > 6 || s.dst_unused > 2 {
                return Err(self.invalid("SDWA select"));
            }
            ext_sdwa = Some(s);
        } else {
            let ctrl = bits(d1, 16, 8) as u16;
            if !dpp_ctrl_valid(ctrl) {
                return Err(self.invalid("DPP control"));
            }
            mods.neg = (bit(d1, 20) as u8) | (bit(d1, 22) as u8) << 1;
            mods.abs = (bit(d1, 21) as u8) | (bit(d1, 23) as u8) << 1;
            ext_dpp = Some(Dpp {
                ctrl,
                row_mask: bits(d1, 31, 28) as u8,
                bank_mask: bits(d1, 27, 24) as u8,
                bound_ctrl: bit(d1, 19),
            });
        }
        let src1_sgpr = sdwa && g9 && bit(d1, 31);
        let mut ops = Vec::new();
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst if vdst_is_scalar(info.opcode) => self.sreg(vdst)?,
                Field::Vdst => Operand::Vgpr(vdst as u8),
                Field::Src0 => src0,
                Field::Vsrc1 if src1_sgpr => self.sreg(vsrc1)?,
                Field::Vsrc1 => Operand::Vgpr(vsrc1 as u8),
                Field::VccOut => sdst.unwrap_or(Operand::VccLo),
                Field::VccIn => Operand::VccLo,
                _ => return Err(self.invalid("extended VOP slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        let mut inst = self.finish(info, if sdwa { Encoding::Sdwa } else { Encoding::Dpp }, ops)?;
        inst.mods = mods;
        inst.sdwa = ext_sdwa;
        inst.dpp = ext_dpp;
        Ok(inst)
    }

    fn vop3(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let gen = self.gen;
        if gen == Gen::Gfx9 && bits(d0, 25, 23) == 7 {
            return self.vop3p(d1);
        }
        let g8 = gen >= Gen::Gfx8;
        let op = if g8 {
            bits(d0, 25, 16)
        } else {
            bits(d0, 25, 17)
        };
        // Map the VOP3 opcode space onto the families (CLRX GcnInstrsVop3.md, "VOP3 opcode
        // space"): VOPC 0-255, VOP2 256-319, then VOP1 at 384 (gfx6/7) or 320 (gfx8/9).
        let vop1_base = if g8 { 320 } else { 384 };
        let (info, native) = if op < 256 {
            (self.row(Family::Vopc, op)?, true)
        } else if op < 320 {
            (self.row(Family::Vop2, op - 256)?, true)
        } else if op >= vop1_base && op < vop1_base + 128 {
            match tables::find(gen, Family::Vop1, (op - vop1_base) as u16) {
                Some(i) => (i, true),
                None => (self.row(Family::Vop3, op)?, false),
            }
        } else if g8 && (624..=631).contains(&op) {
            let base = tables::VINTRP_VOP3_BASE as u32;
            (self.row(Family::Vintrp, op - base)?, false)
        } else {
            (self.row(Family::Vop3, op)?, false)
        };
        if native && info.vop3 & gen.bit() == 0 {
            return Err(DecodeError::Unsupported {
                what: "VOP3 form of this",
                offset: self.w.at,
            });
        }
        let slots = if native {
            vop3_slots(info)
        } else {
            info.slots.to_vec()
        };
        let vop3b = slots.iter().any(|s| s.0 == Field::Sdst3b);
        let mut mods = VopMods {
            neg: bits(d1, 31, 29) as u8,
            omod: bits(d1, 28, 27) as u8,
            ..Default::default()
        };
        if vop3b {
            mods.clamp = g8 && bit(d0, 15);
        } else {
            mods.abs = bits(d0, 10, 8) as u8;
            mods.clamp = if g8 { bit(d0, 15) } else { bit(d0, 11) };
            if gen == Gen::Gfx9 {
                mods.op_sel = bits(d0, 14, 11) as u8;
            } else if !g8 && bits(d0, 14, 12) != 0 {
                return Err(self.invalid("VOP3 reserved bits"));
            }
        }
        let scalar_dst = vdst_is_scalar(info.opcode) || info.family == Family::Vopc;
        let mut ops = Vec::new();
        for s in &slots {
            let v = match s.0 {
                Field::Vdst if scalar_dst => self.sreg(bits(d0, 7, 0))?,
                Field::Vdst => Operand::Vgpr(bits(d0, 7, 0) as u8),
                Field::Sdst3b => self.sreg(bits(d0, 14, 8))?,
                Field::Src0 => self.src(bits(d1, 8, 0), false)?,
                Field::Src1 => self.src(bits(d1, 17, 9), false)?,
                Field::Src2 => self.src(bits(d1, 26, 18), false)?,
                // VINTRP in VOP3 (LLVM VOP3Interp_vi): src0 = attr 5:0, chan 7:6, high 8.
                Field::Attr => Operand::Imm(bits(d1, 8, 0)),
                Field::InterpParam if bits(d1, 17, 9) <= 2 => Operand::Imm(bits(d1, 17, 9)),
                Field::InterpParam => return Err(self.invalid("v_interp_mov parameter > 2")),
                _ => return Err(self.invalid("VOP3 slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        let enc = if vop3b {
            Encoding::Vop3b
        } else {
            Encoding::Vop3a
        };
        let mut inst = self.finish(info, enc, ops)?;
        inst.mods = mods;
        Ok(inst)
    }

    /// Native VINTRP (CLRX GcnInstrsVintrp.md): vsrc 7:0, attrchan 9:8, attr 15:10,
    /// op 17:16, vdst 25:18.
    fn vintrp(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let info = self.row(Family::Vintrp, bits(d0, 17, 16))?;
        let mut ops = Vec::new();
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst => Operand::Vgpr(bits(d0, 25, 18) as u8),
                Field::Src1 => Operand::Vgpr(bits(d0, 7, 0) as u8),
                Field::InterpParam if bits(d0, 7, 0) <= 2 => Operand::Imm(bits(d0, 7, 0)),
                Field::InterpParam => return Err(self.invalid("v_interp_mov parameter > 2")),
                Field::Attr => Operand::Imm(bits(d0, 15, 10) | bits(d0, 9, 8) << 6),
                _ => return Err(self.invalid("VINTRP slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        self.finish(info, Encoding::Vintrp, ops)
    }

    fn vop3p(&mut self, d1: u32) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let info = self.row(Family::Vop3p, bits(d0, 22, 16))?;
        let mods = VopMods {
            neg_hi: bits(d0, 10, 8) as u8,
            op_sel: bits(d0, 13, 11) as u8,
            op_sel_hi: bits(d1, 28, 27) as u8 | (bit(d0, 14) as u8) << 2,
            clamp: bit(d0, 15),
            neg: bits(d1, 31, 29) as u8,
            ..Default::default()
        };
        let mut ops = Vec::new();
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst => Operand::Vgpr(bits(d0, 7, 0) as u8),
                Field::Src0 => self.src(bits(d1, 8, 0), false)?,
                Field::Src1 => self.src(bits(d1, 17, 9), false)?,
                Field::Src2 => self.src(bits(d1, 26, 18), false)?,
                _ => return Err(self.invalid("VOP3P slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: s.1,
            });
        }
        let mut inst = self.finish(info, Encoding::Vop3p, ops)?;
        inst.mods = mods;
        Ok(inst)
    }

    fn ds(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let g8 = self.gen >= Gen::Gfx8;
        let (op, gds) = if g8 {
            (bits(d0, 24, 17), bit(d0, 16))
        } else {
            (bits(d0, 25, 18), bit(d0, 17))
        };
        let info = self.row(Family::Ds, op)?;
        let mem = MemFields {
            offset0: bits(d0, 7, 0) as u8,
            offset1: bits(d0, 15, 8) as u8,
            offset: bits(d0, 15, 0) as i32,
            gds,
            ..Default::default()
        };
        let mut ops = Vec::new();
        for s in info.slots {
            let code = match s.0 {
                Field::Addr => bits(d1, 7, 0),
                Field::Data0 => bits(d1, 15, 8),
                Field::Data1 => bits(d1, 23, 16),
                Field::Vdata => bits(d1, 31, 24),
                _ => return Err(self.invalid("DS slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: Operand::Vgpr(code as u8),
                dwords: s.1,
            });
        }
        let mut inst = self.finish(info, Encoding::Ds, ops)?;
        inst.mem = mem;
        Ok(inst)
    }

    fn mubuf(&mut self, family: Family) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let g8 = self.gen >= Gen::Gfx8;
        let typed = family == Family::Mtbuf;
        let op = match (typed, g8) {
            (false, _) => bits(d0, 24, 18),
            (true, false) => bits(d0, 18, 16),
            (true, true) => bits(d0, 18, 15),
        };
        let info = self.row(family, op)?;
        let mut mem = MemFields {
            offset: bits(d0, 11, 0) as i32,
            offen: bit(d0, 12),
            idxen: bit(d0, 13),
            glc: bit(d0, 14),
            addr64: !g8 && bit(d0, 15),
            tfe: bit(d1, 23),
            ..Default::default()
        };
        if typed {
            mem.dfmt = bits(d0, 22, 19) as u8;
            mem.nfmt = bits(d0, 25, 23) as u8;
            mem.slc = bit(d1, 22);
        } else {
            mem.lds = bit(d0, 16);
            mem.slc = if g8 { bit(d0, 17) } else { bit(d1, 22) };
        }
        let naddr = if mem.addr64 || (mem.offen && mem.idxen) {
            2
        } else if mem.offen || mem.idxen {
            1
        } else {
            0
        };
        let mut ops = Vec::new();
        for s in info.slots {
            let (v, n) = match s.0 {
                Field::Vdata => (
                    Operand::Vgpr(bits(d1, 15, 8) as u8),
                    info.vdata_regs(self.gen, s.1) + mem.tfe as u8,
                ),
                Field::Addr if naddr == 0 => (Operand::Off, 1),
                Field::Addr => (Operand::Vgpr(bits(d1, 7, 0) as u8), naddr),
                Field::Srsrc => (self.sreg(bits(d1, 20, 16) << 2)?, 4),
                Field::Soffset => (self.src(bits(d1, 31, 24), false)?, 1),
                _ => return Err(self.invalid("MUBUF slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: n,
            });
        }
        let enc = if typed {
            Encoding::Mtbuf
        } else {
            Encoding::Mubuf
        };
        let mut inst = self.finish(info, enc, ops)?;
        inst.mem = mem;
        Ok(inst)
    }

    fn flat(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let g9 = self.gen == Gen::Gfx9;
        let seg = if g9 { bits(d0, 15, 14) } else { 0 };
        let (family, enc) = match seg {
            0 => (Family::Flat, Encoding::Flat),
            1 => (Family::Scratch, Encoding::Scratch),
            2 => (Family::Global, Encoding::Global),
            _ => return Err(self.invalid("FLAT segment 3")),
        };
        let info = self.row(family, bits(d0, 24, 18))?;
        let mut mem = MemFields {
            glc: bit(d0, 16),
            slc: bit(d0, 17),
            seg: seg as u8,
            ..Default::default()
        };
        if g9 {
            let off = bits(d0, 12, 0) as i32;
            // FLAT offsets are 12-bit unsigned; GLOBAL/SCRATCH 13-bit signed (LLVM
            // FLAT_Real_gfx9 / getFlatOffset).
            mem.offset = if seg == 0 {
                off & 0xfff
            } else {
                (off << 19) >> 19
            };
            if seg == 0 && bit(d0, 12) {
                return Err(self.invalid("FLAT offset sign bit"));
            }
            mem.lds = bit(d0, 13);
            mem.nv = bit(d1, 23);
        } else {
            mem.tfe = bit(d1, 23);
        }
        let saddr_code = bits(d1, 22, 16);
        let mut ops = Vec::new();
        if info.has(tables::flags::ATOMIC) && mem.glc {
            // Returning atomics (glc) name their result register first; it is as wide as the
            // data, or half of it for cmpswap (data = {src, cmp}).
            let data = info.width(Field::Data0).unwrap_or(1);
            let n = if info.opcode.name().contains("cmpswap") {
                data / 2
            } else {
                data
            };
            ops.push(Opnd {
                field: Field::Vdata,
                value: Operand::Vgpr(bits(d1, 31, 24) as u8),
                dwords: n.max(1),
            });
        }
        for s in info.slots {
            let (v, n) = match s.0 {
                Field::Addr => {
                    let n = if family == Family::Global && saddr_code != 0x7f {
                        1
                    } else {
                        s.1
                    };
                    (Operand::Vgpr(bits(d1, 7, 0) as u8), n)
                }
                Field::Data0 => (Operand::Vgpr(bits(d1, 15, 8) as u8), s.1),
                Field::Vdata => (Operand::Vgpr(bits(d1, 31, 24) as u8), s.1 + mem.tfe as u8),
                Field::Saddr if saddr_code == 0x7f => (Operand::Off, 1),
                Field::Saddr => (self.sreg(saddr_code)?, s.1),
                _ => return Err(self.invalid("FLAT slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: n,
            });
        }
        let mut inst = self.finish(info, enc, ops)?;
        inst.mem = mem;
        Ok(inst)
    }

    /// MIMG (the same layout on gfx6-gfx9, CLRX GcnInstrsMimg.md; LLVM MIMGe_gfx6789). Like
    /// LLVM 14's disassembler it refuses a sampler field on rows without a sampler and `d16`
    /// where the row has none (gfx6/gfx7: bit 63 is reserved).
    fn mimg(&mut self) -> Result<Inst, DecodeError> {
        let d0 = self.d0;
        let d1 = self.w.dword(1)?;
        self.len = 8;
        let info = self.row(Family::Mimg, bits(d0, 24, 18))?;
        let mem = MemFields {
            dmask: bits(d0, 11, 8) as u8,
            unorm: bit(d0, 12),
            glc: bit(d0, 13),
            da: bit(d0, 14),
            r128: bit(d0, 15),
            tfe: bit(d0, 16),
            lwe: bit(d0, 17),
            slc: bit(d0, 25),
            d16: bit(d1, 31),
            ..Default::default()
        };
        if mem.d16 && (self.gen < Gen::Gfx8 || !tables::mimg::has_d16(info)) {
            return Err(self.invalid("MIMG d16 on an instruction without it"));
        }
        let ssamp = bits(d1, 25, 21);
        if ssamp != 0 && info.width(Field::Ssamp).is_none() {
            return Err(self.invalid("MIMG sampler on an instruction without one"));
        }
        let mut ops = Vec::new();
        for s in info.slots {
            let (v, n) = match s.0 {
                Field::Vdata => (
                    Operand::Vgpr(bits(d1, 15, 8) as u8),
                    tables::mimg::vdata_regs(info, self.gen, mem.dmask, mem.tfe, mem.d16),
                ),
                Field::Addr => (Operand::Vgpr(bits(d1, 7, 0) as u8), s.1),
                Field::Srsrc => (self.sreg(bits(d1, 20, 16) << 2)?, s.1),
                Field::Ssamp => (self.sreg(ssamp << 2)?, s.1),
                _ => return Err(self.invalid("MIMG slot")),
            };
            ops.push(Opnd {
                field: s.0,
                value: v,
                dwords: n,
            });
        }
        let mut inst = self.finish(info, Encoding::Mimg, ops)?;
        inst.mem = mem;
        Ok(inst)
    }
}

/// DPP control values that name an operation (CLRX GcnSdwaDpp.md; LLVM DppCtrl).
pub(crate) fn dpp_ctrl_valid(c: u16) -> bool {
    matches!(c, 0x000..=0x0ff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f
        | 0x130 | 0x134 | 0x138 | 0x13c | 0x140..=0x143)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s_endpgm_gfx8() {
        // llvm-mc -mcpu=tonga: s_endpgm ; encoding: [0x00,0x00,0x81,0xbf]
        let i = decode(Gen::Gfx8, &[0x00, 0x00, 0x81, 0xbf], 0).unwrap();
        assert_eq!(i.opcode, Opcode::S_ENDPGM);
        assert_eq!(i.len, 4);
    }

    #[test]
    fn truncated() {
        assert_eq!(
            decode(Gen::Gfx9, &[0x00, 0x00, 0x81], 0),
            Err(DecodeError::Truncated { offset: 0 })
        );
        // VOP3 needs 8 bytes (llvm-mc -mcpu=tonga v_fma_f32 encoding starts 0x00,0x06,0xcb,0xd1).
        assert!(matches!(
            decode(Gen::Gfx8, &[0x00, 0x06, 0xcb, 0xd1], 0),
            Err(DecodeError::Truncated { .. })
        ));
    }
}
