//! Texture-fetch instructions in fetch clauses (TEX_WORD0-2; seed 000 chapter 5 L2088-L2126,
//! 8.3 L7119-L7663, 9.4 L9525-L9676; notes/hd6900_map.md §5), lifted to plain IR: coordinate
//! arithmetic, level selection, texel addresses, one `load_format` per texel component and
//! the filter blend. Submodules: `ir` (IR helpers, wrap modes), `resource` (resource and
//! sampler words, mip-level geometry), `lod` (LOD, quad derivatives, gradient state),
//! `sample` (the SAMPLE family, depth compares, cube slices, texel offsets), `gather`
//! (GATHER4*), `ld` (LD and GET_TEXTURE_RESINFO).
//!
//! # Launch convention (compute launches bind no textures, so wavejit defines one)
//! The `tex` uniform cells of [`super::TsLayout`] hold two guest addresses the launcher fills:
//! - `tex_resources`: a table of [`RESOURCE_BYTES`]-byte slots indexed by RESOURCE_ID; slot
//!   `i` holds the eight words SQ_TEX_RESOURCE_WORD0..7 of resource `i` in Mesa's layout
//!   (evergreend.h `R_030000`..`R_03001C`), so a real descriptor works unchanged:
//!   WORD0 DIM `[2:0]`, PITCH `[17:6]` (`texels / 8 - 1`), TEX_WIDTH `[31:18]` (`width - 1`);
//!   WORD1 TEX_HEIGHT `[13:0]`, TEX_DEPTH `[26:14]` (`- 1`; the slice count of arrays),
//!   ARRAY_MODE `[31:28]`; WORD2 BASE_ADDRESS (`byte address >> 8`); WORD3 MIP_ADDRESS
//!   (`>> 8`, the address of level 1); WORD4 FORMAT_COMP_X..W (2 bits each from bit 0),
//!   NUM_FORMAT_ALL `[9:8]`, SRF_MODE_ALL 10, DST_SEL_X..W `[18:16]`..`[27:25]`, BASE_LEVEL `[31:28]`;
//!   WORD5 LAST_LEVEL `[3:0]`; WORD7 DATA_FORMAT `[5:0]`, TYPE `[31:30]` (2 = valid texture).
//!   A slot with TYPE 3 (valid buffer) is a buffer in the SQ_VTX_CONSTANT layout Mesa writes
//!   for texture buffers (evergreen_state.c `evergreen_fill_buffer_resource_words`): WORD0
//!   the byte address's low 32 bits, WORD1 SIZE (`bytes - 1`), WORD2 BASE_ADDRESS_HI `[7:0]`,
//!   STRIDE `[18:8]`, DATA_FORMAT `[25:20]`, NUM_FORMAT_ALL `[27:26]`, FORMAT_COMP_ALL 28,
//!   SRF_MODE_ALL 29, ENDIAN_SWAP `[31:30]`; WORD3 DST_SEL_X..W `[5:3]`..`[14:12]`. Only LD reads
//!   buffers (element X at `address + X * STRIDE`).
//! - `tex_samplers`: a table of [`SAMPLER_BYTES`]-byte slots indexed by SAMPLER_ID; words 0-2
//!   are SQ_TEX_SAMPLER_WORD0..2 (evergreend.h `R_03C000`..`R_03C008`): WORD0 CLAMP_X/Y/Z
//!   (3 bits each from bit 0), XY_MAG_FILTER `[10:9]`, XY_MIN_FILTER `[12:11]`, Z_FILTER `[14:13]`,
//!   MIP_FILTER `[16:15]` (0 none, 1 point, 2 linear), BORDER_COLOR_TYPE `[21:20]`,
//!   DEPTH_COMPARE_FUNCTION `[24:22]`; WORD1 MIN_LOD `[11:0]`, MAX_LOD `[23:12]` (unsigned 4.6
//!   fixed point, Mesa `S_FIXED(x, 6)`). Word 3 is reserved (0) and words 4-7 are the border
//!   colour R, G, B, A (f32 bits, or integers for INT formats) that hardware keeps in the
//!   TD_*_SAMPLER*_BORDER_* registers; they are used when BORDER_COLOR_TYPE is 3.
//!
//! An address of 0 means nothing is bound: the instruction traps (a guest fault naming it).
//! A resource this module does not implement (TYPE invalid; DIM MSAA; a tiled ARRAY_MODE
//! (>= 2); BASE_LEVEL above LAST_LEVEL; an
//! unlisted DATA_FORMAT; NUM_FORMAT_ALL 3; FORMAT_COMP 2/3 (biased); a reserved DST_SEL; a
//! buffer with STRIDE 0 or an ENDIAN_SWAP, or read by anything but LD; a cube map read by
//! LD) or sampler (filters other than point/bilinear, Z_FILTER 3, MIP_FILTER 3; a depth
//! compare on an INT format; a cube map without WORD2 DISABLE_CUBE_WRAP) traps too.
//! WORD5's BASE_ARRAY/LAST_ARRAY are not read: an array's slices are 0..=TEX_DEPTH.
//!
//! # Addressing and mip levels
//! Texel `(x, y, z)` of level `l` is at `A(l) + ((z * rows(l) + y) * pitch(l) + x) * bytes`
//! (`bytes` the element size of the format; `z` the slice of a 3D level or an array); every
//! access is a checked global access (an unmapped texel is a guest fault). The level layout
//! is Mesa's for linear textures (libdrm radeon_surface.c `r6_surface_init_linear_aligned`,
//! `surf_minify`, `mip_minify`; the Linux radeon CS checker `evergreen_cs_track_validate_texture`
//! walks the same sizes; Mesa evergreen_state.c puts level BASE_LEVEL in BASE_ADDRESS and
//! level 1 in MIP_ADDRESS): with `W, H, D` the level-0 sizes and `p2` rounding up to a power
//! of two,
//! - level sizes `max(1, W >> l)`, `max(1, H >> l)` (1D: 1), `max(1, D >> l)` for 3D, the
//!   slice count `D` for arrays;
//! - `pitch(BASE_LEVEL) = (PITCH + 1) * 8`; other levels `align(p2(max(1, W >> l)), a)`
//!   with `a = max(64, 256 / bytes)` for ARRAY_LINEAR_ALIGNED (1; libdrm's `xalign` with the
//!   256-byte group size of Evergreen/Cayman) and `a = 1` for ARRAY_LINEAR_GENERAL (0; the
//!   kernel checker's `palign`: libdrm aligns LINEAR_GENERAL levels further, but Mesa only
//!   creates linear textures as LINEAR_ALIGNED);
//! - `rows(0) = H`, `rows(l) = p2(max(1, H >> l))`; slices per level: 3D `D` at level 0
//!   and `p2(max(1, D >> l))` above, arrays `D`, otherwise 1;
//! - `A(BASE_LEVEL) = BASE_ADDRESS * 256`; a level `l > BASE_LEVEL` is at
//!   `MIP_ADDRESS * 256 + Σ_{1 <= k < l} pitch(k) * rows(k) * slices(k) * bytes` (levels
//!   follow each other unaligned after level 1, as libdrm packs them).
//!
//! # Formats
//! DATA_FORMAT (the r600 `FMT_*` numbers, notes/hd6900_il_extraction_issues.md item 11) maps
//! onto [`wavejit_ir::DataFormat`] ([`TEX_FORMATS`]); r600 names list fields from the most
//! significant one like GCN's (Mesa r600_translate_texformat maps R11G11B10_FLOAT to
//! FMT_10_11_11_FLOAT, GCN's `10_11_11`). `*_FLOAT` formats read as FLOAT; otherwise each
//! element component `c` has the number format of NUM_FORMAT_ALL (0 NORM, 1 INT, 2 SCALED)
//! and FORMAT_COMP_c (0 unsigned, 1 signed), with SRF_MODE_ALL 1 (NO_ZERO) turning SNORM
//! into the OpenGL rule ([`wavejit_ir::NumFormat::SnormOgl`]). Each component is one
//! `load_format` of the element with that component's format code (a uniform value computed
//! from the words), so the conversions are [`wavejit_ir::ElemFormat::load`]'s. The
//! resource's DST_SEL (0-3 a component, 4 zero, 5 one) is applied after filtering (filtering
//! is per component, so the order does not matter), then the instruction's DST_SEL.
//! "One" is integer 1 for INT formats and 1.0f otherwise (as for vertex fetches).
//!
//! # Sampling (SAMPLE*, see `sample`), LOD (see `lod`), GATHER4* (see `gather`)
//! Coordinates are SRC_SEL'd source components: x; x, y (2D); x, y, z (3D). Arrays take
//! their slice from z (Mesa r600_shader.c `tgsi_tex` moves a 1D array's layer from y to z
//! and marks z unnormalized for both array kinds): `clamp(floor(u + 0.5), 0, D - 1)`,
//! OpenGL 4.6 §8.14.2's layer rule, `u = z * D` when COORD_TYPE_Z is normalized, else `z`;
//! the slice is never filtered or minified. SAMPLE_C_L and SAMPLE_C_LB hold their compare
//! reference in z, and a 1D array's slice then comes from y (with COORD_TYPE_Y; `tgsi_tex`
//! reads the array index from Y for these two only); 2D arrays, cube maps and 3D textures
//! have no component left and trap with them (`sample`, "Depth compare").
//!
//! # Cube maps and cube arrays
//! A cube map (DIM 3) holds `L = TEX_DEPTH + 1` layers of six faces each, slice `6 * layer +
//! face`, the faces in CUBE's face-id order: Mesa lays a cube array out as a 2D array of
//! `6 L` slices and writes TEX_DEPTH = `array_size / 6 - 1` (evergreen_state.c
//! `evergreen_create_sampler_view_custom`), a plain cube map being `L = 1`. Its TEX source
//! is what Mesa feeds it after the CUBE ALU op (sfn_nir_lower_tex.cpp
//! `r600_nir_lower_cube_to_2darray`; r600_shader.c `tgsi_tex` alike): x and y are the face
//! coordinates `sc / (2 |ma|) + 1.5` and `tc / (2 |ma|) + 1.5`, in [1, 2], and z is
//! `face + 8 * layer` (the face id plus eight times the rounded, non-negative layer; z is
//! never scaled). We read `v = max(floor(z + 0.5), 0)` and sample slice
//! `6 * min(v >> 3, L - 1) + min(v & 7, 5)` as a 2D texture at `(x - 1, y - 1)`, OpenGL's
//! `(s, t)` of the face; the clamps of values Mesa never produces are ours (undocumented).
//! Hardware cube filtering is seamless unless the sampler's WORD2 DISABLE_CUBE_WRAP (bit 29)
//! is set (Mesa sets it for non-seamless samplers); seamless filtering across faces is not
//! implemented, so a cube map needs that bit, and each face then wraps with the sampler's
//! CLAMP modes.
//!
//! # SET_TEXTURE_OFFSETS
//! "Sets texture offsets from a GPR for use with GATHER4_O and GATHER4_C_O": the source's
//! x, y, z (after SRC_SEL) are stored, for the active lanes, in the lane's `texoff` cells
//! ([`super::TsLayout::tex_offset`]; 0 at launch), like SET_GRADIENTS_H/V; it needs no
//! resource. The values are integer texel offsets: Mesa's `tgsi_tex` points the source at
//! the TGSI offset register unchanged and sfn_instr_tex.cpp `emit_set_offsets` at the NIR
//! offset, both whole texels, while the immediate OFFSET fields get the texels shifted left
//! once (half texels, `get_offset`). GATHER4_O/GATHER4_C_O add them (as f32) where the
//! immediate offsets go (`sample`, step 1). Mesa keeps them in [-8, 7] (r600_pipe.c's
//! gather offset caps); larger values follow the same formula, which the document does not
//! confirm.
//!
//! # Unsupported at lift time
//! GET_NUMBER_OF_SAMPLES (Mesa reads the count from W, sfn `emit_tex_texture_samples`, and
//! stores log2 of an MSAA resource's sample count in LAST_LEVEL, but what a single-sample
//! resource returns is not documented and MSAA resources are not implemented),
//! SRC_REL/DST_REL, ALT_CONST, RESOURCE/SAMPLER_INDEX_MODE, INST_MOD on LD (LDFPTR), the
//! reserved SRC_SEL 6/7 and DST_SEL 6.
use super::{LiftError, Lifter};
use crate::inst::{bits, FetchInst};
use crate::tables::FetchOp;
use wavejit_ir::{DataFormat, IntCC, MemSpace, MemWidth, Op, ScalarType, TrapKind, Value};

