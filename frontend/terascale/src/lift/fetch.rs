//! Vertex-fetch clauses: buffer loads (VTX_READ_*; notes §5, seed 000 9.3 L9297-L9524).
//!
//! A fetch reads `SRC_GPR.SRC_SEL_X` (a byte offset; [`crate::launch::fetch_address`] adds
//! OFFSET, wrapping at 32 bits) from buffer 1 (the pool) or 3 (constant buffer 0), for the
//! active lanes; an unmapped address is a guest fault. The element is `DATA_FORMAT`'s
//! components, each a dword, short or byte, zero- or sign-extended per FORMAT_COMP_ALL when
//! NUM_FORMAT_ALL is INT (LLVM's VTX_READ_8/16/32/64/128 use FMT_8, FMT_16, FMT_32,
//! FMT_32_32, FMT_32_32_32_32 as integers). DST_SEL picks a component (0-3), 0 (4), 1 (5:
//! integer 1 under INT, else 1.0f) or masks the channel (7). Missing components read 0 (x-z)
//! and 1 (w). Instructions of a clause run in order (each sees the previous one's writes).
use super::{LiftError, Lifter};
use crate::inst::{CfWord, FetchInst};
use crate::launch::{fetch_buffer, Resource};
use crate::tables::FetchOp;
use wavejit_ir::{MemSpace, MemWidth, Op, ScalarType};

use ScalarType::{I32, I64};

/// (components, bytes per component) of the raw data formats.
fn raw_format(fmt: u8) -> Option<(u32, MemWidth)> {
    Some(match fmt {
        1 => (1, MemWidth::B8),
        3 => (2, MemWidth::B8),
        5 => (1, MemWidth::B16),
        7 => (2, MemWidth::B16),
        10 => (4, MemWidth::B8),
        13 => (1, MemWidth::B32),
        23 => (4, MemWidth::B16),
        29 => (2, MemWidth::B32),
        34 => (4, MemWidth::B32),
        _ => return None,
    })
}

impl Lifter<'_> {
    pub fn lift_fetch_clause(
        &mut self,
        cf: u32,
        w: &CfWord,
        insts: &[FetchInst],
    ) -> Result<(), LiftError> {
        for (k, f) in insts.iter().enumerate() {
            let at = w.addr + 2 * k as u32;
            self.b.begin_guest_inst(8 * at);
            self.lift_vtx(cf, at, f)?;
        }
        Ok(())
    }

    fn lift_vtx(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let text = format!("{} R{}, #{}", f.op.name(), f.dst_gpr(), f.buffer_id());
        let un = |me: &Self, why: &str| me.unsupported(cf, at, text.clone(), why);
        if f.op == FetchOp::MEM_RD_SCRATCH {
            return self.lift_scratch_read(cf, at, f);
        }
        if f.op != FetchOp::VTX_FETCH {
            return Err(un(self, "fetch instruction not lifted"));
        }
        if f.src_rel() || f.dst_rel() {
            return Err(un(self, "relative GPR addressing in a fetch"));
        }
        let base = match fetch_buffer(u32::from(f.buffer_id())) {
            Some(Resource::GlobalPool) => self.l.pool_base(),
            Some(Resource::KernelArgs) => self.l.const_buffer(0),
            _ => {
                return Err(un(
                    self,
                    "fetch buffer id other than 1 (pool) and 3 (arguments)",
                ))
            }
        };
        let Some((comps, width)) = raw_format(f.data_format()) else {
            return Err(un(self, "data format not lifted"));
        };
        if f.num_format_all() != 1 && width != MemWidth::B32 {
            return Err(un(self, "normalized or scaled data format"));
        }
        if f.endian_swap() != 0 {
            return Err(un(self, "endian swap"));
        }
        let signed = f.format_comp_all();
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let sr = self.l.gpr(u32::from(f.src_gpr()), u32::from(f.src_sel_x()));
        let off = self.b.use_reg(sr, I32);
        let k = self.b.i32(u32::from(f.offset()));
        let off = self.b.op(Op::Iadd, I32, &[off, k]);
        let off = self.b.op(Op::Zext, I64, &[off]);
        let bv = self.b.use_reg(base, I64);
        let addr = self.b.op(Op::Iadd, I64, &[bv, off]);
        let mut vals = Vec::new();
        for c in 0..comps {
            let ck = self.b.i64(u64::from(c * width.bytes()));
            let a = self.b.op(Op::Iadd, I64, &[addr, ck]);
            vals.push(
                self.b
                    .load(MemSpace::Global, width, signed, I32, a, Some(lanes)),
            );
        }
        let one = if f.num_format_all() == 1 {
            1
        } else {
            1f32.to_bits()
        };
        for (chan, &s) in f.dst_sel().iter().enumerate() {
            let v = match s {
                0..=3 => match vals.get(s as usize) {
                    Some(&v) => v,
                    None if s == 3 => self.b.i32(one),
                    None => self.b.i32(0),
                },
                4 => self.b.i32(0),
                5 => self.b.i32(one),
                7 => continue,
                _ => return Err(self.invalid(cf, at, text.clone(), "reserved DST_SEL 6")),
            };
            let r = self.l.gpr(u32::from(f.dst_gpr()), chan as u32);
            self.b.def_reg(r, v, Some(lanes));
        }
        Ok(())
    }
}
