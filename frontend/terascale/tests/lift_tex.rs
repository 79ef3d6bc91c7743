//! TEX instructions through the lifter on the interpreter and the JIT (lift/tex.rs): SAMPLE_LZ
//! and SAMPLE_L on 1D/2D/3D textures with point and bilinear filtering, every CLAMP mode,
//! normalized and unnormalized coordinates and offsets, border colours, LD, GET_TEXTURE_RESINFO
//! and the launch convention's faults. Expected values come from a host implementation of the
//! formulas of lift/tex.rs's module doc written here (i64 indices, `rem_euclid`, Rust's
//! saturating casts, host f32 arithmetic), and texel values from the format definitions
//! (raw f32 bits, `c / 255` rounded once).
use std::sync::Arc;
use wavejit_ir::{Block, Function};
use wavejit_runtime::{BlockExit, Engine, Fault, GuestMemory, Interpreter, WaveCtx, WaveState};
use wavejit_terascale::inst::{CfEntry, CfInst, CfWord, Clause, ClauseBody, FetchInst};
use wavejit_terascale::lift::tex::{RESOURCE_BYTES, SAMPLER_BYTES};
use wavejit_terascale::lift::{lift, LiftConfig, LiftError, TsLayout};
use wavejit_terascale::tables::{CfOp, FetchOp};
use wavejit_terascale::{Chip, ChipClass, Program};

const LANES: u32 = 64;
const ONE: u32 = 0x3f80_0000;

// --- instructions -----------------------------------------------------------------------

/// A TEX instruction: source R1, destination R2.
#[derive(Clone, Copy)]
struct Tex {
    op: FetchOp,
    inst: u32,
    res: u32,
    smp: u32,
    src_sel: [u32; 4],
    dst_sel: [u32; 4],
    lod_bias: i32,
    normalized: bool,
    offset: [i32; 3],
}

fn tex(op: FetchOp) -> Tex {
    let inst = match op {
        FetchOp::TEX_LD => 3,
        FetchOp::TEX_GET_TEXTURE_RESINFO => 4,
        FetchOp::TEX_SAMPLE => 16,
        FetchOp::TEX_SAMPLE_L => 17,
        FetchOp::TEX_SAMPLE_LZ => 19,
        _ => unreachable!(),
    };
    Tex {
        op,
        inst,
        res: 3,
        smp: 2,
        src_sel: [0, 1, 2, 3],
        dst_sel: [0, 1, 2, 3],
        lod_bias: 0,
        normalized: true,
        offset: [0; 3],
    }
}

