//! The register model: reading source components, writing destination components.
//!
//! # Sources (2.2.6-2.2.7, L565-L692)
//! Component `c` of a source is its register's component `swizzle[c]` (`0` and `1` select
//! 0.0 and 1.0f, the latter as the float's bits "even if the opcode is an integer operation",
//! L616), then the modifiers in their order of precedence (L618-L633):
//! `clamp(neg(abs(divComp(sign(x2(bias(invert(x))))))))`. Which modifiers an instruction may
//! carry depends on its type ([`Kind`], Table 2.10 L681-L692): a float instruction takes all of
//! them, an integer one the swizzle and `neg` (two's complement, L614), a logical one the
//! swizzle only (L3220); any other is an invalid program. On floats `neg` and `abs` change the
//! sign bit only ("including on INF values", NaN stays NaN, L611-L612); `invert` is 1 - x,
//! `bias` x - 0.5, `x2` 2x, `sign` -1/0/1 (a NaN, whose compares are false, gives 0),
//! `divComp(y|z|w)` divides the components before y, z or w by that component, `clamp` is the
//! [0, 1] clamp with clamp(NaN) = 0 (L674). Their arithmetic is single precision in
//! [`F32_MODE`].
//!
//! # Registers
//! - `r#`: the temp's component; `l#`: the literal's bits (`dcl_literal`). In a macro
//!   expansion `r#`, `l#`, `in#` and `out#` are the expansion's own (`macros`).
//! - `x#[n]`: element `n` of the indexed temp array; `x#[src + imm]` takes the index from the
//!   source's x component (after its swizzle) plus the immediate (L576). The seed gives no
//!   rule for a relative index outside the array's declared elements: it reads 0 and a write
//!   there writes nothing, in every lane, as for a constant buffer (D3D10, which IL follows
//!   here, leaves it undefined). An absolute one is an invalid program.
//! - `cb#[n]`, `icb[n]`, `g[a]` and the defined constants `c#`, `i#`, `b#`: `buffers`.
//! - A matrix macro's rows past its operand (`alu::matrix`, "EvalSource(src0+1) # Register
//!   number of src0 + 1", L7759): `r(# + k)` or `l(# + k)` with the operand's swizzle and
//!   modifiers; a destination's, `r(# + k)` with its mask and modifiers. Rows of other
//!   register types are not lifted.
//! - The thread ids (Table 5.6, L1269; 5.1-5.2, 5.50-5.53): `vTidInGrp` and `vThreadGrpId`
//!   from the launch, `vAbsTid = vThreadGrpId * size + vTidInGrp` per component,
//!   `vTidInGrpFlat = z*Dx*Dy + y*Dx + x` (L2225), `vThreadGrpIdFlat = z*Nx*Ny + y*Nx + x`
//!   (L2175), `vAbsTidFlat = vThreadGrpIdFlat*Dx*Dy*Dz + vTidInGrpFlat` (L1397), the flat ones
//!   replicated in every component; the w components the seed calls invalid read 0.
//! - `vWinCoord0` (5.58, L2309-L2323; rule and declarations in `pixel`): x, y = the lane's
//!   domain position (`vAbsTid` x, y) as floats + 0.5 (L2319, L4649); z = 0.0, w = 1.0.
//!
//! # Destinations (2.2.5, L509-L563)
//! A destination is a temp, an indexed temp element, `g[a]` or, in a macro, `in#`/`out#`. Each component is written per the write
//! mask (`x` writes the result, `_` nothing, `0` and `1` write 0.0 and 1.0f "even if the
//! instruction normally does not write that component", L519), in the lanes of the exec mask.
//! A float result first takes shift_scale (x2, x4, x8, d2, d4, d8: a multiply by the power of
//! two), then clamp (L545; clamp(NaN) = 0, L554); integer results take neither (L561, L563).
//! Every source is read before any component is written.

use super::{Lifter, F32_MODE};
use crate::inst::{Dst, Index, Reg, Src};
use crate::token::{DstComp, DstMod, RegType, Sel, SrcMod};
use wavejit_ir::{FloatCC, FunctionBuilder, IntCC, Op, ScalarType, Value};
use wavejit_isa::LiftError;

