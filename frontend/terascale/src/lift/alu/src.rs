//! Source operands of ALU instructions.
//!
//! 4.6-4.7, notes §3.2.
//!
//! GPRs (relative: + AR.x with INDEX_MODE 0-3, + aL with 4; a relatively addressed read
//! outside R0-R127 reads R0, a write there is dropped: 4.6.3, L1464-L1466, with N = 128
//! because the config's GPR count is not a lift input), kcache constants (a uniform dword
//! load at `const_buffer(bank) + 16 * (16 * line + index) + 4 * chan`, the bank index modes
//! applied at clause start by `index`; LOCK_LOOP_INDEX adds
//! aL to the index; reading an unlocked line, or the second line under LOCK_1, is invalid:
//! 4.6.3 L1470), inline constants, literals (the group's literal dwords by CHAN), PV/PS,
//! the active mask (229/230), aL (238), the double constants 1.0/0.5 (244-247: LSW 0, MSW
//! 0x3FF00000 / 0x3FE00000), the LDS output queue (219-222), LDS direct reads (223/224,
//! see `lds`) and Cayman's CLAUSE_GLOBAL (225, see `index`). ABS then NEG are sign-bit
//! operations (4.7.2).
//!
//! Clause temporaries (the top GPRs once the host sets NUM_CLAUSE_TEMP_GPRS, 4.6 L1410-L1416,
//! 2.6.1.2) are ordinary GPRs here: the document only says their values need not survive
//! the clause, and keeping them is one allowed outcome, the same on both engines. Each wave
//! has its own copy, so the even/odd-wave partition of the pool has nothing to share.
use super::super::state::Cf;
use super::super::{LiftError, Lifter};
use super::{text, Grp};
use crate::inst::{sel, AluInst, AluSrc};
use crate::ChipClass;
use wavejit_ir::{IntCC, MemSpace, MemWidth, Op, ScalarType, Value};

use ScalarType::{I1, I32, I64};

