//! Float arithmetic, conversions and compares, with G13's float rules (notes/g13_sources.md
//! §5; applegpu.py HEAD's `fma.py` and `exec_thread` methods, the only executable model, which
//! its author checked against hardware):
//! - `fadd`, `fmul` and `fmadd` are one fused operation with one rounding to nearest even:
//!   `fadd(a, b) = fma(a, 1, b)` and `fmul(a, b) = fma(a, b, +0)`, so a product that is -0
//!   gives +0 (applegpu's `bfma64(a, b, 0)`; IEEE's `-0 + +0`).
//! - fp32 sources are flushed (a denormal reads as a zero of its sign) and fp32 results are
//!   flushed with tininess detected before rounding: an exact result below 2^-126 in
//!   magnitude is a zero of its sign even where it would round up to 2^-126 (`f64_to_f32` with
//!   `ftz`). fp16 sources and results keep their denormals.
//! - Any NaN result is the default NaN: 0x7fc00000 (f32), 0x7e00 (f16); payloads never pass.
//! - `.sat` (S) then clamps: NaN and every negative value (-0 too) give +0, values above 1.0
//!   give 1.0.
//! - A 32-bit operation writing a 16-bit register rounds twice: to f32 (flushed), then to
//!   f16 (applegpu commit 417e8ed, found on hardware).
//! - A 16-bit source of a 32-bit operation is converted to f32 exactly.
//!
//! The transcendental instructions have no public bit-exact model; each is defined here as
//! the IR's deterministic function (`wavejit_ir::semantics::trans`: rcp correctly rounded,
//! rsqrt two f64 roundings, exp2 and log2 the host's f64 function rounded to f32), computed
//! in f32 with the flushing above (output flushing after rounding) and then the NaN, `.sat`
//! and width rules:
//! - `rsqrt_special(x)` is `rsqrt(x)` except ±0, which give +0, and +inf, which gives
//!   +inf, so that `rsqrt_special(x) * x` is sqrt(x) also at ±0 (as +0: a product is never
//!   -0 here) and +inf (applegpu: "handling special-cases differently").
//! - `sin_pt_1(q)`, q in quarter turns in [0, 4) (applegpu's documentation), reflects q to
//!   t in [-1, 1] with sin(qπ/2) = sin(tπ/2): t = q on [0, 1], 2 - q on (1, 3), q - 4 on
//!   [3, 4); other q are first reduced by 4·floor(q/4). Exact for q in [0, 4).
//! - `sin_pt_2(t) = sin(tπ/2) / t` (π/2 at t = 0): the IR's sine in turns of t/4, divided
//!   by t in f32, so that `sin_pt_2(t) * t` is sin(tπ/2) within about 2 ulp.
//!
//! `convert` (mode, round): integer to float (u8, s8, u16, s16, u32, s32: the source's low
//! bits, zero- or sign-extended) rounds to the destination's float width in the given mode
//! (`rtz` or `rte`); float to integer (u16, s16, u32, s32) rounds in the given mode to an
//! integer, saturates to the type's range and gives 0 for NaN; the result is that integer
//! in two's complement at the destination's width (so a 16-bit conversion written to a 32-bit
//! register is sign-extended for s16, zero-extended for u16). No public source describes the
//! out-of-range cases; saturation is the definition here.

use super::regs::int_type;
use super::Lifter;
use crate::operand::{Src, Value as Operand, Width};
use wavejit_ir::{Angle, FloatCC, FloatMode, IntCC, Op, Round, ScalarType, Trans, Value};
use wavejit_isa::LiftError;

use ScalarType::*;

/// The smallest normal f32, 2^-126, as f64 bits.
const MIN_NORMAL_F32_AS_F64: u64 = 0x3810_0000_0000_0000;

/// fp32 sources flushed, results rounded to nearest even and not flushed (flushing is the
/// lifter's, before rounding).
const FLUSH_IN: FloatMode = FloatMode::FLUSH_IN;

