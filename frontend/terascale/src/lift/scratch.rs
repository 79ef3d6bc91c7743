//! Scratch memory: MEM_WR_SCRATCH (a CF_ALLOC_EXPORT instruction, 3.4.2 L1003-L1029, CF
//! L3085-L3104) and MEM_RD_SCRATCH (a memory read in a fetch clause, 3.4.3 L1031-L1063,
//! MEM_RD_WORD0-2 L9685-L9811), on the lane's private memory ([`MemSpace::Private`]).
//!
//! # Addresses
//! Scratch is addressed in elements of `d = ELEM_SIZE + 1` dwords: 1, 2 or 4 (ELEM_SIZE 2,
//! three dwords, "is not supported", L8322, and is invalid). 3.4.2 says ELEM_SIZE "must be 3"
//! for scratch (L1013), but WORD1_BUF gives MEM_WR_SCRATCH sizes for ELEMSIZE 0 too and the
//! address formula covers every size, so every supported size is lifted:
//! `first_mem = (ARRAY_BASE + use_index * GPR[INDEX]) * (ELEM_SIZE + 1)` dwords (L1017), with
//! ARRAY_SIZE in the same element units (WORD1_BUF: "[1,4096] when ELEMSIZE = 0, [4,16384]
//! when ELEMSIZE = 3", L8334). 3.4.2's remark that scratch ARRAY_BASE and ARRAY_SIZE count
//! four dwords (L1019) is that formula with the recommended size. For burst step `i`
//! (0 to BURST_COUNT) the element is
//! `e = ARRAY_BASE + use_index * clamp(GPR[INDEX].x, 0, N - 1) + i`, with
//! `N = ARRAY_SIZE + 1` elements: the index is clamped first (6.1, L2154), and no element at
//! or past `ARRAY_BASE + N` is accessed (the burst clamp, L1009 and L1051). `ARRAY_SIZE`
//! encodes the count minus one: MEM_RD_WORD2 gives 4096 as the largest one-dword size of its
//! 12-bit field (L9805), and Mesa's r600 back end writes `array_size - 1`
//! (sfn_instr_export.cpp `ScratchIOInstr`). The clamp compares the index as a signed
//! integer. Step `i` reads or writes GPR `RW_GPR + i` (writes) / `DST_GPR + i` (reads).
//! A step past the burst clamp does nothing: a write is dropped and a read leaves its GPR
//! unchanged (the document says only that no memory is accessed there). A write stores the
//! COMP_MASK channels among the element's `d` (each step moves `d` dwords, L1013); a read
//! loads the `d` dwords of a data format of that many 32-bit fields (FMT_32, FMT_32_32,
//! FMT_32_32_32_32 or their `_FLOAT` forms: the bits are moved unconverted either way), and
//! a DST_SEL naming a component past them gives 0 (y, z) or one (w), the vertex-fetch rule.
//!
//! # Layout
//! The hardware interleaves the lanes of a wavefront element by element (6.1's legend:
//! Vectorsize, ThreadInWavefront, component_offset; the formula image itself is lost,
//! L2154-L2158; 6.3: each burst step advances `(elemsize + 1) * vectorSize` dwords). A lane
//! can only reach its own elements, so the interleaving is not observable as long as every
//! access uses the same element size: a program whose scratch instructions use different
//! ELEM_SIZEs is not lifted (where one element size's dwords land in another's depends on
//! the lost formula). Element `e`, component `c` of a lane is the dword at byte
//! `4 * (d * e + c)` of the lane's private segment. An access past the segment the launch
//! gives is a guest fault (runtime rule); [`scratch_lane_bytes`] is the segment size a
//! program needs (the launcher's `private_lane_bytes`), computed from its scratch
//! instructions: the kernel's configuration registers hold no scratch size.
//!
//! # Not lifted
//! Mixed element sizes (above), relative GPRs (RW_REL, SRC_REL, DST_REL), LDS_REQ,
//! ENDIAN_SWAP, and read data formats other than the 32-bit ones above. TYPE's ACK bit
//! (WRITE_ACK / WRITE_IND_ACK) and UNCACHED only order memory traffic, which is already in
//! program order here. Writes have no swizzle (WORD1_BUF): COMP_MASK selects the
//! components.
use super::{cf_text, LiftError, Lifter};
use crate::inst::{bits, CfInst, CfMem, ClauseBody, FetchInst, Program};
use crate::tables::{CfMemOp, FetchOp};
use wavejit_ir::{IntCC, MemSpace, MemWidth, Op, ScalarType, Value};

use ScalarType::{I1, I32};

