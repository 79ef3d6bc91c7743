//! Per-lane semantics of every pure op: the one definition the reference interpreter, the
//! builder's constant folding and every JIT slow path share.
//!
//! [`eval`] takes raw bits zero-extended to 64 bits (`i1` is 0 or 1) and returns the result's
//! bits the same way. It never panics: well-typed operands (per [`Op::check`]) get the result
//! defined below; anything else (a missing operand, an integer where a float belongs) gives 0.
//!
//! # Float rules (shared by every float op; a JIT must implement exactly these)
//!
//! **Flushing.** With `mode.flush_in`, every float operand of an op that reads its mode
//! ([`Op::uses_float_mode`]) is first read as a zero of the same sign if it is denormal. With
//! `mode.flush_out`, a denormal result is written as a zero of the same sign; this happens
//! *after* rounding (a value just below the smallest normal that rounds up to it is kept).
//! Ops without a mode (`fneg`, `fabs`, `fcopysign`, `fclass`, `select`, bitcasts, the GCN
//! packing ops) never flush.
//!
//! **NaN rule.** (1) If any float operand (after input flushing) is a NaN, the result is the
//! *first* NaN operand in operand order with its quiet bit set, sign and payload kept.
//! Signalling and quiet NaNs are treated alike. (2) Otherwise, an invalid operation (0·∞,
//! ∞-∞, 0/0, ∞/∞, sqrt/log of a negative, sin/cos of ∞, ...) gives the *default NaN*: sign
//! set, quiet bit set, zero payload: `0xfe00` (f16), `0xffc00000` (f32),
//! `0xfff8000000000000` (f64). (3) A float op never returns a signalling NaN.
//! Sources: AMD's GCN/RDNA pseudocode writes the invalid result of `v_div_fixup` as
//! `0xffc00000`, and CLRX (GcnInstrsVop1.md, from hardware tests) reports "-NaN" for
//! `v_sqrt/v_rsq/v_log` of negative inputs and `v_sin/v_cos` of infinities. Which input NaN
//! wins is not documented by AMD; "first operand" is the x86 SSE/AVX rule (so host `addss`
//! etc. give it natively when operands are passed in IR order) and APFloat's.
//! The exceptions are the documented per-op special cases: min/max (below), `fmed3`,
//! `fclamp`, `fmul_legacy`, `fract(±inf)` (a quiet NaN with the input's sign), the
//! transcendental flavours, and the GCN division helpers (see [`gpu`]).
//!
//! **Rounding.** `fadd fsub fmul fdiv fma fsqrt ldexp`, integer-to-float and float narrowing
//! are correctly rounded in `mode.round` (all four modes; ties to even). Round-to-nearest f32
//! and f64 arithmetic is computed with host IEEE operations, other cases exactly in software.
//! `Frcp/Frsq/Fexp2/Flog2/Fsin/Fcos` are defined computations rounded to nearest even ([`trans`]
//! documents them; hardware is ~1 ulp approximate, so these are a reproducible stand-in, not
//! bit-identical to a GPU).
//!
//! **Fused vs unfused.** `fma` rounds once. `fmad` is exactly `fadd(fmul(a, b), c)` with the
//! same mode: the product is rounded, flushed per `flush_out`, NaN-ruled, then added (so
//! `fmad(0, inf, qnan)` is the default NaN, while `fma(0, inf, qnan)` is `qnan`).
//!
//! **Legacy multiply.** `fmul_legacy`: after input flushing, if either operand is ±0 the
//! result is +0 whatever the other (∞ and NaN included; DX9 rule, seed 000 MUL "0 * anything
//! = 0", LLVM `amdgcn.fmul.legacy`); otherwise IEEE `fmul`. `fmad_legacy` is
//! `fadd(fmul_legacy(a, b), c)`, so `fmad_legacy(0, x, -0) = +0` (LLVM's `fma_legacy` fold
//! notes the same).
//!
//! **Min/max** ([`minmax`]): `Ieee`: a signalling NaN operand gives the NaN rule's result; else
//! a quiet NaN operand is ignored (NaN only if both are). `NonIeee`: any NaN operand is
//! ignored. Both order -0 below +0. `Legacy`: `a < b ? a : b` (max: `a > b ? a : b`) with IEEE
//! comparison, so a NaN in either operand or equal zeros give `b` (quieted if NaN).
//! `fmed3`: the median, -0 below +0; with a NaN operand the minimum of the three ignoring NaNs
//! (`Ieee` with a signalling NaN: the NaN rule). `fclamp`: -0 → +0; NaN → +0 if `dx10`, else
//! the quiet NaN.
//!
//! **Conversions** ([`convert`]): float to integer truncates, saturates and maps NaN to 0;
//! NaN payloads are shifted (widening) or truncated (narrowing) and quieted.
//!
//! **Exception flags** ([`except`]): `fexcept` gives the IEEE 754 flags the op it names
//! raises on its operands in its mode.
//!
//! # Integer rules
//! See [`int`]: wrapping arithmetic, RISC-V division by zero, shift amounts modulo the width,
//! `clz`/`ctz` of 0 = width, GCN bit-field semantics.

