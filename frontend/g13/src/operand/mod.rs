//! Operand values of decoded instructions: what each operand of a form means, read from the
//! fields the table ([`crate::table`]) places. [`decode`] reads operand `k` of a form as a
//! [`Value`]; every operand kind of the table has a reading, and no field value makes it
//! fail: an encoding that applegpu.py HEAD (the reference) leaves undefined reads as
//! [`Value::Undefined`].
//!
//! Field names below are the table's: `X` is an operand's merged value (`Xx:X`, the
//! extension bits high), `Xt` its type or flags field. A "half number" `h` names `r(h>>1)l`
//! (even) or `r(h>>1)h` (odd); a register value of a 32-bit operand is `2 * index`.
//! Seed 004 is applegpu's 2021 documentation; notes/g13_map.md §2 maps it. Where applegpu.py
//! HEAD and the seed disagree, HEAD is followed and the kind says so.
//!
//! | kind | value | meaning |
//! |---|---|---|
//! | `ALUDst`, `ALUDst64`, `FloatDst`, `FloatDst16` | [`Value::Reg`] | [`alu_dst`]: `Dt` bit 0 cache, bit 1 32-bit; an odd value with 32 bits is a pair where 64 bits are allowed (seed 12752-12759). `FloatDst`'s `S` (saturate) is the mnemonic's `.sat` |
//! | `PairedALUDst` | [`Value::Regs`] | two words from `r(D>>1)` (`Dt` bit 1) or two halves from half `D` |
//! | `ImplicitR0L` | [`Value::Reg`] | always `r0l`, the exec-stack counter; `Dt` the cache hint |
//! | `ALUSrc`, `ALUSrc64`, `ALUSrc16`, `MulSrc`, `AddSrc`, `FloatSrc`, `FloatSrc16` | [`Value::Src`] | [`alu_src`] (seed 12760-12801); an undefined hint is [`Value::Undefined`] |
//! | `CmpselSrc` | [`Value::Src`] | [`cmpsel_src`] (seed 12802-12821) |
//! | `PairedFloatSrc` | [`Value::Regs`] or [`Value::Src`] | a `FloatSrc` whose registers come in twos |
//! | `Immediate` | [`Value::Imm`] | the field, zero-extended |
//! | `Binary` | [`Value::Binary`] | the field and its width (unknown bits applegpu shows in binary) |
//! | `TruthTable` | [`Value::TruthTable`] | `bitop`'s `tt0..tt3`: the result bit for (a,b) = (0,0), (1,0), (0,1), (1,1) (seed `bitop`) |
//! | `Enum` | [`Value::Enum`] | the field and its name ([`enums`]): formats, masks, modes, rounding, atomic ops, texture types |
//! | `Shift` | [`Value::Shift`] | `s` (`s2:s1`): the second operand of `iadd`/`imadd` shifted left by it (seed `iadd`; 5 or more gives 0) |
//! | `Mask` | [`Value::Mask`] | `m` (`m3:m2:m1`): the bitfield width, 0 meaning 32 |
//! | `ICondition` | [`Value::ICond`] | `cc` bit 2 signed, bits 1:0 eq/lt/gt (3 undefined); `ccn` inverts (seed 12822-12831) |
//! | `FCondition` | [`Value::FCond`] | `cc` 0 eq, 1 lt, 2 gt, 3 lt with NaN losing, 5 gte, 6 lte, 7 gt with NaN losing (4 undefined); `ccn` inverts. The seed's pseudocode (12832-12848) swaps 5 and 6; applegpu HEAD's names and semantics and Mesa's vectors (`fgte` is 5) agree on the order here |
//! | `BranchOffset` | [`Value::Offset`] | `off`, sign-extended from its width: bytes from the branch's own address (seed 6662-6663) |
//! | `Reg32`, `ExReg32` | [`Value::Reg`] | the word `r(value)` (`ExReg32`: 5 bits and a 2-bit extension) |
//! | `StackReg32`, `Reg32_4_4_` | [`Value::Reg`] | the word `r(value >> 1)` |
//! | `UReg64` | [`Value::UniformPair`] | `u(value)` and the next |
//! | `SReg32` | [`Value::Special`] | `SRx:SR`, a special register number (names in notes/g13_map.md §1) |
//! | `MemoryReg`, `SampleReg` | [`Value::Regs`] | the data registers: popcount(`mask`) of them from `R`, halves if `Rt` is 0, words from `r(R>>1)` else |
//! | `ThreadgroupMemoryReg` | [`Value::Regs`] or [`Value::Absent`] | as `MemoryReg`; with an `Ra` field (threadgroup atomics) one register, absent when `Ra` is 0 |
//! | `TileToMemoryReg` | [`Value::Reg`] | the half `R` |
//! | `MemoryBase` | [`Value::Reg`] or [`Value::UniformPair`] | the 64-bit address: `At` set the uniform pair `u(A>>1)`, else the register pair `r(A>>1)` (seed 12857-12863) |
//! | `MemoryIndex` | [`Value::Imm`] or [`Value::Reg`] | `Ot` set: a 16-bit immediate, sign-extended; else the word `r(O>>1)` (seed 12849-12856); `Ou` says whether a register index is signed. Mesa's AGX2.xml zero-extends an immediate index when `Ou` is set; applegpu HEAD, followed here, never does |
//! | `MemoryShift` | [`Value::Shift`] | `s`: the index is shifted left by it and scaled by the element size, `A + ((O << s) + i) * size` (notes/g13_map.md §5) |
//! | `ThreadgroupMemoryBase` | [`Value::Reg`], [`Value::Uniform`], [`Value::Imm`] | `At` 0 the half `A`, 2 the constant 0, 1 and 3 the uniform half `A` (`At` bit 1 its ninth bit) |
//! | `ThreadgroupIndex` | [`Value::Imm`] or [`Value::Reg`] | `Ot` set: a 16-bit immediate, sign-extended; else the half `O & 0xff` |
//! | `AsyncMemoryReg` | [`Value::Reg`] or [`Value::UniformPair`] | pair `R>>1`, uniform if `Rt` |
//! | `AsyncMemoryBase` | [`Value::Regs`] | 3 words (5 if `F`) from `A` (not halved), uniform if `At` |
//! | `AtomicSource` | [`Value::Reg`] | `r(S>>1)`, a pair for `cmpxchg` (compare and new value) |
//! | `AtomicDestination` | [`Value::Reg`] or [`Value::Absent`] | `r(R>>1)` when `Rt` is set (the old value returned) |
//! | `StackAdjustment` | [`Value::Imm`] | `v` (`v3:v2:v1`), 16 bits sign-extended |
//! | `SampleMask` | [`Value::Imm`] or [`Value::Reg`] | `S`: with a 2-bit `St`, 0 an immediate and 1 the half; with a 1-bit `St`, the reverse; `St` 2 or 3 undefined |
//! | `DiscardMask` | [`Value::Reg`] or [`Value::Imm`] | `Mt` 0 the half `M`, else an immediate |
//! | `ZS` | [`Value::Regs`] | halves from `T`: two for depth (`z`) then one for stencil (`s`) |
//! | `VarRegister`, `VarTripleRegister` | [`Value::Regs`] | `count` (0 meaning 4; three times that for the triple) halves from `D`, or words from `r(D>>1)` if `Dt` |
//! | `UVSIndex`, `PBELod` | [`Value::Reg`] or [`Value::Imm`] | the half, or an immediate when the `t` flag is set |
//! | `CF` | [`Value::Cf`] or [`Value::Reg`] | a coefficient register `cfN`, or the half when `It` is set |
//! | `CFPerspective` | [`Value::Cf`] | a coefficient register |
//! | `IterSampleID` | [`Value::Imm`], [`Value::Reg`], [`Value::Absent`] | with `interpolation` bit 0 (per sample): the half if bit 1, else an immediate; absent otherwise |
//! | `Texture` | [`Value::TextureState`], [`Value::Reg`], [`Value::Imm`] | `Tt` 0 `tsN`, 1 the half, 2 the half (0 reads as the constant 0), 3 the word `r(T>>1)` |
//! | `Sampler` | [`Value::SamplerState`] or [`Value::Reg`] | `St` 0 `ssN`, else the half |
//! | `TextureStateDest`, `SamplerStateDest` | [`Value::TextureState`], [`Value::SamplerState`] | the state register written |
//! | `Coords` | [`Value::Regs`] | the texture type's coordinates (and array index, sample): halves if `Cs`, else words; `Ct` marks them discarded |
//! | `SampleCompareOff` | [`Value::CompareOffset`] | from `O`: the compare value word (if `compare`), then the packed offsets half (if `Ot`) |
//! | `Lod` | [`Value::Imm`], [`Value::Regs`], [`Value::Uniform`], [`Value::Reg`] | by `lod`: 0 none, 4/12 gradient words (12 with a minimum), 1/2 the uniform half, 5/6 the half, 9/13 two uniform halves / two halves (bias and minimum: Mesa's AGX2.xml, where applegpu.py fails); others undefined |
//! | `SampleUReg` | [`Value::UniformPair`] or [`Value::Absent`] | `u(2U)` pair when `Tt` bit 1 is set |
//! | `PBESourceReg` | [`Value::Regs`] | four halves from `R`, or four words from `r(R>>1)` if `Rt` |

