//! MUBUF/MTBUF: buffer addressing through a V# resource (CLRX doc/GcnMemHandling.md).
//!
//! V#: BASE `[47:0]`, STRIDE `[61:48]`, SWIZZLE_EN `[63]`, NUM_RECORDS `[95:64]`, ELEMSIZE `[116:115]`
//! (2 << n bytes), INDEXSTRIDE `[118:117]` (8 << n), TID_ENABLE `[119]`. Per lane:
//! - `index = (idxen ? vindex : 0) + (TID_ENABLE ? lane : 0)`,
//!   `aoffset = inst_offset + (offen ? voffset : 0)` (vindex first when both are enabled);
//! - unswizzled `bufoffset = index * STRIDE + aoffset` (32-bit);
//!   swizzled `bufoffset = aoffset % ELEMSIZE + ELEMSIZE * (index % INDEXSTRIDE)
//!   + INDEXSTRIDE * (index / INDEXSTRIDE * STRIDE + aoffset / ELEMSIZE * ELEMSIZE)`;
//! - `address = BASE + soffset + bufoffset`.
//!
//! Range check (reads give 0, writes and atomics are dropped): with STRIDE = 0, or with
//! neither idxen nor TID_ENABLE, out of range when `bufoffset + soffset >= NUM_RECORDS`
//! (the doc's `bufoffset >= NUM_RECORDS - soffset` without 32-bit wrap-around); otherwise
//! when `index >= NUM_RECORDS` or `aoffset >= STRIDE`. Multi-dword accesses are checked per
//! dword (AMD GCN3 ISA §8.1.5), atomics as a whole. gfx6/7 `addr64` (address = BASE + vaddr64 +
//! soffset + inst_offset) is never range-checked: LLVM builds such V#s with NUM_RECORDS = 0
//! (notes/amd_launch_abi.md §3.3).
//!
//! Formatted accesses (MTBUF and MUBUF `*_format_*`) are lifted by `buffer_format.rs` with
//! the addressing and range check of this module, applied once per element.
//!
//! `lds` (GcnMemHandling.md): `buffer_load_{ubyte,sbyte,ushort,sshort,dword,format_x}` write the loaded
//! value, zero-extended to a dword (the doc says zero-extended for every narrow width), to LDS
//! at `(M0 & 0xffff) + lane * 4` (LDS_BASE is 0: the LDS space is the wave's own allocation)
//! instead of VDATA; out-of-range lanes store 0. `tfe` on a load: VDATA has one more VGPR,
//! the fail status, written with 0 for every active lane (an emulated access never takes the
//! texture-fail path). `lds` with `tfe` is illegal (same doc); `tfe` on stores and atomics and
//! `lds` on other opcodes are rejected.
use super::buffer_format::is_formatted;
use super::smem::atomic_of;
use super::{LiftError, Lifter};
use crate::inst::{Encoding, Inst, Opcode, Operand};
use crate::tables::{flags, Field};
use wavejit_ir::{IntCC, MemSpace, MemWidth, Op, ScalarType, Value};
use ScalarType::*;

/// The uniform V# fields and per-lane inputs of one buffer instruction.
pub(super) struct Access {
    /// V# word 3 (DST_SEL, NUM_FORMAT, DATA_FORMAT, ...).
    pub word3: Value,
    base: Value,
    stride: Value,
    num_records: Value,
    swizzle: Value,
    elem_shift: Value,
    istride_shift: Value,
    soffset: Value,
    /// `index` (lane i32) and `voffset + inst_offset` before the component offset.
    index: Value,
    aoffset: Value,
    /// idxen || TID_ENABLE (uniform i1).
    indexed: Value,
    /// addr64: the per-lane 64-bit address without range checking.
    addr64: Option<Value>,
}

