//! Global, LDS and private loads and stores compiled inline, with the helper as the exact
//! slow path.
//!
//! A load or store of a width of 1 to 8 bytes to global memory, the LDS or private memory
//! runs as a loop over the wave's lanes in the scalar segment where the plan places it:
//! - **Global**: each acting lane's whole access must lie inside the buffer of the access's
//!   hint slot ([`wavejit_runtime::MemHints`], `[start, end)`), and then reads or writes host
//!   memory at [`JitCtx::global_base`](crate::ctx::JitCtx) plus the guest address. A slot is
//!   only ever a real buffer's bounds, so the check is the helper's rule (inside one buffer)
//!   restricted to one candidate buffer.
//! - **LDS**: the access's 32-bit offset must leave the whole access inside the work-group's
//!   LDS; then it reads or writes the LDS directly.
//! - **Private**: lane `l`'s 32-bit offset must leave the whole access inside the lane's own
//!   segment, which starts at [`JitCtx::private`](crate::ctx::JitCtx) plus `l` times the
//!   segment size (the window's stride); lane-result loads and stores only (a uniform-result
//!   private load takes the helper).
//!
//! Any acting lane that fails its check sends the whole instruction to the helper
//! ([`crate::ctx::helper_wave_op`]), which runs it exactly as the interpreter does (faults
//! with their lane and address, LDS bytes out of range reading 0) and points the hint slot at
//! the buffer of the first acting lane. A load's fast path writes only its result slot, so
//! the helper can start over; a store checks every acting lane before it writes anything, so
//! a store that faults has written nothing on either path. Lanes act in ascending order,
//! which is the helper's order, so overlapping stores leave the same bytes.
//!
//! **Lane loads and stores with a lane mask or none** call one host gather or scatter for the
//! wave ([`crate::gather`], [`crate::scatter`]), which checks every acting lane as above and
//! then loads them (AVX2 gathers, one load for four consecutive or equal addresses) or stores
//! them in lane order; a lane failing its check sends the instruction to the helper, a store
//! having written nothing.
//!
//! **Consecutive addresses.** A 32-bit lane load or store whose lanes address `a0 + 4 * l`
//! (checked for every lane with vector compares), with the whole span `[a0, a0 + 4 * wave
//! size)` inside the window, moves 16 bytes at a time instead of lane by lane. A load zeroes
//! the lanes its mask leaves out; a store to global memory takes this path only when every
//! lane acts (it must not write the bytes of inactive lanes, not even with their own values,
//! as another work-group may be writing them); a store to the LDS, which only its
//! work-group's thread touches, blends the inactive lanes' old words in. Anything else runs
//! the lane loop.
//!
//! **Atomics** of 32 and 64 bits with per-lane addresses whose operation a host instruction
//! does (add, sub, exchange, and, or, xor, signed and unsigned min and max, compare and
//! exchange) or a compare-and-exchange loop does (the wrapping increment and decrement):
//! every acting lane's access is checked first (in the window and, in global memory, aligned
//! to its width, the helper's fault rule), then the lanes perform their operation in
//! ascending order, in global memory with the host's atomics (other work-groups run on other
//! threads), in the LDS as a load, the operation and a store (the waves of a work-group run
//! on one thread). Inactive lanes' results are 0. The float atomics take the helper.
//!
//! Inlined: lane-result loads (any address and mask shape), uniform-result loads of a
//! uniform address without a mask (global and LDS), stores (any shape) and the atomics above.
//! Other atomics and formatted accesses always take the helper.
//!
//! **Direct loads.** A 32-bit lane load whose result only feeds the register write right
//! after it, under the same mask ([`crate::plan::Plan::direct_write`]), writes that register
//! itself once every lane has loaded: from memory on the consecutive path with every lane on,
//! from its result slot under the mask otherwise; the write is then left out.
//!
//! **Row addresses.** A 32-bit lane load or store whose address the plan folded into it
//! ([`crate::row_address`]) tests the register's row for the consecutive and one-word paths
//! before anything else; a 32-bit LDS load then calls the offset gather
//! ([`crate::offset_gather`]), which reads the row too; every other path first fills the
//! address slot from the row, and so does the helper's path after the offset gather.
//!
//! Here: the windows, the lane loops and the loads and stores; `atomic`: the atomics;
//! `consecutive`: the consecutive-address path; `host`: the gather, offset gather and scatter
//! calls; `direct`: the register writes of direct loads; `row`: the paths of row addresses.

mod atomic;
mod consecutive;
mod direct;
mod host;
mod row;

use super::{Emitter, R, SLOT_BYTES};
use crate::ctx::{
    CTX_GLOBAL_BASE, CTX_HINTS, CTX_LDS, CTX_LDS_LEN, CTX_PRIVATE, CTX_PRIVATE_LANE_BYTES,
};
use crate::vals::{bc, const32x4, deinterleave, interleave, mem, shuffle32, vconst};
use atomic::Update;
use cranelift_codegen::ir::{condcodes::IntCC as CIntCC, types::*, BlockArg, InstBuilder, Value};
use wavejit_ir::{InstKind, MemSpace, MemWidth, ScalarType};
use wavejit_runtime::MemHints;

/// Hint slots used: the largest prime not above [`MemHints::SLOTS`].
const HINT_MODULUS: usize = 251;
const _: () = assert!(HINT_MODULUS <= MemHints::SLOTS);

/// Where an access's bounds come from.
struct Window {
    /// Host address of byte 0 of the space (guest address 0 for global, offset 0 for LDS).
    base: Value,
    /// The accessible range `[lo, hi)` of addresses.
    lo: Value,
    /// The largest address an access of this width may start at (`hi - width`).
    last: Value,
    /// Whether the window holds at least one access of this width.
    fits: Value,
    /// LDS and private offsets are the low 32 bits of the address operand.
    offset32: bool,
    /// Private memory: the bytes between two lanes' segments (lane `l`'s window starts at
    /// `base + l * stride`).
    stride: Option<Value>,
}

