//! The memory profile's instructions (see the module doc of [`crate::random`]): every memory
//! row the lifter takes, addressed through the per-lane patterns of [`Pattern`], with
//! instruction offsets that mostly stay within [`HEADROOM`] (so the access stays inside the
//! buffer) and now and then step just past the buffer's end or before its start.
//!
//! Forms: FLAT (gfx7+) and GLOBAL (gfx9, with a 64-bit address pair or an SGPR base plus a
//! 32-bit offset) loads, stores and atomics, returning (`glc`) or not; gfx9 SCRATCH loads and
//! stores at the pattern's offset into the lane's private segment; MUBUF through the
//! range-checked resource (`offen`, or no address VGPR) and on gfx6/7 `addr64` through the
//! unchecked one; every DS row with an address (`gds` clear); scalar loads from the buffer and
//! through the resource.
use super::{blank, opnd, row, Picker};
use crate::inst::{Encoding, Gen, Inst, MemFields, Opcode, Operand};
use crate::random::{
    rows_on, Pattern, BUFFER_BYTES, BUFFER_SGPR, GUARD_SGPR, HEADROOM, RSRC_ABS_SGPR, RSRC_SGPR,
    SAVED_EXEC_SGPR,
};
use crate::tables::{flags, Family, Field, OpInfo};
use rand::seq::SliceRandom;
use rand::Rng;

/// Pattern weights of non-atomic accesses outside a guard sandwich (where the guarded
/// pattern would fault on almost every EXEC). The weights and the offset odds of
/// [`Picker::inst_offset`] are tuned so that about a third of the programs fault somewhere:
/// fewer, and the edges are rarely reached; more, and most programs stop early.
const PLAIN: [(Pattern, u32); 6] = [
    (Pattern::Consecutive, 24),
    (Pattern::Slot, 14),
    (Pattern::Uniform, 14),
    (Pattern::Scattered, 24),
    (Pattern::Edge, 4),
    (Pattern::Contended, 14),
];

/// Pattern weights of atomics outside a guard sandwich: mostly aligned addresses (a global
/// atomic at a misaligned address faults), many lanes on one address.
const ATOMIC: [(Pattern, u32); 6] = [
    (Pattern::Contended, 40),
    (Pattern::Uniform, 20),
    (Pattern::Slot, 20),
    (Pattern::Consecutive, 15),
    (Pattern::Edge, 2),
    (Pattern::Scattered, 2),
];

/// Whether the memory profile generates `info` (of a memory family).
pub(in crate::random) fn generated(info: &OpInfo) -> bool {
    let name = info.opcode.name();
    let access = info.has(flags::LOAD) || info.has(flags::STORE) || info.has(flags::ATOMIC);
    match info.family {
        Family::Flat | Family::Global | Family::Scratch => access,
        Family::Mubuf => access && !name.contains("format") && !name.contains("lds"),
        Family::Ds => {
            info.slots.iter().any(|s| s.0 == Field::Addr)
                && !name.contains("gws")
                && !name.contains("ordered")
        }
        _ => false,
    }
}

/// Bytes one access of a vector memory row moves per lane (per address of a DS two-address
/// row).
fn access_bytes(info: &OpInfo) -> u32 {
    let name = info.opcode.name();
    if name.contains("byte")
        || name.contains("_u8")
        || name.contains("_i8")
        || name.ends_with("_b8")
    {
        return 1;
    }
    if name.contains("short")
        || name.contains("_u16")
        || name.contains("_i16")
        || name.contains("_b16")
    {
        return 2;
    }
    if info.family == Family::Ds {
        return if name.ends_with("b128") {
            16
        } else if name.ends_with("b96") {
            12
        } else if name.ends_with("64") {
            8
        } else {
            4
        };
    }
    let data = info
        .slots
        .iter()
        .find(|s| matches!(s.0, Field::Vdata | Field::Data0))
        .map_or(1, |s| u32::from(s.1).max(1));
    if name.contains("cmpswap") {
        4 * (data / 2).max(1)
    } else {
        4 * data
    }
}

/// The odds of an edge instruction offset for a global access (LDS accesses do not fault, so
/// they take edges more often).
fn edge_odds(atomic: bool) -> f64 {
    if atomic {
        0.02
    } else {
        0.04
    }
}

