//! Binary IL token stream to [`Program`].
//!
//! A stream (L414-L431) is: macro definitions (`mdef` ... `mend`, before the language token,
//! L13195), IL_Lang, IL_Version, then instruction packets through `end`. A packet (L3020-L3028,
//! L3105-L3152, L694-L832) is: the opcode token; the primary then the secondary modifier dword
//! when the opcode's control bits 15/14 say so; a texture operation's resource-format and
//! address-offset dwords; for `mcall` its count dword; the destinations, then the sources,
//! each a register token, [its extended dword], [its modifier], [its index source and
//! immediate], [its second-dimension token, with its own index source and immediate]; then
//! the opcode's trailing dwords ([`Form`]).
//!
//! Every malformed input is a [`DecodeError`], never a panic: a stream cut short anywhere, an
//! unknown opcode, a reserved bit or an enumeration past its end, a control bit the opcode does
//! not define, relative (`IL_Rel_Addr`) addressing, operands nested deeper than
//! [`MAX_NESTING`], tokens after `end`. Decoding accepts only what [`crate::encode`] writes
//! back identically.
//!
//! Decisions where the reference is silent or corrupted:
//! - The extended dword directly follows its register token (L507 only says "following this
//!   token"); a zero high half is not accepted, since the encoder writes the dword only when
//!   the number needs it.
//! - Example 5 (L776-L832) marks `r2` with immediate_present = 1 (L823), which would make ten
//!   tokens, not the nine it counts (L778); its `r6` has 0 (L800). We read that bit as 0, and follow
//!   the example's order: first dimension's index and immediate, then the second-dimension
//!   token with its own.
//! - A second-dimension token has no modifier and no further dimension; an absolute one has the
//!   outer register's type and no immediate (example 3, L749-L759), a register-relative one
//!   register number 0 and type 0 (example 5). Other combinations appear nowhere.
//! - A comment's dwords are kept as they are: AMD's compiler leaves other bytes after the
//!   terminating NUL (the corpus's comments end `\0 38 c3 c8`).

use crate::inst::{Dim2, Dst, Index, Inst, Program, Reg, Src};
use crate::table::{self, op, Form, Kind, Row, PRI_BIT, SEC_BIT, TEX_AOFFSET_BIT, TEX_EXT_BIT};
use crate::token::{
    extended_from_token, lang_from_token, Addressing, DstMod, OpcodeToken, RegToken, SrcMod,
    Version,
};

/// Index sources inside index sources, at most.
pub const MAX_NESTING: usize = 8;

/// Why a token stream does not decode; `at` is the token's index in the stream.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("an IL token stream is whole 32-bit tokens; {0} bytes is not")]
    Length(usize),
    #[error("IL stream ends at token {at} where {what} was expected")]
    Truncated { at: usize, what: &'static str },
    #[error("unknown IL opcode {code} at token {at}")]
    UnknownOpcode { at: usize, code: u16 },
    #[error("bad IL token {word:#010x} at token {at}: {why}")]
    BadToken {
        at: usize,
        word: u32,
        why: &'static str,
    },
    #[error("malformed {op} at token {at}: {why}")]
    Malformed {
        at: usize,
        op: &'static str,
        why: String,
    },
    #[error("{count} tokens after end, from token {at}")]
    Trailing { at: usize, count: usize },
}

