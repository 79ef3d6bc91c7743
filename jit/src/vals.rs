//! How IR values are held in Cranelift SSA, and the vector shapes conversions between them.
//!
//! - A uniform value is one scalar: `I32` for kinds up to 32 bits (an `i1` is 0 or 1), `I64`
//!   for 64-bit kinds; bits are zero-extended as in the IR.
//! - A lane value over one 4-lane chunk is an `I32X4` for kinds up to 32 bits (zero-extended;
//!   a mask is 0 or -1 per lane, which `bitselect` wants), or two `I64X2` (lanes 0-1, 2-3)
//!   for 64-bit kinds.
//! - A 64-bit lane register occupies two register rows (low cells, high cells); reads
//!   interleave them, writes de-interleave.
//!
//! Floats are bit-cast views of the same registers (free on x86).

use cranelift_codegen::ir::{
    condcodes::IntCC, types::*, ConstantData, Endianness, InstBuilder, InstructionData,
    MemFlagsData, Opcode, Type, Value, ValueDef,
};
use cranelift_frontend::FunctionBuilder;
use wavejit_ir::ScalarType;

/// An IR value in Cranelift SSA (see the module docs).
#[derive(Clone, Copy, Debug)]
pub(crate) enum V {
    S(Value),
    L(Value),
    L2(Value, Value),
}

impl V {
    pub fn parts(self) -> ([Value; 2], usize) {
        match self {
            V::S(a) | V::L(a) => ([a, a], 1),
            V::L2(a, b) => ([a, b], 2),
        }
    }
}

/// The Cranelift shape an op is computed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    pub lane: bool,
    pub w64: bool,
}

impl Form {
    pub fn of(t: ScalarType, lane: bool) -> Form {
        Form {
            lane,
            w64: t.bits() == 64,
        }
    }
    pub fn ity(self) -> Type {
        match (self.lane, self.w64) {
            (false, false) => I32,
            (false, true) => I64,
            (true, false) => I32X4,
            (true, true) => I64X2,
        }
    }
    pub fn fty(self) -> Type {
        match (self.lane, self.w64) {
            (false, false) => F32,
            (false, true) => F64,
            (true, false) => F32X4,
            (true, true) => F64X2,
        }
    }
    pub fn nparts(self) -> usize {
        if self.lane && self.w64 {
            2
        } else {
            1
        }
    }
    pub fn make(self, p: [Value; 2]) -> V {
        match (self.lane, self.nparts()) {
            (false, _) => V::S(p[0]),
            (true, 1) => V::L(p[0]),
            _ => V::L2(p[0], p[1]),
        }
    }
}

pub(crate) fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// Flags of guest-state and scratch accesses: in bounds by construction, maybe unaligned.
pub(crate) fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

pub(crate) fn bc(b: &mut FunctionBuilder, ty: Type, v: Value) -> Value {
    if b.func.dfg.value_type(v) == ty {
        v
    } else {
        b.ins().bitcast(ty, le(), v)
    }
}

pub(crate) fn vconst(b: &mut FunctionBuilder, ty: Type, bytes: [u8; 16]) -> Value {
    let c = b
        .func
        .dfg
        .constants
        .insert(ConstantData::from(bytes.to_vec()));
    b.ins().vconst(ty, c)
}

pub(crate) fn const32x4(b: &mut FunctionBuilder, v: [u32; 4]) -> Value {
    let mut bytes = [0u8; 16];
    for (i, x) in v.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&x.to_le_bytes());
    }
    vconst(b, I32X4, bytes)
}

/// A constant of `form`'s integer type with every element `c`.
pub(crate) fn iconst_form(b: &mut FunctionBuilder, f: Form, c: u64) -> Value {
    match (f.lane, f.w64) {
        (false, false) => b.ins().iconst(I32, c as u32 as i64),
        (false, true) => b.ins().iconst(I64, c as i64),
        (true, false) => const32x4(b, [c as u32; 4]),
        (true, true) => {
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&c.to_le_bytes());
            bytes[8..].copy_from_slice(&c.to_le_bytes());
            vconst(b, I64X2, bytes)
        }
    }
}

