//! Cross-lane instructions (ballot, read_lane, shuffle) and indexed register access.
//!
//! Indexed register rules: the register is `base + index` (index read as an unsigned 32-bit
//! value, so a negative index is out of range); it must lie with all its cells (two for a
//! 64-bit type) inside its file, else a `RegisterIndex` fault whose `addr` is the requested
//! register index. Reads have no mask: every lane of a lane-shaped read is checked. Writes
//! check and write active lanes only, in ascending lane order, after checking all of them.

use super::{fault, malformed, Operands};
use crate::engine::WaveCtx;
use crate::error::{Fault, FaultKind};
use crate::wave::Lanes;
use wavejit_ir::{FileId, FileKind, Inst, InstKind, Reg};

pub(super) fn run(
    inst: &Inst,
    ops: &Operands<'_>,
    out: &mut Lanes,
    ctx: &mut WaveCtx<'_>,
) -> Result<(), Fault> {
    let ws = ctx.state.wave_size() as usize;
    match inst.kind {
        InstKind::Ballot(value) => {
            let v = ops.get(0, value)?;
            out.0[0] = (0..ws)
                .filter(|&l| v.at(l) & 1 != 0)
                .fold(0u64, |b, l| b | 1 << l);
            Ok(())
        }
        InstKind::ReadLane { value, lane } => {
            let v = ops.get(0, value)?;
            let lane = ops.get(1, lane)?;
            out.0[0] = v.at(((lane.at(0) & 0xffff_ffff) % ws as u64) as usize);
            Ok(())
        }
        InstKind::Shuffle { value, src } => {
            let v = ops.get(0, value)?;
            let s = ops.get(1, src)?;
            for l in 0..ws {
                let from = s.at(l) & 0xffff_ffff;
                out.0[l] = if from < ws as u64 {
                    v.at(from as usize)
                } else {
                    0
                };
            }
            Ok(())
        }
        InstKind::ReadRegIndexed { file, base, index } => {
            let ty = inst
                .ty
                .ok_or_else(|| malformed(inst.pc, "indexed read without a type"))?;
            let idx = ops.get(0, index)?;
            let kind = file_kind(ctx, file, inst.pc)?;
            let per_lane = ty.is_lane();
            let cells = ty.scalar.cells();
            let lane_count = if per_lane { ws } else { 1 };
            // Check every lane before reading (a fault names the lowest bad lane).
            for l in 0..lane_count {
                locate(
                    ctx,
                    file,
                    base,
                    idx.at(l),
                    cells,
                    inst.pc,
                    per_lane.then_some(l),
                )?;
            }
            let mask = ty.scalar.bit_mask();
            for l in 0..lane_count {
                let i = locate(ctx, file, base, idx.at(l), cells, inst.pc, Some(l))?;
                let c = ctx.state.cells();
                let (lo, hi) = match kind {
                    FileKind::Uniform => (i, i + 1),
                    FileKind::Lane => (i + l, i + ws + l),
                };
                let high = if cells == 2 { (c[hi] as u64) << 32 } else { 0 };
                out.0[l] = (c[lo] as u64 | high) & mask;
            }
            Ok(())
        }
        InstKind::WriteRegIndexed {
            file,
            base,
            index,
            value,
            mask,
        } => {
            let idx = ops.get(0, index)?;
            let v = ops.get(1, value)?;
            let m = ops.mask(2, mask)?;
            let vty = ops
                .block
                .value_type(value)
                .ok_or_else(|| malformed(inst.pc, "indexed write of a value without a type"))?;
            let kind = file_kind(ctx, file, inst.pc)?;
            let cells = vty.scalar.cells();
            let per_lane = kind == FileKind::Lane || !idx.uniform || !v.uniform;
            for l in m.acting(per_lane, ws) {
                locate(
                    ctx,
                    file,
                    base,
                    idx.at(l),
                    cells,
                    inst.pc,
                    per_lane.then_some(l),
                )?;
            }
            for l in m.acting(per_lane, ws) {
                let i = locate(ctx, file, base, idx.at(l), cells, inst.pc, Some(l))?;
                let (lo, hi) = match kind {
                    FileKind::Uniform => (i, i + 1),
                    FileKind::Lane => (i + l, i + ws + l),
                };
                let x = v.at(l);
                let c = ctx.state.cells_mut();
                c[lo] = x as u32;
                if cells == 2 {
                    c[hi] = (x >> 32) as u32;
                }
            }
            Ok(())
        }
        _ => Err(malformed(inst.pc, "not a cross-lane instruction")),
    }
}

fn file_kind(ctx: &WaveCtx<'_>, file: FileId, pc: u32) -> Result<FileKind, Fault> {
    let files = &ctx.state.layout.files;
    files
        .get(file.0 as usize)
        .map(|f| f.kind)
        .ok_or_else(|| malformed(pc, "unknown register file"))
}

/// Cell index of register `base + index` (its lane 0 for a lane file), or the fault.
fn locate(
    ctx: &WaveCtx<'_>,
    file: FileId,
    base: u32,
    index: u64,
    cells: u32,
    pc: u32,
    lane: Option<usize>,
) -> Result<usize, Fault> {
    let reg = base as u64 + (index & 0xffff_ffff);
    let bad = || fault(FaultKind::RegisterIndex, pc, lane, Some(reg));
    let reg = u32::try_from(reg).map_err(|_| bad())?;
    ctx.state
        .cell_index(Reg::new(file, reg), cells)
        .map(|(_, i)| i)
        .ok_or_else(bad)
}
