//! The value tables: one row per value of every enumerated field of the six instruction
//! words, with its assembler spelling and its CTM name (seed 003) or, for values the CTM
//! Guide does not name, its R500 register-doc name. Values come from
//! `../shared/notes/ctm_instructions.tsv` (Mesa `r300_reg.h`, AMD R5xx register docs).
//!
//! Every field is total: a table has exactly `2^width` rows, in value order, so any bit
//! pattern of the field names a row. Values with no defined meaning are rows too
//! (`defined: false`, spelled `<field><value>` such as `op6`); they decode, print and assemble
//! like the others and the lifter refuses them.

use super::ValueRow;

/// Defines a value enum (variant discriminant = field value) and its row table, from one
/// listing: `Variant = value, "asm", "CTM name", defined`. Value 0 is the default (an
/// all-zero field).
macro_rules! values {
    ($(#[$m:meta])* $name:ident [$rows:ident] {
        $v0:ident = $n0:literal, $asm0:literal, $ctm0:literal, $def0:literal;
        $($v:ident = $n:literal, $asm:literal, $ctm:literal, $def:literal;)*
    }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum $name {
            #[default]
            $v0 = $n0,
            $($v = $n),*
        }

        /// The rows of [`
        #[doc = stringify!($name)]
        /// `], indexed by value.
        pub static $rows: &[ValueRow<$name>] = &[
            ValueRow { value: $n0, item: $name::$v0, asm: $asm0, ctm: $ctm0, defined: $def0 },
            $(ValueRow { value: $n, item: $name::$v, asm: $asm, ctm: $ctm, defined: $def }),*
        ];

        impl $name {
            /// The value of a field's bits (only the table's low bits are looked at, so any
            /// `u32` names a row).
            pub fn from_bits(v: u32) -> $name {
                $rows[v as usize & ($rows.len() - 1)].item
            }

            /// The field value.
            pub fn bits(self) -> u32 {
                self as u32
            }

            /// This value's row.
            pub fn row(self) -> &'static ValueRow<$name> {
                &$rows[self as usize]
            }

            /// The assembler spelling.
            pub fn asm(self) -> &'static str {
                self.row().asm
            }

            /// Whether the documents give the value a meaning.
            pub fn defined(self) -> bool {
                self.row().defined
            }

            /// The value spelled `asm`.
            pub fn from_asm(asm: &str) -> Option<$name> {
                $rows.iter().find(|r| r.asm == asm).map(|r| r.item)
            }

            /// The spelling of field value `v` (for [`super::FlagKind::Enum`]).
            pub fn asm_of_bits(v: u32) -> &'static str {
                $name::from_bits(v).asm()
            }

            /// The field value spelled `asm` (for [`super::FlagKind::Enum`]).
            pub fn bits_of_asm(asm: &str) -> Option<u32> {
                $name::from_asm(asm).map($name::bits)
            }
        }
    };
}

values! {
    /// US_CMN_INST TYPE [1:0].
    InstType [INST_TYPES] {
        Alu = 0, "alu", "INST_TYPE_ALU", true;
        Output = 1, "out", "INST_TYPE_OUTPUT", true;
        Fc = 2, "fc", "INST_TYPE_FC", true;
        Tex = 3, "tex", "INST_TYPE_TEX", true;
    }
}

values! {
    /// RGB_PRED_SEL [5:3] and ALPHA_PRED_SEL [27:25] of US_CMN_INST: which predicate bits
    /// mask the write (RGBA: each channel its own bit; the others replicate one bit).
    PredSel [PRED_SELS] {
        None = 0, "none", "PRED_SEL_NONE", true;
        Rgba = 1, "rgba", "PRED_SEL_RGBA", true;
        Rrrr = 2, "rrrr", "PRED_SEL_RRRR", true;
        Gggg = 3, "gggg", "PRED_SEL_GGGG", true;
        Bbbb = 4, "bbbb", "PRED_SEL_BBBB", true;
        Aaaa = 5, "aaaa", "PRED_SEL_AAAA", true;
        Sel6 = 6, "sel6", "(reserved)", false;
        Sel7 = 7, "sel7", "(reserved)", false;
    }
}

