//! Scalar ALU: SOP1, SOP2, SOPK and SOPC (CLRX doc/GcnInstrsSop1.md, Sop2, Sopk, Sopc).
//!
//! SCC rules: add/sub set the carry/borrow (unsigned) or the signed overflow (`_i32`);
//! min/max set "S0 was chosen"; bitwise ops, shifts, bfe, not, bcnt, abs, absdiff, wqm and
//! quadmask set `result != 0`; `*_saveexec` set `EXEC != 0`; everything else leaves SCC.
use super::{Flow, LiftError, Lifter};
use crate::inst::{Inst, Opcode, Operand};
use crate::tables::Field;
use wavejit_ir::{IntCC, Op, ScalarType, Terminator, Value};
use ScalarType::*;

impl Lifter<'_> {
    /// Reads the operand in `field` as i32 or i64 (by its width).
    pub(crate) fn sop_src(&mut self, inst: &Inst, field: Field) -> Result<Value, LiftError> {
        let Some(o) = inst.operand(field).copied() else {
            return Err(self.invalid(inst, format!("missing {field:?} operand")));
        };
        let ty = if o.dwords == 2 { I64 } else { I32 };
        self.read_scalar(inst, o.value, ty)
    }

    fn sop_dst(&mut self, inst: &Inst, v: Value) -> Result<(), LiftError> {
        let Some(o) = inst.operand(Field::Sdst).copied() else {
            return Err(self.invalid(inst, "missing destination"));
        };
        self.write_scalar(inst, o.value, v)
    }

    /// `v != 0` as a uniform i1.
    pub(crate) fn nz(&mut self, v: Value) -> Value {
        let t = self.b.ty(v).scalar;
        let z = self.b.iconst(t, 0);
        self.b.op(Op::Icmp(IntCC::Ne), I1, &[v, z])
    }

    fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.b.op(Op::Icmp(cc), I1, &[a, b])
    }

    /// Signed overflow of `r = a + b` (or `a - b` when `sub`): the sign rule on the operands.
    pub(crate) fn signed_overflow(&mut self, a: Value, b: Value, r: Value, sub: bool) -> Value {
        let t = self.b.ty(r).scalar;
        let ar = self.b.op(Op::Xor, t, &[a, r]);
        let x = if sub {
            self.b.op(Op::Xor, t, &[a, b])
        } else {
            self.b.op(Op::Xor, t, &[b, r])
        };
        let both = self.b.op(Op::And, t, &[ar, x]);
        let z = self.b.iconst(t, 0);
        self.icmp(IntCC::Slt, both, z)
    }

    /// The SOP/SOPK/SOPC families.
    pub(crate) fn scalar(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        match op {
            S_GETPC_B64 => {
                let next = self.guest_addr(self.pc + inst.len as u64);
                let v = self.b.i64(next);
                self.sop_dst(inst, v)?;
            }
            S_SETPC_B64 => {
                let t = self.sop_src(inst, Field::Ssrc0)?;
                self.b.terminate(Terminator::JumpIndirect(t));
                return Ok(Flow::Ended);
            }
            S_SWAPPC_B64 => {
                let t = self.sop_src(inst, Field::Ssrc0)?;
                let next = self.guest_addr(self.pc + inst.len as u64);
                let v = self.b.i64(next);
                self.sop_dst(inst, v)?;
                self.b.terminate(Terminator::JumpIndirect(t));
                return Ok(Flow::Ended);
            }
            S_CBRANCH_I_FORK | S_CBRANCH_G_FORK => return self.fork(inst),
            S_CBRANCH_JOIN => return self.join(inst),
            S_RFE_B64 | S_RFE_RESTORE_B64 => return self.rfe(inst),
            S_SETVSKIP => self.setvskip(inst)?,
            S_CALL_B64 => {
                let next = self.guest_addr(self.pc + inst.len as u64);
                let v = self.b.i64(next);
                self.sop_dst(inst, v)?;
                let t = inst.branch_target(self.pc).map(|t| t as i64).unwrap_or(-1);
                let blk = self.target(t);
                self.b.terminate(Terminator::Jump(blk));
                return Ok(Flow::Ended);
            }
            _ => match inst.encoding {
                crate::inst::Encoding::Sop2 => self.sop2(inst)?,
                crate::inst::Encoding::Sop1 => self.sop1(inst)?,
                crate::inst::Encoding::Sopk => self.sopk(inst)?,
                _ => self.sopc(inst)?,
            },
        }
        Ok(Flow::Next)
    }

    fn sop2(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let a = self.sop_src(inst, Field::Ssrc0)?;
        let b = self.sop_src(inst, Field::Ssrc1)?;
        let t = self.b.ty(a).scalar;
        let bits = t.bits() as u64;
        let mut scc: Option<Value> = None;
        let r = match op {
            S_ADD_U32 | S_SUB_U32 | S_ADDC_U32 | S_SUBB_U32 => {
                let sub = matches!(op, S_SUB_U32 | S_SUBB_U32);
                let cin = if matches!(op, S_ADDC_U32 | S_SUBB_U32) {
                    self.scc()
                } else {
                    self.b.bool(false)
                };
                let cin32 = self.b.op(Op::Zext, I32, &[cin]);
                let (o, co) = if sub {
                    (Op::Isub, Op::SubBorrowOut)
                } else {
                    (Op::Iadd, Op::AddCarryOut)
                };
                let r1 = self.b.op(o, I32, &[a, b]);
                let r = self.b.op(o, I32, &[r1, cin32]);
                scc = Some(self.b.op(co, I1, &[a, b, cin]));
                r
            }
            S_ADD_I32 | S_SUB_I32 => {
                let sub = op == S_SUB_I32;
                let r = self
                    .b
                    .op(if sub { Op::Isub } else { Op::Iadd }, I32, &[a, b]);
                scc = Some(self.signed_overflow(a, b, r, sub));
                r
            }
            S_MIN_I32 | S_MIN_U32 | S_MAX_I32 | S_MAX_U32 => {
                let cc = match op {
                    S_MIN_I32 => IntCC::Slt,
                    S_MIN_U32 => IntCC::Ult,
                    S_MAX_I32 => IntCC::Sgt,
                    _ => IntCC::Ugt,
                };
                let c = self.icmp(cc, a, b);
                scc = Some(c);
                self.b.op(Op::Select, I32, &[c, a, b])
            }
            S_CSELECT_B32 | S_CSELECT_B64 => {
                let c = self.scc();
                self.b.op(Op::Select, t, &[c, a, b])
            }
            S_AND_B32 | S_AND_B64 => self.b.op(Op::And, t, &[a, b]),
            S_OR_B32 | S_OR_B64 => self.b.op(Op::Or, t, &[a, b]),
            S_XOR_B32 | S_XOR_B64 => self.b.op(Op::Xor, t, &[a, b]),
            S_ANDN2_B32 | S_ANDN2_B64 | S_ORN2_B32 | S_ORN2_B64 => {
                let nb = self.b.op(Op::Not, t, &[b]);
                let o = if matches!(op, S_ANDN2_B32 | S_ANDN2_B64) {
                    Op::And
                } else {
                    Op::Or
                };
                self.b.op(o, t, &[a, nb])
            }
            S_NAND_B32 | S_NAND_B64 | S_NOR_B32 | S_NOR_B64 | S_XNOR_B32 | S_XNOR_B64 => {
                let o = match op {
                    S_NAND_B32 | S_NAND_B64 => Op::And,
                    S_NOR_B32 | S_NOR_B64 => Op::Or,
                    _ => Op::Xor,
                };
                let r = self.b.op(o, t, &[a, b]);
                self.b.op(Op::Not, t, &[r])
            }
            S_LSHL_B32 | S_LSHL_B64 => self.b.op(Op::Shl, t, &[a, b]),
            S_LSHR_B32 | S_LSHR_B64 => self.b.op(Op::Lshr, t, &[a, b]),
            S_ASHR_I32 | S_ASHR_I64 => self.b.op(Op::Ashr, t, &[a, b]),
            S_BFM_B32 => self.b.op(Op::Bfm, I32, &[a, b]),
            S_BFM_B64 => {
                let one = self.b.i64(1);
                let m = self.b.op(Op::Shl, I64, &[one, a]);
                let m = self.b.op(Op::Isub, I64, &[m, one]);
                let r = self.b.op(Op::Shl, I64, &[m, b]);
                self.sop_dst(inst, r)?;
                return Ok(());
            }
            S_MUL_I32 => self.b.op(Op::Imul, I32, &[a, b]),
            S_MUL_HI_U32 => self.b.op(Op::UmulHi, I32, &[a, b]),
            S_MUL_HI_I32 => self.b.op(Op::SmulHi, I32, &[a, b]),
            S_BFE_U32 | S_BFE_I32 | S_BFE_U64 | S_BFE_I64 => {
                let off_mask = self.b.i32(bits as u32 - 1);
                let off = self.b.op(Op::And, I32, &[b, off_mask]);
                let sixteen = self.b.i32(16);
                let w = self.b.op(Op::Lshr, I32, &[b, sixteen]);
                let m7 = self.b.i32(0x7f);
                let w = self.b.op(Op::And, I32, &[w, m7]);
                let signed = matches!(op, S_BFE_I32 | S_BFE_I64);
                let field = self
                    .b
                    .op(if signed { Op::Sbfe } else { Op::Ubfe }, t, &[a, off, w]);
                // A width of the full size or more keeps every bit above the offset (the mask
                // (1 << w) - 1 covers the value); Ubfe/Sbfe take the width modulo the size.
                let whole = self.b.op(Op::Lshr, t, &[a, off]);
                let kb = self.b.i32(bits as u32);
                let big = self.icmp(IntCC::Uge, w, kb);
                self.b.op(Op::Select, t, &[big, whole, field])
            }
            S_ABSDIFF_I32 => {
                let d = self.b.op(Op::Isub, I32, &[a, b]);
                self.b.op(Op::Iabs, I32, &[d])
            }
            S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32 => {
                let n = match op {
                    S_LSHL1_ADD_U32 => 1,
                    S_LSHL2_ADD_U32 => 2,
                    S_LSHL3_ADD_U32 => 3,
                    _ => 4,
                };
                // Vega ISA: SCC = ((S0 << N) + S1) >= 2^32, computed in 64 bits.
                let a64 = self.b.op(Op::Zext, I64, &[a]);
                let b64 = self.b.op(Op::Zext, I64, &[b]);
                let kn = self.b.i32(n);
                let s = self.b.op(Op::Shl, I64, &[a64, kn]);
                let sum = self.b.op(Op::Iadd, I64, &[s, b64]);
                let lim = self.b.i64(1 << 32);
                scc = Some(self.icmp(IntCC::Uge, sum, lim));
                self.b.op(Op::Trunc, I32, &[sum])
            }
            S_PACK_LL_B32_B16 | S_PACK_LH_B32_B16 | S_PACK_HH_B32_B16 => {
                let lo_mask = self.b.i32(0xffff);
                let sixteen = self.b.i32(16);
                let lo = if op == S_PACK_HH_B32_B16 {
                    self.b.op(Op::Lshr, I32, &[a, sixteen])
                } else {
                    self.b.op(Op::And, I32, &[a, lo_mask])
                };
                let hi = if op == S_PACK_LL_B32_B16 {
                    self.b.op(Op::Shl, I32, &[b, sixteen])
                } else {
                    let hm = self.b.i32(0xffff_0000);
                    self.b.op(Op::And, I32, &[b, hm])
                };
                self.b.op(Op::Or, I32, &[lo, hi])
            }
            _ => return Err(self.unsupported(inst, "SOP2 opcode without semantics")),
        };
        if scc.is_none() && inst.info.has(crate::tables::flags::WRITES_SCC) {
            scc = Some(self.nz(r));
        }
        self.sop_dst(inst, r)?;
        if let Some(c) = scc {
            self.set_scc(c);
        }
        Ok(())
    }

    fn sop1(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        match op {
            S_SET_GPR_IDX_IDX => {
                // CLRX GcnInstrsSop1.md: M0 = (M0 & 0xffffff00) | (SSRC0 & 0xff).
                let src = self.sop_src(inst, Field::Ssrc0)?;
                return self.set_m0_fields(src, 0xff, 0);
            }
            S_MOVRELS_B32 | S_MOVRELS_B64 | S_MOVRELD_B32 | S_MOVRELD_B64 => {
                return self.movrel_scalar(inst)
            }
            _ => {}
        }
        let a = self.sop_src(inst, Field::Ssrc0)?;
        let t = self.b.ty(a).scalar;
        let mut scc: Option<Value> = None;
        let r = match op {
            S_MOV_B32 | S_MOV_B64 => a,
            S_CMOV_B32 | S_CMOV_B64 => {
                let c = self.scc();
                let d = inst
                    .operand(Field::Sdst)
                    .copied()
                    .ok_or_else(|| self.invalid(inst, "no sdst"))?;
                let old = self.read_scalar(inst, d.value, t)?;
                self.b.op(Op::Select, t, &[c, a, old])
            }
            S_NOT_B32 | S_NOT_B64 => self.b.op(Op::Not, t, &[a]),
            S_WQM_B32 | S_WQM_B64 => {
                let q = self.quad_any(a);
                let mut r = q;
                for s in 1..4 {
                    let k = self.b.i32(s);
                    let sh = self.b.op(Op::Shl, t, &[q, k]);
                    r = self.b.op(Op::Or, t, &[r, sh]);
                }
                r
            }
            S_QUADMASK_B32 | S_QUADMASK_B64 => {
                let q = self.quad_any(a);
                let mut r = self.b.iconst(t, 0);
                for i in 0..t.bits() / 4 {
                    let one = self.b.iconst(t, 1);
                    let k = self.b.i32(4 * i);
                    let bit = self.b.op(Op::Lshr, t, &[q, k]);
                    let bit = self.b.op(Op::And, t, &[bit, one]);
                    let ki = self.b.i32(i);
                    let bit = self.b.op(Op::Shl, t, &[bit, ki]);
                    r = self.b.op(Op::Or, t, &[r, bit]);
                }
                r
            }
            S_BREV_B32 | S_BREV_B64 => self.b.op(Op::Bitrev, t, &[a]),
            S_BCNT0_I32_B32 | S_BCNT0_I32_B64 | S_BCNT1_I32_B32 | S_BCNT1_I32_B64 => {
                let x = if matches!(op, S_BCNT0_I32_B32 | S_BCNT0_I32_B64) {
                    self.b.op(Op::Not, t, &[a])
                } else {
                    a
                };
                let p = self.b.op(Op::Popcnt, t, &[x]);
                self.cast(p, I32)
            }
            S_FF0_I32_B32 | S_FF0_I32_B64 | S_FF1_I32_B32 | S_FF1_I32_B64 => {
                let x = if matches!(op, S_FF0_I32_B32 | S_FF0_I32_B64) {
                    self.b.op(Op::Not, t, &[a])
                } else {
                    a
                };
                let c = self.b.op(Op::Ctz, t, &[x]);
                let c = self.cast(c, I32);
                self.none_is_minus_one(x, c)
            }
            S_FLBIT_I32_B32 | S_FLBIT_I32_B64 => {
                let c = self.b.op(Op::Clz, t, &[a]);
                let c = self.cast(c, I32);
                self.none_is_minus_one(a, c)
            }
            S_FLBIT_I32 | S_FLBIT_I32_I64 => self.flbit_signed(a),
            S_SEXT_I32_I8 | S_SEXT_I32_I16 => {
                let n = if op == S_SEXT_I32_I8 { I8 } else { I16 };
                let x = self.b.op(Op::Trunc, n, &[a]);
                self.b.op(Op::Sext, I32, &[x])
            }
            S_BITSET0_B32 | S_BITSET0_B64 | S_BITSET1_B32 | S_BITSET1_B64 => {
                let wide = matches!(op, S_BITSET0_B64 | S_BITSET1_B64);
                let dt = if wide { I64 } else { I32 };
                let d = inst
                    .operand(Field::Sdst)
                    .copied()
                    .ok_or_else(|| self.invalid(inst, "no sdst"))?;
                let old = self.read_scalar(inst, d.value, dt)?;
                let one = self.b.iconst(dt, 1);
                let bit = self.b.op(Op::Shl, dt, &[one, a]);
                if matches!(op, S_BITSET0_B32 | S_BITSET0_B64) {
                    let nb = self.b.op(Op::Not, dt, &[bit]);
                    self.b.op(Op::And, dt, &[old, nb])
                } else {
                    self.b.op(Op::Or, dt, &[old, bit])
                }
            }
            S_ABS_I32 => self.b.op(Op::Iabs, I32, &[a]),
            S_BITREPLICATE_B64_B32 => {
                let mut x = self.b.op(Op::Zext, I64, &[a]);
                for (sh, m) in [
                    (16, 0x0000_ffff_0000_ffffu64),
                    (8, 0x00ff_00ff_00ff_00ff),
                    (4, 0x0f0f_0f0f_0f0f_0f0f),
                    (2, 0x3333_3333_3333_3333),
                    (1, 0x5555_5555_5555_5555),
                ] {
                    let k = self.b.i32(sh);
                    let s = self.b.op(Op::Shl, I64, &[x, k]);
                    let o = self.b.op(Op::Or, I64, &[x, s]);
                    let km = self.b.i64(m);
                    x = self.b.op(Op::And, I64, &[o, km]);
                }
                let one = self.b.i32(1);
                let s = self.b.op(Op::Shl, I64, &[x, one]);
                self.b.op(Op::Or, I64, &[x, s])
            }
            S_AND_SAVEEXEC_B64 | S_OR_SAVEEXEC_B64 | S_XOR_SAVEEXEC_B64 | S_ANDN2_SAVEEXEC_B64
            | S_ORN2_SAVEEXEC_B64 | S_NAND_SAVEEXEC_B64 | S_NOR_SAVEEXEC_B64
            | S_XNOR_SAVEEXEC_B64 | S_ANDN1_SAVEEXEC_B64 | S_ORN1_SAVEEXEC_B64
            | S_ANDN1_WREXEC_B64 | S_ANDN2_WREXEC_B64 => return self.saveexec(inst, a),
            _ => return Err(self.unsupported(inst, "SOP1 opcode without semantics")),
        };
        if inst.info.has(crate::tables::flags::WRITES_SCC) {
            scc = Some(self.nz(r));
        }
        self.sop_dst(inst, r)?;
        if let Some(c) = scc {
            self.set_scc(c);
        }
        Ok(())
    }

    /// Bit 4k of the result is set when any bit of quad k of `a` is.
    fn quad_any(&mut self, a: Value) -> Value {
        let t = self.b.ty(a).scalar;
        let mut r = a;
        for s in 1..4 {
            let k = self.b.i32(s);
            let sh = self.b.op(Op::Lshr, t, &[a, k]);
            r = self.b.op(Op::Or, t, &[r, sh]);
        }
        let m = self.b.iconst(t, 0x1111_1111_1111_1111);
        self.b.op(Op::And, t, &[r, m])
    }

    /// `c`, or -1 when `x` is 0 (the "no bit found" result of ff0/ff1/flbit).
    fn none_is_minus_one(&mut self, x: Value, c: Value) -> Value {
        let t = self.b.ty(x).scalar;
        let z = self.b.iconst(t, 0);
        let is0 = self.icmp(IntCC::Eq, x, z);
        let m1 = self.b.i32(u32::MAX);
        self.b.op(Op::Select, I32, &[is0, m1, c])
    }

    /// Leading bits equal to the sign bit (the first bit opposite the sign, from the MSB);
    /// -1 for 0 and -1 (s_flbit_i32 / v_ffbh_i32).
    pub(crate) fn flbit_signed(&mut self, a: Value) -> Value {
        let t = self.b.ty(a).scalar;
        let k = self.b.i32(t.bits() - 1);
        let sign = self.b.op(Op::Ashr, t, &[a, k]);
        let x = self.b.op(Op::Xor, t, &[a, sign]);
        let c = self.b.op(Op::Clz, t, &[x]);
        let c = self.cast(c, I32);
        self.none_is_minus_one(x, c)
    }

    fn saveexec(&mut self, inst: &Inst, s: Value) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let e = self.exec_bits();
        let ne = self.b.op(Op::Not, I64, &[e]);
        let ns = self.b.op(Op::Not, I64, &[s]);
        let new = match op {
            S_AND_SAVEEXEC_B64 => self.b.op(Op::And, I64, &[s, e]),
            S_OR_SAVEEXEC_B64 => self.b.op(Op::Or, I64, &[s, e]),
            S_XOR_SAVEEXEC_B64 => self.b.op(Op::Xor, I64, &[s, e]),
            S_ANDN2_SAVEEXEC_B64 | S_ANDN2_WREXEC_B64 => self.b.op(Op::And, I64, &[s, ne]),
            S_ORN2_SAVEEXEC_B64 => self.b.op(Op::Or, I64, &[s, ne]),
            S_ANDN1_SAVEEXEC_B64 | S_ANDN1_WREXEC_B64 => self.b.op(Op::And, I64, &[ns, e]),
            S_ORN1_SAVEEXEC_B64 => self.b.op(Op::Or, I64, &[ns, e]),
            S_NAND_SAVEEXEC_B64 | S_NOR_SAVEEXEC_B64 | S_XNOR_SAVEEXEC_B64 => {
                let o = match op {
                    S_NAND_SAVEEXEC_B64 => Op::And,
                    S_NOR_SAVEEXEC_B64 => Op::Or,
                    _ => Op::Xor,
                };
                let r = self.b.op(o, I64, &[s, e]);
                self.b.op(Op::Not, I64, &[r])
            }
            _ => unreachable!("saveexec called for {op:?}"),
        };
        // *_wrexec write the new EXEC to the destination; *_saveexec the old one.
        let d = if matches!(op, S_ANDN1_WREXEC_B64 | S_ANDN2_WREXEC_B64) {
            new
        } else {
            e
        };
        self.sop_dst(inst, d)?;
        let r = self.g.exec();
        self.b.def_reg(r, new, None);
        let c = self.nz(new);
        self.set_scc(c);
        Ok(())
    }

    /// s_movrels (read s[src + M0]) and s_movreld (write s[dst + M0]).
    fn movrel_scalar(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let wide = matches!(inst.opcode, S_MOVRELS_B64 | S_MOVRELD_B64);
        let t = if wide { I64 } else { I32 };
        let m0r = self.g.m0();
        let m0 = self.b.use_reg(m0r, I32);
        let src = inst.operand(Field::Ssrc0).map(|o| o.value);
        let dst = inst.operand(Field::Sdst).map(|o| o.value);
        let file = self.g.s;
        if matches!(inst.opcode, S_MOVRELS_B32 | S_MOVRELS_B64) {
            let Some(Operand::Sgpr(n)) = src else {
                return Err(self.unsupported(inst, "s_movrels from a non-SGPR base"));
            };
            let v = self.b.read_reg_indexed(file, n as u32, m0, t);
            self.sop_dst(inst, v)
        } else {
            let Some(Operand::Sgpr(n)) = dst else {
                return Err(self.unsupported(inst, "s_movreld to a non-SGPR base"));
            };
            let v = self.sop_src(inst, Field::Ssrc0)?;
            self.b.write_reg_indexed(file, n as u32, m0, v, None);
            Ok(())
        }
    }

    fn sopk(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let imm = inst.simm16.unwrap_or(0);
        let simm = self.b.i32(imm as i16 as i32 as u32);
        let uimm = self.b.i32(imm as u32);
        match op {
            S_MOVK_I32 => self.sop_dst(inst, simm),
            S_CMOVK_I32 => {
                let c = self.scc();
                let old = self.sop_src(inst, Field::Sdst)?;
                let r = self.b.op(Op::Select, I32, &[c, simm, old]);
                self.sop_dst(inst, r)
            }
            S_CMPK_EQ_I32 | S_CMPK_LG_I32 | S_CMPK_GT_I32 | S_CMPK_GE_I32 | S_CMPK_LT_I32
            | S_CMPK_LE_I32 | S_CMPK_EQ_U32 | S_CMPK_LG_U32 | S_CMPK_GT_U32 | S_CMPK_GE_U32
            | S_CMPK_LT_U32 | S_CMPK_LE_U32 => {
                let a = self.sop_src(inst, Field::Sdst)?;
                let (cc, k) = match op {
                    S_CMPK_EQ_I32 => (IntCC::Eq, simm),
                    S_CMPK_LG_I32 => (IntCC::Ne, simm),
                    S_CMPK_GT_I32 => (IntCC::Sgt, simm),
                    S_CMPK_GE_I32 => (IntCC::Sge, simm),
                    S_CMPK_LT_I32 => (IntCC::Slt, simm),
                    S_CMPK_LE_I32 => (IntCC::Sle, simm),
                    S_CMPK_EQ_U32 => (IntCC::Eq, uimm),
                    S_CMPK_LG_U32 => (IntCC::Ne, uimm),
                    S_CMPK_GT_U32 => (IntCC::Ugt, uimm),
                    S_CMPK_GE_U32 => (IntCC::Uge, uimm),
                    S_CMPK_LT_U32 => (IntCC::Ult, uimm),
                    _ => (IntCC::Ule, uimm),
                };
                let c = self.icmp(cc, a, k);
                self.set_scc(c);
                Ok(())
            }
            S_ADDK_I32 => {
                let a = self.sop_src(inst, Field::Sdst)?;
                let r = self.b.op(Op::Iadd, I32, &[a, simm]);
                let c = self.signed_overflow(a, simm, r, false);
                self.sop_dst(inst, r)?;
                self.set_scc(c);
                Ok(())
            }
            S_MULK_I32 => {
                let a = self.sop_src(inst, Field::Sdst)?;
                let r = self.b.op(Op::Imul, I32, &[a, simm]);
                self.sop_dst(inst, r)
            }
            S_GETREG_B32 => self.getreg(inst, imm),
            S_SETREG_B32 | S_SETREG_IMM32_B32 => self.setreg(inst, imm),
            _ => Err(self.unsupported(inst, "SOPK opcode without semantics")),
        }
    }

    fn getreg(&mut self, inst: &Inst, imm: u16) -> Result<(), LiftError> {
        let (id, off, size) = hwreg_fields(imm);
        let full = if id == super::state::HW_REG_STATUS {
            // STATUS: SCC [0], EXECZ [9], VCCZ [10], VALID [16] (CLRX GcnState.md), and the bits
            // stored in the STATUS cell (INST_ATC [23], see `control.rs`); the other bits
            // (priority, halt, trap, debug) are 0 for a running compute wave.
            let scc = self.scc();
            let scc = self.b.op(Op::Zext, I32, &[scc]);
            let ez = self.read_scalar(inst, Operand::Execz, I32)?;
            let vz = self.read_scalar(inst, Operand::Vccz, I32)?;
            let k9 = self.b.i32(9);
            let k10 = self.b.i32(10);
            let ez = self.b.op(Op::Shl, I32, &[ez, k9]);
            let vz = self.b.op(Op::Shl, I32, &[vz, k10]);
            let valid = self.b.i32(1 << 16);
            let cell = self.g.hwreg(id);
            let stored = self.b.use_reg(cell, I32);
            let valid = self.b.op(Op::Or, I32, &[valid, stored]);
            let r = self.b.op(Op::Or, I32, &[scc, ez]);
            let r = self.b.op(Op::Or, I32, &[r, vz]);
            self.b.op(Op::Or, I32, &[r, valid])
        } else if id < super::state::HWREGS {
            let r = self.g.hwreg(id);
            self.b.use_reg(r, I32)
        } else {
            return Err(self.invalid(inst, format!("hardware register id {id}")));
        };
        let k = self.b.i32(off);
        let v = self.b.op(Op::Lshr, I32, &[full, k]);
        let m = self.b.i32(field_mask(size));
        let v = self.b.op(Op::And, I32, &[v, m]);
        self.sop_dst(inst, v)
    }

    fn setreg(&mut self, inst: &Inst, imm: u16) -> Result<(), LiftError> {
        let (id, off, size) = hwreg_fields(imm);
        if id == super::state::HW_REG_STATUS || id >= super::state::HWREGS {
            return Err(self.unsupported(inst, format!("s_setreg of hardware register {id}")));
        }
        // The static MODE (used for every following float op) is updated by the same rule
        // the dataflow pass used; it rejects dynamic writes to the float-control bits.
        self.mode = super::control::mode_after(inst, self.prev_inst.as_ref(), self.pc, self.mode)?;
        let src = if inst.opcode == Opcode::S_SETREG_IMM32_B32 {
            self.sop_src(inst, Field::Literal)?
        } else {
            self.sop_src(inst, Field::Sdst)?
        };
        let r = self.g.hwreg(id);
        let old = self.b.use_reg(r, I32);
        let m = field_mask(size);
        let keep = self.b.i32(!(m << off));
        let km = self.b.i32(m);
        let ko = self.b.i32(off);
        let v = self.b.op(Op::And, I32, &[src, km]);
        let v = self.b.op(Op::Shl, I32, &[v, ko]);
        let o = self.b.op(Op::And, I32, &[old, keep]);
        let n = self.b.op(Op::Or, I32, &[o, v]);
        self.b.def_reg(r, n, None);
        Ok(())
    }

    /// M0 = (M0 & !fields) | (src & fields & 0xff) | bits: the index/mode updates of the
    /// GPR indexing instructions (`fields` covers M0[7:0] and possibly M0[15:12]).
    fn set_m0_fields(&mut self, src: Value, fields: u32, bits: u32) -> Result<(), LiftError> {
        let r = self.g.m0();
        let m0 = self.b.use_reg(r, I32);
        let keep = self.b.i32(!fields);
        let kept = self.b.op(Op::And, I32, &[m0, keep]);
        let lo = self.b.i32(0xff);
        let idx = self.b.op(Op::And, I32, &[src, lo]);
        let k = self.b.i32(bits);
        let v = self.b.op(Op::Or, I32, &[kept, idx]);
        let v = self.b.op(Op::Or, I32, &[v, k]);
        self.b.def_reg(r, v, None);
        Ok(())
    }

    fn sopc(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        if op == S_SET_GPR_IDX_ON {
            // CLRX GcnInstrsSopc.md: MODE.GPR_IDX_EN = 1,
            // M0 = (M0 & 0xffff0f00) | ((IMM8 & 15) << 12) | (SSRC0 & 0xff).
            let src = self.sop_src(inst, Field::Ssrc0)?;
            let imm = match inst.operand(Field::GprIdx).map(|o| o.value) {
                Some(Operand::Imm(v)) => v,
                _ => return Err(self.invalid(inst, "missing GPR index mode")),
            };
            self.set_m0_fields(src, 0xf0ff, (imm & 15) << 12)?;
            return self.set_gpr_idx_en(inst);
        }
        let a = self.sop_src(inst, Field::Ssrc0)?;
        let b = self.sop_src(inst, Field::Ssrc1)?;
        let c = match op {
            S_BITCMP0_B32 | S_BITCMP1_B32 | S_BITCMP0_B64 | S_BITCMP1_B64 => {
                let t = self.b.ty(a).scalar;
                let s = self.b.op(Op::Lshr, t, &[a, b]);
                let one = self.b.iconst(t, 1);
                let bit = self.b.op(Op::And, t, &[s, one]);
                let set = self.nz(bit);
                if matches!(op, S_BITCMP0_B32 | S_BITCMP0_B64) {
                    self.b.op(Op::Not, I1, &[set])
                } else {
                    set
                }
            }
            _ => {
                let cc = match op {
                    S_CMP_EQ_I32 | S_CMP_EQ_U32 | S_CMP_EQ_U64 => IntCC::Eq,
                    S_CMP_LG_I32 | S_CMP_LG_U32 | S_CMP_LG_U64 => IntCC::Ne,
                    S_CMP_GT_I32 => IntCC::Sgt,
                    S_CMP_GE_I32 => IntCC::Sge,
                    S_CMP_LT_I32 => IntCC::Slt,
                    S_CMP_LE_I32 => IntCC::Sle,
                    S_CMP_GT_U32 => IntCC::Ugt,
                    S_CMP_GE_U32 => IntCC::Uge,
                    S_CMP_LT_U32 => IntCC::Ult,
                    S_CMP_LE_U32 => IntCC::Ule,
                    _ => return Err(self.unsupported(inst, "SOPC opcode without semantics")),
                };
                self.icmp(cc, a, b)
            }
        };
        self.set_scc(c);
        Ok(())
    }
}

/// (id, offset, size) of a `hwreg(...)` immediate: id `[5:0]`, offset `[10:6]`, size-1 `[15:11]`.
pub(crate) fn hwreg_fields(imm: u16) -> (u32, u32, u32) {
    let imm = imm as u32;
    (imm & 0x3f, (imm >> 6) & 0x1f, ((imm >> 11) & 0x1f) + 1)
}

/// `size` low bits set (1..=32).
pub(crate) fn field_mask(size: u32) -> u32 {
    if size >= 32 {
        u32::MAX
    } else {
        (1 << size) - 1
    }
}
