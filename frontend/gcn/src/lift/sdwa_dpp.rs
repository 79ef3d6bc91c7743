//! SDWA sub-dword selects and DPP lane permutations (gfx8/gfx9; CLRX doc/GcnSdwaDpp.md).
//!
//! SDWA: a source select (BYTE_0..3, WORD_0/1, DWORD) extracts a field of the 32-bit register
//! and zero- or (with `sext`) sign-extends it to 32 bits before the op reads it in its own type.
//! The destination select places the result's low bits in the chosen field; the other bits
//! are 0 (UNUSED_PAD), the field's sign (UNUSED_SEXT, above the field only) or the old register
//! bits (UNUSED_PRESERVE).
//!
//! DPP: lane `l` reads src0 (a VGPR) of lane `src(l)` computed from the control. A source
//! lane outside the row/wave or not in EXEC is invalid: with `bound_ctrl` set the lane reads 0,
//! otherwise lane `l` is not written. Lanes whose row is not in `row_mask` or whose bank
//! (`(l & 15) >> 2`) is not in `bank_mask` are not written.
use super::{LiftError, Lifter};
use crate::inst::{Inst, Opnd};
use wavejit_ir::{IntCC, Op, ScalarType, Value};
use ScalarType::*;

/// (shift, width) of an SDWA select.
fn sel_field(sel: u8) -> (u32, u32) {
    match sel {
        0..=3 => (8 * sel as u32, 8),
        4 => (0, 16),
        5 => (16, 16),
        _ => (0, 32),
    }
}

/// For a DPP control: per-lane source lane (as a function of the lane id) and the static
/// validity of each lane's source within its row / the wave.
fn dpp_sources(ctrl: u16) -> ([u32; 64], u64) {
    let mut src = [0u32; 64];
    let mut valid = 0u64;
    for l in 0..64u32 {
        let row = l & !15;
        let r = l & 15;
        let s: Option<u32> = match ctrl {
            0x000..=0x0ff => Some((l & !3) | ((ctrl as u32 >> (2 * (l & 3))) & 3)),
            0x101..=0x10f => {
                let n = (ctrl & 0xf) as u32;
                (r + n < 16).then_some(l + n)
            }
            0x111..=0x11f => {
                let n = (ctrl & 0xf) as u32;
                (r >= n).then(|| l - n)
            }
            0x121..=0x12f => {
                let n = (ctrl & 0xf) as u32;
                Some(row | ((r + 16 - n) & 15))
            }
            0x130 => (l < 63).then_some(l + 1),
            0x134 => Some((l + 1) & 63),
            0x138 => (l > 0).then(|| l - 1),
            0x13c => Some((l + 63) & 63),
            0x140 => Some(row | (15 - r)),
            0x141 => Some((l & !7) | (7 - (l & 7))),
            0x142 => (l >= 16).then(|| row - 1),
            0x143 => (l >= 32).then_some(31),
            _ => None,
        };
        if let Some(s) = s {
            src[l as usize] = s;
            valid |= 1 << l;
        }
    }
    (src, valid)
}

