//! Inline lowering of pure ops to Cranelift, bit-exact with [`wavejit_ir::semantics::eval`].
//!
//! [`lower`] returns `None` for an op (or type, shape, float mode) it does not inline; the
//! caller then calls the semantics through a helper. The same code lowers a uniform op
//! (scalars) and a lane op (one 4-lane chunk), through [`Form`].
//!
//! Inlined (f32/f64 float ops in round-to-nearest-even only, with denormal flushing per
//! [`FloatMode`] and the semantics' NaN rule written out; never CLIF `fmin`/`fmax`, see
//! notes/cranelift_jit.md section 3.5):
//! - integer `iadd isub imul` (every width), `umulhi smulhi` (i32 lanes, i32/i64 uniform),
//!   `umin umax smin smax umed3 smed3`, `and or xor not bfi`, shifts by a uniform amount,
//!   `ubfe sbfe` (i32) with a uniform offset and width,
//!   `iabs` (i32/i64), `popcnt clz ctz bitrev` (uniform i32/i64), carries (i32/i64), `icmp`
//!   (not on i1), `select`, `zext sext trunc bitcast concat`;
//! - float `fadd fsub fmul fdiv fsqrt(ieee) fma fmad fmul_legacy fmad_legacy`, `fmin fmax`
//!   (all three rules), `fcmp`, `fneg fabs fcopysign`; `ftos ftou` f32->i32, `stof utof`
//!   i32->f32.
//!
//! NaN operands: the x86 host already gives the semantics' result when at most one operand
//! is a NaN, so the fix-up for several NaN operands is emitted only when two or more may be
//! one (a constant that is not a NaN cannot). Under NaN speculation ([`Spec`]) the fix-ups
//! are left out and the values they depend on are checked instead; a checked value, and what
//! ops that create no NaN compute from such values, count as NaN-free from then on.
//!
//! Everything else (f16, directed rounding, division, saturation, per-lane shift amounts, bit
//! fields with per-lane offsets or widths, rounding to integral, transcendentals, conversions between float widths, the GPU
//! helpers, the exception flags of `fexcept`) goes through the helper.

use crate::vals::*;
use cranelift_codegen::ir::{
    condcodes::{FloatCC as CFloatCC, IntCC as CIntCC},
    types as ct, InstBuilder, Value,
};
use cranelift_frontend::FunctionBuilder;
use std::collections::HashSet;
use wavejit_ir::{FloatCC, FloatMode, IntCC, MinMax, Op, Round, ScalarType, Trans};

/// What the lowering may assume about the host.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LowerCfg {
    /// The ISA has fused multiply-add (else `fma` goes through the helper).
    pub fma: bool,
    /// The ISA rounds floats to integral values natively (x86 SSE4.1 `roundps`, AArch64
    /// `frint*`; else `ffloor` and its kin go through the helper).
    pub round: bool,
    /// The code runs with the host's denormals-are-zero mode set ([`crate::host_float`]), and
    /// every float op it inlines flushes its inputs: an operand that only host arithmetic or an
    /// ordered compare reads needs no flush of its own.
    pub daz: bool,
}

pub(crate) struct Lower<'a, 'b> {
    pub b: &'a mut FunctionBuilder<'b>,
    pub cfg: LowerCfg,
    /// NaN speculation state of the chunk (lane ops only; see [`crate::emit`]).
    pub spec: Option<&'a mut Spec>,
    /// Values (with their width: `true` for f64 lanes) whose denormals are already flushed:
    /// results of [`Lower::flush_if`]. Flushing is idempotent, so flushing one again (an
    /// op's flushed result read by a flushing op) is skipped. A Cranelift value is flushed
    /// wherever it is used, so the set lives as long as the function being built.
    pub flushed: &'a mut HashSet<(Value, bool)>,
}

/// NaN speculation in one copy of a chunk-loop body: float ops skip the fix-ups that only
/// matter for NaN operands and record the values that must have no NaN lane for their
/// results to be exact.
#[derive(Debug, Default)]
pub(crate) struct Spec {
    /// Float vectors tested for NaN lanes before the iteration stores anything.
    pub checks: Vec<Value>,
    /// Values (bitcasts looked through) without NaN lanes whenever the checks pass: checked
    /// values, and results of ops that make no NaN from such operands.
    clean: HashSet<Value>,
    /// `clean`'s values in the order they were added (for [`Lower::check_instead`]).
    log: Vec<Value>,
}

impl Spec {
    fn mark_clean(&mut self, v: Value) {
        if self.clean.insert(v) {
            self.log.push(v);
        }
    }
}

fn float_ok(t: ScalarType, mode: FloatMode) -> bool {
    matches!(t, ScalarType::F32 | ScalarType::F64) && mode.round == Round::NearestEven
}

fn int_cc(cc: IntCC) -> CIntCC {
    match cc {
        IntCC::Eq => CIntCC::Equal,
        IntCC::Ne => CIntCC::NotEqual,
        IntCC::Ult => CIntCC::UnsignedLessThan,
        IntCC::Ule => CIntCC::UnsignedLessThanOrEqual,
        IntCC::Ugt => CIntCC::UnsignedGreaterThan,
        IntCC::Uge => CIntCC::UnsignedGreaterThanOrEqual,
        IntCC::Slt => CIntCC::SignedLessThan,
        IntCC::Sle => CIntCC::SignedLessThanOrEqual,
        IntCC::Sgt => CIntCC::SignedGreaterThan,
        IntCC::Sge => CIntCC::SignedGreaterThanOrEqual,
    }
}

fn signed_of(cc: CIntCC) -> CIntCC {
    match cc {
        CIntCC::UnsignedLessThan => CIntCC::SignedLessThan,
        CIntCC::UnsignedLessThanOrEqual => CIntCC::SignedLessThanOrEqual,
        CIntCC::UnsignedGreaterThan => CIntCC::SignedGreaterThan,
        CIntCC::UnsignedGreaterThanOrEqual => CIntCC::SignedGreaterThanOrEqual,
        c => c,
    }
}

fn is_signed(cc: IntCC) -> bool {
    matches!(cc, IntCC::Slt | IntCC::Sle | IntCC::Sgt | IntCC::Sge)
}

