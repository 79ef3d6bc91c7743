//! Writes a [`Function`] in the text form (grammar in the [module docs](super)).
//!
//! The printer is total: it never panics, whatever the function holds. Invalid references
//! (a register file that does not exist) print as `?N`, which the parser rejects; everything
//! a valid function can hold prints so that [`super::parse`] rebuilds it exactly.

use super::names::*;
use crate::except::Except;
use crate::func::*;
use crate::op::{Choice, FloatMode, Op, ParamVisitor, Round};
use crate::state::{FileId, FileKind, Reg, StateLayout};
use crate::types::ScalarType;
use std::fmt::{self, Write};

/// The text form of `f`.
pub fn print(f: &Function) -> String {
    f.to_string()
}

impl fmt::Display for Function {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            out,
            "function {:?} wave {} {{",
            self.name, self.layout.wave_size
        )?;
        for (i, file) in self.layout.files.iter().enumerate() {
            let kind = match file.kind {
                FileKind::Uniform => "uniform",
                FileKind::Lane => "lane",
            };
            let sep = if i == 0 { " " } else { ", " };
            write!(out, "{sep}{kind} {}[{}]", file.name, file.cells)?;
            if file.written_first {
                out.write_str(" written_first")?;
            }
        }
        out.write_str(" }\n")?;
        for (i, block) in self.blocks.iter().enumerate() {
            write!(out, "\nblock{i}")?;
            if let Some(pc) = block.guest_pc {
                write!(out, " @{pc:#x}")?;
            }
            if block.guest_insts != 0 {
                write!(out, " insts={}", block.guest_insts)?;
            }
            out.write_str(":\n")?;
            let mut pc = 0;
            for (j, inst) in block.insts.iter().enumerate() {
                out.write_str("  ")?;
                if inst.ty.is_some() {
                    write!(out, "%{j} = ")?;
                }
                write_kind(out, &self.layout, inst)?;
                if let Some(ty) = inst.ty {
                    write!(out, " : {ty}")?;
                }
                if inst.pc != pc {
                    write!(out, " @{:#x}", inst.pc)?;
                    pc = inst.pc;
                }
                if let (InstKind::Const(bits), Some(ty)) = (inst.kind, inst.ty) {
                    write_float_comment(out, ty.scalar, bits)?;
                }
                out.write_char('\n')?;
            }
            out.write_str("  ")?;
            write_terminator(out, &block.term)?;
            if block.term_pc != pc {
                write!(out, " @{:#x}", block.term_pc)?;
            }
            out.write_char('\n')?;
        }
        Ok(())
    }
}

fn write_file(out: &mut impl Write, layout: &StateLayout, file: FileId) -> fmt::Result {
    match layout.files.get(usize::from(file.0)) {
        Some(f) => out.write_str(&f.name),
        None => write!(out, "?{}", file.0),
    }
}

fn write_reg(out: &mut impl Write, layout: &StateLayout, reg: Reg) -> fmt::Result {
    write_file(out, layout, reg.file)?;
    write!(out, "[{}]", reg.index)
}

fn write_mask(out: &mut impl Write, mask: Option<Value>) -> fmt::Result {
    match mask {
        Some(m) => write!(out, ", mask {m}"),
        None => Ok(()),
    }
}

/// Integers print in decimal up to 0xffff and in hex above; float bits always in hex (a
/// decimal literal of a float type is read as a float value, see the grammar).
fn write_const(out: &mut impl Write, bits: u64, ty: Option<ScalarType>) -> fmt::Result {
    let fits = ty.is_none_or(|t| bits & !t.bit_mask() == 0);
    if bits <= 0xffff && fits && !ty.is_some_and(|t| t.is_float()) {
        write!(out, "{bits}")
    } else {
        write!(out, "{bits:#x}")
    }
}

/// A comment with the decimal value of a float constant, for readers.
fn write_float_comment(out: &mut impl Write, ty: ScalarType, bits: u64) -> fmt::Result {
    match ty {
        ScalarType::F16 => write!(out, "  ; {}", half::f16::from_bits(bits as u16)),
        ScalarType::F32 => write!(out, "  ; {:?}", f32::from_bits(bits as u32)),
        ScalarType::F64 => write!(out, "  ; {:?}", f64::from_bits(bits)),
        _ => Ok(()),
    }
}

/// `name[.params][.mode]`, e.g. `fcmp.ult`, `fsin.clamped.turns.flush.rtz`.
pub fn write_op(out: &mut impl Write, op: Op, mode: FloatMode) -> fmt::Result {
    out.write_str(op.name())?;
    write_params(out, op)?;
    match (mode.flush_in, mode.flush_out) {
        (true, true) => out.write_str(".flush")?,
        (true, false) => out.write_str(".flush_in")?,
        (false, true) => out.write_str(".flush_out")?,
        (false, false) => {}
    }
    if mode.round != Round::NearestEven {
        write!(out, ".{}", name_of(&ROUNDS, mode.round))?;
    }
    Ok(())
}

/// `.params` of `op` in their fixed order.
fn write_params(out: &mut impl Write, mut op: Op) -> fmt::Result {
    op.visit_params(&mut ParamWriter(out))
}

/// Writes each parameter as `.spelling`; `fexcept` writes its op (with that op's parameters)
/// and a conversion's result type.
struct ParamWriter<'o, W>(&'o mut W);

