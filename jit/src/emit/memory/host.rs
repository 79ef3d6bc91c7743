//! Lane loads and stores with per-lane addresses run by one call of host code for the wave
//! ([`crate::gather`], [`crate::scatter`]): the calls' arguments from the window and the slots.

use super::{Emitter, LoadLane, Window, R, SLOT_BYTES};
use crate::gather::{gather_fn, gather_row_fn};
use crate::offset_gather::{offset_gather_fn, offset_gather_packed_fn, offset_gather_row_fn};
use crate::row_address::RowAddress;
use crate::scatter::scatter_fn;
use cranelift_codegen::ir::{types::*, Block, InstBuilder, SigRef, Value};
use wavejit_ir::MemWidth;

/// What both calls take from the window and the slots.
struct Common {
    /// The window's base, bounds and address cut.
    base: Value,
    lo: Value,
    last: Value,
    cut: Value,
    /// The address and mask slots (the mask null when no lane needs a look at it).
    addrs: Value,
    mask: Value,
    lanes: Value,
    stride: Value,
}

impl Emitter<'_, '_> {
    /// The lanes of a load with per-lane addresses (slot `a_slot`) and no mask or a lane mask
    /// (slot `ms`; `full` when it is known to have every lane on), by one call of the host
    /// gather ([`crate::gather`]); a lane failing its check sends the instruction to
    /// `ld.slow`.
    pub(super) fn gather(
        &mut self,
        w: &Window,
        a_slot: u32,
        ms: Option<u32>,
        full: Option<Value>,
        ld: &LoadLane,
    ) -> R<()> {
        let f = gather_fn(ld.width.bytes(), ld.signed, w.stride.is_some()) as usize;
        let c = self.common(w, a_slot, ms, full);
        let out = self.b.ins().iadd_imm_s(self.scratch, ld.out_at);
        let ty_mask = if ld.ty.bits() >= 64 {
            -1
        } else {
            ld.ty.bit_mask() as i64
        };
        let ty_mask = self.b.ins().iconst(I64, ty_mask);
        let args = [
            c.base, c.lo, c.last, c.cut, c.addrs, c.mask, out, ty_mask, c.lanes, c.stride,
        ];
        self.call_or(self.sig_gather, f, &args, ld.slow);
        Ok(())
    }

    /// [`Self::gather`] of 32-bit lanes straight into `reg`'s row, the acting lanes only (the
    /// register write of a direct load, [`crate::gather::gather_row_fn`]); a lane failing its
    /// check sends the instruction to `slow` with the row untouched.
    pub(super) fn gather_into_row(
        &mut self,
        w: &Window,
        a_slot: u32,
        ms: Option<u32>,
        full: Option<Value>,
        reg: wavejit_ir::Reg,
        slow: Block,
    ) {
        let f = gather_row_fn(w.stride.is_some()) as usize;
        let c = self.common(w, a_slot, ms, full);
        let row = i64::from(self.row_off(reg));
        let out = self.b.ins().iadd_imm_s(self.state, row);
        let unused = self.b.ins().iconst(I64, 0);
        let args = [
            c.base, c.lo, c.last, c.cut, c.addrs, c.mask, out, unused, c.lanes, c.stride,
        ];
        self.call_or(self.sig_gather, f, &args, slow);
    }

