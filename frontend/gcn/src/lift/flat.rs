//! FLAT (gfx7+), GLOBAL and SCRATCH (gfx9) accesses (CLRX doc/GcnInstrsFlat.md).
//!
//! FLAT addresses are treated as global addresses: LLVM's OpenCL code only passes global
//! pointers to FLAT here (accesses through the LDS or private apertures are not modelled).
//! GLOBAL: `saddr + zext(vaddr32) + offset` with an SGPR base, else `vaddr64 + offset`
//! (13-bit signed offset). SCRATCH: the 32-bit `saddr`/`vaddr` plus offset is a byte offset
//! into the lane's private segment ([`MemSpace::Private`]). Atomics return the old value to
//! the `vdst` field (instruction bits 63:56) when `glc` is set; cmpswap data holds the new
//! value then the compare value.
use super::smem::atomic_of;
use super::{LiftError, Lifter};
use crate::inst::{Encoding, Inst, Operand};
use crate::tables::{flags, Field};
use wavejit_ir::{MemSpace, MemWidth, Op, ScalarType, Value};
use ScalarType::*;

impl Lifter<'_> {
    fn flat_addr(&mut self, inst: &Inst) -> Result<(MemSpace, Value), LiftError> {
        let vaddr = match inst.operand(Field::Addr).map(|o| o.value) {
            Some(Operand::Vgpr(n)) => Some(n as u32),
            _ => None,
        };
        let saddr = inst
            .operand(Field::Saddr)
            .map(|o| o.value)
            .filter(|v| *v != Operand::Off);
        let off = inst.mem.offset;
        if inst.encoding == Encoding::Scratch {
            let base = match (saddr, vaddr) {
                (Some(s), _) => self.read_scalar(inst, s, I32)?,
                (None, Some(v)) => self.read_vgpr(inst, v, I32)?,
                _ => return Err(self.invalid(inst, "scratch access without an address")),
            };
            let k = self.b.i32(off as u32);
            let a = self.b.op(Op::Iadd, I32, &[base, k]);
            return Ok((MemSpace::Private, self.b.splat(a)));
        }
        let Some(v) = vaddr else {
            return Err(self.invalid(inst, "missing address VGPR"));
        };
        let a = match saddr {
            Some(s) if inst.encoding == Encoding::Global => {
                let base = self.read_scalar(inst, s, I64)?;
                let lo = self.read_vgpr(inst, v, I32)?;
                let lo = self.b.op(Op::Zext, I64, &[lo]);
                self.b.op(Op::Iadd, I64, &[base, lo])
            }
            _ => self.read_vgpr(inst, v, I64)?,
        };
        let k = self.b.i64(off as i64 as u64);
        let a = self.b.op(Op::Iadd, I64, &[a, k]);
        Ok((MemSpace::Global, self.b.splat(a)))
    }

    pub(crate) fn flat(&mut self, inst: &Inst) -> Result<(), LiftError> {
        let op = inst.opcode;
        if inst.mem.lds || inst.mem.tfe {
            return Err(self.unsupported(inst, "FLAT access with lds or tfe"));
        }
        let (space, addr) = self.flat_addr(inst)?;
        let exec = self.exec_mask();
        let name = op.name();
        if inst.info.has(flags::ATOMIC) {
            let Some((aop, wide)) = atomic_of(name) else {
                return Err(self.unsupported(inst, "atomic without semantics"));
            };
            let Some(Operand::Vgpr(d)) = inst.operand(Field::Data0).map(|o| o.value) else {
                return Err(self.invalid(inst, "missing atomic data"));
            };
            let (t, width) = match (wide, aop.is_float()) {
                (true, false) => (I64, MemWidth::B64),
                (false, false) => (I32, MemWidth::B32),
                (true, true) => (F64, MemWidth::B64),
                (false, true) => (F32, MemWidth::B32),
            };
            let data = self.read_vgpr(inst, d as u32, t)?;
            let cmp = if aop.takes_cmp() {
                Some(self.read_vgpr(inst, d as u32 + if wide { 2 } else { 1 }, t)?)
            } else {
                None
            };
            let old = self
                .b
                .atomic(aop, space, width, addr, data, cmp, Some(exec));
            if inst.mem.glc {
                // The decoder's rows have no vdst slot for atomics; the field is byte 7.
                let Some(&vdst) = self.code.get(self.pc as usize + 7) else {
                    return Err(self.invalid(inst, "truncated instruction"));
                };
                self.write_vgpr(inst, vdst as u32, old, exec)?;
            }
            return Ok(());
        }
        let store = inst.info.has(flags::STORE);
        let (width, signed, d16) = flat_width(name);
        let data = if store {
            inst.operand(Field::Data0)
        } else {
            inst.operand(Field::Vdata)
        };
        let Some(&crate::inst::Opnd {
            value: Operand::Vgpr(n),
            dwords,
            ..
        }) = data
        else {
            return Err(self.invalid(inst, "missing data VGPR"));
        };
        let comps = if width == MemWidth::B32 {
            dwords as u32
        } else {
            1
        };
        for i in 0..comps {
            let a = if i == 0 {
                addr
            } else {
                let t = self.b.ty(addr).scalar;
                let k = self.b.iconst(t, 4 * i as u64);
                self.b.op(Op::Iadd, t, &[addr, k])
            };
            if store {
                let v = self.read_vgpr(inst, n as u32 + i, I32)?;
                let v = if d16 == Some(true) {
                    let k = self.b.i32(16);
                    self.b.op(Op::Lshr, I32, &[v, k])
                } else {
                    v
                };
                self.b.store(space, width, a, v, Some(exec));
            } else {
                let v = self.b.load(space, width, signed, I32, a, Some(exec));
                self.load_component(inst, n as u32 + i, v, d16, exec)?;
            }
        }
        Ok(())
    }
}

/// (width, sign-extend, D16 half) of a FLAT/GLOBAL/SCRATCH load or store mnemonic.
fn flat_width(name: &str) -> (MemWidth, bool, Option<bool>) {
    let d16 = if name.ends_with("_d16_hi") {
        Some(true)
    } else if name.ends_with("_d16") {
        Some(false)
    } else {
        None
    };
    let (w, s) = if name.contains("_ubyte") || name.contains("store_byte") {
        (MemWidth::B8, false)
    } else if name.contains("_sbyte") {
        (MemWidth::B8, true)
    } else if name.contains("_ushort")
        || name.contains("store_short")
        || name.contains("load_short")
    {
        (MemWidth::B16, false)
    } else if name.contains("_sshort") {
        (MemWidth::B16, true)
    } else {
        (MemWidth::B32, false)
    };
    (w, s, d16)
}