values! {
    /// ALU_RESULT_SEL [21] of US_CMN_INST: which channel sets the ALU result bit.
    AluResultSel [ALU_RESULT_SELS] {
        Red = 0, "r", "ALU_RESULT_SEL_RED", true;
        Alpha = 1, "a", "ALU_RESULT_SEL_ALPHA", true;
    }
}

values! {
    /// A comparison against zero: ALU_RESULT_OP [24:23] of US_CMN_INST, and (same order,
    /// inferred, see ctm_instructions.tsv) the predicate op an ALU-type instruction keeps in
    /// its TARGET fields.
    CmpOp [CMP_OPS] {
        Eq = 0, "eq", "ALU_RESULT_OP_EQUAL", true;
        Lt = 1, "lt", "ALU_RESULT_OP_LESS", true;
        Ge = 2, "ge", "ALU_RESULT_OP_GREATER_EQUAL", true;
        Ne = 3, "ne", "ALU_RESULT_OP_NOT_EQUAL", true;
    }
}

values! {
    /// SRCP_OP [31:30] of ALU_RGB_ADDR / ALU_ALPHA_ADDR: the presubtract source srcp.
    Presub [PRESUBS] {
        Bias = 0, "bias", "SRCP_OP_BIAS (1-2*src0)", true;
        Sub = 1, "sub", "SRCP_OP_SUB (src1-src0)", true;
        Add = 2, "add", "SRCP_OP_ADD (src1+src0)", true;
        Inv = 3, "inv", "SRCP_OP_INV (1-src0)", true;
    }
}

values! {
    /// An input's source select (SEL_A/B/C).
    SrcSel [SRC_SELS] {
        Src0 = 0, "src0", "SRC0", true;
        Src1 = 1, "src1", "SRC1", true;
        Src2 = 2, "src2", "SRC2", true;
        Srcp = 3, "srcp", "SRCP", true;
    }
}

values! {
    /// A 3-bit ALU input swizzle (R/G/B_SWIZ_*, ALPHA_SWIZ_*).
    Swizzle [SWIZZLES] {
        R = 0, "r", "SWIZ_R", true;
        G = 1, "g", "SWIZ_G", true;
        B = 2, "b", "SWIZ_B", true;
        A = 3, "a", "SWIZ_A", true;
        Zero = 4, "0", "SWIZ_0", true;
        Half = 5, "h", "SWIZ_HALF", true;
        One = 6, "1", "SWIZ_1", true;
        Unused = 7, "_", "SWIZ_UNUSED", false;
    }
}

values! {
    /// An ALU input modifier (MOD_A/B/C).
    Modifier [MODIFIERS] {
        Nop = 0, "nop", "MOD_NOP", true;
        Neg = 1, "neg", "MOD_NEG", true;
        Abs = 2, "abs", "MOD_ABS", true;
        Nab = 3, "nab", "MOD_NAB (-|x|)", true;
    }
}

values! {
    /// The output modifier (OMOD [28:26] of ALU_RGB_INST and ALU_ALPHA_INST).
    Omod [OMODS] {
        Mul1 = 0, "x1", "OMOD_MUL_1", true;
        Mul2 = 1, "x2", "OMOD_MUL_2", true;
        Mul4 = 2, "x4", "OMOD_MUL_4", true;
        Mul8 = 3, "x8", "OMOD_MUL_8", true;
        Div2 = 4, "d2", "OMOD_DIV_2", true;
        Div4 = 5, "d4", "OMOD_DIV_4", true;
        Div8 = 6, "d8", "OMOD_DIV_8", true;
        Disable = 7, "disable", "OMOD_DISABLE", true;
    }
}

