//! The lexical layer: comments, labels, the mnemonic and its comma-separated operands, and
//! the spellings shared by many operand kinds (numbers, register names with their flags).

/// A line without its comment: `;`, `#` or `//` up to the end of the line (no operand that
/// applegpu prints contains them).
pub(super) fn strip_comment(line: &str) -> &str {
    let end = [";", "#", "//"]
        .iter()
        .filter_map(|m| line.find(m))
        .min()
        .unwrap_or(line.len());
    &line[..end]
}

/// A label's name: a letter, `_` or `.`, then letters, digits, `_` and `.`.
pub(super) fn is_label_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// `label: rest` split at its colon (no printed operand contains one); `None` when the line
/// has no label.
pub(super) fn split_label(line: &str) -> Option<(&str, &str)> {
    let (name, rest) = line.split_once(':')?;
    Some((name.trim(), rest))
}

/// The mnemonic and the operand texts of an instruction (the line is trimmed, not empty).
/// An empty operand (`iadd r1, , r2`, a trailing comma) is an error.
pub(super) fn split_instruction(line: &str) -> Result<(&str, Vec<&str>), String> {
    let (mnemonic, rest) = match line.split_once(char::is_whitespace) {
        Some((m, rest)) => (m, rest.trim()),
        None => (line, ""),
    };
    if rest.is_empty() {
        return Ok((mnemonic, Vec::new()));
    }
    let operands: Vec<&str> = rest.split(',').map(str::trim).collect();
    if let Some(k) = operands.iter().position(|o| o.is_empty()) {
        return Err(format!("operand {} of `{mnemonic}` is empty", k + 1));
    }
    Ok((mnemonic, operands))
}

/// An integer: decimal, `0x` hex or `0b` binary, with an optional leading `-`.
pub(super) fn int(s: &str) -> Option<i128> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    let (radix, digits) = if let Some(d) = digits.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = digits.strip_prefix("0b") {
        (2, d)
    } else {
        (10, digits)
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) || digits.len() > 40 {
        return None;
    }
    let v = i128::from_str_radix(digits, radix).ok()?;
    Some(if neg { -v } else { v })
}

/// The operand flags applegpu appends after a `.`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Flags {
    pub cache: bool,
    pub discard: bool,
    pub sx: bool,
    pub abs: bool,
    pub neg: bool,
}

impl Flags {
    fn set(&mut self, name: &str) -> bool {
        let slot = match name {
            "cache" => &mut self.cache,
            "discard" => &mut self.discard,
            "sx" => &mut self.sx,
            "abs" => &mut self.abs,
            "neg" => &mut self.neg,
            _ => return false,
        };
        *slot = true;
        true
    }

    /// An error unless only the flags `allowed` (of `cache`, `discard`, `sx`, `abs`, `neg`)
    /// are set.
    pub fn only(&self, allowed: &[&str]) -> Result<(), String> {
        let set = [
            ("cache", self.cache),
            ("discard", self.discard),
            ("sx", self.sx),
            ("abs", self.abs),
            ("neg", self.neg),
        ];
        match set.iter().find(|(n, on)| *on && !allowed.contains(n)) {
            Some((n, _)) => Err(format!("`.{n}` is not allowed here")),
            None if self.cache && self.discard => {
                Err("`.cache` and `.discard` exclude each other".into())
            }
            None => Ok(()),
        }
    }
}

/// `text` without its trailing flags (`.abs`, `.neg`, ...), and the flags.
pub(super) fn split_flags(text: &str) -> (&str, Flags) {
    let mut flags = Flags::default();
    let mut base = text;
    while let Some((head, last)) = base.rsplit_once('.') {
        if !flags.set(last) {
            break;
        }
        base = head;
    }
    (base, flags)
}

/// Which register file a name is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum File {
    /// `rN`: 128 general registers.
    R,
    /// `uN`: 256 uniform registers.
    U,
}

impl File {
    pub fn size(self) -> u32 {
        match self {
            File::R => 128,
            File::U => 256,
        }
    }

    fn letter(self) -> char {
        match self {
            File::R => 'r',
            File::U => 'u',
        }
    }
}

/// One or more consecutive registers of one file, all halves or all words: `r5l`, `r5`,
/// `r6_r7` (a pair, or two words), `r1l_r1h_r2l`, `u4_u5`, with flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Regs {
    pub file: File,
    /// Halves (`r5l`, `r5h`) rather than words.
    pub half: bool,
    /// The first register's number, in halves (`r5h` is 11) when `half`.
    pub first: u32,
    pub count: u32,
    pub flags: Flags,
}

