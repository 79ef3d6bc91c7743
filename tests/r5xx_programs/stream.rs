//! The tests' own reading of a `.ctm` stream (DESIGN.md "`wavejit ctm`": one command per
//! line, parameters decimal or 0x-hex, `;` comments, the directives `memory`, `load`,
//! `program`, `save`), its binary form (seed 003 table 3: each command's opcode dword from the
//! table, then its parameter dwords, little-endian), and the command processor's effect on
//! the host model: the state each `start_program` runs under (seed 003 §2.2; the initial
//! state and the perf-counter model are the ones frontend/r5xx/src/stream/processor.rs and
//! perf.rs document).

use super::mc::Surface;

/// A directive of a text stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Directive {
    Memory(u32),
    Load(u32, String),
    Program(u32, String),
    Save(u32, u32, String),
}

/// A command: its name and parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub name: String,
    pub params: Vec<u32>,
}

/// A parsed text stream.
#[derive(Clone, Debug, Default)]
pub struct Stream {
    pub directives: Vec<Directive>,
    pub commands: Vec<Command>,
}

pub fn number(s: &str) -> u32 {
    match s.strip_prefix("0x") {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    }
    .unwrap_or_else(|_| panic!("`{s}` is not a number"))
}

impl Stream {
    pub fn parse(text: &str) -> Stream {
        let mut s = Stream::default();
        for line in text.lines() {
            let line = line.split(';').next().unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some((&head, rest)) = words.split_first() else {
                continue;
            };
            match head {
                "memory" => s.directives.push(Directive::Memory(number(rest[0]))),
                "load" => s
                    .directives
                    .push(Directive::Load(number(rest[0]), rest[1].into())),
                "program" => s
                    .directives
                    .push(Directive::Program(number(rest[0]), rest[1].into())),
                "save" => s.directives.push(Directive::Save(
                    number(rest[0]),
                    number(rest[1]),
                    rest[2].into(),
                )),
                _ => s.commands.push(Command {
                    name: head.into(),
                    params: rest.iter().map(|w| number(w)).collect(),
                }),
            }
        }
        s
    }

    /// The binary stream of the commands.
    pub fn binary(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for c in &self.commands {
            let op = opcode(&c.name);
            out.extend_from_slice(&op.to_le_bytes());
            for p in &c.params {
                out.extend_from_slice(&p.to_le_bytes());
            }
        }
        out
    }
}

/// The opcode dwords of seed 003 table 3.
fn opcode(name: &str) -> u32 {
    match name {
        "init_perf_counters" => 0xC001_0200,
        "start_perf_counters" => 0xC000_0300,
        "stop_perf_counters" => 0xC000_0400,
        "read_perf_counters" => 0xC001_0500,
        "set_cond_val" => 0xC000_0600,
        "set_domain" => 0xC003_0700,
        "start_program" => 0xC000_0800,
        "wait_for_idle" => 0xC000_0900,
        "set_inst_fmt" => 0xC001_0A00,
        "set_inp_fmt" => 0xC003_0B00,
        "set_out_fmt" => 0xC003_0C00,
        "set_cond_out_fmt" => 0xC002_0D00,
        "set_constf_fmt" => 0xC001_0E00,
        "set_consti_fmt" => 0xC001_0F00,
        "set_constb_fmt" => 0xC001_1000,
        "inv_inst_cache" => 0xC000_1100,
        "inv_constf_cache" => 0xC000_1200,
        "inv_consti_cache" => 0xC000_1300,
        "inv_constb_cache" => 0xC000_1400,
        "inv_cond_out_cache" => 0xC000_1500,
        "inv_inp_cache" => 0xC000_1600,
        "flush_out_cache" => 0xC000_1700,
        "flush_cond_out_cache" => 0xC000_1800,
        "set_out_mask" => 0xC000_1900,
        "set_cond_out_mask" => 0xC000_1A00,
        "set_cond_test" => 0xC000_1B00,
        "set_cond_loc" => 0xC000_1C00,
        _ => panic!("unknown command `{name}`"),
    }
}

/// The domain of `set_domain`, inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Domain {
    pub i0: u32,
    pub j0: u32,
    pub i1: u32,
    pub j1: u32,
}

impl Domain {
    pub fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (self.j0..=self.j1).flat_map(move |j| (self.i0..=self.i1).map(move |i| (i, j)))
    }
}

/// The conditional operation unit's state.
#[derive(Clone, Copy, Debug)]
pub struct Cond {
    pub buffer: Option<Surface>,
    /// `set_cond_test`: 0 never, 1 <, 2 <=, 3 ==, 4 >=, 5 >, 6 !=, 7 always (client value
    /// op buffer value).
    pub test: u32,
    /// `set_cond_loc` bit 0: 1 PE (conditional execution), 0 DPP (conditional output).
    pub at_pe: bool,
    pub write: bool,
    pub value: u32,
}

