//! The 64-bit integer instructions (7.7, 7.8, and the post-v2.4 ones Appendix B names): one
//! value per instruction, a pair of components that `regs` reads from the sources' x and y after
//! the swizzle and writes to dst.xy or dst.zw ([`Lifter::src_pair`], [`Lifter::write_pair`];
//! "Each of these operations reads from the xy components of each source and can write to
//! either dst.xy or dst.zw", L3234). Arithmetic wraps. The rules, by seed 001 line:
//!
//! - `i64add` (L6603): the sum's low 64 bits. `i64sub`, `i64mul`, `u64mul` (no entries; AMD's
//!   AMDIL back end emits them for LLVM's sub and mul of i64, u64mul through its UMUL node,
//!   HSAIL-HLC-Stable AMDILInstructions.td): the low 64 bits of the difference and products.
//! - `i64negate` (L6651): 0 - src0.
//! - `i64max`, `i64min` (L6632), `u64max`, `u64min` (L6920): signed and unsigned maximum and
//!   minimum. The entries' sentences on NaN and denormals are copies from the float MAX and
//!   MIN and have nothing to act on.
//! - `i64eq`, `i64ge`, `i64lt`, `i64ne` (L6616), `u64ge`, `u64lt` (L6953): 0xFFFFFFFF or 0 in
//!   every written component: "the compare always looks at first two components of the source
//!   and broadcasts the result to all destination channels" (L3061; the entries'
//!   "src0.{xy zw}" is the DirectX form).
//! - `i64shl`, `i64shr`, `u64shr` (L6665, L6968): the amount is src1.x after the swizzle (L3230;
//!   the entries want all four swizzles of src1 equal), an integer operand, and its low 6 bits
//!   count (L3230; the entries' "lower five bits (0-63 range)" and "Shifts of 65 and 1 are
//!   treated identically" mean the same): the IR's shifts take the amount modulo 64.
//! - `u64div`, `u64mod`, `i64div`, `i64mod` (no entries; the back end's udiv, urem, sdiv and
//!   srem of i64): quotient and remainder, rounded toward zero. A zero divisor gives all ones
//!   to both unsigned forms, as `udiv` and `umod` do (`alu`: DirectX's rule). The signed forms,
//!   which neither the seed nor DirectX defines, take the IR's rule: x / 0 = -1, x % 0 = x,
//!   INT64_MIN / -1 = INT64_MIN and INT64_MIN % -1 = 0.

use super::regs::{select, Kind, Pair};
use super::Lifter;
use wavejit_ir::{FunctionBuilder, IntCC, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::{I1, I64};

fn int(b: &mut FunctionBuilder, op: Op, args: &[Value]) -> Value {
    b.op(op, I64, args)
}

impl Lifter<'_> {
    /// Lifts a 64-bit integer instruction; `false` if `m` is not one.
    pub(super) fn lift_int64(&mut self, m: &str) -> Result<bool, LiftError> {
        match m {
            "i64add" => self.map64(2, |b, a| int(b, Op::Iadd, a))?,
            "i64sub" => self.map64(2, |b, a| int(b, Op::Isub, a))?,
            "i64mul" | "u64mul" => self.map64(2, |b, a| int(b, Op::Imul, a))?,
            "i64negate" => self.map64(1, |b, a| {
                let zero = b.i64(0);
                int(b, Op::Isub, &[zero, a[0]])
            })?,
            "i64max" => self.map64(2, |b, a| int(b, Op::Smax, a))?,
            "i64min" => self.map64(2, |b, a| int(b, Op::Smin, a))?,
            "u64max" => self.map64(2, |b, a| int(b, Op::Umax, a))?,
            "u64min" => self.map64(2, |b, a| int(b, Op::Umin, a))?,
            "i64eq" | "i64ge" | "i64lt" | "i64ne" | "u64ge" | "u64lt" => {
                let cc = match m {
                    "i64eq" => IntCC::Eq,
                    "i64ge" => IntCC::Sge,
                    "i64lt" => IntCC::Slt,
                    "i64ne" => IntCC::Ne,
                    "u64ge" => IntCC::Uge,
                    _ => IntCC::Ult,
                };
                self.operands(1, 2)?;
                let x = self.src_pair(0, Pair::Int)?;
                let y = self.src_pair(1, Pair::Int)?;
                let c = self.b.op(Op::Icmp(cc), I1, &[x, y]);
                let r = select(&mut self.b, c, u32::MAX, 0);
                self.broadcast(r, Kind::Int)?;
            }
            "i64shl" | "i64shr" | "u64shr" => {
                let op = match m {
                    "i64shl" => Op::Shl,
                    "i64shr" => Op::Ashr,
                    _ => Op::Lshr,
                };
                self.operands(1, 2)?;
                let x = self.src_pair(0, Pair::Int)?;
                let n = self.src(1, 0, Kind::Int)?;
                let r = self.b.op(op, I64, &[x, n]);
                self.write_pair(r, Pair::Int)?;
            }
            "u64div" | "u64mod" => {
                let op = if m == "u64div" { Op::Udiv } else { Op::Urem };
                self.map64(2, |b, a| {
                    let zero = b.i64(0);
                    let by_zero = b.op(Op::Icmp(IntCC::Eq), I1, &[a[1], zero]);
                    let q = int(b, op, a);
                    let all = b.i64(u64::MAX);
                    b.op(Op::Select, I64, &[by_zero, all, q])
                })?
            }
            "i64div" => self.map64(2, |b, a| int(b, Op::Sdiv, a))?,
            "i64mod" => self.map64(2, |b, a| int(b, Op::Srem, a))?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// An instruction of `n` 64-bit integer sources and a 64-bit result computed by `f`.
    fn map64(
        &mut self,
        n: usize,
        f: impl Fn(&mut FunctionBuilder, &[Value]) -> Value,
    ) -> Result<(), LiftError> {
        self.operands(1, n)?;
        let mut args = Vec::with_capacity(n);
        for i in 0..n {
            args.push(self.src_pair(i, Pair::Int)?);
        }
        let r = f(&mut self.b, &args);
        self.write_pair(r, Pair::Int)
    }
}
