//! Generates the straight-line body of one block: reads of the data files, pure ops, register
//! writes (masked for lane registers), cross-lane and indexed accesses; memory traffic is in
//! [`super::memory`].
//!
//! Every instruction is built valid by construction (the `random_*` tests run the verifier
//! over thousands of seeds). Values are drawn from a pool of the block's earlier results or
//! made on demand (constants, register reads, conversions of register reads).

use super::ops::signatures;
use super::values::{edge_bits, float_mode};
use super::{Files, Options};
use crate::func::*;
use crate::op::{Choice, FloatCC, FloatMode, IntCC, Op};
use crate::state::Reg;
use crate::types::{ScalarType, Shape, Type};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use ScalarType::*;

/// Scalar types a register holds directly (narrower values are widened to a cell first).
const REG_TYPES: [ScalarType; 4] = [I32, I64, F32, F64];

pub struct BodyGen<'a> {
    pub rng: &'a mut ChaCha8Rng,
    pub opts: &'a Options,
    pub files: Files,
    pub ops: &'a [Op],
    pub insts: Vec<Inst>,
    pool: Vec<(Value, Type)>,
    pub pc: u32,
    pub guest_insts: u32,
}

impl<'a> BodyGen<'a> {
    pub fn new(
        rng: &'a mut ChaCha8Rng,
        opts: &'a Options,
        files: Files,
        ops: &'a [Op],
        pc: u32,
    ) -> Self {
        BodyGen {
            rng,
            opts,
            files,
            ops,
            insts: Vec::new(),
            pool: Vec::new(),
            pc,
            guest_insts: 1,
        }
    }

    pub(super) fn push(&mut self, kind: InstKind, ty: Option<Type>) -> Value {
        let v = Value(self.insts.len() as u32);
        self.insts.push(Inst {
            kind,
            ty,
            pc: self.pc,
        });
        if let Some(t) = ty {
            self.pool.push((v, t));
        }
        v
    }

    pub(super) fn ty(&self, v: Value) -> Type {
        self.insts[v.index()]
            .ty
            .expect("generated values have types")
    }

    pub(super) fn konst(&mut self, t: ScalarType, bits: u64) -> Value {
        self.push(InstKind::Const(bits & t.bit_mask()), Some(Type::uniform(t)))
    }

    pub(super) fn pure(&mut self, op: Op, result: ScalarType, args: &[Value]) -> Value {
        self.pure_mode(op, FloatMode::IEEE, result, args)
    }

    fn pure_mode(&mut self, op: Op, mode: FloatMode, result: ScalarType, args: &[Value]) -> Value {
        let shape = args
            .iter()
            .fold(Shape::Uniform, |s, &a| s.join(self.ty(a).shape));
        let mut slots = [Value(u32::MAX); 4];
        slots[..args.len()].copy_from_slice(args);
        let mode = if op.uses_float_mode() {
            mode
        } else {
            FloatMode::IEEE
        };
        self.push(
            InstKind::Pure {
                op,
                mode,
                args: slots,
            },
            Some(Type {
                scalar: result,
                shape,
            }),
        )
    }

    /// Starts a new guest instruction about every other call (so pcs group several IR
    /// instructions, as lifted code does).
    fn maybe_next_guest_inst(&mut self) {
        if self.rng.gen_bool(0.5) {
            self.pc = self.pc.wrapping_add(4);
            self.guest_insts += 1;
        }
    }

    /// Appends random instructions until the block holds about `target` of them.
    pub fn fill(&mut self, target: usize) {
        let mem = self.opts.global.is_some()
            || self.opts.lds_bytes.is_some()
            || self.opts.private_bytes.is_some();
        while self.insts.len() < target {
            self.maybe_next_guest_inst();
            match self.rng.gen_range(0..20) {
                0..=9 if !self.ops.is_empty() => self.random_pure(),
                10..=13 => self.random_write(),
                14..=16 if mem => self.random_memory(),
                17 if self.opts.cross_lane => self.random_cross_lane(),
                18 | 19 if self.opts.indexed_regs => self.random_indexed(),
                _ => self.random_write(),
            }
        }
        // Make a few late results observable.
        for _ in 0..3 {
            self.random_write();
        }
    }

    // --- values ---

    /// A value of scalar type `t`, of shape `shape` if given: an earlier result or a new one.
    pub(super) fn get(&mut self, t: ScalarType, shape: Option<Shape>) -> Value {
        if self.rng.gen_bool(0.6) {
            let fits: Vec<Value> = self
                .pool
                .iter()
                .filter(|(_, ty)| ty.scalar == t && shape.is_none_or(|s| s == ty.shape))
                .map(|&(v, _)| v)
                .collect();
            if let Some(&v) = fits.choose(self.rng) {
                return v;
            }
        }
        let shape = shape.unwrap_or(if self.rng.gen_bool(0.5) {
            Shape::Lane
        } else {
            Shape::Uniform
        });
        self.make(t, shape)
    }

