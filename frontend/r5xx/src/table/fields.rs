//! Where every field of the six instruction words lies (`../shared/notes/ctm_map.md` §4; R500
//! register definitions, Mesa `r300_reg.h`, AMD R5xx register docs), by the R500 names.
//!
//! A slot is six words; word 0 is US_CMN_INST for every type. ALU and OUTPUT slots use words
//! 1-5 as ALU_RGB_ADDR, ALU_ALPHA_ADDR, ALU_RGB_INST, ALU_ALPHA_INST and ALU_RGBA_INST; a TEX
//! slot uses words 1-3 as TEX_INST, TEX_ADDR and TEX_ADDR_DXDY; an FC slot uses words 2 and 3
//! as FC_INST and FC_ADDR (the R500 register aliasing: TEX_INST = RGB_ADDR, TEX_ADDR =
//! FC_INST = ALPHA_ADDR, TEX_ADDR_DXDY = FC_ADDR = RGB_INST).
//!
//! Widths the documents leave open, and the choice made here (AMD R5xx register docs,
//! us_fc_inst / us_fc_addr): B_POP_CNT is [20:16], BOOL_ADDR [4:0], INT_ADDR [12:8],
//! JUMP_ADDR [24:16]. Bits of a TEX or FC slot that no field covers are kept as unused bits.

pub use super::Field;

const fn f(word: u8, lo: u8, width: u8, name: &'static str) -> Field {
    Field {
        word,
        lo,
        width,
        name,
    }
}

// US_CMN_INST (word 0).
pub const TYPE: Field = f(0, 0, 2, "TYPE");
pub const TEX_SEM_WAIT: Field = f(0, 2, 1, "TEX_SEM_WAIT");
pub const RGB_PRED_SEL: Field = f(0, 3, 3, "RGB_PRED_SEL");
pub const RGB_PRED_INV: Field = f(0, 6, 1, "RGB_PRED_INV");
pub const WRITE_INACTIVE: Field = f(0, 7, 1, "WRITE_INACTIVE");
pub const LAST: Field = f(0, 8, 1, "LAST");
pub const NOP: Field = f(0, 9, 1, "NOP");
pub const ALU_WAIT: Field = f(0, 10, 1, "ALU_WAIT");
pub const RGB_WMASK: Field = f(0, 11, 3, "RGB_WMASK");
pub const ALPHA_WMASK: Field = f(0, 14, 1, "ALPHA_WMASK");
pub const RGB_OMASK: Field = f(0, 15, 3, "RGB_OMASK");
pub const ALPHA_OMASK: Field = f(0, 18, 1, "ALPHA_OMASK");
pub const RGB_CLAMP: Field = f(0, 19, 1, "RGB_CLAMP");
pub const ALPHA_CLAMP: Field = f(0, 20, 1, "ALPHA_CLAMP");
pub const ALU_RESULT_SEL: Field = f(0, 21, 1, "ALU_RESULT_SEL");
pub const ALPHA_PRED_INV: Field = f(0, 22, 1, "ALPHA_PRED_INV");
pub const ALU_RESULT_OP: Field = f(0, 23, 2, "ALU_RESULT_OP");
pub const ALPHA_PRED_SEL: Field = f(0, 25, 3, "ALPHA_PRED_SEL");
pub const STAT_WE: Field = f(0, 28, 4, "STAT_WE");

/// ALU_RGB_ADDR (word 1) and ALU_ALPHA_ADDR (word 2): ADDRk, ADDRk_CONST, ADDRk_REL for
/// source k, then SRCP_OP.
pub const fn src_addr(word: u8, k: u8) -> [Field; 3] {
    [
        f(word, 10 * k, 8, "ADDR"),
        f(word, 10 * k + 8, 1, "ADDR_CONST"),
        f(word, 10 * k + 9, 1, "ADDR_REL"),
    ]
}
pub const RGB_SRCP_OP: Field = f(1, 30, 2, "RGB_SRCP_OP");
pub const ALPHA_SRCP_OP: Field = f(2, 30, 2, "ALPHA_SRCP_OP");

/// An RGB input of ALU_RGB_INST (A, B) or ALU_RGBA_INST (C): select, three swizzles,
/// modifier.
pub struct RgbInputFields {
    pub sel: Field,
    pub swiz: [Field; 3],
    pub modifier: Field,
}

const fn rgb_input(word: u8, lo: u8) -> RgbInputFields {
    RgbInputFields {
        sel: f(word, lo, 2, "RGB_SEL"),
        swiz: [
            f(word, lo + 2, 3, "R_SWIZ"),
            f(word, lo + 5, 3, "G_SWIZ"),
            f(word, lo + 8, 3, "B_SWIZ"),
        ],
        modifier: f(word, lo + 11, 2, "RGB_MOD"),
    }
}

/// An alpha input: select, swizzle, modifier.
pub struct AlphaInputFields {
    pub sel: Field,
    pub swiz: Field,
    pub modifier: Field,
}

const fn alpha_input(word: u8, lo: u8) -> AlphaInputFields {
    AlphaInputFields {
        sel: f(word, lo, 2, "ALPHA_SEL"),
        swiz: f(word, lo + 2, 3, "ALPHA_SWIZ"),
        modifier: f(word, lo + 5, 2, "ALPHA_MOD"),
    }
}

