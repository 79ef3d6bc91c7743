//! The spellings the printer writes and the parser reads, one table per enum, so the two can
//! never disagree. Ops and their parameters are spelled by the op table ([`crate::op::table`]:
//! [`Op::name`], [`Choice::VALUES`]).

use crate::except::Except;
use crate::func::{AtomicOp, MemSpace, MemWidth};
use crate::op::{Choice, Op, ParamVisitor, Round};
use crate::types::ScalarType;
use std::convert::Infallible;

/// Rounding suffixes; `rne` (the default) is accepted but never printed.
pub const ROUNDS: [(Round, &str); 4] = [
    (Round::NearestEven, "rne"),
    (Round::TowardPositive, "rtp"),
    (Round::TowardNegative, "rtn"),
    (Round::TowardZero, "rtz"),
];

pub const SPACES: [(MemSpace, &str); 3] = [
    (MemSpace::Global, "global"),
    (MemSpace::Lds, "lds"),
    (MemSpace::Private, "private"),
];

pub const WIDTHS: [MemWidth; 4] = [MemWidth::B8, MemWidth::B16, MemWidth::B32, MemWidth::B64];

pub const ATOMIC_OPS: [(AtomicOp, &str); 22] = [
    (AtomicOp::Add, "add"),
    (AtomicOp::Sub, "sub"),
    (AtomicOp::Xchg, "xchg"),
    (AtomicOp::CmpXchg, "cmpxchg"),
    (AtomicOp::Umin, "umin"),
    (AtomicOp::Umax, "umax"),
    (AtomicOp::Smin, "smin"),
    (AtomicOp::Smax, "smax"),
    (AtomicOp::And, "and"),
    (AtomicOp::Or, "or"),
    (AtomicOp::Xor, "xor"),
    (AtomicOp::Inc, "inc"),
    (AtomicOp::Dec, "dec"),
    (AtomicOp::Fadd, "fadd"),
    (AtomicOp::Fmin, "fmin"),
    (AtomicOp::Fmax, "fmax"),
    (AtomicOp::Rsub, "rsub"),
    (AtomicOp::Mskor, "mskor"),
    (AtomicOp::Wrap, "wrap"),
    (AtomicOp::FcmpXchg, "fcmpxchg"),
    (AtomicOp::FcmpXchgFlushIn, "fcmpxchg_flush_in"),
    (AtomicOp::CondXchg32, "condxchg32"),
];

/// The spelling of `key` in `table` (every table above is total over its enum).
pub fn name_of<K: PartialEq + Copy>(table: &[(K, &'static str)], key: K) -> &'static str {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("?", |(_, n)| n)
}

pub fn lookup<K: Copy>(table: &[(K, &'static str)], name: &str) -> Option<K> {
    table.iter().find(|(_, n)| *n == name).map(|(k, _)| *k)
}

/// Every op with every parameter value: all 104 variants, comparisons with each condition,
/// min/max with each NaN rule, transcendentals with each flavour (and angle unit), and
/// `fexcept` of each of those it covers (conversions with each result type they allow).
pub fn all_ops() -> Vec<Op> {
    let plain = plain_ops();
    let mut out = plain.clone();
    for &op in &plain {
        for t in ScalarType::ALL {
            let Some(k) = Except::of(op, t) else { continue };
            // A conversion's result type must be one some operand type converts to.
            let named_ok = k.named_type().is_none()
                || [ScalarType::I32, ScalarType::F32, ScalarType::F64]
                    .iter()
                    .any(|&a| op.check(t, &[a]).is_ok());
            if named_ok && !out.contains(&Op::Fexcept(k)) {
                out.push(Op::Fexcept(k));
            }
        }
    }
    out
}

/// [`all_ops`] without `fexcept`: every op of [`Op::BASE`] with every combination of its
/// parameter values (the first parameter varying slowest).
fn plain_ops() -> Vec<Op> {
    let mut out = Vec::new();
    for base in Op::BASE {
        let mut odo = Odometer::default();
        loop {
            let mut op = base;
            odo.pos = 0;
            let Ok(()) = op.visit_params(&mut odo);
            if odo.reported {
                break;
            }
            out.push(op);
            if !odo.advance() {
                break;
            }
        }
    }
    out
}

/// Picks parameter values by a mixed-radix counter, one digit per parameter.
#[derive(Default)]
struct Odometer {
    digits: Vec<usize>,
    radix: Vec<usize>,
    pos: usize,
    /// The op has a reported op (`fexcept`), which [`all_ops`] enumerates separately.
    reported: bool,
}

impl Odometer {
    /// The value index of the next parameter, which has `n` values.
    fn digit(&mut self, n: usize) -> usize {
        if self.pos == self.digits.len() {
            self.digits.push(0);
            self.radix.push(n);
        }
        self.pos += 1;
        self.digits[self.pos - 1]
    }

    /// Steps to the next combination (the last parameter fastest); false after the last.
    fn advance(&mut self) -> bool {
        for i in (0..self.digits.len()).rev() {
            self.digits[i] += 1;
            if self.digits[i] < self.radix[i] {
                return true;
            }
            self.digits[i] = 0;
        }
        false
    }
}

impl ParamVisitor for Odometer {
    type Error = Infallible;
    fn choice<P: Choice>(&mut self, p: &mut P) -> Result<(), Infallible> {
        *p = P::VALUES[self.digit(P::VALUES.len())].0;
        Ok(())
    }
    fn flag(&mut self, _: &'static str, on: &mut bool) -> Result<(), Infallible> {
        *on = self.digit(2) == 1;
        Ok(())
    }
    fn reported(&mut self, _: &mut Except) -> Result<(), Infallible> {
        self.reported = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_ops_are_every_variant_once_in_ordinal_order() {
        assert_eq!(Op::BASE.len(), 104);
        for (i, op) in Op::BASE.into_iter().enumerate() {
            assert_eq!(op.ordinal(), i, "{}", op.name());
        }
    }

    #[test]
    fn op_names_are_unique() {
        for (i, a) in Op::BASE.into_iter().enumerate() {
            assert_eq!(
                Op::from_name(a.name()).map(Op::ordinal),
                Some(i),
                "{}",
                a.name()
            );
        }
    }

    #[test]
    fn all_ops_expands_every_parameter() {
        // 103 variants besides fexcept; icmp 10 and fcmp 15 conditions; fmin/fmax/fmed3 3
        // rules each; fclamp 2; five transcendentals 4 flavours; fsin/fcos 4 flavours x 2
        // angle units.
        let plain = 103 - 13 + 10 + 15 + 3 * 3 + 2 + 5 * 4 + 2 * 8;
        // fexcept of: 8 arithmetic ops, fmin/fmax 3 rules each, fcmp 15, ldexp, 4 roundings
        // to integral, fract, canonicalize, 20 + 16 transcendentals, 2 frexp; ftou/ftos to 4
        // integer types, utof/stof to 3 float types, fconvert to 3.
        let fexcept = 8 + 6 + 15 + 1 + 4 + 2 + 20 + 16 + 2 + 2 * 4 + 2 * 3 + 3;
        let expected = plain + fexcept;
        let ops = all_ops();
        assert_eq!(ops.len(), expected);
        for (i, a) in ops.iter().enumerate() {
            assert!(!ops[..i].contains(a), "{a:?} twice");
        }
    }
}