impl Lower<'_, '_> {
    /// Lowers `op`; `args` are uniform (`V::S`) or lane values; `lane` is the result shape.
    pub fn lower(
        &mut self,
        op: Op,
        mode: FloatMode,
        ty: ScalarType,
        arg_tys: &[ScalarType],
        args: &[V],
        lane: bool,
    ) -> Option<V> {
        use Op::*;
        use ScalarType::*;
        let t0 = arg_tys.first().copied().unwrap_or(ty);
        let bits = ty.bits();
        let f = Form::of(ty, lane);
        // Operands of the op's own type, in the result's form.
        let same = |s: &mut Self, i: usize| s.arg(args[i], arg_tys[i], lane);
        Some(match op {
            Iadd | Isub | Imul if ty != I1 => {
                let (a, c) = (same(self, 0), same(self, 1));
                let r = self.map2(f, a, c, |b, x, y| match op {
                    Iadd => b.ins().iadd(x, y),
                    Isub => b.ins().isub(x, y),
                    _ => b.ins().imul(x, y),
                });
                self.wrap(f, ty, r)
            }
            UmulHi | SmulHi if ty == I32 || (!lane && ty == I64) => {
                let (a, c) = (same(self, 0), same(self, 1));
                if lane {
                    self.mulhi32_lanes(op == SmulHi, a, c)
                } else {
                    self.map2(f, a, c, |b, x, y| {
                        if op == SmulHi {
                            b.ins().smulhi(x, y)
                        } else {
                            b.ins().umulhi(x, y)
                        }
                    })
                }
            }
            Umin | Umax | Smin | Smax => {
                let (a, c) = (same(self, 0), same(self, 1));
                let cc = match op {
                    Umin => IntCC::Ult,
                    Umax => IntCC::Ugt,
                    Smin => IntCC::Slt,
                    _ => IntCC::Sgt,
                };
                self.minmax_int(f, ty, cc, a, c)
            }
            Umed3 | Smed3 => {
                let (a, c, d) = (same(self, 0), same(self, 1), same(self, 2));
                let (lt, gt) = if op == Umed3 {
                    (IntCC::Ult, IntCC::Ugt)
                } else {
                    (IntCC::Slt, IntCC::Sgt)
                };
                let lo = self.minmax_int(f, ty, lt, a, c);
                let hi = self.minmax_int(f, ty, gt, a, c);
                let m = self.minmax_int(f, ty, lt, hi, d);
                self.minmax_int(f, ty, gt, lo, m)
            }
            And | Or | Xor | Bfi => {
                let a: Vec<V> = (0..op.arity()).map(|i| same(self, i)).collect();
                if op == Bfi {
                    let (pm, n) = a[0].parts();
                    let (pa, _) = a[1].parts();
                    let (pb, _) = a[2].parts();
                    let mut out = pa;
                    for k in 0..n {
                        out[k] = self.b.ins().bitselect(pm[k], pa[k], pb[k]);
                    }
                    f.make(out)
                } else {
                    self.map2(f, a[0], a[1], |b, x, y| match op {
                        And => b.ins().band(x, y),
                        Or => b.ins().bor(x, y),
                        _ => b.ins().bxor(x, y),
                    })
                }
            }
            Not => {
                let a = same(self, 0);
                if ty == I1 && !lane {
                    let one = self.b.ins().iconst(ct::I32, 1);
                    let ([x, _], _) = a.parts();
                    V::S(self.b.ins().bxor(x, one))
                } else {
                    let r = self.map1(f, a, |b, x| b.ins().bnot(x));
                    if ty == I1 {
                        r
                    } else {
                        self.wrap(f, ty, r)
                    }
                }
            }
            // Per-lane amounts (GCN `v_lshlrev_b32` on a VGPR amount, R5xx table lookups):
            // host vector shifts take one amount, so each of the chunk's four lanes is shifted
            // as a scalar, whose amount the host takes modulo 32 as the IR does.
            Shl | Lshr | Ashr if ty == I32 && arg_tys[1] == I32 && matches!(args[1], V::L(_)) => {
                let (V::L(x), V::L(n)) = (same(self, 0), args[1]) else {
                    return None;
                };
                let mut r = x;
                for k in 0..4u8 {
                    let xe = self.b.ins().extractlane(x, k);
                    let ne = self.b.ins().extractlane(n, k);
                    let e = match op {
                        Shl => self.b.ins().ishl(xe, ne),
                        Lshr => self.b.ins().ushr(xe, ne),
                        _ => self.b.ins().sshr(xe, ne),
                    };
                    r = self.b.ins().insertlane(r, e, k);
                }
                V::L(r)
            }
            Shl | Lshr | Ashr if ty != I1 => {
                // Vector shifts take one (uniform) amount.
                let V::S(amt) = args[1] else { return None };
                let a = same(self, 0);
                let at = arg_tys[1];
                if let (V::L2(p0, p1), Some(k)) = (a, known_lanes(self.b, amt)) {
                    if let Some((lo, hi)) = interleaved_rows(self.b, p0, p1) {
                        return Some(self.shift64_rows(op, lo, hi, (k & 63) as u32));
                    }
                }
                let amt = match known_lanes(self.b, amt) {
                    // A constant amount folded here gives an immediate shift at tier 1 too.
                    Some(c) => self.b.ins().iconst(ct::I32, (c & (bits as u64 - 1)) as i64),
                    None => {
                        let m = self.b.ins().band_imm_u(amt, (bits - 1) as i64);
                        if at.bits() == 64 {
                            self.b.ins().ireduce(ct::I32, m)
                        } else {
                            m
                        }
                    }
                };
                let r = self.map1(f, a, |b, x| match op {
                    Shl => b.ins().ishl(x, amt),
                    Lshr => b.ins().ushr(x, amt),
                    _ => {
                        let x = if bits < 32 { sext_in(b, bits, x) } else { x };
                        b.ins().sshr(x, amt)
                    }
                });
                self.wrap(f, ty, r)
            }
            Ubfe | Sbfe if ty == I32 => {
                // Bit-field extract with a uniform offset and width, the common case
                // (SDWA selects, `v_cvt_f32_ubyte*`, `v_bfe` with constants), as two shifts.
                // Mirrors `semantics::int::bfe`: with off = offset & 31 and w = width & 31,
                // w = 0 gives 0; off + w < 32 gives (x << (32 - off - w)) >> (32 - w); otherwise
                // x >> off (arithmetic shifts for the signed form).
                let (V::S(off), V::S(w)) = (args[1], args[2]) else {
                    return None;
                };
                let a = same(self, 0);
                if let (Some(o), Some(w)) = (known_lanes(self.b, off), known_lanes(self.b, w)) {
                    return Some(self.bfe_const(f, op == Sbfe, a, o as u32 & 31, w as u32 & 31));
                }
                let off = self.b.ins().band_imm_u(off, 31);
                let w = self.b.ins().band_imm_u(w, 31);
                let sum = self.b.ins().iadd(off, w);
                let c32 = self.b.ins().iconst(ct::I32, 32);
                let zero = self.b.ins().iconst(ct::I32, 0);
                let inside = self.b.ins().icmp(CIntCC::UnsignedLessThan, sum, c32);
                let up = self.b.ins().isub(c32, sum);
                let s1 = self.b.ins().select(inside, up, zero);
                let down = self.b.ins().isub(c32, w);
                let s2 = self.b.ins().select(inside, down, off);
                let empty = self.b.ins().icmp(CIntCC::Equal, w, zero);
                let signed = op == Sbfe;
                self.map1(f, a, |b, x| {
                    let y = b.ins().ishl(x, s1);
                    let r = if signed {
                        b.ins().sshr(y, s2)
                    } else {
                        b.ins().ushr(y, s2)
                    };
                    let z = b.ins().bxor(x, x);
                    b.ins().select(empty, z, r)
                })
            }
            Iabs if ty == I32 || ty == I64 => {
                let a = same(self, 0);
                self.map1(f, a, |b, x| b.ins().iabs(x))
            }
            Popcnt | Clz | Ctz | Bitrev if !lane && (ty == I32 || ty == I64) => {
                let ([x, _], _) = args[0].parts();
                V::S(match op {
                    Popcnt => self.b.ins().popcnt(x),
                    Clz => self.b.ins().clz(x),
                    Ctz => self.b.ins().ctz(x),
                    _ => self.b.ins().bitrev(x),
                })
            }
            AddCarryOut | SubBorrowOut if t0 == I32 || t0 == I64 => {
                let fa = Form::of(t0, lane);
                let (a, c) = (self.arg(args[0], t0, lane), self.arg(args[1], t0, lane));
                let cin = self.arg(args[2], I1, lane);
                let cinp = self.bool_as_int(fa, cin);
                let (pa, n) = a.parts();
                let (pc, _) = c.parts();
                // A carry-in known to be 0 (the low half of a 64-bit add) adds no second carry.
                let no_cin = match args[2] {
                    V::S(x) | V::L(x) => known_lanes(self.b, x) == Some(0),
                    V::L2(..) => false,
                };
                let mut out = pa;
                for k in 0..n {
                    let (x, y, ci) = (pa[k], pc[k], cinp[k]);
                    out[k] = if op == AddCarryOut {
                        let s1 = self.b.ins().iadd(x, y);
                        let c1 = self.ucmp(fa, IntCC::Ult, s1, x);
                        if no_cin {
                            c1
                        } else {
                            let s2 = self.b.ins().iadd(s1, ci);
                            let c2 = self.ucmp(fa, IntCC::Ult, s2, s1);
                            self.b.ins().bor(c1, c2)
                        }
                    } else {
                        let b1 = self.ucmp(fa, IntCC::Ult, x, y);
                        if no_cin {
                            b1
                        } else {
                            let d = self.b.ins().isub(x, y);
                            let b2 = self.ucmp(fa, IntCC::Ult, d, ci);
                            self.b.ins().bor(b1, b2)
                        }
                    };
                }
                mask_from_parts(self.b, fa, out)
            }
            Icmp(cc) if t0 != I1 => {
                let fa = Form::of(t0, lane);
                let (a, c) = (self.arg(args[0], t0, lane), self.arg(args[1], t0, lane));
                let (pa, n) = a.parts();
                let (pc, _) = c.parts();
                let mut out = pa;
                for k in 0..n {
                    let (mut x, mut y) = (pa[k], pc[k]);
                    if is_signed(cc) && t0.bits() < 32 {
                        x = sext_in(self.b, t0.bits(), x);
                        y = sext_in(self.b, t0.bits(), y);
                    }
                    out[k] = if is_signed(cc) {
                        self.b.ins().icmp(int_cc(cc), x, y)
                    } else {
                        self.ucmp(fa, cc, x, y)
                    };
                }
                mask_from_parts(self.b, fa, out)
            }
            Select => {
                let m = args[0];
                let (x, y) = (self.arg(args[1], ty, lane), self.arg(args[2], ty, lane));
                let (px, n) = x.parts();
                let (py, _) = y.parts();
                let m = if lane { self.arg(m, I1, true) } else { m };
                let mp = mask_parts(self.b, f, m);
                let mut out = px;
                for k in 0..n {
                    out[k] = select(self.b, f, mp[k], px[k], py[k]);
                }
                f.make(out)
            }
            Bitcast => self.arg(args[0], t0, lane),
            Zext | Sext | Trunc => {
                let a = self.arg(args[0], t0, lane);
                self.width_change(op, ty, t0, a, lane)
            }
            Concat if t0 != I1 => {
                let (a, c) = (self.arg(args[0], t0, lane), self.arg(args[1], t0, lane));
                let ([x, _], _) = a.parts();
                let ([y, _], _) = c.parts();
                if ty == I64 {
                    if lane {
                        let (p0, p1) = interleave(self.b, x, y);
                        V::L2(p0, p1)
                    } else {
                        let lo = self.b.ins().uextend(ct::I64, x);
                        let hi = self.b.ins().uextend(ct::I64, y);
                        let hi = self.b.ins().ishl_imm_u(hi, 32);
                        V::S(self.b.ins().bor(lo, hi))
                    }
                } else {
                    let hi = self.b.ins().ishl_imm_u(y, t0.bits() as i64);
                    let r = self.b.ins().bor(x, hi);
                    if lane {
                        V::L(r)
                    } else {
                        V::S(r)
                    }
                }
            }
            // Widening is exact: the host's conversion keeps every value, quiets a NaN and
            // shifts its payload as `semantics::convert` does (x86 `cvtps2pd`).
            Fconvert if t0 == F32 && ty == F64 => {
                let fa = Form::of(F32, lane);
                let a = self.arg(args[0], t0, lane);
                let a = self.flush_operand(fa, mode.flush_in, a);
                match a {
                    V::S(x) => {
                        let xf = as_float(self.b, fa, x);
                        let d = self.b.ins().fpromote(ct::F64, xf);
                        V::S(as_int(self.b, f, d))
                    }
                    V::L(x) => {
                        let xf = as_float(self.b, fa, x);
                        let lo = self.b.ins().fvpromote_low(xf);
                        let upper = shuffle32(self.b, x, x, [2, 3, 2, 3]);
                        let upper = as_float(self.b, fa, upper);
                        let hi = self.b.ins().fvpromote_low(upper);
                        V::L2(as_int(self.b, f, lo), as_int(self.b, f, hi))
                    }
                    V::L2(..) => return None,
                }
            }
            // Narrowing rounds once to nearest even and keeps a NaN's top payload bits, quiet,
            // as `semantics::convert` does (x86 `cvtsd2ss`/`cvtpd2ps`); denormal results are
            // flushed after the rounding, as `finish` flushes them.
            Fconvert if t0 == F64 && ty == F32 && mode.round == Round::NearestEven => {
                let (fa, fr) = (Form::of(F64, lane), Form::of(F32, lane));
                let a = self.arg(args[0], t0, lane);
                let a = self.flush_operand(fa, mode.flush_in, a);
                let r = match a {
                    V::S(x) => {
                        let xf = as_float(self.b, fa, x);
                        let s = self.b.ins().fdemote(ct::F32, xf);
                        V::S(as_int(self.b, fr, s))
                    }
                    V::L2(lo, hi) => {
                        let lo = as_float(self.b, fa, lo);
                        let lo = self.b.ins().fvdemote(lo);
                        let hi = as_float(self.b, fa, hi);
                        let hi = self.b.ins().fvdemote(hi);
                        let (lo, hi) = (as_int(self.b, fr, lo), as_int(self.b, fr, hi));
                        V::L(shuffle32(self.b, lo, hi, [0, 1, 4, 5]))
                    }
                    V::L(_) => return None,
                };
                self.flush_if(fr, mode.flush_out, r)
            }
            // Exact: IEEE roundToIntegral keeps zeros and infinities and quiets a NaN with its
            // payload (`semantics::intpart::integral`), as `roundps`/`frint*` do; an integral
            // result is never denormal, so only the input is flushed.
            Ffloor | Fceil | Ftrunc | Frint if self.cfg.round && float_ok(ty, mode) => {
                let a = same(self, 0);
                let a = self.flush_if(f, mode.flush_in, a);
                let r = self.map1(f, a, |b, x| {
                    let xf = as_float(b, f, x);
                    let r = match op {
                        Ffloor => b.ins().floor(xf),
                        Fceil => b.ins().ceil(xf),
                        Ftrunc => b.ins().trunc(xf),
                        _ => b.ins().nearest(xf),
                    };
                    as_int(b, f, r)
                });
                self.derive_clean_parts(f, r, a);
                self.mark_flushed(f, r);
                r
            }
            Fneg | Fabs if ty == F32 || ty == F64 => {
                let a = same(self, 0);
                let sign = self.sign_const(f);
                let r = self.map1(f, a, |b, x| {
                    if op == Fneg {
                        b.ins().bxor(x, sign)
                    } else {
                        b.ins().band_not(x, sign)
                    }
                });
                self.derive_clean_parts(f, r, a);
                r
            }
            Fcopysign if ty == F32 || ty == F64 => {
                let (a, c) = (same(self, 0), same(self, 1));
                let sign = self.sign_const(f);
                let r = self.map2(f, a, c, |b, x, y| {
                    let m = b.ins().band_not(x, sign);
                    let s = b.ins().band(y, sign);
                    b.ins().bor(m, s)
                });
                self.derive_clean_parts(f, r, a);
                r
            }
            Fadd | Fsub | Fmul | Fdiv | Fsqrt(Trans::Ieee) if float_ok(ty, mode) => {
                let a: Vec<V> = (0..op.arity()).map(|i| same(self, i)).collect();
                let a: Vec<V> = a
                    .into_iter()
                    .map(|x| self.flush_operand(f, mode.flush_in, x))
                    .collect();
                let r = match op {
                    Fsqrt(_) => self.map1(f, a[0], |b, x| {
                        let xf = as_float(b, f, x);
                        let r = b.ins().sqrt(xf);
                        as_int(b, f, r)
                    }),
                    _ => self.map2(f, a[0], a[1], |b, x, y| {
                        let (xf, yf) = (as_float(b, f, x), as_float(b, f, y));
                        let r = match op {
                            Fadd => b.ins().fadd(xf, yf),
                            Fsub => b.ins().fsub(xf, yf),
                            Fmul => b.ins().fmul(xf, yf),
                            _ => b.ins().fdiv(xf, yf),
                        };
                        as_int(b, f, r)
                    }),
                };
                let r = self.nan_fix(f, r, &a);
                // With a finite constant operand (nonzero for a product, the divisor for a
                // quotient) the result is a NaN exactly where the other operand is.
                let other = match op {
                    Fadd | Fsub | Fmul if a.len() == 2 => {
                        let nonzero = op == Fmul;
                        let c0 = self.finite_const(f, a[0].parts().0[0], nonzero);
                        let c1 = self.finite_const(f, a[1].parts().0[0], nonzero);
                        c1.then_some(a[0]).or(c0.then_some(a[1]))
                    }
                    Fdiv if self.finite_const(f, a[1].parts().0[0], true) => Some(a[0]),
                    _ => None,
                };
                if let Some(x) = other {
                    self.derive_clean_parts(f, r, x);
                }
                self.flush_if(f, mode.flush_out, r)
            }
            Fma if float_ok(ty, mode) && self.cfg.fma => {
                let a: Vec<V> = (0..3).map(|i| same(self, i)).collect();
                let a: Vec<V> = a
                    .into_iter()
                    .map(|x| self.flush_operand(f, mode.flush_in, x))
                    .collect();
                let (p0, n) = a[0].parts();
                let (p1, _) = a[1].parts();
                let (p2, _) = a[2].parts();
                let mut out = p0;
                for k in 0..n {
                    let x = as_float(self.b, f, p0[k]);
                    let y = as_float(self.b, f, p1[k]);
                    let z = as_float(self.b, f, p2[k]);
                    let r = self.b.ins().fma(x, y, z);
                    out[k] = as_int(self.b, f, r);
                }
                let r = self.nan_fix(f, f.make(out), &a);
                self.flush_if(f, mode.flush_out, r)
            }
            FmulLegacy if float_ok(ty, mode) => {
                // +-0 (after flushing) times anything is +0; otherwise IEEE fmul.
                let mark = self.check_mark();
                let (a, c) = (same(self, 0), same(self, 1));
                let a = self.flush_if(f, mode.flush_in, a);
                let c = self.flush_if(f, mode.flush_in, c);
                let p = self.lower(
                    Fmul,
                    FloatMode {
                        flush_in: false,
                        ..mode
                    },
                    ty,
                    &[ty, ty],
                    &[a, c],
                    lane,
                )?;
                let sign = self.sign_const(f);
                let zero = iconst_form(self.b, f, 0);
                let (pa, n) = a.parts();
                let (pc, _) = c.parts();
                let (pp, _) = p.parts();
                let mut out = pp;
                for k in 0..n {
                    let ma = self.b.ins().band_not(pa[k], sign);
                    let mc = self.b.ins().band_not(pc[k], sign);
                    let za = self.b.ins().icmp(CIntCC::Equal, ma, zero);
                    let zc = self.b.ins().icmp(CIntCC::Equal, mc, zero);
                    let z = self.b.ins().bor(za, zc);
                    out[k] = select(self.b, f, z, zero, pp[k]);
                }
                let r = f.make(out);
                self.derive_clean_parts(f, r, p);
                self.check_instead(mark, f, r);
                r
            }
            Fmad | FmadLegacy if float_ok(ty, mode) => {
                let mark = self.check_mark();
                let mul = if op == Fmad { Fmul } else { FmulLegacy };
                // Under DAZ the add reads a denormal product as the zero the product's flush
                // would give; nothing else sees the product.
                let mul_mode = FloatMode {
                    flush_out: mode.flush_out && !self.cfg.daz,
                    ..mode
                };
                let p = self.lower(mul, mul_mode, ty, &arg_tys[..2], &args[..2], lane)?;
                let c = same(self, 2);
                let r = self.lower(Fadd, mode, ty, &[ty, ty], &[p, c], lane)?;
                self.check_instead(mark, f, r);
                r
            }
            Fmin(rule) | Fmax(rule) if float_ok(ty, mode) => {
                let (a, c) = (same(self, 0), same(self, 1));
                let a = self.flush_if(f, mode.flush_in, a);
                let c = self.flush_if(f, mode.flush_in, c);
                let r = self.fminmax(f, matches!(op, Fmin(_)), rule, a, c);
                if mode.flush_in {
                    // The result is an operand, both flushed, or a NaN (or, under NaN
                    // speculation, lanes the check sends to the exact copy).
                    self.mark_flushed(f, r);
                    r
                } else {
                    self.flush_if(f, mode.flush_out, r)
                }
            }
            Fcmp(cc) if float_ok(t0, mode) => {
                let fa = Form::of(t0, lane);
                let (a, c) = (self.arg(args[0], t0, lane), self.arg(args[1], t0, lane));
                let a = self.flush_operand(fa, mode.flush_in, a);
                let c = self.flush_operand(fa, mode.flush_in, c);
                let (pa, n) = a.parts();
                let (pc, _) = c.parts();
                let mut out = pa;
                for k in 0..n {
                    out[k] = self.fcmp(fa, cc, pa[k], pc[k]);
                }
                mask_from_parts(self.b, fa, out)
            }
            FtoS | FtoU if t0 == F32 && ty == I32 => {
                let fa = Form::of(t0, lane);
                let a = self.arg(args[0], t0, lane);
                let a = self.flush_if(fa, mode.flush_in, a);
                let ([x, _], _) = a.parts();
                let xf = as_float(self.b, fa, x);
                let it = fa.ity();
                V::from_one(
                    lane,
                    if op == FtoS {
                        self.b.ins().fcvt_to_sint_sat(it, xf)
                    } else {
                        self.b.ins().fcvt_to_uint_sat(it, xf)
                    },
                )
            }
            StoF | UtoF if t0 == I32 && ty == F32 && mode.round == Round::NearestEven => {
                let a = self.arg(args[0], t0, lane);
                let ([x, _], _) = a.parts();
                let r = if op == StoF {
                    self.b.ins().fcvt_from_sint(f.fty(), x)
                } else {
                    self.b.ins().fcvt_from_uint(f.fty(), x)
                };
                let r = V::from_one(lane, as_int(self.b, f, r));
                // An integer converts to a number, zero or of magnitude 1 or more: no NaN and
                // no denormal.
                self.derive_clean(f, r, &[]);
                self.mark_flushed(f, r);
                r
            }
            _ => return None,
        })
    }

