//! Formatted buffer accesses: MTBUF `tbuffer_load/store_format_*` and MUBUF
//! `buffer_load/store_format_*`, lifted to the IR's `load_format`/`store_format`, whose
//! conversions are defined once in [`wavejit_ir::format`].
//!
//! Where the format comes from (CLRX doc/GcnMemHandling.md, "rules for data conversion"):
//! MTBUF takes DATA_FORMAT and NUM_FORMAT from the instruction and uses the identity
//! component select; MUBUF `*_format_*` takes DATA_FORMAT, NUM_FORMAT and DST_SEL_X..W from
//! the V# (word 3, bits 18:0: exactly the IR's format code, passed unchanged). NUM_FORMAT 6 is
//! SNORM_OGL on gfx6/7 and reserved on gfx8/9 (LLVM SIDefines.h `NFMT_RESERVED_6`); a reserved
//! number format is lifted as an invalid format, like DATA_FORMAT 0 (the documents say neither
//! what happens; an invalid format touches no memory, see the IR module).
//!
//! Range checking is "all or nothing" for format instructions (AMD GCN3 ISA, buffer range
//! checking notes): one check at the element's start, by the rule `buffer.rs` applies to each
//! dword of a raw access. Out-of-range loads give 0 except components whose select is SEL_1,
//! which give one; out-of-range stores write nothing.
//!
//! Registers: one VGPR per component (x first). `_d16` forms hold 16-bit components: packed
//! two per VGPR (x in bits 15:0, y in 31:16) on gfx9, and one per VGPR in bits 15:0 on gfx8
//! (Tonga/Fiji, gfx80x: LLVM's `FeatureUnpackedD16VMem`; gfx810 packs like gfx9 but shares
//! [`crate::Gen::Gfx8`], so it is not modelled). Unpacked d16 loads write the component
//! zero-extended to the whole VGPR (LLVM zero-extends unpacked store data and truncates
//! unpacked load results, so the high half carries nothing); packed loads replace their halves
//! and keep a half no component lands in (the `_d16_hi` forms: bits 31:16 only, as the byte
//! and short `_d16_hi` loads do). Note: the decoder's VDATA register counts for gfx8 `_d16`
//! follow the packed layout; the lifter counts registers from the component count instead.
use super::buffer::Access;
use super::{LiftError, Lifter};
use crate::inst::{Encoding, Gen, Inst};
use wavejit_ir::{
    DataFormat, ElemFormat, FormatSrc, IntCC, MemSpace, NumFormat, Op, ScalarType, Value,
};
use ScalarType::*;

/// The register shape of a formatted access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shape {
    comps: u32,
    d16: bool,
    /// gfx9 `_d16_hi_x`: the component lives in bits 31:16.
    hi: bool,
    /// gfx9 packs two 16-bit components per VGPR.
    packed: bool,
}

impl Shape {
    fn of(inst: &Inst) -> Shape {
        let name = inst.opcode.name();
        let comps = match name.rsplit('_').next() {
            Some("xyzw") => 4,
            Some("xyz") => 3,
            Some("xy") => 2,
            _ => 1,
        };
        let d16 = name.contains("_d16");
        Shape {
            comps,
            d16,
            hi: name.contains("_d16_hi"),
            packed: d16 && inst.gen == Gen::Gfx9,
        }
    }

    /// VGPR holding component `i`, and whether it is the high half.
    fn place(self, i: u32) -> (u32, bool) {
        match (self.d16, self.packed) {
            (true, true) => (i / 2, self.hi || i % 2 == 1),
            _ => (i, false),
        }
    }

    /// Data VGPRs (without a `tfe` status VGPR).
    fn vgprs(self) -> u32 {
        if self.packed {
            self.comps.div_ceil(2)
        } else {
            self.comps
        }
    }
}

