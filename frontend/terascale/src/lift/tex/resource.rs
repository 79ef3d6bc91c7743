//! Resource and sampler words (layouts in the parent module doc) and the mip-level
//! geometry: per level a pitch, a row count per slice and an address, computed once per
//! instruction as uniform values, and selected per lane by [`Lifter::tex_level`].
use super::ir::Ir;
use super::{Lifter, RESOURCE_BYTES, SAMPLER_BYTES, TEX_FORMATS};
use crate::lift::F32_MODE;
use wavejit_ir::{DataFormat, ElemFormat, IntCC, NumFormat, Op, ScalarType, Value};

use ScalarType::{F32, I32, I64};

/// Mip levels a resource can have (LAST_LEVEL is 4 bits).
const LEVELS: u32 = 16;

/// A resource slot's fields (uniform values).
pub(super) struct Res {
    /// DIM (0 for buffers).
    pub dim: Value,
    /// Level-0 width, height, depth or slice count (a cube map: 6 per layer; a buffer:
    /// elements, 1, 1).
    pub size: [Value; 3],
    /// Bytes from one element to the next along x (the format's size; a buffer's STRIDE).
    pub bytes: Value,
    pub is_int: Value,
    /// A buffer resource (TYPE 3, SQ_VTX_CONSTANT layout).
    pub is_buf: Value,
    /// The `load_format` code of element component `c` (identity swizzle).
    pub code: [Value; 4],
    pub dst_sel: [Value; 4],
    /// `LAST_LEVEL - BASE_LEVEL + 1`.
    pub levels: Value,
    pub base_level: Value,
    pub last_level: Value,
    /// DIM 1D_ARRAY, 2D_ARRAY or CUBEMAP (slices that are not filtered or minified).
    pub layered: Value,
    pub is3d: Value,
    pub is_cube: Value,
    /// TEX_DEPTH + 1 (1 for buffers).
    pub depth: Value,
    /// Per level: (pitch in texels, rows per slice, address).
    lv: Vec<[Value; 3]>,
    /// Whether this module implements the resource.
    pub ok: Value,
}

/// A sampler slot's fields (uniform values).
pub(super) struct Smp {
    pub clamp: [Value; 3],
    pub mag: Value,
    pub min: Value,
    pub z_linear: Value,
    pub mip: Value,
    pub min_lod: Value,
    pub max_lod: Value,
    pub border_type: Value,
    /// DEPTH_COMPARE_FUNCTION (0 NEVER .. 7 ALWAYS).
    pub compare: Value,
    /// WORD2 DISABLE_CUBE_WRAP (bit 29): cube faces filter on their own.
    pub cube_wrap_off: Value,
    pub ok: Value,
}

/// One mip level's geometry for each lane.
pub(super) struct Level {
    /// Width, height, depth (3D) or slice count (arrays).
    pub size: [Value; 3],
    pub pitch: Value,
    pub rows: Value,
    pub base: Value,
}

struct Geometry {
    pitch: Value,
    base: Value,
    mip_base: Value,
    palign: Value,
}

/// Pitch, rows and address of every level (module doc, "Addressing and mip levels").
#[allow(clippy::too_many_arguments)]
fn level_table(
    ir: &mut Ir,
    g: &Geometry,
    size: [Value; 3],
    base_level: Value,
    is3d: Value,
    layered: Value,
    bytes: Value,
    is_buf: Value,
) -> Vec<[Value; 3]> {
    let one = ir.k(1);
    let bytes64 = ir.op(Op::Zext, I64, &[bytes]);
    let mut acc = ir.0.i64(0);
    let mut out = Vec::new();
    for k in 0..LEVELS {
        let kv = ir.k(k);
        let is_base = ir.icmp(IntCC::Eq, kv, base_level);
        let is_base = ir.or(is_base, is_buf);
        let (pitch, rows, slices) = if k == 0 {
            let slices = ir.sel(layered, size[2], one);
            let slices = ir.sel(is3d, size[2], slices);
            (g.pitch, size[1], slices)
        } else {
            let [w, h, d] = size.map(|v| {
                let m = ir.minify(v, kv);
                ir.pow2_ceil(m)
            });
            let p = ir.align(w, g.palign);
            let p = ir.sel(is_base, g.pitch, p);
            let slices = ir.sel(layered, size[2], one);
            let slices = ir.sel(is3d, d, slices);
            (p, h, slices)
        };
        let addr = if k == 0 {
            g.base
        } else {
            let a = ir.op(Op::Iadd, I64, &[g.mip_base, acc]);
            ir.sel(is_base, g.base, a)
        };
        if k >= 1 {
            let b = [pitch, rows, slices]
                .map(|v| ir.op(Op::Zext, I64, &[v]))
                .into_iter()
                .fold(bytes64, |a, v| ir.op(Op::Imul, I64, &[a, v]));
            acc = ir.op(Op::Iadd, I64, &[acc, b]);
        }
        out.push([pitch, rows, addr]);
    }
    out
}

