//! The VALU operand and result model shared by VOP1/VOP2/VOPC/VOP3/SDWA/DPP.
//!
//! Sources are numbered in assembler order (src0, src1/vsrc1, src2); each is read in the
//! type the opcode's semantics asks for. Input modifiers apply to float-typed sources only,
//! `|x|` before negation, as sign-bit operations (notes/gcn_vop3_rules.md §2); an abs/neg bit
//! on an integer source is rejected (no hardware evidence of its meaning). On gfx9, `op_sel`
//! bit i picks the high half of a 16-bit source i.
//!
//! Results: float results get OMOD (×2, ×4, ×0.5; skipped when the result type keeps output
//! denormals) and then CLAMP (`Fclamp`, DX10 rule from MODE). Integer clamp is saturation and
//! is lifted by the op itself ([`Lifter::vdst_sat`]); elsewhere it is rejected. 16-bit results
//! are zero-extended into the VGPR (gfx8/gfx9 16-bit VALU ops write the whole register), except
//! the gfx9 op_sel opcodes, which write the half op_sel[3] selects and keep the other half.
use super::{LiftError, Lifter};
use crate::inst::{Encoding, Gen, Inst, Opcode, Operand, Opnd};
use crate::tables::Field;
use wavejit_ir::{FloatMode, MinMax, Op, Round, ScalarType, Value};
use ScalarType::*;

/// The source operands of a VALU instruction in order (the carry-in/VCC operand excluded).
pub(crate) fn sources(inst: &Inst) -> Vec<Opnd> {
    inst.operands
        .iter()
        .filter(|o| {
            matches!(
                o.field,
                Field::Src0 | Field::Vsrc1 | Field::Src1 | Field::Src2
            )
        })
        .copied()
        .collect()
}

/// gfx9 opcodes whose 16-bit result goes to the op_sel[3] half and keep the other half.
fn dst_op_sel(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        V_MAD_F16
            | V_MAD_U16
            | V_MAD_I16
            | V_FMA_F16
            | V_DIV_FIXUP_F16
            | V_ADD_I16
            | V_SUB_I16
            | V_MIN3_F16
            | V_MIN3_I16
            | V_MIN3_U16
            | V_MAX3_F16
            | V_MAX3_I16
            | V_MAX3_U16
            | V_MED3_F16
            | V_MED3_I16
            | V_MED3_U16
    )
}

