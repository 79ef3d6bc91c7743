//! `fexcept` against the host: x86 SSE/FMA instructions run under an MXCSR set to the op's
//! mode (rounding control, DAZ for `flush_in`, FTZ for `flush_out`), and the status bits they
//! leave are the expected flags (the IR uses MXCSR's bit order). The operation runs inside the
//! same `asm!` block as the MXCSR load and store, so the compiler cannot move or fold it.
//! Where x86 has no instruction (f32 -> u32) or does something else by design (documented in
//! semantics/except.rs), the expectation is derived from a host instruction by a stated rule.
#![cfg(target_arch = "x86_64")]

use std::arch::asm;
use wavejit_ir::semantics::eval;
use wavejit_ir::{fpflag, Except, FloatCC, FloatMode, MinMax, Op, Round, ScalarType, Trans};

use ScalarType::{F32, F64, I32, I64};

const fn m(flush_in: bool, flush_out: bool, round: Round) -> FloatMode {
    FloatMode {
        flush_in,
        flush_out,
        round,
    }
}

const MODES: [FloatMode; 8] = {
    [
        m(false, false, Round::NearestEven),
        m(false, false, Round::TowardZero),
        m(false, false, Round::TowardPositive),
        m(false, false, Round::TowardNegative),
        m(true, false, Round::NearestEven),
        m(false, true, Round::NearestEven),
        m(true, true, Round::NearestEven),
        m(true, true, Round::TowardNegative),
    ]
};

/// MXCSR for `mode`: all exceptions masked, status clear.
fn csr(mode: FloatMode) -> u32 {
    let rc = match mode.round {
        Round::NearestEven => 0,
        Round::TowardNegative => 1,
        Round::TowardPositive => 2,
        Round::TowardZero => 3,
    };
    0x1f80 | rc << 13 | u32::from(mode.flush_in) << 6 | u32::from(mode.flush_out) << 15
}

macro_rules! host_op {
    // `ins dst, src` (dst is also the first operand).
    ($name:ident, $ins:literal, $t:ty) => {
        fn $name(mode: FloatMode, a: $t, b: $t) -> u32 {
            let (new, mut saved, mut st) = (csr(mode), 0u32, 0u32);
            let mut x = a;
            unsafe {
                asm!(
                    "stmxcsr [{saved}]",
                    "ldmxcsr [{new}]",
                    concat!($ins, " {x}, {y}"),
                    "stmxcsr [{st}]",
                    "ldmxcsr [{saved}]",
                    saved = in(reg) &mut saved,
                    new = in(reg) &new,
                    st = in(reg) &mut st,
                    x = inout(xmm_reg) x,
                    y = in(xmm_reg) b,
                );
            }
            std::hint::black_box(x);
            st & 0x3f
        }
    };
}

host_op!(addss, "addss", f32);
host_op!(subss, "subss", f32);
host_op!(mulss, "mulss", f32);
host_op!(divss, "divss", f32);
host_op!(minss, "minss", f32);
host_op!(maxss, "maxss", f32);
host_op!(sqrtss, "sqrtss", f32);
host_op!(cmpltss, "cmpltss", f32);
host_op!(cmpless, "cmpless", f32);
host_op!(cmpeqss, "cmpeqss", f32);
host_op!(cmpneqss, "cmpneqss", f32);
host_op!(cmpunordss, "cmpunordss", f32);
host_op!(addsd, "addsd", f64);
host_op!(subsd, "subsd", f64);
host_op!(mulsd, "mulsd", f64);
host_op!(divsd, "divsd", f64);
host_op!(sqrtsd, "sqrtsd", f64);
host_op!(cmpltsd, "cmpltsd", f64);
host_op!(cmpeqsd, "cmpeqsd", f64);

/// `roundss` with the precision exception suppressed (imm bit 3): IEEE roundToIntegral.
fn roundss_floor(mode: FloatMode, a: f32) -> u32 {
    let (new, mut saved, mut st) = (csr(mode), 0u32, 0u32);
    let mut x = a;
    unsafe {
        asm!(
            "stmxcsr [{saved}]",
            "ldmxcsr [{new}]",
            "roundss {x}, {y}, 9",
            "stmxcsr [{st}]",
            "ldmxcsr [{saved}]",
            saved = in(reg) &mut saved, new = in(reg) &new, st = in(reg) &mut st,
            x = inout(xmm_reg) x, y = in(xmm_reg) a,
        );
    }
    std::hint::black_box(x);
    st & 0x3f
}