    /// An operand of kind `t` in the form of the result (`lane`): uniform ones broadcast.
    fn arg(&mut self, v: V, t: ScalarType, lane: bool) -> V {
        match v {
            V::S(s) if lane => broadcast(self.b, t, s),
            _ => v,
        }
    }

    fn map1(
        &mut self,
        f: Form,
        a: V,
        mut g: impl FnMut(&mut FunctionBuilder, Value) -> Value,
    ) -> V {
        let (pa, n) = a.parts();
        let mut out = pa;
        for k in 0..n {
            out[k] = g(self.b, pa[k]);
        }
        f.make(out)
    }

    fn map2(
        &mut self,
        f: Form,
        a: V,
        c: V,
        mut g: impl FnMut(&mut FunctionBuilder, Value, Value) -> Value,
    ) -> V {
        let (pa, n) = a.parts();
        let (pc, _) = c.parts();
        let mut out = pa;
        for k in 0..n {
            out[k] = g(self.b, pa[k], pc[k]);
        }
        f.make(out)
    }

    /// Keeps a sub-32-bit result canonical (zero-extended).
    fn wrap(&mut self, f: Form, ty: ScalarType, v: V) -> V {
        if ty.bits() >= 32 || ty == ScalarType::I1 {
            return v;
        }
        let m = iconst_form(self.b, f, ty.bit_mask());
        self.map1(f, v, |b, x| b.ins().band(x, m))
    }

