//! Formatted loads and stores: one element of a [`wavejit_ir::ElemFormat`] per lane, its
//! conversions defined once by [`ElemFormat::load`] and [`ElemFormat::store`].
//!
//! Bounds are those of plain accesses (the `memory_ops` module) applied to the whole element
//! ([`ElemFormat::bytes`]): a global or private element lies wholly inside a buffer / the
//! lane's segment or the access faults; LDS bytes outside the allocation read 0 and are not
//! written. An element is read or written as a whole, never component by component.
//! A load's masked-off lanes yield [`ElemFormat::load_out_of_range`]; an invalid format
//! accesses no memory (every lane yields that value, stores write nothing).

use super::memory_ops::{clear, Access};
use super::{malformed, Operands};
use crate::engine::WaveCtx;
use crate::error::Fault;
use crate::wave::Lanes;
use wavejit_ir::{ElemFormat, FormatSrc, Inst, InstKind, ScalarType};

pub(super) fn run(
    inst: &Inst,
    ops: &Operands<'_>,
    out: &mut Lanes,
    ctx: &mut WaveCtx<'_>,
) -> Result<(), Fault> {
    let ws = ctx.state.wave_size() as usize;
    match inst.kind {
        InstKind::LoadFormat {
            space,
            format,
            comp,
            addr,
            mask,
        } => {
            let ty = inst
                .ty
                .ok_or_else(|| malformed(inst.pc, "load_format without a type"))?;
            let d16 = ty.scalar == ScalarType::I16;
            let (f, n) = resolve(format, ops)?;
            let a = ops.get(n, addr)?;
            let m = ops.mask(n + 1, mask)?;
            let comp = comp as usize;
            let lane = ty.is_lane();
            let outside = f.load_out_of_range(comp, d16) as u64;
            clear(out, lane, ws);
            if outside != 0 {
                let fill = if lane {
                    &mut out.0[..ws]
                } else {
                    &mut out.0[..1]
                };
                fill.fill(outside);
            }
            let acc = Access {
                space,
                len: f.bytes() as u64,
                pc: inst.pc,
                addr: a,
                write: false,
            };
            if acc.len == 0 {
                return Ok(());
            }
            for l in m.acting(lane, ws) {
                let elem = acc.read(l, ctx)?;
                out.0[if lane { l } else { 0 }] = f.load(elem, comp, d16) as u64;
            }
            Ok(())
        }
        InstKind::StoreFormat {
            space,
            format,
            addr,
            data,
            count,
            mask,
        } => {
            let (f, n) = resolve(format, ops)?;
            let a = ops.get(n, addr)?;
            let count = count.min(4) as usize;
            let mut d = [None; 4];
            for (k, &v) in data[..count].iter().enumerate() {
                d[k] = Some(ops.get(n + 1 + k, v)?);
            }
            let m = ops.mask(n + 1 + count, mask)?;
            let d16 = match d[0] {
                Some(_) => ops.block.value_type(data[0]).map(|t| t.scalar) == Some(ScalarType::I16),
                None => return Err(malformed(inst.pc, "store_format without data")),
            };
            let per_lane = !a.uniform || d.iter().flatten().any(|o| !o.uniform);
            let acc = Access {
                space,
                len: f.bytes() as u64,
                pc: inst.pc,
                addr: a,
                write: true,
            };
            // An element a format cannot write is written by no lane (and checked by none).
            if acc.len == 0 || f.store(&[], d16).is_none() {
                return Ok(());
            }
            for l in m.acting(per_lane, ws) {
                acc.check(l, ctx)?;
            }
            for l in m.acting(per_lane, ws) {
                let regs = d.map(|o| o.map_or(0, |o| o.at(l) as u32));
                if let Some(elem) = f.store(&regs[..count], d16) {
                    acc.write(l, elem, ctx)?;
                }
            }
            Ok(())
        }
        _ => Err(malformed(inst.pc, "not a formatted memory instruction")),
    }
}

/// The format and the index of the first operand after the format code.
fn resolve(format: FormatSrc, ops: &Operands<'_>) -> Result<(ElemFormat, usize), Fault> {
    match format {
        FormatSrc::Static(f) => Ok((f, 0)),
        FormatSrc::Dynamic(v) => Ok((ElemFormat::from_code(ops.get(0, v)?.at(0) as u32), 1)),
    }
}
