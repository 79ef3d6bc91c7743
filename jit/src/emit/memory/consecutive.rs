//! The consecutive-address fast path of 32-bit lane loads and stores (see the parent module's
//! doc): the tests that every lane addresses `a0 + 4 * l` inside the window, the vector copy,
//! and the scalar test that stands for a mask slot of a full execution mask.

use super::{Emitter, Window, R, SLOT_BYTES};
use crate::vals::{mem, vconst};
use cranelift_codegen::ir::{condcodes::IntCC as CIntCC, types::*, InstBuilder, Value};
use wavejit_ir::InstKind;

impl Emitter<'_, '_> {
    /// Lane 0's address of slot `s`, after a cheap test that sends the code to `lanes` unless
    /// the last lane's address is `a0 + 4 * (wave size - 1)` (so the full check of
    /// [`Self::consecutive`] runs only for accesses likely to pass it).
    pub(super) fn quick_consecutive(
        &mut self,
        s: u32,
        lanes: cranelift_codegen::ir::Block,
    ) -> Value {
        self.quick_strided(s, 4, lanes)
    }

    /// [`Self::quick_consecutive`] for addresses `step` bytes apart (0: every lane's the same).
    pub(super) fn quick_strided(
        &mut self,
        s: u32,
        step: i64,
        lanes: cranelift_codegen::ir::Block,
    ) -> Value {
        let ws = i64::from(self.layout.wave_size);
        let at = s as i64 * SLOT_BYTES;
        let a0 = self.b.ins().load(I64, mem(), self.scratch, at as i32);
        let last = self
            .b
            .ins()
            .load(I64, mem(), self.scratch, (at + 8 * (ws - 1)) as i32);
        let want = self.b.ins().iadd_imm_s(a0, step * (ws - 1));
        let likely = self.b.ins().icmp(CIntCC::Equal, last, want);
        let full = self.b.create_block();
        self.b.ins().brif(likely, full, &[], lanes, &[]);
        self.b.switch_to_block(full);
        a0
    }

    /// Whether lane `l` of slot `s` holds `a0 + 4 * l` for every lane (an `i8` truth value).
    pub(super) fn consecutive(&mut self, s: u32, a0: Value) -> Value {
        self.strided(s, a0, 4)
    }

    /// Whether lane `l` of slot `s` holds `a0 + step * l` for every lane (an `i8` truth
    /// value).
    pub(super) fn strided(&mut self, s: u32, a0: Value, step: u64) -> Value {
        let base = self.b.ins().splat(I64X2, a0);
        let mut pairs = Vec::new();
        for c in 0..self.layout.wave_size as u64 / 2 {
            let at = s as i64 * SLOT_BYTES + 16 * c as i64;
            let v = self.b.ins().load(I64X2, mem(), self.scratch, at as i32);
            let mut k = [0u8; 16];
            k[..8].copy_from_slice(&(2 * step * c).to_le_bytes());
            k[8..].copy_from_slice(&(2 * step * c + step).to_le_bytes());
            let k = vconst(&mut self.b, I64X2, k);
            pairs.push((v, self.b.ins().iadd(base, k)));
        }
        self.every_lane(CIntCC::Equal, pairs, false)
    }

    /// When every lane of slot `s` holds the same address (else on to `other`): that
    /// address, whether it lies in window `w`, and its host address.
    pub(super) fn one_address(
        &mut self,
        w: &super::Window,
        s: u32,
        other: cranelift_codegen::ir::Block,
    ) -> (Value, Value, Value) {
        let a0 = self.quick_strided(s, 0, other);
        let same = self.strided(s, a0, 0);
        let check = self.b.create_block();
        self.b.ins().brif(same, check, &[], other, &[]);
        self.b.switch_to_block(check);
        let (ok, host) = self.checked(w, a0, None);
        (a0, ok, host)
    }

