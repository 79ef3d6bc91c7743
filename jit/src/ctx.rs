//! The context block compiled code runs with, and the `extern "C"` helpers it calls.
//!
//! Compiled code has the signature `extern "C" fn(*mut JitCtx) -> u32`. It reads the state and
//! scratch pointers from the context at fixed offsets ([`CTX_STATE`], [`CTX_SCRATCH`]) and
//! returns an exit code (see [`exit`]).
//!
//! Helpers never unwind into compiled code: a panic inside one (a bug, never a guest fault) is
//! caught, parked in the context, and re-raised by [`crate::program`] once the compiled code
//! has returned.

use crate::host_float::Scope;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use wavejit_ir::{semantics, BlockData, FloatMode, Inst, InstKind, Op, ScalarType, Value};
use wavejit_runtime::effects::run_effect;
use wavejit_runtime::{Fault, Lanes, WaveCtx};

/// Byte offset of [`JitCtx::state`].
pub(crate) const CTX_STATE: i32 = 0;
/// Byte offset of [`JitCtx::scratch`].
pub(crate) const CTX_SCRATCH: i32 = 8;
/// Byte offset of [`JitCtx::indirect_pc`].
pub(crate) const CTX_INDIRECT_PC: i32 = 16;
/// Byte offset of [`JitCtx::global_base`].
pub(crate) const CTX_GLOBAL_BASE: i32 = 24;
/// Byte offset of [`JitCtx::lds`].
pub(crate) const CTX_LDS: i32 = 32;
/// Byte offset of [`JitCtx::lds_len`].
pub(crate) const CTX_LDS_LEN: i32 = 40;
/// Byte offset of [`JitCtx::hints`].
pub(crate) const CTX_HINTS: i32 = 48;
/// Byte offset of [`JitCtx::private`].
pub(crate) const CTX_PRIVATE: i32 = 56;
/// Byte offset of [`JitCtx::private_lane_bytes`].
pub(crate) const CTX_PRIVATE_LANE_BYTES: i32 = 64;
/// Byte offset of [`JitCtx::block`].
pub(crate) const CTX_BLOCK: i32 = 72;
/// Byte offset of [`JitCtx::blocks`].
pub(crate) const CTX_BLOCKS: i32 = 80;
/// Byte offset of [`JitCtx::fuel_left`].
pub(crate) const CTX_FUEL_LEFT: i32 = 88;
/// Byte offset of [`JitCtx::blocks_left`].
pub(crate) const CTX_BLOCKS_LEFT: i32 = 96;
/// Byte offset of [`JitCtx::trace_insts`].
pub(crate) const CTX_TRACE_INSTS: i32 = 104;

/// What a block's compiled code sees. Field order is part of the compiled-code ABI.
#[repr(C)]
pub(crate) struct JitCtx {
    /// The wave's register state ([`wavejit_ir::StateLayout`] layout).
    pub state: *mut u8,
    /// The scratch area: one [`Lanes`] per value slot of the block (null for a block without
    /// slots).
    pub scratch: *mut Lanes,
    /// Target of a `JumpIndirect` exit.
    pub indirect_pc: u64,
    /// Host address of guest address 0 ([`wavejit_runtime::GuestMemory::host_base`]).
    pub global_base: u64,
    /// The work-group's LDS and its length in bytes.
    pub lds: *mut u8,
    pub lds_len: u64,
    /// The wave's [`wavejit_runtime::MemHints`] slots: `[start, end)` per slot.
    pub hints: *mut [u64; 2],
    /// The wave's private memory: lane `l` owns `private_lane_bytes` bytes at
    /// `private + l * private_lane_bytes`.
    pub private: *mut u8,
    pub private_lane_bytes: u64,
    /// The block being run (wave operations need its instructions, an exit its
    /// terminator): the caller sets it to the block it calls, a trace to each block it
    /// goes on to (`blocks` plus the block's index).
    pub block: *const BlockData,
    /// The function's blocks.
    pub blocks: *const BlockData,
    /// What a trace may still charge for the blocks it goes on to, as
    /// [`wavejit_runtime::Budget::charge`] would: fuel, blocks, and the guest instructions
    /// of the blocks it charged (counted up from 0 by the call).
    pub fuel_left: u64,
    pub blocks_left: u64,
    pub trace_insts: u64,
    /// The dispatcher's context, for wave operations (lifetime erased for the call).
    pub wave: *mut WaveCtx<'static>,
    pub fault: Option<Fault>,
    pub panic: Option<Box<dyn Any + Send>>,
}

