//! Checks every ISA crate's tests call: decoders and loaders never panic on mutated input,
//! and encode/decode/print/parse round trips, in the manner of yaxpeax's `*_does_not_panic`
//! targets and cranelift-assembler-x64's round-trip oracle run inside `cargo test`.
//!
//! Inputs are [`Case`]s: bytes plus where they came from. Random and mutated cases are
//! deterministic functions of a seed and an index (one ChaCha stream per case), so a test
//! covers the same inputs on every run, a campaign counts cases rather than seconds, and a
//! failure names the seed and index that reproduce it alone ([`Mutator::case`],
//! [`random_case`]).
//!
//! - [`Mutator`]: mutated copies of a corpus of valid inputs (files or code): bit flips, bytes
//!   set to edge values, truncations at interesting lengths, insertions, deletions, dwords
//!   overwritten with large values, splices of two corpus items.
//! - [`random_cases`]: random bytes of random lengths.
//! - [`never_panics`]: runs a closure on every case under `catch_unwind`; a panic (or a failed
//!   assertion inside the closure) fails the test with the case's origin and hex.
//! - [`reencodes`]: for every input that decodes, encoding the result gives the input back
//!   (the encoder may be "print then assemble").
//! - [`round_trip`]: `decode(encode(x)) == x` for every item.
//! - [`text_round_trip`]: `parse(print(x)) == x` and `print(parse(print(x))) == print(x)`.
//!
//! Every check runs all its cases, then fails once listing how many failed, the first failure
//! in full and the origins of a few more.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::any::Any;
use std::fmt::{Debug, Display, Write};
use std::ops::RangeInclusive;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// One input of a check: its bytes and where they came from (a fixture name, or the seed and
/// index that regenerate it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub bytes: Vec<u8>,
    pub origin: String,
}

impl Case {
    pub fn new(bytes: impl Into<Vec<u8>>, origin: impl Into<String>) -> Case {
        Case {
            bytes: bytes.into(),
            origin: origin.into(),
        }
    }
}

/// Cases from `(label, bytes)` pairs, e.g. a test's vectors or fixture files.
pub fn cases<L: Display, B: Into<Vec<u8>>>(
    items: impl IntoIterator<Item = (L, B)>,
) -> impl Iterator<Item = Case> {
    items
        .into_iter()
        .map(|(label, bytes)| Case::new(bytes, label.to_string()))
}

/// The values [`Mutation::EdgeByte`] sets a byte to.
pub const EDGE_BYTES: [u8; 4] = [0x00, 0xff, 0x7f, 0x80];

/// The values [`Mutation::EdgeDword`] writes over a 32-bit field: sizes, offsets and counts
/// that overflow when added, multiplied or used as an index (plus "just past the end" of the
/// input, which the mutator adds itself).
pub const EDGE_DWORDS: [u32; 10] = [
    0xffff_ffff,
    0xffff_fffc,
    0xffff_fff0,
    0x8000_0000,
    0x8000_0001,
    0x7fff_ffff,
    0x7fff_fff0,
    0x4000_0000,
    0x0100_0000,
    0x0001_0000,
];

/// One kind of change [`Mutator`] makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// Flip one bit.
    BitFlip,
    /// Set one byte to one of [`EDGE_BYTES`].
    EdgeByte,
    /// Cut the input to one of its [`truncations`].
    Truncate,
    /// Insert 1 to 8 bytes (random, edge values, or a copy of nearby bytes).
    Insert,
    /// Delete 1 to 16 bytes.
    Delete,
    /// Overwrite a dword (usually 4-aligned) with one of [`EDGE_DWORDS`], the input's length
    /// plus a little, or a random value with the top bit set.
    EdgeDword,
    /// A prefix of the input followed by a suffix of another corpus item (or of itself).
    Splice,
}