pub mod convert;
pub mod except;
mod float;
mod format;
pub mod gpu;
pub mod int;
mod intpart;
mod media;
pub mod minmax;
mod round;
pub mod trans;
mod two_over_pi;

pub use format::Fmt;

use crate::op::{FloatMode, Op};
use crate::types::ScalarType;
use float::Arith;
use intpart::Integral;
use trans::Func;

/// The result bits of `op` on `args` (bits, zero-extended) with operand types `arg_tys` and
/// result type `ty`. Never panics; see the module docs for the rules.
pub fn eval(op: Op, mode: FloatMode, ty: ScalarType, arg_tys: &[ScalarType], args: &[u64]) -> u64 {
    let n = op.arity();
    if args.len() < n || arg_tys.len() < n {
        return 0;
    }
    let mut a = [0u64; 4];
    let mut tys = [ScalarType::I32; 4];
    for i in 0..n {
        a[i] = args[i] & arg_tys[i].bit_mask();
        tys[i] = arg_tys[i];
    }
    dispatch(op, mode, ty, &tys, a).unwrap_or(0) & ty.bit_mask()
}

fn dispatch(
    op: Op,
    mode: FloatMode,
    ty: ScalarType,
    tys: &[ScalarType; 4],
    a: [u64; 4],
) -> Option<u64> {
    use Op::*;
    let bits = ty.bits();
    let f = Fmt::of(ty);
    let f0 = Fmt::of(tys[0]);
    let bool = |v: bool| u64::from(v);
    let fb = |o: Arith| Some(float::binary(o, f?, mode, a[0], a[1]));
    let tr = |func: Func, t| Some(trans::eval(func, t, f?, mode, a[0]));
    let whole = |k: Integral| Some(intpart::integral(k, f?, mode, a[0]));
    let cube = |c: gpu::Cube| Some(gpu::cube(c, mode, a[0], a[1], a[2]));
    match op {
        Iadd | Isub | Imul | UmulHi | SmulHi | Udiv | Urem | Sdiv | Srem | UaddSat | UsubSat
        | SaddSat | SsubSat | Umin | Umax | Smin | Smax | And | Or | Xor | Shl | Lshr | Ashr => {
            int::binary(op, bits, a[0], a[1])
        }
        Not | Iabs | Popcnt | Clz | Ctz | Bitrev => int::unary(op, bits, a[0]),
        AddCarryOut => Some(bool(int::carry(false, tys[0].bits(), a[0], a[1], a[2]))),
        SubBorrowOut => Some(bool(int::carry(true, tys[0].bits(), a[0], a[1], a[2]))),
        Ubfe => Some(int::bfe(false, bits, a[0], a[1], a[2])),
        Sbfe => Some(int::bfe(true, bits, a[0], a[1], a[2])),
        Bfi => Some((a[1] & a[0]) | (a[2] & !a[0])),
        Bfm => Some(int::bfm(a[0], a[1])),
        BitAlign => Some(int::align(a[0], a[1], (a[2] & 31) as u32)),
        ByteAlign => Some(int::align(a[0], a[1], 8 * (a[2] & 3) as u32)),
        Icmp(cc) => Some(bool(int::compare(cc, tys[0].bits(), a[0], a[1]))),
        Fcmp(cc) => Some(bool(minmax::compare(cc, f0?, mode, a[0], a[1]))),
        Fclass => Some((a[1] >> minmax::class_bit(f0?, a[0])) & 1),
        Select => Some(if a[0] & 1 == 1 { a[1] } else { a[2] }),
        Zext | Trunc | Bitcast => Some(a[0]),
        Sext => Some(int::sext(a[0], tys[0].bits()) as u64),
        Concat => Some(a[0] | a[1].checked_shl(tys[0].bits()).unwrap_or(0)),
        FtoU => Some(convert::to_int(f0?, mode, a[0], bits, false)),
        FtoS => Some(convert::to_int(f0?, mode, a[0], bits, true)),
        UtoF => Some(convert::from_int(f?, mode, a[0], tys[0], false)),
        StoF => Some(convert::from_int(f?, mode, a[0], tys[0], true)),
        Fconvert => Some(convert::convert(f0?, f?, mode, a[0])),
        Fadd => fb(Arith::Add),
        Fsub => fb(Arith::Sub),
        Fmul => fb(Arith::Mul),
        Fdiv => fb(Arith::Div),
        FmulLegacy => Some(mul_legacy(f?, mode, a[0], a[1])),
        Fmin(rule) => Some(minmax::min_max(rule, false, f?, mode, a[0], a[1])),
        Fmax(rule) => Some(minmax::min_max(rule, true, f?, mode, a[0], a[1])),
        Ldexp => Some(intpart::ldexp(f?, mode, a[0], a[1])),
        Fcopysign => Some(f?.abs(a[0]) | (a[1] & f?.sign_bit())),
        Fma => Some(float::fma(f?, mode, a[0], a[1], a[2])),
        Fmad => {
            let p = float::binary(Arith::Mul, f?, mode, a[0], a[1]);
            Some(float::binary(Arith::Add, f?, mode, p, a[2]))
        }
        FmadLegacy => {
            let p = mul_legacy(f?, mode, a[0], a[1]);
            Some(float::binary(Arith::Add, f?, mode, p, a[2]))
        }
        Fmed3(rule) => Some(minmax::med3(rule, f?, mode, a[0], a[1], a[2])),
        Umed3 => Some(int::med3(false, bits, a[0], a[1], a[2])),
        Smed3 => Some(int::med3(true, bits, a[0], a[1], a[2])),
        Fneg => Some(f?.neg(a[0])),
        Fabs => Some(f?.abs(a[0])),
        Ffloor => whole(Integral::Floor),
        Fceil => whole(Integral::Ceil),
        Ftrunc => whole(Integral::Trunc),
        Frint => whole(Integral::Rint),
        Ffract => Some(intpart::fract(f?, mode, a[0])),
        Fcanonicalize => Some(float::binary(Arith::Mul, f?, mode, a[0], f?.one())),
        Fclamp { dx10 } => Some(minmax::clamp01(dx10, f?, mode, a[0])),
        Fsqrt(t) => tr(Func::Sqrt, t),
        Frcp(t) => tr(Func::Rcp, t),
        Frsq(t) => tr(Func::Rsq, t),
        Fexp2(t) => tr(Func::Exp2, t),
        Flog2(t) => tr(Func::Log2, t),
        Fsin(t, angle) => tr(Func::Sin(angle), t),
        Fcos(t, angle) => tr(Func::Cos(angle), t),
        FrexpMant => Some(intpart::frexp_mant(f?, mode, a[0])),
        FrexpExp => Some(intpart::frexp_exp(f0?, mode, a[0])),
        DivScale => Some(gpu::div_scale(f?, mode, a[0], a[1], a[2]).0),
        DivScaleFlag => Some(bool(gpu::div_scale(f0?, mode, a[0], a[1], a[2]).1)),
        DivFmas => Some(gpu::div_fmas(f?, mode, a[0], a[1], a[2], a[3] & 1 == 1)),
        DivFixup => Some(gpu::div_fixup(f?, mode, a[0], a[1], a[2])),
        TrigPreop => Some(gpu::trig_preop(mode, a[0], a[1])),
        CubeId => cube(gpu::Cube::Id),
        CubeSc => cube(gpu::Cube::Sc),
        CubeTc => cube(gpu::Cube::Tc),
        CubeMa => cube(gpu::Cube::Ma),
        CvtPkrtzF16 => Some(media::cvt_pkrtz(a[0], a[1])),
        CvtPknormI16 => Some(media::cvt_pknorm(true, a[0], a[1])),
        CvtPknormU16 => Some(media::cvt_pknorm(false, a[0], a[1])),
        CvtPkU8F32 => Some(media::cvt_pk_u8(a[0], a[1], a[2])),
        SadU8 => Some(media::sad_u8(a[0], a[1], a[2])),
        SadHiU8 => Some(media::sad_hi_u8(a[0], a[1], a[2])),
        SadU16 => Some(media::sad_u16(a[0], a[1], a[2])),
        SadU32 => Some(media::sad_u32(a[0], a[1], a[2])),
        MsadU8 => Some(media::msad_u8(a[0], a[1], a[2])),
        LerpU8 => Some(media::lerp_u8(a[0], a[1], a[2])),
        Fexcept(k) => Some(u64::from(except::flags(k, mode, &tys[..op.arity()], &a))),
    }
}

