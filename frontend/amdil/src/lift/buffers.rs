//! The registers that are memory or program data rather than temps: constant buffers, the
//! immediate constant buffer, `g[]`, and the constants a program defines.
//!
//! - `cb#[n]`: dword `c` of element `n` of constant buffer `#` (16 bytes per element) at its
//!   guest address. The two-dimensional form `cb[b][n]` (2.2.8 examples 3 and 5, L749,
//!   L776-L832) takes the buffer from its first index and the element from its second. A
//!   relative index outside the declared elements, or naming an undeclared buffer, reads 0
//!   (the seed does not say; 0 is what a raw UAV load gives out of range, L11439); an absolute
//!   one is an invalid program.
//! - `icb[n]`: dwords `4n`..`4n + 3` of the immediate constant buffer's data (Table 5.8: four
//!   components, "used in the same way as cb[n]", L1602; the declaration counts dwords,
//!   L4060); a dword past the data reads 0, and so does a relative index past the elements.
//!   The lift keeps the data in the `icb` state file for relative indices.
//! - `g[a]` (L1568-L1590): global memory, "each address corresponds to a 128-bit, four dword
//!   location": dword `c` at byte `16a + 4c` of the arena (the launch's global memory, whose
//!   raw UAVs address it too), read and written in the lanes of the exec mask like a
//!   register; outside every buffer of the arena an access faults, as a raw UAV access does.
//! - `c#` (float) reads the four values its `def` gives; `i#` (integer) only `loop` reads, and
//!   `b#` (boolean, 1 when true) only `ifnz` and the calls (Table 5.7, L1277-L1290). A
//!   compute launch sets no constants, so one without a `def`/`defb` is refused.

