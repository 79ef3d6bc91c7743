//! A decoded instruction slot: every field of the six words, by its R500/CTM name, with
//! enumerated fields as the value enums of [`crate::table`].
//!
//! Invariants:
//! - Decoding is lossless: [`crate::encode::encode`] of [`crate::decode::decode`] of any six
//!   words gives them back. Every bit is a field here, or one of the unused bits a TEX or FC
//!   slot keeps in `unused` (exactly the bits [`crate::table::fields::TEX_COVERED`] /
//!   `FC_COVERED` leave out; ALU and OUTPUT slots have none).
//! - Values without a documented meaning (reserved opcodes, swizzle 7, predicate selects 6
//!   and 7, A_OP 3, B_OP 3, TEX op 7, a REL inline constant) are kept as they are; the
//!   lifter refuses them.
//! - The slot type is the [`Body`] variant: ALU and OUTPUT slots share [`Alu`].

use crate::table::{
    AOp, AlphaOp, AluResultSel, BOp, CmpOp, FcOp, InstType, Modifier, Omod, PredSel, Presub, RgbOp,
    SrcSel, Swizzle, TexOp, TexSwizzle,
};

/// One instruction slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Inst {
    pub cmn: Cmn,
    pub body: Body,
}

/// What follows US_CMN_INST, by the slot's TYPE.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Body {
    Alu(Alu),
    /// An ALU instruction whose TARGETs are render targets and whose OMASKs write outputs.
    Output(Alu),
    Fc(Fc),
    Tex(Tex),
}

impl Inst {
    /// The slot's TYPE.
    pub fn kind(&self) -> InstType {
        match self.body {
            Body::Alu(_) => InstType::Alu,
            Body::Output(_) => InstType::Output,
            Body::Fc(_) => InstType::Fc,
            Body::Tex(_) => InstType::Tex,
        }
    }

    /// The ALU part of an ALU or OUTPUT slot.
    pub fn alu(&self) -> Option<&Alu> {
        match &self.body {
            Body::Alu(a) | Body::Output(a) => Some(a),
            _ => None,
        }
    }
}

/// A write predicate: PRED_SEL and PRED_INV of one unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pred {
    pub sel: PredSel,
    pub inv: bool,
}

/// US_CMN_INST less TYPE: the fields every slot type has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cmn {
    pub tex_sem_wait: bool,
    pub rgb_pred: Pred,
    pub alpha_pred: Pred,
    /// Write even where flow control made the processor inactive.
    pub write_inactive: bool,
    pub last: bool,
    /// Insert a bubble after this instruction (the presubtract / MDH hazard).
    pub nop: bool,
    pub alu_wait: bool,
    /// Bit c (0 r, 1 g, 2 b) = write channel c of the RGB destination temporary.
    pub rgb_wmask: u8,
    pub alpha_wmask: bool,
    /// Bit c = write channel c of the output (OUTPUT) or predicate (ALU).
    pub rgb_omask: u8,
    pub alpha_omask: bool,
    pub rgb_clamp: bool,
    pub alpha_clamp: bool,
    pub alu_result_sel: AluResultSel,
    pub alu_result_op: CmpOp,
    /// STAT_WE_R/G/B/A (bit 0 = R); not in CTM, kept for losslessness.
    pub stat_we: u8,
}

/// An ALU source address (ADDRk, ADDRk_CONST, ADDRk_REL of ALU_RGB_ADDR / ALU_ALPHA_ADDR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    /// Temporary 0-127 (CONST = 0, ADDR[7] = 0).
    Temp { index: u8, rel: bool },
    /// Float constant 0-255 (CONST = 1).
    Const { index: u8, rel: bool },
    /// The 7-bit inline float constant (CONST = 0, ADDR[7] = 1), see [`inline_value`]. REL
    /// is not allowed with it (seed 003 line 777) but is kept.
    Inline { bits: u8, rel: bool },
}

impl Src {
    /// What Mesa encodes an unused source as: `1 << 7`, the inline constant pattern 0.
    pub const UNUSED: Src = Src::Inline {
        bits: 0,
        rel: false,
    };

    /// Whether aL is added to the address.
    pub fn rel(self) -> bool {
        match self {
            Src::Temp { rel, .. } | Src::Const { rel, .. } | Src::Inline { rel, .. } => rel,
        }
    }
}