// The compiled-code ABI: the offsets above are the fields'.
const _: () = {
    use std::mem::offset_of;
    assert!(offset_of!(JitCtx, state) == CTX_STATE as usize);
    assert!(offset_of!(JitCtx, scratch) == CTX_SCRATCH as usize);
    assert!(offset_of!(JitCtx, indirect_pc) == CTX_INDIRECT_PC as usize);
    assert!(offset_of!(JitCtx, global_base) == CTX_GLOBAL_BASE as usize);
    assert!(offset_of!(JitCtx, lds) == CTX_LDS as usize);
    assert!(offset_of!(JitCtx, lds_len) == CTX_LDS_LEN as usize);
    assert!(offset_of!(JitCtx, hints) == CTX_HINTS as usize);
    assert!(offset_of!(JitCtx, private) == CTX_PRIVATE as usize);
    assert!(offset_of!(JitCtx, private_lane_bytes) == CTX_PRIVATE_LANE_BYTES as usize);
    assert!(offset_of!(JitCtx, block) == CTX_BLOCK as usize);
    assert!(offset_of!(JitCtx, blocks) == CTX_BLOCKS as usize);
    assert!(offset_of!(JitCtx, fuel_left) == CTX_FUEL_LEFT as usize);
    assert!(offset_of!(JitCtx, blocks_left) == CTX_BLOCKS_LEFT as usize);
    assert!(offset_of!(JitCtx, trace_insts) == CTX_TRACE_INSTS as usize);
};

/// Exit codes returned by compiled blocks: `(block << 2) | tag`.
pub(crate) mod exit {
    pub const TAG_JUMP: u32 = 0;
    pub const TAG_BARRIER: u32 = 1;
    pub const RETURN: u32 = 2;
    /// A wave operation faulted (or a helper panicked); details are in the context.
    pub const FAULT: u32 = 3;
    /// `JumpIndirect`: the target pc is in [`super::JitCtx::indirect_pc`].
    pub const INDIRECT: u32 = 7;
    /// The block's terminator is a `Trap`.
    pub const TRAP: u32 = 11;
}

/// Describes one wave operation of a block: its instruction and the scratch slots of its
/// operands (in [`wavejit_ir::Inst::args`] order) and of its result.
#[derive(Debug)]
pub(crate) struct WaveDesc {
    pub inst: u32,
    pub args: Vec<u32>,
    pub out: u32,
    /// The [`wavejit_runtime::MemHints`] slot an inlined global access checks against: after
    /// the helper ran the access, the slot is set to the buffer of its first acting lane.
    pub hint: Option<u32>,
}

/// Describes one pure op evaluated by a helper: the arguments of [`semantics::eval`] and,
/// for the chunk helper, which operands are lane-shaped.
#[derive(Debug)]
pub(crate) struct EvalDesc {
    pub op: Op,
    pub mode: FloatMode,
    pub ty: ScalarType,
    pub n: u8,
    pub arg_tys: [ScalarType; 4],
    pub arg_lane: [bool; 4],
}

fn park_panic(ctx: *mut JitCtx, p: Box<dyn Any + Send>) {
    // SAFETY: `ctx` is the live context of the running block (compiled code passes it on).
    let ctx = unsafe { &mut *ctx };
    if ctx.panic.is_none() {
        ctx.panic = Some(p);
    }
}

/// Runs a wave operation through [`run_effect`]. Returns 0, or 1 after storing a fault (or a
/// caught panic) in the context.
pub(crate) unsafe extern "C" fn helper_wave_op(ctx: *mut JitCtx, desc: *const WaveDesc) -> u32 {
    let _ieee = Scope::ieee();
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: compiled code passes its live context and a descriptor owned by the
        // compiled block; slot indices were bounds-planned for this block's scratch area.
        let (cx, d) = unsafe { (&mut *ctx, &*desc) };
        let block = unsafe { &*cx.block };
        let inst = &block.insts[d.inst as usize];
        let mut out = Lanes::default();
        let res = {
            let args: Vec<&Lanes> = d
                .args
                .iter()
                .map(|&s| unsafe { &*cx.scratch.add(s as usize) })
                .collect();
            run_effect(block, inst, &args, &mut out, unsafe { &mut *cx.wave })
        };
        match res {
            Ok(()) => {
                unsafe { *cx.scratch.add(d.out as usize) = out };
                if let Some(h) = d.hint {
                    let w = unsafe { &mut *cx.wave };
                    let scratch = cx.scratch;
                    let slot = |k: usize| unsafe { &*scratch.add(d.args[k] as usize) };
                    if let Some(b) = first_buffer(block, inst, &slot, w) {
                        w.hints.0[h as usize] = [b.start, b.start + b.len];
                    }
                }
                0
            }
            Err(f) => {
                cx.fault = Some(f);
                1
            }
        }
    }));
    r.unwrap_or_else(|p| {
        park_panic(ctx, p);
        1
    })
}

