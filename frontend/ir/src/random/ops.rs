//! Every type combination each op accepts, found by asking [`Op::check`] (the single
//! definition of op typing) about every combination of scalar types. Parameters (conditions,
//! flavours) do not change typing, so the table has one row per [`Op`] variant, except
//! `fexcept`, whose typing is its reported op's: it has one row per reported op.

use crate::op::Op;
use crate::types::ScalarType;
use std::collections::HashMap;
use std::sync::OnceLock;

/// One accepted typing: result and operand scalar types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    pub result: ScalarType,
    pub args: [ScalarType; 4],
    pub arity: usize,
}

/// The accepted typings of `op`'s variant (never empty: every op accepts some typing, which a
/// test checks).
pub fn signatures(op: Op) -> &'static [Signature] {
    static TABLE: OnceLock<Vec<Vec<Signature>>> = OnceLock::new();
    static FEXCEPT: OnceLock<HashMap<Op, Vec<Signature>>> = OnceLock::new();
    if let Op::Fexcept(_) = op {
        let map = FEXCEPT.get_or_init(|| {
            crate::text::all_ops()
                .into_iter()
                .filter(|o| matches!(o, Op::Fexcept(_)))
                .map(|o| (o, enumerate(o)))
                .collect()
        });
        return map.get(&op).map_or(&[], Vec::as_slice);
    }
    let table = TABLE.get_or_init(|| Op::BASE.iter().map(|&op| enumerate(op)).collect());
    &table[op.ordinal()]
}

fn enumerate(op: Op) -> Vec<Signature> {
    let arity = op.arity();
    let all = ScalarType::ALL;
    let mut out = Vec::new();
    let combos = all.len().pow(arity as u32);
    for result in all {
        for mut c in 0..combos {
            let mut args = [ScalarType::I1; 4];
            for a in args.iter_mut().take(arity) {
                *a = all[c % all.len()];
                c /= all.len();
            }
            if op.check(result, &args[..arity]).is_ok() {
                out.push(Signature {
                    result,
                    args,
                    arity,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_has_a_typing() {
        for op in crate::text::all_ops() {
            assert!(!signatures(op).is_empty(), "{op:?} accepts no types");
        }
    }

    #[test]
    fn typings_follow_the_documented_rules() {
        use ScalarType::*;
        // Read off the op docs in op.rs, independently of Op::check.
        let iadd = signatures(Op::Iadd);
        assert_eq!(iadd.len(), 4, "iadd: i8 i16 i32 i64");
        assert!(iadd.iter().all(|s| s.args[..2] == [s.result, s.result]));
        assert_eq!(signatures(Op::And).len(), 5, "and: i1 too");
        assert_eq!(signatures(Op::Fadd).len(), 3);
        assert_eq!(
            signatures(Op::TrigPreop),
            &[Signature {
                result: F64,
                args: [F64, I32, I1, I1],
                arity: 2
            }]
        );
        // zext: every (narrow int -> wider int) pair of the 5 integer types = 10.
        assert_eq!(signatures(Op::Zext).len(), 10);
        // select: (i1, T, T) -> T for all 8 types.
        assert_eq!(signatures(Op::Select).len(), 8);
    }
}
