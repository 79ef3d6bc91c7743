//! The assembler: applegpu's syntax (what applegpu.py prints, seed 004) to machine code.
//!
//! A line is read into the field values of a form of [`crate::table`], the form chosen as
//! applegpu's decoder would decode it back: among the forms the mnemonic may name, in the
//! table's matching order, the first whose operands all encode, whose constant bits they
//! leave intact and whose bytes [`crate::decode::frame`] matches as that same form. A form
//! with two lengths takes the short one when nothing is set past it, else the long one with
//! its length bit (applegpu's own choice when it assembles). Fields the text does not
//! mention are zero, and where applegpu prints two encodings alike the first reading is
//! taken (a 32-bit register's value with bit 0 clear, the lower of two enumeration values
//! with one name unless an operand tells them apart); tests/asm_vectors.rs lists every such
//! bit. A select operand's uniform past u127h takes the type's ninth bit, as the hardware
//! reads it ([`crate::operand::cmpsel_src`]); applegpu's decoder ignores that bit.
//!
//! # Accepted syntax
//!
//! - **Lines.** One instruction per line: the mnemonic, whitespace, operands separated by
//!   commas. Blank lines are skipped. `;`, `#` and `//` start a comment that runs to the end
//!   of the line (applegpu prints none of them).
//! - **Labels.** `name:` on its own line or before an instruction; a name is a letter, `_`
//!   or `.` followed by letters, digits, `_` and `.`. A label is the byte offset of the next
//!   instruction from the start of the program (address 0); it may be used before it is
//!   defined.
//! - **Mnemonics.** The table's names, and applegpu's spellings of them: `.sat` after the
//!   saturating ALU forms, `isub` and `imsub`, the `bitop` aliases (`and`, `or`, `xor`,
//!   `nand`, `nor`, `xnor`; `not` and `mov` with two operands; `bitop_mov_a` as `bitop`),
//!   `update_exec r0l` and `push_exec r0l, n` (the `if_fcmp` forms with condition `eq` and
//!   sources `0.0`), `ld_tile`/`st_tile`, `map`/`unmap` (`TODO.map` with the op number).
//! - **Registers.** `r5l`, `r5h` (16-bit halves), `r5` (32-bit), `r6_r7` (a 64-bit pair or
//!   two words), runs of consecutive words or halves (`r1_r2_r3`, `r1l_r1h_r2l`), uniform
//!   `u5l`, `u5h`, `u5`, `u6_u7`. The first register of a run must lie in its file (r0-r127,
//!   u0-u255); a run may end past it as applegpu prints it (`r127_r128`). Flags follow
//!   after dots in any order: `.cache` (or a leading `$`), `.discard`, `.sx`, `.abs`, `.neg`;
//!   each operand kind takes only the flags it can encode. State registers `tsN`, `ssN`,
//!   `cfN`; special registers `srN`, optionally followed by applegpu's name in parentheses
//!   (`sr80 (thread_position_in_grid.x)`), or that name alone.
//! - **Numbers.** Decimal, `0x` hex or `0b` binary, with `-` where the field is signed
//!   (memory and threadgroup indices, stack adjustments, branch offsets). Out-of-range
//!   values are errors, never truncated. A float source's immediate is written as its value
//!   (`0.5`, `-0.0`, `31.0`, `2`), with `.abs`/`.neg` after it as applegpu prints them
//!   (`1.5.neg`); a value the 8-bit minifloat ([`crate::operand::minifloat`]) cannot hold is
//!   an error.
//! - **Names.** Conditions (`ult`, `sgte`, `eq`, `nltn`, ...), formats (`i32`, `u8norm`,
//!   `rg11b10f.rtz`), masks (`xyzw`), texture types, atomic ops and the other enumerations
//!   by applegpu's name or by number. Truth tables as four binary digits, optionally after
//!   `0b` (`0110`, `0b0110`). Shifts `lsl N`; bitfield masks `mask 0xFFF` (low ones only);
//!   operands applegpu prints as nothing when zero (shifts, masks, empty enumeration
//!   values, the registers of an empty memory mask) are left out.
//! - **`None`.** Where applegpu prints `None`: an absent atomic or threadgroup-atomic
//!   result, a texture operation's uniform without a bindless texture, and an ALU source of
//!   the undefined type `1000` (a select operand of type `000`), kept so that printed
//!   listings read back.
//! - **Branch targets.** `pc+N`, `pc-N`, `pc+label` (signed bytes from the branch's own
//!   address), or the absolute address as applegpu prints it (`0x1F4`, `0x-1C`).
//!
//! Errors are values ([`AsmError`]): one line naming the line number (in a listing), the
//! operand and what is wrong. No input makes the assembler panic.

