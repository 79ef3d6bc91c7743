//! Building functions: the SSA-builder idiom for lifters.
//!
//! Lifters read and write guest registers through [`FunctionBuilder::use_reg`] and
//! [`FunctionBuilder::def_reg`]; within a block the builder forwards a written value to later
//! reads (exactly, for unmasked writes) so lifted code keeps registers in SSA. Values never
//! cross blocks (see [`crate::func`]); switching blocks clears the forwarding cache.
//!
//! The builder applies only local rewrites that are exact for every lane and every input:
//! - a pure op whose operands are all uniform constants is folded with [`crate::semantics::eval`];
//! - `mask_from_bits(ballot(m))` is `m` (ballot keeps exactly the wave's lanes);
//! - `select` on a constant condition picks its operand.

use crate::func::*;
use crate::op::{FloatMode, Op};
use crate::semantics;
use crate::state::{FileKind, Reg, StateLayout};
use crate::types::{ScalarType, Shape, Type};
use std::collections::HashMap;

/// Builds a [`Function`] block by block.
pub struct FunctionBuilder {
    func: Function,
    current: Option<Block>,
    pc: u32,
    /// Forwarding cache of the current block: (register, cells) -> value of that register.
    known: HashMap<(Reg, u32), Value>,
}

impl FunctionBuilder {
    pub fn new(name: &str, layout: StateLayout) -> FunctionBuilder {
        FunctionBuilder {
            func: Function {
                name: name.to_string(),
                layout,
                blocks: Vec::new(),
            },
            current: None,
            pc: 0,
            known: HashMap::new(),
        }
    }

    pub fn layout(&self) -> &StateLayout {
        &self.func.layout
    }

    /// Creates an empty block (terminated by `Trap(BadJump)` until [`Self::terminate`]).
    pub fn create_block(&mut self) -> Block {
        let b = Block(self.func.blocks.len() as u32);
        self.func.blocks.push(BlockData {
            guest_pc: None,
            guest_insts: 0,
            insts: Vec::new(),
            term: Terminator::Trap(TrapKind::BadJump),
            term_pc: 0,
        });
        b
    }

    /// Makes `b` the block instructions are appended to.
    pub fn switch_to(&mut self, b: Block) {
        self.current = Some(b);
        self.known.clear();
    }

    pub fn current_block(&self) -> Option<Block> {
        self.current
    }

    pub fn set_guest_pc(&mut self, b: Block, pc: u64) {
        self.func.blocks[b.index()].guest_pc = Some(pc);
    }

    /// Sets the guest pc recorded in the following instructions and counts one guest
    /// instruction in the current block.
    pub fn begin_guest_inst(&mut self, pc: u32) {
        self.pc = pc;
        let b = self.cur();
        self.func.blocks[b.index()].guest_insts += 1;
    }

    /// Sets the guest pc recorded in the following instructions without counting a guest
    /// instruction: for a lifter that emits one guest instruction in several places (a VLIW
    /// group's reads, then its computations) and counts it once with
    /// [`Self::begin_guest_inst`].
    pub fn set_inst_pc(&mut self, pc: u32) {
        self.pc = pc;
    }

    fn cur(&self) -> Block {
        self.current
            .expect("no current block: call switch_to first")
    }

    fn data(&self) -> &BlockData {
        &self.func.blocks[self.cur().index()]
    }

    /// The type of a value of the current block.
    pub fn ty(&self, v: Value) -> Type {
        self.data().value_type(v).expect("value has no result type")
    }

    fn push(&mut self, kind: InstKind, ty: Option<Type>) -> Value {
        let pc = self.pc;
        let b = self.cur();
        let insts = &mut self.func.blocks[b.index()].insts;
        insts.push(Inst { kind, ty, pc });
        Value(insts.len() as u32 - 1)
    }

    fn const_bits(&self, v: Value) -> Option<u64> {
        match self.data().insts[v.index()].kind {
            InstKind::Const(c) => Some(c),
            _ => None,
        }
    }

    // --- values ---

    pub fn iconst(&mut self, ty: ScalarType, bits: u64) -> Value {
        self.push(
            InstKind::Const(bits & ty.bit_mask()),
            Some(Type::uniform(ty)),
        )
    }
    pub fn i32(&mut self, v: u32) -> Value {
        self.iconst(ScalarType::I32, v as u64)
    }
    pub fn i64(&mut self, v: u64) -> Value {
        self.iconst(ScalarType::I64, v)
    }
    pub fn f32(&mut self, v: f32) -> Value {
        self.iconst(ScalarType::F32, v.to_bits() as u64)
    }
    pub fn f64(&mut self, v: f64) -> Value {
        self.iconst(ScalarType::F64, v.to_bits())
    }
    pub fn bool(&mut self, v: bool) -> Value {
        self.iconst(ScalarType::I1, v as u64)
    }

