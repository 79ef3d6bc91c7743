//! TEX instructions (seed 003 §3.4; r5xx_sources.md §3) on the program inputs.
//!
//! - **Which input**: TEX_ID is the input index 0-15 (`set_inp_fmt`): CTM's inputs are the
//!   texture unit's samplers (ctm_map.md §1 "presumably").
//! - **Coordinates** S, T (and Q for PROJ) come from temporary SRC_ADDR (+ aL) through the
//!   source swizzles. PROJ divides S and T by Q (f32, the flush). A NaN coordinate then
//!   becomes +Inf and a denormal 0 (§3.6.4). Without UNSCALED, S and T are in [0, 1] and the
//!   texture unit multiplies them by the input's pitch and height (its width is its pitch);
//!   with UNSCALED they are texel coordinates. The texel is (floor(S), floor(T)) saturated to
//!   a signed 32-bit integer, of which the memory controller uses bits 11:0 (so coordinates
//!   wrap modulo 4096: [`crate::mc`]). An input is a single level, so LODBIAS, LOD and DXDY
//!   read level 0 like LD after their coordinate handling: Q (bias, level) and the DX/DY
//!   gradients change nothing.
//! - **Reads** follow the input's format and tiling ([`crate::mc::read_input`]: a superfine
//!   input gives the 2×2 block's four elements in R, G, B, A). Channel k of the destination
//!   (DST_ADDR + aL) takes the fetched channel its result swizzle names, written under
//!   RGB_WMASK and RGB_PRED_SEL (r, g, b) or ALPHA_WMASK and ALPHA_PRED_SEL (a).
//! - **Which processors** read: the active ones (all running ones with WRITE_INACTIVE);
//!   with IGNORE_UNCOVERED only the covered ones, and the uncovered ones' destinations are not
//!   written. A read outside GPU memory is a guest fault.
//! - **TEXKILL** kills the processors in which a channel of temporary SRC_ADDR is < 0 (−0,
//!   denormals and NaN are not), examining only the channels its write masks enable, each
//!   under its predicate (the source swizzles are ignored; §3.4.1). A killed processor is no
//!   longer covered: it writes no output and IGNORE_UNCOVERED leaves it out, but it keeps
//!   running as a helper, so that its quad's derivatives still see its values.
//! - **NOP** does nothing; the semaphore bits change nothing in a sequential emulator.

use super::float::MODE;
use super::state::mask;
use super::{LiftError, Lifter};
use crate::inst::{Inst, Tex};
use crate::mc::read_input;
use crate::table::TexOp;
use wavejit_ir::{FloatCC, FloatMode, Op, ScalarType, Value};

use ScalarType::{F32, I1, I32, I64};

impl Lifter<'_> {
    /// Lifts a TEX slot.
    pub(super) fn lift_tex(&mut self, inst: &Inst, t: &Tex) -> Result<(), LiftError> {
        let cmn = inst.cmn;
        match t.op {
            TexOp::Nop => return Ok(()),
            TexOp::Op7 => return Err(self.invalid("TEX opcode 7 has no documented meaning")),
            _ => {}
        }
        let mut lanes = self.exec_mask(cmn.write_inactive);
        if t.ignore_uncovered {
            let covered = self.mask_bits(mask::COVERED);
            let covered = self.b.mask_from_bits(covered);
            lanes = self.and1(lanes, covered);
        }
        let mut channel_lanes = Vec::new();
        for c in 0..4 {
            let p = if c < 3 { cmn.rgb_pred } else { cmn.alpha_pred };
            let p = self.predicate(p, c)?;
            channel_lanes.push(self.predicated(lanes, p));
        }
        let written = |c: u32| {
            if c < 3 {
                cmn.rgb_wmask >> c & 1 == 1
            } else {
                cmn.alpha_wmask
            }
        };
        if t.op == TexOp::Texkill {
            let mut kill = self.b.bool(false);
            for c in (0..4).filter(|&c| written(c)) {
                let v = self.read_temp(t.src.addr, t.src.rel, c);
                let zero = self.b.f32(0.0);
                let neg =
                    self.b
                        .op_mode(Op::Fcmp(FloatCC::Lt), FloatMode::FLUSH_IN, I1, &[v, zero]);
                let neg = self.and1(neg, channel_lanes[c as usize]);
                kill = self.b.op(Op::Or, I1, &[kill, neg]);
            }
            let kill = self.b.splat(kill);
            let killed = self.b.ballot(kill);
            let keep = self.b.op(Op::Not, I64, &[killed]);
            let covered = self.mask_bits(mask::COVERED);
            let covered = self.b.op(Op::And, I64, &[covered, keep]);
            self.set_mask_bits(mask::COVERED, covered);
            return Ok(());
        }
        let s = self
            .setup
            .bindings
            .inputs
            .get(usize::from(t.id))
            .copied()
            .flatten()
            .ok_or_else(|| {
                self.invalid(format!("reads input {}, but no set_inp_fmt gave it", t.id))
            })?;
        let coord = |me: &mut Self, k: usize| {
            let c = t.src.swiz[k] as u32;
            me.read_temp(t.src.addr, t.src.rel, c)
        };
        let (mut x, mut y) = (coord(self, 0), coord(self, 1));
        if t.op == TexOp::Proj {
            let q = coord(self, 3);
            x = self.b.op_mode(Op::Fdiv, MODE, F32, &[x, q]);
            y = self.b.op_mode(Op::Fdiv, MODE, F32, &[y, q]);
        }
        let x = self.texel(x, (!t.unscaled).then_some(s.pitch));
        let y = self.texel(y, (!t.unscaled).then_some(s.height));
        let gpu = self.gpu_lanes(lanes);
        let mut ir = super::mem::Ir { b: &mut self.b };
        let mut load = |ir: &mut super::mem::Ir, addr: Value, size: u32| gpu.load(ir.b, addr, size);
        let fetched = read_input(&mut ir, &s, x, y, &mut load);
        let d = t.dst;
        for c in (0..4).filter(|&c| written(c)) {
            let v = fetched[d.swiz[c as usize] as usize];
            let v = self.b.op(Op::Bitcast, F32, &[v]);
            self.write_temp(d.addr, d.rel, c, v, channel_lanes[c as usize]);
        }
        Ok(())
    }

    /// The integer texel coordinate of coordinate `v` (f32), scaled by `size` unless
    /// unscaled: NaN → +Inf, flush, scale, floor, saturate to i32.
    fn texel(&mut self, v: Value, size: Option<u32>) -> Value {
        let nan = self.b.op(Op::Fcmp(FloatCC::Uno), I1, &[v, v]);
        let inf = self.b.f32(f32::INFINITY);
        let mut v = self.b.op(Op::Select, F32, &[nan, inf, v]);
        if let Some(n) = size {
            let n = self.b.f32(n as f32);
            v = self.b.op_mode(Op::Fmul, MODE, F32, &[v, n]);
        }
        let f = self.b.op_mode(Op::Ffloor, MODE, F32, &[v]);
        self.b.op_mode(Op::FtoS, MODE, I32, &[f])
    }
}
