//! Shared harness of the `vop3_*` semantic tests: every instruction is assembled in its VOP3
//! form for each generation whose table has the row, decoded and disassembled back (the
//! mnemonic must survive), lifted, run for one wave on the reference interpreter and the JIT
//! (which must agree bit for bit) with per-lane inputs, and every lane is compared with a
//! value computed by the test itself.
#![allow(dead_code)]
use crate::lift_common::{config, lift_ok, Wave};
use wavejit_gcn::tables::{self, Family};
use wavejit_gcn::Gen;

pub const ALL_GENS: [Gen; 4] = [Gen::Gfx6, Gen::Gfx7, Gen::Gfx8, Gen::Gfx9];

/// FLOAT_MODE values: denormals flushed for every type, f32 flushed only (LLVM's gfx6-8
/// default), everything kept. Bits `[5:4]` f32, `[7:6]` f64/f16 (CLRX doc/GcnState.md).
pub const FLUSH_ALL: u8 = 0x00;
pub const FLUSH_F32: u8 = 0xc0;
pub const KEEP_ALL: u8 = 0xf0;

/// Generations whose tables have a VOP3-encodable row named `name` (VOP3-only rows, or
/// VOP1/VOP2 rows with a VOP3 form: several VOP3-only ops of gfx8+ are VOP2 ops on gfx6/7).
pub fn gens(name: &str) -> Vec<Gen> {
    ALL_GENS
        .iter()
        .copied()
        .filter(|&g| {
            tables::by_name(g, name).any(|r| r.family == Family::Vop3 || r.vop3 & g.bit() != 0)
        })
        .collect()
}

