//! ALU and OUTPUT instructions (seed 003 §3.3): an RGB vector operation and an alpha
//! scalar operation on three inputs each, with the float rules of `super::float`.
//!
//! - **Sources** (§3.3.1): src_k = {rgb_addr_k.rgb, alpha_addr_k.a}: a swizzle of R, G or B
//!   reads the RGB address k, a swizzle of A the alpha address k, whichever unit asks. An
//!   address is a temporary, a float constant (`super::mem`) or a 7-bit inline constant
//!   ([`inline_value`]); aL is added to a REL address modulo its range (128 temporaries, 256
//!   constants). Sources are read once, before any write of the instruction.
//! - **srcp** (§3.3.2) is the presubtract of src0 and src1: the RGB presubtract per channel
//!   of the RGB addresses, the alpha presubtract of the alpha addresses.
//! - **Inputs** A, B, C select src0-2 or srcp, swizzle (R, G, B, A, 0, 0.5, 1), then apply
//!   the modifier (NEG, ABS, NAB = −|x|; on the bits, no flush). DP4's fourth components use
//!   the alpha inputs' select and swizzle with the RGB inputs' modifiers (the seed lends
//!   DP4 only "the Alpha's select and swizzle").
//! - **Operations** (§3.3.4; r5xx_sources.md §3): MAD, DP3, DP4, D2A (A.r·B.r + A.g·B.g +
//!   C.b), MIN, MAX, CND, CMP, FRC; RGB_SOP is the alpha unit's transcendental result (before
//!   the alpha unit's OMOD) through the RGB unit's OMOD and clamp, in all three channels;
//!   ALPHA_DP is the RGB dot product (in its extra range) through the alpha unit's OMOD and
//!   clamp; EX2, LN2, RCP, RSQ, SIN, COS of alpha input A. MDH and MDV are A·B + C where A is
//!   the quad's top-left processor's src0 and C its top-right (MDH) or bottom-left (MDV)
//!   processor's src0, channel for channel (RGB: src0.rgb; alpha: src0.a), their selects and
//!   swizzles ignored and their modifiers applied; every processor of a quad gets the same
//!   result (IR `shuffle`; quads are lanes `l & !17`, `+1`, `+16`, `+17`, `super::launch`).
//! - **Writes** (§3.3.6-3.3.10) go to the lanes flow control leaves active (all running
//!   lanes with WRITE_INACTIVE). Temporaries: RGB_WMASK and ALPHA_WMASK, each channel under
//!   its unit's predicate (RGB_PRED_SEL for r, g, b; ALPHA_PRED_SEL for a), to ADDRD (+ aL).
//!   An OUTPUT slot writes the OMASK channels to render target TARGET's output register
//!   under the same predicates, and with W_OMASK the alpha result to W (under the alpha
//!   predicate). An ALU slot's OMASK writes predicate bits instead: bit c is set when
//!   channel c passes TARGET's comparison against zero; that write is not predicated (only the
//!   old predicate masks the temporary write, §3.3.9). An ALU slot has no output registers, so
//!   its W_OMASK writes nothing. ALU_WMASK sets the ALU result bit from the red or alpha
//!   result under ALU_RESULT_OP. Comparisons read the result after OMOD and clamp.

mod inputs;

use super::float::{self, Trans1};
use super::{LiftError, Lifter};
use crate::inst::{Alu, Inst, Src};
use crate::table::{AlphaOp, AluResultSel, Omod, RgbOp};
use inputs::{Reads, Unit};
use wavejit_ir::{Op, ScalarType, Value};

use ScalarType::I32;

fn transcendental(op: AlphaOp) -> Option<Trans1> {
    Some(match op {
        AlphaOp::Ex2 => Trans1::Ex2,
        AlphaOp::Ln2 => Trans1::Ln2,
        AlphaOp::Rcp => Trans1::Rcp,
        AlphaOp::Rsq => Trans1::Rsq,
        AlphaOp::Sin => Trans1::Sin,
        AlphaOp::Cos => Trans1::Cos,
        _ => return None,
    })
}