impl<W: Write> ParamVisitor for ParamWriter<'_, W> {
    type Error = fmt::Error;

    fn choice<P: Choice>(&mut self, p: &mut P) -> fmt::Result {
        write!(self.0, ".{}", name_of(P::VALUES, *p))
    }

    fn flag(&mut self, name: &'static str, on: &mut bool) -> fmt::Result {
        if *on {
            write!(self.0, ".{name}")?;
        }
        Ok(())
    }

    fn reported(&mut self, k: &mut Except) -> fmt::Result {
        write!(self.0, ".{}", k.op().name())?;
        write_params(self.0, k.op())?;
        match k.named_type() {
            Some(t) => write!(self.0, ".{}", t.name()),
            None => Ok(()),
        }
    }
}

fn width_bits(w: MemWidth) -> u32 {
    w.bytes() * 8
}

fn write_kind(out: &mut impl Write, layout: &StateLayout, inst: &Inst) -> fmt::Result {
    use InstKind::*;
    match inst.kind {
        Const(bits) => {
            out.write_str("const ")?;
            write_const(out, bits, inst.ty.map(|t| t.scalar))
        }
        Splat(v) => write!(out, "splat {v}"),
        LaneId => out.write_str("lane_id"),
        Pure { op, mode, args } => {
            write_op(out, op, mode)?;
            for (i, a) in args.iter().take(op.arity()).enumerate() {
                out.write_str(if i == 0 { " " } else { ", " })?;
                write!(out, "{a}")?;
            }
            Ok(())
        }
        MaskFromBits(v) => write!(out, "mask_from_bits {v}"),
        ReadReg(reg) => {
            out.write_str("read ")?;
            write_reg(out, layout, reg)
        }
        WriteReg { reg, value, mask } => {
            out.write_str("write ")?;
            write_reg(out, layout, reg)?;
            write!(out, ", {value}")?;
            write_mask(out, mask)
        }
        ReadRegIndexed { file, base, index } => {
            out.write_str("read ")?;
            write_file(out, layout, file)?;
            write!(out, "[{base} + {index}]")
        }
        WriteRegIndexed {
            file,
            base,
            index,
            value,
            mask,
        } => {
            out.write_str("write ")?;
            write_file(out, layout, file)?;
            write!(out, "[{base} + {index}], {value}")?;
            write_mask(out, mask)
        }
        Load {
            space,
            width,
            signed,
            addr,
            mask,
        } => {
            let sign = if signed { 's' } else { 'u' };
            let space = name_of(&SPACES, space);
            write!(out, "load.{space}.{sign}{} {addr}", width_bits(width))?;
            write_mask(out, mask)
        }
        Store {
            space,
            width,
            addr,
            value,
            mask,
        } => {
            let space = name_of(&SPACES, space);
            write!(out, "store.{space}.b{} {addr}, {value}", width_bits(width))?;
            write_mask(out, mask)
        }
        LoadFormat {
            space,
            format,
            comp,
            addr,
            mask,
        } => {
            let space = name_of(&SPACES, space);
            write!(out, "load_format.{space}.c{comp} ")?;
            write_format(out, format)?;
            write!(out, ", {addr}")?;
            write_mask(out, mask)
        }
        StoreFormat {
            space,
            format,
            addr,
            data,
            count,
            mask,
        } => {
            let space = name_of(&SPACES, space);
            write!(out, "store_format.{space} ")?;
            write_format(out, format)?;
            write!(out, ", {addr}")?;
            for d in data.iter().take(count as usize) {
                write!(out, ", {d}")?;
            }
            write_mask(out, mask)
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
            let (op, space) = (name_of(&ATOMIC_OPS, op), name_of(&SPACES, space));
            write!(
                out,
                "atomic.{op}.{space}.b{} {addr}, {data}",
                width_bits(width)
            )?;
            if let Some(c) = cmp {
                write!(out, ", cmp {c}")?;
            }
            write_mask(out, mask)
        }
        Ballot(v) => write!(out, "ballot {v}"),
        ReadLane { value, lane } => write!(out, "read_lane {value}, {lane}"),
        Shuffle { value, src } => write!(out, "shuffle {value}, {src}"),
    }
}

/// `fmt.DATA.NUM.SWIZZLE` or the code operand `%N`.
fn write_format(out: &mut impl Write, format: FormatSrc) -> fmt::Result {
    match format {
        FormatSrc::Static(f) => write!(out, "fmt.{f}"),
        FormatSrc::Dynamic(v) => write!(out, "{v}"),
    }
}

fn write_terminator(out: &mut impl Write, term: &Terminator) -> fmt::Result {
    match term {
        Terminator::Jump(b) => write!(out, "jump {b}"),
        Terminator::Branch {
            cond,
            then_to,
            else_to,
        } => write!(out, "br {cond}, {then_to}, {else_to}"),
        Terminator::JumpIndirect(v) => write!(out, "jump_indirect {v}"),
        Terminator::Barrier(b) => write!(out, "barrier {b}"),
        Terminator::Return => out.write_str("return"),
        Terminator::Trap(TrapKind::BadJump) => out.write_str("trap bad_jump"),
        Terminator::Trap(TrapKind::StackOverflow) => out.write_str("trap stack_overflow"),
        Terminator::Trap(TrapKind::StackUnderflow) => out.write_str("trap stack_underflow"),
        Terminator::Trap(TrapKind::Explicit(msg)) => write!(out, "trap {msg:?}"),
    }
}
