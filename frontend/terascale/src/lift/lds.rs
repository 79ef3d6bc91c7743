//! LDS in ALU clauses: LDS_IDX_OP (8.6, Table 8.11 L7791-L7876; the LDS_OP values of
//! `tables::lds`), the LDS output queue (7.3.4 L2322-L2336, SRC_SEL 219-222 L8748-L8751) and
//! direct reads (7.3.1 L2261-L2289, SRC_SEL 223/224).
//!
//! # Addresses
//! The document never says whether an LDS address counts bytes or dwords (notes §8); LLVM and
//! Mesa feed byte addresses (notes/amd_launch_abi.md §2.2), so every address GPR is a byte
//! offset into the work-group's LDS ([`MemSpace::Lds`]: reads outside the allocation give 0,
//! writes there are dropped, the SET_LDS_SIZE rule of L6587-L6601 for the default size).
//! IDX_OFFSET counts dwords (L9235-L9236): the REL forms add `4 * offset` bytes to the address
//! for their second access, WRITE2/XCHG2 `256 * offset` (64 dwords per step). Table 8.11 names
//! the offset for no other op, so the other ops ignore it.
//!
//! # Operands (Table 8.11 "1A1D", "1A2D", "2A", "2A1D"; ch9 L9180-L9236)
//! src0 is the address; 1A1D: src1 the data; 1A2D: src1 and src2 in the order the ch9 text
//! names them (CMP_*: compare value, new value; MSKOR: mask, bits; WRITE_REL/WRITE2/XCHG*:
//! first value, second value); 2A: src0, src1 two addresses; READWRITE_RET (2A1D): read
//! src0, write src2 to src1. The SPF compare forms compare as IEEE floats
//! ([`AtomicOp::FcmpXchg`], Table 8.11 note 1); everything else is integer. Every access is
//! made by the lanes the instruction executes for (active mask and PRED_SEL).
//!
//! # Output queue
//! The queue is modelled as one FIFO of entries, each with an A dword and, for the ops that
//! return two values (READ2, READ_REL, XCHG_REL, XCHG2), a B dword: SRC_SEL 221/222 pop "both
//! the A and B queues" (L8750-L8751), so the two halves always move together. Within a clause
//! the queue's contents are known statically (a clause is straight-line code), so the lifter
//! tracks them at lift time and keeps the per-lane values in the `oq` file (a ring of
//! [`OQ_ENTRIES`] entries; more outstanding entries are unsupported). Per group: every source
//! reads the queue as it was at the start of the group (an op's own return is not visible in
//! its group); at the end of the group a pop removes the head entry, then the group's LDS op
//! appends its entry. Lift errors (invalid-program [`super::LiftError`]s): reading an empty queue,
//! reading B of an entry without B, mixing pop and non-pop selects in one group (L2336), and
//! entries left at the end of the clause ("illegal", L2334).
//!
//! # Direct reads
//! SRC_SEL 223 (A) / 224 (B) read the dword at `OFFSET + STRIDE * lane` dwords, the fields of
//! literal 0's low (A) or high (B) dword (L2261-L2289). DIRECT_READ_32 only changes the timing.
//! THREAD_REL's description is garbled (notes §7.3), so a set THREAD_REL is unsupported.
//!
//! # Not lifted
//! ATOMIC_ORDERED_ALLOC_RET (GDS only, L9234: invalid here), SET_LDS_SIZE and the
//! LDS_BASE_ADDR / LDS_SIZE selects 217/218 (the LDS allocation is not a lift input).
use super::state::GDS_BYTES;
use super::{LiftError, Lifter};
use crate::inst::{sel, AluInst};
use crate::tables::{lds_info, LdsOp};
use wavejit_ir::{AtomicOp, IntCC, MemSpace, MemWidth, Op, ScalarType, Value};

use ScalarType::{F32, I1, I32, I64};

/// Entries the `oq` file holds: the most a clause may leave outstanding at once.
pub const OQ_ENTRIES: u32 = 16;

/// The statically known state of the output queue.
#[derive(Clone, Debug, Default)]
pub struct OutputQueue {
    /// Ring position of the head entry.
    head: u32,
    /// Whether each outstanding entry (head first) has a B dword.
    entries: std::collections::VecDeque<bool>,
}

impl OutputQueue {
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}

/// How a group uses the output queue (SRC_SEL 219-222).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueUse {
    None,
    Peek,
    Pop,
}

