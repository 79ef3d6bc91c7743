//! VOP3P (gfx9 packed 16-bit math and mixed-precision mad; CLRX doc/GcnInstrsVop3p.md).
//!
//! Each source register holds two 16-bit halves. The low result half reads half
//! `op_sel[i]` of source i, the high result half reads half `op_sel_hi[i]`; float sources get
//! `neg[i]` (low) and `neg_hi[i]` (high) as sign flips. Clamp saturates integer results and
//! clamps float results to [0, 1]. Constants: an inline constant's 16-bit encoding is the low
//! half and the high half is 0 (LLVM AMDGPU's gfx9 encoding; not checked on hardware).
//!
//! `v_mad_mix*`: source i is f32 when `op_sel_hi[i]` is 0, else the f16 half `op_sel[i]`
//! converted exactly to f32; `neg` negates and `neg_hi` takes the absolute value (LLVM's use
//! of the fields for these opcodes). The multiply-add is unfused (gfx900 `v_mad_mix`); the
//! `lo`/`hi` forms round the result to f16 into one half and keep the other.
use super::vector::sources;
use super::{LiftError, Lifter};
use crate::inst::{Inst, Opcode, Operand};
use crate::tables::Field;
use wavejit_ir::{Op, ScalarType, Value};
use ScalarType::*;

