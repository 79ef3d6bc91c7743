//! The one implementation of every instruction that touches memory or crosses lanes.
//!
//! The interpreter calls [`run_effect`] directly; the JIT calls it through an `extern "C"`
//! helper, so both engines share every memory rule, fault and lane order by construction.
//!
//! Rules (common to every space; per-space bounds in the `memory_ops` module):
//! - Operands arrive in the [`Lanes`] exchange format, in [`wavejit_ir::Inst::args`] order;
//!   an operand's shape comes from its defining instruction's type in the block.
//! - Masked-off lanes never access memory and yield 0 (a formatted load: its out-of-range
//!   value). Lanes act in ascending lane order.
//! - A lane-shaped result means one access per active lane. A uniform result means one access,
//!   made by the lowest active lane (for global and LDS memory the lane does not matter; for
//!   private memory it selects the segment). With no active lane there is no access.
//! - Faults are precise: every access of the instruction is checked before any is made, and
//!   the fault names the lowest faulting lane, its address and the instruction's pc.
//! - The hot path does not allocate.

mod format_ops;
mod lane_ops;
mod memory_ops;

pub use memory_ops::atomic_apply;

use crate::engine::WaveCtx;
use crate::error::{Fault, FaultKind};
use crate::wave::Lanes;
use wavejit_ir::{BlockData, Inst, InstKind, Value};

/// Executes `inst` over the whole wave: `Load`, `Store`, `LoadFormat`, `StoreFormat`,
/// `Atomic`, `Ballot`, `ReadLane`,
/// `Shuffle`, `ReadRegIndexed`, `WriteRegIndexed`. `args` are the operand values in
/// [`Inst::args`] order; the result (if any) goes to `out`. Operand shapes come from `block`.
pub fn run_effect(
    block: &BlockData,
    inst: &Inst,
    args: &[&Lanes],
    out: &mut Lanes,
    ctx: &mut WaveCtx<'_>,
) -> Result<(), Fault> {
    let ops = Operands {
        block,
        args,
        pc: inst.pc,
    };
    match inst.kind {
        InstKind::Load { .. } | InstKind::Store { .. } | InstKind::Atomic { .. } => {
            memory_ops::run(inst, &ops, out, ctx)
        }
        InstKind::LoadFormat { .. } | InstKind::StoreFormat { .. } => {
            format_ops::run(inst, &ops, out, ctx)
        }
        InstKind::Ballot(_)
        | InstKind::ReadLane { .. }
        | InstKind::Shuffle { .. }
        | InstKind::ReadRegIndexed { .. }
        | InstKind::WriteRegIndexed { .. } => lane_ops::run(inst, &ops, out, ctx),
        _ => Err(malformed(inst.pc, "not a memory or cross-lane instruction")),
    }
}

/// One operand over the wave.
#[derive(Clone, Copy)]
struct Operand<'a> {
    lanes: &'a Lanes,
    uniform: bool,
}

impl Operand<'_> {
    /// The operand's value in lane `l` (a uniform operand has one value for every lane).
    #[inline]
    fn at(self, l: usize) -> u64 {
        self.lanes.get(self.uniform, l)
    }
}

/// The operand list of the instruction being run.
struct Operands<'a> {
    block: &'a BlockData,
    args: &'a [&'a Lanes],
    pc: u32,
}

impl<'a> Operands<'a> {
    /// Operand `i`, defined by value `v`.
    fn get(&self, i: usize, v: Value) -> Result<Operand<'a>, Fault> {
        let lanes = *self
            .args
            .get(i)
            .ok_or_else(|| malformed(self.pc, "missing operand"))?;
        let uniform = self.block.value_type(v).is_none_or(|t| !t.is_lane());
        Ok(Operand { lanes, uniform })
    }

    /// The optional execution mask, operand `i`.
    fn mask(&self, i: usize, v: Option<Value>) -> Result<Mask<'a>, Fault> {
        Ok(Mask(v.map(|v| self.get(i, v)).transpose()?))
    }
}

/// Which lanes take part: all (no mask) or those whose mask entry is 1.
#[derive(Clone, Copy)]
struct Mask<'a>(Option<Operand<'a>>);

impl<'a> Mask<'a> {
    #[inline]
    fn on(self, l: usize) -> bool {
        self.0.is_none_or(|m| m.at(l) & 1 != 0)
    }

    /// The lanes that act: every active lane (`per_lane`), or the lowest active one.
    fn acting(self, per_lane: bool, wave_size: usize) -> impl Iterator<Item = usize> + 'a {
        let first = (0..wave_size).find(|&l| self.on(l));
        let (from, to) = match (per_lane, first) {
            (true, Some(f)) => (f, wave_size),
            (false, Some(f)) => (f, f + 1),
            (_, None) => (0, 0),
        };
        (from..to).filter(move |&l| self.on(l))
    }
}

fn fault(kind: FaultKind, pc: u32, lane: Option<usize>, addr: Option<u64>) -> Fault {
    Fault {
        kind,
        pc,
        lane: lane.map(|l| l as u32),
        addr,
    }
}

/// Ill-formed IR reached an effect (the verifier rejects it; never a host panic).
fn malformed(pc: u32, what: &str) -> Fault {
    fault(
        FaultKind::Trap(format!("malformed IR: {what}")),
        pc,
        None,
        None,
    )
}