impl Lifter<'_> {
    /// Checks the fields an ALU or OUTPUT slot must have (the module doc of `super`).
    fn check_alu(&self, a: &Alu) -> Result<(), LiftError> {
        if !a.rgb_op.defined() {
            return Err(self.invalid(format!("RGB opcode {} is reserved", a.rgb_op.bits())));
        }
        for s in a.rgb_src.iter().chain(&a.alpha_src) {
            if let Src::Inline { rel: true, .. } = s {
                return Err(self.invalid("aL cannot be added to an inline constant"));
            }
        }
        let select = |op: bool, omod: Omod| omod != Omod::Disable || op;
        let rgb_select = matches!(a.rgb_op, RgbOp::Min | RgbOp::Max | RgbOp::Cnd | RgbOp::Cmp);
        let alpha_select = matches!(
            a.alpha_op,
            AlphaOp::Min | AlphaOp::Max | AlphaOp::Cnd | AlphaOp::Cmp
        );
        if !select(rgb_select, a.rgb_omod) || !select(alpha_select, a.alpha_omod) {
            return Err(
                self.invalid("OMOD_DISABLED is valid only for MIN, MAX, CND and CMP (§3.3.5)")
            );
        }
        if a.rgb_op == RgbOp::Sop && transcendental(a.alpha_op).is_none() {
            return Err(self.invalid("RGB_SOP needs an alpha transcendental (§3.3.4)"));
        }
        let dot = matches!(a.rgb_op, RgbOp::Dp3 | RgbOp::Dp4 | RgbOp::D2a);
        if a.alpha_op == AlphaOp::Dp && !dot {
            return Err(self.invalid("ALPHA_DP needs an RGB dot product (§3.3.4)"));
        }
        Ok(())
    }

    /// Lifts an ALU (`output` false) or OUTPUT slot.
    pub(super) fn lift_alu(&mut self, inst: &Inst, a: &Alu, output: bool) -> Result<(), LiftError> {
        self.check_alu(a)?;
        let cmn = inst.cmn;
        let legacy = self.setup.info.zero_times_anything;
        let mut r = Reads::default();
        // The alpha transcendental and the RGB dot product feed the other unit.
        let trans = match transcendental(a.alpha_op) {
            Some(f) => {
                let x = self.alpha_input(&mut r, a, 0)?;
                Some(float::trans(&mut self.b, f, x))
            }
            None => None,
        };
        let dot = self.rgb_dot(&mut r, a, legacy)?;
        let rgb = self.rgb_result(&mut r, a, cmn.rgb_clamp, legacy, trans, dot)?;
        let alpha = self.alpha_result(&mut r, a, cmn.alpha_clamp, legacy, trans, dot)?;

        // Masks (from the old predicates), then the writes.
        let exec = self.exec_mask(cmn.write_inactive);
        let mut rgb_lanes = Vec::new();
        for c in 0..3 {
            let p = self.predicate(cmn.rgb_pred, c)?;
            rgb_lanes.push(self.predicated(exec, p));
        }
        let p = self.predicate(cmn.alpha_pred, 3)?;
        let alpha_lanes = self.predicated(exec, p);
        let d = a.rgb_dest;
        for c in 0..3 {
            if cmn.rgb_wmask >> c & 1 == 1 {
                self.write_temp(d.addr, d.rel, c, rgb[c as usize], rgb_lanes[c as usize]);
            }
        }
        if cmn.alpha_wmask {
            let d = a.alpha_dest;
            self.write_temp(d.addr, d.rel, 3, alpha, alpha_lanes);
        }
        if output {
            for c in 0..3 {
                if cmn.rgb_omask >> c & 1 == 1 {
                    let reg = self.l.output(u32::from(a.rgb_target & 3), c);
                    self.b
                        .def_reg(reg, rgb[c as usize], Some(rgb_lanes[c as usize]));
                }
            }
            if cmn.alpha_omask {
                let reg = self.l.output(u32::from(a.alpha_target & 3), 3);
                self.b.def_reg(reg, alpha, Some(alpha_lanes));
            }
            if a.w_omask {
                self.b.def_reg(self.l.w(), alpha, Some(alpha_lanes));
            }
        } else {
            for c in 0..3 {
                if cmn.rgb_omask >> c & 1 == 1 {
                    let t = float::test_zero(&mut self.b, a.rgb_pred_op(), rgb[c as usize]);
                    self.write_bit(self.l.pred(c), t, exec);
                }
            }
            if cmn.alpha_omask {
                let t = float::test_zero(&mut self.b, a.alpha_pred_op(), alpha);
                self.write_bit(self.l.pred(3), t, exec);
            }
        }
        if a.alu_wmask {
            let v = match cmn.alu_result_sel {
                AluResultSel::Red => rgb[0],
                AluResultSel::Alpha => alpha,
            };
            let t = float::test_zero(&mut self.b, cmn.alu_result_op, v);
            self.write_bit(self.l.alu_result(), t, exec);
        }
        Ok(())
    }

    /// Writes an `i1` as 0 or 1 to a lane register.
    fn write_bit(&mut self, reg: wavejit_ir::Reg, bit: Value, lanes: Value) {
        let v = self.b.op(Op::Zext, I32, &[bit]);
        self.b.def_reg(reg, v, Some(lanes));
    }

    /// The RGB dot product in its extra range, if the RGB operation is one.
    fn rgb_dot(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        legacy: bool,
    ) -> Result<Option<Value>, LiftError> {
        let n = match a.rgb_op {
            RgbOp::Dp3 => 3,
            RgbOp::Dp4 => 4,
            RgbOp::D2a => 2,
            _ => return Ok(None),
        };
        let mut terms = Vec::new();
        for c in 0..n {
            let x = self.rgb_input(r, a, 0, c)?;
            let y = self.rgb_input(r, a, 1, c)?;
            terms.push((x, y));
        }
        let extra = if a.rgb_op == RgbOp::D2a {
            Some(self.rgb_input(r, a, 2, 2)?)
        } else {
            None
        };
        Ok(Some(float::dot(&mut self.b, &terms, extra, legacy)))
    }

    fn rgb_result(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        clamp: bool,
        legacy: bool,
        trans: Option<Value>,
        dot: Option<Value>,
    ) -> Result<[Value; 3], LiftError> {
        let omod = a.rgb_omod;
        if let Some(d) = dot {
            let v = float::finish(&mut self.b, d, omod, clamp);
            return Ok([v; 3]);
        }
        if a.rgb_op == RgbOp::Sop {
            let t = trans.expect("checked: SOP has an alpha transcendental");
            let v = float::finish32(&mut self.b, t, omod, clamp);
            return Ok([v; 3]);
        }
        let Some(op) = Shared::of_rgb(a.rgb_op) else {
            let bits = a.rgb_op.bits();
            return Err(self.invalid(format!("RGB opcode {bits} is reserved")));
        };
        let mut out = Vec::with_capacity(3);
        for c in 0..3 {
            out.push(self.shared(r, a, Unit::Rgb, c, op, omod, clamp, legacy)?);
        }
        Ok([out[0], out[1], out[2]])
    }

    fn alpha_result(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        clamp: bool,
        legacy: bool,
        trans: Option<Value>,
        dot: Option<Value>,
    ) -> Result<Value, LiftError> {
        let omod = a.alpha_omod;
        if let Some(t) = trans {
            return Ok(float::finish32(&mut self.b, t, omod, clamp));
        }
        if a.alpha_op == AlphaOp::Dp {
            let d = dot.expect("checked: ALPHA_DP has an RGB dot product");
            return Ok(float::finish(&mut self.b, d, omod, clamp));
        }
        let Some(op) = Shared::of_alpha(a.alpha_op) else {
            let bits = a.alpha_op.bits();
            return Err(self.invalid(format!("alpha opcode {bits} is reserved")));
        };
        self.shared(r, a, Unit::Alpha, 3, op, omod, clamp, legacy)
    }

    /// Channel `c` (3 for alpha) of an operation both units have, on `unit`'s inputs,
    /// through OMOD and clamp.
    #[allow(clippy::too_many_arguments)]
    fn shared(
        &mut self,
        r: &mut Reads,
        a: &Alu,
        unit: Unit,
        c: usize,
        op: Shared,
        omod: Omod,
        clamp: bool,
        legacy: bool,
    ) -> Result<Value, LiftError> {
        let mut input = |s: &mut Self, k: usize| match unit {
            Unit::Rgb => s.rgb_input(r, a, k, c),
            Unit::Alpha => s.alpha_input(r, a, k),
        };
        Ok(match op {
            Shared::Mad => {
                let (x, y, z) = (input(self, 0)?, input(self, 1)?, input(self, 2)?);
                let m = float::mad(&mut self.b, x, y, z, legacy);
                float::finish(&mut self.b, m, omod, clamp)
            }
            Shared::Md { horizontal } => {
                let y = input(self, 1)?;
                let (x, z) = self.quad_inputs(r, a, unit, c as u32, horizontal)?;
                let m = float::mad(&mut self.b, x, y, z, legacy);
                float::finish(&mut self.b, m, omod, clamp)
            }
            Shared::Frc => {
                let x = input(self, 0)?;
                let f = float::frc(&mut self.b, x);
                float::finish(&mut self.b, f, omod, clamp)
            }
            Shared::Min | Shared::Max => {
                let (x, y) = (input(self, 0)?, input(self, 1)?);
                let s = if op == Shared::Min {
                    float::min(&mut self.b, x, y)
                } else {
                    float::max(&mut self.b, x, y)
                };
                float::finish32(&mut self.b, s, omod, clamp)
            }
            Shared::Cnd | Shared::Cmp => {
                let (x, y, z) = (input(self, 0)?, input(self, 1)?, input(self, 2)?);
                let s = if op == Shared::Cnd {
                    float::cnd(&mut self.b, x, y, z)
                } else {
                    float::cmp_ge0(&mut self.b, x, y, z)
                };
                float::finish32(&mut self.b, s, omod, clamp)
            }
        })
    }
}

