//! The lifter's semantics against applegpu.py's emulator: every vector of
//! tests/data/semantics-vectors.tsv (scripts/gen-g13-semantics.py; read its header) runs as
//! one SIMD-group on the interpreter and on the JIT, and both must end with applegpu's
//! registers bit for bit: the cells the instruction wrote as applegpu wrote them, every
//! other cell of r0-r127 as it was, and the exec mask as applegpu left it.
//!
//! Vectors run in batches so that the JIT compiles one program for many of them: vectors
//! with the same exec mask whose cells are disjoint run one after another in one program
//! (each then sees its own start values), an exec-stack instruction last. A batch that does
//! not end as expected is run again vector by vector to name the vectors that differ.
//!
//! Where applegpu's model differs from the rule the lifter documents, the vector is listed in
//! [`EXCEPTIONS`] with the reason, and must differ.

mod common;

use common::{Wave, LANES, STOP};
use std::collections::{BTreeMap, BTreeSet};
use wavejit_g13::inst::{decode, Inst};
use wavejit_g13::operand::{Src, SrcValue, Value};

/// Vectors whose results differ from applegpu's by design: the reason, which instructions it
/// concerns (checked for every listed vector), and the vectors, by id.
struct Exception {
    reason: &'static str,
    concerns: fn(&Inst) -> bool,
    /// Ids separated by whitespace.
    ids: &'static str,
}

const EXCEPTIONS: &[Exception] = &[
    Exception {
        reason: "applegpu drops the ninth bit of a select operand's uniform register (type \
                 0b111); the lifter reads the register the seed's pseudocode and Mesa name \
                 (operand::cmpsel_src)",
        concerns: select_uniform_above_u127,
        ids: "fcmpsel#2 fcmpsel#3 fcmpsel#5 fcmpsel#10 fcmpsel#14 fcmpsel#16 fcmpsel#22 \
              fcmpsel#24 fcmpsel#25 fcmpsel#29 icmpsel#15 icmpsel#17 icmpsel#22",
    },
    Exception {
        reason: "applegpu reads a 32-bit uniform source of a 16-bit float operation as an f32 \
                 and rounds the result once; the lifter reads the register's low half as an \
                 f16 (lift/regs.rs: a register wider than a float operation reads as its low \
                 bits)",
        concerns: word_uniform_in_f16_operation,
        ids: "fadd16#1 fadd16#7 fadd16#12 fadd16#22 fadd16#24 fadd16#25 fadd16#28 fadd16#31 \
              fmadd16#3 fmadd16#4 fmadd16#6 fmadd16#8 fmadd16#13 fmadd16#16 fmadd16#17 \
              fmadd16#18 fmadd16#20 fmadd16#21 fmadd16#23 fmadd16#25 fmadd16#29 fmul16#9 \
              fmul16#13 fmul16#19 fmul16#20",
    },
    Exception {
        reason: "applegpu's fcmp_ballot does not compare: its compare holds in every lane, so \
                 its result is the exec mask; the lifter compares (semantics_rules checks it)",
        concerns: |i| i.row.name == "fcmp_ballot",
        ids: "fcmp_ballot#0 fcmp_ballot#2 fcmp_ballot#3",
    },
];

/// A compare-select whose X or Y is a uniform register past u127 (its ninth bit set).
fn select_uniform_above_u127(i: &Inst) -> bool {
    ["X", "Y"].iter().any(|name| {
        matches!(
            i.operand(name),
            Some(Value::Src(Src { value: SrcValue::Uniform(u), .. })) if u.index >= 128
        )
    })
}

/// A 16-bit float operation with a 32-bit uniform source.
fn word_uniform_in_f16_operation(i: &Inst) -> bool {
    matches!(i.row.name, "fadd16" | "fmul16" | "fmadd16")
        && ["A", "B", "C"].iter().any(|name| {
            matches!(
                i.operand(name),
                Some(Value::Src(Src { value: SrcValue::Uniform(u), .. })) if u.half.is_none()
            )
        })
}

