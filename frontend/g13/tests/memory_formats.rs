//! The packed memory formats (`rgb10a2`, `srgba8`, `rg11b10f`, `rgb9e5`, `.rtz`) and the
//! normalized ones into 16-bit registers, on the interpreter and the JIT (which must agree
//! bit for bit), against values computed here from the formulas (formats_support/oracle.rs):
//! applegpu.py's load rules, and the lifter's documented store definitions (there is no
//! public model of a store). Loads read memory filled with every code of each field; stores
//! take edge values (NaN, infinities, negatives, -0, denormals, values beside the rounding
//! midpoints and past the largest value) and random ones, from 32- and 16-bit registers; round
//! trips store what a load read. Device, threadgroup and stack memory.

mod common;
mod formats_support;

use common::{Wave, LANES};
use formats_support::oracle::{self, Fmt, Mode, F10, F11, F16, F32};
use formats_support::{lift, range, reg, run, run_to_end, set_pair, set_reg, word_at};
use formats_support::{word_bytes, Memory, Rng};
use wavejit_runtime::solo::End;

/// Accesses per program (each lane's elements `0..PER_LANE`).
const PER_LANE: u32 = 8;
/// Elements a run reads or writes.
const PER_RUN: usize = (LANES * PER_LANE) as usize;

/// Register k of a loaded word, for 16-bit registers if `half`.
type Expect = fn(u32, u32, bool) -> u32;

/// A format as the tests drive it.
#[derive(Clone, Copy)]
struct Form {
    name: &'static str,
    /// Registers per access.
    regs: u32,
    /// The mask written in the instruction.
    mask: &'static str,
    /// Element index units from one access to the next (one access: one word, but for the
    /// 16-bit normalized formats two).
    step: u32,
    /// What a load of a word gives (the oracle's rule), for the one-word formats.
    expect: Expect,
}

const RGB10A2: Form = Form {
    name: "rgb10a2",
    regs: 4,
    mask: "xyzw",
    step: 1,
    expect: rgb10a2_load,
};
const SRGBA8: Form = Form {
    name: "srgba8",
    regs: 4,
    mask: "xyzw",
    step: 4,
    expect: srgba8_load,
};

fn rg11b10f(rtz: bool) -> Form {
    Form {
        name: if rtz { "rg11b10f.rtz" } else { "rg11b10f" },
        regs: 3,
        mask: "xyz",
        step: 1,
        expect: rg11b10f_load,
    }
}

fn rgb9e5(rtz: bool) -> Form {
    Form {
        name: if rtz { "rgb9e5.rtz" } else { "rgb9e5" },
        regs: 3,
        mask: "xyz",
        step: 1,
        expect: rgb9e5_load,
    }
}

/// A normalized format, four elements an access.
fn norm(name: &'static str, expect: Expect) -> Form {
    Form {
        name,
        regs: 4,
        mask: "xyzw",
        step: 4,
        expect,
    }
}

fn rgb10a2_load(w: u32, k: u32, half: bool) -> u32 {
    let (at, max) = if k == 3 { (30, 3) } else { (10 * k, 1023) };
    oracle::unorm_load((w >> at) & max, max, half)
}

fn rg11b10f_load(w: u32, k: u32, half: bool) -> u32 {
    match k {
        0 => oracle::small_float_load(w & 2047, F11, half),
        1 => oracle::small_float_load((w >> 11) & 2047, F11, half),
        _ => oracle::small_float_load(w >> 22, F10, half),
    }
}

fn rgb9e5_load(w: u32, k: u32, half: bool) -> u32 {
    oracle::shared_exp_load((w >> (9 * k)) & 511, w >> 27, half)
}

fn srgba8_load(w: u32, k: u32, half: bool) -> u32 {
    srgb_load((w >> (8 * k)) & 255, k, half)
}

/// The value of sRGB byte `b` loaded into the element of mask bit `k`.
fn srgb_load(b: u32, k: u32, half: bool) -> u32 {
    if k == 3 {
        oracle::unorm_load(b, 255, half)
    } else {
        oracle::unorm_load(oracle::srgb_unorm12(b as u8), 4095, half)
    }
}

/// rgb10a2 words: x takes every 10-bit value, y a permutation of them, z the reverse; alpha
/// cycles.
fn rgb10a2_words() -> Vec<u32> {
    (0..1024u32)
        .map(|j| j | ((j * 37 + 11) & 1023) << 10 | (1023 - j) << 20 | (j & 3) << 30)
        .collect()
}

