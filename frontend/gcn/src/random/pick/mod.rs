//! Random instructions from the table rows: operand choice per slot, modifiers, and the
//! legality rules of each encoding (see the module docs of [`super`]).
//!
//! Submodules: [`valu`] (VALU forms and modifiers), [`memory`] (buffer and LDS accesses),
//! [`memory_heavy`] (the memory profile's instructions and address patterns).
use super::state::edge_value;
use super::{rows_on, Profile, SAVED_EXEC_SGPR, SGPR_POOL, VGPR_POOL};
use crate::decode::vdst_is_scalar;
use crate::inst::{Encoding, Gen, InlineFloat, Inst, MemFields, Opcode, Operand, Opnd, VopMods};
use crate::tables::{flags, Family, Field, OpInfo};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

mod memory;
mod memory_heavy;

#[cfg(test)]
pub(super) use memory_heavy::generated;
mod valu;

use valu::inline_spelling;

/// Rows never generated: control transfer other than the structured branches, trap and
/// debug machinery, GPR-indexing modes, and `s_setreg_b32` (a MODE written from a register
/// cannot be tracked statically; `s_setreg_imm32_b32` is generated as a region fence).
const EXCLUDED: &[Opcode] = &[
    Opcode::S_CBRANCH_G_FORK,
    Opcode::S_RFE_RESTORE_B64,
    Opcode::S_SETPC_B64,
    Opcode::S_SWAPPC_B64,
    Opcode::S_RFE_B64,
    Opcode::S_CBRANCH_JOIN,
    Opcode::S_SET_GPR_IDX_IDX,
    Opcode::S_CBRANCH_I_FORK,
    Opcode::S_CALL_B64,
    Opcode::S_SETREG_B32,
    Opcode::S_SETREG_IMM32_B32,
    Opcode::S_SETVSKIP,
    Opcode::S_SET_GPR_IDX_ON,
];

/// Family weights of [`Picker::any`] (memory families only when enabled).
const WEIGHTS: &[(Family, u32)] = &[
    (Family::Sop2, 10),
    (Family::Sop1, 8),
    (Family::Sopk, 4),
    (Family::Sopc, 4),
    (Family::Vop1, 14),
    (Family::Vop2, 18),
    (Family::Vopc, 9),
    (Family::Vop3, 14),
    (Family::Vop3p, 4),
];

pub(super) struct Picker<'r> {
    pub rng: &'r mut ChaCha8Rng,
    pub gen: Gen,
    memory: bool,
    profile: Profile,
}

fn opnd(field: Field, value: Operand, dwords: u8) -> Opnd {
    Opnd {
        field,
        value,
        dwords,
    }
}

fn blank(gen: Gen, info: &'static OpInfo, encoding: Encoding) -> Inst {
    Inst {
        gen,
        opcode: info.opcode,
        encoding,
        info,
        operands: Vec::new(),
        mods: VopMods::default(),
        sdwa: None,
        dpp: None,
        mem: MemFields::default(),
        simm16: None,
        len: 0,
    }
}

/// The row of `op` in `family` on `gen`.
fn row(gen: Gen, family: Family, op: Opcode) -> &'static OpInfo {
    rows_on(gen, family)
        .find(|r| r.opcode == op)
        .unwrap_or_else(|| panic!("{op:?} has no {family:?} row on {gen:?}"))
}

fn src_index(f: Field) -> Option<usize> {
    match f {
        Field::Src0 => Some(0),
        Field::Src1 | Field::Vsrc1 => Some(1),
        Field::Src2 => Some(2),
        _ => None,
    }
}

/// The one constant-bus value (SGPR, special register or literal) a VALU instruction may
/// read, with its width in dwords (the same value may be read twice; literals have width 0).
#[derive(Default)]
struct Bus(Option<(Operand, u8)>);

impl Bus {
    fn free_for(&self, v: Operand, dwords: u8) -> bool {
        self.0.is_none() || self.0 == Some((v, dwords))
    }

    fn take(&mut self, v: Operand, dwords: u8) -> bool {
        let ok = self.free_for(v, dwords);
        if ok {
            self.0 = Some((v, dwords));
        }
        ok
    }
}

impl<'r> Picker<'r> {
    pub fn new(rng: &'r mut ChaCha8Rng, gen: Gen, memory: bool, profile: Profile) -> Picker<'r> {
        Picker {
            rng,
            gen,
            memory,
            profile,
        }
    }

    /// Whether the memory profile is on.
    pub fn memory_profile(&self) -> bool {
        self.profile == Profile::Memory
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p)
    }