impl Mutation {
    /// Every mutation.
    pub const ALL: [Mutation; 7] = [
        Mutation::BitFlip,
        Mutation::EdgeByte,
        Mutation::Truncate,
        Mutation::Insert,
        Mutation::Delete,
        Mutation::EdgeDword,
        Mutation::Splice,
    ];
    /// The mutations that keep the length (and so the layout) of the input, which keep more
    /// mutants decodable by decoders that check structure.
    pub const IN_PLACE: [Mutation; 3] =
        [Mutation::BitFlip, Mutation::EdgeByte, Mutation::EdgeDword];
}

/// The interesting lengths to cut an input of `len` bytes to, ascending and below `len`:
/// every length up to 64, every multiple of 4 below `len`, and the last 8 lengths.
pub fn truncations(len: usize) -> Vec<usize> {
    (0..len)
        .filter(|&n| n <= 64 || n % 4 == 0 || n + 8 >= len)
        .collect()
}

/// Deterministic mutants of a corpus of valid inputs. Case `i` under seed `s` is a pure
/// function of the corpus, the settings, `s` and `i`: [`Mutator::case`] regenerates it alone.
///
/// ```
/// use wavejit_isa::testkit::{Mutation, Mutator};
/// let m = Mutator::new([vec![1u8, 2, 3, 4]], 7).with(&[Mutation::BitFlip]).steps(1..=1);
/// let c = m.case(3);
/// assert_eq!(c.bytes.len(), 4);
/// assert_eq!(c, m.cases(10).nth(3).unwrap());
/// ```
#[derive(Clone, Debug)]
pub struct Mutator {
    corpus: Vec<Vec<u8>>,
    seed: u64,
    ops: Vec<Mutation>,
    steps: RangeInclusive<usize>,
}

impl Mutator {
    /// Mutants of `corpus` (at least one item) under `seed`, with every [`Mutation`] and 1 to 4
    /// mutations per case.
    pub fn new<B: Into<Vec<u8>>>(corpus: impl IntoIterator<Item = B>, seed: u64) -> Mutator {
        let corpus: Vec<Vec<u8>> = corpus.into_iter().map(Into::into).collect();
        assert!(!corpus.is_empty(), "a mutator needs a corpus");
        Mutator {
            corpus,
            seed,
            ops: Mutation::ALL.to_vec(),
            steps: 1..=4,
        }
    }

    /// Only these mutations (drawn uniformly).
    pub fn with(mut self, ops: &[Mutation]) -> Mutator {
        assert!(!ops.is_empty());
        self.ops = ops.to_vec();
        self
    }

    /// How many mutations each case applies.
    pub fn steps(mut self, steps: RangeInclusive<usize>) -> Mutator {
        assert!(!steps.is_empty());
        self.steps = steps;
        self
    }

    /// The corpus.
    pub fn corpus(&self) -> &[Vec<u8>] {
        &self.corpus
    }