    fn make(&mut self, t: ScalarType, shape: Shape) -> Value {
        match shape {
            Shape::Uniform if self.rng.gen_bool(0.4) => {
                let bits = edge_bits(self.rng, t);
                self.konst(t, bits)
            }
            Shape::Lane if self.rng.gen_bool(0.15) => {
                let u = self.make(t, Shape::Uniform);
                self.push(InstKind::Splat(u), Some(Type::lane(t)))
            }
            Shape::Lane if t == I32 && self.rng.gen_bool(0.2) => {
                self.push(InstKind::LaneId, Some(Type::lane(I32)))
            }
            Shape::Lane if t == I1 && self.rng.gen_bool(0.5) => self.random_mask(),
            _ => self.read_as(t, shape),
        }
    }

    /// Reads a data register as `t`: directly for 32/64-bit types, through a 32-bit read and a
    /// truncation or bitcast otherwise.
    fn read_as(&mut self, t: ScalarType, shape: Shape) -> Value {
        let (file, cells) = match shape {
            Shape::Uniform => (self.files.s, self.opts.uniform_regs),
            Shape::Lane => (self.files.v, self.opts.lane_regs),
        };
        let read = |g: &mut Self, rt: ScalarType| {
            let index = g.rng.gen_range(0..=cells - rt.cells());
            g.push(
                InstKind::ReadReg(Reg::new(file, index)),
                Some(Type { scalar: rt, shape }),
            )
        };
        match t {
            I32 | I64 | F32 | F64 => read(self, t),
            I1 | I8 | I16 => {
                let r = read(self, I32);
                self.pure(Op::Trunc, t, &[r])
            }
            F16 => {
                let r = read(self, I32);
                let h = self.pure(Op::Trunc, I16, &[r]);
                self.pure(Op::Bitcast, F16, &[h])
            }
        }
    }

    /// A `lane i1`: a comparison of lane values, bits of a uniform register, or the pool.
    pub(super) fn random_mask(&mut self) -> Value {
        match self.rng.gen_range(0..4) {
            0 => {
                let bits = self.get(I64, Some(Shape::Uniform));
                self.push(InstKind::MaskFromBits(bits), Some(Type::MASK))
            }
            1 => {
                let a = self.get(I32, Some(Shape::Lane));
                let b = self.get(I32, None);
                let cc = <IntCC as Choice>::VALUES[self.rng.gen_range(0..10)].0;
                self.pure(Op::Icmp(cc), I1, &[a, b])
            }
            2 => {
                let a = self.get(I1, Some(Shape::Lane));
                let b = self.get(I1, Some(Shape::Lane));
                let op = [Op::And, Op::Or, Op::Xor][self.rng.gen_range(0..3)];
                self.pure(op, I1, &[a, b])
            }
            _ => {
                let r = self.read_as(I32, Shape::Lane);
                self.pure(Op::Trunc, I1, &[r])
            }
        }
    }

    /// A uniform `i1` for a branch.
    pub fn uniform_cond(&mut self) -> Value {
        match self.rng.gen_range(0..3) {
            0 => {
                let m = self.random_mask();
                let bits = self.push(InstKind::Ballot(m), Some(Type::uniform(I64)));
                let zero = self.konst(I64, 0);
                self.pure(Op::Icmp(crate::IntCC::Ne), I1, &[bits, zero])
            }
            1 => {
                let t = [I32, I64, F32, F64][self.rng.gen_range(0..4)];
                let a = self.get(t, Some(Shape::Uniform));
                let b = self.get(t, Some(Shape::Uniform));
                let op = if t.is_float() {
                    Op::Fcmp(<FloatCC as Choice>::VALUES[self.rng.gen_range(0..15)].0)
                } else {
                    Op::Icmp(<IntCC as Choice>::VALUES[self.rng.gen_range(0..10)].0)
                };
                self.pure(op, I1, &[a, b])
            }
            _ => self.get(I1, Some(Shape::Uniform)),
        }
    }

    /// `v` widened to a register type: narrow integers zero-extended to i32, f16 through i16.
    fn widen(&mut self, v: Value) -> Value {
        match self.ty(v).scalar {
            I32 | I64 | F32 | F64 => v,
            F16 => {
                let i = self.pure(Op::Bitcast, I16, &[v]);
                self.pure(Op::Zext, I32, &[i])
            }
            _ => self.pure(Op::Zext, I32, &[v]),
        }
    }

    pub(super) fn optional_mask(&mut self) -> Option<Value> {
        (self.opts.masked_writes && self.rng.gen_bool(0.7)).then(|| self.random_mask())
    }

    // --- instruction families ---

    fn random_pure(&mut self) {
        let op = *self.ops.choose(self.rng).expect("non-empty op list");
        let sig = *signatures(op)
            .choose(self.rng)
            .expect("every op has a typing");
        let all_uniform = self.rng.gen_bool(0.3);
        let args: Vec<Value> = (0..sig.arity)
            .map(|i| {
                let shape = if all_uniform {
                    Some(Shape::Uniform)
                } else {
                    None
                };
                self.get(sig.args[i], shape)
            })
            .collect();
        let mode = if self.opts.float_modes {
            float_mode(self.rng)
        } else {
            FloatMode::IEEE
        };
        self.pure_mode(op, mode, sig.result, &args);
    }

