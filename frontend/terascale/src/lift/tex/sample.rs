//! The SAMPLE family: one filtered sample of a level, the level blend, depth compares.
//!
//! # One level (per axis the DIM samples spatially, `n` the level's size on that axis)
//! 1. `u = s * n` (COORD_TYPE normalized) or `u = s` (unnormalized: "[0, dim)", L9640, taken
//!    as texels of the level sampled), in f32, then `+ OFFSET / 2`: OFFSET is a 5-bit signed
//!    field documented as "ranging from [-8, 8)" (L9652), i.e. half-texel units (Mesa
//!    writes texels shifted left once, sfn_instr_tex.cpp `get_offset`). GATHER4_O and
//!    GATHER4_C_O add the stored SET_TEXTURE_OFFSETS integers instead (parent module doc);
//!    an offset of 0 adds nothing.
//! 2. CLAMP_HALF_BORDER (4) clamps `u` to `[0, n]`, MIRROR_ONCE_HALF_BORDER (5) clamps `|u|`
//!    (OpenGL's GL_CLAMP and GL_MIRROR_CLAMP_EXT, the modes Mesa maps onto them).
//! 3. Bilinear: `u -= 0.5`. The texel coordinate becomes signed fixed point with 8 fraction
//!    bits, `t = floor(u * 256)` (saturating; NaN gives 0): D3D11 requires 8 bits of subtexel
//!    precision and AMD documents no other width. `i0 = t >> 8`, `i1 = i0 + 1`, weight
//!    `w = (t & 255) / 256`; point sampling uses `i0` alone.
//! 4. Each index is wrapped (OpenGL 4.6 §8.14.2 wrap functions on integer texel indices):
//!    WRAP `i mod n`; MIRROR `m = i mod 2n`, `m < n ? m : 2n - 1 - m`; CLAMP_LAST_TEXEL
//!    `clamp(i, 0, n - 1)`; MIRROR_ONCE_LAST_TEXEL `clamp(mirror(i), 0, n - 1)` with
//!    `mirror(i) = i < 0 ? -1 - i : i`; the *_BORDER and *_HALF_BORDER modes keep `i`
//!    (`mirror(i)` for MIRROR_ONCE_BORDER) and read the border colour outside `[0, n)`.
//!    The document says repeat and mirror are "unavailable" with unnormalized coordinates
//!    (L9641) without saying what happens; we apply the same index formulas.
//! 5. The filter: minifying (see `lod`) uses XY_MIN_FILTER, else XY_MAG_FILTER. The sampler's
//!    WORD2 LOD_BIAS is not applied (its fixed-point scale was not confirmed for Evergreen).
//!    The z axis of a 3D texture filters linearly only with Z_FILTER 2 (LINEAR); NONE and
//!    POINT sample one slice (Mesa's r600 driver leaves Z_FILTER at NONE; the document
//!    defines no other meaning). An array's slice is never filtered. INT formats are never
//!    filtered.
//! 6. The blend is separable, x then y then z, each step `a * (1 - w) + b * w` in f32 with
//!    denormal flushing ([`super::super::F32_MODE`]); the weights are exact. The hardware's
//!    filter arithmetic is not documented; this is the OpenGL weighted sum evaluated in a
//!    fixed order. A zero weight still multiplies (so an infinite neighbour gives NaN, as the
//!    formula does).
//! 7. Border colours: BORDER_COLOR_TYPE 0 (0, 0, 0, 0), 1 (0, 0, 0, one), 2 (one x4), 3 the
//!    sampler slot's words 4-7. They replace the texel's four components before the DST_SEL
//!    swizzles.
//!
//! # Depth compare (SAMPLE_C*; GATHER4_C, GATHER4_C_O)
//! "This instruction compares the reference value in src0.W with the sampled value". That
//! holds for every form but SAMPLE_C_L and SAMPLE_C_LB, whose W carries the LOD or the bias
//! and whose reference is src0.Z: Mesa's r600_shader.c `tgsi_tex` moves the reference to W
//! for every shadow sample but these two, which read it from Z; sfn_instr_tex.cpp
//! `prepare_coord` puts it in z for txl/txb with the LOD or bias in w; and LLVM's
//! R600TextureIntrinsicsReplacer leaves it in z for its txlc/txbc. A 1D array's slice then comes from y (parent module doc); a 2D array, cube map
//! or 3D texture traps (Mesa lowers shadow txl/txb on arrays and cubes to SAMPLE_C_G,
//! sfn_nir_lower_tex.cpp `r600_nir_lower_txl_txf_array_or_cube`). Each
//! texel's (or border colour's) component X, as f32, is compared before filtering (as D3D10
//! and OpenGL 4.6 §8.23.1 do) by DEPTH_COMPARE_FUNCTION applied as `reference OP texel`:
//! NEVER, LESS, EQUAL, LEQUAL, GREATER, NOTEQUAL, GEQUAL, ALWAYS (IEEE comparisons: a NaN
//! fails all but NOTEQUAL). A pass replaces X with 1.0, a failure with 0.0 ("A passing
//! compare puts a 1.0 in the X element"); Y, Z, W are filtered unchanged. The document also
//! says the reference "is converted to the source format before the compare": that is not
//! modelled (exact for the 32-bit float formats depth textures use); INT formats trap.
use super::ir::{wrap, Ir};
use super::resource::{Level, Res, Smp};
use super::{Kind, Lifter, LodSrc, Tex, SAMPLER_BYTES};
use crate::lift::F32_MODE;
use wavejit_ir::{FloatCC, FormatSrc, IntCC, MemSpace, Op, ScalarType, Value};

