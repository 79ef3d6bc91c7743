//! Properties of `semantics::eval` over every op and every operand typing `Op::check`
//! accepts: it never panics, results fit the result type, float ops that read their mode
//! never return a signalling NaN, and with `flush_out` they never return a denormal.

use proptest::prelude::*;
use std::sync::OnceLock;
use wavejit_ir::semantics::eval;
use wavejit_ir::{FloatMode, Op, Round, ScalarType};

/// Every op with every parameter value (the text form's list, kept complete by an exhaustive
/// match there).
fn all_ops() -> Vec<Op> {
    wavejit_ir::text::all_ops()
}

/// Every (op, result type, operand types) that type-checks.
fn signatures() -> &'static [(Op, ScalarType, Vec<ScalarType>)] {
    static SIGS: OnceLock<Vec<(Op, ScalarType, Vec<ScalarType>)>> = OnceLock::new();
    SIGS.get_or_init(|| {
        let all = ScalarType::ALL;
        let mut out = Vec::new();
        for op in all_ops() {
            let n = op.arity();
            let combos = 8usize.pow(n as u32);
            for ty in all {
                for c in 0..combos {
                    let tys: Vec<ScalarType> =
                        (0..n).map(|i| all[c / 8usize.pow(i as u32) % 8]).collect();
                    if op.check(ty, &tys).is_ok() {
                        out.push((op, ty, tys));
                    }
                }
            }
        }
        out
    })
}

fn specials(ty: ScalarType) -> [u64; 8] {
    match ty {
        ScalarType::F16 => [0, 0x8000, 0x0001, 0x3c00, 0xfbff, 0x7c00, 0x7e01, 0xfd00],
        ScalarType::F32 => [
            0,
            0x8000_0000,
            0x8000_0001,
            0x3f80_0000,
            0x7f7f_ffff,
            0xff80_0000,
            0x7fc0_0001,
            0x7f80_0002,
        ],
        ScalarType::F64 => [
            0,
            1 << 63,
            1,
            0x3ff0_0000_0000_0000,
            0xffef_ffff_ffff_ffff,
            0x7ff0_0000_0000_0000,
            0xfff8_0000_0000_0003,
            0x7ff0_0000_0000_0001,
        ],
        t => [
            0,
            1,
            2,
            t.bit_mask(),
            t.bit_mask() >> 1,
            (t.bit_mask() >> 1) + 1,
            31,
            0x1234_5678_9abc_def0 & t.bit_mask(),
        ],
    }
}

const MODES: [FloatMode; 3] = [
    FloatMode::IEEE,
    FloatMode {
        flush_in: true,
        flush_out: true,
        round: Round::TowardNegative,
    },
    FloatMode {
        flush_in: false,
        flush_out: true,
        round: Round::TowardZero,
    },
];

/// The checks every result must pass.
fn check(op: Op, mode: FloatMode, ty: ScalarType, tys: &[ScalarType], args: &[u64]) {
    let r = eval(op, mode, ty, tys, args);
    assert_eq!(
        r & !ty.bit_mask(),
        0,
        "{op:?} {ty} {tys:?} {args:x?}: {r:#x} exceeds the type"
    );
    if ty.is_float() && op.uses_float_mode() {
        let (mant, exp_mask) = match ty {
            ScalarType::F16 => (10, 0x7c00u64),
            ScalarType::F32 => (23, 0x7f80_0000),
            _ => (52, 0x7ff0_0000_0000_0000),
        };
        let frac = r & ((1 << mant) - 1);
        let is_nan = r & exp_mask == exp_mask && frac != 0;
        assert!(
            !is_nan || frac >> (mant - 1) == 1,
            "{op:?} {ty} {args:x?} {mode:?}: signalling NaN {r:#x}"
        );
        if mode.flush_out {
            assert!(
                r & exp_mask != 0 || frac == 0,
                "{op:?} {ty} {args:x?} {mode:?}: denormal {r:#x} despite flush_out"
            );
        }
    }
}

#[test]
fn every_signature_on_special_operands() {
    let sigs = signatures();
    assert!(sigs.len() > 500, "only {} signatures", sigs.len());
    for (op, ty, tys) in sigs {
        let n = tys.len();
        // At most 4^arity combinations of each operand's specials (a rotating subset).
        for combo in 0..4usize.pow(n as u32) {
            let args: Vec<u64> = (0..n)
                .map(|i| specials(tys[i])[(combo / 4usize.pow(i as u32) % 4 + i * 3 + combo) % 8])
                .collect();
            for mode in MODES {
                check(*op, mode, *ty, tys, &args);
            }
        }
    }
}

#[test]
fn bad_operand_lists_do_not_panic() {
    assert_eq!(
        eval(
            Op::Fadd,
            FloatMode::IEEE,
            ScalarType::F32,
            &[ScalarType::F32],
            &[1]
        ),
        0
    );
    assert_eq!(
        eval(
            Op::Fadd,
            FloatMode::IEEE,
            ScalarType::I32,
            &[ScalarType::I32; 2],
            &[1, 2]
        ),
        0
    );
    assert_eq!(
        eval(Op::DivFmas, FloatMode::IEEE, ScalarType::F32, &[], &[]),
        0
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn eval_never_panics_on_random_bits(
        sig in 0usize..100_000,
        raw in proptest::array::uniform4(any::<u64>()),
        mode_ix in 0usize..3,
    ) {
        let sigs = signatures();
        let (op, ty, tys) = &sigs[sig % sigs.len()];
        let args: Vec<u64> = tys.iter().zip(raw).map(|(t, v)| v & t.bit_mask()).collect();
        check(*op, MODES[mode_ix], *ty, tys, &args);
    }
}
