//! Memory formats: how the bits of an element become register values on a load, and back on a
//! store, for device, threadgroup and stack memory alike (`mem.rs` does the addressing).
//!
//! Sources. applegpu.py HEAD (dougallj/applegpu: `DeviceLoadInstructionDesc`'s
//! documentation and `exec_thread`, `decode_float11`, `decode_float10`, srgb.py's
//! `SRGB_TABLE`) is the only executable model, and it models device loads only. Everything it
//! does not execute (threadgroup and stack memory, every store) is defined here, as the
//! inverse of the load; each such point says "defined".
//!
//! # Elements and registers
//! - `i8`, `i16`, `i32`, `f16` (raw), `u8norm`, `s8norm`, `u16norm`, `s16norm` and `srgba8`:
//!   one element of 1, 2 or 4 bytes (`srgba8`: 1) per mask bit, one register each (applegpu).
//! - `rgb10a2`, `rg11b10f`, `rgb9e5` and the `.rtz` forms are bit-packed: one 32-bit word at
//!   element 0, and 4 registers (`rgb10a2`) or 3 from R's first, whatever the mask and the
//!   shift say (applegpu: "ignore the optional shift and the mask. They always read an
//!   aligned 32-bit value"). Threadgroup and stack accesses are defined alike: the word of
//!   element 0 where mem.rs addresses a 4-byte element.
//!
//! # Loads
//! 32-bit registers receive f32 values and 16-bit registers f16 values, each the exact value
//! rounded once to nearest even (applegpu converts its double with `f32_to_u32` or
//! `f16_to_u16`; each format below says why the values agree).
//! - unorm, n bits (`u8norm`, `u16norm`, rgb10a2's 10- and 2-bit fields, srgba8's alpha):
//!   `v / (2^n - 1)`; snorm: `max(v, -(2^(n-1) - 1)) / (2^(n-1) - 1)` (applegpu). The
//!   quotient is correctly rounded in f64, then rounded to the register's width, and that is
//!   the correct rounding of the exact quotient: a quotient `v / m` (m < 2^16) that is not a
//!   midpoint `a / 2^j` of f16 or f32 (a < 2^25) lies at least `1 / (m 2^j)`, over 2^-41 of
//!   its value, from it, farther than f64's rounding moves it (2^-53), so the first rounding
//!   cannot make a tie. f32 would not do for 16-bit fields (65455 / 65535 rounds to an f16
//!   midpoint in f32), nor would f16 (4095 and 65535 are not f16 values). applegpu rounds its
//!   double quotient once to the register width: the same values; tests/memory_formats.rs
//!   checks every one.
//! - `srgba8`: the bytes of mask bits x, y and z are sRGB-encoded colour: byte b is the 12-bit
//!   unorm `SRGB_UNORM12[b]` (srgb_table.rs) read by the unorm rule, `k / 4095`. applegpu's
//!   table holds the f32 nearest `k / 4095` for each entry (scripts/gen-g13-srgb.py checks
//!   that and extracts the k), so the f32 results are applegpu's. For f16, applegpu rounds
//!   the f32 entry again and this rounds `k / 4095` once: the same f16 for every byte (the
//!   script checks that too). The byte of mask bit w is alpha, `b / 255`, whichever register
//!   it lands in (applegpu tests the element, not the register).
//! - `rg11b10f`: x = bits 10:0 and y = 21:11 are float11 (a 5-bit exponent of bias 15, a 6-bit
//!   fraction, no sign), z = 31:22 float10 (a 5-bit fraction) (applegpu `decode_float11/10`):
//!   exponent 0 is `f * 2^-14 / 2^fraction bits` (denormals), exponent 31 is +inf with f = 0
//!   and a NaN otherwise, loaded as G13's default NaN (0x7fc00000, 0x7e00; applegpu returns
//!   0x7fc00000 and its half conversion gives 0x7e00). f16 has the same exponent range and more
//!   fraction bits, so every value is exact in f16 and f32: the f16 bits are the code shifted
//!   left by 4 (float11) or 5 (float10).
//! - `rgb9e5`: mantissas at bits 8:0, 17:9 and 26:18, the shared exponent e at 31:27, value
//!   `m * 2^(e - 24)` (applegpu: `2^(e-15) * m / 512`; no implicit one, no infinity or NaN).
//!   Exact in f16 (the smallest step is 2^-24, the largest value 511 * 2^7 = 65408) and f32.
//! - `rg11b10f.rtz` and `rgb9e5.rtz` load as the plain forms: their values are exact, so a
//!   rounding mode can change nothing (defined; applegpu's emulator stops on codes 14 and 15).
//!
//! # Stores (all defined: no public source describes them)
//! A 16-bit register is first widened to f32 exactly; then each component converts as below.
//! - unorm, snorm: NaN gives 0, the value is clamped to [0, 1] ([-1, 1]), multiplied by
//!   `2^n - 1` (`2^(n-1) - 1`) exactly (in f64: 24 + 16 bits) and rounded to the nearest
//!   integer, ties to even. An f32 denormal gives 0 (as if flushed: G13 flushes fp32
//!   sources; the product is far below 1/2 either way).
//! - `srgba8` x, y, z: NaN gives 0, the value is clamped to [0, 1], and the byte is the one
//!   whose linear value `k / 4095` is nearest: rounding to nearest within the load's values,
//!   so a stored load gives its byte back. The other candidate, the sRGB encoding formula
//!   rounded in the encoded domain, is not what the hardware's table inverts; this is the
//!   choice made here. No tie can occur: a midpoint `(k + k') / 8190` of neighbours is a
//!   dyadic rational (as every f32 is) only if 4095 divides `k + k'`, and no neighbour sum is
//!   4095.
//!   Computed as the number of b with `k_b + k_(b+1) < ⌈8190 x⌉` (an integer t lies below
//!   8190 x exactly when it lies below its ceiling; 8190 x is exact in f64), counted four at a
//!   time in the 16-bit lanes of 64-bit constants, first over groups of sixteen bytes, then in
//!   the group found. The w byte is unorm8.
//! - `rg11b10f` (to nearest, ties to even) and `rg11b10f.rtz` (toward zero): each component
//!   to float11/float10 as IEEE 754 rounds to a format of that range and precision: results
//!   below 2^-14 are denormals (rounded at 2^-20 / 2^-19); a finite value too large gives +inf
//!   to nearest and the largest finite value (0x7bf, 0x3df) toward zero; +inf stays +inf.
//!   Without a sign bit, negative values, -0 and -inf give +0 (the nearest value, and D3D's
//!   rule for these formats). A NaN gives the NaN with only the top fraction bit set (0x7e0,
//!   0x3f0), the shape of G13's default NaN; payloads are not kept (a load never shows them).
//! - `rgb9e5` (to nearest even) and `rgb9e5.rtz` (toward zero): EXT_texture_shared_exponent's
//!   encoding (OpenGL registry, 2008) with the form's rounding in place of its "+ 0.5 and
//!   floor". Each component: NaN gives 0, clamped to [0, 65408] (negatives give 0, +inf the
//!   largest value `511 / 512 * 2^16`). With M the largest, the shared exponent is
//!   `E = max(0, floor(log2 M) + 16)` (0 for M = 0), the least E >= 0 with
//!   `M < 512 * 2^(E-24)`;
//!   the mantissas are `c * 2^(24 - E)` rounded; if M's rounds up to 512, E grows by one and
//!   they are rounded again (it cannot at E = 31, nor toward zero).
//!
//! The IR's `ElemFormat` has neighbours of these (`2_10_10_10` unorm, `10_11_11` float) with
//! other rules (its 16-bit loads narrow toward zero, float stores round toward zero, NaN
//! payloads pass), so the formats are built here from generic ops.

