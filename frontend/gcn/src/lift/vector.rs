//! The VALU operand and result model shared by VOP1/VOP2/VOPC/VOP3/SDWA/DPP (and the VOP3
//! forms of VINTRP, see `interp.rs`).
//!
//! Sources are numbered in assembler order (src0, src1/vsrc1, src2); each is read in the
//! type the opcode's semantics asks for. The abs/neg/op_sel bit of a source is the one of its
//! encoding field (SRC0/SRC1/SRC2), which is its assembler position except for VINTRP-in-VOP3,
//! whose first assembler source sits in SRC1. On gfx9, `op_sel` bit i picks the high half of a
//! 16-bit source i.
//!
//! Input modifiers (`|x|` before negation) are sign-bit operations at the operand's width,
//! for every source type: seed 002 (CLRX GcnInstrsVop3.md) says "ABS and negation is applied
//! to source operand for any instruction", and AMD defines them on the sign bit of the float
//! operand (notes/gcn_vop3_rules.md §2). The width is the width the opcode reads the operand
//! at (its `src_ty` in the tables, e.g. CLRX's `(UINT16)SRC0`, `SRC1(2)` for a 64-bit pair):
//! bit 15 of the selected half for 16-bit operands, bit 31 for 32-bit ones (also the 24-bit
//! multiplies, which read a 32-bit register and use its low 24 bits), bit 63 of the pair for
//! 64-bit ones. So `-x` on an integer operand flips its top bit and `|x|` clears it: neither
//! is an arithmetic negation or absolute value.
//!
//! Results: float results get OMOD (×2, ×4, ×0.5; skipped when the result type keeps output
//! denormals) and then CLAMP (`Fclamp`, DX10 rule from MODE). Integer clamp is saturation for
//! the ops that document a saturating form, lifted by the op itself ([`Lifter::vdst_sat`]):
//! the add/sub family with or without carry (CLRX GcnInstrsVop2.md "If CLAMP modifier
//! supplied, then result is saturated"; LLVM selects `uaddsat`/`usubsat` to them) and the
//! 16-bit mads (CLRX GcnInstrsVop3.md V_MAD_U16/I16). On every other integer result CLAMP has
//! no effect: seed 002 says CLAMP "affects only for instruction that output is floating point
//! value or for addition/subtraction instructions", and AMD's later GCN-encoded ISA text
//! (CDNA, same opcodes) notes saturation only on those ops (e.g. V_XAD_U32: "no saturation";
//! V_MAD_U32_U24/I32_I24, V_MAD_U32_U16/I32_I16 and V_MAD_U64_U32 carry no saturation note,
//! although LLVM's VOP3 profiles accept the bit on them). 16-bit results are zero-extended into
//! the VGPR (gfx8/gfx9 16-bit VALU ops write the whole register), except the gfx9 op_sel
//! opcodes, which write the half op_sel[3] selects and keep the other half.
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
            | V_INTERP_P2_F16
    )
}

/// The encoding-field index (0-2) of a source operand: the bit its abs/neg/op_sel use.
pub(crate) fn field_index(f: Field) -> usize {
    match f {
        Field::Src0 => 0,
        Field::Src1 | Field::Vsrc1 => 1,
        _ => 2,
    }
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
        let k = field_index(o.field);
        let v = match inst.encoding {
            Encoding::Dpp if k == 0 => self.dpp_src(inst, o, ty)?,
            Encoding::Sdwa if k < 2 => self.sdwa_src(inst, k, o, ty)?,
            _ if ty.bits() == 16 && (o.value.is_reg() || o.value == Operand::LdsDirect) => {
                let w = self.read_src_slot(inst, o.value, I32, k as u32)?;
                let w = if inst.gen == Gen::Gfx9 && inst.mods.op_sel & (1 << k) != 0 {
                    let sh = self.b.i32(16);
                    self.b.op(Op::Lshr, I32, &[w, sh])
                } else {
                    w
                };
                self.cast(w, ty)
            }
            _ => self.read_src_slot(inst, o.value, ty, k as u32)?,
        };
        Ok(self.input_mods(inst, k, v))
    }

    /// Applies the abs/neg bits of encoding field `k` to `v` as sign-bit operations at the
    /// width of `v`'s type (module doc).
    pub(crate) fn input_mods(&mut self, inst: &Inst, k: usize, v: Value) -> Value {
        let abs = inst.mods.abs & (1 << k) != 0;
        let neg = inst.mods.neg & (1 << k) != 0;
        if !abs && !neg {
            return v;
        }
        let ty = self.b.ty(v).scalar;
        if ty.is_float() {
            let v = if abs {
                self.b.op(Op::Fabs, ty, &[v])
            } else {
                v
            };
            return if neg {
                self.b.op(Op::Fneg, ty, &[v])
            } else {
                v
            };
        }
        let it = ty.as_int();
        let sign_bit = 1u64 << (it.bits() - 1);
        let sign = self.b.iconst(it, sign_bit);
        let v = self.cast(v, it);
        let v = if abs {
            let keep = self.b.iconst(it, sign_bit - 1);
            self.b.op(Op::And, it, &[v, keep])
        } else {
            v
        };
        let v = if neg {
            self.b.op(Op::Xor, it, &[v, sign])
        } else {
            v
        };
        self.cast(v, ty)
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

    /// Writes a float result with its output modifiers, or an integer result (on which CLAMP
    /// has no effect: the saturating ops use [`Lifter::vdst_sat`]).
    pub(crate) fn vdst(&mut self, inst: &Inst, v: Value) -> Result<(), LiftError> {
        let t = self.b.ty(v).scalar;
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
