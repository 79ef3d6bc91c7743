//! Memory of OpenCL kernels: raw UAV loads and stores into the global arena, LDS loads and
//! stores, fences.
//!
//! - `uav_raw_load_id(n) dst, src0.x` (L11417): dword `c` of dst is the dword at byte
//!   `src0.x + 4c`, for each component the mask writes (the others are not read).
//!   `uav_raw_store_id(n) mem.mask, src0.x, src1` (L11455): dword `c` of src1 goes to
//!   byte `src0.x + 4c` for each component of the `mem` mask (which "is used only as a
//!   mask", L11460; its 0 and 1 store 0.0 and 1.0f, as a register's would be written). UAV
//!   `n` must be declared raw (`dcl_raw_uav`, or `dcl_typeless_uav`/`dcl_arena_uav`); every
//!   such id addresses the arena: the byte offset counts from the `arena` cells' address.
//! - `lds_load_id(n) dst, src0.x` (L10216, L10228) reads the dword at byte `src0.x` into dst.x
//!   (a mask writing y, z or w is refused: the entry gives only dst.x); `lds_store_id(n)
//!   src0.x, src1.x` (L10853) writes one. Every LDS id addresses the work-group's LDS
//!   from byte 0; the id must be declared (`dcl_lds`). The IR's LDS reads 0 and drops writes
//!   outside the allocation.
//! - Addresses "must be four-bytes aligned" (L11423, L10222); the seed does not say what an
//!   unaligned one does: its low two bits are ignored, so every access is one aligned dword.
//! - Only the lanes of the exec mask access memory ("if the kernel invocation is inactive,
//!   nothing is written", L3371).
//! - Out of range: the seed's rule (a raw load out of range returns 0, a store writes nothing,
//!   L11439, L3369) is about the UAV's bound range, which under AMD's OpenCL runtime is the
//!   whole global heap, where an address outside the kernel's buffers reaches other
//!   allocations. The emulator's arena holds only the launch's buffers, so an access outside
//!   all of them is a guest fault naming the address: the kernel's bug, reported.
//! - `fence` (L5261-L5340) needs at least one option (L5269). `_threads` is the work-group
//!   barrier, which the IR expresses as a block-ending barrier; the seed forbids it inside
//!   control flow (L5271), and a wave reaching it inside a uniform loop (OpenCL's barriers in
//!   loops) waits there each time, which is the only reading a compiler can rely on. The
//!   other options order memory only: one thread runs a work-group's waves in turn and every
//!   access completes before the next instruction, so they lift to nothing.

use super::regs::{Kind, ONE};
use super::Lifter;
use crate::token::{DstComp, DstMod, RegType};
use wavejit_ir::{MemSpace, MemWidth, Op, ScalarType, Terminator, Value};
use wavejit_isa::LiftError;

use ScalarType::{I32, I64};

