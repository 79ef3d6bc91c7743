//! GATHER4, GATHER4_C and their GPR-offset forms GATHER4_O, GATHER4_C_O: "fetches unfiltered
//! texels from a bilinear sample and packs them into xyzw" (8.3).
//!
//! The footprint is the bilinear one of `sample` (steps 1-4, with the sampler's wrap modes
//! and border colour) on level BASE_LEVEL, whatever the filters. INT formats are the
//! exception: the hardware filters them as point samples even here, so their footprint
//! starts at the point-sampled texel (`i0 = floor(u)`, no half-texel shift) and
//! `i1 = i0 + 1` (Mesa sfn_nir_lower_tex.cpp `r600_nir_lower_int_tg4` documents the bug and
//! subtracts half a texel from the coordinates of integer gathers to undo it; it skips cube
//! maps, for which we apply the same rule unconfirmed).
//!
//! The result is one component of the four texels (INST_MOD selects it, notes/hd6900_map.md
//! §5, after the resource's DST_SEL: OpenGL's textureGather reads the swizzled component, so
//! a resource swizzle to 0 or 1 gathers that constant). With OpenGL's names
//! `a = (i0, j1)`, `b = (i1, j1)`, `c = (i1, j0)`, `d = (i0, j0)` (OpenGL 4.6 §8.14.2,
//! returned as (a, b, c, d)), Cayman returns x = a, y = b, z = c, w = d, and Evergreen
//! x = c, y = a, z = b, w = d: Mesa's r600_shader.c `tgsi_tex` sets the TG4 DST_SEL to the
//! identity on Cayman and to (y, z, x, w) otherwise to restore OpenGL's order, and
//! sfn_instr_tex.cpp `lower_tg4` uses (y, z, x, w) for chips up to Evergreen. The
//! instruction's DST_SEL then picks from the four results.
//!
//! GATHER4_C/GATHER4_C_O compare each gathered value with src0.W (`sample`, "Depth
//! compare") and return 1.0 or 0.0 per texel. GATHER4_O/GATHER4_C_O ignore OFFSET_X/Y/Z and
//! add the lane's SET_TEXTURE_OFFSETS values instead (parent module doc). 3D textures trap
//! (D3D10.1 gathers 2D textures only; 1D textures and arrays gather with `j0 = j1`).
use super::ir::Ir;
use super::{Lifter, Tex};
use crate::ChipClass;
use wavejit_ir::Value;

/// Footprint corners (bit 0: `i1`, bit 1: `j1`) in result order x, y, z, w.
fn corners(class: ChipClass) -> [usize; 4] {
    match class {
        ChipClass::Cayman => [2, 3, 1, 0],
        ChipClass::Evergreen => [1, 2, 3, 0],
    }
}

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
        let axes = self.tex_axes(t, &r, &s, &lv, coords, linear);
        let reference = compare.then(|| self.tex_srcf(t, 3));
        let one = Ir(&mut self.b).one(r.is_int);
        let sel = r.dst_sel[t.inst_mod as usize];
        let mut e: [Value; 4] = [one; 4];
        for (slot, c) in e.iter_mut().zip(corners(self.env.class)) {
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