impl Lifter<'_> {
    /// Lifts a float instruction; `false` if `name` is not one.
    pub(super) fn lift_float(&mut self, name: &str) -> Result<bool, LiftError> {
        match name {
            "fadd32" | "fmul32" | "fmadd32" => {
                let a = self.src("A")?;
                let a = self.float_src(a, F32)?;
                let b = self.src("B")?;
                let b = self.float_src(b, F32)?;
                let r = match name {
                    "fadd32" => {
                        // The exact sum of two f32 values near 2^-126 is a multiple of 2^-149
                        // and so exact: tininess before and after rounding agree, and the
                        // IR's output flushing is the rule.
                        self.b.op_mode(Op::Fadd, FloatMode::FLUSH, F32, &[a, b])
                    }
                    "fmul32" => self.fused32(a, b, None),
                    _ => {
                        let c = self.src("C")?;
                        let c = self.float_src(c, F32)?;
                        self.fused32(a, b, Some(c))
                    }
                };
                self.finish32(r)?;
            }
            "fadd16" | "fmul16" | "fmadd16" => {
                let a = self.src("A")?;
                let a = self.float_src(a, F16)?;
                let b = self.src("B")?;
                let b = self.float_src(b, F16)?;
                let r = match name {
                    "fadd16" => self.b.op(Op::Fadd, F16, &[a, b]),
                    "fmul16" => {
                        let zero = self.b.iconst(F16, 0);
                        self.b.op(Op::Fma, F16, &[a, b, zero])
                    }
                    _ => {
                        let c = self.src("C")?;
                        let c = self.float_src(c, F16)?;
                        self.b.op(Op::Fma, F16, &[a, b, c])
                    }
                };
                let r = self.default_nan(r);
                let r = self.saturate(r);
                let d = self.dst()?;
                self.write_gpr(d, r)?;
            }
            "floor" | "ceil" | "trunc" | "rint" | "rcp" | "rsqrt" | "rsqrt_special" | "log2"
            | "exp2" | "sin_pt_1" | "sin_pt_2" => {
                let a = self.src("A")?;
                let a = self.float_src(a, F32)?;
                let r = self.unary32(name, a);
                self.finish32(r)?;
            }
            "convert" => self.convert()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `a * b + c` in f32 with G13's flushing: fp32 inputs flushed, one rounding, and a
    /// result whose exact value is below 2^-126 a zero of its sign. With an addend, the exact
    /// value is compared with 2^-126 in f64: the product of two f32 values is exact there,
    /// and the sum's rounding error is recovered exactly (Knuth's TwoSum), so only a rounded
    /// sum of exactly 2^-126 needs the error's sign. Without one (`fmul`), one more fused
    /// operation in f32 decides it.
    pub(super) fn fused32(&mut self, a: Value, b: Value, c: Option<Value>) -> Value {
        let zero = self.b.f32(0.0);
        let r = self
            .b
            .op_mode(Op::Fma, FLUSH_IN, F32, &[a, b, c.unwrap_or(zero)]);
        let tiny = match c {
            // A product alone (fmul's +0 addend): |a·b| - 2^-126 in one fused operation is
            // negative, or a zero whose sign says it underflowed from below (IEEE keeps the
            // exact result's sign when rounding to zero; an exact 0 is +0), exactly when the
            // product lies below 2^-126.
            None => {
                let [x, y] = [a, b].map(|v| self.b.op(Op::Fabs, F32, &[v]));
                let min = self.b.iconst(F32, 0x8080_0000);
                let z = self.b.op_mode(Op::Fma, FLUSH_IN, F32, &[x, y, min]);
                let zb = self.b.op(Op::Bitcast, I32, &[z]);
                let zero = self.b.i32(0);
                let negative = self.b.op(Op::Icmp(IntCC::Slt), I1, &[zb, zero]);
                // A NaN product (∞ · 0, a NaN operand) stays a NaN, whatever its sign.
                let number = self.b.op(Op::Fcmp(FloatCC::Ord), I1, &[z, z]);
                self.b.op(Op::And, I1, &[negative, number])
            }
            Some(c) => {
                let [a, b] = [a, b].map(|x| self.b.op_mode(Op::Fconvert, FLUSH_IN, F64, &[x]));
                let p = self.b.op(Op::Fmul, F64, &[a, b]);
                let t = self.b.iconst(F64, MIN_NORMAL_F32_AS_F64);
                let c = self.b.op_mode(Op::Fconvert, FLUSH_IN, F64, &[c]);
                let s = self.b.op(Op::Fadd, F64, &[p, c]);
                let bb = self.b.op(Op::Fsub, F64, &[s, p]);
                let s_bb = self.b.op(Op::Fsub, F64, &[s, bb]);
                let e1 = self.b.op(Op::Fsub, F64, &[p, s_bb]);
                let e2 = self.b.op(Op::Fsub, F64, &[c, bb]);
                let e = self.b.op(Op::Fadd, F64, &[e1, e2]);
                let mag = self.b.op(Op::Fabs, F64, &[s]);
                let below = self.b.op(Op::Fcmp(FloatCC::Lt), I1, &[mag, t]);
                let at = self.b.op(Op::Fcmp(FloatCC::Eq), I1, &[mag, t]);
                // s and e of opposite signs (e nonzero): the exact value lies below |s|.
                let sb = self.b.op(Op::Bitcast, I64, &[s]);
                let eb = self.b.op(Op::Bitcast, I64, &[e]);
                let x = self.b.op(Op::Xor, I64, &[sb, eb]);
                let zero = self.b.i64(0);
                let opposite = self.b.op(Op::Icmp(IntCC::Slt), I1, &[x, zero]);
                let zf = self.b.f64(0.0);
                let nonzero = self.b.op(Op::Fcmp(FloatCC::One), I1, &[e, zf]);
                let lower = self.b.op(Op::And, I1, &[opposite, nonzero]);
                let at_lower = self.b.op(Op::And, I1, &[at, lower]);
                self.b.op(Op::Or, I1, &[below, at_lower])
            }
        };
        let rb = self.b.op(Op::Bitcast, I32, &[r]);
        let sign = self.b.i32(0x8000_0000);
        let signed_zero = self.b.op(Op::And, I32, &[rb, sign]);
        let flushed = self.b.op(Op::Select, I32, &[tiny, signed_zero, rb]);
        self.b.op(Op::Bitcast, F32, &[flushed])
    }

    /// A transcendental or rounding of `a` (f32, fp32 rules).
    fn unary32(&mut self, name: &str, a: Value) -> Value {
        let m = FloatMode::FLUSH;
        match name {
            "floor" => self.b.op_mode(Op::Ffloor, m, F32, &[a]),
            "ceil" => self.b.op_mode(Op::Fceil, m, F32, &[a]),
            "trunc" => self.b.op_mode(Op::Ftrunc, m, F32, &[a]),
            "rint" => self.b.op_mode(Op::Frint, m, F32, &[a]),
            "rcp" => self.b.op_mode(Op::Frcp(Trans::Ieee), m, F32, &[a]),
            "rsqrt" => self.b.op_mode(Op::Frsq(Trans::Ieee), m, F32, &[a]),
            "rsqrt_special" => {
                // ±0 (a flushed denormal too) gives +0 and +inf gives +inf, so that
                // `rsqrt_special(x) * x` is sqrt(x) there as well: ±0, +inf.
                let r = self.b.op_mode(Op::Frsq(Trans::Ieee), m, F32, &[a]);
                let fa = self.b.op_mode(Op::Fcanonicalize, m, F32, &[a]);
                let zero = self.b.f32(0.0);
                let inf = self.b.f32(f32::INFINITY);
                let is_zero = self.b.op(Op::Fcmp(FloatCC::Eq), I1, &[fa, zero]);
                let is_inf = self.b.op(Op::Fcmp(FloatCC::Eq), I1, &[fa, inf]);
                let r = self.b.op(Op::Select, F32, &[is_inf, inf, r]);
                self.b.op(Op::Select, F32, &[is_zero, zero, r])
            }
            "log2" => self.b.op_mode(Op::Flog2(Trans::Ieee), m, F32, &[a]),
            "exp2" => self.b.op_mode(Op::Fexp2(Trans::Ieee), m, F32, &[a]),
            "sin_pt_1" => {
                // q - 4 floor(q / 4), then the reflection.
                let quarter = self.b.f32(0.25);
                let q4 = self.b.op_mode(Op::Fmul, m, F32, &[a, quarter]);
                let fl = self.b.op_mode(Op::Ffloor, m, F32, &[q4]);
                let four = self.b.f32(4.0);
                let whole = self.b.op_mode(Op::Fmul, m, F32, &[fl, four]);
                let q = self.b.op_mode(Op::Fsub, m, F32, &[a, whole]);
                let one = self.b.f32(1.0);
                let two = self.b.f32(2.0);
                let three = self.b.f32(3.0);
                let back = self.b.op_mode(Op::Fsub, m, F32, &[two, q]);
                let wrap = self.b.op_mode(Op::Fsub, m, F32, &[q, four]);
                let le1 = self.b.op_mode(Op::Fcmp(FloatCC::Le), m, I1, &[q, one]);
                let lt3 = self.b.op_mode(Op::Fcmp(FloatCC::Lt), m, I1, &[q, three]);
                let mid = self.b.op(Op::Select, F32, &[lt3, back, wrap]);
                self.b.op(Op::Select, F32, &[le1, q, mid])
            }
            _ => {
                // sin_pt_2: sin(t π/2) / t, π/2 at 0.
                let quarter = self.b.f32(0.25);
                let turns = self.b.op_mode(Op::Fmul, m, F32, &[a, quarter]);
                let s = self
                    .b
                    .op_mode(Op::Fsin(Trans::Ieee, Angle::Turns), m, F32, &[turns]);
                let q = self.b.op_mode(Op::Fdiv, m, F32, &[s, a]);
                let zero = self.b.f32(0.0);
                let is_zero = self.b.op_mode(Op::Fcmp(FloatCC::Eq), m, I1, &[a, zero]);
                let half_pi = self.b.f32(std::f32::consts::FRAC_PI_2);
                self.b.op(Op::Select, F32, &[is_zero, half_pi, q])
            }
        }
    }

    /// The default NaN for any NaN `r` (f16 or f32).
    pub(super) fn default_nan(&mut self, r: Value) -> Value {
        let ty = self.b.ty(r).scalar;
        let nan = self.b.op(Op::Fcmp(FloatCC::Uno), I1, &[r, r]);
        let bits = if ty == F16 { 0x7e00 } else { 0x7fc0_0000 };
        let d = self.b.iconst(ty, bits);
        self.b.op(Op::Select, ty, &[nan, d, r])
    }

    /// `.sat` when the instruction's S bit is set: NaN and negative values give +0, values
    /// above 1 give 1.
    fn saturate(&mut self, r: Value) -> Value {
        if self.field("S") == 0 {
            return r;
        }
        let ty = self.b.ty(r).scalar;
        let it = int_type(ty.bits());
        let one_bits = if ty == F16 { 0x3c00 } else { 0x3f80_0000 };
        let x = self.b.op(Op::Bitcast, it, &[r]);
        let zero = self.b.iconst(it, 0);
        let one = self.b.iconst(it, one_bits);
        let negative = self.b.op(Op::Icmp(IntCC::Slt), I1, &[x, zero]);
        let capped = self.b.op(Op::Umin, it, &[x, one]);
        let v = self.b.op(Op::Select, it, &[negative, zero, capped]);
        let nan = self.b.op(Op::Fcmp(FloatCC::Uno), I1, &[r, r]);
        let v = self.b.op(Op::Select, it, &[nan, zero, v]);
        self.b.op(Op::Bitcast, ty, &[v])
    }

    /// Writes an f32 result `r` (flushed) to D: default NaN, `.sat`, and a 16-bit D's second
    /// rounding.
    fn finish32(&mut self, r: Value) -> Result<(), LiftError> {
        let r = self.default_nan(r);
        let r = self.saturate(r);
        let d = self.dst()?;
        let r = match d.width {
            Width::Half(_) => self.b.op(Op::Fconvert, F16, &[r]),
            _ => r,
        };
        self.write_gpr(d, r)
    }

    /// Float condition `code` (0 eq, 1 lt, 2 gt, 3 lt with NaN losing, 5 gte, 6 lte, 7 gt
    /// with NaN losing) of two float sources, inverted if `invert`. Sources compare as f32
    /// (f16 converted exactly, fp32 flushed). "NaN losing": the compare is true when `b` is a
    /// NaN, so a select picks the operand that is not a NaN (how Mesa builds fmin/fmax).
    pub(super) fn float_compare(
        &mut self,
        code: u64,
        invert: bool,
        a: Src,
        b: Src,
    ) -> Result<Value, LiftError> {
        let x = self.float_src(a, F32)?;
        let y = self.float_src(b, F32)?;
        let m = FLUSH_IN;
        let ord = |s: &mut Self, cc| s.b.op_mode(Op::Fcmp(cc), m, I1, &[x, y]);
        let r = match code {
            0 => ord(self, FloatCC::Eq),
            1 => ord(self, FloatCC::Lt),
            2 => ord(self, FloatCC::Gt),
            5 => ord(self, FloatCC::Ge),
            6 => ord(self, FloatCC::Le),
            3 | 7 => {
                let cc = if code == 3 { FloatCC::Lt } else { FloatCC::Gt };
                let c = ord(self, cc);
                let b_nan = self.b.op(Op::Fcmp(FloatCC::Uno), I1, &[y, y]);
                self.b.op(Op::Or, I1, &[c, b_nan])
            }
            _ => return Err(self.invalid("float condition 4 is undefined".into())),
        };
        Ok(if invert {
            self.b.op(Op::Not, I1, &[r])
        } else {
            r
        })
    }

    /// `convert mode, D, src, round`.
    fn convert(&mut self) -> Result<(), LiftError> {
        let d = self.dst()?;
        let mode = match self.operand("mode") {
            Operand::Enum(e) => e.value,
            _ => u64::MAX,
        };
        let round = if self.field("round") & 1 != 0 {
            Round::NearestEven
        } else {
            Round::TowardZero
        };
        let fm = FloatMode {
            round,
            ..FloatMode::FLUSH
        };
        let src = self.src("src")?;
        let w = Self::reg_bits(d.width);
        let r = match mode {
            0 | 1 | 6 | 7 | 10 | 11 => {
                let (bits, signed) = match mode {
                    0 | 1 => (8, mode == 1),
                    6 | 7 => (16, mode == 7),
                    _ => (32, mode == 11),
                };
                let (raw, have) = self.src_raw(src)?;
                let cut = self.extend(raw, have, false, int_type(bits));
                let v = self.extend(cut, bits, signed, I32);
                let fty = if w == 16 { F16 } else { F32 };
                let op = if signed { Op::StoF } else { Op::UtoF };
                self.b.op_mode(op, fm, fty, &[v])
            }
            4 | 5 | 8 | 9 => {
                let (raw, have) = self.src_raw(src)?;
                // An 8-bit immediate is the low bits of an f32 (a denormal: it converts to 0).
                let f = match have {
                    16 => self.b.op(Op::Bitcast, F16, &[raw]),
                    _ => {
                        let w = self.extend(raw, have, false, I32);
                        self.b.op(Op::Bitcast, F32, &[w])
                    }
                };
                let f = if round == Round::NearestEven {
                    self.b
                        .op_mode(Op::Frint, FloatMode::FLUSH, self.b.ty(f).scalar, &[f])
                } else {
                    f
                };
                let signed = mode & 1 == 1;
                let op = if signed { Op::FtoS } else { Op::FtoU };
                let v = self.b.op_mode(op, FloatMode::FLUSH, I32, &[f]);
                if mode <= 5 {
                    let (lo, hi) = if signed {
                        (-32768i32 as u32, 32767u32)
                    } else {
                        (0, 65535)
                    };
                    let lo = self.b.i32(lo);
                    let hi = self.b.i32(hi);
                    let (mx, mn) = if signed {
                        (Op::Smax, Op::Smin)
                    } else {
                        (Op::Umax, Op::Umin)
                    };
                    let v = self.b.op(mx, I32, &[v, lo]);
                    self.b.op(mn, I32, &[v, hi])
                } else {
                    v
                }
            }
            _ => return Err(self.invalid(format!("convert mode {mode} is undefined"))),
        };
        self.write_gpr(d, r)
    }
}