/// The buffer holding the address of the first acting lane of a global load, store or atomic
/// (the access has just succeeded, so that address is inside a buffer).
fn first_buffer<'s>(
    block: &BlockData,
    inst: &Inst,
    slot: &dyn Fn(usize) -> &'s Lanes,
    w: &WaveCtx<'_>,
) -> Option<wavejit_runtime::Buffer> {
    let (addr, mask, mask_arg) = match inst.kind {
        InstKind::Load { addr, mask, .. } => (addr, mask, 1),
        InstKind::Store { addr, mask, .. } => (addr, mask, 2),
        InstKind::Atomic {
            addr, cmp, mask, ..
        } => (addr, mask, 2 + usize::from(cmp.is_some())),
        _ => return None,
    };
    let lane = |v: Value| block.value_type(v).is_some_and(|t| t.is_lane());
    let ws = w.state.wave_size() as usize;
    let first = match mask {
        None => 0,
        Some(m) => (0..ws).find(|&l| slot(mask_arg).get(!lane(m), l) & 1 != 0)?,
    };
    w.mem.buffer_at(slot(0).get(!lane(addr), first))
}

/// Evaluates a pure op on uniform operands.
pub(crate) unsafe extern "C" fn helper_eval_scalar(
    desc: *const EvalDesc,
    ctx: *mut JitCtx,
    a0: u64,
    a1: u64,
    a2: u64,
    a3: u64,
) -> u64 {
    let _ieee = Scope::ieee();
    // SAFETY: the descriptor is owned by the compiled block that calls this helper.
    let d = unsafe { &*desc };
    // Through `black_box`, so that no float op on the operands is computed before the mode
    // changes.
    let args = std::hint::black_box([a0, a1, a2, a3]);
    let n = d.n as usize;
    catch_unwind(|| semantics::eval(d.op, d.mode, d.ty, &d.arg_tys[..n], &args[..n]))
        .unwrap_or_else(|p| {
            park_panic(ctx, p);
            0
        })
}

/// Evaluates a pure op on one 4-lane chunk. `buf` holds operand `i` at byte `32 * i`
/// (4 x u32 for values up to 32 bits, masks as 0/-1; 4 x u64 for 64-bit values; one u64 for
/// a uniform operand) and receives the result at byte 128 in the same format.
pub(crate) unsafe extern "C" fn helper_eval_chunk(
    desc: *const EvalDesc,
    ctx: *mut JitCtx,
    buf: *mut u8,
) {
    let _ieee = Scope::ieee();
    // SAFETY: the descriptor is owned by the compiled block; `buf` is its 160-byte stack slot.
    let d = unsafe { &*desc };
    let n = d.n as usize;
    let r = catch_unwind(AssertUnwindSafe(|| {
        let mut res = [0u64; 4];
        for (lane, r) in res.iter_mut().enumerate() {
            let mut args = [0u64; 4];
            for (i, a) in args[..n].iter_mut().enumerate() {
                // SAFETY: in-bounds reads of the argument area described above.
                *a = unsafe { read_chunk(buf.add(32 * i), d.arg_tys[i], d.arg_lane[i], lane) };
            }
            *r = semantics::eval(d.op, d.mode, d.ty, &d.arg_tys[..n], &args[..n]);
        }
        res
    }));
    match r {
        Ok(res) => {
            for (lane, &v) in res.iter().enumerate() {
                // SAFETY: the result area is 32 bytes at offset 128 of the buffer.
                unsafe { write_chunk(buf.add(128), d.ty, lane, v) };
            }
        }
        Err(p) => park_panic(ctx, p),
    }
}

/// Reads lane `lane` of a chunk operand in the helper buffer format.
unsafe fn read_chunk(p: *const u8, ty: ScalarType, lane: bool, l: usize) -> u64 {
    // SAFETY: caller guarantees `p` points at a 32-byte operand area.
    unsafe {
        if !lane {
            (p as *const u64).read_unaligned()
        } else if ty == ScalarType::I1 {
            ((p as *const u32).add(l).read_unaligned() & 1) as u64
        } else if ty.bits() <= 32 {
            (p as *const u32).add(l).read_unaligned() as u64
        } else {
            (p as *const u64).add(l).read_unaligned()
        }
    }
}

unsafe fn write_chunk(p: *mut u8, ty: ScalarType, l: usize, v: u64) {
    // SAFETY: caller guarantees `p` points at a 32-byte result area.
    unsafe {
        if ty == ScalarType::I1 {
            (p as *mut u32)
                .add(l)
                .write_unaligned(if v & 1 == 1 { u32::MAX } else { 0 })
        } else if ty.bits() <= 32 {
            (p as *mut u32).add(l).write_unaligned(v as u32)
        } else {
            (p as *mut u64).add(l).write_unaligned(v)
        }
    }
}