mod alu;
mod fields;
mod memory;
mod names;
mod operands;
mod scalar;
mod spelling;
mod text;
mod texture;

use crate::decode::frame;
use crate::table::Operand;
use fields::Fields;
use spelling::Spelling;
use std::collections::BTreeMap;
use std::fmt;

/// What kind of mistake an [`AsmError`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsmErrorKind {
    /// No form has this mnemonic.
    UnknownMnemonic,
    /// An operand is malformed, out of range, of the wrong kind, or missing or extra.
    Operand,
    /// The operands encode, but as another form than the mnemonic names.
    Form,
    /// A label is undefined, defined twice or badly named.
    Label,
    /// A line is not an instruction.
    Syntax,
}

/// An assembly error: the line (1-based, in a listing) and one line of explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub line: Option<usize>,
    pub kind: AsmErrorKind,
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.line {
            write!(f, "line {n}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for AsmError {}

impl AsmError {
    fn new(kind: AsmErrorKind, message: String) -> Self {
        AsmError {
            line: None,
            kind,
            message,
        }
    }

    fn at(self, line: usize) -> Self {
        AsmError {
            line: Some(line),
            ..self
        }
    }
}

/// An assembled listing: its bytes (the program starts at address 0) and the offset of
/// every label.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub bytes: Vec<u8>,
    pub labels: BTreeMap<String, u64>,
}

/// How branch targets written as `pc+label` resolve.
pub(crate) enum Labels<'a> {
    /// One instruction on its own: no labels.
    None,
    /// A listing's first pass: a label not yet defined reads as the branch's own address.
    Pending(&'a BTreeMap<String, u64>),
    /// A listing's second pass: every label is known.
    Known(&'a BTreeMap<String, u64>),
}

impl Labels<'_> {
    /// The address of `name` for a branch at `pc`.
    fn resolve(&self, name: &str, pc: u64) -> Result<i128, String> {
        if !text::is_label_name(name) {
            return Err(format!("`{name}` is not a label name"));
        }
        let found = match self {
            Labels::None => None,
            Labels::Pending(map) => Some(map.get(name).copied().unwrap_or(pc)),
            Labels::Known(map) => map.get(name).copied(),
        };
        found
            .map(i128::from)
            .ok_or_else(|| format!("undefined label `{name}`"))
    }
}

/// One instruction at address `pc` (for applegpu's absolute branch targets): its bytes.
pub fn assemble_line(text: &str, pc: u64) -> Result<Vec<u8>, AsmError> {
    let line = text::strip_comment(text).trim();
    if line.is_empty() {
        return Err(AsmError::new(
            AsmErrorKind::Syntax,
            "no instruction on the line".into(),
        ));
    }
    if text::split_label(line).is_some() {
        return Err(AsmError::new(
            AsmErrorKind::Label,
            "labels are for whole listings (assemble), not single lines".into(),
        ));
    }
    instruction(line, pc, &Labels::None)
}

/// A whole listing (see the module doc for its syntax).
pub fn assemble(text: &str) -> Result<Program, AsmError> {
    let mut labels = BTreeMap::new();
    let mut lines = Vec::new();
    let mut pc = 0u64;
    for (k, raw) in text.lines().enumerate() {
        let n = k + 1;
        let mut line = text::strip_comment(raw).trim();
        while let Some((name, rest)) = text::split_label(line) {
            if !text::is_label_name(name) {
                let e = format!("`{name}` is not a label name");
                return Err(AsmError::new(AsmErrorKind::Label, e).at(n));
            }
            if labels.insert(name.to_string(), pc).is_some() {
                let e = format!("label `{name}` is defined twice");
                return Err(AsmError::new(AsmErrorKind::Label, e).at(n));
            }
            line = rest.trim();
        }
        if line.is_empty() {
            continue;
        }
        let bytes = instruction(line, pc, &Labels::Pending(&labels)).map_err(|e| e.at(n))?;
        lines.push((n, line, pc, bytes.len()));
        pc += bytes.len() as u64;
    }
    let mut bytes = Vec::with_capacity(pc as usize);
    for (n, line, at, len) in lines {
        let b = instruction(line, at, &Labels::Known(&labels)).map_err(|e| e.at(n))?;
        if b.len() != len {
            let e = format!("`{line}` changed length once its labels were known");
            return Err(AsmError::new(AsmErrorKind::Label, e).at(n));
        }
        bytes.extend(b);
    }
    Ok(Program { bytes, labels })
}

/// Why an attempt at a form failed, and how far it got (the deepest attempt's reason is
/// the one reported).
struct Failure {
    depth: usize,
    error: AsmError,
}

fn deeper(best: Option<Failure>, f: Failure) -> Option<Failure> {
    match best {
        Some(b) if b.depth >= f.depth => Some(b),
        _ => Some(f),
    }
}

fn instruction(line: &str, pc: u64, labels: &Labels) -> Result<Vec<u8>, AsmError> {
    let (mnemonic, tokens) =
        text::split_instruction(line).map_err(|e| AsmError::new(AsmErrorKind::Syntax, e))?;
    let spellings = spelling::spellings(mnemonic);
    if spellings.is_empty() {
        return Err(AsmError::new(
            AsmErrorKind::UnknownMnemonic,
            format!("unknown mnemonic `{mnemonic}`"),
        ));
    }
    let mut best = None;
    for sp in &spellings {
        let attempt = Attempt {
            mnemonic,
            spelling: sp,
            operands: sp
                .row
                .operands
                .iter()
                .enumerate()
                .filter(|(k, _)| !sp.skipped.contains(k))
                .map(|(_, o)| o)
                .collect(),
            tokens: &tokens,
            pc,
            labels,
        };
        match attempt.run() {
            Ok(bytes) => return Ok(bytes),
            Err(f) => best = deeper(best, f),
        }
    }
    Err(best
        .map(|f| f.error)
        .unwrap_or_else(|| AsmError::new(AsmErrorKind::Form, format!("`{mnemonic}` has no form"))))
}

/// One form tried for one line: its operands (those the text writes) matched to the
/// operand texts, left to right, an operand that may print as nothing taking no text when
/// the texts run short of operands.
struct Attempt<'a> {
    mnemonic: &'a str,
    spelling: &'a Spelling,
    operands: Vec<&'static Operand>,
    tokens: &'a [&'a str],
    pc: u64,
    labels: &'a Labels<'a>,
}

