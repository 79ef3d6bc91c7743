//! IR helpers shared by the TEX lifting code, and the texel-index wrap modes.
use super::super::F32_MODE;
use wavejit_ir::{FloatCC, FunctionBuilder, IntCC, Op, ScalarType, Value};

use ScalarType::{F32, I1, I32};

/// Small IR helpers over the builder.
pub(super) struct Ir<'a>(pub &'a mut FunctionBuilder);

impl Ir<'_> {
    pub fn k(&mut self, v: u32) -> Value {
        self.0.i32(v)
    }
    pub fn op(&mut self, op: Op, ty: ScalarType, a: &[Value]) -> Value {
        self.0.op(op, ty, a)
    }
    pub fn field(&mut self, w: Value, lo: u32, n: u32) -> Value {
        let (l, m) = (self.k(lo), self.k((1u32 << n) - 1));
        let s = self.op(Op::Lshr, I32, &[w, l]);
        self.op(Op::And, I32, &[s, m])
    }
    pub fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.op(Op::Icmp(cc), I1, &[a, b])
    }
    pub fn eqk(&mut self, a: Value, k: u32) -> Value {
        let k = self.k(k);
        self.icmp(IntCC::Eq, a, k)
    }
    pub fn sel(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.0.ty(a).scalar;
        self.op(Op::Select, ty, &[c, a, b])
    }
    pub fn and(&mut self, a: Value, b: Value) -> Value {
        self.op(Op::And, I1, &[a, b])
    }
    pub fn or(&mut self, a: Value, b: Value) -> Value {
        self.op(Op::Or, I1, &[a, b])
    }
    pub fn not(&mut self, a: Value) -> Value {
        self.op(Op::Not, I1, &[a])
    }
    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.op(Op::Iadd, I32, &[a, b])
    }
    pub fn addk(&mut self, a: Value, k: u32) -> Value {
        let k = self.k(k);
        self.add(a, k)
    }
    pub fn f(&mut self, op: Op, a: &[Value]) -> Value {
        self.0.op_mode(op, F32_MODE, F32, a)
    }
    pub fn fk(&mut self, v: f32) -> Value {
        self.0.f32(v)
    }
    pub fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        self.0.op_mode(Op::Fcmp(cc), F32_MODE, I1, &[a, b])
    }
    /// `a * (1 - w) + b * w`.
    pub fn lerp(&mut self, a: Value, b: Value, w: Value) -> Value {
        let one = self.fk(1.0);
        let iw = self.f(Op::Fsub, &[one, w]);
        let pa = self.f(Op::Fmul, &[a, iw]);
        let pb = self.f(Op::Fmul, &[b, w]);
        self.f(Op::Fadd, &[pa, pb])
    }
    /// Euclidean `i mod n` (`n >= 1`).
    pub fn emod(&mut self, i: Value, n: Value) -> Value {
        let r = self.op(Op::Srem, I32, &[i, n]);
        let zero = self.k(0);
        let neg = self.icmp(IntCC::Slt, r, zero);
        let rn = self.add(r, n);
        self.sel(neg, rn, r)
    }
    /// 1 (INT) or 1.0f.
    pub fn one(&mut self, is_int: Value) -> Value {
        let (i, f) = (self.k(1), self.k(1f32.to_bits()));
        self.sel(is_int, i, f)
    }
    /// `v[sel]` for sel 0-3, 0 for 4, `one` for 5 (a uniform select).
    pub fn swizzle(&mut self, v: [Value; 4], sel: Value, one: Value) -> Value {
        let mut r = self.k(0);
        for (k, &x) in [(5, &one), (3, &v[3]), (2, &v[2]), (1, &v[1]), (0, &v[0])] {
            let e = self.eqk(sel, k);
            r = self.sel(e, x, r);
        }
        r
    }
    pub fn fsel(&mut self, c: Value, a: Value, b: Value) -> Value {
        self.op(Op::Select, F32, &[c, a, b])
    }
    /// `(v + a - 1) / a * a` (`a >= 1`).
    pub fn align(&mut self, v: Value, a: Value) -> Value {
        let s = self.add(v, a);
        let s = self.addk(s, u32::MAX);
        let q = self.op(Op::Udiv, I32, &[s, a]);
        self.op(Op::Imul, I32, &[q, a])
    }
    /// The least power of two `>= v`, for `1 <= v <= 16384` (14-bit texture sizes).
    pub fn pow2_ceil(&mut self, v: Value) -> Value {
        let mut p = self.k(1);
        for _ in 0..14 {
            let lt = self.icmp(IntCC::Ult, p, v);
            let d = self.add(p, p);
            p = self.sel(lt, d, p);
        }
        p
    }
    /// `max(1, v >> l)`.
    pub fn minify(&mut self, v: Value, l: Value) -> Value {
        let s = self.op(Op::Lshr, I32, &[v, l]);
        let one = self.k(1);
        self.op(Op::Umax, I32, &[s, one])
    }
}

/// The wrapped index and whether it reads the border (see `sample`, step 4).
pub(super) fn wrap(ir: &mut Ir, mode: Value, i: Value, n: Value) -> (Value, Value) {
    let zero = ir.k(0);
    let n1 = ir.addk(n, u32::MAX);
    let rep = ir.emod(i, n);
    let n2 = ir.add(n, n);
    let m = ir.emod(i, n2);
    let lo = ir.icmp(IntCC::Slt, m, n);
    let n2m = ir.op(Op::Isub, I32, &[n2, m]);
    let back = ir.addk(n2m, u32::MAX);
    let mir = ir.sel(lo, m, back);
    let c0 = ir.op(Op::Smax, I32, &[i, zero]);
    let edge = ir.op(Op::Smin, I32, &[c0, n1]);
    let k31 = ir.k(31);
    let sign = ir.op(Op::Ashr, I32, &[i, k31]);
    let mo = ir.op(Op::Xor, I32, &[i, sign]);
    let mo_edge = ir.op(Op::Smin, I32, &[mo, n1]);
    let out = ir.icmp(IntCC::Uge, i, n);
    let mo_out = ir.icmp(IntCC::Uge, mo, n);
    let mut idx = i;
    for (k, v) in [(7, mo), (3, mo_edge), (2, edge), (1, mir), (0, rep)] {
        let e = ir.eqk(mode, k);
        idx = ir.sel(e, v, idx);
    }
    let m7 = ir.eqk(mode, 7);
    let k4 = ir.k(4);
    let bordered = ir.icmp(IntCC::Uge, mode, k4);
    let o = ir.sel(m7, mo_out, out);
    (idx, ir.and(bordered, o))
}