impl Lifter<'_> {
    fn v_field(&mut self, w: Value, lo: u32, width: u32) -> Value {
        let kl = self.b.i32(lo);
        let kw = self.b.i32(width);
        self.b.op(Op::Ubfe, I32, &[w, kl, kw])
    }

    fn access(&mut self, inst: &Inst) -> Result<Access, LiftError> {
        let Some(rsrc) = inst
            .operand(Field::Srsrc)
            .and_then(|o| self.sreg_of(o.value))
        else {
            return Err(self.invalid(inst, "missing resource"));
        };
        if !self.g.layout.contains(rsrc, 4) {
            return Err(self.invalid(inst, "resource outside the SGPR file"));
        }
        let w: Vec<Value> = (0..4)
            .map(|i| self.b.use_reg(rsrc.offset(i), I32))
            .collect();
        let lo = self.b.op(Op::Zext, I64, &[w[0]]);
        let hi = self.v_field(w[1], 0, 16);
        let hi = self.b.op(Op::Zext, I64, &[hi]);
        let k32 = self.b.i32(32);
        let hi = self.b.op(Op::Shl, I64, &[hi, k32]);
        let base = self.b.op(Op::Or, I64, &[lo, hi]);
        let stride = self.v_field(w[1], 16, 14);
        let swz = self.v_field(w[1], 31, 1);
        let swizzle = self.nz(swz);
        let es = self.v_field(w[3], 19, 2);
        let one = self.b.i32(1);
        let elem_shift = self.b.op(Op::Iadd, I32, &[es, one]);
        let is = self.v_field(w[3], 21, 2);
        let three = self.b.i32(3);
        let istride_shift = self.b.op(Op::Iadd, I32, &[is, three]);
        let tidf = self.v_field(w[3], 23, 1);
        let tid = self.nz(tidf);
        let soffset = match inst.operand(Field::Soffset).map(|o| o.value) {
            Some(v) => self.read_scalar(inst, v, I32)?,
            None => self.b.i32(0),
        };
        let m = inst.mem;
        let vaddr = match inst.operand(Field::Addr).map(|o| o.value) {
            Some(Operand::Vgpr(n)) => Some(n as u32),
            _ => None,
        };
        let need = |s: &Self| s.invalid(inst, "missing address VGPR");
        let inst_off = self.b.i32(m.offset as u32);
        if m.addr64 {
            let n = vaddr.ok_or_else(|| need(self))?;
            let v = self.read_vgpr(inst, n, I64)?;
            let s64 = self.b.op(Op::Zext, I64, &[soffset]);
            let o64 = self.b.op(Op::Zext, I64, &[inst_off]);
            let a = self.b.op(Op::Iadd, I64, &[base, v]);
            let a = self.b.op(Op::Iadd, I64, &[a, s64]);
            let a = self.b.op(Op::Iadd, I64, &[a, o64]);
            let z = self.b.i32(0);
            let f = self.b.bool(false);
            return Ok(Access {
                word3: w[3],
                base,
                stride,
                num_records: w[2],
                swizzle,
                elem_shift,
                istride_shift,
                soffset,
                index: z,
                aoffset: z,
                indexed: f,
                addr64: Some(a),
            });
        }
        let (vindex, voffset) = match (m.idxen, m.offen) {
            (true, true) => {
                let n = vaddr.ok_or_else(|| need(self))?;
                (
                    Some(self.read_vgpr(inst, n, I32)?),
                    Some(self.read_vgpr(inst, n + 1, I32)?),
                )
            }
            (true, false) => (
                Some(self.read_vgpr(inst, vaddr.ok_or_else(|| need(self))?, I32)?),
                None,
            ),
            (false, true) => (
                None,
                Some(self.read_vgpr(inst, vaddr.ok_or_else(|| need(self))?, I32)?),
            ),
            (false, false) => (None, None),
        };
        let l = self.b.lane_id();
        let zero = self.b.i32(0);
        let t = self.b.op(Op::Select, I32, &[tid, l, zero]);
        let index = match vindex {
            Some(v) => self.b.op(Op::Iadd, I32, &[v, t]),
            None => t,
        };
        let aoffset = match voffset {
            Some(v) => self.b.op(Op::Iadd, I32, &[v, inst_off]),
            None => inst_off,
        };
        let idxen = self.b.bool(m.idxen);
        let indexed = self.b.op(Op::Or, I1, &[idxen, tid]);
        Ok(Access {
            word3: w[3],
            base,
            stride,
            num_records: w[2],
            swizzle,
            elem_shift,
            istride_shift,
            soffset,
            index,
            aoffset,
            indexed,
            addr64: None,
        })
    }

    /// (address, in-range mask) of the bytes at `extra` past the access's offset.
    pub(super) fn component(&mut self, a: &Access, extra: u32) -> (Value, Option<Value>) {
        if let Some(base) = a.addr64 {
            let k = self.b.i64(extra as u64);
            let addr = self.b.op(Op::Iadd, I64, &[base, k]);
            return (self.b.splat(addr), None);
        }
        let k = self.b.i32(extra);
        let aoff = self.b.op(Op::Iadd, I32, &[a.aoffset, k]);
        // Unswizzled.
        let is = self.b.op(Op::Imul, I32, &[a.index, a.stride]);
        let plain = self.b.op(Op::Iadd, I32, &[is, aoff]);
        // Swizzled (shifts and masks: ELEMSIZE and INDEXSTRIDE are powers of two).
        let one = self.b.i32(1);
        let em = self.b.op(Op::Shl, I32, &[one, a.elem_shift]);
        let em = self.b.op(Op::Isub, I32, &[em, one]);
        let im = self.b.op(Op::Shl, I32, &[one, a.istride_shift]);
        let im = self.b.op(Op::Isub, I32, &[im, one]);
        let off_lsb = self.b.op(Op::And, I32, &[aoff, em]);
        let off_msb = self.b.op(Op::Lshr, I32, &[aoff, a.elem_shift]);
        let idx_lsb = self.b.op(Op::And, I32, &[a.index, im]);
        let idx_msb = self.b.op(Op::Lshr, I32, &[a.index, a.istride_shift]);
        let t1 = self.b.op(Op::Shl, I32, &[idx_lsb, a.elem_shift]);
        let t2 = self.b.op(Op::Imul, I32, &[idx_msb, a.stride]);
        let t3 = self.b.op(Op::Shl, I32, &[off_msb, a.elem_shift]);
        let t23 = self.b.op(Op::Iadd, I32, &[t2, t3]);
        let t23 = self.b.op(Op::Shl, I32, &[t23, a.istride_shift]);
        let s = self.b.op(Op::Iadd, I32, &[off_lsb, t1]);
        let swz = self.b.op(Op::Iadd, I32, &[s, t23]);
        let bufoff = self.b.op(Op::Select, I32, &[a.swizzle, swz, plain]);
        // Range check.
        let b64 = self.b.op(Op::Zext, I64, &[bufoff]);
        let s64 = self.b.op(Op::Zext, I64, &[a.soffset]);
        let n64 = self.b.op(Op::Zext, I64, &[a.num_records]);
        let rel = self.b.op(Op::Iadd, I64, &[b64, s64]);
        let raw_ok = self.b.op(Op::Icmp(IntCC::Ult), I1, &[rel, n64]);
        let idx_ok = self
            .b
            .op(Op::Icmp(IntCC::Ult), I1, &[a.index, a.num_records]);
        let off_ok = self.b.op(Op::Icmp(IntCC::Ult), I1, &[aoff, a.stride]);
        let struct_ok = self.b.op(Op::And, I1, &[idx_ok, off_ok]);
        let z = self.b.i32(0);
        let strided = self.b.op(Op::Icmp(IntCC::Ne), I1, &[a.stride, z]);
        let use_struct = self.b.op(Op::And, I1, &[strided, a.indexed]);
        let ok = self.b.op(Op::Select, I1, &[use_struct, struct_ok, raw_ok]);
        let addr = self.b.op(Op::Iadd, I64, &[a.base, s64]);
        let addr = self.b.op(Op::Iadd, I64, &[addr, b64]);
        (self.b.splat(addr), Some(ok))
    }

    pub(super) fn lane_and(&mut self, exec: Value, ok: Option<Value>) -> Value {
        match ok {
            Some(ok) => {
                let ok = self.b.splat(ok);
                self.b.op(Op::And, I1, &[exec, ok])
            }
            None => exec,
        }
    }

    pub(crate) fn buffer(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let op = inst.opcode;
        if matches!(op, BUFFER_WBINVL1 | BUFFER_WBINVL1_SC | BUFFER_WBINVL1_VOL) {
            return Ok(());
        }
        let m = inst.mem;
        if m.lds && m.tfe {
            return Err(self.invalid(inst, "lds and tfe together"));
        }
        let store = inst.info.has(flags::STORE);
        if m.tfe && (store || inst.info.has(flags::ATOMIC)) {
            return Err(self.unsupported(inst, "tfe on a buffer store or atomic"));
        }
        if m.lds {
            return self.buffer_load_lds(inst);
        }
        let name = op.name();
        let Some(vdata) = inst.operand(Field::Vdata).copied() else {
            return Err(self.invalid(inst, "missing data operand"));
        };
        let Operand::Vgpr(vd) = vdata.value else {
            return Err(self.invalid(inst, "data is not a VGPR"));
        };
        let vd = vd as u32;
        let a = self.access(inst)?;
        let exec = self.exec_mask();
        if inst.info.has(flags::ATOMIC) {
            let Some((aop, wide)) = atomic_of(name) else {
                return Err(self.unsupported(inst, "atomic without semantics"));
            };
            let (t, width) = match (wide, aop.is_float()) {
                (true, false) => (I64, MemWidth::B64),
                (false, false) => (I32, MemWidth::B32),
                (true, true) => (F64, MemWidth::B64),
                (false, true) => (F32, MemWidth::B32),
            };
            let data = self.read_vgpr(inst, vd, t)?;
            let cmp = if aop.takes_cmp() {
                let n = if wide { 2 } else { 1 };
                Some(self.read_vgpr(inst, vd + n, t)?)
            } else {
                None
            };
            let (addr, ok) = self.component(&a, 0);
            let mask = self.lane_and(exec, ok);
            let old = self
                .b
                .atomic(aop, MemSpace::Global, width, addr, data, cmp, Some(mask));
            if m.glc {
                // Out-of-range lanes return 0 (the atomic yields 0 for masked-off lanes).
                self.write_vgpr(inst, vd, old, exec)?;
            }
            return Ok(());
        }
        if is_formatted(inst) {
            return self.buffer_format(inst, &a, vd, store, exec);
        }
        let (width, signed, d16) = match op {
            BUFFER_LOAD_UBYTE | BUFFER_STORE_BYTE => (MemWidth::B8, false, None),
            BUFFER_LOAD_SBYTE => (MemWidth::B8, true, None),
            BUFFER_LOAD_USHORT | BUFFER_STORE_SHORT => (MemWidth::B16, false, None),
            BUFFER_LOAD_SSHORT => (MemWidth::B16, true, None),
            BUFFER_LOAD_UBYTE_D16 => (MemWidth::B8, false, Some(false)),
            BUFFER_LOAD_UBYTE_D16_HI | BUFFER_STORE_BYTE_D16_HI => {
                (MemWidth::B8, false, Some(true))
            }
            BUFFER_LOAD_SBYTE_D16 => (MemWidth::B8, true, Some(false)),
            BUFFER_LOAD_SBYTE_D16_HI => (MemWidth::B8, true, Some(true)),
            BUFFER_LOAD_SHORT_D16 => (MemWidth::B16, false, Some(false)),
            BUFFER_LOAD_SHORT_D16_HI | BUFFER_STORE_SHORT_D16_HI => {
                (MemWidth::B16, false, Some(true))
            }
            _ => (MemWidth::B32, false, None),
        };
        // Data VGPRs, without the tfe status VGPR.
        let dwords = vdata.dwords as u32 - m.tfe as u32;
        let comps = if width == MemWidth::B32 { dwords } else { 1 };
        self.untyped_access(inst, &a, (width, signed, d16), vd, comps, store, exec)?;
        if m.tfe {
            let z = self.b.i32(0);
            let z = self.b.splat(z);
            self.write_vgpr(inst, vd + comps, z, exec)?;
        }
        Ok(())
    }

    /// `comps` components of `width` (dwords for B32), each range-checked on its own.
    #[allow(clippy::too_many_arguments)]
    fn untyped_access(
        &mut self,
        inst: &Inst,
        a: &Access,
        (width, signed, d16): (MemWidth, bool, Option<bool>),
        vd: u32,
        comps: u32,
        store: bool,
        exec: Value,
    ) -> Result<(), LiftError> {
        for i in 0..comps {
            let (addr, ok) = self.component(a, 4 * i);
            let mask = self.lane_and(exec, ok);
            if store {
                self.store_component(inst, vd + i, width, d16, addr, mask)?;
            } else {
                let v = self
                    .b
                    .load(MemSpace::Global, width, signed, I32, addr, Some(mask));
                self.load_component(inst, vd + i, v, d16, exec)?;
            }
        }
        Ok(())
    }

    /// A MUBUF load with `lds` set: the value goes to LDS at `(M0 & 0xffff) + lane * 4`.
    fn buffer_load_lds(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let width = match inst.opcode {
            BUFFER_LOAD_UBYTE | BUFFER_LOAD_SBYTE => Some(MemWidth::B8),
            BUFFER_LOAD_USHORT | BUFFER_LOAD_SSHORT => Some(MemWidth::B16),
            BUFFER_LOAD_DWORD => Some(MemWidth::B32),
            BUFFER_LOAD_FORMAT_X => None,
            _ => return Err(self.unsupported(inst, "lds on this buffer opcode")),
        };
        if inst.encoding != Encoding::Mubuf {
            return Err(self.unsupported(inst, "lds on a typed buffer load"));
        }
        let a = self.access(inst)?;
        let exec = self.exec_mask();
        let (addr, ok) = self.component(&a, 0);
        let mask = self.lane_and(exec, ok);
        // Zero-extended for the signed widths too (GcnMemHandling.md); out of range reads 0
        // (a format load: its out-of-range value).
        let v = match width {
            Some(w) => self
                .b
                .load(MemSpace::Global, w, false, I32, addr, Some(mask)),
            None => self.buffer_format_lds_value(inst, &a, addr, mask),
        };
        let m0 = self.b.use_reg(self.g.m0(), I32);
        let k = self.b.i32(0xffff);
        let base = self.b.op(Op::And, I32, &[m0, k]);
        let l = self.b.lane_id();
        let two = self.b.i32(2);
        let l4 = self.b.op(Op::Shl, I32, &[l, two]);
        let base = self.b.splat(base);
        let at = self.b.op(Op::Iadd, I32, &[base, l4]);
        self.b
            .store(MemSpace::Lds, MemWidth::B32, at, v, Some(exec));
        Ok(())
    }

    /// Writes a loaded value (zero/sign-extended to i32) to VGPR `n` under `exec`; D16 loads
    /// replace one 16-bit half and keep the other.
    pub(crate) fn load_component(
        &mut self,
        inst: &Inst,
        n: u32,
        v: Value,
        d16: Option<bool>,
        exec: Value,
    ) -> Result<(), LiftError> {
        let v = match d16 {
            None => v,
            Some(hi) => {
                let old = self.read_vgpr(inst, n, I32)?;
                let m = self.b.i32(0xffff);
                let v16 = self.b.op(Op::And, I32, &[v, m]);
                let k = self.b.i32(16);
                if hi {
                    let keep = self.b.op(Op::And, I32, &[old, m]);
                    let up = self.b.op(Op::Shl, I32, &[v16, k]);
                    self.b.op(Op::Or, I32, &[keep, up])
                } else {
                    let km = self.b.i32(0xffff_0000);
                    let keep = self.b.op(Op::And, I32, &[old, km]);
                    self.b.op(Op::Or, I32, &[keep, v16])
                }
            }
        };
        self.write_vgpr(inst, n, v, exec)
    }

    /// Stores the low bytes of VGPR `n` (bits 31:16 for the D16_HI forms).
    pub(crate) fn store_component(
        &mut self,
        inst: &Inst,
        n: u32,
        width: MemWidth,
        d16: Option<bool>,
        addr: Value,
        mask: Value,
    ) -> Result<(), LiftError> {
        let v = self.read_vgpr(inst, n, I32)?;
        let v = if d16 == Some(true) {
            let k = self.b.i32(16);
            self.b.op(Op::Lshr, I32, &[v, k])
        } else {
            v
        };
        self.b.store(MemSpace::Global, width, addr, v, Some(mask));
        Ok(())
    }
}
