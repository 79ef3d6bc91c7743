//! The ALU instructions: each component of the result is computed from the same component of
//! the sources (after their swizzles and modifiers, `regs`), in every lane, and written where
//! the destination's mask and the exec mask say. This module has the common float, integer,
//! bit and conversion instructions; its children the rest of the 32-bit ALU rows:
//! - `trans`: the transcendentals (exp, log, ln, rcp, rsq, sqrt, pow, the trigonometric
//!   functions) and their `_zeroop` controls;
//! - `geometry`: dot products, lengths, normalisation and the other DX9 vector macros;
//! - `matrix`: the matrix macros `det`, `mmul` and `transpose`;
//! - `select`: clamp, cmp, set, sgn, mod, lrp and the three-operand integer min/max/median;
//! - `media`: the multimedia instructions (7.13) and the f16 conversions.
//!
//! Instructions with one result for every component ("placed in all four components") go
//! through `Lifter::replicated`; those that leave components alone ("does not write dst.w")
//! through `Lifter::components`.
//!
//! The rules of this module, by seed 001 line:
//!
//! **Float** (single precision, [`F32_MODE`]: denormals flushed in and out)
//! - `mov` (L8581) copies the bits. `abs` (L7463) clears the sign bit, as the `_abs` modifier.
//! - `add` (L7507), `sub` (L9073): IEEE add and subtract.
//! - `mul` (L8596) and `mad` (L8411): control 0 is the DX9 multiply, "0*n = 0, even if n is NaN"
//!   (L8444; 1.2 L354-L371): `fmul_legacy`, `fmad_legacy`; `_ieee` is the IEEE multiply. `mad` is
//!   unfused: the product is rounded (and flushed) before the add. The HD3xxx/4xxx datapath
//!   the entry describes (a 26-bit product with sticky bit, L8418) is not modelled.
//! - `fma` (L8042): fused, one rounding.
//! - `max` (L8454), `min` (L8478): control 0 returns the other operand when one is NaN, max(+0,
//!   -0) = +0 and min(+0, -0) = -0 (`nonieee`); `_ieee` is IEEE 754-2008 maxNum/minNum
//!   (`ieee`: a signalling NaN operand gives NaN). Both compare after flushing denormals and
//!   return the flushed value (L8459, L8482).
//! - `flr` and `round_neginf` (L8024, L8882): floor; `round_plusinf` (L8895): ceil;
//!   `round_z` (L8907): truncate; `round_nearest` (L8869): to nearest even; `rnd` (L8851):
//!   floor(x + 0.5), the entry's pseudocode; `frc` (L8056): x - floor(x) in [0, 1).
//! - `div_zeroop(op)` (L7791): x / y, but a divisor that is 0.0 (±0 or a flushed denormal)
//!   gives the zeroop value (`zero_result`: fltmax (the default), 0, or infinity), negated
//!   when x < 0.0.
//! - `eq`, `ge`, `lt`, `ne` (L7939, L8114, L8396, L8613): 0xFFFFFFFF or 0, compared after
//!   flushing denormals, +0 = -0, false when either operand is NaN (`ne` too).
//! - `cmov` (L7595): where src0 is not 0.0 (a float compare: ±0 and flushed denormals are
//!   0.0, NaN is not) the component takes src1; elsewhere it is not written, and the
//!   write-mask 0/1 components are not written either (L7599).
//! - `cmov_logical` (L7617): src0 != 0 (an integer test) ? src1 : src2, the bits moved as
//!   they are.
//!
//! **Integer and unsigned** (32-bit, wrapping)
//! - `iadd` (L6688), `inegate` (L6853), `imul` and `umul` (L6798, L7051: the low 32 bits),
//!   `imul_high` and `umul_high` (L6811, L7064: the high 32 bits, signed or unsigned),
//!   `imad` and `umad` (L6754, L6992: low 32 bits of the product plus src2).
//! - `imul24`, `umul24`, `imad24`, `umad24` (L6825, L7087, L6763, L7005): the operands' low
//!   24 bits, sign- or zero-extended, multiplied (low 32 bits), plus src2 for the mad forms;
//!   `imul24_high` and `umul24_high` (L6838, L7130): bits 47:32 of that 48-bit product,
//!   sign- or zero-extended (the entries' "high-order 16 bits of the 48-bit multiply").
//! - `imax`, `imin`, `umax`, `umin` (L6780, L7018); `ieq`, `ige`, `ilt`, `ine`, `uge`, `ult`
//!   (L6738, L6977): 0xFFFFFFFF or 0.
//! - `ishl`, `ishr`, `ushr` (L6895, L7134): the amount's low 5 bits (7.2.7, L3228), read per
//!   component (the entries require a replicated src1, so this is that value).
//! - `udiv`, `umod` (L6940, L7038): the seed does not say what division by zero gives; both
//!   give 0xFFFFFFFF, the rule of the DirectX 10 instruction IL translates
//!   (learn.microsoft.com, "udiv (sm4 - asm)": "Divide by zero returns 0xffffffff for both
//!   quotient and remainder").
//! - `icarry` (L6729), `iborrow` (L6714): 1 when src0 + src1 carries out of 32 bits, when
//!   src0 - src1 borrows; 0 otherwise.
//!
//! **Logical** (no modifiers, L3220): `iand` (L6701; the float section's AND, L7523, is the
//! same opcode), `ior`, `ixor` (L6879), `inot` (L6866).
//!
//! **Bit operations** (7.9)
//! - `ibit_extract`, `ubit_extract` (L7165, L7241): width = src0 & 31, offset = src1 & 31 of
//!   src2; width 0 gives 0; a field reaching past bit 31 is `src2 >> offset`; sign- or
//!   zero-extended.
//! - `ubit_insert` (L7271): bitmask = ((1 << width) - 1) << offset (width, offset = the low 5
//!   bits of src0, src1); ((src2 << offset) & bitmask) | (src3 & ~bitmask).
//! - `icbits` (L7212): set bits. `ubit_reverse` (L7285): bit reversal.
//! - `ffb(lo)`, `ffb(hi)`, `ffb(shi)` (L7222): the position of the first set bit counted from
//!   the LSB (lo) or from the MSB (hi); shi searches from the MSB for the first bit that
//!   differs from the sign bit (the first 0 of a negative number); 0xFFFFFFFF when there is
//!   none.
//!
//! **Conversions** (7.10)
//! - `ftoi`, `ftou` (L7404, L7420): toward zero; out of range is undefined in the seed: the
//!   IR's saturating conversion, NaN to 0.
//! - `itof`, `utof` (L7436, L7445): to nearest even. UTOF's entry says both "the nearest
//!   representable value is used" and, copied from FTOU, "rounding is performed towards
//!   zero ... following the C convention for casts", and C converts integers to float in the
//!   current (nearest) rounding mode.