use ScalarType::{F32, I1, I32};

/// 1.0f's bits.
pub(super) const ONE: u32 = 0x3f80_0000;

/// How an instruction's operands are typed (Table 2.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Float: every source modifier; shift_scale and clamp on the result.
    Float,
    /// Integer or unsigned: swizzle and two's-complement `neg`.
    Int,
    /// Logical (bitwise) and typeless: swizzle only.
    Bits,
}

/// A float op on `i32` bit patterns, in [`F32_MODE`].
pub(super) fn fop(b: &mut FunctionBuilder, op: Op, args: &[Value]) -> Value {
    let f: Vec<Value> = args.iter().map(|&a| b.op(Op::Bitcast, F32, &[a])).collect();
    let r = b.op_mode(op, F32_MODE, F32, &f);
    b.op(Op::Bitcast, I32, &[r])
}

/// A float compare of `i32` bit patterns, in [`F32_MODE`] (denormals read as zero).
pub(super) fn fcmp(b: &mut FunctionBuilder, cc: FloatCC, x: Value, y: Value) -> Value {
    let f: Vec<Value> = [x, y]
        .iter()
        .map(|&a| b.op(Op::Bitcast, F32, &[a]))
        .collect();
    b.op_mode(Op::Fcmp(cc), F32_MODE, I1, &f)
}

/// `c ? t : f` of `i32`s.
pub(super) fn select(b: &mut FunctionBuilder, c: Value, t: u32, f: u32) -> Value {
    let t = b.i32(t);
    let f = b.i32(f);
    b.op(Op::Select, I32, &[c, t, f])
}

impl<'a> Lifter<'a> {
    /// Component `c` (0-3) of source `i`, as an instruction of kind `kind` reads it.
    pub(super) fn src(&mut self, i: usize, c: usize, kind: Kind) -> Result<Value, LiftError> {
        let Some(s) = self.inst().src.get(i) else {
            return Err(self.invalid(format!("source {i} is missing")));
        };
        self.read(s, Some(i), 0, c, kind)
    }

    /// Component `c` of source `i` read `row` registers past its own (`r#` becomes
    /// `r(# + row)`, `l#` `l(# + row)`), with the source's swizzle and modifiers: a matrix
    /// macro's row (7.11: "source modifiers of src0 are applied to each row", L7758). Rows
    /// past the first are lifted for unindexed temps and literals only.
    pub(super) fn src_row(&mut self, i: usize, row: u32, c: usize) -> Result<Value, LiftError> {
        let Some(s) = self.inst().src.get(i) else {
            return Err(self.invalid(format!("source {i} is missing")));
        };
        self.read(s, Some(i), row, c, Kind::Float)
    }

    /// Component `c` of `s`, a source that is not one of the instruction's own (a macro's
    /// actual parameter).
    pub(super) fn read_src(
        &mut self,
        s: &'a Src,
        c: usize,
        kind: Kind,
    ) -> Result<Value, LiftError> {
        self.read(s, None, 0, c, kind)
    }

    /// Checks the operand counts: `dsts` destinations and `srcs` sources.
    pub(super) fn operands(&self, dsts: usize, srcs: usize) -> Result<(), LiftError> {
        let inst = self.inst();
        if inst.dst.len() != dsts || inst.src.len() != srcs {
            return Err(self.invalid(format!(
                "{} destination(s) and {} source(s), not {dsts} and {srcs}",
                inst.dst.len(),
                inst.src.len()
            )));
        }
        Ok(())
    }

    /// Component `c` of `s`; `slot` names a source of the instruction whose register reads are
    /// shared by its components (constant buffer loads, computed ids); `row` as in
    /// [`Self::src_row`].
    fn read(
        &mut self,
        s: &'a Src,
        slot: Option<usize>,
        row: u32,
        c: usize,
        kind: Kind,
    ) -> Result<Value, LiftError> {
        let m = s.modifier.unwrap_or(SrcMod::IDENTITY);
        self.allowed(&m, kind)?;
        match kind {
            Kind::Bits => self.select_comp(s, slot, row, m.swizzle[c]),
            Kind::Int => {
                let v = self.select_comp(s, slot, row, m.swizzle[c])?;
                Ok(if m.neg[c] {
                    let zero = self.b.i32(0);
                    self.b.op(Op::Isub, I32, &[zero, v])
                } else {
                    v
                })
            }
            Kind::Float => self.float_src(s, slot, row, c, &m),
        }
    }