/// What the per-lane code of a lane load needs.
struct LoadLane {
    a: Opnd,
    m: Option<Opnd>,
    /// Byte offset of the result slot in the scratch area.
    out_at: i64,
    width: MemWidth,
    signed: bool,
    ty: ScalarType,
    /// Where a lane that fails its check sends the instruction.
    slow: cranelift_codegen::ir::Block,
}

/// One operand as the fast path reads it.
#[derive(Clone, Copy)]
enum Opnd {
    /// A lane value in a scratch slot.
    Slot(u32),
    /// A uniform value (`i32` or `i64`).
    Uniform(Value),
}

/// A mask the lane paths take: none (`Some(None)`) or a lane mask's slot (`Some(Some(s))`);
/// `None` for a uniform mask, which only the lane loops take.
fn lane_mask(m: Option<Opnd>) -> Option<Option<u32>> {
    match m {
        None => Some(None),
        Some(Opnd::Slot(s)) => Some(Some(s)),
        Some(Opnd::Uniform(_)) => None,
    }
}

impl Emitter<'_, '_> {
    /// Compiles instruction `i` inline if it is an access this module takes; `false` leaves it
    /// to the helper.
    ///
    /// A mask `MaskFromBits(u)` has its lanes in a slot only when `u` does not have every
    /// lane set (`mask_slots`): the access reads it from the slot the block's accesses under
    /// that mask share, and every read of it is guarded by the full-mask test
    /// ([`Self::masked_full`]). (The helper path fills the operand's own slot.)
    pub(super) fn memory_op(&mut self, i: usize) -> R<bool> {
        let Some(mask) = self.inline_access(i)? else {
            return Ok(false);
        };
        match mask.filter(|&m| self.bits_mask(m).is_some()) {
            None => self.access(i, mask)?,
            Some(m) => {
                // An access under bits with no lane set does nothing (a load's or an
                // atomic's lanes are their masked-off zeros): predicated code that no lane
                // takes, as in a reduction's later steps, skips the access and its mask slot.
                // Every access under the mask takes the same branch, so none reads the slot
                // that the first of them fills (`shared_mask_slot`) when it was skipped.
                let none = self.no_lane(m);
                let skip = none.map(|none| {
                    let (skip, go, after) = (
                        self.b.create_block(),
                        self.b.create_block(),
                        self.b.create_block(),
                    );
                    self.b.ins().brif(none, skip, &[], go, &[]);
                    self.b.switch_to_block(go);
                    (skip, after)
                });
                let full = self.full_mask(Some(m))?.ok_or("a full-mask test")?;
                let s = self.shared_mask_slot(m, full)?;
                self.mask_override = Some((m, s, full));
                let r = self.access(i, mask);
                self.mask_override = None;
                r?;
                if let Some((skip, after)) = skip {
                    self.b.ins().jump(after, &[]);
                    self.b.switch_to_block(skip);
                    self.masked_off_result(i)?;
                    self.b.ins().jump(after, &[]);
                    self.b.switch_to_block(after);
                }
            }
        }
        Ok(true)
    }

    /// Whether `MaskFromBits` mask `m`'s bits have no lane of the wave set (an `i8`).
    fn no_lane(&mut self, m: wavejit_ir::Value) -> Option<Value> {
        let (on, _) = self.mask_bits(m)?;
        Some(self.b.ins().icmp_imm_u(CIntCC::Equal, on, 0))
    }

    /// The result of lane access `i` when no lane acts: every lane 0 in its result slot (in
    /// the slot's form); nothing for a store, a load that writes its register itself, or a
    /// result without a slot.
    fn masked_off_result(&mut self, i: usize) -> R<()> {
        if matches!(self.blk.insts[i].kind, InstKind::Store { .. })
            || self.plan.direct_write[i].is_some()
        {
            return Ok(());
        }
        let Some(s) = self.plan.slot[i] else {
            return Ok(());
        };
        let bytes = if self.plan.packed[i] { 4 } else { 8 } * i64::from(self.layout.wave_size);
        let zero = const32x4(&mut self.b, [0; 4]);
        for k in 0..bytes / 16 {
            let at = s as i64 * SLOT_BYTES + 16 * k;
            self.b.ins().store(mem(), zero, self.scratch, at as i32);
        }
        Ok(())
    }

    /// The mask operand of instruction `i` if this module compiles it (`None`: the helper
    /// runs it).
    fn inline_access(&self, i: usize) -> R<Option<Option<wavejit_ir::Value>>> {
        let inst = &self.blk.insts[i];
        Ok(match inst.kind {
            InstKind::Load {
                space, addr, mask, ..
            } => {
                let ty = inst.ty.ok_or("load without a type")?;
                let uniform_ok =
                    mask.is_none() && !self.ty(addr)?.is_lane() && space != MemSpace::Private;
                (ty.is_lane() || uniform_ok).then_some(mask)
            }
            InstKind::Store { mask, .. } => Some(mask),
            InstKind::Atomic {
                op,
                space: MemSpace::Global | MemSpace::Lds,
                width: MemWidth::B32 | MemWidth::B64,
                addr,
                cmp,
                mask,
                ..
            } if self.ty(addr)?.is_lane() => match (Update::of(op), cmp) {
                (Some(Update::Cas), Some(_)) | (Some(Update::Rmw(_) | Update::Wrap(_)), None) => {
                    Some(mask)
                }
                _ => None,
            },
            _ => None,
        })
    }

