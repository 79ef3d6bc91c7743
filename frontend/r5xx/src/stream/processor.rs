//! The command processor (seed 003 §2.1-§2.2): the state the commands set, applied in order,
//! and the [`Event`]s an executor acts on. Pure: it runs nothing and touches no memory.
//!
//! An executor feeds every command to [`CommandProcessor::apply`] and, for each event:
//! - [`Event::StartProgram`]: reads the instruction words at `launch.inst.base`, decodes
//!   them, takes the program info of the `program` directive at that address
//!   ([`super::Directives::program_at`]), builds the setup with [`Launch::setup`], runs every
//!   index pair of `launch.domain` to completion, writes the outputs to memory, and reports
//!   the guest instructions executed with [`CommandProcessor::program_done`];
//! - [`Event::ReadPerfCounters`]: writes the two values, little-endian, at `addr`;
//! - [`Event::WaitForIdle`] and [`Event::Cache`]: nothing (below).
//!
//! Caches: every cache command is a no-op, and the emulator has no caches: a program reads
//! its instructions, constants and inputs from memory when it starts and its outputs and
//! conditional values are in memory when it ends. So after each command the memory is what
//! the seed says a correctly synchronised stream sees. A stream that omits an
//! `inv_*_cache` after memory changed, or a `flush_*` before the host reads results, gets
//! that same synchronised result, where hardware may give stale data: the seed leaves the
//! stale contents undefined (they depend on what the caches held), so no single answer is
//! more faithful, and the emulator does not report it. Likewise `wait_for_idle` has nothing
//! to wait for, since `start_program` finishes before the next command.
//!
//! Non-pipelined commands (`set_*_fmt`, `read_perf_counters`; table 3): the seed makes them
//! undefined while a program may be running, i.e. unless a `wait_for_idle` came after the
//! last `start_program` (§2.2). A stream that breaks this is an error here, not a warning:
//! its hardware result is unpredictable, and a stream meant to be compared with hardware
//! must not rely on the emulator's sequential answer. At the start of a stream nothing runs.
//!
//! Initial state (the seed gives none): no surfaces and no domain (a `start_program` without
//! `set_inst_fmt` or `set_domain` is an error), output mask 0xF (every channel written),
//! conditional test `always` at the DPP (no effect), conditional write mask 0, conditional
//! value 0, performance counters disabled. A `start_program` whose conditional test
//! compares with, or whose conditional write mask writes to, the conditional buffer needs
//! `set_cond_out_fmt` first.

use super::command::Command;
use super::perf::PerfCounters;
use super::table::Op;
use super::{Located, Pos, StreamError};
use crate::inst::Inst;
use crate::mc::Surface;
use crate::setup::{Bindings, CondLoc, CondTest, ProgInfo, Setup};

/// The domain of `set_domain`: every (i, j) with i0 <= i <= i1 and j0 <= j <= j1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domain {
    pub i0: u32,
    pub j0: u32,
    pub i1: u32,
    pub j1: u32,
}

impl Domain {
    pub fn width(&self) -> u32 {
        self.i1 - self.i0 + 1
    }

    pub fn height(&self) -> u32 {
        self.j1 - self.j0 + 1
    }

    /// The number of index pairs.
    pub fn len(&self) -> u64 {
        self.width() as u64 * self.height() as u64
    }

    /// Never: a domain holds at least one pair.
    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn contains(&self, i: u32, j: u32) -> bool {
        (self.i0..=self.i1).contains(&i) && (self.j0..=self.j1).contains(&j)
    }
}

/// A cache command (all no-ops; see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheOp {
    InvInst,
    InvConstf,
    InvConsti,
    InvConstb,
    InvCondOut,
    InvInp,
    FlushOut,
    FlushCondOut,
}

/// Everything a `start_program` runs under except the program itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Launch {
    /// The `start_program` command's position.
    pub pos: Pos,
    /// `set_inst_fmt`: slot `pc` is read at (pc, 0); only its base is needed, since no data
    /// format holds a six-dword slot (the executor reads the slots contiguously from it).
    pub inst: Surface,
    pub domain: Domain,
    pub bindings: Bindings,
}

impl Launch {
    /// The lifter's setup for `program` (decoded from slot 0 of the instruction memory on)
    /// under `info`.
    pub fn setup(&self, program: Vec<Inst>, info: ProgInfo) -> Setup {
        Setup {
            program,
            info,
            bindings: self.bindings,
        }
    }
}

/// What the executor must do after a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    StartProgram(Box<Launch>),
    /// Write `values` (total clocks, active clocks) as two little-endian u32 at `addr`.
    ReadPerfCounters {
        addr: u32,
        values: [u32; 2],
    },
    WaitForIdle,
    Cache(CacheOp),
}

/// The command processor's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CommandProcessor {
    pub inst: Option<Surface>,
    pub bindings: Bindings,
    pub domain: Option<Domain>,
    /// The last `start_program` not yet followed by a `wait_for_idle`.
    pub running_since: Option<Pos>,
    pub perf: PerfCounters,
}

/// A surface from checked parameters (the command checked them when it was made).
fn surface(base: u32, format: u32, height: u32, input: bool) -> Surface {
    Surface::decode(base, format, height, input).expect("a Command's format words are checked")
}

