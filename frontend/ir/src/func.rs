//! Functions, blocks and instructions.
//!
//! A [`Function`] is a list of blocks; block 0 is the entry. A block is a straight-line list of
//! instructions ended by a [`Terminator`]. Instruction `i` of a block defines the value `%i` of
//! that block (if it has a result): **values are block-local**, so nothing but guest state
//! carries data from one block to the next. That is the contract that lets a back end compile a
//! block as one unit (a chunk loop) and lets the wave yield at any block boundary.

use crate::format::ElemFormat;
use crate::op::{FloatMode, Op};
use crate::state::{FileId, Reg, StateLayout};
use crate::types::{ScalarType, Type};
use std::fmt;

/// A value: the index of its defining instruction in the current block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

impl Value {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// A block of a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub u32);

impl Block {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Block {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "block{}", self.0)
    }
}

/// Guest memory spaces. Out-of-bounds behaviour is defined per space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSpace {
    /// Device memory, addressed by 64-bit guest virtual addresses. An access outside every
    /// mapped buffer is a guest fault.
    Global,
    /// The workgroup's local data share, addressed by 32-bit byte offsets. Reads outside the
    /// allocation return 0 and writes there are dropped (GCN and TeraScale LDS behaviour).
    Lds,
    /// Per-lane private memory (scratch), addressed by 32-bit byte offsets into the lane's own
    /// segment. An access outside the segment is a guest fault.
    Private,
}

/// Width of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemWidth {
    B8,
    B16,
    B32,
    B64,
}

impl MemWidth {
    pub const fn bytes(self) -> u32 {
        match self {
            MemWidth::B8 => 1,
            MemWidth::B16 => 2,
            MemWidth::B32 => 4,
            MemWidth::B64 => 8,
        }
    }
}

/// Read-modify-write operations. Lanes perform them in ascending lane order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    /// `data` is the new value, `cmp` the expected one.
    CmpXchg,
    Umin,
    Umax,
    Smin,
    Smax,
    And,
    Or,
    Xor,
    /// `old >= data ? 0 : old + 1`.
    Inc,
    /// `old == 0 || old > data ? data : old - 1`.
    Dec,
    /// Float add (IEEE, denormals kept) of the width's float type.
    Fadd,
    /// Float min/max with the [`crate::MinMax::Ieee`] rule.
    Fmin,
    Fmax,
    /// `data - old`.
    Rsub,
    /// `(old & !cmp) | data`: `cmp` is the mask of bits replaced.
    Mskor,
    /// `old >= cmp ? old - cmp : old + data` (unsigned).
    Wrap,
    /// Float compare-exchange: `old == cmp ? data : old` with the IEEE equality of the width's
    /// float type (`-0 == +0`, NaN equals nothing; denormals kept).
    FcmpXchg,
    /// [`AtomicOp::FcmpXchg`] whose comparison reads denormal `old` and `cmp` as zero of the
    /// same sign (so every denormal equals `±0`); `data` is stored unchanged.
    FcmpXchgFlushIn,
    /// Per 32-bit half: when the data half's bit 31 is set, memory takes that half with bit 31
    /// cleared; otherwise the memory half is kept.
    CondXchg32,
}

impl AtomicOp {
    /// Whether `data` (and `cmp`) are floats of the access width.
    pub const fn is_float(self) -> bool {
        matches!(
            self,
            AtomicOp::Fadd
                | AtomicOp::Fmin
                | AtomicOp::Fmax
                | AtomicOp::FcmpXchg
                | AtomicOp::FcmpXchgFlushIn
        )
    }

    /// Whether the operation takes the second operand `cmp`.
    pub const fn takes_cmp(self) -> bool {
        matches!(
            self,
            AtomicOp::CmpXchg
                | AtomicOp::Mskor
                | AtomicOp::Wrap
                | AtomicOp::FcmpXchg
                | AtomicOp::FcmpXchgFlushIn
        )
    }
}

/// The element format of a formatted load or store: known when lifting, or a uniform `i32`
/// [`ElemFormat::code`] computed at run time (e.g. by a lifter, from a buffer descriptor).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatSrc {
    Static(ElemFormat),
    Dynamic(Value),
}

impl FormatSrc {
    /// The code operand of a dynamic format.
    pub fn value(self) -> Option<Value> {
        match self {
            FormatSrc::Static(_) => None,
            FormatSrc::Dynamic(v) => Some(v),
        }
    }
}

