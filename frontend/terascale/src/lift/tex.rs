//! Texture-fetch instructions in fetch clauses (TEX_WORD0-2; seed 000 chapter 5 L2088-L2126,
//! 8.3 L7119-L7663, 9.4 L9525-L9676; notes/hd6900_map.md §5): SAMPLE_LZ, SAMPLE_L, LD and
//! GET_TEXTURE_RESINFO on linear 1D, 2D and 3D textures, lifted to plain IR: coordinate
//! arithmetic, texel addresses, one `load_format` per texel component and the filter blend.
//!
//! # Launch convention (compute launches bind no textures, so wavejit defines one)
//! The `tex` uniform cells of [`super::TsLayout`] hold two guest addresses the launcher fills:
//! - `tex_resources`: a table of [`RESOURCE_BYTES`]-byte slots indexed by RESOURCE_ID; slot
//!   `i` holds the eight words SQ_TEX_RESOURCE_WORD0..7 of resource `i` in Mesa's layout
//!   (evergreend.h `R_030000`..`R_03001C`), so a real descriptor works unchanged:
//!   WORD0 DIM [2:0], PITCH [17:6] (`texels / 8 - 1`), TEX_WIDTH [31:18] (`width - 1`);
//!   WORD1 TEX_HEIGHT [13:0], TEX_DEPTH [26:14] (`- 1`), ARRAY_MODE [31:28]; WORD2
//!   BASE_ADDRESS (`byte address >> 8`); WORD4 FORMAT_COMP_X..W (2 bits each from bit 0),
//!   NUM_FORMAT_ALL [9:8], SRF_MODE_ALL 10, DST_SEL_X..W [18:16]..[27:25], BASE_LEVEL [31:28];
//!   WORD5 LAST_LEVEL [3:0]; WORD7 DATA_FORMAT [5:0], TYPE [31:30] (2 = valid texture).
//!   A slot with TYPE 3 (valid buffer) is a buffer in the SQ_VTX_CONSTANT layout Mesa writes
//!   for texture buffers (evergreen_state.c `evergreen_fill_buffer_resource_words`): WORD0
//!   the byte address's low 32 bits, WORD1 SIZE (`bytes - 1`), WORD2 BASE_ADDRESS_HI [7:0],
//!   STRIDE [18:8], DATA_FORMAT [25:20], NUM_FORMAT_ALL [27:26], FORMAT_COMP_ALL 28,
//!   SRF_MODE_ALL 29, ENDIAN_SWAP [31:30]; WORD3 DST_SEL_X..W [5:3]..[14:12]. Only LD reads
//!   buffers (element X at `address + X * STRIDE`).
//! - `tex_samplers`: a table of [`SAMPLER_BYTES`]-byte slots indexed by SAMPLER_ID; words 0-2
//!   are SQ_TEX_SAMPLER_WORD0..2 (evergreend.h `R_03C000`..`R_03C008`): WORD0 CLAMP_X/Y/Z
//!   (3 bits each from bit 0), XY_MAG_FILTER [10:9], XY_MIN_FILTER [12:11], Z_FILTER [14:13],
//!   MIP_FILTER [16:15], BORDER_COLOR_TYPE [21:20]; WORD1 MIN_LOD [11:0], MAX_LOD [23:12]
//!   (unsigned 4.6 fixed point, Mesa `S_FIXED(x, 6)`). Word 3 is reserved (0) and words 4-7
//!   are the border colour R, G, B, A (f32 bits, or integers for INT formats) that hardware
//!   keeps in the TD_*_SAMPLER*_BORDER_* registers; they are used when BORDER_COLOR_TYPE is 3.
//!
//! An address of 0 means nothing is bound: the instruction traps (a guest fault naming it).
//! A resource this module does not implement (TYPE invalid, DIM other than 1D/2D/3D, a
//! tiled ARRAY_MODE (>= 2), BASE_LEVEL other than 0, an unlisted DATA_FORMAT,
//! NUM_FORMAT_ALL 3, FORMAT_COMP 2/3 (biased), a reserved DST_SEL; a buffer with STRIDE 0 or
//! an ENDIAN_SWAP, or read by anything but LD) or sampler
//! (filters other than point/bilinear, Z_FILTER 3) traps too, as does a lane that would read
//! a mip level other than 0.
//!
//! # Addressing
//! Texel `(x, y, z)` of a linear texture is at `BASE_ADDRESS * 256 + ((z * height + y) *
//! pitch + x) * bytes`, with `pitch = (PITCH + 1) * 8` texels and `bytes` the element size of
//! the format; every access is a checked global access (an unmapped texel is a guest fault).
//! Level 0 only: mip levels would need Mesa's level offsets (WORD3 MIP_ADDRESS plus the
//! per-level alignment rules), so a lane whose LOD selects a level above 0 traps (SAMPLE_L
//! with LOD > 0, a mip filter other than NONE and LAST_LEVEL > 0; LD with W != 0).
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
//! # Sampling (SAMPLE_LZ, SAMPLE_L)
//! Per axis used by DIM (x; x, y; x, y, z) with size `n`:
//! 1. `u = s * n` (COORD_TYPE normalized) or `u = s` (unnormalized: "[0, dim)", L9640), in
//!    f32, then `+ OFFSET / 2`: OFFSET is a 5-bit signed field documented as "ranging from
//!    [-8, 8)" (L9652), i.e. half-texel units.
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
//! 5. The filter: LOD `λ` is 0 (SAMPLE_LZ) or `src.w + LOD_BIAS / 16` (SAMPLE_L; LOD_BIAS is
//!    S3.4, L9634), clamped to [MIN_LOD, MAX_LOD]; `λ > 0` minifies (XY_MIN_FILTER), else
//!    magnifies (XY_MAG_FILTER); a NaN `λ` magnifies. The sampler's WORD2 LOD_BIAS is not
//!    applied (not implemented: its fixed-point scale was not confirmed for Evergreen). The z axis of a 3D texture filters
//!    linearly only with Z_FILTER 2 (LINEAR); NONE and POINT sample one slice (Mesa's r600
//!    driver leaves Z_FILTER at NONE; the document defines no other meaning). INT formats
//!    are never filtered.
//! 6. The blend is separable, x then y then z, each step `a * (1 - w) + b * w` in f32 with
//!    denormal flushing ([`super::F32_MODE`]); the weights are exact. The hardware's
//!    filter arithmetic is not documented; this is the OpenGL weighted sum evaluated in a
//!    fixed order. A zero weight still multiplies (so an infinite neighbour gives NaN, as the
//!    formula does).
//! 7. Border colours: BORDER_COLOR_TYPE 0 (0, 0, 0, 0), 1 (0, 0, 0, one), 2 (one x4), 3 the
//!    sampler slot's words 4-7. They replace the texel's four components before the DST_SEL
//!    swizzles.
//!
//! # LD
//! X, Y, Z are unsigned texel indices (SRC_SEL constants are the bits of 0.0 and 1.0); W is
//! the LOD (must be 0, see above). An index outside the texture reads 0 in every component
//! (the D3D10 `ld` rule; the ISA document is silent). On a buffer, X is the element index and
//! the elements are those that fit whole in SIZE + 1 bytes (outside reads 0, D3D10's
//! out-of-bounds buffer rule). OFFSET fields on LD are unsupported at
//! lift time: their unit for integer coordinates is not documented.
//!
//! # GET_TEXTURE_RESINFO
//! With `l = min(src.x, 31)` (an unsigned LOD): x = `max(1, width >> l)`,
//! y = `max(1, height >> l)`, z = `max(1, depth >> l)` for 3D and `depth` otherwise,
//! w = `LAST_LEVEL - BASE_LEVEL + 1`, all integers (Mesa's TXQ uses the results as integers).
//! The document only says "width, height, depth, and number of mipmap levels" (L9539).
//!
//! # Unsupported at lift time
//! The other TEX_INSTs (gradients, SAMPLE/SAMPLE_LB/SAMPLE_G*, the _C compares, GATHER4*),
//! SRC_REL/DST_REL, ALT_CONST, RESOURCE/SAMPLER_INDEX_MODE, INST_MOD on LD (LDFPTR), the
//! reserved SRC_SEL 6/7 and DST_SEL 6.
use super::{LiftError, Lifter, F32_MODE};
use crate::inst::{bits, FetchInst};
use crate::tables::FetchOp;
use wavejit_ir::{
    DataFormat, FloatCC, FormatSrc, FunctionBuilder, IntCC, MemSpace, MemWidth, Op, ScalarType,
    TrapKind, Value,
};

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

