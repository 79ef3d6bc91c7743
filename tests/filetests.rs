//! `.wir` run-tests: a `.wir` file whose comments carry `; run:` lines is run for one wave on
//! every engine (the reference interpreter, the JIT as prepared, and the JIT compiled at tier 2
//! from the start), and the final states are checked against the file's expectations and
//! against each other, bit for bit. In the manner of Cranelift's filetests `; run:` lines.
//!
//! Files: every `tests/filetests/*.wir` (each must have `; run:` lines) and every
//! `frontend/ir/tests/ir/*.wir` that has `; run:` lines (the others are syntax examples).
//!
//! # Directives
//! A directive is a whole-line comment: `;`, then a keyword with a colon. Anything after a
//! further `;` on the line is a comment. Other comments are ignored, as the `.wir` parser
//! ignores all of them, so a run-test is an ordinary `.wir` file.
//! ```text
//! ; wave: blocks=N lds=BYTES private=BYTES   block budget (default 10000), LDS size (default
//!                                            0), private bytes per lane (default 0)
//! ; buffer: NAME[WORDS] [= ROW]              a global buffer of WORDS 32-bit words (zero, or
//!                                            ROW), allocated in file order
//! ; init: REG = VALUE                        a uniform register cell's initial value
//! ; init: REG = ROW                          a lane register cell's per-lane initial values
//! ; run: REG == VALUE | ROW                  the cell's expected final value(s)
//! ; run: NAME == ROW                         a buffer's expected final words
//! ; run: REG                                 (or NAME) no value yet: filled in by blessing
//! ; run: fault [TEXT]                        the wave must fault (message contains TEXT)
//!
//! REG   := FILE '[' INDEX ']'           a 32-bit cell, named as the header's files name it:
//!                                       `function "f" wave 16 { uniform c[1], lane v[2] }`
//!                                       has c[0], v[0], v[1]
//! VALUE := 0xHEX                        raw bits
//!        | DECIMAL                      an integer, negative ones in two's complement
//!        | FLOAT                        an f32 (1.5, -0.0, 1e-45, inf, -inf, nan = 0x7fc00000),
//!                                       rounded to nearest even; any other NaN in hex
//!        | lo(NAME) | hi(NAME)          low / high half of buffer NAME's guest address
//! ROW   := '[' ITEM (',' ITEM)* ']'     one value per lane (word), ITEM := VALUE ['*' COUNT]
//!        | splat(VALUE)                 every lane (word) the same
//!        | iota | iota(START) | iota(START, STEP)   lane (word) i holds START + i * STEP
//!                                       (wrapping; defaults 0 and 1)
//! ```
//! There is no separate exec directive: exec is whatever register the function reads as its
//! mask (e.g. `%m = mask_from_bits %e` of `read exec[0] : i64`), so it is initialised with
//! `; init:` like any other cell (a 64-bit register is two cells, low half first). Registers
//! without an `; init:` start at 0.
//!
//! # What a run checks
//! One wave runs from block 0, following `jump`/`br`/`barrier` exits (the wave is alone in its
//! work-group), until `return`, a fault, or the block budget. Then, for every engine:
//! - it must have returned (or faulted, when the file has `; run: fault`); running out of the
//!   budget is a failure;
//! - every `; run:` expectation holds;
//! - its final register state, LDS, private memory and every buffer are identical, bit for bit,
//!   to the interpreter's (after a fault, only the fault itself is compared: an engine may stop
//!   anywhere inside the faulting block, so a fault file has no other `; run:` lines).
//!
//! Failures name the file and the directive's line.
//!
//! # Blessing
//! `WAVEJIT_BLESS=1 cargo test --test filetests` rewrites each file's `; run:` lines with the
//! interpreter's values (`; run: fault` lines with its fault message) and keeps every other
//! byte of the file; disagreements between engines still fail. Blessing is for writing a new
//! file; expected values of a checked-in test come from an independent source (a hand
//! derivation from the documented formulas, stated in the file), so bless, then check the
//! values against that derivation.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use wavejit_ir::{Block, FileKind, Function, Reg, StateLayout};
use wavejit_jit::{Jit, JitOptions};
use wavejit_runtime::{BlockExit, Engine, Fault, GuestMemory, Interpreter, WaveCtx, WaveState};

const DEFAULT_BLOCKS: u64 = 10_000;
const RESERVE: u64 = 1 << 24;
const BUFFER_ALIGN: u64 = 256;

// ---------------------------------------------------------------------------------------------
// Directive syntax

/// One 32-bit value of a directive.
#[derive(Clone, Debug, PartialEq)]
enum Scalar {
    Bits(u32),
    Lo(String),
    Hi(String),
}

/// The value(s) of a directive: one uniform value or a row of lanes (buffer words).
#[derive(Clone, Debug, PartialEq)]
enum Values {
    One(Scalar),
    List(Vec<(Scalar, usize)>),
    Splat(Scalar),
    Iota(u32, u32),
}

