//! Parameter interpolation: `v_interp_p1_f32`, `v_interp_p2_f32`, `v_interp_mov_f32`
//! (native VINTRP on gfx6-gfx9, VOP3 on gfx8/gfx9) and the 16-bit-parameter forms
//! `v_interp_p1ll_f16`, `v_interp_p1lv_f16`, `v_interp_p2_f16` and gfx9's
//! `v_interp_p2_legacy_f16` (VOP3 only).
//!
//! # Where the parameters come from
//! A pixel shader finds the vertex parameters of its primitives in LDS, written there by the
//! graphics pipeline. A compute launch writes nothing there, so these instructions read
//! whatever the kernel itself stored in its LDS, at the place M0 and the instruction name:
//! - M0 = `{1'b0, new_prim_mask[15:1], lds_param_offset[15:0]}` (AMD Sea Islands ISA §10.3.2
//!   Table 10.1 as quoted in public code, and AMD's RDNA3.5 ISA §12.2.1 for LDS_PARAM_LOAD,
//!   same layout; CLRX GcnInstrsVintrp.md: offset in bits 0-15, mask in bits 16-30).
//!   Multi2Sim's SI emulator swaps the two fields; wavejit follows the AMD tables. The offset
//!   is in bytes (CLRX adds it to byte offsets).
//! - new_prim_mask has one bit per quad of the wave after the first: bit `q - 1` (M0 bit
//!   `15 + q`) set means quad `q` (lanes `4q..4q+3`) starts a new primitive. Quad `q`
//!   interpolates primitive `popcount(mask & ((1 << q) - 1))`, and the wave holds
//!   `popcount(mask) + 1` primitives (AMD: "a one in this mask indicates that this quad begins a
//!   new primitive"; CLRX's example table for mask 0b1010011).
//! - Layout (CLRX GcnInstrsVintrp.md, "three-level"): 12 dwords per (attribute, primitive),
//!   attribute-major: dword index `12 * (attr * numprim + prim)`, then inside the record
//!   `P0.c` at `2c`, `P10.c` at `2c + 1`, `P20.c` at `8 + c` for channel `c` (x, y, z, w).
//!   Byte address = `lds_param_offset + 4 * (that index + slot)`. AMD's RDNA3.5 ISA gives the
//!   same attribute-major, 12-dwords-per-primitive address
//!   (`attr * numPrims * 12 + prim * 12 + offset`) but orders its records P0.xyzw, P10.xyzw, P20.xyzw; for GCN only CLRX
//!   publishes the order inside a record, so wavejit uses CLRX's.
//! - The address is computed in 32 bits without wrapping; bytes outside the LDS allocation read
//!   as 0 (the IR's LDS rule, as for DS loads). Inactive lanes read nothing.
//!
//! # Arithmetic
//! - `p1`: `D = P10 * S + P0`; `p2`: `D = P20 * S + D`; `mov`: `D = {P10, P20, P0}[sel]`
//!   (AMD's instruction descriptions as quoted by gem5's Vega `vinterp.cc`). AMD adds that the
//!   SQ "translates to V_MAD_F32", so p1/p2 are the unfused multiply-add (`Fmad`) under the f32
//!   MODE. S is the I or J coordinate (f32); in the VOP3 form it sits in SRC1 and takes that
//!   field's abs/neg; CLAMP and OMOD act on the result as for any float result.
//! - `p1ll`: `D.f32 = P10.f16 * S.f32 + P0.f16`; `p1lv`: `D.f32 = P10.f16 * S.f32 + P0.f16`
//!   with P0 taken from the 32-bit SRC2 (`S2 >> 16 * high`); `p2_f16`: `D.f16 = P20.f16 * S.f32
//!   + S2.f32` (AMD's GCN3 descriptions as quoted in jbarczak/Pyramid `GCNEnums.h`; CLRX
//!   GcnInstrsVop3.md). The `high` bit (bit 8 of the attribute operand) picks the upper halves
//!   of the LDS dwords (and of SRC2 for p1lv). Not documented, chosen by wavejit: the f16
//!   parameters are converted exactly to f32 (input denormals per the f16 MODE), the arithmetic
//!   is the same unfused f32 multiply-add as the f32 forms, and p2_f16 rounds that f32 result
//!   to f16 under the f16 MODE. A constant SRC2 of p1lv is its f16 value whatever `high` says
//!   (as for op_sel, `vector.rs`).
//! - p2_f16 writes 16 bits: on gfx8 and for gfx9's `_legacy` form the low half, upper half
//!   zeroed (AMD: "Result is always written to the 16 LSBs"; the 16-bit result rule of
//!   `vector.rs`); gfx9's new `v_interp_p2_f16` writes the half op_sel[3] selects and keeps the
//!   other (CLRX GcnInstrsVop3.md). Other op_sel bits have no documented meaning here and are
//!   rejected.
use super::{LiftError, Lifter};
use crate::inst::{Gen, Inst, Opcode, Operand};
use crate::tables::Field;
use wavejit_ir::{MemSpace, MemWidth, Op, ScalarType, Value};
use ScalarType::*;