    fn g8(&self) -> bool {
        self.gen >= Gen::Gfx8
    }

    // ---- operands -------------------------------------------------------------------

    fn sgpr(&mut self, dwords: u8) -> Operand {
        let align = if dwords >= 4 { 4 } else { dwords.max(1) };
        let slots = SGPR_POOL / align;
        Operand::Sgpr(self.rng.gen_range(0..slots) * align)
    }

    fn vgpr(&mut self, dwords: u8) -> Operand {
        Operand::Vgpr(self.rng.gen_range(0..=VGPR_POOL - dwords.max(1)))
    }

    /// A scalar destination.
    fn sdst(&mut self, dwords: u8) -> Operand {
        let r: u32 = self.rng.gen_range(0..100);
        match dwords {
            1 => match r {
                0..=74 => self.sgpr(1),
                75..=81 => Operand::VccLo,
                82..=87 => Operand::VccHi,
                88..=93 => Operand::M0,
                94..=96 => Operand::ExecLo,
                _ => Operand::ExecHi,
            },
            2 => match r {
                0..=79 => self.sgpr(2),
                80..=93 => Operand::VccLo,
                _ => Operand::ExecLo,
            },
            _ => self.sgpr(dwords),
        }
    }

    /// A readable scalar register of `dwords` (SGPRs and special registers, including the
    /// derived SCC/VCCZ/EXECZ sources, whose codes need an 8-bit source field).
    fn sreg_src(&mut self, dwords: u8) -> Operand {
        let r: u32 = self.rng.gen_range(0..100);
        if dwords >= 2 {
            return match r {
                0..=79 => self.sgpr(dwords),
                80..=91 => Operand::VccLo,
                _ => Operand::ExecLo,
            };
        }
        match r {
            0..=69 => self.sgpr(1),
            70..=75 => Operand::VccLo,
            76..=80 => Operand::VccHi,
            81..=86 => Operand::M0,
            87..=90 => Operand::ExecLo,
            91..=93 => Operand::ExecHi,
            94..=95 => Operand::Scc,
            96..=97 => Operand::Vccz,
            _ => Operand::Execz,
        }
    }

    fn inline(&mut self) -> Operand {
        if self.chance(0.55) {
            Operand::InlineInt(self.rng.gen_range(-16..=64))
        } else {
            let n = if self.g8() { 9 } else { 8 };
            Operand::InlineFloat(InlineFloat::ALL[self.rng.gen_range(0..n)])
        }
    }

    /// A literal that no operand type could spell as an inline constant: LLVM's printer
    /// writes such a literal as the constant (`-1.0`), which then assembles to the inline
    /// form, so the program text would not reproduce the bytes.
    fn literal(&mut self) -> u32 {
        loop {
            let v = edge_value(self.rng);
            if !inline_spelling(v) {
                return v;
            }
        }
    }

    /// A scalar ALU source; `lit` is the instruction's one literal (shared by its sources).
    fn ssrc(&mut self, dwords: u8, lit: &mut Option<u32>) -> Operand {
        match self.rng.gen_range(0..100) {
            0..=54 => self.sreg_src(dwords),
            55..=84 => self.inline(),
            // One literal per instruction: a second literal source names the same dword
            // (legal: LLVM validateSOPLiteral counts distinct values).
            _ => {
                let v = *lit.get_or_insert_with(|| self.literal());
                Operand::Literal(v)
            }
        }
    }

    /// A VALU source: VGPR, constant-bus value (if the bus allows it), inline constant or
    /// (if `lit_ok`) a literal, which also occupies the bus.
    fn vsrc(&mut self, dwords: u8, lit_ok: bool, bus: &mut Bus) -> Operand {
        let r: u32 = self.rng.gen_range(0..100);
        if r < 50 {
            return self.vgpr(dwords);
        }
        if r < 72 {
            let cand = match bus.0 {
                Some((v, n)) if v.is_reg() && n == dwords && self.chance(0.5) => v,
                _ => self.sreg_src(dwords),
            };
            if bus.take(cand, dwords) {
                return cand;
            }
            return self.vgpr(dwords);
        }
        if r < 90 || !lit_ok {
            return self.inline();
        }
        let cand = match bus.0 {
            Some((Operand::Literal(v), _)) => Operand::Literal(v),
            _ => Operand::Literal(self.literal()),
        };
        if bus.take(cand, 0) {
            return cand;
        }
        self.inline()
    }

