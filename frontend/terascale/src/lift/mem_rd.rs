//! MEM_RD_SCATTER: a memory read in a fetch clause at a per-lane dword address of global
//! memory (3.4.3 L1031-L1063, 6.1 L2160-L2169, 6.3 L2175; MEM_RD_WORD0-2 L9685-L9811).
//!
//! # Address
//! Step `i` (0 to BURST_CNT) reads one element at dword
//! `ARRAY_BASE + INDEXED * SRC_GPR.SRC_SEL_X + i * (ELEM_SIZE + 1)` (6.1's scatter formula;
//! INDEXED "includes source-GPR in address calculation", L9713; ARRAY_SIZE has "no effect on
//! scatter", L9809) and writes it to GPR `DST_GPR + i`. The sum is taken without wrapping
//! (the GPR is unsigned). The document counts these dwords from "the global export-memory
//! base address" (3.4.2, L1029), which a compute launch does not program (Mesa's r600 driver
//! never sets it): wavejit counts them from the pool base, the memory RAT 0 and vertex-fetch
//! buffer 1 cover ([`crate::launch`]). Every access is a checked global access (an address
//! outside the pool's mapped memory is a guest fault); only active lanes read.
//!
//! # Element
//! DATA_FORMAT, NUM_FORMAT_ALL, FORMAT_COMP_ALL, SRF_MODE_ALL and DST_SEL are the
//! vertex-fetch fields (MEM_RD_WORD1 refers to VTX_WORD1's list, L9769) and are read exactly
//! as a vertex fetch reads them (`vtx_format`, `fetch`). ELEM_SIZE sets only the burst step;
//! ELEM_SIZE 2 is illegal (L9696). Every step's loads happen before any GPR write (the
//! address register may be a destination of the burst).
//!
//! # Not lifted
//! SRC_REL/DST_REL, LDS_REQ, ENDIAN_SWAP. UNCACHED, COALESCED_READ and FETCH_WHOLE_QUAD are
//! cache and performance hints with no effect here.
use super::{LiftError, Lifter};
use crate::inst::{bits, FetchInst};
use wavejit_ir::{Op, ScalarType};

use ScalarType::{I32, I64};

impl Lifter<'_> {
    /// The MEM_RD_WORD checks MEM_RD_SCATTER and MEM_RD_SCRATCH share: no relative GPRs, no
    /// LDS_REQ, no endian swap, a burst that stays within R127. Returns BURST_COUNT.
    pub(super) fn mem_rd_burst(
        &self,
        cf: u32,
        at: u32,
        text: &str,
        f: &FetchInst,
    ) -> Result<u32, LiftError> {
        let un = |why: &str| self.unsupported(cf, at, text.to_string(), why);
        let [w0, _, w2] = f.words;
        if f.src_rel() || f.dst_rel() {
            return Err(un("relative GPR addressing in a fetch"));
        }
        if bits(w0, 30, 1) != 0 {
            return Err(un("LDS_REQ (return data to the LDS)"));
        }
        if bits(w2, 16, 2) != 0 {
            return Err(un("endian swap"));
        }
        let burst = bits(w0, 26, 4);
        if u32::from(f.dst_gpr()) + burst > 127 {
            return Err(self.invalid(cf, at, text.to_string(), "burst past R127"));
        }
        Ok(burst)
    }

    /// MEM_RD_SCATTER in a fetch clause.
    pub fn lift_scatter_read(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let text = format!("{} R{}", f.op.name(), f.dst_gpr());
        let [w0, _, w2] = f.words;
        let es = bits(w0, 5, 2);
        if es == 2 {
            let why = "ELEM_SIZE 2 (three dwords are illegal)";
            return Err(self.invalid(cf, at, text.clone(), why));
        }
        let burst = self.mem_rd_burst(cf, at, &text, f)?;
        let dst = u32::from(f.dst_gpr());
        let (fmt, write) = self.fetch_format(cf, at, &text, f)?;
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let array_base = self.b.i64(u64::from(bits(w2, 0, 13)));
        // A per-lane access needs a lane-shaped address even when no GPR takes part.
        let dword = if bits(w0, 12, 1) == 1 {
            let r = self.l.gpr(u32::from(f.src_gpr()), u32::from(f.src_sel_x()));
            let index = self.b.use_reg(r, I32);
            let index = self.b.op(Op::Zext, I64, &[index]);
            self.b.op(Op::Iadd, I64, &[array_base, index])
        } else {
            self.b.splat(array_base)
        };
        let four = self.b.i64(4);
        let off = self.b.op(Op::Imul, I64, &[dword, four]);
        let pr = self.l.pool_base();
        let pool = self.b.use_reg(pr, I64);
        let base = self.b.op(Op::Iadd, I64, &[pool, off]);
        let mut writes = Vec::new();
        for i in 0..=burst {
            let k = self.b.i64(4 * u64::from(i * (es + 1)));
            let addr = self.b.op(Op::Iadd, I64, &[base, k]);
            for (chan, &w) in write.iter().enumerate() {
                if w {
                    let v = self.vtx_component(fmt, chan, addr, lanes);
                    writes.push((self.l.gpr(dst + i, chan as u32), v));
                }
            }
        }
        for (r, v) in writes {
            self.b.def_reg(r, v, Some(lanes));
        }
        Ok(())
    }
}