mod floats;
mod srgb;
mod srgb_table;

use super::regs::int_type;
use super::Lifter;
use wavejit_ir::{FloatCC, MemWidth, MinMax, Op, ScalarType, Value};

use ScalarType::*;

/// A memory format's element.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Format {
    /// Raw bits, zero-extended into the register.
    Raw(MemWidth),
    /// Normalized integers of this many bits, signed or not.
    Norm {
        bits: u32,
        signed: bool,
    },
    /// sRGB-encoded colour bytes with a linear alpha byte.
    Srgba8,
    Packed(Packed),
}

/// A bit-packed format: one 32-bit word, several registers.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Packed {
    Rgb10a2,
    Rg11b10f { rtz: bool },
    Rgb9e5 { rtz: bool },
}

impl Format {
    /// The format of field F's value (applegpu's `MEMORY_FORMATS`), if one is defined.
    pub(super) fn of(code: u64) -> Option<Format> {
        let norm = |bits, signed| Format::Norm { bits, signed };
        Some(match code {
            0 => Format::Raw(MemWidth::B8),
            1 | 3 => Format::Raw(MemWidth::B16),
            2 => Format::Raw(MemWidth::B32),
            4 => norm(8, false),
            5 => norm(8, true),
            6 => norm(16, false),
            7 => norm(16, true),
            8 => Format::Packed(Packed::Rgb10a2),
            10 => Format::Srgba8,
            12 => Format::Packed(Packed::Rg11b10f { rtz: false }),
            13 => Format::Packed(Packed::Rgb9e5 { rtz: false }),
            14 => Format::Packed(Packed::Rg11b10f { rtz: true }),
            15 => Format::Packed(Packed::Rgb9e5 { rtz: true }),
            _ => return None,
        })
    }