    /// Cases `0..count`.
    pub fn cases(&self, count: usize) -> impl Iterator<Item = Case> + '_ {
        (0..count).map(move |i| self.case(i))
    }

    /// Case `index`: a corpus item and the mutations applied to it, named in its origin.
    pub fn case(&self, index: usize) -> Case {
        let mut rng = case_rng(self.seed, index);
        let item = rng.gen_range(0..self.corpus.len());
        let mut data = self.corpus[item].clone();
        let mut done = Vec::new();
        for _ in 0..rng.gen_range(self.steps.clone()) {
            let op = self.ops[rng.gen_range(0..self.ops.len())];
            done.push(self.apply(&mut rng, op, &mut data));
        }
        Case {
            bytes: data,
            origin: format!(
                "mutant {index} of seed {:#x} (corpus item {item}: {})",
                self.seed,
                done.join(", ")
            ),
        }
    }

    /// Applies `op` (or the nearest applicable one, for inputs too short) and describes it.
    fn apply(&self, rng: &mut ChaCha8Rng, op: Mutation, data: &mut Vec<u8>) -> String {
        let len = data.len();
        match op {
            _ if len == 0 && !matches!(op, Mutation::Insert | Mutation::Splice) => {
                self.apply(rng, Mutation::Insert, data)
            }
            Mutation::BitFlip => {
                let (at, bit) = (rng.gen_range(0..len), rng.gen_range(0..8));
                data[at] ^= 1 << bit;
                format!("flip bit {bit} of byte {at}")
            }
            Mutation::EdgeByte => {
                let (at, v) = (rng.gen_range(0..len), pick(rng, &EDGE_BYTES));
                data[at] = v;
                format!("byte {at} = {v:#04x}")
            }
            Mutation::Truncate => {
                let lens = truncations(len);
                let n = lens[rng.gen_range(0..lens.len())];
                data.truncate(n);
                format!("truncate to {n}")
            }
            Mutation::Insert => {
                let at = rng.gen_range(0..=len);
                let n = rng.gen_range(1..=8);
                let bytes: Vec<u8> = match rng.gen_range(0..3) {
                    0 => (0..n).map(|_| rng.gen()).collect(),
                    1 => vec![pick(rng, &EDGE_BYTES); n],
                    _ => {
                        let from = at.saturating_sub(n);
                        data[from..at].to_vec()
                    }
                };
                let n = bytes.len();
                data.splice(at..at, bytes);
                format!("insert {n} bytes at {at}")
            }
            Mutation::Delete => {
                let at = rng.gen_range(0..len);
                let n = rng.gen_range(1..=16).min(len - at);
                data.drain(at..at + n);
                format!("delete {n} bytes at {at}")
            }
            Mutation::EdgeDword if len < 4 => self.apply(rng, Mutation::EdgeByte, data),
            Mutation::EdgeDword => {
                let at = if rng.gen_bool(0.8) {
                    rng.gen_range(0..len / 4) * 4
                } else {
                    rng.gen_range(0..=len - 4)
                };
                let v = match rng.gen_range(0..4) {
                    0 => len as u32 + rng.gen_range(0..16),
                    1 => rng.gen::<u32>() | 0x8000_0000,
                    _ => pick(rng, &EDGE_DWORDS),
                };
                data[at..at + 4].copy_from_slice(&v.to_le_bytes());
                format!("dword at {at} = {v:#x}")
            }
            Mutation::Splice => {
                let other = rng.gen_range(0..self.corpus.len());
                let (a, b) = (
                    rng.gen_range(0..=len),
                    rng.gen_range(0..=self.corpus[other].len()),
                );
                data.truncate(a);
                data.extend_from_slice(&self.corpus[other][b..]);
                format!("first {a} bytes, then item {other} from {b}")
            }
        }
    }
}

/// Cases `0..count` of random bytes under `seed`, with lengths drawn from `len`.
pub fn random_cases(
    seed: u64,
    count: usize,
    len: RangeInclusive<usize>,
) -> impl Iterator<Item = Case> {
    (0..count).map(move |i| random_case(seed, i, len.clone()))
}

/// Case `index` of [`random_cases`]`(seed, _, len)`, alone.
pub fn random_case(seed: u64, index: usize, len: RangeInclusive<usize>) -> Case {
    let mut rng = case_rng(seed, index);
    let n = rng.gen_range(len.clone());
    let bytes: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
    Case::new(
        bytes,
        format!("random case {index} of seed {seed:#x}, lengths {len:?}"),
    )
}

/// The generator of case `index` under `seed`: one ChaCha stream per case, so a case does not
/// depend on the ones before it.
fn case_rng(seed: u64, index: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    rng
}

fn pick<T: Copy>(rng: &mut ChaCha8Rng, from: &[T]) -> T {
    from[rng.gen_range(0..from.len())]
}

/// Runs `f` on every case under `catch_unwind`; fails, after running all of them, if any
/// panicked (including an assertion of `f`'s own), naming each failing case's origin and
/// giving the first one's hex and panic message. Returns the number of cases run.
pub fn never_panics(
    name: &str,
    inputs: impl IntoIterator<Item = Case>,
    mut f: impl FnMut(&[u8]),
) -> usize {
    let mut failures = Failures::new(name);
    for case in inputs {
        let check = || {
            f(&case.bytes);
            Ok(())
        };
        failures.run(&case.origin, check, &case.bytes);
    }
    failures.finish()
}

