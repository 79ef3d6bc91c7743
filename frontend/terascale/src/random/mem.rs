//! Memory nodes and groups (see the module doc of [`super`]): fetch clauses, RAT
//! instructions, and the LDS group sequences of ALU clauses, each after a group that masks its
//! addresses into the buffers the fuzz harness provides.
use super::group::{Build, ClauseState, Picker};
use super::{
    AluClause, Node, ATOMIC_ADDR_MASK, FETCH_GPR, FETCH_MASK, GPR_POOL, LDS_ADDR_GPR,
    LDS_ADDR_MASK, MAX_FETCH_OFFSET, RAT_GPR, STORE_INDEX_MASK,
};
use crate::chip::ChipClass;
use crate::inst::{sel, AluGroup, AluSrc, CfMem, FetchInst, KCache, LdsIdx, RatFields, Slot};
use crate::opcode::AluOp;
use crate::print::fetch::{vtx_read_words, VTX_READS};
use crate::tables::{self, CfMemOp, FetchOp, LdsOp, RatInst, NA};
use rand::seq::SliceRandom;
use rand::Rng;

/// The RAT atomics the lifter models (integer, with and without return).
pub const RAT_ATOMICS: [RatInst; 27] = {
    use RatInst::*;
    [
        ADD,
        SUB,
        RSUB,
        MIN_INT,
        MIN_UINT,
        MAX_INT,
        MAX_UINT,
        AND,
        OR,
        XOR,
        INC_UINT,
        DEC_UINT,
        CMPXCHG_INT,
        ADD_RTN,
        SUB_RTN,
        RSUB_RTN,
        MIN_INT_RTN,
        MIN_UINT_RTN,
        MAX_INT_RTN,
        MAX_UINT_RTN,
        AND_RTN,
        OR_RTN,
        XOR_RTN,
        INC_UINT_RTN,
        DEC_UINT_RTN,
        XCHG_RTN,
        CMPXCHG_INT_RTN,
    ]
};

/// The LDS ops the generator emits: every LDS_OP the lifter models (not the GDS-only
/// ATOMIC_ORDERED_ALLOC_RET).
pub fn lds_ops(class: ChipClass) -> Vec<LdsOp> {
    tables::lds_rows()
        .iter()
        .filter(|r| r.opcode[class.index()] != NA && r.op != LdsOp::ATOMIC_ORDERED_ALLOC_RET)
        .map(|r| r.op)
        .collect()
}

/// The store a class's RAT names (STORE_RAW on Evergreen, STORE_DWORD on Cayman).
pub fn rat_store(class: ChipClass) -> RatInst {
    match class {
        ChipClass::Evergreen => RatInst::STORE_RAW,
        ChipClass::Cayman => RatInst::STORE_DWORD,
    }
}

/// Whether an LDS op's return entry has a B dword.
pub fn lds_returns_b(op: LdsOp) -> bool {
    matches!(
        op,
        LdsOp::READ2_RET | LdsOp::READ_REL_RET | LdsOp::XCHG_REL_RET | LdsOp::XCHG2_RET
    )
}

/// Whether an LDS op's src1 is a second address.
pub fn lds_src1_is_address(op: LdsOp) -> bool {
    matches!(op, LdsOp::READ2_RET | LdsOp::READWRITE_RET)
}

/// Largest IDX_OFFSET that keeps an op's second access inside the LDS window.
pub fn lds_max_offset(op: LdsOp) -> u8 {
    match op {
        LdsOp::WRITE2 | LdsOp::XCHG2_RET => 7,
        _ => 63,
    }
}