mod gather;
mod ir;
mod ld;
mod lod;
mod resource;
mod sample;

use ScalarType::{F32, I1, I32, I64};

/// Bytes of one resource slot (eight words).
pub const RESOURCE_BYTES: u64 = 32;
/// Bytes of one sampler slot (three sampler words, a reserved word, a border colour).
pub const SAMPLER_BYTES: u64 = 32;

/// The r600 texture DATA_FORMATs this module reads: (FMT number, data format, `*_FLOAT`).
pub const TEX_FORMATS: [(u32, DataFormat, bool); 23] = [
    (1, DataFormat::D8, false),
    (5, DataFormat::D16, false),
    (6, DataFormat::D16, true),
    (7, DataFormat::D8_8, false),
    (13, DataFormat::D32, false),
    (14, DataFormat::D32, true),
    (15, DataFormat::D16_16, false),
    (16, DataFormat::D16_16, true),
    (21, DataFormat::D10_11_11, false),
    (22, DataFormat::D10_11_11, true),
    (23, DataFormat::D11_11_10, false),
    (24, DataFormat::D11_11_10, true),
    (25, DataFormat::D2_10_10_10, false),
    (26, DataFormat::D8_8_8_8, false),
    (27, DataFormat::D10_10_10_2, false),
    (29, DataFormat::D32_32, false),
    (30, DataFormat::D32_32, true),
    (31, DataFormat::D16_16_16_16, false),
    (32, DataFormat::D16_16_16_16, true),
    (34, DataFormat::D32_32_32_32, false),
    (35, DataFormat::D32_32_32_32, true),
    (47, DataFormat::D32_32_32, false),
    (48, DataFormat::D32_32_32, true),
];

