//! VALU opcodes whose lifting is more than a formula: carry chains, lane counts (mbcnt),
//! M0-relative moves, byte permutes, quad SADs and packed conversions. Called from
//! `valu_ops`; same sources (CLRX doc/GcnInstrsVop2.md, Vop3.md; GCN3 ISA for v_perm_b32).
use super::{LiftError, Lifter};
use crate::inst::{Inst, Opcode};
use crate::tables::Field;
use wavejit_ir::{IntCC, Op, ScalarType, Value};
use ScalarType::*;

impl Lifter<'_> {
    /// Popcount of `s0` masked to the lanes below this one (low or high half of the wave),
    /// plus `s1`: v_mbcnt_lo/hi_u32_b32.
    pub(crate) fn mbcnt(&mut self, inst: &Inst, hi: bool) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, I32)?;
        let b = self.vsrc(inst, 1, I32)?;
        let l = self.b.lane_id();
        let k32 = self.b.i32(32);
        let one = self.b.i32(1);
        let zero = self.b.i32(0);
        let all = self.b.i32(u32::MAX);
        let mask = if hi {
            // Lanes 32-63: (1 << (lane - 32)) - 1; lanes below 32: 0 (gcn_vop3_rules.md §4).
            let sh = self.b.op(Op::Isub, I32, &[l, k32]);
            let m = self.b.op(Op::Shl, I32, &[one, sh]);
            let m = self.b.op(Op::Isub, I32, &[m, one]);
            let low = self.b.op(Op::Icmp(IntCC::Ult), I1, &[l, k32]);
            self.b.op(Op::Select, I32, &[low, zero, m])
        } else {
            let m = self.b.op(Op::Shl, I32, &[one, l]);
            let m = self.b.op(Op::Isub, I32, &[m, one]);
            let high = self.b.op(Op::Icmp(IntCC::Uge), I1, &[l, k32]);
            self.b.op(Op::Select, I32, &[high, all, m])
        };
        let x = self.b.op(Op::And, I32, &[a, mask]);
        let p = self.b.op(Op::Popcnt, I32, &[x]);
        let r = self.b.op(Op::Iadd, I32, &[p, b]);
        self.vdst(inst, r)
    }

    /// Two f32/f16 sources to a packed 32-bit result (cvt_pknorm, cvt_pkrtz).
    pub(crate) fn pk2(&mut self, inst: &Inst, t: ScalarType, op: Op) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, t)?;
        let b = self.vsrc(inst, 1, t)?;
        let (a, b) = if t == F16 {
            // f16 -> f32 is exact, so the f32 packing op gives the f16 instruction's result.
            (
                self.b.op(Op::Fconvert, F32, &[a]),
                self.b.op(Op::Fconvert, F32, &[b]),
            )
        } else {
            (a, b)
        };
        let r = self.b.op_mode(op, self.fm(t), I32, &[a, b]);
        self.vdst(inst, r)
    }

    /// Writes a per-lane flag to the VOP3B scalar destination (or VCC for 32-bit encodings).
    pub(crate) fn sdst3b(&mut self, inst: &Inst, flag: Value) -> Result<(), LiftError> {
        let bits = self.lane_bits(flag);
        let dst = inst
            .operand(Field::Sdst3b)
            .or_else(|| inst.operand(Field::VccOut))
            .map(|o| o.value)
            .ok_or_else(|| self.invalid(inst, "missing scalar destination"))?;
        self.write_scalar(inst, dst, bits)
    }

    /// v_add/sub/subrev (_co) and v_addc/subb/subbrev: 32-bit result plus carry/borrow lanes.
    pub(crate) fn carry_op(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let a = self.vsrc(inst, 0, I32)?;
        let b = self.vsrc(inst, 1, I32)?;
        let rev = matches!(op, V_SUBREV_CO_U32 | V_SUBBREV_CO_U32);
        let (x, y) = if rev { (b, a) } else { (a, b) };
        let cin = if matches!(op, V_ADDC_CO_U32 | V_SUBB_CO_U32 | V_SUBBREV_CO_U32) {
            self.vcc_in(inst)?
        } else {
            self.b.bool(false)
        };
        let sub = !matches!(op, V_ADD_CO_U32 | V_ADDC_CO_U32);
        let cin32 = self.b.op(Op::Zext, I32, &[cin]);
        let (o, co) = if sub {
            (Op::Isub, Op::SubBorrowOut)
        } else {
            (Op::Iadd, Op::AddCarryOut)
        };
        let r = self.b.op(o, I32, &[x, y]);
        let r = self.b.op(o, I32, &[r, cin32]);
        let c = self.b.op(co, I1, &[x, y, cin]);
        let r = if inst.mods.clamp {
            // gfx8+ VOP3 clamp saturates the unsigned result (LLVM: clamp on v_add_co_u32).
            let lim = self.b.i32(if sub { 0 } else { u32::MAX });
            self.b.op(Op::Select, I32, &[c, lim, r])
        } else {
            r
        };
        self.sdst3b(inst, c)?;
        self.vdst_sat(inst, r)
    }

    /// v_movrels (vdst = v[src0 + M0]), v_movreld (v[vdst + M0] = src0), v_movrelsd.
    pub(crate) fn movrel_vector(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use crate::inst::Operand::Vgpr;
        let m0r = self.g.m0();
        let m0 = self.b.use_reg(m0r, I32);
        let file = self.g.v;
        let dst = inst.operand(Field::Vdst).map(|o| o.value);
        let src = inst.operand(Field::Src0).map(|o| o.value);
        let mask = self.exec_mask();
        match inst.opcode {
            Opcode::V_MOVRELS_B32 => {
                let Some(Vgpr(s)) = src else {
                    return Err(self.invalid(inst, "v_movrels source must be a VGPR"));
                };
                let v = self.b.read_reg_indexed(file, s as u32, m0, I32);
                self.vdst(inst, v)
            }
            Opcode::V_MOVRELD_B32 => {
                let Some(Vgpr(d)) = dst else {
                    return Err(self.invalid(inst, "v_movreld destination must be a VGPR"));
                };
                let v = self.vsrc(inst, 0, I32)?;
                let v = self.b.splat(v);
                self.b.write_reg_indexed(file, d as u32, m0, v, Some(mask));
                Ok(())
            }
            _ => {
                let (Some(Vgpr(d)), Some(Vgpr(s))) = (dst, src) else {
                    return Err(self.invalid(inst, "v_movrelsd operands must be VGPRs"));
                };
                let v = self.b.read_reg_indexed(file, s as u32, m0, I32);
                self.b.write_reg_indexed(file, d as u32, m0, v, Some(mask));
                Ok(())
            }
        }
    }

    /// v_perm_b32: byte i of the result is selected by byte i of src2 from the eight bytes
    /// {src0, src1} (src1 is bytes 0-3): 0-7 pick a byte, 8-11 replicate the sign bit of
    /// bytes 1, 3, 5, 7, 12 gives 0x00, 13-255 give 0xff (GCN3 ISA).
    pub(crate) fn perm(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, I32)?;
        let b = self.vsrc(inst, 1, I32)?;
        let s = self.vsrc(inst, 2, I32)?;
        let a64 = self.b.op(Op::Zext, I64, &[a]);
        let b64 = self.b.op(Op::Zext, I64, &[b]);
        let k32 = self.b.i32(32);
        let hi = self.b.op(Op::Shl, I64, &[a64, k32]);
        let all = self.b.op(Op::Or, I64, &[hi, b64]);
        let mut r = self.b.i32(0);
        for i in 0..4u32 {
            let ki = self.b.i32(8 * i);
            let k8 = self.b.i32(8);
            let sel = self.b.op(Op::Ubfe, I32, &[s, ki, k8]);
            // sel 0-7: byte sel of {src0, src1}.
            let k3 = self.b.i32(3);
            let sh = self.b.op(Op::Shl, I32, &[sel, k3]);
            let byte = self.b.op(Op::Lshr, I64, &[all, sh]);
            let byte = self.b.op(Op::Trunc, I32, &[byte]);
            let kff = self.b.i32(0xff);
            let byte = self.b.op(Op::And, I32, &[byte, kff]);
            // sel 8-11: sign of byte 2*(sel-8)+1, i.e. bit 16*(sel-8)+15.
            let k8b = self.b.i32(8);
            let j = self.b.op(Op::Isub, I32, &[sel, k8b]);
            let k4 = self.b.i32(4);
            let bitpos = self.b.op(Op::Shl, I32, &[j, k4]);
            let k15 = self.b.i32(15);
            let bitpos = self.b.op(Op::Iadd, I32, &[bitpos, k15]);
            let sign = self.b.op(Op::Lshr, I64, &[all, bitpos]);
            let sign = self.b.op(Op::Trunc, I32, &[sign]);
            let one = self.b.i32(1);
            let sign = self.b.op(Op::And, I32, &[sign, one]);
            let sign = self.b.op(Op::Imul, I32, &[sign, kff]);
            let zero = self.b.i32(0);
            let lt8 = self.b.op(Op::Icmp(IntCC::Ult), I1, &[sel, k8b]);
            let k12 = self.b.i32(12);
            let lt12 = self.b.op(Op::Icmp(IntCC::Ult), I1, &[sel, k12]);
            let eq12 = self.b.op(Op::Icmp(IntCC::Eq), I1, &[sel, k12]);
            let v = self.b.op(Op::Select, I32, &[eq12, zero, kff]);
            let v = self.b.op(Op::Select, I32, &[lt12, sign, v]);
            let v = self.b.op(Op::Select, I32, &[lt8, byte, v]);
            let v = self.b.op(Op::Shl, I32, &[v, ki]);
            r = self.b.op(Op::Or, I32, &[r, v]);
        }
        self.vdst(inst, r)
    }

    /// v_qsad_pk_u16_u8, v_mqsad_pk_u16_u8 (four SADs of src1 against the 32-bit windows of
    /// the 64-bit src0 at byte offsets 0-3, each added to a 16-bit field of src2 and kept to 16
    /// bits) and v_mqsad_u32_u8 (32-bit accumulators from a 128-bit src2, four VGPRs out). The
    /// masked (`mqsad`) forms skip reference bytes equal to 0, as v_msad_u8 (CLRX
    /// GcnInstrsVop3.md). The 16-bit truncation (rather than saturation) follows CLRX's
    /// pseudocode and is not confirmed on hardware.
    pub(crate) fn qsad(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let a = self.vsrc(inst, 0, I64)?;
        let b = self.vsrc(inst, 1, I32)?;
        let sad = if op == V_QSAD_PK_U16_U8 {
            Op::SadU8
        } else {
            Op::MsadU8
        };
        let k32 = self.b.i32(32);
        let lo = self.b.op(Op::Trunc, I32, &[a]);
        let hi = self.b.op(Op::Lshr, I64, &[a, k32]);
        let hi = self.b.op(Op::Trunc, I32, &[hi]);
        if op == V_MQSAD_U32_U8 {
            let acc = self.mqsad_acc(inst)?;
            let mut outs = Vec::new();
            for (k, acc) in acc.into_iter().enumerate() {
                let kk = self.b.i32(k as u32);
                let win = self.b.op(Op::ByteAlign, I32, &[hi, lo, kk]);
                // CLRX: the sum is formed in 64 bits and saturated to u32.
                let zero = self.b.i32(0);
                let d = self.b.op(sad, I32, &[win, b, zero]);
                let sum = self.b.op(Op::Iadd, I32, &[acc, d]);
                let wrapped = self.b.op(Op::Icmp(IntCC::Ult), I1, &[sum, acc]);
                let max = self.b.i32(u32::MAX);
                outs.push(self.b.op(Op::Select, I32, &[wrapped, max, sum]));
            }
            let Some(crate::inst::Operand::Vgpr(d)) = inst.operand(Field::Vdst).map(|o| o.value)
            else {
                return Err(self.invalid(inst, "destination"));
            };
            let m = self.exec_mask();
            for (k, v) in outs.into_iter().enumerate() {
                self.write_vgpr(inst, d as u32 + k as u32, v, m)?;
            }
            return Ok(());
        }
        let c = self.vsrc(inst, 2, I64)?;
        let mut r = self.b.i64(0);
        for k in 0..4u32 {
            let kk = self.b.i32(k);
            let win = self.b.op(Op::ByteAlign, I32, &[hi, lo, kk]);
            let ks = self.b.i32(16 * k);
            let acc = self.b.op(Op::Lshr, I64, &[c, ks]);
            let acc = self.b.op(Op::Trunc, I32, &[acc]);
            let m = self.b.i32(0xffff);
            let acc = self.b.op(Op::And, I32, &[acc, m]);
            let s = self.b.op(sad, I32, &[win, b, acc]);
            let s = self.b.op(Op::And, I32, &[s, m]);
            let s = self.b.op(Op::Zext, I64, &[s]);
            let s = self.b.op(Op::Shl, I64, &[s, ks]);
            r = self.b.op(Op::Or, I64, &[r, s]);
        }
        self.vdst(inst, r)
    }

    /// The four accumulator dwords of v_mqsad_u32_u8: four VGPRs, four SGPRs or a constant.
    /// How a constant fills a 128-bit operand is not documented (CLRX GcnInstrsVop3.md and
    /// GcnOperands.md are silent; llvm-mc 14 rejects the form): the constant is read as for a
    /// 64-bit integer operand (inline integers sign-extended, floats as f64 bits, literals
    /// zero-extended) and sign-extended to 128 bits, the natural extension of the 64-bit rule.
    /// Input modifiers then apply to the 128-bit value.
    fn mqsad_acc(&mut self, inst: &Inst) -> Result<[Value; 4], LiftError> {
        use crate::inst::Operand;
        let Some(op) = inst.operand(Field::Src2).map(|o| o.value) else {
            return Err(self.invalid(inst, "missing accumulator"));
        };
        let mut out = Vec::new();
        match op {
            Operand::Vgpr(c0) => {
                for k in 0..4 {
                    out.push(self.read_vgpr(inst, c0 as u32 + k, I32)?);
                }
            }
            Operand::Sgpr(c0) => {
                for k in 0..4u8 {
                    let r = Operand::Sgpr(c0.wrapping_add(k));
                    if c0.checked_add(k).is_none() {
                        return Err(self.invalid(inst, "register range outside its file"));
                    }
                    out.push(self.read_scalar(inst, r, I32)?);
                }
            }
            Operand::InlineInt(_) | Operand::InlineFloat(_) | Operand::Literal(_) => {
                let v = self.read_scalar(inst, op, I64)?;
                let lo = self.b.op(Op::Trunc, I32, &[v]);
                let k32 = self.b.i32(32);
                let hi = self.b.op(Op::Lshr, I64, &[v, k32]);
                let hi = self.b.op(Op::Trunc, I32, &[hi]);
                let k31 = self.b.i32(31);
                let sign = self.b.op(Op::Ashr, I32, &[hi, k31]);
                out.extend([lo, hi, sign, sign]);
            }
            _ => return Err(self.unsupported(inst, format!("accumulator operand {op:?}"))),
        }
        // abs/neg act on the sign bit of the 128-bit operand, bit 31 of its fourth dword
        // (vector.rs module doc: sign-bit operations at the operand's width).
        let top = self.input_mods(inst, 2, out[3]);
        Ok([out[0], out[1], out[2], top])
    }
}
