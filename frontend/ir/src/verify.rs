//! The verifier: everything a back end may assume about a [`Function`].
//!
//! Promise (IR rule 8): a function [`verify`] accepts never makes a back end panic. Back ends
//! index blocks, values, register files and cells without further checks, so this module
//! rejects every malformed reference and every type a back end could not handle. What stays
//! dynamic is guest behaviour with a defined outcome: memory addresses (per [`MemSpace`]),
//! indexed register accesses past their file (a guest fault), indirect jump targets
//! ([`crate::TrapKind::BadJump`]), lane numbers of `read_lane` and `shuffle`.
//!
//! Rules, beyond "every operand is an earlier instruction of the same block that has a result":
//! - Layout: wave size a multiple of 4 in 4..=64; at most 65536 files; file names are unique
//!   identifiers (`[A-Za-z_][A-Za-z0-9_]*`, the text form relies on it); one wave's state is at
//!   most [`MAX_STATE_BYTES`] (so no cell offset overflows `u32` arithmetic).
//! - Blocks: at least one (block 0 is the entry); `guest_pc`s are unique (an indirect jump must
//!   resolve to one block).
//! - Result types are present exactly when the kind produces a value (all but `write`, indexed
//!   `write` and `store`).
//! - `Const`: uniform, bits within the type's width. `Splat`: of a uniform value. `LaneId`:
//!   `lane i32`. `MaskFromBits`: of a uniform `i64`, gives a mask (`lane i1`).
//! - `Pure`: [`Op::check`] on the scalar types; the result is lane-shaped iff an operand is;
//!   an op that ignores its [`FloatMode`] ([`Op::uses_float_mode`]) carries the default mode,
//!   so each op has one representation. Argument slots beyond the op's arity are ignored.
//! - Register access: the file exists and has the value's shape (a lane file takes lane values,
//!   a uniform file uniform ones); the 1 or 2 cells the type occupies lie inside the file. Lane
//!   writes take an optional mask; uniform writes take none. Indexed access: `i32` index; the
//!   base register itself lies inside the file; a uniform file is written with a uniform index
//!   and read with either (a lane index gives a lane result); a lane file always gives lane
//!   results.
//! - Memory: the address is `i64` for [`MemSpace::Global`], `i32` otherwise. [`MemSpace::Private`]
//!   addresses are lane-shaped (every lane has its own segment, so a uniform access could not
//!   say whose segment it means). A mask is allowed only on a lane-shaped access (a lane address,
//!   value, data or compare operand). Loads give an integer at least as wide as the access, or
//!   a float exactly as wide (never sign-extended). Stores take a value at least as wide as the
//!   access. Atomics are 32 or 64 bits; data (and the compare value, present exactly for
//!   `cmpxchg`) have the access width, float for `fadd`/`fmin`/`fmax` and integer otherwise;
//!   the result has the data's type and is lane-shaped iff an operand is.
//!   Formatted loads give component 0..3 as `i32` (or `i16`, d16) shaped like the address;
//!   formatted stores take 1 to 4 components, all `i32` or all `i16`; a dynamic format is a
//!   uniform `i32` code.
//! - Cross-lane: `ballot` of a mask gives a uniform `i64`; `read_lane` of a lane value at a
//!   uniform `i32` lane gives the uniform of its type; `shuffle` of a lane value by a `lane i32`
//!   source gives the lane of its type.
//! - Terminators: targets are blocks of the function; branch conditions are uniform `i1`;
//!   `jump_indirect` takes a uniform `i64`.

use crate::func::{
    Block, BlockData, FormatSrc, Function, Inst, InstKind, MemSpace, MemWidth, Terminator, Value,
};
#[cfg(doc)]
use crate::op::{FloatMode, Op};
use crate::state::{FileKind, Reg, RegFile};
use crate::types::{ScalarType, Shape, Type};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Largest state of one wave the verifier accepts, in bytes (16 MiB; a GCN wave64 with 256
/// VGPRs needs 64 KiB).
pub const MAX_STATE_BYTES: u64 = 1 << 24;

/// Where a [`VerifyError`] was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The function as a whole (its layout or its block list).
    Function,
    /// A block's header (its `guest_pc`).
    Block(Block),
    /// Instruction `index` of a block.
    Inst(Block, usize),
    /// A block's terminator.
    Terminator(Block),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Function => f.write_str("function"),
            Location::Block(b) => write!(f, "{b}"),
            Location::Inst(b, i) => write!(f, "{b} inst {i}"),
            Location::Terminator(b) => write!(f, "{b} terminator"),
        }
    }
}

