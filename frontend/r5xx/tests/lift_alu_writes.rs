//! Where ALU and OUTPUT slots write (seed 003 §3.3.6-3.3.10): write masks, predicate bits
//! and predicated writes (the old predicate masks the temporary write), the ALU result,
//! output registers and W, and the quad derivatives MDH/MDV.

mod lift_common;

use lift_common::*;
use wavejit_r5xx::table::{AlphaOp, AluResultSel, CmpOp, Modifier, Omod, PredSel, RgbOp};

fn mad1(s: [wavejit_r5xx::inst::Src; 3]) -> AluB {
    // r = src0 * 1 + 0
    alu(RgbOp::Mad, AlphaOp::Mad)
        .srcs(s)
        .rgb_in(1, 0, "111", Modifier::Nop)
        .alpha_in(1, 0, '1', Modifier::Nop)
        .rgb_in(2, 0, "000", Modifier::Nop)
        .alpha_in(2, 0, '0', Modifier::Nop)
}

#[test]
fn write_masks_keep_the_other_channels() {
    let prog = vec![
        mad1([t(2), t(0), t(0)]).dst(3, 0b101, false).inst(),
        mad1([t(2), t(0), t(0)]).dst(4, 0b010, true).inst(),
    ];
    let mut m = Machine::new(prog);
    m.set_temp4(2, |_| [1.0, 2.0, 3.0, 4.0]);
    m.set_temp4(3, |_| [9.0; 4]);
    m.set_temp4(4, |_| [8.0; 4]);
    let d = m.go();
    let r = |n| [0, 1, 2, 3].map(|c| f32::from_bits(d.r(n, c, 9)));
    assert_eq!(r(3), [1.0, 9.0, 3.0, 9.0]);
    assert_eq!(r(4), [8.0, 2.0, 8.0, 4.0]);
}

#[test]
fn predicate_comparisons_follow_the_seeds_table() {
    // Lines 1324-1329: X<0, X>=0, X==0, X!=0 for +0, -0, +Inf, -Inf, NaN; a denormal
    // (only reachable with OMOD_DISABLED) is 0.
    let values = [
        0.0,
        -0.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -1e-40,
        2.0,
    ];
    let want: [[u32; 4]; 7] = [
        [0, 1, 1, 0],
        [0, 1, 1, 0],
        [0, 1, 0, 1],
        [1, 0, 0, 1],
        [0, 0, 0, 1],
        [0, 1, 1, 0],
        [0, 1, 0, 1],
    ];
    for (o, op) in [CmpOp::Lt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne]
        .into_iter()
        .enumerate()
    {
        // MAX(r2, r2) with OMOD_DISABLED: the value itself; set all four predicate bits.
        let slot = mov(9, t(2), 0, false).set_pred(op, 7, op, true);
        let mut m = Machine::new(vec![slot.inst()]);
        m.set_temp4(2, |l| [values[l as usize % values.len()]; 4]);
        let d = m.go();
        for (v, row) in want.iter().enumerate() {
            for c in 0..4 {
                assert_eq!(
                    d.pred(c, v as u32),
                    row[o],
                    "{op:?} of {} bit {c}",
                    values[v]
                );
            }
        }
    }
}

#[test]
fn the_old_predicate_masks_the_temp_write_not_the_predicate_write() {
    // The seed's example (§3.3.9): predicate 0x7, temp mask 0xf, predicate mask 0xf: the
    // temp gets r, g, b only; all four predicate bits are written.
    let prog = vec![
        // Predicate = (1, 1, 1, 0): r2 = (0, 0, 0, 1) tested == 0.
        mov(9, t(2), 0, false)
            .set_pred(CmpOp::Eq, 7, CmpOp::Eq, true)
            .inst(),
        // r3 = r4 under RGBA predication while setting every bit from r4 (all != 0 → 1).
        mov(3, t(4), 7, true)
            .set_pred(CmpOp::Ne, 7, CmpOp::Ne, true)
            .pred((PredSel::Rgba, false), (PredSel::Rgba, false))
            .inst(),
    ];
    let mut m = Machine::new(prog);
    m.set_temp4(2, |_| [0.0, 0.0, 0.0, 1.0]);
    m.set_temp4(3, |_| [7.0; 4]);
    m.set_temp4(4, |_| [5.0; 4]);
    let d = m.go();
    let r3 = [0, 1, 2, 3].map(|c| f32::from_bits(d.r(3, c, 0)));
    assert_eq!(r3, [5.0, 5.0, 5.0, 7.0]);
    assert_eq!([0, 1, 2, 3].map(|c| d.pred(c, 0)), [1, 1, 1, 1]);
}

#[test]
fn replicated_and_inverted_predicates() {
    // Lane l: predicate bits (l & 1, l >> 1 & 1, l >> 2 & 1, l >> 3 & 1) from r2.
    let sels = [
        (PredSel::Rrrr, 0),
        (PredSel::Gggg, 1),
        (PredSel::Bbbb, 2),
        (PredSel::Aaaa, 3),
    ];
    for (sel, bit) in sels {
        for inv in [false, true] {
            let prog = vec![
                mov(9, t(2), 0, false)
                    .set_pred(CmpOp::Ne, 7, CmpOp::Ne, true)
                    .inst(),
                mov(3, t(4), 7, true).pred((sel, inv), (sel, inv)).inst(),
            ];
            let mut m = Machine::new(prog);
            m.set_temp4(2, |l| std::array::from_fn(|c| (l >> c & 1) as f32));
            m.set_temp4(4, |_| [1.0; 4]);
            let d = m.go();
            for l in 0..16u32 {
                let on = (l >> bit & 1 == 1) != inv;
                let want = if on { f(1.0) } else { 0 };
                for c in 0..4 {
                    assert_eq!(d.r(3, c, l), want, "{sel:?} inv {inv} lane {l} channel {c}");
                }
            }
        }
    }
}