/// What an `; init:` or `; run:` line names.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Reg { file: String, index: u32 },
    Buffer(String),
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Reg { file, index } => write!(f, "{file}[{index}]"),
            Target::Buffer(n) => f.write_str(n),
        }
    }
}

#[derive(Clone, Debug)]
enum RunKind {
    Expect {
        target: Target,
        values: Option<Values>,
    },
    Fault(Option<String>),
}

#[derive(Clone, Debug)]
struct RunLine {
    line: usize,
    kind: RunKind,
    /// Byte range of the directive body in the source (after `run:`, before a trailing
    /// comment or the line end), for blessing.
    span: (usize, usize),
    has_comment: bool,
}

#[derive(Clone, Debug)]
struct BufferDecl {
    line: usize,
    name: String,
    words: usize,
    init: Option<Values>,
}

#[derive(Clone, Debug)]
struct Init {
    line: usize,
    target: Target,
    values: Values,
}

#[derive(Clone, Debug)]
struct Directives {
    blocks: u64,
    lds: usize,
    private: u32,
    buffers: Vec<BufferDecl>,
    inits: Vec<Init>,
    runs: Vec<RunLine>,
}

/// `name(inner)` -> inner.
fn call<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    s.strip_prefix(name)?
        .trim_start()
        .strip_prefix('(')?
        .strip_suffix(')')
}

fn parse_scalar(s: &str) -> Result<Scalar, String> {
    let s = s.trim();
    if let Some(n) = call(s, "lo") {
        return Ok(Scalar::Lo(n.trim().to_string()));
    }
    if let Some(n) = call(s, "hi") {
        return Ok(Scalar::Hi(n.trim().to_string()));
    }
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return u32::from_str_radix(&h.replace('_', ""), 16)
            .map(Scalar::Bits)
            .map_err(|e| format!("bad hex value `{s}`: {e}"));
    }
    if let Ok(i) = s.parse::<i64>() {
        return if (-(1i64 << 31)..(1i64 << 32)).contains(&i) {
            Ok(Scalar::Bits(i as u32))
        } else {
            Err(format!("integer `{s}` does not fit 32 bits"))
        };
    }
    let lower = s.to_ascii_lowercase();
    let floaty = lower
        .trim_start_matches(['+', '-'])
        .chars()
        .all(|c| c.is_ascii_digit() || ".e+-".contains(c))
        || matches!(
            lower.trim_start_matches(['+', '-']),
            "inf" | "infinity" | "nan"
        );
    match s.parse::<f32>() {
        Ok(f) if floaty && !s.is_empty() => Ok(Scalar::Bits(f.to_bits())),
        _ => Err(format!("bad value `{s}`")),
    }
}

fn parse_values(s: &str) -> Result<Values, String> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| format!("unclosed list `{s}`"))?;
        let mut items = Vec::new();
        for item in inner.split(',').filter(|_| !inner.trim().is_empty()) {
            let item = item.trim();
            let (v, n) = match item.rsplit_once('*') {
                Some((v, n)) => (
                    v,
                    n.trim()
                        .parse::<usize>()
                        .map_err(|e| format!("bad repeat count in `{item}`: {e}"))?,
                ),
                None => (item, 1),
            };
            items.push((parse_scalar(v)?, n));
        }
        return Ok(Values::List(items));
    }
    if let Some(inner) = call(s, "splat") {
        return Ok(Values::Splat(parse_scalar(inner)?));
    }
    if s == "iota" {
        return Ok(Values::Iota(0, 1));
    }
    if let Some(inner) = call(s, "iota") {
        let int = |t: &str| match parse_scalar(t)? {
            Scalar::Bits(b) => Ok(b),
            _ => Err(format!("iota takes numbers: `{s}`")),
        };
        return match inner.split_once(',') {
            Some((a, b)) => Ok(Values::Iota(int(a)?, int(b)?)),
            None => Ok(Values::Iota(int(inner)?, 1)),
        };
    }
    Ok(Values::One(parse_scalar(s)?))
}

fn parse_target(s: &str) -> Result<Target, String> {
    let s = s.trim();
    match s.split_once('[') {
        Some((file, rest)) => {
            let idx = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("bad register `{s}`"))?;
            let index = idx
                .trim()
                .parse::<u32>()
                .map_err(|e| format!("bad register index in `{s}`: {e}"))?;
            Ok(Target::Reg {
                file: file.trim().to_string(),
                index,
            })
        }
        None if is_name(s) => Ok(Target::Buffer(s.to_string())),
        None => Err(format!("bad register or buffer name `{s}`")),
    }
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