    fn random_write(&mut self) {
        let lane = self.rng.gen_bool(0.6);
        let shape = if lane { Shape::Lane } else { Shape::Uniform };
        let v = match self
            .pool
            .iter()
            .filter(|(_, t)| t.shape == shape)
            .collect::<Vec<_>>()
            .choose(self.rng)
        {
            Some(&&(v, _)) => v,
            None => {
                let t = REG_TYPES[self.rng.gen_range(0..4)];
                self.make(t, shape)
            }
        };
        let v = self.widen(v);
        let t = self.ty(v).scalar;
        if lane {
            let index = self.rng.gen_range(0..=self.opts.lane_regs - t.cells());
            let mask = self.optional_mask();
            let reg = Reg::new(self.files.v, index);
            self.push(
                InstKind::WriteReg {
                    reg,
                    value: v,
                    mask,
                },
                None,
            );
        } else {
            let index = self.rng.gen_range(0..=self.opts.uniform_regs - t.cells());
            let reg = Reg::new(self.files.s, index);
            self.push(
                InstKind::WriteReg {
                    reg,
                    value: v,
                    mask: None,
                },
                None,
            );
        }
    }

    fn random_cross_lane(&mut self) {
        let w = self.opts.wave_size;
        match self.rng.gen_range(0..4) {
            0 => {
                let m = self.random_mask();
                self.push(InstKind::Ballot(m), Some(Type::uniform(I64)));
            }
            1 => {
                let bits = self.get(I64, Some(Shape::Uniform));
                self.push(InstKind::MaskFromBits(bits), Some(Type::MASK));
            }
            2 => {
                let t = ScalarType::ALL[self.rng.gen_range(0..8)];
                let value = self.get(t, Some(Shape::Lane));
                // Lane numbers at and beyond the wave size too: they are taken modulo it.
                let lane = if self.rng.gen_bool(0.5) {
                    let n = self.rng.gen_range(0..w + w / 2);
                    self.konst(I32, u64::from(n))
                } else {
                    self.get(I32, Some(Shape::Uniform))
                };
                self.push(InstKind::ReadLane { value, lane }, Some(Type::uniform(t)));
            }
            _ => {
                let t = ScalarType::ALL[self.rng.gen_range(0..8)];
                let value = self.get(t, Some(Shape::Lane));
                let src = self.shuffle_source();
                self.push(InstKind::Shuffle { value, src }, Some(Type::lane(t)));
            }
        }
    }

    /// A `lane i32` of source lanes: permutations (xor, rotate) and arbitrary values, whose
    /// lanes outside the wave read 0.
    fn shuffle_source(&mut self) -> Value {
        let w = u64::from(self.opts.wave_size);
        let id = self.push(InstKind::LaneId, Some(Type::lane(I32)));
        match self.rng.gen_range(0..3) {
            0 => {
                let k = self.rng.gen_range(0..w);
                let k = self.konst(I32, k);
                self.pure(Op::Xor, I32, &[id, k])
            }
            1 => {
                let k = self.rng.gen_range(0..w);
                let k = self.konst(I32, k);
                let sum = self.pure(Op::Iadd, I32, &[id, k]);
                let wv = self.konst(I32, w);
                self.pure(Op::Urem, I32, &[sum, wv])
            }
            _ => self.get(I32, Some(Shape::Lane)),
        }
    }

    /// `x urem n` for a random `i32` x of `shape` (an in-range index below `n`, n >= 1).
    pub(super) fn index_below(&mut self, n: u32, shape: Option<Shape>) -> Value {
        let x = self.get(I32, shape);
        let n = self.konst(I32, u64::from(n));
        self.pure(Op::Urem, I32, &[x, n])
    }

    fn random_indexed(&mut self) {
        let t = REG_TYPES[self.rng.gen_range(0..4)];
        let lane_file = self.rng.gen_bool(0.6);
        let (file, cells) = if lane_file {
            (self.files.v, self.opts.lane_regs)
        } else {
            (self.files.s, self.opts.uniform_regs)
        };
        let base = self.rng.gen_range(0..=cells - t.cells());
        let span = cells - base - t.cells() + 1;
        let write = self.rng.gen_bool(0.5);
        // A uniform file is written with a uniform index.
        let index_shape = if write && !lane_file {
            Some(Shape::Uniform)
        } else {
            None
        };
        let index = if self.opts.faults && self.rng.gen_bool(0.1) {
            self.get(I32, index_shape)
        } else {
            self.index_below(span, index_shape)
        };
        if write {
            let shape = if lane_file {
                Shape::Lane
            } else {
                Shape::Uniform
            };
            let value = self.get(t, Some(shape));
            let mask = if lane_file {
                self.optional_mask()
            } else {
                None
            };
            self.push(
                InstKind::WriteRegIndexed {
                    file,
                    base,
                    index,
                    value,
                    mask,
                },
                None,
            );
        } else {
            let shape = if lane_file {
                Shape::Lane
            } else {
                self.ty(index).shape
            };
            self.push(
                InstKind::ReadRegIndexed { file, base, index },
                Some(Type { scalar: t, shape }),
            );
        }
    }
}
