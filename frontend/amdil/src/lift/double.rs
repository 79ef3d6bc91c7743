//! The double-precision instructions (7.12), the conversions between doubles and floats (`d2f`,
//! `f2d`, 7.10) and between doubles and 32-bit integers. A double is one value per instruction:
//! a pair of components that `regs` reads from the sources' x and y after the swizzle and
//! writes to dst.xy or dst.zw ([`Lifter::src_pair`], [`Lifter::write_pair`]; 7.2.5,
//! L3176-L3206). The rules, by seed 001 line:
//!
//! **Float environment** ([`F64_MODE`]): IEEE, denormals kept, round to nearest even. The
//! arithmetic entries give "the correct IEEE result" (L9177, L9204, L9468); the seed flushes
//! the denormals of single-precision instructions only (L3055). Two entries' tables read
//! denormal inputs as zero, and those two follow them: `dfrac` (L9238) and `dfrexp` (L9262).
//! The compare tables disagree: DGE's reads denormals as zero (L9289-L9292), DLT's orders them
//! as IEEE does (L9340-L9343), and together they would make -0 >= +denorm and -0 < +denorm
//! both true; the compares follow IEEE, as their text says ("a float comparison that follows
//! floating point rules").
//!
//! - `dadd`, `dmul`, `ddiv` (L9171, L9462, L9202): IEEE add, multiply, divide.
//! - `dmad` (L9495): fused, one rounding: "From Evergreen GPUs and later, hardware maps this
//!   instruction to FMA64" (L9498). The HD38XX's truncating datapath is not modelled.
//! - `dmax`, `dmin` (L9358, L9395): `src0 >= src1 ? src0 : src1` and `src0 < src1 ? src0 :
//!   src1` (L9366, L9403), and "if one source operand is Nan, the other is returned" (L9370):
//!   equal operands, +0 and -0 included, give src0 for `dmax` and src1 for `dmin`.
//! - `deq`, `dge`, `dlt`, `dne` (L9215, L9274, L9323, L9517): 0xFFFFFFFF or 0 in every written
//!   component, one compare of the sources' pairs (L3057; the entries' "src0.{xy|zw}" is the
//!   DirectX form); false when an operand is NaN (L9218), except for `dne`: true (L9519).
//! - `dfrac` (L9230): x - floor(x) in [0, 1); ±inf and NaN give NaN, denormals +0 (L9238).
//! - `dfrexp` (L9252): dst.x = 0, dst.y = the exponent, dst.zw = the mantissa, ±[0.5, 1) with
//!   the input's sign (L9256-L9258); ±0 and denormals give 0 and a zero of the input's sign
//!   (L9258, L9262); a NaN gives -1 and the NaN quieted, ±inf -1 and 0xFFF8000000000000
//!   (L9258-L9260). Its result is not one float or double: no result modifiers.
//! - `d_frexp_exp`, `d_frexp_mant` (no entry; AMD's AMDIL back end emits them for the two
//!   results of frexp on f64: HSAIL-HLC-Stable, AMDILInstructions.td, DFREXP_EXP and
//!   FREXP_MANT): `dfrexp`'s y, in every written component, and its zw.
//! - `dldexp` (L9308): src0 * 2^src1.x, rounded once; overflow gives ±inf, and "Underflow
//!   produces 0" (L9310): a result below the normal range is a zero of its sign. The entry's
//!   "source1 * 2 source" is damaged; its next lines make src0 the double and src1.x (after
//!   the swizzle) the integer exponent, which takes `neg` only (L9311).
//! - `dmov` (L9430): moves the pair, bit for bit; "No modifiers are allowed on src0" (L9434).
//!   The entry's "src0 is a single 32-bit integer input (0 or non zero)" is `dmovc`'s src0.
//! - `dmovc` (L9444): "if (src0.x == 0) dst = src1; else dst = src2" (L9450), an integer test
//!   of src0.x after the swizzle, with no modifiers (L9434). DirectX's dmovc takes src1 where
//!   the condition is nonzero; the seed's pseudo-code is followed.
//! - `dsqrt` (L9634): the square root, correctly rounded (the seed says "The result is
//!   approximate", L9644); a negative input gives NaN. The entry's second formula, "dst =
//!   |src0.xy|" (L9640), is damaged.
//! - `drcp`, `drsq` (L9531, L9586): 1/x and 1/sqrt(x) as the IR's `frcp` and `frsq` compute
//!   them (hardware approximates them; `wavejit_ir::semantics::trans` says how). A zero input
//!   (±0) gives the zeroop value of the pseudo-code (L9553-L9563, L9605), which is positive:
//!   `fltmax` (the default) DBL_MAX, `zero` 0.0, `infinity` and `inf_else_max` +inf ("INFINITY
//!   or dbl_MAX; # Depends on IL Implementation": infinity here, as for `div`). `drsq` of a
//!   negative input, which the pseudo-code leaves unset ("positive only", L9592), gives NaN.
//!   Both read the double in src.xy (L3194); the entries' "4th channel of src" (L9543) and
//!   `v1[2,1]` (L9554) come from the single-precision RCP.
//! - `d2f` (L7296): rounded to nearest even, NaN and inf keep their sign, a result too large
//!   is ±inf (L7310); the float goes to every written component (L7304), and is a float
//!   result: a denormal one is flushed (L3055) and it takes float result modifiers.
//! - `f2d` (L7337): the float in src0.x after the swizzle and its modifiers, exactly; a
//!   denormal reads as a zero of its sign (L7351, L3055).
//! - `dtoi`, `dtou` (no entry; the back end emits them for fp_to_sint and fp_to_uint of f64 to
//!   i32, AMDILInstructions.td): toward zero, to every written component; out of range and NaN
//!   as `ftoi` and `ftou` (the IR's saturating conversion, NaN to 0).
//! - `itod`, `utod` (no entry; the back end's sint_to_fp and uint_to_fp of i32 to f64): the
//!   integer in src0.x after the swizzle, exactly (the corpus: `itod r66.xy__, r66.x`).
//!
//! Refused, with no entry and nothing public that defines their operands: `d_class` (its mask
//! bits and its true value), `d_div_scale` (GCN's V_DIV_SCALE_F64 also writes VCC, and the IL
//! form has no second destination), `d_div_fmas` (it reads that flag), `d_div_fixup` (the
//! order of its sources), `d_trig_preop` (AMD's AMDIL intrinsic behind it takes a float
//! segment, GCN's instruction an integer).