    /// Refuses the modifiers Table 2.10 does not allow for `kind`.
    fn allowed(&self, m: &SrcMod, kind: Kind) -> Result<(), LiftError> {
        if kind == Kind::Float {
            return Ok(());
        }
        let float_only = [
            (m.invert, "_invert"),
            (m.bias, "_bias"),
            (m.x2, "_x2"),
            (m.sign, "_sign"),
            (m.abs, "_abs"),
            (m.divcomp != 0, "_divcomp"),
            (m.clamp, "_clamp"),
        ];
        let what = if kind == Kind::Int {
            "an integer"
        } else {
            "a logical"
        };
        if let Some((_, name)) = float_only.iter().find(|(on, _)| *on) {
            return Err(self.invalid(format!(
                "{name} on {what} operation (Table 2.10, L681: float only)"
            )));
        }
        if kind == Kind::Bits && m.neg.contains(&true) {
            return Err(self.invalid("_neg on a logical operation (L3220: they take no modifiers)"));
        }
        Ok(())
    }

    /// The component `sel` selects: a register component, 0.0 or 1.0f.
    fn select_comp(
        &mut self,
        s: &'a Src,
        slot: Option<usize>,
        row: u32,
        sel: Sel,
    ) -> Result<Value, LiftError> {
        let comp = match sel {
            Sel::Zero => return Ok(self.b.i32(0)),
            Sel::One => return Ok(self.b.i32(ONE)),
            s => s as u32,
        };
        if row != 0 {
            return self.fetch_row(&s.reg, row, comp);
        }
        if let Some(&v) = slot.and_then(|i| self.fetched.get(&(i, comp))) {
            return Ok(v);
        }
        let v = self.fetch(&s.reg, comp)?;
        if let Some(i) = slot {
            self.fetched.insert((i, comp), v);
        }
        Ok(v)
    }

    /// A float source component: swizzle, then the modifiers in precedence order.
    fn float_src(
        &mut self,
        s: &'a Src,
        slot: Option<usize>,
        row: u32,
        c: usize,
        m: &SrcMod,
    ) -> Result<Value, LiftError> {
        let mut v = self.staged(s, slot, row, c, m)?;
        let divisor = match m.divcomp {
            0 => None,
            k @ 1..=3 => (c < usize::from(k)).then_some(usize::from(k)),
            _ => {
                return Err(self.unsupported(
                    "_divcomp(unknown): the seed names no divisor for it (Table 6.6)",
                ))
            }
        };
        if let Some(k) = divisor {
            let d = self.staged(s, slot, row, k, m)?;
            v = fop(&mut self.b, Op::Fdiv, &[v, d]);
        }
        if m.abs {
            v = fop(&mut self.b, Op::Fabs, &[v]);
        }
        if m.neg[c] {
            v = fop(&mut self.b, Op::Fneg, &[v]);
        }
        if m.clamp {
            v = fop(&mut self.b, Op::Fclamp { dx10: true }, &[v]);
        }
        Ok(v)
    }

    /// Component `c` through swizzle, invert, bias, x2 and sign.
    fn staged(
        &mut self,
        s: &'a Src,
        slot: Option<usize>,
        row: u32,
        c: usize,
        m: &SrcMod,
    ) -> Result<Value, LiftError> {
        let mut v = self.select_comp(s, slot, row, m.swizzle[c])?;
        let b = &mut self.b;
        if m.invert {
            let one = b.i32(ONE);
            v = fop(b, Op::Fsub, &[one, v]);
        }
        if m.bias {
            let half = b.f32(0.5);
            let half = b.op(Op::Bitcast, I32, &[half]);
            v = fop(b, Op::Fsub, &[v, half]);
        }
        if m.x2 {
            v = fop(b, Op::Fadd, &[v, v]);
        }
        if m.sign {
            let zero = b.i32(0);
            let neg = fcmp(b, FloatCC::Lt, v, zero);
            let pos = fcmp(b, FloatCC::Gt, v, zero);
            let one = select(b, pos, ONE, 0);
            let minus = b.i32(ONE | 0x8000_0000);
            v = b.op(Op::Select, I32, &[neg, minus, one]);
        }
        Ok(v)
    }

