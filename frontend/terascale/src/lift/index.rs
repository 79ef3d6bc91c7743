//! The CF index registers CF_IDX0/CF_IDX1, Cayman's CLAUSE_GLOBAL, and the resource numbers
//! they index.
//!
//! # The registers (seed 000 Table 2.9 L657-L721; ALU_WORD1_OP2_MOVA L8862-L8892)
//! CF_IDX0, CF_IDX1 and CLAUSE_GLOBAL are per wave (the `cf` cells [`Cf::Idx0`],
//! [`Cf::Idx1`], [`Cf::ClauseGlobal`]). Nothing documents their value at wave start: the
//! prologue sets all three to 0, so an index mode before any write adds 0.
//! - Cayman: MOVA_INT with MOVA_DST 2/3 writes the nine lsbs of its result to CF_IDX0/1;
//!   MOVA_DST 4-7 write the eight lsbs to CLAUSE_GLOBAL byte 0-3, which SRC_SEL 225 reads as
//!   a 32-bit value. MOVA_DST 1 (CF_PC, an indirect branch from an ALU clause) is not lifted.
//! - Evergreen: SET_CF_IDX0/1 (OP2 88/89, no operands) copy AR.X to CF_IDX0/1, clamped to
//!   0..255. Seed 000 is the Cayman manual and lists these names without a description; the
//!   rule (AR of the first active pixel, clamped) is the Evergreen ISA's, rev. 1.1a pp.
//!   9-219/9-220, which we know only as cited by a public audit note; Mesa's SFN back end
//!   emits the matching sequence (MOVA_INT to AR, then SET_CF_IDX0).
//! - MOVA_INT's result (L5137) is src0 if it lies in [-256, 255], else -256
//!   ([`Lifter::mova_int`]); AR.X holds it (a 9-bit register on hardware).
//!
//! # Uniformity
//! The registers are per wave but MOVA_INT's source is per lane. The hardware requires the
//! value to be uniform; we define the write as the value of the *first* (lowest-numbered)
//! lane that executes the instruction (PRED_SEL and the active mask applied), the Evergreen
//! rule for SET_CF_IDX. When no lane executes, the register keeps its value. The writes
//! happen at the end of the group, like every ALU write.
//!
//! # Uses ([`Lifter::indexed_id`]; "add index0/1 to the constant (CB#/T#/S#/UAV#) number")
//! Index mode 0 is the instruction's number, 1 adds CF_IDX0, 2 adds CF_IDX1, 3 is invalid.
//! - kcache (CF_ALU_WORD0_EXT KCACHE_BANK_INDEX_MODE0-3): the bank is computed when the
//!   clause locks its lines, at clause start, into [`Cf::KcacheBank0`]..3: a write to CF_IDX
//!   inside the clause affects the next clause. "Indexed locks of banks 14 and 15 are
//!   ignored": those banks are not indexed. A bank beyond 15 ends the wave with a guest trap.
//! - VTX BUFFER_INDEX_MODE, TEX RESOURCE_INDEX_MODE and SAMPLER_INDEX_MODE, RAT_INDEX_MODE:
//!   the effective number selects the buffer, resource, sampler or RAT as the static number
//!   would (see `fetch`, `tex`, `mem`).
//! - JUMPTABLE_SEL 4/5: CF_IDX0/1 is the jump-table entry (see `cf`).
//!
//! # Not lifted: INDEX_MODE GLOBAL / GLOBAL_AR_X
//! These address the compute unit's physical GPR file from 0 (2.6.1.1, L733-L772): the
//! global shared registers every wave on the compute unit sees, which exist only when a
//! host register reserves them in dynamic GPR mode, persist across dispatches and must be
//! initialised by a previous kernel. A compute launch here programs no such pool and runs
//! each wave with its own state, so an absolute GPR number has no meaning: the modes stay
//! lift errors. CLAUSE_GLOBAL, by contrast, is one 32-bit register per wave (above).
use super::state::{Cf, CONST_BUFFERS};
use super::{cf_text, LiftError, Lifter};
use crate::inst::{CfAlu, CfInst};
use wavejit_ir::{IntCC, Op, ScalarType, TrapKind, Value};

use ScalarType::{I1, I32, I64};