/// `c + a * b` fused (`vfmadd231ss c, a, b`).
fn fmaddss(mode: FloatMode, a: f32, b: f32, c: f32) -> u32 {
    let (new, mut saved, mut st) = (csr(mode), 0u32, 0u32);
    let mut acc = c;
    unsafe {
        asm!(
            "stmxcsr [{saved}]",
            "ldmxcsr [{new}]",
            "vfmadd231ss {c}, {a}, {b}",
            "stmxcsr [{st}]",
            "ldmxcsr [{saved}]",
            saved = in(reg) &mut saved, new = in(reg) &new, st = in(reg) &mut st,
            c = inout(xmm_reg) acc, a = in(xmm_reg) a, b = in(xmm_reg) b,
        );
    }
    std::hint::black_box(acc);
    st & 0x3f
}

macro_rules! host_cvt {
    // `$ins` is the whole instruction with `{r}` (result) and `{x}` (operand).
    ($name:ident, $ins:literal, $from:ty, $to:ty, $in:ident, $out:ident) => {
        fn $name(mode: FloatMode, a: $from) -> ($to, u32) {
            let (new, mut saved, mut st) = (csr(mode), 0u32, 0u32);
            let r: $to;
            unsafe {
                asm!(
                    "stmxcsr [{saved}]",
                    "ldmxcsr [{new}]",
                    $ins,
                    "stmxcsr [{st}]",
                    "ldmxcsr [{saved}]",
                    saved = in(reg) &mut saved, new = in(reg) &new, st = in(reg) &mut st,
                    r = out($out) r, x = in($in) a,
                );
            }
            (r, st & 0x3f)
        }
    };
}

host_cvt!(cvttss2si32, "cvttss2si {r:e}, {x}", f32, i32, xmm_reg, reg);
host_cvt!(cvttss2si64, "cvttss2si {r}, {x}", f32, i64, xmm_reg, reg);
host_cvt!(cvttsd2si32, "cvttsd2si {r:e}, {x}", f64, i32, xmm_reg, reg);
host_cvt!(cvtss2sd, "cvtss2sd {r}, {x}", f32, f64, xmm_reg, xmm_reg);
host_cvt!(cvtsd2ss, "cvtsd2ss {r}, {x}", f64, f32, xmm_reg, xmm_reg);
host_cvt!(cvtsi2ss32, "cvtsi2ss {r}, {x:e}", i32, f32, reg, xmm_reg);
host_cvt!(cvtsi2ss64, "cvtsi2ss {r}, {x}", i64, f32, reg, xmm_reg);
host_cvt!(cvtsi2sd64, "cvtsi2sd {r}, {x}", i64, f64, reg, xmm_reg);

const QNAN32: u32 = 0x7fc0_0000;
const SNAN32: u32 = 0x7f80_0001;

/// Edge values: signed zeros, denormals (smallest, largest, in between), the normal
/// boundary, values near 1 and near overflow, infinities, quiet and signalling NaNs, and a
/// few values whose sums, products and quotients are tiny, huge, exact or inexact.
fn edges32() -> Vec<f32> {
    [
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007f_ffff,
        0x0040_0000,
        0x0080_0000,
        0x8080_0000,
        0x00c0_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x3f7f_ffff,
        0x3f80_0001,
        0x3fc0_0000,
        0x4040_0000,
        0xc020_0000,
        0x3dcc_cccd,
        0x1f80_0000,
        0x2000_0001,
        0x5f80_0000,
        0x7f7f_ffff,
        0xff7f_ffff,
        0x7f00_0000,
        0x7f80_0000,
        0xff80_0000,
        QNAN32,
        0xffc0_0001,
        SNAN32,
        0x4f00_0000,
        0xcf00_0000,
        0x4f80_0000,
        0x4b80_0001,
        0x3f00_0000,
        0xbf00_0000,
    ]
    .into_iter()
    .map(f32::from_bits)
    .collect()
}