use super::Lifter;
use crate::inst::{Dim2, Index, Reg, Src};
use crate::token::RegType;
use wavejit_ir::{IntCC, MemSpace, MemWidth, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::{I1, I32, I64};

/// An index: known when lifting, or a value (uniform or per lane).
enum At<'a> {
    Imm(u32),
    Rel(&'a Src, Option<u32>),
}

impl<'a> Lifter<'a> {
    /// Dword `comp` of a constant buffer element (see the module doc).
    pub(super) fn const_buffer(&mut self, reg: &'a Reg, comp: u32) -> Result<Value, LiftError> {
        let element = |i: &'a Index| match i {
            Index::Imm(n) => Some(At::Imm(*n)),
            Index::Rel(x, imm) => Some(At::Rel(x, *imm)),
            Index::None => None,
        };
        // Two dimensions: an absolute first index is the register number (`cb[5][n]`, as
        // `v[1][2]` in example 3, L749), a relative one comes with number 0 (example 5).
        let (buffer, n) = match (&reg.dim2, &reg.index) {
            (None, index) => (At::Imm(reg.num), element(index)),
            (Some(d), index) => {
                let buffer = match index {
                    Index::None => At::Imm(reg.num),
                    Index::Rel(x, imm) if reg.num == 0 => At::Rel(x, *imm),
                    _ => {
                        return Err(self.invalid(
                            "a two-dimensional cb is cb[b][n]: one buffer index, then the \
                             element (L776)",
                        ))
                    }
                };
                let n = match d {
                    Dim2::Abs(n) => At::Imm(*n),
                    Dim2::Rel(x, imm) => At::Rel(x, *imm),
                };
                (buffer, Some(n))
            }
        };
        let n = n.ok_or_else(|| self.invalid(format!("cb{} needs an index", reg.num)))?;
        match buffer {
            At::Imm(id) => self.fixed_buffer(id, n, comp),
            At::Rel(x, imm) => {
                let id = self.index_value(x, imm)?;
                let n = self.at(n)?;
                self.chosen_buffer(id, n, comp)
            }
        }
    }

    fn at(&mut self, at: At<'a>) -> Result<Value, LiftError> {
        match at {
            At::Imm(n) => Ok(self.b.i32(n)),
            At::Rel(x, imm) => self.index_value(x, imm),
        }
    }

    /// Dword `comp` of element `n` of constant buffer `id`.
    fn fixed_buffer(&mut self, id: u32, n: At<'a>, comp: u32) -> Result<Value, LiftError> {
        let Some(&len) = self.decls.const_buffers.get(&id) else {
            return Err(self.invalid(format!("cb{id} is used but not declared (dcl_cb, L4048)")));
        };
        if let At::Imm(n) = n {
            if n >= len {
                return Err(
                    self.invalid(format!("cb{id}[{n}] is past its {len} declared elements"))
                );
            }
        }
        let n = self.at(n)?;
        let base = self.b.use_reg(self.l.const_buffer(id), I64);
        let len = self.b.i32(len);
        Ok(self.buffer_dword(base, len, n, comp))
    }

    /// Dword `comp` of element `n` of the constant buffer whose number is `id` (per lane).
    fn chosen_buffer(&mut self, id: Value, n: Value, comp: u32) -> Result<Value, LiftError> {
        let Some((&first, _)) = self.decls.const_buffers.first_key_value() else {
            return Err(self.invalid("cb[b][n] in a program that declares no constant buffer"));
        };
        // The declared size of buffer `id`, 0 for one not declared; a buffer outside the
        // declared ones reads the first one's base (and gives 0).
        let mut len = self.b.i32(0);
        let mut at = self.b.i32(first);
        for (&k, &size) in &self.decls.const_buffers {
            let b = &mut self.b;
            let kv = b.i32(k);
            let is = b.op(Op::Icmp(IntCC::Eq), I1, &[id, kv]);
            let size = b.i32(size);
            len = b.op(Op::Select, I32, &[is, size, len]);
            at = b.op(Op::Select, I32, &[is, kv, at]);
        }
        // Two cells (lo, hi) per buffer address.
        let one = self.b.i32(1);
        let cell = self.b.op(Op::Shl, I32, &[at, one]);
        let base = self.b.read_reg_indexed(self.l.cb, 0, cell, I64);
        Ok(self.buffer_dword(base, len, n, comp))
    }

    /// Dword `comp` of element `n` of the buffer at `base` with `len` elements: 0 when `n` is
    /// not below `len` (which then reads element 0).
    fn buffer_dword(&mut self, base: Value, len: Value, n: Value, comp: u32) -> Value {
        let b = &mut self.b;
        let inside = b.op(Op::Icmp(IntCC::Ult), I1, &[n, len]);
        let zero = b.i32(0);
        let n = b.op(Op::Select, I32, &[inside, n, zero]);
        let n = b.op(Op::Zext, I64, &[n]);
        let four = b.i64(4);
        let offset = b.op(Op::Shl, I64, &[n, four]);
        let comp = b.i64(4 * u64::from(comp));
        let offset = b.op(Op::Iadd, I64, &[offset, comp]);
        let addr = b.op(Op::Iadd, I64, &[base, offset]);
        let v = b.load(MemSpace::Global, MemWidth::B32, false, I32, addr, None);
        b.op(Op::Select, I32, &[inside, v, zero])
    }

    /// The value `def` or `defb` gives a constant register, where the instruction may read
    /// it (Table 5.7, L1277-L1290: `b#` only as the source of static control flow, `ifnz` and
    /// the calls (L3538, L3599), `i#` only for `loop`). A boolean reads 1 when true in every
    /// component.
    pub(super) fn constant(&self, reg: &Reg) -> Result<[u32; 4], LiftError> {
        let m = self.row().mnemonic;
        let n = reg.num;
        let v = match reg.ty {
            RegType::CONST_FLOAT => self.decls.floats.get(&n).copied(),
            RegType::CONST_INT if m == "loop" => self.decls.ints.get(&n).copied(),
            RegType::CONST_BOOL
                if matches!(m, "ifnz" | "callnz" | "call_logicalz" | "call_logicalnz") =>
            {
                self.decls.bools.get(&n).map(|&b| [u32::from(b); 4])
            }
            t => {
                return Err(self.invalid(format!(
                    "{}{n} read by {m} (Table 5.7: b# only by static flow control, i# only \
                     by loop)",
                    t.name(false)
                )))
            }
        };
        v.ok_or_else(|| {
            self.unsupported(format!(
                "{}{n}: no def gives its value, and a compute launch sets no constants",
                reg.ty.name(false)
            ))
        })
    }

    /// Component `comp` of element `icb[n]`: dword `4n + comp` of the immediate constant
    /// buffer (Table 5.8 gives `icb` four components, "used in the same way as cb[n]",
    /// L1602); a dword past the buffer's reads 0, as an index outside a constant buffer does.
    pub(super) fn immediate_buffer(&mut self, reg: &'a Reg, comp: u32) -> Result<Value, LiftError> {
        let Some(data) = &self.decls.icb else {
            return Err(
                self.invalid("icb is used but not declared (dcl_cb's immediate form, L4060)")
            );
        };
        if reg.num != 0 {
            return Err(self.invalid(format!(
                "icb{}: the program's one immediate constant buffer is icb",
                reg.num
            )));
        }
        let len = data.len() as u32;
        let elements = len.div_ceil(4);
        match &reg.index {
            Index::Imm(n) if *n < elements => {
                let v = data.get((4 * n + comp) as usize).copied().unwrap_or(0);
                Ok(self.b.i32(v))
            }
            Index::Imm(n) => Err(self.invalid(format!("icb[{n}] is past its {elements} elements"))),
            Index::Rel(x, imm) => {
                let n = self.index_value(x, *imm)?;
                let b = &mut self.b;
                let limit = b.i32(elements);
                let element = b.op(Op::Icmp(IntCC::Ult), I1, &[n, limit]);
                let two = b.i32(2);
                let at = b.op(Op::Shl, I32, &[n, two]);
                let c = b.i32(comp);
                let at = b.op(Op::Iadd, I32, &[at, c]);
                let len = b.i32(len);
                let dword = b.op(Op::Icmp(IntCC::Ult), I1, &[at, len]);
                let inside = b.op(Op::And, I1, &[element, dword]);
                let zero = b.i32(0);
                let at = b.op(Op::Select, I32, &[inside, at, zero]);
                let v = b.read_reg_indexed(self.l.icb, 0, at, I32);
                Ok(b.op(Op::Select, I32, &[inside, v, zero]))
            }
            Index::None => Err(self.invalid("icb needs an index")),
        }
    }

    /// The arena address of component `comp` of `g[address]`: "each address corresponds to a
    /// 128-bit, four dword location" (L1588) of global memory, which is the launch's arena.
    pub(super) fn global_address(&mut self, reg: &'a Reg, comp: u32) -> Result<Value, LiftError> {
        let a = match &reg.index {
            Index::Imm(n) => self.b.i32(*n),
            Index::Rel(x, imm) => self.index_value(x, *imm)?,
            Index::None => return Err(self.invalid("g needs an address (g[address], L1574)")),
        };
        let base = self.b.use_reg(self.l.arena(), I64);
        let b = &mut self.b;
        let a = b.op(Op::Zext, I64, &[a]);
        let four = b.i64(4);
        let offset = b.op(Op::Shl, I64, &[a, four]);
        let c = b.i64(4 * u64::from(comp));
        let offset = b.op(Op::Iadd, I64, &[offset, c]);
        let addr = b.op(Op::Iadd, I64, &[base, offset]);
        Ok(b.splat(addr))
    }
}