    /// Component `comp` (0-3) of a register.
    fn fetch(&mut self, reg: &'a Reg, comp: u32) -> Result<Value, LiftError> {
        if reg.dim2.is_some() && reg.ty != RegType::CONST_BUFF {
            return Err(self.unsupported(
                "two-dimensional register indices: only cb[b][n] is lifted (vertex inputs \
                 and the like are not state of a compute program)",
            ));
        }
        match reg.ty {
            RegType::TEMP | RegType::INPUT_ARG | RegType::OUTPUT_ARG => {
                self.unindexed(reg)?;
                self.temp_comp(reg.ty, reg.num, comp)
            }
            RegType::LITERAL => {
                self.unindexed(reg)?;
                self.literal_comp(reg.num, comp)
            }
            RegType::CONST_FLOAT | RegType::CONST_INT | RegType::CONST_BOOL => {
                self.unindexed(reg)?;
                let v = self.constant(reg)?;
                Ok(self.b.i32(v[comp as usize]))
            }
            RegType::IMMED_CONST_BUFF => self.immediate_buffer(reg, comp),
            RegType::GLOBAL => {
                let exec = self.exec_mask();
                let addr = self.global_address(reg, comp)?;
                Ok(self.b.load(
                    wavejit_ir::MemSpace::Global,
                    wavejit_ir::MemWidth::B32,
                    false,
                    I32,
                    addr,
                    Some(exec),
                ))
            }
            RegType::ITEMP => {
                let (file, at) = self.element(reg, comp)?;
                match at {
                    Element::Cell(cell) => {
                        let r = wavejit_ir::Reg::new(file, cell);
                        Ok(self.b.use_reg(r, I32))
                    }
                    Element::Index { at, inside } => {
                        let v = self.b.read_reg_indexed(file, 0, at, I32);
                        let zero = self.b.i32(0);
                        Ok(self.b.op(Op::Select, I32, &[inside, v, zero]))
                    }
                }
            }
            RegType::CONST_BUFF => self.const_buffer(reg, comp),
            t if (RegType::THREAD_ID_IN_GROUP.value()..=RegType::THREAD_GROUP_ID_FLAT.value())
                .contains(&t.value()) =>
            {
                self.unindexed(reg)?;
                Ok(self.thread_id(t, comp))
            }
            RegType::WINCOORD => {
                self.unindexed(reg)?;
                self.win_coord(comp)
            }
            RegType::ADDR => Err(self.unsupported(
                "a0: only IL_Rel_Addr tokens read it, whose layout the seed does not give (L503)",
            )),
            t => Err(self.unsupported(format!(
                "{} registers are not lifted (not state of a compute program here)",
                t.name(false)
            ))),
        }
    }

    fn temp_comp(&mut self, ty: RegType, num: u32, comp: u32) -> Result<Value, LiftError> {
        let n = self.temp_number(ty, num)?;
        let r = self.l.temp(n, comp);
        Ok(self.b.use_reg(r, I32))
    }

    fn literal_comp(&mut self, num: u32, comp: u32) -> Result<Value, LiftError> {
        let Some(l) = self.literal(num) else {
            return Err(self.invalid(format!(
                "l{num} is used but not declared (dcl_literal, L4220)"
            )));
        };
        Ok(self.b.i32(l[comp as usize]))
    }

    /// The register number `reg`'s plus `row`, for the rows a matrix macro reads or writes
    /// past its operand's: only an unindexed `r#` (or, for a source, `l#`) has such rows here.
    fn row_number(&self, reg: &Reg, row: u32, source: bool) -> Result<u32, LiftError> {
        let addressable = reg.ty == RegType::TEMP || (source && reg.ty == RegType::LITERAL);
        if !addressable || reg.dim2.is_some() || reg.index != Index::None {
            return Err(self.unsupported(format!(
                "{}: a matrix row past an operand that is not an unindexed r#{} is not lifted",
                reg.ty.name(false),
                if source { " or l#" } else { "" }
            )));
        }
        reg.num
            .checked_add(row)
            .ok_or_else(|| self.invalid(format!("register number {} + {row} overflows", reg.num)))
    }