impl Lifter<'_> {
    pub(crate) fn sdwa_src(
        &mut self,
        inst: &Inst,
        i: usize,
        o: Opnd,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        let s = inst.sdwa.unwrap_or_default();
        let sel = if i == 0 { s.src0_sel } else { s.src1_sel };
        let sext = s.sext & (1 << i) != 0;
        let w = self.read_operand(inst, o.value, I32)?;
        let (sh, width) = sel_field(sel);
        let v = if width == 32 {
            w
        } else {
            let ks = self.b.i32(sh);
            let kw = self.b.i32(width);
            self.b
                .op(if sext { Op::Sbfe } else { Op::Ubfe }, I32, &[w, ks, kw])
        };
        Ok(self.cast(v, ty))
    }

    pub(crate) fn sdwa_dst(&mut self, inst: &Inst, n: u32, w: Value) -> Result<Value, LiftError> {
        let s = inst.sdwa.unwrap_or_default();
        let (sh, width) = sel_field(s.dst_sel);
        if width == 32 {
            return Ok(w);
        }
        let fm = (1u32 << width) - 1;
        let kfm = self.b.i32(fm);
        let field = self.b.op(Op::And, I32, &[w, kfm]);
        let ksh = self.b.i32(sh);
        let placed = self.b.op(Op::Shl, I32, &[field, ksh]);
        Ok(match s.dst_unused {
            1 => {
                // Sign-extend above the field: shift the field to the top, then back down.
                let up = self.b.i32(32 - width);
                let down = self.b.i32(32 - width - sh);
                let t = self.b.op(Op::Shl, I32, &[field, up]);
                self.b.op(Op::Ashr, I32, &[t, down])
            }
            2 => {
                let old = self.read_vgpr(inst, n, I32)?;
                let keep = self.b.i32(!(fm << sh));
                let o = self.b.op(Op::And, I32, &[old, keep]);
                self.b.op(Op::Or, I32, &[o, placed])
            }
            _ => placed,
        })
    }

    pub(crate) fn dpp_src(
        &mut self,
        inst: &Inst,
        o: Opnd,
        ty: ScalarType,
    ) -> Result<Value, LiftError> {
        let d = inst.dpp.unwrap_or_default();
        let (_, valid) = dpp_sources(d.ctrl);
        if valid == 0 && d.ctrl != 0x143 {
            return Err(self.invalid(inst, format!("DPP control {:#x}", d.ctrl)));
        }
        let crate::inst::Operand::Vgpr(n) = o.value else {
            return Err(self.invalid(inst, "DPP source is not a VGPR"));
        };
        let v = self.read_vgpr(inst, n as u32, I32)?;
        let src = self.dpp_lane_index(d.ctrl);
        let src = self.b.splat(src);
        let shuffled = self.b.shuffle(v, src);
        // Validity: the static row/wave rule and the source lane's EXEC bit.
        let e = self.exec_mask();
        let one = self.b.i32(1);
        let zero = self.b.i32(0);
        let e32 = self.b.op(Op::Select, I32, &[e, one, zero]);
        let se = self.b.shuffle(e32, src);
        let se = self.b.op(Op::Icmp(IntCC::Ne), I1, &[se, zero]);
        let kv = self.b.i64(valid);
        let sv = self.b.mask_from_bits(kv);
        let ok = self.b.op(Op::And, I1, &[sv, se]);
        let mut rowbank = 0u64;
        for l in 0..64u32 {
            if d.row_mask & (1 << (l / 16)) != 0 && d.bank_mask & (1 << ((l & 15) >> 2)) != 0 {
                rowbank |= 1 << l;
            }
        }
        let krb = self.b.i64(rowbank);
        let rb = self.b.mask_from_bits(krb);
        let value = if d.bound_ctrl {
            self.dpp_write = Some(rb);
            let zero = self.b.i32(0);
            self.b.op(Op::Select, I32, &[ok, shuffled, zero])
        } else {
            let m = self.b.op(Op::And, I1, &[rb, ok]);
            self.dpp_write = Some(m);
            shuffled
        };
        Ok(self.cast(value, ty))
    }

    /// The per-lane source index of a DPP control as a lane i32 value, built from the lane id
    /// (only lanes [`dpp_sources`] marks valid are used).
    fn dpp_lane_index(&mut self, ctrl: u16) -> Value {
        let l = self.b.lane_id();
        let k = |s: &mut Self, v: u32| s.b.i32(v);
        match ctrl {
            0x000..=0x0ff => {
                // (l & ~3) | ((ctrl >> (2 * (l & 3))) & 3)
                let m3 = k(self, 3);
                let q = self.b.op(Op::And, I32, &[l, m3]);
                let q2 = self.b.op(Op::Iadd, I32, &[q, q]);
                let kc = k(self, ctrl as u32);
                let sel = self.b.op(Op::Lshr, I32, &[kc, q2]);
                let sel = self.b.op(Op::And, I32, &[sel, m3]);
                let hi = k(self, !3);
                let base = self.b.op(Op::And, I32, &[l, hi]);
                self.b.op(Op::Or, I32, &[base, sel])
            }
            0x121..=0x12f | 0x140 | 0x141 | 0x142 | 0x143 | 0x134 | 0x13c => match ctrl {
                0x140 | 0x141 => {
                    let m = if ctrl == 0x140 { 15 } else { 7 };
                    let km = k(self, m);
                    self.b.op(Op::Xor, I32, &[l, km])
                }
                0x142 => {
                    let hi = k(self, !15);
                    let base = self.b.op(Op::And, I32, &[l, hi]);
                    let one = k(self, 1);
                    self.b.op(Op::Isub, I32, &[base, one])
                }
                0x143 => k(self, 31),
                0x134 | 0x13c => {
                    let d = k(self, if ctrl == 0x134 { 1 } else { 63 });
                    let s = self.b.op(Op::Iadd, I32, &[l, d]);
                    let m = k(self, 63);
                    self.b.op(Op::And, I32, &[s, m])
                }
                _ => {
                    let n = (ctrl & 0xf) as u32;
                    let d = k(self, 16 - n);
                    let s = self.b.op(Op::Iadd, I32, &[l, d]);
                    let m = k(self, 15);
                    let r = self.b.op(Op::And, I32, &[s, m]);
                    let hi = k(self, !15);
                    let base = self.b.op(Op::And, I32, &[l, hi]);
                    self.b.op(Op::Or, I32, &[base, r])
                }
            },
            _ => {
                // Shifts within a row or the wave: l + delta (lanes without a source are
                // masked by the validity table).
                let n = (ctrl & 0xf) as u32;
                let delta = match ctrl {
                    0x101..=0x10f => n,
                    0x111..=0x11f => n.wrapping_neg(),
                    0x130 => 1,
                    _ => u32::MAX,
                };
                let d = k(self, delta);
                self.b.op(Op::Iadd, I32, &[l, d])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::dpp_sources;

    #[test]
    fn dpp_tables_follow_the_row_rules() {
        // row_shl:1 — lane 0 reads lane 1; lane 15 has no source in its row.
        let (s, v) = dpp_sources(0x101);
        assert_eq!(s[0], 1);
        assert_eq!(v & (1 << 15), 0);
        // row_shr:2 — lane 18 reads lane 16; lanes 16, 17 invalid.
        let (s, v) = dpp_sources(0x112);
        assert_eq!(s[18], 16);
        assert_eq!(v & (3 << 16), 0);
        // row_ror:1 — lane 16 reads lane 31.
        let (s, _) = dpp_sources(0x121);
        assert_eq!(s[16], 31);
        // quad_perm:[1,0,3,2] (0b10_11_00_01 = 0xb1) — lane 4 reads lane 5.
        let (s, v) = dpp_sources(0xb1);
        assert_eq!((s[4], s[5], s[6], s[7]), (5, 4, 7, 6));
        assert_eq!(v, u64::MAX);
        // row_bcast:15 — lane 16..31 read lane 15; row 0 invalid.
        let (s, v) = dpp_sources(0x142);
        assert_eq!(s[20], 15);
        assert_eq!(v & 0xffff, 0);
    }
}
