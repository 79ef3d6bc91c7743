//! Lane loads that write their register themselves ([`crate::plan::Plan::direct_write`]).
//!
//! The consecutive path with every lane acting copies memory straight into the register's
//! row; every other path fills the load's result slot as usual and then copies the slot into
//! the row under the write's mask (the load's own). Either way the row ends as the skipped
//! write would have left it, and the emitter leaves that write out.

use super::{Emitter, Opnd, SLOT_BYTES};
use crate::vals::{bc, deinterleave, mem};
use cranelift_codegen::ir::{condcodes::IntCC as CIntCC, types::*, Block, InstBuilder, Value};
use wavejit_ir::{InstKind, Reg};

impl Emitter<'_, '_> {
    /// The register load `i` may write itself, if the plan found one.
    pub(super) fn direct_reg(&self, i: usize) -> Option<Reg> {
        let j = self.plan.direct_write[i]?;
        match self.blk.insts[j].kind {
            InstKind::WriteReg { reg, .. } if self.check_reg(reg, 1).is_ok() => Some(reg),
            _ => None,
        }
    }

    /// The wave's consecutive 32-bit lanes at host address `host` into `reg`'s row.
    pub(super) fn copy_consecutive_row(&mut self, host: Value, reg: Reg) {
        let row = self.row_off(reg);
        for c in 0..i32::from(self.layout.wave_size as u16) / 4 {
            let v = self.b.ins().load(I32X4, mem(), host, 16 * c);
            self.b.ins().store(mem(), v, self.state, row + 16 * c);
        }
    }

    /// A direct 32-bit load whose lanes all address the same word in the window, with every
    /// lane acting (no mask, or a mask `full` finds full): one load, its value in every entry
    /// of `reg`'s row, then on to `written`. Anything else continues where the code was, on
    /// to the gather. (On TeraScale every value the lanes share comes from a fetch with lane
    /// addresses: a filter's coefficient, a row's operand.)
    pub(super) fn same_address_row(
        &mut self,
        w: &super::Window,
        a_slot: u32,
        ms: Option<u32>,
        full: Option<Value>,
        reg: Reg,
        written: Block,
    ) {
        let all_act = match (ms, full) {
            (None, _) => None,
            (Some(_), Some(full)) => Some(full),
            (Some(_), None) => return,
        };
        let other = self.b.create_block();
        if let Some(full) = all_act {
            let go = self.b.create_block();
            self.b.ins().brif(full, go, &[], other, &[]);
            self.b.switch_to_block(go);
        }
        let load = self.b.create_block();
        let (_, ok, host) = self.one_address(w, a_slot, other);
        self.b.ins().brif(ok, load, &[], other, &[]);
        self.b.switch_to_block(load);
        let v = self.b.ins().load(I32, mem(), host, 0);
        let v = self.b.ins().splat(I32X4, v);
        let row = self.row_off(reg);
        for c in 0..i32::from(self.layout.wave_size as u16) / 4 {
            self.b.ins().store(mem(), v, self.state, row + 16 * c);
        }
        self.b.ins().jump(written, &[]);
        self.b.switch_to_block(other);
    }

    /// `reg`'s row takes the low 32 bits of slot `slot` in the lanes mask `m` leaves on (all
    /// without a mask): the register write a direct load stands for. A mask whose slot holds
    /// its lanes only when not every lane is set ([`Emitter::masked_full`]) copies every lane
    /// without reading it otherwise.
    pub(super) fn slot_to_row(&mut self, slot: u32, reg: Reg, m: Option<Opnd>) {
        let done = self.b.create_block();
        let masked = match m {
            Some(Opnd::Uniform(u)) => {
                let on = self.b.create_block();
                let t = self.b.ins().icmp_imm_u(CIntCC::NotEqual, u, 0);
                self.b.ins().brif(t, on, &[], done, &[]);
                self.b.switch_to_block(on);
                None
            }
            Some(Opnd::Slot(ms)) => match self.masked_full(ms) {
                Some(full) => {
                    let (all, some) = (self.b.create_block(), self.b.create_block());
                    self.b.ins().brif(full, all, &[], some, &[]);
                    self.b.switch_to_block(all);
                    self.copy_loop(slot, reg, None, done);
                    self.b.switch_to_block(some);
                    Some(ms)
                }
                None => Some(ms),
            },
            None => None,
        };
        self.copy_loop(slot, reg, masked, done);
        self.b.switch_to_block(done);
    }

    /// A loop over the wave's chunks: `reg`'s row takes the low halves of slot `slot` where
    /// mask slot `ms` is on (everywhere without one), then on to `done`.
    fn copy_loop(&mut self, slot: u32, reg: Reg, ms: Option<u32>, done: Block) {
        let chunk_lanes = |e: &mut Self, s: u32, c: Value| {
            let off = e.b.ins().ishl_imm_u(c, 5);
            let p = e.b.ins().iadd(e.scratch, off);
            let at = (s as i64 * SLOT_BYTES) as i32;
            let lo = e.b.ins().load(I64X2, mem(), p, at);
            let hi = e.b.ins().load(I64X2, mem(), p, at + 16);
            deinterleave(&mut e.b, lo, hi).0
        };
        self.each_chunk(done, |e, c| {
            let v = chunk_lanes(e, slot, c);
            let v = bc(&mut e.b, I32X4, v);
            let row_off = e.row_off(reg);
            let off = e.b.ins().ishl_imm_u(c, 4);
            let row = e.b.ins().iadd(e.state, off);
            let v = match ms {
                Some(ms) => {
                    let on = chunk_lanes(e, ms, c);
                    let on = bc(&mut e.b, I32X4, on);
                    let zero = e.b.ins().iconst(I32, 0);
                    let zero = e.b.ins().splat(I32X4, zero);
                    let sel = e.b.ins().icmp(CIntCC::NotEqual, on, zero);
                    let old = e.b.ins().load(I32X4, mem(), row, row_off);
                    e.b.ins().bitselect(sel, v, old)
                }
                None => v,
            };
            e.b.ins().store(mem(), v, row, row_off);
        });
    }
}
