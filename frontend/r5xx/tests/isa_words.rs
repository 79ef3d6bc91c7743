//! Words <-> slots: every six words decode and encode back (proptest over random words, every
//! bit of every word of every slot type, every value of every field), and hand-decoded
//! vectors whose expected fields are read off the bit layout of ctm_map.md §4 by hand.

use proptest::prelude::*;
use wavejit_r5xx::decode::{decode, decode_bytes, decode_words, DecodeError};
use wavejit_r5xx::encode::{encode, encode_bytes};
use wavejit_r5xx::inst::{inline_value, Body, Src};
use wavejit_r5xx::table::fields as f;
use wavejit_r5xx::table::{
    AOp, AlphaOp, BOp, CmpOp, FcOp, Field, Modifier, Omod, PredSel, Presub, RgbOp, SrcSel, Swizzle,
    TexOp, TexSwizzle,
};

fn round_trip(w: [u32; 6]) {
    let inst = decode(w).expect("every slot decodes");
    assert_eq!(encode(&inst), w, "{inst:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20000))]
    #[test]
    fn random_words_round_trip(w in any::<[u32; 6]>()) {
        let inst = decode(w).unwrap();
        prop_assert_eq!(encode(&inst), w);
    }
}

#[test]
fn every_bit_of_every_slot_type_round_trips() {
    for ty in 0..4u32 {
        for word in 0..6 {
            for bit in 0..32 {
                let mut w = [ty, 0, 0, 0, 0, 0];
                w[word] |= 1 << bit;
                round_trip(w);
                // And the same bit cleared in an all-ones slot.
                let mut w = [!0u32; 6];
                w[0] = (w[0] & !3) | ty;
                if word != 0 || bit >= 2 {
                    w[word] &= !(1 << bit);
                }
                round_trip(w);
            }
        }
    }
}

/// Every field of the slot types, by the type it belongs to.
fn fields() -> Vec<(u32, Field)> {
    let mut out = Vec::new();
    let cmn = [
        f::TEX_SEM_WAIT,
        f::RGB_PRED_SEL,
        f::RGB_PRED_INV,
        f::WRITE_INACTIVE,
        f::LAST,
        f::NOP,
        f::ALU_WAIT,
        f::RGB_WMASK,
        f::ALPHA_WMASK,
        f::RGB_OMASK,
        f::ALPHA_OMASK,
        f::RGB_CLAMP,
        f::ALPHA_CLAMP,
        f::ALU_RESULT_SEL,
        f::ALPHA_PRED_INV,
        f::ALU_RESULT_OP,
        f::ALPHA_PRED_SEL,
        f::STAT_WE,
    ];
    let mut alu = vec![
        f::RGB_SRCP_OP,
        f::ALPHA_SRCP_OP,
        f::RGB_OMOD,
        f::RGB_TARGET,
        f::ALU_WMASK,
        f::ALPHA_OP,
        f::ALPHA_ADDRD,
        f::ALPHA_ADDRD_REL,
        f::ALPHA_OMOD,
        f::ALPHA_TARGET,
        f::W_OMASK,
        f::RGB_OP,
        f::RGB_ADDRD,
        f::RGB_ADDRD_REL,
    ];
    for word in [1, 2] {
        for k in 0..3 {
            alu.extend(f::src_addr(word, k));
        }
    }
    for i in [&f::RGB_A, &f::RGB_B, &f::RGB_C] {
        alu.push(i.sel);
        alu.extend(i.swiz);
        alu.push(i.modifier);
    }
    for i in [&f::ALPHA_A, &f::ALPHA_B, &f::ALPHA_C] {
        alu.extend([i.sel, i.swiz, i.modifier]);
    }
    let mut tex = vec![
        f::TEX_ID,
        f::TEX_INST,
        f::TEX_SEM_ACQUIRE,
        f::TEX_IGNORE_UNCOVERED,
        f::TEX_UNSCALED,
    ];
    for r in [&f::TEX_SRC, &f::TEX_DST, &f::TEX_DX, &f::TEX_DY] {
        tex.extend([r.addr, r.rel]);
        tex.extend(r.swiz);
    }
    let fc = [
        f::FC_OP,
        f::FC_B_ELSE,
        f::FC_JUMP_ANY,
        f::FC_A_OP,
        f::FC_JUMP_FUNC,
        f::FC_B_POP_CNT,
        f::FC_B_OP0,
        f::FC_B_OP1,
        f::FC_IGNORE_UNCOVERED,
        f::FC_BOOL_ADDR,
        f::FC_INT_ADDR,
        f::FC_JUMP_ADDR,
        f::FC_JUMP_GLOBAL,
    ];
    for ty in 0..4 {
        out.extend(cmn.iter().map(|x| (ty, *x)));
    }
    for ty in [0, 1] {
        out.extend(alu.iter().map(|x| (ty, *x)));
    }
    out.extend(tex.iter().map(|x| (3, *x)));
    out.extend(fc.iter().map(|x| (2, *x)));
    out
}

#[test]
fn fields_of_a_type_do_not_overlap_and_cover_the_slot_with_its_unused_bits() {
    for ty in 0..4u32 {
        let mut covered = [f::TYPE.mask(), 0, 0, 0, 0, 0];
        for (t, field) in fields() {
            if t == ty {
                let w = field.word as usize;
                assert_eq!(covered[w] & field.mask(), 0, "{} overlaps", field.name);
                covered[w] |= field.mask();
            }
        }
        let expect = match ty {
            0 | 1 => [!0; 6],
            2 => f::FC_COVERED,
            _ => f::TEX_COVERED,
        };
        assert_eq!(covered, expect, "type {ty}");
    }
}

#[test]
fn every_value_of_every_field_round_trips_over_two_backgrounds() {
    for (ty, field) in fields() {
        for background in [0u32, !0] {
            for v in 0..=field.max() {
                let mut w = [background; 6];
                f::TYPE.put(&mut w, ty);
                field.put(&mut w, v);
                round_trip(w);
                assert_eq!(field.get(&w), v);
            }
        }
    }
}

#[test]
fn unused_bits_of_tex_and_fc_slots_are_kept_in_place() {
    let w = [3, 0x0000_ffff, 0, 0, 0x1234_5678, 0x8000_0001];
    let Body::Tex(t) = decode(w).unwrap().body else {
        panic!("type 3 is TEX")
    };
    assert_eq!(t.unused, [0, 0xffff, 0, 0, 0x1234_5678, 0x8000_0001]);
    let w = [2, 0xdead_beef, 0x0000_0008, 0x0000_00e0, 0, 7];
    let Body::Fc(c) = decode(w).unwrap().body else {
        panic!("type 2 is FC")
    };
    assert_eq!(c.unused, [0, 0xdead_beef, 8, 0xe0, 0, 7]);
    assert_eq!(c.bool_addr, 0);
}

#[test]
fn a_tex_lookup_decodes_by_hand() {
    // CMN 0x7807: TEX (3), TEX_SEM_WAIT (bit 2), RGB_WMASK 7 (bits 13:11), ALPHA_WMASK (14).
    // TEX_INST 0x06400000: INST 1 (bits 24:22), ACQUIRE (25), IGNORE_UNCOVERED (26).
    // TEX_ADDR 0xe4000400: src t0 with swizzles r g r r (bits 15:8 = 0x04), dst t0 with
    // r g b a (bits 31:24 = 0xe4).
    let inst = decode([0x7807, 0x0640_0000, 0xe400_0400, 0, 0, 0]).unwrap();
    assert!(inst.cmn.tex_sem_wait);
    assert_eq!((inst.cmn.rgb_wmask, inst.cmn.alpha_wmask), (7, true));
    let Body::Tex(t) = inst.body else {
        panic!("TEX")
    };
    assert_eq!(t.op, TexOp::Ld);
    assert!(t.sem_acquire && t.ignore_uncovered && !t.unscaled);
    use TexSwizzle::*;
    assert_eq!((t.src.addr, t.src.swiz), (0, [R, G, R, R]));
    assert_eq!((t.dst.addr, t.dst.swiz), (0, [R, G, B, A]));
}

#[test]
fn an_alu_slot_decodes_by_hand() {
    // CMN: OUTPUT (1), RGB_PRED_SEL RRRR (2 << 3), RGB_OMASK 5 (bits 17:15), ALPHA_CLAMP
    // (20), ALU_RESULT_OP NE (3 << 23), ALPHA_PRED_SEL 6 (reserved, bits 27:25), STAT_WE 9.
    let w0 = 1 | 2 << 3 | 5 << 15 | 1 << 20 | 3 << 23 | 6 << 25 | 9 << 28;
    // RGB_ADDR: src0 = temp 5 rel, src1 = const 200, src2 = inline 0x38 (1.0), SRCP SUB.
    let w1 = 5 | 1 << 9 | (200 | 1 << 8) << 10 | (0x80 | 0x38) << 20 | 1 << 30;
    // ALPHA_ADDR: src0 = inline 0 (Mesa's unused), src1 = const 3 rel, src2 = temp 127,
    // SRCP INV.
    let w2 = 0x80 | (3 | 3 << 8) << 10 | 127 << 20 | 3 << 30;
    // RGB_INST: A = srcp.bgr neg, B = src1.0h1 nab, OMOD /2, TARGET 2, ALU_WMASK.
    let w3 = 3 | 2 << 2 | 1 << 5 | 1 << 11 | 1 << 13 | 4 << 15 | 5 << 18 | 6 << 21;
    let w3 = w3 | 3 << 24 | 4 << 26 | 2 << 29 | 1 << 31;
    // ALPHA_INST: RCP, dest 100 rel, A = src2.a abs, B = src0.unused, OMOD disable, W_OMASK.
    let w4 = 10 | 100 << 4 | 1 << 11 | 2 << 12 | 3 << 14 | 2 << 17 | 7 << 21;
    let w4 = w4 | 7 << 26 | 1 << 31;
    // RGBA_INST: op 6 (reserved), dest 64, C = src0.rgb, alpha C = srcp.0 neg.
    let w5 = 6 | 64 << 4 | 1 << 17 | 2 << 20 | 3 << 25 | 4 << 27 | 1 << 30;
    let w = [w0, w1, w2, w3, w4, w5];
    let inst = decode(w).unwrap();
    assert_eq!(encode(&inst), w);
    let c = inst.cmn;
    assert_eq!(
        (c.rgb_pred.sel, c.alpha_pred.sel),
        (PredSel::Rrrr, PredSel::Sel6)
    );
    assert_eq!((c.rgb_omask, c.alpha_clamp, c.stat_we), (5, true, 9));
    assert_eq!(c.alu_result_op, CmpOp::Ne);
    let Body::Output(a) = inst.body else {
        panic!("OUTPUT")
    };
    assert_eq!(
        a.rgb_src,
        [
            Src::Temp {
                index: 5,
                rel: true
            },
            Src::Const {
                index: 200,
                rel: false
            },
            Src::Inline {
                bits: 0x38,
                rel: false
            },
        ]
    );
    assert_eq!(a.rgb_srcp, Presub::Sub);
    assert_eq!(
        a.alpha_src,
        [
            Src::UNUSED,
            Src::Const {
                index: 3,
                rel: true
            },
            Src::Temp {
                index: 127,
                rel: false
            },
        ]
    );
    assert_eq!(a.alpha_srcp, Presub::Inv);
    use Swizzle::*;
    assert_eq!(a.rgb_in[0].sel, SrcSel::Srcp);
    assert_eq!(a.rgb_in[0].swiz, [B, G, R]);
    assert_eq!(a.rgb_in[0].modifier, Modifier::Neg);
    assert_eq!(a.rgb_in[1].sel, SrcSel::Src1);
    assert_eq!(a.rgb_in[1].swiz, [Zero, Half, One]);
    assert_eq!(a.rgb_in[1].modifier, Modifier::Nab);
    assert_eq!(
        (a.rgb_omod, a.rgb_target, a.alu_wmask),
        (Omod::Div2, 2, true)
    );
    assert_eq!(a.alpha_op, AlphaOp::Rcp);
    assert_eq!((a.alpha_dest.addr, a.alpha_dest.rel), (100, true));
    assert_eq!(a.alpha_in[0].sel, SrcSel::Src2);
    assert_eq!(
        (a.alpha_in[0].swiz, a.alpha_in[0].modifier),
        (A, Modifier::Abs)
    );
    assert_eq!(
        (a.alpha_in[1].sel, a.alpha_in[1].swiz),
        (SrcSel::Src0, Unused)
    );
    assert_eq!((a.alpha_omod, a.w_omask), (Omod::Disable, true));
    assert_eq!(a.rgb_op, RgbOp::Op6);
    assert_eq!((a.rgb_dest.addr, a.rgb_dest.rel), (64, false));
    assert_eq!(
        (a.rgb_in[2].sel, a.rgb_in[2].swiz),
        (SrcSel::Src0, [R, G, B])
    );
    assert_eq!(a.alpha_in[2].sel, SrcSel::Srcp);
    assert_eq!(
        (a.alpha_in[2].swiz, a.alpha_in[2].modifier),
        (Zero, Modifier::Neg)
    );
}

#[test]
fn mesa_flow_control_encodings_decode_by_hand() {
    // Mesa's IF: TYPE_FC | ALU_WAIT; OP_JUMP, JUMP_FUNC 0x0f, B_OP0_INCR, B_OP1_INCR,
    // IGNORE_UNCOVERED; JUMP_ADDR 7.
    let w2 = 0x0f << 8 | 2 << 24 | 2 << 26 | 1 << 28;
    let inst = decode([2 | 1 << 10, 0, w2, 7 << 16, 0, 0]).unwrap();
    assert!(inst.cmn.alu_wait);
    let Body::Fc(c) = inst.body else { panic!("FC") };
    assert_eq!((c.op, c.jump_func, c.jump_addr), (FcOp::Jump, 0x0f, 7));
    assert_eq!(
        (c.b_op0, c.b_op1, c.a_op),
        (BOp::Incr, BOp::Incr, AOp::None)
    );
    assert!(c.ignore_uncovered && !c.jump_any && !c.b_else && !c.jump_global);
    // A RET-like slot: ENDREP, B_ELSE, JUMP_ANY, A_OP POP, B_POP_CNT 31, BOOL 31, INT 31,
    // JUMP_ADDR 511, JUMP_GLOBAL.
    let w2 = 4 | 1 << 4 | 1 << 5 | 1 << 6 | 31 << 16 | 1 << 24 | 3 << 26;
    let w3 = 31 | 31 << 8 | 511 << 16 | 1 << 31;
    let Body::Fc(c) = decode([2, 0, w2, w3, 0, 0]).unwrap().body else {
        panic!("FC")
    };
    assert_eq!((c.op, c.a_op, c.b_pop_cnt), (FcOp::EndRep, AOp::Pop, 31));
    assert_eq!((c.b_op0, c.b_op1), (BOp::Decr, BOp::Bop3));
    assert_eq!((c.bool_addr, c.int_addr, c.jump_addr), (31, 31, 511));
    assert!(c.b_else && c.jump_any && c.jump_global);
    assert_eq!(c.unused, [0; 6]);
}

#[test]
fn inline_constants_follow_the_seeds_table() {
    // Seed 003 lines 760-768: (exponent, mantissa) -> value.
    for (e, m, v) in [
        (0, 0, 2f32.powi(-10)),
        (0, 1, 2f32.powi(-9)),
        (0, 2, 2f32.powi(-8)),
        (0, 4, 2f32.powi(-7)),
        (1, 0, 2f32.powi(-6)),
        (7, 0, 1.0),
        (15, 0, 256.0),
        (15, 7, 480.0),
        (6, 0, 0.5),
        (8, 4, 3.0),
    ] {
        assert_eq!(inline_value(e << 3 | m), v, "e {e} m {m}");
    }
}

#[test]
fn word_and_byte_strings_decode_whole_slots_only() {
    assert_eq!(decode_words(&[0; 7]), Err(DecodeError::PartialSlot(7)));
    assert_eq!(
        decode_words(&vec![0; 6 * 513]),
        Err(DecodeError::TooLong(513))
    );
    assert_eq!(decode_bytes(&[0; 23]), Err(DecodeError::PartialBytes(23)));
    let insts = decode_words(&[1, 2, 3, 4, 5, 6, 0xff, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(insts.len(), 2);
    let bytes = encode_bytes(&insts);
    assert_eq!(&bytes[..8], &[1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(decode_bytes(&bytes).unwrap(), insts);
    assert_eq!(
        DecodeError::PartialSlot(7).to_string(),
        "7 words is not a whole number of 6-word instruction slots"
    );
}
