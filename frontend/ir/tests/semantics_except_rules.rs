//! `fexcept` rules the host has no instruction for (transcendentals, DX9 multiply, unfused
//! multiply-add, fract, ldexp, frexp, unsigned and f16 conversions), and the text form.
//! Each expected value is worked out by hand from the rule in semantics/except.rs; the
//! comment beside it gives the arithmetic.

use wavejit_ir::fpflag::{DENORMAL as DE, DIV_BY_ZERO as DZ, INEXACT as PE, INVALID as IE};
use wavejit_ir::fpflag::{OVERFLOW as OE, UNDERFLOW as UE};
use wavejit_ir::semantics::eval;
use wavejit_ir::text::{parse, print};
use wavejit_ir::{Angle, Except, FloatCC, FloatMode, MinMax, Op, ScalarType, Trans};

use ScalarType::{F16, F32, F64, I32};

const IEEE: FloatMode = FloatMode::IEEE;
const QNAN: f32 = f32::NAN;

fn snan() -> f32 {
    f32::from_bits(0x7f80_0001)
}

fn den() -> f32 {
    f32::from_bits(1)
}

fn f(k: Except, mode: FloatMode, args: &[f32]) -> u32 {
    let tys = vec![F32; args.len()];
    let bits: Vec<u64> = args.iter().map(|a| u64::from(a.to_bits())).collect();
    eval(Op::Fexcept(k), mode, I32, &tys, &bits) as u32
}

fn d(k: Except, args: &[f64]) -> u32 {
    let tys = vec![F64; args.len()];
    let bits: Vec<u64> = args.iter().map(|a| a.to_bits()).collect();
    eval(Op::Fexcept(k), IEEE, I32, &tys, &bits) as u32
}