/// The byte shuffle mask of `shuffle32`'s `idx`.
fn mask32(idx: [u8; 4]) -> [u8; 16] {
    let mut mask = [0u8; 16];
    for (i, &l) in idx.iter().enumerate() {
        for k in 0..4 {
            mask[4 * i + k] = 4 * l + k as u8;
        }
    }
    mask
}

/// Lanes `idx` (0-3 from `a`, 4-7 from `c`) of two `I32X4`/`I64X2` values seen as 32-bit lanes.
pub(crate) fn shuffle32(b: &mut FunctionBuilder, a: Value, c: Value, idx: [u8; 4]) -> Value {
    let mask = mask32(idx);
    let a8 = bc(b, I8X16, a);
    let c8 = bc(b, I8X16, c);
    let imm = b
        .func
        .dfg
        .immediates
        .push(ConstantData::from(mask.to_vec()));
    let r = b.ins().shuffle(a8, c8, imm);
    bc(b, I32X4, r)
}

/// Two rows (low and high 32-bit halves) to two `I64X2`.
pub(crate) fn interleave(b: &mut FunctionBuilder, lo: Value, hi: Value) -> (Value, Value) {
    let p0 = shuffle32(b, lo, hi, [0, 4, 1, 5]);
    let p1 = shuffle32(b, lo, hi, [2, 6, 3, 7]);
    (bc(b, I64X2, p0), bc(b, I64X2, p1))
}

/// Two `I64X2` to the low and high 32-bit halves of the 4 lanes (the rows themselves when
/// the parts are an [`interleave`] of them).
pub(crate) fn deinterleave(b: &mut FunctionBuilder, p0: Value, p1: Value) -> (Value, Value) {
    if let Some(rows) = interleaved_rows(b, p0, p1) {
        return rows;
    }
    (
        shuffle32(b, p0, p1, [0, 2, 4, 6]),
        shuffle32(b, p0, p1, [1, 3, 5, 7]),
    )
}

/// The rows `(lo, hi)` when `p0, p1` are what [`interleave`] made of them (bitcasts looked
/// through), so that code can work on the rows and a later [`deinterleave`] costs nothing.
pub(crate) fn interleaved_rows(
    b: &mut FunctionBuilder,
    p0: Value,
    p1: Value,
) -> Option<(Value, Value)> {
    let (x, y) = shuffled_pair(b, p0, p1)?;
    Some((bc(b, I32X4, x), bc(b, I32X4, y)))
}

/// The operands of the two shuffles [`interleave`] makes, if `p0, p1` are them.
fn shuffled_pair(b: &FunctionBuilder, p0: Value, p1: Value) -> Option<(Value, Value)> {
    let dfg = &b.func.dfg;
    let shuffle = |v: Value| -> Option<(Value, Value, &[u8])> {
        let ValueDef::Result(inst, 0) = dfg.value_def(strip_any_bitcast(b, v)) else {
            return None;
        };
        match dfg.insts[inst] {
            InstructionData::Shuffle {
                opcode: Opcode::Shuffle,
                args: [x, y],
                imm,
            } => Some((x, y, dfg.immediates.get(imm)?.as_slice())),
            _ => None,
        }
    };
    let (x0, y0, m0) = shuffle(p0)?;
    let (x1, y1, m1) = shuffle(p1)?;
    let same = |u: Value, w: Value| strip_any_bitcast(b, u) == strip_any_bitcast(b, w);
    if !same(x0, x1) || !same(y0, y1) || m0 != mask32([0, 4, 1, 5]) || m1 != mask32([2, 6, 3, 7]) {
        return None;
    }
    Some((x0, y0))
}

/// `v` with every `bitcast` looked through.
fn strip_any_bitcast(b: &FunctionBuilder, v: Value) -> Value {
    strip_bitcasts_while(b, v, |_, _| true)
}

pub(crate) fn widen_u(b: &mut FunctionBuilder, v: Value) -> (Value, Value) {
    let zero = const32x4(b, [0; 4]);
    let (p0, p1) = interleave(b, v, zero);
    (p0, p1)
}

