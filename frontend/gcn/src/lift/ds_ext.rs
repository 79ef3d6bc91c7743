//! DS forms beyond plain loads, stores and single-address atomics (CLRX doc/GcnInstrsDs.md,
//! AMD's ISA pseudocode where CLRX is terse): two-address exchanges, `src2` atomics,
//! `append`/`consume`, the gfx9 `addtid` forms and the forward lane permute.
//!
//! Lane order: the IR's atomics act lane by lane, which is the hardware's order for one
//! access. Forms made of two IR accesses (the two exchanges of `wrxchg2`, the read of B and
//! the update of A in `src2`) run the first access for every lane before the second; the
//! result differs from a per-lane interleaving only when one lane's second address is
//! another lane's first, an order no document defines.
use super::{LiftError, Lifter};
use crate::inst::{Inst, Opcode};
use crate::tables::Field;
use wavejit_ir::{AtomicOp, IntCC, MemSpace, MemWidth, Op, ScalarType, Value};
use ScalarType::*;

/// The atomic a `*_src2_*` form applies (`A = A op B`); `None` for a plain copy
/// (`write_src2`).
fn src2_op(op: Opcode) -> Option<Option<AtomicOp>> {
    use Opcode::*;
    Some(Some(match op {
        DS_ADD_SRC2_U32 | DS_ADD_SRC2_U64 => AtomicOp::Add,
        DS_SUB_SRC2_U32 | DS_SUB_SRC2_U64 => AtomicOp::Sub,
        DS_RSUB_SRC2_U32 | DS_RSUB_SRC2_U64 => AtomicOp::Rsub,
        DS_INC_SRC2_U32 | DS_INC_SRC2_U64 => AtomicOp::Inc,
        DS_DEC_SRC2_U32 | DS_DEC_SRC2_U64 => AtomicOp::Dec,
        DS_MIN_SRC2_I32 | DS_MIN_SRC2_I64 => AtomicOp::Smin,
        DS_MAX_SRC2_I32 | DS_MAX_SRC2_I64 => AtomicOp::Smax,
        DS_MIN_SRC2_U32 | DS_MIN_SRC2_U64 => AtomicOp::Umin,
        DS_MAX_SRC2_U32 | DS_MAX_SRC2_U64 => AtomicOp::Umax,
        DS_AND_SRC2_B32 | DS_AND_SRC2_B64 => AtomicOp::And,
        DS_OR_SRC2_B32 | DS_OR_SRC2_B64 => AtomicOp::Or,
        DS_XOR_SRC2_B32 | DS_XOR_SRC2_B64 => AtomicOp::Xor,
        DS_MIN_SRC2_F32 | DS_MIN_SRC2_F64 => AtomicOp::Fmin,
        DS_MAX_SRC2_F32 | DS_MAX_SRC2_F64 => AtomicOp::Fmax,
        DS_ADD_SRC2_F32 => AtomicOp::Fadd,
        DS_WRITE_SRC2_B32 | DS_WRITE_SRC2_B64 => return Some(None),
        _ => return None,
    }))
}

fn src2_wide(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        DS_ADD_SRC2_U64
            | DS_SUB_SRC2_U64
            | DS_RSUB_SRC2_U64
            | DS_INC_SRC2_U64
            | DS_DEC_SRC2_U64
            | DS_MIN_SRC2_I64
            | DS_MAX_SRC2_I64
            | DS_MIN_SRC2_U64
            | DS_MAX_SRC2_U64
            | DS_AND_SRC2_B64
            | DS_OR_SRC2_B64
            | DS_XOR_SRC2_B64
            | DS_WRITE_SRC2_B64
            | DS_MIN_SRC2_F64
            | DS_MAX_SRC2_F64
    )
}

