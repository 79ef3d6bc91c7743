//! Rarely used VALU opcodes with table- or condition-defined results: `v_mullit_f32`
//! (gfx6/7) and `v_screen_partition_4se_b32` (gfx9). Semantics from CLRX
//! doc/GcnInstrsVop3.md and doc/GcnInstrsVop1.md.
use super::{LiftError, Lifter};
use crate::inst::Inst;
use wavejit_ir::{FloatCC, IntCC, Op, ScalarType, Value};
use ScalarType::*;

/// The 256-entry 4-bit table of `v_screen_partition_4se_b32` (CLRX GcnInstrsVop1.md), 16
/// entries per row, entry `i` of a row in bits `[4i+3:4i]` of its word.
const SCREEN_PARTITION_4SE: [u64; 16] = pack_table([
    [1, 3, 7, 15, 5, 15, 15, 15, 7, 15, 15, 15, 15, 15, 15, 15],
    [15, 2, 6, 14, 15, 10, 15, 15, 15, 11, 15, 15, 15, 15, 15, 15],
    [13, 15, 4, 12, 15, 15, 5, 15, 15, 15, 13, 15, 15, 15, 15, 15],
    [9, 11, 15, 8, 15, 15, 15, 10, 15, 15, 15, 14, 15, 15, 15, 15],
    [15, 15, 15, 15, 4, 12, 13, 15, 6, 15, 15, 15, 14, 15, 15, 15],
    [15, 15, 15, 15, 15, 8, 9, 11, 15, 9, 9, 15, 15, 13, 15, 15],
    [15, 15, 15, 15, 7, 15, 1, 3, 15, 15, 9, 15, 15, 15, 11, 15],
    [15, 15, 15, 15, 6, 14, 15, 2, 6, 15, 15, 6, 15, 15, 15, 7],
    [11, 15, 15, 15, 15, 15, 15, 15, 2, 3, 11, 15, 10, 15, 15, 15],
    [15, 7, 15, 15, 15, 15, 15, 15, 15, 1, 9, 13, 15, 5, 15, 15],
    [
        15, 15, 14, 15, 15, 15, 15, 15, 14, 15, 8, 12, 15, 15, 10, 15,
    ],
    [15, 15, 15, 13, 15, 15, 15, 15, 6, 7, 15, 4, 15, 15, 15, 5],
    [9, 15, 15, 15, 13, 15, 15, 15, 15, 15, 15, 15, 8, 12, 14, 15],
    [15, 6, 6, 15, 15, 14, 15, 15, 15, 15, 15, 15, 15, 4, 6, 7],
    [15, 15, 6, 15, 15, 15, 7, 15, 15, 15, 15, 15, 11, 15, 2, 3],
    [9, 15, 15, 9, 15, 15, 15, 11, 15, 15, 15, 15, 9, 13, 15, 1],
]);

const fn pack_table(rows: [[u8; 16]; 16]) -> [u64; 16] {
    let mut out = [0u64; 16];
    let mut r = 0;
    while r < 16 {
        let mut i = 0;
        while i < 16 {
            out[r] |= (rows[r][i] as u64) << (4 * i);
            i += 1;
        }
        r += 1;
    }
    out
}

impl Lifter<'_> {
    /// v_mullit_f32: `src2 > 0` (NaN fails) selects `src0 * src1`, with +0.0 when either factor
    /// is zero (no IEEE sign or NaN rules for 0 * x); otherwise -FLT_MAX. The zero tests and
    /// the product follow the f32 denormal mode, as other f32 compares and multiplies do (CLRX
    /// is silent on denormal inputs).
    pub(crate) fn mullit(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let a = self.vsrc(inst, 0, F32)?;
        let b = self.vsrc(inst, 1, F32)?;
        let c = self.vsrc(inst, 2, F32)?;
        let fm = self.fm(F32);
        let zero = self.b.f32(0.0);
        let lit = self.b.op_mode(Op::Fcmp(FloatCC::Gt), fm, I1, &[c, zero]);
        let az = self.b.op_mode(Op::Fcmp(FloatCC::Eq), fm, I1, &[a, zero]);
        let bz = self.b.op_mode(Op::Fcmp(FloatCC::Eq), fm, I1, &[b, zero]);
        let anyz = self.b.op(Op::Or, I1, &[az, bz]);
        let p = self.b.op_mode(Op::Fmul, fm, F32, &[a, b]);
        let p = self.b.op(Op::Select, F32, &[anyz, zero, p]);
        let neg_max = self.b.iconst(F32, 0xff7f_ffff);
        let r = self.b.op(Op::Select, F32, &[lit, p, neg_max]);
        self.vdst(inst, r)
    }

    /// v_screen_partition_4se_b32: `TABLE[src0 & 0xff]`, a 4-bit entry. The row (bits 7:4)
    /// picks one of 16 packed 64-bit words by a binary select tree, the column shifts.
    pub(crate) fn screen_partition(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let s = self.vsrc(inst, 0, I32)?;
        let mut level: Vec<Value> = SCREEN_PARTITION_4SE
            .iter()
            .map(|&w| self.b.i64(w))
            .collect();
        for bit in 4..8 {
            let k = self.b.i32(1 << bit);
            let t = self.b.op(Op::And, I32, &[s, k]);
            let z = self.b.i32(0);
            let hi = self.b.op(Op::Icmp(IntCC::Ne), I1, &[t, z]);
            level = level
                .chunks(2)
                .map(|p| self.b.op(Op::Select, I64, &[hi, p[1], p[0]]))
                .collect();
        }
        let k15 = self.b.i32(15);
        let col = self.b.op(Op::And, I32, &[s, k15]);
        let k2 = self.b.i32(2);
        let sh = self.b.op(Op::Shl, I32, &[col, k2]);
        let w = self.b.op(Op::Lshr, I64, &[level[0], sh]);
        let w = self.b.op(Op::Trunc, I32, &[w]);
        let r = self.b.op(Op::And, I32, &[w, k15]);
        self.vdst(inst, r)
    }
}
