//! GATHER4 and GATHER4_C: "fetches unfiltered texels from a bilinear sample and packs them
//! into xyzw" (8.3). The footprint is the bilinear one of `sample` (steps 1-4, with the
//! sampler's wrap modes and border colour) on level BASE_LEVEL, whatever the filters and the
//! format; the result is one component of its four texels in the D3D10.1/OpenGL order
//! x = (i0, j1), y = (i1, j1), z = (i1, j0), w = (i0, j0). INST_MOD selects the component
//! (notes/hd6900_map.md §5) after the resource's DST_SEL (OpenGL's textureGather reads the
//! swizzled component), so a resource swizzle to 0 or 1 gathers that constant. GATHER4_C
//! compares each gathered value with src0.W (`sample`, "Depth compare") and returns 1.0 or
//! 0.0 per texel. The instruction's DST_SEL then picks from the four results. 3D
//! textures trap (D3D10.1 gathers 2D textures only; 1D textures and arrays gather with
//! `j0 = j1`).
use super::ir::Ir;
use super::{Lifter, Tex};
use wavejit_ir::Value;

impl Lifter<'_> {
    pub(super) fn tex_gather(&mut self, t: &Tex, compare: bool) {
        let r = self.resource(t.resource);
        let s = self.sampler(t.sampler);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let lv = self.tex_level(&r, r.base_level);
        let coords = [0, 1, 2].map(|k| self.tex_srcf(t, k));
        let linear = self.b.bool(true);
        let border = self.border_color(t, &r, &s);
        let axes = self.tex_axes(t, &r, &s, &lv, coords, linear, true);
        let reference = compare.then(|| self.tex_srcf(t, 3));
        let one = Ir(&mut self.b).one(r.is_int);
        let sel = r.dst_sel[t.inst_mod as usize];
        let mut e: [Value; 4] = [one; 4];
        for (slot, c) in e.iter_mut().zip([2usize, 3, 1, 0]) {
            let v = self.tex_corner(&r, &lv, &axes, c, lanes, border);
            let g = Ir(&mut self.b).swizzle(v, sel, one);
            *slot = match reference {
                Some(rf) => self.tex_compare(rf, s.compare, g),
                None => g,
            };
        }
        self.tex_write_raw(t, e, one);
    }
}
