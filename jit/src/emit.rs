//! Building the Cranelift function of a trace of IR blocks ([`crate::trace`]) from their
//! [`Plan`]s: one host block sequence per IR block, entered at the first; a jump or branch to
//! a block of the trace charges it and continues there, any other exit returns its code.
//!
//! Chunk loops (see [`crate::plan`]) keep guest registers in SSA per 4-lane row chunk: a row
//! is loaded at its first read and stored once at the end of the chunk iteration.
//!
//! **Lazy blending.** A masked register write does not blend at once: the row becomes
//! *pending* (old value, new value, mask). Another write under the same (value-numbered) mask
//! replaces the new value; a read whose result only ever reaches pure lane ops and register
//! writes under that same mask ([`Demand::Mask`]) gets the new value unblended, since the
//! other lanes are never observed. Anything else (or the end of the iteration) blends once.
//!
//! **All-ones fast path.** For each loop, the uniform `i64` operands of `MaskFromBits` that
//! mask register writes are tested at loop entry; when all have every lane of the wave set,
//! a second copy of the loop body runs in which those masks are the constant all-ones, so
//! masked writes store without any blend.
//!
//! **NaN speculation.** At tier 2 the loop body copies above compute float ops as if no
//! operand were NaN (no NaN fix-ups; min/max as the host's `minps`/`maxps`), and before the
//! iteration stores anything they test the values whose NaN lanes would make that inexact
//! (see [`crate::lower`]). If one has a NaN lane, the iteration is abandoned (it has only
//! written scratch slots, which a rerun writes again with the same values) and an exact,
//! masked copy of the body runs the rest of the loop, from that chunk on.

use crate::ctx::{
    exit, helper_eval_chunk, helper_eval_scalar, helper_wave_op, EvalDesc, WaveDesc, CTX_BLOCK,
    CTX_BLOCKS, CTX_BLOCKS_LEFT, CTX_FUEL_LEFT, CTX_INDIRECT_PC, CTX_SCRATCH, CTX_STATE,
    CTX_TRACE_INSTS,
};
use crate::lower::{Lower, LowerCfg, Spec};
use crate::plan::{is_remat, Class, Demand, Plan};
use crate::vals::*;
use cranelift_codegen::ir::{
    self, condcodes::IntCC as CIntCC, types::*, AbiParam, BlockArg, InstBuilder, Signature,
    StackSlotData, StackSlotKind, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::FunctionBuilder;
use std::collections::{BTreeMap, HashMap, HashSet};
use wavejit_ir::{BlockData, InstKind, Reg, ScalarType, StateLayout, Terminator, Type as IrType};
use wavejit_runtime::Budget;

/// Bytes of one scratch slot (a [`wavejit_runtime::Lanes`]).
const SLOT_BYTES: i64 = 512;

/// Code generation switches.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cfg {
    pub lower: LowerCfg,
    /// Inline the ops [`Lower`] knows (off: every pure op through the semantics helper).
    pub inline: bool,
    /// Compile global and LDS loads and stores inline (see the `memory` module).
    pub inline_memory: bool,
    pub fast_path: bool,
    pub lazy_blend: bool,
    pub nan_spec: bool,
}

/// Descriptors compiled code points at; they live as long as the code. Boxed so their
/// addresses stay fixed while the vectors grow.
#[derive(Default, Debug)]
#[allow(clippy::vec_box)]
pub(crate) struct Artifacts {
    pub eval: Vec<Box<EvalDesc>>,
    pub wave: Vec<Box<WaveDesc>>,
}

/// The signature of a compiled block: `extern "C" fn(*mut JitCtx) -> u32`.
pub(crate) fn block_signature(call_conv: CallConv) -> Signature {
    let mut s = Signature::new(call_conv);
    s.params.push(AbiParam::new(I64));
    s.returns.push(AbiParam::new(I32));
    s
}

fn sig(call_conv: CallConv, params: &[ir::Type], ret: Option<ir::Type>) -> Signature {
    let mut s = Signature::new(call_conv);
    s.params.extend(params.iter().map(|&t| AbiParam::new(t)));
    s.returns.extend(ret.map(AbiParam::new));
    s
}

/// A register row inside a chunk iteration.
#[derive(Clone, Copy, Debug)]
enum Row {
    /// As loaded from the state.
    Clean(Value),
    /// Written; stored at the end of the iteration.
    Val(Value),
    /// Written under `mask` (`key` is its value number): `bitselect(mask, new, old)`. An
    /// `old` of `None` is still in memory and loaded only when the blend is built, so the
    /// load sits next to its use (Cranelift keeps loads in emission order but sinks pure
    /// code to its uses; early loads would stay live across the whole body and spill).
    Pending {
        old: Option<Value>,
        new: Value,
        key: u32,
        mask: Value,
    },
}

/// Per-iteration state of one copy of a loop body.
struct Chunk {
    fast: bool,
    /// Index of the chunk's first lane (`i64`).
    lane0: Value,
    state_c: Value,
    scratch_c: Value,
    /// The chunk's byte offset in a row, and in a packed slot ([`Plan::packed`]): 16 bytes a
    /// chunk.
    off16: Value,
    /// Lane values of this iteration.
    vals: HashMap<u32, V>,
    rows: BTreeMap<usize, Row>,
    /// Value numbers of masks known all-ones in this copy.
    ones: HashSet<u32>,
    /// Value numbers of the fast-path `MaskFromBits` operands.
    fast_us: HashSet<u32>,
    accs: Vec<(u32, Value)>,
    /// NaN speculation state, in a speculating copy.
    spec: Option<Spec>,
}

/// One block of a trace: its index in the function (`None`: code that never continues in
/// another block, tier 1's, which the JIT's cache shares between functions), its data and
/// its plan.
pub(crate) struct TraceBlock<'a> {
    pub index: Option<wavejit_ir::Block>,
    pub data: &'a BlockData,
    pub plan: &'a Plan,
}

/// A block of the function being built that a jump may continue in: its index, its first
/// host block, and what going there charges: its fuel cost ([`Budget::cost`]) and its guest
/// instructions.
#[derive(Clone, Copy)]
struct Target {
    index: wavejit_ir::Block,
    head: ir::Block,
    cost: u64,
    guest_insts: u32,
}

