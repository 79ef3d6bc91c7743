//! Pure operations: what an [`InstKind::Pure`](crate::InstKind::Pure) instruction computes.
//!
//! # Admission rule for ISA-shaped ops
//! The IR's ops are generic: integer and float arithmetic, comparisons, conversions, bit
//! operations, as most ISAs and compilers have them. An op shaped like one ISA's instruction
//! is admitted only when that instruction cannot be expressed **exactly** by a few generic
//! ops, and the reason is written below. Acceptable reasons: its semantics need a single
//! rounding (or an exact intermediate) that no composition of rounded generic ops gives; or
//! the composition is long (more than about four generic ops, typically compares and select
//! chains for special cases) for an instruction lifters emit often, so that both back ends
//! would pay for it. Anything else is lifted to generic ops by the frontend, and a new
//! ISA-shaped op adds its line here.
//!
//! The ISA-shaped ops today and why each was admitted:
//! - `div_fmas`: GCN `v_div_fmas`, a fused multiply-add scaled by 2^±64 (2^±128) with one
//!   rounding; `fma` then `ldexp` rounds twice. Exactness.
//! - `fsin`/`fcos` with `.turns`: sin(2πx) with the argument reduced exactly; `fmul` by 2π
//!   then `.radians` rounds the product. Exactness. (The `.clamped`/`.ff`/`.legacy` flavours
//!   of the transcendentals only change special-case results and are there for cost: a
//!   select chain on every TeraScale and GCN transcendental otherwise.)
//! - `trig_preop`: GCN `v_trig_preop_f64`, 53 bits of 2/π chosen by exponent and segment: a
//!   1201-bit table the IR has no other way to hold. Exactness.
//! - `div_scale`, `div_scale_flag`, `div_fixup`: the rest of GCN's division sequence;
//!   exponent tests and NaN/infinity/zero special cases, 15 or more generic ops each. Cost.
//! - `fmul_legacy`, `fmad_legacy`: the DX9 multiply (±0 times anything is +0), TeraScale's
//!   default MUL/MULADD and GCN's `_legacy` forms: two compares, an `or` and a `select`
//!   around every such multiply (and `fmad_legacy` keeps the product's rounding and flushing
//!   between multiply and add). Cost.
//! - `fmin`/`fmax` `.nonieee` and `.legacy`, `fmed3`, `umed3`, `smed3`, `fclamp`: GCN and
//!   TeraScale NaN and signed-zero rules for min/max/median/clamp (clamp is every GCN and
//!   TeraScale float result's output modifier); compare and select chains or two to four
//!   min/max ops each. Cost.
//! - `ffract`: FRACT clamped below 1.0 with infinities giving NaN, with the flags of one op
//!   (`fexcept`): `ffloor`, `fsub`, `fmin` and a select otherwise. Cost.
//! - `fclass`: GCN `v_cmp_class` with its ten-bit class mask: up to ten class tests ORed
//!   under the mask. Cost.
//! - `ubfe`, `sbfe`, `bfi`, `bfm`, `bitalign`, `bytealign`: GCN/TeraScale bit-field and funnel
//!   shifts (ARM and x86 have relatives), with their modulo and width-0 rules: three to six
//!   shifts, masks and selects each, on every 64-bit shift and field access. Cost.
//! - `cubeid`, `cubesc`, `cubetc`, `cubema`: GCN cube-map face selection with its tie order:
//!   `fabs`, compares and select chains, about ten ops each. Cost.
//! - `cvt_pkrtz_f16`, `cvt_pknorm_i16`, `cvt_pknorm_u16`, `cvt_pk_u8_f32`: GCN packing
//!   conversions: per half a conversion (`fconvert.rtz`, or multiply, round and clamp) then
//!   bitcasts, shifts and `or`s, 8 to 14 ops. Cost.
//! - `sad_u8`, `sad_hi_u8`, `sad_u16`, `sad_u32`, `msad_u8`, `lerp_u8`: GCN media ops, byte-
//!   or half-wise sums of absolute differences and rounded averages, 15 to 30 ops each. Cost.
//!
//! Generic despite their names: `add_carry_out`/`sub_borrow_out` (LLVM's
//! `uadd.with.overflow` family), `frexp_mant`/`frexp_exp`/`ldexp` (C's `frexp`/`ldexp`),
//! `fexcept` (IEEE 754 flags as a value).
//!
//! # Ops and the op table
//! Each op is one row of the [op table](table) (which describes the row): its variant and
//! parameters, text name, operand count, typing rule ([`Sig`], checked by [`Op::check`]) and
//! whether it reads its [`FloatMode`]. Everything per-op outside the per-lane result
//! ([`crate::semantics::eval`]) comes from that row.
//!
//! Ops are generic over shape: the same op computes a uniform value from uniform operands and a
//! lane value when any operand is lane-shaped (the uniform operands are broadcast).
//!
//! Float behaviour is explicit: flavours are separate ops (IEEE vs legacy multiply, fused vs
//! unfused mad, min/max NaN rules, transcendental flavours) and every float op carries a
//! [`FloatMode`] (denormal flushing of inputs and outputs, rounding).

mod define;
pub mod param;
mod sig;
pub mod table;

pub use param::{Angle, Choice, FloatCC, FloatMode, IntCC, MinMax, ParamVisitor, Round, Trans};
pub use sig::Sig;
pub use table::Op;

use crate::except::Except;
use crate::types::ScalarType;
use std::convert::Infallible;
use std::fmt;

/// Why an op rejects its operand types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError(pub String);

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Op {
    /// Checks operand scalar types against the op and the result type `ty`: the operand count,
    /// then the op's [`Sig`]. The verifier and builder call it.
    pub fn check(self, ty: ScalarType, args: &[ScalarType]) -> Result<(), TypeError> {
        if args.len() != self.arity() {
            return Err(TypeError(format!(
                "{}: wrong number of operands",
                self.name()
            )));
        }
        self.sig().check(self, ty, args)
    }

    /// The op an `fexcept` reports on (its [`Except`] parameter), if it has one.
    pub fn reported(self) -> Option<Except> {
        struct Find(Option<Except>);
        impl ParamVisitor for Find {
            type Error = Infallible;
            fn choice<P: Choice>(&mut self, _: &mut P) -> Result<(), Infallible> {
                Ok(())
            }
            fn flag(&mut self, _: &'static str, _: &mut bool) -> Result<(), Infallible> {
                Ok(())
            }
            fn reported(&mut self, k: &mut Except) -> Result<(), Infallible> {
                self.0 = Some(*k);
                Ok(())
            }
        }
        let mut find = Find(None);
        let mut op = self;
        let Ok(()) = op.visit_params(&mut find);
        find.0
    }
}