impl Lifter<'_> {
    /// The relative index of INDEX_MODE (AR.x per lane, or aL).
    pub(super) fn rel_index(
        &mut self,
        x: &Grp,
        at: u32,
        inst: &AluInst,
    ) -> Result<Value, LiftError> {
        match inst.index_mode {
            0 => {
                let r = self.l.ar();
                Ok(self.b.use_reg(r, I32))
            }
            // Table 4.2 (L1436-L1442): GPR operands use AR.X under INDEX_AR_Y/Z/W too; the
            // other AR elements only index the constant file, which kcache replaces.
            1..=3 => {
                let r = self.l.ar();
                Ok(self.b.use_reg(r, I32))
            }
            4 => Ok(self.get(Cf::LoopIndex, I32)),
            // INDEX_GLOBAL(_AR_X) address the SIMD's physical GPR file (shared global
            // registers, other waves' allocations: L8489-L8490), which a wave here lacks.
            _ => Err(self.unsupported(
                x.cf,
                at,
                text(inst),
                "INDEX_MODE GLOBAL/GLOBAL_AR_X (physical GPR addressing)",
            )),
        }
    }

    /// The cell of GPR `base + index` channel `chan`, and whether it is in R0-R127.
    pub(super) fn rel_cell(&mut self, base: u32, index: Value, chan: u32) -> (Value, Value) {
        let bk = self.b.i32(base);
        let n = self.b.op(Op::Iadd, I32, &[bk, index]);
        let lim = self.b.i32(crate::lift::state::GPRS);
        let ok = self.b.op(Op::Icmp(IntCC::Ult), I1, &[n, lim]);
        let z = self.b.i32(0);
        let n = self.b.op(Op::Select, I32, &[ok, n, z]);
        let four = self.b.i32(4);
        let c = self.b.i32(chan);
        let cell = self.b.op(Op::Imul, I32, &[n, four]);
        let cell = self.b.op(Op::Iadd, I32, &[cell, c]);
        (cell, ok)
    }

    pub(super) fn read_src(
        &mut self,
        x: &Grp,
        at: u32,
        inst: &AluInst,
        j: usize,
    ) -> Result<Value, LiftError> {
        let s = inst.src[j];
        let raw = self.read_sel(x, at, inst, &s)?;
        let mut v = raw;
        if s.abs {
            let k = self.b.i32(0x7fff_ffff);
            v = self.b.op(Op::And, I32, &[v, k]);
        }
        if s.neg {
            let k = self.b.i32(0x8000_0000);
            v = self.b.op(Op::Xor, I32, &[v, k]);
        }
        Ok(v)
    }

    pub(super) fn read_sel(
        &mut self,
        x: &Grp,
        at: u32,
        inst: &AluInst,
        s: &AluSrc,
    ) -> Result<Value, LiftError> {
        let chan = u32::from(s.chan & 3);
        let sv = u32::from(s.sel);
        let bad = |me: &Self, why: &str| me.unsupported(x.cf, at, text(inst), why);
        if sv < 128 {
            if s.rel {
                let idx = self.rel_index(x, at, inst)?;
                let (cell, _) = self.rel_cell(sv, idx, chan);
                let r = self.l.r;
                return Ok(self.b.read_reg_indexed(r, 0, cell, I32));
            }
            let cell = 4 * sv + chan;
            if let Some(&(v, m)) = self.clause.gpr.get(&cell) {
                if self.clause.group_lanes == Some(m) {
                    return Ok(v);
                }
            }
            let r = self.l.gpr(sv, chan);
            return Ok(self.b.use_reg(r, I32));
        }
        let kset = match s.sel {
            sel::KCACHE0..=159 => Some((0usize, sv - 128)),
            sel::KCACHE1..=191 => Some((1, sv - 160)),
            sel::KCACHE2..=287 => Some((2, sv - 256)),
            sel::KCACHE3..=319 => Some((3, sv - 288)),
            _ => None,
        };
        if let Some((set, c)) = kset {
            return self.read_kcache(x, at, inst, s, set, c, chan);
        }
        let k = |me: &mut Self, v: u32| Ok(me.b.i32(v));
        match s.sel {
            sel::ZERO => k(self, 0),
            sel::ONE => k(self, 1f32.to_bits()),
            sel::ONE_INT => k(self, 1),
            sel::M_1_INT => k(self, u32::MAX),
            sel::HALF => k(self, 0.5f32.to_bits()),
            244 | 246 => k(self, 0),
            245 => k(self, 0x3ff0_0000),
            247 => k(self, 0x3fe0_0000),
            sel::LITERAL => match x.g.literals.get(chan as usize) {
                Some(&v) => k(self, v),
                None => Err(self.invalid(
                    x.cf,
                    at,
                    text(inst),
                    "literal channel beyond the group's literals",
                )),
            },
            sel::PV => Ok(self.read_pv(chan as usize)),
            sel::PS => {
                if self.p.class == ChipClass::Cayman {
                    return Err(self.invalid(x.cf, at, text(inst), "PS does not exist on Cayman"));
                }
                Ok(self.read_pv(4))
            }
            229 | 230 => {
                let a = self.active();
                let v = if s.sel == 229 {
                    let k32 = self.b.i64(32);
                    self.b.op(Op::Lshr, I64, &[a, k32])
                } else {
                    a
                };
                Ok(self.b.op(Op::Trunc, I32, &[v]))
            }
            238 => Ok(self.get(Cf::LoopIndex, I32)),
            225 if self.p.class == ChipClass::Cayman => Ok(self.get(Cf::ClauseGlobal, I32)),
            sel::LDS_OQ_A | sel::LDS_OQ_A_POP => self.oq_read(x.cf, at, inst, false),
            sel::LDS_OQ_B | sel::LDS_OQ_B_POP => self.oq_read(x.cf, at, inst, true),
            sel::LDS_DIRECT_A | sel::LDS_DIRECT_B => {
                let lit = match x.g.literals.get(..2) {
                    Some(&[lo, hi]) => Some((lo, hi)),
                    _ => None,
                };
                self.lds_direct(x.cf, at, inst, s.sel == sel::LDS_DIRECT_B, lit)
            }
            _ => Err(bad(self, "source select not lifted")),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn read_kcache(
        &mut self,
        x: &Grp,
        at: u32,
        inst: &AluInst,
        s: &AluSrc,
        set: usize,
        c: u32,
        chan: u32,
    ) -> Result<Value, LiftError> {
        let kc = x.cfa.kcache[set];
        let lines = match kc.mode {
            1 => 1,
            2 | 3 => 2,
            _ => 0,
        };
        if c >= 16 * lines {
            return Err(self.invalid(
                x.cf,
                at,
                text(inst),
                "kcache constant outside the locked lines",
            ));
        }
        let first = 16 * u32::from(kc.addr);
        // A fixed constant is loaded once per clause (constant buffers do not change while
        // an ALU clause runs: no ALU instruction writes global memory).
        // An indexed set's bank is only known at run time: its key names the set instead.
        let id = if crate::lift::index::kcache_indexed(x.cfa, set) {
            16 + set as u8
        } else {
            kc.bank
        };
        let key = (id, 4 * (first + c) + chan);
        let fixed = kc.mode != 3 && !s.rel;
        if fixed {
            if let Some(&v) = self.clause.kcache.get(&key) {
                return Ok(v);
            }
        }
        let mut index = self.b.i32(c);
        if kc.mode == 3 {
            let al = self.get(Cf::LoopIndex, I32);
            index = self.b.op(Op::Iadd, I32, &[index, al]);
        }
        let mut ok = None;
        if s.rel {
            if inst.index_mode != 4 {
                return Err(self.unsupported(
                    x.cf,
                    at,
                    text(inst),
                    "kcache indexed other than by aL",
                ));
            }
            let al = self.get(Cf::LoopIndex, I32);
            index = self.b.op(Op::Iadd, I32, &[index, al]);
            let lim = self.b.i32(16 * lines);
            ok = Some(self.b.op(Op::Icmp(IntCC::Ult), I1, &[index, lim]));
            let z = self.b.i32(0);
            index = self.b.op(Op::Select, I32, &[ok.unwrap(), index, z]);
        }
        let fk = self.b.i32(first);
        let n = self.b.op(Op::Iadd, I32, &[fk, index]);
        let n = self.b.op(Op::Zext, I64, &[n]);
        let sixteen = self.b.i64(16);
        let off = self.b.op(Op::Imul, I64, &[n, sixteen]);
        let ch = self.b.i64(4 * u64::from(chan));
        let off = self.b.op(Op::Iadd, I64, &[off, ch]);
        let cb = self.kcache_buffer(x.cfa, set);
        let addr = self.b.op(Op::Iadd, I64, &[cb, off]);
        let v = self
            .b
            .load(MemSpace::Global, MemWidth::B32, false, I32, addr, None);
        if fixed {
            self.clause.kcache.insert(key, v);
        }
        Ok(match ok {
            // 4.6.3 L1472-L1474: a relative kcache read outside the locked lines is NaN.
            Some(ok) => {
                let nan = self.b.i32(0x7fff_ffff);
                self.b.op(Op::Select, I32, &[ok, v, nan])
            }
            None => v,
        })
    }
}
