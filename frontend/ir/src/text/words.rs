//! The pieces of the text form below the token level: the `.`-separated parts of dotted
//! words (op parameters and float modes, memory spaces and widths) and `const` literals,
//! whose meaning depends on the type written after them.

use super::names::*;
use super::ParseError;
use crate::except::Except;
use crate::func::{MemSpace, MemWidth};
use crate::op::{Choice, FloatMode, Op, ParamVisitor};
use crate::types::ScalarType;

pub type PResult<T> = Result<T, ParseError>;

/// One `.`-separated part of a dotted word, with its position (for error messages).
pub struct Part<'a> {
    pub text: &'a str,
    pub line: u32,
    pub col: u32,
}

/// The parts of `word`, which starts at `line`:`col`.
pub fn parts(word: &str, line: u32, col: u32) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut offset = 0u32;
    for text in word.split('.') {
        out.push(Part {
            text,
            line,
            col: col.saturating_add(offset),
        });
        offset = offset.saturating_add(text.chars().count() as u32 + 1);
    }
    out
}

pub fn err_at(line: u32, col: u32, msg: impl Into<String>) -> ParseError {
    ParseError {
        line,
        col,
        msg: msg.into(),
    }
}

pub fn part_err(p: &Part<'_>, msg: impl Into<String>) -> ParseError {
    err_at(p.line, p.col, msg)
}

/// The bits of a `const` literal of type `ty` (see the grammar: hex is bits, decimal is a value).
pub fn const_bits(text: &str, ty: Option<ScalarType>) -> Result<u64, String> {
    if let Some(hex) = text.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).map_err(|_| "hex constant wider than 64 bits".into());
    }
    if text.starts_with("-0x") {
        return Err("a hex constant is raw bits and takes no sign".into());
    }
    let is_int_text = !text.contains(['.', 'e']);
    match ty {
        Some(t) if t.is_float() => float_bits(text, t),
        _ if !is_int_text => Err("a fractional constant needs a float type".into()),
        _ => {
            let bits = ty.map_or(64, |t| t.bits());
            let v: i128 = text
                .parse()
                .map_err(|_| format!("integer constant {text} out of range"))?;
            let (min, max) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
            if v < min || v > max {
                let name = ty.map_or("64 bits", |t| t.name());
                return Err(format!("integer constant {text} does not fit {name}"));
            }
            Ok((v as u64) & ty.map_or(u64::MAX, |t| t.bit_mask()))
        }
    }
}

/// A decimal float literal, correctly rounded to `ty`. f16 literals must be exact (Rust has no
/// correctly rounded decimal-to-f16 conversion, and going through f64 could round twice).
fn float_bits(text: &str, ty: ScalarType) -> Result<u64, String> {
    let bad = || format!("malformed float constant {text}");
    match ty {
        ScalarType::F32 => text
            .parse::<f32>()
            .map(|f| u64::from(f.to_bits()))
            .map_err(|_| bad()),
        ScalarType::F64 => text.parse::<f64>().map(f64::to_bits).map_err(|_| bad()),
        _ => {
            let d: f64 = text.parse().map_err(|_| bad())?;
            let h = half::f16::from_f64(d);
            if h.to_f64() == d {
                Ok(u64::from(h.to_bits()))
            } else {
                Err(format!(
                    "{text} is not exactly an f16; write its bits in hex"
                ))
            }
        }
    }
}

pub fn mem_space(p: &Part<'_>) -> PResult<MemSpace> {
    lookup(&SPACES, p.text).ok_or_else(|| part_err(p, format!("unknown memory space `{}`", p.text)))
}

pub fn mem_width(bits: &str, p: &Part<'_>) -> PResult<MemWidth> {
    WIDTHS
        .into_iter()
        .find(|w| (w.bytes() * 8).to_string() == bits)
        .ok_or_else(|| part_err(p, format!("unknown access width `{}`", p.text)))
}

pub fn b_width(p: &Part<'_>) -> PResult<MemWidth> {
    match p.text.strip_prefix('b') {
        Some(bits) => mem_width(bits, p),
        None => Err(part_err(
            p,
            format!("expected a width `bN`, found `{}`", p.text),
        )),
    }
}

