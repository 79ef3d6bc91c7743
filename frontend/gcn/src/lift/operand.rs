//! Operands: reading and writing SGPRs, VGPRs, special registers and constants as typed IR
//! values, plus EXEC/SCC helpers and bit-width casts.
//!
//! Constant rules (CLRX doc/GcnOperands.md): inline integers are sign-extended to the
//! operand width; inline floats take the operand width's float encoding (f16/f32/f64, also
//! for integer operands of that width); a literal is 32 bits: for a 64-bit float operand it
//! is the high dword, for a 64-bit integer operand it is zero-extended, for 16-bit operands
//! its low half is used.
//!
//! LDS_DIRECT (source code 254, gfx6-gfx9): the VALU src0 operand is a dword read from LDS at
//! byte address M0[15:0], of data type M0[18:16] (CLRX doc/GcnOperands.md): 0 unsigned byte,
//! 1 unsigned 16-bit word, 2 dword, 3 "unused (same as 2)", 4 signed byte, 5 signed 16-bit
//! word. The table reads as bits `[17:16]` = size (byte, word, dword, dword) and bit 18 =
//! sign-extend, which is how types 6 and 7 (undocumented) are lifted: a dword, where the sign
//! bit changes nothing. The address and data type are uniform, so the read is one uniform LDS
//! load that every lane sees; bytes outside the LDS allocation read as 0 (the IR's LDS rule).
//! Validity follows LLVM 14's assembler (test/MC/AMDGPU/lds_direct-err.s): SRC0 only, never a
//! 64-bit operand, never a `*rev` opcode; SDWA/VOP3P src0 forms are not lifted.
//!
//! GPR indexing (gfx8/gfx9, MODE.GPR_IDX_EN set by `s_set_gpr_idx_on`): a VALU operand in
//! slot k (src0, src1, src2, vdst = 0..3) names VGPR `n + M0[7:0]` when M0 bit `12 + k` is
//! set (CLRX GcnInstrsSopc.md; LLVM's `gpr_idx(SRC0,SRC1,SRC2,DST)` bit order). The index
//! and the slot bits are read from M0 at every instruction, so any M0 write is honoured; only
//! GPR_IDX_EN itself is static. An index past the VGPR file is "illegal" in AMD's Vega ISA
//! guide; here it faults (the IR's indexed access rule). VGPR accesses other than these four
//! slots (DPP/SDWA/VOP3P sources, read-modify-write destinations, v_swap...) are rejected
//! while indexing is on rather than lifted unindexed.
use super::control::GPR_IDX_EN;
use super::{LiftError, Lifter};
use crate::inst::{Encoding, InlineFloat, Inst, Operand};
use wavejit_ir::{IntCC, MemSpace, MemWidth, Op, Reg, ScalarType, Value};
use ScalarType::*;

/// Bits of an inline float constant in a type of `bits` width.
pub(crate) fn inline_float_bits(f: InlineFloat, bits: u32) -> u64 {
    use InlineFloat::*;
    match bits {
        16 => match f {
            Half => 0x3800,
            MinusHalf => 0xb800,
            One => 0x3c00,
            MinusOne => 0xbc00,
            Two => 0x4000,
            MinusTwo => 0xc000,
            Four => 0x4400,
            MinusFour => 0xc400,
            InvTwoPi => 0x3118,
        },
        32 => match f {
            InvTwoPi => 0x3e22_f983,
            _ => (f.value() as f32).to_bits() as u64,
        },
        _ => f.value().to_bits(),
    }
}