/// The three parameters of a channel, by their v_interp_mov selector (0 = P10, 1 = P20,
/// 2 = P0: LLVM's `p10`/`p20`/`p0` encoding).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Param {
    P10,
    P20,
    P0,
}

impl Param {
    /// Dword slot of the parameter of channel `chan` inside a primitive's 12-dword record.
    fn slot(self, chan: u32) -> u32 {
        match self {
            Param::P0 => 2 * chan,
            Param::P10 => 2 * chan + 1,
            Param::P20 => 8 + chan,
        }
    }
}

/// The attribute operand: attribute 5:0, channel 7:6, `high` 8.
#[derive(Clone, Copy)]
struct Attr {
    attr: u32,
    chan: u32,
    high: bool,
}

impl Lifter<'_> {
    /// Lifts one VINTRP instruction (native or VOP3-encoded).
    pub(crate) fn vintrp(&mut self, inst: &Inst) -> Result<(), LiftError> {
        use Opcode::*;
        let a = self.attr_operand(inst)?;
        let op_sel_ok = if inst.opcode == V_INTERP_P2_F16 && inst.gen == Gen::Gfx9 {
            0b1000
        } else {
            0
        };
        if inst.mods.op_sel & !op_sel_ok != 0 {
            return Err(self.unsupported(inst, "op_sel bits without a documented meaning"));
        }
        // Base dword address of this lane's (attribute, primitive) record.
        let record = self.record_addr(a.attr);
        match inst.opcode {
            V_INTERP_P1_F32 => {
                let s = self.vsrc(inst, 0, F32)?;
                let p0 = self.param_f32(record, a, Param::P0);
                let p10 = self.param_f32(record, a, Param::P10);
                let r = self.b.op_mode(Op::Fmad, self.fm(F32), F32, &[p10, s, p0]);
                self.vdst(inst, r)
            }
            V_INTERP_P2_F32 => {
                let s = self.vsrc(inst, 0, F32)?;
                let d = self.vdst_old(inst, F32)?;
                let p20 = self.param_f32(record, a, Param::P20);
                let r = self.b.op_mode(Op::Fmad, self.fm(F32), F32, &[p20, s, d]);
                self.vdst(inst, r)
            }
            V_INTERP_MOV_F32 => {
                let p = match inst.operand(Field::InterpParam).map(|o| o.value) {
                    Some(Operand::Imm(0)) => Param::P10,
                    Some(Operand::Imm(1)) => Param::P20,
                    Some(Operand::Imm(2)) => Param::P0,
                    _ => return Err(self.invalid(inst, "interpolation parameter selector")),
                };
                let r = self.param_f32(record, a, p);
                self.vdst(inst, r)
            }
            V_INTERP_P1LL_F16 | V_INTERP_P1LV_F16 => {
                let s = self.vsrc(inst, 0, F32)?;
                let p10 = self.param_f16(record, a, Param::P10);
                let p0 = if inst.opcode == V_INTERP_P1LL_F16 {
                    self.param_f16(record, a, Param::P0)
                } else {
                    self.p1lv_p0(inst, a)?
                };
                let up = self.conv_mode(F16, F32);
                let p10 = self.b.op_mode(Op::Fconvert, up, F32, &[p10]);
                let p0 = self.b.op_mode(Op::Fconvert, up, F32, &[p0]);
                let r = self.b.op_mode(Op::Fmad, self.fm(F32), F32, &[p10, s, p0]);
                self.vdst(inst, r)
            }
            V_INTERP_P2_F16 | V_INTERP_P2_LEGACY_F16 => {
                let s = self.vsrc(inst, 0, F32)?;
                let d = self.vsrc(inst, 1, F32)?;
                let p20 = self.param_f16(record, a, Param::P20);
                let p20 = self
                    .b
                    .op_mode(Op::Fconvert, self.conv_mode(F16, F32), F32, &[p20]);
                let t = self.b.op_mode(Op::Fmad, self.fm(F32), F32, &[p20, s, d]);
                let r = self
                    .b
                    .op_mode(Op::Fconvert, self.conv_mode(F32, F16), F16, &[t]);
                self.vdst(inst, r)
            }
            _ => Err(self.unsupported(inst, "VINTRP opcode without semantics")),
        }
    }

    fn attr_operand(&self, inst: &Inst) -> Result<Attr, LiftError> {
        match inst.operand(Field::Attr).map(|o| o.value) {
            Some(Operand::Imm(v)) if v <= 0x1ff => Ok(Attr {
                attr: v & 0x3f,
                chan: (v >> 6) & 3,
                high: v & 0x100 != 0,
            }),
            _ => Err(self.invalid(inst, "missing attribute operand")),
        }
    }

    /// Byte address (lane i32) of this lane's parameter record of attribute `attr`:
    /// `lds_param_offset + 48 * (attr * numprim + prim(quad))` (module doc).
    fn record_addr(&mut self, attr: u32) -> Value {
        let r = self.g.m0();
        let m0 = self.b.use_reg(r, I32);
        let kffff = self.b.i32(0xffff);
        let base = self.b.op(Op::And, I32, &[m0, kffff]);
        let k16 = self.b.i32(16);
        let mask = self.b.op(Op::Lshr, I32, &[m0, k16]);
        let k7fff = self.b.i32(0x7fff);
        let mask = self.b.op(Op::And, I32, &[mask, k7fff]);
        let one = self.b.i32(1);
        let nprim = self.b.op(Op::Popcnt, I32, &[mask]);
        let nprim = self.b.op(Op::Iadd, I32, &[nprim, one]);
        let lane = self.b.lane_id();
        let k2 = self.b.i32(2);
        let quad = self.b.op(Op::Lshr, I32, &[lane, k2]);
        let below = self.b.op(Op::Shl, I32, &[one, quad]);
        let below = self.b.op(Op::Isub, I32, &[below, one]);
        let before = self.b.op(Op::And, I32, &[mask, below]);
        let prim = self.b.op(Op::Popcnt, I32, &[before]);
        let ka = self.b.i32(attr);
        let idx = self.b.op(Op::Imul, I32, &[ka, nprim]);
        let idx = self.b.op(Op::Iadd, I32, &[idx, prim]);
        let k48 = self.b.i32(48);
        let off = self.b.op(Op::Imul, I32, &[idx, k48]);
        self.b.op(Op::Iadd, I32, &[base, off])
    }

    /// The parameter dword `p` of channel `a.chan` for each active lane.
    fn param_dword(&mut self, record: Value, a: Attr, p: Param) -> Value {
        let addr = self.ds_at(record, 4 * p.slot(a.chan));
        let exec = self.exec_mask();
        self.b
            .load(MemSpace::Lds, MemWidth::B32, false, I32, addr, Some(exec))
    }

    fn param_f32(&mut self, record: Value, a: Attr, p: Param) -> Value {
        let d = self.param_dword(record, a, p);
        self.cast(d, F32)
    }

    /// The f16 half (`a.high` picks the upper one) of a parameter dword.
    fn param_f16(&mut self, record: Value, a: Attr, p: Param) -> Value {
        let d = self.param_dword(record, a, p);
        self.param_half(d, a.high)
    }

    fn param_half(&mut self, d: Value, high: bool) -> Value {
        let d = if high {
            let k16 = self.b.i32(16);
            self.b.op(Op::Lshr, I32, &[d, k16])
        } else {
            d
        };
        self.cast(d, F16)
    }

    /// p1lv's P0: the `high` half of SRC2 (a constant is its f16 value), with SRC2's abs/neg.
    fn p1lv_p0(&mut self, inst: &Inst, a: Attr) -> Result<Value, LiftError> {
        let Some(o) = inst.operand(Field::Src2).copied() else {
            return Err(self.invalid(inst, "missing source 2"));
        };
        let v = if o.value.is_reg() {
            let w = self.read_src_slot(inst, o.value, I32, 2)?;
            self.param_half(w, a.high)
        } else {
            self.read_src_slot(inst, o.value, F16, 2)?
        };
        Ok(self.input_mods(inst, 2, v))
    }
}