impl Lifter<'_> {
    pub(super) fn resource(&mut self, id: (u32, u8)) -> Res {
        let reg = self.l.tex_resources();
        let w: Vec<Value> = (0..8)
            .map(|k| self.table_word(reg, RESOURCE_BYTES, id, k))
            .collect();
        let mut ir = Ir(&mut self.b);
        let ty = ir.field(w[7], 30, 2);
        let is_buf = ir.eqk(ty, 3);
        // Picks the buffer (SQ_VTX_CONSTANT) field or the texture field.
        let pick =
            |ir: &mut Ir, (bw, blo, bn): (usize, u32, u32), (tw, tlo, tn): (usize, u32, u32)| {
                let b = ir.field(w[bw], blo, bn);
                let t = ir.field(w[tw], tlo, tn);
                ir.sel(is_buf, b, t)
            };
        let tdim = ir.field(w[0], 0, 3);
        let zero = ir.k(0);
        let dim = ir.sel(is_buf, zero, tdim);
        let p = ir.field(w[0], 6, 12);
        let p = ir.addk(p, 1);
        let eight = ir.k(8);
        let pitch = ir.op(Op::Imul, I32, &[p, eight]);
        let width = ir.field(w[0], 18, 14);
        let height = ir.field(w[1], 0, 14);
        let depth = ir.field(w[1], 14, 13);
        let tsize = [width, height, depth].map(|v| ir.addk(v, 1));
        let depth = tsize[2];
        // A cube map's six faces per layer are its slices (Mesa lays a cube array out as a
        // 2D array of 6 * layers slices, TEX_DEPTH + 1 the layer count).
        let tdim0 = ir.field(w[0], 0, 3);
        let cube = ir.eqk(tdim0, 3);
        let six = ir.k(6);
        let faces = ir.op(Op::Imul, I32, &[depth, six]);
        let tsize = [tsize[0], tsize[1], ir.sel(cube, faces, tsize[2])];
        let array_mode = ir.field(w[1], 28, 4);
        let k8 = ir.0.i64(8);
        let lo = ir.op(Op::Zext, I64, &[w[2]]);
        let tbase = ir.op(Op::Shl, I64, &[lo, k8]);
        let hi = ir.field(w[2], 0, 8);
        let bbase = ir.0.op(Op::Concat, I64, &[w[0], hi]);
        let base = ir.sel(is_buf, bbase, tbase);
        let fmt = pick(&mut ir, (2, 20, 6), (7, 0, 6));
        let (mut data, mut float, mut bpe) = (ir.k(0), ir.0.bool(false), ir.k(0));
        for (code, d, fl) in TEX_FORMATS {
            let e = ir.eqk(fmt, code);
            let dk = ir.k(d as u32);
            data = ir.sel(e, dk, data);
            let fk = ir.0.bool(fl);
            float = ir.sel(e, fk, float);
            let bk = ir.k(d.bytes());
            bpe = ir.sel(e, bk, bpe);
        }
        // Buffers: STRIDE bytes per element, SIZE + 1 bytes; the elements that fit whole.
        let stride = ir.field(w[2], 8, 11);
        let bytes = ir.sel(is_buf, stride, bpe);
        let span = ir.addk(w[1], 1);
        let fits = ir.icmp(IntCC::Uge, span, bpe);
        let rest = ir.op(Op::Isub, I32, &[span, bpe]);
        let one = ir.k(1);
        let stride1 = ir.op(Op::Umax, I32, &[stride, one]);
        let q = ir.op(Op::Udiv, I32, &[rest, stride1]);
        let q = ir.addk(q, 1);
        let elems = ir.sel(fits, q, zero);
        let bsize = [elems, one, one];
        let size = [0, 1, 2].map(|a| ir.sel(is_buf, bsize[a], tsize[a]));
        let nfa = pick(&mut ir, (2, 26, 2), (4, 8, 2));
        let srf = pick(&mut ir, (2, 29, 1), (4, 10, 1));
        let srf = ir.eqk(srf, 1);
        let is_intf = ir.eqk(nfa, 1);
        let notf = ir.not(float);
        let is_int = ir.and(is_intf, notf);
        // IR number formats (codes): NORM 0/1, SCALED 2/3, INT 4/5 (unsigned/signed); the
        // component's sign (FORMAT_COMP) adds 1.
        let n_int = ir.k(NumFormat::Uint as u32);
        let n_scaled = ir.k(NumFormat::Uscaled as u32);
        let n_norm = ir.k(NumFormat::Unorm as u32);
        let is_scaled = ir.eqk(nfa, 2);
        let nbase = ir.sel(is_scaled, n_scaled, n_norm);
        let nbase = ir.sel(is_intf, n_int, nbase);
        let is_norm = ir.eqk(nfa, 0);
        let mut bad = ir.eqk(nfa, 3);
        let mut code = [nbase; 4];
        for (c, slot) in code.iter_mut().enumerate() {
            let fc = pick(&mut ir, (2, 28, 1), (4, 2 * c as u32, 2));
            let k1 = ir.k(1);
            let biased = ir.icmp(IntCC::Ugt, fc, k1);
            bad = ir.or(bad, biased);
            let n = ir.add(nbase, fc);
            let signed = ir.eqk(fc, 1);
            let ogl = ir.and(signed, srf);
            let ogl = ir.and(ogl, is_norm);
            let k6 = ir.k(NumFormat::SnormOgl as u32);
            let n = ir.sel(ogl, k6, n);
            let k7 = ir.k(NumFormat::Float as u32);
            let n = ir.sel(float, k7, n);
            let k15 = ir.k(ElemFormat::DATA_AT);
            let d = ir.op(Op::Shl, I32, &[data, k15]);
            let k12 = ir.k(ElemFormat::NUM_AT);
            let nn = ir.op(Op::Shl, I32, &[n, k12]);
            // The identity swizzle, in the code's select fields.
            let identity = ir.k(ElemFormat::new(DataFormat::Invalid, NumFormat::Unorm).code());
            let c1 = ir.op(Op::Or, I32, &[d, nn]);
            *slot = ir.op(Op::Or, I32, &[c1, identity]);
        }
        let dst_sel =
            [(3, 16), (6, 19), (9, 22), (12, 25)].map(|(b, t)| pick(&mut ir, (3, b, 3), (4, t, 3)));
        for &s in &dst_sel {
            let k5 = ir.k(5);
            let r = ir.icmp(IntCC::Ugt, s, k5);
            bad = ir.or(bad, r);
        }
        let tbase_level = ir.field(w[4], 28, 4);
        let base_level = ir.sel(is_buf, zero, tbase_level);
        let tlast_level = ir.field(w[5], 0, 4);
        let last_level = ir.sel(is_buf, zero, tlast_level);
        let lv = ir.op(Op::Isub, I32, &[last_level, base_level]);
        let lv = ir.addk(lv, 1);
        let levels = ir.sel(is_buf, one, lv);
        let (k0, k1, k2) = (ir.k(0), ir.k(1), ir.k(2));
        let is_tex = ir.eqk(ty, 2);
        let dim_le_3d = ir.icmp(IntCC::Ule, tdim, k2);
        let dim_1da = ir.eqk(tdim, 4);
        let dim_2da = ir.eqk(tdim, 5);
        let layered = ir.or(dim_1da, dim_2da);
        let dim_ok = ir.or(dim_le_3d, layered);
        let dim_ok = ir.or(dim_ok, cube);
        let layered = ir.or(layered, cube);
        let tex_ok = [
            dim_ok,
            ir.icmp(IntCC::Ule, array_mode, k1),
            ir.icmp(IntCC::Ule, base_level, last_level),
        ]
        .into_iter()
        .fold(is_tex, |a, c| ir.and(a, c));
        let endian = ir.field(w[2], 30, 2);
        let buf_ok = [ir.eqk(endian, 0), ir.icmp(IntCC::Ne, stride, k0)]
            .into_iter()
            .fold(is_buf, |a, c| ir.and(a, c));
        let kind_ok = ir.or(tex_ok, buf_ok);
        let fmt_ok = ir.icmp(IntCC::Ne, data, k0);
        let ok = ir.not(bad);
        let ok = ir.and(ok, kind_ok);
        let ok = ir.and(ok, fmt_ok);
        let layered = ir.and(layered, is_tex);
        let is_cube = ir.and(cube, is_tex);
        let is3d = ir.eqk(dim, 2);
        let depth = ir.sel(is_buf, one, depth);
        let mk = ir.0.i64(8);
        let mlo = ir.op(Op::Zext, I64, &[w[3]]);
        let mip_base = ir.op(Op::Shl, I64, &[mlo, mk]);
        let k64 = ir.k(64);
        let k256 = ir.k(256);
        let bpe1 = ir.op(Op::Umax, I32, &[bpe, k1]);
        let per_group = ir.op(Op::Udiv, I32, &[k256, bpe1]);
        let aligned = ir.op(Op::Umax, I32, &[k64, per_group]);
        let is_aligned = ir.eqk(array_mode, 1);
        let palign = ir.sel(is_aligned, aligned, k1);
        let geo = Geometry {
            pitch,
            base,
            mip_base,
            palign,
        };
        let lv = level_table(
            &mut ir, &geo, size, base_level, is3d, layered, bytes, is_buf,
        );
        Res {
            dim,
            size,
            bytes,
            is_int,
            is_buf,
            code,
            dst_sel,
            levels,
            base_level,
            last_level,
            layered,
            is3d,
            is_cube,
            depth,
            lv,
            ok,
        }
    }

    pub(super) fn sampler(&mut self, id: (u32, u8)) -> Smp {
        let reg = self.l.tex_samplers();
        let w0 = self.table_word(reg, SAMPLER_BYTES, id, 0);
        let w1 = self.table_word(reg, SAMPLER_BYTES, id, 1);
        let w2 = self.table_word(reg, SAMPLER_BYTES, id, 2);
        let mut ir = Ir(&mut self.b);
        let clamp = [0, 3, 6].map(|lo| ir.field(w0, lo, 3));
        let mag = ir.field(w0, 9, 2);
        let min = ir.field(w0, 11, 2);
        let zf = ir.field(w0, 13, 2);
        let mip = ir.field(w0, 15, 2);
        let border_type = ir.field(w0, 20, 2);
        let compare = ir.field(w0, 22, 3);
        let cube_wrap_off = ir.field(w2, 29, 1);
        let cube_wrap_off = ir.eqk(cube_wrap_off, 1);
        let lod = |ir: &mut Ir, lo: u32| {
            let v = ir.field(w1, lo, 12);
            let f = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[v]);
            let s = ir.fk(1.0 / 64.0);
            ir.f(Op::Fmul, &[f, s])
        };
        let min_lod = lod(&mut ir, 0);
        let max_lod = lod(&mut ir, 12);
        let one = ir.k(1);
        let ok_mag = ir.icmp(IntCC::Ule, mag, one);
        let ok_min = ir.icmp(IntCC::Ule, min, one);
        let three = ir.k(3);
        let ok_z = ir.icmp(IntCC::Ne, zf, three);
        let ok = ir.and(ok_mag, ok_min);
        let ok = ir.and(ok, ok_z);
        let ok_mip = ir.icmp(IntCC::Ne, mip, three);
        let ok = ir.and(ok, ok_mip);
        let z_linear = ir.eqk(zf, 2);
        Smp {
            clamp,
            mag,
            min,
            z_linear,
            mip,
            min_lod,
            max_lod,
            border_type,
            compare,
            cube_wrap_off,
            ok,
        }
    }

    /// The geometry of level `l` (a lane i32 in `0..16`, or uniform).
    pub(super) fn tex_level(&mut self, r: &Res, l: Value) -> Level {
        let mut ir = Ir(&mut self.b);
        let w = ir.minify(r.size[0], l);
        let h = ir.minify(r.size[1], l);
        let d3 = ir.minify(r.size[2], l);
        let d = ir.sel(r.is3d, d3, r.size[2]);
        let mut pick = r.lv[0];
        for (k, row) in r.lv.iter().enumerate().skip(1) {
            let e = ir.eqk(l, k as u32);
            for (p, &v) in pick.iter_mut().zip(row) {
                *p = ir.sel(e, v, *p);
            }
        }
        Level {
            size: [w, h, d],
            pitch: pick[0],
            rows: pick[1],
            base: pick[2],
        }
    }
}