pub(crate) struct Emitter<'a, 'f> {
    b: FunctionBuilder<'f>,
    blk: &'a BlockData,
    layout: &'a StateLayout,
    plan: &'a Plan,
    cfg: Cfg,
    arts: &'a mut Artifacts,
    ctx_ptr: Value,
    state: Value,
    scratch: Value,
    uvals: Vec<Option<Value>>,
    sig_scalar: ir::SigRef,
    sig_chunk: ir::SigRef,
    sig_wave: ir::SigRef,
    sig_gather: ir::SigRef,
    sig_scatter: ir::SigRef,
    helper_buf: ir::StackSlot,
    fault_block: ir::Block,
    nchunks: i64,
    /// Header of the current loop's exact copy, once a speculating copy needs it.
    exact_header: Option<ir::Block>,
    /// Values known to have their denormals flushed (see [`Lower::flushed`]).
    flushed: HashSet<(Value, bool)>,
    /// Per lane value number and width (`true`: f64 lanes): whether every copy of its loop
    /// body computed it flushed. A later loop reading it from its slot knows it flushed too.
    flushed_slots: HashMap<(u32, bool), bool>,
    /// Register writes a load has already made ([`Plan::direct_write`]): left out.
    written: HashSet<usize>,
    /// Hoisted operations of the segment just emitted and their fault paths, for
    /// [`Self::replays`].
    replays: Vec<(usize, ir::Block)>,
    /// Per value number of a `MaskFromBits` mask: the slot holding its lanes whenever they
    /// are not all set (`mask_slots`).
    mask_slots: HashMap<u32, u32>,
    /// While compiling an access under a `MaskFromBits` mask: the mask, the slot to read it
    /// from and the full-mask test that guards every read of it.
    mask_override: Option<(wavejit_ir::Value, u32, Value)>,
    /// The blocks of the trace a jump continues in.
    targets: &'a [Target],
    /// Uniform register cells whose value the code has in hand (by byte offset in the
    /// state: the type read or written, and the value), so that a read after a write or a
    /// read of the block does not go through memory again (Cranelift does not forward a
    /// store to a load across other stores). A register write replaces what it covers; a
    /// helper that runs an effect (it may write any register) and an indexed write forget
    /// everything.
    ucells: HashMap<i32, (ScalarType, Value)>,
    /// Packed slots ([`Plan::packed`]) a store has unpacked to the [`Lanes`] form for its
    /// other paths (`emit::memory`): dead after the store, read in that form from then on.
    ///
    /// [`Lanes`]: wavejit_runtime::Lanes
    unpacked: HashSet<u32>,
}

type R<T> = Result<T, String>;

mod mask_slots;
mod memory;

/// The exit code leaving for block `blk` with `tag`: `(blk << 2) | tag`.
fn exit_code(blk: wavejit_ir::Block, tag: u32) -> R<i64> {
    if blk.0 >= 1 << 29 {
        return Err(format!("{blk}: block index too large"));
    }
    Ok(((blk.0 << 2) | tag) as i64)
}

fn ity(t: ScalarType) -> ir::Type {
    if t.bits() == 64 {
        I64
    } else {
        I32
    }
}