/// Decodes a little-endian token stream (a `.ilb` file, a CAL image's IL `.text`).
pub fn decode(bytes: &[u8]) -> Result<Program, DecodeError> {
    if !bytes.len().is_multiple_of(4) {
        return Err(DecodeError::Length(bytes.len()));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    decode_words(&words)
}

/// Decodes a token stream.
pub fn decode_words(words: &[u32]) -> Result<Program, DecodeError> {
    let mut r = Reader { words, at: 0 };
    let mut macros = Vec::new();
    while r.peek().is_some_and(|w| w as u16 == op::MACRODEF) {
        macros.push(r.inst()?);
        loop {
            let at = r.at;
            let inst = r.inst()?;
            if inst.op == op::MACRODEF {
                return Err(DecodeError::Malformed {
                    at,
                    op: "mdef",
                    why: "a macro definition inside a macro".into(),
                });
            }
            let end = inst.op == op::MACROEND;
            macros.push(inst);
            if end {
                break;
            }
        }
    }
    let at = r.at;
    let word = r.next("the IL_Lang token")?;
    let lang = lang_from_token(word).map_err(|why| DecodeError::BadToken { at, word, why })?;
    let at = r.at;
    let word = r.next("the IL_Version token")?;
    let version =
        Version::from_token(word).map_err(|why| DecodeError::BadToken { at, word, why })?;
    let mut code = Vec::new();
    loop {
        let inst = r.inst()?;
        let end = inst.op == op::END;
        code.push(inst);
        if end {
            break;
        }
    }
    if r.at < words.len() {
        return Err(DecodeError::Trailing {
            at: r.at,
            count: words.len() - r.at,
        });
    }
    Ok(Program {
        macros,
        lang,
        version,
        code,
    })
}

/// Decodes the packet at token `at`: the instruction and the index of the next packet.
pub fn decode_inst(words: &[u32], at: usize) -> Result<(Inst, usize), DecodeError> {
    let mut r = Reader { words, at };
    let inst = r.inst()?;
    Ok((inst, r.at))
}

struct Reader<'a> {
    words: &'a [u32],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u32> {
        self.words.get(self.at).copied()
    }

    fn next(&mut self, what: &'static str) -> Result<u32, DecodeError> {
        let w = self
            .peek()
            .ok_or(DecodeError::Truncated { at: self.at, what })?;
        self.at += 1;
        Ok(w)
    }

    /// `n` dwords, refusing before allocating when fewer remain.
    fn take(&mut self, n: usize, what: &'static str) -> Result<Vec<u32>, DecodeError> {
        if n > self.words.len() - self.at {
            return Err(DecodeError::Truncated {
                at: self.words.len(),
                what,
            });
        }
        let v = self.words[self.at..self.at + n].to_vec();
        self.at += n;
        Ok(v)
    }

    fn inst(&mut self) -> Result<Inst, DecodeError> {
        let at = self.at;
        let token = OpcodeToken::from_token(self.next("an IL_Opcode token")?);
        let row = table::row(token.code).ok_or(DecodeError::UnknownOpcode {
            at,
            code: token.code,
        })?;
        let bad = |why: String| DecodeError::Malformed {
            at,
            op: row.mnemonic,
            why,
        };
        let mut control = token.control;
        let has_pri = row.takes_pri() && control & PRI_BIT != 0;
        let has_sec = row.takes_sec() && control & SEC_BIT != 0;
        if row.takes_pri() {
            control &= !PRI_BIT;
        }
        if row.takes_sec() {
            control &= !SEC_BIT;
        }
        check_control(row, control).map_err(bad)?;
        let mut inst = Inst::new(row.value);
        inst.control = control;
        if has_pri {
            inst.pri = Some(self.next("the primary modifier dword")?);
        }
        if has_sec {
            inst.sec = Some(self.next("the secondary modifier dword")?);
        }
        if row.form == Form::Texture {
            if control & TEX_EXT_BIT != 0 {
                inst.pre.push(self.next("the resource-format dword")?);
            }
            if control & TEX_AOFFSET_BIT != 0 {
                inst.pre.push(self.next("the address-offset dword")?);
            }
            check_texture_dwords(&inst).map_err(|why| bad(why.into()))?;
        }
        let (dsts, srcs) = if row.form == Form::MacroCall {
            let count = self.next("the mcall count dword")?;
            (count as usize & 0xffff, (count >> 16) as usize)
        } else {
            operand_counts(row, control, inst.pri)
        };
        for _ in 0..dsts {
            let d = self.dst()?;
            if row.form == Form::MacroCall && d.modifier.is_some_and(|m| m.clamp || m.shift != 0) {
                return Err(bad("mcall outputs take no _sat or shift".into()));
            }
            inst.dst.push(d);
        }
        for _ in 0..srcs {
            inst.src.push(self.src(0)?);
        }
        inst.extra = self.tail(row, &inst)?;
        check_tail(row, &inst).map_err(bad)?;
        Ok(inst)
    }

    fn tail(&mut self, row: &Row, inst: &Inst) -> Result<Vec<u32>, DecodeError> {
        Ok(match row.form {
            Form::Tail(n, _) => self.take(usize::from(n), "the opcode's trailing dwords")?,
            Form::Named(names) => self.take(names.len(), "the opcode's trailing dwords")?,
            Form::Dims => {
                let count = row
                    .field_of(|k| *k == Kind::Count)
                    .map_or(0, |f| f.get(inst.control));
                self.take(usize::from(count), "the dimension dwords")?
            }
            Form::Comment => {
                let at = self.at;
                let word = self.next("the comment length dword")?;
                if word >> 16 != 0 {
                    return Err(DecodeError::BadToken {
                        at,
                        word,
                        why: "comment length reserved bits 31:16 set",
                    });
                }
                self.take(word as usize, "the comment text")?
            }
            Form::ConstBuffer => match inst.pri {
                Some(n) => self.take(n as usize, "the immediate constant buffer")?,
                None => Vec::new(),
            },
            Form::MacroDef | Form::Resource => self.take(1, "the opcode's dword")?,
            Form::FunctionTable => {
                let n = self.next("the function table's count")?;
                self.take(n as usize, "the function table's labels")?
            }
            Form::InterfacePtr => {
                let mut v = self.take(2, "the interface pointer's array size and length")?;
                let n = self.next("the interface pointer's count")?;
                v.extend(self.take(n as usize, "the interface pointer's tables")?);
                v
            }
            Form::Plain | Form::Texture | Form::MacroCall | Form::Prefix | Form::Sentinel => {
                Vec::new()
            }
        })
    }

    fn reg_token(&mut self, what: &'static str) -> Result<RegToken, DecodeError> {
        let at = self.at;
        let word = self.next(what)?;
        RegToken::from_token(word).map_err(|why| DecodeError::BadToken { at, word, why })
    }

    fn number(&mut self, t: &RegToken) -> Result<u32, DecodeError> {
        if !t.extended {
            return Ok(u32::from(t.num));
        }
        let at = self.at;
        let word = self.next("the extended register dword")?;
        let hi =
            extended_from_token(word).map_err(|why| DecodeError::BadToken { at, word, why })?;
        Ok(u32::from(t.num) | u32::from(hi) << 16)
    }

    fn dst(&mut self) -> Result<Dst, DecodeError> {
        let t = self.reg_token("an IL_Dst token")?;
        let num = self.number(&t)?;
        let modifier = if t.modifier {
            let at = self.at;
            let word = self.next("an IL_Dst_Mod token")?;
            Some(DstMod::from_token(word).map_err(|why| DecodeError::BadToken { at, word, why })?)
        } else {
            None
        };
        let reg = self.indices(t, num, 0)?;
        Ok(Dst { reg, modifier })
    }

    fn src(&mut self, depth: usize) -> Result<Src, DecodeError> {
        let at = self.at;
        if depth > MAX_NESTING {
            return Err(DecodeError::Malformed {
                at,
                op: "operand",
                why: format!("index sources nested deeper than {MAX_NESTING}"),
            });
        }
        let t = self.reg_token("an IL_Src token")?;
        let num = self.number(&t)?;
        let modifier = if t.modifier {
            let at = self.at;
            let word = self.next("an IL_Src_Mod token")?;
            Some(SrcMod::from_token(word).map_err(|why| DecodeError::BadToken { at, word, why })?)
        } else {
            None
        };
        let reg = self.indices(t, num, depth)?;
        Ok(Src { reg, modifier })
    }

    /// The index tokens after a register token (and its modifier).
    fn indices(&mut self, t: RegToken, num: u32, depth: usize) -> Result<Reg, DecodeError> {
        let index = match t.addressing {
            Addressing::Absolute if t.immediate => Index::Imm(self.next("an immediate index")?),
            Addressing::Absolute => Index::None,
            Addressing::RegRelative => {
                let s = self.src(depth + 1)?;
                let imm = if t.immediate {
                    Some(self.next("an immediate index")?)
                } else {
                    None
                };
                Index::Rel(Box::new(s), imm)
            }
            Addressing::Relative => return Err(relative(self.at)),
        };
        let dim2 = if t.dimension {
            Some(self.dim2(&t, depth)?)
        } else {
            None
        };
        Ok(Reg {
            ty: t.ty,
            num,
            index,
            dim2,
        })
    }

    fn dim2(&mut self, outer: &RegToken, depth: usize) -> Result<Dim2, DecodeError> {
        let at = self.at;
        let t = self.reg_token("a second-dimension token")?;
        let bad = |why: &str| DecodeError::Malformed {
            at,
            op: "second dimension",
            why: why.into(),
        };
        if t.modifier || t.dimension {
            return Err(bad(
                "a second-dimension token has no modifier and no third dimension",
            ));
        }
        match t.addressing {
            Addressing::Absolute => {
                if t.ty != outer.ty || t.immediate {
                    return Err(bad(
                        "an absolute second dimension has its register's type and no immediate",
                    ));
                }
                Ok(Dim2::Abs(self.number(&t)?))
            }
            Addressing::RegRelative => {
                if t.ty.value() != 0 || t.num != 0 || t.extended {
                    return Err(bad(
                        "a register-relative second dimension has register type 0 and number 0",
                    ));
                }
                let s = self.src(depth + 1)?;
                let imm = if t.immediate {
                    Some(self.next("an immediate index")?)
                } else {
                    None
                };
                Ok(Dim2::Rel(Box::new(s), imm))
            }
            Addressing::Relative => Err(relative(self.at)),
        }
    }
}