/// Reads the directives of a `.wir` source. Errors are `line: message`.
fn parse_directives(src: &str) -> Result<Directives, String> {
    let mut d = Directives {
        blocks: DEFAULT_BLOCKS,
        lds: 0,
        private: 0,
        buffers: Vec::new(),
        inits: Vec::new(),
        runs: Vec::new(),
    };
    let mut offset = 0;
    for (i, raw) in src.split_inclusive('\n').enumerate() {
        let line_no = i + 1;
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        let Some(after_semi) = trimmed.strip_prefix(';') else {
            continue;
        };
        let body = after_semi.trim_start();
        let Some((keyword, rest)) = body.split_once(':') else {
            continue;
        };
        if !matches!(keyword, "wave" | "buffer" | "init" | "run") {
            continue;
        }
        // The directive's text: after the colon, up to a trailing `;` comment.
        let rest_start = line_start + (line.len() - rest.len());
        let (text, has_comment) = match rest.find(';') {
            Some(p) => (&rest[..p], true),
            None => (rest, false),
        };
        let span = (rest_start, rest_start + text.len());
        let at = |e: String| format!("{line_no}: {e}");
        match keyword {
            "wave" => {
                for opt in text.split_whitespace() {
                    let (k, v) = opt
                        .split_once('=')
                        .ok_or_else(|| at(format!("bad wave option `{opt}`")))?;
                    let n = v
                        .parse::<u64>()
                        .map_err(|e| at(format!("bad number in `{opt}`: {e}")))?;
                    match k {
                        "blocks" => d.blocks = n,
                        "lds" => d.lds = n as usize,
                        "private" => d.private = u32::try_from(n).map_err(|e| at(e.to_string()))?,
                        _ => return Err(at(format!("unknown wave option `{k}`"))),
                    }
                }
            }
            "buffer" => {
                let (decl, init) = match text.split_once('=') {
                    Some((a, b)) => (a, Some(parse_values(b).map_err(at)?)),
                    None => (text, None),
                };
                let (name, words) = match parse_target(decl).map_err(at)? {
                    Target::Reg { file, index } if is_name(&file) => (file, index as usize),
                    _ => return Err(at(format!("expected NAME[WORDS], got `{}`", decl.trim()))),
                };
                if name == "fault" || d.buffers.iter().any(|b| b.name == name) {
                    return Err(at(format!("buffer name `{name}` is reserved or taken")));
                }
                d.buffers.push(BufferDecl {
                    line: line_no,
                    name,
                    words,
                    init,
                });
            }
            "init" => {
                let (t, v) = text
                    .split_once('=')
                    .ok_or_else(|| at("expected REG = VALUES".into()))?;
                let target = parse_target(t).map_err(at)?;
                if matches!(target, Target::Buffer(_)) {
                    return Err(at("initialise buffers in their `; buffer:` line".into()));
                }
                d.inits.push(Init {
                    line: line_no,
                    target,
                    values: parse_values(v).map_err(at)?,
                });
            }
            _ => {
                let t = text.trim();
                let kind = if t == "fault" || t.starts_with("fault ") {
                    let msg = t["fault".len()..].trim();
                    RunKind::Fault((!msg.is_empty()).then(|| msg.to_string()))
                } else {
                    match t.split_once("==") {
                        Some((a, b)) => RunKind::Expect {
                            target: parse_target(a).map_err(at)?,
                            values: Some(parse_values(b).map_err(at)?),
                        },
                        None => RunKind::Expect {
                            target: parse_target(t).map_err(at)?,
                            values: None,
                        },
                    }
                };
                d.runs.push(RunLine {
                    line: line_no,
                    kind,
                    span,
                    has_comment,
                });
            }
        }
    }
    let faults = d
        .runs
        .iter()
        .filter(|r| matches!(r.kind, RunKind::Fault(_)))
        .count();
    if faults > 0 && d.runs.len() > 1 {
        return Err(format!(
            "{}: a `; run: fault` file has no other `; run:` lines",
            d.runs[0].line
        ));
    }
    Ok(d)
}

/// Resolves values to cells: `len` None for one uniform cell, Some(n) for a row of n.
fn resolve(
    v: &Values,
    len: Option<usize>,
    addr: &dyn Fn(&str) -> Option<u64>,
) -> Result<Vec<u32>, String> {
    let scalar = |s: &Scalar| -> Result<u32, String> {
        match s {
            Scalar::Bits(b) => Ok(*b),
            Scalar::Lo(n) | Scalar::Hi(n) => {
                let a = addr(n).ok_or_else(|| format!("no buffer `{n}` declared before"))?;
                Ok(if matches!(s, Scalar::Lo(_)) {
                    a as u32
                } else {
                    (a >> 32) as u32
                })
            }
        }
    };
    match (v, len) {
        (Values::One(s), None) => Ok(vec![scalar(s)?]),
        (_, None) => Err("a uniform register takes one value".into()),
        (Values::One(_), Some(n)) => Err(format!(
            "a row takes {n} values: use splat(V), iota or a list"
        )),
        (Values::Splat(s), Some(n)) => Ok(vec![scalar(s)?; n]),
        (Values::Iota(a, b), Some(n)) => Ok((0..n as u32)
            .map(|i| a.wrapping_add(i.wrapping_mul(*b)))
            .collect()),
        (Values::List(items), Some(n)) => {
            let mut out = Vec::with_capacity(n);
            for (s, k) in items {
                let x = scalar(s)?;
                out.extend(std::iter::repeat_n(x, *k));
            }
            if out.len() != n {
                return Err(format!("the list has {} values, the row {n}", out.len()));
            }
            Ok(out)
        }
    }
}

