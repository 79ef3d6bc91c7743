//! Accesses whose address is read from a register's row ([`crate::row_address`]).
//!
//! With every lane acting, the row is tested for the two shapes a vector path takes:
//! consecutive words (`x(l) = x(0) + l * 4 >> shift`, the row's 32-bit sums not wrapping) and,
//! for a direct load, one word for every lane. Either way the access's whole span is checked
//! against the window as on the slot paths, and the access runs without its address slot.
//! Anything else fills the address slot with every lane's 64-bit address, exactly what the
//! folded chain computes, and continues on the slot paths, which own the gather, the lane
//! loops and the helper.

use super::{Emitter, Opnd, Window, R, SLOT_BYTES};
use crate::row_address::RowAddress;
use crate::vals::{interleave, mem, vconst};
use cranelift_codegen::ir::{condcodes::IntCC as CIntCC, types::*, Block, InstBuilder, Value};

/// What the vector path of a folded access does once its span checks out.
pub(super) enum RowAccess {
    /// A load: into register `direct`'s row when it writes one, else into the result slot at
    /// `out_at`, `packed` or not ([`crate::plan::Plan::packed`]).
    Load {
        direct: Option<wavejit_ir::Reg>,
        out_at: i64,
        packed: bool,
    },
    /// A store of this value.
    Store(Opnd),
}

