//! Memory instructions, each inside the buffer or LDS the harness provides: scalar loads
//! from the buffer base, FLAT/GLOBAL accesses to the lane's own slot, LDS reads and writes.
use super::{blank, opnd, row, Picker};
use crate::inst::{Encoding, Gen, Inst, MemFields, Opcode, Operand};
use crate::random::{ADDR_VGPR, BUFFER_BYTES, BUFFER_SGPR, LANE_STRIDE, LDS_ADDR_VGPR};
use crate::tables::{Family, Field};
use rand::seq::SliceRandom;
use rand::Rng;

impl Picker<'_> {
    /// `s_load_dword{,x2,x4} sN, s[BUFFER], offset` inside the buffer.
    pub(super) fn scalar_load(&mut self) -> Inst {
        let fam = if self.g8() {
            Family::Smem
        } else {
            Family::Smrd
        };
        let (op, n) = *[
            (Opcode::S_LOAD_DWORD, 1u8),
            (Opcode::S_LOAD_DWORDX2, 2),
            (Opcode::S_LOAD_DWORDX4, 4),
        ]
        .choose(self.rng)
        .unwrap_or(&(Opcode::S_LOAD_DWORD, 1));
        let info = row(self.gen, fam, op);
        let dword = self
            .rng
            .gen_range(0..(BUFFER_BYTES / 4 - n as u32).min(255));
        let off = if self.g8() { dword * 4 } else { dword };
        let mut inst = blank(
            self.gen,
            info,
            if self.g8() {
                Encoding::Smem
            } else {
                Encoding::Smrd
            },
        );
        inst.mem = MemFields {
            imm: true,
            offset: off as i32,
            ..Default::default()
        };
        let dst = self.sgpr(n);
        for s in info.slots {
            let v = match s.0 {
                Field::Sdata => dst,
                Field::Sbase => Operand::Sgpr(BUFFER_SGPR),
                _ => Operand::Imm(off),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        inst
    }

    /// `flat_load/store_dword` (gfx7+) or `global_*` (gfx9) at the lane's own slot.
    pub(super) fn flat(&mut self) -> Inst {
        let g9 = self.gen == Gen::Gfx9;
        let global = g9 && self.chance(0.5);
        let store = self.chance(0.5);
        let (fam, enc, op) = match (global, store) {
            (false, false) => (Family::Flat, Encoding::Flat, Opcode::FLAT_LOAD_DWORD),
            (false, true) => (Family::Flat, Encoding::Flat, Opcode::FLAT_STORE_DWORD),
            (true, false) => (Family::Global, Encoding::Global, Opcode::GLOBAL_LOAD_DWORD),
            (true, true) => (Family::Global, Encoding::Global, Opcode::GLOBAL_STORE_DWORD),
        };
        let info = row(self.gen, fam, op);
        let mut inst = blank(self.gen, info, enc);
        let offset = if g9 {
            4 * self.rng.gen_range(0..LANE_STRIDE / 4) as i32
        } else {
            0
        };
        inst.mem = MemFields {
            offset,
            seg: if global { 2 } else { 0 },
            ..Default::default()
        };
        for s in info.slots {
            let v = match s.0 {
                Field::Addr => Operand::Vgpr(ADDR_VGPR),
                Field::Saddr => Operand::Off,
                _ => self.vgpr(1),
            };
            let n = if s.0 == Field::Saddr { 1 } else { s.1 };
            inst.operands.push(opnd(s.0, v, n));
        }
        inst
    }

    /// `ds_write_b32`/`ds_read_b32`/`ds_add_u32`, at the lane's slot or a random address
    /// (LDS accesses outside the allocation are defined: reads give 0, writes are dropped).
    pub(super) fn ds(&mut self) -> Inst {
        let op = *[
            Opcode::DS_WRITE_B32,
            Opcode::DS_READ_B32,
            Opcode::DS_ADD_U32,
            Opcode::DS_READ_B64,
            Opcode::DS_WRITE_B64,
        ]
        .choose(self.rng)
        .unwrap_or(&Opcode::DS_WRITE_B32);
        let info = row(self.gen, Family::Ds, op);
        let mut inst = blank(self.gen, info, Encoding::Ds);
        let offset: u16 = if self.chance(0.5) {
            0
        } else {
            self.rng.gen_range(0..64) * 4
        };
        inst.mem = MemFields {
            offset: offset as i32,
            offset0: offset as u8,
            offset1: (offset >> 8) as u8,
            ..Default::default()
        };
        let addr = if self.chance(0.8) {
            Operand::Vgpr(LDS_ADDR_VGPR)
        } else {
            self.vgpr(1)
        };
        for s in info.slots {
            let v = match s.0 {
                Field::Addr => addr,
                _ => self.vgpr(s.1),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        inst
    }
}