    /// Unsigned compare; 64-bit vectors compare with the sign bits flipped.
    fn ucmp(&mut self, f: Form, cc: IntCC, x: Value, y: Value) -> Value {
        let cc = int_cc(cc);
        // Without an unsigned vector compare, x64 tests a strict unsigned order of 32-bit
        // lanes as a `pmaxud`, an equality and a negation; flipping the sign bits turns it
        // into one signed compare (and a constant operand's flip folds away).
        let strict = matches!(cc, CIntCC::UnsignedLessThan | CIntCC::UnsignedGreaterThan);
        if f.lane && (f.w64 || strict) {
            let (x, y) = (self.flip_signs(f, x), self.flip_signs(f, y));
            self.b.ins().icmp(signed_of(cc), x, y)
        } else {
            icmp(self.b, cc, x, y)
        }
    }

    /// Lane vector `v` with each lane's sign bit flipped. A broadcast or a constant takes the
    /// sign constant (the flip is computed once, or folded); any other value loads it from a
    /// static at the flip: the constant in a register was kept in a stack slot inside chunk
    /// loops and stored and reloaded around their back edges.
    fn flip_signs(&mut self, f: Form, v: Value) -> Value {
        #[repr(align(16))]
        struct Signs([u64; 2]);
        static SIGNS32: Signs = Signs([0x8000_0000_8000_0000; 2]);
        static SIGNS64: Signs = Signs([1 << 63; 2]);
        let invariant = known_lanes(self.b, v).is_some() || is_splat(self.b, v);
        let s = if invariant {
            iconst_form(self.b, f, if f.w64 { 1 << 63 } else { 1 << 31 })
        } else {
            let table = if f.w64 { &SIGNS64 } else { &SIGNS32 };
            let p = self.b.ins().iconst(ct::I64, table.0.as_ptr() as i64);
            self.b.ins().load(f.ity(), mem(), p, 0)
        };
        self.b.ins().bxor(v, s)
    }

