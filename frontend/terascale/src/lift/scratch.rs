//! Scratch memory: MEM_WR_SCRATCH (a CF_ALLOC_EXPORT instruction, 3.4.2 L1003-L1029, CF
//! L3085-L3104) and MEM_RD_SCRATCH (a memory read in a fetch clause, 3.4.3 L1031-L1063,
//! MEM_RD_WORD0-2 L9685-L9811), on the lane's private memory ([`MemSpace::Private`]).
//!
//! # Addresses
//! Scratch is addressed in elements of `ELEM_SIZE + 1` dwords; the document requires
//! ELEM_SIZE = 3 (four dwords) for scratch (L1005), and only that size is lifted. For
//! burst step `i` (0 to BURST_COUNT) the element is
//! `e = ARRAY_BASE + use_index * clamp(GPR[INDEX].x, 0, N - 1) + i`, with
//! `N = ARRAY_SIZE + 1` elements: the index is clamped first (6.1, L2154), and no element at
//! or past `ARRAY_BASE + N` is accessed (the burst clamp, L1009 and L1051). `ARRAY_SIZE`
//! encodes the count minus one: MEM_RD_WORD2 gives 4096 as the largest one-dword size of its
//! 12-bit field (L9805), and Mesa's r600 back end writes `array_size - 1`
//! (sfn_instr_export.cpp `ScratchIOInstr`). The clamp compares the index as a signed
//! integer. Step `i` reads or writes GPR `RW_GPR + i` (writes) / `DST_GPR + i` (reads).
//! A step past the burst clamp does nothing: a write is dropped and a read leaves its GPR
//! unchanged (the document says only that no memory is accessed there).
//!
//! # Layout
//! The hardware interleaves the lanes of a wavefront element by element (6.1's legend:
//! Vectorsize, ThreadInWavefront, component_offset; the formula image itself is lost,
//! L2154-L2158; 6.3: each burst step advances `(elemsize + 1) * vectorSize` dwords). A lane
//! can only reach its own elements, so the interleaving is not observable as long as every
//! access uses the same element size, which the ELEM_SIZE = 3 rule guarantees: element `e`,
//! component `c` of a lane is the dword at byte `16 * e + 4 * c` of the lane's private
//! segment. An access past the segment the launch gives is a guest fault (runtime rule);
//! [`scratch_lane_bytes`] is the segment size a program needs (the launcher's
//! `private_lane_bytes`), computed from its scratch instructions: the kernel's
//! configuration registers hold no scratch size.
//!
//! # Not lifted
//! ELEM_SIZE other than 3, relative GPRs (RW_REL, SRC_REL, DST_REL), LDS_REQ, ENDIAN_SWAP,
//! and read data formats other than FMT_32_32_32_32 (Mesa's only one). TYPE's ACK bit
//! (WRITE_ACK / WRITE_IND_ACK) and UNCACHED only order memory traffic, which is already in
//! program order here. Writes have no swizzle (WORD1_BUF): COMP_MASK selects the
//! components.
use super::{cf_text, LiftError, Lifter};
use crate::inst::{CfInst, CfMem, ClauseBody, FetchInst, Program};
use crate::tables::{CfMemOp, FetchOp};
use wavejit_ir::{IntCC, MemSpace, MemWidth, Op, ScalarType, Value};

use ScalarType::{I1, I32};

/// Bytes of one scratch element (ELEM_SIZE = 3).
const ELEM_BYTES: u32 = 16;

/// `count` bits of `w` from bit `at`.
fn field(w: u32, at: u32, count: u32) -> u32 {
    (w >> at) & ((1 << count) - 1)
}

/// The fields of a scratch access, from either encoding.
struct Access {
    base: u32,
    /// `N`: the array size in elements.
    size: u32,
    /// The index register's value (`use_index` set), lane- or uniform-shaped `i32`.
    index: Option<Value>,
    burst: u32,
}

/// Where step `i` goes: the byte offset in the lane's segment and the lanes within the
/// burst clamp (`None`: every lane; a step that is out of range for every lane is skipped
/// by the caller).
struct Step {
    offset: Value,
    lanes: Option<Value>,
}

/// The private bytes per lane that every scratch access of `program` stays within:
/// `16 * (ARRAY_BASE + ARRAY_SIZE + 1)` at most over its scratch instructions (0 if none).
pub fn scratch_lane_bytes(program: &Program) -> u32 {
    let writes = program.cf.iter().filter_map(|e| match e.inst {
        CfInst::Mem(m) if m.op == CfMemOp::MEM_WR_SCRATCH => {
            Some(u32::from(m.array_base) + u32::from(m.array_size & 0xfff) + 1)
        }
        _ => None,
    });
    let reads = program.clauses.iter().flat_map(|c| match &c.body {
        ClauseBody::Fetch(f) => f
            .iter()
            .filter(|f| f.op == FetchOp::MEM_RD_SCRATCH)
            .map(|f| field(f.words[2], 0, 13) + field(f.words[2], 20, 12) + 1)
            .collect(),
        _ => Vec::new(),
    });
    writes.chain(reads).max().map_or(0, |e| ELEM_BYTES * e)
}

