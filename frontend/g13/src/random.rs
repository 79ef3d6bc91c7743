//! Seeded random G13 programs and starting states, for differential fuzzing (interpreter vs
//! JIT) and the lifter's own tests.
//!
//! A program is a tree of [`Item`]s written out as an applegpu-syntax listing (which
//! [`crate::asm::assemble`] takes back) in the shapes Mesa compiles compute shaders to
//! (notes/g13_sources.md §4):
//! - ALU instructions of every compute form the lifter takes, with random operands: halves,
//!   words and pairs, uniforms, immediates (float immediates as minifloats), `.sx`, `.abs`,
//!   `.neg`, `.sat`, the cache and discard hints, every condition;
//! - `if` regions (`if_icmp`/`if_fcmp` with a random compare, an optional `else_*cmp`,
//!   `pop_exec 1`) with a forward `jmp_exec_none` over an inactive body;
//! - loops as Mesa emits them: `push_exec 2`, the body, a `while_icmp` on a per-thread trip
//!   counter, `jmp_exec_any` back, `pop_exec 2`; breaks inside them as `mov_imm r0l, k`
//!   followed by `pop_exec 0`;
//! - SIMD-group operations (ballots, shuffles, reductions) and memory instructions: device
//!   loads and stores of every raw format, mask and shift, atomics, threadgroup loads, stores
//!   and atomics, at indices near and past the ends of the buffers.
//!
//! Registers: r0 is the exec-stack counter and r1 the link register, neither written by
//! random instructions; r2-r5 hold lane patterns ([`PATTERNS`]) that memory instructions use
//! as indices; r6 and r7 count loop trips; r8-r31 are the random instructions' registers.
//! u0_u1 holds the device buffer's middle address, u2-u15 random values. Every loop runs at
//! most [`MAX_TRIPS`] times, so a program ends within its fuel.

use crate::asm;
use crate::operand::enums::{FCONDITIONS, ICONDITIONS};
use crate::operand::minifloat;
use crate::table::{rows, Row};
use wavejit_isa::shrink::{reduce_structured, Structured};

/// Device buffer bytes (u0_u1 points at its middle).
pub const BUFFER_BYTES: u32 = 4096;
/// Threadgroup memory bytes of a random wave.
pub const THREADGROUP_BYTES: u32 = 2048;
/// The most trips a generated loop makes.
pub const MAX_TRIPS: u32 = 4;
/// The lane-pattern registers r2-r5: lane, lane × 4 - 64, lane & 7, 31 - lane.
pub const PATTERNS: [u16; 4] = [2, 3, 4, 5];
/// The first and last register random instructions use.
const FIRST: u16 = 8;
const LAST: u16 = 31;

/// A small deterministic generator (xorshift64*), so programs depend on the seed alone.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// What the generator emits.
#[derive(Clone, Debug, Default)]
pub struct GenOptions {
    /// Mostly memory instructions.
    pub memory_focus: bool,
}

/// One element of a program.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// One instruction line.
    Inst(String),
    /// `if (cmp) { then } [else { otherwise }]`: the compare's instruction (an `if_*cmp`
    /// line with nest 1), whether a `jmp_exec_none` skips the body.
    If {
        cmp: String,
        then: Vec<Item>,
        otherwise: Option<Vec<Item>>,
        skip: bool,
    },
    /// A loop counting `counter` (r6 or r7) down from its start value.
    Loop {
        counter: u16,
        start: String,
        body: Vec<Item>,
    },
    /// A break out of the innermost loop, taken by the lanes where the compare holds.
    Break { cmp: String },
}

/// A random program.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomProgram {
    pub items: Vec<Item>,
}

