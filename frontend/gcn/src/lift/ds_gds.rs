//! Where a DS access goes: the work-group's LDS, or the dispatch's GDS (`gds` bit); and the
//! GDS-only synchronisation instructions (`ds_ordered_count`, `ds_gws_*`).
//!
//! # GDS
//! GDS is [`GDS_BYTES`] of guest memory per dispatch, zero-filled at launch and shared by every
//! work-group, at the address the launcher stores in the `gds` state cells. A DS instruction
//! with the `gds` bit computes the same byte address as its LDS form (`ds.rs`, `ds_ext.rs`) and
//! then goes through M0: `M0[15:0]` is the size of the wave's GDS window in bytes and
//! `M0[31:16]` its base (CLRX doc/GcnInstrsDs.md; the RDNA3 ISA's DS field table gives the
//! same two fields, `gds_size` and `gds_base`, both in bytes). LLVM sets M0 to the function's
//! GDS size (base 0) before a GDS access. An access of `n` bytes at address `a` is in range
//! when `a + n <= M0[15:0]` and `M0[31:16] + a + n <= GDS_BYTES`; it then acts on the global
//! address `gds + M0[31:16] + a`. Out of range, a lane does nothing: reads give 0, writes are
//! dropped, atomics return 0. The documents state that rule for LDS ("writes outside this
//! range are discarded; reads return 0", HD 6900 ISA) and are silent for GDS, so it is applied
//! to the GDS window too; that the whole access must lie inside (not just its first byte) is the
//! rule the runtime uses for LDS atomics, and for the dword-aligned accesses compilers emit it is
//! the same as a per-byte check. The second condition keeps a window whose base is near the
//! end from reaching guest memory past the GDS allocation. Addresses are not aligned down
//! (the LDS forms do not align either); a misaligned GDS atomic is the global space's
//! `Misaligned` fault. GDS accesses of different work-groups are atomic per access but
//! unordered between groups, as on hardware; a kernel whose result depends on that order is
//! racy on a GPU too.
//!
//! `ds_append`/`ds_consume` with `gds` act on the dword at `M0[31:16] + (offset & ~3)` (the
//! base is added for GDS, unlike for LDS) with the same window check. `ds_swizzle_b32` touches
//! no memory and ignores the bit; LLVM rejects `gds` on `ds_permute_b32`/`ds_bpermute_b32`
//! (invalid). The gfx9 `addtid` forms take their base from `M0[15:0]`, which for GDS is the
//! window size: no document says which meaning wins, so `addtid` with `gds` is unsupported.
//!
//! # Ordered count and global wave sync
//! Both make waves of different work-groups wait for each other: `ds_ordered_count` processes
//! the waves' requests in wave-creation order (a wave's request waits until every older wave's
//! has been processed), `ds_gws_sema_p` waits for a `v`/`br` of another wave and
//! `ds_gws_barrier` for a count of waves that may span the whole dispatch. The runtime runs
//! work-groups in parallel on a thread pool, switches waves only at `s_barrier` inside one
//! work-group, and must give results that do not depend on the thread count; a work-group
//! cannot block on another, and with fewer threads than groups the waves a barrier waits for
//! may not even have started. Dispatch-order ordered append would need exactly that blocking
//! (the value a wave receives is the sum of all older waves' increments), so it is not
//! implemented either. On hardware, compute dispatches get neither by default: the GWS
//! resources belong to a VMID only when the driver allocates them (a resource id outside the
//! VMID's range is NACKed and the wave halts, RDNA3.5 ISA §13.4.4, the same GWS unit), and
//! ordered append needs the dispatch's ordered-append mode and counters set up (the launcher
//! reports `ordered_append_term` 0 in the work-group info SGPR). So every `ds_ordered_count`
//! and `ds_gws_*` lifts to a guest fault ([`TrapKind::Explicit`]) naming the instruction, not
//! to an unsupported-instruction error: the program is valid, this machine halts it.
use super::{Flow, LiftError, Lifter};
use crate::inst::{Inst, Opcode};
use crate::lift::state::GDS_BYTES;
use wavejit_ir::{
    AtomicOp, IntCC, MemSpace, MemWidth, Op, ScalarType, Terminator, TrapKind, Value,
};
use ScalarType::*;

/// Why each GDS synchronisation instruction faults (see the module doc).
fn sync_fault(op: Opcode) -> Option<&'static str> {
    use Opcode::*;
    Some(match op {
        DS_ORDERED_COUNT => "ordered append is not enabled for compute dispatches",
        DS_GWS_INIT
        | DS_GWS_SEMA_V
        | DS_GWS_SEMA_BR
        | DS_GWS_SEMA_P
        | DS_GWS_BARRIER
        | DS_GWS_SEMA_RELEASE_ALL => "GWS resources are not allocated to compute dispatches",
        _ => return None,
    })
}