impl Picker<'_> {
    /// One group `AND_INT R[gpr].c, src, masks[c]` for every channel with a mask.
    pub fn addr_group(
        &mut self,
        st: &mut ClauseState,
        gpr: u8,
        masks: [Option<u32>; 4],
    ) -> AluGroup {
        let mut b = Build::default();
        for (c, m) in masks.iter().enumerate() {
            let Some(m) = *m else { continue };
            let mut and = self.inst(AluOp::AND_INT, Slot::VECTOR[c]);
            and.dst_gpr = gpr;
            and.src[0] = self.gpr();
            and.src[1] = AluSrc {
                sel: sel::LITERAL,
                chan: c as u8,
                ..AluSrc::default()
            };
            b.literals[c] = Some(m);
            b.slots[c] = Some(and);
        }
        self.finish(st, b)
    }

    fn setup_clause(&mut self, gpr: u8, masks: [Option<u32>; 4]) -> AluClause {
        let mut st = ClauseState::new(Vec::new());
        AluClause {
            kcache: [KCache::default(); 4],
            ext: false,
            groups: vec![self.addr_group(&mut st, gpr, masks)],
        }
    }

    /// A fetch clause of 1-4 VTX reads after its address setup.
    pub fn fetch_node(&mut self) -> Node {
        // Channel alignment: x dword, y byte, z short, w 16 bytes.
        let masks = [
            FETCH_MASK & !3,
            FETCH_MASK,
            FETCH_MASK & !1,
            FETCH_MASK & !15,
        ];
        let setup = self.setup_clause(FETCH_GPR, masks.map(Some));
        let n = self.rng.gen_range(1..=4);
        let insts = (0..n).map(|_| self.vtx()).collect();
        let vc = self.class == ChipClass::Evergreen && self.rng.gen_bool(0.5);
        Node::Fetch { setup, vc, insts }
    }

    fn vtx(&mut self) -> FetchInst {
        let t = self.rng.gen_range(0..VTX_READS.len());
        let comp = match VTX_READS[t].1 {
            1 => 1,
            5 => 2,
            _ => 4,
        };
        let chans: &[u8] = match comp {
            1 => &[0, 1, 2, 3],
            2 => &[0, 2, 3],
            _ => &[0, 3],
        };
        let chan = *chans.choose(self.rng).unwrap_or(&0);
        let buffer = *[1u8, 3].choose(self.rng).unwrap_or(&1);
        let offset = self.rng.gen_range(0..=MAX_FETCH_OFFSET / comp) * comp;
        let dst = self.rng.gen_range(0..GPR_POOL);
        let mut w = vtx_read_words(self.class, t, dst, FETCH_GPR, buffer, offset as u16);
        w[0] |= (chan as u32) << 24;
        if self.rng.gen_bool(0.3) {
            w[1] |= 1 << 30;
        }
        if self.rng.gen_bool(0.3) {
            w[1] &= !(0xfff << 9);
            for c in 0..4 {
                let s = *[0u32, 1, 2, 3, 4, 5, 7].choose(self.rng).unwrap_or(&7);
                w[1] |= s << (9 + 3 * c);
            }
        }
        FetchInst {
            op: FetchOp::VTX_FETCH,
            words: w,
        }
    }

    /// A RAT store or atomic on the pool after its index setup.
    pub fn rat_node(&mut self) -> Node {
        let store = self.rng.gen_bool(0.5);
        let atomics: Vec<RatInst> = RAT_ATOMICS
            .iter()
            .copied()
            .filter(|&r| tables::rat_info(r).opcode[self.class.index()] != NA)
            .collect();
        let (op, inst, mask, comp_mask) = if store {
            let m = self.rng.gen_range(1..=15);
            (
                CfMemOp::MEM_RAT_CACHELESS,
                rat_store(self.class),
                STORE_INDEX_MASK,
                m,
            )
        } else {
            let r = *atomics.choose(self.rng).unwrap_or(&RatInst::ADD);
            (CfMemOp::MEM_RAT, r, ATOMIC_ADDR_MASK, 15)
        };
        let setup = self.setup_clause(RAT_GPR, [Some(mask), None, None, None]);
        let mem = CfMem {
            op,
            rat: Some(RatFields {
                id: 0,
                inst,
                index_mode: 0,
            }),
            array_base: 0,
            kind: 1,
            rw_gpr: self.rng.gen_range(0..GPR_POOL),
            rw_rel: false,
            index_gpr: RAT_GPR,
            elem_size: 0,
            array_size: 0,
            comp_mask,
            burst_count: 0,
            valid_pixel_mode: false,
            end_of_program: false,
            mark: false,
            barrier: true,
        };
        Node::Rat { setup, mem }
    }

    /// The LDS address group, an LDS_IDX_OP group, and for a returning op the groups that
    /// read its queue entry (a peek, sometimes, then the pop).
    pub fn lds_groups(&mut self, st: &mut ClauseState) -> Vec<AluGroup> {
        let ops = lds_ops(self.class);
        let op = *ops.choose(self.rng).unwrap_or(&LdsOp::WRITE);
        let info = tables::lds_info(op);
        let mask = match op {
            LdsOp::BYTE_WRITE | LdsOp::BYTE_READ_RET | LdsOp::UBYTE_READ_RET => LDS_ADDR_MASK,
            LdsOp::SHORT_WRITE | LdsOp::SHORT_READ_RET | LdsOp::USHORT_READ_RET => {
                LDS_ADDR_MASK & !1
            }
            _ => LDS_ADDR_MASK & !3,
        };
        let mut out = vec![self.addr_group(st, LDS_ADDR_GPR, [Some(mask), Some(mask), None, None])];
        let mut b = Build::default();
        let mut i = self.inst(AluOp::LDS_IDX_OP, Slot::X);
        i.write = false;
        i.lds = Some(LdsIdx {
            op,
            offset: self.rng.gen_range(0..=lds_max_offset(op)),
        });
        let addr = |chan: u8| AluSrc {
            sel: LDS_ADDR_GPR as u16,
            chan,
            ..AluSrc::default()
        };
        i.src[0] = addr(0);
        for k in 1..info.srcs as usize {
            i.src[k] = if k == 1 && lds_src1_is_address(op) {
                addr(1)
            } else {
                self.src(st, &mut b)
            };
        }
        if self.opts.predication && st.pred() && self.rng.gen_bool(0.2) {
            i.pred_sel = self.rng.gen_range(2..=3);
        }
        b.slots[0] = Some(i);
        for _ in 0..self.rng.gen_range(0..=2) {
            let op = *self.value_op().unwrap_or(&AluOp::MOV);
            self.place(st, &mut b, op);
        }
        out.push(self.finish(st, b));
        if info.ret {
            let two = lds_returns_b(op);
            if self.rng.gen_bool(0.3) {
                out.push(self.queue_group(st, two, false));
            }
            out.push(self.queue_group(st, two, true));
        }
        out
    }

    /// `MOV Rn.c, OQA(_POP)` (and `MOV Rm.d, OQB(_POP)` when the entry has B).
    fn queue_group(&mut self, st: &mut ClauseState, two: bool, pop: bool) -> AluGroup {
        let mut b = Build::default();
        let mut slots = Slot::VECTOR.to_vec();
        slots.shuffle(self.rng);
        let sels = match pop {
            true => [sel::LDS_OQ_A_POP, sel::LDS_OQ_B_POP],
            false => [sel::LDS_OQ_A, sel::LDS_OQ_B],
        };
        for (k, &s) in sels.iter().enumerate().take(1 + usize::from(two)) {
            let mut mov = self.inst(AluOp::MOV, slots[k]);
            mov.dst_gpr = self.rng.gen_range(0..GPR_POOL);
            mov.src[0] = AluSrc {
                sel: s,
                ..AluSrc::default()
            };
            b.slots[slots[k].index()] = Some(mov);
        }
        self.finish(st, b)
    }
}