    /// Component `comp` of the register `row` numbers past `reg`.
    fn fetch_row(&mut self, reg: &Reg, row: u32, comp: u32) -> Result<Value, LiftError> {
        let num = self.row_number(reg, row, true)?;
        if reg.ty == RegType::LITERAL {
            self.literal_comp(num, comp)
        } else {
            self.temp_comp(reg.ty, num, comp)
        }
    }

    pub(super) fn unindexed(&self, reg: &Reg) -> Result<(), LiftError> {
        if reg.index == Index::None {
            Ok(())
        } else {
            Err(self.invalid(format!(
                "{} takes no index (L576: only x#, cb# and v# do)",
                reg.ty.name(false)
            )))
        }
    }

    /// Where component `comp` of an indexed temp element lies: its file and a cell, or a
    /// per-lane cell index (a cell of the file even where the element does not exist) and
    /// whether the element exists.
    fn element(
        &mut self,
        reg: &'a Reg,
        comp: u32,
    ) -> Result<(wavejit_ir::FileId, Element), LiftError> {
        let Some(&(file, len)) = self.l.arrays.get(&reg.num) else {
            return Err(self.invalid(format!(
                "x{} is used but not declared (dcl_indexed_temp_array, L4103)",
                reg.num
            )));
        };
        match &reg.index {
            Index::Imm(n) if *n < len => Ok((file, Element::Cell(4 * n + comp))),
            Index::Imm(n) => Err(self.invalid(format!(
                "x{}[{n}] is past the array's {len} elements",
                reg.num
            ))),
            Index::Rel(x, imm) => {
                let n = self.index_value(x, *imm)?;
                let b = &mut self.b;
                let limit = b.i32(len);
                let inside = b.op(Op::Icmp(IntCC::Ult), I1, &[n, limit]);
                let two = b.i32(2);
                let at = b.op(Op::Shl, I32, &[n, two]);
                let comp = b.i32(comp);
                let at = b.op(Op::Iadd, I32, &[at, comp]);
                let at = b.op(Op::Select, I32, &[inside, at, comp]);
                Ok((file, Element::Index { at, inside }))
            }
            Index::None => Err(self.invalid(format!("x{} needs an index", reg.num))),
        }
    }

    /// An index `x.x + imm` (the index source's first component, after its swizzle).
    pub(super) fn index_value(&mut self, x: &'a Src, imm: Option<u32>) -> Result<Value, LiftError> {
        let v = self.read(x, None, 0, 0, Kind::Int)?;
        Ok(match imm {
            Some(k) if k != 0 => {
                let k = self.b.i32(k);
                self.b.op(Op::Iadd, I32, &[v, k])
            }
            _ => v,
        })
    }

    /// Component `comp` of a thread-id register (see the module doc).
    pub(super) fn thread_id(&mut self, ty: RegType, comp: u32) -> Value {
        let xyz = comp < 3;
        match ty {
            RegType::THREAD_ID_IN_GROUP if xyz => self.tid(comp),
            RegType::THREAD_GROUP_ID if xyz => self.grid(super::state::grid::GROUP_ID + comp),
            RegType::ABSOLUTE_THREAD_ID if xyz => {
                let g = self.grid(super::state::grid::GROUP_ID + comp);
                let d = self.grid(super::state::grid::GROUP_SIZE + comp);
                let t = self.tid(comp);
                let base = self.b.op(Op::Imul, I32, &[g, d]);
                self.b.op(Op::Iadd, I32, &[base, t])
            }
            RegType::THREAD_ID_IN_GROUP_FLAT => {
                let t = [0, 1, 2].map(|c| self.tid(c));
                self.flat(t, super::state::grid::GROUP_SIZE)
            }
            RegType::THREAD_GROUP_ID_FLAT => {
                let g = [0, 1, 2].map(|c| self.grid(super::state::grid::GROUP_ID + c));
                self.flat(g, super::state::grid::GROUPS)
            }
            RegType::ABSOLUTE_THREAD_ID_FLAT => {
                let g = [0, 1, 2].map(|c| self.grid(super::state::grid::GROUP_ID + c));
                let group = self.flat(g, super::state::grid::GROUPS);
                let t = [0, 1, 2].map(|c| self.tid(c));
                let local = self.flat(t, super::state::grid::GROUP_SIZE);
                let d = [0, 1, 2].map(|c| self.grid(super::state::grid::GROUP_SIZE + c));
                let b = &mut self.b;
                let dxy = b.op(Op::Imul, I32, &[d[0], d[1]]);
                let dxyz = b.op(Op::Imul, I32, &[dxy, d[2]]);
                let base = b.op(Op::Imul, I32, &[group, dxyz]);
                b.op(Op::Iadd, I32, &[base, local])
            }
            _ => self.b.i32(0),
        }
    }