fn fmt_scalar(v: u32) -> String {
    if v <= 0xffff {
        v.to_string()
    } else {
        format!("{v:#010x}")
    }
}

fn fmt_signed(v: u32) -> String {
    let s = v as i32;
    if (-0xffff..=0xffff).contains(&s) {
        s.to_string()
    } else {
        format!("{v:#010x}")
    }
}

/// The canonical written form of cells: a uniform value, or the shortest row form.
fn fmt_values(cells: &[u32], uniform: bool) -> String {
    if uniform {
        return fmt_scalar(cells[0]);
    }
    if cells.is_empty() {
        return "[]".into();
    }
    if cells.iter().all(|&c| c == cells[0]) {
        return format!("splat({})", fmt_scalar(cells[0]));
    }
    let step = cells[1].wrapping_sub(cells[0]);
    if cells.len() >= 3 && cells.windows(2).all(|w| w[1].wrapping_sub(w[0]) == step) {
        return match (cells[0], step) {
            (0, 1) => "iota".into(),
            (a, 1) => format!("iota({})", fmt_scalar(a)),
            (a, s) => format!("iota({}, {})", fmt_scalar(a), fmt_signed(s)),
        };
    }
    let mut items = Vec::new();
    let mut i = 0;
    while i < cells.len() {
        let mut j = i;
        while j < cells.len() && cells[j] == cells[i] {
            j += 1;
        }
        let n = j - i;
        if n >= 3 {
            items.push(format!("{}*{n}", fmt_scalar(cells[i])));
        } else {
            items.extend(std::iter::repeat_n(fmt_scalar(cells[i]), n));
        }
        i = j;
    }
    format!("[{}]", items.join(", "))
}

// ---------------------------------------------------------------------------------------------
// Running

enum End {
    Return { blocks: u64 },
    Fault(Fault),
    Budget,
}

struct Run {
    engine: &'static str,
    state: WaveState,
    lds: Vec<u8>,
    private: Vec<u8>,
    mem: GuestMemory,
    buffers: Vec<(String, u64, usize)>,
    end: End,
}

