//! Shared harness of the lift_tex* tests: TEX instruction words, resource and sampler
//! descriptors in Mesa's evergreend.h layouts, one 64-lane wave run on the interpreter and
//! the JIT through the runtime's shared runner (they must agree on every cell and memory
//! byte, or on the fault), and a host reference sampler written from the formulas of
//! lift/tex's module docs (i64 indices, `rem_euclid`, Rust's saturating casts, host f32
//! arithmetic, the mip layout rules computed with plain integers).
#![allow(dead_code)]
#[path = "../lift_common/both.rs"]
mod both;

use std::sync::Arc;
use wavejit_ir::Function;
use wavejit_runtime::solo::{End, Solo};
use wavejit_runtime::WaveState;
use wavejit_terascale::inst::{CfEntry, CfInst, CfWord, Clause, ClauseBody, FetchInst};
use wavejit_terascale::lift::tex::{RESOURCE_BYTES, SAMPLER_BYTES};
use wavejit_terascale::lift::{lift, LiftConfig, LiftError, TsLayout};
use wavejit_terascale::tables::{CfOp, FetchOp};
use wavejit_terascale::{Chip, ChipClass, Program};

pub const LANES: u32 = 64;
pub const ONE: u32 = 0x3f80_0000;

// --- instructions -----------------------------------------------------------------------

/// A TEX instruction (by default source R1, destination R2).
#[derive(Clone, Copy)]
pub struct Tex {
    pub op: FetchOp,
    pub inst: u32,
    pub inst_mod: u32,
    pub res: u32,
    pub smp: u32,
    pub src_gpr: u32,
    pub src_sel: [u32; 4],
    pub dst_sel: [u32; 4],
    pub lod_bias: i32,
    pub normalized: bool,
    pub offset: [i32; 3],
}

/// TEX_INST numbers (seed 000 8.3).
pub fn tex(op: FetchOp) -> Tex {
    use FetchOp::*;
    let inst = match op {
        TEX_LD => 3,
        TEX_GET_TEXTURE_RESINFO => 4,
        TEX_GET_NUMBER_OF_SAMPLES => 5,
        TEX_GET_COMP_TEX_LOD => 6,
        TEX_GET_GRADIENTS_H => 7,
        TEX_GET_GRADIENTS_V => 8,
        TEX_SET_TEXTURE_OFFSETS => 9,
        TEX_KEEP_GRADIENTS => 10,
        TEX_SET_GRADIENTS_H => 11,
        TEX_SET_GRADIENTS_V => 12,
        TEX_SAMPLE => 16,
        TEX_SAMPLE_L => 17,
        TEX_SAMPLE_LB => 18,
        TEX_SAMPLE_LZ => 19,
        TEX_SAMPLE_G => 20,
        TEX_GATHER4 => 21,
        TEX_SAMPLE_G_LB => 22,
        TEX_GATHER4_O => 23,
        TEX_SAMPLE_C => 24,
        TEX_SAMPLE_C_L => 25,
        TEX_SAMPLE_C_LB => 26,
        TEX_SAMPLE_C_LZ => 27,
        TEX_SAMPLE_C_G => 28,
        TEX_GATHER4_C => 29,
        TEX_SAMPLE_C_G_LB => 30,
        TEX_GATHER4_C_O => 31,
        _ => unreachable!(),
    };
    Tex {
        op,
        inst,
        inst_mod: 0,
        res: 3,
        smp: 2,
        src_gpr: 1,
        src_sel: [0, 1, 2, 3],
        dst_sel: [0, 1, 2, 3],
        lod_bias: 0,
        normalized: true,
        offset: [0; 3],
    }
}

/// TEX_WORD0-2 (seed 000 9.4, L9532-L9674).
pub fn words(t: &Tex) -> [u32; 3] {
    let w0 = t.inst | t.inst_mod << 5 | t.res << 8 | t.src_gpr << 16;
    let ct = if t.normalized { 0xf << 28 } else { 0 };
    let w1 = 2
        | t.dst_sel[0] << 9
        | t.dst_sel[1] << 12
        | t.dst_sel[2] << 15
        | t.dst_sel[3] << 18
        | ((t.lod_bias as u32) & 0x7f) << 21
        | ct;
    let o = |v: i32| (v as u32) & 31;
    let w2 = o(t.offset[0])
        | o(t.offset[1]) << 5
        | o(t.offset[2]) << 10
        | t.smp << 15
        | t.src_sel[0] << 20
        | t.src_sel[1] << 23
        | t.src_sel[2] << 26
        | t.src_sel[3] << 29;
    [w0, w1, w2]
}