/// A data-share operation: its LDS_OP / GDS_OP code, the dword offset of the REL and `2`
/// forms, and its text for errors.
pub struct DsOp {
    pub op: LdsOp,
    pub offset: u32,
    pub text: String,
}

/// Where a data-share op's accesses go.
#[derive(Clone, Copy)]
pub enum Share {
    /// The work-group's LDS.
    Lds,
    /// The dispatch's GDS at this guest address (uniform `i64`).
    Gds(Value),
}

/// An LDS op's return: the entry it appends (A, and B for the two-value ops).
pub struct Returned {
    pub a: Value,
    pub b: Option<Value>,
}

fn rmw_of(op: LdsOp) -> Option<AtomicOp> {
    use LdsOp::*;
    Some(match op {
        ADD | ADD_RET => AtomicOp::Add,
        SUB | SUB_RET => AtomicOp::Sub,
        RSUB | RSUB_RET => AtomicOp::Rsub,
        INC | INC_RET => AtomicOp::Inc,
        DEC | DEC_RET => AtomicOp::Dec,
        MIN_INT | MIN_INT_RET => AtomicOp::Smin,
        MAX_INT | MAX_INT_RET => AtomicOp::Smax,
        MIN_UINT | MIN_UINT_RET => AtomicOp::Umin,
        MAX_UINT | MAX_UINT_RET => AtomicOp::Umax,
        AND | AND_RET => AtomicOp::And,
        OR | OR_RET => AtomicOp::Or,
        XOR | XOR_RET => AtomicOp::Xor,
        XCHG_RET => AtomicOp::Xchg,
        _ => return None,
    })
}

fn text(i: &AluInst) -> String {
    match i.lds {
        Some(l) => lds_info(l.op).text.to_string(),
        None => i.op.name().to_string(),
    }
}

