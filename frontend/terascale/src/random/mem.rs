//! Memory nodes and groups (see the module doc of [`super`]): fetch clauses, RAT
//! instructions, and the LDS group sequences of ALU clauses, each after a group that masks its
//! addresses into the buffers the fuzz harness provides, or in the memory profile sets them
//! from a lane pattern plus a base ([`AddrSrc::Lane`]) that may put the top lane at or past
//! the end.
use super::group::{Build, ClauseState, Picker};
use super::{
    AluClause, Node, ATOMIC_ADDR_MASK, FETCH_GPR, FETCH_MASK, GDS_ADDR_MASK, GDS_GPR, GPR_POOL,
    LANE_GPR, LANE_TOPS, LDS_ADDR_GPR, LDS_ADDR_MASK, LDS_BYTES, MAX_FETCH_OFFSET, MAX_RAT_BURST,
    MAX_SCATTER_BASE, POOL_BYTES, RAT_GPR, SAMPLERS, SCATTER_MASK, STORE_INDEX_MASK, TEXTURES,
};
use crate::chip::ChipClass;
use crate::inst::{sel, AluGroup, AluSrc, CfMem, FetchInst, KCache, LdsIdx, RatFields, Slot};
use crate::opcode::AluOp;
use crate::print::fetch::{vtx_read_words, Family, VTX_READS};
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

/// The RAT atomics of [`GenOptions::rat_forms`](super::GenOptions): NOP_RTN, MSKOR and the
/// Evergreen float forms (each where the class's table has it).
pub const RAT_MORE_ATOMICS: [RatInst; 7] = {
    use RatInst::*;
    [
        NOP_RTN,
        MSKOR,
        CMPXCHG_FLT,
        CMPXCHG_FLT_RTN,
        CMPXCHG_FDENORM,
        CMPXCHG_FDENORM_RTN,
        XCHG_FDENORM_RTN,
    ]
};

/// The RAT stores of [`GenOptions::rat_forms`](super::GenOptions) (each where the class's
/// table has it) besides the class's plain store.
pub const RAT_MORE_STORES: [RatInst; 4] = {
    use RatInst::*;
    [STORE_TYPED, STORE_RAW_FDENORM, STORE_SHORT, STORE_BYTE]
};

/// Whether a class's RAT table has `r`.
pub fn rat_exists(class: ChipClass, r: RatInst) -> bool {
    tables::rat_info(r).opcode[class.index()] != NA
}

/// Whether `r` is a store the generator emits (any form) on `class`.
pub fn is_generated_store(class: ChipClass, r: RatInst) -> bool {
    r == rat_store(class) || (RAT_MORE_STORES.contains(&r) && rat_exists(class, r))
}

/// Whether `r` is an atomic (addressed in bytes) the generator emits on `class`.
pub fn is_generated_atomic(class: ChipClass, r: RatInst) -> bool {
    (RAT_ATOMICS.contains(&r) || RAT_MORE_ATOMICS.contains(&r)) && rat_exists(class, r)
}

/// The largest index a RAT instruction's setup sets: bytes for the atomics and NOP_RTN,
/// dwords for MSKOR (which the lifter addresses like the stores, see lift/mem.rs) and
/// elements for the stores.
pub fn rat_index_mask(class: ChipClass, r: RatInst) -> u32 {
    if is_generated_atomic(class, r) && r != RatInst::MSKOR {
        ATOMIC_ADDR_MASK
    } else {
        STORE_INDEX_MASK
    }
}

/// The GDS ops the generator emits on Cayman: the LDS ops the GDS lifter takes whose src1
/// is data (not the REL/2 forms, not a second address).
pub fn gds_ops(class: ChipClass) -> Vec<LdsOp> {
    use LdsOp::*;
    lds_ops(class)
        .into_iter()
        .filter(|&op| {
            !lds_src1_is_address(op)
                && !matches!(
                    op,
                    WRITE_REL | WRITE2 | READ_REL_RET | XCHG_REL_RET | XCHG2_RET
                )
        })
        .collect()
}