/// The compute ALU forms random instructions are drawn from.
const ALU_FORMS: &[&str] = &[
    "mov_imm",
    "get_sr",
    "iadd",
    "imadd",
    "bfi",
    "bfeil",
    "extr",
    "shlhi",
    "shrhi",
    "asr",
    "asrh",
    "bitop",
    "popcount",
    "bitrev",
    "ffs",
    "intl",
    "icmpsel",
    "fcmpsel",
    "fadd32",
    "fmul32",
    "fmadd32",
    "fadd16",
    "fmul16",
    "fmadd16",
    "floor",
    "ceil",
    "trunc",
    "rint",
    "rcp",
    "rsqrt",
    "rsqrt_special",
    "log2",
    "exp2",
    "sin_pt_1",
    "sin_pt_2",
    "convert",
];
/// Cross-lane forms.
const SIMD_FORMS: &[&str] = &[
    "icmp_ballot",
    "fcmp_ballot",
    "icmp_quad_ballot",
    "fcmp_quad_ballot",
    "simd_shuffle",
    "simd_shuffle_down",
    "simd_shuffle_up",
    "simd_shuffle_xor",
    "simd_shuffle_rotate_up",
    "quad_shuffle",
    "quad_shuffle_down",
    "quad_shuffle_up",
    "quad_shuffle_xor",
    "quad_shuffle_rotate_up",
    "simd_iadd",
    "simd_and",
    "simd_or",
    "simd_xor",
    "simd_fadd",
    "simd_fmul",
    "simd_min.u",
    "simd_max.s",
    "simd_min.f",
    "simd_max.f",
    "simd_prefix_iadd",
    "simd_prefix_fadd",
    "simd_prefix_xor",
    "simd_prefix_max.u",
    "quad_iadd",
    "quad_fadd",
    "quad_prefix_iadd",
    "quad_min.s",
    "quad_max.f",
];
/// The special registers of a compute dispatch.
const SPECIAL: &[u32] = &[
    0, 1, 2, 4, 5, 6, 8, 9, 10, 20, 48, 49, 50, 51, 52, 53, 56, 58, 63, 80, 81, 82,
];

fn form(name: &str) -> Option<&'static Row> {
    rows().iter().find(|r| r.name == name)
}

/// A register operand's text: `rNl`/`rNh`, `rN` or `rN_rN+1` from the random pool.
fn gpr(rng: &mut Rng, bits: u32, pool: (u16, u16)) -> String {
    let n = pool.0 + rng.below(u64::from(pool.1 - pool.0 + 1)) as u16;
    match bits {
        16 => format!("r{n}{}", if rng.chance(50) { 'h' } else { 'l' }),
        64 => format!("r{n}_r{}", n + 1),
        _ => format!("r{n}"),
    }
}

/// A hint suffix for a source register.
fn hint(rng: &mut Rng) -> &'static str {
    match rng.below(8) {
        0 => ".cache",
        1 => ".discard",
        _ => "",
    }
}

/// Widths an operand kind takes: (16, 32, 64 allowed).
fn widths(kind: &str) -> &'static [u32] {
    match kind {
        "ALUDst64" | "ALUSrc64" | "AddSrc" => &[16, 32, 64],
        "ALUDst16" | "ALUSrc16" | "FloatSrc16" | "FloatDst16" => &[16],
        _ => &[16, 32],
    }
}

/// A random source of `kind`; `width` is the destination's (select operands follow it).
fn source(rng: &mut Rng, kind: &str, width: u32) -> String {
    let float = kind.starts_with("Float");
    let mut s = match rng.below(10) {
        0 | 1 => {
            if float {
                let v = minifloat(rng.below(256) as u8);
                let text = if v == 0.0 && v.is_sign_negative() {
                    "-0.0".to_string()
                } else {
                    format!("{v:?}")
                };
                return modifiers(rng, text, kind);
            }
            return (rng.below(256)).to_string();
        }
        2 if kind != "CmpselSrc" || width == 32 => {
            let n = 2 + rng.below(14);
            if kind == "CmpselSrc" || rng.chance(50) && !widths(kind).contains(&16) {
                format!("u{n}")
            } else if rng.chance(50) {
                format!("u{n}{}", if rng.chance(50) { 'h' } else { 'l' })
            } else {
                format!("u{n}")
            }
        }
        3 if kind != "CmpselSrc" => {
            let bits = *rng.pick(widths(kind));
            gpr(rng, bits, (PATTERNS[0], PATTERNS[3]))
        }
        _ => {
            let bits = if kind == "CmpselSrc" {
                width
            } else {
                *rng.pick(widths(kind))
            };
            gpr(rng, bits, (FIRST, LAST))
        }
    };
    if kind == "CmpselSrc" && s.starts_with('u') && width == 16 {
        s.push(if rng.chance(50) { 'h' } else { 'l' });
    }
    if s.starts_with('r') {
        s.push_str(hint(rng));
    }
    modifiers(rng, s, kind)
}

fn modifiers(rng: &mut Rng, mut s: String, kind: &str) -> String {
    if matches!(kind, "MulSrc" | "AddSrc") && !s.as_bytes()[0].is_ascii_digit() && rng.chance(30) {
        s.push_str(".sx");
    }
    if kind.starts_with("FloatSrc") {
        if rng.chance(20) {
            s.push_str(".abs");
        }
        if rng.chance(20) {
            s.push_str(".neg");
        }
    }
    s
}