/// rg11b10f words: x and y take every float11 code (denormals, infinity, NaNs), z every
/// float10 code.
fn rg11b10f_words() -> Vec<u32> {
    (0..2048u32)
        .map(|j| j | (2047 - j) << 11 | (j & 1023) << 22)
        .collect()
}

/// rgb9e5 words: every exponent with 32 mantissa triples; r takes every mantissa twice.
fn rgb9e5_words() -> Vec<u32> {
    (0..1024u32)
        .map(|j| (j * 17) & 511 | (511 - ((j * 5) & 511)) << 9 | (j & 31) << 18 | (j >> 5) << 27)
        .collect()
}

/// srgba8 words: each byte position takes every value.
fn srgba8_words() -> Vec<u32> {
    (0..256u32)
        .map(|j| j | (255 - j) << 8 | ((j * 7) & 255) << 16 | ((j * 3 + 1) & 255) << 24)
        .collect()
}

/// The first 32-bit register of access `i`'s registers.
fn data_reg(i: u32) -> u32 {
    32 + 4 * i
}

/// A device program: PER_LANE loads (or stores) of `form` from the per-lane base r20_r21,
/// access i at element index `i * step`; a load is followed by a store of the same
/// registers from base r22_r23 when `store_back`.
fn device_program(form: Form, half: bool, load: bool, store_back: bool) -> String {
    let mut text = String::new();
    for i in 0..PER_LANE {
        let regs = range(data_reg(i), form.regs, half);
        let (name, o) = (form.name, i * form.step);
        let mask = form.mask;
        if load {
            text += &format!("device_load 0, {name}, {mask}, {regs}, r20_r21, {o}, signed\n");
        }
        if !load || store_back {
            let base = if load { "r22_r23" } else { "r20_r21" };
            text += &format!("device_store 0, {name}, {mask}, {regs}, {base}, {o}, signed, 0\n");
        }
    }
    text + "stop\n"
}

/// Loads every word of `words` (device memory, PER_RUN a run) into `form`'s registers and
/// checks each register against `form.expect`.
fn check_loads(form: Form, half: bool, words: &[u32]) {
    let f = lift(&device_program(form, half, true, false));
    let wave = Wave::new();
    for (run_no, chunk) in words.chunks(PER_RUN).enumerate() {
        let mut device = word_bytes(chunk);
        device.resize(4 * PER_RUN, 0);
        let memory = Memory {
            device,
            ..Memory::default()
        };
        let after = run(&f, &wave, &memory, |w, at| {
            set_pair(w, 20, |lane| at + u64::from(4 * PER_LANE * lane))
        });
        for lane in 0..LANES {
            for i in 0..PER_LANE {
                let Some(&word) = chunk.get((lane * PER_LANE + i) as usize) else {
                    continue;
                };
                for k in 0..form.regs {
                    let got = reg(&after.wave, data_reg(i), k, half, lane);
                    let want = (form.expect)(word, k, half);
                    assert_eq!(
                        got, want,
                        "{} word {word:#010x} (run {run_no}) register {k}, {}-bit: got {got:#x}, want {want:#x}",
                        form.name,
                        if half { 16 } else { 32 }
                    );
                }
            }
        }
    }
}

/// Stores `inputs` (register values, `form.regs` each; f16 bits when `half`) with `form`,
/// PER_RUN a run; the words written.
fn stores(form: Form, half: bool, inputs: &[[u32; 4]]) -> Vec<u32> {
    let f = lift(&device_program(form, half, false, false));
    let wave = Wave::new();
    let mut out = Vec::new();
    for chunk in inputs.chunks(PER_RUN) {
        let mut wave = wave.clone();
        for (e, regs) in chunk.iter().enumerate() {
            let (lane, i) = (e as u32 / PER_LANE, e as u32 % PER_LANE);
            for k in 0..form.regs {
                set_reg(&mut wave, data_reg(i), k, half, lane, regs[k as usize]);
            }
        }
        let memory = Memory {
            device: vec![0; 4 * PER_RUN],
            ..Memory::default()
        };
        let after = run(&f, &wave, &memory, |w, at| {
            set_pair(w, 20, |lane| at + u64::from(4 * PER_LANE * lane))
        });
        out.extend((0..chunk.len()).map(|e| word_at(&after.memory.device, e)));
    }
    out
}