use super::regs::{halves, select, Kind, Pair};
use super::{Lifter, F32_MODE};
use crate::token::SrcMod;
use wavejit_ir::{FloatCC, FloatMode, FunctionBuilder, IntCC, Op, ScalarType, Trans, Value};
use wavejit_isa::LiftError;

use ScalarType::{F32, F64, I1, I32, I64};

/// The float mode of double-precision instructions (see the module doc).
pub const F64_MODE: FloatMode = FloatMode::IEEE;

/// `fclass` masks: ±inf, and both NaNs.
const INF: u32 = 0x204;
const NAN: u32 = 0x3;

/// dfrexp's mantissa of an infinity (L9260).
const INF_MANTISSA: u64 = 0xfff8_0000_0000_0000;

fn fcmp(b: &mut FunctionBuilder, cc: FloatCC, x: Value, y: Value) -> Value {
    b.op_mode(Op::Fcmp(cc), F64_MODE, I1, &[x, y])
}

fn class(b: &mut FunctionBuilder, x: Value, mask: u32) -> Value {
    let m = b.i32(mask);
    b.op(Op::Fclass, I1, &[x, m])
}

impl Lifter<'_> {
    /// Lifts a double-precision instruction; `false` if `m` is not one.
    pub(super) fn lift_double(&mut self, m: &str) -> Result<bool, LiftError> {
        match m {
            "dadd" => self.dmap(2, |b, a| b.op_mode(Op::Fadd, F64_MODE, F64, a))?,
            "dmul" => self.dmap(2, |b, a| b.op_mode(Op::Fmul, F64_MODE, F64, a))?,
            "ddiv" => self.dmap(2, |b, a| b.op_mode(Op::Fdiv, F64_MODE, F64, a))?,
            "dmad" => self.dmap(3, |b, a| b.op_mode(Op::Fma, F64_MODE, F64, a))?,
            "dmax" => self.dmap(2, |b, a| max_min(b, a[0], a[1], true))?,
            "dmin" => self.dmap(2, |b, a| max_min(b, a[0], a[1], false))?,
            "deq" | "dge" | "dlt" | "dne" => {
                let cc = match m {
                    "deq" => FloatCC::Eq,
                    "dge" => FloatCC::Ge,
                    "dlt" => FloatCC::Lt,
                    _ => FloatCC::Une,
                };
                self.operands(1, 2)?;
                let (x, y) = (self.dsrc(0)?, self.dsrc(1)?);
                let c = fcmp(&mut self.b, cc, x, y);
                let r = select(&mut self.b, c, u32::MAX, 0);
                self.broadcast(r, Kind::Int)?;
            }
            "dfrac" => self.dmap(1, |b, a| {
                let fm = FloatMode {
                    flush_in: true,
                    ..F64_MODE
                };
                b.op_mode(Op::Ffract, fm, F64, a)
            })?,
            "dfrexp" => {
                self.operands(1, 1)?;
                let x = self.dsrc(0)?;
                let (exp, mant) = frexp(&mut self.b, x);
                let mant = self.b.op(Op::Bitcast, I64, &[mant]);
                let (lo, hi) = halves(&mut self.b, mant);
                let zero = self.b.i32(0);
                let vals = [Some(zero), Some(exp), Some(lo), Some(hi)];
                self.write_dst(vals, [None; 4], Kind::Int)?;
            }
            "d_frexp_exp" => {
                self.operands(1, 1)?;
                let x = self.dsrc(0)?;
                let (exp, _) = frexp(&mut self.b, x);
                self.broadcast(exp, Kind::Int)?;
            }
            "d_frexp_mant" => self.dmap(1, |b, a| frexp(b, a[0]).1)?,
            "dldexp" => {
                self.operands(1, 2)?;
                let x = self.dsrc(0)?;
                let n = self.src(1, 0, Kind::Int)?;
                let fm = FloatMode {
                    flush_out: true,
                    ..F64_MODE
                };
                let r = self.b.op_mode(Op::Ldexp, fm, F64, &[x, n]);
                self.dwrite(r)?;
            }
            "dmov" => {
                self.operands(1, 1)?;
                self.swizzle_only(0)?;
                let v = self.src_pair(0, Pair::Double)?;
                self.write_pair(v, Pair::Double)?;
            }
            "dmovc" => {
                self.operands(1, 3)?;
                self.swizzle_only(0)?;
                let c = self.src(0, 0, Kind::Bits)?;
                let t = self.src_pair(1, Pair::Double)?;
                let f = self.src_pair(2, Pair::Double)?;
                let zero = self.b.i32(0);
                let is_zero = self.b.op(Op::Icmp(IntCC::Eq), I1, &[c, zero]);
                let v = self.b.op(Op::Select, I64, &[is_zero, t, f]);
                self.write_pair(v, Pair::Double)?;
            }
            "dsqrt" => self.dmap(1, |b, a| {
                b.op_mode(Op::Fsqrt(Trans::Ieee), F64_MODE, F64, a)
            })?,
            "drcp" | "drsq" => {
                let op = if m == "drcp" {
                    Op::Frcp(Trans::Ieee)
                } else {
                    Op::Frsq(Trans::Ieee)
                };
                let at_zero = match self.field("zeroop") {
                    0 => f64::MAX,
                    1 => 0.0,
                    _ => f64::INFINITY,
                };
                self.dmap(1, |b, a| {
                    let r = b.op_mode(op, F64_MODE, F64, a);
                    let zero = b.f64(0.0);
                    let is_zero = fcmp(b, FloatCC::Eq, a[0], zero);
                    let k = b.f64(at_zero);
                    b.op(Op::Select, F64, &[is_zero, k, r])
                })?
            }
            "d2f" => {
                self.operands(1, 1)?;
                let x = self.dsrc(0)?;
                let fm = FloatMode {
                    flush_in: false,
                    ..F32_MODE
                };
                let r = self.b.op_mode(Op::Fconvert, fm, F32, &[x]);
                let r = self.b.op(Op::Bitcast, I32, &[r]);
                self.broadcast(r, Kind::Float)?;
            }
            "f2d" => {
                self.operands(1, 1)?;
                let x = self.src(0, 0, Kind::Float)?;
                let x = self.b.op(Op::Bitcast, F32, &[x]);
                let r = self.b.op_mode(Op::Fconvert, FloatMode::FLUSH_IN, F64, &[x]);
                self.dwrite(r)?;
            }
            "dtoi" | "dtou" => {
                let op = if m == "dtoi" { Op::FtoS } else { Op::FtoU };
                self.operands(1, 1)?;
                let x = self.dsrc(0)?;
                let r = self.b.op_mode(op, F64_MODE, I32, &[x]);
                self.broadcast(r, Kind::Int)?;
            }
            "itod" | "utod" => {
                let op = if m == "itod" { Op::StoF } else { Op::UtoF };
                self.operands(1, 1)?;
                let x = self.src(0, 0, Kind::Int)?;
                let r = self.b.op_mode(op, F64_MODE, F64, &[x]);
                self.dwrite(r)?;
            }
            "d_class" | "d_div_scale" | "d_div_fmas" | "d_div_fixup" | "d_trig_preop" => {
                let why = match m {
                    "d_class" => "which bits its class mask has and what it returns",
                    "d_div_scale" => {
                        "GCN's V_DIV_SCALE_F64 also writes VCC, and the IL form has no \
                         destination for it"
                    }
                    "d_div_fmas" => "it reads the VCC flag of V_DIV_SCALE_F64",
                    "d_div_fixup" => "the order of its three sources",
                    _ => {
                        "its segment operand (a float in AMD's AMDIL intrinsic, an integer in GCN)"
                    }
                };
                return Err(self.unsupported(format!(
                    "{}: seed 001 has no entry for it and nothing public defines {why}",
                    self.row().name
                )));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Source `i` as an `f64`.
    fn dsrc(&mut self, i: usize) -> Result<Value, LiftError> {
        let v = self.src_pair(i, Pair::Double)?;
        Ok(self.b.op(Op::Bitcast, F64, &[v]))
    }

    /// Writes the `f64` result `x`.
    fn dwrite(&mut self, x: Value) -> Result<(), LiftError> {
        let v = self.b.op(Op::Bitcast, I64, &[x]);
        self.write_pair(v, Pair::Double)
    }

    /// An instruction of `n` double sources and a double result computed by `f`.
    fn dmap(
        &mut self,
        n: usize,
        f: impl Fn(&mut FunctionBuilder, &[Value]) -> Value,
    ) -> Result<(), LiftError> {
        self.operands(1, n)?;
        let mut args = Vec::with_capacity(n);
        for i in 0..n {
            args.push(self.dsrc(i)?);
        }
        let r = f(&mut self.b, &args);
        self.dwrite(r)
    }

    /// Refuses any modifier of source `i` but its swizzle (L9434).
    fn swizzle_only(&self, i: usize) -> Result<(), LiftError> {
        let m = self.inst().src.get(i).and_then(|s| s.modifier);
        match m {
            Some(m)
                if m != SrcMod {
                    swizzle: m.swizzle,
                    ..SrcMod::IDENTITY
                } =>
            {
                Err(self.invalid(format!(
                    "source {i} takes no modifiers but its swizzle (L9434)"
                )))
            }
            _ => Ok(()),
        }
    }
}

/// `dmax` (`max`) or `dmin` of `x` and `y` (see the module doc).
fn max_min(b: &mut FunctionBuilder, x: Value, y: Value, max: bool) -> Value {
    let cc = if max { FloatCC::Ge } else { FloatCC::Lt };
    let ordered = fcmp(b, cc, x, y);
    let y_nan = fcmp(b, FloatCC::Uno, y, y);
    let take_x = b.op(Op::Or, I1, &[ordered, y_nan]);
    b.op(Op::Select, F64, &[take_x, x, y])
}

/// dfrexp's exponent (`i32`) and mantissa (`f64`) of `x` (see the module doc).
fn frexp(b: &mut FunctionBuilder, x: Value) -> (Value, Value) {
    let fm = FloatMode {
        flush_in: true,
        ..F64_MODE
    };
    let exp = b.op_mode(Op::FrexpExp, fm, I32, &[x]);
    let mant = b.op_mode(Op::FrexpMant, fm, F64, &[x]);
    let inf = class(b, x, INF);
    let nan = class(b, x, NAN);
    let special = b.op(Op::Or, I1, &[inf, nan]);
    let minus_one = b.i32(u32::MAX);
    let exp = b.op(Op::Select, I32, &[special, minus_one, exp]);
    let k = b.f64(f64::from_bits(INF_MANTISSA));
    let mant = b.op(Op::Select, F64, &[inf, k, mant]);
    (exp, mant)
}
