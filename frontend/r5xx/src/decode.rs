//! Words to [`Inst`]: every six words are a slot (every field is total, see
//! [`crate::table::values`]), so [`decode`] fails on no input; a word or byte string fails
//! only when it is not a whole number of slots or longer than the instruction memory.

use thiserror::Error;
use wavejit_isa::LiftError;

use crate::inst::{AlphaInput, Alu, Body, Cmn, Dest, Fc, Inst, Pred, RgbInput, Src, Tex, TexReg};
use crate::table::fields::{self as f, AlphaInputFields, RgbInputFields, TexRegFields};
use crate::table::{
    AOp, AlphaOp, AluResultSel, BOp, CmpOp, FcOp, Field, InstType, Modifier, Omod, PredSel, Presub,
    RgbOp, SrcSel, Swizzle, TexOp, TexSwizzle,
};

/// Words in one instruction slot.
pub const SLOT_WORDS: usize = 6;
/// Slots in the instruction memory (seed 003 §3.1: 512 instructions).
pub const MAX_SLOTS: usize = 512;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DecodeError {
    #[error("{0} words is not a whole number of 6-word instruction slots")]
    PartialSlot(usize),
    #[error("{0} bytes is not a whole number of 24-byte instruction slots")]
    PartialBytes(usize),
    #[error("{0} slots exceed the 512-slot instruction memory")]
    TooLong(usize),
}

impl DecodeError {
    /// The error as a lifter's refusal of the program (an unknown encoding).
    pub fn to_lift(&self) -> LiftError {
        LiftError::unknown(0, self.to_string())
    }
}

/// The slot of six words. Never fails: every bit pattern is a slot (the `Result` is the
/// shape every decoder of the crate shares).
pub fn decode(words: [u32; 6]) -> Result<Inst, DecodeError> {
    Ok(decode_slot(&words))
}

/// The slots of a word string (6 words each, at most [`MAX_SLOTS`]).
pub fn decode_words(words: &[u32]) -> Result<Vec<Inst>, DecodeError> {
    if !words.len().is_multiple_of(SLOT_WORDS) {
        return Err(DecodeError::PartialSlot(words.len()));
    }
    let slots = words.len() / SLOT_WORDS;
    if slots > MAX_SLOTS {
        return Err(DecodeError::TooLong(slots));
    }
    Ok(words
        .chunks_exact(SLOT_WORDS)
        .map(|c| decode_slot(&[c[0], c[1], c[2], c[3], c[4], c[5]]))
        .collect())
}