/// `stores` from 32-bit registers and from 16-bit ones (each input rounded to f16 by the
/// oracle first); checks every word against `expect(f32 inputs)`.
fn check_stores(form: Form, inputs: &[[u32; 4]], expect: impl Fn([u32; 4]) -> u32) {
    for (i, (x, got)) in inputs.iter().zip(stores(form, false, inputs)).enumerate() {
        let want = expect(*x);
        assert_eq!(
            got, want,
            "{} store {i} of {x:#x?} from 32-bit registers: got {got:#010x}, want {want:#010x}",
            form.name
        );
    }
    let halves: Vec<[u32; 4]> = inputs.iter().map(|x| x.map(to_f16)).collect();
    for (i, (h, got)) in halves.iter().zip(stores(form, true, &halves)).enumerate() {
        let want = expect(h.map(|h| oracle::f16_to_f32(h as u16)));
        assert_eq!(
            got, want,
            "{} store {i} of f16 {h:#x?} from 16-bit registers: got {got:#010x}, want {want:#010x}",
            form.name
        );
    }
}

/// The f16 bits nearest the f32 `x` (NaN kept as a NaN, sign kept).
fn to_f16(x: u32) -> u32 {
    let sign = (x >> 31) << 15;
    let mag = x & 0x7fff_ffff;
    sign | match oracle::f32_value(mag) {
        None if mag > 0x7f80_0000 => 0x7e00,
        None => F16.inf(),
        Some(q) => F16.round(q, Mode::Even),
    }
}

// ---------------------------------------------------------------------------------------------
// Loads

#[test]
fn rgb10a2_loads_every_field_value() {
    for half in [false, true] {
        check_loads(RGB10A2, half, &rgb10a2_words());
    }
}

#[test]
fn rg11b10f_loads_every_code() {
    let words = rg11b10f_words();
    for half in [false, true] {
        check_loads(rg11b10f(false), half, &words);
    }
    // The .rtz form loads alike (its values are exact).
    check_loads(rg11b10f(true), true, &words[..PER_RUN]);
}

#[test]
fn rgb9e5_loads_every_exponent() {
    let words = rgb9e5_words();
    for half in [false, true] {
        check_loads(rgb9e5(false), half, &words);
    }
    check_loads(rgb9e5(true), false, &words[..PER_RUN]);
}

#[test]
fn srgba8_loads_every_byte() {
    for half in [false, true] {
        check_loads(SRGBA8, half, &srgba8_words());
    }
}

#[test]
fn srgb_values_are_applegpus_table() {
    // A few entries of applegpu.py's SRGB_TABLE (srgb.py) as f32 bits: the external record
    // the formula of the oracle reproduces.
    for (b, value) in [
        (1u32, 0.000_244_200_258_748_605_85f64),
        (25, 0.009_768_010_117_113_59),
        (128, 0.215_873_017_907_142_64),
        (254, 0.991_208_791_732_788_1),
        (255, 1.0),
    ] {
        assert_eq!(srgb_load(b, 0, false), (value as f32).to_bits(), "byte {b}");
    }
}

#[test]
fn srgba8_alpha_is_the_w_element_whatever_register_holds_it() {
    let f = lift("device_load 0, srgba8, yw, r32_r33, u0_u1, 0, signed\nstop\n");
    let memory = Memory {
        device: vec![10, 20, 30, 40],
        ..Memory::default()
    };
    let after = run(&f, &Wave::new(), &memory, |_, _| {});
    assert_eq!(after.wave.r(32, 0), srgb_load(20, 1, false));
    assert_eq!(after.wave.r(33, 0), srgb_load(40, 3, false));
}