/// An operation the RGB and alpha units both have, computed channel by channel.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shared {
    Mad,
    /// MDH (horizontal) or MDV.
    Md {
        horizontal: bool,
    },
    Frc,
    Min,
    Max,
    Cnd,
    Cmp,
}

impl Shared {
    /// The shared operation an RGB op is, if it is one (not a dot product, SOP or reserved).
    fn of_rgb(op: RgbOp) -> Option<Shared> {
        Some(match op {
            RgbOp::Mad => Shared::Mad,
            RgbOp::Mdh => Shared::Md { horizontal: true },
            RgbOp::Mdv => Shared::Md { horizontal: false },
            RgbOp::Frc => Shared::Frc,
            RgbOp::Min => Shared::Min,
            RgbOp::Max => Shared::Max,
            RgbOp::Cnd => Shared::Cnd,
            RgbOp::Cmp => Shared::Cmp,
            _ => return None,
        })
    }

    /// The shared operation an alpha op is, if it is one (not DP, a transcendental or
    /// reserved).
    fn of_alpha(op: AlphaOp) -> Option<Shared> {
        Some(match op {
            AlphaOp::Mad => Shared::Mad,
            AlphaOp::Mdh => Shared::Md { horizontal: true },
            AlphaOp::Mdv => Shared::Md { horizontal: false },
            AlphaOp::Frc => Shared::Frc,
            AlphaOp::Min => Shared::Min,
            AlphaOp::Max => Shared::Max,
            AlphaOp::Cnd => Shared::Cnd,
            AlphaOp::Cmp => Shared::Cmp,
            _ => return None,
        })
    }
}
