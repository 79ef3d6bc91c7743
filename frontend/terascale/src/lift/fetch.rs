//! Vertex-fetch clauses: buffer loads (VTX_READ_*; notes §5, seed 000 9.3 L9297-L9524).
//!
//! A fetch reads one element at index `SRC_GPR.SRC_SEL_X` ("X = uint32 index", L9310;
//! times the fetch constant's stride, [`crate::launch::fetch_address`] adds OFFSET, both
//! wrapping at 32 bits) from a buffer the launch binds ([`crate::launch::Bindings`]:
//! Mesa's are 1, the pool, and 3, constant buffer 0, both of stride 1), for the active
//! lanes; an unmapped address is a guest fault. DATA_FORMAT, NUM_FORMAT_ALL,
//! FORMAT_COMP_ALL, SRF_MODE_ALL (the fetch constant's when USE_CONST_FIELDS is set and the
//! launch gives the constant a format) and DST_SEL give the element's IR format
//! (`vtx_format`); the IR's [`ElemFormat::load`] unpacks it. LLVM's
//! VTX_READ_8/16/32/64/128 (FMT_8, FMT_16, FMT_32, FMT_32_32, FMT_32_32_32_32 as INT) are
//! plain zero- or sign-extending loads, the same values without the format machinery.
//! Instructions of a clause run in order (each sees the previous one's writes). ENDIAN_SWAP
//! is not lifted. MEM_RD_SCRATCH is lifted by `scratch`, MEM_RD_SCATTER by `mem_rd`, MEM_GDS by
//! `gds`. BUFFER_INDEX_MODE adds CF_IDX0/1 to the buffer id (`index`); a sum naming no bound
//! buffer is a guest trap. Indexing is lifted when every bound buffer has the same stride
//! and format (the sum selects a base address only).
use super::vtx_format::{self, FormatError};
use super::{LiftError, Lifter};
use crate::inst::{CfWord, FetchInst};
use crate::launch::{ConstFormat, FetchConstant, Resource};
use crate::tables::{CfOp, FetchOp};
use wavejit_ir::{
    ElemFormat, FormatSrc, IntCC, MemSpace, MemWidth, NumFormat, Op, ScalarType, Sel, TrapKind,
    Value,
};