impl Cond {
    /// Whether client value `v` passes against buffer value `b` (IEEE comparisons of f32).
    pub fn passes(&self, v: u32, b: impl FnOnce() -> u32) -> bool {
        let (v, b) = match self.test {
            0 => return false,
            7 => return true,
            _ => (f32::from_bits(v), f32::from_bits(b())),
        };
        match self.test {
            1 => v < b,
            2 => v <= b,
            3 => v == b,
            4 => v >= b,
            5 => v > b,
            _ => v != b,
        }
    }
}

/// Everything a `start_program` runs under.
#[derive(Clone, Copy, Debug)]
pub struct State {
    pub inst_base: u32,
    pub domain: Domain,
    pub inputs: [Option<Surface>; 16],
    pub outputs: [Option<Surface>; 4],
    pub out_mask: u8,
    pub cond: Cond,
    pub constf: Option<Surface>,
    pub consti: Option<Surface>,
    pub constb: Option<Surface>,
}

/// The performance counters' model (README "ATI R5xx", stream/perf.rs): one clock per command
/// while running, charged before its effect, plus each run's guest instructions.
#[derive(Clone, Copy, Debug, Default)]
struct Perf {
    enabled: bool,
    running: bool,
    total: u64,
    active: u64,
}

/// Applies `stream`'s commands to `mem`, calling `run` for each `start_program` with the
/// state it runs under; `run` returns the guest instructions the run executed, needed only
/// while the perf counters run.
pub fn apply(
    stream: &Stream,
    mem: &mut [u8],
    run: &mut dyn FnMut(&State, &mut [u8]) -> Option<u64>,
) {
    let mut st = State {
        inst_base: 0,
        domain: Domain {
            i0: 0,
            j0: 0,
            i1: 0,
            j1: 0,
        },
        inputs: [None; 16],
        outputs: [None; 4],
        out_mask: 0xf,
        cond: Cond {
            buffer: None,
            test: 7,
            at_pe: false,
            write: false,
            value: 0,
        },
        constf: None,
        consti: None,
        constb: None,
    };
    let mut perf = Perf::default();
    for c in &stream.commands {
        let p = &c.params;
        if perf.running {
            perf.total += 1;
        }
        match c.name.as_str() {
            "init_perf_counters" => {
                perf = Perf {
                    enabled: p[0] & 1 == 1,
                    ..Perf::default()
                }
            }
            "start_perf_counters" if perf.enabled => {
                perf.total = 0;
                perf.active = 0;
                perf.running = true;
            }
            "stop_perf_counters" => perf.running = false,
            "read_perf_counters" if perf.enabled => {
                let at = (p[0] & !0x7ff) as usize;
                mem[at..at + 4].copy_from_slice(&(perf.total as u32).to_le_bytes());
                mem[at + 4..at + 8].copy_from_slice(&(perf.active as u32).to_le_bytes());
            }
            "set_cond_val" => st.cond.value = p[0],
            "set_domain" => {
                st.domain = Domain {
                    i0: p[0],
                    j0: p[1],
                    i1: p[2],
                    j1: p[3],
                }
            }
            "start_program" => {
                let n = run(&st, mem);
                if perf.running {
                    let n = n.expect("the model counts the instructions of this program");
                    perf.total += n;
                    perf.active += n;
                }
            }
            "set_inst_fmt" => st.inst_base = p[0] & !0x7ff,
            "set_inp_fmt" => st.inputs[p[0] as usize] = Some(Surface::new(p[1], p[2], p[3])),
            "set_out_fmt" => st.outputs[p[0] as usize] = Some(Surface::new(p[1], p[2], p[3])),
            "set_cond_out_fmt" => st.cond.buffer = Some(Surface::new(p[0], p[1], p[2])),
            "set_constf_fmt" => st.constf = Some(Surface::new(p[0], p[1], 0)),
            "set_consti_fmt" => st.consti = Some(Surface::new(p[0], p[1], 0)),
            "set_constb_fmt" => st.constb = Some(Surface::new(p[0], p[1], 0)),
            "set_out_mask" => st.out_mask = (p[0] & 0xf) as u8,
            "set_cond_out_mask" => st.cond.write = p[0] & 1 == 1,
            "set_cond_test" => st.cond.test = p[0] & 7,
            "set_cond_loc" => st.cond.at_pe = p[0] & 1 == 1,
            // Caches, wait_for_idle, and perf commands while disabled: no effect.
            _ => {}
        }
    }
}
