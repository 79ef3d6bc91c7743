//! Atomics with per-lane addresses compiled inline (see the parent module's doc): every
//! acting lane checked first, then the lanes' operations in ascending order, in global memory
//! with host atomics, in the LDS as a load, the operation and a store.

use super::{Emitter, Opnd, R, SLOT_BYTES};
use crate::vals::mem;
use cranelift_codegen::ir::AtomicRmwOp;
use cranelift_codegen::ir::{condcodes::IntCC as CIntCC, types::*, BlockArg, InstBuilder, Value};
use wavejit_ir::{AtomicOp, MemSpace, MemWidth};

/// How an inlined atomic updates memory.
#[derive(Clone, Copy)]
pub(super) enum Update {
    /// One host read-modify-write instruction.
    Rmw(AtomicRmwOp),
    /// Compare and exchange: `data` replaces the value when it equals `cmp`.
    Cas,
    /// `Inc` or `Dec`: the new value computed from the old one, stored by a compare and
    /// exchange that retries while another thread changed the value in between.
    Wrap(AtomicOp),
}

impl Update {
    pub(super) fn of(op: AtomicOp) -> Option<Update> {
        match op {
            AtomicOp::CmpXchg => Some(Update::Cas),
            AtomicOp::Inc | AtomicOp::Dec => Some(Update::Wrap(op)),
            op => rmw_op(op).map(Update::Rmw),
        }
    }
}

/// The value a read-modify-write of `t` leaves memory unchanged with (what the combined
/// update starts from); `None` for an operation that does not combine (exchange).
fn identity(rmw: AtomicRmwOp, t: cranelift_codegen::ir::Type) -> Option<i64> {
    let bits = t.bits();
    let (smax, smin) = if bits == 64 {
        (i64::MAX, i64::MIN)
    } else {
        (i64::from(i32::MAX), i64::from(i32::MIN))
    };
    Some(match rmw {
        AtomicRmwOp::Add | AtomicRmwOp::Sub | AtomicRmwOp::Or | AtomicRmwOp::Xor => 0,
        AtomicRmwOp::Umax => 0,
        AtomicRmwOp::And | AtomicRmwOp::Umin => -1,
        AtomicRmwOp::Smin => smax,
        AtomicRmwOp::Smax => smin,
        _ => return None,
    })
}

/// The host read-modify-write of an IR atomic, if there is one.
fn rmw_op(op: AtomicOp) -> Option<AtomicRmwOp> {
    Some(match op {
        AtomicOp::Add => AtomicRmwOp::Add,
        AtomicOp::Sub => AtomicRmwOp::Sub,
        AtomicOp::Xchg => AtomicRmwOp::Xchg,
        AtomicOp::And => AtomicRmwOp::And,
        AtomicOp::Or => AtomicRmwOp::Or,
        AtomicOp::Xor => AtomicRmwOp::Xor,
        AtomicOp::Umin => AtomicRmwOp::Umin,
        AtomicOp::Umax => AtomicRmwOp::Umax,
        AtomicOp::Smin => AtomicRmwOp::Smin,
        AtomicOp::Smax => AtomicRmwOp::Smax,
        _ => return None,
    })
}

