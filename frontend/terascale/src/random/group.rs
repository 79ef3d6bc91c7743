//! Random instruction groups and ALU clauses (see the module doc of [`super`] for the rules).
//!
//! Slot placement follows the tables' slot rules and the operand shapes of
//! [`crate::lift::alu_form`]: one slot for a plain op (x-w, or T on VLIW5), T only for
//! trans-only ops or a second op of a channel already taken (the decoder's assignment), x/y/z
//! (and optionally w) with identical sources for Cayman's replicated transcendentals, all four
//! vector slots for reductions and Cayman's all-four ops, a slot pair (x,y) or (z,w) for a
//! 64-bit op (the even slot reads the high dword, the odd slot the low one), all four for
//! MUL_64 and FREXP_64 (the same pair twice), and for a `_PREV` chain a slot whose next slot
//! (y for x, z for y, w for z) holds an unpredicated single-slot op.
use super::{
    AluClause, GenOptions, CF_IDX_MASK, CONST_BUFFERS, COUNTER_GPR, GPR_POOL, KCACHE_LINES,
    REL_SPAN,
};
use crate::chip::ChipClass;
use crate::inst::{sel, AluGroup, AluInst, AluSrc, KCache, Slot};
use crate::lift::{alu_form, AluForm};
use crate::opcode::AluOp;
use crate::tables::{self, AluEnc, SlotRule};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// The value ops of `class` (those [`alu_form`] accepts), in table order.
pub fn value_ops(class: ChipClass) -> Vec<AluOp> {
    tables::alu_rows()
        .iter()
        .filter(|r| r.opcode(class).is_some() && r.slot_rule(class) != SlotRule::Absent)
        .filter(|r| alu_form(r.op).is_ok())
        .map(|r| r.op)
        .collect()
}

/// The PRED_SET ops the exec-mask groups use (plain compares, as LLVM emits them).
pub const EXEC_PRED_SETS: [AluOp; 10] = [
    AluOp::PRED_SETE,
    AluOp::PRED_SETGT,
    AluOp::PRED_SETGE,
    AluOp::PRED_SETNE,
    AluOp::PRED_SETE_INT,
    AluOp::PRED_SETGT_INT,
    AluOp::PRED_SETGE_INT,
    AluOp::PRED_SETNE_INT,
    AluOp::PRED_SETGT_UINT,
    AluOp::PRED_SETGE_UINT,
];

/// The KILL ops (compute: they clear valid bits and write nothing).
pub const KILLS: [AluOp; 10] = [
    AluOp::KILLE,
    AluOp::KILLGT,
    AluOp::KILLGE,
    AluOp::KILLNE,
    AluOp::KILLE_INT,
    AluOp::KILLGT_INT,
    AluOp::KILLGE_INT,
    AluOp::KILLNE_INT,
    AluOp::KILLGT_UINT,
    AluOp::KILLGE_UINT,
];

/// The float exception flag moves.
pub const FLAG_OPS: [AluOp; 2] = [AluOp::STORE_FLAGS, AluOp::LOAD_STORE_FLAGS];

pub fn is_kill(op: AluOp) -> bool {
    KILLS.contains(&op)
}

/// Whether `op` is one of the PRED_SET family (at most one per group).
pub fn is_pred_set(op: AluOp) -> bool {
    op.name().starts_with("PRED_SET")
}

/// Ops whose sources are floats: the only ones given neg/abs.
pub fn float_in(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        ADD | MUL
            | MUL_IEEE
            | MAX
            | MIN
            | MAX_DX10
            | MIN_DX10
            | SETE
            | SETGT
            | SETGE
            | SETNE
            | SETE_DX10
            | SETGT_DX10
            | SETGE_DX10
            | SETNE_DX10
            | FRACT
            | TRUNC
            | CEIL
            | RNDNE
            | FLOOR
            | PRED_SETE
            | PRED_SETGT
            | PRED_SETGE
            | PRED_SETNE
            | PRED_SETE_PUSH
            | PRED_SETGT_PUSH
            | PRED_SETGE_PUSH
            | PRED_SETNE_PUSH
            | PRED_SET_INV
            | PRED_SET_POP
            | PRED_SET_RESTORE
            | FLT_TO_INT
            | FLT_TO_INT_FLOOR
            | FLT_TO_INT_RPI
            | FLT_TO_UINT
            | FLT32_TO_FLT16
            | FLT32_TO_FLT16_RTZ
            | FLT_TO_UINT4
    ) || float_out(op)
}