impl Run {
    fn buffer_words(&self, i: usize) -> Vec<u32> {
        let (_, addr, words) = &self.buffers[i];
        let mut bytes = vec![0u8; words * 4];
        self.mem
            .read_bytes(*addr, &mut bytes)
            .expect("buffer readable");
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// The cells `target` names, and whether it is one uniform cell.
    fn cells(&self, target: &Target) -> Result<(Vec<u32>, bool), String> {
        match target {
            Target::Buffer(n) => {
                let i = self
                    .buffers
                    .iter()
                    .position(|b| &b.0 == n)
                    .ok_or_else(|| format!("no buffer `{n}`"))?;
                Ok((self.buffer_words(i), false))
            }
            Target::Reg { .. } => {
                let (reg, kind) = register(&self.state.layout, target)?;
                Ok(match kind {
                    FileKind::Uniform => (vec![self.state.uniform(reg)], true),
                    FileKind::Lane => (
                        (0..self.state.wave_size())
                            .map(|l| self.state.lane(reg, l))
                            .collect(),
                        false,
                    ),
                })
            }
        }
    }
}

fn register(layout: &StateLayout, target: &Target) -> Result<(Reg, FileKind), String> {
    let Target::Reg { file, index } = target else {
        return Err(format!("`{target}` is not a register"));
    };
    let id = layout
        .file_by_name(file)
        .ok_or_else(|| format!("the function has no register file `{file}`"))?;
    let f = layout.file(id);
    if *index >= f.cells {
        return Err(format!("{target} is outside `{file}` ({} cells)", f.cells));
    }
    Ok((Reg::new(id, *index), f.kind))
}

/// The engines every file runs on; the first is the reference.
fn engines() -> Vec<(&'static str, Box<dyn Engine>)> {
    let tier2 = JitOptions {
        tier_up_after: Some(0),
        ..JitOptions::default()
    };
    vec![
        ("interp", Box::new(Interpreter)),
        (
            "jit",
            Box::new(Jit::new().expect("host supported by Cranelift")),
        ),
        (
            "jit-tier2",
            Box::new(Jit::with_options(tier2).expect("host supported by Cranelift")),
        ),
    ]
}

/// Sets up memory and state per the directives and runs one wave. Errors are `line: message`
/// (line 0: not tied to a line).
fn run_one(
    name: &'static str,
    engine: &dyn Engine,
    func: &Arc<Function>,
    d: &Directives,
) -> Result<Run, String> {
    let mut mem = GuestMemory::with_reserve(RESERVE).map_err(|e| format!("0: {e}"))?;
    let mut buffers: Vec<(String, u64, usize)> = Vec::new();
    for b in &d.buffers {
        let words = match &b.init {
            Some(v) => {
                let lookup = |n: &str| buffers.iter().find(|x| x.0 == n).map(|x| x.1);
                resolve(v, Some(b.words), &lookup).map_err(|e| format!("{}: {e}", b.line))?
            }
            None => vec![0; b.words],
        };
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let addr = mem
            .alloc_bytes(&bytes, BUFFER_ALIGN)
            .map_err(|e| format!("{}: {e}", b.line))?;
        buffers.push((b.name.clone(), addr, b.words));
    }
    let lookup = |n: &str| buffers.iter().find(|x| x.0 == n).map(|x| x.1);
    let mut state = WaveState::new(Arc::new(func.layout.clone()));
    let ws = state.wave_size();
    for init in &d.inits {
        let at = |e: String| format!("{}: {e}", init.line);
        let (reg, kind) = register(&func.layout, &init.target).map_err(at)?;
        match kind {
            FileKind::Uniform => {
                let v = resolve(&init.values, None, &lookup).map_err(at)?;
                state.set_uniform(reg, v[0]);
            }
            FileKind::Lane => {
                let v = resolve(&init.values, Some(ws as usize), &lookup).map_err(at)?;
                for (l, x) in v.into_iter().enumerate() {
                    state.set_lane(reg, l as u32, x);
                }
            }
        }
    }
    let prog = engine
        .prepare(func.clone())
        .map_err(|e| format!("0: {name}: prepare failed: {e}"))?;
    let mut lds = vec![0u8; d.lds];
    let mut private = vec![0u8; ws as usize * d.private as usize];
    let mut block = Block(0);
    let mut end = End::Budget;
    // One wave's buffer hints live across its blocks, as in a dispatch: a block run again
    // finds its accesses' buffers in them and takes the inline paths.
    let mut hints = Default::default();
    for n in 1..=d.blocks {
        let mut ctx = WaveCtx {
            state: &mut state,
            mem: &mem,
            lds: &mut lds,
            private: &mut private,
            private_lane_bytes: d.private,
            hints: &mut hints,
        };
        match prog.run_block(block, &mut ctx) {
            Ok(BlockExit::Jump(b) | BlockExit::Barrier(b)) => block = b,
            Ok(BlockExit::Return) => {
                end = End::Return { blocks: n };
                break;
            }
            Err(f) => {
                end = End::Fault(f);
                break;
            }
        }
    }
    Ok(Run {
        engine: name,
        state,
        lds,
        private,
        mem,
        buffers,
        end,
    })
}

/// Differences between two runs' final states, named by register, lane and buffer word.
fn state_diffs(a: &Run, b: &Run) -> Vec<String> {
    let mut out = Vec::new();
    let layout = &a.state.layout;
    for f in &layout.files {
        for index in 0..f.cells {
            let t = Target::Reg {
                file: f.name.clone(),
                index,
            };
            let (x, y) = (a.cells(&t).unwrap().0, b.cells(&t).unwrap().0);
            for (l, (p, q)) in x.iter().zip(&y).enumerate() {
                if p != q {
                    let lane = match f.kind {
                        FileKind::Lane => format!(" lane {l}"),
                        FileKind::Uniform => String::new(),
                    };
                    out.push(format!(
                        "{t}{lane}: {} {p:#010x}, {} {q:#010x}",
                        a.engine, b.engine
                    ));
                }
            }
        }
    }
    for i in 0..a.buffers.len() {
        let (x, y) = (a.buffer_words(i), b.buffer_words(i));
        if let Some(w) = (0..x.len()).find(|&w| x[w] != y[w]) {
            out.push(format!(
                "buffer {} word {w}: {} {:#010x}, {} {:#010x}",
                a.buffers[i].0, a.engine, x[w], b.engine, y[w]
            ));
        }
    }
    for (what, x, y) in [("lds", &a.lds, &b.lds), ("private", &a.private, &b.private)] {
        if let Some(i) = (0..x.len()).find(|&i| x[i] != y[i]) {
            out.push(format!(
                "{what} byte {i}: {} {:#04x}, {} {:#04x}",
                a.engine, x[i], b.engine, y[i]
            ));
        }
    }
    out
}

/// Checks one run against the file's `; run:` lines.
fn check_expectations(file: &str, d: &Directives, run: &Run, fails: &mut Vec<String>) {
    let first = d.runs.first().map_or(0, |r| r.line);
    let expects_fault = d.runs.iter().any(|r| matches!(r.kind, RunKind::Fault(_)));
    match &run.end {
        End::Budget => {
            fails.push(format!(
                "{file}:{first}: {} ran out of its budget of {} blocks",
                run.engine, d.blocks
            ));
            return;
        }
        End::Fault(f) if !expects_fault => {
            fails.push(format!("{file}:{first}: {} faulted: {f}", run.engine));
            return;
        }
        End::Return { blocks } if expects_fault => {
            fails.push(format!(
                "{file}:{first}: expected a fault, {} returned after {blocks} blocks",
                run.engine
            ));
            return;
        }
        _ => {}
    }
    for r in &d.runs {
        let at = format!("{file}:{}: {}", r.line, run.engine);
        match &r.kind {
            RunKind::Fault(text) => {
                if let (End::Fault(f), Some(t)) = (&run.end, text) {
                    if !f.to_string().contains(t.as_str()) {
                        fails.push(format!("{at}: fault `{f}` does not contain `{t}`"));
                    }
                }
            }
            RunKind::Expect { target, values } => {
                let Some(values) = values else {
                    fails.push(format!(
                        "{at}: `; run: {target}` has no expected value (WAVEJIT_BLESS=1 fills it in)"
                    ));
                    continue;
                };
                let (actual, uniform) = match run.cells(target) {
                    Ok(c) => c,
                    Err(e) => {
                        fails.push(format!("{at}: {e}"));
                        continue;
                    }
                };
                let lookup = |n: &str| run.buffers.iter().find(|x| x.0 == n).map(|x| x.1);
                let want = match resolve(values, (!uniform).then_some(actual.len()), &lookup) {
                    Ok(w) => w,
                    Err(e) => {
                        fails.push(format!("{at}: {target}: {e}"));
                        continue;
                    }
                };
                let bad: Vec<String> = (0..want.len())
                    .filter(|&i| want[i] != actual[i])
                    .map(|i| {
                        let lane = if uniform {
                            String::new()
                        } else if matches!(target, Target::Buffer(_)) {
                            format!(" word {i}")
                        } else {
                            format!(" lane {i}")
                        };
                        format!(
                            "{target}{lane}: expected {:#010x}, got {:#010x}",
                            want[i], actual[i]
                        )
                    })
                    .collect();
                if !bad.is_empty() {
                    fails.push(format!(
                        "{at}: {target} == {} is wrong; got {}\n    {}",
                        fmt_values(&want, uniform),
                        fmt_values(&actual, uniform),
                        bad.join("\n    ")
                    ));
                }
            }
        }
    }
}

/// The source with its `; run:` lines rewritten to the reference run's values.
fn bless(file: &str, src: &str, d: &Directives, run: &Run, fails: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(src.len());
    let mut pos = 0;
    for r in &d.runs {
        let body = match (&r.kind, &run.end) {
            (RunKind::Fault(_), End::Fault(f)) => format!("fault {f}"),
            (RunKind::Expect { target, .. }, End::Return { .. }) => match run.cells(target) {
                Ok((cells, uniform)) => format!("{target} == {}", fmt_values(&cells, uniform)),
                Err(e) => {
                    fails.push(format!("{file}:{}: {e}", r.line));
                    continue;
                }
            },
            _ => {
                fails.push(format!(
                    "{file}:{}: cannot bless: the interpreter {}",
                    r.line,
                    match &run.end {
                        End::Return { .. } => "returned".to_string(),
                        End::Fault(f) => format!("faulted: {f}"),
                        End::Budget => "ran out of its block budget".to_string(),
                    }
                ));
                continue;
            }
        };
        out.push_str(&src[pos..r.span.0]);
        out.push(' ');
        out.push_str(&body);
        if r.has_comment {
            out.push(' ');
        }
        pos = r.span.1;
    }
    out.push_str(&src[pos..]);
    out
}

/// Runs one file on every engine. Returns the failures (empty: it passed) and, when
/// blessing, the rewritten source.
fn run_file(file: &str, src: &str, blessing: bool) -> (Vec<String>, Option<String>) {
    let mut fails = Vec::new();
    let d = match parse_directives(src) {
        Ok(d) => d,
        Err(e) => return (vec![format!("{file}:{e}")], None),
    };
    if d.runs.is_empty() {
        return (vec![format!("{file}: no `; run:` lines")], None);
    }
    let func = match wavejit_ir::text::parse(src) {
        Ok(f) => Arc::new(f),
        Err(e) => return (vec![format!("{file}:{e}")], None),
    };
    if let Err(e) = wavejit_ir::verify::verify(&func) {
        return (vec![format!("{file}: verifier: {e}")], None);
    }
    let mut runs = Vec::new();
    for (name, engine) in engines() {
        match run_one(name, engine.as_ref(), &func, &d) {
            Ok(r) => runs.push(r),
            Err(e) => return (vec![format!("{file}:{e}")], None),
        }
    }
    let reference = &runs[0];
    let first = d.runs[0].line;
    for other in &runs[1..] {
        let at = format!("{file}:{first}: {} vs {}", reference.engine, other.engine);
        assert_eq!(reference.buffers, other.buffers, "{at}: buffer addresses");
        match (&reference.end, &other.end) {
            (End::Return { blocks: a }, End::Return { blocks: b }) => {
                if a != b {
                    fails.push(format!("{at}: returned after {a} vs {b} blocks"));
                }
                let diffs = state_diffs(reference, other);
                if !diffs.is_empty() {
                    let n = diffs.len();
                    let shown: Vec<&String> = diffs.iter().take(16).collect();
                    fails.push(format!(
                        "{at}: {n} final state differences\n    {}",
                        shown
                            .iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join("\n    ")
                    ));
                }
            }
            (End::Fault(a), End::Fault(b)) => {
                if a != b {
                    fails.push(format!("{at}: faults differ: `{a}` vs `{b}`"));
                }
            }
            (End::Budget, End::Budget) => {}
            _ => fails.push(format!("{at}: the runs ended differently")),
        }
    }
    if blessing {
        let new = bless(file, src, &d, reference, &mut fails);
        return (fails, Some(new));
    }
    for run in &runs {
        check_expectations(file, &d, run, &mut fails);
    }
    (fails, None)
}

// ---------------------------------------------------------------------------------------------
// Tests

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn wir_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "wir"))
        .collect();
    v.sort();
    v
}

