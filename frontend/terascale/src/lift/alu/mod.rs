//! ALU clauses: instruction groups with their operands, outputs and predication.
//!
//! # Groups (4.3-4.9, notes §3.3)
//! A group is atomic: every source of every slot is read, then every slot computes, then
//! the GPR, PV/PS, AR and predicate writes happen. PV.x-w and PS (Evergreen: the T slot)
//! are the `pv` cells, written for the lanes that executed whatever WRITE_MASK says
//! (L5119-L5132); Cayman has no PS (SRC_SEL 255 is invalid there). A slot whose op repeats
//! an earlier slot's op with identical sources (Cayman's replicated transcendentals and
//! MULLO/MULHI groups) is computed once and its value reused: each slot still writes its
//! own channel.
//!
//! # SSA within a clause ([`ClauseValues`])
//! Only what later clauses or blocks can observe reaches the state; the rest stays in SSA:
//! - execution masks are made once per clause and predicate value;
//! - PV/PS writes stay pending and are stored only before a GROUP_BARRIER (a write under
//!   the same lanes replaces the pending one, which covers the same lanes); at clause end
//!   they are dropped: "nor are PV values preserved past the end of the ALU clause" (4.6.2,
//!   L1458), so a first group reading PV (which "makes no sense", ibid.) reads the `pv`
//!   cells as a barrier left them (0 at launch);
//! - a fixed kcache constant is loaded once per clause;
//! - a GPR or PV read by a group whose instructions all run under the lanes `M` the value
//!   was written under gets the written value itself, not the blend with the older value:
//!   the group's results in lanes outside `M` are never observed (every result, predicate,
//!   KILL and AR write of the group is masked by `M`, and values cross slots only within the
//!   group). Groups with LDS_IDX_OP (whose address every lane uses) read the state.
//!
//! A fault inside a clause (a kcache or LDS access) leaves the PV writes of the clause's
//! earlier groups unstored; PV is not valid across clauses (notes §3.3, 4.6.2 L1456), and
//! a fault ends the wave.
//!
//! # Sources
//! Read by `src` (GPRs, kcache, constants, PV/PS and the special selects).
//!
//! # LDS_IDX_OP
//! Lifted by `lds` in the compute phase of its slot (x); its return enters the output queue
//! at the end of the group, after the group's pop (see `lds`).
//!
//! # Outputs
//! OMOD then CLAMP ([`super::omod`], [`super::clamp`]) on OP2 instructions (not on Cayman's
//! EXECUTE_MASK form, whose OMOD bits are EXECUTE_MASK_OP). WRITE_MASK (OP2) gates the GPR
//! write; OP3 always writes. The predicate (4.10, L1966-L1980) starts every clause as the
//! active mask; PRED_SEL ZERO/ONE executes the lanes whose predicate is 0/1. UPDATE_PRED
//! makes a PRED_SET's result the predicate of the following groups; UPDATE_EXEC_MASK
//! records it as the clause's exec-mask update (lanes that did not execute it are
//! deactivated, Cayman EXECUTE_MASK_OP 0), applied by the CF instruction at clause end.
//! Cayman EXECUTE_MASK_OP 1/2 also send the deactivated lanes to inactive-break/-continue;
//! 3 ("kill-like") also clears their valid bits.
//! A relative destination indexed by AR.x is lane-indexed, so its value is broadcast when it
//! is uniform. MOVA_INT (AR.X, CF_IDX0/1, CLAUSE_GLOBAL) and SET_CF_IDX0/1 write at group end
//! (`index`).
//!
//! # KILL (compute)
//! KILL* clear the valid bits of the executing lanes whose comparison holds. A killed lane
//! keeps running ("killed pixels remain active", 3.6.2): in a compute kernel the valid mask
//! only matters to VALID_PIXEL_MODE tests. The destination is not written.
//!
//! # Barriers
//! GROUP_BARRIER ends the block with [`Terminator::Barrier`] after its group's writes; the
//! clause continues in a new block.
//!
//! # Exception flags
//! In a clause that holds STORE_FLAGS or LOAD_STORE_FLAGS, each slot's value comes with its
//! float exception flags and the flag instructions are valued after the group's last slot
//! (see `flags`).
use super::state::Cf;
use super::{AluForm, AluInput, AluValue, Omod, Src};
use super::{LiftError, Lifter};
use crate::inst::{AluGroup, AluInst, AluSrc, CfAlu, Slot};
use crate::opcode::AluOp;
use crate::tables::{alu_info, AluEnc};
use std::collections::HashMap;
use wavejit_ir::{FloatCC, IntCC, Op, ScalarType, Terminator, Value};