// ALU_RGB_INST (word 3).
pub const RGB_A: RgbInputFields = rgb_input(3, 0);
pub const RGB_B: RgbInputFields = rgb_input(3, 13);
pub const RGB_OMOD: Field = f(3, 26, 3, "RGB_OMOD");
pub const RGB_TARGET: Field = f(3, 29, 2, "RGB_TARGET");
pub const ALU_WMASK: Field = f(3, 31, 1, "ALU_WMASK");

// ALU_ALPHA_INST (word 4).
pub const ALPHA_OP: Field = f(4, 0, 4, "ALPHA_OP");
pub const ALPHA_ADDRD: Field = f(4, 4, 7, "ALPHA_ADDRD");
pub const ALPHA_ADDRD_REL: Field = f(4, 11, 1, "ALPHA_ADDRD_REL");
pub const ALPHA_A: AlphaInputFields = alpha_input(4, 12);
pub const ALPHA_B: AlphaInputFields = alpha_input(4, 19);
pub const ALPHA_OMOD: Field = f(4, 26, 3, "ALPHA_OMOD");
pub const ALPHA_TARGET: Field = f(4, 29, 2, "ALPHA_TARGET");
pub const W_OMASK: Field = f(4, 31, 1, "W_OMASK");

// ALU_RGBA_INST (word 5).
pub const RGB_OP: Field = f(5, 0, 4, "RGB_OP");
pub const RGB_ADDRD: Field = f(5, 4, 7, "RGB_ADDRD");
pub const RGB_ADDRD_REL: Field = f(5, 11, 1, "RGB_ADDRD_REL");
pub const RGB_C: RgbInputFields = rgb_input(5, 12);
pub const ALPHA_C: AlphaInputFields = alpha_input(5, 25);

// TEX_INST (word 1).
pub const TEX_ID: Field = f(1, 16, 4, "TEX_ID");
pub const TEX_INST: Field = f(1, 22, 3, "INST");
pub const TEX_SEM_ACQUIRE: Field = f(1, 25, 1, "TEX_SEM_ACQUIRE");
pub const TEX_IGNORE_UNCOVERED: Field = f(1, 26, 1, "IGNORE_UNCOVERED");
pub const TEX_UNSCALED: Field = f(1, 27, 1, "UNSCALED");

/// A TEX register operand: 7-bit address, REL bit, four 2-bit swizzles (TEX_ADDR: SRC at
/// bit 0 with S/T/R/Q swizzles, DST at bit 16 with R/G/B/A swizzles; TEX_ADDR_DXDY: DX at
/// bit 0, DY at bit 16).
pub struct TexRegFields {
    pub addr: Field,
    pub rel: Field,
    pub swiz: [Field; 4],
}

const fn tex_reg(word: u8, lo: u8, swiz_lo: u8) -> TexRegFields {
    TexRegFields {
        addr: f(word, lo, 7, "ADDR"),
        rel: f(word, lo + 7, 1, "REL"),
        swiz: [
            f(word, swiz_lo, 2, "SWIZ"),
            f(word, swiz_lo + 2, 2, "SWIZ"),
            f(word, swiz_lo + 4, 2, "SWIZ"),
            f(word, swiz_lo + 6, 2, "SWIZ"),
        ],
    }
}

pub const TEX_SRC: TexRegFields = tex_reg(2, 0, 8);
pub const TEX_DST: TexRegFields = tex_reg(2, 16, 24);
pub const TEX_DX: TexRegFields = tex_reg(3, 0, 8);
pub const TEX_DY: TexRegFields = tex_reg(3, 16, 24);

/// The bits of each word that a TEX slot's fields cover.
pub const TEX_COVERED: [u32; 6] = [!0, 0x0fcf_0000, !0, !0, 0, 0];

// FC_INST (word 2).
pub const FC_OP: Field = f(2, 0, 3, "OP");
pub const FC_B_ELSE: Field = f(2, 4, 1, "B_ELSE");
pub const FC_JUMP_ANY: Field = f(2, 5, 1, "JUMP_ANY");
pub const FC_A_OP: Field = f(2, 6, 2, "A_OP");
pub const FC_JUMP_FUNC: Field = f(2, 8, 8, "JUMP_FUNC");
pub const FC_B_POP_CNT: Field = f(2, 16, 5, "B_POP_CNT");
pub const FC_B_OP0: Field = f(2, 24, 2, "B_OP0");
pub const FC_B_OP1: Field = f(2, 26, 2, "B_OP1");
pub const FC_IGNORE_UNCOVERED: Field = f(2, 28, 1, "IGNORE_UNCOVERED");

// FC_ADDR (word 3).
pub const FC_BOOL_ADDR: Field = f(3, 0, 5, "BOOL_ADDR");
pub const FC_INT_ADDR: Field = f(3, 8, 5, "INT_ADDR");
pub const FC_JUMP_ADDR: Field = f(3, 16, 9, "JUMP_ADDR");
pub const FC_JUMP_GLOBAL: Field = f(3, 31, 1, "JUMP_GLOBAL");

/// The bits of each word that an FC slot's fields cover.
pub const FC_COVERED: [u32; 6] = [!0, 0, 0x1f1f_fff7, 0x81ff_1f1f, 0, 0];