impl Lifter<'_> {
    /// Rejects VALU forms whose operands GPR indexing mode would change in ways this lifter
    /// does not model: DPP/SDWA/VOP3P sources (their own operand paths), the lane-access and
    /// relative-move opcodes (AMD documents extra rules for them) and v_swap (two VGPR
    /// destinations). Plain VOP1/VOP2/VOP3/VOPC forms go through [`Lifter::vsrc`] and
    /// [`Lifter::vdst_raw`], which index.
    pub(crate) fn gpr_idx_check(&self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        if !self.gpr_idx_on(inst) {
            return Ok(());
        }
        let odd_encoding = matches!(
            inst.encoding,
            Encoding::Dpp | Encoding::Sdwa | Encoding::Vop3p
        );
        let odd_opcode = matches!(
            inst.opcode,
            V_READLANE_B32
                | V_WRITELANE_B32
                | V_READFIRSTLANE_B32
                | V_MOVRELD_B32
                | V_MOVRELS_B32
                | V_MOVRELSD_B32
                | V_SWAP_B32
        );
        if odd_encoding || odd_opcode {
            return Err(self.unsupported(
                inst,
                "DPP, SDWA, VOP3P, lane-access, movrel and swap forms under GPR indexing mode \
                 (s_set_gpr_idx_on)",
            ));
        }
        Ok(())
    }

    /// The float environment of ops of type `t` under the current MODE.
    pub(crate) fn fm(&self, t: ScalarType) -> FloatMode {
        let (den, rnd) = if t == F32 {
            ((self.mode >> 4) & 3, self.mode & 3)
        } else {
            ((self.mode >> 6) & 3, (self.mode >> 2) & 3)
        };
        FloatMode {
            flush_in: den & 1 == 0,
            flush_out: den & 2 == 0,
            round: match rnd {
                0 => Round::NearestEven,
                1 => Round::TowardPositive,
                2 => Round::TowardNegative,
                _ => Round::TowardZero,
            },
        }
    }

    /// Conversion environment: input flushing of `from`, output flushing and rounding of `to`.
    pub(crate) fn conv_mode(&self, from: ScalarType, to: ScalarType) -> FloatMode {
        let i = self.fm(from);
        let o = self.fm(to);
        FloatMode {
            flush_in: i.flush_in,
            flush_out: o.flush_out,
            round: o.round,
        }
    }

    /// The min/max NaN rule of MODE.IEEE.
    pub(crate) fn minmax(&self) -> MinMax {
        if self.mode & (1 << 9) != 0 {
            MinMax::Ieee
        } else {
            MinMax::NonIeee
        }
    }

    pub(crate) fn dx10(&self) -> bool {
        self.mode & (1 << 8) != 0
    }

    /// Source `i` of a VALU instruction as `ty`, with SDWA/DPP/op_sel and abs/neg applied.
    pub(crate) fn vsrc(
        &mut self,
        inst: &Inst,
        i: usize,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        let srcs = sources(inst);
        let Some(o) = srcs.get(i).copied() else {
            return Err(self.invalid(inst, format!("missing source {i}")));
        };
        let v = match inst.encoding {
            Encoding::Dpp if i == 0 => self.dpp_src(inst, o, ty)?,
            Encoding::Sdwa if i < 2 => self.sdwa_src(inst, i, o, ty)?,
            _ if ty.bits() == 16 && o.value.is_reg() => {
                let w = self.read_src_slot(inst, o.value, I32, i as u32)?;
                let w = if inst.gen == Gen::Gfx9 && inst.mods.op_sel & (1 << i) != 0 {
                    let k = self.b.i32(16);
                    self.b.op(Op::Lshr, I32, &[w, k])
                } else {
                    w
                };
                self.cast(w, ty)
            }
            _ => self.read_src_slot(inst, o.value, ty, i as u32)?,
        };
        self.input_mods(inst, i, v, ty)
    }

    fn input_mods(
        &mut self,
        inst: &Inst,
        i: usize,
        v: Value,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        let abs = inst.mods.abs & (1 << i) != 0;
        let neg = inst.mods.neg & (1 << i) != 0;
        if !abs && !neg {
            return Ok(v);
        }
        if !ty.is_float() {
            return Err(self.unsupported(inst, "abs/neg modifier on an integer operand"));
        }
        let v = if abs {
            self.b.op(Op::Fabs, ty, &[v])
        } else {
            v
        };
        Ok(if neg {
            self.b.op(Op::Fneg, ty, &[v])
        } else {
            v
        })
    }

    /// The carry-in / select mask of v_cndmask, v_addc, v_subb, v_div_fmas: VCC for the
    /// 32-bit encodings, the src2 SGPR pair in VOP3.
    pub(crate) fn vcc_in(&mut self, inst: &Inst) -> Result<Value, LiftError> {
        let bits = if inst.operand(Field::VccIn).is_some()
            || inst.opcode == Opcode::V_DIV_FMAS_F32
            || inst.opcode == Opcode::V_DIV_FMAS_F64
        {
            let r = self.g.vcc();
            self.b.use_reg(r, I64)
        } else {
            let Some(o) = inst.operand(Field::Src2).copied() else {
                return Err(self.invalid(inst, "missing carry-in operand"));
            };
            if !matches!(o.value, Operand::Vgpr(_)) {
                self.read_scalar(inst, o.value, I64)?
            } else {
                return Err(self.invalid(inst, "carry-in from a VGPR"));
            }
        };
        Ok(self.b.mask_from_bits(bits))
    }

    /// The lane mask a VALU result is written under: EXEC, narrowed by DPP controls.
    pub(crate) fn write_mask(&mut self) -> Value {
        let e = self.exec_mask();
        match self.dpp_write {
            Some(d) => self.b.op(Op::And, I1, &[e, d]),
            None => e,
        }
    }

    /// Writes a float or integer result (no integer clamp allowed).
    pub(crate) fn vdst(&mut self, inst: &Inst, v: Value) -> Result<(), LiftError> {
        let t = self.b.ty(v).scalar;
        if inst.mods.clamp && !t.is_float() {
            return Err(self.unsupported(inst, "clamp on an integer result"));
        }
        let v = if t.is_float() {
            self.output_mods(inst, v)?
        } else {
            v
        };
        self.vdst_raw(inst, v)
    }

    /// Writes an integer result whose op already applied the clamp (saturation) bit.
    pub(crate) fn vdst_sat(&mut self, inst: &Inst, v: Value) -> Result<(), LiftError> {
        self.vdst_raw(inst, v)
    }

    fn output_mods(&mut self, inst: &Inst, v: Value) -> Result<Value, LiftError> {
        let t = self.b.ty(v).scalar;
        let mut v = v;
        let out_denorm = if t == F32 {
            self.mode & (1 << 5) != 0
        } else {
            self.mode & (1 << 7) != 0
        };
        if inst.mods.omod != 0 && !out_denorm {
            let f = match inst.mods.omod {
                1 => 2.0,
                2 => 4.0,
                _ => 0.5,
            };
            let k = match t {
                F16 => self.b.iconst(
                    F16,
                    match inst.mods.omod {
                        1 => 0x4000,
                        2 => 0x4400,
                        _ => 0x3800,
                    },
                ),
                F32 => self.b.f32(f as f32),
                _ => self.b.f64(f),
            };
            v = self.b.op_mode(Op::Fmul, self.fm(t), t, &[v, k]);
        }
        if inst.mods.clamp {
            v = self
                .b
                .op_mode(Op::Fclamp { dx10: self.dx10() }, self.fm(t), t, &[v]);
        }
        Ok(v)
    }

    /// Writes `v` to the VALU destination: a VGPR (exec-masked, 16-bit and SDWA rules) or, for
    /// v_readlane/v_readfirstlane, a scalar register.
    pub(crate) fn vdst_raw(&mut self, inst: &Inst, v: Value) -> Result<(), LiftError> {
        let Some(d) = inst.operand(Field::Vdst).copied() else {
            return Err(self.invalid(inst, "missing destination"));
        };
        let Operand::Vgpr(n) = d.value else {
            return self.write_scalar(inst, d.value, v);
        };
        let n = n as u32;
        let t = self.b.ty(v).scalar;
        let mask = self.write_mask();
        if t.bits() == 64 {
            return self.write_vdst_slot(inst, n, v, mask);
        }
        let mut w = self.cast(v, if t.bits() == 16 { I16 } else { I32 });
        w = self.cast(w, I32);
        if t.bits() == 16 && inst.gen == Gen::Gfx9 && dst_op_sel(inst.opcode) {
            let hi = inst.mods.op_sel & 8 != 0;
            let old = self.read_vgpr(inst, n, I32)?;
            let keep = self.b.i32(if hi { 0xffff } else { 0xffff_0000 });
            let o = self.b.op(Op::And, I32, &[old, keep]);
            let placed = if hi {
                let k = self.b.i32(16);
                self.b.op(Op::Shl, I32, &[w, k])
            } else {
                w
            };
            w = self.b.op(Op::Or, I32, &[o, placed]);
        }
        if inst.encoding == Encoding::Sdwa {
            w = self.sdwa_dst(inst, n, w)?;
        }
        self.write_vdst_slot(inst, n, w, mask)
    }

    /// The old value of the destination VGPR (v_mac, v_cvt_pkaccum), as `ty`.
    pub(crate) fn vdst_old(&mut self, inst: &Inst, ty: ScalarType) -> Result<Value, LiftError> {
        match inst.operand(Field::Vdst).map(|o| o.value) {
            Some(Operand::Vgpr(n)) => self.read_vgpr(inst, n as u32, ty),
            _ => Err(self.invalid(inst, "destination is not a VGPR")),
        }
    }
}