impl Lifter<'_> {
    /// Lifts a memory instruction or fence; `false` if `m` is not one.
    pub(super) fn lift_mem(&mut self, m: &str) -> Result<bool, LiftError> {
        match m {
            "uav_raw_load" => self.uav_raw_load()?,
            "uav_raw_store" => self.uav_raw_store()?,
            "lds_load" => self.lds_load()?,
            "lds_store" => self.lds_store()?,
            "fence" => self.fence()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The UAV id of a raw access, checked against the declarations.
    fn raw_uav(&self) -> Result<(), LiftError> {
        let id = u32::from(self.field("id"));
        if self.decls.raw_uavs.contains(&id) {
            Ok(())
        } else {
            Err(self.invalid(format!("UAV {id} is not declared raw (L11423)")))
        }
    }

    /// The dword-aligned byte offset in source `i`'s x component.
    fn byte_offset(&mut self, i: usize) -> Result<Value, LiftError> {
        let v = self.src(i, 0, Kind::Int)?;
        let m = self.b.i32(!3);
        Ok(self.b.op(Op::And, I32, &[v, m]))
    }

    /// The arena address of dword `c` after byte offset `offset`, per lane.
    fn arena_address(&mut self, offset: Value, c: u32) -> Value {
        let r = self.l.arena();
        let base = self.b.use_reg(r, I64);
        let b = &mut self.b;
        let off = b.op(Op::Zext, I64, &[offset]);
        let k = b.i64(4 * u64::from(c));
        let off = b.op(Op::Iadd, I64, &[off, k]);
        let addr = b.op(Op::Iadd, I64, &[base, off]);
        b.splat(addr)
    }

    fn uav_raw_load(&mut self) -> Result<(), LiftError> {
        self.operands(1, 1)?;
        self.raw_uav()?;
        let comps = self.dst_comps()?;
        let offset = self.byte_offset(0)?;
        let exec = self.exec_mask();
        let mut vals = [None; 4];
        for c in 0..4 {
            if comps[c] == DstComp::Write {
                let addr = self.arena_address(offset, c as u32);
                vals[c] = Some(self.b.load(
                    MemSpace::Global,
                    MemWidth::B32,
                    false,
                    I32,
                    addr,
                    Some(exec),
                ));
            }
        }
        self.write_dst(vals, [None; 4], Kind::Bits)
    }

    fn uav_raw_store(&mut self) -> Result<(), LiftError> {
        self.operands(1, 2)?;
        self.raw_uav()?;
        let dst = &self.inst().dst[0];
        if dst.reg.ty != RegType::GENERIC_MEM {
            return Err(
                self.invalid("the destination of a raw store is mem, its write mask (L11460)")
            );
        }
        let m = dst.modifier.unwrap_or(DstMod::IDENTITY);
        if m.shift != 0 || m.clamp {
            return Err(self.invalid("mem takes a write mask only"));
        }
        let offset = self.byte_offset(0)?;
        let mut data = [None; 4];
        for (c, slot) in data.iter_mut().enumerate() {
            *slot = match m.comp[c] {
                DstComp::NoWrite => None,
                DstComp::Write => Some(self.src(1, c, Kind::Bits)?),
                DstComp::Zero => Some(self.b.i32(0)),
                DstComp::One => Some(self.b.i32(ONE)),
            };
        }
        let exec = self.exec_mask();
        for (c, v) in data.iter().enumerate() {
            if let Some(v) = *v {
                let addr = self.arena_address(offset, c as u32);
                self.b
                    .store(MemSpace::Global, MemWidth::B32, addr, v, Some(exec));
            }
        }
        Ok(())
    }

    /// The LDS id of an LDS access, checked against the declarations.
    fn lds_id(&self) -> Result<(), LiftError> {
        let id = u32::from(self.field("id"));
        if self.decls.lds.contains(&id) {
            Ok(())
        } else {
            Err(self.invalid(format!("LDS {id} is not declared (dcl_lds, L9914)")))
        }
    }

    /// The LDS byte address in source 0's x component, per lane.
    fn lds_address(&mut self) -> Result<Value, LiftError> {
        let a = self.byte_offset(0)?;
        Ok(self.b.splat(a))
    }

    fn lds_load(&mut self) -> Result<(), LiftError> {
        self.operands(1, 1)?;
        self.lds_id()?;
        let comps = self.dst_comps()?;
        if comps[1..].contains(&DstComp::Write) {
            return Err(self.invalid("lds_load returns one dword, into dst.x (L10228)"));
        }
        let mut vals = [None; 4];
        if comps[0] == DstComp::Write {
            let addr = self.lds_address()?;
            let exec = self.exec_mask();
            vals[0] = Some(
                self.b
                    .load(MemSpace::Lds, MemWidth::B32, false, I32, addr, Some(exec)),
            );
        }
        self.write_dst(vals, [None; 4], Kind::Bits)
    }

    fn lds_store(&mut self) -> Result<(), LiftError> {
        self.operands(0, 2)?;
        self.lds_id()?;
        let addr = self.lds_address()?;
        let v = self.src(1, 0, Kind::Bits)?;
        let exec = self.exec_mask();
        self.b
            .store(MemSpace::Lds, MemWidth::B32, addr, v, Some(exec));
        Ok(())
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
