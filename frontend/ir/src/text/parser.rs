//! Reads the text form (grammar in the [module docs](super)) back into a [`Function`].
//!
//! The parser checks syntax and names only (value numbering, block numbering, known register
//! files, operand counts); types are the verifier's business, so any function the printer
//! writes, valid or not, parses back unless it holds references the text cannot name.
//! It never panics: every failure is a [`ParseError`] with the line and column of the
//! offending token.

use super::lexer::{tokenize, Tok, Token};
use super::names::*;
use super::words::*;
use super::ParseError;
use crate::format::ElemFormat;
use crate::func::*;
use crate::op::Op;
use crate::state::{FileKind, Reg, RegFile, StateLayout};
use crate::types::{ScalarType, Shape, Type};

/// Parses one function.
pub fn parse(src: &str) -> Result<Function, ParseError> {
    let toks = tokenize(src)?;
    let mut p = Parser {
        toks,
        pos: 0,
        layout: StateLayout {
            wave_size: 0,
            files: Vec::new(),
        },
    };
    p.function()
}

/// The operand slot a `Pure` instruction leaves unused (the builder's filler too).
const UNUSED: Value = Value(u32::MAX);

struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// The layout read so far (register names resolve against it).
    layout: StateLayout,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Word(w) => format!("`{w}`"),
        Tok::Value(v) => format!("`%{v}`"),
        Tok::Num(n) => format!("`{n}`"),
        Tok::Str(_) => "a string".into(),
        Tok::Punct(c) => format!("`{c}`"),
        Tok::Newline => "end of line".into(),
        Tok::Eof => "end of input".into(),
    }
}

fn parse_unsigned(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None if text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        None => None,
    }
}