/// TEX_INST values this module lifts.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ld,
    ResInfo,
    /// SAMPLE_LZ (`true`) or SAMPLE_L.
    Sample {
        lz: bool,
    },
}

/// The decoded TEX words.
struct Tex {
    kind: Kind,
    resource: u32,
    sampler: u32,
    src_gpr: u32,
    src_sel: [u32; 4],
    dst_gpr: u32,
    dst_sel: [u32; 4],
    lod_bias: i32,
    normalized: [bool; 3],
    offset: [i32; 3],
}

/// A resource slot's fields (uniform values).
struct Res {
    dim: Value,
    size: [Value; 3],
    pitch: Value,
    base: Value,
    /// Bytes from one element to the next along x (the format's size; a buffer's STRIDE).
    bytes: Value,
    is_int: Value,
    /// A buffer resource (TYPE 3, SQ_VTX_CONSTANT layout).
    is_buf: Value,
    /// The `load_format` code of element component `c` (identity swizzle).
    code: [Value; 4],
    dst_sel: [Value; 4],
    levels: Value,
    /// Whether this module implements the resource.
    ok: Value,
}

/// A sampler slot's fields (uniform values).
struct Smp {
    clamp: [Value; 3],
    mag: Value,
    min: Value,
    z_linear: Value,
    mip: Value,
    min_lod: Value,
    max_lod: Value,
    border_type: Value,
    ok: Value,
}