impl Lifter<'_> {
    /// Step `i` of `a`, or `None` if the burst clamp excludes it for every lane.
    fn scratch_step(&mut self, a: &Access, i: u32) -> Option<Step> {
        if i >= a.size {
            return None;
        }
        let Some(index) = a.index else {
            let off = self.b.i32(ELEM_BYTES * (a.base + i));
            return Some(Step {
                offset: self.b.splat(off),
                lanes: None,
            });
        };
        let (zero, last) = (self.b.i32(0), self.b.i32(a.size - 1));
        let idx = self.b.op(Op::Smax, I32, &[index, zero]);
        let idx = self.b.op(Op::Smin, I32, &[idx, last]);
        let lanes = (i > 0).then(|| {
            let room = self.b.i32(a.size - i);
            let c = self.b.op(Op::Icmp(IntCC::Ult), I1, &[idx, room]);
            self.b.splat(c)
        });
        let k = self.b.i32(a.base + i);
        let e = self.b.op(Op::Iadd, I32, &[idx, k]);
        let sixteen = self.b.i32(ELEM_BYTES);
        let off = self.b.op(Op::Imul, I32, &[e, sixteen]);
        Some(Step {
            offset: self.b.splat(off),
            lanes,
        })
    }

    /// The active lanes, narrowed to a step's lanes.
    fn step_mask(&mut self, s: &Step) -> Value {
        let act = self.active();
        let m = self.b.mask_from_bits(act);
        match s.lanes {
            Some(l) => self.b.op(Op::And, I1, &[m, l]),
            None => m,
        }
    }

    /// MEM_WR_SCRATCH.
    pub fn lift_scratch_write(&mut self, cf: u32, m: &CfMem) -> Result<(), LiftError> {
        let text = cf_text(&CfInst::Mem(*m));
        let un = |me: &Self, why: &str| me.unsupported(cf, cf, text.clone(), why);
        if m.elem_size != 3 {
            return Err(un(self, "scratch ELEM_SIZE other than 3 (four dwords)"));
        }
        if m.rw_rel {
            return Err(un(self, "relative RW_GPR"));
        }
        let burst = u32::from(m.burst_count);
        if u32::from(m.rw_gpr) + burst > 127 {
            let why = "burst past R127";
            return Err(self.invalid(cf, cf, text.clone(), why));
        }
        let index = (m.kind & 1 == 1).then(|| {
            let r = self.l.gpr(u32::from(m.index_gpr), 0);
            self.b.use_reg(r, I32)
        });
        let a = Access {
            base: u32::from(m.array_base),
            size: u32::from(m.array_size & 0xfff) + 1,
            index,
            burst,
        };
        for i in 0..=a.burst {
            let Some(s) = self.scratch_step(&a, i) else {
                break;
            };
            let lanes = self.step_mask(&s);
            for c in 0..4u32 {
                if m.comp_mask & (1 << c) == 0 {
                    continue;
                }
                let r = self.l.gpr(u32::from(m.rw_gpr) + i, c);
                let v = self.b.use_reg(r, I32);
                let k = self.b.i32(4 * c);
                let addr = self.b.op(Op::Iadd, I32, &[s.offset, k]);
                self.b
                    .store(MemSpace::Private, MemWidth::B32, addr, v, Some(lanes));
            }
        }
        Ok(())
    }

    /// MEM_RD_SCRATCH in a fetch clause.
    pub fn lift_scratch_read(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let text = format!("{} R{}", f.op.name(), f.dst_gpr());
        let un = |me: &Self, why: &str| me.unsupported(cf, at, text.clone(), why);
        let [w0, w1, w2] = f.words;
        if field(w0, 5, 2) != 3 {
            return Err(un(self, "scratch ELEM_SIZE other than 3 (four dwords)"));
        }
        if f.src_rel() || f.dst_rel() {
            return Err(un(self, "relative GPR addressing in a fetch"));
        }
        if field(w0, 30, 1) != 0 {
            return Err(un(self, "LDS_REQ (return data to the LDS)"));
        }
        if field(w1, 22, 6) != 34 {
            return Err(un(
                self,
                "scratch read data format other than FMT_32_32_32_32",
            ));
        }
        if field(w2, 16, 2) != 0 {
            return Err(un(self, "endian swap"));
        }
        let burst = field(w0, 26, 4);
        let dst = u32::from(f.dst_gpr());
        if dst + burst > 127 {
            return Err(self.invalid(cf, at, text.clone(), "burst past R127"));
        }
        let index = (field(w0, 12, 1) == 1).then(|| {
            let r = self.l.gpr(u32::from(f.src_gpr()), u32::from(f.src_sel_x()));
            self.b.use_reg(r, I32)
        });
        let a = Access {
            base: field(w2, 0, 13),
            size: field(w2, 20, 12) + 1,
            index,
            burst,
        };
        let one = if f.num_format_all() == 1 {
            1
        } else {
            1f32.to_bits()
        };
        // Every step's loads happen before any GPR write: the index register may be a
        // destination of the burst.
        let mut writes = Vec::new();
        for i in 0..=a.burst {
            let Some(s) = self.scratch_step(&a, i) else {
                break;
            };
            let lanes = self.step_mask(&s);
            let mut vals = Vec::new();
            for c in 0..4u32 {
                let k = self.b.i32(4 * c);
                let addr = self.b.op(Op::Iadd, I32, &[s.offset, k]);
                let space = MemSpace::Private;
                vals.push(
                    self.b
                        .load(space, MemWidth::B32, false, I32, addr, Some(lanes)),
                );
            }
            for (chan, &sel) in f.dst_sel().iter().enumerate() {
                let v = match sel {
                    0..=3 => vals[sel as usize],
                    4 => self.b.i32(0),
                    5 => self.b.i32(one),
                    7 => continue,
                    _ => return Err(self.invalid(cf, at, text.clone(), "reserved DST_SEL 6")),
                };
                writes.push((self.l.gpr(dst + i, chan as u32), v, lanes));
            }
        }
        for (r, v, lanes) in writes {
            self.b.def_reg(r, v, Some(lanes));
        }
        Ok(())
    }
}
