//! Framing: which form an instruction is and how many bytes it takes.
//!
//! A form's length is known only once its constant bits match (the length bit's position
//! differs between forms), so [`frame`] tries the forms of [`crate::table`] in order on the
//! first twelve bytes (zeros past the end of the input) and then checks that the matched
//! length fits the input. Bytes after the instruction never change the outcome: a form
//! matches on its own bytes only.

use crate::table::{first_bytes, rows, Row};
use thiserror::Error;

/// The longest instruction.
pub const MAX_LEN: usize = 12;

/// An instruction found at the start of a byte string.
#[derive(Debug)]
pub struct Framed {
    pub row: &'static Row,
    pub len: usize,
    /// The instruction's bytes as a little-endian number (bytes past it are zero).
    pub word: u128,
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum DecodeError {
    #[error("no instruction form matches the bytes {0}")]
    Unknown(String),
    #[error("a {name} instruction takes {len} bytes; {have} remain")]
    Truncated {
        name: &'static str,
        len: usize,
        have: usize,
    },
    #[error("no bytes to decode")]
    Empty,
}

/// The instruction at the start of `bytes`.
pub fn frame(bytes: &[u8]) -> Result<Framed, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError::Empty);
    }
    let mut head = [0u8; 16];
    let n = bytes.len().min(MAX_LEN);
    head[..n].copy_from_slice(&bytes[..n]);
    let word = u128::from_le_bytes(head);
    let Some(row) = rows().iter().find(|r| r.matches(word)) else {
        let shown: String = bytes[..n.min(2)]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        return Err(DecodeError::Unknown(shown));
    };
    let len = row.length(word);
    if len > bytes.len() {
        return Err(DecodeError::Truncated {
            name: row.name,
            len,
            have: bytes.len(),
        });
    }
    Ok(Framed {
        row,
        len,
        word: first_bytes(word, len),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Arbitrary bytes frame or fail, never past the input and never with a panic.
    #[test]
    fn arbitrary_bytes_frame_or_fail() {
        let mut rng = crate::random::Rng::new(1);
        let (mut ok, mut unknown, mut truncated) = (0, 0, 0);
        for _ in 0..200_000 {
            let n = rng.below(15) as usize;
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            match frame(&bytes) {
                Ok(f) => {
                    assert!(f.len <= bytes.len() && f.len >= 2, "{bytes:02x?}");
                    assert!(f.row.matches(f.word), "{bytes:02x?}");
                    ok += 1;
                }
                Err(DecodeError::Unknown(_)) => unknown += 1,
                Err(DecodeError::Truncated { len, have, .. }) => {
                    assert!(len > have);
                    truncated += 1;
                }
                Err(DecodeError::Empty) => assert!(bytes.is_empty()),
            }
        }
        assert!(
            ok > 1000 && unknown > 100 && truncated > 100,
            "{ok} {unknown} {truncated}"
        );
    }

    #[test]
    fn empty_and_truncated_input_are_errors() {
        assert_eq!(frame(&[]).unwrap_err(), DecodeError::Empty);
        // `stop` (88 00) is 2 bytes; a 6-byte mov_imm (62 81 ...: 32-bit destination,
        // L set) cut after 4 bytes is truncated.
        assert_eq!(frame(&[0x88, 0x00]).map(|f| f.len), Ok(2));
        let e = frame(&[0x62, 0x81, 0x00, 0x00]).unwrap_err();
        assert!(
            matches!(
                e,
                DecodeError::Truncated {
                    len: 8,
                    have: 4,
                    ..
                }
            ),
            "{e:?}"
        );
    }
}
