//! The LOD of a sample, the mip levels it reads, and the derivative instructions.
//!
//! # LOD `λ` (relative to BASE_LEVEL)
//! - SAMPLE_LZ / SAMPLE_C_LZ: 0 ("LOD and fraction forced to zero before level-clamping").
//! - SAMPLE_L: `src.w + LOD_BIAS / 16` (LOD_BIAS is S3.4, L9634: "added to the computed
//!   bias for this lookup"; it applies to every form below as well).
//! - SAMPLE, SAMPLE_C (hardware-computed), and SAMPLE_LB, SAMPLE_C_LB (the same plus the
//!   bias src.w, below): from the derivatives of the texel-space
//!   coordinates across the lane's 2x2 quad. Lanes `4k .. 4k + 3` form a quad: `4k` is the
//!   top left, `4k + 1` its x neighbour (lane ^ 1), `4k + 2` its y neighbour (lane ^ 2). This
//!   is the pixel-quad order of pixel shaders; a compute dispatch has no pixels, so its quads
//!   are simply four consecutive lanes. Derivatives are coarse, as a pixel quad's hardware
//!   derivatives are: every lane of the quad gets `ddx = (s[4k + 1] - s[4k]) * n` and
//!   `ddy = (s[4k + 2] - s[4k]) * n` (f32), per axis the DIM samples spatially (x; x, y;
//!   x, y, z; not an array's slice or a cube's face), `s` the coordinate and `n` the size of level BASE_LEVEL
//!   (unnormalized coordinates are not scaled). Inactive lanes' coordinates take part.
//! - SAMPLE_G, SAMPLE_G_LB, SAMPLE_C_G, SAMPLE_C_G_LB: `ddx`, `ddy` are the lane's stored
//!   SET_GRADIENTS_H and SET_GRADIENTS_V x, y, z, scaled by `n` like the coordinates.
//!
//! Then (OpenGL 4.6 §8.14.1; the hardware's approximation is undocumented):
//! `ρx = sqrt(Σ ddx_a²)`, `ρy = sqrt(Σ ddy_a²)` (f32, axes in order x, y, z),
//! `λ = log2(max(ρx, ρy)) + LOD_BIAS / 16`, with the IR's sqrt (correctly rounded) and log2
//! (libm's f64 log2 rounded to f32; `log2(0) = -inf`: a constant coordinate magnifies).
//! SAMPLE_LB and SAMPLE_C_LB add src.w first: `λ = (log2(max(ρx, ρy)) + src.w) + LOD_BIAS /
//! 16`. The document names only the LOD_BIAS field for them, but Mesa implements txb by
//! SAMPLE_LB/SAMPLE_C_LB with the bias in src.w (r600_shader.c `tgsi_tex`, TXB's bias in
//! W; sfn_instr_tex.cpp `prepare_coord`), which only works if the hardware adds it; the
//! order of the two f32 additions is ours. SAMPLE_G_LB and SAMPLE_C_G_LB, which no compiler
//! we know emits, add only the field.
//!
//! `λ` is clamped to [MIN_LOD, MAX_LOD] (a NaN `λ` stays NaN). `λ > 0` minifies
//! (XY_MIN_FILTER), otherwise magnifies (XY_MAG_FILTER; NaN magnifies).
//!
//! # Levels (OpenGL 4.6 §8.14.3, with `b` = BASE_LEVEL and `q` = LAST_LEVEL)
//! Magnifying, or MIP_FILTER NONE: level `b`. MIP_FILTER POINT: `b` when `λ <= 1/2`, else
//! `min(b + ceil(λ + 1/2) - 1, q)`. MIP_FILTER LINEAR: `d1 = min(b + floor(λ), q)`; when
//! `d1 < q` the sample is `τ1 * (1 - f) + τ2 * f` with `τ2` from level `d1 + 1` and
//! `f = λ - floor(λ)` (f32, [`super::ir::Ir::lerp`]), else `τ1`. INT formats are never
//! blended (as with the texel filter, they read `τ1`).
//!
//! # GET_COMP_TEX_LOD
//! "X = clamped LOD; Y = non-clamped" (L9545): Y is the hardware-computed `λ` above (LOD_BIAS
//! included), X that `λ` clamped to [MIN_LOD, MAX_LOD] and then to the levels the resource
//! has, `[0, LAST_LEVEL - BASE_LEVEL]` (D3D10.1's `lod` and OpenGL's textureQueryLod clamp to
//! the accessible levels); Z and W are 0; DST_SEL 5 is 1.0. NaN stays NaN in both.
//!
//! # SET_TEXTURE_OFFSETS
//! Stores the source's x, y, z in the lane's `texoff` cells for the active lanes (parent
//! module doc).
//!
//! # GET_GRADIENTS_H/V, SET_GRADIENTS_H/V, KEEP_GRADIENTS
//! GET returns the four source components' quad derivatives along x (H) or y (V): coarse as
//! above, or fine with INST_MOD 1 (`u[l | 1] - u[l & !1]`, `u[l | 2] - u[l & !2]`), through the
//! instruction's DST_SEL (5 is 1.0). SET stores the source's x, y, z in the lane's `grad`
//! cells ([`super::super::TsLayout::grad`]) for the active lanes; they need no resource.
//! KEEP_GRADIENTS is documented as GET_GRADIENTS_H/V then SET_GRADIENTS_H/V of the source
//! (coarse, "as they would be calculated in the sample instruction"); "unless masked or set
//! to output constant 1 or 0 by the DS* fields, it returns the border color as determined by
//! the sampler and resource": the sampler's border colour (`sample`, step 7) through the
//! resource's and the instruction's DST_SEL, which then needs both tables bound.
use super::ir::Ir;
use super::resource::{Res, Smp};
use super::{Lifter, LodSrc, Tex};
use crate::lift::F32_MODE;
use wavejit_ir::{FloatCC, IntCC, Op, ScalarType, Trans, Value};

