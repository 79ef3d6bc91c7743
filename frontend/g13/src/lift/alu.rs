//! The integer ALU: moves, adds and multiply-adds with their shift, negation and saturation,
//! bitfields, shifts, the bitop truth tables, bit counts, interleave, compares and
//! compare-selects. The per-thread rules are applegpu.py HEAD's `exec_thread` methods (the
//! seed's pseudocode where they agree); applegpu computes with unbounded integers, so:
//! - a source is its register's value zero-extended, or sign-extended with `.sx`;
//! - a result is cut to the destination's width (16, 32 or 64 bits).
//!
//! Operations whose low result bits depend only on the operands' low bits compute at the
//! destination's width; the others (saturation, right shifts, bitfields, shift amounts up to
//! 127) compute at 64 bits, where every intermediate of these instructions is exact.

use super::regs::int_type;
use super::Lifter;
use crate::operand::{ICmp, Src, Value as Operand};
use wavejit_ir::{IntCC, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::*;

impl Lifter<'_> {
    /// Lifts an integer ALU instruction; `false` if `name` is not one.
    pub(super) fn lift_alu(&mut self, name: &str) -> Result<bool, LiftError> {
        match name {
            "mov_imm" => {
                let d = self.dst()?;
                let imm = match (self.operand("imm32"), self.operand("imm16")) {
                    (Operand::Imm(v), _) | (_, Operand::Imm(v)) => v as u64,
                    _ => 0,
                };
                let ty = int_type(Self::reg_bits(d.width));
                let v = self.b.iconst(ty, imm);
                self.write_gpr(d, v)?;
            }
            "iadd" => self.iadd()?,
            "imadd" => self.imadd()?,
            "bfi" | "bfeil" | "extr" | "shlhi" | "shrhi" => self.bitfield(name)?,
            "asr" | "asrh" => {
                let d = self.dst()?;
                let a = self.src("A")?;
                let a = self.int_src(Src { sx: true, ..a }, I64)?;
                let b = self.src("B")?;
                let sh = self.shift_amount(b)?;
                let a = if name == "asrh" {
                    let k = self.b.i64(32);
                    self.b.op(Op::Shl, I64, &[a, k])
                } else {
                    a
                };
                let r = self.ashr_full(a, sh);
                self.write_gpr(d, r)?;
            }
            "bitop" => {
                let d = self.dst()?;
                let ty = int_type(Self::reg_bits(d.width));
                let a = self.src("A")?;
                let a = self.int_src(a, ty)?;
                let b = self.src("B")?;
                let b = self.int_src(b, ty)?;
                let Operand::TruthTable(tt) = self.operand("tt") else {
                    return Err(self.invalid("no truth table".into()));
                };
                let r = self.truth_table(tt, a, b, ty);
                self.write_gpr(d, r)?;
            }
            "popcount" | "bitrev" | "ffs" => {
                let d = self.dst()?;
                let a = self.src("A")?;
                let r = if name == "ffs" {
                    // The highest set bit among bits 0-32 of the extended source, -1 for none
                    // (applegpu's loop runs from bit 32 down).
                    let a = self.int_src(a, I64)?;
                    let m = self.b.i64(0x1_ffff_ffff);
                    let x = self.b.op(Op::And, I64, &[a, m]);
                    let lz = self.b.op(Op::Clz, I64, &[x]);
                    let top = self.b.i64(63);
                    self.b.op(Op::Isub, I64, &[top, lz])
                } else {
                    let a = self.int_src(a, I32)?;
                    let op = if name == "popcount" {
                        Op::Popcnt
                    } else {
                        Op::Bitrev
                    };
                    self.b.op(op, I32, &[a])
                };
                self.write_gpr(d, r)?;
            }
            "intl" => {
                let d = self.dst()?;
                let a = self.src("A")?;
                let a = self.int_src(a, I32)?;
                let b = self.src("B")?;
                let b = self.int_src(b, I32)?;
                let a = self.spread_bits(a);
                let b = self.spread_bits(b);
                let one = self.b.i32(1);
                let b = self.b.op(Op::Shl, I32, &[b, one]);
                let r = self.b.op(Op::Or, I32, &[a, b]);
                self.write_gpr(d, r)?;
            }
            "icmpsel" | "fcmpsel" => {
                let d = self.dst()?;
                let a = self.src("A")?;
                let b = self.src("B")?;
                let Some(code) = self.cond_code() else {
                    return Err(self.invalid("no condition".into()));
                };
                let cmp = if name == "icmpsel" {
                    self.int_compare(code, a, b)?
                } else {
                    self.float_compare(code & 7, code & 8 != 0, a, b)?
                };
                let ty = int_type(Self::reg_bits(d.width));
                let x = self.src("X")?;
                let x = self.int_src(x, ty)?;
                let y = self.src("Y")?;
                let y = self.int_src(y, ty)?;
                let r = self.b.op(Op::Select, ty, &[cmp, x, y]);
                self.write_gpr(d, r)?;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The condition code with its inversion as bit 3.
    pub(super) fn cond_code(&self) -> Option<u64> {
        match self.operand("cc") {
            Operand::ICond(c) => Some(u64::from(c.code())),
            Operand::FCond(c) => Some(u64::from(c.code())),
            _ => None,
        }
    }

    /// Integer condition `code` (bit 2 signed, bits 1:0 eq/lt/gt, bit 3 inverted) of two
    /// sources, compared as the unbounded integers applegpu compares: each source extended
    /// by its `.sx`, and sign-extended when the condition is signed.
    pub(super) fn int_compare(&mut self, code: u64, a: Src, b: Src) -> Result<Value, LiftError> {
        let cmp = match code & 3 {
            0 => ICmp::Eq,
            1 => ICmp::Lt,
            2 => ICmp::Gt,
            _ => return Err(self.invalid("integer condition 3 is undefined".into())),
        };
        let signed = code & 4 != 0;
        let (sa, sb) = (signed || a.sx, signed || b.sx);
        let (a, b) = (Src { sx: sa, ..a }, Src { sx: sb, ..b });
        // Two sources extended alike compare at 32 bits with that signedness; otherwise at
        // 64 bits, signed, where both extended values are exact.
        let (ty, as_signed) = if sa == sb { (I32, sa) } else { (I64, true) };
        let x = self.int_src(a, ty)?;
        let y = self.int_src(b, ty)?;
        let cc = match (cmp, as_signed) {
            (ICmp::Eq, _) => IntCC::Eq,
            (ICmp::Lt, false) => IntCC::Ult,
            (ICmp::Gt, false) => IntCC::Ugt,
            (ICmp::Lt, true) => IntCC::Slt,
            (ICmp::Gt, true) => IntCC::Sgt,
        };
        let r = self.b.op(Op::Icmp(cc), I1, &[x, y]);
        Ok(if code & 8 != 0 {
            self.b.op(Op::Not, I1, &[r])
        } else {
            r
        })
    }

    /// The field `S` and the `Shift` operand.
    fn sat_and_shift(&self) -> (bool, u64) {
        let shift = match self.operand("shift") {
            Operand::Shift(s) => u64::from(s),
            _ => 0,
        };
        (self.field("S") != 0, shift)
    }

    /// The bits of a source's register (an immediate counts as 32 bits or fewer).
    fn src_bits(s: Src) -> u32 {
        use crate::operand::SrcValue::*;
        match s.value {
            Reg(r) | Discarded(r) => Self::reg_bits(r.width),
            _ => 32,
        }
    }

    /// `x << shift`, 0 for a shift of 5 or more (the `Shift` operand's rule).
    fn shift_left_const(&mut self, x: Value, shift: u64, ty: ScalarType) -> Value {
        if shift == 0 {
            x
        } else if shift >= 5 {
            self.b.iconst(ty, 0)
        } else {
            let s = self.b.iconst(ty, shift);
            self.b.op(Op::Shl, ty, &[x, s])
        }
    }

    /// `iadd D, A, B, shift`: a + ((N ? -b : b) << shift), saturating (`.sat`, S) when the
    /// shift is 0 and no operand is wider than 32 bits: signed if either source is `.sx`.
    fn iadd(&mut self) -> Result<(), LiftError> {
        let d = self.dst()?;
        let (a, b) = (self.src("A")?, self.src("B")?);
        let (sat, shift) = self.sat_and_shift();
        let negate = self.field("N") != 0;
        let w = Self::reg_bits(d.width);
        let saturating =
            sat && shift == 0 && Self::src_bits(a) <= 32 && Self::src_bits(b) <= 32 && w <= 32;
        if !saturating {
            let ty = int_type(w);
            let x = self.int_src(a, ty)?;
            let y = self.int_src(b, ty)?;
            let y = self.shift_left_const(y, shift, ty);
            let op = if negate { Op::Isub } else { Op::Iadd };
            let r = self.b.op(op, ty, &[x, y]);
            return self.write_gpr(d, r);
        }
        let signed = a.sx || b.sx;
        let x = self.int_src(a, I64)?;
        let y = self.int_src(b, I64)?;
        let op = if negate { Op::Isub } else { Op::Iadd };
        let r = self.b.op(op, I64, &[x, y]);
        let r = self.clamp_to(r, w, signed);
        self.write_gpr(d, r)
    }

    /// `imadd D, A, B, C, shift`: a * b + ((N ? -c : c) << shift), saturating as `iadd`
    /// when the shift is 0 and C and D are at most 32 bits: signed if any source is `.sx`.
    fn imadd(&mut self) -> Result<(), LiftError> {
        let d = self.dst()?;
        let (a, b, c) = (self.src("A")?, self.src("B")?, self.src("C")?);
        let (sat, shift) = self.sat_and_shift();
        let negate = self.field("N") != 0;
        let w = Self::reg_bits(d.width);
        let saturating = sat && shift == 0 && Self::src_bits(c) <= 32 && w <= 32;
        if !saturating {
            let ty = int_type(w);
            let x = self.int_src(a, ty)?;
            let y = self.int_src(b, ty)?;
            let z = self.int_src(c, ty)?;
            let z = self.shift_left_const(z, shift, ty);
            let p = self.b.op(Op::Imul, ty, &[x, y]);
            let op = if negate { Op::Isub } else { Op::Iadd };
            let r = self.b.op(op, ty, &[p, z]);
            return self.write_gpr(d, r);
        }
        // MulSrc operands are at most 32 bits, so the product is exact in 64 bits: below
        // 2^64 unsigned, and within (-2^63, 2^63) when either factor is signed.
        let signed = a.sx || b.sx || c.sx;
        let x = self.int_src(a, I64)?;
        let y = self.int_src(b, I64)?;
        let z = self.int_src(c, I64)?;
        let p = self.b.op(Op::Imul, I64, &[x, y]);
        let op = match (signed, negate) {
            (true, false) => Op::SaddSat,
            (true, true) => Op::SsubSat,
            (false, false) => Op::UaddSat,
            (false, true) => Op::UsubSat,
        };
        let r = self.b.op(op, I64, &[p, z]);
        let r = if signed {
            self.clamp_to(r, w, true)
        } else {
            let max = self.b.i64((1u64 << w) - 1);
            self.b.op(Op::Umin, I64, &[r, max])
        };
        self.write_gpr(d, r)
    }

    /// `r`, an exact signed 64-bit value, clamped to a `w`-bit integer's range.
    fn clamp_to(&mut self, r: Value, w: u32, signed: bool) -> Value {
        let (lo, hi) = if signed {
            (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
        } else {
            (0, (1i64 << w) - 1)
        };
        let lo = self.b.i64(lo as u64);
        let hi = self.b.i64(hi as u64);
        let r = self.b.op(Op::Smax, I64, &[r, lo]);
        self.b.op(Op::Smin, I64, &[r, hi])
    }

    /// A shift amount source: its low 7 bits, as i64.
    fn shift_amount(&mut self, s: Src) -> Result<Value, LiftError> {
        let v = self.int_src(s, I64)?;
        let m = self.b.i64(0x7f);
        Ok(self.b.op(Op::And, I64, &[v, m]))
    }

    /// `x << s` for any `s` (0 from 64 on), as unbounded integers cut to 64 bits.
    fn shl_full(&mut self, x: Value, s: Value) -> Value {
        let r = self.b.op(Op::Shl, I64, &[x, s]);
        let lim = self.b.i64(64);
        let inside = self.b.op(Op::Icmp(IntCC::Ult), I1, &[s, lim]);
        let zero = self.b.i64(0);
        self.b.op(Op::Select, I64, &[inside, r, zero])
    }

    /// `x >> s`, logical, for any `s`.
    fn lshr_full(&mut self, x: Value, s: Value) -> Value {
        let r = self.b.op(Op::Lshr, I64, &[x, s]);
        let lim = self.b.i64(64);
        let inside = self.b.op(Op::Icmp(IntCC::Ult), I1, &[s, lim]);
        let zero = self.b.i64(0);
        self.b.op(Op::Select, I64, &[inside, r, zero])
    }

    /// `x >> s`, arithmetic, for any `s`.
    fn ashr_full(&mut self, x: Value, s: Value) -> Value {
        let lim = self.b.i64(63);
        let s = self.b.op(Op::Umin, I64, &[s, lim]);
        self.b.op(Op::Ashr, I64, &[x, s])
    }

    /// The bitfield instructions `bfi`, `bfeil`, `extr`, `shlhi`, `shrhi` (D, A, B, C, m):
    /// mask = m ? 2^m - 1 : 2^32 - 1, shift = c & 0x7f.
    fn bitfield(&mut self, name: &str) -> Result<(), LiftError> {
        let d = self.dst()?;
        let (sa, sb, sc) = (self.src("A")?, self.src("B")?, self.src("C")?);
        let a = self.int_src(sa, I64)?;
        let b = self.int_src(sb, I64)?;
        let sh = self.shift_amount(sc)?;
        let m = match self.operand("m") {
            Operand::Mask(m) => u64::from(m),
            _ => 0,
        };
        let mask = if m == 0 { 0xffff_ffff } else { (1u64 << m) - 1 };
        let mask_v = self.b.i64(mask);
        let r = match name {
            "bfi" => {
                // (a & ~(mask << sh)) | ((b & mask) << sh)
                let placed = self.shl_full(mask_v, sh);
                let keep = self.b.op(Op::Not, I64, &[placed]);
                let kept = self.b.op(Op::And, I64, &[a, keep]);
                let field = self.b.op(Op::And, I64, &[b, mask_v]);
                let field = self.shl_full(field, sh);
                self.b.op(Op::Or, I64, &[kept, field])
            }
            "bfeil" => {
                // (a & ~mask) | ((b >> sh) & mask), b's shift arithmetic (unbounded integers)
                let keep = self.b.i64(!mask);
                let kept = self.b.op(Op::And, I64, &[a, keep]);
                let field = self.ashr_full(b, sh);
                let field = self.b.op(Op::And, I64, &[field, mask_v]);
                self.b.op(Op::Or, I64, &[kept, field])
            }
            "extr" => {
                // ((b << 32) | a) >> sh & mask. The low 32 bits of the concatenation are a's;
                // above them, b's bits, or all ones when a is negative (sign-extended), and
                // past bit 63 copies of that part's sign.
                let lo_mask = self.b.i64(0xffff_ffff);
                let lo = self.b.op(Op::And, I64, &[a, lo_mask]);
                let zero = self.b.i64(0);
                let neg = self.b.op(Op::Icmp(IntCC::Slt), I1, &[a, zero]);
                let ones = self.b.i64(u64::MAX);
                let hi = self.b.op(Op::Select, I64, &[neg, ones, b]);
                let k32 = self.b.i64(32);
                let hi_placed = self.b.op(Op::Shl, I64, &[hi, k32]);
                let x = self.b.op(Op::Or, I64, &[hi_placed, lo]);
                let k63 = self.b.i64(63);
                let top = self.b.op(Op::Ashr, I64, &[hi, k63]);
                let low_part = self.lshr_full(x, sh);
                // Bits of `top` that reach the low 64 bits: top << (64 - sh) for sh in
                // 1..64, all of top from 64 on.
                let k64 = self.b.i64(64);
                let back = self.b.op(Op::Isub, I64, &[k64, sh]);
                let spill = self.shl_full(top, back);
                let is_zero = self.b.op(Op::Icmp(IntCC::Eq), I1, &[sh, zero]);
                let spill = self.b.op(Op::Select, I64, &[is_zero, zero, spill]);
                let past = self.b.op(Op::Icmp(IntCC::Uge), I1, &[sh, k64]);
                let spill = self.b.op(Op::Select, I64, &[past, top, spill]);
                let x = self.b.op(Op::Or, I64, &[low_part, spill]);
                self.b.op(Op::And, I64, &[x, mask_v])
            }
            "shlhi" => {
                // smask = mask << max(sh - 32, 0); (((b << sh) >> 32) & smask) | (a & ~smask)
                let k32 = self.b.i64(32);
                let zero = self.b.i64(0);
                let over = self.b.op(Op::Isub, I64, &[sh, k32]);
                let pos = self.b.op(Op::Smax, I64, &[over, zero]);
                let smask = self.shl_full(mask_v, pos);
                let small = self.b.op(Op::Icmp(IntCC::Ule), I1, &[sh, k32]);
                let down = self.b.op(Op::Isub, I64, &[k32, sh]);
                let down = self.b.op(Op::Select, I64, &[small, down, zero]);
                let right = self.b.op(Op::Ashr, I64, &[b, down]);
                let left = self.shl_full(b, pos);
                let v = self.b.op(Op::Select, I64, &[small, right, left]);
                self.merge_under(v, a, smask)
            }
            _ => {
                // shrhi: smask = (mask << 32) >> min(sh, 32);
                // (((b << 32) >> sh) & smask) | (a & ~smask)
                let k32 = self.b.i64(32);
                let up = self.b.op(Op::Shl, I64, &[mask_v, k32]);
                let s = self.b.op(Op::Umin, I64, &[sh, k32]);
                let smask = self.b.op(Op::Lshr, I64, &[up, s]);
                let b_up = self.b.op(Op::Shl, I64, &[b, k32]);
                let v = if sb.sx {
                    self.ashr_full(b_up, sh)
                } else {
                    self.lshr_full(b_up, sh)
                };
                self.merge_under(v, a, smask)
            }
        };
        self.write_gpr(d, r)
    }

    /// `(v & mask) | (a & !mask)`.
    fn merge_under(&mut self, v: Value, a: Value, mask: Value) -> Value {
        let field = self.b.op(Op::And, I64, &[v, mask]);
        let keep = self.b.op(Op::Not, I64, &[mask]);
        let kept = self.b.op(Op::And, I64, &[a, keep]);
        self.b.op(Op::Or, I64, &[field, kept])
    }

    /// `bitop`: the result bit for (a, b) is `tt[a + 2b]`. The tables 0011 and 1100, which
    /// would be `b` and `!b`, give `a` (applegpu.py HEAD's `exec_thread`, from its hardware
    /// tests).
    fn truth_table(&mut self, tt: [bool; 4], a: Value, b: Value, ty: ScalarType) -> Value {
        if tt == [false, false, true, true] || tt == [true, true, false, false] {
            return a;
        }
        // The tables of one bitwise op (Mesa's and, or, xor and their negations) as that op.
        let one = |s: &mut Self, op| s.b.op(op, ty, &[a, b]);
        let not = |s: &mut Self, v| s.b.op(Op::Not, ty, &[v]);
        match tt {
            [false, false, false, true] => return one(self, Op::And),
            [false, true, true, true] => return one(self, Op::Or),
            [false, true, true, false] => return one(self, Op::Xor),
            [true, true, true, false] => {
                let v = one(self, Op::And);
                return not(self, v);
            }
            [true, false, false, false] => {
                let v = one(self, Op::Or);
                return not(self, v);
            }
            [true, false, false, true] => {
                let v = one(self, Op::Xor);
                return not(self, v);
            }
            _ => {}
        }
        let na = self.b.op(Op::Not, ty, &[a]);
        let nb = self.b.op(Op::Not, ty, &[b]);
        let terms = [(na, nb), (a, nb), (na, b), (a, b)];
        let mut r = self.b.iconst(ty, 0);
        for (on, (x, y)) in tt.into_iter().zip(terms) {
            if on {
                let t = self.b.op(Op::And, ty, &[x, y]);
                r = self.b.op(Op::Or, ty, &[r, t]);
            }
        }
        r
    }

    /// Bits 0-15 of `x` moved to the even bit positions (`intl`'s interleave).
    fn spread_bits(&mut self, x: Value) -> Value {
        let m = self.b.i32(0xffff);
        let mut x = self.b.op(Op::And, I32, &[x, m]);
        for (shift, mask) in [
            (8, 0x00ff_00ffu32),
            (4, 0x0f0f_0f0f),
            (2, 0x3333_3333),
            (1, 0x5555_5555),
        ] {
            let s = self.b.i32(shift);
            let up = self.b.op(Op::Shl, I32, &[x, s]);
            let or = self.b.op(Op::Or, I32, &[x, up]);
            let m = self.b.i32(mask);
            x = self.b.op(Op::And, I32, &[or, m]);
        }
        x
    }
}