mod alu;
pub mod enums;
mod other;

pub use alu::{alu_dst, alu_src, cmpsel_src, minifloat};
pub use other::tex_size;

use crate::table::Row;
use std::fmt;

/// Which part of a register an operand names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// The low (`false`) or high (`true`) 16 bits.
    Half(bool),
    Word,
    /// Two consecutive registers from this one.
    Pair,
}

/// A general-purpose register operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reg {
    /// `rN`.
    pub index: u16,
    pub width: Width,
    /// The register-cache hint (no effect on results).
    pub cache: bool,
}

impl Reg {
    /// The half number `h`: `r(h>>1)l` or `r(h>>1)h`.
    pub fn half(h: u16) -> Reg {
        Reg {
            index: h >> 1,
            width: Width::Half(h & 1 != 0),
            cache: false,
        }
    }

    pub fn word(index: u16) -> Reg {
        Reg {
            index,
            width: Width::Word,
            cache: false,
        }
    }

    pub fn pair(index: u16) -> Reg {
        Reg {
            index,
            width: Width::Pair,
            cache: false,
        }
    }

    /// The register without its hint (`r5l`, `r6`; a pair as Mesa names it, `dr6`).
    fn name(&self) -> String {
        match self.width {
            Width::Half(high) => format!("r{}{}", self.index, if high { 'h' } else { 'l' }),
            Width::Word => format!("r{}", self.index),
            Width::Pair => format!("dr{}", self.index),
        }
    }