/// Reads an op's parameters (in their fixed order) and then its float-mode suffixes.
pub fn op_suffixes(op: Op, head: &Part<'_>, ps: &[Part<'_>]) -> PResult<(Op, FloatMode)> {
    let mut rest = ps.iter().peekable();
    let op = op_params(op, head, &mut rest)?;
    modes(op, rest)
}

type Parts<'p, 'a> = std::iter::Peekable<std::slice::Iter<'p, Part<'a>>>;

fn pick<K: Copy>(table: &[(K, &'static str)], p: &Part<'_>, what: &str) -> PResult<K> {
    lookup(table, p.text).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(_, n)| *n).collect();
        part_err(
            p,
            format!("unknown {what} `{}` (one of {})", p.text, names.join(", ")),
        )
    })
}

/// The parameters of `op` (a base op from [`Op::from_name`]) taken from the front of `rest`.
fn op_params<'p>(mut op: Op, head: &Part<'_>, rest: &mut Parts<'p, '_>) -> PResult<Op> {
    op.visit_params(&mut ParamReader {
        name: op.name(),
        head,
        rest,
    })?;
    Ok(op)
}

/// Fills in an op's parameters from the parts after its name.
struct ParamReader<'h, 'r, 'p, 'a> {
    name: &'static str,
    head: &'h Part<'h>,
    rest: &'r mut Parts<'p, 'a>,
}

impl ParamVisitor for ParamReader<'_, '_, '_, '_> {
    type Error = ParseError;

    fn choice<P: Choice>(&mut self, p: &mut P) -> PResult<()> {
        let part = self.rest.next().ok_or_else(|| {
            part_err(
                self.head,
                format!("{} needs a {} suffix", self.name, P::WHAT),
            )
        })?;
        *p = pick(P::VALUES, part, P::WHAT)?;
        Ok(())
    }

    fn flag(&mut self, name: &'static str, on: &mut bool) -> PResult<()> {
        if self.rest.peek().is_some_and(|p| p.text == name) {
            self.rest.next();
            *on = true;
        }
        Ok(())
    }

    /// `fexcept.OP[.PARAMS][.TYPE]`: the reported op, its parameters, and for a conversion its
    /// result type.
    fn reported(&mut self, k: &mut Except) -> PResult<()> {
        let inner_part = self
            .rest
            .next()
            .ok_or_else(|| part_err(self.head, "fexcept needs the float op it reports on"))?;
        let unknown = || {
            part_err(
                inner_part,
                format!("`{}` has no exception flags", inner_part.text),
            )
        };
        let base = Op::from_name(inner_part.text).ok_or_else(unknown)?;
        let inner = op_params(base, inner_part, self.rest)?;
        let kind = Except::of(inner, ScalarType::I32).ok_or_else(unknown)?;
        *k = match kind.named_type() {
            Some(_) => {
                let tp = self.rest.next().ok_or_else(|| {
                    part_err(inner_part, format!("{} needs a result type", inner.name()))
                })?;
                let t = ScalarType::from_name(tp.text)
                    .ok_or_else(|| part_err(tp, format!("unknown type `{}`", tp.text)))?;
                kind.with_type(t)
            }
            None => kind,
        };
        Ok(())
    }
}

/// The float-mode suffixes of `op`: at most one flush and one rounding suffix.
fn modes(op: Op, rest: Parts<'_, '_>) -> PResult<(Op, FloatMode)> {
    let mut mode = FloatMode::IEEE;
    let (mut flush_seen, mut round_seen) = (false, false);
    for p in rest {
        let flush = match p.text {
            "flush" => Some((true, true)),
            "flush_in" => Some((true, false)),
            "flush_out" => Some((false, true)),
            _ => None,
        };
        if let Some((fin, fout)) = flush {
            if flush_seen {
                return Err(part_err(p, "only one of .flush, .flush_in, .flush_out"));
            }
            flush_seen = true;
            mode.flush_in = fin;
            mode.flush_out = fout;
        } else if let Some(r) = lookup(&ROUNDS, p.text) {
            if round_seen {
                return Err(part_err(p, "only one rounding suffix"));
            }
            round_seen = true;
            mode.round = r;
        } else {
            return Err(part_err(
                p,
                format!("unknown suffix `.{}` of {}", p.text, op.name()),
            ));
        }
    }
    Ok((op, mode))
}