impl Lifter<'_> {
    /// The format operand of a formatted access.
    fn format_src(&mut self, inst: &Inst, a: &Access) -> FormatSrc {
        let reserved6 = inst.gen >= Gen::Gfx8;
        if inst.encoding == Encoding::Mtbuf {
            let m = inst.mem;
            let num = NumFormat::from_code(m.nfmt as u32);
            let data = if reserved6 && num == NumFormat::SnormOgl {
                DataFormat::Invalid
            } else {
                DataFormat::from_code(m.dfmt as u32)
            };
            return FormatSrc::Static(ElemFormat::new(data, num));
        }
        let k = self.b.i32(0x7_ffff);
        let code = self.b.op(Op::And, I32, &[a.word3, k]);
        if !reserved6 {
            return FormatSrc::Dynamic(code);
        }
        let k12 = self.b.i32(12);
        let k3 = self.b.i32(3);
        let num = self.b.op(Op::Ubfe, I32, &[a.word3, k12, k3]);
        let k6 = self.b.i32(6);
        let is6 = self.b.op(Op::Icmp(IntCC::Eq), I1, &[num, k6]);
        let keep = self.b.i32(0x7fff);
        let invalid = self.b.op(Op::And, I32, &[code, keep]);
        FormatSrc::Dynamic(self.b.op(Op::Select, I32, &[is6, invalid, code]))
    }

    /// A `tbuffer_*_format_*` or `buffer_*_format_*` load or store (not `lds`).
    pub(super) fn buffer_format(
        &mut self,
        inst: &Inst,
        a: &Access,
        vd: u32,
        store: bool,
        exec: Value,
    ) -> Result<(), LiftError> {
        let s = Shape::of(inst);
        let format = self.format_src(inst, a);
        let (addr, ok) = self.component(a, 0);
        let mask = self.lane_and(exec, ok);
        if store {
            let mut data = Vec::with_capacity(4);
            for i in 0..s.comps {
                let (r, hi) = s.place(i);
                let v = self.read_vgpr(inst, vd + r, I32)?;
                let v = if s.d16 {
                    let v = if hi {
                        let k = self.b.i32(16);
                        self.b.op(Op::Lshr, I32, &[v, k])
                    } else {
                        v
                    };
                    self.b.op(Op::Trunc, I16, &[v])
                } else {
                    v
                };
                data.push(v);
            }
            self.b
                .store_format(MemSpace::Global, format, addr, &data, Some(mask));
        } else {
            let vals: Vec<Value> = (0..s.comps)
                .map(|i| {
                    self.b
                        .load_format(MemSpace::Global, format, i as u8, s.d16, addr, Some(mask))
                })
                .collect();
            self.write_components(inst, s, vd, &vals, exec)?;
        }
        if inst.mem.tfe {
            let z = self.b.i32(0);
            let z = self.b.splat(z);
            self.write_vgpr(inst, vd + s.vgprs(), z, exec)?;
        }
        Ok(())
    }

    /// Writes loaded components (i32, or i16 for d16) to their VGPRs under `exec`.
    fn write_components(
        &mut self,
        inst: &Inst,
        s: Shape,
        vd: u32,
        vals: &[Value],
        exec: Value,
    ) -> Result<(), LiftError> {
        if !s.packed {
            for (i, &v) in vals.iter().enumerate() {
                let v = if s.d16 {
                    self.b.op(Op::Zext, I32, &[v])
                } else {
                    v
                };
                self.write_vgpr(inst, vd + i as u32, v, exec)?;
            }
            return Ok(());
        }
        for r in 0..s.vgprs() {
            let mut halves = [None, None];
            for (i, &v) in vals.iter().enumerate() {
                let (at, hi) = s.place(i as u32);
                if at == r {
                    halves[hi as usize] = Some(self.b.op(Op::Zext, I32, &[v]));
                }
            }
            let v = match halves {
                [Some(lo), Some(hi)] => {
                    let k = self.b.i32(16);
                    let hi = self.b.op(Op::Shl, I32, &[hi, k]);
                    self.b.op(Op::Or, I32, &[lo, hi])
                }
                [Some(lo), None] => {
                    self.load_component(inst, vd + r, lo, Some(false), exec)?;
                    continue;
                }
                [None, Some(hi)] => {
                    self.load_component(inst, vd + r, hi, Some(true), exec)?;
                    continue;
                }
                [None, None] => continue,
            };
            self.write_vgpr(inst, vd + r, v, exec)?;
        }
        Ok(())
    }

    /// `buffer_load_format_x` with `lds`: component x, as a dword, to LDS (CLRX lists it among
    /// the opcodes that can load to LDS).
    pub(super) fn buffer_format_lds_value(
        &mut self,
        inst: &Inst,
        a: &Access,
        addr: Value,
        mask: Value,
    ) -> Value {
        let format = self.format_src(inst, a);
        self.b
            .load_format(MemSpace::Global, format, 0, false, addr, Some(mask))
    }
}

/// Whether `inst` is a formatted buffer access (MTBUF, or MUBUF `*_format_*`).
pub(super) fn is_formatted(inst: &Inst) -> bool {
    inst.encoding == Encoding::Mtbuf || inst.opcode.name().contains("_format_")
}
