//! LD and GET_TEXTURE_RESINFO.
//!
//! # LD
//! X, Y, Z are unsigned texel indices (SRC_SEL constants are the bits of 0.0 and 1.0): x;
//! x, y (2D); x, y, z (3D); x and the slice z (1D array); x, y and the slice z (2D array).
//! LD of a cube map traps ("any resource type other than a cubemap", 8.3).
//! W is the level relative to BASE_LEVEL ("W is interpreted by the texture unit as LOD",
//! 8.3; D3D10 `ld` counts from the view's most detailed level). An index outside the level,
//! or a level above LAST_LEVEL, reads 0 in every component (the D3D10 `ld` rule; the ISA
//! document is silent). On a buffer, X is the element index, W is ignored, and the elements
//! are those that fit whole in SIZE + 1 bytes (outside reads 0, D3D10's out-of-bounds buffer
//! rule). OFFSET fields on LD are unsupported at lift time: their unit for integer
//! coordinates is not documented.
//!
//! # GET_TEXTURE_RESINFO
//! With `l = min(src.x, 31)` (an unsigned LOD): x = `max(1, width >> l)`,
//! y = `max(1, height >> l)`, z = `max(1, depth >> l)` for 3D and `depth` (TEX_DEPTH + 1:
//! the slice count of arrays, the layer count of cube arrays) otherwise,
//! w = `LAST_LEVEL - BASE_LEVEL + 1`, all integers (Mesa's TXQ uses the results as
//! integers; for a cube array's layer count it reads a driver constant instead, so what
//! the hardware returns in z there is unconfirmed). The document only says "width, height, depth, and number of mipmap levels"
//! (L9539).
use super::ir::Ir;
use super::{Lifter, Tex};
use wavejit_ir::{IntCC, Op, ScalarType};

use ScalarType::I32;

impl Lifter<'_> {
    pub(super) fn tex_ld(&mut self, t: &Tex) {
        let r = self.resource(t.resource);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let src = [0, 1, 2, 3].map(|k| self.tex_src(t, k));
        let [_, uy, uz] = self.spatial_axes(&r);
        let mut ir = Ir(&mut self.b);
        // Level: BASE_LEVEL + W, in range when W <= LAST_LEVEL - BASE_LEVEL.
        let span = ir.op(Op::Isub, I32, &[r.last_level, r.base_level]);
        let lvl_ok = ir.icmp(IntCC::Ule, src[3], span);
        let zero = ir.k(0);
        let w = ir.sel(lvl_ok, src[3], zero);
        let l = ir.add(r.base_level, w);
        let z_idx = src[2];
        let z_used = ir.or(uz, r.layered);
        let lv = self.tex_level(&r, l);
        let mut ir = Ir(&mut self.b);
        let mut inside = ir.and(lanes, lvl_ok);
        let t_ = ir.0.bool(true);
        let mut idx = [src[0], src[1], z_idx];
        for (a, used) in [t_, uy, z_used].into_iter().enumerate() {
            let inr = ir.icmp(IntCC::Ult, idx[a], lv.size[a]);
            idx[a] = ir.sel(used, idx[a], zero);
            let nu = ir.not(used);
            let ok = ir.or(nu, inr);
            inside = ir.and(inside, ok);
        }
        let e = self.texel(&r, &lv, idx, inside);
        let mut ir = Ir(&mut self.b);
        let e = e.map(|v| ir.sel(inside, v, zero));
        self.tex_write(t, &r, e);
    }

    pub(super) fn tex_resinfo(&mut self, t: &Tex) {
        let r = self.resource(t.resource);
        let lod = self.tex_src(t, 0);
        let mut ir = Ir(&mut self.b);
        let k31 = ir.k(31);
        let l = ir.op(Op::Umin, I32, &[lod, k31]);
        let [w, h, d] = r.size.map(|s| ir.minify(s, l));
        let z = ir.sel(r.is3d, d, r.depth);
        let one = ir.k(1);
        self.tex_write_raw(t, [w, h, z, r.levels], one);
    }
}
