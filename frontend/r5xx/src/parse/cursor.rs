//! The assembler's tokens: a cursor over a line, numbers, register names, masks.

pub(super) type R<T> = Result<T, String>;

/// A cursor over a line: whitespace-separated tokens of words (`[A-Za-z0-9_]+`) and
/// punctuation.
pub(super) struct Cur<'a> {
    pub(super) s: &'a str,
}

impl<'a> Cur<'a> {
    pub(super) fn ws(&mut self) {
        self.s = self.s.trim_start();
    }

    pub(super) fn peek(&mut self) -> Option<char> {
        self.ws();
        self.s.chars().next()
    }

    pub(super) fn eat(&mut self, t: &str) -> bool {
        self.ws();
        match self.s.strip_prefix(t) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    pub(super) fn expect(&mut self, t: &str) -> R<()> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(format!("expected `{t}` at `{}`", self.rest()))
        }
    }

    pub(super) fn word(&mut self) -> R<&'a str> {
        self.ws();
        let end = self
            .s
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.s.len());
        if end == 0 {
            return Err(format!("expected a name or number at `{}`", self.rest()));
        }
        let (w, rest) = self.s.split_at(end);
        self.s = rest;
        Ok(w)
    }

    pub(super) fn done(&mut self) -> bool {
        self.ws();
        self.s.is_empty()
    }

    pub(super) fn end(&mut self) -> R<()> {
        if self.done() {
            Ok(())
        } else {
            Err(format!("unexpected `{}`", self.rest()))
        }
    }

    pub(super) fn rest(&self) -> &'a str {
        if self.s.is_empty() {
            "end of line"
        } else {
            self.s
        }
    }
}

/// A number: decimal or `0x` hex.
pub(super) fn number(w: &str) -> R<u32> {
    let parsed = match w.strip_prefix("0x").or_else(|| w.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16),
        None => w.parse(),
    };
    parsed.map_err(|_| format!("`{w}` is not a number"))
}

/// `prefix` followed by a number at most `max`: `r12`, `c200`, `o3`, `t15`.
pub(super) fn indexed(w: &str, prefix: char, max: u32, what: &str) -> R<Option<u32>> {
    let Some(digits) = w.strip_prefix(prefix) else {
        return Ok(None);
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Ok(None);
    }
    let n = number(digits)?;
    if n > max {
        return Err(format!("{what} {n} is out of range (0-{max})"));
    }
    Ok(Some(n))
}

pub(super) fn lookup<T>(found: Option<T>, what: &str, w: &str) -> R<T> {
    found.ok_or_else(|| format!("unknown {what} `{w}`"))
}

/// A mask of letters of `letters`, in order, or `_`.
pub(super) fn mask(w: &str, letters: &str) -> R<u8> {
    if w == "_" {
        return Ok(0);
    }
    let mut bits = 0u8;
    let mut next = 0;
    for c in w.chars() {
        let k = letters[next..]
            .find(c)
            .map(|k| k + next)
            .ok_or_else(|| format!("mask `{w}`: letters of `{letters}` in order"))?;
        bits |= 1 << k;
        next = k + 1;
    }
    Ok(bits)
}