#[test]
fn normalized_loads_into_16_bit_registers_round_once() {
    // Every 16-bit value, two to a word (an access reads two words). 65455 / 65535 is one
    // that a quotient rounded first in f32 gets wrong in f16.
    let words: Vec<u32> = (0..32768u32)
        .map(|j| (2 * j) | ((2 * j + 1) << 16))
        .collect();
    check_norm16(
        norm("u16norm", |v, _, half| oracle::unorm_load(v, 65535, half)),
        &words,
    );
    check_norm16(
        norm("s16norm", |v, _, half| oracle::snorm_load(v, 16, half)),
        &words,
    );
    // Every 8-bit value, into both register widths.
    let bytes: Vec<u32> = (0..64u32)
        .map(|j| u32::from_le_bytes([0, 1, 2, 3].map(|k| (4 * j + k) as u8)))
        .collect();
    for half in [false, true] {
        let u8norm = norm("u8norm", |w, k, half| {
            oracle::unorm_load((w >> (8 * k)) & 255, 255, half)
        });
        let s8norm = norm("s8norm", |w, k, half| {
            oracle::snorm_load((w >> (8 * k)) & 255, 8, half)
        });
        check_loads(u8norm, half, &bytes);
        check_loads(s8norm, half, &bytes);
    }
}

/// 16-bit normalized loads of `words` into 16-bit registers (4 elements, 2 words, an
/// access); `form.expect` takes the element's value.
fn check_norm16(form: Form, words: &[u32]) {
    let f = lift(&device_program(form, true, true, false));
    let per_run = 2 * PER_RUN;
    for chunk in words.chunks(per_run) {
        let memory = Memory {
            device: word_bytes(chunk),
            ..Memory::default()
        };
        let after = run(&f, &Wave::new(), &memory, |w, at| {
            set_pair(w, 20, |lane| at + u64::from(8 * PER_LANE * lane))
        });
        for lane in 0..LANES {
            for i in 0..PER_LANE {
                let first = (2 * (lane * PER_LANE + i)) as usize;
                for k in 0..4 {
                    let v = (chunk[first + k as usize / 2] >> (16 * (k % 2))) & 0xffff;
                    let want = (form.expect)(v, k, true);
                    let got = reg(&after.wave, data_reg(i), k, true, lane);
                    assert_eq!(got, want, "{} of {v:#06x}: got {got:#x}", form.name);
                }
            }
        }
    }
}

#[test]
fn bit_packed_loads_ignore_the_mask_and_the_shift() {
    // Mask x, lsl 2 and a base 2 bytes past a word: still the word at (A & ~3) + O * 4, into
    // four registers.
    let f = lift("device_load 0, rgb10a2, x, r32, r20_r21, 1, signed, lsl 2\nstop\n");
    let word = 1023 | 512 << 10 | 1 << 20 | 2 << 30;
    let memory = Memory {
        device: word_bytes(&[0, word, 0, 0, 0, 0]),
        ..Memory::default()
    };
    let after = run(&f, &Wave::new(), &memory, |w, at| {
        set_pair(w, 20, |_| at + 2)
    });
    for k in 0..4 {
        let want = rgb10a2_load(word, k, false);
        assert_eq!(after.wave.r(32 + k, 0), want, "register {k}");
    }
}

// ---------------------------------------------------------------------------------------------
// Stores

/// f32 bits worth trying in any store: specials, edges of [0, 1], denormals.
const SPECIALS: [u32; 14] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // NaN
    0xffc0_0001, // -NaN with a payload
    0x7f80_0001, // signalling NaN
    0x0000_0001, // the smallest denormal
    0x007f_ffff, // the largest denormal
    0x3f80_0000, // 1
    0x3f7f_ffff, // just below 1
    0x3f80_0001, // just above 1
    0xbf80_0000, // -1
    0x4b80_0000, // 2^24
];

/// f32 bits near `q` (a rational): the f32 nearest, and its neighbours.
fn around(q: oracle::Q) -> [u32; 3] {
    let x = F32.round(q, Mode::Even);
    [x.saturating_sub(1), x, x + 1]
}

fn random_f32(rng: &mut Rng, lo: f32, hi: f32) -> u32 {
    let t = (rng.next() >> 40) as f32 / (1u64 << 24) as f32;
    (lo + (hi - lo) * t).to_bits()
}

/// Inputs for one-component rules: specials, points around each rounding midpoint of a
/// field with `max` steps on [0, 1], and random values in [-0.25, 1.25].
fn unit_inputs(max: u32, rng: &mut Rng) -> Vec<u32> {
    let mut v: Vec<u32> = SPECIALS.to_vec();
    for k in 0..max {
        v.extend(around(oracle::Q::ratio(
            (2 * k + 1).into(),
            (2 * max).into(),
        )));
        v.extend(around(oracle::Q::ratio(k.into(), max.into())));
    }
    v.extend((0..512).map(|_| random_f32(rng, -0.25, 1.25)));
    v
}

