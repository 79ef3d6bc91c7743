//! VALU instructions: native VOP1/VOP2/VOPC, their VOP3, SDWA and DPP forms, VOP3-only
//! and VOP3P rows, with input/output modifiers and the constant-bus rule.
use super::{blank, opnd, src_index, Bus, Picker};
use crate::decode::{dpp_ctrl_valid, vdst_is_scalar, vop3_slots, vsrc1_is_scalar};
use crate::inst::{Dpp, Encoding, Gen, Inst, Opcode, Operand, Sdwa, VopMods};
use crate::tables::{flags, Family, Field, OpInfo, Slot, Ty};
use rand::seq::SliceRandom;
use rand::Rng;

/// Source `k` takes float input modifiers: a float type, except the integer second operand
/// of ldexp, class tests and trig_preop (typed after the first in the tables).
fn float_src(info: &OpInfo, k: usize) -> bool {
    let name = info.opcode.name();
    if k == 1 && (name.contains("ldexp") || name.contains("class") || name.contains("trig_preop")) {
        return false;
    }
    info.src_ty.get(k).is_some_and(|t| t.is_float())
}

/// Whether `v` reads as an inline constant in some operand type: an integer in -16..=64, or
/// the f32, f16 or f64-high-dword pattern of +-0.5, +-1, +-2, +-4 or 1/(2*pi).
pub(super) fn inline_spelling(v: u32) -> bool {
    const FLOATS: [f64; 9] = [
        0.5,
        -0.5,
        1.0,
        -1.0,
        2.0,
        -2.0,
        4.0,
        -4.0,
        0.159_154_943_091_895_35,
    ];
    (-16..=64).contains(&(v as i32))
        || FLOATS.iter().any(|&f| {
            v == (f as f32).to_bits()
                || v == (f64::to_bits(f) >> 32) as u32
                || v == half_bits(f as f32) as u32
        })
        || v == 0x3e22_f983
        || v == 0x3118
}

/// Ops whose source 0 names a VGPR by number (swapped, or M0-relative).
fn vgpr_src0(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::V_SWAP_B32 | Opcode::V_MOVRELS_B32 | Opcode::V_MOVRELSD_B32
    )
}

/// Replaces inline float constants on 16-bit integer sources of the 32-bit VOP1/VOP2/VOPC
/// forms by integers. LLVM prints such a constant as its f16 pattern (`0xc400`), which in an
/// encoding with a literal slot llvm-mc (and so the assembler) reads as that literal: the
/// syntax cannot spell the inline form there. (Forms without a literal slot, VOP3, read it
/// back as the inline constant and are generated with it.)
fn no_float_on_short_ints(inst: &mut Inst) {
    let info = inst.info;
    for o in inst.operands.iter_mut() {
        let Some(k) = src_index(o.field) else {
            continue;
        };
        let short_int = matches!(info.src_ty.get(k), Some(Ty::I16 | Ty::U16 | Ty::B16));
        if short_int {
            if let Operand::InlineFloat(f) = o.value {
                o.value = Operand::InlineInt((f.code() - 240) as i8);
            }
        }
    }
}

/// The f16 bit pattern of a small exactly representable value.
fn half_bits(f: f32) -> u16 {
    let b = f.to_bits();
    let sign = (b >> 16) & 0x8000;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    let mant = (b >> 13) & 0x3ff;
    (sign | ((exp.clamp(0, 31) as u32) << 10) | mant) as u16
}

