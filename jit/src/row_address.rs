//! Lane addresses an access reads from a register's row instead of a scratch slot.
//!
//! TeraScale's fetches and RAT stores address memory as `base + (zext(r + k) << s)`: a
//! buffer's uniform base plus a lane register's 32-bit offset, scaled by the element size;
//! GCN's global accesses read a 64-bit register pair, `v[n:n+1] + k`; LDS accesses of both
//! take a 32-bit register plus an offset, `r + k`.
//! Computing that 64-bit address for every lane into a slot costs more than the access itself
//! when the lanes address consecutive words or one word, which is the common case. When the
//! address of a 32-bit lane load or store has that shape, the plan folds its chain of
//! instructions into the access ([`RowAddress`]); the access tests the register's row for the
//! consecutive and one-word cases and fills the address slot (for the gather, the lane loops
//! and the helper) only when neither holds.
//!
//! What makes the folding exact:
//! - every value of the chain has one use, the next link (the access for the last), so
//!   nothing else needs it computed (a register read with other uses stays where it is);
//! - nothing writes the register between its read and the access, so the rows hold the
//!   values the read saw;
//! - the scale is 1, 2 or 4, so a consecutive access steps the row by a whole number;
//! - the sums wrap exactly as the chain's `iadd`s do (32-bit before the extension, 64-bit
//!   after); a wide register's lanes are consecutive only when their high halves are equal
//!   and the low halves step without carrying.

use wavejit_ir::{BlockData, InstKind, MemWidth, Op, Reg, StateLayout, Value};

/// The folded address `sum(bases) + (x << shift)` of an access, where `x` is
/// `zext(row(reg) + sum(offsets))` for a 32-bit register and the 64-bit register itself for
/// a wide one; or, for a 32-bit address (`bits32`), `row(reg) + sum(offsets)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RowAddress {
    /// A register of a lane file.
    pub reg: Reg,
    /// Whether the register is 64 bits wide (two rows, the low cells first), read whole.
    pub wide: bool,
    /// Whether the address is the 32-bit sum itself (an LDS offset): no extension, shift or
    /// bases.
    pub bits32: bool,
    /// Uniform `i32` values added to a 32-bit register's row (wrapping) before the extension.
    pub offsets: Vec<Value>,
    /// The extended offset's left shift (0, 1 or 2).
    pub shift: u8,
    /// Uniform `i64` values added to the shifted offset (wrapping).
    pub bases: Vec<Value>,
    /// The chain's instructions from the address back to the register read (the read only
    /// when the chain is its only use): no loop computes them.
    pub chain: Vec<usize>,
}

/// The folded address of access `i`, if it is a 32-bit lane load or store whose lane address
/// has the module's shape. `uses` counts the operands naming each value.
pub(crate) fn row_address(
    layout: &StateLayout,
    b: &BlockData,
    i: usize,
    uses: &[u32],
) -> Option<RowAddress> {
    let addr = match b.insts[i].kind {
        InstKind::Load {
            addr,
            width: MemWidth::B32,
            space,
            ..
        } if b.insts[i].ty?.is_lane() && b.insts[i].ty?.scalar.bits() == 32 => {
            (space != wavejit_ir::MemSpace::Private).then_some(addr)?
        }
        InstKind::Store {
            addr,
            width: MemWidth::B32,
            space,
            ..
        } => (space != wavejit_ir::MemSpace::Private).then_some(addr)?,
        _ => return None,
    };
    let ty = |v: Value| b.value_type(v);
    let uniform = |v: Value| ty(v).is_some_and(|t| !t.is_lane());
    let lane = |v: Value, bits: u32| ty(v).is_some_and(|t| t.is_lane() && t.scalar.bits() == bits);
    let pure = |v: Value| match b.insts.get(v.index())?.kind {
        InstKind::Pure { op, args, .. } => Some((op, args)),
        _ => None,
    };
    let constant = |v: Value| match b.insts.get(v.index())?.kind {
        InstKind::Const(c) => Some(c),
        _ => None,
    };
    // One link at a time: `v` is the chain's current value, which only the link after it
    // (or the access) uses.
    let mut chain = Vec::new();
    let link = |v: Value, chain: &mut Vec<usize>| -> Option<()> {
        (uses[v.index()] == 1).then(|| chain.push(v.index()))
    };
    let (mut v, mut bases, mut shift) = (addr, Vec::new(), None);
    if lane(addr, 32) {
        return offsets_part(layout, b, addr, i, uses, chain, true);
    }
    // 64-bit part: the base terms, then at most one scale, then the extension or a 64-bit
    // register read.
    let x = loop {
        if !lane(v, 64) {
            return None;
        }
        if let InstKind::ReadReg(reg) = b.insts[v.index()].kind {
            let address = RowAddress {
                reg,
                wide: true,
                bits32: false,
                offsets: Vec::new(),
                shift: shift.unwrap_or(0),
                bases,
                chain,
            };
            return unwritten(layout, b, address, v.index(), i, uses);
        }
        link(v, &mut chain)?;
        match pure(v)? {
            (Op::Iadd, [p, q, ..]) if shift.is_none() && (uniform(p) || uniform(q)) => {
                let (u, rest) = if uniform(q) { (q, p) } else { (p, q) };
                bases.push(u);
                v = rest;
            }
            (Op::Imul, [p, q, ..]) if shift.is_none() => {
                let (k, rest) = match (constant(q), constant(p)) {
                    (Some(k), _) => (k, p),
                    (None, Some(k)) => (k, q),
                    _ => return None,
                };
                shift = Some(match k {
                    1 => 0,
                    2 => 1,
                    4 => 2,
                    _ => return None,
                });
                v = rest;
            }
            (Op::Shl, [p, q, ..]) if shift.is_none() => {
                let k = constant(q)?;
                shift = Some(u8::try_from(k).ok().filter(|&k| k <= 2)?);
                v = p;
            }
            (Op::Zext, [x, ..]) if lane(x, 32) => break x,
            _ => return None,
        }
    };
    let mut address = offsets_part(layout, b, x, i, uses, chain, false)?;
    address.shift = shift.unwrap_or(0);
    address.bases = bases;
    Some(address)
}

