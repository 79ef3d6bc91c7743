//! Atomics with per-lane addresses compiled inline (see the parent module's doc): every
//! acting lane checked first, then the lanes' operations in ascending order, in global memory
//! with host atomics, in the LDS as a load, the operation and a store.

use super::{Emitter, R, SLOT_BYTES};
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
        let (check, work, slow, merge) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(w.fits, check, &[], slow, &[]);
        self.b.switch_to_block(check);
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
        self.slow_path(i, space, slow, merge)
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