values! {
    /// RGB_OP [3:0] of ALU_RGBA_INST.
    RgbOp [RGB_OPS] {
        Mad = 0, "mad", "OP_RGB_MAD", true;
        Dp3 = 1, "dp3", "OP_RGB_DP3", true;
        Dp4 = 2, "dp4", "OP_RGB_DP4", true;
        D2a = 3, "d2a", "OP_RGB_D2A", true;
        Min = 4, "min", "OP_RGB_MIN", true;
        Max = 5, "max", "OP_RGB_MAX", true;
        Op6 = 6, "op6", "(reserved)", false;
        Cnd = 7, "cnd", "OP_RGB_CND", true;
        Cmp = 8, "cmp", "OP_RGB_CMP", true;
        Frc = 9, "frc", "OP_RGB_FRC", true;
        Sop = 10, "sop", "OP_RGB_SOP", true;
        Mdh = 11, "mdh", "OP_MDH (R500)", true;
        Mdv = 12, "mdv", "OP_MDV (R500)", true;
        Op13 = 13, "op13", "(reserved)", false;
        Op14 = 14, "op14", "(reserved)", false;
        Op15 = 15, "op15", "(reserved)", false;
    }
}

values! {
    /// ALPHA_OP [3:0] of ALU_ALPHA_INST.
    AlphaOp [ALPHA_OPS] {
        Mad = 0, "mad", "OP_ALPHA_MAD", true;
        Dp = 1, "dp", "OP_ALPHA_DP", true;
        Min = 2, "min", "OP_ALPHA_MIN", true;
        Max = 3, "max", "OP_ALPHA_MAX", true;
        Op4 = 4, "op4", "(reserved)", false;
        Cnd = 5, "cnd", "OP_ALPHA_CND", true;
        Cmp = 6, "cmp", "OP_ALPHA_CMP", true;
        Frc = 7, "frc", "OP_ALPHA_FRC", true;
        Ex2 = 8, "ex2", "OP_ALPHA_EX2", true;
        Ln2 = 9, "ln2", "OP_ALPHA_LN2", true;
        Rcp = 10, "rcp", "OP_ALPHA_RCP", true;
        Rsq = 11, "rsq", "OP_ALPHA_RSQ", true;
        Sin = 12, "sin", "OP_ALPHA_SIN", true;
        Cos = 13, "cos", "OP_ALPHA_COS", true;
        Mdh = 14, "mdh", "OP_MDH (R500)", true;
        Mdv = 15, "mdv", "OP_MDV (R500)", true;
    }
}

values! {
    /// INST [24:22] of TEX_INST. CTM's TEX_INST_LOOKUP_UNCACHED has no known value; 7 is
    /// kept as an undefined value rather than guessed.
    TexOp [TEX_OPS] {
        Nop = 0, "nop", "TEX_INST_NOP", true;
        Ld = 1, "ld", "TEX_INST_LOOKUP", true;
        Texkill = 2, "texkill", "TEX_INST_KILL_LT_0", true;
        Proj = 3, "proj", "TEX_INST_LOOKUP_PROJ", true;
        Lodbias = 4, "lodbias", "LODBIAS (R500)", true;
        Lod = 5, "lod", "LOD (R500)", true;
        Dxdy = 6, "dxdy", "DXDY (R500)", true;
        Op7 = 7, "op7", "(reserved)", false;
    }
}

values! {
    /// A 2-bit TEX swizzle (source S/T/R/Q, result R/G/B/A, DX/DY).
    TexSwizzle [TEX_SWIZZLES] {
        R = 0, "r", "R", true;
        G = 1, "g", "G", true;
        B = 2, "b", "B", true;
        A = 3, "a", "A", true;
    }
}

values! {
    /// OP [2:0] of FC_INST.
    FcOp [FC_OPS] {
        Jump = 0, "jump", "FC_OP_JUMP", true;
        Loop = 1, "loop", "FC_OP_LOOP", true;
        EndLoop = 2, "endloop", "FC_OP_ENDLOOP", true;
        Rep = 3, "rep", "FC_OP_REP", true;
        EndRep = 4, "endrep", "FC_OP_ENDREP", true;
        BreakLoop = 5, "breakloop", "FC_OP_BREAKLOOP", true;
        BreakRep = 6, "breakrep", "FC_OP_BREAKREP", true;
        Continue = 7, "continue", "FC_OP_CONTINUE", true;
    }
}

values! {
    /// A_OP [7:6] of FC_INST: the address-stack operation if the jump is taken.
    AOp [A_OPS] {
        None = 0, "none", "FC_A_OP_NONE", true;
        Pop = 1, "pop", "FC_A_OP_POP", true;
        Push = 2, "push", "FC_A_OP_PUSH", true;
        Aop3 = 3, "aop3", "(reserved)", false;
    }
}