/// CF 0: TC over `insts` at CF address 2; CF 1: END (an Evergreen program).
pub fn program(insts: &[Tex]) -> Program {
    program_for(insts, ChipClass::Evergreen)
}

/// [`program`] for chip class `class`.
pub fn program_for(insts: &[Tex], class: ChipClass) -> Program {
    let n = insts.len() as u32;
    let word = |op, addr, count| {
        CfInst::Word(CfWord {
            op,
            addr,
            jumptable_sel: 0,
            pop_count: 0,
            cf_const: 0,
            cond: 0,
            count,
            valid_pixel_mode: false,
            end_of_program: false,
            whole_quad_mode: false,
            barrier: true,
        })
    };
    Program {
        class,
        cf: vec![
            CfEntry {
                addr: 0,
                inst: word(CfOp::TC, 2, (n - 1) as u8),
            },
            CfEntry {
                addr: 1,
                inst: word(CfOp::END, 0, 0),
            },
        ],
        clauses: vec![Clause {
            addr: 2,
            len: 2 * n,
            body: ClauseBody::Fetch(
                insts
                    .iter()
                    .map(|t| FetchInst {
                        op: t.op,
                        words: words(t),
                    })
                    .collect(),
            ),
        }],
        pads: Vec::new(),
        len: 2 + 2 * n,
    }
}

pub fn lift_p(p: &Program) -> Result<Function, LiftError> {
    let chip = match p.class {
        ChipClass::Evergreen => Chip::Cypress,
        ChipClass::Cayman => Chip::Cayman,
    };
    let cfg = LiftConfig {
        chip,
        name: "tex".into(),
        base: 0x1000,
        fetch_subroutine: None,
    };
    lift(p, &cfg)
}

// --- descriptors (Mesa evergreend.h layouts) --------------------------------------------

#[derive(Clone, Copy)]
pub struct Desc {
    pub dim: u32,
    pub w: u32,
    pub h: u32,
    pub d: u32,
    /// Pitch of level BASE_LEVEL in texels (a multiple of 8).
    pub pitch: u32,
    pub fmt: u32,
    pub nfa: u32,
    pub signed: bool,
    /// SRF_MODE_ALL (1 = NO_ZERO, the OpenGL SNORM rule).
    pub srf: bool,
    pub dst_sel: [u32; 4],
    pub base_level: u32,
    pub last_level: u32,
    pub array_mode: u32,
    /// Byte offset of level 1 from the data (MIP_ADDRESS).
    pub mip: u64,
}

impl Desc {
    pub fn words(&self, base: u64) -> [u32; 8] {
        let comp = if self.signed { 0b0101_0101 } else { 0 };
        [
            self.dim | (self.pitch / 8 - 1) << 6 | (self.w - 1) << 18,
            (self.h - 1) | (self.d - 1) << 14 | self.array_mode << 28,
            (base >> 8) as u32,
            ((base + self.mip) >> 8) as u32,
            comp | self.nfa << 8
                | u32::from(self.srf) << 10
                | self.dst_sel[0] << 16
                | self.dst_sel[1] << 19
                | self.dst_sel[2] << 22
                | self.dst_sel[3] << 25
                | self.base_level << 28,
            self.last_level,
            0,
            self.fmt | 2 << 30,
        ]
    }
    pub fn texels(&self) -> u32 {
        self.pitch * self.h * self.d
    }
}

/// A buffer resource (TYPE 3, the SQ_VTX_CONSTANT layout of evergreend.h `R_030000`..).
#[derive(Clone, Copy)]
pub struct Buf {
    /// Bytes.
    pub size: u32,
    pub stride: u32,
    pub fmt: u32,
    pub nfa: u32,
    pub signed: bool,
    pub dst_sel: [u32; 4],
    pub endian: u32,
}

