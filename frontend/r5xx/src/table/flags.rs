//! The flag table: every field the assembler writes as a bracketed flag (`[last, nop,
//! b_op0=incr, func=0x0f]`) rather than in an instruction's own syntax, with the slot types
//! it is a flag of. The printer lists, for a slot, each of its type's flags whose field is
//! not zero; the parser sets the field. One row names one field: its assembler spelling,
//! its R500/CTM name and how its value is written.
//!
//! Which fields a type's own syntax writes (and so are not flags of it): ALU and OUTPUT
//! write predicates, write and output masks and clamps in their halves; TEX writes its write
//! masks in its destination; FC writes OP and JUMP_ADDR.

use super::fields as f;
use super::{AOp, AluResultSel, BOp, CmpOp, Field, PredSel};

/// Slot types, as bits of [`Flag::types`].
pub const ALU: u8 = 1;
pub const OUTPUT: u8 = 2;
pub const FC: u8 = 4;
pub const TEX: u8 = 8;
const ALL: u8 = ALU | OUTPUT | FC | TEX;
const ALU_OUT: u8 = ALU | OUTPUT;

/// How a flag's value is written.
#[derive(Clone, Copy, Debug)]
pub enum FlagKind {
    /// A one-bit field: the name alone means 1.
    Bool,
    /// A number (`name=value`, decimal or `0x` hex), printed in decimal.
    Num,
    /// A number printed in hex (truth tables, masks, unused bits).
    Hex,
    /// A value of a value table (`name=spelling`).
    Enum(fn(u32) -> &'static str, fn(&str) -> Option<u32>),
    /// The bits of word `field.word` that no field of the slot type covers, in place
    /// (printed in hex).
    Unused,
}

/// One flag.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    pub asm: &'static str,
    pub ctm: &'static str,
    pub field: Field,
    pub kind: FlagKind,
    pub types: u8,
}

const fn flag(
    asm: &'static str,
    ctm: &'static str,
    field: Field,
    kind: FlagKind,
    types: u8,
) -> Flag {
    Flag {
        asm,
        ctm,
        field,
        kind,
        types,
    }
}

const fn unused(word: u8) -> Field {
    Field {
        word,
        lo: 0,
        width: 32,
        name: "unused",
    }
}

const fn unused_flag(asm: &'static str, word: u8, types: u8) -> Flag {
    flag(
        asm,
        "(bits no field covers)",
        unused(word),
        FlagKind::Unused,
        types,
    )
}

const PRED: FlagKind = FlagKind::Enum(PredSel::asm_of_bits, PredSel::bits_of_asm);
const BOP: FlagKind = FlagKind::Enum(BOp::asm_of_bits, BOp::bits_of_asm);