mod geometry;
mod matrix;
mod media;
mod select;
mod trans;

use super::regs::{fcmp, fop, select, Kind, ONE};
use super::{Lifter, F32_MODE};
use crate::token::DstComp;
use wavejit_ir::{FloatCC, FunctionBuilder, IntCC, MinMax, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use Kind::{Bits, Float, Int};
use ScalarType::{F32, I1, I32, I64};

/// 0xFFFFFFFF where `c`, else 0.
fn bool_mask(b: &mut FunctionBuilder, c: Value) -> Value {
    select(b, c, u32::MAX, 0)
}

fn int(b: &mut FunctionBuilder, op: Op, args: &[Value]) -> Value {
    b.op(op, I32, args)
}

fn icmp(b: &mut FunctionBuilder, cc: IntCC, x: Value, y: Value) -> Value {
    let c = b.op(Op::Icmp(cc), I1, &[x, y]);
    bool_mask(b, c)
}

/// The low 24 bits of `x`, sign- or zero-extended to 64 bits.
fn low24(b: &mut FunctionBuilder, x: Value, signed: bool) -> Value {
    let eight = b.i32(8);
    let up = b.op(Op::Shl, I32, &[x, eight]);
    let (shift, ext) = if signed {
        (Op::Ashr, Op::Sext)
    } else {
        (Op::Lshr, Op::Zext)
    };
    let v = b.op(shift, I32, &[up, eight]);
    b.op(ext, I64, &[v])
}

/// The 48-bit product of two 24-bit operands, as `i64`.
fn mul24(b: &mut FunctionBuilder, x: Value, y: Value, signed: bool) -> Value {
    let x = low24(b, x, signed);
    let y = low24(b, y, signed);
    b.op(Op::Imul, I64, &[x, y])
}

fn low32(b: &mut FunctionBuilder, x: Value) -> Value {
    b.op(Op::Trunc, I32, &[x])
}

/// The value ILZeroOp `zeroop` gives an operand of 0.0 (Table 6.33, L3002): FLT_MAX (0, the
/// default), 0.0 (1), or infinity (2, and 3: `inf_else_max` is "IEEE infinity if the
/// implementation can support it", and this one can).
fn zero_result(zeroop: u16) -> u32 {
    match zeroop {
        0 => 0x7f7f_ffff,
        1 => 0,
        _ => 0x7f80_0000,
    }
}

/// Whether `x` is 0.0 for a float compare: ±0 or a denormal (flushed, L3055).
fn is_zero(b: &mut FunctionBuilder, x: Value) -> Value {
    let zero = b.i32(0);
    fcmp(b, FloatCC::Eq, x, zero)
}

/// `r`, or `special` where `x` is 0.0: a `_zeroop` rule.
fn unless_zero(b: &mut FunctionBuilder, x: Value, special: u32, r: Value) -> Value {
    let z = is_zero(b, x);
    let special = b.i32(special);
    b.op(Op::Select, I32, &[z, special, r])
}

/// `x * y` with the DX9 rule (±0 times anything is +0): the multiply of every IL float
/// instruction that has no `_ieee` control, as `mul` without it (L8444, L8606).
fn mul(b: &mut FunctionBuilder, x: Value, y: Value) -> Value {
    fop(b, Op::FmulLegacy, &[x, y])
}

/// `x * y + z` with the DX9 multiply, unfused: the product is rounded, then added.
fn mad(b: &mut FunctionBuilder, x: Value, y: Value, z: Value) -> Value {
    fop(b, Op::FmadLegacy, &[x, y, z])
}

/// The bits of the f32 nearest to `v`.
fn f32_bits(b: &mut FunctionBuilder, v: f32) -> Value {
    b.i32(v.to_bits())
}

/// `op(x, y & 31)`.
fn shift(b: &mut FunctionBuilder, op: Op, x: Value, y: Value) -> Value {
    let m = b.i32(31);
    let n = b.op(Op::And, I32, &[y, m]);
    b.op(op, I32, &[x, n])
}

impl Lifter<'_> {
    /// Lifts an ALU instruction; `false` if `m` is not one.
    pub(super) fn lift_alu(&mut self, m: &str) -> Result<bool, LiftError> {
        let ieee = self.field("ieee") != 0;
        match m {
            "mov" => self.map(&[Float], Float, |_, a| a[0])?,
            "abs" => self.map(&[Float], Float, |b, a| fop(b, Op::Fabs, a))?,
            "add" => self.map(&[Float, Float], Float, |b, a| fop(b, Op::Fadd, a))?,
            "sub" => self.map(&[Float, Float], Float, |b, a| fop(b, Op::Fsub, a))?,
            "mul" => {
                let op = if ieee { Op::Fmul } else { Op::FmulLegacy };
                self.map(&[Float, Float], Float, |b, a| fop(b, op, a))?
            }
            "mad" => {
                let op = if ieee { Op::Fmad } else { Op::FmadLegacy };
                self.map(&[Float, Float, Float], Float, |b, a| fop(b, op, a))?
            }
            "fma" => self.map(&[Float, Float, Float], Float, |b, a| fop(b, Op::Fma, a))?,
            "max" | "min" => {
                let rule = if ieee { MinMax::Ieee } else { MinMax::NonIeee };
                let op = if m == "max" {
                    Op::Fmax(rule)
                } else {
                    Op::Fmin(rule)
                };
                self.map(&[Float, Float], Float, |b, a| fop(b, op, a))?
            }
            "flr" | "round_neginf" => self.map(&[Float], Float, |b, a| fop(b, Op::Ffloor, a))?,
            "round_plusinf" => self.map(&[Float], Float, |b, a| fop(b, Op::Fceil, a))?,
            "round_z" => self.map(&[Float], Float, |b, a| fop(b, Op::Ftrunc, a))?,
            "round_nearest" => self.map(&[Float], Float, |b, a| fop(b, Op::Frint, a))?,
            "rnd" => self.map(&[Float], Float, |b, a| {
                let half = b.i32(0x3f00_0000);
                let x = fop(b, Op::Fadd, &[a[0], half]);
                fop(b, Op::Ffloor, &[x])
            })?,
            "frc" => self.map(&[Float], Float, |b, a| fop(b, Op::Ffract, a))?,
            "div" => {
                let zero_result = zero_result(self.field("zeroop"));
                self.map(&[Float, Float], Float, |b, a| {
                    div(b, a[0], a[1], zero_result)
                })?
            }
            "eq" | "ge" | "lt" | "ne" => {
                let cc = match m {
                    "eq" => FloatCC::Eq,
                    "ge" => FloatCC::Ge,
                    "lt" => FloatCC::Lt,
                    _ => FloatCC::One,
                };
                self.map(&[Float, Float], Int, |b, a| {
                    let c = fcmp(b, cc, a[0], a[1]);
                    bool_mask(b, c)
                })?
            }
            "cmov" => self.cmov()?,
            "cmov_logical" => self.map(&[Int, Float, Float], Float, |b, a| {
                let zero = b.i32(0);
                let c = b.op(Op::Icmp(IntCC::Ne), I1, &[a[0], zero]);
                b.op(Op::Select, I32, &[c, a[1], a[2]])
            })?,
            "iadd" => self.map(&[Int, Int], Int, |b, a| int(b, Op::Iadd, a))?,
            "inegate" => self.map(&[Int], Int, |b, a| {
                let zero = b.i32(0);
                int(b, Op::Isub, &[zero, a[0]])
            })?,
            "imul" | "umul" => self.map(&[Int, Int], Int, |b, a| int(b, Op::Imul, a))?,
            "imul_high" => self.map(&[Int, Int], Int, |b, a| int(b, Op::SmulHi, a))?,
            "umul_high" => self.map(&[Int, Int], Int, |b, a| int(b, Op::UmulHi, a))?,
            "imad" | "umad" => self.map(&[Int, Int, Int], Int, |b, a| {
                let p = int(b, Op::Imul, &a[..2]);
                int(b, Op::Iadd, &[p, a[2]])
            })?,
            "imul24" | "umul24" => {
                let signed = m == "imul24";
                self.map(&[Int, Int], Int, |b, a| {
                    let p = mul24(b, a[0], a[1], signed);
                    low32(b, p)
                })?
            }
            "imad24" | "umad24" => {
                let signed = m == "imad24";
                self.map(&[Int, Int, Int], Int, |b, a| {
                    let p = mul24(b, a[0], a[1], signed);
                    let p = low32(b, p);
                    int(b, Op::Iadd, &[p, a[2]])
                })?
            }
            "imul24_high" | "umul24_high" => {
                let signed = m == "imul24_high";
                self.map(&[Int, Int], Int, |b, a| {
                    let p = mul24(b, a[0], a[1], signed);
                    let k = b.i64(32);
                    let op = if signed { Op::Ashr } else { Op::Lshr };
                    let hi = b.op(op, I64, &[p, k]);
                    low32(b, hi)
                })?
            }
            "imax" => self.map(&[Int, Int], Int, |b, a| int(b, Op::Smax, a))?,
            "imin" => self.map(&[Int, Int], Int, |b, a| int(b, Op::Smin, a))?,
            "umax" => self.map(&[Int, Int], Int, |b, a| int(b, Op::Umax, a))?,
            "umin" => self.map(&[Int, Int], Int, |b, a| int(b, Op::Umin, a))?,
            "ieq" | "ige" | "ilt" | "ine" | "uge" | "ult" => {
                let cc = match m {
                    "ieq" => IntCC::Eq,
                    "ige" => IntCC::Sge,
                    "ilt" => IntCC::Slt,
                    "ine" => IntCC::Ne,
                    "uge" => IntCC::Uge,
                    _ => IntCC::Ult,
                };
                self.map(&[Int, Int], Int, |b, a| icmp(b, cc, a[0], a[1]))?
            }
            "ishl" => self.map(&[Int, Int], Int, |b, a| shift(b, Op::Shl, a[0], a[1]))?,
            "ishr" => self.map(&[Int, Int], Int, |b, a| shift(b, Op::Ashr, a[0], a[1]))?,
            "ushr" => self.map(&[Int, Int], Int, |b, a| shift(b, Op::Lshr, a[0], a[1]))?,
            "udiv" | "umod" => {
                let op = if m == "udiv" { Op::Udiv } else { Op::Urem };
                self.map(&[Int, Int], Int, |b, a| {
                    let zero = b.i32(0);
                    let by_zero = b.op(Op::Icmp(IntCC::Eq), I1, &[a[1], zero]);
                    let q = int(b, op, a);
                    let all = b.i32(u32::MAX);
                    b.op(Op::Select, I32, &[by_zero, all, q])
                })?
            }
            "icarry" | "iborrow" => {
                let op = if m == "icarry" {
                    Op::AddCarryOut
                } else {
                    Op::SubBorrowOut
                };
                self.map(&[Int, Int], Int, |b, a| {
                    let no = b.bool(false);
                    let c = b.op(op, I1, &[a[0], a[1], no]);
                    b.op(Op::Zext, I32, &[c])
                })?
            }
            "iand" => self.map(&[Bits, Bits], Int, |b, a| int(b, Op::And, a))?,
            "ior" => self.map(&[Bits, Bits], Int, |b, a| int(b, Op::Or, a))?,
            "ixor" => self.map(&[Bits, Bits], Int, |b, a| int(b, Op::Xor, a))?,
            "inot" => self.map(&[Bits], Int, |b, a| int(b, Op::Not, a))?,
            "ibit_extract" | "ubit_extract" => {
                let op = if m == "ibit_extract" {
                    Op::Sbfe
                } else {
                    Op::Ubfe
                };
                self.map(&[Int, Int, Int], Int, |b, a| {
                    int(b, op, &[a[2], a[1], a[0]])
                })?
            }
            "ubit_insert" => self.map(&[Int, Int, Int, Int], Int, |b, a| {
                let mask = int(b, Op::Bfm, &[a[0], a[1]]);
                let bits = shift(b, Op::Shl, a[2], a[1]);
                int(b, Op::Bfi, &[mask, bits, a[3]])
            })?,
            "icbits" => self.map(&[Int], Int, |b, a| int(b, Op::Popcnt, a))?,
            "ubit_reverse" => self.map(&[Int], Int, |b, a| int(b, Op::Bitrev, a))?,
            "ffb" => {
                let option = self.row().fields[0].get(self.inst().control);
                self.map(&[Int], Int, |b, a| first_bit(b, a[0], option))?
            }
            "ftoi" => self.map(&[Float], Int, |b, a| convert(b, Op::FtoS, I32, F32, a[0]))?,
            "ftou" => self.map(&[Float], Int, |b, a| convert(b, Op::FtoU, I32, F32, a[0]))?,
            "itof" => self.map(&[Int], Float, |b, a| convert(b, Op::StoF, F32, I32, a[0]))?,
            "utof" => self.map(&[Int], Float, |b, a| convert(b, Op::UtoF, F32, I32, a[0]))?,
            _ => {
                if self.lift_trans(m)?
                    || self.lift_geometry(m)?
                    || self.lift_matrix(m)?
                    || self.lift_select(m)?
                    || self.lift_media(m)?
                {
                    return Ok(true);
                }
                return match not_lifted(m) {
                    Some(why) => Err(self.unsupported(format!("{}: {why}", self.row().name))),
                    None => Ok(false),
                };
            }
        }
        Ok(true)
    }

    /// An instruction with one result for all four components: `f` computes it (reading the
    /// sources it needs through [`Lifter::src`]) and it goes to every component the mask
    /// writes. `srcs` is the instruction's source count.
    fn replicated(
        &mut self,
        srcs: usize,
        out: Kind,
        f: impl FnOnce(&mut Self) -> Result<Value, LiftError>,
    ) -> Result<(), LiftError> {
        self.operands(1, srcs)?;
        let comps = self.dst_comps()?;
        let v = if comps.contains(&DstComp::Write) {
            Some(f(self)?)
        } else {
            None
        };
        let vals = comps.map(|c| if c == DstComp::Write { v } else { None });
        self.write_dst(vals, [None; 4], out)
    }

    /// An instruction whose component `c` is `f(c)`, or, where `f` gives `None`, a component
    /// the instruction does not write (the mask's 0 and 1 still write it, as the entries
    /// say).
    fn components(
        &mut self,
        srcs: usize,
        out: Kind,
        mut f: impl FnMut(&mut Self, usize) -> Result<Option<Value>, LiftError>,
    ) -> Result<(), LiftError> {
        self.operands(1, srcs)?;
        let comps = self.dst_comps()?;
        let mut vals = [None; 4];
        let mut only = [None; 4];
        for c in 0..4 {
            if comps[c] != DstComp::Write {
                continue;
            }
            vals[c] = match f(self, c)? {
                Some(v) => Some(v),
                None => {
                    // Written in no lane.
                    let never = self.b.bool(false);
                    only[c] = Some(self.b.splat(never));
                    Some(self.b.i32(0))
                }
            };
        }
        self.write_dst(vals, only, out)
    }

    /// A component-wise instruction: sources of the kinds `kinds`, a result of kind `out`
    /// computed by `f` from the same component of every source.
    fn map(
        &mut self,
        kinds: &[Kind],
        out: Kind,
        f: impl Fn(&mut FunctionBuilder, &[Value]) -> Value,
    ) -> Result<(), LiftError> {
        self.operands(1, kinds.len())?;
        let comps = self.dst_comps()?;
        let mut vals = [None; 4];
        for c in 0..4 {
            if comps[c] != DstComp::Write {
                continue;
            }
            let mut args = Vec::with_capacity(kinds.len());
            for (i, &k) in kinds.iter().enumerate() {
                args.push(self.src(i, c, k)?);
            }
            vals[c] = Some(f(&mut self.b, &args));
        }
        self.write_dst(vals, [None; 4], out)
    }

    /// `cmov`: the component takes src1 where src0 is not 0.0, and is left alone elsewhere.
    fn cmov(&mut self) -> Result<(), LiftError> {
        self.operands(1, 2)?;
        let comps = self.dst_comps()?;
        let mut vals = [None; 4];
        let mut only = [None; 4];
        for c in 0..4 {
            if comps[c] == DstComp::NoWrite {
                continue;
            }
            let test = self.src(0, c, Float)?;
            let zero = self.b.i32(0);
            let moves = fcmp(&mut self.b, FloatCC::Une, test, zero);
            let moves = self.b.splat(moves);
            only[c] = Some(moves);
            if comps[c] == DstComp::Write {
                vals[c] = Some(self.src(1, c, Float)?);
            }
        }
        self.write_dst(vals, only, Float)
    }
}

