//! `get_sr`: the special registers of a compute dispatch (numbers from applegpu.py's
//! `SR_NAMES` and Mesa's `agx_opcodes.py`, notes/g13_sources.md §2).
//!
//! | SR | value |
//! |---|---|
//! | 0-2 | threadgroup_position_in_grid x, y, z |
//! | 4-6 | threads_per_threadgroup x, y, z (the launch's threadgroup size) |
//! | 8-10 | dispatch_threads_per_threadgroup x, y, z (this threadgroup's extent) |
//! | 20 | core_index: 0 (one emulated core) |
//! | 48-50 | thread_position_in_threadgroup x, y, z |
//! | 51 | thread_index_in_threadgroup: 32 × simdgroup + lane |
//! | 52 | thread_index_in_simdgroup: the lane |
//! | 53 | simdgroup_index_in_threadgroup |
//! | 56 | active_thread_index_in_quadgroup: active lanes of the quad below this one |
//! | 58 | active_thread_index_in_simdgroup: active lanes below this one |
//! | 63 | is_active_thread: 1 in active lanes (a compute thread is never a helper) |
//! | 80-82 | thread_position_in_grid x, y, z: group × threads_per_threadgroup + position |
//!
//! Other numbers (fragment coverage, the helper-program FIFO, `vm_slot`) are refused.

use super::state::sr;
use super::Lifter;
use crate::operand::Value as Operand;
use wavejit_ir::{Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::*;

impl Lifter<'_> {
    pub(super) fn get_sr(&mut self) -> Result<(), LiftError> {
        let Operand::Special(n) = self.operand("SR") else {
            return Err(self.invalid("no special register".into()));
        };
        let n = u32::from(n);
        let v = match n {
            0..=2 => self.b.use_reg(self.l.sr(sr::GROUP + n), I32),
            4..=6 => self.b.use_reg(self.l.sr(sr::GROUP_SIZE + n - 4), I32),
            8..=10 => self.b.use_reg(self.l.sr(sr::EXTENT + n - 8), I32),
            20 => self.b.i32(0),
            48..=50 => self.b.use_reg(self.l.tid(n - 48), I32),
            51 => {
                let sg = self.b.use_reg(self.l.sr(sr::SIMDGROUP), I32);
                let k = self.b.i32(5);
                let base = self.b.op(Op::Shl, I32, &[sg, k]);
                let lane = self.b.lane_id();
                self.b.op(Op::Iadd, I32, &[base, lane])
            }
            52 => self.b.lane_id(),
            53 => self.b.use_reg(self.l.sr(sr::SIMDGROUP), I32),
            56 | 58 => self.active_below(n == 56),
            63 => {
                let exec = self.exec_mask();
                let one = self.b.i32(1);
                let zero = self.b.i32(0);
                self.b.op(Op::Select, I32, &[exec, one, zero])
            }
            80..=82 => {
                let c = n - 80;
                let g = self.b.use_reg(self.l.sr(sr::GROUP + c), I32);
                let size = self.b.use_reg(self.l.sr(sr::GROUP_SIZE + c), I32);
                let base = self.b.op(Op::Imul, I32, &[g, size]);
                let t = self.b.use_reg(self.l.tid(c), I32);
                self.b.op(Op::Iadd, I32, &[base, t])
            }
            _ => {
                return Err(self.unsupported(&format!(
                    "special register {n} has no value in a compute dispatch"
                )))
            }
        };
        let d = self.dst()?;
        self.write_gpr(d, v)
    }

    /// Active lanes below this one, in its quad or in the SIMD-group.
    fn active_below(&mut self, quad: bool) -> Value {
        let exec = self.b.use_reg(self.l.exec(), I64);
        let lane = self.b.lane_id();
        let lane64 = self.b.op(Op::Zext, I64, &[lane]);
        let one = self.b.i64(1);
        let bit = self.b.op(Op::Shl, I64, &[one, lane64]);
        let below = self.b.op(Op::Isub, I64, &[bit, one]);
        let below = if quad {
            let three = self.b.i64(3);
            let not3 = self.b.op(Op::Not, I64, &[three]);
            let base = self.b.op(Op::And, I64, &[lane64, not3]);
            let start = self.b.op(Op::Shl, I64, &[one, base]);
            let before = self.b.op(Op::Isub, I64, &[start, one]);
            let keep = self.b.op(Op::Not, I64, &[before]);
            self.b.op(Op::And, I64, &[below, keep])
        } else {
            below
        };
        let m = self.b.op(Op::And, I64, &[exec, below]);
        let c = self.b.op(Op::Popcnt, I64, &[m]);
        self.b.op(Op::Trunc, I32, &[c])
    }
}