    /// The lanes of a store with per-lane addresses and values (slots `a_slot`, `v_slot`)
    /// and no mask or a lane mask (slot `ms`; `full` when it is known to have every lane on),
    /// by one call of the host scatter ([`crate::scatter`]); a lane failing its check sends
    /// the instruction to `slow` with nothing written.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn scatter(
        &mut self,
        w: &Window,
        width: MemWidth,
        a_slot: u32,
        v_slot: u32,
        ms: Option<u32>,
        full: Option<Value>,
        slow: Block,
    ) -> R<()> {
        let f = scatter_fn(width.bytes()) as usize;
        let c = self.common(w, a_slot, ms, full);
        let values = self
            .b
            .ins()
            .iadd_imm_s(self.scratch, v_slot as i64 * SLOT_BYTES);
        let args = [
            c.base, c.lo, c.last, c.cut, c.addrs, c.mask, values, c.lanes, c.stride,
        ];
        self.call_or(self.sig_scatter, f, &args, slow);
        Ok(())
    }

    /// The mask argument of a host call: mask slot `ms`'s address, null without one or when
    /// `full` finds every lane on (the routine need not read it then).
    fn mask_arg(&mut self, ms: Option<u32>, full: Option<Value>) -> Value {
        let null = self.b.ins().iconst(I64, 0);
        let mask = match ms {
            Some(s) => self.b.ins().iadd_imm_s(self.scratch, s as i64 * SLOT_BYTES),
            None => null,
        };
        match full {
            Some(full) => self.b.ins().select(full, null, mask),
            None => mask,
        }
    }

    /// A 32-bit lane load whose address is a register row plus offsets (`ra`, a `bits32` row
    /// address) by one call of the offset gather ([`crate::offset_gather`]), with no mask or
    /// a lane mask (slot `ms`; `full` when it is known to have every lane on): into `reg`'s
    /// row for a direct load, else into the result slot at `out_at`, packed or not. A lane
    /// failing its check sends the instruction to `slow`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn offset_gather(
        &mut self,
        w: &Window,
        ra: &RowAddress,
        ms: Option<u32>,
        full: Option<Value>,
        direct: Option<wavejit_ir::Reg>,
        (out_at, packed): (i64, bool),
        slow: Block,
    ) -> R<()> {
        let add = match self.row_offset(ra)? {
            Some(o) => self.b.ins().uextend(I64, o),
            None => self.b.ins().iconst(I64, 0),
        };
        let at = i64::from(self.row_off(ra.reg));
        let row = self.b.ins().iadd_imm_s(self.state, at);
        let mask = self.mask_arg(ms, full);
        let (f, out) = match direct {
            Some(reg) => {
                let at = i64::from(self.row_off(reg));
                (
                    offset_gather_row_fn() as usize,
                    self.b.ins().iadd_imm_s(self.state, at),
                )
            }
            None => (
                if packed {
                    offset_gather_packed_fn() as usize
                } else {
                    offset_gather_fn() as usize
                },
                self.b.ins().iadd_imm_s(self.scratch, out_at),
            ),
        };
        let lanes = self.b.ins().iconst(I64, i64::from(self.layout.wave_size));
        let zero = self.b.ins().iconst(I64, 0);
        let args = [w.base, w.lo, w.last, add, row, mask, out, lanes, zero, zero];
        self.call_or(self.sig_gather, f, &args, slow);
        Ok(())
    }

    fn common(&mut self, w: &Window, a_slot: u32, ms: Option<u32>, full: Option<Value>) -> Common {
        let at = |s: u32| s as i64 * SLOT_BYTES;
        let addrs = self.b.ins().iadd_imm_s(self.scratch, at(a_slot));
        let null = self.b.ins().iconst(I64, 0);
        let mask = self.mask_arg(ms, full);
        let cut = self
            .b
            .ins()
            .iconst(I64, if w.offset32 { 0xffff_ffff } else { -1 });
        Common {
            base: w.base,
            lo: w.lo,
            last: w.last,
            cut,
            addrs,
            mask,
            lanes: self.b.ins().iconst(I64, i64::from(self.layout.wave_size)),
            stride: w.stride.unwrap_or(null),
        }
    }

    /// Calls the routine at `f` with `args`; continues after it when it returns non-zero,
    /// else at `fail`.
    fn call_or(&mut self, sig: SigRef, f: usize, args: &[Value], fail: Block) {
        let f = self.ptr_const(f);
        let call = self.b.ins().call_indirect(sig, f, args);
        let ok = self.b.inst_results(call)[0];
        let go = self.b.create_block();
        self.b.ins().brif(ok, go, &[], fail, &[]);
        self.b.switch_to_block(go);
    }
}