    /// The register in Mesa's syntax: `r5l`, `r6`, `dr6`, `$r2` with the cache hint.
    pub fn mesa(&self) -> String {
        let hint = if self.cache { "$" } else { "" };
        format!("{hint}{}", self.name())
    }
}

impl fmt::Display for Reg {
    /// applegpu's syntax: `r5l`, `r6`, `r6_r7`, `r2.cache` with the cache hint.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.width {
            Width::Pair => write!(f, "r{}_r{}", self.index, self.index + 1)?,
            _ => f.write_str(&self.name())?,
        }
        if self.cache {
            f.write_str(".cache")?;
        }
        Ok(())
    }
}

/// A uniform register operand (`uN`, or its half `uNl`/`uNh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UReg {
    pub index: u16,
    /// `None` for the 32-bit register, else the half (`true`: high).
    pub half: Option<bool>,
}

impl UReg {
    /// The uniform half number `h`: `u(h>>1)l` or `u(h>>1)h`.
    pub fn half(h: u16) -> UReg {
        UReg {
            index: h >> 1,
            half: Some(h & 1 != 0),
        }
    }
}

impl fmt::Display for UReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.half {
            None => write!(f, "u{}", self.index),
            Some(high) => write!(f, "u{}{}", self.index, if high { 'h' } else { 'l' }),
        }
    }
}