fn edges64() -> Vec<f64> {
    [
        0,
        1 << 63,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x3ff0_0000_0000_0000,
        0xbff0_0000_0000_0000,
        0x3fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0001,
        0x3fb9_9999_9999_999a,
        0x2000_0000_0000_0001,
        0x5ff0_0000_0000_0000,
        0x7fef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0xfff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x47ef_ffff_e000_0000,
        0x47ef_ffff_f000_0000,
        0x3690_0000_0000_0000,
        0x36a0_0000_0000_0001,
        0x41e0_0000_0000_0000,
        0xc1e0_0000_0000_0001,
        0x4330_0000_0000_0001,
    ]
    .into_iter()
    .map(f64::from_bits)
    .collect()
}

fn flags32(k: Except, mode: FloatMode, args: &[f32]) -> u32 {
    let tys = vec![F32; args.len()];
    let bits: Vec<u64> = args.iter().map(|a| u64::from(a.to_bits())).collect();
    eval(Op::Fexcept(k), mode, I32, &tys, &bits) as u32
}

fn flags64(k: Except, mode: FloatMode, args: &[f64]) -> u32 {
    let tys = vec![F64; args.len()];
    let bits: Vec<u64> = args.iter().map(|a| a.to_bits()).collect();
    eval(Op::Fexcept(k), mode, I32, &tys, &bits) as u32
}

/// The comparisons of one test: mismatches (listed when the test fails) and the union of the
/// flags the host raised (so a test can require its inputs to raise every flag).
#[derive(Default)]
struct Tally {
    bad: Vec<String>,
    raised: u32,
}

impl Tally {
    fn check(
        &mut self,
        what: &str,
        mode: FloatMode,
        args: impl FnOnce() -> String,
        got: u32,
        want: u32,
    ) {
        self.raised |= want;
        if got != want {
            let args = args();
            self.bad.push(format!(
                "{what} {mode:?} ({args}): got {got:#04x}, host {want:#04x}"
            ));
        }
    }

    fn assert_none(&self) {
        assert!(
            self.bad.is_empty(),
            "{} mismatches:\n{}",
            self.bad.len(),
            self.bad[..self.bad.len().min(30)].join("\n")
        );
    }
}

#[test]
fn f32_binary_ops_match_sse() {
    type Host = fn(FloatMode, f32, f32) -> u32;
    let ops: [(Except, Host); 11] = [
        (Except::Fadd, addss),
        (Except::Fsub, subss),
        (Except::Fmul, mulss),
        (Except::Fdiv, divss),
        (Except::Fmin(MinMax::Legacy), minss),
        (Except::Fcmp(FloatCC::Lt), cmpltss),
        (Except::Fcmp(FloatCC::Le), cmpless),
        (Except::Fcmp(FloatCC::Eq), cmpeqss),
        (Except::Fcmp(FloatCC::Une), cmpneqss),
        (Except::Fcmp(FloatCC::Uno), cmpunordss),
        // MAXSS is `a > b ? a : b`; the IR's legacy max is the same rule.
        (Except::Fmax(MinMax::Legacy), maxss),
    ];
    let mut t = Tally::default();
    for mode in MODES {
        for &a in &edges32() {
            for &b in &edges32() {
                for (k, host) in ops {
                    let args = || format!("{:#x}, {:#x}", a.to_bits(), b.to_bits());
                    let what = format!("{k:?}");
                    t.check(
                        &what,
                        mode,
                        args,
                        flags32(k, mode, &[a, b]),
                        host(mode, a, b),
                    );
                }
            }
        }
    }
    assert_eq!(t.raised, fpflag::ALL, "the edge values raise every flag");
    t.assert_none();
}

#[test]
fn f64_binary_ops_match_sse() {
    type Host = fn(FloatMode, f64, f64) -> u32;
    let ops: [(Except, Host); 6] = [
        (Except::Fadd, addsd),
        (Except::Fsub, subsd),
        (Except::Fmul, mulsd),
        (Except::Fdiv, divsd),
        (Except::Fcmp(FloatCC::Lt), cmpltsd),
        (Except::Fcmp(FloatCC::Eq), cmpeqsd),
    ];
    let mut t = Tally::default();
    for mode in MODES {
        for &a in &edges64() {
            for &b in &edges64() {
                for (k, host) in ops {
                    let args = || format!("{:#x}, {:#x}", a.to_bits(), b.to_bits());
                    let what = format!("{k:?}");
                    t.check(
                        &what,
                        mode,
                        args,
                        flags64(k, mode, &[a, b]),
                        host(mode, a, b),
                    );
                }
            }
        }
    }
    assert_eq!(t.raised, fpflag::ALL);
    t.assert_none();
}