/// Groups one-component inputs four to an access, each input in every position.
fn quads(v: &[u32]) -> Vec<[u32; 4]> {
    (0..v.len())
        .map(|i| [0, 1, 2, 3].map(|k| v[(i + k * 97) % v.len()]))
        .collect()
}

#[test]
fn rgb10a2_stores_clamp_and_round_to_nearest_even() {
    let mut rng = Rng(0x1234_5678);
    let mut v = unit_inputs(1023, &mut rng);
    v.extend(unit_inputs(3, &mut rng));
    check_stores(RGB10A2, &quads(&v), |x| {
        (0..4).fold(0, |w, k| {
            let (at, max) = if k == 3 { (30, 3) } else { (10 * k, 1023) };
            w | oracle::unorm_store(x[k as usize], max) << at
        })
    });
}

#[test]
fn srgba8_stores_pick_the_nearest_byte() {
    let mut rng = Rng(0x9e37_79b9);
    let mut v: Vec<u32> = SPECIALS.to_vec();
    for b in 0..256u32 {
        let k = oracle::srgb_unorm12(b as u8);
        v.extend(around(oracle::Q::ratio(k.into(), 4095)));
        if b < 255 {
            let k2 = oracle::srgb_unorm12(b as u8 + 1);
            v.extend(around(oracle::Q::ratio((k + k2).into(), 8190)));
        }
    }
    v.extend((0..512).map(|_| random_f32(&mut rng, -0.25, 1.25)));
    v.extend(unit_inputs(255, &mut rng));
    check_stores(SRGBA8, &quads(&v), |x| {
        (0..4).fold(0, |w, k| {
            let byte = if k == 3 {
                oracle::unorm_store(x[3], 255)
            } else {
                u32::from(oracle::srgb_store(x[k as usize]))
            };
            w | byte << (8 * k)
        })
    });
}

/// Inputs for a small float field of `fmt`: every value, the midpoints between neighbours
/// and their f32 neighbours, past the largest value, specials and random magnitudes.
fn small_float_inputs(fmt: Fmt, rng: &mut Rng) -> Vec<u32> {
    let mut v: Vec<u32> = SPECIALS.to_vec();
    for code in 0..fmt.inf() {
        let q = fmt.value(code);
        v.push(F32.round(q, Mode::Even));
        // The midpoint to the next code (code + 1 = inf: the overflow threshold).
        let mid = oracle::Q {
            n: 2 * q.n + 1,
            d: q.d,
            s: q.s - 1,
        };
        v.extend(around(mid));
    }
    v.extend([0x4780_0000, 0x477f_ffff, 0x5000_0000, 0xc780_0000]);
    v.extend((0..256).map(|_| {
        let e = rng.below(60) as i32 - 40;
        let m = 1.0 + (rng.next() >> 41) as f32 / (1u64 << 23) as f32;
        (m * 2f32.powi(e)).to_bits()
    }));
    v
}

#[test]
fn rg11b10f_stores_round_to_nearest_even_and_toward_zero() {
    let mut rng = Rng(0xdead_beef);
    let a = small_float_inputs(F11, &mut rng);
    let b = small_float_inputs(F10, &mut rng);
    let n = a.len().max(b.len());
    let inputs: Vec<[u32; 4]> = (0..n)
        .map(|i| [a[i % a.len()], a[(i * 7 + 3) % a.len()], b[i % b.len()], 0])
        .collect();
    for (rtz, mode) in [(false, Mode::Even), (true, Mode::Zero)] {
        check_stores(rg11b10f(rtz), &inputs, |x| {
            oracle::small_float_store(x[0], F11, mode)
                | oracle::small_float_store(x[1], F11, mode) << 11
                | oracle::small_float_store(x[2], F10, mode) << 22
        });
    }
}