/// TEX_WORD0-2 (seed 000 9.4, L9532-L9674).
fn words(t: &Tex) -> [u32; 3] {
    let w0 = t.inst | t.res << 8 | 1 << 16;
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

/// CF 0: TC over `insts` at CF address 2; CF 1: END.
fn program(insts: &[Tex]) -> Program {
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
        class: ChipClass::Evergreen,
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

fn lift_p(p: &Program) -> Result<Function, LiftError> {
    let cfg = LiftConfig {
        chip: Chip::Cypress,
        name: "tex".into(),
        base: 0x1000,
        fetch_subroutine: None,
    };
    lift(p, &cfg)
}

// --- descriptors (Mesa evergreend.h layouts) --------------------------------------------

#[derive(Clone, Copy)]
struct Desc {
    dim: u32,
    w: u32,
    h: u32,
    d: u32,
    /// Pitch in texels (a multiple of 8).
    pitch: u32,
    fmt: u32,
    nfa: u32,
    signed: bool,
    /// SRF_MODE_ALL (1 = NO_ZERO, the OpenGL SNORM rule).
    srf: bool,
    dst_sel: [u32; 4],
    last_level: u32,
}

impl Desc {
    fn words(&self, base: u64) -> [u32; 8] {
        let comp = if self.signed { 0b0101_0101 } else { 0 };
        [
            self.dim | (self.pitch / 8 - 1) << 6 | (self.w - 1) << 18,
            (self.h - 1) | (self.d - 1) << 14 | 1 << 28,
            (base >> 8) as u32,
            0,
            comp | self.nfa << 8
                | u32::from(self.srf) << 10
                | self.dst_sel[0] << 16
                | self.dst_sel[1] << 19
                | self.dst_sel[2] << 22
                | self.dst_sel[3] << 25,
            self.last_level,
            0,
            self.fmt | 2 << 30,
        ]
    }
    fn texels(&self) -> u32 {
        self.pitch * self.h * self.d
    }
}

/// A buffer resource (TYPE 3, the SQ_VTX_CONSTANT layout of evergreend.h `R_030000`..).
#[derive(Clone, Copy)]
struct Buf {
    /// Bytes.
    size: u32,
    stride: u32,
    fmt: u32,
    nfa: u32,
    signed: bool,
    dst_sel: [u32; 4],
    endian: u32,
}

impl Buf {
    fn words(&self, base: u64) -> [u32; 8] {
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
struct Samp {
    clamp: [u32; 3],
    mag: u32,
    min: u32,
    z: u32,
    mip: u32,
    border_type: u32,
    min_lod: u32,
    max_lod: u32,
    border: [u32; 4],
}

impl Samp {
    fn words(&self) -> [u32; 8] {
        let w0 = self.clamp[0]
            | self.clamp[1] << 3
            | self.clamp[2] << 6
            | self.mag << 9
            | self.min << 11
            | self.z << 13
            | self.mip << 15
            | self.border_type << 20;
        let [r, g, b, a] = self.border;
        [w0, self.min_lod | self.max_lod << 12, 0, 0, r, g, b, a]
    }
}

const SAMP: Samp = Samp {
    clamp: [0; 3],
    mag: 0,
    min: 0,
    z: 1,
    mip: 0,
    border_type: 3,
    min_lod: 0,
    max_lod: 15 << 6,
    border: [0x40f0_0000, 0xc000_0000, 0x3e80_0000, 0x4120_0000],
};

// --- running ----------------------------------------------------------------------------

struct Setup {
    /// Texture bytes; every resource's BASE_ADDRESS points at them.
    data: Vec<u8>,
    res: Vec<(u32, Desc)>,
    bufs: Vec<(u32, Buf)>,
    smp: Vec<(u32, Samp)>,
    bind_res: bool,
    bind_smp: bool,
    /// R1.xyzw per lane.
    src: Vec<[u32; 4]>,
    active: u64,
}

fn setup(data: Vec<u8>, d: Desc, s: Samp, src: Vec<[u32; 4]>) -> Setup {
    Setup {
        data,
        res: vec![(3, d)],
        bufs: Vec::new(),
        smp: vec![(2, s)],
        bind_res: true,
        bind_smp: true,
        src,
        active: u64::MAX,
    }
}

const R2_MARK: u32 = 0xdead_beef;

fn run_on(engine: &dyn Engine, f: &Arc<Function>, st: &Setup) -> Result<WaveState, Fault> {
    let l = TsLayout::new(LANES);
    let mut state = WaveState::new(Arc::new(l.layout.clone()));
    for lane in 0..LANES {
        for c in 0..4 {
            state.set_lane(l.gpr(1, c), lane, st.src[lane as usize][c as usize]);
            state.set_lane(l.gpr(2, c), lane, R2_MARK);
        }
    }
    state.set_uniform(l.active(), st.active as u32);
    state.set_uniform(l.active().offset(1), (st.active >> 32) as u32);
    let mut mem = GuestMemory::with_reserve(1 << 22).unwrap();
    let base = mem.alloc_bytes(&st.data, 256).unwrap();
    assert!(base.is_multiple_of(256) && base < 1 << 40);
    let mut rt = vec![0u8; 8 * RESOURCE_BYTES as usize];
    for (id, d) in &st.res {
        for (k, w) in d.words(base).iter().enumerate() {
            let at = *id as usize * RESOURCE_BYTES as usize + 4 * k;
            rt[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    for (id, d) in &st.bufs {
        for (k, w) in d.words(base).iter().enumerate() {
            let at = *id as usize * RESOURCE_BYTES as usize + 4 * k;
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
        set64(&mut state, l.tex_resources(), ra);
    }
    if st.bind_smp {
        set64(&mut state, l.tex_samplers(), sa);
    }
    let mut lds = Vec::new();
    let mut private = [0u8; 4];
    let prog = engine.prepare(f.clone()).unwrap();
    let mut b = Block(0);
    for _ in 0..100 {
        let mut ctx = WaveCtx {
            state: &mut state,
            mem: &mem,
            lds: &mut lds,
            private: &mut private,
            private_lane_bytes: 0,
        };
        match prog.run_block(b, &mut ctx)? {
            BlockExit::Jump(n) | BlockExit::Barrier(n) => b = n,
            BlockExit::Return => return Ok(state),
        }
    }
    panic!("the program did not end");
}

/// Runs on both engines; they must agree (state, or the fault's text).
fn try_run(insts: &[Tex], st: &Setup) -> Result<WaveState, String> {
    let f = Arc::new(lift_p(&program(insts)).unwrap_or_else(|e| panic!("{e}")));
    wavejit_ir::verify::verify(&f).unwrap_or_else(|e| panic!("verify: {e}"));
    let a = run_on(&Interpreter, &f, st);
    let jit = wavejit_jit::Jit::new().expect("the JIT starts");
    let b = run_on(&jit, &f, st);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.cells(), b.cells(), "engines disagree on the state");
            Ok(a)
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                a.to_string(),
                b.to_string(),
                "engines disagree on the fault"
            );
            Err(a.to_string())
        }
        (a, b) => panic!("one engine faulted: {:?} / {:?}", a.err(), b.err()),
    }
}

fn run(insts: &[Tex], st: &Setup) -> Vec<[u32; 4]> {
    let s = try_run(insts, st).unwrap_or_else(|e| panic!("fault: {e}"));
    let l = TsLayout::new(LANES);
    (0..LANES)
        .map(|lane| [0, 1, 2, 3].map(|c| s.lane(l.gpr(2, c), lane)))
        .collect()
}

// --- host reference -----------------------------------------------------------------------

/// A texture of FMT_32_FLOAT texels with value `v(x, y, z)`.
fn f32_texture(d: &Desc, v: impl Fn(u32, u32, u32) -> f32) -> Vec<u8> {
    let mut out = Vec::new();
    for z in 0..d.d {
        for y in 0..d.h {
            for x in 0..d.pitch {
                let t = if x < d.w { v(x, y, z) } else { f32::NAN };
                out.extend(t.to_bits().to_le_bytes());
            }
        }
    }
    out
}

/// The element components of texel (x, y, z) of a FMT_32_FLOAT texture: x, 0, 0, 1.0.
fn f32_elem(data: &[u8], d: &Desc, [x, y, z]: [i64; 3]) -> [u32; 4] {
    let i = (((z * d.h as i64 + y) * d.pitch as i64 + x) * 4) as usize;
    let v = u32::from_le_bytes(data[i..i + 4].try_into().unwrap());
    [v, 0, 0, ONE]
}

/// One axis: (indices, border flags, weight) per lib doc steps 1-4.
fn host_axis(
    s: f32,
    n: u32,
    normalized: bool,
    off: i32,
    mode: u32,
    linear: bool,
) -> ([i64; 2], [bool; 2], f32) {
    let mut u = if normalized { s * n as f32 } else { s };
    if off != 0 {
        u += off as f32 / 2.0;
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

fn lerp(a: u32, b: u32, w: f32) -> u32 {
    let (a, b) = (f32::from_bits(a), f32::from_bits(b));
    (a * (1.0 - w) + b * w).to_bits()
}

struct Sample<'a> {
    d: &'a Desc,
    s: &'a Samp,
    t: &'a Tex,
    elem: &'a dyn Fn([i64; 3]) -> [u32; 4],
}

/// The element components a sample at `coords` with LOD `lod` gives (before DST_SELs).
fn host_sample(x: &Sample, coords: [f32; 3], lod: f32) -> [u32; 4] {
    let lod = lod
        .max(x.s.min_lod as f32 / 64.0)
        .min(x.s.max_lod as f32 / 64.0);
    let filt = if lod > 0.0 { x.s.min } else { x.s.mag };
    let sizes = [x.d.w, x.d.h, x.d.d];
    let axes: Vec<_> = (0..3)
        .map(|a| {
            if a > x.d.dim as usize {
                return ([0, 0], [false, false], 0.0, false);
            }
            let lin = if a == 2 { x.s.z == 2 } else { filt == 1 };
            let (i, b, w) = host_axis(
                coords[a],
                sizes[a],
                x.t.normalized,
                x.t.offset[a],
                x.s.clamp[a],
                lin,
            );
            (i, b, w, lin)
        })
        .collect();
    let border = match x.s.border_type {
        0 => [0; 4],
        1 => [0, 0, 0, ONE],
        2 => [ONE; 4],
        _ => x.s.border,
    };
    let texel = |c: usize| -> [u32; 4] {
        let pick = |k: usize| (c >> k) & 1;
        if (0..3).any(|k| axes[k].1[pick(k)]) {
            return border;
        }
        (x.elem)([0, 1, 2].map(|k| axes[k].0[pick(k)]))
    };
    let mut out = [0; 4];
    for (k, o) in out.iter_mut().enumerate() {
        let mut v: Vec<u32> = (0..8).map(|c| texel(c)[k]).collect();
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

/// Coordinates that cover negative values, values beyond 1 and texel centres.
fn coord(lane: u32, k: u32) -> f32 {
    let base = [-1.37f32, -0.61, -2.2][k as usize];
    let step = [0.0571f32, 0.0389, 0.0733][k as usize];
    base + step * ((lane * (2 * k + 3)) % 64) as f32
}

fn coords_src(lod: impl Fn(u32) -> f32) -> Vec<[u32; 4]> {
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

fn tex_value(x: u32, y: u32, z: u32) -> f32 {
    (x * 7 + y * 13 + z * 29) as f32 * 0.37 - 3.0
        + if (x + y).is_multiple_of(3) {
            100.0
        } else {
            0.0
        }
}

const D2: Desc = Desc {
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
    last_level: 0,
};

/// Runs `t` on `d`/`s` and checks every lane's R2 against the host.
fn check_sample(t: &Tex, d: &Desc, s: &Samp, lod: impl Fn(u32) -> f32, what: &str) {
    let data = f32_texture(d, tex_value);
    let src = coords_src(&lod);
    let out = run(&[*t], &setup(data.clone(), *d, *s, src.clone()));
    let elem = |i: [i64; 3]| f32_elem(&data, d, i);
    let x = Sample {
        d,
        s,
        t,
        elem: &elem,
    };
    for lane in 0..LANES {
        let c = [0, 1, 2].map(|k| f32::from_bits(src[lane as usize][k]));
        let lz = t.op == FetchOp::TEX_SAMPLE_LZ;
        let l = if lz {
            0.0
        } else {
            f32::from_bits(src[lane as usize][3]) + t.lod_bias as f32 / 16.0
        };
        let want = host_sample(&x, c, l);
        assert_eq!(
            out[lane as usize],
            want,
            "{what}, lane {lane}, coords {c:?}: got {:?}",
            out[lane as usize].map(f32::from_bits)
        );
    }
}

// --- tests ----------------------------------------------------------------------------------

#[test]
fn sample_2d_point_and_bilinear_in_every_address_mode() {
    for mode in 0..8 {
        for filter in [0, 1] {
            let s = Samp {
                clamp: [mode, (mode + 3) % 8, 0],
                mag: filter,
                min: filter,
                ..SAMP
            };
            check_sample(
                &tex(FetchOp::TEX_SAMPLE_LZ),
                &D2,
                &s,
                |_| 0.0,
                &format!("2D mode {mode} filter {filter}"),
            );
        }
    }
}

#[test]
fn sample_1d_and_3d_textures() {
    let d1 = Desc {
        dim: 0,
        w: 7,
        h: 1,
        d: 1,
        ..D2
    };
    let d3 = Desc {
        dim: 2,
        w: 3,
        h: 2,
        d: 4,
        ..D2
    };
    for (d, name) in [(d1, "1D"), (d3, "3D")] {
        for (filter, z) in [(0, 1), (1, 1), (1, 2), (0, 0)] {
            for mode in [0, 1, 6, 7] {
                let s = Samp {
                    clamp: [mode, 2, (mode + 1) % 8],
                    mag: filter,
                    min: filter,
                    z,
                    ..SAMP
                };
                check_sample(
                    &tex(FetchOp::TEX_SAMPLE_LZ),
                    &d,
                    &s,
                    |_| 0.0,
                    &format!("{name} mode {mode} filter {filter} z {z}"),
                );
            }
        }
    }
}

#[test]
fn unnormalized_coordinates_and_offsets() {
    let t = Tex {
        normalized: false,
        offset: [-3, 5, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    for (mode, filter) in [(0, 1), (2, 1), (6, 0), (4, 1), (1, 0)] {
        let s = Samp {
            clamp: [mode, mode, 0],
            mag: filter,
            min: filter,
            ..SAMP
        };
        check_sample(&t, &D2, &s, |_| 0.0, &format!("unnormalized mode {mode}"));
    }
    let t = Tex {
        offset: [15, -16, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    let s = Samp {
        mag: 1,
        min: 1,
        ..SAMP
    };
    check_sample(&t, &D2, &s, |_| 0.0, "normalized with extreme offsets");
}

#[test]
fn sample_l_chooses_the_magnification_or_minification_filter() {
    // Point when magnifying, bilinear when minifying; LOD from src.w plus LOD_BIAS, clamped
    // to [MIN_LOD, MAX_LOD]; every lane stays on level 0 (LAST_LEVEL 0).
    let s = Samp {
        mag: 0,
        min: 1,
        min_lod: 0,
        max_lod: 3 << 6,
        mip: 1,
        ..SAMP
    };
    let lod = |l: u32| (l as f32 - 31.5) * 0.125;
    for bias in [0, 5, -16] {
        let t = Tex {
            lod_bias: bias,
            ..tex(FetchOp::TEX_SAMPLE_L)
        };
        check_sample(&t, &D2, &s, lod, &format!("SAMPLE_L bias {bias}"));
    }
    // MIN_LOD above 0 forces minification even for SAMPLE_LZ.
    let s = Samp {
        mag: 0,
        min: 1,
        min_lod: 1 << 6,
        ..SAMP
    };
    check_sample(&tex(FetchOp::TEX_SAMPLE_LZ), &D2, &s, |_| 0.0, "MIN_LOD 1");
}

#[test]
fn border_colour_types_and_dst_sels() {
    for bt in 0..4 {
        let s = Samp {
            clamp: [6, 7, 0],
            mag: 1,
            min: 1,
            border_type: bt,
            ..SAMP
        };
        check_sample(
            &tex(FetchOp::TEX_SAMPLE_LZ),
            &D2,
            &s,
            |_| 0.0,
            &format!("border type {bt}"),
        );
    }
    // The instruction's DST_SEL: w, 1.0, masked, x; the resource's: y, x, 0, 1.
    let t = Tex {
        dst_sel: [3, 5, 7, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    let d = Desc {
        dst_sel: [1, 0, 4, 5],
        ..D2
    };
    let data = f32_texture(&d, tex_value);
    let src = coords_src(|_| 0.0);
    let out = run(&[t], &setup(data.clone(), d, SAMP, src.clone()));
    let elem = |i: [i64; 3]| f32_elem(&data, &d, i);
    let x = Sample {
        d: &d,
        s: &SAMP,
        t: &t,
        elem: &elem,
    };
    for lane in 0..LANES as usize {
        let c = [0, 1, 2].map(|k| f32::from_bits(src[lane][k]));
        let e = host_sample(&x, c, 0.0);
        let sw = [e[1], e[0], 0, ONE];
        assert_eq!(out[lane], [sw[3], ONE, R2_MARK, sw[0]], "lane {lane}");
    }
}

#[test]
fn unorm_and_signed_formats_convert_per_component() {
    // FMT_8_8_8_8 (26) NORM: unsigned, signed, signed with SRF_MODE_ALL NO_ZERO (the OpenGL
    // rule `(2c + 1) / 255`), unsigned with NO_ZERO (no effect); point sampling at texel
    // centres.
    let d = Desc {
        w: 4,
        h: 2,
        fmt: 26,
        ..D2
    };
    let data: Vec<u8> = (0..d.texels() * 4).map(|i| (i * 37 + 11) as u8).collect();
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| {
            let (x, y) = (l % 4, (l / 4) % 2);
            [
                ((x as f32 + 0.5) / 4.0).to_bits(),
                ((y as f32 + 0.5) / 2.0).to_bits(),
                0,
                0,
            ]
        })
        .collect();
    for (signed, srf) in [(false, false), (true, false), (true, true), (false, true)] {
        let d = Desc { signed, srf, ..d };
        let out = run(
            &[tex(FetchOp::TEX_SAMPLE_LZ)],
            &setup(data.clone(), d, SAMP, src.clone()),
        );
        for lane in 0..LANES {
            let (x, y) = (lane % 4, (lane / 4) % 2);
            let at = ((y * d.pitch + x) * 4) as usize;
            let want = [0, 1, 2, 3].map(|c| {
                let b = data[at + c];
                let v = if signed && srf {
                    (2.0 * (b as i8) as f64 + 1.0) / 255.0
                } else if signed {
                    ((b as i8) as f64 / 127.0).max(-1.0)
                } else {
                    b as f64 / 255.0
                };
                (v as f32).to_bits()
            });
            assert_eq!(
                out[lane as usize], want,
                "signed {signed} srf {srf} lane {lane}"
            );
        }
    }
}

#[test]
fn ld_reads_integer_texels_and_zero_outside() {
    // FMT_32_32_32_32 (34) INT on a 3D texture; the resource swizzle's 1 is integer 1.
    let d = Desc {
        dim: 2,
        w: 3,
        h: 2,
        d: 2,
        fmt: 34,
        nfa: 1,
        dst_sel: [0, 1, 2, 5],
        ..D2
    };
    let data: Vec<u8> = (0..d.texels() * 4)
        .flat_map(|i| (i.wrapping_mul(0x9e37_79b9) ^ 0x55).to_le_bytes())
        .collect();
    let src: Vec<[u32; 4]> = (0..LANES)
        .map(|l| [l % 5, (l / 5) % 3, (l / 15) % 3, 0])
        .map(|[x, y, z, w]| [x, y.wrapping_sub(u32::from(x == 4) * 7), z, w])
        .collect();
    let out = run(
        &[tex(FetchOp::TEX_LD)],
        &setup(data.clone(), d, SAMP, src.clone()),
    );
    for lane in 0..LANES as usize {
        let [x, y, z, _] = src[lane];
        let inside = x < d.w && y < d.h && z < d.d;
        let want = if inside {
            let i = (((z * d.h + y) * d.pitch + x) * 16) as usize;
            let w =
                |c: usize| u32::from_le_bytes(data[i + 4 * c..i + 4 * c + 4].try_into().unwrap());
            [w(0), w(1), w(2), 1]
        } else {
            [0, 0, 0, 1]
        };
        assert_eq!(out[lane], want, "lane {lane} at {:?}", src[lane]);
    }
}

#[test]
fn ld_reads_buffer_elements_by_stride_and_zero_past_the_end() {
    // FMT_16_16 (15) INT signed, STRIDE 12, 62 bytes: elements 0-4 fit whole, 5 does not.
    let data: Vec<u8> = (0..64u32).map(|i| (i * 73 + 5) as u8).collect();
    let b = Buf {
        size: 62,
        stride: 12,
        fmt: 15,
        nfa: 1,
        signed: true,
        dst_sel: [1, 0, 4, 5],
        endian: 0,
    };
    let src: Vec<[u32; 4]> = (0..LANES).map(|l| [l % 8, l / 8, 7, 0]).collect();
    let mut st = setup(data.clone(), D2, SAMP, src.clone());
    st.res.clear();
    st.bufs = vec![(3, b)];
    st.bind_smp = false;
    let out = run(&[tex(FetchOp::TEX_LD)], &st);
    for lane in 0..LANES as usize {
        let x = src[lane][0];
        let want = if x < 5 {
            let at = (x * 12) as usize;
            let h = |k: usize| i16::from_le_bytes([data[at + k], data[at + k + 1]]) as i32 as u32;
            [h(2), h(0), 0, 1]
        } else {
            [0, 0, 0, 1]
        };
        assert_eq!(out[lane], want, "lane {lane}, element {x}");
    }
    // FMT_32_32_32_32_FLOAT (35), STRIDE 16; the instruction's DST_SEL z, 1.0, masked, 0.
    let b = Buf {
        size: 64,
        stride: 16,
        fmt: 35,
        nfa: 0,
        signed: false,
        dst_sel: [0, 1, 2, 3],
        endian: 0,
    };
    st.bufs = vec![(3, b)];
    let t = Tex {
        dst_sel: [2, 5, 7, 4],
        ..tex(FetchOp::TEX_LD)
    };
    let out = run(&[t], &st);
    for lane in 0..LANES as usize {
        let x = src[lane][0] as usize;
        let z = if x < 4 {
            u32::from_le_bytes(data[16 * x + 8..16 * x + 12].try_into().unwrap())
        } else {
            0
        };
        assert_eq!(out[lane], [z, ONE, R2_MARK, 0], "lane {lane}");
    }
    // Buffers are for LD only; STRIDE 0 and ENDIAN_SWAP are not implemented.
    for (bad, t) in [
        (b, tex(FetchOp::TEX_SAMPLE_LZ)),
        (Buf { stride: 0, ..b }, tex(FetchOp::TEX_LD)),
        (Buf { endian: 2, ..b }, tex(FetchOp::TEX_LD)),
    ] {
        st.bufs = vec![(3, bad)];
        st.bind_smp = true;
        let e = try_run(&[t], &st).unwrap_err();
        assert!(e.contains("not one wavejit implements"), "{e}");
    }
}

#[test]
fn resinfo_reports_sizes_per_lod_and_levels() {
    let d = Desc {
        dim: 2,
        w: 13,
        h: 6,
        d: 5,
        pitch: 16,
        last_level: 3,
        ..D2
    };
    let src: Vec<[u32; 4]> = (0..LANES).map(|l| [l % 40, 0, 0, 0]).collect();
    let data = vec![0u8; 256];
    let out = run(
        &[tex(FetchOp::TEX_GET_TEXTURE_RESINFO)],
        &setup(data.clone(), d, SAMP, src.clone()),
    );
    for lane in 0..LANES as usize {
        let l = src[lane][0].min(31);
        let m = |n: u32| (n >> l).max(1);
        assert_eq!(out[lane], [m(13), m(6), m(5), 4], "lane {lane}");
    }
    let d2 = Desc { dim: 1, ..d };
    let out = run(
        &[tex(FetchOp::TEX_GET_TEXTURE_RESINFO)],
        &setup(data, d2, SAMP, src.clone()),
    );
    assert_eq!(out[1], [6, 3, 5, 4], "2D: z is the slice count");
}

#[test]
fn inactive_lanes_are_untouched() {
    let mut st = setup(f32_texture(&D2, tex_value), D2, SAMP, coords_src(|_| 0.0));
    st.active = 0x0f0f_0000_ffff_0001;
    let out = run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st);
    for lane in 0..LANES {
        let on = st.active >> lane & 1 != 0;
        assert_eq!(out[lane as usize][0] == R2_MARK, !on, "lane {lane}");
    }
}

#[test]
fn launch_convention_faults() {
    let base = || setup(f32_texture(&D2, tex_value), D2, SAMP, coords_src(|_| 0.0));
    let mut st = base();
    st.bind_res = false;
    let e = try_run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st).unwrap_err();
    assert!(e.contains("no texture resource table"), "{e}");
    let mut st = base();
    st.bind_smp = false;
    let e = try_run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st).unwrap_err();
    assert!(e.contains("no sampler table"), "{e}");
    // LD needs no sampler table.
    assert!(try_run(&[tex(FetchOp::TEX_LD)], &st).is_ok());
    for bad in [
        Desc { fmt: 49, ..D2 }, // BC1
        Desc { dim: 3, ..D2 },  // cubemap
        Desc { nfa: 3, ..D2 },
    ] {
        let mut st = base();
        st.res = vec![(3, bad)];
        let e = try_run(&[tex(FetchOp::TEX_SAMPLE_LZ)], &st).unwrap_err();
        assert!(e.contains("not one wavejit implements"), "{e}");
    }
    // A lane whose LOD selects level 1 of a mipmapped texture.
    let mut st = base();
    st.res = vec![(
        3,
        Desc {
            last_level: 2,
            ..D2
        },
    )];
    st.smp = vec![(2, Samp { mip: 1, ..SAMP })];
    st.src[17][3] = 1.5f32.to_bits();
    let e = try_run(&[tex(FetchOp::TEX_SAMPLE_L)], &st).unwrap_err();
    assert!(e.contains("mip level other than 0"), "{e}");
    let mut st = base();
    st.src = (0..LANES).map(|l| [0, 0, 0, u32::from(l == 9)]).collect();
    let e = try_run(&[tex(FetchOp::TEX_LD)], &st).unwrap_err();
    assert!(e.contains("mip level other than 0"), "{e}");
}

#[test]
fn unsupported_tex_instructions_are_lift_errors() {
    let e = lift_p(&program(&[tex(FetchOp::TEX_SAMPLE)])).unwrap_err();
    assert!(matches!(e, LiftError::Unsupported { .. }), "{e}");
    let t = Tex {
        offset: [1, 0, 0],
        ..tex(FetchOp::TEX_LD)
    };
    let e = lift_p(&program(&[t])).unwrap_err();
    assert!(e.to_string().contains("offsets on LD"), "{e}");
    let t = Tex {
        dst_sel: [6, 0, 0, 0],
        ..tex(FetchOp::TEX_SAMPLE_LZ)
    };
    assert!(matches!(
        lift_p(&program(&[t])).unwrap_err(),
        LiftError::Invalid { .. }
    ));
}