#[test]
fn fma_matches_x86_fma() {
    assert!(
        std::arch::is_x86_feature_detected!("fma"),
        "this test (and the JIT) needs a host with FMA"
    );
    let e = edges32();
    // Every triple of a thinned edge set (the full cube is 40k triples per mode).
    let few: Vec<f32> = e.iter().copied().step_by(2).collect();
    let mut t = Tally::default();
    for mode in MODES {
        for &a in &few {
            for &b in &few {
                for &c in &e {
                    let args =
                        || format!("{:#x}, {:#x}, {:#x}", a.to_bits(), b.to_bits(), c.to_bits());
                    let got = flags32(Except::Fma, mode, &[a, b, c]);
                    t.check("fma", mode, args, got, fmaddss(mode, a, b, c));
                }
            }
        }
    }
    t.assert_none();
}

#[test]
fn unary_ops_and_conversions_match_sse() {
    let mut t = Tally::default();
    let mut check = |what: &str, mode: FloatMode, arg: u64, got: u32, want: u32| {
        t.check(what, mode, || format!("{arg:#x}"), got, want)
    };
    let int_flags =
        |k: Except, mode, ty, v: u64| eval(Op::Fexcept(k), mode, I32, &[ty], &[v]) as u32;
    for mode in MODES {
        for &a in &edges32() {
            let bits = u64::from(a.to_bits());
            let sqrt = Except::Fsqrt(Trans::Ieee);
            check(
                "fsqrt f32",
                mode,
                bits,
                flags32(sqrt, mode, &[a]),
                sqrtss(mode, a, a),
            );
            check(
                "ffloor",
                mode,
                bits,
                flags32(Except::Ffloor, mode, &[a]),
                roundss_floor(mode, a),
            );
            check(
                "ftos i32",
                mode,
                bits,
                flags32(Except::FtoS(I32), mode, &[a]),
                cvttss2si32(mode, a).1,
            );
            check(
                "ftos i64",
                mode,
                bits,
                flags32(Except::FtoS(I64), mode, &[a]),
                cvttss2si64(mode, a).1,
            );
            // No SSE f32 -> u32: truncate to i64 (exact range), then the u32 range is checked
            // here; out of range is invalid alone, as for the signed conversion.
            let (v, st) = cvttss2si64(mode, a);
            let want = if st & fpflag::INVALID != 0 || !(0..=i64::from(u32::MAX)).contains(&v) {
                fpflag::INVALID
            } else {
                st
            };
            check(
                "ftou i32",
                mode,
                bits,
                flags32(Except::FtoU(I32), mode, &[a]),
                want,
            );
            check(
                "fconvert f32->f64",
                mode,
                bits,
                flags32(Except::Fconvert(F64), mode, &[a]),
                cvtss2sd(mode, a).1,
            );
            // Integers: the f32 bits read as an i32 and as a (sign-extended) i64.
            let i = a.to_bits() as i32;
            check(
                "stof i32->f32",
                mode,
                bits,
                int_flags(Except::StoF(F32), mode, I32, bits),
                cvtsi2ss32(mode, i).1,
            );
            let wide = i64::from(i) << 20;
            check(
                "stof i64->f32",
                mode,
                bits,
                int_flags(Except::StoF(F32), mode, I64, wide as u64),
                cvtsi2ss64(mode, wide).1,
            );
            check(
                "stof i64->f64",
                mode,
                bits,
                int_flags(Except::StoF(F64), mode, I64, (wide << 12) as u64),
                cvtsi2sd64(mode, wide << 12).1,
            );
        }
        for &a in &edges64() {
            let bits = a.to_bits();
            check(
                "fsqrt f64",
                mode,
                bits,
                flags64(Except::Fsqrt(Trans::Ieee), mode, &[a]),
                sqrtsd(mode, a, a),
            );
            check(
                "ftos f64->i32",
                mode,
                bits,
                flags64(Except::FtoS(I32), mode, &[a]),
                cvttsd2si32(mode, a).1,
            );
            check(
                "fconvert f64->f32",
                mode,
                bits,
                flags64(Except::Fconvert(F32), mode, &[a]),
                cvtsd2ss(mode, a).1,
            );
        }
    }
    t.assert_none();
}