    pub fn splat(&mut self, v: Value) -> Value {
        let t = self.ty(v);
        if t.is_lane() {
            return v;
        }
        self.push(InstKind::Splat(v), Some(Type::lane(t.scalar)))
    }

    pub fn lane_id(&mut self) -> Value {
        self.push(InstKind::LaneId, Some(Type::lane(ScalarType::I32)))
    }

    /// A pure op with the IEEE float mode.
    pub fn op(&mut self, op: Op, ty: ScalarType, args: &[Value]) -> Value {
        self.op_mode(op, FloatMode::IEEE, ty, args)
    }

    /// A pure op. Panics if the operands do not type-check: a lifter bug, not bad input.
    pub fn op_mode(&mut self, op: Op, mode: FloatMode, ty: ScalarType, args: &[Value]) -> Value {
        let tys: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
        let scalars: Vec<ScalarType> = tys.iter().map(|t| t.scalar).collect();
        if let Err(e) = op.check(ty, &scalars) {
            panic!(
                "ill-typed {}: {e} (result {ty}, operands {scalars:?})",
                op.name()
            );
        }
        let mode = if op.uses_float_mode() {
            mode
        } else {
            FloatMode::IEEE
        };
        let shape = tys.iter().fold(Shape::Uniform, |s, t| s.join(t.shape));
        if op == Op::Select {
            if let Some(c) = self.const_bits(args[0]) {
                let pick = if c & 1 == 1 { args[1] } else { args[2] };
                return if shape == Shape::Lane {
                    self.splat(pick)
                } else {
                    pick
                };
            }
        }
        if shape == Shape::Uniform {
            let consts: Option<Vec<u64>> = args.iter().map(|&a| self.const_bits(a)).collect();
            if let Some(c) = consts {
                let bits = semantics::eval(op, mode, ty, &scalars, &c);
                return self.iconst(ty, bits);
            }
        }
        let mut a = [Value(u32::MAX); 4];
        a[..args.len()].copy_from_slice(args);
        self.push(
            InstKind::Pure { op, mode, args: a },
            Some(Type { scalar: ty, shape }),
        )
    }

    /// Lane `l` of the result is bit `l` of `bits` (uniform i64).
    pub fn mask_from_bits(&mut self, bits: Value) -> Value {
        if let InstKind::Ballot(m) = self.data().insts[bits.index()].kind {
            return m;
        }
        self.push(InstKind::MaskFromBits(bits), Some(Type::MASK))
    }

    pub fn ballot(&mut self, mask: Value) -> Value {
        self.push(InstKind::Ballot(mask), Some(Type::uniform(ScalarType::I64)))
    }

    pub fn read_lane(&mut self, value: Value, lane: Value) -> Value {
        let t = self.ty(value);
        self.push(
            InstKind::ReadLane { value, lane },
            Some(Type::uniform(t.scalar)),
        )
    }

    pub fn shuffle(&mut self, value: Value, src: Value) -> Value {
        let t = self.ty(value);
        self.push(InstKind::Shuffle { value, src }, Some(Type::lane(t.scalar)))
    }

    // --- guest state ---

    fn reg_shape(&self, reg: Reg) -> Shape {
        match self.func.layout.file(reg.file).kind {
            FileKind::Uniform => Shape::Uniform,
            FileKind::Lane => Shape::Lane,
        }
    }

    /// Reads a register as `ty`, forwarding the last value written in this block.
    pub fn use_reg(&mut self, reg: Reg, ty: ScalarType) -> Value {
        if let Some(&v) = self.known.get(&(reg, ty.cells())) {
            if self.ty(v).scalar == ty {
                return v;
            }
            if self.ty(v).scalar.bits() == ty.bits() {
                return self.op(Op::Bitcast, ty, &[v]);
            }
        }
        let shape = self.reg_shape(reg);
        let v = self.push(InstKind::ReadReg(reg), Some(Type { scalar: ty, shape }));
        self.known.insert((reg, ty.cells()), v);
        v
    }

    fn forget_overlapping(&mut self, reg: Reg, cells: u32) {
        self.known.retain(|&(r, n), _| {
            r.file != reg.file || r.index + n <= reg.index || reg.index + cells <= r.index
        });
    }