    /// `v.z * D.x * D.y + v.y * D.x + v.x` with `D` the three `grid` cells from `dims`.
    fn flat(&mut self, v: [Value; 3], dims: u32) -> Value {
        let d = [0, 1].map(|c| self.grid(dims + c));
        let b = &mut self.b;
        let dxy = b.op(Op::Imul, I32, &[d[0], d[1]]);
        let z = b.op(Op::Imul, I32, &[v[2], dxy]);
        let y = b.op(Op::Imul, I32, &[v[1], d[0]]);
        let zy = b.op(Op::Iadd, I32, &[z, y]);
        b.op(Op::Iadd, I32, &[zy, v[0]])
    }

    fn tid(&mut self, c: u32) -> Value {
        let r = self.l.tid(c);
        self.b.use_reg(r, I32)
    }

    fn grid(&mut self, cell: u32) -> Value {
        let r = self.l.grid(cell);
        self.b.use_reg(r, I32)
    }

    /// What the destination's write mask does with each component.
    pub(super) fn dst_comps(&self) -> Result<[DstComp; 4], LiftError> {
        Ok(self.dst()?.modifier.unwrap_or(DstMod::IDENTITY).comp)
    }

    fn dst(&self) -> Result<&'a Dst, LiftError> {
        self.inst()
            .dst
            .first()
            .ok_or_else(|| self.invalid("no destination"))
    }

    /// Writes the destination: `vals[c]` for each component the mask writes (`None` only where
    /// it does not), 0.0 or 1.0f where it says so, each with the result modifiers of `out`,
    /// in the lanes of the exec mask and of `only[c]` when given.
    pub(super) fn write_dst(
        &mut self,
        vals: [Option<Value>; 4],
        only: [Option<Value>; 4],
        out: Kind,
    ) -> Result<(), LiftError> {
        let d = self.dst()?;
        self.write_to(d, vals, only, out)
    }

    /// [`Self::write_dst`] of the register `row` numbers past the destination's (a matrix
    /// macro's row; an unindexed `r#` only), with the destination's mask and modifiers.
    pub(super) fn write_dst_row(
        &mut self,
        row: u32,
        vals: [Option<Value>; 4],
        out: Kind,
    ) -> Result<(), LiftError> {
        let d = self.dst()?;
        self.write_row(d, row, vals, [None; 4], out)
    }

    /// [`Self::write_dst`] of destination `d`.
    pub(super) fn write_to(
        &mut self,
        d: &'a Dst,
        vals: [Option<Value>; 4],
        only: [Option<Value>; 4],
        out: Kind,
    ) -> Result<(), LiftError> {
        self.write_row(d, 0, vals, only, out)
    }

    fn write_row(
        &mut self,
        d: &'a Dst,
        row: u32,
        vals: [Option<Value>; 4],
        only: [Option<Value>; 4],
        out: Kind,
    ) -> Result<(), LiftError> {
        let m = d.modifier.unwrap_or(DstMod::IDENTITY);
        let row_num = if row == 0 {
            None
        } else {
            Some(self.row_number(&d.reg, row, false)?)
        };
        if out != Kind::Float && (m.shift != 0 || m.clamp) {
            return Err(
                self.invalid("shift_scale and clamp apply to float results only (L561, L563)")
            );
        }
        let mut values = [None; 4];
        for c in 0..4 {
            values[c] = match m.comp[c] {
                DstComp::NoWrite => None,
                DstComp::Zero => Some(self.b.i32(0)),
                DstComp::One => Some(self.b.i32(ONE)),
                DstComp::Write => {
                    let v =
                        vals[c].ok_or_else(|| self.invalid("a written component has no value"))?;
                    Some(self.result_modifiers(v, &m)?)
                }
            };
        }
        let exec = self.exec_mask();
        for c in 0..4 {
            let Some(v) = values[c] else { continue };
            let mask = match only[c] {
                Some(o) => self.b.op(Op::And, I1, &[exec, o]),
                None => exec,
            };
            match row_num {
                None => self.write_comp(&d.reg, c as u32, v, mask)?,
                Some(num) => self.def_temp(RegType::TEMP, num, c as u32, v, mask)?,
            }
        }
        Ok(())
    }

    /// shift_scale, then clamp (L545).
    fn result_modifiers(&mut self, v: Value, m: &DstMod) -> Result<Value, LiftError> {
        const SCALE: [f32; 7] = [1.0, 2.0, 4.0, 8.0, 0.5, 0.25, 0.125];
        let mut v = v;
        if m.shift != 0 {
            let Some(&scale) = SCALE.get(usize::from(m.shift)) else {
                return Err(
                    self.invalid(format!("shift_scale {} (ILShiftScale ends at 6)", m.shift))
                );
            };
            let k = self.b.f32(scale);
            let k = self.b.op(Op::Bitcast, I32, &[k]);
            v = fop(&mut self.b, Op::Fmul, &[v, k]);
        }
        if m.clamp {
            v = fop(&mut self.b, Op::Fclamp { dx10: true }, &[v]);
        }
        Ok(v)
    }

    fn def_temp(
        &mut self,
        ty: RegType,
        num: u32,
        comp: u32,
        v: Value,
        mask: Value,
    ) -> Result<(), LiftError> {
        let n = self.temp_number(ty, num)?;
        let r = self.l.temp(n, comp);
        self.b.def_reg(r, v, Some(mask));
        Ok(())
    }

    /// Writes component `comp` of a destination register in the lanes of `mask`.
    fn write_comp(
        &mut self,
        reg: &'a Reg,
        comp: u32,
        v: Value,
        mask: Value,
    ) -> Result<(), LiftError> {
        if reg.dim2.is_some() {
            return Err(self.unsupported("two-dimensional register indices are not lifted yet"));
        }
        match reg.ty {
            RegType::TEMP | RegType::INPUT_ARG | RegType::OUTPUT_ARG => {
                self.unindexed(reg)?;
                self.def_temp(reg.ty, reg.num, comp, v, mask)?;
            }
            RegType::ITEMP => match self.element(reg, comp)? {
                (file, Element::Cell(cell)) => {
                    self.b
                        .def_reg(wavejit_ir::Reg::new(file, cell), v, Some(mask));
                }
                (file, Element::Index { at, inside }) => {
                    // An array is a lane file: a value computed from uniforms alone (a 0/1
                    // mask component, literals, cb) is written as every lane's.
                    let v = self.b.splat(v);
                    let mask = self.b.op(Op::And, I1, &[mask, inside]);
                    self.b.write_reg_indexed(file, 0, at, v, Some(mask));
                }
            },
            RegType::GLOBAL => {
                let addr = self.global_address(reg, comp)?;
                self.b.store(
                    wavejit_ir::MemSpace::Global,
                    wavejit_ir::MemWidth::B32,
                    addr,
                    v,
                    Some(mask),
                );
            }
            t => {
                return Err(
                    self.unsupported(format!("{} as a destination is not lifted", t.name(true)))
                )
            }
        }
        Ok(())
    }
}

/// Where an indexed temp component lies.
enum Element {
    /// A fixed cell.
    Cell(u32),
    /// A per-lane (or uniform) cell index inside the file, and whether the element it stands
    /// for exists (a uniform or lane `i1`).
    Index { at: Value, inside: Value },
}

mod pair;
pub(super) use pair::{halves, Pair};