    /// `cc(a, b) ? a : b` per lane.
    fn minmax_int(&mut self, f: Form, ty: ScalarType, cc: IntCC, a: V, c: V) -> V {
        let (pa, n) = a.parts();
        let (pc, _) = c.parts();
        let mut out = pa;
        for k in 0..n {
            let (mut x, mut y) = (pa[k], pc[k]);
            if is_signed(cc) && ty.bits() < 32 {
                x = sext_in(self.b, ty.bits(), x);
                y = sext_in(self.b, ty.bits(), y);
            }
            let m = if is_signed(cc) {
                self.b.ins().icmp(int_cc(cc), x, y)
            } else {
                self.ucmp(f, cc, x, y)
            };
            out[k] = select(self.b, f, m, pa[k], pc[k]);
        }
        f.make(out)
    }

    /// `Ubfe`/`Sbfe` of 32-bit `a` with a constant offset `off` and width `w` (both below
    /// 32), as the cases of `semantics::int::bfe` with the shift counts known (immediate
    /// shifts, no mask constant to keep in a register).
    fn bfe_const(&mut self, f: Form, signed: bool, a: V, off: u32, w: u32) -> V {
        if w == 0 {
            let z = iconst_form(self.b, f, 0);
            return f.make([z, z]);
        }
        self.map1(f, a, |b, x| {
            if off + w < 32 {
                let up = b.ins().ishl_imm_u(x, (32 - off - w) as i64);
                if signed {
                    b.ins().sshr_imm_u(up, (32 - w) as i64)
                } else {
                    b.ins().ushr_imm_u(up, (32 - w) as i64)
                }
            } else if signed {
                b.ins().sshr_imm_u(x, off as i64)
            } else {
                b.ins().ushr_imm_u(x, off as i64)
            }
        })
    }

    fn mulhi32_lanes(&mut self, signed: bool, a: V, c: V) -> V {
        let ([x, _], _) = a.parts();
        let ([y, _], _) = c.parts();
        let (x0, x1) = if signed {
            widen_s(self.b, x)
        } else {
            widen_u(self.b, x)
        };
        let (y0, y1) = if signed {
            widen_s(self.b, y)
        } else {
            widen_u(self.b, y)
        };
        let p0 = self.b.ins().imul(x0, y0);
        let p1 = self.b.ins().imul(x1, y1);
        let (_, hi) = deinterleave(self.b, p0, p1);
        V::L(hi)
    }

    /// An `i1` operand as 0/1 integers of form `f` (for carry arithmetic: added, or
    /// compared against).
    fn bool_as_int(&mut self, f: Form, m: V) -> [Value; 2] {
        match m {
            V::S(s) => {
                let s = if f.w64 {
                    self.b.ins().uextend(ct::I64, s)
                } else {
                    s
                };
                [s, s]
            }
            V::L(_) | V::L2(..) => {
                // Masks are 0 or -1 per lane (see `width_change`).
                let p = mask_parts(self.b, f, m);
                [self.b.ins().ineg(p[0]), self.b.ins().ineg(p[1])]
            }
        }
    }