fn has_run_lines(src: &str) -> bool {
    match parse_directives(src) {
        Ok(d) => !d.runs.is_empty(),
        Err(_) => true, // reported by the run
    }
}

#[test]
fn wir_run_tests() {
    let blessing = std::env::var("WAVEJIT_BLESS").is_ok_and(|v| v == "1");
    let own = wir_files(&root().join("tests/filetests"));
    assert!(own.len() >= 6, "run-test files missing: {own:?}");
    let mut files: Vec<(PathBuf, bool)> = own.into_iter().map(|p| (p, true)).collect();
    files.extend(
        wir_files(&root().join("frontend/ir/tests/ir"))
            .into_iter()
            .map(|p| (p, false)),
    );
    let mut fails = Vec::new();
    let mut ran = 0;
    for (path, required) in files {
        let name = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        if !required && !has_run_lines(&src) {
            continue;
        }
        ran += 1;
        let (f, new) = run_file(&name, &src, blessing);
        fails.extend(f);
        if let Some(new) = new.filter(|n| *n != src) {
            std::fs::write(&path, new).unwrap_or_else(|e| panic!("{name}: {e}"));
            eprintln!("blessed {name}");
        }
    }
    assert!(ran >= 7, "only {ran} run-test files");
    assert!(
        fails.is_empty(),
        "{} failure(s):\n{}",
        fails.len(),
        fails.join("\n")
    );
}