impl Lifter<'_> {
    /// MOVA_INT's result for an i32 `v` (lane or uniform): `v` if in [-256, 255], else -256.
    pub fn mova_int(&mut self, v: Value) -> Value {
        let lo = self.b.i32(-256i32 as u32);
        let hi = self.b.i32(255);
        let below = self.b.op(Op::Icmp(IntCC::Slt), I1, &[v, lo]);
        let above = self.b.op(Op::Icmp(IntCC::Sgt), I1, &[v, hi]);
        let out = self.b.op(Op::Or, I1, &[below, above]);
        self.b.op(Op::Select, I32, &[out, lo, v])
    }

    /// The value of `v` (i32) in the first lane of `lanes`, and whether any lane is set.
    fn first_lane(&mut self, v: Value, lanes: Value) -> (Value, Value) {
        let bits = self.b.ballot(lanes);
        let any = self.is_zero64(bits);
        let any = self.b.op(Op::Not, I1, &[any]);
        let first = self.b.op(Op::Ctz, I64, &[bits]);
        let first = self.b.op(Op::Trunc, I32, &[first]);
        let z = self.b.i32(0);
        let lane = self.b.op(Op::Select, I32, &[any, first, z]);
        let v = self.b.splat(v);
        (self.b.read_lane(v, lane), any)
    }

    /// The new value of the index register MOVA_INT with MOVA_DST `dst` (2-7) writes from
    /// its result `v` run under `lanes`: the cell and its value, to store at group end.
    /// `None` for MOVA_DST 1 (CF_PC) and the reserved values.
    pub fn mova_index_write(&mut self, dst: u8, v: Value, lanes: Value) -> Option<(Cf, Value)> {
        let (cell, shift, bits) = match dst {
            2 => (Cf::Idx0, 0, 0x1ff),
            3 => (Cf::Idx1, 0, 0x1ff),
            4..=7 => (Cf::ClauseGlobal, 8 * u32::from(dst - 4), 0xff),
            _ => return None,
        };
        let (first, any) = self.first_lane(v, lanes);
        let m = self.b.i32(bits);
        let mut new = self.b.op(Op::And, I32, &[first, m]);
        let old = self.get(cell, I32);
        if cell == Cf::ClauseGlobal {
            let k = self.b.i32(shift);
            new = self.b.op(Op::Shl, I32, &[new, k]);
            let keep = self.b.i32(!(0xff << shift));
            let kept = self.b.op(Op::And, I32, &[old, keep]);
            new = self.b.op(Op::Or, I32, &[kept, new]);
        }
        Some((cell, self.b.op(Op::Select, I32, &[any, new, old])))
    }

    /// Evergreen SET_CF_IDX0/1 (`which` 0/1) run under `lanes`: the cell and its new value
    /// (AR.X of the first lane, clamped to 0..255), to store at group end.
    pub fn set_cf_idx(&mut self, which: u8, lanes: Value) -> (Cf, Value) {
        let cell = if which == 0 { Cf::Idx0 } else { Cf::Idx1 };
        let r = self.l.ar();
        let ar = self.b.use_reg(r, I32);
        let (first, any) = self.first_lane(ar, lanes);
        let z = self.b.i32(0);
        let k = self.b.i32(255);
        let v = self.b.op(Op::Smax, I32, &[first, z]);
        let v = self.b.op(Op::Smin, I32, &[v, k]);
        let old = self.get(cell, I32);
        (cell, self.b.op(Op::Select, I32, &[any, v, old]))
    }

    /// The number `id` under index mode `mode` (uniform i32); `None` for the invalid mode 3.
    pub fn indexed_id(&mut self, id: u32, mode: u8) -> Option<Value> {
        let k = self.b.i32(id);
        let cell = match mode {
            0 => return Some(k),
            1 => Cf::Idx0,
            2 => Cf::Idx1,
            _ => return None,
        };
        let idx = self.get(cell, I32);
        Some(self.b.op(Op::Iadd, I32, &[k, idx]))
    }
}

/// Whether kcache set `set` of `a` locks lines of a bank it adds a CF index to (banks 14
/// and 15 never do).
pub fn kcache_indexed(a: &CfAlu, set: usize) -> bool {
    let mode = a.ext.map_or(0, |e| e.bank_index_mode[set]);
    mode != 0 && a.kcache[set].mode != 0 && a.kcache[set].bank < 14
}

impl Lifter<'_> {
    /// Locks the kcache banks of the CF_ALU instruction at `cf` (clause start): the bank of
    /// every indexed set that locks lines is computed into its `cf` cell; a bank beyond 15
    /// traps.
    pub fn lock_kcache_banks(&mut self, cf: u32, a: &CfAlu) -> Result<(), LiftError> {
        for set in 0..4 {
            let mode = a.ext.map_or(0, |e| e.bank_index_mode[set]);
            if mode == 0 {
                continue;
            }
            let text = || cf_text(&CfInst::Alu(*a));
            let Some(bank) = self.indexed_id(u32::from(a.kcache[set].bank), mode) else {
                return Err(self.invalid(cf, cf, text(), "KCACHE_BANK_INDEX_MODE 3"));
            };
            if !kcache_indexed(a, set) {
                continue;
            }
            let last = self.b.i32(CONST_BUFFERS - 1);
            let beyond = self.b.op(Op::Icmp(IntCC::Ugt), I1, &[bank, last]);
            let why = format!(
                "{}: kcache set {set}: bank + CF_IDX is beyond constant buffer {}",
                text(),
                CONST_BUFFERS - 1
            );
            self.check(beyond, TrapKind::Explicit(why));
            let bank = self.indexed_id(u32::from(a.kcache[set].bank), mode);
            let r = self.l.kcache_bank(set as u32);
            self.b.def_reg(r, bank.expect("mode checked above"), None);
        }
        Ok(())
    }

    /// The guest address of the constant buffer kcache set `set` of `a` reads (uniform i64).
    pub fn kcache_buffer(&mut self, a: &CfAlu, set: usize) -> Value {
        if !kcache_indexed(a, set) {
            let r = self.l.const_buffer(u32::from(a.kcache[set].bank));
            return self.b.use_reg(r, I64);
        }
        let r = self.l.kcache_bank(set as u32);
        let bank = self.b.use_reg(r, I32);
        let two = self.b.i32(2);
        let cell = self.b.op(Op::Imul, I32, &[bank, two]);
        let cb = self.l.cb;
        self.b.read_reg_indexed(cb, 0, cell, I64)
    }
}