impl Picker<'_> {
    /// A memory instruction of the memory profile; `guarded`: inside a guard sandwich, where
    /// the guarded pattern is the likely one.
    pub(in crate::random) fn memory_heavy(&mut self, guarded: bool) -> Inst {
        let mut fams = vec![(Family::Ds, 30u32), (Family::Mubuf, 18), (Family::Smem, 5)];
        if self.gen >= Gen::Gfx7 {
            fams.push((Family::Flat, 22));
        }
        if self.gen == Gen::Gfx9 {
            fams.push((Family::Global, 26));
            fams.push((Family::Scratch, 12));
        }
        let fam = fams
            .choose_weighted(self.rng, |f| f.1)
            .map(|f| f.0)
            .unwrap_or(Family::Ds);
        if fam == Family::Smem {
            return self.scalar_edge_load();
        }
        let rows: Vec<&'static OpInfo> = rows_on(self.gen, fam).filter(|r| generated(r)).collect();
        let Some(&info) = rows.choose(self.rng) else {
            return self.scalar_edge_load();
        };
        let atomic = info.has(flags::ATOMIC);
        let pat = match self.pattern(atomic, guarded) {
            // Every other lane of the consecutive pattern is misaligned for 64 bits.
            Pattern::Consecutive if atomic && access_bytes(info) == 8 => Pattern::Slot,
            p => p,
        };
        match fam {
            Family::Ds => self.ds_heavy(info, pat),
            Family::Mubuf => self.mubuf(info, pat),
            Family::Global => self.flat_heavy(info, Encoding::Global, pat),
            Family::Scratch => self.flat_heavy(info, Encoding::Scratch, pat),
            _ => self.flat_heavy(info, Encoding::Flat, pat),
        }
    }

    /// `s_and_saveexec_b64 s[SAVED:SAVED+1], s[GUARD:GUARD+1]`.
    pub fn guard_saveexec(&mut self) -> Inst {
        self.sop(
            Family::Sop1,
            Opcode::S_AND_SAVEEXEC_B64,
            &[
                (Field::Sdst, Operand::Sgpr(SAVED_EXEC_SGPR), 2),
                (Field::Ssrc0, Operand::Sgpr(GUARD_SGPR), 2),
            ],
        )
    }

    fn pattern(&mut self, atomic: bool, guarded: bool) -> Pattern {
        if guarded && self.chance(0.75) {
            return Pattern::Guarded;
        }
        let table = if atomic { &ATOMIC } else { &PLAIN };
        table
            .choose_weighted(self.rng, |p| p.1)
            .map(|p| p.0)
            .unwrap_or(Pattern::Slot)
    }

    /// An instruction offset for an access of `bytes` (aligned to `align`): mostly one that
    /// keeps an in-range pattern inside the buffer, sometimes (`edge` odds) one that steps
    /// just past its end (or, when `signed`, before its start). At most `max`.
    fn inst_offset(&mut self, bytes: u32, align: u32, signed: bool, max: u32, edge: f64) -> i32 {
        let room = HEADROOM.saturating_sub(bytes);
        if !self.chance(edge) {
            let align = align.max(1);
            return (self.rng.gen_range(0..=room / align) * align).min(max) as i32;
        }
        let mut edges = vec![room as i32 + 1, HEADROOM as i32, (HEADROOM + bytes) as i32];
        if signed {
            edges.extend([-(bytes as i32), -1]);
        }
        edges.choose(self.rng).copied().unwrap_or(0).min(max as i32)
    }

    /// FLAT (gfx7+), GLOBAL or SCRATCH (gfx9) access on `pat`: the pattern's address pair,
    /// for GLOBAL sometimes the buffer base SGPRs plus the pattern's offset, for SCRATCH the
    /// pattern's offset into the lane's private segment (the `vaddr` form: LLVM prints the
    /// `saddr` form's unused `vaddr` as `off`, which the decoder does not model).
    fn flat_heavy(&mut self, info: &'static OpInfo, enc: Encoding, pat: Pattern) -> Inst {
        let atomic = info.has(flags::ATOMIC);
        let bytes = access_bytes(info);
        let scratch = enc == Encoding::Scratch;
        // GLOBAL and SCRATCH offsets are signed.
        let global = enc == Encoding::Global || scratch;
        let saddr = enc == Encoding::Global && self.chance(0.5);
        let align = if atomic {
            bytes
        } else {
            *[1, bytes].choose(self.rng).unwrap_or(&1)
        };
        let offset = if self.gen == Gen::Gfx9 {
            // GLOBAL: 13-bit signed; gfx9 FLAT: 12-bit unsigned.
            self.inst_offset(bytes, align, global, 4095, edge_odds(atomic))
        } else {
            0
        };
        let glc = atomic && self.chance(0.5);
        let mut inst = blank(self.gen, info, enc);
        inst.mem = MemFields {
            offset,
            glc,
            seg: match enc {
                Encoding::Global => 2,
                Encoding::Scratch => 1,
                _ => 0,
            },
            ..Default::default()
        };
        if glc {
            // The returned value is as wide as the data, half of it for cmpswap.
            let data = info.width(Field::Data0).unwrap_or(1);
            let n = if info.opcode.name().contains("cmpswap") {
                data / 2
            } else {
                data
            }
            .max(1);
            let dst = self.vgpr(n);
            inst.operands.push(opnd(Field::Vdata, dst, n));
        }
        for s in info.slots {
            let (v, n) = match s.0 {
                Field::Addr if saddr || scratch => (Operand::Vgpr(pat.offset_vgpr()), 1),
                Field::Addr => (Operand::Vgpr(pat.pair_vgpr()), 2),
                Field::Saddr if saddr => (Operand::Sgpr(BUFFER_SGPR), s.1),
                Field::Saddr => (Operand::Off, 1),
                _ => (self.vgpr(s.1), s.1),
            };
            inst.operands.push(opnd(s.0, v, n));
        }
        inst
    }

    /// MUBUF access: `offen` with the pattern's offset through the range-checked resource,
    /// no address VGPR (the instruction offset is the address), or on gfx6/7 `addr64` with
    /// the pattern's address pair through the unchecked resource.
    fn mubuf(&mut self, info: &'static OpInfo, pat: Pattern) -> Inst {
        let atomic = info.has(flags::ATOMIC);
        let bytes = access_bytes(info);
        let g67 = self.gen <= Gen::Gfx7;
        let mode = self.rng.gen_range(0..100);
        let (offen, addr64) = match mode {
            0..=59 => (true, false),
            60..=84 if g67 => (false, true),
            _ => (false, false),
        };
        let align = if atomic { bytes } else { 4.min(bytes) };
        let offset = if offen || addr64 {
            self.inst_offset(bytes, align, false, 4095, edge_odds(atomic))
        } else if self.chance(0.8) {
            (self.rng.gen_range(0..=(BUFFER_BYTES - bytes) / align) * align) as i32
        } else {
            (BUFFER_BYTES - bytes + *[0u32, 1, 4, bytes].choose(self.rng).unwrap_or(&0)) as i32
        };
        let glc = atomic && self.chance(0.5);
        let mut inst = blank(self.gen, info, Encoding::Mubuf);
        inst.mem = MemFields {
            offset,
            offen,
            addr64,
            glc,
            ..Default::default()
        };
        // An atomic's SGPR offset keeps its alignment.
        let soffset = if self.chance(0.8) {
            0
        } else if atomic {
            *[8i8, 16].choose(self.rng).unwrap_or(&0)
        } else {
            self.rng.gen_range(1..=HEADROOM as i8)
        };
        for s in info.slots {
            let (v, n) = match s.0 {
                Field::Vdata => {
                    let n = info.vdata_regs(self.gen, s.1);
                    (self.vgpr(n), n)
                }
                Field::Addr if offen => (Operand::Vgpr(pat.offset_vgpr()), 1),
                Field::Addr if addr64 => (Operand::Vgpr(pat.pair_vgpr()), 2),
                Field::Addr => (Operand::Off, 1),
                Field::Srsrc if addr64 => (Operand::Sgpr(RSRC_ABS_SGPR), 4),
                Field::Srsrc => (Operand::Sgpr(RSRC_SGPR), 4),
                _ => (Operand::InlineInt(soffset), 1),
            };
            inst.operands.push(opnd(s.0, v, n));
        }
        inst
    }

    /// A DS access at the pattern's offset into the LDS (which is as large as the buffer);
    /// two-address rows get small or random `offset0`/`offset1`, the others a 16-bit offset
    /// that now and then reaches far past the LDS (it wraps with the address at 32 bits).
    fn ds_heavy(&mut self, info: &'static OpInfo, pat: Pattern) -> Inst {
        let bytes = access_bytes(info);
        let offset: u16 = if info.opcode == Opcode::DS_SWIZZLE_B32 {
            self.swizzle_offset()
        } else if info.has(flags::DS_2ADDR) {
            let mut one = || {
                if self.chance(0.8) {
                    self.rng.gen_range(0..=3u16)
                } else {
                    self.rng.gen_range(0..=255u16)
                }
            };
            one() | one() << 8
        } else if self.chance(0.85) {
            self.inst_offset(bytes, bytes.min(8), false, 0xffff, 0.15) as u16
        } else {
            *[BUFFER_BYTES as u16, 0xfffc, 0xffff]
                .choose(self.rng)
                .unwrap_or(&0)
        };
        let mut inst = blank(self.gen, info, Encoding::Ds);
        inst.mem = MemFields {
            offset: i32::from(offset),
            offset0: offset as u8,
            offset1: (offset >> 8) as u8,
            ..Default::default()
        };
        for s in info.slots {
            let v = match s.0 {
                Field::Addr => Operand::Vgpr(pat.offset_vgpr()),
                _ => self.vgpr(s.1),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        inst
    }

    /// A `ds_swizzle_b32` pattern: a quad permutation, or any bitmask swizzle (and, or and
    /// xor masks of the lane bits; the listing spells the ones LLVM's `BITMASK_PERM` letters
    /// cannot as numbers).
    fn swizzle_offset(&mut self) -> u16 {
        if self.chance(0.5) {
            return 0x8000 | self.rng.gen_range(0..=0xffu16);
        }
        self.rng.gen_range(0..0x8000u16)
    }

    /// `s_load_dword{,x2,x4}` from the buffer base or `s_buffer_load_dword{,x2,x4}` through
    /// the range-checked resource, at an offset that sometimes reaches past the buffer's end
    /// (a fault for `s_load`, zeros for `s_buffer_load`).
    fn scalar_edge_load(&mut self) -> Inst {
        let g8 = self.g8();
        let fam = if g8 { Family::Smem } else { Family::Smrd };
        let buffer = self.chance(0.35);
        let choices: [(Opcode, u8); 3] = if buffer {
            [
                (Opcode::S_BUFFER_LOAD_DWORD, 1),
                (Opcode::S_BUFFER_LOAD_DWORDX2, 2),
                (Opcode::S_BUFFER_LOAD_DWORDX4, 4),
            ]
        } else {
            [
                (Opcode::S_LOAD_DWORD, 1),
                (Opcode::S_LOAD_DWORDX2, 2),
                (Opcode::S_LOAD_DWORDX4, 4),
            ]
        };
        let (op, n) = *choices.choose(self.rng).unwrap_or(&choices[0]);
        let info = row(self.gen, fam, op);
        let last = BUFFER_BYTES / 4 - u32::from(n);
        let dword = if self.chance(0.9) {
            self.rng.gen_range(0..=last)
        } else {
            last + self.rng.gen_range(1..=4)
        };
        // gfx6/7 immediate offsets are 8-bit dword counts.
        let dword = if g8 { dword } else { dword.min(255) };
        let off = if g8 { dword * 4 } else { dword };
        let mut inst = blank(
            self.gen,
            info,
            if g8 { Encoding::Smem } else { Encoding::Smrd },
        );
        inst.mem = MemFields {
            imm: true,
            offset: off as i32,
            ..Default::default()
        };
        let dst = self.sgpr(n);
        let base = if buffer { RSRC_SGPR } else { BUFFER_SGPR };
        for s in info.slots {
            let v = match s.0 {
                Field::Sdata => dst,
                Field::Sbase => Operand::Sgpr(base),
                _ => Operand::Imm(off),
            };
            inst.operands.push(opnd(s.0, v, s.1));
        }
        inst
    }
}