/// Operands whose reading waits for the others: (operand position, text position, text).
type Deferred<'a> = Vec<(usize, usize, Option<&'a str>)>;

impl<'a> Attempt<'a> {
    fn run(&self) -> Result<Vec<u8>, Failure> {
        let mut f = Fields::new(self.spelling.row);
        for &(name, v) in &self.spelling.fixed {
            f.put(name, v)
                .map_err(|e| self.fail(0, AsmErrorKind::Form, e))?;
        }
        let f = self.search(0, 0, f, Vec::new())?;
        let bytes = f.bytes();
        match frame(&bytes) {
            Ok(fr) if std::ptr::eq(fr.row, f.row) && fr.len == bytes.len() => Ok(bytes),
            Ok(fr) => Err(self.fail(
                self.operands.len() + 1,
                AsmErrorKind::Form,
                format!(
                    "`{}` with these operands is the encoding of {}",
                    self.mnemonic, fr.row.name
                ),
            )),
            Err(e) => Err(self.fail(
                self.operands.len() + 1,
                AsmErrorKind::Form,
                format!(
                    "`{}` encodes to bytes that do not decode: {e}",
                    self.mnemonic
                ),
            )),
        }
    }

    fn fail(&self, depth: usize, kind: AsmErrorKind, message: String) -> Failure {
        Failure {
            depth,
            error: AsmError::new(kind, message),
        }
    }