/// The TEX instructions the generator emits and their TEX_INST codes (seed 000 8.3).
pub const TEX_OPS: [(FetchOp, u32); 7] = [
    (FetchOp::TEX_LD, 3),
    (FetchOp::TEX_GET_TEXTURE_RESINFO, 4),
    (FetchOp::TEX_SAMPLE, 16),
    (FetchOp::TEX_SAMPLE_L, 17),
    (FetchOp::TEX_SAMPLE_LB, 18),
    (FetchOp::TEX_SAMPLE_LZ, 19),
    (FetchOp::TEX_GATHER4, 21),
];

/// MEM_OP of a memory-read/GDS fetch instruction (VC_INST 2; tables/fetch.rs).
fn mem_op_code(op: FetchOp) -> u32 {
    match op {
        FetchOp::MEM_RD_SCRATCH => 0,
        FetchOp::MEM_RD_SCATTER => 2,
        _ => 4,
    }
}

/// The words of a MEM_RD/MEM_GDS instruction with the named fields set (fields outside the
/// family's list, or values that do not fit, are a generator bug and are left 0).
fn mem_words(class: ChipClass, op: FetchOp, set: &[(&str, u32)]) -> FetchInst {
    let mut words = [2 | mem_op_code(op) << 8, 0, 0];
    let fields = Family::of(op).fields(class);
    for (name, v) in set {
        if let Some(f) = fields.iter().find(|f| f.name == *name) {
            let _ = f.set(&mut words, i64::from(*v));
        }
    }
    FetchInst { op, words }
}

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

/// How an address group sets one address channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrSrc {
    /// `AND_INT R[gpr].c, Rn, mask` with `Rn` from the random pool: inside the buffer by
    /// construction.
    Masked(u32),
    /// Memory profile: `ADD_INT R[gpr].c, R[LANE_GPR].chan, base`.
    Lane { chan: u8, base: u32 },
}

/// The odds of an edge base ([`Picker::lane_addr`]) for a fetch channel, a RAT instruction
/// and an LDS address. Global ones are tuned so that about a third of the memory profile's
/// programs fault: fewer, and the edges are rarely reached; more, and most programs stop
/// early. An LDS access out of range does not fault, so the LDS takes edges often.
const FETCH_EDGE: f64 = 0.1;
const RAT_EDGE: f64 = 0.1;
const LDS_EDGE: f64 = 0.4;

/// The highest byte a VTX fetch reads past its address on a lane-pattern channel: a
/// 16-byte element at the largest OFFSET.
const FETCH_EXTENT: u32 = 16 + MAX_FETCH_OFFSET;