/// One random ALU or SIMD instruction line of form `name`.
fn alu_line(rng: &mut Rng, name: &str) -> Option<String> {
    let row = form(name)?;
    let mut mnemonic = name.to_string();
    let mut ops = Vec::new();
    let mut width = 32;
    for op in row.operands {
        let text = match op.kind {
            "ALUDst" | "ALUDst64" | "FloatDst" | "FloatDst16" => {
                width = *rng.pick(widths(op.kind));
                if name.ends_with("_ballot") || name == "get_sr" {
                    width = 32;
                }
                gpr(rng, width, (FIRST, LAST))
            }
            "ICondition" => rng.pick(ICONDITIONS).1.to_string(),
            "FCondition" => rng.pick(FCONDITIONS).1.to_string(),
            "Immediate" if op.name == "imm16" => rng.below(1 << 16).to_string(),
            "Immediate" if op.name == "imm32" => (rng.next_u64() as u32).to_string(),
            "Binary" => "0b0".into(),
            "Shift" => match rng.below(6) {
                0 => continue,
                s => format!("lsl {s}"),
            },
            "Mask" => match rng.below(3) {
                0 => continue,
                _ => format!("mask {:#x}", (1u64 << (1 + rng.below(31))) - 1),
            },
            "TruthTable" => format!("0b{:04b}", rng.below(16)),
            "SReg32" => format!("sr{}", rng.pick(SPECIAL)),
            "Enum" if op.name == "mode" => rng
                .pick(&["0", "1", "4", "5", "6", "7", "8", "9", "10", "11"])
                .to_string(),
            "Enum" if op.name == "round" => rng.below(2).to_string(),
            _ => source(rng, op.kind, width),
        };
        ops.push(text);
    }
    if row.fields.iter().any(|f| f.name == "S")
        && rng.chance(20)
        && !matches!(name, "iadd" | "imadd")
    {
        mnemonic.push_str(".sat");
    }
    if matches!(name, "iadd" | "imadd") {
        if rng.chance(20) {
            mnemonic = if name == "iadd" { "isub" } else { "imsub" }.into();
        }
        if rng.chance(15) {
            mnemonic.push_str(".sat");
        }
    }
    Some(format!("{mnemonic} {}", ops.join(", ")))
}