#[test]
fn rgb9e5_stores_share_the_largest_components_exponent() {
    let mut rng = Rng(0x0bad_cafe);
    let mut inputs: Vec<[u32; 4]> = Vec::new();
    // Specials in every position, with ordinary companions.
    for &s in &SPECIALS {
        inputs.push([s, 0x3f80_0000, 0x4000_0000, 0]);
        inputs.push([0x3e80_0000, s, 0x3c00_0000, 0]);
        inputs.push([0x0000_0000, 0x3a00_0000, s, 0]);
    }
    // Every shared exponent, with the largest component just below, at and just above the
    // point where its mantissa rounds up to 512 (E grows), and beside the largest value.
    for e in -30i32..17 {
        for m in [255.5f64, 511.0, 511.25, 511.5, 511.75, 512.0] {
            let x = (m * 2f64.powi(e - 9)) as f32;
            for bits in [x.to_bits() - 1, x.to_bits(), x.to_bits() + 1] {
                inputs.push([bits, (x / 3.0).to_bits(), (x / 1000.0).to_bits(), 0]);
            }
        }
    }
    inputs.extend(
        [
            [0x477f_8000; 3],
            [0x477f_8001; 3],
            [0x477f_c000; 3],
            [0x7f7f_ffff; 3],
        ]
        .map(|x| [x[0], x[1], x[2], 0]),
    );
    for _ in 0..768 {
        let e = rng.below(50) as i32 - 34;
        let x = [0, 1, 2].map(|_| {
            let m = (rng.next() >> 40) as f32 / (1u64 << 24) as f32;
            let spread = rng.below(12) as i32;
            (m * 2f32.powi(e - spread)).to_bits()
        });
        inputs.push([x[0], x[1], x[2], 0]);
    }
    for (rtz, mode) in [(false, Mode::Even), (true, Mode::Zero)] {
        check_stores(rgb9e5(rtz), &inputs, |x| {
            oracle::shared_exp_store([x[0], x[1], x[2]], mode)
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Round trips

/// Loads `words` into registers and stores them back (device memory); the words written.
fn round_trip(form: Form, half: bool, words: &[u32]) -> Vec<u32> {
    let f = lift(&device_program(form, half, true, true));
    let mut out = Vec::new();
    for chunk in words.chunks(PER_RUN) {
        let mut device = word_bytes(chunk);
        device.resize(8 * PER_RUN, 0);
        let memory = Memory {
            device,
            ..Memory::default()
        };
        let after = run(&f, &Wave::new(), &memory, |w, at| {
            set_pair(w, 20, |lane| at + u64::from(4 * PER_LANE * lane));
            set_pair(w, 22, |lane| {
                at + (4 * PER_RUN) as u64 + u64::from(4 * PER_LANE * lane)
            })
        });
        out.extend((0..chunk.len()).map(|e| word_at(&after.memory.device, PER_RUN + e)));
    }
    out
}

#[test]
fn stores_give_back_what_loads_read() {
    let all10 = rgb10a2_words();
    let srgb = srgba8_words();
    // Every float11/float10 code but the NaNs (a NaN comes back as the quiet NaN).
    let finite: Vec<u32> = rg11b10f_words()
        .into_iter()
        .filter(|w| (0..3).all(|k| rg11b10f_load(*w, k, false) != oracle::default_nan(false)))
        .collect();
    for half in [false, true] {
        assert_eq!(round_trip(RGB10A2, half, &all10), all10, "rgb10a2");
        assert_eq!(round_trip(SRGBA8, half, &srgb), srgb, "srgba8");
        for rtz in [false, true] {
            assert_eq!(round_trip(rg11b10f(rtz), half, &finite), finite, "rg11b10f");
        }
    }
    // rgb9e5 keeps the values (the exponent may be normalized): store(load(w)) loads as w.
    let shared = rgb9e5_words();
    for rtz in [false, true] {
        for (w, back) in shared.iter().zip(round_trip(rgb9e5(rtz), false, &shared)) {
            for k in 0..3 {
                assert_eq!(
                    rgb9e5_load(back, k, false),
                    rgb9e5_load(*w, k, false),
                    "rgb9e5 {w:#010x} came back as {back:#010x}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Threadgroup and stack memory

/// The one-word formats, and random words for them.
fn one_word_cases() -> (Vec<Form>, Vec<u32>) {
    let mut rng = Rng(77);
    let words = (0..PER_RUN).map(|_| rng.next() as u32).collect();
    let forms = vec![
        RGB10A2,
        rg11b10f(false),
        rg11b10f(true),
        rgb9e5(false),
        rgb9e5(true),
        SRGBA8,
    ];
    (forms, words)
}

#[test]
fn threadgroup_loads_and_stores() {
    // Lane l's words at byte base 32 * l (r20l); access i at element i * step. The loads are
    // stored back 1024 bytes further (base r20h) and must read as the same values.
    let (forms, words) = one_word_cases();
    for form in forms {
        for half in [false, true] {
            let mut text = String::new();
            for i in 0..PER_LANE {
                let regs = range(data_reg(i), form.regs, half);
                let (name, mask, o) = (form.name, form.mask, i * form.step);
                text += &format!("threadgroup_load {name}, {mask}, {regs}, r20l, {o}\n");
                text += &format!("threadgroup_store {name}, {mask}, {regs}, r20h, {o}\n");
            }
            let f = lift(&(text + "stop\n"));
            let mut threadgroup = word_bytes(&words);
            threadgroup.resize(2048, 0);
            let memory = Memory {
                threadgroup,
                ..Memory::default()
            };
            let after = run(&f, &Wave::new(), &memory, |w, _| {
                w.set_r_with(20, |lane| (32 * lane) | ((1024 + 32 * lane) << 16))
            });
            let back = &after.memory.threadgroup[1024..];
            for lane in 0..LANES {
                for i in 0..PER_LANE {
                    let e = (lane * PER_LANE + i) as usize;
                    for k in 0..form.regs {
                        let want = (form.expect)(words[e], k, half);
                        let got = reg(&after.wave, data_reg(i), k, half, lane);
                        assert_eq!(
                            got, want,
                            "{} threadgroup load of {:#x}",
                            form.name, words[e]
                        );
                        let again = (form.expect)(word_at(back, e), k, half);
                        let nan = |v: u32| v == oracle::default_nan(half);
                        assert!(
                            again == want || nan(want) && nan(again),
                            "{} threadgroup store",
                            form.name
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn stack_loads_and_stores() {
    // Each thread's own segment holds one word at index 0 (where the index is the same in
    // bytes and in words); a load of it is stored back over it. Runs of 32 words.
    let (forms, words) = one_word_cases();
    for form in forms {
        // 32-bit registers for the four-register formats, 16-bit ones for the others.
        let half = form.regs == 3;
        let regs = range(data_reg(0), form.regs, half);
        let (name, mask) = (form.name, form.mask);
        let f = lift(&format!(
            "stack_load {regs}, {name}, 0, 0, {mask}, 0, 0, 0\n\
             stack_store {name}, 0, 0, {mask}, 0, {regs}, 0, 0\nstop\n"
        ));
        for chunk in words.chunks(LANES as usize) {
            let memory = Memory {
                stack: word_bytes(chunk),
                stack_bytes: 4,
                ..Memory::default()
            };
            let after = run(&f, &Wave::new(), &memory, |_, _| {});
            for (lane, &w) in chunk.iter().enumerate() {
                let back = word_at(&after.memory.stack, lane);
                for k in 0..form.regs {
                    let want = (form.expect)(w, k, half);
                    let got = reg(&after.wave, data_reg(0), k, half, lane as u32);
                    assert_eq!(got, want, "{name} stack load of {w:#x}");
                    let again = (form.expect)(back, k, half);
                    let nan = |v: u32| v == oracle::default_nan(half);
                    assert!(
                        again == want || nan(want) && nan(again),
                        "{name} stack store: {w:#x} came back as {back:#x}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_threadgroup_guard_covers_the_packed_word() {
    // 64 bytes of threadgroup memory: the word at byte 60 is inside, at 61 it ends past it,
    // whatever the mask says.
    for (text, base, faults) in [
        ("threadgroup_load rgb9e5, x, r32l, r20l, 0", 60, false),
        ("threadgroup_load rgb9e5, x, r32l, r20l, 0", 61, true),
        ("threadgroup_store rg11b10f, x, r32, r20l, 0", 61, true),
        (
            "threadgroup_load rgb10a2, xyzw, r32_r33_r34_r35, r20l, 15",
            0,
            false,
        ),
        (
            "threadgroup_load rgb10a2, xyzw, r32_r33_r34_r35, r20l, 16",
            0,
            true,
        ),
    ] {
        let f = lift(&format!("{text}\nstop\n"));
        let memory = Memory {
            threadgroup: vec![0x55; 64],
            ..Memory::default()
        };
        let (end, _) = run_to_end(&f, &Wave::new(), &memory, |w, _| w.set_r_all(20, base));
        assert_eq!(
            matches!(end, End::Fault(..)),
            faults,
            "{text} at {base}: {end:?}"
        );
    }
}