/// Ops whose result is a float: the only ones given OMOD and CLAMP.
pub fn float_out(op: AluOp) -> bool {
    use AluOp::*;
    matches!(
        op,
        ADD | MUL
            | MUL_IEEE
            | MAX
            | MIN
            | MAX_DX10
            | MIN_DX10
            | SETE
            | SETGT
            | SETGE
            | SETNE
            | FRACT
            | TRUNC
            | CEIL
            | RNDNE
            | FLOOR
            | EXP_IEEE
            | LOG_CLAMPED
            | LOG_IEEE
            | RECIP_CLAMPED
            | RECIP_FF
            | RECIP_IEEE
            | RECIPSQRT_CLAMPED
            | RECIPSQRT_FF
            | RECIPSQRT_IEEE
            | SQRT_IEEE
            | SIN
            | COS
            | MULADD
            | MULADD_M2
            | MULADD_M4
            | MULADD_D2
            | MULADD_IEEE
            | FMA
            | CNDE
            | CNDGT
            | CNDGE
            | MUL_LIT
            | DOT4
            | DOT4_IEEE
            | CUBE
            | MAX4
            | DOT
            | DOT_IEEE
            | MUL_PREV
            | MUL_IEEE_PREV
            | ADD_PREV
            | MULADD_PREV
            | MULADD_IEEE_PREV
    ) || matches!(
        op,
        INT_TO_FLT
            | UINT_TO_FLT
            | FLT16_TO_FLT32
            | UBYTE0_FLT
            | UBYTE1_FLT
            | UBYTE2_FLT
            | UBYTE3_FLT
            | OFFSET_TO_FLT
    )
}

/// A 64-bit op that fills all four vector slots (the same pair in x/y and z/w).
pub fn four_slot_wide(op: AluOp, class: ChipClass) -> bool {
    op == AluOp::MUL_64
        || op == AluOp::FREXP_64
        || tables::alu_info(op).slot_rule(class) == SlotRule::AllFour
}

/// SRC_SEL of the loop index aL (the lifter's special select 238).
pub const LOOP_INDEX_SEL: u16 = 238;
/// Cayman's CLAUSE_GLOBAL register as a source (SRC_SEL 225).
pub const CLAUSE_GLOBAL_SEL: u16 = 225;

/// Inline constants a source may name (4.7.1); the last four are the double 1.0 and 0.5
/// halves (244-247).
const INLINE: [u16; 9] = [
    sel::ZERO,
    sel::ONE,
    sel::ONE_INT,
    sel::M_1_INT,
    sel::HALF,
    244,
    245,
    246,
    247,
];

/// What the groups generated so far in a clause let the next one read.
pub(super) struct ClauseState {
    /// Kcache sources: (first SRC_SEL, constants) of every locked window.
    windows: Vec<(u16, u16)>,
    pv: [bool; 4],
    ps: bool,
    /// A PRED_SET with UPDATE_PRED ran in an earlier group.
    pred: bool,
    mova_at: Option<usize>,
    index: usize,
}

impl ClauseState {
    /// The state at the start of a clause with the kcache `windows`.
    pub(super) fn new(windows: Vec<(u16, u16)>) -> ClauseState {
        ClauseState {
            windows,
            pv: [false; 4],
            ps: false,
            pred: false,
            mova_at: None,
            index: 0,
        }
    }

    pub(super) fn pred(&self) -> bool {
        self.pred
    }

    fn rel_ok(&self) -> bool {
        self.mova_at.is_some_and(|m| self.index >= m + 2)
    }
}

/// A group being filled.
#[derive(Default)]
pub(super) struct Build {
    pub(super) slots: [Option<AluInst>; 5],
    pub(super) literals: [Option<u32>; 4],
    pred_set: bool,
    /// Slot holds an unpredicated single-slot op a `_PREV` op in the slot before may chain on.
    chain_src: [bool; 4],
}

pub(super) struct Picker<'r> {
    pub rng: &'r mut ChaCha8Rng,
    pub(super) class: ChipClass,
    pub(super) opts: GenOptions,
    ops: Vec<AluOp>,
    /// The clauses being generated run inside a loop (aL is defined).
    pub(super) in_loop: bool,
    /// The program's scratch ELEM_SIZE (0 or 1; every scratch access uses it).
    pub(super) scratch_es: u8,
}