/// An IR memory access a DS address was placed at.
pub(crate) struct Placed {
    pub space: MemSpace,
    pub addr: Value,
    pub mask: Option<Value>,
}

impl Lifter<'_> {
    /// Ends the block with a guest fault if `inst` is a GDS synchronisation instruction.
    pub(crate) fn ds_sync(&mut self, inst: &Inst) -> Option<Flow> {
        let why = sync_fault(inst.opcode)?;
        let msg = format!("{}: {why}", inst.name());
        self.b.terminate(Terminator::Trap(TrapKind::Explicit(msg)));
        Some(Flow::Ended)
    }

    /// Rejects `gds` on the forms that cannot take it (see the module doc).
    pub(crate) fn ds_gds_check(&self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        if !inst.mem.gds {
            return Ok(());
        }
        match inst.opcode {
            DS_PERMUTE_B32 | DS_BPERMUTE_B32 => Err(self.invalid(
                inst,
                "gds on a lane permute (it touches no memory; LLVM rejects it)",
            )),
            DS_READ_ADDTID_B32 | DS_WRITE_ADDTID_B32 => Err(self.unsupported(
                inst,
                "addtid with gds: M0[15:0] is both the GDS window size and the addtid base",
            )),
            _ => Ok(()),
        }
    }

    /// Places an access of `bytes` bytes at DS byte address `addr` (`i32`, uniform or lane)
    /// for the lanes of `mask`: LDS as is, GDS through the M0 window (module doc). A GDS
    /// access is always lane-shaped; with no `mask`, every in-range lane acts.
    pub(crate) fn ds_place(
        &mut self,
        inst: &Inst,
        addr: Value,
        bytes: u32,
        mask: Option<Value>,
    ) -> Placed {
        if !inst.mem.gds {
            return Placed {
                space: MemSpace::Lds,
                addr,
                mask,
            };
        }
        let m0r = self.g.m0();
        let m0 = self.b.use_reg(m0r, I32);
        let k16 = self.b.i32(16);
        let base = self.b.op(Op::Lshr, I32, &[m0, k16]);
        let base = self.b.op(Op::Zext, I64, &[base]);
        let kmask = self.b.i32(0xffff);
        let size = self.b.op(Op::And, I32, &[m0, kmask]);
        let size = self.b.op(Op::Zext, I64, &[size]);
        let addr = self.b.splat(addr);
        let off = self.b.op(Op::Zext, I64, &[addr]);
        let n = self.b.i64(bytes as u64);
        let end = self.b.op(Op::Iadd, I64, &[off, n]);
        let in_window = self.b.op(Op::Icmp(IntCC::Ule), I1, &[end, size]);
        let phys_end = self.b.op(Op::Iadd, I64, &[end, base]);
        let cap = self.b.i64(GDS_BYTES as u64);
        let in_gds = self.b.op(Op::Icmp(IntCC::Ule), I1, &[phys_end, cap]);
        let ok = self.b.op(Op::And, I1, &[in_window, in_gds]);
        let mask = match mask {
            Some(m) => self.b.op(Op::And, I1, &[m, ok]),
            None => ok,
        };
        let cell = self.g.gds();
        let gds = self.b.use_reg(cell, I64);
        let start = self.b.op(Op::Iadd, I64, &[gds, base]);
        let addr = self.b.op(Op::Iadd, I64, &[start, off]);
        Placed {
            space: MemSpace::Global,
            addr,
            mask: Some(mask),
        }
    }

    /// A DS load (see [`Self::ds_place`]).
    pub(crate) fn ds_load(
        &mut self,
        inst: &Inst,
        width: MemWidth,
        signed: bool,
        ty: ScalarType,
        addr: Value,
        mask: Option<Value>,
    ) -> Value {
        let p = self.ds_place(inst, addr, width.bytes(), mask);
        self.b.load(p.space, width, signed, ty, p.addr, p.mask)
    }

    /// A DS store (see [`Self::ds_place`]).
    pub(crate) fn ds_store(
        &mut self,
        inst: &Inst,
        width: MemWidth,
        addr: Value,
        value: Value,
        mask: Option<Value>,
    ) {
        let p = self.ds_place(inst, addr, width.bytes(), mask);
        self.b.store(p.space, width, p.addr, value, p.mask);
    }

    /// A DS atomic (see [`Self::ds_place`]); returns the old value (0 for lanes that did not act).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn ds_atomic(
        &mut self,
        inst: &Inst,
        op: AtomicOp,
        width: MemWidth,
        addr: Value,
        data: Value,
        cmp: Option<Value>,
        mask: Option<Value>,
    ) -> Value {
        let p = self.ds_place(inst, addr, width.bytes(), mask);
        self.b.atomic(op, p.space, width, p.addr, data, cmp, p.mask)
    }
}