#[test]
fn the_alu_result_bit_takes_red_or_alpha() {
    for (sel, op, want) in [
        (AluResultSel::Red, CmpOp::Lt, [1, 0, 0]),
        (AluResultSel::Alpha, CmpOp::Lt, [0, 1, 0]),
        (AluResultSel::Red, CmpOp::Ne, [1, 0, 1]),
    ] {
        let slot = mov(9, t(2), 0, false).alu_result(sel, op);
        let mut m = Machine::new(vec![slot.inst()]);
        let v = [
            [-1.0, 0.0, 0.0, 5.0],
            [0.0, 0.0, 0.0, -2.0],
            [f32::NAN, 0.0, 0.0, 0.0],
        ];
        m.set_temp4(2, |l| v[l as usize % 3]);
        let d = m.go();
        let bits: Vec<u32> = (0..3)
            .map(|l| d.states[0].lane(d.layout.alu_result(), l))
            .collect();
        assert_eq!(bits, want, "{sel:?} {op:?}");
    }
}

#[test]
fn output_slots_write_output_registers_and_w() {
    let prog = vec![
        mad1([t(2), t(0), t(0)]).out(2, 0b011, 1, true).inst(),
        mad1([t(3), t(0), t(0)]).out(0, 0b100, 0, false).w().inst(),
    ];
    let mut m = Machine::new(prog);
    m.set_temp4(2, |l| [l as f32, 2.0, 3.0, 4.0]);
    m.set_temp4(3, |_| [6.0, 7.0, 8.0, 9.0]);
    let d = m.go();
    let out = |t, c| f32::from_bits(d.states[0].lane(d.layout.output(t, c), 5));
    assert_eq!([out(2, 0), out(2, 1), out(2, 2)], [5.0, 2.0, 0.0]);
    assert_eq!(out(1, 3), 4.0);
    assert_eq!(out(0, 2), 8.0);
    assert_eq!(f32::from_bits(d.states[0].lane(d.layout.w(), 5)), 9.0);
}

#[test]
fn an_alu_slot_writes_no_output_registers() {
    // OMASK on an ALU slot sets predicates; W_OMASK there writes nothing.
    let mut slot = mad1([t(2), t(0), t(0)]).set_pred(CmpOp::Ne, 7, CmpOp::Ne, true);
    slot.a.w_omask = true;
    let mut m = Machine::new(vec![slot.inst()]);
    m.set_temp4(2, |_| [1.0; 4]);
    m.setup.bindings.cond.value = f(3.0);
    let d = m.go();
    assert_eq!(d.states[0].lane(d.layout.output(0, 0), 0), 0);
    assert_eq!(
        d.states[0].lane(d.layout.w(), 0),
        f(3.0),
        "W keeps the PE's value"
    );
}

#[test]
fn mdh_and_mdv_difference_the_quad() {
    // A = -top-left.src0, B = 1, C = top-right (MDH) / bottom-left (MDV) src0: the forward
    // difference, the same in every lane of the quad. Selects and swizzles of A and C are
    // ignored (they point at garbage here).
    for (rgb, alpha, dx) in [
        (RgbOp::Mdh, AlphaOp::Mdh, true),
        (RgbOp::Mdv, AlphaOp::Mdv, false),
    ] {
        let slot = alu(rgb, alpha)
            .srcs([t(2), t(5), t(5)])
            .rgb_in(0, 2, "000", Modifier::Neg)
            .alpha_in(0, 2, '1', Modifier::Neg)
            .rgb_in(1, 1, "111", Modifier::Nop)
            .alpha_in(1, 1, '1', Modifier::Nop)
            .rgb_in(2, 1, "hhh", Modifier::Nop)
            .alpha_in(2, 1, 'h', Modifier::Nop)
            .dst(1, 7, true);
        let mut m = Machine::new(vec![slot.inst()]);
        let v = |l: u32, c: u32| (l * l + 3 * c) as f32;
        m.set_temp4(2, |l| std::array::from_fn(|c| v(l, c as u32)));
        m.set_temp4(5, |_| [100.0; 4]);
        let d = m.go();
        for l in 0..64u32 {
            let tl = l & !17;
            let other = if dx { tl | 1 } else { tl | 16 };
            for c in 0..4 {
                let want = v(other, c) - v(tl, c);
                assert_eq!(d.r(1, c, l), f(want), "{rgb:?} lane {l} channel {c}");
            }
        }
    }
}

#[test]
fn omod_disable_with_clamp_does_not_clamp() {
    let slot = mov(3, t(2), 7, true).clamp(true, true);
    let mut m = Machine::new(vec![slot.inst()]);
    m.set_temp4(2, |_| [-2.0, 5.0, f32::from_bits(1), 0.5]);
    let d = m.go();
    assert_eq!(
        [0, 1, 2, 3].map(|c| d.r(3, c, 0)),
        [f(-2.0), f(5.0), 1, f(0.5)]
    );
    // With OMOD ×1 the clamp applies.
    let slot = mov(3, t(2), 7, true)
        .omod(Omod::Mul1, Omod::Mul1)
        .clamp(true, true);
    let mut m = Machine::new(vec![slot.inst()]);
    m.set_temp4(2, |_| [-2.0, 5.0, f32::from_bits(1), 0.5]);
    let d = m.go();
    assert_eq!([0, 1, 2, 3].map(|c| d.r(3, c, 0)), [0, f(1.0), 0, f(0.5)]);
}