impl<'a, 'f> Emitter<'a, 'f> {
    /// Builds the whole function of `trace` (its head first) into `b` (which must be fresh,
    /// with the block signature).
    pub fn build(
        mut b: FunctionBuilder<'f>,
        trace: &[TraceBlock<'a>],
        layout: &'a StateLayout,
        cfg: Cfg,
        arts: &mut Artifacts,
        call_conv: CallConv,
    ) -> R<FunctionBuilder<'f>> {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let ctx_ptr = b.block_params(entry)[0];
        let sig_scalar =
            b.import_signature(sig(call_conv, &[I64, I64, I64, I64, I64, I64], Some(I64)));
        let sig_chunk = b.import_signature(sig(call_conv, &[I64, I64, I64], None));
        let sig_wave = b.import_signature(sig(call_conv, &[I64, I64], Some(I32)));
        let sig_gather = b.import_signature(sig(call_conv, &[I64; 10], Some(I32)));
        let sig_scatter = b.import_signature(sig(call_conv, &[I64; 9], Some(I32)));
        let helper_buf =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 160, 4));
        let fault_block = b.create_block();
        let heads: Vec<ir::Block> = trace.iter().map(|_| b.create_block()).collect();
        let Some(&first) = heads.first() else {
            return Err("a trace without blocks".into());
        };
        b.ins().jump(first, &[]);
        let targets: Vec<Target> = trace
            .iter()
            .zip(&heads)
            .filter_map(|(t, &head)| {
                Some(Target {
                    index: t.index?,
                    head,
                    cost: Budget::cost(t.data),
                    guest_insts: t.data.guest_insts,
                })
            })
            .collect();
        for (t, &head) in trace.iter().zip(&heads) {
            // Each block loads the pointers it uses, so that none is live across the trace.
            b.switch_to_block(head);
            let state = b.ins().load(I64, mem(), ctx_ptr, CTX_STATE);
            let scratch = b.ins().load(I64, mem(), ctx_ptr, CTX_SCRATCH);
            let mut e = Emitter {
                b,
                blk: t.data,
                layout,
                plan: t.plan,
                cfg,
                arts: &mut *arts,
                ctx_ptr,
                state,
                scratch,
                uvals: vec![None; t.data.insts.len()],
                sig_scalar,
                sig_chunk,
                sig_wave,
                sig_gather,
                sig_scatter,
                helper_buf,
                fault_block,
                nchunks: (layout.wave_size / 4) as i64,
                exact_header: None,
                flushed: HashSet::new(),
                flushed_slots: HashMap::new(),
                written: HashSet::new(),
                replays: Vec::new(),
                mask_slots: HashMap::new(),
                mask_override: None,
                targets: &targets,
                ucells: HashMap::new(),
                unpacked: HashSet::new(),
            };
            for k in 0..t.plan.n_loops as usize {
                e.segment(k)?;
                e.chunk_loop(k)?;
                e.replays(k)?;
            }
            e.segment(t.plan.n_loops as usize)?;
            e.replays(t.plan.n_loops as usize)?;
            e.terminator()?;
            b = e.b;
        }
        b.switch_to_block(fault_block);
        let code = b.ins().iconst(I32, exit::FAULT as i64);
        b.ins().return_(&[code]);
        b.seal_all_blocks();
        Ok(b)
    }

    fn ty(&self, v: wavejit_ir::Value) -> R<IrType> {
        self.blk
            .value_type(v)
            .ok_or_else(|| format!("{v} has no value"))
    }

    fn u(&self, v: wavejit_ir::Value) -> R<Value> {
        self.uvals
            .get(v.index())
            .copied()
            .flatten()
            .ok_or_else(|| format!("uniform value {v} used before it is computed"))
    }

    fn canon(&self, v: wavejit_ir::Value) -> u32 {
        self.plan.canon[v.index()].0
    }

    fn check_reg(&self, reg: Reg, cells: u32) -> R<()> {
        if self.layout.contains(reg, cells) {
            Ok(())
        } else {
            Err(format!(
                "register {}:{} (+{cells}) outside its file",
                reg.file.0, reg.index
            ))
        }
    }

    fn ptr_const(&mut self, p: usize) -> Value {
        self.b.ins().iconst(I64, p as i64)
    }

    // --- scalar segments ---

    fn segment(&mut self, k: usize) -> R<()> {
        for &i in &self.plan.seg_insts[k] {
            let i = i as usize;
            if !self.plan.hoisted[i] {
                self.uniform_inst(i)?;
                continue;
            }
            // A fault of a hoisted operation goes through a replay of loop `k`'s lane
            // instructions before it (`replays`).
            let replay = self.b.create_block();
            let fault = std::mem::replace(&mut self.fault_block, replay);
            let r = self.uniform_inst(i);
            self.fault_block = fault;
            r?;
            self.replays.push((i, replay));
        }
        Ok(())
    }

    /// The fault paths of segment `k`'s hoisted operations ([`Plan::hoisted`]): each runs the
    /// lane instructions of loop `k` that come before the operation, exactly (no fast path,
    /// no speculation), then leaves through the fault exit with the fault the operation
    /// recorded.
    fn replays(&mut self, k: usize) -> R<()> {
        if self.replays.is_empty() {
            return Ok(());
        }
        // The code goes on in a fresh block, so that the current one is filled before the
        // builder switches to the replays (Cranelift's builder asserts that in debug builds).
        let resume = self.b.create_block();
        self.b.ins().jump(resume, &[]);
        for (i, replay) in std::mem::take(&mut self.replays) {
            self.b.switch_to_block(replay);
            let before = k < self.plan.loop_insts.len()
                && self.plan.loop_insts[k].iter().any(|&x| (x as usize) < i);
            if !before {
                self.b.ins().jump(self.fault_block, &[]);
                continue;
            }
            let ballots = self.ballots(k);
            let h = self.header(ballots.len());
            let zero = self.b.ins().iconst(I64, 0);
            let init: Vec<BlockArg> =
                std::iter::repeat_n(BlockArg::Value(zero), ballots.len() + 1).collect();
            self.b.ins().jump(h, &init);
            let done = self.b.create_block();
            for _ in &ballots {
                self.b.append_block_param(done, I64);
            }
            self.body(k, h, false, false, &ballots, &HashSet::new(), done, Some(i))?;
            self.b.switch_to_block(done);
            self.b.ins().jump(self.fault_block, &[]);
        }
        self.b.switch_to_block(resume);
        Ok(())
    }

    /// The ballots of loop `k`, in program order.
    fn ballots(&self, k: usize) -> Vec<u32> {
        self.plan.loop_insts[k]
            .iter()
            .copied()
            .filter(|&i| self.plan.class[i as usize] == Class::Reduce)
            .collect()
    }

    fn uniform_inst(&mut self, i: usize) -> R<()> {
        let inst = &self.blk.insts[i];
        if self.plan.class[i] == Class::Wave
            && !crate::plan::inline_indexed(self.layout, self.blk, i)
        {
            if self.cfg.inline_memory && self.memory_op(i)? {
                return Ok(());
            }
            self.row_address_slot(i)?;
            self.wave_op(i)?;
            return self.repack(i);
        }
        let v = match inst.kind {
            InstKind::Const(c) => {
                let t = self.ty(wavejit_ir::Value(i as u32))?.scalar;
                Some(self.b.ins().iconst(ity(t), (c & t.bit_mask()) as i64))
            }
            InstKind::Pure { op, mode, args } => {
                let t = self.ty(wavejit_ir::Value(i as u32))?.scalar;
                let n = op.arity();
                let mut vs = Vec::with_capacity(n);
                let mut tys = Vec::with_capacity(n);
                for &a in &args[..n] {
                    vs.push(V::S(self.u(a)?));
                    tys.push(self.ty(a)?.scalar);
                }
                let inl = self.try_inline(op, mode, t, &tys, &vs, false, None);
                Some(match inl {
                    Some(V::S(r)) => r,
                    Some(_) => return Err("uniform op lowered to a lane value".into()),
                    None => self.call_scalar(op, mode, t, &tys, &vs)?,
                })
            }
            InstKind::ReadReg(reg) => {
                let t = self.ty(wavejit_ir::Value(i as u32))?.scalar;
                self.check_reg(reg, t.cells())?;
                let off = self.layout.uniform_cell_offset(reg) as i32;
                match self.ucells.get(&off) {
                    Some(&(ct, v)) if ct == t => Some(v),
                    _ => {
                        let raw = self.b.ins().load(ity(t), mem(), self.state, off);
                        let v = if t.bits() < 32 {
                            self.b.ins().band_imm_u(raw, t.bit_mask() as i64)
                        } else {
                            raw
                        };
                        self.ucells.insert(off, (t, v));
                        Some(v)
                    }
                }
            }
            InstKind::WriteReg { reg, value, .. } => {
                let t = self.ty(value)?;
                if t.is_lane() {
                    return Err(format!("%{i}: lane value written to a uniform register"));
                }
                self.check_reg(reg, t.scalar.cells())?;
                let off = self.layout.uniform_cell_offset(reg) as i32;
                let x = self.u(value)?;
                self.b.ins().store(mem(), x, self.state, off);
                let end = off + 4 * t.scalar.cells() as i32;
                self.ucells
                    .retain(|&o, &mut (ct, _)| o + 4 * ct.cells() as i32 <= off || o >= end);
                self.ucells.insert(off, (t.scalar, x));
                None
            }
            InstKind::ReadRegIndexed { file, base, index } => {
                let t = self.ty(wavejit_ir::Value(i as u32))?.scalar;
                let (ok, addr) = self.indexed_cell(file, base, index, t.cells())?;
                let (fast, slow, merge) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.append_block_param(merge, ity(t));
                self.b.ins().brif(ok, fast, &[], slow, &[]);
                self.b.switch_to_block(fast);
                let raw = self.b.ins().load(ity(t), mem(), addr, 0);
                let x = if t.bits() < 32 {
                    self.b.ins().band_imm_u(raw, t.bit_mask() as i64)
                } else {
                    raw
                };
                self.b.ins().jump(merge, &[BlockArg::Value(x)]);
                self.b.switch_to_block(slow);
                self.wave_op(i)?;
                let y = self.u(wavejit_ir::Value(i as u32))?;
                self.b.ins().jump(merge, &[BlockArg::Value(y)]);
                self.b.switch_to_block(merge);
                Some(self.b.block_params(merge)[0])
            }
            InstKind::WriteRegIndexed {
                file,
                base,
                index,
                value,
                ..
            } => {
                let t = self.ty(value)?.scalar;
                self.ucells.clear();
                let (ok, addr) = self.indexed_cell(file, base, index, t.cells())?;
                let (fast, slow, merge) = (
                    self.b.create_block(),
                    self.b.create_block(),
                    self.b.create_block(),
                );
                self.b.ins().brif(ok, fast, &[], slow, &[]);
                self.b.switch_to_block(fast);
                let x = self.u(value)?;
                self.b.ins().store(mem(), x, addr, 0);
                self.b.ins().jump(merge, &[]);
                self.b.switch_to_block(slow);
                self.wave_op(i)?;
                self.b.ins().jump(merge, &[]);
                self.b.switch_to_block(merge);
                None
            }
            _ => return Err(format!("%{i}: not a uniform instruction")),
        };
        self.uvals[i] = v;
        Ok(())
    }

    /// An inline indexed access of a uniform file (see [`crate::plan::inline_indexed`]):
    /// whether `base + index` (the index as an unsigned 32-bit value) holds `cells` cells
    /// inside the file, and the host address of its first cell. Out of range, the caller
    /// runs the wave-operation helper, which reports the fault exactly as the interpreter.
    fn indexed_cell(
        &mut self,
        file: wavejit_ir::FileId,
        base: u32,
        index: wavejit_ir::Value,
        cells: u32,
    ) -> R<(Value, Value)> {
        let f = self
            .layout
            .files
            .get(file.0 as usize)
            .ok_or_else(|| format!("no register file {}", file.0))?;
        let limit = i64::from(f.cells) - i64::from(cells);
        let x = self.u(index)?;
        let idx = if self.b.func.dfg.value_type(x) == I64 {
            self.b.ins().band_imm_u(x, 0xffff_ffff)
        } else {
            self.b.ins().uextend(I64, x)
        };
        let reg = self.b.ins().iadd_imm_u(idx, i64::from(base));
        let ok = if limit < 0 {
            self.b.ins().iconst(I8, 0)
        } else {
            self.b
                .ins()
                .icmp_imm_u(CIntCC::UnsignedLessThanOrEqual, reg, limit)
        };
        let off = self.layout.uniform_cell_offset(Reg::new(file, 0)) as i64;
        let bytes = self.b.ins().ishl_imm_u(reg, 2);
        let p = self.b.ins().iadd(self.state, bytes);
        let addr = self.b.ins().iadd_imm_u(p, off);
        Ok((ok, addr))
    }

    fn call_scalar(
        &mut self,
        op: wavejit_ir::Op,
        mode: wavejit_ir::FloatMode,
        ty: ScalarType,
        tys: &[ScalarType],
        vs: &[V],
    ) -> R<Value> {
        let desc = self.eval_desc(op, mode, ty, tys, &[false; 4]);
        let mut call_args = vec![desc, self.ctx_ptr];
        for k in 0..4 {
            call_args.push(match vs.get(k) {
                Some(V::S(s)) => {
                    if self.b.func.dfg.value_type(*s) == I64 {
                        *s
                    } else {
                        self.b.ins().uextend(I64, *s)
                    }
                }
                _ => self.b.ins().iconst(I64, 0),
            });
        }
        let f = self.ptr_const(helper_eval_scalar as *const () as usize);
        let call = self.b.ins().call_indirect(self.sig_scalar, f, &call_args);
        let r = self.b.inst_results(call)[0];
        Ok(if ty.bits() == 64 {
            r
        } else {
            self.b.ins().ireduce(I32, r)
        })
    }

    fn eval_desc(
        &mut self,
        op: wavejit_ir::Op,
        mode: wavejit_ir::FloatMode,
        ty: ScalarType,
        tys: &[ScalarType],
        lane: &[bool; 4],
    ) -> Value {
        let mut arg_tys = [ScalarType::I32; 4];
        arg_tys[..tys.len()].copy_from_slice(tys);
        let d = Box::new(EvalDesc {
            op,
            mode,
            ty,
            n: tys.len() as u8,
            arg_tys,
            arg_lane: *lane,
        });
        let p = &*d as *const EvalDesc as usize;
        self.arts.eval.push(d);
        self.ptr_const(p)
    }

    fn wave_op(&mut self, i: usize) -> R<()> {
        self.wave_op_hinted(i, None)
    }

    /// [`Self::wave_op`], telling the helper which hint slot to update ([`WaveDesc::hint`]).
    fn wave_op_hinted(&mut self, i: usize, hint: Option<u32>) -> R<()> {
        self.ucells.clear();
        self.materialize_masks(i)?;
        let inst = &self.blk.insts[i];
        let mut slots = Vec::new();
        for a in inst.args() {
            let s = self.plan.slot[a.index()].ok_or("wave operand without a slot")?;
            if !self.ty(a)?.is_lane() {
                let x = self.u(a)?;
                let x = if self.b.func.dfg.value_type(x) == I64 {
                    x
                } else {
                    self.b.ins().uextend(I64, x)
                };
                self.b
                    .ins()
                    .store(mem(), x, self.scratch, (s as i64 * SLOT_BYTES) as i32);
            }
            slots.push(s);
        }
        let out = self.plan.slot[i].ok_or("wave operation without a result slot")?;
        let d = Box::new(WaveDesc {
            inst: i as u32,
            args: slots,
            out,
            hint,
        });
        let p = &*d as *const WaveDesc as usize;
        self.arts.wave.push(d);
        let dp = self.ptr_const(p);
        let f = self.ptr_const(helper_wave_op as *const () as usize);
        let call = self
            .b
            .ins()
            .call_indirect(self.sig_wave, f, &[self.ctx_ptr, dp]);
        let r = self.b.inst_results(call)[0];
        let cont = self.b.create_block();
        self.b.ins().brif(r, self.fault_block, &[], cont, &[]);
        self.b.switch_to_block(cont);
        if let Some(t) = inst.ty {
            if !t.is_lane() {
                let x =
                    self.b
                        .ins()
                        .load(I64, mem(), self.scratch, (out as i64 * SLOT_BYTES) as i32);
                self.uvals[i] = Some(if t.scalar.bits() == 64 {
                    x
                } else {
                    self.b.ins().ireduce(I32, x)
                });
            }
        }
        Ok(())
    }

    fn terminator(&mut self) -> R<()> {
        let c = match self.blk.term {
            Terminator::Jump(t) => return self.go(t),
            Terminator::Branch {
                cond,
                then_to,
                else_to,
            } => {
                let c = self.u(cond)?;
                let (then_blk, else_blk) = (self.b.create_block(), self.b.create_block());
                self.b.ins().brif(c, then_blk, &[], else_blk, &[]);
                self.b.switch_to_block(then_blk);
                self.go(then_to)?;
                self.b.switch_to_block(else_blk);
                return self.go(else_to);
            }
            Terminator::Barrier(t) => self.b.ins().iconst(I32, exit_code(t, exit::TAG_BARRIER)?),
            Terminator::Return => self.b.ins().iconst(I32, exit::RETURN as i64),
            Terminator::Trap(_) => self.b.ins().iconst(I32, exit::TRAP as i64),
            Terminator::JumpIndirect(v) => {
                let x = self.u(v)?;
                let x = if self.b.func.dfg.value_type(x) == I64 {
                    x
                } else {
                    self.b.ins().uextend(I64, x)
                };
                self.b.ins().store(mem(), x, self.ctx_ptr, CTX_INDIRECT_PC);
                self.b.ins().iconst(I32, exit::INDIRECT as i64)
            }
        };
        self.b.ins().return_(&[c]);
        Ok(())
    }

    /// Goes on to block `t`: in the trace, when the context's budget covers it, charges it
    /// (as `Budget::charge`), makes it the context's block and jumps to its code; otherwise
    /// returns the jump exit, and the caller charges and runs `t` (or stops).
    fn go(&mut self, t: wavejit_ir::Block) -> R<()> {
        let leave = exit_code(t, exit::TAG_JUMP)?;
        let Some(target) = self.targets.iter().find(|x| x.index == t).copied() else {
            let c = self.b.ins().iconst(I32, leave);
            self.b.ins().return_(&[c]);
            return Ok(());
        };
        let (cx, m) = (self.ctx_ptr, mem());
        let fuel = self.b.ins().load(I64, m, cx, CTX_FUEL_LEFT);
        let left = self.b.ins().load(I64, m, cx, CTX_BLOCKS_LEFT);
        let cost = target.cost as i64;
        let has_fuel = self
            .b
            .ins()
            .icmp_imm_u(CIntCC::UnsignedGreaterThanOrEqual, fuel, cost);
        let has_block = self.b.ins().icmp_imm_u(CIntCC::NotEqual, left, 0);
        let covered = self.b.ins().band(has_fuel, has_block);
        let (charge, out) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(covered, charge, &[], out, &[]);
        self.b.switch_to_block(out);
        let c = self.b.ins().iconst(I32, leave);
        self.b.ins().return_(&[c]);
        self.b.switch_to_block(charge);
        let fuel = self.b.ins().iadd_imm_s(fuel, -cost);
        self.b.ins().store(m, fuel, cx, CTX_FUEL_LEFT);
        let left = self.b.ins().iadd_imm_s(left, -1);
        self.b.ins().store(m, left, cx, CTX_BLOCKS_LEFT);
        let insts = self.b.ins().load(I64, m, cx, CTX_TRACE_INSTS);
        let insts = self
            .b
            .ins()
            .iadd_imm_u(insts, i64::from(target.guest_insts));
        self.b.ins().store(m, insts, cx, CTX_TRACE_INSTS);
        let blocks = self.b.ins().load(I64, m, cx, CTX_BLOCKS);
        let at = (t.index() * std::mem::size_of::<BlockData>()) as i64;
        let block = self.b.ins().iadd_imm_u(blocks, at);
        self.b.ins().store(m, block, cx, CTX_BLOCK);
        self.b.ins().jump(target.head, &[]);
        Ok(())
    }

    // --- chunk loops ---

    fn chunk_loop(&mut self, k: usize) -> R<()> {
        let insts = &self.plan.loop_insts[k];
        // A loop whose only effects were register writes that direct loads have made (its
        // other values are used only by those writes) has nothing left to do.
        let effect = |i: &u32| {
            let i = *i as usize;
            let write = matches!(self.blk.insts[i].kind, InstKind::WriteReg { .. });
            let spilled = self.plan.slot[i].is_some()
                && !matches!(self.blk.insts[i].kind, InstKind::MaskFromBits(_));
            (write && !self.written.contains(&i)) || self.plan.class[i] == Class::Reduce || spilled
        };
        if !insts.iter().any(effect) {
            return Ok(());
        }
        let ballots = self.ballots(k);
        let exit_blk = self.b.create_block();
        for _ in &ballots {
            self.b.append_block_param(exit_blk, I64);
        }
        let zero = self.b.ins().iconst(I64, 0);
        let init: Vec<BlockArg> =
            std::iter::repeat_n(BlockArg::Value(zero), ballots.len() + 1).collect();
        let fast_us = &self.plan.fast_masks[k];
        let mut headers = Vec::new();
        if self.cfg.fast_path && !fast_us.is_empty() {
            let ws = self.layout.wave_size;
            let all = if ws == 64 {
                -1i64
            } else {
                ((1u64 << ws) - 1) as i64
            };
            let mut cond: Option<Value> = None;
            for &u in fast_us {
                let x = self.u(u)?;
                let m = self.b.ins().band_imm_s(x, all);
                let e = self.b.ins().icmp_imm_s(CIntCC::Equal, m, all);
                cond = Some(match cond {
                    Some(c) => self.b.ins().band(c, e),
                    None => e,
                });
            }
            let fast = self.header(ballots.len());
            let slow = self.header(ballots.len());
            self.b
                .ins()
                .brif(cond.expect("non-empty"), fast, &init, slow, &init);
            headers.push((fast, true));
            headers.push((slow, false));
        } else {
            let h = self.header(ballots.len());
            self.b.ins().jump(h, &init);
            headers.push((h, false));
        }
        let fast_set: HashSet<u32> = fast_us.iter().map(|&u| self.canon(u)).collect();
        let spec = self.cfg.nan_spec;
        self.exact_header = None;
        for (h, fast) in headers {
            self.body(k, h, fast, spec, &ballots, &fast_set, exit_blk, None)?;
        }
        if let Some(h) = self.exact_header.take() {
            self.body(k, h, false, false, &ballots, &fast_set, exit_blk, None)?;
        }
        self.b.switch_to_block(exit_blk);
        for (j, &bi) in ballots.iter().enumerate() {
            self.uvals[bi as usize] = Some(self.b.block_params(exit_blk)[j]);
        }
        Ok(())
    }

    /// A loop header: parameters the chunk's byte offset in a register row (the induction
    /// variable: it addresses rows without scaling) and the ballot accumulators.
    fn header(&mut self, n_ballots: usize) -> ir::Block {
        let h = self.b.create_block();
        for _ in 0..=n_ballots {
            self.b.append_block_param(h, I64);
        }
        h
    }

    /// One copy of loop `k`'s body at header `h`: `fast` knows the fast-path masks all-ones,
    /// `spec` speculates on NaN-free operands; `before` keeps only the instructions before
    /// that one (a replay, see [`Self::replays`]).
    #[allow(clippy::too_many_arguments)]
    fn body(
        &mut self,
        k: usize,
        h: ir::Block,
        fast: bool,
        spec: bool,
        ballots: &[u32],
        fast_set: &HashSet<u32>,
        exit_blk: ir::Block,
        before: Option<usize>,
    ) -> R<()> {
        let params = self.b.block_params(h).to_vec();
        let (off16, accs) = (params[0], params[1..].to_vec());
        self.b.switch_to_block(h);
        let off32 = self.b.ins().ishl_imm_u(off16, 1);
        let lane0 = self.b.ins().ushr_imm_u(off16, 2);
        let state_c = self.b.ins().iadd(self.state, off16);
        let scratch_c = self.b.ins().iadd(self.scratch, off32);
        let mut cx = Chunk {
            fast,
            lane0,
            state_c,
            scratch_c,
            off16,
            vals: HashMap::new(),
            rows: BTreeMap::new(),
            ones: HashSet::new(),
            fast_us: if fast {
                fast_set.clone()
            } else {
                HashSet::new()
            },
            accs: ballots.iter().copied().zip(accs.iter().copied()).collect(),
            spec: spec.then(Spec::default),
        };
        for &i in &self.plan.loop_insts[k] {
            if before.is_some_and(|b| i as usize >= b) {
                break;
            }
            self.lane_inst(&mut cx, i as usize)?;
        }
        if let Some(spec) = cx.spec.take().filter(|s| !s.checks.is_empty()) {
            let any = self.any_nan(&spec.checks);
            let n_ballots = ballots.len();
            let exact = match self.exact_header {
                Some(e) => e,
                None => {
                    let e = self.header(n_ballots);
                    self.exact_header = Some(e);
                    e
                }
            };
            // Rerun this chunk exactly, with the accumulators as they were on entry.
            let redo: Vec<BlockArg> = params.iter().map(|&v| BlockArg::Value(v)).collect();
            let cont = self.b.create_block();
            self.b.ins().brif(any, exact, &redo, cont, &[]);
            self.b.switch_to_block(cont);
        }
        self.flush_rows(&mut cx);
        let next = self.b.ins().iadd_imm_s(off16, 16);
        let more = self
            .b
            .ins()
            .icmp_imm_s(CIntCC::UnsignedLessThan, next, 16 * self.nchunks);
        let mut back = vec![BlockArg::Value(next)];
        let mut out = Vec::new();
        for &(_, a) in &cx.accs {
            back.push(BlockArg::Value(a));
            out.push(BlockArg::Value(a));
        }
        self.b.ins().brif(more, h, &back, exit_blk, &out);
        Ok(())
    }

    /// Whether any lane of the float vectors `vals` is a NaN (an `i8` 0/1), testing two
    /// vectors per unordered compare.
    fn any_nan(&mut self, vals: &[Value]) -> Value {
        let mut acc: Option<Value> = None;
        let mut by_ty: Vec<(ir::Type, Vec<Value>)> = Vec::new();
        for &v in vals {
            let t = self.b.func.dfg.value_type(v);
            match by_ty.iter_mut().find(|(x, _)| *x == t) {
                Some((_, vs)) => {
                    if !vs.contains(&v) {
                        vs.push(v)
                    }
                }
                None => by_ty.push((t, vec![v])),
            }
        }
        for (_, vs) in by_ty {
            for pair in vs.chunks(2) {
                let (a, c) = (pair[0], *pair.get(1).unwrap_or(&pair[0]));
                let u = self.b.ins().fcmp(ir::condcodes::FloatCC::Unordered, a, c);
                let u = bc(&mut self.b, I32X4, u);
                acc = Some(match acc {
                    Some(x) => self.b.ins().bor(x, u),
                    None => u,
                });
            }
        }
        let acc = acc.expect("at least one check");
        self.b.ins().vany_true(acc)
    }

    fn lane_val(&mut self, cx: &mut Chunk, v: wavejit_ir::Value) -> R<V> {
        if let Some(&x) = cx.vals.get(&v.0) {
            return Ok(x);
        }
        let t = self.ty(v)?;
        if !t.is_lane() {
            return Ok(V::S(self.u(v)?));
        }
        let vi = v.index();
        let x = if (is_remat(&self.blk.insts[vi].kind) || self.plan.reread[vi])
            && self.plan.class[vi] == Class::Lane
        {
            self.remat(cx, vi)?
        } else {
            let s = self.plan.slot[v.index()]
                .ok_or_else(|| format!("{v} crosses a loop without a slot"))?;
            let x = self.slot_load(cx, s, t.scalar);
            let (p, n) = x.parts();
            for w64 in [false, true] {
                if self.flushed_slots.get(&(v.0, w64)) == Some(&true) {
                    self.flushed.extend(p[..n].iter().map(|&x| (x, w64)));
                }
            }
            x
        };
        cx.vals.insert(v.0, x);
        Ok(x)
    }

    /// Lane register read `%i` of `reg` in this chunk (`d`: its demand, for lazy blending).
    fn lane_read(&mut self, cx: &mut Chunk, i: usize, reg: Reg, d: Demand) -> R<V> {
        let t = self.ty(wavejit_ir::Value(i as u32))?.scalar;
        self.check_reg(reg, t.cells())?;
        let lo = self.row_read(cx, reg, d);
        Ok(if t.bits() == 64 {
            let hi = self.row_read(cx, reg.offset(1), d);
            let (p0, p1) = interleave(&mut self.b, lo, hi);
            V::L2(p0, p1)
        } else if t == ScalarType::I1 {
            let one = const32x4(&mut self.b, [1; 4]);
            let bit = self.b.ins().band(lo, one);
            V::L(self.b.ins().icmp(CIntCC::Equal, bit, one))
        } else if t.bits() < 32 {
            let m = const32x4(&mut self.b, [t.bit_mask() as u32; 4]);
            V::L(self.b.ins().band(lo, m))
        } else {
            V::L(lo)
        })
    }

    fn remat(&mut self, cx: &mut Chunk, i: usize) -> R<V> {
        Ok(match self.blk.insts[i].kind {
            // A read again in a later loop (`Plan::reread`): whatever its first use wanted,
            // this one may see any lane.
            InstKind::ReadReg(reg) => self.lane_read(cx, i, reg, Demand::All)?,
            InstKind::LaneId => {
                let base = self.b.ins().ireduce(I32, cx.lane0);
                let s = self.b.ins().splat(I32X4, base);
                let lanes = const32x4(&mut self.b, [0, 1, 2, 3]);
                V::L(self.b.ins().iadd(s, lanes))
            }
            InstKind::Splat(v) => {
                let t = self.ty(v)?.scalar;
                let x = self.u(v)?;
                broadcast(&mut self.b, t, x)
            }
            InstKind::MaskFromBits(u) => {
                if cx.fast && cx.fast_us.contains(&self.canon(u)) {
                    cx.ones.insert(self.plan.canon[i].0);
                    V::L(const32x4(&mut self.b, [u32::MAX; 4]))
                } else {
                    let x = self.u(u)?;
                    let bits = self.b.ins().ushr(x, cx.lane0);
                    let bits = self.b.ins().ireduce(I32, bits);
                    let s = self.b.ins().splat(I32X4, bits);
                    let sel = const32x4(&mut self.b, [1, 2, 4, 8]);
                    let a = self.b.ins().band(s, sel);
                    V::L(self.b.ins().icmp(CIntCC::Equal, a, sel))
                }
            }
            _ => return Err(format!("%{i} is not recomputable")),
        })
    }

    fn lane_inst(&mut self, cx: &mut Chunk, i: usize) -> R<()> {
        let inst = &self.blk.insts[i];
        let me = wavejit_ir::Value(i as u32);
        match inst.kind {
            InstKind::LaneId | InstKind::Splat(_) | InstKind::MaskFromBits(_) => {
                let v = self.remat(cx, i)?;
                cx.vals.insert(i as u32, v);
            }
            InstKind::Pure { op, mode, args } => {
                let t = self.ty(me)?.scalar;
                let n = op.arity();
                let mut vs = Vec::with_capacity(n);
                let mut tys = Vec::with_capacity(n);
                for &a in &args[..n] {
                    vs.push(self.lane_val(cx, a)?);
                    tys.push(self.ty(a)?.scalar);
                }
                // Adding, subtracting, or-ing or xor-ing the constant 0 gives the other
                // operand (lifters emit `x + 0` for zero address offsets).
                if let Some(keep) = self.identity_operand(op, &args[..n]) {
                    let pick = match vs[keep] {
                        V::S(s) => broadcast(&mut self.b, t, s),
                        v => v,
                    };
                    cx.vals.insert(i as u32, pick);
                    return self.spill_if(cx, i);
                }
                // Masks known all-ones in the fast copy stay known through `and`.
                if op == wavejit_ir::Op::And && t == ScalarType::I1 {
                    let (c0, c1) = (self.canon(args[0]), self.canon(args[1]));
                    let (o0, o1) = (cx.ones.contains(&c0), cx.ones.contains(&c1));
                    if o0 || o1 {
                        if o0 && o1 {
                            cx.ones.insert(self.plan.canon[i].0);
                        }
                        let pick = if o0 { vs[1] } else { vs[0] };
                        let pick = match pick {
                            V::S(s) => broadcast(&mut self.b, ScalarType::I1, s),
                            v => v,
                        };
                        cx.vals.insert(i as u32, pick);
                        return self.spill_if(cx, i);
                    }
                }
                let inl = self.try_inline(op, mode, t, &tys, &vs, true, cx.spec.as_mut());
                let r = match inl {
                    Some(r) => r,
                    None => self.call_chunk(op, mode, t, &tys, &vs)?,
                };
                let (p, n) = r.parts();
                for w64 in [false, true] {
                    let here = p[..n].iter().all(|&x| self.flushed.contains(&(x, w64)));
                    *self.flushed_slots.entry((i as u32, w64)).or_insert(here) &= here;
                }
                cx.vals.insert(i as u32, r);
            }
            InstKind::ReadReg(reg) => {
                let d = self.plan.demand[i];
                let v = self.lane_read(cx, i, reg, d)?;
                cx.vals.insert(i as u32, v);
            }
            InstKind::WriteReg { .. } if self.written.contains(&i) => return Ok(()),
            InstKind::WriteReg { reg, value, mask } => {
                let t = self.ty(value)?.scalar;
                self.check_reg(reg, t.cells())?;
                let v = match self.lane_val(cx, value)? {
                    V::S(s) => broadcast(&mut self.b, t, s),
                    v => v,
                };
                // The mask is computed first: a fast-path mask the loop has not used yet
                // becomes known all-ones only then.
                let m = match mask {
                    Some(m) => match self.lane_val(cx, m)? {
                        _ if cx.ones.contains(&self.canon(m)) => None,
                        V::L(x) => Some((self.canon(m), x)),
                        V::S(s) => match broadcast(&mut self.b, ScalarType::I1, s) {
                            V::L(x) => Some((self.canon(m), x)),
                            _ => return Err("mask broadcast".into()),
                        },
                        V::L2(..) => return Err(format!("%{i}: 64-bit write mask")),
                    },
                    None => None,
                };
                match v {
                    V::L2(p0, p1) => {
                        let (lo, hi) = deinterleave(&mut self.b, p0, p1);
                        self.row_write(cx, reg, lo, m);
                        self.row_write(cx, reg.offset(1), hi, m);
                    }
                    V::L(x) => {
                        let x = if t == ScalarType::I1 {
                            let one = const32x4(&mut self.b, [1; 4]);
                            self.b.ins().band(x, one)
                        } else {
                            x
                        };
                        self.row_write(cx, reg, x, m);
                    }
                    V::S(_) => unreachable!("broadcast above"),
                }
            }
            InstKind::Ballot(m) => {
                let x = match self.lane_val(cx, m)? {
                    V::L(x) => x,
                    _ => return Err(format!("%{i}: ballot of a non-mask")),
                };
                let bits = self.b.ins().vhigh_bits(I64, x);
                let bits = self.b.ins().ishl(bits, cx.lane0);
                let slot = cx
                    .accs
                    .iter_mut()
                    .find(|(b, _)| *b as usize == i)
                    .ok_or("ballot accumulator")?;
                slot.1 = self.b.ins().bor(slot.1, bits);
                return Ok(());
            }
            _ => return Err(format!("%{i}: not a lane instruction")),
        }
        self.spill_if(cx, i)
    }

    /// For `op` with one operand the constant 0 that leaves the other unchanged (`x + 0`,
    /// `0 + x`, `x - 0`, `x | 0`, `x ^ 0`), the index of the operand that is the result.
    fn identity_operand(&self, op: wavejit_ir::Op, args: &[wavejit_ir::Value]) -> Option<usize> {
        use wavejit_ir::Op;
        let zero = |v: &wavejit_ir::Value| {
            matches!(
                self.blk.insts.get(v.index()).map(|x| x.kind),
                Some(InstKind::Const(0))
            )
        };
        match (op, args) {
            (Op::Iadd | Op::Or | Op::Xor, [a, b]) if zero(b) && !zero(a) => Some(0),
            (Op::Iadd | Op::Or | Op::Xor, [a, _]) if zero(a) => Some(1),
            (Op::Isub, [_, b]) if zero(b) => Some(0),
            _ => None,
        }
    }

    fn spill_if(&mut self, cx: &mut Chunk, i: usize) -> R<()> {
        // A `MaskFromBits` slot is filled where it is read (`mask_slots`).
        if matches!(self.blk.insts[i].kind, InstKind::MaskFromBits(_)) {
            return Ok(());
        }
        if let Some(s) = self.plan.slot[i] {
            let t = self.ty(wavejit_ir::Value(i as u32))?.scalar;
            let v = cx.vals[&(i as u32)];
            let off = (s as i64 * SLOT_BYTES) as i32;
            if self.plan.packed[i] {
                let V::L(x) = v else {
                    return Err(format!("%{i}: a packed slot for a value of two halves"));
                };
                // Formed at the store, the address folds into it (no register held for it
                // across the loop).
                let p = self.b.ins().iadd(self.scratch, cx.off16);
                self.b.ins().store(mem(), x, p, off);
                return Ok(());
            }
            let (p0, p1) = match v {
                V::L2(a, b) => (a, b),
                V::L(x) => {
                    let x = if t == ScalarType::I1 {
                        let one = const32x4(&mut self.b, [1; 4]);
                        self.b.ins().band(x, one)
                    } else {
                        x
                    };
                    widen_u(&mut self.b, x)
                }
                V::S(_) => return Err(format!("%{i}: uniform value in a lane slot")),
            };
            self.b.ins().store(mem(), p0, cx.scratch_c, off);
            self.b.ins().store(mem(), p1, cx.scratch_c, off + 16);
        }
        Ok(())
    }

    fn slot_load(&mut self, cx: &Chunk, s: u32, t: ScalarType) -> V {
        let off = (s as i64 * SLOT_BYTES) as i32;
        if self.plan.packed_slot[s as usize] {
            let p = self.b.ins().iadd(self.scratch, cx.off16);
            return V::L(self.b.ins().load(I32X4, mem(), p, off));
        }
        let p0 = self.b.ins().load(I64X2, mem(), cx.scratch_c, off);
        let p1 = self.b.ins().load(I64X2, mem(), cx.scratch_c, off + 16);
        if t.bits() == 64 {
            return V::L2(p0, p1);
        }
        let (lo, _) = deinterleave(&mut self.b, p0, p1);
        if t == ScalarType::I1 {
            let zero = const32x4(&mut self.b, [0; 4]);
            V::L(self.b.ins().icmp(CIntCC::NotEqual, lo, zero))
        } else {
            V::L(lo)
        }
    }

    fn row_off(&self, reg: Reg) -> i32 {
        self.layout.lane_cell_offset(reg, 0) as i32
    }

    fn row_read(&mut self, cx: &mut Chunk, reg: Reg, d: Demand) -> Value {
        let off = self.row_off(reg);
        match cx.rows.get(&(off as usize)).copied() {
            None => {
                let v = self.b.ins().load(I32X4, mem(), cx.state_c, off);
                cx.rows.insert(off as usize, Row::Clean(v));
                v
            }
            Some(Row::Clean(v)) | Some(Row::Val(v)) => v,
            Some(Row::Pending {
                old,
                new,
                key,
                mask,
            }) => {
                if self.cfg.lazy_blend && d == Demand::Mask(wavejit_ir::Value(key)) {
                    new
                } else {
                    let v = self.blend(cx, off, old, new, mask);
                    cx.rows.insert(off as usize, Row::Val(v));
                    v
                }
            }
        }
    }

    fn blend(
        &mut self,
        cx: &Chunk,
        off: i32,
        old: Option<Value>,
        new: Value,
        mask: Value,
    ) -> Value {
        let old = old.unwrap_or_else(|| self.b.ins().load(I32X4, mem(), cx.state_c, off));
        self.b.ins().bitselect(mask, new, old)
    }

    fn row_write(&mut self, cx: &mut Chunk, reg: Reg, v: Value, m: Option<(u32, Value)>) {
        let off = self.row_off(reg) as usize;
        let Some((key, mask)) = m else {
            cx.rows.insert(off, Row::Val(v));
            return;
        };
        if let Some(Row::Pending { old, key: k, .. }) = cx.rows.get(&off).copied() {
            if k == key && self.cfg.lazy_blend {
                cx.rows.insert(
                    off,
                    Row::Pending {
                        old,
                        new: v,
                        key,
                        mask,
                    },
                );
                return;
            }
        }
        let old = if cx.rows.contains_key(&off) {
            Some(self.row_read(cx, reg, Demand::All))
        } else {
            None
        };
        if self.cfg.lazy_blend {
            cx.rows.insert(
                off,
                Row::Pending {
                    old,
                    new: v,
                    key,
                    mask,
                },
            );
        } else {
            let b = self.blend(cx, off as i32, old, v, mask);
            cx.rows.insert(off, Row::Val(b));
        }
    }

    fn flush_rows(&mut self, cx: &mut Chunk) {
        let rows = std::mem::take(&mut cx.rows);
        for (off, r) in rows {
            let v = match r {
                Row::Clean(_) => continue,
                Row::Val(v) => v,
                Row::Pending { old, new, mask, .. } => self.blend(cx, off as i32, old, new, mask),
            };
            self.b.ins().store(mem(), v, cx.state_c, off as i32);
        }
    }

    /// The op lowered inline (uniform scalars, or one chunk when `lane`), or `None` when inlining
    /// is off or the op has no inline lowering (the caller then calls the semantics helper).
    /// `spec` is the chunk's NaN-speculation state, if it speculates.
    #[allow(clippy::too_many_arguments)]
    fn try_inline(
        &mut self,
        op: wavejit_ir::Op,
        mode: wavejit_ir::FloatMode,
        ty: ScalarType,
        tys: &[ScalarType],
        vs: &[V],
        lane: bool,
        spec: Option<&mut Spec>,
    ) -> Option<V> {
        if !self.cfg.inline {
            return None;
        }
        Lower {
            b: &mut self.b,
            cfg: self.cfg.lower,
            spec,
            flushed: &mut self.flushed,
        }
        .lower(op, mode, ty, tys, vs, lane)
    }

    fn call_chunk(
        &mut self,
        op: wavejit_ir::Op,
        mode: wavejit_ir::FloatMode,
        ty: ScalarType,
        tys: &[ScalarType],
        vs: &[V],
    ) -> R<V> {
        let mut lane = [false; 4];
        let buf = self.b.ins().stack_addr(I64, self.helper_buf, 0);
        for (k, v) in vs.iter().enumerate() {
            let off = 32 * k as i32;
            match *v {
                V::S(s) => {
                    let s = if self.b.func.dfg.value_type(s) == I64 {
                        s
                    } else {
                        self.b.ins().uextend(I64, s)
                    };
                    self.b.ins().store(mem(), s, buf, off);
                }
                V::L(x) => {
                    lane[k] = true;
                    self.b.ins().store(mem(), x, buf, off);
                }
                V::L2(a, c) => {
                    lane[k] = true;
                    self.b.ins().store(mem(), a, buf, off);
                    self.b.ins().store(mem(), c, buf, off + 16);
                }
            }
        }
        let desc = self.eval_desc(op, mode, ty, tys, &lane);
        let f = self.ptr_const(helper_eval_chunk as *const () as usize);
        self.b
            .ins()
            .call_indirect(self.sig_chunk, f, &[desc, self.ctx_ptr, buf]);
        Ok(if ty.bits() == 64 {
            let a = self.b.ins().load(I64X2, mem(), buf, 128);
            let c = self.b.ins().load(I64X2, mem(), buf, 144);
            V::L2(a, c)
        } else {
            V::L(self.b.ins().load(I32X4, mem(), buf, 128))
        })
    }
}