fn relative(at: usize) -> DecodeError {
    DecodeError::Malformed {
        at,
        op: "operand",
        why: "relative (IL_Rel_Addr) addressing, whose token the reference does not lay out".into(),
    }
}

/// The destinations and sources of an instruction with these control bits: a texture
/// operation's `_ext` adds two index sources, `srv_struct_load`'s one, and `dcl_cb`'s immediate
/// form (the primary modifier) has no source.
pub fn operand_counts(row: &Row, control: u16, pri: Option<u32>) -> (usize, usize) {
    let ext = row.field("ext").is_some_and(|f| f.get(control) != 0);
    let src = usize::from(row.src);
    let src = match row.form {
        Form::Texture if ext => src + 2,
        Form::Plain if ext => src + 1,
        Form::ConstBuffer if pri.is_some() => src - 1,
        _ => src,
    };
    (usize::from(row.dst), src)
}

/// Control bits no field defines are zero and enumerated fields hold enumerated values.
pub fn check_control(row: &Row, control: u16) -> Result<(), String> {
    let stray = control & !row.field_bits();
    if stray != 0 {
        return Err(format!("control bits {stray:#06x} must be zero"));
    }
    for f in row.fields {
        let v = f.get(control);
        if !f.valid(v) {
            return Err(format!("{} value {v} is not defined", field_name(f)));
        }
        if f.kind == Kind::Count && !(1..=3).contains(&v) {
            return Err(format!("{v} dimensions, not 1 to 3"));
        }
    }
    Ok(())
}