/// A random memory instruction line.
fn memory_line(rng: &mut Rng) -> String {
    const FORMATS: &[(&str, u32)] = &[
        ("i8", 8),
        ("i16", 16),
        ("i32", 32),
        ("f16", 16),
        ("u8norm", 8),
        ("s8norm", 8),
        ("u16norm", 16),
        ("s16norm", 16),
        ("srgba8", 8),
        ("rgb10a2", 8),
        ("rg11b10f", 8),
        ("rgb9e5", 8),
        ("rg11b10f.rtz", 8),
        ("rgb9e5.rtz", 8),
    ];
    const MASKS: &[&str] = &["x", "xy", "xyz", "xyzw", "y", "xz", "zw", "yw"];
    let (format, bits) = *rng.pick(FORMATS);
    let mask = *rng.pick(MASKS);
    let count = mask.len() as u16;
    let halves = bits < 32 && rng.chance(50);
    let first = FIRST + rng.below(u64::from(LAST - FIRST - 4)) as u16;
    let regs: Vec<String> = (0..count)
        .map(|i| {
            if halves {
                let h = first * 2 + i;
                format!("r{}{}", h / 2, if h % 2 == 1 { 'h' } else { 'l' })
            } else {
                format!("r{}", first + i)
            }
        })
        .collect();
    let data = regs.join("_");
    // r3 (lane × 4 - 64) is negative in half the lanes: read unsigned, or scaled far, it
    // reaches past the buffer; the other patterns mostly stay inside.
    let pattern = if rng.chance(25) {
        format!("r{}", PATTERNS[1])
    } else {
        format!("r{}", rng.pick(&[PATTERNS[0], PATTERNS[2], PATTERNS[3]]))
    };
    let index = if rng.chance(60) {
        pattern.clone()
    } else {
        (rng.below(160) as i64 - 80).to_string()
    };
    match rng.below(6) {
        0 | 1 => {
            let ou = if rng.chance(50) { "signed" } else { "unsigned" };
            let shift = match rng.below(3) {
                0 => String::new(),
                s => format!(", lsl {s}"),
            };
            if rng.chance(50) {
                format!("device_load 0, {format}, {mask}, {data}, u0_u1, {index}, {ou}{shift}")
            } else {
                format!("device_store 0, {format}, {mask}, {data}, u0_u1, {index}, {ou}{shift}, 0")
            }
        }
        2 | 3 => {
            let op = if rng.chance(50) {
                "threadgroup_load"
            } else {
                "threadgroup_store"
            };
            // Threadgroup bases and indices are 16 bits: the small patterns (lane, lane & 7,
            // 31 - lane) stay mostly inside the memory, r3's low half (lane × 4 - 64) mostly
            // past it.
            let small = |rng: &mut Rng| *rng.pick(&[PATTERNS[0], PATTERNS[2], PATTERNS[3]]);
            let base = if rng.chance(50) {
                "0".to_string()
            } else {
                format!("r{}l", small(rng))
            };
            let index = match rng.below(10) {
                0 => format!("r{}l", PATTERNS[1]),
                1..=5 => format!("r{}l", small(rng)),
                _ => rng.below(64).to_string(),
            };
            format!("{op} {format}, {mask}, {data}, {base}, {index}")
        }
        4 => {
            let op = rng.pick(&[
                "add", "sub", "xchg", "cmpxchg", "umin", "imin", "umax", "imax", "and", "or", "xor",
            ]);
            let src = if *op == "cmpxchg" {
                let n = FIRST + rng.below(u64::from(LAST - FIRST)) as u16;
                format!("r{n}_r{}", n + 1)
            } else {
                gpr(rng, 32, (FIRST, LAST))
            };
            let dst = if rng.chance(70) {
                gpr(rng, 32, (FIRST, LAST))
            } else {
                "None".into()
            };
            format!("atomic {op}, 0, {dst}, u0_u1, {pattern}, unsigned, {src}, 0, 0, 0, 0, 0")
        }
        _ => {
            let op = rng.pick(&["add", "sub", "xchg", "umin", "imax", "and", "or", "xor"]);
            let src = gpr(rng, 32, (FIRST, LAST));
            let dst = if rng.chance(70) {
                gpr(rng, 32, (FIRST, LAST))
            } else {
                "None".into()
            };
            format!("threadgroup_atomic {op}, {dst}, 0, {pattern}l, {src}, 0, 0, 0, 0")
        }
    }
}

/// A random compare for a control-flow instruction (`if_icmp r0l, cc, A, B, 1` style).
fn compare(rng: &mut Rng, op: &str, nest: u32) -> String {
    let float = rng.chance(30);
    let (kind, conds) = if float {
        ("FloatSrc", FCONDITIONS)
    } else {
        ("ALUSrc", ICONDITIONS)
    };
    let a = source(rng, kind, 32);
    let b = source(rng, kind, 32);
    let suffix = if float { "fcmp" } else { "icmp" };
    format!("{op}_{suffix} r0l, {}, {a}, {b}, {nest}", rng.pick(conds).1)
}

/// Whether a line assembles.
fn assembles(line: &str) -> bool {
    asm::assemble_line(line, 0).is_ok()
}

/// One random instruction line that assembles.
fn random_line(rng: &mut Rng, opts: &GenOptions) -> String {
    loop {
        let line = if opts.memory_focus && rng.chance(70) || rng.chance(10) {
            memory_line(rng)
        } else if rng.chance(15) {
            let f = *rng.pick(SIMD_FORMS);
            match alu_line(rng, f) {
                Some(l) => l,
                None => continue,
            }
        } else {
            let f = *rng.pick(ALU_FORMS);
            match alu_line(rng, f) {
                Some(l) => l,
                None => continue,
            }
        };
        if assembles(&line) {
            return line;
        }
    }
}

/// Items at `depth` (nesting of regions) inside `loops` enclosing loops.
fn block(rng: &mut Rng, opts: &GenOptions, depth: u32, loops: u16, budget: &mut u32) -> Vec<Item> {
    let mut items = Vec::new();
    let n = 1 + rng.below(6);
    for _ in 0..n {
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        let r = rng.below(100);
        if depth < 3 && r < 12 {
            let then = block(rng, opts, depth + 1, loops, budget);
            let otherwise = rng
                .chance(40)
                .then(|| block(rng, opts, depth + 1, loops, budget));
            items.push(Item::If {
                cmp: compare(rng, "if", 1),
                then,
                otherwise,
                skip: rng.chance(50),
            });
        } else if depth < 3 && loops < 2 && r < 20 {
            // Each nesting level has its own counter: a break leaves its loop's counter
            // above zero, which must not restart an enclosing loop's count.
            let counter = 6 + loops;
            let start = if rng.chance(50) {
                format!(
                    "and r{counter}, r{}, {}",
                    rng.pick(&PATTERNS),
                    MAX_TRIPS - 1
                )
            } else {
                format!(
                    "mov_imm r{counter}, {}, 0b0",
                    rng.below(u64::from(MAX_TRIPS))
                )
            };
            let body = block(rng, opts, depth + 1, loops + 1, budget);
            items.push(Item::Loop {
                counter,
                start,
                body,
            });
        } else if loops > 0 && r < 24 {
            items.push(Item::Break {
                cmp: compare(rng, "if", 1),
            });
        } else {
            items.push(Item::Inst(random_line(rng, opts)));
        }
    }
    items
}

