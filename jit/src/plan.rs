//! Scheduling a block into scalar segments and chunk loops.
//!
//! A compiled block is straight-line code `S0 L0 S1 L1 ... L(n-1) Sn term`: each `Lk` is a
//! loop over the wave's 4-lane chunks running lane instructions, each `Sk` scalar code
//! running uniform instructions and wave operations (memory, cross-lane and indexed-register
//! instructions, through [`wavejit_runtime::effects::run_effect`]). An indexed access that is
//! uniform throughout ([`inline_indexed`]) is placed as a wave operation but compiled inline,
//! with the helper only as its out-of-range path.
//!
//! Invariants the scan below keeps (they make the reordering exact, faults included):
//! - lane instructions stay in program order (their loop index never decreases);
//! - wave operations run in program order, each after every lane instruction before it
//!   (a wave operation closes the current loop) and before every one after it, except those
//!   on uniform values only ([`uniform_only`]: uniform loads, `s_load`s and constant reads
//!   among lane code) whose operands are ready before the current loop: they touch no lane
//!   state, so they run in the segment before it ([`Plan::hoisted`]), in order with the
//!   uniform state accesses and the other wave operations, and if one faults the lane
//!   instructions of the loop that come before it run first;
//! - uniform state accesses run in program order relative to each other and to wave
//!   operations (`ustate`); pure uniform instructions run as early as their operands allow,
//!   which is after the loop computing any `Ballot` they depend on;
//! - a lane instruction whose uniform operand is only ready after the current loop (it depends
//!   on a ballot of that loop) starts a new loop; so does a loop holding [`LOOP_LIMIT`] pure ops.
//!
//! Lane values used outside the loop defining them (by a later loop or a wave operation) and
//! every operand and result of a wave operation live in scratch slots ([`Lanes`] format, or
//! packed 32-bit lanes for values only loops read, [`Plan::packed`]);
//! `Splat`, `LaneId` and `MaskFromBits` are recomputed in each loop instead, and a lane
//! register read whose register nothing writes before its last use in a later loop is read
//! again there ([`Plan::reread`]: loops keep program order, so the later loop's row holds the
//! value the read saw).
//!
//! Instructions the block does not need are left out of every segment and loop ([`live`]: a
//! uniform register write that a later write overwrites before anything can read it, and
//! values only such writes use).
//!
//! [`Lanes`]: wavejit_runtime::Lanes

use crate::row_address::{row_address, written_between, RowAddress};
use std::collections::HashMap;
use wavejit_ir::{BlockData, FileKind, InstKind, Op, StateLayout, Terminator, Type, Value};

/// Pure lane operations (bitcasts not counted) per chunk loop before it is split (keeps the
/// loop body short enough for the out-of-order core; notes/cranelift_jit.md section 3.7).
pub(crate) const LOOP_LIMIT: u32 = 32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Seg(u32),
    Loop(u32),
}

/// Which lanes of a lane value are ever observed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Demand {
    Unused,
    /// Only the lanes of this (canonical) mask: the value flows only into pure lane ops and
    /// register writes under that mask.
    Mask(Value),
    All,
}