    /// A scalar source on the bus or an inline constant (v_writelane data and lane select,
    /// v_readlane lane select).
    fn lane_src(&mut self, bus: &mut Bus) -> Operand {
        if self.chance(0.6) {
            let cand = self.sgpr(1);
            if bus.take(cand, 1) {
                return cand;
            }
        }
        Operand::InlineInt(self.rng.gen_range(0..=64))
    }

    // ---- families -------------------------------------------------------------------

    /// Any instruction, by family weight (in the memory profile, mostly a memory one).
    pub fn any(&mut self) -> Inst {
        if self.memory_profile() && self.chance(0.85) {
            return self.memory_heavy(false);
        }
        let mut fams: Vec<(Family, u32)> = WEIGHTS.to_vec();
        if self.memory {
            fams.push((Family::Smem, 3));
            fams.push((Family::Ds, 4));
            if self.gen >= Gen::Gfx7 {
                fams.push((Family::Flat, 4));
            }
        }
        loop {
            let fam = fams
                .choose_weighted(self.rng, |f| f.1)
                .map(|f| f.0)
                .unwrap_or(Family::Vop2);
            if let Some(i) = self.family(fam) {
                return i;
            }
        }
    }

    /// An instruction inside an `s_and_saveexec` sandwich: VALU, or in the memory profile
    /// often a memory instruction.
    pub fn sandwiched(&mut self) -> Inst {
        if self.memory_profile() && self.chance(0.6) {
            self.memory_heavy(false)
        } else {
            self.valu()
        }
    }

    /// A random VALU instruction.
    pub fn valu(&mut self) -> Inst {
        loop {
            let fam = *[
                Family::Vop1,
                Family::Vop2,
                Family::Vop2,
                Family::Vop3,
                Family::Vopc,
            ]
            .choose(self.rng)
            .unwrap_or(&Family::Vop2);
            if let Some(i) = self.family(fam) {
                return i;
            }
        }
    }

    fn family(&mut self, fam: Family) -> Option<Inst> {
        match fam {
            Family::Smem => return Some(self.scalar_load()),
            Family::Ds => return Some(self.ds()),
            Family::Flat => return Some(self.flat()),
            _ => {}
        }
        let gen = self.gen;
        let rows: Vec<&'static OpInfo> = rows_on(gen, fam)
            .filter(|r| !EXCLUDED.contains(&r.opcode))
            .collect();
        let info = *rows.choose(self.rng)?;
        Some(match fam {
            Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk => self.salu(info),
            Family::Vop1 | Family::Vop2 | Family::Vopc => {
                let mut forms = vec![Encoding::Vop1];
                let b = gen.bit();
                if info.vop3 & b != 0 {
                    forms.push(Encoding::Vop3a);
                }
                let ext_ok = !vdst_is_scalar(info.opcode)
                    && info
                        .slots
                        .iter()
                        .all(|s| s.1 <= 1 || s.0 == Field::VccIn || s.0 == Field::VccOut);
                if info.sdwa & b != 0 && ext_ok {
                    forms.push(Encoding::Sdwa);
                }
                if info.dpp & b != 0 && ext_ok {
                    forms.push(Encoding::Dpp);
                }
                match *forms.choose(self.rng)? {
                    Encoding::Vop3a => self.vop3(info),
                    Encoding::Sdwa => self.sdwa(info),
                    Encoding::Dpp => self.dpp(info),
                    _ => self.vop_native(info),
                }
            }
            Family::Vop3 => self.vop3(info),
            Family::Vop3p => self.vop3p(info),
            _ => return None,
        })
    }