/// What an ALU source reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SrcValue {
    /// An 8-bit immediate, zero-extended.
    Imm(u8),
    /// A float source's 8-bit immediate: a minifloat ([`minifloat`]).
    FloatImm(u8),
    Reg(Reg),
    /// A general register whose value the hint says is not needed after this read.
    Discarded(Reg),
    Uniform(UReg),
}

/// An ALU source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Src {
    pub value: SrcValue,
    /// Sign-extended to the operation's width (`.sx`; never on an immediate).
    pub sx: bool,
    /// A float source's modifiers, applied in this order: the absolute value, the negation.
    pub abs: bool,
    pub neg: bool,
}

/// Consecutive registers, all halves or all words: memory data, texture coordinates, the
/// matrix operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegRange {
    /// Uniform registers (`u`) rather than general ones.
    pub uniform: bool,
    /// Halves (the first is half number `first`) rather than words (`r(first)`).
    pub halves: bool,
    pub first: u16,
    /// How many; 0 is an empty range (a memory form with an empty mask).
    pub count: u16,
    /// Hints and float modifiers, as on a single register.
    pub cache: bool,
    pub discard: bool,
    pub abs: bool,
    pub neg: bool,
}

impl RegRange {
    pub fn halves(first: u16, count: u16) -> RegRange {
        RegRange {
            uniform: false,
            halves: true,
            first,
            count,
            cache: false,
            discard: false,
            abs: false,
            neg: false,
        }
    }

    pub fn words(first: u16, count: u16) -> RegRange {
        RegRange {
            halves: false,
            ..RegRange::halves(first, count)
        }
    }

    /// The general registers of the range in order (none for a uniform range).
    pub fn regs(&self) -> impl Iterator<Item = Reg> + '_ {
        let n = if self.uniform { 0 } else { self.count };
        (0..n).map(move |i| {
            let at = self.first + i;
            if self.halves {
                Reg::half(at)
            } else {
                Reg::word(at)
            }
        })
    }
}

/// An integer comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ICmp {
    Eq,
    Lt,
    Gt,
}

/// An integer condition: the comparison (`None`: code 3, undefined), on sign-extended
/// operands if `signed`, its result inverted if `invert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ICond {
    pub cmp: Option<ICmp>,
    pub signed: bool,
    pub invert: bool,
}

/// A float comparison. The "NaN loses" forms (applegpu's `ltn`/`gtn`, Mesa's "less/greater
/// than (min/max)") compare as `Lt`/`Gt` except for NaN operands, as the min and max selects
/// Mesa builds from them need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FCmp {
    Eq,
    Lt,
    Gt,
    LtNanLoses,
    Ge,
    Le,
    GtNanLoses,
}

/// A float condition: the comparison (`None`: code 4, undefined), inverted if `invert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FCond {
    pub cmp: Option<FCmp>,
    pub invert: bool,
}

impl ICond {
    /// The 3-bit `cc` code with `ccn` as bit 3.
    pub fn code(&self) -> u8 {
        let op = match self.cmp {
            Some(ICmp::Eq) => 0,
            Some(ICmp::Lt) => 1,
            Some(ICmp::Gt) => 2,
            None => 3,
        };
        op | u8::from(self.signed) << 2 | u8::from(self.invert) << 3
    }