/// Every form applegpu executes, by name (the two `mov_imm` lengths share one).
const FORMS: &[&str] = &[
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
    "bitrev",
    "popcount",
    "ffs",
    "fmadd32",
    "fmadd16",
    "fadd32",
    "fadd16",
    "fmul32",
    "fmul16",
    "pop_exec",
    "if_icmp",
    "if_fcmp",
    "while_icmp",
    "while_fcmp",
    "else_icmp",
    "else_fcmp",
    "icmpsel",
    "fcmpsel",
    "icmp_ballot",
    "fcmp_ballot",
    "simd_shuffle",
    "simd_shuffle_down",
    "simd_shuffle_up",
    "simd_shuffle_rotate_up",
    "simd_shuffle_xor",
];

/// Vectors in one program at most.
const BATCH: usize = 24;

/// A register of the state a vector names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Cell {
    R(u32),
    U(u32),
}

struct Vector {
    id: String,
    bytes: Vec<u8>,
    exec: u32,
    /// Values before: 32 lanes of an `R`, one value of a `U`.
    init: BTreeMap<Cell, Vec<u32>>,
    /// Values after of the cells written (every lane).
    fin: BTreeMap<Cell, Vec<u32>>,
    exec_after: Option<u32>,
}

impl Vector {
    fn name(&self) -> &str {
        self.id.split('#').next().unwrap_or("")
    }
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

fn cell_name(name: &str) -> Cell {
    let n = |s: &str| s.parse::<u32>().expect("register number");
    match name.split_at(1) {
        ("r", k) => Cell::R(n(k)),
        ("u", k) => Cell::U(n(k)),
        _ => panic!("bad cell {name}"),
    }
}

/// The cells of one column; `before` resolves the `.` lanes of FINAL.
fn cells(
    text: &str,
    before: Option<&BTreeMap<Cell, Vec<u32>>>,
) -> (BTreeMap<Cell, Vec<u32>>, Option<u32>) {
    let mut out = BTreeMap::new();
    let mut exec = None;
    for item in text.split_whitespace() {
        let (name, vals) = item.split_once('=').expect("name=values");
        if name == "exec" {
            exec = Some(u32::from_str_radix(vals, 16).expect("exec"));
            continue;
        }
        let cell = cell_name(name);
        let lanes: Vec<&str> = match vals.strip_prefix('*') {
            Some(v) => vec![v; LANES as usize],
            None => vals.split(',').collect(),
        };
        let values = lanes
            .iter()
            .enumerate()
            .map(|(t, v)| match *v {
                "." => before.expect("`.` in INIT")[&cell][t],
                v => u32::from_str_radix(v, 16).expect("value"),
            })
            .collect();
        out.insert(cell, values);
    }
    (out, exec)
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("data/semantics-vectors.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let [id, bytes, exec, init, fin] = cols[..] else {
                panic!("malformed line {line:?}");
            };
            let (init, _) = cells(init, None);
            let (fin, exec_after) = cells(fin, Some(&init));
            Vector {
                id: id.to_string(),
                bytes: hex(bytes),
                exec: u32::from_str_radix(exec, 16).expect("exec"),
                init,
                fin,
                exec_after,
            }
        })
        .collect()
}

/// Vectors grouped into programs (indices into `vs`): same exec mask, disjoint cells, an
/// exec-stack instruction (one that sets the exec mask) only last.
fn batches(vs: &[Vector]) -> Vec<Vec<usize>> {
    struct Open {
        members: Vec<usize>,
        cells: BTreeSet<Cell>,
        exec: u32,
        closed: bool,
    }
    let mut open: Vec<Open> = Vec::new();
    for (i, v) in vs.iter().enumerate() {
        let mine: BTreeSet<Cell> = v.init.keys().copied().collect();
        let fits = open.iter().position(|b| {
            !b.closed && b.exec == v.exec && b.members.len() < BATCH && b.cells.is_disjoint(&mine)
        });
        let b = match fits {
            Some(k) => &mut open[k],
            None => {
                open.push(Open {
                    members: Vec::new(),
                    cells: BTreeSet::new(),
                    exec: v.exec,
                    closed: false,
                });
                open.last_mut().expect("just pushed")
            }
        };
        b.members.push(i);
        b.cells.extend(mine);
        b.closed = v.exec_after.is_some();
    }
    open.into_iter().map(|b| b.members).collect()
}