/// Whether `op` is a TEX_INST (TEX_WORD0 layout), as opposed to a vertex or memory fetch.
pub fn is_tex(op: FetchOp) -> bool {
    use FetchOp::*;
    matches!(
        op,
        TEX_LD
            | TEX_GET_TEXTURE_RESINFO
            | TEX_GET_NUMBER_OF_SAMPLES
            | TEX_GET_COMP_TEX_LOD
            | TEX_GET_GRADIENTS_H
            | TEX_GET_GRADIENTS_V
            | TEX_SET_TEXTURE_OFFSETS
            | TEX_KEEP_GRADIENTS
            | TEX_SET_GRADIENTS_H
            | TEX_SET_GRADIENTS_V
            | TEX_SAMPLE
            | TEX_SAMPLE_L
            | TEX_SAMPLE_LB
            | TEX_SAMPLE_LZ
            | TEX_SAMPLE_G
            | TEX_GATHER4
            | TEX_SAMPLE_G_LB
            | TEX_GATHER4_O
            | TEX_SAMPLE_C
            | TEX_SAMPLE_C_L
            | TEX_SAMPLE_C_LB
            | TEX_SAMPLE_C_LZ
            | TEX_SAMPLE_C_G
            | TEX_GATHER4_C
            | TEX_SAMPLE_C_G_LB
            | TEX_GATHER4_C_O
    )
}