impl<'r> Picker<'r> {
    pub fn new(rng: &'r mut ChaCha8Rng, class: ChipClass, opts: &GenOptions) -> Picker<'r> {
        let ops = value_ops(class)
            .into_iter()
            .filter(|&op| opts.double_ops || !matches!(alu_form(op), Ok(AluForm::Wide(_))))
            .collect();
        let scratch_es = if opts.scratch {
            rng.gen_range(0..=1)
        } else {
            0
        };
        Picker {
            rng,
            class,
            opts: opts.clone(),
            ops,
            in_loop: false,
            scratch_es,
        }
    }

    pub fn class(&self) -> ChipClass {
        self.class
    }

    pub(super) fn inst(&self, op: AluOp, slot: Slot) -> AluInst {
        let info = tables::alu_info(op);
        AluInst {
            op,
            enc: info.enc,
            opcode: info.opcode(self.class).unwrap_or(0),
            slot,
            src: [AluSrc::default(); 3],
            index_mode: 0,
            pred_sel: 0,
            last: false,
            bank_swizzle: 0,
            dst_gpr: 0,
            dst_rel: false,
            dst_chan: (slot.index() & 3) as u8,
            clamp: false,
            update_exec_mask: false,
            update_pred: false,
            write: true,
            omod: 0,
            lds: None,
        }
    }

    fn kcache(&mut self) -> KCache {
        KCache {
            bank: self.rng.gen_range(0..CONST_BUFFERS),
            mode: self.rng.gen_range(1..=2),
            addr: self.rng.gen_range(0..KCACHE_LINES),
        }
    }

    /// A clause of random groups; `cond` appends the exec-mask PRED_SET group.
    pub fn clause(&mut self, cond: bool) -> AluClause {
        let mut kcache = [KCache::default(); 4];
        let ext = self.opts.kcache && self.opts.alu_extended && self.rng.gen_bool(0.15);
        let sets = if ext { 4 } else { 2 };
        for (i, k) in kcache.iter_mut().enumerate().take(sets) {
            if self.opts.kcache && self.rng.gen_bool(if i == 0 { 0.6 } else { 0.4 }) {
                *k = self.kcache();
            }
        }
        let mut bank_index = [0u8; 4];
        if ext && self.opts.cf_index {
            for (k, m) in kcache.iter_mut().zip(bank_index.iter_mut()) {
                if k.mode != 0 && self.rng.gen_bool(0.3) {
                    k.bank = 0;
                    *m = self.rng.gen_range(1..=2);
                }
            }
        }
        let bases = [sel::KCACHE0, sel::KCACHE1, sel::KCACHE2, sel::KCACHE3];
        let windows = kcache
            .iter()
            .zip(bases)
            .filter(|(k, _)| k.mode != 0)
            .map(|(k, b)| (b, 16 * k.mode as u16))
            .collect();
        let mut st = ClauseState {
            windows,
            pv: [false; 4],
            ps: false,
            pred: false,
            mova_at: None,
            index: 0,
        };
        let n = self
            .rng
            .gen_range(usize::from(!cond)..=self.opts.max_groups.max(1));
        let mova =
            (self.opts.relative && self.rng.gen_bool(0.3)).then(|| self.rng.gen_range(0..=n));
        // The memory profile puts LDS sequences in most clauses, sometimes two.
        let lds_odds = if self.opts.memory_focus { 0.9 } else { 0.3 };
        let lds = (self.opts.lds && self.rng.gen_bool(lds_odds)).then(|| self.rng.gen_range(0..=n));
        let index =
            (self.opts.cf_index && self.rng.gen_bool(0.2)).then(|| self.rng.gen_range(0..=n));
        let lds2 = (self.opts.memory_focus && self.opts.lds && self.rng.gen_bool(0.5))
            .then(|| self.rng.gen_range(0..=n));
        let mut groups = Vec::new();
        for i in 0..=n {
            if mova == Some(i) {
                groups.extend(self.mova_groups(&mut st));
            }
            if index == Some(i) {
                groups.extend(self.index_groups(&mut st));
            }
            if lds == Some(i) {
                groups.extend(self.lds_groups(&mut st));
            }
            if lds2 == Some(i) {
                groups.extend(self.lds_groups(&mut st));
            }
            if i < n {
                groups.push(self.random_group(&mut st));
            }
        }
        if cond {
            groups.push(self.exec_group(&mut st));
        }
        AluClause {
            kcache,
            ext,
            bank_index,
            groups,
        }
    }

    /// `AND_INT Rn.x, src, 3; ADD_INT Rc.x, PV.x, 1`: loop `depth`'s counter, 1-4 per lane.
    pub fn counter_init(&mut self, depth: u8) -> AluClause {
        let c = COUNTER_GPR + depth;
        let mut and = self.inst(AluOp::AND_INT, Slot::X);
        and.dst_gpr = c;
        and.src[0] = self.gpr();
        and.src[1] = AluSrc {
            sel: sel::LITERAL,
            ..AluSrc::default()
        };
        and.last = true;
        let mut add = self.inst(AluOp::ADD_INT, Slot::X);
        add.dst_gpr = c;
        add.src[0] = AluSrc {
            sel: sel::PV,
            ..AluSrc::default()
        };
        add.src[1] = AluSrc {
            sel: sel::ONE_INT,
            ..AluSrc::default()
        };
        add.last = true;
        AluClause {
            kcache: [KCache::default(); 4],
            ext: false,
            bank_index: [0; 4],
            groups: vec![
                AluGroup {
                    addr: 0,
                    insts: vec![and],
                    literals: vec![3, 0],
                },
                AluGroup {
                    addr: 0,
                    insts: vec![add],
                    literals: Vec::new(),
                },
            ],
        }
    }

    /// `ADD_INT Rc.x, Rc.x, -1; PRED_SETGE_INT 0, PV.x` with UPDATE_EXEC_MASK: the lanes whose
    /// counter reached 0 take the break.
    pub fn counter_check(&mut self, depth: u8) -> AluClause {
        let c = COUNTER_GPR + depth;
        let mut dec = self.inst(AluOp::ADD_INT, Slot::X);
        dec.dst_gpr = c;
        dec.src[0] = AluSrc {
            sel: c as u16,
            ..AluSrc::default()
        };
        dec.src[1] = AluSrc {
            sel: sel::M_1_INT,
            ..AluSrc::default()
        };
        dec.last = true;
        let mut pred = self.exec_inst(AluOp::PRED_SETGE_INT, Slot::X);
        pred.src[0] = AluSrc {
            sel: sel::ZERO,
            ..AluSrc::default()
        };
        pred.src[1] = AluSrc {
            sel: sel::PV,
            ..AluSrc::default()
        };
        pred.last = true;
        AluClause {
            kcache: [KCache::default(); 4],
            ext: false,
            bank_index: [0; 4],
            groups: [dec, pred]
                .into_iter()
                .map(|i| AluGroup {
                    addr: 0,
                    insts: vec![i],
                    literals: Vec::new(),
                })
                .collect(),
        }
    }

    fn exec_inst(&mut self, op: AluOp, slot: Slot) -> AluInst {
        let mut i = self.inst(op, slot);
        i.dst_gpr = self.rng.gen_range(0..GPR_POOL);
        i.write = false;
        i.update_pred = true;
        i.update_exec_mask = true;
        i
    }

    /// The last group of a condition clause: one PRED_SET with UPDATE_EXEC_MASK and
    /// UPDATE_PRED, alone, its GPR write masked (as LLVM emits it).
    fn exec_group(&mut self, st: &mut ClauseState) -> AluGroup {
        let op = *EXEC_PRED_SETS
            .choose(self.rng)
            .unwrap_or(&AluOp::PRED_SETE_INT);
        let slot = *Slot::VECTOR.choose(self.rng).unwrap_or(&Slot::X);
        let mut b = Build::default();
        let mut i = self.exec_inst(op, slot);
        self.sources(st, &mut b, &mut i, op);
        b.slots[slot.index()] = Some(i);
        self.finish(st, b)
    }

    /// `AND_INT Rn.x, src, 7` then `MOVA_INT PV.x`: a per-lane AR of 0-7.
    fn mova_groups(&mut self, st: &mut ClauseState) -> [AluGroup; 2] {
        let mut b = Build::default();
        let mut and = self.inst(AluOp::AND_INT, Slot::X);
        and.dst_gpr = self.rng.gen_range(0..GPR_POOL);
        and.src[0] = self.gpr();
        and.src[1] = AluSrc {
            sel: sel::LITERAL,
            ..AluSrc::default()
        };
        b.literals[0] = Some(REL_SPAN as u32 - 1);
        b.slots[0] = Some(and);
        let g1 = self.finish(st, b);
        let mut b = Build::default();
        let mut mova = self.inst(AluOp::MOVA_INT, Slot::X);
        mova.write = false;
        mova.src[0] = AluSrc {
            sel: sel::PV,
            ..AluSrc::default()
        };
        b.slots[0] = Some(mova);
        st.mova_at = Some(st.index);
        let g2 = self.finish(st, b);
        [g1, g2]
    }

    /// A CF index write: `AND_INT Rn.x, src, mask`, then `MOVA_INT PV.x` to CF_IDX0/1
    /// (Cayman MOVA_DST 2/3, mask [`CF_IDX_MASK`]) or to CLAUSE_GLOBAL byte 0-3 (MOVA_DST
    /// 4-7, any mask); on Evergreen MOVA_INT to AR (mask [`CF_IDX_MASK`]) and
    /// `SET_CF_IDX0/1` in the next group.
    fn index_groups(&mut self, st: &mut ClauseState) -> Vec<AluGroup> {
        let cayman = self.class == ChipClass::Cayman;
        let global = cayman && self.rng.gen_bool(0.4);
        let mut b = Build::default();
        let mut and = self.inst(AluOp::AND_INT, Slot::X);
        and.dst_gpr = self.rng.gen_range(0..GPR_POOL);
        and.src[0] = self.gpr();
        and.src[1] = AluSrc {
            sel: sel::LITERAL,
            ..AluSrc::default()
        };
        b.literals[0] = Some(if global {
            super::edge_value(self.rng)
        } else {
            CF_IDX_MASK
        });
        b.slots[0] = Some(and);
        let mut out = vec![self.finish(st, b)];
        let mut b = Build::default();
        let mut mova = self.inst(AluOp::MOVA_INT, Slot::X);
        mova.write = false;
        mova.src[0] = AluSrc {
            sel: sel::PV,
            ..AluSrc::default()
        };
        if cayman {
            mova.dst_gpr = if global {
                self.rng.gen_range(4..=7)
            } else {
                self.rng.gen_range(2..=3)
            };
        } else {
            // AR.x is 0 or 2: relative operands may use it too.
            st.mova_at = Some(st.index);
        }
        b.slots[0] = Some(mova);
        out.push(self.finish(st, b));
        if !cayman {
            let op = *[AluOp::SET_CF_IDX0, AluOp::SET_CF_IDX1]
                .choose(self.rng)
                .unwrap_or(&AluOp::SET_CF_IDX0);
            let slot = *Slot::VECTOR.choose(self.rng).unwrap_or(&Slot::X);
            let mut set = self.inst(op, slot);
            set.write = false;
            let mut b = Build::default();
            b.slots[slot.index()] = Some(set);
            out.push(self.finish(st, b));
        }
        out
    }

    pub(super) fn gpr(&mut self) -> AluSrc {
        AluSrc {
            sel: self.rng.gen_range(0..GPR_POOL) as u16,
            chan: self.rng.gen_range(0..4),
            ..AluSrc::default()
        }
    }

    /// One source operand (no modifiers).
    pub(super) fn src(&mut self, st: &ClauseState, b: &mut Build) -> AluSrc {
        let pv: Vec<u8> = (0..4).filter(|&c| st.pv[c as usize]).collect();
        loop {
            let s = match self.rng.gen_range(0..100) {
                0..=39 => self.gpr(),
                40..=51 if !pv.is_empty() => AluSrc {
                    sel: sel::PV,
                    chan: *pv.choose(self.rng).unwrap_or(&0),
                    ..AluSrc::default()
                },
                52..=55 if st.ps => AluSrc {
                    sel: sel::PS,
                    ..AluSrc::default()
                },
                56..=67 if !st.windows.is_empty() => {
                    let (base, n) = *st.windows.choose(self.rng).unwrap_or(&(sel::KCACHE0, 16));
                    AluSrc {
                        sel: base + self.rng.gen_range(0..n),
                        chan: self.rng.gen_range(0..4),
                        ..AluSrc::default()
                    }
                }
                68..=77 => {
                    let n = if self.opts.double_constants {
                        INLINE.len()
                    } else {
                        5
                    };
                    AluSrc {
                        sel: INLINE[self.rng.gen_range(0..n)],
                        ..AluSrc::default()
                    }
                }
                88..=89 if self.opts.loop_index && self.in_loop => AluSrc {
                    sel: LOOP_INDEX_SEL,
                    ..AluSrc::default()
                },
                86..=87 if self.opts.cf_index && self.class == ChipClass::Cayman => AluSrc {
                    sel: CLAUSE_GLOBAL_SEL,
                    chan: self.rng.gen_range(0..4),
                    ..AluSrc::default()
                },
                78..=87 if self.opts.literals => {
                    let chan = self.rng.gen_range(0..4u8);
                    if b.literals[chan as usize].is_none() {
                        b.literals[chan as usize] = Some(super::edge_value(self.rng));
                    }
                    AluSrc {
                        sel: sel::LITERAL,
                        chan,
                        ..AluSrc::default()
                    }
                }
                90..=99 if self.opts.relative && st.rel_ok() => AluSrc {
                    sel: self.rng.gen_range(0..=GPR_POOL - REL_SPAN) as u16,
                    rel: true,
                    chan: self.rng.gen_range(0..4),
                    ..AluSrc::default()
                },
                _ => continue,
            };
            return s;
        }
    }

    /// The table's source count of `op`, each random, with modifiers on float ops.
    pub(super) fn sources(&mut self, st: &ClauseState, b: &mut Build, i: &mut AluInst, op: AluOp) {
        let n = tables::alu_info(op).srcs as usize;
        let mods = self.opts.modifiers && float_in(op);
        for k in 0..n.min(3) {
            let mut s = self.src(st, b);
            if mods {
                s.neg = self.rng.gen_bool(0.15);
                s.abs = i.enc == AluEnc::Op2 && k < 2 && self.rng.gen_bool(0.15);
            }
            i.src[k] = s;
        }
    }

    /// Destination, write mask, output modifiers and predication of a new instruction.
    fn dest(&mut self, st: &ClauseState, i: &mut AluInst, unit: &Unit) {
        i.dst_gpr = self.rng.gen_range(0..GPR_POOL);
        if self.opts.relative && st.rel_ok() && self.rng.gen_bool(0.15) {
            i.dst_rel = true;
            i.dst_gpr = self.rng.gen_range(0..=GPR_POOL - REL_SPAN);
        }
        i.write = i.enc == AluEnc::Op3 || self.rng.gen_bool(0.85);
        i.omod = if i.enc == AluEnc::Op2 { unit.omod } else { 0 };
        i.clamp = unit.clamp;
        i.pred_sel = unit.pred_sel;
        i.index_mode = unit.index_mode;
    }

    /// A group of one to four random placements.
    fn random_group(&mut self, st: &mut ClauseState) -> AluGroup {
        let mut b = Build::default();
        let tries = self.rng.gen_range(1..=4);
        for _ in 0..tries {
            let special = match self.rng.gen_range(0..100) {
                0..=4 => Some(AluOp::NOP),
                5..=7 if self.opts.barrier => Some(AluOp::GROUP_BARRIER),
                8..=12 if self.opts.kill => KILLS.choose(self.rng).copied(),
                13..=15 if self.opts.flags => FLAG_OPS.choose(self.rng).copied(),
                _ => None,
            };
            if let Some(op) = special.filter(|op| FLAG_OPS.contains(op)) {
                // The document allows the flag moves in w only (seed 000 L6956, L4817).
                if b.slots[Slot::W.index()].is_none() {
                    let mut i = self.inst(op, Slot::W);
                    i.dst_gpr = self.rng.gen_range(0..GPR_POOL);
                    self.sources(st, &mut b, &mut i, op);
                    b.slots[Slot::W.index()] = Some(i);
                }
                continue;
            }
            if let Some(op) = special {
                if let Some(&s) = self.free_vector(&b).choose(self.rng) {
                    let mut i = self.inst(op, s);
                    i.write = false;
                    if is_kill(op) {
                        self.sources(st, &mut b, &mut i, op);
                        if self.opts.predication && st.pred && self.rng.gen_bool(0.25) {
                            i.pred_sel = self.rng.gen_range(2..=3);
                        }
                    }
                    b.slots[s.index()] = Some(i);
                }
                continue;
            }
            let op = *self.ops.choose(self.rng).unwrap_or(&AluOp::MOV);
            self.place(st, &mut b, op);
        }
        if b.slots.iter().all(Option::is_none) {
            self.place(st, &mut b, AluOp::MOV);
        }
        self.finish(st, b)
    }

    pub(super) fn value_op(&mut self) -> Option<&AluOp> {
        self.ops.choose(self.rng)
    }

    pub(super) fn free_vector(&self, b: &Build) -> Vec<Slot> {
        Slot::VECTOR
            .into_iter()
            .filter(|s| b.slots[s.index()].is_none())
            .collect()
    }

    /// Places `op` in `b` if its slots are free (otherwise leaves `b` as it is).
    pub(super) fn place(&mut self, st: &ClauseState, b: &mut Build, op: AluOp) {
        if is_pred_set(op) && b.pred_set {
            return;
        }
        let Ok(form) = alu_form(op) else { return };
        let rule = tables::alu_info(op).slot_rule(self.class);
        let free = self.free_vector(b);
        let all_free = free.len() == 4;
        let four = form == AluForm::Vector
            || (matches!(form, AluForm::Wide(_)) && four_slot_wide(op, self.class));
        let slots: Vec<Slot> = match form {
            _ if four => {
                if !all_free {
                    return;
                }
                Slot::VECTOR.to_vec()
            }
            AluForm::Vector => return,
            AluForm::Wide(_) => {
                let pairs: Vec<[Slot; 2]> = [[Slot::X, Slot::Y], [Slot::Z, Slot::W]]
                    .into_iter()
                    .filter(|p| p.iter().all(|s| free.contains(s)))
                    .collect();
                match pairs.choose(self.rng) {
                    Some(p) => p.to_vec(),
                    None => return,
                }
            }
            AluForm::Chained(_) => {
                let ok: Vec<Slot> = [Slot::X, Slot::Y, Slot::Z]
                    .into_iter()
                    .filter(|s| free.contains(s) && b.chain_src[s.index() + 1])
                    .collect();
                match ok.choose(self.rng) {
                    Some(&s) => vec![s],
                    None => return,
                }
            }
            AluForm::Slot(_) => match rule {
                SlotRule::Trans if b.slots[Slot::T.index()].is_none() => vec![Slot::T],
                SlotRule::Replicated
                    if [Slot::X, Slot::Y, Slot::Z].iter().all(|s| free.contains(s)) =>
                {
                    let mut v = vec![Slot::X, Slot::Y, Slot::Z];
                    if free.contains(&Slot::W) && self.rng.gen_bool(0.5) {
                        v.push(Slot::W);
                    }
                    v
                }
                SlotRule::AllFour if all_free => Slot::VECTOR.to_vec(),
                SlotRule::Vector | SlotRule::Any => {
                    let t_ok = rule == SlotRule::Any
                        && self.class == ChipClass::Evergreen
                        && b.slots[Slot::T.index()].is_none()
                        && free.len() < 4;
                    if t_ok && (free.is_empty() || self.rng.gen_bool(0.3)) {
                        vec![Slot::T]
                    } else {
                        match free.choose(self.rng) {
                            Some(&s) => vec![s],
                            None => return,
                        }
                    }
                }
                _ => return,
            },
        };
        let wide = matches!(form, AluForm::Wide(_));
        let float = self.opts.modifiers && !wide && float_out(op);
        let mut unit = Unit {
            omod: if float && self.rng.gen_bool(0.15) {
                self.rng.gen_range(1..=3)
            } else {
                0
            },
            clamp: float && self.rng.gen_bool(0.1),
            pred_sel: if self.opts.predication
                && st.pred
                && !is_pred_set(op)
                && self.rng.gen_bool(0.25)
            {
                self.rng.gen_range(2..=3)
            } else {
                0
            },
            index_mode: 0,
        };
        // Sources: shared by replicated / all-four slots, per slot for reductions, per pair
        // half (even = high dword, odd = low dword) for 64-bit ops.
        let mut shared = self.inst(op, slots[0]);
        self.sources(st, b, &mut shared, op);
        if self.opts.loop_index && self.in_loop && self.rng.gen_bool(0.12) {
            // INDEX_MODE 4: the instruction's relative operands add aL.
            unit.index_mode = 4;
            shared.src[0] = AluSrc {
                sel: self.rng.gen_range(0..=GPR_POOL - REL_SPAN) as u16,
                rel: true,
                chan: self.rng.gen_range(0..4),
                ..AluSrc::default()
            };
        }
        let mut halves = [shared.src; 2];
        if wide {
            for h in halves.iter_mut() {
                for s in h.iter_mut().take(tables::alu_info(op).srcs as usize) {
                    *s = self.src(st, b);
                }
            }
        }
        for (k, &slot) in slots.iter().enumerate() {
            let mut i = self.inst(op, slot);
            if form == AluForm::Vector {
                self.sources(st, b, &mut i, op);
            } else if wide {
                i.src = halves[k % 2];
            } else {
                i.src = shared.src;
            }
            self.dest(st, &mut i, &unit);
            b.slots[slot.index()] = Some(i);
        }
        if is_pred_set(op) {
            b.pred_set = true;
            if slots.len() == 1 && !wide && self.opts.predication && self.rng.gen_bool(0.5) {
                if let Some(i) = b.slots[slots[0].index()].as_mut() {
                    i.update_pred = true;
                    i.pred_sel = 0;
                }
            }
        }
        if slots.len() == 1 && slots[0] != Slot::T && unit.pred_sel == 0 {
            b.chain_src[slots[0].index()] = true;
        }
    }

    /// Fixes the T slot's channel, orders the group, sets LAST and the literals, and advances
    /// the clause state.
    pub(super) fn finish(&mut self, st: &mut ClauseState, mut b: Build) -> AluGroup {
        if let Some(mut t) = b.slots[Slot::T.index()].take() {
            let trans = tables::alu_info(t.op).slot_rule(self.class) == SlotRule::Trans;
            // A vector slot's op on the same channel must not be relative and must write
            // another GPR (two slots may not write one GPR element).
            let chans: Vec<usize> = (0..4)
                .filter(|&c| match &b.slots[c] {
                    Some(v) => !v.dst_rel,
                    None => trans,
                })
                .collect();
            if let Some(&c) = chans.choose(self.rng) {
                t.dst_chan = c as u8;
                t.dst_rel = false;
                if let Some(v) = &b.slots[c] {
                    if v.dst_gpr == t.dst_gpr {
                        t.dst_gpr = (t.dst_gpr + 1) % GPR_POOL;
                    }
                }
                b.slots[Slot::T.index()] = Some(t);
            }
        }
        let mut insts: Vec<AluInst> = b.slots.iter().flatten().copied().collect();
        if let Some(l) = insts.last_mut() {
            l.last = true;
        }
        let literals = literal_words(&insts, &b.literals, self.rng);
        for c in 0..4 {
            st.pv[c] = b.slots[c].as_ref().is_some_and(produces_pv);
        }
        st.ps = b.slots[Slot::T.index()].as_ref().is_some_and(produces_pv);
        st.pred |= insts.iter().any(|i| i.update_pred);
        st.index += 1;
        AluGroup {
            addr: 0,
            insts,
            literals,
        }
    }
}

/// Output modifiers and predication shared by the slots of one placement.
struct Unit {
    omod: u8,
    clamp: bool,
    pred_sel: u8,
    /// 0 (AR.x) or 4 (aL) for relative operands.
    index_mode: u8,
}

/// Whether a slot's instruction leaves a defined PV/PS value for the next group.
pub fn produces_pv(i: &AluInst) -> bool {
    alu_form(i.op).is_ok() && i.pred_sel == 0 && i.lds.is_none()
}

/// Literal dwords a group needs (0, 2 or 4) given the chans its sources read.
pub fn literal_count(insts: &[AluInst]) -> usize {
    let mut n = 0;
    for i in insts {
        let used = if i.enc == AluEnc::Op3 { 3 } else { 2 };
        for s in &i.src[..used] {
            if s.sel == sel::LITERAL {
                n = n.max(if s.chan >= 2 { 4 } else { 2 });
            }
        }
    }
    n
}

fn literal_words(insts: &[AluInst], chosen: &[Option<u32>; 4], rng: &mut ChaCha8Rng) -> Vec<u32> {
    (0..literal_count(insts))
        .map(|c| chosen[c].unwrap_or_else(|| rng.gen()))
        .collect()
}