use ScalarType::{F32, I32};

/// The levels a sample reads, per lane.
pub(super) struct Levels {
    pub d1: Value,
    pub d2: Value,
    /// Blend `d2` in with weight `frac`.
    pub two: Value,
    pub frac: Value,
    /// `λ > 0`.
    pub minify: Value,
}

/// `v[src(lane)] - v[lane']` helpers over lane ids.
fn lane_src(ir: &mut Ir, f: impl Fn(&mut Ir, Value) -> Value) -> Value {
    let id = ir.0.lane_id();
    f(ir, id)
}

impl Lifter<'_> {
    /// `(ddx, ddy)` of `v` (f32 lanes) across the quad; coarse or fine.
    fn quad_derivs(&mut self, v: Value, fine: bool) -> (Value, Value) {
        let mut ir = Ir(&mut self.b);
        let d = |ir: &mut Ir, bit: u32| {
            let (hi, lo) = if fine {
                let h = lane_src(ir, |ir, id| {
                    let b = ir.k(bit);
                    ir.op(Op::Or, I32, &[id, b])
                });
                let l = lane_src(ir, |ir, id| {
                    let b = ir.k(!bit);
                    ir.op(Op::And, I32, &[id, b])
                });
                (h, l)
            } else {
                let l = lane_src(ir, |ir, id| {
                    let b = ir.k(!3);
                    ir.op(Op::And, I32, &[id, b])
                });
                let h = ir.addk(l, bit);
                (h, l)
            };
            let a = ir.0.shuffle(v, hi);
            let b = ir.0.shuffle(v, lo);
            ir.f(Op::Fsub, &[a, b])
        };
        let dx = d(&mut ir, 1);
        let dy = d(&mut ir, 2);
        (dx, dy)
    }

    /// The spatially sampled axes: x always, y for 2D/3D/cube/2D_ARRAY, z for 3D.
    pub(super) fn spatial_axes(&mut self, r: &Res) -> [Value; 3] {
        let mut ir = Ir(&mut self.b);
        let t = ir.0.bool(true);
        let d2 = ir.eqk(r.dim, 1);
        let d2a = ir.eqk(r.dim, 5);
        let y = ir.or(d2, r.is3d);
        let y = ir.or(y, d2a);
        let y = ir.or(y, r.is_cube);
        [t, y, r.is3d]
    }

    /// `λ` clamped to [MIN_LOD, MAX_LOD] (module doc).
    pub(super) fn tex_lod(&mut self, t: &Tex, src: LodSrc, r: &Res, s: &Smp) -> Value {
        let raw = self.tex_lod_raw(t, src, r);
        let mut ir = Ir(&mut self.b);
        let lo = ir.fcmp(FloatCC::Lt, raw, s.min_lod);
        let v = ir.fsel(lo, s.min_lod, raw);
        let hi = ir.fcmp(FloatCC::Gt, v, s.max_lod);
        ir.fsel(hi, s.max_lod, v)
    }

    /// `λ` before the clamp (module doc).
    fn tex_lod_raw(&mut self, t: &Tex, src: LodSrc, r: &Res) -> Value {
        let bias = self.b.f32(t.lod_bias as f32 / 16.0);
        match src {
            LodSrc::Zero => self.b.f32(0.0),
            LodSrc::Explicit => {
                let w = self.tex_srcf(t, 3);
                self.b.op_mode(Op::Fadd, F32_MODE, F32, &[w, bias])
            }
            LodSrc::Quad | LodSrc::Bias | LodSrc::Gradients => {
                let used = self.spatial_axes(r);
                let base = {
                    let b = r.base_level;
                    let mut ir = Ir(&mut self.b);
                    r.size.map(|n| ir.minify(n, b))
                };
                let mut sq = [None::<Value>, None];
                for a in 0..3 {
                    let (dx, dy) = if src != LodSrc::Gradients {
                        let c = self.tex_srcf(t, a);
                        self.quad_derivs(c, false)
                    } else {
                        let h = self.l.grad(false, a as u32);
                        let v = self.l.grad(true, a as u32);
                        (self.b.use_reg(h, F32), self.b.use_reg(v, F32))
                    };
                    let mut ir = Ir(&mut self.b);
                    let nf = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[base[a]]);
                    for (k, d) in [dx, dy].into_iter().enumerate() {
                        let d = if t.normalized[a] {
                            ir.f(Op::Fmul, &[d, nf])
                        } else {
                            d
                        };
                        let d2 = ir.f(Op::Fmul, &[d, d]);
                        let zero = ir.fk(0.0);
                        let d2 = ir.fsel(used[a], d2, zero);
                        sq[k] = Some(match sq[k] {
                            None => d2,
                            Some(acc) => ir.f(Op::Fadd, &[acc, d2]),
                        });
                    }
                }
                let mut ir = Ir(&mut self.b);
                let [sx, sy] = sq.map(|v| v.expect("three axes"));
                let rx = ir.f(Op::Fsqrt(Trans::Ieee), &[sx]);
                let ry = ir.f(Op::Fsqrt(Trans::Ieee), &[sy]);
                let gt = ir.fcmp(FloatCC::Gt, ry, rx);
                let rho = ir.fsel(gt, ry, rx);
                let l = ir.f(Op::Flog2(Trans::Ieee), &[rho]);
                let l = if src == LodSrc::Bias {
                    let w = self.tex_srcf(t, 3);
                    self.b.op_mode(Op::Fadd, F32_MODE, F32, &[l, w])
                } else {
                    l
                };
                self.b.op_mode(Op::Fadd, F32_MODE, F32, &[l, bias])
            }
        }
    }

    /// GET_COMP_TEX_LOD (module doc).
    pub(super) fn tex_get_lod(&mut self, t: &Tex) {
        let r = self.resource(t.resource);
        let s = self.sampler(t.sampler);
        let raw = self.tex_lod_raw(t, LodSrc::Quad, &r);
        let clamped = self.tex_lod(t, LodSrc::Quad, &r, &s);
        let mut ir = Ir(&mut self.b);
        let span = ir.op(Op::Isub, I32, &[r.last_level, r.base_level]);
        let top = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[span]);
        let zero = ir.fk(0.0);
        let lo = ir.fcmp(FloatCC::Lt, clamped, zero);
        let v = ir.fsel(lo, zero, clamped);
        let hi = ir.fcmp(FloatCC::Gt, v, top);
        let v = ir.fsel(hi, top, v);
        let e = [v, raw].map(|x| ir.op(Op::Bitcast, I32, &[x]));
        let (z, one) = (ir.k(0), ir.k(1f32.to_bits()));
        self.tex_write_raw(t, [e[0], e[1], z, z], one);
    }

    /// KEEP_GRADIENTS: stores the coarse derivatives of the source's x, y, z as
    /// SET_GRADIENTS_H/V would (module doc).
    pub(super) fn tex_keep_gradients(&mut self, t: &Tex) {
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let mut d = Vec::new();
        for k in 0..3 {
            let c = self.tex_srcf(t, k);
            d.push(self.quad_derivs(c, false));
        }
        for (k, (dx, dy)) in d.into_iter().enumerate() {
            for (v, g) in [(false, dx), (true, dy)] {
                let g = self.b.op(Op::Bitcast, I32, &[g]);
                let reg = self.l.grad(v, k as u32);
                self.b.def_reg(reg, g, Some(lanes));
            }
        }
    }

    /// The levels a sample with LOD `lod` reads (module doc, "Levels").
    pub(super) fn tex_levels(&mut self, r: &Res, s: &Smp, lod: Value) -> Levels {
        let mut ir = Ir(&mut self.b);
        let zf = ir.fk(0.0);
        let minify = ir.fcmp(FloatCC::Gt, lod, zf);
        let point = ir.eqk(s.mip, 1);
        let linear = ir.eqk(s.mip, 2);
        // Point: ceil(λ + 1/2) - 1 when λ > 1/2.
        let half = ir.fk(0.5);
        let lh = ir.f(Op::Fadd, &[lod, half]);
        let c = ir.f(Op::Fceil, &[lh]);
        let ci = ir.0.op_mode(Op::FtoS, F32_MODE, I32, &[c]);
        let pk = ir.addk(ci, u32::MAX);
        let above = ir.fcmp(FloatCC::Gt, lod, half);
        let zero = ir.k(0);
        let pk = ir.sel(above, pk, zero);
        // Linear: floor(λ) and the fraction.
        let fl = ir.f(Op::Ffloor, &[lod]);
        let lk = ir.0.op_mode(Op::FtoS, F32_MODE, I32, &[fl]);
        let frac = ir.f(Op::Fsub, &[lod, fl]);
        let k = ir.sel(point, pk, zero);
        let k = ir.sel(linear, lk, k);
        let k = ir.sel(minify, k, zero);
        // λ <= MAX_LOD < 64, so k stays small; clamp before adding to stay in range.
        let k15 = ir.k(15);
        let k = ir.op(Op::Umin, I32, &[k, k15]);
        let d = ir.add(r.base_level, k);
        let d1 = ir.op(Op::Umin, I32, &[d, r.last_level]);
        let below = ir.icmp(IntCC::Ult, d1, r.last_level);
        let two = ir.and(linear, minify);
        let two = ir.and(two, below);
        let not_int = ir.not(r.is_int);
        let two = ir.and(two, not_int);
        let d2 = ir.addk(d1, 1);
        let d2 = ir.sel(two, d2, d1);
        Levels {
            d1,
            d2,
            two,
            frac,
            minify,
        }
    }

    pub(super) fn tex_get_gradients(&mut self, t: &Tex, v: bool) {
        let fine = t.inst_mod == 1;
        let mut e = [self.b.i32(0); 4];
        for (k, slot) in e.iter_mut().enumerate() {
            let c = self.tex_srcf(t, k);
            let (dx, dy) = self.quad_derivs(c, fine);
            let d = if v { dy } else { dx };
            *slot = self.b.op(Op::Bitcast, I32, &[d]);
        }
        let one = self.b.i32(1f32.to_bits());
        self.tex_write_raw(t, e, one);
    }

    /// SET_TEXTURE_OFFSETS: stores the source's x, y, z (integers) for the active lanes.
    pub(super) fn tex_set_offsets(&mut self, t: &Tex) {
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        for k in 0..3 {
            let c = self.tex_src(t, k);
            let reg = self.l.tex_offset(k as u32);
            self.b.def_reg(reg, c, Some(lanes));
        }
    }

    pub(super) fn tex_set_gradients(&mut self, t: &Tex, v: bool) {
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        for k in 0..3 {
            let c = self.tex_src(t, k);
            let reg = self.l.grad(v, k as u32);
            self.b.def_reg(reg, c, Some(lanes));
        }
    }
}