fn cond_test(code: u32) -> CondTest {
    use CondTest::*;
    [
        Never,
        Less,
        LessEqual,
        Equal,
        GreaterEqual,
        Greater,
        NotEqual,
        Always,
    ][code as usize & 7]
}

impl CommandProcessor {
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies one command; the event the executor must act on, if any.
    pub fn apply(&mut self, l: &Located) -> Result<Option<Event>, StreamError> {
        let (pos, cmd) = (l.pos, &l.cmd);
        let info = cmd.op().info();
        if let (false, Some(since)) = (info.pipelined, self.running_since) {
            return Err(StreamError::NotPipelined {
                pos,
                name: info.name,
                since,
            });
        }
        self.perf.clock();
        let p = cmd.params();
        let cache = |op| Ok(Some(Event::Cache(op)));
        match cmd.op() {
            Op::InitPerfCounters => self.perf.init(p[0]),
            Op::StartPerfCounters => self.perf.start(),
            Op::StopPerfCounters => self.perf.stop(),
            Op::ReadPerfCounters => {
                let addr = p[0] & !0x7ff;
                return Ok(self
                    .perf
                    .read()
                    .map(|values| Event::ReadPerfCounters { addr, values }));
            }
            Op::SetCondVal => self.bindings.cond.value = p[0],
            Op::SetDomain => {
                self.domain = Some(Domain {
                    i0: p[0],
                    j0: p[1],
                    i1: p[2],
                    j1: p[3],
                })
            }
            Op::StartProgram => {
                return self
                    .start(pos)
                    .map(|l| Some(Event::StartProgram(Box::new(l))))
            }
            Op::WaitForIdle => {
                self.running_since = None;
                return Ok(Some(Event::WaitForIdle));
            }
            Op::SetInstFmt => self.inst = Some(surface(p[0], p[1], 0, false)),
            Op::SetInpFmt => {
                self.bindings.inputs[p[0] as usize] = Some(surface(p[1], p[2], p[3], true))
            }
            Op::SetOutFmt => {
                self.bindings.outputs[p[0] as usize] = Some(surface(p[1], p[2], p[3], false))
            }
            Op::SetCondOutFmt => self.bindings.cond.buffer = Some(surface(p[0], p[1], p[2], false)),
            Op::SetConstfFmt => self.bindings.constf = Some(surface(p[0], p[1], 0, false)),
            Op::SetConstiFmt => self.bindings.consti = Some(surface(p[0], p[1], 0, false)),
            Op::SetConstbFmt => self.bindings.constb = Some(surface(p[0], p[1], 0, false)),
            Op::InvInstCache => return cache(CacheOp::InvInst),
            Op::InvConstfCache => return cache(CacheOp::InvConstf),
            Op::InvConstiCache => return cache(CacheOp::InvConsti),
            Op::InvConstbCache => return cache(CacheOp::InvConstb),
            Op::InvCondOutCache => return cache(CacheOp::InvCondOut),
            Op::InvInpCache => return cache(CacheOp::InvInp),
            Op::FlushOutCache => return cache(CacheOp::FlushOut),
            Op::FlushCondOutCache => return cache(CacheOp::FlushCondOut),
            Op::SetOutMask => self.bindings.out_mask = p[0] as u8,
            Op::SetCondOutMask => self.bindings.cond.write = p[0] & 1 != 0,
            Op::SetCondTest => self.bindings.cond.test = cond_test(p[0]),
            Op::SetCondLoc => {
                self.bindings.cond.loc = if p[0] & 1 == 0 {
                    CondLoc::Dpp
                } else {
                    CondLoc::Pe
                }
            }
        }
        Ok(None)
    }

    /// Applies a command made on the spot (tests, generated streams), at `pos`.
    pub fn apply_command(&mut self, pos: Pos, cmd: Command) -> Result<Option<Event>, StreamError> {
        self.apply(&Located { pos, cmd })
    }

    /// The program of the last `StartProgram` finished after `instructions` guest
    /// instructions summed over its SIMD groups (see [`super::perf`]); both engines
    /// and every thread count must report the same sum.
    pub fn program_done(&mut self, instructions: u64) {
        self.perf.program_done(instructions);
    }

    fn start(&mut self, pos: Pos) -> Result<Launch, StreamError> {
        let err = |msg: &str| StreamError::Launch {
            pos,
            msg: msg.to_string(),
        };
        let inst = self
            .inst
            .ok_or_else(|| err("no set_inst_fmt has given the program's address"))?;
        let domain = self
            .domain
            .ok_or_else(|| err("no set_domain has given the domain"))?;
        let c = &self.bindings.cond;
        let compares = !matches!(c.test, CondTest::Never | CondTest::Always);
        if c.buffer.is_none() && (compares || (c.write && c.test != CondTest::Never)) {
            return Err(err(&format!(
                "the conditional test ({:?}, write mask {}) uses the conditional buffer, which no set_cond_out_fmt has given",
                c.test, c.write as u32
            )));
        }
        self.running_since = Some(pos);
        Ok(Launch {
            pos,
            inst,
            domain,
            bindings: self.bindings,
        })
    }
}