impl Buf {
    pub fn words(&self, base: u64) -> [u32; 8] {
        [
            base as u32,
            self.size - 1,
            (base >> 32) as u32
                | self.stride << 8
                | self.fmt << 20
                | self.nfa << 26
                | u32::from(self.signed) << 28
                | self.endian << 30,
            self.dst_sel[0] << 3
                | self.dst_sel[1] << 6
                | self.dst_sel[2] << 9
                | self.dst_sel[3] << 12,
            0,
            0,
            0,
            3 << 30,
        ]
    }
}

#[derive(Clone, Copy)]
pub struct Samp {
    pub clamp: [u32; 3],
    pub mag: u32,
    pub min: u32,
    pub z: u32,
    pub mip: u32,
    pub border_type: u32,
    pub compare: u32,
    /// WORD2 DISABLE_CUBE_WRAP.
    pub cube_wrap_off: bool,
    pub min_lod: u32,
    pub max_lod: u32,
    pub border: [u32; 4],
}

impl Samp {
    pub fn words(&self) -> [u32; 8] {
        let w0 = self.clamp[0]
            | self.clamp[1] << 3
            | self.clamp[2] << 6
            | self.mag << 9
            | self.min << 11
            | self.z << 13
            | self.mip << 15
            | self.border_type << 20
            | self.compare << 22;
        let [r, g, b, a] = self.border;
        let w2 = u32::from(self.cube_wrap_off) << 29;
        [w0, self.min_lod | self.max_lod << 12, w2, 0, r, g, b, a]
    }
}

pub const SAMP: Samp = Samp {
    clamp: [0; 3],
    mag: 0,
    min: 0,
    z: 1,
    mip: 0,
    border_type: 3,
    compare: 0,
    cube_wrap_off: false,
    min_lod: 0,
    max_lod: 15 << 6,
    border: [0x40f0_0000, 0xc000_0000, 0x3e80_0000, 0x4120_0000],
};

// --- running ----------------------------------------------------------------------------

pub struct Setup {
    /// Texture bytes; every resource's BASE_ADDRESS points at them.
    pub data: Vec<u8>,
    pub res: Vec<(u32, Desc)>,
    pub bufs: Vec<(u32, Buf)>,
    pub smp: Vec<(u32, Samp)>,
    pub bind_res: bool,
    pub bind_smp: bool,
    /// R1.xyzw per lane.
    pub src: Vec<[u32; 4]>,
    /// Further GPRs' xyzw per lane.
    pub regs: Vec<(u32, Vec<[u32; 4]>)>,
    pub active: u64,
}

pub fn setup(data: Vec<u8>, d: Desc, s: Samp, src: Vec<[u32; 4]>) -> Setup {
    Setup {
        data,
        res: vec![(3, d)],
        bufs: Vec::new(),
        smp: vec![(2, s)],
        bind_res: true,
        bind_smp: true,
        src,
        regs: Vec::new(),
        active: u64::MAX,
    }
}

pub const R2_MARK: u32 = 0xdead_beef;

