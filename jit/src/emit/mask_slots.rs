//! Slots of `MaskFromBits` masks, filled only where a path reads them.
//!
//! A lane mask a wave operation takes lives in a scratch slot ([`crate::plan`]). For a mask
//! `MaskFromBits(u)` the chunk loops do not store it there: its lanes are the bits of the
//! uniform `u`, so the code that reads the slot fills it from `u` first. The helper path of
//! every wave operation fills the operand's own slot. An inline memory access reads the slot
//! that the first access under that (value-numbered) mask in the block fills when `u` does
//! not have every lane set ([`Emitter::shared_mask_slot`]), and only then: every read of it
//! is guarded by that test (an access under a full mask reads no lane's bit).

use super::{Emitter, R, SLOT_BYTES};
use crate::vals::mem;
use cranelift_codegen::ir::{condcodes::IntCC as CIntCC, types::*, BlockArg, InstBuilder, Value};
use wavejit_ir::InstKind;

/// Four lanes' entries of a mask slot, by the four lanes' bits (lane 0 in bit 0).
static QUADS: [[u64; 4]; 16] = {
    let mut t = [[0; 4]; 16];
    let mut b = 0;
    while b < 16 {
        let mut l = 0;
        while l < 4 {
            t[b][l] = (b as u64 >> l) & 1;
            l += 1;
        }
        b += 1;
    }
    t
};

impl Emitter<'_, '_> {
    /// `u` when mask `m` is `MaskFromBits(u)`.
    pub(super) fn bits_mask(&self, m: wavejit_ir::Value) -> Option<wavejit_ir::Value> {
        match self.blk.insts.get(m.index())?.kind {
            InstKind::MaskFromBits(u) => Some(u),
            _ => None,
        }
    }

    /// Fills the slot of `MaskFromBits` mask `m` from its bits.
    pub(super) fn materialize_mask(&mut self, m: wavejit_ir::Value) -> R<()> {
        let s = self.plan.slot[m.index()].ok_or("mask without a slot")?;
        self.fill_mask_slot(m, s)
    }

    /// The slot holding the lanes of `MaskFromBits` mask `m` whenever its bits do not have
    /// every lane of the wave set: the first access under a mask of the same value number in
    /// the block fills `m`'s slot then (the code after it in the block sees the same bits).
    pub(super) fn shared_mask_slot(&mut self, m: wavejit_ir::Value, full: Value) -> R<u32> {
        let key = self.canon(m);
        if let Some(&s) = self.mask_slots.get(&key) {
            return Ok(s);
        }
        let s = self.plan.slot[m.index()].ok_or("mask without a slot")?;
        let (fill, done) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(full, done, &[], fill, &[]);
        self.b.switch_to_block(fill);
        self.fill_mask_slot(m, s)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        self.mask_slots.insert(key, s);
        Ok(s)
    }

    /// Slot `s` takes the lanes of `MaskFromBits` mask `m` (0 or 1 per lane, the
    /// [`wavejit_runtime::Lanes`] format), four lanes per iteration.
    fn fill_mask_slot(&mut self, m: wavejit_ir::Value, s: u32) -> R<()> {
        let u = self.bits_mask(m).ok_or("not a MaskFromBits mask")?;
        let u = self.u(u)?;
        let u = if self.b.func.dfg.value_type(u) == I64 {
            u
        } else {
            self.b.ins().uextend(I64, u)
        };
        let table = self.ptr_const(QUADS.as_ptr() as usize);
        let header = self.b.create_block();
        let c = self.b.append_block_param(header, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(header, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(header);
        let shift = self.b.ins().ishl_imm_u(c, 2);
        let bits = self.b.ins().ushr(u, shift);
        let quad = self.b.ins().band_imm_u(bits, 15);
        let at = self.b.ins().ishl_imm_u(quad, 5);
        let from = self.b.ins().iadd(table, at);
        let off = self.b.ins().ishl_imm_u(c, 5);
        let to = self.b.ins().iadd(self.scratch, off);
        let at = (s as i64 * SLOT_BYTES) as i32;
        for h in [0, 16] {
            let v = self.b.ins().load(I64X2, mem(), from, h);
            self.b.ins().store(mem(), v, to, at + h);
        }
        let next = self.b.ins().iadd_imm_u(c, 1);
        let quads = i64::from(self.layout.wave_size / 4);
        let more = self
            .b
            .ins()
            .icmp_imm_u(CIntCC::UnsignedLessThan, next, quads);
        let done = self.b.create_block();
        self.b
            .ins()
            .brif(more, header, &[BlockArg::Value(next)], done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// Fills the slots of the `MaskFromBits` operands of wave operation `i`.
    pub(super) fn materialize_masks(&mut self, i: usize) -> R<()> {
        for a in self.blk.insts[i].args() {
            if self.bits_mask(a).is_some() && self.plan.slot[a.index()].is_some() {
                self.materialize_mask(a)?;
            }
        }
        Ok(())
    }
}