/// Why a function is not valid IR.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{loc}: {msg}")]
pub struct VerifyError {
    pub loc: Location,
    pub msg: String,
}

/// Checks every rule of the module docs; returns the first violation.
pub fn verify(f: &Function) -> Result<(), VerifyError> {
    let at = |loc| move |msg| VerifyError { loc, msg };
    verify_layout(f).map_err(at(Location::Function))?;
    if f.blocks.is_empty() {
        return Err(at(Location::Function)(
            "a function needs at least one block".into(),
        ));
    }
    if u32::try_from(f.blocks.len()).is_err() {
        return Err(at(Location::Function)(
            "more blocks than block numbers".into(),
        ));
    }
    let mut starts: HashMap<u64, usize> = HashMap::new();
    for (bi, data) in f.blocks.iter().enumerate() {
        let b = Block(bi as u32);
        if let Some(pc) = data.guest_pc {
            if let Some(first) = starts.insert(pc, bi) {
                let msg = format!("guest pc {pc:#x} already starts block{first}");
                return Err(at(Location::Block(b))(msg));
            }
        }
        if u32::try_from(data.insts.len()).is_err() {
            return Err(at(Location::Block(b))(
                "more instructions than value numbers".into(),
            ));
        }
        for (i, inst) in data.insts.iter().enumerate() {
            let cx = InstCx { f, data, index: i };
            cx.check(inst).map_err(at(Location::Inst(b, i)))?;
        }
        check_terminator(f, data).map_err(at(Location::Terminator(b)))?;
    }
    Ok(())
}

fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn verify_layout(f: &Function) -> Result<(), String> {
    let layout = &f.layout;
    let w = layout.wave_size;
    if !(4..=64).contains(&w) || !w.is_multiple_of(4) {
        return Err(format!("wave size {w} is not a multiple of 4 in 4..=64"));
    }
    if layout.files.len() > usize::from(u16::MAX) + 1 {
        return Err(format!(
            "{} register files; file ids are 16-bit",
            layout.files.len()
        ));
    }
    let mut names = HashSet::new();
    let (mut uniform, mut lane) = (0u64, 0u64);
    for file in &layout.files {
        if !is_identifier(&file.name) {
            return Err(format!(
                "register file name {:?} is not an identifier",
                file.name
            ));
        }
        if !names.insert(file.name.as_str()) {
            return Err(format!("two register files are named {:?}", file.name));
        }
        match file.kind {
            FileKind::Uniform => uniform += u64::from(file.cells),
            FileKind::Lane => lane += u64::from(file.cells),
        }
    }
    let bytes = (uniform * 4).next_multiple_of(64) + lane * u64::from(w) * 4;
    if bytes > MAX_STATE_BYTES {
        return Err(format!(
            "wave state of {bytes} bytes exceeds {MAX_STATE_BYTES}"
        ));
    }
    Ok(())
}

fn want(cond: bool, msg: impl FnOnce() -> String) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(msg())
    }
}

/// The type of `v` in `data` if `v` is one of the first `limit` instructions and has a result.
fn operand(data: &BlockData, limit: usize, v: Value) -> Result<Type, String> {
    if v.index() >= limit {
        return Err(format!("operand {v} is not defined before its use"));
    }
    data.insts[v.index()]
        .ty
        .ok_or_else(|| format!("operand {v} has no value"))
}

fn shape_name(s: Shape) -> &'static str {
    match s {
        Shape::Uniform => "uniform",
        Shape::Lane => "lane",
    }
}

fn file_shape(kind: FileKind) -> Shape {
    match kind {
        FileKind::Uniform => Shape::Uniform,
        FileKind::Lane => Shape::Lane,
    }
}