impl Picker<'_> {
    pub(super) fn vop_native(&mut self, info: &'static OpInfo) -> Inst {
        let enc = match info.family {
            Family::Vop1 => Encoding::Vop1,
            Family::Vop2 => Encoding::Vop2,
            _ => Encoding::Vopc,
        };
        let mut inst = blank(self.gen, info, enc);
        let mut bus = Bus::default();
        if info.slots.iter().any(|s| s.0 == Field::VccIn) {
            bus.0 = Some((Operand::VccLo, 2));
        }
        let madk = info.slots.iter().any(|s| s.0 == Field::Literal);
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst if vdst_is_scalar(info.opcode) => self.sgpr(1),
                Field::Vdst => self.vgpr(s.1),
                // The K constant of v_madmk/v_madak already occupies the bus.
                Field::Src0 if madk => {
                    if self.chance(0.7) {
                        self.vgpr(s.1)
                    } else {
                        self.inline()
                    }
                }
                Field::Src0 if vgpr_src0(info.opcode) => self.vgpr(s.1),
                Field::Src0 => self.vsrc(s.1, true, &mut bus),
                Field::Vsrc1 if vsrc1_is_scalar(info.opcode) => self.lane_src(&mut bus),
                Field::Vsrc1 => self.vgpr(s.1),
                Field::VccIn | Field::VccOut => Operand::VccLo,
                Field::Literal => Operand::Literal(self.literal()),
                _ => Operand::Imm(0),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        no_float_on_short_ints(&mut inst);
        // A 16-bit operand's literal is printed (as LLVM does) in 16 bits.
        let short = matches!(info.src_ty[0], Ty::F16 | Ty::I16 | Ty::U16 | Ty::B16);
        if short {
            let mut v = self.literal() & 0xffff;
            while inline_spelling(v) || inline_spelling(v as u16 as i16 as u32) {
                v = self.literal() & 0xffff;
            }
            for o in inst.operands.iter_mut() {
                if let Operand::Literal(_) = o.value {
                    o.value = Operand::Literal(v);
                }
            }
        }
        inst
    }

    pub(super) fn vop3(&mut self, info: &'static OpInfo) -> Inst {
        let native = matches!(info.family, Family::Vop1 | Family::Vop2 | Family::Vopc);
        let slots: Vec<Slot> = if native {
            vop3_slots(info)
        } else {
            info.slots.to_vec()
        };
        let vop3b = slots.iter().any(|s| s.0 == Field::Sdst3b);
        let mut inst = blank(
            self.gen,
            info,
            if vop3b {
                Encoding::Vop3b
            } else {
                Encoding::Vop3a
            },
        );
        let mut bus = Bus::default();
        let carry_in = native && info.slots.iter().any(|s| s.0 == Field::VccIn);
        if info.family == Family::Vop3 && info.has(flags::READS_VCC) {
            bus.0 = Some((Operand::VccLo, 2));
        }
        let lane_op = matches!(
            info.opcode,
            Opcode::V_READLANE_B32 | Opcode::V_WRITELANE_B32
        );
        // The carry-in / condition pair is chosen first: it occupies the bus.
        let src2_pair = if carry_in {
            let p = if self.chance(0.6) {
                Operand::VccLo
            } else {
                self.sgpr(2)
            };
            bus.0 = Some((p, 2));
            Some(p)
        } else {
            None
        };
        for s in &slots {
            let v = match s.0 {
                Field::Vdst if info.family == Family::Vopc => self.sdst(2),
                Field::Vdst if vdst_is_scalar(info.opcode) => self.sgpr(1),
                Field::Vdst => self.vgpr(s.1),
                Field::Sdst3b => {
                    if self.chance(0.5) {
                        Operand::VccLo
                    } else {
                        self.sgpr(2)
                    }
                }
                Field::Src2 if src2_pair.is_some() => src2_pair.unwrap_or(Operand::VccLo),
                // v_readlane reads a VGPR at a scalar lane; v_writelane writes a scalar to
                // a lane (both lane-select operands are exempt from nothing: they use the bus).
                Field::Src0 if lane_op && info.opcode == Opcode::V_READLANE_B32 => self.vgpr(1),
                Field::Src0 if lane_op => self.lane_src(&mut bus),
                Field::Src1 if lane_op || vsrc1_is_scalar(info.opcode) => self.lane_src(&mut bus),
                Field::Src0 if vgpr_src0(info.opcode) => self.vgpr(s.1),
                Field::Src0 | Field::Src1 | Field::Src2 => self.vsrc(s.1, false, &mut bus),
                _ => Operand::Imm(0),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        let mut m = VopMods::default();
        for o in &inst.operands {
            let Some(k) = src_index(o.field) else {
                continue;
            };
            if float_src(info, k) {
                if !vop3b && self.chance(0.25) {
                    m.abs |= 1 << k;
                }
                if self.chance(0.25) {
                    m.neg |= 1 << k;
                }
            }
        }
        if info.dst_ty.is_float() && info.family != Family::Vopc && !vop3b {
            m.clamp = self.chance(0.2);
            if self.chance(0.2) {
                m.omod = self.rng.gen_range(1..=3);
            }
        }
        inst.mods = m;
        inst
    }

    pub(super) fn sdwa(&mut self, info: &'static OpInfo) -> Inst {
        let g9 = self.gen == Gen::Gfx9;
        let mut inst = blank(self.gen, info, Encoding::Sdwa);
        let mut bus = Bus::default();
        if info.slots.iter().any(|s| s.0 == Field::VccIn) {
            bus.0 = Some((Operand::VccLo, 2));
        }
        let vopc = info.family == Family::Vopc;
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst => self.vgpr(1),
                // gfx9 SDWA may read one SGPR (flags in the SDWA dword).
                Field::Src0 | Field::Vsrc1 if g9 && !vgpr_src0(info.opcode) && self.chance(0.2) => {
                    let c = self.sgpr(1);
                    if bus.take(c, 1) {
                        c
                    } else {
                        self.vgpr(1)
                    }
                }
                Field::Src0 | Field::Vsrc1 => self.vgpr(1),
                Field::VccOut if vopc && g9 && self.chance(0.5) => self.sgpr(2),
                Field::VccIn | Field::VccOut => Operand::VccLo,
                _ => Operand::Imm(0),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        let has_src1 = info.family != Family::Vop1;
        let mut sd = Sdwa {
            src0_sel: self.rng.gen_range(0..=6),
            src1_sel: if has_src1 {
                self.rng.gen_range(0..=6)
            } else {
                0
            },
            ..Default::default()
        };
        if !vopc {
            sd.dst_sel = self.rng.gen_range(0..=6);
            sd.dst_unused = self.rng.gen_range(0..=2);
        }
        let mut m = VopMods::default();
        for k in 0..if has_src1 { 2 } else { 1 } {
            if float_src(info, k) {
                if self.chance(0.25) {
                    m.abs |= 1 << k;
                }
                if self.chance(0.25) {
                    m.neg |= 1 << k;
                }
            } else if self.chance(0.3) {
                sd.sext |= 1 << k;
            }
        }
        if info.dst_ty.is_float() && !vopc {
            m.clamp = self.chance(0.2);
            if g9 && self.chance(0.2) {
                m.omod = self.rng.gen_range(1..=3);
            }
        }
        inst.sdwa = Some(sd);
        inst.mods = m;
        inst
    }

    pub(super) fn dpp(&mut self, info: &'static OpInfo) -> Inst {
        let mut inst = blank(self.gen, info, Encoding::Dpp);
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst | Field::Src0 | Field::Vsrc1 => self.vgpr(1),
                Field::VccIn | Field::VccOut => Operand::VccLo,
                _ => Operand::Imm(0),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        let ctrl = loop {
            let c = match self.rng.gen_range(0..4) {
                0 => self.rng.gen_range(0..=0xff),
                1 => 0x100 | self.rng.gen_range(0..0x30),
                _ => *[0x130u16, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143]
                    .choose(self.rng)
                    .unwrap_or(&0x140),
            };
            if dpp_ctrl_valid(c) {
                break c;
            }
        };
        let mask = |p: &mut Self| {
            if p.chance(0.6) {
                0xf
            } else {
                p.rng.gen_range(0..16)
            }
        };
        inst.dpp = Some(Dpp {
            ctrl,
            row_mask: mask(self),
            bank_mask: mask(self),
            bound_ctrl: self.chance(0.5),
        });
        let mut m = VopMods::default();
        for k in 0..2 {
            if float_src(info, k) {
                if self.chance(0.25) {
                    m.abs |= 1 << k;
                }
                if self.chance(0.25) {
                    m.neg |= 1 << k;
                }
            }
        }
        inst.mods = m;
        inst
    }

    pub(super) fn vop3p(&mut self, info: &'static OpInfo) -> Inst {
        let mut inst = blank(self.gen, info, Encoding::Vop3p);
        let mut bus = Bus::default();
        for s in info.slots {
            let v = match s.0 {
                Field::Vdst => self.vgpr(1),
                _ => self.vsrc(1, false, &mut bus),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        let n = info
            .slots
            .iter()
            .filter(|s| src_index(s.0).is_some())
            .count() as u32;
        let all = ((1u32 << n) - 1) as u8;
        let name = info.opcode.name();
        let float = name.contains("f16") || name.contains("mix");
        let mut m = VopMods {
            op_sel: self.rng.gen::<u8>() & all,
            op_sel_hi: if self.chance(0.6) {
                if name.starts_with("v_mad_mix") {
                    0
                } else {
                    all
                }
            } else {
                self.rng.gen::<u8>() & all
            },
            ..Default::default()
        };
        // op_sel_hi bits of absent sources are 1 (what the assembler encodes, as LLVM does).
        m.op_sel_hi |= !all & 7;
        if float {
            m.neg = self.rng.gen::<u8>() & all & if self.chance(0.5) { 0 } else { 7 };
            m.neg_hi = self.rng.gen::<u8>() & all & if self.chance(0.5) { 0 } else { 7 };
            m.clamp = self.chance(0.15);
        }
        inst.mods = m;
        inst
    }
}