    /// The error of operand `i`, written as the `j`th text `text` (or left out).
    fn operand_error(&self, i: usize, j: usize, text: Option<&str>, why: String) -> Failure {
        let op = self.operands[i];
        let message = match text {
            Some(t) => format!("{} operand {} `{t}`: {why}", self.mnemonic, j + 1),
            None => format!("{} operand {} left out: {why}", self.mnemonic, op.name),
        };
        self.fail(i, AsmErrorKind::Operand, message)
    }

    /// Operand `i` onwards from text `j` onwards.
    fn search(
        &self,
        i: usize,
        j: usize,
        f: Fields,
        deferred: Deferred<'a>,
    ) -> Result<Fields, Failure> {
        if i == self.operands.len() {
            return self.finish(j, f, deferred);
        }
        let op = self.operands[i];
        let row = self.spelling.row;
        let mut best = None;
        let mut choices = Vec::new();
        if let Some(&t) = self.tokens.get(j) {
            choices.push(Some(t));
        }
        let texts_left = self.tokens.len().saturating_sub(j);
        if operands::may_be_empty(row, op) && texts_left < self.operands.len() - i {
            choices.push(None);
        }
        if choices.is_empty() {
            return Err(self.fail(
                i,
                AsmErrorKind::Operand,
                format!(
                    "{} takes more operands: {} ({}) is missing",
                    self.mnemonic, op.name, op.kind
                ),
            ));
        }
        for text in choices {
            let next_j = j + usize::from(text.is_some());
            let attempt = if operands::dependent(op.kind) {
                let mut d = deferred.clone();
                d.push((i, j, text));
                self.search(i + 1, next_j, f, d)
            } else {
                let mut g = f;
                match operands::encode(&mut g, op, text, self.pc, self.labels) {
                    Ok(()) => self.search(i + 1, next_j, g, deferred.clone()),
                    Err(e) => Err(self.operand_error(i, j, text, e)),
                }
            };
            match attempt {
                Ok(g) => return Ok(g),
                Err(e) => best = deeper(best, e),
            }
        }
        Err(best.unwrap_or_else(|| {
            self.fail(
                i,
                AsmErrorKind::Operand,
                format!("{} has no reading", op.name),
            )
        }))
    }

    /// All operands placed: the texts must be used up, then the deferred operands read.
    fn finish(&self, j: usize, mut f: Fields, deferred: Deferred<'a>) -> Result<Fields, Failure> {
        if j < self.tokens.len() {
            return Err(self.fail(
                self.operands.len(),
                AsmErrorKind::Operand,
                format!(
                    "{} takes at most {} operands; `{}` is one too many",
                    self.mnemonic,
                    self.operands.len(),
                    self.tokens[j]
                ),
            ));
        }
        for (i, j, text) in deferred {
            operands::encode(&mut f, self.operands[i], text, self.pc, self.labels).map_err(
                |e| Failure {
                    // Every operand read: this reading got furthest.
                    depth: self.operands.len(),
                    ..self.operand_error(i, j, text, e)
                },
            )?;
        }
        Ok(f)
    }
}
