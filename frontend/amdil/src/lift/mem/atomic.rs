//! Atomics of the LDS (L10103-L11095), the GDS (L12257-L13061) and UAVs (L11158-L12220):
//! `{lds,gds,uav}_OP_id(n) src0, src1[, src2]` updates the dword at the address in src0, and
//! `{lds,gds,uav}_read_OP_id(n) dst, src0, src1[, src2]` also returns the dword's old value.
//! Each is one IR atomic (`AtomicOp`, the GCN lift's ops for its `ds_*`/`buffer_*` atomics):
//!
//! | OP | new value | lines |
//! |---|---|---|
//! | add, sub | `old + src1.x`, `old - src1.x` | L10109, L10951, L11158 |
//! | rsub | `src1.x - old` | L10805, L11950 |
//! | min, max | signed | L10430 ("Signed Integer Compare"), L11348, L11318 |
//! | umin, umax | unsigned | L11022, L10980, L12160 |
//! | and, or, xor | bitwise | L10118, L10497, L11061 |
//! | xchg (read form only) | `src1.x` | L10742, L11883 |
//! | inc, uinc | `old >= src1.x ? 0 : old + 1` (unsigned) | L10199, L12376, L12094 |
//! | dec, udec | `old == 0 \|\| old > src1.x ? src1.x : old - 1` (unsigned) | L12361, L12072 |
//! | mskor | `(old & ~src1.x) \| src2.x` | L10469, L12488 |
//! | cmp, cmp_xchg, cmp_store (LDS, GDS) | `old == src1.x ? src2.x : old` | L10147, L12312, L12595 |
//! | cmp, cmp_xchg (UAV) | `old == src2.x ? src1.x : old` | L11257, L11548 |
//!
//! `lds_dec`'s entry (L10174) repeats `lds_and`'s pseudo-code; the rule above is the one
//! `gds_dec` (L12361) and `uav_udec` (L12072) state. Note the UAV compare-exchange takes the
//! new value first, the LDS and GDS ones the compared value first. The read forms without an
//! entry (`lds_read_inc`, `lds_read_dec`, `lds_read_mskor`, `gds_read_xchg`: post-v2.4 rows)
//! are their no-return forms returning the old value, as every documented read form is.
//!
//! The old value goes to dst.x for the LDS and GDS ("Dst.x = lds[...]", L10548) and to the one
//! component the mask writes for UAVs ("a mask of .x, .y, .z, or .w", L11497). A lane out of
//! range (see `place.rs`) changes nothing and returns 0 (the seed: "an undefined value").
//! UAV atomics address their UAV as its loads do: raw and arena UAVs the arena (a dword
//! address outside it is a fault), private UAVs the lane's bytes, structured ones
//! `src0.xy`, typed ones the element at the coordinates in src0, whose four bytes the
//! atomic updates (the seed requires an R32 UINT or SINT format, L3340; the lift cannot see
//! the binding's format, so it is the launcher's to give one).

use super::Place;
use crate::lift::regs::Kind;
use crate::lift::Lifter;
use wavejit_ir::{AtomicOp, MemWidth, Value};
use wavejit_isa::LiftError;

/// The memory an atomic names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Lds,
    Gds,
    Uav,
}

/// The IR operation of OP, and the kind its data is read as.
fn operation(op: &str) -> Option<(AtomicOp, Kind)> {
    use AtomicOp::*;
    Some(match op {
        "add" => (Add, Kind::Int),
        "sub" => (Sub, Kind::Int),
        "rsub" => (Rsub, Kind::Int),
        "min" => (Smin, Kind::Int),
        "max" => (Smax, Kind::Int),
        "umin" => (Umin, Kind::Int),
        "umax" => (Umax, Kind::Int),
        "inc" | "uinc" => (Inc, Kind::Int),
        "dec" | "udec" => (Dec, Kind::Int),
        "and" => (And, Kind::Bits),
        "or" => (Or, Kind::Bits),
        "xor" => (Xor, Kind::Bits),
        "xchg" => (Xchg, Kind::Bits),
        "mskor" => (Mskor, Kind::Bits),
        "cmp" | "cmp_xchg" | "cmp_store" => (CmpXchg, Kind::Bits),
        _ => return None,
    })
}

impl Lifter<'_> {
    /// Lifts an atomic; `false` if `m` is not one.
    pub(super) fn lift_atomic(&mut self, m: &str) -> Result<bool, LiftError> {
        let (family, rest) = match m.split_once('_') {
            Some(("lds", rest)) => (Family::Lds, rest),
            Some(("gds", rest)) => (Family::Gds, rest),
            Some(("uav", rest)) => (Family::Uav, rest),
            _ => return Ok(false),
        };
        let (returns, op) = match rest.strip_prefix("read_") {
            Some(op) => (true, op),
            None => (false, rest),
        };
        let Some((op, kind)) = operation(op) else {
            return Ok(false);
        };
        let srcs = if op.takes_cmp() { 3 } else { 2 };
        self.operands(usize::from(returns), srcs)?;
        let p = self.atomic_place(family)?;
        let (data, cmp) = match (op.takes_cmp(), family) {
            (false, _) => (self.src(1, 0, kind)?, None),
            // mskor: src1 is the mask of bits replaced, src2 the bits or-ed in (L10478).
            (true, _) if op == AtomicOp::Mskor => {
                (self.src(2, 0, kind)?, Some(self.src(1, 0, kind)?))
            }
            (true, Family::Uav) => (self.src(1, 0, kind)?, Some(self.src(2, 0, kind)?)),
            (true, _) => (self.src(2, 0, kind)?, Some(self.src(1, 0, kind)?)),
        };
        let old = self.atomic_at(&p, op, data, cmp);
        if !returns {
            return Ok(true);
        }
        if family == Family::Uav {
            let c = self.one_component(&self.dst_comps()?)?;
            let mut vals = [None; 4];
            vals[c] = Some(old);
            self.write_dst(vals, [None; 4], Kind::Bits)?;
        } else {
            let why = format!("{} returns the old dword (L10548)", self.row().mnemonic);
            self.write_x(|_| old, &why)?;
        }
        Ok(true)
    }

    fn atomic_place(&mut self, family: Family) -> Result<Place, LiftError> {
        match family {
            Family::Lds => self.shared_place(false, (0, 1), 4),
            Family::Gds => self.shared_place(true, (0, 1), 4),
            Family::Uav => {
                let (id, uav) = self.uav_decl()?;
                self.uav_place(id, uav, 4)
            }
        }
    }

    /// The dword atomic at `p` in the lanes in range; the old value (0 out of range).
    fn atomic_at(&mut self, p: &Place, op: AtomicOp, data: Value, cmp: Option<Value>) -> Value {
        let (addr, ok) = self.target(p, 0, 4);
        let mask = self.acting(ok);
        self.b
            .atomic(op, p.space, MemWidth::B32, addr, data, cmp, Some(mask))
    }
}