/// For every case that `decode` accepts, `encode` of the result gives the case's bytes back
/// (an encode error is a failure too). `encode` can be an encoder or "print, then assemble".
/// Panics in either are caught and reported like [`never_panics`]. Returns how many cases
/// decoded, for the caller to check that enough did.
pub fn reencodes<T: Debug, E1: Display, E2: Display>(
    name: &str,
    inputs: impl IntoIterator<Item = Case>,
    mut decode: impl FnMut(&[u8]) -> Result<T, E1>,
    mut encode: impl FnMut(&T) -> Result<Vec<u8>, E2>,
) -> usize {
    let mut failures = Failures::new(name);
    let mut decoded = 0;
    for case in inputs {
        failures.run(
            &case.origin,
            || {
                let Ok(value) = decode(&case.bytes) else {
                    return Ok(());
                };
                decoded += 1;
                match encode(&value) {
                    Ok(b) if b == case.bytes => Ok(()),
                    Ok(b) => Err(format!(
                        "decodes to {}\nwhich encodes to {} bytes, differing from byte {}:\n  {}",
                        clip(&format!("{value:?}")),
                        b.len(),
                        first_difference(&b, &case.bytes),
                        hex(&b)
                    )),
                    Err(e) => Err(format!(
                        "decodes to {}\nwhich does not encode: {e}",
                        clip(&format!("{value:?}"))
                    )),
                }
            },
            &case.bytes,
        );
    }
    failures.count = decoded;
    failures.finish()
}

/// `decode(encode(x)) == x` for every item (an error of either is a failure). Returns the
/// number of items.
pub fn round_trip<T: PartialEq + Debug, B: Debug, E1: Display, E2: Display>(
    name: &str,
    items: impl IntoIterator<Item = T>,
    mut encode: impl FnMut(&T) -> Result<B, E1>,
    mut decode: impl FnMut(&B) -> Result<T, E2>,
) -> usize {
    let mut failures = Failures::new(name);
    for (i, x) in items.into_iter().enumerate() {
        failures.run(
            &format!("item {i}: {}", clip(&format!("{x:?}"))),
            || {
                let b = encode(&x).map_err(|e| format!("does not encode: {e}"))?;
                match decode(&b) {
                    Ok(y) if y == x => Ok(()),
                    Ok(y) => Err(format!(
                        "encodes to {}\nwhich decodes to a different value: {}",
                        clip(&format!("{b:?}")),
                        clip(&format!("{y:?}"))
                    )),
                    Err(e) => Err(format!(
                        "encodes to {}\nwhich does not decode: {e}",
                        clip(&format!("{b:?}"))
                    )),
                }
            },
            &[],
        );
    }
    failures.finish()
}

/// `parse(print(x)) == x` and `print(parse(print(x))) == print(x)` for every item (a parse
/// error is a failure). Returns the number of items.
pub fn text_round_trip<T: PartialEq + Debug, E: Display>(
    name: &str,
    items: impl IntoIterator<Item = T>,
    mut print: impl FnMut(&T) -> String,
    mut parse: impl FnMut(&str) -> Result<T, E>,
) -> usize {
    let mut failures = Failures::new(name);
    for (i, x) in items.into_iter().enumerate() {
        failures.run(
            &format!("item {i}: {}", clip(&format!("{x:?}"))),
            || {
                let text = print(&x);
                let y = parse(&text)
                    .map_err(|e| format!("prints as\n{text}\nwhich does not parse: {e}"))?;
                if y != x {
                    return Err(format!(
                        "prints as\n{text}\nwhich parses to a different value: {}",
                        clip(&format!("{y:?}"))
                    ));
                }
                let again = print(&y);
                if again != text {
                    return Err(format!(
                        "prints as\n{text}\nwhich parses to a value that prints as\n{again}"
                    ));
                }
                Ok(())
            },
            &[],
        );
    }
    failures.finish()
}

/// Failures of one check: all are counted, the first is kept in full and a few more by origin.
struct Failures<'a> {
    name: &'a str,
    /// Cases run (or, for [`reencodes`], the number to return).
    count: usize,
    failed: usize,
    first: Option<String>,
    more: Vec<String>,
    /// Cases not run because [`STOP_AFTER`] had failed.
    skipped: usize,
}