impl Emitter<'_, '_> {
    /// An inlined atomic (see the module doc).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic(
        &mut self,
        i: usize,
        update: Update,
        space: MemSpace,
        width: MemWidth,
        addr: wavejit_ir::Value,
        data: wavejit_ir::Value,
        cmp: Option<wavejit_ir::Value>,
        mask: Option<wavejit_ir::Value>,
    ) -> R<()> {
        let Some(out) = self.plan.slot[i] else {
            return Err("atomic without a result slot".into());
        };
        let out_at = out as i64 * SLOT_BYTES;
        let a = self.opnd(addr)?;
        let d = self.opnd(data)?;
        let k = cmp.map(|c| self.opnd(c)).transpose()?;
        let m = mask.map(|m| self.opnd(m)).transpose()?;
        let t = if width == MemWidth::B64 { I64 } else { I32 };
        let align = i64::from(width.bytes()) - 1;
        let w = self.window(i, space, width);
        let (slow, merge) = self.enter(&w);
        let work = self.b.create_block();
        if let (Update::Rmw(rmw), MemSpace::Global, Opnd::Slot(a_slot)) = (update, space, a) {
            if let Some(id) = identity(rmw, t) {
                let out = (self.plan.uses[i] > 0).then_some(out_at);
                self.combined(&w, rmw, t, id, a_slot, d, m, out, merge)?;
            }
        }
        // Pass 1: every acting lane's access is in the window (and aligned, globally).
        self.lane_loop(work, |e, l| {
            let next = e.acting(m, l);
            let x = e.opnd_at(a, l);
            let (mut ok, _) = e.checked(&w, x, Some(l));
            if space == MemSpace::Global {
                let low = e.b.ins().band_imm_u(x, align);
                let aligned = e.b.ins().icmp_imm_u(CIntCC::Equal, low, 0);
                ok = e.b.ins().band(ok, aligned);
            }
            e.b.ins().brif(ok, next, &[], slow, &[]);
            Ok(next)
        })?;
        // Pass 2: the operations, in lane order.
        self.b.switch_to_block(work);
        self.lane_loop(merge, |e, l| {
            let off = e.b.ins().ishl_imm_u(l, 3);
            let dst = e.b.ins().iadd(e.scratch, off);
            let zero = e.b.ins().iconst(I64, 0);
            e.b.ins().store(mem(), zero, dst, out_at as i32);
            let next = e.acting(m, l);
            let x = e.opnd_at(a, l);
            let (_, host) = e.checked(&w, x, Some(l));
            let narrow = |e: &mut Self, x: Value| {
                if t == I32 {
                    e.b.ins().ireduce(I32, x)
                } else {
                    x
                }
            };
            let v = e.opnd_at(d, l);
            let v = narrow(e, v);
            let c = k.map(|k| {
                let c = e.opnd_at(k, l);
                narrow(e, c)
            });
            let old = e.update(update, space, t, host, v, c)?;
            let old = if t == I32 {
                e.b.ins().uextend(I64, old)
            } else {
                old
            };
            e.b.ins().store(mem(), old, dst, out_at as i32);
            e.b.ins().jump(next, &[]);
            Ok(next)
        })?;
        self.slow_path(i, space, (slow, merge), false)
    }

    /// The whole wave's update as one host atomic when every lane addresses the same aligned
    /// word in the window: the acting lanes' data combined by the operation (a sum for `sub`)
    /// in lane order, then one read-modify-write. Memory ends as after the lanes' updates in
    /// order, run without another thread's in between (an order a GPU may take too), and
    /// each acting lane's old value is what that order gives it: the word's old value
    /// combined with the data of the acting lanes before it (written to the result slot at
    /// `out` when something reads it). Otherwise the code continues with the lane by lane
    /// passes.
    #[allow(clippy::too_many_arguments)]
    fn combined(
        &mut self,
        w: &super::Window,
        rmw: AtomicRmwOp,
        t: cranelift_codegen::ir::Type,
        identity: i64,
        a_slot: u32,
        d: Opnd,
        m: Option<Opnd>,
        out: Option<i64>,
        merge: cranelift_codegen::ir::Block,
    ) -> R<()> {
        let (lanes, combine) = (self.b.create_block(), self.b.create_block());
        let (a0, ok, host) = self.one_address(w, a_slot, lanes);
        let align = i64::from(t.bytes()) - 1;
        let low = self.b.ins().band_imm_u(a0, align);
        let aligned = self.b.ins().icmp_imm_u(CIntCC::Equal, low, 0);
        let ok = self.b.ins().band(ok, aligned);
        self.b.ins().brif(ok, combine, &[], lanes, &[]);
        self.b.switch_to_block(combine);
        let header = self.b.create_block();
        let l = self.b.append_block_param(header, I64);
        let acc = self.b.append_block_param(header, t);
        let zero = self.b.ins().iconst(I64, 0);
        let identity = if t == I32 {
            identity & 0xffff_ffff
        } else {
            identity
        };
        let first = self.b.ins().iconst(t, identity);
        self.b
            .ins()
            .jump(header, &[BlockArg::Value(zero), BlockArg::Value(first)]);
        self.b.switch_to_block(header);
        let v = self.opnd_at(d, l);
        let v = if t == I32 {
            self.b.ins().ireduce(I32, v)
        } else {
            v
        };
        // Lane `l`'s slot entry: the data of the acting lanes before it, combined.
        if let Some(out) = out {
            let off = self.b.ins().ishl_imm_u(l, 3);
            let dst = self.b.ins().iadd(self.scratch, off);
            let before = self.widen(t, acc);
            self.b.ins().store(mem(), before, dst, out as i32);
        }
        let next = self.combine(rmw, acc, v, true)?;
        let next = match self.lane_on(m, l) {
            Some(on) => {
                let on = self.b.ins().icmp_imm_u(CIntCC::NotEqual, on, 0);
                self.b.ins().select(on, next, acc)
            }
            None => next,
        };
        let l1 = self.b.ins().iadd_imm_u(l, 1);
        let more = self.b.ins().icmp_imm_u(
            CIntCC::UnsignedLessThan,
            l1,
            i64::from(self.layout.wave_size),
        );
        let (done, again) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(more, again, &[], done, &[]);
        self.b.switch_to_block(again);
        self.b
            .ins()
            .jump(header, &[BlockArg::Value(l1), BlockArg::Value(next)]);
        self.b.switch_to_block(done);
        let old = self.b.ins().atomic_rmw(t, mem(), rmw, host, next);
        if let Some(out) = out {
            // Acting lanes: the old value combined with their entries; the others 0.
            self.lane_loop(merge, |e, l| {
                let off = e.b.ins().ishl_imm_u(l, 3);
                let dst = e.b.ins().iadd(e.scratch, off);
                let before = e.b.ins().load(I64, mem(), dst, out as i32);
                let before = if t == I32 {
                    e.b.ins().ireduce(I32, before)
                } else {
                    before
                };
                let mine = e.combine(rmw, old, before, false)?;
                let mine = e.widen(t, mine);
                let mine = match e.lane_on(m, l) {
                    Some(on) => {
                        let on = e.b.ins().icmp_imm_u(CIntCC::NotEqual, on, 0);
                        let zero = e.b.ins().iconst(I64, 0);
                        e.b.ins().select(on, mine, zero)
                    }
                    None => mine,
                };
                e.b.ins().store(mem(), mine, dst, out as i32);
                let next = e.b.create_block();
                e.b.ins().jump(next, &[]);
                Ok(next)
            })?;
        } else {
            self.b.ins().jump(merge, &[]);
        }
        self.b.switch_to_block(lanes);
        Ok(())
    }

    /// `x` and `y` combined by `rmw`'s operation: how two lanes' data combine (`data`: a sum
    /// for `sub`), or how memory's old value and the lanes' data before a lane give that
    /// lane's old value (`sub` subtracts then).
    fn combine(&mut self, rmw: AtomicRmwOp, x: Value, y: Value, data: bool) -> R<Value> {
        Ok(match rmw {
            AtomicRmwOp::Add => self.b.ins().iadd(x, y),
            AtomicRmwOp::Sub if data => self.b.ins().iadd(x, y),
            AtomicRmwOp::Sub => self.b.ins().isub(x, y),
            AtomicRmwOp::And => self.b.ins().band(x, y),
            AtomicRmwOp::Or => self.b.ins().bor(x, y),
            AtomicRmwOp::Xor => self.b.ins().bxor(x, y),
            AtomicRmwOp::Umin => self.b.ins().umin(x, y),
            AtomicRmwOp::Umax => self.b.ins().umax(x, y),
            AtomicRmwOp::Smin => self.b.ins().smin(x, y),
            AtomicRmwOp::Smax => self.b.ins().smax(x, y),
            op => return Err(format!("{op:?} does not combine")),
        })
    }

    /// A `t` value as a slot entry (zero-extended to 64 bits).
    fn widen(&mut self, t: cranelift_codegen::ir::Type, x: Value) -> Value {
        if t == I32 {
            self.b.ins().uextend(I64, x)
        } else {
            x
        }
    }

    /// Lane's atomic update of the `t` at host address `host` with `v` (and `c`, the
    /// compared value of a compare and exchange); returns the old value. Global memory is
    /// shared with other threads: host atomics there. The LDS belongs to one thread (the
    /// waves of a work-group run on one): a load, the operation and a store.
    fn update(
        &mut self,
        update: Update,
        space: MemSpace,
        t: cranelift_codegen::ir::Type,
        host: Value,
        v: Value,
        c: Option<Value>,
    ) -> R<Value> {
        let global = space == MemSpace::Global;
        match update {
            Update::Rmw(rmw) if global => Ok(self.b.ins().atomic_rmw(t, mem(), rmw, host, v)),
            Update::Cas if global => {
                let c = c.ok_or("compare and exchange without a compared value")?;
                Ok(self.b.ins().atomic_cas(mem(), host, c, v))
            }
            Update::Wrap(op) if global => {
                let first = self.b.ins().atomic_load(t, mem(), host);
                let (retry, done) = (self.b.create_block(), self.b.create_block());
                let old = self.b.append_block_param(retry, t);
                let out = self.b.append_block_param(done, t);
                self.b.ins().jump(retry, &[BlockArg::Value(first)]);
                self.b.switch_to_block(retry);
                let new = self.wrapped(op, old, v)?;
                let seen = self.b.ins().atomic_cas(mem(), host, old, new);
                let same = self.b.ins().icmp(CIntCC::Equal, seen, old);
                self.b.ins().brif(
                    same,
                    done,
                    &[BlockArg::Value(old)],
                    retry,
                    &[BlockArg::Value(seen)],
                );
                self.b.switch_to_block(done);
                Ok(out)
            }
            _ => {
                let old = self.b.ins().load(t, mem(), host, 0);
                let new = match update {
                    Update::Rmw(rmw) => match rmw {
                        AtomicRmwOp::Add => self.b.ins().iadd(old, v),
                        AtomicRmwOp::Sub => self.b.ins().isub(old, v),
                        AtomicRmwOp::And => self.b.ins().band(old, v),
                        AtomicRmwOp::Or => self.b.ins().bor(old, v),
                        AtomicRmwOp::Xor => self.b.ins().bxor(old, v),
                        AtomicRmwOp::Xchg => v,
                        AtomicRmwOp::Umin => self.b.ins().umin(old, v),
                        AtomicRmwOp::Umax => self.b.ins().umax(old, v),
                        AtomicRmwOp::Smin => self.b.ins().smin(old, v),
                        AtomicRmwOp::Smax => self.b.ins().smax(old, v),
                        AtomicRmwOp::Nand => return Err("nand is no IR atomic".into()),
                    },
                    Update::Cas => {
                        let c = c.ok_or("compare and exchange without a compared value")?;
                        let eq = self.b.ins().icmp(CIntCC::Equal, old, c);
                        self.b.ins().select(eq, v, old)
                    }
                    Update::Wrap(op) => self.wrapped(op, old, v)?,
                };
                self.b.ins().store(mem(), new, host, 0);
                Ok(old)
            }
        }
    }

    /// The new value of `Inc` (`old >= v ? 0 : old + 1`) or `Dec`
    /// (`old == 0 || old > v ? v : old - 1`), the formulas of [`AtomicOp`].
    fn wrapped(&mut self, op: AtomicOp, old: Value, v: Value) -> R<Value> {
        let t = self.b.func.dfg.value_type(old);
        Ok(match op {
            AtomicOp::Inc => {
                let wrap = self
                    .b
                    .ins()
                    .icmp(CIntCC::UnsignedGreaterThanOrEqual, old, v);
                let zero = self.b.ins().iconst(t, 0);
                let up = self.b.ins().iadd_imm_u(old, 1);
                self.b.ins().select(wrap, zero, up)
            }
            AtomicOp::Dec => {
                let at_zero = self.b.ins().icmp_imm_u(CIntCC::Equal, old, 0);
                let above = self.b.ins().icmp(CIntCC::UnsignedGreaterThan, old, v);
                let wrap = self.b.ins().bor(at_zero, above);
                let down = self.b.ins().iadd_imm_s(old, -1);
                self.b.ins().select(wrap, v, down)
            }
            op => return Err(format!("{op:?} is no wrapping atomic")),
        })
    }
}