    fn width_change(&mut self, op: Op, ty: ScalarType, t0: ScalarType, a: V, lane: bool) -> V {
        use ScalarType::*;
        let f = Form::of(ty, lane);
        let b = &mut *self.b;
        let keep = |b: &mut FunctionBuilder, x: Value| -> Value {
            if ty.bits() < 32 && ty != I1 {
                let m = iconst_form(b, Form { lane, w64: false }, ty.bit_mask());
                b.ins().band(x, m)
            } else {
                x
            }
        };
        let lane_bit = |b: &mut FunctionBuilder, x: Value| -> Value {
            let one = const32x4(b, [1; 4]);
            let bit = b.ins().band(x, one);
            b.ins().icmp(CIntCC::Equal, bit, one)
        };
        match a {
            V::S(x) => {
                let x32 = if t0.bits() == 64 {
                    b.ins().ireduce(ct::I32, x)
                } else {
                    x
                };
                V::S(match op {
                    Op::Trunc if ty == I1 => b.ins().band_imm_u(x32, 1),
                    Op::Trunc => keep(b, x32),
                    Op::Zext if f.w64 => b.ins().uextend(ct::I64, x32),
                    Op::Zext => x32,
                    _ => {
                        let s = if t0 == I1 {
                            b.ins().ineg(x32)
                        } else {
                            sext_in(b, t0.bits(), x32)
                        };
                        if f.w64 {
                            b.ins().sextend(ct::I64, s)
                        } else {
                            keep(b, s)
                        }
                    }
                })
            }
            V::L2(p0, p1) => {
                // Only a truncation narrows a 64-bit lane value.
                let (lo, _) = deinterleave(b, p0, p1);
                V::L(if ty == I1 {
                    lane_bit(b, lo)
                } else {
                    keep(b, lo)
                })
            }
            V::L(x) => match op {
                Op::Trunc if ty == I1 => V::L(lane_bit(b, x)),
                Op::Trunc => V::L(keep(b, x)),
                Op::Zext => {
                    // A mask's lanes are 0 or -1: negated, 0 or 1 (and an add of it becomes a
                    // subtract of the mask in Cranelift's mid-end: no constant).
                    let v = if t0 == I1 { b.ins().ineg(x) } else { x };
                    if f.w64 {
                        let (p0, p1) = widen_u(b, v);
                        V::L2(p0, p1)
                    } else {
                        V::L(v)
                    }
                }
                _ => {
                    let s = if t0 == I1 {
                        x
                    } else {
                        sext_in(b, t0.bits(), x)
                    };
                    if f.w64 {
                        let (p0, p1) = widen_s(b, s);
                        V::L2(p0, p1)
                    } else {
                        V::L(keep(b, s))
                    }
                }
            },
        }
    }

    /// A 64-bit lane shift by the constant `k` (0-63) of the value whose halves are the rows
    /// `lo` and `hi`, computed on the rows (the interleaving is left to whoever needs the
    /// 64-bit form, and a register write of the result takes the rows as they are): GCN's
    /// `v_lshlrev_b64` of every address computation, a row of 32-bit shifts instead of a
    /// round trip through 64-bit lanes.
    fn shift64_rows(&mut self, op: Op, lo: Value, hi: Value, k: u32) -> V {
        #[derive(Clone, Copy)]
        enum Sh {
            Left,
            Right,
            RightSigned,
        }
        let b = &mut *self.b;
        let zero = |b: &mut FunctionBuilder| const32x4(b, [0; 4]);
        let sh = |b: &mut FunctionBuilder, x: Value, d: Sh, n: u32| -> Value {
            // A zero stays zero (and stays visibly constant for `or`).
            if n == 0 || known_lanes(b, x) == Some(0) {
                return x;
            }
            let n = b.ins().iconst(ct::I32, i64::from(n));
            match d {
                Sh::Left => b.ins().ishl(x, n),
                Sh::Right => b.ins().ushr(x, n),
                Sh::RightSigned => b.ins().sshr(x, n),
            }
        };
        // `x | y`, leaving out a side known to be zero.
        let or = |b: &mut FunctionBuilder, x: Value, y: Value| -> Value {
            match (known_lanes(b, x), known_lanes(b, y)) {
                (Some(0), _) => y,
                (_, Some(0)) => x,
                _ => b.ins().bor(x, y),
            }
        };
        let (l, h) = match op {
            Op::Shl if k < 32 => {
                let carried = if k == 0 {
                    zero(b)
                } else {
                    sh(b, lo, Sh::Right, 32 - k)
                };
                let up = sh(b, hi, Sh::Left, k);
                (sh(b, lo, Sh::Left, k), or(b, up, carried))
            }
            Op::Shl => (zero(b), sh(b, lo, Sh::Left, k - 32)),
            _ => {
                let fill = if op == Op::Ashr {
                    Sh::RightSigned
                } else {
                    Sh::Right
                };
                if k < 32 {
                    let carried = if k == 0 {
                        zero(b)
                    } else {
                        sh(b, hi, Sh::Left, 32 - k)
                    };
                    let down = sh(b, lo, Sh::Right, k);
                    (or(b, down, carried), sh(b, hi, fill, k))
                } else if op == Op::Ashr {
                    (sh(b, hi, fill, k - 32), sh(b, hi, fill, 31))
                } else {
                    (sh(b, hi, fill, k - 32), zero(b))
                }
            }
        };
        let (p0, p1) = interleave(b, l, h);
        V::L2(p0, p1)
    }

    fn sign_const(&mut self, f: Form) -> Value {
        iconst_form(self.b, f, if f.w64 { 1 << 63 } else { 1 << 31 })
    }

    /// An operand that only host arithmetic or an ordered compare reads, flushed if `on`:
    /// under [`LowerCfg::daz`] the host flushes it as the instruction reads it, so only a
    /// constant (folded flushed here, and seen as a constant by later checks) is flushed.
    fn flush_operand(&mut self, f: Form, on: bool, v: V) -> V {
        let (p, n) = v.parts();
        let constant = p[..n].iter().any(|&x| known_lanes(self.b, x).is_some());
        if on && self.cfg.daz && !constant {
            return v;
        }
        self.flush_if(f, on, v)
    }

    fn flush_if(&mut self, f: Form, on: bool, v: V) -> V {
        if !on {
            return v;
        }
        let (exp, sign) = if f.w64 {
            (0x7ff0_0000_0000_0000u64, 1u64 << 63)
        } else {
            (0x7f80_0000, 1 << 31)
        };
        // A constant is flushed now (it stays visibly constant, see `may_be_nan`).
        let (p, n) = v.parts();
        let known: Vec<Option<u64>> = p[..n].iter().map(|&x| known_lanes(self.b, x)).collect();
        if let Some(c) = known[0].filter(|_| known.iter().all(|k| *k == known[0])) {
            if c & exp == 0 && c & !sign != 0 {
                let z = iconst_form(self.b, f, c & sign);
                return f.make([z, z]);
            }
            return v;
        }
        if p[..n].iter().all(|&x| self.flushed.contains(&(x, f.w64))) {
            return v;
        }
        let r = self.flush_lanes(f, v);
        self.derive_clean_parts(f, r, v);
        self.mark_flushed(f, r);
        r
    }

    /// Records that `v` has no denormal lanes.
    fn mark_flushed(&mut self, f: Form, v: V) {
        let (p, n) = v.parts();
        for &x in &p[..n] {
            self.flushed.insert((x, f.w64));
        }
    }

    /// Denormal lanes of `v` as zeros of their sign.
    fn flush_lanes(&mut self, f: Form, v: V) -> V {
        let (exp, sign) = if f.w64 {
            (0x7ff0_0000_0000_0000u64, 1u64 << 63)
        } else {
            (0x7f80_0000, 1 << 31)
        };
        let expc = iconst_form(self.b, f, exp);
        let signc = iconst_form(self.b, f, sign);
        let zero = iconst_form(self.b, f, 0);
        self.map1(f, v, |b, x| {
            let e = b.ins().band(x, expc);
            let den = b.ins().icmp(CIntCC::Equal, e, zero);
            let s = b.ins().band(x, signc);
            select(b, f, den, s, x)
        })
    }