impl Emitter<'_, '_> {
    /// Access `i`'s vector paths from its row address `ra` (window `w`, IR mask `mask`), on to
    /// `done` when one runs; then, where the code continues, its address slot filled if
    /// `fill_slot` (the slot paths follow) or not (a path that reads the row follows, and the
    /// helper's path fills the slot itself).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn row_access(
        &mut self,
        i: usize,
        ra: &RowAddress,
        w: &Window,
        mask: Option<wavejit_ir::Value>,
        access: RowAccess,
        done: Block,
        fill_slot: bool,
    ) -> R<()> {
        let a_slot = self.row_slot(i)?;
        let off = self.row_offset(ra)?;
        let base = self.row_base(ra)?;
        let fill = self.b.create_block();
        let all_act = match mask {
            None => None,
            Some(m) => Some(self.full_mask(Some(m))?),
        };
        match all_act {
            Some(None) => {
                self.b.ins().jump(fill, &[]);
            }
            all_act => {
                if let Some(Some(full)) = all_act {
                    let go = self.b.create_block();
                    self.b.ins().brif(full, go, &[], fill, &[]);
                    self.b.switch_to_block(go);
                }
                self.row_vector(ra, w, off, base, &access, fill, done);
            }
        }
        self.b.switch_to_block(fill);
        if fill_slot {
            self.fill_address_slot(ra, off, base, a_slot);
        }
        Ok(())
    }

    /// Fills the address slot of access `i` if its address is read from a row: the access
    /// then runs on its helper, which reads the slot.
    pub(in crate::emit) fn row_address_slot(&mut self, i: usize) -> R<()> {
        let Some(ra) = &self.plan.row_address[i] else {
            return Ok(());
        };
        let a_slot = self.row_slot(i)?;
        let off = self.row_offset(ra)?;
        let base = self.row_base(ra)?;
        self.fill_address_slot(ra, off, base, a_slot);
        Ok(())
    }

    /// The address slot of access `i`.
    fn row_slot(&self, i: usize) -> R<u32> {
        let addr = match self.blk.insts[i].kind {
            wavejit_ir::InstKind::Load { addr, .. } | wavejit_ir::InstKind::Store { addr, .. } => {
                addr
            }
            _ => return Err(format!("%{i} has no row address")),
        };
        self.plan.slot[addr.index()].ok_or_else(|| "row address without a slot".into())
    }

    /// The vector paths with every lane acting; `fill` when none applies.
    #[allow(clippy::too_many_arguments)]
    fn row_vector(
        &mut self,
        ra: &RowAddress,
        w: &Window,
        off: Option<Value>,
        base: Value,
        access: &RowAccess,
        fill: Block,
        done: Block,
    ) {
        let ws = i64::from(self.layout.wave_size);
        let step = 4i64 >> ra.shift;
        let rows = self.address_rows(ra);
        let x0 = self.row_word(rows.0, off);
        let xl = self.row_word(rows.0 + 4 * (ws as i32 - 1), off);
        let hi = rows.1.map(|h| {
            let first = self.row_word(h, None);
            let last = self.row_word(h + 4 * (ws as i32 - 1), None);
            (h, first, self.b.ins().icmp(CIntCC::Equal, last, first))
        });
        let want = self.b.ins().iadd_imm_s(x0, step * (ws - 1));
        let mut cons = self.b.ins().icmp(CIntCC::Equal, xl, want);
        if let Some((_, _, hi_same)) = hi {
            cons = self.b.ins().band(cons, hi_same);
        }
        let (consecutive, other) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(cons, consecutive, &[], other, &[]);

        // Consecutive words: the low row steps without wrapping past 2^32 (so without a carry
        // into a wide register's high half), the high row is one value.
        self.b.switch_to_block(consecutive);
        let mut every = self.row_all(rows.0, off, x0, step);
        if let Some((h, h0, _)) = hi {
            let same = self.row_all(h, None, h0, 0);
            every = self.b.ins().band(every, same);
        }
        let no_wrap = self.b.ins().icmp_imm_u(
            CIntCC::UnsignedLessThanOrEqual,
            x0,
            (u32::MAX as i64) - step * (ws - 1),
        );
        let a0 = self.row_lane_address(ra, x0, hi.map(|h| h.1), base);
        let (inside, host) = self.span_checked(w, a0);
        let ok = self.b.ins().band(every, no_wrap);
        let ok = self.b.ins().band(ok, inside);
        let ok = self.b.ins().band(ok, w.fits);
        let copy = self.b.create_block();
        self.b.ins().brif(ok, copy, &[], fill, &[]);
        self.b.switch_to_block(copy);
        match *access {
            RowAccess::Load {
                direct: Some(reg), ..
            } => self.copy_consecutive_row(host, reg),
            RowAccess::Load {
                direct: None,
                out_at,
                packed: true,
            } => self.copy_consecutive_packed(host, out_at),
            RowAccess::Load {
                direct: None,
                out_at,
                packed: false,
            } => self.copy_consecutive(host, None, out_at),
            RowAccess::Store(v) => {
                for c in 0..ws / 4 {
                    let packed = self.packed_chunk(v, c);
                    self.b.ins().store(mem(), packed, host, (16 * c) as i32);
                }
            }
        }
        self.b.ins().jump(done, &[]);

        // One word for every lane: one load into a direct load's row.
        self.b.switch_to_block(other);
        let RowAccess::Load {
            direct: Some(reg), ..
        } = *access
        else {
            self.b.ins().jump(fill, &[]);
            return;
        };
        let mut same = self.b.ins().icmp(CIntCC::Equal, xl, x0);
        if let Some((_, _, hi_same)) = hi {
            same = self.b.ins().band(same, hi_same);
        }
        let check = self.b.create_block();
        self.b.ins().brif(same, check, &[], fill, &[]);
        self.b.switch_to_block(check);
        let mut every = self.row_all(rows.0, off, x0, 0);
        if let Some((h, h0, _)) = hi {
            let same = self.row_all(h, None, h0, 0);
            every = self.b.ins().band(every, same);
        }
        let a0 = self.row_lane_address(ra, x0, hi.map(|h| h.1), base);
        let (inside, host) = self.checked(w, a0, None);
        let ok = self.b.ins().band(every, inside);
        let ok = self.b.ins().band(ok, w.fits);
        let load = self.b.create_block();
        self.b.ins().brif(ok, load, &[], fill, &[]);
        self.b.switch_to_block(load);
        let v = self.b.ins().load(I32, mem(), host, 0);
        let v = self.b.ins().splat(I32X4, v);
        let dst = self.row_off(reg);
        for c in 0..ws / 4 {
            self.b
                .ins()
                .store(mem(), v, self.state, dst + 16 * c as i32);
        }
        self.b.ins().jump(done, &[]);
    }

    /// The sum of the row address's 32-bit offsets (`None` without any).
    pub(super) fn row_offset(&mut self, ra: &RowAddress) -> R<Option<Value>> {
        let mut sum = None;
        for &o in &ra.offsets {
            let o = self.u(o)?;
            sum = Some(match sum {
                Some(s) => self.b.ins().iadd(s, o),
                None => o,
            });
        }
        Ok(sum)
    }

    /// The sum of the row address's 64-bit bases.
    fn row_base(&mut self, ra: &RowAddress) -> R<Value> {
        let mut sum = self.b.ins().iconst(I64, 0);
        for &t in &ra.bases {
            let t = self.u(t)?;
            sum = self.b.ins().iadd(sum, t);
        }
        Ok(sum)
    }

    /// The row's word at state offset `at` plus the offsets' sum.
    fn row_word(&mut self, at: i32, off: Option<Value>) -> Value {
        let x = self.b.ins().load(I32, mem(), self.state, at);
        match off {
            Some(o) => self.b.ins().iadd(x, o),
            None => x,
        }
    }

    /// The row's 4-lane chunk `c` plus the offsets' sum.
    fn row_chunk(&mut self, row: i32, c: Value, off: Option<Value>) -> Value {
        let at = self.b.ins().ishl_imm_u(c, 4);
        let p = self.b.ins().iadd(self.state, at);
        let x = self.b.ins().load(I32X4, mem(), p, row);
        match off {
            Some(o) => {
                let o = self.b.ins().splat(I32X4, o);
                self.b.ins().iadd(x, o)
            }
            None => x,
        }
    }

    /// Whether lane `l` of the row (plus the offsets) is `x0 + step * l` for every lane (an
    /// `i8` truth value; 32-bit sums). Adding the offsets' sum to every lane keeps lanes
    /// equal or apart by the same amount modulo 2^32, so the raw row is compared with
    /// `x0 - off`, from a running vector a chunk's step further each chunk: no add of the
    /// offsets and no constant per chunk (sixteen constants a row outlived the registers and
    /// went to the stack).
    fn row_all(&mut self, row: i32, off: Option<Value>, x0: Value, step: i64) -> Value {
        let first = match off {
            Some(o) => self.b.ins().isub(x0, o),
            None => x0,
        };
        let mut k = [0u8; 16];
        for (j, w) in k.chunks_mut(4).enumerate() {
            w.copy_from_slice(&((j as i64 * step) as u32).to_le_bytes());
        }
        // Four running vectors, chunks c, c+1, c+2 and c+3, each four chunks a step: four
        // short chains of adds instead of one long one.
        let k = vconst(&mut self.b, I32X4, k);
        let first = self.b.ins().splat(I32X4, first);
        let first = self.b.ins().iadd(first, k);
        let step_of = |e: &mut Self, chunks: i64| {
            let s = e.b.ins().iconst(I32, 4 * step * chunks);
            e.b.ins().splat(I32X4, s)
        };
        let four = step_of(self, 4);
        let mut want: Vec<Value> = vec![first];
        for j in 1..4 {
            let s = step_of(self, j);
            want.push(self.b.ins().iadd(first, s));
        }
        let mut pairs = Vec::new();
        for c in 0..i64::from(self.layout.wave_size) / 4 {
            let ci = self.b.ins().iconst(I64, c);
            let v = self.row_chunk(row, ci, None);
            let j = (c % 4) as usize;
            pairs.push((v, want[j]));
            want[j] = self.b.ins().iadd(want[j], four);
        }
        self.every_lane(CIntCC::Equal, pairs, false)
    }

    /// The state offsets of the address register's rows: the low (or only) row and a wide
    /// register's high row.
    fn address_rows(&self, ra: &RowAddress) -> (i32, Option<i32>) {
        let high = wavejit_ir::Reg::new(ra.reg.file, ra.reg.index + 1);
        (self.row_off(ra.reg), ra.wide.then(|| self.row_off(high)))
    }

    /// The 64-bit address of a lane whose row word plus offsets is `x` (and whose high row
    /// holds `hi`, for a wide register).
    fn row_lane_address(
        &mut self,
        ra: &RowAddress,
        x: Value,
        hi: Option<Value>,
        base: Value,
    ) -> Value {
        let mut x = self.b.ins().uextend(I64, x);
        if let Some(hi) = hi {
            let hi = self.b.ins().uextend(I64, hi);
            let hi = self.b.ins().ishl_imm_u(hi, 32);
            x = self.b.ins().bor(x, hi);
        }
        let x = self.b.ins().ishl_imm_u(x, i64::from(ra.shift));
        self.b.ins().iadd(base, x)
    }

    /// Slot `a_slot` takes every lane's address, as the folded chain computes it.
    fn fill_address_slot(&mut self, ra: &RowAddress, off: Option<Value>, base: Value, a_slot: u32) {
        let rows = self.address_rows(ra);
        let done = self.b.create_block();
        let base = self.b.ins().splat(I64X2, base);
        self.each_chunk(done, |e, c| {
            let x = e.row_chunk(rows.0, c, off);
            let halves = match rows.1 {
                Some(h) => {
                    let hi = e.row_chunk(h, c, None);
                    let (p0, p1) = interleave(&mut e.b, x, hi);
                    [p0, p1]
                }
                None => [e.b.ins().uwiden_low(x), e.b.ins().uwiden_high(x)],
            };
            let at = e.b.ins().ishl_imm_u(c, 5);
            let p = e.b.ins().iadd(e.scratch, at);
            for (h, half) in halves.into_iter().enumerate() {
                let half = e.b.ins().ishl_imm_u(half, i64::from(ra.shift));
                let a = e.b.ins().iadd(base, half);
                let at = a_slot as i64 * SLOT_BYTES + 16 * h as i64;
                e.b.ins().store(mem(), a, p, at as i32);
            }
        });
        self.b.switch_to_block(done);
    }
}