/// Runs the vectors `members` of `vs` in one program; the differences from applegpu's
/// results (empty when there are none).
fn check(vs: &[Vector], members: &[usize]) -> Vec<String> {
    let mut start = Wave::new();
    start.set_exec(vs[members[0]].exec);
    let mut code = Vec::new();
    let mut want = Wave::new();
    let mut want_exec = vs[members[0]].exec;
    for &i in members {
        let v = &vs[i];
        code.extend_from_slice(&v.bytes);
        for (&cell, vals) in &v.init {
            match cell {
                Cell::R(n) => {
                    for lane in 0..LANES {
                        start.set_r(n, lane, vals[lane as usize]);
                        want.set_r(n, lane, vals[lane as usize]);
                    }
                }
                Cell::U(n) => start.set_u(n, vals[0]),
            }
        }
        for (&cell, vals) in &v.fin {
            if let Cell::R(n) = cell {
                for lane in 0..LANES {
                    want.set_r(n, lane, vals[lane as usize]);
                }
            }
        }
        want_exec = v.exec_after.unwrap_or(want_exec);
    }
    code.extend_from_slice(&STOP);
    let got = match start.run(&code) {
        Ok(w) => w,
        Err(e) => return vec![e],
    };
    let mut diffs = Vec::new();
    for n in 0..128 {
        for lane in 0..LANES {
            let (w, g) = (want.r(n, lane), got.r(n, lane));
            if w != g {
                diffs.push(format!(
                    "r{n}[{lane}]: applegpu {w:#010x}, got {g:#010x} (before {:#010x})",
                    start.r(n, lane)
                ));
            }
        }
    }
    if got.exec() != want_exec {
        diffs.push(format!(
            "exec: applegpu {want_exec:#010x}, got {:#010x}",
            got.exec()
        ));
    }
    diffs
}

#[test]
fn every_vector_matches_applegpu_on_both_engines() {
    let vs = vectors();
    let names: BTreeSet<&str> = vs.iter().map(Vector::name).collect();
    let missing: Vec<&&str> = FORMS.iter().filter(|f| !names.contains(**f)).collect();
    assert!(missing.is_empty(), "forms without vectors: {missing:?}");
    let mut bad: BTreeMap<String, String> = BTreeMap::new();
    let groups = batches(&vs);
    for members in &groups {
        if check(&vs, members).is_empty() {
            continue;
        }
        let before = bad.len();
        for &i in members {
            let diffs = check(&vs, &[i]);
            if !diffs.is_empty() {
                let v = &vs[i];
                let shown: Vec<&String> = diffs.iter().take(6).collect();
                let text = format!(
                    "{} ({}): {} differences {shown:#?}",
                    v.id,
                    vs[i]
                        .bytes
                        .iter()
                        .map(|b| format!("{b:02x}"))
                        .collect::<String>(),
                    diffs.len()
                );
                bad.insert(v.id.clone(), text);
            }
        }
        assert!(
            bad.len() > before,
            "a batch differs but none of its vectors does alone: {:?}",
            members.iter().map(|&i| &vs[i].id).collect::<Vec<_>>()
        );
    }
    let mut listed = BTreeSet::new();
    for e in EXCEPTIONS {
        for id in e.ids.split_whitespace() {
            let v = vs
                .iter()
                .find(|v| v.id == id)
                .unwrap_or_else(|| panic!("listed {id} is no vector"));
            let inst = decode(&v.bytes).expect("a listed vector decodes");
            assert!((e.concerns)(&inst), "{id} is not a case of: {}", e.reason);
            assert!(listed.insert(id), "{id} listed twice");
        }
    }
    let unlisted: Vec<&String> = bad
        .iter()
        .filter(|(id, _)| !listed.contains(id.as_str()))
        .map(|(_, m)| m)
        .collect();
    let stale: Vec<&&str> = listed.iter().filter(|id| !bad.contains_key(**id)).collect();
    assert!(
        unlisted.is_empty() && stale.is_empty(),
        "{} of {} vectors differ from applegpu:\n{}\nlisted but matching: {stale:?}",
        unlisted.len(),
        vs.len(),
        unlisted
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    eprintln!(
        "{} vectors of {} forms in {} programs; {} listed as differing by design",
        vs.len(),
        names.len(),
        groups.len(),
        listed.len()
    );
}