    /// Compiles access `i` (one [`Self::inline_access`] takes) under `mask`.
    fn access(&mut self, i: usize, mask: Option<wavejit_ir::Value>) -> R<()> {
        let inst = &self.blk.insts[i];
        match inst.kind {
            InstKind::Load {
                space,
                width,
                signed,
                addr,
                ..
            } => {
                let ty = inst.ty.ok_or("load without a type")?;
                if ty.is_lane() {
                    self.lane_load(i, space, width, signed, ty.scalar, addr, mask)
                } else {
                    self.uniform_load(i, space, width, signed, ty.scalar, addr)
                }
            }
            InstKind::Store {
                space,
                width,
                addr,
                value,
                ..
            } => self.store(i, space, width, addr, value, mask),
            InstKind::Atomic {
                op,
                space,
                width,
                addr,
                data,
                cmp,
                ..
            } => {
                let update = match (Update::of(op), cmp) {
                    (Some(Update::Cas), Some(_)) => Update::Cas,
                    (Some(u @ (Update::Rmw(_) | Update::Wrap(_))), None) => u,
                    _ => return Err("an atomic the module does not take".into()),
                };
                self.atomic(i, update, space, width, addr, data, cmp, mask)
            }
            _ => Err(format!("%{i} is not an access")),
        }
    }

    fn opnd(&self, v: wavejit_ir::Value) -> R<Opnd> {
        if let Some((_, s, _)) = self.mask_override.filter(|&(m, _, _)| m == v) {
            return Ok(Opnd::Slot(s));
        }
        if self.ty(v)?.is_lane() {
            let s = self.plan.slot[v.index()].ok_or("memory operand without a slot")?;
            Ok(Opnd::Slot(s))
        } else {
            Ok(Opnd::Uniform(self.u(v)?))
        }
    }

    /// The operand's 64-bit value in lane `l` (an `i64` lane index).
    fn opnd_at(&mut self, o: Opnd, l: Value) -> Value {
        match o {
            Opnd::Slot(s) => {
                let off = self.b.ins().ishl_imm_u(l, 3);
                let p = self.b.ins().iadd(self.scratch, off);
                self.b
                    .ins()
                    .load(I64, mem(), p, (s as i64 * SLOT_BYTES) as i32)
            }
            Opnd::Uniform(v) => {
                if self.b.func.dfg.value_type(v) == I64 {
                    v
                } else {
                    self.b.ins().uextend(I64, v)
                }
            }
        }
    }

    /// The hint slot of instruction `i`: its guest pc in 4-byte units modulo [`HINT_MODULUS`],
    /// a prime, so that guest instructions a few dozen instructions apart keep slots of their
    /// own whether instructions are 4 or 8 bytes apart (GCN, TeraScale) and wherever a lifter
    /// or the block merger put them; the accesses of one guest instruction (the dwords of a
    /// wide load) share the slot of their buffer. Compiled code is cached by block contents,
    /// so the slot may depend on nothing else.
    fn hint_slot(&self, i: usize) -> u32 {
        let pc = self.blk.insts[i].pc as usize;
        ((pc >> 2) % HINT_MODULUS) as u32
    }

    /// The bounds accesses of `width` to `space` are checked against.
    fn window(&mut self, i: usize, space: MemSpace, width: MemWidth) -> Window {
        let len = i64::from(width.bytes());
        let (base, lo, hi, offset32, stride) = match space {
            MemSpace::Lds => {
                let base = self.b.ins().load(I64, mem(), self.ctx_ptr, CTX_LDS);
                let hi = self.b.ins().load(I64, mem(), self.ctx_ptr, CTX_LDS_LEN);
                (base, self.b.ins().iconst(I64, 0), hi, true, None)
            }
            MemSpace::Private => {
                let base = self.b.ins().load(I64, mem(), self.ctx_ptr, CTX_PRIVATE);
                let seg = self
                    .b
                    .ins()
                    .load(I64, mem(), self.ctx_ptr, CTX_PRIVATE_LANE_BYTES);
                (base, self.b.ins().iconst(I64, 0), seg, true, Some(seg))
            }
            MemSpace::Global => {
                let base = self.b.ins().load(I64, mem(), self.ctx_ptr, CTX_GLOBAL_BASE);
                let hints = self.b.ins().load(I64, mem(), self.ctx_ptr, CTX_HINTS);
                let at = 16 * self.hint_slot(i) as i32;
                let lo = self.b.ins().load(I64, mem(), hints, at);
                let hi = self.b.ins().load(I64, mem(), hints, at + 8);
                (base, lo, hi, false, None)
            }
        };
        // The slots, the LDS length and the segment size never make `hi < lo`; an empty slot
        // is `[0, 0)`.
        let size = self.b.ins().isub(hi, lo);
        let fits = self
            .b
            .ins()
            .icmp_imm_u(CIntCC::UnsignedGreaterThanOrEqual, size, len);
        let last = self.b.ins().iadd_imm_s(hi, -len);
        Window {
            base,
            lo,
            last,
            fits,
            offset32,
            stride,
        }
    }

    /// Whether an access at `addr` by lane `l` (an `i64`; needed only with a stride) lies in
    /// the window (the caller branches on `ok`), and its host address.
    fn checked(&mut self, w: &Window, addr: Value, l: Option<Value>) -> (Value, Value) {
        let a = if w.offset32 {
            self.b.ins().band_imm_u(addr, 0xffff_ffff)
        } else {
            addr
        };
        let above = self
            .b
            .ins()
            .icmp(CIntCC::UnsignedGreaterThanOrEqual, a, w.lo);
        let below = self
            .b
            .ins()
            .icmp(CIntCC::UnsignedLessThanOrEqual, a, w.last);
        let ok = self.b.ins().band(above, below);
        let mut host = self.b.ins().iadd(w.base, a);
        if let (Some(stride), Some(l)) = (w.stride, l) {
            let seg = self.b.ins().imul(l, stride);
            host = self.b.ins().iadd(host, seg);
        }
        (ok, host)
    }

