//! [`Inst`] to words: each field written at its place ([`crate::table::fields`]), values
//! masked to their field's width (a value too wide for its field loses its high bits; the
//! decoder never makes one, and the parser refuses them).

use crate::inst::{AlphaInput, Body, Cmn, Fc, Inst, RgbInput, Src, Tex, TexReg};
use crate::table::fields::{self as f, AlphaInputFields, RgbInputFields, TexRegFields};
use crate::table::{Field, InstType};

/// The six words of a slot.
pub fn encode(inst: &Inst) -> [u32; 6] {
    let mut w = [0u32; 6];
    cmn(&mut w, &inst.cmn, inst.kind());
    match &inst.body {
        Body::Alu(a) | Body::Output(a) => alu(&mut w, a),
        Body::Fc(fc_) => fc(&mut w, fc_),
        Body::Tex(t) => tex(&mut w, t),
    }
    w
}

/// The words of a program.
pub fn encode_words(insts: &[Inst]) -> Vec<u32> {
    insts.iter().flat_map(encode).collect()
}

/// The little-endian bytes of a program (a `.text` section).
pub fn encode_bytes(insts: &[Inst]) -> Vec<u8> {
    encode_words(insts)
        .into_iter()
        .flat_map(u32::to_le_bytes)
        .collect()
}

fn put(w: &mut [u32; 6], field: Field, v: impl Into<u32>) {
    field.put(w, v.into());
}

fn cmn(w: &mut [u32; 6], c: &Cmn, kind: InstType) {
    put(w, f::TYPE, kind.bits());
    put(w, f::TEX_SEM_WAIT, c.tex_sem_wait);
    put(w, f::RGB_PRED_SEL, c.rgb_pred.sel.bits());
    put(w, f::RGB_PRED_INV, c.rgb_pred.inv);
    put(w, f::ALPHA_PRED_SEL, c.alpha_pred.sel.bits());
    put(w, f::ALPHA_PRED_INV, c.alpha_pred.inv);
    put(w, f::WRITE_INACTIVE, c.write_inactive);
    put(w, f::LAST, c.last);
    put(w, f::NOP, c.nop);
    put(w, f::ALU_WAIT, c.alu_wait);
    put(w, f::RGB_WMASK, c.rgb_wmask);
    put(w, f::ALPHA_WMASK, c.alpha_wmask);
    put(w, f::RGB_OMASK, c.rgb_omask);
    put(w, f::ALPHA_OMASK, c.alpha_omask);
    put(w, f::RGB_CLAMP, c.rgb_clamp);
    put(w, f::ALPHA_CLAMP, c.alpha_clamp);
    put(w, f::ALU_RESULT_SEL, c.alu_result_sel.bits());
    put(w, f::ALU_RESULT_OP, c.alu_result_op.bits());
    put(w, f::STAT_WE, c.stat_we);
}

fn src(w: &mut [u32; 6], word: u8, k: u8, s: Src) {
    let [addr, konst, rel] = f::src_addr(word, k);
    let (a, is_const) = match s {
        Src::Temp { index, .. } => (u32::from(index) & 0x7f, false),
        Src::Const { index, .. } => (u32::from(index), true),
        Src::Inline { bits, .. } => (0x80 | (u32::from(bits) & 0x7f), false),
    };
    put(w, addr, a);
    put(w, konst, is_const);
    put(w, rel, s.rel());
}

fn rgb_input(w: &mut [u32; 6], fs: &RgbInputFields, i: &RgbInput) {
    put(w, fs.sel, i.sel.bits());
    for (field, s) in fs.swiz.iter().zip(i.swiz) {
        put(w, *field, s.bits());
    }
    put(w, fs.modifier, i.modifier.bits());
}

fn alpha_input(w: &mut [u32; 6], fs: &AlphaInputFields, i: &AlphaInput) {
    put(w, fs.sel, i.sel.bits());
    put(w, fs.swiz, i.swiz.bits());
    put(w, fs.modifier, i.modifier.bits());
}