/// The DX9 multiply: ±0 times anything is +0; otherwise IEEE.
fn mul_legacy(f: Fmt, mode: FloatMode, a: u64, b: u64) -> u64 {
    let (a, b) = (float::flush_in(f, mode, a), float::flush_in(f, mode, b));
    if f.is_zero(a) || f.is_zero(b) {
        return 0;
    }
    float::binary(Arith::Mul, f, mode, a, b)
}

// --- helpers a JIT mirrors exactly -------------------------------------------------------

/// The default NaN of a float type (0 for integer types).
pub fn default_nan(ty: ScalarType) -> u64 {
    Fmt::of(ty).map_or(0, Fmt::default_nan)
}

/// `bits` with a denormal replaced by a zero of the same sign (other values unchanged).
pub fn flush(ty: ScalarType, bits: u64) -> u64 {
    Fmt::of(ty).map_or(bits, |f| f.flush(bits))
}

/// The NaN rule's result for operands `args` of float type `ty`: the first NaN, quieted.
pub fn propagate_nan(ty: ScalarType, args: &[u64]) -> Option<u64> {
    float::propagate_nan(Fmt::of(ty)?, args)
}

pub const DEFAULT_NAN_F16: u16 = Fmt::F16.default_nan() as u16;
pub const DEFAULT_NAN_F32: u32 = Fmt::F32.default_nan() as u32;
pub const DEFAULT_NAN_F64: u64 = Fmt::F64.default_nan();

pub fn flush_f16(bits: u16) -> u16 {
    Fmt::F16.flush(u64::from(bits)) as u16
}

pub fn flush_f32(bits: u32) -> u32 {
    Fmt::F32.flush(u64::from(bits)) as u32
}

pub fn flush_f64(bits: u64) -> u64 {
    Fmt::F64.flush(bits)
}

/// The NaN rule for f32 operands: `Some(first NaN, quieted)` if any operand is a NaN.
pub fn quiet_nan_result_f32(args: &[u32]) -> Option<u32> {
    args.iter()
        .find(|&&x| Fmt::F32.is_nan(u64::from(x)))
        .map(|&x| x | 0x0040_0000)
}

/// The NaN rule for f64 operands.
pub fn quiet_nan_result_f64(args: &[u64]) -> Option<u64> {
    float::propagate_nan(Fmt::F64, args)
}
