//! The harness of the R5xx program tests (tests/r5xx_programs.rs): programs written in the
//! assembler syntax (tests/programs/r5xx/NAME.s, syntax in frontend/r5xx/src/print.rs), their
//! CTM command streams (NAME.ctm), seeded input data, and host models of what each program
//! computes at an index pair, run through `wavejit ctm` on both engines and compared bit for
//! bit, over the whole GPU memory, with the host's answer.
//!
//! A test ([`check`]) names a stream and gives the files it loads and one [`Model`] per
//! program it runs. The harness, in a fresh temporary directory:
//! 1. assembles each program a `program ADDR FILE.elf` directive names from FILE.s into a CTM
//!    ELF ([`assemble`]: its program info from a `# proginfo:` comment line);
//! 2. writes the loaded files and the stream;
//! 3. computes the expected memory: the loads and programs placed as the directives say, then
//!    the stream's commands applied by the host command processor ([`stream::apply`]), each
//!    `start_program` by [`launch`] with the program's [`Model`] (which reads only the memory
//!    before the run);
//! 4. runs `wavejit ctm NAME.ctm --engine interp` and `--engine jit` and compares every `save`
//!    with the expected bytes (and the engines with each other);
//! 5. runs the binary form of the same stream (NAME.cb, written from the seed's opcode table
//!    by [`stream::Stream::binary`]) with the directives as `--load`, `--program`, `--save`
//!    options, and compares its saves too.
//!
//! [`launch`] is the documented semantics of a `start_program` (seed 003 §2.1.1-§2.1.3; the
//! lifter's output.rs and DESIGN.md for the choices): the PE's test (at the PE) decides which
//! pairs run and writes the PE's value to the conditional buffer for them; a pair's outputs
//! are its output registers at the end (0 in channels no slot wrote), written with
//! `set_out_mask` in their surface's format unless TEXKILL killed it or the CO's test at the
//! DPP failed (client value: the exported W, else the PE's value), which then writes the value
//! to the buffer if `set_cond_out_mask` says so. It also checks the test's own layout: no two
//! elements a run writes share a byte, and nothing a run writes overlaps the memory its inputs
//! and constants were filled in.

pub mod assemble;
pub mod data;
pub mod float;
pub mod mc;
pub mod stream;

use assemble::{assemble, Program};
use mc::Surface;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use stream::{Directive, State, Stream};

pub use crate::cli_util::Rng;
pub use data::Image;

/// What one index pair's run of a program produced.
#[derive(Clone, Debug, Default)]
pub struct Pair {
    /// The output registers of the render targets an OUTPUT slot of the program writes (None
    /// for the others), f32 bits.
    pub out: [Option<[u32; 4]>; 4],
    /// The W output, if a slot wrote it.
    pub w: Option<u32>,
    /// Killed by TEXKILL.
    pub killed: bool,
}

/// The host model of a program: what it computes at index pair (i, j).
pub struct Model {
    /// The program's name: tests/programs/r5xx/NAME.s, loaded as NAME.elf.
    pub name: &'static str,
    pub pair: fn(&Ctx, u32, u32) -> Pair,
}

/// What a model reads: the memory before the run and the state the run is under.
pub struct Ctx<'a> {
    pub mem: &'a [u8],
    pub st: &'a State,
}

/// The texel coordinate of a TEX coordinate (the lifter's tex.rs rule): NaN is +Inf, a
/// denormal 0; scaled coordinates are multiplied by the input's size in f32; then floor,
/// saturated to a signed 32-bit integer.
fn texel(v: u32, size: Option<u32>) -> u32 {
    let mut f = f32::from_bits(float::flush(v));
    if f.is_nan() {
        f = f32::INFINITY;
    }
    if let Some(n) = size {
        f = f32::from_bits(float::flush((f * n as f32).to_bits()));
    }
    f.floor() as i32 as u32
}