pub(crate) fn widen_s(b: &mut FunctionBuilder, v: Value) -> (Value, Value) {
    (b.ins().swiden_low(v), b.ins().swiden_high(v))
}

/// A mask (`I32X4` of 0/-1) as the two `I64X2` masks of the same lanes.
pub(crate) fn mask64(b: &mut FunctionBuilder, m: Value) -> (Value, Value) {
    widen_s(b, m)
}

/// A uniform value broadcast to a lane value of kind `t`.
pub(crate) fn broadcast(b: &mut FunctionBuilder, t: ScalarType, s: Value) -> V {
    if t == ScalarType::I1 {
        let m = b.ins().ineg(s);
        V::L(b.ins().splat(I32X4, m))
    } else if t.bits() <= 32 {
        V::L(b.ins().splat(I32X4, s))
    } else {
        let p = b.ins().splat(I64X2, s);
        V::L2(p, p)
    }
}

/// A boolean scalar (`I8` 0/1 from `icmp`/`fcmp`) as a uniform `i1`.
pub(crate) fn bool32(b: &mut FunctionBuilder, c: Value) -> Value {
    b.ins().uextend(I32, c)
}

/// Vector compare results (one per part, lanes 0/-1 of the part's width) as one mask.
pub(crate) fn mask_from_parts(b: &mut FunctionBuilder, f: Form, p: [Value; 2]) -> V {
    if !f.lane {
        return V::S(bool32(b, p[0]));
    }
    if f.w64 {
        let (lo, _) = deinterleave(b, p[0], p[1]);
        V::L(lo)
    } else {
        V::L(bc(b, I32X4, p[0]))
    }
}

/// A mask operand as per-part selectors for values of form `f`.
pub(crate) fn mask_parts(b: &mut FunctionBuilder, f: Form, m: V) -> [Value; 2] {
    match (m, f.lane, f.w64) {
        (V::S(s), false, _) => [s, s],
        (V::L(l), true, false) => [l, l],
        (V::L(l), true, true) => {
            let (a, c) = mask64(b, l);
            [a, c]
        }
        (V::S(s), true, _) => {
            let t = if f.w64 {
                ScalarType::I64
            } else {
                ScalarType::I32
            };
            let bm = broadcast(b, ScalarType::I1, s);
            let l = match bm {
                V::L(l) => l,
                _ => unreachable!("broadcast of i1 is one vector"),
            };
            if t == ScalarType::I64 {
                let (a, c) = mask64(b, l);
                [a, c]
            } else {
                [l, l]
            }
        }
        (_, _, _) => {
            let (p, _) = m.parts();
            p
        }
    }
}

/// `m ? x : y` per part (`m` from [`mask_parts`]).
pub(crate) fn select(b: &mut FunctionBuilder, f: Form, m: Value, x: Value, y: Value) -> Value {
    if !f.lane {
        return b.ins().select(m, x, y);
    }
    let ty = b.func.dfg.value_type(x);
    let m = bc(b, ty, m);
    // A lane mask is all ones or all zeros per lane, so a select with a constant of all
    // ones or zeros is a logic op on the mask (Cranelift keeps the blend otherwise: a
    // comparison's `-1 : 0`, TeraScale's SET* results, cost a `pblendvb` and two constants).
    let ones = if ty.lane_bits() >= 64 {
        u64::MAX
    } else {
        (1u64 << ty.lane_bits()) - 1
    };
    match (known_lanes(b, x), known_lanes(b, y)) {
        (Some(a), Some(0)) if a == ones => m,
        (Some(0), Some(c)) if c == ones => b.ins().bnot(m),
        (_, Some(0)) => b.ins().band(m, x),
        (Some(0), _) => b.ins().band_not(y, m),
        _ => b.ins().bitselect(m, x, y),
    }
}

/// Integer compare of two parts of form `f` (`I8` for scalars, lane masks for vectors).
pub(crate) fn icmp(b: &mut FunctionBuilder, cc: IntCC, x: Value, y: Value) -> Value {
    b.ins().icmp(cc, x, y)
}