fn check(cases: &[(&str, u32, u32)]) {
    let bad: Vec<String> = cases
        .iter()
        .filter(|(_, got, want)| got != want)
        .map(|(what, got, want)| format!("{what}: got {got:#04x}, want {want:#04x}"))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn transcendentals_follow_the_documented_rule() {
    let rcp = Except::Frcp(Trans::Ieee);
    let rsq = Except::Frsq(Trans::Ieee);
    let sqrt = Except::Fsqrt(Trans::Ieee);
    let log = Except::Flog2(Trans::Ieee);
    let exp = Except::Fexp2(Trans::Ieee);
    let sin_t = Except::Fsin(Trans::Ieee, Angle::Turns);
    let cos_t = Except::Fcos(Trans::Ieee, Angle::Turns);
    let sin_r = Except::Fsin(Trans::Ieee, Angle::Radians);
    check(&[
        ("rcp(+0): pole", f(rcp, IEEE, &[0.0]), DZ),
        ("rcp(-0): pole", f(rcp, IEEE, &[-0.0]), DZ),
        (
            "rcp_clamped(0): still a pole",
            f(Except::Frcp(Trans::Clamped), IEEE, &[0.0]),
            DZ,
        ),
        ("rcp(2) = 0.5 exact", f(rcp, IEEE, &[2.0]), 0),
        ("rcp(3) inexact", f(rcp, IEEE, &[3.0]), PE),
        ("rcp(inf) = 0 exact", f(rcp, IEEE, &[f32::INFINITY]), 0),
        (
            "rcp(2^-149) = 2^149 overflows",
            f(rcp, IEEE, &[den()]),
            DE | OE | PE,
        ),
        // 1 / (1.5 * 2^127) = 2^-127 / 1.5: a rounded denormal.
        (
            "rcp(1.5*2^127) underflows",
            f(rcp, IEEE, &[f32::from_bits(0x7f40_0000)]),
            UE | PE,
        ),
        ("rcp(qnan)", f(rcp, IEEE, &[QNAN]), 0),
        ("rcp(snan)", f(rcp, IEEE, &[snan()]), IE),
        ("rsq(4) = 0.5 exact", f(rsq, IEEE, &[4.0]), 0),
        ("rsq(2) inexact", f(rsq, IEEE, &[2.0]), PE),
        ("rsq(-1) domain", f(rsq, IEEE, &[-1.0]), IE),
        ("rsq(-0) pole", f(rsq, IEEE, &[-0.0]), DZ),
        ("rsq(-inf) domain", f(rsq, IEEE, &[f32::NEG_INFINITY]), IE),
        ("sqrt(4) exact", f(sqrt, IEEE, &[4.0]), 0),
        ("sqrt(-0) = -0", f(sqrt, IEEE, &[-0.0]), 0),
        ("sqrt(-1) domain", f(sqrt, IEEE, &[-1.0]), IE),
        ("log2(8) = 3 exact", f(log, IEEE, &[8.0]), 0),
        ("log2(3) inexact", f(log, IEEE, &[3.0]), PE),
        ("log2(0) pole", f(log, IEEE, &[0.0]), DZ),
        ("log2(-1) domain", f(log, IEEE, &[-1.0]), IE),
        ("log2(2^-149) = -149 exact", f(log, IEEE, &[den()]), DE),
        (
            "log2(den) flushed = log2(0)",
            f(log, FloatMode::FLUSH, &[den()]),
            DZ,
        ),
        ("exp2(3) = 8 exact", f(exp, IEEE, &[3.0]), 0),
        ("exp2(0.5) inexact", f(exp, IEEE, &[0.5]), PE),
        ("exp2(128) overflows", f(exp, IEEE, &[128.0]), OE | PE),
        ("exp2(200.5) overflows", f(exp, IEEE, &[200.5]), OE | PE),
        ("exp2(-149) = smallest denormal", f(exp, IEEE, &[-149.0]), 0),
        ("exp2(-150): a tie, to 0", f(exp, IEEE, &[-150.0]), UE | PE),
        (
            "exp2(-149) flushed out",
            f(exp, FloatMode::FLUSH_OUT, &[-149.0]),
            UE | PE,
        ),
        ("exp2(-inf) = 0", f(exp, IEEE, &[f32::NEG_INFINITY]), 0),
        ("sin(0.25 turn) = 1", f(sin_t, IEEE, &[0.25]), 0),
        ("cos(0.5 turn) = -1", f(cos_t, IEEE, &[0.5]), 0),
        ("sin(0.1 turn) inexact", f(sin_t, IEEE, &[0.1]), PE),
        ("sin(inf) domain", f(sin_t, IEEE, &[f32::INFINITY]), IE),
        (
            "sin(300 turns): outside the domain",
            f(sin_t, IEEE, &[300.0]),
            PE,
        ),
        (
            "sin(2pi * 2^-149) tiny",
            f(sin_t, IEEE, &[den()]),
            DE | UE | PE,
        ),
        ("sin(1 rad) inexact", f(sin_r, IEEE, &[1.0]), PE),
        ("sin(-0) = -0", f(sin_r, IEEE, &[-0.0]), 0),
        ("f64 rcp(0)", d(Except::Frcp(Trans::Ieee), &[0.0]), DZ),
        ("f64 sqrt(2)", d(Except::Fsqrt(Trans::Ieee), &[2.0]), PE),
        (
            "f64 exp2(1024)",
            d(Except::Fexp2(Trans::Ieee), &[1024.0]),
            OE | PE,
        ),
    ]);
}

#[test]
fn legacy_multiply_fused_and_unfused_multiply_add() {
    let inf = f32::INFINITY;
    let tiny = f32::from_bits(0x0d80_0000); // 2^-100
    let min_normal = f32::MIN_POSITIVE;
    check(&[
        (
            "0 x inf legacy",
            f(Except::FmulLegacy, IEEE, &[0.0, inf]),
            0,
        ),
        (
            "0 x qnan legacy",
            f(Except::FmulLegacy, IEEE, &[0.0, QNAN]),
            0,
        ),
        (
            "0 x snan legacy",
            f(Except::FmulLegacy, IEEE, &[0.0, snan()]),
            IE,
        ),
        (
            "den x 0 legacy",
            f(Except::FmulLegacy, IEEE, &[den(), 0.0]),
            DE,
        ),
        ("0 x inf ieee", f(Except::Fmul, IEEE, &[0.0, inf]), IE),
        (
            "fmad_legacy(0, inf, 1)",
            f(Except::FmadLegacy, IEEE, &[0.0, inf, 1.0]),
            0,
        ),
        (
            "fmad(0, inf, 1)",
            f(Except::Fmad, IEEE, &[0.0, inf, 1.0]),
            IE,
        ),
        // 2^-200 rounds to 0 in the multiply (underflow); 0 + 1 is exact.
        (
            "fmad(2^-100, 2^-100, 1)",
            f(Except::Fmad, IEEE, &[tiny, tiny, 1.0]),
            UE | PE,
        ),
        // Fused: 1 + 2^-200 rounds to 1: inexact only (not tiny).
        (
            "fma(2^-100, 2^-100, 1)",
            f(Except::Fma, IEEE, &[tiny, tiny, 1.0]),
            PE,
        ),
        // The product 2^-127 is an exact denormal, written as 0 by flush_out; 0 + 0 exact.
        (
            "fmad flush_out",
            f(Except::Fmad, FloatMode::FLUSH_OUT, &[min_normal, 0.5, 0.0]),
            UE | PE,
        ),
        // The same product read by the add: a denormal operand of the second step.
        (
            "fmad denormal product",
            f(Except::Fmad, IEEE, &[min_normal, 0.5, 0.0]),
            DE,
        ),
        (
            "fcanonicalize(den)",
            f(Except::Fcanonicalize, IEEE, &[den()]),
            DE,
        ),
        (
            "fcanonicalize(den) flush_out",
            f(Except::Fcanonicalize, FloatMode::FLUSH_OUT, &[den()]),
            DE | UE | PE,
        ),
    ]);
}

#[test]
fn comparisons_min_max_and_roundings() {
    let signalling = Except::Fcmp(FloatCC::Ge);
    check(&[
        ("ge(qnan, 1) signals", f(signalling, IEEE, &[QNAN, 1.0]), IE),
        (
            "ueq(qnan, 1) is quiet",
            f(Except::Fcmp(FloatCC::Ueq), IEEE, &[QNAN, 1.0]),
            0,
        ),
        (
            "one(qnan, 1) is quiet",
            f(Except::Fcmp(FloatCC::One), IEEE, &[QNAN, 1.0]),
            0,
        ),
        (
            "uno(snan, 1)",
            f(Except::Fcmp(FloatCC::Uno), IEEE, &[snan(), 1.0]),
            IE,
        ),
        (
            "gt(den, 1)",
            f(Except::Fcmp(FloatCC::Gt), IEEE, &[den(), 1.0]),
            DE,
        ),
        (
            "gt(den, 1) flush_in",
            f(Except::Fcmp(FloatCC::Gt), FloatMode::FLUSH, &[den(), 1.0]),
            0,
        ),
        (
            "min ieee(qnan, 1)",
            f(Except::Fmin(MinMax::Ieee), IEEE, &[QNAN, 1.0]),
            0,
        ),
        (
            "min ieee(snan, 1)",
            f(Except::Fmin(MinMax::Ieee), IEEE, &[snan(), 1.0]),
            IE,
        ),
        (
            "max nonieee(1, den)",
            f(Except::Fmax(MinMax::NonIeee), IEEE, &[1.0, den()]),
            DE,
        ),
        (
            "max legacy(qnan, 1)",
            f(Except::Fmax(MinMax::Legacy), IEEE, &[QNAN, 1.0]),
            IE,
        ),
        (
            "floor(1.5) is not inexact",
            f(Except::Ffloor, IEEE, &[1.5]),
            0,
        ),
        ("rint(den)", f(Except::Frint, IEEE, &[den()]), 0),
        ("trunc(snan)", f(Except::Ftrunc, IEEE, &[snan()]), IE),
        ("fract(1.5) = 0.5", f(Except::Ffract, IEEE, &[1.5]), 0),
        ("fract(-0.25) = 0.75", f(Except::Ffract, IEEE, &[-0.25]), 0),
        // 1 - 2^-30 rounds to 1.0, then the clamp gives 0x3f7fffff.
        (
            "fract(-2^-30)",
            f(Except::Ffract, IEEE, &[-(2f32.powi(-30))]),
            PE,
        ),
        (
            "fract(inf) = inf - inf",
            f(Except::Ffract, IEEE, &[f32::INFINITY]),
            IE,
        ),
        ("fract(den) = den", f(Except::Ffract, IEEE, &[den()]), DE),
        (
            "fract(den) flush_out",
            f(Except::Ffract, FloatMode::FLUSH_OUT, &[den()]),
            DE | UE | PE,
        ),
        ("frexp_mant(den)", f(Except::FrexpMant, IEEE, &[den()]), DE),
        ("frexp_exp(snan)", f(Except::FrexpExp, IEEE, &[snan()]), IE),
    ]);
}

#[test]
fn ldexp_and_conversions() {
    let ldexp = |x: f32, n: i32| {
        eval(
            Op::Fexcept(Except::Ldexp),
            IEEE,
            I32,
            &[F32, I32],
            &[u64::from(x.to_bits()), u64::from(n as u32)],
        ) as u32
    };
    let int = |k: Except, v: u32| eval(Op::Fexcept(k), IEEE, I32, &[I32], &[u64::from(v)]) as u32;
    let ftou = Except::FtoU(I32);
    check(&[
        ("ldexp(1, 200)", ldexp(1.0, 200), OE | PE),
        ("ldexp(1, -149) exact denormal", ldexp(1.0, -149), 0),
        // 1.5 * 2^-149 lies halfway between 2^-149 and 2^-148: ties to even, 2^-148.
        ("ldexp(1.5, -149)", ldexp(1.5, -149), UE | PE),
        ("ldexp(1, -150)", ldexp(1.0, -150), UE | PE),
        ("ftou(-0.5) = 0", f(ftou, IEEE, &[-0.5]), PE),
        ("ftou(-1)", f(ftou, IEEE, &[-1.0]), IE),
        ("ftou(2^32)", f(ftou, IEEE, &[4_294_967_296.0]), IE),
        ("ftou(4294967040)", f(ftou, IEEE, &[4_294_967_040.0]), 0),
        ("ftou(den) is not denormal", f(ftou, IEEE, &[den()]), PE),
        (
            "ftou(den) flushed is exact",
            f(ftou, FloatMode::FLUSH, &[den()]),
            0,
        ),
        ("utof(0xffffffff)", int(Except::UtoF(F32), u32::MAX), PE),
        ("utof(2^24)", int(Except::UtoF(F32), 1 << 24), 0),
        ("utof(2^24 + 1)", int(Except::UtoF(F32), (1 << 24) + 1), PE),
        // 65520 is halfway between 65504 (the largest half) and 65536: ties to even, 65536.
        ("utof f16(65520)", int(Except::UtoF(F16), 65520), OE | PE),
        (
            "stof f16(-2048)",
            int(Except::StoF(F16), (-2048i32) as u32),
            0,
        ),
        (
            "f32 -> f16 65520",
            f(Except::Fconvert(F16), IEEE, &[65520.0]),
            OE | PE,
        ),
        (
            "f32 -> f16 1e-8",
            f(Except::Fconvert(F16), IEEE, &[1e-8]),
            UE | PE,
        ),
        ("f32 -> f16 0.5", f(Except::Fconvert(F16), IEEE, &[0.5]), 0),
        (
            "f32 -> f16 snan",
            f(Except::Fconvert(F16), IEEE, &[snan()]),
            IE,
        ),
    ]);
}

#[test]
fn fexcept_text_round_trips_and_rejects_what_has_no_flags() {
    let src = "function \"t\" wave 64 { uniform s[4], lane v[4] }

block0:
  %0 = read v[0] : lane f32
  %1 = read v[1] : lane f32
  %2 = fexcept.fadd %0, %1 : lane i32
  %3 = fexcept.fsin.clamped.turns.flush.rtz %0 : lane i32
  %4 = fexcept.ftos.i64.flush_in %0 : lane i32
  %5 = fexcept.fcmp.ult %0, %1 : lane i32
  %6 = fexcept.fmin.legacy.rtp %0, %1 : lane i32
  %7 = read s[0] : i32
  %8 = fexcept.utof.f16 %7 : i32
  %9 = fexcept.fconvert.f64 %0 : lane i32
  return
";
    let f = parse(src).expect("parses");
    wavejit_ir::verify::verify(&f).expect("verifies");
    let printed = print(&f);
    assert_eq!(parse(&printed).as_ref(), Ok(&f), "{printed}");
    for line in [
        "fexcept.fadd",
        "fexcept.fsin.clamped.turns.flush.rtz",
        "fexcept.ftos.i64.flush_in",
        "fexcept.fcmp.ult",
        "fexcept.fmin.legacy.rtp",
        "fexcept.utof.f16",
        "fexcept.fconvert.f64",
    ] {
        assert!(printed.contains(line), "{line} missing from\n{printed}");
    }
    let bad = |body: &str, msg: &str| {
        let text = format!(
            "function \"t\" wave 64 {{ lane v[4] }}\n\nblock0:\n  %0 = read v[0] : lane f32\n  {body}\n  return\n"
        );
        let e = parse(&text).expect_err(body).to_string();
        assert!(e.contains(msg), "{body}: {e}");
    };
    bad("%1 = fexcept.fneg %0 : lane i32", "has no exception flags");
    bad(
        "%1 = fexcept.iadd %0, %0 : lane i32",
        "has no exception flags",
    );
    bad("%1 = fexcept.ftos %0 : lane i32", "needs a result type");
    bad("%1 = fexcept.fmin %0, %0 : lane i32", "NaN rule");
    bad("%1 = fexcept %0 : lane i32", "float op");
    // Typing is the verifier's: the flags are an i32.
    let text = "function \"t\" wave 64 { lane v[4] }\n\nblock0:\n  %0 = read v[0] : lane f32\n  %1 = fexcept.fadd %0, %0 : lane f32\n  return\n";
    let f = parse(text).expect("parses");
    assert!(
        wavejit_ir::verify::verify(&f).is_err(),
        "an f32 result verifies"
    );
}

#[test]
fn fexcept_is_typed_like_the_op_it_reports_on() {
    let k = Op::Fexcept(Except::Fadd);
    assert!(k.check(I32, &[F32, F32]).is_ok());
    assert!(k.check(F32, &[F32, F32]).is_err(), "the flags are an i32");
    assert!(
        k.check(I32, &[F32, F64]).is_err(),
        "fadd needs one float type"
    );
    let c = Op::Fexcept(Except::FtoS(ScalarType::I1));
    assert!(
        c.check(I32, &[F32]).is_err(),
        "ftos to i1 is not a conversion"
    );
    let u = Op::Fexcept(Except::UtoF(F64));
    assert!(u.check(I32, &[I32]).is_ok());
    assert!(u.check(I32, &[F32]).is_err());
    assert_eq!(Op::Fexcept(Except::Fma).arity(), 3);
}