    /// applegpu's name of the condition ([`enums::ICONDITIONS`]), where it has one.
    pub fn name(&self) -> Option<&'static str> {
        enums::find(enums::ICONDITIONS, self.code().into())
    }

    fn from_code(code: u8) -> ICond {
        ICond {
            cmp: [Some(ICmp::Eq), Some(ICmp::Lt), Some(ICmp::Gt), None][usize::from(code & 3)],
            signed: code & 4 != 0,
            invert: code & 8 != 0,
        }
    }
}

impl FCond {
    /// The 3-bit `cc` code with `ccn` as bit 3.
    pub fn code(&self) -> u8 {
        let op = match self.cmp {
            Some(FCmp::Eq) => 0,
            Some(FCmp::Lt) => 1,
            Some(FCmp::Gt) => 2,
            Some(FCmp::LtNanLoses) => 3,
            None => 4,
            Some(FCmp::Ge) => 5,
            Some(FCmp::Le) => 6,
            Some(FCmp::GtNanLoses) => 7,
        };
        op | u8::from(self.invert) << 3
    }

    /// applegpu's name of the condition ([`enums::FCONDITIONS`]), where it has one.
    pub fn name(&self) -> Option<&'static str> {
        enums::find(enums::FCONDITIONS, self.code().into())
    }

    fn from_code(code: u8) -> FCond {
        use FCmp::*;
        FCond {
            cmp: [
                Some(Eq),
                Some(Lt),
                Some(Gt),
                Some(LtNanLoses),
                None,
                Some(Ge),
                Some(Le),
                Some(GtNanLoses),
            ][usize::from(code & 7)],
            invert: code & 8 != 0,
        }
    }
}

/// An enumerated field: its value and the value's name ([`enums::name`]; `None` for a value
/// without a known meaning).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Enum {
    pub value: u64,
    pub name: Option<&'static str>,
}

/// The meaning of one operand (see the module doc for which kind gives which).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A general register: a destination, a register field, a 64-bit base pair.
    Reg(Reg),
    /// An ALU source.
    Src(Src),
    Regs(RegRange),
    /// A uniform register or half outside an ALU source.
    Uniform(UReg),
    /// `u(n)` and `u(n+1)`, a 64-bit value.
    UniformPair(u16),
    /// An integer, sign-extended where the kind is signed.
    Imm(i64),
    /// Bits whose meaning is unknown, with their number.
    Binary {
        value: u64,
        width: u8,
    },
    /// `tt0..tt3`.
    TruthTable([bool; 4]),
    Enum(Enum),
    ICond(ICond),
    FCond(FCond),
    /// A branch offset in bytes from the branch's own address.
    Offset(i64),
    /// A left shift by this many bits (0: none).
    Shift(u8),
    /// A bitfield width (0 meaning 32).
    Mask(u8),
    /// A special register (`get_sr`).
    Special(u16),
    TextureState(u16),
    SamplerState(u16),
    /// A varying coefficient register.
    Cf(u16),
    /// A texture operation's compare value and packed offsets.
    CompareOffset {
        compare: Option<Reg>,
        offset: Option<Reg>,
    },
    /// An optional operand that this instruction does not have.
    Absent,
    /// An encoding without a defined meaning.
    Undefined,
}