/// Sign-extends the low `bits` of each 32-bit container element.
pub(crate) fn sext_in(b: &mut FunctionBuilder, bits: u32, v: Value) -> Value {
    if bits >= 32 {
        return v;
    }
    let sh = (32 - bits) as i64;
    let t = b.ins().ishl_imm_u(v, sh);
    b.ins().sshr_imm_u(t, sh)
}

/// The CLIF value of a part as the integer type of `f`.
pub(crate) fn as_int(b: &mut FunctionBuilder, f: Form, v: Value) -> Value {
    bc(b, f.ity(), v)
}

pub(crate) fn as_float(b: &mut FunctionBuilder, f: Form, v: Value) -> Value {
    bc(b, f.fty(), v)
}

/// The bits of each lane of `v` when `v` is a constant whose lanes are all equal: an `iconst`,
/// or a `splat`, `vconst` or lane-width-preserving `bitcast` of one (read from the function
/// built so far; `None` when `v` is not such a constant).
pub(crate) fn known_lanes(b: &FunctionBuilder, v: Value) -> Option<u64> {
    let dfg = &b.func.dfg;
    let ty = dfg.value_type(v);
    let lane_bits = ty.lane_bits();
    let ValueDef::Result(inst, 0) = dfg.value_def(v) else {
        return None;
    };
    match dfg.insts[inst] {
        InstructionData::UnaryImm {
            opcode: Opcode::Iconst,
            imm,
        } => {
            let bits = imm.bits() as u64;
            Some(if lane_bits >= 64 {
                bits
            } else {
                bits & ((1u64 << lane_bits) - 1)
            })
        }
        InstructionData::Unary {
            opcode: Opcode::Splat,
            arg,
        } => known_lanes(b, arg),
        InstructionData::LoadNoOffset {
            opcode: Opcode::Bitcast,
            arg,
            ..
        } if dfg.value_type(arg).lane_bits() == lane_bits => known_lanes(b, arg),
        InstructionData::UnaryConst {
            opcode: Opcode::Vconst,
            constant_handle,
        } => {
            let bytes = dfg.constants.get(constant_handle).as_slice();
            let w = (lane_bits / 8) as usize;
            if w == 0 || w > 8 || bytes.len() != 16 {
                return None;
            }
            let first = &bytes[..w];
            if bytes.chunks_exact(w).any(|c| c != first) {
                return None;
            }
            let mut le = [0u8; 8];
            le[..w].copy_from_slice(first);
            Some(u64::from_le_bytes(le))
        }
        _ => None,
    }
}

/// `v` with `bitcast`s that keep the lane width looked through (views of the same bits).
pub(crate) fn strip_bitcasts(b: &FunctionBuilder, v: Value) -> Value {
    strip_bitcasts_while(b, v, |from, to| {
        from.lane_bits() == to.lane_bits() && from.lane_count() == to.lane_count()
    })
}

/// `v` with the `bitcast`s from a type `from` to a type `to` that `keep(from, to)` accepts
/// looked through, outermost first.
fn strip_bitcasts_while(
    b: &FunctionBuilder,
    mut v: Value,
    keep: impl Fn(Type, Type) -> bool,
) -> Value {
    let dfg = &b.func.dfg;
    while let ValueDef::Result(inst, 0) = dfg.value_def(v) {
        match dfg.insts[inst] {
            InstructionData::LoadNoOffset {
                opcode: Opcode::Bitcast,
                arg,
                ..
            } if keep(dfg.value_type(arg), dfg.value_type(v)) => v = arg,
            _ => break,
        }
    }
    v
}

/// Whether `v` is a `splat` (bitcasts looked through): the same in every loop iteration that
/// its operand is.
pub(crate) fn is_splat(b: &FunctionBuilder, v: Value) -> bool {
    let v = strip_any_bitcast(b, v);
    let dfg = &b.func.dfg;
    matches!(dfg.value_def(v), ValueDef::Result(inst, 0)
        if matches!(dfg.insts[inst], InstructionData::Unary { opcode: Opcode::Splat, .. }))
}
