//! Memory: device, threadgroup and stack loads and stores, atomics and `uniform_store`.
//!
//! Addressing (applegpu.py HEAD's `device_load` `exec_thread` and documentation; seed 004
//! lines 10481-10500; notes/g13_map.md §5):
//! - device: the 64-bit base (a register pair per thread, or a uniform pair) aligned down to
//!   the element size, plus `(O << s) × size` for the index O (a sign-extended 16-bit
//!   immediate, or a word register read signed or unsigned by `Ou`) and the shift s (3 acts
//!   as 2); mask bit i reads or writes element i, so a mask with holes skips elements while
//!   the registers stay consecutive. An access outside every guest buffer is a guest fault.
//! - threadgroup: the 16-bit byte base (a half register, a uniform half or 0) plus O ×
//!   size ("the offset is in terms of elements, as defined by the format, added to the base",
//!   applegpu.py); any active thread's access past the threadgroup memory (or below 0) stops
//!   the SIMD-group with a guest fault before anything is accessed.
//! - stack (per-thread private memory, Mesa's spills and scratch): the byte address O in the
//!   thread's own segment (not scaled: Mesa passes NIR's scratch byte offsets and its spill
//!   slots' byte offsets as O, e.g. `stack_load r6, 4, i32, x` in its vectors), faulting
//!   outside it.
//!
//! Formats (formats.rs defines every conversion): `i8`, `i16`, `i32` and `f16` move raw bits,
//! zero-extended into the registers (a 32-bit element into a 16-bit register is invalid). The
//! normalized formats and `srgba8` convert each element to or from a float in the register's
//! width. The bit-packed formats (`rgb10a2`, `rg11b10f`, `rgb9e5` and the `.rtz` forms)
//! access one 32-bit word at element 0 (device: the base aligned down to 4 plus O × 4, the
//! shift ignored) and 4 or 3 registers, whatever the mask; the threadgroup guard covers that
//! word. Formats 9 and 11 are undefined and refused.
//!
//! Atomics are 32-bit: `add sub xchg cmpxchg umin imin umax imax and or xor` on the word at
//! the base plus O × 4; the source is a word, and a register pair for `cmpxchg` whose first
//! register is the new value and second the expected one (Mesa's `agx_emit_atomic` packs
//! `vec2(data2, data)`); the old value goes to R when the instruction has one.
//!
//! `uniform_store` writes 16-bit registers to the uniform file at the index O (in halves,
//! shifted by s): the whole SIMD-group's value, taken from its lowest active thread.

use super::formats::{Format, Packed};
use super::regs::int_type;
use super::state::sr;
use super::Lifter;
use crate::operand::{Reg, RegRange, Value as Operand, Width};
use wavejit_ir::{
    AtomicOp, IntCC, MemSpace, MemWidth, Op, ScalarType, Terminator, TrapKind, Value,
};
use wavejit_isa::LiftError;

use ScalarType::*;

/// Where an access goes.
#[derive(Clone, Copy)]
enum Space {
    Device,
    Threadgroup,
    Stack,
}