fn field_name(f: &table::Field) -> &'static str {
    if f.name.is_empty() {
        "the control field"
    } else {
        f.name
    }
}

/// A texture operation's resource format is an `ILPixTexUsage` and its address offset's
/// unused top byte is zero, so that both print.
pub fn check_texture_dwords(inst: &Inst) -> Result<(), &'static str> {
    let ext = inst.control & TEX_EXT_BIT != 0;
    if ext
        && inst
            .pre
            .first()
            .is_some_and(|&f| f as usize >= table::enums::PIXTEX.len())
    {
        return Err("resource format past IL_USAGE_PIXTEX_CUBEMAP_ARRAY");
    }
    if inst.control & TEX_AOFFSET_BIT != 0 && inst.pre.last().is_some_and(|&a| a >> 24 != 0) {
        return Err("address offset bits 31:24 set");
    }
    Ok(())
}

/// The trailing dwords' own rules: a comment holds its terminating NUL (L9813), `mdef`'s and
/// `dcl_resource`'s reserved bits are zero.
pub fn check_tail(row: &Row, inst: &Inst) -> Result<(), String> {
    if row.form == Form::Comment && !inst.extra.iter().any(|w| w.to_le_bytes().contains(&0)) {
        return Err("comment text without its terminating NUL".into());
    }
    match (row.form, inst.extra.first()) {
        (Form::MacroDef, Some(&w)) if w >> 17 != 0 => {
            Err("mdef's dword has reserved bits 31:17 set".into())
        }
        (Form::Resource, Some(&w)) if w & 0xf_ffff != 0 => {
            Err("dcl_resource's format dword has reserved bits 19:0 set".into())
        }
        _ => Ok(()),
    }
}
