//! 64-bit operands: a double or a 64-bit integer is a pair of components, the low dword
//! first ("Outputs are either the pair yx or to the pair wz, where the msb is stored in y/w",
//! L3176; 64-bit integers likewise, L3234). The `double` and `int64` lifters read and write
//! them here.

use super::{Kind, ONE};
use crate::lift::double::F64_MODE;
use crate::lift::Lifter;
use crate::token::{DstComp, DstMod, SrcMod};
use wavejit_ir::{FunctionBuilder, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::{F64, I32, I64};

/// How the modifiers of a 64-bit source act (see [`Lifter::src_pair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::lift) enum Pair {
    /// A double: swizzle, `abs` and `neg`, the latter two on the high dword's sign only.
    Double,
    /// A 64-bit integer: swizzle only.
    Int,
}

impl<'a> Lifter<'a> {
    /// The 64-bit value of source `i` as an `i64`: its components 0 (low dword) and 1 (high
    /// dword) after the swizzle ("All source double inputs must be in xy (after swizzle
    /// operations)", L3194; 64-bit integers "read from the xy components of each source",
    /// L3234); components 2 and 3 are not read. A double takes `abs` and `neg` ("Abs and negate
    /// modifiers can be used on the source", every arithmetic entry of 7.12, although Table
    /// 2.10 L691 marks `_abs` na for doubles): they change the sign bit of the high dword only,
    /// so the negate of component 0 is ignored (L613). A 64-bit integer takes the swizzle only:
    /// the seed defines `neg` of an integer as a 32-bit two's complement (L614), not for a pair.
    /// Every other modifier is float only (Table 2.10, L681).
    pub(in crate::lift) fn src_pair(&mut self, i: usize, pair: Pair) -> Result<Value, LiftError> {
        let Some(s) = self.inst().src.get(i) else {
            return Err(self.invalid(format!("source {i} is missing")));
        };
        let m = s.modifier.unwrap_or(SrcMod::IDENTITY);
        let what = match pair {
            Pair::Double => "a double",
            Pair::Int => "a 64-bit integer",
        };
        let float_only = [
            (m.invert, "_invert"),
            (m.bias, "_bias"),
            (m.x2, "_x2"),
            (m.sign, "_sign"),
            (m.abs && pair == Pair::Int, "_abs"),
            (m.divcomp != 0, "_divcomp"),
            (m.clamp, "_clamp"),
        ];
        if let Some((_, name)) = float_only.iter().find(|(on, _)| *on) {
            return Err(self.invalid(format!(
                "{name} on {what} source (Table 2.10, L681: float only)"
            )));
        }
        if pair == Pair::Int && (m.neg[0] || m.neg[1]) {
            return Err(self.unsupported(
                "_neg on a 64-bit integer source: the seed defines integer negation for 32 bits \
                 (L614), not for a pair",
            ));
        }
        let lo = self.select_comp(s, Some(i), 0, m.swizzle[0])?;
        let mut hi = self.select_comp(s, Some(i), 0, m.swizzle[1])?;
        if m.abs {
            let k = self.b.i32(0x7fff_ffff);
            hi = self.b.op(Op::And, I32, &[hi, k]);
        }
        if m.neg[1] {
            let k = self.b.i32(0x8000_0000);
            hi = self.b.op(Op::Xor, I32, &[hi, k]);
        }
        Ok(self.b.op(Op::Concat, I64, &[lo, hi]))
    }

    /// Writes the 64-bit result `v` (an `i64`): the mask's written components must be x and y
    /// or z and w ("The user can set the output mask to either xy or zw", L3204; L3234), which
    /// take the low and the high dword; 0 and 1 components write 0.0 and 1.0f as for any
    /// instruction (L519). A double result takes shift_scale, a multiply by its power of two in
    /// double precision ("Destination scale modifiers can be applied to either float or double
    /// operations", L561); clamp is for float operands only (L563), and a 64-bit integer
    /// result takes neither (L561).
    pub(in crate::lift) fn write_pair(&mut self, v: Value, pair: Pair) -> Result<(), LiftError> {
        let d = self.dst()?;
        let m = d.modifier.unwrap_or(DstMod::IDENTITY);
        let written = m.comp.map(|c| c == DstComp::Write);
        if !matches!(
            written,
            [false, false, false, false] | [true, true, false, false] | [false, false, true, true]
        ) {
            return Err(
                self.invalid("a 64-bit result is written to dst.xy or dst.zw, whole (L3204)")
            );
        }
        if m.clamp {
            return Err(self.invalid("clamp on a 64-bit result (L563: float operands only)"));
        }
        let mut v = v;
        if m.shift != 0 {
            if pair == Pair::Int {
                return Err(self.invalid(
                    "shift_scale on a 64-bit integer result (L561: float and double only)",
                ));
            }
            // ILShiftScale: x2, x4, x8 are 1 to 3, d2, d4, d8 are 4 to 6.
            let power = match m.shift {
                s @ 1..=3 => i32::from(s),
                s @ 4..=6 => 3 - i32::from(s),
                s => return Err(self.invalid(format!("shift_scale {s} (ILShiftScale ends at 6)"))),
            };
            let b = &mut self.b;
            let x = b.op(Op::Bitcast, F64, &[v]);
            let k = b.f64(2f64.powi(power));
            let x = b.op_mode(Op::Fmul, F64_MODE, F64, &[x, k]);
            v = b.op(Op::Bitcast, I64, &[x]);
        }
        let (lo, hi) = halves(&mut self.b, v);
        let halves = [lo, hi, lo, hi];
        let mut values = [None; 4];
        for c in 0..4 {
            values[c] = match m.comp[c] {
                DstComp::NoWrite => None,
                DstComp::Zero => Some(self.b.i32(0)),
                DstComp::One => Some(self.b.i32(ONE)),
                DstComp::Write => Some(halves[c]),
            };
        }
        let exec = self.exec_mask();
        for (c, v) in values.into_iter().enumerate() {
            if let Some(v) = v {
                self.write_comp(&d.reg, c as u32, v, exec)?;
            }
        }
        Ok(())
    }

    /// Writes the one 32-bit result `v` of a 64-bit instruction to every written component:
    /// "The result is broadcast to all channels of the destination" (L3057, L3061, L7304).
    pub(in crate::lift) fn broadcast(&mut self, v: Value, out: Kind) -> Result<(), LiftError> {
        self.write_dst([Some(v); 4], [None; 4], out)
    }
}

/// The low and high dwords of the `i64` `v`.
pub(in crate::lift) fn halves(b: &mut FunctionBuilder, v: Value) -> (Value, Value) {
    let lo = b.op(Op::Trunc, I32, &[v]);
    let k = b.i64(32);
    let hi = b.op(Op::Lshr, I64, &[v, k]);
    (lo, b.op(Op::Trunc, I32, &[hi]))
}