    /// Loads `width` bytes at host address `p`, extended as the IR defines it
    /// (`memory_ops::extend`): sign- or zero-extended, then cut to `ty`.
    fn load_raw(&mut self, p: Value, width: MemWidth, signed: bool, ty: ScalarType) -> Value {
        let f = mem();
        let ins = self.b.ins();
        let v = match (width, signed) {
            (MemWidth::B8, false) => ins.uload8(I64, f, p, 0),
            (MemWidth::B8, true) => ins.sload8(I64, f, p, 0),
            (MemWidth::B16, false) => ins.uload16(I64, f, p, 0),
            (MemWidth::B16, true) => ins.sload16(I64, f, p, 0),
            (MemWidth::B32, false) => ins.uload32(f, p, 0),
            (MemWidth::B32, true) => ins.sload32(f, p, 0),
            (MemWidth::B64, _) => ins.load(I64, f, p, 0),
        };
        if ty.bits() >= 64 {
            v
        } else {
            self.b.ins().band_imm_u(v, ty.bit_mask() as i64)
        }
    }

    /// Stores the low `width` bytes of the 64-bit `v` at host address `p`.
    fn store_raw(&mut self, p: Value, width: MemWidth, v: Value) {
        let f = mem();
        let ins = self.b.ins();
        match width {
            MemWidth::B8 => ins.istore8(f, v, p, 0),
            MemWidth::B16 => ins.istore16(f, v, p, 0),
            MemWidth::B32 => ins.istore32(f, v, p, 0),
            MemWidth::B64 => ins.store(f, v, p, 0),
        };
    }

    /// Whether lane `l` acts under `mask` (an `i8`-compatible truth value).
    fn lane_on(&mut self, mask: Option<Opnd>, l: Value) -> Option<Value> {
        let m = mask?;
        let v = self.opnd_at(m, l);
        let on = self.b.ins().band_imm_u(v, 1);
        Some(self.or_full(m, on))
    }

    /// The full-mask test of the access being compiled, when its mask's slot is `s` (the slot
    /// holds the lanes only when the test fails, see [`Self::memory_op`]).
    pub(super) fn masked_full(&self, s: u32) -> Option<Value> {
        self.mask_override
            .filter(|&(_, slot, _)| slot == s)
            .map(|(_, _, full)| full)
    }

    /// `on` (an `i64` 0 or 1 read from mask `m`'s slot), or 1 when `m` has every lane set.
    fn or_full(&mut self, m: Opnd, on: Value) -> Value {
        match m {
            Opnd::Slot(s) => match self.masked_full(s) {
                Some(full) => {
                    let full = self.b.ins().uextend(I64, full);
                    self.b.ins().bor(on, full)
                }
                None => on,
            },
            Opnd::Uniform(_) => on,
        }
    }

    /// Continues in a new block for lane `l` if it acts under `mask`; returns the block after
    /// the lane, where a lane that does not act goes at once.
    fn acting(&mut self, mask: Option<Opnd>, l: Value) -> cranelift_codegen::ir::Block {
        let next = self.b.create_block();
        let act = self.b.create_block();
        match self.lane_on(mask, l) {
            Some(on) => self.b.ins().brif(on, act, &[], next, &[]),
            None => self.b.ins().jump(act, &[]),
        };
        self.b.switch_to_block(act);
        next
    }