    /// The width of one element in memory (a bit-packed format's word).
    pub(super) fn width(self) -> MemWidth {
        match self {
            Format::Raw(w) => w,
            Format::Norm { bits: 8, .. } | Format::Srgba8 => MemWidth::B8,
            Format::Norm { .. } => MemWidth::B16,
            Format::Packed(_) => MemWidth::B32,
        }
    }
}

impl Packed {
    /// The registers a bit-packed access reads or writes.
    pub(super) fn registers(self) -> u16 {
        match self {
            Packed::Rgb10a2 => 4,
            Packed::Rg11b10f { .. } | Packed::Rgb9e5 { .. } => 3,
        }
    }
}

impl Lifter<'_> {
    /// Element `i` (the mask bit that reads it) of a loaded element format, zero-extended to
    /// the register's width, as the register's value.
    pub(super) fn unpack(&mut self, format: Format, i: u32, v: Value, reg_bits: u32) -> Value {
        match format {
            Format::Raw(_) | Format::Packed(_) => v,
            Format::Norm { bits, signed } => {
                let x = self.extend(v, bits, signed, I32);
                let max = (1u32 << (bits - u32::from(signed))) - 1;
                let x = if signed {
                    let lo = self.b.i32(max.wrapping_neg());
                    self.b.op(Op::Smax, I32, &[x, lo])
                } else {
                    x
                };
                self.unorm_value(x, max, reg_bits)
            }
            Format::Srgba8 => {
                let x = self.extend(v, 8, false, I32);
                if i == 3 {
                    self.unorm_value(x, 255, reg_bits)
                } else {
                    let k = self.srgb_unorm12(x);
                    self.unorm_value(k, 4095, reg_bits)
                }
            }
        }
    }

    /// A register's value as element `i` of an element format to store (its low bits for
    /// raw formats), in the register's integer type.
    pub(super) fn pack(&mut self, format: Format, i: u32, v: Value, reg_bits: u32) -> Value {
        let e = match format {
            Format::Raw(_) | Format::Packed(_) => return v,
            Format::Norm { bits, signed } => {
                let f = self.register_f32(v, reg_bits);
                self.norm_field(f, bits, signed)
            }
            Format::Srgba8 => {
                let f = self.register_f32(v, reg_bits);
                if i == 3 {
                    self.norm_field(f, 8, false)
                } else {
                    self.srgb_byte(f)
                }
            }
        };
        self.extend(e, 32, false, int_type(reg_bits))
    }

    /// The registers' values of a loaded bit-packed word (i32).
    pub(super) fn unpack_word(&mut self, p: Packed, w: Value, reg_bits: u32) -> Vec<Value> {
        match p {
            Packed::Rgb10a2 => [(0, 10), (10, 10), (20, 10), (30, 2)]
                .into_iter()
                .map(|(at, n)| {
                    let x = self.bits_of(w, at, n);
                    self.unorm_value(x, (1 << n) - 1, reg_bits)
                })
                .collect(),
            Packed::Rg11b10f { .. } => [(0, 6), (11, 6), (22, 5)]
                .into_iter()
                .map(|(at, fraction)| {
                    let x = self.bits_of(w, at, 5 + fraction);
                    self.small_float_value(x, fraction, reg_bits)
                })
                .collect(),
            Packed::Rgb9e5 { .. } => {
                let e = self.bits_of(w, 27, 5);
                (0..3)
                    .map(|c| {
                        let m = self.bits_of(w, 9 * c, 9);
                        self.shared_exp_value(m, e, reg_bits)
                    })
                    .collect()
            }
        }
    }

    /// The word (i32) a bit-packed store of the registers' values `regs` writes.
    pub(super) fn pack_word(&mut self, p: Packed, regs: &[Value], reg_bits: u32) -> Value {
        let f: Vec<Value> = regs
            .iter()
            .map(|&r| self.register_f32(r, reg_bits))
            .collect();
        let fields: Vec<(Value, u32)> = match p {
            Packed::Rgb10a2 => [(0, 10), (10, 10), (20, 10), (30, 2)]
                .into_iter()
                .zip(&f)
                .map(|((at, n), &x)| (self.norm_field(x, n, false), at))
                .collect(),
            Packed::Rg11b10f { rtz } => [(0, 6), (11, 6), (22, 5)]
                .into_iter()
                .zip(&f)
                .map(|((at, fraction), &x)| (self.small_float_field(x, fraction, rtz), at))
                .collect(),
            Packed::Rgb9e5 { rtz } => return self.shared_exp_word([f[0], f[1], f[2]], rtz),
        };
        let mut word = self.b.i32(0);
        for (v, at) in fields {
            let k = self.b.i32(at);
            let v = self.b.op(Op::Shl, I32, &[v, k]);
            word = self.b.op(Op::Or, I32, &[word, v]);
        }
        word
    }

    /// Bits `at..at + n` of the i32 `w`, zero-extended.
    fn bits_of(&mut self, w: Value, at: u32, n: u32) -> Value {
        let k = self.b.i32(at);
        let v = self.b.op(Op::Lshr, I32, &[w, k]);
        let mask = self.b.i32((1 << n) - 1);
        self.b.op(Op::And, I32, &[v, mask])
    }

    /// The i32 `x` divided by `max`, correctly rounded to the register's float width, as its
    /// bits (module docs, Loads).
    fn unorm_value(&mut self, x: Value, max: u32, reg_bits: u32) -> Value {
        let f = self.b.op(Op::StoF, F64, &[x]);
        let m = self.b.f64(f64::from(max));
        let q = self.b.op(Op::Fdiv, F64, &[f, m]);
        let fty = if reg_bits == 16 { F16 } else { F32 };
        let q = self.b.op(Op::Fconvert, fty, &[q]);
        self.b.op(Op::Bitcast, int_type(reg_bits), &[q])
    }

    /// A register's value (its low `reg_bits`) as the f32 a store converts: an f16 widened
    /// exactly.
    fn register_f32(&mut self, v: Value, reg_bits: u32) -> Value {
        if reg_bits == 16 {
            let v = self.extend(v, 16, false, I16);
            let h = self.b.op(Op::Bitcast, F16, &[v]);
            self.b.op(Op::Fconvert, F32, &[h])
        } else {
            let v = self.extend(v, 32, false, I32);
            self.b.op(Op::Bitcast, F32, &[v])
        }
    }

    /// The f32 `f` with NaN read as 0, clamped to [lo, hi].
    fn clamp(&mut self, f: Value, lo: f32, hi: f32) -> Value {
        let nan = self.b.op(Op::Fcmp(FloatCC::Uno), I1, &[f, f]);
        let zero = self.b.f32(0.0);
        let f = self.b.op(Op::Select, F32, &[nan, zero, f]);
        let lo = self.b.f32(lo);
        let hi = self.b.f32(hi);
        let f = self.b.op(Op::Fmax(MinMax::NonIeee), F32, &[f, lo]);
        self.b.op(Op::Fmin(MinMax::NonIeee), F32, &[f, hi])
    }

    /// The `bits`-wide normalized field of the f32 `f` as an i32 (negative for a negative
    /// snorm; a store keeps the low bits) (module docs, Stores).
    fn norm_field(&mut self, f: Value, bits: u32, signed: bool) -> Value {
        let max = (1u32 << (bits - u32::from(signed))) - 1;
        let lo = if signed { -1.0 } else { 0.0 };
        let f = self.clamp(f, lo, 1.0);
        let d = self.b.op(Op::Fconvert, F64, &[f]);
        let k = self.b.f64(f64::from(max));
        let d = self.b.op(Op::Fmul, F64, &[d, k]);
        let d = self.b.op(Op::Frint, F64, &[d]);
        self.b.op(Op::FtoS, I32, &[d])
    }
}
