//! DS: LDS loads, stores, atomics and the cross-lane swizzle/bpermute
//! (CLRX doc/GcnInstrsDs.md).
//!
//! Address = `vaddr + offset` (16-bit `offset1:offset0`) in the LDS space, per active lane;
//! with the `gds` bit the same address goes through the M0 GDS window instead (`ds_gds.rs`,
//! which also lifts `ds_ordered_count` and `ds_gws_*` to guest faults).
//! `read2`/`write2` use two addresses `vaddr + offsetN * size` (`* 64 * size` for `st64`).
//! `ds_cmpst` stores data1 when memory equals data0 (`_f32/_f64`: float equality), `mskor`
//! computes `(mem & ~data0) | data1`, `wrap` `mem >= data0 ? mem - data0 : mem + data1`,
//! `rsub` `data0 - mem` and `condxchg32` writes each data dword whose bit 31 is set, with
//! that bit cleared (CLRX GcnInstrsDs.md; AMD's pseudocode for condxchg32). The M0 LDS clamp of gfx6-8 is not
//! modelled: LLVM sets M0 to -1, and the IR's LDS space already reads 0 and drops writes
//! outside the allocation. `ds_swizzle_b32` and `ds_bpermute_b32` are lane shuffles (a source
//! lane outside EXEC gives 0); no LDS memory is touched.
use super::{Flow, LiftError, Lifter};
use crate::inst::{Inst, Opcode, Operand};
use crate::tables::{flags, Field};
use wavejit_ir::{AtomicOp, IntCC, MemWidth, Op, ScalarType, Value};
use ScalarType::*;

fn ds_atomic(op: Opcode) -> Option<AtomicOp> {
    use Opcode::*;
    Some(match op {
        DS_ADD_U32 | DS_ADD_RTN_U32 | DS_ADD_U64 | DS_ADD_RTN_U64 => AtomicOp::Add,
        DS_SUB_U32 | DS_SUB_RTN_U32 | DS_SUB_U64 | DS_SUB_RTN_U64 => AtomicOp::Sub,
        DS_INC_U32 | DS_INC_RTN_U32 | DS_INC_U64 | DS_INC_RTN_U64 => AtomicOp::Inc,
        DS_DEC_U32 | DS_DEC_RTN_U32 | DS_DEC_U64 | DS_DEC_RTN_U64 => AtomicOp::Dec,
        DS_MIN_I32 | DS_MIN_RTN_I32 | DS_MIN_I64 | DS_MIN_RTN_I64 => AtomicOp::Smin,
        DS_MAX_I32 | DS_MAX_RTN_I32 | DS_MAX_I64 | DS_MAX_RTN_I64 => AtomicOp::Smax,
        DS_MIN_U32 | DS_MIN_RTN_U32 | DS_MIN_U64 | DS_MIN_RTN_U64 => AtomicOp::Umin,
        DS_MAX_U32 | DS_MAX_RTN_U32 | DS_MAX_U64 | DS_MAX_RTN_U64 => AtomicOp::Umax,
        DS_AND_B32 | DS_AND_RTN_B32 | DS_AND_B64 | DS_AND_RTN_B64 => AtomicOp::And,
        DS_OR_B32 | DS_OR_RTN_B32 | DS_OR_B64 | DS_OR_RTN_B64 => AtomicOp::Or,
        DS_XOR_B32 | DS_XOR_RTN_B32 | DS_XOR_B64 | DS_XOR_RTN_B64 => AtomicOp::Xor,
        DS_WRXCHG_RTN_B32 | DS_WRXCHG_RTN_B64 => AtomicOp::Xchg,
        DS_CMPST_B32 | DS_CMPST_RTN_B32 | DS_CMPST_B64 | DS_CMPST_RTN_B64 => AtomicOp::CmpXchg,
        DS_MIN_F32 | DS_MIN_RTN_F32 | DS_MIN_F64 | DS_MIN_RTN_F64 => AtomicOp::Fmin,
        DS_MAX_F32 | DS_MAX_RTN_F32 | DS_MAX_F64 | DS_MAX_RTN_F64 => AtomicOp::Fmax,
        DS_ADD_F32 | DS_ADD_RTN_F32 => AtomicOp::Fadd,
        DS_RSUB_U32 | DS_RSUB_RTN_U32 | DS_RSUB_U64 | DS_RSUB_RTN_U64 => AtomicOp::Rsub,
        DS_MSKOR_B32 | DS_MSKOR_RTN_B32 | DS_MSKOR_B64 | DS_MSKOR_RTN_B64 => AtomicOp::Mskor,
        DS_WRAP_RTN_B32 => AtomicOp::Wrap,
        DS_CMPST_F32 | DS_CMPST_RTN_F32 | DS_CMPST_F64 | DS_CMPST_RTN_F64 => AtomicOp::FcmpXchg,
        DS_CONDXCHG32_RTN_B64 => AtomicOp::CondXchg32,
        _ => return None,
    })
}