/// The program of `seed`.
pub fn generate(seed: u64, opts: &GenOptions) -> RandomProgram {
    let mut rng = Rng::new(seed);
    let mut budget = 8 + rng.below(40) as u32;
    let mut items = vec![Item::Inst("mov_imm r0l, 0".into())];
    while budget > 0 {
        items.extend(block(&mut rng, opts, 0, 0, &mut budget));
    }
    RandomProgram { items }
}

/// Writes items as listing lines. `ifs` counts the `if` levels inside the innermost loop
/// (what a break's r0l value must cover); labels are numbered by `next`.
fn lower(items: &[Item], out: &mut Vec<String>, next: &mut u32, ifs: Option<u32>) {
    for item in items {
        match item {
            Item::Inst(l) => out.push(l.clone()),
            Item::If {
                cmp,
                then,
                otherwise,
                skip,
            } => {
                let label = *next;
                *next += 1;
                let inner = ifs.map(|d| d + 1);
                out.push(cmp.clone());
                if *skip {
                    out.push(format!("jmp_exec_none pc+L{label}e"));
                }
                lower(then, out, next, inner);
                if let Some(o) = otherwise {
                    out.push(format!("L{label}e:"));
                    out.push("else_fcmp r0l, eq, 0.0, 0.0, 1".into());
                    if *skip {
                        out.push(format!("jmp_exec_none pc+L{label}x"));
                    }
                    lower(o, out, next, inner);
                    out.push(format!("L{label}x:"));
                } else {
                    out.push(format!("L{label}e:"));
                }
                out.push("pop_exec r0l, 1".into());
            }
            Item::Loop {
                counter,
                start,
                body,
            } => {
                let label = *next;
                *next += 1;
                out.push(start.clone());
                out.push("if_fcmp r0l, eq, 0.0, 0.0, 2".into());
                out.push(format!("L{label}:"));
                lower(body, out, next, Some(0));
                out.push(format!("isub r{counter}, r{counter}, 1"));
                out.push(format!("while_icmp r0l, sgt, r{counter}, 0, 1"));
                out.push(format!("jmp_exec_any pc+L{label}"));
                out.push("pop_exec r0l, 2".into());
            }
            Item::Break { cmp } => {
                let d = ifs.unwrap_or(0);
                out.push(cmp.clone());
                // Inside the new if (depth d + 1), the breaking lanes leave d + 1 ifs and the
                // loop's while level: r0l = d + 2, then the exec mask is recomputed.
                out.push(format!("mov_imm r0l, {}", d + 2));
                out.push("pop_exec r0l, 0".into());
                out.push("pop_exec r0l, 1".into());
            }
        }
    }
}

impl RandomProgram {
    /// The listing: the items, then `stop`; instructions indented under their labels.
    pub fn listing(&self) -> String {
        let mut out = Vec::new();
        let mut next = 0;
        lower(&self.items, &mut out, &mut next, None);
        out.push("stop".into());
        let lines: Vec<String> = out
            .into_iter()
            .map(|l| {
                if l.ends_with(':') {
                    l
                } else {
                    format!("  {l}")
                }
            })
            .collect();
        lines.join("\n") + "\n"
    }

    /// The machine code of the listing.
    pub fn code(&self) -> Result<Vec<u8>, asm::AsmError> {
        asm::assemble(&self.listing()).map(|p| p.bytes)
    }

    /// Instruction lines of the listing.
    pub fn instructions(&self) -> usize {
        self.listing().lines().filter(|l| !l.ends_with(':')).count()
    }

    /// One-step reductions, biggest first: an item removed, a region replaced by its body.
    pub fn reductions(&self) -> Vec<RandomProgram> {
        let mut out = Vec::new();
        reduce_structured(&self.items, &mut |items| out.push(RandomProgram { items }));
        out
    }
}