use ScalarType::{F32, I1, I32, I64};

/// One axis of a sample, per lane.
pub(super) struct Axis {
    pub i: [Value; 2],
    pub border: [Value; 2],
    pub w: Value,
    pub linear: Value,
}

/// What one level's sample needs besides the level.
pub(super) struct Job {
    pub coords: [Value; 3],
    /// Bilinear x/y for these lanes (i1 lane).
    pub linear_xy: Value,
    pub lanes: Value,
    /// (reference f32, DEPTH_COMPARE_FUNCTION) for the _C forms.
    pub compare: Option<(Value, Value)>,
    pub border: [Value; 4],
}

impl Lifter<'_> {
    /// One spatial axis (module doc, steps 1-4).
    #[allow(clippy::too_many_arguments)]
    fn tex_axis(
        &mut self,
        coord: Value,
        n: Value,
        normalized: bool,
        offset: Option<Value>,
        mode: Value,
        linear: Value,
        used: Value,
    ) -> Axis {
        let mut ir = Ir(&mut self.b);
        let nf = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[n]);
        let mut u = if normalized {
            ir.f(Op::Fmul, &[coord, nf])
        } else {
            coord
        };
        if let Some(o) = offset {
            u = ir.f(Op::Fadd, &[u, o]);
        }
        // Half-border modes clamp the coordinate to [0, n] (|u| for the mirrored one).
        let au = ir.f(Op::Fabs, &[u]);
        let m5 = ir.eqk(mode, 5);
        let hu = ir.fsel(m5, au, u);
        let zf = ir.fk(0.0);
        let lt = ir.fcmp(FloatCC::Lt, hu, zf);
        let hu = ir.fsel(lt, zf, hu);
        let gt = ir.fcmp(FloatCC::Gt, hu, nf);
        let hu = ir.fsel(gt, nf, hu);
        let m4 = ir.eqk(mode, 4);
        let half = ir.or(m4, m5);
        let u = ir.fsel(half, hu, u);
        let linear = ir.and(linear, used);
        let h = ir.fk(0.5);
        let um = ir.f(Op::Fsub, &[u, h]);
        let u = ir.fsel(linear, um, u);
        let k256 = ir.fk(256.0);
        let scaled = ir.f(Op::Fmul, &[u, k256]);
        let fl = ir.f(Op::Ffloor, &[scaled]);
        let fx = ir.0.op_mode(Op::FtoS, F32_MODE, I32, &[fl]);
        let k8 = ir.k(8);
        let i0 = ir.op(Op::Ashr, I32, &[fx, k8]);
        let k255 = ir.k(255);
        let fr = ir.op(Op::And, I32, &[fx, k255]);
        let frf = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[fr]);
        let inv = ir.fk(1.0 / 256.0);
        let w = ir.f(Op::Fmul, &[frf, inv]);
        let i1 = ir.addk(i0, 1);
        let mut out_i = [i0, i1];
        let mut out_b = [i0, i1];
        for (k, &i) in [i0, i1].iter().enumerate() {
            let (idx, border) = wrap(&mut ir, mode, i, n);
            let zero = ir.k(0);
            out_i[k] = ir.sel(used, idx, zero);
            out_b[k] = ir.and(border, used);
        }
        Axis {
            i: out_i,
            border: out_b,
            w,
            linear,
        }
    }

    /// An array's slice index (parent module doc), as a non-filtered axis.
    fn tex_slice(&mut self, coord: Value, n: Value, normalized: bool) -> Axis {
        let mut ir = Ir(&mut self.b);
        let nf = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[n]);
        let u = if normalized {
            ir.f(Op::Fmul, &[coord, nf])
        } else {
            coord
        };
        let h = ir.fk(0.5);
        let u = ir.f(Op::Fadd, &[u, h]);
        let fl = ir.f(Op::Ffloor, &[u]);
        let i = ir.0.op_mode(Op::FtoS, F32_MODE, I32, &[fl]);
        let zero = ir.k(0);
        let n1 = ir.addk(n, u32::MAX);
        let i = ir.op(Op::Smax, I32, &[i, zero]);
        let i = ir.op(Op::Smin, I32, &[i, n1]);
        let f = ir.0.bool(false);
        let w = ir.fk(0.0);
        Axis {
            i: [i, i],
            border: [f, f],
            w,
            linear: f,
        }
    }

    /// A cube map's slice from z = `face + 8 * layer` (parent module doc, "Cube maps"):
    /// `v = max(floor(z + 0.5), 0)`, `6 * min(v >> 3, layers - 1) + min(v & 7, 5)`.
    fn tex_cube_slice(&mut self, z: Value, layers: Value) -> Value {
        let mut ir = Ir(&mut self.b);
        let h = ir.fk(0.5);
        let u = ir.f(Op::Fadd, &[z, h]);
        let fl = ir.f(Op::Ffloor, &[u]);
        let v = ir.0.op_mode(Op::FtoS, F32_MODE, I32, &[fl]);
        let zero = ir.k(0);
        let v = ir.op(Op::Smax, I32, &[v, zero]);
        let k3 = ir.k(3);
        let layer = ir.op(Op::Lshr, I32, &[v, k3]);
        let top = ir.addk(layers, u32::MAX);
        let layer = ir.op(Op::Umin, I32, &[layer, top]);
        let k7 = ir.k(7);
        let face = ir.op(Op::And, I32, &[v, k7]);
        let k5 = ir.k(5);
        let face = ir.op(Op::Umin, I32, &[face, k5]);
        let k6 = ir.k(6);
        let base = ir.op(Op::Imul, I32, &[layer, k6]);
        ir.add(base, face)
    }

    /// Per axis, the f32 texel offset added to the coordinate: OFFSET_X/Y/Z / 2 (half
    /// texels; none when 0), or for GATHER4_O/GATHER4_C_O the lane's stored
    /// SET_TEXTURE_OFFSETS integers (whole texels) converted to f32.
    fn tex_offsets(&mut self, t: &Tex) -> [Option<Value>; 3] {
        if let Kind::Gather { offsets: true, .. } = t.kind {
            return [0, 1, 2].map(|c| {
                let reg = self.l.tex_offset(c);
                let v = self.b.use_reg(reg, I32);
                Some(self.b.op_mode(Op::StoF, F32_MODE, F32, &[v]))
            });
        }
        t.offset
            .map(|o| (o != 0).then(|| self.b.f32(o as f32 / 2.0)))
    }

    /// The three axes of a sample of level `lv` (x, y spatial or slice, z spatial or slice).
    /// INT formats take point indices (no half-texel shift) even for a GATHER4 footprint
    /// (see `gather`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tex_axes(
        &mut self,
        t: &Tex,
        r: &Res,
        s: &Smp,
        lv: &Level,
        coords: [Value; 3],
        linear_xy: Value,
    ) -> [Axis; 3] {
        let [_, uy, uz] = self.spatial_axes(r);
        // A cube face's coordinates arrive in [1, 2] (parent module doc).
        let coords = {
            let mut ir = Ir(&mut self.b);
            let one = ir.fk(1.0);
            let mut c = coords;
            for v in &mut c[..2] {
                let m = ir.f(Op::Fsub, &[*v, one]);
                *v = ir.fsel(r.is_cube, m, *v);
            }
            c
        };
        let not_int = self.b.op(Op::Not, I1, &[r.is_int]);
        let lin = self.b.op(Op::And, I1, &[linear_xy, not_int]);
        let zlin = self.b.op(Op::And, I1, &[s.z_linear, not_int]);
        let t_ = self.b.bool(true);
        let offsets = self.tex_offsets(t);
        let x = self.tex_axis(
            coords[0],
            lv.size[0],
            t.normalized[0],
            offsets[0],
            s.clamp[0],
            lin,
            t_,
        );
        let y = self.tex_axis(
            coords[1],
            lv.size[1],
            t.normalized[1],
            offsets[1],
            s.clamp[1],
            lin,
            uy,
        );
        let z = self.tex_axis(
            coords[2],
            lv.size[2],
            t.normalized[2],
            offsets[2],
            s.clamp[2],
            zlin,
            uz,
        );
        // Arrays take the slice from z (a 1D array from y under SAMPLE_C_L/C_LB), cube maps
        // the face and layer (never scaled).
        let mut slice = self.tex_slice(coords[2], lv.size[2], t.normalized[2]);
        if t.kind.reference_in_z() {
            let from_y = self.tex_slice(coords[1], lv.size[2], t.normalized[1]);
            let a1 = self.b.i32(4);
            let is1da = self.b.op(Op::Icmp(IntCC::Eq), I1, &[r.dim, a1]);
            let i = self
                .b
                .op(Op::Select, I32, &[is1da, from_y.i[0], slice.i[0]]);
            slice.i = [i, i];
        }
        let face = self.tex_cube_slice(coords[2], r.depth);
        let i = self.b.op(Op::Select, I32, &[r.is_cube, face, slice.i[0]]);
        slice.i = [i, i];
        let pick = |b: &mut wavejit_ir::FunctionBuilder, l: Value, a: &Axis, z: &Axis| Axis {
            i: [0, 1].map(|k| b.op(Op::Select, I32, &[l, a.i[k], z.i[k]])),
            border: [0, 1].map(|k| b.op(Op::Select, I1, &[l, a.border[k], z.border[k]])),
            w: z.w,
            linear: b.op(Op::Select, I1, &[l, a.linear, z.linear]),
        };
        let z = pick(&mut self.b, r.layered, &slice, &z);
        [x, y, z]
    }

    /// The address of texel `idx` of level `lv` (lane `i32` indices, each in range or masked
    /// off).
    pub(super) fn texel_addr(&mut self, r: &Res, lv: &Level, idx: [Value; 3]) -> Value {
        let b = &mut self.b;
        let [x, y, z] = idx.map(|v| b.op(Op::Zext, I64, &[v]));
        let h = b.op(Op::Zext, I64, &[lv.rows]);
        let p = b.op(Op::Zext, I64, &[lv.pitch]);
        let bytes = b.op(Op::Zext, I64, &[r.bytes]);
        let zh = b.op(Op::Imul, I64, &[z, h]);
        let row = b.op(Op::Iadd, I64, &[zh, y]);
        let rp = b.op(Op::Imul, I64, &[row, p]);
        let e = b.op(Op::Iadd, I64, &[rp, x]);
        let off = b.op(Op::Imul, I64, &[e, bytes]);
        b.op(Op::Iadd, I64, &[lv.base, off])
    }

    /// The four components of texel `idx` for the lanes of `mask` (others read 0).
    pub(super) fn texel(
        &mut self,
        r: &Res,
        lv: &Level,
        idx: [Value; 3],
        mask: Value,
    ) -> [Value; 4] {
        let a = self.texel_addr(r, lv, idx);
        [0u8, 1, 2, 3].map(|c| {
            self.b.load_format(
                MemSpace::Global,
                FormatSrc::Dynamic(r.code[c as usize]),
                c,
                false,
                a,
                Some(mask),
            )
        })
    }

    /// Corner `c` (bit 0 x, bit 1 y, bit 2 z chooses `i1`) of the footprint, with the border
    /// colour outside the texture.
    pub(super) fn tex_corner(
        &mut self,
        r: &Res,
        lv: &Level,
        axes: &[Axis; 3],
        c: usize,
        lanes: Value,
        border: [Value; 4],
    ) -> [Value; 4] {
        let pick = |k: usize| (c >> k) & 1;
        let idx = [0, 1, 2].map(|k| axes[k].i[pick(k)]);
        let mut ir = Ir(&mut self.b);
        let mut out = axes[0].border[pick(0)];
        out = ir.or(out, axes[1].border[pick(1)]);
        out = ir.or(out, axes[2].border[pick(2)]);
        let inb = ir.not(out);
        let mask = ir.and(lanes, inb);
        let v = self.texel(r, lv, idx, mask);
        let mut ir = Ir(&mut self.b);
        [0, 1, 2, 3].map(|k| ir.sel(out, border[k], v[k]))
    }

    /// `1.0` or `0.0` as i32 bits: `reference OP x` (module doc, "Depth compare").
    pub(super) fn tex_compare(&mut self, reference: Value, func: Value, x: Value) -> Value {
        let mut ir = Ir(&mut self.b);
        let xf = ir.op(Op::Bitcast, F32, &[x]);
        let mut pass = ir.0.bool(false);
        for (k, cc) in [
            (1, FloatCC::Lt),
            (2, FloatCC::Eq),
            (3, FloatCC::Le),
            (4, FloatCC::Gt),
            (5, FloatCC::Une),
            (6, FloatCC::Ge),
        ] {
            let c = ir.fcmp(cc, reference, xf);
            let e = ir.eqk(func, k);
            pass = ir.sel(e, c, pass);
        }
        let always = ir.eqk(func, 7);
        let pass = ir.or(pass, always);
        let (one, zero) = (ir.k(1f32.to_bits()), ir.k(0));
        ir.sel(pass, one, zero)
    }

    /// The filtered element components of level `l` (module doc, steps 1-7).
    fn tex_sample_level(&mut self, t: &Tex, r: &Res, s: &Smp, l: Value, j: &Job) -> [Value; 4] {
        let lv = self.tex_level(r, l);
        let axes = self.tex_axes(t, r, s, &lv, j.coords, j.linear_xy);
        let mut corners = Vec::new();
        for c in 0..8usize {
            let mut v = self.tex_corner(r, &lv, &axes, c, j.lanes, j.border);
            if let Some((reference, func)) = j.compare {
                v[0] = self.tex_compare(reference, func, v[0]);
            }
            corners.push(v);
        }
        let mut ir = Ir(&mut self.b);
        let mut e = [corners[0][0]; 4];
        for (k, slot) in e.iter_mut().enumerate() {
            let mut level: Vec<Value> = corners.iter().map(|c| c[k]).collect();
            for ax in &axes {
                level = level
                    .chunks(2)
                    .map(|p| {
                        let fa = ir.op(Op::Bitcast, F32, &[p[0]]);
                        let fb = ir.op(Op::Bitcast, F32, &[p[1]]);
                        let l = ir.lerp(fa, fb, ax.w);
                        let l = ir.op(Op::Bitcast, I32, &[l]);
                        ir.sel(ax.linear, l, p[0])
                    })
                    .collect();
            }
            *slot = level[0];
        }
        e
    }

    /// SAMPLE*: the LOD, the levels, one or two level samples and their blend.
    pub(super) fn tex_sample(&mut self, t: &Tex, lod_src: LodSrc, compare: bool) {
        let r = self.resource(t.resource);
        let s = self.sampler(t.sampler);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let lod = self.tex_lod(t, lod_src, &r, &s);
        let lv = self.tex_levels(&r, &s, lod);
        let mut ir = Ir(&mut self.b);
        let filt = ir.sel(lv.minify, s.min, s.mag);
        let linear_xy = ir.eqk(filt, 1);
        let coords = [0, 1, 2].map(|k| self.tex_srcf(t, k));
        let compare = if compare {
            let k = if t.kind.reference_in_z() { 2 } else { 3 };
            Some((self.tex_srcf(t, k), s.compare))
        } else {
            None
        };
        let border = self.border_color(t, &r, &s);
        let job = Job {
            coords,
            linear_xy,
            lanes,
            compare,
            border,
        };
        let e1 = self.tex_sample_level(t, &r, &s, lv.d1, &job);
        let e2 = self.tex_sample_level(t, &r, &s, lv.d2, &job);
        let mut ir = Ir(&mut self.b);
        let e = [0, 1, 2, 3].map(|k| {
            let a = ir.op(Op::Bitcast, F32, &[e1[k]]);
            let b = ir.op(Op::Bitcast, F32, &[e2[k]]);
            let m = ir.lerp(a, b, lv.frac);
            let m = ir.op(Op::Bitcast, I32, &[m]);
            ir.sel(lv.two, m, e1[k])
        });
        self.tex_write(t, &r, e);
    }

    /// Writes the element components `e` through the resource's and the instruction's
    /// DST_SEL.
    pub(super) fn tex_write(&mut self, t: &Tex, r: &Res, e: [Value; 4]) {
        let mut ir = Ir(&mut self.b);
        let one = ir.one(r.is_int);
        let sw = r.dst_sel.map(|s| ir.swizzle(e, s, one));
        self.tex_write_raw(t, sw, one);
    }

    /// The border colour's four components (module doc, step 7).
    pub(super) fn border_color(&mut self, t: &Tex, r: &Res, s: &Smp) -> [Value; 4] {
        let reg = self.l.tex_samplers();
        let regs = [4, 5, 6, 7].map(|k| self.table_word(reg, SAMPLER_BYTES, t.sampler, k));
        let mut ir = Ir(&mut self.b);
        let one = ir.one(r.is_int);
        let zero = ir.k(0);
        let white = ir.eqk(s.border_type, 2);
        let k1 = ir.k(1);
        let opaque = ir.icmp(IntCC::Uge, s.border_type, k1);
        let reg_type = ir.eqk(s.border_type, 3);
        [0, 1, 2, 3].map(|c| {
            let lit = if c == 3 { opaque } else { white };
            let v = ir.sel(lit, one, zero);
            ir.sel(reg_type, regs[c], v)
        })
    }
}
