//! The end of a program (seed 003 §3.3.8, §2.1.1, §2.1.3): "at the time of termination, the
//! contents of the output registers are sent to the render targets", subject to the
//! conditional output test.
//!
//! - **Who writes**: every covered processor (in the domain, passed the PE's test, not killed
//!   by TEXKILL) that passes the conditional output test; helpers never write.
//! - **What**: for each render target 0-3 that an OUTPUT slot of the program writes (an
//!   OMASK channel with that TARGET) and that `set_out_fmt` bound, the channels `set_out_mask`
//!   enables of the target's output register (channels no slot wrote hold 0), to element
//!   (i, j) of the output surface, converted by its format ([`crate::mc::write_element`]).
//!   An unbound target's writes go nowhere.
//! - **Conditional output** (`set_cond_loc` DPP): the processor's conditional value v is its
//!   W output when the program exports one (FG_DEPTH_SRC bit 0, `ProgInfo::exports_cond`;
//!   written with W_OMASK), else the PE's `set_cond_val` value. W starts as the PE's value
//!   (`super::launch`), so a processor that writes no W sends that. v is compared as an f32
//!   with channel R of element (i, j) of the conditional buffer, b (read as its format says),
//!   by `set_cond_test`: IEEE comparisons without flushing (the CO is not the processor's ALU),
//!   so a NaN fails every test but "not equal" ([`crate::setup::CondTest::passes`] is the same
//!   rule on the host). A processor that passes writes its outputs and, with
//!   `set_cond_out_mask` bit 0, v to channel R of its buffer element. Tests NEVER and ALWAYS
//!   read no buffer. With the location at the PE, the DPP's test always passes and the
//!   processors write no conditional value (the executor did, for the PE's test).

use super::state::mask;
use super::{LiftError, Lifter};
use crate::inst::Body;
use crate::mc::{read_element, write_element};
use crate::setup::{CondLoc, CondTest};
use wavejit_ir::{FloatCC, Op, ScalarType, Value};

use ScalarType::{F32, I1, I32};

/// The IR comparison of a conditional test that compares (`None` for NEVER and ALWAYS).
pub fn cond_cc(t: CondTest) -> Option<FloatCC> {
    Some(match t {
        CondTest::Never | CondTest::Always => return None,
        CondTest::Less => FloatCC::Lt,
        CondTest::LessEqual => FloatCC::Le,
        CondTest::Equal => FloatCC::Eq,
        CondTest::GreaterEqual => FloatCC::Ge,
        CondTest::Greater => FloatCC::Gt,
        CondTest::NotEqual => FloatCC::Une,
    })
}

impl Lifter<'_> {
    /// The render targets an OUTPUT slot of the program writes, bit t = target t.
    fn targets_written(&self) -> u8 {
        let s = self.setup;
        let mut t = 0u8;
        for inst in &s.program[s.info.start as usize..=s.info.end as usize] {
            if let Body::Output(a) = &inst.body {
                if inst.cmn.rgb_omask != 0 {
                    t |= 1 << (a.rgb_target & 3);
                }
                if inst.cmn.alpha_omask {
                    t |= 1 << (a.alpha_target & 3);
                }
            }
        }
        t
    }

    /// Lifts the end of the program into the current block.
    pub(super) fn lift_end(&mut self) -> Result<(), LiftError> {
        let setup = self.setup;
        let cond = setup.bindings.cond;
        let covered = self.mask_bits(mask::COVERED);
        let mut lanes = self.b.mask_from_bits(covered);
        let (i, j) = self.pair();
        let dpp = cond.loc == CondLoc::Dpp;
        let v = if setup.info.exports_cond {
            self.b.use_reg(self.l.w(), F32)
        } else {
            self.b.iconst(F32, u64::from(cond.value))
        };
        if dpp {
            let pass = match (cond.test, cond_cc(cond.test)) {
                (CondTest::Never, _) => self.b.bool(false),
                (_, None) => self.b.bool(true),
                (_, Some(cc)) => {
                    let s = cond.buffer.ok_or_else(|| {
                        self.invalid(
                            "the conditional output test reads the conditional buffer, but no \
                             set_cond_out_fmt was given",
                        )
                    })?;
                    let gpu = self.gpu_lanes(lanes);
                    let mut ir = super::mem::Ir { b: &mut self.b };
                    let mut load = |ir: &mut super::mem::Ir, a: Value, n: u32| gpu.load(ir.b, a, n);
                    let [b, ..] = read_element(&mut ir, &s, i, j, &mut load);
                    let b = self.b.op(Op::Bitcast, F32, &[b]);
                    self.b.op(Op::Fcmp(cc), I1, &[v, b])
                }
            };
            lanes = self.and1(lanes, pass);
        }
        let written = self.targets_written();
        if setup.bindings.out_mask & 0xf != 0 {
            for t in 0..4u32 {
                let Some(s) = setup.bindings.outputs[t as usize] else {
                    continue;
                };
                if written >> t & 1 == 0 {
                    continue;
                }
                let value: [Value; 4] = std::array::from_fn(|c| {
                    let f = self.b.use_reg(self.l.output(t, c as u32), F32);
                    self.b.op(Op::Bitcast, I32, &[f])
                });
                self.store(&s, i, j, setup.bindings.out_mask & 0xf, value, lanes);
            }
        }
        if dpp && cond.write {
            if let Some(s) = cond.buffer {
                let bits = self.b.op(Op::Bitcast, I32, &[v]);
                let bits = self.b.splat(bits);
                let zero = self.b.i32(0);
                self.store(&s, i, j, 1, [bits, zero, zero, zero], lanes);
            }
        }
        Ok(())
    }

    /// Writes `value` (f32 bits) to element (`i`, `j`) of `s` in the lanes of `lanes`.
    fn store(
        &mut self,
        s: &crate::mc::Surface,
        i: Value,
        j: Value,
        channels: u8,
        value: [Value; 4],
        lanes: Value,
    ) {
        let gpu = self.gpu_lanes(lanes);
        let mut ir = super::mem::Ir { b: &mut self.b };
        let mut store =
            |ir: &mut super::mem::Ir, a: Value, n: u32, raw: Value| gpu.store(ir.b, a, n, raw);
        write_element(&mut ir, s, i, j, channels, value, &mut store);
    }
}