/// Per-lane inputs of one run: (VGPR, one value per lane; lanes past the end repeat the last).
pub type Inputs<'a> = &'a [(u32, &'a [u32])];

/// Assembles `text` (one instruction) for `gen`, checks that it disassembles to the same
/// mnemonic, loads `inputs`, lifts under `mode`, runs, and returns the wave.
pub fn run(gen: Gen, mode: u8, text: &str, inputs: Inputs, vcc: u64) -> Wave {
    let mut w = Wave::new();
    for &(reg, vals) in inputs {
        assert!(!vals.is_empty());
        w.set_v_all(reg, |l| vals[(l as usize).min(vals.len() - 1)]);
    }
    w.set_vcc(vcc);
    run_on(&mut w, gen, mode, text);
    w
}

/// As [`run`] on a prepared wave.
pub fn run_on(w: &mut Wave, gen: Gen, mode: u8, text: &str) {
    // VOP1/VOP2 rows (the gfx6/7 forms of some VOP3-only gfx8 ops) need `_e64` for VOP3.
    let (m, rest) = text.split_once(' ').unwrap_or((text, ""));
    let base = m.trim_end_matches("_e64");
    let text = if tables::by_name(gen, base).any(|r| r.family == Family::Vop3) {
        text.to_string()
    } else {
        format!("{base}_e64 {rest}")
    };
    let text = text.as_str();
    let code = wavejit_gcn::assemble(gen, &format!("{text}\ns_endpgm"))
        .unwrap_or_else(|e| panic!("{gen:?}: `{text}` does not assemble: {e}"));
    assert!(
        code.len() == 12 && code[3] >> 2 == 0b110100,
        "{gen:?}: `{text}` is not a VOP3 encoding: {code:02x?}"
    );
    let dis = wavejit_gcn::disassemble(gen, &code)
        .unwrap_or_else(|e| panic!("{gen:?}: `{text}` does not decode: {e}"));
    let mnemonic = text
        .split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches("_e64");
    assert!(
        dis.split_whitespace()
            .next()
            .map(|m| m.trim_end_matches("_e64"))
            == Some(mnemonic),
        "{gen:?}: `{text}` disassembles as `{dis}`"
    );
    let f = lift_ok(&code, &config(gen, mode));
    match w.try_run(&f) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("{gen:?} mode {mode:#x} `{text}`: fault: {e}"),
        Err(why) => panic!("{gen:?} mode {mode:#x} `{text}`: {why}"),
    }
}

/// Compares every lane `l < n` of `got(l)` with `want(l)`, collecting all mismatches.
pub fn check<T: PartialEq + std::fmt::LowerHex>(
    what: &str,
    n: usize,
    got: impl Fn(u32) -> T,
    want: impl Fn(u32) -> T,
    inputs: impl Fn(u32) -> String,
) {
    let mut bad = Vec::new();
    for l in 0..n as u32 {
        let (g, e) = (got(l), want(l));
        if g != e {
            bad.push(format!(
                "  lane {l}: inputs {}: got {g:#x}, want {e:#x}",
                inputs(l)
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{what}: {} mismatches\n{}",
        bad.len(),
        bad.join("\n")
    );
}

pub fn lane<T: Copy>(v: &[T], l: u32) -> T {
    v[(l as usize).min(v.len() - 1)]
}

/// Splits 64-bit per-lane values into (low, high) dword vectors.
pub fn split64(v: &[u64]) -> (Vec<u32>, Vec<u32>) {
    (
        v.iter().map(|x| *x as u32).collect(),
        v.iter().map(|x| (x >> 32) as u32).collect(),
    )
}

/// Runs `text` over `cases` (one case per lane, 64 lanes per run): case value `i` goes to
/// VGPR `ins[i]`; the dwords of VGPRs `outs` must equal `want(case)`. All mismatches of all
/// runs are reported together.
pub fn sweep(
    gen: Gen,
    mode: u8,
    text: &str,
    ins: &[u32],
    outs: &[u32],
    cases: &[Vec<u32>],
    want: impl Fn(&[u32]) -> Vec<u32>,
) {
    sweep_mask(gen, mode, text, ins, outs, !0, cases, want)
}

/// As [`sweep`], comparing only the bits of `mask` in each output dword (16-bit results whose
/// upper half is not asserted).
#[allow(clippy::too_many_arguments)]
pub fn sweep_mask(
    gen: Gen,
    mode: u8,
    text: &str,
    ins: &[u32],
    outs: &[u32],
    mask: u32,
    cases: &[Vec<u32>],
    want: impl Fn(&[u32]) -> Vec<u32>,
) {
    let mut bad = Vec::new();
    for chunk in cases.chunks(64) {
        let mut w = Wave::new();
        for (i, &reg) in ins.iter().enumerate() {
            w.set_v_all(reg, |l| chunk[(l as usize).min(chunk.len() - 1)][i]);
        }
        run_on(&mut w, gen, mode, text);
        for (l, case) in chunk.iter().enumerate() {
            let got: Vec<u32> = outs.iter().map(|&r| w.v(r, l as u32) & mask).collect();
            let exp: Vec<u32> = want(case).iter().map(|x| x & mask).collect();
            if got != exp {
                bad.push(format!("  in {:x?}: got {:x?}, want {:x?}", case, got, exp));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{gen:?} mode {mode:#x} `{text}`: {} mismatches\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Edge values of 32-bit integer operands: around 0, the 16- and 24-bit boundaries, the sign
/// bit and shift counts.
pub const INT_EDGES: [u32; 22] = [
    0,
    1,
    2,
    31,
    32,
    33,
    0x7fff,
    0x8000,
    0xffff,
    0x1_0000,
    0x7f_ffff,
    0x80_0000,
    0xff_ffff,
    0x100_0000,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff_fffe,
    0xffff_ffff,
    0x1234_5678,
    0x9abc_def0,
    0xfedc_ba98,
];

/// A deterministic pseudo-random stream (splitmix64) for case generation.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[(self.next() % v.len() as u64) as usize]
    }
}

/// `n` cases of `k` operands drawn from `edges` (plus every edge in every position once).
pub fn int_cases(k: usize, n: usize, edges: &[u32], seed: u64) -> Vec<Vec<u32>> {
    let mut r = Rng(seed);
    let mut out: Vec<Vec<u32>> = Vec::new();
    for (i, &e) in edges.iter().enumerate() {
        let mut c: Vec<u32> = (0..k).map(|_| r.pick(edges)).collect();
        c[i % k] = e;
        out.push(c);
    }
    while out.len() < n {
        out.push((0..k).map(|_| r.pick(edges)).collect());
    }
    out
}