impl Lifter<'_> {
    pub(crate) fn ds_vgpr(&self, inst: &Inst, f: Field) -> Result<(u32, u32), LiftError> {
        match inst.operand(f) {
            Some(&crate::inst::Opnd {
                value: Operand::Vgpr(n),
                dwords,
                ..
            }) => Ok((n as u32, dwords as u32)),
            _ => Err(self.invalid(inst, format!("missing {f:?} VGPR"))),
        }
    }

    /// `base + k` as a lane i32.
    pub(crate) fn ds_at(&mut self, base: Value, k: u32) -> Value {
        let kk = self.b.i32(k);
        self.b.op(Op::Iadd, I32, &[base, kk])
    }

    pub(crate) fn ds(&mut self, inst: &Inst) -> Result<Flow, LiftError> {
        if let Some(flow) = self.ds_sync(inst) {
            return Ok(flow);
        }
        self.ds_gds_check(inst)?;
        self.ds_mem(inst).map(|_| Flow::Next)
    }

    fn ds_mem(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        if op == DS_NOP {
            return Ok(());
        }
        if self.ds_ext(inst)? {
            return Ok(());
        }
        let known = ds_atomic(op).is_some()
            || matches!(op, DS_SWIZZLE_B32 | DS_BPERMUTE_B32)
            || inst.info.has(flags::LOAD)
            || inst.info.has(flags::STORE);
        if !known {
            return Err(self.unsupported(inst, "DS operation without semantics"));
        }
        let exec = self.exec_mask();
        let (av, _) = self.ds_vgpr(inst, Field::Addr)?;
        let base = self.read_vgpr(inst, av, I32)?;
        let m = inst.mem;
        match op {
            DS_SWIZZLE_B32 => return self.ds_swizzle(inst, base, m.offset as u32),
            DS_BPERMUTE_B32 => {
                let (d0, _) = self.ds_vgpr(inst, Field::Data0)?;
                let data = self.read_vgpr(inst, d0, I32)?;
                let a = self.ds_at(base, m.offset as u32);
                let k2 = self.b.i32(2);
                let src = self.b.op(Op::Lshr, I32, &[a, k2]);
                let k63 = self.b.i32(63);
                let src = self.b.op(Op::And, I32, &[src, k63]);
                let r = self.shuffle_active(data, src);
                let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
                return self.write_vgpr(inst, vd, r, exec);
            }
            _ => {}
        }
        if let Some(aop) = ds_atomic(op) {
            let (d0, n) = self.ds_vgpr(inst, Field::Data0)?;
            let (t, width) = if n == 2 {
                (I64, MemWidth::B64)
            } else {
                (I32, MemWidth::B32)
            };
            // Float atomics take float-typed data (the bits are the same).
            let t = match aop {
                _ if aop.is_float() => {
                    if n == 2 {
                        F64
                    } else {
                        F32
                    }
                }
                _ => t,
            };
            let a = self.ds_at(base, m.offset as u32);
            let a = if aop == AtomicOp::CondXchg32 {
                // AMD's pseudocode: ((ADDR + offset) & 0xfff8), then the two dwords.
                let k = self.b.i32(0xfff8);
                self.b.op(Op::And, I32, &[a, k])
            } else {
                a
            };
            // Two-operand forms: data0 is the compare value (cmpst), mask (mskor) or
            // subtrahend bound (wrap); data1 the value written or added.
            let (data, cmp) = if aop.takes_cmp() {
                let (d1, _) = self.ds_vgpr(inst, Field::Data1)?;
                (
                    self.read_vgpr(inst, d1, t)?,
                    Some(self.read_vgpr(inst, d0, t)?),
                )
            } else {
                (self.read_vgpr(inst, d0, t)?, None)
            };
            let old = self.ds_atomic(inst, aop, width, a, data, cmp, Some(exec));
            if inst.operand(Field::Vdata).is_some() {
                let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
                self.write_vgpr(inst, vd, old, exec)?;
            }
            return Ok(());
        }
        let two = inst.info.has(flags::DS_2ADDR);
        if two {
            return self.ds_two(inst, base, exec);
        }
        let a = self.ds_at(base, m.offset as u32);
        let (width, signed, d16) = match op {
            DS_READ_U8 | DS_WRITE_B8 => (MemWidth::B8, false, None),
            DS_READ_I8 => (MemWidth::B8, true, None),
            DS_READ_U16 | DS_WRITE_B16 => (MemWidth::B16, false, None),
            DS_READ_I16 => (MemWidth::B16, true, None),
            DS_READ_U8_D16 => (MemWidth::B8, false, Some(false)),
            DS_READ_U8_D16_HI | DS_WRITE_B8_D16_HI => (MemWidth::B8, false, Some(true)),
            DS_READ_I8_D16 => (MemWidth::B8, true, Some(false)),
            DS_READ_I8_D16_HI => (MemWidth::B8, true, Some(true)),
            DS_READ_U16_D16 => (MemWidth::B16, false, Some(false)),
            DS_READ_U16_D16_HI | DS_WRITE_B16_D16_HI => (MemWidth::B16, false, Some(true)),
            DS_READ_B64 | DS_WRITE_B64 => (MemWidth::B64, false, None),
            _ => (MemWidth::B32, false, None),
        };
        if inst.info.has(flags::STORE) {
            let (d0, n) = self.ds_vgpr(inst, Field::Data0)?;
            if width == MemWidth::B64 {
                let v = self.read_vgpr(inst, d0, I64)?;
                self.ds_store(inst, width, a, v, Some(exec));
                return Ok(());
            }
            let comps = if width == MemWidth::B32 { n } else { 1 };
            for i in 0..comps {
                let ai = self.ds_at(a, 4 * i);
                let v = self.read_vgpr(inst, d0 + i, I32)?;
                let v = if d16 == Some(true) {
                    let k = self.b.i32(16);
                    self.b.op(Op::Lshr, I32, &[v, k])
                } else {
                    v
                };
                self.ds_store(inst, width, ai, v, Some(exec));
            }
            return Ok(());
        }
        let (vd, n) = self.ds_vgpr(inst, Field::Vdata)?;
        if width == MemWidth::B64 {
            let v = self.ds_load(inst, width, false, I64, a, Some(exec));
            return self.write_vgpr(inst, vd, v, exec);
        }
        let comps = if width == MemWidth::B32 { n } else { 1 };
        for i in 0..comps {
            let ai = self.ds_at(a, 4 * i);
            let v = self.ds_load(inst, width, signed, I32, ai, Some(exec));
            self.load_component(inst, vd + i, v, d16, exec)?;
        }
        Ok(())
    }

    /// read2/write2 (and st64) of 32- or 64-bit elements.
    fn ds_two(&mut self, inst: &Inst, base: Value, exec: Value) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let wide = matches!(
            op,
            DS_READ2_B64 | DS_READ2ST64_B64 | DS_WRITE2_B64 | DS_WRITE2ST64_B64
        );
        let st64 = matches!(
            op,
            DS_READ2ST64_B32 | DS_READ2ST64_B64 | DS_WRITE2ST64_B32 | DS_WRITE2ST64_B64
        );
        if !matches!(
            op,
            DS_READ2_B32
                | DS_READ2ST64_B32
                | DS_READ2_B64
                | DS_READ2ST64_B64
                | DS_WRITE2_B32
                | DS_WRITE2ST64_B32
                | DS_WRITE2_B64
                | DS_WRITE2ST64_B64
        ) {
            // ds_ext lifts the two-address exchanges before this point.
            return Err(self.invalid(inst, "not a two-address read or write"));
        }
        let size = if wide { 8 } else { 4 };
        let scale = size * if st64 { 64 } else { 1 };
        let (t, width, step) = if wide {
            (I64, MemWidth::B64, 2)
        } else {
            (I32, MemWidth::B32, 1)
        };
        let offs = [
            inst.mem.offset0 as u32 * scale,
            inst.mem.offset1 as u32 * scale,
        ];
        if inst.info.has(flags::STORE) {
            let (d0, _) = self.ds_vgpr(inst, Field::Data0)?;
            let (d1, _) = self.ds_vgpr(inst, Field::Data1)?;
            for (k, d) in [d0, d1].into_iter().enumerate() {
                let a = self.ds_at(base, offs[k]);
                let v = self.read_vgpr(inst, d, t)?;
                self.ds_store(inst, width, a, v, Some(exec));
            }
            return Ok(());
        }
        let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
        let mut vals = Vec::new();
        for off in offs {
            let a = self.ds_at(base, off);
            vals.push(self.ds_load(inst, width, false, t, a, Some(exec)));
        }
        for (k, v) in vals.into_iter().enumerate() {
            self.write_vgpr(inst, vd + step * k as u32, v, exec)?;
        }
        Ok(())
    }

    /// Lane `l` gets `v` of lane `src[l]`, or 0 when that lane is not in EXEC.
    fn shuffle_active(&mut self, v: Value, src: Value) -> Value {
        let e = self.exec_mask();
        let one = self.b.i32(1);
        let zero = self.b.i32(0);
        let e32 = self.b.op(Op::Select, I32, &[e, one, zero]);
        let se = self.b.shuffle(e32, src);
        let on = self.b.op(Op::Icmp(IntCC::Ne), I1, &[se, zero]);
        let sv = self.b.shuffle(v, src);
        self.b.op(Op::Select, I32, &[on, sv, zero])
    }

    /// ds_swizzle_b32: offset[15] selects quad-permute mode (offset[7:0] = four 2-bit lane
    /// selects); otherwise bit mode within 32-lane halves: `((l & and) | or) ^ xor` with the
    /// masks in offset[4:0], `[9:5]`, `[14:10]`.
    fn ds_swizzle(&mut self, inst: &Inst, data: Value, off: u32) -> Result<(), LiftError> {
        let l = self.b.lane_id();
        let k = |s: &mut Self, v: u32| s.b.i32(v);
        let src = if off & 0x8000 != 0 {
            let m3 = k(self, 3);
            let q = self.b.op(Op::And, I32, &[l, m3]);
            let q2 = self.b.op(Op::Iadd, I32, &[q, q]);
            let kc = k(self, off & 0xff);
            let sel = self.b.op(Op::Lshr, I32, &[kc, q2]);
            let sel = self.b.op(Op::And, I32, &[sel, m3]);
            let hi = k(self, !3);
            let b = self.b.op(Op::And, I32, &[l, hi]);
            self.b.op(Op::Or, I32, &[b, sel])
        } else {
            let and = k(self, off & 0x1f);
            let or = k(self, (off >> 5) & 0x1f);
            let xor = k(self, (off >> 10) & 0x1f);
            let m31 = k(self, 31);
            let low = self.b.op(Op::And, I32, &[l, m31]);
            let s = self.b.op(Op::And, I32, &[low, and]);
            let s = self.b.op(Op::Or, I32, &[s, or]);
            let s = self.b.op(Op::Xor, I32, &[s, xor]);
            let m32 = k(self, 32);
            let half = self.b.op(Op::And, I32, &[l, m32]);
            self.b.op(Op::Or, I32, &[half, s])
        };
        let r = self.shuffle_active(data, src);
        let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
        let exec = self.exec_mask();
        self.write_vgpr(inst, vd, r, exec)
    }
}
