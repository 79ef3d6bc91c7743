//! A thin layer over [`FunctionBuilder`] for the ALU semantics: guest values are `i32` (a
//! dword) or `i64` (a register pair joined), float ops bitcast in and out, and every float op
//! carries the float mode of its precision.
//!
//! **Exception flags.** When [`Emit::flags`] is set (a clause that reads the flags, see
//! `flags`), every float op emitted through [`Emit::f32_in`], [`Emit::d_mode`],
//! [`Emit::dcmp`] or [`Emit::op_mode`] also emits its `fexcept` and ORs it in: an
//! instruction's flags are those of the IEEE operations its value is made of, intermediate
//! results included (MULADD is a MUL then an ADD). Steps that only implement a rule and are
//! no operation of the instruction run under [`Emit::unflagged`].

use wavejit_ir::{Except, FloatCC, FloatMode, FunctionBuilder, IntCC, Op, ScalarType, Value};

use ScalarType::{F32, F64, I1, I32, I64};

/// Emits IR for one ALU instruction.
pub struct Emit<'a> {
    pub b: &'a mut FunctionBuilder,
    /// Float mode of single-precision ops.
    pub m32: FloatMode,
    /// Float mode of double-precision ops.
    pub m64: FloatMode,
    /// The instruction's exception flags so far (`i32`, IR bit order), when tracked.
    pub flags: Option<Value>,
}

impl Emit<'_> {
    pub fn k(&mut self, v: u32) -> Value {
        self.b.i32(v)
    }

    pub fn k64(&mut self, v: u64) -> Value {
        self.b.i64(v)
    }

    pub fn op(&mut self, op: Op, ty: ScalarType, args: &[Value]) -> Value {
        self.b.op(op, ty, args)
    }

    /// `op` on single-precision operands given as dwords; the result as a dword.
    pub fn f32_in(&mut self, op: Op, mode: FloatMode, args: &[Value], ty: ScalarType) -> Value {
        let fargs: Vec<Value> = args.iter().map(|&a| self.cast(a, F32)).collect();
        self.op_mode(op, mode, ty, &fargs)
    }

    /// A float op on typed operands, its flags recorded when tracked.
    pub fn op_mode(&mut self, op: Op, mode: FloatMode, ty: ScalarType, args: &[Value]) -> Value {
        if let (Some(acc), Some(k)) = (self.flags, Except::of(op, ty)) {
            let f = self.b.op_mode(Op::Fexcept(k), mode, I32, args);
            self.flags = Some(self.b.op(Op::Or, I32, &[acc, f]));
        }
        self.b.op_mode(op, mode, ty, args)
    }

    /// Runs `f` without recording flags: for steps that implement a rule of the instruction
    /// (a tie test, a NaN fix-up) rather than one of its IEEE operations.
    pub fn unflagged<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let saved = self.flags.take();
        let r = f(self);
        self.flags = saved;
        r
    }

    /// ORs `flags` (`i32`) into the instruction's flags when tracked.
    pub fn raise(&mut self, flags: Value) {
        if let Some(acc) = self.flags {
            self.flags = Some(self.b.op(Op::Or, I32, &[acc, flags]));
        }
    }

    /// A single-precision op in the instruction's mode: dwords in, dword out.
    pub fn f(&mut self, op: Op, args: &[Value]) -> Value {
        self.f_mode(op, self.m32, args)
    }

    pub fn f_mode(&mut self, op: Op, mode: FloatMode, args: &[Value]) -> Value {
        let r = self.f32_in(op, mode, args, F32);
        self.cast(r, I32)
    }

    /// A double-precision op in the instruction's mode: `i64` in, `i64` out.
    pub fn d(&mut self, op: Op, args: &[Value]) -> Value {
        self.d_mode(op, self.m64, args)
    }

    pub fn d_mode(&mut self, op: Op, mode: FloatMode, args: &[Value]) -> Value {
        let fargs: Vec<Value> = args.iter().map(|&a| self.cast(a, F64)).collect();
        let r = self.op_mode(op, mode, F64, &fargs);
        self.cast(r, I64)
    }

    /// Bitcast (a no-op when the type already matches).
    pub fn cast(&mut self, v: Value, ty: ScalarType) -> Value {
        if self.b.ty(v).scalar == ty {
            v
        } else {
            self.b.op(Op::Bitcast, ty, &[v])
        }
    }

    pub fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        self.f32_in(Op::Fcmp(cc), self.m32, &[a, b], I1)
    }

    pub fn dcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        let (a, b) = (self.cast(a, F64), self.cast(b, F64));
        self.op_mode(Op::Fcmp(cc), self.m64, I1, &[a, b])
    }

    pub fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.b.op(Op::Icmp(cc), I1, &[a, b])
    }

    pub fn sel(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.b.ty(a).scalar;
        self.b.op(Op::Select, ty, &[c, a, b])
    }

    pub fn and1(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::And, I1, &[a, b])
    }

    pub fn or1(&mut self, a: Value, b: Value) -> Value {
        self.b.op(Op::Or, I1, &[a, b])
    }

    /// 1.0f or 0.0f.
    pub fn bool_f32(&mut self, c: Value) -> Value {
        let (one, zero) = (self.k(1f32.to_bits()), self.k(0));
        self.sel(c, one, zero)
    }

    /// 0xFFFFFFFF or 0.
    pub fn bool_mask(&mut self, c: Value) -> Value {
        let (ones, zero) = (self.k(u32::MAX), self.k(0));
        self.sel(c, ones, zero)
    }

    /// 1 or 0.
    pub fn bool_int(&mut self, c: Value) -> Value {
        self.b.op(Op::Zext, I32, &[c])
    }

    /// Whether a dword is a single-precision NaN (raw bits, no flushing).
    pub fn is_nan32(&mut self, x: Value) -> Value {
        let xf = self.cast(x, F32);
        let mask = self.k(0b11);
        self.b.op(Op::Fclass, I1, &[xf, mask])
    }

    /// Fclass of a double with `mask` (raw bits, no flushing).
    pub fn class64(&mut self, x: Value, mask: u32) -> Value {
        let x = self.cast(x, F64);
        let m = self.k(mask);
        self.b.op(Op::Fclass, I1, &[x, m])
    }

    /// `{hi, lo}` as one `i64`.
    pub fn join(&mut self, hi: Value, lo: Value) -> Value {
        self.b.op(Op::Concat, I64, &[lo, hi])
    }

    /// The (hi, lo) dwords of an `i64`.
    pub fn split(&mut self, v: Value) -> (Value, Value) {
        let lo = self.b.op(Op::Trunc, I32, &[v]);
        let k32 = self.k64(32);
        let sh = self.b.op(Op::Lshr, I64, &[v, k32]);
        let hi = self.b.op(Op::Trunc, I32, &[sh]);
        (hi, lo)
    }
}