/// What an instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstKind {
    /// A uniform constant of the instruction's type (bits, zero-extended).
    Const(u64),
    /// A uniform value broadcast to every lane.
    Splat(Value),
    /// The lane's index, `lane i32`.
    LaneId,
    /// A pure op; the result is lane-shaped if any operand is.
    Pure {
        op: Op,
        mode: FloatMode,
        args: [Value; 4],
    },
    /// `lane i1` whose lane `l` is bit `l` of a uniform `i64` (bits above the wave size ignored).
    MaskFromBits(Value),
    /// Reads a register (1 or 2 cells by type) from a file of the matching shape.
    ReadReg(Reg),
    /// Writes a register. A lane write takes a `mask` (`lane i1`) and leaves the other lanes
    /// untouched; a uniform write has none.
    WriteReg {
        reg: Reg,
        value: Value,
        mask: Option<Value>,
    },
    /// Reads register `base + index` of `file` (index `i32`, uniform or per lane). An index
    /// outside the file is a guest fault.
    ReadRegIndexed {
        file: FileId,
        base: u32,
        index: Value,
    },
    WriteRegIndexed {
        file: FileId,
        base: u32,
        index: Value,
        value: Value,
        mask: Option<Value>,
    },
    /// Loads `width` bytes at `addr` (`i64` for global, `i32` otherwise; uniform or lane) and
    /// zero- or sign-extends them to the result type. Masked-off lanes do not access memory
    /// and yield 0. The result is lane-shaped iff the address is.
    Load {
        space: MemSpace,
        width: MemWidth,
        signed: bool,
        addr: Value,
        mask: Option<Value>,
    },
    /// Stores the low `width` bytes of `value`.
    Store {
        space: MemSpace,
        width: MemWidth,
        addr: Value,
        value: Value,
        mask: Option<Value>,
    },
    /// Loads the element of `format` at `addr` (addressing as for `Load`) and gives register
    /// component `comp` (0..4, after the format's swizzle) per [`ElemFormat::load`]: `i32`, or
    /// `i16` for a 16-bit (d16) component. The element is accessed as a whole (its
    /// [`ElemFormat::bytes`]); an invalid format accesses nothing. Masked-off lanes (the lifter
    /// folds range checks into the mask) do not access memory and yield
    /// [`ElemFormat::load_out_of_range`].
    LoadFormat {
        space: MemSpace,
        format: FormatSrc,
        comp: u8,
        addr: Value,
        mask: Option<Value>,
    },
    /// Stores register components `data[..count]` (1..=4, all `i32`, or all `i16` for d16) as
    /// one element of `format` at `addr`, per [`ElemFormat::store`]; the whole element is
    /// written (components beyond `count` count as 0), or nothing.
    StoreFormat {
        space: MemSpace,
        format: FormatSrc,
        addr: Value,
        data: [Value; 4],
        count: u8,
        mask: Option<Value>,
    },
    /// Atomic read-modify-write of `width` (32 or 64 bits); returns the old value.
    Atomic {
        op: AtomicOp,
        space: MemSpace,
        width: MemWidth,
        addr: Value,
        data: Value,
        cmp: Option<Value>,
        mask: Option<Value>,
    },
    /// Bits of a `lane i1` as a uniform `i64` (lanes at or above the wave size give 0).
    Ballot(Value),
    /// The value of lane `lane` (uniform `i32`, taken modulo the wave size) of a lane value.
    ReadLane { value: Value, lane: Value },
    /// Lane `l` gets `value` of lane `src[l]` (`lane i32`); a source outside the wave gives 0.
    Shuffle { value: Value, src: Value },
}

/// An instruction: what it does, its result type (None for pure side effects), and the guest
/// program counter it was lifted from (for error reports).
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    pub kind: InstKind,
    pub ty: Option<Type>,
    pub pc: u32,
}

impl InstKind {
    /// The operand values, in order.
    pub fn args(&self, n_pure: usize) -> Vec<Value> {
        use InstKind::*;
        match *self {
            Const(_) | LaneId | ReadReg(_) => vec![],
            Splat(v) | MaskFromBits(v) | Ballot(v) => vec![v],
            Pure { args, .. } => args[..n_pure].to_vec(),
            WriteReg { value, mask, .. } => std::iter::once(value).chain(mask).collect(),
            ReadRegIndexed { index, .. } => vec![index],
            WriteRegIndexed {
                index, value, mask, ..
            } => [index, value].into_iter().chain(mask).collect(),
            Load { addr, mask, .. } => std::iter::once(addr).chain(mask).collect(),
            Store {
                addr, value, mask, ..
            } => [addr, value].into_iter().chain(mask).collect(),
            LoadFormat {
                format, addr, mask, ..
            } => format
                .value()
                .into_iter()
                .chain([addr])
                .chain(mask)
                .collect(),
            StoreFormat {
                format,
                addr,
                data,
                count,
                mask,
                ..
            } => format
                .value()
                .into_iter()
                .chain([addr])
                .chain(data.into_iter().take(count as usize))
                .chain(mask)
                .collect(),
            Atomic {
                addr,
                data,
                cmp,
                mask,
                ..
            } => [addr, data].into_iter().chain(cmp).chain(mask).collect(),
            ReadLane { value, lane } => vec![value, lane],
            Shuffle { value, src } => vec![value, src],
        }
    }
}

