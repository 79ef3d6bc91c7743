//! The inputs of an ALU or OUTPUT slot (see `super`'s module doc): its sources read once
//! each (temporaries, float constants, inline constants, aL-relative), the presubtract, and
//! the inputs A, B, C of each unit after select, swizzle and modifier, MDH/MDV's quad reads
//! included.

use super::super::float;
use super::super::{LiftError, Lifter};
use crate::inst::{inline_value, Alu, Src};
use crate::table::{Modifier, Presub, SrcSel, Swizzle};
use std::collections::HashMap;
use wavejit_ir::{FunctionBuilder, Op, ScalarType, Value};

use ScalarType::{F32, I32};

/// The values an instruction has read, each once.
#[derive(Default)]
pub(super) struct Reads {
    /// Channel c (0-2) of RGB address k.
    rgb: HashMap<(usize, u32), Value>,
    /// Alpha address k.
    alpha: HashMap<usize, Value>,
    srcp_rgb: HashMap<u32, Value>,
    srcp_alpha: Option<Value>,
    /// Float constants by (address, REL).
    consts: HashMap<(u8, bool), [Value; 4]>,
}

/// Which unit an input belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Unit {
    Rgb,
    Alpha,
}

fn modify(b: &mut FunctionBuilder, m: Modifier, v: Value) -> Value {
    match m {
        Modifier::Nop => v,
        Modifier::Neg => b.op(Op::Fneg, F32, &[v]),
        Modifier::Abs => b.op(Op::Fabs, F32, &[v]),
        Modifier::Nab => {
            let a = b.op(Op::Fabs, F32, &[v]);
            b.op(Op::Fneg, F32, &[a])
        }
    }
}

impl Lifter<'_> {
    /// Channel `c` (0-3) of address `s`.
    fn src_channel(&mut self, r: &mut Reads, s: Src, c: u32) -> Result<Value, LiftError> {
        Ok(match s {
            Src::Temp { index, rel } => self.read_temp(index, rel, c),
            Src::Inline { bits, .. } => self.b.f32(inline_value(bits)),
            Src::Const { index, rel } => {
                if let Some(v) = r.consts.get(&(index, rel)) {
                    return Ok(v[c as usize]);
                }
                let x = if rel {
                    self.rel_index(u32::from(index), 256)
                } else {
                    self.b.i32(u32::from(index))
                };
                let v = self.float_constant(x)?;
                r.consts.insert((index, rel), v);
                v[c as usize]
            }
        })
    }

    fn rgb_src(&mut self, r: &mut Reads, a: &Alu, k: usize, c: u32) -> Result<Value, LiftError> {
        if let Some(&v) = r.rgb.get(&(k, c)) {
            return Ok(v);
        }
        let v = self.src_channel(r, a.rgb_src[k], c)?;
        r.rgb.insert((k, c), v);
        Ok(v)
    }

    fn alpha_src(&mut self, r: &mut Reads, a: &Alu, k: usize) -> Result<Value, LiftError> {
        if let Some(&v) = r.alpha.get(&k) {
            return Ok(v);
        }
        let v = self.src_channel(r, a.alpha_src[k], 3)?;
        r.alpha.insert(k, v);
        Ok(v)
    }

    /// srcp's channel `c` (0-2 RGB, 3 alpha).
    fn srcp(&mut self, r: &mut Reads, a: &Alu, c: u32) -> Result<Value, LiftError> {
        let cached = if c == 3 {
            r.srcp_alpha
        } else {
            r.srcp_rgb.get(&c).copied()
        };
        if let Some(v) = cached {
            return Ok(v);
        }
        let op = if c == 3 { a.alpha_srcp } else { a.rgb_srcp };
        let uses_src1 = matches!(op, Presub::Sub | Presub::Add);
        let (s0, s1) = if c == 3 {
            let s0 = self.alpha_src(r, a, 0)?;
            let s1 = if uses_src1 {
                self.alpha_src(r, a, 1)?
            } else {
                s0
            };
            (s0, s1)
        } else {
            let s0 = self.rgb_src(r, a, 0, c)?;
            let s1 = if uses_src1 {
                self.rgb_src(r, a, 1, c)?
            } else {
                s0
            };
            (s0, s1)
        };
        let v = float::presub(&mut self.b, op, s0, s1);
        if c == 3 {
            r.srcp_alpha = Some(v);
        } else {
            r.srcp_rgb.insert(c, v);
        }
        Ok(v)
    }

    /// The component a select and a swizzle pick, before the modifier.
    fn pick(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        sel: SrcSel,
        swz: Swizzle,
    ) -> Result<Value, LiftError> {
        let k = sel as usize;
        Ok(match swz {
            Swizzle::R | Swizzle::G | Swizzle::B => {
                let c = swz as u32;
                if sel == SrcSel::Srcp {
                    self.srcp(r, a, c)?
                } else {
                    self.rgb_src(r, a, k, c)?
                }
            }
            Swizzle::A => {
                if sel == SrcSel::Srcp {
                    self.srcp(r, a, 3)?
                } else {
                    self.alpha_src(r, a, k)?
                }
            }
            Swizzle::Zero => self.b.f32(0.0),
            Swizzle::Half => self.b.f32(0.5),
            Swizzle::One => self.b.f32(1.0),
            Swizzle::Unused => return Err(self.invalid("an input reads swizzle 7 (unused)")),
        })
    }

    /// Component `c` of RGB input `k` (0 A, 1 B, 2 C); `c` = 3 is DP4's fourth component.
    pub(super) fn rgb_input(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        k: usize,
        c: usize,
    ) -> Result<Value, LiftError> {
        let input = a.rgb_in[k];
        let (sel, swz) = if c == 3 {
            (a.alpha_in[k].sel, a.alpha_in[k].swiz)
        } else {
            (input.sel, input.swiz[c])
        };
        let v = self.pick(r, a, sel, swz)?;
        Ok(modify(&mut self.b, input.modifier, v))
    }

    pub(super) fn alpha_input(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        k: usize,
    ) -> Result<Value, LiftError> {
        let input = a.alpha_in[k];
        let v = self.pick(r, a, input.sel, input.swiz)?;
        Ok(modify(&mut self.b, input.modifier, v))
    }

    /// MDH/MDV's A and C: src0 channel `c` of the quad's top-left processor and of its
    /// top-right (`horizontal`) or bottom-left one, with the modifiers of A and C.
    pub(super) fn quad_inputs(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        unit: Unit,
        c: u32,
        horizontal: bool,
    ) -> Result<(Value, Value), LiftError> {
        let src0 = match unit {
            Unit::Rgb => self.rgb_src(r, a, 0, c)?,
            Unit::Alpha => self.alpha_src(r, a, 0)?,
        };
        let (mod_a, mod_c) = match unit {
            Unit::Rgb => (a.rgb_in[0].modifier, a.rgb_in[2].modifier),
            Unit::Alpha => (a.alpha_in[0].modifier, a.alpha_in[2].modifier),
        };
        let lane = self.b.lane_id();
        let keep = self.b.i32(!17);
        let tl = self.b.op(Op::And, I32, &[lane, keep]);
        let other = self.b.i32(if horizontal { 1 } else { 16 });
        let nb = self.b.op(Op::Or, I32, &[tl, other]);
        let v = self.b.splat(src0);
        let at_tl = self.b.shuffle(v, tl);
        let at_nb = self.b.shuffle(v, nb);
        let x = modify(&mut self.b, mod_a, at_tl);
        let y = modify(&mut self.b, mod_c, at_nb);
        Ok((x, y))
    }
}
