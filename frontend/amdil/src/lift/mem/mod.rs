//! Memory of compute kernels: UAVs (raw, arena, private, structured, typed), SRVs, the LDS,
//! the GDS, their atomics, and fences (seed 001 §7.2.10-§7.2.12 L3240-L3340, §7.15-§7.17
//! L9833-L13061).
//!
//! - `decl`: what each id is (the declarations).
//! - `place`: where an instruction's address goes ([`Place`]) for each kind of resource.
//! - `access`: loads and stores of dwords, bytes and shorts.
//! - `typed`: typed UAV loads and stores through the element format.
//! - `atomic`: every `lds_*`, `gds_*` and `uav_*` atomic and its `_read_` form.
//!
//! # Rules every access follows
//! - **Lanes**: only the lanes of the exec mask access memory ("if the kernel invocation is
//!   inactive, nothing is written", L3371); the others' destinations keep their values.
//! - **Alignment**: dword addresses "must be four-bytes aligned" (L11423, L10222) and shorts
//!   two-byte aligned (`/2`, L10284); the seed does not say what an unaligned one does: its low
//!   bits are ignored, so every access is one aligned element.
//! - **Ranges**, per space ([`Place`]): the arena (raw and arena UAVs) is the whole global heap
//!   under AMD's runtime, so an access outside the launch's buffers is a guest fault naming the
//!   address (the seed's "returns 0" rule, L11439, is about a UAV's own bound range, which the
//!   heap does not have). Resources with a bound (private UAVs, views, the GDS) follow the seed:
//!   loads out of range return 0 and stores write nothing (L11439, L11464, L3369); where the
//!   seed calls the result undefined (a structure offset past the stride, L12015) the same
//!   rule is the choice. The LDS follows the IR's rule (reads outside the allocation give 0,
//!   writes are dropped, an atomic not wholly inside does nothing and returns 0).
//! - **Order**: the seed gives atomics no order between work-items (L3283, L3316). Here one
//!   instruction's lanes act in ascending lane order (the IR's atomics, `AtomicOp`), each
//!   access completes before the next instruction, and one thread runs a work-group's waves in
//!   turn, switching only at barriers; so within a work-group results are reproducible, and
//!   between work-groups (which run in parallel) atomics are atomic per access.
//! - **Cache controls**: `_cached`/`_uncached` (`IL_UAV_READ_TYPE`, L11450) and AMD's
//!   undocumented `_ctl(n)` (uav_raw_load bits 31:28; `ctl(4)` marks loads of read-only
//!   pointers in the corpus, `ctl(4)`/`ctl(11)` appear on declarations) only choose cache paths.
//!   With every access reaching memory in program order there is no cache to observe, so they
//!   are accepted and change nothing.
//! - `fence` (L5261-L5340) needs at least one option (L5269). `_threads` is the work-group
//!   barrier, which the IR expresses as a block-ending barrier; the seed forbids it inside
//!   control flow (L5271), and a wave reaching it inside a uniform loop (OpenCL's barriers in
//!   loops) waits there each time, which is the only reading a compiler can rely on. The
//!   other options order memory only, which the order above already gives: they lift to
//!   nothing.

mod access;
mod atomic;
pub(super) mod decl;
mod place;
mod typed;

pub(super) use place::Place;

use super::regs::{Kind, ONE};
use super::Lifter;
use crate::token::{DstComp, DstMod, RegType};
use wavejit_ir::{IntCC, MemWidth, Op, ScalarType, Terminator, Value};
use wavejit_isa::LiftError;

use ScalarType::{I1, I32, I64};