impl InstKind {
    /// Replaces every operand value `v` by `f(v)`: exactly the operands [`InstKind::args`]
    /// lists (a pure op's slots beyond its arity and a formatted store's components beyond
    /// its count stay as they are).
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        use InstKind::*;
        let opt = |m: &mut Option<Value>, f: &mut dyn FnMut(Value) -> Value| {
            if let Some(v) = m {
                *v = f(*v);
            }
        };
        let fmt = |s: &mut FormatSrc, f: &mut dyn FnMut(Value) -> Value| {
            if let FormatSrc::Dynamic(v) = s {
                *v = f(*v);
            }
        };
        match self {
            Const(_) | LaneId | ReadReg(_) => {}
            Splat(v) | MaskFromBits(v) | Ballot(v) => *v = f(*v),
            Pure { op, args, .. } => args[..op.arity()].iter_mut().for_each(|v| *v = f(*v)),
            WriteReg { value, mask, .. } => {
                *value = f(*value);
                opt(mask, &mut f);
            }
            ReadRegIndexed { index, .. } => *index = f(*index),
            WriteRegIndexed {
                index, value, mask, ..
            } => {
                *index = f(*index);
                *value = f(*value);
                opt(mask, &mut f);
            }
            Load { addr, mask, .. } => {
                *addr = f(*addr);
                opt(mask, &mut f);
            }
            Store {
                addr, value, mask, ..
            } => {
                *addr = f(*addr);
                *value = f(*value);
                opt(mask, &mut f);
            }
            LoadFormat {
                format, addr, mask, ..
            } => {
                fmt(format, &mut f);
                *addr = f(*addr);
                opt(mask, &mut f);
            }
            StoreFormat {
                format,
                addr,
                data,
                count,
                mask,
                ..
            } => {
                fmt(format, &mut f);
                *addr = f(*addr);
                let n = *count as usize;
                data.iter_mut().take(n).for_each(|v| *v = f(*v));
                opt(mask, &mut f);
            }
            Atomic {
                addr,
                data,
                cmp,
                mask,
                ..
            } => {
                *addr = f(*addr);
                *data = f(*data);
                opt(cmp, &mut f);
                opt(mask, &mut f);
            }
            ReadLane { value, lane } => {
                *value = f(*value);
                *lane = f(*lane);
            }
            Shuffle { value, src } => {
                *value = f(*value);
                *src = f(*src);
            }
        }
    }
}

impl Inst {
    /// The operand values, in order.
    pub fn args(&self) -> Vec<Value> {
        let n = match self.kind {
            InstKind::Pure { op, .. } => op.arity(),
            _ => 0,
        };
        self.kind.args(n)
    }

    /// Whether the instruction has an effect beyond its result (state, memory, faults).
    pub fn has_side_effect(&self) -> bool {
        use InstKind::*;
        matches!(
            self.kind,
            WriteReg { .. }
                | WriteRegIndexed { .. }
                | ReadRegIndexed { .. }
                | Load { .. }
                | Store { .. }
                | LoadFormat { .. }
                | StoreFormat { .. }
                | Atomic { .. }
        )
    }

    /// Whether the instruction needs every lane's operand before any lane's result exists
    /// (it ends a chunk-fused region in the JIT).
    pub fn is_cross_lane(&self) -> bool {
        matches!(
            self.kind,
            InstKind::Ballot(_) | InstKind::ReadLane { .. } | InstKind::Shuffle { .. }
        )
    }
}

/// Why a wave stops with a guest fault raised by the program itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrapKind {
    /// The program jumped to an address that is not an instruction of the program.
    BadJump,
    /// A hardware stack (TeraScale control-flow stack, call stack) overflowed.
    StackOverflow,
    StackUnderflow,
    /// The program executed an explicit trap or an instruction the emulator cannot run there.
    Explicit(String),
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrapKind::BadJump => f.write_str("jump outside the program"),
            TrapKind::StackOverflow => f.write_str("stack overflow"),
            TrapKind::StackUnderflow => f.write_str("stack underflow"),
            TrapKind::Explicit(s) => f.write_str(s),
        }
    }
}