    /// A loop `for l in 0..wave_size` whose body `body` builds code for lane `l` and returns
    /// the block that continues with the next lane; `exit` is where the loop ends.
    fn lane_loop(
        &mut self,
        exit: cranelift_codegen::ir::Block,
        mut body: impl FnMut(&mut Self, Value) -> R<cranelift_codegen::ir::Block>,
    ) -> R<()> {
        let header = self.b.create_block();
        let l = self.b.append_block_param(header, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(header, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(header);
        let ws = i64::from(self.layout.wave_size);
        let done = self.b.ins().icmp_imm_u(CIntCC::Equal, l, ws);
        let work = self.b.create_block();
        self.b.ins().brif(done, exit, &[], work, &[]);
        self.b.switch_to_block(work);
        let next = body(self, l)?;
        self.b.switch_to_block(next);
        let l1 = self.b.ins().iadd_imm_u(l, 1);
        self.b.ins().jump(header, &[BlockArg::Value(l1)]);
        Ok(())
    }

    /// A loop `for c in 0..chunks` over the wave's 4-lane chunks whose body `body` builds the
    /// code of chunk `c` (an `i64`); `done` is where the loop ends.
    fn each_chunk(
        &mut self,
        done: cranelift_codegen::ir::Block,
        mut body: impl FnMut(&mut Self, Value),
    ) {
        let header = self.b.create_block();
        let c = self.b.append_block_param(header, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(header, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(header);
        body(self, c);
        let c1 = self.b.ins().iadd_imm_u(c, 1);
        let more = self
            .b
            .ins()
            .icmp_imm_u(CIntCC::UnsignedLessThan, c1, self.nchunks);
        self.b
            .ins()
            .brif(more, header, &[BlockArg::Value(c1)], done, &[]);
    }

    /// Packs the result slot of instruction `i`, which a helper or a host routine filled in
    /// the [`wavejit_runtime::Lanes`] form, when the plan packs it ([`crate::plan::Plan::packed`]):
    /// lane `l`'s low 32 bits to byte `4 l`, in place (a chunk's packed bytes lie at or below
    /// the entries it reads, and the chunks go up).
    pub(super) fn repack(&mut self, i: usize) -> R<()> {
        if !self.plan.packed[i] {
            return Ok(());
        }
        let s = self.plan.slot[i].ok_or("a packed value without a slot")?;
        let done = self.b.create_block();
        self.each_chunk(done, |e, c| {
            let at = s as i64 * SLOT_BYTES;
            let wide = e.b.ins().ishl_imm_u(c, 5);
            let p = e.b.ins().iadd(e.scratch, wide);
            let lo = e.b.ins().load(I64X2, mem(), p, at as i32);
            let hi = e.b.ins().load(I64X2, mem(), p, at as i32 + 16);
            let low = deinterleave(&mut e.b, lo, hi).0;
            let v = bc(&mut e.b, I32X4, low);
            let narrow = e.b.ins().ishl_imm_u(c, 4);
            let q = e.b.ins().iadd(e.scratch, narrow);
            e.b.ins().store(mem(), v, q, at as i32);
        });
        self.b.switch_to_block(done);
        Ok(())
    }

    /// Unpacks slot `s` to the [`wavejit_runtime::Lanes`] form in place when the plan packs
    /// it (a store value, [`crate::plan::Plan::packed`], whose other paths read lanes as 64-bit
    /// entries), and reads it in that form from then on. The chunks go down: chunk `c`'s
    /// entries lie at or above its packed bytes and below every later chunk's.
    fn unpack(&mut self, s: u32) {
        if !self.plan.packed_slot[s as usize] || !self.unpacked.insert(s) {
            return;
        }
        let at = s as i64 * SLOT_BYTES;
        let zero = const32x4(&mut self.b, [0; 4]);
        for c in (0..i64::from(self.layout.wave_size) / 4).rev() {
            let x = self
                .b
                .ins()
                .load(I32X4, mem(), self.scratch, (at + 16 * c) as i32);
            let (p0, p1) = interleave(&mut self.b, x, zero);
            self.b
                .ins()
                .store(mem(), p0, self.scratch, (at + 32 * c) as i32);
            self.b
                .ins()
                .store(mem(), p1, self.scratch, (at + 32 * c + 16) as i32);
        }
    }

    /// Whether every pair `(x, y)` of `pairs` (vectors of one type) has `x cc y` in every lane
    /// (an `i8` truth value; `if_none` without pairs).
    fn every_lane(&mut self, cc: CIntCC, pairs: Vec<(Value, Value)>, if_none: bool) -> Value {
        let mut level: Vec<Value> = pairs
            .into_iter()
            .map(|(x, y)| self.b.ins().icmp(cc, x, y))
            .collect();
        // A tree of ands: a row's sixteen tests are four ands deep, not sixteen.
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|p| match *p {
                    [a, c] => self.b.ins().band(a, c),
                    [a] => a,
                    _ => unreachable!("chunks of two"),
                })
                .collect();
        }
        match level.first() {
            Some(&a) => self.b.ins().vall_true(a),
            None => self.b.ins().iconst(I8, i64::from(if_none)),
        }
    }

    /// Continues in a new block when window `w` holds an access of its width; returns the
    /// `slow` block (the helper's path) it goes to otherwise, and the `merge` block where the
    /// access's paths end.
    fn enter(
        &mut self,
        w: &Window,
    ) -> (cranelift_codegen::ir::Block, cranelift_codegen::ir::Block) {
        let (inside, slow, merge) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(w.fits, inside, &[], slow, &[]);
        self.b.switch_to_block(inside);
        (slow, merge)
    }

    /// Block `slow`: the helper path of instruction `i`, then a jump to `merge`, where the
    /// code continues. `fill`: the paths to `slow` read a row address without filling its
    /// slot, which the helper reads, so the slow path fills it first.
    fn slow_path(
        &mut self,
        i: usize,
        space: MemSpace,
        (slow, merge): (cranelift_codegen::ir::Block, cranelift_codegen::ir::Block),
        fill: bool,
    ) -> R<()> {
        self.b.switch_to_block(slow);
        if fill {
            self.row_address_slot(i)?;
        }
        let hint = (space == MemSpace::Global).then(|| self.hint_slot(i));
        self.wave_op_hinted(i, hint)?;
        self.b.ins().jump(merge, &[]);
        self.b.switch_to_block(merge);
        Ok(())
    }

    /// Lane `l` of a lane load: zero if its mask leaves it out, else the checked load (or
    /// the slow path). Returns the block that continues after the lane.
    fn load_lane(&mut self, w: &Window, ld: &LoadLane, l: Value) -> cranelift_codegen::ir::Block {
        let off = self.b.ins().ishl_imm_u(l, 3);
        let dst = self.b.ins().iadd(self.scratch, off);
        let next = self.b.create_block();
        let (act, skip) = (self.b.create_block(), self.b.create_block());
        match self.lane_on(ld.m, l) {
            Some(on) => self.b.ins().brif(on, act, &[], skip, &[]),
            None => self.b.ins().jump(act, &[]),
        };
        self.b.switch_to_block(skip);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().store(mem(), zero, dst, ld.out_at as i32);
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(act);
        let x = self.opnd_at(ld.a, l);
        let (ok, host) = self.checked(w, x, Some(l));
        let go = self.b.create_block();
        self.b.ins().brif(ok, go, &[], ld.slow, &[]);
        self.b.switch_to_block(go);
        let v = self.load_raw(host, ld.width, ld.signed, ld.ty);
        self.b.ins().store(mem(), v, dst, ld.out_at as i32);
        self.b.ins().jump(next, &[]);
        next
    }

    /// The lanes of a load with per-lane addresses (slot `a_slot`), four at a time: when the
    /// four addresses pass their checks (two vector compares), four loads without branches,
    /// the lanes the mask leaves out zeroed; otherwise the four lanes one by one.
    fn chunk_loads(
        &mut self,
        w: &Window,
        a_slot: u32,
        ld: &LoadLane,
        exit: cranelift_codegen::ir::Block,
    ) -> R<()> {
        let header = self.b.create_block();
        let c = self.b.append_block_param(header, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(header, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(header);
        let chunks = i64::from(self.layout.wave_size) / 4;
        let done = self.b.ins().icmp_imm_u(CIntCC::Equal, c, chunks);
        let (body, fast, lanes, next) = (
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
            self.b.create_block(),
        );
        self.b.ins().brif(done, exit, &[], body, &[]);
        self.b.switch_to_block(body);
        let off = self.b.ins().ishl_imm_u(c, 5);
        let p = self.b.ins().iadd(self.scratch, off);
        let at = (a_slot as i64 * SLOT_BYTES) as i32;
        let mut halves = [
            self.b.ins().load(I64X2, mem(), p, at),
            self.b.ins().load(I64X2, mem(), p, at + 16),
        ];
        if w.offset32 {
            let mut k = [0u8; 16];
            k[..4].copy_from_slice(&[0xff; 4]);
            k[8..12].copy_from_slice(&[0xff; 4]);
            let low = vconst(&mut self.b, I64X2, k);
            for h in halves.iter_mut() {
                *h = self.b.ins().band(*h, low);
            }
        }
        let lo = self.b.ins().splat(I64X2, w.lo);
        let last = self.b.ins().splat(I64X2, w.last);
        let mut all = None;
        for h in halves {
            let ge = self.b.ins().icmp(CIntCC::UnsignedGreaterThanOrEqual, h, lo);
            let le = self.b.ins().icmp(CIntCC::UnsignedLessThanOrEqual, h, last);
            let both = self.b.ins().band(ge, le);
            all = Some(match all {
                Some(a) => self.b.ins().band(a, both),
                None => both,
            });
        }
        let ok = self.b.ins().vall_true(all.ok_or("empty chunk")?);
        self.b.ins().brif(ok, fast, &[], lanes, &[]);
        self.b.switch_to_block(fast);
        for k in 0..4u8 {
            let x = self.b.ins().extractlane(halves[usize::from(k / 2)], k % 2);
            let mut host = self.b.ins().iadd(w.base, x);
            if let Some(stride) = w.stride {
                let l = self.b.ins().ishl_imm_u(c, 2);
                let l = self.b.ins().iadd_imm_u(l, i64::from(k));
                let seg = self.b.ins().imul(l, stride);
                host = self.b.ins().iadd(host, seg);
            }
            let mut v = self.load_raw(host, ld.width, ld.signed, ld.ty);
            let lane_at = 8 * i32::from(k);
            match ld.m {
                None => {}
                Some(Opnd::Slot(ms)) => {
                    let m =
                        self.b
                            .ins()
                            .load(I64, mem(), p, (ms as i64 * SLOT_BYTES) as i32 + lane_at);
                    let on = self.b.ins().band_imm_u(m, 1);
                    let on = self.or_full(Opnd::Slot(ms), on);
                    let keep = self.b.ins().ineg(on);
                    v = self.b.ins().band(v, keep);
                }
                Some(Opnd::Uniform(mu)) => {
                    let mu = if self.b.func.dfg.value_type(mu) == I64 {
                        mu
                    } else {
                        self.b.ins().uextend(I64, mu)
                    };
                    let on = self.b.ins().band_imm_u(mu, 1);
                    let keep = self.b.ins().ineg(on);
                    v = self.b.ins().band(v, keep);
                }
            }
            self.b.ins().store(mem(), v, p, ld.out_at as i32 + lane_at);
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(lanes);
        let first = self.b.ins().ishl_imm_u(c, 2);
        for k in 0..4 {
            let l = self.b.ins().iadd_imm_u(first, k);
            let after = self.load_lane(w, ld, l);
            self.b.switch_to_block(after);
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
        let c1 = self.b.ins().iadd_imm_u(c, 1);
        self.b.ins().jump(header, &[BlockArg::Value(c1)]);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn lane_load(
        &mut self,
        i: usize,
        space: MemSpace,
        width: MemWidth,
        signed: bool,
        ty: ScalarType,
        addr: wavejit_ir::Value,
        mask: Option<wavejit_ir::Value>,
    ) -> R<()> {
        let out = self.plan.slot[i].ok_or("lane load without a result slot")?;
        let a = self.opnd(addr)?;
        let m = mask.map(|m| self.opnd(m)).transpose()?;
        let w = self.window(i, space, width);
        let direct = self.direct_reg(i);
        // Where the code continues once the register holds the result, for a direct load.
        let written = self.b.create_block();
        let out_at = out as i64 * SLOT_BYTES;
        let mask_slot = lane_mask(m);
        // A 32-bit LDS offset read from a row goes to the offset gather, which reads the row.
        let offsets = self.plan.row_address[i].as_ref().filter(|ra| {
            ra.bits32 && width == MemWidth::B32 && ty.bits() == 32 && mask_slot.is_some()
        });
        if let Some(ra) = &self.plan.row_address[i] {
            let load = row::RowAccess::Load {
                direct,
                out_at,
                packed: self.plan.packed[i],
            };
            self.row_access(i, ra, &w, mask, load, written, offsets.is_none())?;
        }
        let (slow, merge) = self.enter(&w);
        if let (Some(ra), Some(ms)) = (offsets, mask_slot) {
            let full = self.full_mask(mask)?;
            let packed = self.plan.packed[i];
            self.offset_gather(&w, ra, ms, full, direct, (out_at, packed), slow)?;
            // The paths to `merge` leave the slot to be packed there.
            let to = if direct.is_some() || packed {
                written
            } else {
                merge
            };
            self.b.ins().jump(to, &[]);
        } else {
            let paths = (direct, out_at, written);
            let kind = (width, signed, ty);
            self.slot_load_paths((a, m, mask), &w, paths, (slow, merge), kind)?;
        }
        self.slow_path(i, space, (slow, merge), offsets.is_some())?;
        // Every path to `merge` left the result slot in the `Lanes` form.
        self.repack(i)?;
        if let Some(reg) = direct {
            self.slot_to_row(out, reg, m);
            if let Some(j) = self.plan.direct_write[i] {
                self.written.insert(j);
            }
        }
        self.b.ins().jump(written, &[]);
        self.b.switch_to_block(written);
        Ok(())
    }

    /// A lane load's paths from its address slot: the consecutive vector copy, the one-word
    /// row, the host gather, the lane loops.
    #[allow(clippy::type_complexity)]
    fn slot_load_paths(
        &mut self,
        (a, m, mask): (Opnd, Option<Opnd>, Option<wavejit_ir::Value>),
        w: &Window,
        (direct, out_at, written): (Option<wavejit_ir::Reg>, i64, cranelift_codegen::ir::Block),
        (slow, merge): (cranelift_codegen::ir::Block, cranelift_codegen::ir::Block),
        (width, signed, ty): (MemWidth, bool, ScalarType),
    ) -> R<()> {
        let mask_slot = lane_mask(m);
        if let (MemWidth::B32, 32, Opnd::Slot(a_slot), Some(ms), None) =
            (width, ty.bits(), a, mask_slot, w.stride)
        {
            let (vector, lanes) = (self.b.create_block(), self.b.create_block());
            let a0 = self.quick_consecutive(a_slot, lanes);
            let cons = self.consecutive(a_slot, a0);
            let (inside, host) = self.span_checked(w, a0);
            let ok = self.b.ins().band(cons, inside);
            self.b.ins().brif(ok, vector, &[], lanes, &[]);
            self.b.switch_to_block(vector);
            // A mask with every lane on leaves nothing to zero.
            let masked = match (ms, self.full_mask(mask)?) {
                (Some(ms), Some(full)) => {
                    let (all, some) = (self.b.create_block(), self.b.create_block());
                    self.b.ins().brif(full, all, &[], some, &[]);
                    self.b.switch_to_block(all);
                    self.copy_vector(host, None, direct, out_at, [merge, written]);
                    self.b.switch_to_block(some);
                    Some(ms)
                }
                (ms, _) => ms,
            };
            self.copy_vector(host, masked, direct, out_at, [merge, written]);
            self.b.switch_to_block(lanes);
        }
        let lane = LoadLane {
            a,
            m,
            out_at,
            width,
            signed,
            ty,
            slow,
        };
        match (a, mask_slot) {
            (Opnd::Slot(a_slot), Some(ms)) => {
                let full = self.full_mask(mask)?;
                if let (Some(reg), MemWidth::B32, None) = (direct, width, w.stride) {
                    self.same_address_row(w, a_slot, ms, full, reg, written);
                }
                match direct {
                    Some(reg) if width == MemWidth::B32 => {
                        self.gather_into_row(w, a_slot, ms, full, reg, slow);
                        self.b.ins().jump(written, &[]);
                    }
                    _ => {
                        self.gather(w, a_slot, ms, full, &lane)?;
                        self.b.ins().jump(merge, &[]);
                    }
                }
            }
            (Opnd::Slot(a_slot), None) => self.chunk_loads(w, a_slot, &lane, merge)?,
            (Opnd::Uniform(_), _) => self.lane_loop(merge, |e, l| Ok(e.load_lane(w, &lane, l)))?,
        }
        Ok(())
    }

    /// Lanes `4 c .. 4 c + 4` of an operand as four 32-bit values (the low halves of a slot's
    /// entries, or a uniform value four times).
    fn packed_chunk(&mut self, o: Opnd, c: i64) -> Value {
        let packed = match o {
            Opnd::Slot(s) if self.plan.packed_slot[s as usize] && !self.unpacked.contains(&s) => {
                let at = s as i64 * SLOT_BYTES + 16 * c;
                self.b.ins().load(I32X4, mem(), self.scratch, at as i32)
            }
            Opnd::Slot(s) => {
                let at = s as i64 * SLOT_BYTES + 32 * c;
                let lo = self.b.ins().load(I64X2, mem(), self.scratch, at as i32);
                let hi = self
                    .b
                    .ins()
                    .load(I64X2, mem(), self.scratch, (at + 16) as i32);
                shuffle32(&mut self.b, lo, hi, [0, 2, 4, 6])
            }
            Opnd::Uniform(x) => {
                let x = if self.b.func.dfg.value_type(x) == I64 {
                    self.b.ins().ireduce(I32, x)
                } else {
                    x
                };
                self.b.ins().splat(I32X4, x)
            }
        };
        bc(&mut self.b, I32X4, packed)
    }

    /// The consecutive lanes at `host`: into the register of a direct load when no lane is
    /// masked off, then on to `to[1]`; else into the result slot at `out_at`, zero where mask
    /// slot `masked` is off, then on to `to[0]`.
    fn copy_vector(
        &mut self,
        host: Value,
        masked: Option<u32>,
        direct: Option<wavejit_ir::Reg>,
        out_at: i64,
        to: [cranelift_codegen::ir::Block; 2],
    ) {
        match (masked, direct) {
            (None, Some(reg)) => {
                self.copy_consecutive_row(host, reg);
                self.b.ins().jump(to[1], &[]);
            }
            (masked, _) => {
                self.copy_consecutive(host, masked, out_at);
                self.b.ins().jump(to[0], &[]);
            }
        }
    }

    fn uniform_load(
        &mut self,
        i: usize,
        space: MemSpace,
        width: MemWidth,
        signed: bool,
        ty: ScalarType,
        addr: wavejit_ir::Value,
    ) -> R<()> {
        let t = if ty.bits() >= 64 { I64 } else { I32 };
        let a = self.u(addr)?;
        let a = if self.b.func.dfg.value_type(a) == I64 {
            a
        } else {
            self.b.ins().uextend(I64, a)
        };
        let w = self.window(i, space, width);
        let (slow, merge) = self.enter(&w);
        let fast = self.b.create_block();
        self.b.append_block_param(merge, t);
        let (ok, host) = self.checked(&w, a, None);
        self.b.ins().brif(ok, fast, &[], slow, &[]);
        self.b.switch_to_block(fast);
        let v = self.load_raw(host, width, signed, ty);
        let v = if t == I64 {
            v
        } else {
            self.b.ins().ireduce(I32, v)
        };
        self.b.ins().jump(merge, &[BlockArg::Value(v)]);
        self.b.switch_to_block(slow);
        let hint = (space == MemSpace::Global).then(|| self.hint_slot(i));
        self.wave_op_hinted(i, hint)?;
        let y = self.u(wavejit_ir::Value(i as u32))?;
        self.b.ins().jump(merge, &[BlockArg::Value(y)]);
        self.b.switch_to_block(merge);
        self.uvals[i] = Some(self.b.block_params(merge)[0]);
        Ok(())
    }

    fn store(
        &mut self,
        i: usize,
        space: MemSpace,
        width: MemWidth,
        addr: wavejit_ir::Value,
        value: wavejit_ir::Value,
        mask: Option<wavejit_ir::Value>,
    ) -> R<()> {
        let a = self.opnd(addr)?;
        let v = self.opnd(value)?;
        let m = mask.map(|m| self.opnd(m)).transpose()?;
        // A uniform address and value store once, for the first acting lane (the helper's
        // rule): the last acting lane's store writes the same bytes at the same place, so
        // storing for every acting lane is the same.
        let w = self.window(i, space, width);
        let Some(ra) = &self.plan.row_address[i] else {
            return self.store_lanes(i, space, width, (a, v, m), w, mask);
        };
        let done = self.b.create_block();
        self.row_access(i, ra, &w, mask, row::RowAccess::Store(v), done, true)?;
        if let Opnd::Slot(s) = v {
            self.unpack(s);
        }
        self.store_lanes(i, space, width, (a, v, m), w, mask)?;
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        Ok(())
    }

    /// The store's paths from its address slot (`a`, `v`, `m`: its operands).
    fn store_lanes(
        &mut self,
        i: usize,
        space: MemSpace,
        width: MemWidth,
        (a, v, m): (Opnd, Opnd, Option<Opnd>),
        w: Window,
        mask: Option<wavejit_ir::Value>,
    ) -> R<()> {
        let (slow, merge) = self.enter(&w);
        let write = self.b.create_block();
        let mask_slot = lane_mask(m);
        if let (MemWidth::B32, Opnd::Slot(a_slot), Some(ms), None) = (width, a, mask_slot, w.stride)
        {
            let (vector, lanes) = (self.b.create_block(), self.b.create_block());
            let a0 = self.quick_consecutive(a_slot, lanes);
            let cons = self.consecutive(a_slot, a0);
            let (inside, host) = self.span_checked(&w, a0);
            let mut ok = self.b.ins().band(cons, inside);
            // The LDS belongs to the work-group, whose waves run on one thread: a store there
            // may rewrite inactive lanes' words with what they hold (a blend), which no other
            // thread can see. In global memory another work-group may be writing them.
            let mut blend = None;
            if let Some(ms) = ms {
                let all = match self.full_mask(mask)? {
                    Some(full) => full,
                    None => self.all_on(ms),
                };
                if space == MemSpace::Lds {
                    blend = Some((ms, all));
                } else {
                    ok = self.b.ins().band(ok, all);
                }
            }
            self.b.ins().brif(ok, vector, &[], lanes, &[]);
            self.b.switch_to_block(vector);
            if let Some((ms, all)) = blend {
                let (every, some) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(all, every, &[], some, &[]);
                self.b.switch_to_block(some);
                for c in 0..i64::from(self.layout.wave_size) / 4 {
                    let new = self.packed_chunk(v, c);
                    let on = self.packed_chunk(Opnd::Slot(ms), c);
                    let zero = const32x4(&mut self.b, [0; 4]);
                    let sel = self.b.ins().icmp(CIntCC::NotEqual, on, zero);
                    let old = self.b.ins().load(I32X4, mem(), host, (16 * c) as i32);
                    let x = self.b.ins().bitselect(sel, new, old);
                    self.b.ins().store(mem(), x, host, (16 * c) as i32);
                }
                self.b.ins().jump(merge, &[]);
                self.b.switch_to_block(every);
            }
            for c in 0..i64::from(self.layout.wave_size) / 4 {
                let packed = self.packed_chunk(v, c);
                self.b.ins().store(mem(), packed, host, (16 * c) as i32);
            }
            self.b.ins().jump(merge, &[]);
            self.b.switch_to_block(lanes);
        }
        if let (Opnd::Slot(a_slot), Opnd::Slot(v_slot), Some(ms)) = (a, v, mask_slot) {
            let full = self.full_mask(mask)?;
            self.scatter(&w, width, a_slot, v_slot, ms, full, slow)?;
            self.b.ins().jump(merge, &[]);
            self.b.switch_to_block(write);
            self.b.ins().jump(merge, &[]);
            return self.slow_path(i, space, (slow, merge), false);
        }
        // Pass 1: every acting lane's access is in the window.
        self.lane_loop(write, |e, l| {
            let next = e.acting(m, l);
            let x = e.opnd_at(a, l);
            let (ok, _) = e.checked(&w, x, Some(l));
            e.b.ins().brif(ok, next, &[], slow, &[]);
            Ok(next)
        })?;
        // Pass 2: the stores, in lane order.
        self.b.switch_to_block(write);
        self.lane_loop(merge, |e, l| {
            let next = e.acting(m, l);
            let x = e.opnd_at(a, l);
            let (_, host) = e.checked(&w, x, Some(l));
            let y = e.opnd_at(v, l);
            e.store_raw(host, width, y);
            e.b.ins().jump(next, &[]);
            Ok(next)
        })?;
        self.slow_path(i, space, (slow, merge), false)
    }
}