/// The 32-bit part of a row address from `x` on: uniform offsets added to a register read
/// (`bits32`: `x` is the access's address itself). `chain` holds the links before `x`.
fn offsets_part(
    layout: &StateLayout,
    b: &BlockData,
    mut x: Value,
    i: usize,
    uses: &[u32],
    mut chain: Vec<usize>,
    bits32: bool,
) -> Option<RowAddress> {
    let uniform = |v: Value| b.value_type(v).is_some_and(|t| !t.is_lane());
    let lane32 = |v: Value| {
        b.value_type(v)
            .is_some_and(|t| t.is_lane() && t.scalar.bits() == 32)
    };
    let mut offsets = Vec::new();
    let (reg, read) = loop {
        match b.insts[x.index()].kind {
            InstKind::ReadReg(reg) => break (reg, x.index()),
            InstKind::Pure {
                op: Op::Iadd,
                args: [p, q, ..],
                ..
            } if lane32(x) && (uniform(p) || uniform(q)) => {
                (uses[x.index()] == 1).then_some(())?;
                chain.push(x.index());
                let (u, rest) = if uniform(q) { (q, p) } else { (p, q) };
                offsets.push(u);
                x = rest;
            }
            _ => return None,
        }
    };
    let address = RowAddress {
        reg,
        wide: false,
        bits32,
        offsets,
        shift: 0,
        bases: Vec::new(),
        chain,
    };
    unwritten(layout, b, address, read, i, uses)
}

/// `address` if its register, read by instruction `read`, is a lane file's and nothing writes
/// it before access `i`; the read joins the chain when the chain is its only use.
fn unwritten(
    layout: &StateLayout,
    b: &BlockData,
    mut address: RowAddress,
    read: usize,
    i: usize,
    uses: &[u32],
) -> Option<RowAddress> {
    let (reg, cells) = (address.reg, 1 + address.wide as u32);
    if !crate::plan::in_lane_file(layout, reg, cells) || written_between(b, reg, cells, read + 1..i)
    {
        return None;
    }
    if uses[read] == 1 {
        address.chain.push(read);
    }
    Some(address)
}

/// Whether an instruction in `range` writes any of the `cells` cells of `reg` (an indexed
/// write of its file may write any).
pub(crate) fn written_between(
    b: &BlockData,
    reg: Reg,
    cells: u32,
    range: std::ops::Range<usize>,
) -> bool {
    let rows = reg.index..reg.index + cells;
    b.insts[range].iter().any(|w| match w.kind {
        InstKind::WriteReg { reg: wr, value, .. } => {
            let n = b.value_type(value).map_or(1, |t| t.scalar.cells());
            wr.file == reg.file && wr.index < rows.end && rows.start < wr.index + n
        }
        InstKind::WriteRegIndexed { file, .. } => file == reg.file,
        _ => false,
    })
}