impl Picker<'_> {
    /// One group setting every channel of `R[gpr]` that has a source.
    fn addr_group(
        &mut self,
        st: &mut ClauseState,
        gpr: u8,
        srcs: [Option<AddrSrc>; 4],
    ) -> AluGroup {
        let mut b = Build::default();
        for (c, a) in srcs.iter().enumerate() {
            let Some(a) = *a else { continue };
            let (op, src, lit) = match a {
                AddrSrc::Masked(m) => (AluOp::AND_INT, self.gpr(), m),
                AddrSrc::Lane { chan, base } => {
                    let lane = AluSrc {
                        sel: u16::from(LANE_GPR),
                        chan,
                        ..AluSrc::default()
                    };
                    (AluOp::ADD_INT, lane, base)
                }
            };
            let mut i = self.inst(op, Slot::VECTOR[c]);
            i.dst_gpr = gpr;
            i.src[0] = src;
            i.src[1] = AluSrc {
                sel: sel::LITERAL,
                chan: c as u8,
                ..AluSrc::default()
            };
            b.literals[c] = Some(lit);
            b.slots[c] = Some(i);
        }
        self.finish(st, b)
    }

    fn setup_clause(&mut self, gpr: u8, masks: [Option<u32>; 4]) -> AluClause {
        self.setup_clause_from(gpr, masks.map(|m| m.map(AddrSrc::Masked)))
    }

    fn setup_clause_from(&mut self, gpr: u8, srcs: [Option<AddrSrc>; 4]) -> AluClause {
        let mut st = ClauseState::new(Vec::new());
        AluClause {
            kcache: [KCache::default(); 4],
            ext: false,
            bank_index: [0; 4],
            groups: vec![self.addr_group(&mut st, gpr, srcs)],
        }
    }

    /// Memory profile: a lane-pattern address counting `unit`-byte elements, for accesses
    /// that reach `extent` bytes from their start, in a window of `limit` bytes
    /// ([`Picker::lane_base`]); `aligned`: dword-aligned byte addresses (atomics).
    pub(super) fn lane_addr(
        &mut self,
        unit: u32,
        extent: u32,
        limit: u32,
        aligned: bool,
        edge: f64,
    ) -> AddrSrc {
        let chan = self.lane_chan(unit, aligned);
        let base = self.lane_base(chan, unit, extent, limit, aligned, edge);
        AddrSrc::Lane { chan, base }
    }

    /// A lane pattern channel: for dword-aligned byte addresses the aligned ones (y, w) and
    /// now and then the scattered one (z), else any.
    fn lane_chan(&mut self, unit: u32, aligned: bool) -> u8 {
        if unit == 1 && aligned {
            *[1u8, 1, 1, 3, 3, 3, 2].choose(self.rng).unwrap_or(&1)
        } else {
            self.rng.gen_range(0..4)
        }
    }

    /// The base added to lane pattern `chan`. With odds `1 - edge` it keeps every lane's
    /// access inside the window (`aligned`: a multiple of 4); otherwise it puts the top
    /// lane's access exactly at the end, one unit (a dword when `aligned`) past it, or wraps
    /// the low lanes around 2^32.
    fn lane_base(
        &mut self,
        chan: u8,
        unit: u32,
        extent: u32,
        limit: u32,
        aligned: bool,
        edge: f64,
    ) -> u32 {
        let top = LANE_TOPS[chan as usize];
        // The largest base that keeps every lane inside.
        let fit = (limit - extent) / unit - top;
        if !self.rng.gen_bool(edge) {
            let b = self.rng.gen_range(0..=fit);
            return if aligned { b & !3 } else { b };
        }
        match self.rng.gen_range(0..4) {
            0 => fit,
            1 if aligned => fit + 4,
            1 | 2 => fit + 1,
            _ => 0u32.wrapping_sub(4 * self.rng.gen_range(1..=top / 8)),
        }
    }

    /// A fetch channel's lane-pattern address in the pool: inside for every element and
    /// OFFSET, or with an edge base placed for a dword at OFFSET 0 (so a wider element or a
    /// larger OFFSET steps past the end, a byte stays inside).
    fn fetch_lane_addr(&mut self) -> AddrSrc {
        let chan = self.lane_chan(1, false);
        let base = if self.rng.gen_bool(FETCH_EDGE) {
            self.lane_base(chan, 1, 4, POOL_BYTES, false, 1.0)
        } else {
            self.lane_base(chan, 1, FETCH_EXTENT, POOL_BYTES, false, 0.0)
        };
        AddrSrc::Lane { chan, base }
    }

    /// A fetch clause of 1-4 (memory profile: 2-8) reads after its address setup.
    pub fn fetch_node(&mut self) -> Node {
        // Channel alignment: x dword, y byte, z short, w 16 bytes.
        let masks = [
            FETCH_MASK & !3,
            FETCH_MASK,
            FETCH_MASK & !1,
            FETCH_MASK & !15,
        ];
        let scatter = self.opts.scatter && self.rng.gen_bool(0.3);
        let scratch = self.opts.scratch && self.rng.gen_bool(0.25);
        // TEX runs in TC clauses only.
        let vc = self.class == ChipClass::Evergreen && self.rng.gen_bool(0.5);
        let tex = self.opts.tex && !vc && self.rng.gen_bool(0.3);
        let mut masks = masks;
        if scatter {
            masks[0] = SCATTER_MASK;
        }
        // Memory profile: channels from lane patterns fetch from the pool; not x when
        // scatter reads index by it.
        let mut srcs = masks.map(|m| Some(AddrSrc::Masked(m)));
        let mut lane = [false; 4];
        if self.opts.memory_focus {
            for (c, src) in srcs.iter_mut().enumerate() {
                if !(scatter && c == 0) && self.rng.gen_bool(0.7) {
                    lane[c] = true;
                    *src = Some(self.fetch_lane_addr());
                }
            }
        }
        let n = if self.opts.memory_focus {
            self.rng.gen_range(2..=8)
        } else {
            self.rng.gen_range(1..=4)
        };
        let insts: Vec<FetchInst> = (0..n)
            .map(|_| match self.rng.gen_range(0..10) {
                0..=3 if scatter => self.scatter_read(),
                4..=6 if scratch => self.scratch_read(),
                7..=9 if tex => self.tex(),
                _ => self.vtx(lane),
            })
            .collect();
        if self.opts.memory_focus {
            // Only the channels the clause reads (VTX SRC_SEL_X, the scatter index x), so the
            // address setup does not outweigh the fetches.
            for (c, src) in srcs.iter_mut().enumerate() {
                let read = insts.iter().any(|f| match f.op {
                    FetchOp::VTX_FETCH => usize::from(f.src_sel_x()) == c,
                    FetchOp::MEM_RD_SCATTER => c == 0,
                    _ => false,
                });
                if !read {
                    *src = None;
                }
            }
            if srcs.iter().all(Option::is_none) {
                srcs[0] = Some(AddrSrc::Masked(masks[0]));
            }
        }
        let setup = self.setup_clause_from(FETCH_GPR, srcs);
        Node::Fetch { setup, vc, insts }
    }

    /// A TEX instruction of [`TEX_OPS`] on resource 0-1 and sampler 0-2 from a random GPR,
    /// with random SRC_SEL (components and the constants), DST_SEL, coordinate types, LOD bias and (not on LD) texel offsets.
    fn tex(&mut self) -> FetchInst {
        let (op, inst) = *TEX_OPS.choose(self.rng).unwrap_or(&TEX_OPS[0]);
        let res = self.rng.gen_range(0..TEXTURES.len() as u32);
        let smp = self.rng.gen_range(0..SAMPLERS.len() as u32);
        let w0 = inst | res << 8 | u32::from(self.rng.gen_range(0..GPR_POOL)) << 16;
        let mut w1 = u32::from(self.rng.gen_range(0..GPR_POOL));
        for c in 0..4 {
            w1 |= *[0u32, 1, 2, 3, 4, 5, 7].choose(self.rng).unwrap_or(&7) << (9 + 3 * c);
        }
        if op != FetchOp::TEX_LD {
            w1 |= (self.rng.gen_range(-16i32..16) as u32 & 0x7f) << 21;
        }
        if self.rng.gen_bool(0.7) {
            w1 |= 0xf << 28;
        }
        let mut w2 = smp << 15;
        // Mostly GPR components; the constants 0.0 and 1.0 (SRC_SEL 4/5) now and then.
        for c in 0..4 {
            let sel = if self.rng.gen_bool(0.85) {
                self.rng.gen_range(0..=3u32)
            } else {
                self.rng.gen_range(4..=5u32)
            };
            w2 |= sel << (20 + 3 * c);
        }
        if op != FetchOp::TEX_LD && self.rng.gen_bool(0.3) {
            for c in 0..3 {
                w2 |= (self.rng.gen_range(-4i32..4) as u32 & 31) << (5 * c);
            }
        }
        FetchInst {
            op,
            words: [w0, w1, w2],
        }
    }

    /// MEM_RD_SCATTER of a VTX_READ template's element at dword
    /// `ARRAY_BASE + R[FETCH_GPR].x` (masked to [`SCATTER_MASK`]), in a burst of up to 4.
    fn scatter_read(&mut self) -> FetchInst {
        let t = self.rng.gen_range(0..VTX_READS.len());
        let burst = self.rng.gen_range(0..=3u8);
        let dst = self.rng.gen_range(0..GPR_POOL - burst);
        let w1 = vtx_read_words(self.class, t, dst, FETCH_GPR, 1, 0)[1];
        let (_, fmt, dst_sel, _, _) = VTX_READS[t];
        let es = *[0u32, 1, 3].choose(self.rng).unwrap_or(&0);
        let mut set = vec![
            ("ELEM_SIZE", es),
            ("INDEXED", u32::from(self.rng.gen_bool(0.9))),
            ("SRC_GPR", u32::from(FETCH_GPR)),
            ("BURST_COUNT", u32::from(burst)),
            ("DST_GPR", u32::from(dst)),
            ("ARRAY_BASE", self.rng.gen_range(0..=MAX_SCATTER_BASE)),
            ("DATA_FORMAT", u32::from(fmt)),
            ("NUM_FORMAT_ALL", (w1 >> 28) & 3),
            ("FORMAT_COMP_ALL", u32::from(self.rng.gen_bool(0.3))),
        ];
        for (c, name) in ["DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W"]
            .into_iter()
            .enumerate()
        {
            set.push((name, u32::from(dst_sel[c])));
        }
        mem_words(self.class, FetchOp::MEM_RD_SCATTER, &set)
    }

    /// MEM_RD_SCRATCH of the program's element size (one 32-bit field per dword), indexed
    /// by a random GPR channel (the lifter clamps the index).
    fn scratch_read(&mut self) -> FetchInst {
        let es = u32::from(self.scratch_es);
        let burst = self.rng.gen_range(0..=2u8);
        let formats: &[u32] = if es == 0 { &[13, 14] } else { &[29, 30] };
        let mut set = vec![
            ("ELEM_SIZE", es),
            ("INDEXED", u32::from(self.rng.gen_bool(0.8))),
            ("SRC_GPR", u32::from(self.rng.gen_range(0..GPR_POOL))),
            ("SRC_SEL_X", self.rng.gen_range(0..4)),
            ("BURST_COUNT", u32::from(burst)),
            (
                "DST_GPR",
                u32::from(self.rng.gen_range(0..GPR_POOL - burst)),
            ),
            ("ARRAY_BASE", self.rng.gen_range(0..=15)),
            ("ARRAY_SIZE", self.rng.gen_range(0..=31)),
            ("DATA_FORMAT", *formats.choose(self.rng).unwrap_or(&13)),
        ];
        for name in ["DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W"] {
            set.push((
                name,
                *[0u32, 1, 2, 3, 4, 5, 7].choose(self.rng).unwrap_or(&7),
            ));
        }
        mem_words(self.class, FetchOp::MEM_RD_SCRATCH, &set)
    }

    /// MEM_WR_SCRATCH of the program's element size: a burst of up to 3 from random GPRs,
    /// indexed (TYPE bit 0) by a random GPR's x, which the lifter clamps into the array.
    pub fn scratch_node(&mut self) -> Node {
        let burst = self.rng.gen_range(0..=2u8);
        Node::Scratch(CfMem {
            op: CfMemOp::MEM_WR_SCRATCH,
            rat: None,
            array_base: self.rng.gen_range(0..=15),
            kind: self.rng.gen_range(0..=3),
            rw_gpr: self.rng.gen_range(0..GPR_POOL - burst),
            rw_rel: false,
            index_gpr: self.rng.gen_range(0..GPR_POOL),
            elem_size: self.scratch_es,
            array_size: self.rng.gen_range(0..=31),
            comp_mask: self.rng.gen_range(1..=15),
            burst_count: burst,
            valid_pixel_mode: false,
            end_of_program: false,
            mark: false,
            barrier: true,
        })
    }

    /// A Cayman GDS clause of 1-3 MEM_GDS ops at byte `R[GDS_GPR].x` (masked to
    /// [`GDS_ADDR_MASK`], dword aligned), data from `R[GDS_GPR].yz` or the constants 0/1.0.
    pub fn gds_node(&mut self) -> Node {
        let data = [0xffff_ffff, 0xff, 0x8000_00ff];
        let y = *data.choose(self.rng).unwrap_or(&0xffff_ffff);
        let z = *data.choose(self.rng).unwrap_or(&0xffff_ffff);
        let setup = self.setup_clause(GDS_GPR, [Some(GDS_ADDR_MASK & !3), Some(y), Some(z), None]);
        let ops = gds_ops(self.class);
        let n = self.rng.gen_range(1..=3);
        let insts = (0..n)
            .map(|_| {
                let op = *ops.choose(self.rng).unwrap_or(&LdsOp::ADD);
                let info = tables::lds_info(op);
                let mut set = vec![
                    ("SRC_GPR", u32::from(GDS_GPR)),
                    ("SRC_SEL_X", 0),
                    ("SRC_SEL_Y", *[1u32, 1, 4, 5].choose(self.rng).unwrap_or(&1)),
                    ("SRC_SEL_Z", *[2u32, 2, 4, 5].choose(self.rng).unwrap_or(&2)),
                    ("DST_GPR", u32::from(self.rng.gen_range(0..GPR_POOL))),
                    ("GDS_OP", u32::from(info.opcode[self.class.index()])),
                ];
                let sels: &[u32] = match (info.ret, lds_returns_b(op)) {
                    (false, _) => &[7],
                    (true, false) => &[0, 4, 5, 7],
                    (true, true) => &[0, 1, 4, 5, 7],
                };
                for name in ["DST_SEL_X", "DST_SEL_Y", "DST_SEL_Z", "DST_SEL_W"] {
                    set.push((name, *sels.choose(self.rng).unwrap_or(&7)));
                }
                mem_words(self.class, FetchOp::MEM_GDS, &set)
            })
            .collect();
        Node::Gds { setup, insts }
    }

    /// A VTX read of a random LLVM template at `R[FETCH_GPR].c + OFFSET`; a channel `c` with
    /// `lane[c]` (a lane-pattern address) reads the pool, directly (no BUFFER_INDEX_MODE),
    /// mostly at OFFSET 0.
    fn vtx(&mut self, lane: [bool; 4]) -> FetchInst {
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
        let pool = lane[chan as usize];
        let buffer = if pool {
            1
        } else {
            *[1u8, 3].choose(self.rng).unwrap_or(&1)
        };
        let offset = if pool && self.rng.gen_bool(0.75) {
            0
        } else {
            self.rng.gen_range(0..=MAX_FETCH_OFFSET / comp) * comp
        };
        let dst = self.rng.gen_range(0..GPR_POOL);
        let mut w = vtx_read_words(self.class, t, dst, FETCH_GPR, buffer, offset as u16);
        w[0] |= (chan as u32) << 24;
        if self.rng.gen_bool(0.3) {
            w[1] |= 1 << 30;
        }
        // BUFFER_INDEX_MODE: buffer 1 + CF_IDX (0 or 2) is the pool or constant buffer 0.
        if self.opts.cf_index && buffer == 1 && !pool && self.rng.gen_bool(0.25) {
            w[2] |= self.rng.gen_range(1..=2u32) << 21;
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

    /// A RAT store or atomic on the pool after its index setup (with `rat_forms`: the
    /// further forms, stores through MEM_RAT too, and bursts of up to [`MAX_RAT_BURST`] more
    /// steps, strided by ELEM_SIZE + 1 (MEM_RAT, 1, 2 or 4) or ARRAY_SIZE + 1 (cacheless,
    /// at most 16) dwords).
    pub fn rat_node(&mut self) -> Node {
        let class = self.class;
        let forms = self.opts.rat_forms;
        let store = self.rng.gen_bool(0.5);
        let (op, inst, mask, comp_mask) = if store {
            let mut stores = vec![rat_store(class)];
            if forms {
                stores.extend(RAT_MORE_STORES.iter().filter(|&&r| rat_exists(class, r)));
            }
            let r = *stores.choose(self.rng).unwrap_or(&rat_store(class));
            let op = if forms && self.rng.gen_bool(0.25) {
                CfMemOp::MEM_RAT
            } else {
                CfMemOp::MEM_RAT_CACHELESS
            };
            (op, r, STORE_INDEX_MASK, self.rng.gen_range(1..=15))
        } else {
            let mut atomics: Vec<RatInst> = RAT_ATOMICS.to_vec();
            if forms {
                atomics.extend(RAT_MORE_ATOMICS);
            }
            atomics.retain(|&r| rat_exists(class, r));
            let r = *atomics.choose(self.rng).unwrap_or(&RatInst::ADD);
            (CfMemOp::MEM_RAT, r, rat_index_mask(class, r), 15)
        };
        let burst = if forms && self.rng.gen_bool(0.3) {
            self.rng.gen_range(1..=MAX_RAT_BURST)
        } else {
            0
        };
        let (elem_size, array_size) = match (forms, op) {
            (false, _) => (0, 0),
            (true, CfMemOp::MEM_RAT) => (*[0u8, 1, 3].choose(self.rng).unwrap_or(&0), 0),
            (true, _) => (0, self.rng.gen_range(0..16)),
        };
        let index = if self.opts.memory_focus && self.rng.gen_bool(0.7) {
            self.rat_lane_addr(inst, op, comp_mask, burst, elem_size, array_size)
        } else {
            AddrSrc::Masked(mask)
        };
        let setup = self.setup_clause_from(RAT_GPR, [Some(index), None, None, None]);
        let mem = CfMem {
            op,
            rat: Some(RatFields {
                id: 0,
                inst,
                index_mode: 0,
            }),
            array_base: 0,
            kind: 1,
            rw_gpr: self.rng.gen_range(0..GPR_POOL - burst),
            rw_rel: false,
            index_gpr: RAT_GPR,
            elem_size,
            array_size,
            comp_mask,
            burst_count: burst,
            valid_pixel_mode: false,
            end_of_program: false,
            mark: false,
            barrier: true,
        };
        Node::Rat { setup, mem }
    }

    /// Memory profile: the lane-pattern index of a RAT instruction, in its unit (lift/mem.rs:
    /// the element of a store, a dword for MSKOR and STORE_TYPED, a byte for the atomics and
    /// NOP_RTN), for the bytes its channels and burst steps reach.
    fn rat_lane_addr(
        &mut self,
        inst: RatInst,
        op: CfMemOp,
        comp_mask: u8,
        burst: u8,
        elem_size: u8,
        array_size: u16,
    ) -> AddrSrc {
        let stride = if op == CfMemOp::MEM_RAT_CACHELESS {
            u32::from(array_size) + 1
        } else {
            u32::from(elem_size) + 1
        };
        let steps = 4 * stride * u32::from(burst);
        let channels = 4 - (comp_mask & 0xf).leading_zeros().saturating_sub(4);
        let (unit, extent, aligned) = match inst {
            RatInst::STORE_SHORT => (2, 2 * channels, false),
            RatInst::STORE_BYTE => (1, channels, false),
            RatInst::STORE_TYPED | RatInst::MSKOR => (4, 4, false),
            r if is_generated_atomic(self.class, r) => (1, 4, true),
            _ => (4, 4 * channels, false),
        };
        self.lane_addr(unit, extent + steps, POOL_BYTES, aligned, RAT_EDGE)
    }

    /// The LDS address group, an LDS_IDX_OP group, and for a returning op the groups that
    /// read its queue entry (a peek, sometimes, then the pop).
    pub fn lds_groups(&mut self, st: &mut ClauseState) -> Vec<AluGroup> {
        let ops = lds_ops(self.class);
        let op = *ops.choose(self.rng).unwrap_or(&LdsOp::WRITE);
        let info = tables::lds_info(op);
        let (mask, bytes) = match op {
            LdsOp::BYTE_WRITE | LdsOp::BYTE_READ_RET | LdsOp::UBYTE_READ_RET => (LDS_ADDR_MASK, 1),
            LdsOp::SHORT_WRITE | LdsOp::SHORT_READ_RET | LdsOp::USHORT_READ_RET => {
                (LDS_ADDR_MASK & !1, 2)
            }
            _ => (LDS_ADDR_MASK & !3, 4),
        };
        let mut srcs = [
            Some(AddrSrc::Masked(mask)),
            Some(AddrSrc::Masked(mask)),
            None,
            None,
        ];
        if self.opts.memory_focus {
            // Placed for the first access; the second one of the REL and two-address forms
            // (IDX_OFFSET dwords or 64-dword steps further) may leave the LDS, which reads 0
            // and drops writes there.
            for src in srcs.iter_mut().take(2) {
                if self.rng.gen_bool(0.7) {
                    *src = Some(self.lane_addr(1, bytes, LDS_BYTES, false, LDS_EDGE));
                }
            }
            // y only when the op reads a second address.
            if !lds_src1_is_address(op) {
                srcs[1] = None;
            }
        }
        let mut out = vec![self.addr_group(st, LDS_ADDR_GPR, srcs)];
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
        let others = if self.opts.memory_focus { 1 } else { 2 };
        for _ in 0..self.rng.gen_range(0..=others) {
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

/// The memory instructions of a program (every fetch-clause instruction, every CF memory
/// instruction, every LDS_IDX_OP) and all its instructions (those and the other ALU
/// instructions; not the control-flow words).
pub fn memory_instructions(p: &crate::inst::Program) -> (usize, usize) {
    let mut memory =
        p.cf.iter()
            .filter(|e| matches!(e.inst, crate::inst::CfInst::Mem(_)))
            .count();
    let mut alu = 0;
    for c in &p.clauses {
        match &c.body {
            crate::inst::ClauseBody::Fetch(f) => memory += f.len(),
            crate::inst::ClauseBody::Alu(groups) => {
                for i in groups.iter().flat_map(|g| &g.insts) {
                    if i.op == AluOp::LDS_IDX_OP {
                        memory += 1;
                    } else {
                        alu += 1;
                    }
                }
            }
        }
    }
    (memory, memory + alu)
}
