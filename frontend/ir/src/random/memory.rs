//! Memory traffic of a generated block: loads, stores and atomics at aligned addresses
//! computed in the IR from random data, inside the spaces the options give (plus, if they
//! allow it, some addresses outside them).

use super::body::BodyGen;
use super::GlobalBuffer;
use crate::func::*;
use crate::op::Op;
use crate::types::{ScalarType, Shape, Type};
use rand::seq::SliceRandom;
use rand::Rng;
use ScalarType::*;

impl BodyGen<'_> {
    pub(super) fn random_memory(&mut self) {
        let mut spaces = Vec::new();
        if self.opts.global.is_some() {
            spaces.push(MemSpace::Global);
        }
        if self.opts.lds_bytes.is_some() {
            spaces.push(MemSpace::Lds);
        }
        if self.opts.private_bytes.is_some() {
            spaces.push(MemSpace::Private);
        }
        let space = *spaces
            .choose(self.rng)
            .expect("called with a memory space enabled");
        let atomic_ok = self.opts.atomics && space != MemSpace::Private;
        match self.rng.gen_range(0..5) {
            0 | 1 => self.random_load(space),
            2 | 3 => self.random_store(space),
            _ if atomic_ok => self.random_atomic(space),
            _ => self.random_load(space),
        }
    }

    fn random_width(&mut self) -> MemWidth {
        [MemWidth::B8, MemWidth::B16, MemWidth::B32, MemWidth::B64][self.rng.gen_range(0..4)]
    }

    fn space_bytes(&self, space: MemSpace) -> u64 {
        match space {
            MemSpace::Global => self.opts.global.map_or(0, |g| g.len),
            MemSpace::Lds => u64::from(self.opts.lds_bytes.unwrap_or(0)),
            MemSpace::Private => u64::from(self.opts.private_bytes.unwrap_or(0)),
        }
    }

    /// Aligned slots of `width` bytes inside the space.
    fn slots(&self, space: MemSpace, width: MemWidth) -> u64 {
        self.space_bytes(space) / u64::from(width.bytes())
    }

    /// An aligned address for `width`. `unique`: lane-shaped, a different slot for every lane
    /// (stores of lane values, whose order between lanes the IR does not define). Returns None
    /// if the space is too small.
    fn address(
        &mut self,
        space: MemSpace,
        width: MemWidth,
        lane: bool,
        unique: bool,
    ) -> Option<Value> {
        let slots = self.slots(space, width);
        let w = u64::from(self.opts.wave_size);
        let slot = if unique {
            let regions = slots / w;
            if regions == 0 {
                return None;
            }
            let id = self.push(InstKind::LaneId, Some(Type::lane(I32)));
            let rot = self.index_below(w as u32, Some(Shape::Uniform));
            let sum = self.pure(Op::Iadd, I32, &[id, rot]);
            let wv = self.konst(I32, w);
            let perm = self.pure(Op::Urem, I32, &[sum, wv]);
            // Bounded so that region * w + perm stays below 2^32.
            let region = self.index_below(
                regions.min(u64::from(u32::MAX) / w) as u32,
                Some(Shape::Uniform),
            );
            let base = self.pure(Op::Imul, I32, &[region, wv]);
            self.pure(Op::Iadd, I32, &[base, perm])
        } else {
            if slots == 0 {
                return None;
            }
            let shape = if lane { Shape::Lane } else { Shape::Uniform };
            self.index_below(slots.min(u64::from(u32::MAX)) as u32, Some(shape))
        };
        let width_bytes = u64::from(width.bytes());
        let addr = match space {
            MemSpace::Global => {
                let g: GlobalBuffer = self.opts.global.expect("global enabled");
                let slot = self.pure(Op::Zext, I64, &[slot]);
                let wb = self.konst(I64, width_bytes);
                let off = self.pure(Op::Imul, I64, &[slot, wb]);
                let base = self.konst(I64, g.base);
                self.pure(Op::Iadd, I64, &[base, off])
            }
            MemSpace::Lds | MemSpace::Private => {
                let wb = self.konst(I32, width_bytes);
                self.pure(Op::Imul, I32, &[slot, wb])
            }
        };
        Some(self.maybe_out_of_range(space, width, addr))
    }

    /// If the options allow it, mixes an out-of-range address into some lanes (LDS: defined,
    /// reads 0 and drops writes; private and global: a guest fault).
    fn maybe_out_of_range(&mut self, space: MemSpace, width: MemWidth, addr: Value) -> Value {
        let allowed = match space {
            MemSpace::Lds => self.opts.lds_out_of_range,
            MemSpace::Global | MemSpace::Private => self.opts.faults,
        };
        if !allowed || !self.rng.gen_bool(0.15) {
            return addr;
        }
        let wb = u64::from(width.bytes());
        let t = self.ty(addr);
        let bad = match space {
            // The zero page (see `Options::faults`).
            MemSpace::Global => {
                let k = self.rng.gen_range(0..4);
                self.konst(I64, wb * k)
            }
            _ => {
                let bytes = self.space_bytes(space).next_multiple_of(wb);
                let last = (1u64 << 32) - wb;
                let far = [bytes, bytes + wb, last][self.rng.gen_range(0..3)];
                self.konst(I32, far.min(last))
            }
        };
        if t.is_lane() {
            let m = self.random_mask();
            self.pure(Op::Select, t.scalar, &[m, addr, bad])
        } else {
            bad
        }
    }

    fn random_load(&mut self, space: MemSpace) {
        let width = self.random_width();
        let lane = space == MemSpace::Private || self.rng.gen_bool(0.6);
        let Some(addr) = self.address(space, width, lane, false) else {
            return;
        };
        let bits = width.bytes() * 8;
        let float = match bits {
            16 => Some(F16),
            32 => Some(F32),
            64 => Some(F64),
            _ => None,
        };
        let (ty, signed) = match float {
            Some(f) if self.rng.gen_bool(0.25) => (f, false),
            _ => {
                let ints: Vec<ScalarType> = [I8, I16, I32, I64]
                    .into_iter()
                    .filter(|t| t.bits() >= bits)
                    .collect();
                (
                    *ints.choose(self.rng).expect("i64 holds every width"),
                    self.rng.gen_bool(0.5),
                )
            }
        };
        let shape = self.ty(addr).shape;
        let mask = if shape == Shape::Lane {
            self.optional_mask()
        } else {
            None
        };
        self.push(
            InstKind::Load {
                space,
                width,
                signed,
                addr,
                mask,
            },
            Some(Type { scalar: ty, shape }),
        );
    }

    fn random_store(&mut self, space: MemSpace) {
        let width = self.random_width();
        let bits = width.bytes() * 8;
        // A uniform address takes a uniform value (lanes storing different values to one
        // address would race); private addresses are always lane-shaped.
        let lane = space == MemSpace::Private || self.rng.gen_bool(0.7);
        let unique = lane && space != MemSpace::Private;
        let Some(addr) = self.address(space, width, lane, unique) else {
            return;
        };
        let types: Vec<ScalarType> = ScalarType::ALL
            .into_iter()
            .filter(|t| t.bits() >= bits)
            .collect();
        let t = *types
            .choose(self.rng)
            .expect("64-bit types hold every width");
        let value = self.get(t, if lane { None } else { Some(Shape::Uniform) });
        let lane_shaped = self.ty(addr).is_lane() || self.ty(value).is_lane();
        let mask = if lane_shaped {
            self.optional_mask()
        } else {
            None
        };
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

    fn random_atomic(&mut self, space: MemSpace) {
        let width = if self.rng.gen_bool(0.5) {
            MemWidth::B32
        } else {
            MemWidth::B64
        };
        let lane = self.rng.gen_bool(0.6);
        let Some(addr) = self.address(space, width, lane, false) else {
            return;
        };
        let ops = &crate::text::names::ATOMIC_OPS;
        let (op, _) = ops[self.rng.gen_range(0..ops.len())];
        let float = op.is_float();
        let t = match (float, width) {
            (true, MemWidth::B32) => F32,
            (true, _) => F64,
            (false, MemWidth::B32) => I32,
            (false, _) => I64,
        };
        let data = self.get(t, None);
        let cmp = op.takes_cmp().then(|| self.get(t, None));
        let shape = [Some(addr), Some(data), cmp]
            .into_iter()
            .flatten()
            .fold(Shape::Uniform, |s, v| s.join(self.ty(v).shape));
        let mask = if shape == Shape::Lane {
            self.optional_mask()
        } else {
            None
        };
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
            Some(Type { scalar: t, shape }),
        );
    }
}