impl Lifter<'_> {
    /// Lifts a memory instruction or fence; `false` if `m` is not one.
    pub(super) fn lift_mem(&mut self, m: &str) -> Result<bool, LiftError> {
        if m == "fence" {
            self.fence()?;
            return Ok(true);
        }
        Ok(self.lift_access(m)? || self.lift_typed(m)? || self.lift_atomic(m)?)
    }

    /// The instruction's resource id.
    fn res_id(&self) -> u32 {
        u32::from(self.field("id"))
    }

    /// The address and the lanes in range of the access `width` bytes wide at byte `k` of
    /// `p`.
    fn target(&mut self, p: &Place, k: u32, width: u32) -> (Value, Option<Value>) {
        let b = &mut self.b;
        let addr = match p.base {
            Some(base) => {
                let k = b.i64(u64::from(k));
                let at = b.op(Op::Iadd, I64, &[p.at, k]);
                b.op(Op::Iadd, I64, &[base, at])
            }
            None => {
                let k = b.i32(k);
                b.op(Op::Iadd, I32, &[p.at, k])
            }
        };
        let mut ok = p.ok;
        if let Some((rel, limit)) = p.check {
            // rel + k + width <= limit, in 64 bits so that nothing wraps.
            let end = b.i64(u64::from(k) + u64::from(width));
            let end = b.op(Op::Iadd, I64, &[rel, end]);
            let inside = b.op(Op::Icmp(IntCC::Ule), I1, &[end, limit]);
            ok = Some(match ok {
                Some(o) => b.op(Op::And, I1, &[o, inside]),
                None => inside,
            });
        }
        (b.splat(addr), ok)
    }

    /// The exec mask, narrowed to `ok` when given.
    fn acting(&mut self, ok: Option<Value>) -> Value {
        let exec = self.exec_mask();
        match ok {
            Some(o) => self.b.op(Op::And, I1, &[exec, o]),
            None => exec,
        }
    }

    /// Loads `width` bytes at byte `k` of `p`, extended to 32 bits; lanes out of range read 0.
    fn load_at(&mut self, p: &Place, k: u32, width: MemWidth, signed: bool) -> Value {
        let (addr, ok) = self.target(p, k, width.bytes());
        let mask = self.acting(ok);
        self.b.load(p.space, width, signed, I32, addr, Some(mask))
    }

    /// Stores the low `width` bytes of `v` at byte `k` of `p` in the lanes in range.
    fn store_at(&mut self, p: &Place, k: u32, width: MemWidth, v: Value) {
        let (addr, ok) = self.target(p, k, width.bytes());
        let mask = self.acting(ok);
        self.b.store(p.space, width, addr, v, Some(mask));
    }

    /// Source `i`'s component `c` as an address (an integer source: swizzle and `neg`).
    fn address_comp(&mut self, i: usize, c: usize) -> Result<Value, LiftError> {
        self.src(i, c, Kind::Int)
    }

    /// Writes one loaded value into dst.x, refusing a mask that writes y, z or w: the entries
    /// of the single-value loads give only dst.x (`why` cites the one at hand).
    fn write_x(&mut self, v: impl FnOnce(&mut Self) -> Value, why: &str) -> Result<(), LiftError> {
        let comps = self.dst_comps()?;
        if comps[1..].contains(&DstComp::Write) {
            return Err(self.invalid(format!("{why}, into dst.x")));
        }
        let x = (comps[0] == DstComp::Write).then(|| v(self));
        self.write_dst([x, None, None, None], [None; 4], Kind::Bits)
    }

    /// The write mask of a store's `mem` destination, which "is used only as a mask" (L11460);
    /// its 0 and 1 store 0.0 and 1.0f, as a register's would be written.
    fn mem_mask(&self) -> Result<[DstComp; 4], LiftError> {
        let Some(dst) = self.inst().dst.first() else {
            return Err(self.invalid("no destination"));
        };
        if dst.reg.ty != RegType::GENERIC_MEM {
            return Err(self.invalid("the destination of a store is mem, its write mask (L11460)"));
        }
        let m = dst.modifier.unwrap_or(DstMod::IDENTITY);
        if m.shift != 0 || m.clamp {
            return Err(self.invalid("mem takes a write mask only"));
        }
        Ok(m.comp)
    }

    /// The value each component of `mask` stores: source `i`'s component, or 0.0 or 1.0f.
    fn store_values(
        &mut self,
        mask: [DstComp; 4],
        i: usize,
    ) -> Result<[Option<Value>; 4], LiftError> {
        let mut data = [None; 4];
        for (c, slot) in data.iter_mut().enumerate() {
            *slot = match mask[c] {
                DstComp::NoWrite => None,
                DstComp::Write => Some(self.src(i, c, Kind::Bits)?),
                DstComp::Zero => Some(self.b.i32(0)),
                DstComp::One => Some(self.b.i32(ONE)),
            };
        }
        Ok(data)
    }

    /// The one component a single-value mask writes.
    fn one_component(&self, mask: &[DstComp; 4]) -> Result<usize, LiftError> {
        let written: Vec<usize> = (0..4).filter(|&c| mask[c] == DstComp::Write).collect();
        match written[..] {
            [c] if mask
                .iter()
                .all(|&m| matches!(m, DstComp::Write | DstComp::NoWrite)) =>
            {
                Ok(c)
            }
            _ => Err(self.invalid("the mask must write exactly one component (.x, .y, .z or .w)")),
        }
    }

    fn fence(&mut self) -> Result<(), LiftError> {
        self.operands(0, 0)?;
        if self.inst().control == 0 {
            return Err(self.invalid("a fence names at least one option (L5269)"));
        }
        if self.field("threads") != 0 {
            let next = self.b.create_block();
            self.b.terminate(Terminator::Barrier(next));
            self.enter(next);
        }
        Ok(())
    }
}

/// `v` with its low bits cleared to a multiple of `align` (a power of two).
fn align_down(b: &mut wavejit_ir::FunctionBuilder, v: Value, align: u32) -> Value {
    if align <= 1 {
        return v;
    }
    let m = b.i32(!(align - 1));
    b.op(Op::And, I32, &[v, m])
}

/// The space-neutral memory widths by byte count.
fn width_of(bytes: u32) -> MemWidth {
    match bytes {
        1 => MemWidth::B8,
        2 => MemWidth::B16,
        _ => MemWidth::B32,
    }
}