/// A tiny function: v[0] = lane + c[0]; c[1] = c[0] * 2.
const TINY: &str = "\
; run-test of the harness itself
function \"tiny\" wave 8 { uniform c[2], lane v[1] }
; init: c[0] = 5
block0:
  %0 = lane_id : lane i32
  %1 = read c[0] : i32
  %2 = iadd %0, %1 : lane i32
  write v[0], %2
  %4 = const 2 : i32
  %5 = imul %1, %4 : i32
  write c[1], %5
  return
";

#[test]
fn a_right_expectation_passes() {
    let src = format!("{TINY}; run: v[0] == iota(5)\n; run: c[1] == 10\n");
    let (fails, new) = run_file("tiny.wir", &src, false);
    assert_eq!(fails, Vec::<String>::new());
    assert_eq!(new, None);
}

#[test]
fn a_wrong_expectation_fails_and_names_file_and_line() {
    // Line 13 expects lane 3 to hold 9 (it holds 8); line 14 a wrong uniform value.
    let src = format!("{TINY}; run: v[0] == [5, 6, 7, 9, 9, 10, 11, 12]\n; run: c[1] == 11\n");
    let (fails, _) = run_file("tiny.wir", &src, false);
    // Two wrong lines, on each of the three engines.
    assert_eq!(fails.len(), 6, "{fails:#?}");
    assert!(
        fails[0].starts_with("tiny.wir:13: interp: v[0] =="),
        "{}",
        fails[0]
    );
    assert!(fails[0].contains("v[0] lane 3: expected 0x00000009, got 0x00000008"));
    assert!(!fails[0].contains("lane 4"), "{}", fails[0]);
    assert!(
        fails[1].starts_with("tiny.wir:14: interp: c[1] =="),
        "{}",
        fails[1]
    );
    assert!(fails.iter().any(|f| f.starts_with("tiny.wir:13: jit:")));
    assert!(fails
        .iter()
        .any(|f| f.starts_with("tiny.wir:14: jit-tier2:")));
}