/// Why a float-section row with compute use is refused, for those that are.
fn not_lifted(m: &str) -> Option<&'static str> {
    Some(match m {
        "noise" => {
            "its entry (L8629) states properties of a pseudo-random function, not the \
             function, so there is nothing to compute bit for bit"
        }
        "faceforward" => {
            "its entry's formula is damaged (L8014: \"d(dst = src2* sign(dot(src0, src1))\") \
             and names neither the dot product's components nor its multiply"
        }
        "clg" | "precomp" | "trc" => "no Chapter 7 entry defines it (its row has a value only)",
        _ => return None,
    })
}

/// `x / y` with the zeroop rule: a zero divisor gives `zero_result`, negated when x < 0.
fn div(b: &mut FunctionBuilder, x: Value, y: Value, zero_result: u32) -> Value {
    let q = fop(b, Op::Fdiv, &[x, y]);
    let zero = b.i32(0);
    let by_zero = fcmp(b, FloatCC::Eq, y, zero);
    let negative = fcmp(b, FloatCC::Lt, x, zero);
    let special = select(b, negative, zero_result | 0x8000_0000, zero_result);
    b.op(Op::Select, I32, &[by_zero, special, q])
}

/// `ffb(option)` of `x` (see the module doc).
fn first_bit(b: &mut FunctionBuilder, x: Value, option: u16) -> Value {
    let none = b.i32(u32::MAX);
    let zero = b.i32(0);
    let (count, found) = match option {
        0 => {
            let n = b.op(Op::Ctz, I32, &[x]);
            (n, b.op(Op::Icmp(IntCC::Ne), I1, &[x, zero]))
        }
        1 => {
            let n = b.op(Op::Clz, I32, &[x]);
            (n, b.op(Op::Icmp(IntCC::Ne), I1, &[x, zero]))
        }
        _ => {
            // The bits that differ from the sign bit, then the first set one from the MSB.
            let k = b.i32(31);
            let sign = b.op(Op::Ashr, I32, &[x, k]);
            let diff = b.op(Op::Xor, I32, &[x, sign]);
            let n = b.op(Op::Clz, I32, &[diff]);
            (n, b.op(Op::Icmp(IntCC::Ne), I1, &[diff, zero]))
        }
    };
    b.op(Op::Select, I32, &[found, count, none])
}

/// A conversion `op` from `from` to `to`, on `i32` bit patterns.
fn convert(b: &mut FunctionBuilder, op: Op, to: ScalarType, from: ScalarType, x: Value) -> Value {
    let x = if from == F32 {
        b.op(Op::Bitcast, F32, &[x])
    } else {
        x
    };
    let r = b.op_mode(op, F32_MODE, to, &[x]);
    if to == F32 {
        b.op(Op::Bitcast, I32, &[r])
    } else {
        r
    }
}