impl Lifter<'_> {
    /// Starts a clause with an empty queue.
    pub fn oq_begin(&mut self) {
        self.oq = OutputQueue::default();
    }

    /// Ends a clause: the queue must be empty (7.3.4 L2334).
    pub fn oq_end(&self, cf: u32, at: u32, text: String) -> Result<(), LiftError> {
        if self.oq.is_empty() {
            return Ok(());
        }
        Err(self.invalid(
            cf,
            at,
            text,
            &format!(
                "{} entries left in the LDS output queue at clause end (7.3.4)",
                self.oq.len()
            ),
        ))
    }

    /// How the group `insts` uses the queue (each reading its first `srcs(i)` sources).
    pub fn oq_use(&self, cf: u32, insts: &[(u32, AluInst, usize)]) -> Result<QueueUse, LiftError> {
        let mut u = QueueUse::None;
        for &(at, ref i, n) in insts {
            for s in &i.src[..n] {
                let this = match s.sel {
                    sel::LDS_OQ_A | sel::LDS_OQ_B => QueueUse::Peek,
                    sel::LDS_OQ_A_POP | sel::LDS_OQ_B_POP => QueueUse::Pop,
                    _ => continue,
                };
                if u != QueueUse::None && u != this {
                    return Err(self.invalid(
                        cf,
                        at,
                        text(i),
                        "a group mixes popping and peeking output-queue selects (7.3.4)",
                    ));
                }
                u = this;
            }
        }
        Ok(u)
    }

    /// The head entry's A (`b` false) or B dword.
    pub fn oq_read(
        &mut self,
        cf: u32,
        at: u32,
        inst: &AluInst,
        b: bool,
    ) -> Result<Value, LiftError> {
        let Some(&has_b) = self.oq.entries.front() else {
            return Err(self.invalid(cf, at, text(inst), "the LDS output queue is empty"));
        };
        if b && !has_b {
            return Err(self.invalid(
                cf,
                at,
                text(inst),
                "the head of the LDS output queue has no B value",
            ));
        }
        let r = self.l.oq(self.oq.head, b);
        Ok(self.b.use_reg(r, I32))
    }

    /// The group's end: pops the head if `pop`, then appends `pushed`.
    pub fn oq_commit(
        &mut self,
        cf: u32,
        at: u32,
        inst: Option<&AluInst>,
        pop: bool,
        pushed: Option<Returned>,
    ) -> Result<(), LiftError> {
        if pop && self.oq.entries.pop_front().is_some() {
            self.oq.head = (self.oq.head + 1) % OQ_ENTRIES;
        }
        let Some(r) = pushed else {
            return Ok(());
        };
        if self.oq.len() as u32 >= OQ_ENTRIES {
            let t = inst.map(text).unwrap_or_default();
            return Err(self.unsupported(
                cf,
                at,
                t,
                &format!("more than {OQ_ENTRIES} entries in the LDS output queue"),
            ));
        }
        let pos = (self.oq.head + self.oq.len() as u32) % OQ_ENTRIES;
        let ra = self.l.oq(pos, false);
        self.b.def_reg(ra, r.a, None);
        if let Some(bv) = r.b {
            let rb = self.l.oq(pos, true);
            self.b.def_reg(rb, bv, None);
        }
        self.oq.entries.push_back(r.b.is_some());
        Ok(())
    }

    /// A direct read (SRC_SEL 223 A / 224 B) with the group's literal 0 (`lo`, `hi`).
    pub fn lds_direct(
        &mut self,
        cf: u32,
        at: u32,
        inst: &AluInst,
        b: bool,
        literal: Option<(u32, u32)>,
    ) -> Result<Value, LiftError> {
        let Some((lo, hi)) = literal else {
            return Err(self.invalid(cf, at, text(inst), "LDS direct read without literal 0"));
        };
        let w = if b { hi } else { lo };
        if w & (1 << 22) != 0 {
            return Err(self.unsupported(cf, at, text(inst), "LDS direct read with THREAD_REL"));
        }
        let (offset, stride) = (w & 0x1fff, (w >> 13) & 0x7f);
        let lane = self.b.lane_id();
        let k = self.b.i32(4 * stride);
        let a = self.b.op(Op::Imul, I32, &[lane, k]);
        let k = self.b.i32(4 * offset);
        let addr = self.b.op(Op::Iadd, I32, &[a, k]);
        Ok(self
            .b
            .load(MemSpace::Lds, MemWidth::B32, false, I32, addr, None))
    }

    /// Lifts one LDS_IDX_OP with its sources read (`s[0]` the address) for the lanes in
    /// `lanes`; returns the queue entry it appends, if any.
    pub fn lift_lds_op(
        &mut self,
        cf: u32,
        at: u32,
        inst: &AluInst,
        s: [Value; 3],
        lanes: Value,
    ) -> Result<Option<Returned>, LiftError> {
        let Some(l) = inst.lds else {
            return Err(self.invalid(cf, at, text(inst), "LDS_IDX_OP without LDS fields"));
        };
        let op = DsOp {
            op: l.op,
            offset: u32::from(l.offset),
            text: text(inst),
        };
        self.lift_ds_op(cf, at, &op, Share::Lds, s, lanes)
    }

    /// Lifts one data-share op (an LDS_OP / GDS_OP code) on `share` with its sources read
    /// (`s[0]` the byte address) for the lanes in `lanes`; returns the values it returns.
    pub fn lift_ds_op(
        &mut self,
        cf: u32,
        at: u32,
        o: &DsOp,
        share: Share,
        s: [Value; 3],
        lanes: Value,
    ) -> Result<Option<Returned>, LiftError> {
        use LdsOp::*;
        let off = o.offset;
        let addr = self.b.splat(s[0]);
        let (d1, d2) = (self.b.splat(s[1]), self.b.splat(s[2]));
        let plus = |me: &mut Self, bytes: u32| {
            let k = me.b.i32(bytes);
            me.b.op(Op::Iadd, I32, &[addr, k])
        };
        let load = |me: &mut Self, w: MemWidth, signed: bool, a: Value| {
            let (space, a, m) = me.ds_at(share, a, w, lanes);
            me.b.load(space, w, signed, I32, a, Some(m))
        };
        let store = |me: &mut Self, w: MemWidth, a: Value, v: Value| {
            let (space, a, m) = me.ds_at(share, a, w, lanes);
            me.b.store(space, w, a, v, Some(m));
        };
        let atomic = |me: &mut Self, op: AtomicOp, a: Value, d: Value, cmp: Option<Value>| {
            let (space, a, m) = me.ds_at(share, a, MemWidth::B32, lanes);
            me.b.atomic(op, space, MemWidth::B32, a, d, cmp, Some(m))
        };
        let one = |a: Value| Ok(Some(Returned { a, b: None }));
        let ret = lds_info(o.op).ret;
        if let Some(op) = rmw_of(o.op) {
            let old = atomic(self, op, addr, d1, None);
            return if ret { one(old) } else { Ok(None) };
        }
        match o.op {
            WRITE | BYTE_WRITE | SHORT_WRITE => {
                let w = match o.op {
                    WRITE => MemWidth::B32,
                    BYTE_WRITE => MemWidth::B8,
                    _ => MemWidth::B16,
                };
                store(self, w, addr, d1);
                Ok(None)
            }
            WRITE_REL | WRITE2 => {
                let step = if o.op == WRITE2 { 256 } else { 4 };
                let tmp = plus(self, step * off);
                store(self, MemWidth::B32, addr, d1);
                store(self, MemWidth::B32, tmp, d2);
                Ok(None)
            }
            MSKOR | MSKOR_RET | CMP_STORE | CMP_XCHG_RET => {
                let op = match o.op {
                    MSKOR | MSKOR_RET => AtomicOp::Mskor,
                    _ => AtomicOp::CmpXchg,
                };
                let old = atomic(self, op, addr, d2, Some(d1));
                if ret {
                    one(old)
                } else {
                    Ok(None)
                }
            }
            CMP_STORE_SPF | CMP_XCHG_SPF_RET => {
                let new = self.b.op(Op::Bitcast, F32, &[d2]);
                let cmp = self.b.op(Op::Bitcast, F32, &[d1]);
                let old = atomic(self, AtomicOp::FcmpXchg, addr, new, Some(cmp));
                if o.op == CMP_XCHG_SPF_RET {
                    let old = self.b.op(Op::Bitcast, I32, &[old]);
                    one(old)
                } else {
                    Ok(None)
                }
            }
            XCHG_REL_RET | XCHG2_RET => {
                let step = if o.op == XCHG2_RET { 256 } else { 4 };
                let tmp = plus(self, step * off);
                let a = atomic(self, AtomicOp::Xchg, addr, d1, None);
                let b = atomic(self, AtomicOp::Xchg, tmp, d2, None);
                Ok(Some(Returned { a, b: Some(b) }))
            }
            READ_RET => one(load(self, MemWidth::B32, false, addr)),
            BYTE_READ_RET => one(load(self, MemWidth::B8, true, addr)),
            UBYTE_READ_RET => one(load(self, MemWidth::B8, false, addr)),
            SHORT_READ_RET => one(load(self, MemWidth::B16, true, addr)),
            USHORT_READ_RET => one(load(self, MemWidth::B16, false, addr)),
            READ_REL_RET | READ2_RET => {
                let second = if o.op == READ2_RET {
                    d1
                } else {
                    plus(self, 4 * off)
                };
                let a = load(self, MemWidth::B32, false, addr);
                let b = load(self, MemWidth::B32, false, second);
                Ok(Some(Returned { a, b: Some(b) }))
            }
            READWRITE_RET => {
                let a = load(self, MemWidth::B32, false, addr);
                store(self, MemWidth::B32, d1, d2);
                one(a)
            }
            ATOMIC_ORDERED_ALLOC_RET => Err(self.invalid(
                cf,
                at,
                o.text.clone(),
                "ATOMIC_ORDERED_ALLOC_RET is GDS-only (L9234)",
            )),
            _ => Err(self.unsupported(cf, at, o.text.clone(), "LDS_OP not lifted")),
        }
    }

    /// Where an access of `w` at byte address `a` (lane `i32`) of `share` goes: the space,
    /// the address and the lanes that access memory. LDS: every lane of `lanes` (the
    /// runtime applies the LDS range rule). GDS: the global address `base + a`, for the
    /// lanes whose access ends within [`GDS_BYTES`] (the others read 0 and write nothing).
    fn ds_at(
        &mut self,
        share: Share,
        a: Value,
        w: MemWidth,
        lanes: Value,
    ) -> (MemSpace, Value, Value) {
        let Share::Gds(base) = share else {
            return (MemSpace::Lds, a, lanes);
        };
        let last = self.b.i32(GDS_BYTES - w.bytes());
        let inside = self.b.op(Op::Icmp(IntCC::Ule), I1, &[a, last]);
        let m = self.b.op(Op::And, I1, &[lanes, inside]);
        let a = self.b.op(Op::Zext, I64, &[a]);
        let ga = self.b.op(Op::Iadd, I64, &[base, a]);
        (MemSpace::Global, ga, m)
    }
}
