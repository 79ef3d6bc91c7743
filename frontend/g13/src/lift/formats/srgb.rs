//! `srgba8`'s colour conversions (defined in the `formats` module docs): a byte's 12-bit
//! linear value, and the byte whose value is nearest an f32.
//!
//! The IR holds no tables, so both read 64-bit constants that pack four 16-bit entries, the
//! first in the low lane. A load picks its constant with a tree of selects on the byte's bits
//! 7-2 and shifts its entry out. A store compares ⌈8190 x⌉ with four thresholds at once: in
//! each lane, `(0x8000 | y) - t` keeps the lane's top bit exactly when `y >= t` (all values are
//! below 0x8000, so no lane borrows from the next), and a popcount counts them.

use super::srgb_table::SRGB_UNORM12;
use super::Lifter;
use wavejit_ir::{IntCC, Op, ScalarType, Value};

use ScalarType::*;

/// The top bit of each 16-bit lane.
const LANE_TOPS: u64 = 0x8000_8000_8000_8000;
/// One in each 16-bit lane.
const LANE_ONES: u64 = 0x0001_0001_0001_0001;
/// A threshold that ⌈8190 x⌉ (at most 8190) never reaches.
const NEVER: u16 = 0x7fff;

/// Four entries packed into the lanes of a constant, the first lowest.
fn lanes(entries: &[u16]) -> u64 {
    entries.iter().rev().fold(0, |w, &e| w << 16 | u64::from(e))
}

/// `t[b] = k_b + k_(b+1) + 1` for b < 255: ⌈8190 x⌉ reaches `t[b]` exactly when x lies above
/// the midpoint of the values of bytes b and b + 1; `t[255]` is never reached.
fn thresholds() -> [u16; 256] {
    let mut t = [NEVER; 256];
    for (b, pair) in SRGB_UNORM12.windows(2).enumerate() {
        t[b] = pair[0] + pair[1] + 1;
    }
    t
}

impl Lifter<'_> {
    /// The 12-bit linear value of the byte `b` (an i32 below 256), as an i32.
    pub(super) fn srgb_unorm12(&mut self, b: Value) -> Value {
        let words: Vec<u64> = SRGB_UNORM12.chunks(4).map(lanes).collect();
        let conds: Vec<Value> = (2..8).map(|j| self.bit(b, j)).collect();
        let word = self.select_tree(&conds, &words);
        let three = self.b.i32(3);
        let lane = self.b.op(Op::And, I32, &[b, three]);
        let four = self.b.i32(4);
        let shift = self.b.op(Op::Shl, I32, &[lane, four]);
        let v = self.b.op(Op::Lshr, I64, &[word, shift]);
        let v = self.b.op(Op::Trunc, I32, &[v]);
        let mask = self.b.i32(0xffff);
        self.b.op(Op::And, I32, &[v, mask])
    }

    /// The byte (an i32) whose linear value is nearest the f32 `x` clamped to [0, 1], NaN
    /// read as 0.
    pub(super) fn srgb_byte(&mut self, x: Value) -> Value {
        let x = self.clamp(x, 0.0, 1.0);
        let d = self.b.op(Op::Fconvert, F64, &[x]);
        let k = self.b.f64(8190.0);
        let d = self.b.op(Op::Fmul, F64, &[d, k]);
        let d = self.b.op(Op::Fceil, F64, &[d]);
        let y = self.b.op(Op::FtoU, I64, &[d]);
        let ones = self.b.i64(LANE_ONES);
        let y = self.b.op(Op::Imul, I64, &[y, ones]);
        let tops = self.b.i64(LANE_TOPS);
        let y = self.b.op(Op::Or, I64, &[y, tops]);

        let t = thresholds();
        // Group g holds bytes 16g..16g+15; the groups below x's are those whose last
        // threshold x reaches.
        let lasts: Vec<u16> = (0..16).map(|g| t[16 * g + 15]).collect();
        let mut group = self.b.i64(0);
        for four in lasts.chunks(4) {
            let w = self.b.i64(lanes(four));
            let n = self.reached(y, w);
            group = self.b.op(Op::Iadd, I64, &[group, n]);
        }
        let conds: Vec<Value> = (0..4).map(|j| self.bit(group, j)).collect();
        let sixteen = self.b.i64(16);
        let mut byte = self.b.op(Op::Imul, I64, &[group, sixteen]);
        for quarter in 0..4 {
            let words: Vec<u64> = (0..16)
                .map(|g| lanes(&t[16 * g + 4 * quarter..][..4]))
                .collect();
            let w = self.select_tree(&conds, &words);
            let n = self.reached(y, w);
            byte = self.b.op(Op::Iadd, I64, &[byte, n]);
        }
        self.b.op(Op::Trunc, I32, &[byte])
    }

    /// How many of the four thresholds in the lanes of `w` the lanes of `y` (each `0x8000 |
    /// ⌈8190 x⌉`) reach.
    fn reached(&mut self, y: Value, w: Value) -> Value {
        let d = self.b.op(Op::Isub, I64, &[y, w]);
        let tops = self.b.i64(LANE_TOPS);
        let d = self.b.op(Op::And, I64, &[d, tops]);
        self.b.op(Op::Popcnt, I64, &[d])
    }

    /// Whether bit `j` of the integer `v` is set.
    fn bit(&mut self, v: Value, j: u32) -> Value {
        let ty = self.b.ty(v).scalar;
        let m = self.b.iconst(ty, 1 << j);
        let set = self.b.op(Op::And, ty, &[v, m]);
        let zero = self.b.iconst(ty, 0);
        self.b.op(Op::Icmp(IntCC::Ne), I1, &[set, zero])
    }

    /// `leaves[i]` (i64 constants, 2^conds.len() of them) for the index i whose bit j is
    /// `conds[j]`.
    fn select_tree(&mut self, conds: &[Value], leaves: &[u64]) -> Value {
        let mut level: Vec<Value> = leaves.iter().map(|&w| self.b.i64(w)).collect();
        for &c in conds {
            level = level
                .chunks(2)
                .map(|p| self.b.op(Op::Select, I64, &[c, p[1], p[0]]))
                .collect();
        }
        level[0]
    }
}