/// Origins listed besides the first failure.
const MORE: usize = 10;

/// Failures after which a check stops running cases (each panic prints its message, and a
/// backtrace under `RUST_BACKTRACE`, to the test's output).
const STOP_AFTER: usize = 100;

impl<'a> Failures<'a> {
    fn new(name: &'a str) -> Failures<'a> {
        Failures {
            name,
            count: 0,
            failed: 0,
            first: None,
            more: Vec::new(),
            skipped: 0,
        }
    }

    /// Runs one case's check under `catch_unwind`, recording an `Err` or a panic. `bytes` is
    /// the input to show in hex (nothing if empty).
    fn run(&mut self, origin: &str, check: impl FnOnce() -> Result<(), String>, bytes: &[u8]) {
        if self.failed >= STOP_AFTER {
            self.skipped += 1;
            return;
        }
        self.count += 1;
        let why = match catch_unwind(AssertUnwindSafe(check)) {
            Ok(Ok(())) => return,
            Ok(Err(why)) => why,
            Err(payload) => format!("panicked: {}", panic_message(&*payload)),
        };
        self.failed += 1;
        if self.first.is_none() {
            let mut s = format!("{origin}\n");
            if !bytes.is_empty() {
                let _ = writeln!(s, "input ({} bytes): {}", bytes.len(), hex(bytes));
            }
            s.push_str(&why);
            self.first = Some(s);
        } else if self.more.len() < MORE {
            self.more.push(origin.to_string());
        }
    }

    /// Panics if anything failed; returns the count otherwise.
    fn finish(self) -> usize {
        if let Some(first) = self.first {
            let mut msg = format!("{}: {} case(s) fail", self.name, self.failed);
            if self.skipped > 0 {
                let _ = write!(msg, " ({} more not run)", self.skipped);
            }
            let _ = write!(msg, "; the first:\n{first}");
            if !self.more.is_empty() {
                let _ = write!(msg, "\nalso failing:\n  {}", self.more.join("\n  "));
            }
            panic!("{msg}");
        }
        self.count
    }
}

/// The message of a panic payload (`panic!` with a literal or a format string).
fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a non-string payload)".into()
    }
}

/// Bytes shown in a report at most; longer inputs are regenerated from their origin.
const HEX_MAX: usize = 4096;

/// A [`crate::RegSink`] that records every register write (uniform cells by `(file,
/// index)`, lane cells by `(file, index, lane)`), to compare two ways of starting a wave.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordingSink {
    pub uniform: std::collections::BTreeMap<(u16, u32), u32>,
    pub lane: std::collections::BTreeMap<(u16, u32, u32), u32>,
}

impl crate::RegSink for RecordingSink {
    fn set_uniform(&mut self, reg: wavejit_ir::Reg, value: u32) {
        self.uniform.insert((reg.file.0, reg.index), value);
    }

    fn set_lane(&mut self, reg: wavejit_ir::Reg, lane: u32, value: u32) {
        self.lane.insert((reg.file.0, reg.index, lane), value);
    }
}

/// Lowercase hex, no separators (what the vector files and `hex_bytes` helpers read).
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(2 * bytes.len().min(HEX_MAX) + 40);
    for b in &bytes[..bytes.len().min(HEX_MAX)] {
        let _ = write!(s, "{b:02x}");
    }
    if bytes.len() > HEX_MAX {
        let _ = write!(s, "... ({} bytes in all)", bytes.len());
    }
    s
}

fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}