/// One instruction being checked: `index` is its position, so operands must be below it.
struct InstCx<'a> {
    f: &'a Function,
    data: &'a BlockData,
    index: usize,
}

impl InstCx<'_> {
    fn operand(&self, v: Value) -> Result<Type, String> {
        operand(self.data, self.index, v)
    }

    fn operand_is(&self, v: Value, want: Type, what: &str) -> Result<(), String> {
        let t = self.operand(v)?;
        self::want(t == want, || {
            format!("{what} {v} must be {want}, found {t}")
        })
    }

    fn file(&self, reg: Reg) -> Result<&RegFile, String> {
        self.f
            .layout
            .files
            .get(usize::from(reg.file.0))
            .ok_or_else(|| format!("register file {} does not exist", reg.file.0))
    }

    /// `reg` holds a value of `ty` (1 or 2 cells) of the file's shape.
    fn register(&self, reg: Reg, ty: Type) -> Result<(), String> {
        let file = self.file(reg)?;
        want(file_shape(file.kind) == ty.shape, || {
            format!(
                "{} file {} holds {} values, not {ty}",
                shape_name(file_shape(file.kind)),
                file.name,
                shape_name(file_shape(file.kind))
            )
        })?;
        let cells = ty.scalar.cells();
        want(self.f.layout.contains(reg, cells), || {
            format!(
                "{}[{}] ({cells} cells) is outside the file of {} cells",
                file.name, reg.index, file.cells
            )
        })
    }

    fn mask(&self, mask: Option<Value>, lane_shaped: bool) -> Result<(), String> {
        match mask {
            None => Ok(()),
            Some(_) if !lane_shaped => Err("a uniform instruction takes no mask".into()),
            Some(m) => self.operand_is(m, Type::MASK, "mask"),
        }
    }

    /// A dynamic format code is a uniform `i32`.
    fn format_code(&self, format: FormatSrc) -> Result<(), String> {
        match format.value() {
            Some(v) => self.operand_is(v, Type::uniform(ScalarType::I32), "format code"),
            None => Ok(()),
        }
    }

    fn address(&self, space: MemSpace, addr: Value) -> Result<Type, String> {
        let t = self.operand(addr)?;
        let want_scalar = match space {
            MemSpace::Global => ScalarType::I64,
            MemSpace::Lds | MemSpace::Private => ScalarType::I32,
        };
        want(t.scalar == want_scalar, || {
            format!("{space:?} address {addr} must be {want_scalar}, found {t}")
        })?;
        want(space != MemSpace::Private || t.is_lane(), || {
            format!("private address {addr} must be lane-shaped (each lane has its own segment)")
        })?;
        Ok(t)
    }

    fn check(&self, inst: &Inst) -> Result<(), String> {
        use InstKind::*;
        let result = || {
            inst.ty
                .ok_or_else(|| "this instruction needs a result type".to_string())
        };
        let exact = |want: Type| match inst.ty {
            Some(t) if t == want => Ok(()),
            Some(t) => Err(format!("result type must be {want}, found {t}")),
            None => Err(format!("result type {want} is missing")),
        };
        let no_result = || match inst.ty {
            None => Ok(()),
            Some(t) => Err(format!(
                "this instruction has no result, but a type {t} is given"
            )),
        };
        match inst.kind {
            Const(bits) => {
                let t = result()?;
                want(!t.is_lane(), || "a constant is uniform".into())?;
                want(bits & !t.scalar.bit_mask() == 0, || {
                    format!("constant {bits:#x} does not fit {}", t.scalar)
                })
            }
            Splat(v) => {
                let t = self.operand(v)?;
                want(!t.is_lane(), || format!("splat of lane value {v}"))?;
                exact(Type::lane(t.scalar))
            }
            LaneId => exact(Type::lane(ScalarType::I32)),
            Pure { op, mode, args } => {
                let t = result()?;
                let n = op.arity();
                let tys = args[..n]
                    .iter()
                    .map(|&v| self.operand(v))
                    .collect::<Result<Vec<_>, _>>()?;
                let scalars: Vec<ScalarType> = tys.iter().map(|t| t.scalar).collect();
                op.check(t.scalar, &scalars).map_err(|e| {
                    format!("{e} (result {}, operands {})", t.scalar, list(&scalars))
                })?;
                let shape = tys.iter().fold(Shape::Uniform, |s, t| s.join(t.shape));
                want(t.shape == shape, || {
                    format!("result must be {} like its operands", shape_name(shape))
                })?;
                want(op.uses_float_mode() || mode.is_default(), || {
                    format!(
                        "{} ignores its float mode; it must be the default",
                        op.name()
                    )
                })
            }
            MaskFromBits(v) => {
                self.operand_is(v, Type::uniform(ScalarType::I64), "mask_from_bits operand")?;
                exact(Type::MASK)
            }
            ReadReg(reg) => self.register(reg, result()?),
            WriteReg { reg, value, mask } => {
                no_result()?;
                let t = self.operand(value)?;
                self.register(reg, t)?;
                self.mask(mask, t.is_lane())
            }
            ReadRegIndexed { file, base, index } => {
                let t = result()?;
                let reg = Reg::new(file, base);
                let it = self.operand(index)?;
                want(it.scalar == ScalarType::I32, || {
                    format!("register index {index} must be i32, found {it}")
                })?;
                let file_kind = self.file(reg)?.kind;
                let shape = match file_kind {
                    FileKind::Lane => Shape::Lane,
                    FileKind::Uniform => it.shape,
                };
                want(t.shape == shape, || {
                    format!("result must be {}", shape_name(shape))
                })?;
                self.register(
                    reg,
                    Type {
                        scalar: t.scalar,
                        shape: file_shape(file_kind),
                    },
                )
            }
            WriteRegIndexed {
                file,
                base,
                index,
                value,
                mask,
            } => {
                no_result()?;
                let reg = Reg::new(file, base);
                let it = self.operand(index)?;
                let t = self.operand(value)?;
                want(it.scalar == ScalarType::I32, || {
                    format!("register index {index} must be i32, found {it}")
                })?;
                want(t.is_lane() || !it.is_lane(), || {
                    format!("a per-lane index writes a uniform value ({t}): splat it")
                })?;
                self.register(reg, t)?;
                self.mask(mask, t.is_lane())
            }
            Load {
                space,
                width,
                signed,
                addr,
                mask,
            } => {
                let t = result()?;
                let at = self.address(space, addr)?;
                want(t.shape == at.shape, || {
                    format!("result must be {} like the address", shape_name(at.shape))
                })?;
                let bits = width.bytes() * 8;
                if t.scalar.is_float() {
                    want(t.scalar.bits() == bits && !signed, || {
                        format!("a float load is exactly {bits} bits and not sign-extended")
                    })?;
                } else {
                    want(t.scalar.bits() >= bits, || {
                        format!("{} cannot hold a {bits}-bit load", t.scalar)
                    })?;
                }
                self.mask(mask, at.is_lane())
            }
            Store {
                space,
                width,
                addr,
                value,
                mask,
            } => {
                no_result()?;
                let at = self.address(space, addr)?;
                let t = self.operand(value)?;
                let bits = width.bytes() * 8;
                want(t.scalar.bits() >= bits, || {
                    format!("stored value {value} ({t}) is narrower than {bits} bits")
                })?;
                self.mask(mask, at.is_lane() || t.is_lane())
            }
            LoadFormat {
                space,
                format,
                comp,
                addr,
                mask,
            } => {
                let t = result()?;
                self.format_code(format)?;
                let at = self.address(space, addr)?;
                want(comp < 4, || format!("component {comp} is not 0..3"))?;
                want(
                    matches!(t.scalar, ScalarType::I32 | ScalarType::I16),
                    || format!("a formatted load gives i32 or i16 (d16), not {}", t.scalar),
                )?;
                want(t.shape == at.shape, || {
                    format!("result must be {} like the address", shape_name(at.shape))
                })?;
                self.mask(mask, at.is_lane())
            }
            StoreFormat {
                space,
                format,
                addr,
                data,
                count,
                mask,
            } => {
                no_result()?;
                self.format_code(format)?;
                let at = self.address(space, addr)?;
                want((1..=4).contains(&count), || {
                    format!("a formatted store takes 1 to 4 components, not {count}")
                })?;
                let first = self.operand(data[0])?;
                want(
                    matches!(first.scalar, ScalarType::I32 | ScalarType::I16),
                    || format!("stored components are i32 or i16 (d16), not {first}"),
                )?;
                let mut shape = at.shape;
                for &d in &data[..count as usize] {
                    let t = self.operand(d)?;
                    want(t.scalar == first.scalar, || {
                        format!(
                            "stored component {d} ({t}) is not {} like the first",
                            first.scalar
                        )
                    })?;
                    shape = shape.join(t.shape);
                }
                self.mask(mask, shape == Shape::Lane)
            }
            Atomic {
                op,
                space,
                width,
                addr,
                data,
                cmp,
                mask,
            } => {
                let at = self.address(space, addr)?;
                let dt = self.operand(data)?;
                want(matches!(width, MemWidth::B32 | MemWidth::B64), || {
                    "atomics are 32 or 64 bits".into()
                })?;
                let bits = width.bytes() * 8;
                let float_op = op.is_float();
                want(
                    dt.scalar.bits() == bits && dt.scalar.is_float() == float_op,
                    || {
                        let kind = if float_op { "float" } else { "integer" };
                        format!("atomic data {data} must be a {bits}-bit {kind}, found {dt}")
                    },
                )?;
                let mut shape = at.shape.join(dt.shape);
                match (op, cmp) {
                    (op, Some(c)) if op.takes_cmp() => {
                        let ct = self.operand(c)?;
                        want(ct.scalar == dt.scalar, || {
                            format!("compare value {c} must be {}, found {ct}", dt.scalar)
                        })?;
                        shape = shape.join(ct.shape);
                    }
                    (op, None) if op.takes_cmp() => {
                        return Err(format!("atomic {op:?} needs a compare value"))
                    }
                    (op, Some(_)) => {
                        return Err(format!(
                        "only cmpxchg, mskor, wrap and fcmpxchg take a compare value, not {op:?}"
                    ))
                    }
                    (_, None) => {}
                }
                exact(Type {
                    scalar: dt.scalar,
                    shape,
                })?;
                self.mask(mask, shape == Shape::Lane)
            }
            Ballot(v) => {
                self.operand_is(v, Type::MASK, "ballot operand")?;
                exact(Type::uniform(ScalarType::I64))
            }
            ReadLane { value, lane } => {
                let t = self.operand(value)?;
                want(t.is_lane(), || {
                    format!("read_lane of uniform value {value}")
                })?;
                self.operand_is(lane, Type::uniform(ScalarType::I32), "lane number")?;
                exact(Type::uniform(t.scalar))
            }
            Shuffle { value, src } => {
                let t = self.operand(value)?;
                want(t.is_lane(), || format!("shuffle of uniform value {value}"))?;
                self.operand_is(src, Type::lane(ScalarType::I32), "shuffle source")?;
                exact(Type::lane(t.scalar))
            }
        }
    }
}

fn list(tys: &[ScalarType]) -> String {
    tys.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
}

fn check_terminator(f: &Function, data: &BlockData) -> Result<(), String> {
    let n = data.insts.len();
    for b in data.term.successors() {
        want(b.index() < f.blocks.len(), || {
            format!("target {b} does not exist")
        })?;
    }
    let is = |v: Value, want: Type, what: &str| {
        let t = operand(data, n, v)?;
        self::want(t == want, || {
            format!("{what} {v} must be {want}, found {t}")
        })
    };
    match data.term {
        Terminator::Branch { cond, .. } => {
            is(cond, Type::uniform(ScalarType::I1), "branch condition")
        }
        Terminator::JumpIndirect(v) => is(v, Type::uniform(ScalarType::I64), "jump target"),
        Terminator::Jump(_) | Terminator::Barrier(_) | Terminator::Return | Terminator::Trap(_) => {
            Ok(())
        }
    }
}