use ScalarType::{I1, I32, I64};

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
            // MEM_GDS and MEM_TF_WRITE run only in GDS clauses, and GDS clauses run nothing
            // else (MEM_GDS_WORD0 MEM_OP, L9829-L9832).
            let gds_op = matches!(f.op, FetchOp::MEM_GDS | FetchOp::MEM_TF_WRITE);
            if gds_op != (w.op == CfOp::GDS) {
                let text = format!("{} in a {} clause", f.op.name(), w.op.name());
                return Err(self.invalid(cf, at, text, "wrong clause type"));
            }
            if super::tex::is_tex(f.op) {
                self.lift_tex(cf, at, f)?
            } else {
                self.lift_vtx(cf, at, f)?
            }
        }
        Ok(())
    }

    /// The element format and written components of a VTX-style fetch (DATA_FORMAT,
    /// NUM_FORMAT_ALL, FORMAT_COMP_ALL, SRF_MODE_ALL, DST_SEL; see `vtx_format`).
    pub(super) fn fetch_format(
        &self,
        cf: u32,
        at: u32,
        text: &str,
        f: &FetchInst,
    ) -> Result<(ElemFormat, [bool; 4]), LiftError> {
        let own = ConstFormat {
            data_format: f.data_format(),
            num_format_all: f.num_format_all(),
            format_comp_all: f.format_comp_all(),
            srf_mode_all: f.srf_mode_all(),
        };
        self.format_of(cf, at, text, own, f.dst_sel())
    }

    /// The IR format of format fields `c` with swizzle `dst_sel`, and the written components.
    fn format_of(
        &self,
        cf: u32,
        at: u32,
        text: &str,
        c: ConstFormat,
        dst_sel: [u8; 4],
    ) -> Result<(ElemFormat, [bool; 4]), LiftError> {
        vtx_format::elem_format(
            c.data_format,
            c.num_format_all,
            c.format_comp_all,
            c.srf_mode_all,
            dst_sel,
        )
        .map_err(|e| match e {
            FormatError::Unsupported(why) => self.unsupported(cf, at, text.to_string(), why),
            FormatError::Invalid(why) => self.invalid(cf, at, text.to_string(), why),
        })
    }

    fn lift_vtx(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let text = format!("{} R{}, #{}", f.op.name(), f.dst_gpr(), f.buffer_id());
        let un = |me: &Self, why: &str| me.unsupported(cf, at, text.clone(), why);
        if f.op == FetchOp::MEM_RD_SCRATCH {
            return self.lift_scratch_read(cf, at, f);
        }
        if f.op == FetchOp::MEM_RD_SCATTER {
            return self.lift_scatter_read(cf, at, f);
        }
        if f.op == FetchOp::MEM_GDS {
            return self.lift_gds(cf, at, f);
        }
        if f.op != FetchOp::VTX_FETCH {
            return Err(un(self, "fetch instruction not lifted"));
        }
        if f.src_rel() || f.dst_rel() {
            return Err(un(self, "relative GPR addressing in a fetch"));
        }
        // BUFFER_INDEX_MODE (VTX_WORD2 [22:21]): the buffer id plus CF_IDX0/1 (`index`).
        let mode = ((f.word(2) >> 21) & 3) as u8;
        let (bv, fc) = if mode == 0 {
            let id = u32::from(f.buffer_id());
            let Some((base, fc)) = self.vtx_buffer(id) else {
                let why = format!(
                    "fetch buffer id the launch does not bind (bound: {})",
                    self.bound_fetch_text()
                );
                return Err(un(self, &why));
            };
            (self.b.use_reg(base, I64), fc)
        } else {
            self.indexed_vtx_buffer(cf, at, &text, f.buffer_id(), mode)?
        };
        // USE_CONST_FIELDS: the constant's format, and its ENDIAN_SWAP (none) for the field's.
        let (fmt, write) = match fc.format.filter(|_| f.use_const_fields()) {
            Some(c) => self.format_of(cf, at, &text, c, f.dst_sel())?,
            None if f.endian_swap() != 0 => return Err(un(self, "endian swap")),
            None => self.fetch_format(cf, at, &text, f)?,
        };
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let sr = self.l.gpr(u32::from(f.src_gpr()), u32::from(f.src_sel_x()));
        let mut off = self.b.use_reg(sr, I32);
        if fc.stride != 1 {
            let k = self.b.i32(fc.stride);
            off = self.b.op(Op::Imul, I32, &[off, k]);
        }
        let k = self.b.i32(u32::from(f.offset()));
        let off = self.b.op(Op::Iadd, I32, &[off, k]);
        let off = self.b.op(Op::Zext, I64, &[off]);
        let addr = self.b.op(Op::Iadd, I64, &[bv, off]);
        let mut vals = Vec::new();
        for (chan, &w) in write.iter().enumerate() {
            if w {
                let v = self.vtx_component(fmt, chan, addr, lanes);
                vals.push((chan as u32, v));
            }
        }
        for (chan, v) in vals {
            let r = self.l.gpr(u32::from(f.dst_gpr()), chan);
            self.b.def_reg(r, v, Some(lanes));
        }
        Ok(())
    }

    /// The base address register and fetch constant of fetch buffer `id`, if the launch
    /// binds it.
    fn vtx_buffer(&self, id: u32) -> Option<(wavejit_ir::Reg, FetchConstant)> {
        let fc = self.bind.fetch_constant(id)?;
        let base = match fc.resource {
            Resource::GlobalPool => self.l.pool_base(),
            Resource::KernelArgs => self.l.const_buffer(0),
            Resource::CodeConstants => return None,
        };
        Some((base, fc))
    }

    /// The fetch buffer ids the launch binds, in order.
    fn bound_fetch_ids(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.bind.fetch.iter().map(|(i, _)| *i).collect();
        ids.retain(|&i| self.vtx_buffer(i).is_some());
        ids.sort_unstable();
        ids
    }

    /// [`Self::bound_fetch_ids`] as text.
    fn bound_fetch_text(&self) -> String {
        let ids: Vec<String> = self.bound_fetch_ids().iter().map(u32::to_string).collect();
        ids.join(", ")
    }

    /// The base address of buffer `id` + CF_IDX (index mode `mode`) and the fetch constant
    /// every bound buffer shares; a sum naming no buffer a launch binds ends the wave with a
    /// guest trap.
    fn indexed_vtx_buffer(
        &mut self,
        cf: u32,
        at: u32,
        text: &str,
        id: u8,
        mode: u8,
    ) -> Result<(Value, FetchConstant), LiftError> {
        let Some(eff) = self.indexed_id(u32::from(id), mode) else {
            return Err(self.invalid(cf, at, text.to_string(), "BUFFER_INDEX_MODE 3"));
        };
        let bound = self.bound_fetch_ids();
        let consts: Vec<FetchConstant> = bound
            .iter()
            .filter_map(|&i| Some(self.vtx_buffer(i)?.1))
            .collect();
        let same =
            |a: &FetchConstant, b: &FetchConstant| a.stride == b.stride && a.format == b.format;
        let Some(fc) = consts.first().copied() else {
            return Err(self.unsupported(cf, at, text.to_string(), "no fetch buffer is bound"));
        };
        if !consts.iter().all(|c| same(c, &fc)) {
            let why = "BUFFER_INDEX_MODE over fetch constants of different strides or formats";
            return Err(self.unsupported(cf, at, text.to_string(), why));
        }
        let mut ok = self.b.bool(false);
        for &i in &bound {
            let k = self.b.i32(i);
            let is = self.b.op(Op::Icmp(IntCC::Eq), I1, &[eff, k]);
            ok = self.b.op(Op::Or, I1, &[ok, is]);
        }
        let bad = self.b.op(Op::Not, I1, &[ok]);
        let why = format!(
            "{text}: buffer id + CF_IDX names no bound buffer (bound: {})",
            self.bound_fetch_text()
        );
        self.check(bad, TrapKind::Explicit(why));
        let eff = self
            .indexed_id(u32::from(id), mode)
            .expect("mode checked above");
        let mut base = self.b.i64(0);
        for &i in &bound {
            let (r, _) = self.vtx_buffer(i).expect("bound");
            let v = self.b.use_reg(r, I64);
            let k = self.b.i32(i);
            let is = self.b.op(Op::Icmp(IntCC::Eq), I1, &[eff, k]);
            base = self.b.op(Op::Select, I64, &[is, v, base]);
        }
        Ok((base, fc))
    }

    /// Register component `chan` of a fetch of `fmt` at `addr`. Integer formats of whole
    /// bytes, shorts or dwords (LLVM's VTX_READ_*) are plain loads, which the JIT compiles
    /// inline; every other format is a formatted load (the IR's unpacking).
    pub(super) fn vtx_component(
        &mut self,
        fmt: ElemFormat,
        chan: usize,
        addr: Value,
        lanes: Value,
    ) -> Value {
        let fields = fmt.data.fields();
        let width = match fields.first() {
            Some(8) => Some(MemWidth::B8),
            Some(16) => Some(MemWidth::B16),
            Some(32) => Some(MemWidth::B32),
            _ => None,
        };
        let plain = matches!(fmt.num, NumFormat::Uint | NumFormat::Sint)
            || (fmt.num == NumFormat::Float && width == Some(MemWidth::B32));
        let Some(width) = width.filter(|_| plain && fields.iter().all(|&n| n == fields[0])) else {
            let src = FormatSrc::Static(fmt);
            let g = MemSpace::Global;
            return self
                .b
                .load_format(g, src, chan as u8, false, addr, Some(lanes));
        };
        let one = if fmt.num.is_float_valued() {
            1f32.to_bits()
        } else {
            1
        };
        let i = match fmt.swizzle[chan] {
            Sel::Zero => return self.b.i32(0),
            Sel::One => return self.b.i32(one),
            s => s as usize - Sel::X as usize,
        };
        if i >= fields.len() {
            return self.b.i32(if i == 3 { one } else { 0 });
        }
        let k = self.b.i64(u64::from(width.bytes()) * i as u64);
        let a = self.b.op(Op::Iadd, I64, &[addr, k]);
        let signed = fmt.num == NumFormat::Sint;
        self.b
            .load(MemSpace::Global, width, signed, I32, a, Some(lanes))
    }
}