impl Lifter<'_> {
    /// EXEC as a uniform i64.
    pub(crate) fn exec_bits(&mut self) -> Value {
        let r = self.g.exec();
        self.b.use_reg(r, I64)
    }

    /// EXEC as a lane mask (cached per EXEC value).
    pub(crate) fn exec_mask(&mut self) -> Value {
        let e = self.exec_bits();
        if let Some((v, m)) = self.exec_cache {
            if v == e {
                return m;
            }
        }
        let m = self.b.mask_from_bits(e);
        self.exec_cache = Some((e, m));
        m
    }

    /// SCC as a uniform i1.
    pub(crate) fn scc(&mut self) -> Value {
        let r = self.g.scc();
        let v = self.b.use_reg(r, I32);
        let z = self.b.i32(0);
        self.b.op(Op::Icmp(IntCC::Ne), I1, &[v, z])
    }

    /// Writes SCC from a uniform i1.
    pub(crate) fn set_scc(&mut self, c: Value) {
        let v = self.b.op(Op::Zext, I32, &[c]);
        let r = self.g.scc();
        self.b.def_reg(r, v, None);
    }

    /// Reinterprets, truncates or zero-extends `v` to `ty` (bit-level, never numeric).
    pub(crate) fn cast(&mut self, v: Value, ty: ScalarType) -> Value {
        let from = self.b.ty(v).scalar;
        if from == ty {
            return v;
        }
        if from.bits() == ty.bits() {
            return self.b.op(Op::Bitcast, ty, &[v]);
        }
        let fi = from.as_int();
        let v = if fi != from {
            self.b.op(Op::Bitcast, fi, &[v])
        } else {
            v
        };
        let ti = ty.as_int();
        let w = if ti.bits() < fi.bits() {
            self.b.op(Op::Trunc, ti, &[v])
        } else {
            self.b.op(Op::Zext, ti, &[v])
        };
        if ti != ty {
            self.b.op(Op::Bitcast, ty, &[w])
        } else {
            w
        }
    }

    /// The first cell of a scalar register operand and the number of cells available from it.
    pub(crate) fn sreg_of(&self, op: Operand) -> Option<Reg> {
        let g = &self.g;
        Some(match op {
            Operand::Sgpr(n) => g.sgpr(n as u32),
            Operand::VccLo => g.vcc(),
            Operand::VccHi => g.vcc().offset(1),
            Operand::ExecLo => g.exec(),
            Operand::ExecHi => g.exec().offset(1),
            Operand::M0 => g.m0(),
            Operand::FlatScratchLo => g.flat_scratch(),
            Operand::FlatScratchHi => g.flat_scratch().offset(1),
            Operand::XnackMaskLo => Reg::new(g.xnack_mask, 0),
            Operand::XnackMaskHi => Reg::new(g.xnack_mask, 1),
            Operand::TbaLo => Reg::new(g.tba, 0),
            Operand::TbaHi => Reg::new(g.tba, 1),
            Operand::TmaLo => Reg::new(g.tma, 0),
            Operand::TmaHi => Reg::new(g.tma, 1),
            Operand::Ttmp(n) => Reg::new(g.ttmp, n as u32),
            _ => return None,
        })
    }

    fn checked_reg(&self, inst: &Inst, reg: Reg, cells: u32) -> Result<Reg, LiftError> {
        if self.g.layout.contains(reg, cells) {
            Ok(reg)
        } else {
            Err(self.invalid(inst, "register range outside its file"))
        }
    }

    /// Reads a non-VGPR source as a uniform value of `ty`.
    pub(crate) fn read_scalar(
        &mut self,
        inst: &Inst,
        op: Operand,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        let bits = ty.bits();
        let raw = match op {
            Operand::InlineInt(v) => self.b.iconst(ty.as_int(), v as i64 as u64),
            Operand::InlineFloat(f) => self.b.iconst(ty.as_int(), inline_float_bits(f, bits)),
            Operand::Literal(v) => {
                let bits_v = match (bits, ty) {
                    (64, F64) => (v as u64) << 32,
                    _ => v as u64,
                };
                self.b.iconst(ty.as_int(), bits_v)
            }
            Operand::Scc => {
                let c = self.scc();
                self.cast(c, ty.as_int())
            }
            Operand::Vccz | Operand::Execz => {
                let r = if op == Operand::Vccz {
                    self.g.vcc()
                } else {
                    self.g.exec()
                };
                let v = self.b.use_reg(r, I64);
                let z = self.b.i64(0);
                let c = self.b.op(Op::Icmp(IntCC::Eq), I1, &[v, z]);
                self.cast(c, ty.as_int())
            }
            Operand::LdsDirect => {
                return Err(self.unsupported(
                    inst,
                    "LDS_DIRECT is lifted as src0 of VOP1/VOP2/VOPC/VOP3 only (not SDWA/VOP3P)",
                ))
            }
            _ => {
                let Some(reg) = self.sreg_of(op) else {
                    return Err(self.unsupported(inst, format!("source operand {op:?}")));
                };
                if bits == 64 {
                    let reg = self.checked_reg(inst, reg, 2)?;
                    self.b.use_reg(reg, I64)
                } else {
                    let reg = self.checked_reg(inst, reg, 1)?;
                    let v = self.b.use_reg(reg, I32);
                    self.cast(v, ty.as_int())
                }
            }
        };
        Ok(self.cast(raw, ty))
    }

    /// Whether GPR indexing applies to `inst`: MODE.GPR_IDX_EN is on and it is a VALU op.
    pub(crate) fn gpr_idx_on(&self, inst: &Inst) -> bool {
        use Encoding as E;
        self.mode & GPR_IDX_EN != 0
            && inst.info.family != crate::tables::Family::Vintrp
            && matches!(
                inst.encoding,
                E::Vop1 | E::Vop2 | E::Vop3a | E::Vop3b | E::Vopc | E::Sdwa | E::Dpp | E::Vop3p
            )
    }

    fn no_gpr_idx(&self, inst: &Inst) -> Result<(), LiftError> {
        if self.gpr_idx_on(inst) {
            return Err(self.unsupported(
                inst,
                "this VGPR access under GPR indexing mode (s_set_gpr_idx_on): only plain \
                 src0/src1/src2/vdst operands are lifted indexed",
            ));
        }
        Ok(())
    }

    /// The GPR-indexing offset of operand slot `slot` (0-2 sources, 3 vdst):
    /// `M0[12 + slot] ? M0[7:0] : 0`, as a uniform i32.
    fn gpr_index(&mut self, slot: u32) -> Value {
        let r = self.g.m0();
        let m0 = self.b.use_reg(r, I32);
        let sh = self.b.i32(12 + slot);
        let bit = self.b.op(Op::Lshr, I32, &[m0, sh]);
        let one = self.b.i32(1);
        let en = self.b.op(Op::And, I32, &[bit, one]);
        let zero = self.b.i32(0);
        let all = self.b.op(Op::Isub, I32, &[zero, en]);
        let lo = self.b.i32(0xff);
        let idx = self.b.op(Op::And, I32, &[m0, lo]);
        self.b.op(Op::And, I32, &[idx, all])
    }

    /// Reads source `slot` of a VALU instruction (`op`), indexed when GPR indexing is on.
    pub(crate) fn read_src_slot(
        &mut self,
        inst: &Inst,
        op: Operand,
        ty: ScalarType,
        slot: u32,
    ) -> Result<Value, LiftError> {
        if op == Operand::LdsDirect {
            return self.lds_direct(inst, ty, slot);
        }
        let Operand::Vgpr(n) = op else {
            return self.read_scalar(inst, op, ty);
        };
        if !self.gpr_idx_on(inst) {
            return self.read_vgpr(inst, n as u32, ty);
        }
        let idx = self.gpr_index(slot);
        let file = self.g.v;
        if ty.bits() == 64 {
            return Ok(self.b.read_reg_indexed(file, n as u32, idx, ty));
        }
        let v = self.b.read_reg_indexed(file, n as u32, idx, I32);
        Ok(self.cast(v, ty))
    }

    /// The LDS_DIRECT operand in source slot `slot`, as `ty` (module doc).
    fn lds_direct(&mut self, inst: &Inst, ty: ScalarType, slot: u32) -> Result<Value, LiftError> {
        let name = inst.name();
        let rev = name.contains("rev_") && !name.contains("bfrev");
        if slot != 0 || rev || ty.bits() == 64 {
            return Err(self.invalid(
                inst,
                "LDS_DIRECT is a 32-bit src0 operand, not allowed with *rev opcodes",
            ));
        }
        let r = self.g.m0();
        let m0 = self.b.use_reg(r, I32);
        let k16 = self.b.i32(16);
        let kffff = self.b.i32(0xffff);
        let addr = self.b.op(Op::And, I32, &[m0, kffff]);
        let raw = self
            .b
            .load(MemSpace::Lds, MemWidth::B32, false, I32, addr, None);
        // Keep the low 8 << size bits (size 2 and 3: all 32), sign- or zero-extended by
        // shifting them to the top and back.
        let k3 = self.b.i32(3);
        let dtype = self.b.op(Op::Lshr, I32, &[m0, k16]);
        let size = self.b.op(Op::And, I32, &[dtype, k3]);
        let k2 = self.b.i32(2);
        let is_dword = self.b.op(Op::Icmp(IntCC::Uge), I1, &[size, k2]);
        let k24 = self.b.i32(24);
        let k8 = self.b.i32(8);
        let per_size = self.b.op(Op::Imul, I32, &[size, k8]);
        let narrow = self.b.op(Op::Isub, I32, &[k24, per_size]);
        let zero = self.b.i32(0);
        let shift = self.b.op(Op::Select, I32, &[is_dword, zero, narrow]);
        let up = self.b.op(Op::Shl, I32, &[raw, shift]);
        let k18 = self.b.i32(18);
        let sbit = self.b.op(Op::Lshr, I32, &[m0, k18]);
        let one = self.b.i32(1);
        let sbit = self.b.op(Op::And, I32, &[sbit, one]);
        let signed = self.b.op(Op::Icmp(IntCC::Ne), I1, &[sbit, zero]);
        let s = self.b.op(Op::Ashr, I32, &[up, shift]);
        let u = self.b.op(Op::Lshr, I32, &[up, shift]);
        let v = self.b.op(Op::Select, I32, &[signed, s, u]);
        Ok(self.cast(v, ty))
    }

    /// Writes a VALU result (32 or 64 bits) to `vdst` = VGPR `n` under `mask`, indexed when
    /// GPR indexing is on.
    pub(crate) fn write_vdst_slot(
        &mut self,
        inst: &Inst,
        n: u32,
        v: Value,
        mask: Value,
    ) -> Result<(), LiftError> {
        if !self.gpr_idx_on(inst) {
            return self.write_vgpr(inst, n, v, mask);
        }
        let t = self.b.ty(v).scalar;
        let v = if t.bits() == 64 {
            v
        } else {
            self.cast(v, if t == F32 { F32 } else { I32 })
        };
        let v = self.b.splat(v);
        let idx = self.gpr_index(3);
        let file = self.g.v;
        self.b.write_reg_indexed(file, n, idx, v, Some(mask));
        // The write may have changed any VGPR; EXEC lives elsewhere, so its cache stays valid.
        Ok(())
    }

    /// Reads VGPR `n` (lane-shaped) as `ty`; 16-bit types read the low half.
    pub(crate) fn read_vgpr(
        &mut self,
        inst: &Inst,
        n: u32,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        self.no_gpr_idx(inst)?;
        let reg = self.g.vgpr(n);
        if ty.bits() == 64 {
            let reg = self.checked_reg(inst, reg, 2)?;
            return Ok(self.b.use_reg(reg, ty));
        }
        let v = self.b.use_reg(reg, I32);
        Ok(self.cast(v, ty))
    }

    /// Reads any source operand as `ty` (lane-shaped for VGPRs).
    pub(crate) fn read_operand(
        &mut self,
        inst: &Inst,
        op: Operand,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        match op {
            Operand::Vgpr(n) => self.read_vgpr(inst, n as u32, ty),
            _ => self.read_scalar(inst, op, ty),
        }
    }

    /// Writes a uniform 32- or 64-bit value to a scalar destination.
    pub(crate) fn write_scalar(
        &mut self,
        inst: &Inst,
        op: Operand,
        v: Value,
    ) -> Result<(), LiftError> {
        let Some(reg) = self.sreg_of(op) else {
            return Err(self.invalid(inst, format!("destination operand {op:?}")));
        };
        let t = self.b.ty(v).scalar;
        let (cells, ty) = if t.bits() == 64 { (2, I64) } else { (1, I32) };
        let reg = self.checked_reg(inst, reg, cells)?;
        let v = self.cast(v, ty);
        self.b.def_reg(reg, v, None);
        Ok(())
    }

    /// Writes a lane value to VGPR `n` under `mask` (32 or 64 bits; narrower values are
    /// zero-extended to the cell).
    pub(crate) fn write_vgpr(
        &mut self,
        inst: &Inst,
        n: u32,
        v: Value,
        mask: Value,
    ) -> Result<(), LiftError> {
        self.no_gpr_idx(inst)?;
        let t = self.b.ty(v).scalar;
        let reg = self.g.vgpr(n);
        let (cells, v) = if t.bits() == 64 {
            (2, v)
        } else {
            (1, self.cast(v, if t == F32 { F32 } else { I32 }))
        };
        let reg = self.checked_reg(inst, reg, cells)?;
        self.b.def_reg(reg, v, Some(mask));
        Ok(())
    }

    /// `ballot(m & exec)`: per-lane bits with inactive lanes cleared.
    pub(crate) fn lane_bits(&mut self, m: Value) -> Value {
        let e = self.exec_mask();
        let m = self.b.splat(m);
        let a = self.b.op(Op::And, I1, &[m, e]);
        self.b.ballot(a)
    }
}