/// Where a sample's LOD comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LodSrc {
    /// SAMPLE_LZ, SAMPLE_C_LZ: 0 (and no LOD_BIAS).
    Zero,
    /// SAMPLE_L, SAMPLE_C_L: src.w.
    Explicit,
    /// SAMPLE, SAMPLE_C: derivatives of the coordinates across the 2x2 quad.
    Quad,
    /// SAMPLE_LB, SAMPLE_C_LB: `Quad` plus the bias in src.w.
    Bias,
    /// SAMPLE_G, SAMPLE_G_LB, SAMPLE_C_G, SAMPLE_C_G_LB: the stored SET_GRADIENTS_H/V.
    Gradients,
}

/// TEX_INST values this module lifts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ld,
    ResInfo,
    Sample {
        lod: LodSrc,
        compare: bool,
    },
    /// GATHER4 (component INST_MOD), GATHER4_C; `offsets`: GATHER4_O/GATHER4_C_O, whose
    /// texel offsets are the lane's stored SET_TEXTURE_OFFSETS values.
    Gather {
        compare: bool,
        offsets: bool,
    },
    /// GET_GRADIENTS_H (`v` false) / _V; INST_MOD 1 asks for fine derivatives.
    GetGradients {
        v: bool,
    },
    SetGradients {
        v: bool,
    },
    /// SET_TEXTURE_OFFSETS.
    SetOffsets,
    /// KEEP_GRADIENTS.
    KeepGradients,
    /// GET_COMP_TEX_LOD.
    GetLod,
}