    /// Whether the span of a consecutive 32-bit access starting at `a0` lies in the window,
    /// and its host address.
    pub(super) fn span_checked(&mut self, w: &Window, a0: Value) -> (Value, Value) {
        let span = 4 * i64::from(self.layout.wave_size);
        // `last` is `hi - 4`; the span's last dword starts at `a0 + span - 4`.
        let end_ok = {
            let a = if w.offset32 {
                self.b.ins().band_imm_u(a0, 0xffff_ffff)
            } else {
                a0
            };
            let lastw = self.b.ins().iadd_imm_s(w.last, -(span - 4));
            let room = self.b.ins().isub(w.last, w.lo);
            let fits = self
                .b
                .ins()
                .icmp_imm_u(CIntCC::UnsignedGreaterThanOrEqual, room, span - 4);
            let below = self.b.ins().icmp(CIntCC::UnsignedLessThanOrEqual, a, lastw);
            self.b.ins().band(fits, below)
        };
        let (start_ok, host) = self.checked(w, a0, None);
        (self.b.ins().band(end_ok, start_ok), host)
    }

    /// Whether every lane of mask slot `s` is on.
    pub(super) fn all_on(&mut self, s: u32) -> Value {
        let zero = vconst(&mut self.b, I64X2, [0; 16]);
        let mut pairs = Vec::new();
        for c in 0..self.layout.wave_size as i64 / 2 {
            let at = s as i64 * SLOT_BYTES + 16 * c;
            pairs.push((
                self.b.ins().load(I64X2, mem(), self.scratch, at as i32),
                zero,
            ));
        }
        self.every_lane(CIntCC::NotEqual, pairs, true)
    }

    /// The wave's consecutive 32-bit lanes at host address `host` into the packed slot at
    /// `out_at` ([`crate::plan::Plan::packed`]), every lane acting.
    pub(super) fn copy_consecutive_packed(&mut self, host: Value, out_at: i64) {
        for c in 0..i64::from(self.layout.wave_size) / 4 {
            let v = self.b.ins().load(I32X4, mem(), host, (16 * c) as i32);
            self.b
                .ins()
                .store(mem(), v, self.scratch, (out_at + 16 * c) as i32);
        }
    }

    /// The consecutive 32-bit lanes at host address `host` into the slot at `out_at`, zero in
    /// the lanes mask slot `ms` leaves out.
    pub(super) fn copy_consecutive(&mut self, host: Value, ms: Option<u32>, out_at: i64) {
        for c in 0..i64::from(self.layout.wave_size) / 4 {
            let v = self.b.ins().load(I32X4, mem(), host, (16 * c) as i32);
            let mut halves = [self.b.ins().uwiden_low(v), self.b.ins().uwiden_high(v)];
            for (h, half) in halves.iter_mut().enumerate() {
                let at = 32 * c + 16 * h as i64;
                if let Some(ms) = ms {
                    let m = self.b.ins().load(
                        I64X2,
                        mem(),
                        self.scratch,
                        (ms as i64 * SLOT_BYTES + at) as i32,
                    );
                    let all = self.b.ins().ineg(m);
                    *half = self.b.ins().band(*half, all);
                }
                self.b
                    .ins()
                    .store(mem(), *half, self.scratch, (out_at + at) as i32);
            }
        }
    }

    /// For a mask `MaskFromBits(u)` whose uniform `u` this block has computed: whether `u`
    /// has every lane of the wave set (an `i8` truth value), a scalar test that stands for a
    /// look at every lane of the mask's slot.
    pub(super) fn full_mask(&mut self, mask: Option<wavejit_ir::Value>) -> R<Option<Value>> {
        let Some((on, lanes)) = mask.and_then(|m| self.mask_bits(m)) else {
            return Ok(None);
        };
        Ok(Some(self.b.ins().icmp_imm_u(CIntCC::Equal, on, lanes)))
    }

    /// For a mask `MaskFromBits(u)` whose uniform `u` this block has computed: `u`'s bits of
    /// the wave's lanes (`i64`), and what they are with every lane set.
    pub(super) fn mask_bits(&mut self, m: wavejit_ir::Value) -> Option<(Value, i64)> {
        let InstKind::MaskFromBits(u) = self.blk.insts.get(m.index())?.kind else {
            return None;
        };
        let u = self.u(u).ok()?;
        let u = if self.b.func.dfg.value_type(u) == I64 {
            u
        } else {
            self.b.ins().uextend(I64, u)
        };
        let ws = self.layout.wave_size;
        let lanes = if ws >= 64 {
            -1
        } else {
            ((1u64 << ws) - 1) as i64
        };
        Some((self.b.ins().band_imm_u(u, lanes), lanes))
    }
}