/// Blocks reduce through the shared structured reducer: an if's then and else and a loop's
/// body are its bodies; a loop's body taken out of it loses its breaks; the `mov_imm r0l, 0`
/// that opens a program (the exec-stack prologue) stays.
impl Structured for Item {
    fn bodies(&self) -> Vec<&[Item]> {
        match self {
            Item::If {
                then, otherwise, ..
            } => std::iter::once(then.as_slice())
                .chain(otherwise.as_deref())
                .collect(),
            Item::Loop { body, .. } => vec![body],
            _ => Vec::new(),
        }
    }

    fn with_body(&self, k: usize, inner: Vec<Item>) -> Item {
        let mut it = self.clone();
        match (&mut it, k) {
            (Item::If { then, .. }, 0) => *then = inner,
            (
                Item::If {
                    otherwise: Some(o), ..
                },
                _,
            ) => *o = inner,
            (Item::Loop { body, .. }, _) => *body = inner,
            _ => {}
        }
        it
    }

    fn hoist(&self, k: usize) -> Vec<Item> {
        match self {
            Item::Loop { body, .. } => strip_breaks(body),
            _ => self.bodies()[k].to_vec(),
        }
    }

    fn pinned(&self, index: usize) -> bool {
        index == 0 && *self == Item::Inst("mov_imm r0l, 0".into())
    }
}

/// A loop body taken out of its loop: its breaks (which need the loop) dropped.
fn strip_breaks(items: &[Item]) -> Vec<Item> {
    items
        .iter()
        .filter(|i| !matches!(i, Item::Break { .. }))
        .map(|i| match i {
            Item::If {
                cmp,
                then,
                otherwise,
                skip,
            } => Item::If {
                cmp: cmp.clone(),
                then: strip_breaks(then),
                otherwise: otherwise.as_deref().map(strip_breaks),
                skip: *skip,
            },
            other => other.clone(),
        })
        .collect()
}

/// A random wave's starting registers: 32 lanes of r0-r31, u0-u15 (u0_u1 set by the caller).
#[derive(Clone, Debug)]
pub struct InitialState {
    /// `gprs[r][lane]`.
    pub gprs: Vec<[u32; 32]>,
    pub uniforms: [u32; 16],
    pub exec: u32,
    /// Threadgroup memory contents.
    pub threadgroup: Vec<u8>,
    /// Device buffer contents.
    pub buffer: Vec<u8>,
}

/// Edge values random registers are drawn from.
const EDGES: &[u32] = &[
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0x3f80_0000,
    0xbf80_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0x7fa0_0001,
    0x0000_0001,
    0x807f_ffff,
    0x0080_0000,
    0x3c00_3c00,
    0x7c00_fc00,
    0x0001_8001,
    0x7e00_0400,
    0x4000_0000,
    0x3f00_0000,
    0xffff,
    0x8000,
    0x7fff,
];

impl InitialState {
    pub fn random(seed: u64) -> InitialState {
        let mut rng = Rng::new(seed ^ 0x5eed_5eed);
        let mut gprs = vec![[0u32; 32]; 32];
        for (r, row) in gprs.iter_mut().enumerate() {
            for (lane, v) in row.iter_mut().enumerate() {
                let l = lane as u32;
                *v = match r {
                    0 | 1 | 6 | 7 => 0,
                    2 => l,
                    3 => (l * 4).wrapping_sub(64),
                    4 => l & 7,
                    5 => 31 - l,
                    _ if rng.chance(40) => *rng.pick(EDGES),
                    _ => rng.next_u64() as u32,
                };
            }
        }
        let mut uniforms = [0u32; 16];
        for u in uniforms.iter_mut().skip(2) {
            *u = if rng.chance(40) {
                *rng.pick(EDGES)
            } else {
                rng.next_u64() as u32
            };
        }
        let exec = match rng.below(4) {
            0 => u32::MAX,
            1 => rng.next_u64() as u32,
            2 => 0x0000_ffff,
            _ => u32::MAX >> rng.below(31),
        };
        let fill =
            |rng: &mut Rng, n: u32| (0..n).map(|_| rng.next_u64() as u8).collect::<Vec<u8>>();
        let threadgroup = fill(&mut rng, THREADGROUP_BYTES);
        let buffer = fill(&mut rng, BUFFER_BYTES);
        InitialState {
            gprs,
            uniforms,
            exec,
            threadgroup,
            buffer,
        }
    }
}