impl Ctx<'_> {
    fn input(&self, k: usize) -> Surface {
        self.st.inputs[k].unwrap_or_else(|| panic!("input {k} is not set"))
    }

    /// TEX LD from input `k` at unscaled coordinates (s, t) (f32 bits).
    pub fn tex(&self, k: usize, s: u32, t: u32) -> [u32; 4] {
        self.input(k)
            .read_input(self.mem, texel(s, None), texel(t, None))
    }

    /// TEX LD at (i, j), the coordinates of r0.
    pub fn tex_at(&self, k: usize, i: u32, j: u32) -> [u32; 4] {
        self.tex(k, float::f(i as f32), float::f(j as f32))
    }

    /// TEX LD from input `k` at scaled coordinates (by the input's pitch and height).
    pub fn tex_scaled(&self, k: usize, s: u32, t: u32) -> [u32; 4] {
        let inp = self.input(k);
        inp.read_input(
            self.mem,
            texel(s, Some(inp.pitch)),
            texel(t, Some(inp.height)),
        )
    }

    /// Float constant `c`: element (c, 0) of the float constants.
    pub fn constf(&self, c: u32) -> [u32; 4] {
        let s = self.st.constf.expect("set_constf_fmt");
        s.read(self.mem, c, 0)
    }

    /// Integer constant `c`: element (c, 0) of the integer constants (UINT8_4 bytes): the
    /// iteration count (R), the initial aL (G) and the aL step (B, signed).
    pub fn consti(&self, c: u32) -> (u32, u32, i32) {
        let s = self.st.consti.expect("set_consti_fmt");
        assert_eq!(
            s.format,
            mc::UINT8_4,
            "the model reads UINT8_4 integer constants"
        );
        let at = s.address(c, 0) as usize;
        let b = &self.mem[at..at + 3];
        (u32::from(b[0]), u32::from(b[1]), i32::from(b[2] as i8))
    }

    /// Whether some running processor of the SIMD group of pair (i, j) has `pred`: the group
    /// is the 16x4 tile of pairs at multiples of (16, 4) (README "ATI R5xx"), and a processor
    /// runs when its quad (the 2x2 block at even coordinates) holds a pair of the domain
    /// (without conditional execution at the PE, which the callers do not use).
    pub fn group_any(&self, i: u32, j: u32, pred: &dyn Fn(u32, u32) -> bool) -> bool {
        let d = self.st.domain;
        let in_domain = |x: u32, y: u32| (d.i0..=d.i1).contains(&x) && (d.j0..=d.j1).contains(&y);
        let runs = |x: u32, y: u32| {
            let (qx, qy) = (x & !1, y & !1);
            [(0, 0), (1, 0), (0, 1), (1, 1)]
                .iter()
                .any(|&(dx, dy)| in_domain(qx + dx, qy + dy))
        };
        let (x0, y0) = (i / 16 * 16, j / 4 * 4);
        (y0..y0 + 4).any(|y| (x0..x0 + 16).any(|x| runs(x, y) && pred(x, y)))
    }

    /// Boolean constant `c`: element (c, 0)'s R channel, raw bits, nonzero.
    pub fn constb(&self, c: u32) -> bool {
        let s = self.st.constb.expect("set_constb_fmt");
        assert!(
            s.format >= mc::FLOAT32_1,
            "the model reads raw FLOAT32 booleans"
        );
        s.read(self.mem, c, 0)[0] != 0
    }
}

fn programs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/r5xx")
}

/// Byte ranges the test wrote data into (inputs and constants) before the stream ran.
pub type Filled = Vec<std::ops::Range<u32>>;

/// Runs one `start_program` on the host: see the module docs. Returns the guest instructions
/// it executed when the program is straight-line: the README's perf-counter model counts the
/// slots each SIMD group (a 16x4 tile of pairs at multiples of (16, 4)) executed, summed over
/// the groups; a group runs when a pair of its tile runs.
fn launch(
    st: &State,
    mem: &mut [u8],
    model: &Model,
    prog: &Program,
    filled: &Filled,
) -> Option<u64> {
    let before = mem.to_vec();
    let ctx = Ctx { mem: &before, st };
    let cond = st.cond;
    let buffer = || {
        cond.buffer
            .expect("the run reads or writes the conditional buffer")
    };
    check_layout(st, filled);
    let mut groups = std::collections::HashSet::new();
    for (i, j) in st.domain.pairs() {
        if cond.at_pe {
            if !cond.passes(cond.value, || buffer().read(&before, i, j)[0]) {
                continue;
            }
            if cond.write {
                buffer().write(mem, i, j, 1, [cond.value, 0, 0, 0]);
            }
        }
        groups.insert((i / 16, j / 4));
        let p = (model.pair)(&ctx, i, j);
        if p.killed {
            continue;
        }
        if !cond.at_pe {
            let v = match p.w {
                Some(w) if prog.info.exports_cond => w,
                _ => cond.value,
            };
            if !cond.passes(v, || buffer().read(&before, i, j)[0]) {
                continue;
            }
            if cond.write {
                buffer().write(mem, i, j, 1, [v, 0, 0, 0]);
            }
        }
        for (t, value) in p.out.iter().enumerate() {
            if let (Some(v), Some(s)) = (value, st.outputs[t]) {
                s.write(mem, i, j, st.out_mask, *v);
            }
        }
    }
    prog.straight.map(|slots| slots * groups.len() as u64)
}