    /// Writes a register. Lane registers take `mask` (lanes outside it keep their value);
    /// a uniform value written to a lane register is broadcast.
    pub fn def_reg(&mut self, reg: Reg, value: Value, mask: Option<Value>) {
        let shape = self.reg_shape(reg);
        let value = if shape == Shape::Lane {
            self.splat(value)
        } else {
            value
        };
        let cells = self.ty(value).scalar.cells();
        self.forget_overlapping(reg, cells);
        let mask = if shape == Shape::Lane { mask } else { None };
        self.push(InstKind::WriteReg { reg, value, mask }, None);
        if mask.is_none() {
            self.known.insert((reg, cells), value);
        }
    }

    /// Forgets forwarded register values (after an indexed write may have changed any).
    pub fn forget_regs(&mut self) {
        self.known.clear();
    }

    pub fn read_reg_indexed(
        &mut self,
        file: crate::state::FileId,
        base: u32,
        index: Value,
        ty: ScalarType,
    ) -> Value {
        let shape = match self.func.layout.file(file).kind {
            FileKind::Uniform => self.ty(index).shape,
            FileKind::Lane => Shape::Lane,
        };
        self.push(
            InstKind::ReadRegIndexed { file, base, index },
            Some(Type { scalar: ty, shape }),
        )
    }

    pub fn write_reg_indexed(
        &mut self,
        file: crate::state::FileId,
        base: u32,
        index: Value,
        value: Value,
        mask: Option<Value>,
    ) {
        self.known.retain(|&(r, _), _| r.file != file);
        self.push(
            InstKind::WriteRegIndexed {
                file,
                base,
                index,
                value,
                mask,
            },
            None,
        );
    }

    // --- memory ---

    #[allow(clippy::too_many_arguments)]
    pub fn load(
        &mut self,
        space: MemSpace,
        width: MemWidth,
        signed: bool,
        ty: ScalarType,
        addr: Value,
        mask: Option<Value>,
    ) -> Value {
        let shape = self.ty(addr).shape;
        self.push(
            InstKind::Load {
                space,
                width,
                signed,
                addr,
                mask,
            },
            Some(Type { scalar: ty, shape }),
        )
    }

    pub fn store(
        &mut self,
        space: MemSpace,
        width: MemWidth,
        addr: Value,
        value: Value,
        mask: Option<Value>,
    ) {
        self.push(
            InstKind::Store {
                space,
                width,
                addr,
                value,
                mask,
            },
            None,
        );
    }

    /// Register component `comp` of the `format` element at `addr`: `i32`, or `i16` when `d16`.
    pub fn load_format(
        &mut self,
        space: MemSpace,
        format: FormatSrc,
        comp: u8,
        d16: bool,
        addr: Value,
        mask: Option<Value>,
    ) -> Value {
        let shape = self.ty(addr).shape;
        let scalar = if d16 {
            ScalarType::I16
        } else {
            ScalarType::I32
        };
        self.push(
            InstKind::LoadFormat {
                space,
                format,
                comp,
                addr,
                mask,
            },
            Some(Type { scalar, shape }),
        )
    }

    /// Stores `data` (1 to 4 components, x first) as one `format` element at `addr`.
    pub fn store_format(
        &mut self,
        space: MemSpace,
        format: FormatSrc,
        addr: Value,
        data: &[Value],
        mask: Option<Value>,
    ) {
        let mut d = [Value(u32::MAX); 4];
        for (slot, &v) in d.iter_mut().zip(data) {
            *slot = v;
        }
        self.push(
            InstKind::StoreFormat {
                space,
                format,
                addr,
                data: d,
                count: data.len().min(4) as u8,
                mask,
            },
            None,
        );
    }

    #[allow(clippy::too_many_arguments)]
    pub fn atomic(
        &mut self,
        op: AtomicOp,
        space: MemSpace,
        width: MemWidth,
        addr: Value,
        data: Value,
        cmp: Option<Value>,
        mask: Option<Value>,
    ) -> Value {
        let t = self.ty(data);
        let shape = self.ty(addr).shape.join(t.shape);
        self.push(
            InstKind::Atomic {
                op,
                space,
                width,
                addr,
                data,
                cmp,
                mask,
            },
            Some(Type {
                scalar: t.scalar,
                shape,
            }),
        )
    }

    // --- terminators ---

    /// Ends the current block.
    /// Ends the current block; its terminator reports the current guest pc.
    pub fn terminate(&mut self, term: Terminator) {
        let b = self.cur();
        self.func.blocks[b.index()].term = term;
        self.func.blocks[b.index()].term_pc = self.pc;
        self.current = None;
        self.known.clear();
    }

    pub fn finish(self) -> Function {
        self.func
    }
}
