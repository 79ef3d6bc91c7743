//! Splits text into tokens, each with its 1-based line and column (in characters).
//! Comments (`;` to the end of the line) and blanks other than newlines are dropped; newlines
//! are tokens because the grammar is line-oriented.

use super::ParseError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// `[A-Za-z_][A-Za-z0-9_.]*`: keywords, dotted op names (`fmin.ieee.flush`), file names,
    /// block names (`block3`).
    Word(String),
    /// `%N`.
    Value(u32),
    /// A number as written: `-`? then `0x` hex digits, or decimal digits with an optional
    /// fraction and exponent. Interpreted by the parser, which knows the expected type.
    Num(String),
    /// A double-quoted string, unescaped.
    Str(String),
    /// One of `= , : [ ] { } + @`.
    Punct(char),
    Newline,
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    pub line: u32,
    pub col: u32,
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: u32,
    col: u32,
}

impl Lexer<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }

    fn take_while(&mut self, s: &mut String, pred: impl Fn(char) -> bool) {
        while let Some(c) = self.peek().filter(|&c| pred(c)) {
            s.push(c);
            self.bump();
        }
    }

    fn error(&self, line: u32, col: u32, msg: impl Into<String>) -> ParseError {
        ParseError {
            line,
            col,
            msg: msg.into(),
        }
    }

    fn number(&mut self, line: u32, col: u32) -> Result<Tok, ParseError> {
        let mut s = String::new();
        if self.peek() == Some('-') {
            s.push('-');
            self.bump();
        }
        self.take_while(&mut s, |c| c.is_ascii_digit());
        let digits = s.trim_start_matches('-').len();
        if digits == 1 && s.ends_with('0') && matches!(self.peek(), Some('x' | 'X')) {
            s.push('x');
            self.bump();
            self.take_while(&mut s, |c| c.is_ascii_hexdigit());
            if s.ends_with('x') {
                return Err(self.error(line, col, "hex number without digits"));
            }
        } else {
            if digits == 0 {
                return Err(self.error(line, col, "`-` must start a number"));
            }
            if self.peek() == Some('.') {
                s.push('.');
                self.bump();
                self.take_while(&mut s, |c| c.is_ascii_digit());
            }
            if matches!(self.peek(), Some('e' | 'E')) {
                s.push('e');
                self.bump();
                if let Some(sign @ ('+' | '-')) = self.peek() {
                    s.push(sign);
                    self.bump();
                }
                let before = s.len();
                self.take_while(&mut s, |c| c.is_ascii_digit());
                if s.len() == before {
                    return Err(self.error(line, col, "exponent without digits"));
                }
            }
        }
        if self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(self.error(self.line, self.col, "unexpected character in number"));
        }
        Ok(Tok::Num(s))
    }

    /// The body of a string after its opening quote. Escapes are those Rust's `{:?}` writes:
    /// `\\ \" \' \n \r \t \0 \u{HEX}`.
    fn string(&mut self, line: u32, col: u32) -> Result<Tok, ParseError> {
        let mut s = String::new();
        loop {
            let (el, ec) = (self.line, self.col);
            match self.bump() {
                None | Some('\n') => return Err(self.error(line, col, "unterminated string")),
                Some('"') => return Ok(Tok::Str(s)),
                Some('\\') => {
                    let c = match self.bump() {
                        Some('\\') => '\\',
                        Some('"') => '"',
                        Some('\'') => '\'',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('0') => '\0',
                        Some('u') => self.unicode_escape(el, ec)?,
                        _ => return Err(self.error(el, ec, "unknown escape in string")),
                    };
                    s.push(c);
                }
                Some(c) => s.push(c),
            }
        }
    }

    fn unicode_escape(&mut self, line: u32, col: u32) -> Result<char, ParseError> {
        let bad = |lx: &Self| lx.error(line, col, "malformed \\u{...} escape");
        if self.bump() != Some('{') {
            return Err(bad(self));
        }
        let mut hex = String::new();
        self.take_while(&mut hex, |c| c.is_ascii_hexdigit());
        if self.bump() != Some('}') || hex.is_empty() || hex.len() > 6 {
            return Err(bad(self));
        }
        u32::from_str_radix(&hex, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| bad(self))
    }

    fn next_token(&mut self) -> Result<Token, ParseError> {
        loop {
            match self.peek() {
                Some(' ' | '\t' | '\r') => {
                    self.bump();
                }
                Some(';') => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                _ => break,
            }
        }
        let (line, col) = (self.line, self.col);
        let tok = match self.peek() {
            None => Tok::Eof,
            Some('\n') => {
                self.bump();
                Tok::Newline
            }
            Some(c) if c.is_ascii_alphabetic() || c == '_' => {
                let mut s = String::new();
                self.take_while(&mut s, |c| {
                    c.is_ascii_alphanumeric() || c == '_' || c == '.'
                });
                Tok::Word(s)
            }
            Some(c) if c.is_ascii_digit() || c == '-' => self.number(line, col)?,
            Some('%') => {
                self.bump();
                let mut s = String::new();
                self.take_while(&mut s, |c| c.is_ascii_digit());
                if s.is_empty() {
                    return Err(self.error(line, col, "`%` must be followed by a value number"));
                }
                let n = s
                    .parse()
                    .map_err(|_| self.error(line, col, "value number too large"))?;
                Tok::Value(n)
            }
            Some('"') => {
                self.bump();
                self.string(line, col)?
            }
            Some(c @ ('=' | ',' | ':' | '[' | ']' | '{' | '}' | '+' | '@')) => {
                self.bump();
                Tok::Punct(c)
            }
            Some(c) => return Err(self.error(line, col, format!("unexpected character {c:?}"))),
        };
        Ok(Token { tok, line, col })
    }
}

/// The tokens of `src`, ending with [`Tok::Eof`].
pub fn tokenize(src: &str) -> Result<Vec<Token>, ParseError> {
    let mut lx = Lexer {
        chars: src.chars().peekable(),
        line: 1,
        col: 1,
    };
    let mut out = Vec::new();
    loop {
        let t = lx.next_token()?;
        let end = t.tok == Tok::Eof;
        out.push(t);
        if end {
            return Ok(out);
        }
    }
}