impl Demand {
    fn join(self, o: Demand) -> Demand {
        match (self, o) {
            (Demand::Unused, x) | (x, Demand::Unused) => x,
            (Demand::Mask(a), Demand::Mask(b)) if a == b => Demand::Mask(a),
            _ => Demand::All,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Uniform {
        state: bool,
    },
    Lane,
    /// `Ballot`: lane operand, uniform result accumulated over the loop.
    Reduce,
    Wave,
}

#[derive(Debug)]
pub(crate) struct Plan {
    pub class: Vec<Class>,
    pub n_loops: u32,
    /// Instructions of each segment (`n_loops + 1` of them) and loop, in program order.
    pub seg_insts: Vec<Vec<u32>>,
    pub loop_insts: Vec<Vec<u32>>,
    /// Scratch slot of a value (lane values crossing loops, wave operands and results).
    pub slot: Vec<Option<u32>>,
    pub n_slots: u32,
    pub demand: Vec<Demand>,
    /// Value numbering of pure instructions: equal canon = equal value.
    pub canon: Vec<Value>,
    /// Per loop: uniform `i64` values `u` such that `MaskFromBits(u)` masks a register write
    /// in the loop (the all-ones fast path tests them at loop entry).
    pub fast_masks: Vec<Vec<Value>>,
    /// Lane register reads that later loops read again from the register instead of a slot:
    /// no instruction between the read and its last use in another loop writes the register.
    pub reread: Vec<bool>,
    /// For a 32-bit lane load: the register write right after it that is its result's only
    /// use, under the load's own mask (or none when the load has none). The load's code may
    /// then write the register itself ([`Plan::direct_write`]).
    pub direct_write: Vec<Option<usize>>,
    /// Wave operations on uniform values only placed in the segment before the loop that
    /// holds the lane instructions around them ([`uniform_only`]). If one faults, the
    /// emitter first runs that loop's lane instructions before it, so the wave stops in the
    /// state the interpreter leaves.
    pub hoisted: Vec<bool>,
    /// How many instruction operands name each value.
    pub uses: Vec<u32>,
    /// For a 32-bit lane load or store: its address read from a register's row
    /// ([`crate::row_address`]). The chain it folds is in no loop; the address keeps its slot,
    /// which the access fills when it needs it.
    pub row_address: Vec<Option<RowAddress>>,
    /// Values whose slot holds their 32-bit lanes packed (lane `l` at byte `4 l`) instead of
    /// in the [`Lanes`] form: 32-bit lane values that only loops read (and, as their last use,
    /// one 32-bit store with a row address), computed by a loop or loaded by a lane load that
    /// does not write its register itself. Per value and per slot.
    ///
    /// [`Lanes`]: wavejit_runtime::Lanes
    pub packed: Vec<bool>,
    pub packed_slot: Vec<bool>,
}

fn ty_of(b: &BlockData, v: Value) -> Result<Type, String> {
    b.value_type(v).ok_or_else(|| format!("{v} has no value"))
}

pub(crate) fn classify(layout: &StateLayout, b: &BlockData, i: usize) -> Result<Class, String> {
    let inst = &b.insts[i];
    let file_kind = |reg: wavejit_ir::Reg| {
        layout
            .files
            .get(reg.file.0 as usize)
            .map(|f| f.kind)
            .ok_or_else(|| format!("%{i}: no register file {}", reg.file.0))
    };
    Ok(match inst.kind {
        InstKind::Const(_) => Class::Uniform { state: false },
        InstKind::Splat(_) | InstKind::LaneId | InstKind::MaskFromBits(_) => Class::Lane,
        InstKind::Pure { .. } => match inst.ty {
            Some(t) if t.is_lane() => Class::Lane,
            Some(_) => Class::Uniform { state: false },
            None => return Err(format!("%{i}: pure op without a type")),
        },
        InstKind::ReadReg(reg) | InstKind::WriteReg { reg, .. } => match file_kind(reg)? {
            FileKind::Lane => Class::Lane,
            FileKind::Uniform => Class::Uniform { state: true },
        },
        InstKind::Ballot(_) => Class::Reduce,
        InstKind::Load { .. }
        | InstKind::Store { .. }
        | InstKind::LoadFormat { .. }
        | InstKind::StoreFormat { .. }
        | InstKind::Atomic { .. }
        | InstKind::ReadLane { .. }
        | InstKind::Shuffle { .. }
        | InstKind::ReadRegIndexed { .. }
        | InstKind::WriteRegIndexed { .. } => Class::Wave,
    })
}

/// The kind of file `f` (`None` for a file the layout does not have).
fn kind_of(layout: &StateLayout, f: wavejit_ir::FileId) -> Option<FileKind> {
    layout.files.get(f.0 as usize).map(|x| x.kind)
}

/// Whether the `cells` registers from `reg` lie in a lane file of the layout.
pub(crate) fn in_lane_file(layout: &StateLayout, reg: wavejit_ir::Reg, cells: u32) -> bool {
    layout
        .files
        .get(reg.file.0 as usize)
        .is_some_and(|f| f.kind == FileKind::Lane && reg.index + cells <= f.cells)
}

/// Whether an indexed register access is uniform throughout (a uniform file, a uniform index
/// and, for a write, a uniform value and no mask): the emitter then compiles it inline, with
/// the wave-operation helper as its out-of-range path (which reports the fault). It can
/// fault, so it stays a wave operation here: placed, ordered and given scratch slots as one.
pub(crate) fn inline_indexed(layout: &StateLayout, b: &BlockData, i: usize) -> bool {
    let uniform = |v: Value| b.value_type(v).is_some_and(|t| !t.is_lane());
    let file_uniform = |f: wavejit_ir::FileId| kind_of(layout, f) == Some(FileKind::Uniform);
    match b.insts[i].kind {
        InstKind::ReadRegIndexed { file, index, .. } => {
            file_uniform(file) && uniform(index) && b.insts[i].ty.is_some_and(|t| !t.is_lane())
        }
        InstKind::WriteRegIndexed {
            file,
            index,
            value,
            mask: None,
            ..
        } => file_uniform(file) && uniform(index) && uniform(value),
        _ => false,
    }
}

/// Whether wave operation `i` works on uniform values only: no lane operand, no lane result
/// and, for an indexed access, a uniform file. It neither reads nor writes lane state, so it
/// need not close the loop around it.
pub(crate) fn uniform_only(layout: &StateLayout, b: &BlockData, i: usize) -> bool {
    let inst = &b.insts[i];
    let uniform = |v: Value| b.value_type(v).is_some_and(|t| !t.is_lane());
    let lane_file = |f: wavejit_ir::FileId| kind_of(layout, f) != Some(FileKind::Uniform);
    let file_ok = match inst.kind {
        InstKind::ReadRegIndexed { file, .. } | InstKind::WriteRegIndexed { file, .. } => {
            !lane_file(file)
        }
        InstKind::ReadLane { .. } | InstKind::Shuffle { .. } => false,
        _ => true,
    };
    file_ok && inst.ty.is_none_or(|t| !t.is_lane()) && inst.args().into_iter().all(uniform)
}

/// Lane values recomputed (from uniform operands and the chunk index) wherever used.
pub(crate) fn is_remat(kind: &InstKind) -> bool {
    matches!(
        kind,
        InstKind::Splat(_) | InstKind::LaneId | InstKind::MaskFromBits(_)
    )
}

pub(crate) fn plan(layout: &StateLayout, b: &BlockData) -> Result<Plan, String> {
    let n = b.insts.len();
    let mut class = Vec::with_capacity(n);
    let mut place = Vec::with_capacity(n);
    let mut ready = vec![0u32; n];
    let mut hoisted = vec![false; n];
    let (mut cur, mut len, mut ustate) = (0u32, 0u32, 0u32);
    for (i, inst) in b.insts.iter().enumerate() {
        let args = inst.args();
        for a in &args {
            if a.index() >= i {
                return Err(format!("%{i} uses {a}, which is not defined before it"));
            }
        }
        let mut uready = 0;
        for &a in &args {
            if !ty_of(b, a)?.is_lane() {
                uready = uready.max(ready[a.index()]);
            }
        }
        let c = classify(layout, b, i)?;
        class.push(c);
        match c {
            Class::Uniform { state } => {
                let mut seg = uready;
                if state {
                    seg = seg.max(ustate);
                    ustate = seg;
                }
                place.push(Place::Seg(seg));
                ready[i] = seg;
            }
            Class::Lane | Class::Reduce => {
                // A bitcast emits no host code (floats are views of the same registers).
                let pure = matches!(inst.kind, InstKind::Pure { op, .. } if op != Op::Bitcast);
                if uready > cur || (pure && len >= LOOP_LIMIT) {
                    cur += 1;
                    len = 0;
                }
                len += pure as u32;
                place.push(Place::Loop(cur));
                ready[i] = cur + 1;
            }
            Class::Wave if uready.max(ustate) <= cur && uniform_only(layout, b, i) => {
                ustate = cur;
                place.push(Place::Seg(cur));
                ready[i] = cur;
                hoisted[i] = true;
            }
            Class::Wave => {
                let seg = cur + 1;
                place.push(Place::Seg(seg));
                ready[i] = seg;
                ustate = seg;
                cur += 1;
                len = 0;
            }
        }
    }
    let n_loops = cur + 1;
    let mut seg_insts = vec![Vec::new(); n_loops as usize + 1];
    let mut loop_insts = vec![Vec::new(); n_loops as usize];
    for (i, p) in place.iter().enumerate() {
        match *p {
            Place::Seg(s) => seg_insts[s as usize].push(i as u32),
            Place::Loop(l) => loop_insts[l as usize].push(i as u32),
        }
    }
    match b.term {
        Terminator::Branch { cond: v, .. } | Terminator::JumpIndirect(v)
            if v.index() >= n || ty_of(b, v)?.is_lane() =>
        {
            return Err(format!("terminator operand {v} is not a uniform value"));
        }
        _ => {}
    }

    // Register reads that later loops read again.
    let mut last_cross = vec![None::<usize>; n];
    for (i, inst) in b.insts.iter().enumerate() {
        if matches!(class[i], Class::Lane | Class::Reduce) {
            for a in inst.args() {
                if place[a.index()] != place[i] {
                    last_cross[a.index()] = Some(i);
                }
            }
        }
    }
    let mut reread = vec![false; n];
    for (r, inst) in b.insts.iter().enumerate() {
        let (InstKind::ReadReg(reg), Some(last), Class::Lane) =
            (inst.kind, last_cross[r], class[r])
        else {
            continue;
        };
        let cells = ty_of(b, Value(r as u32))?.scalar.cells();
        reread[r] = !written_between(b, reg, cells, r + 1..last);
    }

    // Operands naming each value (terminators take uniform values only, so no lane value's
    // count misses a use there).
    let mut uses = vec![0u32; n];
    for inst in &b.insts {
        for a in inst.args() {
            uses[a.index()] += 1;
        }
    }

    // Addresses read from register rows, and the chains they fold.
    let row_address: Vec<Option<RowAddress>> = (0..n)
        .map(|i| {
            (class[i] == Class::Wave)
                .then(|| row_address(layout, b, i, &uses))
                .flatten()
        })
        .collect();
    let mut folded = vec![false; n];
    for ra in row_address.iter().flatten() {
        for &c in &ra.chain {
            folded[c] = true;
        }
    }

    // Scratch slots.
    let mut needs = vec![false; n];
    for (i, inst) in b.insts.iter().enumerate() {
        if folded[i] {
            continue;
        }
        match class[i] {
            Class::Wave => {
                needs[i] = true;
                for a in inst.args() {
                    needs[a.index()] = true;
                }
            }
            Class::Lane | Class::Reduce => {
                for a in inst.args() {
                    let ai = a.index();
                    if ty_of(b, a)?.is_lane() && place[ai] != place[i] {
                        // Defined by a wave operation or in another loop.
                        let again = (is_remat(&b.insts[ai].kind) || reread[ai])
                            && matches!(place[ai], Place::Loop(_));
                        if !again {
                            needs[ai] = true;
                        }
                    }
                }
            }
            Class::Uniform { .. } => {}
        }
    }
    let mut slot = vec![None; n];
    let mut n_slots = 0;
    for (i, &need) in needs.iter().enumerate() {
        if need {
            slot[i] = Some(n_slots);
            n_slots += 1;
        }
    }

    // Value numbering of pure instructions.
    let mut canon: Vec<Value> = Vec::with_capacity(n);
    let mut seen: HashMap<(InstKind, Option<Type>), Value> = HashMap::new();
    for (i, inst) in b.insts.iter().enumerate() {
        let c = |v: Value| canon[v.index()];
        let key = match inst.kind {
            InstKind::Const(_) | InstKind::LaneId => Some(inst.kind),
            InstKind::Splat(v) => Some(InstKind::Splat(c(v))),
            InstKind::MaskFromBits(v) => Some(InstKind::MaskFromBits(c(v))),
            InstKind::Pure { op, mode, args } => {
                let mut a = args;
                for x in a.iter_mut().take(op.arity()) {
                    *x = c(*x);
                }
                Some(InstKind::Pure { op, mode, args: a })
            }
            _ => None,
        };
        let me = Value(i as u32);
        canon.push(match key {
            Some(k) => *seen.entry((k, inst.ty)).or_insert(me),
            None => me,
        });
    }

    // Demand, backwards.
    let mut demand = vec![Demand::Unused; n];
    for i in (0..n).rev() {
        let inst = &b.insts[i];
        let lane_file = class[i] == Class::Lane;
        match inst.kind {
            InstKind::Pure { .. } if lane_file => {
                let d = demand[i];
                for a in inst.args() {
                    demand[a.index()] = demand[a.index()].join(d);
                }
            }
            InstKind::WriteReg {
                value,
                mask: Some(m),
                ..
            } if lane_file => {
                let vi = value.index();
                demand[vi] = demand[vi].join(Demand::Mask(canon[m.index()]));
                demand[m.index()] = Demand::All;
            }
            _ => {
                for a in inst.args() {
                    demand[a.index()] = Demand::All;
                }
            }
        }
    }

    // Dead code: left out of the segments and loops.
    let live = live(layout, b, &class, &row_address, &folded)?;
    for insts in seg_insts.iter_mut().chain(loop_insts.iter_mut()) {
        insts.retain(|&i| live[i as usize]);
    }

    // Fast-path masks.
    let mut fast_masks = vec![Vec::<Value>::new(); n_loops as usize];
    for (i, inst) in b.insts.iter().enumerate() {
        if !live[i] {
            continue;
        }
        if let (InstKind::WriteReg { mask: Some(m), .. }, Place::Loop(l)) = (inst.kind, place[i]) {
            if let InstKind::MaskFromBits(u) = b.insts[m.index()].kind {
                let set = &mut fast_masks[l as usize];
                if !set.iter().any(|&x| canon[x.index()] == canon[u.index()]) {
                    set.push(u);
                }
            }
        }
    }

    let direct_write: Vec<Option<usize>> =
        (0..n).map(|i| direct_write(layout, b, i, &uses)).collect();

    // Slots that hold 32-bit lanes packed: values only loops read, or loops and, last, one
    // 32-bit store with a row address (whose vector path stores packed lanes; its other
    // paths unpack the dead slot first), written by a loop or by a lane load that does not
    // write its register itself.
    let mut loops_only = vec![true; n];
    let mut stored_by: Vec<Option<usize>> = vec![None; n];
    for (i, inst) in b.insts.iter().enumerate() {
        if matches!(class[i], Class::Lane | Class::Reduce) {
            continue;
        }
        let packed_store = match inst.kind {
            InstKind::Store {
                width: wavejit_ir::MemWidth::B32,
                value,
                ..
            } if row_address[i].is_some() => Some(value),
            _ => None,
        };
        for a in inst.args() {
            if Some(a) == packed_store && stored_by[a.index()].is_none() {
                stored_by[a.index()] = Some(i);
            } else {
                loops_only[a.index()] = false;
            }
        }
    }
    // The store is the value's last use: nothing reads the slot after it unpacked it.
    for (i, inst) in b.insts.iter().enumerate() {
        for a in inst.args() {
            if stored_by[a.index()].is_some_and(|st| i > st) {
                loops_only[a.index()] = false;
            }
        }
    }
    let mut packed = vec![false; n];
    let mut packed_slot = vec![false; n_slots as usize];
    for i in 0..n {
        let Some(s) = slot[i] else { continue };
        let t = b.insts[i].ty;
        let narrow = t.is_some_and(|t| {
            t.is_lane() && t.scalar.bits() == 32 && t.scalar != wavejit_ir::ScalarType::I1
        });
        let producer = match b.insts[i].kind {
            InstKind::Load { .. } => direct_write[i].is_none(),
            InstKind::MaskFromBits(_) => false,
            _ => class[i] == Class::Lane,
        };
        if narrow && producer && loops_only[i] && uses[i] > 0 {
            packed[i] = true;
            packed_slot[s as usize] = true;
        }
    }

    Ok(Plan {
        class,
        n_loops,
        seg_insts,
        loop_insts,
        slot,
        n_slots,
        demand,
        canon,
        fast_masks,
        reread,
        direct_write,
        hoisted,
        uses,
        row_address,
        packed,
        packed_slot,
    })
}

/// Which instructions the block needs: those with an effect, except a write of uniform
/// registers that a later write of the same cells overwrites with no read of them (direct or
/// indexed) and no wave operation in between, and those whose values a needed instruction
/// or the terminator uses. (GCN's carry chains write VCC once per half of a 64-bit add.) The
/// state after a fault is not compared (engines may stop anywhere in the faulting block), but
/// wave operations keep earlier writes anyway, as their helpers run with the wave's state.
///
/// An access with a row address needs its uniform terms instead of its address; the folded
/// chain is not needed.
fn live(
    layout: &StateLayout,
    b: &BlockData,
    class: &[Class],
    row_address: &[Option<RowAddress>],
    folded: &[bool],
) -> Result<Vec<bool>, String> {
    use std::collections::HashSet;
    let n = b.insts.len();
    let uniform = |f: wavejit_ir::FileId| {
        layout
            .files
            .get(f.0 as usize)
            .is_some_and(|x| x.kind == FileKind::Uniform)
    };
    // Uniform cells (file, index) written later with nothing between here and that write
    // that could read them.
    let mut overwritten: HashSet<(u16, u32)> = HashSet::new();
    let mut dead_write = vec![false; n];
    for i in (0..n).rev() {
        let inst = &b.insts[i];
        match inst.kind {
            InstKind::WriteReg { reg, value, .. } if uniform(reg.file) => {
                let cells = ty_of(b, value)?.scalar.cells();
                let all: Vec<(u16, u32)> =
                    (0..cells).map(|k| (reg.file.0, reg.index + k)).collect();
                dead_write[i] = all.iter().all(|c| overwritten.contains(c));
                overwritten.extend(all);
            }
            InstKind::ReadReg(reg) => {
                let cells = inst.ty.map_or(1, |t| t.scalar.cells());
                for k in 0..cells {
                    overwritten.remove(&(reg.file.0, reg.index + k));
                }
            }
            _ if class[i] == Class::Wave => overwritten.clear(),
            _ => {}
        }
    }
    let mut live = vec![false; n];
    let need = |v: Value, live: &mut Vec<bool>| {
        if let Some(x) = live.get_mut(v.index()) {
            *x = true;
        }
    };
    for v in b.term.args() {
        need(v, &mut live);
    }
    for i in (0..n).rev() {
        let inst = &b.insts[i];
        if inst.has_side_effect() && !dead_write[i] {
            live[i] = true;
        }
        if folded[i] {
            live[i] = false;
            continue;
        }
        if live[i] {
            for a in inst.args() {
                need(a, &mut live);
            }
            if let Some(ra) = &row_address[i] {
                for &t in ra.offsets.iter().chain(&ra.bases) {
                    need(t, &mut live);
                }
            }
        }
    }
    Ok(live)
}

/// The write that may take the result of load `i` straight into its register: the next
/// instruction but constants, a write of a lane file's 32-bit register with the load's result
/// under the load's mask, and the result's only use. Nothing with an effect or a register
/// read runs between the two, so the write may happen as the load completes: no read sees the
/// register between them, and a load that faults has written nothing.
fn direct_write(layout: &StateLayout, b: &BlockData, i: usize, uses: &[u32]) -> Option<usize> {
    let InstKind::Load { mask, .. } = b.insts[i].kind else {
        return None;
    };
    let t = b.insts[i].ty?;
    if !t.is_lane() || t.scalar.bits() != 32 {
        return None;
    }
    let j = (i + 1..b.insts.len()).find(|&j| !matches!(b.insts[j].kind, InstKind::Const(_)))?;
    let InstKind::WriteReg {
        reg,
        value,
        mask: wmask,
    } = b.insts.get(j)?.kind
    else {
        return None;
    };
    let me = Value(i as u32);
    let lane_file = in_lane_file(layout, reg, 1);
    (value == me && wmask == mask && lane_file && uses[i] == 1).then_some(j)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The instructions a plan places in a segment or a loop.
    fn placed(p: &Plan) -> std::collections::HashSet<u32> {
        p.seg_insts
            .iter()
            .chain(&p.loop_insts)
            .flatten()
            .copied()
            .collect()
    }

    fn filetest(name: &str) -> wavejit_ir::Function {
        let path = format!("{}/../tests/filetests/{name}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(path).expect("the filetest exists");
        wavejit_ir::text::parse(&src).expect("parses")
    }

    #[test]
    fn overwritten_uniform_writes_and_what_only_they_use_are_left_out() {
        let f = filetest("dead_writes.wir");
        let b = &f.blocks[0];
        let p = plan(&f.layout, b).expect("plans");
        let kept = placed(&p);
        // Read before the next write: s[0] <- %3 (read), s[0] <- %10 and s[3] <- 5 (an
        // indexed read of the file, which may read any cell). Overwritten first: s[2] <- 1,
        // s[0] <- %26 with the ballot and compare only it uses.
        for kept_inst in [3, 4, 10, 11, 17, 19, 29] {
            assert!(kept.contains(&kept_inst), "%{kept_inst} is needed");
        }
        for dead in [13, 25, 26, 27] {
            assert!(!kept.contains(&dead), "%{dead} is dead");
        }
    }

    #[test]
    fn row_addresses_fold_the_fetch_and_store_shapes_of_an_unwritten_register() {
        // (access, (register, wide, offsets, shift, bases)); the read of v[9] at %39 is
        // written before its load.
        for (file, want) in [
            (
                "row_addresses.wir",
                vec![
                    (8, Some((0, false, 1, 0, 2))),
                    (13, Some((2, false, 0, 0, 1))),
                    (24, Some((4, false, 0, 2, 2))),
                    (30, Some((5, false, 0, 1, 1))),
                    (37, Some((7, false, 1, 0, 1))),
                    (45, None),
                    (52, Some((0, false, 0, 0, 1))),
                    (62, Some((4, false, 0, 2, 2))),
                    (69, Some((12, true, 0, 0, 1))),
                    (76, Some((12, true, 0, 0, 0))),
                    (84, Some((12, true, 0, 0, 0))),
                    (91, Some((12, true, 0, 0, 0))),
                ],
            ),
            ("row_address_wrap.wir", vec![(6, Some((0, false, 0, 0, 1)))]),
            (
                "row_address_wrap_wide.wir",
                vec![(6, Some((0, true, 0, 0, 1)))],
            ),
            (
                "row_address_high_half.wir",
                vec![(11, Some((0, true, 0, 0, 0)))],
            ),
        ] {
            let f = filetest(file);
            let b = &f.blocks[0];
            let p = plan(&f.layout, b).expect("plans");
            let got: Vec<_> = (0..b.insts.len())
                .filter(|&i| {
                    matches!(
                        b.insts[i].kind,
                        InstKind::Load { .. } | InstKind::Store { .. }
                    )
                })
                .map(|i| {
                    let ra = p.row_address[i].as_ref();
                    (
                        i,
                        ra.map(|r| (r.reg.index, r.wide, r.offsets.len(), r.shift, r.bases.len())),
                    )
                })
                .collect();
            assert_eq!(got, want, "{file}");
            // The folded chains are in no loop or segment.
            let placed = placed(&p);
            for ra in p.row_address.iter().flatten() {
                for &c in &ra.chain {
                    assert!(!placed.contains(&(c as u32)), "{file}: %{c} is folded");
                }
            }
        }
    }

    #[test]
    fn lds_offsets_read_from_a_row_are_32_bit_row_addresses() {
        let f = filetest("lds_row_offsets.wir");
        let b = &f.blocks[0];
        let p = plan(&f.layout, b).expect("plans");
        // (access, register, offsets): the two stores, then the loads.
        let want = [
            (2, 0, 0),
            (9, 0, 1),
            (11, 2, 0),
            (15, 4, 1),
            (22, 7, 0),
            (25, 9, 0),
            (30, 11, 1),
        ];
        for (i, reg, offsets) in want {
            let ra = p.row_address[i].as_ref().expect("a row address");
            assert!(ra.bits32 && !ra.wide && ra.bases.is_empty(), "%{i}");
            assert_eq!((ra.reg.index, ra.offsets.len()), (reg, offsets), "%{i}");
        }
    }

    #[test]
    fn slots_only_loops_read_hold_their_lanes_packed() {
        let f = filetest("lds_row_offsets.wir");
        let b = &f.blocks[0];
        let p = plan(&f.layout, b).expect("plans");
        // %15: a load that two loop instructions read (a register write and an add); %11: a
        // load that writes its register itself (no slot to pack); %8: an add whose last use
        // is a store with a row address; %1: a store's value that an add reads after it.
        assert!(p.packed[15] && p.slot[15].is_some_and(|s| p.packed_slot[s as usize]));
        assert!(!p.packed[11]);
        assert!(p.packed[8] && p.slot[8].is_some_and(|s| p.packed_slot[s as usize]));
        assert!(p.slot[1].is_some() && !p.packed[1]);
    }

    #[test]
    fn direct_writes_are_the_next_write_under_the_load_mask_of_a_single_use() {
        let f = filetest("direct_load_write.wir");
        let b = &f.blocks[0];
        let p = plan(&f.layout, b).expect("plans");
        let loads: Vec<(usize, Option<usize>)> = (0..b.insts.len())
            .filter(|&i| matches!(b.insts[i].kind, InstKind::Load { .. }))
            .map(|i| (i, p.direct_write[i]))
            .collect();
        // No mask; the same mask (consecutive, then a gather); another mask; a second use;
        // one address for every lane, without a mask and under exec; constants between the
        // load and its write.
        assert_eq!(
            loads,
            vec![
                (6, Some(7)),
                (10, Some(11)),
                (16, Some(17)),
                (18, None),
                (20, None),
                (27, Some(28)),
                (29, Some(30)),
                (31, Some(34))
            ]
        );
    }
}