#[test]
fn bad_directives_fail() {
    for (extra, want) in [
        ("; run: v[0] == splat(1, 2)\n", "bad value"),
        ("; run: v[0] == 5\n", "a row takes 8 values"),
        (
            "; run: v[0] == [1, 2]\n",
            "the list has 2 values, the row 8",
        ),
        ("; run: v[1] == splat(0)\n", "outside `v`"),
        ("; run: x[0] == 0\n", "no register file `x`"),
        (
            "; run: c[0] == splat(5)\n",
            "a uniform register takes one value",
        ),
        ("; run: v[0]\n", "has no expected value"),
        ("; run: buf == splat(0)\n", "no buffer `buf`"),
        ("; wave: fuel=3\n; run: c[0] == 5\n", "unknown wave option"),
    ] {
        let (fails, _) = run_file("bad.wir", &format!("{TINY}{extra}"), false);
        assert!(
            !fails.is_empty() && fails.iter().all(|f| f.starts_with("bad.wir:")),
            "{extra}: {fails:?}"
        );
        assert!(fails[0].contains(want), "{extra}: {fails:?}");
    }
    let (fails, _) = run_file("none.wir", TINY, false);
    assert_eq!(fails, ["none.wir: no `; run:` lines"]);
}

#[test]
fn faults_and_budgets_are_checked() {
    let trap = "function \"t\" wave 4 { uniform c[1] }\nblock0:\n  trap \"boom\"\n";
    let (fails, _) = run_file("t.wir", &format!("{trap}; run: c[0] == 0\n"), false);
    assert!(
        fails.len() == 3 && fails[0].contains("interp faulted: boom"),
        "{fails:?}"
    );
    let (fails, _) = run_file("t.wir", &format!("{trap}; run: fault boom\n"), false);
    assert!(fails.is_empty(), "{fails:?}");
    let (fails, _) = run_file("t.wir", &format!("{trap}; run: fault bang\n"), false);
    assert!(
        fails.len() == 3 && fails[0].contains("does not contain `bang`"),
        "{fails:?}"
    );
    let (fails, _) = run_file("t.wir", &format!("{TINY}; run: fault\n"), false);
    assert!(
        fails.len() == 3 && fails[0].contains("expected a fault"),
        "{fails:?}"
    );
    let spin = "function \"s\" wave 4 { uniform c[1] }\nblock0:\n  jump block0\n";
    let (fails, _) = run_file(
        "s.wir",
        &format!("; wave: blocks=50\n{spin}; run: c[0] == 0\n"),
        false,
    );
    assert!(
        fails.len() == 3 && fails[0].contains("budget of 50 blocks"),
        "{fails:?}"
    );
}

#[test]
fn bless_rewrites_only_run_lines() {
    let src = format!(
        "{TINY}; run: v[0]\r\n  ;run: c[1] == 999 ; keep this comment\n; run: c[0] == 5\n; trailing\n"
    );
    let (fails, new) = run_file("tiny.wir", &src, true);
    assert_eq!(fails, Vec::<String>::new());
    let want = format!(
        "{TINY}; run: v[0] == iota(5)\r\n  ;run: c[1] == 10 ; keep this comment\n; run: c[0] == 5\n; trailing\n"
    );
    assert_eq!(new.as_deref(), Some(want.as_str()));
    let (fails, _) = run_file("tiny.wir", &want, false);
    assert_eq!(fails, Vec::<String>::new());
    // A fault line takes the fault's message.
    let trap = "function \"t\" wave 4 { uniform c[1] }\nblock0:\n  trap \"boom\"\n; run: fault\n";
    let (fails, new) = run_file("t.wir", trap, true);
    assert_eq!(fails, Vec::<String>::new());
    assert!(new.unwrap().ends_with("; run: fault boom at pc 0x0\n"));
}

#[test]
fn values_parse_and_print() {
    let none = |_: &str| None;
    let row = |s: &str, n| resolve(&parse_values(s).unwrap(), Some(n), &none).unwrap();
    assert_eq!(row("iota", 4), [0, 1, 2, 3]);
    assert_eq!(row("iota(10, -2)", 3), [10, 8, 6]);
    assert_eq!(row("splat(-1)", 2), [u32::MAX; 2]);
    assert_eq!(
        row("[1.5, -0.0*2, 0x7fc00001]", 4),
        [0x3fc0_0000, 0x8000_0000, 0x8000_0000, 0x7fc0_0001]
    );
    assert_eq!(
        row("[inf, -inf, nan, 1e-45]", 4),
        [0x7f80_0000, 0xff80_0000, 0x7fc0_0000, 1]
    );
    assert_eq!(parse_scalar("4294967295"), Ok(Scalar::Bits(u32::MAX)));
    assert!(parse_scalar("4294967296").is_err());
    assert!(parse_scalar("abc").is_err());
    assert_eq!(fmt_values(&[7, 7, 7, 7], false), "splat(7)");
    assert_eq!(fmt_values(&[3, 4, 5, 6], false), "iota(3)");
    assert_eq!(fmt_values(&[10, 8, 6, 4], false), "iota(10, -2)");
    assert_eq!(
        fmt_values(&[1, 9, 9, 9, 2, 0x8000_0000], false),
        "[1, 9*3, 2, 0x80000000]"
    );
    for cells in [
        [0u32, 1, 0, 1],
        [5, 0xffff_ffff, 0, 0],
        [0, 0, 0, 1],
        [2, 4, 6, 8],
    ] {
        assert_eq!(row(&fmt_values(&cells, false), 4), cells);
    }
}