/// Every flag, in printing order.
pub static FLAGS: &[Flag] = &[
    flag(
        "sem_wait",
        "TEX_SEM_WAIT",
        f::TEX_SEM_WAIT,
        FlagKind::Bool,
        ALL,
    ),
    flag("alu_wait", "ALU_WAIT", f::ALU_WAIT, FlagKind::Bool, ALL),
    flag("nop", "NOP", f::NOP, FlagKind::Bool, ALL),
    flag("last", "LAST", f::LAST, FlagKind::Bool, ALL),
    flag(
        "write_inactive",
        "WRITE_INACTIVE",
        f::WRITE_INACTIVE,
        FlagKind::Bool,
        ALL,
    ),
    flag(
        "alu_result",
        "ALU_WMASK",
        f::ALU_WMASK,
        FlagKind::Bool,
        ALU_OUT,
    ),
    flag(
        "result_sel",
        "ALU_RESULT_SEL",
        f::ALU_RESULT_SEL,
        FlagKind::Enum(AluResultSel::asm_of_bits, AluResultSel::bits_of_asm),
        ALL,
    ),
    flag(
        "result_op",
        "ALU_RESULT_OP",
        f::ALU_RESULT_OP,
        FlagKind::Enum(CmpOp::asm_of_bits, CmpOp::bits_of_asm),
        ALL,
    ),
    flag("rgb_pred", "RGB_PRED_SEL", f::RGB_PRED_SEL, PRED, FC | TEX),
    flag(
        "rgb_pred_inv",
        "RGB_PRED_INV",
        f::RGB_PRED_INV,
        FlagKind::Bool,
        FC | TEX,
    ),
    flag(
        "alpha_pred",
        "ALPHA_PRED_SEL",
        f::ALPHA_PRED_SEL,
        PRED,
        FC | TEX,
    ),
    flag(
        "alpha_pred_inv",
        "ALPHA_PRED_INV",
        f::ALPHA_PRED_INV,
        FlagKind::Bool,
        FC | TEX,
    ),
    flag("rgb_wmask", "RGB_WMASK", f::RGB_WMASK, FlagKind::Hex, FC),
    flag(
        "alpha_wmask",
        "ALPHA_WMASK",
        f::ALPHA_WMASK,
        FlagKind::Bool,
        FC,
    ),
    flag(
        "rgb_omask",
        "RGB_OMASK",
        f::RGB_OMASK,
        FlagKind::Hex,
        FC | TEX,
    ),
    flag(
        "alpha_omask",
        "ALPHA_OMASK",
        f::ALPHA_OMASK,
        FlagKind::Bool,
        FC | TEX,
    ),
    flag(
        "rgb_clamp",
        "RGB_CLAMP",
        f::RGB_CLAMP,
        FlagKind::Bool,
        FC | TEX,
    ),
    flag(
        "alpha_clamp",
        "ALPHA_CLAMP",
        f::ALPHA_CLAMP,
        FlagKind::Bool,
        FC | TEX,
    ),
    flag("stat_we", "STAT_WE", f::STAT_WE, FlagKind::Hex, ALL),
    flag(
        "acquire",
        "TEX_SEM_ACQUIRE",
        f::TEX_SEM_ACQUIRE,
        FlagKind::Bool,
        TEX,
    ),
    flag("unscaled", "UNSCALED", f::TEX_UNSCALED, FlagKind::Bool, TEX),
    flag(
        "ignore_uncovered",
        "IGNORE_UNCOVERED",
        f::TEX_IGNORE_UNCOVERED,
        FlagKind::Bool,
        TEX,
    ),
    flag("func", "JUMP_FUNC", f::FC_JUMP_FUNC, FlagKind::Hex, FC),
    flag("any", "JUMP_ANY", f::FC_JUMP_ANY, FlagKind::Bool, FC),
    flag("else", "B_ELSE", f::FC_B_ELSE, FlagKind::Bool, FC),
    flag(
        "a_op",
        "A_OP",
        f::FC_A_OP,
        FlagKind::Enum(AOp::asm_of_bits, AOp::bits_of_asm),
        FC,
    ),
    flag("b_op0", "B_OP0", f::FC_B_OP0, BOP, FC),
    flag("b_op1", "B_OP1", f::FC_B_OP1, BOP, FC),
    flag("pop_cnt", "B_POP_CNT", f::FC_B_POP_CNT, FlagKind::Num, FC),
    flag("bool", "BOOL_ADDR", f::FC_BOOL_ADDR, FlagKind::Num, FC),
    flag("int", "INT_ADDR", f::FC_INT_ADDR, FlagKind::Num, FC),
    flag(
        "global",
        "JUMP_GLOBAL",
        f::FC_JUMP_GLOBAL,
        FlagKind::Bool,
        FC,
    ),
    flag(
        "ignore_uncovered",
        "IGNORE_UNCOVERED",
        f::FC_IGNORE_UNCOVERED,
        FlagKind::Bool,
        FC,
    ),
    unused_flag("unused1", 1, FC | TEX),
    unused_flag("unused2", 2, FC),
    unused_flag("unused3", 3, FC),
    unused_flag("unused4", 4, FC | TEX),
    unused_flag("unused5", 5, FC | TEX),
];

/// The bit of [`Flag::types`] for a TYPE value.
pub fn type_bit(ty: super::InstType) -> u8 {
    1 << ty.bits()
}

/// The flags of a slot type, in printing order.
pub fn flags_of(ty: super::InstType) -> impl Iterator<Item = &'static Flag> {
    FLAGS.iter().filter(move |f| f.types & type_bit(ty) != 0)
}

/// The flag `asm` of a slot type.
pub fn find(ty: super::InstType, asm: &str) -> Option<&'static Flag> {
    flags_of(ty).find(|f| f.asm == asm)
}

/// The bits of each word a slot type's fields cover (all of them for ALU and OUTPUT).
pub fn covered(ty: super::InstType) -> [u32; 6] {
    match ty {
        super::InstType::Fc => f::FC_COVERED,
        super::InstType::Tex => f::TEX_COVERED,
        _ => [!0; 6],
    }
}

impl Flag {
    /// The flag's value in the words of a slot of type `ty`.
    pub fn get(&self, ty: super::InstType, words: &[u32; 6]) -> u32 {
        match self.kind {
            FlagKind::Unused => {
                words[self.field.word as usize] & !covered(ty)[self.field.word as usize]
            }
            _ => self.field.get(words),
        }
    }

    /// Sets the flag's value in the words of a slot of type `ty`; the reason when the value
    /// does not fit.
    pub fn set(&self, ty: super::InstType, words: &mut [u32; 6], v: u32) -> Result<(), String> {
        if let FlagKind::Unused = self.kind {
            let w = self.field.word as usize;
            let over = v & covered(ty)[w];
            if over != 0 {
                return Err(format!(
                    "{}={v:#x} sets bits {over:#x}, which are fields",
                    self.asm
                ));
            }
            words[w] |= v;
            return Ok(());
        }
        if v > self.field.max() {
            return Err(format!(
                "{}={v} does not fit in {} bits",
                self.asm, self.field.width
            ));
        }
        self.field.put(words, v);
        Ok(())
    }
}
