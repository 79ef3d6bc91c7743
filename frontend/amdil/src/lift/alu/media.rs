//! The multimedia instructions (7.13) and the f16 conversions (7.10).
//!
//! Multimedia instructions take "no input or output modifiers" (7.2.13, L3375): their
//! sources are read with the swizzle only and their results take no shift_scale or clamp,
//! like the logical instructions'. Their entries end with "the 32-bit result is replicated to
//! all four vector output slots", a sentence copied from the hardware's `FLT_TO_UINT4` (seed
//! 000 L3994), whose four inputs are the four slots; it is followed where the instruction
//! reads four components into one result (`sad4`, `f2u4`). The others work per component, as
//! 7.2.13 says of the unpacks ("extract a single byte from each register component") and as
//! `sad` says ("done for each component"). Rules by seed 001 line:
//!
//! - `bitalign` (L9660): ({src0, src1} >> (src2 & 31)) & 0xFFFFFFFF, the IR's `bitalign`. The
//!   entry's first example (shift 1 giving 0xA4D5E6F7) is a misprint: the formula, and its
//!   other two examples, give 0xC4D5E6F7.
//! - `bytealign` (L9690): (src0 << (32 - 8s)) | (src1 >> 8s) with s = src2, "must be 0, 1, 2,
//!   or 3" (s = 0 gives src1, the 64-bit funnel's reading): the IR's `bytealign`, which takes
//!   s modulo 4.
//! - `sad` (L9724): src2 + Σ over the four bytes |src0.b - src1.b| (`sad_u8`); `sadhi`
//!   (L9746): src2 + (that sum << 16) (`sad_hi_u8`); `sad4` (L9750): src2.x + the byte sums
//!   of all four component pairs, in every component. All wrap at 32 bits.
//! - `u4lerp` (L9761): per byte (src0.b + src1.b + the byte's bit 0 of src2) >> 1, the IR's
//!   `lerp_u8`.
//! - `f2u4` (L9698): its Operation is missing ("*"); the hardware instruction it names (seed
//!   000 L3994, `FLT_TO_UINT4`): byte c = flt_to_uint(src0.c) & 0xFF, x in the low byte, the
//!   conversion `ftou`'s (toward zero, saturating, NaN to 0); "inputs outside range 255.999f
//!   give undefined results".
//! - `unpack0`..`unpack3` (L9770-L9796): the float of byte k of each component,
//!   `uint2flt(src0 >> 8k & 0xFF)`, exact.
//! - `f2f16` (L7365): each component to f16 in its low 16 bits, the high 16 bits zero. The
//!   seed names no rounding: to nearest even. Denormal inputs are flushed (L3055); f16
//!   denormal results are kept (the hardware "creates FLT16 denorms when appropriate", seed 000
//!   L4026); NaN stays NaN, quieted. The result is not a float: no shift_scale or clamp.
//!   `f_2_f16_near`, `f_2_f16_neg_inf`, `f_2_f16_plus_inf` (rows without an entry): the same,
//!   rounded as their names say.
//! - `f162f` (L7389): the f16 in each component's low 16 bits to f32, exact ("no rounding
//!   required"; every f16, denormals included, is a normal f32); read with the swizzle only,
//!   since a sign modifier would act on bit 31, not the half's sign.

use super::super::regs::Kind;
use super::super::{Lifter, F32_MODE};
use super::convert;
use wavejit_ir::{FloatMode, FunctionBuilder, Op, Round, ScalarType, Value};
use wavejit_isa::LiftError;

use Kind::{Bits, Float, Int};
use ScalarType::{F16, F32, I16, I32};

/// `x` (f32 bits) to f16 rounded per `round`, zero-extended.
fn to_half(b: &mut FunctionBuilder, x: Value, round: Round) -> Value {
    let mode = FloatMode {
        flush_out: false,
        round,
        ..F32_MODE
    };
    let f = b.op(Op::Bitcast, F32, &[x]);
    let h = b.op_mode(Op::Fconvert, mode, F16, &[f]);
    let h = b.op(Op::Bitcast, I16, &[h]);
    b.op(Op::Zext, I32, &[h])
}

/// The f16 in the low half of `x`, as f32 bits.
fn from_half(b: &mut FunctionBuilder, x: Value) -> Value {
    let h = b.op(Op::Trunc, I16, &[x]);
    let h = b.op(Op::Bitcast, F16, &[h]);
    let f = b.op_mode(Op::Fconvert, FloatMode::IEEE, F32, &[h]);
    b.op(Op::Bitcast, I32, &[f])
}

impl Lifter<'_> {
    /// Lifts a multimedia instruction or an f16 conversion; `false` if `m` is not one.
    pub(super) fn lift_media(&mut self, m: &str) -> Result<bool, LiftError> {
        let ternary = |op: Op| move |b: &mut FunctionBuilder, a: &[Value]| b.op(op, I32, a);
        match m {
            "bitalign" => self.map(&[Bits, Bits, Bits], Bits, ternary(Op::BitAlign))?,
            "bytealign" => self.map(&[Bits, Bits, Bits], Bits, ternary(Op::ByteAlign))?,
            "sad" => self.map(&[Bits, Bits, Bits], Bits, ternary(Op::SadU8))?,
            "sadhi" => self.map(&[Bits, Bits, Bits], Bits, ternary(Op::SadHiU8))?,
            "u4lerp" => self.map(&[Bits, Bits, Bits], Bits, ternary(Op::LerpU8))?,
            "sad4" => self.replicated(3, Bits, |l| {
                let mut acc = l.src(2, 0, Bits)?;
                for c in 0..4 {
                    let x = l.src(0, c, Bits)?;
                    let y = l.src(1, c, Bits)?;
                    acc = l.b.op(Op::SadU8, I32, &[x, y, acc]);
                }
                Ok(acc)
            })?,
            "f2u4" => self.replicated(1, Bits, |l| {
                let mut acc = l.b.i32(0);
                for c in 0..4 {
                    let x = l.src(0, c, Bits)?;
                    let b = &mut l.b;
                    let u = convert(b, Op::FtoU, I32, F32, x);
                    let byte = b.i32(0xff);
                    let u = b.op(Op::And, I32, &[u, byte]);
                    let k = b.i32(8 * c as u32);
                    let u = b.op(Op::Shl, I32, &[u, k]);
                    acc = b.op(Op::Or, I32, &[acc, u]);
                }
                Ok(acc)
            })?,
            "unpack0" | "unpack1" | "unpack2" | "unpack3" => {
                let k = u32::from(m.as_bytes()[6] - b'0');
                self.map(&[Bits], Bits, |b, a| {
                    let offset = b.i32(8 * k);
                    let width = b.i32(8);
                    let byte = b.op(Op::Ubfe, I32, &[a[0], offset, width]);
                    convert(b, Op::UtoF, F32, I32, byte)
                })?
            }
            "f2f16" | "f_2_f16_near" | "f_2_f16_neg_inf" | "f_2_f16_plus_inf" => {
                let round = match m {
                    "f_2_f16_neg_inf" => Round::TowardNegative,
                    "f_2_f16_plus_inf" => Round::TowardPositive,
                    _ => Round::NearestEven,
                };
                self.map(&[Float], Int, |b, a| to_half(b, a[0], round))?
            }
            "f162f" => self.map(&[Bits], Float, |b, a| from_half(b, a[0]))?,
            _ => return Ok(false),
        }
        Ok(true)
    }
}