values! {
    /// B_OP0 [25:24] (if staying) and B_OP1 [27:26] (if jumping) of FC_INST: the branch
    /// counter operation.
    BOp [B_OPS] {
        None = 0, "none", "FC_B_OP_NONE", true;
        Decr = 1, "decr", "FC_B_OP_DECR", true;
        Incr = 2, "incr", "FC_B_OP_INCR", true;
        Bop3 = 3, "bop3", "(reserved)", false;
    }
}

impl RgbOp {
    /// How many of the inputs A, B, C the operation reads (seed 003 §3.3.4; MDH/MDV read all
    /// three; SOP reads the alpha unit's result only; an undefined op counts as three).
    pub fn inputs(self) -> usize {
        match self {
            RgbOp::Sop => 0,
            RgbOp::Frc => 1,
            RgbOp::Dp3 | RgbOp::Dp4 | RgbOp::Min | RgbOp::Max => 2,
            _ => 3,
        }
    }
}

impl AlphaOp {
    /// How many of the inputs A, B, C the operation reads (DP copies the RGB unit's dot
    /// product and reads none; an undefined op counts as three).
    pub fn inputs(self) -> usize {
        match self {
            AlphaOp::Dp => 0,
            AlphaOp::Frc
            | AlphaOp::Ex2
            | AlphaOp::Ln2
            | AlphaOp::Rcp
            | AlphaOp::Rsq
            | AlphaOp::Sin
            | AlphaOp::Cos => 1,
            AlphaOp::Min | AlphaOp::Max => 2,
            _ => 3,
        }
    }
}

/// TARGET [30:29] of ALU_RGB_INST / ALU_ALPHA_INST in an ALU slot: the predicate op, the
/// comparison of [`CmpOp`] (the order of ALU_RESULT_OP, inferred: CTM names PRED_OP_* but
/// gives no values).
pub static PRED_OPS: &[ValueRow<CmpOp>] = &[
    ValueRow {
        value: 0,
        item: CmpOp::Eq,
        asm: "eq",
        ctm: "PRED_OP_EQUAL",
        defined: true,
    },
    ValueRow {
        value: 1,
        item: CmpOp::Lt,
        asm: "lt",
        ctm: "PRED_OP_LESS",
        defined: true,
    },
    ValueRow {
        value: 2,
        item: CmpOp::Ge,
        asm: "ge",
        ctm: "PRED_OP_GREATER_EQUAL",
        defined: true,
    },
    ValueRow {
        value: 3,
        item: CmpOp::Ne,
        asm: "ne",
        ctm: "PRED_OP_NOT_EQUAL",
        defined: true,
    },
];

/// TARGET in an OUTPUT slot: render targets A-D, the CTM outputs 0-3 (assembler `o0`-`o3`).
pub static RENDER_TARGETS: &[ValueRow<u8>] = &[
    ValueRow {
        value: 0,
        item: 0,
        asm: "o0",
        ctm: "RNDR_TGT_A",
        defined: true,
    },
    ValueRow {
        value: 1,
        item: 1,
        asm: "o1",
        ctm: "RNDR_TGT_B",
        defined: true,
    },
    ValueRow {
        value: 2,
        item: 2,
        asm: "o2",
        ctm: "RNDR_TGT_C",
        defined: true,
    },
    ValueRow {
        value: 3,
        item: 3,
        asm: "o3",
        ctm: "RNDR_TGT_D",
        defined: true,
    },
];

/// The uncached (UMRT) targets of seed 003 §3.3.8. Their values are documented nowhere
/// (ctm_instructions.tsv); the 2-bit TARGET field keeps whatever a program holds and
/// [`RENDER_TARGETS`] names it.
pub static UMRT_TARGETS: &[&str] = &[
    "RNDR_TGT_UMRT_SAME_IDX",
    "RNDR_TGT_UMRT_SAME_IDX_TEX_SEM_ACQUIRE",
    "RNDR_TGT_UMRT_PER_PROCESSOR_IDX",
    "RNDR_TGT_UMRT_PER_PROCESSOR_IDX_TEX_SEM_ACQUIRE",
];