/// How a block ends. Conditions and targets are uniform: divergence is mask data.
#[derive(Clone, Debug, PartialEq)]
pub enum Terminator {
    Jump(Block),
    /// Branch on a uniform `i1`.
    Branch {
        cond: Value,
        then_to: Block,
        else_to: Block,
    },
    /// Continue at the block whose `guest_pc` equals the uniform `i64` value; none is a
    /// [`TrapKind::BadJump`] fault (computed jumps: `s_setpc_b64`, call returns).
    JumpIndirect(Value),
    /// Workgroup barrier: the wave waits for every wave of its workgroup, then continues at
    /// the block.
    Barrier(Block),
    /// The wave ends.
    Return,
    /// The wave stops with a guest fault.
    Trap(TrapKind),
}

impl Terminator {
    /// The values it reads (a branch's condition, an indirect jump's target).
    pub fn args(&self) -> Vec<Value> {
        match *self {
            Terminator::Branch { cond, .. } => vec![cond],
            Terminator::JumpIndirect(v) => vec![v],
            _ => vec![],
        }
    }

    /// Replaces every value `v` it reads by `f(v)`.
    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        match self {
            Terminator::Branch { cond, .. } => *cond = f(*cond),
            Terminator::JumpIndirect(v) => *v = f(*v),
            _ => {}
        }
    }

    pub fn successors(&self) -> Vec<Block> {
        match *self {
            Terminator::Jump(b) | Terminator::Barrier(b) => vec![b],
            Terminator::Branch {
                then_to, else_to, ..
            } => vec![then_to, else_to],
            Terminator::JumpIndirect(_) | Terminator::Return | Terminator::Trap(_) => vec![],
        }
    }
}

/// A block's contents.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockData {
    /// Guest address of the block's first instruction, if it starts one (jump targets).
    pub guest_pc: Option<u64>,
    /// Guest instructions lifted into this block (for the fuel budget).
    pub guest_insts: u32,
    pub insts: Vec<Inst>,
    pub term: Terminator,
    /// The guest pc a fault of the terminator reports: the guest instruction that ended the
    /// block (a trap, a jump outside the program), which need not have lifted to any `insts`.
    pub term_pc: u32,
}

impl BlockData {
    pub fn value_type(&self, v: Value) -> Option<Type> {
        self.insts.get(v.index()).and_then(|i| i.ty)
    }
}

/// A lifted program.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub layout: StateLayout,
    pub blocks: Vec<BlockData>,
}

impl Function {
    pub fn block(&self, b: Block) -> &BlockData {
        &self.blocks[b.index()]
    }

    /// The block starting at guest address `pc`.
    pub fn block_at(&self, pc: u64) -> Option<Block> {
        self.blocks
            .iter()
            .position(|b| b.guest_pc == Some(pc))
            .map(|i| Block(i as u32))
    }

    /// Total IR instructions.
    pub fn inst_count(&self) -> usize {
        self.blocks.iter().map(|b| b.insts.len()).sum()
    }

    /// Whether any instruction accesses memory space `space` (a dispatcher need not prepare a
    /// space the code never touches).
    pub fn uses_space(&self, space: MemSpace) -> bool {
        self.blocks.iter().flat_map(|b| &b.insts).any(|i| {
            matches!(
                i.kind,
                InstKind::Load { space: s, .. }
                    | InstKind::Store { space: s, .. }
                    | InstKind::LoadFormat { space: s, .. }
                    | InstKind::StoreFormat { space: s, .. }
                    | InstKind::Atomic { space: s, .. } if s == space
            )
        })
    }

    /// Whether any instruction reads a cell of register file `file` (a launcher provides
    /// what a file stands for, such as a GDS address, only to code that reads it).
    pub fn reads_file(&self, file: crate::FileId) -> bool {
        self.blocks
            .iter()
            .flat_map(|b| &b.insts)
            .any(|i| matches!(i.kind, InstKind::ReadReg(r) if r.file == file))
    }
}

/// Convenience: the scalar type of a width.
pub fn int_type_of_width(w: MemWidth) -> ScalarType {
    match w {
        MemWidth::B8 => ScalarType::I8,
        MemWidth::B16 => ScalarType::I16,
        MemWidth::B32 => ScalarType::I32,
        MemWidth::B64 => ScalarType::I64,
    }
}