impl Lifter<'_> {
    /// Lifts a memory instruction; `false` if `name` is not one.
    pub(super) fn lift_mem(&mut self, name: &str) -> Result<bool, LiftError> {
        match name {
            "device_load" | "device_store" => {
                self.load_store(Space::Device, name == "device_load")?
            }
            "threadgroup_load" | "threadgroup_store" => {
                self.load_store(Space::Threadgroup, name == "threadgroup_load")?
            }
            "stack_load" | "stack_store" => self.load_store(Space::Stack, name == "stack_load")?,
            "atomic" => self.atomic(Space::Device)?,
            "threadgroup_atomic" => self.atomic(Space::Threadgroup)?,
            "uniform_store" => self.uniform_store()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn format(&self) -> Result<Format, LiftError> {
        let code = match self.operand("F") {
            Operand::Enum(e) => e.value,
            _ => u64::MAX,
        };
        Format::of(code).ok_or_else(|| {
            let name = match self.operand("F") {
                Operand::Enum(e) => e.name.unwrap_or("undefined"),
                _ => "undefined",
            };
            self.unsupported(&format!("memory format {name} ({code}) is not implemented"))
        })
    }

    fn mask_bits(&self) -> u64 {
        match self.operand("mask") {
            Operand::Enum(e) => e.value & 0xf,
            _ => 0,
        }
    }

    /// The element index `O` as an i64 (device) or i32 (threadgroup, stack).
    fn index(&mut self, ty: ScalarType) -> Result<Value, LiftError> {
        Ok(match self.operand("O") {
            Operand::Imm(v) => self.b.iconst(ty, v as u64),
            Operand::Reg(r) => {
                let v = self.read_gpr(r)?;
                let have = Self::reg_bits(r.width);
                let signed = match self.operand("Ou") {
                    Operand::Enum(e) => e.value == 0,
                    _ => true,
                };
                self.extend(v, have, signed, ty)
            }
            _ => return Err(self.invalid("the index has an undefined encoding".into())),
        })
    }

    /// The byte address of element 0 of an access, and its type (i64 device, i32 others);
    /// `shifted`: a device index is shifted by s (bit-packed formats ignore s).
    fn address(&mut self, space: Space, size: u32, shifted: bool) -> Result<Value, LiftError> {
        match space {
            Space::Device => {
                let base = match self.operand("A") {
                    Operand::Reg(r) => self.read_gpr(r)?,
                    Operand::UniformPair(u) => self.read_uniform_pair(u32::from(u))?,
                    _ => return Err(self.invalid("the base has an undefined encoding".into())),
                };
                let align = self.b.i64(!(u64::from(size) - 1));
                let base = self.b.op(Op::And, I64, &[base, align]);
                let shift = match self.operand("s") {
                    Operand::Shift(s) if shifted => u64::from(s.min(2)),
                    _ => 0,
                };
                let o = self.index(I64)?;
                let scale = self.b.i64(u64::from(size) << shift);
                let off = self.b.op(Op::Imul, I64, &[o, scale]);
                Ok(self.b.op(Op::Iadd, I64, &[base, off]))
            }
            Space::Threadgroup => {
                let base = match self.operand("A") {
                    Operand::Reg(r) => {
                        let v = self.read_gpr(r)?;
                        self.extend(v, 16, false, I32)
                    }
                    Operand::Uniform(u) => {
                        let v = self.read_uniform(u)?;
                        let have = if u.half.is_some() { 16 } else { 32 };
                        self.extend(v, have, false, I32)
                    }
                    Operand::Imm(v) => self.b.i32(v as u32),
                    _ => return Err(self.invalid("the base has an undefined encoding".into())),
                };
                let o = self.index(I32)?;
                let scale = self.b.i32(size);
                let off = self.b.op(Op::Imul, I32, &[o, scale]);
                Ok(self.b.op(Op::Iadd, I32, &[base, off]))
            }
            Space::Stack => self.index(I32),
        }
    }

    /// Stops the SIMD-group with a guest fault when any active thread's threadgroup access
    /// of `bytes` from element 0 (of `size` bytes) leaves the threadgroup memory; lifting
    /// continues in a new block, where no value of the old one is live.
    fn guard_threadgroup(&mut self, size: u32, bytes: u32) -> Result<(), LiftError> {
        let addr = self.address(Space::Threadgroup, size, true)?;
        let size = self.b.use_reg(self.l.sr(sr::THREADGROUP_BYTES), I32);
        let a = self.b.op(Op::Zext, I64, &[addr]);
        let neg = {
            let zero = self.b.i32(0);
            self.b.op(Op::Icmp(IntCC::Slt), I1, &[addr, zero])
        };
        let n = self.b.i64(u64::from(bytes));
        let end = self.b.op(Op::Iadd, I64, &[a, n]);
        let size = self.b.op(Op::Zext, I64, &[size]);
        let past = self.b.op(Op::Icmp(IntCC::Ugt), I1, &[end, size]);
        let bad = self.b.op(Op::Or, I1, &[neg, past]);
        let exec = self.exec_mask();
        let bad = self.b.op(Op::And, I1, &[bad, exec]);
        let any = self.b.ballot(bad);
        let zero = self.b.i64(0);
        let cond = self.b.op(Op::Icmp(IntCC::Ne), I1, &[any, zero]);
        let next = self.b.create_block();
        let fault = self.fault_block(TrapKind::Explicit(
            "threadgroup memory access out of bounds".into(),
        ));
        self.b.terminate(Terminator::Branch {
            cond,
            then_to: fault,
            else_to: next,
        });
        self.b.switch_to(next);
        Ok(())
    }

    fn load_store(&mut self, space: Space, load: bool) -> Result<(), LiftError> {
        let format = self.format()?;
        let width = format.width();
        let size = width.bytes();
        let Operand::Regs(regs) = self.operand("R") else {
            return Err(self.invalid("the data registers have an undefined encoding".into()));
        };
        // A bit-packed format accesses one word and a fixed number of registers, whatever the
        // mask says.
        let (regs, mask) = match format {
            Format::Packed(p) => (
                RegRange {
                    count: p.registers(),
                    ..regs
                },
                1,
            ),
            _ => (regs, self.mask_bits()),
        };
        self.check_range(regs)?;
        let reg_bits = if regs.halves { 16 } else { 32 };
        if reg_bits == 16 && format == Format::Raw(MemWidth::B32) {
            return Err(self.invalid("a 32-bit element with 16-bit registers".into()));
        }
        let last = 64 - mask.leading_zeros();
        let (mem, aty) = match space {
            Space::Device => (MemSpace::Global, I64),
            Space::Threadgroup => (MemSpace::Lds, I32),
            Space::Stack => (MemSpace::Private, I32),
        };
        if let Space::Threadgroup = space {
            if mask != 0 {
                self.guard_threadgroup(size, last * size)?;
            }
        }
        let addr = self.address(space, size, !matches!(format, Format::Packed(_)))?;
        let exec = self.exec_mask();
        if let Format::Packed(p) = format {
            let at = self.b.splat(addr);
            return self.load_store_word(p, mem, at, exec, regs, load);
        }
        let mut regs_iter = regs.regs();
        for i in 0..4u32 {
            if mask & (1 << i) == 0 {
                continue;
            }
            let Some(reg) = regs_iter.next() else { break };
            let step = self.b.iconst(aty, u64::from(i * size));
            let at = self.b.op(Op::Iadd, aty, &[addr, step]);
            let at = self.b.splat(at);
            if load {
                let v = self
                    .b
                    .load(mem, width, false, int_type(reg_bits), at, Some(exec));
                let v = self.unpack(format, i, v, reg_bits);
                self.write_gpr(reg, v)?;
            } else {
                let v = self.read_gpr(reg)?;
                let v = self.pack(format, i, v, reg_bits);
                self.b.store(mem, width, at, v, Some(exec));
            }
        }
        Ok(())
    }

    /// A bit-packed access: the word at `at`, the registers of `regs` in order.
    fn load_store_word(
        &mut self,
        p: Packed,
        mem: MemSpace,
        at: Value,
        exec: Value,
        regs: RegRange,
        load: bool,
    ) -> Result<(), LiftError> {
        let reg_bits = if regs.halves { 16 } else { 32 };
        if load {
            let w = self.b.load(mem, MemWidth::B32, false, I32, at, Some(exec));
            let values = self.unpack_word(p, w, reg_bits);
            for (reg, v) in regs.regs().zip(values) {
                self.write_gpr(reg, v)?;
            }
        } else {
            let values = regs
                .regs()
                .map(|r| self.read_gpr(r))
                .collect::<Result<Vec<_>, _>>()?;
            let w = self.pack_word(p, &values, reg_bits);
            self.b.store(mem, MemWidth::B32, at, w, Some(exec));
        }
        Ok(())
    }

    /// The registers of a data range must lie inside the file.
    fn check_range(&self, r: RegRange) -> Result<(), LiftError> {
        if r.uniform {
            return Err(self.invalid("uniform data registers".into()));
        }
        let last_cell = if r.halves {
            (u32::from(r.first) + u32::from(r.count)).saturating_sub(1) / 2
        } else {
            (u32::from(r.first) + u32::from(r.count)).saturating_sub(1)
        };
        if r.count > 0 && last_cell >= super::state::GPRS {
            return Err(self.invalid(format!(
                "register r{last_cell} is beyond the register file (r0-r127)"
            )));
        }
        Ok(())
    }

    fn atomic(&mut self, space: Space) -> Result<(), LiftError> {
        let op = match self.operand("op") {
            Operand::Enum(e) => e.value,
            _ => u64::MAX,
        };
        let op = match op {
            0 => AtomicOp::Add,
            1 => AtomicOp::Sub,
            2 => AtomicOp::Xchg,
            3 => AtomicOp::CmpXchg,
            4 => AtomicOp::Umin,
            5 => AtomicOp::Smin,
            6 => AtomicOp::Umax,
            7 => AtomicOp::Smax,
            8 => AtomicOp::And,
            9 => AtomicOp::Or,
            10 => AtomicOp::Xor,
            _ => return Err(self.invalid(format!("atomic operation {op} is undefined"))),
        };
        let Operand::Reg(s) = self.operand("S") else {
            return Err(self.invalid("the source has an undefined encoding".into()));
        };
        if let Space::Threadgroup = space {
            self.guard_threadgroup(4, 4)?;
        }
        let (data, cmp) = if op == AtomicOp::CmpXchg {
            let both = self.read_gpr(s)?;
            let lo = self.b.op(Op::Trunc, I32, &[both]);
            let k = self.b.i64(32);
            let hi = self.b.op(Op::Lshr, I64, &[both, k]);
            let hi = self.b.op(Op::Trunc, I32, &[hi]);
            (lo, Some(hi))
        } else {
            (self.read_gpr(s)?, None)
        };
        let mem = match space {
            Space::Device => MemSpace::Global,
            _ => MemSpace::Lds,
        };
        let addr = self.address(space, 4, true)?;
        let addr = self.b.splat(addr);
        let data = self.b.splat(data);
        let cmp = cmp.map(|c| self.b.splat(c));
        let exec = self.exec_mask();
        let old = self
            .b
            .atomic(op, mem, MemWidth::B32, addr, data, cmp, Some(exec));
        match self.operand("R") {
            Operand::Reg(r) => self.write_gpr(r, old)?,
            Operand::Regs(r) if r.count > 0 => {
                if let Some(reg) = r.regs().next() {
                    self.write_gpr(
                        Reg {
                            width: Width::Word,
                            ..reg
                        },
                        old,
                    )?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn uniform_store(&mut self) -> Result<(), LiftError> {
        let Operand::Regs(regs) = self.operand("R") else {
            return Err(self.invalid("the data registers have an undefined encoding".into()));
        };
        self.check_range(regs)?;
        let shift = match self.operand("s") {
            Operand::Shift(s) => u32::from(s),
            _ => 0,
        };
        let Operand::Imm(o) = self.operand("O") else {
            return Err(self.unsupported("a uniform_store to a register-held index"));
        };
        let exec = self.b.use_reg(self.l.exec(), I64);
        let lowest = self.b.op(Op::Ctz, I64, &[exec]);
        let lane = self.b.op(Op::Trunc, I32, &[lowest]);
        let mut half = (o << shift) as u64;
        for reg in regs.regs() {
            let v = self.read_gpr(reg)?;
            let u = self.b.read_lane(v, lane);
            let halves: Vec<Value> = if reg.width == Width::Word {
                let lo = self.b.op(Op::Trunc, I16, &[u]);
                let k = self.b.i32(16);
                let hi = self.b.op(Op::Lshr, I32, &[u, k]);
                let hi = self.b.op(Op::Trunc, I16, &[hi]);
                vec![lo, hi]
            } else {
                vec![u]
            };
            for h in halves {
                if half >= 2 * u64::from(super::state::UNIFORMS) {
                    return Err(self.invalid(format!(
                        "uniform u{} is beyond the uniform file (u0-u255)",
                        half / 2
                    )));
                }
                let target = crate::operand::UReg {
                    index: (half / 2) as u16,
                    half: Some(half & 1 != 0),
                };
                self.write_uniform(target, h)?;
                half += 1;
            }
        }
        Ok(())
    }
}