use ScalarType::{F32, I1, I32, I64};

mod src;

/// What an ALU clause keeps in SSA from group to group. Values belong to the current block:
/// reset at clause start and after a GROUP_BARRIER's block split (see the module doc, "SSA
/// within a clause").
#[derive(Default)]
pub(crate) struct ClauseValues {
    /// The clause's base exec bits: the active mask, widened under WHOLE_QUAD_MODE.
    base: Option<Value>,
    /// Execution masks by (PRED_SEL, predicate bits): (exec bits, lane mask).
    masks: Vec<(u8, Value, Value, Value)>,
    /// GPR cells written in this clause (stored already): the value and the lanes written.
    gpr: HashMap<u32, (Value, Value)>,
    /// PV.x-w and PS written in this clause and not stored yet: the value and the lanes.
    pv: [Option<(Value, Value)>; 5],
    /// kcache dwords loaded in this clause, by (bank, or 16 + set for an indexed set; dword
    /// offset in the buffer).
    kcache: HashMap<(u8, u32), Value>,
    /// The lane mask every instruction of the group being lifted runs under, when they share
    /// one and forwarding is allowed for the group.
    group_lanes: Option<Value>,
}

/// What a slot produced.
struct SlotOut {
    slot: Slot,
    value: Value,
    inst: AluInst,
    /// The lanes that executed (`lane i1`).
    exec: Value,
}

/// The per-group context: the clause's locks and the group.
struct Grp<'g> {
    cf: u32,
    cfa: &'g CfAlu,
    g: &'g AluGroup,
}

/// Sources an instruction reads: LDS_IDX_OP reads as many as its LDS_OP takes.
fn src_count(i: &AluInst) -> usize {
    match i.lds {
        Some(l) => crate::tables::lds_info(l.op).srcs as usize,
        None => alu_info(i.op).srcs as usize,
    }
}

fn text(i: &AluInst) -> String {
    format!("{} {:?}", i.op.name(), i.slot)
}