    fn salu(&mut self, info: &'static OpInfo) -> Inst {
        let enc = match info.family {
            Family::Sop1 => Encoding::Sop1,
            Family::Sop2 => Encoding::Sop2,
            Family::Sopc => Encoding::Sopc,
            _ => Encoding::Sopk,
        };
        let mut inst = blank(self.gen, info, enc);
        let mut lit = None;
        // s_movrels/s_movreld index SGPRs only (M0-relative).
        let movrel = matches!(
            info.opcode,
            Opcode::S_MOVRELS_B32
                | Opcode::S_MOVRELS_B64
                | Opcode::S_MOVRELD_B32
                | Opcode::S_MOVRELD_B64
        );
        for s in info.slots {
            let v = match s.0 {
                // The SOPK `sdst` field has 7 bits: registers only.
                Field::Sdst if info.has(flags::SDST_IS_SRC) => loop {
                    let r = self.sreg_src(s.1);
                    if !matches!(r, Operand::Scc | Operand::Vccz | Operand::Execz) {
                        break r;
                    }
                },
                Field::Sdst if movrel => self.sgpr(s.1),
                Field::Sdst => self.sdst(s.1),
                Field::Ssrc0 if movrel => self.sgpr(s.1),
                Field::Ssrc0 | Field::Ssrc1 => self.ssrc(s.1, &mut lit),
                Field::Simm16 => {
                    let v: u16 = self.rng.gen();
                    inst.simm16 = Some(v);
                    Operand::Imm(v as u32)
                }
                Field::Hwreg => {
                    let v = self.getreg_mode();
                    inst.simm16 = Some(v);
                    Operand::Imm(v as u32)
                }
                _ => Operand::Imm(0),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        inst
    }

    /// `hwreg(HW_REG_MODE, offset, size)` for s_getreg_b32.
    fn getreg_mode(&mut self) -> u16 {
        let offset: u16 = self.rng.gen_range(0..32);
        let size: u16 = self.rng.gen_range(1..=32 - offset);
        1 | offset << 6 | (size - 1) << 11
    }

    /// `s_setreg_imm32_b32 hwreg(HW_REG_MODE, ...)`: denormal bits, IEEE bit, or the
    /// rounding+denormal byte.
    pub fn setreg_mode(&mut self) -> Inst {
        let info = row(self.gen, Family::Sopk, Opcode::S_SETREG_IMM32_B32);
        let (offset, size, value) = match self.rng.gen_range(0..3) {
            0 => (4u16, 4u16, self.rng.gen_range(0..16u32)),
            1 => (9, 1, self.rng.gen_range(0..2u32)),
            _ => (
                0,
                8,
                (self.rng.gen_range(0..16u32) << 4)
                    | if self.chance(0.8) {
                        0
                    } else {
                        self.rng.gen_range(0..16)
                    },
            ),
        };
        let simm = 1 | offset << 6 | (size - 1) << 11;
        let mut inst = blank(self.gen, info, Encoding::Sopk);
        inst.simm16 = Some(simm);
        inst.operands
            .push(opnd(Field::Hwreg, Operand::Imm(simm as u32), 0));
        inst.operands
            .push(opnd(Field::Literal, Operand::Literal(value), 1));
        inst
    }

    /// A SOPP instruction with a 16-bit immediate (branches get their displacement later).
    pub fn sopp(&mut self, op: Opcode, simm: u16) -> Inst {
        let info = row(self.gen, Family::Sopp, op);
        let mut inst = blank(self.gen, info, Encoding::Sopp);
        inst.simm16 = Some(simm);
        for s in info.slots {
            inst.operands
                .push(opnd(s.0, Operand::Imm(simm as u32), s.1));
        }
        inst
    }

    /// A forward branch (target resolved by the caller) or, rarely, a harmless SOPP.
    pub fn branch(&mut self) -> Inst {
        let op = *[
            Opcode::S_BRANCH,
            Opcode::S_CBRANCH_SCC0,
            Opcode::S_CBRANCH_SCC1,
            Opcode::S_CBRANCH_VCCZ,
            Opcode::S_CBRANCH_VCCNZ,
            Opcode::S_CBRANCH_EXECZ,
            Opcode::S_CBRANCH_EXECNZ,
        ]
        .choose(self.rng)
        .unwrap_or(&Opcode::S_BRANCH);
        self.sopp(op, 0)
    }

    fn sop(&mut self, family: Family, op: Opcode, ops: &[(Field, Operand, u8)]) -> Inst {
        let info = row(self.gen, family, op);
        let enc = match family {
            Family::Sop1 => Encoding::Sop1,
            Family::Sop2 => Encoding::Sop2,
            _ => Encoding::Sopc,
        };
        let mut inst = blank(self.gen, info, enc);
        inst.operands = ops.iter().map(|&(f, v, n)| opnd(f, v, n)).collect();
        inst
    }

    pub fn loop_init(&mut self, counter: u8, k: i8) -> Inst {
        self.sop(
            Family::Sop1,
            Opcode::S_MOV_B32,
            &[
                (Field::Sdst, Operand::Sgpr(counter), 1),
                (Field::Ssrc0, Operand::InlineInt(k), 1),
            ],
        )
    }

    /// `s_sub_u32 sC, sC, 1; s_cmp_lg_u32 sC, 0` (the caller adds `s_cbranch_scc1`).
    pub fn loop_latch(&mut self, counter: u8) -> [Inst; 2] {
        let c = Operand::Sgpr(counter);
        [
            self.sop(
                Family::Sop2,
                Opcode::S_SUB_U32,
                &[
                    (Field::Sdst, c, 1),
                    (Field::Ssrc0, c, 1),
                    (Field::Ssrc1, Operand::InlineInt(1), 1),
                ],
            ),
            self.sop(
                Family::Sopc,
                Opcode::S_CMP_LG_U32,
                &[
                    (Field::Ssrc0, c, 1),
                    (Field::Ssrc1, Operand::InlineInt(0), 1),
                ],
            ),
        ]
    }

    /// `s_and_saveexec_b64 s[SAVED:SAVED+1], vcc` (or another saveexec flavour).
    pub fn saveexec(&mut self) -> Inst {
        let op = *[
            Opcode::S_AND_SAVEEXEC_B64,
            Opcode::S_AND_SAVEEXEC_B64,
            Opcode::S_OR_SAVEEXEC_B64,
            Opcode::S_XOR_SAVEEXEC_B64,
            Opcode::S_ANDN2_SAVEEXEC_B64,
        ]
        .choose(self.rng)
        .unwrap_or(&Opcode::S_AND_SAVEEXEC_B64);
        self.sop(
            Family::Sop1,
            op,
            &[
                (Field::Sdst, Operand::Sgpr(SAVED_EXEC_SGPR), 2),
                (Field::Ssrc0, Operand::VccLo, 2),
            ],
        )
    }

    /// `s_or_b64 exec, exec, s[SAVED]` or `s_mov_b64 exec, s[SAVED]`.
    pub fn restore_exec(&mut self) -> Inst {
        let saved = Operand::Sgpr(SAVED_EXEC_SGPR);
        if self.chance(0.5) {
            self.sop(
                Family::Sop1,
                Opcode::S_MOV_B64,
                &[(Field::Sdst, Operand::ExecLo, 2), (Field::Ssrc0, saved, 2)],
            )
        } else {
            self.sop(
                Family::Sop2,
                Opcode::S_OR_B64,
                &[
                    (Field::Sdst, Operand::ExecLo, 2),
                    (Field::Ssrc0, Operand::ExecLo, 2),
                    (Field::Ssrc1, saved, 2),
                ],
            )
        }
    }

    /// A VOPC compare (e32, so it writes VCC) that is not a `v_cmpx`.
    pub fn vopc_to_vcc(&mut self) -> Inst {
        let rows: Vec<&'static OpInfo> = rows_on(self.gen, Family::Vopc)
            .filter(|r| !r.has(flags::WRITES_EXEC))
            .collect();
        let info = rows
            .choose(self.rng)
            .copied()
            .unwrap_or_else(|| row(self.gen, Family::Vopc, Opcode::V_CMP_LT_U32));
        self.vop_native(info)
    }

    /// A carry-out add/sub followed by a carry-in one reading its carry.
    pub fn carry_chain(&mut self) -> Vec<Inst> {
        let out_ops = [
            Opcode::V_ADD_CO_U32,
            Opcode::V_SUB_CO_U32,
            Opcode::V_SUBREV_CO_U32,
        ];
        let in_ops = [
            Opcode::V_ADDC_CO_U32,
            Opcode::V_SUBB_CO_U32,
            Opcode::V_SUBBREV_CO_U32,
        ];
        let a = row(
            self.gen,
            Family::Vop2,
            *out_ops.choose(self.rng).unwrap_or(&out_ops[0]),
        );
        let b = row(
            self.gen,
            Family::Vop2,
            *in_ops.choose(self.rng).unwrap_or(&in_ops[0]),
        );
        if self.chance(0.5) {
            return vec![self.vop_native(a), self.vop_native(b)];
        }
        // VOP3B forms chained through an SGPR pair.
        let carry = if self.chance(0.5) {
            Operand::VccLo
        } else {
            self.sgpr(2)
        };
        let mut first = self.vop3(a);
        let mut second = self.vop3(b);
        for o in first.operands.iter_mut().chain(second.operands.iter_mut()) {
            if o.field == Field::Sdst3b {
                o.value = carry;
            }
        }
        if let Some(o) = second.operands.iter_mut().find(|o| o.field == Field::Src2) {
            o.value = carry;
        }
        // The carry-in occupies the bus: other sources must not name a different scalar.
        for o in second.operands.iter_mut() {
            if matches!(o.field, Field::Src0 | Field::Src1)
                && o.value.is_reg()
                && !matches!(o.value, Operand::Vgpr(_))
            {
                o.value = Operand::Vgpr(0);
            }
        }
        vec![first, second]
    }
}