/// Operand `k` of form `row` in instruction `word` (`Value::Undefined` past the operands).
pub fn decode(row: &Row, word: u128, k: usize) -> Value {
    let Some(op) = row.operands.get(k) else {
        return Value::Undefined;
    };
    let v = |name: &str| row.value(word, name).unwrap_or(0);
    let own = |suffix: &str| row.suffixed_field(word, op.name, suffix).unwrap_or(0);
    let value = v(op.name);
    match op.kind {
        "ALUDst" | "ALUDst64" | "FloatDst" | "FloatDst16" => {
            alu::dst(row, word, k).map_or(Value::Undefined, Value::Reg)
        }
        "PairedALUDst" => alu::paired_dst(row, word, op.name).unwrap_or(Value::Undefined),
        "ImplicitR0L" => Value::Reg(Reg {
            cache: own("t") & 1 != 0,
            ..Reg::half(0)
        }),
        "CmpselSrc" => cmpsel_src(row, word, k).map_or(Value::Undefined, Value::Src),
        "PairedFloatSrc" => alu::paired_float_src(row, word, op.name).unwrap_or(Value::Undefined),
        "ALUSrc" | "ALUSrc64" | "ALUSrc16" | "MulSrc" | "AddSrc" | "FloatSrc" | "FloatSrc16" => {
            alu_src(row, word, k).map_or(Value::Undefined, Value::Src)
        }
        "Immediate" => Value::Imm(value as i64),
        "Binary" => Value::Binary {
            value,
            width: width(row, op.name),
        },
        "TruthTable" => Value::TruthTable([0, 1, 2, 3].map(|i| own(&i.to_string()) != 0)),
        "Enum" => Value::Enum(Enum {
            value,
            name: enums::name(row.name, op.name, value),
        }),
        "Shift" => Value::Shift(v("s") as u8),
        "MemoryShift" => Value::Shift(value as u8),
        "Mask" => Value::Mask(value as u8),
        "ICondition" => Value::ICond(ICond::from_code(condition(row, word))),
        "FCondition" => Value::FCond(FCond::from_code(condition(row, word))),
        "BranchOffset" => Value::Offset(sign_extend(value, width(row, op.name))),
        "StackAdjustment" => Value::Imm(sign_extend(value, 16)),
        "Reg32" | "ExReg32" => Value::Reg(Reg::word(value as u16)),
        "StackReg32" | "Reg32_4_4_" => Value::Reg(Reg::word((value >> 1) as u16)),
        "UReg64" => Value::UniformPair(value as u16),
        "SReg32" => Value::Special(value as u16),
        "TextureStateDest" => Value::TextureState(value as u16),
        "SamplerStateDest" => Value::SamplerState(value as u16),
        "CFPerspective" => Value::Cf(value as u16),
        "TileToMemoryReg" => Value::Reg(Reg::half(value as u16)),
        _ => other::decode(row, word, op.kind, op.name),
    }
}

/// The condition code of `row`: `cc` with `ccn` (where the form has it) as bit 3.
fn condition(row: &Row, word: u128) -> u8 {
    let cc = row.field(word, "cc").unwrap_or(0);
    let ccn = row.field(word, "ccn").unwrap_or(0);
    (cc | ccn << 3) as u8
}

/// The width in bits of value `name` of `row` (its pieces together).
fn width(row: &Row, name: &str) -> u8 {
    let size = |part: &str| {
        row.fields
            .iter()
            .find(|f| f.name == part)
            .map_or(0, |f| f.size)
    };
    match row.merged.iter().find(|m| m.name == name) {
        Some(m) => m.parts.iter().map(|(p, _)| size(p)).sum(),
        None => size(name),
    }
}

/// `value`'s low `bits` bits as a signed number.
fn sign_extend(value: u64, bits: u8) -> i64 {
    if bits == 0 || bits >= 64 {
        return value as i64;
    }
    let shift = 64 - u32::from(bits);
    ((value << shift) as i64) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_syntaxes_name_a_register() {
        let r = |index, width, cache| Reg {
            index,
            width,
            cache,
        };
        assert_eq!(r(5, Width::Half(false), false).mesa(), "r5l");
        assert_eq!(r(5, Width::Half(true), true).to_string(), "r5h.cache");
        assert_eq!(r(6, Width::Pair, false).mesa(), "dr6");
        assert_eq!(r(6, Width::Pair, false).to_string(), "r6_r7");
        assert_eq!(r(2, Width::Word, true).mesa(), "$r2");
    }

    #[test]
    fn condition_codes_round_trip() {
        for code in 0..16 {
            assert_eq!(ICond::from_code(code).code(), code);
            assert_eq!(FCond::from_code(code).code(), code);
        }
        assert_eq!(sign_extend(0xfffe, 16), -2);
        assert_eq!(sign_extend(0x7fff, 16), 0x7fff);
    }
}