impl Lifter<'_> {
    /// The 32-bit value of source `i`.
    fn p_raw(&mut self, inst: &Inst, i: usize) -> Result<Value, LiftError> {
        let Some(o) = sources(inst).get(i).copied() else {
            return Err(self.invalid(inst, format!("missing source {i}")));
        };
        if o.value.is_reg() {
            self.read_operand(inst, o.value, I32)
        } else {
            let h = self.read_scalar(inst, o.value, I16)?;
            Ok(self.b.op(Op::Zext, I32, &[h]))
        }
    }

    /// Half `hi` of a 32-bit value as `t` (I16 or F16).
    fn half(&mut self, v: Value, hi: bool, t: ScalarType) -> Value {
        let v = if hi {
            let k = self.b.i32(16);
            self.b.op(Op::Lshr, I32, &[v, k])
        } else {
            v
        };
        self.cast(v, t)
    }

    pub(crate) fn vop3p(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        if matches!(op, V_MAD_MIX_F32 | V_MAD_MIXLO_F16 | V_MAD_MIXHI_F16) {
            return self.mad_mix(inst);
        }
        let mm = self.minmax();
        let (t, o, signed) = match op {
            V_PK_MAD_I16 => (I16, Op::Imul, true),
            V_PK_MAD_U16 => (I16, Op::Imul, false),
            V_PK_FMA_F16 => (F16, Op::Fma, false),
            V_PK_MUL_LO_U16 => (I16, Op::Imul, false),
            V_PK_ADD_I16 => (I16, Op::Iadd, true),
            V_PK_SUB_I16 => (I16, Op::Isub, true),
            V_PK_ADD_U16 => (I16, Op::Iadd, false),
            V_PK_SUB_U16 => (I16, Op::Isub, false),
            V_PK_LSHLREV_B16 => (I16, Op::Shl, false),
            V_PK_LSHRREV_B16 => (I16, Op::Lshr, false),
            V_PK_ASHRREV_I16 => (I16, Op::Ashr, false),
            V_PK_MAX_I16 => (I16, Op::Smax, true),
            V_PK_MIN_I16 => (I16, Op::Smin, true),
            V_PK_MAX_U16 => (I16, Op::Umax, false),
            V_PK_MIN_U16 => (I16, Op::Umin, false),
            V_PK_ADD_F16 => (F16, Op::Fadd, false),
            V_PK_MUL_F16 => (F16, Op::Fmul, false),
            V_PK_MIN_F16 => (F16, Op::Fmin(mm), false),
            V_PK_MAX_F16 => (F16, Op::Fmax(mm), false),
            _ => return Err(self.unsupported(inst, "VOP3P opcode without semantics")),
        };
        let n = sources(inst).len();
        let raws: Vec<Value> = (0..n)
            .map(|i| self.p_raw(inst, i))
            .collect::<Result<_, _>>()?;
        let mode = self.fm(F16);
        let mut halves = [None, None];
        for (h, slot) in halves.iter_mut().enumerate() {
            let (sel, neg) = if h == 0 {
                (inst.mods.op_sel, inst.mods.neg)
            } else {
                (inst.mods.op_sel_hi, inst.mods.neg_hi)
            };
            let mut xs = Vec::new();
            for (i, &raw) in raws.iter().enumerate() {
                let x = self.half(raw, sel & (1 << i) != 0, t);
                let x = if neg & (1 << i) != 0 {
                    if t != F16 {
                        return Err(self.unsupported(inst, "neg modifier on an integer operand"));
                    }
                    self.b.op(Op::Fneg, F16, &[x])
                } else {
                    x
                };
                xs.push(x);
            }
            let r = match op {
                V_PK_MAD_I16 | V_PK_MAD_U16 => {
                    let ext = if signed { Op::Sext } else { Op::Zext };
                    let a = self.b.op(ext, I32, &[xs[0]]);
                    let b = self.b.op(ext, I32, &[xs[1]]);
                    let c = self.b.op(ext, I32, &[xs[2]]);
                    let p = self.b.op(Op::Imul, I32, &[a, b]);
                    let s = self.b.op(Op::Iadd, I32, &[p, c]);
                    let s = if inst.mods.clamp {
                        self.sat16(s, signed)
                    } else {
                        s
                    };
                    self.b.op(Op::Trunc, I16, &[s])
                }
                V_PK_ADD_I16 | V_PK_SUB_I16 | V_PK_ADD_U16 | V_PK_SUB_U16 if inst.mods.clamp => {
                    let sat = match (o, signed) {
                        (Op::Iadd, true) => Op::SaddSat,
                        (Op::Iadd, false) => Op::UaddSat,
                        (_, true) => Op::SsubSat,
                        _ => Op::UsubSat,
                    };
                    self.b.op(sat, I16, &[xs[0], xs[1]])
                }
                V_PK_LSHLREV_B16 | V_PK_LSHRREV_B16 | V_PK_ASHRREV_I16 => {
                    self.b.op(o, I16, &[xs[1], xs[0]])
                }
                _ => self.b.op_mode(o, mode, t, &xs),
            };
            let r = if t == F16 && inst.mods.clamp {
                self.b
                    .op_mode(Op::Fclamp { dx10: self.dx10() }, mode, F16, &[r])
            } else if t != F16
                && inst.mods.clamp
                && !matches!(
                    op,
                    V_PK_MAD_I16
                        | V_PK_MAD_U16
                        | V_PK_ADD_I16
                        | V_PK_SUB_I16
                        | V_PK_ADD_U16
                        | V_PK_SUB_U16
                )
            {
                return Err(self.unsupported(inst, "clamp on this packed integer op"));
            } else {
                r
            };
            *slot = Some(self.cast(r, I32));
        }
        let (lo, hi) = (halves[0].expect("low half"), halves[1].expect("high half"));
        let r = self.pack16(lo, hi);
        self.vdst_raw(inst, r)
    }

    fn mad_mix(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let mut xs = Vec::new();
        for i in 0..3 {
            let raw = self.p_raw(inst, i)?;
            let x = if inst.mods.op_sel_hi & (1 << i) != 0 {
                let h = self.half(raw, inst.mods.op_sel & (1 << i) != 0, F16);
                self.b.op(Op::Fconvert, F32, &[h])
            } else {
                self.cast(raw, F32)
            };
            let x = if inst.mods.neg_hi & (1 << i) != 0 {
                self.b.op(Op::Fabs, F32, &[x])
            } else {
                x
            };
            let x = if inst.mods.neg & (1 << i) != 0 {
                self.b.op(Op::Fneg, F32, &[x])
            } else {
                x
            };
            xs.push(x);
        }
        let m = self.fm(F32);
        let r = self.b.op_mode(Op::Fmad, m, F32, &xs);
        let dx10 = self.dx10();
        if inst.opcode == Opcode::V_MAD_MIX_F32 {
            let r = if inst.mods.clamp {
                self.b.op_mode(Op::Fclamp { dx10 }, m, F32, &[r])
            } else {
                r
            };
            return self.vdst_raw(inst, r);
        }
        let h = self
            .b
            .op_mode(Op::Fconvert, self.conv_mode(F32, F16), F16, &[r]);
        let h = if inst.mods.clamp {
            self.b.op_mode(Op::Fclamp { dx10 }, self.fm(F16), F16, &[h])
        } else {
            h
        };
        let h = self.cast(h, I32);
        let Some(Operand::Vgpr(d)) = inst.operand(Field::Vdst).map(|o| o.value) else {
            return Err(self.invalid(inst, "destination"));
        };
        let old = self.read_vgpr(inst, d as u32, I32)?;
        let r = if inst.opcode == Opcode::V_MAD_MIXLO_F16 {
            let hi = self.half_hi(old);
            self.pack16(h, hi)
        } else {
            self.pack16(old, h)
        };
        self.vdst_raw(inst, r)
    }

    fn half_hi(&mut self, v: Value) -> Value {
        let k = self.b.i32(16);
        self.b.op(Op::Lshr, I32, &[v, k])
    }
}