/// One axis of a sample, per lane.
struct Axis {
    i: [Value; 2],
    border: [Value; 2],
    w: Value,
    linear: Value,
}

fn sext5(v: u32) -> i32 {
    ((v << 27) as i32) >> 27
}

/// Small IR helpers over the builder.
struct Ir<'a>(&'a mut FunctionBuilder);

impl Ir<'_> {
    fn k(&mut self, v: u32) -> Value {
        self.0.i32(v)
    }
    fn op(&mut self, op: Op, ty: ScalarType, a: &[Value]) -> Value {
        self.0.op(op, ty, a)
    }
    fn field(&mut self, w: Value, lo: u32, n: u32) -> Value {
        let (l, m) = (self.k(lo), self.k((1u32 << n) - 1));
        let s = self.op(Op::Lshr, I32, &[w, l]);
        self.op(Op::And, I32, &[s, m])
    }
    fn icmp(&mut self, cc: IntCC, a: Value, b: Value) -> Value {
        self.op(Op::Icmp(cc), I1, &[a, b])
    }
    fn eqk(&mut self, a: Value, k: u32) -> Value {
        let k = self.k(k);
        self.icmp(IntCC::Eq, a, k)
    }
    fn sel(&mut self, c: Value, a: Value, b: Value) -> Value {
        let ty = self.0.ty(a).scalar;
        self.op(Op::Select, ty, &[c, a, b])
    }
    fn and(&mut self, a: Value, b: Value) -> Value {
        self.op(Op::And, I1, &[a, b])
    }
    fn or(&mut self, a: Value, b: Value) -> Value {
        self.op(Op::Or, I1, &[a, b])
    }
    fn not(&mut self, a: Value) -> Value {
        self.op(Op::Not, I1, &[a])
    }
    fn add(&mut self, a: Value, b: Value) -> Value {
        self.op(Op::Iadd, I32, &[a, b])
    }
    fn addk(&mut self, a: Value, k: u32) -> Value {
        let k = self.k(k);
        self.add(a, k)
    }
    fn f(&mut self, op: Op, a: &[Value]) -> Value {
        self.0.op_mode(op, F32_MODE, F32, a)
    }
    fn fk(&mut self, v: f32) -> Value {
        self.0.f32(v)
    }
    fn fcmp(&mut self, cc: FloatCC, a: Value, b: Value) -> Value {
        self.0.op_mode(Op::Fcmp(cc), F32_MODE, I1, &[a, b])
    }
    /// `a * (1 - w) + b * w`.
    fn lerp(&mut self, a: Value, b: Value, w: Value) -> Value {
        let one = self.fk(1.0);
        let iw = self.f(Op::Fsub, &[one, w]);
        let pa = self.f(Op::Fmul, &[a, iw]);
        let pb = self.f(Op::Fmul, &[b, w]);
        self.f(Op::Fadd, &[pa, pb])
    }
    /// Euclidean `i mod n` (`n >= 1`).
    fn emod(&mut self, i: Value, n: Value) -> Value {
        let r = self.op(Op::Srem, I32, &[i, n]);
        let zero = self.k(0);
        let neg = self.icmp(IntCC::Slt, r, zero);
        let rn = self.add(r, n);
        self.sel(neg, rn, r)
    }
    /// 1 (INT) or 1.0f.
    fn one(&mut self, is_int: Value) -> Value {
        let (i, f) = (self.k(1), self.k(1f32.to_bits()));
        self.sel(is_int, i, f)
    }
    /// `v[sel]` for sel 0-3, 0 for 4, `one` for 5 (a uniform select).
    fn swizzle(&mut self, v: [Value; 4], sel: Value, one: Value) -> Value {
        let mut r = self.k(0);
        for (k, &x) in [(5, &one), (3, &v[3]), (2, &v[2]), (1, &v[1]), (0, &v[0])] {
            let e = self.eqk(sel, k);
            r = self.sel(e, x, r);
        }
        r
    }
}