impl Kind {
    /// SAMPLE_C_L and SAMPLE_C_LB, whose compare reference is src.z (`sample`).
    fn reference_in_z(self) -> bool {
        matches!(
            self,
            Kind::Sample {
                lod: LodSrc::Explicit | LodSrc::Bias,
                compare: true
            }
        )
    }
}

/// The decoded TEX words.
struct Tex {
    kind: Kind,
    inst_mod: u32,
    /// RESOURCE_ID and SAMPLER_ID with their index modes (see `index`).
    resource: (u32, u8),
    sampler: (u32, u8),
    src_gpr: u32,
    src_sel: [u32; 4],
    dst_gpr: u32,
    dst_sel: [u32; 4],
    lod_bias: i32,
    normalized: [bool; 3],
    offset: [i32; 3],
}

fn sext5(v: u32) -> i32 {
    ((v << 27) as i32) >> 27
}

impl Lifter<'_> {
    /// Lifts one TEX instruction at clause address `at`.
    pub fn lift_tex(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let text = format!("{} R{}, #{}", f.op.name(), f.dst_gpr(), f.buffer_id());
        let t = self.decode_tex(cf, at, f, &text)?;
        match t.kind {
            Kind::GetGradients { v } => {
                self.tex_get_gradients(&t, v);
                return Ok(());
            }
            Kind::SetGradients { v } => {
                self.tex_set_gradients(&t, v);
                return Ok(());
            }
            Kind::SetOffsets => {
                self.tex_set_offsets(&t);
                return Ok(());
            }
            Kind::KeepGradients => {
                self.tex_keep_gradients(&t);
                if t.dst_sel.iter().all(|&s| s > 3) {
                    let one = self.b.i32(1f32.to_bits());
                    let z = self.b.i32(0);
                    self.tex_write_raw(&t, [z; 4], one);
                    return Ok(());
                }
            }
            _ => {}
        }
        self.require_table(
            self.l.tex_resources(),
            &text,
            "no texture resource table is bound",
        );
        let sampled = !matches!(t.kind, Kind::Ld | Kind::ResInfo);
        if sampled {
            self.require_table(self.l.tex_samplers(), &text, "no sampler table is bound");
        }
        let r = self.resource(t.resource);
        let mut bad = self.b.op(Op::Not, I1, &[r.ok]);
        if t.kind != Kind::Ld {
            bad = self.b.op(Op::Or, I1, &[bad, r.is_buf]);
        } else {
            bad = self.b.op(Op::Or, I1, &[bad, r.is_cube]);
        }
        if sampled {
            let s = self.sampler(t.sampler);
            let nok = self.b.op(Op::Not, I1, &[s.ok]);
            bad = self.b.op(Op::Or, I1, &[bad, nok]);
            let compare = matches!(
                t.kind,
                Kind::Sample { compare: true, .. } | Kind::Gather { compare: true, .. }
            );
            if compare {
                bad = self.b.op(Op::Or, I1, &[bad, r.is_int]);
            }
            if t.kind.reference_in_z() {
                // SAMPLE_C_L/C_LB hold the reference in z: no component is left for the
                // slice of a 2D array or a cube map, or for a 3D texture's z (`sample`).
                for dim in [2, 3, 5] {
                    let k = self.b.i32(dim);
                    let e = self.b.op(Op::Icmp(IntCC::Eq), I1, &[r.dim, k]);
                    bad = self.b.op(Op::Or, I1, &[bad, e]);
                }
            }
            // Cube maps only with DISABLE_CUBE_WRAP (faces filtered on their own).
            let wrap_on = self.b.op(Op::Not, I1, &[s.cube_wrap_off]);
            let seamless = self.b.op(Op::And, I1, &[r.is_cube, wrap_on]);
            bad = self.b.op(Op::Or, I1, &[bad, seamless]);
            if matches!(t.kind, Kind::Gather { .. }) {
                // GATHER4 reads a 2x2 footprint: 1D/2D textures and arrays, not 3D.
                let is3d = self.b.i32(2);
                let is3d = self.b.op(Op::Icmp(IntCC::Eq), I1, &[r.dim, is3d]);
                bad = self.b.op(Op::Or, I1, &[bad, is3d]);
            }
        }
        self.check(
            bad,
            TrapKind::Explicit(format!(
                "{text}: the resource or sampler is not one wavejit implements (a linear \
                 1D/2D/3D texture or array, or a buffer for LD, of a supported format; \
                 point/bilinear filtering, mip filter none/point/linear)"
            )),
        );
        match t.kind {
            Kind::ResInfo => self.tex_resinfo(&t),
            Kind::Ld => self.tex_ld(&t),
            Kind::Sample { lod, compare } => self.tex_sample(&t, lod, compare),
            Kind::Gather { compare, .. } => self.tex_gather(&t, compare),
            Kind::GetLod => self.tex_get_lod(&t),
            Kind::KeepGradients => {
                // Values do not cross the check's block boundary: read the words again.
                let r = self.resource(t.resource);
                let s = self.sampler(t.sampler);
                let b = self.border_color(&t, &r, &s);
                self.tex_write(&t, &r, b);
            }
            Kind::GetGradients { .. } | Kind::SetGradients { .. } | Kind::SetOffsets => {
                unreachable!()
            }
        }
        Ok(())
    }

    fn decode_tex(&self, cf: u32, at: u32, f: &FetchInst, text: &str) -> Result<Tex, LiftError> {
        use FetchOp::*;
        let un = |why: &str| self.unsupported(cf, at, text.to_string(), why);
        let sample = |lod, compare| Kind::Sample { lod, compare };
        let kind = match f.op {
            TEX_LD => Kind::Ld,
            TEX_GET_TEXTURE_RESINFO => Kind::ResInfo,
            TEX_SAMPLE_LZ => sample(LodSrc::Zero, false),
            TEX_SAMPLE_L => sample(LodSrc::Explicit, false),
            TEX_SAMPLE => sample(LodSrc::Quad, false),
            TEX_SAMPLE_LB => sample(LodSrc::Bias, false),
            TEX_SAMPLE_G | TEX_SAMPLE_G_LB => sample(LodSrc::Gradients, false),
            TEX_SAMPLE_C => sample(LodSrc::Quad, true),
            TEX_SAMPLE_C_L => sample(LodSrc::Explicit, true),
            TEX_SAMPLE_C_LB => sample(LodSrc::Bias, true),
            TEX_SAMPLE_C_LZ => sample(LodSrc::Zero, true),
            TEX_SAMPLE_C_G | TEX_SAMPLE_C_G_LB => sample(LodSrc::Gradients, true),
            TEX_GATHER4 | TEX_GATHER4_O | TEX_GATHER4_C | TEX_GATHER4_C_O => Kind::Gather {
                compare: matches!(f.op, TEX_GATHER4_C | TEX_GATHER4_C_O),
                offsets: matches!(f.op, TEX_GATHER4_O | TEX_GATHER4_C_O),
            },
            TEX_SET_TEXTURE_OFFSETS => Kind::SetOffsets,
            TEX_GET_GRADIENTS_H => Kind::GetGradients { v: false },
            TEX_GET_GRADIENTS_V => Kind::GetGradients { v: true },
            TEX_SET_GRADIENTS_H => Kind::SetGradients { v: false },
            TEX_SET_GRADIENTS_V => Kind::SetGradients { v: true },
            TEX_KEEP_GRADIENTS => Kind::KeepGradients,
            TEX_GET_COMP_TEX_LOD => Kind::GetLod,
            TEX_GET_NUMBER_OF_SAMPLES => {
                return Err(un(
                    "GET_NUMBER_OF_SAMPLES: what a single-sample resource returns is not \
                     documented (MSAA resources are not implemented)",
                ))
            }
            _ => return Err(un("not a TEX instruction")),
        };
        let [w0, w1, w2] = f.words;
        if bits(w0, 23, 1) != 0 || bits(w1, 7, 1) != 0 {
            return Err(un("relative GPR addressing in a fetch"));
        }
        if bits(w0, 24, 1) != 0 {
            return Err(un("ALT_CONST"));
        }
        if bits(w0, 25, 2) == 3 || bits(w0, 27, 2) == 3 {
            return Err(self.invalid(cf, at, text.to_string(), "index mode 3"));
        }
        let inst_mod = bits(w0, 5, 2);
        if kind == Kind::Ld && inst_mod != 0 {
            return Err(un("LD with INST_MOD (LDFPTR)"));
        }
        let offset = [
            sext5(bits(w2, 0, 5)),
            sext5(bits(w2, 5, 5)),
            sext5(bits(w2, 10, 5)),
        ];
        if kind == Kind::Ld && offset != [0; 3] {
            return Err(un(
                "offsets on LD (their unit for integer coordinates is undocumented)",
            ));
        }
        let src_sel = [20, 23, 26, 29].map(|lo| bits(w2, lo, 3));
        if src_sel.iter().any(|&s| s > 5) {
            return Err(self.invalid(cf, at, text.to_string(), "reserved SRC_SEL 6/7"));
        }
        let dst_sel = [9, 12, 15, 18].map(|lo| bits(w1, lo, 3));
        if dst_sel.contains(&6) {
            return Err(self.invalid(cf, at, text.to_string(), "reserved DST_SEL 6"));
        }
        Ok(Tex {
            kind,
            inst_mod,
            resource: (bits(w0, 8, 8), bits(w0, 25, 2) as u8),
            sampler: (bits(w2, 15, 5), bits(w0, 27, 2) as u8),
            src_gpr: bits(w0, 16, 7),
            src_sel,
            dst_gpr: bits(w1, 0, 7),
            dst_sel,
            lod_bias: ((bits(w1, 21, 7) << 25) as i32) >> 25,
            normalized: [
                bits(w1, 28, 1) != 0,
                bits(w1, 29, 1) != 0,
                bits(w1, 30, 1) != 0,
            ],
            offset,
        })
    }

    /// Traps with `why` unless the table address in `reg` is nonzero.
    pub(super) fn require_table(&mut self, reg: wavejit_ir::Reg, text: &str, why: &str) {
        let a = self.b.use_reg(reg, I64);
        let z = self.b.i64(0);
        let none = self.b.op(Op::Icmp(IntCC::Eq), I1, &[a, z]);
        self.check(none, TrapKind::Explicit(format!("{text}: {why}")));
    }

    /// Word `k` of slot `id` (a number and its index mode) of the table in `reg` (slots of
    /// `slot` bytes).
    fn table_word(&mut self, reg: wavejit_ir::Reg, slot: u64, id: (u32, u8), k: u64) -> Value {
        let base = self.b.use_reg(reg, I64);
        let id = self
            .indexed_id(id.0, id.1)
            .expect("decode_tex rejects index mode 3");
        let id = self.b.op(Op::Zext, I64, &[id]);
        let sk = self.b.i64(slot);
        let off = self.b.op(Op::Imul, I64, &[id, sk]);
        let kk = self.b.i64(4 * k);
        let off = self.b.op(Op::Iadd, I64, &[off, kk]);
        let a = self.b.op(Op::Iadd, I64, &[base, off]);
        self.b
            .load(MemSpace::Global, MemWidth::B32, false, I32, a, None)
    }

    /// Source component `k` (after SRC_SEL) as a dword, lane-shaped even when SRC_SEL names a
    /// constant: texel addresses, quad derivatives and masked loads are per lane.
    fn tex_src(&mut self, t: &Tex, k: usize) -> Value {
        let v = match t.src_sel[k] {
            s @ 0..=3 => {
                let r = self.l.gpr(t.src_gpr, s);
                self.b.use_reg(r, I32)
            }
            4 => self.b.i32(0),
            _ => self.b.i32(1f32.to_bits()),
        };
        self.b.splat(v)
    }

    fn tex_srcf(&mut self, t: &Tex, k: usize) -> Value {
        let v = self.tex_src(t, k);
        self.b.op(Op::Bitcast, F32, &[v])
    }

    /// Writes `e` through the instruction's DST_SEL (4 zero, 5 `one`, 7 masked) to the
    /// destination GPR, for the active lanes.
    fn tex_write_raw(&mut self, t: &Tex, e: [Value; 4], one: Value) {
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        for (c, &s) in t.dst_sel.iter().enumerate() {
            let v = match s {
                0..=3 => e[s as usize],
                4 => self.b.i32(0),
                5 => one,
                _ => continue,
            };
            let reg = self.l.gpr(t.dst_gpr, c as u32);
            self.b.def_reg(reg, v, Some(lanes));
        }
    }
}