impl Parser {
    fn peek(&self) -> &Token {
        // `tokenize` always ends with Eof, and `bump` never moves past it.
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn error(&self, msg: impl Into<String>) -> ParseError {
        let t = self.peek();
        err_at(t.line, t.col, msg)
    }

    fn unexpected(&self, wanted: &str) -> ParseError {
        self.error(format!(
            "expected {wanted}, found {}",
            describe(&self.peek().tok)
        ))
    }

    fn is_punct(&self, c: char) -> bool {
        self.peek().tok == Tok::Punct(c)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(&self.peek().tok, Tok::Word(x) if x == w)
    }

    fn punct(&mut self, c: char) -> PResult<()> {
        if self.is_punct(c) {
            self.bump();
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{c}`")))
        }
    }

    fn keyword(&mut self, w: &str) -> PResult<()> {
        if self.is_word(w) {
            self.bump();
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{w}`")))
        }
    }

    fn word(&mut self, what: &str) -> PResult<(String, u32, u32)> {
        match self.peek().tok.clone() {
            Tok::Word(w) => {
                let t = self.bump();
                Ok((w, t.line, t.col))
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn end_of_line(&mut self) -> PResult<()> {
        match self.peek().tok {
            Tok::Newline => {
                self.bump();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ => Err(self.unexpected("end of line")),
        }
    }

    fn skip_newlines(&mut self) {
        while self.peek().tok == Tok::Newline {
            self.bump();
        }
    }

    fn unsigned(&mut self, what: &str) -> PResult<u64> {
        match self.peek().tok.clone() {
            Tok::Num(n) => {
                let v = parse_unsigned(&n).ok_or_else(|| {
                    self.error(format!("{what} must be an unsigned integer below 2^64"))
                })?;
                self.bump();
                Ok(v)
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn u32(&mut self, what: &str) -> PResult<u32> {
        let t = self.peek().clone();
        let v = self.unsigned(what)?;
        u32::try_from(v).map_err(|_| err_at(t.line, t.col, format!("{what} must be below 2^32")))
    }

    fn value(&mut self) -> PResult<Value> {
        match self.peek().tok {
            Tok::Value(v) => {
                self.bump();
                Ok(Value(v))
            }
            _ => Err(self.unexpected("a value `%N`")),
        }
    }

    /// The token after the next one.
    fn peek_next(&self) -> &Tok {
        &self.toks[(self.pos + 1).min(self.toks.len() - 1)].tok
    }

    /// A formatted access's format: `fmt.DATA.NUM.SWIZZLE` or a code operand `%N`.
    fn format(&mut self) -> PResult<FormatSrc> {
        if let Tok::Value(_) = self.peek().tok {
            return Ok(FormatSrc::Dynamic(self.value()?));
        }
        let (w, line, col) = self.word("a format `fmt.DATA.NUM.SWIZZLE` or a value `%N`")?;
        let ps = parts(&w, line, col);
        let [kw, data, num, swz] = &ps[..] else {
            return Err(err_at(line, col, "expected `fmt.DATA.NUM.SWIZZLE`"));
        };
        if kw.text != "fmt" {
            return Err(part_err(kw, "expected `fmt.DATA.NUM.SWIZZLE`"));
        }
        ElemFormat::from_parts(data.text, num.text, swz.text)
            .map(FormatSrc::Static)
            .map_err(|m| part_err(data, m))
    }

    /// `, value`
    fn comma_value(&mut self) -> PResult<Value> {
        self.punct(',')?;
        self.value()
    }

    /// Trailing `, KEYWORD %v` clauses: each of `keywords` at most once, in that order.
    fn clauses<const N: usize>(&mut self, keywords: [&str; N]) -> PResult<[Option<Value>; N]> {
        let mut out = [None; N];
        let mut next = 0;
        while self.is_punct(',') {
            self.bump();
            let (w, line, col) = self.word("a clause")?;
            let Some(k) = keywords[next..].iter().position(|&k| k == w) else {
                let all: Vec<String> = keywords.iter().map(|k| format!("`{k}`")).collect();
                let msg = if keywords.contains(&w.as_str()) {
                    format!(
                        "`{w}` repeated or out of order (clauses go: {})",
                        all.join(", ")
                    )
                } else {
                    format!("expected {}, found `{w}`", all.join(" or "))
                };
                return Err(err_at(line, col, msg));
            };
            next += k;
            out[next] = Some(self.value()?);
            next += 1;
        }
        Ok(out)
    }

    fn block_ref(&mut self) -> PResult<Block> {
        let (w, line, col) = self.word("a block `blockN`")?;
        block_number(&w)
            .map(Block)
            .ok_or_else(|| err_at(line, col, format!("`{w}` is not a block name `blockN`")))
    }

    fn function(&mut self) -> PResult<Function> {
        self.skip_newlines();
        self.keyword("function")?;
        let name = match self.peek().tok.clone() {
            Tok::Str(s) => {
                self.bump();
                s
            }
            _ => return Err(self.unexpected("the function name in quotes")),
        };
        self.keyword("wave")?;
        self.layout.wave_size = self.u32("the wave size")?;
        self.punct('{')?;
        self.skip_newlines();
        while !self.is_punct('}') {
            if !self.layout.files.is_empty() {
                self.punct(',')?;
                self.skip_newlines();
            }
            self.register_file()?;
            self.skip_newlines();
        }
        self.bump();
        self.end_of_line()?;
        let mut blocks = Vec::new();
        loop {
            self.skip_newlines();
            if self.peek().tok == Tok::Eof {
                break;
            }
            let number = u32::try_from(blocks.len()).map_err(|_| self.error("too many blocks"))?;
            blocks.push(self.block(number)?);
        }
        Ok(Function {
            name,
            layout: std::mem::replace(
                &mut self.layout,
                StateLayout {
                    wave_size: 0,
                    files: Vec::new(),
                },
            ),
            blocks,
        })
    }

    fn register_file(&mut self) -> PResult<()> {
        let kind = if self.is_word("uniform") {
            FileKind::Uniform
        } else if self.is_word("lane") {
            FileKind::Lane
        } else {
            return Err(
                self.unexpected("a register file `uniform NAME[CELLS]` or `lane NAME[CELLS]`")
            );
        };
        self.bump();
        let (name, line, col) = self.word("a register file name")?;
        if name.contains('.') {
            return Err(err_at(line, col, "a register file name cannot contain `.`"));
        }
        if self.layout.files.iter().any(|f| f.name == name) {
            return Err(err_at(
                line,
                col,
                format!("register file `{name}` is declared twice"),
            ));
        }
        if self.layout.files.len() > usize::from(u16::MAX) {
            return Err(err_at(line, col, "more than 65536 register files"));
        }
        self.punct('[')?;
        let cells = self.u32("the number of cells")?;
        self.punct(']')?;
        let written_first = self.is_word("written_first");
        if written_first {
            self.bump();
        }
        self.layout.files.push(RegFile {
            name,
            kind,
            cells,
            written_first,
        });
        Ok(())
    }

    fn block(&mut self, number: u32) -> PResult<BlockData> {
        let (w, line, col) = self.word("a block header `blockN:`")?;
        if block_number(&w) != Some(number) {
            return Err(err_at(
                line,
                col,
                format!("expected block{number}, found `{w}`"),
            ));
        }
        let guest_pc = if self.is_punct('@') {
            self.bump();
            Some(self.unsigned("the block's guest pc")?)
        } else {
            None
        };
        let guest_insts = if self.is_word("insts") {
            self.bump();
            self.punct('=')?;
            self.u32("the guest instruction count")?
        } else {
            0
        };
        self.punct(':')?;
        self.end_of_line()?;
        let mut insts = Vec::new();
        let mut pc = 0;
        loop {
            self.skip_newlines();
            let t = self.peek().clone();
            match &t.tok {
                Tok::Eof => return Err(self.error(format!("block{number} has no terminator"))),
                Tok::Word(w) if block_number(w).is_some() => {
                    return Err(self.error(format!("block{number} has no terminator")));
                }
                Tok::Word(w) if is_terminator(w) => {
                    let term = self.terminator()?;
                    let term_pc = if self.is_punct('@') {
                        self.bump();
                        self.u32("the terminator's guest pc")?
                    } else {
                        pc
                    };
                    self.end_of_line()?;
                    return Ok(BlockData {
                        guest_pc,
                        guest_insts,
                        insts,
                        term,
                        term_pc,
                    });
                }
                _ => {
                    let index = u32::try_from(insts.len())
                        .map_err(|_| self.error("too many instructions"))?;
                    let inst = self.inst(index, pc)?;
                    pc = inst.pc;
                    insts.push(inst);
                }
            }
        }
    }

    /// `[%index =] body [: type] [@pc]`, then the end of the line.
    fn inst(&mut self, index: u32, prev_pc: u32) -> PResult<Inst> {
        let start = self.peek().clone();
        let defines = if let Tok::Value(v) = start.tok {
            if v != index {
                return Err(self.error(format!("this instruction defines %{index}, not %{v}")));
            }
            self.bump();
            self.punct('=')?;
            true
        } else {
            false
        };
        let (kind, literal) = self.body()?;
        let ty = if self.is_punct(':') {
            self.bump();
            Some(self.ty()?)
        } else {
            None
        };
        if defines != ty.is_some() {
            let msg = if defines {
                "a result `%N =` needs a type `: T`"
            } else {
                "a type `: T` needs a result `%N =`"
            };
            return Err(err_at(start.line, start.col, msg));
        }
        let pc = if self.is_punct('@') {
            self.bump();
            self.u32("the instruction's guest pc")?
        } else {
            prev_pc
        };
        let kind = match (kind, literal) {
            (InstKind::Const(_), Some(lit)) => {
                let bits = const_bits(&lit.text, ty.map(|t| t.scalar))
                    .map_err(|m| err_at(lit.line, lit.col, m))?;
                InstKind::Const(bits)
            }
            (kind, _) => kind,
        };
        self.end_of_line()?;
        Ok(Inst { kind, ty, pc })
    }

    fn ty(&mut self) -> PResult<Type> {
        let shape = if self.is_word("lane") {
            self.bump();
            Shape::Lane
        } else {
            Shape::Uniform
        };
        let (w, line, col) = self.word("a type")?;
        let scalar = ScalarType::from_name(&w)
            .ok_or_else(|| err_at(line, col, format!("`{w}` is not a type")))?;
        Ok(Type { scalar, shape })
    }

    /// The instruction body; a `const`'s literal is returned separately because its meaning
    /// depends on the type that follows it.
    fn body(&mut self) -> PResult<(InstKind, Option<Literal>)> {
        use InstKind::*;
        let (word, line, col) = self.word("an instruction")?;
        let ps = parts(&word, line, col);
        let head = &ps[0];
        let no_suffix = |ps: &[Part<'_>]| match ps.get(1) {
            Some(p) => Err(part_err(p, format!("`{}` takes no suffix", ps[0].text))),
            None => Ok(()),
        };
        let kind = match head.text {
            "const" => {
                no_suffix(&ps)?;
                let t = self.peek().clone();
                return match t.tok {
                    Tok::Num(text) => {
                        self.bump();
                        Ok((
                            Const(0),
                            Some(Literal {
                                text,
                                line: t.line,
                                col: t.col,
                            }),
                        ))
                    }
                    _ => Err(self.unexpected("a constant")),
                };
            }
            "splat" | "mask_from_bits" | "ballot" => {
                no_suffix(&ps)?;
                let v = self.value()?;
                match head.text {
                    "splat" => Splat(v),
                    "mask_from_bits" => MaskFromBits(v),
                    _ => Ballot(v),
                }
            }
            "lane_id" => {
                no_suffix(&ps)?;
                LaneId
            }
            "read_lane" | "shuffle" => {
                no_suffix(&ps)?;
                let value = self.value()?;
                let other = self.comma_value()?;
                if head.text == "read_lane" {
                    ReadLane { value, lane: other }
                } else {
                    Shuffle { value, src: other }
                }
            }
            "read" => {
                no_suffix(&ps)?;
                match self.register()? {
                    (reg, None) => ReadReg(reg),
                    (reg, Some(index)) => ReadRegIndexed {
                        file: reg.file,
                        base: reg.index,
                        index,
                    },
                }
            }
            "write" => {
                no_suffix(&ps)?;
                let (reg, index) = self.register()?;
                let value = self.comma_value()?;
                let [mask] = self.clauses(["mask"])?;
                match index {
                    None => WriteReg { reg, value, mask },
                    Some(index) => WriteRegIndexed {
                        file: reg.file,
                        base: reg.index,
                        index,
                        value,
                        mask,
                    },
                }
            }
            "load" => {
                let [_, space, width] = &ps[..] else {
                    return Err(part_err(
                        head,
                        "expected `load.SPACE.uN` or `load.SPACE.sN`",
                    ));
                };
                let space = mem_space(space)?;
                let (signed, width) = match width.text.split_at_checked(1) {
                    Some(("u", bits)) => (false, mem_width(bits, width)?),
                    Some(("s", bits)) => (true, mem_width(bits, width)?),
                    _ => return Err(part_err(width, "expected a width `uN` or `sN`")),
                };
                let addr = self.value()?;
                let [mask] = self.clauses(["mask"])?;
                Load {
                    space,
                    width,
                    signed,
                    addr,
                    mask,
                }
            }
            "store" => {
                let [_, space, width] = &ps[..] else {
                    return Err(part_err(head, "expected `store.SPACE.bN`"));
                };
                let (space, width) = (mem_space(space)?, b_width(width)?);
                let addr = self.value()?;
                let value = self.comma_value()?;
                let [mask] = self.clauses(["mask"])?;
                Store {
                    space,
                    width,
                    addr,
                    value,
                    mask,
                }
            }
            "load_format" => {
                let [_, space, comp] = &ps[..] else {
                    return Err(part_err(head, "expected `load_format.SPACE.cN`"));
                };
                let space = mem_space(space)?;
                let comp = match comp.text.strip_prefix('c').map(str::parse::<u8>) {
                    Some(Ok(c)) if c < 4 => c,
                    _ => return Err(part_err(comp, "expected a component `c0` .. `c3`")),
                };
                let format = self.format()?;
                let addr = self.comma_value()?;
                let [mask] = self.clauses(["mask"])?;
                LoadFormat {
                    space,
                    format,
                    comp,
                    addr,
                    mask,
                }
            }
            "store_format" => {
                let [_, space] = &ps[..] else {
                    return Err(part_err(head, "expected `store_format.SPACE`"));
                };
                let space = mem_space(space)?;
                let format = self.format()?;
                let addr = self.comma_value()?;
                let mut data = [UNUSED; 4];
                let mut count = 0;
                while self.is_punct(',') && matches!(self.peek_next(), Tok::Value(_)) {
                    if count == 4 {
                        return Err(self.error("store_format takes at most 4 components"));
                    }
                    data[count] = self.comma_value()?;
                    count += 1;
                }
                if count == 0 {
                    return Err(self.unexpected("`,` and a component value"));
                }
                let [mask] = self.clauses(["mask"])?;
                StoreFormat {
                    space,
                    format,
                    addr,
                    data,
                    count: count as u8,
                    mask,
                }
            }
            "atomic" => {
                let [_, op, space, width] = &ps[..] else {
                    return Err(part_err(head, "expected `atomic.OP.SPACE.bN`"));
                };
                let op = lookup(&ATOMIC_OPS, op.text).ok_or_else(|| {
                    part_err(op, format!("unknown atomic operation `{}`", op.text))
                })?;
                let (space, width) = (mem_space(space)?, b_width(width)?);
                let addr = self.value()?;
                let data = self.comma_value()?;
                let [cmp, mask] = self.clauses(["cmp", "mask"])?;
                Atomic {
                    op,
                    space,
                    width,
                    addr,
                    data,
                    cmp,
                    mask,
                }
            }
            name => {
                let op = Op::from_name(name)
                    .ok_or_else(|| part_err(head, format!("unknown instruction `{name}`")))?;
                let (op, mode) = op_suffixes(op, head, &ps[1..])?;
                let mut args = [UNUSED; 4];
                let mut n = 0;
                if let Tok::Value(_) = self.peek().tok {
                    loop {
                        if n == op.arity() {
                            return Err(self.error(format!("{name} takes {} operands", op.arity())));
                        }
                        args[n] = self.value()?;
                        n += 1;
                        if !self.is_punct(',') {
                            break;
                        }
                        self.bump();
                    }
                }
                if n != op.arity() {
                    return Err(
                        self.error(format!("{name} takes {} operands, found {n}", op.arity()))
                    );
                }
                Pure { op, mode, args }
            }
        };
        Ok((kind, None))
    }

    /// `NAME[INDEX]` or `NAME[BASE + %V]`.
    fn register(&mut self) -> PResult<(Reg, Option<Value>)> {
        let (name, line, col) = self.word("a register `NAME[INDEX]`")?;
        let file = self
            .layout
            .file_by_name(&name)
            .ok_or_else(|| err_at(line, col, format!("no register file `{name}`")))?;
        self.punct('[')?;
        let index = self.u32("a register index")?;
        let dynamic = if self.is_punct('+') {
            self.bump();
            Some(self.value()?)
        } else {
            None
        };
        self.punct(']')?;
        Ok((Reg { file, index }, dynamic))
    }

    fn terminator(&mut self) -> PResult<Terminator> {
        let (w, line, col) = self.word("a terminator")?;
        Ok(match w.as_str() {
            "jump" => Terminator::Jump(self.block_ref()?),
            "barrier" => Terminator::Barrier(self.block_ref()?),
            "br" => {
                let cond = self.value()?;
                self.punct(',')?;
                let then_to = self.block_ref()?;
                self.punct(',')?;
                let else_to = self.block_ref()?;
                Terminator::Branch {
                    cond,
                    then_to,
                    else_to,
                }
            }
            "jump_indirect" => Terminator::JumpIndirect(self.value()?),
            "return" => Terminator::Return,
            "trap" => {
                let t = self.bump();
                Terminator::Trap(match t.tok {
                    Tok::Word(w) if w == "bad_jump" => TrapKind::BadJump,
                    Tok::Word(w) if w == "stack_overflow" => TrapKind::StackOverflow,
                    Tok::Word(w) if w == "stack_underflow" => TrapKind::StackUnderflow,
                    Tok::Str(s) => TrapKind::Explicit(s),
                    other => {
                        let msg = format!(
                            "expected `bad_jump`, `stack_overflow`, `stack_underflow` or a \
                             message, found {}",
                            describe(&other)
                        );
                        return Err(err_at(t.line, t.col, msg));
                    }
                })
            }
            _ => return Err(err_at(line, col, format!("`{w}` is not a terminator"))),
        })
    }
}

/// A `const` literal waiting for its type.
struct Literal {
    text: String,
    line: u32,
    col: u32,
}

fn is_terminator(w: &str) -> bool {
    matches!(
        w,
        "jump" | "br" | "jump_indirect" | "barrier" | "return" | "trap"
    )
}

fn block_number(w: &str) -> Option<u32> {
    let digits = w.strip_prefix("block")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}