/// Debug text cut to a readable size.
fn clip(s: &str) -> String {
    const MAX: usize = 2000;
    match s.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}... ({} chars in all)", &s[..at], s.chars().count()),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The message a check panics with.
    fn failure(check: impl FnOnce() -> usize) -> String {
        let payload = catch_unwind(AssertUnwindSafe(check)).expect_err("the check should fail");
        panic_message(&*payload)
    }

    fn corpus() -> Vec<Vec<u8>> {
        vec![(0..64).collect(), vec![0xaa; 40], b"\x7fELF".to_vec()]
    }

    #[test]
    fn mutants_are_deterministic_and_reproducible_alone() {
        let m = Mutator::new(corpus(), 42);
        let a: Vec<Case> = m.cases(200).collect();
        let b: Vec<Case> = Mutator::new(corpus(), 42).cases(200).collect();
        assert_eq!(a, b);
        assert_eq!(m.case(137), a[137]);
        let c: Vec<Case> = Mutator::new(corpus(), 43).cases(200).collect();
        assert_ne!(a, c);
        assert!(
            a[5].origin.contains("mutant 5 of seed 0x2a"),
            "{}",
            a[5].origin
        );
        assert_eq!(
            random_case(9, 17, 0..=12),
            random_cases(9, 30, 0..=12).nth(17).unwrap()
        );
    }

    #[test]
    fn mutants_use_every_mutation_and_differ_from_the_corpus() {
        let m = Mutator::new(corpus(), 1);
        let originals: HashSet<Vec<u8>> = corpus().into_iter().collect();
        let all: Vec<Case> = m.cases(2000).collect();
        let changed = all.iter().filter(|c| !originals.contains(&c.bytes)).count();
        assert!(changed > 1900, "{changed} of 2000 mutants changed");
        for word in [
            "flip",
            "byte",
            "truncate",
            "insert",
            "delete",
            "dword",
            "then item",
        ] {
            assert!(
                all.iter().any(|c| c.origin.contains(word)),
                "no {word:?} mutation"
            );
        }
        let lens: HashSet<usize> = all.iter().map(|c| c.bytes.len()).collect();
        assert!(
            lens.contains(&0) && lens.len() > 60,
            "{} lengths",
            lens.len()
        );
        // An edge dword shows up somewhere.
        assert!(all
            .iter()
            .any(|c| c.bytes.windows(4).any(|w| w == [0xff; 4])));
        // In-place mutations keep lengths.
        let same = Mutator::new(corpus(), 1).with(&Mutation::IN_PLACE);
        assert!(same
            .cases(500)
            .all(|c| corpus().iter().any(|x| x.len() == c.bytes.len())));
    }

    #[test]
    fn truncations_cover_small_aligned_and_last_lengths() {
        let t = truncations(200);
        assert!(t.iter().all(|&n| n < 200));
        for n in [0, 1, 63, 64, 68, 132, 192, 193, 199] {
            assert!(t.contains(&n), "{n}");
        }
        assert!(!t.contains(&65) && !t.contains(&131) && !t.contains(&191));
        assert_eq!(truncations(0), []);
    }

    #[test]
    fn a_panic_is_caught_and_reported_with_its_input_and_seed() {
        let ran = never_panics("fine", random_cases(3, 100, 0..=8), |b| {
            let _ = b.len();
        });
        assert_eq!(ran, 100);
        let msg = failure(|| {
            never_panics("parser", random_cases(3, 100, 0..=8), |b| {
                if b.len() == 5 {
                    panic!("boom at {}", b.len());
                }
            })
        });
        assert!(msg.starts_with("parser: "), "{msg}");
        assert!(
            msg.contains("boom at 5") && msg.contains("seed 0x3"),
            "{msg}"
        );
        // The first failing case's hex is in the message, and regenerates from the origin.
        let first = random_cases(3, 100, 0..=8)
            .find(|c| c.bytes.len() == 5)
            .unwrap();
        assert!(msg.contains(&hex(&first.bytes)), "{msg}");
        assert!(msg.contains(&first.origin), "{msg}");
        // Every failure is counted.
        let fives = random_cases(3, 100, 0..=8)
            .filter(|c| c.bytes.len() == 5)
            .count();
        assert!(msg.contains(&format!("{fives} case(s) fail")), "{msg}");
    }

    #[test]
    fn reencoding_reports_a_lossy_encoder() {
        let inputs = || cases([("a", vec![1u8, 2, 3]), ("b", vec![]), ("c", vec![9, 9])]);
        // Decode accepts non-empty input; encode is the identity.
        let decode = |b: &[u8]| {
            if b.is_empty() {
                Err("empty")
            } else {
                Ok(b.to_vec())
            }
        };
        let ok = reencodes("id", inputs(), decode, |v: &Vec<u8>| {
            Ok::<_, String>(v.clone())
        });
        assert_eq!(ok, 2);
        // An encoder that drops the last byte fails on both decodable inputs.
        let msg = failure(|| {
            reencodes("lossy", inputs(), decode, |v: &Vec<u8>| {
                Ok::<_, String>(v[..v.len() - 1].to_vec())
            })
        });
        assert!(msg.contains("lossy: 2 case(s) fail"), "{msg}");
        assert!(msg.contains("a\ninput (3 bytes): 010203"), "{msg}");
        assert!(
            msg.contains("encodes to 2 bytes, differing from byte 2:\n  0102"),
            "{msg}"
        );
        assert!(msg.contains("also failing:\n  c"), "{msg}");
        // A panicking encoder is reported, not propagated.
        let msg = failure(|| {
            reencodes(
                "panics",
                inputs(),
                decode,
                |_: &Vec<u8>| -> Result<Vec<u8>, String> { panic!("no encoder") },
            )
        });
        assert!(msg.contains("panicked: no encoder"), "{msg}");
    }

    #[test]
    fn round_trips_report_a_non_inverse_pair() {
        let enc = |x: &u32| Ok::<_, String>(x.to_le_bytes());
        let dec = |b: &[u8; 4]| Ok::<_, String>(u32::from_le_bytes(*b));
        assert_eq!(round_trip("u32", 0..100u32, enc, dec), 100);
        // Losing the top byte breaks values above 2^24 only.
        let lossy = |b: &[u8; 4]| Ok::<_, String>(u32::from_le_bytes(*b) & 0xff_ffff);
        let msg = failure(|| round_trip("u24", [5, 1 << 24, 7, u32::MAX], enc, lossy));
        assert!(msg.contains("u24: 2 case(s) fail"), "{msg}");
        assert!(msg.contains("item 1: 16777216"), "{msg}");
        assert!(msg.contains("different value: 0"), "{msg}");
        let msg =
            failure(|| round_trip("err", [1u32], enc, |_: &[u8; 4]| Err::<u32, _>("bad bytes")));
        assert!(msg.contains("does not decode: bad bytes"), "{msg}");
    }

    #[test]
    fn text_round_trips_report_unparsable_lossy_and_unstable_text() {
        let print = |x: &i64| x.to_string();
        let parse = |s: &str| s.parse::<i64>();
        assert_eq!(text_round_trip("i64", [-3, 0, i64::MAX], print, parse), 3);
        // A printer the parser cannot read.
        let msg = failure(|| text_round_trip("hex", [255i64], |x| format!("{x:#x}"), parse));
        assert!(
            msg.contains("prints as\n0xff\nwhich does not parse"),
            "{msg}"
        );
        // A parser that loses information.
        let msg = failure(|| text_round_trip("abs", [-4i64], print, |s| parse(s).map(i64::abs)));
        assert!(msg.contains("different value: 4"), "{msg}");
        // Equal values printing differently (-0.0 == 0.0): the second print differs.
        let msg = failure(|| {
            text_round_trip(
                "f64",
                [-0.0f64],
                |x| x.to_string(),
                |s| s.parse::<f64>().map(f64::abs),
            )
        });
        assert!(
            msg.contains("prints as\n-0\nwhich parses to a value that prints as\n0"),
            "{msg}"
        );
    }

    #[test]
    fn a_check_stops_after_many_failures() {
        let msg = failure(|| never_panics("all", random_cases(1, 500, 0..=4), |_| panic!("no")));
        assert!(
            msg.contains("all: 100 case(s) fail (400 more not run)"),
            "{msg}"
        );
    }

    #[test]
    fn hex_is_clipped_for_large_inputs() {
        assert_eq!(hex(&[0, 0xab, 7]), "00ab07");
        let big = hex(&[1; HEX_MAX + 5]);
        assert!(big.ends_with(&format!("... ({} bytes in all)", HEX_MAX + 5)));
    }
}