    fn is_nan(&mut self, f: Form, x: Value) -> Value {
        let xf = as_float(self.b, f, x);
        self.b.ins().fcmp(CFloatCC::Unordered, xf, xf)
    }

    /// The NaN rule of the semantics on the result `r` of a host IEEE operation on `args`:
    /// a NaN result becomes the first NaN operand, quieted, or (an invalid operation) the
    /// default NaN, sign set.
    ///
    /// On x86 the host operation already gives the default NaN `0xffc00000` /
    /// `0xfff8000000000000` ("QNaN floating-point indefinite", the semantics' default NaN) and,
    /// with one NaN operand, that operand quieted (Intel SDM vol. 1, table 4-7; FMA: vol. 2,
    /// VFMADD "NaN propagation"). Only the choice between several NaN operands depends on the
    /// machine operand order, which Cranelift may swap (commutative ops, folded loads), so
    /// the fix-up only needs "an earlier NaN operand wins". Other hosts get the full rule.
    ///
    /// Operands known not to be NaN (constants) take no part. Under NaN speculation the
    /// result is pushed as a check instead of fixed (a result without NaN lanes had no NaN
    /// operand, so it is exact).
    fn nan_fix(&mut self, f: Form, r: V, args: &[V]) -> V {
        let (pr, n) = r.parts();
        let mut out = pr;
        let x86 = cfg!(target_arch = "x86_64");
        let dnan = if f.w64 {
            0xfff8_0000_0000_0000u64
        } else {
            0xffc0_0000
        };
        for k in 0..n {
            let maybe: Vec<Value> = args
                .iter()
                .map(|a| a.parts().0[k])
                .filter(|&x| self.may_be_nan(f, x))
                .collect();
            // With at most one NaN operand the host result is already the semantics' one.
            if x86 && maybe.len() <= 1 {
                continue;
            }
            if f.lane && self.spec.is_some() {
                self.check(f, pr[k]);
                continue;
            }
            let mut res = pr[k];
            if !x86 {
                let rn = self.is_nan(f, res);
                let d = iconst_form(self.b, f, dnan);
                res = select(self.b, f, rn, d, res);
            }
            let fixed = if x86 {
                maybe.len().saturating_sub(1)
            } else {
                maybe.len()
            };
            let q = self.quiet_const(f);
            for &x in maybe[..fixed].iter().rev() {
                let nan = self.is_nan(f, x);
                let qx = self.b.ins().bor(x, q);
                res = select(self.b, f, nan, qx, res);
            }
            out[k] = res;
        }
        f.make(out)
    }

    /// Whether a part of form `f` may hold a NaN: false for a constant that is not one and,
    /// under speculation, for a clean value.
    fn may_be_nan(&self, f: Form, x: Value) -> bool {
        if let Some(c) = known_lanes(self.b, x) {
            return if f.w64 {
                f64::from_bits(c).is_nan()
            } else {
                f32::from_bits(c as u32).is_nan()
            };
        }
        match &self.spec {
            Some(s) => !s.clean.contains(&strip_bitcasts(self.b, x)),
            None => true,
        }
    }

    /// Whether a part of form `f` is a constant finite float (nonzero if `nonzero`).
    fn finite_const(&self, f: Form, x: Value, nonzero: bool) -> bool {
        let Some(c) = known_lanes(self.b, x) else {
            return false;
        };
        let (finite, zero) = if f.w64 {
            let v = f64::from_bits(c);
            (v.is_finite(), v == 0.0)
        } else {
            let v = f32::from_bits(c as u32);
            (v.is_finite(), v == 0.0)
        };
        finite && !(nonzero && zero)
    }

    /// Under NaN speculation, requires the part `x` of form `f` to be free of NaN lanes.
    fn check(&mut self, f: Form, x: Value) {
        if !self.may_be_nan(f, x) {
            return;
        }
        let xf = as_float(self.b, f, x);
        let key = strip_bitcasts(self.b, x);
        if let Some(s) = self.spec.as_mut() {
            s.checks.push(xf);
            s.mark_clean(key);
        }
    }

    /// Under speculation, marks the parts of `r` clean if the parts `from` all are (`r`
    /// comes from them by an op that makes no NaN from operands without one).
    fn derive_clean(&mut self, f: Form, r: V, from: &[Value]) {
        if self.spec.is_none() || from.iter().any(|&x| self.may_be_nan(f, x)) {
            return;
        }
        let (p, n) = r.parts();
        let keys: Vec<Value> = p[..n].iter().map(|&x| strip_bitcasts(self.b, x)).collect();
        if let Some(s) = self.spec.as_mut() {
            for k in keys {
                s.mark_clean(k);
            }
        }
    }

    /// [`Self::derive_clean`] part by part.
    fn derive_clean_parts(&mut self, f: Form, r: V, from: V) {
        let (pr, n) = r.parts();
        let (pf, _) = from.parts();
        for k in 0..n {
            self.derive_clean(f, V::L(pr[k]), &[pf[k]]);
        }
    }

    /// The speculation state so far (checks, clean values), for [`Self::check_instead`].
    fn check_mark(&self) -> (usize, usize) {
        self.spec
            .as_ref()
            .map_or((0, 0), |s| (s.checks.len(), s.log.len()))
    }

    /// Replaces the checks pushed since `mark` by a check of the final result `r`, for ops
    /// built from others whose final result is NaN whenever an intermediate one is (or is
    /// exact anyway, as legacy multiplication's zero). What became clean since `mark` no
    /// longer is.
    fn check_instead(&mut self, mark: (usize, usize), f: Form, r: V) {
        let Some(s) = self.spec.as_mut() else {
            return;
        };
        if s.checks.len() == mark.0 {
            return;
        }
        s.checks.truncate(mark.0);
        for v in s.log.drain(mark.1..) {
            s.clean.remove(&v);
        }
        let (p, n) = r.parts();
        for &x in &p[..n] {
            self.check(f, x);
        }
    }

    fn quiet_const(&mut self, f: Form) -> Value {
        iconst_form(self.b, f, if f.w64 { 1 << 51 } else { 1 << 22 })
    }

    /// `x` quieted if it is a NaN.
    fn quiet_if_nan(&mut self, f: Form, x: Value) -> Value {
        let q = self.quiet_const(f);
        let n = self.is_nan(f, x);
        let qx = self.b.ins().bor(x, q);
        select(self.b, f, n, qx, x)
    }