/// The test's own layout: the elements a run may write (every bound output and the
/// conditional buffer over the domain) share no byte, and none lies where input data or
/// constants were filled in.
fn check_layout(st: &State, filled: &Filled) {
    let mut owner: HashMap<u32, (usize, u32, u32)> = HashMap::new();
    let targets = st
        .outputs
        .iter()
        .enumerate()
        .filter_map(|(t, s)| s.map(|s| (t, s)));
    let cond = st.cond.buffer.map(|s| (4, s));
    for (t, s) in targets.chain(cond) {
        for (i, j) in st.domain.pairs() {
            for b in s.bytes(i, j) {
                if let Some(o) = owner.insert(b, (t, i, j)) {
                    panic!("layout: byte {b:#x} of target {t} ({i}, {j}) is also {o:?}'s");
                }
                assert!(
                    !filled.iter().any(|r| r.contains(&b)),
                    "layout: target {t} ({i}, {j}) writes byte {b:#x} of the input data"
                );
            }
        }
    }
}

/// A test: a stream, the files it loads, and the models of its programs.
pub struct Case {
    /// tests/programs/r5xx/NAME.ctm.
    pub stream: &'static str,
    pub files: Vec<(&'static str, Vec<u8>)>,
    pub models: Vec<Model>,
    /// The byte ranges the files' input data and constants occupy (see [`check_layout`]).
    pub filled: Filled,
}

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = crate::cli_util::temp_path(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run_cli(args: &[&str]) {
    let out = crate::cli_util::wavejit(args);
    assert!(
        out.status.success(),
        "wavejit {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The first differences of two memory ranges starting at `addr`, as dwords.
fn differences(addr: u32, want: &[u8], got: &[u8]) -> String {
    let mut lines = Vec::new();
    let mut count = 0;
    for (k, (w, g)) in want.chunks(4).zip(got.chunks(4)).enumerate() {
        if w != g {
            count += 1;
            if lines.len() < 12 {
                lines.push(format!(
                    "  {:#x}: want {:02x?} got {:02x?}",
                    addr as usize + 4 * k,
                    w,
                    g
                ));
            }
        }
    }
    format!("{count} dwords differ, first:\n{}", lines.join("\n"))
}

/// Runs a [`Case`] (see the module docs).
pub fn check(case: Case) {
    let path = programs_dir().join(format!("{}.ctm", case.stream));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let stream = Stream::parse(&text);
    let dir = scratch(case.stream);
    let files: HashMap<&str, &Vec<u8>> = case.files.iter().map(|(n, b)| (*n, b)).collect();

    // Files, programs, and the memory they make.
    let mut size = 64 << 20;
    let mut programs: Vec<(u32, String, Program)> = Vec::new();
    let mut placed: Vec<(u32, Vec<u8>)> = Vec::new();
    let mut options: Vec<String> = Vec::new();
    for d in &stream.directives {
        match d {
            Directive::Memory(n) => size = *n as usize,
            Directive::Load(addr, file) => {
                let bytes = files
                    .get(file.as_str())
                    .unwrap_or_else(|| panic!("the test gives no {file}"));
                std::fs::write(dir.join(file), bytes).unwrap();
                placed.push((*addr, bytes.to_vec()));
                options.push(format!("--load={addr:#x}:{}", dir.join(file).display()));
            }
            Directive::Program(addr, file) => {
                let name = file.strip_suffix(".elf").expect("programs are NAME.elf");
                let (prog, elf) = assemble(name);
                std::fs::write(dir.join(file), elf).unwrap();
                let bytes = prog.words.iter().flat_map(|w| w.to_le_bytes()).collect();
                placed.push((*addr, bytes));
                programs.push((*addr, name.to_string(), prog));
                options.push(format!("--program={addr:#x}:{}", dir.join(file).display()));
            }
            Directive::Save(..) => {}
        }
    }
    let mut want = vec![0u8; size];
    for (addr, bytes) in &placed {
        want[*addr as usize..*addr as usize + bytes.len()].copy_from_slice(bytes);
    }
    stream::apply(&stream, &mut want, &mut |st, mem| {
        let (_, name, prog) = programs
            .iter()
            .rev()
            .find(|(a, ..)| *a == st.inst_base)
            .unwrap_or_else(|| panic!("no program at {:#x}", st.inst_base));
        let model = case
            .models
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no model of {name}"));
        launch(st, mem, model, prog, &case.filled)
    });

    // The CLI on both engines, then the binary stream.
    let ctm = dir.join(format!("{}.ctm", case.stream));
    std::fs::write(&ctm, &text).unwrap();
    let cb = dir.join(format!("{}.cb", case.stream));
    std::fs::write(&cb, stream.binary()).unwrap();
    let saves: Vec<(u32, u32, String)> = stream
        .directives
        .iter()
        .filter_map(|d| match d {
            Directive::Save(a, n, f) => Some((*a, *n, f.clone())),
            _ => None,
        })
        .collect();
    let mut results: Vec<(String, Vec<Vec<u8>>)> = Vec::new();
    // The interpreter on one thread, the JIT on the default (every core).
    for (engine, threads) in [("interp", Some("1")), ("jit", None)] {
        let mut args = vec!["ctm", ctm.to_str().unwrap(), "--engine", engine];
        args.extend(threads.map(|t| ["--threads", t]).into_iter().flatten());
        run_cli(&args);
        let got = saves.iter().map(|(_, _, f)| read(&dir.join(f))).collect();
        results.push((format!("text stream, {engine}"), got));
    }
    let mut args: Vec<String> = ["ctm", cb.to_str().unwrap(), "--engine", "jit"]
        .map(String::from)
        .to_vec();
    args.extend(options);
    for (a, n, f) in &saves {
        args.push(format!(
            "--save={a:#x}:{n:#x}:{}",
            dir.join(format!("cb-{f}")).display()
        ));
    }
    run_cli(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let got = saves
        .iter()
        .map(|(_, _, f)| read(&dir.join(format!("cb-{f}"))))
        .collect();
    results.push(("binary stream, jit".into(), got));

    let mut failures = Vec::new();
    for (k, (addr, n, file)) in saves.iter().enumerate() {
        let expect = &want[*addr as usize..(*addr + *n) as usize];
        for (what, got) in &results {
            if got[k] != expect {
                failures.push(format!(
                    "{} {file} ({what}): {}",
                    case.stream,
                    differences(*addr, expect, &got[k])
                ));
            }
        }
        let agree = results.windows(2).all(|w| w[0].1[k] == w[1].1[k]);
        if !agree {
            failures.push(format!(
                "{} {file}: the runs disagree with each other",
                case.stream
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The stream tests/programs/r5xx/NAME.ctm as the tests read it.
pub fn stream_of(name: &str) -> Stream {
    let path = programs_dir().join(format!("{name}.ctm"));
    Stream::parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}")))
}

impl Stream {
    /// The surfaces of every `cmd` command (a `set_*_fmt`), in stream order, with the
    /// command's first parameter (the input or output index for `set_inp_fmt` /
    /// `set_out_fmt`, else the base).
    pub fn surfaces(&self, cmd: &str) -> Vec<(u32, Surface)> {
        self.commands
            .iter()
            .filter(|c| c.name == cmd)
            .map(|c| {
                let p = &c.params;
                match cmd {
                    "set_inp_fmt" | "set_out_fmt" => (p[0], Surface::new(p[1], p[2], p[3])),
                    "set_cond_out_fmt" => (p[0], Surface::new(p[0], p[1], p[2])),
                    _ => (p[0], Surface::new(p[0], p[1], 0)),
                }
            })
            .collect()
    }
}