/// The wave `st` describes: its registers and memory (texture data, resource and sampler
/// tables).
fn start(st: &Setup) -> Solo {
    let l = TsLayout::new(LANES);
    let mut w = Solo::new(&l.layout, 1 << 22).unwrap();
    let (state, mem) = (&mut w.state, &mut w.mem);
    for lane in 0..LANES {
        for c in 0..4 {
            state.set_lane(l.gpr(1, c), lane, st.src[lane as usize][c as usize]);
            state.set_lane(l.gpr(2, c), lane, R2_MARK);
            for (g, v) in &st.regs {
                state.set_lane(l.gpr(*g, c), lane, v[lane as usize][c as usize]);
            }
        }
    }
    state.set_uniform(l.active(), st.active as u32);
    state.set_uniform(l.active().offset(1), (st.active >> 32) as u32);
    let base = mem.alloc_bytes(&st.data, 256).unwrap();
    assert!(base.is_multiple_of(256) && base < 1 << 40);
    let mut rt = vec![0u8; 8 * RESOURCE_BYTES as usize];
    let slots = st
        .res
        .iter()
        .map(|(id, d)| (*id, d.words(base)))
        .chain(st.bufs.iter().map(|(id, b)| (*id, b.words(base))));
    for (id, words) in slots {
        for (k, w) in words.iter().enumerate() {
            let at = id as usize * RESOURCE_BYTES as usize + 4 * k;
            rt[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let mut stab = vec![0u8; 4 * SAMPLER_BYTES as usize];
    for (id, s) in &st.smp {
        for (k, w) in s.words().iter().enumerate() {
            let at = *id as usize * SAMPLER_BYTES as usize + 4 * k;
            stab[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    let ra = mem.alloc_bytes(&rt, 32).unwrap();
    let sa = mem.alloc_bytes(&stab, 32).unwrap();
    let set64 = |state: &mut WaveState, r: wavejit_ir::Reg, v: u64| {
        state.set_uniform(r, v as u32);
        state.set_uniform(r.offset(1), (v >> 32) as u32);
    };
    if st.bind_res {
        set64(state, l.tex_resources(), ra);
    }
    if st.bind_smp {
        set64(state, l.tex_samplers(), sa);
    }
    w.watch = both::watch_buffers(&w.mem);
    w.private = vec![0u8; 4];
    w
}

/// Runs on both engines; they must agree (every register cell and memory byte, or the
/// fault's text: kind, pc, lane and address).
pub fn try_run(insts: &[Tex], st: &Setup) -> Result<WaveState, String> {
    try_run_on(insts, st, ChipClass::Evergreen)
}

/// [`try_run`] lifted for chip class `class`.
pub fn try_run_on(insts: &[Tex], st: &Setup, class: ChipClass) -> Result<WaveState, String> {
    let f = Arc::new(lift_p(&program_for(insts, class)).unwrap_or_else(|e| panic!("{e}")));
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("verify: {e}"));
    let (a, b) = both::run_both(&f, start(st), 100_000);
    match a.end {
        End::Done => Ok(a.state.expect("a final state")),
        End::Fault(..) => {
            let (x, y) = (both::fault_text(&a), both::fault_text(&b));
            assert_eq!(x, y, "engines disagree on the fault");
            Err(x.expect("a fault"))
        }
        _ => panic!("the program did not end"),
    }
}

/// R2.xyzw per lane after running `insts`.
pub fn run(insts: &[Tex], st: &Setup) -> Vec<[u32; 4]> {
    run_on_class(insts, st, ChipClass::Evergreen)
}

/// [`run`] lifted for chip class `class`.
pub fn run_on_class(insts: &[Tex], st: &Setup, class: ChipClass) -> Vec<[u32; 4]> {
    let s = try_run_on(insts, st, class).unwrap_or_else(|e| panic!("fault: {e}"));
    let l = TsLayout::new(LANES);
    (0..LANES)
        .map(|lane| [0, 1, 2, 3].map(|c| s.lane(l.gpr(2, c), lane)))
        .collect()
}

// --- host layout ----------------------------------------------------------------------------

/// One mip level as the host lays it out: sizes, pitch, rows per slice, slices, byte offset.
#[derive(Clone, Copy, Debug)]
pub struct HostLevel {
    pub size: [u32; 3],
    pub pitch: u32,
    pub rows: u32,
    pub slices: u32,
    pub offset: u64,
    /// At or above BASE_LEVEL (the levels below it hold no data).
    pub present: bool,
}

fn p2(v: u32) -> u32 {
    v.next_power_of_two()
}

/// The levels of `d` (bytes per texel `bpe`) by Mesa's linear layout (lift/tex module doc):
/// level BASE_LEVEL at offset 0 with the descriptor's pitch, the levels above it packed from
/// `d.mip` after level 1.
pub fn host_levels(d: &Desc, bpe: u32) -> Vec<HostLevel> {
    let layered = matches!(d.dim, 3..=5);
    let is3d = d.dim == 2;
    // A cube map is six slices per layer.
    let depth = if d.dim == 3 { 6 * d.d } else { d.d };
    let mut out = Vec::new();
    let mut next = d.mip;
    for l in 0..=d.last_level {
        let m = |v: u32| (v >> l).max(1);
        let size = [m(d.w), m(d.h), if is3d { m(d.d) } else { depth }];
        let (pitch, rows, slices) = if l == 0 {
            let s = if is3d || layered { depth } else { 1 };
            (d.pitch, d.h, s)
        } else {
            let a = if d.array_mode == 1 {
                (256 / bpe).max(64)
            } else {
                1
            };
            let s = if is3d {
                p2(m(d.d))
            } else if layered {
                depth
            } else {
                1
            };
            (p2(m(d.w)).div_ceil(a) * a, p2(m(d.h)), s)
        };
        let pitch = if l == d.base_level { d.pitch } else { pitch };
        let offset = if l == d.base_level { 0 } else { next };
        if l >= 1 {
            next += u64::from(pitch * rows * slices * bpe);
        }
        out.push(HostLevel {
            size,
            pitch,
            rows,
            slices,
            offset,
            present: l >= d.base_level,
        });
    }
    out
}

/// Bytes covering every level of `levels` (from offset 0), rounded up to 256.
pub fn levels_bytes(levels: &[HostLevel], bpe: u32) -> usize {
    let end = levels
        .iter()
        .filter(|l| l.present)
        .map(|l| l.offset + u64::from(l.pitch * l.rows * l.slices * bpe))
        .max()
        .unwrap();
    (end as usize).div_ceil(256) * 256
}

/// A FMT_32_FLOAT texture whose texel (x, y, z) of level `l` is `v(l, x, y, z)`; padding and
/// unused bytes are NaN.
pub fn f32_levels(levels: &[HostLevel], v: impl Fn(u32, u32, u32, u32) -> f32) -> Vec<u8> {
    let mut out = vec![0u8; levels_bytes(levels, 4)];
    for c in out.chunks_mut(4) {
        c.copy_from_slice(&f32::NAN.to_bits().to_le_bytes());
    }
    for (l, lv) in levels.iter().enumerate().filter(|(_, lv)| lv.present) {
        for z in 0..lv.slices {
            for y in 0..lv.rows {
                for x in 0..lv.pitch {
                    let inside = x < lv.size[0] && y < lv.size[1] && z < lv.size[2];
                    let t = if inside {
                        v(l as u32, x, y, z)
                    } else {
                        f32::NAN
                    };
                    let at = lv.offset as usize + (((z * lv.rows + y) * lv.pitch + x) * 4) as usize;
                    out[at..at + 4].copy_from_slice(&t.to_bits().to_le_bytes());
                }
            }
        }
    }
    out
}

/// A FMT_32_FLOAT texture of level 0 only with value `v(x, y, z)`.
pub fn f32_texture(d: &Desc, v: impl Fn(u32, u32, u32) -> f32) -> Vec<u8> {
    let d0 = Desc {
        last_level: 0,
        base_level: 0,
        ..*d
    };
    f32_levels(&host_levels(&d0, 4), |_, x, y, z| v(x, y, z))
}

/// The element components of texel `i` of level `lv` of a FMT_32_FLOAT texture: x, 0, 0, 1.0.
pub fn f32_elem(data: &[u8], lv: &HostLevel, [x, y, z]: [i64; 3]) -> [u32; 4] {
    let i = lv.offset as usize + (((z * lv.rows as i64 + y) * lv.pitch as i64 + x) * 4) as usize;
    let v = u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
    [v, 0, 0, ONE]
}

// --- host sampler -------------------------------------------------------------------------

/// One axis: (indices, border flags, weight) per lift/tex/sample.rs steps 1-4.
pub fn host_axis(
    s: f32,
    n: u32,
    normalized: bool,
    off: i32,
    mode: u32,
    linear: bool,
) -> ([i64; 2], [bool; 2], f32) {
    host_axis_off(s, n, normalized, off as f32 / 2.0, mode, linear)
}

/// [`host_axis`] with the texel-space offset `off` (already in texels).
pub fn host_axis_off(
    s: f32,
    n: u32,
    normalized: bool,
    off: f32,
    mode: u32,
    linear: bool,
) -> ([i64; 2], [bool; 2], f32) {
    let mut u = if normalized { s * n as f32 } else { s };
    if off != 0.0 {
        u += off;
    }
    if mode == 4 || mode == 5 {
        let v = if mode == 5 { u.abs() } else { u };
        u = v.max(0.0).min(n as f32);
    }
    if linear {
        u -= 0.5;
    }
    let t = (u * 256.0).floor() as i32;
    let i0 = (t >> 8) as i64;
    let w = (t & 255) as f32 / 256.0;
    let n = n as i64;
    let wrap = |i: i64| -> (i64, bool) {
        let mirror = if i < 0 { -1 - i } else { i };
        match mode {
            0 => (i.rem_euclid(n), false),
            1 => {
                let m = i.rem_euclid(2 * n);
                (if m < n { m } else { 2 * n - 1 - m }, false)
            }
            2 => (i.clamp(0, n - 1), false),
            3 => (mirror.min(n - 1), false),
            4..=6 => (i, i < 0 || i >= n),
            _ => (mirror, mirror >= n),
        }
    };
    let (a, ba) = wrap(i0);
    let (b, bb) = wrap(i0 + 1);
    ([a, b], [ba, bb], w)
}

/// An array slice: `clamp(floor(u + 0.5), 0, n - 1)`.
pub fn host_slice(s: f32, n: u32, normalized: bool) -> i64 {
    let u = if normalized { s * n as f32 } else { s };
    ((u + 0.5).floor() as i32).clamp(0, n as i32 - 1) as i64
}

/// A cube map's slice from z = `face + 8 * layer` (lift/tex module doc): the rounded value
/// split by integer division, layer clamped to `layers - 1`, face to 5, then `6 * layer +
/// face`.
pub fn host_cube_slice(z: f32, layers: u32) -> i64 {
    let v = ((z + 0.5).floor() as i64).max(0);
    let layer = (v / 8).min(i64::from(layers) - 1);
    let face = (v % 8).min(5);
    6 * layer + face
}

pub fn lerp(a: u32, b: u32, w: f32) -> u32 {
    let (a, b) = (f32::from_bits(a), f32::from_bits(b));
    (a * (1.0 - w) + b * w).to_bits()
}

/// `1.0` or `0.0`: `reference OP x` for DEPTH_COMPARE_FUNCTION `func`.
pub fn host_compare(reference: f32, func: u32, x: u32) -> u32 {
    let x = f32::from_bits(x);
    let pass = match func {
        0 => false,
        1 => reference < x,
        2 => reference == x,
        3 => reference <= x,
        4 => reference > x,
        5 => reference != x,
        6 => reference >= x,
        _ => true,
    };
    if pass {
        ONE
    } else {
        0
    }
}

pub struct Sample<'a> {
    pub d: &'a Desc,
    pub s: &'a Samp,
    pub t: &'a Tex,
    pub levels: &'a [HostLevel],
    /// The element components of texel `i` of level `l`.
    pub elem: &'a dyn Fn(usize, [i64; 3]) -> [u32; 4],
    /// The reference of a depth compare.
    pub compare: Option<f32>,
    /// Per axis, the offset added to the texel-space coordinate (`t.offset / 2` unless a
    /// test sets GATHER4_O's whole-texel offsets).
    pub texel_offset: [f32; 3],
    /// SAMPLE_C_L/C_LB: a 1D array's slice comes from y.
    pub slice_from_y: bool,
}

/// The default `texel_offset` of `t`: its OFFSET fields in half texels.
pub fn half_offsets(t: &Tex) -> [f32; 3] {
    t.offset.map(|o| o as f32 / 2.0)
}

impl<'a> Sample<'a> {
    /// A plain sample of `t`: no compare, OFFSET fields in half texels, a 1D array's slice in
    /// z. Tests change the rest with struct-update syntax.
    pub fn new(
        d: &'a Desc,
        s: &'a Samp,
        t: &'a Tex,
        levels: &'a [HostLevel],
        elem: &'a dyn Fn(usize, [i64; 3]) -> [u32; 4],
    ) -> Sample<'a> {
        Sample {
            d,
            s,
            t,
            levels,
            elem,
            compare: None,
            texel_offset: half_offsets(t),
            slice_from_y: false,
        }
    }

    pub fn border(&self) -> [u32; 4] {
        match self.s.border_type {
            0 => [0; 4],
            1 => [0, 0, 0, ONE],
            2 => [ONE; 4],
            _ => self.s.border,
        }
    }

    /// The per-axis (indices, border flags, weight, linear) of level `l`.
    pub fn axes(
        &self,
        coords: [f32; 3],
        l: usize,
        lin: bool,
    ) -> Vec<([i64; 2], [bool; 2], f32, bool)> {
        let lv = &self.levels[l];
        let d = self.d;
        let cube = d.dim == 3;
        let layered = matches!(d.dim, 3..=5);
        let spatial = [true, matches!(d.dim, 1 | 2 | 3 | 5), d.dim == 2];
        // Cube face coordinates arrive in [1, 2].
        let coords = if cube {
            [coords[0] - 1.0, coords[1] - 1.0, coords[2]]
        } else {
            coords
        };
        (0..3)
            .map(|a| {
                if a == 2 && layered {
                    let i = if cube {
                        host_cube_slice(coords[2], d.d)
                    } else if d.dim == 4 && self.slice_from_y {
                        host_slice(coords[1], lv.size[2], self.t.normalized)
                    } else {
                        host_slice(coords[2], lv.size[2], self.t.normalized)
                    };
                    return ([i, i], [false, false], 0.0, false);
                }
                if !spatial[a] {
                    return ([0, 0], [false, false], 0.0, false);
                }
                let lin = if a == 2 { self.s.z == 2 } else { lin };
                let (i, b, w) = host_axis_off(
                    coords[a],
                    lv.size[a],
                    self.t.normalized,
                    self.texel_offset[a],
                    self.s.clamp[a],
                    lin,
                );
                (i, b, w, lin)
            })
            .collect()
    }

    /// Corner `c` (bit k: axis k takes i1) of level `l`, border and compare applied.
    pub fn corner(
        &self,
        axes: &[([i64; 2], [bool; 2], f32, bool)],
        l: usize,
        c: usize,
    ) -> [u32; 4] {
        let pick = |k: usize| (c >> k) & 1;
        let mut v = if (0..3).any(|k| axes[k].1[pick(k)]) {
            self.border()
        } else {
            (self.elem)(l, [0, 1, 2].map(|k| axes[k].0[pick(k)]))
        };
        if let Some(r) = self.compare {
            v[0] = host_compare(r, self.s.compare, v[0]);
        }
        v
    }

    /// One level's filtered element components.
    pub fn level(&self, coords: [f32; 3], l: usize, lin: bool) -> [u32; 4] {
        let axes = self.axes(coords, l, lin);
        let mut out = [0; 4];
        for (k, o) in out.iter_mut().enumerate() {
            let mut v: Vec<u32> = (0..8).map(|c| self.corner(&axes, l, c)[k]).collect();
            for ax in &axes {
                v = v
                    .chunks(2)
                    .map(|p| if ax.3 { lerp(p[0], p[1], ax.2) } else { p[0] })
                    .collect();
            }
            *o = v[0];
        }
        out
    }

    /// The element components a sample at `coords` with unclamped LOD `lod` gives (before
    /// DST_SELs): the filter, the levels (lift/tex/lod.rs) and their blend.
    pub fn sample(&self, coords: [f32; 3], lod: f32) -> [u32; 4] {
        let lod = lod
            .max(self.s.min_lod as f32 / 64.0)
            .min(self.s.max_lod as f32 / 64.0);
        let minify = lod > 0.0;
        let filt = if minify { self.s.min } else { self.s.mag };
        let (b, q) = (self.d.base_level, self.d.last_level);
        let mut d1 = b;
        let mut second = None;
        if minify && self.s.mip == 1 && lod > 0.5 {
            d1 = (b + (lod + 0.5).ceil() as u32 - 1).min(q);
        }
        if minify && self.s.mip == 2 {
            d1 = (b + lod.floor() as u32).min(q);
            if d1 < q && self.d.nfa != 1 {
                second = Some((d1 + 1, lod - lod.floor()));
            }
        }
        let t1 = self.level(coords, d1 as usize, filt == 1);
        match second {
            None => t1,
            Some((d2, f)) => {
                let t2 = self.level(coords, d2 as usize, filt == 1);
                [0, 1, 2, 3].map(|k| lerp(t1[k], t2[k], f))
            }
        }
    }
}

/// The footprint corners (bit 0: `i1`, bit 1: `j1`) GATHER4 returns in x, y, z, w on
/// `class`: OpenGL's order (i0, j1), (i1, j1), (i1, j0), (i0, j0) put where the DST_SEL
/// Mesa's `tgsi_tex` programs for TG4 (identity on Cayman, (y, z, x, w) otherwise) reads
/// it from.
pub fn gather_corners(class: ChipClass) -> [usize; 4] {
    let gl = [2, 3, 1, 0];
    let mesa_dst_sel = match class {
        ChipClass::Cayman => [0, 1, 2, 3],
        ChipClass::Evergreen => [1, 2, 0, 3],
    };
    let mut hw = [0; 4];
    for (i, &sel) in mesa_dst_sel.iter().enumerate() {
        hw[sel] = gl[i];
    }
    hw
}

/// Coordinates that cover negative values, values beyond 1 and texel centres.
pub fn coord(lane: u32, k: u32) -> f32 {
    let base = [-1.37f32, -0.61, -2.2][k as usize];
    let step = [0.0571f32, 0.0389, 0.0733][k as usize];
    base + step * ((lane * (2 * k + 3)) % 64) as f32
}

pub fn coords_src(lod: impl Fn(u32) -> f32) -> Vec<[u32; 4]> {
    (0..LANES)
        .map(|l| {
            [
                coord(l, 0).to_bits(),
                coord(l, 1).to_bits(),
                coord(l, 2).to_bits(),
                lod(l).to_bits(),
            ]
        })
        .collect()
}

pub fn tex_value(x: u32, y: u32, z: u32) -> f32 {
    (x * 7 + y * 13 + z * 29) as f32 * 0.37 - 3.0
        + if (x + y).is_multiple_of(3) {
            100.0
        } else {
            0.0
        }
}

pub const D2: Desc = Desc {
    dim: 1,
    w: 5,
    h: 3,
    d: 1,
    pitch: 8,
    fmt: 14,
    nfa: 0,
    signed: false,
    srf: false,
    dst_sel: [0, 1, 2, 3],
    base_level: 0,
    last_level: 0,
    array_mode: 1,
    mip: 0,
};

/// Runs `t` on `d`/`s` (FMT_32_FLOAT, every level filled by `tex_value` plus 1000 per level)
/// with R1 = `src`, and checks every lane's R2 against `want(lane, sample)`.
pub fn check_with(
    t: &Tex,
    d: &Desc,
    s: &Samp,
    src: Vec<[u32; 4]>,
    want: impl Fn(usize, &Sample) -> [u32; 4],
    what: &str,
) {
    let levels = host_levels(d, 4);
    let data = f32_levels(&levels, |l, x, y, z| tex_value(x, y, z) + 1000.0 * l as f32);
    let out = run(&[*t], &setup(data.clone(), *d, *s, src.clone()));
    let elem = |l: usize, i: [i64; 3]| f32_elem(&data, &levels[l], i);
    let x = Sample::new(d, s, t, &levels, &elem);
    for lane in 0..LANES as usize {
        let w = want(lane, &x);
        assert_eq!(
            out[lane],
            w,
            "{what}, lane {lane}, src {:?}: got {:?}, want {:?}",
            src[lane].map(f32::from_bits),
            out[lane].map(f32::from_bits),
            w.map(f32::from_bits)
        );
    }
}

/// SAMPLE_LZ / SAMPLE_L over `coords_src(lod)`: the host LOD is 0 or src.w + LOD_BIAS / 16.
pub fn check_sample(t: &Tex, d: &Desc, s: &Samp, lod: impl Fn(u32) -> f32, what: &str) {
    let src = coords_src(&lod);
    let lz = t.op == FetchOp::TEX_SAMPLE_LZ;
    let bias = t.lod_bias as f32 / 16.0;
    let s2 = src.clone();
    check_with(
        t,
        d,
        s,
        src,
        |lane, x| {
            let c = [0, 1, 2].map(|k| f32::from_bits(s2[lane][k]));
            let l = if lz {
                0.0
            } else {
                f32::from_bits(s2[lane][3]) + bias
            };
            x.sample(c, l)
        },
        what,
    );
}