fn alu(w: &mut [u32; 6], a: &crate::inst::Alu) {
    for k in 0..3 {
        src(w, 1, k as u8, a.rgb_src[k]);
        src(w, 2, k as u8, a.alpha_src[k]);
    }
    put(w, f::RGB_SRCP_OP, a.rgb_srcp.bits());
    put(w, f::ALPHA_SRCP_OP, a.alpha_srcp.bits());
    put(w, f::RGB_OP, a.rgb_op.bits());
    put(w, f::ALPHA_OP, a.alpha_op.bits());
    for (fs, i) in [&f::RGB_A, &f::RGB_B, &f::RGB_C].iter().zip(&a.rgb_in) {
        rgb_input(w, fs, i);
    }
    for (fs, i) in [&f::ALPHA_A, &f::ALPHA_B, &f::ALPHA_C]
        .iter()
        .zip(&a.alpha_in)
    {
        alpha_input(w, fs, i);
    }
    put(w, f::RGB_OMOD, a.rgb_omod.bits());
    put(w, f::ALPHA_OMOD, a.alpha_omod.bits());
    put(w, f::RGB_TARGET, a.rgb_target);
    put(w, f::ALPHA_TARGET, a.alpha_target);
    put(w, f::RGB_ADDRD, a.rgb_dest.addr);
    put(w, f::RGB_ADDRD_REL, a.rgb_dest.rel);
    put(w, f::ALPHA_ADDRD, a.alpha_dest.addr);
    put(w, f::ALPHA_ADDRD_REL, a.alpha_dest.rel);
    put(w, f::ALU_WMASK, a.alu_wmask);
    put(w, f::W_OMASK, a.w_omask);
}

fn unused(w: &mut [u32; 6], bits: &[u32; 6], covered: &[u32; 6]) {
    for i in 1..6 {
        w[i] |= bits[i] & !covered[i];
    }
}

fn tex_reg(w: &mut [u32; 6], fs: &TexRegFields, r: &TexReg) {
    put(w, fs.addr, r.addr);
    put(w, fs.rel, r.rel);
    for (field, s) in fs.swiz.iter().zip(r.swiz) {
        put(w, *field, s.bits());
    }
}

fn tex(w: &mut [u32; 6], t: &Tex) {
    put(w, f::TEX_ID, t.id);
    put(w, f::TEX_INST, t.op.bits());
    put(w, f::TEX_SEM_ACQUIRE, t.sem_acquire);
    put(w, f::TEX_IGNORE_UNCOVERED, t.ignore_uncovered);
    put(w, f::TEX_UNSCALED, t.unscaled);
    tex_reg(w, &f::TEX_SRC, &t.src);
    tex_reg(w, &f::TEX_DST, &t.dst);
    tex_reg(w, &f::TEX_DX, &t.dx);
    tex_reg(w, &f::TEX_DY, &t.dy);
    unused(w, &t.unused, &f::TEX_COVERED);
}

fn fc(w: &mut [u32; 6], c: &Fc) {
    put(w, f::FC_OP, c.op.bits());
    put(w, f::FC_B_ELSE, c.b_else);
    put(w, f::FC_JUMP_ANY, c.jump_any);
    put(w, f::FC_A_OP, c.a_op.bits());
    put(w, f::FC_JUMP_FUNC, c.jump_func);
    put(w, f::FC_B_POP_CNT, c.b_pop_cnt);
    put(w, f::FC_B_OP0, c.b_op0.bits());
    put(w, f::FC_B_OP1, c.b_op1.bits());
    put(w, f::FC_IGNORE_UNCOVERED, c.ignore_uncovered);
    put(w, f::FC_BOOL_ADDR, c.bool_addr);
    put(w, f::FC_INT_ADDR, c.int_addr);
    put(w, f::FC_JUMP_ADDR, c.jump_addr);
    put(w, f::FC_JUMP_GLOBAL, c.jump_global);
    unused(w, &c.unused, &f::FC_COVERED);
}