impl Lifter<'_> {
    /// Lifts one TEX instruction at clause address `at`.
    pub fn lift_tex(&mut self, cf: u32, at: u32, f: &FetchInst) -> Result<(), LiftError> {
        let text = format!("{} R{}, #{}", f.op.name(), f.dst_gpr(), f.buffer_id());
        let t = self.decode_tex(cf, at, f, &text)?;
        self.require_table(
            self.l.tex_resources(),
            &text,
            "no texture resource table is bound",
        );
        if matches!(t.kind, Kind::Sample { .. }) {
            self.require_table(self.l.tex_samplers(), &text, "no sampler table is bound");
        }
        let r = self.resource(t.resource);
        let mut bad = self.b.op(Op::Not, I1, &[r.ok]);
        if t.kind != Kind::Ld {
            bad = self.b.op(Op::Or, I1, &[bad, r.is_buf]);
        }
        if matches!(t.kind, Kind::Sample { .. }) {
            let s = self.sampler(t.sampler);
            let nok = self.b.op(Op::Not, I1, &[s.ok]);
            bad = self.b.op(Op::Or, I1, &[bad, nok]);
        }
        self.check(
            bad,
            TrapKind::Explicit(format!(
                "{text}: the resource or sampler is not one wavejit implements (a linear \
                 1D/2D/3D texture at level 0, or a buffer for LD, of a supported format; \
                 point/bilinear filtering)"
            )),
        );
        match t.kind {
            Kind::ResInfo => self.tex_resinfo(&t),
            Kind::Ld => {
                let lod = self.tex_src(&t, 3);
                let zero = self.b.i32(0);
                let deep = self.b.op(Op::Icmp(IntCC::Ne), I1, &[lod, zero]);
                self.trap_if_any(deep, &text, "LD of a mip level other than 0");
                self.tex_ld(&t);
            }
            Kind::Sample { lz } => {
                let deep = {
                    let r = self.resource(t.resource);
                    let s = self.sampler(t.sampler);
                    let lod = self.tex_lod(&t, lz, &s);
                    let mut ir = Ir(&mut self.b);
                    let z = ir.fk(0.0);
                    let minify = ir.fcmp(FloatCC::Gt, lod, z);
                    let mipped = ir.eqk(s.mip, 0);
                    let mipped = ir.not(mipped);
                    let one = ir.k(1);
                    let levels = ir.icmp(IntCC::Ugt, r.levels, one);
                    let u = ir.and(mipped, levels);
                    ir.and(minify, u)
                };
                self.trap_if_any(deep, &text, "sampling a mip level other than 0");
                self.tex_sample(&t, lz);
            }
        }
        Ok(())
    }

    fn decode_tex(&self, cf: u32, at: u32, f: &FetchInst, text: &str) -> Result<Tex, LiftError> {
        let un = |why: &str| self.unsupported(cf, at, text.to_string(), why);
        let kind = match f.op {
            FetchOp::TEX_LD => Kind::Ld,
            FetchOp::TEX_GET_TEXTURE_RESINFO => Kind::ResInfo,
            FetchOp::TEX_SAMPLE_LZ => Kind::Sample { lz: true },
            FetchOp::TEX_SAMPLE_L => Kind::Sample { lz: false },
            _ => return Err(un(
                "TEX instruction not lifted (LD, GET_TEXTURE_RESINFO, SAMPLE_L and SAMPLE_LZ are)",
            )),
        };
        let [w0, w1, w2] = f.words;
        if bits(w0, 23, 1) != 0 || bits(w1, 7, 1) != 0 {
            return Err(un("relative GPR addressing in a fetch"));
        }
        if bits(w0, 24, 1) != 0 {
            return Err(un("ALT_CONST"));
        }
        if bits(w0, 25, 4) != 0 {
            return Err(un("resource or sampler index modes"));
        }
        if kind == Kind::Ld && bits(w0, 5, 2) != 0 {
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
            resource: bits(w0, 8, 8),
            sampler: bits(w2, 15, 5),
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

    /// Traps when any active lane has `cond` set.
    fn trap_if_any(&mut self, cond: Value, text: &str, why: &str) {
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let c = self.b.op(Op::And, I1, &[cond, lanes]);
        let bits = self.b.ballot(c);
        let z = self.b.i64(0);
        let any = self.b.op(Op::Icmp(IntCC::Ne), I1, &[bits, z]);
        self.check(
            any,
            TrapKind::Explicit(format!("{text}: {why} (only level 0 is implemented)")),
        );
    }

    /// Word `k` of slot `id` of the table in `reg` (slots of `slot` bytes).
    fn table_word(&mut self, reg: wavejit_ir::Reg, slot: u64, id: u32, k: u64) -> Value {
        let base = self.b.use_reg(reg, I64);
        let off = self.b.i64(slot * u64::from(id) + 4 * k);
        let a = self.b.op(Op::Iadd, I64, &[base, off]);
        self.b
            .load(MemSpace::Global, MemWidth::B32, false, I32, a, None)
    }

    fn resource(&mut self, id: u32) -> Res {
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
        // GCN number formats: NORM 0/1, SCALED 2/3, INT 4/5 (unsigned/signed).
        let n_int = ir.k(4);
        let n_scaled = ir.k(2);
        let n_norm = ir.k(0);
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
            let k6 = ir.k(6);
            let n = ir.sel(ogl, k6, n);
            let k7 = ir.k(7);
            let n = ir.sel(float, k7, n);
            let k15 = ir.k(15);
            let d = ir.op(Op::Shl, I32, &[data, k15]);
            let k12 = ir.k(12);
            let nn = ir.op(Op::Shl, I32, &[n, k12]);
            let identity = ir.k(4 | 5 << 3 | 6 << 6 | 7 << 9);
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
        let last_level = ir.field(w[5], 0, 4);
        let lv = ir.op(Op::Isub, I32, &[last_level, base_level]);
        let lv = ir.addk(lv, 1);
        let levels = ir.sel(is_buf, one, lv);
        let (k0, k1, k2) = (ir.k(0), ir.k(1), ir.k(2));
        let is_tex = ir.eqk(ty, 2);
        let tex_ok = [
            ir.icmp(IntCC::Ule, tdim, k2),
            ir.icmp(IntCC::Ule, array_mode, k1),
            ir.eqk(base_level, 0),
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
        Res {
            dim,
            size,
            pitch,
            base,
            bytes,
            is_int,
            is_buf,
            code,
            dst_sel,
            levels,
            ok,
        }
    }

    fn sampler(&mut self, id: u32) -> Smp {
        let reg = self.l.tex_samplers();
        let w0 = self.table_word(reg, SAMPLER_BYTES, id, 0);
        let w1 = self.table_word(reg, SAMPLER_BYTES, id, 1);
        let mut ir = Ir(&mut self.b);
        let clamp = [0, 3, 6].map(|lo| ir.field(w0, lo, 3));
        let mag = ir.field(w0, 9, 2);
        let min = ir.field(w0, 11, 2);
        let zf = ir.field(w0, 13, 2);
        let mip = ir.field(w0, 15, 2);
        let border_type = ir.field(w0, 20, 2);
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
            ok,
        }
    }

    /// Source component `k` (after SRC_SEL) as a dword.
    fn tex_src(&mut self, t: &Tex, k: usize) -> Value {
        match t.src_sel[k] {
            s @ 0..=3 => {
                let r = self.l.gpr(t.src_gpr, s);
                self.b.use_reg(r, I32)
            }
            4 => self.b.i32(0),
            _ => self.b.i32(1f32.to_bits()),
        }
    }

    fn tex_srcf(&mut self, t: &Tex, k: usize) -> Value {
        let v = self.tex_src(t, k);
        self.b.op(Op::Bitcast, F32, &[v])
    }

    /// The LOD `λ` of a sample (see the module doc).
    fn tex_lod(&mut self, t: &Tex, lz: bool, s: &Smp) -> Value {
        let raw = if lz {
            self.b.f32(0.0)
        } else {
            let w = self.tex_srcf(t, 3);
            let bias = self.b.f32(t.lod_bias as f32 / 16.0);
            self.b.op_mode(Op::Fadd, F32_MODE, F32, &[w, bias])
        };
        let mut ir = Ir(&mut self.b);
        let lo = ir.fcmp(FloatCC::Lt, raw, s.min_lod);
        let v = ir.sel(lo, s.min_lod, raw);
        let hi = ir.fcmp(FloatCC::Gt, v, s.max_lod);
        ir.sel(hi, s.max_lod, v)
    }

    /// Writes the four texel components `e` through the resource's and the instruction's
    /// DST_SEL to the destination GPR, for the active lanes.
    fn tex_write(&mut self, t: &Tex, r: &Res, e: [Value; 4], lanes: Value) {
        let mut ir = Ir(&mut self.b);
        let one = ir.one(r.is_int);
        let sw = r.dst_sel.map(|s| ir.swizzle(e, s, one));
        for (c, &s) in t.dst_sel.iter().enumerate() {
            let v = match s {
                0..=3 => sw[s as usize],
                4 => self.b.i32(0),
                5 => one,
                _ => continue,
            };
            let reg = self.l.gpr(t.dst_gpr, c as u32);
            self.b.def_reg(reg, v, Some(lanes));
        }
    }

    /// The address of texel (x, y, z) (lane `i32` indices, each in range or masked off).
    fn texel_addr(&mut self, r: &Res, idx: [Value; 3]) -> Value {
        let b = &mut self.b;
        let [x, y, z] = idx.map(|v| b.op(Op::Zext, I64, &[v]));
        let h = b.op(Op::Zext, I64, &[r.size[1]]);
        let p = b.op(Op::Zext, I64, &[r.pitch]);
        let bytes = b.op(Op::Zext, I64, &[r.bytes]);
        let zh = b.op(Op::Imul, I64, &[z, h]);
        let row = b.op(Op::Iadd, I64, &[zh, y]);
        let rp = b.op(Op::Imul, I64, &[row, p]);
        let e = b.op(Op::Iadd, I64, &[rp, x]);
        let off = b.op(Op::Imul, I64, &[e, bytes]);
        b.op(Op::Iadd, I64, &[r.base, off])
    }

    /// The four components of texel `idx` for the lanes of `mask` (others read 0).
    fn texel(&mut self, r: &Res, idx: [Value; 3], mask: Value) -> [Value; 4] {
        let a = self.texel_addr(r, idx);
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

    fn tex_ld(&mut self, t: &Tex) {
        let r = self.resource(t.resource);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let coords = [0, 1, 2].map(|k| self.tex_src(t, k));
        let mut ir = Ir(&mut self.b);
        let mut inside = lanes;
        let mut idx = coords;
        for a in 0..3 {
            let ka = ir.k(a as u32);
            let used = ir.icmp(IntCC::Uge, r.dim, ka);
            let inr = ir.icmp(IntCC::Ult, coords[a], r.size[a]);
            let zero = ir.k(0);
            idx[a] = ir.sel(used, coords[a], zero);
            let nu = ir.not(used);
            let ok = ir.or(nu, inr);
            inside = ir.and(inside, ok);
        }
        let e = self.texel(&r, idx, inside);
        let mut ir = Ir(&mut self.b);
        let zero = ir.k(0);
        let e = e.map(|v| ir.sel(inside, v, zero));
        self.tex_write(t, &r, e, lanes);
    }

    fn tex_resinfo(&mut self, t: &Tex) {
        let r = self.resource(t.resource);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let lod = self.tex_src(t, 0);
        let mut ir = Ir(&mut self.b);
        let k31 = ir.k(31);
        let l = ir.op(Op::Umin, I32, &[lod, k31]);
        let one = ir.k(1);
        let [w, h, d] = r.size.map(|s| {
            let v = ir.op(Op::Lshr, I32, &[s, l]);
            ir.op(Op::Umax, I32, &[v, one])
        });
        let is3d = ir.eqk(r.dim, 2);
        let z = ir.sel(is3d, d, r.size[2]);
        let e = [w, h, z, r.levels];
        for (c, &s) in t.dst_sel.iter().enumerate() {
            let v = match s {
                0..=3 => e[s as usize],
                4 => self.b.i32(0),
                5 => self.b.i32(1),
                _ => continue,
            };
            let reg = self.l.gpr(t.dst_gpr, c as u32);
            self.b.def_reg(reg, v, Some(lanes));
        }
    }

    /// One axis of a sample (see the module doc, steps 1-4).
    fn tex_axis(&mut self, t: &Tex, r: &Res, s: &Smp, a: usize, linear_xy: Value) -> Axis {
        let coord = self.tex_srcf(t, a);
        let mut ir = Ir(&mut self.b);
        let n = r.size[a];
        let ka = ir.k(a as u32);
        let used = ir.icmp(IntCC::Uge, r.dim, ka);
        let nf = ir.0.op_mode(Op::UtoF, F32_MODE, F32, &[n]);
        let mut u = if t.normalized[a] {
            ir.f(Op::Fmul, &[coord, nf])
        } else {
            coord
        };
        if t.offset[a] != 0 {
            let o = ir.fk(t.offset[a] as f32 / 2.0);
            u = ir.f(Op::Fadd, &[u, o]);
        }
        let mode = s.clamp[a];
        // Half-border modes clamp the coordinate to [0, n] (|u| for the mirrored one).
        let au = ir.f(Op::Fabs, &[u]);
        let m5 = ir.eqk(mode, 5);
        let hu = ir.sel(m5, au, u);
        let zf = ir.fk(0.0);
        let lt = ir.fcmp(FloatCC::Lt, hu, zf);
        let hu = ir.sel(lt, zf, hu);
        let gt = ir.fcmp(FloatCC::Gt, hu, nf);
        let hu = ir.sel(gt, nf, hu);
        let m4 = ir.eqk(mode, 4);
        let half = ir.or(m4, m5);
        let u = ir.sel(half, hu, u);
        let linear = if a == 2 { s.z_linear } else { linear_xy };
        let not_int = ir.not(r.is_int);
        let linear = ir.and(linear, not_int);
        let linear = ir.and(linear, used);
        let h = ir.fk(0.5);
        let um = ir.f(Op::Fsub, &[u, h]);
        let u = ir.sel(linear, um, u);
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

    fn tex_sample(&mut self, t: &Tex, lz: bool) {
        let r = self.resource(t.resource);
        let s = self.sampler(t.sampler);
        let act = self.active();
        let lanes = self.b.mask_from_bits(act);
        let lod = self.tex_lod(t, lz, &s);
        let mut ir = Ir(&mut self.b);
        let zf = ir.fk(0.0);
        let minify = ir.fcmp(FloatCC::Gt, lod, zf);
        let filt = ir.sel(minify, s.min, s.mag);
        let linear_xy = ir.eqk(filt, 1);
        let axes = [0, 1, 2].map(|a| self.tex_axis(t, &r, &s, a, linear_xy));
        let border = self.border_color(t, &r, &s);
        // corner[c]: bit 0 x, bit 1 y, bit 2 z chooses i1.
        let mut corners = Vec::new();
        for c in 0..8usize {
            let pick = |k: usize| (c >> k) & 1;
            let idx = [0, 1, 2].map(|k| axes[k].i[pick(k)]);
            let mut ir = Ir(&mut self.b);
            let mut out = axes[0].border[pick(0)];
            out = ir.or(out, axes[1].border[pick(1)]);
            out = ir.or(out, axes[2].border[pick(2)]);
            let inb = ir.not(out);
            let mask = ir.and(lanes, inb);
            let v = self.texel(&r, idx, mask);
            let mut ir = Ir(&mut self.b);
            corners.push([0, 1, 2, 3].map(|k| ir.sel(out, border[k], v[k])));
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
        self.tex_write(t, &r, e, lanes);
    }

    /// The border colour's four components (module doc, step 7).
    fn border_color(&mut self, t: &Tex, r: &Res, s: &Smp) -> [Value; 4] {
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

/// The wrapped index and whether it reads the border (module doc, step 4).
fn wrap(ir: &mut Ir, mode: Value, i: Value, n: Value) -> (Value, Value) {
    let zero = ir.k(0);
    let n1 = ir.addk(n, u32::MAX);
    let rep = ir.emod(i, n);
    let n2 = ir.add(n, n);
    let m = ir.emod(i, n2);
    let lo = ir.icmp(IntCC::Slt, m, n);
    let n2m = ir.op(Op::Isub, I32, &[n2, m]);
    let back = ir.addk(n2m, u32::MAX);
    let mir = ir.sel(lo, m, back);
    let c0 = ir.op(Op::Smax, I32, &[i, zero]);
    let edge = ir.op(Op::Smin, I32, &[c0, n1]);
    let k31 = ir.k(31);
    let sign = ir.op(Op::Ashr, I32, &[i, k31]);
    let mo = ir.op(Op::Xor, I32, &[i, sign]);
    let mo_edge = ir.op(Op::Smin, I32, &[mo, n1]);
    let out = ir.icmp(IntCC::Uge, i, n);
    let mo_out = ir.icmp(IntCC::Uge, mo, n);
    let mut idx = i;
    for (k, v) in [(7, mo), (3, mo_edge), (2, edge), (1, mir), (0, rep)] {
        let e = ir.eqk(mode, k);
        idx = ir.sel(e, v, idx);
    }
    let m7 = ir.eqk(mode, 7);
    let k4 = ir.k(4);
    let bordered = ir.icmp(IntCC::Uge, mode, k4);
    let o = ir.sel(m7, mo_out, out);
    (idx, ir.and(bordered, o))
}