/// The value of a 7-bit inline constant (seed 003 lines 754-764; bit order from Mesa
/// `radeon_inline_literals.c`): exponent [6:3] with bias 7, mantissa [2:0];
/// `2^(e-7) * (1 + m/8)` for e > 0, `m * 2^-9` for e = 0, except pattern 0, which is 2^-10
/// (the seed's table lists 0x00 as 0.0009765625).
pub fn inline_value(bits: u8) -> f32 {
    let e = i32::from((bits >> 3) & 0xf);
    let m = f32::from(bits & 7);
    if bits & 0x7f == 0 {
        2f32.powi(-10)
    } else if e == 0 {
        m * 2f32.powi(-9)
    } else {
        2f32.powi(e - 7) * (1.0 + m / 8.0)
    }
}

/// An RGB input A, B or C: source select, r/g/b swizzles, modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RgbInput {
    pub sel: SrcSel,
    pub swiz: [Swizzle; 3],
    pub modifier: Modifier,
}

/// An alpha input A, B or C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlphaInput {
    pub sel: SrcSel,
    pub swiz: Swizzle,
    pub modifier: Modifier,
}

/// A destination temporary (ADDRD, 7 bits, and ADDRD_REL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dest {
    pub addr: u8,
    pub rel: bool,
}

/// Words 1-5 of an ALU or OUTPUT slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Alu {
    /// src0-src2 of ALU_RGB_ADDR (their r, g, b feed both units).
    pub rgb_src: [Src; 3],
    pub rgb_srcp: Presub,
    /// src0-src2 of ALU_ALPHA_ADDR (their a feeds both units).
    pub alpha_src: [Src; 3],
    pub alpha_srcp: Presub,
    pub rgb_op: RgbOp,
    pub alpha_op: AlphaOp,
    /// Inputs A, B, C of the RGB unit.
    pub rgb_in: [RgbInput; 3],
    /// Inputs A, B, C of the alpha unit.
    pub alpha_in: [AlphaInput; 3],
    pub rgb_omod: Omod,
    pub alpha_omod: Omod,
    /// TARGET: a render target 0-3 (OUTPUT) or, for an ALU slot, the predicate op
    /// ([`Alu::rgb_pred_op`]).
    pub rgb_target: u8,
    pub alpha_target: u8,
    pub rgb_dest: Dest,
    pub alpha_dest: Dest,
    /// ALU_WMASK: write the ALU result bit.
    pub alu_wmask: bool,
    /// W_OMASK: write alpha to the W (depth, the conditional value) output.
    pub w_omask: bool,
}

impl Alu {
    /// The predicate op an ALU-type slot's RGB TARGET holds.
    pub fn rgb_pred_op(&self) -> CmpOp {
        CmpOp::from_bits(u32::from(self.rgb_target))
    }

    /// The predicate op an ALU-type slot's alpha TARGET holds.
    pub fn alpha_pred_op(&self) -> CmpOp {
        CmpOp::from_bits(u32::from(self.alpha_target))
    }
}

/// A TEX register operand: 7-bit address, REL, four swizzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TexReg {
    pub addr: u8,
    pub rel: bool,
    pub swiz: [TexSwizzle; 4],
}

/// Words 1-5 of a TEX slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tex {
    pub id: u8,
    pub op: TexOp,
    pub sem_acquire: bool,
    pub ignore_uncovered: bool,
    pub unscaled: bool,
    /// SRC_ADDR with the S/T/R/Q swizzles.
    pub src: TexReg,
    /// DST_ADDR with the R/G/B/A result swizzles.
    pub dst: TexReg,
    /// TEX_ADDR_DXDY (the gradients of DXDY; a field of the word for every op).
    pub dx: TexReg,
    pub dy: TexReg,
    /// The bits no TEX field covers, in place (0 where a field lies).
    pub unused: [u32; 6],
}

/// Words 1-5 of an FC slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fc {
    pub op: FcOp,
    pub b_else: bool,
    pub jump_any: bool,
    pub a_op: AOp,
    /// Bit `(alu_result << 2) | (predicate << 1) | boolean` = jump.
    pub jump_func: u8,
    pub b_pop_cnt: u8,
    /// Applied if staying.
    pub b_op0: BOp,
    /// Applied if jumping.
    pub b_op1: BOp,
    pub ignore_uncovered: bool,
    pub bool_addr: u8,
    pub int_addr: u8,
    pub jump_addr: u16,
    /// JUMP_ADDR is absolute (0: US_CODE_OFFSET is added).
    pub jump_global: bool,
    /// The bits no FC field covers, in place.
    pub unused: [u32; 6],
}