    /// Float min/max under `rule`, as `semantics::minmax` (flushed operands).
    fn fminmax(&mut self, f: Form, min: bool, rule: MinMax, a: V, c: V) -> V {
        if f.lane && self.spec.is_some() {
            return self.fminmax_no_nan(f, min, rule, a, c);
        }
        let q = self.quiet_const(f);
        let zero = iconst_form(self.b, f, 0);
        let (pa, n) = a.parts();
        let (pc, _) = c.parts();
        let mut out = pa;
        for k in 0..n {
            let (x, y) = (pa[k], pc[k]);
            let (xf, yf) = (as_float(self.b, f, x), as_float(self.b, f, y));
            // "x wins": x < y for min, x > y for max; false with a NaN or equal operands.
            let wins = if min {
                self.b.ins().fcmp(CFloatCC::LessThan, xf, yf)
            } else {
                self.b.ins().fcmp(CFloatCC::GreaterThan, xf, yf)
            };
            let pick = select(self.b, f, wins, x, y);
            out[k] = match rule {
                // `y` unless x wins; a NaN `y` is quieted.
                MinMax::Legacy => self.quiet_if_nan(f, pick),
                MinMax::NonIeee | MinMax::Ieee => {
                    // Equal operands differ in bits only as +-0: min takes -0 (or), max +0 (and).
                    let eq = self.b.ins().fcmp(CFloatCC::Equal, xf, yf);
                    let z = if min {
                        self.b.ins().bor(x, y)
                    } else {
                        self.b.ins().band(x, y)
                    };
                    let r = select(self.b, f, eq, z, pick);
                    // One NaN operand is ignored (a NaN x loses every compare, so `pick` is
                    // y already); two give the first, quieted.
                    let yn = self.is_nan(f, y);
                    let r = select(self.b, f, yn, x, r);
                    let r = self.quiet_if_nan(f, r);
                    if rule == MinMax::Ieee {
                        let xn = self.is_nan(f, x);
                        let qx = self.b.ins().bor(x, q);
                        // A signalling NaN operand: the first NaN operand, quieted.
                        let xq = self.b.ins().band(x, q);
                        let yq = self.b.ins().band(y, q);
                        let xqz = self.b.ins().icmp(CIntCC::Equal, xq, zero);
                        let yqz = self.b.ins().icmp(CIntCC::Equal, yq, zero);
                        let xs = self.b.ins().band(xn, xqz);
                        let ys = self.b.ins().band(yn, yqz);
                        let any_s = self.b.ins().bor(xs, ys);
                        let qy = self.b.ins().bor(y, q);
                        let first = select(self.b, f, xn, qx, qy);
                        select(self.b, f, any_s, first, r)
                    } else {
                        r
                    }
                }
            };
        }
        f.make(out)
    }

    /// [`Self::fminmax`] for lanes without NaN operands (checked under speculation), with the
    /// host's `minps`/`maxps` (`a < b ? a : b`, `a > b ? a : b`; Cranelift's pattern for them
    /// is matched exactly). Without NaNs the rules differ only on equal operands, which differ
    /// in bits only as +-0: the legacy rule takes the second operand, the others -0 for min
    /// (`min(x, y) | min(y, x)`) and +0 for max (`max(x, y) & max(y, x)`).
    fn fminmax_no_nan(&mut self, f: Form, min: bool, rule: MinMax, a: V, c: V) -> V {
        let (pa, n) = a.parts();
        let (pc, _) = c.parts();
        let mut out = pa;
        for k in 0..n {
            let (x, y) = (as_float(self.b, f, pa[k]), as_float(self.b, f, pc[k]));
            self.check(f, pa[k]);
            self.check(f, pc[k]);
            let xy = self.host_minmax(f, min, x, y);
            let r = if rule == MinMax::Legacy {
                as_int(self.b, f, xy)
            } else {
                let yx = self.host_minmax(f, min, y, x);
                let (xy, yx) = (as_int(self.b, f, xy), as_int(self.b, f, yx));
                if min {
                    self.b.ins().bor(xy, yx)
                } else {
                    self.b.ins().band(xy, yx)
                }
            };
            // Both operands are checked: the result is clean.
            self.derive_clean(f, V::L(r), &[pa[k], pc[k]]);
            out[k] = r;
        }
        f.make(out)
    }

    /// x86 `minps x, y` / `maxps x, y` (or the `pd` forms) on float vectors.
    fn host_minmax(&mut self, f: Form, min: bool, x: Value, y: Value) -> Value {
        let lt = if min {
            self.b.ins().fcmp(CFloatCC::LessThan, x, y)
        } else {
            self.b.ins().fcmp(CFloatCC::LessThan, y, x)
        };
        let m = self.b.ins().bitcast(f.fty(), le(), lt);
        self.b.ins().bitselect(m, x, y)
    }

    /// An IR float compare of two parts as a compare result (lanes 0/-1, or `I8` scalar).
    fn fcmp(&mut self, f: Form, cc: FloatCC, x: Value, y: Value) -> Value {
        let (xf, yf) = (as_float(self.b, f, x), as_float(self.b, f, y));
        if !f.lane {
            let c = match cc {
                FloatCC::Eq => CFloatCC::Equal,
                FloatCC::Ne | FloatCC::One => CFloatCC::OrderedNotEqual,
                FloatCC::Lt => CFloatCC::LessThan,
                FloatCC::Le => CFloatCC::LessThanOrEqual,
                FloatCC::Gt => CFloatCC::GreaterThan,
                FloatCC::Ge => CFloatCC::GreaterThanOrEqual,
                FloatCC::Ord => CFloatCC::Ordered,
                FloatCC::Uno => CFloatCC::Unordered,
                FloatCC::Ueq => CFloatCC::UnorderedOrEqual,
                FloatCC::Une => CFloatCC::NotEqual,
                FloatCC::Ult => CFloatCC::UnorderedOrLessThan,
                FloatCC::Ule => CFloatCC::UnorderedOrLessThanOrEqual,
                FloatCC::Ugt => CFloatCC::UnorderedOrGreaterThan,
                FloatCC::Uge => CFloatCC::UnorderedOrGreaterThanOrEqual,
            };
            return self.b.ins().fcmp(c, xf, yf);
        }
        // Vectors: the predicates x86 has directly, swapped and negated.
        let b = &mut *self.b;
        let mut c = |cc, p, q| b.ins().fcmp(cc, p, q);
        match cc {
            FloatCC::Eq => c(CFloatCC::Equal, xf, yf),
            FloatCC::Lt => c(CFloatCC::LessThan, xf, yf),
            FloatCC::Le => c(CFloatCC::LessThanOrEqual, xf, yf),
            FloatCC::Gt => c(CFloatCC::LessThan, yf, xf),
            FloatCC::Ge => c(CFloatCC::LessThanOrEqual, yf, xf),
            FloatCC::Uno => c(CFloatCC::Unordered, xf, yf),
            FloatCC::Une => c(CFloatCC::NotEqual, xf, yf),
            FloatCC::Ord => {
                let u = c(CFloatCC::Unordered, xf, yf);
                b.ins().bnot(u)
            }
            FloatCC::Ne | FloatCC::One => {
                let u = c(CFloatCC::Unordered, xf, yf);
                let e = c(CFloatCC::Equal, xf, yf);
                let ue = b.ins().bor(u, e);
                b.ins().bnot(ue)
            }
            FloatCC::Ueq => {
                let u = c(CFloatCC::Unordered, xf, yf);
                let e = c(CFloatCC::Equal, xf, yf);
                b.ins().bor(u, e)
            }
            FloatCC::Ult => {
                let g = c(CFloatCC::LessThanOrEqual, yf, xf);
                b.ins().bnot(g)
            }
            FloatCC::Ule => {
                let g = c(CFloatCC::LessThan, yf, xf);
                b.ins().bnot(g)
            }
            FloatCC::Ugt => {
                let g = c(CFloatCC::LessThanOrEqual, xf, yf);
                b.ins().bnot(g)
            }
            FloatCC::Uge => {
                let g = c(CFloatCC::LessThan, xf, yf);
                b.ins().bnot(g)
            }
        }
    }
}

impl V {
    fn from_one(lane: bool, v: Value) -> V {
        if lane {
            V::L(v)
        } else {
            V::S(v)
        }
    }
}