impl Lifter<'_> {
    /// Lifts `inst` if it is one of this module's forms; `Ok(false)` otherwise.
    pub(crate) fn ds_ext(&mut self, inst: &Inst) -> Result<bool, LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        match op {
            DS_WRXCHG2_RTN_B32
            | DS_WRXCHG2ST64_RTN_B32
            | DS_WRXCHG2_RTN_B64
            | DS_WRXCHG2ST64_RTN_B64 => self.ds_wrxchg2(inst)?,
            DS_APPEND | DS_CONSUME => self.ds_append(inst)?,
            DS_READ_ADDTID_B32 | DS_WRITE_ADDTID_B32 => self.ds_addtid(inst)?,
            DS_PERMUTE_B32 => self.ds_permute(inst)?,
            _ => match src2_op(op) {
                Some(aop) => self.ds_src2(inst, aop)?,
                None => return Ok(false),
            },
        }
        Ok(true)
    }

    /// Two exchanges at `addr + offsetN * size` (`* 64 * size` for st64); the old values go
    /// to the destination in order.
    fn ds_wrxchg2(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        let wide = matches!(op, DS_WRXCHG2_RTN_B64 | DS_WRXCHG2ST64_RTN_B64);
        let st64 = matches!(op, DS_WRXCHG2ST64_RTN_B32 | DS_WRXCHG2ST64_RTN_B64);
        let size = if wide { 8 } else { 4 };
        let scale = size * if st64 { 64 } else { 1 };
        let (t, width, step) = if wide {
            (I64, MemWidth::B64, 2)
        } else {
            (I32, MemWidth::B32, 1)
        };
        let exec = self.exec_mask();
        let (av, _) = self.ds_vgpr(inst, Field::Addr)?;
        let base = self.read_vgpr(inst, av, I32)?;
        let (d0, _) = self.ds_vgpr(inst, Field::Data0)?;
        let (d1, _) = self.ds_vgpr(inst, Field::Data1)?;
        let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
        let offs = [
            inst.mem.offset0 as u32 * scale,
            inst.mem.offset1 as u32 * scale,
        ];
        let mut olds = Vec::new();
        for (k, d) in [d0, d1].into_iter().enumerate() {
            let a = self.ds_at(base, offs[k]);
            let v = self.read_vgpr(inst, d, t)?;
            olds.push(self.ds_atomic(inst, AtomicOp::Xchg, width, a, v, None, Some(exec)));
        }
        for (k, v) in olds.into_iter().enumerate() {
            self.write_vgpr(inst, vd + step * k as u32, v, exec)?;
        }
        Ok(())
    }

    /// ds_append / ds_consume: one wave-wide update of the dword at `offset & ~3` (M0 is not
    /// added for LDS, per AMD's description; for GDS it goes through the M0 window, see
    /// `ds_gds.rs`) by `popcount(EXEC)`; every active lane receives the value before the
    /// update.
    fn ds_append(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let exec = self.exec_mask();
        let bits = self.exec_bits();
        let n = self.b.op(Op::Popcnt, I64, &[bits]);
        let n = self.b.op(Op::Trunc, I32, &[n]);
        let a = self.b.i32(inst.mem.offset as u32 & 0xfffc);
        let aop = if inst.opcode == Opcode::DS_APPEND {
            AtomicOp::Add
        } else {
            AtomicOp::Sub
        };
        let old = if inst.mem.gds {
            // A GDS access is lane-shaped: lane 0 performs the one update for the wave.
            let l = self.b.lane_id();
            let zero = self.b.i32(0);
            let first = self.b.op(Op::Icmp(IntCC::Eq), I1, &[l, zero]);
            let old = self.ds_atomic(inst, aop, MemWidth::B32, a, n, None, Some(first));
            self.b.read_lane(old, zero)
        } else {
            self.b
                .atomic(aop, MemSpace::Lds, MemWidth::B32, a, n, None, None)
        };
        let old = self.b.splat(old);
        let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
        self.write_vgpr(inst, vd, old, exec)
    }

    /// gfx9 addtid: the dword at `M0[15:0] + offset + 4 * lane`.
    fn ds_addtid(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let exec = self.exec_mask();
        let m0r = self.g.m0();
        let m0 = self.b.use_reg(m0r, I32);
        let k = self.b.i32(0xffff);
        let m0 = self.b.op(Op::And, I32, &[m0, k]);
        let off = self.b.i32(inst.mem.offset as u32 & 0xffff);
        let base = self.b.op(Op::Iadd, I32, &[m0, off]);
        let l = self.b.lane_id();
        let k2 = self.b.i32(2);
        let l4 = self.b.op(Op::Shl, I32, &[l, k2]);
        let base = self.b.splat(base);
        let a = self.b.op(Op::Iadd, I32, &[base, l4]);
        if inst.opcode == Opcode::DS_WRITE_ADDTID_B32 {
            let (d0, _) = self.ds_vgpr(inst, Field::Data0)?;
            let v = self.read_vgpr(inst, d0, I32)?;
            self.ds_store(inst, MemWidth::B32, a, v, Some(exec));
            return Ok(());
        }
        let v = self.ds_load(inst, MemWidth::B32, false, I32, a, Some(exec));
        let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
        self.write_vgpr(inst, vd, v, exec)
    }

    /// `A op= B` with CLRX's src2 addressing: offset bit 15 takes A from `addr & 0x1fffc` and
    /// the dword stride from `addr[31:17]` (bit 31 to stride bit 15); otherwise A is
    /// `addr & ~3` and the stride is `offset[14:0]` with bit 14 copied to bit 15. B is
    /// `A + 4 * stride` (32-bit wrap; CLRX shows no sign extension). 64-bit forms align both
    /// addresses to 8.
    fn ds_src2(&mut self, inst: &Inst, aop: Option<AtomicOp>) -> Result<(), LiftError> {
        let wide = src2_wide(inst.opcode);
        let exec = self.exec_mask();
        let (av, _) = self.ds_vgpr(inst, Field::Addr)?;
        let addr = self.read_vgpr(inst, av, I32)?;
        let off = inst.mem.offset as u32 & 0xffff;
        let align = if wide { !7u32 } else { !3u32 };
        let k = |s: &mut Self, v: u32| s.b.i32(v);
        let (a, stride) = if off & 0x8000 != 0 {
            let m = k(self, 0x1ffff & align);
            let a = self.b.op(Op::And, I32, &[addr, m]);
            let k17 = k(self, 17);
            let lo = self.b.op(Op::Lshr, I32, &[addr, k17]);
            let k16 = k(self, 16);
            let hi = self.b.op(Op::Lshr, I32, &[addr, k16]);
            let m15 = k(self, 0x8000);
            let hi = self.b.op(Op::And, I32, &[hi, m15]);
            (a, self.b.op(Op::Or, I32, &[lo, hi]))
        } else {
            let m = k(self, align);
            let a = self.b.op(Op::And, I32, &[addr, m]);
            let s = (off & 0x7fff) | ((off << 1) & 0x8000);
            let s = k(self, s);
            (a, self.b.splat(s))
        };
        let k2 = k(self, 2);
        let s4 = self.b.op(Op::Shl, I32, &[stride, k2]);
        let b = self.b.op(Op::Iadd, I32, &[a, s4]);
        let b = if wide {
            let m = k(self, !7);
            self.b.op(Op::And, I32, &[b, m])
        } else {
            b
        };
        let (t, width) = if wide {
            (I64, MemWidth::B64)
        } else {
            (I32, MemWidth::B32)
        };
        let t = match aop {
            Some(op) if op.is_float() => {
                if wide {
                    F64
                } else {
                    F32
                }
            }
            _ => t,
        };
        let v = self.ds_load(inst, width, false, t, b, Some(exec));
        match aop {
            Some(aop) => {
                self.ds_atomic(inst, aop, width, a, v, None, Some(exec));
            }
            None => self.ds_store(inst, width, a, v, Some(exec)),
        }
        Ok(())
    }

    /// ds_permute_b32 (AMD's pseudocode; CLRX differs by letting inactive lanes write 0):
    /// every active lane `j` sends `data[j]` to lane `((addr[j] + offset) / 4) % 64`, the
    /// highest sender wins, lanes nobody sends to get 0, and active lanes write the result.
    /// Lifted as 64 broadcast steps in lane order (a scatter has no single IR op).
    fn ds_permute(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let exec = self.exec_mask();
        let (av, _) = self.ds_vgpr(inst, Field::Addr)?;
        let addr = self.read_vgpr(inst, av, I32)?;
        let (d0, _) = self.ds_vgpr(inst, Field::Data0)?;
        let data = self.read_vgpr(inst, d0, I32)?;
        let a = self.ds_at(addr, inst.mem.offset as u32 & 0xffff);
        let k2 = self.b.i32(2);
        let t = self.b.op(Op::Lshr, I32, &[a, k2]);
        let k63 = self.b.i32(63);
        let t = self.b.op(Op::And, I32, &[t, k63]);
        // Inactive senders target lane 64, which no lane has.
        let none = self.b.i32(64);
        let t = self.b.op(Op::Select, I32, &[exec, t, none]);
        let l = self.b.lane_id();
        let mut acc: Value = {
            let z = self.b.i32(0);
            self.b.splat(z)
        };
        for j in 0..64u32 {
            let jj = self.b.i32(j);
            let tj = self.b.read_lane(t, jj);
            let dj = self.b.read_lane(data, jj);
            let tj = self.b.splat(tj);
            let hit = self.b.op(Op::Icmp(IntCC::Eq), I1, &[l, tj]);
            let dj = self.b.splat(dj);
            acc = self.b.op(Op::Select, I32, &[hit, dj, acc]);
        }
        let (vd, _) = self.ds_vgpr(inst, Field::Vdata)?;
        self.write_vgpr(inst, vd, acc, exec)
    }
}