/// The words of a little-endian byte string (a `.text` section).
pub fn words_of_bytes(bytes: &[u8]) -> Result<Vec<u32>, DecodeError> {
    if !bytes.len().is_multiple_of(4 * SLOT_WORDS) {
        return Err(DecodeError::PartialBytes(bytes.len()));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

/// The slots of a little-endian byte string.
pub fn decode_bytes(bytes: &[u8]) -> Result<Vec<Inst>, DecodeError> {
    decode_words(&words_of_bytes(bytes)?)
}

fn decode_slot(w: &[u32; 6]) -> Inst {
    let cmn = cmn(w);
    let body = match InstType::from_bits(f::TYPE.get(w)) {
        InstType::Alu => Body::Alu(alu(w)),
        InstType::Output => Body::Output(alu(w)),
        InstType::Fc => Body::Fc(fc(w)),
        InstType::Tex => Body::Tex(tex(w)),
    };
    Inst { cmn, body }
}

fn u8_of(field: Field, w: &[u32; 6]) -> u8 {
    // Fields of u8 members are at most 8 bits wide.
    field.get(w) as u8
}

fn cmn(w: &[u32; 6]) -> Cmn {
    Cmn {
        tex_sem_wait: f::TEX_SEM_WAIT.flag(w),
        rgb_pred: Pred {
            sel: PredSel::from_bits(f::RGB_PRED_SEL.get(w)),
            inv: f::RGB_PRED_INV.flag(w),
        },
        alpha_pred: Pred {
            sel: PredSel::from_bits(f::ALPHA_PRED_SEL.get(w)),
            inv: f::ALPHA_PRED_INV.flag(w),
        },
        write_inactive: f::WRITE_INACTIVE.flag(w),
        last: f::LAST.flag(w),
        nop: f::NOP.flag(w),
        alu_wait: f::ALU_WAIT.flag(w),
        rgb_wmask: u8_of(f::RGB_WMASK, w),
        alpha_wmask: f::ALPHA_WMASK.flag(w),
        rgb_omask: u8_of(f::RGB_OMASK, w),
        alpha_omask: f::ALPHA_OMASK.flag(w),
        rgb_clamp: f::RGB_CLAMP.flag(w),
        alpha_clamp: f::ALPHA_CLAMP.flag(w),
        alu_result_sel: AluResultSel::from_bits(f::ALU_RESULT_SEL.get(w)),
        alu_result_op: CmpOp::from_bits(f::ALU_RESULT_OP.get(w)),
        stat_we: u8_of(f::STAT_WE, w),
    }
}

fn src(w: &[u32; 6], word: u8, k: u8) -> Src {
    let [addr, konst, rel] = f::src_addr(word, k);
    let (addr, rel) = (u8_of(addr, w), rel.flag(w));
    if konst.flag(w) {
        Src::Const { index: addr, rel }
    } else if addr & 0x80 != 0 {
        Src::Inline {
            bits: addr & 0x7f,
            rel,
        }
    } else {
        Src::Temp { index: addr, rel }
    }
}

fn rgb_input(w: &[u32; 6], fs: &RgbInputFields) -> RgbInput {
    RgbInput {
        sel: SrcSel::from_bits(fs.sel.get(w)),
        swiz: fs.swiz.map(|s| Swizzle::from_bits(s.get(w))),
        modifier: Modifier::from_bits(fs.modifier.get(w)),
    }
}

fn alpha_input(w: &[u32; 6], fs: &AlphaInputFields) -> AlphaInput {
    AlphaInput {
        sel: SrcSel::from_bits(fs.sel.get(w)),
        swiz: Swizzle::from_bits(fs.swiz.get(w)),
        modifier: Modifier::from_bits(fs.modifier.get(w)),
    }
}

fn alu(w: &[u32; 6]) -> Alu {
    Alu {
        rgb_src: [0, 1, 2].map(|k| src(w, 1, k)),
        rgb_srcp: Presub::from_bits(f::RGB_SRCP_OP.get(w)),
        alpha_src: [0, 1, 2].map(|k| src(w, 2, k)),
        alpha_srcp: Presub::from_bits(f::ALPHA_SRCP_OP.get(w)),
        rgb_op: RgbOp::from_bits(f::RGB_OP.get(w)),
        alpha_op: AlphaOp::from_bits(f::ALPHA_OP.get(w)),
        rgb_in: [&f::RGB_A, &f::RGB_B, &f::RGB_C].map(|fs| rgb_input(w, fs)),
        alpha_in: [&f::ALPHA_A, &f::ALPHA_B, &f::ALPHA_C].map(|fs| alpha_input(w, fs)),
        rgb_omod: Omod::from_bits(f::RGB_OMOD.get(w)),
        alpha_omod: Omod::from_bits(f::ALPHA_OMOD.get(w)),
        rgb_target: u8_of(f::RGB_TARGET, w),
        alpha_target: u8_of(f::ALPHA_TARGET, w),
        rgb_dest: Dest {
            addr: u8_of(f::RGB_ADDRD, w),
            rel: f::RGB_ADDRD_REL.flag(w),
        },
        alpha_dest: Dest {
            addr: u8_of(f::ALPHA_ADDRD, w),
            rel: f::ALPHA_ADDRD_REL.flag(w),
        },
        alu_wmask: f::ALU_WMASK.flag(w),
        w_omask: f::W_OMASK.flag(w),
    }
}

fn tex_reg(w: &[u32; 6], fs: &TexRegFields) -> TexReg {
    TexReg {
        addr: u8_of(fs.addr, w),
        rel: fs.rel.flag(w),
        swiz: fs.swiz.map(|s| TexSwizzle::from_bits(s.get(w))),
    }
}

fn unused(w: &[u32; 6], covered: &[u32; 6]) -> [u32; 6] {
    std::array::from_fn(|i| w[i] & !covered[i])
}

fn tex(w: &[u32; 6]) -> Tex {
    Tex {
        id: u8_of(f::TEX_ID, w),
        op: TexOp::from_bits(f::TEX_INST.get(w)),
        sem_acquire: f::TEX_SEM_ACQUIRE.flag(w),
        ignore_uncovered: f::TEX_IGNORE_UNCOVERED.flag(w),
        unscaled: f::TEX_UNSCALED.flag(w),
        src: tex_reg(w, &f::TEX_SRC),
        dst: tex_reg(w, &f::TEX_DST),
        dx: tex_reg(w, &f::TEX_DX),
        dy: tex_reg(w, &f::TEX_DY),
        unused: unused(w, &f::TEX_COVERED),
    }
}

fn fc(w: &[u32; 6]) -> Fc {
    Fc {
        op: FcOp::from_bits(f::FC_OP.get(w)),
        b_else: f::FC_B_ELSE.flag(w),
        jump_any: f::FC_JUMP_ANY.flag(w),
        a_op: AOp::from_bits(f::FC_A_OP.get(w)),
        jump_func: u8_of(f::FC_JUMP_FUNC, w),
        b_pop_cnt: u8_of(f::FC_B_POP_CNT, w),
        b_op0: BOp::from_bits(f::FC_B_OP0.get(w)),
        b_op1: BOp::from_bits(f::FC_B_OP1.get(w)),
        ignore_uncovered: f::FC_IGNORE_UNCOVERED.flag(w),
        bool_addr: u8_of(f::FC_BOOL_ADDR, w),
        int_addr: u8_of(f::FC_INT_ADDR, w),
        // JUMP_ADDR is 9 bits.
        jump_addr: f::FC_JUMP_ADDR.get(w) as u16,
        jump_global: f::FC_JUMP_GLOBAL.flag(w),
        unused: unused(w, &f::FC_COVERED),
    }
}