/// The fields of a scratch access, from either encoding.
struct Access {
    /// `d`: dwords per element (ELEM_SIZE + 1).
    dwords: u32,
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

/// The scratch instructions of `program` as (ELEM_SIZE, ARRAY_BASE, ARRAY_SIZE field).
fn scratch_fields(program: &Program) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
    let writes = program.cf.iter().filter_map(|e| match e.inst {
        CfInst::Mem(m) if m.op == CfMemOp::MEM_WR_SCRATCH => Some((
            u32::from(m.elem_size),
            u32::from(m.array_base),
            u32::from(m.array_size & 0xfff),
        )),
        _ => None,
    });
    let reads = program.clauses.iter().flat_map(|c| match &c.body {
        ClauseBody::Fetch(f) => f
            .iter()
            .filter(|f| f.op == FetchOp::MEM_RD_SCRATCH)
            .map(|f| {
                let [w0, _, w2] = f.words;
                (bits(w0, 5, 2), bits(w2, 0, 13), bits(w2, 20, 12))
            })
            .collect(),
        _ => Vec::new(),
    });
    writes.chain(reads)
}

/// The private bytes per lane that every scratch access of `program` stays within:
/// `4 * (ELEM_SIZE + 1) * (ARRAY_BASE + ARRAY_SIZE + 1)` at most over its scratch
/// instructions (0 if none).
pub fn scratch_lane_bytes(program: &Program) -> u32 {
    scratch_fields(program)
        .map(|(es, base, size)| 4 * (es + 1) * (base + size + 1))
        .max()
        .unwrap_or(0)
}

/// Dwords per element of the r600 DATA_FORMATs a scratch read moves unconverted (FMT_32,
/// FMT_32_FLOAT, FMT_32_32, FMT_32_32_FLOAT, FMT_32_32_32_32, FMT_32_32_32_32_FLOAT:
/// evergreend.h `V_030008_FMT_*`) and whether the format is a float one.
fn read_format_dwords(data_format: u32) -> Option<(u32, bool)> {
    match data_format {
        13 => Some((1, false)),
        14 => Some((1, true)),
        29 => Some((2, false)),
        30 => Some((2, true)),
        34 => Some((4, false)),
        35 => Some((4, true)),
        _ => None,
    }
}

impl Lifter<'_> {
    /// Dwords per element of a scratch access with `elem_size`, or why it is not lifted.
    fn scratch_dwords(&self, elem_size: u32) -> Result<u32, (bool, &'static str)> {
        if elem_size == 2 {
            return Err((true, "scratch ELEM_SIZE 2 (three dwords are not supported)"));
        }
        if scratch_fields(self.p).any(|(es, _, _)| es != elem_size) {
            let why = "scratch accesses with different ELEM_SIZEs (the lane interleaving \
                       formula is lost, L2154)";
            return Err((false, why));
        }
        Ok(elem_size + 1)
    }

    /// Step `i` of `a`, or `None` if the burst clamp excludes it for every lane.
    fn scratch_step(&mut self, a: &Access, i: u32) -> Option<Step> {
        if i >= a.size {
            return None;
        }
        let elem_bytes = 4 * a.dwords;
        let Some(index) = a.index else {
            let off = self.b.i32(elem_bytes * (a.base + i));
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
        let bytes = self.b.i32(elem_bytes);
        let off = self.b.op(Op::Imul, I32, &[e, bytes]);
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
        let dwords = match self.scratch_dwords(u32::from(m.elem_size)) {
            Ok(d) => d,
            Err((true, why)) => return Err(self.invalid(cf, cf, text.clone(), why)),
            Err((false, why)) => return Err(un(self, why)),
        };
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
            dwords,
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
            for c in 0..dwords {
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
        let dwords = match self.scratch_dwords(bits(w0, 5, 2)) {
            Ok(d) => d,
            Err((true, why)) => return Err(self.invalid(cf, at, text.clone(), why)),
            Err((false, why)) => return Err(un(self, why)),
        };
        let burst = self.mem_rd_burst(cf, at, &text, f)?;
        let dst = u32::from(f.dst_gpr());
        let float = match read_format_dwords(bits(w1, 22, 6)) {
            Some((n, float)) if n == dwords => float,
            _ => {
                let why = "scratch read data format other than the 32-bit one of ELEM_SIZE + 1 \
                           fields";
                return Err(un(self, why));
            }
        };
        let index = (bits(w0, 12, 1) == 1).then(|| {
            let r = self.l.gpr(u32::from(f.src_gpr()), u32::from(f.src_sel_x()));
            self.b.use_reg(r, I32)
        });
        let a = Access {
            dwords,
            base: bits(w2, 0, 13),
            size: bits(w2, 20, 12) + 1,
            index,
            burst,
        };
        let one = if f.num_format_all() == 1 && !float {
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
            for c in 0..dwords {
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
                    0..=3 if u32::from(sel) < dwords => vals[sel as usize],
                    1 | 2 | 4 => self.b.i32(0),
                    3 => self.b.i32(one),
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