impl Regs {
    /// A single register's number in the 8-bit (or, with the uniform ninth bit, 9-bit)
    /// encoding of a half: `2n + h`; of a word, `2n`.
    pub fn value(&self) -> u32 {
        if self.half {
            self.first
        } else {
            self.first << 1
        }
    }

    pub fn is(&self, file: File, half: bool, count: u32) -> bool {
        self.file == file && self.half == half && self.count == count
    }
}

/// `text` read as registers: `Ok(None)` when it is not register syntax at all (another
/// reading may apply), an error when it names registers wrongly (beyond the file, not
/// consecutive, mixed files or sizes). A leading `$` is the cache hint, as `.cache`.
pub(super) fn regs(text: &str) -> Result<Option<Regs>, String> {
    let (base, mut flags) = split_flags(text);
    let base = match base.strip_prefix('$') {
        Some(b) => {
            flags.cache = true;
            b
        }
        None => base,
    };
    let mut out: Option<Regs> = None;
    for (k, piece) in base.split('_').enumerate() {
        let Some((file, number, half)) = one_reg(piece) else {
            return if k == 0 {
                Ok(None)
            } else {
                Err(format!("`{piece}` in `{text}` is not a register"))
            };
        };
        let unit = match half {
            Some(h) => number * 2 + u32::from(h),
            None => number,
        };
        match &mut out {
            None => {
                if number >= file.size() {
                    return Err(format!(
                        "{} is beyond the register file ({}0-{}{})",
                        piece,
                        file.letter(),
                        file.letter(),
                        file.size() - 1
                    ));
                }
                out = Some(Regs {
                    file,
                    half: half.is_some(),
                    first: unit,
                    count: 1,
                    flags,
                });
            }
            Some(r) => {
                if r.file != file || r.half != half.is_some() {
                    return Err(format!("`{text}` mixes register files or sizes"));
                }
                if unit != r.first + r.count {
                    return Err(format!("the registers of `{text}` are not consecutive"));
                }
                r.count += 1;
            }
        }
    }
    Ok(out)
}

/// `r5`, `r5l`, `u7h`: the file, the number and the half.
fn one_reg(s: &str) -> Option<(File, u32, Option<bool>)> {
    let file = match s.as_bytes().first()? {
        b'r' => File::R,
        b'u' => File::U,
        _ => return None,
    };
    let rest = &s[1..];
    let (digits, half) = match rest.as_bytes().last()? {
        b'l' => (&rest[..rest.len() - 1], Some(false)),
        b'h' => (&rest[..rest.len() - 1], Some(true)),
        _ => (rest, None),
    };
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((file, digits.parse().ok()?, half))
}

/// `prefixN` (`ts5`, `ss3`, `cf12`, `sr80`): N.
pub(super) fn numbered(text: &str, prefix: &str) -> Option<u64> {
    let digits = text.strip_prefix(prefix)?;
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_read() {
        let r = regs("r5h.cache").unwrap().unwrap();
        assert_eq!((r.file, r.half, r.first, r.count), (File::R, true, 11, 1));
        assert!(r.flags.cache);
        let r = regs("u4_u5").unwrap().unwrap();
        assert_eq!((r.file, r.half, r.first, r.count), (File::U, false, 4, 2));
        let r = regs("$r1l_r1h_r2l.discard").unwrap().unwrap();
        assert_eq!((r.half, r.first, r.count), (true, 2, 3));
        assert!(r.flags.cache && r.flags.discard);
        assert_eq!(regs("ts5"), Ok(None));
        assert_eq!(regs("0.5"), Ok(None));
        assert!(regs("r128").is_err());
        assert!(regs("u256l").is_err());
        assert!(regs("r5_r7").is_err());
        assert!(regs("r5_u6").is_err());
        // A tuple may run past r127 (applegpu prints the pair of r127 as r127_r128).
        assert_eq!(regs("r127_r128").unwrap().unwrap().count, 2);
    }

    #[test]
    fn numbers_read() {
        assert_eq!(int("0x1F"), Some(31));
        assert_eq!(int("-0b11"), Some(-3));
        assert_eq!(int("-17"), Some(-17));
        assert_eq!(int("0x"), None);
        assert_eq!(int("1.5"), None);
        assert_eq!(split_flags("0.5.abs.neg").0, "0.5");
        assert_eq!(strip_comment("stop ; done # x // y"), "stop ");
    }
}