impl Lifter<'_> {
    /// Lifts an ALU clause into the current block (splitting it at GROUP_BARRIERs).
    pub fn lift_alu_clause(
        &mut self,
        cf: u32,
        cfa: &CfAlu,
        groups: &[AluGroup],
    ) -> Result<(), LiftError> {
        let act = self.active();
        self.set(Cf::Pred, act);
        let z = self.b.i64(0);
        self.set(Cf::ExecUpdate, z);
        self.set(Cf::ExecBreak, z);
        self.set(Cf::ExecContinue, z);
        let z = self.b.i32(0);
        self.set(Cf::ExecUpdated, z);
        self.oq_begin();
        self.reset_float_mode();
        self.clause = ClauseValues::default();
        self.flags_begin_clause(groups);
        for g in groups {
            let barrier = self.lift_group(&Grp { cf, cfa, g })?;
            if barrier {
                self.store_pv();
                let cont = self.b.create_block();
                self.b.terminate(Terminator::Barrier(cont));
                self.b.switch_to(cont);
                self.clause = ClauseValues::default();
            }
        }
        // PV values are not preserved past the end of the clause (4.6.2, L1458): the pending
        // ones are dropped, not stored.
        self.clause.pv = Default::default();
        let at = groups.last().map_or(cf, |g| g.addr);
        self.oq_end(cf, at, super::cf_text(&crate::inst::CfInst::Alu(*cfa)))
    }

    /// Lifts one group; true if it holds a GROUP_BARRIER.
    fn lift_group(&mut self, x: &Grp) -> Result<bool, LiftError> {
        let class = self.p.class;
        self.apply_set_mode(x.cf, x.g)?;
        let base = match self.clause.base {
            Some(b) => b,
            None => {
                let mut b = self.active();
                if x.cfa.whole_quad_mode {
                    b = self.whole_quads(b);
                }
                self.clause.base = Some(b);
                b
            }
        };
        let pred = self.get(Cf::Pred, I64);
        let mut barrier = false;
        let srcs: Vec<(u32, AluInst, usize)> =
            x.g.insts
                .iter()
                .enumerate()
                .map(|(k, i)| (x.g.addr + k as u32, *i, src_count(i)))
                .collect();
        let queue = self.oq_use(x.cf, &srcs)?;
        let mut pushed: Option<(u32, AluInst, super::lds::Returned)> = None;
        // Phase 1: every execution mask, then every source.
        let mut masks = Vec::new();
        for (k, inst) in x.g.insts.iter().enumerate() {
            let at = x.g.addr + k as u32;
            self.b.begin_guest_inst(8 * at);
            masks.push(self.exec_mask(x, at, inst, base, pred)?);
        }
        // Forwarding needs one mask for the whole group (values cross slots: pairs,
        // reductions, reused results) and no LDS access (its address is used by every lane).
        let first = masks.first().map(|m| m.1);
        self.clause.group_lanes = first.filter(|&m| {
            masks.iter().all(|k| k.1 == m) && x.g.insts.iter().all(|i| i.op != AluOp::LDS_IDX_OP)
        });
        let zero = self.b.i32(0);
        let mut reads: Vec<(AluInst, [Value; 3], Value, Value)> = Vec::new();
        for (k, inst) in x.g.insts.iter().enumerate() {
            let at = x.g.addr + k as u32;
            self.b.set_inst_pc(8 * at);
            let (bits, lanes) = masks[k];
            let n = src_count(inst);
            let mut s = [zero; 3];
            for (j, v) in s.iter_mut().enumerate().take(n) {
                *v = self.read_src(x, at, inst, j)?;
            }
            reads.push((*inst, s, lanes, bits));
        }
        // Phase 2: compute.
        let mut outs: Vec<SlotOut> = Vec::new();
        let mut done: Vec<(AluOp, [AluSrc; 3], usize)> = Vec::new();
        let mut pred_bits: Option<Value> = None;
        let mut exec_update: Option<(Value, Value, u8)> = None;
        let mut ar: Option<(Value, Value)> = None;
        let mut index_writes: Vec<(Cf, Value)> = Vec::new();
        let mut kill: Option<Value> = None;
        let slot_of = |reads: &[(AluInst, [Value; 3], Value, Value)], s: Slot| {
            reads.iter().position(|r| r.0.slot == s)
        };
        // Chained slots read the next higher slot's result: they go last, w first.
        let chained = |i: &AluInst| matches!(super::alu_form(i.op), Ok(AluForm::Chained(_)));
        let mut order: Vec<usize> = (0..reads.len())
            .filter(|&i| !chained(&reads[i].0))
            .collect();
        let mut tail: Vec<usize> = (0..reads.len()).filter(|&i| chained(&reads[i].0)).collect();
        tail.sort_by_key(|&i| std::cmp::Reverse(reads[i].0.slot));
        order.extend(tail);
        for i in order {
            let (inst, s, lanes, bits) = reads[i];
            let at = x.g.addr + i as u32;
            self.b.set_inst_pc(8 * at);
            let op = inst.op;
            match op {
                AluOp::NOP => continue,
                // Applied to the whole group before phase 2 (`mode`).
                AluOp::SET_MODE => continue,
                AluOp::GROUP_BARRIER => {
                    barrier = true;
                    continue;
                }
                AluOp::LDS_IDX_OP => {
                    if let Some(r) = self.lift_lds_op(x.cf, at, &inst, s, lanes)? {
                        pushed = Some((at, inst, r));
                    }
                    continue;
                }
                // AR.X and the index registers (`index`), written at group end.
                AluOp::MOVA_INT => {
                    let v = self.mova_int(s[0]);
                    match inst.mova_dst(class).unwrap_or(0) {
                        0 => ar = Some((v, lanes)),
                        1 => {
                            return Err(self.unsupported(
                                x.cf,
                                at,
                                text(&inst),
                                "MOVA_INT to CF_PC (a branch from an ALU clause)",
                            ))
                        }
                        d => match self.mova_index_write(d, v, lanes) {
                            Some(w) => index_writes.push(w),
                            None => {
                                return Err(self.invalid(
                                    x.cf,
                                    at,
                                    text(&inst),
                                    "reserved MOVA_DST",
                                ))
                            }
                        },
                    }
                    continue;
                }
                AluOp::SET_CF_IDX0 | AluOp::SET_CF_IDX1 => {
                    let which = u8::from(op == AluOp::SET_CF_IDX1);
                    index_writes.push(self.set_cf_idx(which, lanes));
                    continue;
                }
                // Valued once the group's flags are known (before phase 3, `flags`); the
                // placeholder is src0, which LOAD_STORE_FLAGS loads.
                AluOp::STORE_FLAGS | AluOp::LOAD_STORE_FLAGS => {
                    outs.push(SlotOut {
                        slot: inst.slot,
                        value: s[0],
                        inst,
                        exec: lanes,
                    });
                    continue;
                }
                AluOp::KILLE
                | AluOp::KILLGT
                | AluOp::KILLGE
                | AluOp::KILLNE
                | AluOp::KILLE_INT
                | AluOp::KILLGT_INT
                | AluOp::KILLGE_INT
                | AluOp::KILLNE_INT
                | AluOp::KILLGT_UINT
                | AluOp::KILLGE_UINT => {
                    let c = self.kill_cond(op, s[0], s[1]);
                    let c = self.b.op(Op::And, I1, &[c, lanes]);
                    let k = self.b.ballot(c);
                    kill = Some(match kill {
                        Some(p) => self.or64(p, k),
                        None => k,
                    });
                    continue;
                }
                _ => {}
            }
            let form = super::alu_form(op)
                .map_err(|e| self.unsupported(x.cf, at, text(&inst), &e.to_string()))?;
            if let Some(&(_, _, j)) = done
                .iter()
                .find(|d| d.0 == op && d.1 == inst.src && matches!(form, AluForm::Slot(_)))
            {
                let v = outs[j].value;
                self.flags_reused(&inst, lanes);
                outs.push(SlotOut {
                    slot: inst.slot,
                    value: v,
                    inst,
                    exec: lanes,
                });
                continue;
            }
            let value = match form {
                AluForm::Slot(n) => {
                    let input = AluInput::Slot(&s[..n]);
                    self.alu_value(x.cf, at, &inst, input, lanes)?
                }
                AluForm::Chained(n) => {
                    // The previous slot is the next higher vector slot (computed before).
                    let prev = match inst.slot {
                        Slot::X => Some(Slot::Y),
                        Slot::Y => Some(Slot::Z),
                        Slot::Z => Some(Slot::W),
                        _ => None,
                    };
                    let pv = match prev.and_then(|p| outs.iter().find(|o| o.slot == p)) {
                        Some(o) => o.value,
                        None => self.b.i32(0),
                    };
                    let input = AluInput::Chained {
                        srcs: &s[..n],
                        prev: pv,
                    };
                    self.alu_value(x.cf, at, &inst, input, lanes)?
                }
                AluForm::Wide(w) => {
                    let (even, odd) = match inst.slot {
                        Slot::X | Slot::Y => (Slot::X, Slot::Y),
                        Slot::Z | Slot::W => (Slot::Z, Slot::W),
                        Slot::T => {
                            return Err(self.invalid(x.cf, at, text(&inst), "64-bit op in T"))
                        }
                    };
                    if inst.slot == odd && slot_of(&reads, even).is_some() {
                        // Computed with its even partner.
                        continue;
                    }
                    let (Some(ei), Some(oi)) = (slot_of(&reads, even), slot_of(&reads, odd)) else {
                        return Err(self.invalid(
                            x.cf,
                            at,
                            text(&inst),
                            "64-bit op without its slot pair",
                        ));
                    };
                    let (he, lo) = (reads[ei].1, reads[oi].1);
                    let srcs: Vec<Src> = w
                        .iter()
                        .enumerate()
                        .map(|(j, w)| match w {
                            super::Width::W64 => Src::W64 {
                                hi: he[j],
                                lo: lo[j],
                            },
                            super::Width::W32 => Src::W32(he[j]),
                        })
                        .collect();
                    let v = self.alu_value(x.cf, at, &inst, AluInput::Wide(&srcs), lanes)?;
                    let pair = [(even, ei), (odd, oi)];
                    let vals: [Value; 2] = match v {
                        AluValue::Double { hi, lo } => [lo, hi],
                        AluValue::Slots(s4) => [s4[even.index()], s4[odd.index()]],
                        AluValue::Scalar(v) | AluValue::Replicated(v) => [v, v],
                        AluValue::Predicate { value, execute } => {
                            self.note_pred(
                                &inst,
                                execute,
                                lanes,
                                bits,
                                &mut pred_bits,
                                &mut exec_update,
                            );
                            [value, value]
                        }
                    };
                    for ((slot, ri), v) in pair.into_iter().zip(vals) {
                        let (pi, _, pl, _) = reads[ri];
                        outs.push(SlotOut {
                            slot,
                            value: v,
                            inst: pi,
                            exec: pl,
                        });
                    }
                    continue;
                }
                AluForm::Vector => {
                    if inst.slot != Slot::X {
                        continue;
                    }
                    let mut v4 = [[s[0], s[1]]; 4];
                    let mut idx = [0usize; 4];
                    for (k, sl) in Slot::VECTOR.iter().enumerate() {
                        let Some(r) = slot_of(&reads, *sl).filter(|&r| reads[r].0.op == op) else {
                            return Err(self.invalid(
                                x.cf,
                                at,
                                text(&inst),
                                "reduction without all four slots",
                            ));
                        };
                        v4[k] = [reads[r].1[0], reads[r].1[1]];
                        idx[k] = r;
                    }
                    let v = self.alu_value(x.cf, at, &inst, AluInput::Vector(&v4), lanes)?;
                    for (k, r) in idx.into_iter().enumerate() {
                        let value = match v {
                            AluValue::Slots(s4) => s4[k],
                            AluValue::Replicated(v) | AluValue::Scalar(v) => v,
                            _ => {
                                return Err(self.invalid(x.cf, at, text(&inst), "reduction result"))
                            }
                        };
                        outs.push(SlotOut {
                            slot: reads[r].0.slot,
                            value,
                            inst: reads[r].0,
                            exec: reads[r].2,
                        });
                    }
                    continue;
                }
            };
            let value = match value {
                AluValue::Scalar(v) | AluValue::Replicated(v) => v,
                AluValue::Predicate { value, execute } => {
                    self.note_pred(
                        &inst,
                        execute,
                        lanes,
                        bits,
                        &mut pred_bits,
                        &mut exec_update,
                    );
                    value
                }
                _ => return Err(self.invalid(x.cf, at, text(&inst), "unexpected result shape")),
            };
            done.push((op, inst.src, outs.len()));
            outs.push(SlotOut {
                slot: inst.slot,
                value,
                inst,
                exec: lanes,
            });
        }
        // Exception flags (`flags`): the OMOD scalings, then the flag instructions' values.
        for o in &outs {
            let i = &o.inst;
            let flag_op = super::flags::is_flag_op(i.op);
            if i.enc == AluEnc::Op2 && i.execute_mask_op(class).is_none() && !flag_op {
                self.flags_omod(Omod::from_field(i.omod as u32), o.value, o.exec);
            }
        }
        for o in outs
            .iter_mut()
            .filter(|o| super::flags::is_flag_op(o.inst.op))
        {
            o.value = self.flags_store(&o.inst, o.value, o.exec);
        }
        // Phase 3: output modifiers and writes.
        for o in &outs {
            let i = &o.inst;
            let mut v = o.value;
            if i.enc == AluEnc::Op2 && i.execute_mask_op(class).is_none() {
                v = super::omod(
                    &mut self.b,
                    Omod::from_field(i.omod as u32),
                    self.env.f32_mode,
                    v,
                );
                if i.clamp {
                    v = super::clamp(&mut self.b, self.env.f32_mode, v);
                }
            }
            self.write_pv(o.slot.index(), v, o.exec);
            let writes = i.enc == AluEnc::Op3 || i.write;
            if writes {
                self.write_gpr(x, i, v, o.exec)?;
            }
        }
        if let Some((v, lanes)) = ar {
            let r = self.l.ar();
            self.b.def_reg(r, v, Some(lanes));
        }
        for (c, v) in index_writes {
            self.set(c, v);
        }
        if let Some(nb) = pred_bits {
            self.set(Cf::Pred, nb);
        }
        if let Some((upd, dropped, op)) = exec_update {
            self.set(Cf::ExecUpdate, upd);
            let one = self.b.i32(1);
            self.set(Cf::ExecUpdated, one);
            match op {
                1 => {
                    let e = self.get(Cf::ExecBreak, I64);
                    let e = self.or64(e, dropped);
                    self.set(Cf::ExecBreak, e);
                }
                2 => {
                    let e = self.get(Cf::ExecContinue, I64);
                    let e = self.or64(e, dropped);
                    self.set(Cf::ExecContinue, e);
                }
                3 => {
                    let v = self.get(Cf::Valid, I64);
                    let v = self.andn64(v, dropped);
                    self.set(Cf::Valid, v);
                }
                _ => {}
            }
        }
        if let Some(k) = kill {
            let v = self.get(Cf::Valid, I64);
            let v = self.andn64(v, k);
            self.set(Cf::Valid, v);
        }
        self.flags_end_group();
        let pop = queue == super::lds::QueueUse::Pop;
        match pushed {
            Some((at, inst, r)) => self.oq_commit(x.cf, at, Some(&inst), pop, Some(r))?,
            None => self.oq_commit(x.cf, x.g.addr, None, pop, None)?,
        }
        Ok(barrier)
    }

    /// The exec bits and lane mask of `inst` (PRED_SEL over the clause's base), made once
    /// per clause and predicate.
    fn exec_mask(
        &mut self,
        x: &Grp,
        at: u32,
        inst: &AluInst,
        base: Value,
        pred: Value,
    ) -> Result<(Value, Value), LiftError> {
        let ps = inst.pred_sel;
        if let Some(&(_, _, bits, lanes)) =
            self.clause.masks.iter().find(|m| m.0 == ps && m.1 == pred)
        {
            return Ok((bits, lanes));
        }
        let bits = match ps {
            0 => base,
            2 => self.andn64(base, pred),
            3 => self.and64(base, pred),
            _ => return Err(self.invalid(x.cf, at, text(inst), "reserved PRED_SEL 1")),
        };
        let lanes = self.b.mask_from_bits(bits);
        self.clause.masks.push((ps, pred, bits, lanes));
        Ok((bits, lanes))
    }

    /// Writes PV slot `slot` (4 = PS) for `lanes`: kept pending in the clause; a write under
    /// the same lanes replaces a pending one (it covers the same lanes), another mask stores
    /// the pending one first.
    fn write_pv(&mut self, slot: usize, v: Value, lanes: Value) {
        if let Some((_, m)) = self.clause.pv[slot] {
            if m != lanes {
                self.store_pv_slot(slot);
            }
        }
        let v = self.b.splat(v);
        self.clause.pv[slot] = Some((v, lanes));
    }

    /// Stores the pending value of PV slot `slot`, if any.
    fn store_pv_slot(&mut self, slot: usize) {
        if let Some((v, m)) = self.clause.pv[slot].take() {
            let r = self.l.pv(slot as u32);
            self.b.def_reg(r, v, Some(m));
        }
    }

    /// Stores every pending PV value (before a block split).
    fn store_pv(&mut self) {
        for slot in 0..5 {
            self.store_pv_slot(slot);
        }
    }

    /// Reads PV slot `slot`: the pending value when the group runs under its lanes, else the
    /// stored cell.
    fn read_pv(&mut self, slot: usize) -> Value {
        if let Some((v, m)) = self.clause.pv[slot] {
            if self.clause.group_lanes == Some(m) {
                return v;
            }
            self.store_pv_slot(slot);
        }
        let r = self.l.pv(slot as u32);
        self.b.use_reg(r, I32)
    }

    /// Records a PRED_SET's predicate and exec-mask effects (applied at group end).
    fn note_pred(
        &mut self,
        inst: &AluInst,
        execute: Value,
        lanes: Value,
        bits: Value,
        pred_bits: &mut Option<Value>,
        exec_update: &mut Option<(Value, Value, u8)>,
    ) {
        let on = self.b.op(Op::And, I1, &[execute, lanes]);
        let on = self.b.ballot(on);
        if inst.update_pred {
            let old = self.get(Cf::Pred, I64);
            let kept = self.andn64(old, bits);
            *pred_bits = Some(self.or64(kept, on));
        }
        if inst.update_exec_mask {
            let op = inst.execute_mask_op(self.p.class).unwrap_or(0);
            let act = self.active();
            let dropped = self.andn64(act, on);
            *exec_update = Some((on, dropped, op));
        }
    }

    /// The value of `inst`, run in `lanes` (its flags join the group's: `flags`).
    fn alu_value(
        &mut self,
        cf: u32,
        at: u32,
        inst: &AluInst,
        input: AluInput<'_>,
        lanes: Value,
    ) -> Result<AluValue, LiftError> {
        self.flagged_value(inst, input, lanes)
            .map_err(|e| self.unsupported(cf, at, text(inst), &e.to_string()))
    }

    fn kill_cond(&mut self, op: AluOp, a: Value, b: Value) -> Value {
        use AluOp::*;
        let m = self.env.f32_mode;
        let f = |s: &mut Self, cc: FloatCC| {
            let fa = s.b.op(Op::Bitcast, F32, &[a]);
            let fb = s.b.op(Op::Bitcast, F32, &[b]);
            s.b.op_mode(Op::Fcmp(cc), m, I1, &[fa, fb])
        };
        let i = |s: &mut Self, cc: IntCC| s.b.op(Op::Icmp(cc), I1, &[a, b]);
        match op {
            KILLE => f(self, FloatCC::Eq),
            KILLGT => f(self, FloatCC::Gt),
            KILLGE => f(self, FloatCC::Ge),
            KILLNE => f(self, FloatCC::Une),
            KILLE_INT => i(self, IntCC::Eq),
            KILLGT_INT => i(self, IntCC::Sgt),
            KILLGE_INT => i(self, IntCC::Sge),
            KILLNE_INT => i(self, IntCC::Ne),
            KILLGT_UINT => i(self, IntCC::Ugt),
            _ => i(self, IntCC::Uge),
        }
    }

    fn write_gpr(&mut self, x: &Grp, i: &AluInst, v: Value, lanes: Value) -> Result<(), LiftError> {
        let chan = u32::from(i.dst_chan & 3);
        let dst = u32::from(i.dst_gpr);
        if i.dst_rel {
            let at = x.g.addr;
            let idx = self.rel_index(x, at, i)?;
            let (cell, ok) = self.rel_cell(dst, idx, chan);
            let m = self.b.op(Op::And, I1, &[lanes, ok]);
            // AR.x is per lane, so the index is lane-shaped; a value that folded to a uniform
            // (a constant result such as PRED_SET_CLR's 0) must be broadcast to match it.
            let v = self.b.splat(v);
            let r = self.l.r;
            self.b.write_reg_indexed(r, 0, cell, v, Some(m));
            self.clause.gpr.clear();
        } else {
            let r = self.l.gpr(dst, chan);
            self.b.def_reg(r, v, Some(lanes));
            let v = self.b.splat(v);
            self.clause.gpr.insert(4 * dst + chan, (v, lanes));
        }
        Ok(())
    }
}
