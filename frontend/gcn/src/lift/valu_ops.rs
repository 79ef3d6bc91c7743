//! Per-opcode semantics of VOP1, VOP2 and VOP3 (all their encodings): which sources in which
//! types, which IR ops, which destination. Formulas follow CLRX doc/GcnInstrsVop1.md, Vop2.md
//! and Vop3.md with the corrections of notes/gcn_vop3_rules.md §4.
use super::{LiftError, Lifter};
use crate::inst::{Inst, Opcode};
use crate::tables::Field;
use wavejit_ir::{Angle, IntCC, MinMax, Op, ScalarType, Trans, Value};
use ScalarType::*;

impl Lifter<'_> {
    fn f1(&mut self, inst: &Inst, t: ScalarType, op: Op) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, t)?;
        let r = self.b.op_mode(op, self.fm(t), t, &[a]);
        self.vdst(inst, r)
    }

    /// Binary op on sources of type `t`; `rev` swaps the operands (`*rev` opcodes).
    fn f2(&mut self, inst: &Inst, t: ScalarType, op: Op, rev: bool) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, t)?;
        let b = self.vsrc(inst, 1, t)?;
        let (x, y) = if rev { (b, a) } else { (a, b) };
        let r = self.b.op_mode(op, self.fm(t), t, &[x, y]);
        self.vdst(inst, r)
    }

    fn f3(&mut self, inst: &Inst, t: ScalarType, op: Op) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, t)?;
        let b = self.vsrc(inst, 1, t)?;
        let c = self.vsrc(inst, 2, t)?;
        let r = self.b.op_mode(op, self.fm(t), t, &[a, b, c]);
        self.vdst(inst, r)
    }

    /// Two-step min3/max3: `op(op(a, b), c)`.
    fn f3_twice(&mut self, inst: &Inst, t: ScalarType, op: Op) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, t)?;
        let b = self.vsrc(inst, 1, t)?;
        let c = self.vsrc(inst, 2, t)?;
        let m = self.fm(t);
        let r = self.b.op_mode(op, m, t, &[a, b]);
        let r = self.b.op_mode(op, m, t, &[r, c]);
        self.vdst(inst, r)
    }

    /// Integer add/sub family with optional saturation (the clamp bit).
    fn iaddsub(
        &mut self,
        inst: &Inst,
        t: ScalarType,
        sub: bool,
        rev: bool,
        signed: bool,
    ) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, t)?;
        let b = self.vsrc(inst, 1, t)?;
        let (x, y) = if rev { (b, a) } else { (a, b) };
        let op = match (sub, inst.mods.clamp, signed) {
            (false, false, _) => Op::Iadd,
            (true, false, _) => Op::Isub,
            (false, true, false) => Op::UaddSat,
            (true, true, false) => Op::UsubSat,
            (false, true, true) => Op::SaddSat,
            (true, true, true) => Op::SsubSat,
        };
        let r = self.b.op(op, t, &[x, y]);
        self.vdst_sat(inst, r)
    }

    /// Converts between float and integer kinds (`op` is one of the conversion ops).
    fn conv(
        &mut self,
        inst: &Inst,
        from: ScalarType,
        to: ScalarType,
        op: Op,
    ) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, from)?;
        let r = self.b.op_mode(op, self.conv_mode(from, to), to, &[a]);
        self.vdst(inst, r)
    }

    /// 24-bit operand: sign- or zero-extended low 24 bits.
    fn bits24(&mut self, v: Value, signed: bool) -> Value {
        let z = self.b.i32(0);
        let w = self.b.i32(24);
        self.b
            .op(if signed { Op::Sbfe } else { Op::Ubfe }, I32, &[v, z, w])
    }

    /// `v` clamped to [lo, hi] (signed or unsigned), then its low 16 bits as i32.
    pub(crate) fn sat16(&mut self, v: Value, signed: bool) -> Value {
        let (lo, hi) = if signed {
            (0xffff_8000u32, 0x7fff)
        } else {
            (0, 0xffff)
        };
        let klo = self.b.i32(lo);
        let khi = self.b.i32(hi);
        let r = if signed {
            let r = self.b.op(Op::Smin, I32, &[v, khi]);
            self.b.op(Op::Smax, I32, &[r, klo])
        } else {
            self.b.op(Op::Umin, I32, &[v, khi])
        };
        let m = self.b.i32(0xffff);
        self.b.op(Op::And, I32, &[r, m])
    }

    /// `lo | hi << 16` of two i32 values holding 16-bit fields.
    pub(crate) fn pack16(&mut self, lo: Value, hi: Value) -> Value {
        let k = self.b.i32(16);
        let m = self.b.i32(0xffff);
        let lo = self.b.op(Op::And, I32, &[lo, m]);
        let h = self.b.op(Op::Shl, I32, &[hi, k]);
        self.b.op(Op::Or, I32, &[lo, h])
    }

    /// VOP1, VOP2 and VOP3-only opcodes (VOPC is in `vopc`, VOP3P in `vop3p`).
    pub(crate) fn valu(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        if inst.info.family == crate::tables::Family::Vopc {
            return self.vopc(inst);
        }
        let mm = self.minmax();
        let op = inst.opcode;
        match op {
            V_NOP | V_CLREXCP => Ok(()),
            V_MOV_B32 => {
                let a = self.vsrc(inst, 0, I32)?;
                self.vdst(inst, a)
            }
            V_READFIRSTLANE_B32 => {
                let a = self.vsrc(inst, 0, I32)?;
                let a = self.b.splat(a);
                let e = self.exec_bits();
                let c = self.b.op(Op::Ctz, I64, &[e]);
                let lane = self.b.op(Op::Trunc, I32, &[c]);
                let r = self.b.read_lane(a, lane);
                self.vdst_raw(inst, r)
            }
            V_READLANE_B32 => {
                let a = self.vsrc(inst, 0, I32)?;
                let a = self.b.splat(a);
                let lane = self.vsrc(inst, 1, I32)?;
                if self.b.ty(lane).is_lane() {
                    return Err(self.invalid(inst, "the lane select must be an SGPR or a constant"));
                }
                let r = self.b.read_lane(a, lane);
                self.vdst_raw(inst, r)
            }
            V_WRITELANE_B32 => {
                // Ignores EXEC: exactly the selected lane is written.
                let a = self.vsrc(inst, 0, I32)?;
                let lane = self.vsrc(inst, 1, I32)?;
                let m63 = self.b.i32(63);
                let lane = self.b.op(Op::And, I32, &[lane, m63]);
                let l = self.b.lane_id();
                let m = self.b.op(Op::Icmp(IntCC::Eq), I1, &[l, lane]);
                let Some(crate::inst::Operand::Vgpr(n)) =
                    inst.operand(Field::Vdst).map(|o| o.value)
                else {
                    return Err(self.invalid(inst, "v_writelane destination"));
                };
                self.write_vgpr(inst, n as u32, a, m)
            }
            V_CVT_I32_F64 => self.conv(inst, F64, I32, Op::FtoS),
            V_CVT_U32_F64 => self.conv(inst, F64, I32, Op::FtoU),
            V_CVT_F64_I32 => self.conv(inst, I32, F64, Op::StoF),
            V_CVT_F64_U32 => self.conv(inst, I32, F64, Op::UtoF),
            V_CVT_F32_I32 => self.conv(inst, I32, F32, Op::StoF),
            V_CVT_F32_U32 => self.conv(inst, I32, F32, Op::UtoF),
            V_CVT_U32_F32 => self.conv(inst, F32, I32, Op::FtoU),
            V_CVT_I32_F32 => self.conv(inst, F32, I32, Op::FtoS),
            V_CVT_F16_F32 => self.conv(inst, F32, F16, Op::Fconvert),
            V_CVT_F32_F16 => self.conv(inst, F16, F32, Op::Fconvert),
            V_CVT_F32_F64 => self.conv(inst, F64, F32, Op::Fconvert),
            V_CVT_F64_F32 => self.conv(inst, F32, F64, Op::Fconvert),
            V_CVT_F16_U16 => self.conv(inst, I16, F16, Op::UtoF),
            V_CVT_F16_I16 => self.conv(inst, I16, F16, Op::StoF),
            V_CVT_U16_F16 => self.conv(inst, F16, I16, Op::FtoU),
            V_CVT_I16_F16 => self.conv(inst, F16, I16, Op::FtoS),
            V_CVT_RPI_I32_F32 | V_CVT_FLR_I32_F32 => {
                // rpi: (int)floor(x + 0.5); flr: (int)floor(x) (CLRX GcnInstrsVop1.md).
                let a = self.vsrc(inst, 0, F32)?;
                let m = self.fm(F32);
                let x = if op == V_CVT_RPI_I32_F32 {
                    let h = self.b.f32(0.5);
                    self.b.op_mode(Op::Fadd, m, F32, &[a, h])
                } else {
                    a
                };
                let f = self.b.op_mode(Op::Ffloor, m, F32, &[x]);
                let r = self.b.op_mode(Op::FtoS, m, I32, &[f]);
                self.vdst(inst, r)
            }
            V_CVT_OFF_F32_I4 => {
                // Signed 4-bit S0[3:0] / 16.
                let a = self.vsrc(inst, 0, I32)?;
                let z = self.b.i32(0);
                let w = self.b.i32(4);
                let x = self.b.op(Op::Sbfe, I32, &[a, z, w]);
                let f = self.b.op_mode(Op::StoF, self.fm(F32), F32, &[x]);
                let k = self.b.f32(0.0625);
                let r = self.b.op_mode(Op::Fmul, self.fm(F32), F32, &[f, k]);
                self.vdst(inst, r)
            }
            V_CVT_F32_UBYTE0 | V_CVT_F32_UBYTE1 | V_CVT_F32_UBYTE2 | V_CVT_F32_UBYTE3 => {
                let n = match op {
                    V_CVT_F32_UBYTE0 => 0,
                    V_CVT_F32_UBYTE1 => 8,
                    V_CVT_F32_UBYTE2 => 16,
                    _ => 24,
                };
                let a = self.vsrc(inst, 0, I32)?;
                let s = self.b.i32(n);
                let w = self.b.i32(8);
                let x = self.b.op(Op::Ubfe, I32, &[a, s, w]);
                let r = self.b.op_mode(Op::UtoF, self.fm(F32), F32, &[x]);
                self.vdst(inst, r)
            }
            V_TRUNC_F64 => self.f1(inst, F64, Op::Ftrunc),
            V_CEIL_F64 => self.f1(inst, F64, Op::Fceil),
            V_RNDNE_F64 => self.f1(inst, F64, Op::Frint),
            V_FLOOR_F64 => self.f1(inst, F64, Op::Ffloor),
            V_FRACT_F64 => self.f1(inst, F64, Op::Ffract),
            V_TRUNC_F32 => self.f1(inst, F32, Op::Ftrunc),
            V_CEIL_F32 => self.f1(inst, F32, Op::Fceil),
            V_RNDNE_F32 => self.f1(inst, F32, Op::Frint),
            V_FLOOR_F32 => self.f1(inst, F32, Op::Ffloor),
            V_FRACT_F32 => self.f1(inst, F32, Op::Ffract),
            V_TRUNC_F16 => self.f1(inst, F16, Op::Ftrunc),
            V_CEIL_F16 => self.f1(inst, F16, Op::Fceil),
            V_RNDNE_F16 => self.f1(inst, F16, Op::Frint),
            V_FLOOR_F16 => self.f1(inst, F16, Op::Ffloor),
            V_FRACT_F16 => self.f1(inst, F16, Op::Ffract),
            V_EXP_F32 => self.f1(inst, F32, Op::Fexp2(Trans::Ieee)),
            V_LOG_F32 => self.f1(inst, F32, Op::Flog2(Trans::Ieee)),
            V_EXP_LEGACY_F32 => self.f1(inst, F32, Op::Fexp2(Trans::Legacy)),
            V_LOG_LEGACY_F32 => self.f1(inst, F32, Op::Flog2(Trans::Legacy)),
            V_LOG_CLAMP_F32 => self.f1(inst, F32, Op::Flog2(Trans::Clamped)),
            V_RCP_F32 | V_RCP_IFLAG_F32 => self.f1(inst, F32, Op::Frcp(Trans::Ieee)),
            V_RCP_CLAMP_F32 => self.f1(inst, F32, Op::Frcp(Trans::Clamped)),
            V_RCP_LEGACY_F32 => self.f1(inst, F32, Op::Frcp(Trans::Legacy)),
            V_RSQ_F32 => self.f1(inst, F32, Op::Frsq(Trans::Ieee)),
            V_RSQ_CLAMP_F32 => self.f1(inst, F32, Op::Frsq(Trans::Clamped)),
            V_RSQ_LEGACY_F32 => self.f1(inst, F32, Op::Frsq(Trans::Legacy)),
            V_SQRT_F32 => self.f1(inst, F32, Op::Fsqrt(Trans::Ieee)),
            V_SIN_F32 => self.f1(inst, F32, Op::Fsin(Trans::Ieee, Angle::Turns)),
            V_COS_F32 => self.f1(inst, F32, Op::Fcos(Trans::Ieee, Angle::Turns)),
            V_RCP_F64 => self.f1(inst, F64, Op::Frcp(Trans::Ieee)),
            V_RCP_CLAMP_F64 => self.f1(inst, F64, Op::Frcp(Trans::Clamped)),
            V_RSQ_F64 => self.f1(inst, F64, Op::Frsq(Trans::Ieee)),
            V_RSQ_CLAMP_F64 => self.f1(inst, F64, Op::Frsq(Trans::Clamped)),
            V_SQRT_F64 => self.f1(inst, F64, Op::Fsqrt(Trans::Ieee)),
            V_RCP_F16 => self.f1(inst, F16, Op::Frcp(Trans::Ieee)),
            V_SQRT_F16 => self.f1(inst, F16, Op::Fsqrt(Trans::Ieee)),
            V_RSQ_F16 => self.f1(inst, F16, Op::Frsq(Trans::Ieee)),
            V_LOG_F16 => self.f1(inst, F16, Op::Flog2(Trans::Ieee)),
            V_EXP_F16 => self.f1(inst, F16, Op::Fexp2(Trans::Ieee)),
            V_SIN_F16 => self.f1(inst, F16, Op::Fsin(Trans::Ieee, Angle::Turns)),
            V_COS_F16 => self.f1(inst, F16, Op::Fcos(Trans::Ieee, Angle::Turns)),
            V_FREXP_MANT_F64 => self.f1(inst, F64, Op::FrexpMant),
            V_FREXP_MANT_F32 => self.f1(inst, F32, Op::FrexpMant),
            V_FREXP_MANT_F16 => self.f1(inst, F16, Op::FrexpMant),
            V_FREXP_EXP_I32_F64 | V_FREXP_EXP_I32_F32 | V_FREXP_EXP_I16_F16 => {
                let t = match op {
                    V_FREXP_EXP_I32_F64 => F64,
                    V_FREXP_EXP_I32_F32 => F32,
                    _ => F16,
                };
                let a = self.vsrc(inst, 0, t)?;
                let r = self.b.op_mode(Op::FrexpExp, self.fm(t), I32, &[a]);
                let r = if t == F16 {
                    self.b.op(Op::Trunc, I16, &[r])
                } else {
                    r
                };
                self.vdst(inst, r)
            }
            V_NOT_B32 => self.f1(inst, I32, Op::Not),
            V_BFREV_B32 => self.f1(inst, I32, Op::Bitrev),
            V_FFBH_U32 | V_FFBL_B32 => {
                let a = self.vsrc(inst, 0, I32)?;
                let c = self
                    .b
                    .op(if op == V_FFBH_U32 { Op::Clz } else { Op::Ctz }, I32, &[a]);
                let z = self.b.i32(0);
                let is0 = self.b.op(Op::Icmp(IntCC::Eq), I1, &[a, z]);
                let m1 = self.b.i32(u32::MAX);
                let r = self.b.op(Op::Select, I32, &[is0, m1, c]);
                self.vdst(inst, r)
            }
            V_FFBH_I32 => {
                let a = self.vsrc(inst, 0, I32)?;
                let r = self.flbit_signed(a);
                self.vdst(inst, r)
            }
            V_MOVRELD_B32 | V_MOVRELS_B32 | V_MOVRELSD_B32 => self.movrel_vector(inst),
            V_SWAP_B32 => {
                let (Some(crate::inst::Operand::Vgpr(d)), Some(crate::inst::Operand::Vgpr(s))) = (
                    inst.operand(Field::Vdst).map(|o| o.value),
                    inst.operand(Field::Src0).map(|o| o.value),
                ) else {
                    return Err(self.invalid(inst, "v_swap_b32 operands must be VGPRs"));
                };
                let a = self.read_vgpr(inst, d as u32, I32)?;
                let b = self.read_vgpr(inst, s as u32, I32)?;
                let m = self.exec_mask();
                self.write_vgpr(inst, d as u32, b, m)?;
                self.write_vgpr(inst, s as u32, a, m)
            }
            V_CVT_NORM_I16_F16 | V_CVT_NORM_U16_F16 => {
                let a = self.vsrc(inst, 0, F16)?;
                let x = self.b.op(Op::Fconvert, F32, &[a]);
                let z = self.b.f32(0.0);
                let o = if op == V_CVT_NORM_I16_F16 {
                    Op::CvtPknormI16
                } else {
                    Op::CvtPknormU16
                };
                let p = self.b.op_mode(o, self.fm(F16), I32, &[x, z]);
                let r = self.b.op(Op::Trunc, I16, &[p]);
                self.vdst(inst, r)
            }
            V_SAT_PK_U8_I16 => {
                let a = self.vsrc(inst, 0, I32)?;
                let z = self.b.i32(0);
                let w = self.b.i32(16);
                let lo = self.b.op(Op::Sbfe, I32, &[a, z, w]);
                let hi = self.b.op(Op::Sbfe, I32, &[a, w, w]);
                let k0 = self.b.i32(0);
                let k255 = self.b.i32(255);
                let clamp = |s: &mut Self, v: Value| {
                    let v = s.b.op(Op::Smax, I32, &[v, k0]);
                    s.b.op(Op::Smin, I32, &[v, k255])
                };
                let lo = clamp(self, lo);
                let hi = clamp(self, hi);
                let k8 = self.b.i32(8);
                let hi = self.b.op(Op::Shl, I32, &[hi, k8]);
                let r = self.b.op(Op::Or, I32, &[lo, hi]);
                self.vdst(inst, r)
            }
            // --- VOP2 ---
            V_CNDMASK_B32 => {
                // Sources read as f32 so VOP3 abs/neg apply (LLVM folds fneg/fabs into them).
                let a = self.vsrc(inst, 0, F32)?;
                let b = self.vsrc(inst, 1, F32)?;
                let m = self.vcc_in(inst)?;
                let r = self.b.op(Op::Select, F32, &[m, b, a]);
                self.vdst_raw(inst, r)
            }
            V_ADD_F32 => self.f2(inst, F32, Op::Fadd, false),
            V_SUB_F32 => self.f2(inst, F32, Op::Fsub, false),
            V_SUBREV_F32 => self.f2(inst, F32, Op::Fsub, true),
            V_MUL_F32 => self.f2(inst, F32, Op::Fmul, false),
            V_MUL_LEGACY_F32 => self.f2(inst, F32, Op::FmulLegacy, false),
            V_MIN_F32 => self.f2(inst, F32, Op::Fmin(mm), false),
            V_MAX_F32 => self.f2(inst, F32, Op::Fmax(mm), false),
            V_MIN_LEGACY_F32 => self.f2(inst, F32, Op::Fmin(MinMax::Legacy), false),
            V_MAX_LEGACY_F32 => self.f2(inst, F32, Op::Fmax(MinMax::Legacy), false),
            V_ADD_F16 => self.f2(inst, F16, Op::Fadd, false),
            V_SUB_F16 => self.f2(inst, F16, Op::Fsub, false),
            V_SUBREV_F16 => self.f2(inst, F16, Op::Fsub, true),
            V_MUL_F16 => self.f2(inst, F16, Op::Fmul, false),
            V_MIN_F16 => self.f2(inst, F16, Op::Fmin(mm), false),
            V_MAX_F16 => self.f2(inst, F16, Op::Fmax(mm), false),
            V_ADD_F64 => self.f2(inst, F64, Op::Fadd, false),
            V_MUL_F64 => self.f2(inst, F64, Op::Fmul, false),
            V_MIN_F64 => self.f2(inst, F64, Op::Fmin(mm), false),
            V_MAX_F64 => self.f2(inst, F64, Op::Fmax(mm), false),
            V_MUL_I32_I24 | V_MUL_U32_U24 | V_MUL_HI_I32_I24 | V_MUL_HI_U32_U24 => {
                let signed = matches!(op, V_MUL_I32_I24 | V_MUL_HI_I32_I24);
                let a = self.vsrc(inst, 0, I32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let a = self.bits24(a, signed);
                let b = self.bits24(b, signed);
                let r = if matches!(op, V_MUL_I32_I24 | V_MUL_U32_U24) {
                    self.b.op(Op::Imul, I32, &[a, b])
                } else {
                    self.b
                        .op(if signed { Op::SmulHi } else { Op::UmulHi }, I32, &[a, b])
                };
                self.vdst(inst, r)
            }
            V_MIN_I32 => self.f2(inst, I32, Op::Smin, false),
            V_MAX_I32 => self.f2(inst, I32, Op::Smax, false),
            V_MIN_U32 => self.f2(inst, I32, Op::Umin, false),
            V_MAX_U32 => self.f2(inst, I32, Op::Umax, false),
            V_MIN_I16 => self.f2(inst, I16, Op::Smin, false),
            V_MAX_I16 => self.f2(inst, I16, Op::Smax, false),
            V_MIN_U16 => self.f2(inst, I16, Op::Umin, false),
            V_MAX_U16 => self.f2(inst, I16, Op::Umax, false),
            V_LSHRREV_B32 => self.f2(inst, I32, Op::Lshr, true),
            V_ASHRREV_I32 => self.f2(inst, I32, Op::Ashr, true),
            V_LSHLREV_B32 => self.f2(inst, I32, Op::Shl, true),
            V_LSHR_B32 => self.f2(inst, I32, Op::Lshr, false),
            V_ASHR_I32 => self.f2(inst, I32, Op::Ashr, false),
            V_LSHL_B32 => self.f2(inst, I32, Op::Shl, false),
            V_LSHRREV_B16 => self.f2(inst, I16, Op::Lshr, true),
            V_ASHRREV_I16 => self.f2(inst, I16, Op::Ashr, true),
            V_LSHLREV_B16 => self.f2(inst, I16, Op::Shl, true),
            V_AND_B32 => self.f2(inst, I32, Op::And, false),
            V_OR_B32 => self.f2(inst, I32, Op::Or, false),
            V_XOR_B32 => self.f2(inst, I32, Op::Xor, false),
            V_MUL_LO_U16 => self.f2(inst, I16, Op::Imul, false),
            V_MUL_LO_U32 | V_MUL_LO_I32 => self.f2(inst, I32, Op::Imul, false),
            V_MUL_HI_U32 => self.f2(inst, I32, Op::UmulHi, false),
            V_MUL_HI_I32 => self.f2(inst, I32, Op::SmulHi, false),
            V_ADD_U16 => self.iaddsub(inst, I16, false, false, false),
            V_SUB_U16 => self.iaddsub(inst, I16, true, false, false),
            V_SUBREV_U16 => self.iaddsub(inst, I16, true, true, false),
            V_ADD_U32 => self.iaddsub(inst, I32, false, false, false),
            V_SUB_U32 => self.iaddsub(inst, I32, true, false, false),
            V_SUBREV_U32 => self.iaddsub(inst, I32, true, true, false),
            V_ADD_I32 => self.iaddsub(inst, I32, false, false, true),
            V_SUB_I32 => self.iaddsub(inst, I32, true, false, true),
            V_ADD_I16 => self.iaddsub(inst, I16, false, false, true),
            V_SUB_I16 => self.iaddsub(inst, I16, true, false, true),
            V_ADD_CO_U32 | V_SUB_CO_U32 | V_SUBREV_CO_U32 | V_ADDC_CO_U32 | V_SUBB_CO_U32
            | V_SUBBREV_CO_U32 => self.carry_op(inst),
            V_MAC_F32 | V_MAC_F16 | V_MAC_LEGACY_F32 => {
                let t = if op == V_MAC_F16 { F16 } else { F32 };
                let a = self.vsrc(inst, 0, t)?;
                let b = self.vsrc(inst, 1, t)?;
                let c = self.vdst_old(inst, t)?;
                let o = if op == V_MAC_LEGACY_F32 {
                    Op::FmadLegacy
                } else {
                    Op::Fmad
                };
                let r = self.b.op_mode(o, self.fm(t), t, &[a, b, c]);
                self.vdst(inst, r)
            }
            V_MADMK_F32 | V_MADAK_F32 | V_MADMK_F16 | V_MADAK_F16 => {
                let t = if matches!(op, V_MADMK_F16 | V_MADAK_F16) {
                    F16
                } else {
                    F32
                };
                let a = self.vsrc(inst, 0, t)?;
                let b = self.vsrc(inst, 1, t)?;
                let Some(kop) = inst.operand(Field::Literal).copied() else {
                    return Err(self.invalid(inst, "missing K constant"));
                };
                let kv = self.read_scalar(inst, kop.value, t)?;
                let args = if matches!(op, V_MADMK_F32 | V_MADMK_F16) {
                    [a, kv, b]
                } else {
                    [a, b, kv]
                };
                let r = self.b.op_mode(Op::Fmad, self.fm(t), t, &args);
                self.vdst(inst, r)
            }
            V_LDEXP_F32 | V_LDEXP_F64 | V_LDEXP_F16 => {
                let t = match op {
                    V_LDEXP_F32 => F32,
                    V_LDEXP_F64 => F64,
                    _ => F16,
                };
                let a = self.vsrc(inst, 0, t)?;
                let e = if t == F16 {
                    let e = self.vsrc(inst, 1, I16)?;
                    self.b.op(Op::Sext, I32, &[e])
                } else {
                    self.vsrc(inst, 1, I32)?
                };
                let r = self.b.op_mode(Op::Ldexp, self.fm(t), t, &[a, e]);
                self.vdst(inst, r)
            }
            V_BCNT_U32_B32 => {
                let a = self.vsrc(inst, 0, I32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let p = self.b.op(Op::Popcnt, I32, &[a]);
                let r = self.b.op(Op::Iadd, I32, &[p, b]);
                self.vdst(inst, r)
            }
            V_BFM_B32 => self.f2(inst, I32, Op::Bfm, false),
            V_MBCNT_LO_U32_B32 => self.mbcnt(inst, false),
            V_MBCNT_HI_U32_B32 => self.mbcnt(inst, true),
            V_CVT_PK_I16_I32 | V_CVT_PK_U16_U32 => {
                let signed = op == V_CVT_PK_I16_I32;
                let a = self.vsrc(inst, 0, I32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let lo = self.sat16(a, signed);
                let hi = self.sat16(b, signed);
                let r = self.pack16(lo, hi);
                self.vdst(inst, r)
            }
            V_CVT_PKACCUM_U8_F32 => {
                let a = self.vsrc(inst, 0, F32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let d = self.vdst_old(inst, I32)?;
                let r = self
                    .b
                    .op_mode(Op::CvtPkU8F32, self.fm(F32), I32, &[a, b, d]);
                self.vdst(inst, r)
            }
            V_CVT_PKNORM_I16_F32 => self.pk2(inst, F32, Op::CvtPknormI16),
            V_CVT_PKNORM_U16_F32 => self.pk2(inst, F32, Op::CvtPknormU16),
            V_CVT_PKRTZ_F16_F32 => self.pk2(inst, F32, Op::CvtPkrtzF16),
            V_CVT_PKNORM_I16_F16 => self.pk2(inst, F16, Op::CvtPknormI16),
            V_CVT_PKNORM_U16_F16 => self.pk2(inst, F16, Op::CvtPknormU16),
            // --- VOP3-only ---
            V_MAD_F32 => self.f3(inst, F32, Op::Fmad),
            V_MAD_LEGACY_F32 => self.f3(inst, F32, Op::FmadLegacy),
            V_FMA_F32 => self.f3(inst, F32, Op::Fma),
            V_FMA_F64 => self.f3(inst, F64, Op::Fma),
            V_MAD_LEGACY_F16 | V_MAD_F16 => self.f3(inst, F16, Op::Fmad),
            V_FMA_LEGACY_F16 | V_FMA_F16 => self.f3(inst, F16, Op::Fma),
            V_MAD_I32_I24 | V_MAD_U32_U24 => {
                let signed = op == V_MAD_I32_I24;
                let a = self.vsrc(inst, 0, I32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let c = self.vsrc(inst, 2, I32)?;
                let a = self.bits24(a, signed);
                let b = self.bits24(b, signed);
                let p = self.b.op(Op::Imul, I32, &[a, b]);
                let r = self.b.op(Op::Iadd, I32, &[p, c]);
                self.vdst(inst, r)
            }
            V_CUBEID_F32 => self.f3(inst, F32, Op::CubeId),
            V_CUBESC_F32 => self.f3(inst, F32, Op::CubeSc),
            V_CUBETC_F32 => self.f3(inst, F32, Op::CubeTc),
            V_CUBEMA_F32 => self.f3(inst, F32, Op::CubeMa),
            V_BFE_U32 => self.f3(inst, I32, Op::Ubfe),
            V_BFE_I32 => self.f3(inst, I32, Op::Sbfe),
            V_BFI_B32 => self.f3(inst, I32, Op::Bfi),
            V_LERP_U8 => self.f3(inst, I32, Op::LerpU8),
            V_ALIGNBIT_B32 => self.f3(inst, I32, Op::BitAlign),
            V_ALIGNBYTE_B32 => self.f3(inst, I32, Op::ByteAlign),
            V_MIN3_F32 => self.f3_twice(inst, F32, Op::Fmin(mm)),
            V_MAX3_F32 => self.f3_twice(inst, F32, Op::Fmax(mm)),
            V_MIN3_F16 => self.f3_twice(inst, F16, Op::Fmin(mm)),
            V_MAX3_F16 => self.f3_twice(inst, F16, Op::Fmax(mm)),
            V_MIN3_I32 => self.f3_twice(inst, I32, Op::Smin),
            V_MAX3_I32 => self.f3_twice(inst, I32, Op::Smax),
            V_MIN3_U32 => self.f3_twice(inst, I32, Op::Umin),
            V_MAX3_U32 => self.f3_twice(inst, I32, Op::Umax),
            V_MIN3_I16 => self.f3_twice(inst, I16, Op::Smin),
            V_MAX3_I16 => self.f3_twice(inst, I16, Op::Smax),
            V_MIN3_U16 => self.f3_twice(inst, I16, Op::Umin),
            V_MAX3_U16 => self.f3_twice(inst, I16, Op::Umax),
            V_MED3_F32 => self.f3(inst, F32, Op::Fmed3(mm)),
            V_MED3_F16 => self.f3(inst, F16, Op::Fmed3(mm)),
            V_MED3_I32 => self.f3(inst, I32, Op::Smed3),
            V_MED3_U32 => self.f3(inst, I32, Op::Umed3),
            V_MED3_I16 => self.f3(inst, I16, Op::Smed3),
            V_MED3_U16 => self.f3(inst, I16, Op::Umed3),
            V_SAD_U8 => self.f3(inst, I32, Op::SadU8),
            V_SAD_HI_U8 => self.f3(inst, I32, Op::SadHiU8),
            V_SAD_U16 => self.f3(inst, I32, Op::SadU16),
            V_SAD_U32 => self.f3(inst, I32, Op::SadU32),
            V_MSAD_U8 => self.f3(inst, I32, Op::MsadU8),
            V_QSAD_PK_U16_U8 | V_MQSAD_PK_U16_U8 | V_MQSAD_U32_U8 => self.qsad(inst),
            V_MULLIT_F32 => self.mullit(inst),
            V_SCREEN_PARTITION_4SE_B32 => self.screen_partition(inst),
            V_CVT_PK_U8_F32 => {
                let a = self.vsrc(inst, 0, F32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let c = self.vsrc(inst, 2, I32)?;
                let r = self
                    .b
                    .op_mode(Op::CvtPkU8F32, self.fm(F32), I32, &[a, b, c]);
                self.vdst(inst, r)
            }
            V_DIV_FIXUP_F32 => self.f3(inst, F32, Op::DivFixup),
            V_DIV_FIXUP_F64 => self.f3(inst, F64, Op::DivFixup),
            V_DIV_FIXUP_F16 | V_DIV_FIXUP_LEGACY_F16 => self.f3(inst, F16, Op::DivFixup),
            V_DIV_SCALE_F32 | V_DIV_SCALE_F64 => {
                let t = if op == V_DIV_SCALE_F32 { F32 } else { F64 };
                let a = self.vsrc(inst, 0, t)?;
                let b = self.vsrc(inst, 1, t)?;
                let c = self.vsrc(inst, 2, t)?;
                let m = self.fm(t);
                let r = self.b.op_mode(Op::DivScale, m, t, &[a, b, c]);
                let f = self.b.op_mode(Op::DivScaleFlag, m, I1, &[a, b, c]);
                self.sdst3b(inst, f)?;
                self.vdst(inst, r)
            }
            V_DIV_FMAS_F32 | V_DIV_FMAS_F64 => {
                let t = if op == V_DIV_FMAS_F32 { F32 } else { F64 };
                let a = self.vsrc(inst, 0, t)?;
                let b = self.vsrc(inst, 1, t)?;
                let c = self.vsrc(inst, 2, t)?;
                let v = self.vcc_in(inst)?;
                let r = self.b.op_mode(Op::DivFmas, self.fm(t), t, &[a, b, c, v]);
                self.vdst(inst, r)
            }
            V_MAD_U64_U32 | V_MAD_I64_I32 => {
                let signed = op == V_MAD_I64_I32;
                let a = self.vsrc(inst, 0, I32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let c = self.vsrc(inst, 2, I64)?;
                let ext = if signed { Op::Sext } else { Op::Zext };
                let a = self.b.op(ext, I64, &[a]);
                let b = self.b.op(ext, I64, &[b]);
                let p = self.b.op(Op::Imul, I64, &[a, b]);
                let r = self.b.op(Op::Iadd, I64, &[p, c]);
                // SDST: the carry out of the 64-bit add (unsigned) or its signed overflow.
                let f = if signed {
                    self.signed_overflow(p, c, r, false)
                } else {
                    let f = self.b.bool(false);
                    self.b.op(Op::AddCarryOut, I1, &[p, c, f])
                };
                self.sdst3b(inst, f)?;
                self.vdst(inst, r)
            }
            V_MAD_LEGACY_U16 | V_MAD_LEGACY_I16 | V_MAD_U16 | V_MAD_I16 | V_MAD_U32_U16
            | V_MAD_I32_I16 => {
                let signed = matches!(op, V_MAD_LEGACY_I16 | V_MAD_I16 | V_MAD_I32_I16);
                let wide = matches!(op, V_MAD_U32_U16 | V_MAD_I32_I16);
                let a = self.vsrc(inst, 0, I16)?;
                let b = self.vsrc(inst, 1, I16)?;
                let c = if wide {
                    self.vsrc(inst, 2, I32)?
                } else {
                    self.vsrc(inst, 2, I16)?
                };
                let ext = if signed { Op::Sext } else { Op::Zext };
                let a = self.b.op(ext, I32, &[a]);
                let b = self.b.op(ext, I32, &[b]);
                let c = if wide { c } else { self.b.op(ext, I32, &[c]) };
                let p = self.b.op(Op::Imul, I32, &[a, b]);
                let r = self.b.op(Op::Iadd, I32, &[p, c]);
                // The 32-bit-result forms have no saturating form: clamp has no effect
                // (vector.rs module doc).
                let r = if wide {
                    r
                } else if inst.mods.clamp {
                    let s = self.sat16(r, signed);
                    self.b.op(Op::Trunc, I16, &[s])
                } else {
                    self.b.op(Op::Trunc, I16, &[r])
                };
                self.vdst_sat(inst, r)
            }
            V_PERM_B32 => self.perm(inst),
            V_LSHLREV_B64 | V_LSHRREV_B64 | V_ASHRREV_I64 => {
                let s = self.vsrc(inst, 0, I32)?;
                let v = self.vsrc(inst, 1, I64)?;
                let o = match op {
                    V_LSHLREV_B64 => Op::Shl,
                    V_LSHRREV_B64 => Op::Lshr,
                    _ => Op::Ashr,
                };
                let r = self.b.op(o, I64, &[v, s]);
                self.vdst(inst, r)
            }
            V_LSHL_B64 | V_LSHR_B64 | V_ASHR_I64 => {
                let v = self.vsrc(inst, 0, I64)?;
                let s = self.vsrc(inst, 1, I32)?;
                let o = match op {
                    V_LSHL_B64 => Op::Shl,
                    V_LSHR_B64 => Op::Lshr,
                    _ => Op::Ashr,
                };
                let r = self.b.op(o, I64, &[v, s]);
                self.vdst(inst, r)
            }
            V_TRIG_PREOP_F64 => {
                let a = self.vsrc(inst, 0, F64)?;
                let s = self.vsrc(inst, 1, I32)?;
                let r = self.b.op_mode(Op::TrigPreop, self.fm(F64), F64, &[a, s]);
                self.vdst(inst, r)
            }
            V_XAD_U32 | V_LSHL_ADD_U32 | V_ADD_LSHL_U32 | V_ADD3_U32 | V_LSHL_OR_B32
            | V_AND_OR_B32 | V_OR3_B32 => {
                let a = self.vsrc(inst, 0, I32)?;
                let b = self.vsrc(inst, 1, I32)?;
                let c = self.vsrc(inst, 2, I32)?;
                // (a o1 b) o2 c.
                let (o1, o2) = match op {
                    V_XAD_U32 => (Op::Xor, Op::Iadd),
                    V_LSHL_ADD_U32 => (Op::Shl, Op::Iadd),
                    V_ADD_LSHL_U32 => (Op::Iadd, Op::Shl),
                    V_ADD3_U32 => (Op::Iadd, Op::Iadd),
                    V_LSHL_OR_B32 => (Op::Shl, Op::Or),
                    V_AND_OR_B32 => (Op::And, Op::Or),
                    _ => (Op::Or, Op::Or),
                };
                let t = self.b.op(o1, I32, &[a, b]);
                let r = self.b.op(o2, I32, &[t, c]);
                self.vdst(inst, r)
            }
            V_PACK_B32_F16 => {
                let a = self.vsrc(inst, 0, F16)?;
                let b = self.vsrc(inst, 1, F16)?;
                let a = self.cast(a, I32);
                let b = self.cast(b, I32);
                let r = self.pack16(a, b);
                self.vdst(inst, r)
            }
            _ => Err(self.unsupported(inst, "VALU opcode without semantics")),
        }
    }
}
