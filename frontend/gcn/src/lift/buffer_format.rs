//! Formatted buffer accesses: MTBUF `tbuffer_load/store_format_*` and MUBUF
//! `buffer_load/store_format_*`, lifted to the IR's `load_format`/`store_format`, whose
//! conversions are defined once in [`wavejit_ir::format`].
//!
//! Where the format comes from (CLRX doc/GcnMemHandling.md, "rules for data conversion"):
//! MTBUF takes DATA_FORMAT and NUM_FORMAT from the instruction and uses the identity
//! component select; MUBUF `*_format_*` takes DATA_FORMAT, NUM_FORMAT and DST_SEL_X..W from
//! the V# (word 3: DST_SEL_X..W `[11:0]`, NUM_FORMAT `[14:12]`, DATA_FORMAT `[18:15]`), so
//! MUBUF's format is a run-time value. NUM_FORMAT 6 is SNORM_OGL on gfx6/7 and reserved on
//! gfx8/9 (LLVM SIDefines.h `NFMT_RESERVED_6`); a reserved number format is lifted as an
//! invalid format, like DATA_FORMAT 0 (the documents say neither what happens; an invalid
//! format touches no memory, see the IR module).
//!
//! # GCN format bits to IR format codes
//! This module owns the translation of GCN's format fields into the IR's format code
//! ([`wavejit_ir::format`], "Codes"): [`code_of_word3`] defines it, MTBUF's static format goes
//! through it at lift time, and MUBUF emits the same computation as IR on the descriptor word.
//! The IR chose its code layout so that the translation is cheap: GCN's BUF_DATA_FORMAT and
//! BUF_NUM_FORMAT numbers and field positions are the IR's (GCN's reserved DATA_FORMAT 15 is
//! the IR's reserved 15, invalid), and an SQ_SEL (0 zero, 1 one, 4-7 x-w; 2 and 3 reserved)
//! becomes the IR's select (0-3 x-w, 4 zero, 5 one; 6 and 7 reserved, read as zero, as GCN's
//! reserved selects were) by flipping its bit 2. So the code is `(word3 & 0x7ffff) ^ 0x924`,
//! with the data format cleared for the reserved NUM_FORMAT 6 on gfx8/9.
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
use wavejit_ir::{ElemFormat, FormatSrc, IntCC, MemSpace, Op, ScalarType, Value};
use ScalarType::*;

/// The format bits of V# word 3: DST_SEL_X..W `[11:0]`, NUM_FORMAT `[14:12]`, DATA_FORMAT
/// `[18:15]`.
const WORD3_FORMAT: u32 = 0x7_ffff;
/// Bit 2 of each 3-bit select: flipping it turns an SQ_SEL into the IR's select.
const SEL_FLIP: u32 = 0b100_100_100_100;
/// The IR code without its data format field (`[19:15]`): an invalid format.
const WITHOUT_DATA: u32 = 0x7fff;
/// The identity select (SQ_SEL_X, Y, Z, W) of MTBUF, in word 3's layout.
const IDENTITY_SEL: u32 = 4 | 5 << 3 | 6 << 6 | 7 << 9;

/// The IR format code (module docs) of the format bits of V# word 3 `w3`; `reserved6`: the
/// generation reserves NUM_FORMAT 6 (gfx8/9), which gives an invalid format.
pub(super) const fn code_of_word3(w3: u32, reserved6: bool) -> u32 {
    let code = (w3 & WORD3_FORMAT) ^ SEL_FLIP;
    if reserved6 && (w3 >> 12) & 7 == 6 {
        code & WITHOUT_DATA
    } else {
        code
    }
}

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
    /// The format operand of a formatted access: MTBUF's fields translated now, MUBUF's
    /// descriptor bits translated by emitted IR ([`code_of_word3`] both times).
    fn format_src(&mut self, inst: &Inst, a: &Access) -> FormatSrc {
        let reserved6 = inst.gen >= Gen::Gfx8;
        if inst.encoding == Encoding::Mtbuf {
            let m = inst.mem;
            let w3 = IDENTITY_SEL | (m.nfmt as u32 & 7) << 12 | (m.dfmt as u32 & 15) << 15;
            return FormatSrc::Static(ElemFormat::from_code(code_of_word3(w3, reserved6)));
        }
        let k = self.b.i32(WORD3_FORMAT);
        let bits = self.b.op(Op::And, I32, &[a.word3, k]);
        let flip = self.b.i32(SEL_FLIP);
        let code = self.b.op(Op::Xor, I32, &[bits, flip]);
        if !reserved6 {
            return FormatSrc::Dynamic(code);
        }
        let k12 = self.b.i32(12);
        let k3 = self.b.i32(3);
        let num = self.b.op(Op::Ubfe, I32, &[a.word3, k12, k3]);
        let k6 = self.b.i32(6);
        let is6 = self.b.op(Op::Icmp(IntCC::Eq), I1, &[num, k6]);
        let keep = self.b.i32(WITHOUT_DATA);
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

#[cfg(test)]
mod tests {
    use super::code_of_word3;
    use wavejit_ir::{DataFormat, ElemFormat, NumFormat, Sel};

    /// GCN's numbering (CLRX doc/GcnMemHandling.md), independent of the IR's.
    fn gcn_format(w3: u32, reserved6: bool) -> ElemFormat {
        use DataFormat as D;
        let sel = |s: u32| match s & 7 {
            1 => Sel::One,
            4 => Sel::X,
            5 => Sel::Y,
            6 => Sel::Z,
            7 => Sel::W,
            _ => Sel::Zero,
        };
        let nums = [
            NumFormat::Unorm,
            NumFormat::Snorm,
            NumFormat::Uscaled,
            NumFormat::Sscaled,
            NumFormat::Uint,
            NumFormat::Sint,
            NumFormat::SnormOgl,
            NumFormat::Float,
        ];
        let datas = [
            D::Invalid,
            D::D8,
            D::D16,
            D::D8_8,
            D::D32,
            D::D16_16,
            D::D10_11_11,
            D::D11_11_10,
            D::D10_10_10_2,
            D::D2_10_10_10,
            D::D8_8_8_8,
            D::D32_32,
            D::D16_16_16_16,
            D::D32_32_32,
            D::D32_32_32_32,
            D::Invalid,
        ];
        let nfmt = (w3 >> 12 & 7) as usize;
        ElemFormat {
            data: if reserved6 && nfmt == 6 {
                D::Invalid
            } else {
                datas[(w3 >> 15 & 15) as usize]
            },
            num: nums[nfmt],
            swizzle: [sel(w3), sel(w3 >> 3), sel(w3 >> 6), sel(w3 >> 9)],
        }
    }

    #[test]
    fn every_word3_format_translates_to_its_ir_code() {
        for bits in 0..1u32 << 19 {
            // The bits above the format (ELEMENT_SIZE, ADD_TID_ENABLE, ...) do not matter.
            let w3 = bits | (bits & 0x1fff) << 19;
            for reserved6 in [false, true] {
                let want = gcn_format(w3, reserved6);
                assert_eq!(
                    ElemFormat::from_code(code_of_word3(w3, reserved6)),
                    want,
                    "{w3:#x}"
                );
            }
        }
    }
}
